"""Deprecated alias of :mod:`interconnect_lab.moe.models`, kept for one release.

Import from :mod:`interconnect_lab.moe` (``moe.moe_model``, ``moe.MoEModel``) instead.
"""

import warnings

from .moe.models import DEEPSEEK_V3, MIXTRAL, MOE_MODELS, MoEModel, moe_model  # noqa: F401

__all__ = ["DEEPSEEK_V3", "MIXTRAL", "MoEModel", "MOE_MODELS", "moe_model"]

warnings.warn("interconnect_lab.moe_models is deprecated and will be removed in the next release: "
              "import from interconnect_lab.moe (or interconnect_lab.moe.models) instead",
              DeprecationWarning, stacklevel=2)
