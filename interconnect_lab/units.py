"""Units: multipliers to base SI and formatters for display.

Every quantity in :mod:`interconnect_lab` is a plain float (or numpy array) in a
base unit:

============  ==========================
quantity      base unit
============  ==========================
data          byte [B]
time          second [s]
data rate     byte per second [B/s]
compute       floating-point operation [FLOP]
compute rate  FLOP per second [FLOP/s]
power         watt [W]
energy        joule [J]
money         US dollar [USD]
============  ==========================

Other units enter by multiplication with the named constants below and leave by
division, in the style of ``scipy.constants``::

    >>> from interconnect_lab import units as u
    >>> 400 * u.Gbit_per_s / u.GB_per_s        # a 400 Gb/s port carries 50 GB/s
    50.0
    >>> 80 * u.GB / u.GiB                      # "80 GB" of HBM is 74.5 GiB
    74.50580596923828

Decimal (SI) prefixes are powers of 1000 and binary (IEC) prefixes powers of
1024: ``GB`` is 10**9 bytes and ``GiB`` 2**30 bytes. Bits are an eighth of a
byte, so ``Gbit`` is 1.25e8 bytes. Vendors quote NVLink and PCIe bandwidth
with both directions added and network ports per direction; see
:func:`per_direction` and :func:`both_directions`.
"""

from __future__ import annotations

import math

import numpy as np

from ._validation import check_integer, check_number

__all__ = [
    # prefixes
    "kilo", "mega", "giga", "tera", "peta", "exa",
    "kibi", "mebi", "gibi", "tebi", "pebi",
    # data
    "byte", "bit", "kB", "MB", "GB", "TB", "PB", "KiB", "MiB", "GiB", "TiB",
    "kbit", "Mbit", "Gbit", "Tbit",
    # time
    "s", "ms", "us", "ns", "minute", "hour", "day", "year",
    # rates
    "B_per_s", "kB_per_s", "MB_per_s", "GB_per_s", "TB_per_s",
    "Mbit_per_s", "Gbit_per_s", "Tbit_per_s",
    # compute
    "FLOP", "GFLOP", "TFLOP", "PFLOP", "EFLOP",
    "FLOP_per_s", "GFLOP_per_s", "TFLOP_per_s", "PFLOP_per_s", "EFLOP_per_s",
    # power, energy, money
    "W", "kW", "MW", "J", "pJ", "kWh", "MWh", "GWh", "USD", "kUSD", "MUSD",
    # helpers
    "per_direction", "both_directions",
    "format_bytes", "format_rate", "format_time", "format_flop_rate",
    "format_power", "format_usd",
]

# Prefixes -----------------------------------------------------------------
kilo = 1e3
mega = 1e6
giga = 1e9
tera = 1e12
peta = 1e15
exa = 1e18

kibi = 2.0**10
mebi = 2.0**20
gibi = 2.0**30
tebi = 2.0**40
pebi = 2.0**50

# Data [B] -------------------------------------------------------------------
byte = 1.0
bit = byte / 8
kB = kilo * byte
MB = mega * byte
GB = giga * byte
TB = tera * byte
PB = peta * byte
KiB = kibi * byte
MiB = mebi * byte
GiB = gibi * byte
TiB = tebi * byte
kbit = kilo * bit
Mbit = mega * bit
Gbit = giga * bit
Tbit = tera * bit

# Time [s] -------------------------------------------------------------------
s = 1.0
ms = 1e-3
us = 1e-6
ns = 1e-9
minute = 60.0
hour = 3600.0
day = 86400.0
year = 365.25 * day  # Julian year

# Rates [B/s] ----------------------------------------------------------------
B_per_s = byte / s
kB_per_s = kB / s
MB_per_s = MB / s
GB_per_s = GB / s
TB_per_s = TB / s
Mbit_per_s = Mbit / s
Gbit_per_s = Gbit / s
Tbit_per_s = Tbit / s

# Compute [FLOP] and compute rate [FLOP/s] -----------------------------------
FLOP = 1.0
GFLOP = giga * FLOP
TFLOP = tera * FLOP
PFLOP = peta * FLOP
EFLOP = exa * FLOP
FLOP_per_s = FLOP / s
GFLOP_per_s = GFLOP / s
TFLOP_per_s = TFLOP / s
PFLOP_per_s = PFLOP / s
EFLOP_per_s = EFLOP / s

# Power [W], energy [J], money [USD] ----------------------------------------
W = 1.0
kW = kilo * W
MW = mega * W
J = W * s
pJ = 1e-12 * J   # energy per bit of links and optics is quoted in pJ/bit
kWh = kW * hour
MWh = MW * hour
GWh = giga * W * hour
USD = 1.0
kUSD = kilo * USD
MUSD = mega * USD


def per_direction(both_directions_value):
    """Convert a rate quoted with both directions added into one direction.

    NVIDIA quotes NVLink ("900 GB/s per GPU") and PCI-SIG quotes PCIe ("128 GB/s
    for Gen5 x16") as the sum of both directions of a full-duplex link. The same
    rate flows each way at once, so one direction carries half.

    Parameters
    ----------
    both_directions_value : float or array_like
        Rate with both directions added [B/s], finite and >= 0.

    Returns
    -------
    float or numpy.ndarray
        Rate in one direction [B/s].

    Examples
    --------
    >>> from interconnect_lab import units as u
    >>> per_direction(900 * u.GB_per_s) / u.GB_per_s
    450.0
    """
    return check_number("both_directions_value", both_directions_value, unit="B/s", minimum=0) / 2


