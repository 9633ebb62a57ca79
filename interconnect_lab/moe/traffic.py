"""Traffic and time of an MoE layer's dispatch and combine all-to-alls.

Bytes one GPU sends (:func:`all_to_all_traffic`, with FP8 scales from
:func:`fp8_scale_bytes`), how the transfer is started (:data:`COMMUNICATION_PATHS`),
and the time of the two all-to-alls on a scale-up domain and a network with the α-β
model of :mod:`interconnect_lab.collectives` (:func:`expert_parallel_all_to_all`,
:func:`dispatch_and_combine`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from types import MappingProxyType

from .. import catalog, collectives
from .._lookup import resolve
from .._validation import NotPossible, check_choice, check_flag, check_integer, check_number
from ..catalog.variants import VARIANT_LINKS
from ..collectives.model import MAX_BANDWIDTH_BYTES_PER_S, MIN_BANDWIDTH_BYTES_PER_S
from ..sources import Source
from .routing import MAX_EXPERTS, MAX_TOKENS, check_experts, distinct_groups

__all__ = ["AllToAllTraffic", "all_to_all_traffic", "fp8_scale_bytes", "CommunicationPath",
           "COMMUNICATION_PATHS", "communication_path", "AllToAllTime", "expert_parallel_all_to_all",
           "dispatch_and_combine"]

#: Largest hidden size [-] and bytes per element [B] the traffic model accepts.
_MAX_HIDDEN = 2 ** 24
_MAX_ELEMENT_BYTES = 64.0


# ============================================================================
# Bytes of dispatch and combine
# ============================================================================

@dataclass(frozen=True)
class AllToAllTraffic:
    """Bytes one GPU moves in one dispatch (or one combine) of one MoE layer.

    Under uniform routing every GPU sends what it receives; ``received_bytes``
    of the busiest GPU grows with the imbalance (:class:`RoutingLoad`).

    Attributes
    ----------
    tokens_per_gpu : float
        Tokens each GPU routes [token].
    hidden_size : int
        h [-].
    top_k : int
        k [-].
    ep_degree : int
        GPUs in the expert-parallel group n [-].
    bytes_per_element : float
        Bytes per element on the wire [B].
    copies_per_token : float
        Copies of each token sent: k, or the expected distinct GPUs when deduplicated [-].
    sent_bytes : float
        Bytes this GPU sends to other GPUs [B].
    received_bytes : float
        Bytes it receives from other GPUs [B] (equal to ``sent_bytes``).
    local_bytes : float
        Copies that stay on this GPU [B].
    scale_up_bytes : float
        Bytes this GPU sends over its scale-up link (NVLink), forwarding included [B].
    network_bytes : float
        Bytes this GPU sends over the network [B].
    domain_size : int
        GPUs per scale-up domain [-].
    hierarchical : bool
        One network copy per destination domain, forwarded over NVLink there.
    """

    tokens_per_gpu: float
    hidden_size: int
    top_k: int
    ep_degree: int
    bytes_per_element: float
    copies_per_token: float
    sent_bytes: float
    received_bytes: float
    local_bytes: float
    scale_up_bytes: float
    network_bytes: float
    domain_size: int
    hierarchical: bool

    @property
    def token_bytes(self) -> float:
        """Bytes of one token's hidden vector [B]."""
        return self.hidden_size * self.bytes_per_element

    @property
    def remote_fraction(self) -> float:
        """Share of the copies that leave the GPU [-]."""
        total = self.sent_bytes + self.local_bytes
        return 0.0 if total == 0 else self.sent_bytes / total


