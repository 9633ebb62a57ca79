"""Tests of ``interconnect_lab.fabric.routing``: routing: which of the equal-cost paths each flow's
bytes take.

Hostile input is at the end (and fuzzed with tests/fuzzing.py where noted).
"""

import numpy as np
import pytest
import scipy.sparse
from hypothesis import strategies as st

from fuzzing import Case, choice, make_tests, mixed

from interconnect_lab import fabric, topology
from interconnect_lab.fabric import (
    ROUTINGS, Network, Traffic, all_to_all, explicit_routes, permutation, route, routing as r,
)
from interconnect_lab.topology import fat_tree


def test_routing_table_lists_and_dispatches():
    assert list(ROUTINGS) == ["ecmp", "spray", "adaptive"]
    assert all(callable(function) and text for function, text in ROUTINGS.values())


def test_hash_is_uniform_over_paths():
    net = Network(fat_tree(16, radix=4, tiers=3), nic_capacity_bytes_per_s=1.0)
    traffic = Traffic(source=np.zeros(4000, int), destination=np.full(4000, 15), size_bytes=1.0)
    links = route(net, traffic, "ecmp", seed=0).path_links
    _, counts = np.unique(links[:, [1, 2]], axis=0, return_counts=True)
    assert counts.size == 4 and counts.min() > 900  # 1000 expected on each of the 4 paths


