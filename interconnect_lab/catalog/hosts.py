"""Hosts: the CPU socket and memory a GPU server's offloaded state and network buffers live in.

A host is a CPU socket with its memory channels populated at one speed: how
many channels, how many transfers per second, and the 8 bytes each transfer
carries on a DDR5 channel (two 32-bit subchannels). Its peak memory bandwidth,
reads and writes together, is

.. math:: B = n_\\text{channels} \\times R_\\text{transfers} \\times 8\\ \\text{B}

which is what a chapter needs to say whether a faster PCIe link to the GPUs can
be fed (:mod:`interconnect_lab.memory`). The same CPU with faster memory
(MRDIMMs) is a separate entry, since the memory, not the CPU, sets the number.

Examples
--------
>>> from interconnect_lab import catalog, units as u
>>> old = catalog.host("Xeon Platinum 8480C, 8 x DDR5-4800")
>>> new = catalog.host("Xeon 6 6900P, 12 x DDR5-6400")
>>> old.memory_bandwidth_bytes_per_s / u.GB_per_s, new.memory_bandwidth_bytes_per_s / u.GB_per_s
(307.2, 614.4)
"""

from __future__ import annotations

from dataclasses import dataclass

from .. import units as u
from .._validation import check_integer
from ..sources import Source
from .._lookup import resolve
from ._common import check_positive_fields, check_sources, check_status, check_text, name_table

__all__ = ["Host", "HOSTS", "host"]

#: Bytes one transfer moves on a DDR5 channel (two 32-bit subchannels, ECC bits not counted) [B].
DDR5_CHANNEL_BYTES = 8


@dataclass(frozen=True, kw_only=True)
class Host:
    """One CPU socket and its memory, as a GPU server is built with it.

    Parameters
    ----------
    name : str
        Catalog name: the CPU and its memory, e.g. ``"Xeon 6 6900P, 12 x DDR5-6400"``.
    vendor : str
        CPU maker.
    cpu : str
        The CPU (family and code name).
    year : int
        Year of launch.
    memory : str
        Kind of memory module, e.g. ``"DDR5 RDIMM"`` or ``"MRDIMM"``.
    memory_channels : int
        Memory channels of one socket, all populated [-].
    memory_transfers_per_s : float
        Transfer rate of each channel [1/s] (``6400e6`` for DDR5-6400).
    pcie_lanes : int or None
        PCIe lanes of one socket where sourced [-].
    status, status_date, as_of, expected_by : str or None
        The catalog's status convention (``interconnect_lab.catalog._common``).
    sources : tuple of Source
    """

    name: str
    vendor: str
    cpu: str
    year: int
    memory: str
    memory_channels: int
    memory_transfers_per_s: float
    pcie_lanes: int | None = None
    status: str | None = None
    status_date: str | None = None
    as_of: str | None = None
    expected_by: str | None = None
    sources: tuple[Source, ...]

    def __post_init__(self):
        check_sources(self)
        check_status(self)
        check_text(self, "name", "vendor", "cpu", "memory")
        check_integer("Host.year", self.year, minimum=1990, maximum=2100)
        check_integer("Host.memory_channels", self.memory_channels, minimum=1, maximum=64)
        check_positive_fields(self, [("memory_transfers_per_s", "1/s")])
        if self.pcie_lanes is not None:
            check_integer("Host.pcie_lanes", self.pcie_lanes, minimum=1)

    @property
    def memory_bandwidth_bytes_per_s(self) -> float:
        """Peak memory bandwidth of the socket, reads and writes together [B/s]."""
        return self.memory_channels * self.memory_transfers_per_s * DDR5_CHANNEL_BYTES * u.byte


#: When the statuses of this module's entries were last checked against their sources.
_CHECKED = "2026-12-07"

