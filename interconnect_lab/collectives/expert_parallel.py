"""Expert-parallel dispatch and combine as the kernels that run them move the bytes.

An MoE layer's dispatch (and its combine) is an all-to-all whose sizes depend on
the router. The kernels that run it differ in *what* they send and *who posts
it*, and that, not a constant, sets their time. Each kind is one row of
:data:`~interconnect_lab.collectives.EXPERT_PARALLEL_KERNELS`, chosen by name:

- ``"nccl"``: NCCL's all-to-all (:func:`~interconnect_lab.collectives.point_to_point`):
  one copy of a token per destination GPU, NVLink inside the domain, each GPU's
  own port across domains, the host launching it and its proxy posting the
  sends, after a small all-to-all of the counts (the sizes are not known before
  routing).
- ``"normal"``: DeepEP's normal kernels (and Hybrid-EP, UCCL-EP's normal kernels,
  NCCL EP's HT mode): one RDMA copy per (token, destination domain), written to
  the GPU with the same local index there, which forwards it over NVLink to the
  GPUs that hold the token's experts. The two levels run at once:

  .. math:: t = \\ell + \\max\\left(\\frac{\\iota\\,T\\,N_r\\,b}{\\eta\\,B_\\text{port}},\\;
            \\frac{\\iota\\,T\\,D\\,b\\,(g-1)/g}{B_\\text{NVLink}}\\right)

  with :math:`T` tokens of :math:`b` bytes, :math:`N_r` other domains and
  :math:`D` GPUs a token needs, :math:`g` GPUs per domain, :math:`\\iota` the
  busiest GPU's load over the mean.
- ``"low_latency"``: DeepEP's low-latency kernels (and NCCL EP's LL mode): one
  RDMA write per (token, expert) selection, posted by the GPU itself (IBGDA),
  with a 16-byte header on each dispatch message; selections inside the domain
  go over NVLink (DeepEP since PR #173):

  .. math:: t = \\ell_\\text{GPU} + \\max\\left(\\frac{\\iota\\,T k\\,\\tfrac{n-g}{n}\\,(b+h)}{\\eta\\,B_\\text{port}},\\;
            \\frac{\\iota\\,T k\\,\\tfrac{g-1}{n}\\,(b+h)}{B_\\text{NVLink}}\\right)
- ``"host_proxied"``: the same messages posted by CPU proxy threads (UCCL-EP on
  AWS EFA, NVSHMEM's IBRC and libfabric transports): each message costs the
  host the time NCCL charges for posting one network operation, shared among
  the proxy threads, and that term joins the maximum:
  :math:`\\iota\\,T k\\,\\tfrac{n-g}{n}\\,o_\\text{post}/p`.
- ``"nvlink_one_sided"``: TensorRT-LLM's NVLinkOneSided all-to-all, inside one
  NVLink domain: one copy per (token, destination GPU), each kernel only
  writing (dispatch) or only reading (combine) peers' memory.

:math:`\\eta` is the share of a port's line rate a stream reaches and
:math:`B_\\text{NVLink}` one GPU's NVLink as NCCL counts it, both from the
collective model (the point-to-point model's ``NETWORK_EFFICIENCY``,
:class:`CollectiveSystem`). Nothing here is fitted to a benchmark.

Authors print different bandwidths for the same time: :func:`reported_bandwidth`
converts the model's time into the figure each test script prints
(:data:`~interconnect_lab.collectives.BANDWIDTH_DEFINITIONS`). DeepEP's "RDMA" bandwidth counts every
(token, destination domain) pair *including the sender's own domain*, whose
bytes never touch the NIC, so on two domains it reads about twice what crossed
the wire.

Examples
--------
DeepSeek-V3's dispatch (4,096 tokens, FP8 with scales) on 32 H800 in 4 nodes of 8:

>>> from interconnect_lab.collectives import collective_system
>>> traffic = ExpertParallelTraffic(tokens=4096, payload_bytes=7168, scale_bytes=224, selections_per_token=8,
...                                 ranks_per_token=7.18, domains_per_token=3.61, remote_domains_per_token=2.71)
>>> ex = expert_parallel_exchange("normal", traffic, collective_system("H800 SXM", nodes=4))
>>> ex.bottleneck, round(ex.time_s * 1e3, 2), round(reported_bandwidth(ex, "deepep_rdma") / 1e9)
('network', 1.74, 63)
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType

from .. import units as u
from .._validation import check_choice, check_integer, check_number
from ..sources import Source
from . import tuning
from .point_to_point import NETWORK_EFFICIENCY, point_to_point
from .system import CollectiveSystem

__all__ = [
    "ROUTINGS", "INITIATIONS", "OPERATIONS", "ExpertParallelKernel", "EXPERT_PARALLEL_KERNELS",
    "expert_parallel_kernel", "ExpertParallelTraffic", "ExpertParallelExchange", "expert_parallel_exchange",
    "BandwidthDefinition", "BANDWIDTH_DEFINITIONS", "bandwidth_definition", "reported_bandwidth",
    "GPU_INITIATED_LATENCY_S", "COUNT_BYTES_PER_PEER",
]

#: How a kernel routes a token: one copy per destination GPU, one network copy per destination
#: domain then an NVLink forward, or one message per (token, expert) selection.
ROUTINGS = ("per_rank", "hierarchical", "per_selection")

#: Who posts the network operations: the host (NCCL's launch and proxy), the GPU (IBGDA), or CPU
#: proxy threads fed by the GPU.
INITIATIONS = ("host", "gpu", "host_proxy")

#: The two all-to-alls of an MoE layer.
OPERATIONS = ("dispatch", "combine")

_DEEPEP_COMMIT = "dd758caf451848bd150e1046af3d0a73e5fff38d"
_DEEPEP_TESTS_COMMIT = "2be0d4f8e9b555510139307bb3b0947834f34c37"

DEEPEP_LEGACY_DOCS = Source(
    title="DeepSeek-AI, DeepEP V1 (legacy) documentation", year=2026,
    url="https://github.com/deepseek-ai/DeepEP/blob/b306af06afd412c88e51e71802951606e40b7358/docs/legacy.md",
    locator="introduction; Network configurations; Example use in inference decoding",
    note="normal kernels 'optimized for asymmetric-domain bandwidth forwarding, such as forwarding data from "
         "NVLink domain to RDMA domain'; low-latency kernels 'with pure RDMA'; the normal kernels wait on the "
         "CPU for the received counts, the low-latency ones are CUDA-graph compatible")
DEEPEP_NORMAL_KERNEL = Source(
    title="DeepSeek-AI, DeepEP source: csrc/kernels/internode.cu (normal internode kernels)", year=2026,
    url=f"https://github.com/deepseek-ai/DeepEP/blob/{_DEEPEP_COMMIT}/csrc/kernels/legacy/internode.cu",
    locator="dispatch: warp roles kRDMASender, kRDMAAndNVLForwarder, kNVLReceivers",
    note="a token goes once over RDMA to each destination node, to the GPU of the same local index, which "
         "forwards it over NVLink; IBGDA with one QP per channel since PR #130 (2025-04-22)")
DEEPEP_LOW_LATENCY_KERNEL = Source(
    title="DeepSeek-AI, DeepEP source: csrc/kernels/legacy/internode_ll.cu (low-latency kernels)", year=2026,
    url=f"https://github.com/deepseek-ai/DeepEP/blob/{_DEEPEP_COMMIT}/csrc/kernels/legacy/internode_ll.cu",
    locator="dispatch: num_bytes_per_msg, nvshmemi_ibgda_put_nbi_warp; combine: num_send_bytes",
    note="one message per (token, top-k expert), put by a GPU warp with IBGDA, or copied over NVLink when "
         "the peer is reachable (nvshmemi_get_p2p_ptr, PR #173, 2025-06-05); a dispatch message is "
         "sizeof(int4) = 16 bytes of source index and reserved fields, then the FP8 values and their "
         "scales (or BF16); a combine message is the BF16 values alone")
GIN_PAPER = Source(
    title="K. Hamidouche et al., GPU-Initiated Networking for NCCL", year=2025,
    url="https://arxiv.org/abs/2511.15076", locator="abstract; §5",
    note="GDAKI backend (the GPU posts to the NIC directly): 16.7 µs round trip for small messages on H100; "
         "one way taken as half of it")
UCCL_EP_PROXY = Source(
    title="UCCL project, UCCL-EP source: ep/include/common.hpp", year=2026,
    url="https://github.com/uccl-project/uccl/blob/da914a2054c29725464803e379bb3b98de90dfa1/ep/include/common.hpp",
    locator="#define kNumProxyThs 4",
    note="four CPU proxy threads per GPU post the RDMA writes the GPU's kernels request through FIFO "
         "channels (arXiv 2512.19849: 'compact token-routing commands are transferred to multithreaded CPU "
         "proxies, which then issue GPUDirect RDMA operations on behalf of GPUs')")
NVSHMEM_PROXY = Source(
    title="NVIDIA, NVSHMEM source: src/host/proxy/proxy.cpp", year=2025,
    url="https://github.com/NVIDIA/nvshmem/blob/2d7d25f0816235e3c2b51779571ec032606ea0dd/src/host/proxy/proxy.cpp",
    locator="nvshmemi_proxy_setup: pthread_create(&proxy_state->progress_thread, ...)",
    note="one proxy progress thread per PE posts the network operations of the host-proxied transports "
         "(IBRC, UCX, libfabric)")
TRTLLM_ONE_SIDED = Source(
    title="NVIDIA, TensorRT-LLM tech blog 18: NVLinkOneSided AlltoAll for wide expert parallelism", year=2026,
    url=("https://github.com/NVIDIA/TensorRT-LLM/blob/22de8b34df71bb6653612c1f3de00c7288482eb4/docs/source/blogs/"
         "tech_blog/blog18_Optimizing_MoE_Communication_with_One_Sided_AlltoAll_Over_NVLink.md"),
    locator="design; performance",
    note="'each kernel only reads OR only writes peer memory'; each token is sent at most once per "
         "(source, target) pair; bandwidth = batch_size x min(ep_size, top_k) x bytes_per_token / latency, "
         "'logical — it includes the local-rank fraction of the traffic'")

#: One-way latency of a GPU-initiated network operation: half of the 16.7 µs small-message round trip
#: NCCL's GPU-initiated backend (GDAKI) measures on H100 [s].
GPU_INITIATED_LATENCY_S = 16.7 * u.us / 2

#: Bytes per peer of the count exchange a host-launched all-to-all needs first (one 32-bit count) [B].
COUNT_BYTES_PER_PEER = 4.0

_SIMPLE = tuning.PROTOCOLS.index("Simple")
_LL = tuning.PROTOCOLS.index("LL")


# ============================================================================
# Kernels
# ============================================================================

@dataclass(frozen=True, kw_only=True)
class ExpertParallelKernel:
    """One kind of expert-parallel kernel: how it routes tokens and who posts its messages.

    Parameters
    ----------
    name : str
        Key in :data:`~interconnect_lab.collectives.EXPERT_PARALLEL_KERNELS`.
    description : str
        One line for tables.
    routing : str
        One of ``ROUTINGS``.
    initiation : str
        One of ``INITIATIONS``.
    dispatch_header_bytes : float
        Bytes each dispatch message carries besides the token [B] (DeepEP's low-latency
        kernels: 16); the combine carries none.
    proxy_threads : int
        CPU threads posting one GPU's messages, >= 1 for ``initiation = "host_proxy"``,
        else 0 [-].
    single_domain : bool
        Runs only inside one NVLink domain.
    exchanges_counts_first : bool
        The host must learn the counts before it posts the data: a small all-to-all first.
    implementations : str
        Kernels of this kind, as their authors name them.
    sources : tuple of Source
        Where the mechanism is described (code at a commit, documentation).
    """

    name: str
    description: str
    routing: str
    initiation: str
    dispatch_header_bytes: float = 0.0
    proxy_threads: int = 0
    single_domain: bool = False
    exchanges_counts_first: bool = False
    implementations: str = ""
    sources: tuple[Source, ...] = ()

    def __post_init__(self):
        check_choice("routing", self.routing, ROUTINGS)
        check_choice("initiation", self.initiation, INITIATIONS)
        check_number("dispatch_header_bytes", self.dispatch_header_bytes, unit="B", minimum=0, maximum=1e6,
                     scalar=True)
        if self.initiation == "host_proxy":
            check_integer("proxy_threads", self.proxy_threads, minimum=1, maximum=1024)
        elif self.proxy_threads != 0:
            raise ValueError(f"proxy_threads = {self.proxy_threads!r} is not valid for initiation = "
                             f"{self.initiation!r}: only host-proxied kernels have proxy threads (use 0)")
        if not self.sources:
            raise ValueError(f"kernel {self.name!r} needs at least one source for its mechanism")


def _kernels():
    entries = (
        ExpertParallelKernel(
            name="nccl", description="NCCL all-to-all: one copy per destination GPU, host-launched",
            routing="per_rank", initiation="host", exchanges_counts_first=True,
            implementations="ncclAlltoAll / torch.distributed.all_to_all_single (Megatron-LM's all-to-all "
                            "token dispatcher)",
            sources=(tuning.NCCL_P2P_SOURCE, DEEPEP_LEGACY_DOCS)),
        ExpertParallelKernel(
            name="normal", description="one RDMA copy per destination domain, then an NVLink forward",
            routing="hierarchical", initiation="gpu",
            implementations="DeepEP V1 normal kernels, Hybrid-EP, UCCL-EP normal kernels, NCCL EP HT",
            sources=(DEEPEP_NORMAL_KERNEL, DEEPEP_LEGACY_DOCS)),
        ExpertParallelKernel(
            name="low_latency", description="one RDMA write per (token, expert), posted by the GPU (IBGDA)",
            routing="per_selection", initiation="gpu", dispatch_header_bytes=16.0,
            implementations="DeepEP V1 low-latency kernels, NCCL EP LL",
            sources=(DEEPEP_LOW_LATENCY_KERNEL, GIN_PAPER)),
        ExpertParallelKernel(
            name="host_proxied", description="one RDMA write per (token, expert), posted by CPU proxy threads",
            routing="per_selection", initiation="host_proxy", dispatch_header_bytes=16.0, proxy_threads=4,
            implementations="UCCL-EP low-latency kernels (4 proxy threads per GPU); DeepEP over NVSHMEM "
                            "IBRC or libfabric (1 per PE)",
            sources=(UCCL_EP_PROXY, NVSHMEM_PROXY, tuning.NCCL_TUNING_SOURCE)),
        ExpertParallelKernel(
            name="nvlink_one_sided", description="one copy per destination GPU over NVLink, one domain",
            routing="per_rank", initiation="gpu", single_domain=True,
            implementations="TensorRT-LLM NVLinkOneSided AlltoAll", sources=(TRTLLM_ONE_SIDED,)),
    )
    return MappingProxyType({entry.name: entry for entry in entries})


#: The kinds of expert-parallel kernel, by name: the table that lists them and dispatches to them.
EXPERT_PARALLEL_KERNELS = _kernels()


def expert_parallel_kernel(name) -> ExpertParallelKernel:
    """The kernel kind called ``name`` (an unknown name lists the valid ones).

    Parameters
    ----------
    name : str or ExpertParallelKernel
        A key of :data:`~interconnect_lab.collectives.EXPERT_PARALLEL_KERNELS`, or a kernel (a what-if, e.g. with more proxy threads).

    Returns
    -------
    ExpertParallelKernel

    Examples
    --------
    >>> expert_parallel_kernel("host_proxied").proxy_threads
    4
    """
    if isinstance(name, ExpertParallelKernel):
        return name
    check_choice("expert-parallel kernel", name, EXPERT_PARALLEL_KERNELS)
    return EXPERT_PARALLEL_KERNELS[name]


# ============================================================================
# What one GPU routes
# ============================================================================

@dataclass(frozen=True, kw_only=True)
class ExpertParallelTraffic:
    """What one GPU routes in one dispatch (or receives back in one combine), counted per token.

    The routing model (:func:`interconnect_lab.moe.all_to_all_traffic`) supplies the
    counts; every kernel of :data:`~interconnect_lab.collectives.EXPERT_PARALLEL_KERNELS` prices the same counts.

    Parameters
    ----------
    tokens : float
        Tokens the GPU routes T [token], in [0, 1e12].
    payload_bytes : float
        Bytes of one token's values on the wire (hidden size x bytes per element) [B], in (0, 1e9].
    scale_bytes : float
        Bytes of FP8 scaling factors one token carries (0 for BF16) [B], in [0, 1e9].
    selections_per_token : float
        Experts each token goes to (valid top-k entries) k [-], >= 1.
    ranks_per_token : float
        Distinct GPUs those experts lie on, the token's own GPU included D [-], in [1, k].
    domains_per_token : float
        Distinct NVLink domains among them, the token's own domain included [-], in [1, D].
    remote_domains_per_token : float
        The same without the token's own domain [-], in [domains_per_token - 1, domains_per_token].
    operation : str
        ``"dispatch"`` or ``"combine"`` (``OPERATIONS``): only a dispatch message carries a header.
    imbalance_factor : float
        Load of the busiest GPU over the mean iota [-], >= 1.
    """

    tokens: float
    payload_bytes: float
    scale_bytes: float = 0.0
    selections_per_token: float
    ranks_per_token: float
    domains_per_token: float
    remote_domains_per_token: float
    operation: str = "dispatch"
    imbalance_factor: float = 1.0

    def __post_init__(self):
        check = lambda name, **kw: object.__setattr__(  # noqa: E731
            self, name, check_number(name, getattr(self, name), scalar=True, **kw))
        check("tokens", unit="token", minimum=0, maximum=1e12)
        check("payload_bytes", unit="B", minimum=0, min_inclusive=False, maximum=1e9)
        check("scale_bytes", unit="B", minimum=0, maximum=1e9)
        check("selections_per_token", minimum=1, maximum=1e6)
        slack = 1 + 1e-9
        check("ranks_per_token", minimum=1, maximum=self.selections_per_token * slack)
        check("domains_per_token", minimum=1, maximum=self.ranks_per_token * slack)
        check("remote_domains_per_token", minimum=max(0.0, self.domains_per_token - 1) / slack,
              maximum=self.domains_per_token)
        check("imbalance_factor", minimum=1, maximum=1e6)
        check_choice("operation", self.operation, OPERATIONS)

    @property
    def token_bytes(self) -> float:
        """Bytes of one token copy: values and scales [B]."""
        return self.payload_bytes + self.scale_bytes


# ============================================================================
# One dispatch or combine
# ============================================================================

@dataclass(frozen=True)
class ExpertParallelExchange:
    """One dispatch or combine on one GPU, priced for one kernel on one machine.

    Attributes
    ----------
    kernel : ExpertParallelKernel
    system : CollectiveSystem
    traffic : ExpertParallelTraffic
    network_bytes, nvlink_bytes : float
        Bytes the busiest GPU sends through its ports and over NVLink [B].
    network_messages : float
        Network writes it posts (0 where the kernel aggregates tokens into large writes) [-].
    network_s, nvlink_s, posting_s : float
        Time of each level's bytes, and of posting the messages on the host [s].
    latency_s : float
        The size-independent part [s].
    counts_s : float
        The count exchange before the data (host-launched kernels) [s].
    time_s : float
        ``counts_s + latency_s + max(network_s, nvlink_s, posting_s)`` [s].
    """

    kernel: ExpertParallelKernel
    system: CollectiveSystem
    traffic: ExpertParallelTraffic
    network_bytes: float
    nvlink_bytes: float
    network_messages: float
    network_s: float
    nvlink_s: float
    posting_s: float
    latency_s: float
    counts_s: float
    time_s: float

    @property
    def bottleneck(self) -> str:
        """``"network"``, ``"nvlink"`` or ``"posting"``: the term that sets the time."""
        terms = {"network": self.network_s, "nvlink": self.nvlink_s, "posting": self.posting_s}
        return max(terms, key=terms.get)


def _port_bytes_per_s(system, kernel):
    """What one GPU's share of the domain's ports carries, at the share of line rate a stream reaches [B/s]."""
    if system.nodes == 1:
        return 0.0
    # NCCL's all-to-all uses one port per pair (nccl-tests #267); the EP kernels drive all of a GPU's ports.
    ports = min(system.nics_per_gpu, 1.0) if kernel.routing == "per_rank" else system.nics_per_gpu
    return NETWORK_EFFICIENCY * system.nic_bytes_per_s * ports


def _latency_s(kernel, system):
    """The size-independent part, from the constants of the collective model and of GPU-initiated networking."""
    across = system.nodes > 1
    nvlink_hop = tuning.HOP_LATENCY_US["nvlink" if system.nvlink_bytes_per_s > 0 else "pci"]["ring"]
    if kernel.routing == "hierarchical":
        # One launch and one hop per level, priced as NCCL prices them (Simple protocol).
        network_hop = tuning.HOP_LATENCY_US["net"]["ring"][_SIMPLE] if across else 0.0
        return (tuning.BASE_LATENCY_US["ring"][_SIMPLE] + nvlink_hop[_SIMPLE] + network_hop) * u.us
    if not across:
        # Flags and data written by the GPU straight over NVLink: one hop, as NCCL's LL protocol.
        return nvlink_hop[_LL] * u.us
    post = tuning.NET_OVERHEAD_US[system.cpu] * u.us if kernel.initiation == "host_proxy" else 0.0
    return GPU_INITIATED_LATENCY_S + post


def _level_bytes(kernel, traffic, system):
    """(network bytes, NVLink bytes, network messages) the busiest GPU sends."""
    n, g = system.ranks, system.gpus_per_node
    load = traffic.tokens * traffic.imbalance_factor
    if kernel.routing == "hierarchical":
        network = load * traffic.remote_domains_per_token * traffic.token_bytes
        nvlink = load * traffic.ranks_per_token * traffic.token_bytes * (g - 1) / g
        return network, nvlink, load * traffic.remote_domains_per_token
    if kernel.routing == "per_rank":
        copies, message_bytes = load * traffic.ranks_per_token, traffic.token_bytes
    else:
        header = kernel.dispatch_header_bytes if traffic.operation == "dispatch" else 0.0
        copies, message_bytes = load * traffic.selections_per_token, traffic.token_bytes + header
    remote = copies * (n - g) / n
    return remote * message_bytes, copies * (g - 1) / n * message_bytes, remote


def _check_fits(traffic, system):
    if traffic.ranks_per_token > system.ranks * (1 + 1e-9):
        raise ValueError(f"ranks_per_token = {traffic.ranks_per_token:g} is not valid on {system.ranks} GPUs: "
                         "a token cannot reach more GPUs than the group has")
    if traffic.domains_per_token > system.nodes * (1 + 1e-9):
        raise ValueError(f"domains_per_token = {traffic.domains_per_token:g} is not valid on {system.nodes} "
                         "NVLink domains: a token cannot reach more domains than the group spans")


def expert_parallel_exchange(kernel, traffic, system, *, proxy_threads=None) -> ExpertParallelExchange:
    """Time of one dispatch or combine on one GPU, for one kind of kernel on one machine.

    The ``"nccl"`` kernel is the collective model's all-to-all
    (:func:`~interconnect_lab.collectives.point_to_point` of ``T D b`` bytes
    per GPU) after a count exchange (an all-to-all of
    ``COUNT_BYTES_PER_PEER`` per peer); the others follow the formulas of
    this module: the network, NVLink and (host proxies) posting terms run at
    once and the longest sets the pace.

    Parameters
    ----------
    kernel : str or ExpertParallelKernel
        A key of :data:`~interconnect_lab.collectives.EXPERT_PARALLEL_KERNELS`.
    traffic : ExpertParallelTraffic
        What the GPU routes.
    system : CollectiveSystem
        The expert-parallel group: its domains, GPUs per domain, NVLink and ports.
    proxy_threads : int, optional
        CPU threads posting one GPU's messages (host-proxied kernels only), in [1, 1024];
        the kernel's own (UCCL-EP: 4) if omitted.

    Returns
    -------
    ExpertParallelExchange

    Examples
    --------
    128 decode tokens (FP8) per GPU, 64 GPUs in 8 nodes: GPU-initiated against host-proxied posting

    >>> from interconnect_lab.collectives import collective_system
    >>> t = ExpertParallelTraffic(tokens=128, payload_bytes=7168, scale_bytes=224, selections_per_token=8,
    ...                           ranks_per_token=7.5, domains_per_token=5.3, remote_domains_per_token=4.6)
    >>> s = collective_system("H100 SXM", nodes=8)
    >>> [round(expert_parallel_exchange(k, t, s).time_s * 1e6) for k in ("low_latency", "host_proxied")]
    [147, 233]
    """
    kernel = expert_parallel_kernel(kernel)
    if not isinstance(traffic, ExpertParallelTraffic):
        raise TypeError(f"traffic must be an ExpertParallelTraffic, got {type(traffic).__name__}")
    if not isinstance(system, CollectiveSystem):
        raise TypeError(f"system must be a CollectiveSystem, got {type(system).__name__}")
    _check_fits(traffic, system)
    if kernel.single_domain and system.nodes > 1:
        raise ValueError(f"kernel {kernel.name!r} runs inside one NVLink domain, not across {system.nodes} domains: "
                         "its peers are reached by NVLink loads and stores only")
    if proxy_threads is not None:
        if kernel.initiation != "host_proxy":
            raise ValueError(f"proxy_threads = {proxy_threads!r} is not valid for kernel {kernel.name!r}: only "
                             "host-proxied kernels post through CPU threads")
        proxy_threads = check_integer("proxy_threads", proxy_threads, minimum=1, maximum=1024)
    threads = proxy_threads or kernel.proxy_threads
    if kernel.name == "nccl" or kernel.initiation == "host":
        return _nccl_exchange(kernel, traffic, system)
    network, nvlink, messages = _level_bytes(kernel, traffic, system)
    port = _port_bytes_per_s(system, kernel)
    network_s = network / port if port > 0 else 0.0
    nvlink_rate = system.nvlink_bytes_per_s
    if nvlink > 0 and nvlink_rate <= 0:
        raise ValueError(f"kernel {kernel.name!r} forwards over NVLink, but the system has none "
                         "(nvlink_bytes_per_s = 0)")
    nvlink_s = nvlink / nvlink_rate if nvlink > 0 else 0.0
    posting_s = (messages * tuning.NET_OVERHEAD_US[system.cpu] * u.us / threads
                 if kernel.initiation == "host_proxy" else 0.0)
    latency = _latency_s(kernel, system)
    time = latency + max(network_s, nvlink_s, posting_s)
    return ExpertParallelExchange(kernel=kernel, system=system, traffic=traffic, network_bytes=float(network),
                                  nvlink_bytes=float(nvlink),
                                  network_messages=float(messages) if kernel.routing == "per_selection" else 0.0,
                                  network_s=float(network_s), nvlink_s=float(nvlink_s), posting_s=float(posting_s),
                                  latency_s=float(latency), counts_s=0.0, time_s=float(time))


def _nccl_exchange(kernel, traffic, system):
    """NCCL's all-to-all of the deduplicated copies, after a count exchange."""
    size = traffic.tokens * traffic.imbalance_factor * traffic.ranks_per_token * traffic.token_bytes
    run = point_to_point("all_to_all", size, system)
    counts = point_to_point("all_to_all", COUNT_BYTES_PER_PEER * system.ranks, system).time_s \
        if kernel.exchanges_counts_first and system.ranks > 1 else 0.0
    port = _port_bytes_per_s(system, kernel)
    network_s = run.network_bytes / port if port > 0 else 0.0
    nvlink_s = run.nvlink_bytes / system.nvlink_bytes_per_s if system.nvlink_bytes_per_s > 0 else 0.0
    return ExpertParallelExchange(kernel=kernel, system=system, traffic=traffic,
                                  network_bytes=float(run.network_bytes), nvlink_bytes=float(run.nvlink_bytes),
                                  network_messages=0.0, network_s=float(network_s), nvlink_s=float(nvlink_s),
                                  posting_s=0.0, latency_s=float(run.latency_s), counts_s=float(counts),
                                  time_s=float(run.time_s + counts))


