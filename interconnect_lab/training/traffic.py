"""What each kind of parallelism sends, over which link, how often."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .. import collectives
from .._deprecation import renamed_parameters
from . import terms
from .models import RECOMPUTATION
from .presets import DEFAULT_EFFICIENCIES, resolve_run


# ============================================================================
# What each kind of parallelism sends, over which link, how often
# ============================================================================

@dataclass(frozen=True)
class ParallelTraffic:
    """One collective of a parallel run: per GPU, per iteration.

    From :func:`parallel_traffic`.

    Attributes
    ----------
    kind : str
        ``"tensor"``, ``"context"``, ``"pipeline"`` or ``"data"``.
    purpose : str
        What the collective carries, in words.
    collective : str
        The collective as :mod:`interconnect_lab.collectives` names it
        (``"all_reduce"``, ``"all_gather"``, ``"reduce_scatter"``, ``"all_to_all"``, ``"send_recv"``).
    group : int
        Ranks in the group.
    calls : int
        How many times each GPU takes part per iteration.
    message_bytes : float
        Size of each, as nccl-tests counts it (the whole array) [B].
    sent_bytes : float
        Bytes one GPU sends for all the calls, by the ring's traffic
        (:math:`2\\frac{n-1}{n}S` for all-reduce, :math:`\\frac{n-1}{n}S` for
        all-gather and reduce-scatter, S for a send) [B].
    link : str
        Catalog link the group uses: the scale-up link when the group lies in
        one node, the scale-out link when every rank is in a different node,
        both (``"NVLink 3 + InfiniBand HDR"``) for a two-level collective.
    crosses_network : bool
        True when the group spans more than one node.
    time_s : float
        All the calls one after another, none hidden behind compute [s];
        :class:`TrainingStep` counts only the exposed part.
    """

    kind: str
    purpose: str
    collective: str
    group: int
    calls: int
    message_bytes: float
    sent_bytes: float
    link: str
    crosses_network: bool
    time_s: float


def _link_used(cluster, ranks, ranks_per_node):
    if ranks_per_node >= ranks:
        return cluster.scale_up_link, False
    if ranks_per_node == 1 or ranks % ranks_per_node:
        return cluster.scale_out_link, True
    return f"{cluster.scale_up_link} + {cluster.scale_out_link}", True


@renamed_parameters(cluster_="cluster", software_="software")
def parallel_traffic(model, cluster, config, software="Megatron-LM SC21", *,
                     efficiencies=DEFAULT_EFFICIENCIES) -> tuple[ParallelTraffic, ...]:
    """What each kind of parallelism puts on which link, how often and in how many bytes.

    The same collectives :func:`training_step` charges, listed one by one for
    one GPU of the most loaded pipeline stage and one iteration:

    - tensor parallelism: an all-reduce of the microbatch's b·s·h activations
      after attention and after the MLP (one with a parallel block), in every
      pass (forward, backward, recomputed forward), for every layer of the
      stage and every microbatch (SC21 §3.2). With sequence parallelism each
      becomes a reduce-scatter and an all-gather of the same volume
      (Korthikanti et al. 2022);
    - context parallelism: an all-gather of the keys and values of the whole
      sequence, per layer and pass;
    - pipeline parallelism: the b·s·h activations at a stage boundary sent
      forward and their gradients sent back, per microbatch and model chunk
      (1/t of them each with the scatter/gather optimisation, then an
      all-gather inside the tensor-parallel group);
    - data parallelism: the gradients (all-reduce; with ZeRO-1/2 a
      reduce-scatter and an all-gather of the updated weights), once per
      iteration; ZeRO-3 gathers the weights for every forward and backward
      pass of every microbatch.

    Parameters
    ----------
    model, cluster, config, software, efficiencies :
        As for :func:`training_step`.

    Returns
    -------
    tuple of ParallelTraffic
        One entry per collective the split uses (none for a degree of 1).

    References
    ----------
    Narayanan et al., SC21, §3.2; Korthikanti et al., MLSys 2023, §4;
    Rajbhandari et al., SC20, §7.

    Examples
    --------
    GPT-3 175B on 1,024 A100 of Selene, t = 8, p = 8, d = 16:

    >>> from interconnect_lab.training import parallel_config
    >>> from interconnect_lab import units as u
    >>> config = parallel_config(1024, global_batch_size=1536, tensor_parallel=8, pipeline_parallel=8)
    >>> for row in parallel_traffic("GPT-3 175B", "Selene", config):
    ...     print(f"{row.kind:8} {row.collective:14} {row.calls:6d} x {row.message_bytes / u.MB:7.1f} MB  {row.link}")
    tensor   all_reduce       6912 x    50.3 MB  NVLink 3
    pipeline send_recv         192 x     6.3 MB  InfiniBand HDR
    pipeline all_gather        192 x    50.3 MB  NVLink 3
    data     all_reduce          1 x  5597.0 MB  InfiniBand HDR
    """
    model, cluster, software = resolve_run(model, cluster, config, software, efficiencies)
    layers = int(terms.layers_per_stage(model, config.pipeline_parallel, config.interleave, config.uneven_pipeline))
    return (_model_parallel_rows(model, cluster, software, config, layers)
            + _pipeline_rows(model, cluster, software, config)
            + _data_parallel_rows(model, cluster, software, config, layers))


def _row(cluster, kind, purpose, collective, group, ranks_per_node, calls, message_bytes):
    """One :class:`ParallelTraffic`, priced as the step prices it (:func:`terms.collective_s`)."""
    group_ranks_per_node = int(min(ranks_per_node, group))
    link, crosses = _link_used(cluster, group, group_ranks_per_node)
    ranks = 2 if collective == "send_recv" else group
    traffic = collectives.ALGORITHMS["direct" if collective == "send_recv" else "ring"].cost(collective, ranks)[1]
    one = float(terms.collective_s(collective, message_bytes, ranks, group_ranks_per_node, cluster))
    return ParallelTraffic(kind=kind, purpose=purpose, collective=collective, group=int(group), calls=int(calls),
                           message_bytes=float(message_bytes), sent_bytes=float(calls * traffic * message_bytes),
                           link=link, crosses_network=crosses, time_s=float(calls * one))


def _model_parallel_rows(model, cluster, software, config, layers):
    """Tensor parallelism's all-reduces and context parallelism's exchange, every layer and pass."""
    t, c, m = config.tensor_parallel, config.context_parallel, config.microbatches
    node, gpus = cluster.gpus_per_node, config.gpus
    tokens = config.microbatch_size * model.sequence_length / c
    passes = 2 + (1 if config.recompute == "full" else 0)
    rows = []
    if t > 1:
        blocks = 1 if software.kernels.parallel_block else 2
        rows.append(_row(cluster, "tensor", "activations after attention and MLP, every layer and pass", "all_reduce",
                         t, int(terms.group_ranks_per_node(t, node, gpus)), m * layers * passes * blocks,
                         software.precision.parameter_bytes * tokens * model.hidden_size))
    if c > 1:
        rows.extend(_context_rows(model, cluster, software, config, layers, tokens))
    return tuple(rows)


def _context_rows(model, cluster, software, config, layers, tokens):
    """Context parallelism's exchange as ``Overlap.context_parallel`` runs it (:func:`terms.context_parallel_layer_s`)."""
    t, c, calls = config.tensor_parallel, config.context_parallel, config.microbatches * layers
    method, size = software.overlap.context_parallel, software.precision.parameter_bytes
    forward = 1 + RECOMPUTATION[config.recompute].attention                   # forward passes, recomputed ones too
    per_node = max(cluster.gpus_per_node // t, 1)
    hop_per_node = 2 if c <= per_node else 1
    if method == "a2a":
        if c * t > model.kv_heads:
            raise ValueError(f"context_parallel = {c} with tensor_parallel = {t} is more than Ulysses "
                             f"(Overlap.context_parallel 'a2a') can split: context_parallel x tensor_parallel must "
                             f"be at most kv_heads = {model.kv_heads}")
        return (_row(cluster, "context", "Q, K, V to their heads' ranks (dQ, dK, dV back), every layer and pass",
                     "all_to_all", c, per_node, calls * (forward + 1),
                     size * tokens * (model.hidden_size + 2 * model.kv_size) / t),
                _row(cluster, "context", "attention output back to its tokens' ranks (its gradient out)", "all_to_all",
                     c, per_node, calls * (forward + 1), size * tokens * model.hidden_size / t))
    width = model.hidden_size if method.startswith("ring") else model.kv_size
    chunk = size * 2 * tokens * width / t
    gradient = terms.FP32_BYTES / size * chunk
    if method == "all_gather":
        return (_row(cluster, "context", "keys and values of the whole sequence, every layer and pass", "all_gather",
                     c, per_node, calls * (forward + 1), c * chunk),
                _row(cluster, "context", "their gradients back to their ranks, every layer", "reduce_scatter", c,
                     per_node, calls, c * chunk))
    if method == "p2p":
        return (_row(cluster, "context", "keys and values to the next rank of the ring, each step", "send_recv", 2,
                     hop_per_node, calls * (forward * (c - 1) + 1), chunk),
                _row(cluster, "context", "keys, values and their gradients round the ring, each backward step",
                     "send_recv", 2, hop_per_node, calls * (c - 1), 2 * chunk))
    gathered = method == "ring, all-gather rotate"
    return (_row(cluster, "context", "keys and values of every query head, every layer and pass"
                 if gathered else "keys and values of every query head to the next rank, each step",
                 "all_gather" if gathered else "send_recv", c if gathered else 2,
                 per_node if gathered else hop_per_node, calls * (forward + 1) * (1 if gathered else c - 1),
                 c * chunk if gathered else chunk),
            _row(cluster, "context", "FP32 gradients of keys and values to the next rank, each backward step",
                 "send_recv", 2, hop_per_node, calls * c, gradient))


def _pipeline_rows(model, cluster, software, config):
    """The boundary's activations and gradients between stages, and their re-gather with scatter/gather."""
    t, p, d, c = config.tensor_parallel, config.pipeline_parallel, config.data_parallel, config.context_parallel
    if p == 1:
        return ()
    v, m, sp, node = config.interleave, config.microbatches, config.sequence_parallel, cluster.gpus_per_node
    tokens = config.microbatch_size * model.sequence_length / c
    boundary = software.precision.parameter_bytes * tokens * model.hidden_size
    scatter = software.scatter_gather or sp
    rows = [_row(cluster, "pipeline", "activations forward and their gradients back at a stage boundary", "send_recv",
                 2, 2 if t * c * d < node else 1, 2 * v * m, boundary / t if scatter else boundary)]
    if scatter and not sp and t > 1:
        rows.append(_row(cluster, "pipeline", "re-assembling the scattered boundary inside the tensor-parallel group",
                         "all_gather", t, int(terms.group_ranks_per_node(t, node, config.gpus)), 2 * v * m, boundary))
    return tuple(rows)


def _data_parallel_rows(model, cluster, software, config, layers):
    """ZeRO 0-2: per layer, per bucket or one buffer, as the step charges it; ZeRO-3: every layer and microbatch."""
    t, p, c = config.tensor_parallel, config.pipeline_parallel, config.context_parallel
    d = config.data_parallel * c                   # context-parallel ranks reduce their gradients too
    if d == 1:
        return ()
    params = float(terms.stage_parameters(model, t, p, config.interleave, config.uneven_pipeline))
    ranks_per_node = int(np.clip(cluster.gpus_per_node // t, 1, d))
    gradient_bytes, parameter_bytes = software.precision.gradient_bytes, software.precision.parameter_bytes
    if config.zero_stage == 3:
        return _sharded_weight_rows(cluster, software, config, layers, params, ranks_per_node)
    units = int(terms.data_parallel_units(software, params, layers, d))
    unit = {1: "the stage's gradient buffer", layers: "each layer"}.get(units, f"each of {units} buckets")
    if config.zero_stage == 0:
        return (_row(cluster, "data", f"gradients of {unit}, once per iteration", "all_reduce", d, ranks_per_node,
                     units, params * gradient_bytes / units),)
    return (_row(cluster, "data", f"gradients of {unit}, once per iteration (each rank keeps its shard)",
                 "reduce_scatter", d, ranks_per_node, units, params * gradient_bytes / units),
            _row(cluster, "data", f"updated weights of {unit}, once per iteration", "all_gather", d, ranks_per_node,
                 units, params * parameter_bytes / units))


def _sharded_weight_rows(cluster, software, config, layers, params, ranks_per_node):
    """ZeRO-3's gathers and reduce-scatters, every layer and microbatch, and hybrid sharding's all-reduce."""
    d, m = config.data_parallel * config.context_parallel, config.microbatches
    shard = d if config.shard_group_size is None else min(config.shard_group_size, d)
    shard_per_node = min(ranks_per_node, shard)
    weight_size = params * (1 if software.precision.fp8_all_gather else software.precision.parameter_bytes) / layers
    plus = software.zero_plus_plus
    rows = [_row(cluster, "data", "weights of each layer before its forward pass, every microbatch", "all_gather",
                 shard, shard_per_node, m * layers, weight_size * (0.5 if plus.quantized_weights else 1.0))]
    backward_ranks = min(shard, shard_per_node) if plus.hierarchical_partition else shard
    if backward_ranks > 1:
        rows.append(_row(cluster, "data", "weights of each layer before its backward pass, every microbatch",
                         "all_gather", backward_ranks, shard_per_node, m * layers, weight_size))
    gradient_wire = params / layers * (0.5 if plus.quantized_gradients else software.precision.gradient_bytes)
    rows.append(_row(cluster, "data", "gradients of each layer after its backward pass, every microbatch",
                     "reduce_scatter", shard, shard_per_node, m * layers, gradient_wire))
    if d > shard:
        rows.append(_row(cluster, "data", "gradient shards across the replicas of hybrid sharding, once per iteration",
                         "all_reduce", d // shard, max(ranks_per_node // shard, 1), layers,
                         params * software.precision.gradient_bytes / layers / shard))
    return tuple(rows)
