"""Deprecated alias, kept for one release: :mod:`interconnect_lab.plotting.matmul` (GEMM rate by
shape) and :mod:`interconnect_lab.plotting.training` (attention kernels, the fidelity table)."""

from .._deprecation import warn_moved
from .matmul import gemm_shape_plot  # noqa: F401
from .training import attention_share_plot, fidelity_plot  # noqa: F401

__all__ = ["gemm_shape_plot", "attention_share_plot", "fidelity_plot"]

warn_moved(__name__)
