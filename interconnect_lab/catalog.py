"""Hardware catalog: GPUs, links, switches, NICs, systems and memory tiers, each with its source.

Every entry is a frozen, keyword-only dataclass, validated when it is built, in
base SI units (see :mod:`interconnect_lab.units`). Link and port rates are stored
**per direction**; vendors' "both directions added" figures are halved on entry
and the conversion is visible in the code. FLOP/s are **dense** (no 2:4
sparsity).

Look entries up by name::

    >>> from interconnect_lab import catalog, units as u
    >>> catalog.gpu("H100 SXM").bf16_flop_per_s / u.TFLOP_per_s
    989.4
    >>> nvlink4 = catalog.link("NVLink 4")
    >>> nvlink4.per_gpu_per_direction_bytes_per_s / u.GB_per_s    # 18 links x 25 GB/s
    450.0
    >>> u.both_directions(nvlink4.per_gpu_per_direction_bytes_per_s) / u.GB_per_s  # NVIDIA's "900 GB/s"
    900.0

Make a what-if variant with ``dataclasses.replace``; validation runs again::

    >>> import dataclasses
    >>> faster = dataclasses.replace(catalog.gpu("H100 SXM"), name="H100 at 2x", bf16_flop_per_s=2 * 989.4e12)
    >>> faster.bf16_flop_per_s / u.TFLOP_per_s
    1978.8

An unknown name lists the valid ones::

    >>> catalog.switch("Quantum-3")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: unknown switch name 'Quantum-3'; valid switch names are: 'NVSwitch 1', ...

Tables: ``GPUS``, ``LINKS``, ``SWITCHES``, ``NICS``, ``SYSTEMS``,
``MEMORY_TIERS`` (read-only mappings from name to entry).

Notes
-----
How vendors quote the same kind of number differs, and the catalog's derived
properties make each convention explicit:

* NVLink and PCIe are headlined with both directions added ("900 GB/s per H100",
  "128 GB/s for PCIe Gen5 x16"); network ports per direction ("400 Gb/s").
* PCIe's "128 GB/s" is the raw signalling rate (before 128b/130b encoding) of
  both directions; the data rate is 63.0 GB/s per direction. See
  :attr:`Link.signalling_per_direction_bytes_per_s`.
* Switch capacity is quoted both ways: NVIDIA's Quantum-2 "51.2 Tb/s" adds both
  directions (64 x 400 Gb/s x 2), Broadcom's Tomahawk 5 "51.2 Tb/s" is one
  direction (64 x 800 Gb/s). See :attr:`Switch.capacity_per_direction_bytes_per_s`
  and :attr:`Switch.capacity_both_directions_bytes_per_s`.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from types import MappingProxyType

from . import units as u
from ._validation import check_choice, check_integer, check_number
from .sources import (
    GLENN_NVLINK,
    GLENN_PCIE_GEN6,
    INFINIBAND_JP_SPEEDS,
    MLENG_ACCELERATORS,
    MLENG_NETWORK,
    NVIDIA_GRACE_HOPPER,
    NVIDIA_NVLINK,
    NVIDIA_NVLINK_HEALTH_CHECKS,
    NVIDIA_NVSWITCH3_BLOG,
    NVIDIA_SUPERPOD_GB200_NETWORK,
    NVIDIA_SUPERPOD_H100_COMPONENTS,
    POND,
    WIKIPEDIA_PCIE,
    Source,
)

__all__ = [
    "GPU", "Link", "Switch", "NIC", "System", "MemoryTier",
    "GPUS", "LINKS", "SWITCHES", "NICS", "SYSTEMS", "MEMORY_TIERS",
    "gpu", "link", "switch", "nic", "system", "memory_tier", "hbm_tier", "breakout",
]


# Validation helpers -------------------------------------------------------------

def _check_sources(entry):
    sources = entry.sources
    if isinstance(sources, Source):
        sources = (sources,)
    if isinstance(sources, list):
        sources = tuple(sources)
    if not isinstance(sources, tuple) or not sources or not all(isinstance(s, Source) for s in sources):
        raise ValueError(
            f"{type(entry).__name__} {entry.name!r} needs at least one Source in `sources`: "
            "every real-world number in the catalog says where it comes from"
        )
    object.__setattr__(entry, "sources", sources)


def _check_text(entry, *fields, optional=()):
    for field in fields:
        value = getattr(entry, field)
        if value is None and field in optional:
            continue
        if not isinstance(value, str) or not value.strip():
            raise TypeError(
                f"{type(entry).__name__}.{field} must be a non-empty string, got {value!r}"
            )


def _check_member(entry, field, choices):
    value = getattr(entry, field)
    if value not in choices:
        listed = ", ".join(repr(c) for c in choices)
        raise ValueError(
            f"{type(entry).__name__}.{field} = {value!r} is not valid: it must be one of {listed}"
        )


def _check_positive_fields(entry, fields_and_units, *, allow_none=()):
    for field, unit in fields_and_units:
        value = getattr(entry, field)
        if value is None and field in allow_none:
            continue
        checked = check_number(f"{type(entry).__name__}.{field}", value, unit=unit,
                               minimum=0, min_inclusive=False)
        object.__setattr__(entry, field, checked)


def _check_optional_integers(entry, fields, *, minimum):
    for field in fields:
        value = getattr(entry, field)
        if value is not None:
            object.__setattr__(entry, field, check_integer(
                f"{type(entry).__name__}.{field}", value, minimum=minimum))


# GPU ------------------------------------------------------------------------------

A100_DATASHEET = Source(
    title="NVIDIA A100 Tensor Core GPU datasheet", year=2021,
    url="https://www.nvidia.com/content/dam/en-zz/Solutions/Data-Center/a100/pdf/nvidia-a100-datasheet-us-nvidia-1758950-r4-web.pdf",
    note="A100 40GB SXM: 40 GB HBM2, 1,555 GB/s; A100 80GB SXM: 80 GB HBM2e, 2,039 GB/s; 108 SMs per the A100 whitepaper")


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
    measured_matmul_flop_per_s : float or None
        Maximum achievable matmul rate: the best dense BF16 matmul measured over many
        shapes on a real GPU with its software stack ("MAMF") [FLOP/s]; None where no
        measurement is published. No real kernel reaches the datasheet peak.
    streaming_multiprocessors : int or None
        Streaming multiprocessors (NVIDIA) or compute units (AMD): how many GEMM
        tiles run at once (:mod:`interconnect_lab.matmul`); None where unknown.
    sources : tuple of Source
        Where the figures come from.

    Examples
    --------
    >>> from interconnect_lab import catalog, units as u
    >>> round(catalog.gpu("H100 SXM").matmul_fraction_of_peak, 3)   # best measured matmul / peak
    0.803
    >>> b200 = catalog.gpu("B200")
    >>> b200.bf16_flop_per_s / catalog.gpu("H100 SXM").bf16_flop_per_s   # same precision, dense
    2.274
    >>> b200.scale_up_link
    'NVLink 5'
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
    measured_matmul_flop_per_s: float | None = None
    streaming_multiprocessors: int | None = None
    sources: tuple[Source, ...]

    def __post_init__(self):
        _check_sources(self)
        _check_text(self, "name", "vendor", "scale_up_link", optional=("scale_up_link",))
        check_integer("GPU.year", self.year, minimum=2000, maximum=2100)
        _check_positive_fields(self, [
            ("bf16_flop_per_s", "FLOP/s"), ("fp8_flop_per_s", "FLOP/s"), ("hbm_bytes", "B"),
            ("hbm_bandwidth_bytes_per_s", "B/s"), ("power_w", "W"),
            ("measured_matmul_flop_per_s", "FLOP/s"),
        ], allow_none=("fp8_flop_per_s", "measured_matmul_flop_per_s"))

    @property
    def matmul_fraction_of_peak(self) -> float | None:
        """Best measured BF16 matmul rate over the dense BF16 peak [-]; None if unmeasured."""
        if self.measured_matmul_flop_per_s is None:
            return None
        return self.measured_matmul_flop_per_s / self.bf16_flop_per_s


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
    sources: tuple[Source, ...]

    FAMILIES = ("NVLink", "NVLink-C2C", "Infinity Fabric", "PCIe", "CXL", "InfiniBand", "Ethernet")

    def __post_init__(self):
        _check_sources(self)
        _check_text(self, "name", "encoding", "phy", optional=("encoding", "phy"))
        _check_member(self, "family", self.FAMILIES)
        check_integer("Link.year", self.year, minimum=1990, maximum=2100)
        _check_positive_fields(self, [
            ("per_direction_bytes_per_s", "B/s"), ("lane_signalling_bit_per_s", "bit/s"),
            ("latency_s", "s"),
        ], allow_none=("lane_signalling_bit_per_s", "latency_s"))
        _check_optional_integers(self, ("links_per_gpu", "lanes"), minimum=1)

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


# Switch ---------------------------------------------------------------------------

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
        Typical or maximum power where sourced [W] (the source says which, and marks
        analyst estimates).
    in_network_reduction : bool
        Whether the switch can reduce data itself (SHARP, NVLink SHARP).
    sources : tuple of Source
        Where the figures come from.

    Examples
    --------
    >>> from interconnect_lab import catalog, units as u
    >>> qm9700 = catalog.switch("Quantum-2 QM9700")
    >>> qm9700.capacity_both_directions_bytes_per_s / u.Tbit_per_s   # NVIDIA's "51.2 Tb/s"
    51.2
    >>> catalog.switch("Tomahawk 5").capacity_per_direction_bytes_per_s / u.Tbit_per_s  # Broadcom's
    51.2
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
        _check_text(self, "name", "vendor")
        _check_member(self, "family", self.FAMILIES)
        check_integer("Switch.year", self.year, minimum=1990, maximum=2100)
        check_integer("Switch.ports", self.ports, minimum=2)
        _check_positive_fields(self, [
            ("port_per_direction_bytes_per_s", "B/s"), ("latency_s", "s"), ("power_w", "W"),
        ], allow_none=("latency_s", "power_w"))
        if not isinstance(self.in_network_reduction, bool):
            raise TypeError(
                f"Switch.in_network_reduction must be True or False, got {self.in_network_reduction!r}"
            )

    @property
    def capacity_per_direction_bytes_per_s(self) -> float:
        """All ports together, one direction [B/s]."""
        return self.ports * self.port_per_direction_bytes_per_s

    @property
    def capacity_both_directions_bytes_per_s(self) -> float:
        """All ports together, both directions added, as some vendors quote capacity [B/s]."""
        return u.both_directions(self.capacity_per_direction_bytes_per_s)


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


# System ---------------------------------------------------------------------------

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
    cpu_sockets : int or None
        CPU sockets (NUMA domains with their own host memory) where sourced; the
        GPUs and NICs are split evenly among them.
    sources : tuple of Source
        Where the figures come from.

    Examples
    --------
    >>> from interconnect_lab import catalog, units as u
    >>> nvl72 = catalog.system("GB200 NVL72")
    >>> nvl72.gpus, nvl72.scale_up_switches
    (72, 18)
    >>> dgx = catalog.system("DGX H100")
    >>> dgx.nics * catalog.nic(dgx.nic).per_direction_bytes_per_s / u.GB_per_s   # scale-out, one direction
    400.0
    """

    name: str
    gpu: str
    gpus: int
    scale_up_switch: str | None
    scale_up_switches: int
    nic: str | None
    nics: int
    power_w: float | None = None
    cpu_sockets: int | None = None
    sources: tuple[Source, ...]

    def __post_init__(self):
        _check_sources(self)
        _check_text(self, "name", "gpu", "scale_up_switch", "nic",
                    optional=("scale_up_switch", "nic"))
        check_integer("System.gpus", self.gpus, minimum=1)
        check_integer("System.scale_up_switches", self.scale_up_switches, minimum=0)
        check_integer("System.nics", self.nics, minimum=0)
        _check_positive_fields(self, [("power_w", "W")], allow_none=("power_w",))
        _check_optional_integers(self, ("cpu_sockets",), minimum=1)

    @property
    def gpus_per_socket(self) -> int | None:
        """GPUs attached to one CPU socket; None where the sockets are not sourced.

        Examples
        --------
        >>> system("DGX H100").gpus_per_socket
        4
        """
        return None if self.cpu_sockets is None else self.gpus // self.cpu_sockets


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
        _check_sources(self)
        _check_text(self, "name", "path", optional=("path",))
        _check_member(self, "bandwidth_direction", self.BANDWIDTH_DIRECTIONS)
        _check_positive_fields(self, [
            ("bandwidth_bytes_per_s", "B/s"), ("latency_s", "s"), ("capacity_bytes", "B"),
        ], allow_none=("latency_s", "capacity_bytes"))


