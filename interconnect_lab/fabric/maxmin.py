"""Max-min fair sharing of link capacity, by progressive filling.

Flows share links. An allocation of rates :math:`x_f` is *feasible* if no
link carries more than its capacity,

.. math:: \\sum_f w_{f\\ell}\\, x_f \\le c_\\ell \\quad \\text{for every link } \\ell,

where :math:`w_{f\\ell}` is the share of flow :math:`f`'s bytes that cross
link :math:`\\ell` (1 for a flow on one path through it, :math:`1/k` for a
flow sprayed evenly over :math:`k` paths of which one crosses it). It is
*max-min fair* if no flow's rate can be raised without lowering the rate of
a flow that has no more (Bertsekas and Gallager 1992, §6.5.2): every flow
has a *bottleneck*, a full link on which no other flow gets more.

Progressive filling finds it. Raise every flow's rate together from zero.
Link :math:`\\ell` fills when the common rate reaches

.. math:: t_\\ell = \\frac{c_\\ell - \\sum_{f \\text{ frozen}} w_{f\\ell} x_f}{\\sum_{f \\text{ not frozen}} w_{f\\ell}}

The link with the smallest :math:`t_\\ell` is a bottleneck: freeze every
flow crossing it at :math:`t_\\ell`, and repeat with the flows left.

Three things make it fast on a million flows:

- *Levels only rise.* Freezing a flow at level :math:`l \\le t_\\ell` leaves
  link :math:`\\ell` more room per remaining flow, so :math:`t_\\ell` never
  falls. Each round looks only at the few hundred links with the lowest
  levels; the rest are ranked again only when those run out.
- *Many bottlenecks per round.* A link may freeze its flows at its own level
  as soon as none of them crosses a link that fills sooner: nothing can move
  its level before its turn. So each round freezes every such link among
  the lowest, not just the lowest one.
- *Sparse incidence.* The flows x links matrix is kept both ways (flow to
  links, link to flows), and a round touches only the entries of the links
  and flows it freezes: the whole computation is about one pass over the
  matrix plus the rounds.

Links whose fill levels tie (to a relative 1e-12) are frozen in the same
round, so the answer does not depend on the order of links or flows.

References
----------
D. Bertsekas, R. Gallager, *Data Networks*, 2nd ed., Prentice Hall, 1992,
§6.5.2 "Max-min fairness".
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass

import numpy as np

from .._lazy import lazy_module
from .._validation import MAX_COUNT, check_integer, check_number
from .network import check_capacity
from .traffic import is_sequence, per_flow_array

sp = lazy_module("scipy.sparse")  # imported on first use: import interconnect_lab stays fast

__all__ = ["MaxMinRates", "max_min_rates", "incidence_matrix"]

#: Relative difference below which two fill levels count as one (a tie) [-].
TIE_TOLERANCE = 1e-12

#: Largest capacity of one resource [B/s]: a resource may pool parallel links (spraying, adaptive
#: routing), each at most CAPACITY_RANGE_BYTES_PER_S[1]; times of flows of at least 1e-30 B stay
#: ordinary floats up to it. The flow simulator and max_min_rates share it.
MAX_RESOURCE_BYTES_PER_S = 1e30
#: Shares of a flow's bytes on one resource [-] (1 for a flow on one path through it): a smaller share
#: would let the flow's rate overflow, a larger one its rate underflow to 0 and its time to infinity.
_WEIGHT_RANGE = (1e-30, 1e30)


def _check_weights(name, weights):
    """``weights`` (nonzero incidence entries) finite and in :data:`_WEIGHT_RANGE`, else a ValueError."""
    if weights.size == 0:
        return weights
    low, high = _WEIGHT_RANGE
    if not np.all(np.isfinite(weights)):
        raise ValueError(f"{name} must be finite (the share of a flow's bytes on a link), got "
                         f"{weights[~np.isfinite(weights)][0]:g}")
    smallest, largest = float(np.min(weights)), float(np.max(weights))
    if smallest < low:
        raise ValueError(f"{name} must be >= {low:g} (the share of a flow's bytes on a link), got {smallest:g}")
    if largest > high:
        raise ValueError(f"{name} must be <= {high:g} (the share of a flow's bytes on a link), got {largest:g}")
    return weights


def _link_numbers(name, path):
    """One flow's links as an int64 array, or an error naming ``name``."""
    if not is_sequence(path):
        raise TypeError(f"{name} must be a sequence of link numbers (integers >= 0), got {path!r}")
    try:
        links = np.asarray(path)
    except ValueError:  # a ragged list
        links = None
    if links is None or links.ndim != 1 or (links.size and links.dtype.kind not in "iu"):
        raise TypeError(f"{name} must be a sequence of link numbers (integers >= 0), got {path!r}")
    if links.size and (links.min() < 0 or links.max() >= MAX_COUNT):
        bad = links[(links < 0) | (links >= MAX_COUNT)][0]
        raise ValueError(f"{name} contains link {bad}: link numbers must be in [0, 2**53)")
    return links.astype(np.int64)


