"""What NCCL runs for a collective on a given machine, and how long it takes.

NCCL prices every algorithm and protocol it could run with one formula,
``time = latency + bytes / algorithm bandwidth``, and runs the cheapest
(``src/graph/tuning.cc``, ``src/enqueue.cc``). This module is that cost model,
built on the channels its topology search finds
(:mod:`interconnect_lab.collectives.graphs`):

- **algorithms** per collective, as NCCL has them: all-reduce by ring, tree,
  NVLS (NVLink SHARP, one domain; across domains only with SHARP), NVLSTree
  (NVLS inside each node, a tree across), CollNet Direct and Chain (SHARP);
  all-gather and reduce-scatter by ring, PAT (one GPU per node), NVLS (one
  domain, or with SHARP) and CollNet Direct; broadcast and reduce by ring;
- **protocols** LL, LL128 and Simple, each with its own latencies and
  bandwidth cap (NVLS, NVLSTree, CollNet and PAT only Simple);
- **bandwidth**: ``channels x per-channel speed``, refined per algorithm and
  protocol, converted from bus to algorithm bandwidth (``n / steps`` for
  the ring and NVLS, one half for trees and CollNet);
- **latency**: a base per algorithm and protocol plus per-hop terms; the ring
  pays one hop per step, ``2(n-1)`` steps for all-reduce, so its latency
  grows with the total number of ranks;
- **channels by size**: after choosing, NCCL runs fewer channels while the
  message is smaller than channels x threads x a per-thread threshold; this is
  reported, and the time is NCCL's own estimate, which the channel count does
  not change.

All-to-all and send/receive are not collectives in NCCL's tuner: they are
point-to-point pairs (:mod:`interconnect_lab.collectives.point_to_point`).
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import numpy as np

from .. import units as u
from .._validation import check_choice, check_number
from . import tuning
from .graphs import Graphs, search_graphs
from .point_to_point import POINT_TO_POINT_COLLECTIVES, point_to_point
from .system import CollectiveSystem

__all__ = ["NCCL_COLLECTIVES", "AlgorithmCost", "algorithm_cost", "algorithm_costs", "Candidate", "NcclCollective",
           "nccl_collective", "nccl_time", "graphs_channels"]

#: The collectives NCCL's tuner prices.
NCCL_COLLECTIVES = ("all_reduce", "all_gather", "reduce_scatter", "broadcast", "reduce")

_ALGORITHMS_OF = {
    "all_reduce": ("tree", "ring", "collnet_direct", "collnet_chain", "nvls", "nvls_tree"),
    "all_gather": ("ring", "collnet_direct", "nvls", "pat"),
    "reduce_scatter": ("ring", "collnet_direct", "nvls", "pat"),
    "broadcast": ("ring",), "reduce": ("ring",),
}


@dataclass(frozen=True)
class AlgorithmCost:
    """NCCL's price of one (algorithm, protocol) for one collective on one machine.

    Attributes
    ----------
    algorithm, protocol : str
        Names from ``collectives.tuning.NCCL_ALGORITHMS`` and
        ``collectives.tuning.PROTOCOLS``.
    latency_s : float
        The size-independent part of the time [s].
    algorithm_bandwidth_bytes_per_s : float
        Bytes of the message per second once the pipeline is full [B/s]; 0 if NCCL would not run it.
    unavailable : str
        Why NCCL would not run it on this machine; empty if it would.
    channel_bandwidth_bytes_per_s : float
        Algorithm bandwidth one of the communicator's channels adds, below NCCL's ceilings [B/s]:
        what a message small enough to run on few channels gets per channel.
    """

    algorithm: str
    protocol: str
    latency_s: float
    algorithm_bandwidth_bytes_per_s: float
    unavailable: str = ""
    channel_bandwidth_bytes_per_s: float = math.inf


def _steps(collective, n):
    if collective == "all_reduce":
        return 2 * (n - 1)
    if collective in ("all_gather", "reduce_scatter"):
        return n - 1
    return n


def _node_index(nodes):
    return min(nodes, 3) - 1


def _graph_of(graphs: Graphs, algorithm):
    return {"ring": graphs.ring, "tree": graphs.tree, "pat": graphs.tree, "nvls": graphs.nvls,
            "nvls_tree": graphs.nvls, "collnet_direct": graphs.collnet, "collnet_chain": graphs.collnet}[algorithm]


def _unavailable(system, graphs, collective, algorithm, protocol):
    """Why NCCL would not run this (algorithm, protocol) here, or ''."""
    simple_only = ("nvls", "nvls_tree", "collnet_direct", "collnet_chain", "pat")
    if algorithm in simple_only and protocol != "Simple":
        return f"{algorithm} runs only the Simple protocol"
    if algorithm in ("nvls", "nvls_tree"):
        if graphs.nvls is None:
            return "NVLS needs NVSwitch and Hopper or later"
        if algorithm == "nvls_tree" and system.nodes == 1:
            return "NVLSTree is disabled on one node (NVLS covers it)"
        if algorithm == "nvls" and system.nodes > 1 and not system.sharp:
            return "NVLS across nodes needs SHARP (CollNet); without it NCCL runs NVLSTree"
        if collective != "all_reduce" and system.gpus_per_node > tuning.MAX_NVLS_ARITY:
            return f"NVLS for {collective} serves at most {tuning.MAX_NVLS_ARITY} GPUs per node"
    if algorithm in ("collnet_direct", "collnet_chain"):
        if graphs.collnet is None:
            return "CollNet needs SHARP switches and more than one node"
        if system.gpus_per_node > tuning.MAX_DIRECT_ARITY:
            return f"CollNet serves at most {tuning.MAX_DIRECT_ARITY} GPUs per node"
        if algorithm == "collnet_direct" and not system.nvswitch:
            return "CollNet Direct needs an NVSwitch"
    if collective in ("all_gather", "reduce_scatter") and system.nodes > 1 and algorithm in ("nvls", "collnet_direct"):
        if not system.sharp or system.gpus_per_node > system.nics_per_node:
            return (f"{algorithm} {collective} across nodes needs SHARP and one port per GPU; "
                    "without them NCCL runs a ring through the ports")
    if algorithm == "pat" and system.gpus_per_node != 1:
        return "PAT runs only with one GPU per node"
    if protocol == "LL128" and system.architecture == "volta":
        return "LL128 needs Ampere or later here"
    return ""


def _bus_bandwidth_gbps(system, graphs, collective, algorithm, protocol, capped=True):
    """NCCL's bus bandwidth of one (algorithm, protocol), before conversion [GB/s].

    ``capped=False`` leaves out NCCL's ceilings (LL's most, the per-channel maxima): what
    the channels would move at their search speed, the rate one channel adds.
    """
    def ceiling(value, limit):
        return min(value, limit) if capped else value

    graph = _graph_of(graphs, algorithm)
    arch, nodes, ppn = system.architecture, system.nodes, system.gpus_per_node
    node = _node_index(nodes)
    intra = graph.intra_bytes_per_s / u.GB_per_s
    inter = graph.inter_bytes_per_s / u.GB_per_s
    bw = intra if nodes <= 2 or algorithm.startswith("collnet") else inter
    if algorithm in ("nvls", "nvls_tree"):
        intra_bw = intra * tuning.NVLS_EFFICIENCY[arch] * (graph.channels - 1) / graph.channels
        intra_bw *= 2.0 if collective == "all_reduce" else (ppn - 1) / ppn
        inter_bw = inter * (2 if nodes <= 2 and algorithm == "nvls_tree" else 1)
        cap = tuning.NVLS_TREE_MAX_PER_CHANNEL_GBPS[arch][node] if algorithm == "nvls_tree" else math.inf
        bw = min(intra_bw, inter_bw, cap)
    bus = graph.channels * bw
    ll_max = tuning.LL_MAX_BANDWIDTH_GBPS[arch if nodes == 1 else ("volta" if system.cpu != "amd" else "ampere")][node]
    if algorithm == "ring" and protocol == "LL":
        bus = ceiling(bus * 0.5, ll_max)
    if algorithm == "ring" and protocol == "LL128":
        bus = ceiling(bus * 0.92, graph.channels * tuning.RING_LL128_MAX_PER_CHANNEL_GBPS[arch][node])
    if algorithm == "tree" and collective == "all_reduce":
        bus = ceiling(bus * 0.92, graph.channels * tuning.TREE_MAX_PER_CHANNEL_GBPS[arch][node])
    if algorithm == "tree" and protocol == "LL":
        bus = ceiling(bus / 3.8, ll_max)
    if algorithm == "tree" and protocol == "LL128":
        bus = ceiling(bus * (7.0 / 9.0 if nodes == 1 else 120.0 / 128.0),
                      graph.channels * tuning.TREE_LL128_MAX_PER_CHANNEL_GBPS[arch][node])
    if algorithm == "pat":
        bus *= 0.75
    if algorithm == "collnet_direct":
        if collective in ("all_gather", "reduce_scatter"):
            bus = ppn * min(intra, inter * 0.9)
        else:
            factor = ppn / graph.channels
            bus /= factor - (factor - 1) / 2
            if arch in ("hopper", "blackwell"):
                bus *= 0.85
    return bus


def _algorithm_bandwidth_gbps(system, graphs, collective, algorithm, protocol, capped=True):
    bus = _bus_bandwidth_gbps(system, graphs, collective, algorithm, protocol, capped)
    if algorithm != "ring" and collective in ("all_gather", "reduce_scatter"):
        return bus
    if algorithm in ("ring", "nvls", "nvls_tree"):
        return bus * system.ranks / _steps(collective, system.ranks)
    return bus * 0.5


def _latency_us(system, collective, algorithm, protocol):
    """NCCL's latency of one (algorithm, protocol) [µs] (``ncclTopoTuneModel``)."""
    p = tuning.PROTOCOLS.index(protocol)
    nodes, ppn, n = system.nodes, system.gpus_per_node, system.ranks
    intra_hw = "nvlink" if system.nvlink_bytes_per_s > 0 else "pci"
    latency = tuning.BASE_LATENCY_US[algorithm][p]
    intra = tuning.HOP_LATENCY_US[intra_hw][algorithm][p]
    inter = tuning.HOP_LATENCY_US["net"]["tree" if ppn == 1 else algorithm][p]
    log_nodes = int(math.log2(nodes))
    if algorithm == "ring":
        if collective in ("broadcast", "reduce"):
            return latency + tuning.HOP_LATENCY_US[intra_hw if nodes == 1 else "net"]["ring"][p]
        overhead = 0.0
        if nodes > 1:
            overhead = tuning.NET_OVERHEAD_US[system.cpu] * (3 if protocol == "Simple" else 1)
        steps = _steps(collective, n)
        inter_steps = 0 if nodes == 1 else (2 * (nodes - 1) if collective == "all_reduce" else nodes - 1)
        return latency + (steps - inter_steps) * max(intra, overhead) + inter_steps * inter
    if algorithm == "tree":
        return latency + 2 * ((ppn - 1) * intra + log_nodes * inter) if collective == "all_reduce" else latency
    if algorithm == "collnet_direct":
        return latency + 2 * (min(1, ppn - 1) * intra + (ppn - 1) * 0.4) + inter
    if algorithm == "collnet_chain":
        return latency + 2 * (ppn - 1) * intra + inter
    if algorithm == "nvls":
        return intra + (inter if nodes > 1 else 0.0)
    if algorithm == "nvls_tree":
        return latency + intra + 2 * log_nodes * inter
    return latency + log_nodes * inter / 3.5 + n * 2.8  # pat