def one_at_a_time(network, traffic, seed):
    """The adaptive routing as first written: flows placed one by one in a Python loop."""
    seed = r.seed_value(seed)
    capacity = network.capacity_bytes_per_s
    with np.errstate(divide="ignore"):
        inverse = np.where(capacity > 0, 1.0 / capacity, np.inf)
    placed = np.zeros(network.link_count)  # flows placed on each link so far
    a_count, c_count = network.leaf_up_ports, max(network.spine_up_ports, 1)
    level = network.path_level(traffic.source, traffic.destination)
    order = np.random.default_rng(seed).permutation(traffic.flow_count)
    rotation = (r._flow_hash(seed, traffic, 7) % np.uint64(a_count * c_count)).astype(np.int64)
    leaf_port = np.zeros(traffic.flow_count, dtype=np.int64)
    spine_port = np.zeros(traffic.flow_count, dtype=np.int64)
    # The links of candidate (a, c) are base links plus offsets that depend only on (a, c).
    grid_a, grid_c = np.divmod(np.arange(a_count * c_count), c_count)
    ports = np.arange(a_count)
    leaf = network.leaf_of_host
    pod = leaf // network.leaves_per_pod
    offsets = network._offsets
    if network.tiers == 3:
        spine_offset = (grid_a // network._leaf_parallel) * network.spine_up_ports + grid_c
        per_pod = network.spines_per_pod * network.spine_up_ports
    # The inverse of the fair share a new flow would see on each link, (flows + 1) / capacity, kept up
    # to date as flows are placed, so each flow only gathers and compares.
    inverse_share = inverse.copy()
    for flow in order.tolist():
        n = level[flow]
        if n == 0:
            continue
        source, destination = traffic.source[flow], traffic.destination[flow]
        up = offsets[2] + leaf[source] * a_count + ports
        down = offsets[3] + leaf[destination] * a_count + ports
        cost = np.maximum(inverse_share[up], inverse_share[down])
        if n == 2:
            up2 = offsets[4] + pod[source] * per_pod + spine_offset
            down2 = offsets[5] + pod[destination] * per_pod + spine_offset
            cost = np.maximum(cost[grid_a], np.maximum(inverse_share[up2], inverse_share[down2]))
        lowest = cost.min()
        if not np.isfinite(lowest):
            raise r._disconnected(network, int(source), int(destination))
        # Among the least-loaded paths, the first at or after this flow's rotation point.
        ties = np.flatnonzero(cost == lowest)
        shift = rotation[flow] % cost.size
        after = ties[ties >= shift]
        best = int(after[0] if after.size else ties[0])
        a, c = (best, 0) if n == 1 else divmod(best, c_count)
        leaf_port[flow], spine_port[flow] = a, c
        chosen = [up[a], down[a], traffic.source[flow], network.hosts + traffic.destination[flow]]
        if n == 2:
            chosen += [up2[best], down2[best]]
        placed[chosen] += 1
        inverse_share[chosen] = (placed[chosen] + 1) * inverse[chosen]
    links = network.path_links(traffic.source, traffic.destination, leaf_port, spine_port)
    return r._finish_single_path(network, traffic, "adaptive", links)


def _networks():
    for hosts, radix, tiers in [(8, 4, 2), (16, 4, 3), (64, 8, 3), (128, 8, 3), (128, 16, 2), (1024, 16, 3)]:
        net = Network(fat_tree(hosts, radix=radix, tiers=tiers), nic_capacity_bytes_per_s=50e9)
        yield f"{hosts} hosts, radix {radix}, {tiers} tiers", net
        rng = np.random.default_rng(hosts)
        if hosts >= 64:
            ups = net.links_of_kind("leaf up")
            yield f"{hosts} hosts, three failed leaf up-links", net.with_failed_links(rng.choice(ups, 3, replace=False))
            yield f"{hosts} hosts, degraded links", net.with_degraded_links(rng.choice(ups, 5, replace=False), 0.3)


@pytest.mark.parametrize(("name", "network"), list(_networks()), ids=[name for name, _ in _networks()])
@pytest.mark.parametrize("seed", [0, 1, 7])
def test_waves_match_one_at_a_time(name, network, seed):
    for traffic in (permutation(network.hosts, 1e6, seed=seed),
                    all_to_all(min(network.hosts, 32), 1e6)):
        try:
            expected = one_at_a_time(network, traffic, seed).path_links
        except ValueError as error:
            with pytest.raises(ValueError, match=str(error).split(" survives")[0]):
                r._adaptive(network, traffic, seed)
            continue
        assert np.array_equal(r._adaptive(network, traffic, seed).path_links, expected)


def test_a_cut_off_leaf_is_the_same_error():
    network = Network(fat_tree(64, radix=8, tiers=3), nic_capacity_bytes_per_s=50e9)
    cut = network.with_failed_links([network.leaf_link(0, port) for port in range(network.leaf_up_ports)])
    traffic = permutation(cut.hosts, 1e6, seed=2)
    with pytest.raises(ValueError) as expected:
        one_at_a_time(cut, traffic, 2)
    with pytest.raises(ValueError) as got:
        r._adaptive(cut, traffic, 2)
    assert str(got.value) == str(expected.value)


@pytest.fixture
def leaf_spine():
    """8 hosts on 4 leaves of 2, two spines; 100 B/s everywhere."""
    return Network(fat_tree(8, radix=4, tiers=2), nic_capacity_bytes_per_s=100.0)


def test_a_path_through_a_failed_link_is_refused(leaf_spine):
    failed = leaf_spine.with_failed_links(leaf_spine.leaf_link(0, 0))
    traffic = Traffic(source=[0], destination=[2], size_bytes=1.0)
    with pytest.raises(ValueError, match=r"paths\[0\] crosses link 16 \(leaf 0 -> spine 0\), which has failed"):
        explicit_routes(failed, traffic, [leaf_spine.paths(0, 2)[0]])
    with pytest.raises(ValueError, match="does not lead from host 0 to host 2"):
        explicit_routes(leaf_spine, traffic, [leaf_spine.paths(0, 4)[0]])


# Hostile input: fuzzed with tests/fuzzing.py -----------------------------------------------------

ROUTING_NAMES = tuple(fabric.ROUTINGS)

#: The messages routing gives for hosts that failed links have cut apart: a clear error of its own.
DISCONNECTED = (r"^no path from host \d+ to host \d+ survives the failed links",)


def rarely(usual, unusual, odds=10):
    """``usual`` most of the time; one draw in ``odds``, ``unusual``."""
    return st.integers(0, odds - 1).flatmap(lambda k: unusual if k == 0 else usual)


#: Values that build the networks and traffic given to the other functions (never hostile).
ordinary_sizes = st.floats(0, 10).map(lambda e: float(10.0 ** e))

seeds = mixed(st.integers(0, 2 ** 40))


@st.composite
def trees(draw, large=False):
    """A small fat tree of 1, 2 or 3 tiers (rarely a large or absurd one), perhaps rail-optimized."""
    if large:
        hosts, radix, tiers = draw(st.sampled_from([(65_536, 64, 3), (300_000, 128, 3), (400_000, 128, 3),
                                                    (2 ** 40, 2 ** 14, 3), (2 ** 46, 2 ** 16, 3)]))
        return topology.fat_tree(hosts, radix=radix, tiers=tiers)
    radix = draw(st.sampled_from([4, 8, 16]))
    tiers = draw(st.sampled_from([1, 2, 2, 3, 3]))
    rails = draw(st.sampled_from([1, 1, 1, 2]))
    most = min(topology.max_hosts(radix, tiers, rails=rails), 96)
    hosts = draw(st.integers(2, most))
    return topology.fat_tree(hosts, radix=radix, tiers=tiers, rails=rails)


ordinary_capacity = st.floats(0, 12).map(lambda e: float(10.0 ** e))

corner_capacity = st.sampled_from([1e-30, 1e18, 1e-3, 1e15])


@st.composite
def networks(draw):
    """A network over a small tree: ordinary capacities (rarely the corners of their range),
    perhaps with a few links failed or degraded."""
    tree = draw(trees())
    nic = draw(rarely(ordinary_capacity, corner_capacity))
    link = draw(st.one_of(st.none(), rarely(ordinary_capacity, corner_capacity)))
    network = fabric.Network(tree, nic_capacity_bytes_per_s=nic, link_capacity_bytes_per_s=link)
    if network.tiers == 1:
        return network
    change = draw(st.sampled_from(["intact", "intact", "failed", "degraded"]))
    if change == "intact":
        return network
    links = network.random_links(draw(st.integers(1, min(3, network.leaves * network.leaf_up_ports))),
                                 seed=draw(st.integers(0, 1000)))
    if change == "failed":
        return network.with_failed_links(links)
    smallest = float(network.capacity_bytes_per_s[links].min())
    return network.with_degraded_links(links, draw(st.floats(max(0.01, 1e-30 / smallest), 1.0)))


@st.composite
def traffic_on(draw, network):
    """Traffic among the network's hosts: a permutation, all-to-all, incast or ring step, perhaps with
    background flows."""
    hosts = network.hosts
    size_bytes = draw(ordinary_sizes)
    kind = draw(st.sampled_from(["permutation", "all-to-all", "incast", "ring"]))
    seed = draw(st.integers(0, 1000))
    if kind == "permutation":
        traffic = fabric.permutation(hosts, size_bytes, seed=seed)
    elif kind == "all-to-all":
        chosen = np.sort(np.random.default_rng(seed).choice(hosts, size=min(hosts, 12), replace=False))
        traffic = fabric.all_to_all(chosen, size_bytes)
    elif kind == "incast":
        receiver = draw(st.integers(0, hosts - 1))
        senders = [h for h in draw(st.lists(st.integers(0, hosts - 1), min_size=1, max_size=16)) if h != receiver]
        traffic = fabric.incast(senders or [(receiver + 1) % hosts], receiver, size_bytes)
    else:
        traffic = fabric.ring_all_reduce_traffic(hosts, size_bytes * hosts).phases[0].traffic
    if hosts >= 4 and draw(st.integers(0, 4)) == 0:
        traffic = fabric.combine(traffic, fabric.background(hosts, draw(st.floats(0.2, 1.0)), seed=seed))
    return traffic


#: (network, traffic) pairs; the cases share one draw between their ``network`` and ``traffic``.
network_and_traffic = networks().flatmap(lambda net: st.tuples(st.just(net), traffic_on(net)))


def shared_network(key):
    return st.shared(network_and_traffic, key=key).map(lambda pair: pair[0])


def shared_traffic(key):
    return st.shared(network_and_traffic, key=key).map(lambda pair: pair[1])


@st.composite
def explicit_paths(draw, pair):
    """For each flow, one of its shortest paths (sometimes a damaged one)."""
    network, traffic = pair
    paths = []
    damaged = draw(st.integers(0, 4 * traffic.flow_count))  # one flow's path, a fifth of the time
    for flow, (source, destination) in enumerate(zip(traffic.source.tolist(), traffic.destination.tolist())):
        options = network.paths(source, destination)
        path = list(options[draw(st.integers(0, len(options) - 1))].tolist())
        damage = draw(st.integers(0, 4)) if flow == damaged else None
        if damage == 0:
            path = path[::-1]
        elif damage == 1:
            path = path[:-1]
        elif damage == 2:
            path = path + [draw(st.integers(-2, network.link_count + 2))]
        elif damage == 3:
            path = [float(link) + 0.5 for link in path]
        elif damage == 4:
            path = []
        paths.append(path)
    if draw(st.integers(0, 30)) == 0:
        paths = paths[:-1]
    return paths


def routes_conserve_flows(result, kwargs):
    """Every flow leaves its source's NIC and enters its destination's, whole; no byte crosses a failed link;
    on every link a flow crosses, its shares add up to at most the whole flow."""
    network, traffic = result.network, result.traffic
    share = scipy.sparse.csr_matrix(result.flow_link_share())
    flows = np.arange(traffic.flow_count)
    assert np.allclose(share[flows, network.nic_link(traffic.source, "up")], 1.0)
    assert np.allclose(share[flows, network.nic_link(traffic.destination, "down")], 1.0)
    assert share.nnz == 0 or share.data.max() <= 1 + 1e-12
    failed = network.failed_links
    assert failed.size == 0 or share[:, failed].nnz == 0
    assert np.all(result.paths_per_flow >= 1)
    # Bytes a flow sends up from its source leaf come down to its destination leaf: per flow, the
    # shares on up-links equal those on down-links, tier by tier.
    kinds = network.link_kind(np.arange(network.link_count))
    for up, down in ((2, 3), (4, 5)):
        ups = np.asarray(share[:, kinds == up].sum(axis=1)).ravel()
        downs = np.asarray(share[:, kinds == down].sum(axis=1)).ravel()
        assert np.allclose(ups, downs)


radix = mixed(rarely(st.sampled_from([4, 8, 16, 32, 64, 128, 256]),
                     st.one_of(st.integers(1, 2 ** 40).map(lambda half: 2 * half), st.integers(2, 2 ** 40))))

FUZZ_CASES = [
    # routing
    Case(fabric.route, dict(network=mixed(shared_network("route")), traffic=mixed(shared_traffic("route")),
                            routing=choice(ROUTING_NAMES), seed=seeds),
         check=routes_conserve_flows, messages=DISCONNECTED, infinite=("size_bytes",), examples=0.5),
    Case(fabric.explicit_routes, dict(
        network=mixed(st.shared(network_and_traffic, key="explicit").map(lambda pair: pair[0])),
        traffic=mixed(st.shared(network_and_traffic, key="explicit").map(lambda pair: pair[1])),
        paths=mixed(st.shared(network_and_traffic, key="explicit").flatmap(explicit_paths))),
         check=routes_conserve_flows, infinite=("size_bytes",), examples=0.5),
]


# Hostile input -----------------------------------------------------------------------------------

@pytest.mark.usefixtures("warnings_are_errors")
def test_a_rail_optimized_tree_on_one_switch_keeps_every_host_on_it():
    # rails = 2 on a single switch put host 1 on a leaf 1 that does not exist: simulate raised an IndexError
    from interconnect_lab import fabric
    net = fabric.Network(topology.fat_tree(4, radix=8, rails=2), nic_capacity_bytes_per_s=1.0)
    assert net.tiers == 1 and net.leaf_of_host.tolist() == [0, 0, 0, 0] and net.path_count(0, 1) == 1
    for routing in fabric.ROUTINGS:   # a division by zero in each before (no up-ports to choose among)
        result = fabric.simulate(net, fabric.permutation(4, 1.0, seed=0), routing)
        assert result.completion_time_s == 1.0

test_fuzz, test_fuzz_nightly = make_tests(FUZZ_CASES)
