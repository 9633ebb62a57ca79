"""Tests of ``interconnect_lab.plotting.collectives``: figures for collectives (chapter 7): bandwidth
and time against message size, and a collective's data moving step by step.
"""

import math

import matplotlib.colors
import numpy as np
import pytest
from hypothesis import strategies as st

pytest.importorskip("matplotlib")

from interconnect_lab import catalog, collectives as c, units as u
from interconnect_lab.collectives import reference as ref
from interconnect_lab.plotting.collectives import (
    busbw_legend_handles,
    ALGORITHM_COLORS, PROTOCOL_STYLES, _gb_label, bus_bandwidth_scaling_plot, candidates_plot, choice_label,
    collective_time_plot, crossover_plot, grouped_bandwidth_plot, measured_sweep_plot, nccl_choice_plot,
    reproduction_ratio_plot, update_nccl_choice_plot,
)

NVLINK4 = 450e9


def test_time_plot_draws_the_latency_and_bandwidth_terms():
    sizes = np.logspace(0, 10, 41)
    ring = c.collective_performance("all_reduce", sizes, 8, NVLINK4, c.NVLINK_STEP_LATENCY_S)
    half = c.half_bandwidth_size("all_reduce", 8, NVLINK4, c.NVLINK_STEP_LATENCY_S)
    ax = collective_time_plot({"ring": ring}, show_terms=True, crossover_bytes=half,
                              crossover_label="half bandwidth")
    total, latency, bandwidth = ax.get_lines()[:3]
    assert np.allclose(latency.get_ydata() + bandwidth.get_ydata(), total.get_ydata())
    assert latency.get_color() == total.get_color() == bandwidth.get_color()
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert "ring: latency term" in labels and any(text.startswith("half bandwidth at") for text in labels)
    assert ax.get_ylim()[0] > 0


def test_crossover_plot_leaves_out_missing_crossovers_and_labels_units():
    ranks = np.array([2, 4, 8, 16])
    sizes = np.array([c.crossover_size("all_reduce", int(n), NVLINK4, c.NVLINK_STEP_LATENCY_S) for n in ranks])
    assert sizes[0] == math.inf
    ax = crossover_plot(ranks, {"NVLink 4": sizes})
    (line,) = ax.get_lines()
    assert list(line.get_xdata()) == [4, 8, 16]
    assert "[B]" in ax.get_ylabel() and ax.get_xscale() == "log" and ax.get_yscale() == "log"


def test_crossover_plot_rejects_mismatched_input():
    with pytest.raises(ValueError, match="must match ranks"):
        crossover_plot([2, 4], {"a": [1.0]})
    with pytest.raises(ValueError, match="at least one label"):
        crossover_plot([2, 4], {})


def test_scaling_plot_draws_busbw_in_gb_per_s_against_counts():
    nodes = np.array([2, 4, 8])
    busbw = np.array([c.collective_performance("all_reduce", 2**30, 8 * int(n), 450e9, 3.4e-6,
                                               "hierarchical", ranks_per_node=8,
                                               network_bandwidth_bytes_per_s=50e9,
                                               network_latency_s=14e-6).bus_bandwidth_bytes_per_s
                      for n in nodes])
    ax = bus_bandwidth_scaling_plot(nodes, {"hierarchical": busbw}, xlabel="nodes (8 GPUs each)",
                                    link_bandwidth_bytes_per_s=50e9)
    line = ax.get_lines()[0]
    assert np.allclose(line.get_ydata(), busbw / 1e9)
    assert ax.get_ylabel() == "bus bandwidth [GB/s]" and ax.get_xlabel() == "nodes (8 GPUs each)"
    with pytest.raises(ValueError, match="must match counts"):
        bus_bandwidth_scaling_plot(nodes, {"a": busbw[:2]}, xlabel="nodes")


def test_measured_points_can_take_the_colour_of_their_curve():
    from interconnect_lab.plotting.collectives import bus_bandwidth_plot

    sizes = np.logspace(1, 10, 20)
    ring = c.collective_performance("all_reduce", sizes, 8, NVLINK4, c.NVLINK_STEP_LATENCY_S)
    ax = bus_bandwidth_plot({"ring": ring}, measured=[("a", 8e9, 370e9, "#009E73"), ("b", 8e9, 380e9)])
    curve, first, second = ax.get_lines()
    assert first.get_color() == "#009E73" and second.get_color() not in ("#009E73",)


NVLINK4_collectives = catalog.link("NVLink 4").per_gpu_per_direction_bytes_per_s

sizes = st.floats(min_value=0, max_value=1e13, allow_nan=False)


