"""Direct networks for the flow simulator: dragonflies and tori as directed links.

A fat tree's :class:`~interconnect_lab.fabric.network.Network` names paths by
their up-ports. Dragonflies and tori have no "up": a path is a walk between
routers. :class:`DirectNetwork` holds any such network as a list of cables,
each two directed links with a capacity, and routes flows over it with the
routing these topologies use:

``"minimal"``
    Dragonfly: local, global, local (at most 3 router hops); where two groups
    share *t* global links, a hash of the flow picks one. Torus:
    dimension-order routing, each ring the short way round (ties at exactly
    half a ring go the + way), as TPU interconnects route.
``"valiant"`` (dragonfly)
    Valiant's randomized routing: a flow between two groups first goes
    minimally to a hashed intermediate group, then minimally on (at most
    5 router hops). It spreads adversarial traffic at the price of twice the
    global bandwidth. Flows inside one group stay minimal.

The result is a :class:`~interconnect_lab.fabric.routing.Routes`, so
:func:`~interconnect_lab.fabric.simulation.simulate_routes` runs it exactly
as it runs a fat tree's routes (:func:`simulate_direct` does both steps).

Link numbering: cable *c* is links ``2c`` (one way) and ``2c + 1`` (back);
cable *h* < hosts joins host *h* to its router (link ``2h`` is its NIC's
up-link). Nodes: hosts ``0 .. H-1``, then routers (chips, for a torus).
In a torus every chip is a host and a router; its "NIC" link models the
chip's injection into its own router, with the capacity of all its network
links together, so it never binds before they do.

References
----------
J. Kim, W. J. Dally, S. Scott, D. Abts, "Technology-Driven, Highly-Scalable
Dragonfly Topology", ISCA 2008, https://doi.org/10.1109/ISCA.2008.19.

L. G. Valiant, G. J. Brebner, "Universal Schemes for Parallel
Communication", STOC 1981, https://doi.org/10.1145/800076.802479.

W. J. Dally, B. Towles, *Principles and Practices of Interconnection
Networks*, Morgan Kaufmann, 2004 (dimension-order routing).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np

from .._lazy import lazy_module
from .._validation import check_choice
from ..topology import Dragonfly, Torus
from .network import MAX_LINKS, check_capacity
from .routing import Routes
from .simulation import simulate_routes
from .traffic import Traffic

sp = lazy_module("scipy.sparse")  # imported on first use: import interconnect_lab stays fast

__all__ = ["DirectNetwork", "dragonfly_network", "torus_network", "DIRECT_ROUTINGS", "direct_route",
           "simulate_direct", "MAX_DIRECT_LINKS"]

#: Routing schemes of direct networks: name -> (topologies it applies to, description).
DIRECT_ROUTINGS = {
    "minimal": (("dragonfly", "torus"), "shortest paths: local-global-local, or dimension order"),
    "valiant": (("dragonfly",), "via a hashed intermediate group, then minimal"),
}

#: Most directed links a direct network may have [-]: HPE Slingshot's largest dragonfly (279,040
#: hosts) has 1,395,200 and a 64 x 64 x 64 torus 2,097,152; building this many takes a few tenths
#: of a second, and simulating traffic on them far longer. The same bound as a fat tree's,
#: :data:`~interconnect_lab.fabric.network.MAX_LINKS`.
MAX_DIRECT_LINKS = MAX_LINKS

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)


def _mix(x):
    with np.errstate(over="ignore"):
        x = x + _GOLDEN
        x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        return x ^ (x >> np.uint64(31))


def _flow_hash(seed, traffic, salt):
    """Deterministic 64-bit hash per flow of (seed, salt, source, destination, flow number)."""
    with np.errstate(over="ignore"):
        x = _mix(np.uint64(int(seed) & 0xFFFFFFFFFFFFFFFF) ^ np.uint64(salt))
        x = _mix(x ^ traffic.source.astype(np.uint64))
        x = _mix(x ^ (traffic.destination.astype(np.uint64) << np.uint64(24)))
        return _mix(x ^ (np.arange(traffic.flow_count, dtype=np.uint64) << np.uint64(44)))


@dataclass(frozen=True, eq=False)
class DirectNetwork:
    """A direct network (dragonfly or torus) as directed links with capacities.

    Build it with :func:`dragonfly_network` or :func:`torus_network`.

    Attributes
    ----------
    topology : Dragonfly or Torus
        What it was built from.
    hosts : int
        Hosts [-].
    routers : int
        Routers (chips of a torus) [-].
    tail, head : numpy.ndarray
        Node each directed link leaves and enters.
    kind : numpy.ndarray
        Index into :attr:`kind_names` of each link.
    kind_names : tuple of str
        Kinds of link, e.g. ``("nic", "local", "global")``.
    capacity_bytes_per_s : numpy.ndarray
        Capacity of each directed link [B/s].
    router_of_host : numpy.ndarray
        Router each host hangs off [-].
    """

    topology: object
    hosts: int
    routers: int
    tail: np.ndarray
    head: np.ndarray
    kind: np.ndarray
    kind_names: tuple
    capacity_bytes_per_s: np.ndarray
    router_of_host: np.ndarray

    @property
    def family(self) -> str:
        """``"dragonfly"`` or ``"torus"``."""
        return "dragonfly" if isinstance(self.topology, Dragonfly) else "torus"

    @property
    def link_count(self) -> int:
        """Directed links [-]."""
        return int(self.tail.size)

    @property
    def node_count(self) -> int:
        """Hosts and routers [-]."""
        return self.hosts + self.routers

    @property
    def failed_links(self) -> np.ndarray:
        """Links with zero capacity."""
        return np.flatnonzero(self.capacity_bytes_per_s == 0)

    def nic_link(self, host, direction="up"):
        """Link from ``host`` to its router (``"up"``) or back (``"down"``)."""
        host = self.check_hosts("host", host)
        return 2 * host + (0 if check_choice("direction", direction, ("up", "down")) == "up" else 1)

    def reverse_link(self, links):
        """The other direction of the same cable."""
        return np.asarray(self.check_links("links", links)) ^ 1

    def links_of_kind(self, kind):
        """All links of one kind (a name in :attr:`kind_names`)."""
        check_choice("link kind", kind, self.kind_names)
        return np.flatnonzero(self.kind == self.kind_names.index(kind))

    def link_ends(self, links):
        """The node each link leaves and the node it enters."""
        links = np.atleast_1d(self.check_links("links", links))
        return self.tail[links], self.head[links]

    def _node_name(self, node):
        if node < self.hosts:
            return f"host {node}"
        router = node - self.hosts
        if self.family == "dragonfly":
            a = self.topology.routers_per_group
            return f"router {router} (group {router // a})"
        coords = np.unravel_index(router, self.topology.dimensions)
        return "chip (" + ", ".join(str(int(c)) for c in coords) + ")"

    def link_name(self, link) -> str:
        """Human-readable name of one link: ``'router 0 (group 0) -> router 1 (group 0)'``."""
        link = int(self.check_links("link", link))
        return f"{self._node_name(int(self.tail[link]))} -> {self._node_name(int(self.head[link]))}"

    def check_hosts(self, name, hosts):
        """Return ``hosts`` as an int64 array (or int) after checking every one exists."""
        return _check_index(name, hosts, self.hosts, "host")

    def check_links(self, name, links):
        """Return ``links`` as an int64 array (or int) after checking every one exists."""
        return _check_index(name, links, self.link_count, "link")

    def with_link_capacity(self, links, capacity_bytes_per_s):
        """A copy with new capacities on some links [B/s] (0 fails them; see
        :data:`~interconnect_lab.fabric.network.CAPACITY_RANGE_BYTES_PER_S`)."""
        links = self.check_links("links", links)
        value = check_capacity("capacity_bytes_per_s", capacity_bytes_per_s, failed=True)
        capacity = self.capacity_bytes_per_s.copy()
        capacity[links] = value
        capacity.setflags(write=False)
        return dataclasses.replace(self, capacity_bytes_per_s=capacity)

    def with_failed_links(self, links, *, both_directions=True):
        """A copy where the given links (and by default their cables' other direction) carry nothing."""
        links = np.atleast_1d(self.check_links("links", links))
        if both_directions:
            links = np.concatenate((links, links ^ 1))
        return self.with_link_capacity(links, 0.0)

    def __repr__(self):
        return (f"DirectNetwork({self.family}, {self.hosts} hosts, {self.routers} routers, "
                f"{self.link_count} links, {self.failed_links.size} failed)")


def _check_index(name, value, count, noun):
    if isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be a {noun} number (an integer in [0, {count - 1}]), got {value!r}")
    array = np.asarray(value)
    if array.dtype.kind not in "iu":
        raise TypeError(f"{name} must be a {noun} number (an integer in [0, {count - 1}]), got {value!r}")
    bad = (array < 0) | (array >= count)
    if np.any(bad):
        raise ValueError(f"{name} = {int(array[bad].flat[0])} is not a {noun} of this network: valid "
                         f"{noun}s are 0 to {count - 1}")
    array = array.astype(np.int64, copy=False)
    return int(array) if array.ndim == 0 else array


def _capacities(topology, nic_capacity_bytes_per_s, link_capacity_bytes_per_s):
    link = link_capacity_bytes_per_s if link_capacity_bytes_per_s is not None else topology.port_bytes_per_s
    if link is None:
        raise ValueError("link_capacity_bytes_per_s is needed: the topology has no port rate; pass one in B/s "
                         "(e.g. 200 * units.Gbit_per_s)")
    link = check_capacity("link_capacity_bytes_per_s", link, scalar=True)
    nic = nic_capacity_bytes_per_s
    if nic is not None:
        nic = check_capacity("nic_capacity_bytes_per_s", nic, scalar=True)
    return nic, link


def _check_size(topology, cables):
    """Refuse, before building anything, a network of more than MAX_DIRECT_LINKS directed links."""
    if 2 * cables > MAX_DIRECT_LINKS:
        raise ValueError(f"topology has {2 * cables} directed links: the simulator's direct networks must have "
                         f"at most MAX_DIRECT_LINKS = {MAX_DIRECT_LINKS} (a smaller {type(topology).__name__.lower()})")


def _network(topology, hosts, routers, cable_ends, cable_kind, kind_names, capacity_per_cable, router_of_host):
    """Directed links from cables: link 2c goes as the cable is listed, 2c + 1 back."""
    ends = np.asarray(cable_ends, dtype=np.int64)
    tail = np.empty(2 * ends.shape[0], dtype=np.int64)
    head = np.empty_like(tail)
    tail[0::2], head[0::2] = ends[:, 0], ends[:, 1]
    tail[1::2], head[1::2] = ends[:, 1], ends[:, 0]
    kind = np.repeat(np.asarray(cable_kind, dtype=np.int64), 2)
    capacity = np.repeat(np.asarray(capacity_per_cable, dtype=float), 2)
    for array in (tail, head, kind, capacity, router_of_host):
        array.setflags(write=False)
    return DirectNetwork(topology=topology, hosts=hosts, routers=routers, tail=tail, head=head, kind=kind,
                         kind_names=kind_names, capacity_bytes_per_s=capacity, router_of_host=router_of_host)


# Dragonfly --------------------------------------------------------------------------------

def _group_pair_index(i, j, g):
    """Index of the unordered pair (min, max) among the g (g - 1) / 2 pairs of groups."""
    lo, hi = np.minimum(i, j), np.maximum(i, j)
    return lo * g - lo * (lo + 1) // 2 + (hi - lo - 1)


def dragonfly_network(topology, *, nic_capacity_bytes_per_s=None, link_capacity_bytes_per_s=None):
    """A dragonfly's cables as directed links: terminal, local and global.

    Parameters
    ----------
    topology : interconnect_lab.topology.Dragonfly
        From :func:`interconnect_lab.topology.dragonfly`.
    nic_capacity_bytes_per_s : float, optional
        Capacity of a terminal's link, each way [B/s]; the link rate by default.
    link_capacity_bytes_per_s : float, optional
        Capacity of a router-to-router link, each way [B/s]; the topology's
        port rate by default. Capacities lie in
        :data:`~interconnect_lab.fabric.network.CAPACITY_RANGE_BYTES_PER_S`.

    Returns
    -------
    DirectNetwork

    Raises
    ------
    ValueError
        If a capacity is out of range or the network would have more than
        :data:`MAX_DIRECT_LINKS` directed links.

    Examples
    --------
    The smallest interesting dragonfly: 3 groups of 2 routers, one terminal
    each, one global link per router.

    >>> from interconnect_lab.topology import dragonfly
    >>> net = dragonfly_network(dragonfly(1, 2, 1), link_capacity_bytes_per_s=100.0)
    >>> net.hosts, net.routers, net.link_count
    (6, 6, 24)
    >>> net.link_name(net.links_of_kind("global")[0])
    'router 0 (group 0) -> router 3 (group 1)'
    """
    if not isinstance(topology, Dragonfly):
        raise TypeError(f"topology must be a topology.Dragonfly (from topology.dragonfly), got "
                        f"{type(topology).__name__}")
    nic, link = _capacities(topology, nic_capacity_bytes_per_s, link_capacity_bytes_per_s)
    _check_size(topology, topology.links)
    p, a, h, g = (topology.terminals_per_router, topology.routers_per_group,
                  topology.global_links_per_router, topology.groups)
    t = topology.links_per_group_pair
    hosts, routers = topology.hosts, topology.routers
    router_of_host = np.arange(hosts) // p
    cables = [np.column_stack((np.arange(hosts), hosts + router_of_host))]
    kinds = [np.zeros(hosts, dtype=np.int64)]
    r1, r2 = np.triu_indices(a, k=1)
    groups = np.repeat(np.arange(g), r1.size)
    cables.append(np.column_stack((hosts + groups * a + np.tile(r1, g), hosts + groups * a + np.tile(r2, g))))
    kinds.append(np.ones(groups.size, dtype=np.int64))
    gi, gj = np.triu_indices(g, k=1)
    gi, gj = np.repeat(gi, t), np.repeat(gj, t)
    m = np.tile(np.arange(t), gi.size // max(t, 1))
    out_i = (((gj - gi - 1) % g) + m * (g - 1)) // h
    out_j = (((gi - gj - 1) % g) + m * (g - 1)) // h
    cables.append(np.column_stack((hosts + gi * a + out_i, hosts + gj * a + out_j)))
    kinds.append(np.full(gi.size, 2, dtype=np.int64))
    capacity = np.concatenate((np.full(hosts, link if nic is None else nic), np.full(groups.size + gi.size, link)))
    return _network(topology, hosts, routers, np.concatenate(cables), np.concatenate(kinds),
                    ("nic", "local", "global"), capacity, router_of_host.astype(np.int64))


def _dragonfly_tables(network):
    top = network.topology
    a, g, h = top.routers_per_group, top.groups, top.global_links_per_router
    hosts = network.hosts
    pair = -np.ones((a, a), dtype=np.int64)
    r1, r2 = np.triu_indices(a, k=1)
    pair[r1, r2] = np.arange(r1.size)
    pair[r2, r1] = np.arange(r1.size)
    local_base = hosts
    global_base = hosts + g * r1.size
    return a, g, h, top.links_per_group_pair, pair, r1.size, local_base, global_base


def _local_links(network, tables, group, from_router, to_router):
    """Link from router ``from_router`` to ``to_router`` of ``group`` (-1 where they are the same)."""
    a, g, h, t, pair, pairs_per_group, local_base, _ = tables
    same = from_router == to_router
    cable = local_base + group * pairs_per_group + pair[from_router, to_router]
    link = 2 * cable + (from_router > to_router)
    return np.where(same, -1, link)


def _global_hop(network, tables, from_group, to_group, m):
    """Global link from ``from_group`` to ``to_group`` (parallel link ``m``), and its routers at each end."""
    a, g, h, t, pair, pairs_per_group, local_base, global_base = tables
    cable = global_base + _group_pair_index(from_group, to_group, g) * t + m
    link = 2 * cable + (from_group > to_group)
    out_router = (((to_group - from_group - 1) % g) + m * (g - 1)) // h
    in_router = (((from_group - to_group - 1) % g) + m * (g - 1)) // h
    return link, out_router, in_router


def _dragonfly_paths(network, traffic, routing, seed):
    tables = _dragonfly_tables(network)
    a, g, t = tables[0], tables[1], tables[3]
    router = network.router_of_host
    src_router, dst_router = router[traffic.source], router[traffic.destination]
    src_group, dst_group = src_router // a, dst_router // a
    src_local, dst_local = src_router % a, dst_router % a
    flows = traffic.flow_count
    paths = np.full((flows, 7), -1, dtype=np.int64)
    paths[:, 0] = 2 * traffic.source
    paths[:, 6] = 2 * traffic.destination + 1
    inside = src_group == dst_group
    paths[inside, 1] = _local_links(network, tables, src_group[inside], src_local[inside], dst_local[inside])
    across = ~inside
    if np.any(across):
        m = (_flow_hash(seed, traffic, 1) % np.uint64(max(t, 1))).astype(np.int64)
        first_target = dst_group.copy()
        valiant = across & (routing == "valiant") & (g >= 3)
        if np.any(valiant):
            # An intermediate group other than source and destination, uniform over the g - 2 others.
            pick = (_flow_hash(seed, traffic, 2) % np.uint64(g - 2)).astype(np.int64)
            low, high = np.minimum(src_group, dst_group), np.maximum(src_group, dst_group)
            middle = pick + (pick >= low)
            middle = middle + (middle >= high)
            first_target = np.where(valiant, middle, dst_group)
        s = np.flatnonzero(across)
        link, out_router, in_router = _global_hop(network, tables, src_group[s], first_target[s], m[s])
        paths[s, 1] = _local_links(network, tables, src_group[s], src_local[s], out_router)
        paths[s, 2] = link
        v = valiant[s]
        direct = ~v
        paths[s[direct], 3] = _local_links(network, tables, dst_group[s[direct]], in_router[direct],
                                           dst_local[s[direct]])
        if np.any(v):
            w = s[v]
            m2 = (_flow_hash(seed, traffic, 3) % np.uint64(max(t, 1))).astype(np.int64)[w]
            link2, out2, in2 = _global_hop(network, tables, first_target[w], dst_group[w], m2)
            paths[w, 3] = _local_links(network, tables, first_target[w], in_router[v], out2)
            paths[w, 4] = link2
            paths[w, 5] = _local_links(network, tables, dst_group[w], in2, dst_local[w])
    return paths


# Torus --------------------------------------------------------------------------------------

def torus_network(topology, *, link_capacity_bytes_per_s=None):
    """A torus's chip-to-chip links as directed links, and each chip's injection link.

    Cable ``H + i N + c`` joins chip *c* to its + neighbour in dimension *i*.

    Parameters
    ----------
    topology : interconnect_lab.topology.Torus
        From :func:`interconnect_lab.topology.torus`; every ring at least 3 long.
    link_capacity_bytes_per_s : float, optional
        Capacity of one chip-to-chip link, each way [B/s]; the topology's port
        rate by default, in :data:`~interconnect_lab.fabric.network.CAPACITY_RANGE_BYTES_PER_S`.

    Returns
    -------
    DirectNetwork

    Raises
    ------
    ValueError
        If a ring is shorter than 3 (its two links would join the same pair), or the
        network would have more than :data:`MAX_DIRECT_LINKS` directed links.

    Examples
    --------
    >>> from interconnect_lab.topology import torus
    >>> net = torus_network(torus((4,)), link_capacity_bytes_per_s=100.0)
    >>> net.link_count, net.link_name(net.links_of_kind("torus")[0])
    (16, 'chip (0) -> chip (1)')
    """
    if not isinstance(topology, Torus):
        raise TypeError(f"topology must be a topology.Torus (from topology.torus), got {type(topology).__name__}")
    short = [k for k in topology.dimensions if k < 3]
    if short:
        raise ValueError(f"topology has a ring of length {short[0]}: the simulator needs every ring >= 3")
    _, link = _capacities(topology, None, link_capacity_bytes_per_s)
    _check_size(topology, topology.chips * (1 + len(topology.dimensions)))
    n, dims = topology.chips, topology.dimensions
    chips = np.arange(n)
    coords = np.array(np.unravel_index(chips, dims))
    cables = [np.column_stack((chips, n + chips))]
    for i, k in enumerate(dims):
        neighbour = coords.copy()
        neighbour[i] = (neighbour[i] + 1) % k
        cables.append(np.column_stack((n + chips, n + np.ravel_multi_index(tuple(neighbour), dims))))
    kinds = np.concatenate((np.zeros(n, dtype=np.int64), np.ones(n * len(dims), dtype=np.int64)))
    capacity = np.concatenate((np.full(n, link * topology.radix), np.full(n * len(dims), link)))
    return _network(topology, n, n, np.concatenate(cables), kinds, ("nic", "torus"), capacity,
                    chips.astype(np.int64))


def _torus_paths(network, traffic):
    dims = network.topology.dimensions
    n = network.hosts
    strides = np.array([int(np.prod(dims[i + 1:])) for i in range(len(dims))], dtype=np.int64)
    current = traffic.source.copy()
    target = np.array(np.unravel_index(traffic.destination, dims))
    columns = [2 * traffic.source]
    for i, k in enumerate(dims):
        position = (current // strides[i]) % k
        delta = (target[i] - position) % k
        forward = delta <= k // 2
        steps = np.where(forward, delta, k - delta)
        for step in range(k // 2):
            moving = steps > step
            position_now = (current // strides[i]) % k
            plus_cable = n + i * n + current
            minus_chip = current - position_now * strides[i] + ((position_now - 1) % k) * strides[i]
            minus_cable = n + i * n + minus_chip
            link = np.where(forward, 2 * plus_cable, 2 * minus_cable + 1)
            columns.append(np.where(moving, link, -1))
            next_position = np.where(forward, position_now + 1, position_now - 1) % k
            current = np.where(moving, current - position_now * strides[i] + next_position * strides[i], current)
    columns.append(2 * traffic.destination + 1)
    return np.column_stack(columns)


# Routing ------------------------------------------------------------------------------------

def direct_route(network, traffic, routing="minimal", *, seed=0):
    """Route every flow of ``traffic`` over a direct network.

    Parameters
    ----------
    network : DirectNetwork
    traffic : Traffic
    routing : str
        A name in :data:`DIRECT_ROUTINGS` that applies to the network's family.
    seed : int
        Seed of the hashes that pick among parallel global links and
        intermediate groups.

    Returns
    -------
    interconnect_lab.fabric.routing.Routes
        ``path_links`` holds each flow's links in order (-1 for hops it skips).

    Raises
    ------
    ValueError
        For an unknown routing or one the family lacks, a host the network
        lacks, or a path through a failed link.

    Examples
    --------
    Two flows on a ring of four chips: 0 -> 2 goes the + way (a tie), 0 -> 3
    the - way.

    >>> from interconnect_lab.topology import torus
    >>> from interconnect_lab.fabric import Traffic
    >>> net = torus_network(torus((4,)), link_capacity_bytes_per_s=100.0)
    >>> routes = direct_route(net, Traffic(source=[0, 0], destination=[2, 3], size_bytes=1.0))
    >>> [[net.link_name(l) for l in row if l >= 0][1:-1] for row in routes.path_links]
    [['chip (0) -> chip (1)', 'chip (1) -> chip (2)'], ['chip (0) -> chip (3)']]
    """
    if not isinstance(network, DirectNetwork):
        raise TypeError(f"network must be a DirectNetwork (from dragonfly_network or torus_network), got "
                        f"{type(network).__name__}")
    if not isinstance(traffic, Traffic):
        raise TypeError(f"traffic must be a fabric Traffic, got {type(traffic).__name__}")
    check_choice("routing", routing, DIRECT_ROUTINGS)
    families, _ = DIRECT_ROUTINGS[routing]
    if network.family not in families:
        valid = ", ".join(repr(name) for name, (fams, _) in DIRECT_ROUTINGS.items() if network.family in fams)
        raise ValueError(f"routing {routing!r} does not apply to a {network.family}; valid routings are: {valid}")
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer)):
        raise TypeError(f"seed must be an integer, got {seed!r}")
    network.check_hosts("source", traffic.source)
    network.check_hosts("destination", traffic.destination)
    if network.family == "dragonfly":
        paths = _dragonfly_paths(network, traffic, routing, seed)
    else:
        paths = _torus_paths(network, traffic)
    # Drop the -1 columns a path skips, keeping the order of its links.
    order = np.argsort(paths < 0, axis=1, kind="stable")
    paths = np.take_along_axis(paths, order, axis=1)
    paths = paths[:, : max(int((paths >= 0).sum(axis=1).max(initial=0)), 1)]
    mask = paths >= 0
    dead = np.zeros(traffic.flow_count, dtype=bool)
    dead[np.nonzero(mask)[0][network.capacity_bytes_per_s[paths[mask]] == 0]] = True
    if np.any(dead):
        flow = int(np.flatnonzero(dead)[0])
        raise ValueError(f"flow {flow} (host {int(traffic.source[flow])} -> host {int(traffic.destination[flow])}) "
                         f"crosses a failed link on its {routing} route; {network.failed_links.size} links have failed")
    counts = mask.sum(axis=1)
    indptr = np.concatenate(([0], np.cumsum(counts)))
    incidence = sp.csr_matrix((np.ones(int(indptr[-1])), paths[mask], indptr),
                              shape=(traffic.flow_count, network.link_count))
    return Routes(network=network, traffic=traffic, routing=routing, incidence=incidence,
                  resource_capacity_bytes_per_s=network.capacity_bytes_per_s, resource_links=None,
                  path_links=paths, paths_per_flow=np.ones(traffic.flow_count, dtype=np.int64))


def simulate_direct(network, traffic, routing="minimal", *, seed=0, time_tolerance=1e-9):
    """Route ``traffic`` over a direct network and run every flow to completion.

    Parameters
    ----------
    network : DirectNetwork
    traffic : Traffic
    routing : str
        A name in :data:`DIRECT_ROUTINGS`.
    seed : int
        See :func:`direct_route`.
    time_tolerance : float
        See :class:`~interconnect_lab.fabric.simulation.FlowSimulation`.

    Returns
    -------
    interconnect_lab.fabric.simulation.FlowResult

    Examples
    --------
    Two 100-byte flows share the link from chip 0 to chip 1 (100 B/s): both
    finish at 2 s.

    >>> from interconnect_lab.topology import torus
    >>> from interconnect_lab.fabric import Traffic
    >>> net = torus_network(torus((4,)), link_capacity_bytes_per_s=100.0)
    >>> simulate_direct(net, Traffic(source=[0, 0], destination=[1, 2], size_bytes=100.0)).completion_times_s.tolist()
    [2.0, 2.0]
    """
    return simulate_routes(direct_route(network, traffic, routing, seed=seed), time_tolerance=time_tolerance)
