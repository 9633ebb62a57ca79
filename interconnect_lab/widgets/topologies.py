"""Deprecated alias, kept for one release: :mod:`interconnect_lab.widgets.topology` (the topology
comparison) and :mod:`interconnect_lab.widgets.roadmap` (scale-up fabrics)."""

from .._deprecation import warn_moved
from .roadmap import GROUP_SIZES, MESSAGE_SIZES, ScaleUpPanel  # noqa: F401
from .topology import HOST_COUNTS, TopologyPanel  # noqa: F401

__all__ = ["TopologyPanel", "ScaleUpPanel", "HOST_COUNTS", "MESSAGE_SIZES", "GROUP_SIZES"]

warn_moved(__name__)
