"""Deprecated alias, kept for one release: these figures now live with the model they draw.

:mod:`interconnect_lab.plotting.catalog` (the bandwidth ladder),
:mod:`interconnect_lab.plotting.topology` (the NVSwitch diagram) and
:mod:`interconnect_lab.plotting.training` (tensor parallelism).
"""

from .._deprecation import warn_moved
from .catalog import bandwidth_ladder_plot, ladder_entry  # noqa: F401
from .topology import nvlink_domain_plot  # noqa: F401
from .training import tensor_parallel_plot  # noqa: F401

__all__ = ["bandwidth_ladder_plot", "ladder_entry", "nvlink_domain_plot", "tensor_parallel_plot"]

warn_moved(__name__)
