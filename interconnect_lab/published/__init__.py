"""Published measurements that the book discusses and the tests reproduce.

Each table is stored once, as printed in its source, with the source attached.
The model never reads these values to compute anything: they are what the
model is checked against.
"""

from . import collectives, fabrics, gemm, hosts, latency, power, reliability, runs, training_runs
from .runs import (  # noqa: F401
    AblationStep, MEGASCALE_ABLATION_SOURCE, MegatronRun, SC21_TABLE1_SOURCE, MegaScaleRun,
    MEGASCALE_TABLE2_SOURCE, SC21_TABLE1_SEQUENCE_LENGTH, TrainingTimeExample,
    SC21_TRAINING_TIME_SOURCE, ZERO_PLUS_PLUS_SOURCE,
)
from .fabrics import (  # noqa: F401
    SuperPodFabric, SUPERPOD_H100_TABLE4_SOURCE, SUPERPOD_B200_LARGER_SOURCE,
    SUPERPOD_B300_XDR_TABLE3_SOURCE, CostShareEstimate, COTTIER_2024,
    EPOCH_CLUSTER_INTERCONNECT_SOURCE, NVLinkDomainFigure, ClusterFabric, DEEPSEEK_MPFT_SOURCE,
)
from .collectives import CollectiveMeasurement
from .latency import LatencyEstimate
from .reliability import (  # noqa: F401
    StragglerObservation, InterruptionCause, InterruptionLog, RestartReport, OPT,
    RecoveryObservation, FT_HSDP,
)
from .hosts import (  # noqa: F401
    HostTransferMeasurement, MemoryLatencyMeasurement, CAI_2021, KALIA_2019, StackThroughput,
    INTER_SOCKET_LINK_SOURCE,
)
from .power import PueEstimate, RackPowerFigure
from .training_runs import PublishedRun
from .gemm import (GemmMeasurement, AZURE_A100_GEMM, AZURE_A100_GEMM_SOURCE, AZURE_H100_FP8_GEMM,
                   AZURE_H100_FP8_GEMM_SOURCE, TILELANG_H800_GEMM, TILELANG_H800_GEMM_SOURCE)
from .collectives import DGX_A100_MULTINODE_ALL_REDUCE_BYTES_PER_S, NCCL_ISSUE_812

#: Published training runs beyond SC21 Table 1 and MegaScale Table 2, with every input
#: their sources state, replayed by :func:`interconnect_lab.training.fidelity_table`.
TRAINING_RUNS = training_runs.TRAINING_RUNS

#: MegaScale Table 3: the 175B model on 256 GPUs, optimizations added one by one.
MEGASCALE_ABLATION = runs.MEGASCALE_ABLATION

#: Megatron-LM weak scaling, SC21 Table 1 (vocabulary 51,200, sequence 2,048).
SC21_TABLE1 = runs.SC21_TABLE1

#: MegaScale Table 2: 175B model, Megatron-LM against MegaScale at equal batch.
MEGASCALE_TABLE2 = runs.MEGASCALE_TABLE2

#: Vocabulary and sequence length of every SC21 Table 1 model (§5.1).
SC21_TABLE1_VOCABULARY = runs.SC21_TABLE1_VOCABULARY

#: SC21's two examples of Eq. (4): GPT-3 175B (about 34 days) and the 1T model (about 84 days).
SC21_TRAINING_TIME_EXAMPLES = runs.SC21_TRAINING_TIME_EXAMPLES

#: ZeRO-3 and ZeRO++ communication volume per iteration, in units of the model size M.
ZERO_PLUS_PLUS_VOLUME = runs.ZERO_PLUS_PLUS_VOLUME

#: ZeRO++'s headline throughput gain over ZeRO-3: "up to 2.16x" at 384 V100 GPUs (abstract),
#: reached on the low-bandwidth configuration of its evaluation.
ZERO_PLUS_PLUS_THROUGHPUT = runs.ZERO_PLUS_PLUS_THROUGHPUT

#: DGX SuperPOD H100, compute fabric per SU count (Table 4). No core tier up to 4 SU.
SUPERPOD_H100_TABLE4 = fabrics.SUPERPOD_H100_TABLE4

#: DGX SuperPOD B200 (NDR, 64-port switches), compute fabric from 2 to 64 SU.
SUPERPOD_B200_LARGER = fabrics.SUPERPOD_B200_LARGER