def algorithm_costs(collective, system: CollectiveSystem):
    """NCCL's price of every (algorithm, protocol) it has for ``collective`` on ``system``.

    Parameters
    ----------
    collective : str
        One of ``NCCL_COLLECTIVES``.
    system : CollectiveSystem
        The machine.

    Returns
    -------
    tuple of AlgorithmCost
        In NCCL's order of algorithms, then protocols (LL, LL128, Simple).

    Examples
    --------
    >>> from interconnect_lab.collectives.system import collective_system
    >>> costs = algorithm_costs("all_reduce", collective_system("H100 SXM"))
    >>> ring = [c for c in costs if (c.algorithm, c.protocol) == ("ring", "Simple")][0]
    >>> round(ring.latency_s * 1e6, 1), round(ring.algorithm_bandwidth_bytes_per_s / 1e9, 1)
    (56.0, 205.7)
    """
    check_choice("collective", collective, NCCL_COLLECTIVES)
    if not isinstance(system, CollectiveSystem):
        raise TypeError(f"system must be a CollectiveSystem, got {system!r}")
    return _costs(collective, system)


@functools.lru_cache(maxsize=4096)
def _costs(collective, system):
    graphs = search_graphs(system)
    costs = []
    for algorithm in _ALGORITHMS_OF[collective]:
        for protocol in tuning.PROTOCOLS:
            if system.ranks == 1:  # enqueue.cc: one rank copies in place, Ring/Simple at no cost
                free = (algorithm, protocol) == ("ring", "Simple")
                costs.append(AlgorithmCost(algorithm, protocol, 0.0 if free else math.inf,
                                           math.inf if free else 0.0, "" if free else "one rank: nothing to exchange"))
                continue
            reason = _unavailable(system, graphs, collective, algorithm, protocol)
            if reason:
                costs.append(AlgorithmCost(algorithm, protocol, math.inf, 0.0, reason))
                continue
            bandwidth = _algorithm_bandwidth_gbps(system, graphs, collective, algorithm, protocol)
            per_channel = _algorithm_bandwidth_gbps(system, graphs, collective, algorithm, protocol,
                                                    capped=False) / graphs.channels
            latency = _latency_us(system, collective, algorithm, protocol)
            costs.append(AlgorithmCost(algorithm, protocol, latency * u.us, bandwidth * u.GB_per_s,
                                       "" if bandwidth > 0 else "no bandwidth on this machine",
                                       per_channel * u.GB_per_s))
    return tuple(costs)


