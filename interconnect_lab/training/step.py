"""Step time and its parts: the vectorised core behind :func:`training_step` and :func:`memory_per_gpu`."""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np

from .. import catalog, collectives, matmul
from .. import units as u
from .._deprecation import renamed_parameters
from .._lookup import resolve
from .._validation import as_output, check_number
from ..sources import Source
from ..utilization import hardware_flops_utilization, model_flops_utilization
from .models import (
    KORTHIKANTI, RECOMPUTATION, TransformerModel, _embedding_parameters, _forward_flops_per_token,
    _layer_parameters, flops_per_token, training_time_s,
)
from .hardware import (
    EAGER_ADAMW_BYTES, EAGER_GATED_ACTIVATION_BYTES, EAGER_RMSNORM_BYTES, EAGER_ROTARY_BYTES,
    GRADIENT_CLIP_BYTES, GRADIENT_NORM_BYTES, FLASH_ATTENTION_BACKWARD_FLOPS, Cluster, Efficiencies, attention_share,
)
from .stack import Software
from .presets import (
    CLUSTERS, DEFAULT_EFFICIENCIES, MODELS, SOFTWARE, transformer_model,
)
from .config import ParallelConfig



# ============================================================================
# Communication (through interconnect_lab.collectives)
# ============================================================================

def _distinct_groups(ranks, ranks_per_node, network_slowdown):
    """The distinct (ranks, ranks per node, slowdown) of an array of groups, and where each group's is."""
    if np.ndim(ranks) == 0:                # one group: no need to find the distinct ones
        return [(int(ranks), int(min(ranks_per_node, ranks)), float(network_slowdown))], np.zeros((), dtype=int)
    pairs = np.stack([ranks.ravel(), np.minimum(ranks_per_node, ranks).ravel(), network_slowdown.ravel()], axis=1)
    unique, inverse = np.unique(pairs, axis=0, return_inverse=True)
    return unique, inverse.reshape(ranks.shape)


def _collective_s(kind, size_bytes, ranks, ranks_per_node, cluster, network_slowdown=1.0):
    """Time of one collective of each group in an array of groups [s], vectorised.

    ``size_bytes`` is the message as nccl-tests counts it (the whole array for
    all-reduce, all-gather and reduce-scatter). Groups of one rank take no time.
    Each distinct group is priced as NCCL runs it on its GPUs
    (:func:`interconnect_lab.collectives.nccl_time` on :meth:`Cluster.group_system`):
    inside one node over NVLink (NVLink SHARP where NCCL would pick it), across
    nodes through each GPU's share of the ports, slowed by ``network_slowdown``
    where the group crosses oversubscribed pods.
    """
    size_bytes, ranks, ranks_per_node, network_slowdown = np.broadcast_arrays(
        np.asarray(size_bytes, float), np.asarray(ranks, int), np.asarray(ranks_per_node, int),
        np.asarray(network_slowdown, float))
    if size_bytes.ndim == 0:
        n, g, slowdown = int(ranks), int(min(ranks_per_node, ranks)), float(network_slowdown)
        if n <= 1 or size_bytes <= 0:
            return np.float64(0.0)
        return np.float64(collectives.nccl_time(kind, float(size_bytes), cluster.group_system(n, g, slowdown)))
    time_s = np.zeros(size_bytes.shape)
    unique, inverse = _distinct_groups(ranks, ranks_per_node, network_slowdown)
    for index, (n, g, slowdown) in enumerate(unique):
        if n <= 1:
            continue
        chosen = inverse == index
        time_s[chosen] = collectives.nccl_time(kind, size_bytes[chosen], cluster.group_system(int(n), int(g),
                                                                                              float(slowdown)))
    return np.where(size_bytes > 0, time_s, 0.0)


#: Bus bandwidth one SM carries in a NCCL collective [B/s]. NCCL runs each channel as a thread
#: block that holds its SM for the whole collective, shared with no compute kernel, and takes the
#: fewest SMs that reach the platform's bandwidth: 2 for one NIC (12-24 GB/s), 16 for a DGX's
#: 8 NICs at about 190 GB/s (``NCCL_SM_SOURCE``): 190/16 GB/s per SM, at least 2, at most 32
#: (NCCL's channel limit). Opt in with ``Efficiencies.nccl_bus_bytes_per_s_per_sm``.
NCCL_BUS_BYTES_PER_S_PER_SM = 190e9 / 16
NCCL_MIN_SMS, NCCL_MAX_SMS = 2, 32
NCCL_SM_SOURCE = Source(
    title="NVIDIA/nccl issue 689: Does NCCL Allreduce kernels slowdown the computation kernels of GPU?",
    year=2023, url="https://github.com/NVIDIA/nccl/issues/689",
    note="a maintainer: NCCL uses the minimal number of SMs to achieve the platform's performance, 2 for a "
         "single NIC at 12-24 GB/s, 16 on a DGX with 8 NICs at 190 GB/s; NCCL CTAs won't share an SM with "
         "compute kernels")


def _collective_sms(kind, ranks, ranks_per_node, cluster, bus_bytes_per_s_per_sm, network_slowdown=1.0):
    """SMs one collective of each group holds while it runs, vectorised (0 for groups of one)."""
    ranks, ranks_per_node, network_slowdown = np.broadcast_arrays(
        np.asarray(ranks, int), np.asarray(ranks_per_node, int), np.asarray(network_slowdown, float))
    unique, inverse = _distinct_groups(ranks, ranks_per_node, network_slowdown)
    sms = np.zeros(ranks.shape)
    for index, (n, g, slowdown) in enumerate(unique):
        if n > 1:
            result = collectives.nccl_collective(kind, _SM_PROBE_BYTES, cluster.group_system(int(n), int(g),
                                                                                           float(slowdown)))
            sms[inverse == index] = np.clip(np.ceil(result.bus_bandwidth_bytes_per_s / bus_bytes_per_s_per_sm),
                                            NCCL_MIN_SMS, NCCL_MAX_SMS)
    return sms


#: Message at which a collective's bus bandwidth is read to count the SMs it holds [B]: its plateau.
_SM_PROBE_BYTES = 1 * u.GiB


# ============================================================================
# The vectorised core
# ============================================================================


