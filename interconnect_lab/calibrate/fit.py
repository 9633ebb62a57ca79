"""Fit the library's α-β collective model to a measured nccl-tests sweep.

The α-β model of :mod:`interconnect_lab.collectives` says a collective of
``S`` bytes takes ``t = L + c S``: a latency term ``L = t₀ + kα`` and a
bandwidth term whose slope ``c = τ / (η B)`` sets the large-message bus
bandwidth ``f(n) / c``. A real sweep is not one straight line: NCCL switches
protocol (``LL``, ``LL128``, ``Simple``) and algorithm (ring, tree, NVLS) as
the message grows, so the time is a straight line *per regime*. The fit cuts
the sweep into the fewest contiguous size ranges whose own lines reproduce
every measured time above 1 MiB within a tolerance (5 % by default), each
fitted by least squares on relative error with ``L ≥ 0`` and ``c ≥ 0``, and
names each size's regime:

- **latency-bound** where the fitted time is less than twice the time of the
  smallest message: the size adds less than the fixed cost (Hockney's
  half-performance length, with the smallest message's time as the latency);
- **bandwidth-bound** in the largest-size range where the bytes dominate
  (``cS ≥ L`` on its line): the plateau that busbw approaches, the number to
  compare with the link;
- **protocol-bound** in between: no longer latency-bound, not yet on the
  plateau's line, because NCCL uses a lighter protocol (``LL``, ``LL128``) or
  another algorithm for those sizes, with its own fixed cost and bandwidth
  (``NCCL_DEBUG=INFO`` names them).

A sweep whose every size is at least :data:`PLATEAU_FROM_BYTES` (256 MiB), as
vendors publish them (``-b 512M`` or ``# Truncated  smaller message sizes``),
shows no latency: at those sizes a collective takes milliseconds, and NCCL's
latency of tens of microseconds is hidden in the run-to-run spread. The
intercept of a line through such sizes would be an extrapolation, not a
measured latency, so the fit *determines the bandwidth only*
(``fit.determines == "bandwidth"``): its lines go through the origin
(``t = c S``, one bus bandwidth per size range), every size is bandwidth-bound,
:attr:`CollectiveFit.latency_s` is None and no :class:`CalibratedLink`, which
needs a latency, is made from it. One such size is enough.

:class:`CalibratedLink` turns a fit into the parameters the library's models
take in place of a catalog link (``bandwidth_bytes_per_s``, ``latency_s``,
``base_latency_s``, ``efficiency``); :func:`calibrated_cluster` puts measured
bandwidths into a :class:`interconnect_lab.training.Cluster` for the training
model. The sweep is compared with the collective model by
:func:`interconnect_lab.calibrate.comparison.compare_with_model` (the former
``compare_bus_bandwidth``, which compared it with a link's α-β prediction, is
deprecated).

References
----------
R. Hockney, "The communication challenge for MPP: Intel Paragon and Meiko
CS-2", Parallel Computing 20(3), 1994 (the α-β, or latency-bandwidth, model).
https://doi.org/10.1016/0167-8191(94)90032-9

NVIDIA, nccl-tests ``doc/PERFORMANCE.md`` (algbw, busbw).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .. import catalog, training
from .. import collectives as coll
from .. import units as u
from .._deprecation import renamed_attribute
from .._lookup import resolve
from .._validation import check_choice, check_integer, check_number
from ..collectives.reproduction import BANDS
from .nccl_tests import NcclTestsRun

__all__ = [
    "REGIMES", "DETERMINES", "PLATEAU_FROM_BYTES", "AlphaBetaSegment", "CollectiveFit", "fit_collective",
    "CalibratedLink", "CalibratedCluster", "calibrated_cluster",
    "MAX_FIT_SIZES", "MAX_SEGMENTS",
]

#: Regime names, smallest messages first.
REGIMES = ("latency-bound", "protocol-bound", "bandwidth-bound")

#: What a fit determines: ``"latency and bandwidth"`` from a sweep that reaches below
#: :data:`PLATEAU_FROM_BYTES`, ``"bandwidth"`` from one that does not.
DETERMINES = ("latency and bandwidth", "bandwidth")

#: Smallest size of the bandwidth plateau [B]: a sweep with no size below it determines the
#: bandwidth only. The lower edge of the "large" band of chapter 7's reproduction table
#: (:data:`interconnect_lab.collectives.reproduction.BANDS`), 256 MiB.
PLATEAU_FROM_BYTES = dict((name, limits) for name, limits, _ in BANDS)["large"][0]

#: Default size from which a fit must reproduce the sweep within its tolerance [B].
FIT_FROM_BYTES = 1 * u.MiB

#: Most sizes (rows above 0 B) a fit takes [-]. The fit tries every cut of the sweep into
#: contiguous ranges, in a time that grows with the square of the sizes: 128 take about half a
#: second. nccl-tests' default sweep, 8 B to 16 GiB by factors of 2, has 32.
MAX_FIT_SIZES = 128

#: Most lines a fit may use [-].
MAX_SEGMENTS = 10


def _bus_factor(run):
    """nccl-tests' busbw factor of ``run`` [-]; a ValueError if it needs a rank count the log does not state."""
    if run.n_ranks is None:
        if run.collective in ("broadcast", "reduce", "send_recv"):
            return 1.0
        raise ValueError(f"the number of ranks of this {run.collective} run is not known (the log does not state "
                         "it): parse the log with n_ranks=...")
    return coll.bus_bandwidth_factor(run.collective, run.n_ranks)


