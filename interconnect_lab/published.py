"""Published measurements that the book discusses and the tests reproduce.

Each table is stored once, as printed in its source, with the source attached.
The model never reads these values to compute anything: they are what the
model is checked against.
"""

from __future__ import annotations

from dataclasses import dataclass

from . import units as u
from .sources import LLAMA3, MEGASCALE, MLENG_NETWORK, NVIDIA_NVLINK, SC21, Source

__all__ = [
    "AblationStep", "MEGASCALE_ABLATION", "MEGASCALE_ABLATION_SOURCE",
    "MegatronRun", "SC21_TABLE1", "SC21_TABLE1_SOURCE",
    "MegaScaleRun", "MEGASCALE_TABLE2", "MEGASCALE_TABLE2_SOURCE",
    "SuperPodFabric", "SUPERPOD_H100_TABLE4", "SUPERPOD_H100_TABLE4_SOURCE",
    "SUPERPOD_B200_LARGER", "SUPERPOD_B200_LARGER_SOURCE",
    "SUPERPOD_B300_XDR_TABLE3", "SUPERPOD_B300_XDR_TABLE3_SOURCE",
    "CostShareEstimate", "NETWORK_COST_SHARES", "COTTIER_2024",
    "EPOCH_CLUSTER_INTERCONNECT_COST_FRACTION", "EPOCH_CLUSTER_INTERCONNECT_SOURCE",
    "NVLinkDomainFigure", "NVLINK_DOMAIN_FIGURES",
    "StragglerObservation", "MEGASCALE_STRAGGLERS", "InterruptionLog", "LLAMA3_INTERRUPTIONS",
    "InterruptionCause", "RestartReport", "OPT175B_RESTARTS", "RecoveryObservation", "FT_HSDP_RECOVERY",
]


@dataclass(frozen=True, kw_only=True)
class AblationStep:
    """One row of an ablation study: an optimization and the MFU after adding it.

    Attributes
    ----------
    label : str
        The optimization as the paper names it.
    mfu : float
        MFU after adding this optimization to all the rows above it [-].
    category : str
        What kind of change it is: ``"baseline"``, ``"communication"`` (overlapping
        or shortening data movement), ``"computation"`` (faster kernels),
        ``"algorithm"`` (a change to the model or optimizer) or ``"other"``.
    """

    label: str
    mfu: float
    category: str


MEGASCALE_ABLATION_SOURCE: Source = MEGASCALE.at(
    "Table 3", note="175B model on 256 GPUs; the LAMB row triples the batch from 256 to 768"
)

#: MegaScale Table 3: the 175B model on 256 GPUs, optimizations added one by one.
MEGASCALE_ABLATION: tuple[AblationStep, ...] = (
    AblationStep(label="Megatron-LM baseline", mfu=0.477, category="baseline"),
    AblationStep(label="parallel transformer block", mfu=0.523, category="algorithm"),
    AblationStep(label="sliding-window attention", mfu=0.533, category="algorithm"),
    AblationStep(label="tensor-parallel overlap", mfu=0.555, category="communication"),
    AblationStep(label="pipeline-parallel overlap", mfu=0.580, category="communication"),
    AblationStep(label="data-parallel overlap", mfu=0.595, category="communication"),
    AblationStep(label="efficient operators", mfu=0.612, category="computation"),
    AblationStep(label="miscellaneous", mfu=0.623, category="other"),
    AblationStep(label="LAMB optimizer (batch x3)", mfu=0.653, category="algorithm"),
)


@dataclass(frozen=True, kw_only=True)
class MegatronRun:
    """One row of Megatron-LM's weak-scaling table (SC21 Table 1).

    Selene: 8 A100 80 GB per node on NVLink/NVSwitch, 8 x 200 Gb/s HDR InfiniBand
    per node, three-level fat tree; vocabulary 51,200, sequence 2,048, full
    activation recomputation, interleaved schedule.

    Attributes
    ----------
    parameters : float
        Model parameters [-].
    heads, hidden_size, layers : int
        Attention heads, hidden size h and transformer layers l.
    tensor_parallel, pipeline_parallel, gpus : int
        Tensor- and pipeline-parallel degrees and GPU count; data-parallel degree
        is ``gpus / (tensor_parallel * pipeline_parallel)``.
    batch_size, microbatch_size : int
        Global batch and microbatch [sequences]. Microbatch sizes are from the
        authors' script ``examples/sc21/run_table_1.sh``.
    interleave : int or None
        Model chunks per pipeline stage (v) from the same script; None where the
        paper does not state it.
    flop_per_s_per_gpu : float
        Achieved FLOP/s per GPU, counting recomputation (HFU-style) [FLOP/s].
    fraction_of_peak : float
        ``flop_per_s_per_gpu`` over the 312 TFLOP/s A100 peak, as printed [-].
    """

    parameters: float
    heads: int
    hidden_size: int
    layers: int
    tensor_parallel: int
    pipeline_parallel: int
    gpus: int
    batch_size: int
    microbatch_size: int
    interleave: int | None
    flop_per_s_per_gpu: float
    fraction_of_peak: float


SC21_TABLE1_SOURCE: Source = SC21.at(
    "Table 1", note="microbatch and interleave from NVIDIA/Megatron-LM examples/sc21/run_table_1.sh")

#: Megatron-LM weak scaling, SC21 Table 1 (vocabulary 51,200, sequence 2,048).
SC21_TABLE1: tuple[MegatronRun, ...] = tuple(
    MegatronRun(parameters=p * 1e9, heads=a, hidden_size=h, layers=l, tensor_parallel=t,
                pipeline_parallel=pp, gpus=n, batch_size=b, microbatch_size=mb, interleave=v,
                flop_per_s_per_gpu=x * 1e12, fraction_of_peak=f / 100)
    for p, a, h, l, t, pp, n, b, mb, v, x, f in (
        (1.7, 24, 2304, 24, 1, 1, 32, 512, 16, None, 137, 44),
        (3.6, 32, 3072, 30, 2, 1, 64, 512, 16, None, 138, 44),
        (7.5, 32, 4096, 36, 4, 1, 128, 512, 16, None, 142, 46),
        (18.4, 48, 6144, 40, 8, 1, 256, 1024, 8, None, 135, 43),
        (39.1, 64, 8192, 48, 8, 2, 512, 1536, 4, None, 138, 44),
        (76.1, 80, 10240, 60, 8, 4, 1024, 1792, 2, 3, 140, 45),
        (145.6, 96, 12288, 80, 8, 8, 1536, 2304, 2, 2, 148, 47),
        (310.1, 128, 16384, 96, 8, 16, 1920, 2160, 1, 2, 155, 50),
        (529.6, 128, 20480, 105, 8, 35, 2520, 2520, 1, 3, 163, 52),
        (1008.0, 160, 25600, 128, 8, 64, 3072, 3072, 1, None, 163, 52),
    )
)


