"""Published cluster fabrics: DGX SuperPOD fat trees, the largest clusters' fabrics, the network's share of cost, NVLink domain figures."""

from __future__ import annotations

from dataclasses import dataclass

from .. import units as u
from ..sources import MLENG_NETWORK, NVIDIA_NVLINK, Source

__all__ = ["SuperPodFabric", "SUPERPOD_H100_TABLE4_SOURCE", "SUPERPOD_H100_TABLE4",
           "SUPERPOD_B200_LARGER_SOURCE", "SUPERPOD_B200_LARGER", "SUPERPOD_B300_XDR_TABLE3_SOURCE",
           "SUPERPOD_B300_XDR_TABLE3", "CostShareEstimate", "COTTIER_2024",
           "EPOCH_CLUSTER_INTERCONNECT_COST_FRACTION", "EPOCH_CLUSTER_INTERCONNECT_SOURCE",
           "NETWORK_COST_SHARES", "NVLinkDomainFigure", "NVLINK_DOMAIN_FIGURES", "ClusterFabric",
           "CLUSTER_FABRICS", "META_GENAI_SOURCE", "COLOSSUS_SOURCE", "EAGLE_SOURCE", "DEEPSEEK_MPFT_SOURCE"]


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


# The largest GPU clusters' fabrics, and DeepSeek's multi-plane fat tree --------------------

@dataclass(frozen=True, kw_only=True)
class ClusterFabric:
    """What an operator or vendor has published about one large GPU cluster's network.

    Attributes
    ----------
    name : str
        The cluster, briefly.
    gpus : int or None
        GPUs, as published [-]; None where no primary source gives the count.
    network : str
        The fabric's technology, as published.
    topology : str
        Its topology, as published, or ``"not published"``.
    clos : bool or None
        Whether the topology is a Clos (fat-tree family); None where it is not published.
    planes, tiers, switches : int or None
        Where published: independent planes, switch tiers of each, switches in all [-].
    source : Source
    """

    name: str
    gpus: int | None
    network: str
    topology: str
    clos: bool | None
    planes: int | None = None
    tiers: int | None = None
    switches: int | None = None
    source: Source


#: Meta's engineering blog on its two 24,576-GPU clusters; the Llama 3 paper on their topology.
META_GENAI_SOURCE = Source(
    title="Meta Engineering, Building Meta's GenAI Infrastructure", year=2024,
    url="https://engineering.fb.com/2024/03/12/data-center-engineering/building-metas-genai-infrastructure/",
    note="12 March 2024: 'two versions of our 24,576-GPU data center scale cluster': one with RoCE (Arista 7800, "
         "Wedge400 and Minipack2 OCP rack switches), one with 'an NVIDIA Quantum2 InfiniBand fabric'; the Llama 3 "
         "paper (arXiv:2407.21783, section 3.3.1) gives the RoCE cluster's '24K GPUs ... in a three-layer Clos "
         "network'",
)
COLOSSUS_SOURCE = Source(
    title="NVIDIA press release, NVIDIA Ethernet Networking Accelerates World's Largest AI Supercomputer, "
          "Built by xAI", year=2024, url="https://publicnow.com/view/553383B116406ED46EB27447DA58C84652BCD595",
    note="28 October 2024: 'xAI's Colossus supercomputer cluster comprising 100,000 NVIDIA Hopper Tensor Core GPUs' "
         "on Spectrum-X Ethernet; 'Across all three tiers of the network fabric ... zero application latency "
         "degradation or packet loss due to flow collisions'; a three-tier Ethernet fabric is a Clos",
)
EAGLE_SOURCE = Source(
    title="TOP500 List, November 2023", year=2023, url="https://www.top500.org/lists/top500/2023/11/",
    note="Eagle (Microsoft Azure), NVIDIA H100, NVIDIA InfiniBand NDR, third on the list; no source read gives "
         "its GPU count or its topology",
)
#: DeepSeek's ISCA 2025 paper: the multi-plane fat tree (MPFT) and its cost comparison.
DEEPSEEK_MPFT_SOURCE = Source(
    title="C. Zhao et al. (DeepSeek-AI), Insights into DeepSeek-V3: Scaling Challenges and Reflections on "
          "Hardware for AI Architectures, ISCA 2025", year=2025, url="https://arxiv.org/abs/2505.09343",
    note="the multi-plane two-layer fat tree: 8 planes, each GPU-NIC pair of a node on its own plane (400G "
         "ConnectX-7), 'theoretically' up to 16,384 GPUs with 64-port switches; its cost table gives MPFT 16,384 "
         "endpoints and 768 switches against a three-tier fat tree's 65,536 endpoints and 5,120 switches (as "
         "summarised by secondary sources; the paper's own text was not read in full)",
)

#: Published fabrics of the largest GPU clusters, and DeepSeek's multi-plane design.
CLUSTER_FABRICS: tuple[ClusterFabric, ...] = (
    ClusterFabric(name="Meta Llama 3 cluster (RoCE)", gpus=24_576,
                  network="RoCE Ethernet (Arista 7800, Wedge400, Minipack2)", topology="three-layer Clos",
                  clos=True, tiers=3, source=META_GENAI_SOURCE),
    ClusterFabric(name="xAI Colossus", gpus=100_000, network="Spectrum-X Ethernet (SN5600)",
                  topology="three tiers", clos=True, tiers=3, source=COLOSSUS_SOURCE),
    ClusterFabric(name="Microsoft Eagle", gpus=None, network="InfiniBand NDR", topology="not published",
                  clos=None, source=EAGLE_SOURCE),
    ClusterFabric(name="DeepSeek multi-plane fat tree (design)", gpus=16_384, network="InfiniBand NDR, 400G per GPU",
                  topology="8 planes of two-tier fat trees", clos=True, planes=8, tiers=2, switches=768,
                  source=DEEPSEEK_MPFT_SOURCE),
)
