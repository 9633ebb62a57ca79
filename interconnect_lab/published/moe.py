"""Mixture-of-experts all-to-all and training, as DeepSeek published them.

DeepEP's tables (V1 documentation) give dispatch and combine on H800 GPUs
(NVLink inside a node, one ConnectX-7 InfiniBand port of 400 Gb/s per GPU),
in DeepSeek-V3's configuration; the DeepSeek-V3 technical report gives the
training setup and its computation-to-communication ratio.
"""

from __future__ import annotations

from dataclasses import dataclass

from .. import units as u
from ..sources import Source

__all__ = ["DEEPEP_V1", "DEEPSEEK_V3_REPORT", "AllToAllSetup", "AllToAllMeasurement", "DEEPEP_NORMAL_SETUP",
           "DEEPEP_LOW_LATENCY_SETUP", "DEEPEP_NORMAL", "DEEPEP_LOW_LATENCY", "MoETrainingReport",
           "DEEPSEEK_V3_TRAINING"]

DEEPEP_V1 = Source(
    title="DeepSeek-AI, DeepEP V1 (legacy) documentation: Performance", year=2025,
    url="https://github.com/deepseek-ai/DeepEP/blob/b306af06afd412c88e51e71802951606e40b7358/docs/legacy.md",
    locator="Performance: normal kernels; low-latency kernels",
    note="H800 (~160 GB/s NVLink maximum), each with a CX7 InfiniBand 400 Gb/s RDMA NIC (~50 GB/s maximum); "
         "the numbers first appeared in the README at 3b1045d (2025-04-22) and moved here with V2. How the "
         "tests count the printed bandwidths: interconnect_lab.collectives.BANDWIDTH_DEFINITIONS (the RDMA "
         "figure counts every (token, destination node) pair, the sender's own node included)")

DEEPSEEK_V3_REPORT = Source(
    title="DeepSeek-AI, DeepSeek-V3 Technical Report", year=2024, url="https://arxiv.org/abs/2412.19437",
    note="§3.1-3.2: 2,048 H800 GPUs, 8 per node on NVLink/NVSwitch, InfiniBand between nodes; expert parallelism "
         "across nodes gives 'an inefficient computation-to-communication ratio of approximately 1:1'; "
         "20 of the 132 SMs of an H800 run communication; each token reaches at most 4 nodes; "
         "180K H800 GPU hours per trillion tokens")


@dataclass(frozen=True, kw_only=True)
class AllToAllSetup:
    """The configuration a table of all-to-all measurements shares.

    Attributes
    ----------
    gpu : str
        As the source names it.
    tokens_per_gpu : int
        Tokens each GPU dispatches [token].
    hidden_size : int
        [-].
    top_k : int
        Experts per token [-].
    experts : int or None
        Routed experts in the test (None where the source does not say) [-].
    max_nodes_per_token : int or None
        Node-limited routing ("top-4 groups") [-].
    dispatch_bytes_per_element, combine_bytes_per_element : float
        FP8 dispatch, BF16 combine [B].
    gpus_per_node : int
        [-].
    scale_up_bytes_per_s, network_bytes_per_s : float
        The source's stated maximum per GPU, one direction [B/s].
    source : Source
    """

    gpu: str
    tokens_per_gpu: int
    hidden_size: int
    top_k: int
    experts: int | None
    max_nodes_per_token: int | None
    dispatch_bytes_per_element: float
    combine_bytes_per_element: float
    gpus_per_node: int
    scale_up_bytes_per_s: float
    network_bytes_per_s: float
    source: Source


@dataclass(frozen=True, kw_only=True)
class AllToAllMeasurement:
    """One row of an all-to-all table.

    Attributes
    ----------
    kernel : str
        ``"normal"`` (NVLink forwarding and RDMA, for training and prefill) or
        ``"low-latency"`` (pure RDMA across nodes, for decode).
    operation : str
        ``"dispatch"`` or ``"combine"``.
    ep_degree : int
        GPUs in the expert-parallel group [-].
    bottleneck : str
        ``"NVLink"`` or ``"RDMA"``: the figure printed (DeepEP's test counts both logically:
        :data:`interconnect_lab.collectives.BANDWIDTH_DEFINITIONS`).
    bandwidth_bytes_per_s : float
        As printed [B/s].
    latency_s : float or None
        As printed, for the low-latency kernels [s].
    setup : AllToAllSetup
    """

    kernel: str
    operation: str
    ep_degree: int
    bottleneck: str
    bandwidth_bytes_per_s: float
    latency_s: float | None
    setup: AllToAllSetup


