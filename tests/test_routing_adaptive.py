"""Adaptive routing placed wave by wave gives exactly what placing flows one at a time gives."""

import numpy as np
import pytest

from interconnect_lab.fabric import Network, all_to_all, permutation
from interconnect_lab.fabric import routing as r
from interconnect_lab.topology import fat_tree


def one_at_a_time(network, traffic, seed):
    """The adaptive routing as first written: flows placed one by one in a Python loop."""
    seed = r._seed_value(seed)
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
