"""Figures of chapters 11 and 12: labelled axes, in-place updates, bad input."""

import numpy as np
import pytest

pytest.importorskip("matplotlib")

from interconnect_lab import moe
from interconnect_lab.plotting.moe import (
    LAYER_PARTS, domain_comparison_plot, measured_vs_model_plot, moe_layer_plot, routing_load_plot,
    update_moe_layer_plot, update_routing_load_plot,
)


def test_domain_comparison_has_labelled_axes_and_one_line_per_domain():
    ax = domain_comparison_plot([8, 16], {"a": [1e-3, 2e-3], "b": [5e-4, 6e-4]})
    assert len(ax.lines) == 2 and "[ms]" in ax.get_ylabel() and ax.get_xlabel()
    np.testing.assert_allclose(ax.lines[0].get_ydata(), [1.0, 2.0])
    with pytest.raises(ValueError, match="2 degrees"):
        domain_comparison_plot([8, 16], {"a": [1.0]})


def test_layer_plot_draws_every_part_and_updates_in_place():
    step = moe.moe_layer_step("DeepSeek-V3", 4096, 64, gpu="H100 SXM")
    ax = moe_layer_plot(step)
    assert [t.get_text() for t in ax.get_yticklabels()] == list(LAYER_PARTS)
    widths = [p.get_width() for p in ax.patches]
    faster = moe.moe_layer_step("DeepSeek-V3", 512, 64, gpu="H100 SXM")
    changed = update_moe_layer_plot(ax, faster)
    assert len(changed) == 2 * len(LAYER_PARTS)
    assert [p.get_width() for p in ax.patches] != widths
    with pytest.raises(TypeError):
        moe_layer_plot("a step")


def test_routing_plot_line_follows_the_load():
    load = moe.routing_load(8192, 64, 2, 8, skew=1.0, seed=0)
    ax = routing_load_plot(load, limit=6.0)
    line = next(line for line in ax.lines if line.get_gid() == "gpu-load")
    assert line.get_ydata()[0] == pytest.approx(load.imbalance_factor)
    other = moe.routing_load(8192, 64, 2, 16, skew=0.0, seed=0)
    assert update_routing_load_plot(ax, other)[0].get_ydata()[0] == pytest.approx(other.imbalance_factor)


def test_measured_vs_model_checks_lengths():
    ax = measured_vs_model_plot(["x", "y"], [1.0, 2.0], [1.1, 1.9], tolerance=0.2, unit="GB/s")
    assert "published" in ax.get_xlabel() and "model" in ax.get_ylabel()
    with pytest.raises(ValueError):
        measured_vs_model_plot(["x"], [1.0, 2.0], [1.0, 2.0], tolerance=0.2, unit="GB/s")


def test_measured_vs_model_tells_groups_by_colour_and_kinds_by_marker():
    labels = ["EP 16", "EP 16", "EP 256", "EP 256"]
    kinds = ["dispatch", "combine", "dispatch", "combine"]
    ax = measured_vs_model_plot(labels, [1.0, 2.0, 2.0, 3.0], [1.0, 2.0, 2.0, 3.0], tolerance=0.2, unit="µs",
                                kinds=kinds)
    legend = [text.get_text() for text in ax.get_legend().get_texts()]
    assert legend[-4:] == ["dispatch", "combine", "EP 16", "EP 256"]
    points = [c for c in ax.collections if len(c.get_offsets()) == 1]
    # Two points at (2, 2): each is visible, as an open and a filled marker of different colours.
    at_two = [c for c in points if tuple(c.get_offsets()[0]) == (2.0, 2.0)]
    assert len(at_two) == 2
    assert len({tuple(c.get_edgecolor()[0]) for c in at_two}) == 2
    with pytest.raises(ValueError, match="kinds"):
        measured_vs_model_plot(labels, [1.0] * 4, [1.0] * 4, tolerance=0.2, unit="µs", kinds=kinds[:3])
    with pytest.raises(ValueError, match="own label"):
        measured_vs_model_plot(["x", "x"], [1.0, 2.0], [1.0, 2.0], tolerance=0.2, unit="GB/s")


def test_ep_reproduction_plot_has_one_column_per_table_and_a_point_per_row():
    from interconnect_lab.moe.reproduction import ep_reproduction_table
    from interconnect_lab.published.ep_kernels import EP_KERNEL_TABLES
    from interconnect_lab.plotting.moe import ep_reproduction_plot

    rows = ep_reproduction_table()
    ax = ep_reproduction_plot(rows)
    assert len(ax.get_xticks()) == len(EP_KERNEL_TABLES)
    points = [c for c in ax.collections if len(c.get_offsets()) == 1]
    assert len(points) == len(rows)
    assert "measured" in ax.get_ylabel() and ax.get_yscale() == "log"
    with pytest.raises(TypeError, match="EPReproductionRow"):
        ep_reproduction_plot([1.0])
