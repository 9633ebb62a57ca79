"""Host memory, CXL and host network stacks: measured transfer rates, latencies and per-core rates."""

from __future__ import annotations

from dataclasses import dataclass

from .. import units as u
from ..sources import MLENG_NETWORK, Source
from ..sources import POND

__all__ = ["HostTransferMeasurement", "HOST_DEVICE_TRANSFER", "MemoryLatencyMeasurement",
           "CXL_LATENCY_MEASUREMENTS", "CAI_2021", "KALIA_2019", "StackThroughput", "KERNEL_TCP_PER_CORE",
           "ERPC_PER_CORE", "INTER_SOCKET_LINK_BYTES_PER_S", "INTER_SOCKET_LINK_SOURCE"]


# Host memory and CXL: measured transfer rates and latencies (chapter 3) -------------------


@dataclass(frozen=True, kw_only=True)
class HostTransferMeasurement:
    """A copy between host memory and a GPU, measured, as its source states it.

    Attributes
    ----------
    system : str
        What was measured.
    link : str
        Catalog name of the GPU's host link.
    per_direction_bytes_per_s : float
        Measured rate in one direction [B/s].
    source : Source
    """

    system: str
    link: str
    per_direction_bytes_per_s: float
    source: Source


#: Host-to-device copies on 8 H200 with PCIe Gen5 x16: 55.4 GB/s per direction, 88% of the
#: link's 63 GB/s data rate.
HOST_DEVICE_TRANSFER = HostTransferMeasurement(
    system="8x H200 SXM, host <-> device copy", link="PCIe Gen5 x16",
    per_direction_bytes_per_s=55.4 * u.GB_per_s,
    source=MLENG_NETWORK.at("PCIe", note="secondary: host<->device measured at 55.4 GB/s per "
                                         "direction on 8 x H200, 88% of the 63 GB/s of PCIe Gen5 x16"))


@dataclass(frozen=True, kw_only=True)
class MemoryLatencyMeasurement:
    """A published range for the load latency of CXL-attached memory.

    Attributes
    ----------
    study : str
        Who measured, and on what.
    quantity : str
        ``"added"``: latency CXL adds over local DRAM [s]; ``"load"``: load-to-use
        latency of CXL memory itself [s].
    low_s, high_s : float
        The range [s].
    source : Source
    """

    study: str
    quantity: str
    low_s: float
    high_s: float
    source: Source


#: Pond (ASPLOS 2023): CXL adds 70-90 ns over same-NUMA-node DRAM for pools of 8-16 sockets.
#: Melody (ASPLOS 2025): four real CXL devices on five CPU platforms, 140-410 ns.
CXL_LATENCY_MEASUREMENTS: tuple[MemoryLatencyMeasurement, ...] = (
    MemoryLatencyMeasurement(
        study="Pond: CXL pool of 8-16 sockets, over same-NUMA-node DRAM", quantity="added",
        low_s=70 * u.ns, high_s=90 * u.ns,
        source=POND.at("§1", note="'CXL will add 70-90ns to access latencies over same-NUMA-node DRAM "
                                  "with a pool size of 8-16 sockets'")),
    MemoryLatencyMeasurement(
        study="Melody: 4 CXL devices, 5 CPU platforms", quantity="load",
        low_s=140 * u.ns, high_s=410 * u.ns,
        source=Source(title=("J. Liu et al., Systematic CXL Memory Characterization and Performance "
                             "Analysis at Scale (Melody), ASPLOS 2025"),
                      year=2025, doi="10.1145/3676641.3715987", locator="abstract",
                      note="'4 real CXL devices, 7 latency levels, and 5 CPU platforms'; "
                           "'sub-us CXL latencies (140-410ns)'")),
)


# Host network stacks: what one CPU core moves -------------------------------------------------


