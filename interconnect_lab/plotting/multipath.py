"""Deprecated alias of :mod:`interconnect_lab.plotting.fabric`, kept for one release."""

from .._deprecation import warn_moved
from .fabric import flow_splitting_plot, max_load_plot, spray_arrivals_plot  # noqa: F401

__all__ = ["max_load_plot", "flow_splitting_plot", "spray_arrivals_plot"]

warn_moved(__name__)