@dataclass(frozen=True)
class _CostTable:
    """Every candidate's parameters as arrays, so all sizes are priced in a few numpy operations."""

    costs: tuple
    latency: np.ndarray          # (C, 1) [s]
    bandwidth: np.ndarray        # (C, 1) [B/s]
    per_channel: np.ndarray      # (C, 1) [B/s]
    bytes_per_channel: np.ndarray  # (C, 1) [B]; inf where the channel count does not follow the size
    correction: np.ndarray       # (C, 25) NCCL's per-size bandwidth correction by log2(size/64), ones where none
    plateau: np.ndarray          # (C, 1) bool: the multi-node ring's latency factor applies
    unavailable: np.ndarray      # (C,) bool
    channels: int
    plateau_bytes: float         # size from which the plateau factor applies [B]
    rows: tuple = ()             # the same per candidate as plain floats, for one size at a time


@functools.lru_cache(maxsize=4096)
def _cost_table(collective, system, allowed):
    """The candidates named in ``allowed`` (pairs), or with ``allowed="available"`` the ones NCCL could run."""
    costs = tuple(c for c in _costs(collective, system)
                  if (not c.unavailable if allowed == "available" else (c.algorithm, c.protocol) in allowed))
    graphs = search_graphs(system)
    correction = np.ones((len(costs), 25))  # the last column: every size beyond NCCL's table
    bytes_per_channel = np.full((len(costs), 1), np.inf)
    plateau = np.zeros((len(costs), 1), dtype=bool)
    for i, cost in enumerate(costs):
        if cost.unavailable or system.ranks == 1:
            continue
        corrected = cost.algorithm == "tree" or (cost.algorithm == "nvls_tree" and system.architecture == "blackwell"
                                                 and system.cpu != "arm")
        if collective == "all_reduce" and corrected:
            limit = 23 if cost.algorithm == "tree" else 24
            correction[i, :limit] = tuning.TREE_CORRECTION[cost.protocol][:limit]
        plateau[i] = ((cost.algorithm, cost.protocol, collective) == ("ring", "Simple", "all_reduce")
                      and system.nodes > 1 and system.architecture != "volta")
        if cost.algorithm in ("ring", "pat", "collnet_chain"):
            bytes_per_channel[i] = _bytes_per_channel(system, cost.algorithm, cost.protocol)
    rows = tuple((c.latency_s, c.algorithm_bandwidth_bytes_per_s, c.channel_bandwidth_bytes_per_s,
                  float(bytes_per_channel[i, 0]), bool(plateau[i, 0]), tuple(map(float, correction[i])))
                 for i, c in enumerate(costs))
    return _CostTable(
        rows=rows, costs=costs, latency=np.array([[c.latency_s] for c in costs]),
        bandwidth=np.array([[c.algorithm_bandwidth_bytes_per_s] for c in costs]),
        per_channel=np.array([[c.channel_bandwidth_bytes_per_s] for c in costs]),
        bytes_per_channel=bytes_per_channel, correction=correction, plateau=plateau,
        unavailable=np.array([bool(c.unavailable) for c in costs]), channels=graphs.channels,
        plateau_bytes=64.0 * graphs.channels * system.ranks)


