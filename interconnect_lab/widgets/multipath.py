"""Deprecated alias of :mod:`interconnect_lab.widgets.fabric`, kept for one release."""

from .._deprecation import warn_moved
from .fabric import SprayPanel  # noqa: F401

__all__ = ["SprayPanel"]

warn_moved(__name__)
