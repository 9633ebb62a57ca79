"""Event-driven completion of sized flows under max-min fair sharing.

All flows start at time zero. Between events every flow runs at its max-min
fair rate (:mod:`interconnect_lab.fabric.maxmin`). An event is the moment
the next flow finishes:

.. math:: \\Delta t = \\min_f \\frac{r_f}{x_f}, \\qquad r_f \\leftarrow r_f - x_f \\Delta t

where :math:`r_f` is the flow's remaining bytes and :math:`x_f` its rate.
The finished flows leave, the rates are recomputed, and so on until every
foreground flow has finished. Flows whose finishing times tie (to a relative
``time_tolerance``) leave at the same event. The collective's completion
time is the last flow's.

:class:`FlowSimulation` owns all the state and the clock (the design of
SimPy's ``Environment``): :meth:`FlowSimulation.step` processes one event
and records it in :attr:`FlowSimulation.log`, so tests can check the exact
sequence of events of a tiny scenario. :func:`simulate` builds one, runs it
and returns a frozen :class:`FlowResult`.

A foreground flow that crosses a link with no capacity would have rate zero
and never finish; the simulation refuses it when it is built (a ValueError
naming the flow and the link) instead of waiting forever.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._deprecation import renamed_attribute
from .._lazy import lazy_module
from .._validation import check_choice, check_number
# MAX_RESOURCE_BYTES_PER_S is the capacity bound checked_problem applies; named here, the simulator's
# bound is visibly max-min's.
from .maxmin import (  # noqa: F401
    MAX_RESOURCE_BYTES_PER_S, TIE_TOLERANCE, checked_problem, Incidence, resource_loads, progressive_filling,
    row_positions,
)
from .network import Network
from .routing import ROUTINGS, Routes, seed_value, route
from .traffic import FLOW_BYTES_RANGE, Collective, per_flow_array

sp = lazy_module("scipy.sparse")  # imported on first use: import interconnect_lab stays fast

__all__ = [
    "FlowSimulation", "FlowResult", "RateResult", "SimulatedCollective",
    "simulate", "simulate_routes", "simulate_flows", "fair_rates", "simulate_collective", "compare_routings",
]


def _first_of_each(items, seen):
    """The items not yet ``seen``, each once, sorted; marks them seen."""
    items = np.sort(items[~seen[items]])
    if items.size > 1:
        items = items[np.concatenate(([True], items[1:] != items[:-1]))]
    seen[items] = True
    return items


class _SortedFlows:
    """Flows ordered by a key (finishing time, or minus the rate) that changes for few flows at a time.

    A snapshot holds the flows sorted by their key at the last rebuild and a
    pointer past the entries already consumed. A flow whose key changes since
    is *touched*: its snapshot entry goes stale (its key no longer matches)
    and it waits in a small ``dirty`` set, checked directly. Queries thus
    cost the entries they return plus the dirty set, not a pass over every
    flow; the snapshot is rebuilt when the dirty set grows large.
    """

    def __init__(self, keys, live):
        self.keys = keys  # the simulation's own arrays, read at query time
        self.live = live
        self.order = np.zeros(0, dtype=np.int64)
        self.snapshot = np.zeros(0)
        self.position = 0
        self.dirty = np.zeros(0, dtype=np.int64)

    def rebuild(self):
        flows = np.flatnonzero(self.live)
        keys = self.keys[flows]
        order = np.argsort(keys, kind="stable")
        self.order, self.snapshot = flows[order], keys[order]
        self.position = 0
        self.dirty = np.zeros(0, dtype=np.int64)

    def touch(self, flows):
        if self.dirty.size + flows.size > max(4096, int(self.live.size) // 16):
            self.rebuild()
        else:
            self.dirty = np.concatenate((self.dirty, flows))

    def _valid(self, flows, snapshot_keys):
        return self.live[flows] & (self.keys[flows] == snapshot_keys)

    def lowest(self):
        """Smallest key among live flows (inf if none)."""
        while self.position < self.order.size:
            chunk = slice(self.position, self.position + 256)
            valid = np.flatnonzero(self._valid(self.order[chunk], self.snapshot[chunk]))
            if valid.size:
                self.position += int(valid[0])
                break
            self.position += self.snapshot[chunk].size
        best = self.snapshot[self.position] if self.position < self.order.size else np.inf
        self.dirty = self.dirty[self.live[self.dirty]]
        if self.dirty.size:
            best = min(best, self.keys[self.dirty].min())
        return best

    def take(self, bound):
        """Live flows whose key is at most ``bound``, removed from the index, in flow order."""
        end = self.position + int(np.searchsorted(self.snapshot[self.position:], bound, side="right"))
        flows = self.order[self.position:end]
        flows = flows[self._valid(flows, self.snapshot[self.position:end])]
        self.position = end
        dirty = self.dirty[self.live[self.dirty]]
        chosen = self.keys[dirty] <= bound
        self.dirty = dirty[~chosen]
        taken = np.sort(np.concatenate((flows, dirty[chosen])))
        return taken[np.concatenate(([True], taken[1:] != taken[:-1]))] if taken.size else taken


class FlowSimulation:
    """Flows sharing links, advanced from one completion to the next.

    Parameters
    ----------
    incidence : scipy.sparse matrix, array_like, or sequence of sequences of int
        Flows x resources: share of each flow's rate on each resource [-],
        0 or in [1e-30, 1e30] (a sequence of link lists means weight 1 on
        each listed link).
    capacity_bytes_per_s : array_like
        Capacity of each resource [B/s]: 0 or in [1e-30, 1e30] (a resource
        may pool many links, each in
        :data:`~interconnect_lab.fabric.network.CAPACITY_RANGE_BYTES_PER_S`).
    size_bytes : float or array_like
        Size of each flow [B], in :data:`~interconnect_lab.fabric.traffic.FLOW_BYTES_RANGE`;
        ``inf`` for background flows.
    background : bool or array_like of bool, optional
        Flows that never finish and do not count towards completion.
    time_tolerance : float
        Flows finishing within this relative distance of the next completion
        (measured from now) finish at the same event [-]. Each keeps its own
        finishing time; only the recomputation of the others' rates waits for
        the last of the batch. The default only absorbs rounding; a larger
        value (say 1e-3) batches nearly simultaneous completions. In [0, 0.1].

    Attributes
    ----------
    now_s : float
        The clock [s].
    active : numpy.ndarray of bool
        Flows still running.
    rates_bytes_per_s : numpy.ndarray
        Current max-min rate of each flow [B/s].
    completion_times_s : numpy.ndarray
        Finishing time of each flow [s]; NaN until it finishes.
    log : list of (float, tuple of int)
        Each event's time [s] and the flows that finished at it.

    Notes
    -----
    Rates are not recomputed from scratch at every event. When flows finish,
    let :math:`\\ell` be the lowest rate among them. No link that filled below
    :math:`\\ell` carried a finished flow (that flow would have been frozen
    there, below :math:`\\ell`), and removing flows only delays the filling
    of the links they crossed; so progressive filling runs exactly as before
    up to level :math:`\\ell`, and every flow whose rate was below it keeps
    its rate. The flows at or above :math:`\\ell` fall into groups that share no
    link; only the groups that shared a link with a finished flow are filled
    again, in the capacity the others leave, and their new rates are at least
    :math:`\\ell`. When the fastest flows finish first (equal sizes), that is a
    small set.

    Examples
    --------
    Three flows of 1, 2 and 3 bytes on one link of 3 B/s: each gets 1 B/s
    until flow 0 finishes at 1 s; then 1.5 B/s each, so flow 1's last byte
    leaves at 1 + 1/1.5 s; then flow 2 alone at 3 B/s.

    >>> sim = FlowSimulation([[0], [0], [0]], [3.0], [1.0, 2.0, 3.0])
    >>> sim.run() and [(round(t, 6), flows) for t, flows in sim.log]
    [(1.0, (0,)), (1.666667, (1,)), (2.0, (2,))]
    """

    def __init__(self, incidence, capacity_bytes_per_s, size_bytes, *, background=None, time_tolerance=1e-9):
        matrix, capacity = checked_problem(incidence, capacity_bytes_per_s)
        flows, resources = matrix.shape
        size = per_flow_array("size_bytes", size_bytes, flows)
        background = per_flow_array("background", False if background is None else background, flows, flags=True)
        check_number("size_bytes", np.where(background & np.isinf(size), 1.0, size), unit="B",
                     minimum=FLOW_BYTES_RANGE[0], maximum=FLOW_BYTES_RANGE[1])
        empty = np.flatnonzero(np.diff(matrix.indptr) == 0)
        if empty.size:
            raise ValueError(f"incidence row {empty[0]} is empty: flow {empty[0]} crosses no link, so its rate would be "
                             "unbounded")
        dead = matrix[~background][:, capacity == 0].tocoo() if np.any(capacity == 0) else sp.coo_matrix((0, 0))
        if dead.nnz:
            flow = int(np.flatnonzero(~background)[dead.row[0]])
            link = int(np.flatnonzero(capacity == 0)[dead.col[0]])
            raise ValueError(f"flow {flow} crosses link {link}, whose capacity_bytes_per_s is 0 (a failed link): it "
                             "would never finish (only a background flow may)")
        self.time_tolerance = check_number("time_tolerance", time_tolerance, minimum=0, maximum=0.1, scalar=True)
        self._incidence = Incidence(matrix)
        self.capacity_bytes_per_s = capacity
        self.size_bytes = size
        self.background = background
        self.now_s = 0.0
        self.active = np.ones(flows, dtype=bool)
        self.completion_times_s = np.full(flows, np.nan)
        self.rates_bytes_per_s = np.zeros(flows)
        self.initial_rates_bytes_per_s = None
        self.log = []
        self.rounds = 0
        self.refilled_flows = 0
        self._load = np.zeros(resources)
        self._mark_time = np.zeros(flows)
        self._mark_remaining = size.copy()
        self._mark_delivered = np.zeros(flows)
        self._finish = np.full(flows, np.inf)
        self._minus_rate = np.zeros(flows)
        self._by_finish = _SortedFlows(self._finish, self.active)
        self._by_rate = _SortedFlows(self._minus_rate, self.active)
        self._running = int((~background).sum())
        self._pending = (np.arange(flows), 0.0)
        # Scratch marks for _connected, kept all False between uses.
        self._flow_member = np.zeros(flows, dtype=bool)
        self._flow_mark = np.zeros(flows, dtype=bool)
        self._link_mark = np.zeros(resources, dtype=bool)

    @property
    def done(self) -> bool:
        """True once every foreground flow has finished."""
        return self._running == 0

    @property
    def remaining_bytes(self) -> np.ndarray:
        """Bytes each flow has still to send [B]."""
        return self._mark_remaining - self.rates_bytes_per_s * (self.now_s - self._mark_time)

    @property
    def delivered_bytes(self) -> np.ndarray:
        """Bytes each flow has delivered so far [B]."""
        return self._mark_delivered + self.rates_bytes_per_s * (self.now_s - self._mark_time)

    def _allocate(self):
        """Bring the rates up to date after the last event (see Notes)."""
        if self._pending is None:
            return
        flows, floor = self._pending
        self._pending = None
        if flows.size == 0:
            return
        incidence = self._incidence
        old = self.rates_bytes_per_s[flows]
        spare = self.capacity_bytes_per_s - self._load + resource_loads(incidence, flows, old)
        new, _, rounds = progressive_filling(incidence, spare, flows, floor)
        self.rounds += rounds
        self.refilled_flows += flows.size
        stuck = flows[(new <= 0) & ~self.background[flows]]  # a background flow may wait on a failed link
        if stuck.size:
            raise RuntimeError(
                f"the simulation cannot finish: flow {stuck[0]} (and {stuck.size - 1} others) has rate zero, "
                "because it crosses a link with no capacity, and would wait forever")
        sent = old * (self.now_s - self._mark_time[flows])
        self._mark_delivered[flows] += sent
        self._mark_remaining[flows] -= sent
        self._mark_time[flows] = self.now_s
        self._load += resource_loads(incidence, flows, new - old)
        self.rates_bytes_per_s[flows] = new
        self._minus_rate[flows] = -new
        foreground = ~self.background[flows]   # a background flow never finishes (it may wait at rate 0)
        finish = np.full(flows.size, np.inf)
        finish[foreground] = self.now_s + self._mark_remaining[flows[foreground]] / new[foreground]
        self._finish[flows] = finish
        if self.initial_rates_bytes_per_s is None:
            self.initial_rates_bytes_per_s = self.rates_bytes_per_s.copy()
            self._by_finish.rebuild()
            self._by_rate.rebuild()
        else:
            self._by_finish.touch(flows)
            self._by_rate.touch(flows)

    def _connected(self, finished, candidates):
        """The ``candidates`` linked to the finished flows through shared links and other candidates.

        Only they can change rate (see Notes); the others form separate max-min
        problems that the departure leaves as they were.
        """
        incidence = self._incidence
        if candidates.size < 2:
            return candidates
        member, seen_flow, seen_link = self._flow_member, self._flow_mark, self._link_mark
        links = _first_of_each(incidence.flow_links[row_positions(incidence.flow_ptr, finished)], seen_link)
        # The search reads every flow on the links it reaches; when that is more than the candidates'
        # own entries, refilling them all is cheaper than finding out which need it.
        budget = 4 * int((incidence.flow_ptr[candidates + 1] - incidence.flow_ptr[candidates]).sum())
        if int((incidence.link_ptr[links + 1] - incidence.link_ptr[links]).sum()) > budget:
            seen_link[links] = False
            return candidates
        member[candidates] = True
        found_links, found_flows = [links], []
        found = 0
        while links.size:
            flows = incidence.link_flows[row_positions(incidence.link_ptr, links)]
            flows = _first_of_each(flows[member[flows]], seen_flow)
            if flows.size == 0:
                break
            found_flows.append(flows)
            found += flows.size
            if found > candidates.size // 2:
                break  # most of them: not worth the search, refill them all
            links = _first_of_each(incidence.flow_links[row_positions(incidence.flow_ptr, flows)], seen_link)
            found_links.append(links)
        affected = np.sort(np.concatenate(found_flows)) if found_flows else np.zeros(0, dtype=np.int64)
        member[candidates] = False
        seen_flow[affected] = False
        seen_link[np.concatenate(found_links)] = False
        return candidates if found > candidates.size // 2 else affected

    def rates(self):
        """Max-min fair rates of the flows still running [B/s] (0 for finished flows)."""
        self._allocate()
        return self.rates_bytes_per_s.copy()

    def step(self):
        """Advance the clock to the next completion; return the flows that finished there."""
        if self.done:
            raise RuntimeError("the simulation has finished: every foreground flow has completed")
        self._allocate()
        soonest = self._by_finish.lowest()
        finished = self._by_finish.take(soonest + self.time_tolerance * (soonest - self.now_s))
        finish = self._finish[finished]
        rates = self.rates_bytes_per_s[finished]
        self.completion_times_s[finished] = finish
        self._mark_delivered[finished] = self.size_bytes[finished]
        self._mark_remaining[finished] = 0.0
        self._mark_time[finished] = finish
        self._finish[finished] = np.inf
        self.active[finished] = False
        self._running -= finished.size
        self._load -= resource_loads(self._incidence, finished, rates)
        self.rates_bytes_per_s[finished] = 0.0
        self._minus_rate[finished] = 0.0
        self.now_s = float(finish.max())
        lowest = rates.min() * (1 - TIE_TOLERANCE)
        faster = self._by_rate.take(-lowest)
        affected = self._connected(finished, faster)
        if affected.size < faster.size:
            # The rest keep their rates: back into the index.
            self._flow_mark[affected] = True
            self._by_rate.touch(faster[~self._flow_mark[faster]])
            self._flow_mark[affected] = False
        self._pending = (affected, lowest)
        finished_tuple = tuple(finished.tolist())
        self.log.append((self.now_s, finished_tuple))
        return finished_tuple

    def run(self):
        """Step until every foreground flow has finished; return the clock [s]."""
        while not self.done:
            self.step()
        return self.now_s


@dataclass(frozen=True, eq=False)
class FlowResult:
    """Flow completion times of a simulated traffic pattern.

    Attributes
    ----------
    routes : Routes
        The routed traffic.
    completion_times_s : numpy.ndarray
        When each flow finished [s]; NaN for background flows.
    initial_rates_bytes_per_s : numpy.ndarray
        Max-min rates at time zero [B/s].
    link_bytes : numpy.ndarray
        Bytes each link carried while the foreground flows ran [B].
    completion_time_s : float
        When the last foreground flow finished: the collective's time [s].
    events : int
        Events (rate recomputations) the simulation took [-].
    """

    routes: Routes
    completion_times_s: np.ndarray
    initial_rates_bytes_per_s: np.ndarray
    link_bytes: np.ndarray
    completion_time_s: float
    events: int

    @property
    def foreground(self) -> np.ndarray:
        """Mask of the foreground flows."""
        return ~self.routes.traffic.background

    def path_latency_s(self, *, switch_latency_s, link_latency_s=0.0):
        """Time each flow's last byte spends crossing its path after it leaves the sender [s].

        The fluid model charges a flow its bytes at its fair rate, as if every
        byte arrived the moment it was sent. A real packet also waits
        ``switch_latency_s`` in each cut-through switch it crosses and
        ``link_latency_s`` on each cable:

        .. math:: t_\\text{path} = n_\\text{switch}\\, t_\\text{switch} + (n_\\text{switch} + 1)\\, t_\\text{link}

        with :math:`n_\\text{switch}` = 1 under one leaf, 3 within a pod, 5
        across pods of a three-tier fat tree (every equal-cost path has the same
        length, so spraying changes nothing). Queueing is not in it: the fluid
        rates already share the links, and transients of congestion control are
        beyond a fluid model.

        Parameters
        ----------
        switch_latency_s : float
            Port-to-port latency of one switch [s], in [0, 1].
        link_latency_s : float
            Latency of one cable, about 5 ns per metre [s], in [0, 1].

        Returns
        -------
        numpy.ndarray
            Per flow [s].
        """
        switch = check_number("switch_latency_s", switch_latency_s, unit="s", minimum=0, maximum=1)
        cable = check_number("link_latency_s", link_latency_s, unit="s", minimum=0, maximum=1)
        traffic, network = self.routes.traffic, self.routes.network
        if not hasattr(network, "path_level"):
            raise ValueError(f"path latency needs a fat tree's path levels; {type(network).__name__} has none")
        switches = 1 + 2 * network.path_level(traffic.source, traffic.destination)
        return switches * switch + (switches + 1) * cable

    def completion_times_with_latency_s(self, *, switch_latency_s, link_latency_s=0.0):
        """Each flow's fluid completion time plus its :meth:`path_latency_s` [s]."""
        return self.completion_times_s + self.path_latency_s(switch_latency_s=switch_latency_s,
                                                             link_latency_s=link_latency_s)

    @property
    def throughput_bytes_per_s(self) -> np.ndarray:
        """Average rate of each foreground flow, size over completion time [B/s]."""
        return self.routes.traffic.size_bytes[self.foreground] / self.completion_times_s[self.foreground]

    @property
    def link_utilization(self) -> np.ndarray:
        """Share of each link's capacity used while the foreground flows ran [-]."""
        capacity = self.routes.network.capacity_bytes_per_s
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where(capacity > 0, self.link_bytes / (capacity * self.completion_time_s), 0.0)

    def percentiles(self, quantiles=(50, 99, 100)):
        """Flow completion time percentiles [s], as ``{"p50": ..., "p99": ..., "max": ...}``."""
        times = self.completion_times_s[self.foreground]
        return {("max" if q == 100 else f"p{q:g}"): float(np.percentile(times, q)) for q in quantiles}

    def __repr__(self):
        p = self.percentiles()
        return (f"FlowResult({self.routes.routing}, {self.routes.traffic.flow_count} flows, completion "
                f"{self.completion_time_s:.6g} s, FCT p50 {p['p50']:.6g} s, p99 {p['p99']:.6g} s, "
                f"{self.events} events)")


