"""Routing and load: where an MoE layer's token copies go, and how unevenly.

The expected number of GPUs (or domains) a token's experts lie on
(:func:`expected_ranks_per_token`), skewed routing drawn with a seed
(:func:`routing_load` over the Zipf shares of :func:`zipf_expert_shares`), and how
many senders write to one GPU at once (:func:`incast_fan_in`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .._validation import NotPossible, check_flag, check_integer, check_number

__all__ = ["MAX_EXPERTS", "MAX_TOKENS", "expected_ranks_per_token", "zipf_expert_shares", "RoutingLoad",
           "routing_load", "incast_fan_in"]

#: Most routed experts a layer may have [-]: 256 times DeepSeek-V3's 256. Counts of experts size
#: arrays (one share per expert) and binomial coefficients, so they need a bound.
MAX_EXPERTS = 2 ** 16

#: Most tokens one GPU (or a group, in :func:`routing_load`) may route at once [token]; with hidden
#: sizes up to 2**24 and 64-byte elements every byte count stays far from overflow.
MAX_TOKENS = 1e15


def distinct_groups(groups, members_per_group, top_k):
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


def check_experts(experts, minimum=1):
    """Routed experts E, an integer in [minimum, MAX_EXPERTS]."""
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
    experts = check_experts(experts)
    top_k = check_integer("top_k", top_k, minimum=1, maximum=experts)
    ep = check_integer("ep_degree", ep_degree, minimum=1)
    if experts % ep:
        raise NotPossible(f"ep_degree = {ep} is not valid for {experts} experts: it must divide the number of "
                          "experts (each GPU holds a whole number of experts)",
                          plain=f"{experts} experts cannot be shared evenly by {ep} GPUs: each GPU holds a whole "
                                "number of experts, so the expert-parallel group must divide the experts.")
    return distinct_groups(ep, experts // ep, top_k)


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
    experts = check_experts(experts)
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
    experts = check_experts(experts)
    top_k = check_integer("top_k", top_k, minimum=1, maximum=experts)
    if tokens * top_k > 2 ** 53:
        raise ValueError(f"tokens = {tokens} is not valid with top_k = {top_k}: the copies, tokens x top_k, "
                         "must be <= 2**53 to be counted exactly")
    n = check_integer("ep_degree", ep_degree, minimum=1)
    if experts % n:
        raise NotPossible(f"ep_degree = {n} is not valid for {experts} experts: it must divide the number of "
                          "experts (each GPU holds a whole number of experts)",
                          plain=f"{experts} experts cannot be shared evenly by {n} GPUs: each GPU holds a whole "
                                "number of experts, so the expert-parallel group must divide the experts.")
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

    Parameters
    ----------
    ep_degree : int
        GPUs in the expert-parallel group n [-].
    domain_size : int, optional
        GPUs per scale-up domain g; the whole group by default [-].
    hierarchical : bool
        One network copy per destination domain (DeepEP's normal kernels).

    Examples
    --------
    >>> incast_fan_in(256, 8), incast_fan_in(256, 8, hierarchical=True)
    (248, 31)
    """
    n = check_integer("ep_degree", ep_degree, minimum=1)
    g = n if domain_size is None else min(check_integer("domain_size", domain_size, minimum=1), n)
    return (n // g - 1) if check_flag("hierarchical", hierarchical) else n - g