_SAPPHIRE_RAPIDS = (
    Source(title="TechInsights (J. Byrne), Sapphire Rapids Scales to 60 CPUs, 8 Sockets", year=2023,
           url="https://www.techinsights.com/blog/sapphire-rapids-scales-60-cpus-8-sockets",
           note="4th-generation Xeon (Sapphire Rapids): eight DDR5 DRAM channels per socket"),
    Source(title="VideoCardz (via Gamers Infotech), Intel Sapphire Rapids platform slide", year=2021,
           url=("https://gamersinfotech.com/2021/04/08/intel-sapphire-rapids-to-feature-up-to-56-"
                "cores-350w-tdp-and-64gb-of-hbm2-memory-videocardz-com/"),
           note="secondary: 'DDR5 up to 4800 MHz (1 DIMM per channel)'; servers with 2 DIMMs per channel may run "
                "slower"),
    Source(title="MLCommons Inference v4.1, NVIDIA system description H200-SXM-141GBx8", year=2024,
           url=("https://raw.githubusercontent.com/mlcommons/inference_results_v4.1/main/"
                "closed/NVIDIA/systems/H200-SXM-141GBx8_TRT_MaxQ.json"),
           note="2 x Xeon Platinum 8480C, host memory 2 TB (32 x 64 GB): the 8-GPU server of 2023-24"),
)
_GRANITE_RAPIDS = (
    Source(title="Wccftech, Intel Xeon 6900P 'Granite Rapids' P-Core CPUs launched with up to 128 cores", year=2024,
           url="https://wccftech.com/intel-xeon-6900p-granite-rapids-p-core-launched-128-cores-tackles-amd-epyc-turin/amp",
           estimate=True,
           note="secondary (Intel's launch slides, 24 Sep 2024): 'Up To 6400 MT/s DDR5 Support', 'Up To 8800 MT/s "
                "MRDIMM Support', 'Up To 96 lanes (PCIe 5.0/CXL 2.0)', up to 128 P-cores"),
    Source(title="ServeTheHome, Welcome Back Intel Xeon 6900P Reasserts Intel Server Leadership (memory subsystem)",
           year=2024, url="https://www.servethehome.com/welcome-back-intel-xeon-6900p-reasserts-intel-server-leadership/2/",
           estimate=True,
           note="secondary: DDR5-6400 RDIMMs, and MRDIMMs that read two ranks at once 'to achieve 8800MT/s "
                "transfer rates up from 6400MT/s'; 12 channels per socket (Tom's Hardware launch coverage)"),
)

HOSTS = name_table([
    Host(
        # The host of chapter 3's first edition: the dual-socket 8-GPU server of 2023-24 (DGX H100, HGX H200).
        name="Xeon Platinum 8480C, 8 x DDR5-4800", vendor="Intel", cpu="4th Gen Xeon (Sapphire Rapids)",
        year=2023, memory="DDR5 RDIMM", memory_channels=8, memory_transfers_per_s=4800 * u.mega,
        status="shipping", status_date="2023", as_of=_CHECKED,
        sources=_SAPPHIRE_RAPIDS,
    ),
    Host(
        name="Xeon 6 6900P, 12 x DDR5-6400", vendor="Intel", cpu="Xeon 6 6900P (Granite Rapids-AP)",
        year=2024, memory="DDR5 RDIMM", memory_channels=12, memory_transfers_per_s=6400 * u.mega, pcie_lanes=96,
        status="shipping", status_date="2024-09-24", as_of=_CHECKED,
        sources=_GRANITE_RAPIDS,
    ),
    Host(
        name="Xeon 6 6900P, 12 x MRDIMM-8800", vendor="Intel", cpu="Xeon 6 6900P (Granite Rapids-AP)",
        year=2024, memory="MRDIMM", memory_channels=12, memory_transfers_per_s=8800 * u.mega, pcie_lanes=96,
        status="shipping", status_date="2024-09-24", as_of=_CHECKED,
        sources=_GRANITE_RAPIDS,
    ),
])


def host(name: str) -> Host:
    """The catalog host called ``name``; an unknown name lists the valid ones.

    Parameters
    ----------
    name : str or Host
        A key of ``HOSTS`` (a Host itself is returned as it is).

    Examples
    --------
    >>> host("Xeon 6 6900P, 12 x MRDIMM-8800").memory_bandwidth_bytes_per_s / 1e9
    844.8
    """
    return resolve("host", name, Host, HOSTS)
