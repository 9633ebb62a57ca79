"""The fluid simulator's completion times plus the time a flow's last byte spends on its path."""

import numpy as np
import pytest

from interconnect_lab.fabric import Network, permutation, simulate
from interconnect_lab.topology import fat_tree


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