def _checked_incidence(incidence, links):
    """``incidence`` as a checked flows x resources CSR matrix (a copy, explicit zeros dropped).

    Link lists (a sequence of sequences) go through :func:`incidence_matrix` with ``links``
    resources; a scipy.sparse matrix or an array of shares is checked as it is.
    """
    if isinstance(incidence, (list, tuple)) and (len(incidence) == 0 or not np.isscalar(incidence[0])):
        return incidence_matrix(incidence, links)
    if sp.issparse(incidence):
        if incidence.ndim != 2 or incidence.dtype.kind not in "iuf":
            raise TypeError(f"incidence must be a flows x links matrix of real shares, got {incidence!r}")
        matrix = sp.csr_matrix(incidence, dtype=float, copy=True)
    else:
        if incidence is None or isinstance(incidence, (numbers.Number, np.number, str, bytes)):
            raise TypeError("incidence must be a flows x links matrix (scipy.sparse or a 2-D array) or a list of "
                            f"each flow's links, got {incidence!r}")
        shares = check_number("incidence", incidence, minimum=0)
        if np.ndim(shares) not in (1, 2):
            raise ValueError(f"incidence must be a flows x links matrix, got {np.ndim(shares)} dimensions")
        matrix = sp.csr_matrix(np.atleast_2d(shares))
    matrix.eliminate_zeros()
    matrix.sum_duplicates()
    _check_weights("incidence weights", matrix.data)
    return matrix


def checked_problem(incidence, capacity_bytes_per_s):
    """(incidence as a checked CSR matrix, capacity as a float array): what max-min rates and the flow
    simulator both take, each capacity 0 (a failed link) or in [1e-30, 1e30] B/s, one per resource."""
    capacity = np.atleast_1d(np.asarray(check_capacity("capacity_bytes_per_s", capacity_bytes_per_s, failed=True,
                                                       maximum=MAX_RESOURCE_BYTES_PER_S), dtype=float))
    matrix = _checked_incidence(incidence, capacity.size)
    if capacity.shape != (matrix.shape[1],):
        raise ValueError(f"capacity_bytes_per_s has {capacity.size} entries for {matrix.shape[1]} links")
    return matrix, capacity


def incidence_matrix(paths, resources=None, *, weights=None):
    """A flows x links incidence matrix from lists of link numbers.

    Parameters
    ----------
    paths : sequence of sequence of int
        The links each flow crosses (link numbers, integers in [0, 2**53)).
    resources : int, optional
        Number of links; by default one more than the largest link number.
    weights : sequence of sequence of float, optional
        Share of each flow's bytes on each of its links [-], in [1e-30, 1e30]; 1 by default.

    Returns
    -------
    scipy.sparse.csr_matrix

    Examples
    --------
    >>> incidence_matrix([[0], [0, 1]]).toarray()
    array([[1., 0.],
           [1., 1.]])
    """
    if not is_sequence(paths):
        raise TypeError(f"paths must be a sequence of paths, each a sequence of link numbers; got {paths!r}")
    rows = [_link_numbers(f"paths[{flow}]", path) for flow, path in enumerate(paths)]
    lengths = np.array([row.size for row in rows], dtype=np.int64)
    links = np.concatenate(rows) if rows else np.zeros(0, np.int64)
    if resources is None:
        resources = int(links.max()) + 1 if links.size else 0
    resources = check_integer("resources", resources, minimum=0)
    if links.size and links.max() >= resources:
        raise ValueError(f"link {int(links.max())} does not exist: there are {resources} links")
    if weights is None:
        data = np.ones(links.size)
    else:
        if not is_sequence(weights) or len(weights) != len(rows):
            raise ValueError(f"weights must be a sequence of one sequence of shares per path ({len(rows)} paths), "
                             f"got {weights!r}")
        data = [check_number(f"weights[{flow}]", w, minimum=0) if is_sequence(w) else None
                for flow, w in enumerate(weights)]
        for flow, (w, row) in enumerate(zip(data, rows)):
            if w is None or np.shape(w) != row.shape:
                raise ValueError(f"weights[{flow}] must have one share per link of paths[{flow}] ({row.size}), "
                                 f"got {weights[flow]!r}")
        data = _check_weights("weights", np.concatenate(data)) if data else np.zeros(0)
    indptr = np.concatenate(([0], np.cumsum(lengths)))
    matrix = sp.csr_matrix((data, links, indptr), shape=(len(paths), resources))
    matrix.sum_duplicates()
    return matrix


