"""Reliability figures: labelled axes with units, one line per scenario, global settings untouched."""

import numpy as np
import pytest

pytest.importorskip("matplotlib")

import matplotlib as mpl

from interconnect_lab import units as u
from interconnect_lab.plotting.reliability import (
    CATEGORY_COLORS, checkpoint_plot, interruption_causes_plot, interval_tradeoff_plot,
)
from interconnect_lab.published import LLAMA3_INTERRUPTIONS, OPT175B_RESTARTS
from interconnect_lab.reliability import checkpoint_plan, daly_interval, effective_training_fraction


def test_interruption_causes_plot_draws_every_cause():
    before = dict(mpl.rcParams)
    ax = interruption_causes_plot(LLAMA3_INTERRUPTIONS)
    bars = [p for p in ax.patches if p.get_width() > 0]
    assert len(bars) == len(LLAMA3_INTERRUPTIONS.causes)
    assert sorted(int(b.get_width()) for b in bars) == sorted(c.interruptions for c in LLAMA3_INTERRUPTIONS.causes)
    network = next(b for b in bars if int(b.get_width()) == LLAMA3_INTERRUPTIONS.network_switch_and_cable)
    assert mpl.colors.to_hex(network.get_facecolor()) == CATEGORY_COLORS["Network"].lower()
    assert "[-]" in ax.get_xlabel()
    assert dict(mpl.rcParams) == before


def test_interruption_causes_plot_needs_a_table():
    with pytest.raises(ValueError, match="causes"):
        interruption_causes_plot(OPT175B_RESTARTS)


def test_interval_tradeoff_plot_marks_the_optimum():
    intervals = np.geomspace(60, 3600 * 10, 50)
    mtbf = 3 * u.hour
    best = daly_interval(60, mtbf)
    ax = interval_tradeoff_plot(intervals, {"3 h": effective_training_fraction(intervals, 60, mtbf)},
                                optima={"3 h": (best, effective_training_fraction(best, 60, mtbf))})
    markers = [line for line in ax.get_lines() if line.get_marker() == "o"]
    assert len(markers) == 1 and markers[0].get_xdata()[0] == pytest.approx(best / u.minute)
    assert "[min]" in ax.get_xlabel() and "[-]" in ax.get_ylabel()
    with pytest.raises(ValueError):
        interval_tradeoff_plot(intervals, {})


def test_checkpoint_plot_has_two_panels_and_named_lines():
    gpus = np.geomspace(1000, 100_000, 20)
    plans = {f"restart {r} min": checkpoint_plan(gpus, 5 * 365 * u.day, 60, restart_s=r * u.minute) for r in (3, 10)}
    left, right = checkpoint_plot(plans, mark_gpus=16_384, observations=[(16_384, 0.9, "observed")])
    gids = {line.get_gid() for line in left.get_lines()} | {line.get_gid() for line in right.get_lines()}
    assert {"mtbf", "interval", "effective restart 3 min", "effective restart 10 min", "mark"} <= gids
    assert "[min]" in left.get_ylabel() and "[-]" in left.get_xlabel() and "[-]" in right.get_ylabel()
    assert right.get_ylim() == (0, 1)
    with pytest.raises(ValueError):
        checkpoint_plot({})
