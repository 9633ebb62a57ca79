"""NICs: the network adapters that connect a node to the compute fabric."""

from __future__ import annotations

from dataclasses import dataclass

from .. import units as u
from .._validation import check_integer
from .._lookup import resolve
from ..sources import MLENG_NETWORK, Source
from ._common import _check_positive_fields, _check_sources, _check_text, _table


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
    host_link : str
        Catalog name of the host interface (a :class:`Link`), e.g. ``"PCIe Gen5 x16"``.
    power_w : float or None
        Power where sourced [W].
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
    host_link: str
    power_w: float | None = None
    sources: tuple[Source, ...]

    def __post_init__(self):
        _check_sources(self)
        _check_text(self, "name", "vendor", "host_link")
        check_integer("NIC.year", self.year, minimum=1990, maximum=2100)
        _check_positive_fields(self, [("per_direction_bytes_per_s", "B/s"), ("power_w", "W")],
                               allow_none=("power_w",))


# NICs -------------------------------------------------------------------------------

_OFED_RELEASE_NOTES = Source(
    title="NVIDIA MLNX_OFED Documentation v24.04-0.6.6.0: Release Notes", year=2024,
    url="https://docs.nvidia.com/networking/display/mlnxofedv24040660/release+notes",
    note="uplink speeds: ConnectX-6 up to HDR / 200GbE; ConnectX-7 up to NDR / 400GbE",
)

NICS = _table([
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
        # 48 lanes of PCIe Gen6 with a built-in PCIe switch; one x16 host link is modelled.
        name="ConnectX-8", vendor="NVIDIA", year=2024,
        per_direction_bytes_per_s=800 * u.Gbit_per_s, host_link="PCIe Gen6 x16",
        sources=(MLENG_NETWORK.at("NICs", note="ConnectX-8 SuperNIC: 800 Gb/s, PCIe Gen6"),
                 Source(title="Quantum Computing News, What is NVIDIA Quantum-X800", year=2025,
                        url="https://quantum-computing.news/what-is-nvidia-quantum-x800-how-it-works/",
                        note="secondary: ConnectX-8 SuperNIC, PCIe Gen6, end-to-end 800 Gb/s")),
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