def _candidate_times(table, size):
    """NCCL's estimate and the modelled time of every candidate, for every size.

    Returns two arrays of shape ``(candidates,) + size.shape`` [s]: NCCL's own estimate
    (``ncclTopoGetAlgoTime``: latency x the multi-node ring's "plateau" factor 1.4 +
    size / (bandwidth x the tree's per-size correction)), and the same with the share of
    channels a small message runs on (ring, PAT, CollNet Chain: each channel is one thread
    block on one SM, so fewer channels move fewer bytes at once until NCCL's ceilings, LL's
    most and the per-channel maxima, bind anyway; the tree's correction, measured by NCCL's
    authors, already holds its mid-size ramp). Unavailable candidates are infinite.
    """
    flat = size.reshape(1, -1)
    with np.errstate(divide="ignore", invalid="ignore"):
        log_size = np.clip(np.floor(np.log2(np.maximum(flat[0], 64) / 64)).astype(int), 0, 24)
        correction = np.where(flat >= 64, table.correction[:, log_size], 1.0)
        base = table.latency * np.where(table.plateau & (flat >= table.plateau_bytes),
                                        tuning.RING_PLATEAU_LATENCY_FACTOR, 1.0)
        run = np.clip(flat / table.bytes_per_channel, 1, table.channels)
        share = np.where(np.isinf(table.bytes_per_channel), 1.0,
                         np.minimum(1.0, run * table.per_channel / table.bandwidth))
        estimate = base + flat / (table.bandwidth * correction)
        time = base + flat / (table.bandwidth * correction * share)
    if table.unavailable.any():
        estimate[table.unavailable] = np.inf
        time[table.unavailable] = np.inf
    shape = (len(table.costs),) + size.shape
    return estimate.reshape(shape), time.reshape(shape)


