"""Links: NVLink, PCIe, CXL, InfiniBand and Ethernet, stored per direction."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from .. import units as u
from .._validation import check_integer
from .._lookup import resolve
from ..sources import (
    GLENN_PCIE_GEN6, INFINIBAND_JP_SPEEDS, MLENG_NETWORK, NVIDIA_GRACE_HOPPER, NVIDIA_NVLINK,
    NVIDIA_NVLINK_HEALTH_CHECKS, WIKIPEDIA_PCIE, Source,
)
from ._common import (
    check_status,
    check_member, check_optional_integers, check_positive_fields, check_sources, check_text,
    name_table,
)


# Link -----------------------------------------------------------------------------

@dataclass(frozen=True, kw_only=True)
class Link:
    """A link or port generation: NVLink, NVLink-C2C, Infinity Fabric, PCIe, CXL, InfiniBand, Ethernet.

    Rates are stored **per direction** and after line encoding (the data rate a
    transfer can use). Vendors' "both directions" figures are halved on entry.

    Parameters
    ----------
    name : str
        Catalog name, e.g. ``"NVLink 4"``, ``"PCIe Gen5 x16"``, ``"InfiniBand NDR"``,
        ``"Ethernet 400G"``.
    family : str
        One of ``"NVLink"``, ``"NVLink-C2C"`` (NVIDIA's chip-to-chip link between a
        Grace CPU and its GPUs), ``"Infinity Fabric"``, ``"PCIe"``, ``"CXL"``,
        ``"InfiniBand"``, ``"Ethernet"``.
    year : int
        Year the generation appeared: first products for vendor links, the
        specification's release for open standards (each entry's source note says which).
    per_direction_bytes_per_s : float
        Data rate of one link (one NVLink; one x16 PCIe or CXL link; one 4x InfiniBand
        port; one Ethernet port) in one direction, after line encoding [B/s].
    links_per_gpu : int or None
        For scale-up links, how many links one GPU of that generation has; None otherwise.
    lanes : int or None
        Serial lanes per link or port, in one direction; None where it depends on the
        physical-layer variant (most Ethernet rates).
    lane_signalling_bit_per_s : float or None
        Raw signalling rate of one lane, before encoding and forward error correction
        [bit/s].
    encoding : str or None
        Line encoding, e.g. ``"128b/130b"`` or ``"64b/66b"``.
    latency_s : float or None
        Typical one-way latency where a source gives one [s].
    phy : str or None
        Catalog name of the link whose physical layer this one runs on (CXL runs on the
        PCIe PHY of its generation); None if it has its own.
    status, status_date, as_of, expected_by : str or None
        Where it stands: one of ``catalog.STATUSES``, when it got there, when that was
        last checked, and for a forward-looking status when the next step is expected
        (see ``interconnect_lab.catalog._common``); None for an entry whose ``year``
        says enough.
    sources : tuple of Source
        Where the figures come from.

    Notes
    -----
    For a scale-up link, :attr:`per_gpu_per_direction_bytes_per_s` is everything one
    GPU can send at once. Behind a switch (NVSwitch) any one peer can get all of it; in
    a full mesh without a switch (AMD Infinity Fabric on an 8-GPU MI300X board) the
    links are divided among the peers, so one peer gets one link's rate.

    Examples
    --------
    >>> from interconnect_lab import catalog, units as u
    >>> pcie5 = catalog.link("PCIe Gen5 x16")
    >>> round(pcie5.per_direction_bytes_per_s / u.GB_per_s, 2)           # after 128b/130b
    63.02
    >>> u.both_directions(pcie5.signalling_per_direction_bytes_per_s) / u.GB_per_s  # the "128 GB/s"
    128.0
    >>> catalog.link("InfiniBand NDR").per_direction_bytes_per_s / u.Gbit_per_s
    400.0
    """

    name: str
    family: str
    year: int
    per_direction_bytes_per_s: float
    links_per_gpu: int | None = None
    lanes: int | None = None
    lane_signalling_bit_per_s: float | None = None
    encoding: str | None = None
    latency_s: float | None = None
    phy: str | None = None
    status: str | None = None
    status_date: str | None = None
    as_of: str | None = None
    expected_by: str | None = None
    sources: tuple[Source, ...]

    FAMILIES = ("NVLink", "NVLink-C2C", "Infinity Fabric", "PCIe", "CXL", "InfiniBand", "Ethernet")

    def __post_init__(self):
        check_sources(self)
        check_status(self)
        check_text(self, "name", "encoding", "phy", optional=("encoding", "phy"))
        check_member(self, "family", self.FAMILIES)
        check_integer("Link.year", self.year, minimum=1990, maximum=2100)
        check_positive_fields(self, [
            ("per_direction_bytes_per_s", "B/s"), ("lane_signalling_bit_per_s", "bit/s"),
            ("latency_s", "s"),
        ], allow_none=("lane_signalling_bit_per_s", "latency_s"))
        check_optional_integers(self, ("links_per_gpu", "lanes"), minimum=1)

    @property
    def both_directions_bytes_per_s(self) -> float:
        """One link's rate with both directions added, as vendors headline it [B/s]."""
        return u.both_directions(self.per_direction_bytes_per_s)

    @property
    def per_gpu_per_direction_bytes_per_s(self) -> float | None:
        """All of one GPU's links together, one direction [B/s]; None if not a GPU link."""
        if self.links_per_gpu is None:
            return None
        return self.links_per_gpu * self.per_direction_bytes_per_s

    @property
    def per_gpu_both_directions_bytes_per_s(self) -> float | None:
        """All of one GPU's links, both directions added: NVIDIA's headline figure [B/s]."""
        per_direction = self.per_gpu_per_direction_bytes_per_s
        return None if per_direction is None else u.both_directions(per_direction)

    @property
    def signalling_per_direction_bytes_per_s(self) -> float | None:
        """Raw signalling rate of all lanes, one direction, before encoding [B/s].

        ``lanes * lane_signalling_bit_per_s``, in bytes; None if either is unknown.
        The data rate ``per_direction_bytes_per_s`` is never above it.
        """
        if self.lanes is None or self.lane_signalling_bit_per_s is None:
            return None
        return self.lanes * self.lane_signalling_bit_per_s * u.bit