def simulate_flows(incidence, capacity_bytes_per_s, size_bytes, *, background=None, time_tolerance=1e-9):
    """Completion time of every flow sharing links max-min fairly.

    Parameters
    ----------
    incidence : scipy.sparse matrix or sequence of sequences of int
        Flows x links (see :func:`~interconnect_lab.fabric.maxmin.max_min_rates`).
    capacity_bytes_per_s : array_like
        Capacity of each link [B/s].
    size_bytes : array_like
        Size of each flow [B].
    background : array_like of bool, optional
        Flows that never finish.
    time_tolerance : float
        See :class:`FlowSimulation`.

    Returns
    -------
    numpy.ndarray
        Completion time of each flow [s] (NaN for background flows).

    Examples
    --------
    >>> simulate_flows([[0], [0, 1]], [2.0, 1.0], [1.0, 1.0]).tolist()
    [1.0, 1.0]
    """
    simulation = FlowSimulation(incidence, capacity_bytes_per_s, size_bytes, background=background,
                                time_tolerance=time_tolerance)
    simulation.run()
    return simulation.completion_times_s


def simulate_routes(routes, *, time_tolerance=1e-9):
    """Run already routed flows to completion (see :func:`simulate`).

    Parameters
    ----------
    routes : Routes
        From :func:`~interconnect_lab.fabric.routing.route` or
        :func:`~interconnect_lab.fabric.routing.explicit_routes`.
    time_tolerance : float
        See :class:`FlowSimulation`.

    Returns
    -------
    FlowResult

    Raises
    ------
    ValueError
        If every flow is a background flow (or there is none): nothing would finish.
    """
    if not isinstance(routes, Routes):
        raise TypeError(f"routes must be a fabric Routes (from route or explicit_routes), got {type(routes).__name__}")
    traffic = routes.traffic
    if not np.any(~traffic.background):
        raise ValueError(f"traffic {traffic.name!r} has no foreground flow: a simulation runs until its "
                         "foreground flows finish, and background flows never do")
    simulation = FlowSimulation(routes.incidence, routes.resource_capacity_bytes_per_s, traffic.size_bytes,
                                background=traffic.background, time_tolerance=time_tolerance)
    simulation.run()
    link_bytes = routes.link_load(simulation.delivered_bytes)
    return FlowResult(routes=routes, completion_times_s=simulation.completion_times_s,
                      initial_rates_bytes_per_s=simulation.initial_rates_bytes_per_s, link_bytes=link_bytes,
                      completion_time_s=float(simulation.now_s), events=len(simulation.log))


