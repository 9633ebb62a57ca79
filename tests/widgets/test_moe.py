"""Chapters 11 and 12 panels: every control recomputes readout and figure; impossible input gives a message."""

import pytest

pytest.importorskip("ipywidgets")

from interconnect_lab import moe
from interconnect_lab.units import format_time
from interconnect_lab.widgets.moe import MoEPanel


def test_moe_panel_initial_state_matches_the_model():
    panel = MoEPanel(experts=256, top_k=8, tokens_per_gpu=4096, ep_degree=64, skew=0.0)
    load = moe.routing_load(4096 * 64, 256, 8, 64, skew=0.0, seed=0)
    step = panel.result["step"]
    assert panel.result["load"].imbalance_factor == load.imbalance_factor
    assert step.dispatch.imbalance_factor == load.imbalance_factor
    assert format_time(step.dispatch.time_s) in panel.readout.value


@pytest.mark.parametrize(("control", "value"), [
    ("experts", 128), ("top_k", 4), ("tokens_per_gpu", 1024), ("ep_degree", 16),
    ("domain", "72 GPUs (GB200 NVL72, NVLink 5)"), ("skew", 0.7),
])
def test_every_moe_control_changes_readout_and_figure(control, value):
    panel = MoEPanel()
    readout, image = panel.readout.value, panel.png()
    panel.controls[control].value = value
    assert panel.readout.value != readout
    assert panel.png() != image


def test_moe_panel_says_what_is_impossible_and_recovers():
    panel = MoEPanel(experts=256, ep_degree=64)
    panel.controls["experts"].value = 8           # 64 GPUs cannot share 8 experts
    assert "Not possible" in panel.readout.value and "must divide" in panel.readout.value
    panel.controls["top_k"].value = 8
    panel.controls["experts"].value = 256
    assert "Not possible" not in panel.readout.value
