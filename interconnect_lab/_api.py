"""The public API in one table: every public module, what it is for, and the names it exports.

The package builds its lazy imports and its ``__all__`` from :data:`TOP_LEVEL`, and its
docstring's list of modules from the purposes here. ``tests/test_api.py`` holds the rest in
agreement: every public module's ``__all__`` equals its row of :data:`MODULES`, every name
exists, the API appendix (``book/appendices/api.md``) documents exactly these modules, and
every public function documents each of its parameters.

To add a public name: add it to its module's ``__all__`` and to its row here (and to
:data:`TOP_LEVEL` if ``import interconnect_lab`` should offer it too). To add a public
module: a row here and an ``automodule`` in the appendix.

Plain data: importing this module imports nothing, so ``import interconnect_lab`` stays cheap.
"""

#: The model modules ``import interconnect_lab`` offers (each imported on first use), in the order
#: the package's docstring lists them, with the names re-exported at the top from each.
TOP_LEVEL = {
    "units": (),
    "sources": ("Source",),
    "catalog": (
        "GPU", "Link", "Switch", "NIC", "System", "MemoryTier", "gpu", "link", "switch", "nic", "system",
        "memory_tier", "hbm_tier", "ScaleUpFabric", "scale_up_fabric",
    ),
    "published": (),
    "utilization": (
        "StepTime", "step_time", "compute_time", "model_flops_utilization", "hardware_flops_utilization",
        "ablation_gains",
    ),
    "collectives": (
        "CollectivePerformance", "collective_performance", "collective_time", "all_reduce_time",
        "all_gather_time", "reduce_scatter_time", "algorithm_bandwidth", "bus_bandwidth", "crossover_size",
        "half_bandwidth_size", "CollectiveSystem", "collective_system", "nccl_collective",
    ),
    "memory": ("training_state", "kv_cache_bytes", "offload_step"),
    "rdma": ("host_latency", "host_transfer", "gpu_transfer"),
    "topology": (
        "ScaleUpDomain", "scale_up_domain", "FatTree", "fat_tree", "max_hosts", "PathLatency", "path_latency",
        "TopologySummary", "dragonfly", "torus", "rail_only", "direct_connect", "topology_comparison",
    ),
    "roadmap": ("tensor_parallel_all_reduce_time", "scale_up_comparison"),
    "pricebook": (),
    "cost": ("ClusterCost", "cluster_cost"),
    "training": (
        "TransformerModel", "transformer_model", "parallel_config", "training_step", "TrainingStep",
        "memory_per_gpu", "parallel_sweep", "system_cluster", "tensor_parallel_layer", "TensorParallelLayer",
        "fidelity_table",
    ),
    "matmul": ("gemm_efficiency", "gemm_rate"),
    "fabric": (),
    "reliability": ("system_mtbf", "checkpoint_plan", "CheckpointPlan"),
    "energy": ("EnergyBill", "energy_bill"),
    "silicon": (),
    "standards": (),
    "moe": (
        "MoEModel", "moe_model", "AllToAllTraffic", "all_to_all_traffic", "routing_load", "AllToAllTime",
        "expert_parallel_all_to_all", "dispatch_and_combine", "MoELayerStep", "moe_layer_step",
    ),
    "inference": ("tensor_parallel_decode_all_reduce", "kv_transfer", "ServingDeployment", "serving_deployment",
                  "wide_ep_decode_step", "disaggregated_ttft"),
    "calibrate": (
        "parse_nccl_tests", "parse_perftest", "parse_nvidia_smi_topo", "fit_collective", "CalibratedLink",
        "calibrated_cluster", "calibrate_nccl_tests",
    ),
    "exercises": (),
}

