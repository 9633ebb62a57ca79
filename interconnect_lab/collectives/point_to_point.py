"""All-to-all and send/receive as NCCL runs them: point-to-point pairs, bounded by each GPU's port.

NCCL has no all-to-all algorithm: ``ncclAlltoAll`` (and nccl-tests'
``alltoall_perf``) becomes one send and one receive per peer, grouped into one
launch (``enqueue.cc``). Each rank of ``n`` sends ``S / n`` to every peer:

- to the ``ppn - 1`` peers of its own NVLink domain over NVLink;
- to the ``n - ppn`` peers of other domains through the network. A
  cross-node pair uses one NIC, and PXN forwards the data over NVLink to the
  GPU whose NIC sits on the destination's rail, so a GPU's network traffic
  is bounded by its own share of the node's ports: "Alltoall cannot aggregate
  the bandwidth of multiple NICs" (S. Jeaugey, NVIDIA/nccl-tests #267).

Both run at once on separate channels, so the slower sets the pace:

.. math::

    t = \\ell + \\max\\left(\\frac{S (ppn - 1) / n}{B_\\text{NVLink}},\\;
                          \\frac{S (n - ppn) / n}{\\eta\\, B_\\text{port} \\cdot \\text{ports per GPU}}\\right)

and busbw = algbw (n - 1)/n tends to ``N/(N - 1)`` times a GPU's port rate
across ``N`` domains, as NCCL's maintainers state it (nccl-tests #130).

The latency ``ℓ``: one launch (NCCL's Simple base latency) and one NVLink hop
(its Simple ring hop latency over NVLink: every local peer is served at once);
across nodes, one network hop (its Simple network hop latency) and one network
post per remote peer, sent and received, by the host proxy thread, which posts
them one after the other (NCCL's ``getNetOverhead``, 1 µs on Intel and Arm
hosts, 2 µs on AMD).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .. import units as u
from .._validation import check_choice, check_number
from ..sources import NCCL_TESTS_ISSUE_119
from . import tuning
from .system import CollectiveSystem

__all__ = ["POINT_TO_POINT_COLLECTIVES", "PointToPoint", "point_to_point", "NETWORK_EFFICIENCY",
           "ALLTOALL_SOURCES"]

#: The exchanges NCCL runs as point-to-point pairs.
POINT_TO_POINT_COLLECTIVES = ("all_to_all", "send_recv")

#: Share of a port's line rate a point-to-point stream reaches [-]: NCCL's maintainers take 24 GB/s
#: as the peak of a 200 Gb/s NIC (nccl-tests #119) and "46-48 GB/s per NIC" at 400 Gb/s (#290).
NETWORK_EFFICIENCY = 0.96

_ISSUE_267 = NCCL_TESTS_ISSUE_119.__class__(
    title="NVIDIA/nccl-tests issue #267: alltoall busbw across nodes", year=2024,
    url="https://github.com/NVIDIA/nccl-tests/issues/267",
    note="S. Jeaugey: 'Alltoall cannot aggregate the bandwidth of multiple NICs'")
_ISSUE_130 = NCCL_TESTS_ISSUE_119.__class__(
    title="NVIDIA/nccl-tests issue #130: alltoall bus bandwidth", year=2023,
    url="https://github.com/NVIDIA/nccl-tests/issues/130",
    note="S. Jeaugey: 'busBW = N/(N-1) x the network bandwidth per GPU, N being the number of nodes'")

#: Where the all-to-all model's mechanisms come from.
ALLTOALL_SOURCES = (tuning.NCCL_P2P_SOURCE, _ISSUE_267, _ISSUE_130, NCCL_TESTS_ISSUE_119, tuning.NCCL_TUNING_SOURCE)


@dataclass(frozen=True)
class PointToPoint:
    """An all-to-all or send/receive priced as NCCL runs it.

    Attributes
    ----------
    collective : str
        ``"all_to_all"`` or ``"send_recv"``.
    system : CollectiveSystem
        The machine.
    size_bytes : float or numpy.ndarray
        nccl-tests' size: one rank's whole send buffer (all-to-all) or the message [B].
    time_s, latency_s : float or numpy.ndarray
        Time, and its size-independent part [s].
    nvlink_bytes, network_bytes : float or numpy.ndarray
        Bytes one rank sends over NVLink and through the network [B].
    bottleneck : str
        ``"network"`` or ``"nvlink"``: which side sets the pace.
    algorithm_bandwidth_bytes_per_s, bus_bandwidth_bytes_per_s : float or numpy.ndarray
        algbw = size / time, busbw = algbw x (n - 1)/n (1 for send/recv) [B/s].
    """

    collective: str
    system: CollectiveSystem
    size_bytes: float | np.ndarray
    time_s: float | np.ndarray
    latency_s: float
    nvlink_bytes: float | np.ndarray
    network_bytes: float | np.ndarray
    bottleneck: str
    algorithm_bandwidth_bytes_per_s: float | np.ndarray
    bus_bandwidth_bytes_per_s: float | np.ndarray

    @property
    def algorithm(self) -> str:
        """NCCL's name for what runs: point-to-point pairs."""
        return "p2p"

    @property
    def protocol(self) -> str:
        """Simple: NCCL's point-to-point transfers above its LL threshold."""
        return "Simple"


