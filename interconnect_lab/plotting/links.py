"""Deprecated alias of :mod:`interconnect_lab.plotting.catalog`, kept for one release."""

from .._deprecation import warn_moved
from .catalog import FAMILY_COLORS, link_generations_plot  # noqa: F401

__all__ = ["link_generations_plot", "FAMILY_COLORS"]

warn_moved(__name__)
