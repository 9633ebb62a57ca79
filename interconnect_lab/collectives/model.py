"""The α-β model of one collective: phases per hierarchy level, and :func:`collective_performance`."""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np

from .._deprecation import renamed_attribute
from .._validation import as_output, check_choice, check_finite_result, check_integer, check_number
from .defaults import BASE_LATENCY_S, COLLECTIVES, NETWORK_EFFICIENCY, NVLINK_EFFICIENCY
from .algorithms import ALGORITHMS, check_algorithm, bus_bandwidth_factor


# The model ----------------------------------------------------------------------

@dataclass(frozen=True)
class CollectivePerformance:
    """Time and bandwidths of one collective, from :func:`collective_performance`.

    Attributes that depend on the size are floats for a scalar size and arrays
    for an array of sizes.

    Attributes
    ----------
    collective : str
        The collective.
    algorithm : str
        The algorithm.
    n_ranks : int
        Number of ranks.
    size_bytes : float or numpy.ndarray
        Message size S as nccl-tests counts it [B].
    time_s : float or numpy.ndarray
        Time of one operation [s].
    latency_term_s : float or numpy.ndarray
        The part of the time that does not depend on size: :math:`t_0 + k\\alpha` [s].
    bandwidth_term_s : float or numpy.ndarray
        The part proportional to size [s].
    steps : int
        Sequential steps :math:`k`, summed over levels [-].
    bytes_sent_per_rank : float or numpy.ndarray
        Bytes the busiest rank sends, summed over levels [B].
    algorithm_bandwidth_bytes_per_s : float or numpy.ndarray
        ``S / t`` [B/s]; infinite if the operation takes no time at all.
    bus_bandwidth_bytes_per_s : float or numpy.ndarray
        algbw × the nccl-tests factor (2(n−1)/n for every all-reduce) [B/s].
    """

    collective: str
    algorithm: str
    n_ranks: int
    size_bytes: float | np.ndarray
    time_s: float | np.ndarray
    latency_term_s: float | np.ndarray
    bandwidth_term_s: float | np.ndarray
    steps: int
    bytes_sent_per_rank: float | np.ndarray
    algorithm_bandwidth_bytes_per_s: float | np.ndarray
    bus_bandwidth_bytes_per_s: float | np.ndarray

    @property
    def latency_bound(self):
        """True where the latency term exceeds the bandwidth term."""
        bound = np.greater(self.latency_term_s, self.bandwidth_term_s)
        return bool(bound) if np.ndim(bound) == 0 else bound


@dataclass(frozen=True)
class _Phase:
    steps: int
    traffic: float      # bytes sent by the busiest rank per byte of S
    level: int          # 0: the given link; 1: the network of a hierarchical algorithm
    factor: float       # per-algorithm bandwidth factor


def _phases(collective, algorithm, n, hierarchy):
    """The sequence of phases an algorithm runs, each on one level."""
    if algorithm != "hierarchical":
        entry = ALGORITHMS[algorithm]
        steps, traffic = entry.cost(collective, n)
        return (_Phase(steps, traffic, 0, entry.bandwidth_factor),)
    per_node, network_algorithm = hierarchy
    nodes = n // per_node
    ring = ALGORITHMS["ring"]
    outer = ALGORITHMS[network_algorithm]

    def inner(kind):
        steps, traffic = ring.cost(kind, per_node)
        return _Phase(steps, traffic, 0, 1.0)

    def across(kind):
        # One network collective per local rank, in parallel, on 1/per_node of the data.
        steps, traffic = outer.cost(kind, nodes)
        return _Phase(steps, traffic / per_node, 1, outer.bandwidth_factor)

    if collective == "all_reduce":
        return inner("reduce_scatter"), across("all_reduce"), inner("all_gather")
    if collective == "reduce_scatter":
        return inner("reduce_scatter"), across("reduce_scatter")
    return across("all_gather"), inner("all_gather")  # all_gather


