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
from .sources import MLENG_ACCELERATORS, Source

__all__ = ["GPU", "GPUS", "gpu"]


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