def test_bus_bandwidth_plot_labels_axes_with_units():
    pytest.importorskip("matplotlib")
    from interconnect_lab.plotting.collectives import bus_bandwidth_plot, collective_time_plot

    sizes = np.logspace(1, 10, 50)
    results = {a: c.collective_performance("all_reduce", sizes, 8, NVLINK4_collectives, c.NVLINK_STEP_LATENCY_S, a)
               for a in ("ring", "tree", "nvls")}
    ax = bus_bandwidth_plot(results, link_bandwidth_bytes_per_s=NVLINK4_collectives,
                            measured=[("nccl-tests #212, ring", 8 * u.GiB, 370e9)])
    assert ax.get_xscale() == "log"
    assert "[B]" in ax.get_xlabel() and "[GB/s]" in ax.get_ylabel()
    assert len(ax.get_lines()) >= 4
    ax = collective_time_plot(results, crossover_bytes=1e6)
    assert ax.get_xscale() == "log" and ax.get_yscale() == "log"
    assert "[s]" in ax.get_ylabel() or "[µs]" in ax.get_ylabel()


def test_steps_plot_has_one_panel_per_state():
    pytest.importorskip("matplotlib")
    from interconnect_lab.plotting.collectives import collective_steps_plot

    run = ref.ring_all_reduce([np.arange(4)] * 4)
    figure = collective_steps_plot(run)
    visible = [ax for ax in figure.axes if ax.axison]
    assert len(visible) == run.n_steps + 1
    assert visible[0].get_title() == "start"
    assert visible[1].get_title() == "step 1: add" and visible[-1].get_title() == "step 6: copy"
    from matplotlib.text import Annotation

    arrows = [t for t in visible[1].texts if isinstance(t, Annotation)]
    assert len(visible[1].texts) - len(arrows) == 16  # one count per (rank, chunk)
    assert len(arrows) == len(run.transfers_at(0)) == 4


CHOICES = c.nccl_choice_map("all_reduce", c.collective_system("H100 SXM"), nodes=(1, 2, 16),
                            size_bytes=2.0 ** np.arange(3.0, 35.0))


def test_the_busbw_legend_names_only_what_is_drawn_at_the_node_count():
    one, two = ([h.get_label() for h in busbw_legend_handles(CHOICES, n)] for n in (1, 2))
    assert not any("ports" in label for label in one)                # one node: no ports to reach
    assert any("ports" in label for label in two)
    for labels, nodes in ((one, 1), (two, 2)):
        assert any("crossover" in label for label in labels) == bool(CHOICES.crossovers_at(nodes))
    _, busbw_ax = nccl_choice_plot(CHOICES, 2)
    assert [t.get_text() for t in busbw_ax.get_legend().texts] == two


def test_choice_plot_draws_one_bar_per_stretch_coloured_and_hatched_as_its_choice():
    map_ax, busbw_ax = nccl_choice_plot(CHOICES, 2)
    bars = [p for p in map_ax.patches if p.get_gid() != "row"]
    segments = [s for n in CHOICES.nodes for s in CHOICES.segments(n)]
    assert len(bars) == len(segments)
    for bar, (algorithm, protocol, low, high) in zip(bars, segments):
        assert bar.get_x() == pytest.approx(low) and bar.get_x() + bar.get_width() == pytest.approx(high)
        assert (bar.get_hatch() or "") == PROTOCOL_STYLES[protocol][0]
        assert np.allclose(bar.get_facecolor()[:3], matplotlib.colors.to_rgb(ALGORITHM_COLORS[algorithm]))
    assert map_ax.get_xlabel() == "message size S [B]" and "nodes" in map_ax.get_ylabel()
    assert busbw_ax.get_ylabel() == "bus bandwidth [GB/s]" and busbw_ax.get_yscale() == "log"
    labels = [t.get_text() for t in map_ax.get_legend().get_texts()]
    assert {"ring", "tree", "NVLS", "NVLSTree"} <= set(labels)


def test_choice_plot_moves_to_another_node_count_in_place():
    axes = nccl_choice_plot(CHOICES, 2)
    changed = update_nccl_choice_plot(axes, CHOICES, 16)
    row = next(p for p in axes[0].patches if p.get_gid() == "row")
    assert row in changed and row.get_y() < 16 < row.get_y() + row.get_height()
    shown = [line.get_xdata()[0] for line in axes[1].get_lines()
             if (line.get_gid() or "").startswith("crossover:") and line.get_visible()]
    assert shown == [x.size_bytes for x in CHOICES.crossovers_at(16)]
    assert choice_label("nvls_tree", "Simple") == "NVLSTree Simple"
    limits = {line.get_gid(): line.get_ydata()[0] for line in axes[1].get_lines()
              if (line.get_gid() or "").startswith("limit:")}
    assert limits["limit:ports"] == pytest.approx(400.0)
    assert axes[1].get_title(loc="left") == "busbw on 16 × 8 GPUs"
    with pytest.raises(ValueError, match="rows are"):
        nccl_choice_plot(CHOICES, 4)


SWEEP = c.nccl_collective("all_reduce", 2.0 ** np.arange(3.0, 34.0), c.collective_system("H100 SXM", nodes=2))


