"""NICs: the network adapters that connect a node to the compute fabric."""

from __future__ import annotations

from dataclasses import dataclass

from .. import units as u
from .._validation import check_integer
from .._lookup import resolve
from ..sources import MLENG_NETWORK, Source
from ._common import check_positive_fields, check_sources, check_status, check_text, name_table


# NIC ------------------------------------------------------------------------------

@dataclass(frozen=True, kw_only=True)
class NIC:
    """A network adapter.

    Parameters
    ----------
    name : str
        Catalog name, e.g. ``"ConnectX-7"``.
    vendor : str
        Maker.
    year : int
        Year of announcement or first shipment.
    per_direction_bytes_per_s : float
        Highest network port rate, one direction [B/s].
    host_link : str or None
        Catalog name of the host interface (a :class:`Link`), e.g. ``"PCIe Gen5 x16"``;
        None where the vendor has not published it.
    power_w : float or None
        Power where sourced [W].
    status, status_date, as_of, expected_by : str or None
        Where it stands: one of ``catalog.STATUSES``, when it got there, when that was
        last checked, and for a forward-looking status when the next step is expected
        (see ``interconnect_lab.catalog._common``); None for an entry whose ``year``
        says enough.
    sources : tuple of Source
        Where the figures come from.

    Examples
    --------
    >>> from interconnect_lab import catalog, units as u
    >>> cx7 = catalog.nic("ConnectX-7")
    >>> cx7.per_direction_bytes_per_s / u.GB_per_s      # a 400 Gb/s port carries 50 GB/s
    50.0
    >>> cx7.host_link
    'PCIe Gen5 x16'
    """

    name: str
    vendor: str
    year: int
    per_direction_bytes_per_s: float
    host_link: str | None
    power_w: float | None = None
    status: str | None = None
    status_date: str | None = None
    as_of: str | None = None
    expected_by: str | None = None
    sources: tuple[Source, ...]

    def __post_init__(self):
        check_sources(self)
        check_status(self)
        check_text(self, "name", "vendor", "host_link", optional=("host_link",))
        check_integer("NIC.year", self.year, minimum=1990, maximum=2100)
        check_positive_fields(self, [("per_direction_bytes_per_s", "B/s"), ("power_w", "W")],
                              allow_none=("power_w",))


# NICs -------------------------------------------------------------------------------

#: When the statuses of this module's entries were last checked against their sources.
_CHECKED = "2026-12-07"

_GB300_NVL72_RA = Source(
    title="NVIDIA, NVL72 AI Factory Enterprise Reference Architecture: Components", year=2025,
    url="https://docs.nvidia.com/enterprise-reference-architectures/nvl72-ai-factory/latest/components.html",
    note="GB300 NVL72 compute tray: '2 Mezzanine Network Boards with 2 ConnectX-8 silicon chips in each, for a "
         "total of 4 ConnectX-8 HCAs' for its 4 GPUs: one 800 Gb/s ConnectX-8 per GPU")
_RECHECK = Source(
    title="Interconnect Lab, status re-check date (no vendor has given a date)", year=2026,
    url="https://github.com/interconnect-lab/interconnect-lab/issues/37", estimate=True,
    note="no ship date published: expected_by is a date to check the entry again, not a forecast")

_OFED_RELEASE_NOTES = Source(
    title="NVIDIA MLNX_OFED Documentation v24.04-0.6.6.0: Release Notes", year=2024,
    url="https://docs.nvidia.com/networking/display/mlnxofedv24040660/release+notes",
    note="uplink speeds: ConnectX-6 up to HDR / 200GbE; ConnectX-7 up to NDR / 400GbE",
)

