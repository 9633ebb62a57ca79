"""Multipath figures (chapter 6): what each draws, labelled axes with units, global settings untouched."""

import pytest

pytest.importorskip("matplotlib")

import matplotlib as mpl
import numpy as np

from interconnect_lab.fabric import Network, ecmp_collisions
from interconnect_lab.fabric.reordering import spray_arrivals
from interconnect_lab.plotting.fabric import ROUTING_COLORS
from interconnect_lab.plotting.fabric import flow_splitting_plot, max_load_plot, spray_arrivals_plot
from interconnect_lab.topology import fat_tree


@pytest.fixture(scope="module")
def expectation():
    return ecmp_collisions(Network(fat_tree(512, radix=32, tiers=2), nic_capacity_bytes_per_s=1.0), samples=500)


def test_max_load_plot_compares_prediction_and_simulation(expectation):
    before = dict(mpl.rcParams)
    ax = max_load_plot(expectation, [5, 5, 6, 4, 5])
    predicted, simulated = ax.containers
    shown = np.array([bar.get_x() + bar.get_width() / 2 for bar in predicted]) + 0.2
    pmf = dict(zip(expectation.max_load, expectation.max_load_pmf))
    assert [bar.get_height() for bar in predicted] == pytest.approx([pmf[int(round(m))] for m in shown])
    assert sorted(bar.get_height() for bar in simulated) == pytest.approx([0.2, 0.2, 0.6])
    assert "[-]" in ax.get_xlabel() and "[-]" in ax.get_ylabel()
    assert dict(mpl.rcParams) == before


def test_max_load_plot_without_simulation(expectation):
    ax = max_load_plot(expectation)
    assert len(ax.containers) == 1
    with pytest.raises(ValueError, match="empty"):
        max_load_plot(expectation, [])


def test_flow_splitting_plot_draws_mean_band_and_references():
    slowdowns = np.array([[6.0, 4.0, 2.0], [5.0, 3.0, 2.0]])
    ax = flow_splitting_plot([1, 4, 16], slowdowns, references={"spray": 1.0, "adaptive": 2.0})
    mean = ax.get_lines()[0]
    assert mean.get_ydata().tolist() == [5.5, 3.5, 2.0] and mean.get_color() == ROUTING_COLORS["ecmp"]
    assert [line.get_ydata()[0] for line in ax.get_lines()[1:]] == [1.0, 2.0]
    assert ax.get_lines()[1].get_color() == ROUTING_COLORS["spray"]
    assert "[-]" in ax.get_xlabel() and "[-]" in ax.get_ylabel()
    with pytest.raises(ValueError, match="columns"):
        flow_splitting_plot([1, 2], slowdowns)


def test_spray_arrivals_plot_one_colour_per_delay_and_the_frontier():
    arrivals = spray_arrivals([2e-6, 2e-6, 3.5e-6], 30, 4096, 100e9)
    ax = spray_arrivals_plot(arrivals)
    lines = ax.get_lines()
    assert len(lines) == 3  # the two 2 µs paths, the 3.5 µs path, the in-order frontier
    assert [len(line.get_xdata()) for line in lines[:2]] == [20, 10]
    assert lines[2].get_ydata().tolist() == list(range(30))
    labels = [text.get_text() for text in ax.get_legend().get_texts()]
    assert labels == ["paths 0–1: delay 2 µs", "path 2: delay 3.5 µs", "in-order frontier"]
    assert "[µs]" in ax.get_xlabel() and "[-]" in ax.get_ylabel()


def test_spray_arrivals_plot_can_leave_delays_out_of_the_legend():
    ax = spray_arrivals_plot(spray_arrivals([1e-6, 3e-6, 1e-6], 12, 4096, 100e9), label_delays=False)
    assert [text.get_text() for text in ax.get_legend().get_texts()] == ["paths 0, 2", "path 1", "in-order frontier"]
