r"""ECMP collisions as balls into bins: what hashing costs a permutation.

Under ECMP every flow is hashed onto one of its equal-cost paths. On a
non-blocking fat tree a random permutation *could* run every flow at line
rate, but hashing puts some flows on the same link while others sit idle.
This module predicts, without simulating the network, what the simulator
measures: the mean throughput of a flow and the slowest flow.

Notes
-----
**The bins.** Take a fully built fat tree with every link at the NIC's
capacity :math:`c`, :math:`d` hosts per leaf, :math:`A` up-ports per leaf,
:math:`H_p` hosts per pod, :math:`S` spines per pod with :math:`C` up-ports
each, and :math:`H` hosts. A flow that leaves its leaf takes one of the
leaf's :math:`A` up-links, uniformly at random; one that leaves its pod also
takes one of the pod's :math:`SC` spine up-links, uniformly. Coming down it
takes one of the destination pod's :math:`SC` spine down-links and one of the
destination leaf's :math:`A` down-links. These four *groups* of links are the
bins; the flows that cross a group are the balls.

**One flow's view.** In a random permutation a given host's flow leaves its
leaf with probability :math:`q_\ell = 1 - (d-1)/(H-1)` and its pod with
probability :math:`q_p = 1 - (H_p - 1)/(H-1)`. The other :math:`d-1` hosts
of the leaf each add a flow to the tagged flow's up-link with probability
:math:`q_\ell / A`, so the number of *other* flows on it is

.. math:: X_\ell \sim \mathrm{Binomial}(d-1,\ q_\ell / A),

and on its spine up-link :math:`X_p \sim \mathrm{Binomial}(H_p-1,\ q_p/(SC))`
(the same on the way down, by symmetry). For a non-blocking tree
(:math:`A = d`, :math:`SC = H_p`) both are close to Poisson(1): a hashed
flow expects one companion on every hop.

**A lower bound on the mean.** A flow crossing hops with loads
:math:`1+X_1, \dots, 1+X_h` gets at least its fair share of the busiest,

.. math::

    x_f \ge \frac{c}{M_f}, \qquad M_f = 1 + \max_i X_i, \qquad
    P(M_f \le m) = \prod_i P(X_i \le m - 1),

(max-min fairness gives every flow at least :math:`c / n_\ell` on each of its
links), so :math:`E[x_f]/c \ge E[1/M_f]`, a sum over the product of binomial
CDFs.

**One round of max-min.** A companion that is limited elsewhere, to
:math:`c/M_g` (its own busiest *other* hop), leaves the rest of the link to
the others: on a hop shared with companions capped at :math:`r_g`, the tagged
flow's share is the water level :math:`w` that fills the link,

.. math:: w + \sum_g \min(r_g, w) = c,

and the flow gets :math:`\min_i w_i` over its hops. Averaging this over the
binomial companions and their own binomial hops (by Monte Carlo, a few
thousand samples) predicts the simulated mean to within a few percent; what
it leaves out is the second round (a companion's companions).

**The slowest flow.** Progressive filling freezes its first flows at
:math:`c/M_{max}`, where :math:`M_{max}` is the most flows on any link, so the
slowest flow's rate is *exactly* :math:`c / M_{max}` and :math:`B` balls
hashed into :math:`n` bins decide it. Poissonizing with :math:`\lambda = B/n`,

.. math::

    P(\max \le m \mid B, n) = \frac{P(\mathrm{Poi}(\lambda) \le m)^n \;
    P\big(\textstyle\sum_{i=1}^n Y_i = B\big)}{P(\mathrm{Poi}(B) = B)},

with :math:`Y_i` Poisson(:math:`\lambda`) conditioned on :math:`Y_i \le m`
(Raab and Steger 1998 give the asymptotics, about
:math:`\ln n / \ln \ln n`). Treating the :math:`2L` leaf groups and
:math:`2P` pod groups as independent,
:math:`P(M_{max} \le m) = \prod_g P(\max_g \le m)`. With equal flow sizes the
collective's completion time is :math:`S\,M_{max}/c`.

References
----------
M. Raab, A. Steger, "Balls into Bins — A Simple and Tight Analysis",
RANDOM 1998, LNCS 1518. https://doi.org/10.1007/3-540-49543-6_13

M. Al-Fares, S. Radhakrishnan, B. Raghavan, N. Huang, A. Vahdat, "Hedera:
Dynamic Flow Scheduling for Data Center Networks", NSDI 2010 (ECMP's hash
collisions on fat trees).
https://www.usenix.org/legacy/event/nsdi10/tech/full_papers/al-fares.pdf
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._lazy import lazy_module
from .._validation import check_integer, check_number
from .network import Network

stats = lazy_module("scipy.stats")  # imported on first use: import interconnect_lab stays fast

__all__ = ["CollisionExpectation", "ecmp_collisions", "max_load_cdf", "MAX_SAMPLES"]

#: Most Monte Carlo samples :func:`ecmp_collisions` draws [-]: five times what the book uses; a
#: 512-host tree takes about a second with them.
MAX_SAMPLES = 100_000


def max_load_cdf(balls, bins, loads):
    """Probability that no bin holds more than ``load`` balls, for each of ``loads``.

    ``balls`` balls thrown independently and uniformly into ``bins`` bins.

    Parameters
    ----------
    balls, bins : int
        Balls [-] (>= 0) and bins [-] (>= 1).
    loads : array_like of int
        Loads ``m`` at which to evaluate :math:`P(\\max \\le m)`.

    Returns
    -------
    numpy.ndarray

    Examples
    --------
    Two balls in two bins share a bin half the time:

    >>> max_load_cdf(2, 2, [0, 1, 2]).round(12).tolist()
    [0.0, 0.5, 1.0]
    """
    balls = check_integer("balls", balls, minimum=0)
    bins = check_integer("bins", bins, minimum=1)
    loads = np.atleast_1d(check_number("loads", loads, minimum=-(2.0 ** 53), maximum=2.0 ** 53))
    if np.any(loads != np.floor(loads)):
        raise TypeError(f"loads must be whole numbers of balls, got {loads!r}")
    loads = loads.astype(np.int64)
    if balls == 0:
        return np.where(loads >= 0, 1.0, 0.0)
    lam = balls / bins
    out = np.empty(loads.size)
    for i, m in enumerate(loads):
        if m < 0 or m * bins < balls:
            out[i] = 0.0
            continue
        if m >= balls:
            out[i] = 1.0
            continue
        truncated = stats.poisson.pmf(np.arange(m + 1), lam)
        inside = truncated.sum()
        pmf = truncated / inside
        total = _convolution_power(pmf, bins, balls)
        out[i] = np.exp(bins * np.log(inside) + np.log(max(total[balls], 1e-300))
                        - stats.poisson.logpmf(balls, balls))
    return np.clip(out, 0.0, 1.0)


def _convolution_power(pmf, power, length):
    """pmf of the sum of ``power`` independent copies, truncated after index ``length``."""
    result = np.array([1.0])
    base = pmf
    while power:
        if power & 1:
            result = np.convolve(result, base)[: length + 1]
        power >>= 1
        if power:
            base = np.convolve(base, base)[: length + 1]
    return np.pad(result, (0, max(0, length + 1 - result.size)))


@dataclass(frozen=True, eq=False)
class CollisionExpectation:
    """What balls into bins predicts for ECMP on a random permutation.

    All rates are fractions of the line rate :math:`c` [-].

    Attributes
    ----------
    hop_names : tuple of str
        The hops a flow that leaves its pod crosses between switches.
    hop_bins : tuple of int
        Links in each hop's group [-].
    hop_other_flows : tuple of (int, float)
        Binomial (trials, probability) of the other flows on the tagged flow's link.
    path_probabilities : tuple of float
        Chance a flow stays under its leaf, stays in its pod, crosses pods [-].
    share_lower_bound : float
        :math:`E[1/M_f]`, the mean of each flow's guaranteed share [-].
    mean_rate : float
        Mean max-min rate with one round of redistribution (Monte Carlo) [-].
    max_load : numpy.ndarray
        Loads ``m`` = 1, 2, ... at which :attr:`max_load_cdf` is given.
    max_load_cdf : numpy.ndarray
        :math:`P(M_{max} \\le m)`, the most flows on any link [-].
    """

    hop_names: tuple
    hop_bins: tuple
    hop_other_flows: tuple
    path_probabilities: tuple
    share_lower_bound: float
    mean_rate: float
    max_load: np.ndarray
    max_load_cdf: np.ndarray

    @property
    def max_load_pmf(self) -> np.ndarray:
        """:math:`P(M_{max} = m)` [-]."""
        return np.diff(np.concatenate(([0.0], self.max_load_cdf)))

    @property
    def expected_max_load(self) -> float:
        """:math:`E[M_{max}]`, flows on the busiest link [-]."""
        return float((self.max_load * self.max_load_pmf).sum())

    @property
    def expected_slowest_rate(self) -> float:
        """:math:`E[1/M_{max}]`, the slowest flow's rate [-]."""
        return float((self.max_load_pmf / self.max_load).sum())


