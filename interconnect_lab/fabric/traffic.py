"""Traffic: who sends how many bytes to whom.

A :class:`Traffic` is a set of flows between hosts, each with a size [B],
all starting at time zero. Background flows never finish (their size is
infinite): they take their fair share of the links for as long as the
foreground flows run.

A :class:`Collective` is a sequence of :class:`Phase` objects. Each phase
is one traffic pattern repeated a number of times, one after the other, as
the steps of a ring all-reduce are: a ring all-reduce over :math:`n` ranks
takes :math:`2(n-1)` steps, in each of which every rank sends
:math:`S/n` bytes to the next one (Patarasuk and Yuan 2009).

References
----------
P. Patarasuk, X. Yuan, "Bandwidth optimal all-reduce algorithms for clusters
of workstations", J. Parallel Distrib. Comput. 69(2), 2009.
https://doi.org/10.1016/j.jpdc.2008.09.002
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass

import numpy as np

from .._deprecation import renamed_attribute
from .._validation import check_choice, check_integer, check_number
from .network import MAX_LINKS

__all__ = [
    "Traffic", "Phase", "Collective", "PLACEMENTS", "FLOW_BYTES_RANGE", "MAX_HOSTS", "MAX_FLOWS",
    "permutation", "all_to_all", "incast", "background", "combine",
    "ring_all_reduce_traffic", "hierarchical_all_reduce_traffic", "rank_placement",
]


#: Sizes a finite flow may have [B]: from far below one bit to far above any transfer. Within it,
#: and with link capacities in :data:`~interconnect_lab.fabric.network.CAPACITY_RANGE_BYTES_PER_S`,
#: a flow's time and rate stay ordinary floats (a flow of 5e-324 B on a 50 GB/s link would finish
#: at "0 s", at an infinite rate).
FLOW_BYTES_RANGE = (1e-30, 1e30)

#: Most hosts the builders take as a count [-]: every host of a simulator network has a link up and a
#: link down, so no network has more than :data:`~interconnect_lab.fabric.network.MAX_LINKS` / 2 =
#: 2**20 of them. A larger count is refused before anything is allocated.
MAX_HOSTS = MAX_LINKS // 2

#: Most flows :func:`all_to_all` builds [-]: n (n - 1) for n hosts, so at most 2,048 hosts (a full
#: two-tier fat tree of 64-port switches). Building them takes about a fifth of a second.
MAX_FLOWS = 2 ** 22


def _check_size(name, value, *, scalar=True):
    low, high = FLOW_BYTES_RANGE
    return check_number(name, value, unit="B", minimum=low, maximum=high, scalar=scalar)


def _check_message(message_bytes, parts, what):
    """``message_bytes`` in :data:`FLOW_BYTES_RANGE`, and still in it once split into ``parts`` flows' sizes."""
    message_bytes = _check_size("message_bytes", message_bytes)
    if message_bytes / parts < FLOW_BYTES_RANGE[0]:
        raise ValueError(f"message_bytes = {message_bytes:g} B is not valid for {what}: each flow carries "
                         f"message_bytes / {parts}, which must be >= {FLOW_BYTES_RANGE[0]:g} B")
    return message_bytes


def _rng(seed):
    if isinstance(seed, np.random.Generator):
        return seed
    if seed is None or isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer)):
        raise TypeError(f"seed must be an integer or a numpy.random.Generator, got {seed!r}")
    if seed < 0:
        raise ValueError(f"seed = {seed} is not valid: it must be >= 0")
    return np.random.default_rng(int(seed))


def is_sequence(value):
    """A list, tuple or one-dimensional array (not a string, not a number)."""
    return isinstance(value, (list, tuple)) or (isinstance(value, np.ndarray) and value.ndim == 1)


