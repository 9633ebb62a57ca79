"""Tests of ``interconnect_lab.topology.summary``: one shape for every topology: the numbers a
comparison table needs.

Hostile input is at the end (and fuzzed with tests/fuzzing.py where noted).
"""

import pytest
from hypothesis import strategies as st

from fuzzing import Case, make_tests, mixed, optional

from interconnect_lab import topology
from interconnect_lab.topology import TopologySummary, fat_tree, fat_tree_summary, rail_only


def test_al_fares_fat_tree_summary():
    # Al-Fares et al. 2008: k = 4, 16 hosts, 20 switches; k = 48, 27,648 hosts, 2,880 switches.
    small = fat_tree_summary(fat_tree(16, radix=4, tiers=3))
    assert (small.hosts, small.switches, small.bisection_ratio) == (16, 20, 1.0)
    big = fat_tree_summary(fat_tree(48 ** 3 // 4, radix=48))
    assert (big.hosts, big.switches) == (27_648, 5 * 48 ** 2 // 4)
    assert big.diameter_hops == 4 and big.diameter_links == 6


def test_rail_only_is_rails_separate_trees():
    r = rail_only(1024, 8, radix=64)
    assert r.hosts == 8192
    assert r.switches == 8 * (32 + 16)
    optimized = fat_tree(8192, radix=64, rails=8)
    assert r.switches < optimized.switches
    assert r.summary().diameter_hops < fat_tree_summary(optimized).diameter_hops


def test_summary_validates_itself():
    good = fat_tree_summary(fat_tree(16, radix=4))
    import dataclasses
    with pytest.raises(ValueError, match="optical_links"):
        dataclasses.replace(good, optical_links=good.links + 1)
    with pytest.raises(ValueError, match="worst_link_loss"):
        dataclasses.replace(good, worst_link_loss=1.5)
    assert isinstance(good, TopologySummary)


# Hostile input: fuzzed with tests/fuzzing.py -----------------------------------------------------

def rarely(usual, unusual, odds=10):
    """``usual`` most of the time; one draw in ``odds``, ``unusual``."""
    return st.integers(0, odds - 1).flatmap(lambda k: unusual if k == 0 else usual)


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


def summary_is_sound(result, kwargs=None):
    summary = result if isinstance(result, topology.TopologySummary) else result.summary()
    assert summary.hosts >= 1 and summary.bisection_ratio >= 0 and 0 <= summary.worst_link_loss <= 1
    assert summary.optical_links <= summary.links and summary.diameter_links >= summary.diameter_hops


radix = mixed(rarely(st.sampled_from([4, 8, 16, 32, 64, 128, 256]),
                     st.one_of(st.integers(1, 2 ** 40).map(lambda half: 2 * half), st.integers(2, 2 ** 40))))

FUZZ_CASES = [
    Case(topology.fat_tree_summary, dict(tree=mixed(trees()), name=optional(mixed(st.text(max_size=12)))),
         check=summary_is_sound),
]

test_fuzz, test_fuzz_nightly = make_tests(FUZZ_CASES)
