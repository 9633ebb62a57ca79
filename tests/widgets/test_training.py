"""Tests of ``interconnect_lab.widgets.training``: panels for :mod:`interconnect_lab.training`."""

import base64
import dataclasses
import io

import numpy as np
import pytest

pytest.importorskip("ipywidgets")

from PIL import Image

from interconnect_lab import catalog, training as tr
from interconnect_lab.widgets.training import (
    OVERLAP_SWITCHES, NVLinkDomainPanel, PipelineSchedulePanel, TensorParallelPanel, TrainingRunPanel,
    ZeroPlusPlusPanel, cluster_choices, example_model,
)


PANELS = [TensorParallelPanel, NVLinkDomainPanel]


def pixels(png):
    return np.asarray(Image.open(io.BytesIO(png)).convert("RGB")).astype(int)


def other_value(control):
    values = [v[1] if isinstance(v, tuple) else v for v in control.options]
    return next(v for v in values if v != control.value)


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


RUN_PANELS = [TrainingRunPanel, PipelineSchedulePanel, ZeroPlusPlusPanel]


def other_run_value(control):
    if hasattr(control, "options"):
        values = [v[1] if isinstance(v, tuple) else v for v in control.options]
        return next(v for v in values if v != control.value)
    return not control.value


def test_run_panel_starts_from_the_model():
    panel = TrainingRunPanel()
    config = tr.parallel_config(12288, global_batch_size=6144, tensor_parallel=8, pipeline_parallel=8,
                                microbatch_size=2, interleave=6, recompute="selective", sequence_parallel=True)
    step = tr.training_step("MegaScale 175B", "MegaScale", config, "Megatron-LM 2023")
    assert panel.result["step"].step_s == pytest.approx(step.step_s, rel=1e-12)
    assert f"MFU {step.mfu:.1%}" in panel.readout.value
    assert f"{step.days_to_train(300e9):,.1f} days" in panel.readout.value


def test_all_switches_on_is_the_megascale_stack():
    panel = TrainingRunPanel(switches=[control for _, control, _ in OVERLAP_SWITCHES])
    stack = panel.software(panel.values())
    assert dataclasses.replace(stack, sources=()) == dataclasses.replace(tr.software("MegaScale"), sources=())
    assert "(MegaScale on MegaScale)" in panel.readout.value


def test_best_split_is_the_sweeps_best():
    panel = TrainingRunPanel(model="GPT-3 175B", cluster="Selene", gpus=1024, global_batch_size=1536,
                             best_split=True, interleave=1, recompute="full", sequence_parallel=False)
    sweep = tr.parallel_sweep("GPT-3 175B", "Selene", 1024, 1536, panel.software(panel.values()), recompute="full")
    row = sweep.row(sweep.best())
    config = panel.result["config"]
    assert (config.tensor_parallel, config.pipeline_parallel, config.microbatch_size) == (
        row["tensor_parallel"], row["pipeline_parallel"], row["microbatch_size"])
    assert "best split" in panel.readout.value


def test_run_panel_says_what_does_not_fit_or_divide():
    panel = TrainingRunPanel(model="GPT-3 175B", cluster="Selene", gpus=64, global_batch_size=64,
                             tensor_parallel=1, pipeline_parallel=1, microbatch_size=1, interleave=1,
                             recompute="none", sequence_parallel=False)
    assert "does not fit" in panel.readout.value
    panel.controls["pipeline_parallel"].value = 64
    assert "Not possible" in panel.readout.value and "its 96 layers" in panel.readout.value
    assert set(cluster_choices().values()) >= set(tr.CLUSTERS)


@pytest.mark.parametrize("name", [
    "model", "cluster", "gpus", "global_batch_size", "tensor_parallel", "pipeline_parallel", "microbatch_size",
    "interleave", "recompute", "sequence_parallel", "zero_stage", "training_tokens",
    *[control for _, control, _ in OVERLAP_SWITCHES]])
def test_every_run_control_changes_the_readout(name):
    panel = TrainingRunPanel(model="GPT-3 175B", cluster="Selene", gpus=1024, global_batch_size=1536,
                             tensor_parallel=8, pipeline_parallel=8, microbatch_size=1, interleave=2,
                             recompute="selective", sequence_parallel=True, zero_stage=1)
    readout = panel.readout.value
    values = {"model": "Megatron-LM 1T", "gpus": 2048, "global_batch_size": 3072, "tensor_parallel": 4,
              "pipeline_parallel": 4, "microbatch_size": 2, "interleave": 3, "recompute": "full",
              "zero_stage": 3, "training_tokens": 1e12, "cluster": list(panel.clusters)[2]}
    control = panel.controls[name]
    control.value = values.get(name, other_run_value(control))
    assert panel.readout.value != readout


def test_schedule_panel_starts_from_the_model_and_explains_invalid_input():
    panel = PipelineSchedulePanel(pipeline_parallel=4, microbatches=8)
    assert panel.result["schedule"].bubble_fraction == tr.pipeline_schedule(4, 8).bubble_fraction
    assert "Bubble 37.5%" in panel.readout.value
    panel.controls["interleave"].value = 2
    assert "Bubble 18.8%" in panel.readout.value
    panel.controls["microbatches"].value = 6
    assert "Not possible" in panel.readout.value