@dataclass(frozen=True, kw_only=True)
class MegaScaleRun:
    """One row of MegaScale's strong-scaling table (NSDI'24 Table 2).

    The 175B model (96 layers, h = 12,288, 128 heads, sequence 2,048, vocabulary
    64,000) with TP 8, PP 8 and interleave depth 6 on A100-class GPUs (312 TFLOP/s).

    Attributes
    ----------
    batch_size : int
        Global batch [sequences].
    system : str
        ``"Megatron-LM"`` or ``"MegaScale"``.
    gpus : int
        GPU count.
    iteration_s : float
        Time per iteration [s].
    tokens_per_s : float
        Training throughput [token/s].
    mfu : float
        Model FLOPs utilization as printed [-].
    speedup : float or None
        MegaScale over Megatron-LM at the same size, as printed; None for Megatron-LM rows.
    """

    batch_size: int
    system: str
    gpus: int
    iteration_s: float
    tokens_per_s: float
    mfu: float
    speedup: float | None


MEGASCALE_TABLE2_SOURCE: Source = MEGASCALE.at(
    "Table 2", note="the aggregate PFLOP/s column is inconsistent in four cells and is not stored")

#: MegaScale Table 2: 175B model, Megatron-LM against MegaScale at equal batch.
MEGASCALE_TABLE2: tuple[MegaScaleRun, ...] = tuple(
    MegaScaleRun(batch_size=b, system=system, gpus=n, iteration_s=t, tokens_per_s=k * 1e3,
                 mfu=m / 100, speedup=x)
    for b, system, n, t, k, m, x in (
        (768, "Megatron-LM", 256, 40.0, 39.3, 53.0, None),
        (768, "Megatron-LM", 512, 21.2, 74.1, 49.9, None),
        (768, "Megatron-LM", 768, 15.2, 103.8, 46.7, None),
        (768, "Megatron-LM", 1024, 11.9, 132.7, 44.7, None),
        (768, "MegaScale", 256, 32.0, 49.0, 65.3, 1.23),
        (768, "MegaScale", 512, 16.5, 95.1, 63.5, 1.27),
        (768, "MegaScale", 768, 11.5, 136.7, 61.3, 1.31),
        (768, "MegaScale", 1024, 8.9, 176.9, 59.0, 1.32),
        (6144, "Megatron-LM", 3072, 29.02, 433.6, 48.7, None),
        (6144, "Megatron-LM", 6144, 14.78, 851.6, 47.8, None),
        (6144, "Megatron-LM", 8192, 12.24, 1027.9, 43.3, None),
        (6144, "Megatron-LM", 12288, 8.57, 1466.8, 41.2, None),
        (6144, "MegaScale", 3072, 23.66, 531.9, 59.1, 1.21),
        (6144, "MegaScale", 6144, 12.21, 1030.9, 57.3, 1.19),
        (6144, "MegaScale", 8192, 9.56, 1315.6, 54.9, 1.26),
        (6144, "MegaScale", 12288, 6.34, 1984.0, 55.2, 1.34),
    )
)


# Fat trees: NVIDIA DGX SuperPOD compute fabrics -------------------------------------------

@dataclass(frozen=True, kw_only=True)
class SuperPodFabric:
    """One row of an NVIDIA DGX SuperPOD compute-fabric table.

    The compute fabric is rail-optimized: 8 network ports per DGX, one rail
    each; a scalable unit (SU) is a group of nodes whose ports on one rail share
    a leaf switch.

    Attributes
    ----------
    scalable_units : int
        Scalable units (SU).
    nodes : int
        DGX systems.
    gpus : int
        GPUs, as printed.
    leaf_switches, spine_switches, core_switches : int
        InfiniBand switches per tier (0 where the table has none).
    node_leaf_cables : int
        Cables from nodes (and, for H100, the UFM appliances) to leaves.
    leaf_spine_cables, spine_core_cables : int
        Cables between the switch tiers (0 where there is no core).
    """

    scalable_units: int
    nodes: int
    gpus: int
    leaf_switches: int
    spine_switches: int
    core_switches: int
    node_leaf_cables: int
    leaf_spine_cables: int
    spine_core_cables: int


def _superpod_rows(rows):
    return tuple(
        SuperPodFabric(scalable_units=su, nodes=n, gpus=g, leaf_switches=leaf,
                       spine_switches=spine, core_switches=core, node_leaf_cables=c1,
                       leaf_spine_cables=c2, spine_core_cables=c3)
        for su, n, g, leaf, spine, core, c1, c2, c3 in rows
    )


SUPERPOD_H100_TABLE4_SOURCE: Source = Source(
    title=("NVIDIA, DGX SuperPOD Reference Architecture featuring DGX H100 Systems: "
           "Network Fabrics"),
    year=2023,
    url=("https://docs.nvidia.com/dgx-superpod/reference-architecture-scalable-infrastructure-"
         "h100/latest/network-fabrics.html"),
    locator="Table 4 (compute fabric component count)",
    note=("Quantum-2 QM9700 (64 x NDR 400 Gb/s) leaves and spines; 'a 32 node per SU design, "
          "however a DGX must be removed to accommodate for UFM connectivity'; the first cable "
          "column counts compute and UFM links (4 more than the GPUs)"),
)

#: DGX SuperPOD H100, compute fabric per SU count (Table 4). No core tier up to 4 SU.
SUPERPOD_H100_TABLE4: tuple[SuperPodFabric, ...] = _superpod_rows((
    (1, 31, 248, 8, 4, 0, 252, 256, 0),
    (2, 63, 504, 16, 8, 0, 508, 512, 0),
    (3, 95, 760, 24, 16, 0, 764, 768, 0),
    (4, 127, 1016, 32, 16, 0, 1020, 1024, 0),
))

SUPERPOD_B200_LARGER_SOURCE: Source = Source(
    title=("NVIDIA, DGX SuperPOD Reference Architecture featuring DGX B200 Systems: "
           "DGX SuperPOD Architecture"),
    year=2024,
    url=("https://docs.nvidia.com/dgx-superpod/reference-architecture-scalable-infrastructure-"
         "b200/latest/dgx-superpod-architecture.html"),
    locator="table of larger DGX SuperPOD component counts",
    note=("DGX B200 with 8 x 400 Gb/s compute ports per node, NDR InfiniBand; 32 nodes per SU; "
          "a core tier appears from 16 SU (4,096 GPUs)"),
)

