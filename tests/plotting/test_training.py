"""Tests of ``interconnect_lab.plotting.training``: figures for :mod:`interconnect_lab.training`
(chapters 2 and 8): step time, memory, pipeline schedules, model against published runs, MFU against
the network, gradient compression, tensor parallelism degree by degree, attention kernels by
sequence length and the fidelity table.
"""

import pytest

pytest.importorskip("matplotlib")

import matplotlib as mpl

from interconnect_lab import training as tr
from interconnect_lab.plotting import attention_share_plot, fidelity_plot
from interconnect_lab.plotting.training import (
    memory_breakdown_plot, published_comparison_plot, tensor_parallel_plot, training_breakdown_plot,
)
from interconnect_lab.published import TRAINING_RUNS


def test_attention_share_plot_draws_each_pass_of_each_kernel_through_its_measurements():
    ax = attention_share_plot("H100 SXM")
    assert len(ax.lines) == 6                                   # three kernels, forward and backward
    assert [len(c.get_offsets()) for c in ax.collections] == [len(tr.ATTENTION_BENCHMARK_LENGTHS)] * 6
    cudnn = next(line for line in ax.lines if line.get_label() == "cuDNN, forward")
    x, y = cudnn.get_data()
    assert y[-1] == pytest.approx(100 * tr.ATTENTION_KERNELS["cuDNN"]["H100 SXM"].forward)   # held beyond 16K
    assert y[0] < 0.7 * y[-1]
    assert "%" in ax.get_ylabel() and "tokens" in ax.get_xlabel() and ax.get_xscale() == "log"


def test_attention_share_plot_draws_one_figure_flat_and_skips_kernels_without_a_share():
    # On the A100 the papers give FlashAttention-2 one share, and cuDNN none.
    ax = attention_share_plot("A100 SXM", ("FlashAttention-2", "cuDNN"))
    assert len(ax.lines) == 2 and not ax.collections
    assert set(ax.lines[0].get_ydata()) == {72.0}


def test_fidelity_plot_has_a_point_per_run_sorted_by_error():
    rows = tr.fidelity_table(TRAINING_RUNS[:6])
    ax = fidelity_plot(rows)
    points = [c for c in ax.collections if len(c.get_offsets()) == 1]
    errors = [float(c.get_offsets()[0][1]) for c in points]
    assert len(errors) == 6
    assert errors == sorted(errors)
    assert "%" in ax.get_ylabel()


def test_fidelity_plot_refuses_an_empty_table():
    with pytest.raises(ValueError, match="at least one"):
        fidelity_plot([])


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


def test_tensor_parallel_plot_marks_the_chosen_degree_and_the_network():
    scan = tr.tensor_parallel_scan("GPT-3 175B", tr.system_cluster("DGX H100"), max_tensor_parallel=32)
    left, right = tensor_parallel_plot(scan, selected=8)
    assert left.get_yscale() == "log" and "[ms]" in left.get_ylabel() and "[%]" in right.get_ylabel()
    assert "[GPUs]" in left.get_xlabel()
    assert len(left.lines) == 4 and len(right.lines) == 2            # two curves + two rings; curve + ring
    assert left.patches or left.collections                          # the shaded network region
    with pytest.raises(ValueError, match="at least two degrees"):
        tensor_parallel_plot(tr.tensor_parallel_scan("GPT-3 175B", "Selene", degrees=[8]))
