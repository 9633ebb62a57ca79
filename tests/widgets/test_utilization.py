"""Panels: moving a control recomputes the readout and the figure from the model."""

import pytest

pytest.importorskip("ipywidgets")

import interconnect_lab as il
from interconnect_lab import catalog
from interconnect_lab.widgets import StepTimePanel


def test_initial_state_matches_the_model():
    panel = StepTimePanel(compute_s=0.6, communication_s=0.4, overlap_fraction=0.0)
    step, peak, efficiency = panel.result
    assert step == il.step_time(0.6, 0.4, 0.0)
    assert peak == catalog.gpu("H100 SXM").bf16_flop_per_s
    assert "MFU 60.0%" in panel.readout.value


@pytest.mark.parametrize(("control", "value"), [
    ("gpu", "A100 SXM"), ("compute_s", 1.0), ("communication_s", 1.2),
    ("overlap_fraction", 0.5), ("compute_efficiency", 0.7),
])
def test_every_control_changes_the_output(control, value):
    panel = StepTimePanel()
    readout, image = panel.readout.value, panel.png()
    panel.controls[control].value = value
    assert panel.readout.value != readout
    if control != "gpu":  # the GPU's peak changes the delivered FLOP/s, not the timeline
        assert panel.png() != image