# Tables and look-up ----------------------------------------------------------------

def _table(entries):
    table = {}
    for entry in entries:
        if entry.name in table:
            raise ValueError(f"duplicate catalog name {entry.name!r}")
        table[entry.name] = entry
    return MappingProxyType(table)


def _lookup(kind, table, name):
    if isinstance(name, str):
        check_choice(f"{kind} name", name, table)
        return table[name]
    raise TypeError(f"{kind} must be a catalog name (one of {', '.join(map(repr, table))}), got {name!r}")


# GPUs -------------------------------------------------------------------------------

# Measured best-shape BF16 matmul rates (MAMF): what a real kernel reaches, unlike the peak.
_MAMF_SOURCE = MLENG_ACCELERATORS.at(
    "Maximum Achievable Matmul FLOPS comparison table",
    note="BF16, no sparsity, mean of 100 iterations after 50 warm-up, best of many shapes; "
         "A100 SXM 271.2, H100 SXM 794.5, B200 1,745, GB200 1,822, MI300X 668.4 TFLOP/s")

GPUS = _table([
    GPU(
        name="A100 SXM", vendor="NVIDIA", year=2020,
        bf16_flop_per_s=312 * u.TFLOP_per_s, fp8_flop_per_s=None,
        hbm_bytes=80 * u.GB, hbm_bandwidth_bytes_per_s=2.039 * u.TB_per_s,
        power_w=400 * u.W, scale_up_link="NVLink 3",
        measured_matmul_flop_per_s=271.2 * u.TFLOP_per_s,
        streaming_multiprocessors=108,
        sources=(MLENG_ACCELERATORS.at("A100 SXM row"), _MAMF_SOURCE),
    ),
    GPU(
        name="A100 SXM 40GB", vendor="NVIDIA", year=2020,
        bf16_flop_per_s=312 * u.TFLOP_per_s, fp8_flop_per_s=None,
        hbm_bytes=40 * u.GB, hbm_bandwidth_bytes_per_s=1.555 * u.TB_per_s,
        power_w=400 * u.W, scale_up_link="NVLink 3",
        measured_matmul_flop_per_s=271.2 * u.TFLOP_per_s,
        streaming_multiprocessors=108,
        sources=(A100_DATASHEET, MLENG_ACCELERATORS.at("A100 SXM row"), _MAMF_SOURCE),
    ),
    GPU(
        name="H100 SXM", vendor="NVIDIA", year=2022,
        bf16_flop_per_s=989.4 * u.TFLOP_per_s, fp8_flop_per_s=1978.9 * u.TFLOP_per_s,
        hbm_bytes=80 * u.GB, hbm_bandwidth_bytes_per_s=3.35 * u.TB_per_s,
        power_w=700 * u.W, scale_up_link="NVLink 4",
        measured_matmul_flop_per_s=794.5 * u.TFLOP_per_s,
        streaming_multiprocessors=132,
        sources=(
            MLENG_ACCELERATORS.at("H100 SXM row"), _MAMF_SOURCE,
            Source(title="G. K. Lockwood, H100 (digital garden)", year=2025,
                   url="https://glennklockwood.com/garden/processors/h100",
                   note="theoretical peaks 989.4 (BF16 dense) and 1978.9 (FP8 dense) TFLOP/s"),
        ),
    ),
    GPU(
        # Same GH100 die and clocks as H100 SXM; more and faster memory.
        name="H200 SXM", vendor="NVIDIA", year=2024,
        bf16_flop_per_s=989.4 * u.TFLOP_per_s, fp8_flop_per_s=1978.9 * u.TFLOP_per_s,
        hbm_bytes=141 * u.GB, hbm_bandwidth_bytes_per_s=4.8 * u.TB_per_s,
        power_w=700 * u.W, scale_up_link="NVLink 4",
        streaming_multiprocessors=132,
        sources=(
            MLENG_ACCELERATORS.at("TFLOPS comparison table, H200 SXM row",
                                  note="same dense peaks as H100 SXM; 141 GB HBM3e at 4.8 TB/s"),
            Source(title="MLCommons Inference v4.1, NVIDIA system description H200-SXM-141GBx8",
                   year=2024,
                   url=("https://raw.githubusercontent.com/mlcommons/inference_results_v4.1/main/"
                        "closed/NVIDIA/systems/H200-SXM-141GBx8_TRT_MaxQ.json"),
                   note="'H200 TGP 700W'; '18x 4th Gen NVLink, 900GB/s'; 141 GB HBM3e"),
        ),
    ),
    GPU(
        name="B200", vendor="NVIDIA", year=2024,
        bf16_flop_per_s=2250 * u.TFLOP_per_s, fp8_flop_per_s=4500 * u.TFLOP_per_s,
        # 180 GB is the usable capacity NVIDIA's HGX/DGX B200 documents give (1,440 GB per
        # 8 GPUs); the marketing figure is 192 GB.
        hbm_bytes=180 * u.GB, hbm_bandwidth_bytes_per_s=8 * u.TB_per_s,
        power_w=1000 * u.W, scale_up_link="NVLink 5",
        measured_matmul_flop_per_s=1745.0 * u.TFLOP_per_s,
        streaming_multiprocessors=148,
        sources=(
            _MAMF_SOURCE,
            MLENG_ACCELERATORS.at("B200 rows",
                                  note="dense 2,250 BF16 / 4,500 FP8 TFLOP/s (DGX B200 datasheet); "
                                       "180 GB usable HBM3e at 8 TB/s; 1,000 W max TGP"),
        ),
    ),
    GPU(
        # One Blackwell GPU of a GB200 superchip, as run in the NVL72 rack (clocked above B200).
        name="GB200", vendor="NVIDIA", year=2024,
        bf16_flop_per_s=2500 * u.TFLOP_per_s, fp8_flop_per_s=5000 * u.TFLOP_per_s,
        hbm_bytes=186 * u.GB, hbm_bandwidth_bytes_per_s=8 * u.TB_per_s,
        power_w=1200 * u.W, scale_up_link="NVLink 5",
        measured_matmul_flop_per_s=1822.0 * u.TFLOP_per_s,
        streaming_multiprocessors=148,
        sources=(
            _MAMF_SOURCE,
            MLENG_ACCELERATORS.at("GB200 rows",
                                  note="per Blackwell GPU, dense: 2,500 BF16 / 5,000 FP8 TFLOP/s "
                                       "(NVIDIA GB200 NVL72 page: 720 PF sparse FP8 / 72 / 2); "
                                       "1,200 W max per GPU (NVIDIA Mission Control FAQ)"),
            Source(title="MLCommons Inference v6.1, Crusoe system description GB200-NVL72",
                   year=2025,
                   url=("https://raw.githubusercontent.com/mlcommons/inference_results_v6.1/main/"
                        "closed/Crusoe/systems/GB200-NVL72_GB200-186GB_aarch64x16_Dynamo.json"),
                   note="'accelerator_memory_capacity': '186 GB' HBM3e per GPU"),
        ),
    ),
    GPU(
        name="MI300X", vendor="AMD", year=2023,
        bf16_flop_per_s=1307.4 * u.TFLOP_per_s, fp8_flop_per_s=2614.9 * u.TFLOP_per_s,
        hbm_bytes=192 * u.GB, hbm_bandwidth_bytes_per_s=5.3 * u.TB_per_s,
        power_w=750 * u.W, scale_up_link="Infinity Fabric (MI300X)",
        measured_matmul_flop_per_s=668.4 * u.TFLOP_per_s,
        streaming_multiprocessors=304,
        sources=(
            _MAMF_SOURCE,
            MLENG_ACCELERATORS.at("MI300X rows",
                                  note="dense 1,307.4 BF16 TFLOP/s = 2,100 MHz x 256 x 2 x 1,216 "
                                       "(AMD spec), FP8 twice that; 192 GB HBM3 at 5.3 TB/s; "
                                       "750 W peak typical board power"),
        ),
    ),
])


