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
