"""Memory tiers: HBM, local and remote DRAM, CXL-attached memory."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from .. import units as u
from .._lookup import resolve
from ..sources import MLENG_NETWORK, NVIDIA_GRACE_HOPPER, POND, Source
from ._common import (
    check_member, check_positive_fields, check_sources, check_text, name_table,
)
from .gpus import GPU, GPUS, gpu
from .hosts import HOSTS, Host, host
from .links import LINKS


# MemoryTier -----------------------------------------------------------------------

@dataclass(frozen=True, kw_only=True)
class MemoryTier:
    """A place data can live, seen from the processor that uses it: HBM, DDR, CXL, host memory.

    The book's "the further data travels, the narrower the pipe" compares these.

    Parameters
    ----------
    name : str
        Catalog name, e.g. ``"CXL memory expander (x16)"``.
    bandwidth_bytes_per_s : float
        Peak bandwidth [B/s], in the sense ``bandwidth_direction`` names.
    bandwidth_direction : str
        ``"per direction"`` for a full-duplex link (reads and writes each get this much)
        or ``"total"`` for memory whose reads and writes share one budget (DRAM, HBM).
    latency_s : float or None
        Typical unloaded load-to-use latency where sourced [s].
    capacity_bytes : float or None
        Typical capacity where sourced [B].
    path : str or None
        Catalog name of the link the data crosses (a :class:`Link`), if any.
    sources : tuple of Source
        Where the figures come from.

    Examples
    --------
    >>> from interconnect_lab import catalog, units as u
    >>> hbm = catalog.hbm_tier("H100 SXM")
    >>> host = catalog.memory_tier("Host memory over PCIe Gen5 x16")
    >>> round(hbm.bandwidth_bytes_per_s / host.bandwidth_bytes_per_s)   # the pipe narrows ~50x
    53
    """

    name: str
    bandwidth_bytes_per_s: float
    bandwidth_direction: str
    latency_s: float | None = None
    capacity_bytes: float | None = None
    path: str | None = None
    sources: tuple[Source, ...]

    BANDWIDTH_DIRECTIONS = ("per direction", "total")

    def __post_init__(self):
        check_sources(self)
        check_text(self, "name", "path", optional=("path",))
        check_member(self, "bandwidth_direction", self.BANDWIDTH_DIRECTIONS)
        check_positive_fields(self, [
            ("bandwidth_bytes_per_s", "B/s"), ("latency_s", "s"), ("capacity_bytes", "B"),
        ], allow_none=("latency_s", "capacity_bytes"))


# Memory tiers -------------------------------------------------------------------------

_LOCAL_DRAM_LATENCY = Source(
    title="The Next Platform, Just How Bad Is CXL Memory Latency?", year=2022,
    url="https://www.nextplatform.com/2022/12/05/just-how-bad-is-cxl-memory-latency/",
    note="'the sub-100 nanosecond roundtrip latency you'd expect from DDR memory that's attached "
         "directly the CPU'; stored as 100 ns, a ceiling",
)

MEMORY_TIERS = name_table([
    MemoryTier(
        # The socket of the catalog's 2023 host (catalog.HOSTS): 8 channels x 4,800 MT/s x 8 B = 307.2 GB/s,
        # shared by reads and writes. catalog.host_memory_tier builds the same tier for any other host.
        name="Host DDR5 (one Xeon socket)",
        bandwidth_bytes_per_s=HOSTS["Xeon Platinum 8480C, 8 x DDR5-4800"].memory_bandwidth_bytes_per_s,
        bandwidth_direction="total",
        latency_s=100 * u.ns,
        # Half of the 2 TB (32 x 64 GB DDR5) in NVIDIA's dual-Xeon 8480C, 8-GPU server.
        capacity_bytes=u.TB,
        sources=(
            Source(title="TechInsights (J. Byrne), Sapphire Rapids Scales to 60 CPUs, 8 Sockets", year=2023,
                   url="https://www.techinsights.com/blog/sapphire-rapids-scales-60-cpus-8-sockets",
                   note="4th-generation Xeon (Sapphire Rapids): eight DDR5 DRAM channels per socket"),
            Source(title="VideoCardz (via Gamers Infotech), Intel Sapphire Rapids platform slide", year=2021,
                   url=("https://gamersinfotech.com/2021/04/08/intel-sapphire-rapids-to-feature-up-to-56-"
                        "cores-350w-tdp-and-64gb-of-hbm2-memory-videocardz-com/"),
                   note="secondary: 'DDR5 up to 4800 MHz (1 DIMM per channel)'; peak bandwidth derived "
                        "as 8 x 4,800 MT/s x 8 B; servers with 2 DIMMs per channel may run slower"),
            Source(title="MLCommons Inference v4.1, NVIDIA system description H200-SXM-141GBx8", year=2024,
                   url=("https://raw.githubusercontent.com/mlcommons/inference_results_v4.1/main/"
                        "closed/NVIDIA/systems/H200-SXM-141GBx8_TRT_MaxQ.json"),
                   note="2 x Xeon Platinum 8480C, host memory 2 TB (32 x 64 GB)"),
            _LOCAL_DRAM_LATENCY,
            POND.at("Fig. 4", note="same-NUMA-node DRAM measured at 78 ns and 115 ns on two testbeds"),
        ),
    ),
    MemoryTier(
        name="CXL memory expander (x16)",
        # The link bounds it; the expanders measured so far deliver less.
        bandwidth_bytes_per_s=LINKS["CXL 2.0 x16"].per_direction_bytes_per_s,
        bandwidth_direction="per direction",
        # 100 ns local DRAM + 80 ns, the middle of Pond's 70-90 ns added by CXL.
        latency_s=180 * u.ns,
        path="CXL 2.0 x16",
        sources=(
            POND.at("§1", note="CXL adds 70-90 ns over same-NUMA-node DRAM (pools of 8-16 sockets), "
                               "more than 180 ns for rack-scale pooling"),
            dataclasses.replace(
                POND.at("§1", note="180 ns derived here as 100 ns local DRAM + 80 ns; a secondary "
                                   "summary of arXiv:2405.14209 reports 2-5x local DRAM latency on "
                                   "three real expanders, so treat 180 ns as optimistic"),
                estimate=True),
        ),
    ),
    MemoryTier(
        name="Host memory over PCIe Gen5 x16",
        # Seen from a GPU: the PCIe link, not the DRAM behind it, sets the rate.
        bandwidth_bytes_per_s=LINKS["PCIe Gen5 x16"].per_direction_bytes_per_s,
        bandwidth_direction="per direction",
        capacity_bytes=2 * u.TB,
        path="PCIe Gen5 x16",
        sources=(
            MLENG_NETWORK.at("PCIe", note="63 GB/s per direction for PCIe 5 x16; host<->device measured "
                                          "55.4 GB/s (88%) on 8 x H200"),
            Source(title="MLCommons Inference v4.1, NVIDIA system description H200-SXM-141GBx8", year=2024,
                   url=("https://raw.githubusercontent.com/mlcommons/inference_results_v4.1/main/"
                        "closed/NVIDIA/systems/H200-SXM-141GBx8_TRT_MaxQ.json"),
                   note="host memory 2 TB, shared by the 8 GPUs; GPU host interconnect PCIe Gen5 x16"),
        ),
    ),
    MemoryTier(
        # The memory of one Grace CPU, seen from the CPU. A Grace Hopper superchip's GPU
        # reaches it over NVLink-C2C (450 GB/s per direction).
        name="Grace LPDDR5X (one Grace CPU)",
        bandwidth_bytes_per_s=546 * u.GB_per_s,
        bandwidth_direction="total",
        capacity_bytes=512 * u.GB,
        sources=(NVIDIA_GRACE_HOPPER,),
    ),
])


def memory_tier(name: str) -> MemoryTier:
    """The catalog memory tier called ``name``; an unknown name lists the valid ones.

    Parameters
    ----------
    name : str
        A key of ``catalog.MEMORY_TIERS`` (an unknown name lists the valid ones);
        a MemoryTier itself is returned as it is.

    Examples
    --------
    >>> memory_tier("CXL memory expander (x16)").path
    'CXL 2.0 x16'
    """
    return resolve("memory tier", name, MemoryTier, MEMORY_TIERS)


def hbm_tier(gpu_or_name: GPU | str) -> MemoryTier:
    """The HBM of a GPU as a :class:`MemoryTier`, read from its catalog entry.

    Parameters
    ----------
    gpu_or_name : GPU or str
        A :class:`GPU` (for example a what-if variant) or a catalog GPU name.

    Returns
    -------
    MemoryTier
        Bandwidth [B/s] (``"total"``: reads and writes share it) and capacity [B] of the
        GPU's HBM, with the GPU's sources. Latency is not sourced and left None.

    Examples
    --------
    >>> from interconnect_lab import units as u
    >>> hbm = hbm_tier("H200 SXM")
    >>> hbm.name, hbm.bandwidth_bytes_per_s / u.TB_per_s, hbm.capacity_bytes / u.GB
    ('HBM (H200 SXM)', 4.8, 141.0)
    """
    the_gpu = resolve("gpu_or_name", gpu_or_name, GPU, GPUS, lookup=gpu)
    return MemoryTier(
        name=f"HBM ({the_gpu.name})",
        bandwidth_bytes_per_s=the_gpu.hbm_bandwidth_bytes_per_s,
        bandwidth_direction="total",
        capacity_bytes=the_gpu.hbm_bytes,
        sources=the_gpu.sources,
    )


def host_memory_tier(host_or_name, *, capacity_bytes=None, latency_s=None, sources=()):
    """The memory of one host socket as a :class:`MemoryTier` (``"total"``: reads and writes share it).

    Parameters
    ----------
    host_or_name : Host or str
        A :class:`Host` or a catalog host name.
    capacity_bytes : float, optional
        Memory installed per socket [B]: a server's choice, not the CPU's, so the caller
        gives it (None: unknown).
    latency_s : float, optional
        Load-to-use latency [s], where a source gives one.
    sources : tuple of Source
        Sources for the capacity and latency, added to the host's.

    Returns
    -------
    MemoryTier
        Named ``"Host memory (<host name>)"``.

    Examples
    --------
    >>> tier = host_memory_tier("Xeon 6 6900P, 12 x DDR5-6400")
    >>> tier.bandwidth_bytes_per_s / 1e9, tier.bandwidth_direction
    (614.4, 'total')
    """
    entry = resolve("host_or_name", host_or_name, Host, HOSTS, lookup=host)
    return MemoryTier(name=f"Host memory ({entry.name})", bandwidth_bytes_per_s=entry.memory_bandwidth_bytes_per_s,
                      bandwidth_direction="total", latency_s=latency_s, capacity_bytes=capacity_bytes,
                      sources=tuple(entry.sources) + tuple(sources))
