"""RDMA: what the kernel, the CPU and host memory cost on a message's data path, and what GPUDirect saves.

Two questions, two halves of the module.

**Host to host.** A message of S bytes goes from an application's buffer on one
host to an application's buffer on another, through kernel TCP or through RDMA
(:data:`STACKS`). Its one-way time is the α-β form

.. math::

    t(S) = t_0 + \\frac{S}{R}, \\qquad
    R = \\min\\left(\\eta B_\\text{link},\\ c\\, r_\\text{core}\\right)\\ \\text{(kernel TCP)},
    \\qquad R = \\eta B_\\text{link}\\ \\text{(RDMA)}

with :math:`t_0` the size-independent latency (software at both ends, both
NICs, switches and cables: :func:`host_latency` builds it from
:data:`interconnect_lab.published.LATENCY_ESTIMATES` with
:func:`interconnect_lab.topology.path_latency`), :math:`\\eta B_\\text{link}` the
usable port rate, and :math:`c\\, r_\\text{core}` what :math:`c` CPU cores per end
can push through the kernel (one core: about 42 Gb/s in the best case,
:data:`interconnect_lab.published.KERNEL_TCP_PER_CORE`). Copies are pipelined
with the wire in chunks, as both stacks do for large messages, so the slowest
stage sets the rate. RDMA makes no copy and runs no kernel code per message: the
NIC moves the bytes by DMA from and to registered application memory.

**GPU to GPU.** The message starts and ends in GPU memory. With **GPUDirect
RDMA** the NIC reads and writes GPU memory over PCIe itself; without it the data
is *staged* through a buffer in host memory (:data:`GPU_PATHS`). Each path is a
chain of segments (the network port, PCIe links, a PCIe switch's uplink to the
CPU, host memory, the link between CPU sockets), each with a capacity per
direction and a *load*: how many times one byte of the transfer crosses it in
that direction, times the GPUs sharing it. The pipelined rate is the tightest
segment,

.. math::

    R = \\min_i \\frac{C_i}{L_i}, \\qquad
    t(S) = t_0 + t_\\text{staging}(S) + \\frac{S}{R},

and staging adds the time to copy the first chunk into host memory at the sender
and the last one out at the receiver, :math:`2\\min(S, S_\\text{chunk})/C_\\text{PCIe}`.

Examples
--------
A 1 GiB message over a 400 Gb/s port, kernel TCP against RDMA:

>>> from interconnect_lab import units as u
>>> port = 400 * u.Gbit_per_s
>>> tcp = host_transfer(1 * u.GiB, "kernel TCP", link_bytes_per_s=port,
...                     latency_s=host_latency("kernel TCP").total_s)
>>> rdma = host_transfer(1 * u.GiB, "RDMA", link_bytes_per_s=port,
...                      latency_s=host_latency("RDMA").total_s)
>>> tcp.limited_by, round(tcp.rate_bytes_per_s / u.GB_per_s, 2), rdma.limited_by
('CPU', 5.25, 'network port')
>>> round(tcp.cores_to_fill_link, 1), rdma.cores_to_fill_link
(9.1, 0.0)

Every GPU of a DGX H100 socket sending and receiving at once, GPUDirect against staging:

>>> from interconnect_lab import catalog
>>> gdr = gpu_transfer(1 * u.GiB, "GPUDirect RDMA", nic=catalog.nic("ConnectX-7"),
...                    gpus_sharing_host=4, bidirectional=True)
>>> staged = gpu_transfer(1 * u.GiB, "staged through host memory", nic=catalog.nic("ConnectX-7"),
...                       gpus_sharing_host=4, bidirectional=True)
>>> gdr.limited_by, round(gdr.rate_bytes_per_s / u.GB_per_s)
('network port', 48)
>>> staged.limited_by, round(staged.rate_bytes_per_s / u.GB_per_s, 1)
('host memory', 19.2)

References
----------
InfiniBand Trade Association, InfiniBand Architecture Specification Volume 1,
Release 1.6, 2022 (queue pairs, verbs, transport services).
https://www.infinibandta.org/ibta-specification/

NVIDIA, RDMA Aware Networks Programming User Manual, v1.7.
https://docs.nvidia.com/networking/display/rdmaawareprogrammingv17

NVIDIA, GPUDirect RDMA (CUDA documentation), §3.4 Supported Systems.
https://docs.nvidia.com/cuda/gpudirect-rdma/

Q. Cai et al., "Understanding Host Network Stack Overheads", SIGCOMM 2021.
https://doi.org/10.1145/3452296.3472888
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from types import MappingProxyType

import numpy as np

from . import catalog
from . import units as u
from ._validation import check_choice, check_integer, check_number
from .collectives import NETWORK_EFFICIENCY, send_recv_time
from .published import KERNEL_TCP_PER_CORE, LATENCY_ESTIMATES
from .sources import Source
from .topology import PathLatency, path_latency

__all__ = [
    "CASES", "MOVERS", "Hop", "Stack", "STACKS", "host_latency", "HostTransfer", "host_transfer",
    "PATH_TYPES", "NCCL_NET_GDR_LEVEL_DEFAULT", "nccl_uses_gpudirect",
    "NCCL_BUFFSIZE_DEFAULT_BYTES", "NCCL_STEPS", "NCCL_CHUNK_BYTES", "NCCL_SOURCES",
    "SEGMENTS", "Segment", "GpuPath", "GPU_PATHS", "GpuTransfer", "gpu_transfer",
    "host_memory_traffic",
]

#: The three ends of the published latency ranges: every part at its fastest ("best"), at the
#: middle of its range ("central") or at its slowest ("worst").
CASES = ("best", "central", "worst")
_ESTIMATE_END = {"best": "low", "central": "central", "worst": "high"}

#: Who moves the bytes at each hop of a route: the CPU (a copy in software), the NIC or the GPU
#: (a DMA engine).
MOVERS = ("CPU", "NIC", "GPU")


@dataclass(frozen=True, kw_only=True)
class Hop:
    """One hop of a route from the sender's buffer to the wire.

    Attributes
    ----------
    place : str
        Where the data sits before the hop.
    mover : str
        Who moves it on: one of :data:`MOVERS`.
    how : str
        What the move is, in a few words.
    """

    place: str
    mover: str
    how: str

    def __post_init__(self):
        check_choice("mover", self.mover, MOVERS)


# Host to host: kernel TCP and RDMA -------------------------------------------------------------

@dataclass(frozen=True, kw_only=True)
class Stack:
    """A host network stack, described by what it does to each byte.

    Attributes
    ----------
    name : str
    kernel_on_data_path : bool
        The operating system's network stack runs for every message.
    cpu_copies_per_end : int
        Times the CPU copies each payload byte at each end [-].
    host_memory_bytes_per_byte : int
        Bytes of host-memory traffic per payload byte at each end, at most (caches
        may absorb some) [-]: a CPU copy reads and writes, a NIC's DMA reads or writes.
    route : tuple of Hop
        The sender's side, from the application's buffer to the wire; the receiver
        mirrors it.
    """

    name: str
    kernel_on_data_path: bool
    cpu_copies_per_end: int
    host_memory_bytes_per_byte: int
    route: tuple


#: The two host stacks, by name.
STACKS = MappingProxyType({
    "kernel TCP": Stack(
        name="kernel TCP", kernel_on_data_path=True, cpu_copies_per_end=1,
        host_memory_bytes_per_byte=3,  # the copy reads and writes; the NIC's DMA reads
        route=(Hop(place="application buffer", mover="CPU", how="system call, copy"),
               Hop(place="kernel socket buffer", mover="NIC", how="DMA read")),
    ),
    "RDMA": Stack(
        name="RDMA", kernel_on_data_path=False, cpu_copies_per_end=0,
        host_memory_bytes_per_byte=1,  # only the NIC's DMA
        route=(Hop(place="registered buffer", mover="NIC", how="DMA read"),),
    ),
})


def _estimate(part, case):
    check_choice("case", case, CASES)
    return LATENCY_ESTIMATES[part].at(_ESTIMATE_END[case])


def host_latency(stack, *, case="central", switch_hops=0, switch_latency_s=0.0, link_latency_s=0.0):
    """The size-independent one-way latency of a small message through a host stack.

    Software at both ends (posting and picking up the message, plus the kernel's
    TCP/IP stack for kernel TCP) and both NICs, from the published per-part
    estimates, and the fabric in between:

    .. math::

        t_0 = 2\\,t_\\text{post} + [t_\\text{kernel}] + 2\\,t_\\text{NIC}
              + n\\,t_\\text{switch} + (n+1)\\,t_\\text{link}

    Parameters
    ----------
    stack : str
        A name in :data:`STACKS`.
    case : str
        ``"best"``, ``"central"`` or ``"worst"`` end of the published ranges (:data:`CASES`).
    switch_hops : int
        Switches crossed, >= 0 (0: hosts cabled back to back).
    switch_latency_s : float
        One switch's port-to-port latency [s].
    link_latency_s : float
        One cable's latency [s].

    Returns
    -------
    interconnect_lab.topology.PathLatency

    Notes
    -----
    The per-part figures are secondary estimates
    (:data:`interconnect_lab.published.LATENCY_DISSECTION_SOURCE`); the kernel
    stack's range covers one trip, both ends together.

    Examples
    --------
    >>> from interconnect_lab import units as u
    >>> round(host_latency("RDMA").total_s / u.us, 2), round(host_latency("kernel TCP").total_s / u.us, 2)
    (2.2, 22.2)
    """
    check_choice("stack", stack, STACKS)
    software = 2 * _estimate("application post or receive", case)
    if STACKS[stack].kernel_on_data_path:
        software += _estimate("kernel TCP/IP stack", case)
    return path_latency(switch_hops, software_s=software,
                        nic_s=2 * _estimate("NIC transmit or receive path (RDMA)", case),
                        switch_latency_s=switch_latency_s, link_latency_s=link_latency_s)


@dataclass(frozen=True, kw_only=True)
class HostTransfer:
    """A message through a host stack: its time and what it costs the hosts.

    Attributes
    ----------
    stack : str
    size_bytes : float or numpy.ndarray
        Message size S [B].
    latency_s : float
        Size-independent one-way latency :math:`t_0` [s].
    rate_bytes_per_s : float
        Pipelined rate R: the slower of the usable port rate and what the CPU
        cores copy [B/s].
    limited_by : str
        ``"network port"`` or ``"CPU"``.
    time_s : float or numpy.ndarray
        One-way time :math:`t_0 + S/R` [s].
    effective_bandwidth_bytes_per_s : float or numpy.ndarray
        S / t [B/s].
    cpu_s_per_byte : float
        CPU time spent per payload byte at each end, for large messages [s/B]; 0 for
        RDMA, whose CPU work is per message, not per byte.
    cores_to_fill_link : float
        CPU cores kept busy at each end to run the port at its usable rate in one
        direction [-].
    host_memory_bytes_per_byte : int
        Bytes of host-memory traffic per payload byte at each end, at most [-].
    """

    stack: str
    size_bytes: float | np.ndarray
    latency_s: float
    rate_bytes_per_s: float
    limited_by: str
    time_s: float | np.ndarray
    effective_bandwidth_bytes_per_s: float | np.ndarray
    cpu_s_per_byte: float
    cores_to_fill_link: float
    host_memory_bytes_per_byte: int

    def cycles_per_byte(self, clock_hz):
        """CPU cycles per payload byte at each end, on a core at ``clock_hz`` [Hz] [-]."""
        return self.cpu_s_per_byte * check_number("clock_hz", clock_hz, unit="Hz", minimum=0,
                                                  min_inclusive=False)


def host_transfer(size_bytes, stack, *, link_bytes_per_s, latency_s, efficiency=NETWORK_EFFICIENCY,
                  core_bytes_per_s=KERNEL_TCP_PER_CORE.bytes_per_s_per_core, cores_per_end=1):
    """One-way time of an S-byte message through kernel TCP or RDMA, and its CPU cost.

    .. math::

        t(S) = t_0 + S/R, \\qquad R = \\min(\\eta B, c\\, r_\\text{core})

    (the CPU term only for kernel TCP), computed with
    :func:`interconnect_lab.collectives.send_recv_time`.

    Parameters
    ----------
    size_bytes : float or array_like
        Message size S [B], >= 0.
    stack : str
        A name in :data:`STACKS`.
    link_bytes_per_s : float
        Port rate B, one direction [B/s], >= 1.
    latency_s : float
        Size-independent one-way latency :math:`t_0` [s], >= 0 (e.g. from :func:`host_latency`).
    efficiency : float
        Usable share η of the port rate, in [0.001, 1] [-]; NCCL's 0.96 by default.
    core_bytes_per_s : float
        What one CPU core moves through the kernel's TCP stack [B/s], >= 1; by default
        the best case measured by Cai et al. (about 42 Gb/s, one long flow).
    cores_per_end : int
        CPU cores working on the transfer at each end, in [1, 1e6] (kernel TCP only; one
        TCP flow is processed by one core at the receiver).

    Returns
    -------
    HostTransfer

    Notes
    -----
    The per-core rate is a best case: Cai et al. measured it for one long flow
    with every offload on, and other traffic patterns cost more cycles per byte,
    so the kernel TCP costs here are lower bounds. The CPU work RDMA does per
    message (posting a work request, polling a completion) is in :math:`t_0`.

    References
    ----------
    Q. Cai et al., "Understanding Host Network Stack Overheads", SIGCOMM 2021, §1, §3.1.
    https://doi.org/10.1145/3452296.3472888

    Examples
    --------
    >>> from interconnect_lab import units as u
    >>> t = host_transfer(4096, "RDMA", link_bytes_per_s=50 * u.GB_per_s, latency_s=2 * u.us)
    >>> round(t.time_s / u.us, 3), t.cpu_s_per_byte
    (2.085, 0.0)
    """
    check_choice("stack", stack, STACKS)
    link = check_number("link_bytes_per_s", link_bytes_per_s, unit="B/s", minimum=1, scalar=True)
    latency = check_number("latency_s", latency_s, unit="s", minimum=0, scalar=True)
    eta = check_number("efficiency", efficiency, minimum=1e-3, maximum=1, scalar=True)
    core = check_number("core_bytes_per_s", core_bytes_per_s, unit="B/s", minimum=1, scalar=True)
    cores = check_integer("cores_per_end", cores_per_end, minimum=1, maximum=10 ** 6)
    spec = STACKS[stack]
    port = eta * link
    if spec.cpu_copies_per_end:
        cpu_rate = cores * core
        rate, limited_by = (cpu_rate, "CPU") if cpu_rate < port else (port, "network port")
        cpu_s_per_byte = 1.0 / core
    else:
        rate, limited_by, cpu_s_per_byte = port, "network port", 0.0
    size = check_number("size_bytes", size_bytes, unit="B", minimum=0)
    time = send_recv_time(size, rate, latency, base_latency_s=0.0, efficiency=1.0)
    return HostTransfer(
        stack=stack, size_bytes=size, latency_s=latency, rate_bytes_per_s=rate, limited_by=limited_by,
        time_s=time, effective_bandwidth_bytes_per_s=_bandwidth(size, time),
        cpu_s_per_byte=cpu_s_per_byte, cores_to_fill_link=port * cpu_s_per_byte,
        host_memory_bytes_per_byte=spec.host_memory_bytes_per_byte,
    )


def _bandwidth(size, time):
    with np.errstate(divide="ignore", invalid="ignore"):
        result = np.where(np.asarray(time) > 0, np.asarray(size) / np.where(np.asarray(time) > 0, time, 1.0), 0.0)
    return float(result) if np.ndim(result) == 0 else result


def host_memory_traffic(bytes_per_byte, *, rate_bytes_per_s, nics=1, bidirectional=True):
    """Host-memory traffic needed to run ``nics`` ports at ``rate_bytes_per_s`` [B/s].

    .. math:: M = m \\cdot N \\cdot R \\cdot (2\\ \\text{if both directions})

    with m the bytes of host-memory traffic per payload byte at one end
    (:attr:`Stack.host_memory_bytes_per_byte`, :attr:`GpuTransfer.host_memory_bytes_per_byte`).
    Compare it with the host memory's bandwidth, which reads and writes share.

    Parameters
    ----------
    bytes_per_byte : float
        m [-], in [0, 100].
    rate_bytes_per_s : float
        Rate of each port, one direction [B/s], in [0, 1e18].
    nics : int
        Ports N, in [1, 1024].
    bidirectional : bool
        Each port sends and receives at that rate at once.

    Examples
    --------
    >>> from interconnect_lab import units as u
    >>> host_memory_traffic(3, rate_bytes_per_s=50 * u.GB_per_s, nics=8) / u.GB_per_s
    2400.0
    """
    m = check_number("bytes_per_byte", bytes_per_byte, minimum=0, maximum=100, scalar=True)
    rate = check_number("rate_bytes_per_s", rate_bytes_per_s, unit="B/s", minimum=0, maximum=1e18, scalar=True)
    n = check_integer("nics", nics, minimum=1, maximum=1024)
    return m * n * rate * (2 if bidirectional else 1)


# GPU to GPU: GPUDirect RDMA and staging -------------------------------------------------------

#: NCCL's path types between two devices, nearest first, as ``nvidia-smi topo -m`` and NCCL's logs
#: print them (NCCL's ``src/graph/topo.h``): LOC itself, NVL NVLink, NVB NVLink through another
#: GPU, C2C a CPU-GPU chip-to-chip link, PIX at most one PCIe bridge (one switch), PXB several
#: PCIe bridges without the CPU, P2C through C2C to the CPU then PCIe, PXN through another GPU, PHB
#: through a CPU's PCIe host bridge, SYS across the link between CPU sockets. (``nvidia-smi`` also
#: prints NODE, between host bridges inside one NUMA node; NCCL counts it as PHB.)
PATH_TYPES = ("LOC", "NVL", "NVB", "C2C", "PIX", "PXB", "P2C", "PXN", "PHB", "SYS")

#: The farthest GPU-NIC path type over which NCCL uses GPUDirect RDMA by default on a PCIe host
#: (``ncclTopoCheckGdr``: PXB; on Grace systems P2C, the CPU's C2C link then PCIe).
NCCL_NET_GDR_LEVEL_DEFAULT = "PXB"

#: NCCL's default buffer per connection and protocol "Simple" [B] (``NCCL_BUFFSIZE``).
NCCL_BUFFSIZE_DEFAULT_BYTES = 4 * u.MiB
#: Slots the buffer is divided into; each step moves one slot (``NCCL_STEPS`` in ``device.h``) [-].
NCCL_STEPS = 8
#: The chunk one step moves: the granularity at which staging through host memory is pipelined [B].
NCCL_CHUNK_BYTES = NCCL_BUFFSIZE_DEFAULT_BYTES / NCCL_STEPS

#: Where the NCCL defaults above come from.
NCCL_SOURCES = MappingProxyType({
    "NCCL_NET_GDR_LEVEL_DEFAULT": Source(
        title="NVIDIA NCCL source code: src/graph/paths.cc (ncclTopoCheckGdr)", year=2026,
        url=("https://github.com/NVIDIA/nccl/blob/04cdb808a1072d24b1b87b1f712d072aff2e9bf2/"
             "src/graph/paths.cc"),
        note="'int netGdrLevel = ncclParamNetGdrC2c() ? PATH_P2C : PATH_PXB'; GPUDirect RDMA is disabled "
             "when the GPU-NIC distance exceeds it unless NCCL_NET_GDR_LEVEL says otherwise"),
    "NCCL_BUFFSIZE_DEFAULT_BYTES": Source(
        title="NVIDIA, NCCL User Guide: Environment Variables (NCCL_BUFFSIZE, NCCL_NET_GDR_LEVEL)",
        year=2026, url="https://docs.nvidia.com/deeplearning/nccl/user-guide/docs/env.html",
        note="'The default is 4194304 (4 MiB)'; GDR levels LOC, PIX, PXB, PHB, SYS"),
    "NCCL_STEPS": Source(
        title="NVIDIA NCCL source code: src/include/device.h", year=2025,
        url="https://github.com/NVIDIA/nccl/blob/master/src/include/device.h",
        note="#define NCCL_STEPS 8"),
})


def nccl_uses_gpudirect(path_type, *, gdr_level=NCCL_NET_GDR_LEVEL_DEFAULT):
    """Whether NCCL uses GPUDirect RDMA between a GPU and a NIC this far apart.

    NCCL enables it when the path type is no farther than ``gdr_level``
    (``NCCL_NET_GDR_LEVEL``; ``"LOC"`` disables it), provided the NIC and the GPU
    support it.

    Parameters
    ----------
    path_type : str
        The GPU-NIC path type, one of :data:`PATH_TYPES` (``"NODE"`` is read as ``"PHB"``).
    gdr_level : str
        The threshold, one of :data:`PATH_TYPES`.

    Examples
    --------
    >>> [nccl_uses_gpudirect(level) for level in ("PIX", "PXB", "PHB", "SYS")]
    [True, True, False, False]
    >>> nccl_uses_gpudirect("SYS", gdr_level="SYS")
    True
    """
    path_type = "PHB" if path_type == "NODE" else path_type
    check_choice("path_type", path_type, PATH_TYPES)
    check_choice("gdr_level", gdr_level, PATH_TYPES)
    if gdr_level == "LOC":
        return False
    return PATH_TYPES.index(path_type) <= PATH_TYPES.index(gdr_level)


#: The segments a GPU-to-network transfer can cross, in the order figures show them.
SEGMENTS = ("network port", "NIC's PCIe link", "GPU's PCIe link", "PCIe switch uplink", "host memory",
            "inter-socket link")


@dataclass(frozen=True, kw_only=True)
class Segment:
    """One segment of a path: its capacity and how often a transferred byte crosses it.

    Attributes
    ----------
    name : str
        One of :data:`SEGMENTS`.
    capacity_bytes_per_s : float
        Capacity [B/s]: per direction for links, reads and writes together for host memory.
    load : float
        Bytes crossing it (in its busiest direction, for links) per byte each GPU sends
        in one direction, summed over the GPUs sharing it [-].
    """

    name: str
    capacity_bytes_per_s: float
    load: float

    @property
    def rate_bytes_per_s(self) -> float:
        """What this segment allows each GPU to send, one direction [B/s]."""
        return math.inf if self.load == 0 else self.capacity_bytes_per_s / self.load


@dataclass(frozen=True, kw_only=True)
class GpuPath:
    """A way for a GPU's data to reach the network.

    The machine: each GPU shares a PCIe switch with a NIC, and the switch has one
    uplink to its CPU, as in an 8-GPU server with one NIC per GPU.

    Attributes
    ----------
    name : str
    path_type : str
        Distance between the GPU and the NIC it uses, as ``nvidia-smi topo -m``
        prints it (one of :data:`PATH_TYPES`).
    gpudirect : bool
        The NIC reads and writes GPU memory itself.
    crosses_sockets : bool
        The NIC hangs off the other CPU socket.
    route : tuple of Hop
        The sender's side, from GPU memory to the wire.
    """

    name: str
    path_type: str
    gpudirect: bool
    crosses_sockets: bool
    route: tuple

    def __post_init__(self):
        check_choice("path_type", self.path_type, PATH_TYPES)


#: The three paths, by name.
GPU_PATHS = MappingProxyType({
    "GPUDirect RDMA": GpuPath(
        name="GPUDirect RDMA", path_type="PIX", gpudirect=True, crosses_sockets=False,
        route=(Hop(place="GPU memory", mover="NIC", how="DMA read via the PCIe switch"),),
    ),
    "staged through host memory": GpuPath(
        name="staged through host memory", path_type="PIX", gpudirect=False, crosses_sockets=False,
        route=(Hop(place="GPU memory", mover="GPU", how="copy up the uplink"),
               Hop(place="bounce buffer in host memory", mover="NIC", how="DMA read down the uplink")),
    ),
    "staged, NIC on the other socket": GpuPath(
        name="staged, NIC on the other socket", path_type="SYS", gpudirect=False, crosses_sockets=True,
        route=(Hop(place="GPU memory", mover="GPU", how="copy into host memory"),
               Hop(place="bounce buffer in host memory", mover="NIC", how="DMA read across sockets")),
    ),
})


@dataclass(frozen=True, kw_only=True)
class GpuTransfer:
    """A message from GPU memory to GPU memory over one path: rate, time and bottleneck.

    Attributes
    ----------
    path : str
        A name in :data:`GPU_PATHS`.
    size_bytes : float or numpy.ndarray
        Message size S [B].
    segments : tuple of Segment
        The segments crossed, in the order of :data:`SEGMENTS`.
    rate_bytes_per_s : float
        Pipelined rate, the tightest segment [B/s].
    limited_by : str
        The name of that segment.
    latency_s : float
        Size-independent one-way latency of the network part :math:`t_0` [s].
    staging_latency_s : float or numpy.ndarray
        Added by copying the first chunk into and the last chunk out of host memory [s].
    time_s : float or numpy.ndarray
        One-way time [s].
    effective_bandwidth_bytes_per_s : float or numpy.ndarray
        S / t [B/s].
    host_memory_bytes_per_byte : int
        Bytes of host-memory traffic per payload byte at each end [-].
    path_type : str
        GPU-NIC distance, as ``nvidia-smi topo -m`` prints it.
    nccl_default_gpudirect : bool
        Whether NCCL would use GPUDirect RDMA over this distance by default.
    """

    path: str
    size_bytes: float | np.ndarray
    segments: tuple
    rate_bytes_per_s: float
    limited_by: str
    latency_s: float
    staging_latency_s: float | np.ndarray
    time_s: float | np.ndarray
    effective_bandwidth_bytes_per_s: float | np.ndarray
    host_memory_bytes_per_byte: int
    path_type: str
    nccl_default_gpudirect: bool

    def segment(self, name):
        """The segment called ``name``, or None if this path does not cross it."""
        check_choice("segment name", name, SEGMENTS)
        return next((s for s in self.segments if s.name == name), None)


_DDR5_ONE_SOCKET = catalog.memory_tier("Host DDR5 (one Xeon socket)")


def gpu_transfer(size_bytes, path, *, nic, pcie_bytes_per_s=None, latency_s=None,
                 host_memory_bytes_per_s=_DDR5_ONE_SOCKET.bandwidth_bytes_per_s,
                 inter_socket_bytes_per_s=None, gpus_sharing_host=1, bidirectional=False,
                 efficiency=NETWORK_EFFICIENCY, chunk_bytes=NCCL_CHUNK_BYTES):
    """One-way time and rate of an S-byte message from GPU memory to GPU memory over a path.

    .. math::

        R = \\min_i C_i / L_i, \\qquad
        t(S) = t_0 + 2\\,[\\text{staged}]\\,\\frac{\\min(S, S_\\text{chunk})}{C_\\text{stage}} + \\frac{S}{R}

    Loads per byte one GPU sends (in brackets: when it also receives at the same
    rate), multiplied by the GPUs sharing a segment:

    ========================  ===============  ===============  ======================
    segment                   GPUDirect        staged           staged, other socket
    ========================  ===============  ===============  ======================
    network port (η B)        1                1                1
    NIC's PCIe link           1                1                1
    GPU's PCIe link           1                1                1
    PCIe switch uplink        –                1 (2)            1
    host memory (shared)      –                2 (4) × GPUs     2 (4) × GPUs
    inter-socket link         –                –                1 × GPUs
    ========================  ===============  ===============  ======================

    Staged through the GPU's own switch, each byte goes up the uplink to host
    memory and back down it to the NIC: in both directions at once, each
    direction of the uplink carries two bytes per byte sent. Host memory is
    written and read once per byte at each end; its bandwidth is shared by
    reads and writes and by every GPU of the socket.

    Parameters
    ----------
    size_bytes : float or array_like
        Message size S [B], >= 0.
    path : str
        A name in :data:`GPU_PATHS`.
    nic : interconnect_lab.catalog.NIC
        The network adapter (port rate B).
    pcie_bytes_per_s : float, optional
        Data rate of every PCIe x16 link on the path, one direction [B/s]; by default
        that of the NIC's host link.
    latency_s : float, optional
        Size-independent one-way latency of the network part :math:`t_0` [s]; by
        default :func:`host_latency` of RDMA, back to back, central estimates.
    host_memory_bytes_per_s : float
        Bandwidth of one socket's host memory, reads and writes together [B/s]; by
        default the catalog's DDR5 socket.
    inter_socket_bytes_per_s : float, optional
        Capacity of the link between the sockets, one direction [B/s]; required for
        a path that crosses sockets.
    gpus_sharing_host : int
        GPUs of one socket transferring at once through its host memory (and across
        sockets), >= 1.
    bidirectional : bool
        Every GPU also receives at the rate it sends.
    efficiency : float
        Usable share η of the port rate, in (0, 1] [-].
    chunk_bytes : float
        Pipelining granularity of staging [B], > 0; NCCL's step by default.

    Returns
    -------
    GpuTransfer

    Notes
    -----
    The model counts bytes, not handshakes: staging also needs the GPU and the CPU
    proxy to signal each other per chunk, which adds microseconds the model leaves
    out, and GPUDirect through a CPU's root complex or across sockets can be far
    slower than the links suggest ("may be extremely performance-limited or even
    not work reliably" across sockets, NVIDIA's GPUDirect RDMA documentation,
    §3.4). PCIe switch latencies are left out.

    References
    ----------
    NVIDIA, GPUDirect RDMA (CUDA documentation), §3.4 Supported Systems.
    https://docs.nvidia.com/cuda/gpudirect-rdma/

    Examples
    --------
    >>> from interconnect_lab import catalog, units as u
    >>> cx8 = catalog.nic("ConnectX-8")
    >>> gen5 = catalog.link("PCIe Gen5 x16").per_direction_bytes_per_s
    >>> t = gpu_transfer(1 * u.GiB, "GPUDirect RDMA", nic=cx8, pcie_bytes_per_s=gen5)
    >>> t.limited_by, round(t.rate_bytes_per_s / u.GB_per_s, 1)   # an 800 Gb/s NIC in a Gen5 slot
    ("NIC's PCIe link", 63.0)
    """
    check_choice("path", path, GPU_PATHS)
    spec = GPU_PATHS[path]
    if not isinstance(nic, catalog.NIC):
        raise TypeError(f"nic must be a catalog NIC (e.g. catalog.nic('ConnectX-7')), got {nic!r}")
    if pcie_bytes_per_s is None:
        if nic.host_link is None:
            raise ValueError(f"pcie_bytes_per_s is needed: the catalog gives no host link for {nic.name!r} "
                             "(its vendor has not published one); pass the NIC's PCIe rate per direction [B/s]")
        pcie_bytes_per_s = catalog.link(nic.host_link).per_direction_bytes_per_s
    pcie = check_number("pcie_bytes_per_s", pcie_bytes_per_s, unit="B/s", minimum=0, min_inclusive=False)
    memory = check_number("host_memory_bytes_per_s", host_memory_bytes_per_s, unit="B/s", minimum=0,
                          min_inclusive=False)
    gpus = check_integer("gpus_sharing_host", gpus_sharing_host, minimum=1)
    eta = check_number("efficiency", efficiency, minimum=0, maximum=1, min_inclusive=False)
    chunk = check_number("chunk_bytes", chunk_bytes, unit="B", minimum=0, min_inclusive=False)
    if not isinstance(bidirectional, (bool, np.bool_)):
        raise TypeError(f"bidirectional must be True or False, got {bidirectional!r}")
    if latency_s is None:
        latency_s = host_latency("RDMA").total_s
    latency = check_number("latency_s", latency_s, unit="s", minimum=0)
    both = 2 if bidirectional else 1

    segments = [Segment(name="network port", capacity_bytes_per_s=eta * nic.per_direction_bytes_per_s, load=1),
                Segment(name="NIC's PCIe link", capacity_bytes_per_s=pcie, load=1),
                Segment(name="GPU's PCIe link", capacity_bytes_per_s=pcie, load=1)]
    stage_rate = pcie
    if not spec.gpudirect:
        uplink_load = 1 if spec.crosses_sockets else both
        segments += [Segment(name="PCIe switch uplink", capacity_bytes_per_s=pcie, load=uplink_load),
                     Segment(name="host memory", capacity_bytes_per_s=memory, load=2 * both * gpus)]
        if spec.crosses_sockets:
            if inter_socket_bytes_per_s is None:
                raise ValueError(f"path {path!r} crosses sockets: give inter_socket_bytes_per_s, the capacity "
                                 "of the link between the CPU sockets, one direction [B/s]")
            inter = check_number("inter_socket_bytes_per_s", inter_socket_bytes_per_s, unit="B/s",
                                 minimum=0, min_inclusive=False)
            segments.append(Segment(name="inter-socket link", capacity_bytes_per_s=inter, load=gpus))
            stage_rate = min(pcie, inter)
    tightest = min(segments, key=lambda s: s.rate_bytes_per_s)
    rate = tightest.rate_bytes_per_s

    size = check_number("size_bytes", size_bytes, unit="B", minimum=0)
    staging = 0.0 if spec.gpudirect else 2 * np.minimum(size, chunk) / stage_rate
    staging = float(staging) if np.ndim(staging) == 0 else staging
    time = send_recv_time(size, rate, latency, base_latency_s=0.0, efficiency=1.0) + staging
    return GpuTransfer(
        path=path, size_bytes=size, segments=tuple(segments), rate_bytes_per_s=rate,
        limited_by=tightest.name, latency_s=latency, staging_latency_s=staging, time_s=time,
        effective_bandwidth_bytes_per_s=_bandwidth(size, time),
        host_memory_bytes_per_byte=0 if spec.gpudirect else 2,
        path_type=spec.path_type, nccl_default_gpudirect=nccl_uses_gpudirect(spec.path_type),
    )
