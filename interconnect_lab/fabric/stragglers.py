r"""Stragglers: a synchronous step waits for its slowest worker.

In data-parallel training every step ends with a collective that no worker
can leave before the last one arrives, so a step of :math:`N` workers takes

.. math:: T_\text{step} = \max_{i=1..N} T_i .

Worker :math:`i` needs :math:`T_i = t_0 (1 + s B_i) + J_i`: the common compute
time :math:`t_0`, a rare slow machine (:math:`B_i = 1` with probability
:math:`p`, slower by the factor :math:`1 + s`), and jitter :math:`J_i` of mean
zero and standard deviation :math:`\sigma`, drawn from one of
:data:`JITTERS`. With :math:`F` the distribution of one worker's time,

.. math::

    P(T_\text{step} \le x) = F(x)^N, \qquad
    E[T_\text{step}] = x_0 + \int_{x_0}^{\infty} \big(1 - F(x)^N\big)\,dx ,

and the :math:`q`-quantile of the step is :math:`F^{-1}(q^{1/N})`: the tail of
*one* worker, far out. With exponential jitter
:math:`E[T_\text{step}] = t_0 - \sigma + \sigma H_N` (:math:`H_N` the harmonic
number, about :math:`\ln N`); with normal jitter it grows like
:math:`\sigma\sqrt{2 \ln N}`. And once :math:`pN \gtrsim 1` a slow machine is
almost surely present: the step runs at its pace, :math:`t_0(1+s)`.

MegaScale reports that about 0.5 % of machines were markedly slower and that
removing them gained about 0.7 % MFU; Llama 3's 54-day run saw 466 job
interruptions (published values in :mod:`interconnect_lab.published`).

References
----------
J. Dean, L. A. Barroso, "The Tail at Scale", Communications of the ACM 56(2),
2013. https://doi.org/10.1145/2408776.2408794

Z. Jiang et al., "MegaScale: Scaling Large Language Model Training to More Than
10,000 GPUs", NSDI 2024, §5-6.
https://www.usenix.org/conference/nsdi24/presentation/jiang-ziheng

A. Grattafiori et al. (Llama Team, AI @ Meta), "The Llama 3 Herd of Models",
arXiv:2407.21783, 2024, §3.3.4. https://arxiv.org/abs/2407.21783
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .._lazy import lazy_module
from .._validation import check_choice, check_integer, check_number
from .network import Network
from .simulation import simulate_collective
from .traffic import Collective

stats = lazy_module("scipy.stats")  # imported on first use: import interconnect_lab stays fast

__all__ = [
    "JITTERS", "StepTimes", "step_times", "sample_step_times",
    "lagging_worker_cost", "RankTimings", "rank_timings", "SlowRanks", "detect_slow_ranks",
    "DegradedLink", "degraded_link_effect", "MAX_STEP_SAMPLES",
]

#: Most worker times :func:`sample_step_times` (and :func:`rank_timings`) draws, ``steps *
#: n_workers`` [-]: twice the book's largest (10,000 workers over 200 steps); a tenth of a second.
MAX_STEP_SAMPLES = 2 ** 22


def _exponential(sigma):
    return stats.expon(loc=-sigma, scale=sigma)


def _normal(sigma):
    return stats.norm(loc=0.0, scale=sigma)


def _lognormal(sigma):
    shape = 1.0
    scale = sigma / math.sqrt((math.exp(shape**2) - 1) * math.exp(shape**2))
    return stats.lognorm(s=shape, scale=scale, loc=-scale * math.exp(shape**2 / 2))


#: Jitter distributions by name: (builder of a mean-zero scipy distribution of standard deviation sigma,
#: description). Each has mean 0 and standard deviation ``jitter_s``.
JITTERS = {
    "exponential": (_exponential, "shifted exponential: delays with a light tail"),
    "normal": (_normal, "normal: symmetric noise"),
    "lognormal": (_lognormal, "shifted lognormal (shape 1): delays with a heavy tail"),
}


def _worker(compute_s, jitter, jitter_s, slow_fraction, slowdown):
    compute_s = check_number("compute_s", compute_s, unit="s", minimum=0, min_inclusive=False, maximum=1e9,
                             scalar=True)
    check_choice("jitter", jitter, JITTERS)
    jitter_s = check_number("jitter_s", jitter_s, unit="s", minimum=0, maximum=1e9, scalar=True)
    slow_fraction = check_number("slow_fraction", slow_fraction, minimum=0, maximum=1, scalar=True)
    slowdown = check_number("slowdown", slowdown, minimum=0, maximum=1e6, scalar=True)
    if 0 < jitter_s < 1e-12:
        raise ValueError(f"jitter_s = {jitter_s:g} s is not valid: it must be 0 or at least 1e-12 s")
    if jitter_s > compute_s / 4:
        # The jitters have mean zero, so their left tail reaches below zero: at most a quarter of
        # the compute time keeps every step positive (exponential, lognormal) or all but 3e-5 (normal).
        raise ValueError(f"jitter_s = {jitter_s:g} s is not valid for compute_s = {compute_s:g} s: it must be "
                         f"<= compute_s / 4 = {compute_s / 4:g} s, or steps would take negative time")
    return compute_s, jitter_s, slow_fraction, slowdown


class _OneWorker:
    """The distribution of one worker's time: a two-component mixture."""

    def __init__(self, compute_s, jitter, jitter_s, slow_fraction, slowdown):
        self.centres = (compute_s, compute_s * (1 + slowdown))
        self.weights = (1 - slow_fraction, slow_fraction)
        self.jitter_s = jitter_s
        self.noise = JITTERS[jitter][0](jitter_s) if jitter_s > 0 else None

    def sf(self, x):
        total = np.zeros(np.shape(x))
        for centre, weight in zip(self.centres, self.weights):
            if weight == 0:
                continue
            part = self.noise.sf(x - centre) if self.noise is not None else (x < centre).astype(float)
            total = total + weight * part
        return total

    def isf(self, survival):
        """x with sf(x) = survival, by bisection (vectorized)."""
        survival = np.asarray(survival, dtype=float)
        low, high = self.bounds(np.min(survival))
        low = np.full(survival.shape, low)
        high = np.full(survival.shape, high)
        for _ in range(80):
            middle = (low + high) / 2
            above = self.sf(middle) > survival
            low = np.where(above, middle, low)
            high = np.where(above, high, middle)
        return (low + high) / 2

    def bounds(self, smallest_survival):
        if self.noise is None:
            return min(self.centres) - 1.0, max(self.centres) + 1.0
        tiny = max(float(smallest_survival), 1e-300) * 1e-3
        low = min(self.centres) + self.noise.ppf(1e-15)
        high = max(self.centres) + self.noise.isf(tiny)
        return low, high


