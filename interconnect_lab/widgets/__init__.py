"""Interactive panels (ipywidgets) for the book's chapters.

Thin wiring only: each panel calls tested model functions and plotting
functions. Display a panel by making it the last expression of a cell.
"""

from .calibrate import CalibrationPanel
from .collectives import CollectivePanel, NcclChoicePanel
from .cost import ClusterCostPanel
from .energy import PowerBillPanel
from .fabric import IncastPanel, RoutingPanel, SprayPanel, StragglerPanel
from .inference import KVTierPanel, ServingPanel, WideEPPanel
from .memory import OffloadPanel
from .moe import MoEPanel
from .panel import Panel
from .rdma import GpuDirectPanel
from .reliability import CheckpointPanel
from .roadmap import ScaleUpPanel
from .topology import FatTreePanel, TopologyPanel
from .training import NVLinkDomainPanel, PipelineSchedulePanel, TensorParallelPanel, TrainingRunPanel, ZeroPlusPlusPanel
from .utilization import StepTimePanel

__all__ = [
    "Panel",
    "StepTimePanel",
    "TensorParallelPanel", "NVLinkDomainPanel", "OffloadPanel", "GpuDirectPanel",
    "FatTreePanel", "ClusterCostPanel",
    "CollectivePanel", "NcclChoicePanel",
    "TrainingRunPanel", "PipelineSchedulePanel", "ZeroPlusPlusPanel",
    "RoutingPanel", "IncastPanel", "StragglerPanel", "SprayPanel", "CheckpointPanel",
    "PowerBillPanel", "MoEPanel", "ServingPanel", "WideEPPanel", "KVTierPanel", "TopologyPanel", "ScaleUpPanel",
    "CalibrationPanel",
]
