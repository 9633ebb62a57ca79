"""Convenience functions: the time of each collective, and where latency and bandwidth cross over."""

from __future__ import annotations

import numpy as np

from .._validation import as_output
from .defaults import BASE_LATENCY_S, NVLINK_EFFICIENCY
from .model import alpha_beta_terms, collective_performance


def collective_time(collective, size_bytes, n_ranks, bandwidth_bytes_per_s, latency_s,
                    algorithm="ring", **options):
    """Time of one collective [s]: ``collective_performance(...).time_s``.

    Parameters
    ----------
    collective, size_bytes, n_ranks, bandwidth_bytes_per_s, latency_s, algorithm :
        As for :func:`collective_performance`.
    **options
        Its keyword-only parameters.

    Examples
    --------
    Latency-bound: 8 bytes on 8 ranks is the launch plus 14 ring steps

    >>> round(collective_time("all_reduce", 8, 8, 450e9, 3.4e-6) * 1e6, 1)
    56.0
    """
    return collective_performance(collective, size_bytes, n_ranks, bandwidth_bytes_per_s,
                                  latency_s, algorithm, **options).time_s


def all_reduce_time(size_bytes, n_ranks, bandwidth_bytes_per_s, latency_s, algorithm="ring",
                    **options):
    """Time of an all-reduce of ``size_bytes`` over ``n_ranks`` ranks [s].

    Every rank ends with the element-wise sum of all ranks' arrays. Ring:
    :math:`t = t_0 + 2(n-1)\\alpha + 2\\frac{n-1}{n}\\frac{S}{\\eta B}`.

    Parameters
    ----------
    size_bytes : float or array_like
        Size of the array on each rank [B].
    n_ranks : int
        Number of ranks.
    bandwidth_bytes_per_s : float or array_like
        Per-rank line rate, one direction [B/s].
    latency_s : float or array_like
        Latency of one step [s].
    algorithm : str
        ``"ring"``, ``"tree"``, ``"halving_doubling"``, ``"direct"``,
        ``"hierarchical"``, ``"nvls"`` or ``"sharp"``.
    **options
        Keyword-only parameters of :func:`collective_performance`
        (``efficiency``, ``base_latency_s``, hierarchical network parameters...).

    Returns
    -------
    float or numpy.ndarray
        Time [s].

    Examples
    --------
    >>> round(all_reduce_time(1e9, 8, 450e9, 3.4e-6) * 1e3, 3)
    4.917
    """
    return collective_time("all_reduce", size_bytes, n_ranks, bandwidth_bytes_per_s, latency_s,
                           algorithm, **options)


def all_gather_time(size_bytes, n_ranks, bandwidth_bytes_per_s, latency_s, algorithm="ring",
                    **options):
    """Time of an all-gather whose gathered output is ``size_bytes`` [s].

    Each rank contributes ``size_bytes / n_ranks`` and ends with all of it. Ring:
    :math:`t = t_0 + (n-1)\\alpha + \\frac{n-1}{n}\\frac{S}{\\eta B}`. Algorithms:
    ``"ring"``, ``"halving_doubling"``, ``"direct"``, ``"hierarchical"``.

    Parameters
    ----------
    size_bytes, n_ranks, bandwidth_bytes_per_s, latency_s, algorithm :
        As for :func:`all_reduce_time`.
    **options
        Keyword-only parameters of :func:`collective_performance`.

    Examples
    --------
    >>> round(all_gather_time(1e9, 8, 450e9, 3.4e-6) * 1e3, 3)
    2.463
    """
    return collective_time("all_gather", size_bytes, n_ranks, bandwidth_bytes_per_s, latency_s,
                           algorithm, **options)


def reduce_scatter_time(size_bytes, n_ranks, bandwidth_bytes_per_s, latency_s, algorithm="ring",
                        **options):
    """Time of a reduce-scatter of a ``size_bytes`` array [s].

    Each rank ends with the sum of one ``1/n_ranks`` share. Ring:
    :math:`t = t_0 + (n-1)\\alpha + \\frac{n-1}{n}\\frac{S}{\\eta B}`. Algorithms:
    ``"ring"``, ``"halving_doubling"``, ``"direct"``, ``"hierarchical"``.

    Parameters
    ----------
    size_bytes, n_ranks, bandwidth_bytes_per_s, latency_s, algorithm :
        As for :func:`all_reduce_time`.
    **options
        Keyword-only parameters of :func:`collective_performance`.

    Examples
    --------
    >>> round(reduce_scatter_time(1e9, 8, 450e9, 3.4e-6) * 1e3, 3)
    2.463
    """
    return collective_time("reduce_scatter", size_bytes, n_ranks, bandwidth_bytes_per_s,
                           latency_s, algorithm, **options)


