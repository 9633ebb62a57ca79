"""Routing: which of the equal-cost paths each flow's bytes take.

Three ways, chosen by name from :data:`ROUTINGS`:

``"ecmp"``
    Equal-cost multi-path: a hash of the flow's identity picks one shortest
    path and every byte of the flow takes it. The hash is modelled as ideal
    (uniform and independent between flows) but deterministic: SplitMix64
    of (seed, source, destination, flow number). Two flows that pick the same
    link share it even when other paths sit idle — the *collisions* that make
    ECMP lose throughput (see :mod:`interconnect_lab.fabric.collisions`).
``"spray"``
    Packet spraying, as Ultra Ethernet's transport does: every flow is split
    evenly over all its equal-cost paths, so each of the :math:`k` paths
    carries :math:`1/k` of it. Spraying is oblivious: a slow link on one path
    slows the whole flow, since an even split loads it like the others.
``"adaptive"``
    Least-loaded path choice: flows are placed one by one (in a seeded random
    order) on the path whose busiest link, counting the flows already placed,
    leaves them the largest share; ties go to the first such path in a
    per-flow rotated order. A stand-in for adaptive routing with global
    knowledge; paths stay fixed while the flow runs.

Failed links (capacity 0) are avoided by all three: ECMP and adaptive choose
among the surviving paths, spraying splits over them. A pair of hosts with no
surviving path is an error.

References
----------
C. Hopps, "Analysis of an Equal-Cost Multi-Path Algorithm", RFC 2992, 2000.
https://www.rfc-editor.org/rfc/rfc2992

T. Hoefler et al., "Ultra Ethernet's Design Principles and Architectural
Innovations", arXiv:2508.08906, 2025. https://arxiv.org/abs/2508.08906
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._lazy import lazy_module
from .._validation import check_choice
from .network import Network
from .traffic import Traffic, is_sequence

sp = lazy_module("scipy.sparse")  # imported on first use: import interconnect_lab stays fast

__all__ = ["ROUTINGS", "Routes", "route", "explicit_routes"]


@dataclass(frozen=True, eq=False)
class Routes:
    """Where each flow's bytes go, as the max-min solver needs it.

    The solver works on *resources*. For ECMP and adaptive routing a resource
    is a link. Spraying over an intact fat tree loads every up-link of a leaf
    (and every core up-link of a pod, and so on) equally, so each such group of
    links is one resource whose capacity is the group's size times its
    smallest link's capacity; this keeps a sprayed flow at six resources
    instead of thousands of paths.

    Attributes
    ----------
    network : Network
    traffic : Traffic
    routing : str
        Name in :data:`ROUTINGS`.
    incidence : scipy.sparse.csr_matrix
        Flows x resources: share of each flow's rate on each resource [-].
    resource_capacity_bytes_per_s : numpy.ndarray
        Capacity of each resource [B/s].
    resource_links : scipy.sparse.csr_matrix or None
        Resources x links: share of a resource's load each link carries [-];
        None when resources are links.
    path_links : numpy.ndarray or None
        ``(flows, 6)`` links of each flow's single path (-1 for hops a shorter
        path lacks); None for spraying.
    paths_per_flow : numpy.ndarray
        Paths each flow uses [-].
    """

    network: Network
    traffic: Traffic
    routing: str
    incidence: sp.csr_matrix
    resource_capacity_bytes_per_s: np.ndarray
    resource_links: sp.csr_matrix | None
    path_links: np.ndarray | None
    paths_per_flow: np.ndarray

    def link_load(self, rates_bytes_per_s):
        """Load on every link [B/s] when the flows run at ``rates_bytes_per_s``."""
        resource_load = self.incidence.T @ np.asarray(rates_bytes_per_s, dtype=float)
        if self.resource_links is None:
            return resource_load
        return self.resource_links.T @ resource_load

    def flow_link_share(self):
        """Flows x links: share of each flow's bytes on each link [-]."""
        if self.resource_links is None:
            return self.incidence
        return (self.incidence @ self.resource_links).tocsr()