@dataclass(frozen=True, eq=False)
class MaxMinRates:
    """A max-min fair allocation.

    Attributes
    ----------
    rates_bytes_per_s : numpy.ndarray
        Rate of each flow [B/s] (0 for flows left out).
    load_bytes_per_s : numpy.ndarray
        Load on each link (resource) [B/s].
    capacity_bytes_per_s : numpy.ndarray
        Capacity of each link (resource) [B/s].
    bottleneck : numpy.ndarray
        For each flow, the link (resource) that froze it; -1 for flows left out.
    rounds : int
        Rounds of progressive filling [-].
    """

    rates_bytes_per_s: np.ndarray
    load_bytes_per_s: np.ndarray
    capacity_bytes_per_s: np.ndarray
    bottleneck: np.ndarray
    rounds: int

    @property
    def utilization(self) -> np.ndarray:
        """Load over capacity of each link [-] (0 where the capacity is 0)."""
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where(self.capacity_bytes_per_s > 0, self.load_bytes_per_s / self.capacity_bytes_per_s, 0.0)


class Incidence:
    """The same sparse matrix kept both ways: flow -> links and link -> flows."""

    def __init__(self, matrix):
        matrix = sp.csr_matrix(matrix, dtype=float)
        matrix.sum_duplicates()
        self.shape = matrix.shape
        self.flow_ptr = matrix.indptr.astype(np.int64)
        self.flow_links = matrix.indices.astype(np.int64)
        self.flow_weights = matrix.data
        transposed = matrix.T.tocsr()
        self.link_ptr = transposed.indptr.astype(np.int64)
        self.link_flows = transposed.indices.astype(np.int64)
        self.matrix = matrix
        self.transposed = transposed

    def entries(self, flows):
        """Positions of the incidence entries of ``flows`` (all of them when every flow is asked for)."""
        if flows.size == self.shape[0] and (flows.size < 2 or bool(np.all(flows[1:] > flows[:-1]))):
            return slice(None)
        return row_positions(self.flow_ptr, flows)


def row_positions(indptr, rows):
    """Positions ``indptr[r]:indptr[r+1]`` for every ``r`` in ``rows``, concatenated."""
    starts = indptr[rows]
    lengths = indptr[rows + 1] - starts
    total = int(lengths.sum())
    if total == 0:
        return np.zeros(0, dtype=np.int64)
    ends = np.cumsum(lengths)
    return np.arange(total, dtype=np.int64) + np.repeat(starts - (ends - lengths), lengths)


def _subtract(target, index, values, dense_threshold):
    if index.size > dense_threshold:
        target -= np.bincount(index, weights=values, minlength=target.size)
    else:
        np.subtract.at(target, index, values)


_CANDIDATES = 512
_BATCH = 128
#: A link's remaining weight below this share of what it had before a round may have lost its digits
#: to cancellation: it is summed again.
_CANCELLED = 1e-9


def resource_loads(incidence, flows, rates):
    """Load the ``flows`` put on every resource at ``rates`` (aligned with ``flows``)."""
    if flows.size > incidence.shape[0] // 8:
        full = np.zeros(incidence.shape[0])
        full[flows] = rates
        return incidence.transposed @ full
    entries = row_positions(incidence.flow_ptr, flows)
    repeats = incidence.flow_ptr[flows + 1] - incidence.flow_ptr[flows]
    return np.bincount(incidence.flow_links[entries],
                       weights=incidence.flow_weights[entries] * np.repeat(rates, repeats),
                       minlength=incidence.shape[1])