def _nodes(run):
    """(nodes, ranks per node) of ``run``, or (None, None) where the log does not list every rank."""
    if not getattr(run, "rank_lines_complete", True):
        return None, None
    try:
        return run.n_nodes, run.ranks_per_node
    except ValueError:      # hosts hold different numbers of ranks
        return run.n_nodes, None


def _sweep(run, placement):
    """The sizes above 0 B of ``run`` and their measured times (:meth:`NcclTestsRun.sweep`), enough of them."""
    size, time = run.sweep(placement)
    if len(size) < 2 and not (len(size) == 1 and size[0] >= PLATEAU_FROM_BYTES):
        raise ValueError(f"a fit needs at least two rows with a size above 0 B (or one of at least "
                         f"{u.format_bytes(PLATEAU_FROM_BYTES, binary=True)}, for the bandwidth only); "
                         f"this run has {len(size)}")
    if len(size) > MAX_FIT_SIZES:
        raise ValueError(f"this run has {len(size)} sizes above 0 B: a fit takes at most MAX_FIT_SIZES = "
                         f"{MAX_FIT_SIZES} (keep every second size, or the range that matters)")
    return size, time


@dataclass(frozen=True)
class AlphaBetaSegment:
    """One straight line ``t = L + c S`` of a fit, over a contiguous range of sizes.

    Attributes
    ----------
    first_size_bytes, last_size_bytes : float
        Smallest and largest measured size the line was fitted to [B].
    latency_term_s : float
        ``L``, the time at zero size [s].
    seconds_per_byte : float
        ``c``, the slope [s/B].
    bus_factor : float
        nccl-tests' busbw factor ``f(n)`` of the run [-].
    last : bool
        True for the range of the largest sizes.
    """

    first_size_bytes: float
    last_size_bytes: float
    latency_term_s: float
    seconds_per_byte: float
    bus_factor: float
    last: bool

    @property
    def bus_bandwidth_bytes_per_s(self) -> float:
        """The busbw this line tends to at large sizes, ``f(n) / c`` [B/s] (inf if c = 0)."""
        return self.bus_factor / self.seconds_per_byte if self.seconds_per_byte > 0 else float("inf")

    def time_s(self, size_bytes):
        """``L + c S`` [s]."""
        return self.latency_term_s + self.seconds_per_byte * np.asarray(size_bytes, dtype=float)


def _regime(segment, size, floor_s, determines):
    if determines == "bandwidth":
        return "bandwidth-bound"
    if segment.time_s(size) < 2.0 * floor_s:
        return "latency-bound"
    if segment.last and segment.seconds_per_byte * size >= segment.latency_term_s:
        return "bandwidth-bound"
    return "protocol-bound"