def per_flow_array(name, value, flows, *, flags=False):
    """``value`` (one value, or one per flow) as an array of ``flows`` floats, or of booleans with ``flags``."""
    kinds, what = ("b", "True or False") if flags else ("iuf", "a number")
    if not flags and isinstance(value, numbers.Integral) and not isinstance(value, (bool, np.bool_)):
        value = float(value) if abs(value) < 2 ** 1023 else math.copysign(math.inf, value)  # never an object array
    try:
        array = np.asarray(value)
    except ValueError:  # a ragged list
        array = None
    if array is None or array.dtype.kind not in kinds:
        raise TypeError(f"{name} must be {what}, or one per flow, got {value!r}")
    if array.ndim > 1 or (array.ndim == 1 and array.size not in (1, flows)):
        raise ValueError(f"{name} has shape {array.shape} for {flows} flows: give one value, or one per flow")
    return np.broadcast_to(array.astype(bool if flags else float), (flows,)).copy()


def _host_numbers(name, value):
    """``value`` as a one-dimensional int64 array of host numbers (>= 0), or an error naming ``name``."""
    try:
        array = np.atleast_1d(np.asarray(value)) if not isinstance(value, (str, bytes)) else None
    except (TypeError, ValueError):  # a ragged list
        array = None
    if array is None or array.ndim != 1 or (array.size and array.dtype.kind not in "iu"):
        raise TypeError(f"{name} must be a one-dimensional sequence of host numbers (integers >= 0), got {value!r}")
    if array.size and array.min() < 0:
        raise ValueError(f"{name} = {int(array.min())} is not a host number: hosts are numbered from 0")
    return array.astype(np.int64)


def _hosts_array(hosts, name="hosts"):
    """An int count means hosts 0..n-1 (at most :data:`MAX_HOSTS`); a sequence is used as given."""
    if isinstance(hosts, (int, np.integer)) and not isinstance(hosts, (bool, np.bool_)):
        return np.arange(check_integer(name, hosts, minimum=2, maximum=MAX_HOSTS))
    if isinstance(hosts, (numbers.Number, np.bool_)) or hosts is None:
        raise TypeError(f"{name} must be a count (an int in [2, {MAX_HOSTS}]) or a sequence of host numbers, "
                        f"got {hosts!r}")
    array = _host_numbers(name, hosts)
    if array.size < 2:
        raise ValueError(f"{name} must be a count >= 2 or a sequence of at least two host numbers, got {hosts!r}")
    if np.unique(array).size != array.size:
        raise ValueError(f"{name} must not repeat a host")
    return array


@dataclass(frozen=True, eq=False)
class Traffic:
    """Flows between hosts, all starting at time zero.

    Parameters
    ----------
    source, destination : array_like of int
        Sending and receiving host of each flow; they must differ.
    size_bytes : float or array_like
        Size of each flow [B], in :data:`FLOW_BYTES_RANGE`; ``inf`` only for background flows.
    background : bool or array_like of bool
        Background flows never finish and do not count towards completion.
    name : str
        What the pattern is, for titles.

    Examples
    --------
    >>> t = Traffic(source=[0, 1], destination=[1, 0], size_bytes=1e6, name="exchange")
    >>> t.flow_count, t.total_bytes
    (2, 2000000.0)
    """

    source: np.ndarray
    destination: np.ndarray
    size_bytes: np.ndarray
    background: np.ndarray = False
    name: str = "traffic"

    def __post_init__(self):
        source = _host_numbers("source", self.source)
        destination = _host_numbers("destination", self.destination)
        if not isinstance(self.name, str):
            raise TypeError(f"name must be a str, got {self.name!r}")
        if source.shape != destination.shape:
            raise ValueError(f"source has {source.size} flows but destination has {destination.size}")
        same = np.flatnonzero(source == destination)
        if same.size:
            raise ValueError(f"flow {same[0]} sends from host {source[same[0]]} to itself: "
                             "a flow needs two different hosts")
        background = per_flow_array("background", self.background, source.size, flags=True)
        size = per_flow_array("size_bytes", self.size_bytes, source.size)
        finite = np.where(background & np.isinf(size), 1.0, size)
        _check_size("size_bytes", finite, scalar=False) if size.size else None
        for name, array in (("source", source.astype(np.int64)), ("destination", destination.astype(np.int64)),
                            ("size_bytes", size), ("background", background)):
            array.setflags(write=False)
            object.__setattr__(self, name, array)

    @property
    def flow_count(self) -> int:
        """Number of flows [-]."""
        return int(self.source.size)

    @property
    def total_bytes(self) -> float:
        """Bytes of the foreground flows [B]."""
        return float(self.size_bytes[~self.background].sum())

    def __len__(self):
        return self.flow_count

    def __repr__(self):
        return (f"Traffic({self.name!r}, {self.flow_count} flows, {int(self.background.sum())} background, "
                f"{self.total_bytes:.4g} B)")