def progressive_filling(incidence, spare, flows, floor=0.0):
    """Max-min rates of ``flows`` sharing the ``spare`` capacity of each resource.

    ``spare`` is the capacity left by every other flow (whose rates stay as
    they are). ``floor`` is a level below which no resource can fill (a caller
    that knows the answer is at least ``floor`` passes it to keep rounding from
    producing a lower rate). Returns (rates, bottleneck, rounds), the first two
    aligned with ``flows``.

    See the module notes: each round looks at the few hundred resources with
    the lowest fill levels (the candidates; the full list is ranked again
    only when they run out) and freezes every one of them that no flow ties
    to a resource filling sooner.
    """
    flows = np.asarray(flows, dtype=np.int64)
    total_flows, resources = incidence.shape
    position = np.full(total_flows, -1, dtype=np.int64)
    position[flows] = np.arange(flows.size)
    rate = np.zeros(flows.size)
    bottleneck = np.full(flows.size, -1, dtype=np.int64)
    frozen = np.ones(total_flows, dtype=bool)
    frozen[flows] = False
    stamp = np.empty(total_flows, dtype=np.int64)
    flow_min = np.full(total_flows, np.inf)
    entries = incidence.entries(flows)
    links = incidence.flow_links[entries]
    weight = np.bincount(links, weights=incidence.flow_weights[entries], minlength=resources)
    count = np.bincount(links, minlength=resources)
    spare = np.array(spare, dtype=float)
    candidates = np.zeros(0, dtype=np.int64)
    rest = np.flatnonzero(count)
    rest_lowest = -np.inf
    unfrozen = int(flows.size)
    level = float(floor)
    rounds = 0
    dense = resources // 4
    while unfrozen:
        candidates = candidates[count[candidates] > 0]
        if candidates.size:
            fill = spare[candidates] / weight[candidates]
            lowest = fill.min()
        else:
            lowest = np.inf
        if not lowest * (1 + TIE_TOLERANCE) < rest_lowest:
            everything = np.concatenate((candidates, rest))
            everything = everything[count[everything] > 0]
            fill_all = spare[everything] / weight[everything]
            if everything.size > 2 * _CANDIDATES:
                threshold = np.partition(fill_all, _CANDIDATES)[_CANDIDATES]
                chosen = fill_all <= threshold
                candidates, rest = everything[chosen], everything[~chosen]
                fill = fill_all[chosen]
                rest_lowest = fill_all[~chosen].min() if rest.size else np.inf
            else:
                candidates, rest, fill, rest_lowest = everything, everything[:0], fill_all, np.inf
            lowest = fill.min()
            if not lowest * (1 + TIE_TOLERANCE) < rest_lowest:  # a tie straddles the threshold
                candidates, rest, fill, rest_lowest = everything, everything[:0], fill_all, np.inf
        # A link may freeze its flows now if no flow on it crosses another link that fills sooner:
        # that link's level cannot move before its turn, since levels only rise. The lowest link
        # qualifies; so, usually, do many of the next ones. Links outside the batch fill later than
        # every batch link, so only links inside it can stand in the way.
        tied = fill <= lowest * (1 + TIE_TOLERANCE)
        others = np.flatnonzero(~tied & (fill * (1 + TIE_TOLERANCE) < rest_lowest))
        if others.size > _BATCH:
            others = others[np.argpartition(fill[others], _BATCH)[:_BATCH]]
        chosen_links = np.concatenate((np.flatnonzero(tied), others))
        batch, batch_fill = candidates[chosen_links], fill[chosen_links]
        entries = row_positions(incidence.link_ptr, batch)
        lengths = incidence.link_ptr[batch + 1] - incidence.link_ptr[batch]
        newly = incidence.link_flows[entries]
        entry_link = np.repeat(np.arange(batch.size), lengths)
        keep = ~frozen[newly]
        newly, entry_link = newly[keep], entry_link[keep]
        entry_fill = batch_fill[entry_link]
        np.minimum.at(flow_min, newly, entry_fill)
        reached = flow_min[newly]
        blocked = np.bincount(entry_link, weights=entry_fill > reached * (1 + TIE_TOLERANCE), minlength=batch.size)
        free = blocked[entry_link] == 0
        owner = batch[entry_link[free]]
        newly = newly[free]
        flow_level = np.maximum(flow_min[newly], level)
        flow_min[incidence.link_flows[entries][keep]] = np.inf
        # Each flow once, without sorting.
        index = np.arange(newly.size)
        stamp[newly] = index
        once = stamp[newly] == index
        newly, owner, flow_level = newly[once], owner[once], flow_level[once]
        frozen[newly] = True
        rate[position[newly]] = flow_level
        bottleneck[position[newly]] = owner
        unfrozen -= newly.size
        entries = incidence.entries(newly)
        links = incidence.flow_links[entries]
        weights = incidence.flow_weights[entries]
        _subtract(spare, links, weights * np.repeat(flow_level, incidence.flow_ptr[newly + 1] - incidence.flow_ptr[newly]), dense)
        before = weight[links]
        _subtract(weight, links, weights, dense)
        if links.size > dense:
            count -= np.bincount(links, minlength=resources)
        else:
            np.subtract.at(count, links, 1)
        # Shares that differ by more than a float's precision on one link (1e30 beside 1e-30) cancel
        # when the large ones leave: the link keeps flows but no weight. Sum those links' weights again.
        lost = links[(count[links] > 0) & (weight[links] <= before * _CANCELLED)]
        if lost.size:
            lost = np.unique(lost)
            entries = row_positions(incidence.link_ptr, lost)
            owner = np.repeat(np.arange(lost.size), incidence.link_ptr[lost + 1] - incidence.link_ptr[lost])
            live = ~frozen[incidence.link_flows[entries]]
            weight[lost] = np.bincount(owner[live], weights=incidence.transposed.data[entries][live],
                                       minlength=lost.size)
        rounds += 1
    return rate, bottleneck, rounds