#: DGX SuperPOD B300 XDR (144-port switches), compute fabric from 1 to 18 SU.
SUPERPOD_B300_XDR_TABLE3 = fabrics.SUPERPOD_B300_XDR_TABLE3

#: Epoch AI's constant: cluster-level interconnect is 19 % of a cluster's hardware acquisition
#: cost, so a server price is multiplied by 1 / (1 - 0.19) = 1.23 to cost the cluster.
EPOCH_CLUSTER_INTERCONNECT_COST_FRACTION = fabrics.EPOCH_CLUSTER_INTERCONNECT_COST_FRACTION

#: Published estimates of the network's share, strongest source first.
NETWORK_COST_SHARES = fabrics.NETWORK_COST_SHARES

#: NVIDIA's headline figures for its NVLink domains (both directions added, as quoted).
NVLINK_DOMAIN_FIGURES = fabrics.NVLINK_DOMAIN_FIGURES

#: The largest GPU clusters' published fabrics (Clos, or not published) and DeepSeek's multi-plane design.
CLUSTER_FABRICS = fabrics.CLUSTER_FABRICS

#: Peak bus bandwidths stated by NCCL's maintainers (published-results §5), plus the
#: H200 figures of the ML Engineering book and one network port.
NCCL_BUS_BANDWIDTH = collectives.NCCL_BUS_BANDWIDTH

#: NVLS all-reduce on 2 to 8 H100 SXM of one node, 2-4 GB messages, as a user reported
#: it (nccl issue #1455): busbw "about 365-370 GB/s" for 2-4 GPUs (stored as 367.5),
#: then 420, 440, 460, 480 GB/s, with algbw 258, 265, 270, 273 GB/s for 5-8 GPUs.
NCCL_NVLS_SCALING = collectives.NCCL_NVLS_SCALING

#: The one public breakdown found of a small message's latency, part by part. Secondary: a
#: vendor's article giving "the consensus range from public measurements"; use with that label.
LATENCY_DISSECTION_SOURCE = latency.LATENCY_DISSECTION_SOURCE

#: Latency of the parts of a small message's path, as published (all secondary estimates).
LATENCY_ESTIMATES = latency.LATENCY_ESTIMATES

#: MegaScale's computational stragglers: about 0.5 % of machines about 10 % slower; removing them
#: raised MFU by about 0.7 % (all "about" in the paper).
MEGASCALE_STRAGGLERS = reliability.MEGASCALE_STRAGGLERS

#: Llama 3 405B pre-training: 466 interruptions in 54 days, 419 unexpected, 35 from network
#: switches and cables, more than 90 % effective training time.
LLAMA3_INTERRUPTIONS = reliability.LLAMA3_INTERRUPTIONS

#: OPT-175B: on 992 80 GB A100 GPUs, hardware failures caused at least 35 manual restarts and the
#: cycling of over 100 hosts over about two months.
OPT175B_RESTARTS = reliability.OPT175B_RESTARTS

#: Fully synchronous training against fault-tolerant HSDP on O(100K) GPUs: stall per failure 10 min
#: against 3 min, effective training time 44 % against 80 %.
FT_HSDP_RECOVERY = reliability.FT_HSDP_RECOVERY

#: Host-to-device copies on 8 H200 with PCIe Gen5 x16: 55.4 GB/s per direction, 88% of the
#: link's 63 GB/s data rate.
HOST_DEVICE_TRANSFER = hosts.HOST_DEVICE_TRANSFER

#: Pond (ASPLOS 2023): CXL adds 70-90 ns over same-NUMA-node DRAM for pools of 8-16 sockets.
#: Melody (ASPLOS 2025): four real CXL devices on five CPU platforms, 140-410 ns.
CXL_LATENCY_MEASUREMENTS = hosts.CXL_LATENCY_MEASUREMENTS

#: Linux kernel TCP: "~42Gbps throughput-per-core" for the best case, one long flow with every common
#: NIC offload; copying from kernel to application buffers takes "> 50% of total CPU cycles"; the
#: receiver is the bottleneck. Testbed: Xeon Gold 6128 at 3.4 GHz, 100 Gbps ConnectX-5.
KERNEL_TCP_PER_CORE = hosts.KERNEL_TCP_PER_CORE

