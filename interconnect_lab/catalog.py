"""Hardware catalog: GPUs, links, switches, NICs and systems, each with its source.

Every entry is a frozen, keyword-only dataclass, validated when it is built, in
base SI units (see :mod:`interconnect_lab.units`). Link and port rates are stored
**per direction**; vendors' "both directions added" figures are halved on entry
and the conversion is visible in the code. FLOP/s are **dense** (no 2:4
sparsity).

Look entries up by name::

    >>> from interconnect_lab import catalog, units as u
    >>> catalog.gpu("H100 SXM").bf16_flop_per_s / u.TFLOP_per_s
    989.4

Make a what-if variant with ``dataclasses.replace``::

    >>> import dataclasses
    >>> faster = dataclasses.replace(catalog.gpu("H100 SXM"), name="H100 at 2x", bf16_flop_per_s=2 * 989.4e12)
    >>> faster.bf16_flop_per_s / u.TFLOP_per_s
    1978.8
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType

from . import units as u
from ._validation import check_choice, check_integer, check_number
from .sources import MLENG_ACCELERATORS, MLENG_NETWORK, Source

__all__ = [
    "GPU", "Link", "Switch", "NIC", "System",
    "GPUS", "LINKS", "SWITCHES", "NICS", "SYSTEMS",
    "gpu", "link", "switch", "nic", "system",
]


def _check_sources(entry):
    sources = entry.sources
    if isinstance(sources, Source):
        sources = (sources,)
    if not isinstance(sources, tuple) or not sources or not all(isinstance(s, Source) for s in sources):
        raise ValueError(
            f"{type(entry).__name__} {entry.name!r} needs at least one Source in `sources`: "
            "every real-world number in the catalog says where it comes from"
        )
    object.__setattr__(entry, "sources", sources)


def _check_positive_fields(entry, fields_and_units, *, allow_none=()):
    for field, unit in fields_and_units:
        value = getattr(entry, field)
        if value is None and field in allow_none:
            continue
        checked = check_number(f"{type(entry).__name__}.{field}", value, unit=unit,
                               minimum=0, min_inclusive=False)
        object.__setattr__(entry, field, checked)


@dataclass(frozen=True, kw_only=True)
class GPU:
    """An accelerator, with the figures the book's models need.

    Parameters
    ----------
    name : str
        Catalog name, e.g. ``"H100 SXM"``.
    vendor : str
        Maker.
    year : int
        Year of first shipment.
    bf16_flop_per_s : float
        Dense BF16 tensor peak [FLOP/s].
    fp8_flop_per_s : float or None
        Dense FP8 tensor peak [FLOP/s]; None where FP8 is not supported.
    hbm_bytes : float
        HBM capacity [B] (decimal gigabytes as the vendor quotes them).
    hbm_bandwidth_bytes_per_s : float
        HBM bandwidth [B/s]: reads and writes share it; it is not a per-direction figure.
    power_w : float
        Maximum board power (TDP/TGP) [W].
    scale_up_link : str or None
        Name of the scale-up link generation in the catalog (e.g. ``"NVLink 4"``).
    sources : tuple of Source
        Where the figures come from.
    """

    name: str
    vendor: str
    year: int
    bf16_flop_per_s: float
    fp8_flop_per_s: float | None
    hbm_bytes: float
    hbm_bandwidth_bytes_per_s: float
    power_w: float
    scale_up_link: str | None
    sources: tuple[Source, ...]

    def __post_init__(self):
        _check_sources(self)
        check_integer("GPU.year", self.year, minimum=2000, maximum=2100)
        _check_positive_fields(self, [
            ("bf16_flop_per_s", "FLOP/s"), ("fp8_flop_per_s", "FLOP/s"), ("hbm_bytes", "B"),
            ("hbm_bandwidth_bytes_per_s", "B/s"), ("power_w", "W"),
        ], allow_none=("fp8_flop_per_s",))


@dataclass(frozen=True, kw_only=True)
class Link:
    """A link or port generation: NVLink, PCIe, CXL, InfiniBand, Ethernet.

    Rates are stored **per direction** and after line encoding (the data rate a
    transfer can use). Vendors' "both directions" figures are halved on entry.

    Parameters
    ----------
    name : str
        Catalog name, e.g. ``"NVLink 4"``, ``"PCIe Gen5 x16"``, ``"InfiniBand NDR"``.
    family : str
        One of ``"NVLink"``, ``"Infinity Fabric"``, ``"PCIe"``, ``"CXL"``,
        ``"InfiniBand"``, ``"Ethernet"``.
    year : int
        Year of first products.
    per_direction_bytes_per_s : float
        Data rate of one link (one NVLink; one x16 PCIe slot; one 4x InfiniBand port;
        one Ethernet port) in one direction [B/s].
    links_per_gpu : int or None
        For scale-up links, how many links one GPU of that generation has; None otherwise.
    lanes : int or None
        Serial lanes per link or port.
    lane_signalling_bit_per_s : float or None
        Raw signalling rate of one lane, before encoding [bit/s].
    encoding : str or None
        Line encoding, e.g. ``"128b/130b"`` or ``"64b/66b"``.
    latency_s : float or None
        Typical one-way latency where a source gives one [s].
    sources : tuple of Source
        Where the figures come from.
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
    sources: tuple[Source, ...]

    FAMILIES = ("NVLink", "Infinity Fabric", "PCIe", "CXL", "InfiniBand", "Ethernet")

    def __post_init__(self):
        _check_sources(self)
        check_choice("link family", self.family, self.FAMILIES)
        check_integer("Link.year", self.year, minimum=1990, maximum=2100)
        _check_positive_fields(self, [
            ("per_direction_bytes_per_s", "B/s"), ("lane_signalling_bit_per_s", "bit/s"),
            ("latency_s", "s"),
        ], allow_none=("lane_signalling_bit_per_s", "latency_s"))
        for field in ("links_per_gpu", "lanes"):
            if getattr(self, field) is not None:
                check_integer(f"Link.{field}", getattr(self, field), minimum=1)

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


