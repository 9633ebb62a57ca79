"""Interconnect Lab: the model behind the book on AI-cluster networks.

The model modules hold plain functions over base-SI floats and numpy arrays
(see :mod:`interconnect_lab.units`) and frozen result objects:

- :mod:`~interconnect_lab.units` — unit multipliers and formatters
- :mod:`~interconnect_lab.sources` — where every number comes from
- :mod:`~interconnect_lab.catalog` — hardware specifications with sources
- :mod:`~interconnect_lab.published` — published measurements the model is checked against
- :mod:`~interconnect_lab.utilization` — step time, overlap, MFU and HFU
- :mod:`~interconnect_lab.collectives` — α-β cost of collectives, algbw and busbw
- :mod:`~interconnect_lab.collectives.reference` — collectives performed step by step on arrays
- :mod:`~interconnect_lab.memory` — the memory wall: training state, KV cache, offload over PCIe and CXL
- :mod:`~interconnect_lab.rdma` — kernel TCP against RDMA; GPUDirect RDMA against staging
- :mod:`~interconnect_lab.topology` — NVLink domains and fat trees; dragonflies, tori, rail-only and
  direct-connect fabrics, compared in one table
- :mod:`~interconnect_lab.roadmap` — what UALink, Scale-Up Ethernet and 102.4 Tb/s switches change
- :mod:`~interconnect_lab.pricebook` and :mod:`~interconnect_lab.cost` — dated price estimates; cluster cost and power
- :mod:`~interconnect_lab.training` — transformer FLOPs and memory, parallel step time, MFU
- :mod:`~interconnect_lab.fabric` — flow-level simulation of fat trees: routing, congestion,
  incast, stragglers
- :mod:`~interconnect_lab.reliability` — failures, checkpoint intervals and effective training time
- :mod:`~interconnect_lab.energy` — a cluster's power bill: lifetime energy, its cost, energy per bit
- :mod:`~interconnect_lab.silicon` — chip yield with spare cores: why not one big chip
- :mod:`~interconnect_lab.standards` — specifications, consortia and vendor claims, kept as claims
- :mod:`~interconnect_lab.calibrate` — read nccl-tests, perftest and ``nvidia-smi topo`` output; fit,
  calibrate and compare the model with your own cluster
- :mod:`~interconnect_lab.exercises` — checked exercises and quizzes: ``exercises.check("ch7.ex3", answer)``

Figures live in :mod:`interconnect_lab.plotting` and interactive panels in
:mod:`interconnect_lab.widgets`; import those explicitly (they need matplotlib
and ipywidgets, which the model does not).
"""


# Every submodule and re-exported name is imported when first used (PEP 562), so
# ``import interconnect_lab`` costs a few milliseconds and ``from interconnect_lab
# import catalog`` loads only the catalog and what it needs. To export a name, add
# it to _EXPORTS under the submodule that defines it (and to __all__).

import importlib as _importlib

#: Submodules, imported on first use.
_SUBMODULES = frozenset({
    "calibrate", "catalog", "collectives", "cost", "energy", "exercises",
    "fabric", "inference", "matmul", "memory", "moe", "pricebook", "published", "rdma",
    "reliability", "roadmap", "silicon", "sources", "standards", "topology", "training", "units",
    "utilization",
})