def _layers_per_stage(model, p, v=1, uneven_pipeline=False):
    """Layers on the fullest pipeline stage: l/p, or ceil(l/(p v)) v when the split is uneven."""
    if uneven_pipeline:
        return np.ceil(model.layers / (np.asarray(p) * v)) * v
    return model.layers / np.asarray(p)


def _edge_stage_layers(model, p, v=1, uneven_pipeline=False):
    """Layers on the first and the last pipeline stage, which also hold the embedding and the output layer.

    An even split gives them as many as every other stage. An uneven one leaves
    its short stages at the two ends, where the embedding and the output layer
    take a layer's place (Llama 3 takes one layer off its first and last stage,
    §3.3.2; BLOOM's partition counts the tied embeddings as layers): one layer
    fewer than the fullest stage.
    """
    fullest = _layers_per_stage(model, p, v, uneven_pipeline)
    short = uneven_pipeline & (fullest * np.asarray(p) > model.layers)
    return np.where(short, fullest - 1, fullest)


def _data_parallel_units(software, params, layers, d):
    """Collectives a stage's gradient reduction (ZeRO 0-2) takes: per layer, per bucket or one.

    Overlapping stacks reduce layer by layer (FSDP's per-block units), or in
    buckets of ``max(bucket_parameters, bucket_parameters_per_rank · d)``
    parameters where the stack sets them (Megatron-Core); a stack that does not
    overlap reduces its one contiguous gradient buffer after the backward pass.
    """
    layers = np.asarray(layers, dtype=float)
    if software.overlap.data_parallel == "none":
        return np.ones_like(layers)
    if software.overlap.data_parallel == "buckets":
        bucket = np.maximum(software.overlap.bucket_parameters, software.overlap.bucket_parameters_per_rank * np.asarray(d, float))
        return np.ceil(params / bucket)
    return layers


def _stage_parameters(model, t, p, v=1, uneven_pipeline=False):
    """Parameters held by one GPU of the largest pipeline stage (TP-sharded)."""
    first, last = _embedding_parameters(model)
    layers = _layers_per_stage(model, p, v, uneven_pipeline)
    edge_layers = _edge_stage_layers(model, p, v, uneven_pipeline)
    edge = np.where(p > 1, np.maximum(first, last + (model.vocabulary_size * model.hidden_size
                                                     if model.tied_embeddings else 0)), first + last)
    layer = _layer_parameters(model)
    return np.maximum(layers * layer, edge_layers * layer + edge) / t


def _activation_bytes_per_layer(model, software, recompute, t, c, b, sp):
    """Stored activations of one layer for one microbatch on one GPU (Korthikanti et al. §4) [B].

    "every other layer" stores half the layers as "full" and half as "none";
    "every other matmul" stores each layer's input, the attention kernel's
    output and half the matmul outputs (without FlashAttention, what "none" stores).
    """
    h, f, kv, a = model.hidden_size, model.ffn_hidden_size, model.kv_size, model.heads
    tokens = b * model.sequence_length / c
    replicated = np.where(sp, t, 1.0)                      # sequence parallelism shards these over t
    mask = 1.0 if model.dropout else 0.0
    if recompute == "full":
        return 2 * tokens * h / replicated                 # only each layer's input
    if recompute == "every other layer":
        return 0.5 * sum(_activation_bytes_per_layer(model, software, policy, t, c, b, sp)
                         for policy in ("full", "none"))
    sharded_tokens = tokens / t
    if recompute == "every other matmul" and software.kernels.fused_attention:
        matmul_outputs = 2 * (sharded_tokens * (h + 2 * kv + (model.mlp_matrices - 1) * f)
                              + 2 * tokens * h / replicated)          # QKV, MLP in; both output projections
        return (2 * tokens * h / replicated                            # the layer's input
                + 2 * sharded_tokens * h + 4 * a * sharded_tokens      # attention output and log-sum-exp
                + matmul_outputs / 2)
    attention = (2 * tokens * h / replicated                                  # QKV input
                 + 2 * sharded_tokens * (h + 2 * kv)                          # Q, K, V
                 + 2 * sharded_tokens * h                                     # output projection input
                 + mask * tokens * h / replicated)                            # dropout mask
    scores = a * tokens * model.attended_tokens / t * (2 + (3 * mask))      # softmax out, mask, dropout out
    if software.kernels.fused_attention:
        scores = 2 * sharded_tokens * h + 4 * a * sharded_tokens              # output and FP32 log-sum-exp
    elif recompute == "selective":
        scores = 0.0
    mlp = (2 * tokens * h / replicated + 2 * sharded_tokens * f * (model.mlp_matrices - 1)
           + 2 * sharded_tokens * f + mask * tokens * h / replicated)
    norms = 2 * 2 * tokens * h / replicated
    return attention + scores + mlp + norms


@dataclass(frozen=True)
class MemoryBreakdown:
    """Memory per GPU on the most loaded pipeline stage [B] (floats or arrays).

    Attributes
    ----------
    weights_bytes, gradients_bytes, optimizer_bytes, activations_bytes : float or numpy.ndarray
        The four parts [B].
    capacity_bytes : float
        HBM of one GPU [B].
    """

    weights_bytes: float | np.ndarray
    gradients_bytes: float | np.ndarray
    optimizer_bytes: float | np.ndarray
    activations_bytes: float | np.ndarray
    capacity_bytes: float

    @property
    def total_bytes(self):
        """All four parts [B]."""
        return as_output(np.add(np.add(self.weights_bytes, self.gradients_bytes),
                                 np.add(self.optimizer_bytes, self.activations_bytes)))

    @property
    def fits(self):
        """Whether the total fits in HBM."""
        result = np.less_equal(self.total_bytes, self.capacity_bytes)
        return bool(result) if np.ndim(result) == 0 else result

    @property
    def shortfall_bytes(self):
        """How much more memory the run needs than one GPU has (0 if it fits) [B]."""
        return as_output(np.maximum(np.subtract(self.total_bytes, self.capacity_bytes), 0.0))

    def verdict(self) -> str:
        """One sentence: fits with what headroom, or does not fit and by how much."""
        if np.ndim(self.total_bytes):
            raise ValueError("verdict() describes one configuration; index the arrays first")
        total, capacity = self.total_bytes, self.capacity_bytes
        if self.fits:
            return (f"fits: {u.format_bytes(total)} of {u.format_bytes(capacity)} per GPU "
                    f"({u.format_bytes(capacity - total)} free)")
        return (f"does not fit: needs {u.format_bytes(total)} per GPU, "
                f"{u.format_bytes(total - capacity)} more than the {u.format_bytes(capacity)} of HBM")


