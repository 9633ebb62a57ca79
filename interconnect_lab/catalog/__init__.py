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
``MEMORY_TIERS``, ``HOSTS`` (read-only mappings from name to entry).

Status
------
Entries of 2025-26 carry where they stand: ``status`` (one of ``STATUSES``:
shipping, sampling, announced, specification, in development), ``status_date``,
``as_of`` (when that was last checked) and, for a forward-looking status,
``expected_by``; :func:`overdue_entries` lists those whose expected-by date has
passed, and the test suite fails on any (see ``catalog/_common.py``).

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

from .gpus import A100_DATASHEET, GPU, GPUS, gpu
from .links import Link, LINKS, link
from .switches import Switch, SWITCHES, switch, breakout
from .nics import NIC, NICS, nic
from .systems import System, SYSTEMS, system
from .memory import MemoryTier, MEMORY_TIERS, memory_tier, hbm_tier, host_memory_tier
from .hosts import Host, HOSTS, host
from .racks import DISTRIBUTION_VOLTS, HVDC_800V, POWER_DISTRIBUTIONS, RACK_POWER, RackPower, rack_power
from ._common import FORWARD_LOOKING, STATUSES, period, status_line
from .scale_up import (ETHERNET_ROADMAP, SCALE_UP_FABRICS, RoadmapItem, ScaleUpFabric, roadmap_item,
                       scale_up_fabric)

__all__ = [
    "GPU", "Link", "Switch", "NIC", "System", "MemoryTier",
    "GPUS", "LINKS", "SWITCHES", "NICS", "SYSTEMS", "MEMORY_TIERS",
    "gpu", "link", "switch", "nic", "system", "memory_tier", "hbm_tier", "breakout",
    # scale-up fabrics and the Ethernet roadmap, marked shipping or not
    "ScaleUpFabric", "SCALE_UP_FABRICS", "scale_up_fabric", "RoadmapItem", "ETHERNET_ROADMAP", "roadmap_item",
    "STATUSES", "FORWARD_LOOKING", "period", "status_line", "is_shipping", "entries_with_status", "overdue_entries",
    # hosts: a CPU socket and its memory channels
    "Host", "HOSTS", "host", "host_memory_tier",
    # rack power and how it is distributed
    "RackPower", "RACK_POWER", "rack_power", "POWER_DISTRIBUTIONS", "DISTRIBUTION_VOLTS", "HVDC_800V",
]

#: Every table of the catalog that carries statuses, by the kind of entry it holds.
_status_tables = {"GPU": GPUS, "link": LINKS, "switch": SWITCHES, "NIC": NICS, "system": SYSTEMS, "host": HOSTS,
                 "rack": RACK_POWER,
                 "scale-up fabric": SCALE_UP_FABRICS, "roadmap item": ETHERNET_ROADMAP}


def is_shipping(entry) -> bool:
    """Whether a reader can buy ``entry`` now: status ``"shipping"``, or no status (an older entry that shipped).

    Parameters
    ----------
    entry : catalog entry
        Any entry of the catalog's tables.
    """
    return getattr(entry, "status", None) in (None, "shipping")


def entries_with_status():
    """Every catalog entry that carries a status, as ``(kind, entry)`` pairs in table order.

    Examples
    --------
    >>> kinds = {kind for kind, _ in entries_with_status()}
    >>> {"GPU", "scale-up fabric", "roadmap item"} <= kinds
    True
    """
    return [(kind, entry) for kind, table in _status_tables.items() for entry in table.values()
            if getattr(entry, "status", None) is not None]


def overdue_entries(today):
    """Entries whose ``expected_by`` period ended before ``today`` (a ``datetime.date``): ``(kind, entry)`` pairs.

    The test suite calls it with today's date; an entry it returns must be checked
    against its sources and its status, dates and sources updated.

    Parameters
    ----------
    today : datetime.date
        The date to compare with.

    Examples
    --------
    >>> import datetime
    >>> [entry.name for _, entry in overdue_entries(datetime.date(2026, 12, 7))]
    []
    """
    from ._common import overdue

    return [(kind, entry) for kind, entry in entries_with_status() if overdue(entry, today)]