@dataclass(frozen=True, kw_only=True)
class Switch:
    """A switch chip or box: NVSwitch, InfiniBand or Ethernet.

    Parameters
    ----------
    name : str
        Catalog name, e.g. ``"Quantum-2 QM9700"``.
    vendor : str
        Maker.
    family : str
        ``"NVSwitch"``, ``"InfiniBand"`` or ``"Ethernet"``.
    year : int
        Year of announcement or first shipment.
    ports : int
        Radix: ports at ``port_per_direction_bytes_per_s`` [-].
    port_per_direction_bytes_per_s : float
        Rate of one port in one direction [B/s].
    latency_s : float or None
        Port-to-port latency where a source gives one [s].
    power_w : float or None
        Typical or maximum power where sourced [W].
    in_network_reduction : bool
        Whether the switch can reduce data itself (SHARP, NVLink SHARP).
    sources : tuple of Source
        Where the figures come from.
    """

    name: str
    vendor: str
    family: str
    year: int
    ports: int
    port_per_direction_bytes_per_s: float
    latency_s: float | None = None
    power_w: float | None = None
    in_network_reduction: bool = False
    sources: tuple[Source, ...]

    FAMILIES = ("NVSwitch", "InfiniBand", "Ethernet")

    def __post_init__(self):
        _check_sources(self)
        check_choice("switch family", self.family, self.FAMILIES)
        check_integer("Switch.year", self.year, minimum=1990, maximum=2100)
        check_integer("Switch.ports", self.ports, minimum=2)
        _check_positive_fields(self, [
            ("port_per_direction_bytes_per_s", "B/s"), ("latency_s", "s"), ("power_w", "W"),
        ], allow_none=("latency_s", "power_w"))

    @property
    def capacity_per_direction_bytes_per_s(self) -> float:
        """All ports together, one direction [B/s] (switching capacity is often quoted doubled)."""
        return self.ports * self.port_per_direction_bytes_per_s


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
        Year of first shipment.
    per_direction_bytes_per_s : float
        Highest network port rate, one direction [B/s].
    host_link : str
        Catalog name of the host interface (a :class:`Link`), e.g. ``"PCIe Gen5 x16"``.
    power_w : float or None
        Power where sourced [W].
    sources : tuple of Source
        Where the figures come from.
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
        check_integer("NIC.year", self.year, minimum=1990, maximum=2100)
        _check_positive_fields(self, [("per_direction_bytes_per_s", "B/s"), ("power_w", "W")],
                               allow_none=("power_w",))


@dataclass(frozen=True, kw_only=True)
class System:
    """A server or rack: GPUs, their scale-up switches and their network adapters.

    Parameters
    ----------
    name : str
        Catalog name, e.g. ``"DGX H100"``.
    gpu : str
        Catalog name of the GPU.
    gpus : int
        GPUs in one system (one scale-up domain).
    scale_up_switch : str or None
        Catalog name of the scale-up switch chip.
    scale_up_switches : int
        Number of scale-up switch chips.
    nic : str or None
        Catalog name of the scale-out (compute fabric) adapter.
    nics : int
        Compute-fabric adapters per system.
    power_w : float or None
        System power where sourced [W].
    sources : tuple of Source
        Where the figures come from.
    """

    name: str
    gpu: str
    gpus: int
    scale_up_switch: str | None
    scale_up_switches: int
    nic: str | None
    nics: int
    power_w: float | None = None
    sources: tuple[Source, ...]

    def __post_init__(self):
        _check_sources(self)
        check_integer("System.gpus", self.gpus, minimum=1)
        check_integer("System.scale_up_switches", self.scale_up_switches, minimum=0)
        check_integer("System.nics", self.nics, minimum=0)
        _check_positive_fields(self, [("power_w", "W")], allow_none=("power_w",))


def _table(entries):
    table = {}
    for entry in entries:
        if entry.name in table:
            raise ValueError(f"duplicate catalog name {entry.name!r}")
        table[entry.name] = entry
    return MappingProxyType(table)