def _latency_s(system, collective):
    simple = tuning.PROTOCOLS.index("Simple")
    base = tuning.BASE_LATENCY_US["ring"][simple]
    nvlink_hop = tuning.HOP_LATENCY_US["nvlink" if system.nvlink_bytes_per_s > 0 else "pci"]["ring"][simple]
    post = tuning.NET_OVERHEAD_US[system.cpu]
    network_hop = tuning.HOP_LATENCY_US["net"]["ring"][simple]
    if collective == "send_recv":
        return (base + (network_hop + 2 * post if system.nodes > 1 else nvlink_hop)) * u.us
    remote = system.ranks - system.gpus_per_node
    across = network_hop + 2 * remote * post if remote else 0.0
    return (base + (nvlink_hop if system.gpus_per_node > 1 else 0.0) + across) * u.us


def point_to_point(collective, size_bytes, system: CollectiveSystem) -> PointToPoint:
    """Time and bandwidths of an all-to-all or a send/receive as NCCL runs it.

    Parameters
    ----------
    collective : str
        ``"all_to_all"`` or ``"send_recv"`` (between two ranks in different domains
        when there are several, else over NVLink).
    size_bytes : float or array_like
        One rank's whole send buffer (all-to-all; each peer gets ``1/n`` of it) or
        the message (send/recv) [B], in [0, 1e30].
    system : CollectiveSystem
        The machine.

    Returns
    -------
    PointToPoint

    Examples
    --------
    Two nodes of eight H100, one 400 Gb/s port per GPU: busbw is twice a port's rate

    >>> from interconnect_lab.collectives.system import collective_system
    >>> r = point_to_point("all_to_all", 8 * 2**30, collective_system("H100 SXM", nodes=2))
    >>> r.bottleneck, round(r.bus_bandwidth_bytes_per_s / 1e9, 1)
    ('network', 90.0)
    """
    check_choice("collective", collective, POINT_TO_POINT_COLLECTIVES)
    if not isinstance(system, CollectiveSystem):
        raise TypeError(f"system must be a CollectiveSystem, got {system!r}")
    size = np.asarray(check_number("size_bytes", size_bytes, unit="B", minimum=0, maximum=1e30), dtype=float)
    n, ppn = system.ranks, system.gpus_per_node
    port = NETWORK_EFFICIENCY * system.nic_bytes_per_s * min(system.nics_per_gpu, 1.0) if system.nodes > 1 else 0.0
    if collective == "send_recv":
        across = system.nodes > 1
        nvlink_bytes, network_bytes = (0.0 * size, size) if across else (size, 0.0 * size)
    else:
        nvlink_bytes, network_bytes = size * (ppn - 1) / n, size * (n - ppn) / n
    nvlink_rate = system.nvlink_bytes_per_s if system.nvlink_bytes_per_s > 0 else np.inf
    nvlink_s = nvlink_bytes / nvlink_rate
    network_s = network_bytes / port if port > 0 else 0.0 * size
    latency = _latency_s(system, collective)
    time = latency + np.maximum(nvlink_s, network_s)
    with np.errstate(divide="ignore", invalid="ignore"):
        algbw = np.where(time > 0, size / time, 0.0)
    factor = (n - 1) / n if collective == "all_to_all" else 1.0
    scalar = np.ndim(size) == 0
    out = (lambda x: float(x)) if scalar else (lambda x: np.asarray(x, dtype=float))
    bottleneck = "network" if np.all(network_s >= nvlink_s) and system.nodes > 1 else "nvlink"
    return PointToPoint(collective=collective, system=system, size_bytes=out(size), time_s=out(time),
                        latency_s=latency, nvlink_bytes=out(nvlink_bytes), network_bytes=out(network_bytes),
                        bottleneck=bottleneck, algorithm_bandwidth_bytes_per_s=out(algbw),
                        bus_bandwidth_bytes_per_s=out(algbw * factor))
