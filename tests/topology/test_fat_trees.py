"""Tests of ``interconnect_lab.topology.fat_trees``: fat trees: folded-Clos networks of 1, 2 or 3
tiers, counted by the wiring rules.

Hostile input is at the end (and fuzzed with tests/fuzzing.py where noted).
"""

import time

import pytest
from hypothesis import given, strategies as st

from fuzzing import Case, count, make_tests, nonnegative, optional, positive

from interconnect_lab import catalog, topology, units as u
from interconnect_lab.published import (
    LATENCY_ESTIMATES, SUPERPOD_B200_LARGER, SUPERPOD_B300_XDR_TABLE3, SUPERPOD_H100_TABLE4, LatencyEstimate,
)
from interconnect_lab.topology import PATHS, PathLatency, fat_tree, max_hosts, path_latency


@pytest.mark.parametrize("k", [4, 8, 40, 64, 144, 256])
def test_max_hosts_is_al_fares(k):
    assert max_hosts(k, 1) == k
    assert max_hosts(k, 2) == k**2 // 2
    assert max_hosts(k, 3) == k**3 // 4


@given(k=st.sampled_from([8, 16, 32, 40, 64, 128, 144]), ratio=st.sampled_from([1.0, 3.0, 7.0]),
       rails=st.sampled_from([1, 2, 4]), tiers=st.sampled_from([2, 3]))
def test_max_hosts_is_what_fat_tree_accepts(k, ratio, rails, tiers):
    limit = max_hosts(k, tiers, oversubscription=ratio, rails=rails)
    assert fat_tree(limit, radix=k, tiers=tiers, oversubscription=ratio, rails=rails).max_hosts == limit
    with pytest.raises(ValueError, match="is not valid"):
        fat_tree(limit + rails, radix=k, tiers=tiers, oversubscription=ratio, rails=rails)


def test_oversubscription_raises_the_reach():
    assert max_hosts(64, 2, oversubscription=3) == 3 * max_hosts(64, 2) // 2
    assert max_hosts(64, 3, oversubscription=7) > max_hosts(64, 3)


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"radix": 63, "tiers": 2}, r"radix = 63 is not valid"),
    ({"radix": 64, "tiers": 4}, r"tiers = 4 is not valid"),
    ({"radix": 64, "tiers": 1, "oversubscription": 3}, r"not valid for a 1-tier tree"),
    ({"radix": 64, "tiers": 2, "oversubscription": 2}, r"cannot be built from radix-64"),
    ({"radix": 64, "tiers": 3, "rails": 40}, r"rails = 40 is not valid for a 3-tier tree"),
])
def test_max_hosts_bad_input(kwargs, message):
    with pytest.raises(ValueError, match=message):
        max_hosts(**kwargs)


def test_path_latency_adds_its_parts():
    t = path_latency(3, software_s=1 * u.us, nic_s=1.2 * u.us, switch_latency_s=130 * u.ns,
                     link_latency_s=10 * u.ns)
    assert isinstance(t, PathLatency)
    assert t.switches_s == pytest.approx(390 * u.ns)
    assert t.links_s == pytest.approx(40 * u.ns)
    assert t.total_s == pytest.approx(1 * u.us + 1.2 * u.us + 430 * u.ns)
    assert t.fabric_s == pytest.approx(430 * u.ns)
    assert list(t.parts_s) == list(PathLatency.PARTS)
    assert sum(t.parts_s.values()) == pytest.approx(t.total_s)


def test_path_latency_agrees_with_the_fat_tree():
    tree = fat_tree(10_000, switch="Quantum-2 QM9700", rails=8)
    for where in ("same leaf", "same pod", "across core"):
        t = path_latency(tree.switch_hops(where), software_s=0, nic_s=0, switch_latency_s=130 * u.ns,
                         link_latency_s=25 * u.ns)
        assert t.total_s == pytest.approx(tree.latency_s(where, switch_latency_s=130 * u.ns,
                                                         link_latency_s=25 * u.ns))


@given(hops=st.integers(0, 7), switch=st.floats(0, 1e-6), extra=st.floats(1e-9, 1e-6))
def test_more_hops_or_slower_switches_never_help(hops, switch, extra):
    base = path_latency(hops, software_s=1e-6, nic_s=1e-6, switch_latency_s=switch)
    assert path_latency(hops + 1, software_s=1e-6, nic_s=1e-6, switch_latency_s=switch).total_s >= base.total_s
    assert path_latency(hops, software_s=1e-6, nic_s=1e-6,
                        switch_latency_s=switch + extra).total_s >= base.total_s


