"""Deprecated alias of :mod:`interconnect_lab.widgets.energy`, kept for one release."""

from .._deprecation import warn_moved
from .energy import FABRICS, PowerBillPanel  # noqa: F401

__all__ = ["PowerBillPanel", "FABRICS"]

warn_moved(__name__)