#: DGX SuperPOD B200 (NDR, 64-port switches), compute fabric from 2 to 64 SU.
SUPERPOD_B200_LARGER: tuple[SuperPodFabric, ...] = _superpod_rows((
    (2, 64, 512, 16, 8, 0, 512, 512, 0),
    (4, 128, 1024, 32, 16, 0, 1024, 1024, 0),
    (8, 256, 2048, 64, 32, 0, 2048, 2048, 0),
    (16, 512, 4096, 128, 128, 64, 4096, 4096, 4096),
    (32, 1024, 8192, 256, 256, 128, 8192, 8192, 8192),
    (64, 2048, 16384, 512, 512, 256, 16384, 16384, 16384),
))

SUPERPOD_B300_XDR_TABLE3_SOURCE: Source = Source(
    title=("NVIDIA, DGX SuperPOD Reference Architecture featuring DGX B300 Systems (XDR): "
           "DGX SuperPOD Architecture"),
    year=2025,
    url=("https://docs.nvidia.com/dgx-superpod/reference-architecture/scalable-infrastructure-"
         "b300-xdr/latest/dgx-superpod-architecture.html"),
    locator="Table 3 (larger DGX SuperPOD component counts)",
    note=("XDR InfiniBand, 144-port Quantum-X800 switches, 72 nodes per SU. The 18-SU row prints "
          "9,216 GPUs, but 1,296 nodes x 8 GPUs and its 10,368 node-leaf cables give 10,368; "
          "the GPU cell is stored as printed"),
)

#: DGX SuperPOD B300 XDR (144-port switches), compute fabric from 1 to 18 SU.
SUPERPOD_B300_XDR_TABLE3: tuple[SuperPodFabric, ...] = _superpod_rows((
    (1, 72, 576, 8, 4, 0, 576, 576, 0),
    (2, 144, 1152, 16, 8, 0, 1152, 1152, 0),
    (4, 288, 2304, 32, 18, 0, 2304, 2304, 0),
    (8, 576, 4608, 64, 36, 0, 4608, 4608, 0),
    (18, 1296, 9216, 144, 72, 0, 10368, 10368, 0),
))


# The network's share of a cluster's capital cost ------------------------------------------

@dataclass(frozen=True, kw_only=True)
class CostShareEstimate:
    """A published estimate of the network's share of a GPU cluster's hardware cost.

    Attributes
    ----------
    label : str
        Who estimated it, briefly.
    low, high : float
        The share, or its range, as a fraction of the cluster's hardware cost [-].
    scope : str
        What the share covers and what it is a share of.
    source : Source
        Where it is published.
    """

    label: str
    low: float
    high: float
    scope: str
    source: Source


COTTIER_2024 = Source(
    title=("B. Cottier, R. Rahman, L. Fattorini, N. Maslej, T. Besiroglu, D. Owen, "
           "The rising costs of training frontier AI models"),
    year=2024,
    url="https://arxiv.org/abs/2405.21015",
    estimate=True,
    note="Epoch AI; Appendix A.1 explains the cluster-level interconnect fraction",
)

#: Epoch AI's constant: cluster-level interconnect is 19 % of a cluster's hardware acquisition
#: cost, so a server price is multiplied by 1 / (1 - 0.19) = 1.23 to cost the cluster.
EPOCH_CLUSTER_INTERCONNECT_COST_FRACTION: float = 0.19

EPOCH_CLUSTER_INTERCONNECT_SOURCE: Source = Source(
    title="Epoch AI, training-cost-trends: cost_analysis_standalone.py",
    year=2025,
    url=("https://github.com/epoch-research/training-cost-trends/blob/"
         "263c40a/cost_analysis_standalone.py"),
    locator="line 30, CLUSTER_INTERCONNECT_COST_FRACTION = 0.19",
    estimate=True,
    note=("the code behind Cottier et al. 2024; the cost is multiplied by 1 / (1 - 0.19). "
          "DGX prices already include the NICs, so the fraction covers switches, optics and "
          "cables"),
)

#: Published estimates of the network's share, strongest source first.
NETWORK_COST_SHARES: tuple[CostShareEstimate, ...] = (
    CostShareEstimate(
        label="Epoch AI (Kostovic), H100 SuperPOD < 4,096 GPUs",
        low=EPOCH_CLUSTER_INTERCONNECT_COST_FRACTION, high=EPOCH_CLUSTER_INTERCONNECT_COST_FRACTION,
        scope=("server-to-server networking over total SuperPOD hardware cost, from NVIDIA's "
               "H100 SuperPOD reference architecture; the constant Epoch uses for every cluster"),
        source=COTTIER_2024.at("Appendix A.1")),
    CostShareEstimate(
        label="Epoch AI (Kostovic), H100 SuperPOD >= 4,096 GPUs",
        low=0.20, high=0.20,
        scope="the same, with the third (core) switch tier",
        source=COTTIER_2024.at("Appendix A.1")),
    CostShareEstimate(
        label="AI-hardware expert quoted by Epoch AI, A100 InfiniBand clusters",
        low=0.10, high=0.20,
        scope="InfiniBand network over cluster cost (personal communication, T. Fist)",
        source=COTTIER_2024.at("Appendix A.1")),
    CostShareEstimate(
        label="learnAI notes (secondary), DGX SuperPOD",
        low=0.15, high=0.25,
        scope="switches, cables and optics over total cluster cost; no derivation given",
        source=Source(title="kshirol-dev, learnAI: AI Infrastructure, 06 Network topologies",
                      year=2025,
                      url="https://kshirol-dev.github.io/learnAI/AIInfrastructure/06-network-topologies.html",
                      estimate=True, note="secondary, unsourced")),
)


# Scale-up domains: vendor headline figures ---------------------------------------------

@dataclass(frozen=True, kw_only=True)
class NVLinkDomainFigure:
    """A vendor's headline bandwidth for an NVLink domain, as printed.

    Attributes
    ----------
    system : str
        Catalog system name.
    quantity : str
        ``"bisection"`` (one half of the GPUs to the other) or ``"total"``
        (all GPUs' NVLink bandwidth added).
    both_directions_bytes_per_s : float
        The figure, with both directions added as the vendor quotes it [B/s].
    source : Source
        Where it is printed.
    """

    system: str
    quantity: str
    both_directions_bytes_per_s: float
    source: Source


#: NVIDIA's headline figures for its NVLink domains (both directions added, as quoted).
NVLINK_DOMAIN_FIGURES: tuple[NVLinkDomainFigure, ...] = (
    NVLinkDomainFigure(
        system="DGX H100", quantity="bisection", both_directions_bytes_per_s=3.6 * u.TB_per_s,
        source=MLENG_NETWORK.at("NVSwitch", note=(
            "quotes NVIDIA's third-generation NVSwitch blog: DGX H100 NVLink bisection "
            "bandwidth 3.6 TB/s"))),
    NVLinkDomainFigure(
        system="GB200 NVL72", quantity="total", both_directions_bytes_per_s=130 * u.TB_per_s,
        source=NVIDIA_NVLINK.at("NVL72", note="'130TB/s of GPU bandwidth in one NVL72' (72 x 1.8 TB/s, rounded)")),
)


