"""What NCCL runs over a grid of message sizes and node counts: the choice map of chapter 7.

For each node count, :func:`nccl_collective` is asked for the whole range of
sizes at once; the map keeps, for every (node count, size), the algorithm
and protocol NCCL's tuner picks, the channels it runs and the time, algbw
and busbw. Where the choice changes between two neighbouring sizes of the
grid, the size at which it changes is found again on finer grids, so a
*crossover* is placed to within a few parts in ten thousand, not to the
grid's step.

Nothing here prices anything: every number comes from :func:`nccl_collective`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._validation import check_choice
from .nccl import NCCL_COLLECTIVES, nccl_collective
from .point_to_point import POINT_TO_POINT_COLLECTIVES
from .system import CollectiveSystem

__all__ = ["DEFAULT_NODES", "DEFAULT_SIZES_BYTES", "Crossover", "ChoiceMap", "nccl_choice_map"]

#: Node counts of a map unless given: 1 to 1,024 NVLink domains, powers of two.
DEFAULT_NODES = tuple(2**k for k in range(11))

#: Message sizes of a map unless given: 8 B to 16 GiB, four per power of two [B].
DEFAULT_SIZES_BYTES = 2.0 ** np.arange(3.0, 34.0 + 1e-9, 0.25)

#: Points of each finer grid a crossover is searched on, and how many grids (2 x 64 points place a
#: crossover between two sizes a factor r apart to within r**(1/4096)).
_REFINE_POINTS, _REFINE_ROUNDS = 64, 2


@dataclass(frozen=True)
class Crossover:
    """Where NCCL's choice changes as the message grows, at one node count.

    Attributes
    ----------
    nodes : int
        NVLink domains.
    size_bytes : float
        Smallest size at which ``after`` runs [B] (to within a few parts in ten thousand).
    before, after : tuple of str
        (algorithm, protocol) below and from ``size_bytes``.
    """

    nodes: int
    size_bytes: float
    before: tuple[str, str]
    after: tuple[str, str]


@dataclass(frozen=True, eq=False)
class ChoiceMap:
    """What NCCL runs for one collective over sizes and node counts, and how fast.

    Arrays are indexed ``[row, column]``: one row per node count, one column per size.

    Attributes
    ----------
    collective : str
        The collective.
    system : CollectiveSystem
        The machine; each row is ``system.with_nodes(nodes)``.
    nodes : tuple of int
        Node counts, increasing.
    size_bytes : numpy.ndarray
        Message sizes as nccl-tests counts them, increasing [B].
    algorithm, protocol : numpy.ndarray of str
        What NCCL runs; both empty where the communicator has one rank (nothing to exchange).
    channels : numpy.ndarray of int
        Channels it runs.
    time_s : numpy.ndarray
        Time [s].
    algorithm_bandwidth_bytes_per_s, bus_bandwidth_bytes_per_s : numpy.ndarray
        algbw and busbw as nccl-tests defines them [B/s] (0 for one rank).
    crossovers : tuple of Crossover
        Every change of choice along each row, by row then size.
    """

    collective: str
    system: CollectiveSystem
    nodes: tuple
    size_bytes: np.ndarray
    algorithm: np.ndarray
    protocol: np.ndarray
    channels: np.ndarray
    time_s: np.ndarray
    algorithm_bandwidth_bytes_per_s: np.ndarray
    bus_bandwidth_bytes_per_s: np.ndarray
    crossovers: tuple

    def row(self, nodes) -> int:
        """Index of the row of ``nodes`` domains (raises ValueError naming the node counts of the map)."""
        if nodes not in self.nodes:
            raise ValueError(f"nodes = {nodes!r} is not a row of this map; its rows are {list(self.nodes)}")
        return self.nodes.index(nodes)

    def choices(self) -> tuple:
        """The (algorithm, protocol) pairs the map shows, in order of first appearance by row then size."""
        pairs = dict.fromkeys((a, p) for a, p in zip(self.algorithm.ravel(), self.protocol.ravel()) if a)
        return tuple((str(a), str(p)) for a, p in pairs)

    def crossovers_at(self, nodes) -> tuple:
        """The crossovers of the row of ``nodes`` domains, smallest size first."""
        self.row(nodes)
        return tuple(c for c in self.crossovers if c.nodes == nodes)

    def bus_bandwidth_limits(self, nodes) -> dict:
        """The rates the busbw of the row of ``nodes`` domains is measured against [B/s].

        - ``"nvlink"``: one GPU's NVLink, one direction, as NCCL counts it (absent without NVLink or
          with one GPU per domain);
        - ``"ports"`` (more than one domain): for all-reduce, all-gather and reduce-scatter, the
          line rate of all of one domain's ports together, which bounds a ring across domains (each
          channel enters and leaves every domain once, so a domain's ports carry as much as one GPU's
          NVLink: busbw <= min(NVLink, ports); trees and in-network reduction can exceed it); for
          all-to-all and send/recv, one GPU's port, times ``N / (N - 1)`` on ``N`` domains for
          all-to-all (a cross-domain pair uses one port: NVIDIA/nccl-tests #130 and #267).
        """
        self.row(nodes)
        system = self.system.with_nodes(nodes)
        limits = {}
        if system.nvlink_bytes_per_s > 0 and system.gpus_per_node > 1:
            limits["nvlink"] = system.nvlink_bytes_per_s
        if nodes > 1:
            if self.collective in POINT_TO_POINT_COLLECTIVES:
                port = min(system.nics_per_gpu, 1.0) * system.nic_bytes_per_s
                limits["ports"] = port * (nodes / (nodes - 1) if self.collective == "all_to_all" else 1.0)
            else:
                limits["ports"] = system.nics_per_node * system.nic_bytes_per_s
        return limits

    def segments(self, nodes) -> tuple:
        """The row of ``nodes`` domains as runs of one choice: ``(algorithm, protocol, first size, last size)``
        [B], with the boundaries at the crossovers (the first run starts at the smallest size of the map,
        the last ends at its largest)."""
        index = self.row(nodes)
        algorithm, protocol = self.algorithm[index], self.protocol[index]
        if not algorithm[0]:
            return ()
        bounds = [float(self.size_bytes[0])] + [c.size_bytes for c in self.crossovers_at(nodes)] \
            + [float(self.size_bytes[-1])]
        pairs = [(str(algorithm[0]), str(protocol[0]))] + [c.after for c in self.crossovers_at(nodes)]
        return tuple((a, p, low, high) for (a, p), low, high in zip(pairs, bounds[:-1], bounds[1:]))


def _choice(result, index):
    return str(result.algorithm[index]), str(result.protocol[index])


def _next_crossover(collective, system, low, high, before):
    """The first size in (low, high] where NCCL's choice is no longer ``before``: (size, new choice)."""
    for _ in range(_REFINE_ROUNDS):
        grid = np.geomspace(low, high, _REFINE_POINTS + 1)
        result = nccl_collective(collective, grid, system)
        changed = np.flatnonzero((result.algorithm != before[0]) | (result.protocol != before[1]))
        first = int(changed[0])
        low, high, after = float(grid[first - 1]), float(grid[first]), _choice(result, first)
    return high, after


def _row_crossovers(collective, system, nodes, sizes, result):
    crossovers = []
    for j in range(sizes.size - 1):
        before, target = _choice(result, j), _choice(result, j + 1)
        low = float(sizes[j])
        # Two changes may fall between neighbouring sizes of the grid: follow them one by one.
        while before != target:
            size, after = _next_crossover(collective, system, low, float(sizes[j + 1]), before)
            crossovers.append(Crossover(nodes, size, before, after))
            before, low = after, size
    return crossovers


def _check_nodes(nodes):
    if isinstance(nodes, (str, bytes)) or not hasattr(nodes, "__iter__"):
        raise TypeError(f"nodes must be a sequence of node counts, got {nodes!r}")
    values = tuple(nodes)
    if not values:
        raise ValueError("nodes must hold at least one node count")
    for value in values:
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or not 1 <= value <= 2**20:
            raise ValueError(f"nodes holds {value!r}; node counts are integers in [1, {2**20:,}]")
    if any(b <= a for a, b in zip(values, values[1:])):
        raise ValueError(f"nodes = {list(values)} must increase strictly")
    return tuple(int(v) for v in values)


def _check_sizes(sizes):
    try:
        values = np.asarray(sizes, dtype=float)
    except (TypeError, ValueError):
        raise TypeError(f"size_bytes must be a sequence of sizes [B], got {sizes!r}") from None
    if values.ndim != 1 or values.size < 2:
        raise ValueError(f"size_bytes must be a 1-D sequence of at least two sizes [B], got shape {values.shape}")
    if not np.all(np.isfinite(values)) or values.min() < 1 or values.max() > 1e30:
        raise ValueError("size_bytes must hold finite sizes in [1, 1e30] B")
    if np.any(np.diff(values) <= 0):
        raise ValueError("size_bytes must increase strictly")
    return values


def nccl_choice_map(collective, system: CollectiveSystem, *, nodes=DEFAULT_NODES,
                    size_bytes=DEFAULT_SIZES_BYTES) -> ChoiceMap:
    """What NCCL runs for ``collective`` on ``system`` over message sizes and node counts.

    Each row is :func:`nccl_collective` on ``system.with_nodes(n)`` for every size;
    the crossovers between neighbouring sizes are then placed on finer grids.

    Parameters
    ----------
    collective : str
        One of ``interconnect_lab.collectives.NCCL_COLLECTIVES``, ``"all_to_all"`` or ``"send_recv"``.
    system : CollectiveSystem
        The machine (its ``nodes`` is replaced by each node count).
    nodes : sequence of int, optional
        Node counts, strictly increasing, in [1, 2**20]; 1 to 1,024 by powers of two by default.
    size_bytes : sequence of float, optional
        Message sizes, strictly increasing, in [1, 1e30] B; 8 B to 16 GiB, four per power of
        two, by default.

    Returns
    -------
    ChoiceMap

    Raises
    ------
    ValueError
        For an unknown collective (the message lists the valid ones), bad node counts or
        sizes, or a machine that cannot span several nodes (no network port).

    Examples
    --------
    Eight H100 per node on InfiniBand NDR: the all-reduce on two nodes starts on the tree with
    the LL protocol and ends on NVLSTree

    >>> from interconnect_lab.collectives.system import collective_system
    >>> m = nccl_choice_map("all_reduce", collective_system("H100 SXM"), nodes=(1, 2))
    >>> [(a, p) for a, p, _, _ in m.segments(2)]
    [('tree', 'LL'), ('tree', 'LL128'), ('nvls_tree', 'Simple')]
    >>> m.crossovers_at(2)[-1].size_bytes > 2**21
    True
    """
    check_choice("collective", collective, NCCL_COLLECTIVES + POINT_TO_POINT_COLLECTIVES)
    if not isinstance(system, CollectiveSystem):
        raise TypeError(f"system must be a CollectiveSystem, got {system!r}")
    nodes = _check_nodes(nodes)
    sizes = _check_sizes(size_bytes)
    shape = (len(nodes), sizes.size)
    algorithm, protocol = np.full(shape, "", dtype=object), np.full(shape, "", dtype=object)
    channels = np.zeros(shape, dtype=int)
    time, algbw, busbw = np.zeros(shape), np.zeros(shape), np.zeros(shape)
    crossovers = []
    for i, count in enumerate(nodes):
        machine = system.with_nodes(count)
        if machine.ranks == 1:  # nothing to exchange: the row stays empty
            continue
        result = nccl_collective(collective, sizes, machine)
        algorithm[i], protocol[i] = result.algorithm, result.protocol
        channels[i], time[i] = result.channels, result.time_s
        algbw[i], busbw[i] = result.algorithm_bandwidth_bytes_per_s, result.bus_bandwidth_bytes_per_s
        crossovers += _row_crossovers(collective, machine, count, sizes, result)
    return ChoiceMap(collective=collective, system=system, nodes=nodes, size_bytes=sizes,
                     algorithm=algorithm.astype(str), protocol=protocol.astype(str), channels=channels, time_s=time,
                     algorithm_bandwidth_bytes_per_s=algbw, bus_bandwidth_bytes_per_s=busbw,
                     crossovers=tuple(crossovers))