# Hashing ---------------------------------------------------------------------

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)


def _splitmix64(x):
    x = x + _GOLDEN
    x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return x ^ (x >> np.uint64(31))


def _flow_hash(seed, traffic, salt):
    """A deterministic 64-bit hash per flow of (seed, source, destination, flow number, salt)."""
    with np.errstate(over="ignore"):
        key = _splitmix64(np.uint64(seed & 0xFFFFFFFFFFFFFFFF) + np.uint64(salt))
        x = _splitmix64(key ^ traffic.source.astype(np.uint64))
        x = _splitmix64(x ^ (traffic.destination.astype(np.uint64) << np.uint64(24)))
        x = _splitmix64(x ^ (np.arange(traffic.flow_count, dtype=np.uint64) << np.uint64(44)))
    return x


def seed_value(seed):
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer)):
        raise TypeError(f"seed must be an integer, got {seed!r}")
    if not 0 <= seed < 2 ** 63:
        raise ValueError(f"seed = {seed} is not valid: it must be in [0, 2**63)")
    return int(seed)


# Path validity -----------------------------------------------------------------

def _alive(network, links):
    safe = np.where(links >= 0, links, 0)
    return np.where(links >= 0, network.capacity_bytes_per_s[safe] > 0, True).all(axis=1)


def _valid_choices(network, source, destination):
    """Boolean (A, C) mask of surviving paths for one flow."""
    a_count, c_count = network.leaf_up_ports, max(network.spine_up_ports, 1)
    a, c = np.divmod(np.arange(a_count * c_count), c_count)
    links = network.path_links(np.full(a.size, source), np.full(a.size, destination), a, c)
    return _alive(network, links).reshape(a_count, c_count)


def _disconnected(network, source, destination):
    return ValueError(f"no path from host {source} to host {destination} survives the failed links "
                      f"({network.failed_links.size} failed)")


def _single_path_incidence(network, traffic, links):
    flows = traffic.flow_count
    mask = links >= 0
    counts = mask.sum(axis=1)
    indptr = np.concatenate(([0], np.cumsum(counts)))
    indices = links[mask]
    matrix = sp.csr_matrix((np.ones(indices.size), indices, indptr), shape=(flows, network.link_count))
    return matrix


def _check_traffic(network, traffic):
    if not isinstance(network, Network):
        raise TypeError(f"network must be a fabric Network, got {type(network).__name__}")
    if not isinstance(traffic, Traffic):
        raise TypeError(f"traffic must be a fabric Traffic, got {type(traffic).__name__}")
    network.check_hosts("source", traffic.source)
    network.check_hosts("destination", traffic.destination)


def _finish_single_path(network, traffic, routing, links):
    # A path through a zero-capacity link would leave its flow at rate zero forever.
    dead = ~_alive(network, links)
    if np.any(dead):
        flow = int(np.flatnonzero(dead)[0])
        raise _disconnected(network, int(traffic.source[flow]), int(traffic.destination[flow]))
    return Routes(network=network, traffic=traffic, routing=routing,
                  incidence=_single_path_incidence(network, traffic, links),
                  resource_capacity_bytes_per_s=network.capacity_bytes_per_s, resource_links=None,
                  path_links=links, paths_per_flow=np.ones(traffic.flow_count, dtype=np.int64))


# ECMP -------------------------------------------------------------------------------

