"""Mixture of experts: expert parallelism and the all-to-all traffic it makes.

A mixture-of-experts (MoE) layer replaces a transformer's one MLP with many
*experts* and a router that sends every token to its ``top_k`` best experts.
With *expert parallelism* (EP) the experts are spread over ``ep_degree`` GPUs,
so every MoE layer moves tokens twice:

- **dispatch**: each GPU sends each of its tokens' hidden vectors to the GPUs
  that hold the chosen experts (an all-to-all);
- **combine**: the experts' outputs travel back and are summed with the
  router's weights (another all-to-all, the same bytes in reverse).

This module counts those bytes (:func:`all_to_all_traffic`), draws skewed
routing with a seed (:func:`routing_load`), times the two all-to-alls on a
scale-up domain and a network with the α-β model of
:mod:`interconnect_lab.collectives` (:func:`expert_parallel_all_to_all`), flat
or hierarchical (NVLink inside the domain, one network copy per destination
domain, as DeepEP does), host- or GPU-initiated (:data:`COMMUNICATION_PATHS`),
and puts compute and communication together into the time of one MoE layer
(:func:`moe_layer_step`).

The model's assumptions, stated once: destinations are uniformly random unless
a routing draw says otherwise; every GPU has its link to itself (NVSwitch, a
non-blocking fat tree); the busiest receiver sets the pace of an all-to-all.

Examples
--------
DeepSeek-V3's layer on 64 H800 (8 nodes of 8), 4,096 tokens per GPU:

>>> from interconnect_lab import moe
>>> model = moe.moe_model("DeepSeek-V3")
>>> traffic = moe.all_to_all_traffic(4096, model.hidden_size, model.top_k, 64, experts=model.experts,
...                                  bytes_per_element=1.0, domain_size=8, hierarchical=True,
...                                  max_domains_per_token=model.max_nodes_per_token)
>>> round(traffic.network_bytes / 1e6, 1), round(traffic.scale_up_bytes / 1e6, 1)
(91.9, 189.1)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from types import MappingProxyType

import numpy as np

from . import catalog, collectives
from .catalog.variants import VARIANT_GPUS, VARIANT_LINKS
from .collectives.model import MAX_BANDWIDTH_BYTES_PER_S, MIN_BANDWIDTH_BYTES_PER_S
from ._validation import check_choice, check_flag, check_integer, check_number
from .sources import Source
from .utilization import StepTime, step_time

__all__ = [
    "MoEModel", "MOE_MODELS", "moe_model",
    "expected_ranks_per_token", "AllToAllTraffic", "all_to_all_traffic",
    "zipf_expert_shares", "RoutingLoad", "routing_load",
    "CommunicationPath", "COMMUNICATION_PATHS", "communication_path",
    "AllToAllTime", "expert_parallel_all_to_all",
    "MoELayerStep", "moe_layer_step", "incast_fan_in", "fp8_scale_bytes", "dispatch_and_combine",
    "MAX_EXPERTS", "MAX_TOKENS",
]

from .moe_models import DEEPSEEK_V3, MIXTRAL, MOE_MODELS, MoEModel, moe_model  # noqa: F401


#: Most routed experts a layer may have [-]: 256 times DeepSeek-V3's 256. Counts of experts size
#: arrays (one share per expert) and binomial coefficients, so they need a bound.
MAX_EXPERTS = 2 ** 16

#: Most tokens one GPU (or a group, in :func:`routing_load`) may route at once [token]; with hidden
#: sizes up to 2**24 and 64-byte elements every byte count stays far from overflow.
MAX_TOKENS = 1e15

#: Largest hidden size [-] and bytes per element [B] the traffic model accepts.
_MAX_HIDDEN = 2 ** 24
_MAX_ELEMENT_BYTES = 64.0


# ============================================================================
# Bytes of dispatch and combine
# ============================================================================

def _distinct_groups(groups, members_per_group, top_k):
    """Expected groups hit when top_k distinct members are drawn uniformly from groups x members."""
    total = groups * members_per_group
    if top_k > total:
        raise ValueError(f"top_k = {top_k} is not valid: it must be <= the {total} experts to choose from")
    if top_k <= 64:
        # Exact: the binomials of a few choices among at most MAX_EXPERTS are small integers.
        missed = math.comb(total - members_per_group, top_k) / math.comb(total, top_k)
    elif top_k > total - members_per_group:
        missed = 0.0
    else:
        # C(T - m, k) / C(T, k) as a product of k ratios: the binomials themselves would have
        # tens of thousands of digits.
        i = np.arange(top_k, dtype=float)
        missed = float(np.prod((total - members_per_group - i) / (total - i)))
    return groups * (1.0 - missed)


def _check_experts(experts, minimum=1):
    return check_integer("experts", experts, minimum=minimum, maximum=MAX_EXPERTS)


def expected_ranks_per_token(experts, top_k, ep_degree):
    """Expected number of distinct GPUs a token's ``top_k`` experts lie on.

    With :math:`E` experts spread evenly over :math:`n` GPUs and :math:`k`
    distinct experts chosen uniformly at random,

    .. math:: D = n \\left(1 - \\binom{E - E/n}{k} \\Big/ \\binom{E}{k}\\right),

    which is 1 for :math:`n = 1` or :math:`k = 1` and at most :math:`\\min(k, n)`.
    A dispatch that sends one copy per GPU (not per expert) sends :math:`D`
    copies of each token.

    Parameters
    ----------
    experts : int
        Routed experts E, in [1, :data:`MAX_EXPERTS`] [-].
    top_k : int
        Experts per token k, <= E [-].
    ep_degree : int
        GPUs holding the experts n; must divide E [-].

    Returns
    -------
    float
        Expected distinct GPUs per token [-].

    Examples
    --------
    DeepSeek-V3 (256 experts, top-8) on 64 GPUs:

    >>> round(expected_ranks_per_token(256, 8, 64), 2)
    7.68
    """
    experts = _check_experts(experts)
    top_k = check_integer("top_k", top_k, minimum=1, maximum=experts)
    ep = check_integer("ep_degree", ep_degree, minimum=1)
    if experts % ep:
        raise ValueError(f"ep_degree = {ep} is not valid for {experts} experts: it must divide the number of "
                         "experts (each GPU holds a whole number of experts)")
    return _distinct_groups(ep, experts // ep, top_k)


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
        raise ValueError(f"ep_degree = {n} is not valid for domain_size = {g}: a group larger than one domain "
                         "must span whole domains (a multiple of domain_size)")
    g = min(g, n)
    if deduplicate is None:
        deduplicate = experts is not None
    if (deduplicate or hierarchical) and experts is None:
        raise ValueError("deduplicated and hierarchical dispatch need `experts` (the number of routed experts)")
    if experts is not None:
        experts = _check_experts(experts, minimum=k)
        if experts % n:
            raise ValueError(f"ep_degree = {n} is not valid for {experts} experts: it must divide the number of "
                             "experts (each GPU holds a whole number of experts)")
    token_bytes = hidden * b + scale
    domains = n // g
    limit = None if max_domains_per_token is None else check_integer("max_domains_per_token",
                                                                     max_domains_per_token, minimum=1)
    if experts is not None and limit is not None and limit < domains:
        # Node-limited routing: the k experts lie among `limit` domains' experts.
        per_domain = experts // domains
        domains_hit = _distinct_groups(limit, per_domain, min(k, limit * per_domain))
        ranks_hit = _distinct_groups(limit * g, experts // n, min(k, limit * per_domain))
        own_domain = limit / domains
    elif experts is not None:
        domains_hit = _distinct_groups(domains, experts // domains, k)
        ranks_hit = _distinct_groups(n, experts // n, k)
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
# Skewed routing
# ============================================================================

def zipf_expert_shares(experts, exponent):
    """Share of token copies each expert gets when popularity follows Zipf's law.

    .. math:: p_e = \\frac{e^{-s}}{\\sum_{j=1}^{E} j^{-s}}, \\qquad e = 1 \\dots E

    :math:`s = 0` is uniform routing; larger :math:`s` concentrates tokens on
    a few experts.

    Parameters
    ----------
    experts : int
        E, in [1, :data:`MAX_EXPERTS`] [-].
    exponent : float
        s, in [0, 10] [-].

    Returns
    -------
    numpy.ndarray
        Shares, most popular first, summing to 1 [-].

    Examples
    --------
    >>> zipf_expert_shares(4, 0.0).tolist()
    [0.25, 0.25, 0.25, 0.25]
    """
    experts = _check_experts(experts)
    s = check_number("exponent", exponent, minimum=0, maximum=10, scalar=True)
    weights = np.arange(1, experts + 1, dtype=float) ** -s
    return weights / weights.sum()


@dataclass(frozen=True)
class RoutingLoad:
    """Where one batch's token copies went: per expert, per GPU, and how uneven that is.

    Attributes
    ----------
    tokens_per_expert : numpy.ndarray
        Copies each expert receives [token].
    tokens_per_gpu : numpy.ndarray
        Copies each GPU receives (its experts summed) [token].
    capacity_per_expert : float or None
        Copies an expert accepts with a capacity factor [token].
    dropped_tokens : float
        Copies over capacity (dropped or re-routed) [token].
    seed : int
        The draw's seed.
    """

    tokens_per_expert: np.ndarray
    tokens_per_gpu: np.ndarray
    capacity_per_expert: float | None
    dropped_tokens: float
    seed: int

    @property
    def mean_tokens_per_gpu(self) -> float:
        """Copies per GPU if routing were perfectly even [token]."""
        return float(self.tokens_per_gpu.mean())

    @property
    def imbalance_factor(self) -> float:
        """Busiest GPU's copies over the mean, >= 1 [-]: the all-to-all and expert compute stretch by it."""
        mean = self.mean_tokens_per_gpu
        return 1.0 if mean == 0 else float(self.tokens_per_gpu.max() / mean)

    @property
    def dropped_fraction(self) -> float:
        """Share of copies over capacity [-]."""
        total = float(self.tokens_per_expert.sum())
        return 0.0 if total == 0 else self.dropped_tokens / total


