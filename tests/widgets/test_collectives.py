"""Chapter 7 panels: what they show is the model's, every control moves it, redraw matches draw."""

import base64
import io
import math

import numpy as np
import pytest

pytest.importorskip("ipywidgets")

from PIL import Image

from interconnect_lab import catalog, collectives as c, units as u
from interconnect_lab.widgets.collectives import (
    CURVE_SIZES_BYTES, CollectivePanel, HierarchicalAllReducePanel, compared_algorithms, panel_links,
)


PANELS = (CollectivePanel, HierarchicalAllReducePanel)


def pixels(png):
    return np.asarray(Image.open(io.BytesIO(png)).convert("RGB")).astype(int)


def other_value(control):
    values = [v[1] if isinstance(v, tuple) else v for v in control.options]
    index = values.index(control.value)
    return values[index - 1] if index else values[1]


def test_collective_panel_initial_state_matches_the_model():
    panel = CollectivePanel(link="NVLink 4", collective="all_reduce", n_ranks=8, size_bytes=2.0**20)
    sweep = panel.result
    parameters = c.link_parameters(catalog.link("NVLink 4"))
    ring = c.collective_performance("all_reduce", 2.0**20, 8, **parameters)
    assert sweep.points["ring"] == ring
    assert np.array_equal(sweep.curves["ring"].time_s,
                          c.collective_performance("all_reduce", CURVE_SIZES_BYTES, 8, **parameters).time_s)
    assert set(sweep.points) == {"ring", "double binary tree", "halving-doubling", "NVLink SHARP (NVLS)"}
    crossover = c.crossover_size("all_reduce", 8, **parameters)
    assert sweep.crossover_bytes == pytest.approx(crossover)
    assert u.format_bytes(crossover) in panel.readout.value
    assert f"ring {u.format_time(ring.time_s)}" in panel.readout.value


def test_hierarchical_panel_initial_state_matches_the_model():
    panel = HierarchicalAllReducePanel(nodes=16, gpus_per_node=8, scale_up="NVLink 4",
                                       network="InfiniBand NDR", size_bytes=2.0**28)
    points = panel.result.points
    inside = c.link_parameters(catalog.link("NVLink 4"))
    across = c.link_parameters(catalog.link("InfiniBand NDR"))
    flat = c.collective_performance("all_reduce", 2.0**28, 128, **across)
    hierarchical = c.collective_performance(
        "all_reduce", 2.0**28, 128, algorithm="hierarchical", **inside, ranks_per_node=8,
        network_bandwidth_bytes_per_s=across["bandwidth_bytes_per_s"], network_latency_s=across["latency_s"],
        network_efficiency=across["efficiency"], network_algorithm="ring")
    assert points["flat ring (network only)"] == flat
    assert points["hierarchical, ring across nodes"] == hierarchical
    assert "hierarchical, SHARP across nodes" in points
    assert f"{flat.time_s / hierarchical.time_s:.1f}×" in panel.readout.value


@pytest.mark.parametrize("cls", PANELS, ids=lambda cls: cls.__name__)
def test_every_control_changes_the_readout_and_the_figure(cls):
    panel = cls()
    for name, control in panel.controls.items():
        readout, image = panel.readout.value, panel.png()
        control.value = other_value(control)
        assert panel.readout.value != readout, name
        assert panel.png() != image, name


@pytest.mark.parametrize("cls", PANELS, ids=lambda cls: cls.__name__)
def test_fast_redraw_shows_what_a_full_draw_shows(cls):
    panel = cls()
    # Sliders take the fast path; check it after each one moves.
    for name, control in panel.controls.items():
        if not hasattr(control, "readout"):  # dropdowns redraw from scratch anyway
            continue
        control.value = other_value(control)
        fast = panel.png()
        panel._drawn = False
        panel.update()
        full = panel.png()
        differing = (np.abs(pixels(fast) - pixels(full)).max(axis=-1) > 32).mean()
        assert differing < 0.005, f"{name}: {differing:.2%} of the pixels differ from a full draw"


@pytest.mark.parametrize("cls", [CollectivePanel, HierarchicalAllReducePanel])
def test_every_control_takes_the_fast_path(cls):
    panel = cls()
    lines = panel._curve_lines[0]
    limits = [ax.get_ylim() for ax in panel.axes]
    for name, control in panel.controls.items():
        options = [o[1] if isinstance(o, tuple) else o for o in control.options]
        for value in (options[0], options[-1]):
            before = set(panel.result.curves)
            panel.controls[name].value = value
            if set(panel.result.curves) == before:
                assert panel._curve_lines[0] is lines, f"{name} = {value!r} redrew the figure from scratch"
            else:   # the legend names the curves shown: another set of algorithms draws it again
                lines = panel._curve_lines[0]
                legend = [t.get_text() for t in panel.figure.legends[0].texts]
                assert [label for label in legend if label in lines] == [
                    label for label in lines if label in panel.result.curves]
    assert [ax.get_ylim() for ax in panel.axes] == limits
    # what a choice cannot show is hidden, not left over from the previous choice
    if cls is CollectivePanel:
        panel.controls["link"].value = "Ethernet 400G"
    shown = {label for label, line in lines.items() if line.get_visible()}
    assert shown == set(panel.result.curves)


def test_output_widget_holds_the_current_figure():
    panel = HierarchicalAllReducePanel()
    panel.controls["nodes"].value = 64
    (output,) = panel.output.outputs
    assert base64.b64decode(output["data"]["image/png"]) == panel.png()


def test_compared_algorithms_follow_the_link():
    assert compared_algorithms("all_reduce", "NVLink") == ("ring", "tree", "halving_doubling", "nvls")
    assert compared_algorithms("all_reduce", "InfiniBand") == ("ring", "tree", "halving_doubling", "sharp")
    assert compared_algorithms("all_reduce", "Ethernet") == ("ring", "tree", "halving_doubling")
    assert compared_algorithms("all_to_all", "Ethernet") == ("direct",)
    assert compared_algorithms("all_gather", "NVLink") == ("ring", "halving_doubling")


def test_panel_links_have_sourced_defaults():
    for name in panel_links():
        assert c.link_parameters(catalog.link(name))["bandwidth_bytes_per_s"] > 0


def test_crossover_marker_hides_when_there_is_none():
    panel = CollectivePanel(n_ranks=2)
    assert panel.result.crossover_bytes == math.inf
    assert not panel._crossover_line.get_visible()
    panel.controls["n_ranks"].value = 16
    assert panel._crossover_line.get_visible()