CAI_2021 = Source(
    title=("Q. Cai, S. Chaudhary, M. Vuppalapati, J. Hwang, R. Agarwal, Understanding Host Network "
           "Stack Overheads, SIGCOMM 2021"),
    year=2021, doi="10.1145/3452296.3472888",
    note="PDF: https://www.cs.cornell.edu/~ragarwal/pubs/network-stack.pdf",
)

KALIA_2019 = Source(
    title="A. Kalia, M. Kaminsky, D. G. Andersen, Datacenter RPCs can be General and Fast, NSDI 19",
    year=2019, url="https://www.usenix.org/conference/nsdi19/presentation/kalia",
    note="arXiv:1806.00680",
)


@dataclass(frozen=True, kw_only=True)
class StackThroughput:
    """What one CPU core moves through a network stack, as measured.

    Attributes
    ----------
    stack : str
        The software stack measured.
    bytes_per_s_per_core : float
        Throughput one fully busy core sustains for large transfers [B/s].
    scenario : str
        The conditions of the measurement, as the source states them.
    messages_per_s_per_core : float or None
        Small messages one core handles per second, where measured [1/s].
    data_copy_share_of_cycles : float or None
        Lower bound on the share of CPU cycles spent copying data, where measured [-].
    clock_hz : float or None
        Clock of the CPU measured, where stated [Hz].
    link_bytes_per_s : float or None
        Rate of the network link of the testbed, one direction [B/s].
    source : Source
    """

    stack: str
    bytes_per_s_per_core: float
    scenario: str
    messages_per_s_per_core: float | None = None
    data_copy_share_of_cycles: float | None = None
    clock_hz: float | None = None
    link_bytes_per_s: float | None = None
    source: Source


#: Linux kernel TCP: "~42Gbps throughput-per-core" for the best case, one long flow with every common
#: NIC offload; copying from kernel to application buffers takes "> 50% of total CPU cycles"; the
#: receiver is the bottleneck. Testbed: Xeon Gold 6128 at 3.4 GHz, 100 Gbps ConnectX-5.
KERNEL_TCP_PER_CORE = StackThroughput(
    stack="Linux kernel TCP", bytes_per_s_per_core=42 * u.Gbit_per_s,
    scenario="best case: one long flow, TSO/GRO, jumbo frames and packet steering enabled",
    data_copy_share_of_cycles=0.5, clock_hz=3.4e9, link_bytes_per_s=100 * u.Gbit_per_s,
    source=CAI_2021.at("§1, §2.2, §3.1", note="'~42Gbps throughput-per-core'; data copy '> 50% of total "
                                              "CPU cycles for a single long flow'; Xeon Gold 6128 3.4GHz, "
                                              "100Gbps ConnectX-5 Ex; Linux 5.4.43"),
)

#: eRPC, a kernel-bypass RPC library in user space: "one CPU core can handle up to 10 million small
#: RPCs per second, or send large messages at 75 Gbps".
ERPC_PER_CORE = StackThroughput(
    stack="eRPC (kernel bypass, user space)", bytes_per_s_per_core=75 * u.Gbit_per_s,
    scenario="microbenchmarks: large messages from one core; small RPCs per core",
    messages_per_s_per_core=10e6,
    source=KALIA_2019.at("abstract"),
)

#: One inter-socket link (Intel UPI at 16 GT/s, Sapphire Rapids) as Intel's Performance Counter
#: Monitor reports it, taken here as one direction [B/s]. An estimate: a tool's printed maximum,
#: not a measured transfer, and the direction is not stated.
INTER_SOCKET_LINK_BYTES_PER_S: float = 35.8 * u.GB_per_s

INTER_SOCKET_LINK_SOURCE = Source(
    title="intel/pcm issue 550: UPI rate read as 17.0 GT/s on Sapphire Rapids (tool output quoted)",
    year=2023, url="https://github.com/intel/pcm/issues/550", estimate=True,
    note=("secondary: PCM prints 'Max UPI link 0 speed: 35.8 GBytes/second (16.0 GT/second)' for each "
          "of the links of a two-socket Sapphire Rapids server; direction not stated"),
)
