"""Topologies beyond the fat tree: dragonfly, torus, rail-only, direct-connect, and the comparison table."""

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from interconnect_lab import units as u
from interconnect_lab.pricebook import H100_NDR_PRICES
from interconnect_lab.topology import (
    JUPITER_REPORTED, RAIL_ONLY_REPORTED, SLINGSHOT, TPU_V4, TopologySummary, direct_connect, dragonfly,
    dragonfly_max_hosts, fat_tree, fat_tree_summary, network_cost_per_host, rail_only, topology_comparison,
    torus,
)


# Published values ---------------------------------------------------------------------------

def test_dragonfly_max_size_is_kim_formula():
    # Kim et al., ISCA 2008, section 3: g = a h + 1 groups, N = a p (a h + 1) terminals.
    for p, a, h in ((4, 8, 4), (2, 4, 2), (16, 32, 17)):
        d = dragonfly(p, a, h)
        assert d.groups == a * h + 1
        assert d.hosts == a * p * (a * h + 1) == dragonfly_max_hosts(p, a, h)
        assert d.links_per_group_pair == 1
        assert d.unused_global_ports == 0


def test_slingshot_rosetta_wiring():
    # Rosetta: 64 ports (16 + 31 + 17), 545 groups of 512 endpoints (Lockwood's notes), 3 hops (ALCF).
    d = dragonfly(SLINGSHOT["terminals_per_router"], SLINGSHOT["routers_per_group"],
                  SLINGSHOT["global_links_per_router"], port_bytes_per_s=SLINGSHOT["port_bytes_per_s"])
    assert d.radix == 64
    assert d.groups == 545 and d.hosts_per_group == 512
    assert d.hosts == 545 * 512 == 279_040
    assert d.diameter_hops == 3 and d.valiant_diameter_hops == 5
    assert d.port_bytes_per_s * 64 == pytest.approx(12.8 * u.Tbit_per_s)  # 12.8 Tb/s per direction
    assert all(s.url or s.doi for s in SLINGSHOT["sources"])


def test_tpu_v4_torus_and_ocs_counts():
    # Jouppi et al. ISCA 2023 / HPCwire: 4,096 chips, 64 racks (4x4x4 cubes), 48 OCS.
    t = torus(TPU_V4["dimensions"], cube=TPU_V4["cube"])
    assert t.chips == 4096
    assert t.cubes == 64
    assert t.circuit_switches == TPU_V4["circuit_switches_published"] == 48
    assert t.circuit_switch_ports == 128 <= 136  # Palomar OCS has 136 ports
    assert t.radix == 6  # six ICI links per chip
    assert t.optical_links == 64 * 96 // 2  # every face link of every cube, paired through an OCS
    assert t.links == 3 * 4096
    assert t.links - t.optical_links == 64 * 3 * 3 * 16  # inside a cube: 3 dims x 3 links x 16 rows


