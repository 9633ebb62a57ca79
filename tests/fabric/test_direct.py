"""Dragonflies and tori in the flow simulator: hand-worked tiny cases, conservation at scale, bad input.

Hostile input is at the end (and fuzzed with tests/fuzzing.py where noted).
"""

import time

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from fuzzing import Case, choice, count, make_tests, mixed, optional, positive

from interconnect_lab import fabric, topology
from interconnect_lab.fabric import (
    DirectNetwork, Network, Traffic, direct_route, dragonfly_network, fair_rates, permutation, simulate,
    simulate_direct, torus_network,
)
from interconnect_lab.topology import dragonfly, fat_tree, torus


def names(net, routes):
    return [[net.link_name(link) for link in row if link >= 0] for row in routes.path_links]


@pytest.fixture
def tiny_dragonfly():
    # 3 groups of 2 routers, one terminal per router, one global link per router; 100 B/s everywhere.
    return dragonfly_network(dragonfly(1, 2, 1), link_capacity_bytes_per_s=100.0)


def test_tiny_dragonfly_wiring(tiny_dragonfly):
    net = tiny_dragonfly
    assert (net.hosts, net.routers, net.link_count) == (6, 6, 2 * (6 + 3 + 3))
    # Absolute arrangement: group i's port ((j - i - 1) mod 3) leads to group j.
    assert [net.link_name(link) for link in net.links_of_kind("global")[::2]] == [
        "router 0 (group 0) -> router 3 (group 1)",
        "router 1 (group 0) -> router 4 (group 2)",
        "router 2 (group 1) -> router 5 (group 2)",
    ]
    assert np.all(net.reverse_link(net.reverse_link(np.arange(net.link_count))) == np.arange(net.link_count))


def test_tiny_dragonfly_minimal_and_valiant_paths(tiny_dragonfly):
    net = tiny_dragonfly
    flows = Traffic(source=[0, 1], destination=[5, 4], size_bytes=100.0)
    minimal = direct_route(net, flows, "minimal")
    assert names(net, minimal) == [
        ["host 0 -> router 0 (group 0)", "router 0 (group 0) -> router 1 (group 0)",
         "router 1 (group 0) -> router 4 (group 2)", "router 4 (group 2) -> router 5 (group 2)",
         "router 5 (group 2) -> host 5"],
        ["host 1 -> router 1 (group 0)", "router 1 (group 0) -> router 4 (group 2)",
         "router 4 (group 2) -> host 4"],
    ]
    # Both cross the one global link 0 -> 2 (100 B/s): 50 B/s each, both done at 2 s.
    assert simulate_direct(net, flows, "minimal").completion_times_s.tolist() == [2.0, 2.0]
    # Valiant: with 3 groups the only intermediate group is group 1.
    valiant = direct_route(net, flows, "valiant")
    assert names(net, valiant)[0] == [
        "host 0 -> router 0 (group 0)", "router 0 (group 0) -> router 3 (group 1)",
        "router 3 (group 1) -> router 2 (group 1)", "router 2 (group 1) -> router 5 (group 2)",
        "router 5 (group 2) -> host 5"]
    # Flow 1 leaves by router 1's link to group 2? No: it must reach group 1 first, via router 0.
    assert names(net, valiant)[1][1:3] == ["router 1 (group 0) -> router 0 (group 0)",
                                           "router 0 (group 0) -> router 3 (group 1)"]


def test_ring_of_four_by_hand():
    net = torus_network(torus((4,)), link_capacity_bytes_per_s=100.0)
    flows = Traffic(source=[0, 1, 0], destination=[2, 2, 3], size_bytes=100.0)
    routes = direct_route(net, flows)
    assert names(net, routes) == [
        ["host 0 -> chip (0)", "chip (0) -> chip (1)", "chip (1) -> chip (2)", "chip (2) -> host 2"],
        ["host 1 -> chip (1)", "chip (1) -> chip (2)", "chip (2) -> host 2"],
        ["host 0 -> chip (0)", "chip (0) -> chip (3)", "chip (3) -> host 3"],
    ]
    # Flows 0 and 1 share chip 1 -> chip 2 (100 B/s) and host link 2 (200 B/s): 50 B/s each, 2 s.
    # Flow 2 runs alone at 100 B/s: 1 s.
    assert simulate_direct(net, flows).completion_times_s.tolist() == [2.0, 2.0, 1.0]


def test_torus_dimension_order():
    net = torus_network(torus((3, 5)), link_capacity_bytes_per_s=1.0)
    # Chip (0, 0) -> chip (2, 3): dimension 0 the - way (one hop), then dimension 1 the - way (two hops).
    routes = direct_route(net, Traffic(source=[0], destination=[2 * 5 + 3], size_bytes=1.0))
    assert names(net, routes)[0][1:-1] == ["chip (0, 0) -> chip (2, 0)", "chip (2, 0) -> chip (2, 4)",
                                           "chip (2, 4) -> chip (2, 3)"]


