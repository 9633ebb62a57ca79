"""Chapters 13 and 14: figures built from model results, and panels that show what the model computes."""

import matplotlib as mpl
import pytest

from interconnect_lab import roadmap
from interconnect_lab import units as u
from interconnect_lab.plotting.roadmap import fat_tree_reach_plot, scale_up_plot
from interconnect_lab.plotting.topology import FAMILY_COLORS, dragonfly_plot, topology_comparison_plot
from interconnect_lab.topology import dragonfly, topology_comparison


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


def test_scale_up_plot_hatches_what_does_not_ship():
    rows = roadmap.scale_up_comparison(256e6, 8)
    figure = scale_up_plot(rows)
    bars = figure.axes[0].patches[: len(rows)]
    for bar, row in zip(bars, rows):
        assert bar.get_width() == pytest.approx(row.per_accelerator_bytes_per_s / u.GB_per_s)
        assert bool(bar.get_hatch()) == (row.fabric.status != "shipping")
    times = [p.get_width() for p in figure.axes[1].patches[: len(rows)]]
    assert times == pytest.approx([r.all_reduce_s / u.us for r in rows])
    # The legend names every status drawn, with the hatch its bars carry.
    (legend,) = figure.legends
    drawn = {row.fabric.status: bar.get_hatch() or "" for bar, row in zip(bars, rows)}
    assert {t.get_text(): (h.get_hatch() or "") for t, h in zip(legend.get_texts(), legend.legend_handles)} == drawn


def test_reach_plot_marks_each_chip_on_the_curves():
    reaches = roadmap.fat_tree_reach("Tomahawk 6", (1, 2, 8))
    ax = fat_tree_reach_plot(reaches)
    points = [line for line in ax.lines if line.get_marker() == "o"]
    assert [(p.get_xdata()[0], p.get_ydata()[0]) for p in points] == [(r.radix, r.hosts_two_tiers) for r in reaches]
    assert ax.get_xlabel() and ax.get_ylabel()


# Panels -------------------------------------------------------------------------------------

widgets_available = pytest.importorskip("ipywidgets")


def test_topology_panel_shows_the_model():
    from interconnect_lab.widgets.topology import TopologyPanel
    panel = TopologyPanel()
    table = topology_comparison(4096, radix=64)
    assert panel.result.names == table.names
    assert panel.result.cost_per_host_usd == pytest.approx(table.cost_per_host_usd)
    readout, image = panel.readout.value, panel.png()
    panel.controls["hosts"].value = 32_768
    assert panel.readout.value != readout or panel.png() != image
    assert panel.result.summaries[0].hosts >= 32_768
    panel.controls["radix"].value = 128
    assert panel.result.summaries[0].radix == 128


def test_scale_up_panel_shows_the_model():
    from interconnect_lab.widgets.roadmap import ScaleUpPanel
    panel = ScaleUpPanel()
    rows = roadmap.scale_up_comparison(256 * u.MB, 8, open_ports=8)
    assert [r.all_reduce_s for r in panel.result] == pytest.approx([r.all_reduce_s for r in rows])
    for control, value in (("message_bytes", 1 * u.GB), ("group", 72), ("open_ports", 16)):
        before = [r.all_reduce_s for r in panel.result]
        panel.controls[control].value = value
        assert [r.all_reduce_s for r in panel.result] != before
    assert "Fastest" in panel.readout.value


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
