"""Tests of ``interconnect_lab.widgets.inference``: panels for chapter 12: a TP deployment's TTFT and ITL,
a wide expert-parallel decode step, and TTFT with KV-cache tiers across the network.
"""

import time

import pytest

pytest.importorskip("ipywidgets")

from interconnect_lab import inference
from interconnect_lab.units import format_time
from interconnect_lab.widgets import static
from interconnect_lab.widgets.inference import KVTierPanel, ServingPanel, WideEPPanel
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
    ("kv_link", "Ethernet 100G"), ("layerwise", True), ("engine", "NCCL"),
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


def test_wide_ep_panel_initial_state_matches_the_model():
    panel = WideEPPanel()
    d = inference.wide_ep_decode_step("DeepSeek-V3", "H800 SXM", ep_degree=144, domain_size=8, batch_per_gpu=128,
                                      context_tokens=4096)
    assert panel.result["step"] == d
    assert format_time(d.itl_s) in panel.readout.value and f"{d.tokens_per_s_per_gpu:,.0f}" in panel.readout.value


@pytest.mark.parametrize(("control", "value"), [
    ("system", "GB200 NVL72 racks (72 per rack), InfiniBand NDR"), ("ep_degree", 72), ("batch_per_gpu", 32),
    ("context_tokens", 32768), ("kv_format", "FP8"), ("overlap", False), ("kernel", "nccl"),
])
def test_every_wide_ep_control_changes_readout_and_figure(control, value):
    panel = WideEPPanel()
    readout, image = panel.readout.value, panel.png()
    panel.controls[control].value = value
    assert panel.readout.value != readout
    assert panel.png() != image


def test_wide_ep_panel_says_when_it_does_not_fit():
    panel = WideEPPanel(batch_per_gpu=256, context_tokens=32768)
    assert "Does not fit" in panel.readout.value


def test_kv_tier_panel_initial_state_matches_the_model():
    panel = KVTierPanel()
    r = inference.disaggregated_ttft("Llama 3 70B", 32768, cached_fraction=0.9, tier="host DRAM", gpu="H100 SXM",
                                     kv_link="InfiniBand NDR", kv_format="BF16", layerwise=True)
    assert panel.result["ttft"] == r
    assert format_time(r.ttft_s) in panel.readout.value and format_time(r.uncached_ttft_s) in panel.readout.value


@pytest.mark.parametrize(("control", "value"), [
    ("model", "DeepSeek-V3"), ("prompt_tokens", 8192), ("cached_fraction", 0.5), ("tier", "SSD over RDMA (3FS)"),
    ("kv_link", "Ethernet 100G"), ("kv_format", "FP8"), ("layerwise", False),
])
def test_every_kv_tier_control_changes_readout_and_figure(control, value):
    panel = KVTierPanel()
    readout, image = panel.readout.value, panel.png()
    panel.controls[control].value = value
    assert panel.readout.value != readout
    assert panel.png() != image


@pytest.mark.parametrize("panel_class", [ServingPanel, WideEPPanel, KVTierPanel])
def test_the_static_book_can_precompute_every_panel(panel_class):
    controls = static.grid(panel_class())
    count = 1
    for control in controls:
        count *= len(control.values)
    assert count <= static.MAX_COMBINATIONS


def test_updates_are_fast_once_drawn():
    for panel, control, values in ((MoEPanel(), "tokens_per_gpu", (1024, 2048, 4096)),
                                   (ServingPanel(), "batch", (1, 4, 16)),
                                   (WideEPPanel(), "batch_per_gpu", (32, 64, 128)),
                                   (KVTierPanel(), "prompt_tokens", (2048, 8192, 32768))):
        panel.controls[control].value = values[0]
        started = time.perf_counter()
        for value in values[1:]:
            panel.controls[control].value = value
            panel.png()
        assert (time.perf_counter() - started) / (len(values) - 1) < 0.25   # budget 50 ms; generous on shared CI