def simulate(network, traffic, routing="ecmp", *, seed=0, time_tolerance=1e-9):
    """Route ``traffic`` over ``network`` and run every flow to completion.

    Parameters
    ----------
    network : Network
        The fabric.
    traffic : Traffic
        The flows, all starting at time zero.
    routing : str
        A name in :data:`~interconnect_lab.fabric.routing.ROUTINGS`.
    seed : int
        Seed of the routing's randomness.
    time_tolerance : float
        See :class:`FlowSimulation`.

    Returns
    -------
    FlowResult

    Examples
    --------
    Two flows into one host of a leaf-spine pair at 100 B/s share its NIC:

    >>> from interconnect_lab.fabric import Network, incast
    >>> from interconnect_lab.topology import fat_tree
    >>> net = Network(fat_tree(8, radix=4, tiers=2), nic_capacity_bytes_per_s=100.0)
    >>> simulate(net, incast([1, 2], 0, 100.0), "spray").completion_time_s
    2.0
    """
    routes = route(network, traffic, routing, seed=seed)
    return simulate_routes(routes, time_tolerance=time_tolerance)


@dataclass(frozen=True, eq=False)
class RateResult:
    """Max-min fair rates of flows that all run at once (no sizes, no completion).

    Attributes
    ----------
    routes : Routes
    rates_bytes_per_s : numpy.ndarray
        Rate of each flow [B/s].
    link_load_bytes_per_s : numpy.ndarray
        Load on each link [B/s].
    rounds : int
        Rounds of progressive filling [-].
    """

    routes: Routes
    rates_bytes_per_s: np.ndarray
    link_load_bytes_per_s: np.ndarray
    rounds: int

    @property
    def line_rate_fraction(self) -> np.ndarray:
        """Each flow's rate over its sender's NIC capacity [-]."""
        network = self.routes.network
        nic = network.capacity_bytes_per_s[network.nic_link(self.routes.traffic.source, "up")]
        return self.rates_bytes_per_s / nic

    @property
    def link_utilization(self) -> np.ndarray:
        """Load over capacity of each link [-]."""
        capacity = self.routes.network.capacity_bytes_per_s
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where(capacity > 0, self.link_load_bytes_per_s / capacity, 0.0)