@pytest.mark.parametrize("routing", ["minimal", "valiant"])
def test_dragonfly_conservation(routing):
    d = dragonfly(4, 8, 4, port_bytes_per_s=1e9)
    net = dragonfly_network(d)
    traffic = permutation(d.hosts, 1e6, seed=3)
    result = simulate_direct(net, traffic, routing, seed=5)
    hops = (result.routes.path_links >= 0).sum(axis=1)
    # Every byte of every flow crosses every link of its path once.
    assert result.link_bytes.sum() == pytest.approx((traffic.size_bytes * hops).sum())
    assert np.all(np.isfinite(result.completion_times_s))
    assert result.completion_time_s >= 1e6 / 1e9
    router_hops = hops - 2
    assert router_hops.max() <= (3 if routing == "minimal" else 5)
    assert np.all(result.link_utilization <= 1 + 1e-9)
    rates = result.initial_rates_bytes_per_s
    load = result.routes.link_load(rates)
    assert np.all(load <= net.capacity_bytes_per_s * (1 + 1e-9))


def test_torus_hops_are_torus_distances():
    t = torus((6, 4, 5), port_bytes_per_s=1.0)
    net = torus_network(t)
    traffic = permutation(t.chips, 1.0, seed=2)
    routes = direct_route(net, traffic)
    s = np.array(np.unravel_index(traffic.source, t.dimensions))
    d = np.array(np.unravel_index(traffic.destination, t.dimensions))
    k = np.array(t.dimensions)[:, None]
    distance = np.minimum((d - s) % k, (s - d) % k).sum(axis=0)
    assert np.array_equal((routes.path_links >= 0).sum(axis=1) - 2, distance)
    result = simulate_direct(net, traffic)
    assert result.link_bytes.sum() == pytest.approx(traffic.size_bytes @ (distance + 2))


@settings(max_examples=25, deadline=None)
@given(p=st.integers(1, 3), a=st.integers(2, 5), h=st.integers(1, 3), seed=st.integers(0, 1000), data=st.data())
def test_dragonfly_paths_are_walks(p, a, h, seed, data):
    g = data.draw(st.integers(2, a * h + 1))
    net = dragonfly_network(dragonfly(p, a, h, g), link_capacity_bytes_per_s=1.0)
    if net.hosts < 2:
        return
    traffic = permutation(net.hosts, 1.0, seed=seed)
    for routing in ("minimal", "valiant"):
        rows = direct_route(net, traffic, routing, seed=seed).path_links
        for flow, row in enumerate(rows):
            links = row[row >= 0]
            tail, head = net.link_ends(links)
            assert tail[0] == traffic.source[flow] and head[-1] == traffic.destination[flow]
            assert np.array_equal(head[:-1], tail[1:])


def test_beside_the_fat_tree():
    # The same permutation on a 1,056-host dragonfly and a 1,056-host fat tree, 1 B/s links.
    d = dragonfly(4, 8, 4, port_bytes_per_s=1.0)
    traffic = permutation(d.hosts, 1.0, seed=1)
    fly = simulate_direct(dragonfly_network(d), traffic, "minimal")
    tree = simulate(Network(fat_tree(d.hosts, radix=64), nic_capacity_bytes_per_s=1.0), traffic, "adaptive")
    # A non-blocking fat tree with adaptive placement runs a permutation near line rate;
    # the dragonfly's single global link per group pair becomes the bottleneck.
    assert tree.completion_time_s < fly.completion_time_s
    assert fair_rates(Network(fat_tree(16, radix=8), nic_capacity_bytes_per_s=1.0),
                      permutation(16, 1.0, seed=0), "spray").rates_bytes_per_s.min() == pytest.approx(1.0)


def test_bad_input():
    fly = dragonfly_network(dragonfly(1, 2, 1), link_capacity_bytes_per_s=1.0)
    ring = torus_network(torus((4,)), link_capacity_bytes_per_s=1.0)
    flows = Traffic(source=[0], destination=[1], size_bytes=1.0)
    with pytest.raises(ValueError, match="routing 'valiant' does not apply to a torus"):
        direct_route(ring, flows, "valiant")
    with pytest.raises(ValueError, match="unknown routing 'ugal'"):
        direct_route(fly, flows, "ugal")
    with pytest.raises(ValueError, match="destination = 9 is not a host"):
        direct_route(ring, Traffic(source=[0], destination=[9], size_bytes=1.0))
    with pytest.raises(ValueError, match="ring of length 2"):
        torus_network(torus((2, 4)), link_capacity_bytes_per_s=1.0)
    with pytest.raises(ValueError, match="link_capacity_bytes_per_s is needed"):
        torus_network(torus((4,)))
    with pytest.raises(TypeError, match="Dragonfly"):
        dragonfly_network(torus((4,)))
    with pytest.raises(TypeError, match="DirectNetwork"):
        direct_route(Network(fat_tree(8, radix=4), nic_capacity_bytes_per_s=1.0), flows)
    with pytest.raises(TypeError, match="seed must be an integer"):
        direct_route(ring, flows, seed=1.5)
    broken = ring.with_failed_links(ring.links_of_kind("torus")[0])
    assert broken.failed_links.size == 2
    with pytest.raises(ValueError, match="crosses a failed link"):
        direct_route(broken, flows)
    assert isinstance(broken, DirectNetwork)


