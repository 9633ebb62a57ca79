"""Tests of ``interconnect_lab.fabric.simulation``: event-driven completion of sized flows under
max-min fair sharing.

Hostile input is at the end (and fuzzed with tests/fuzzing.py where noted).
"""

import math

import numpy as np
import pytest
import scipy.sparse
from hypothesis import given, settings, strategies as st

from fuzzing import Case, choice, count, fraction, make_tests, mixed, nonnegative, optional, positive

from interconnect_lab import fabric, topology
from interconnect_lab.fabric import (
    FlowSimulation, Network, Traffic, all_to_all, background, combine, explicit_routes, fair_rates,
    hierarchical_all_reduce_traffic, incast, incidence_matrix, max_min_rates, permutation, rank_placement,
    ring_all_reduce_traffic, simulate, simulate_collective, simulate_flows, simulate_routes,
)
from interconnect_lab.topology import fat_tree


@pytest.fixture
def leaf_spine():
    """8 hosts on 4 leaves of 2, two spines; 100 B/s everywhere."""
    return Network(fat_tree(8, radix=4, tiers=2), nic_capacity_bytes_per_s=100.0)


@pytest.fixture(scope="module")
def thousand_hosts():
    return Network(fat_tree(1024, radix=16, tiers=3), nic_capacity_bytes_per_s=50e9)


@st.composite
def flow_sets(draw):
    links = draw(st.integers(1, 6))
    flows = draw(st.integers(1, 10))
    paths = [sorted(draw(st.sets(st.integers(0, links - 1), min_size=1, max_size=links))) for _ in range(flows)]
    capacity = [draw(st.sampled_from([1.0, 2.0, 3.0, 5.0])) for _ in range(links)]
    sizes = [draw(st.sampled_from([1.0, 2.0, 4.0, 7.0])) for _ in range(flows)]
    return incidence_matrix(paths, links), np.array(capacity), np.array(sizes)


