"""Dragonflies and tori in the flow simulator: hand-worked tiny cases, conservation at scale, bad input."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from interconnect_lab.fabric import (
    DirectNetwork, Network, Traffic, direct_route, dragonfly_network, fair_rates, permutation, simulate,
    simulate_direct, torus_network,
)
from interconnect_lab.topology import dragonfly, fat_tree, torus


def names(net, routes):
    return [[net.link_name(link) for link in row if link >= 0] for row in routes.path_links]


# Tiny scenarios worked out by hand ------------------------------------------------------------

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


# Conservation and bounds at scale -------------------------------------------------------------

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


# Bad input ------------------------------------------------------------------------------------

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
