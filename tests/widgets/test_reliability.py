"""The checkpoint panel (chapter 9): it shows what the model computes, and every control moves it."""

import numpy as np
import pytest

pytest.importorskip("ipywidgets")

from interconnect_lab import units as u
from interconnect_lab.published import LLAMA3_INTERRUPTIONS
from interconnect_lab.reliability import checkpoint_plan
from interconnect_lab.widgets.reliability import LLAMA3_GPU_MTBF_S, CheckpointPanel


def test_llama3_gpu_mtbf_is_the_logs_rate_per_gpu():
    # 54 days x 16,384 GPUs / 419 unexpected interruptions, about 5.8 GPU-years.
    assert LLAMA3_GPU_MTBF_S == pytest.approx(54 * u.day * 16_384 / 419)
    assert LLAMA3_GPU_MTBF_S / (365 * u.day) == pytest.approx(5.78, abs=0.01)


def test_initial_state_matches_the_model():
    panel = CheckpointPanel()
    expected = checkpoint_plan(16_384, LLAMA3_GPU_MTBF_S, 60, restart_s=10 * u.minute)
    assert panel.result["at"].effective_fraction.tolist() == expected.effective_fraction.tolist()
    curve = checkpoint_plan(CheckpointPanel.GRID, LLAMA3_GPU_MTBF_S, 60, restart_s=10 * u.minute)
    assert np.array_equal(panel.result["curve"].interval_s, curve.interval_s)
    assert f"{expected.effective_fraction[0]:.1%}" in panel.readout.value
    assert "16,384 GPUs" in panel.readout.value
    # At Llama 3's own size the job fails about every 3.1 hours, as the log says.
    assert LLAMA3_INTERRUPTIONS.gpus == 16_384 and "3.09 h" in panel.readout.value


@pytest.mark.parametrize("name", ["gpus", "failure_scale", "checkpoint_s", "restart_s"])
def test_every_control_changes_the_readout_and_the_figure(name):
    panel = CheckpointPanel()
    control = panel.controls[name]
    readout, png = panel.readout.value, panel.png()
    values = [o[1] if isinstance(o, tuple) else o for o in control.options]
    control.value = next(v for v in values if v != control.value)
    assert panel.readout.value != readout
    assert panel.png() != png


def test_more_failures_mean_less_training():
    panel = CheckpointPanel()
    before = float(panel.result["at"].effective_fraction[0])
    panel.controls["failure_scale"].value = 4.0
    assert float(panel.result["at"].effective_fraction[0]) < before


def test_time_axis_holds_every_setting():
    # redraw keeps the axes' limits: the fixed time axis must hold every curve the controls can make.
    low, high = CheckpointPanel.TIME_LIMITS_MIN
    for scale in (0.25, 4.0):
        for checkpoint_s in (5, 600):
            plan = checkpoint_plan(CheckpointPanel.GRID, LLAMA3_GPU_MTBF_S / scale, checkpoint_s, restart_s=60)
            for minutes in (plan.mtbf_s / u.minute, plan.interval_s / u.minute):
                assert low <= minutes.min() and minutes.max() <= high
