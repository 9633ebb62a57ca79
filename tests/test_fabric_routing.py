"""Routing and what it buys (fabric.routing, fabric.collisions): spraying vs ECMP on a permutation.

ECMP's hash collisions are predicted by balls into bins (fabric.collisions, Notes):
the mean rate within 5 % and the busiest link's load within 8 % over 12 seeds.
"""

import numpy as np
import pytest

from interconnect_lab.fabric import (
    ROUTINGS, Network, Traffic, ecmp_collisions, fair_rates, max_load_cdf, permutation, route,
)
from interconnect_lab.topology import fat_tree

SEEDS = range(12)


@pytest.fixture(scope="module", params=[(512, 32, 2), (1024, 16, 3)], ids=["2-tier 512", "3-tier 1024"])
def non_blocking(request):
    hosts, radix, tiers = request.param
    return Network(fat_tree(hosts, radix=radix, tiers=tiers), nic_capacity_bytes_per_s=1.0)


def test_routing_table_lists_and_dispatches():
    assert list(ROUTINGS) == ["ecmp", "spray", "adaptive"]
    assert all(callable(function) and text for function, text in ROUTINGS.values())


def test_spraying_reaches_line_rate_on_a_permutation(non_blocking):
    for seed in SEEDS:
        fraction = fair_rates(non_blocking, permutation(non_blocking.hosts, 1.0, seed=seed), "spray").line_rate_fraction
        assert fraction.min() >= 0.99


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


def test_adaptive_beats_ecmp_on_a_permutation(non_blocking):
    traffic = permutation(non_blocking.hosts, 1.0, seed=3)
    ecmp = fair_rates(non_blocking, traffic, "ecmp", seed=3).line_rate_fraction.mean()
    adaptive = fair_rates(non_blocking, traffic, "adaptive", seed=3).line_rate_fraction.mean()
    assert adaptive > ecmp + 0.1


def test_hash_is_uniform_over_paths():
    net = Network(fat_tree(16, radix=4, tiers=3), nic_capacity_bytes_per_s=1.0)
    traffic = Traffic(source=np.zeros(4000, int), destination=np.full(4000, 15), size_bytes=1.0)
    links = route(net, traffic, "ecmp", seed=0).path_links
    _, counts = np.unique(links[:, [1, 2]], axis=0, return_counts=True)
    assert counts.size == 4 and counts.min() > 900  # 1000 expected on each of the 4 paths


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
