"""Traffic and time of an MoE layer's dispatch and combine all-to-alls.

Bytes one GPU sends and the destinations of its tokens (:func:`all_to_all_traffic`,
with FP8 scales from :func:`fp8_scale_bytes`), and the time of the two all-to-alls
as an expert-parallel kernel of the collective model runs them on the group's
NVLink domains and ports (:func:`expert_parallel_all_to_all`,
:func:`dispatch_and_combine`, :func:`expert_parallel_system`): no all-to-all is
priced here, only counted.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass

from .. import catalog, collectives
from .._deprecation import deprecated_attribute
from .._lookup import resolve
from .._validation import NotPossible, check_choice, check_flag, check_integer, check_number
from ..catalog.variants import VARIANT_GPUS, VARIANT_LINKS
from ..collectives.model import MAX_BANDWIDTH_BYTES_PER_S, MIN_BANDWIDTH_BYTES_PER_S
from ..sources import Source
from ._legacy import legacy_kernel
from .routing import MAX_EXPERTS, MAX_TOKENS, check_experts, distinct_groups

__all__ = ["AllToAllTraffic", "all_to_all_traffic", "fp8_scale_bytes", "AllToAllTime", "expert_parallel_system",
           "expert_parallel_all_to_all", "dispatch_and_combine", "NODE_LIMITED_ROUTING"]

#: Node-limited routing: DeepSeek-V3 picks a token's nodes by the best scores of the experts on each,
#: then its experts among those nodes' experts, so every chosen node holds at least one of them.
NODE_LIMITED_ROUTING = Source(
    title="DeepSeek-AI, DeepSeek-V3 Technical Report", year=2024, url="https://arxiv.org/abs/2412.19437",
    locator="§2.1.2 (node-limited routing)",
    note="'each token will be sent to at most M nodes, which are selected according to the sum of the highest "
         "K_r/M affinity scores of the experts distributed on each node'; DeepEP's benchmark routes the same "
         "way (tests/test_internode.py: group score = the best expert score, top-4 groups, then top-8 experts)")

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
    scale_bytes_per_token : float
        FP8 scaling factors each token copy carries [B].
    ranks_per_token : float
        Distinct GPUs a token's experts lie on, its own GPU included D [-].
    domains_per_token : float
        Distinct NVLink domains they lie in, its own included [-].
    remote_domains_per_token : float
        The same without its own domain [-].
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
    scale_bytes_per_token: float = 0.0
    ranks_per_token: float = 1.0
    domains_per_token: float = 1.0
    remote_domains_per_token: float = 0.0

    @property
    def token_bytes(self) -> float:
        """Bytes of one token's hidden vector [B]."""
        return self.hidden_size * self.bytes_per_element

    def expert_parallel_traffic(self, operation="dispatch", imbalance_factor=1.0):
        """The counts the collective model prices (:class:`interconnect_lab.collectives.ExpertParallelTraffic`).

        Parameters
        ----------
        operation : str
            ``"dispatch"`` or ``"combine"``.
        imbalance_factor : float
            Busiest GPU's load over the mean, in [1, n] [-].

        Returns
        -------
        interconnect_lab.collectives.ExpertParallelTraffic
        """
        return collectives.ExpertParallelTraffic(
            tokens=self.tokens_per_gpu, payload_bytes=self.token_bytes, scale_bytes=self.scale_bytes_per_token,
            selections_per_token=float(self.top_k), ranks_per_token=self.ranks_per_token,
            domains_per_token=self.domains_per_token, remote_domains_per_token=self.remote_domains_per_token,
            operation=operation, imbalance_factor=check_imbalance(imbalance_factor, self.ep_degree))

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
    domains and :math:`N_d` expected domains per token, scale-up bytes
    :math:`T h b\\, D (g-1)/g`. With node-limited routing (at most :math:`M`
    domains per token, chosen by their experts' best scores, as DeepSeek-V3
    does) every chosen domain holds one of the token's experts, so
    :math:`N_d = \\min(M, k)` (:data:`NODE_LIMITED_ROUTING`).

    Without ``experts`` the :math:`k` choices are taken as independent and uniform
    over the GPUs, so :math:`D = n\\,(1 - (1 - 1/n)^k)` and likewise for domains.

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
        # Node-limited routing: the domains are chosen by their best experts' scores, so each chosen
        # domain holds at least one of the token's k experts, which lie among those domains' experts.
        per_domain = experts // domains
        domains_hit = float(min(limit, k))
        ranks_hit = max(distinct_groups(limit * g, experts // n, min(k, limit * per_domain)), domains_hit)
        own_domain = limit / domains
    elif experts is not None:
        domains_hit = distinct_groups(domains, experts // domains, k)
        ranks_hit = distinct_groups(n, experts // n, k)
        own_domain = domains_hit / domains
    else:
        # Experts unknown: each of the k choices independent and uniform over the GPUs.
        ranks_hit = n * -math.expm1(k * math.log1p(-1 / n)) if n > 1 else 1.0
        domains_hit = domains * -math.expm1(k * math.log1p(-1 / domains)) if domains > 1 else 1.0
        own_domain = domains_hit / domains
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
                           network_bytes=float(network), domain_size=g, hierarchical=hierarchical and domains > 1,
                           scale_bytes_per_token=float(scale), ranks_per_token=float(ranks_hit),
                           domains_per_token=float(domains_hit),
                           remote_domains_per_token=float(max(domains_hit - own_domain, 0.0)))




# ============================================================================
# Time of dispatch and combine: an expert-parallel kernel of the collective model
# ============================================================================

@dataclass(frozen=True)
class AllToAllTime:
    """Time of one dispatch (or combine) on one GPU, as the collective model prices its kernel.

    Attributes
    ----------
    traffic : AllToAllTraffic
        What the routing sends.
    exchange : interconnect_lab.collectives.ExpertParallelExchange
        The collective model's answer: bytes per level, each term and the time.
    """

    traffic: AllToAllTraffic
    exchange: collectives.ExpertParallelExchange

    @property
    def time_s(self) -> float:
        """The dispatch (or combine) [s]."""
        return self.exchange.time_s

    @property
    def kernel(self) -> str:
        """Name of the kernel that runs it."""
        return self.exchange.kernel.name

    @property
    def imbalance_factor(self) -> float:
        """The busiest GPU's load over the mean [-]."""
        return self.exchange.traffic.imbalance_factor

    @property
    def scale_up_s(self) -> float:
        """Time of the NVLink bytes [s]."""
        return self.exchange.nvlink_s

    @property
    def network_s(self) -> float:
        """Time of the bytes through the GPU's ports [s]."""
        return self.exchange.network_s

    @property
    def posting_s(self) -> float:
        """Time the host proxies take to post the messages (host-proxied kernels) [s]."""
        return self.exchange.posting_s

    @property
    def counts_s(self) -> float:
        """The count exchange before the data (host-launched kernels) [s]."""
        return self.exchange.counts_s

    @property
    def bottleneck(self) -> str:
        """``"network"``, ``"scale-up"`` or ``"posting"``: the term that sets the time."""
        return {"nvlink": "scale-up"}.get(self.exchange.bottleneck, self.exchange.bottleneck)

    @property
    def bottleneck_bandwidth_bytes_per_s(self) -> float:
        """Bytes that crossed the bottleneck link over the time [B/s] (the physical rate, not an author's figure)."""
        level = self.exchange.nvlink_bytes if self.bottleneck == "scale-up" else self.exchange.network_bytes
        return level / self.time_s if self.time_s > 0 else 0.0

    def reported_bandwidth(self, definition) -> float:
        """The bandwidth an implementation's test would print for this time [B/s].

        Parameters
        ----------
        definition : str
            A key of :data:`interconnect_lab.collectives.BANDWIDTH_DEFINITIONS` (``"deepep_rdma"``, ...).
        """
        return collectives.reported_bandwidth(self.exchange, definition)


def check_imbalance(imbalance_factor, ep_degree):
    """The busiest GPU's load over the mean: at least 1, at most n (everything on one GPU)."""
    return check_number("imbalance_factor", imbalance_factor, minimum=1, maximum=ep_degree * (1 + 1e-12),
                        scalar=True)


def _link_or_variant(name):
    """The link variant called ``name`` (H800's NVLink), else the catalog link."""
    return VARIANT_LINKS[name] if name in VARIANT_LINKS else catalog.link(name)


def _gpu_or_variant(name):
    """The GPU variant called ``name`` (the H800), else the catalog GPU."""
    return VARIANT_GPUS[name] if name in VARIANT_GPUS else catalog.gpu(name)


def _bandwidth(name, value):
    return check_number(name, value, unit="B/s", minimum=MIN_BANDWIDTH_BYTES_PER_S,
                        maximum=MAX_BANDWIDTH_BYTES_PER_S, scalar=True)


def expert_parallel_system(ep_degree, domain_size=8, *, gpu="H100 SXM", scale_up_link=None,
                           network_link="InfiniBand NDR", nics_per_gpu=1, cpu="intel"):
    """The machine an expert-parallel group of ``ep_degree`` GPUs runs on, as the collective model sees it.

    ``ep_degree / domain_size`` NVLink domains (one when the group fits in one)
    of GPUs of one kind, each with ``nics_per_gpu`` ports of ``network_link``.

    Parameters
    ----------
    ep_degree : int
        GPUs in the group n [-], >= 1.
    domain_size : int
        GPUs per NVLink domain g [-], >= 1; a group larger than one domain spans whole domains.
    gpu : str or catalog.GPU
        Catalog GPU or export variant (``"H800 SXM"``): its NCCL class.
    scale_up_link : str or catalog.Link, optional
        NVLink generation (or variant); the GPU's own by default.
    network_link : str or catalog.Link
        One network port (``"InfiniBand NDR"``, ``"Ethernet 400G"``).
    nics_per_gpu : int
        Ports per GPU, in [1, 16] [-] (AWS p5en: two 200 Gb/s EFA per H200).
    cpu : str
        Host CPU vendor (``"intel"``, ``"amd"`` or ``"arm"``): the cost of posting a message.

    Returns
    -------
    interconnect_lab.collectives.CollectiveSystem

    Examples
    --------
    >>> s = expert_parallel_system(64, 8, gpu="H800 SXM")
    >>> s.nodes, s.gpus_per_node, round(s.nvlink_bytes_per_s / 1e9, 1), s.nic_bytes_per_s / 1e9
    (8, 8, 164.8, 50.0)
    """
    n = check_integer("ep_degree", ep_degree, minimum=1)
    g = check_integer("domain_size", domain_size, minimum=1)
    if n > g and n % g:
        raise ValueError(f"ep_degree = {n} is not valid for domain_size = {g}: a group larger than one domain "
                         "must span whole domains (a multiple of domain_size)")
    g = min(g, n)
    spec = resolve("gpu", gpu, catalog.GPU, (*catalog.GPUS, *VARIANT_GPUS), lookup=_gpu_or_variant)
    link = resolve("scale_up_link", spec.scale_up_link if scale_up_link is None else scale_up_link, catalog.Link,
                   (*catalog.LINKS, *VARIANT_LINKS), lookup=_link_or_variant)
    port = resolve("network_link", network_link, catalog.Link, catalog.LINKS)
    if port.family not in ("InfiniBand", "Ethernet"):
        raise ValueError(f"network_link = {port.name!r} is not a network port: choose an InfiniBand or "
                         "Ethernet link")
    ports = check_integer("nics_per_gpu", nics_per_gpu, minimum=1, maximum=16)
    return collectives.CollectiveSystem(
        architecture=collectives.architecture_of(spec), nodes=n // g, gpus_per_node=g,
        nvlink_bytes_per_s=collectives.nvlink_bytes_per_s(link), nvswitch=True, nics_per_node=g * ports,
        nic_bytes_per_s=port.per_direction_bytes_per_s, cpu=cpu,
        name=f"{n // g} x {g} {spec.name}, {ports} x {port.name} per GPU")


def _system(traffic, system, gpu, scale_up_link, network_link, nics_per_gpu, cpu, nvlink_override, port_override):
    if system is None:
        system = expert_parallel_system(traffic.ep_degree, traffic.domain_size, gpu=gpu or "H100 SXM",
                                        scale_up_link=scale_up_link, network_link=network_link or "InfiniBand NDR",
                                        nics_per_gpu=1 if nics_per_gpu is None else nics_per_gpu,
                                        cpu=cpu or "intel")
    else:
        if not isinstance(system, collectives.CollectiveSystem):
            raise TypeError(f"system must be a CollectiveSystem, got {type(system).__name__}")
        given = [name for name, value in (("gpu", gpu), ("scale_up_link", scale_up_link),
                                          ("network_link", network_link), ("nics_per_gpu", nics_per_gpu),
                                          ("cpu", cpu)) if value is not None]
        if given:
            raise ValueError(f"pass either system or {', '.join(given)}: the system already says what "
                             f"{'they say' if len(given) > 1 else 'it says'}")
        if (system.ranks, system.gpus_per_node) != (traffic.ep_degree, traffic.domain_size):
            raise ValueError(f"system of {system.nodes} x {system.gpus_per_node} GPUs does not hold the traffic's "
                             f"group of {traffic.ep_degree} GPUs in domains of {traffic.domain_size}")
    if nvlink_override is not None:
        system = dataclasses.replace(system, nvlink_bytes_per_s=_bandwidth("scale_up_bandwidth_bytes_per_s",
                                                                           nvlink_override))
    if port_override is not None:
        system = dataclasses.replace(system, nic_bytes_per_s=_bandwidth("network_bandwidth_bytes_per_s",
                                                                        port_override))
    return system


def expert_parallel_all_to_all(traffic, *, kernel=None, operation="dispatch", imbalance_factor=1.0, system=None,
                               gpu=None, scale_up_link=None, network_link=None, nics_per_gpu=None, cpu=None,
                               proxy_threads=None, **deprecated) -> AllToAllTime:
    """Time of one dispatch or combine: the collective model's expert-parallel kernel for this traffic.

    The routing's counts (:meth:`AllToAllTraffic.expert_parallel_traffic`) go to
    :func:`interconnect_lab.collectives.expert_parallel_exchange` with the
    group's machine (:func:`expert_parallel_system`, or ``system``); nothing is
    priced here. The busiest GPU carries ``imbalance_factor`` times the mean.

    Parameters
    ----------
    traffic : AllToAllTraffic
        From :func:`all_to_all_traffic`.
    kernel : str, optional
        A key of :data:`interconnect_lab.collectives.EXPERT_PARALLEL_KERNELS` (``"nccl"``,
        ``"normal"``, ``"low_latency"``, ``"host_proxied"``, ``"nvlink_one_sided"``);
        ``"normal"`` (DeepEP's hierarchical kernels) by default.
    operation : str
        ``"dispatch"`` or ``"combine"`` (a low-latency dispatch message carries a header).
    imbalance_factor : float
        Busiest GPU's load over the mean, in [1, n] (n: everything on one GPU) [-].
    system : interconnect_lab.collectives.CollectiveSystem, optional
        The machine; else built by :func:`expert_parallel_system` from the next four.
    gpu : str or catalog.GPU, optional
        Catalog GPU or variant; ``"H100 SXM"`` by default.
    scale_up_link : str or catalog.Link, optional
        NVLink generation (or variant); the GPU's own by default.
    network_link : str or catalog.Link, optional
        One network port; ``"InfiniBand NDR"`` by default.
    nics_per_gpu : int, optional
        Ports per GPU, 1 by default.
    cpu : str, optional
        Host CPU vendor, ``"intel"`` by default.
    proxy_threads : int, optional
        CPU threads posting one GPU's messages (``"host_proxied"`` only), in [1, 1024].

    Returns
    -------
    AllToAllTime

    Examples
    --------
    DeepSeek-V3's dispatch on 64 H800 (8 nodes): the normal kernels against NCCL's all-to-all

    >>> t = all_to_all_traffic(4096, 7168, 8, 64, experts=256, bytes_per_element=1.0, domain_size=8,
    ...                        max_domains_per_token=4, scale_bytes_per_token=224)
    >>> [round(expert_parallel_all_to_all(t, kernel=k, gpu="H800 SXM").time_s * 1e6) for k in ("normal", "nccl")]
    [2234, 4338]
    """
    kernel, nvlink_override, port_override = legacy_kernel("expert_parallel_all_to_all", kernel, deprecated)
    if not isinstance(traffic, AllToAllTraffic):
        raise TypeError(f"traffic must be an AllToAllTraffic (from all_to_all_traffic), got {type(traffic).__name__}")
    counts = traffic.expert_parallel_traffic(operation, imbalance_factor)
    machine = _system(traffic, system, gpu, scale_up_link, network_link, nics_per_gpu, cpu, nvlink_override,
                      port_override)
    exchange = collectives.expert_parallel_exchange(kernel or "normal", counts, machine, proxy_threads=proxy_threads)
    return AllToAllTime(traffic=traffic, exchange=exchange)
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
                         max_domains_per_token=None, dispatch_bytes_per_element=1.0, combine_bytes_per_element=2.0,
                         kernel=None, imbalance_factor=1.0, system=None, gpu=None, scale_up_link=None,
                         network_link=None, nics_per_gpu=None, cpu=None, proxy_threads=None, **deprecated):
    """The dispatch and the combine of one MoE layer: :func:`all_to_all_traffic` then :func:`expert_parallel_all_to_all`.

    The dispatch carries FP8 values with their scales (:func:`fp8_scale_bytes`) when
    ``dispatch_bytes_per_element`` is below 2; the combine carries BF16 by default.

    Parameters
    ----------
    tokens_per_gpu, hidden_size, top_k, ep_degree, experts, domain_size, max_domains_per_token :
        As for :func:`all_to_all_traffic`.
    dispatch_bytes_per_element, combine_bytes_per_element : float
        Bytes per element on the wire of the dispatch (FP8: 1) and of the combine (BF16: 2) [B], in (0, 64].
    kernel, imbalance_factor, system, gpu, scale_up_link, network_link, nics_per_gpu, cpu, proxy_threads :
        As for :func:`expert_parallel_all_to_all`.

    Returns
    -------
    (AllToAllTime, AllToAllTime)
        Dispatch, combine.

    Examples
    --------
    A decode batch of 128 tokens per GPU over 64 GPUs, DeepEP's low-latency kernels:

    >>> d, c = dispatch_and_combine(128, 7168, 8, 64, kernel="low_latency")
    >>> round(d.time_s * 1e6), round(c.time_s * 1e6)
    (147, 276)
    """
    kernel, nvlink_override, port_override = legacy_kernel("dispatch_and_combine", kernel, deprecated)
    dispatch_bytes_per_element = check_number("dispatch_bytes_per_element", dispatch_bytes_per_element, unit="B",
                                              minimum=0, min_inclusive=False, maximum=_MAX_ELEMENT_BYTES, scalar=True)
    combine_bytes_per_element = check_number("combine_bytes_per_element", combine_bytes_per_element, unit="B",
                                             minimum=0, min_inclusive=False, maximum=_MAX_ELEMENT_BYTES, scalar=True)
    kernel = kernel or "normal"
    hierarchical = collectives.expert_parallel_kernel(kernel).routing == "hierarchical"

    def one(bytes_per_element, operation):
        scale = fp8_scale_bytes(hidden_size) if bytes_per_element < 2 else 0.0
        traffic = all_to_all_traffic(tokens_per_gpu, hidden_size, top_k, ep_degree, bytes_per_element=bytes_per_element,
                                     experts=experts, domain_size=domain_size,
                                     hierarchical=hierarchical and experts is not None,
                                     max_domains_per_token=max_domains_per_token, scale_bytes_per_token=scale)
        machine = _system(traffic, system, gpu, scale_up_link, network_link, nics_per_gpu, cpu, nvlink_override,
                          port_override)
        return expert_parallel_all_to_all(traffic, kernel=kernel, operation=operation,
                                          imbalance_factor=imbalance_factor, system=machine,
                                          proxy_threads=proxy_threads)

    return one(dispatch_bytes_per_element, "dispatch"), one(combine_bytes_per_element, "combine")


def __getattr__(name):
    # Names of the old α-β pricing still answer, with a DeprecationWarning (see _deprecation.DEPRECATED_NAMES).
    return deprecated_attribute(__name__, name)