def all_to_all_traffic(tokens_per_gpu, hidden_size, top_k, ep_degree, *, bytes_per_element=2.0, experts=None,
                       deduplicate=None, domain_size=None, hierarchical=False, max_domains_per_token=None,
                       scale_bytes_per_token=0.0) -> AllToAllTraffic:
    """Bytes one GPU sends in one dispatch (or combine) of an MoE layer, uniform routing.

    Each GPU routes :math:`T` tokens of :math:`h b` bytes to :math:`c` copies
    (:math:`c = k`, or the expected distinct GPUs :math:`D` of
    :func:`expected_ranks_per_token` when a token is sent once per GPU). A copy
    lands on each of the :math:`n` GPUs with probability :math:`1/n`, so

    .. math::

        S_\\text{sent} = S_\\text{received} = T\\,c\\,h\\,b\\,\\frac{n-1}{n}, \\qquad
        S_\\text{local} = T\\,c\\,h\\,b\\,\\frac{1}{n}.

    With scale-up domains of :math:`g` GPUs, a *flat* all-to-all sends the
    copies for other domains over the network (share :math:`(n-g)/n`) and the
    others over NVLink (:math:`(g-1)/n`). A *hierarchical* one (DeepEP's normal
    kernels) sends each token once to every other domain it needs, over the
    network, to the GPU with the same local index there, which forwards it over
    NVLink: network bytes :math:`T h b\\, N_d (N-1)/N` with :math:`N = n/g`
    domains and :math:`N_d` expected domains per token (capped by node-limited
    routing), scale-up bytes :math:`T h b\\, D (g-1)/g`.

    Parameters
    ----------
    tokens_per_gpu : float
        Tokens each GPU routes T [token], in [0, :data:`MAX_TOKENS`].
    hidden_size : int
        h, in [1, 2**24] [-].
    top_k : int
        Experts per token k, in [1, :data:`MAX_EXPERTS`] (and <= E) [-].
    ep_degree : int
        GPUs in the expert-parallel group n [-].
    bytes_per_element : float
        1 for FP8 dispatch, 2 for BF16 [B]; in (0, 64].
    experts : int, optional
        Routed experts E, at most :data:`MAX_EXPERTS`; needed to deduplicate.
    deduplicate : bool, optional
        Send one copy per destination GPU; default: True when ``experts`` is given.
    domain_size : int, optional
        GPUs per scale-up domain g; ``ep_degree`` (all in one domain) by default.
    hierarchical : bool
        One network copy per destination domain (needs ``experts``).
    max_domains_per_token : int, optional
        Node-limited routing: at most this many domains per token.
    scale_bytes_per_token : float
        Extra bytes per token copy (FP8 scaling factors) [B], in [0, 1e9].

    Returns
    -------
    AllToAllTraffic

    Examples
    --------
    Top-1, uniform, 8 GPUs in one node: 7/8 of the tokens leave each GPU.

    >>> t = all_to_all_traffic(1000, 4096, 1, 8)
    >>> t.sent_bytes == t.received_bytes == 1000 * 4096 * 2 * 7 / 8
    True
    """
    tokens = check_number("tokens_per_gpu", tokens_per_gpu, unit="token", minimum=0, maximum=MAX_TOKENS, scalar=True)
    hidden = check_integer("hidden_size", hidden_size, minimum=1, maximum=_MAX_HIDDEN)
    k = check_integer("top_k", top_k, minimum=1, maximum=MAX_EXPERTS)
    n = check_integer("ep_degree", ep_degree, minimum=1)
    b = check_number("bytes_per_element", bytes_per_element, unit="B", minimum=0, min_inclusive=False,
                     maximum=_MAX_ELEMENT_BYTES, scalar=True)
    scale = check_number("scale_bytes_per_token", scale_bytes_per_token, unit="B", minimum=0, maximum=1e9,
                         scalar=True)
    hierarchical = check_flag("hierarchical", hierarchical)
    if deduplicate is not None:
        deduplicate = check_flag("deduplicate", deduplicate)
    g = n if domain_size is None else check_integer("domain_size", domain_size, minimum=1)
    if n > g and n % g:
        raise NotPossible(f"ep_degree = {n} is not valid for domain_size = {g}: a group larger than one domain "
                          "must span whole domains (a multiple of domain_size)",
                          plain=f"An expert-parallel group of {n} GPUs is larger than one {g}-GPU domain, so it must "
                                f"span whole domains: a multiple of {g} GPUs.")
    g = min(g, n)
    if deduplicate is None:
        deduplicate = experts is not None
    if (deduplicate or hierarchical) and experts is None:
        raise ValueError("deduplicated and hierarchical dispatch need `experts` (the number of routed experts)")
    if experts is not None:
        experts = check_experts(experts, minimum=k)
        if experts % n:
            raise NotPossible(f"ep_degree = {n} is not valid for {experts} experts: it must divide the number of "
                              "experts (each GPU holds a whole number of experts)",
                              plain=f"{experts} experts cannot be shared evenly by {n} GPUs: each GPU holds a whole "
                                    "number of experts, so the expert-parallel group must divide the experts.")
    token_bytes = hidden * b + scale
    domains = n // g
    limit = None if max_domains_per_token is None else check_integer("max_domains_per_token",
                                                                     max_domains_per_token, minimum=1)
    if experts is not None and limit is not None and limit < domains:
        # Node-limited routing: the k experts lie among `limit` domains' experts.
        per_domain = experts // domains
        domains_hit = distinct_groups(limit, per_domain, min(k, limit * per_domain))
        ranks_hit = distinct_groups(limit * g, experts // n, min(k, limit * per_domain))
        own_domain = limit / domains
    elif experts is not None:
        domains_hit = distinct_groups(domains, experts // domains, k)
        ranks_hit = distinct_groups(n, experts // n, k)
        own_domain = domains_hit / domains
    else:
        domains_hit = ranks_hit = own_domain = None
    copies = ranks_hit if deduplicate else float(k)
    total = tokens * copies * token_bytes
    sent = total * (n - 1) / n
    local = total / n
    if hierarchical and domains > 1:
        network = tokens * token_bytes * (domains_hit - own_domain)
        scale_up = tokens * token_bytes * ranks_hit * (g - 1) / g
    else:
        network = total * (n - g) / n
        scale_up = total * (g - 1) / n
    return AllToAllTraffic(tokens_per_gpu=tokens, hidden_size=hidden, top_k=k, ep_degree=n,
                           bytes_per_element=b, copies_per_token=float(copies), sent_bytes=float(sent),
                           received_bytes=float(sent), local_bytes=float(local), scale_up_bytes=float(scale_up),
                           network_bytes=float(network), domain_size=g, hierarchical=hierarchical and domains > 1)


# ============================================================================
# Who starts the transfer: host- or GPU-initiated communication
# ============================================================================

@dataclass(frozen=True, kw_only=True)
class CommunicationPath:
    """How an all-to-all is started and synchronised, and what that costs in latency.

    Attributes
    ----------
    name : str
    description : str
    launch_latency_s : float
        Fixed cost of one all-to-all call [s].
    network_step_latency_s : float
        One network step (a put and its signal) [s].
    exchanges_counts_first : bool
        The host must learn how many tokens go where before it can post the
        transfers: one more small all-to-all (and a GPU-to-CPU wait) first.
    sources : tuple of Source
    """

    name: str
    description: str
    launch_latency_s: float
    network_step_latency_s: float
    exchanges_counts_first: bool
    sources: tuple[Source, ...]


_GIN = Source(
    title="K. Hamidouche et al., GPU-Initiated Networking for NCCL", year=2025,
    url="https://arxiv.org/abs/2511.15076",
    note="GDAKI backend (GPU posts to the NIC directly): 16.7 µs round trip for small messages on H100; "
         "one network step taken as half of it")
_DEEPEP = Source(
    title="DeepSeek-AI, DeepEP: an efficient expert-parallel communication library (V1 documentation)",
    year=2025, url="https://github.com/deepseek-ai/DeepEP/blob/main/docs/legacy.md",
    note="normal kernels wait on the CPU for the received counts; low-latency kernels are CUDA-graph "
         "compatible, send per token from the GPU with IBGDA and receive through a hook that holds no SM")


def _paths():
    entries = [
        CommunicationPath(
            name="host-initiated (NCCL)",
            description="the CPU launches a collective; a proxy thread posts the RDMA writes",
            launch_latency_s=collectives.BASE_LATENCY_S,
            network_step_latency_s=collectives.NETWORK_STEP_LATENCY_S,
            exchanges_counts_first=True, sources=(collectives.NCCL_LATENCIES["Simple"].source, _DEEPEP)),
        CommunicationPath(
            name="GPU-initiated (IBGDA)",
            description="GPU threads write work requests and ring the NIC's doorbell inside the kernel",
            launch_latency_s=0.0, network_step_latency_s=16.7e-6 / 2,
            exchanges_counts_first=False, sources=(_GIN, _DEEPEP)),
    ]
    return MappingProxyType({entry.name: entry for entry in entries})


#: Ways to start an all-to-all, by name.
COMMUNICATION_PATHS = _paths()


def communication_path(name: str) -> CommunicationPath:
    """The communication path called ``name`` (see :data:`COMMUNICATION_PATHS`).

    Parameters
    ----------
    name : str
        A key of :data:`COMMUNICATION_PATHS`.
    """
    check_choice("communication path", name, COMMUNICATION_PATHS)
    return COMMUNICATION_PATHS[name]


# ============================================================================
# Time of dispatch and combine
# ============================================================================

@dataclass(frozen=True)
class AllToAllTime:
    """Time of one dispatch (or combine) on one GPU, split by level.

    Attributes
    ----------
    traffic : AllToAllTraffic
    imbalance_factor : float
        The busiest GPU's load over the mean [-].
    scale_up : collectives.CollectivePerformance or None
        The NVLink phase (None when nothing crosses it).
    network : collectives.CollectivePerformance or None
        The network phase.
    counts_s : float
        The count exchange before the data (host-initiated only) [s].
    time_s : float
        The all-to-all: counts, then the two levels overlapped (the slower sets the pace) [s].
    path : str
    """

    traffic: AllToAllTraffic
    imbalance_factor: float
    scale_up: collectives.CollectivePerformance | None
    network: collectives.CollectivePerformance | None
    counts_s: float
    time_s: float
    path: str

    @property
    def scale_up_s(self) -> float:
        """NVLink phase [s]."""
        return 0.0 if self.scale_up is None else float(self.scale_up.time_s)

    @property
    def network_s(self) -> float:
        """Network phase [s]."""
        return 0.0 if self.network is None else float(self.network.time_s)

    @property
    def bottleneck(self) -> str:
        """``"network"`` or ``"scale-up"``: the level that sets the time."""
        return "network" if self.network_s >= self.scale_up_s and self.network is not None else "scale-up"

    @property
    def bottleneck_bandwidth_bytes_per_s(self) -> float:
        """Bytes over the bottleneck level divided by the time, as DeepEP reports it [B/s]."""
        level = self.traffic.network_bytes if self.bottleneck == "network" else self.traffic.scale_up_bytes
        return level * self.imbalance_factor / self.time_s if self.time_s > 0 else 0.0


def _link_or_variant(name):
    """The link variant called ``name`` (H800's NVLink), else the catalog link."""
    return VARIANT_LINKS[name] if name in VARIANT_LINKS else catalog.link(name)


def check_imbalance(imbalance_factor, ep_degree):
    """The busiest GPU's load over the mean: at least 1, at most n (everything on one GPU)."""
    return check_number("imbalance_factor", imbalance_factor, minimum=1, maximum=ep_degree * (1 + 1e-12),
                        scalar=True)


def _link_rate(link, argument):
    spec = resolve(argument, link, catalog.Link, (*catalog.LINKS, *VARIANT_LINKS), lookup=_link_or_variant)
    return collectives.link_parameters(spec)


def _phase(bytes_sent, ranks, params, path, step_latency_s):
    """One level as a direct all-to-all of `ranks` peers whose busiest member sends `bytes_sent`."""
    if bytes_sent <= 0 or ranks < 2:
        return None
    size = bytes_sent * ranks / (ranks - 1)     # the all-to-all's S: its busiest rank sends S(n-1)/n
    return collectives.collective_performance(
        "all_to_all", size, ranks, params["bandwidth_bytes_per_s"], step_latency_s, "direct",
        base_latency_s=path.launch_latency_s, efficiency=params["efficiency"])


def expert_parallel_all_to_all(traffic, *, scale_up_link="NVLink 4", network_link="InfiniBand NDR",
                               imbalance_factor=1.0, path="host-initiated (NCCL)",
                               scale_up_bandwidth_bytes_per_s=None,
                               network_bandwidth_bytes_per_s=None) -> AllToAllTime:
    """Time of one dispatch or combine, from its bytes and the α-β model of the links.

    Each level is a direct all-to-all in :func:`interconnect_lab.collectives.collective_performance`
    (one step, the busiest GPU's bytes over its link at the documented
    efficiency): the NVLink level among the g GPUs of a domain, the network
    level among the N domains (hierarchical) or the n−g remote GPUs (flat),
    over each GPU's own network port. The busiest receiver carries
    ``imbalance_factor`` times the mean, and the two levels run at once:

    .. math:: t = t_\\text{counts} + \\max\\big(t_\\text{NVLink}(\\iota S_\\text{up}),\\; t_\\text{net}(\\iota S_\\text{net})\\big)

    A host-initiated path pays NCCL's launch latency and network step and,
    first, a count exchange (a small all-to-all of 4 bytes per peer); a
    GPU-initiated one pays neither launch nor count exchange and a shorter step.

    Parameters
    ----------
    traffic : AllToAllTraffic
        From :func:`all_to_all_traffic`.
    scale_up_link, network_link : str or catalog.Link
        Catalog links (or link variants, :mod:`interconnect_lab.catalog.variants`): the
        GPU's NVLink and one network port.
    imbalance_factor : float
        Busiest GPU's load over the mean, in [1, n] (n: everything on one GPU) [-].
    path : str
        A key of :data:`COMMUNICATION_PATHS`.
    scale_up_bandwidth_bytes_per_s, network_bandwidth_bytes_per_s : float, optional
        Override the links' per-direction rates [B/s], in [1, 1e18].

    Returns
    -------
    AllToAllTime

    Examples
    --------
    >>> t = all_to_all_traffic(4096, 7168, 8, 8, bytes_per_element=1.0)
    >>> round(expert_parallel_all_to_all(t).time_s * 1e6)
    594
    """
    if not isinstance(traffic, AllToAllTraffic):
        raise TypeError(f"traffic must be an AllToAllTraffic (from all_to_all_traffic), got {type(traffic).__name__}")
    iota = check_imbalance(imbalance_factor, traffic.ep_degree)
    route = communication_path(path)
    up = dict(_link_rate(scale_up_link, "scale_up_link"))
    net = dict(_link_rate(network_link, "network_link"))
    for name, value, params in (("scale_up_bandwidth_bytes_per_s", scale_up_bandwidth_bytes_per_s, up),
                                ("network_bandwidth_bytes_per_s", network_bandwidth_bytes_per_s, net)):
        if value is not None:
            params["bandwidth_bytes_per_s"] = check_number(
                name, value, unit="B/s", minimum=MIN_BANDWIDTH_BYTES_PER_S,
                maximum=MAX_BANDWIDTH_BYTES_PER_S, scalar=True)
    n, g = traffic.ep_degree, traffic.domain_size
    domains = n // g
    scale_up = _phase(traffic.scale_up_bytes * iota, g, up, route, up["latency_s"])
    peers = domains if traffic.hierarchical else n - g + 1
    network = _phase(traffic.network_bytes * iota, peers, net, route, route.network_step_latency_s)
    counts = 0.0
    if route.exchanges_counts_first and n > 1:
        counts_params = net if domains > 1 else up
        step = route.network_step_latency_s if domains > 1 else up["latency_s"]
        counts = float(collectives.collective_performance(
            "all_to_all", 4.0 * n, n, counts_params["bandwidth_bytes_per_s"], step, "direct",
            base_latency_s=route.launch_latency_s, efficiency=counts_params["efficiency"]).time_s)
    level_times = [float(r.time_s) for r in (scale_up, network) if r is not None]
    time = counts + (max(level_times) if level_times else 0.0)
    return AllToAllTime(traffic=traffic, imbalance_factor=iota, scale_up=scale_up, network=network,
                        counts_s=counts, time_s=time, path=route.name)


def fp8_scale_bytes(hidden_size, block=128, scale_bytes=4.0):
    """Bytes of FP8 scaling factors per token: one 4-byte scale per ``block`` elements [B].

    DeepSeek-V3 quantises activations in 1 x 128 tiles with one FP32 scale each (§3.3.2).

    Parameters
    ----------
    hidden_size : int
        Elements per token h, in [1, 2**24] [-].
    block : int
        Elements that share one scale, >= 1 [-].
    scale_bytes : float
        Bytes of one scale, in (0, 64] [B].

    Examples
    --------
    >>> fp8_scale_bytes(7168)
    224.0
    """
    hidden = check_integer("hidden_size", hidden_size, minimum=1, maximum=_MAX_HIDDEN)
    block = check_integer("block", block, minimum=1)
    scale_bytes = check_number("scale_bytes", scale_bytes, unit="B", minimum=0, min_inclusive=False,
                               maximum=_MAX_ELEMENT_BYTES, scalar=True)
    return float(scale_bytes * math.ceil(hidden / block))


def dispatch_and_combine(tokens_per_gpu, hidden_size, top_k, ep_degree, *, experts=None, domain_size=8,
                         hierarchical=False, max_domains_per_token=None, dispatch_bytes_per_element=1.0,
                         combine_bytes_per_element=2.0, scale_up_link="NVLink 4", network_link="InfiniBand NDR",
                         imbalance_factor=1.0, path="host-initiated (NCCL)", scale_up_bandwidth_bytes_per_s=None,
                         network_bandwidth_bytes_per_s=None):
    """The dispatch and the combine of one MoE layer: :func:`all_to_all_traffic` then :func:`expert_parallel_all_to_all`.

    The dispatch carries FP8 values with their scales (:func:`fp8_scale_bytes`) when
    ``dispatch_bytes_per_element`` is below 2; the combine carries BF16 by default.

    Parameters
    ----------
    tokens_per_gpu, hidden_size, top_k, ep_degree, experts, domain_size, hierarchical, max_domains_per_token :
        As for :func:`all_to_all_traffic`.
    dispatch_bytes_per_element, combine_bytes_per_element : float
        Bytes per element on the wire of the dispatch (FP8: 1) and of the combine (BF16: 2) [B], in (0, 64].
    scale_up_link, network_link, imbalance_factor, path, scale_up_bandwidth_bytes_per_s, network_bandwidth_bytes_per_s :
        As for :func:`expert_parallel_all_to_all`.

    Returns
    -------
    (AllToAllTime, AllToAllTime)
        Dispatch, combine.

    Examples
    --------
    >>> d, c = dispatch_and_combine(128, 7168, 8, 64, path="GPU-initiated (IBGDA)")
    >>> round(d.time_s * 1e6), round(c.time_s * 1e6)
    (146, 276)
    """
    dispatch_bytes_per_element = check_number("dispatch_bytes_per_element", dispatch_bytes_per_element, unit="B",
                                              minimum=0, min_inclusive=False, maximum=_MAX_ELEMENT_BYTES, scalar=True)
    combine_bytes_per_element = check_number("combine_bytes_per_element", combine_bytes_per_element, unit="B",
                                             minimum=0, min_inclusive=False, maximum=_MAX_ELEMENT_BYTES, scalar=True)

    def one(bytes_per_element):
        scale = fp8_scale_bytes(hidden_size) if bytes_per_element < 2 else 0.0
        traffic = all_to_all_traffic(tokens_per_gpu, hidden_size, top_k, ep_degree, bytes_per_element=bytes_per_element,
                                     experts=experts, domain_size=domain_size, hierarchical=hierarchical,
                                     max_domains_per_token=max_domains_per_token, scale_bytes_per_token=scale)
        return expert_parallel_all_to_all(traffic, scale_up_link=scale_up_link, network_link=network_link,
                                          imbalance_factor=imbalance_factor, path=path,
                                          scale_up_bandwidth_bytes_per_s=scale_up_bandwidth_bytes_per_s,
                                          network_bandwidth_bytes_per_s=network_bandwidth_bytes_per_s)

    return one(dispatch_bytes_per_element), one(combine_bytes_per_element)