def _ecmp(network, traffic, seed):
    seed = seed_value(seed)
    a_count, c_count = network.leaf_up_ports, max(network.spine_up_ports, 1)
    choices = a_count * c_count
    level = network.path_level(traffic.source, traffic.destination)
    pick = (_flow_hash(seed, traffic, 0) % np.uint64(choices)).astype(np.int64)
    # In-pod paths use only the leaf port a of the pair (a, c) the hash picks: still uniform.
    leaf_port, spine_port = np.divmod(pick, c_count)
    links = network.path_links(traffic.source, traffic.destination, leaf_port, spine_port)
    if network.failed_links.size:
        for attempt in range(1, 33):
            dead = np.flatnonzero(~_alive(network, links))
            if dead.size == 0:
                break
            # Re-hash the flows whose path died: uniform over all paths, keep the survivors.
            rehash = (_flow_hash(seed, traffic, attempt)[dead] % np.uint64(choices)).astype(np.int64)
            leaf_port[dead], spine_port[dead] = np.divmod(rehash, c_count)
            links[dead] = network.path_links(traffic.source[dead], traffic.destination[dead],
                                             leaf_port[dead], spine_port[dead])
        for flow in np.flatnonzero(~_alive(network, links)):
            source, destination = int(traffic.source[flow]), int(traffic.destination[flow])
            valid = _valid_choices(network, source, destination)
            if level[flow] == 1:
                valid = valid[:, :1]
            options = np.flatnonzero(valid.reshape(-1))
            if options.size == 0:
                raise _disconnected(network, source, destination)
            choice = options[int(_flow_hash(seed, traffic, 99)[flow] % np.uint64(options.size))]
            a, c = divmod(int(choice), valid.shape[1])
            leaf_port[flow], spine_port[flow] = a, c
            links[flow] = network.path_links([source], [destination], [a], [c])[0]
    return _finish_single_path(network, traffic, "ecmp", links)


# Adaptive ---------------------------------------------------------------------------

def _adaptive_waves(level, source_leaf, destination_leaf, source_pod, destination_pod, leaves, pods, order):
    """Group the flows, taken in ``order``, into waves of flows that share no candidate link.

    A flow's candidate links are the up-ports of its source leaf and the down-ports
    of its destination leaf, plus (across pods) the spine up-links of its source pod
    and the spine down-links of its destination pod. Its wave is one more than the
    latest wave of any earlier flow that shares one of those groups, so placing the
    waves one after another, each all at once, gives exactly what placing the flows
    one at a time would.
    """
    last = [0] * (2 * leaves + 2 * pods)
    wave = np.zeros(level.size, dtype=np.int64)
    for flow, n, up, down, pod_up, pod_down in zip(
            order.tolist(), level[order].tolist(), source_leaf[order].tolist(),
            (destination_leaf[order] + leaves).tolist(), (source_pod[order] + 2 * leaves).tolist(),
            (destination_pod[order] + 2 * leaves + pods).tolist()):
        if n == 0:
            continue
        if n == 1:
            w = max(last[up], last[down]) + 1
            last[up] = last[down] = w
        else:
            w = max(last[up], last[down], last[pod_up], last[pod_down]) + 1
            last[up] = last[down] = last[pod_up] = last[pod_down] = w
        wave[flow] = w
    return wave