def combine(*traffics, name=None):
    """One :class:`Traffic` holding the flows of several, in order.

    Parameters
    ----------
    *traffics : Traffic
        At least one.
    name : str, optional
        What the pattern is; by default the names joined with ``" + "``.

    Returns
    -------
    Traffic

    Examples
    --------
    >>> combine(incast([1, 2], 0, 1e3), incast([0], 3, 1e3)).flow_count
    3
    """
    if not traffics:
        raise ValueError("combine needs at least one Traffic")
    for position, traffic in enumerate(traffics, start=1):
        if not isinstance(traffic, Traffic):
            raise TypeError(f"every argument of combine must be a fabric Traffic: argument {position} is "
                            f"{type(traffic).__name__} {traffic!r}")
    return Traffic(source=np.concatenate([t.source for t in traffics]),
                   destination=np.concatenate([t.destination for t in traffics]),
                   size_bytes=np.concatenate([t.size_bytes for t in traffics]),
                   background=np.concatenate([t.background for t in traffics]),
                   name=name or " + ".join(t.name for t in traffics))


def permutation(hosts, size_bytes, *, seed):
    """Random permutation traffic: every host sends one flow and receives one.

    The permutation is a uniformly random *derangement* (no host sends to
    itself), drawn by rejection from uniform permutations.

    Parameters
    ----------
    hosts : int or array_like of int
        Number of hosts (0..n-1, at most :data:`MAX_HOSTS`), or the hosts taking part.
    size_bytes : float
        Size of every flow [B], in :data:`FLOW_BYTES_RANGE`.
    seed : int or numpy.random.Generator
        Randomness.

    Examples
    --------
    >>> t = permutation(8, 1e6, seed=1)
    >>> sorted(t.destination.tolist()) == list(range(8)), bool((t.source != t.destination).all())
    (True, True)
    """
    hosts = _hosts_array(hosts)
    size_bytes = _check_size("size_bytes", size_bytes)
    rng = _rng(seed)
    n = hosts.size
    order = rng.permutation(n)
    while np.any(order == np.arange(n)):
        # Re-draw only the fixed points, shuffled among themselves and one other position.
        fixed = np.flatnonzero(order == np.arange(n))
        extra = rng.integers(n, size=1)
        pool = np.unique(np.concatenate((fixed, extra)))
        order[pool] = order[pool][rng.permutation(pool.size)]
    return Traffic(source=hosts, destination=hosts[order], size_bytes=size_bytes, name="random permutation")