# Collectives: bus bandwidth measured with nccl-tests ------------------------------------

from .sources import (  # noqa: E402  (kept with the table it serves)
    NCCL_ISSUE_1442, NCCL_ISSUE_1455, NCCL_TESTS_ISSUE_149, NCCL_TESTS_ISSUE_212,
    NCCL_TESTS_ISSUE_319,
)

__all__ += ["CollectiveMeasurement", "NCCL_BUS_BANDWIDTH", "NCCL_NVLS_SCALING"]


@dataclass(frozen=True, kw_only=True)
class CollectiveMeasurement:
    """A collective's bandwidth measured with nccl-tests, as its source states it.

    Attributes
    ----------
    system : str
        What was measured, as the source describes it.
    link : str
        Catalog name of the link each rank sends on (``"NVLink 4"``, ``"InfiniBand NDR"``).
    n_ranks : int
        Ranks (GPUs) in the run.
    collective : str
        The collective, named as :mod:`interconnect_lab.collectives` names it.
    algorithm : str
        The algorithm NCCL ran, named as :data:`interconnect_lab.collectives.ALGORITHMS` names it.
    size_bytes : float
        Message size at which the figure holds [B]. Sources quote the plateau of a
        sweep to ``-e 8G``; where they give no size, 8 GiB.
    bus_bandwidth_bytes_per_s : float
        busbw as nccl-tests printed it [B/s] (factor 2(n-1)/n for every all-reduce,
        NVLS included).
    algorithm_bandwidth_bytes_per_s : float or None
        algbw where the source states it [B/s].
    source : Source
        Where it is stated; the note says by whom.
    """

    system: str
    link: str
    n_ranks: int
    collective: str
    algorithm: str
    size_bytes: float
    bus_bandwidth_bytes_per_s: float
    algorithm_bandwidth_bytes_per_s: float | None
    source: Source


#: Peak bus bandwidths stated by NCCL's maintainers (published-results §5), plus the
#: H200 figures of the ML Engineering book and one network port.
NCCL_BUS_BANDWIDTH: tuple[CollectiveMeasurement, ...] = (
    CollectiveMeasurement(
        system="8x A100 SXM, NVSwitch", link="NVLink 3", n_ranks=8, collective="all_reduce",
        algorithm="ring", size_bytes=8 * u.GiB, bus_bandwidth_bytes_per_s=230 * u.GB_per_s,
        algorithm_bandwidth_bytes_per_s=None, source=NCCL_TESTS_ISSUE_149),
    CollectiveMeasurement(
        system="8x H100 SXM, NVSwitch, NCCL_ALGO=RING", link="NVLink 4", n_ranks=8,
        collective="all_reduce", algorithm="ring", size_bytes=8 * u.GiB,
        bus_bandwidth_bytes_per_s=370 * u.GB_per_s, algorithm_bandwidth_bytes_per_s=None,
        source=NCCL_TESTS_ISSUE_212),
    CollectiveMeasurement(
        system="8x H100 SXM, NVSwitch, NVLink SHARP (default algorithm)", link="NVLink 4",
        n_ranks=8, collective="all_reduce", algorithm="nvls", size_bytes=8 * u.GiB,
        bus_bandwidth_bytes_per_s=480 * u.GB_per_s,
        algorithm_bandwidth_bytes_per_s=275 * u.GB_per_s, source=NCCL_TESTS_ISSUE_212),
    CollectiveMeasurement(
        system="8x H100 SXM (AWS p5.48xlarge), collectives other than all-reduce",
        link="NVLink 4", n_ranks=8, collective="all_gather", algorithm="ring",
        size_bytes=8 * u.GiB, bus_bandwidth_bytes_per_s=370 * u.GB_per_s,
        algorithm_bandwidth_bytes_per_s=None, source=NCCL_ISSUE_1442),
    CollectiveMeasurement(
        system="8x H200 SXM, NCCL_ALGO=RING", link="NVLink 4", n_ranks=8,
        collective="all_reduce", algorithm="ring", size_bytes=8 * u.GiB,
        bus_bandwidth_bytes_per_s=365.6 * u.GB_per_s, algorithm_bandwidth_bytes_per_s=None,
        source=MLENG_NETWORK.at("NVLink SHARP", note="secondary: measured 365.6 GB/s without "
                                                     "and 473.1 GB/s with NVLS on 8 H200")),
    CollectiveMeasurement(
        system="8x H200 SXM, NVLink SHARP", link="NVLink 4", n_ranks=8,
        collective="all_reduce", algorithm="nvls", size_bytes=8 * u.GiB,
        bus_bandwidth_bytes_per_s=473.1 * u.GB_per_s, algorithm_bandwidth_bytes_per_s=None,
        source=MLENG_NETWORK.at("NVLink SHARP", note="secondary: measured 365.6 GB/s without "
                                                     "and 473.1 GB/s with NVLS on 8 H200")),
    CollectiveMeasurement(
        system="ConnectX-7 at 400 Gb/s, per NIC, 2 HGX nodes", link="InfiniBand NDR",
        n_ranks=16, collective="all_reduce", algorithm="ring", size_bytes=8 * u.GiB,
        bus_bandwidth_bytes_per_s=48 * u.GB_per_s, algorithm_bandwidth_bytes_per_s=None,
        source=NCCL_TESTS_ISSUE_319),
)

#: NVLS all-reduce on 2 to 8 H100 SXM of one node, 2-4 GB messages, as a user reported
#: it (nccl issue #1455): busbw "about 365-370 GB/s" for 2-4 GPUs (stored as 367.5),
#: then 420, 440, 460, 480 GB/s, with algbw 258, 265, 270, 273 GB/s for 5-8 GPUs.
NCCL_NVLS_SCALING: tuple[CollectiveMeasurement, ...] = tuple(
    CollectiveMeasurement(
        system=f"{n}x H100 SXM, NCCL_ALGO=NVLS", link="NVLink 4", n_ranks=n,
        collective="all_reduce", algorithm="nvls", size_bytes=2 * u.GiB,
        bus_bandwidth_bytes_per_s=busbw * u.GB_per_s,
        algorithm_bandwidth_bytes_per_s=None if algbw is None else algbw * u.GB_per_s,
        source=NCCL_ISSUE_1455)
    for n, busbw, algbw in (
        (2, 367.5, None), (3, 367.5, None), (4, 367.5, None),
        (5, 420, 258), (6, 440, 265), (7, 460, 270), (8, 480, 273),
    )
)


# Settings shared by every row of a table, and worked examples -----------------------