# Links ------------------------------------------------------------------------------

_NVLINK_TABLE = MLENG_NETWORK.at(
    "NVLink table", note="lanes per link per direction, links per GPU and per-GPU totals "
                         "(unidirection and duplex) for NVLink 1-5")
_IB_TABLE = MLENG_NETWORK.at(
    "InfiniBand signaling-rate and latency tables",
    note="per direction: 1 lane EDR 25, HDR 50, NDR 100, XDR 200 Gb/s; 4x = 4 lanes; "
         "latency EDR 0.5 us, HDR 0.6 us, not published for NDR and later")
_PCIE_TABLE = MLENG_NETWORK.at(
    "PCIe table", note="x16 per direction: PCIe 4 31 GB/s, 5 63 GB/s, 6 121 GB/s")

_PCIE_GEN5_X16 = Link(
    name="PCIe Gen5 x16", family="PCIe", year=2019,
    # 16 lanes x 32 GT/s, 128b/130b: 63.0 GB/s per direction. NVIDIA's "128 GB/s" is the
    # raw signalling rate of both directions (2 x 16 x 32 Gb/s / 8).
    per_direction_bytes_per_s=16 * 32 * u.Gbit_per_s * 128 / 130,
    lanes=16, lane_signalling_bit_per_s=32 * u.giga, encoding="128b/130b",
    sources=(_PCIE_TABLE, WIKIPEDIA_PCIE.at("PCIe 5.0 (2019)")),
)
_MLENG_NETWORK_2026 = MLENG_NETWORK
_PCIE_GEN7_X16 = Link(
    name="PCIe Gen7 x16", family="PCIe", year=2025,
    # 16 lanes x 128 GT/s (PAM4), the same 256-byte FLITs as Gen6 (242 B of data): 256 GB/s raw,
    # 242 GB/s per direction; PCI-SIG's "512 GB/s" is the raw rate with both directions added.
    per_direction_bytes_per_s=16 * 128 * u.Gbit_per_s * 242 / 256,
    lanes=16, lane_signalling_bit_per_s=128 * u.giga,
    encoding="PAM4, 256-byte FLIT (242 B after FEC and CRC)",
    status="specification", status_date="2025-06-11", as_of="2026-12-07", expected_by="2027-12",
    sources=(_PCIE_TABLE.at("PCIe table", note="x16 per direction: PCIe 7 about 242 GB/s (spec released)"),
             Source(title="PCI-SIG, PCI-SIG Releases PCIe 7.0 Specification (press release, via Memorys news)",
                    year=2025, url="https://en.memorys.com/news/view?id=14461",
                    note="'128.0 GT/s raw bit rate and up to 512 GB/s bi-directionally via x16'; PAM4, Flit-based "
                         "encoding; released 11 June 2025"),
             Source(title="Interconnect Lab, status re-check date (no vendor or body has given a date)", year=2026,
                    url="https://github.com/interconnect-lab/interconnect-lab/issues/37", estimate=True,
                    note="PCI-SIG gives no date for PCIe 7.0 products; expected_by is a date to check the entry "
                         "again, not a forecast")),
)
_PCIE_GEN6_X16 = Link(
    name="PCIe Gen6 x16", family="PCIe", year=2022,
    # 16 lanes x 64 GT/s (PAM4), 256-byte FLITs of which 242 B survive FEC and CRC:
    # 128 GB/s raw, 121 GB/s per direction.
    per_direction_bytes_per_s=16 * 64 * u.Gbit_per_s * 242 / 256,
    lanes=16, lane_signalling_bit_per_s=64 * u.giga,
    encoding="PAM4, 256-byte FLIT (242 B after FEC and CRC)",
    sources=(_PCIE_TABLE, GLENN_PCIE_GEN6, WIKIPEDIA_PCIE.at("PCIe 6.0 (2022)")),
)
_CXL_CONSORTIUM_1_1 = Source(
    title="CXL Consortium, Compute Express Link 1.1 Specification: Now Available to Members",
    year=2019,
    url=("https://computeexpresslink.org/blog/compute-express-link-1-1-specification-now-"
         "available-to-members-2339/"),
    note="CXL is based on the PCI Express 5.0 physical layer; CXL 1.1 released June 2019",
)
_CXL_CONSORTIUM_2_0 = Source(
    title="CXL Consortium, CXL Consortium Releases Compute Express Link 2.0 Specification",
    year=2020,
    url="https://www.design-reuse.com/news/48999/compute-express-link-2-0-specification.html",
    note="press release of 10 Nov 2020 (CXL Consortium): switching, memory pooling; same PCIe 5.0 PHY",
)
_CXL_3 = Source(
    title="Phoronix, CXL 3.0 Specification Released",
    year=2022,
    url="https://www.phoronix.com/news/CXL-3.0-Specification-Released",
    note="secondary: CXL 3.0 (Aug 2022) moves to the PCIe 6.0 PHY, 64 GT/s, doubling bandwidth; "
         "fabrics, memory sharing; CXL 3.1 followed in Nov 2023 on the same PHY",
)
_CXL_4 = Source(
    title="CXL Consortium, CXL Consortium Releases the Compute Express Link 4.0 Specification Increasing Speed and "
          "Bandwidth (press release, BusinessWire, via a syndicated copy)", year=2025,
    url=("http://business.sherbrookerecord.com/sherbrookerecord/article/bizwire-2025-11-18-cxl-consortium-releases-"
         "the-compute-express-link-40-specification-increasing-speed-and-bandwidth"),
    note="18 Nov 2025: 'Doubles the bandwidth to 128GTs with zero added latency'; the 256B Flit format kept; "
         "released to the public. 128 GT/s is PCIe 7.0's rate, so an x16 link carries what PCIe Gen7 x16 does",
)
_ETHERNET_400G = Source(
    title="IEEE P802.3bs Task Force, [STDS-802-3-400G] IEEE P802.3bs Approved!",
    year=2017,
    url="http://www.ieee802.org/3/400GSG/email/msg01519.html",
    note="IEEE 802.3bs (200 Gb/s and 400 Gb/s Ethernet) approved 6 Dec 2017",
)