#: Smallest line rate and usable share the model accepts: below them a time overflows [B/s], [-].
MIN_BANDWIDTH_BYTES_PER_S = 1.0
MIN_EFFICIENCY = 1e-3
#: Largest message, line rate and step latency the model accepts (an exabyte... per second, a
#: million seconds): with them no time, bandwidth or crossover size overflows [B], [B/s], [s].
MAX_SIZE_BYTES = 1e30
MAX_BANDWIDTH_BYTES_PER_S = 1e18
MAX_LATENCY_S = 1e6


def alpha_beta_terms(collective, size_bytes, n_ranks, bandwidth_bytes_per_s, latency_s, algorithm,
                     base_latency_s, efficiency, algorithm_efficiency, ranks_per_node,
                     network_bandwidth_bytes_per_s, network_latency_s, network_efficiency,
                     network_algorithm):
    """Validate the inputs and return (latency term, seconds per byte, steps, traffic)."""
    check_choice("collective", collective, COLLECTIVES)
    check_algorithm(algorithm, collective)
    n = check_integer("n_ranks", n_ranks, minimum=1)
    size = check_number("size_bytes", size_bytes, unit="B", minimum=0, maximum=MAX_SIZE_BYTES)
    bandwidth = check_number("bandwidth_bytes_per_s", bandwidth_bytes_per_s, unit="B/s",
                             minimum=MIN_BANDWIDTH_BYTES_PER_S, maximum=MAX_BANDWIDTH_BYTES_PER_S)
    latency = check_number("latency_s", latency_s, unit="s", minimum=0, maximum=MAX_LATENCY_S)
    base = check_number("base_latency_s", base_latency_s, unit="s", minimum=0, maximum=MAX_LATENCY_S)
    eta = check_number("efficiency", efficiency, minimum=MIN_EFFICIENCY, maximum=1)
    if algorithm_efficiency is not None:
        algorithm_efficiency = check_number("algorithm_efficiency", algorithm_efficiency,
                                            minimum=MIN_EFFICIENCY, maximum=1, scalar=True)

    network_arguments = {
        "ranks_per_node": ranks_per_node,
        "network_bandwidth_bytes_per_s": network_bandwidth_bytes_per_s,
        "network_latency_s": network_latency_s,
        "network_efficiency": network_efficiency,
        "network_algorithm": network_algorithm,
    }
    hierarchy = None
    level_bandwidth = [eta * bandwidth]
    level_latency = [latency]
    if algorithm == "hierarchical":
        missing = [name for name in ("ranks_per_node", "network_bandwidth_bytes_per_s",
                                     "network_latency_s") if network_arguments[name] is None]
        if missing:
            raise ValueError(f"algorithm 'hierarchical' needs {', '.join(missing)}: the ranks "
                             "in one node and the network's per-rank bandwidth and step latency")
        per_node = check_integer("ranks_per_node", ranks_per_node, minimum=1, maximum=n)
        if n % per_node:
            raise ValueError(f"n_ranks = {n} is not valid for ranks_per_node = {per_node}: "
                             "it must be a whole number of nodes (a multiple of ranks_per_node)")
        network_algorithm = "ring" if network_algorithm is None else network_algorithm
        if network_algorithm in ("hierarchical", "nvls"):
            raise ValueError(f"network_algorithm {network_algorithm!r} is not valid across "
                             "nodes: the network level runs a flat algorithm, and NVLink SHARP "
                             "works inside an NVLink domain (use 'sharp' for InfiniBand)")
        check_algorithm(network_algorithm, collective, "network_algorithm")
        hierarchy = (per_node, network_algorithm)
        network_bandwidth = check_number("network_bandwidth_bytes_per_s",
                                         network_bandwidth_bytes_per_s, unit="B/s",
                                         minimum=MIN_BANDWIDTH_BYTES_PER_S, maximum=MAX_BANDWIDTH_BYTES_PER_S)
        network_eta = check_number(
            "network_efficiency", NETWORK_EFFICIENCY if network_efficiency is None
            else network_efficiency, minimum=MIN_EFFICIENCY, maximum=1)
        level_bandwidth.append(network_eta * network_bandwidth)
        level_latency.append(check_number("network_latency_s", network_latency_s, unit="s",
                                          minimum=0, maximum=MAX_LATENCY_S))
    else:
        given = [name for name, value in network_arguments.items() if value is not None]
        if given:
            raise ValueError(f"{', '.join(given)} applies only to algorithm 'hierarchical', "
                             f"not {algorithm!r}")

    phases = _phases(collective, algorithm, n, hierarchy)
    with np.errstate(over="ignore", invalid="ignore"):
        latency_term = base + sum(phase.steps * level_latency[phase.level] for phase in phases)
    # Each level's phases share that level's links; the levels are different links
    # (NVLink inside the node, the NICs across), and NCCL pipelines chunks through
    # them, so the slowest level sets the rate rather than the sum of the phases.
    level_seconds_per_byte = [0.0] * len(level_bandwidth)
    for phase in phases:
        factor = phase.factor
        if algorithm_efficiency is not None and phase.level == 0:
            factor = algorithm_efficiency
        level_seconds_per_byte[phase.level] += phase.traffic / (factor * level_bandwidth[phase.level])
    seconds_per_byte = functools.reduce(np.maximum, level_seconds_per_byte)  # floats or arrays
    check_finite_result("latency term", latency_term, unit="s", n_ranks=n, latency_s=latency_s,
                        base_latency_s=base_latency_s)
    steps = sum(phase.steps for phase in phases)
    traffic = sum(phase.traffic for phase in phases)
    return size, n, latency_term, seconds_per_byte, steps, traffic


