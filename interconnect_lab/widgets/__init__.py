"""Interactive panels (ipywidgets) for the book's chapters.

Thin wiring only: each panel calls tested model functions and plotting
functions. Display a panel by making it the last expression of a cell.
"""

from .collectives import CollectivePanel, HierarchicalAllReducePanel
from .cost import ClusterCostPanel
from .fabric import IncastPanel, RoutingPanel, StragglerPanel
from .memory import OffloadPanel
from .multipath import SprayPanel
from .nvlink import NVLinkDomainPanel, TensorParallelPanel
from .panel import Panel
from .power import PowerBillPanel
from .rdma import GpuDirectPanel
from .reliability import CheckpointPanel
from .topology import FatTreePanel
from .training import PipelineSchedulePanel, TrainingRunPanel, ZeroPlusPlusPanel
from .utilization import StepTimePanel

__all__ = [
    "Panel",
    "StepTimePanel",
    "TensorParallelPanel", "NVLinkDomainPanel", "OffloadPanel", "GpuDirectPanel",
    "FatTreePanel", "ClusterCostPanel",
    "CollectivePanel", "HierarchicalAllReducePanel",
    "TrainingRunPanel", "PipelineSchedulePanel", "ZeroPlusPlusPanel",
    "RoutingPanel", "IncastPanel", "StragglerPanel", "SprayPanel", "CheckpointPanel",
    "PowerBillPanel",
]