#: Vocabulary and sequence length of every SC21 Table 1 model (§5.1).
SC21_TABLE1_VOCABULARY = 51200
SC21_TABLE1_SEQUENCE_LENGTH = 2048


@dataclass(frozen=True, kw_only=True)
class TrainingTimeExample:
    """A worked example of SC21 Eq. (4), end-to-end training time ≈ 8TP/(nX).

    Attributes
    ----------
    parameters : float
        Model parameters P [-].
    tokens : float
        Training tokens T [token].
    gpus : int
        GPUs n.
    flop_per_s_per_gpu : float
        Achieved FLOP/s per GPU X [FLOP/s].
    days : float
        Training time as printed [day].
    """

    parameters: float
    tokens: float
    gpus: int
    flop_per_s_per_gpu: float
    days: float


SC21_TRAINING_TIME_SOURCE: Source = SC21.at("§5.1, Eq. (4)")

#: SC21's two examples of Eq. (4): GPT-3 175B (about 34 days) and the 1T model (about 84 days).
SC21_TRAINING_TIME_EXAMPLES: tuple[TrainingTimeExample, ...] = (
    TrainingTimeExample(parameters=175e9, tokens=300e9, gpus=1024, flop_per_s_per_gpu=140e12, days=34),
    TrainingTimeExample(parameters=1e12, tokens=450e9, gpus=3072, flop_per_s_per_gpu=163e12, days=84),
)

ZERO_PLUS_PLUS_SOURCE: Source = Source(
    title=("G. Wang et al., ZeRO++: Extremely Efficient Collective Communication for Giant "
           "Model Training, ICLR 2024"),
    year=2023, url="https://arxiv.org/abs/2306.10209", locator="§3-4",
)

#: ZeRO-3 and ZeRO++ communication volume per iteration, in units of the model size M.
ZERO_PLUS_PLUS_VOLUME = __import__("types").MappingProxyType({
    "zero3_forward_all_gather": 1.0, "zero3_backward_all_gather": 1.0, "zero3_reduce_scatter": 1.0,
    "zero3_total": 3.0,
    "qwz_forward_all_gather": 0.5, "hpz_backward_all_gather_across_nodes": 0.0,
    "qgz_reduce_scatter": 0.25, "zero_plus_plus_total": 0.75,
})

#: ZeRO++'s headline throughput gain over ZeRO-3: "up to 2.16x" at 384 V100 GPUs (abstract),
#: reached on the low-bandwidth configuration of its evaluation.
ZERO_PLUS_PLUS_THROUGHPUT = __import__("types").MappingProxyType({
    "max_speedup": 2.16, "gpus": 384, "gpu": "V100",
})

__all__ += ["SC21_TABLE1_VOCABULARY", "SC21_TABLE1_SEQUENCE_LENGTH", "TrainingTimeExample",
            "SC21_TRAINING_TIME_SOURCE", "SC21_TRAINING_TIME_EXAMPLES", "ZERO_PLUS_PLUS_SOURCE",
            "ZERO_PLUS_PLUS_VOLUME", "ZERO_PLUS_PLUS_THROUGHPUT"]


# Latency: where a small message's time goes ---------------------------------------------

from types import MappingProxyType  # noqa: E402  (kept with the table it serves)

__all__ += ["LatencyEstimate", "LATENCY_ESTIMATES", "LATENCY_DISSECTION_SOURCE"]

#: The one public breakdown found of a small message's latency, part by part. Secondary: a
#: vendor's article giving "the consensus range from public measurements"; use with that label.
LATENCY_DISSECTION_SOURCE: Source = Source(
    title="Kentino, Latency Dissection: Where Every Microsecond Goes in an AI Cluster Network",
    year=2025,
    url=("https://kentino.com/cs/pages/latency-dissection-where-every-microsecond-goes-in-an-ai-"
         "cluster-network"),
    locator="table 'The full round trip, one slide'",
    estimate=True,
    note=("secondary: 'the consensus range from public measurements, NVIDIA/Mellanox "
          "documentation, and our own benches ... a budget, not a guarantee'; 64-byte ping-pong"),
)


@dataclass(frozen=True, kw_only=True)
class LatencyEstimate:
    """A published range for the time one part of a message's path takes.

    Attributes
    ----------
    part : str
        What takes the time.
    low_s, high_s : float
        The range [s] (per ``per``).
    per : str
        What one value covers: ``"end"`` (sender or receiver, each), ``"trip"``
        (one way, both ends together), ``"round trip"``, ``"hop"`` (one
        switch) or ``"metre"`` (of cable).
    source : Source
        Where the range is published.
    """

    part: str
    low_s: float
    high_s: float
    per: str
    source: Source

    PER = ("end", "trip", "round trip", "hop", "metre")

    def __post_init__(self):
        if self.per not in self.PER:
            raise ValueError(f"LatencyEstimate.per = {self.per!r}; valid values are {self.PER}")
        if not 0 <= self.low_s <= self.high_s:
            raise ValueError(f"LatencyEstimate({self.part!r}): 0 <= low_s <= high_s must hold")

    def at(self, end):
        """The value at the ``"low"``, ``"central"`` (midpoint) or ``"high"`` end [s]."""
        values = {"low": self.low_s, "central": (self.low_s + self.high_s) / 2, "high": self.high_s}
        if end not in values:
            raise ValueError(f"unknown end {end!r}; valid ends are: 'low', 'central', 'high'")
        return values[end]


#: Latency of the parts of a small message's path, as published (all secondary estimates).
LATENCY_ESTIMATES = MappingProxyType({e.part: e for e in (
    LatencyEstimate(part="application post or receive", low_s=0.1 * u.us, high_s=1 * u.us,
                    per="end", source=LATENCY_DISSECTION_SOURCE),
    LatencyEstimate(part="NIC transmit or receive path (RDMA)", low_s=0.3 * u.us, high_s=0.8 * u.us,
                    per="end", source=LATENCY_DISSECTION_SOURCE),
    LatencyEstimate(part="kernel TCP/IP stack", low_s=10 * u.us, high_s=30 * u.us,
                    per="trip", source=LATENCY_DISSECTION_SOURCE),
    LatencyEstimate(part="Ethernet switch, cut-through", low_s=400 * u.ns, high_s=600 * u.ns,
                    per="hop", source=LATENCY_DISSECTION_SOURCE),
    LatencyEstimate(part="propagation in cable", low_s=5 * u.ns, high_s=5 * u.ns,
                    per="metre", source=LATENCY_DISSECTION_SOURCE),
    LatencyEstimate(part="RDMA round trip through one switch", low_s=2 * u.us, high_s=2 * u.us,
                    per="round trip", source=LATENCY_DISSECTION_SOURCE),
    LatencyEstimate(part="kernel TCP round trip", low_s=20 * u.us, high_s=60 * u.us,
                    per="round trip", source=LATENCY_DISSECTION_SOURCE),
)})