# Hostile input: fuzzed with tests/fuzzing.py -----------------------------------------------------

def simulate_on_direct(network_shape, routing, size_bytes, capacity_bytes_per_s, seed):
    """A permutation over a small dragonfly or torus, routed and run to completion."""
    family, shape = network_shape
    if family == "dragonfly":
        network = fabric.dragonfly_network(topology.dragonfly(*shape), link_capacity_bytes_per_s=capacity_bytes_per_s)
    else:
        network = fabric.torus_network(topology.torus(shape), link_capacity_bytes_per_s=capacity_bytes_per_s)
    return fabric.simulate_direct(network, fabric.permutation(network.hosts, size_bytes, seed=seed), routing,
                                  seed=seed)


def direct_within_capacity(result, kwargs):
    assert np.all(np.isfinite(result.completion_times_s)) and result.completion_time_s > 0
    assert np.all(result.link_utilization <= 1 + 1e-9)


def rarely(usual, large):
    """``usual`` nine times in ten, else ``large`` (a large network takes a few tenths of a second)."""
    return st.integers(0, 9).flatmap(lambda k: large if k == 0 else usual)


dragonfly_shape = st.tuples(st.integers(1, 3), st.integers(1, 4), st.integers(1, 3))

torus_shape = st.lists(st.integers(3, 6), min_size=1, max_size=3).map(tuple)

FUZZ_CASES = [
    Case(fabric.dragonfly_network, dict(
        topology=mixed(rarely(st.builds(topology.dragonfly, *[st.integers(1, 4)] * 3),
                              st.builds(topology.dragonfly, *[st.integers(1, 64)] * 3))),
        nic_capacity_bytes_per_s=optional(positive(1e-35, 1e23)),
        link_capacity_bytes_per_s=optional(positive(1e-35, 1e23))), examples=0.5),
    Case(fabric.torus_network, dict(topology=mixed(rarely(st.builds(topology.torus, torus_shape),
                                                          st.builds(topology.torus, st.lists(
                                                              st.integers(3, 300), min_size=1, max_size=3)))),
                                    link_capacity_bytes_per_s=optional(positive(1e-35, 1e23))), examples=0.5),
    Case(fabric.direct_route, dict(
        network=st.one_of(st.builds(lambda shape: fabric.dragonfly_network(
            topology.dragonfly(*shape), link_capacity_bytes_per_s=1e9), dragonfly_shape),
            st.builds(lambda shape: fabric.torus_network(topology.torus(shape), link_capacity_bytes_per_s=1e9),
                      torus_shape)),
        traffic=st.builds(lambda n: fabric.permutation(n, 1e6, seed=n), st.integers(2, 6)),
        routing=choice(tuple(fabric.DIRECT_ROUTINGS)), seed=count(0, 2 ** 40)), examples=0.5),
    Case(simulate_on_direct, dict(
        network_shape=st.one_of(st.tuples(st.just("dragonfly"), dragonfly_shape),
                                st.tuples(st.just("torus"), torus_shape)), routing=choice(tuple(fabric.DIRECT_ROUTINGS)),
        size_bytes=positive(1e-35, 1e35), capacity_bytes_per_s=positive(1e-35, 1e23), seed=count(0, 100)),
         check=direct_within_capacity, examples=0.5, name="fabric.simulate_direct (small dragonfly or torus)"),
]


# Hostile input -----------------------------------------------------------------------------------

@pytest.mark.usefixtures("warnings_are_errors")
@pytest.mark.parametrize("build", [
    # 16.8 million hosts: minutes of allocation before
    lambda f: f.dragonfly_network(topology.dragonfly(64, 64, 64), link_capacity_bytes_per_s=1e9),
    lambda f: f.torus_network(topology.torus((128, 128, 128)), link_capacity_bytes_per_s=1e9),
])
def test_direct_networks_have_a_documented_size_limit(build):
    from interconnect_lab import fabric
    started = time.process_time()
    with pytest.raises(ValueError, match=r"directed links: the simulator's direct networks must have at most "
                                         r"MAX_DIRECT_LINKS = 2097152"):
        build(fabric)
    assert time.process_time() - started < 0.1


@pytest.mark.usefixtures("warnings_are_errors")
def test_the_fat_tree_and_the_direct_networks_share_one_link_limit():
    from interconnect_lab import fabric
    assert fabric.direct.MAX_DIRECT_LINKS is fabric.network.MAX_LINKS
    big = fabric.Network(topology.fat_tree(65_536, radix=64, tiers=3), nic_capacity_bytes_per_s=50e9)
    assert big.link_count == 393_216   # the book's largest still builds

test_fuzz, test_fuzz_nightly = make_tests(FUZZ_CASES)

#: Public functions fuzzed through a wrapper that builds their arguments.
FUZZ_WRAPPED = {fabric.simulate_direct: simulate_on_direct}
