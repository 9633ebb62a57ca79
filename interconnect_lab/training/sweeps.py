"""Sweeps: every split of N GPUs, scale-out networks side by side, and MegaScale's ablation replayed."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .._deprecation import renamed_parameters
from .._lookup import resolve
from .._validation import NotPossible, check_choice, check_integer
from .models import RECOMPUTATION, TransformerModel
from .hardware import Cluster
from .stack import Software
from .presets import (
    CLUSTERS, DEFAULT_EFFICIENCIES, EFFICIENT_OPERATORS, MEGASCALE_MICROBATCH_SIZE, MODELS, SOFTWARE,
    scale_out_variants, transformer_model,
)
from .config import parallel_config
from .step import TrainingStep, evaluate, training_step
from .terms import Split


@dataclass(frozen=True)
class NetworkScan:
    """One run at every per-GPU network bandwidth of :func:`scale_out_variants`.

    Attributes
    ----------
    bandwidth_bytes_per_s : numpy.ndarray
        Each GPU's share of the scale-out network, one direction [B/s].
    clusters : tuple of Cluster
        The clusters, one per bandwidth.
    steps : tuple of TrainingStep
        The run on each.
    """

    bandwidth_bytes_per_s: np.ndarray
    clusters: tuple
    steps: tuple

    @property
    def mfu(self) -> np.ndarray:
        """MFU at each bandwidth [-]."""
        return np.array([step.mfu for step in self.steps])

    @property
    def step_s(self) -> np.ndarray:
        """Step time at each bandwidth [s]."""
        return np.array([step.step_s for step in self.steps])

    @property
    def data_parallel_s(self) -> np.ndarray:
        """Exposed data-parallel communication at each bandwidth [s]."""
        return np.array([step.data_parallel_s for step in self.steps])


@renamed_parameters(cluster_="cluster", software_="software")
def network_scan(model, cluster, config, software="Megatron-LM SC21", *, family="Ethernet",
                 efficiencies=DEFAULT_EFFICIENCIES) -> NetworkScan:
    """:func:`training_step` of one split on every network of :func:`scale_out_variants`.

    Parameters
    ----------
    model, cluster, config, software, efficiencies :
        As for :func:`training_step`.
    family : str
        As for :func:`scale_out_variants`.

    Returns
    -------
    NetworkScan

    Examples
    --------
    ZeRO-3 on 384 A100: the slower the network, the more ZeRO++ helps.

    >>> config = parallel_config(384, global_batch_size=384, recompute="full", zero_stage=3)
    >>> plain = network_scan("GPT-3 175B", "MegaScale", config, "DeepSpeed ZeRO-3")
    >>> plus = network_scan("GPT-3 175B", "MegaScale", config, "DeepSpeed ZeRO++")
    >>> bool(plus.mfu[0] / plain.mfu[0] > plus.mfu[-1] / plain.mfu[-1])
    True
    """
    model = resolve("model", model, TransformerModel, MODELS)
    variants = scale_out_variants(cluster, family=family)
    steps = tuple(training_step(model, variant, config, software, efficiencies=efficiencies) for variant in variants)
    return NetworkScan(bandwidth_bytes_per_s=np.array([v.scale_out_bytes_per_s for v in variants]),
                       clusters=variants, steps=steps)


# ============================================================================
# Sweeping every split of N GPUs
# ============================================================================

def _divisors(n):
    small = [k for k in range(1, int(math.isqrt(n)) + 1) if n % k == 0]
    return sorted(set(small + [n // k for k in small]))


@dataclass(frozen=True)
class TrainingSweep:
    """Every valid (TP, PP, DP, microbatch) split of N GPUs, evaluated at once.

    Attributes
    ----------
    tensor_parallel, pipeline_parallel, data_parallel, microbatch_size : numpy.ndarray
        The splits, one element per configuration.
    step : TrainingStep
        The results; its attributes are arrays aligned with the splits.
    """

    tensor_parallel: np.ndarray
    pipeline_parallel: np.ndarray
    data_parallel: np.ndarray
    microbatch_size: np.ndarray
    step: TrainingStep

    def __len__(self):
        return int(self.tensor_parallel.size)

    @property
    def fits(self) -> np.ndarray:
        """Which configurations fit in HBM."""
        return np.atleast_1d(self.step.memory.fits)

    def best(self, *, require_fit=True) -> int:
        """Index of the highest-throughput configuration (among those that fit, by default)."""
        throughput = np.atleast_1d(self.step.tokens_per_s).astype(float)
        if require_fit:
            if not np.any(self.fits):
                raise ValueError("no configuration of this sweep fits in GPU memory: "
                                 "try recompute='full', sequence_parallel=True or a ZeRO stage")
            throughput = np.where(self.fits, throughput, -np.inf)
        return int(np.argmax(throughput))

    def row(self, index) -> dict:
        """One configuration and its headline numbers as a dict."""
        pick = lambda x: float(np.atleast_1d(x)[index])     # noqa: E731
        return {
            "tensor_parallel": int(self.tensor_parallel[index]),
            "pipeline_parallel": int(self.pipeline_parallel[index]),
            "data_parallel": int(self.data_parallel[index]),
            "microbatch_size": int(self.microbatch_size[index]),
            "step_s": pick(self.step.step_s), "mfu": pick(self.step.mfu),
            "tokens_per_s": pick(self.step.tokens_per_s),
            "memory_bytes": pick(self.step.memory.total_bytes), "fits": bool(self.fits[index]),
        }


@renamed_parameters(cluster_="cluster", software_="software")
def parallel_sweep(model, cluster, gpus, global_batch_size, software="Megatron-LM SC21", *,
                   recompute="full", sequence_parallel=False, zero_stage=0, interleave=1,
                   max_tensor_parallel=None, microbatch_sizes=None,
                   efficiencies=DEFAULT_EFFICIENCIES) -> TrainingSweep:
    """Evaluate every valid (TP, PP, DP, microbatch) split of ``gpus`` GPUs, vectorised.

    A split is valid when t·p·d = N, t divides the heads and the MLP width, p·v
    divides the layers, d·b divides the global batch and, when interleaved,
    p divides the microbatch count. Context parallelism is 1.

    Parameters
    ----------
    model, cluster, software :
        As for :func:`training_step`.
    gpus : int
        N.
    global_batch_size : int
        B [sequences].
    recompute, sequence_parallel, zero_stage, interleave :
        Held fixed over the sweep (see :class:`ParallelConfig`).
    max_tensor_parallel : int, optional
        Largest t to try; by default the node size.
    microbatch_sizes : sequence of int, optional
        Microbatch sizes to try; by default every divisor of B/d.
    efficiencies : Efficiencies
        As for :func:`training_step`.

    Returns
    -------
    TrainingSweep

    Examples
    --------
    >>> sweep = parallel_sweep("GPT-3 175B", "Selene", 1024, 1536, recompute="full")
    >>> row = sweep.row(sweep.best())
    >>> row["tensor_parallel"] * row["pipeline_parallel"] * row["data_parallel"]
    1024
    """
    model = resolve("model", model, TransformerModel, MODELS)
    cluster = resolve("cluster", cluster, Cluster, CLUSTERS)
    software = resolve("software", software, Software, SOFTWARE)
    gpus = check_integer("gpus", gpus, minimum=1)
    batch = check_integer("global_batch_size", global_batch_size, minimum=1, unit="sequences")
    check_choice("recompute", recompute, RECOMPUTATION)
    zero_stage = check_integer("zero_stage", zero_stage, minimum=0, maximum=3)
    interleave = check_integer("interleave", interleave, minimum=1)
    limit = cluster.gpus_per_node if max_tensor_parallel is None else check_integer(
        "max_tensor_parallel", max_tensor_parallel, minimum=1)
    rows = []
    for t in _divisors(gpus):
        if t > limit or model.heads % t or model.ffn_hidden_size % t or (model.kv_heads % t and t % model.kv_heads):
            continue
        for p in _divisors(gpus // t):
            if model.layers % (p * interleave) or (interleave > 1 and p == 1):
                continue
            d = gpus // (t * p)
            if batch % d:
                continue
            per_replica = batch // d
            sizes = _divisors(per_replica) if microbatch_sizes is None else [
                k for k in microbatch_sizes if per_replica % k == 0]
            for b in sizes:
                if interleave > 1 and (per_replica // b) % p:
                    continue
                rows.append((t, p, d, b))
    if not rows:
        raise NotPossible(f"no (TP, PP, DP, microbatch) split of {gpus} GPUs is valid for model {model.name!r} "
                          f"with global batch {batch}: the batch must be divisible by the data-parallel degree",
                          plain=f"No split of {gpus:,} GPUs trains {model.name} on a batch of {batch:,} sequences: "
                                "the batch must share evenly among the model's copies"
                                + (f", in whole rounds of the {interleave} chunks per stage" if interleave > 1 else "")
                                + ".")
    t, p, d, b = (np.array(column, dtype=int) for column in zip(*rows))
    split = Split(t=t, p=p, d=d, c=np.ones_like(t), b=b, v=np.full_like(t, interleave),
                  sequence_parallel=sequence_parallel, global_batch_size=batch, recompute=recompute,
                  zero_stage=zero_stage)
    step = evaluate(model, cluster, software, efficiencies, split)
    return TrainingSweep(tensor_parallel=t, pipeline_parallel=p, data_parallel=d, microbatch_size=b, step=step)


# ============================================================================
# Replaying MegaScale's ablation (Table 3)
# ============================================================================

@renamed_parameters(cluster_="cluster")
def megascale_ablation(cluster="MegaScale", *, gpus=256, global_batch_size=256,
                       microbatch_size=MEGASCALE_MICROBATCH_SIZE, efficiencies=DEFAULT_EFFICIENCIES,
                       baseline="Megatron-LM 2023"):
    """MFU as MegaScale's optimizations are switched on one at a time (NSDI'24 Table 3).

    The 175B model with TP 8, PP 8, interleave 6, selective recomputation and
    sequence parallelism. The baseline is the ``"Megatron-LM 2023"`` stack
    (or the stack, or its name, given as ``baseline``)
    with plain data-parallel all-reduce (Megatron-LM's default); the steps the
    model can express are the parallel transformer block, TP overlap, PP
    overlap, DP overlap (with ZeRO-2-style reduce-scatter and all-gather, as
    MegaScale §3.2 describes), efficient operators (FlashAttention-2 in place
    of the baseline's fused attention kernel, and fused LayerNorm and GeLU,
    ``EFFICIENT_OPERATORS``; a baseline with unfused attention has no kernel to
    replace and keeps it), and LAMB's three-times larger batch. Sliding-window attention (window not published) and
    "miscellaneous" are not modelled.

    Parameters
    ----------
    cluster : Cluster or str
        Where the steps run (MegaScale's own cluster by default).
    gpus : int
        GPUs [-].
    global_batch_size : int
        Sequences per iteration before LAMB's larger batch [sequences].
    microbatch_size : int
        Sequences per microbatch [sequences].
    efficiencies : Efficiencies
        As for :func:`training_step`.
    baseline : Software or str
        The stack the optimizations are added to.

    Returns
    -------
    list of (str, float)
        (optimization, modelled MFU) in Table 3's order, starting with the baseline.

    Examples
    --------
    >>> rows = megascale_ablation()
    >>> rows[0][0], rows[-1][1] > rows[0][1]
    ('Megatron-LM baseline', True)
    """
    model = transformer_model("MegaScale 175B")
    stack = resolve("baseline", baseline, Software, SOFTWARE)
    steps = [
        ("Megatron-LM baseline", {}, 0),
        ("parallel transformer block", {"kernels": {"parallel_block": True}}, 0),
        ("tensor-parallel overlap", {"overlap": {"tensor_parallel": "pipelined"}}, 0),
        ("pipeline-parallel overlap", {"overlap": {"pipeline": "asynchronous"}}, 0),
        ("data-parallel overlap", {"overlap": {"data_parallel": "per layer"}}, 2),
        ("efficient operators", EFFICIENT_OPERATORS, 2),
    ]

    def mfu(batch, zero_stage):
        config = parallel_config(gpus, global_batch_size=batch, tensor_parallel=8, pipeline_parallel=8,
                                 interleave=6, microbatch_size=microbatch_size, recompute="selective",
                                 sequence_parallel=True, zero_stage=zero_stage)
        return training_step(model, cluster, config, stack, efficiencies=efficiencies).mfu

    if not stack.kernels.fused_attention:     # no fused kernel for FlashAttention-2 to replace
        steps[-1] = (steps[-1][0], {"kernels": {"elementwise": EFFICIENT_OPERATORS["kernels"]["elementwise"]}}, 2)
    rows = []
    for label, change, zero_stage in steps:
        stack = stack.replace(**change)
        rows.append((label, mfu(global_batch_size, zero_stage)))
    rows.append(("LAMB optimizer (batch x3)", mfu(3 * global_batch_size, 2)))
    return rows