def broadcast_time(size_bytes, n_ranks, bandwidth_bytes_per_s, latency_s, algorithm="ring",
                   **options):
    """Time of a broadcast of ``size_bytes`` from one root to all ranks [s].

    Pipelined ring (chain): :math:`t = t_0 + (n-1)\\alpha + S/(\\eta B)`.
    Algorithms: ``"ring"``, ``"tree"``, ``"halving_doubling"``.

    Parameters
    ----------
    size_bytes, n_ranks, bandwidth_bytes_per_s, latency_s, algorithm :
        As for :func:`all_reduce_time`.
    **options
        Keyword-only parameters of :func:`collective_performance`.

    Examples
    --------
    >>> round(broadcast_time(1e9, 8, 450e9, 3.4e-6) * 1e3, 3)
    2.81
    """
    return collective_time("broadcast", size_bytes, n_ranks, bandwidth_bytes_per_s, latency_s,
                           algorithm, **options)


def reduce_time(size_bytes, n_ranks, bandwidth_bytes_per_s, latency_s, algorithm="ring",
                **options):
    """Time of a reduce of ``size_bytes`` arrays onto one root [s].

    Pipelined ring (chain): :math:`t = t_0 + (n-1)\\alpha + S/(\\eta B)`.
    Algorithms: ``"ring"``, ``"tree"``, ``"halving_doubling"``.

    Parameters
    ----------
    size_bytes, n_ranks, bandwidth_bytes_per_s, latency_s, algorithm :
        As for :func:`all_reduce_time`.
    **options
        Keyword-only parameters of :func:`collective_performance`.

    Examples
    --------
    >>> reduce_time(1e9, 8, 450e9, 3.4e-6) == broadcast_time(1e9, 8, 450e9, 3.4e-6)
    True
    """
    return collective_time("reduce", size_bytes, n_ranks, bandwidth_bytes_per_s, latency_s,
                           algorithm, **options)


def all_to_all_time(size_bytes, n_ranks, bandwidth_bytes_per_s, latency_s, algorithm="direct",
                    **options):
    """Time of an all-to-all in which each rank sends ``size_bytes`` in total [s].

    Each rank sends a ``1/n_ranks`` share to every rank (itself included):
    :math:`t = t_0 + \\alpha + \\frac{n-1}{n}\\frac{S}{\\eta B}`, all peers at once.

    Parameters
    ----------
    size_bytes : float or array_like
        What each rank sends in total [B].
    n_ranks, bandwidth_bytes_per_s, latency_s :
        As for :func:`all_reduce_time`.
    algorithm : str
        ``"direct"``, the one all-to-all algorithm (every peer at once).
    **options
        Keyword-only parameters of :func:`collective_performance`.

    Examples
    --------
    >>> round(all_to_all_time(1e9, 8, 450e9, 3.4e-6) * 1e3, 3)
    2.442
    """
    return collective_time("all_to_all", size_bytes, n_ranks, bandwidth_bytes_per_s, latency_s,
                           algorithm, **options)


def send_recv_time(size_bytes, bandwidth_bytes_per_s, latency_s, **options):
    """Time to send ``size_bytes`` from one rank to another [s].

    :math:`t = t_0 + \\alpha + S/(\\eta B)`.

    Parameters
    ----------
    size_bytes : float or array_like
        The message [B].
    bandwidth_bytes_per_s, latency_s :
        As for :func:`all_reduce_time`.
    **options
        Keyword-only parameters of :func:`collective_performance`.

    Examples
    --------
    >>> from interconnect_lab.collectives import NETWORK_EFFICIENCY
    >>> round(send_recv_time(1e9, 50e9, 14e-6, efficiency=NETWORK_EFFICIENCY) * 1e3, 3)
    20.856
    """
    return collective_time("send_recv", size_bytes, 2, bandwidth_bytes_per_s, latency_s,
                           "direct", **options)