def test_candidates_plot_draws_every_available_candidate_and_marks_the_changes():
    ax = candidates_plot(SWEEP)
    available = [x for x in SWEEP.candidates if np.all(np.isfinite(x.time_s))]
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert labels[0] == "what NCCL runs" and len(labels) == len(available) + 1
    thick = ax.get_lines()[0]
    assert np.allclose(thick.get_ydata(), SWEEP.bus_bandwidth_bytes_per_s / u.GB_per_s)
    changes = int(np.sum((SWEEP.algorithm[1:] != SWEEP.algorithm[:-1]) | (SWEEP.protocol[1:] != SWEEP.protocol[:-1])))
    assert len(ax.texts) == changes and all(t.get_text().startswith("→ ") for t in ax.texts)
    assert ax.get_ylabel() == "bus bandwidth [GB/s]" and ax.get_xlabel() == "message size S [B]"
    relative = candidates_plot(SWEEP, relative=True)
    ratios = np.concatenate([line.get_ydata() for line in relative.get_lines()
                             if len(line.get_xdata()) == SWEEP.size_bytes.size])
    assert np.nanmin(ratios) == pytest.approx(1.0, rel=0.02)
    with pytest.raises(ValueError, match="1-D array"):
        candidates_plot(c.nccl_collective("all_reduce", 1e6, c.collective_system("H100 SXM")))


def test_grouped_bandwidth_plot_draws_gb_per_s_and_the_limits():
    ax = grouped_bandwidth_plot(["a", "b"], {"measured": [1e11, 2e11], "model": [1.1e11, 1.9e11],
                                             "hypothetical two-level": [2e11, 3e11]},
                                limits=[1.5e11, 2.5e11], limit_label="ports")
    widths = sorted(round(p.get_width()) for p in ax.patches)
    assert widths == [100, 110, 190, 200, 200, 300]
    assert any(p.get_hatch() for p in ax.patches)
    assert ax.get_xlabel() == "bus bandwidth [GB/s]"
    assert "ports" in [t.get_text() for t in ax.get_legend().get_texts()]
    with pytest.raises(ValueError, match="one bandwidth per label"):
        grouped_bandwidth_plot(["a"], {"measured": [1.0, 2.0]})
    with pytest.raises(ValueError, match="one rate per label"):
        grouped_bandwidth_plot(["a"], {"measured": [1.0]}, limits=[1.0, 2.0])


def test_measured_sweep_plot_shades_the_bands_and_draws_both():
    sizes = SWEEP.size_bytes
    ax = measured_sweep_plot(sizes, SWEEP.bus_bandwidth_bytes_per_s * 0.8, SWEEP,
                             bands=[("small", (1.0, 65536.0)), ("mid", (2**20, 2**26)), ("large", (2**28, 1e30))])
    assert len(ax.patches) == 2
    measured = [line for line in ax.get_lines() if line.get_marker() == "o"][0]
    assert np.allclose(measured.get_ydata(), SWEEP.bus_bandwidth_bytes_per_s * 0.8 / u.GB_per_s)
    assert ax.get_yscale() == "log" and ax.get_ylabel() == "bus bandwidth [GB/s]"
    with pytest.raises(ValueError, match="equally long"):
        measured_sweep_plot(sizes[:3], [1.0, 2.0, 3.0], SWEEP)


def test_reproduction_ratio_plot_marks_the_median_of_each_band():
    ax = reproduction_ratio_plot(["large", "large", "mid"], [1.0, 1.2, 2.0], ["dev", "val", "dev"])
    medians = [line.get_ydata()[0] for line in ax.get_lines() if line.get_linewidth() == 2.5]
    assert medians == [pytest.approx(1.1), pytest.approx(2.0)]
    assert [t.get_text() for t in ax.get_xticklabels()] == ["large", "mid"]
    with pytest.raises(ValueError, match="positive"):
        reproduction_ratio_plot(["large"], [0.0], ["dev"])
    with pytest.raises(ValueError, match="one value per row"):
        reproduction_ratio_plot(["large"], [1.0, 2.0], ["dev"])


def test_scaling_plot_groups_measured_points_by_label():
    ax = bus_bandwidth_scaling_plot([2, 4, 8], {"model": [1e11, 2e11, 3e11]}, xlabel="GPUs",
                                    measured=[("run", 2, 1e11), ("run", 4, 2e11), ("other", 8, 3e11, "#000000")])
    runs = [line for line in ax.get_lines() if line.get_label().startswith("measured")]
    assert [line.get_label() for line in runs] == ["measured: run", "measured: other"]
    assert list(runs[0].get_xdata()) == [2, 4]


def test_bandwidth_ticks_are_plain_numbers():
    assert [_gb_label(v) for v in (0.0001, 0.01, 1.0, 1000.0)] == ["0.0001", "0.01", "1", "1,000"]