def all_to_all(hosts, size_bytes, *, skew=0.0, seed=None):
    """All-to-all: every host sends to every other host (mixture-of-experts dispatch).

    With ``skew`` = 0 every flow carries ``size_bytes``. With ``skew`` > 0 some
    destinations (popular experts) receive more: destination ``d`` is given a
    popularity rank :math:`r_d` (a random order) and the flow to it carries

    .. math:: S_{sd} = S \\, w_d / \\bar w, \\qquad w_d = (1 + r_d)^{-\\text{skew}}

    a Zipf law whose mean over destinations is ``size_bytes``, so the total
    is the same as without skew.

    Parameters
    ----------
    hosts : int or array_like of int
        Number of hosts (0..n-1), or the hosts taking part; at most 2,048, for at most
        :data:`MAX_FLOWS` flows.
    size_bytes : float
        Mean size of a flow [B]; every flow's size must lie in :data:`FLOW_BYTES_RANGE`.
    skew : float
        Zipf exponent of expert popularity [-], in [0, 10].
    seed : int or numpy.random.Generator, optional
        Randomness (needed only with skew).

    Examples
    --------
    >>> all_to_all(4, 1e3).flow_count
    12
    >>> t = all_to_all(4, 1e3, skew=1.0, seed=0)
    >>> round(t.total_bytes)
    12000
    """
    hosts = _hosts_array(hosts)
    size_bytes = _check_size("size_bytes", size_bytes)
    skew = check_number("skew", skew, minimum=0, maximum=10, scalar=True)
    rng = None if seed is None else _rng(seed)
    n = hosts.size
    if n * (n - 1) > MAX_FLOWS:
        raise ValueError(f"hosts = {n} is not valid for all_to_all: its n (n - 1) = {n * (n - 1)} flows must be "
                         f"at most MAX_FLOWS = {MAX_FLOWS} (2,048 hosts)")
    source_index = np.repeat(np.arange(n), n - 1)
    offset = np.tile(np.arange(1, n), n)
    destination_index = (source_index + offset) % n
    if skew > 0:
        rank = (_rng(seed) if rng is None else rng).permutation(n)
        weight = (1.0 + rank) ** -skew
        # Normalize so the total equals n (n-1) S whatever the skew.
        per_flow = weight[destination_index]
        sizes = size_bytes * per_flow * (per_flow.size / per_flow.sum())
        low, high = FLOW_BYTES_RANGE
        if sizes.min() < low or sizes.max() > high:
            raise ValueError(f"size_bytes = {size_bytes:g} B with skew = {skew:g} gives flows from "
                             f"{sizes.min():g} to {sizes.max():g} B: every flow must be in [{low:g}, {high:g}] B")
    else:
        sizes = size_bytes
    return Traffic(source=hosts[source_index], destination=hosts[destination_index], size_bytes=sizes,
                   name="all-to-all" if skew == 0 else f"all-to-all (skew {skew:g})")


def incast(senders, receiver, size_bytes):
    """N-to-1 incast: every sender sends ``size_bytes`` to one receiver.

    Parameters
    ----------
    senders : int or array_like of int
        Sending hosts, at least one; a host may send more than one flow.
    receiver : int
        Receiving host, not among the senders.
    size_bytes : float
        Size of every flow [B], in :data:`FLOW_BYTES_RANGE`.

    Returns
    -------
    Traffic

    Examples
    --------
    >>> incast([1, 2, 3], 0, 1e6).flow_count
    3
    """
    senders = _host_numbers("senders", senders)
    if senders.size == 0:
        raise ValueError("senders must name at least one host")
    receiver = check_integer("receiver", receiver, minimum=0)
    size_bytes = _check_size("size_bytes", size_bytes)
    return Traffic(source=senders, destination=np.full(senders.size, receiver),
                   size_bytes=size_bytes, name=f"{senders.size}-to-1 incast")


def background(hosts, fraction, *, seed):
    """Persistent background load: a random permutation among a share of the hosts.

    The flows never finish; each takes its max-min fair share for as long as
    the foreground traffic runs.

    Parameters
    ----------
    hosts : int or array_like of int
        Number of hosts (0..n-1, at most :data:`MAX_HOSTS`), or the hosts to draw from.
    fraction : float
        Share of the hosts that send (and receive) background traffic, in [0, 1] [-].
    seed : int or numpy.random.Generator
        Randomness.

    Examples
    --------
    >>> background(16, 0.5, seed=3).flow_count
    8
    """
    hosts = _hosts_array(hosts)
    fraction = check_number("fraction", fraction, minimum=0, maximum=1, scalar=True)
    rng = _rng(seed)
    count = int(round(fraction * hosts.size))
    if count < 2:
        return Traffic(source=np.zeros(0, np.int64), destination=np.zeros(0, np.int64), size_bytes=np.zeros(0),
                       background=np.zeros(0, bool), name="background")
    chosen = hosts[np.sort(rng.choice(hosts.size, size=count, replace=False))]
    flows = permutation(chosen, 1.0, seed=rng)
    return Traffic(source=flows.source, destination=flows.destination, size_bytes=np.inf, background=True,
                   name="background")


