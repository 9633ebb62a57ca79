"""The terms of the step-time model, one function each: the training package's internal API.

:func:`~interconnect_lab.training.training_step` adds these up (``training.step.evaluate``);
:func:`~interconnect_lab.training.parallel_sweep`, :func:`~interconnect_lab.training.tensor_parallel_layer`
and :func:`~interconnect_lab.training.parallel_traffic` read the same terms. Each takes
floats or numpy arrays (one element per parallel split) and returns the same; each is
tested alone in ``tests/training/test_terms.py``. In the order the step adds them:

1. **Rates**: :func:`gemm_rate` and :func:`hbm_rate`, what the GPU sustains.
2. **One layer, one microbatch, one GPU** (:func:`layer_terms`): the projection GEMMs
   (:func:`projection_gemm_s`), the attention core (:func:`attention_core_s`), the
   element-wise ops (:func:`elementwise_s`, :func:`eager_elementwise_s`), FP8
   quantization (:func:`fp8_quantize_s`), recomputation (:func:`recompute_s`), and the
   layer's tensor- and context-parallel collectives (:func:`tensor_parallel_layer_s`,
   :func:`context_parallel_layer_s`).
3. **The slowest pipeline stage** (:func:`stage_time_s`): its layers
   (:func:`layers_per_stage`, :func:`edge_stage_layers`), the logits (:func:`logits_s`),
   what hidden collectives cost the compute beside them (:func:`hidden_traffic_s`,
   :func:`held_compute_s`) and autocast's casts (:func:`weight_cast_bytes`).
4. **The pipeline**: the bubble (:func:`pipeline_bubble_s`) and the sends between stages
   (:func:`pipeline_send_s`).
5. **Data parallelism and ZeRO** (:func:`data_parallel_s`): the group
   (:func:`data_parallel_group`), the units it reduces in (:func:`data_parallel_units`),
   what overlap leaves exposed (:func:`exposed_s`), and one function per ZeRO family
   (:func:`replicated_data_parallel_s`, :func:`sharded_state_data_parallel_s`,
   :func:`sharded_weight_data_parallel_s`).
6. **The optimizer step** (:func:`optimizer_s`).
7. **FLOPs executed** (:func:`executed_flops`) and **memory** (:func:`memory_breakdown`).

Every collective is priced by :func:`interconnect_lab.collectives.nccl_time` on the
system :meth:`~interconnect_lab.training.Cluster.group_system` builds for its group
(:func:`collective_s`). Degrees use the book's notation: t tensor-, p pipeline-, d
data- and c context-parallel, b sequences per microbatch, v model chunks per stage, m
microbatches per step.

To add a mechanism: give the stacks a field, or a new name in the ``CHOICES`` table of the
record it belongs to (``training.stack``: ``Kernels``, ``Precision``, ``Overlap``,
``Optimizer``, ``ZeroPlusPlus``); price it in the one term it changes, or in a new term
that ``step.evaluate`` adds; test that term alone in ``tests/training/test_terms.py``.
``tests/training/test_stack.py`` then checks that the new choice shows in a step.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from .. import collectives, matmul
from .. import units as u
from .._validation import as_output, check_choice, check_integer
from .hardware import (
    EAGER_ADAMW_BYTES, EAGER_GATED_ACTIVATION_BYTES, EAGER_RMSNORM_BYTES, EAGER_ROTARY_BYTES,
    FLASH_ATTENTION_BACKWARD_FLOPS, GRADIENT_CLIP_BYTES, GRADIENT_NORM_BYTES, NCCL_MAX_SMS, NCCL_MIN_SMS,
    attention_share, matmul_fraction_of_peak,
)
from .models import RECOMPUTATION, embedding_parameters, forward_flops_per_token, layer_parameters

__all__ = [
    "Split", "FP32_BYTES", "FP8_QUANTIZE_BYTES", "SM_PROBE_BYTES",
    # rates and collectives
    "gemm_rate", "hbm_rate", "collective_s", "collective_sms", "received_bytes", "hidden_share",
    "hidden_traffic_s", "held_compute_s", "group_ranks_per_node",
    # one layer
    "ProjectionGemms", "projection_gemm_s", "precision_speedup", "AttentionCore", "attention_core_s",
    "elementwise_s", "eager_elementwise_s", "fp8_quantize_s", "stops_early", "recompute_s", "collective_passes",
    "LayerCollectives", "tensor_parallel_layer_s", "causal_imbalance", "context_parallel_layer_s", "LayerTerms",
    "layer_terms",
    # the stage and the pipeline
    "layers_per_stage", "edge_stage_layers", "stage_parameters", "StageShape", "stage_shape", "logits_s",
    "stored_weight_bytes", "gathered_weight_bytes", "weight_cast_bytes", "layer_contention_s", "stage_time_s", "pipeline_bubble_s",
    "pipeline_send_s",
    # data parallelism and ZeRO
    "DataParallelGroup", "data_parallel_group", "data_parallel_units", "exposed_s", "DataParallelTerms",
    "replicated_data_parallel_s", "sharded_state_data_parallel_s", "sharded_weight_data_parallel_s",
    "data_parallel_s",
    # optimizer, FLOPs, memory
    "optimizer_bytes_per_parameter", "optimizer_s", "executed_flops", "activation_bytes_per_layer",
    "memory_breakdown",
]

#: Bytes of one FP32 element [B].
FP32_BYTES = 4

#: HBM bytes per element to quantize a GEMM operand for FP8: read 2 (BF16), write 1 row-wise
#: and 1 column-wise (Transformer Engine, "Performance considerations: handling transposes") [B].
FP8_QUANTIZE_BYTES = 4

#: Message at which a collective's bus bandwidth is read to count the SMs it holds [B]: its plateau.
SM_PROBE_BYTES = 1 * u.GiB


@dataclass(frozen=True)
class Split:
    """How the GPUs are split, as the terms read it: one configuration, or many at once as arrays.

    The vectorised counterpart of :class:`~interconnect_lab.training.ParallelConfig`
    (:meth:`of` builds one from it); the degrees become float arrays, so that
    :func:`~interconnect_lab.training.parallel_sweep` evaluates every split in one pass.

    Attributes
    ----------
    t, p, d, c : float or numpy.ndarray
        Tensor-, pipeline-, data- and context-parallel degrees [-].
    b : float or numpy.ndarray
        Sequences per microbatch [sequences].
    v : float or numpy.ndarray
        Model chunks per pipeline stage [-].
    sequence_parallel : bool or numpy.ndarray
        Sequence parallelism over the tensor-parallel group.
    global_batch_size : float
        Sequences per step B [sequences].
    recompute : str
        A policy of ``training.RECOMPUTATION``.
    zero_stage : int
        ZeRO stage, 0 to 3.
    uneven_pipeline : bool
        Stages may hold one layer fewer (see ``ParallelConfig.uneven_pipeline``).
    shard_group_size : int or None
        ZeRO-3's hybrid shard group; None for the whole data-parallel group.
    """

    t: np.ndarray
    p: np.ndarray
    d: np.ndarray
    c: np.ndarray
    b: np.ndarray
    v: np.ndarray
    sequence_parallel: np.ndarray
    global_batch_size: float
    recompute: str
    zero_stage: int
    uneven_pipeline: bool = False
    shard_group_size: int | None = None

    def __post_init__(self):
        degrees = [np.asarray(getattr(self, name), dtype=float) for name in ("t", "p", "d", "c", "b", "v")]
        for name, value in zip(("t", "p", "d", "c", "b", "v"), degrees):
            object.__setattr__(self, name, value)
        object.__setattr__(self, "sequence_parallel", np.asarray(self.sequence_parallel, dtype=bool))
        object.__setattr__(self, "global_batch_size", float(self.global_batch_size))
        try:
            np.broadcast_shapes(*(x.shape for x in degrees), self.sequence_parallel.shape)
        except ValueError:
            raise ValueError("Split: t, p, d, c, b, v and sequence_parallel must broadcast to one shape; got "
                             + ", ".join(str(x.shape) for x in degrees)) from None
        if not all(np.all(x >= 1) for x in degrees) or not self.global_batch_size >= 1:
            raise ValueError("Split: every degree, the microbatch and the global batch must be at least 1")
        _policy(self.recompute)
        check_integer("Split.zero_stage", self.zero_stage, minimum=0, maximum=3)

    @classmethod
    def of(cls, config) -> "Split":
        """The split of a :class:`~interconnect_lab.training.ParallelConfig`."""
        return cls(t=config.tensor_parallel, p=config.pipeline_parallel, d=config.data_parallel,
                   c=config.context_parallel, b=config.microbatch_size, v=config.interleave,
                   sequence_parallel=config.sequence_parallel, global_batch_size=config.global_batch_size,
                   recompute=config.recompute, zero_stage=config.zero_stage,
                   uneven_pipeline=config.uneven_pipeline, shard_group_size=config.shard_group_size)

    @property
    def microbatches(self):
        """Microbatches per step per pipeline, m = B / (d b) [-]."""
        return self.global_batch_size / (self.d * self.b)

    @property
    def gpus(self):
        """GPUs of the run, t p d c, as whole numbers [-]."""
        return np.rint(self.t * self.p * self.d * self.c).astype(int)


def _policy(recompute):
    """The recomputation policy called ``recompute``; an unknown name is an error that lists the valid ones."""
    try:
        return RECOMPUTATION[recompute]
    except (KeyError, TypeError):
        check_choice("recompute", recompute, RECOMPUTATION)
        raise


def _ranks(degree):
    """A degree as whole numbers of ranks."""
    return np.rint(degree).astype(int)


# ============================================================================
# Rates, and collectives priced by interconnect_lab.collectives
# ============================================================================

def gemm_rate(cluster, efficiencies) -> float:
    """Rate of a training GEMM at the best shape, before its own shape's efficiency [FLOP/s].

    .. math:: R_\\text{GEMM} = \\eta_\\text{GEMM}\\, f_\\text{matmul}\\, R_\\text{peak}

    with :math:`f_\\text{matmul}` from :func:`~interconnect_lab.training.matmul_fraction_of_peak`.

    Parameters
    ----------
    cluster : Cluster
        The hardware (its GPU).
    efficiencies : Efficiencies
        ``gemm``, :math:`\\eta_\\text{GEMM}` [-].
    """
    return efficiencies.gemm * matmul_fraction_of_peak(cluster.gpu_spec) * cluster.peak_flop_per_s


def hbm_rate(cluster, efficiencies) -> float:
    """Rate at which streaming element-wise kernels move HBM bytes, :math:`\\eta_\\text{HBM} B_\\text{HBM}` [B/s].

    Parameters
    ----------
    cluster : Cluster
        The hardware (its GPU's HBM bandwidth).
    efficiencies : Efficiencies
        ``memory_bandwidth``, :math:`\\eta_\\text{HBM}` [-].
    """
    return efficiencies.memory_bandwidth * cluster.gpu_spec.hbm_bandwidth_bytes_per_s


def _distinct_groups(ranks, ranks_per_node, network_slowdown):
    """The distinct (ranks, ranks per node, slowdown) of an array of groups, and where each group's is."""
    if np.ndim(ranks) == 0:                # one group: no need to find the distinct ones
        return [(int(ranks), int(min(ranks_per_node, ranks)), float(network_slowdown))], np.zeros((), dtype=int)
    pairs = np.stack([ranks.ravel(), np.minimum(ranks_per_node, ranks).ravel(), network_slowdown.ravel()], axis=1)
    unique, inverse = np.unique(pairs, axis=0, return_inverse=True)
    return unique, inverse.reshape(ranks.shape)


def collective_s(kind, size_bytes, ranks, ranks_per_node, cluster, network_slowdown=1.0):
    """Time of one collective of each group in an array of groups [s], vectorised.

    Each distinct group is priced as NCCL runs it on its GPUs
    (:func:`interconnect_lab.collectives.nccl_time` on
    :meth:`~interconnect_lab.training.Cluster.group_system`):
    inside one node over NVLink (NVLink SHARP where NCCL would pick it), across
    nodes through each GPU's share of the ports, slowed by ``network_slowdown``
    where the group crosses oversubscribed pods. Groups of one rank, and empty
    messages, take no time.

    Parameters
    ----------
    kind : str
        ``"all_reduce"``, ``"all_gather"``, ``"reduce_scatter"`` or ``"send_recv"``.
    size_bytes : float or array_like
        The message as nccl-tests counts it (the whole array for all-reduce,
        all-gather and reduce-scatter) [B].
    ranks : int or array_like
        GPUs in the group [-].
    ranks_per_node : int or array_like
        GPUs of the group in each node it spans [-].
    cluster : Cluster
        The hardware.
    network_slowdown : float or array_like
        Factor dividing each GPU's share of the network (oversubscribed pods) [-].
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


def collective_sms(kind, ranks, ranks_per_node, cluster, bus_bytes_per_s_per_sm, network_slowdown=1.0):
    """SMs one collective of each group holds while it runs, vectorised (0 for groups of one) [-].

    Its bus bandwidth at the plateau (:data:`SM_PROBE_BYTES`) over ``bus_bytes_per_s_per_sm``,
    rounded up, at least ``NCCL_MIN_SMS`` and at most ``NCCL_MAX_SMS``.

    Parameters
    ----------
    kind, ranks, ranks_per_node, cluster, network_slowdown :
        As for :func:`collective_s`.
    bus_bytes_per_s_per_sm : float
        Bus bandwidth one SM carries [B/s].
    """
    ranks, ranks_per_node, network_slowdown = np.broadcast_arrays(
        np.asarray(ranks, int), np.asarray(ranks_per_node, int), np.asarray(network_slowdown, float))
    unique, inverse = _distinct_groups(ranks, ranks_per_node, network_slowdown)
    sms = np.zeros(ranks.shape)
    for index, (n, g, slowdown) in enumerate(unique):
        if n > 1:
            result = collectives.nccl_collective(kind, SM_PROBE_BYTES, cluster.group_system(int(n), int(g),
                                                                                         float(slowdown)))
            sms[inverse == index] = np.clip(np.ceil(result.bus_bandwidth_bytes_per_s / bus_bytes_per_s_per_sm),
                                            NCCL_MIN_SMS, NCCL_MAX_SMS)
    return sms


def received_bytes(kind, size_bytes, ranks):
    """Bytes each of ``ranks`` GPUs receives in one collective of ``size_bytes`` [B], vectorised.

    The message times nccl-tests' bus-bandwidth factor
    (:func:`interconnect_lab.collectives.bus_bandwidth_factor`): 2(n-1)/n for an
    all-reduce, (n-1)/n for an all-gather or a reduce-scatter.

    Parameters
    ----------
    kind : str
        The collective.
    size_bytes : float or array_like
        Its message [B].
    ranks : int or array_like
        GPUs in the group [-].
    """
    ranks = np.asarray(ranks, float)
    return size_bytes * (2.0 if kind == "all_reduce" else 1.0) * (ranks - 1) / ranks


def hidden_share(comm_s, exposed_s):
    """Share of a collective's time hidden behind compute, 0 where there is no collective [-].

    Parameters
    ----------
    comm_s : float or array_like
        The collectives' time, one after another [s].
    exposed_s : float or array_like
        The part the GPU waits for [s].
    """
    comm_s, exposed_s = np.broadcast_arrays(np.asarray(comm_s, float), np.asarray(exposed_s, float))
    return np.divide(comm_s - exposed_s, comm_s, out=np.zeros(comm_s.shape), where=comm_s > 0)


def hidden_traffic_s(hidden_received_bytes, hbm_bytes_per_s):
    """HBM time a hidden collective takes from the compute beside it [s].

    What it receives passes through HBM
    :data:`~interconnect_lab.collectives.HBM_BYTES_PER_RECEIVED_BYTE` times (NCCL's
    maintainers: at least twice), at the streaming rate.

    Parameters
    ----------
    hidden_received_bytes : float or array_like
        Bytes the hidden share of the collectives receives per GPU [B].
    hbm_bytes_per_s : float
        :func:`hbm_rate` [B/s].
    """
    return hidden_received_bytes * (collectives.HBM_BYTES_PER_RECEIVED_BYTE / hbm_bytes_per_s)


def held_compute_s(kind, hidden_s, ranks, ranks_per_node, cluster, efficiencies, network_slowdown=1.0):
    """Compute time lost to the SMs a hidden NCCL collective holds [s]; 0 unless the SMs are charged.

    .. math:: t_\\text{held} = t_\\text{hidden}\\, \\frac{n_\\text{SM}(\\text{collective})}{n_\\text{SM}(\\text{GPU})}

    Charged only with ``Efficiencies.nccl_bus_bytes_per_s_per_sm`` set and an SM
    count in the catalog (:func:`collective_sms`).

    Parameters
    ----------
    kind, ranks, ranks_per_node, cluster, network_slowdown :
        As for :func:`collective_s`.
    hidden_s : float or array_like
        The collectives' hidden time [s].
    efficiencies : Efficiencies
        ``nccl_bus_bytes_per_s_per_sm``.
    """
    bus_per_sm, sms = efficiencies.nccl_bus_bytes_per_s_per_sm, cluster.gpu_spec.streaming_multiprocessors
    if bus_per_sm is None or sms is None:
        return 0.0
    return hidden_s * collective_sms(kind, ranks, ranks_per_node, cluster, bus_per_sm, network_slowdown) / sms


def group_ranks_per_node(ranks, gpus_per_node, gpus):
    """GPUs of a tensor-parallel group that every group has together in one node, gcd(t, node) [-].

    Groups are contiguous blocks of t ranks (Megatron-LM puts tensor parallelism
    innermost) laid over the run's ``gpus`` GPUs; a run of no more GPUs than one
    node holds lives inside one node. When t divides the node size every group sits inside one node;
    when the node size divides t every group spans whole nodes. Otherwise some
    group straddles a node boundary (groups of 16 in 72-GPU racks: GPUs 64-79
    are 8 in one rack and 8 in the next), and the slowest group sets the pace.
    Every group can be cut into pieces of gcd(t, node) GPUs that each lie in one
    node, so a two-level collective over those pieces is always possible.

    Parameters
    ----------
    ranks : int or array_like
        GPUs in a group, t [-].
    gpus_per_node : int
        GPUs in one node [-].
    gpus : int or array_like
        GPUs of the run [-].
    """
    return np.gcd(ranks, np.minimum(gpus_per_node, gpus))


# ============================================================================
# One layer, one microbatch, one GPU: compute
# ============================================================================

def _blocks(software):
    """Blocks of a layer that each end in a norm, a residual add and a tensor-parallel all-reduce."""
    return 1 if software.kernels.parallel_block else 2


def _stream_bytes(software):
    """Bytes of one element of the residual stream: FP32 when the weights are (it starts at the FP32 embedding)."""
    return FP32_BYTES if software.precision.fp32_weights else 2


class ProjectionGemms(NamedTuple):
    """A layer's four weight GEMMs on one GPU, from :func:`projection_gemm_s` [s]."""

    forward_s: float
    backward_s: float
    column_weight_gradient_s: np.ndarray   # the weight-gradient GEMMs of QKV and MLP in, stacked
    output_projection_s: float             # the forward pass of the MLP's output projection


def projection_gemm_s(model, gpu, gemm_flop_per_s, tokens, t, precision="bf16") -> ProjectionGemms:
    """Forward and backward time of a layer's four projection GEMMs on one GPU [s].

    Each weight GEMM (QKV, attention output, MLP in, MLP out; tensor-parallel
    shards of ``tokens`` rows) runs at its own shape's rate
    (:func:`interconnect_lab.matmul.gemm_efficiency`): forward m × n × k,
    backward the data gradient (m × k × n) and the weight gradient (k × n × m),
    each :math:`2mnk` FLOPs.

    Parameters
    ----------
    model : TransformerModel
        The architecture.
    gpu : interconnect_lab.catalog.GPU
        The GPU (its SMs and rates shape each GEMM's efficiency).
    gemm_flop_per_s : float
        :func:`gemm_rate`, times :func:`precision_speedup` [FLOP/s].
    tokens : float or array_like
        Rows of each GEMM, the microbatch's tokens on this GPU [tokens].
    t : float or array_like
        Tensor-parallel degree [-].
    precision : {"bf16", "fp8"}
        The GEMMs' precision.

    Returns
    -------
    ProjectionGemms
        The forward and backward times, the two column-parallel weight-gradient
        GEMMs (QKV and MLP in) and the MLP output projection's forward time.
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
    efficiency = matmul.unchecked_gemm_efficiency(gpu, np.stack([m, m, k]), np.stack([n, k, n]),
                                                  np.stack([k, n, m]), precision)
    seconds = flops / (gemm_flop_per_s * efficiency)
    forward = seconds[0].sum(axis=0)
    backward = (seconds[1] + seconds[2]).sum(axis=0)
    column_weight_gradient = seconds[2][[0, 2]]
    last_forward = seconds[0][3]
    if forward.ndim == 0:
        return ProjectionGemms(float(forward), float(backward), column_weight_gradient, float(last_forward))
    return ProjectionGemms(forward, backward, column_weight_gradient, last_forward)


def precision_speedup(software, gpu) -> float:
    """How much faster the weight GEMMs run in the stack's precision than in BF16 [-].

    The ratio of the best measured rates (:func:`interconnect_lab.matmul.best_rate`):
    1.74 on an H100, where the peaks say 2.

    Parameters
    ----------
    software : Software
        The stack (``kernels.gemm_precision``).
    gpu : interconnect_lab.catalog.GPU
        The GPU.

    Raises
    ------
    ValueError
        For FP8 GEMMs on a GPU without FP8.
    """
    if software.kernels.gemm_precision == "bf16":
        return 1.0
    if gpu.fp8_flop_per_s is None:
        raise ValueError(f"software {software.name!r} runs its GEMMs in FP8, which the {gpu.name} does not "
                         "support: choose a stack with Kernels(gemm_precision='bf16')")
    return matmul.best_rate(gpu, "fp8") / matmul.best_rate(gpu, "bf16")


class AttentionCore(NamedTuple):
    """The attention core of one layer and microbatch on one GPU, from :func:`attention_core_s`."""

    flops: float                    # executed forward FLOPs: scores and attention x V [FLOP]
    forward_s: float                # [s]
    backward_s: float               # [s]
    backward_flop_factor: float     # backward FLOPs over forward FLOPs [-]


def attention_core_s(model, cluster, software, gemm_flop_per_s, hbm_bytes_per_s, t, c, b) -> AttentionCore:
    """Scores, softmax and attention × V of one layer and microbatch on one GPU, forward and backward [s].

    A fused kernel (``Kernels.attention`` not ``"unfused"``) skips the tiles a
    causal mask hides, so it executes about half the :math:`4 s h` FLOPs per
    token the FLOP conventions count (a sliding window already keeps only the
    keys each query sees), reads Q, K, V and writes O, and runs at most at its
    published share of peak (:func:`~interconnect_lab.training.attention_share`,
    at the length of one rank's block of keys with context parallelism); its
    backward pass recomputes the scores,
    ``training.FLASH_ATTENTION_BACKWARD_FLOPS`` forward
    passes. Unfused attention computes every score, writes, soft-maxes, drops
    out and reads them again (13 bytes per score with dropout, 8 without) and
    runs its backward pass at twice the forward's FLOPs.

    Parameters
    ----------
    model : TransformerModel
        The architecture.
    cluster : Cluster
        The hardware.
    software : Software
        The stack (``kernels.attention``).
    gemm_flop_per_s : float
        :func:`gemm_rate` [FLOP/s].
    hbm_bytes_per_s : float
        :func:`hbm_rate` [B/s].
    t, c : float or array_like
        Tensor- and context-parallel degrees [-].
    b : float or array_like
        Sequences per microbatch [sequences].
    """
    h, kv, a = model.hidden_size, model.kv_size, model.heads
    s, w = model.sequence_length, model.attended_tokens
    tokens = b * s / c
    fused = software.kernels.fused_attention
    executed_keys = w / 2 if fused and model.attention_window is None else w
    flops = tokens * 4 * executed_keys * h / t                          # scores and attention x V
    mask = 1.0 if model.dropout else 0.0
    if fused:
        core_bytes = 4 * tokens * (h + kv) / t                          # Q, K, V in, O out
    else:
        core_bytes = (8 + 5 * mask) * a * tokens * w / t                # scores written, soft-maxed, dropped, read
    forward_rate = backward_rate = gemm_flop_per_s
    if fused:
        # Each kernel call runs a row of queries over at most the attended keys, and with context
        # parallelism over one rank's block of them (ring attention's steps).
        share = attention_share(software.kernels.attention, cluster.gpu, np.minimum(w, s / c), model.head_dim)
        if share is not None:
            forward_rate = np.minimum(gemm_flop_per_s, share.forward * cluster.peak_flop_per_s)
            backward_rate = np.minimum(gemm_flop_per_s, share.backward * cluster.peak_flop_per_s)
    forward_s = flops / forward_rate + core_bytes / hbm_bytes_per_s
    # The backward pass: four matmuls (twice the forward's FLOPs), and a fused kernel recomputes
    # the scores first, a fifth (FLASH_ATTENTION_BACKWARD_FLOPS).
    factor = FLASH_ATTENTION_BACKWARD_FLOPS if fused else 2.0
    backward_s = factor * flops / backward_rate + 2 * core_bytes / hbm_bytes_per_s
    return AttentionCore(flops, forward_s, backward_s, factor)


def elementwise_s(model, software, tokens, t, sequence_parallel, hbm_bytes_per_s):
    """Forward time of a layer's norms, residual adds and MLP activation, one read and write each [s].

    Each norm reads the residual stream and writes 2 B per element, each add
    reads the stream and a 2 B branch and writes the stream (plus a dropout
    mask), the activation reads the MLP's one (two, gated) wide tensors and
    writes one; fused into their neighbours (``Kernels.elementwise`` "fused")
    the norms and the activation move nothing of their own. Sequence
    parallelism shards the norms and adds over t. The backward pass moves twice
    as much.

    Parameters
    ----------
    model : TransformerModel
        The architecture.
    software : Software
        The stack (``kernels``, ``precision.fp32_weights``).
    tokens : float or array_like
        The microbatch's tokens on this GPU [tokens].
    t : float or array_like
        Tensor-parallel degree [-].
    sequence_parallel : bool or array_like
        Sequence parallelism.
    hbm_bytes_per_s : float
        :func:`hbm_rate` [B/s].
    """
    h, f = model.hidden_size, model.ffn_hidden_size
    replicated = np.where(sequence_parallel, t, 1.0)          # sequence parallelism shards these over t
    blocks, stream = _blocks(software), _stream_bytes(software)
    mask = 1.0 if model.dropout else 0.0
    fused = software.kernels.elementwise == "fused"
    norm_bytes = 0.0 if fused else blocks * (stream + 2) * tokens * h / replicated
    residual_bytes = blocks * (2 * stream + 2 + mask) * tokens * h / replicated
    activation_bytes = 0.0 if fused else (
        (2 * model.mlp_matrices) * tokens * f / t)                      # read 2 (or 3 gated) ... write 1 wide tensor
    return (norm_bytes + residual_bytes + activation_bytes) / hbm_bytes_per_s


def eager_elementwise_s(model, software, tokens, t, sequence_parallel, hbm_bytes_per_s):
    """Extra forward and backward time of element-wise ops written as PyTorch tensor ops [s].

    With ``Kernels.elementwise`` "eager" the RMSNorms, the rotary embedding and
    the gated activation run op by op
    (``training.EAGER_RMSNORM_BYTES``,
    ``training.EAGER_ROTARY_BYTES``,
    ``training.EAGER_GATED_ACTIVATION_BYTES``): what they
    move beyond the one read and one write per element that :func:`elementwise_s`
    charges. Zero for the other choices, and for the parts a model does not
    have (LayerNorm, learned positions, a two-matrix MLP).

    Parameters
    ----------
    model, software, tokens, t, sequence_parallel, hbm_bytes_per_s :
        As for :func:`elementwise_s`.

    Returns
    -------
    (float, float)
        Forward and backward [s].
    """
    if software.kernels.elementwise != "eager":
        return 0.0, 0.0
    h, f, kv = model.hidden_size, model.ffn_hidden_size, model.kv_size
    replicated = np.where(sequence_parallel, t, 1.0)
    blocks, stream = _blocks(software), _stream_bytes(software)
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
    return forward / hbm_bytes_per_s, backward / hbm_bytes_per_s


def fp8_quantize_s(model, software, tokens, t, sequence_parallel, hbm_bytes_per_s):
    """Forward and backward time of quantizing a layer's GEMM operands for FP8 [s]; zero in BF16.

    Each activation entering a GEMM, and in the backward pass each gradient
    leaving one, is read in BF16 and written as FP8 twice, row-wise and
    column-wise (Hopper's FP8 GEMMs need the transposed copy for the other
    pass): :data:`FP8_QUANTIZE_BYTES` per element. Weights are quantized once
    per step, not per microbatch.

    Parameters
    ----------
    model, software, tokens, t, sequence_parallel, hbm_bytes_per_s :
        As for :func:`elementwise_s`.

    Returns
    -------
    (float, float)
        Forward and backward [s].
    """
    if software.kernels.gemm_precision != "fp8":
        return 0.0, 0.0
    h, f, kv = model.hidden_size, model.ffn_hidden_size, model.kv_size
    replicated = np.where(sequence_parallel, t, 1.0)
    inputs = tokens * (2 * h / replicated + h / t + f / t)           # QKV and MLP in (norm-fed), out-proj, MLP out
    outputs = tokens * ((h + 2 * kv) / t + h + (model.mlp_matrices - 1) * f / t + h)
    return FP8_QUANTIZE_BYTES * inputs / hbm_bytes_per_s, FP8_QUANTIZE_BYTES * outputs / hbm_bytes_per_s


def stops_early(software, recompute) -> bool:
    """Whether a policy's recomputation stops before each block's last GEMM.

    Only with ``Software.checkpoint`` "early stop", and only for the policies
    that checkpoint whole blocks (their projections, attention and element-wise
    shares equal and above zero: "full", "every other layer").

    Parameters
    ----------
    software : Software
        The stack (``checkpoint``).
    recompute : str
        A policy of ``training.RECOMPUTATION``.
    """
    share = _policy(recompute)
    whole_blocks = share.projections > 0 and share.projections == share.attention == share.elementwise
    return software.checkpoint == "early stop" and whole_blocks


def recompute_s(software, recompute, projection_forward_s, output_projection_s, attention_forward_s,
                elementwise_forward_s):
    """Time of the recomputed forward pass of one layer and microbatch [s].

    .. math:: t_\\text{re} = r_\\text{proj} (t_\\text{proj} - t_\\text{skip}) + r_\\text{attn} t_\\text{attn}
              + r_\\text{elem} t_\\text{elem}

    with the policy's shares r (``training.RECOMPUTATION``); where the
    checkpoint stops early (:func:`stops_early`) the MLP's output projection,
    :math:`t_\\text{skip}`, is not rerun.

    Parameters
    ----------
    software : Software
        The stack (``checkpoint``).
    recompute : str
        A policy of ``training.RECOMPUTATION``.
    projection_forward_s, output_projection_s : float or array_like
        The four projection GEMMs' forward time and the MLP output projection's [s].
    attention_forward_s : float or array_like
        The attention core's forward time [s].
    elementwise_forward_s : float or array_like
        The element-wise ops' forward time, FP8 quantization included [s].
    """
    share = _policy(recompute)
    skipped_s = output_projection_s if stops_early(software, recompute) else 0.0
    return (share.projections * (projection_forward_s - skipped_s) + share.attention * attention_forward_s
            + share.elementwise * elementwise_forward_s)


# ============================================================================
# One layer, one microbatch, one GPU: its tensor- and context-parallel collectives
# ============================================================================

def collective_passes(software, recompute) -> float:
    """Passes of a layer that run its collectives: forward, backward and the recomputed share [-].

    Early stop (:func:`stops_early`) skips the recomputed block's last
    all-reduce, the one after the MLP's output projection.

    Parameters
    ----------
    software : Software
        The stack (``checkpoint``, ``kernels.parallel_block``).
    recompute : str
        A policy of ``training.RECOMPUTATION``.
    """
    blocks = _blocks(software)
    share = _policy(recompute)
    return 2 + share.collectives * ((blocks - 1) / blocks if stops_early(software, recompute) else 1.0)


class LayerCollectives(NamedTuple):
    """One kind of a layer's collectives for one microbatch on one GPU, from
    :func:`tensor_parallel_layer_s` or :func:`context_parallel_layer_s`."""

    calls: float             # collectives per layer and microbatch [-]
    message_bytes: float     # the message of each, as nccl-tests counts it [B]
    communication_s: float   # all of them, one after the other [s]
    exposed_s: float         # what the GPU waits for after overlap [s]
    received_bytes: float    # what each GPU receives for all of them [B]


def tensor_parallel_layer_s(model, cluster, software, recompute, tokens, t, sequence_parallel, gpus, gemm_s,
                            column_weight_gradient_s) -> LayerCollectives:
    """A layer's tensor-parallel all-reduces for one microbatch, and what overlap leaves exposed [s].

    One all-reduce of the b·s·h activations after attention and one after the
    MLP (one in all with a parallel block), in every pass (SC21 §3.2; with
    sequence parallelism a reduce-scatter and an all-gather of the same
    volume), over the group's GPUs (:func:`group_ranks_per_node`). Exposed, by
    ``Overlap.tensor_parallel``: all of it ("none"); what outlasts each
    column-parallel layer's weight-gradient GEMM of the backward collective at
    its input ("backward"); :math:`\\max(T/t, T - t_\\text{GEMM})` ("pipelined").

    Parameters
    ----------
    model : TransformerModel
        The architecture.
    cluster : Cluster
        The hardware.
    software : Software
        The stack (``overlap.tensor_parallel``, ``precision.parameter_bytes``).
    recompute : str
        A policy of ``training.RECOMPUTATION``.
    tokens : float or array_like
        The microbatch's tokens on this GPU [tokens].
    t : float or array_like
        Tensor-parallel degree [-].
    sequence_parallel : bool or array_like
        Sequence parallelism.
    gpus : int or array_like
        GPUs of the run [-].
    gemm_s : float or array_like
        The layer's GEMM time, forward, backward and recomputed [s].
    column_weight_gradient_s : numpy.ndarray
        The weight-gradient GEMMs of QKV and MLP in, stacked (:func:`projection_gemm_s`) [s].
    """
    ti = _ranks(t)
    blocks = _blocks(software)
    activation_size = software.precision.parameter_bytes * tokens * model.hidden_size
    calls = collective_passes(software, recompute) * blocks
    all_reduce_s = collective_s("all_reduce", activation_size, ti,
                                group_ranks_per_node(ti, cluster.gpus_per_node, gpus), cluster)
    comm = calls * all_reduce_s
    if software.overlap.tensor_parallel == "pipelined":
        exposed = np.maximum(comm / t, comm - gemm_s)
    elif software.overlap.tensor_parallel == "backward":
        # The backward pass's collective at each column-parallel input (the whole all-reduce;
        # with sequence parallelism its reduce-scatter half) runs under that linear's
        # weight-gradient GEMM; one input feeds both GEMMs of a parallel block.
        overlapped = np.where(sequence_parallel, all_reduce_s / 2, all_reduce_s)
        gemms = (column_weight_gradient_s if blocks == 2 else column_weight_gradient_s.sum(axis=0)[None])
        exposed = comm - np.minimum(overlapped, gemms).sum(axis=0)
    else:
        exposed = comm
    received = calls * received_bytes("all_reduce", activation_size, t)
    return LayerCollectives(calls, activation_size, comm, exposed, received)


def causal_imbalance(c, balanced=True, windowed=False):
    """The most loaded context-parallel rank's attention work over the mean, under a causal mask [-].

    Cut into c contiguous chunks, rank i's queries see i + 1/2 chunks of keys:
    the last rank does :math:`(c - 1/2)` chunks against a mean of :math:`c/2`,
    :math:`(2c - 1)/c` times the mean, and the others wait for it. Cut into 2c
    chunks, rank i holding chunks i and 2c - 1 - i (Transformer Engine's
    DualChunkSwap, PyTorch's round-robin load balancer, Llama 3 §3.3.2), every
    rank does the same (``training.CONTEXT_PARALLEL_SOURCES["load balance"]``).
    A sliding window shorter than a chunk leaves every rank the same work either way.

    Parameters
    ----------
    c : float or array_like
        Context-parallel degree [-].
    balanced : bool
        The 2c-chunk assignment.
    windowed : bool
        The model attends through a sliding window.
    """
    c = np.asarray(c, dtype=float)
    if not np.all(c >= 1):
        raise ValueError(f"c = {c} is not a context-parallel degree: it must be at least 1")
    if balanced or windowed:
        return np.ones_like(c)
    return (2 * c - 1) / c


def _context_parallel_groups(cluster, t, c):
    """GPUs of a context-parallel group (strided by t) in one node, and of one ring hop (2 in a node, else 1)."""
    ti, ci = _ranks(t), _ranks(c)
    in_node = np.maximum(cluster.gpus_per_node // ti, 1)
    return np.minimum(in_node, ci), np.where(ci <= in_node, 2, 1)


def _ulysses_s(model, cluster, software, t, c, tokens, forward_passes):
    """DeepSpeed-Ulysses: Q, K, V and the output all-to-all'd in each pass, exposed [(calls, message, comm, received)]."""
    if np.any(np.asarray(c) * np.asarray(t) > model.kv_heads):
        raise ValueError(f"context_parallel = {np.max(c):g} with tensor_parallel = {np.max(t):g} is more than "
                         f"Ulysses (Overlap.context_parallel 'a2a') can split: it gives each rank whole KV heads, "
                         f"so context_parallel x tensor_parallel must be at most kv_heads = {model.kv_heads}")
    ci = _ranks(c)
    per_node, _ = _context_parallel_groups(cluster, t, c)
    size = software.precision.parameter_bytes
    qkv = size * tokens * (model.hidden_size + 2 * model.kv_size) / t          # in: Q, K, V (back: dQ, dK, dV)
    out = size * tokens * model.hidden_size / t                                 # out: O (back: dO)
    one = (collective_s("all_to_all", qkv, ci, per_node, cluster)
           + collective_s("all_to_all", out, ci, per_node, cluster))
    passes = forward_passes + 1
    return 2 * passes, qkv, passes * one, passes * (qkv + out) * (c - 1) / c


def context_parallel_layer_s(model, cluster, software, recompute, t, c, b, attention_forward_s,
                             attention_backward_s) -> LayerCollectives:
    """A layer's context-parallel exchange for one microbatch, as the stack's implementation runs it [s].

    Each rank holds b·s/c tokens; its K and V take :math:`K = 2 P b s w / (c t)`
    bytes (w the KV width: the KV heads', or every query head's where the
    model repeats them before attention, as torchtitan's Llama does before
    PyTorch's rings). The attention of one step is :math:`t_\\text{attn}/c`,
    forward or backward. By ``Overlap.context_parallel``
    (``training.CONTEXT_PARALLEL_SOURCES``):

    - ``"p2p"`` (Transformer Engine): c - 1 send/receives of K per forward
      pass, each under one step, exposed :math:`(c-1)\\max(t_K - t_\\text{attn}/c, 0)`;
      backward, c - 1 hops carrying K and its gradient, and the last gradient
      hop waited for after the last step.
    - ``"all_gather"`` (Transformer Engine, Llama 3): an all-gather of cK bytes
      in each forward pass and again in the backward, and a reduce-scatter of
      dK, dV after it, all exposed.
    - ``"a2a"`` (Ulysses): all-to-alls of Q, K, V before attention and of the
      output after it in every pass, exposed; c t must not exceed the KV heads.
    - ``"ring, all-gather rotate"`` (PyTorch): the all-gather of cK bytes issued
      at the first step and waited for at the second, forward and backward;
      the backward pass passes dK, dV in FP32 to the next rank after each of
      its c steps, each hop under the next step, the last exposed.
    - ``"ring, all-to-all rotate"`` (PyTorch): K passed on at each of c - 1
      steps, and in the backward pass the FP32 gradients as above.

    A forward pass reruns with the share of recomputed attention
    (``training.RECOMPUTATION``). Point-to-point hops are priced as pipeline
    sends are, :func:`collective_s` ``"send_recv"`` (in a node when the group's
    c ranks, strided by t, fit in one); all-gathers, reduce-scatters and
    all-to-alls over the c ranks.

    Parameters
    ----------
    model : TransformerModel
        The architecture.
    cluster : Cluster
        The hardware.
    software : Software
        The stack (``overlap.context_parallel``, ``precision.parameter_bytes``).
    recompute : str
        A policy of ``training.RECOMPUTATION``.
    t, c : float or array_like
        Tensor- and context-parallel degrees [-].
    b : float or array_like
        Sequences per microbatch [sequences].
    attention_forward_s, attention_backward_s : float or array_like
        The attention core's forward and backward time on this rank (:func:`attention_core_s`) [s].

    Raises
    ------
    ValueError
        For Ulysses ("a2a") with c t above the model's KV heads.
    """
    method = software.overlap.context_parallel
    tokens = b * model.sequence_length / c
    forward_passes = 1 + _policy(recompute).attention
    if method == "a2a":
        calls, message, comm, received = _ulysses_s(model, cluster, software, t, c, tokens, forward_passes)
        return LayerCollectives(calls, message, comm, comm, received)
    width = model.hidden_size if method.startswith("ring") else model.kv_size
    chunk = software.precision.parameter_bytes * 2 * tokens * width / t          # this rank's K and V [B]
    exchange = {"all_gather": _gathered_kv_s, "p2p": _p2p_kv_s}.get(method, _pytorch_ring_kv_s)
    return exchange(cluster, software, t, c, chunk, forward_passes, attention_forward_s / c,
                    attention_backward_s / c)


def _gathered_kv_s(cluster, software, t, c, chunk, forward_passes, step_forward, step_backward):
    """Transformer Engine's "all_gather", Llama 3's: gather K, V in every pass, reduce-scatter dK, dV; exposed."""
    ci = _ranks(c)
    per_node, _ = _context_parallel_groups(cluster, t, c)
    gather = collective_s("all_gather", c * chunk, ci, per_node, cluster)
    scatter = collective_s("reduce_scatter", c * chunk, ci, per_node, cluster)
    comm = (forward_passes + 1) * gather + scatter
    return LayerCollectives(forward_passes + 2, c * chunk, comm, comm, (forward_passes + 2) * (c - 1) * chunk)


def _p2p_kv_s(cluster, software, t, c, chunk, forward_passes, step_forward, step_backward):
    """Transformer Engine's "p2p" ring: each hop under one step of attention; the last dK, dV hop exposed."""
    ci = _ranks(c)
    _, hop_per_node = _context_parallel_groups(cluster, t, c)
    hop_ranks, steps = np.where(ci > 1, 2, 1), c - 1
    hop = collective_s("send_recv", chunk, hop_ranks, hop_per_node, cluster)
    both = collective_s("send_recv", 2 * chunk, hop_ranks, hop_per_node, cluster)        # K and dK together
    comm = forward_passes * steps * hop + steps * both + hop
    exposed = (forward_passes * steps * np.maximum(hop - step_forward, 0.0)
               + steps * np.maximum(both - step_backward, 0.0) + hop)
    calls = forward_passes * steps + 2 * steps + 1
    return LayerCollectives(calls, chunk, comm, exposed, calls * chunk)


def _pytorch_ring_kv_s(cluster, software, t, c, chunk, forward_passes, step_forward, step_backward):
    """PyTorch's rings: K, V all-gathered under the first step or passed on step by step; FP32 dK, dV hops."""
    ci = _ranks(c)
    per_node, hop_per_node = _context_parallel_groups(cluster, t, c)
    hop_ranks, steps = np.where(ci > 1, 2, 1), c - 1
    widen = FP32_BYTES / software.precision.parameter_bytes                           # dK, dV in FP32
    gradient = collective_s("send_recv", widen * chunk, hop_ranks, hop_per_node, cluster)
    gradient_exposed = steps * np.maximum(gradient - step_backward, 0.0) + gradient
    if software.overlap.context_parallel == "ring, all-gather rotate":
        gather = collective_s("all_gather", c * chunk, ci, per_node, cluster)
        comm = (forward_passes + 1) * gather + c * gradient
        exposed = (forward_passes * np.maximum(gather - step_forward, 0.0) + np.maximum(gather - step_backward, 0.0)
                   + gradient_exposed)
        calls, message = forward_passes + 1 + c, c * chunk
    else:                                                                              # "ring, all-to-all rotate"
        hop = collective_s("send_recv", chunk, hop_ranks, hop_per_node, cluster)
        comm = (forward_passes + 1) * steps * hop + c * gradient
        exposed = (forward_passes * steps * np.maximum(hop - step_forward, 0.0)
                   + steps * np.maximum(hop + gradient - step_backward, 0.0) + gradient)
        calls, message = (forward_passes + 1) * steps + c, chunk
    received = (forward_passes + 1) * steps * chunk + c * widen * chunk
    return LayerCollectives(calls, message, comm, np.where(ci > 1, exposed, 0.0), np.where(ci > 1, received, 0.0))


@dataclass(frozen=True)
class LayerTerms:
    """One transformer layer, one microbatch, one GPU: its compute and its collectives, from :func:`layer_terms`.

    Floats, or arrays with one element per split.

    Attributes
    ----------
    tokens : float
        The microbatch's tokens on this GPU, b·s/c [tokens].
    projections, logit_flops : float
        Forward FLOPs per token of the layer's projections and of the logit layer [FLOP].
    compute_s, forward_s, backward_s, recompute_s, gemm_s : float
        Forward + backward + recomputation; each pass; the GEMM part of the whole [s].
    passes : float
        Forward, backward and the recomputed share of the forward (:func:`collective_passes`) [-].
    tensor_parallel_all_reduces : float
        All-reduces of the activations per layer and microbatch [-].
    tensor_parallel_message_bytes : float
        Size of each [B].
    tensor_parallel_s, tensor_parallel_exposed_s : float
        All of them one after the other, and what the GPU waits for [s].
    context_parallel_s, context_parallel_exposed_s : float
        The context-parallel exchange (:func:`context_parallel_layer_s`), and what stays exposed [s].
    hidden_received_bytes : float
        What the hidden share of those collectives receives per GPU [B].
    """

    tokens: float
    projections: float
    logit_flops: float
    compute_s: float
    forward_s: float
    backward_s: float
    recompute_s: float
    gemm_s: float
    passes: float
    tensor_parallel_all_reduces: float
    tensor_parallel_message_bytes: float
    tensor_parallel_s: float
    tensor_parallel_exposed_s: float
    context_parallel_s: float
    context_parallel_exposed_s: float
    hidden_received_bytes: float


def layer_terms(model, cluster, software, recompute, gemm_flop_per_s, hbm_bytes_per_s, t, c, b, sequence_parallel,
                gpus) -> LayerTerms:
    """Compute and tensor- and context-parallel collectives of one layer and microbatch on one GPU.

    The roofline of each operator group, forward (projections, attention core,
    element-wise ops, FP8 quantization), backward and recomputed
    (:func:`recompute_s`), and the layer's collectives
    (:func:`tensor_parallel_layer_s`, :func:`context_parallel_layer_s`).

    Parameters
    ----------
    model, cluster, software :
        The architecture, the hardware and the stack.
    recompute : str
        A policy of ``training.RECOMPUTATION``.
    gemm_flop_per_s, hbm_bytes_per_s : float
        :func:`gemm_rate` [FLOP/s] and :func:`hbm_rate` [B/s].
    t, c : float or array_like
        Tensor- and context-parallel degrees [-].
    b : float or array_like
        Sequences per microbatch [sequences].
    sequence_parallel : bool or array_like
        Sequence parallelism.
    gpus : int or array_like
        GPUs of the run [-].
    """
    tokens = b * model.sequence_length / c
    projections, _, logit_flops = forward_flops_per_token(model, model.attended_tokens)
    core = attention_core_s(model, cluster, software, gemm_flop_per_s, hbm_bytes_per_s, t, c, b)
    # The most loaded context-parallel rank sets the pace (causal_imbalance; 1 when balanced).
    imbalance = causal_imbalance(c, software.overlap.context_parallel_load_balance,
                                 model.attention_window is not None)
    core = core._replace(forward_s=core.forward_s * imbalance, backward_s=core.backward_s * imbalance)
    elementwise = elementwise_s(model, software, tokens, t, sequence_parallel, hbm_bytes_per_s)
    eager_forward, eager_backward = eager_elementwise_s(model, software, tokens, t, sequence_parallel,
                                                        hbm_bytes_per_s)
    gemms = projection_gemm_s(model, cluster.gpu_spec, gemm_flop_per_s * precision_speedup(software, cluster.gpu_spec),
                              tokens, t, software.kernels.gemm_precision)
    quantize_forward, quantize_backward = fp8_quantize_s(model, software, tokens, t, sequence_parallel,
                                                         hbm_bytes_per_s)
    forward = core.forward_s + gemms.forward_s + elementwise + eager_forward + quantize_forward
    backward = core.backward_s + 2 * elementwise + eager_backward + gemms.backward_s + quantize_backward
    recomputed = recompute_s(software, recompute, gemms.forward_s, gemms.output_projection_s, core.forward_s,
                             elementwise + eager_forward + quantize_forward)
    share = _policy(recompute)
    gemm_s = (gemms.forward_s + gemms.backward_s + share.projections * gemms.forward_s
              + (1 + core.backward_flop_factor + share.attention) * core.flops / gemm_flop_per_s)
    tp = tensor_parallel_layer_s(model, cluster, software, recompute, tokens, t, sequence_parallel, gpus, gemm_s,
                                 gemms.column_weight_gradient_s)
    cp = context_parallel_layer_s(model, cluster, software, recompute, t, c, b, core.forward_s, core.backward_s)
    # The hidden share of what these collectives receive still passes through HBM beside the compute.
    hidden_received = (tp.received_bytes * hidden_share(tp.communication_s, tp.exposed_s)
                       + cp.received_bytes * hidden_share(cp.communication_s, cp.exposed_s))
    return LayerTerms(tokens=tokens, projections=projections, logit_flops=logit_flops,
                      compute_s=forward + backward + recomputed, forward_s=forward, backward_s=backward,
                      recompute_s=recomputed, gemm_s=gemm_s, passes=collective_passes(software, recompute),
                      tensor_parallel_all_reduces=tp.calls,
                      tensor_parallel_message_bytes=tp.message_bytes, tensor_parallel_s=tp.communication_s,
                      tensor_parallel_exposed_s=tp.exposed_s, context_parallel_s=cp.communication_s,
                      context_parallel_exposed_s=cp.exposed_s, hidden_received_bytes=hidden_received)


# ============================================================================
# The slowest pipeline stage, the bubble and the sends between stages
# ============================================================================

def layers_per_stage(model, p, v=1, uneven_pipeline=False):
    """Layers on the fullest pipeline stage: l/p, or ⌈l/(p v)⌉ v when the split is uneven [-].

    Parameters
    ----------
    model : TransformerModel
        The architecture (its layers l).
    p : float or array_like
        Pipeline stages [-].
    v : float or array_like
        Model chunks per stage [-].
    uneven_pipeline : bool
        Stages may hold one layer fewer (``ParallelConfig.uneven_pipeline``).
    """
    if uneven_pipeline:
        return np.ceil(model.layers / (np.asarray(p) * v)) * v
    return model.layers / np.asarray(p)


def edge_stage_layers(model, p, v=1, uneven_pipeline=False):
    """Layers on the first and the last pipeline stage, which also hold the embedding and the output layer [-].

    An even split gives them as many as every other stage. An uneven one leaves
    its short stages at the two ends, where the embedding and the output layer
    take a layer's place (Llama 3 takes one layer off its first and last stage,
    §3.3.2; BLOOM's partition counts the tied embeddings as layers): one layer
    fewer than the fullest stage.

    Parameters
    ----------
    model, p, v, uneven_pipeline :
        As for :func:`layers_per_stage`.
    """
    fullest = layers_per_stage(model, p, v, uneven_pipeline)
    short = uneven_pipeline & (fullest * np.asarray(p) > model.layers)
    return np.where(short, fullest - 1, fullest)


def stage_parameters(model, t, p, v=1, uneven_pipeline=False):
    """Parameters held by one GPU of the largest pipeline stage, tensor-parallel shards [-].

    The larger of the fullest stage's layers and an edge stage's layers with the
    embedding (and, tied, the output layer again on the last stage).

    Parameters
    ----------
    model : TransformerModel
        The architecture.
    t : float or array_like
        Tensor-parallel degree [-].
    p, v, uneven_pipeline :
        As for :func:`layers_per_stage`.
    """
    first, last = embedding_parameters(model)
    layers = layers_per_stage(model, p, v, uneven_pipeline)
    edge_layers = edge_stage_layers(model, p, v, uneven_pipeline)
    edge = np.where(p > 1, np.maximum(first, last + (model.vocabulary_size * model.hidden_size
                                                     if model.tied_embeddings else 0)), first + last)
    layer = layer_parameters(model)
    return np.maximum(layers * layer, edge_layers * layer + edge) / t


class StageShape(NamedTuple):
    """The pipeline stages of a split, from :func:`stage_shape`."""

    layers: float         # on the fullest stage [-]
    edge_layers: float    # on the first and the last stage [-]
    parameters: float     # on one GPU of the largest stage [-]


def stage_shape(model, split) -> StageShape:
    """Layers of the fullest and of the edge stages, and parameters on one GPU of the largest.

    :func:`layers_per_stage`, :func:`edge_stage_layers` and :func:`stage_parameters` of one split.

    Parameters
    ----------
    model : TransformerModel
        The architecture.
    split : Split
        The parallel split (t, p, v, ``uneven_pipeline``).
    """
    t, p, v, uneven = split.t, split.p, split.v, split.uneven_pipeline
    return StageShape(layers_per_stage(model, p, v, uneven), edge_stage_layers(model, p, v, uneven),
                      stage_parameters(model, t, p, v, uneven))


def logits_s(model, tokens, t, logit_flops, gemm_flop_per_s, hbm_bytes_per_s):
    """The output layer and its loss on the last stage, forward and backward, one microbatch [s].

    .. math:: t = 3 \\Big(\\frac{n\\, F_\\text{logit}}{t\\, R_\\text{GEMM}} + \\frac{8 n V}{t\\, B}\\Big)

    the logit GEMM and 8 bytes per FP32 logit, forward once and backward twice.

    Parameters
    ----------
    model : TransformerModel
        The architecture (its vocabulary V).
    tokens : float or array_like
        The microbatch's tokens on this GPU, n [tokens].
    t : float or array_like
        Tensor-parallel degree [-].
    logit_flops : float
        Forward FLOPs per token of the logit layer [FLOP].
    gemm_flop_per_s, hbm_bytes_per_s : float
        :func:`gemm_rate` [FLOP/s] and :func:`hbm_rate` [B/s].
    """
    return 3 * (tokens * logit_flops / t / gemm_flop_per_s
                + 8 * tokens * model.vocabulary_size / t / hbm_bytes_per_s)


def stored_weight_bytes(software) -> int:
    """Bytes per weight as the stack keeps and ZeRO gathers it: FP32 with ``Precision.fp32_weights`` [B].

    Parameters
    ----------
    software : Software
        The stack (``precision``).
    """
    return FP32_BYTES if software.precision.fp32_weights else software.precision.parameter_bytes


def gathered_weight_bytes(software) -> int:
    """Bytes per weight on the wire of ZeRO-3's gathers: 1 with ``Precision.fp8_all_gather``, else as stored [B].

    Parameters
    ----------
    software : Software
        The stack (``precision``).
    """
    return 1 if software.precision.fp8_all_gather else stored_weight_bytes(software)


def weight_cast_bytes(software, recompute) -> float:
    """HBM bytes per weight per microbatch that autocast's casts move when the weights are FP32 [B].

    Each forward pass (the recomputed one too) casts the weight to the compute
    precision (read 4, write ``parameter_bytes``); the backward pass casts the
    weight gradient back to FP32 (read ``parameter_bytes``, write 4) and, when
    gradients are reduced in fewer bytes, down again (read 4, write
    ``gradient_bytes``). Nothing without ``Precision.fp32_weights``.

    Parameters
    ----------
    software : Software
        The stack (``precision``).
    recompute : str
        A policy of ``training.RECOMPUTATION``.
    """
    if not software.precision.fp32_weights:
        return 0.0
    forward_passes = 1 + _policy(recompute).projections
    cast = FP32_BYTES + software.precision.parameter_bytes                  # one cast, either way
    gradient_bytes = software.precision.gradient_bytes
    reduce_cast = FP32_BYTES + gradient_bytes if gradient_bytes < FP32_BYTES else 0
    return float(cast * forward_passes + cast + reduce_cast)


def layer_contention_s(layer, cluster, software, efficiencies, hbm_bytes_per_s, t, c, gpus):
    """What a layer's hidden tensor- and context-parallel collectives take from its compute, per microbatch [s].

    Their received bytes through HBM (:func:`hidden_traffic_s`) and, where
    charged, the SMs their NCCL kernels hold (:func:`held_compute_s`); a
    tensor-parallel overlap pipelined into the GEMMs runs no NCCL kernels.

    Parameters
    ----------
    layer : LayerTerms
        The layer (:func:`layer_terms`).
    cluster, software, efficiencies :
        The hardware, the stack and the rates.
    hbm_bytes_per_s : float
        :func:`hbm_rate` [B/s].
    t, c : float or array_like
        Tensor- and context-parallel degrees [-].
    gpus : int or array_like
        GPUs of the run [-].
    """
    contention = hidden_traffic_s(layer.hidden_received_bytes, hbm_bytes_per_s)
    if efficiencies.nccl_bus_bytes_per_s_per_sm is None or cluster.gpu_spec.streaming_multiprocessors is None:
        return contention
    ti, ci, node = _ranks(t), _ranks(c), cluster.gpus_per_node
    tensor_hidden = 0.0 if software.overlap.tensor_parallel == "pipelined" else (
        layer.tensor_parallel_s - layer.tensor_parallel_exposed_s)
    return (contention
            + held_compute_s("all_reduce", tensor_hidden, ti, group_ranks_per_node(ti, node, gpus), cluster,
                             efficiencies)
            + held_compute_s("all_gather", layer.context_parallel_s - layer.context_parallel_exposed_s, ci,
                             np.maximum(node // ti, 1), cluster, efficiencies))


def stage_time_s(model, cluster, software, efficiencies, layer, split, shape, gemm_flop_per_s, hbm_bytes_per_s):
    """The slowest stage's compute and exposed tensor- and context-parallel time, per microbatch [s].

    The fullest stage, or the last one with its logits (:func:`logits_s`),
    whichever is slower; each layer costs its compute, what its hidden
    collectives take from it (:func:`layer_contention_s`) and autocast's casts
    of its weights (:func:`weight_cast_bytes`).

    Parameters
    ----------
    model, cluster, software, efficiencies :
        The architecture, the hardware, the stack and the rates.
    layer : LayerTerms
        The layer (:func:`layer_terms`).
    split : Split
        The parallel split.
    shape : StageShape
        Its stages (:func:`stage_shape`).
    gemm_flop_per_s, hbm_bytes_per_s : float
        :func:`gemm_rate` [FLOP/s] and :func:`hbm_rate` [B/s].

    Returns
    -------
    (float, float)
        Compute and exposed communication of the stage for one microbatch [s].
    """
    t, layers = split.t, shape.layers
    layer_params = shape.parameters / layers
    logit_s = logits_s(model, layer.tokens, t, layer.logit_flops, gemm_flop_per_s, hbm_bytes_per_s)
    contention = layer_contention_s(layer, cluster, software, efficiencies, hbm_bytes_per_s, t, split.c, split.gpus)
    casts = layer_params * weight_cast_bytes(software, split.recompute) / hbm_bytes_per_s
    per_layer_s = layer.compute_s + contention + casts
    compute = np.maximum(layers * per_layer_s, shape.edge_layers * per_layer_s + logit_s)
    return compute, layers * (layer.tensor_parallel_exposed_s + layer.context_parallel_exposed_s)


def pipeline_bubble_s(p, v, stage_compute_s, stage_communication_s):
    """Pipeline fill and drain, (p-1)/v stage times (SC21 §2.2) [s].

    Parameters
    ----------
    p, v : float or array_like
        Pipeline stages and model chunks per stage [-].
    stage_compute_s, stage_communication_s : float or array_like
        The slowest stage's compute and exposed communication per microbatch (:func:`stage_time_s`) [s].
    """
    return (p - 1) / v * (stage_compute_s + stage_communication_s)


def pipeline_send_s(model, cluster, software, split):
    """Exposed sends and receives of the b·s·h activations between pipeline stages, per step [s].

    Each transfer is a send/receive between two stages (in one node when a
    stage's t c d GPUs leave room), of 1/t of the boundary with SC21's
    scatter/gather or sequence parallelism, then re-gathered over the
    tensor-parallel group (unless sequence parallel). Blocking
    (``Overlap.pipeline`` "none"), each of a stage's 2 v m transfers waits;
    asynchronous, only the 2(p-1) of warm-up and cool-down.

    Parameters
    ----------
    model, cluster, software :
        The architecture, the hardware and the stack.
    split : Split
        The parallel split.
    """
    t, p, sp = split.t, split.p, split.sequence_parallel
    ti, ci, di, pi = (_ranks(x) for x in (t, split.c, split.d, p))
    node = cluster.gpus_per_node
    tokens = split.b * model.sequence_length / split.c
    pp_ranks_per_node = np.where(ti * ci * di < node, 2, 1)
    boundary = software.precision.parameter_bytes * tokens * model.hidden_size
    scatter = software.scatter_gather | sp
    sent = np.where(scatter, boundary / t, boundary)
    transfer = collective_s("send_recv", sent, np.where(pi > 1, 2, 1), pp_ranks_per_node, cluster)
    regather = np.where(scatter & ~sp, collective_s("all_gather", boundary, ti,
                                                    group_ranks_per_node(ti, node, split.gpus), cluster), 0.0)
    transfer = transfer + np.where(p > 1, regather, 0.0)
    transfers = 2 * (p - 1) if software.overlap.pipeline == "asynchronous" else 2 * split.v * split.microbatches
    return np.where(p > 1, transfers * transfer, 0.0)


# ============================================================================
# Data parallelism and ZeRO
# ============================================================================

class DataParallelGroup(NamedTuple):
    """Where a data-parallel group's ranks sit, from :func:`data_parallel_group` (ints or int arrays)."""

    ranks: np.ndarray              # d c: data- and context-parallel ranks together [-]
    ranks_per_node: np.ndarray     # of one group in one node [-]
    shard: np.ndarray              # GPUs ZeRO partitions over: d c, or the hybrid shard group [-]
    replicas: np.ndarray           # copies of the weights, d c / shard [-]
    shard_per_node: np.ndarray     # of one shard group in one node [-]
    network_slowdown: np.ndarray   # above oversubscribed pods [-]


def data_parallel_group(cluster, split) -> DataParallelGroup:
    """The data-parallel group of a split: its ranks, where they sit, ZeRO's shard group, the network it crosses.

    The context-parallel ranks of a replica hold the same weights and compute
    gradients on different tokens, so gradients are reduced, and ZeRO shards,
    over the d c ranks of data and context parallelism together
    (Megatron-Core's ``dp_cp_group``; torchtitan's FSDP mesh ``dp_shard_cp``;
    ``training.CONTEXT_PARALLEL_SOURCES["data parallel"]``). Groups are strided
    by t (Megatron-LM's rank order, context inside data), so a node holds
    ``node // t`` ranks of one (at least 1, at most d c); a group spans d t c
    GPUs, and where that is more than a pod its ring leaves each pod once,
    slowed by :math:`\\max(1, \\text{oversubscription} \\cdot \\text{pods} / (d c))`.

    Parameters
    ----------
    cluster : Cluster
        The hardware (nodes, pods, oversubscription).
    split : Split
        The parallel split (t, c, d, ``shard_group_size``).
    """
    t, c, d = split.t, split.c, split.d
    ti, ci, di = _ranks(t), _ranks(c), _ranks(d)
    ranks = di * ci
    ranks_per_node = np.clip(cluster.gpus_per_node // ti, 1, ranks)
    shard = ranks if split.shard_group_size is None else np.minimum(split.shard_group_size, ranks)
    pods = 1.0 if cluster.pod_gpus is None else np.ceil(d * t * c / cluster.pod_gpus)
    slowdown = np.where(pods > 1, np.maximum(1.0, cluster.oversubscription * pods / (d * c)), 1.0)
    return DataParallelGroup(ranks, ranks_per_node, shard, ranks // shard, np.minimum(ranks_per_node, shard),
                             slowdown)


def data_parallel_units(software, params, layers, d):
    """Collectives a stage's gradient reduction (ZeRO 0-2) takes: one per layer, per bucket, or one [-].

    ``Overlap.data_parallel`` "per layer" reduces layer by layer (FSDP's
    per-block units), "buckets" in buckets of
    ``max(bucket_parameters, bucket_parameters_per_rank · d)`` parameters
    (Megatron-Core), "none" its one contiguous gradient buffer after the
    backward pass.

    Parameters
    ----------
    software : Software
        The stack (``overlap``).
    params : float or array_like
        Parameters of the stage on one GPU [-].
    layers : float or array_like
        Layers of the stage [-].
    d : float or array_like
        Data-parallel degree [-].
    """
    layers = np.asarray(layers, dtype=float)
    if software.overlap.data_parallel == "none":
        return np.ones_like(layers)
    if software.overlap.data_parallel == "buckets":
        bucket = np.maximum(software.overlap.bucket_parameters,
                            software.overlap.bucket_parameters_per_rank * np.asarray(d, float))
        return np.ceil(params / bucket)
    return layers


def exposed_s(comm_s, window_s, count, overlapped):
    """What ``count`` collectives of ``comm_s`` each leave exposed behind as many windows of compute [s].

    .. math:: t_\\text{exposed} = c + (n - 1) \\max(c - w, 0) \\quad\\text{(overlapped)}, \\qquad n\\, c \\quad\\text{(not)}

    Each hides behind the compute of the unit before it (prefetching the next
    gather, reducing a bucket while the backward pass computes the next); the
    last one, and whatever outlasts its window, stays exposed.

    Parameters
    ----------
    comm_s : float or array_like
        One collective, c [s].
    window_s : float or array_like
        The compute one hides behind, w [s].
    count : float or array_like
        Collectives, n [-].
    overlapped : bool
        Whether the stack runs them under compute (``Overlap.data_parallel`` not "none").
    """
    if overlapped:
        return comm_s + (count - 1) * np.maximum(comm_s - window_s, 0.0)
    return count * comm_s


class DataParallelTerms(NamedTuple):
    """Data-parallel communication of one step on one GPU, from :func:`data_parallel_s` and its families."""

    communication_s: float   # every collective, one after the other [s]
    exposed_s: float         # what the GPU waits for [s]
    received_bytes: float    # what each GPU receives [B]
    held_s: float            # compute lost to the SMs hidden collectives hold [s]


def replicated_data_parallel_s(cluster, software, efficiencies, group, units, unit_params,
                               unit_backward_window_s) -> DataParallelTerms:
    """ZeRO stage 0: every unit's gradients all-reduced, under the backward pass where the stack overlaps.

    Parameters
    ----------
    cluster, software, efficiencies :
        The hardware, the stack and the rates.
    group : DataParallelGroup
        The group (:func:`data_parallel_group`).
    units : float or array_like
        Collectives per step (:func:`data_parallel_units`) [-].
    unit_params : float or array_like
        Parameters of one unit on one GPU [-].
    unit_backward_window_s : float or array_like
        Backward compute (recomputation included) behind which one unit hides, per step [s].
    """
    gradient_unit = unit_params * software.precision.gradient_bytes
    overlapped = software.overlap.data_parallel != "none"
    reduce = collective_s("all_reduce", gradient_unit, group.ranks, group.ranks_per_node, cluster,
                          group.network_slowdown)
    comm = units * reduce
    exposed = exposed_s(reduce, unit_backward_window_s, units, overlapped)
    received = units * received_bytes("all_reduce", gradient_unit, group.ranks)
    held = held_compute_s("all_reduce", comm - exposed, group.ranks, group.ranks_per_node, cluster, efficiencies,
                          group.network_slowdown)
    return DataParallelTerms(comm, exposed, received, held)


def sharded_state_data_parallel_s(cluster, software, efficiencies, group, units, unit_params,
                                  unit_forward_window_s, unit_backward_window_s) -> DataParallelTerms:
    """ZeRO stages 1-2: every unit's gradients reduce-scattered and its updated weights all-gathered.

    The reduce-scatters hide under the backward pass, the gathers under the
    forward pass, where the stack overlaps them (:func:`exposed_s`).

    Parameters
    ----------
    cluster, software, efficiencies, group, units, unit_params, unit_backward_window_s :
        As for :func:`replicated_data_parallel_s`.
    unit_forward_window_s : float or array_like
        Forward compute behind which one unit's gather hides, per step [s].
    """
    gradient_unit = unit_params * software.precision.gradient_bytes
    weight_unit = unit_params * stored_weight_bytes(software)
    overlapped = software.overlap.data_parallel != "none"
    where = (group.ranks, group.ranks_per_node, cluster, group.network_slowdown)
    reduce = collective_s("reduce_scatter", gradient_unit, *where)
    gather = collective_s("all_gather", weight_unit, *where)
    comm = units * (reduce + gather)
    exposed_reduce = exposed_s(reduce, unit_backward_window_s, units, overlapped)
    exposed_gather = exposed_s(gather, unit_forward_window_s, units, overlapped)
    exposed = exposed_reduce + exposed_gather
    held = (held_compute_s("reduce_scatter", units * reduce - exposed_reduce, group.ranks, group.ranks_per_node,
                           cluster, efficiencies, group.network_slowdown)
            + held_compute_s("all_gather", units * gather - exposed_gather, group.ranks, group.ranks_per_node,
                             cluster, efficiencies, group.network_slowdown))
    received = units * (received_bytes("reduce_scatter", gradient_unit, group.ranks)
                        + received_bytes("all_gather", weight_unit, group.ranks))
    return DataParallelTerms(comm, exposed, received, held)


def sharded_weight_data_parallel_s(cluster, software, efficiencies, group, layers, layer_params, microbatches,
                                   forward_window_s, backward_window_s, units_per_layer=1) -> DataParallelTerms:
    """ZeRO-3 / FSDP: each layer's weights gathered before its forward and backward pass, its gradients reduced.

    Every microbatch gathers each layer's weights before its forward and its
    backward pass (recomputation reuses the backward gather) and
    reduce-scatters its gradients, over the shard group; ZeRO++ sends the
    forward gather in INT8 (qwZ), keeps the backward gather inside a node
    (hpZ) and reduces in INT4 (qgZ); with ``Precision.fp8_all_gather`` both
    gathers carry 1 byte per weight (:func:`gathered_weight_bytes`). With a
    shard group smaller than the data-parallel group (hybrid sharding) the
    shards' gradients are then all-reduced across the replicas once per step.
    With ``units_per_layer`` u > 1 (``Overlap.data_parallel`` "per submodule")
    each layer is gathered and reduced in u equal pieces, each hiding behind
    1/u of the layer's compute: u times the collectives' latency, and a first
    gather of 1/u of a layer left exposed.

    Parameters
    ----------
    cluster, software, efficiencies, group :
        As for :func:`replicated_data_parallel_s`.
    layers : float or array_like
        Layers of the stage [-].
    layer_params : float or array_like
        Parameters of one layer on one GPU [-].
    microbatches : float or array_like
        Microbatches per step, m [-].
    forward_window_s, backward_window_s : float or array_like
        One layer's forward, and backward plus recomputed, compute for one microbatch [s].
    units_per_layer : int
        Gathers (and reduce-scatters) per layer and pass, u [-]: 1 for one per layer.
    """
    plus = software.zero_plus_plus
    overlapped = software.overlap.data_parallel != "none"
    shard, per_node, slow = group.shard, group.shard_per_node, group.network_slowdown
    across_per_node = np.maximum(group.ranks_per_node // shard, 1)
    layers, layer_params = layers * units_per_layer, layer_params / units_per_layer
    forward_window_s, backward_window_s = forward_window_s / units_per_layer, backward_window_s / units_per_layer
    weight_layer = layer_params * gathered_weight_bytes(software)
    gradient_layer = layer_params * software.precision.gradient_bytes
    forward_wire = layer_params * 1.0 if plus.quantized_weights else weight_layer   # qwZ: INT8
    forward_gather = collective_s("all_gather", forward_wire, shard, per_node, cluster, slow)
    backward_ranks = np.minimum(shard, per_node) if plus.hierarchical_partition else shard
    backward_gather = collective_s("all_gather", weight_layer, backward_ranks, per_node, cluster, slow)
    gradient_wire = layer_params * (0.5 if plus.quantized_gradients else software.precision.gradient_bytes)
    reduce = collective_s("reduce_scatter", gradient_wire, shard, per_node, cluster, slow)
    across = collective_s("all_reduce", gradient_layer / shard, group.replicas, across_per_node, cluster, slow)
    m = microbatches
    comm = layers * (m * (forward_gather + backward_gather + reduce) + across)
    received = layers * (m * (received_bytes("all_gather", forward_wire + weight_layer, shard)
                              + received_bytes("reduce_scatter", gradient_wire, shard))
                         + received_bytes("all_reduce", gradient_layer / shard, group.replicas))
    exposed_forward = m * exposed_s(forward_gather, forward_window_s, layers, overlapped)
    exposed_backward = m * exposed_s(backward_gather + reduce, backward_window_s, layers, overlapped)
    exposed_across = exposed_s(across, backward_window_s, layers, overlapped)
    held = (held_compute_s("all_gather", m * layers * (forward_gather + backward_gather + reduce)
                           - exposed_forward - exposed_backward, shard, per_node, cluster, efficiencies, slow)
            + held_compute_s("all_reduce", layers * across - exposed_across, group.replicas, across_per_node,
                             cluster, efficiencies, slow))
    return DataParallelTerms(comm, exposed_forward + exposed_backward + exposed_across, received, held)


def data_parallel_s(cluster, software, efficiencies, group, split, shape, layer,
                    matrices_per_layer=4) -> DataParallelTerms:
    """The step's data-parallel communication on one GPU, by ZeRO stage, and what overlap leaves exposed.

    ZeRO stage 0 reduces (:func:`replicated_data_parallel_s`), 1 and 2
    reduce-scatter and gather (:func:`sharded_state_data_parallel_s`), each in
    the units of :func:`data_parallel_units`, once per step behind the last
    microbatch's passes; ZeRO-3 gathers and reduces every layer for every
    microbatch (:func:`sharded_weight_data_parallel_s`).

    Parameters
    ----------
    cluster, software, efficiencies :
        The hardware, the stack and the rates.
    group : DataParallelGroup
        The group (:func:`data_parallel_group`).
    split : Split
        The parallel split.
    shape : StageShape
        Its stages (:func:`stage_shape`): layers and parameters.
    layer : LayerTerms
        One layer's compute for one microbatch (:func:`layer_terms`), the windows the collectives hide behind.
    matrices_per_layer : int
        Weight matrices of a layer (2 + ``TransformerModel.mlp_matrices``), the units ZeRO-3 gathers
        in with ``Overlap.data_parallel`` "per submodule" [-].
    """
    params, layers = shape.parameters, shape.layers
    forward_window, backward_window = layer.forward_s, layer.backward_s + layer.recompute_s
    if split.zero_stage >= 3:
        units = matrices_per_layer if software.overlap.data_parallel == "per submodule" else 1
        return sharded_weight_data_parallel_s(cluster, software, efficiencies, group, layers, params / layers,
                                              split.microbatches, forward_window, backward_window, units)
    units = data_parallel_units(software, params, layers, split.d)
    unit_params = params / units
    unit_backward_window = backward_window * layers / units
    if split.zero_stage == 0:
        return replicated_data_parallel_s(cluster, software, efficiencies, group, units, unit_params,
                                          unit_backward_window)
    return sharded_state_data_parallel_s(cluster, software, efficiencies, group, units, unit_params,
                                         forward_window * layers / units, unit_backward_window)


# ============================================================================
# The optimizer step, the FLOPs executed, memory
# ============================================================================

def optimizer_bytes_per_parameter(software, efficiencies) -> float:
    """HBM bytes per updated parameter of clipping the gradients and the Adam step [B].

    The global norm's read (``training.GRADIENT_NORM_BYTES``), and a
    scale on every step where the stack clips so
    (``training.GRADIENT_CLIP_BYTES``); then one fused kernel
    (``Efficiencies.optimizer_bytes_per_parameter`` with the gradient and the
    16-bit weight) or PyTorch's op-by-op AdamW
    (``training.EAGER_ADAMW_BYTES``).

    Parameters
    ----------
    software : Software
        The stack (``optimizer``, ``precision``).
    efficiencies : Efficiencies
        ``optimizer_bytes_per_parameter``.
    """
    clipping = GRADIENT_CLIP_BYTES if software.optimizer.clipping == "every step" else GRADIENT_NORM_BYTES
    return clipping + (
        efficiencies.optimizer_bytes_per_parameter + software.precision.gradient_bytes
        + software.precision.parameter_bytes if software.optimizer.update == "fused" else EAGER_ADAMW_BYTES)


def optimizer_s(software, efficiencies, params, zero_stage, shard, hbm_bytes_per_s):
    """The optimizer step on one GPU, memory-bound [s].

    ZeRO partitions the update over the shard group: all d GPUs, or, hybrid
    sharded, the group that holds one copy of the weights (each replica updates
    its own copy).

    Parameters
    ----------
    software, efficiencies :
        As for :func:`optimizer_bytes_per_parameter`.
    params : float or array_like
        Parameters of the stage on one GPU [-].
    zero_stage : int
        ZeRO stage.
    shard : int or array_like
        GPUs ZeRO partitions over (:class:`DataParallelGroup`) [-].
    hbm_bytes_per_s : float
        :func:`hbm_rate` [B/s].
    """
    updated = params / np.where(zero_stage >= 1, shard, 1)
    return updated * optimizer_bytes_per_parameter(software, efficiencies) / hbm_bytes_per_s


def executed_flops(model, software, recompute, tokens):
    """FLOPs a step executes on ``tokens`` tokens, recomputation included (HFU's numerator) [FLOP].

    Every matmul of the forward pass three times (forward and backward), the
    recomputed share of the projections and of the attention scores once more
    (less each block's MLP output projection where the checkpoint stops early),
    and the logits three times.

    Parameters
    ----------
    model : TransformerModel
        The architecture.
    software : Software
        The stack (``checkpoint``).
    recompute : str
        A policy of ``training.RECOMPUTATION``.
    tokens : float
        Tokens per step, B·s [tokens].
    """
    h, w = model.hidden_size, model.attended_tokens
    projections, _, logit_flops = forward_flops_per_token(model, w)
    share = _policy(recompute)
    recomputed_projections = projections - (2 * model.ffn_hidden_size * h if stops_early(software, recompute) else 0)
    return tokens * (model.layers * (3 * (projections + 4 * w * h)
                                     + share.projections * recomputed_projections
                                     + share.attention * 4 * w * h)
                     + 3 * logit_flops)


def activation_bytes_per_layer(model, software, recompute, t, c, b, sequence_parallel):
    """Stored activations of one layer for one microbatch on one GPU (Korthikanti et al. §4) [B].

    "every other layer" stores half the layers as "full" and half as "none";
    "every other matmul" stores each layer's input, the attention kernel's
    output and half the matmul outputs (without fused attention, what "none" stores).

    Parameters
    ----------
    model : TransformerModel
        The architecture.
    software : Software
        The stack (``kernels.attention``).
    recompute : str
        A policy of ``training.RECOMPUTATION``.
    t, c : float or array_like
        Tensor- and context-parallel degrees [-].
    b : float or array_like
        Sequences per microbatch [sequences].
    sequence_parallel : bool or array_like
        Sequence parallelism.
    """
    _policy(recompute)
    sp = sequence_parallel
    h, f, kv, a = model.hidden_size, model.ffn_hidden_size, model.kv_size, model.heads
    tokens = b * model.sequence_length / c
    replicated = np.where(sp, t, 1.0)                      # sequence parallelism shards these over t
    mask = 1.0 if model.dropout else 0.0
    if recompute == "full":
        return 2 * tokens * h / replicated                 # only each layer's input
    if recompute == "every other layer":
        return 0.5 * sum(activation_bytes_per_layer(model, software, policy, t, c, b, sp)
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


def memory_breakdown(model, cluster, software, efficiencies, split, shape, shard) -> MemoryBreakdown:
    """Weights, gradients, optimizer state and activations per GPU on the most loaded stage [B].

    Weights take ``parameter_bytes`` per parameter of the stage (/shard under
    ZeRO-3), gradients ``gradient_bytes`` (/shard from ZeRO-2), optimizer state
    ``optimizer_state_bytes_per_parameter`` (/shard from ZeRO-1); activations
    :func:`activation_bytes_per_layer` for each layer of the stage and each
    microbatch in flight (1F1B: p on the first stage, times
    :math:`1 + (p-1)/(pv)` interleaved), and the FP32 logits without pipelining.

    Parameters
    ----------
    model, cluster, software, efficiencies :
        The architecture, the hardware (its HBM), the stack and the rates.
    split : Split
        The parallel split.
    shape : StageShape
        Its stages (:func:`stage_shape`).
    shard : int or array_like
        GPUs ZeRO partitions over (:class:`DataParallelGroup`) [-].
    """
    t, p, c, b, v, m = split.t, split.p, split.c, split.b, split.v, split.microbatches
    zero_stage = split.zero_stage
    params = shape.parameters
    weights = params * software.precision.parameter_bytes / np.where(zero_stage >= 3, shard, 1)
    gradients = params * software.precision.gradient_bytes / np.where(zero_stage >= 2, shard, 1)
    optimizer = params * efficiencies.optimizer_state_bytes_per_parameter / np.where(zero_stage >= 1, shard, 1)
    per_layer = activation_bytes_per_layer(model, software, split.recompute, t, c, b, split.sequence_parallel)
    in_flight = np.minimum(m, p)                           # 1F1B: the first stage holds p microbatches
    interleave_factor = np.where(v > 1, 1 + (p - 1) / (p * v), 1.0)
    activations = per_layer * shape.layers * in_flight * interleave_factor
    tokens = b * model.sequence_length / c
    logits = np.where(p > 1, 0.0, 4 * tokens * model.vocabulary_size / t)   # FP32 logits on the last stage
    activations = activations + logits
    return MemoryBreakdown(weights_bytes=as_output(weights), gradients_bytes=as_output(gradients),
                           optimizer_bytes=as_output(optimizer), activations_bytes=as_output(activations),
                           capacity_bytes=cluster.gpu_spec.hbm_bytes)