@pytest.mark.parametrize(("kwargs", "error", "message"), [
    ({"switch_hops": -1}, ValueError, r"switch_hops = -1 is not valid"),
    ({"switch_hops": 1.5}, TypeError, r"switch_hops must be a whole number"),
    ({"software_s": -1e-6}, ValueError, r"software_s = -1e-06 s is not valid"),
    ({"switch_latency_s": float("nan")}, ValueError, r"switch_latency_s = nan s is not valid"),
])
def test_path_latency_bad_input(kwargs, error, message):
    args = dict(switch_hops=1, software_s=1e-6, nic_s=1e-6, switch_latency_s=1e-7) | kwargs
    hops = args.pop("switch_hops")
    with pytest.raises(error, match=message):
        path_latency(hops, **args)


def test_latency_estimates_are_labelled_estimates():
    for estimate in LATENCY_ESTIMATES.values():
        assert estimate.source.estimate  # secondary: the book must say so
        assert estimate.at("low") <= estimate.at("central") <= estimate.at("high")
    with pytest.raises(ValueError, match="valid values are"):
        LatencyEstimate(part="x", low_s=0, high_s=1, per="rack",
                        source=LATENCY_ESTIMATES["kernel TCP round trip"].source)
    with pytest.raises(ValueError, match="unknown end"):
        LATENCY_ESTIMATES["kernel TCP round trip"].at("median")


RADICES = [4, 6, 8, 16, 24, 48, 64, 128]

RAILS = catalog.system("DGX H100").nics


def assert_reproduces(row, tree):
    core = (row.core_switches,) if row.core_switches else ()
    assert tree.switches_per_tier == (row.leaf_switches, row.spine_switches) + core
    spine_core = (row.spine_core_cables,) if row.core_switches else ()
    assert tree.links_per_tier == (row.node_leaf_cables, row.leaf_spine_cables) + spine_core
    assert tree.rail_groups == row.scalable_units


# (radix, oversubscription) pairs a leaf can split into whole ports.
radix_and_ratio = st.sampled_from([(64, 1.0), (64, 3.0), (64, 7.0), (64, 1.0 / 3 * 5), (48, 2.0),
                                   (40, 1.5), (144, 1.0), (144, 2.0), (16, 1.0), (8, 3.0)])


def valid_tree(hosts, radix, ratio, rails):
    """A tree for ``hosts``, capped at the most the deepest buildable tree takes."""
    deepest = 3 if rails <= radix // 2 else 2
    limit = fat_tree(1, radix=radix, oversubscription=ratio, rails=rails, tiers=deepest).max_hosts
    return fat_tree(min(hosts, limit), radix=radix, oversubscription=ratio, rails=rails)