@dataclass(frozen=True, eq=False)
class Phase:
    """One traffic pattern of a collective, run ``repeats`` times back to back.

    Attributes
    ----------
    traffic : Traffic
        The flows of one step.
    repeats : int
        How many identical steps [-].
    label : str
        What the phase is (``"ring step"``).
    """

    traffic: Traffic
    repeats: int = 1
    label: str = ""

    def __post_init__(self):
        object.__setattr__(self, "repeats", check_integer("repeats", self.repeats, minimum=1))


@dataclass(frozen=True, eq=False)
class Collective:
    """A collective operation's network traffic: phases run one after another.

    Attributes
    ----------
    name : str
        The operation.
    phases : tuple of Phase
        In order.
    ranks : numpy.ndarray
        Host of each rank.
    message_bytes : float
        Data per rank the operation reduces or exchanges [B].
    intra_node_flows : int
        Flows per step that stay inside a server (NVLink) and are not simulated.
    """

    name: str
    phases: tuple
    ranks: np.ndarray
    message_bytes: float
    intra_node_flows: int = 0


#: Rank placements: how ranks map to hosts.
PLACEMENTS = ("rail-aligned", "random")


def rank_placement(hosts, *, gpus_per_node=1, placement="rail-aligned", seed=None):
    """Host of each rank for a job on ``hosts``, grouped into servers of ``gpus_per_node``.

    ``"rail-aligned"`` puts rank ``j * g + i`` on GPU ``i`` of the job's
    ``j``-th server: the ranks with the same local index share a rail.
    ``"random"`` shuffles the order of the servers and, inside each server,
    which GPU takes which local rank: ranks stay together per server, but
    local rank ``i`` of different servers lands on different rails.

    Parameters
    ----------
    hosts : int or array_like of int
        Hosts of the job, a whole number of servers, in server order; a count n means hosts
        0..n-1 (at most :data:`MAX_HOSTS`).
    gpus_per_node : int
        Hosts per server [-].
    placement : str
        One of :data:`PLACEMENTS`.
    seed : int or numpy.random.Generator, optional
        Randomness (for ``"random"``).

    Examples
    --------
    >>> rank_placement(4, gpus_per_node=2).tolist()
    [0, 1, 2, 3]
    """
    hosts = _hosts_array(hosts)
    gpus_per_node = check_integer("gpus_per_node", gpus_per_node, minimum=1)
    check_choice("placement", placement, PLACEMENTS)
    rng = None if seed is None else _rng(seed)
    if hosts.size % gpus_per_node:
        raise ValueError(f"{hosts.size} hosts are not a whole number of servers of {gpus_per_node}")
    grid = hosts.reshape(-1, gpus_per_node)
    if placement == "random":
        rng = _rng(seed) if rng is None else rng
        grid = grid[rng.permutation(grid.shape[0])]
        grid = np.take_along_axis(grid, rng.permuted(np.tile(np.arange(gpus_per_node), (grid.shape[0], 1)),
                                                     axis=1), axis=1)
    return grid.reshape(-1)


