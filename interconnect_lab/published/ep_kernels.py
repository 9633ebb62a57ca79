"""Expert-parallel dispatch and combine kernels, as their authors benchmarked them.

Each :class:`EPKernelTable` is one published table: the implementation and the
kind of kernel of the collective model it is
(:data:`interconnect_lab.collectives.EXPERT_PARALLEL_KERNELS`), the machine as the
source describes it, the workload (tokens, hidden size, top-k, experts,
node-limited routing, bytes per element) and how the time was measured; each
:class:`EPKernelBenchmark` is one printed cell: an operation on an
expert-parallel group, with the bandwidth as printed (and the definition its
test uses, :data:`interconnect_lab.collectives.BANDWIDTH_DEFINITIONS`) and the
latency where printed. Inputs a source does not state are in ``assumptions``
with the value used. :func:`interconnect_lab.moe.reproduction.ep_reproduction_table`
replays every row through the model.

``family`` splits the tables in two: the *development* table (DeepEP V1 on
H800, which chapter 11 used before the kernels were modelled) was looked at
while the model was built; the *validation* tables were chosen by a rule fixed
beforehand (every table of the collection that names its GPU, states or implies
its network, and prints either a bandwidth with a known definition or a time
per operation; from sweeps over SM counts, every count) and were compared only
after the model was committed.

Numbers are copied as printed: GB/s are 10^9 B/s as the test scripts compute
them; latencies are in µs. :data:`EFA_MESSAGE_RATE` is a microbenchmark of the
mechanism the host-proxied rows miss (small RDMA writes on AWS EFA); the model
does not use it, chapter 11 cites it to explain those rows.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..sources import Source
from .moe import DEEPEP_LOW_LATENCY, DEEPEP_NORMAL, DEEPEP_V1

__all__ = ["FAMILIES", "EPKernelTable", "EPKernelBenchmark", "EP_KERNEL_TABLES", "EP_KERNEL_BENCHMARKS",
           "MessageRateMeasurement", "EFA_MESSAGE_RATE"]

#: The two families of tables.
FAMILIES = ("development", "validation")


@dataclass(frozen=True, kw_only=True)
class EPKernelTable:
    """One published table of dispatch and combine measurements: its machine, workload and source.

    Attributes
    ----------
    label : str
        Short name.
    implementation : str
        The kernels as their authors name them.
    publisher : str
        Who ran and published the table.
    family : str
        ``"development"`` or ``"validation"`` (:data:`FAMILIES`).
    kernel : str
        The collective model's kind of kernel (``"normal"``, ``"low_latency"``, ...).
    gpu : str
        Catalog GPU or export variant the model uses.
    gpu_as_published : str
        The GPU as the source names it.
    gpus_per_domain : int or None
        GPUs per NVLink domain; None when the whole group sits in one (GB200 NVL72).
    network : str or None
        Catalog link of one network port (None: one NVLink domain only).
    nics_per_gpu : int
        Ports per GPU [-].
    network_as_published : str
        The network as the source describes it.
    cpu : str
        Host CPU vendor (the cost of a host proxy's post).
    tokens_per_gpu : int
        Tokens each GPU dispatches [token] (a row may say otherwise).
    hidden_size, top_k : int
        [-].
    experts : int or None
        Routed experts (None: not stated and not needed by the kernel) [-].
    experts_per_gpu : int or None
        Experts each GPU holds when the source states that instead (Hybrid-EP: 8) [-].
    max_nodes_per_token : int or None
        Node-limited routing ("top-4 groups") [-].
    dispatch_bytes_per_element, combine_bytes_per_element : float
        FP8 = 1 (with one 4-byte scale per 128 values), BF16 = 2 [B].
    timing : str
        What the printed time covers.
    source : Source
    assumptions : tuple of str
        Inputs the source does not state, with the value used.
    """

    label: str
    implementation: str
    publisher: str
    family: str
    kernel: str
    gpu: str
    gpu_as_published: str
    gpus_per_domain: int | None
    network: str | None
    nics_per_gpu: int = 1
    network_as_published: str
    cpu: str = "intel"
    tokens_per_gpu: int
    hidden_size: int = 7168
    top_k: int = 8
    experts: int | None = None
    experts_per_gpu: int | None = None
    max_nodes_per_token: int | None = None
    dispatch_bytes_per_element: float = 1.0
    combine_bytes_per_element: float = 2.0
    timing: str
    source: Source
    assumptions: tuple[str, ...] = ()

    def __post_init__(self):
        if self.family not in FAMILIES:
            raise ValueError(f"EPKernelTable.family = {self.family!r} is not one of {FAMILIES}")


@dataclass(frozen=True, kw_only=True)
class EPKernelBenchmark:
    """One printed cell: a dispatch or combine on a group, its bandwidth and (where printed) its latency.

    Attributes
    ----------
    table : EPKernelTable
    operation : str
        ``"dispatch"`` or ``"combine"``.
    ep_degree : int
        GPUs in the expert-parallel group [-].
    definition : str or None
        Key of :data:`interconnect_lab.collectives.BANDWIDTH_DEFINITIONS` of the printed bandwidth.
    bandwidth_gb_per_s : float or None
        As printed [GB/s].
    latency_us : float or None
        As printed [µs].
    tokens_per_gpu : int or None
        Where the row's batch differs from the table's [token].
    dispatch_bytes_per_element : float or None
        Where the row dispatches in another format (a BF16 column) [B].
    experts : int or None
        Where the row's test used another number of experts [-].
    sms : int or None
        SMs the kernel ran on, where the table sweeps them [-].
    """

    table: EPKernelTable
    operation: str
    ep_degree: int
    definition: str | None
    bandwidth_gb_per_s: float | None = None
    latency_us: float | None = None
    tokens_per_gpu: int | None = None
    dispatch_bytes_per_element: float | None = None
    experts: int | None = None
    sms: int | None = None

    def __post_init__(self):
        if self.operation not in ("dispatch", "combine"):
            raise ValueError(f"EPKernelBenchmark.operation = {self.operation!r}: 'dispatch' or 'combine'")
        if self.bandwidth_gb_per_s is None and self.latency_us is None:
            raise ValueError("EPKernelBenchmark needs a printed bandwidth or latency")
        if (self.bandwidth_gb_per_s is None) != (self.definition is None):
            raise ValueError("EPKernelBenchmark: a printed bandwidth needs its definition, and only then")

    @property
    def tokens(self) -> int:
        """Tokens each GPU dispatches in this row [token]."""
        return self.tokens_per_gpu or self.table.tokens_per_gpu

    @property
    def bytes_per_element(self) -> float:
        """Bytes per element on the wire of this row's operation [B]."""
        if self.operation == "combine":
            return self.table.combine_bytes_per_element
        return self.dispatch_bytes_per_element or self.table.dispatch_bytes_per_element


# Sources ------------------------------------------------------------------------------------------

_HYBRID_EP = Source(
    title="NVIDIA, Hybrid-EP: docs/README_Hybrid-EP.md (deepseek-ai/DeepEP, hybrid-ep branch)", year=2026,
    url="https://github.com/deepseek-ai/DeepEP/blob/17cfb817bccec3a9c247013360cc550c2bac441e/docs/README_Hybrid-EP.md",
    locator="Performance: H100, B200 and GB200 platforms",
    note="'All bandwidth values represent algorithm bandwidth'; tests/utils.py count_rdma_send_from_routing_map "
         "keeps the local node 'to align with the implementation in the DeepEP' (hybrid-ep @94a9f8f6); random "
         "uniform router, 8 local experts per rank; 'Kernel Only' is the kernel's own time")
_UCCL_EP = Source(
    title="UCCL project, UCCL-EP: ep/README.md (Results)", year=2026,
    url="https://github.com/uccl-project/uccl/blob/9ef7dfd46a38328020cfbc7d77c6826e176d67e9/ep/README.md",
    locator="Results: normal kernels on p5en and p6-b200; low-latency kernels on p5en and p6-b200",
    note="p5en: 8 H200, each GPU with two 200 Gb/s EFA; p6-b200: 8 B200, each with one 400 Gb/s EFA; test "
         "scripts are DeepEP's (same byte counting); internode runs with --num-experts=288, intranode with 256")
_TRTLLM = Source(
    title="NVIDIA, TensorRT-LLM tech blog 18: Optimizing MoE communication with one-sided AlltoAll over NVLink",
    year=2026,
    url=("https://github.com/NVIDIA/TensorRT-LLM/blob/22de8b34df71bb6653612c1f3de00c7288482eb4/docs/source/blogs/"
         "tech_blog/blog18_Optimizing_MoE_Communication_with_One_Sided_AlltoAll_Over_NVLink.md"),
    locator="benchmark tables, ep_size 8/16/32/64",
    note="GB200 NVL72, hidden 7168, top-8, 256 experts, BF16; bandwidth = batch_size x min(ep_size, top_k) x "
         "bytes_per_token / latency")
_NCCL_EP = Source(
    title="NVIDIA, NCCL EP: contrib/nccl_ep/README.md", year=2026,
    url="https://github.com/NVIDIA/nccl/blob/63bd13e6e5fd998e0fc1dcfde3004808681c7af0/contrib/nccl_ep/README.md",
    locator="Reference performance numbers (LL mode, same data type)",
    note="H100, BF16 dispatch and combine, hidden 7168, top-8, 256 experts, 128 tokens per rank, 8 GPUs per node, "
         "NCCL v2.29u1; ep_bench.cu 'Matches DeepEP test_low_latency.py methodology'")


# Development: DeepEP V1 on H800 (the tables chapter 11 used before) ------------------------------

_DEEPEP_NORMAL = EPKernelTable(
    label="deepep_v1_h800_normal", implementation="DeepEP V1 normal kernels", publisher="DeepSeek-AI",
    family="development", kernel="normal", gpu="H800 SXM", gpu_as_published="H800 (~160 GB/s NVLink)",
    gpus_per_domain=8, network="InfiniBand NDR", network_as_published="one CX7 InfiniBand 400 Gb/s per GPU",
    tokens_per_gpu=4096, experts=256, max_nodes_per_token=4,
    timing="best of the test's SM and chunk sweep ('[tuning] Best')", source=DEEPEP_V1,
    assumptions=("256 experts (tests/test_internode.py default; the table does not say)",))
_DEEPEP_LOW_LATENCY = EPKernelTable(
    label="deepep_v1_h800_low_latency", implementation="DeepEP V1 low-latency kernels", publisher="DeepSeek-AI",
    family="development", kernel="low_latency", gpu="H800 SXM", gpu_as_published="H800", gpus_per_domain=8,
    network="InfiniBand NDR", network_as_published="one CX7 InfiniBand 400 Gb/s per GPU", tokens_per_gpu=128,
    timing="kernel time per operation (test_low_latency.py)", source=DEEPEP_V1,
    assumptions=("experts not stated: each selection is its own message, so only top-k matters",
                 "intranode selections over NVLink (the table postdates PR #173)"))

_DEVELOPMENT = tuple(
    EPKernelBenchmark(table=_DEEPEP_NORMAL, operation=m.operation, ep_degree=m.ep_degree,
                      definition="deepep_nvlink" if m.bottleneck == "NVLink" else "deepep_rdma",
                      bandwidth_gb_per_s=round(m.bandwidth_bytes_per_s / 1e9, 6))
    for m in DEEPEP_NORMAL
) + tuple(
    EPKernelBenchmark(table=_DEEPEP_LOW_LATENCY, operation=m.operation, ep_degree=m.ep_degree,
                      definition="deepep_low_latency", bandwidth_gb_per_s=round(m.bandwidth_bytes_per_s / 1e9, 6),
                      latency_us=round(m.latency_s * 1e6, 6))
    for m in DEEPEP_LOW_LATENCY
)


# Validation --------------------------------------------------------------------------------------

_HYBRID_H100 = EPKernelTable(
    label="hybrid_ep_h100", implementation="Hybrid-EP", publisher="NVIDIA", family="validation", kernel="normal",
    gpu="H100 SXM", gpu_as_published="H100", gpus_per_domain=8, network="InfiniBand NDR",
    network_as_published="not stated ('IB bandwidth')", tokens_per_gpu=4096, experts_per_gpu=8,
    timing="kernel only, per SM count", source=_HYBRID_EP.at("H100 Platform"),
    assumptions=("8 GPUs per node and one 400 Gb/s InfiniBand port per GPU (HGX H100)",))

# (ranks, SMs, FP8 dispatch, BF16 dispatch, combine), 'Kernel Only' columns [GB/s]
_HYBRID_H100_ROWS = (
    (16, 4, 34.00, 44.40, 52.00), (16, 8, 62.00, 76.80, 68.00), (16, 16, 68.48, 71.71, 62.95),
    (32, 4, 38.50, 52.60, 51.00), (32, 8, 51.30, 54.50, 56.40), (32, 16, 55.35, 57.69, 57.46),
    (64, 4, 37.50, 48.00, 46.00), (64, 8, 46.63, 50.55, 51.03), (64, 16, 46.52, 49.97, 49.77),
)

_HYBRID_B200 = EPKernelTable(
    label="hybrid_ep_b200", implementation="Hybrid-EP", publisher="NVIDIA", family="validation", kernel="normal",
    gpu="B200", gpu_as_published="B200", gpus_per_domain=8, network=None, network_as_published="one node",
    tokens_per_gpu=4096, experts_per_gpu=8, timing="only kernel time, 16 SMs", source=_HYBRID_EP.at("B200 Platform"))

_HYBRID_GB200 = EPKernelTable(
    label="hybrid_ep_gb200", implementation="Hybrid-EP", publisher="NVIDIA", family="validation", kernel="normal",
    gpu="GB200", gpu_as_published="GB200 (MNNVL)", gpus_per_domain=None, network=None,
    network_as_published="one NVL72 NVLink domain", tokens_per_gpu=4096, experts_per_gpu=8,
    timing="kernel only, per SM count", source=_HYBRID_EP.at("GB200 Platform"),
    assumptions=("the printed figure is the NVLink one (tokens received x bytes): the group is one NVLink domain",))

_HYBRID_GB200_ROWS = (
    (8, 16, 620.98, 750.15, 684.27), (8, 32, 713.98, 764.03, 737.13),
    (16, 16, 577.17, 661.93, 600.75), (16, 32, 650.48, 706.95, 666.26),
    (24, 16, 360.12, 637.80, 565.53), (24, 32, 577.96, 665.97, 639.80),
    (32, 16, 286.93, 629.79, 547.25), (32, 32, 538.86, 642.23, 605.15),
    (36, 16, 260.53, 612.85, 543.27), (36, 32, 489.27, 632.31, 596.99),
)


def _hybrid_rows(table, rows, definition):
    out = []
    for ranks, sms, fp8, bf16, combine in rows:
        out += [EPKernelBenchmark(table=table, operation="dispatch", ep_degree=ranks, definition=definition,
                                  bandwidth_gb_per_s=fp8, sms=sms),
                EPKernelBenchmark(table=table, operation="dispatch", ep_degree=ranks, definition=definition,
                                  bandwidth_gb_per_s=bf16, dispatch_bytes_per_element=2.0, sms=sms),
                EPKernelBenchmark(table=table, operation="combine", ep_degree=ranks, definition=definition,
                                  bandwidth_gb_per_s=combine, sms=sms)]
    return tuple(out)


_UCCL_P5EN_NORMAL = EPKernelTable(
    label="uccl_ep_h200_p5en_normal", implementation="UCCL-EP normal kernels", publisher="UCCL project",
    family="validation", kernel="normal", gpu="H200 SXM", gpu_as_published="H200 (AWS p5en)", gpus_per_domain=8,
    network="Ethernet 200G", nics_per_gpu=2, network_as_published="two 200 Gb/s EFA per GPU",
    tokens_per_gpu=4096, experts=288, max_nodes_per_token=4,
    timing="the test's best ('Bottleneck bandwidth & latency')", source=_UCCL_EP.at("Normal kernels, On p5en"),
    assumptions=("EFA ports priced as 200 Gb/s Ethernet ports",))
_UCCL_P6_NORMAL = EPKernelTable(
    label="uccl_ep_b200_p6_normal", implementation="UCCL-EP normal kernels", publisher="UCCL project",
    family="validation", kernel="normal", gpu="B200", gpu_as_published="B200 (AWS p6-b200)", gpus_per_domain=8,
    network="Ethernet 400G", nics_per_gpu=1, network_as_published="one 400 Gb/s EFA per GPU",
    tokens_per_gpu=4096, experts=288, max_nodes_per_token=4,
    timing="the test's best ('Bottleneck bandwidth & latency')", source=_UCCL_EP.at("Normal kernels, On p6-b200"),
    assumptions=("EFA ports priced as 400 Gb/s Ethernet ports",
                 "the p5en configuration (4096 tokens, top-4 groups, FP8 dispatch): the p6-b200 table does not "
                 "restate it"))


def _uccl_normal(table, rows):
    out = []
    for ep, d_bw, d_us, c_bw, c_us in rows:
        definition, experts = ("deepep_nvlink", 256) if ep == 8 else ("deepep_rdma", None)
        out += [EPKernelBenchmark(table=table, operation="dispatch", ep_degree=ep, definition=definition,
                                  bandwidth_gb_per_s=d_bw, latency_us=d_us, experts=experts),
                EPKernelBenchmark(table=table, operation="combine", ep_degree=ep, definition=definition,
                                  bandwidth_gb_per_s=c_bw, latency_us=c_us, experts=experts)]
    return tuple(out)


_UCCL_P5EN_LL = EPKernelTable(
    label="uccl_ep_h200_p5en_low_latency", implementation="UCCL-EP low-latency kernels", publisher="UCCL project",
    family="validation", kernel="host_proxied", gpu="H200 SXM", gpu_as_published="H200 (AWS p5en)",
    gpus_per_domain=8, network="Ethernet 200G", nics_per_gpu=2, network_as_published="two 200 Gb/s EFA per GPU",
    tokens_per_gpu=128, experts=288, timing="kernel time per operation",
    source=_UCCL_EP.at("Low-latency kernels, On p5en"),
    assumptions=("EFA ports priced as 200 Gb/s Ethernet ports", "Intel host CPU (p5en: Xeon Sapphire Rapids)",
                 "intranode selections over NVLink (UCCL-EP's get_ipc_p2p_ptr)"))
_UCCL_P6_LL = EPKernelTable(
    label="uccl_ep_b200_p6_low_latency", implementation="UCCL-EP low-latency kernels", publisher="UCCL project",
    family="validation", kernel="host_proxied", gpu="B200", gpu_as_published="B200 (AWS p6-b200)",
    gpus_per_domain=8, network="Ethernet 400G", nics_per_gpu=1, network_as_published="one 400 Gb/s EFA per GPU",
    tokens_per_gpu=128, experts=288, timing="kernel time per operation",
    source=_UCCL_EP.at("Low-latency kernels, On p6-b200"),
    assumptions=("EFA ports priced as 400 Gb/s Ethernet ports", "Intel host CPU (p6-b200: Xeon Emerald Rapids)",
                 "intranode selections over NVLink (UCCL-EP's get_ipc_p2p_ptr)",
                 "the p5en configuration (128 tokens, FP8 dispatch, BF16 combine)"))


def _latency_rows(table, rows, definition):
    out = []
    for ep, d_us, d_bw, c_us, c_bw in rows:
        out += [EPKernelBenchmark(table=table, operation="dispatch", ep_degree=ep, definition=definition,
                                  bandwidth_gb_per_s=d_bw, latency_us=d_us),
                EPKernelBenchmark(table=table, operation="combine", ep_degree=ep, definition=definition,
                                  bandwidth_gb_per_s=c_bw, latency_us=c_us)]
    return tuple(out)


_TRTLLM_GB200 = EPKernelTable(
    label="trtllm_gb200_one_sided", implementation="TensorRT-LLM NVLinkOneSided AlltoAll", publisher="NVIDIA",
    family="validation", kernel="nvlink_one_sided", gpu="GB200", gpu_as_published="GB200 NVL72",
    gpus_per_domain=None, network=None, network_as_published="one NVL72 NVLink domain", tokens_per_gpu=128,
    experts=256, dispatch_bytes_per_element=2.0, combine_bytes_per_element=2.0,
    timing="kernel latency per operation", source=_TRTLLM)

# (ep_size, batch, dispatch µs, dispatch GB/s, combine µs, combine GB/s): batches 1, 128 and 2048 of 12
_TRTLLM_ROWS = (
    (8, 1, 18.9, 6.07, 31.0, 3.70), (8, 128, 31.7, 462.40, 38.1, 384.96), (8, 2048, 311.8, 753.28, 322.6, 728.20),
    (16, 1, 18.8, 6.10, 30.8, 3.72), (16, 128, 34.6, 424.10, 39.9, 367.72),
    (16, 2048, 343.3, 684.10, 348.4, 674.15),
    (32, 1, 19.8, 5.78, 31.4, 3.65), (32, 128, 37.8, 387.86, 41.1, 356.77),
    (32, 2048, 373.7, 628.54, 369.5, 635.66),
    (64, 1, 27.8, 4.12, 32.6, 3.52), (64, 128, 41.6, 352.70, 44.5, 330.08),
    (64, 2048, 399.2, 588.34, 372.1, 631.18),
)

_NCCL_EP_H100 = EPKernelTable(
    label="nccl_ep_h100_low_latency", implementation="NCCL EP (LL mode)", publisher="NVIDIA", family="validation",
    kernel="low_latency", gpu="H100 SXM", gpu_as_published="H100", gpus_per_domain=8, network="InfiniBand NDR",
    network_as_published="not stated", tokens_per_gpu=128, experts=256, dispatch_bytes_per_element=2.0,
    combine_bytes_per_element=2.0, timing="average time per operation (ep_bench)", source=_NCCL_EP,
    assumptions=("one 400 Gb/s InfiniBand port per GPU (HGX H100)",))

_VALIDATION = (
    _hybrid_rows(_HYBRID_H100, _HYBRID_H100_ROWS, "deepep_rdma")
    + _hybrid_rows(_HYBRID_B200, ((8, 16, 599.27, 734.95, 673.84),), "deepep_nvlink")
    + _hybrid_rows(_HYBRID_GB200, _HYBRID_GB200_ROWS, "deepep_nvlink")
    + _uccl_normal(_UCCL_P5EN_NORMAL, ((8, 320, 500, 319, 973), (16, 50, 1196, 18, 6379), (24, 53, 1633, 26, 6365),
                                       (32, 54, 2022, 43, 4899)))
    + _uccl_normal(_UCCL_P6_NORMAL, ((8, 280, 571, 426, 727), (16, 53, 1141, 60, 1965), (24, 53, 1637, 59, 2887),
                                     (32, 53, 2072, 57, 3724)))
    + _latency_rows(_UCCL_P5EN_LL, ((16, 226, 36, 293, 48), (24, 386, 20, 580, 26), (32, 465, 16, 694, 25)),
                    "deepep_low_latency")
    + _latency_rows(_UCCL_P6_LL, ((16, 228, 33, 318, 46), (24, 448, 17, 566, 26), (32, 406, 19, 617, 24)),
                    "deepep_low_latency")
    + tuple(EPKernelBenchmark(table=_TRTLLM_GB200, operation=op, ep_degree=ep, tokens_per_gpu=batch,
                              definition="trtllm_logical", bandwidth_gb_per_s=bw, latency_us=us)
            for ep, batch, d_us, d_bw, c_us, c_bw in _TRTLLM_ROWS
            for op, us, bw in (("dispatch", d_us, d_bw), ("combine", c_us, c_bw)))
    + tuple(EPKernelBenchmark(table=_NCCL_EP_H100, operation=op, ep_degree=ep, definition="deepep_low_latency",
                              bandwidth_gb_per_s=bw)
            for ep, dispatch, combine in ((8, 224.3, 185.2), (16, 76.7, 73.0), (32, 53.6, 50.0), (64, 48.8, 43.8))
            for op, bw in (("dispatch", dispatch), ("combine", combine)))
)

#: Every table, development first.
EP_KERNEL_TABLES: tuple[EPKernelTable, ...] = (
    _DEEPEP_NORMAL, _DEEPEP_LOW_LATENCY, _HYBRID_H100, _HYBRID_B200, _HYBRID_GB200, _UCCL_P5EN_NORMAL,
    _UCCL_P6_NORMAL, _UCCL_P5EN_LL, _UCCL_P6_LL, _TRTLLM_GB200, _NCCL_EP_H100,
)

#: Every printed cell, development first, then validation.
EP_KERNEL_BENCHMARKS: tuple[EPKernelBenchmark, ...] = _DEVELOPMENT + _VALIDATION


# A microbenchmark of the mechanism: EFA with small messages --------------------------------------

@dataclass(frozen=True, kw_only=True)
class MessageRateMeasurement:
    """An all-to-all of fixed-size RDMA writes on one network, per message size, as published.

    Attributes
    ----------
    label : str
    network : str
        As the source describes it.
    pattern : str
        Which peers each GPU writes to.
    message_bytes : tuple of float
        Size of one write [B].
    bandwidth_gb_per_s : tuple of float
        What one GPU reached, as printed [GB/s].
    source : Source
    """

    label: str
    network: str
    pattern: str
    message_bytes: tuple[float, ...]
    bandwidth_gb_per_s: tuple[float, ...]
    source: Source


_UCCL_EFA_BENCH = Source(
    title="UCCL project, RDMA all-to-all throughput on EFA (ep/bench/alltoall/efa_alltoall_results.md)", year=2026,
    url=("https://github.com/uccl-project/uccl/blob/f3a0911d65a357be5f1d6e1d5a7a752bf256c6e8/ep/bench/alltoall/"
         "efa_alltoall_results.md"),
    locator="On two p5",
    note="two p5 nodes, same total messages and in-flight limit per GPU; 'Message size of 8KB would roughly "
         "represent DeepEP/UCCL-EP low-latency performance'")

_KB = 1024.0
_SIZES = tuple(k * _KB for k in (8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096))

#: UCCL's microbenchmark of RDMA writes on AWS EFA: per-GPU bandwidth against the size of one write.
EFA_MESSAGE_RATE: tuple[MessageRateMeasurement, ...] = (
    MessageRateMeasurement(
        label="efa_p5_cross_rail", network="AWS EFA (p5)", pattern="cross-rail: any GPU of the other node",
        message_bytes=_SIZES, bandwidth_gb_per_s=(6.1, 8.6, 14.1, 15.6, 15.7, 15.3, 17.9, 19.0, 19.9, 20.1),
        source=_UCCL_EFA_BENCH),
    MessageRateMeasurement(
        label="efa_p5_rail_aligned", network="AWS EFA (p5)", pattern="rail-aligned: the same-index GPU only",
        message_bytes=_SIZES, bandwidth_gb_per_s=(13.8, 21.1, 35.6, 36.9, 41.6, 41.9, 43.2, 43.5, 43.4, 43.7),
        source=_UCCL_EFA_BENCH),
)
