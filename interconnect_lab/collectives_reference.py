"""Deprecated alias of :mod:`interconnect_lab.collectives.reference`, kept for one release."""

import warnings

from .collectives.reference import (  # noqa: F401
    IMPLEMENTATIONS, ReferenceRun, Transfer, direct_all_to_all, halving_doubling_all_reduce, ring_all_gather,
    ring_all_reduce, ring_broadcast, ring_reduce_scatter, run_collective,
)
from .collectives.reference import __all__  # noqa: F401

warnings.warn("interconnect_lab.collectives_reference is deprecated and will be removed in the next release: "
              "import from interconnect_lab.collectives.reference instead", DeprecationWarning, stacklevel=2)
