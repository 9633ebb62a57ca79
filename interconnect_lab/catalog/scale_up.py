"""Scale-up fabrics and the Ethernet roadmap, each marked shipping, announced or still a specification.

Two tables, both with sources:

- ``SCALE_UP_FABRICS`` — the fabrics that join accelerators into one
  memory-semantic domain: NVLink (shipping, NVIDIA's), NVLink Fusion (NVLink
  for other companies' chips, announced), AMD's Infinity Fabric (shipping),
  UALink (an open specification, no product shipping when it was
  published) and Broadcom's Scale-Up Ethernet on Tomahawk Ultra and
  Tomahawk 6 switches (shipping chips). :func:`scale_up_fabric` looks one up.
- ``ETHERNET_ROADMAP`` — what sets the numbers of the next fabrics:
  200 Gb/s-per-lane SerDes, the IEEE 802.3df (800GbE) and 802.3dj (1.6TbE)
  standards, and 102.4 Tb/s switch chips. :func:`roadmap_item` looks one up.

*Status* says what a reader can buy: ``"shipping"`` (products ship),
``"announced"`` (a vendor has announced it; no product ships yet, or none in
volume), ``"specification"`` (an open specification is published; no product
ships yet) or ``"in development"`` (a standard not yet approved). Dates are
ISO strings at the precision the sources give; each entry's ``status_date``
is when it reached its status.

Rates are per direction, as everywhere in the catalog.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from types import MappingProxyType

from .. import units as u
from .._validation import check_choice, check_integer, check_number
from ..sources import Source
from .links import LINKS
from .switches import SWITCHES, breakout

__all__ = ["STATUSES", "ScaleUpFabric", "SCALE_UP_FABRICS", "scale_up_fabric", "RoadmapItem",
           "ETHERNET_ROADMAP", "roadmap_item"]

#: What a reader can buy, from most to least available.
STATUSES = ("shipping", "announced", "specification", "in development")

_DATE_LENGTHS = (4, 7, 10)


def _check_date(owner, value):
    if not isinstance(value, str) or len(value) not in _DATE_LENGTHS or not re.match(
            r"^\d{4}(-\d{2}(-\d{2})?)?$", value):
        raise ValueError(f"{owner}.status_date = {value!r} is not valid: give 'YYYY', 'YYYY-MM' or 'YYYY-MM-DD'")


def _check_sources(owner, sources):
    if not sources or not all(isinstance(s, Source) for s in sources):
        raise ValueError(f"{owner} needs at least one Source: every entry says where its numbers come from")


# Sources ------------------------------------------------------------------------------------

_UALINK_PR = Source(
    title="Converge Digest, UALink Consortium releases UALink 200G 1.0 Specification", year=2025,
    url="https://dev.convergedigest.com/?p=101488",
    note="'200G per lane interconnect supporting up to 1,024 accelerators per AI pod'; memory-semantic "
         "load/store; '93% effective peak bandwidth'; consortium formed Oct 2024",
)
_UALINK_TOMS = Source(
    title="Tom's Hardware, UALink has Nvidia's NVLink in the crosshairs: final specs support up to 1,024 GPUs "
          "with 200 GT/s bandwidth", year=2025,
    url=("https://www.tomshardware.com/tech-industry/ualink-has-nvidias-nvlink-in-the-crosshairs-final-specs-"
         "support-up-to-1-024-gpus-with-200-gt-s-bandwidth"),
    note="200 GT/s per lane data rate, 212.5 GT/s signalling; links of x1, x2 or x4 lanes (x4: 800 Gb/s each "
         "way); one switch port per accelerator, 10-bit identifiers (1,024); cables < 4 m, < 1 us round trip",
)
_UALINK_QA = Source(
    title="UALink Consortium, A Deeper Dive: Responding to the UALink 200G 1.0 Specification Webinar Q&A",
    year=2025, url=("https://ualinkconsortium.org/blog/a-deeper-dive-responding-to-the-ualink-200g-1-0-"
                    "specification-webinar-qa-session-822"),
    note="switch port-to-port latency targets with 400G ports: 25T <= 150 ns, 50T < 200 ns, 100T < 250 ns",
)
_UALINK_DATE = Source(
    title="UALink (probsee summary of the UALink Consortium's announcements)", year=2025,
    url="https://probsee.com/p/ualink", estimate=True,
    note="secondary: 'ratified the UALink 200G 1.0 Specification on April 8, 2025'; promoter group "
         "announced 30 May 2024, incorporated Oct 2024",
)
_WHEELER_MI300 = Source(
    title="B. Wheeler, AMD Looks to Infinity for AI Interconnects (Wheeler's Network)", year=2024,
    url="https://www.wheelersnetwork.com/2024/01/",
    note="'Each MI300X GPU has up to seven Infinity Fabric links, each with 16 lanes ... 32Gbps per lane, "
         "yielding 128GB/s of bidirectional bandwidth per link'; GPUs joined directly in a mesh",
)
_FUSION_PR = Source(
    title="doitong (reprint of NVIDIA's Computex 2025 announcement), NVIDIA unveils NVLink Fusion for custom "
          "AI infrastructure", year=2025,
    url="https://doitong.com/news/en/nvidia-unveils-nvlink-fusion-for-custom-ai-infrastructure",
    note="announced at Computex 2025 (19 May); fifth-generation NVLink, '1.8 TB/s of bidirectional bandwidth "
         "per GPU'; partners MediaTek, Marvell, Alchip, Astera Labs, Synopsys, Cadence; Fujitsu, Qualcomm CPUs",
)
_FUSION_SEMIVOICE = Source(
    title="SemiVoice, NVIDIA NVLink Fusion", year=2025, url="https://news.semivoice.com/post/1c70548a19",
    note="secondary: NVLink-C2C for custom CPUs, an NVLink 5 chiplet for third-party accelerators; every "
         "configuration still includes NVIDIA hardware",
)
_TH6_PR = Source(
    title="Electronics Journal (Broadcom press release), Broadcom Ships Tomahawk 6: World's First 102.4 Tbps "
          "Switch", year=2025,
    url="https://electronics-journal.com/news/96096-broadcom-ships-tomahawk-6-world%E2%80%99s-first-102-4-tbps-switch",
    note="'now shipping the Tomahawk 6 switch series ... 102.4 Terabits/sec'; 100G or 200G SerDes, an "
         "option of 1,024 x 100G SerDes; co-packaged optics option",
)
_TH6_STH = Source(
    title="ServeTheHome, Broadcom Tomahawk 6 Launched for 1.6TbE Generation", year=2025,
    url="https://www.servethehome.com/broadcom-tomahawk-6-launched-for-1-6tbe-generation/",
    note="up to 64 ports of 1.6TbE; 512 x 200G PAM4 or 1,024 x 100G PAM4; 'up to 512 XPUs on a single "
         "switch (512 x 200G = 102.4Tbps)'",
)
_TH6_DATE = Source(
    title="TechInsights, Broadcom Tomahawk 6 Ushers in the Terabit Ethernet Era for AI Data Centers", year=2025,
    url="https://www-prod.techinsights.com/blog/broadcom-tomahawk-6-1024-tbps-ethernet-switch-ai-data-centers",
    note="dated 4 June 2025",
)
_TH6_TWO_TIER = Source(
    title="IBS Electronics, Broadcom's 102.4 Tbps Tomahawk 6 Redefines AI Data Center Networking", year=2025,
    url=("https://www.ibselectronics.in/resources/news/broadcom%E2%80%99s-102-4-tbps-tomahawk-6-redefines-ai-"
         "data-center-networking/"),
    estimate=True,
    note="secondary: 'flat two-tier network fabrics that can scale to over 128,000 XPUs'; 3 nm; mass "
         "production June 2025",
)
_TH_ULTRA = Source(
    title="Techzine, Broadcom launches Tomahawk Ultra with 250ns network latency", year=2025,
    url="https://www.techzine.eu/news/infrastructure/133074/broadcom-launches-tomahawk-ultra-with-250ns-network-latency",
    note="250 ns switch latency at 51.2 Tb/s; link-layer retry and credit-based flow control; header "
         "overhead from 46 to 10 bytes; collectives in the switch; SUE and SUE-Lite",
)
_TH_ULTRA_SHIPPING = Source(
    title="AI Magazine, Broadcom: How Tomahawk Ultra Will Power AI Workloads", year=2025,
    url="https://aimagazine.com/news/broadcom-how-tomahawk-ultra-will-power-ai-workloads",
    note="'The Tomahawk Ultra, now shipping to customers'",
)
_TH_ULTRA_DATE = Source(
    title="All About Circuits (via DGT), Broadcom Aims to Reimagine the Ethernet Switch for HPC and AI", year=2025,
    url="https://www.dgttech.com/community/details/broadcom-aims-to-reimagine-the-ethernet-switch-for-hpc-and-ai.html",
    note="dated 18 July 2025: 'Tomahawk Ultra switch IC has entered production'",
)
_SUE_WHEELER = Source(
    title="B. Wheeler, Broadcom Adds New Architecture With Tomahawk Ultra (Wheeler's Network)", year=2025,
    url="https://www.wheelersnetwork.com/2025/07",
    note="Scale-Up Ethernet (SUE) framework announced end of April 2025 and contributed to the Open Compute "
         "Project; its latency budget allocates under 250 ns to the switch",
)
_TERABIT_ETHERNET = Source(
    title="Wikipedia, Terabit Ethernet", year=2025, url="https://en.wikipedia.org/wiki/Terabit_Ethernet",
    estimate=True,
    note="secondary: 802.3df (800GbE) approved 16 Feb 2024; 1.6T and 200G/lane work split into 802.3dj in "
         "Nov 2022; '802.3dj project indicates completion in July 2026'",
)
_P8023DF = Source(
    title="IEEE P802.3df Task Force, IEEE P802.3df Standard Approved!", year=2024,
    url="https://www.ieee802.org/3/B400G/email/msg01072.html",
    note="800 Gb/s Ethernet (IEEE 802.3df) approved 16 Feb 2024, over 100 Gb/s lanes",
)
_NVIDIA_NVLINK = Source(
    title="NVIDIA, NVLink and NVLink Switch", year=2024, url="https://www.nvidia.com/en-au/data-center/nvlink/",
    note="fifth-generation NVLink: 1.8 TB/s per GPU (both directions), 18 links; GB200 NVL72 joins 72 GPUs",
)


# Scale-up fabrics ---------------------------------------------------------------------------

@dataclass(frozen=True, kw_only=True)
class ScaleUpFabric:
    """A fabric that joins accelerators into one load/store (memory-semantic) domain.

    Parameters
    ----------
    name : str
        Catalog name.
    owner : str
        Vendor or standards body.
    openness : {"proprietary", "licensed", "open standard"}
        Who may build it: one vendor; others under the vendor's licence; anyone.
    status : str
        One of ``STATUSES``.
    status_date : str
        When it reached that status (ISO, at the source's precision).
    topology : {"switched", "full mesh"}
        How the accelerators of one domain are joined.
    max_accelerators : int
        Largest domain the fabric joins at full bandwidth with one hop of switches
        (or one mesh) [-].
    port_per_direction_bytes_per_s : float
        One port (link) of one accelerator, one direction [B/s].
    ports_per_accelerator : int or None
        Ports of one accelerator, where the product fixes it; None for a
        specification that leaves it to the chip designer.
    lane_bit_per_s : float or None
        Data rate of one lane [bit/s].
    switch_latency_s : float or None
        Port-to-port latency of the switch where a source gives one [s].
    sources : tuple of Source
    note : str
        What else a reader must know.
    """

    name: str
    owner: str
    openness: str
    status: str
    status_date: str
    topology: str
    max_accelerators: int
    port_per_direction_bytes_per_s: float
    ports_per_accelerator: int | None = None
    lane_bit_per_s: float | None = None
    switch_latency_s: float | None = None
    sources: tuple
    note: str = ""

    def __post_init__(self):
        _check_sources(f"ScaleUpFabric {self.name!r}", self.sources)
        check_choice("openness", self.openness, ("proprietary", "licensed", "open standard"))
        check_choice("status", self.status, STATUSES)
        check_choice("topology", self.topology, ("switched", "full mesh"))
        _check_date(f"ScaleUpFabric {self.name!r}", self.status_date)
        check_integer(f"{self.name}.max_accelerators", self.max_accelerators, minimum=2)
        check_number(f"{self.name}.port_per_direction_bytes_per_s", self.port_per_direction_bytes_per_s,
                     unit="B/s", minimum=0, min_inclusive=False)
        if self.ports_per_accelerator is not None:
            check_integer(f"{self.name}.ports_per_accelerator", self.ports_per_accelerator, minimum=1)
        for field, unit in (("lane_bit_per_s", "bit/s"), ("switch_latency_s", "s")):
            if getattr(self, field) is not None:
                check_number(f"{self.name}.{field}", getattr(self, field), unit=unit, minimum=0,
                             min_inclusive=False)
        if self.topology == "full mesh" and self.ports_per_accelerator is not None \
                and self.ports_per_accelerator < self.max_accelerators - 1:
            raise ValueError(f"{self.name}: a full mesh of {self.max_accelerators} needs "
                             f"{self.max_accelerators - 1} ports per accelerator, not {self.ports_per_accelerator}")

    @property
    def year(self) -> int:
        """Year of ``status_date``."""
        return int(self.status_date[:4])

    @property
    def per_accelerator_per_direction_bytes_per_s(self) -> float | None:
        """All ports of one accelerator together, one direction [B/s]; None where the ports are not fixed."""
        if self.ports_per_accelerator is None:
            return None
        return self.ports_per_accelerator * self.port_per_direction_bytes_per_s


def _scale_up_fabrics(links):
    """The table, built from the catalog's link entries where one exists (nothing typed twice)."""
    nvlink5 = links["NVLink 5"]
    infinity = links["Infinity Fabric (MI300X)"]
    ultra = SWITCHES["Tomahawk Ultra"]
    th6_200g = breakout(SWITCHES["Tomahawk 6"], 8)
    entries = [
        ScaleUpFabric(
            name="NVLink 5 (GB200 NVL72)", owner="NVIDIA", openness="proprietary", status="shipping",
            status_date="2024", topology="switched", max_accelerators=72,
            port_per_direction_bytes_per_s=nvlink5.per_direction_bytes_per_s,
            ports_per_accelerator=nvlink5.links_per_gpu, lane_bit_per_s=8 * nvlink5.per_direction_bytes_per_s / nvlink5.lanes,
            sources=(_NVIDIA_NVLINK,) + nvlink5.sources,
            note="72 GPUs in one rack through 18 NVLink Switch chips; each link is 2 lanes of 212.5 Gb/s "
                 "signalling (200 Gb/s of data)"),
        ScaleUpFabric(
            name="NVLink Fusion", owner="NVIDIA", openness="licensed", status="announced",
            status_date="2025-05-19", topology="switched", max_accelerators=72,
            port_per_direction_bytes_per_s=nvlink5.per_direction_bytes_per_s,
            ports_per_accelerator=nvlink5.links_per_gpu, lane_bit_per_s=8 * nvlink5.per_direction_bytes_per_s / nvlink5.lanes,
            sources=(_FUSION_PR, _FUSION_SEMIVOICE),
            note="NVLink 5 as IP or a chiplet for other companies' CPUs and accelerators, in NVIDIA's "
                 "rack-scale systems; every configuration still includes NVIDIA silicon"),
        ScaleUpFabric(
            name="Infinity Fabric (MI300X)", owner="AMD", openness="proprietary", status="shipping",
            status_date="2023-12", topology="full mesh", max_accelerators=8,
            port_per_direction_bytes_per_s=infinity.per_direction_bytes_per_s,
            ports_per_accelerator=infinity.links_per_gpu, lane_bit_per_s=32 * u.giga,
            sources=(_WHEELER_MI300,) + infinity.sources,
            note="no switch: 8 GPUs in a full mesh, one x16 link to each of the 7 others, so two GPUs share "
                 "one link's bandwidth and a smaller group reaches only part of a GPU's links"),
        ScaleUpFabric(
            name="UALink 200G 1.0", owner="UALink Consortium", openness="open standard", status="specification",
            status_date="2025-04-08", topology="switched", max_accelerators=1024,
            port_per_direction_bytes_per_s=4 * 200 * u.Gbit_per_s, lane_bit_per_s=200 * u.giga,
            sources=(_UALINK_PR, _UALINK_TOMS, _UALINK_QA, _UALINK_DATE),
            note="ports of x1, x2 or x4 lanes (x4 stored); how many ports an accelerator has is the chip "
                 "designer's choice; switch latency targets < 250 ns for a 100 Tb/s switch (a target, not "
                 "a measurement)"),
        ScaleUpFabric(
            name="Scale-Up Ethernet (Tomahawk Ultra)", owner="Broadcom", openness="open standard",
            status="shipping", status_date="2025-07", topology="switched", max_accelerators=ultra.ports,
            port_per_direction_bytes_per_s=ultra.port_per_direction_bytes_per_s, lane_bit_per_s=100 * u.giga,
            switch_latency_s=ultra.latency_s,
            sources=(_TH_ULTRA, _TH_ULTRA_SHIPPING, _TH_ULTRA_DATE, _SUE_WHEELER),
            note="the SUE framework was contributed to OCP (April 2025); Tomahawk Ultra is a 51.2 Tb/s "
                 "switch (64 x 800G) with link-layer retry, credit-based flow control and in-switch "
                 "collectives; 250 ns is Broadcom's figure"),
        ScaleUpFabric(
            name="Scale-Up Ethernet (Tomahawk 6, 512 x 200G)", owner="Broadcom", openness="open standard",
            status="shipping", status_date="2025-06", topology="switched", max_accelerators=th6_200g.ports,
            port_per_direction_bytes_per_s=th6_200g.port_per_direction_bytes_per_s,
            lane_bit_per_s=8 * th6_200g.port_per_direction_bytes_per_s,
            sources=(_TH6_PR, _TH6_STH, _TH6_DATE),
            note="one 102.4 Tb/s switch run as 512 ports of 200G joins up to 512 accelerators, one port each"),
    ]
    return MappingProxyType({entry.name: entry for entry in entries})


SCALE_UP_FABRICS = _scale_up_fabrics(LINKS)


def scale_up_fabric(name):
    """The scale-up fabric called ``name``; an unknown name lists the valid ones.

    Parameters
    ----------
    name : str
        A key of ``catalog.SCALE_UP_FABRICS``.

    Examples
    --------
    >>> f = scale_up_fabric("UALink 200G 1.0")
    >>> f.status, f.max_accelerators, f.port_per_direction_bytes_per_s / u.GB_per_s
    ('specification', 1024, 100.0)
    """
    check_choice("scale-up fabric", name, SCALE_UP_FABRICS)
    return SCALE_UP_FABRICS[name]


# Roadmap --------------------------------------------------------------------------------------

@dataclass(frozen=True, kw_only=True)
class RoadmapItem:
    """A step of the Ethernet roadmap: a lane rate, a port standard or a switch chip.

    Parameters
    ----------
    name : str
    kind : {"SerDes", "Ethernet standard", "switch chip"}
    status : str
        One of ``STATUSES``.
    status_date : str
        When it reached that status, or for ``"in development"`` the date its
        timeline gives for completion (ISO).
    per_direction_bit_per_s : float
        The rate it is about: one lane, one port, or a whole switch chip, one direction [bit/s].
    lanes : int or None
        Lanes of that rate in one port (standards) or one chip (switches) [-].
    sources : tuple of Source
    note : str
    """

    name: str
    kind: str
    status: str
    status_date: str
    per_direction_bit_per_s: float
    lanes: int | None = None
    sources: tuple
    note: str = ""

    def __post_init__(self):
        _check_sources(f"RoadmapItem {self.name!r}", self.sources)
        check_choice("kind", self.kind, ("SerDes", "Ethernet standard", "switch chip"))
        check_choice("status", self.status, STATUSES)
        _check_date(f"RoadmapItem {self.name!r}", self.status_date)
        check_number(f"{self.name}.per_direction_bit_per_s", self.per_direction_bit_per_s, unit="bit/s",
                     minimum=0, min_inclusive=False)
        if self.lanes is not None:
            check_integer(f"{self.name}.lanes", self.lanes, minimum=1)

    @property
    def year(self) -> int:
        """Year of ``status_date``."""
        return int(self.status_date[:4])

    @property
    def per_direction_bytes_per_s(self) -> float:
        """The same rate in bytes, one direction [B/s]."""
        return self.per_direction_bit_per_s / 8


ETHERNET_ROADMAP = MappingProxyType({item.name: item for item in (
    RoadmapItem(name="200G-per-lane SerDes", kind="SerDes", status="shipping", status_date="2025-06",
                per_direction_bit_per_s=200 * u.giga,
                sources=(_TH6_PR, _TH6_STH, _NVIDIA_NVLINK),
                note="212.5 Gb/s PAM4 signalling for 200 Gb/s of data: in NVLink 5 since 2024 and in "
                     "Tomahawk 6 (512 lanes) since June 2025"),
    RoadmapItem(name="800GbE (IEEE 802.3df)", kind="Ethernet standard", status="shipping", status_date="2024-02-16",
                per_direction_bit_per_s=8 * LINKS["Ethernet 800G"].per_direction_bytes_per_s, lanes=8,
                sources=(_P8023DF, _TERABIT_ETHERNET),
                note="approved 16 Feb 2024, 8 lanes of 100 Gb/s; ports shipped before the standard"),
    RoadmapItem(name="1.6TbE (IEEE 802.3dj)", kind="Ethernet standard", status="in development",
                status_date="2026-07", per_direction_bit_per_s=8 * SWITCHES["Tomahawk 6"].port_per_direction_bytes_per_s,
                lanes=8,
                sources=(_TERABIT_ETHERNET,),
                note="8 lanes of 200 Gb/s (also 200, 400 and 800GbE over 200 Gb/s lanes); the project's "
                     "timeline gives completion in July 2026; 1.6T switch ports (Tomahawk 6) ship ahead of it"),
    RoadmapItem(name="Tomahawk 6 (102.4 Tb/s)", kind="switch chip", status="shipping", status_date="2025-06",
                per_direction_bit_per_s=8 * SWITCHES["Tomahawk 6"].capacity_per_direction_bytes_per_s, lanes=512,
                sources=(_TH6_PR, _TH6_STH, _TH6_DATE, _TH6_TWO_TIER),
                note="64 x 1.6TbE, 128 x 800GbE or 512 x 200GbE; power not published"),
    RoadmapItem(name="Tomahawk Ultra (51.2 Tb/s)", kind="switch chip", status="shipping", status_date="2025-07",
                per_direction_bit_per_s=8 * SWITCHES["Tomahawk Ultra"].capacity_per_direction_bytes_per_s, lanes=512,
                sources=(_TH_ULTRA, _TH_ULTRA_SHIPPING, _TH_ULTRA_DATE),
                note="512 x 100G lanes, for scale-up: 250 ns, 64-byte packets at line rate"),
)})


def roadmap_item(name):
    """The roadmap item called ``name``; an unknown name lists the valid ones.

    Parameters
    ----------
    name : str
        A key of ``catalog.ETHERNET_ROADMAP``.

    Examples
    --------
    >>> roadmap_item("1.6TbE (IEEE 802.3dj)").status
    'in development'
    """
    check_choice("roadmap item", name, ETHERNET_ROADMAP)
    return ETHERNET_ROADMAP[name]