def gpu(name: str) -> GPU:
    """The catalog GPU called ``name``; an unknown name lists the valid ones.

    Examples
    --------
    >>> gpu("MI300X").hbm_bytes / 1e9
    192.0
    """
    return _lookup("GPU", GPUS, name)


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
_ETHERNET_400G = Source(
    title="IEEE P802.3bs Task Force, [STDS-802-3-400G] IEEE P802.3bs Approved!",
    year=2017,
    url="http://www.ieee802.org/3/400GSG/email/msg01519.html",
    note="IEEE 802.3bs (200 Gb/s and 400 Gb/s Ethernet) approved 6 Dec 2017",
)

LINKS = _table([
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
    # CXL runs on the PCIe PHY of its generation: same lanes, signalling and encoding.
    dataclasses.replace(_PCIE_GEN5_X16, name="CXL 1.1 x16", family="CXL", year=2019,
                        phy="PCIe Gen5 x16", sources=(_CXL_CONSORTIUM_1_1,)),
    dataclasses.replace(_PCIE_GEN5_X16, name="CXL 2.0 x16", family="CXL", year=2020,
                        phy="PCIe Gen5 x16", sources=(_CXL_CONSORTIUM_2_0,)),
    dataclasses.replace(_PCIE_GEN6_X16, name="CXL 3.x x16", family="CXL", year=2022,
                        phy="PCIe Gen6 x16", sources=(_CXL_3,)),
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

    Examples
    --------
    >>> from interconnect_lab import units as u
    >>> link("NVLink 5").per_gpu_both_directions_bytes_per_s / u.TB_per_s
    1.8
    """
    return _lookup("link", LINKS, name)


# Switches ---------------------------------------------------------------------------

SWITCHES = _table([
    Switch(
        # DGX-2 (16 x V100): 6 chips per baseboard; each switch has 2 ports unused.
        name="NVSwitch 1", vendor="NVIDIA", family="NVSwitch", year=2018,
        ports=18, port_per_direction_bytes_per_s=LINKS["NVLink 2"].per_direction_bytes_per_s,
        power_w=100 * u.W,
        sources=(Source(title="WikiChip, NVSwitch - Nvidia", year=2018,
                        url="https://en.wikichip.org/w/index.php?title=nvidia%2Fnvswitch&printable=yes",
                        note="secondary: 18 NVLink 2 ports of 50 GB/s (both directions), 900 GB/s "
                             "total, 2 billion transistors, TSMC 12 nm, 100 W; announced GTC 2018"),),
    ),
    Switch(
        # 6 chips per HGX/DGX A100 board: 8 GPUs x 12 links = 96 GPU links, 16 per chip.
        name="NVSwitch 2", vendor="NVIDIA", family="NVSwitch", year=2020,
        ports=36, port_per_direction_bytes_per_s=LINKS["NVLink 3"].per_direction_bytes_per_s,
        sources=(Source(title="NVIDIA A100 whitepaper notes (J. Zhang)", year=2021,
                        url="https://jingchaozhang.github.io/A100-white-paper/",
                        estimate=True,
                        note=("6 NVSwitches per 8-GPU board, 4.8 TB/s both directions in total. The "
                              "radix of 36 ports per chip is widely reported but no primary source "
                              "was found: treat it as an estimate")),),
    ),
    Switch(
        name="NVSwitch 3", vendor="NVIDIA", family="NVSwitch", year=2022,
        ports=64, port_per_direction_bytes_per_s=LINKS["NVLink 4"].per_direction_bytes_per_s,
        in_network_reduction=True,
        sources=(NVIDIA_NVSWITCH3_BLOG, GLENN_NVLINK,
                 Source(title="NVIDIA NVLink and NVSwitch (H100 generation page, mirrored)", year=2022,
                        url="http://revitdc.org/index-368.html",
                        note="'each NVSwitch has 64 NVLink ports equipped with engines for NVIDIA "
                             "SHARP for in-network reductions and multicast acceleration'")),
    ),
    Switch(
        # Blackwell generation: two of these chips make one NVLink Switch tray.
        name="NVLink Switch chip", vendor="NVIDIA", family="NVSwitch", year=2024,
        ports=72, port_per_direction_bytes_per_s=LINKS["NVLink 5"].per_direction_bytes_per_s,
        in_network_reduction=True,
        sources=(NVIDIA_NVLINK.at("NVIDIA NVLink Switch",
                                  note="144 NVLink ports per tray of 2 chips, 72 per chip; SHARP engines"),
                 NVIDIA_SUPERPOD_GB200_NETWORK, GLENN_NVLINK),
    ),
    Switch(
        name="NVLink Switch tray", vendor="NVIDIA", family="NVSwitch", year=2024,
        ports=144, port_per_direction_bytes_per_s=LINKS["NVLink 5"].per_direction_bytes_per_s,
        in_network_reduction=True,
        sources=(NVIDIA_NVLINK.at("NVIDIA NVLink Switch",
                                  note="144 NVLink ports, non-blocking switching capacity of 14.4 TB/s "
                                       "(both directions: 144 x 100 GB/s)"),
                 NVIDIA_SUPERPOD_GB200_NETWORK),
    ),
    Switch(
        name="Quantum QM8700", vendor="NVIDIA (Mellanox)", family="InfiniBand", year=2018,
        ports=40, port_per_direction_bytes_per_s=LINKS["InfiniBand HDR"].per_direction_bytes_per_s,
        latency_s=130 * u.ns, in_network_reduction=True,
        sources=(Source(title="NVIDIA, QM87xx 1U HDR 200Gb/s InfiniBand Switch Systems User Manual",
                        year=2018,
                        url="https://docs.nvidia.com/networking/display/QM87XX/Document+Revision+History",
                        note="initial release Nov 2018"),
                 Source(title="IT4Innovations documentation (CESNET/eInfra-docs), Karolina: Network",
                        year=2021,
                        url=("https://github.com/CESNET/eInfra-docs/blob/065afc086d242746d9455e82554248e4b3c95ed2/"
                             "docs.it4i/karolina/network.md"),
                        note=("quotes the Mellanox QM8790 brief: 40 x HDR 200 Gb/s ports, 16 Tb/s, "
                              "'sub-130ns port-to-port latency' (stored as 130 ns, a ceiling), "
                              "SHARP collective offloads")),
                 Source(title="TOP500, Mellanox Unveils HDR InfiniBand Lineup", year=2016,
                        url="https://www.top500.org/news/mellanox-unveils-hdr-infiniband-lineup",
                        note="Quantum: 40 ports of 200 Gb/s or 80 of 100 Gb/s")),
    ),
    Switch(
        # Port-to-port latency: published figures conflict (<150 ns vs ~330 ns); left unset.
        name="Quantum-2 QM9700", vendor="NVIDIA", family="InfiniBand", year=2021,
        ports=64, port_per_direction_bytes_per_s=LINKS["InfiniBand NDR"].per_direction_bytes_per_s,
        in_network_reduction=True,
        sources=(Source(title="ComputerBase: Nvidia Quantum-2, ein 400-Gbit/s-Switch mit 57 Milliarden Transistoren",
                        year=2021,
                        url="https://computerbase.de/2021-11/nvidia-quantum-2-ein-400-gbit-s-switch-mit-57-milliarden-transistoren",
                        note="64 x 400 Gb/s or 128 x 200 Gb/s; SHARPv3"),
                 Source(title="NVIDIA, QM97XX 1U NDR 400Gbps InfiniBand Switch Systems User Manual: Interfaces",
                        year=2023,
                        url="https://docs.nvidia.com/networking/display/QM97X0PUB/Interfaces",
                        note="32 OSFP cages, each 2 logical InfiniBand ports")),
    ),
    Switch(
        name="Quantum-X800 Q3400", vendor="NVIDIA", family="InfiniBand", year=2024,
        ports=144, port_per_direction_bytes_per_s=LINKS["InfiniBand XDR"].per_direction_bytes_per_s,
        in_network_reduction=True,
        sources=(Source(title="NVIDIA, Q3200-RA/Q3400-RA XDR 800Gb/s InfiniBand Switch Systems User Manual",
                        year=2024,
                        url="https://docs.nvidia.com/networking/display/XDRSwitchesHWUM/Document+Revision+History",
                        note="initial release Sep 2024"),
                 Source(title="Quantum Computing News, What is NVIDIA Quantum-X800", year=2025,
                        url="https://quantum-computing.news/what-is-nvidia-quantum-x800-how-it-works/",
                        note="secondary: up to 144 ports of 800 Gb/s, 200 Gb/s-per-lane SerDes, SHARP v4"),
                 MLENG_NETWORK.at("NVIDIA Quantum InfiniBand", note="800 Gb/s per port, SHARP v4")),
    ),
    Switch(
        # Broadcom publishes no power; 500 W is an analyst's estimate (another gives 450 W typical).
        name="Tomahawk 5", vendor="Broadcom", family="Ethernet", year=2022,
        ports=64, port_per_direction_bytes_per_s=LINKS["Ethernet 800G"].per_direction_bytes_per_s,
        power_w=500 * u.W,
        sources=(Source(title="Broadcom, Broadcom Ships Tomahawk 5 (press release, via Signal Integrity Journal)",
                        year=2022,
                        url=("https://www.signalintegrityjournal.com/articles/2766-broadcom-ships-tomahawk-5-"
                             "industrys-highest-bandwidth-switch-chip-to-accelerate-ai-ml-workloads"),
                        note="51.2 Tb/s (one direction: 64 x 800GbE), 512 x 100G PAM4 SerDes, 5 nm, Aug 2022"),
                 Source(title="TechInsights (J. Byrne), Tomahawk 5 Switches At 51.2Tbps", year=2022,
                        url="https://www-prod.techinsights.com/ko/node/49000",
                        estimate=True, note="'We estimate power consumption ... reaching 500W'")),
    ),
    Switch(
        name="Spectrum-4 SN5600", vendor="NVIDIA", family="Ethernet", year=2022,
        ports=64, port_per_direction_bytes_per_s=LINKS["Ethernet 800G"].per_direction_bytes_per_s,
        sources=(Source(title="NVIDIA, SN5000 Series Switch User Manual: Data Interfaces", year=2023,
                        url="https://docs.nvidia.com/networking/display/sn5000/data+interfaces",
                        note="SN5600: 64 ports of 800GbE (100 Gb/s per lane)"),
                 Source(title="Converge Digest, NVIDIA unveils 51.2T Spectrum-4 switch", year=2022,
                        url="https://convergedigest.blogspot.com/2022/03/nvidia-unveils-512t-spectrum-4-switch.html",
                        note="secondary: announced March 2022, 51.2 Tb/s, 4 nm, 100G PAM4 SerDes"),
                 MLENG_NETWORK.at("Spectrum-X", note="SN5600: 64 x 800GbE OSFP, 51.2 Tb/s, 2U")),
    ),
])


def switch(name: str) -> Switch:
    """The catalog switch called ``name``; an unknown name lists the valid ones.

    Examples
    --------
    >>> switch("Quantum-X800 Q3400").ports
    144
    """
    return _lookup("switch", SWITCHES, name)


def breakout(switch_or_name, ways):
    """A switch run with each port split ``ways`` ways: ``ways`` times the ports at 1/``ways`` the rate.

    Switch chips drive their ports from SerDes lanes, so a 64-port 800 Gb/s chip can
    serve 128 ports of 400 Gb/s (Tomahawk 5: "64 x 800GbE / 128 x 400GbE / 256 x
    200GbE"). Capacity, latency, power and sources stay those of the catalog entry;
    the name says the mode, e.g. ``"Tomahawk 5 (128 x 400G)"``.

    Parameters
    ----------
    switch_or_name : Switch or str
        A catalog switch or its name.
    ways : int
        Ports each physical port is split into, >= 1 (1 returns the switch as it is).

    Returns
    -------
    Switch

    Raises
    ------
    ValueError
        If ``ways`` is not a whole number >= 1 or the name is unknown.

    Examples
    --------
    >>> split = breakout("Tomahawk 5", 2)
    >>> split.name, split.ports, split.port_per_direction_bytes_per_s / u.Gbit_per_s
    ('Tomahawk 5 (128 x 400G)', 128, 400.0)
    >>> split.capacity_per_direction_bytes_per_s == switch("Tomahawk 5").capacity_per_direction_bytes_per_s
    True
    """
    entry = switch_or_name if isinstance(switch_or_name, Switch) else switch(switch_or_name)
    ways = check_integer("ways", ways, minimum=1)
    if ways == 1:
        return entry
    rate = entry.port_per_direction_bytes_per_s / ways
    return dataclasses.replace(entry, name=f"{entry.name} ({entry.ports * ways} x {rate / u.Gbit_per_s:g}G)",
                               ports=entry.ports * ways, port_per_direction_bytes_per_s=rate)


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

    Examples
    --------
    >>> nic("ConnectX-8").host_link
    'PCIe Gen6 x16'
    """
    return _lookup("NIC", NICS, name)


# Systems ----------------------------------------------------------------------------

SYSTEMS = _table([
    System(
        name="DGX H100", gpu="H100 SXM", gpus=8,
        scale_up_switch="NVSwitch 3", scale_up_switches=4,
        nic="ConnectX-7", nics=8,
        power_w=10.2 * u.kW,
        cpu_sockets=2,
        sources=(NVIDIA_SUPERPOD_H100_COMPONENTS, NVIDIA_NVSWITCH3_BLOG, GLENN_NVLINK,
                 Source(title="NVIDIA DGX H100/H200 System User Guide, 1.2.3 Network Modules, Table 6",
                        year=2023,
                        url="https://docs.nvidia.com/dgx/dgxh100-user-guide/introduction-to-dgxh100.html",
                        note=("two network modules of four ConnectX-7 each, one per CPU; the table pairs "
                              "each compute-fabric port with one GPU, GPUs 0-3 on module/CPU 0 and 4-7 on "
                              "module/CPU 1 (read in a copy of the guide)")),
                 Source(title="NVIDIA DGX H100 System User Guide", year=2023,
                        url="https://docs.nvidia.com/dgx/dgxh100-user-guide/",
                        estimate=True,
                        note=("'~10.2 kW max' system power as quoted from this guide by several "
                              "public pages; the guide itself was not re-read for this entry"))),
    ),
    System(
        # The HGX baseboard is sold to server makers; NICs vary by build. NVIDIA's reference
        # design gives each GPU its own 400 Gb/s adapter on the compute fabric.
        name="HGX H100", gpu="H100 SXM", gpus=8,
        scale_up_switch="NVSwitch 3", scale_up_switches=4,
        nic="ConnectX-7", nics=8,
        sources=(GLENN_NVLINK,
                 Source(title="NVIDIA HGX AI Factory (H100, H200, B200) reference architecture: Abstract",
                        year=2025,
                        url=("https://docs.nvidia.com/reference-architectures/hgx-ai-factory-h100-h200-"
                             "b200/abstract.md"),
                        note="2-8-9-400 configuration: 2 CPUs, 8 GPUs, 400 Gb/s per GPU on the "
                             "compute fabric (plus one north-south DPU)")),
    ),
    System(
        # Every GPU has one NVLink 5 link to each of the 18 switch chips: 72 x 18 = 18 x 72 ports.
        name="GB200 NVL72", gpu="GB200", gpus=72,
        scale_up_switch="NVLink Switch chip", scale_up_switches=18,
        nic="ConnectX-7", nics=72,
        sources=(NVIDIA_SUPERPOD_GB200_NETWORK, NVIDIA_NVLINK,
                 MLENG_NETWORK.at("DGX GB200", note="4 x ConnectX-7 400 Gb/s per compute tray (one per "
                                                    "GPU), citing the DGX GB200 user guide")),
    ),
])


def system(name: str) -> System:
    """The catalog system called ``name``; an unknown name lists the valid ones.

    Examples
    --------
    >>> system("HGX H100").scale_up_switch
    'NVSwitch 3'
    """
    return _lookup("system", SYSTEMS, name)


# Memory tiers -------------------------------------------------------------------------

_LOCAL_DRAM_LATENCY = Source(
    title="The Next Platform, Just How Bad Is CXL Memory Latency?", year=2022,
    url="https://www.nextplatform.com/2022/12/05/just-how-bad-is-cxl-memory-latency/",
    note="'the sub-100 nanosecond roundtrip latency you'd expect from DDR memory that's attached "
         "directly the CPU'; stored as 100 ns, a ceiling",
)

MEMORY_TIERS = _table([
    MemoryTier(
        name="Host DDR5 (one Xeon socket)",
        # 8 channels x 4,800 MT/s x 8 B = 307.2 GB/s, shared by reads and writes.
        bandwidth_bytes_per_s=8 * 4800 * u.mega * 8 * u.byte,
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

    Examples
    --------
    >>> memory_tier("CXL memory expander (x16)").path
    'CXL 2.0 x16'
    """
    return _lookup("memory tier", MEMORY_TIERS, name)


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
    the_gpu = gpu(gpu_or_name) if isinstance(gpu_or_name, str) else gpu_or_name
    if not isinstance(the_gpu, GPU):
        raise TypeError(f"gpu_or_name must be a GPU or a catalog GPU name, got {gpu_or_name!r}")
    return MemoryTier(
        name=f"HBM ({the_gpu.name})",
        bandwidth_bytes_per_s=the_gpu.hbm_bandwidth_bytes_per_s,
        bandwidth_direction="total",
        capacity_bytes=the_gpu.hbm_bytes,
        sources=the_gpu.sources,
    )