def _adaptive(network, traffic, seed):
    seed = seed_value(seed)
    capacity = network.capacity_bytes_per_s
    with np.errstate(divide="ignore"):
        inverse = np.where(capacity > 0, 1.0 / capacity, np.inf)
    a_count, c_count = network.leaf_up_ports, max(network.spine_up_ports, 1)
    level = network.path_level(traffic.source, traffic.destination)
    order = np.random.default_rng(seed).permutation(traffic.flow_count)
    rotation = (_flow_hash(seed, traffic, 7) % np.uint64(a_count * c_count)).astype(np.int64)
    leaf = network.leaf_of_host
    pod = leaf // network.leaves_per_pod
    offsets = network._offsets
    source_leaf, destination_leaf = leaf[traffic.source], leaf[traffic.destination]
    source_pod, destination_pod = pod[traffic.source], pod[traffic.destination]
    wave = _adaptive_waves(level, source_leaf, destination_leaf, source_pod, destination_pod,
                           network.leaves, network.pods, order)
    # Tables of what a new flow would see on each link, the inverse of its fair share
    # (flows + 1) / capacity: leaf up- and down-ports by leaf, spine up- and down-ports
    # by pod and spine. A last, virtual pod serves the flows that stay in their pod:
    # free at port 0, closed elsewhere, so one search over (a, c) serves both kinds.
    spines, pods = network.spines_per_pod, network.pods
    tables, inverses, counts = [], [], []
    for block, shape in ((2, (network.leaves, a_count)), (3, (network.leaves, a_count)),
                         (4, (pods, spines, c_count)), (5, (pods, spines, c_count))):
        if block >= 4 and network.tiers != 3:
            shape = (0, a_count, c_count)
        inv = inverse[offsets[block]:offsets[block] + int(np.prod(shape))].reshape(shape)
        if block >= 4:
            virtual = np.full((1,) + shape[1:], np.inf)
            virtual[..., 0] = 0.0
            inv = np.concatenate([inv, virtual])
        tables.append(inv.copy())
        inverses.append(inv)
        counts.append(np.zeros(inv.shape))
    # Every link a path compares with the same capacity (an intact fat tree): the cost
    # order is the order of the flow counts, which are kept as small integers instead.
    real = [inv if k < 2 else inv[:-1] for k, inv in enumerate(inverses)]
    first_inverse = real[0].flat[0] if real[0].size else 1.0
    uniform = np.isfinite(first_inverse) and all(np.all(inv == first_inverse) for inv in real)
    if uniform:
        kind = np.int16 if traffic.flow_count < np.iinfo(np.int16).max else np.int32
        closed = np.iinfo(kind).max
        tables = [np.zeros(table.shape, dtype=kind) for table in tables]
        for table in tables[2:]:
            table[-1, :, 1:] = closed
    leaf_up, leaf_down, spine_up, spine_down = tables
    spine_of_port = np.arange(a_count) // network._leaf_parallel
    one_spine_per_port = spines == a_count or network.tiers != 3
    # Flows by wave, with what each one's search needs; a flow within its leaf has no choice.
    moving = np.flatnonzero(level > 0)
    by_wave = moving[np.argsort(wave[moving], kind="stable")]
    bounds = np.searchsorted(wave[by_wave], np.arange(1, int(wave.max(initial=0)) + 2)).tolist()
    across = level[by_wave] == 2
    up_leaf, down_leaf = source_leaf[by_wave], destination_leaf[by_wave]
    up_pod = np.where(across, source_pod[by_wave], pods if network.tiers == 3 else 0)
    down_pod = np.where(across, destination_pod[by_wave], pods if network.tiers == 3 else 0)
    # The rotation point in the (a, c) grid: for a flow within its pod, port (rotation mod A), spine port 0.
    shift = np.where(across, rotation[by_wave], (rotation[by_wave] % a_count) * c_count)
    columns = np.arange(a_count * c_count)
    best = np.empty(by_wave.size, dtype=np.int64)
    for first, last in zip(bounds[:-1], bounds[1:]):
        part = slice(first, last)
        ul, dl, up, dp = up_leaf[part], down_leaf[part], up_pod[part], down_pod[part]
        leaves_cost = np.maximum(leaf_up[ul], leaf_down[dl])
        if one_spine_per_port:
            cost = np.maximum(spine_up[up], spine_down[dp])
        else:
            cost = np.maximum(spine_up[up[:, None], spine_of_port], spine_down[dp[:, None], spine_of_port])
        np.maximum(cost, leaves_cost[:, :, None], out=cost)
        cost = cost.reshape(last - first, -1)
        lowest = cost.min(axis=1)
        # Among the least-loaded paths, the first at or after this flow's rotation point.
        ties = cost == lowest[:, None]
        after = ties & (columns >= shift[part, None])
        chosen = np.where(after.any(axis=1), after.argmax(axis=1), ties.argmax(axis=1))
        best[part] = chosen
        a, c = np.divmod(chosen, c_count)
        s = spine_of_port[a]
        # One flow per link within a wave: each table entry changes at most once here.
        for table, inv, count, index in ((leaf_up, inverses[0], counts[0], (ul, a)),
                                         (leaf_down, inverses[1], counts[1], (dl, a)),
                                         (spine_up, inverses[2], counts[2], (up, s, c)),
                                         (spine_down, inverses[3], counts[3], (dp, s, c))):
            if uniform:
                table[index] += 1
            else:
                count[index] += 1
                table[index] = (count[index] + 1) * inv[index]
        # The virtual pod never fills: flows within a pod leave it as it was.
        spine_up[-1, :, 0] = spine_down[-1, :, 0] = 0
        counts[2][-1] = counts[3][-1] = 0.0
    # A flow with no surviving path has an infinite cost on every candidate, whatever is placed:
    # report the first such flow in placement order, as placing one at a time would.
    dead = ~np.isfinite(_narrowest_link(inverses, up_leaf, down_leaf, up_pod, down_pod, spine_of_port, best,
                                        c_count))
    if np.any(dead):
        position = np.empty(traffic.flow_count, dtype=np.int64)
        position[order] = np.arange(traffic.flow_count)
        flow = min(by_wave[dead].tolist(), key=lambda f: position[f])
        raise _disconnected(network, int(traffic.source[flow]), int(traffic.destination[flow]))
    leaf_port = np.zeros(traffic.flow_count, dtype=np.int64)
    spine_port = np.zeros(traffic.flow_count, dtype=np.int64)
    leaf_port[by_wave], spine_port[by_wave] = np.divmod(best, c_count)
    links = network.path_links(traffic.source, traffic.destination, leaf_port, spine_port)
    return _finish_single_path(network, traffic, "adaptive", links)