def max_min_rates(incidence, capacity_bytes_per_s, *, active=None):
    """Max-min fair rates of flows sharing links, by progressive filling.

    Parameters
    ----------
    incidence : scipy.sparse matrix, array_like, or sequence of sequences of int
        Flows x links: entry :math:`w_{f\\ell}` is the share of flow
        :math:`f`'s bytes that crosses link :math:`\\ell` [-], 0 or in
        [1e-30, 1e30]. A sequence of link lists (one per flow) means weight 1
        on each listed link.
    capacity_bytes_per_s : array_like
        Capacity of each link [B/s]: 0 (a failed link) or in [1e-30, 1e30] (a
        resource may pool many links, each in
        :data:`~interconnect_lab.fabric.network.CAPACITY_RANGE_BYTES_PER_S`), the
        same range as the flow simulator's.
    active : bool or array_like of bool, optional
        Flows to allocate; the others get rate 0 and load nothing.

    Returns
    -------
    MaxMinRates

    Examples
    --------
    Three flows and two links of 12 B/s: flows 0 and 1 share link 0, flows 1
    and 2 share link 1. Both links fill when every flow has 6 B/s:

    >>> max_min_rates([[0], [0, 1], [1]], [12.0, 12.0]).rates_bytes_per_s
    array([6., 6., 6.])

    Make link 1 carry 4 B/s: it freezes flows 1 and 2 at 2 B/s, and flow 0
    takes the rest of link 0:

    >>> max_min_rates([[0], [0, 1], [1]], [12.0, 4.0]).rates_bytes_per_s
    array([10.,  2.,  2.])
    """
    matrix, capacity = checked_problem(incidence, capacity_bytes_per_s)
    if active is None:
        active = np.ones(matrix.shape[0], dtype=bool)
    else:
        active = per_flow_array("active", active, matrix.shape[0], flags=True)
    empty = np.flatnonzero(active & (np.diff(matrix.indptr) == 0))
    if empty.size:
        raise ValueError(f"incidence row {empty[0]} is empty: flow {empty[0]} crosses no link, so its rate would be "
                         "unbounded")
    structure = Incidence(matrix)
    flows = np.flatnonzero(active)
    allocated, allocated_bottleneck, rounds = progressive_filling(structure, capacity, flows)
    rates = np.zeros(matrix.shape[0])
    rates[flows] = allocated
    bottleneck = np.full(matrix.shape[0], -1, dtype=np.int64)
    bottleneck[flows] = allocated_bottleneck
    return MaxMinRates(rates_bytes_per_s=rates, load_bytes_per_s=matrix.T @ rates,
                       capacity_bytes_per_s=capacity, bottleneck=bottleneck, rounds=rounds)