@dataclass(frozen=True)
class StepTimes:
    """Step time of N synchronous workers: its mean and its tail.

    Attributes
    ----------
    n_workers : numpy.ndarray
        Worker counts [-].
    compute_s : float
        Mean time of a healthy worker, :math:`t_0` [s].
    expected_step_s : numpy.ndarray
        :math:`E[\\max_i T_i]` for each worker count [s].
    median_step_s, p99_step_s : numpy.ndarray
        Median and 99th percentile of the step time [s].
    """

    n_workers: np.ndarray
    compute_s: float
    expected_step_s: np.ndarray
    median_step_s: np.ndarray
    p99_step_s: np.ndarray

    @property
    def expected_overhead(self) -> np.ndarray:
        """:math:`E[T_\\text{step}] / t_0 - 1`: time lost to waiting [-]."""
        return self.expected_step_s / self.compute_s - 1


def step_times(n_workers, compute_s, *, jitter="exponential", jitter_s=0.0, slow_fraction=0.0, slowdown=0.0):
    """Expected, median and 99th-percentile step time of ``n_workers`` synchronous workers.

    Computed from the distribution of one worker (no sampling): see the module
    formulas.

    Parameters
    ----------
    n_workers : int or array_like of int
        Worker counts :math:`N` [-], >= 1.
    compute_s : float
        Mean time of a healthy worker's step, :math:`t_0` [s].
    jitter : str
        A name in :data:`JITTERS`.
    jitter_s : float
        Standard deviation of the jitter, :math:`\\sigma` [s], at most ``compute_s / 4``.
    slow_fraction : float
        Share of slow workers, :math:`p` in [0, 1] [-].
    slowdown : float
        How much slower a slow worker is, :math:`s` [-] (0.1 is 10 % slower).

    Returns
    -------
    StepTimes

    Examples
    --------
    Exponential jitter: :math:`E = t_0 - \\sigma + \\sigma H_N`; for N = 4,
    :math:`H_4 = 25/12`:

    >>> r = step_times(4, 1.0, jitter="exponential", jitter_s=0.1)
    >>> round(float(r.expected_step_s[0]), 6), round(1 - 0.1 + 0.1 * 25 / 12, 6)
    (1.108333, 1.108333)

    MegaScale's half a percent of machines 10 % slower, at 10,000 workers:

    >>> r = step_times([1, 10_000], 1.0, slow_fraction=0.005, slowdown=0.1)
    >>> r.expected_step_s.round(4).tolist()
    [1.0005, 1.1]
    """
    counts = np.atleast_1d(np.asarray(n_workers, dtype=object))
    if counts.ndim != 1 or counts.size > 10_000:
        raise ValueError(f"n_workers must be a count or a list of at most 10,000 counts, got {n_workers!r}")
    counts = np.array([check_integer("n_workers", n, minimum=1) for n in counts], dtype=float)
    compute_s, jitter_s, slow_fraction, slowdown = _worker(compute_s, jitter, jitter_s, slow_fraction, slowdown)
    worker = _OneWorker(compute_s, jitter, jitter_s, slow_fraction, slowdown)
    expected = _expected_max(worker, counts)
    median = worker.isf(-np.expm1(np.log(0.5) / counts))
    p99 = worker.isf(-np.expm1(np.log(0.99) / counts))
    return StepTimes(n_workers=counts.astype(np.int64), compute_s=compute_s, expected_step_s=expected,
                     median_step_s=median, p99_step_s=p99)


