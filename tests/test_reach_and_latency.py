"""Fat-tree reach (max_hosts), one-way latency (path_latency) and their published inputs."""

import dataclasses

import pytest
from hypothesis import given
from hypothesis import strategies as st

from interconnect_lab import catalog, cost
from interconnect_lab import units as u
from interconnect_lab.published import LATENCY_ESTIMATES, LatencyEstimate
from interconnect_lab.topology import PathLatency, fat_tree, max_hosts, path_latency


# max_hosts: Al-Fares et al. 2008, k^2/2 and k^3/4 -------------------------------------------

@pytest.mark.parametrize("k", [4, 8, 40, 64, 144, 256])
def test_max_hosts_is_al_fares(k):
    assert max_hosts(k, 1) == k
    assert max_hosts(k, 2) == k**2 // 2
    assert max_hosts(k, 3) == k**3 // 4


def test_max_hosts_for_catalog_switches():
    # 2,048 two-tier ports on Quantum-2 is also what ComputerBase printed (hardware.md §4b).
    assert max_hosts(catalog.switch("Quantum-2 QM9700").ports, 2) == 2048
    assert max_hosts(catalog.switch("Quantum-X800 Q3400").ports, 2) == 10_368


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


# path_latency -------------------------------------------------------------------------------

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


# The published latency parts, against the published round trips they add up to -------------

def _one_way(end, *, kernel):
    part = {k: v.at(end) for k, v in LATENCY_ESTIMATES.items()}
    software = 2 * part["application post or receive"] + (part["kernel TCP/IP stack"] if kernel else 0.0)
    return path_latency(1, software_s=software, nic_s=2 * part["NIC transmit or receive path (RDMA)"],
                        switch_latency_s=catalog.switch("Quantum QM8700").latency_s)


def test_latency_parts_add_up_to_the_published_round_trips():
    # Kentino's breakdown: RDMA through one switch "~2 us" round trip, kernel TCP 20-60 us. The
    # parts at their low ends reproduce the first within 10 %; kernel TCP lands in its range.
    rdma = LATENCY_ESTIMATES["RDMA round trip through one switch"]
    assert 2 * _one_way("low", kernel=False).total_s == pytest.approx(rdma.low_s, rel=0.10)
    tcp = LATENCY_ESTIMATES["kernel TCP round trip"]
    assert tcp.low_s <= 2 * _one_way("low", kernel=True).total_s <= tcp.high_s
    assert tcp.low_s <= 2 * _one_way("central", kernel=True).total_s <= tcp.high_s


def test_latency_estimates_are_labelled_estimates():
    for estimate in LATENCY_ESTIMATES.values():
        assert estimate.source.estimate  # secondary: the book must say so
        assert estimate.at("low") <= estimate.at("central") <= estimate.at("high")
    with pytest.raises(ValueError, match="valid values are"):
        LatencyEstimate(part="x", low_s=0, high_s=1, per="rack",
                        source=LATENCY_ESTIMATES["kernel TCP round trip"].source)
    with pytest.raises(ValueError, match="unknown end"):
        LATENCY_ESTIMATES["kernel TCP round trip"].at("median")


# cluster_cost with a what-if switch ---------------------------------------------------------

def test_cluster_cost_takes_a_what_if_switch():
    qm9700 = catalog.switch("Quantum-2 QM9700")
    assert cost.cluster_cost(1016).switch_power_w is None  # the catalog has no sourced power
    guess = dataclasses.replace(qm9700, power_w=1_000.0)
    with_power = cost.cluster_cost(1016, switch=guess)
    assert with_power.switch_power_w == pytest.approx(48 * 1_000.0)
    assert with_power.unknown_power == ()
    assert with_power.total_usd == cost.cluster_cost(1016).total_usd
    renamed = dataclasses.replace(qm9700, name="QM9700 what-if")
    with pytest.raises(ValueError, match="prices switch 'Quantum-2 QM9700', not 'QM9700 what-if'"):
        cost.cluster_cost(1016, switch=renamed)


# Figures ------------------------------------------------------------------------------------

def test_reach_latency_and_generation_figures_label_their_axes():
    mpl = pytest.importorskip("matplotlib")
    from interconnect_lab.plotting.catalog import link_generations_plot
    from interconnect_lab.plotting.topology import latency_breakdown_plot, max_hosts_plot

    before = dict(mpl.rcParams)
    ax = max_hosts_plot(range(8, 130, 2), switches=[catalog.switch("Quantum-2 QM9700")],
                        marks=[("10,000 GPUs", 10_000)])
    assert "[ports]" in ax.get_xlabel() and ax.get_yscale() == "log"
    assert len(ax.get_lines()) == 2 + 2 + 1  # two curves, a marker on each, one mark
    t = path_latency(3, software_s=1e-6, nic_s=1e-6, switch_latency_s=1e-7)
    ax = latency_breakdown_plot({"a": t, "b": t}, low={"a": t, "b": t}, high={"a": t, "b": t})
    assert "[µs]" in ax.get_xlabel()
    assert len(ax.patches) == 2 * len(PathLatency.PARTS)
    links = [l for l in catalog.LINKS.values() if l.family in ("InfiniBand", "Ethernet")]
    ax = link_generations_plot(links)
    assert "[Gb/s]" in ax.get_ylabel() and "one direction" in ax.get_ylabel()
    assert {t.get_text() for t in ax.texts} >= {"EDR", "HDR", "NDR", "XDR", "800G"}
    with pytest.raises(ValueError):
        link_generations_plot([])
    with pytest.raises(TypeError):
        latency_breakdown_plot({"a": 1.0})
    assert dict(mpl.rcParams) == before  # no global style change