def _narrowest_link(inverses, up_leaf, down_leaf, up_pod, down_pod, spine_of_port, best, c_count):
    """The inverse capacity of each chosen path's narrowest link: inf where a link has failed."""
    a, c = np.divmod(best, c_count)
    s = spine_of_port[a]
    return np.maximum.reduce([inverses[0][up_leaf, a], inverses[1][down_leaf, a],
                              inverses[2][up_pod, s, c], inverses[3][down_pod, s, c]])


# Spraying ---------------------------------------------------------------------------

def _spray(network, traffic, seed=None):
    level = network.path_level(traffic.source, traffic.destination)
    if network.failed_links.size == 0:
        return _spray_grouped(network, traffic, level)
    return _spray_explicit(network, traffic, level)


def _spray_grouped(network, traffic, level):
    """Spraying over an intact tree: one resource per group of equally loaded links."""
    hosts, leaves, pods = network.hosts, network.leaves, network.pods
    a_count, c_count = network.leaf_up_ports, network.spine_up_ports
    spines = network.spines_per_pod
    capacity = network.capacity_bytes_per_s
    leaf = network.leaf_of_host
    pod = leaf // network.leaves_per_pod
    # Resources: NIC up, NIC down, leaf-up group, leaf-down group, [pod-up group, pod-down group].
    group_sizes = [np.ones(2 * hosts, dtype=np.int64), np.full(2 * leaves, a_count)]
    links_of_groups = [network.links_of_kind("nic up"), network.links_of_kind("nic down"),
                       network.links_of_kind("leaf up"), network.links_of_kind("leaf down")]
    if network.tiers == 3:
        group_sizes.append(np.full(2 * pods, spines * c_count))
        links_of_groups += [network.links_of_kind("spine up"), network.links_of_kind("spine down")]
    sizes = np.concatenate(group_sizes)
    link_order = np.concatenate(links_of_groups)
    indptr = np.concatenate(([0], np.cumsum(sizes)))
    resource_links = sp.csr_matrix((np.repeat(1.0 / sizes, sizes), link_order, indptr),
                                   shape=(sizes.size, network.link_count))
    group_capacity = np.minimum.reduceat(capacity[link_order], indptr[:-1]) * sizes
    base_leaf = 2 * hosts
    base_pod = 2 * hosts + 2 * leaves
    flows = traffic.flow_count
    table = np.full((flows, 6), -1, dtype=np.int64)
    table[:, 0] = traffic.source
    table[:, 5] = hosts + traffic.destination
    climbs = level >= 1
    table[climbs, 1] = base_leaf + leaf[traffic.source[climbs]]
    table[climbs, 4] = base_leaf + leaves + leaf[traffic.destination[climbs]]
    top = level == 2
    table[top, 2] = base_pod + pod[traffic.source[top]]
    table[top, 3] = base_pod + pods + pod[traffic.destination[top]]
    mask = table >= 0
    incidence = sp.csr_matrix((np.ones(int(mask.sum())), table[mask],
                               np.concatenate(([0], np.cumsum(mask.sum(axis=1))))),
                              shape=(flows, sizes.size))
    paths = network.choices_per_level[level]
    return Routes(network=network, traffic=traffic, routing="spray", incidence=incidence,
                  resource_capacity_bytes_per_s=group_capacity, resource_links=resource_links,
                  path_links=None, paths_per_flow=paths)