def _memory(model, cluster, software, efficiencies, recompute, zero_stage, t, p, shard, c, b, v, sp, m,
            uneven_pipeline=False):
    """``shard``: the data-parallel GPUs ZeRO partitions over (all d, or a hybrid shard group)."""
    params = _stage_parameters(model, t, p, v, uneven_pipeline)
    weights = params * software.precision.parameter_bytes / np.where(zero_stage >= 3, shard, 1)
    gradients = params * software.precision.gradient_bytes / np.where(zero_stage >= 2, shard, 1)
    optimizer = params * efficiencies.optimizer_state_bytes_per_parameter / np.where(zero_stage >= 1, shard, 1)
    per_layer = _activation_bytes_per_layer(model, software, recompute, t, c, b, sp)
    in_flight = np.minimum(m, p)                           # 1F1B: the first stage holds p microbatches
    interleave_factor = np.where(v > 1, 1 + (p - 1) / (p * v), 1.0)
    activations = per_layer * _layers_per_stage(model, p, v, uneven_pipeline) * in_flight * interleave_factor
    tokens = b * model.sequence_length / c
    logits = np.where(p > 1, 0.0, 4 * tokens * model.vocabulary_size / t)   # FP32 logits on the last stage
    activations = activations + logits
    return MemoryBreakdown(weights_bytes=as_output(weights), gradients_bytes=as_output(gradients),
                           optimizer_bytes=as_output(optimizer), activations_bytes=as_output(activations),
                           capacity_bytes=cluster.gpu_spec.hbm_bytes)


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
        ``Software.fp32_weights``, autocast's casts of the weights and their
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


#: The GPU whose sustained (power-limited) matmul rate anchors the others: the H200, the H100's
#: chip at the same 700 W, on which the GEMM efficiency is validated (the H100 rows of the
#: fidelity table). Its best measured rate is the one the efficiency multiplies.
SUSTAINED_REFERENCE_GPU = "H200 SXM"


def sustained_matmul_rate(gpu) -> float | None:
    """The BF16 matmul rate ``gpu`` holds at its power limit, every GPU of its node busy [FLOP/s].

    The catalog's ``sustained_matmul_flop_per_s`` where measured. A GPU built on
    the same chip as a measured one (``GPU.same_silicon_as``) takes that GPU's
    sustained rate scaled by the ratio of their best measured rates: a GB200,
    the B200's chip at a higher clock and power limit, holds what a B200 holds
    times 1,822 / 1,745. None where neither is measured.

    Parameters
    ----------
    gpu : interconnect_lab.catalog.GPU
        The accelerator.

    Returns
    -------
    float or None
        Sustained rate [FLOP/s], or None.

    Examples
    --------
    >>> from interconnect_lab import catalog
    >>> round(sustained_matmul_rate(catalog.gpu("B200")) / 1e12)   # measured
    1439
    >>> round(sustained_matmul_rate(catalog.gpu("GB200")) / 1e12)  # the B200's, scaled by 1,822 / 1,745
    1502
    >>> sustained_matmul_rate(catalog.gpu("MI300X")) is None
    True
    """
    if gpu.sustained_matmul_flop_per_s is not None:
        return gpu.sustained_matmul_flop_per_s
    if gpu.same_silicon_as is None or gpu.measured_matmul_flop_per_s is None:
        return None
    measured = catalog.gpu(gpu.same_silicon_as)
    if measured.sustained_matmul_flop_per_s is None:
        return None
    return measured.sustained_matmul_flop_per_s * gpu.measured_matmul_flop_per_s / measured.measured_matmul_flop_per_s


def matmul_fraction_of_peak(gpu) -> float:
    """Share of peak the training model's GEMMs start from, before their efficiency and shape [-].

    A training step holds the GPU at its power limit, where the clock is lower
    than in the short bursts the catalog's best measured rates catch, and GPUs
    differ in how much they lose: measured side by side with the same software
    and every GPU of the node busy, a B200 sustains 1.91 times what an H200
    does, where their best bursts say 2.2 (``catalog.gpu('B200')`` and
    ``catalog.gpu('H200 SXM')``). So a GPU with a sustained rate
    (:func:`sustained_matmul_rate`, its own or its chip's) runs at the reference
    GPU's best measured rate (``SUSTAINED_REFERENCE_GPU``, the rate the
    efficiency holds for on Hopper) times the ratio of the two sustained rates.
    A GPU without one keeps its own best measured BF16 rate over its dense BF16
    peak (for a GPU with no published measurement, the median of the catalog
    GPUs that have one).

    Parameters
    ----------
    gpu : interconnect_lab.catalog.GPU
        The accelerator.

    Returns
    -------
    float
        Fraction of peak [-].

    Examples
    --------
    >>> from interconnect_lab import catalog
    >>> round(matmul_fraction_of_peak(catalog.gpu("A100 SXM")), 3)   # 271.2 / 312
    0.869
    >>> round(matmul_fraction_of_peak(catalog.gpu("H100 SXM")), 3)   # 794.5 / 989.4, its chip's reference
    0.803
    >>> round(matmul_fraction_of_peak(catalog.gpu("B200")), 3)       # 794.5 x 1,439 / 755, over 2,250
    0.673
    """
    sustained = sustained_matmul_rate(gpu)
    if sustained is None:
        if gpu.matmul_fraction_of_peak is not None:
            return gpu.matmul_fraction_of_peak
        return float(np.median([g.matmul_fraction_of_peak for g in catalog.GPUS.values()
                                if g.matmul_fraction_of_peak is not None]))
    reference = catalog.gpu(SUSTAINED_REFERENCE_GPU)
    return (matmul.best_rate(reference) * sustained / reference.sustained_matmul_flop_per_s
            / gpu.bf16_flop_per_s)


