"""What NCCL's topology search finds: channels and per-channel speeds of each pattern.

Before it prices anything, NCCL searches the machine for *channels*: rings,
trees and NVLS groups that each run at one per-channel speed taken from a
short list (``search.cc``). The number of channels times that speed is the
bandwidth its cost model starts from. This module reproduces the outcome of
that search for the machines the book describes (GPUs joined by NVSwitch, one
or more network ports per node), without NCCL's path-by-path search:

- a channel at speed ``s`` uses ``s`` of every GPU's NVLink it crosses and,
  across nodes, ``s`` of one network port in each direction, so a port of
  rate ``B`` carries ``floor(B / s)`` channels;
- across nodes, a ring channel enters each node on one GPU and leaves it on
  another, so each GPU's NVLink carries ``(ppn - 1) / ppn`` of the channels;
  patterns other than the ring may use ``ppn / (ppn - 1)`` of the NVLink
  total (``search.cc``: "algo other than RING do not need to close to the
  starting NET");
- the search starts at the fastest listed speed no single path exceeds, then
  tries slower speeds while they are above 0.49 of the best found, keeps the
  graph with the most ``channels x speed`` (the first on a tie), then tries
  faster speeds at that channel count (ring; for trees on two nodes, only the
  speed inside the node, up to twice the network's; for NVLS, the network
  side, up to twice the NVLink side);
- a fast graph is doubled into twice the channels at half the speed, except
  on Hopper and later below 50 GB/s per channel with more than four channels
  (``ncclTopoDupChannels``); the communicator then runs twice the graph's
  channels (``ncclTopoPostset``), and twice again on Hopper and later across
  nodes when the ring's speed is above 45 GB/s and it has fewer than 16.
"""

from __future__ import annotations

import dataclasses
import functools
import math
from dataclasses import dataclass

from .. import units as u
from . import tuning
from .system import CollectiveSystem

__all__ = ["Graph", "Graphs", "search_graphs"]


@dataclass(frozen=True)
class Graph:
    """One pattern's channels as the search leaves them.

    Attributes
    ----------
    channels : int
        Channels of the graph (NCCL's ``graph->nChannels``).
    intra_bytes_per_s, inter_bytes_per_s : float
        Speed of one channel inside a node and across nodes (``bwIntra``, ``bwInter``) [B/s].
    """

    channels: int
    intra_bytes_per_s: float
    inter_bytes_per_s: float


@dataclass(frozen=True)
class Graphs:
    """The graphs of one machine, and the channels its communicator runs.

    Attributes
    ----------
    ring, tree : Graph
        Ring and tree graphs (PAT runs on the tree's).
    nvls : Graph or None
        NVLink SHARP graph; None without NVSwitch or before Hopper.
    collnet : Graph or None
        CollNet (SHARP) graph; None without in-network reduction.
    channels : int
        Channels the communicator runs (``comm->nChannels``).
    """

    ring: Graph
    tree: Graph
    nvls: Graph | None
    collnet: Graph | None
    channels: int


def _speeds(system):
    intra, inter = tuning.SEARCH_SPEEDS_GBPS[system.architecture]
    return intra if system.nodes == 1 else inter


def _capacity(system, speed, *, ring):
    """Channels at ``speed`` [GB/s] that every link can carry."""
    nvlink = system.nvlink_bytes_per_s / u.GB_per_s
    ppn = system.gpus_per_node
    if system.nodes == 1:
        total = nvlink if ring or ppn == 1 else nvlink * ppn / (ppn - 1)
        return math.floor(total / speed + 1e-9)
    nic = system.nic_bytes_per_s / u.GB_per_s
    ports = system.nics_per_node * math.floor(nic / speed + 1e-9)
    if ppn == 1 or nvlink == 0:
        return ports
    return min(ports, math.floor(nvlink * ppn / (ppn - 1) / speed + 1e-9))


def _max_path_gbps(system):
    if system.nodes == 1:
        return system.nvlink_bytes_per_s / u.GB_per_s
    return system.nic_bytes_per_s / u.GB_per_s


def _search(system, *, ring, min_channels=1, max_channels=tuning.RING_MAX_CHANNELS):
    """Channels and speed: the most ``channels x speed`` over the speeds the search tries."""
    speeds = _speeds(system)
    start = next((i for i, s in enumerate(speeds) if s <= _max_path_gbps(system)), len(speeds) - 1)
    best, index = None, start
    while index < len(speeds):
        speed = speeds[index]
        channels = min(max_channels, _capacity(system, speed, ring=ring))
        if channels >= min_channels and (best is None or channels * speed > best[0] * best[1] + 1e-9):
            best = (channels, speed, index)
        nxt = index + 1
        if nxt >= len(speeds) or (best is not None and speeds[nxt] / best[1] <= 0.49):
            break
        index = nxt
    if best is None:
        return min_channels, speeds[-1], len(speeds) - 1
    channels, speed, index = best
    if ring:  # pass 2: faster channels, as many of them
        while index > 0 and _capacity(system, speeds[index - 1], ring=True) >= channels:
            index -= 1
        speed = speeds[index]
        channels = min(max_channels, _capacity(system, speed, ring=True))
    return channels, speed, index