# ============================================================================
# The bandwidth each implementation prints
# ============================================================================

@dataclass(frozen=True, kw_only=True)
class BandwidthDefinition:
    """How one test script turns its time into the bandwidth it prints.

    Parameters
    ----------
    name : str
        Key in :data:`~interconnect_lab.collectives.BANDWIDTH_DEFINITIONS`.
    counted : str
        What it counts per token: ``"domains"`` ((token, destination domain) pairs, the
        sender's own domain included), ``"ranks"`` (tokens each GPU receives, its own
        included), ``"selections"`` (top-k entries), ``"min_ranks_top_k"`` (min(n, k)
        copies), ``"network"`` or ``"nvlink"`` (the bytes that crossed that link).
    fp8_header_bytes : float
        Bytes added to each counted copy when the token carries FP8 scales [B] (DeepEP's
        low-latency test counts its 16-byte header for FP8 only).
    implementations : str
        Whose printed figures follow it.
    source : Source
        The test code or document that defines it.
    """

    name: str
    counted: str
    fp8_header_bytes: float = 0.0
    implementations: str = ""
    source: Source

    COUNTED = ("domains", "ranks", "selections", "min_ranks_top_k", "network", "nvlink")

    def __post_init__(self):
        check_choice("counted", self.counted, self.COUNTED)