#: eRPC, a kernel-bypass RPC library in user space: "one CPU core can handle up to 10 million small
#: RPCs per second, or send large messages at 75 Gbps".
ERPC_PER_CORE = hosts.ERPC_PER_CORE

#: One inter-socket link (Intel UPI at 16 GT/s, Sapphire Rapids) as Intel's Performance Counter
#: Monitor reports it, taken here as one direction [B/s]. An estimate: a tool's printed maximum,
#: not a measured transfer, and the direction is not stated.
INTER_SOCKET_LINK_BYTES_PER_S = hosts.INTER_SOCKET_LINK_BYTES_PER_S

#: Published PUE figures, the industry average first.
PUE_ESTIMATES = power.PUE_ESTIMATES

#: What is public about the power of liquid-cooled GB200 NVL72 racks, and what air-cooled rooms hold.
#: No primary source gives the draw of one GB200 NVL72 rack.
RACK_POWER_FIGURES = power.RACK_POWER_FIGURES

__all__ = [
    "AblationStep", "MEGASCALE_ABLATION", "MEGASCALE_ABLATION_SOURCE",
    "MegatronRun", "SC21_TABLE1", "SC21_TABLE1_SOURCE",
    "MegaScaleRun", "MEGASCALE_TABLE2", "MEGASCALE_TABLE2_SOURCE",
    "SuperPodFabric", "SUPERPOD_H100_TABLE4", "SUPERPOD_H100_TABLE4_SOURCE",
    "SUPERPOD_B200_LARGER", "SUPERPOD_B200_LARGER_SOURCE",
    "SUPERPOD_B300_XDR_TABLE3", "SUPERPOD_B300_XDR_TABLE3_SOURCE",
    "CostShareEstimate", "NETWORK_COST_SHARES", "COTTIER_2024",
    "EPOCH_CLUSTER_INTERCONNECT_COST_FRACTION", "EPOCH_CLUSTER_INTERCONNECT_SOURCE",
    "NVLinkDomainFigure", "NVLINK_DOMAIN_FIGURES", "ClusterFabric", "CLUSTER_FABRICS", "DEEPSEEK_MPFT_SOURCE",
    "StragglerObservation", "MEGASCALE_STRAGGLERS", "InterruptionLog", "LLAMA3_INTERRUPTIONS",
    "InterruptionCause", "RestartReport", "OPT175B_RESTARTS", "RecoveryObservation", "FT_HSDP_RECOVERY",
]
__all__ += ["CollectiveMeasurement", "NCCL_BUS_BANDWIDTH", "NCCL_NVLS_SCALING"]
__all__ += ["SC21_TABLE1_VOCABULARY", "SC21_TABLE1_SEQUENCE_LENGTH", "TrainingTimeExample",
            "SC21_TRAINING_TIME_SOURCE", "SC21_TRAINING_TIME_EXAMPLES", "ZERO_PLUS_PLUS_SOURCE",
            "ZERO_PLUS_PLUS_VOLUME", "ZERO_PLUS_PLUS_THROUGHPUT"]
__all__ += ["LatencyEstimate", "LATENCY_ESTIMATES", "LATENCY_DISSECTION_SOURCE"]
__all__ += ["HostTransferMeasurement", "HOST_DEVICE_TRANSFER", "MemoryLatencyMeasurement",
            "CXL_LATENCY_MEASUREMENTS"]
__all__ += ["StackThroughput", "KERNEL_TCP_PER_CORE", "ERPC_PER_CORE", "CAI_2021", "KALIA_2019",
            "INTER_SOCKET_LINK_BYTES_PER_S", "INTER_SOCKET_LINK_SOURCE"]
__all__ += ["PueEstimate", "PUE_ESTIMATES", "RackPowerFigure", "RACK_POWER_FIGURES"]
__all__ += ["DGX_A100_MULTINODE_ALL_REDUCE_BYTES_PER_S", "NCCL_ISSUE_812", "PublishedRun", "TRAINING_RUNS", "GemmMeasurement", "AZURE_A100_GEMM", "AZURE_A100_GEMM_SOURCE",
            "TILELANG_H800_GEMM", "TILELANG_H800_GEMM_SOURCE", "AZURE_H100_FP8_GEMM", "AZURE_H100_FP8_GEMM_SOURCE"]