#: Every public module: (what it is for, in one line; the names its ``__all__`` lists).
#: ``plotting`` and ``widgets`` need matplotlib and ipywidgets; the model modules do not.
MODULES = {
    "interconnect_lab": (
        "The model behind the book on AI-cluster networks.",
        (*TOP_LEVEL, *(name for names in TOP_LEVEL.values() for name in names)),
    ),
    "interconnect_lab.units": (
        "unit multipliers and formatters",
        (
            "kilo", "mega", "giga", "tera", "peta", "exa", "kibi", "mebi", "gibi", "tebi", "pebi", "byte",
            "bit",
            "kB", "MB", "GB", "TB", "PB", "KiB", "MiB", "GiB", "TiB", "kbit", "Mbit", "Gbit", "Tbit", "s",
            "ms",
            "us", "ns", "minute", "hour", "day", "year", "B_per_s", "kB_per_s", "MB_per_s", "GB_per_s",
            "TB_per_s", "Mbit_per_s", "Gbit_per_s", "Tbit_per_s", "FLOP", "GFLOP", "TFLOP", "PFLOP", "EFLOP",
            "FLOP_per_s", "GFLOP_per_s", "TFLOP_per_s", "PFLOP_per_s", "EFLOP_per_s", "W", "kW", "MW", "J",
            "pJ",
            "kWh", "MWh", "GWh", "USD", "kUSD", "MUSD", "per_direction", "both_directions", "format_bytes",
            "format_rate", "format_time", "format_flop_rate", "format_power", "format_usd",
        ),
    ),
    "interconnect_lab.sources": (
        "where every number comes from",
        ("Source", "cite"),
    ),
    "interconnect_lab.catalog": (
        "hardware specifications with sources",
        (
            "GPU", "Link", "Switch", "NIC", "System", "MemoryTier", "GPUS", "LINKS", "SWITCHES", "NICS",
            "SYSTEMS", "MEMORY_TIERS", "gpu", "link", "switch", "nic", "system", "memory_tier", "hbm_tier",
            "breakout", "ScaleUpFabric", "SCALE_UP_FABRICS", "scale_up_fabric", "RoadmapItem",
            "ETHERNET_ROADMAP",
            "roadmap_item", "STATUSES",
            "FORWARD_LOOKING", "period", "status_line", "is_shipping", "entries_with_status", "overdue_entries",
            "Host", "HOSTS", "host", "host_memory_tier",
            "RackPower", "RACK_POWER", "rack_power", "POWER_DISTRIBUTIONS", "DISTRIBUTION_VOLTS", "HVDC_800V",
        ),
    ),
    "interconnect_lab.catalog.variants": (
        "Export variants: parts built from a catalog part with fewer of something, each with its source.",
        ("H800_SOURCES", "VARIANT_LINKS", "VARIANT_GPUS", "variant_link", "variant_gpu"),
    ),
    "interconnect_lab.published": (
        "published measurements the model is checked against",
        (
            "AblationStep", "MEGASCALE_ABLATION", "MEGASCALE_ABLATION_SOURCE", "MegatronRun", "SC21_TABLE1",
            "SC21_TABLE1_SOURCE", "MegaScaleRun", "MEGASCALE_TABLE2", "MEGASCALE_TABLE2_SOURCE",
            "SuperPodFabric",
            "SUPERPOD_H100_TABLE4", "SUPERPOD_H100_TABLE4_SOURCE", "SUPERPOD_B200_LARGER",
            "SUPERPOD_B200_LARGER_SOURCE", "SUPERPOD_B300_XDR_TABLE3", "SUPERPOD_B300_XDR_TABLE3_SOURCE",
            "CostShareEstimate", "NETWORK_COST_SHARES", "COTTIER_2024",
            "EPOCH_CLUSTER_INTERCONNECT_COST_FRACTION", "EPOCH_CLUSTER_INTERCONNECT_SOURCE", "NVLinkDomainFigure",
            "NVLINK_DOMAIN_FIGURES", "ClusterFabric", "CLUSTER_FABRICS", "DEEPSEEK_MPFT_SOURCE",
            "StragglerObservation", "MEGASCALE_STRAGGLERS", "InterruptionLog",
            "LLAMA3_INTERRUPTIONS", "InterruptionCause", "RestartReport", "OPT175B_RESTARTS",
            "RecoveryObservation", "FT_HSDP_RECOVERY", "CollectiveMeasurement", "NCCL_BUS_BANDWIDTH",
            "NCCL_NVLS_SCALING", "SC21_TABLE1_VOCABULARY", "SC21_TABLE1_SEQUENCE_LENGTH",
            "TrainingTimeExample",
            "SC21_TRAINING_TIME_SOURCE", "SC21_TRAINING_TIME_EXAMPLES", "ZERO_PLUS_PLUS_SOURCE",
            "ZERO_PLUS_PLUS_VOLUME", "ZERO_PLUS_PLUS_THROUGHPUT", "LatencyEstimate", "LATENCY_ESTIMATES",
            "LATENCY_DISSECTION_SOURCE", "HostTransferMeasurement", "HOST_DEVICE_TRANSFER",
            "MemoryLatencyMeasurement", "CXL_LATENCY_MEASUREMENTS", "StackThroughput", "KERNEL_TCP_PER_CORE",
            "ERPC_PER_CORE", "CAI_2021", "KALIA_2019", "INTER_SOCKET_LINK_BYTES_PER_S",
            "INTER_SOCKET_LINK_SOURCE", "PueEstimate", "PUE_ESTIMATES", "RackPowerFigure",
            "RACK_POWER_FIGURES",
            "DGX_A100_MULTINODE_ALL_REDUCE_BYTES_PER_S", "NCCL_ISSUE_812", "PublishedRun", "TRAINING_RUNS",
            "GemmMeasurement", "AZURE_A100_GEMM", "AZURE_A100_GEMM_SOURCE", "TILELANG_H800_GEMM",
            "TILELANG_H800_GEMM_SOURCE", "AZURE_H100_FP8_GEMM", "AZURE_H100_FP8_GEMM_SOURCE",
        ),
    ),
    "interconnect_lab.published.collectives": (
        "Bus bandwidth measured with nccl-tests, as NCCL's maintainers and users published it.",
        (
            "CollectiveMeasurement", "NCCL_BUS_BANDWIDTH", "NCCL_NVLS_SCALING", "NCCL_ISSUE_812",
            "DGX_A100_MULTINODE_ALL_REDUCE_BYTES_PER_S",
        ),
    ),
    "interconnect_lab.published.fabrics": (
        "Published cluster fabrics: DGX SuperPOD fat trees, the largest clusters' fabrics, the network's share "
        "of cost, NVLink domain figures.",
        (
            "SuperPodFabric", "SUPERPOD_H100_TABLE4_SOURCE", "SUPERPOD_H100_TABLE4",
            "SUPERPOD_B200_LARGER_SOURCE", "SUPERPOD_B200_LARGER", "SUPERPOD_B300_XDR_TABLE3_SOURCE",
            "SUPERPOD_B300_XDR_TABLE3", "CostShareEstimate", "COTTIER_2024",
            "EPOCH_CLUSTER_INTERCONNECT_COST_FRACTION", "EPOCH_CLUSTER_INTERCONNECT_SOURCE",
            "NETWORK_COST_SHARES", "NVLinkDomainFigure", "NVLINK_DOMAIN_FIGURES", "ClusterFabric",
            "CLUSTER_FABRICS", "META_GENAI_SOURCE", "COLOSSUS_SOURCE", "EAGLE_SOURCE", "DEEPSEEK_MPFT_SOURCE",
        ),
    ),
    "interconnect_lab.published.gemm": (
        "Published GEMM rates by shape: what the sustained-GEMM model of :mod:`interconnect_lab.matmul` is "
        "checked against.",
        (
            "GemmMeasurement", "AZURE_A100_GEMM", "AZURE_A100_GEMM_SOURCE", "TILELANG_H800_GEMM",
            "TILELANG_H800_GEMM_SOURCE",
        ),
    ),
    "interconnect_lab.published.hosts": (
        "Host memory, CXL and host network stacks: measured transfer rates, latencies and per-core rates.",
        (
            "HostTransferMeasurement", "HOST_DEVICE_TRANSFER", "MemoryLatencyMeasurement",
            "CXL_LATENCY_MEASUREMENTS", "CAI_2021", "KALIA_2019", "StackThroughput", "KERNEL_TCP_PER_CORE",
            "ERPC_PER_CORE", "INTER_SOCKET_LINK_BYTES_PER_S", "INTER_SOCKET_LINK_SOURCE",
        ),
    ),
    "interconnect_lab.published.inference": (
        "What serving papers, engines and vendors published about inference traffic.",
        (
            "DISTSERVE", "SPLITWISE", "TRTLLM_MULTISHOT", "KVTransferExample", "DISTSERVE_KV_EXAMPLE",
            "KVTransferObservation", "SPLITWISE_KV_TRANSFER", "AllReduceSpeedup", "MULTISHOT_SPEEDUP",
            "SGLANG_PR_2904", "VLLM_PR_24111", "VLLM_PR_33839", "AllReduceLatency", "SERVING_ALL_REDUCE_LATENCIES",
            "SymmetricSpeedup", "NCCL_SYMMETRIC_SPEEDUP", "MOONCAKE_TRANSFER_ENGINE", "KVTransferRate",
            "MOONCAKE_KV_TRANSFERS", "LMSYS_LARGE_SCALE_EP", "LMSYS_GB200", "DecodeThroughput",
            "WIDE_EP_DECODE_THROUGHPUTS",
        ),
    ),
    "interconnect_lab.published.latency": (
        "Latency: where a small message's time goes, part by part, as published.",
        ("LATENCY_DISSECTION_SOURCE", "LatencyEstimate", "LATENCY_ESTIMATES"),
    ),
    "interconnect_lab.published.nccl_tests": (
        "Collectives measured with nccl-tests on real machines, as their publishers printed them.",
        ("NcclTestsResult", "NCCL_TESTS_RESULTS", "FAMILIES"),
    ),
    "interconnect_lab.published.moe": (
        "Mixture-of-experts all-to-all and training, as DeepSeek published them.",
        (
            "DEEPEP_V1", "DEEPSEEK_V3_REPORT", "AllToAllSetup", "AllToAllMeasurement", "DEEPEP_NORMAL_SETUP",
            "DEEPEP_LOW_LATENCY_SETUP", "DEEPEP_NORMAL", "DEEPEP_LOW_LATENCY", "MoETrainingReport",
            "DEEPSEEK_V3_TRAINING",
        ),
    ),
    "interconnect_lab.published.ep_kernels": (
        "Expert-parallel dispatch and combine kernels, as their authors benchmarked them.",
        ("FAMILIES", "EPKernelTable", "EPKernelBenchmark", "EP_KERNEL_TABLES", "EP_KERNEL_BENCHMARKS",
         "MessageRateMeasurement", "EFA_MESSAGE_RATE"),
    ),
    "interconnect_lab.published.power": (
        "Facility overhead (PUE) and rack power, as published.",
        ("PueEstimate", "PUE_ESTIMATES", "RackPowerFigure", "RACK_POWER_FIGURES"),
    ),
    "interconnect_lab.published.reliability": (
        "Failures at scale: stragglers, interruptions, restarts and recovery, as published.",
        (
            "StragglerObservation", "MEGASCALE_STRAGGLERS", "InterruptionCause", "InterruptionLog",
            "LLAMA3_INTERRUPTIONS", "RestartReport", "OPT", "OPT175B_RESTARTS", "RecoveryObservation",
            "FT_HSDP",
            "FT_HSDP_RECOVERY",
        ),
    ),
    "interconnect_lab.published.runs": (
        "Published training runs: Megatron-LM's and MegaScale's tables, SC21's worked examples, ZeRO++'s "
        "volumes.",
        (
            "AblationStep", "MEGASCALE_ABLATION_SOURCE", "MEGASCALE_ABLATION", "MegatronRun",
            "SC21_TABLE1_SOURCE", "SC21_TABLE1", "MegaScaleRun", "MEGASCALE_TABLE2_SOURCE",
            "MEGASCALE_TABLE2",
            "SC21_TABLE1_VOCABULARY", "SC21_TABLE1_SEQUENCE_LENGTH", "TrainingTimeExample",
            "SC21_TRAINING_TIME_SOURCE", "SC21_TRAINING_TIME_EXAMPLES", "ZERO_PLUS_PLUS_SOURCE",
            "ZERO_PLUS_PLUS_VOLUME", "ZERO_PLUS_PLUS_THROUGHPUT",
        ),
    ),
    "interconnect_lab.published.training_runs": (
        "Published training runs, with every input their sources state, for the fidelity table.",
        (
            "PublishedRun", "TRAINING_RUNS", "FLASH_ATTENTION_2_RUNS", "LLM_FOUNDRY_BENCHMARKS",
            "LLM_FOUNDRY_1B_A100_40GB", "LLM_FOUNDRY_1B_BY_LENGTH", "LLM_FOUNDRY_A100_80GB_ONE_NODE", "DGXC_RUNS",
            "METRICS", "FAMILIES", "DEVELOPMENT_ORGANISATIONS", "DEVELOPMENT_STACKS", "family",
        ),
    ),
    "interconnect_lab.utilization": (
        "step time, overlap, MFU and HFU",
        (
            "StepTime", "step_time", "compute_time", "model_flops_utilization", "hardware_flops_utilization",
            "ablation_gains",
        ),
    ),
    "interconnect_lab.collectives": (
        "α-β cost of collectives per link, what NCCL and EP kernels run on a machine and its time, algbw and busbw",
        (
            "COLLECTIVES", "ALGORITHMS", "Algorithm", "algorithms_for", "NVLINK_EFFICIENCY",
            "NETWORK_EFFICIENCY",
            "EFFICIENCY_SOURCES", "HBM_BYTES_PER_RECEIVED_BYTE", "HBM_TRAFFIC_SOURCE", "ProtocolLatency",
            "NCCL_LATENCIES", "BASE_LATENCY_S", "NVLINK_STEP_LATENCY_S", "NETWORK_STEP_LATENCY_S",
            "link_parameters", "NVLS_EFFICIENCY", "NVLS_LATENCY_S", "nvls_efficiency",
            "CollectivePerformance",
            "collective_performance", "collective_time", "all_reduce_time", "all_gather_time",
            "reduce_scatter_time", "broadcast_time", "reduce_time", "all_to_all_time", "send_recv_time",
            "crossover_size", "half_bandwidth_size", "BUS_BANDWIDTH_SOURCE", "algorithm_bandwidth",
            "bus_bandwidth", "bus_bandwidth_factor", "ARCHITECTURES", "CPU_VENDORS",
            "NCCL_NVLINK_BYTES_PER_S_PER_LINK", "CollectiveSystem", "collective_system", "architecture_of",
            "nvlink_bytes_per_s", "NCCL_ALGORITHMS", "PROTOCOLS", "NCCL_COLLECTIVES", "POINT_TO_POINT_COLLECTIVES",
            "AlgorithmCost", "Candidate", "NcclCollective", "algorithm_costs", "nccl_collective", "nccl_time",
            "PointToPoint", "point_to_point", "ChoiceMap", "Crossover", "nccl_choice_map",
            "EXPERT_PARALLEL_KERNELS", "ExpertParallelKernel",
            "expert_parallel_kernel", "ExpertParallelTraffic", "ExpertParallelExchange", "expert_parallel_exchange",
            "BANDWIDTH_DEFINITIONS", "BandwidthDefinition", "bandwidth_definition", "reported_bandwidth",
            "SERVING_KERNELS", "ServingKernel", "serving_kernel_time",
            "SERVING_KERNEL_SOURCES", "SYMMETRIC_KERNELS", "SymmetricAllReduce", "nccl_symmetric_all_reduce",
            "SERVING_ENGINES", "ServingEngine", "ServingAllReduce", "serving_all_reduce",
        ),
    ),
    "interconnect_lab.collectives.reproduction": (
        "The collective model against published nccl-tests runs: chapter 7's reproduction table.",
        ("BANDS", "ReproductionRow", "result_system", "reproduction_table", "reproduction_summary"),
    ),
    "interconnect_lab.collectives.reference": (
        "Collectives performed step by step on numpy arrays, one array per rank.",
        (
            "Transfer", "ReferenceRun", "ring_reduce_scatter", "ring_all_gather", "ring_all_reduce",
            "halving_doubling_all_reduce", "ring_broadcast", "direct_all_to_all", "IMPLEMENTATIONS",
            "run_collective",
        ),
    ),
    "interconnect_lab.memory": (
        "the memory wall: training state, KV cache, offload over PCIe and CXL",
        (
            "TrainingState", "training_state", "kv_cache_bytes", "OffloadPlan", "OFFLOAD_PLANS",
            "offload_plan",
            "OffloadPath", "OFFLOAD_PATHS", "offload_path", "GPUS_PER_HOST_SOCKET", "transfer_time",
            "OffloadStep", "offload_step", "DecodeStep", "decode_step",
            "OffloadLimits", "offload_limits", "DEFAULT_HOST",
        ),
    ),
    "interconnect_lab.rdma": (
        "kernel TCP against RDMA; GPUDirect RDMA against staging",
        (
            "CASES", "MOVERS", "Hop", "Stack", "STACKS", "host_latency", "HostTransfer", "host_transfer",
            "PATH_TYPES", "NCCL_NET_GDR_LEVEL_DEFAULT", "nccl_uses_gpudirect", "NCCL_BUFFSIZE_DEFAULT_BYTES",
            "NCCL_STEPS", "NCCL_CHUNK_BYTES", "NCCL_SOURCES", "SEGMENTS", "Segment", "GpuPath", "GPU_PATHS",
            "GpuTransfer", "gpu_transfer", "host_memory_traffic",
        ),
    ),
    "interconnect_lab.topology": (
        "NVLink domains and fat trees; dragonflies, tori, rail-only and direct-connect fabrics, compared in "
        "one table",
        (
            "ScaleUpDomain", "scale_up_domain", "nvlink_domain", "NVLINK_DOMAIN_WIRING", "FatTree",
            "fat_tree",
            "max_hosts", "PATHS", "PathLatency", "path_latency", "TopologySummary", "fat_tree_summary",
            "Dragonfly", "dragonfly", "dragonfly_max_hosts", "SLINGSHOT", "Torus", "torus", "TPU_V4",
            "RailOnly",
            "rail_only", "DirectConnect", "direct_connect", "RAIL_ONLY_REPORTED", "JUPITER_REPORTED",
            "TopologyComparison", "topology_comparison", "network_cost_per_host", "COMPARISON_COLUMNS",
            "MultiPlaneFatTree", "multi_plane_fat_tree", "multi_plane_max_endpoints", "PLANE_SPLITS",
        ),
    ),
    "interconnect_lab.roadmap": (
        "what UALink, Scale-Up Ethernet and 102.4 Tb/s switches change",
        (
            "tensor_parallel_all_reduce_time", "ScaleUpRow", "scale_up_comparison", "FatTreeReach",
            "fat_tree_reach", "MultiPlaneFabric", "multi_plane_fabric", "NetworkParts", "network_parts",
            "GenerationGrowth", "generation_growth",
            "ScaleUpStatus", "scale_up_status_table",
        ),
    ),
    "interconnect_lab.pricebook": (
        "dated price estimates",
        (
            "Price", "Transceiver", "TRANSCEIVERS", "transceiver", "PriceBook", "ESTIMATES",
            "H100_NDR_PRICES",
            "SINGLE_PORT_400G_TRANSCEIVER_PRICE", "MEDIA", "ELECTRICITY_PRICE", "H100_ETHERNET_PRICES",
            "with_transceiver",
        ),
    ),
    "interconnect_lab.cost": (
        "cluster cost and power",
        (
            "ClusterCost", "cluster_cost", "cluster_cost_estimates", "interconnect_overhead",
            "BREAKDOWN_PARTS",
        ),
    ),
    "interconnect_lab.training": (
        "transformer FLOPs and memory, parallel step time, MFU",
        (
            "TransformerModel", "MODELS", "matmul_fraction_of_peak", "sustained_matmul_rate",
            "SUSTAINED_REFERENCE_GPU", "transformer_model", "parameter_count", "flops_per_token",
            "FLOP_CONVENTIONS", "training_flops", "RECOMPUTATION", "Recomputation", "Cluster", "CLUSTERS",
            "cluster", "Software", "Kernels", "Precision", "Overlap", "Optimizer", "ZeroPlusPlus", "SOFTWARE",
            "software", "CONTEXT_PARALLEL_SOURCES", "Efficiencies", "DEFAULT_EFFICIENCIES",
            "ATTENTION_KERNELS", "ATTENTION_KERNEL_SOURCES", "AttentionShare", "attention_share",
            "ATTENTION_BENCHMARK_LENGTHS", "FLASH_ATTENTION_BACKWARD_FLOPS",
            "FLASH_ATTENTION_BACKWARD_SOURCE",
            "EAGER_RMSNORM_BYTES", "EAGER_ROTARY_BYTES", "EAGER_GATED_ACTIVATION_BYTES",
            "EAGER_ELEMENTWISE_SOURCES", "EAGER_ADAMW_BYTES", "EAGER_OPTIMIZER_SOURCES",
            "GRADIENT_NORM_BYTES",
            "GRADIENT_CLIP_BYTES", "GRADIENT_CLIP_SOURCES", "NCCL_BUS_BYTES_PER_S_PER_SM", "NCCL_SM_SOURCE",
            "ParallelConfig", "parallel_config", "MemoryBreakdown", "memory_per_gpu", "TrainingStep",
            "training_step", "pipeline_bubble_fraction", "PipelineSchedule", "pipeline_schedule",
            "ParallelTraffic", "parallel_traffic", "system_cluster", "scale_out_variants", "NetworkScan",
            "network_scan", "TensorParallelLayer", "tensor_parallel_layer", "tensor_parallel_scan",
            "training_time_s", "TrainingSweep", "parallel_sweep", "ZeroVolume", "zero_communication_volume",
            "GradientCompression", "gradient_compression", "megascale_ablation", "MEGASCALE_MICROBATCH_SIZE",
            "EFFICIENT_OPERATORS", "FidelityRow", "replay", "fidelity_table", "fidelity_summary",
            "fidelity_by_family",
        ),
    ),
    "interconnect_lab.training.terms": (
        "The terms of the step-time model, one function each: the training package's internal API.",
        (
            "Split", "FP32_BYTES", "FP8_QUANTIZE_BYTES", "SM_PROBE_BYTES", "gemm_rate", "hbm_rate", "collective_s",
            "collective_sms", "received_bytes", "hidden_share", "hidden_traffic_s", "held_compute_s",
            "group_ranks_per_node", "ProjectionGemms", "projection_gemm_s", "precision_speedup", "AttentionCore",
            "attention_core_s", "elementwise_s", "eager_elementwise_s", "fp8_quantize_s", "stops_early",
            "recompute_s", "collective_passes", "LayerCollectives", "tensor_parallel_layer_s",
            "causal_imbalance", "context_parallel_layer_s", "LayerTerms", "layer_terms", "layers_per_stage",
            "edge_stage_layers", "stage_parameters", "StageShape", "stage_shape", "logits_s", "stored_weight_bytes",
            "gathered_weight_bytes", "weight_cast_bytes",
            "layer_contention_s", "stage_time_s", "pipeline_bubble_s", "pipeline_send_s", "DataParallelGroup",
            "data_parallel_group", "data_parallel_units", "exposed_s", "DataParallelTerms",
            "replicated_data_parallel_s", "sharded_state_data_parallel_s", "sharded_weight_data_parallel_s",
            "data_parallel_s", "optimizer_bytes_per_parameter", "optimizer_s", "executed_flops",
            "activation_bytes_per_layer", "memory_breakdown",
        ),
    ),
    "interconnect_lab.matmul": (
        "the sustained rate of a matrix multiply, by its shape",
        (
            "TILES", "REFERENCE_SHAPE", "PRECISIONS", "best_rate", "gemm_efficiency", "gemm_rate",
            "gemm_time_s",
        ),
    ),
    "interconnect_lab.fabric": (
        "flow-level simulation of fat trees: routing, congestion, incast, stragglers",
        (
            "Network", "LINK_KINDS", "DirectNetwork", "dragonfly_network", "torus_network", "DIRECT_ROUTINGS",
            "direct_route", "simulate_direct", "Traffic", "Phase", "Collective", "PLACEMENTS", "permutation",
            "all_to_all", "incast", "background", "combine", "ring_all_reduce_traffic",
            "hierarchical_all_reduce_traffic", "rank_placement", "ROUTINGS", "Routes", "route",
            "explicit_routes",
            "CollisionExpectation", "ecmp_collisions", "max_load_cdf", "FLOW_CONTROLS", "RECOVERIES",
            "IncastSimulation", "IncastResult", "IncastCurve", "incast_port", "incast_collapse",
            "SPRAY_ORDERS",
            "SprayArrivals", "spray_arrivals", "MaxMinRates", "max_min_rates", "incidence_matrix", "JITTERS",
            "StepTimes", "step_times", "sample_step_times", "lagging_worker_cost", "RankTimings",
            "rank_timings",
            "SlowRanks", "detect_slow_ranks", "DegradedLink", "degraded_link_effect", "FlowSimulation",
            "FlowResult", "RateResult", "SimulatedCollective", "simulate", "simulate_routes",
            "simulate_flows",
            "fair_rates", "simulate_collective", "compare_routings",
        ),
    ),
    "interconnect_lab.fabric.network": (
        "The link-level graph of a fat tree: directed links with a capacity each way.",
        ("Network", "LINK_KINDS", "CAPACITY_RANGE_BYTES_PER_S", "MAX_LINKS"),
    ),
    "interconnect_lab.fabric.direct": (
        "Direct networks for the flow simulator: dragonflies and tori as directed links.",
        (
            "DirectNetwork", "dragonfly_network", "torus_network", "DIRECT_ROUTINGS", "direct_route",
            "simulate_direct", "MAX_DIRECT_LINKS",
        ),
    ),
    "interconnect_lab.fabric.traffic": (
        "Traffic: who sends how many bytes to whom.",
        (
            "Traffic", "Phase", "Collective", "PLACEMENTS", "FLOW_BYTES_RANGE", "MAX_HOSTS", "MAX_FLOWS",
            "permutation", "all_to_all", "incast", "background", "combine", "ring_all_reduce_traffic",
            "hierarchical_all_reduce_traffic", "rank_placement",
        ),
    ),
    "interconnect_lab.fabric.routing": (
        "Routing: which of the equal-cost paths each flow's bytes take.",
        ("ROUTINGS", "Routes", "route", "explicit_routes"),
    ),
    "interconnect_lab.fabric.maxmin": (
        "Max-min fair sharing of link capacity, by progressive filling.",
        ("MaxMinRates", "max_min_rates", "incidence_matrix"),
    ),
    "interconnect_lab.fabric.simulation": (
        "Event-driven completion of sized flows under max-min fair sharing.",
        (
            "FlowSimulation", "FlowResult", "RateResult", "SimulatedCollective", "simulate",
            "simulate_routes",
            "simulate_flows", "fair_rates", "simulate_collective", "compare_routings",
        ),
    ),
    "interconnect_lab.fabric.collisions": (
        "ECMP collisions as balls into bins: what hashing costs a permutation.",
        ("CollisionExpectation", "ecmp_collisions", "max_load_cdf", "MAX_SAMPLES"),
    ),
    "interconnect_lab.fabric.incast": (
        "One congested switch port, packet by packet: incast under three flow controls.",
        (
            "FLOW_CONTROLS", "RECOVERIES", "IncastSimulation", "IncastResult", "IncastCurve", "incast_port",
            "incast_collapse", "MAX_PACKETS", "MAX_EVENTS",
        ),
    ),
    "interconnect_lab.fabric.reordering": (
        "Packet spraying and the order packets arrive in: what out-of-order delivery costs.",
        ("SPRAY_ORDERS", "SprayArrivals", "spray_arrivals", "MAX_SPRAYED_PACKETS"),
    ),
    "interconnect_lab.fabric.stragglers": (
        "Stragglers: a synchronous step waits for its slowest worker.",
        (
            "JITTERS", "StepTimes", "step_times", "sample_step_times", "lagging_worker_cost", "RankTimings",
            "rank_timings", "SlowRanks", "detect_slow_ranks", "DegradedLink", "degraded_link_effect",
            "MAX_STEP_SAMPLES",
        ),
    ),
    "interconnect_lab.reliability": (
        "failures, checkpoint intervals and effective training time",
        (
            "CHECKPOINT_INTERVALS", "system_mtbf", "young_interval", "daly_interval",
            "optimal_checkpoint_interval", "effective_training_fraction", "CheckpointPlan", "checkpoint_plan",
        ),
    ),
    "interconnect_lab.energy": (
        "a cluster's power bill: lifetime energy, its cost, energy per bit",
        (
            "EnergyBill", "energy_bill", "lifetime_energy_j", "energy_cost_usd", "energy_per_bit_j",
            "POWER_PARTS",
        ),
    ),
    "interconnect_lab.silicon": (
        "chip yield with spare cores: why not one big chip",
        (
            "poisson_yield", "chip_yield", "Floorplan", "WSE_3", "H100_DIE", "DEFECT_DENSITY_5NM_PER_M2",
            "mm2",
        ),
    ),
    "interconnect_lab.standards": (
        "specifications, consortia and vendor claims, kept as claims",
        (
            "Specification", "Consortium", "PerformanceClaim", "ROCE_V2", "ULTRA_ETHERNET_CONSORTIUM",
            "ULTRA_ETHERNET_1_0", "LOCAL_ACK_TIMEOUT_UNIT_S", "local_ack_timeout_s",
            "NCCL_IB_TIMEOUT_DEFAULT",
            "NCCL_IB_RETRY_CNT_DEFAULT", "NCCL_IB_QPS_PER_CONNECTION_DEFAULT", "SPECTRUM_X_CLAIM",
            "SMARTT_CLAIM",
            "JERICHO3_AI_CLAIM", "CXL_SPECIFICATIONS", "COHERENT_INTERCONNECT_CONSORTIA", "NVIDIA_CPO_CLAIM",
            "BROADCOM_CPO_CLAIM",
            "ADAPTIVE_RETRANSMISSION_SOURCE", "ADAPTIVE_RETRANSMISSION_MIN_BASE_TIMEOUT_S",
            "ADAPTIVE_RETRANSMISSION_MAX_DELAY_FACTOR", "worst_case_loss_stall_s", "PCIE_7_0", "PCIE_7_0_RELEASE",
            "CXL_4_0_RELEASE",
        ),
    ),
    "interconnect_lab.moe": (
        "mixture of experts: expert parallelism and its all-to-all traffic",
        (
            "MoEModel", "MOE_MODELS", "moe_model", "expected_ranks_per_token", "AllToAllTraffic",
            "all_to_all_traffic", "zipf_expert_shares", "RoutingLoad", "routing_load", "NODE_LIMITED_ROUTING",
            "AllToAllTime", "expert_parallel_system", "expert_parallel_all_to_all",
            "MoELayerStep", "moe_layer_step", "incast_fan_in", "fp8_scale_bytes", "dispatch_and_combine",
            "MAX_EXPERTS", "MAX_TOKENS",
        ),
    ),
    "interconnect_lab.moe.reproduction": (
        "The expert-parallel kernels against published dispatch and combine benchmarks: chapter 11's table.",
        ("EPReproductionRow", "benchmark_system", "benchmark_traffic", "ep_reproduction_table",
         "ep_reproduction_summary"),
    ),
    "interconnect_lab.inference": (
        "inference traffic: decode all-reduces, wide expert parallelism, disaggregation and KV tiers, serving",
        (
            "INFERENCE_MODELS", "inference_model", "OPT_66B", "SERVING_MODELS", "serving_model", "LatentAttention",
            "LATENT_ATTENTION", "KV_CACHE_FORMATS", "kv_bytes_per_token", "prefill_flops",
            "SERVING_ENGINES", "DecodeAllReduce", "tensor_parallel_decode_all_reduce", "tensor_parallel_system",
            "KVTransfer", "kv_transfer", "KVTier", "KV_TIERS", "kv_tier", "kv_load_time", "DisaggregatedTTFT",
            "disaggregated_ttft", "WideEPDecode", "wide_ep_decode_step", "DECODE_MEMORY_EFFICIENCY",
            "MLA_COMPUTE_EFFICIENCY", "ServingDeployment", "serving_deployment",
        ),
    ),
    "interconnect_lab.calibrate": (
        "read nccl-tests, perftest and ``nvidia-smi topo`` output; fit, calibrate and compare the model with "
        "your own cluster",
        (
            "parse_nccl_tests", "NcclTestsRun", "NcclTestsMeasurement", "NCCL_TESTS_PROGRAMS", "RANK_COUNT_SOURCES",
            "parse_perftest", "PerftestRun", "PERFTEST_PROGRAMS", "parse_nvidia_smi_topo", "TopologyMatrix",
            "CONNECTION_RANK", "REGIMES", "DETERMINES", "PLATEAU_FROM_BYTES", "AlphaBetaSegment", "CollectiveFit",
            "fit_collective", "CalibratedLink", "CalibratedCluster", "calibrated_cluster",
            "Calibration", "calibrate_nccl_tests", "COLLECTIVES_FOR_TEXT",
            "ModelComparison", "compare_with_model", "run_system",
            "SHIPPED_LOGS", "ShippedLog", "shipped_log", "shipped_text", "shipped_run", "shipped_system",
        ),
    ),
    "interconnect_lab.calibrate.nccl_tests": (
        "Read what NVIDIA's nccl-tests print: the header, every row and the closing lines.",
        ("NCCL_TESTS_PROGRAMS", "RANK_COUNT_SOURCES", "NcclTestsMeasurement", "NcclTestsRun", "parse_nccl_tests"),
    ),
    "interconnect_lab.calibrate.perftest": (
        "Read what the perftest programs print: ib_write_bw, ib_read_bw, ib_send_bw, ib_write_lat.",
        ("PERFTEST_PROGRAMS", "PerftestRun", "parse_perftest"),
    ),
    "interconnect_lab.calibrate.topo": (
        "Read the matrix that ``nvidia-smi topo -m`` prints: how each GPU reaches each GPU and NIC.",
        ("CONNECTION_RANK", "TopologyMatrix", "parse_nvidia_smi_topo"),
    ),
    "interconnect_lab.calibrate.comparison": (
        "A measured nccl-tests sweep against the collective model, row by row.",
        ("ModelComparison", "compare_with_model", "run_system"),
    ),
    "interconnect_lab.calibrate.fit": (
        "Fit the library's α-β collective model to a measured nccl-tests sweep.",
        (
            "REGIMES", "DETERMINES", "PLATEAU_FROM_BYTES", "AlphaBetaSegment", "CollectiveFit", "fit_collective",
            "CalibratedLink", "CalibratedCluster", "calibrated_cluster", "MAX_FIT_SIZES", "MAX_SEGMENTS",
        ),
    ),
    "interconnect_lab.calibrate.workflow": (
        "One call from a log to a fit, a calibrated link and a comparison with the collective model.",
        ("COLLECTIVES_FOR_TEXT", "Calibration", "calibrate_nccl_tests"),
    ),
    "interconnect_lab.calibrate.logs": (
        "Real tool output shipped with the library, each file exactly as it was printed.",
        ("ShippedLog", "SHIPPED_LOGS", "shipped_log", "shipped_text", "shipped_system"),
    ),
    "interconnect_lab.exercises": (
        'checked exercises and quizzes: ``exercises.check("ch7.ex3", answer)``',
        (
            "check", "show", "verify", "verify_chapter", "stale", "store_entries", "keys", "EXERCISES",
            "CHAPTERS", "Result", "Numeric", "Choice", "Verification",
        ),
    ),
    "interconnect_lab.plotting": (
        "Plotting: figures for the book, built from model results.",
        (
            "PALETTE", "COLORS", "new_figure", "styled", "Table", "step_time_plot", "step_breakdown_plot",
            "ablation_plot", "bandwidth_ladder_plot", "ladder_entry", "nvlink_domain_plot",
            "tensor_parallel_plot", "link_generations_plot", "bus_bandwidth_plot", "collective_time_plot",
            "collective_steps_plot", "crossover_plot", "bus_bandwidth_scaling_plot", "fat_tree_plot",
            "switch_count_plot", "max_hosts_plot", "latency_breakdown_plot", "cost_breakdown_plot",
            "network_share_plot", "flow_completion_plot", "line_rate_plot", "link_utilization_plot",
            "incast_collapse_plot", "victim_slowdown_plot", "straggler_scaling_plot", "slow_rank_plot",
            "memory_wall_plot", "kv_cache_plot", "offload_share_plot", "offload_memory_plot",
            "offload_paths_plot", "decode_plot", "data_path_plot", "host_transfer_plot", "host_memory_plot",
            "gpu_transfer_plot", "max_load_plot", "flow_splitting_plot", "spray_arrivals_plot",
            "power_breakdown_plot", "energy_per_bit_plot", "yield_plot", "interruption_causes_plot",
            "interval_tradeoff_plot", "checkpoint_plot", "training_breakdown_plot",
            "published_comparison_plot",
            "memory_breakdown_plot", "pipeline_schedule_plot", "mfu_scaling_plot", "ablation_replay_plot",
            "network_scan_plot", "compression_tradeoff_plot", "gemm_shape_plot", "attention_share_plot",
            "fidelity_plot",
        ),
    ),
    "interconnect_lab.plotting.style": (
        "The book's visual style: a colour-blind-safe palette and readable defaults.",
        (
            "PALETTE", "COLORS", "STYLE", "styled", "new_figure", "legend_below", "legend_label", "bar_legend",
            "bar_legend_is_current", "text_width_in", "axes_size_in", "time_unit",
        ),
    ),
    "interconnect_lab.plotting.legibility": (
        "Whether a figure reads: texts that do not collide, stay in the figure and legends that name what is drawn.",
        (
            "DrawnText", "drawn_texts", "overlapping_texts", "texts_outside", "undrawn_legend_entries",
            "ambiguous_legend_entries", "figure_problems", "TOLERANCE_PX",
        ),
    ),
    "interconnect_lab.plotting.tables": (
        "Tables for the book: rendered as an HTML table in the book, as aligned text everywhere else.",
        ("Table",),
    ),
    "interconnect_lab.plotting.utilization": (
        "Figures for step time and utilization (chapter 1).",
        ("step_time_plot", "step_breakdown_plot", "ablation_plot"),
    ),
    "interconnect_lab.plotting.catalog": (
        "Figures for the catalog's links and memory tiers: port rates by generation, and the bandwidth "
        "ladder.",
        ("link_generations_plot", "FAMILY_COLORS", "bandwidth_ladder_plot", "ladder_entry"),
    ),
    "interconnect_lab.plotting.memory": (
        "Figures for the memory wall (chapter 3): model state and KV cache against HBM, offload's cost.",
        (
            "memory_wall_plot", "kv_cache_plot", "offload_share_plot", "offload_memory_plot",
            "offload_paths_plot", "update_offload_memory", "update_offload_paths", "decode_plot",
            "PATH_COLORS",
            "path_color",
        ),
    ),
    "interconnect_lab.plotting.rdma": (
        "Figures for RDMA (chapter 4): data paths, kernel TCP against RDMA, host memory, GPUDirect RDMA.",
        (
            "MOVER_COLORS", "STACK_COLORS", "PATH_COLORS", "data_path_plot", "host_transfer_plot",
            "host_memory_plot", "gpu_transfer_plot", "update_gpu_transfer_plot",
        ),
    ),
    "interconnect_lab.plotting.collectives": (
        "Figures for collectives (chapter 7): bandwidth and time against message size, a collective's "
        "data moving step by step, and what NCCL runs over sizes and node counts.",
        (
            "bus_bandwidth_plot", "collective_time_plot", "collective_steps_plot", "crossover_plot",
            "bus_bandwidth_scaling_plot", "ALGORITHM_COLORS", "PROTOCOL_STYLES", "ALGORITHM_NAMES", "choice_label",
            "nccl_choice_plot", "update_nccl_choice_plot", "busbw_legend_handles", "candidates_plot",
            "grouped_bandwidth_plot", "measured_sweep_plot", "reproduction_ratio_plot",
        ),
    ),
    "interconnect_lab.plotting.topology": (
        "Figures for :mod:`interconnect_lab.topology`: fat trees, the designs beyond them, NVSwitch domains.",
        (
            "fat_tree_plot", "switch_count_plot", "max_hosts_plot", "latency_breakdown_plot", "TIER_COLORS",
            "LATENCY_COLORS", "FAMILY_COLORS", "topology_comparison_plot", "dragonfly_plot",
            "topology_flow_plot",
            "nvlink_domain_plot",
        ),
    ),
    "interconnect_lab.plotting.roadmap": (
        "Figures for the next scale-up fabrics and switch chips (chapter 14), from "
        ":mod:`interconnect_lab.roadmap`.",
        ("STATUS_HATCHES", "scale_up_plot", "fat_tree_reach_plot"),
    ),
    "interconnect_lab.plotting.cost": (
        "Figures for cluster cost (chapter 10): where the money goes, and the network's share.",
        ("cost_breakdown_plot", "network_share_plot", "PART_COLORS"),
    ),
    "interconnect_lab.plotting.training": (
        "Figures for :mod:`interconnect_lab.training` (chapters 2 and 8): step time, memory, pipeline "
        "schedules, model against published runs, MFU against the network, gradient compression, tensor "
        "parallelism degree by degree, attention kernels by sequence length and the fidelity table.",
        (
            "training_breakdown_plot", "published_comparison_plot", "memory_breakdown_plot",
            "pipeline_schedule_plot", "mfu_scaling_plot", "ablation_replay_plot", "network_scan_plot",
            "compression_tradeoff_plot", "SCHEDULE_TIME_LIMITS", "schedule_time_limit", "schedule_bars",
            "schedule_title", "CHUNK_HATCHES", "tensor_parallel_plot", "attention_share_plot",
            "fidelity_plot",
        ),
    ),
    "interconnect_lab.plotting.matmul": (
        "Figures for :mod:`interconnect_lab.matmul`: the sustained GEMM rate by shape (chapter 8).",
        ("gemm_shape_plot",),
    ),
    "interconnect_lab.plotting.fabric": (
        "Figures for the fabric simulator (chapters 5, 6 and 9): routing, incast, stragglers, and multipath "
        "transport (hash collisions and packet reordering).",
        (
            "ROUTING_COLORS", "ROUTING_LINESTYLES", "FLOW_CONTROL_COLORS", "flow_completion_plot",
            "line_rate_plot", "link_utilization_plot", "incast_collapse_plot", "victim_slowdown_plot",
            "straggler_scaling_plot", "slow_rank_plot", "max_load_plot", "flow_splitting_plot",
            "spray_arrivals_plot",
        ),
    ),
    "interconnect_lab.plotting.reliability": (
        "Figures for failures and checkpoints (chapter 9).",
        ("CATEGORY_COLORS", "interruption_causes_plot", "interval_tradeoff_plot", "checkpoint_plot"),
    ),
    "interconnect_lab.plotting.energy": (
        "Figures for :mod:`interconnect_lab.energy` (chapter 10): a cluster's power by part, and energy per "
        "bit.",
        ("POWER_COLORS", "power_breakdown_plot", "energy_per_bit_plot"),
    ),
    "interconnect_lab.plotting.silicon": (
        "Figures for :mod:`interconnect_lab.silicon` (chapter 10): chip yield against area.",
        ("yield_plot",),
    ),
    "interconnect_lab.plotting.moe": (
        "Figures for mixture of experts (chapter 11): all-to-all time, skewed routing, an MoE layer.",
        (
            "DOMAIN_COLORS", "domain_comparison_plot", "routing_load_plot", "update_routing_load_plot",
            "moe_layer_plot", "update_moe_layer_plot", "measured_vs_model_plot", "LAYER_PARTS", "KERNEL_COLORS",
            "ep_reproduction_plot",
        ),
    ),
    "interconnect_lab.plotting.inference": (
        "Figures for inference traffic (chapter 12): all-reduces as engines run them, decode, KV transfer and "
        "tiers, wide expert parallelism, TTFT and ITL.",
        (
            "decode_all_reduce_plot", "kv_transfer_plot", "serving_plot", "update_serving_plot", "SERVING_PARTS",
            "serving_all_reduce_plot", "wide_ep_plot", "update_wide_ep_plot", "WIDE_EP_PARTS", "ttft_tiers_plot",
            "update_ttft_tiers_plot", "TTFT_PARTS",
        ),
    ),
    "interconnect_lab.plotting.calibrate": (
        "Figures for calibration (appendix *Measuring your own cluster*, chapter 7): a measured nccl-tests "
        "sweep against the collective model for its machine and the fitted lines, with the ratio, what the "
        "model says NCCL runs and the regimes of the fit.",
        ("calibration_plot", "REGIME_COLORS"),
    ),
    "interconnect_lab.widgets": (
        "Interactive panels (ipywidgets) for the book's chapters.",
        (
            "Panel", "StepTimePanel", "TensorParallelPanel", "NVLinkDomainPanel", "OffloadPanel",
            "GpuDirectPanel", "FatTreePanel", "ClusterCostPanel", "CollectivePanel", "NcclChoicePanel",
            "TrainingRunPanel", "PipelineSchedulePanel", "ZeroPlusPlusPanel", "RoutingPanel", "IncastPanel",
            "StragglerPanel", "SprayPanel", "CheckpointPanel", "PowerBillPanel", "MoEPanel", "ServingPanel",
            "WideEPPanel", "KVTierPanel", "TopologyPanel", "ScaleUpPanel", "CalibrationPanel",
        ),
    ),
    "interconnect_lab.widgets.panel": (
        "The pattern every interactive panel follows.",
        ("Panel",),
    ),
    "interconnect_lab.widgets.static": (
        "Panels in the rendered book, without a kernel: every control value computed at build time.",
        (
            "ENV", "MAX_COMBINATIONS", "MAX_SLIDER_POSITIONS", "StaticControl", "NotStatic", "build_mode",
            "control_grid", "grid", "fixed_settings", "export", "figure_scene", "encode_data", "decode_data",
            "static_html", "note_html", "ERROR_CLASS", "GENERIC_REFUSAL", "refusal_text", "error_html",
        ),
    ),
    "interconnect_lab.widgets.utilization": (
        "Panels for chapter 1: step time, overlap and MFU.",
        ("StepTimePanel",),
    ),
    "interconnect_lab.widgets.training": (
        "Panels for :mod:`interconnect_lab.training`.",
        (
            "TrainingRunPanel", "PipelineSchedulePanel", "ZeroPlusPlusPanel", "OVERLAP_SWITCHES",
            "cluster_choices", "TensorParallelPanel", "NVLinkDomainPanel", "example_model", "WIDTHS",
            "DEGREES",
            "SOFTWARE_CHOICES",
        ),
    ),
    "interconnect_lab.widgets.memory": (
        "Panel for chapter 3: training with part of the state offloaded to host or CXL memory.",
        ("OffloadPanel", "SHARDS", "TOKENS", "path_label"),
    ),
    "interconnect_lab.widgets.rdma": (
        "Panel for chapter 4: GPUDirect RDMA against staging through host memory.",
        ("GpuDirectPanel", "SIZES", "SIZE_GRID", "PCIE_LINKS", "LOADS"),
    ),
    "interconnect_lab.widgets.topology": (
        "Panels for :mod:`interconnect_lab.topology`: sizing a fat tree (chapter 5), and topologies side by "
        "side (chapter 13).",
        ("FatTreePanel", "GPU_COUNTS", "SIZE_GRID", "TopologyPanel", "HOST_COUNTS"),
    ),
    "interconnect_lab.widgets.roadmap": (
        "Panel for :mod:`interconnect_lab.roadmap` (chapter 14): scale-up fabrics on one all-reduce.",
        ("ScaleUpPanel", "MESSAGE_SIZES", "GROUP_SIZES"),
    ),
    "interconnect_lab.widgets.cost": (
        "Panels for the cost of a cluster's network (chapters 5 and 10).",
        ("ClusterCostPanel",),
    ),
    "interconnect_lab.widgets.collectives": (
        "Panels for chapter 7: how a collective's time and bus bandwidth depend on size, ranks, algorithm and "
        "link, and what NCCL runs on a machine.",
        (
            "CollectivePanel", "NcclChoicePanel", "MACHINES", "CHOICE_COLLECTIVES", "CHOICE_NODES",
            "CHOICE_SIZES_BYTES",
        ),
    ),
    "interconnect_lab.widgets.fabric": (
        "Panels for the fabric simulator (chapters 5, 6 and 9): routing, incast, stragglers.",
        ("RoutingPanel", "IncastPanel", "StragglerPanel", "SprayPanel", "FABRICS", "TRAFFIC_PATTERNS"),
    ),
    "interconnect_lab.widgets.reliability": (
        "Panels for chapter 9: failures, checkpoints and the time a large job spends training.",
        ("CheckpointPanel", "LLAMA3_GPU_MTBF_S"),
    ),
    "interconnect_lab.widgets.energy": (
        "Panel for :mod:`interconnect_lab.energy` (chapter 10): a cluster's power and energy bill.",
        ("PowerBillPanel", "FABRICS"),
    ),
    "interconnect_lab.widgets.moe": (
        "Panel for chapter 11: an MoE layer's dispatch and combine on an 8-GPU or a 72-GPU NVLink domain.",
        ("MoEPanel", "DOMAINS", "EXPERTS", "TOP_K", "TOKENS", "EP_DEGREES", "SKEWS"),
    ),
    "interconnect_lab.widgets.inference": (
        "Panels for chapter 12: a TP deployment's TTFT and ITL, a wide expert-parallel decode step, and TTFT with "
        "KV-cache tiers across the network.",
        ("ServingPanel", "TENSOR_PARALLEL", "BATCHES", "CONTEXTS", "KV_LINKS", "WideEPPanel", "WIDE_EP_SYSTEMS",
         "EP_DEGREES", "WIDE_EP_BATCHES", "WIDE_EP_CONTEXTS", "KVTierPanel", "TIER_MODELS", "PROMPTS",
         "CACHED_FRACTIONS"),
    ),
    "interconnect_lab.widgets.calibrate": (
        "Panel for the appendix *Measuring your own cluster*: pick a shipped nccl-tests log or paste your "
        "own with the machine it ran on, and see it against the collective model, with the fitted regimes.",
        ("CalibrationPanel", "calibration_summary"),
    ),
}



def top_level_names():
    """What ``interconnect_lab.__all__`` lists: the model modules, then the names re-exported at the top."""
    return list(MODULES["interconnect_lab"][1])