def _spray_explicit(network, traffic, level):
    """Spraying with failed links: split each flow over its surviving paths, link by link."""
    leaf = network.leaf_of_host
    pair = leaf[traffic.source] * network.leaves + leaf[traffic.destination]
    unique_pairs, pair_index = np.unique(pair, return_inverse=True)
    pair_links, pair_weights, pair_paths = [], [], []
    for code in unique_pairs:
        ls, ld = divmod(int(code), network.leaves)
        # Any host under each leaf names the same paths between the switches.
        source = int(np.flatnonzero(leaf == ls)[0])
        destination = int(np.flatnonzero(leaf == ld)[0])
        n = int(network.path_level(source, destination))
        if n == 0:
            pair_links.append(np.zeros(0, np.int64))
            pair_weights.append(np.zeros(0))
            pair_paths.append(1)
            continue
        valid = _valid_choices(network, source, destination)
        if n == 1:
            valid = valid[:, :1]
        count = int(valid.sum())
        if count == 0:
            raise _disconnected(network, source, destination)
        a, c = np.nonzero(valid)
        links = network.path_links(np.full(a.size, source), np.full(a.size, destination), a, c)[:, 1:5]
        inner = links[links >= 0]
        weights = np.full(inner.size, 1.0 / count)
        unique_links, position = np.unique(inner, return_inverse=True)
        pair_links.append(unique_links)
        pair_weights.append(np.bincount(position, weights=weights))
        pair_paths.append(count)
    lengths = np.array([x.size for x in pair_links])[pair_index] + 2
    indptr = np.concatenate(([0], np.cumsum(lengths)))
    indices = np.empty(indptr[-1], dtype=np.int64)
    data = np.empty(indptr[-1])
    for flow in range(traffic.flow_count):
        start = indptr[flow]
        p = pair_index[flow]
        inner = pair_links[p]
        indices[start] = traffic.source[flow]
        indices[start + 1: start + 1 + inner.size] = inner
        indices[start + 1 + inner.size] = network.hosts + traffic.destination[flow]
        data[start] = 1.0
        data[start + 1: start + 1 + inner.size] = pair_weights[p]
        data[start + 1 + inner.size] = 1.0
    incidence = sp.csr_matrix((data, indices, indptr), shape=(traffic.flow_count, network.link_count))
    incidence.sort_indices()
    return Routes(network=network, traffic=traffic, routing="spray", incidence=incidence,
                  resource_capacity_bytes_per_s=network.capacity_bytes_per_s, resource_links=None,
                  path_links=None, paths_per_flow=np.array(pair_paths, dtype=np.int64)[pair_index])


#: Routing schemes by name: (function, one-line description).
ROUTINGS = {
    "ecmp": (_ecmp, "per-flow hash onto one equal-cost path"),
    "spray": (_spray, "every flow split evenly over all equal-cost paths"),
    "adaptive": (_adaptive, "each flow placed on the least-loaded equal-cost path"),
}


