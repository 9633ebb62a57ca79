"""Tests of ``interconnect_lab.widgets.inference``: panel for chapter 12: a serving deployment's TTFT
and ITL and the network's share of each.
"""

import time

import pytest

pytest.importorskip("ipywidgets")

from interconnect_lab import inference
from interconnect_lab.units import format_time
from interconnect_lab.widgets.inference import ServingPanel
from interconnect_lab.widgets.moe import MoEPanel


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
