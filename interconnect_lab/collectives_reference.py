"""Deprecated alias of :mod:`interconnect_lab.collectives.reference`, kept for one release."""

from ._deprecation import warn_moved
from .collectives.reference import (  # noqa: F401
    IMPLEMENTATIONS, ReferenceRun, Transfer, __all__, direct_all_to_all, halving_doubling_all_reduce,
    ring_all_gather, ring_all_reduce, ring_broadcast, ring_reduce_scatter, run_collective,
)

warn_moved(__name__)
