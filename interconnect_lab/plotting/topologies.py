"""Deprecated alias, kept for one release: these figures now live with the model they draw.

:mod:`interconnect_lab.plotting.topology` (topologies beyond the fat tree) and
:mod:`interconnect_lab.plotting.roadmap` (scale-up fabrics, fat-tree reach of a switch chip).
"""

from .._deprecation import warn_moved
from .roadmap import STATUS_HATCHES, fat_tree_reach_plot, scale_up_plot  # noqa: F401
from .topology import FAMILY_COLORS, dragonfly_plot, topology_comparison_plot, topology_flow_plot  # noqa: F401

__all__ = ["FAMILY_COLORS", "STATUS_HATCHES", "topology_comparison_plot", "dragonfly_plot", "scale_up_plot",
           "fat_tree_reach_plot", "topology_flow_plot"]

warn_moved(__name__)