def ring_all_reduce_traffic(ranks, message_bytes, *, gpus_per_node=1):
    """The network steps of a ring all-reduce over hosts ``ranks`` (in ring order).

    :math:`2(n-1)` steps (reduce-scatter, then all-gather); in each, rank
    :math:`i` sends :math:`S/n` bytes to rank :math:`i+1 \\bmod n`.
    Flows between two hosts of one server travel over NVLink and are left out.

    Parameters
    ----------
    ranks : int or array_like of int
        Host of each rank, in ring order; a count n means hosts 0..n-1 (at most :data:`MAX_HOSTS`).
    message_bytes : float
        Size of the buffer being all-reduced [B], in :data:`FLOW_BYTES_RANGE` even when split
        over the ranks.
    gpus_per_node : int
        Hosts per server; flows inside a server are not simulated.

    Returns
    -------
    Collective

    Examples
    --------
    >>> ring = ring_all_reduce_traffic([0, 1, 2, 3], 4e6)
    >>> ring.phases[0].repeats, float(ring.phases[0].traffic.size_bytes[0])
    (6, 1000000.0)
    """
    ranks = _hosts_array(ranks, "ranks")
    n = ranks.size
    message_bytes = _check_message(message_bytes, n, f"{n} ranks")
    gpus_per_node = check_integer("gpus_per_node", gpus_per_node, minimum=1)
    source, destination = ranks, np.roll(ranks, -1)
    crosses = source // gpus_per_node != destination // gpus_per_node
    step = Traffic(source=source[crosses], destination=destination[crosses], size_bytes=message_bytes / n,
                   name="ring all-reduce step")
    return Collective(name="ring all-reduce", phases=(Phase(step, 2 * (n - 1), "ring step"),), ranks=ranks,
                      message_bytes=message_bytes, intra_node_flows=int((~crosses).sum()))


def hierarchical_all_reduce_traffic(ranks, message_bytes, *, gpus_per_node):
    """The network phase of a hierarchical (two-level) all-reduce.

    Inside each server the ``g`` GPUs reduce-scatter over NVLink, so each holds
    :math:`S/g`; then the ``g`` GPUs with the same local rank run ``g`` ring
    all-reduces in parallel across the :math:`m` servers — :math:`2(m-1)`
    steps of :math:`S/(g\\,m)` bytes per flow — and finally all-gather
    inside the server. Only the middle, inter-server phase crosses the
    network and is returned.

    Parameters
    ----------
    ranks : int or array_like of int
        Host of each rank; ranks ``j g .. j g + g - 1`` form server ``j``
        (see :func:`rank_placement`). A count n means hosts 0..n-1 (at most :data:`MAX_HOSTS`).
    message_bytes : float
        Size of the buffer being all-reduced [B], in :data:`FLOW_BYTES_RANGE` even when split
        over the ranks.
    gpus_per_node : int
        GPUs per server, ``g`` [-].

    Returns
    -------
    Collective

    Examples
    --------
    >>> c = hierarchical_all_reduce_traffic(range(8), 8e6, gpus_per_node=2)
    >>> c.phases[0].repeats, c.phases[0].traffic.flow_count, float(c.phases[0].traffic.size_bytes[0])
    (6, 8, 1000000.0)
    """
    ranks = _hosts_array(ranks, "ranks")
    message_bytes = _check_message(message_bytes, ranks.size, f"{ranks.size} ranks")
    g = check_integer("gpus_per_node", gpus_per_node, minimum=1)
    if ranks.size % g or ranks.size // g < 2:
        raise ValueError(f"{ranks.size} ranks are not at least two whole servers of gpus_per_node = {g}")
    m = ranks.size // g
    grid = ranks.reshape(m, g)
    source = grid.reshape(-1)
    destination = np.roll(grid, -1, axis=0).reshape(-1)
    step = Traffic(source=source, destination=destination, size_bytes=message_bytes / (g * m),
                   name="hierarchical all-reduce, inter-server ring step")
    return Collective(name="hierarchical all-reduce", phases=(Phase(step, 2 * (m - 1), "inter-server ring step"),),
                      ranks=ranks, message_bytes=message_bytes)


def __getattr__(name):
    # Names renamed in this release still answer, with a DeprecationWarning (see _deprecation.RENAMED_NAMES).
    return renamed_attribute(__name__, name)
