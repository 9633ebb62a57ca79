"""Chapter 7 panels: what they show is the model's, every control moves it, redraw matches draw."""

import base64
import io
import math

import numpy as np
import pytest

pytest.importorskip("ipywidgets")

from PIL import Image

from interconnect_lab import catalog, collectives as c, units as u
from interconnect_lab.plotting.collectives import choice_label
from interconnect_lab.widgets.collectives import (
    CHOICE_NODES, CHOICE_SIZES_BYTES, CURVE_SIZES_BYTES, MACHINES, CollectivePanel, NcclChoicePanel,
    compared_algorithms, panel_links,
)


PANELS = (CollectivePanel, NcclChoicePanel)


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


def test_nccl_panel_shows_the_choice_map_of_its_machine():
    panel = NcclChoicePanel(machine="8 H100 per node, InfiniBand NDR", collective="all_gather", nodes=2)
    view = panel.result
    expected = c.nccl_choice_map("all_gather", c.collective_system("H100 SXM", network="InfiniBand NDR"),
                                 nodes=CHOICE_NODES, size_bytes=CHOICE_SIZES_BYTES)
    assert view.nodes == 2 and view.choice_map.nodes == expected.nodes
    assert np.array_equal(view.choice_map.bus_bandwidth_bytes_per_s, expected.bus_bandwidth_bytes_per_s)
    assert view.choice_map.crossovers == expected.crossovers
    # the readout names every stretch of the row, its boundaries and the busbw at the largest size
    for algorithm, protocol, low, high in expected.segments(2):
        assert choice_label(algorithm, protocol) in panel.readout.value
    for crossover in expected.crossovers_at(2):
        assert u.format_bytes(crossover.size_bytes) in panel.readout.value
    top = expected.bus_bandwidth_bytes_per_s[expected.row(2), -1] / u.GB_per_s
    assert f"{top:,.0f} GB/s" in panel.readout.value
    # the figure: the right-hand curve is the row's busbw, the crossovers are drawn where the model puts them
    lines = {line.get_gid(): line for line in panel.axes[1].get_lines() if line.get_gid()}
    drawn = np.concatenate([line.get_ydata() for gid, line in lines.items() if gid.startswith("busbw:")])
    row = expected.bus_bandwidth_bytes_per_s[expected.row(2)] / u.GB_per_s
    assert set(np.round(drawn[np.isfinite(drawn)], 9)) == set(np.round(row, 9))
    shown = sorted(line.get_xdata()[0] for gid, line in lines.items()
                   if gid.startswith("crossover:") and line.get_visible())
    assert shown == [x.size_bytes for x in expected.crossovers_at(2)]


def test_nccl_panel_machines_build_and_one_gpu_says_nothing_to_exchange():
    for machine in MACHINES:
        assert c.collective_system(**MACHINES[machine]).gpus_per_node in (1, 8, 72)
    panel = NcclChoicePanel(machine="1 H100 per node, InfiniBand NDR", collective="all_gather", nodes=1)
    assert "nothing to exchange" in panel.readout.value
    panel.controls["nodes"].value = 16
    assert choice_label("pat", "Simple") in panel.readout.value


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


def test_nccl_panel_node_count_takes_the_fast_path():
    panel = NcclChoicePanel()
    row = next(p for p in panel.axes[0].patches if p.get_gid() == "row")
    legend = [t.get_text() for t in panel.axes[1].get_legend().texts]
    same_legend = [n for n in CHOICE_NODES if n > 1]      # one node has no ports to draw, and no label for them
    assert len(same_legend) >= 2
    for nodes in (same_legend[0], same_legend[-1]):
        panel.controls["nodes"].value = nodes
        assert next(p for p in panel.axes[0].patches if p.get_gid() == "row") is row
        assert [t.get_text() for t in panel.axes[1].get_legend().texts] == legend
    panel.controls["nodes"].value = 1                        # the legend changes: drawn again, without the ports
    assert next(p for p in panel.axes[0].patches if p.get_gid() == "row") is not row
    assert not any("ports" in t.get_text() for t in panel.axes[1].get_legend().texts)
    row = next(p for p in panel.axes[0].patches if p.get_gid() == "row")
    panel.controls["collective"].value = "all_to_all"
    assert next(p for p in panel.axes[0].patches if p.get_gid() == "row") is not row


def test_every_collective_panel_control_takes_the_fast_path():
    panel = CollectivePanel()
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
    panel.controls["link"].value = "Ethernet 400G"
    shown = {label for label, line in lines.items() if line.get_visible()}
    assert shown == set(panel.result.curves)


def test_output_widget_holds_the_current_figure():
    panel = NcclChoicePanel()
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