NICS = name_table([
    NIC(
        name="ConnectX-6", vendor="NVIDIA (Mellanox)", year=2016,
        per_direction_bytes_per_s=200 * u.Gbit_per_s, host_link="PCIe Gen4 x16",
        sources=(_OFED_RELEASE_NOTES,
                 Source(title="NVIDIA ConnectX-6 Ethernet Adapter Cards for OCP Spec 3.0 User Manual: Interfaces",
                        year=2023,
                        url="https://docs.nvidia.com/networking/display/connectx6enocp3/interfaces",
                        note="PCIe Gen 3.0/4.0 through x16 edge connectors"),
                 Source(title="TOP500, Mellanox Unveils HDR InfiniBand Lineup", year=2016,
                        url="https://www.top500.org/news/mellanox-unveils-hdr-infiniband-lineup",
                        note="ConnectX-6 announced Nov 2016 with the HDR lineup")),
    ),
    NIC(
        name="ConnectX-7", vendor="NVIDIA", year=2021,
        per_direction_bytes_per_s=400 * u.Gbit_per_s, host_link="PCIe Gen5 x16",
        sources=(_OFED_RELEASE_NOTES,
                 MLENG_NETWORK.at("NVIDIA Quantum-2 InfiniBand", note="400 Gb/s per link, PCIe 5"),
                 Source(title="ComputerBase: Nvidia Quantum-2, ein 400-Gbit/s-Switch mit 57 Milliarden Transistoren",
                        year=2021,
                        url="https://computerbase.de/2021-11/nvidia-quantum-2-ein-400-gbit-s-switch-mit-57-milliarden-transistoren",
                        note="ConnectX-7 announced with Quantum-2, Nov 2021")),
    ),
    NIC(
        # 48 lanes of PCIe Gen6 with a built-in PCIe switch; one x16 host link is modelled. On Ethernet
        # its 800 Gb/s is two 400 Gb/s ports ("800GbE link speed is not supported on a single port"):
        # the two planes of a multi-plane fabric (topology.multi_plane_fat_tree).
        name="ConnectX-8", vendor="NVIDIA", year=2024,
        per_direction_bytes_per_s=800 * u.Gbit_per_s, host_link="PCIe Gen6 x16",
        status="shipping", status_date="2025", as_of=_CHECKED,
        sources=(MLENG_NETWORK.at("NICs", note="ConnectX-8 SuperNIC: 800 Gb/s, PCIe Gen6"),
                 Source(title="NVIDIA ConnectX-8 Firmware Release Notes v40.44.0208: Changes and New Features",
                        year=2025,
                        url=("https://docs.nvidia.com/networking/display/connectx8firmwarev40440208/"
                             "changes+and+new+features"),
                        note="'supports 800Gb/s or XDR IB or 2 x 400GbE link speeds. Note: 800GbE link speed is not "
                             "supported on a single port'; 'uses planarized topology network to reach Extended Data "
                             "Rate (XDR) performance'"),
                 _GB300_NVL72_RA,
                 Source(title="Quantum Computing News, What is NVIDIA Quantum-X800", year=2025,
                        url="https://quantum-computing.news/what-is-nvidia-quantum-x800-how-it-works/",
                        note="secondary: ConnectX-8 SuperNIC, PCIe Gen6, end-to-end 800 Gb/s")),
    ),
    NIC(
        # NVIDIA gives "up to 1.6 Tb/s" per ConnectX-9; some coverage describes two 800G devices per Rubin
        # GPU instead. The per-GPU rate agrees either way; the host interface is not published.
        name="ConnectX-9", vendor="NVIDIA", year=2026,
        per_direction_bytes_per_s=1600 * u.Gbit_per_s, host_link=None,
        status="announced", status_date="2025-03-18", as_of=_CHECKED, expected_by="2026-12",
        sources=(MLENG_NETWORK.at("Network adapters table and note 1",
                                  note="NVIDIA's InfiniBand adapters page: 'up to 1.6 terabits per second (Tb/s) "
                                       "throughput' for ConnectX-9 (per direction, as for ConnectX-8's 800 Gb/s); "
                                       "no port count or PCIe generation published; listed as announced, "
                                       "availability not confirmed"),
                 Source(title="NG Times, Nvidia sends Vera Rubin into full production (on NVIDIA's release of "
                              "June 2026)", year=2026,
                        url="https://ngtimes.org/2026/06/03/nvidia-sends-vera-rubin-into-full-production",
                        estimate=True,
                        note="secondary: ConnectX-9 ships with Vera Rubin, whose production shipments NVIDIA "
                             "said would begin in autumn 2026")),
    ),
    NIC(
        name="Thor Ultra", vendor="Broadcom", year=2025,
        per_direction_bytes_per_s=800 * u.Gbit_per_s, host_link="PCIe Gen6 x16",
        status="announced", status_date="2025-10-14", as_of=_CHECKED, expected_by="2027-06",
        sources=(Source(title="TechSpot, Broadcom takes on Nvidia with Thor Ultra, an open 800G Ethernet NIC",
                        year=2025,
                        url="https://www.techspot.com/news/109869-broadcom-takes-nvidia-thor-ultra-open-800g-ethernet.html",
                        estimate=True,
                        note="secondary: announced 14 Oct 2025, an 800 Gb/s Ethernet NIC implementing the Ultra "
                             "Ethernet specification; PCIe Gen6 x16; sampling or shipping not confirmed from "
                             "Broadcom's text"),
                 _RECHECK),
    ),
    NIC(
        name="Pollara 400", vendor="AMD", year=2025,
        per_direction_bytes_per_s=400 * u.Gbit_per_s, host_link="PCIe Gen5 x16",
        status="shipping", status_date="2025", as_of=_CHECKED,
        sources=(Source(title="AMD, AMD Pensando Networking: AI NICs", year=2025,
                        url="https://www.amd.com/en/products/network-interface-cards/pensando.html",
                        note="'industry's first Ultra Ethernet Consortium (UEC)-ready AI NIC ... up to 400 Gigabit "
                             "per second (Gbps)'; PCIe Gen5 x16; listed as a product with partner platforms"),),
    ),
    NIC(
        name="Vulcano", vendor="AMD", year=2026,
        per_direction_bytes_per_s=800 * u.Gbit_per_s, host_link=None,
        status="announced", status_date="2025-06-12", as_of=_CHECKED, expected_by="2026-12",
        sources=(Source(title="Singulism (reporting Tom's Hardware, Computex 2026), AMD's Helios MI455X AI platform "
                              "breaks cover, initial systems use UALink-over-Ethernet", year=2026,
                        url="https://singulism.com/en/2026-06-04-amd-helios-mi455x-ualink-ethernet", estimate=True,
                        note="secondary: 'Pensando Vulcano network interface cards (NICs), one of the industry's "
                             "first 800GbE-capable cards, compliant with the Ultra Ethernet specification', in "
                             "Helios; announced 12 June 2025 for 2026"),),
    ),
])


def nic(name: str) -> NIC:
    """The catalog NIC called ``name``; an unknown name lists the valid ones.

    Parameters
    ----------
    name : str
        A key of ``catalog.NICS`` (an unknown name lists the valid ones);
        a NIC itself is returned as it is.

    Examples
    --------
    >>> nic("ConnectX-8").host_link
    'PCIe Gen6 x16'
    """
    return resolve("NIC", name, NIC, NICS)
