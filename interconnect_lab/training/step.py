"""Step time and its parts: :func:`training_step` and :func:`memory_per_gpu`, the sum of the terms.

Each term of the step is a function of :mod:`interconnect_lab.training.terms`;
:func:`evaluate` adds them up for one split or, vectorised, for many.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .. import units as u
from .._deprecation import renamed_parameters
from .._validation import as_output, check_number
from ..utilization import hardware_flops_utilization, model_flops_utilization
from . import terms
from .config import ParallelConfig  # noqa: F401 (memory_per_gpu's example)
from .models import flops_per_token, training_time_s
from .presets import DEFAULT_EFFICIENCIES, resolve_run, transformer_model  # noqa: F401 (training_step's example)
from .terms import MemoryBreakdown, Split


@dataclass(frozen=True)
class TrainingStep:
    """Where the time of one training iteration goes, and what it achieves.

    All times [s] are per iteration and, except ``compute_s``, count only what
    the GPU waits for. Attributes are floats, or arrays from :func:`parallel_sweep`.

    Attributes
    ----------
    compute_s : float or numpy.ndarray
        Computing all m microbatches on the slowest stage, recomputation included,
        plus the HBM time of the collectives hidden behind it: what they receive
        passes through HBM :data:`~interconnect_lab.collectives.HBM_BYTES_PER_RECEIVED_BYTE`
        times, memory bandwidth the compute beside them loses. With
        ``Precision.fp32_weights``, autocast's casts of the weights and their
        gradients too [s].
    tensor_parallel_s : float or numpy.ndarray
        Exposed tensor- and context-parallel collectives [s].
    pipeline_s : float or numpy.ndarray
        Exposed pipeline sends and receives [s].
    bubble_s : float or numpy.ndarray
        Pipeline fill and drain, (p-1)/v stage times [s].
    data_parallel_s : float or numpy.ndarray
        Exposed gradient reduction and ZeRO gathers [s].
    data_parallel_hidden_s : float or numpy.ndarray
        Data-parallel communication hidden behind the backward pass [s].
    optimizer_s : float or numpy.ndarray
        Clipping the gradients and the optimizer update (memory-bound) [s].
    step_s : float or numpy.ndarray
        Length of the iteration [s].
    gpus : int or numpy.ndarray
        GPUs.
    tokens : float or numpy.ndarray
        Tokens per iteration, B·s.
    model_flops : float or numpy.ndarray
        FLOPs the model needs per iteration, no recomputation (MFU's numerator) [FLOP].
    hardware_flops : float or numpy.ndarray
        FLOPs executed per iteration, recomputation included (HFU's) [FLOP].
    peak_flop_per_s : float
        Dense peak of one GPU [FLOP/s].
    memory : MemoryBreakdown
        Memory per GPU.
    """

    compute_s: float | np.ndarray
    tensor_parallel_s: float | np.ndarray
    pipeline_s: float | np.ndarray
    bubble_s: float | np.ndarray
    data_parallel_s: float | np.ndarray
    data_parallel_hidden_s: float | np.ndarray
    optimizer_s: float | np.ndarray
    step_s: float | np.ndarray
    gpus: int | np.ndarray
    tokens: float | np.ndarray
    model_flops: float | np.ndarray
    hardware_flops: float | np.ndarray
    peak_flop_per_s: float
    memory: MemoryBreakdown

    #: Names of the parts that add up to ``step_s``, in the order a figure stacks them.
    PARTS = ("compute_s", "tensor_parallel_s", "pipeline_s", "bubble_s", "data_parallel_s", "optimizer_s")

    @property
    def tokens_per_s(self):
        """Training throughput [token/s]."""
        return as_output(np.divide(self.tokens, self.step_s))

    @property
    def model_flop_per_s_per_gpu(self):
        """Model FLOP/s per GPU (no recomputation) [FLOP/s]."""
        return as_output(np.divide(self.model_flops, np.multiply(self.step_s, self.gpus)))

    @property
    def hardware_flop_per_s_per_gpu(self):
        """Executed FLOP/s per GPU, recomputation included: SC21's "TFLOP/s per GPU" [FLOP/s]."""
        return as_output(np.divide(self.hardware_flops, np.multiply(self.step_s, self.gpus)))

    @property
    def mfu(self):
        """Model FLOPs utilization [-]."""
        return model_flops_utilization(self.model_flops, self.step_s, self.peak_flop_per_s, self.gpus)

    @property
    def hfu(self):
        """Hardware FLOPs utilization [-]."""
        return hardware_flops_utilization(self.hardware_flops, self.step_s, self.peak_flop_per_s, self.gpus)

    @property
    def bubble_fraction(self):
        """Pipeline bubble as a share of the iteration [-]."""
        return as_output(np.divide(self.bubble_s, self.step_s))

    def breakdown(self) -> dict:
        """The parts of the step [s], by name, in stacking order."""
        return {name: getattr(self, name) for name in self.PARTS}

    def days_to_train(self, tokens, parameters=None):
        """Days to train on ``tokens`` tokens at this step's throughput [day].

        With ``parameters`` given, SC21 Eq. (4) (:func:`training_time_s`) at this
        step's executed FLOP/s per GPU instead.
        """
        tokens = check_number("tokens", tokens, unit="token", minimum=0)
        if parameters is None:
            return as_output(tokens / np.asarray(self.tokens_per_s) / u.day)
        return as_output(training_time_s(parameters, tokens, self.gpus, self.hardware_flop_per_s_per_gpu) / u.day)


def evaluate(model, cluster, software, efficiencies, split) -> TrainingStep:
    """The step-time model for one split or, vectorised, for many: the terms added up.

    .. math::

        t_\\text{step} = m\\, t_\\text{stage} + \\frac{p-1}{v} t_\\text{stage}
            + t_\\text{TP} + t_\\text{PP} + t_\\text{DP} + t_\\text{optimizer}

    with every term a function of :mod:`interconnect_lab.training.terms`: the
    layer (:func:`~interconnect_lab.training.terms.layer_terms`), the slowest
    stage (:func:`~interconnect_lab.training.terms.stage_time_s`), the bubble
    and the sends, data parallelism and ZeRO, the optimizer; the compute also
    pays what the hidden data-parallel collectives take from it. No input is
    checked here: :func:`training_step` and :func:`~interconnect_lab.training.parallel_sweep`
    check theirs.

    Parameters
    ----------
    model : TransformerModel
        The architecture.
    cluster : Cluster
        The hardware.
    software : Software
        The stack.
    efficiencies : Efficiencies
        The sustained rates.
    split : interconnect_lab.training.terms.Split
        One split, or many as arrays.

    Returns
    -------
    TrainingStep
        Floats, or arrays with one element per split.
    """
    gemm, hbm = terms.gemm_rate(cluster, efficiencies), terms.hbm_rate(cluster, efficiencies)
    p, v, m = split.p, split.v, split.microbatches
    layer = terms.layer_terms(model, cluster, software, split.recompute, gemm, hbm, split.t, split.c, split.b,
                              split.sequence_parallel, split.gpus)
    shape = terms.stage_shape(model, split)
    stage_s, stage_communication_s = terms.stage_time_s(model, cluster, software, efficiencies, layer, split, shape,
                                                        gemm, hbm)
    compute = m * stage_s
    tensor_parallel = m * stage_communication_s
    bubble = terms.pipeline_bubble_s(p, v, stage_s, stage_communication_s)
    pipeline = terms.pipeline_send_s(model, cluster, software, split)
    group = terms.data_parallel_group(cluster, split)
    data = terms.data_parallel_s(cluster, software, efficiencies, group, split, shape, layer,
                                2 + model.mlp_matrices)
    hidden = data.received_bytes * terms.hidden_share(data.communication_s, data.exposed_s)
    compute = compute + terms.hidden_traffic_s(hidden, hbm) + data.held_s
    optimizer = terms.optimizer_s(software, efficiencies, shape.parameters, split.zero_stage, group.shard, hbm)
    step = compute + tensor_parallel + pipeline + bubble + data.exposed_s + optimizer
    tokens = split.global_batch_size * model.sequence_length
    gpus = split.t * split.p * split.d * split.c
    out_ = as_output
    return TrainingStep(
        compute_s=out_(compute), tensor_parallel_s=out_(tensor_parallel), pipeline_s=out_(pipeline),
        bubble_s=out_(bubble), data_parallel_s=out_(data.exposed_s),
        data_parallel_hidden_s=out_(data.communication_s - data.exposed_s), optimizer_s=out_(optimizer),
        step_s=out_(step), gpus=int(gpus) if np.ndim(gpus) == 0 else gpus.astype(int), tokens=tokens,
        model_flops=tokens * flops_per_token(model, recompute="none"),
        hardware_flops=float(terms.executed_flops(model, software, split.recompute, tokens)),
        peak_flop_per_s=cluster.peak_flop_per_s,
        memory=terms.memory_breakdown(model, cluster, software, efficiencies, split, shape, group.shard))


@renamed_parameters(cluster_="cluster", software_="software")
def training_step(model, cluster, config, software="Megatron-LM SC21", *,
                  efficiencies=DEFAULT_EFFICIENCIES) -> TrainingStep:
    """Step time, throughput, MFU/HFU and memory of one parallel configuration.

    See the module docstring for the model. In brief: per-layer compute as a
    roofline of GEMM FLOPs and element-wise bytes; the slowest stage sets the
    pace; the bubble is (p-1)/v stage times; tensor-parallel all-reduces
    (2 per layer per pass, 1 with a parallel block) run over the scale-up link;
    pipeline transfers and data-parallel reductions over the link their
    groups span; the :class:`Software` switches decide what hides.

    Parameters
    ----------
    model : TransformerModel or str
        The architecture, or a name from :data:`MODELS`.
    cluster : Cluster or str
        The hardware, or a name from :data:`CLUSTERS`.
    config : ParallelConfig
        The split; see :func:`parallel_config`.
    software : Software or str
        The stack, or a name from :data:`SOFTWARE`. The default is SC21's
        2021 Megatron-LM (no FlashAttention, nothing overlapped); for a run
        with today's software name its stack: ``"Megatron-Core 2024"`` (or its
        FP8 variant) for Megatron-style runs on H100, ``"PyTorch FSDP"`` for
        FSDP, ``"MegaScale"``, ``"Llama 3"``.
    efficiencies : Efficiencies
        Sustained rates; :data:`DEFAULT_EFFICIENCIES` unless exploring.

    Returns
    -------
    TrainingStep
        Breakdown, step time, tokens/s, FLOP/s per GPU, MFU, HFU, memory.

    Raises
    ------
    ValueError
        If the split does not divide the layers, heads, sequence or batch.

    Examples
    --------
    The 1T-parameter row of SC21 Table 1 on Selene (published 163 TFLOP/s per GPU):

    >>> from interconnect_lab.training import parallel_config
    >>> model = transformer_model("Megatron-LM 1T")
    >>> config = parallel_config(3072, global_batch_size=3072, tensor_parallel=8,
    ...                          pipeline_parallel=64, microbatch_size=1)
    >>> step = training_step(model, "Selene", config, "Megatron-LM SC21")
    >>> round(step.hardware_flop_per_s_per_gpu / 1e12)
    149
    >>> step.memory.fits
    True
    """
    model, cluster, software = resolve_run(model, cluster, config, software, efficiencies)
    return evaluate(model, cluster, software, efficiencies, Split.of(config))


@renamed_parameters(cluster_="cluster", software_="software")
def memory_per_gpu(model, cluster, config, software="Megatron-LM SC21") -> MemoryBreakdown:
    """Weights, gradients, optimizer state and activations per GPU, and whether they fit.

    Weights take ``parameter_bytes`` per parameter of the most loaded stage,
    TP-sharded (/d under ZeRO-3); gradients ``gradient_bytes`` (/d from
    ZeRO-2); optimizer state 12 B (/d from ZeRO-1) (Rajbhandari et al. 2020,
    :math:`(2 + 2 + K)\\Psi`). Hybrid sharding divides by the shard group
    (``shard_group_size``) instead of d: each group holds a whole copy. Activations per layer and microbatch follow
    Korthikanti et al. (2022, §4):

    .. math::

        A_\\text{layer} = s b h \\Big(34 + \\frac{5 a s}{h}\\Big) \\quad\\text{(no parallelism)}, \\qquad
        s b h \\Big(10 + \\frac{24}{t} + \\frac{5 a s}{h t}\\Big) \\quad\\text{(TP)}, \\qquad
        \\frac{s b h}{t}\\Big(34 + \\frac{5 a s}{h}\\Big) \\quad\\text{(TP + SP)}

    generalised to GQA, gated MLPs and no dropout; selective recomputation
    drops the :math:`5as/h` term, FlashAttention stores the attention output
    instead, full recomputation keeps only :math:`2sbh` per layer. The first
    stage holds p microbatches of l/p layers — l layers' worth, times
    :math:`1 + (p-1)/(pv)` when interleaved; context parallelism divides s by c.

    Parameters
    ----------
    model, cluster, config, software :
        As for :func:`training_step`.

    Returns
    -------
    MemoryBreakdown
        Its :meth:`~MemoryBreakdown.verdict` says whether it fits and by how much.

    References
    ----------
    Korthikanti et al., MLSys 2023, Eqs. (1)-(5); Rajbhandari et al., SC20, §3.1.

    Examples
    --------
    GPT-3 175B with no parallelism besides data parallelism cannot fit an 80 GB A100:

    >>> memory = memory_per_gpu("GPT-3 175B", "Selene", ParallelConfig(global_batch_size=8, data_parallel=8))
    >>> memory.fits, memory.verdict().startswith("does not fit")
    (False, True)
    """
    return training_step(model, cluster, config, software).memory