@pytest.mark.parametrize("k", RADICES)
def test_al_fares_three_tier_counts(k):
    # p. 66: "a fat-tree built with k-port switches supports k^3/4 hosts"; k pods of k/2 edge
    # and k/2 aggregation switches, (k/2)^2 core switches: 5k^2/4 in all.
    tree = fat_tree(k**3 // 4, radix=k, tiers=3)
    assert tree.max_hosts == k**3 // 4
    assert tree.switches_per_tier == (k * k // 2, k * k // 2, k * k // 4)
    assert tree.switches == 5 * k * k // 4
    assert tree.pods == k
    assert tree.leaf_spine_parallel_links == tree.spine_core_parallel_links == 1


@pytest.mark.parametrize("k", RADICES)
def test_two_tier_leaf_spine_counts(k):
    # k leaves with k/2 hosts each, k/2 spines: k^2/2 hosts on 3k/2 switches.
    tree = fat_tree(k**2 // 2, radix=k, tiers=2)
    assert tree.max_hosts == k**2 // 2
    assert tree.switches_per_tier == (k, k // 2)
    assert tree.switches == 3 * k // 2


@pytest.mark.parametrize("k", RADICES)
def test_fewest_tiers_that_fit(k):
    assert fat_tree(k, radix=k).tiers == 1
    assert fat_tree(k + 1, radix=k).tiers == 2
    assert fat_tree(k**2 // 2, radix=k).tiers == 2
    assert fat_tree(k**2 // 2 + 1, radix=k).tiers == 3


def test_catalog_switch_radices():
    # hardware.md section 6: QM9700 (k = 64) 2,048 and 65,536 hosts; Quantum-X800 (k = 144)
    # 10,368 and 746,496. The 2-tier figure matches ComputerBase's "2,048 ports".
    for name in ("Quantum-2 QM9700", "Quantum-X800 Q3400"):
        k = catalog.switch(name).ports
        assert fat_tree(1, switch=name, tiers=2).max_hosts == k**2 // 2
        assert fat_tree(1, switch=name, tiers=3).max_hosts == k**3 // 4
    assert fat_tree(1, switch="Quantum-2 QM9700", tiers=3).max_hosts == 65_536


@pytest.mark.parametrize("row", SUPERPOD_H100_TABLE4, ids=lambda r: f"{r.scalable_units}SU")
def test_superpod_h100_table4(row):
    # Table 4: the first cable column counts the DGX ports and 4 UFM appliance links
    # (one DGX slot is given up for UFM, so 31 nodes per 32-node SU). No core up to 4 SU.
    assert row.node_leaf_cables - row.gpus == 4
    assert row.gpus == RAILS * row.nodes
    tree = fat_tree(row.node_leaf_cables, switch="Quantum-2 QM9700", rails=RAILS)
    assert tree.tiers == 2
    assert tree.nodes == 32 * row.scalable_units
    assert_reproduces(row, tree)


def test_superpod_h100_three_su_spines_follow_even_spreading():
    # 24 leaves x 32 up-links fit on 12 spines, but NVIDIA uses 16: every leaf-spine pair
    # then carries the same 2 links (wiring rule 3).
    tree = fat_tree(SUPERPOD_H100_TABLE4[2].node_leaf_cables, switch="Quantum-2 QM9700", rails=RAILS)
    assert tree.spines == 16 and tree.leaf_spine_parallel_links == 2


@pytest.mark.parametrize("row", SUPERPOD_B200_LARGER, ids=lambda r: f"{r.scalable_units}SU")
def test_superpod_b200_larger_table(row):
    # DGX B200 on NDR (64-port) switches: a core tier from 16 SU (4,096 GPUs) on.
    assert row.gpus == row.node_leaf_cables == RAILS * row.nodes
    tree = fat_tree(row.gpus, switch="Quantum-2 QM9700", rails=RAILS)
    assert tree.tiers == (3 if row.core_switches else 2)
    assert_reproduces(row, tree)


@pytest.mark.parametrize("row", SUPERPOD_B300_XDR_TABLE3, ids=lambda r: f"{r.scalable_units}SU")
def test_superpod_b300_xdr_table3(row):
    # 144-port XDR switches, 72 nodes per SU; the 4-SU and 8-SU rows (18 and 36 spines) are
    # the even-spreading rule again. The 18-SU row prints 9,216 GPUs; its nodes and cables
    # say 10,368, which is what the fabric carries.
    assert row.node_leaf_cables == RAILS * row.nodes
    tree = fat_tree(row.node_leaf_cables, switch="Quantum-X800 Q3400", rails=RAILS)
    assert tree.tiers == 2
    assert_reproduces(row, tree)


@given(st.integers(1, 10**6), radix_and_ratio, st.sampled_from([1, 2, 4, 8]))
def test_counts_are_consistent(hosts, radix_ratio, rails):
    radix, ratio = radix_ratio
    tree = valid_tree(hosts, radix, ratio, rails)
    k = tree.radix
    assert tree.hosts <= tree.max_hosts
    assert tree.leaf_down_ports + tree.leaf_up_ports == k
    if tree.tiers >= 2:
        assert tree.leaf_down_ports == pytest.approx(tree.oversubscription * tree.leaf_up_ports)
    assert tree.hosts <= tree.leaves * tree.leaf_down_ports
    assert tree.leaves % tree.rails == 0 or tree.tiers == 1
    assert tree.cables == sum(tree.links_per_tier)
    assert tree.transceivers == 2 * tree.cables == tree.host_transceivers + tree.switch_transceivers
    if tree.tiers >= 2:
        # Every leaf-spine pair of a pod carries the same links; no switch runs out of ports.
        assert tree.leaf_spine_parallel_links * tree.spines_per_pod == tree.leaf_up_ports
        spine_down = k if tree.tiers == 2 else k // 2
        assert tree.leaves_per_pod * tree.leaf_spine_parallel_links <= spine_down
    if tree.tiers == 3:
        assert tree.spine_core_parallel_links * tree.cores_per_group == k // 2
        assert tree.pods * tree.spine_core_parallel_links <= k
        assert tree.links_per_tier[2] <= tree.cores * k


@given(st.integers(1, 70_000), st.integers(1, 70_000), st.sampled_from([1, 8]),
       st.sampled_from([1.0, 3.0]))
def test_switch_count_grows_with_hosts(a, b, rails, ratio):
    small, large = sorted((a, b))
    limit = fat_tree(1, radix=64, rails=rails, oversubscription=ratio, tiers=3).max_hosts
    small, large = min(small, limit), min(large, limit)
    first = fat_tree(small, radix=64, rails=rails, oversubscription=ratio)
    second = fat_tree(large, radix=64, rails=rails, oversubscription=ratio)
    assert first.switches <= second.switches
    assert first.cables <= second.cables


@pytest.mark.parametrize("tiers", [1, 2, 3])
@pytest.mark.parametrize("leaves", [1, 2, 5, 32])
def test_non_blocking_bisection_is_half_the_host_bandwidth(tiers, leaves):
    port = 400 * u.Gbit_per_s
    hosts = 64 if tiers == 1 else leaves * 32
    tree = fat_tree(hosts, radix=64, tiers=tiers, port_bytes_per_s=port)
    assert tree.bisection_bytes_per_s == pytest.approx(hosts * port / 2)


@pytest.mark.parametrize("ratio", [3.0, 7.0, 15.0])
@pytest.mark.parametrize("tiers", [2, 3])
def test_oversubscription_divides_bisection(ratio, tiers):
    # Hosts that fill whole leaves both without and with oversubscription (32 and 48, 56 or 60
    # down-ports on a 64-port leaf).
    down = 64 - 64 / (1 + ratio)
    hosts = int(32 * down)
    port = 50 * u.GB_per_s
    full = fat_tree(hosts, radix=64, tiers=tiers, port_bytes_per_s=port)
    thin = fat_tree(hosts, radix=64, tiers=tiers, oversubscription=ratio, port_bytes_per_s=port)
    assert thin.bisection_bytes_per_s == pytest.approx(full.bisection_bytes_per_s / ratio)


def test_bisection_needs_a_port_rate():
    assert fat_tree(64, radix=64).bisection_bytes_per_s is None
    assert fat_tree(64, switch="Quantum-2 QM9700").bisection_bytes_per_s == pytest.approx(32 * 50e9)


def test_hops_and_latency():
    tree = fat_tree(10_000, switch="Quantum-2 QM9700", rails=8)
    assert [tree.switch_hops(p) for p in PATHS] == [1, 3, 5]
    assert tree.latency_s("across core", switch_latency_s=130 * u.ns) == pytest.approx(650 * u.ns)
    assert tree.latency_s("same leaf", switch_latency_s=100 * u.ns, link_latency_s=10 * u.ns) == \
        pytest.approx(120 * u.ns)
    # The catalog gives the QM8700 a sub-130 ns latency: it is used by default.
    hdr = fat_tree(400, switch="Quantum QM8700")
    assert hdr.latency_s("same pod") == pytest.approx(3 * catalog.switch("Quantum QM8700").latency_s)


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"hosts": 16, "radix": 63}, ValueError, r"radix = 63 is not valid: it must be an even whole number >= 2"),
        ({"hosts": 16, "radix": 1}, ValueError, r"radix = 1 is not valid: it must be in \[2, 65536\]"),
        ({"hosts": 16, "radix": 0}, ValueError, r"radix = 0 is not valid: it must be in \[2, 65536\]"),
        ({"hosts": -5, "radix": 64}, ValueError, r"hosts = -5 is not valid: it must be >= 1"),
        ({"hosts": 2.5, "radix": 64}, TypeError, r"hosts must be a whole number"),
        ({"hosts": 16, "radix": 64, "oversubscription": 0.5}, ValueError,
         r"oversubscription = 0.5 is not valid: it must be in \[1, 1e\+06\]"),
        ({"hosts": 16, "radix": 64, "oversubscription": 2}, ValueError,
         r"oversubscription = 2 cannot be built from radix-64 switches.*e.g. 1 \(32:32\), 3 \(48:16\)"),
        ({"hosts": 2049, "radix": 64, "tiers": 2}, ValueError,
         r"hosts = 2049 is not valid for a 2-tier fat tree of radix-64 switches.*must be <= 2048"),
        ({"hosts": 65537, "radix": 64}, ValueError,
         r"hosts = 65537 is not valid for a 3-tier fat tree of radix-64 switches.*must be <= 65536"),
        ({"hosts": 65, "radix": 64, "tiers": 1}, ValueError, r"must be <= 64"),
        ({"hosts": 16, "radix": 64, "tiers": 4}, ValueError, r"tiers = 4 is not valid: it must be in \[1, 3\]"),
        ({"hosts": 16, "radix": 64, "tiers": 1, "oversubscription": 3}, ValueError,
         r"not valid for a 1-tier tree"),
        ({"hosts": 16, "radix": 64, "rails": 40, "tiers": 3}, ValueError,
         r"rails = 40 is not valid for a 3-tier tree.*<= 32"),
        ({"hosts": 16, "radix": 64, "rails": 0}, ValueError, r"rails = 0 is not valid"),
        ({"hosts": 1000, "radix": 8, "rails": 8}, ValueError,
         r"hosts = 1000 is not valid for a 2-tier fat tree of radix-8 switches.*must be <= 32"),
        ({"hosts": 16, "radix": 64, "port_bytes_per_s": -1}, ValueError, r"port_bytes_per_s = -1 B/s"),
        ({"hosts": 16, "radix": 64, "switch": "Quantum-2 QM9700"}, TypeError, r"exactly one of radix"),
        ({"hosts": 16}, TypeError, r"exactly one of radix"),
        ({"hosts": 16, "switch": "QM9999"}, ValueError, r"unknown switch name 'QM9999'"),
    ],
)
def test_bad_input_names_parameter_value_and_range(kwargs, error, message):
    with pytest.raises(error, match=message):
        fat_tree(**kwargs)


def test_bad_paths():
    tree = fat_tree(100, radix=64)
    with pytest.raises(ValueError, match=r"unknown path 'same rack'; valid paths are: 'same leaf'"):
        tree.switch_hops("same rack")
    with pytest.raises(ValueError, match=r"a 2-tier fat tree has no 'across core' path"):
        tree.switch_hops("across core")
    with pytest.raises(ValueError, match=r"switch_latency_s is needed"):
        fat_tree(100, switch="Quantum-2 QM9700").latency_s("same leaf")
    with pytest.raises(ValueError, match=r"link_latency_s = -1 s is not valid"):
        tree.latency_s("same leaf", switch_latency_s=1e-7, link_latency_s=-1)


# Hostile input: fuzzed with tests/fuzzing.py -----------------------------------------------------

latency = nonnegative(1e-9, 1e-2)

FUZZ_CASES = [
    # topology
    Case(topology.max_hosts, dict(radix=count(2, 512), tiers=count(1, 3), oversubscription=positive(1.0, 8.0),
                                  rails=count(1, 16))),
    Case(topology.fat_tree, dict(hosts=count(1, 10 ** 7), radix=optional(count(2, 256)),
                                 tiers=optional(count(1, 3)), oversubscription=positive(1.0, 8.0),
                                 rails=count(1, 16)), examples=0.5),
    Case(topology.path_latency, dict(switch_hops=count(0, 10), software_s=latency, nic_s=latency,
                                     switch_latency_s=latency, link_latency_s=latency)),
]


# Hostile input -----------------------------------------------------------------------------------

@pytest.mark.usefixtures("warnings_are_errors")
def test_fat_tree_refuses_an_absurd_host_count_at_once():
    for hosts in (10 ** 12, 2 ** 53):
        started = time.perf_counter()
        with pytest.raises(ValueError, match=f"hosts = {hosts} is not valid"):
            topology.fat_tree(hosts, radix=64)
        assert time.perf_counter() - started < 0.1
    with pytest.raises(ValueError, match=r"hosts = 9007199254740993 is not valid: it must be <= 2\*\*53"):
        topology.fat_tree(2 ** 53 + 1, radix=64)


@pytest.mark.usefixtures("warnings_are_errors")
@pytest.mark.parametrize(("hosts", "radix"), [(2 ** 40, 2 ** 14), (400_000, 128)])
def test_a_fat_tree_network_has_a_documented_size_limit(hosts, radix):
    # 2**40 hosts: minutes of allocation, then a MemoryError, before
    from interconnect_lab import fabric
    tree = topology.fat_tree(hosts, radix=radix, tiers=3)
    started = time.process_time()
    with pytest.raises(ValueError, match=r"^tree has \d+ hosts and would make a network of \d+ directed links: the "
                                         r"simulator's networks must have at most MAX_LINKS = 2097152"):
        fabric.Network(tree, nic_capacity_bytes_per_s=50e9)
    assert time.process_time() - started < 0.1

test_fuzz, test_fuzz_nightly = make_tests(FUZZ_CASES)
