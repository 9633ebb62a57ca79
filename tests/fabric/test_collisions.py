"""Tests of ``interconnect_lab.fabric.collisions``: eCMP collisions as balls into bins: what hashing
costs a permutation.

Hostile input is at the end (and fuzzed with tests/fuzzing.py where noted).
"""

import math

import numpy as np
import pytest
from hypothesis import strategies as st

from fuzzing import Case, count, make_tests, mixed

from interconnect_lab import fabric, topology
from interconnect_lab.fabric import Network, ecmp_collisions, fair_rates, max_load_cdf, permutation
from interconnect_lab.topology import fat_tree


SEEDS = range(12)


@pytest.fixture(scope="module", params=[(512, 32, 2), (1024, 16, 3)], ids=["2-tier 512", "3-tier 1024"])
def non_blocking(request):
    hosts, radix, tiers = request.param
    return Network(fat_tree(hosts, radix=radix, tiers=tiers), nic_capacity_bytes_per_s=1.0)


def test_ecmp_mean_matches_balls_into_bins(non_blocking):
    expected = ecmp_collisions(non_blocking, samples=20000, seed=1)
    means = [fair_rates(non_blocking, permutation(non_blocking.hosts, 1.0, seed=seed), "ecmp", seed=seed)
             .line_rate_fraction.mean() for seed in SEEDS]
    assert np.mean(means) == pytest.approx(expected.mean_rate, rel=0.05)
    # The guaranteed share is a true lower bound for every instance.
    assert min(means) >= expected.share_lower_bound


def test_ecmp_slowest_flow_is_one_over_the_busiest_link(non_blocking):
    expected = ecmp_collisions(non_blocking, samples=2000, seed=1)
    busiest = []
    for seed in SEEDS:
        result = fair_rates(non_blocking, permutation(non_blocking.hosts, 1.0, seed=seed), "ecmp", seed=seed)
        flows_per_link = np.asarray(result.routes.incidence.sum(axis=0)).ravel()
        # Exact, instance by instance: progressive filling's first level is c / (most flows on a link).
        assert result.rates_bytes_per_s.min() == 1.0 / flows_per_link.max()
        busiest.append(flows_per_link.max())
    assert np.mean(busiest) == pytest.approx(expected.expected_max_load, rel=0.08)


def test_max_load_cdf_by_hand():
    # 3 balls in 3 bins: all apart with probability 3!/3^3; all together with 3/27.
    assert max_load_cdf(3, 3, [0, 1, 2, 3]) == pytest.approx([0, 6 / 27, 1 - 3 / 27, 1])
    assert max_load_cdf(0, 5, [0]).tolist() == [1.0]


def test_collisions_need_a_full_uniform_tree():
    with pytest.raises(ValueError, match="fully built tree"):
        ecmp_collisions(Network(fat_tree(1000, radix=16, tiers=3), nic_capacity_bytes_per_s=1.0))
    net = Network(fat_tree(512, radix=32, tiers=2), nic_capacity_bytes_per_s=1.0, link_capacity_bytes_per_s=2.0)
    with pytest.raises(ValueError, match="same capacity"):
        ecmp_collisions(net)


# Hostile input: fuzzed with tests/fuzzing.py -----------------------------------------------------

def rarely(usual, unusual, odds=10):
    """``usual`` most of the time; one draw in ``odds``, ``unusual``."""
    return st.integers(0, odds - 1).flatmap(lambda k: unusual if k == 0 else usual)


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


def collisions_are_probabilities(result, kwargs):
    assert 0 < result.share_lower_bound <= 1 and 0 < result.mean_rate <= 1
    assert math.isclose(sum(result.path_probabilities), 1.0, rel_tol=1e-9)
    assert np.all(np.diff(result.max_load_cdf) >= 0) and result.max_load_cdf[-1] == 1.0
    assert 0 < result.expected_slowest_rate <= 1 and result.expected_max_load >= 1


radix = mixed(rarely(st.sampled_from([4, 8, 16, 32, 64, 128, 256]),
                     st.one_of(st.integers(1, 2 ** 40).map(lambda half: 2 * half), st.integers(2, 2 ** 40))))

FUZZ_CASES = [
    Case(fabric.ecmp_collisions, dict(
        network=mixed(rarely(st.sampled_from([(4, 2), (8, 2), (16, 2), (32, 2), (4, 3), (8, 3)]).map(
            lambda shape: fabric.Network(topology.fat_tree(topology.max_hosts(shape[0], shape[1]), radix=shape[0],
                                                           tiers=shape[1]), nic_capacity_bytes_per_s=1.0)),
            networks())),
        samples=count(100, 5000), seed=seeds), check=collisions_are_probabilities, examples=0.25),
]


# Hostile input: fuzzed with tests/fuzzing.py -----------------------------------------------------

FUZZ_CASES += [
    Case(fabric.max_load_cdf, dict(balls=count(1, 1000), bins=count(1, 1000), loads=count(0, 100))),
]

test_fuzz, test_fuzz_nightly = make_tests(FUZZ_CASES)