_DEEPEP_TESTS = f"https://github.com/deepseek-ai/DeepEP/blob/{_DEEPEP_TESTS_COMMIT}/tests/"


def _definitions():
    entries = (
        BandwidthDefinition(
            name="deepep_rdma", counted="domains",
            implementations="DeepEP V1 normal '(RDMA)', Hybrid-EP 'IB bandwidth', UCCL-EP normal '(RDMA)', "
                            "MORI-EP RDMA",
            source=Source(title="DeepSeek-AI, DeepEP tests/test_internode.py", year=2025,
                          url=_DEEPEP_TESTS + "test_internode.py",
                          locator="num_rdma_token_sent, dispatch_bf16_rdma_send_bytes, fp8_factor",
                          note="(token, destination node) pairs after inplace_unique, the sender's node "
                               "included, x hidden x 2 B (x (1 + 4/128)/2 for FP8); ROCm/mori "
                               "docs/MORI-EP-BENCHMARK.md: 'physical_bw = algo_bw x (num_nodes - 1) / "
                               "num_nodes'")),
        BandwidthDefinition(
            name="deepep_nvlink", counted="ranks",
            implementations="DeepEP V1 normal '(NVL)', Hybrid-EP NVLink, UCCL-EP normal '(NVLink)'",
            source=Source(title="DeepSeek-AI, DeepEP tests/test_intranode.py and test_internode.py", year=2025,
                          url=_DEEPEP_TESTS + "test_intranode.py",
                          locator="dispatch_bf16_nvl_recv_bytes = recv_x.numel() * 2",
                          note="every token the GPU receives, its own included, x hidden x 2 B "
                               "(x (1 + 4/128)/2 for FP8)")),
        BandwidthDefinition(
            name="deepep_low_latency", counted="selections", fp8_header_bytes=16.0,
            implementations="DeepEP V1 low-latency, UCCL-EP low-latency, NCCL EP LL",
            source=Source(title="DeepSeek-AI, DeepEP tests/test_low_latency.py", year=2025,
                          url=_DEEPEP_TESTS + "test_low_latency.py",
                          locator="num_fp8_bytes, num_bf16_bytes, num_selections",
                          note="every valid top-k selection, local ones included, x (hidden + hidden/128 x 4 "
                               "+ 16) B for FP8 or hidden x 2 B for BF16, over the kernel's time")),
        BandwidthDefinition(
            name="trtllm_logical", counted="min_ranks_top_k",
            implementations="TensorRT-LLM NVLinkOneSided AlltoAll", source=TRTLLM_ONE_SIDED),
        BandwidthDefinition(
            name="network", counted="network", implementations="bytes that crossed the GPU's ports",
            source=Source(title="ROCm, MORI docs/MORI-EP-BENCHMARK.md", year=2026,
                          url="https://github.com/ROCm/mori/blob/36172fd4219b70b27b766aa1f406b950310ab709/docs/MORI-EP-BENCHMARK.md",
                          locator="Bandwidth Computation",
                          note="the physical bandwidth, as against the 'algo' figure DeepEP and MORI print")),
        BandwidthDefinition(
            name="nvlink", counted="nvlink", implementations="bytes that crossed the GPU's NVLink",
            source=DEEPEP_NORMAL_KERNEL),
    )
    return MappingProxyType({entry.name: entry for entry in entries})