def routing_load(tokens, experts, top_k, ep_degree, *, skew=0.0, seed=0, capacity_factor=None) -> RoutingLoad:
    """Draw where ``tokens x top_k`` copies go when expert popularity is skewed.

    Copies pick experts independently with the Zipf shares of
    :func:`zipf_expert_shares` (a multinomial draw; a token's k choices are
    not forced to differ, which matters only when k is close to E); experts
    are placed on the GPUs in a random order (experts e·n/E ... on GPU e),
    so the hottest experts need not share a GPU. With a capacity factor
    :math:`C`, each expert accepts at most :math:`\\lceil C\\,Tk/E \\rceil`
    copies (GShard, Switch Transformer) and the rest are dropped.

    Parameters
    ----------
    tokens : int
        Tokens routed, over the whole group [token]; the copies, tokens x
        top_k, at most 2**53 (every count exact).
    experts : int
        E, in [1, :data:`MAX_EXPERTS`] [-].
    top_k : int
        k [-].
    ep_degree : int
        GPUs n, dividing E [-].
    skew : float
        Zipf exponent s, in [0, 10]; 0 is uniform [-].
    seed : int
        Seed of the draw: the same seed gives the same loads.
    capacity_factor : float, optional
        C, in [1, E] (at C = E an expert can take every copy) [-].

    Returns
    -------
    RoutingLoad

    Examples
    --------
    >>> load = routing_load(65536, 64, 2, 8, skew=0.0, seed=1)
    >>> 1.0 <= load.imbalance_factor < 1.02
    True
    """
    tokens = check_integer("tokens", tokens, minimum=0, unit="token")
    experts = _check_experts(experts)
    top_k = check_integer("top_k", top_k, minimum=1, maximum=experts)
    if tokens * top_k > 2 ** 53:
        raise ValueError(f"tokens = {tokens} is not valid with top_k = {top_k}: the copies, tokens x top_k, "
                         "must be <= 2**53 to be counted exactly")
    n = check_integer("ep_degree", ep_degree, minimum=1)
    if experts % n:
        raise ValueError(f"ep_degree = {n} is not valid for {experts} experts: it must divide the number of "
                         "experts (each GPU holds a whole number of experts)")
    seed = check_integer("seed", seed, minimum=0)
    skew = check_number("skew", skew, minimum=0, maximum=10, scalar=True)
    factor = None if capacity_factor is None else check_number("capacity_factor", capacity_factor, minimum=1,
                                                               maximum=experts, scalar=True)
    shares = zipf_expert_shares(experts, skew)
    rng = np.random.default_rng(seed)
    counts = rng.multinomial(tokens * top_k, shares).astype(float)
    placement = rng.permutation(experts)          # expert placement[i] sits in slot i
    per_gpu = counts[placement].reshape(n, experts // n).sum(axis=1)
    capacity = None
    dropped = 0.0
    if factor is not None:
        capacity = float(math.ceil(factor * tokens * top_k / experts))
        dropped = float(np.maximum(counts - capacity, 0).sum())
    return RoutingLoad(tokens_per_expert=counts, tokens_per_gpu=per_gpu, capacity_per_expert=capacity,
                       dropped_tokens=dropped, seed=seed)


def incast_fan_in(ep_degree, domain_size=None, *, hierarchical=False):
    """Senders that write to one GPU over the network at the same moment of an all-to-all [-].

    A flat all-to-all makes every GPU the target of all n−1 others at once,
    n−g of them across the network; a hierarchical one only of the N−1 other
    domains' same-index GPUs. Skew does not add senders; it makes one
    receiver's share larger (:attr:`RoutingLoad.imbalance_factor`).

    Examples
    --------
    >>> incast_fan_in(256, 8), incast_fan_in(256, 8, hierarchical=True)
    (248, 31)
    """
    n = check_integer("ep_degree", ep_degree, minimum=1)
    g = n if domain_size is None else min(check_integer("domain_size", domain_size, minimum=1), n)
    return (n // g - 1) if check_flag("hierarchical", hierarchical) else n - g


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
    """The communication path called ``name`` (see :data:`COMMUNICATION_PATHS`)."""
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
    scale_up : collectives.CollectiveResult or None
        The NVLink phase (None when nothing crosses it).
    network : collectives.CollectiveResult or None
        The network phase.
    counts_s : float
        The count exchange before the data (host-initiated only) [s].
    time_s : float
        The all-to-all: counts, then the two levels overlapped (the slower sets the pace) [s].
    path : str
    """

    traffic: AllToAllTraffic
    imbalance_factor: float
    scale_up: collectives.CollectiveResult | None
    network: collectives.CollectiveResult | None
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


def _resolve_link(link, argument="link"):
    """A catalog link or link variant by name, or the Link given."""
    if isinstance(link, catalog.Link):
        return link
    if not isinstance(link, str):
        raise TypeError(f"{argument} must be a catalog link's name or a catalog.Link, got {link!r}")
    return VARIANT_LINKS[link] if link in VARIANT_LINKS else catalog.link(link)


def _resolve_gpu(gpu):
    """A catalog GPU or GPU variant by name, or the GPU given."""
    if isinstance(gpu, catalog.GPU):
        return gpu
    if not isinstance(gpu, str):
        raise TypeError(f"gpu must be a catalog GPU's name or a catalog.GPU, got {gpu!r}")
    return VARIANT_GPUS[gpu] if gpu in VARIANT_GPUS else catalog.gpu(gpu)


def _check_imbalance(imbalance_factor, ep_degree):
    """The busiest GPU's load over the mean: at least 1, at most n (everything on one GPU)."""
    return check_number("imbalance_factor", imbalance_factor, minimum=1, maximum=ep_degree * (1 + 1e-12),
                        scalar=True)


def _link_rate(link, argument):
    return collectives.link_parameters(_resolve_link(link, argument))


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
    iota = _check_imbalance(imbalance_factor, traffic.ep_degree)
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
    ``hidden_size`` is in [1, 2**24], ``block`` >= 1 and ``scale_bytes`` in (0, 64] [B].

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
    Parameters are those of the two functions.

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


# ============================================================================
# One MoE layer: experts' compute, dispatch and combine
# ============================================================================

@dataclass(frozen=True)
class MoELayerStep:
    """One MoE layer on one GPU: attention and experts, dispatch and combine.

    Attributes
    ----------
    model : str
    tokens_per_gpu : float
    ep_degree, domain_size : int
    attention_s : float
        Attention, router and shared experts [s].
    experts_s : float
        Routed experts on the busiest GPU [s].
    dispatch, combine : AllToAllTime
    step : StepTime
        Compute against communication with the chosen overlap.
    passes : int
        1 for a forward pass, 3 for forward and backward (compute), with 2
        all-to-alls per pass direction.
    """

    model: str
    tokens_per_gpu: float
    ep_degree: int
    domain_size: int
    attention_s: float
    experts_s: float
    dispatch: AllToAllTime
    combine: AllToAllTime
    step: StepTime
    passes: int

    @property
    def compute_s(self) -> float:
        """Compute of the layer [s]."""
        return float(self.step.compute_s)

    @property
    def communication_s(self) -> float:
        """Dispatch and combine (twice each with the backward pass) [s]."""
        return float(self.step.communication_s)

    @property
    def communication_share(self) -> float:
        """Exposed communication over the layer's time [-]."""
        return float(self.step.exposed_communication_s / self.step.step_s)

    @property
    def compute_to_communication(self) -> float:
        """Compute time over communication time (DeepSeek-V3's ratio) [-]; inf with no communication (one GPU)."""
        return float(self.compute_s / self.communication_s) if self.communication_s else math.inf


def moe_layer_step(model, tokens_per_gpu, ep_degree, *, gpu="H100 SXM", domain_size=8,
                   scale_up_link=None, network_link="InfiniBand NDR", imbalance_factor=1.0,
                   dispatch_bytes_per_element=1.0, combine_bytes_per_element=2.0, hierarchical=True,
                   path="host-initiated (NCCL)", flop_per_s=None, communication_sm_fraction=0.0,
                   overlap_fraction=0.0, backward=False) -> MoELayerStep:
    """Time of one MoE layer on one GPU of an expert-parallel group.

    Compute runs at ``flop_per_s`` (the GPU's measured matmul rate by
    default) on the SMs left over by communication kernels:

    .. math::

        t_\\text{compute} = p\\,\\frac{T (F_\\text{local} + \\iota F_\\text{experts})}
                                 {R\\,(1 - \\sigma)}, \\qquad
        t_\\text{comm} = q\\,(t_\\text{dispatch} + t_\\text{combine})

    with :math:`F` the forward FLOPs per token of
    :meth:`MoEModel.layer_forward_flops_per_token`, :math:`\\iota` the
    imbalance, a share :math:`\\sigma` of the GPU's SMs given to communication
    kernels,
    and :math:`p = 1, q = 1` forward or :math:`p = 3, q = 2` forward and
    backward. :func:`~interconnect_lab.utilization.step_time` then hides
    ``overlap_fraction`` of the communication under compute (DeepSeek's
    DualPipe overlaps nearly all of it).

    Parameters
    ----------
    model : MoEModel or str
    tokens_per_gpu : float
        Tokens each GPU routes [token], in (0, :data:`MAX_TOKENS`].
    ep_degree : int
        n [-].
    gpu : str or catalog.GPU
        Catalog GPU or GPU variant (``"H800 SXM"``).
    domain_size : int
        GPUs per scale-up domain g [-].
    scale_up_link : str, optional
        Catalog NVLink generation; the GPU's own by default.
    network_link : str
        Catalog network port, one per GPU.
    imbalance_factor : float
        In [1, n] [-].
    dispatch_bytes_per_element, combine_bytes_per_element : float
        FP8 dispatch (1, plus one 4-byte scale per 128 elements), BF16 combine (2) [B].
    hierarchical : bool
    path : str
        Key of :data:`COMMUNICATION_PATHS`.
    flop_per_s : float, optional
        Compute rate [FLOP/s], in [1, 1e21].
    communication_sm_fraction : float
        Share of the GPU's SMs the communication kernels hold, in [0, 1) [-]
        (DeepSeek-V3: 20 of 132).
    overlap_fraction : float
        [0, 1] [-].
    backward : bool
        Forward and backward (training) instead of forward only.

    Returns
    -------
    MoELayerStep

    Examples
    --------
    DeepSeek-V3 on 64 H800 (8 NVLinks per GPU), one InfiniBand NDR port each:

    >>> step = moe_layer_step("DeepSeek-V3", 4096, 64, gpu="H800 SXM", network_link="InfiniBand NDR")
    >>> round(step.compute_to_communication, 2)
    1.02
    """
    if isinstance(model, str):
        model = moe_model(model)
    if not isinstance(model, MoEModel):
        raise TypeError(f"model must be an MoEModel or its name, got {type(model).__name__}")
    spec = _resolve_gpu(gpu)
    scale_up_link = spec.scale_up_link if scale_up_link is None else scale_up_link
    n = check_integer("ep_degree", ep_degree, minimum=1)
    sms = check_number("communication_sm_fraction", communication_sm_fraction, minimum=0, maximum=1,
                       max_inclusive=False, scalar=True)
    rate = (spec.measured_matmul_flop_per_s or spec.bf16_flop_per_s) if flop_per_s is None else \
        check_number("flop_per_s", flop_per_s, unit="FLOP/s", minimum=1, maximum=1e21, scalar=True)
    iota = _check_imbalance(imbalance_factor, n)
    tokens = check_number("tokens_per_gpu", tokens_per_gpu, unit="token", minimum=0, min_inclusive=False,
                          maximum=MAX_TOKENS, scalar=True)
    backward = check_flag("backward", backward)
    overlap_fraction = check_number("overlap_fraction", overlap_fraction, minimum=0, maximum=1, scalar=True)

    dispatch, combine = dispatch_and_combine(
        tokens, model.hidden_size, model.top_k, n, experts=model.experts, domain_size=domain_size,
        hierarchical=hierarchical, max_domains_per_token=model.max_nodes_per_token,
        dispatch_bytes_per_element=dispatch_bytes_per_element, combine_bytes_per_element=combine_bytes_per_element,
        scale_up_link=scale_up_link, network_link=network_link, imbalance_factor=iota, path=path)
    local, routed = model.layer_forward_flops_per_token()
    passes, directions = (3, 2) if backward else (1, 1)
    usable = rate * (1 - sms)
    attention = passes * tokens * local / usable
    experts = passes * tokens * iota * routed / usable
    communication = directions * (dispatch.time_s + combine.time_s)
    step = step_time(attention + experts, communication, overlap_fraction)
    return MoELayerStep(model=model.name, tokens_per_gpu=tokens, ep_degree=n, domain_size=min(domain_size, n),
                        attention_s=float(attention), experts_s=float(experts), dispatch=dispatch, combine=combine,
                        step=step, passes=passes)

