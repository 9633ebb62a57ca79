"""Deprecated alias of :mod:`interconnect_lab.widgets.training`, kept for one release."""

from .._deprecation import warn_moved
from .training import (  # noqa: F401
    DEGREES, SOFTWARE_CHOICES, WIDTHS, NVLinkDomainPanel, TensorParallelPanel, example_model,
)

__all__ = ["TensorParallelPanel", "NVLinkDomainPanel", "example_model", "WIDTHS", "DEGREES", "SOFTWARE_CHOICES"]

warn_moved(__name__)