@dataclass(frozen=True, kw_only=True)
class StragglerObservation:
    """Slow machines found in a large training job.

    Attributes
    ----------
    slow_machine_fraction : float
        Share of machines markedly slower than the rest [-].
    slowdown : float
        How much slower they ran the same computation [-] (0.1 is 10 %).
    mfu_gain_from_removal : float
        MFU gained by taking them out, in absolute terms [-].
    source : Source
    """

    slow_machine_fraction: float
    slowdown: float
    mfu_gain_from_removal: float
    source: Source


#: MegaScale's computational stragglers: about 0.5 % of machines about 10 % slower; removing them
#: raised MFU by about 0.7 % (all "about" in the paper).
MEGASCALE_STRAGGLERS = StragglerObservation(
    slow_machine_fraction=0.005, slowdown=0.10, mfu_gain_from_removal=0.007,
    source=MEGASCALE.at("§5-6 (computational stragglers)",
                        note="approximate values as the paper states them"))


@dataclass(frozen=True, kw_only=True)
class InterruptionCause:
    """One row of a table of root causes of job interruptions.

    Attributes
    ----------
    component : str
        What failed, as the source names it.
    category : str
        The source's category (``"GPU"``, ``"Network"``, ``"Host"``...).
    interruptions : int
        Interruptions attributed to it [-].
    printed_percent : float
        Its share as printed [%] (may not equal the count's share: see the log's note).
    """

    component: str
    category: str
    interruptions: int
    printed_percent: float


@dataclass(frozen=True, kw_only=True)
class InterruptionLog:
    """Job interruptions of one long training run.

    Attributes
    ----------
    days : float
        Length of the period [day].
    interruptions : int
        Job interruptions in the period [-].
    unexpected : int
        Of which unexpected (not planned maintenance) [-].
    network_switch_and_cable : int
        Of which attributed to network switches and cables [-].
    effective_training_time_fraction : float
        Share of time spent training, at least [-].
    source : Source
    gpus : int or None
        GPUs in the job [-].
    causes : tuple of InterruptionCause
        Root causes of the unexpected interruptions, as tabulated.
    """

    days: float
    interruptions: int
    unexpected: int
    network_switch_and_cable: int
    effective_training_time_fraction: float
    source: Source
    gpus: int | None = None
    causes: tuple = ()

    @property
    def mean_time_between_unexpected_s(self) -> float:
        """The period over the unexpected interruptions: the job's mean time between failures [s]."""
        return self.days * u.day / self.unexpected

    def interruptions_by_category(self) -> dict:
        """Unexpected interruptions summed per category of :attr:`causes`, largest first [-]."""
        totals = {}
        for cause in self.causes:
            totals[cause.category] = totals.get(cause.category, 0) + cause.interruptions
        return dict(sorted(totals.items(), key=lambda item: -item[1]))


#: Llama 3 405B pre-training: 466 interruptions in 54 days, 419 unexpected, 35 from network
#: switches and cables, more than 90 % effective training time.
LLAMA3_INTERRUPTIONS = InterruptionLog(
    days=54, interruptions=466, unexpected=419, network_switch_and_cable=35,
    effective_training_time_fraction=0.90, gpus=16_384,
    source=LLAMA3.at("§3.3.4, Table 5", note=(
        "16,384 H100 GPUs (§3.3.1, Table 4); Table 5's printed 30.1 % for 148 faulty-GPU interruptions is not "
        "148/419 = 35.3 %; its other shares match their counts, and the text's 58.7 % for GPU issues "
        "is the sum of the printed GPU shares")),
    causes=tuple(
        InterruptionCause(component=component, category=category, interruptions=count, printed_percent=percent)
        for component, category, count, percent in (
            ("Faulty GPU", "GPU", 148, 30.1),
            ("GPU HBM3 Memory", "GPU", 72, 17.2),
            ("Software Bug", "Dependency", 54, 12.9),
            ("Network Switch/Cable", "Network", 35, 8.4),
            ("Host Maintenance", "Unplanned Maintenance", 32, 7.6),
            ("GPU SRAM Memory", "GPU", 19, 4.5),
            ("GPU System Processor", "GPU", 17, 4.1),
            ("NIC", "Host", 7, 1.7),
            ("NCCL Watchdog Timeouts", "Unknown", 7, 1.7),
            ("Silent Data Corruption", "GPU", 6, 1.4),
            ("GPU Thermal Interface + Sensor", "GPU", 6, 1.4),
            ("SSD", "Host", 3, 0.7),
            ("Power Supply", "Host", 3, 0.7),
            ("Server Chassis", "Host", 2, 0.5),
            ("IO Expansion Board", "Host", 2, 0.5),
            ("Dependency", "Dependency", 2, 0.5),
            ("CPU", "Host", 2, 0.5),
            ("System Memory", "Host", 2, 0.5),
        )))


@dataclass(frozen=True, kw_only=True)
class RestartReport:
    """Restarts of one long training run, as a paper reports them (lower bounds).

    Attributes
    ----------
    system : str
        The run.
    gpus : int
        GPUs in the job [-].
    days : float
        Length of the period [day] (approximate where the source gives months).
    restarts_at_least : int
        Restarts attributed to hardware failures, at least [-].
    hosts_cycled_more_than : int
        Hosts taken out and replaced, more than [-].
    source : Source
    """

    system: str
    gpus: int
    days: float
    restarts_at_least: int
    hosts_cycled_more_than: int
    source: Source


OPT = Source(
    title="S. Zhang et al., OPT: Open Pre-trained Transformer Language Models",
    year=2022, url="https://arxiv.org/abs/2205.01068",
)

#: OPT-175B: on 992 80 GB A100 GPUs, hardware failures caused at least 35 manual restarts and the
#: cycling of over 100 hosts over about two months.
OPT175B_RESTARTS = RestartReport(
    system="OPT-175B", gpus=992, days=60, restarts_at_least=35, hosts_cycled_more_than=100,
    source=OPT.at("§2.4-2.5", note="992 80GB A100 GPUs; 'over the course of 2 months', stored as 60 days"))


@dataclass(frozen=True, kw_only=True)
class RecoveryObservation:
    """Effective training time of a large job, with the stall each failure cost.

    Attributes
    ----------
    system : str
        How the job recovered.
    gpus : int
        GPUs in the job (order of magnitude where the source says so) [-].
    recovery_s : float
        Training stalled per failure [s].
    effective_training_fraction : float
        Share of time spent training [-].
    source : Source
    """

    system: str
    gpus: int
    recovery_s: float
    effective_training_fraction: float
    source: Source