def _scalar_time(table, size):
    """:func:`_candidate_times` for one size in plain floats: the chosen candidate's time [s]."""
    index = min(max(int(math.floor(math.log2(size / 64))), 0), 24) if size >= 64 else None
    best_estimate, best_time = math.inf, math.inf
    for latency, bandwidth, per_channel, per_channel_bytes, plateau, correction in table.rows:
        factor = correction[index] if index is not None else 1.0
        if plateau and size >= table.plateau_bytes:
            latency *= tuning.RING_PLATEAU_LATENCY_FACTOR
        share = 1.0
        if per_channel_bytes != math.inf:
            share = min(1.0, min(max(size / per_channel_bytes, 1.0), table.channels) * per_channel / bandwidth)
        estimate = latency + size / (bandwidth * factor)
        if estimate < best_estimate:
            best_estimate, best_time = estimate, latency + size / (bandwidth * factor * share)
    return best_time


def nccl_time(collective, size_bytes, system: CollectiveSystem):
    """Time of ``collective`` of ``size_bytes`` on ``system`` as NCCL runs it [s]: the time of
    :func:`nccl_collective`, without the rest of its result (fast, for models that price
    thousands of collectives).

    Parameters
    ----------
    collective : str
        One of ``NCCL_COLLECTIVES``, ``"all_to_all"`` or ``"send_recv"``.
    size_bytes : float or array_like
        Message size as nccl-tests counts it [B], in [0, 1e30].
    system : CollectiveSystem
        The machine.

    Returns
    -------
    float or numpy.ndarray
        The time [s].

    Examples
    --------
    >>> from interconnect_lab.collectives.system import collective_system
    >>> round(nccl_time("all_reduce", 2**30, collective_system("H100 SXM", nodes=4)) * 1e3, 2)
    5.81
    """
    if collective in POINT_TO_POINT_COLLECTIVES:
        return point_to_point(collective, size_bytes, system).time_s
    check_choice("collective", collective, NCCL_COLLECTIVES)
    if not isinstance(system, CollectiveSystem):
        raise TypeError(f"system must be a CollectiveSystem, got {system!r}")
    size = check_number("size_bytes", size_bytes, unit="B", minimum=0, maximum=1e30)
    table = _cost_table(collective, system, "available")
    if np.ndim(size) == 0:
        return _scalar_time(table, float(size))
    estimates, times = _candidate_times(table, np.asarray(size, dtype=float))
    time = np.take_along_axis(times, np.argmin(estimates, axis=0)[None], axis=0)[0]
    return float(time) if np.ndim(time) == 0 else time