@pytest.mark.parametrize(("name", "value"), [
    ("pipeline_parallel", 8), ("microbatches", 16), ("interleave", 2), ("full_recompute", True)])
def test_every_schedule_control_changes_the_output(name, value):
    panel = PipelineSchedulePanel()
    readout, image = panel.readout.value, panel.png()
    panel.controls[name].value = value
    assert panel.readout.value != readout
    assert panel.png() != image


def test_zero_panel_starts_from_the_model():
    panel = ZeroPlusPlusPanel(model="GPT-3 175B", bandwidth_gbit_per_s=50.0)
    config = tr.parallel_config(384, global_batch_size=384, recompute="full", zero_stage=3)
    plain = tr.network_scan("GPT-3 175B", "MegaScale", config, "DeepSpeed ZeRO-3")
    plus = tr.network_scan("GPT-3 175B", "MegaScale", config, "DeepSpeed ZeRO++")
    index = panel.result["index"]
    assert plain.bandwidth_bytes_per_s[index] * 8 / 1e9 == 50.0
    assert f"{plain.mfu[index]:.1%} &rarr; {plus.mfu[index]:.1%}" in panel.readout.value
    assert "3M" in panel.readout.value and "0.75M" in panel.readout.value
    with pytest.raises(ValueError, match="not offered"):
        ZeroPlusPlusPanel(bandwidth_gbit_per_s=60.0)


@pytest.mark.parametrize(("name", "value"), [
    ("model", "Llama 3 8B"), ("network", 0), ("quantized_weights", False), ("hierarchical_partition", False),
    ("quantized_gradients", False)])
def test_every_zero_control_changes_the_output(name, value):
    panel = ZeroPlusPlusPanel()
    readout, image = panel.readout.value, panel.png()
    panel.controls[name].value = value
    assert panel.readout.value != readout
    assert panel.png() != image


@pytest.mark.parametrize("cls", RUN_PANELS, ids=lambda c: c.__name__)
def test_fast_redraw_shows_what_a_full_draw_shows(cls):
    panel = cls()
    for control in panel.controls.values():
        control.value = other_run_value(control)
        fast = panel.png()
        panel._drawn = False
        panel.update()
        a, b = pixels(fast), pixels(panel.png())
        assert a.shape == b.shape
        assert (np.abs(a - b).max(axis=-1) > 32).mean() < 0.005, control.description


def test_the_common_moves_take_the_fast_path():
    run = TrainingRunPanel()
    run.controls["tensor_parallel_overlap"].value = True
    assert run._animated
    schedule = PipelineSchedulePanel(microbatches=16)
    schedule.controls["microbatches"].value = 20
    assert schedule._animated
    zero = ZeroPlusPlusPanel()
    zero.controls["network"].value = 4
    assert zero._animated


@pytest.mark.parametrize("cls", RUN_PANELS, ids=lambda c: c.__name__)
def test_output_widget_holds_the_current_figure(cls):
    panel = cls()
    for control in panel.controls.values():
        control.value = other_run_value(control)
        (output,) = panel.output.outputs
        assert base64.b64decode(output["data"]["image/png"]) == panel.png()


def test_every_slider_still_changes_text_and_figure_when_the_run_is_impossible():
    # A reader moving sliders one after another can land on impossible splits; each move must still show.
    panel = TrainingRunPanel(interleave=8)                  # 96 layers do not split into 8 stages x 8 chunks
    assert "Not possible" in panel.readout.value
    for name, value in (("zero_stage", 1), ("gpus", 16384), ("global_batch_size", 8192), ("tensor_parallel", 16),
                        ("pipeline_parallel", 16), ("microbatch_size", 4)):
        readout, image = panel.readout.value, panel.png()
        panel.controls[name].value = value
        assert "Not possible" in panel.readout.value, name
        assert panel.readout.value != readout and panel.png() != image, name
    schedule = PipelineSchedulePanel(pipeline_parallel=4, microbatches=6, interleave=2)
    readout, image = schedule.readout.value, schedule.png()
    schedule.controls["microbatches"].value = 7
    assert "Not possible" in schedule.readout.value and schedule.readout.value != readout and schedule.png() != image


def test_run_panel_offers_every_recomputation_policy():
    panel = TrainingRunPanel(model="Llama 3 70B", cluster="Selene", gpus=64, global_batch_size=64,
                             tensor_parallel=1, pipeline_parallel=1, microbatch_size=1, interleave=1,
                             zero_stage=3, sequence_parallel=False)
    assert set(panel.controls["recompute"].options) == set(tr.RECOMPUTATION)
    steps = {}
    for name in ("selective", "every other matmul"):
        panel.controls["recompute"].value = name
        steps[name] = panel.result["step"].step_s
    assert steps["every other matmul"] > steps["selective"]


def test_the_tensor_parallel_panel_offers_only_links_the_collective_model_prices():
    # NVLink 1 predates NCCL's tables: offered, every setting with it was refused.
    pytest.importorskip("ipywidgets")
    from interconnect_lab.widgets.training import TensorParallelPanel

    panel = TensorParallelPanel()
    offered = [value for _, value in panel.controls["link"].options]
    assert "NVLink 1" not in offered and "NVLink 4" in offered
    for link in offered:
        panel.compute(**dict(panel.values(), link=link))      # a refusal would raise here
