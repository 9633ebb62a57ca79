"""Chapter 2 panels: every control recomputes the readout and the figure from the model."""

import base64
import io

import pytest

pytest.importorskip("ipywidgets")

import numpy as np
from PIL import Image

from interconnect_lab import catalog
from interconnect_lab import training as tr
from interconnect_lab.widgets.training import NVLinkDomainPanel, TensorParallelPanel, example_model

PANELS = [TensorParallelPanel, NVLinkDomainPanel]


def pixels(png):
    return np.asarray(Image.open(io.BytesIO(png)).convert("RGB")).astype(int)


def test_tensor_parallel_panel_starts_from_the_model():
    panel = TensorParallelPanel(tensor_parallel=8, hidden_size=12288, link="NVLink 4", gpu="H100 SXM")
    cluster = tr.Cluster(name="H100", gpu="H100 SXM", gpus_per_node=8, scale_up_link="NVLink 4",
                         scale_out_link="InfiniBand NDR", nics_per_node=8)
    layer = tr.tensor_parallel_layer(example_model(12288), cluster,
                                     tr.parallel_config(8, global_batch_size=8, tensor_parallel=8))
    scan = panel.result["scan"]
    i = scan.tensor_parallel.tolist().index(8)
    assert scan.communication_s[i] == pytest.approx(layer.communication_s, rel=1e-12)
    assert scan.step_share[i] == pytest.approx(layer.step_share, rel=1e-12)
    assert f"{layer.step_share:.1%} of the step" in panel.readout.value
    assert "stays on NVLink" in panel.readout.value


def test_tensor_parallel_panel_explains_a_degree_that_does_not_split_the_model():
    panel = TensorParallelPanel(tensor_parallel=64, hidden_size=4096)
    assert "does not split the model" in panel.readout.value
    assert TensorParallelPanel(tensor_parallel=16).readout.value.count("crosses the network") == 1


def test_domain_panel_starts_from_the_model():
    panel = NVLinkDomainPanel(tensor_parallel=12, pipeline_parallel=1, software="Megatron-LM SC21")
    small, rack = panel.result["steps"]
    config = tr.parallel_config(72, global_batch_size=144, tensor_parallel=12, recompute="selective",
                                sequence_parallel=True, zero_stage=1)
    assert rack == tr.training_step("GPT-3 175B", tr.system_cluster("GB200 NVL72"), config)
    assert small.step_s > rack.step_s          # t = 12 crosses 8-GPU domains, not the rack
    assert f"MFU {rack.mfu:.1%}" in panel.readout.value
    assert panel.gpus == catalog.system("GB200 NVL72").gpus


def test_domain_panel_explains_an_impossible_split():
    panel = NVLinkDomainPanel(tensor_parallel=8, pipeline_parallel=2)
    assert "is not possible" in panel.readout.value
    panel.controls["pipeline_parallel"].value = 3
    assert "MFU" in panel.readout.value


@pytest.mark.parametrize(("control", "value"), [
    ("tensor_parallel", 4), ("hidden_size", 8192), ("link", "NVLink 5"), ("gpu", "B200"), ("software", "MegaScale"),
])
def test_every_tensor_parallel_control_changes_the_output(control, value):
    panel = TensorParallelPanel()
    readout, image = panel.readout.value, panel.png()
    panel.controls[control].value = value
    assert panel.readout.value != readout
    assert panel.png() != image


@pytest.mark.parametrize(("control", "value"), [
    ("tensor_parallel", 8), ("pipeline_parallel", 3), ("software", "MegaScale"),
])
def test_every_domain_control_changes_the_output(control, value):
    panel = NVLinkDomainPanel()
    readout, image = panel.readout.value, panel.png()
    panel.controls[control].value = value
    assert panel.readout.value != readout
    assert panel.png() != image


def other_value(control):
    values = [v[1] if isinstance(v, tuple) else v for v in control.options]
    return next(v for v in values if v != control.value)


@pytest.mark.parametrize("cls", PANELS, ids=lambda c: c.__name__)
def test_fast_redraw_shows_what_a_full_draw_shows(cls):
    panel = cls()
    for control in panel.controls.values():
        control.value = other_value(control)
        assert panel._animated, f"{cls.__name__}: {control.description} took the slow path"
        fast = panel.png()
        panel._drawn = False
        panel.update()
        a, b = pixels(fast), pixels(panel.png())
        assert a.shape == b.shape
        assert (np.abs(a - b).max(axis=-1) > 32).mean() < 0.005


@pytest.mark.parametrize("cls", PANELS, ids=lambda c: c.__name__)
def test_output_widget_holds_the_current_figure(cls):
    panel = cls()
    for control in panel.controls.values():
        control.value = other_value(control)
        (output,) = panel.output.outputs
        assert base64.b64decode(output["data"]["image/png"]) == panel.png()