def both_directions(per_direction_value):
    """Sum of both directions of a full-duplex link, as vendors headline it.

    Parameters
    ----------
    per_direction_value : float or array_like
        Rate in one direction [B/s], in [0, 8.9e307] (twice it must be a float).

    Returns
    -------
    float or numpy.ndarray
        Rate with both directions added [B/s].

    Examples
    --------
    >>> from interconnect_lab import units as u
    >>> both_directions(450 * u.GB_per_s) / u.TB_per_s
    0.9
    """
    return 2 * check_number("per_direction_value", per_direction_value, unit="B/s", minimum=0,
                            maximum=np.finfo(float).max / 2)


# Formatters -----------------------------------------------------------------
_SI_STEPS = ((1e18, "E"), (1e15, "P"), (1e12, "T"), (1e9, "G"), (1e6, "M"),
             (1e3, "k"), (1.0, ""))
_BINARY_STEPS = ((2.0**50, "Pi"), (2.0**40, "Ti"), (2.0**30, "Gi"), (2.0**20, "Mi"),
                 (2.0**10, "Ki"), (1.0, ""))


def _digits(digits):
    return check_integer("digits", digits, minimum=1, maximum=17)


def _scalar(value, name):
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.number)):
        raise TypeError(f"{name} must be a real number, got {value!r}")
    value = float(value)
    if not math.isfinite(value):
        raise ValueError(f"{name} must be finite, got {value!r}")
    return value


def _with_prefix(value, unit, steps, digits):
    digits = _digits(digits)
    if not math.isfinite(value):
        raise ValueError(f"the value to show in {unit} overflows a float (beyond 1.8e308)")
    magnitude = abs(value)
    for factor, prefix in steps:
        if magnitude >= factor:
            return f"{value / factor:.{digits}g} {prefix}{unit}"
    return f"{value:.{digits}g} {unit}"


def format_bytes(size_bytes, *, binary=False, digits=3):
    """Format a size for display: ``format_bytes(80e9)`` gives ``'80 GB'``.

    Parameters
    ----------
    size_bytes : float
        Size [B].
    binary : bool
        Use binary prefixes (KiB, MiB, GiB, ...) instead of decimal ones.
    digits : int
        Significant digits.

    Examples
    --------
    >>> format_bytes(80e9), format_bytes(80e9, binary=True)
    ('80 GB', '74.5 GiB')
    """
    value = _scalar(size_bytes, "size_bytes")
    return _with_prefix(value, "B", _BINARY_STEPS if binary else _SI_STEPS, digits)


def format_rate(rate_bytes_per_s, *, bits=False, digits=3):
    """Format a data rate: bytes per second (``GB/s``) or bits per second (``Gb/s``).

    Parameters
    ----------
    rate_bytes_per_s : float
        Rate [B/s].
    bits : bool
        Show bits per second, as network ports are quoted.
    digits : int
        Significant digits.

    Examples
    --------
    >>> format_rate(50e9), format_rate(50e9, bits=True)
    ('50 GB/s', '400 Gb/s')
    """
    value = _scalar(rate_bytes_per_s, "rate_bytes_per_s")
    if bits:
        return _with_prefix(value * 8, "b/s", _SI_STEPS, digits)
    return _with_prefix(value, "B/s", _SI_STEPS, digits)


def format_time(time_s, *, digits=3):
    """Format a duration with the unit a reader expects (ns, µs, ms, s, min, h, days).

    Parameters
    ----------
    time_s : float
        Duration [s].
    digits : int
        Significant digits.

    Examples
    --------
    >>> format_time(2.5e-6), format_time(0.4), format_time(34 * 86400)
    ('2.5 µs', '400 ms', '34 days')
    """
    value = _scalar(time_s, "time_s")
    digits = _digits(digits)
    magnitude = abs(value)
    if magnitude >= 2 * day:
        return f"{value / day:.{digits}g} days"
    if magnitude >= 2 * hour:
        return f"{value / hour:.{digits}g} h"
    if magnitude >= 2 * minute:
        return f"{value / minute:.{digits}g} min"
    for factor, unit in ((1.0, "s"), (ms, "ms"), (us, "µs"), (ns, "ns")):
        if magnitude >= factor:
            return f"{value / factor:.{digits}g} {unit}"
    return f"{value / ns:.{digits}g} ns"


def format_flop_rate(rate_flop_per_s, *, digits=3):
    """Format a compute rate: ``format_flop_rate(989e12)`` gives ``'989 TFLOP/s'``.

    Parameters
    ----------
    rate_flop_per_s : float
        Compute rate [FLOP/s].
    digits : int
        Significant digits.
    """
    value = _scalar(rate_flop_per_s, "rate_flop_per_s")
    return _with_prefix(value, "FLOP/s", _SI_STEPS, digits)


def format_power(power_w, *, digits=3):
    """Format a power: ``format_power(1.2e6)`` gives ``'1.2 MW'``.

    Parameters
    ----------
    power_w : float
        Power [W].
    digits : int
        Significant digits.
    """
    value = _scalar(power_w, "power_w")
    return _with_prefix(value, "W", _SI_STEPS, digits)


def format_usd(amount_usd, *, digits=3):
    """Format money in US dollars: ``format_usd(2.5e7)`` gives ``'$25 M'``.

    Parameters
    ----------
    amount_usd : float
        Amount [USD].
    digits : int
        Significant digits.
    """
    value = _scalar(amount_usd, "amount_usd")
    digits = _digits(digits)
    sign = "-" if value < 0 else ""
    magnitude = abs(value)
    for factor, suffix in ((1e9, " B"), (1e6, " M"), (1e3, " k")):
        if magnitude >= factor:
            return f"{sign}${magnitude / factor:.{digits}g}{suffix}"
    return f"{sign}${magnitude:.{digits}g}"