def _water_level(caps):
    """Per row: the share w of one uncapped flow, with companions capped at ``caps`` (0 = absent), on a unit link."""
    caps = np.sort(caps, axis=1)
    count = caps.shape[1]
    used_before = np.concatenate((np.zeros((caps.shape[0], 1)), np.cumsum(caps, axis=1)[:, :-1]), axis=1)
    sharers = count - np.arange(count) + 1  # companions not yet capped, plus the tagged flow
    level = (1.0 - used_before) / sharers
    capped_below = caps < level
    first_uncapped = np.where(capped_below.all(axis=1), count, np.argmin(capped_below, axis=1))
    rows = np.arange(caps.shape[0])
    all_capped = 1.0 - caps.sum(axis=1)
    return np.where(first_uncapped == count, all_capped, level[rows, np.minimum(first_uncapped, count - 1)])


def ecmp_collisions(network, *, samples=20000, seed=0):
    """Balls-into-bins prediction of ECMP throughput for a random permutation.

    Parameters
    ----------
    network : Network
        A fully built two- or three-tier fat tree whose links all have the
        NIC's capacity (see Notes in :mod:`~interconnect_lab.fabric.collisions`).
    samples : int
        Monte Carlo samples for :attr:`CollisionExpectation.mean_rate`, in
        [100, :data:`MAX_SAMPLES`].
    seed : int
        Seed of those samples, >= 0.

    Returns
    -------
    CollisionExpectation

    Examples
    --------
    >>> from interconnect_lab.fabric import Network
    >>> from interconnect_lab.topology import fat_tree
    >>> net = Network(fat_tree(512, radix=32, tiers=2), nic_capacity_bytes_per_s=1.0)
    >>> expectation = ecmp_collisions(net, samples=4000)
    >>> round(expectation.share_lower_bound, 3), round(expectation.mean_rate, 2)
    (0.513, 0.53)
    >>> round(expectation.expected_max_load, 1)
    5.1
    """
    if not isinstance(network, Network):
        raise TypeError(f"network must be a fabric Network, got {type(network).__name__}")
    samples = check_integer("samples", samples, minimum=100, maximum=MAX_SAMPLES)
    seed = check_integer("seed", seed, minimum=0)
    tree = network.tree
    if network.tiers < 2:
        raise ValueError("a one-switch network has no hashing to analyse")
    if tree.hosts != tree.max_hosts:
        raise ValueError(f"network must be a fully built tree for the prediction: this one has {tree.hosts} hosts "
                         f"of {tree.max_hosts}")
    capacity = network.capacity_bytes_per_s
    if not np.all(capacity == capacity[0]):
        raise ValueError("network must have the same capacity on every link (NICs included) for the prediction")
    hosts, per_leaf = network.hosts, tree.leaf_down_ports
    leaf_bins = network.leaf_up_ports
    per_pod = per_leaf * network.leaves_per_pod if network.tiers == 3 else hosts
    pod_bins = network.spines_per_pod * network.spine_up_ports
    leave_leaf = 1 - (per_leaf - 1) / (hosts - 1)
    leave_pod = 1 - (per_pod - 1) / (hosts - 1)
    same_leaf = (per_leaf - 1) / (hosts - 1)
    same_pod = (per_pod - per_leaf) / (hosts - 1)
    cross = 1 - same_leaf - same_pod
    leaf_hop = (per_leaf - 1, leave_leaf / leaf_bins)
    if network.tiers == 3:
        pod_hop = (per_pod - 1, leave_pod / pod_bins)
        names = ("leaf up", "spine up", "spine down", "leaf down")
        bins = (leaf_bins, pod_bins, pod_bins, leaf_bins)
        others = (leaf_hop, pod_hop, pod_hop, leaf_hop)
    else:
        names, bins, others = ("leaf up", "leaf down"), (leaf_bins, leaf_bins), (leaf_hop, leaf_hop)

    # Lower bound: E[1/M] over path types.
    loads = np.arange(1, 65)

    def share_bound(hops):
        cdf = np.ones(loads.size)
        for trials, p in hops:
            cdf = cdf * stats.binom.cdf(loads - 1, trials, p)
        return float((np.diff(np.concatenate(([0.0], cdf))) / loads).sum())

    in_pod_hops = (leaf_hop, leaf_hop)
    bound = same_leaf + same_pod * share_bound(in_pod_hops) + cross * share_bound(others)

    mean = same_leaf + _mean_rate_in_pod_and_across(network.tiers, in_pod_hops, others, same_pod, cross,
                                                    samples, seed)

    # The slowest flow: max load over all groups of links.
    max_loads = np.arange(1, 41)
    leaf_cdf = _group_cdf(per_leaf, leave_leaf, leaf_bins, max_loads)
    cdf = leaf_cdf ** (2 * network.leaves)
    if network.tiers == 3:
        cdf = cdf * _group_cdf(per_pod, leave_pod, pod_bins, max_loads) ** (2 * network.pods)
    cdf = np.maximum.accumulate(np.clip(cdf, 0.0, 1.0))
    cdf[-1] = 1.0
    return CollisionExpectation(
        hop_names=names, hop_bins=bins, hop_other_flows=tuple((int(t), float(p)) for t, p in others),
        path_probabilities=(same_leaf, same_pod, cross), share_lower_bound=bound, mean_rate=mean,
        max_load=max_loads, max_load_cdf=cdf)


