"""Interconnect Lab: the model behind the book on AI-cluster networks.

The model modules hold plain functions over base-SI floats and numpy arrays
(see :mod:`interconnect_lab.units`) and frozen result objects:

- :mod:`~interconnect_lab.units` — unit multipliers and formatters
- :mod:`~interconnect_lab.sources` — where every number comes from
- :mod:`~interconnect_lab.catalog` — hardware specifications with sources
- :mod:`~interconnect_lab.published` — published measurements the model is checked against
- :mod:`~interconnect_lab.utilization` — step time, overlap, MFU and HFU

Figures live in :mod:`interconnect_lab.plotting` and interactive panels in
:mod:`interconnect_lab.widgets`; import those explicitly (they need matplotlib
and ipywidgets, which the model does not).
"""

from . import catalog, published, sources, units, utilization
from .catalog import (
    GPU, NIC, Link, MemoryTier, Switch, System,
    gpu, hbm_tier, link, memory_tier, nic, switch, system,
)
from .sources import Source
from .utilization import (
    StepTime,
    ablation_gains,
    compute_time,
    hardware_flops_utilization,
    model_flops_utilization,
    step_time,
)

__version__ = "0.1.0"

__all__ = [
    # modules
    "units", "sources", "catalog", "published", "utilization",
    # catalog
    "Source", "GPU", "Link", "Switch", "NIC", "System", "MemoryTier",
    "gpu", "link", "switch", "nic", "system", "memory_tier", "hbm_tier",
    # utilization
    "StepTime", "step_time", "compute_time", "model_flops_utilization",
    "hardware_flops_utilization", "ablation_gains",
]