def fair_rates(network, traffic, routing="ecmp", *, seed=0):
    """Max-min fair rate of every flow when all of ``traffic`` runs at once.

    Parameters
    ----------
    network : Network
    traffic : Traffic
    routing : str
        A name in :data:`~interconnect_lab.fabric.routing.ROUTINGS`.
    seed : int
        Seed of the routing's randomness.

    Returns
    -------
    RateResult

    Examples
    --------
    >>> from interconnect_lab.fabric import Network, permutation
    >>> from interconnect_lab.topology import fat_tree
    >>> net = Network(fat_tree(8, radix=4, tiers=2), nic_capacity_bytes_per_s=1.0)
    >>> float(fair_rates(net, permutation(8, 1.0, seed=0), "spray").line_rate_fraction.min())
    1.0
    """
    routes = route(network, traffic, routing, seed=seed)
    structure = Incidence(routes.incidence)
    rates, _, rounds = progressive_filling(structure, routes.resource_capacity_bytes_per_s,
                                           np.arange(traffic.flow_count))
    return RateResult(routes=routes, rates_bytes_per_s=rates, link_load_bytes_per_s=routes.link_load(rates),
                      rounds=rounds)


@dataclass(frozen=True, eq=False)
class SimulatedCollective:
    """Time of a collective operation's network phases.

    Attributes
    ----------
    collective : Collective
    phase_results : tuple of FlowResult
        One simulated step per phase.
    time_s : float
        Total time: each phase's step time times its repeats, summed [s].
    """

    collective: Collective
    phase_results: tuple
    time_s: float

    @property
    def algorithm_bandwidth_bytes_per_s(self) -> float | None:
        """Message size over time, as nccl-tests defines algbw [B/s].

        None when no flow crosses the network (every rank's neighbours share its
        server): the network phases then take no time, and a bandwidth over
        them means nothing.
        """
        if self.time_s == 0:
            return None
        return self.collective.message_bytes / self.time_s


