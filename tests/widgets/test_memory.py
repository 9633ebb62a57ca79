"""Chapter 3 panel: every control recomputes the readout and the figure from the model."""

import base64
import io

import numpy as np
import pytest

pytest.importorskip("ipywidgets")

from PIL import Image

from interconnect_lab import memory as m
from interconnect_lab.units import format_time
from interconnect_lab.widgets.memory import OffloadPanel, path_label


def pixels(png):
    return np.asarray(Image.open(io.BytesIO(png)).convert("RGB")).astype(int)


def other_value(control):
    if hasattr(control, "options"):
        values = [v[1] if isinstance(v, tuple) else v for v in control.options]
        return next(v for v in values if v != control.value)
    step = control.step
    return control.value + step if control.value + step <= control.max else control.value - step


def test_initial_state_matches_the_model():
    panel = OffloadPanel(model="Llama 3 70B", gpu="H100 SXM", shards=8, plan="ZeRO-3 + CPU optimizer offload",
                         path="host DDR5 over PCIe Gen5 x16", tokens_per_gpu=8192, overlap_fraction=0.5)
    step = m.offload_step("Llama 3 70B", "H100 SXM", "ZeRO-3 + CPU optimizer offload", "host DDR5 over PCIe Gen5 x16",
                          tokens_per_gpu=8192, shards=8, overlap_fraction=0.5)
    chosen = panel.result["steps"][panel.result["selected"]]
    assert chosen == step
    assert len(panel.result["steps"]) == len(m.OFFLOAD_PATHS)
    text = panel.readout.value
    assert f"{step.added_fraction:+.1%}" in text and format_time(step.transfer_s) in text
    assert "which fits its 80 GB" in text


def test_no_offload_says_what_does_not_fit():
    panel = OffloadPanel(plan="none")
    assert "does <b>not</b> fit" in panel.readout.value
    assert "nothing crosses the host link" in panel.readout.value


@pytest.mark.parametrize(("control", "value"), [
    ("model", "Llama 3 405B"), ("gpu", "B200"), ("shards", 64), ("plan", "optimizer state streamed"),
    ("path", "Grace LPDDR5X over NVLink-C2C"), ("tokens_per_gpu", 2048), ("overlap_fraction", 0.0),
])
def test_every_control_changes_the_readout_and_the_figure(control, value):
    panel = OffloadPanel()
    readout, image = panel.readout.value, panel.png()
    panel.controls[control].value = value
    assert panel.readout.value != readout
    assert panel.png() != image


def test_fast_redraw_shows_what_a_full_draw_shows():
    panel = OffloadPanel()
    for control in panel.controls.values():
        control.value = other_value(control)
        fast = panel.png()
        panel._drawn = False
        panel.update()
        a, b = pixels(fast), pixels(panel.png())
        assert a.shape == b.shape
        assert (np.abs(a - b).max(axis=-1) > 32).mean() < 0.005


def test_every_move_stays_on_the_fast_path():
    panel = OffloadPanel()
    for control in panel.controls.values():
        for value in [v[1] if isinstance(v, tuple) else v for v in getattr(control, "options", [])][:3] or [0.0, 1.0]:
            control.value = value
            assert panel._animated, f"{control.description} = {value} took the slow path"


def test_bars_longer_than_the_axis_stop_at_its_edge_and_keep_their_value():
    panel = OffloadPanel(plan="optimizer state streamed", tokens_per_gpu=512, overlap_fraction=0.0)
    right = panel.axes[1]
    gen3 = panel.result["steps"][0]
    assert gen3.added_fraction > OffloadPanel.TIME_LIMIT - 1
    bar = right.offload_artists["exposed"][0]
    assert bar.get_x() + bar.get_width() == pytest.approx(OffloadPanel.TIME_LIMIT)
    assert right.offload_artists["texts"][0].get_text().strip() == f"+{gen3.added_fraction:.1%}"


def test_output_widget_holds_the_current_figure():
    panel = OffloadPanel()
    for control in panel.controls.values():
        control.value = other_value(control)
        (output,) = panel.output.outputs
        assert base64.b64decode(output["data"]["image/png"]) == panel.png()


def test_path_labels_are_short():
    assert path_label("host DDR5 over PCIe Gen5 x16") == "host DDR5, PCIe Gen5 x16"
    assert path_label("CXL 2.0 expander behind the host") == "CXL 2.0 expander"