def _group_ranks_per_node(ranks, gpus_per_node, gpus):
    """GPUs of a tensor-parallel group that every group has together in one node, gcd(t, node).

    Groups are contiguous blocks of t ranks (Megatron-LM puts tensor parallelism
    innermost) laid over the run's ``gpus`` GPUs; a run of no more GPUs than one
    node holds lives inside one node. When t divides the node size every group sits inside one node;
    when the node size divides t every group spans whole nodes. Otherwise some
    group straddles a node boundary (groups of 16 in 72-GPU racks: GPUs 64-79
    are 8 in one rack and 8 in the next), and the slowest group sets the pace.
    Every group can be cut into pieces of gcd(t, node) GPUs that each lie in one
    node, so a two-level collective over those pieces is always possible.
    """
    return np.gcd(ranks, np.minimum(gpus_per_node, gpus))


@dataclass(frozen=True)
class _LayerTerms:
    """One transformer layer, one microbatch, one GPU: what :func:`_evaluate` and
    :func:`tensor_parallel_layer` share. Floats or arrays."""

    tokens: float                       # tokens of the microbatch on this GPU, b·s/c
    projections: float                  # forward GEMM FLOPs per token of the layer's projections
    logit_flops: float                  # forward FLOPs per token of the logit layer
    compute_s: float                    # forward + backward + recomputation [s]
    forward_s: float                    # the forward pass alone [s]
    backward_s: float                   # the backward pass alone [s]
    recompute_s: float                  # the recomputed forward (0 without recomputation) [s]
    gemm_s: float                       # the GEMM part of compute_s [s]
    passes: float                       # forward, backward and the recomputed share of the forward
    tensor_parallel_all_reduces: int    # all-reduces of the activations per layer and microbatch
    tensor_parallel_message_bytes: float  # size S of each [B]
    tensor_parallel_s: float            # all of them, one after the other [s]
    tensor_parallel_exposed_s: float    # what the GPU waits for after overlap [s]
    context_parallel_s: float           # context-parallel all-gathers, one after the other [s]
    context_parallel_exposed_s: float   # exposed context-parallel all-gathers [s]
    hidden_received_bytes: float        # what the hidden share of those collectives receives per GPU [B]


def _precision_speedup(software, gpu):
    """How much faster the weight GEMMs run in the stack's precision than in BF16 [-].

    The ratio of the best measured rates (:func:`interconnect_lab.matmul.best_rate`):
    1.74 on an H100, where the peaks say 2.
    """
    if software.kernels.gemm_precision == "bf16":
        return 1.0
    if gpu.fp8_flop_per_s is None:
        raise ValueError(f"software {software.name!r} runs its GEMMs in FP8, which the {gpu.name} does not "
                         "support: choose a stack with gemm_precision='bf16'")
    return matmul.best_rate(gpu, "fp8") / matmul.best_rate(gpu, "bf16")


def _projection_gemm_s(model, gpu, gemm_rate, tokens, t, precision="bf16"):
    """Forward and backward time of a layer's four projection GEMMs on one GPU [s], and the last one's forward.

    Each weight GEMM (QKV, attention output, MLP in, MLP out; tensor-parallel
    shards of ``tokens`` rows) runs at its own shape's rate
    (:func:`interconnect_lab.matmul.gemm_efficiency`): forward m × n × k,
    backward the data gradient (m × k × n) and the weight gradient (k × n × m).
    Returns the forward time, the backward time, the weight-gradient times of
    the two column-parallel GEMMs (QKV and MLP in), stacked, and the forward time
    of the MLP's output projection.
    """
    h, f, kv = model.hidden_size, model.ffn_hidden_size, model.kv_size
    t, tokens = np.broadcast_arrays(np.asarray(t, float), np.asarray(tokens, float))
    # One row per GEMM: (columns n, inner dimension k), the tokens are the rows m.
    n = np.stack([(h + 2 * kv) / t, np.full(t.shape, float(h)), (model.mlp_matrices - 1) * f / t,
                  np.full(t.shape, float(h))])
    k = np.stack([np.full(t.shape, float(h)), h / t, np.full(t.shape, float(h)), f / t])
    m = np.broadcast_to(tokens, n.shape)
    flops = 2 * m * n * k
    # Forward m x n x k; backward the data gradient (m x k x n) and the weight gradient (k x n x m).
    efficiency = matmul._efficiency(gpu, np.stack([m, m, k]), np.stack([n, k, n]), np.stack([k, n, m]), precision)
    seconds = flops / (gemm_rate * efficiency)
    forward = seconds[0].sum(axis=0)
    backward = (seconds[1] + seconds[2]).sum(axis=0)
    column_weight_gradient = seconds[2][[0, 2]]
    last_forward = seconds[0][3]
    if forward.ndim == 0:
        return float(forward), float(backward), column_weight_gradient, float(last_forward)
    return forward, backward, column_weight_gradient, last_forward


def _stops_early(software, share):
    """Whether a policy's recomputation stops before the block's last GEMM (``Software.recompute_early_stop``):
    only policies that checkpoint whole blocks rerun it at all."""
    whole_blocks = share.projections > 0 and share.projections == share.attention == share.elementwise
    return (software.checkpoint == "early stop") and whole_blocks


def _eager_elementwise_s(model, software, tokens, t, replicated, blocks, stream, hbm_rate):
    """Extra forward and backward time of element-wise ops written as PyTorch tensor ops [s].

    With ``Software.eager_elementwise`` the RMSNorms, the rotary embedding and the
    gated activation run op by op (:data:`EAGER_RMSNORM_BYTES`,
    :data:`EAGER_ROTARY_BYTES`, :data:`EAGER_GATED_ACTIVATION_BYTES`): what
    they move beyond the one read and one write per element that the norm and
    activation terms of :func:`_layer_terms` charge. Zero otherwise, with
    ``fused_norm_activation``, and for the parts a model does not have
    (LayerNorm, learned positions, a two-matrix MLP).
    """
    if software.kernels.elementwise != "eager":
        return 0.0, 0.0
    h, f, kv = model.hidden_size, model.ffn_hidden_size, model.kv_size
    forward = backward = 0.0
    if model.norm == "rmsnorm":
        elements = blocks * tokens * h / replicated
        forward = forward + (EAGER_RMSNORM_BYTES[0] - (stream + 2)) * elements
        backward = backward + (EAGER_RMSNORM_BYTES[1] - 2 * (stream + 2)) * elements
    if not model.learned_positions:
        elements = tokens * (h + kv) / t
        forward = forward + EAGER_ROTARY_BYTES[0] * elements
        backward = backward + EAGER_ROTARY_BYTES[1] * elements
    if model.gated_mlp:
        elements = tokens * f / t
        forward = forward + (EAGER_GATED_ACTIVATION_BYTES[0] - 2 * model.mlp_matrices) * elements
        backward = backward + (EAGER_GATED_ACTIVATION_BYTES[1] - 4 * model.mlp_matrices) * elements
    return forward / hbm_rate, backward / hbm_rate


