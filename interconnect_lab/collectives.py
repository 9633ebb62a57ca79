"""Collective operations: α-β cost models, and algbw and busbw as nccl-tests defines them.

Every rank holds a buffer; a *collective* combines them (all-reduce, all-gather,
reduce-scatter, broadcast, reduce, all-to-all, send/recv). An *algorithm* is the
pattern of point-to-point messages (or switch operations) that performs it: a
ring, a pipelined double binary tree, recursive halving and doubling, direct
sends, a two-level hierarchy, or reduction inside the switches (NVLink SHARP,
InfiniBand SHARP).

The α-β model charges every algorithm a latency per step and a bandwidth cost
per byte that crosses the busiest rank's link in one direction:

.. math::

    t(S) = t_0 + k\\,\\alpha + \\frac{\\tau\\, S}{\\eta_\\text{alg}\\,\\eta\\, B}

with :math:`S` the message size as nccl-tests counts it, :math:`k` the number
of sequential steps, :math:`\\alpha` the latency of one step, :math:`t_0` a
fixed launch latency, :math:`\\tau S` the bytes the busiest rank sends, :math:`B`
its link bandwidth per direction, :math:`\\eta` the share of that line rate
data can use (protocol overhead) and :math:`\\eta_\\text{alg}` a documented
per-algorithm factor. A hierarchical algorithm adds one such term per level.

nccl-tests reports two bandwidths (NVIDIA/nccl-tests ``doc/PERFORMANCE.md``):
the *algorithm bandwidth* ``algbw = S / t`` and the *bus bandwidth*
``busbw = algbw × factor``, with factor 2(n−1)/n for all-reduce, (n−1)/n for
all-gather, reduce-scatter and all-to-all, and 1 for broadcast, reduce and
send/recv. For point-to-point algorithms busbw is the per-rank link bandwidth
the collective actually used, so it can be compared with the hardware. See
:func:`bus_bandwidth_factor` for how in-network reduction is counted.

Defaults, each with its source (see the constants below):

- :data:`NVLINK_EFFICIENCY` = 0.80: an NVLink carries about 20 GB/s of data per
  25 GB/s of line rate when GPU streaming multiprocessors write 128-byte
  payloads (nccl-tests issue #149).
- :data:`NETWORK_EFFICIENCY` = 0.96: NCCL's maintainers take 24 GB/s as the peak
  of a 200 Gb/s (25 GB/s) NIC (nccl-tests issue #119).
- :data:`NCCL_LATENCIES`: NCCL's tuning constants for the ring algorithm, per
  protocol; the defaults are those of the ``Simple`` protocol NCCL uses for
  large messages: 8.4 µs launch, 3.4 µs per NVLink step, 14 µs per network step.
- per-algorithm factors in :data:`ALGORITHMS`: 0.92 for the tree and 0.85 for
  in-network reduction, the factors NCCL's own cost model applies.

Examples
--------
Ring all-reduce of 1 GiB on 8 H100 (NVLink 4, 450 GB/s per GPU per direction):

>>> from interconnect_lab import units as u
>>> result = collective_performance("all_reduce", 1 * u.GiB, 8, 450 * u.GB_per_s,
...                                 NVLINK_STEP_LATENCY_S)
>>> round(result.bus_bandwidth_bytes_per_s / u.GB_per_s)
356
>>> round(result.time_s / u.ms, 2)
5.28
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from types import MappingProxyType

import numpy as np

from . import units as u
from ._validation import check_choice, check_integer, check_number
from .sources import (
    GRAHAM2016_SHARP,
    KLENK2020_NVLS,
    NCCL_ISSUE_1442,
    NCCL_NVLS_TUNING,
    NCCL_TESTS_ISSUE_119,
    NCCL_TESTS_ISSUE_149,
    NCCL_TESTS_ISSUE_212,
    NCCL_TESTS_PERFORMANCE,
    NCCL_TUNING,
    PATARASUK2009_RING,
    SANDERS2009_TWO_TREE,
    THAKUR2005_MPICH,
    Source,
)

__all__ = [
    # names
    "COLLECTIVES", "ALGORITHMS", "Algorithm", "algorithms_for",
    # defaults
    "NVLINK_EFFICIENCY", "NETWORK_EFFICIENCY", "EFFICIENCY_SOURCES",
    "ProtocolLatency", "NCCL_LATENCIES", "BASE_LATENCY_S",
    "NVLINK_STEP_LATENCY_S", "NETWORK_STEP_LATENCY_S", "link_parameters",
    # results and models
    "CollectiveResult", "collective_performance", "collective_time",
    "all_reduce_time", "all_gather_time", "reduce_scatter_time", "broadcast_time",
    "reduce_time", "all_to_all_time", "send_recv_time", "crossover_size",
    "half_bandwidth_size",
    # nccl-tests definitions
    "BUS_BANDWIDTH_SOURCE", "algorithm_bandwidth", "bus_bandwidth", "bus_bandwidth_factor",
]

#: The collectives, named as the model and the reference implementation name them.
COLLECTIVES = ("all_reduce", "all_gather", "reduce_scatter", "broadcast", "reduce",
               "all_to_all", "send_recv")

_REDUCTIONS = ("all_reduce", "reduce_scatter", "reduce")


# Defaults -----------------------------------------------------------------------

#: Share of NVLink line rate that NCCL's data can use [-]. One NVLink carries
#: 25 GB/s per direction on the wire but ~20 GB/s of data with the 128-byte
#: payloads that GPU streaming multiprocessors write (copy engines use 256 B);
#: NCCL's maintainers quote the same ~20% protocol overhead for H100.
NVLINK_EFFICIENCY = 0.80

#: Share of a network port's data rate that NCCL reaches [-]: its maintainers take
#: 24 GB/s as the peak of a 200 Gb/s (25 GB/s) NIC and 12 GB/s for 100 Gb/s.
NETWORK_EFFICIENCY = 0.96

#: Where the two efficiencies come from.
EFFICIENCY_SOURCES = MappingProxyType({
    "NVLINK_EFFICIENCY": (NCCL_TESTS_ISSUE_149, NCCL_TESTS_ISSUE_212, NCCL_ISSUE_1442),
    "NETWORK_EFFICIENCY": (NCCL_TESTS_ISSUE_119,),
})


@dataclass(frozen=True, kw_only=True)
class ProtocolLatency:
    """NCCL's latency constants for the ring algorithm under one protocol.

    Attributes
    ----------
    protocol : str
        ``"LL"`` (low latency: 8-byte stores carrying a flag with the data),
        ``"LL128"`` (128-byte lines, 120 B of data) or ``"Simple"`` (large chunks
        with separate synchronization).
    base_latency_s : float
        Fixed latency of one collective (NCCL's ``baseLat``) [s].
    nvlink_step_latency_s : float
        Latency of one ring step over NVLink (``hwLat`` NVLink) [s].
    network_step_latency_s : float
        Latency of one ring step over the network (``hwLat`` NET) [s].
    source : Source
        Where the constants come from.
    """

    protocol: str
    base_latency_s: float
    nvlink_step_latency_s: float
    network_step_latency_s: float
    source: Source


#: NCCL's ring latency constants per protocol (``src/graph/tuning.cc``).
NCCL_LATENCIES = MappingProxyType({
    name: ProtocolLatency(protocol=name, base_latency_s=base * u.us,
                          nvlink_step_latency_s=nvlink * u.us,
                          network_step_latency_s=network * u.us, source=NCCL_TUNING)
    for name, base, nvlink, network in (
        ("LL", 6.6, 0.6, 2.7),
        ("LL128", 14.0, 1.9, 4.0),
        ("Simple", 8.4, 3.4, 14.0),
    )
})

#: Default fixed latency per collective: NCCL ``Simple`` protocol [s].
BASE_LATENCY_S = NCCL_LATENCIES["Simple"].base_latency_s
#: Default latency of one step over NVLink: NCCL ``Simple`` protocol [s].
NVLINK_STEP_LATENCY_S = NCCL_LATENCIES["Simple"].nvlink_step_latency_s
#: Default latency of one step over the network: NCCL ``Simple`` protocol [s].
NETWORK_STEP_LATENCY_S = NCCL_LATENCIES["Simple"].network_step_latency_s


_NETWORK_FAMILIES = ("InfiniBand", "Ethernet")


def link_parameters(link):
    """The model's per-rank parameters for a catalog link, with the sourced defaults.

    Parameters
    ----------
    link : interconnect_lab.catalog.Link
        An NVLink generation (the bandwidth is all of one GPU's links, one
        direction) or a network port (InfiniBand, Ethernet: one port, one
        direction).

    Returns
    -------
    dict
        ``bandwidth_bytes_per_s`` [B/s], ``latency_s`` [s] and ``efficiency`` [-],
        to pass on as keywords to :func:`collective_performance` and friends.

    Raises
    ------
    ValueError
        For a link family without sourced defaults (PCIe, CXL, Infinity Fabric):
        pass bandwidth, latency and efficiency explicitly.

    Examples
    --------
    >>> from interconnect_lab import catalog
    >>> params = link_parameters(catalog.link("NVLink 4"))
    >>> params["bandwidth_bytes_per_s"] / 1e9, params["efficiency"]
    (450.0, 0.8)
    >>> round(collective_performance("all_reduce", 8 * 2**30, 8, **params)
    ...       .bus_bandwidth_bytes_per_s / 1e9)
    360
    """
    family = getattr(link, "family", None)
    if family == "NVLink":
        bandwidth = link.per_gpu_per_direction_bytes_per_s
        if bandwidth is None:
            raise ValueError(f"link {link.name!r} has no links_per_gpu: cannot tell one GPU's "
                             "NVLink bandwidth")
        return {"bandwidth_bytes_per_s": bandwidth, "latency_s": NVLINK_STEP_LATENCY_S,
                "efficiency": NVLINK_EFFICIENCY}
    if family in _NETWORK_FAMILIES:
        return {"bandwidth_bytes_per_s": link.per_direction_bytes_per_s,
                "latency_s": NETWORK_STEP_LATENCY_S, "efficiency": NETWORK_EFFICIENCY}
    if family is None:
        raise TypeError(f"link must be a catalog Link, got {link!r}")
    raise ValueError(f"no sourced collective defaults for link family {family!r}; valid "
                     f"families are: 'NVLink', {', '.join(map(repr, _NETWORK_FAMILIES))} "
                     "(or pass bandwidth_bytes_per_s, latency_s and efficiency yourself)")


# Cost of each algorithm: (steps, bytes the busiest rank sends per byte of S) -----

def _log2_floor(n):
    return n.bit_length() - 1


def _ring_cost(collective, n):
    if collective == "all_reduce":
        return 2 * (n - 1), 2 * (n - 1) / n
    if collective in ("reduce_scatter", "all_gather"):
        return n - 1, (n - 1) / n
    return n - 1, 1.0  # broadcast, reduce: a pipelined chain


def _tree_cost(collective, n):
    depth = math.ceil(math.log2(n))
    if collective == "all_reduce":
        # Every rank is an inner node (two children) of one tree and a leaf of the
        # other: it sends S/2 up and 2 x S/2 down in one, S/2 up in the other.
        return 2 * depth, (1.0 if n == 2 else 2.0)
    return depth, 1.0  # broadcast, reduce: each inner node forwards its half twice


def _halving_doubling_cost(collective, n):
    p = 1 << _log2_floor(n)
    levels = _log2_floor(p)
    # Ranks beyond the largest power of two fold into a partner first and get the
    # result back at the end: two more steps, up to S more bytes for the partner.
    fold_steps, fold_traffic = (2, 1.0) if n != p else (0, 0.0)
    if collective in ("reduce_scatter", "all_gather"):
        return levels + fold_steps, (p - 1) / p + fold_traffic
    # all_reduce (halving then doubling); broadcast (scatter then all-gather);
    # reduce (reduce-scatter then gather): two sweeps of log2(p) steps.
    return 2 * levels + fold_steps, 2 * (p - 1) / p + fold_traffic


def _direct_cost(collective, n):
    if collective == "send_recv":
        return 1, 1.0
    if collective == "all_reduce":  # direct reduce-scatter, then direct all-gather
        return 2, 2 * (n - 1) / n
    return 1, (n - 1) / n  # all_to_all, all_gather, reduce_scatter


def _nvls_cost(collective, n):
    # Each GPU pushes its buffer into the switch (S), loads back the reduced share it
    # leads (S/n), multicasts that share (S/n) and receives every share (S).
    return 2, (n + 1) / n


def _sharp_cost(collective, n):
    # Each host sends its buffer up the aggregation tree and receives the result.
    return 2, 1.0


@dataclass(frozen=True)
class Algorithm:
    """One entry of :data:`ALGORITHMS`: what an algorithm does and what it costs.

    Attributes
    ----------
    name : str
        The name that selects it.
    summary : str
        One line for a table or a legend.
    collectives : tuple of str
        The collectives it implements.
    bandwidth_factor : float
        Per-algorithm factor :math:`\\eta_\\text{alg}` on the usable bandwidth [-].
    factor_note : str
        Why the factor has its value.
    in_network : bool
        True if switches reduce the data (busbw may then exceed the link).
    references : tuple of Source
        The published description of the algorithm.
    """

    name: str
    summary: str
    collectives: tuple[str, ...]
    bandwidth_factor: float
    factor_note: str
    in_network: bool
    references: tuple[Source, ...]
    _cost: Callable | None = field(default=None, repr=False)

    def cost(self, collective, n_ranks):
        """Steps and bytes sent by the busiest rank per byte of S, for a flat algorithm.

        Parameters
        ----------
        collective : str
            One of :attr:`collectives`.
        n_ranks : int
            Number of ranks, >= 1.

        Returns
        -------
        (int, float)
            Sequential steps :math:`k` and traffic factor :math:`\\tau` [-].

        Examples
        --------
        >>> ALGORITHMS["ring"].cost("all_reduce", 8)
        (14, 1.75)
        """
        if self._cost is None:
            raise ValueError(f"algorithm {self.name!r} has no flat cost: use collective_performance")
        if n_ranks == 1:
            return 0, 0.0
        return self._cost(collective, n_ranks)


_FLAT_REFERENCES = {
    "ring": (PATARASUK2009_RING, THAKUR2005_MPICH),
    "tree": (SANDERS2009_TWO_TREE,),
    "halving_doubling": (THAKUR2005_MPICH,),
}

#: Every algorithm, by name: the table that lists them and dispatches to their costs.
ALGORITHMS = MappingProxyType({entry.name: entry for entry in (
    Algorithm(
        name="ring", summary="ring: n−1 steps per phase, bandwidth-optimal",
        collectives=("all_reduce", "all_gather", "reduce_scatter", "broadcast", "reduce"),
        bandwidth_factor=1.0, factor_note="the reference: no extra factor",
        in_network=False, references=_FLAT_REFERENCES["ring"], _cost=_ring_cost),
    Algorithm(
        name="tree", summary="pipelined double binary tree: 2⌈log₂n⌉ steps",
        collectives=("all_reduce", "broadcast", "reduce"),
        bandwidth_factor=0.92,
        factor_note=("NCCL's cost model multiplies tree bandwidth by 0.92 "
                     "(src/graph/tuning.cc: busBw*.92)"),
        in_network=False, references=_FLAT_REFERENCES["tree"], _cost=_tree_cost),
    Algorithm(
        name="halving_doubling",
        summary="recursive halving then doubling: 2 log₂n steps",
        collectives=("all_reduce", "all_gather", "reduce_scatter", "broadcast", "reduce"),
        bandwidth_factor=1.0, factor_note="bandwidth-optimal for powers of two: no extra factor",
        in_network=False, references=_FLAT_REFERENCES["halving_doubling"],
        _cost=_halving_doubling_cost),
    Algorithm(
        name="direct", summary="direct sends to every peer at once (needs a switch)",
        collectives=("all_to_all", "send_recv", "all_gather", "reduce_scatter", "all_reduce"),
        bandwidth_factor=1.0, factor_note="no extra factor",
        in_network=False, references=(THAKUR2005_MPICH,), _cost=_direct_cost),
    Algorithm(
        name="hierarchical",
        summary="two levels: ring inside the node, network algorithm across nodes",
        collectives=("all_reduce", "reduce_scatter", "all_gather"),
        bandwidth_factor=1.0,
        factor_note="each level uses its own efficiency and its network algorithm's factor",
        in_network=False, references=(THAKUR2005_MPICH,), _cost=None),
    Algorithm(
        name="nvls", summary="NVLink SHARP: the NVSwitch reduces and multicasts",
        collectives=("all_reduce",),
        bandwidth_factor=0.85,
        factor_note=("NCCL's nvlsEfficiency for Hopper is 0.85 (0.74 for Blackwell), "
                     "src/tuning/nvls.cc"),
        in_network=True, references=(KLENK2020_NVLS, NCCL_TESTS_ISSUE_212, NCCL_NVLS_TUNING),
        _cost=_nvls_cost),
    Algorithm(
        name="sharp", summary="InfiniBand SHARP: switches reduce along an aggregation tree",
        collectives=("all_reduce",),
        bandwidth_factor=0.85,
        factor_note=("NCCL's cost model multiplies CollNet (SHARP) bandwidth by 0.85 on "
                     "Hopper (src/graph/tuning.cc)"),
        in_network=True, references=(GRAHAM2016_SHARP,), _cost=_sharp_cost),
)})


def algorithms_for(collective):
    """Names of the algorithms that implement ``collective``.

    Examples
    --------
    >>> algorithms_for("all_to_all")
    ('direct',)
    """
    check_choice("collective", collective, COLLECTIVES)
    return tuple(name for name, entry in ALGORITHMS.items() if collective in entry.collectives)


def _check_algorithm(name, collective, argument="algorithm"):
    check_choice(argument, name, ALGORITHMS)
    if collective not in ALGORITHMS[name].collectives:
        valid = ", ".join(repr(a) for a in algorithms_for(collective))
        raise ValueError(f"{argument} {name!r} does not implement {collective!r}; "
                         f"valid {argument}s for {collective!r} are: {valid}")


# nccl-tests definitions ---------------------------------------------------------

#: Where algbw, busbw and the busbw factors are defined.
BUS_BANDWIDTH_SOURCE = NCCL_TESTS_PERFORMANCE

def bus_bandwidth_factor(collective, n_ranks, *, in_network=False):
    """The factor nccl-tests multiplies algbw by to get busbw [-].

    ======================================  ===============
    collective                              factor
    ======================================  ===============
    all_reduce                              2(n−1)/n
    all_reduce, ``in_network=True``         (n−1)/(n+1)
    all_gather, reduce_scatter, all_to_all  (n−1)/n
    broadcast, reduce, send_recv            1
    ======================================  ===============

    Parameters
    ----------
    collective : str
        One of :data:`COLLECTIVES`.
    n_ranks : int
        Number of ranks, >= 1.
    in_network : bool
        Use the factor the nccl-tests documentation lists for all-reduce with
        in-network reduction.

    Returns
    -------
    float
        The factor [-].

    Notes
    -----
    The documentation lists "AllReduce (In-Network Reduction): (n-1)/(n+1)", and
    current nccl-tests applies it only when ``NCCL_ALGO`` is set to ``NVLS`` or
    ``NVLSTree``. Otherwise it applies 2(n−1)/n whatever algorithm NCCL chose,
    so that NVLS and ring runs stay comparable; that is how the published
    ~480 GB/s NVLS figure for 8 H100 was computed (algbw ~275 GB/s × 7/4), and it
    is the factor :class:`CollectiveResult` uses.

    References
    ----------
    NVIDIA, nccl-tests ``doc/PERFORMANCE.md`` and ``src/all_reduce.cu``.
    https://github.com/NVIDIA/nccl-tests/blob/master/doc/PERFORMANCE.md

    Examples
    --------
    >>> bus_bandwidth_factor("all_reduce", 8), bus_bandwidth_factor("all_gather", 8)
    (1.75, 0.875)
    >>> round(bus_bandwidth_factor("all_reduce", 8, in_network=True), 4)
    0.7778
    """
    check_choice("collective", collective, COLLECTIVES)
    n = check_integer("n_ranks", n_ranks, minimum=1)
    if in_network:
        if collective != "all_reduce":
            raise ValueError(f"in_network=True applies only to 'all_reduce', got {collective!r}")
        return (n - 1) / (n + 1)
    if collective == "all_reduce":
        return 2 * (n - 1) / n
    if collective in ("all_gather", "reduce_scatter", "all_to_all"):
        return (n - 1) / n
    return 1.0


def _as_output(value):
    return float(value) if np.ndim(value) == 0 else value


def algorithm_bandwidth(size_bytes, time_s):
    """Algorithm bandwidth as nccl-tests defines it: ``algbw = S / t`` [B/s].

    Parameters
    ----------
    size_bytes : float or array_like
        Message size S as nccl-tests counts it [B] (for all-gather and
        reduce-scatter, the whole array: per-rank count × type size × n).
    time_s : float or array_like
        Time of one operation [s], > 0.

    Returns
    -------
    float or numpy.ndarray
        Algorithm bandwidth [B/s].

    Examples
    --------
    >>> algorithm_bandwidth(1e9, 4e-3) / 1e9
    250.0
    """
    size = check_number("size_bytes", size_bytes, unit="B", minimum=0)
    time = check_number("time_s", time_s, unit="s", minimum=0, min_inclusive=False)
    return _as_output(np.divide(size, time))


def bus_bandwidth(collective, size_bytes, n_ranks, time_s, *, in_network=False):
    """Bus bandwidth as nccl-tests defines it: algbw × :func:`bus_bandwidth_factor` [B/s].

    Parameters
    ----------
    collective : str
        One of :data:`COLLECTIVES`.
    size_bytes : float or array_like
        Message size S as nccl-tests counts it [B].
    n_ranks : int
        Number of ranks, >= 1.
    time_s : float or array_like
        Time of one operation [s], > 0.
    in_network : bool
        Use the in-network all-reduce factor (n−1)/(n+1); see
        :func:`bus_bandwidth_factor`.

    Returns
    -------
    float or numpy.ndarray
        Bus bandwidth [B/s].

    References
    ----------
    NVIDIA, nccl-tests ``doc/PERFORMANCE.md``.
    https://github.com/NVIDIA/nccl-tests/blob/master/doc/PERFORMANCE.md

    Examples
    --------
    nccl-tests issue #212: NVLS all-reduce on 8 H100 at algbw 275 GB/s

    >>> round(bus_bandwidth("all_reduce", 275e9, 8, 1.0) / 1e9, 2)
    481.25
    """
    factor = bus_bandwidth_factor(collective, n_ranks, in_network=in_network)
    return _as_output(factor * np.asarray(algorithm_bandwidth(size_bytes, time_s)))


# The model ----------------------------------------------------------------------

@dataclass(frozen=True)
class CollectiveResult:
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


def _model(collective, size_bytes, n_ranks, bandwidth_bytes_per_s, latency_s, algorithm,
           base_latency_s, efficiency, algorithm_efficiency, ranks_per_node,
           network_bandwidth_bytes_per_s, network_latency_s, network_efficiency,
           network_algorithm):
    """Validate the inputs and return (latency term, seconds per byte, steps, traffic)."""
    check_choice("collective", collective, COLLECTIVES)
    _check_algorithm(algorithm, collective)
    n = check_integer("n_ranks", n_ranks, minimum=1)
    size = check_number("size_bytes", size_bytes, unit="B", minimum=0)
    bandwidth = check_number("bandwidth_bytes_per_s", bandwidth_bytes_per_s, unit="B/s",
                             minimum=0, min_inclusive=False)
    latency = check_number("latency_s", latency_s, unit="s", minimum=0)
    base = check_number("base_latency_s", base_latency_s, unit="s", minimum=0)
    eta = check_number("efficiency", efficiency, minimum=0, maximum=1, min_inclusive=False)
    if algorithm_efficiency is not None:
        algorithm_efficiency = check_number("algorithm_efficiency", algorithm_efficiency,
                                            minimum=0, maximum=1, min_inclusive=False)

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
        _check_algorithm(network_algorithm, collective, "network_algorithm")
        hierarchy = (per_node, network_algorithm)
        network_bandwidth = check_number("network_bandwidth_bytes_per_s",
                                         network_bandwidth_bytes_per_s, unit="B/s",
                                         minimum=0, min_inclusive=False)
        network_eta = check_number(
            "network_efficiency", NETWORK_EFFICIENCY if network_efficiency is None
            else network_efficiency, minimum=0, maximum=1, min_inclusive=False)
        level_bandwidth.append(network_eta * network_bandwidth)
        level_latency.append(check_number("network_latency_s", network_latency_s, unit="s",
                                          minimum=0))
    else:
        given = [name for name, value in network_arguments.items() if value is not None]
        if given:
            raise ValueError(f"{', '.join(given)} applies only to algorithm 'hierarchical', "
                             f"not {algorithm!r}")

    phases = _phases(collective, algorithm, n, hierarchy)
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
    seconds_per_byte = max(level_seconds_per_byte)
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
        Line rate of one rank's link, one direction [B/s], > 0 (for NVLink, all of
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
        Share η of the line rate data can use, in (0, 1] [-];
        :data:`NVLINK_EFFICIENCY` by default, pass :data:`NETWORK_EFFICIENCY` for a
        network port.
    algorithm_efficiency : float, optional
        Replaces the algorithm's factor :math:`\\eta_\\text{alg}` (on the first level)
        in (0, 1] [-], e.g. 0.74 for NVLS on Blackwell.
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
    CollectiveResult
        Time, both bandwidths, steps and bytes per rank.

    Raises
    ------
    ValueError
        For an unknown collective or algorithm (the message lists the valid
        ones), an algorithm that does not implement the collective, or a value
        out of range (the message names the parameter, its unit and the range).

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
    size, n, latency_term, seconds_per_byte, steps, traffic = _model(
        collective, size_bytes, n_ranks, bandwidth_bytes_per_s, latency_s, algorithm,
        base_latency_s, efficiency, algorithm_efficiency, ranks_per_node,
        network_bandwidth_bytes_per_s, network_latency_s, network_efficiency, network_algorithm)
    bandwidth_term = size * seconds_per_byte
    time = latency_term + bandwidth_term
    if np.ndim(time):
        size, time, latency_term, bandwidth_term = (
            np.array(a) for a in np.broadcast_arrays(size, time, latency_term, bandwidth_term))
    with np.errstate(divide="ignore", invalid="ignore"):
        algbw = np.where(time > 0, np.divide(size, np.where(time > 0, time, 1.0)),
                         np.where(size > 0, np.inf, 0.0))
    factor = bus_bandwidth_factor(collective, n)
    with np.errstate(invalid="ignore"):
        busbw = np.where(factor > 0, factor * algbw, 0.0)
    return CollectiveResult(
        collective=collective, algorithm=algorithm, n_ranks=n,
        size_bytes=_as_output(size), time_s=_as_output(time),
        latency_term_s=_as_output(latency_term), bandwidth_term_s=_as_output(bandwidth_term),
        steps=int(steps), bytes_sent_per_rank=_as_output(traffic * np.asarray(size)),
        algorithm_bandwidth_bytes_per_s=_as_output(algbw),
        bus_bandwidth_bytes_per_s=_as_output(busbw),
    )


def collective_time(collective, size_bytes, n_ranks, bandwidth_bytes_per_s, latency_s,
                    algorithm="ring", **options):
    """Time of one collective [s]: ``collective_performance(...).time_s``.

    Parameters are those of :func:`collective_performance`; keyword ``options``
    are its keyword-only parameters.

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
    :math:`t = t_0 + (n-1)\\alpha + \\frac{n-1}{n}\\frac{S}{\\eta B}`. Parameters as
    :func:`all_reduce_time`; algorithms ``"ring"``, ``"halving_doubling"``,
    ``"direct"``, ``"hierarchical"``.

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
    :math:`t = t_0 + (n-1)\\alpha + \\frac{n-1}{n}\\frac{S}{\\eta B}`. Parameters as
    :func:`all_reduce_time`; algorithms ``"ring"``, ``"halving_doubling"``,
    ``"direct"``, ``"hierarchical"``.

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
    Parameters as :func:`all_reduce_time`; algorithms ``"ring"``, ``"tree"``,
    ``"halving_doubling"``.

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
    Parameters as :func:`all_reduce_time`; algorithms ``"ring"``, ``"tree"``,
    ``"halving_doubling"``.

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

    Examples
    --------
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

    >>> from interconnect_lab import units as u
    >>> s = crossover_size("all_reduce", 64, 50 * u.GB_per_s, NETWORK_STEP_LATENCY_S,
    ...                    efficiency=NETWORK_EFFICIENCY)
    >>> round(s / u.MB)
    373
    >>> crossover_size("all_reduce", 2, 450e9, 3.4e-6)
    inf
    """
    arguments = (collective, 0.0, n_ranks, bandwidth_bytes_per_s, latency_s)
    _, _, latency_first, per_byte_first, _, _ = _model(*arguments, first,
                                                       *_option_tuple(options))
    _, _, latency_second, per_byte_second, _, _ = _model(*arguments, second,
                                                         *_option_tuple(options))
    numerator = np.asarray(latency_second - latency_first, dtype=float)
    denominator = np.asarray(per_byte_first - per_byte_second, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        size = np.where(denominator != 0, numerator / np.where(denominator != 0, denominator, 1.0),
                        np.inf)
    size = np.where(size > 0, size, np.inf)
    return _as_output(size)


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

    >>> round(half_bandwidth_size("all_reduce", 8, 450e9, NVLINK_STEP_LATENCY_S) / 1e6, 2)
    11.52
    >>> r = collective_performance("all_reduce", 11.52e6, 8, 450e9, NVLINK_STEP_LATENCY_S)
    >>> round(r.algorithm_bandwidth_bytes_per_s / (360e9 / 1.75), 3)
    0.5
    """
    _, _, latency_term, per_byte, _, _ = _model(collective, 0.0, n_ranks, bandwidth_bytes_per_s,
                                                latency_s, algorithm, *_option_tuple(options))
    latency_term = np.asarray(latency_term, dtype=float)
    per_byte = np.asarray(per_byte, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        size = np.where(per_byte > 0, latency_term / np.where(per_byte > 0, per_byte, 1.0), np.inf)
    return _as_output(size)


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