def _survival_grid(worker):
    """Points x of one worker's distribution, spaced evenly in log-survival from 1 - 1e-12 down to 1e-22."""
    tail = np.logspace(-22, np.log10(0.5), 3000)
    body = 1 - np.logspace(np.log10(0.5), -12, 1500)[1:]
    survival = np.concatenate((body[::-1], tail[::-1]))  # decreasing, so x increases
    return worker.isf(survival), survival


def _expected_max(worker, counts):
    """E[max of n] = x0 + integral of (1 - F^n) dx from x0, for every n in ``counts``."""
    if worker.noise is None:
        # Deterministic times: the step is slow if any worker is slow.
        healthy = worker.weights[0] ** counts
        return worker.centres[0] * healthy + worker.centres[1] * (1 - healthy)
    x, survival = _survival_grid(worker)
    with np.errstate(divide="ignore"):
        log_cdf = np.log1p(-survival)
    above = -np.expm1(counts[:, None] * log_cdf[None, :])   # 1 - F(x)^n
    integrate = np.trapezoid if hasattr(np, "trapezoid") else np.trapz
    return x[0] + integrate(above, x, axis=1)


def sample_step_times(n_workers, steps, compute_s, *, jitter="exponential", jitter_s=0.0, slow_fraction=0.0,
                      slowdown=0.0, seed):
    """Per-worker times of ``steps`` synchronous steps, drawn at random.

    Parameters
    ----------
    n_workers, steps : int
        Workers and steps [-], at most :data:`MAX_STEP_SAMPLES` times in all.
    compute_s, jitter, jitter_s, slow_fraction, slowdown
        As for :func:`step_times`. Slow workers are chosen once and stay slow.
    seed : int or numpy.random.Generator
        Randomness.

    Returns
    -------
    numpy.ndarray
        ``(steps, n_workers)`` times [s]; a step lasts the row's maximum.

    Examples
    --------
    >>> times = sample_step_times(1000, 200, 1.0, jitter_s=0.01, seed=0)
    >>> times.shape, bool(times.max(axis=1).mean() > 1.0)
    ((200, 1000), True)
    """
    n_workers = check_integer("n_workers", n_workers, minimum=1)
    steps = check_integer("steps", steps, minimum=1)
    if n_workers * steps > MAX_STEP_SAMPLES:
        raise ValueError(f"n_workers = {n_workers} and steps = {steps} are not valid together: n_workers * steps "
                         f"= {n_workers * steps} times must be at most MAX_STEP_SAMPLES = {MAX_STEP_SAMPLES}")
    compute_s, jitter_s, slow_fraction, slowdown = _worker(compute_s, jitter, jitter_s, slow_fraction, slowdown)
    rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(_seed(seed))
    slow = rng.random(n_workers) < slow_fraction
    centre = compute_s * np.where(slow, 1 + slowdown, 1.0)
    if jitter_s == 0:
        return np.tile(centre, (steps, 1))  # every step alike, one row per step all the same
    noise = JITTERS[jitter][0](jitter_s).rvs(size=(steps, n_workers), random_state=rng)
    return centre[None, :] + noise


