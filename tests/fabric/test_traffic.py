"""Tests of ``interconnect_lab.fabric.traffic``: traffic: who sends how many bytes to whom.

Hostile input is at the end (and fuzzed with tests/fuzzing.py where noted).
"""

import math

import numpy as np
from hypothesis import strategies as st

from fuzzing import Case, choice, count, fraction, make_tests, mixed, nonnegative, optional, positive

from interconnect_lab import fabric, topology


# Hostile input: fuzzed with tests/fuzzing.py -----------------------------------------------------

def rarely(usual, unusual, odds=10):
    """``usual`` most of the time; one draw in ``odds``, ``unusual``."""
    return st.integers(0, odds - 1).flatmap(lambda k: unusual if k == 0 else usual)


#: Counts that some builder allocates arrays of: mostly small, sometimes large, and absurd ones that
#: must be refused before anything is allocated.
ABSURD = (2 ** 21 + 1, 2 ** 30, 2 ** 40, 2 ** 53)

host_count = mixed(rarely(st.integers(2, 256), st.sampled_from((4096, 65_536) + ABSURD)))

sizes = positive(1e-35, 1e35)                   # flow sizes: beyond FLOW_BYTES_RANGE at both ends

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


def in_flow_range(sizes_bytes):
    low, high = fabric.traffic.FLOW_BYTES_RANGE
    finite = sizes_bytes[np.isfinite(sizes_bytes)]
    return np.all((finite >= low) & (finite <= high))


def is_derangement(result, kwargs):
    assert sorted(result.source.tolist()) == sorted(result.destination.tolist())
    assert np.all(result.source != result.destination) and in_flow_range(result.size_bytes)


def all_to_all_total(result, kwargs):
    n = np.unique(result.source).size
    assert result.flow_count == n * (n - 1) and in_flow_range(result.size_bytes)
    assert math.isclose(result.total_bytes, n * (n - 1) * kwargs["size_bytes"], rel_tol=1e-9)


def traffic_is_sound(result, kwargs):
    assert np.all(result.source != result.destination) and in_flow_range(result.size_bytes)
    assert np.all(np.isinf(result.size_bytes) == result.background)


def ring_is_sound(result, kwargs):
    n = result.ranks.size
    (phase,) = result.phases
    assert phase.repeats == 2 * (n - 1)
    assert phase.traffic.flow_count + result.intra_node_flows == n
    assert np.allclose(phase.traffic.size_bytes, result.message_bytes / n, rtol=1e-12)


def hierarchical_is_sound(result, kwargs):
    n, g = result.ranks.size, kwargs["gpus_per_node"]
    (phase,) = result.phases
    assert phase.repeats == 2 * (n // g - 1) and phase.traffic.flow_count == n


def placement_is_a_permutation(result, kwargs):
    hosts = kwargs["hosts"]
    expected = np.arange(hosts) if isinstance(hosts, (int, np.integer)) else np.asarray(hosts)
    assert sorted(result.tolist()) == sorted(expected.tolist())


def combine_traffics(traffics, name):
    """:func:`fabric.combine` takes its traffics as separate arguments."""
    return fabric.combine(*traffics, name=name)


traffics = networks().flatmap(traffic_on)

radix = mixed(rarely(st.sampled_from([4, 8, 16, 32, 64, 128, 256]),
                     st.one_of(st.integers(1, 2 ** 40).map(lambda half: 2 * half), st.integers(2, 2 ** 40))))

FUZZ_CASES = [
    # traffic
    Case(fabric.permutation, dict(hosts=st.one_of(host_count, mixed(st.lists(st.integers(0, 1000), min_size=2,
                                                                             max_size=20, unique=True))),
                                  size_bytes=sizes, seed=seeds), check=is_derangement),
    Case(fabric.all_to_all, dict(hosts=host_count, size_bytes=sizes, skew=rarely(st.just(0.0), nonnegative(1e-3, 20)),
                                 seed=optional(seeds)), check=all_to_all_total, examples=0.5),
    Case(fabric.incast, dict(senders=mixed(st.lists(mixed(st.integers(0, 64)), min_size=1, max_size=8)),
                             receiver=count(0, 64), size_bytes=sizes), check=traffic_is_sound),
    Case(fabric.background, dict(hosts=host_count, fraction=fraction(), seed=seeds), check=traffic_is_sound,
         infinite=("size_bytes",)),
    Case(combine_traffics, dict(traffics=mixed(st.lists(mixed(traffics), min_size=0, max_size=3)),
                                name=optional(mixed(st.text(max_size=10)))), check=traffic_is_sound,
         infinite=("size_bytes",), examples=0.25, name="fabric.combine"),
    Case(fabric.ring_all_reduce_traffic, dict(ranks=st.one_of(host_count, mixed(st.lists(st.integers(0, 100), min_size=2,
                                                                                 max_size=16, unique=True))),
                                      message_bytes=sizes, gpus_per_node=count(1, 16)), check=ring_is_sound),
    Case(fabric.hierarchical_all_reduce_traffic, dict(ranks=host_count, message_bytes=sizes,
                                              gpus_per_node=mixed(st.sampled_from([1, 2, 4, 8, 3]))),
         check=hierarchical_is_sound),
    Case(fabric.rank_placement, dict(hosts=host_count, gpus_per_node=mixed(st.sampled_from([1, 2, 4, 8, 3])),
                                     placement=choice(fabric.PLACEMENTS), seed=optional(seeds)),
         check=placement_is_a_permutation),
]

test_fuzz, test_fuzz_nightly = make_tests(FUZZ_CASES)

#: Public functions fuzzed through a wrapper that builds their arguments.
FUZZ_WRAPPED = {fabric.combine: combine_traffics}
