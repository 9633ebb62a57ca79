"""Tensor parallelism layer by layer (chapter 2): where a layer's time goes and a scan over degrees."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._deprecation import renamed_parameters
from .._lookup import resolve
from .._validation import as_output, check_choice, check_integer
from .models import RECOMPUTATION, TransformerModel
from .hardware import Cluster, Efficiencies
from .stack import Software
from .presets import CLUSTERS, DEFAULT_EFFICIENCIES, MODELS, SOFTWARE, resolve_run
from .config import check_divides, divides_model
from . import terms
from .step import TrainingStep, evaluate


@dataclass(frozen=True)
class TensorParallelLayer:
    """Tensor-parallel communication of one transformer layer, and its weight in the step.

    From :func:`tensor_parallel_layer` (floats) or :func:`tensor_parallel_scan`
    (arrays, one element per degree); per GPU, per layer, per microbatch.

    Attributes
    ----------
    tensor_parallel : int or numpy.ndarray
        Tensor-parallel degree t.
    crosses_network : bool or numpy.ndarray
        True if a tensor-parallel group spans more than one NVLink domain (it
        is larger than the domain, or groups do not tile the domain evenly), so
        its all-reduces cross the network.
    all_reduces : int
        All-reduces of the layer's activations per microbatch: two per pass
        (after attention and after the MLP; one with a parallel block) in the
        forward pass, the backward pass and, with full recomputation, the
        recomputed forward pass.
    message_bytes : float
        Size of each all-reduce, the b·s·h activations of the microbatch [B].
    sent_bytes : float
        Bytes one GPU sends for them with the ring algorithm,
        ``all_reduces * 2(t-1)/t * message_bytes`` [B].
    communication_s : float
        Time of the layer's all-reduces, one after another [s].
    exposed_s : float
        The part of ``communication_s`` the GPU waits for after overlap [s].
    compute_s : float
        The layer's compute for the microbatch: forward, backward and
        recomputation [s].
    step : TrainingStep
        The whole iteration (its ``tensor_parallel_s`` is the exposed
        tensor-parallel time of every layer and microbatch).
    """

    tensor_parallel: int
    crosses_network: bool
    all_reduces: int
    message_bytes: float
    sent_bytes: float
    communication_s: float
    exposed_s: float
    compute_s: float
    step: TrainingStep

    @property
    def communication_to_compute(self):
        """``communication_s / compute_s`` for one layer [-]."""
        return as_output(np.divide(self.communication_s, self.compute_s))

    @property
    def step_share(self):
        """Exposed tensor-parallel time as a share of the iteration [-]."""
        return as_output(np.divide(self.step.tensor_parallel_s, self.step.step_s))


@renamed_parameters(cluster_="cluster", software_="software")
def tensor_parallel_layer(model, cluster, config, software="Megatron-LM SC21", *,
                          efficiencies=DEFAULT_EFFICIENCIES) -> TensorParallelLayer:
    """The tensor-parallel all-reduces of one layer: bytes, time, and share of the step.

    Megatron-LM's tensor parallelism (Shoeybi et al. 2019) splits each layer's
    weight matrices over t GPUs; after the attention block and after the MLP
    the t partial results are summed with an all-reduce of the microbatch's
    activations, :math:`S = b\\,s\\,h` elements, in the forward pass and again
    in the backward pass. With the ring algorithm each GPU sends
    :math:`2\\frac{t-1}{t} S` per all-reduce, so per layer and microbatch
    (SC21 §3.2)

    .. math::

        V_\\text{TP} = 8\\, b\\, s\\, h\\, \\frac{t-1}{t} \\text{ elements}

    for the forward and backward passes; full recomputation adds the two
    all-reduces of the recomputed forward pass. Times come from
    :func:`interconnect_lab.collectives.collective_performance` over the
    cluster's NVLink (a two-level algorithm once a group spans NVLink domains:
    groups are contiguous, so when t and the domain size do not divide one
    another some group straddles two domains and sets the pace), and the
    layer's compute from the same roofline :func:`training_step` uses.

    Parameters
    ----------
    model : TransformerModel or str
        The architecture, or a name from :data:`MODELS`.
    cluster : Cluster or str
        The hardware, or a name from :data:`CLUSTERS` (see also :func:`system_cluster`).
    config : ParallelConfig
        The split; its ``tensor_parallel`` is t.
    software : Software or str
        The stack, or a name from :data:`SOFTWARE`.
    efficiencies : Efficiencies
        Sustained rates; :data:`DEFAULT_EFFICIENCIES` unless exploring.

    Returns
    -------
    TensorParallelLayer

    Raises
    ------
    ValueError
        If the split does not divide the model (see :func:`training_step`).

    References
    ----------
    M. Shoeybi et al., "Megatron-LM: Training Multi-Billion Parameter Language
    Models Using Model Parallelism", arXiv:1909.08053, 2019.

    D. Narayanan et al., SC21, §3.2, https://doi.org/10.1145/3458817.3476209.

    Examples
    --------
    GPT-3 175B, one 2,048-token sequence per microbatch, t = 8 on a DGX H100:
    SC21's 8·b·s·h·(t−1)/t elements of 2 bytes for the forward and backward passes

    >>> from interconnect_lab.training import parallel_config, system_cluster
    >>> from interconnect_lab import units as u
    >>> config = parallel_config(8, global_batch_size=8, tensor_parallel=8, recompute="none")
    >>> layer = tensor_parallel_layer("GPT-3 175B", system_cluster("DGX H100"), config)
    >>> layer.all_reduces, round(layer.sent_bytes / u.MB, 1)
    (4, 352.3)
    >>> 2 * 8 * 1 * 2048 * 12288 * 7 / 8 / u.MB
    352.321536
    >>> layer.crosses_network
    False
    """
    model, cluster, software = resolve_run(model, cluster, config, software, efficiencies)
    return _tensor_parallel(model, cluster, software, efficiencies, config.global_batch_size,
                            config.recompute, config.sequence_parallel, config.tensor_parallel,
                            config.pipeline_parallel, config.data_parallel, config.context_parallel,
                            config.microbatch_size, config.interleave, config.zero_stage)


def _tensor_parallel(model, cluster, software, efficiencies, global_batch_size, recompute, sequence_parallel,
                     t, p, d, c, b, v, zero_stage=0):
    """:class:`TensorParallelLayer` for scalar or array (t, p, d, c, b, v)."""
    step = evaluate(model, cluster, software, efficiencies,
                    terms.Split(t=t, p=p, d=d, c=c, b=b, v=v, sequence_parallel=sequence_parallel,
                                global_batch_size=global_batch_size, recompute=recompute, zero_stage=zero_stage))
    t, p, d, c, b = (np.asarray(x) for x in (t, p, d, c, b))
    gpus = t * p * d * c
    layer = terms.layer_terms(model, cluster, software, recompute, terms.gemm_rate(cluster, efficiencies),
                              terms.hbm_rate(cluster, efficiencies), t.astype(float), c.astype(float),
                              b.astype(float), np.asarray(sequence_parallel, dtype=bool), gpus)
    ring_traffic = 2 * (t - 1) / t
    out_ = as_output
    crosses = terms.group_ranks_per_node(t, cluster.gpus_per_node, gpus) < t
    return TensorParallelLayer(
        tensor_parallel=int(t) if t.ndim == 0 else t,
        crosses_network=bool(crosses) if np.ndim(crosses) == 0 else crosses,
        all_reduces=int(layer.tensor_parallel_all_reduces),
        message_bytes=out_(layer.tensor_parallel_message_bytes * np.ones_like(ring_traffic)),
        sent_bytes=out_(layer.tensor_parallel_all_reduces * ring_traffic * layer.tensor_parallel_message_bytes),
        communication_s=out_(layer.tensor_parallel_s), exposed_s=out_(layer.tensor_parallel_exposed_s),
        compute_s=out_(layer.compute_s), step=step)


@renamed_parameters(cluster_="cluster", software_="software")
def tensor_parallel_scan(model, cluster, software="Megatron-LM SC21", *, degrees=None,
                         max_tensor_parallel=64, global_batch_size=8, microbatch_size=1, recompute="full",
                         sequence_parallel=False, efficiencies=DEFAULT_EFFICIENCIES) -> TensorParallelLayer:
    """:func:`tensor_parallel_layer` for one tensor-parallel group of each degree, at once.

    Each degree t runs on t GPUs with no pipeline or data parallelism, so
    everything but tensor parallelism stays the same from one degree to the
    next. Evaluated in one vectorised pass, fast enough for an interactive figure.

    Parameters
    ----------
    model, cluster, software :
        As for :func:`tensor_parallel_layer`.
    degrees : sequence of int, optional
        Degrees t to evaluate; each must divide the model's heads and MLP width.
        By default every power of two up to ``max_tensor_parallel`` that does.
    max_tensor_parallel : int
        Largest default degree.
    global_batch_size, microbatch_size : int
        Sequences per iteration and per microbatch (there are
        ``global_batch_size / microbatch_size`` microbatches).
    recompute, sequence_parallel :
        As in :class:`ParallelConfig`.
    efficiencies : Efficiencies
        As for :func:`training_step`.

    Returns
    -------
    TensorParallelLayer
        With array attributes, one element per degree (``tensor_parallel``).

    Raises
    ------
    ValueError
        If a degree does not divide the model, or no default degree does.

    Examples
    --------
    >>> from interconnect_lab.training import system_cluster
    >>> scan = tensor_parallel_scan("GPT-3 175B", system_cluster("DGX H100"), max_tensor_parallel=16)
    >>> scan.tensor_parallel.tolist(), scan.crosses_network.tolist()
    ([1, 2, 4, 8, 16], [False, False, False, False, True])
    >>> bool(scan.communication_s[3] < scan.communication_s[4])
    True
    """
    model = resolve("model", model, TransformerModel, MODELS)
    cluster = resolve("cluster", cluster, Cluster, CLUSTERS)
    software = resolve("software", software, Software, SOFTWARE)
    if not isinstance(efficiencies, Efficiencies):
        raise TypeError(f"efficiencies must be an Efficiencies, got {type(efficiencies).__name__}")
    check_choice("recompute", recompute, RECOMPUTATION)
    batch = check_integer("global_batch_size", global_batch_size, minimum=1, unit="sequences")
    b = check_integer("microbatch_size", microbatch_size, minimum=1, unit="sequences")
    if batch % b:
        raise ValueError(f"global_batch_size = {batch} sequences is not divisible by microbatch_size = {b}")
    if degrees is None:
        limit = check_integer("max_tensor_parallel", max_tensor_parallel, minimum=1)
        degrees = [1 << k for k in range(limit.bit_length()) if 1 << k <= limit]
        degrees = [t for t in degrees if divides_model(model, t)]
        if not degrees:
            raise ValueError(f"no power of two up to {limit} divides model {model.name!r}")
    else:
        degrees = [check_integer("degrees", t, minimum=1) for t in degrees]
        for t in degrees:
            check_divides(model, t, 1, 1, 1)
    t = np.array(degrees, dtype=int)
    ones = np.ones_like(t)
    return _tensor_parallel(model, cluster, software, efficiencies, batch, recompute, sequence_parallel,
                            t, ones, ones, ones, np.full_like(t, b), ones)