FT_HSDP = Source(
    title="O. Salpekar et al., Training LLMs with Fault Tolerant HSDP on 100,000 GPUs",
    year=2026, url="https://arxiv.org/abs/2602.00277",
    locator="abstract", note="'O(100K) GPUs', stored as 100,000",
)

#: Fully synchronous training against fault-tolerant HSDP on O(100K) GPUs: stall per failure 10 min
#: against 3 min, effective training time 44 % against 80 %.
FT_HSDP_RECOVERY: tuple[RecoveryObservation, ...] = (
    RecoveryObservation(system="fully synchronous", gpus=100_000, recovery_s=10 * u.minute,
                        effective_training_fraction=0.44, source=FT_HSDP),
    RecoveryObservation(system="FT-HSDP", gpus=100_000, recovery_s=3 * u.minute,
                        effective_training_fraction=0.80, source=FT_HSDP),
)


# Host memory and CXL: measured transfer rates and latencies (chapter 3) -------------------

from .sources import POND  # noqa: E402  (kept with the table it serves)

__all__ += ["HostTransferMeasurement", "HOST_DEVICE_TRANSFER", "MemoryLatencyMeasurement",
            "CXL_LATENCY_MEASUREMENTS"]


@dataclass(frozen=True, kw_only=True)
class HostTransferMeasurement:
    """A copy between host memory and a GPU, measured, as its source states it.

    Attributes
    ----------
    system : str
        What was measured.
    link : str
        Catalog name of the GPU's host link.
    per_direction_bytes_per_s : float
        Measured rate in one direction [B/s].
    source : Source
    """

    system: str
    link: str
    per_direction_bytes_per_s: float
    source: Source


#: Host-to-device copies on 8 H200 with PCIe Gen5 x16: 55.4 GB/s per direction, 88% of the
#: link's 63 GB/s data rate.
HOST_DEVICE_TRANSFER = HostTransferMeasurement(
    system="8x H200 SXM, host <-> device copy", link="PCIe Gen5 x16",
    per_direction_bytes_per_s=55.4 * u.GB_per_s,
    source=MLENG_NETWORK.at("PCIe", note="secondary: host<->device measured at 55.4 GB/s per "
                                         "direction on 8 x H200, 88% of the 63 GB/s of PCIe Gen5 x16"))


@dataclass(frozen=True, kw_only=True)
class MemoryLatencyMeasurement:
    """A published range for the load latency of CXL-attached memory.

    Attributes
    ----------
    study : str
        Who measured, and on what.
    quantity : str
        ``"added"``: latency CXL adds over local DRAM [s]; ``"load"``: load-to-use
        latency of CXL memory itself [s].
    low_s, high_s : float
        The range [s].
    source : Source
    """

    study: str
    quantity: str
    low_s: float
    high_s: float
    source: Source


#: Pond (ASPLOS 2023): CXL adds 70-90 ns over same-NUMA-node DRAM for pools of 8-16 sockets.
#: Melody (ASPLOS 2025): four real CXL devices on five CPU platforms, 140-410 ns.
CXL_LATENCY_MEASUREMENTS: tuple[MemoryLatencyMeasurement, ...] = (
    MemoryLatencyMeasurement(
        study="Pond: CXL pool of 8-16 sockets, over same-NUMA-node DRAM", quantity="added",
        low_s=70 * u.ns, high_s=90 * u.ns,
        source=POND.at("§1", note="'CXL will add 70-90ns to access latencies over same-NUMA-node DRAM "
                                  "with a pool size of 8-16 sockets'")),
    MemoryLatencyMeasurement(
        study="Melody: 4 CXL devices, 5 CPU platforms", quantity="load",
        low_s=140 * u.ns, high_s=410 * u.ns,
        source=Source(title=("J. Liu et al., Systematic CXL Memory Characterization and Performance "
                             "Analysis at Scale (Melody), ASPLOS 2025"),
                      year=2025, doi="10.1145/3676641.3715987", locator="abstract",
                      note="'4 real CXL devices, 7 latency levels, and 5 CPU platforms'; "
                           "'sub-us CXL latencies (140-410ns)'")),
)


# Host network stacks: what one CPU core moves -------------------------------------------------

__all__ += ["StackThroughput", "KERNEL_TCP_PER_CORE", "ERPC_PER_CORE", "CAI_2021", "KALIA_2019",
            "INTER_SOCKET_LINK_BYTES_PER_S", "INTER_SOCKET_LINK_SOURCE"]

CAI_2021 = Source(
    title=("Q. Cai, S. Chaudhary, M. Vuppalapati, J. Hwang, R. Agarwal, Understanding Host Network "
           "Stack Overheads, SIGCOMM 2021"),
    year=2021, doi="10.1145/3452296.3472888",
    note="PDF: https://www.cs.cornell.edu/~ragarwal/pubs/network-stack.pdf",
)

KALIA_2019 = Source(
    title="A. Kalia, M. Kaminsky, D. G. Andersen, Datacenter RPCs can be General and Fast, NSDI 19",
    year=2019, url="https://www.usenix.org/conference/nsdi19/presentation/kalia",
    note="arXiv:1806.00680",
)


@dataclass(frozen=True, kw_only=True)
class StackThroughput:
    """What one CPU core moves through a network stack, as measured.

    Attributes
    ----------
    stack : str
        The software stack measured.
    bytes_per_s_per_core : float
        Throughput one fully busy core sustains for large transfers [B/s].
    scenario : str
        The conditions of the measurement, as the source states them.
    messages_per_s_per_core : float or None
        Small messages one core handles per second, where measured [1/s].
    data_copy_share_of_cycles : float or None
        Lower bound on the share of CPU cycles spent copying data, where measured [-].
    clock_hz : float or None
        Clock of the CPU measured, where stated [Hz].
    link_bytes_per_s : float or None
        Rate of the network link of the testbed, one direction [B/s].
    source : Source
    """

    stack: str
    bytes_per_s_per_core: float
    scenario: str
    messages_per_s_per_core: float | None = None
    data_copy_share_of_cycles: float | None = None
    clock_hz: float | None = None
    link_bytes_per_s: float | None = None
    source: Source


#: Linux kernel TCP: "~42Gbps throughput-per-core" for the best case, one long flow with every common
#: NIC offload; copying from kernel to application buffers takes "> 50% of total CPU cycles"; the
#: receiver is the bottleneck. Testbed: Xeon Gold 6128 at 3.4 GHz, 100 Gbps ConnectX-5.
KERNEL_TCP_PER_CORE = StackThroughput(
    stack="Linux kernel TCP", bytes_per_s_per_core=42 * u.Gbit_per_s,
    scenario="best case: one long flow, TSO/GRO, jumbo frames and packet steering enabled",
    data_copy_share_of_cycles=0.5, clock_hz=3.4e9, link_bytes_per_s=100 * u.Gbit_per_s,
    source=CAI_2021.at("§1, §2.2, §3.1", note="'~42Gbps throughput-per-core'; data copy '> 50% of total "
                                              "CPU cycles for a single long flow'; Xeon Gold 6128 3.4GHz, "
                                              "100Gbps ConnectX-5 Ex; Linux 5.4.43"),
)