def _layer_terms(model, cluster, software, recompute, gemm_rate, hbm_rate, t, c, b, sp, gpus):
    """Compute and tensor/context-parallel collectives of one layer and microbatch (see the module docstring)."""
    h, f, kv, a = model.hidden_size, model.ffn_hidden_size, model.kv_size, model.heads
    s, w = model.sequence_length, model.attended_tokens
    node = cluster.gpus_per_node
    tokens = b * s / c
    replicated = np.where(sp, t, 1.0)
    projections, _, logit_flops = _forward_flops_per_token(model, w)
    # FlashAttention skips the tiles a causal mask hides, so it executes about half the
    # score and attention x V FLOPs that the FLOP conventions count (a sliding window
    # already keeps only the keys each query sees); materialised scores are computed whole.
    executed_keys = w / 2 if software.kernels.fused_attention and model.attention_window is None else w
    core_flops = tokens * 4 * executed_keys * h / t                      # scores and attention x V
    blocks = 1 if software.kernels.parallel_block else 2
    mask = 1.0 if model.dropout else 0.0
    # The residual stream is FP32 when the weights are (it starts at the FP32 embedding):
    # a norm reads it (and writes 2 B), an add reads it and a 2 B branch and writes it.
    stream = _FP32_BYTES if software.precision.fp32_weights else 2
    norm_bytes = 0.0 if (software.kernels.elementwise == "fused") else blocks * (stream + 2) * tokens * h / replicated
    residual_bytes = blocks * (2 * stream + 2 + mask) * tokens * h / replicated
    activation_bytes = 0.0 if (software.kernels.elementwise == "fused") else (
        (2 * model.mlp_matrices) * tokens * f / t)                      # read 2 (or 3 gated) ... write 1 wide tensor
    if software.kernels.fused_attention:
        core_bytes = 4 * tokens * (h + kv) / t                          # Q, K, V in, O out
    else:
        core_bytes = (8 + 5 * mask) * a * tokens * w / t                # scores written, soft-maxed, dropped, read
    attention_rate = backward_attention_rate = gemm_rate
    if software.kernels.fused_attention:
        # Each kernel call runs a row of queries over at most the attended keys, and with context
        # parallelism over one rank's block of them (ring attention's steps).
        share = attention_share(software.kernels.attention, cluster.gpu, np.minimum(w, s / c), model.head_dim)
        if share is not None:
            attention_rate = np.minimum(gemm_rate, share.forward * cluster.peak_flop_per_s)
            backward_attention_rate = np.minimum(gemm_rate, share.backward * cluster.peak_flop_per_s)
    core_s = core_flops / attention_rate + core_bytes / hbm_rate
    elementwise_s = (norm_bytes + residual_bytes + activation_bytes) / hbm_rate
    eager_forward_s, eager_backward_s = _eager_elementwise_s(model, software, tokens, t, replicated, blocks, stream,
                                                             hbm_rate)
    projection_forward_s, projection_backward_s, column_weight_gradient_s, output_projection_s = _projection_gemm_s(
        model, cluster.gpu_spec, gemm_rate * _precision_speedup(software, cluster.gpu_spec), tokens, t,
        software.kernels.gemm_precision)
    # The backward pass of the attention core: four matmuls (twice the forward's FLOPs), and
    # FlashAttention recomputes the scores first, a fifth (FLASH_ATTENTION_BACKWARD_FLOPS).
    backward_core = FLASH_ATTENTION_BACKWARD_FLOPS if software.kernels.fused_attention else 2.0
    backward_core_s = backward_core * core_flops / backward_attention_rate + 2 * core_bytes / hbm_rate
    # FP8 GEMMs take quantized operands: each activation entering a GEMM, and in the backward
    # pass each gradient leaving one, is read in BF16 and written as FP8 twice, row-wise and
    # column-wise (Hopper's FP8 GEMMs need the transposed copy for the other pass): 4 bytes
    # per element. Weights are quantized once per step, not per microbatch.
    quantize_forward_s = quantize_backward_s = 0.0
    if software.kernels.gemm_precision == "fp8":
        inputs = tokens * (2 * h / replicated + h / t + f / t)           # QKV and MLP in (norm-fed), out-proj, MLP out
        outputs = tokens * ((h + 2 * kv) / t + h + (model.mlp_matrices - 1) * f / t + h)
        quantize_forward_s = _FP8_QUANTIZE_BYTES * inputs / hbm_rate
        quantize_backward_s = _FP8_QUANTIZE_BYTES * outputs / hbm_rate
    forward_s = core_s + projection_forward_s + elementwise_s + eager_forward_s + quantize_forward_s
    backward_s = (backward_core_s + 2 * elementwise_s + eager_backward_s + projection_backward_s
                  + quantize_backward_s)
    share = RECOMPUTATION[recompute]
    # Early stop: a checkpointed block's recomputation ends once the MLP's output projection has
    # its input back; that GEMM (and the collective after it) is not rerun.
    skipped_s = output_projection_s if _stops_early(software, share) else 0.0
    recompute_s = (share.projections * (projection_forward_s - skipped_s) + share.attention * core_s
                   + share.elementwise * (elementwise_s + eager_forward_s + quantize_forward_s))
    layer_s = forward_s + backward_s + recompute_s
    layer_gemm_s = (projection_forward_s + projection_backward_s + share.projections * projection_forward_s
                    + (1 + backward_core + share.attention) * core_flops / gemm_rate)

    # Tensor parallelism: one all-reduce of the b·s·h activations after attention and one
    # after the MLP (one in all with a parallel block), in every pass (SC21 §3.2).
    ti, ci = (np.rint(x).astype(int) for x in (t, c))
    activation_size = software.precision.parameter_bytes * tokens * h
    # forward, backward, recomputation (early stop skips the block's last all-reduce)
    passes = 2 + share.collectives * ((blocks - 1) / blocks if _stops_early(software, share) else 1.0)
    tp_ops = passes * blocks
    all_reduce_s = _collective_s("all_reduce", activation_size, ti, _group_ranks_per_node(ti, node, gpus), cluster)
    tp_comm = tp_ops * all_reduce_s
    if (software.overlap.tensor_parallel == "pipelined"):
        tp_exposed = np.maximum(tp_comm / t, tp_comm - layer_gemm_s)
    elif (software.overlap.tensor_parallel == "backward"):
        # The backward pass's collective at each column-parallel input (the whole all-reduce;
        # with sequence parallelism its reduce-scatter half) runs under that linear's
        # weight-gradient GEMM; one input feeds both GEMMs of a parallel block.
        overlapped = np.where(sp, all_reduce_s / 2, all_reduce_s)
        gemms = (column_weight_gradient_s if blocks == 2 else column_weight_gradient_s.sum(axis=0)[None])
        tp_exposed = tp_comm - np.minimum(overlapped, gemms).sum(axis=0)
    else:
        tp_exposed = tp_comm
    kv_size = software.precision.parameter_bytes * 2 * b * s * kv / t           # keys and values of the whole sequence
    cp_comm = passes * _collective_s("all_gather", kv_size, ci, np.maximum(node // ti, 1), cluster)
    if (software.overlap.context_parallel == "under attention"):
        cp_exposed = np.maximum(cp_comm - (3 * core_s), 0.0)          # ring attention hides it under attention
    else:
        cp_exposed = cp_comm                                            # all-gathered before attention
    # The hidden share of what these collectives receive still passes through HBM beside the
    # compute (see _evaluate).
    tp_received = tp_ops * _received_bytes("all_reduce", activation_size, t)
    cp_received = passes * _received_bytes("all_gather", kv_size, c)
    hidden_received = (tp_received * _hidden_share(tp_comm, tp_exposed)
                       + cp_received * _hidden_share(cp_comm, cp_exposed))
    return _LayerTerms(tokens=tokens, projections=projections, logit_flops=logit_flops, compute_s=layer_s,
                       forward_s=forward_s, backward_s=backward_s, recompute_s=recompute_s,
                       gemm_s=layer_gemm_s, passes=passes, tensor_parallel_all_reduces=tp_ops,
                       tensor_parallel_message_bytes=activation_size, tensor_parallel_s=tp_comm,
                       tensor_parallel_exposed_s=tp_exposed, context_parallel_s=cp_comm,
                       context_parallel_exposed_s=cp_exposed,
                       hidden_received_bytes=hidden_received)


def _received_bytes(kind, size_bytes, ranks):
    """Bytes each of ``ranks`` GPUs receives in one collective of ``size_bytes`` [B], vectorised.

    The message times nccl-tests' bus-bandwidth factor
    (:func:`interconnect_lab.collectives.bus_bandwidth_factor`): 2(n-1)/n for an
    all-reduce, (n-1)/n for an all-gather or a reduce-scatter.
    """
    ranks = np.asarray(ranks, float)
    return size_bytes * (2.0 if kind == "all_reduce" else 1.0) * (ranks - 1) / ranks


#: Bytes of one FP32 element [B].
_FP32_BYTES = 4

#: HBM bytes per element to quantize a GEMM operand for FP8: read 2 (BF16), write 1 row-wise
#: and 1 column-wise (Transformer Engine, "Performance considerations: handling transposes") [B].
_FP8_QUANTIZE_BYTES = 4


def _stored_weight_bytes(software):
    """Bytes per weight as the stack keeps and ZeRO gathers it: FP32 with ``fp32_weights`` [B]."""
    return _FP32_BYTES if software.precision.fp32_weights else software.precision.parameter_bytes


def _weight_cast_bytes(software, recompute):
    """HBM bytes per weight per microbatch that autocast's casts move when the weights are FP32 [B].

    Each forward pass (the recomputed one too) casts the weight to the compute
    precision (read 4, write ``parameter_bytes``); the backward pass casts the
    weight gradient back to FP32 (read ``parameter_bytes``, write 4) and, when
    gradients are reduced in fewer bytes, down again (read 4, write
    ``gradient_bytes``). Nothing without ``Software.fp32_weights``.
    """
    if not software.precision.fp32_weights:
        return 0.0
    forward_passes = 1 + RECOMPUTATION[recompute].projections
    cast = _FP32_BYTES + software.precision.parameter_bytes                    # one cast, either way
    reduce_cast = _FP32_BYTES + software.precision.gradient_bytes if software.precision.gradient_bytes < _FP32_BYTES else 0
    return float(cast * forward_passes + cast + reduce_cast)


def _hidden_share(comm_s, exposed_s):
    """Share of a collective's time hidden behind compute, 0 where there is no collective [-]."""
    comm_s, exposed_s = np.broadcast_arrays(np.asarray(comm_s, float), np.asarray(exposed_s, float))
    return np.divide(comm_s - exposed_s, comm_s, out=np.zeros(comm_s.shape), where=comm_s > 0)


def _evaluate(model, cluster, software, efficiencies, *, global_batch_size, recompute, zero_stage,
              sequence_parallel, t, p, d, c, b, v, uneven_pipeline=False, shard_group=None):
    """The step-time model over arrays of (t, p, d, c, b, v); see the module docstring."""
    t, p, d, c, b, v = (np.asarray(x, dtype=float) for x in (t, p, d, c, b, v))
    sp = np.asarray(sequence_parallel, dtype=bool)
    B = float(global_batch_size)
    m = B / (d * b)
    h = model.hidden_size
    s, V, w = model.sequence_length, model.vocabulary_size, model.attended_tokens
    peak = cluster.peak_flop_per_s
    gemm_rate = efficiencies.gemm * matmul_fraction_of_peak(cluster.gpu_spec) * peak
    hbm_rate = efficiencies.memory_bandwidth * cluster.gpu_spec.hbm_bandwidth_bytes_per_s
    gpus = t * p * d * c
    node = cluster.gpus_per_node

    # --- one layer, one microbatch, on one GPU: compute and its collectives ----------
    ti, ci, di, pi = (np.rint(x).astype(int) for x in (t, c, d, p))
    layer = _layer_terms(model, cluster, software, recompute, gemm_rate, hbm_rate, t, c, b, sp,
                         np.rint(gpus).astype(int))
    tokens, projections, logit_flops = layer.tokens, layer.projections, layer.logit_flops
    layer_s = layer.compute_s
    layer_comm_exposed = layer.tensor_parallel_exposed_s + layer.context_parallel_exposed_s

    # --- the slowest stage: the fullest, or the last with the logits ---------------------
    layers_per_stage = _layers_per_stage(model, p, v, uneven_pipeline)
    last_stage_layers = _edge_stage_layers(model, p, v, uneven_pipeline)
    params = _stage_parameters(model, t, p, v, uneven_pipeline)
    layer_params = params / layers_per_stage
    logit_s = 3 * (tokens * logit_flops / t / gemm_rate + 8 * tokens * V / t / hbm_rate)
    # A collective hidden behind compute still moves what it receives through HBM, at least
    # twice (collectives.HBM_BYTES_PER_RECEIVED_BYTE): memory time the compute beside it loses.
    hbm_per_received = collectives.HBM_BYTES_PER_RECEIVED_BYTE / hbm_rate
    layer_contention_s = layer.hidden_received_bytes * hbm_per_received
    # Optionally, the SMs its NCCL kernels hold, which the compute beside them cannot use
    # (Efficiencies.nccl_bus_bytes_per_s_per_sm); a GEMM-fused tensor-parallel overlap runs none.
    bus_per_sm, sms = efficiencies.nccl_bus_bytes_per_s_per_sm, cluster.gpu_spec.streaming_multiprocessors
    charge_sms = bus_per_sm is not None and sms is not None

    def held(kind, hidden_s, ranks, per_node, slowdown=1.0):
        """SM-seconds that hidden collectives take from the compute, as compute seconds."""
        if not charge_sms:
            return 0.0
        return hidden_s * _collective_sms(kind, ranks, per_node, cluster, bus_per_sm, slowdown) / sms

    if charge_sms:
        tp_nccl_hidden = 0.0 if (software.overlap.tensor_parallel == "pipelined") else (layer.tensor_parallel_s
                                                                       - layer.tensor_parallel_exposed_s)
        layer_contention_s = (layer_contention_s
                              + held("all_reduce", tp_nccl_hidden, ti,
                                     _group_ranks_per_node(ti, node, np.rint(gpus).astype(int)))
                              + held("all_gather", layer.context_parallel_s - layer.context_parallel_exposed_s, ci,
                                     np.maximum(node // ti, 1)))
    layer_casts_s = layer_params * _weight_cast_bytes(software, recompute) / hbm_rate
    per_layer_s = layer_s + layer_contention_s + layer_casts_s
    stage_compute_s = np.maximum(layers_per_stage * per_layer_s, last_stage_layers * per_layer_s + logit_s)
    stage_comm_s = layers_per_stage * layer_comm_exposed
    compute = m * stage_compute_s
    tensor_parallel = m * stage_comm_s
    bubble = (p - 1) / v * (stage_compute_s + stage_comm_s)

    # --- pipeline sends and receives --------------------------------------------------------
    pp_ranks_per_node = np.where(ti * ci * di < node, 2, 1)
    boundary = software.precision.parameter_bytes * tokens * h
    scatter = software.scatter_gather | sp
    sent = np.where(scatter, boundary / t, boundary)
    transfer = _collective_s("send_recv", sent, np.where(pi > 1, 2, 1), pp_ranks_per_node, cluster)
    regather = np.where(scatter & ~sp, _collective_s("all_gather", boundary, ti,
                                                     _group_ranks_per_node(ti, node, np.rint(gpus).astype(int)),
                                                     cluster), 0.0)
    transfer = transfer + np.where(p > 1, regather, 0.0)
    transfers = 2 * (p - 1) if (software.overlap.pipeline == "asynchronous") else 2 * v * m
    pipeline = np.where(p > 1, transfers * transfer, 0.0)

    # --- data parallelism and ZeRO -------------------------------------------------------
    ranks_per_node = np.clip(node // (ti * ci), 1, di)
    # The stage's gradients are reduced (and, with ZeRO 1-2, its weights gathered) in
    # units: one per layer (FSDP's per-block wrapping, the default), one per bucket of
    # Megatron-Core's size, or one buffer when nothing overlaps. Each unit's collective
    # hides behind the compute of the units before it when the stack overlaps them
    # (prefetching the next gather, reducing a bucket while the backward pass computes
    # the next): c + (n - 1) max(c - w, 0) of n collectives c stays exposed behind n
    # windows w.
    layers_l = layers_per_stage
    forward_window, backward_window = layer.forward_s, layer.backward_s + layer.recompute_s
    units = _data_parallel_units(software, params, layers_l, d)
    unit_params = params / units
    unit_forward_window = forward_window * layers_l / units
    unit_backward_window = backward_window * layers_l / units

    def exposed(comm_s, window_s, count=layers_l):
        if (software.overlap.data_parallel != "none"):
            return comm_s + (count - 1) * np.maximum(comm_s - window_s, 0.0)
        return count * comm_s

    shard = di if shard_group is None else np.minimum(shard_group, di)
    replicas = di // shard
    shard_per_node = np.minimum(ranks_per_node, shard)
    gradient_layer = layer_params * software.precision.gradient_bytes
    weight_layer = layer_params * _stored_weight_bytes(software)
    gradient_unit = unit_params * software.precision.gradient_bytes
    weight_unit = unit_params * _stored_weight_bytes(software)
    # Data-parallel groups are strided by t c (Megatron-LM's rank order): a group spans
    # d t c GPUs, and where that is more than a pod its ring leaves each pod once.
    pods = 1.0 if cluster.pod_gpus is None else np.ceil(d * t * c / cluster.pod_gpus)
    slow = np.where(pods > 1, np.maximum(1.0, cluster.oversubscription * pods / d), 1.0)
    if zero_stage == 0:
        reduce = _collective_s("all_reduce", gradient_unit, di, ranks_per_node, cluster, slow)
        dp_comm = units * reduce
        exposed_dp = exposed(reduce, unit_backward_window, units)
        dp_received = units * _received_bytes("all_reduce", gradient_unit, d)
        dp_held = held("all_reduce", dp_comm - exposed_dp, di, ranks_per_node, slow)
    elif zero_stage in (1, 2):
        reduce = _collective_s("reduce_scatter", gradient_unit, di, ranks_per_node, cluster, slow)
        gather = _collective_s("all_gather", weight_unit, di, ranks_per_node, cluster, slow)
        dp_comm = units * (reduce + gather)
        exposed_reduce = exposed(reduce, unit_backward_window, units)
        exposed_gather = exposed(gather, unit_forward_window, units)
        exposed_dp = exposed_reduce + exposed_gather
        dp_held = (held("reduce_scatter", units * reduce - exposed_reduce, di, ranks_per_node, slow)
                   + held("all_gather", units * gather - exposed_gather, di, ranks_per_node, slow))
        dp_received = units * (_received_bytes("reduce_scatter", gradient_unit, d)
                               + _received_bytes("all_gather", weight_unit, d))
    else:
        # ZeRO-3 / FSDP: every microbatch gathers each layer's weights before its
        # forward and its backward pass (recomputation reuses the backward gather)
        # and reduce-scatters its gradients; with a shard group smaller than the
        # data-parallel group (hybrid sharding), the shards' gradients are then
        # all-reduced across the replicas once per step.
        forward_wire = layer_params * 1.0 if software.zero_plus_plus.quantized_weights else weight_layer   # qwZ: INT8
        forward_gather = _collective_s("all_gather", forward_wire, shard, shard_per_node, cluster, slow)
        backward_ranks = np.minimum(shard, shard_per_node) if software.zero_plus_plus.hierarchical_partition else shard
        backward_gather = _collective_s("all_gather", weight_layer, backward_ranks, shard_per_node, cluster, slow)
        gradient_wire = layer_params * (0.5 if software.zero_plus_plus.quantized_gradients else software.precision.gradient_bytes)
        reduce = _collective_s("reduce_scatter", gradient_wire, shard, shard_per_node, cluster, slow)
        across = _collective_s("all_reduce", gradient_layer / shard, replicas,
                               np.maximum(ranks_per_node // shard, 1), cluster, slow)
        dp_comm = layers_l * (m * (forward_gather + backward_gather + reduce) + across)
        dp_received = layers_l * (
            m * (_received_bytes("all_gather", forward_wire + weight_layer, shard)
                 + _received_bytes("reduce_scatter", gradient_wire, shard))
            + _received_bytes("all_reduce", gradient_layer / shard, replicas))
        exposed_forward = m * exposed(forward_gather, forward_window)
        exposed_backward = m * exposed(backward_gather + reduce, backward_window)
        exposed_across = exposed(across, backward_window)
        exposed_dp = exposed_forward + exposed_backward + exposed_across
        dp_held = (held("all_gather", m * layers_l * (forward_gather + backward_gather + reduce)
                        - exposed_forward - exposed_backward, shard, shard_per_node, slow)
                   + held("all_reduce", layers_l * across - exposed_across, replicas,
                          np.maximum(ranks_per_node // shard, 1), slow))
    hidden_dp = dp_comm - exposed_dp
    compute = compute + dp_received * _hidden_share(dp_comm, exposed_dp) * hbm_per_received + dp_held

    # --- optimizer -------------------------------------------------------------------------
    # ZeRO partitions the update over the shard group: all d GPUs, or, hybrid-sharded, the
    # group that holds one copy of the weights (each replica updates its own copy).
    updated = params / np.where(zero_stage >= 1, shard, 1)
    # Before it, every stack clips the gradients to a global norm: a read of each, and in most
    # stacks a scale of each on every step (Software.clip_every_step).
    step_bytes = (GRADIENT_CLIP_BYTES if (software.optimizer.clipping == "every step") else GRADIENT_NORM_BYTES) + (
        efficiencies.optimizer_bytes_per_parameter + software.precision.gradient_bytes + software.precision.parameter_bytes
        if (software.optimizer.update == "fused") else EAGER_ADAMW_BYTES)
    optimizer = updated * step_bytes / hbm_rate

    step = compute + tensor_parallel + pipeline + bubble + exposed_dp + optimizer
    tokens_per_iteration = B * s
    model_flops = tokens_per_iteration * flops_per_token(model, recompute="none")
    share = RECOMPUTATION[recompute]
    recomputed_projections = projections - (2 * model.ffn_hidden_size * h if _stops_early(software, share) else 0)
    executed = tokens_per_iteration * (model.layers * (3 * (projections + 4 * w * h)
                                                       + share.projections * recomputed_projections
                                                       + share.attention * 4 * w * h)
                                       + 3 * logit_flops)
    memory = _memory(model, cluster, software, efficiencies, recompute, zero_stage, t, p, shard, c, b, v, sp, m,
                     uneven_pipeline)
    out_ = as_output
    return TrainingStep(
        compute_s=out_(compute), tensor_parallel_s=out_(tensor_parallel), pipeline_s=out_(pipeline),
        bubble_s=out_(bubble), data_parallel_s=out_(exposed_dp), data_parallel_hidden_s=out_(hidden_dp),
        optimizer_s=out_(optimizer), step_s=out_(step),
        gpus=int(gpus) if np.ndim(gpus) == 0 else gpus.astype(int),
        tokens=tokens_per_iteration, model_flops=model_flops, hardware_flops=float(executed),
        peak_flop_per_s=peak, memory=memory)


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
    model = resolve("model", model, TransformerModel, MODELS)
    cluster = resolve("cluster", cluster, Cluster, CLUSTERS)
    software = resolve("software", software, Software, SOFTWARE)
    if not isinstance(config, ParallelConfig):
        raise TypeError(f"config must be a ParallelConfig (see parallel_config), got {type(config).__name__}")
    if not isinstance(efficiencies, Efficiencies):
        raise TypeError(f"efficiencies must be an Efficiencies, got {type(efficiencies).__name__}")
    config.check(model)
    return _evaluate(model, cluster, software, efficiencies,
                     global_batch_size=config.global_batch_size, recompute=config.recompute,
                     zero_stage=config.zero_stage, sequence_parallel=config.sequence_parallel,
                     t=config.tensor_parallel, p=config.pipeline_parallel, d=config.data_parallel,
                     c=config.context_parallel, b=config.microbatch_size, v=config.interleave,
                     uneven_pipeline=config.uneven_pipeline, shard_group=config.shard_group_size)


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
