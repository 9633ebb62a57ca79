"""Topology: NVLink domains and fat trees, against published counts and identities."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from interconnect_lab import catalog
from interconnect_lab import units as u
from interconnect_lab.published import (
    NVLINK_DOMAIN_FIGURES,
    SUPERPOD_B200_LARGER,
    SUPERPOD_B300_XDR_TABLE3,
    SUPERPOD_H100_TABLE4,
)
from interconnect_lab.topology import PATHS, fat_tree, nvlink_domain, scale_up_domain

RADICES = [4, 6, 8, 16, 24, 48, 64, 128]


# Al-Fares, Loukissas, Vahdat, SIGCOMM 2008: k-port switches --------------------------------

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


# NVIDIA DGX SuperPOD compute fabrics (rail-optimized, 8 rails per DGX) --------------------

RAILS = catalog.system("DGX H100").nics


def assert_reproduces(row, tree):
    core = (row.core_switches,) if row.core_switches else ()
    assert tree.switches_per_tier == (row.leaf_switches, row.spine_switches) + core
    spine_core = (row.spine_core_cables,) if row.core_switches else ()
    assert tree.links_per_tier == (row.node_leaf_cables, row.leaf_spine_cables) + spine_core
    assert tree.rail_groups == row.scalable_units


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


# Identities -------------------------------------------------------------------------------

# (radix, oversubscription) pairs a leaf can split into whole ports.
radix_and_ratio = st.sampled_from([(64, 1.0), (64, 3.0), (64, 7.0), (64, 1.0 / 3 * 5), (48, 2.0),
                                   (40, 1.5), (144, 1.0), (144, 2.0), (16, 1.0), (8, 3.0)])


def valid_tree(hosts, radix, ratio, rails):
    """A tree for ``hosts``, capped at the most the deepest buildable tree takes."""
    deepest = 3 if rails <= radix // 2 else 2
    limit = fat_tree(1, radix=radix, oversubscription=ratio, rails=rails, tiers=deepest).max_hosts
    return fat_tree(min(hosts, limit), radix=radix, oversubscription=ratio, rails=rails)


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


# NVLink domains -------------------------------------------------------------------------

def test_dgx_h100_domain():
    dgx = nvlink_domain("DGX H100")
    assert dgx.gpus == 8 and dgx.switch_chips == 4 and dgx.links_per_gpu == 18
    assert dgx.links == 144
    assert dgx.per_gpu_per_direction_bytes_per_s == pytest.approx(450 * u.GB_per_s)
    assert max(dgx.switch_ports_used) <= catalog.switch("NVSwitch 3").ports


def test_gb200_nvl72_domain():
    nvl72 = nvlink_domain("GB200 NVL72")
    assert (nvl72.gpus, nvl72.switch_chips, nvl72.links) == (72, 18, 1296)
    assert nvl72.per_gpu_per_direction_bytes_per_s == pytest.approx(900 * u.GB_per_s)
    assert nvl72.total_per_direction_bytes_per_s == pytest.approx(64.8 * u.TB_per_s)
    assert nvl72.switch_ports_used == (catalog.switch("NVLink Switch chip").ports,) * 18


@pytest.mark.parametrize("figure", NVLINK_DOMAIN_FIGURES, ids=lambda f: f.system)
def test_nvidia_headline_nvlink_figures(figure):
    # DGX H100 bisection 3.6 TB/s (exact); NVL72 "130 TB/s" is 72 x 1.8 TB/s = 129.6, rounded.
    domain = nvlink_domain(figure.system)
    per_direction = {"bisection": domain.bisection_per_direction_bytes_per_s,
                     "total": domain.total_per_direction_bytes_per_s}[figure.quantity]
    assert u.both_directions(per_direction) == pytest.approx(figure.both_directions_bytes_per_s, rel=0.005)


def test_scale_up_domain_checks_its_wiring():
    with pytest.raises(ValueError, match=r"gives 20 links per GPU, but a NVLink 4 GPU has 18"):
        scale_up_domain(8, (5, 5, 5, 5), "NVLink 4")
    with pytest.raises(ValueError, match=r"links_per_gpu_per_chip\[1\] = 0 is not valid"):
        scale_up_domain(8, (5, 0), "NVLink 4")
    with pytest.raises(TypeError, match="sequence of whole numbers"):
        scale_up_domain(8, 18, "NVLink 4")
    with pytest.raises(ValueError, match="unknown NVLink domain 'DGX A100'"):
        nvlink_domain("DGX A100")


# Bad input ------------------------------------------------------------------------------

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


# Figures ----------------------------------------------------------------------------------

def test_fat_tree_figures_label_their_axes():
    mpl = pytest.importorskip("matplotlib")
    from interconnect_lab.plotting.topology import fat_tree_plot, switch_count_plot

    before = dict(mpl.rcParams)
    ax = fat_tree_plot(fat_tree(16, radix=4, tiers=3))
    assert [t.get_text() for t in ax.get_yticklabels()] == ["hosts", "leaf", "spine", "core"]
    assert len(ax.get_lines()) == 16 + 8 * 2 + 8 * 2  # host, leaf-spine and spine-core links
    with pytest.raises(ValueError, match="too large to draw"):
        fat_tree_plot(fat_tree(10_000, radix=64))
    ax = switch_count_plot([fat_tree(h, radix=64, rails=8) for h in (64, 512, 4096, 16384)])
    assert ax.get_xscale() == "log"
    assert "[-]" in ax.get_xlabel() and "[-]" in ax.get_ylabel()
    assert dict(mpl.rcParams) == before
