"""Plotting: figures for the book, built from model results.

Imports matplotlib; the model modules never import this package. Each
function takes a model result, draws on an optional ``ax`` and returns the
axes; none changes matplotlib's global settings.
"""

from .catalog import bandwidth_ladder_plot, ladder_entry, link_generations_plot
from .collectives import (
    bus_bandwidth_plot, bus_bandwidth_scaling_plot, collective_steps_plot, collective_time_plot,
    crossover_plot,
)
from .cost import cost_breakdown_plot, network_share_plot
from .energy import energy_per_bit_plot, power_breakdown_plot
from .fabric import (
    flow_completion_plot, flow_splitting_plot, incast_collapse_plot, line_rate_plot, link_utilization_plot,
    max_load_plot, slow_rank_plot, spray_arrivals_plot, straggler_scaling_plot, victim_slowdown_plot,
)
from .matmul import gemm_shape_plot
from .memory import (
    decode_plot, kv_cache_plot, memory_wall_plot, offload_memory_plot, offload_paths_plot,
    offload_share_plot,
)
from .rdma import data_path_plot, gpu_transfer_plot, host_memory_plot, host_transfer_plot
from .reliability import checkpoint_plot, interruption_causes_plot, interval_tradeoff_plot
from .silicon import yield_plot
from .style import COLORS, PALETTE, new_figure, styled
from .tables import Table
from .topology import fat_tree_plot, latency_breakdown_plot, max_hosts_plot, nvlink_domain_plot, switch_count_plot
from .training import (
    ablation_replay_plot, attention_share_plot, compression_tradeoff_plot, fidelity_plot, memory_breakdown_plot,
    mfu_scaling_plot, network_scan_plot, pipeline_schedule_plot, published_comparison_plot, tensor_parallel_plot,
    training_breakdown_plot,
)
from .utilization import ablation_plot, step_breakdown_plot, step_time_plot

__all__ = [
    "PALETTE", "COLORS", "new_figure", "styled", "Table",
    # utilization (chapter 1)
    "step_time_plot", "step_breakdown_plot", "ablation_plot",
    # NVLink and links
    "bandwidth_ladder_plot", "ladder_entry", "nvlink_domain_plot", "tensor_parallel_plot",
    "link_generations_plot",
    # collectives
    "bus_bandwidth_plot", "collective_time_plot", "collective_steps_plot", "crossover_plot",
    "bus_bandwidth_scaling_plot",
    # topology and cost
    "fat_tree_plot", "switch_count_plot", "max_hosts_plot", "latency_breakdown_plot",
    "cost_breakdown_plot", "network_share_plot",
    # fabric
    "flow_completion_plot", "line_rate_plot", "link_utilization_plot", "incast_collapse_plot",
    "victim_slowdown_plot", "straggler_scaling_plot", "slow_rank_plot",
    # memory wall
    "memory_wall_plot", "kv_cache_plot", "offload_share_plot", "offload_memory_plot",
    "offload_paths_plot", "decode_plot",
    # RDMA
    "data_path_plot", "host_transfer_plot", "host_memory_plot", "gpu_transfer_plot",
    # multipath transport
    "max_load_plot", "flow_splitting_plot", "spray_arrivals_plot",
    # power and silicon
    "power_breakdown_plot", "energy_per_bit_plot", "yield_plot",
    # reliability
    "interruption_causes_plot", "interval_tradeoff_plot", "checkpoint_plot",
    # training
    "training_breakdown_plot", "published_comparison_plot", "memory_breakdown_plot",
    "pipeline_schedule_plot", "mfu_scaling_plot", "ablation_replay_plot", "network_scan_plot",
    "compression_tradeoff_plot", "gemm_shape_plot", "attention_share_plot", "fidelity_plot",
]