def route(network, traffic, routing="ecmp", *, seed=0):
    """Route every flow of ``traffic`` over ``network``.

    Parameters
    ----------
    network : Network
        The fabric.
    traffic : Traffic
        The flows.
    routing : str
        A name in :data:`ROUTINGS`: ``"ecmp"``, ``"spray"`` or ``"adaptive"``.
    seed : int
        Seed of the ECMP hash and of the adaptive placement order.

    Returns
    -------
    Routes

    Raises
    ------
    ValueError
        For an unknown routing name, a host the network lacks, or hosts that
        failed links have cut apart.

    Examples
    --------
    >>> from interconnect_lab.fabric import Network, Traffic
    >>> from interconnect_lab.topology import fat_tree
    >>> net = Network(fat_tree(8, radix=4, tiers=2), nic_capacity_bytes_per_s=100.0)
    >>> flows = Traffic(source=[0, 1], destination=[2, 3], size_bytes=1e3)
    >>> route(net, flows, "spray").paths_per_flow.tolist()
    [2, 2]
    """
    check_choice("routing", routing, ROUTINGS)
    _check_traffic(network, traffic)
    seed_value(seed)  # checked even where the routing has no randomness (spraying)
    function, _ = ROUTINGS[routing]
    if network.tiers == 1:
        # One switch leaves no choice: every flow crosses its source's NIC link up and its destination's down.
        none = np.zeros(traffic.flow_count, dtype=np.int64)
        return _finish_single_path(network, traffic, routing,
                                   network.path_links(traffic.source, traffic.destination, none, none))
    return function(network, traffic, seed)


def explicit_routes(network, traffic, paths):
    """Route each flow over a path given link by link (for hand-worked examples).

    Parameters
    ----------
    network : Network
    traffic : Traffic
    paths : sequence of sequence of int
        For each flow, its links in order from source to destination.

    Returns
    -------
    Routes

    Raises
    ------
    ValueError
        If a link does not exist or has failed, or a path does not lead from
        the flow's source to its destination one link after another.

    Examples
    --------
    >>> from interconnect_lab.fabric import Network, Traffic
    >>> from interconnect_lab.topology import fat_tree
    >>> net = Network(fat_tree(8, radix=4, tiers=2), nic_capacity_bytes_per_s=100.0)
    >>> flows = Traffic(source=[0], destination=[2], size_bytes=1e3)
    >>> explicit_routes(net, flows, [net.paths(0, 2)[0]]).path_links.tolist()
    [[0, 16, 26, 10]]
    """
    _check_traffic(network, traffic)
    if not is_sequence(paths):
        raise TypeError(f"paths must be a sequence of paths, one per flow, each a sequence of link numbers; "
                        f"got {paths!r}")
    if len(paths) != traffic.flow_count:
        raise ValueError(f"paths has {len(paths)} entries for {traffic.flow_count} flows")
    for flow, path in enumerate(paths):
        if not is_sequence(path):
            raise TypeError(f"paths[{flow}] must be a sequence of link numbers, got {path!r}")
    rows = np.full((traffic.flow_count, max((len(p) for p in paths), default=0)), -1, dtype=np.int64)
    for flow, path in enumerate(paths):
        try:
            path = np.asarray(path)
        except ValueError:  # a ragged list
            raise TypeError(f"paths[{flow}] must be a sequence of link numbers, got {path!r}") from None
        links = np.atleast_1d(network.check_links(f"paths[{flow}]", path))
        if links.size == 0:
            raise ValueError(f"paths[{flow}] is empty: a flow needs at least one link")
        dead = links[network.capacity_bytes_per_s[links] == 0]
        if dead.size:
            raise ValueError(f"paths[{flow}] crosses link {int(dead[0])} ({network.link_name(dead[0])}), "
                             "which has failed (capacity 0)")
        tail, head = network.link_ends(links)
        source, destination = int(traffic.source[flow]), int(traffic.destination[flow])
        if tail[0] != source or head[-1] != destination or np.any(head[:-1] != tail[1:]):
            names = ", ".join(network.link_name(link) for link in links)
            raise ValueError(f"paths[{flow}] ({names}) does not lead from host {source} to host {destination} "
                             "one link after another")
        rows[flow, : links.size] = links
    matrix = _single_path_incidence(network, traffic, rows)
    return Routes(network=network, traffic=traffic, routing="explicit", incidence=matrix,
                  resource_capacity_bytes_per_s=network.capacity_bytes_per_s, resource_links=None,
                  path_links=rows, paths_per_flow=np.ones(traffic.flow_count, dtype=np.int64))