def algorithm_cost(collective, size_bytes, system: CollectiveSystem, algorithm, protocol):
    """The modelled time of one (algorithm, protocol) for messages of ``size_bytes`` [s].

    NCCL's ``latency + size / algorithm bandwidth``, with its size corrections and the
    channels a small message runs on; infinite where NCCL would not run it.

    Examples
    --------
    >>> from interconnect_lab.collectives.system import collective_system
    >>> t = algorithm_cost("all_reduce", 2**30, collective_system("H100 SXM"), "ring", "Simple")
    >>> round(t * 1e3, 3)
    5.276
    """
    size = np.asarray(check_number("size_bytes", size_bytes, unit="B", minimum=0, maximum=1e30), dtype=float)
    cost = next((c for c in algorithm_costs(collective, system)
                 if (c.algorithm, c.protocol) == (algorithm, protocol)), None)
    if cost is None:
        raise ValueError(f"algorithm {algorithm!r} with protocol {protocol!r} is not one NCCL has for {collective}")
    table = _cost_table(collective, system, ((algorithm, protocol),))
    time = _candidate_times(table, size)[1][0]
    return float(time) if np.ndim(time) == 0 else time


def _bytes_per_channel(system, algorithm, protocol):
    """Bytes below which NCCL drops one more channel: threads x the per-thread threshold [B]."""
    threshold = tuning.THREAD_THRESHOLD_BYTES[protocol] * (system.ranks if (algorithm, protocol) == ("ring", "LL")
                                                           else 1)
    return tuning.THREADS[protocol] * threshold


def _channels_run(system, graphs, algorithm, protocol, size, whole=True):
    """Channels NCCL runs for this size (``topoGetAlgoInfo``): fewer while the message is small.

    NCCL drops whole channels, one at a time; ``whole=False`` gives the same count
    without rounding down (at least one), which the time uses so that it does not
    saw-tooth between two channel counts.
    """
    if algorithm in ("nvls", "nvls_tree"):
        one_domain, several = tuning.NVLS_CHANNELS[system.architecture]
        channels = one_domain if system.nodes == 1 else several
        return np.full_like(size, min(channels, graphs.channels) if algorithm == "nvls" and system.nodes > 1
                            else channels)
    per_channel = _bytes_per_channel(system, algorithm, protocol)
    if algorithm == "collnet_direct":
        return np.full_like(size, graphs.channels)
    share = size / per_channel
    return np.clip(np.floor(share) if whole else share, 1, graphs.channels)


@dataclass(frozen=True)
class Candidate:
    """One (algorithm, protocol) NCCL priced for a collective, and why it lost or could not run.

    Attributes
    ----------
    algorithm, protocol : str
        The pair.
    time_s : float or numpy.ndarray
        The modelled time [s], infinite where it cannot run. NCCL chooses by its
        own estimate, which leaves out the channel share (see the module
        docstring), so the chosen pair need not have the least ``time_s``.
    verdict : str
        ``"chosen"``, ``"slower"`` or why NCCL would not run it here (for an array
        of sizes, ``"chosen"`` if it wins at any size).
    """

    algorithm: str
    protocol: str
    time_s: float | np.ndarray
    verdict: str