#: How each implementation's test counts the bandwidth it prints, by name.
BANDWIDTH_DEFINITIONS = _definitions()


def bandwidth_definition(name) -> BandwidthDefinition:
    """The bandwidth definition called ``name`` (an unknown name lists the valid ones).

    Parameters
    ----------
    name : str
        A key of :data:`~interconnect_lab.collectives.BANDWIDTH_DEFINITIONS`.

    Returns
    -------
    BandwidthDefinition
    """
    if isinstance(name, BandwidthDefinition):
        return name
    check_choice("bandwidth definition", name, BANDWIDTH_DEFINITIONS)
    return BANDWIDTH_DEFINITIONS[name]


def reported_bandwidth(exchange, definition) -> float:
    """The bandwidth an implementation's test prints for the model's time [B/s].

    .. math:: B_\\text{printed} = \\frac{T\\,c\\,(b + h)}{t}

    with :math:`c` the copies per token the definition counts (domains, received
    tokens, selections, min(n, k)) and :math:`h` the header it adds for FP8;
    ``"network"`` and ``"nvlink"`` divide the bytes that crossed that link instead.

    Parameters
    ----------
    exchange : ExpertParallelExchange
        From :func:`expert_parallel_exchange`.
    definition : str or BandwidthDefinition
        A key of :data:`~interconnect_lab.collectives.BANDWIDTH_DEFINITIONS`.

    Returns
    -------
    float

    Examples
    --------
    Two nodes: DeepEP's RDMA figure counts the sender's own node too, so it is nearly twice
    what crossed the ports.

    >>> from interconnect_lab.collectives import collective_system
    >>> t = ExpertParallelTraffic(tokens=4096, payload_bytes=7168, scale_bytes=224, selections_per_token=8,
    ...                           ranks_per_token=6.5, domains_per_token=1.99, remote_domains_per_token=1.0)
    >>> ex = expert_parallel_exchange("normal", t, collective_system("H800 SXM", nodes=2))
    >>> round(reported_bandwidth(ex, "deepep_rdma") / reported_bandwidth(ex, "network"), 2)
    1.99
    """
    if not isinstance(exchange, ExpertParallelExchange):
        raise TypeError(f"exchange must be an ExpertParallelExchange, got {type(exchange).__name__}")
    definition = bandwidth_definition(definition)
    if exchange.time_s <= 0:
        return 0.0
    traffic = exchange.traffic
    if definition.counted == "network":
        return exchange.network_bytes / exchange.time_s
    if definition.counted == "nvlink":
        return exchange.nvlink_bytes / exchange.time_s
    copies = {"domains": traffic.domains_per_token, "ranks": traffic.ranks_per_token,
              "selections": traffic.selections_per_token,
              "min_ranks_top_k": min(exchange.system.ranks, traffic.selections_per_token)}[definition.counted]
    header = definition.fp8_header_bytes if traffic.scale_bytes > 0 else 0.0
    return traffic.tokens * copies * (traffic.token_bytes + header) / exchange.time_s