#: Names re-exported here, by the submodule that defines them, imported on first use.
_EXPORTS = {
    "collectives": ["CollectivePerformance", "algorithm_bandwidth", "all_gather_time",
                    "all_reduce_time", "bus_bandwidth", "collective_performance",
                    "collective_time", "crossover_size", "half_bandwidth_size",
                    "reduce_scatter_time"],
    "cost": ["ClusterCost", "cluster_cost"],
    "energy": ["EnergyBill", "energy_bill"],
    "memory": ["kv_cache_bytes", "offload_step", "training_state"],
    "rdma": ["gpu_transfer", "host_latency", "host_transfer"],
    "reliability": ["CheckpointPlan", "checkpoint_plan", "system_mtbf"],
    "topology": ["FatTree", "PathLatency", "ScaleUpDomain", "fat_tree", "max_hosts",
                 "path_latency", "scale_up_domain", "TopologySummary", "direct_connect",
                 "dragonfly", "rail_only", "topology_comparison", "torus"],
    "training": ["TensorParallelLayer", "TrainingStep", "TransformerModel", "fidelity_table",
                 "memory_per_gpu", "parallel_config", "parallel_sweep", "system_cluster",
                 "tensor_parallel_layer", "training_step", "transformer_model"],
    "matmul": ["gemm_efficiency", "gemm_rate"],
    "catalog": ["GPU", "NIC", "Link", "MemoryTier", "Switch", "System", "gpu", "hbm_tier", "link",
                "memory_tier", "nic", "switch", "system", "ScaleUpFabric", "scale_up_fabric"],
    "sources": ["Source"],
    "inference": ["ServingDeployment", "kv_transfer", "serving_deployment",
                  "tensor_parallel_decode_all_reduce"],
    "moe": ["AllToAllTime", "AllToAllTraffic", "MoELayerStep", "MoEModel", "all_to_all_traffic",
            "dispatch_and_combine", "expert_parallel_all_to_all", "moe_layer_step", "moe_model",
            "routing_load"],
    "roadmap": ["scale_up_comparison", "tensor_parallel_all_reduce_time"],
    "calibrate": ["CalibratedLink", "calibrate_nccl_tests", "calibrated_cluster", "fit_collective",
                  "parse_nccl_tests", "parse_nvidia_smi_topo", "parse_perftest"],
    "utilization": ["StepTime", "ablation_gains", "compute_time", "hardware_flops_utilization",
                    "model_flops_utilization", "step_time"],
}
_ORIGIN = {name: module for module, names in _EXPORTS.items() for name in names}


def __getattr__(name):
    """Import a submodule or a re-exported name the first time it is used."""
    if name in _SUBMODULES:
        return _importlib.import_module(f".{name}", __name__)
    if name in _ORIGIN:
        value = getattr(_importlib.import_module(f".{_ORIGIN[name]}", __name__), name)
        globals()[name] = value
        return value
    # Names renamed in this release still answer, with a DeprecationWarning (_deprecation.RENAMED_NAMES).
    from ._deprecation import renamed_attribute

    return renamed_attribute(__name__, name)


def __dir__():
    return sorted(set(globals()) | _SUBMODULES | set(_ORIGIN))


__version__ = "0.1.0"

__all__ = [
    # modules
    "units", "sources", "catalog", "published", "utilization", "collectives",
    "topology", "pricebook", "cost", "training", "fabric", "reliability",
    "standards", "memory", "rdma", "energy", "silicon", "exercises",
    # catalog
    "Source", "GPU", "Link", "Switch", "NIC", "System", "MemoryTier",
    "gpu", "link", "switch", "nic", "system", "memory_tier", "hbm_tier",
    # utilization
    "StepTime", "step_time", "compute_time", "model_flops_utilization",
    "hardware_flops_utilization", "ablation_gains",
    # collectives
    "CollectivePerformance", "collective_performance", "collective_time", "all_reduce_time",
    "all_gather_time", "reduce_scatter_time", "algorithm_bandwidth", "bus_bandwidth",
    "crossover_size", "half_bandwidth_size",
    # topology and cost
    "ScaleUpDomain", "scale_up_domain", "FatTree", "fat_tree", "max_hosts", "PathLatency",
    "path_latency", "ClusterCost", "cluster_cost", "EnergyBill", "energy_bill",
    # training
    "TransformerModel", "transformer_model", "parallel_config", "training_step", "TrainingStep",
    "memory_per_gpu", "parallel_sweep", "system_cluster", "tensor_parallel_layer",
    "TensorParallelLayer", "fidelity_table", "matmul", "gemm_efficiency", "gemm_rate",
    # memory and RDMA
    "training_state", "kv_cache_bytes", "offload_step", "host_latency", "host_transfer", "gpu_transfer",
    # reliability
    "system_mtbf", "checkpoint_plan", "CheckpointPlan",
    # mixture of experts and inference traffic
    "moe", "MoEModel", "moe_model", "AllToAllTraffic", "all_to_all_traffic", "routing_load",
    "AllToAllTime", "expert_parallel_all_to_all", "dispatch_and_combine", "MoELayerStep", "moe_layer_step",
    "inference", "tensor_parallel_decode_all_reduce", "kv_transfer", "ServingDeployment", "serving_deployment",
    # beyond the fat tree, and the next scale-up fabrics
    "roadmap", "TopologySummary", "dragonfly", "torus", "rail_only", "direct_connect", "topology_comparison",
    "ScaleUpFabric", "scale_up_fabric", "tensor_parallel_all_reduce_time", "scale_up_comparison",
    # calibration to a real cluster
    "calibrate", "parse_nccl_tests", "parse_perftest", "parse_nvidia_smi_topo", "fit_collective",
    "CalibratedLink", "calibrated_cluster", "calibrate_nccl_tests",
]
