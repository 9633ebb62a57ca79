"""Chapters 11 and 12 panels: every control recomputes readout and figure; impossible input gives a message."""

import time

import pytest

pytest.importorskip("ipywidgets")

from interconnect_lab import inference, moe
from interconnect_lab.units import format_time
from interconnect_lab.widgets.inference import ServingPanel
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


def test_serving_panel_initial_state_matches_the_model():
    panel = ServingPanel(model="Llama 3 70B", tensor_parallel=8, batch=16, context_tokens=8192,
                         kv_link="InfiniBand NDR (400 Gb/s)", layerwise=False)
    d = inference.serving_deployment("Llama 3 70B", "H100 SXM", tensor_parallel=8, batch=16, prompt_tokens=8192,
                                     kv_link="InfiniBand NDR", layerwise=False)
    assert panel.result["deployment"] == d
    assert format_time(d.ttft_s) in panel.readout.value and f"{d.itl_network_share:.0%}" in panel.readout.value


@pytest.mark.parametrize(("control", "value"), [
    ("model", "Llama 3 8B"), ("tensor_parallel", 4), ("batch", 64), ("context_tokens", 2048),
    ("kv_link", "Ethernet 100G"), ("layerwise", True), ("algorithm", "nvls"),
])
def test_every_serving_control_changes_readout_and_figure(control, value):
    panel = ServingPanel()
    readout, image = panel.readout.value, panel.png()
    panel.controls[control].value = value
    assert panel.readout.value != readout
    assert panel.png() != image


def test_serving_panel_says_when_the_model_does_not_fit():
    panel = ServingPanel(model="Llama 3 70B", tensor_parallel=8)
    assert "do not fit" not in panel.readout.value
    panel.controls["model"].value = "Llama 3 405B"
    panel.controls["tensor_parallel"].value = 1
    assert "do not fit in HBM" in panel.readout.value


def test_updates_are_fast_once_drawn():
    for panel, control, values in ((MoEPanel(), "tokens_per_gpu", (1024, 2048, 4096)),
                                   (ServingPanel(), "batch", (1, 4, 16))):
        panel.controls[control].value = values[0]
        started = time.perf_counter()
        for value in values[1:]:
            panel.controls[control].value = value
            panel.png()
        assert (time.perf_counter() - started) / (len(values) - 1) < 0.25   # budget 50 ms; generous on shared CI
