"""Tests of ``interconnect_lab.plotting.fabric``: figures for the fabric simulator (chapters 5, 6 and
9): routing, incast, stragglers, and multipath transport (hash collisions and packet reordering).
"""

import numpy as np
import pytest

pytest.importorskip("matplotlib")

import matplotlib as mpl

from interconnect_lab.fabric import (
    Network, detect_slow_ranks, ecmp_collisions, fair_rates, incast_collapse, permutation, rank_timings,
    simulate, step_times,
)
from interconnect_lab.fabric.reordering import spray_arrivals
from interconnect_lab.plotting.fabric import (
    ROUTING_COLORS, flow_completion_plot, flow_splitting_plot, incast_collapse_plot, line_rate_plot,
    link_utilization_plot, max_load_plot, slow_rank_plot, spray_arrivals_plot, straggler_scaling_plot,
    victim_slowdown_plot,
)
from interconnect_lab.topology import fat_tree


@pytest.fixture(scope="module")
def net():
    return Network(fat_tree(128, radix=16, tiers=2), nic_capacity_bytes_per_s=50e9)


def test_flow_completion_plot(net):
    before = dict(mpl.rcParams)
    traffic = permutation(net.hosts, 1e6, seed=0)
    results = {routing: simulate(net, traffic, routing, seed=0) for routing in ("ecmp", "spray")}
    ax = flow_completion_plot(results)
    steps = [line for line in ax.get_lines() if line.get_marker() in ("None", None, "")]
    assert len(steps) == 2 and steps[0].get_color() == ROUTING_COLORS["ecmp"]
    assert "[µs]" in ax.get_xlabel() and "[-]" in ax.get_ylabel()
    assert dict(mpl.rcParams) == before


def test_line_rate_plot_marks_the_prediction():
    net = Network(fat_tree(512, radix=32, tiers=2), nic_capacity_bytes_per_s=1.0)
    traffic = permutation(net.hosts, 1.0, seed=0)
    expectation = ecmp_collisions(net, samples=1000)
    ax = line_rate_plot({"ECMP": fair_rates(net, traffic, "ecmp")}, expectation=expectation)
    assert [line.get_xdata()[0] for line in ax.get_lines()] == [expectation.mean_rate,
                                                                 expectation.expected_slowest_rate]
    assert "[-]" in ax.get_xlabel()


def test_link_utilization_plot_has_one_curve_per_kind(net):
    ax = link_utilization_plot(simulate(net, permutation(net.hosts, 1e6, seed=0), "spray"))
    assert len(ax.get_lines()) == 4  # two tiers: NIC up/down, leaf up/down
    assert all(np.all(line.get_ydata() <= 1 + 1e-9) for line in ax.get_lines())


def test_incast_plots():
    curve = incast_collapse([1, 4, 16], 32 * 4096, 50e9, 16 * 4096, 4096, link_delay_s=1e-6,
                            retransmission_timeout_s=1e-3, victim_bytes=32 * 4096)
    ax = incast_collapse_plot(curve)
    assert len(ax.get_lines()) == 3 and ax.get_xscale() == "log"
    assert "[-]" in ax.get_xlabel() and "[-]" in ax.get_ylabel()
    ax = victim_slowdown_plot(curve)
    assert ax.get_yscale() == "log"


def test_straggler_plots():
    counts = np.logspace(0, 5, 11).astype(int)
    results = {"jitter": step_times(counts, 1.0, jitter_s=0.01),
               "slow machines": step_times(counts, 1.0, slow_fraction=0.005, slowdown=0.1)}
    ax = straggler_scaling_plot(results)
    # Two means, the two bands' upper edges and one worker's mean; the legend explains the shading.
    assert len(ax.get_lines()) == 5 and ax.get_xscale() == "log"
    assert any("99th percentile" in text.get_text() for text in ax.get_legend().get_texts())
    assert len(straggler_scaling_plot(results, show_p99=False).get_lines()) == 3
    timings = rank_timings(256, 20, 1.0, slow_ranks=[9], slowdown=0.05, jitter_s=0.01, seed=0)
    ax = slow_rank_plot(detect_slow_ranks(timings.compute_s))
    flagged = ax.get_lines()[1]
    assert list(flagged.get_xdata()) == [9]
    assert "[s]" in ax.get_ylabel() or "[ms]" in ax.get_ylabel()


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
