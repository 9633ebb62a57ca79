"""Deprecated alias, kept for one release: :mod:`interconnect_lab.plotting.energy` and
:mod:`interconnect_lab.plotting.silicon` (chip yield)."""

from .._deprecation import warn_moved
from .energy import POWER_COLORS, energy_per_bit_plot, power_breakdown_plot  # noqa: F401
from .silicon import yield_plot  # noqa: F401

__all__ = ["POWER_COLORS", "power_breakdown_plot", "energy_per_bit_plot", "yield_plot"]

warn_moved(__name__)