@dataclass(frozen=True)
class NcclCollective:
    """What NCCL runs for one collective on one machine, and its time and bandwidths.

    Size-dependent attributes are scalars for a scalar size and arrays for an
    array of sizes (``algorithm`` and ``protocol`` then arrays of names).

    Attributes
    ----------
    collective : str
        The collective.
    system : CollectiveSystem
        The machine.
    size_bytes : float or numpy.ndarray
        Message size as nccl-tests counts it [B].
    algorithm, protocol : str or numpy.ndarray
        What NCCL runs.
    channels : int or numpy.ndarray
        Channels it runs (fewer for small messages).
    time_s : float or numpy.ndarray
        NCCL's estimate of the time [s].
    algorithm_bandwidth_bytes_per_s, bus_bandwidth_bytes_per_s : float or numpy.ndarray
        algbw = size / time and busbw = algbw x the nccl-tests factor [B/s].
    candidates : tuple of Candidate
        Every (algorithm, protocol) priced, with its time and verdict.
    """

    collective: str
    system: CollectiveSystem
    size_bytes: float | np.ndarray
    algorithm: str | np.ndarray
    protocol: str | np.ndarray
    channels: int | np.ndarray
    time_s: float | np.ndarray
    algorithm_bandwidth_bytes_per_s: float | np.ndarray
    bus_bandwidth_bytes_per_s: float | np.ndarray
    candidates: tuple[Candidate, ...]

    def table(self) -> str:
        """The candidates as a text table: time per (algorithm, protocol) and the verdict (scalar size)."""
        if np.ndim(self.size_bytes):
            raise ValueError("table() describes one message size; index the sizes first")
        rows = [f"{self.collective} of {u.format_bytes(self.size_bytes)} on {self.system.name or 'the system'}"]
        rows.append(f"{'algorithm':<15}{'protocol':<9}{'time':>12}  verdict")
        for c in self.candidates:
            time = "-" if not math.isfinite(c.time_s) else u.format_time(c.time_s)
            rows.append(f"{c.algorithm:<15}{c.protocol:<9}{time:>12}  {c.verdict}")
        return "\n".join(rows)


def _check_forced(name, value, valid):
    """None, or the allowed names as a tuple (one name, or several as ``NCCL_ALGO`` lists them)."""
    if value is None:
        return None
    names = (value,) if isinstance(value, str) else tuple(value) if isinstance(value, (tuple, list)) else None
    if not names:
        raise TypeError(f"{name} must be a name or a sequence of names, got {value!r}")
    return tuple(check_choice(name, v, valid) for v in names)


def nccl_collective(collective, size_bytes, system: CollectiveSystem, *, algorithm=None, protocol=None):
    """What NCCL runs for ``collective`` of ``size_bytes`` on ``system``, and how long it takes.

    NCCL prices every (algorithm, protocol) it has for the collective on this
    machine and runs the cheapest (``enqueue.cc``); ``algorithm`` and
    ``protocol`` restrict the choice as ``NCCL_ALGO`` and ``NCCL_PROTO`` do.

    .. math::

        t = \\min_{a, p}\\; \\ell_{a,p}\\,c_\\ell(S) + \\frac{S}{B_{a,p}\\,c_B(S)}

    with :math:`\\ell` the latency and :math:`B` the algorithm bandwidth of
    :func:`algorithm_costs`, and :math:`c` NCCL's size corrections (the tree's
    per-size factor, the multi-node ring's "plateau" latency factor 1.4).

    Parameters
    ----------
    collective : str
        One of ``NCCL_COLLECTIVES``.
    size_bytes : float or array_like
        Message size as nccl-tests counts it (the whole buffer; for all-gather the
        output, for reduce-scatter the input) [B], in [0, 1e30].
    system : CollectiveSystem
        The machine (:func:`~interconnect_lab.collectives.collective_system`).
    algorithm : str or sequence of str, optional
        Only this algorithm, or these (``NCCL_ALGO``): names in ``tuning.NCCL_ALGORITHMS``.
    protocol : str or sequence of str, optional
        Only this protocol, or these (``NCCL_PROTO``): ``"LL"``, ``"LL128"``, ``"Simple"``.

    Returns
    -------
    NcclCollective

    Raises
    ------
    ValueError
        For an unknown collective, algorithm or protocol (the message lists the
        valid ones), or one NCCL would not run on this machine (the message says why).

    References
    ----------
    NVIDIA, NCCL ``src/graph/tuning.cc``, ``src/graph/search.cc``, ``src/enqueue.cc``
    (2.30-dev, commit 5067397c). https://github.com/NVIDIA/nccl

    Examples
    --------
    Eight H100: NVLink SHARP for large all-reduces, LL for small ones

    >>> from interconnect_lab.collectives.system import collective_system
    >>> h100 = collective_system("H100 SXM")
    >>> big = nccl_collective("all_reduce", 8 * 2**30, h100)
    >>> big.algorithm, round(big.bus_bandwidth_bytes_per_s / 1e9)
    ('nvls', 480)
    >>> nccl_collective("all_reduce", 4096, h100).protocol
    'LL'
    """
    check_choice("collective", collective, NCCL_COLLECTIVES + POINT_TO_POINT_COLLECTIVES)
    if not isinstance(system, CollectiveSystem):
        raise TypeError(f"system must be a CollectiveSystem, got {system!r}")
    if collective in POINT_TO_POINT_COLLECTIVES:
        return _point_to_point_result(collective, size_bytes, system, algorithm, protocol)
    algorithm = _check_forced("algorithm", algorithm, _ALGORITHMS_OF[collective])
    protocol = _check_forced("protocol", protocol, tuning.PROTOCOLS)
    size = np.asarray(check_number("size_bytes", size_bytes, unit="B", minimum=0, maximum=1e30), dtype=float)
    graphs = search_graphs(system)
    allowed = tuple((c.algorithm, c.protocol) for c in algorithm_costs(collective, system)
                    if (algorithm is None or c.algorithm in algorithm) and (protocol is None or c.protocol in protocol))
    table = _cost_table(collective, system, allowed)
    costs = table.costs
    if all(c.unavailable for c in costs):
        reasons = "; ".join(dict.fromkeys(c.unavailable for c in costs))
        raise ValueError(f"NCCL would not run {collective} with algorithm={algorithm!r}, protocol={protocol!r} "
                         f"on {system.name or 'this system'}: {reasons}")
    estimates, times = _candidate_times(table, size)
    best = np.argmin(estimates, axis=0)  # NCCL keeps the first on a tie
    time = np.take_along_axis(times, best[None], axis=0)[0]
    names = np.array([c.algorithm for c in costs])[best]
    protocols = np.array([c.protocol for c in costs])[best]
    channels = np.zeros_like(size)
    for i, c in enumerate(costs):
        if not c.unavailable:
            channels = np.where(best == i, _channels_run(system, graphs, c.algorithm, c.protocol, size), channels)
    return _result(collective, system, size, names, protocols, channels, time, costs, times, best)