def _seed(seed):
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer)):
        raise TypeError(f"seed must be an integer or a numpy.random.Generator, got {seed!r}")
    if seed < 0:
        raise ValueError(f"seed = {seed} is not valid: it must be >= 0")
    return int(seed)


def lagging_worker_cost(n_workers, compute_s, lag_s, *, jitter="exponential", jitter_s=0.0):
    """Expected time one constantly lagging worker adds to every step [s].

    One worker takes ``lag_s`` longer than the others, every step. It adds the
    full lag only when it would have been the slowest anyway or when the jitter
    is smaller than the lag; under jitter much larger than the lag it adds
    about ``lag_s / N``:

    .. math:: \\Delta = E[\\max(T_1 + \\delta, T_2, \\dots, T_N)] - E[\\max_i T_i] \\le \\delta

    Parameters
    ----------
    n_workers : int
        Workers :math:`N` [-], >= 1.
    compute_s : float
        Mean step time of a worker [s].
    lag_s : float
        The lagging worker's extra time, :math:`\\delta` [s], >= 0.
    jitter, jitter_s
        As for :func:`step_times`.

    Returns
    -------
    float
        Added time per step [s].

    Examples
    --------
    A GPU 10 µs late, no jitter: every step is 10 µs longer.

    >>> lagging_worker_cost(1024, 1.0, 10e-6) * 1e6
    10.0
    """
    n = check_integer("n_workers", n_workers, minimum=1)
    compute_s, jitter_s, _, _ = _worker(compute_s, jitter, jitter_s, 0.0, 0.0)
    lag_s = check_number("lag_s", lag_s, unit="s", minimum=0, maximum=1e9, scalar=True)
    if jitter_s == 0 or lag_s == 0:
        return float(lag_s)
    noise = JITTERS[jitter][0](jitter_s)
    others = _OneWorker(compute_s, jitter, jitter_s, 0.0, 0.0)
    x, survival = _survival_grid(others)
    x = np.unique(np.concatenate((x, x + lag_s)))
    with np.errstate(divide="ignore"):
        f_others = np.exp((n - 1) * np.log1p(-others.sf(x)))
    integrate = np.trapezoid if hasattr(np, "trapezoid") else np.trapz
    # E[max(T1 + lag, rest)] - E[max(T1, rest)] = integral of F_rest (F_T1(x) - F_T1(x - lag)) dx.
    return float(integrate(f_others * (noise.cdf(x - compute_s) - noise.cdf(x - compute_s - lag_s)), x))


@dataclass(frozen=True)
class RankTimings:
    """Per-rank timings of synchronous steps, as a profiler records them.

    Attributes
    ----------
    compute_s : numpy.ndarray
        ``(steps, ranks)`` time each rank computed before the collective [s].
    wait_s : numpy.ndarray
        ``(steps, ranks)`` time each rank then waited for the slowest [s].
    step_s : numpy.ndarray
        ``(steps,)`` step times [s]: the same for every rank.
    slow_ranks : numpy.ndarray
        The ranks made slow [-].
    """

    compute_s: np.ndarray
    wait_s: np.ndarray
    step_s: np.ndarray
    slow_ranks: np.ndarray