def _duplicate(system, channels, speed, max_channels):
    """``ncclTopoDupChannels``: twice the channels at half the speed, for fast graphs."""
    hopper_or_later = system.architecture in ("hopper", "blackwell")
    if speed < 25.0 or (hopper_or_later and speed < 50.0 and channels > 4):
        return channels, speed
    doubled = min(2 * channels, max_channels)
    return doubled, speed / math.ceil(doubled / channels)


def _raise_within(system, speed, limit, channels, fits):
    """Pass 2 for trees and NVLS: step up the speed list while below ``limit`` and the channels fit."""
    speeds = _speeds(system)
    index = speeds.index(speed)
    while index > 0 and speeds[index] < limit and fits(speeds[index - 1], channels):
        index -= 1
    return speeds[index]


def _ring(system):
    channels, speed, _ = _search(system, ring=True)
    channels, speed = _duplicate(system, channels, speed, tuning.RING_MAX_CHANNELS)
    return Graph(channels, speed * u.GB_per_s, speed * u.GB_per_s)


def _tree(system, ring):
    """Same channel count as the ring; on two nodes the NVLink side may run up to twice the network's."""
    channels = ring.channels
    speeds = _speeds(system)
    speed = next((s for s in speeds if s <= _max_path_gbps(system)
                  and _capacity(system, s, ring=False) >= channels), speeds[-1])
    intra = speed
    if system.nodes == 2:
        intra = _raise_within(system, speed, 2 * speed, channels, lambda s, n: _nvlink_capacity(system, s) >= n)
    return Graph(channels, intra * u.GB_per_s, speed * u.GB_per_s)


def _nvlink_capacity(system, speed):
    """Channels at ``speed`` [GB/s] one node's NVLink carries for a pattern other than the ring."""
    nvlink = system.nvlink_bytes_per_s / u.GB_per_s
    ppn = system.gpus_per_node
    return math.floor(nvlink * ppn / max(ppn - 1, 1) / speed + 1e-9)


def _nvls(system):
    """NVLS groups: one per GPU of the domain (at most 32), all pulled evenly.

    The NVLink side runs at the speed one domain's search finds; across
    domains each group's head also sends through a port of its own, at the
    port's listed speed (its ``bwInter``), so there are no more groups than
    ports: NCCL's search gives each NVLS channel a NIC no other head uses
    (``ncclTopoSearchRecNet``, ``graph->nChannels < netCount``).
    """
    if system.architecture not in ("hopper", "blackwell") or not system.nvswitch or system.gpus_per_node < 2:
        return None
    domain = dataclasses.replace(system, nodes=1)
    heads = min(tuning.MAX_NVLS_ARITY, system.gpus_per_node)
    if system.nodes > 1:
        heads = min(heads, system.nics_per_node)
    channels, speed, _ = _search(domain, ring=False, min_channels=heads, max_channels=heads)
    if system.nodes == 1:
        inter = _raise_within(domain, speed, 2 * speed, channels, lambda s, n: True)
        return Graph(channels, speed * u.GB_per_s, inter * u.GB_per_s)
    speeds = _speeds(system)
    inter = next((s for s in speeds if s <= _max_path_gbps(system)), speeds[-1])
    return Graph(channels, speed * u.GB_per_s, inter * u.GB_per_s)


def _collnet(system, ring):
    """CollNet (SHARP): one channel per head GPU with a port; the NVLink side up to twice the network's."""
    if not system.sharp or system.nodes < 2:
        return None
    heads = min(tuning.MAX_DIRECT_ARITY, system.gpus_per_node, system.nics_per_node)
    speeds = _speeds(system)
    speed = next((s for s in speeds if s <= _max_path_gbps(system)), speeds[-1])

    intra = _raise_within(system, speed, 2 * speed, heads, lambda s, n: _nvlink_capacity(system, s) >= n)
    return Graph(heads, intra * u.GB_per_s, speed * u.GB_per_s)


@functools.lru_cache(maxsize=4096)
def search_graphs(system: CollectiveSystem) -> Graphs:
    """The graphs NCCL's search leaves for ``system``, and its communicator's channel count.

    Examples
    --------
    Eight H100 in one node: 12 ring channels of 30 GB/s (360 GB/s), NVLS at 50 GB/s per group

    >>> from interconnect_lab.collectives.system import collective_system
    >>> g = search_graphs(collective_system("H100 SXM"))
    >>> g.ring.channels, g.ring.intra_bytes_per_s / 1e9, g.nvls.intra_bytes_per_s / 1e9, g.channels
    (12, 30.0, 50.0, 24)

    Two nodes: one 48 GB/s channel per 400 Gb/s port

    >>> g = search_graphs(collective_system("H100 SXM", nodes=2))
    >>> g.ring.channels, g.ring.inter_bytes_per_s / 1e9, g.channels
    (8, 48.0, 16)
    """
    ring = _ring(system)
    tree = _tree(system, ring)
    channels = min(tuning.MAX_CHANNELS, 2 * min(ring.channels, tree.channels))
    if (system.architecture in ("hopper", "blackwell") and system.nodes > 1
            and ring.intra_bytes_per_s > 45 * u.GB_per_s and channels < 16):
        channels = min(tuning.MAX_CHANNELS, 2 * channels)
    return Graphs(ring=ring, tree=tree, nvls=_nvls(system), collnet=_collnet(system, ring), channels=channels)