def _lookup(kind, table, name):
    if isinstance(name, str):
        check_choice(kind, name, table)
        return table[name]
    raise TypeError(f"{kind} must be a catalog name (one of {', '.join(map(repr, table))}), got {name!r}")


# GPUs -------------------------------------------------------------------------

GPUS = _table([
    GPU(
        name="A100 SXM", vendor="NVIDIA", year=2020,
        bf16_flop_per_s=312 * u.TFLOP_per_s, fp8_flop_per_s=None,
        hbm_bytes=80 * u.GB, hbm_bandwidth_bytes_per_s=2.039 * u.TB_per_s,
        power_w=400 * u.W, scale_up_link="NVLink 3",
        sources=(MLENG_ACCELERATORS.at("A100 SXM row"),),
    ),
    GPU(
        name="H100 SXM", vendor="NVIDIA", year=2022,
        bf16_flop_per_s=989.4 * u.TFLOP_per_s, fp8_flop_per_s=1978.9 * u.TFLOP_per_s,
        hbm_bytes=80 * u.GB, hbm_bandwidth_bytes_per_s=3.35 * u.TB_per_s,
        power_w=700 * u.W, scale_up_link="NVLink 4",
        sources=(
            MLENG_ACCELERATORS.at("H100 SXM row"),
            Source(title="G. K. Lockwood, H100 (digital garden)", year=2025,
                   url="https://glennklockwood.com/garden/processors/h100",
                   note="theoretical peaks 989.4 (BF16 dense) and 1978.9 (FP8 dense) TFLOP/s"),
        ),
    ),
])


def gpu(name: str) -> GPU:
    """The catalog GPU called ``name``; an unknown name lists the valid ones."""
    return _lookup("GPU", GPUS, name)



# Links ------------------------------------------------------------------------

LINKS = _table([
    Link(
        name="NVLink 3", family="NVLink", year=2020,
        per_direction_bytes_per_s=25 * u.GB_per_s, links_per_gpu=12,
        sources=(MLENG_NETWORK.at("NVLink table"),
                 Source(title="NVIDIA NVLink and NVSwitch (A100 generation page)", year=2020,
                        url="https://www.nvidia.com/de-de/data-center/nvlink/",
                        note="up to twelve NVLink connections, 600 GB/s per GPU both directions")),
    ),
    Link(
        name="NVLink 4", family="NVLink", year=2022,
        per_direction_bytes_per_s=25 * u.GB_per_s, links_per_gpu=18,
        sources=(MLENG_NETWORK.at("NVLink table"),
                 Source(title="NVIDIA Hopper architecture", year=2022,
                        url="https://www.nvidia.com/en-sg/technologies/hopper-architecture/",
                        note="900 GB/s bidirectional per GPU over 18 links")),
    ),
    Link(
        name="InfiniBand HDR", family="InfiniBand", year=2018,
        per_direction_bytes_per_s=200 * u.Gbit_per_s, lanes=4,
        lane_signalling_bit_per_s=53.125e9, encoding="64b/66b + FEC (PAM4)",
        sources=(MLENG_NETWORK.at("InfiniBand table"),),
    ),
    Link(
        name="InfiniBand NDR", family="InfiniBand", year=2021,
        per_direction_bytes_per_s=400 * u.Gbit_per_s, lanes=4,
        lane_signalling_bit_per_s=106.25e9, encoding="64b/66b + FEC (PAM4)",
        sources=(MLENG_NETWORK.at("InfiniBand table"),),
    ),
])


def link(name: str) -> Link:
    """The catalog link called ``name``; an unknown name lists the valid ones."""
    return _lookup("link", LINKS, name)


# Switches ---------------------------------------------------------------------

SWITCHES = _table([
    Switch(
        name="Quantum-2 QM9700", vendor="NVIDIA", family="InfiniBand", year=2021,
        ports=64, port_per_direction_bytes_per_s=400 * u.Gbit_per_s, in_network_reduction=True,
        sources=(Source(title="ComputerBase: Nvidia Quantum-2, ein 400-Gbit/s-Switch mit 57 Milliarden Transistoren",
                        year=2021,
                        url="https://computerbase.de/2021-11/nvidia-quantum-2-ein-400-gbit-s-switch-mit-57-milliarden-transistoren"),),
    ),
])


def switch(name: str) -> Switch:
    """The catalog switch called ``name``; an unknown name lists the valid ones."""
    return _lookup("switch", SWITCHES, name)


# NICs -------------------------------------------------------------------------

NICS = _table([])


def nic(name: str) -> NIC:
    """The catalog NIC called ``name``; an unknown name lists the valid ones."""
    return _lookup("NIC", NICS, name)


# Systems ----------------------------------------------------------------------

SYSTEMS = _table([])


def system(name: str) -> System:
    """The catalog system called ``name``; an unknown name lists the valid ones."""
    return _lookup("system", SYSTEMS, name)