LINKS = name_table([
    # NVLink: NVIDIA quotes per-GPU totals with both directions added; halved here.
    Link(
        name="NVLink 1", family="NVLink", year=2016,
        per_direction_bytes_per_s=u.per_direction(160 * u.GB_per_s) / 4,  # P100: 160 GB/s over 4 links
        links_per_gpu=4, lanes=8,
        sources=(_NVLINK_TABLE,),
    ),
    Link(
        name="NVLink 2", family="NVLink", year=2017,
        per_direction_bytes_per_s=u.per_direction(300 * u.GB_per_s) / 6,  # V100: 300 GB/s over 6 links
        links_per_gpu=6, lanes=8,
        sources=(_NVLINK_TABLE,),
    ),
    Link(
        name="NVLink 3", family="NVLink", year=2020,
        per_direction_bytes_per_s=u.per_direction(600 * u.GB_per_s) / 12,  # A100: 600 GB/s over 12 links
        links_per_gpu=12, lanes=4,
        sources=(_NVLINK_TABLE,
                 Source(title="NVIDIA NVLink and NVSwitch (A100 generation page)", year=2020,
                        url="https://www.nvidia.com/de-de/data-center/nvlink/",
                        note="up to twelve NVLink connections, 600 GB/s per GPU both directions")),
    ),
    Link(
        name="NVLink 4", family="NVLink", year=2022,
        per_direction_bytes_per_s=u.per_direction(900 * u.GB_per_s) / 18,  # H100: 900 GB/s over 18 links
        links_per_gpu=18, lanes=2,
        # nvidia-smi reports 26,562 MB/s per link: 2 lanes x 106.25 Gb/s before encoding.
        lane_signalling_bit_per_s=106.25 * u.giga,
        sources=(_NVLINK_TABLE,
                 Source(title="NVIDIA Hopper architecture", year=2022,
                        url="https://www.nvidia.com/en-sg/technologies/hopper-architecture/",
                        note="900 GB/s bidirectional per GPU, over 7X the bandwidth of PCIe Gen5"),
                 NVIDIA_NVLINK_HEALTH_CHECKS),
    ),
    Link(
        name="NVLink 5", family="NVLink", year=2024,
        per_direction_bytes_per_s=u.per_direction(100 * u.GB_per_s),  # "18 NVLink 100 GB/s connections"
        links_per_gpu=18, lanes=2,
        # nvidia-smi reports 53,125 MB/s per link: 2 lanes x 212.5 Gb/s before encoding.
        lane_signalling_bit_per_s=212.5 * u.giga,
        sources=(NVIDIA_NVLINK, _NVLINK_TABLE, NVIDIA_NVLINK_HEALTH_CHECKS),
    ),
    Link(
        # Announced with Rubin: 36 links of 2 lanes; 3.6 TB/s per GPU with both directions added.
        name="NVLink 6", family="NVLink", year=2026,
        per_direction_bytes_per_s=u.per_direction(3600 * u.GB_per_s) / 36,
        links_per_gpu=36, lanes=2,
        status="announced", status_date="2025-03-18", as_of="2026-12-07", expected_by="2026-12",
        sources=(MLENG_NETWORK.at("NVLink table, 'Announced, availability not confirmed'",
                                  note="NVLink 6 (Rubin): 2 lanes of 25 GB/s per direction, 36 links, 1,800 GB/s "
                                       "per direction, 3,600 both; announced, availability not confirmed as of "
                                       "2026-07-31"),
                 Source(title="NG Times, Nvidia sends Vera Rubin into full production (on NVIDIA's release of "
                              "June 2026)", year=2026,
                        url="https://ngtimes.org/2026/06/03/nvidia-sends-vera-rubin-into-full-production",
                        estimate=True,
                        note="secondary: NVIDIA says Vera Rubin is in full production and that 'production "
                             "shipments begin this fall' (autumn 2026)")),
    ),
    Link(
        # AMD quotes 153 GB/s per link ("Peak Infinity Fabric Link Bandwidth"), read as both directions.
        name="Infinity Fabric (MI355X)", family="Infinity Fabric", year=2025,
        per_direction_bytes_per_s=u.per_direction(153 * u.GB_per_s),
        links_per_gpu=7,
        # Shipping: MI355X systems in MLPerf Inference v6.0 (2026), the earliest source read.
        status="shipping", status_date="2026", as_of="2026-12-07",
        sources=(MLENG_NETWORK.at("Infinity Fabric / xGMI table",
                                  note="MI355X: 7 links, 76.5 GB/s per link per direction peer-to-peer, 535.5 GB/s "
                                       "all-to-all per direction (AMD's 153 GB/s per link read as both "
                                       "directions); AMD's MI355X page"),),
    ),
    Link(
        # AMD quotes 128 GB/s per link with both directions added; 7 links make a full mesh
        # of 8 GPUs, so one peer gets one link (64 GB/s) and all peers together 448 GB/s.
        name="Infinity Fabric (MI300X)", family="Infinity Fabric", year=2023,
        per_direction_bytes_per_s=u.per_direction(128 * u.GB_per_s),
        links_per_gpu=7,
        sources=(MLENG_NETWORK.at("Infinity Fabric / xGMI table",
                                  note="MI300X: 64 GB/s per link per direction peer-to-peer, 7 links, "
                                       "448 GB/s all-to-all per direction (AMD's 128 GB/s per link "
                                       "read as both directions)"),),
    ),
    Link(
        # The CPU-GPU link of a Grace Hopper or Grace Blackwell superchip. NVIDIA quotes
        # 900 GB/s with both directions added; a transfer in one direction gets half.
        name="NVLink-C2C", family="NVLink-C2C", year=2022,
        per_direction_bytes_per_s=u.per_direction(900 * u.GB_per_s),
        sources=(NVIDIA_GRACE_HOPPER,
                 MLENG_NETWORK.at("NVLink", note="NVLink-C2C (Grace-Hopper, Grace-Blackwell): "
                                                 "450 GB/s per direction, 900 GB/s both")),
    ),
    # PCIe x16: data rate per direction after line encoding.
    Link(
        name="PCIe Gen3 x16", family="PCIe", year=2010,
        per_direction_bytes_per_s=16 * 8 * u.Gbit_per_s * 128 / 130,
        lanes=16, lane_signalling_bit_per_s=8 * u.giga, encoding="128b/130b",
        sources=(WIKIPEDIA_PCIE.at("PCIe 3.0 (2010)", note="8 GT/s, 128b/130b, 15.75 GB/s per direction x16"),),
    ),
    Link(
        name="PCIe Gen4 x16", family="PCIe", year=2017,
        per_direction_bytes_per_s=16 * 16 * u.Gbit_per_s * 128 / 130,
        lanes=16, lane_signalling_bit_per_s=16 * u.giga, encoding="128b/130b",
        sources=(_PCIE_TABLE, WIKIPEDIA_PCIE.at("PCIe 4.0 (2017)")),
    ),
    _PCIE_GEN5_X16,
    _PCIE_GEN6_X16,
    _PCIE_GEN7_X16,
    # CXL runs on the PCIe PHY of its generation: same lanes, signalling and encoding.
    dataclasses.replace(_PCIE_GEN5_X16, name="CXL 1.1 x16", family="CXL", year=2019,
                        phy="PCIe Gen5 x16", sources=(_CXL_CONSORTIUM_1_1,)),
    dataclasses.replace(_PCIE_GEN5_X16, name="CXL 2.0 x16", family="CXL", year=2020,
                        phy="PCIe Gen5 x16", sources=(_CXL_CONSORTIUM_2_0,)),
    dataclasses.replace(_PCIE_GEN6_X16, name="CXL 3.x x16", family="CXL", year=2022,
                        phy="PCIe Gen6 x16", sources=(_CXL_3,)),
    dataclasses.replace(_PCIE_GEN7_X16, name="CXL 4.0 x16", family="CXL", year=2025, phy="PCIe Gen7 x16",
                        status_date="2025-11-18", sources=(_CXL_4,) + _PCIE_GEN7_X16.sources[2:]),
    # InfiniBand 4x ports: 4 lanes; rates per direction.
    Link(
        name="InfiniBand EDR", family="InfiniBand", year=2015,
        per_direction_bytes_per_s=4 * 25 * u.Gbit_per_s, lanes=4,
        lane_signalling_bit_per_s=25.78125 * u.giga, encoding="64b/66b",
        latency_s=0.5 * u.us,
        sources=(_IB_TABLE, INFINIBAND_JP_SPEEDS,
                 Source(title="TechRepublic, Mellanox's end-to-end Ethernet solutions reach 100 Gb/sec",
                        year=2015,
                        url=("https://www.techrepublic.com/article/mellanoxs-end-to-end-ethernet-"
                             "solutions-reach-impressive-100-gbsec/"),
                        note="an EDR InfiniBand cluster in production by March 2015; the year EDR "
                             "products first shipped is not verified")),
    ),
    Link(
        name="InfiniBand HDR", family="InfiniBand", year=2018,
        per_direction_bytes_per_s=4 * 50 * u.Gbit_per_s, lanes=4,
        lane_signalling_bit_per_s=53.125 * u.giga, encoding="64b/66b + FEC (PAM4)",
        latency_s=0.6 * u.us,
        sources=(_IB_TABLE, INFINIBAND_JP_SPEEDS,
                 Source(title="TOP500, Mellanox Unveils HDR InfiniBand Lineup", year=2016,
                        url="https://www.top500.org/news/mellanox-unveils-hdr-infiniband-lineup",
                        note="HDR switches, adapters and cables unveiled Nov 2016, products from 2017; "
                             "the year here (2018) is that of the QM87xx switch manual")),
    ),
    Link(
        name="InfiniBand NDR", family="InfiniBand", year=2021,
        per_direction_bytes_per_s=4 * 100 * u.Gbit_per_s, lanes=4,
        lane_signalling_bit_per_s=106.25 * u.giga, encoding="64b/66b + FEC (PAM4)",
        sources=(_IB_TABLE, INFINIBAND_JP_SPEEDS),
    ),
    Link(
        # Lane signalling (about 212 Gb/s, PAM4) and encoding are not given by a source read here.
        name="InfiniBand XDR", family="InfiniBand", year=2024,
        per_direction_bytes_per_s=4 * 200 * u.Gbit_per_s, lanes=4,
        sources=(_IB_TABLE,
                 Source(title="Wheeler's Network, All Eyes on NVIDIA", year=2024,
                        url="https://www.wheelersnetwork.com/2024/04/all-eyes-on-nvidia.html",
                        note="secondary: XDR (800G) InfiniBand announced at GTC, March 2024; "
                             "reaching customers in 2025")),
    ),
    # Ethernet: the port rate is the MAC data rate, per direction. Lane counts vary by PHY.
    Link(
        name="Ethernet 100G", family="Ethernet", year=2010,
        per_direction_bytes_per_s=100 * u.Gbit_per_s,
        sources=(Source(title="Wikipedia, 100 Gigabit Ethernet", year=2025,
                        url="https://en.wikipedia.org/wiki/100_Gigabit_Ethernet",
                        note="secondary: IEEE 802.3ba (40 and 100 Gb/s Ethernet) ratified 2010"),),
    ),
    Link(
        name="Ethernet 200G", family="Ethernet", year=2017,
        per_direction_bytes_per_s=200 * u.Gbit_per_s,
        sources=(_ETHERNET_400G,),
    ),
    Link(
        name="Ethernet 400G", family="Ethernet", year=2017,
        per_direction_bytes_per_s=400 * u.Gbit_per_s,
        sources=(_ETHERNET_400G,),
    ),
    Link(
        name="Ethernet 800G", family="Ethernet", year=2024,
        per_direction_bytes_per_s=800 * u.Gbit_per_s,
        lanes=8, lane_signalling_bit_per_s=106.25 * u.giga,
        sources=(Source(title="IEEE P802.3df Task Force, IEEE P802.3df Standard Approved!", year=2024,
                        url="https://www.ieee802.org/3/B400G/email/msg01072.html",
                        note="800 Gb/s Ethernet (IEEE 802.3df) approved 16 Feb 2024"),
                 Source(title="Cloud7 News, Ethernet Technology Consortium reveals 800 Gigabit Ethernet",
                        year=2020,
                        url=("https://cloud7.news/network-internet/rebranded-ethernet-technology-"
                             "consortium-reveals-800-gigabit-ethernet/"),
                        note="800GBASE-R (2020) distributes data across eight 106 Gb/s lanes")),
    ),
])


def link(name: str) -> Link:
    """The catalog link called ``name``; an unknown name lists the valid ones.

    Parameters
    ----------
    name : str
        A key of ``catalog.LINKS`` (an unknown name lists the valid ones);
        a Link itself is returned as it is.

    Examples
    --------
    >>> from interconnect_lab import units as u
    >>> link("NVLink 5").per_gpu_both_directions_bytes_per_s / u.TB_per_s
    1.8
    """
    return resolve("link", name, Link, LINKS)