def crossover_size(collective, n_ranks, bandwidth_bytes_per_s, latency_s, first="ring",
                   second="tree", **options):
    """Message size at which two algorithms take the same time [B].

    Both times are affine in S, :math:`t_i = L_i + c_i S`, so they cross once, at

    .. math:: S^* = \\frac{L_\\text{second} - L_\\text{first}}{c_\\text{first} - c_\\text{second}}

    Below :math:`S^*` the algorithm with the smaller latency term wins; above
    it, the one with more bandwidth.

    Parameters
    ----------
    collective : str
        One of :data:`COLLECTIVES`.
    n_ranks : int
        Number of ranks.
    bandwidth_bytes_per_s, latency_s : float or array_like
        As in :func:`collective_performance`.
    first, second : str
        The two algorithms.
    **options
        Keyword-only parameters of :func:`collective_performance`, applied to both.

    Returns
    -------
    float or numpy.ndarray
        :math:`S^*` [B]; ``math.inf`` where one algorithm is at least as fast at
        every size.

    Examples
    --------
    Tree against ring on 64 ranks over a 50 GB/s network:

    >>> from interconnect_lab.collectives import NETWORK_EFFICIENCY, NETWORK_STEP_LATENCY_S
    >>> from interconnect_lab import units as u
    >>> s = crossover_size("all_reduce", 64, 50 * u.GB_per_s, NETWORK_STEP_LATENCY_S,
    ...                    efficiency=NETWORK_EFFICIENCY)
    >>> round(s / u.MB)
    373
    >>> crossover_size("all_reduce", 2, 450e9, 3.4e-6)
    inf
    """
    arguments = (collective, 0.0, n_ranks, bandwidth_bytes_per_s, latency_s)
    _, _, latency_first, per_byte_first, _, _ = alpha_beta_terms(*arguments, first,
                                                                 *_option_tuple(options))
    _, _, latency_second, per_byte_second, _, _ = alpha_beta_terms(*arguments, second,
                                                                   *_option_tuple(options))
    numerator = np.asarray(latency_second - latency_first, dtype=float)
    denominator = np.asarray(per_byte_first - per_byte_second, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        size = np.where(denominator != 0, numerator / np.where(denominator != 0, denominator, 1.0),
                        np.inf)
    size = np.where(size > 0, size, np.inf)
    return as_output(size)


def half_bandwidth_size(collective, n_ranks, bandwidth_bytes_per_s, latency_s, algorithm="ring",
                        **options):
    """Message size at which a collective reaches half its large-message bandwidth [B].

    The time is affine in S, :math:`t = L + cS` (latency term :math:`L`, seconds
    per byte :math:`c`), so algbw :math:`= S/t` tends to :math:`1/c` and reaches
    half of it where the two terms are equal:

    .. math:: S_{1/2} = L / c

    Below :math:`S_{1/2}` the collective is latency-bound (the steps dominate),
    above it bandwidth-bound (the bytes dominate). This is Hockney's
    :math:`n_{1/2}` applied to a whole collective.

    Parameters
    ----------
    collective : str
        One of :data:`COLLECTIVES`.
    n_ranks : int
        Number of ranks.
    bandwidth_bytes_per_s, latency_s : float or array_like
        As in :func:`collective_performance` [B/s], [s].
    algorithm : str
        A name in :data:`ALGORITHMS` that implements ``collective``.
    **options
        Keyword-only parameters of :func:`collective_performance`.

    Returns
    -------
    float or numpy.ndarray
        :math:`S_{1/2}` [B]; ``math.inf`` where nothing is sent (one rank).

    References
    ----------
    E. Chan, M. Heimlich, A. Purkayastha, R. van de Geijn, "Collective
    communication: theory, practice, and experience", Concurrency and
    Computation: Practice and Experience 19(13), 2007.
    https://doi.org/10.1002/cpe.1206

    Examples
    --------
    Ring all-reduce on 8 H100 over NVLink 4 (NCCL's Simple-protocol latencies):

    >>> from interconnect_lab.collectives import NVLINK_STEP_LATENCY_S
    >>> round(half_bandwidth_size("all_reduce", 8, 450e9, NVLINK_STEP_LATENCY_S) / 1e6, 2)
    11.52
    >>> r = collective_performance("all_reduce", 11.52e6, 8, 450e9, NVLINK_STEP_LATENCY_S)
    >>> round(r.algorithm_bandwidth_bytes_per_s / (360e9 / 1.75), 3)
    0.5
    """
    _, _, latency_term, per_byte, _, _ = alpha_beta_terms(collective, 0.0, n_ranks, bandwidth_bytes_per_s,
                                                          latency_s, algorithm, *_option_tuple(options))
    latency_term = np.asarray(latency_term, dtype=float)
    per_byte = np.asarray(per_byte, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        size = np.where(per_byte > 0, latency_term / np.where(per_byte > 0, per_byte, 1.0), np.inf)
    return as_output(size)


_OPTION_NAMES = ("base_latency_s", "efficiency", "algorithm_efficiency", "ranks_per_node",
                 "network_bandwidth_bytes_per_s", "network_latency_s", "network_efficiency",
                 "network_algorithm")
_OPTION_DEFAULTS = {"base_latency_s": BASE_LATENCY_S, "efficiency": NVLINK_EFFICIENCY}


def _option_tuple(options):
    unknown = sorted(set(options) - set(_OPTION_NAMES))
    if unknown:
        raise TypeError(f"unexpected keyword argument(s) {', '.join(map(repr, unknown))}; "
                        f"valid options are: {', '.join(_OPTION_NAMES)}")
    return tuple(options.get(name, _OPTION_DEFAULTS.get(name)) for name in _OPTION_NAMES)
