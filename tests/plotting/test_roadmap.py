"""Tests of ``interconnect_lab.plotting.roadmap``: figures for the next scale-up fabrics and switch
chips (chapter 14), from :mod:`interconnect_lab.roadmap`.
"""

import pytest

pytest.importorskip("matplotlib")

from interconnect_lab import roadmap, units as u
from interconnect_lab.plotting.roadmap import fat_tree_reach_plot, scale_up_plot


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