def rank_timings(n_ranks, steps, compute_s, *, slow_ranks=(), slowdown=0.1, jitter="exponential", jitter_s=0.0,
                 seed):
    """Timings of synchronous steps where some ranks are slower (to practise detection on).

    Parameters
    ----------
    n_ranks, steps : int
        Ranks (>= 2) and steps [-], at most :data:`MAX_STEP_SAMPLES` times in all.
    compute_s : float
        Mean compute time of a healthy rank [s].
    slow_ranks : int or sequence of int
        Ranks that are slower by ``slowdown`` [-].
    slowdown : float
        Their extra share of compute time [-], in [0, 1e6] (as for :func:`step_times`).
    jitter, jitter_s
        As for :func:`step_times`.
    seed : int
        Randomness.

    Returns
    -------
    RankTimings
    """
    n_ranks = check_integer("n_ranks", n_ranks, minimum=2)
    try:
        slow = np.asarray(slow_ranks).reshape(-1) if not isinstance(slow_ranks, (str, bytes)) else None
    except ValueError:  # a ragged list
        slow = None
    if slow is None or (slow.size and slow.dtype.kind not in "iu"):
        raise TypeError(f"slow_ranks must be a rank or a sequence of ranks (integers), got {slow_ranks!r}")
    if slow.size and (slow.min() < 0 or slow.max() >= n_ranks):
        bad = slow[(slow < 0) | (slow >= n_ranks)][0]
        raise ValueError(f"slow_ranks contains {bad}, which is not a rank: valid ranks are 0 to {n_ranks - 1}")
    slow = slow.astype(np.int64)
    _, _, _, slowdown = _worker(compute_s, jitter, jitter_s, 0.0, slowdown)
    times = sample_step_times(n_ranks, steps, compute_s, jitter=jitter, jitter_s=jitter_s, seed=seed)
    times[:, slow] += compute_s * slowdown
    step = times.max(axis=1)
    return RankTimings(compute_s=times, wait_s=step[:, None] - times, step_s=step, slow_ranks=slow)


@dataclass(frozen=True)
class SlowRanks:
    """Which ranks stand out, and by how much.

    Attributes
    ----------
    flagged : numpy.ndarray
        Ranks whose score exceeds the threshold, slowest first.
    score : numpy.ndarray
        Robust z-score of each rank's median compute time [-].
    median_compute_s : numpy.ndarray
        Each rank's median compute time over the steps [s].
    threshold : float
        The score above which a rank is flagged [-].
    """

    flagged: np.ndarray
    score: np.ndarray
    median_compute_s: np.ndarray
    threshold: float


