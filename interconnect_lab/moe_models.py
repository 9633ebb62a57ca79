"""Deprecated alias of :mod:`interconnect_lab.moe.models`, kept for one release.

Import from :mod:`interconnect_lab.moe` (``moe.moe_model``, ``moe.MoEModel``) instead.
"""

from ._deprecation import warn_moved
from .moe.models import DEEPSEEK_V3, MIXTRAL, MOE_MODELS, MoEModel, moe_model  # noqa: F401

__all__ = ["DEEPSEEK_V3", "MIXTRAL", "MoEModel", "MOE_MODELS", "moe_model"]

warn_moved(__name__)
