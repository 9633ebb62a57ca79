"""Chapter 8 figures: built from model results, labelled with units, no global state touched."""

import matplotlib as mpl
import pytest

from interconnect_lab import training as tr
from interconnect_lab.plotting.training import (
    memory_breakdown_plot,
    published_comparison_plot,
    training_breakdown_plot,
)


@pytest.fixture
def steps():
    config = tr.parallel_config(64, global_batch_size=64, tensor_parallel=8, pipeline_parallel=8)
    return [tr.training_step("GPT-3 175B", "Selene", config),
            tr.training_step("GPT-3 175B", "Selene", config, "MegaScale")]


def test_breakdown_plot_draws_every_part(steps):
    before = dict(mpl.rcParams)
    ax = training_breakdown_plot(["Megatron-LM", "MegaScale"], steps)
    assert ax.get_xlabel() == "time per training step [s]"
    assert len(ax.patches) == 2 * len(tr.TrainingStep.PARTS)
    assert dict(mpl.rcParams) == before
    assert training_breakdown_plot(["a", "b"], steps, normalize=True).get_xlabel().endswith("[%]")


def test_comparison_and_memory_plots(steps):
    ax = published_comparison_plot(["a", "b"], [140, 150], [137, 148], quantity="TFLOP/s per GPU",
                                   unit="TFLOP/s", title="SC21 Table 1")
    assert ax.get_ylabel() == "TFLOP/s per GPU [TFLOP/s]"
    ax = memory_breakdown_plot(["one", "two"], [s.memory for s in steps])
    assert ax.get_xlabel() == "memory per GPU [GB]"


def test_mismatched_labels_are_rejected(steps):
    with pytest.raises(ValueError, match="got 1 labels for 2 steps"):
        training_breakdown_plot(["only one"], steps)
    with pytest.raises(ValueError, match="pass one of each per run"):
        published_comparison_plot(["a"], [1, 2], [1, 2], quantity="MFU", unit="%")


def test_pipeline_schedule_plot_draws_every_pass_on_the_ideal_time_axis():
    from interconnect_lab.plotting.training import pipeline_schedule_plot, schedule_time_limit
    schedule = tr.pipeline_schedule(4, 8)
    ax = pipeline_schedule_plot(schedule)
    assert len(ax.collections) == 2 * 4                      # forward and backward, per stage
    assert sum(len(c.get_paths()) for c in ax.collections) == schedule.stage.size
    assert len(ax.texts) == schedule.stage.size              # few passes: numbered
    assert ax.get_xlim() == (0.0, schedule_time_limit(schedule))
    assert schedule_time_limit(schedule) >= schedule.makespan / schedule.ideal
    assert "37.5%" in ax.get_title(loc="left")
    assert not pipeline_schedule_plot(tr.pipeline_schedule(4, 32)).texts


def test_interleaved_schedule_hatches_the_second_chunk_and_numbers_only_wide_passes():
    from interconnect_lab.plotting.training import pipeline_schedule_plot
    schedule = tr.pipeline_schedule(4, 8, interleave=2)
    ax = pipeline_schedule_plot(schedule, label_microbatches=True)
    hatched = [c for c in ax.collections if c.get_hatch()]
    assert sum(len(c.get_paths()) for c in hatched) == int((schedule.chunk == 1).sum())
    assert "model chunk 2 of 2" in [t.get_text() for t in ax.get_legend().get_texts()]
    assert 0 < len(ax.texts) < schedule.stage.size          # the narrow forward passes go unnumbered


def test_scaling_ablation_scan_and_compression_plots():
    import numpy as np
    from interconnect_lab.plotting.training import (
        ablation_replay_plot, compression_tradeoff_plot, mfu_scaling_plot, network_scan_plot)
    ax = mfu_scaling_plot([{"label": "a", "gpus": [256, 512], "published": [0.5, 0.48], "modelled": [0.51, 0.5]}])
    assert ax.get_ylabel() == "MFU [%]" and ax.get_xlabel() == "GPUs (log scale)"
    ax = ablation_replay_plot(["base", "x", "y"], [0.4, 0.45, 0.5], [0.41, np.nan, 0.48])
    assert ax.get_ylabel() == "MFU after the step [%]"
    assert len(ax.get_legend().texts) == 3                   # published, model, the step not modelled
    with pytest.raises(ValueError, match="baseline"):
        ablation_replay_plot(["base", "x"], [0.4, 0.45], [np.nan, 0.48])
    config = tr.parallel_config(64, global_batch_size=64, recompute="full", zero_stage=3)
    scan = tr.network_scan("Llama 3 8B", "MegaScale", config, "DeepSpeed ZeRO-3")
    ax = network_scan_plot({"ZeRO-3": scan}, marker_bytes_per_s=scan.bandwidth_bytes_per_s[2])
    assert ax.get_xlabel() == "network bandwidth per GPU, one direction [Gb/s]"
    g = np.random.default_rng(0).standard_normal(1000)
    ax = compression_tradeoff_plot({"top-k": [("1%", tr.gradient_compression(g, "top-k", fraction=0.01))]})
    assert ax.get_xscale() == "log" and "relative error" in ax.get_ylabel()


def test_scaling_series_sharing_a_label_share_a_legend_entry():
    from interconnect_lab.plotting.training import mfu_scaling_plot
    entry = {"label": "a", "published": [0.5, 0.48], "modelled": [0.51, 0.5], "color": "#0072B2"}
    ax = mfu_scaling_plot([{**entry, "gpus": [256, 512]}, {**entry, "gpus": [4096, 8192]}])
    assert [text.get_text() for text in ax.get_legend().texts] == ["a: published", "a: model"]
    assert len(ax.lines) == 4
