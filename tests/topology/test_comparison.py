"""Topologies beyond the fat tree: dragonfly, torus, rail-only, direct-connect, and the comparison table.

Hostile input is at the end (and fuzzed with tests/fuzzing.py where noted).
"""

import math

import pytest
from hypothesis import strategies as st

from fuzzing import Case, choice, make_tests, mixed, optional, positive

from interconnect_lab import pricebook, topology, units as u
from interconnect_lab.pricebook import H100_NDR_PRICES
from interconnect_lab.topology import (
    JUPITER_REPORTED, RAIL_ONLY_REPORTED, fat_tree, fat_tree_summary, network_cost_per_host,
    topology_comparison, torus,
)


def test_reported_ranges_are_sourced():
    assert RAIL_ONLY_REPORTED["network_cost_reduction"] == (0.38, 0.77)
    assert JUPITER_REPORTED["capex_reduction"] == 0.30 and JUPITER_REPORTED["power_reduction"] == 0.41
    assert RAIL_ONLY_REPORTED["source"].url and JUPITER_REPORTED["source"].doi


def test_comparison_table_rows_and_costs():
    table = topology_comparison(4096, radix=64, port_bytes_per_s=400 * u.Gbit_per_s)
    families = [s.family for s in table.summaries]
    assert families == ["fat tree", "rail-optimized fat tree", "rail-only", "dragonfly", "direct-connect", "torus"]
    for s, cost in zip(table.summaries, table.cost_per_host_usd):
        assert s.hosts >= 4096
        assert cost == pytest.approx(network_cost_per_host(s, H100_NDR_PRICES))
        assert s.bisection_per_direction_bytes_per_s == pytest.approx(s.bisection_links * 400 * u.Gbit_per_s)
    assert len(table.rows()[0]) == 9
    tree, tree_cost = table.row("fat tree")
    fly, fly_cost = table.row("dragonfly")
    assert fly.diameter_hops < tree.diameter_hops
    assert fly_cost < tree_cost  # copper inside groups, fewer optics
    assert "direct-connect" not in [s.family for s in topology_comparison(2048).summaries]


def test_cost_per_host_by_hand():
    s = fat_tree_summary(fat_tree(2048, radix=64))
    expected = (96 * 36_000 + 4096 * 1_250 + 4096 * 100) / 2048
    assert network_cost_per_host(s) == pytest.approx(expected)
    high = network_cost_per_host(s, estimate="high")
    assert high > network_cost_per_host(s)


def test_bad_types():
    with pytest.raises(TypeError, match="dimensions must be a sequence"):
        torus("16x16")
    with pytest.raises(TypeError, match="families must be a sequence"):
        topology_comparison(4096, families="torus")
    with pytest.raises(TypeError, match="FatTree"):
        fat_tree_summary(torus((4,)))
    with pytest.raises(TypeError, match="TopologySummary"):
        network_cost_per_host(fat_tree(16, radix=4))


# Hostile input: fuzzed with tests/fuzzing.py -----------------------------------------------------

PRICE_BOOKS = (pricebook.H100_NDR_PRICES, pricebook.H100_ETHERNET_PRICES)

FAMILIES = ("fat tree", "rail-optimized fat tree", "rail-only", "dragonfly", "direct-connect", "torus")


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


def comparison_is_sound(result, kwargs):
    assert len(result.summaries) == len(result.cost_per_host_usd) == len(result.rows())
    for summary, cost in zip(result.summaries, result.cost_per_host_usd):
        summary_is_sound(summary)
        assert summary.hosts >= kwargs["hosts"] and cost > 0


radix = mixed(rarely(st.sampled_from([4, 8, 16, 32, 64, 128, 256]),
                     st.one_of(st.integers(1, 2 ** 40).map(lambda half: 2 * half), st.integers(2, 2 ** 40))))

rate = optional(positive(1e-3, 1e25))

summaries = mixed(st.one_of(
    trees().map(topology.fat_tree_summary),
    st.builds(lambda nodes, rails, radix: topology.rail_only(nodes, rails, radix=radix).summary(),
              st.integers(1, 1024), st.sampled_from([1, 2, 4, 8]), st.sampled_from([16, 64])),
    st.builds(lambda hosts: topology.direct_connect(hosts, radix=16).summary(), st.integers(129, 1024)),
    st.builds(lambda shape: topology.dragonfly(*shape).summary(), st.tuples(*[st.integers(1, 8)] * 3)),
    st.builds(lambda shape: topology.torus(shape).summary(), st.lists(st.integers(2, 16), min_size=1, max_size=3))))

FUZZ_CASES = [
    Case(topology.topology_comparison, dict(
        hosts=mixed(rarely(st.integers(2, 20_000), st.integers(2, 2 ** 53))),
        radix=mixed(rarely(st.sampled_from([16, 32, 64, 128]), radix)), rails=mixed(st.sampled_from([1, 2, 4, 8])),
        port_bytes_per_s=rate, prices=mixed(st.sampled_from(PRICE_BOOKS)),
        estimate=choice(tuple(pricebook.ESTIMATES)),
        families=optional(mixed(st.lists(choice(FAMILIES), max_size=3)))),
         check=comparison_is_sound),
    Case(topology.network_cost_per_host, dict(summary=summaries, prices=mixed(st.sampled_from(PRICE_BOOKS)),
                                              estimate=choice(tuple(pricebook.ESTIMATES))), examples=0.5),
]


# Hostile input -----------------------------------------------------------------------------------

@pytest.mark.usefixtures("warnings_are_errors")
@pytest.mark.parametrize(("call", "error", "message"), [
    (lambda: topology.fat_tree_summary(topology.fat_tree(8, radix=4), name=math.nan), TypeError, "name must be a str"),
    # the price book was read only after building (an AttributeError when no family was built)
    (lambda: topology.topology_comparison(64, radix=8, prices=0), TypeError, "prices must be a PriceBook"),
    (lambda: topology.topology_comparison(64, radix=8, estimate="middle"), ValueError, "unknown"),
    (lambda: topology.topology_comparison(64, radix=8, families=[]), ValueError,
     "families must name at least one family"),
    (lambda: topology.topology_comparison(64, radix=8, families=[["torus"]]), ValueError, r"unknown family \['torus'\]"),
])
def test_topology_comparison_inputs(call, error, message):
    with pytest.raises(error, match=message):
        call()

test_fuzz, test_fuzz_nightly = make_tests(FUZZ_CASES)