def _group_cdf(senders, probability, bins, loads):
    """P(max load <= m) for one group of ``bins`` links fed by Binomial(senders, probability) flows."""
    ball_counts = np.arange(senders + 1)
    weights = stats.binom.pmf(ball_counts, senders, probability)
    keep = weights > 1e-12
    total = np.zeros(loads.size)
    for balls, weight in zip(ball_counts[keep], weights[keep]):
        total += weight * max_load_cdf(int(balls), bins, loads)
    return total


def _mean_rate_in_pod_and_across(tiers, in_pod_hops, cross_hops, same_pod, cross, samples, seed):
    """One round of max-min redistribution, averaged by Monte Carlo (see Notes)."""
    rng = np.random.default_rng(seed)
    leaf_hop = in_pod_hops[0]
    pod_hop = cross_hops[1] if tiers == 3 else None
    crossing = cross / (same_pod + cross) if same_pod + cross > 0 else 1.0

    def load(hop, shape):
        return 1 + rng.binomial(hop[0], hop[1], size=shape)

    def busiest_elsewhere(on_pod_hop, shape):
        """Load of a companion's busiest hop other than the one it shares with the tagged flow."""
        if tiers == 2:
            return load(leaf_hop, shape)
        long = np.maximum(np.maximum(load(pod_hop, shape), load(leaf_hop, shape)),
                          load(pod_hop if not on_pod_hop else leaf_hop, shape))
        if on_pod_hop:
            return long
        return np.where(rng.random(shape) < crossing, long, load(leaf_hop, shape))

    def tagged_rate(hops):
        rates = np.full(samples, np.inf)
        for hop in hops:
            companions = rng.binomial(hop[0], hop[1], size=samples)
            width = max(int(companions.max()), 1)
            present = np.arange(width)[None, :] < companions[:, None]
            caps = np.where(present, 1.0 / busiest_elsewhere(hop is pod_hop, (samples, width)), 0.0)
            rates = np.minimum(rates, _water_level(caps))
        return rates

    total = (same_pod if tiers == 3 else same_pod + cross) * tagged_rate(in_pod_hops).mean()
    if tiers == 3:
        total += cross * tagged_rate(cross_hops).mean()
    return float(total)
