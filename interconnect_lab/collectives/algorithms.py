"""Collective algorithms: each one's steps and bytes, and the bus-bandwidth factor nccl-tests uses."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from types import MappingProxyType

import numpy as np

from .._validation import as_output, check_choice, check_finite_result, check_integer, check_number
from ..sources import (
    GRAHAM2016_SHARP, KLENK2020_NVLS, NCCL_NVLS_TUNING, NCCL_TESTS_ISSUE_212,
    NCCL_TESTS_PERFORMANCE, PATARASUK2009_RING, SANDERS2009_TWO_TREE, THAKUR2005_MPICH, Source,
)
from .defaults import COLLECTIVES


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

    Parameters
    ----------
    collective : str
        One of :data:`COLLECTIVES`.

    Examples
    --------
    >>> algorithms_for("all_to_all")
    ('direct',)
    """
    check_choice("collective", collective, COLLECTIVES)
    return tuple(name for name, entry in ALGORITHMS.items() if collective in entry.collectives)


def check_algorithm(name, collective, argument="algorithm"):
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
    is the factor :class:`CollectivePerformance` uses.

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
    with np.errstate(over="ignore"):
        algbw = np.divide(size, time)
    return as_output(check_finite_result("algorithm bandwidth", algbw, unit="B/s", size_bytes=size_bytes,
                                          time_s=time_s))


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
    with np.errstate(over="ignore"):
        busbw = factor * np.asarray(algorithm_bandwidth(size_bytes, time_s))
    return as_output(check_finite_result("bus bandwidth", busbw, unit="B/s", size_bytes=size_bytes, time_s=time_s))