@st.composite
def fabric_cases(draw):
    radix = draw(st.sampled_from([4, 8]))
    tiers = draw(st.sampled_from([2, 3]))
    hosts = draw(st.integers(4, radix**tiers // (2 if tiers == 2 else 4)))
    rails = draw(st.sampled_from([1, 2])) if tiers == 2 else 1
    tree = fat_tree(hosts, radix=radix, tiers=tiers, rails=rails)
    flows = draw(st.integers(1, 24))
    source = [draw(st.integers(0, hosts - 1)) for _ in range(flows)]
    destination = [draw(st.integers(0, hosts - 2)) for _ in range(flows)]
    destination = [d if d < s else d + 1 for s, d in zip(source, destination)]
    sizes = [draw(st.sampled_from([1.0, 3.0, 10.0])) for _ in range(flows)]
    routing = draw(st.sampled_from(["ecmp", "spray", "adaptive"]))
    degraded = draw(st.booleans())
    return tree, Traffic(source=source, destination=destination, size_bytes=sizes), routing, degraded, draw(
        st.integers(0, 2**31))


def test_event_log_of_three_flows_on_one_link():
    # 1, 2 and 3 B on 3 B/s: 1 B/s each until 1 s; then 1.5 B/s until flow 1's last byte at 1 + 2/3 s;
    # then flow 2 alone at 3 B/s with 1 B left: done at 2 s.
    sim = FlowSimulation([[0], [0], [0]], [3.0], [1.0, 2.0, 3.0])
    assert sim.rates().tolist() == [1.0, 1.0, 1.0]
    assert sim.step() == (0,) and sim.now_s == 1.0
    assert sim.rates().tolist() == [0.0, 1.5, 1.5]
    assert sim.step() == (1,) and sim.now_s == pytest.approx(5 / 3, rel=1e-15)
    assert sim.step() == (2,) and sim.now_s == pytest.approx(2.0, rel=1e-15)
    assert sim.done
    with pytest.raises(RuntimeError, match="has finished"):
        sim.step()


def test_ties_finish_at_one_event():
    sim = FlowSimulation([[0], [0], [1]], [2.0, 4.0], [2.0, 2.0, 8.0])
    sim.run()
    assert sim.log == [(2.0, (0, 1, 2))]


def test_two_flows_forced_onto_one_spine(leaf_spine):
    # Hosts 0 and 1 (leaf 0) send to hosts 2 and 3 (leaf 1), both through leaf port 0: they share
    # leaf 0's up-link and spine 0's link down to leaf 1 at 50 B/s each. The 100 B flow finishes at 2 s;
    # the 200 B flow then has 100 B left at 100 B/s: 3 s.
    traffic = Traffic(source=[0, 1], destination=[2, 3], size_bytes=[100.0, 200.0])
    paths = [leaf_spine.paths(0, 2)[0], leaf_spine.paths(1, 3)[0]]
    result = simulate_routes(explicit_routes(leaf_spine, traffic, paths))
    assert result.initial_rates_bytes_per_s.tolist() == [50.0, 50.0]
    assert result.completion_times_s.tolist() == [2.0, 3.0]
    assert result.completion_time_s == 3.0
    up = leaf_spine.leaf_link(0, 0)
    assert result.link_bytes[up] == 300.0 and result.link_bytes[leaf_spine.leaf_link(0, 1)] == 0.0
    assert result.link_utilization[up] == 1.0


def test_spraying_the_same_flows_runs_both_at_line_rate(leaf_spine):
    traffic = Traffic(source=[0, 1], destination=[2, 3], size_bytes=[100.0, 200.0])
    result = simulate(leaf_spine, traffic, "spray")
    assert result.completion_times_s.tolist() == [1.0, 2.0]
    # Each leaf up-link carries half of each flow.
    assert result.link_bytes[[leaf_spine.leaf_link(0, 0), leaf_spine.leaf_link(0, 1)]].tolist() == [150.0, 150.0]


def test_spraying_over_a_degraded_link_is_limited_by_it(leaf_spine):
    # Leaf 0's port 1 trained down to 50 B/s. An even split loads both up-links alike, so the pair
    # of up-links can carry 2 x 50 B/s: the two flows get 50 B/s each.
    degraded = leaf_spine.with_degraded_links(leaf_spine.leaf_link(0, 1), 0.5)
    traffic = Traffic(source=[0, 1], destination=[2, 3], size_bytes=100.0)
    assert fair_rates(degraded, traffic, "spray").rates_bytes_per_s.tolist() == [50.0, 50.0]


def test_spraying_around_a_failed_link(leaf_spine):
    failed = leaf_spine.with_failed_links(leaf_spine.leaf_link(0, 1))
    traffic = Traffic(source=[0, 1], destination=[2, 3], size_bytes=100.0)
    routes_rates = fair_rates(failed, traffic, "spray")
    assert routes_rates.routes.paths_per_flow.tolist() == [1, 1]
    assert routes_rates.rates_bytes_per_s.tolist() == [50.0, 50.0]
    assert fair_rates(failed, traffic, "ecmp").rates_bytes_per_s.tolist() == [50.0, 50.0]


def test_incast_shares_the_receiver_nic(leaf_spine):
    result = simulate(leaf_spine, incast([2, 4, 6], 0, 100.0), "spray")
    assert result.initial_rates_bytes_per_s == pytest.approx([100 / 3] * 3, rel=1e-15)
    assert result.completion_time_s == pytest.approx(3.0, rel=1e-15)
    assert result.link_utilization[leaf_spine.nic_link(0, "down")] == pytest.approx(1.0)


def test_background_flow_takes_its_share(leaf_spine):
    # A persistent flow 1 -> 0 shares host 0's NIC with a 100 B flow 2 -> 0: 50 B/s each for 2 s.
    traffic = combine(Traffic(source=[2], destination=[0], size_bytes=100.0),
                      Traffic(source=[1], destination=[0], size_bytes=np.inf, background=True))
    result = simulate(leaf_spine, traffic, "spray")
    assert result.completion_time_s == 2.0
    assert np.isnan(result.completion_times_s[1])
    assert result.link_bytes[leaf_spine.nic_link(0, "down")] == pytest.approx(200.0)
    assert result.link_bytes[leaf_spine.nic_link(1, "up")] == pytest.approx(100.0)


def test_ring_all_reduce_time_by_hand(leaf_spine):
    # 4 ranks on hosts 0, 2, 4, 6 (one per leaf): 6 steps of 400/4 = 100 B at 100 B/s: 6 s.
    ring = ring_all_reduce_traffic([0, 2, 4, 6], 400.0)
    result = simulate_collective(leaf_spine, ring, "spray")
    assert result.time_s == pytest.approx(6.0)
    assert result.algorithm_bandwidth_bytes_per_s == pytest.approx(400 / 6)


def test_hierarchical_all_reduce_rail_aligned_versus_random():
    # Two rail groups of 2 nodes x 2 GPUs, rail-optimized: rail-aligned rings stay on one leaf
    # within a group; a scrambled rank order crosses rails and the spines.
    net = Network(fat_tree(16, radix=8, tiers=2, rails=2), nic_capacity_bytes_per_s=100.0)
    aligned = simulate_collective(net, hierarchical_all_reduce_traffic(rank_placement(16, gpus_per_node=2), 1600.0,
                                                            gpus_per_node=2), "ecmp")
    assert aligned.time_s == pytest.approx(2 * 7 * (1600 / 16) / 100.0)
    random_placement = rank_placement(16, gpus_per_node=2, placement="random", seed=3)
    scrambled = simulate_collective(net, hierarchical_all_reduce_traffic(random_placement, 1600.0, gpus_per_node=2), "ecmp")
    assert scrambled.time_s >= aligned.time_s


def test_a_flow_with_zero_rate_is_reported_not_waited_for():
    with pytest.raises(ValueError, match=r"flow 1 crosses link 1, whose capacity_bytes_per_s is 0 \(a failed link\): "
                                         "it would never finish"):
        FlowSimulation([[0], [1]], [1.0, 0.0], [1.0, 1.0])
    # A background flow may wait on a failed link: it never finishes anyway.
    sim = FlowSimulation([[0], [1]], [1.0, 0.0], [1.0, np.inf], background=[False, True])
    assert sim.run() == 1.0


def test_hosts_cut_off_by_failures_are_an_error(leaf_spine):
    failed = leaf_spine.with_failed_links([leaf_spine.leaf_link(0, 0), leaf_spine.leaf_link(0, 1)])
    for routing in ("ecmp", "spray", "adaptive"):
        with pytest.raises(ValueError, match="no path from host 0 to host 2 survives"):
            simulate(failed, Traffic(source=[0], destination=[2], size_bytes=1.0), routing)


@pytest.mark.parametrize("call, error, message", [
    (lambda n: simulate(n, Traffic(source=[0], destination=[9], size_bytes=1.0)), ValueError,
     "destination = 9 is not a host of this network"),
    (lambda n: simulate(n, Traffic(source=[0], destination=[1], size_bytes=0.0)), ValueError,
     "size_bytes = 0 B"),
    (lambda n: simulate(n, Traffic(source=[0], destination=[0], size_bytes=1.0)), ValueError, "to itself"),
    (lambda n: simulate(n, permutation(8, 1.0, seed=0), "random walk"), ValueError,
     "valid routings are: 'ecmp', 'spray', 'adaptive'"),
    (lambda n: FlowSimulation([[0]], [1.0], [np.inf]), ValueError, "size_bytes = inf B"),
    (lambda n: FlowSimulation([[0]], [1.0], [1.0], time_tolerance=0.5), ValueError, "time_tolerance = 0.5"),
    (lambda n: permutation(8, 1.0, seed=None), TypeError, "seed must be an integer"),
])
def test_bad_input(leaf_spine, call, error, message):
    with pytest.raises(error, match=message):
        call(leaf_spine)


@pytest.mark.parametrize("routing", ["ecmp", "spray", "adaptive"])
def test_conservation(thousand_hosts, routing):
    net = thousand_hosts
    spread = np.sort(np.random.default_rng(0).choice(net.hosts, 24, replace=False))
    traffic = combine(all_to_all(spread, 1e5, skew=1.0, seed=2),
                      permutation(net.hosts, 2e6, seed=5), background(net.hosts, 0.25, seed=7))
    rates = fair_rates(net, traffic, routing, seed=11)
    # No link above capacity; no flow above its NIC.
    assert np.all(rates.link_utilization <= 1 + 1e-9)
    assert np.all(rates.line_rate_fraction <= 1 + 1e-9)
    result = simulate(net, traffic, routing, seed=11)
    foreground = ~traffic.background
    # Every byte delivered: what left the NICs is what the flows carried, and what arrived too.
    nic_up, nic_down = net.links_of_kind("nic up"), net.links_of_kind("nic down")
    delivered_foreground = traffic.size_bytes[foreground].sum()
    background_bytes = result.link_bytes[nic_up].sum() - delivered_foreground
    assert background_bytes >= 0
    assert result.link_bytes[nic_down].sum() == pytest.approx(result.link_bytes[nic_up].sum(), rel=1e-12)
    # No link carried more than its capacity for the whole run.
    assert np.all(result.link_utilization <= 1 + 1e-9)
    assert np.all(result.completion_times_s[foreground] > 0)
    assert result.completion_time_s == np.nanmax(result.completion_times_s)


@pytest.mark.parametrize("routing", ["ecmp", "spray", "adaptive"])
def test_same_seed_same_answer_bit_for_bit(thousand_hosts, routing):
    traffic = permutation(thousand_hosts.hosts, 1e6, seed=4)
    first = simulate(thousand_hosts, traffic, routing, seed=9)
    second = simulate(thousand_hosts, permutation(thousand_hosts.hosts, 1e6, seed=4), routing, seed=9)
    assert first.completion_times_s.tobytes() == second.completion_times_s.tobytes()
    assert first.link_bytes.tobytes() == second.link_bytes.tobytes()
    if routing != "spray":
        other = simulate(thousand_hosts, traffic, routing, seed=10)
        assert other.completion_times_s.tobytes() != first.completion_times_s.tobytes()


@settings(max_examples=60, deadline=None)
@given(flow_sets())
def test_incremental_rates_equal_rates_from_scratch(case):
    matrix, capacity, sizes = case
    sim = FlowSimulation(matrix, capacity, sizes)
    while not sim.done:
        fresh = max_min_rates(matrix, capacity, active=sim.active).rates_bytes_per_s
        assert sim.rates() == pytest.approx(fresh, rel=1e-9, abs=1e-12)
        sim.step()
    # Every flow's bytes delivered, and the completion times match a plain re-simulation.
    assert sim.delivered_bytes == pytest.approx(sizes)
    assert simulate_flows(matrix, capacity, sizes) == pytest.approx(sim.completion_times_s)


@settings(max_examples=40, deadline=None)
@given(fabric_cases())
def test_conservation_and_max_min_on_random_fat_trees(case):
    tree, traffic, routing, degraded, seed = case
    net = Network(tree, nic_capacity_bytes_per_s=4.0, link_capacity_bytes_per_s=4.0)
    if degraded:
        net = net.with_degraded_links(net.random_links(1, "leaf up", seed=seed), 0.5)
    rates = fair_rates(net, traffic, routing, seed=seed)
    load = rates.link_load_bytes_per_s
    capacity = net.capacity_bytes_per_s
    assert np.all(load <= capacity * (1 + 1e-9))
    assert np.all(rates.rates_bytes_per_s > 0)
    # Max-min at the level of links: every flow crosses a full link on which it is among the fastest.
    share = rates.routes.flow_link_share().toarray()
    for flow in range(traffic.flow_count):
        links = np.flatnonzero(share[flow])
        full = links[load[links] >= capacity[links] * (1 - 1e-9)]
        assert any(rates.rates_bytes_per_s[share[:, link] > 0].max() <= rates.rates_bytes_per_s[flow] * (1 + 1e-9)
                   for link in full)
    result = simulate(net, traffic, routing, seed=seed)
    # Every byte delivered, over every hop of its path.
    assert result.link_bytes.sum() == pytest.approx((share.sum(axis=1) * traffic.size_bytes).sum())
    assert np.all(result.link_utilization <= 1 + 1e-9)


def test_path_latency_by_hand_on_a_two_tier_tree():
    # 8 hosts, radix-4 switches: 2 hosts per leaf. Under one leaf a flow crosses 1 switch
    # and 2 cables; between leaves 3 switches and 4 cables.
    net = Network(fat_tree(8, radix=4, tiers=2), nic_capacity_bytes_per_s=100.0)
    result = simulate(net, permutation(8, 100.0, seed=0), "spray")
    latency = result.path_latency_s(switch_latency_s=0.5, link_latency_s=0.1)
    same_leaf = net.leaf_of_host[result.routes.traffic.source] == net.leaf_of_host[result.routes.traffic.destination]
    assert np.allclose(latency[same_leaf], 0.5 + 2 * 0.1)
    assert np.allclose(latency[~same_leaf], 3 * 0.5 + 4 * 0.1)
    assert np.allclose(result.completion_times_with_latency_s(switch_latency_s=0.5, link_latency_s=0.1),
                       result.completion_times_s + latency)


def test_latency_matters_only_for_flows_near_the_bandwidth_delay_product():
    # 5 switches of 600 ns and 6 cables of 25 ns: about 3.2 us. A 4 kB flow at 50 GB/s takes
    # 82 ns on the wire, so the path is most of its time; for 1 GB (20 ms) it is noise.
    net = Network(fat_tree(128, radix=8, tiers=3), nic_capacity_bytes_per_s=50e9)

    def largest_share(size):
        result = simulate(net, permutation(128, size, seed=1), "spray")
        added = result.completion_times_with_latency_s(switch_latency_s=600e-9, link_latency_s=25e-9)
        return float(np.max((added - result.completion_times_s) / added))

    assert largest_share(4e3) > 0.9
    assert largest_share(1e9) < 1e-3


def test_bad_latency_is_refused():
    net = Network(fat_tree(8, radix=4, tiers=2), nic_capacity_bytes_per_s=100.0)
    result = simulate(net, permutation(8, 100.0, seed=0), "spray")
    with pytest.raises(ValueError, match="switch_latency_s"):
        result.path_latency_s(switch_latency_s=-1.0)


SEEDS = range(12)


@pytest.fixture(scope="module", params=[(512, 32, 2), (1024, 16, 3)], ids=["2-tier 512", "3-tier 1024"])
def non_blocking(request):
    hosts, radix, tiers = request.param
    return Network(fat_tree(hosts, radix=radix, tiers=tiers), nic_capacity_bytes_per_s=1.0)


def test_spraying_reaches_line_rate_on_a_permutation(non_blocking):
    for seed in SEEDS:
        fraction = fair_rates(non_blocking, permutation(non_blocking.hosts, 1.0, seed=seed), "spray").line_rate_fraction
        assert fraction.min() >= 0.99


def test_adaptive_beats_ecmp_on_a_permutation(non_blocking):
    traffic = permutation(non_blocking.hosts, 1.0, seed=3)
    ecmp = fair_rates(non_blocking, traffic, "ecmp", seed=3).line_rate_fraction.mean()
    adaptive = fair_rates(non_blocking, traffic, "adaptive", seed=3).line_rate_fraction.mean()
    assert adaptive > ecmp + 0.1


# Hostile input: fuzzed with tests/fuzzing.py -----------------------------------------------------

ROUTING_NAMES = tuple(fabric.ROUTINGS)

#: The messages routing gives for hosts that failed links have cut apart: a clear error of its own.
DISCONNECTED = (r"^no path from host \d+ to host \d+ survives the failed links",)


def rarely(usual, unusual, odds=10):
    """``usual`` most of the time; one draw in ``odds``, ``unusual``."""
    return st.integers(0, odds - 1).flatmap(lambda k: unusual if k == 0 else usual)


#: Values that build the networks and traffic given to the other functions (never hostile).
ordinary_sizes = st.floats(0, 10).map(lambda e: float(10.0 ** e))

extreme_sizes = st.floats(-30, 30).map(lambda e: float(10.0 ** e))

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
def routes(draw):
    """Routes of traffic over a network, by a drawn routing (failed links can leave none)."""
    network, traffic = draw(network_and_traffic)
    try:
        return fabric.route(network, traffic, draw(st.sampled_from(ROUTING_NAMES)), seed=draw(st.integers(0, 100)))
    except ValueError:  # failed links cut a pair apart: route the traffic over the intact tree
        return fabric.route(fabric.Network(network.tree, nic_capacity_bytes_per_s=network.nic_capacity_bytes_per_s,
                                           link_capacity_bytes_per_s=network.link_capacity_bytes_per_s),
                            traffic, "ecmp")


@st.composite
def collectives_on(draw, network):
    """A ring or hierarchical all-reduce over the network's hosts; servers of 1 to all of them,
    so that some collectives never leave a server."""
    hosts = network.hosts
    message = draw(rarely(ordinary_sizes, st.floats(-27, 30).map(lambda e: float(10.0 ** e))))  # >= 1e-30 B a flow
    per_node = draw(st.sampled_from([1, 2, 4, hosts]))
    ranks = hosts - hosts % per_node
    if ranks < 2:
        per_node, ranks = 1, hosts
    placement = draw(st.sampled_from(fabric.PLACEMENTS))
    order = fabric.rank_placement(ranks, gpus_per_node=per_node, placement=placement, seed=draw(st.integers(0, 99)))
    if draw(st.booleans()) or ranks // per_node < 2:
        return fabric.ring_all_reduce_traffic(order, message, gpus_per_node=per_node)
    return fabric.hierarchical_all_reduce_traffic(order, message, gpus_per_node=per_node)


network_and_collective = networks().flatmap(lambda net: st.tuples(st.just(net), collectives_on(net)))


def simulated_flows_finish(result, kwargs):
    background = np.broadcast_to(np.asarray(kwargs.get("background") if kwargs.get("background") is not None
                                            else False, dtype=bool), result.shape)
    assert np.all(np.isnan(result[background]))
    assert np.all(np.isfinite(result[~background]) & (result[~background] > 0))


def result_within_capacity(result, kwargs=None):
    """A FlowResult: every foreground flow finishes at a positive time; no link used beyond its capacity."""
    foreground = result.foreground
    times = result.completion_times_s[foreground]
    assert np.all(np.isfinite(times) & (times > 0))
    assert np.all(np.isnan(result.completion_times_s[~foreground]))
    assert result.completion_time_s == times.max()
    assert np.all(result.link_utilization <= 1 + 1e-9)
    network, traffic = result.routes.network, result.routes.traffic
    nic = network.capacity_bytes_per_s[network.nic_link(traffic.source[foreground], "up")]
    assert np.all(result.throughput_bytes_per_s <= nic * (1 + 1e-9))


def every_routing_within_capacity(result, kwargs):
    assert list(result) == list(kwargs["routings"])
    for flow_result in result.values():
        result_within_capacity(flow_result)


def collective_is_sound(result, kwargs):
    """Time is the phases' step times times their repeats; none when nothing crosses the network."""
    expected = sum(phase.repeats * step.completion_time_s
                   for phase, step in zip([p for p in result.collective.phases if p.traffic.flow_count],
                                          result.phase_results))
    assert result.time_s == expected >= 0
    if result.time_s == 0:
        assert result.phase_results == () and result.algorithm_bandwidth_bytes_per_s is None
    else:
        assert result.algorithm_bandwidth_bytes_per_s > 0
    for step in result.phase_results:
        result_within_capacity(step)


weights = st.floats(-3, 0).map(lambda e: float(10.0 ** e))

odd_weights = st.sampled_from([1e-300, 5e-324, 1e-30, 1e30, 1e300, 0.0, -1.0, math.nan, math.inf])

odd_capacities = st.sampled_from([0.0, 1e-300, 1e-30, 1e30, 1e31, 1e300, 1.7e308, -1.0, math.nan])


@st.composite
def flow_problems(draw):
    """Flows on links, consistent with each other: (incidence, capacities, sizes, background, active).

    The incidence is link lists, a sparse matrix of shares or a dense array; now and then a share, a
    capacity or a size is extreme or wrong, or a link has failed.
    """
    links = draw(st.integers(1, 8))
    flows = draw(st.integers(1, 12))
    paths = [sorted(draw(st.sets(st.integers(0, links - 1), min_size=1, max_size=min(links, 4))))
             for _ in range(flows)]
    kind = draw(st.sampled_from(["lists", "sparse", "dense"]))
    if kind == "lists":
        incidence = paths
    else:
        shares = [draw(rarely(weights, odd_weights, odds=30)) for path in paths for _ in path]
        incidence = scipy.sparse.csr_matrix((shares, np.concatenate(paths), np.cumsum([0] + [len(p) for p in paths])),
                                            shape=(flows, links))
        incidence = incidence if kind == "sparse" else incidence.toarray()
    capacity = [draw(rarely(ordinary_capacity, odd_capacities, odds=30)) for _ in range(links)]
    size = np.array([draw(rarely(ordinary_sizes, extreme_sizes)) for _ in range(flows)])
    background = np.array([draw(st.integers(0, 5)) == 0 for _ in range(flows)])
    if background.all():
        background[0] = False
    size[background] = np.inf
    active = np.array([draw(st.integers(0, 5)) > 0 for _ in range(flows)])
    return incidence, capacity, size, background, active


def flow_problem(key, part):
    return mixed(st.shared(flow_problems(), key=key).map(lambda problem: problem[part]))


radix = mixed(rarely(st.sampled_from([4, 8, 16, 32, 64, 128, 256]),
                     st.one_of(st.integers(1, 2 ** 40).map(lambda half: 2 * half), st.integers(2, 2 ** 40))))

FUZZ_CASES = [
    Case(fabric.simulate_flows, dict(incidence=flow_problem("flows", 0), capacity_bytes_per_s=flow_problem("flows", 1),
                                     size_bytes=flow_problem("flows", 2), background=flow_problem("flows", 3),
                                     time_tolerance=rarely(st.just(1e-9), nonnegative(1e-12, 1.0))),
         check=simulated_flows_finish, infinite=("result",), examples=0.5),
    Case(fabric.simulate_routes, dict(routes=mixed(routes()), time_tolerance=rarely(st.just(1e-9),
                                                                                   nonnegative(1e-12, 1.0))),
         check=lambda result, kwargs: result_within_capacity(result), infinite=("completion_times_s", "size_bytes"),
         examples=0.5),
    Case(fabric.compare_routings, dict(network=mixed(shared_network("compare")),
                                       traffic=mixed(shared_traffic("compare")),
                                       routings=mixed(st.lists(st.sampled_from(ROUTING_NAMES), min_size=1, max_size=3,
                                                               unique=True)),
                                       seed=seeds, time_tolerance=rarely(st.just(1e-9), nonnegative(1e-12, 1.0))),
         check=every_routing_within_capacity, infinite=("completion_times_s", "size_bytes"), messages=DISCONNECTED,
         examples=0.25),
    Case(fabric.simulate_collective, dict(
        network=mixed(st.shared(network_and_collective, key="collective").map(lambda pair: pair[0])),
        collective=mixed(st.shared(network_and_collective, key="collective").map(lambda pair: pair[1])),
        routing=choice(ROUTING_NAMES), seed=seeds, time_tolerance=rarely(st.just(1e-9), nonnegative(1e-12, 1.0))),
         check=collective_is_sound, infinite=("completion_times_s", "size_bytes"), messages=DISCONNECTED,
         examples=0.5),
]


# Hostile input: fuzzed with tests/fuzzing.py -----------------------------------------------------

def simulate_small(hosts, radix, routing, size_bytes, nic_capacity_bytes_per_s, link_capacity_bytes_per_s,
                   background_fraction, seed):
    """The flow simulator on a permutation (and perhaps background flows) over a small fat tree."""
    network = fabric.Network(topology.fat_tree(hosts, radix=radix, tiers=3),
                             nic_capacity_bytes_per_s=nic_capacity_bytes_per_s,
                             link_capacity_bytes_per_s=link_capacity_bytes_per_s)
    traffic = fabric.permutation(network.hosts, size_bytes, seed=seed)
    if background_fraction is not None:
        traffic = fabric.combine(traffic, fabric.background(network.hosts, background_fraction, seed=seed))
    return fabric.simulate(network, traffic, routing, seed=seed)


def simulation_within_capacity(result, kwargs):
    """Every foreground flow finishes at a finite positive time; no link or NIC is used beyond its capacity."""
    foreground = result.foreground
    times = result.completion_times_s[foreground]
    assert np.all(np.isfinite(times) & (times > 0)), times
    assert np.all(np.isnan(result.completion_times_s[~foreground])), "a background flow finished"
    assert 0 < result.completion_time_s == times.max()
    assert np.all(result.link_utilization <= 1 + 1e-9), result.link_utilization.max()
    nic = kwargs["nic_capacity_bytes_per_s"]
    assert np.all(result.throughput_bytes_per_s <= nic * (1 + 1e-9)), (result.throughput_bytes_per_s.max(), nic)


def route_small(hosts, radix, routing, seed):
    network = fabric.Network(topology.fat_tree(hosts, radix=radix, tiers=3), nic_capacity_bytes_per_s=50e9)
    return fabric.fair_rates(network, fabric.permutation(network.hosts, 1e6, seed=seed), routing, seed=seed)


def rates_within_line_rate(result, kwargs):
    assert np.all(result.line_rate_fraction <= 1 + 1e-9) and np.all(result.line_rate_fraction >= 0)


FUZZ_CASES += [
    # the flow simulator
    # Sizes and capacities span their documented ranges and beyond: [1e-30, 1e30] B, [1e-30, 1e18] B/s.
    Case(simulate_small, dict(hosts=count(2, 128), radix=st.sampled_from([4, 8, 16]),
                              routing=choice(tuple(fabric.ROUTINGS)), size_bytes=positive(1e-35, 1e35),
                              nic_capacity_bytes_per_s=positive(1e-35, 1e23),
                              link_capacity_bytes_per_s=positive(1e-35, 1e23),
                              background_fraction=optional(fraction()), seed=count(0, 100)),
         check=simulation_within_capacity, infinite=("completion_times_s", "size_bytes"), examples=0.25,
         name="fabric.simulate (small fat tree)"),
    Case(route_small, dict(hosts=count(2, 512), radix=st.sampled_from([4, 8, 16]),
                           routing=choice(tuple(fabric.ROUTINGS)), seed=count(0, 100)),
         check=rates_within_line_rate, examples=0.25, name="fabric.fair_rates (small fat tree)"),
]


# Hostile input -----------------------------------------------------------------------------------

def _small_fabric(nic_capacity_bytes_per_s, link_capacity_bytes_per_s=None):
    from interconnect_lab import fabric
    return fabric.Network(topology.fat_tree(16, radix=4, tiers=3), nic_capacity_bytes_per_s=nic_capacity_bytes_per_s,
                          link_capacity_bytes_per_s=link_capacity_bytes_per_s)


def _leaf_spine(capacity=100.0):
    from interconnect_lab import fabric
    return fabric.Network(topology.fat_tree(8, radix=4, tiers=2), nic_capacity_bytes_per_s=capacity)


@pytest.mark.usefixtures("warnings_are_errors")
@pytest.mark.parametrize(("size_bytes", "nic_capacity_bytes_per_s", "message"), [
    # 5e-324 B at 50 GB/s finished at "0 s": link utilization 0/0 = NaN, throughput inf
    (5e-324, 50e9, r"size_bytes = 4\.94066e-324 B is not valid: it must be in \[1e-30, 1e\+30\] B"),
    # 1e30 B at 1e-300 B/s finished at inf s: utilization NaN
    (1e30, 1e-300, r"nic_capacity_bytes_per_s = 1e-300 B/s is not valid: it must be in \[1e-30, 1e\+18\] B/s"),
    # 1e-300 B at 1e300 B/s: a time of 0 s again
    (1e-300, 1e300, r"nic_capacity_bytes_per_s = 1e\+300 B/s is not valid"),
])
def test_simulate_refuses_sizes_and_capacities_whose_times_leave_the_float_range(size_bytes, nic_capacity_bytes_per_s,
                                                                                  message):
    from interconnect_lab import fabric
    with pytest.raises(ValueError, match=message):
        network = _small_fabric(nic_capacity_bytes_per_s)
        fabric.simulate(network, fabric.permutation(network.hosts, size_bytes, seed=0))


@pytest.mark.usefixtures("warnings_are_errors")
@pytest.mark.parametrize("routing", ["ecmp", "spray", "adaptive"])
@pytest.mark.parametrize(("size_bytes", "capacity_bytes_per_s"), [(1e-30, 1e18), (1e30, 1e-30), (1e-30, 1e-30),
                                                                   (1e30, 1e18)])
def test_simulate_is_finite_at_the_corners_of_the_documented_ranges(size_bytes, capacity_bytes_per_s, routing):
    from interconnect_lab import fabric
    network = _small_fabric(capacity_bytes_per_s, capacity_bytes_per_s)
    result = fabric.simulate(network, fabric.permutation(network.hosts, size_bytes, seed=3), routing)
    assert np.all(np.isfinite(result.completion_times_s)) and result.completion_time_s > 0
    assert np.all(np.isfinite(result.link_utilization)) and result.link_utilization.max() <= 1 + 1e-12
    assert result.throughput_bytes_per_s.max() <= capacity_bytes_per_s * (1 + 1e-12)


@pytest.mark.usefixtures("warnings_are_errors")
@pytest.mark.parametrize(("call", "error", "message"), [
    (lambda f: f.simulate(_small_fabric(50e9), f.background(16, 0.5, seed=1)), ValueError,
     "has no foreground flow"),
    (lambda f: f.all_to_all(16, 1e-29, skew=10, seed=0), ValueError,
     r"size_bytes = 1e-29 B with skew = 10 gives flows from 1\.45375e-40"),
    (lambda f: f.all_to_all(16, 1e6, skew=1e300, seed=0), ValueError, r"skew = 1e\+300 is not valid: it must be in \[0, 10\]"),
    (lambda f: f.ring_all_reduce_traffic(range(8), 1e-30), ValueError,
     r"message_bytes = 1e-30 B is not valid for 8 ranks: each flow carries message_bytes / 8"),
    (lambda f: _small_fabric(1.0).with_degraded_links(16, 1e-31), ValueError, r"fraction = 1e-31 is not valid here"),
    (lambda f: _small_fabric(50e9).with_link_capacity(16, 1e19), ValueError,
     r"capacity_bytes_per_s = 1e\+19 B/s is not valid: it must be 0 \(a failed link\) or in \[1e-30, 1e\+18\] B/s"),
    (lambda f: f.simulate_flows([[0]], [1.0], [1e-31]), ValueError, "size_bytes = 1e-31 B"),
    (lambda f: f.FlowSimulation(np.array([[1e-300]]), [1.0], [1.0]), ValueError, "incidence weights must be >= 1e-30"),
    (lambda f: f.background(16, [0.5], seed=0), TypeError, "fraction must be a single real number"),
    (lambda f: _small_fabric([50e9]), TypeError, "nic_capacity_bytes_per_s must be a single real number"),
])
def test_fabric_inputs_that_would_leave_the_float_range(call, error, message):
    from interconnect_lab import fabric
    with pytest.raises(error, match=message):
        call(fabric)


@pytest.mark.usefixtures("warnings_are_errors")
def test_a_collective_that_never_leaves_its_server_takes_no_network_time():
    # every flow inside one server: reading the bandwidth divided by a time of 0 (ZeroDivisionError)
    from interconnect_lab import fabric
    net = _leaf_spine()
    inside = fabric.ring_all_reduce_traffic(range(4), 400.0, gpus_per_node=4)
    result = fabric.simulate_collective(net, inside, "spray")
    assert result.time_s == 0.0 and result.phase_results == () and result.algorithm_bandwidth_bytes_per_s is None
    assert fabric.degraded_link_effect(net, inside, 0, 0.5).slowdown == 1.0   # 0 / 0 before
    across = fabric.simulate_collective(net, fabric.ring_all_reduce_traffic(range(4), 400.0, gpus_per_node=2), "spray")
    assert across.time_s == 6.0 and across.algorithm_bandwidth_bytes_per_s == pytest.approx(400 / 6)


@pytest.mark.usefixtures("warnings_are_errors")
@pytest.mark.parametrize(("call", "error", "message"), [
    # checked even when no simulation runs (a list seed, a non-network were accepted)
    (lambda f, ring: f.simulate_collective(0, ring), TypeError, "network must be a fabric Network, got int"),
    (lambda f, ring: f.simulate_collective(_leaf_spine(), ring, seed=[1]), TypeError, "seed must be an integer"),
    (lambda f, ring: f.simulate_collective(_leaf_spine(), ring, "hash"), ValueError, "unknown routing 'hash'"),
    (lambda f, ring: f.simulate_collective(_leaf_spine(), ring, time_tolerance=[1e-9]), TypeError,
     "time_tolerance must be a single real number"),
    (lambda f, ring: f.simulate_collective(_leaf_spine(), f.ring_all_reduce_traffic([0, 9], 1.0, gpus_per_node=16)),
     ValueError, "collective.ranks = 9 is not a host of this network"),
])
def test_collective_time_checks_its_arguments_even_when_nothing_crosses_the_network(call, error, message):
    from interconnect_lab import fabric
    with pytest.raises(error, match=message):
        call(fabric, fabric.ring_all_reduce_traffic(range(4), 400.0, gpus_per_node=4))


@pytest.mark.usefixtures("warnings_are_errors")
def test_a_flow_on_a_failed_link_is_refused_before_the_simulation_runs():
    # a RuntimeError once the simulation found it stuck; a background flow there raised it too
    from interconnect_lab import fabric
    with pytest.raises(ValueError, match=r"flow 1 crosses link 1, whose capacity_bytes_per_s is 0"):
        fabric.simulate_flows([[0], [1]], [1.0, 0.0], [1.0, 1.0])
    times = fabric.simulate_flows([[0], [1]], [1.0, 0.0], [1.0, np.inf], background=[False, True])
    assert times[0] == 1.0 and np.isnan(times[1])
    # ... even with a finite size (a division by its zero rate)
    times = fabric.simulate_flows([[0], [1], [0]], [0.0, 1e-30], 0.5, background=[True, False, True])
    assert times[1] == pytest.approx(5e29) and np.isnan(times[[0, 2]]).all()

test_fuzz, test_fuzz_nightly = make_tests(FUZZ_CASES)