def simulate_collective(network, collective, routing="ecmp", *, seed=0, time_tolerance=1e-9):
    """Time of a collective's network phases, each step simulated to completion.

    Every step of a phase moves the same pattern, so one step is simulated and
    multiplied by the phase's repeat count; steps follow one another (each
    waits for the data of the one before).

    Parameters
    ----------
    network : Network
    collective : Collective
        From :func:`~interconnect_lab.fabric.traffic.ring_all_reduce_traffic` or
        :func:`~interconnect_lab.fabric.traffic.hierarchical_all_reduce_traffic`.
    routing : str
        A name in :data:`~interconnect_lab.fabric.routing.ROUTINGS`.
    seed : int
        Seed of the routing's randomness.
    time_tolerance : float
        See :class:`FlowSimulation`.

    Returns
    -------
    SimulatedCollective
        When every flow stays inside a server (``gpus_per_node`` covers all the
        ranks), nothing crosses the network: ``time_s`` is 0, ``phase_results``
        is empty and ``algorithm_bandwidth_bytes_per_s`` is None.

    Examples
    --------
    A ring over 4 hosts of two servers at 100 B/s: 6 steps of 100 B per flow.
    Over 4 GPUs of one server, the ring never leaves it:

    >>> from interconnect_lab.fabric import Network, ring_all_reduce_traffic
    >>> from interconnect_lab.topology import fat_tree
    >>> net = Network(fat_tree(8, radix=4, tiers=2), nic_capacity_bytes_per_s=100.0)
    >>> simulate_collective(net, ring_all_reduce_traffic(range(4), 400.0, gpus_per_node=2), "spray").time_s
    6.0
    >>> inside = simulate_collective(net, ring_all_reduce_traffic(range(4), 400.0, gpus_per_node=4))
    >>> inside.time_s, inside.algorithm_bandwidth_bytes_per_s
    (0.0, None)
    """
    if not isinstance(network, Network):
        raise TypeError(f"network must be a fabric Network, got {type(network).__name__}")
    if not isinstance(collective, Collective):
        raise TypeError(f"collective must be a fabric Collective, got {type(collective).__name__}")
    # Checked here too: a collective that stays inside its servers runs no simulation that would check them.
    check_choice("routing", routing, ROUTINGS)
    seed_value(seed)
    check_number("time_tolerance", time_tolerance, minimum=0, maximum=0.1, scalar=True)
    network.check_hosts("collective.ranks", collective.ranks)
    results = []
    total = 0.0
    for phase in collective.phases:
        if phase.traffic.flow_count == 0:
            continue
        result = simulate(network, phase.traffic, routing, seed=seed, time_tolerance=time_tolerance)
        results.append(result)
        total += phase.repeats * result.completion_time_s
    return SimulatedCollective(collective=collective, phase_results=tuple(results), time_s=total)



