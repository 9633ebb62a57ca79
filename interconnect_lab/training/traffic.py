"""What each kind of parallelism sends, over which link, how often."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .. import collectives
from .._deprecation import renamed_parameters
from .._lookup import resolve
from .models import TransformerModel
from .hardware import Cluster, Efficiencies
from .stack import Software
from .presets import (
    CLUSTERS, DEFAULT_EFFICIENCIES, MODELS, SOFTWARE,
)
from .config import ParallelConfig
from .step import (_collective_s, _data_parallel_units, _group_ranks_per_node, _layers_per_stage,
                   _stage_parameters)


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
        (``"all_reduce"``, ``"all_gather"``, ``"reduce_scatter"``, ``"send_recv"``).
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
    model = resolve("model", model, TransformerModel, MODELS)
    cluster = resolve("cluster", cluster, Cluster, CLUSTERS)
    software = resolve("software", software, Software, SOFTWARE)
    if not isinstance(config, ParallelConfig):
        raise TypeError(f"config must be a ParallelConfig (see parallel_config), got {type(config).__name__}")
    if not isinstance(efficiencies, Efficiencies):
        raise TypeError(f"efficiencies must be an Efficiencies, got {type(efficiencies).__name__}")
    config.check(model)
    t, p, d, c = config.tensor_parallel, config.pipeline_parallel, config.data_parallel, config.context_parallel
    b, v, m = config.microbatch_size, config.interleave, config.microbatches
    sp = config.sequence_parallel
    node, gpus = cluster.gpus_per_node, config.gpus
    h, kv = model.hidden_size, model.kv_size
    tokens = b * model.sequence_length / c
    layers = int(_layers_per_stage(model, p, v, config.uneven_pipeline))
    passes = 2 + (1 if config.recompute == "full" else 0)
    rows = []

    def add(kind, purpose, collective, group, ranks_per_node, calls, message_bytes):
        group_ranks_per_node = int(min(ranks_per_node, group))
        link, crosses = _link_used(cluster, group, group_ranks_per_node)
        traffic = collectives.ALGORITHMS["direct" if collective == "send_recv" else "ring"].cost(
            collective, 2 if collective == "send_recv" else group)[1]
        one = float(_collective_s(collective, message_bytes, 2 if collective == "send_recv" else group,
                                  group_ranks_per_node, cluster))
        rows.append(ParallelTraffic(kind=kind, purpose=purpose, collective=collective, group=int(group),
                                    calls=int(calls), message_bytes=float(message_bytes),
                                    sent_bytes=float(calls * traffic * message_bytes), link=link,
                                    crosses_network=crosses, time_s=float(calls * one)))

    if t > 1:
        blocks = 1 if software.kernels.parallel_block else 2
        add("tensor", "activations after attention and MLP, every layer and pass", "all_reduce", t,
            int(_group_ranks_per_node(t, node, gpus)), m * layers * passes * blocks,
            software.precision.parameter_bytes * tokens * h)
    if c > 1:
        add("context", "keys and values of the whole sequence, every layer and pass", "all_gather", c,
            max(node // t, 1), m * layers * passes, software.precision.parameter_bytes * 2 * b * model.sequence_length * kv / t)
    if p > 1:
        boundary = software.precision.parameter_bytes * tokens * h
        scatter = software.scatter_gather or sp
        pp_ranks_per_node = 2 if t * c * d < node else 1
        add("pipeline", "activations forward and their gradients back at a stage boundary", "send_recv", 2,
            pp_ranks_per_node, 2 * v * m, boundary / t if scatter else boundary)
        if scatter and not sp and t > 1:
            add("pipeline", "re-assembling the scattered boundary inside the tensor-parallel group", "all_gather",
                t, int(_group_ranks_per_node(t, node, gpus)), 2 * v * m, boundary)
    if d > 1:
        # ZeRO 0-2: per layer, per bucket or one buffer, as the step charges it.
        params = float(_stage_parameters(model, t, p, v, config.uneven_pipeline))
        ranks_per_node = int(np.clip(node // (t * c), 1, d))
        gradient_size = params * software.precision.gradient_bytes / layers
        weight_size = params * software.precision.parameter_bytes / layers
        units = int(_data_parallel_units(software, params, layers, d))
        unit = {1: "the stage's gradient buffer", layers: "each layer"}.get(units, f"each of {units} buckets")
        if config.zero_stage == 0:
            add("data", f"gradients of {unit}, once per iteration", "all_reduce", d, ranks_per_node, units,
                params * software.precision.gradient_bytes / units)
        elif config.zero_stage in (1, 2):
            add("data", f"gradients of {unit}, once per iteration (each rank keeps its shard)",
                "reduce_scatter", d, ranks_per_node, units, params * software.precision.gradient_bytes / units)
            add("data", f"updated weights of {unit}, once per iteration", "all_gather", d, ranks_per_node,
                units, params * software.precision.parameter_bytes / units)
        else:
            shard = d if config.shard_group_size is None else config.shard_group_size
            shard_per_node = min(ranks_per_node, shard)
            forward = weight_size * (0.5 if software.zero_plus_plus.quantized_weights else 1.0)
            add("data", "weights of each layer before its forward pass, every microbatch", "all_gather", shard,
                shard_per_node, m * layers, forward)
            backward_ranks = min(shard, shard_per_node) if software.zero_plus_plus.hierarchical_partition else shard
            if backward_ranks > 1:
                add("data", "weights of each layer before its backward pass, every microbatch", "all_gather",
                    backward_ranks, shard_per_node, m * layers, weight_size)
            gradient_wire = params / layers * (0.5 if software.zero_plus_plus.quantized_gradients else software.precision.gradient_bytes)
            add("data", "gradients of each layer after its backward pass, every microbatch", "reduce_scatter",
                shard, shard_per_node, m * layers, gradient_wire)
            if d > shard:
                add("data", "gradient shards across the replicas of hybrid sharding, once per iteration",
                    "all_reduce", d // shard, max(ranks_per_node // shard, 1), layers, gradient_size / shard)
    return tuple(rows)