def collective_performance(collective, size_bytes, n_ranks, bandwidth_bytes_per_s, latency_s,
                           algorithm="ring", *, base_latency_s=BASE_LATENCY_S,
                           efficiency=NVLINK_EFFICIENCY, algorithm_efficiency=None,
                           ranks_per_node=None, network_bandwidth_bytes_per_s=None,
                           network_latency_s=None, network_efficiency=None,
                           network_algorithm=None):
    """Time, algbw and busbw of a collective under the α-β model.

    .. math::

        t = t_0 + \\sum_\\ell k_\\ell\\,\\alpha_\\ell
              + S \\sum_\\ell \\frac{\\tau_\\ell}{\\eta_{\\text{alg},\\ell}\\,\\eta_\\ell\\,B_\\ell},
        \\qquad \\text{algbw} = S/t, \\qquad \\text{busbw} = \\text{algbw}\\cdot f(n)

    One level :math:`\\ell` for flat algorithms, two for ``"hierarchical"``.
    Steps :math:`k` and traffic :math:`\\tau` (bytes the busiest rank sends per
    byte of S) for n ranks:

    ==================  ==============  =================  ===========================
    algorithm           collective      k                  τ
    ==================  ==============  =================  ===========================
    ring                all-reduce      2(n−1)             2(n−1)/n
    ring                RS, AG          n−1                (n−1)/n
    ring                bcast, reduce   n−1 (pipelined)    1
    tree                all-reduce      2⌈log₂n⌉           2 (1 for n = 2)
    tree                bcast, reduce   ⌈log₂n⌉            1
    halving_doubling    all-reduce      2 log₂p (+2)       2(p−1)/p (+1)
    halving_doubling    RS, AG          log₂p (+2)         (p−1)/p (+1)
    halving_doubling    bcast, reduce   2 log₂p (+2)       2(p−1)/p (+1)
    direct              AG, RS, a2a     1                  (n−1)/n
    direct              all-reduce      2                  2(n−1)/n
    direct              send/recv       1                  1
    nvls                all-reduce      2                  (n+1)/n
    sharp               all-reduce      2                  1
    hierarchical        all-reduce      three phases       three phases
    ==================  ==============  =================  ===========================

    The hierarchical all-reduce is a reduce-scatter inside each node, an
    all-reduce across nodes and an all-gather inside each node.

    p is the largest power of two <= n; the terms in brackets apply when n is
    not a power of two. Everything is zero for n = 1.

    Parameters
    ----------
    collective : str
        One of :data:`COLLECTIVES`: ``"all_reduce"``, ``"all_gather"``,
        ``"reduce_scatter"``, ``"broadcast"``, ``"reduce"``, ``"all_to_all"``,
        ``"send_recv"``.
    size_bytes : float or array_like
        Message size S as nccl-tests counts it [B], >= 0: the whole array for
        all-reduce, all-gather (output) and reduce-scatter (input); the buffer for
        broadcast and reduce; one rank's send buffer for all-to-all; the message
        for send/recv.
    n_ranks : int
        Number of ranks n, >= 1.
    bandwidth_bytes_per_s : float or array_like
        Line rate of one rank's link, one direction [B/s], >= 1 B/s (for NVLink, all of
        a GPU's links together, e.g. ``catalog.link("NVLink 4").per_gpu_per_direction_bytes_per_s``).
        For ``"hierarchical"``: the link inside the node.
    latency_s : float or array_like
        Latency α of one step on that link [s], >= 0 (e.g.
        :data:`NVLINK_STEP_LATENCY_S`, :data:`NETWORK_STEP_LATENCY_S`).
    algorithm : str
        A name in :data:`ALGORITHMS` that implements ``collective``.
    base_latency_s : float or array_like
        Fixed latency :math:`t_0` of one collective [s], >= 0; NCCL's 8.4 µs by default.
    efficiency : float or array_like
        Share η of the line rate data can use, in [0.001, 1] [-];
        :data:`NVLINK_EFFICIENCY` by default, pass :data:`NETWORK_EFFICIENCY` for a
        network port.
    algorithm_efficiency : float, optional
        Replaces the algorithm's factor :math:`\\eta_\\text{alg}` (on the first level)
        in [0.001, 1] [-], e.g. 0.74 for NVLS on Blackwell.
    ranks_per_node : int, optional
        ``"hierarchical"`` only: ranks in one node; n_ranks must be a multiple.
    network_bandwidth_bytes_per_s : float or array_like, optional
        ``"hierarchical"`` only: each rank's network bandwidth, one direction [B/s].
    network_latency_s : float or array_like, optional
        ``"hierarchical"`` only: latency of one network step [s].
    network_efficiency : float, optional
        ``"hierarchical"`` only: usable share of the network rate [-];
        :data:`NETWORK_EFFICIENCY` by default.
    network_algorithm : str, optional
        ``"hierarchical"`` only: the flat algorithm run across nodes, ``"ring"`` by
        default (``"tree"``, ``"halving_doubling"``, ``"direct"``, ``"sharp"``...).

    Returns
    -------
    CollectivePerformance
        Time, both bandwidths, steps and bytes per rank.

    Raises
    ------
    ValueError
        For an unknown collective or algorithm (the message lists the valid
        ones), an algorithm that does not implement the collective, a value
        out of range (the message names the parameter, its unit and the range),
        or inputs so extreme that the time overflows a float (beyond 1.8e308 s).

    Notes
    -----
    Pipelined algorithms (the ring broadcast, the tree) are charged their
    pipeline depth once, not once per chunk, and the bandwidth of the whole
    message: the large-message limit of a pipeline with many chunks. The model
    ignores congestion: every rank is assumed to have its full link to itself,
    as on an NVSwitch or a non-blocking fat tree. With in-network reduction
    (``"nvls"``, ``"sharp"``) busbw exceeds the link bandwidth, because the
    switch does part of the work that the busbw formula assumes ranks do. NCCL
    models NVLS latency as one fixed 23–25 µs term; here it is two steps. The
    NVLS entry reproduces 4 to 8 H100 GPUs (nccl issue #1455) but predicts too
    little on 2 and 3 GPUs, which measure like the ring.

    References
    ----------
    R. Thakur, R. Rabenseifner, W. Gropp, "Optimization of Collective
    Communication Operations in MPICH", IJHPCA 19(1), 2005.
    https://doi.org/10.1177/1094342005051521

    P. Patarasuk, X. Yuan, "Bandwidth optimal all-reduce algorithms for clusters
    of workstations", JPDC 69(2), 2009. https://doi.org/10.1016/j.jpdc.2008.09.002

    P. Sanders, J. Speck, J. L. Träff, "Two-tree algorithms for full bandwidth
    broadcast, reduction and scan", Parallel Computing 35(12), 2009.
    https://doi.org/10.1016/j.parco.2009.09.001

    B. Klenk et al., "An In-Network Architecture for Accelerating Shared-Memory
    Multiprocessor Collectives", ISCA 2020. https://doi.org/10.1109/ISCA45697.2020.00085

    R. L. Graham et al., "Scalable Hierarchical Aggregation Protocol (SHArP)",
    COMHPC 2016. https://doi.org/10.1109/COMHPC.2016.006

    NVIDIA, nccl-tests ``doc/PERFORMANCE.md``; NCCL ``src/graph/tuning.cc``.

    Examples
    --------
    NVLink SHARP on 8 H100: busbw above the 450 GB/s link, as measured (~480 GB/s)

    >>> r = collective_performance("all_reduce", 8 * 2**30, 8, 450e9, 3.4e-6, "nvls")
    >>> round(r.algorithm_bandwidth_bytes_per_s / 1e9), round(r.bus_bandwidth_bytes_per_s / 1e9)
    (272, 476)

    Two levels: 4 nodes of 8 GPUs, NVLink inside, 50 GB/s per GPU across

    >>> r = collective_performance("all_reduce", 2**30, 32, 450e9, 3.4e-6, "hierarchical",
    ...                            ranks_per_node=8, network_bandwidth_bytes_per_s=50e9,
    ...                            network_latency_s=14e-6)
    >>> r.steps, round(r.time_s * 1e3, 2)
    (20, 5.36)
    """
    size, n, latency_term, seconds_per_byte, steps, traffic = alpha_beta_terms(
        collective, size_bytes, n_ranks, bandwidth_bytes_per_s, latency_s, algorithm,
        base_latency_s, efficiency, algorithm_efficiency, ranks_per_node,
        network_bandwidth_bytes_per_s, network_latency_s, network_efficiency, network_algorithm)
    with np.errstate(over="ignore", invalid="ignore"):
        bandwidth_term = size * seconds_per_byte
        time = latency_term + bandwidth_term
    check_finite_result("time_s", time, unit="s", size_bytes=size,
                        bandwidth_bytes_per_s=bandwidth_bytes_per_s, latency_s=latency_s)
    if np.ndim(time):
        size, time, latency_term, bandwidth_term = (
            np.array(a) for a in np.broadcast_arrays(size, time, latency_term, bandwidth_term))
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        algbw = np.where(time > 0, np.divide(size, np.where(time > 0, time, 1.0)),
                         np.where(size > 0, np.inf, 0.0))
    # One rank with no launch latency takes no time: algbw is inf by definition, not by overflow.
    check_finite_result("algorithm_bandwidth_bytes_per_s", algbw if n > 1 else np.where(time > 0, algbw, 0.0),
                        unit="B/s", size_bytes=size, time_s=time)
    factor = bus_bandwidth_factor(collective, n)
    with np.errstate(invalid="ignore"):
        busbw = np.where(factor > 0, factor * algbw, 0.0)
    return CollectivePerformance(
        collective=collective, algorithm=algorithm, n_ranks=n,
        size_bytes=as_output(size), time_s=as_output(time),
        latency_term_s=as_output(latency_term), bandwidth_term_s=as_output(bandwidth_term),
        steps=int(steps), bytes_sent_per_rank=as_output(traffic * np.asarray(size)),
        algorithm_bandwidth_bytes_per_s=as_output(algbw),
        bus_bandwidth_bytes_per_s=as_output(busbw),
    )


def __getattr__(name):
    # Names renamed in this release still answer, with a DeprecationWarning (see _deprecation.RENAMED_NAMES).
    return renamed_attribute(__name__, name)