@dataclass(frozen=True)
class CollectiveFit:
    """A measured sweep and the piecewise α-β lines fitted to it.

    Attributes
    ----------
    label : str
        What was measured (for legends and readouts).
    collective : str
        The collective.
    n_ranks : int or None
        Ranks of the run (None where the log does not state them; broadcast, reduce and
        send/recv only).
    n_nodes : int or None
        Hosts of the run; None where the log does not list every rank.
    placement : str
        ``"out_of_place"`` or ``"in_place"``: which times were fitted.
    size_bytes : numpy.ndarray
        The fitted sizes (every row with S > 0) [B].
    measured_time_s : numpy.ndarray
        Their measured times [s].
    measured_bus_bandwidth_bytes_per_s : numpy.ndarray
        busbw recomputed from size and time, ``f(n) S / t`` [B/s].
    segments : tuple of AlphaBetaSegment
        The lines, smallest sizes first.
    tolerance : float
        The relative error the fit aimed for above ``fit_from_bytes`` [-].
    fit_from_bytes : float
        Size from which the tolerance applies [B].
    ranks_per_node : int or None
        Ranks on each host; None where the log does not list every rank (or hosts differ).
    determines : str
        ``"latency and bandwidth"``, or ``"bandwidth"`` for a sweep of plateau sizes only
        (every size >= :data:`PLATEAU_FROM_BYTES`): then every line goes through the origin
        and no latency is reported (:data:`DETERMINES`).
    """

    label: str
    collective: str
    n_ranks: int | None
    n_nodes: int | None
    placement: str
    size_bytes: np.ndarray
    measured_time_s: np.ndarray
    measured_bus_bandwidth_bytes_per_s: np.ndarray
    segments: tuple
    tolerance: float
    fit_from_bytes: float
    ranks_per_node: int | None = field(default=1)
    determines: str = "latency and bandwidth"

    def _segment_index(self, size_bytes):
        size = np.asarray(size_bytes, dtype=float)
        edges = np.array([np.sqrt(a.last_size_bytes * b.first_size_bytes)
                          for a, b in zip(self.segments[:-1], self.segments[1:])])
        return np.searchsorted(edges, size, side="right") if len(edges) else np.zeros(size.shape, int)

    def predicted_time_s(self, size_bytes):
        """Time the fitted lines give at each size [s] (sizes between ranges use the nearer line)."""
        size = check_number("size_bytes", size_bytes, unit="B", minimum=0)
        index = np.atleast_1d(self._segment_index(size))
        sizes = np.atleast_1d(size)
        times = np.array([self.segments[i].time_s(s) for i, s in zip(index, sizes)], dtype=float)
        return float(times[0]) if np.ndim(size) == 0 else times

    def predicted_bus_bandwidth_bytes_per_s(self, size_bytes):
        """busbw the fitted lines give at each size, ``f(n) S / t`` [B/s]."""
        size = check_number("size_bytes", size_bytes, unit="B", minimum=0)
        factor = self.segments[0].bus_factor
        return factor * np.asarray(size) / np.asarray(self.predicted_time_s(size))

    @property
    def relative_residual(self) -> np.ndarray:
        """Fitted over measured busbw, minus 1, at every fitted size [-]."""
        return self.measured_time_s / self.predicted_time_s(self.size_bytes) - 1.0

    def max_relative_error(self, min_size_bytes=FIT_FROM_BYTES) -> float:
        """Largest ``|relative_residual|`` at sizes >= ``min_size_bytes`` [-] (0 if none)."""
        chosen = self.size_bytes >= min_size_bytes
        return float(np.max(np.abs(self.relative_residual[chosen]))) if chosen.any() else 0.0

    def regime(self, size_bytes):
        """Regime name at each size (``"latency-bound"``, ``"protocol-bound"``, ``"bandwidth-bound"``)."""
        sizes = np.atleast_1d(np.asarray(size_bytes, dtype=float))
        floor = float(self.segments[0].time_s(self.size_bytes[0]))
        names = tuple(_regime(self.segments[i], s, floor, self.determines)
                      for i, s in zip(np.atleast_1d(self._segment_index(sizes)), sizes))
        return names[0] if np.ndim(size_bytes) == 0 else names

    @property
    def latency_s(self) -> float | None:
        """The latency the sweep shows: the time at zero size of the smallest sizes' line [s];
        None for a sweep of plateau sizes only, which determines the bandwidth only."""
        return None if self.determines == "bandwidth" else self.segments[0].latency_term_s

    @property
    def plateau_bus_bandwidth_bytes_per_s(self) -> float:
        """busbw the largest-size line tends to, ``f(n)/c`` [B/s] (inf if its slope c is 0)."""
        return self.segments[-1].bus_bandwidth_bytes_per_s

    def link(self, name=None) -> "CalibratedLink":
        """The :class:`CalibratedLink` this fit implies (see there)."""
        return CalibratedLink.from_fit(self, name=name)

    def describe(self) -> str:
        """The segments as a short text table."""
        lines = [f"{self.label}: {len(self.segments)} regime line(s), worst error above "
                 f"{u.format_bytes(self.fit_from_bytes, binary=True)} {self.max_relative_error(self.fit_from_bytes):.1%}"]
        if self.determines == "bandwidth":
            lines.append(f"  determines the bandwidth only: every size is at least "
                         f"{u.format_bytes(PLATEAU_FROM_BYTES, binary=True)}, where NCCL's latency is hidden in the "
                         "spread of the times; no latency reported")
            for s in self.segments:
                lines.append(f"  {u.format_bytes(s.first_size_bytes):>9} - {u.format_bytes(s.last_size_bytes):>9}: "
                             f"busbw {s.bus_bandwidth_bytes_per_s / u.GB_per_s:7.1f} GB/s")
            return "\n".join(lines)
        for s in self.segments:
            lines.append(f"  {u.format_bytes(s.first_size_bytes):>9} - {u.format_bytes(s.last_size_bytes):>9}: "
                         f"L = {s.latency_term_s / u.us:8.1f} us, f/c = "
                         f"{s.bus_bandwidth_bytes_per_s / u.GB_per_s:7.1f} GB/s "
                         f"({self.regime(s.last_size_bytes)} at its largest size)")
        return "\n".join(lines)


def _line(size, time, intercept=True):
    """Least-squares ``t = L + c S`` on relative error, with L >= 0 and c >= 0; (L, c, cost).

    ``intercept=False`` fits ``t = c S`` (L = 0): a line through the origin.
    """
    a = np.column_stack([1.0 / time, size / time])
    if not intercept:
        slope = float(np.sum(a[:, 1]) / np.sum(a[:, 1] ** 2))
        return 0.0, slope, float(np.sum((slope * size / time - 1.0) ** 2))
    candidates = []
    solution, *_ = np.linalg.lstsq(a, np.ones_like(time), rcond=None)
    if solution[0] >= 0 and solution[1] >= 0:
        candidates.append((float(solution[0]), float(solution[1])))
    slope_only = float(np.sum(a[:, 1]) / np.sum(a[:, 1] ** 2))
    candidates.append((0.0, max(slope_only, 0.0)))
    candidates.append((float(np.sum(a[:, 0]) / np.sum(a[:, 0] ** 2)), 0.0))
    best = min(candidates, key=lambda lc: float(np.sum(((lc[0] + lc[1] * size) / time - 1.0) ** 2)))
    cost = float(np.sum(((best[0] + best[1] * size) / time - 1.0) ** 2))
    return best[0], best[1], cost