#: DeepSeek-V3/R1 pretraining setting: 4,096 tokens per batch, 7,168 hidden, top-4 groups, top-8 experts.
DEEPEP_NORMAL_SETUP = AllToAllSetup(
    gpu="H800", tokens_per_gpu=4096, hidden_size=7168, top_k=8, experts=256, max_nodes_per_token=4,
    dispatch_bytes_per_element=1.0, combine_bytes_per_element=2.0, gpus_per_node=8,
    scale_up_bytes_per_s=160 * u.GB_per_s, network_bytes_per_s=50 * u.GB_per_s, source=DEEPEP_V1)

#: A typical DeepSeek-V3/R1 production (decode) setting: 128 tokens per batch, 7,168 hidden, top-8.
DEEPEP_LOW_LATENCY_SETUP = AllToAllSetup(
    gpu="H800", tokens_per_gpu=128, hidden_size=7168, top_k=8, experts=None, max_nodes_per_token=None,
    dispatch_bytes_per_element=1.0, combine_bytes_per_element=2.0, gpus_per_node=8,
    scale_up_bytes_per_s=160 * u.GB_per_s, network_bytes_per_s=50 * u.GB_per_s, source=DEEPEP_V1)

#: DeepEP normal kernels with NVLink and RDMA forwarding, as printed.
DEEPEP_NORMAL: tuple[AllToAllMeasurement, ...] = tuple(
    AllToAllMeasurement(kernel="normal", operation=operation, ep_degree=ep, bottleneck=bottleneck,
                        bandwidth_bytes_per_s=bandwidth * u.GB_per_s, latency_s=None, setup=DEEPEP_NORMAL_SETUP)
    for ep, bottleneck, dispatch, combine in (
        (8, "NVLink", 153, 158), (16, "RDMA", 43, 43), (32, "RDMA", 58, 57), (64, "RDMA", 51, 50))
    for operation, bandwidth in (("dispatch", dispatch), ("combine", combine))
)

#: DeepEP low-latency kernels with pure RDMA, as printed: latency and the bytes moved over it.
DEEPEP_LOW_LATENCY: tuple[AllToAllMeasurement, ...] = tuple(
    AllToAllMeasurement(kernel="low-latency", operation=operation, ep_degree=ep, bottleneck="RDMA",
                        bandwidth_bytes_per_s=bandwidth * u.GB_per_s, latency_s=latency * u.us,
                        setup=DEEPEP_LOW_LATENCY_SETUP)
    for ep, d_latency, d_bandwidth, c_latency, c_bandwidth in (
        (8, 77, 98, 114, 127), (16, 118, 63, 195, 74), (32, 155, 48, 273, 53),
        (64, 173, 43, 314, 46), (128, 192, 39, 369, 39), (256, 194, 39, 360, 40))
    for operation, latency, bandwidth in (("dispatch", d_latency, d_bandwidth), ("combine", c_latency, c_bandwidth))
)


@dataclass(frozen=True, kw_only=True)
class MoETrainingReport:
    """What a published MoE training run states about its communication.

    Attributes
    ----------
    model : str
    gpu : str
    gpus : int
        [-].
    gpus_per_node : int
        [-].
    expert_parallel : int
        GPUs per expert-parallel group in training [-].
    compute_to_communication : float
        Computation time over cross-node all-to-all time, as stated ("approximately 1:1") [-].
    communication_sms : int
        SMs given to communication kernels [-].
    sms_per_gpu : int
        [-].
    gpu_hours_per_trillion_tokens : float
        [h].
    source : Source
    """

    model: str
    gpu: str
    gpus: int
    gpus_per_node: int
    expert_parallel: int
    compute_to_communication: float
    communication_sms: int
    sms_per_gpu: int
    gpu_hours_per_trillion_tokens: float
    source: Source

    @property
    def communication_sm_fraction(self) -> float:
        """Share of the SMs that communicate [-]."""
        return self.communication_sms / self.sms_per_gpu


#: DeepSeek-V3 pre-training (§3.1-3.2): 64-way expert parallelism over 8 nodes (§3.2).
DEEPSEEK_V3_TRAINING = MoETrainingReport(
    model="DeepSeek-V3", gpu="H800", gpus=2048, gpus_per_node=8, expert_parallel=64, compute_to_communication=1.0,
    communication_sms=20, sms_per_gpu=132, gpu_hours_per_trillion_tokens=180_000.0, source=DEEPSEEK_V3_REPORT)