def test_al_fares_fat_tree_summary():
    # Al-Fares et al. 2008: k = 4, 16 hosts, 20 switches; k = 48, 27,648 hosts, 2,880 switches.
    small = fat_tree_summary(fat_tree(16, radix=4, tiers=3))
    assert (small.hosts, small.switches, small.bisection_ratio) == (16, 20, 1.0)
    big = fat_tree_summary(fat_tree(48 ** 3 // 4, radix=48))
    assert (big.hosts, big.switches) == (27_648, 5 * 48 ** 2 // 4)
    assert big.diameter_hops == 4 and big.diameter_links == 6


def test_reported_ranges_are_sourced():
    assert RAIL_ONLY_REPORTED["network_cost_reduction"] == (0.38, 0.77)
    assert JUPITER_REPORTED["capex_reduction"] == 0.30 and JUPITER_REPORTED["power_reduction"] == 0.41
    assert RAIL_ONLY_REPORTED["source"].url and JUPITER_REPORTED["source"].doi


# Identities -------------------------------------------------------------------------------

@settings(max_examples=60, deadline=None)
@given(p=st.integers(1, 8), a=st.integers(1, 12), h=st.integers(1, 8), data=st.data())
def test_dragonfly_port_and_link_accounting(p, a, h, data):
    g = data.draw(st.integers(2, a * h + 1))
    d = dragonfly(p, a, h, g)
    # Every global port is used or counted unused; every local port is used.
    assert 2 * d.global_links + d.unused_global_ports == d.routers * h
    assert 2 * d.local_links == d.routers * (a - 1)
    assert d.links == d.hosts + d.local_links + d.global_links
    assert d.links_per_group_pair >= 1
    s = d.summary()
    assert s.optical_links == d.global_links
    assert s.diameter_links == s.diameter_hops + 2
    assert 0 < s.worst_link_loss <= 1


@settings(max_examples=60, deadline=None)
@given(dims=st.lists(st.integers(2, 12), min_size=1, max_size=3))
def test_torus_counts(dims):
    t = torus(dims)
    n = math.prod(dims)
    assert t.chips == n
    # Every chip has `radix` link ends: 2 L = N * radix.
    assert 2 * t.links == n * t.radix
    assert t.diameter_hops == sum(k // 2 for k in dims)
    assert t.average_hops <= t.diameter_hops
    assert 0 < t.bisection_links <= t.links


def test_torus_ring_by_hand():
    ring = torus((8,))
    assert (ring.links, ring.diameter_hops, ring.bisection_links, ring.radix) == (8, 4, 2, 2)
    assert ring.average_hops == pytest.approx((0 + 1 + 2 + 3 + 4 + 3 + 2 + 1) / 8)


def test_direct_connect_removes_the_core_and_half_the_top_links():
    d = direct_connect(8192, radix=64)
    clos = d.clos
    assert d.switches == clos.switches - clos.cores
    assert d.block_links <= clos.links_per_tier[2] // 2
    assert d.links_per_block_pair * (d.blocks - 1) <= d.uplinks_per_block
    # Half the blocks times half the blocks times t links cross the bisection.
    assert d.bisection_links == 4 * 4 * d.links_per_block_pair
    ocs = direct_connect(8192, radix=64, circuit_switch_ports=136)
    assert ocs.circuit_switches == math.ceil(2 * ocs.block_links / 136)


def test_rail_only_is_rails_separate_trees():
    r = rail_only(1024, 8, radix=64)
    assert r.hosts == 8192
    assert r.switches == 8 * (32 + 16)
    optimized = fat_tree(8192, radix=64, rails=8)
    assert r.switches < optimized.switches
    assert r.summary().diameter_hops < fat_tree_summary(optimized).diameter_hops


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


# Bad input ----------------------------------------------------------------------------------

@pytest.mark.parametrize("call, message", [
    (lambda: dragonfly(0, 4, 2), "terminals_per_router = 0"),
    (lambda: dragonfly(2, 4, 2, groups=10), "groups = 10"),
    (lambda: dragonfly(2, 4, 2, port_bytes_per_s=-1), "port_bytes_per_s"),
    (lambda: torus((1, 4)), r"dimensions\[0\] = 1"),
    (lambda: torus((4, 4, 4, 4)), "1, 2 or 3"),
    (lambda: torus((8, 8), cube=(3, 4)), "must divide"),
    (lambda: direct_connect(100, radix=64), "needs >= 2"),
    (lambda: topology_comparison(4096, families=["mesh"]), "unknown family 'mesh'"),
    (lambda: topology_comparison(1), "hosts = 1"),
])
def test_bad_input_names_the_parameter(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_bad_types():
    with pytest.raises(TypeError, match="dimensions must be a sequence"):
        torus("16x16")
    with pytest.raises(TypeError, match="families must be a sequence"):
        topology_comparison(4096, families="torus")
    with pytest.raises(TypeError, match="FatTree"):
        fat_tree_summary(torus((4,)))
    with pytest.raises(TypeError, match="TopologySummary"):
        network_cost_per_host(fat_tree(16, radix=4))


def test_summary_validates_itself():
    good = fat_tree_summary(fat_tree(16, radix=4))
    import dataclasses
    with pytest.raises(ValueError, match="optical_links"):
        dataclasses.replace(good, optical_links=good.links + 1)
    with pytest.raises(ValueError, match="worst_link_loss"):
        dataclasses.replace(good, worst_link_loss=1.5)
    assert isinstance(good, TopologySummary)