def _result(collective, system, size, names, protocols, channels, time, costs, times, best):
    from .algorithms import bus_bandwidth_factor

    with np.errstate(divide="ignore", invalid="ignore"):
        algbw = np.where(time > 0, size / np.where(time > 0, time, 1.0), np.where(size > 0, np.inf, 0.0))
    factor = bus_bandwidth_factor(collective, system.ranks)
    busbw = algbw * factor if factor > 0 else np.zeros_like(algbw)  # one rank: nothing crosses a bus
    candidates = tuple(
        Candidate(c.algorithm, c.protocol, _scalar(t),
                  c.unavailable or ("chosen" if np.any(best == i) else "slower"))
        for i, (c, t) in enumerate(zip(costs, times)))
    scalar = np.ndim(size) == 0
    return NcclCollective(
        collective=collective, system=system, size_bytes=_scalar(size),
        algorithm=str(names) if scalar else names, protocol=str(protocols) if scalar else protocols,
        channels=int(channels) if scalar else channels.astype(int), time_s=_scalar(time),
        algorithm_bandwidth_bytes_per_s=_scalar(algbw), bus_bandwidth_bytes_per_s=_scalar(busbw),
        candidates=candidates)


def _scalar(value):
    return float(value) if np.ndim(value) == 0 else np.asarray(value, dtype=float)


def _point_to_point_result(collective, size_bytes, system, algorithm, protocol):
    """All-to-all and send/recv: NCCL runs them as point-to-point pairs, nothing to choose."""
    _check_forced("algorithm", algorithm, ("p2p",))
    _check_forced("protocol", protocol, ("Simple",))
    r = point_to_point(collective, size_bytes, system)
    scalar = np.ndim(r.size_bytes) == 0
    channels = 1 if system.ranks == 1 else min(graphs_channels(system), tuning.MAX_CHANNELS)
    return NcclCollective(
        collective=collective, system=system, size_bytes=r.size_bytes,
        algorithm="p2p" if scalar else np.full(np.shape(r.size_bytes), "p2p"),
        protocol="Simple" if scalar else np.full(np.shape(r.size_bytes), "Simple"),
        channels=channels if scalar else np.full(np.shape(r.size_bytes), channels), time_s=r.time_s,
        algorithm_bandwidth_bytes_per_s=r.algorithm_bandwidth_bytes_per_s,
        bus_bandwidth_bytes_per_s=r.bus_bandwidth_bytes_per_s,
        candidates=(Candidate("p2p", "Simple", r.time_s, "chosen"),))


def graphs_channels(system):
    """Channels NCCL's communicator runs on ``system`` (point-to-point uses them too)."""
    return search_graphs(system).channels
