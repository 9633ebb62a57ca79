"""Tests of ``interconnect_lab.topology.planes``: multi-plane fat trees: DeepSeek's published fabric, the
port-split planes of 800G NICs.

Hostile input is at the end (and fuzzed with tests/fuzzing.py where noted).
"""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fuzzing import Case, choice, count, make_tests, mixed, optional, positive

from interconnect_lab import catalog, roadmap, topology
from interconnect_lab import units as u


def test_deepseek_multi_plane_fat_tree_as_published():
    # Zhao et al., ISCA 2025 (Insights into DeepSeek-V3), multi-plane fat tree: 8 planes, each a two-tier
    # fat tree of 64-port 400G switches, 16,384 GPUs in theory, 768 switches in the cost comparison.
    assert topology.multi_plane_max_endpoints(64, 2, 8) == 16_384
    mpft = topology.multi_plane_fat_tree(16_384, 8, radix=64, port_bytes_per_s=400 * u.Gbit_per_s)
    assert (mpft.tiers, mpft.plane_tree.hosts, mpft.switches) == (2, 2048, 768)
    assert mpft.max_switch_hops == 3
    assert mpft.endpoint_bytes_per_s == 400 * u.Gbit_per_s          # one port per GPU, on its own plane
    # One fat tree of the same switches needs three tiers and more switches per endpoint.
    single = topology.fat_tree(16_384, radix=64)
    assert single.tiers == 3 and single.switches / 16_384 > mpft.switches_per_endpoint


def test_port_split_planes_add_bandwidth_not_reach():
    # Each endpoint has a port on every plane: the reach is one plane's, the rate planes x the port's.
    assert topology.multi_plane_max_endpoints(64, 2, 8, split="port") == 64 ** 2 // 2
    two = topology.multi_plane_fat_tree(2048, 2, split="port", switch=catalog.breakout("Tomahawk 5", 2))
    assert two.plane_tree.hosts == 2048 and two.endpoint_bytes_per_s == 800 * u.Gbit_per_s
    assert two.bisection_bytes_per_s == 2 * two.plane_tree.bisection_bytes_per_s


def test_roadmap_multi_plane_fabric_is_the_port_split():
    # Tomahawk 6 as 512 x 200G: an 800G GPU is four planes of two tiers for 131,072 GPUs.
    mp = roadmap.multi_plane_fabric(131_072, nic_bytes_per_s=800 * u.Gbit_per_s)
    direct = topology.multi_plane_fat_tree(131_072, 4, split="port", switch=catalog.breakout("Tomahawk 6", 8))
    assert (mp.planes, mp.tiers, mp.switches) == (4, 2, 3072) == (direct.planes, direct.tiers, direct.switches)


@settings(max_examples=50, deadline=None)
@given(endpoints=st.integers(1, 200_000), planes=st.sampled_from([1, 2, 4, 8]),
       split=st.sampled_from(sorted(topology.PLANE_SPLITS)))
def test_planes_are_copies_of_one_tree(endpoints, planes, split):
    mp = topology.multi_plane_fat_tree(endpoints, planes, split=split, radix=128)
    assert mp.switches == planes * mp.plane_tree.switches and mp.cables == planes * mp.plane_tree.cables
    expected_hosts = endpoints if split == "port" else -(-endpoints // planes)
    assert mp.plane_tree.hosts == expected_hosts
    assert endpoints <= topology.multi_plane_max_endpoints(128, mp.tiers, planes, split)


def test_the_model_reproduces_deepseeks_published_design():
    from interconnect_lab import published

    ds = next(c for c in published.CLUSTER_FABRICS if c.planes)
    mpft = topology.multi_plane_fat_tree(ds.gpus, ds.planes, radix=64)
    assert (mpft.tiers, mpft.switches) == (ds.tiers, ds.switches) == (2, 768)
    assert topology.multi_plane_max_endpoints(64, ds.tiers, ds.planes) == ds.gpus


def test_the_largest_published_gpu_clusters_are_clos_fabrics():
    # Issue 37, error 9: the largest GPU clusters (Meta's Llama 3, xAI's Colossus) are Clos fabrics;
    # Eagle's topology is not published, and is not counted either way.
    from interconnect_lab import published

    clusters = {c.name: c for c in published.CLUSTER_FABRICS}
    assert clusters["Meta Llama 3 cluster (RoCE)"].clos and clusters["Meta Llama 3 cluster (RoCE)"].gpus == 24_576
    assert clusters["xAI Colossus"].clos and clusters["xAI Colossus"].tiers == 3
    assert clusters["Microsoft Eagle"].clos is None and clusters["Microsoft Eagle"].topology == "not published"


def test_bad_input():
    with pytest.raises(ValueError, match="unknown plane split 'rail'; valid plane splits are: 'port', 'endpoint'"):
        topology.multi_plane_fat_tree(1024, 8, split="rail", radix=64)
    with pytest.raises(ValueError, match="planes = 0 is not valid"):
        topology.multi_plane_fat_tree(1024, 0, radix=64)
    with pytest.raises(ValueError, match="endpoints = 0 is not valid"):
        topology.multi_plane_fat_tree(0, 8, radix=64)
    with pytest.raises(ValueError, match="tiers"):
        topology.multi_plane_fat_tree(100_000, 8, radix=64, tiers=2)


# Hostile input: fuzzed with tests/fuzzing.py -----------------------------------------------------

FUZZ_CASES = [
    Case(topology.multi_plane_fat_tree, dict(endpoints=count(1, 10 ** 7), planes=count(1, 2048),
                                             split=choice(tuple(topology.PLANE_SPLITS)),
                                             radix=mixed(st.sampled_from([2, 8, 64, 128, 512, 7])),
                                             tiers=optional(count(1, 4)), oversubscription=positive(1.0, 8.0),
                                             port_bytes_per_s=optional(positive(1e-3, 1e25)))),
    Case(topology.multi_plane_max_endpoints, dict(radix=mixed(st.sampled_from([2, 8, 64, 128, 512, 7])),
                                                  tiers=count(1, 4), planes=count(1, 2048),
                                                  split=choice(tuple(topology.PLANE_SPLITS)),
                                                  oversubscription=positive(1.0, 8.0))),
]

test_fuzz, test_fuzz_nightly = make_tests(FUZZ_CASES)