def detect_slow_ranks(compute_s, *, threshold=8.0):
    """Find ranks that are consistently slower than the rest.

    Every rank of a synchronous job sees the same step time, so the step time
    cannot name the straggler; its own compute time (or, equivalently, the
    shortest wait at the collective) can. Take each rank's median over steps
    (robust to one-off hiccups) and score it against the others with the
    median and the median absolute deviation (MAD):

    .. math:: z_r = \\frac{m_r - \\operatorname{median}(m)}{1.4826\\, \\operatorname{MAD}(m)}

    Parameters
    ----------
    compute_s : array_like
        ``(steps, ranks)`` per-rank compute times [s], in [0, 1e18] (for instance
        :attr:`RankTimings.compute_s`).
    threshold : float
        Score above which a rank is flagged [-], > 0. The medians of skewed
        (heavy-tailed) jitter reach scores of 5 or 6 among a thousand healthy
        ranks; 8 keeps them quiet while a rank 3 % slower under 1 % jitter
        scores about 30.

    Returns
    -------
    SlowRanks

    Examples
    --------
    >>> timings = rank_timings(512, 50, 1.0, slow_ranks=[17], slowdown=0.05, jitter_s=0.01, seed=1)
    >>> detect_slow_ranks(timings.compute_s).flagged.tolist()
    [17]
    """
    times = check_number("compute_s", compute_s, unit="s", minimum=0, maximum=1e18)
    if np.ndim(times) != 2 or times.shape[1] < 3:
        raise ValueError(f"compute_s must be a (steps, ranks) array with at least 3 ranks, got shape "
                         f"{np.shape(times)}")
    threshold = check_number("threshold", threshold, minimum=0, min_inclusive=False, scalar=True)
    median = np.median(times, axis=0)
    centre = np.median(median)
    # Where most ranks agree exactly the MAD is 0: a floor at float precision keeps every score finite
    # (at most 1 / eps, about 4.5e15) and flags any rank that differs.
    deviation = max(float(np.median(np.abs(median - centre))), np.finfo(float).eps * float(median.max()))
    if deviation == 0:  # every rank's median is 0
        score = np.zeros(median.size)
    else:
        score = (median - centre) / (1.4826 * deviation)
    flagged = np.flatnonzero(score > threshold)
    flagged = flagged[np.argsort(-score[flagged], kind="stable")]
    return SlowRanks(flagged=flagged, score=score, median_compute_s=median, threshold=threshold)


@dataclass(frozen=True)
class DegradedLink:
    """A collective's time with all links healthy and with some degraded.

    Attributes
    ----------
    healthy_s, degraded_s : float
        Times of the collective's network phases [s].
    links : numpy.ndarray
        The degraded links.
    fraction : float
        Their remaining share of capacity [-].
    """

    healthy_s: float
    degraded_s: float
    links: np.ndarray
    fraction: float

    @property
    def slowdown(self) -> float:
        """Degraded time over healthy time [-]; 1 when no flow crosses the network (both times 0)."""
        if self.healthy_s == 0:
            return 1.0
        return self.degraded_s / self.healthy_s


def degraded_link_effect(network, collective, links, fraction, *, routing="ecmp", seed=0):
    """How much one degraded link (or a few) slows a whole collective.

    Every step of a ring waits for its slowest flow, so one link at half rate
    can halve the speed of thousands of GPUs: the collective runs at the pace
    of its worst link.

    Parameters
    ----------
    network : Network
    collective : Collective
    links : int or array_like of int
        Links to degrade (both directions of each cable).
    fraction : float
        Their remaining share of capacity, in (0, 1] [-]; what it leaves of each
        link must stay in :data:`~interconnect_lab.fabric.network.CAPACITY_RANGE_BYTES_PER_S`.
    routing : str
        A name in :data:`~interconnect_lab.fabric.routing.ROUTINGS`.
    seed : int
        Seed of the routing's randomness.

    Returns
    -------
    DegradedLink
        Both times are 0, and the slowdown 1, when no flow of the collective
        crosses the network.

    Examples
    --------
    >>> from interconnect_lab.fabric import Network, ring_all_reduce_traffic
    >>> from interconnect_lab.topology import fat_tree
    >>> net = Network(fat_tree(64, radix=16, tiers=2), nic_capacity_bytes_per_s=50e9)
    >>> ring = ring_all_reduce_traffic(range(64), 1e9)
    >>> round(degraded_link_effect(net, ring, net.nic_link(5), 0.5).slowdown, 3)
    2.0
    """
    if not isinstance(network, Network):
        raise TypeError(f"network must be a fabric Network, got {type(network).__name__}")
    if not isinstance(collective, Collective):
        raise TypeError(f"collective must be a fabric Collective, got {type(collective).__name__}")
    links = np.atleast_1d(network.check_links("links", links))
    fraction = check_number("fraction", fraction, minimum=0, maximum=1, min_inclusive=False, scalar=True)
    healthy = simulate_collective(network, collective, routing, seed=seed).time_s
    degraded = simulate_collective(network.with_degraded_links(links, fraction), collective, routing, seed=seed).time_s
    return DegradedLink(healthy_s=healthy, degraded_s=degraded, links=links, fraction=fraction)
