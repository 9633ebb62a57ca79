"""Event-driven flow completion (fabric.simulation): exact event logs, conservation, determinism."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from interconnect_lab.fabric import (
    FlowSimulation, Network, Traffic, all_to_all, background, simulate_collective, combine, explicit_routes,
    fair_rates, hierarchical_all_reduce_traffic, incast, incidence_matrix, max_min_rates, permutation, rank_placement,
    ring_all_reduce_traffic, simulate, simulate_flows, simulate_routes,
)
from interconnect_lab.topology import fat_tree


@pytest.fixture
def leaf_spine():
    """8 hosts on 4 leaves of 2, two spines; 100 B/s everywhere."""
    return Network(fat_tree(8, radix=4, tiers=2), nic_capacity_bytes_per_s=100.0)


# Tiny scenarios worked out by hand --------------------------------------------------------

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


# Cannot finish --------------------------------------------------------------------------

def test_a_flow_with_zero_rate_is_reported_not_waited_for():
    with pytest.raises(ValueError, match=r"flow 1 crosses link 1, whose capacity_bytes_per_s is 0 \(a failed link\): "
                                         "it would never finish"):
        FlowSimulation([[0], [1]], [1.0, 0.0], [1.0, 1.0])
    # A background flow may wait on a failed link: it never finishes anyway.
    sim = FlowSimulation([[0], [1]], [1.0, 0.0], [1.0, np.inf], background=[False, True])
    assert sim.run() == 1.0


def test_a_path_through_a_failed_link_is_refused(leaf_spine):
    failed = leaf_spine.with_failed_links(leaf_spine.leaf_link(0, 0))
    traffic = Traffic(source=[0], destination=[2], size_bytes=1.0)
    with pytest.raises(ValueError, match=r"paths\[0\] crosses link 16 \(leaf 0 -> spine 0\), which has failed"):
        explicit_routes(failed, traffic, [leaf_spine.paths(0, 2)[0]])
    with pytest.raises(ValueError, match="does not lead from host 0 to host 2"):
        explicit_routes(leaf_spine, traffic, [leaf_spine.paths(0, 4)[0]])


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


# Conservation and determinism at (modest) scale ------------------------------------------------

@pytest.fixture(scope="module")
def thousand_hosts():
    return Network(fat_tree(1024, radix=16, tiers=3), nic_capacity_bytes_per_s=50e9)


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


@st.composite
def flow_sets(draw):
    links = draw(st.integers(1, 6))
    flows = draw(st.integers(1, 10))
    paths = [sorted(draw(st.sets(st.integers(0, links - 1), min_size=1, max_size=links))) for _ in range(flows)]
    capacity = [draw(st.sampled_from([1.0, 2.0, 3.0, 5.0])) for _ in range(links)]
    sizes = [draw(st.sampled_from([1.0, 2.0, 4.0, 7.0])) for _ in range(flows)]
    return incidence_matrix(paths, links), np.array(capacity), np.array(sizes)


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