def compare_routings(network, traffic, routings=("ecmp", "spray", "adaptive"), *, seed=0, time_tolerance=1e-9):
    """The same traffic simulated under several routing schemes.

    Parameters
    ----------
    network : Network
    traffic : Traffic
    routings : sequence of str
        Names in :data:`~interconnect_lab.fabric.routing.ROUTINGS`, at least one.
    seed : int
        Seed of the routings' randomness (the same for each).
    time_tolerance : float
        See :class:`FlowSimulation`.

    Returns
    -------
    dict of str to FlowResult
        By routing name, in the order given.

    Examples
    --------
    >>> from interconnect_lab.fabric import Network, permutation
    >>> from interconnect_lab.topology import fat_tree
    >>> net = Network(fat_tree(128, radix=16, tiers=2), nic_capacity_bytes_per_s=50e9)
    >>> results = compare_routings(net, permutation(128, 1e6, seed=0))
    >>> {name: round(r.completion_time_s * 1e6) for name, r in results.items()}
    {'ecmp': 100, 'spray': 20, 'adaptive': 40}
    """
    if isinstance(routings, (str, bytes)) or not isinstance(routings, (list, tuple, np.ndarray)):
        raise TypeError(f"routings must be a sequence of routing names, e.g. ('ecmp', 'spray'); got {routings!r}")
    if len(routings) == 0:
        raise ValueError("routings must name at least one routing")
    for routing in routings:
        check_choice("routing", routing, ROUTINGS)
    return {routing: simulate(network, traffic, routing, seed=seed, time_tolerance=time_tolerance)
            for routing in routings}


def __getattr__(name):
    # Names renamed in this release still answer, with a DeprecationWarning (see _deprecation.RENAMED_NAMES).
    return renamed_attribute(__name__, name)
