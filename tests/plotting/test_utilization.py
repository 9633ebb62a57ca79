"""Figures of ``interconnect_lab.utilization``: one step's timeline, steps side by side, an ablation."""

import numpy as np
import pytest

pytest.importorskip("matplotlib")

import matplotlib as mpl

from interconnect_lab.plotting.utilization import ablation_plot, step_breakdown_plot, step_time_plot
from interconnect_lab.published import MEGASCALE_ABLATION
from interconnect_lab.utilization import step_time


def test_step_time_plot_lanes_add_up_to_the_step():
    before = dict(mpl.rcParams)
    step = step_time(0.6, 0.5, 0.4)      # 0.2 s hidden, 0.3 s exposed: a 0.9 s step
    ax = step_time_plot(step, time_limit_s=1.0)
    ends = [bar.get_x() + bar.get_width() for bar in ax.patches]
    assert max(ends) == pytest.approx(step.step_s)
    assert ax.get_xlim()[1] == pytest.approx(1.0)
    assert dict(mpl.rcParams) == before


def test_step_time_plot_draws_one_step_only():
    with pytest.raises(ValueError, match="one step"):
        step_time_plot(step_time(np.array([0.5, 0.6]), 0.1))


def test_step_breakdown_plot_one_bar_pair_per_case():
    steps = step_time(np.array([1.0, 2.0]), np.array([0.5, 0.5]), 0.0)
    ax = step_breakdown_plot(["a", "b"], steps)
    widths = sorted(round(bar.get_width(), 9) for bar in ax.patches)
    assert widths == [0.5, 0.5, 1.0, 2.0]
    with pytest.raises(ValueError, match="got 1 labels for 2 cases"):
        step_breakdown_plot(["a"], steps)


def test_ablation_plot_one_bar_per_step_of_the_table():
    ax = ablation_plot(MEGASCALE_ABLATION)
    assert len(ax.patches) == len(MEGASCALE_ABLATION)
    assert "MFU [%]" in ax.get_xlabel()