#: eRPC, a kernel-bypass RPC library in user space: "one CPU core can handle up to 10 million small
#: RPCs per second, or send large messages at 75 Gbps".
ERPC_PER_CORE = StackThroughput(
    stack="eRPC (kernel bypass, user space)", bytes_per_s_per_core=75 * u.Gbit_per_s,
    scenario="microbenchmarks: large messages from one core; small RPCs per core",
    messages_per_s_per_core=10e6,
    source=KALIA_2019.at("abstract"),
)

#: One inter-socket link (Intel UPI at 16 GT/s, Sapphire Rapids) as Intel's Performance Counter
#: Monitor reports it, taken here as one direction [B/s]. An estimate: a tool's printed maximum,
#: not a measured transfer, and the direction is not stated.
INTER_SOCKET_LINK_BYTES_PER_S: float = 35.8 * u.GB_per_s

INTER_SOCKET_LINK_SOURCE = Source(
    title="intel/pcm issue 550: UPI rate read as 17.0 GT/s on Sapphire Rapids (tool output quoted)",
    year=2023, url="https://github.com/intel/pcm/issues/550", estimate=True,
    note=("secondary: PCM prints 'Max UPI link 0 speed: 35.8 GBytes/second (16.0 GT/second)' for each "
          "of the links of a two-socket Sapphire Rapids server; direction not stated"),
)


# Facility overhead and rack power (chapter 10) --------------------------------------------------

__all__ += ["PueEstimate", "PUE_ESTIMATES", "RackPowerFigure", "RACK_POWER_FIGURES"]


@dataclass(frozen=True, kw_only=True)
class PueEstimate:
    """A published power usage effectiveness: total facility power over IT power.

    Attributes
    ----------
    label : str
        Whose facilities, briefly.
    pue : float
        Power usage effectiveness, >= 1 [-].
    scope : str
        What was measured and how.
    source : Source
    """

    label: str
    pue: float
    scope: str
    source: Source


_UPTIME_2023 = Source(
    title="J. Davis, J. O'Brien (Uptime Institute Intelligence), Large data centers are mostly more "
          "efficient, analysis confirms", year=2023,
    url="https://intelligence.uptimeinstitute.com/resource/large-data-centers-are-mostly-more-efficient-analysis-confirms",
    note=("'industry PUE has remained at a high average (ranging from 1.55 to 1.59) since around 2020 ... "
          "In 2023, industry average PUE stood at 1.58'; from the Uptime Institute Global Data Center Survey"),
)

_UPTIME_2024 = Source(
    title="Cloud News, Uptime Institute highlights decline in trust in AI and need to improve sustainability "
          "metrics (on the Uptime Institute Global Data Center Survey 2024)", year=2024,
    url=("https://cloudnews.tech/uptime-institute-highlights-decline-in-trust-in-ai-and-need-to-improve-"
         "sustainability-metrics-in-data-centers"),
    estimate=True,
    note=("secondary: average PUE 'stable for five consecutive years'; new, larger facilities 'have achieved "
          "PUEs of 1.3 or even better'; average rack density still below 8-10 kW, few racks above 30 kW"),
)

#: Published PUE figures, the industry average first.
PUE_ESTIMATES: tuple[PueEstimate, ...] = (
    PueEstimate(label="industry average, Uptime Institute survey 2023", pue=1.58,
                scope="annual average PUE reported by operators for their largest data centre",
                source=_UPTIME_2023),
    PueEstimate(label="new large facilities, Uptime Institute survey 2024", pue=1.3,
                scope="'1.3 or even better' for newer, larger builds (an upper value)",
                source=_UPTIME_2024),
)


@dataclass(frozen=True, kw_only=True)
class RackPowerFigure:
    """A published figure bearing on how much power a rack, or a unit of racks, draws.

    Attributes
    ----------
    label : str
        What the figure is, briefly.
    power_w : float
        The figure [W].
    racks : int
        Racks it covers [-].
    kind : str
        ``"budget"`` (what a design provisions), ``"supply"`` (what the power supplies can
        deliver, an upper bound) or ``"survey"`` (what operators report).
    source : Source
    """

    label: str
    power_w: float
    racks: int
    kind: str
    source: Source

    @property
    def per_rack_w(self) -> float:
        """The figure per rack [W]."""
        return self.power_w / self.racks


#: What is public about the power of liquid-cooled GB200 NVL72 racks, and what air-cooled rooms hold.
#: No primary source gives the draw of one GB200 NVL72 rack.
RACK_POWER_FIGURES: tuple[RackPowerFigure, ...] = (
    RackPowerFigure(
        label="DGX GB200 SuperPOD scalable unit: 8 NVL72 racks, TDP", power_w=1.2 * u.MW, racks=8,
        kind="budget",
        source=Source(title="NVIDIA DGX SuperPOD reference architecture (GB200): architecture", year=2024,
                      url=("https://docs.nvidia.com/dgx-superpod/reference-architecture-scalable-infrastructure-"
                           "gb200/latest/dgx-superpod-architecture.html"),
                      note="a scalable unit of 8 DGX GB200 racks (576 GPUs) has a TDP of 1.2 MW, switches and "
                           "other racks of the unit included")),
    RackPowerFigure(
        label="GB200 rack power shelves: 8 shelves x 6 PSUs x 5.5 kW", power_w=8 * 6 * 5.5 * u.kW, racks=1,
        kind="supply",
        source=Source(title="NVIDIA Mission Control (Base Command Manager 11): BCM Power Shelf Integration",
                      year=2025,
                      url="https://docs.nvidia.com/base-command-manager/product-manuals/nvidia-mission-control/powershelf",
                      note="'The reference design for an NVIDIA GB200 rack has 8 power shelves, and uses 6 PSUs in "
                           "each power shelf. Each PSU is rated up to 5.5kW'; supply capacity, redundancy included")),
    RackPowerFigure(
        label="air-cooled data centres: most operators have no rack above 20 kW (Uptime 2023)",
        power_w=20 * u.kW, racks=1, kind="survey",
        source=Source(title="Uptime Institute, Global Data Center Survey 2023 (key points)", year=2023,
                      url="https://intelligence.uptimeinstitute.com/index.php/resource/uptime-institute-global-data-center-survey-2023",
                      note="'Server rack densities are climbing - steadily, but slowly. Most operators do not have "
                           "any racks beyond 20 kW'")),
)
