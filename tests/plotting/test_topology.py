"""Tests of ``interconnect_lab.plotting.topology``: figures for :mod:`interconnect_lab.topology`: fat
trees, the designs beyond them, NVSwitch domains.
"""

import pytest

pytest.importorskip("matplotlib")

import matplotlib as mpl

from interconnect_lab import catalog, topology
from interconnect_lab.plotting.topology import (
    FAMILY_COLORS, dragonfly_plot, nvlink_domain_plot, topology_comparison_plot,
)
from interconnect_lab.topology import PathLatency, dragonfly, fat_tree, path_latency, topology_comparison


def test_domain_diagram_draws_every_gpu_chip_pair():
    before = dict(mpl.rcParams)
    dgx = topology.nvlink_domain("DGX H100")
    ax = nvlink_domain_plot(dgx, switch_ports=catalog.switch("NVSwitch 3").ports)
    assert len(ax.lines) == dgx.gpus * dgx.switch_chips
    texts = [t.get_text() for t in ax.texts]
    assert texts.count("5") == 2 and texts.count("4") == 2           # the first GPU's 5+5+4+4 links
    assert "40 of 64 ports" in texts and "32 of 64 ports" in texts
    assert "144 links" in ax.get_title(loc="left")
    assert dict(mpl.rcParams) == before
    nvl72 = nvlink_domain_plot(topology.nvlink_domain("GB200 NVL72"), switch_ports=72)
    assert "1296 links" in nvl72.get_title(loc="left")


def test_comparison_plot_one_bar_per_design_and_no_global_state():
    before = dict(mpl.rcParams)
    table = topology_comparison(4096)
    figure = topology_comparison_plot(table)
    axes = figure.axes
    assert len(axes) == 3
    for ax, values in zip(axes, ([s.diameter_hops for s in table.summaries],
                                 [s.bisection_ratio for s in table.summaries],
                                 [c / 1e3 for c in table.cost_per_host_usd])):
        widths = [p.get_width() for p in ax.patches]
        assert widths == pytest.approx(values)
        assert "[" in ax.get_xlabel()  # a unit on every axis
    colors = {tuple(p.get_facecolor()) for p in axes[0].patches}
    assert len(colors) == len(set(s.family for s in table.summaries))
    assert set(s.family for s in table.summaries) <= set(FAMILY_COLORS)
    assert dict(mpl.rcParams) == before


def test_dragonfly_plot_draws_every_link():
    d = dragonfly(1, 3, 1)   # 4 groups of 3 routers, one global link per group pair
    ax = dragonfly_plot(d)
    global_links = d.global_links
    local_links = d.local_links
    drawn = [line for line in ax.lines if len(line.get_xdata()) == 2]
    assert len(drawn) == global_links + local_links
    with pytest.raises(ValueError, match="at most 24 groups"):
        dragonfly_plot(dragonfly(4, 8, 4))


def test_topology_flow_plot_colours_by_family():
    from interconnect_lab.fabric import dragonfly_network, permutation, simulate_direct, torus_network
    from interconnect_lab.plotting.topology import topology_flow_plot
    from interconnect_lab.topology import torus
    fly = dragonfly(1, 2, 1)
    traffic = permutation(fly.hosts, 1.0, seed=0)
    net = dragonfly_network(fly, link_capacity_bytes_per_s=1.0)
    runs = {"dragonfly, minimal": simulate_direct(net, traffic), "dragonfly, Valiant": simulate_direct(net, traffic, "valiant"),
            "torus, dimension order": simulate_direct(torus_network(torus((6,)), link_capacity_bytes_per_s=1.0), traffic)}
    ax = topology_flow_plot(runs)
    lines = ax.get_lines()
    assert [line.get_linestyle() for line in lines] == ["-", "--", "-"]
    assert lines[0].get_color() == lines[1].get_color() == FAMILY_COLORS["dragonfly"]
    assert lines[2].get_color() == FAMILY_COLORS["torus"]
    assert max(lines[1].get_xdata()) == pytest.approx(runs["dragonfly, Valiant"].completion_time_s * 1e3)
    with pytest.raises(ValueError, match="at least one"):
        topology_flow_plot({})


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