def _segmentations(size, time, max_segments, intercept=True):
    """Best cut into k contiguous ranges of >= 2 points, for every k: {k: [(i, j), ...]}."""
    n = len(size)
    if n == 1:
        return {1: [(0, 0)]}
    cost = np.full((n, n), np.inf)
    for i in range(n):
        for j in range(i + 1, n):
            cost[i, j] = _line(size[i:j + 1], time[i:j + 1], intercept)[2]
    best = {1: {j: (cost[0, j], [(0, j)]) for j in range(1, n)}}
    for k in range(2, max_segments + 1):
        best[k] = {}
        for j in range(2 * k - 1, n):
            options = [(best[k - 1][i - 1][0] + cost[i, j], best[k - 1][i - 1][1] + [(i, j)])
                       for i in range(2 * (k - 1), j) if (i - 1) in best[k - 1]]
            if options:
                best[k][j] = min(options, key=lambda o: o[0])
    return {k: table[n - 1][1] for k, table in best.items() if (n - 1) in table}


def fit_collective(run, *, placement="out_of_place", tolerance=0.05, fit_from_bytes=FIT_FROM_BYTES,
                   max_segments=5, label=None):
    """Fit piecewise α-β lines to a measured nccl-tests sweep.

    For k = 1, 2, … up to ``max_segments`` the sweep is cut into k contiguous
    size ranges (at least two sizes each) that minimise the summed squared
    relative error of ``t = L + cS`` fitted on each (``L, c >= 0``); the
    smallest k whose worst error at sizes >= ``fit_from_bytes`` is within
    ``tolerance`` is kept (else the k with the smallest worst error).

    A sweep whose every size is at least :data:`PLATEAU_FROM_BYTES` determines
    the bandwidth only (``determines == "bandwidth"``): each line is ``t = cS``,
    through the origin, and one size is enough.

    Parameters
    ----------
    run : NcclTestsRun
        A parsed sweep (:func:`~interconnect_lab.calibrate.nccl_tests.parse_nccl_tests`).
    placement : str
        ``"out_of_place"`` (nccl-tests' first group, the default) or ``"in_place"``.
    tolerance : float
        Target relative error, in (0, 1) [-].
    fit_from_bytes : float
        Sizes from which the target applies [B]; smaller ones are fitted too.
    max_segments : int
        Most lines to use, in [1, :data:`MAX_SEGMENTS`].
    label : str, optional
        Name for legends; the run's description if omitted.

    Returns
    -------
    CollectiveFit

    Raises
    ------
    TypeError
        If ``run`` is not an :class:`NcclTestsRun`.
    ValueError
        If fewer than two rows (one for plateau sizes; or more than :data:`MAX_FIT_SIZES`) have a
        size above zero, the sizes do not grow row by row, a time is not in [1e-12, 1e6] s, the
        number of ranks the busbw factor needs is not known, or a parameter is out of range.

    Examples
    --------
    >>> from interconnect_lab.calibrate import shipped_run
    >>> fit = fit_collective(shipped_run("v100_dgx2_all_reduce"))
    >>> round(fit.plateau_bus_bandwidth_bytes_per_s / 1e9), fit.determines
    (124, 'latency and bandwidth')
    >>> fit.max_relative_error() < 0.05, round(fit.latency_s * 1e6)
    (True, 62)

    A sweep of 1 GiB and 10 GiB only, as Oracle published it, determines the bandwidth only:

    >>> plateau = fit_collective(shipped_run("a100_2x8_roce_all_reduce_large"))
    >>> plateau.determines, plateau.latency_s, round(plateau.plateau_bus_bandwidth_bytes_per_s / 1e9)
    ('bandwidth', None, 176)
    """
    if not isinstance(run, NcclTestsRun):
        raise TypeError(f"run must be an NcclTestsRun (see parse_nccl_tests), got {type(run).__name__}")
    tolerance = check_number("tolerance", tolerance, minimum=0, maximum=1, min_inclusive=False,
                             max_inclusive=False, scalar=True)
    fit_from_bytes = check_number("fit_from_bytes", fit_from_bytes, unit="B", minimum=0, scalar=True)
    max_segments = check_integer("max_segments", max_segments, minimum=1, maximum=MAX_SEGMENTS)
    size, time = _sweep(run, placement)
    factor = _bus_factor(run)
    n_nodes, ranks_per_node = _nodes(run)
    determines = "bandwidth" if size[0] >= PLATEAU_FROM_BYTES else "latency and bandwidth"
    intercept = determines != "bandwidth"
    chosen = None
    for k, cuts in sorted(_segmentations(size, time, max(1, min(max_segments, len(size) // 2)), intercept).items()):
        segments = []
        for number, (i, j) in enumerate(cuts):
            latency, slope, _ = _line(size[i:j + 1], time[i:j + 1], intercept)
            segments.append(AlphaBetaSegment(first_size_bytes=float(size[i]), last_size_bytes=float(size[j]),
                                             latency_term_s=latency, seconds_per_byte=slope,
                                             bus_factor=factor, last=number == len(cuts) - 1))
        candidate = CollectiveFit(
            label=label or run.describe(), collective=run.collective, n_ranks=run.n_ranks,
            n_nodes=n_nodes, placement=placement, size_bytes=size, measured_time_s=time,
            measured_bus_bandwidth_bytes_per_s=factor * size / time, segments=tuple(segments),
            tolerance=tolerance, fit_from_bytes=fit_from_bytes,
            ranks_per_node=ranks_per_node, determines=determines)
        error = candidate.max_relative_error(fit_from_bytes)
        if chosen is None or error < chosen[0] - 1e-12:
            chosen = (error, candidate)
        if error <= tolerance:
            return candidate
    return chosen[1]


def _flat_algorithm(collective):
    return "direct" if collective in ("all_to_all", "send_recv") else "ring"


def _usable_bandwidth(fit):
    """Usable bandwidth per rank of the flat algorithm whose busbw the largest sizes reached [B/s]."""
    if fit.n_ranks is None:
        raise ValueError(f"the number of ranks of {fit.label!r} is not known: parse the log with n_ranks=...")
    _, traffic = coll.ALGORITHMS[_flat_algorithm(fit.collective)].cost(fit.collective, fit.n_ranks)
    last = fit.segments[-1]
    if last.seconds_per_byte <= 0:
        raise ValueError(f"the largest sizes of {fit.label!r} show no bandwidth term (the time does not "
                         "grow with the size): sweep to larger messages (-e 8G) to calibrate bandwidth")
    return traffic / last.seconds_per_byte


@dataclass(frozen=True, kw_only=True)
class CalibratedLink:
    """A link described by measurement instead of the catalog: what the models take.

    The bandwidth is the *usable* per-rank bandwidth the largest sizes reached
    (efficiency 1: protocol overhead is already in the measurement); the
    latency comes from the smallest sizes: NCCL's launch constant ``t₀`` (at
    most the measured latency term) plus ``α`` per step of the algorithm.

    Attributes
    ----------
    name : str
        Label.
    collective : str
        The collective it was measured with.
    n_ranks, n_nodes, ranks_per_node : int
        The measured run's ranks and hosts.
    algorithm : str
        The flat algorithm the parameters are expressed for (``"ring"``, or
        ``"direct"`` for all-to-all and send/recv).
    bandwidth_bytes_per_s : float
        Usable bandwidth per rank, one direction: ``τ / c`` of the largest-size
        line [B/s]. Its busbw equals the measured plateau.
    latency_s : float
        α, latency of one step [s].
    base_latency_s : float
        t₀, fixed latency of one collective [s].
    """

    name: str
    collective: str
    n_ranks: int
    n_nodes: int
    ranks_per_node: int
    algorithm: str
    bandwidth_bytes_per_s: float
    latency_s: float
    base_latency_s: float

    @classmethod
    def from_fit(cls, fit, *, name=None):
        """Build from a :class:`CollectiveFit` (see the class docstring for how)."""
        if not isinstance(fit, CollectiveFit):
            raise TypeError(f"fit must be a CollectiveFit, got {type(fit).__name__}")
        if fit.latency_s is None:
            raise ValueError(f"{fit.label!r} determines the bandwidth only (every size is at least "
                             f"{u.format_bytes(PLATEAU_FROM_BYTES, binary=True)}): a calibrated link needs a latency "
                             "too; sweep from small messages (-b 8) to calibrate one")
        algorithm = _flat_algorithm(fit.collective)
        steps, _ = coll.ALGORITHMS[algorithm].cost(fit.collective, fit.n_ranks)
        first = fit.segments[0]
        bandwidth = _usable_bandwidth(fit)
        base = min(coll.BASE_LATENCY_S, first.latency_term_s)
        alpha = (first.latency_term_s - base) / max(steps, 1)
        return cls(name=name or fit.label, collective=fit.collective, n_ranks=fit.n_ranks,
                   n_nodes=fit.n_nodes, ranks_per_node=fit.ranks_per_node, algorithm=algorithm,
                   bandwidth_bytes_per_s=bandwidth, latency_s=alpha,
                   base_latency_s=base)

    def collective_kwargs(self) -> dict:
        """Keywords for :func:`~interconnect_lab.collectives.collective_performance` and friends.

        ``bandwidth_bytes_per_s``, ``latency_s``, ``base_latency_s`` and
        ``efficiency=1.0`` (the measured bandwidth is already usable).

        Examples
        --------
        >>> from interconnect_lab import collectives as coll
        >>> from interconnect_lab.calibrate import shipped_run, fit_collective
        >>> link = fit_collective(shipped_run("v100_dgx2_all_reduce")).link()
        >>> r = coll.collective_performance("all_reduce", 8 * 2**30, 12, **link.collective_kwargs())
        >>> round(r.bus_bandwidth_bytes_per_s / 1e9)
        124
        """
        return {"bandwidth_bytes_per_s": self.bandwidth_bytes_per_s, "latency_s": self.latency_s,
                "base_latency_s": self.base_latency_s, "efficiency": 1.0}

    def predict(self, size_bytes, n_ranks=None, collective=None):
        """The library's α-β model with these parameters [CollectivePerformance].

        ``n_ranks`` and ``collective`` default to the measured run's: the
        prediction at another scale is the point of calibrating.
        """
        collective = collective or self.collective
        return coll.collective_performance(collective, size_bytes, n_ranks or self.n_ranks,
                                           algorithm=_flat_algorithm(collective), **self.collective_kwargs())


@dataclass(frozen=True)
class _BusBandwidthComparison:
    """Measured busbw against an α-β prediction, size by size (deprecated: see :class:`ModelComparison`).

    Attributes
    ----------
    label : str
        What was measured.
    prediction_label : str
        What predicted it.
    collective : str
        The collective.
    n_ranks : int
        Ranks.
    size_bytes : numpy.ndarray
        Sizes (S > 0) [B].
    measured_bus_bandwidth_bytes_per_s, predicted_bus_bandwidth_bytes_per_s : numpy.ndarray
        busbw [B/s].
    ratio : numpy.ndarray
        measured / predicted [-].
    regime : tuple of str
        Each size's regime in the measurement's fit.
    """

    label: str
    prediction_label: str
    collective: str
    n_ranks: int
    size_bytes: np.ndarray
    measured_bus_bandwidth_bytes_per_s: np.ndarray
    predicted_bus_bandwidth_bytes_per_s: np.ndarray
    ratio: np.ndarray
    regime: tuple

    def disagreements(self, tolerance=0.10) -> tuple:
        """(size [B], ratio, regime) wherever ``|ratio - 1| > tolerance``."""
        tolerance = check_number("tolerance", tolerance, minimum=0)
        return tuple((float(s), float(r), g) for s, r, g in zip(self.size_bytes, self.ratio, self.regime)
                     if abs(r - 1.0) > tolerance)

    def worst_by_regime(self) -> dict:
        """Regime → (size [B], ratio) farthest from 1 within it."""
        result = {}
        for s, r, g in zip(self.size_bytes, self.ratio, self.regime):
            if g not in result or abs(np.log(r)) > abs(np.log(result[g][1])):
                result[g] = (float(s), float(r))
        return {g: result[g] for g in REGIMES if g in result}


def compare_bus_bandwidth_as_catalog(run, *, bandwidth_bytes_per_s, latency_s, algorithm="ring", fit=None,
                                     placement="out_of_place", prediction_label="model", **options):
    """Set a measured sweep against a link's α-β prediction for the same collective and ranks.

    The former public ``compare_bus_bandwidth``, deprecated (``_deprecation.REPLACED_NAMES``):
    compare a sweep with the collective model for its machine with
    :func:`~interconnect_lab.calibrate.comparison.compare_with_model`.

    Parameters
    ----------
    run : NcclTestsRun
        The measurement.
    bandwidth_bytes_per_s, latency_s, algorithm, **options
        Passed to :func:`~interconnect_lab.collectives.collective_performance`
        (catalog parameters from ``collectives.link_parameters(...)``, or a
        :meth:`CalibratedLink.collective_kwargs`).
    fit : CollectiveFit, optional
        Names each size's regime; fitted here if omitted.
    placement : str
        Which measured times to use.
    prediction_label : str
        Label of the prediction.

    Returns
    -------
    _BusBandwidthComparison

    Examples
    --------
    >>> from interconnect_lab import catalog, collectives as coll
    >>> from interconnect_lab.calibrate import shipped_run
    >>> run = shipped_run("v100_dgx2_all_reduce")
    >>> c = compare_bus_bandwidth_as_catalog(run, **coll.link_parameters(catalog.link("NVLink 2")))
    >>> round(float(c.ratio[-1]), 2), c.regime[-1]
    (1.03, 'bandwidth-bound')
    """
    if not isinstance(run, NcclTestsRun):
        raise TypeError(f"run must be an NcclTestsRun (see parse_nccl_tests), got {type(run).__name__}")
    fit = fit if fit is not None else fit_collective(run, placement=placement)
    if not isinstance(fit, CollectiveFit):
        raise TypeError(f"fit must be a CollectiveFit, got {type(fit).__name__}")
    size, time = _sweep(run, placement)
    factor = coll.bus_bandwidth_factor(run.collective, run.n_ranks)
    measured = factor * size / time
    predicted = coll.collective_performance(run.collective, size, run.n_ranks, bandwidth_bytes_per_s,
                                            latency_s, algorithm, **options).bus_bandwidth_bytes_per_s
    return _BusBandwidthComparison(
        label=fit.label, prediction_label=prediction_label, collective=run.collective, n_ranks=run.n_ranks,
        size_bytes=size, measured_bus_bandwidth_bytes_per_s=measured,
        predicted_bus_bandwidth_bytes_per_s=np.asarray(predicted, dtype=float),
        ratio=measured / np.asarray(predicted, dtype=float), regime=tuple(fit.regime(size)))


# Clusters for the training model -----------------------------------------------------

@dataclass(frozen=True, kw_only=True)
class CalibratedCluster(training.Cluster):
    """A :class:`~interconnect_lab.training.Cluster` whose bandwidths were measured.

    The catalog names (GPU, links, NICs) still describe the hardware; the
    measured values replace the catalog's per-GPU bandwidths. The training
    model multiplies the scale-up rate by ``collectives.NVLINK_EFFICIENCY``
    and the scale-out rate by ``NETWORK_EFFICIENCY``; the measured *usable*
    rates are divided by those factors here, so that the products the model
    uses equal the measurements.

    Attributes
    ----------
    measured_scale_up_bytes_per_s : float or None
        Usable per-GPU scale-up bandwidth, one direction, from a one-node sweep
        [B/s]; None keeps the catalog's.
    measured_scale_out_bytes_per_s : float or None
        Effective usable per-GPU network bandwidth, one direction [B/s]: the
        value that makes the library's two-level collective reproduce a
        multi-node sweep's plateau (see :func:`calibrated_cluster`); None keeps
        the catalog's.
    calibration : str
        Where the measured values come from.
    """

    measured_scale_up_bytes_per_s: float | None = None
    measured_scale_out_bytes_per_s: float | None = None
    calibration: str = ""

    def __post_init__(self):
        super().__post_init__()
        for name in ("measured_scale_up_bytes_per_s", "measured_scale_out_bytes_per_s"):
            value = getattr(self, name)
            if value is not None:
                check_number(f"CalibratedCluster.{name}", value, unit="B/s", minimum=0, min_inclusive=False)

    @property
    def scale_up_bytes_per_s(self) -> float:
        """One GPU's scale-up bandwidth as the training model reads it [B/s]."""
        if self.measured_scale_up_bytes_per_s is None:
            return super().scale_up_bytes_per_s
        return self.measured_scale_up_bytes_per_s / coll.NVLINK_EFFICIENCY

    @property
    def scale_out_bytes_per_s(self) -> float:
        """One GPU's share of the network as the training model reads it [B/s]."""
        if self.measured_scale_out_bytes_per_s is None:
            return super().scale_out_bytes_per_s
        return self.measured_scale_out_bytes_per_s / coll.NETWORK_EFFICIENCY

    @property
    def collective_nvlink_bytes_per_s(self) -> float:
        """One GPU's NVLink bandwidth as the collective model takes it: the measured one if any [B/s]."""
        if self.measured_scale_up_bytes_per_s is None:
            return super().collective_nvlink_bytes_per_s
        return self.measured_scale_up_bytes_per_s

    @property
    def collective_port_bytes_per_s(self) -> float:
        """One GPU's share of the ports as the collective model takes it: the measured rate over
        :data:`~interconnect_lab.collectives.NETWORK_EFFICIENCY` if any [B/s]."""
        if self.measured_scale_out_bytes_per_s is None:
            return super().collective_port_bytes_per_s
        return self.measured_scale_out_bytes_per_s / coll.NETWORK_EFFICIENCY


def _cluster_or_system(name):
    """The published cluster called ``name``, or one built from the catalog system of that name."""
    check_choice("cluster name", name, (*training.CLUSTERS, *catalog.SYSTEMS))
    return training.cluster(name) if name in training.CLUSTERS else training.system_cluster(name)


def base_cluster(cluster):
    return resolve("cluster", cluster, training.Cluster, (*training.CLUSTERS, *catalog.SYSTEMS),
                   lookup=_cluster_or_system)


def _as_fit(value, argument):
    if isinstance(value, CollectiveFit):
        return value
    if isinstance(value, NcclTestsRun):
        return fit_collective(value)
    raise TypeError(f"{argument} must be a CollectiveFit or an NcclTestsRun, got {type(value).__name__}")


def _per_byte(collective, n_ranks, ranks_per_node, up, network):
    return coll.collective_performance(
        collective, 1.0, n_ranks, up, 0.0, "hierarchical", base_latency_s=0.0, efficiency=1.0,
        ranks_per_node=ranks_per_node, network_bandwidth_bytes_per_s=network, network_latency_s=0.0,
        network_efficiency=1.0).bandwidth_term_s


def calibrated_cluster(cluster, *, scale_up=None, scale_out=None, name=None) -> CalibratedCluster:
    """The training model's cluster with bandwidths taken from nccl-tests sweeps.

    Parameters
    ----------
    cluster : training.Cluster or str
        The hardware by catalog names: a Cluster, a name in
        ``training.CLUSTERS`` (``"Selene"``) or a catalog system (``"HGX H100"``).
    scale_up : CollectiveFit or NcclTestsRun, optional
        A sweep on the GPUs of one node: its busbw plateau becomes the usable
        per-GPU scale-up bandwidth.
    scale_out : CollectiveFit or NcclTestsRun, optional
        An all-reduce, all-gather or reduce-scatter sweep across nodes. The
        per-GPU network bandwidth is solved so that the library's two-level
        (hierarchical) collective, over the scale-up bandwidth (measured or
        catalog) inside the nodes, takes the measured plateau's seconds per
        byte: an *effective* bandwidth, the value that makes the model
        reproduce the measurement (NCCL's own algorithm across nodes differs
        from the model's), not a property read off the NIC.
    name : str, optional
        Label.

    Returns
    -------
    CalibratedCluster

    Raises
    ------
    ValueError
        If a sweep does not fit its role (one node for ``scale_up``, several
        for ``scale_out``), or the measured plateau is as fast as the
        intra-node phases alone allow (the network does not limit it).

    Examples
    --------
    >>> from interconnect_lab.calibrate import shipped_run
    >>> c = calibrated_cluster("HGX H100", scale_out=shipped_run("h100_2x8_a3mega_all_reduce"))
    >>> from interconnect_lab import collectives as coll
    >>> kwargs = dict(base_latency_s=0.0, efficiency=1.0, ranks_per_node=8, network_latency_s=0.0,
    ...               network_efficiency=1.0, network_bandwidth_bytes_per_s=c.measured_scale_out_bytes_per_s)
    >>> r = coll.collective_performance("all_reduce", 2**33, 16, 360e9, 0.0, "hierarchical", **kwargs)
    >>> fit = fit_collective(shipped_run("h100_2x8_a3mega_all_reduce"))
    >>> round(r.bandwidth_term_s / (2**33 * fit.segments[-1].seconds_per_byte), 6)
    1.0
    """
    base = base_cluster(cluster)
    up_measured = out_measured = None
    notes = []
    if scale_up is not None:
        fit = _as_fit(scale_up, "scale_up")
        if fit.n_nodes != 1:
            spans = "does not list every rank" if fit.n_nodes is None else f"spans {fit.n_nodes} nodes"
            raise ValueError(f"scale_up must be a sweep on one node (with every rank listed); {fit.label!r} {spans}")
        up_measured = _usable_bandwidth(fit)
        notes.append(f"scale-up from {fit.label}")
    if scale_out is not None:
        fit = _as_fit(scale_out, "scale_out")
        if fit.n_nodes is None or fit.ranks_per_node is None:
            raise ValueError(f"scale_out needs the nodes and ranks per node of the sweep; {fit.label!r} does not "
                             "list every rank")
        if fit.n_nodes < 2:
            raise ValueError(f"scale_out must be a sweep across nodes; {fit.label!r} runs on one node")
        if fit.collective not in ("all_reduce", "all_gather", "reduce_scatter"):
            raise ValueError(f"scale_out needs an all_reduce, all_gather or reduce_scatter sweep, got "
                             f"{fit.collective!r}")
        up = up_measured if up_measured is not None else base.scale_up_bytes_per_s * coll.NVLINK_EFFICIENCY
        n, g = fit.n_ranks, fit.ranks_per_node
        measured = fit.segments[-1].seconds_per_byte
        inner = _per_byte(fit.collective, n, g, up, 1e18)     # the intra-node part alone
        if measured <= inner * (1 + 1e-9):
            raise ValueError(
                f"{fit.label!r} reaches {fit.plateau_bus_bandwidth_bytes_per_s / 1e9:.0f} GB/s busbw, as fast as "
                f"the two-level model allows for its intra-node phases alone at {up / 1e9:.0f} GB/s per GPU: "
                "the network does not limit this sweep, so it cannot calibrate the network (calibrate "
                "scale_up from a one-node sweep, or sweep more nodes)")
        # The model's time per byte falls monotonically as the network gets faster: bisect
        # (in log space) for the network bandwidth that gives the measured time per byte.
        low, high = 1e3, 1e18
        for _ in range(200):
            middle = np.sqrt(low * high)
            if _per_byte(fit.collective, n, g, up, middle) > measured:
                low = middle
            else:
                high = middle
        out_measured = float(np.sqrt(low * high))
        notes.append(f"scale-out (effective) from {fit.label}")
    return CalibratedCluster(
        name=name or f"{base.name}, calibrated", gpu=base.gpu, gpus_per_node=base.gpus_per_node,
        scale_up_link=base.scale_up_link, scale_out_link=base.scale_out_link,
        nics_per_node=base.nics_per_node, sources=base.sources,
        measured_scale_up_bytes_per_s=up_measured, measured_scale_out_bytes_per_s=out_measured,
        calibration="; ".join(notes) or "nothing measured: catalog values")


def __getattr__(name):
    # Names replaced in this release still answer, with a DeprecationWarning (see _deprecation.REPLACED_NAMES).
    return renamed_attribute(__name__, name)
