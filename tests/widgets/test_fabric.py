"""Tests of ``interconnect_lab.widgets.fabric``: panels for the fabric simulator (chapters 5, 6 and 9):
routing, incast, stragglers.
"""

import numpy as np
import pytest

pytest.importorskip("ipywidgets")

from interconnect_lab import catalog, units as u
from interconnect_lab.fabric import Network, compare_routings, incast_collapse, permutation, step_times
from interconnect_lab.fabric.reordering import spray_arrivals
from interconnect_lab.topology import fat_tree
from interconnect_lab.widgets.fabric import FABRICS, IncastPanel, RoutingPanel, SprayPanel, StragglerPanel


NDR = catalog.link("InfiniBand NDR").per_direction_bytes_per_s


def test_routing_panel_shows_the_simulation():
    panel = RoutingPanel()
    network = Network(fat_tree(1024, radix=16, tiers=3), nic_capacity_bytes_per_s=NDR)
    expected = compare_routings(network, permutation(1024, 2e6, seed=0), seed=0)
    for name, result in expected.items():
        assert panel.result["results"][name].completion_times_s.tolist() == result.completion_times_s.tolist()
    assert "<b>spray</b> 40 µs" in panel.readout.value


def test_incast_panel_shows_the_curve():
    panel = IncastPanel()
    curve = incast_collapse([1, 2, 4, 8, 16, 32], 256 * 1024, NDR, 32 * 4096, 4096, link_delay_s=1e-6,
                            retransmission_timeout_s=1e-3, victim_bytes=256 * 1024,
                            flow_controls=IncastPanel.FLOW_CONTROLS)
    for control, results in curve.results.items():
        assert np.array_equal(panel.result.goodput_fraction(control), curve.goodput_fraction(control))
    assert f"{curve.goodput_fraction('drop-tail/timeout only')[-1]:.0%}" in panel.readout.value
    assert f"<b>drop-tail/selective repeat</b> {curve.goodput_fraction('drop-tail/selective repeat')[-1]:.0%}" in panel.readout.value


def test_straggler_panel_shows_the_step_times():
    panel = StragglerPanel()
    expected = step_times(StragglerPanel.COUNTS, 1.0, jitter="exponential", jitter_s=0.01, slow_fraction=0.005,
                          slowdown=0.1)
    assert np.array_equal(panel.result["jitter and slow machines"].expected_step_s, expected.expected_step_s)


@pytest.mark.parametrize("cls", [RoutingPanel, IncastPanel, StragglerPanel])
def test_every_control_changes_the_readout(cls):
    panel = cls()
    for name, control in panel.controls.items():
        readout = panel.readout.value
        options = [o[1] if isinstance(o, tuple) else o for o in getattr(control, "options", ())]
        control.value = (next(v for v in options if v != control.value) if options
                         else (control.max if control.value != control.max else control.min))
        assert panel.readout.value != readout, name


def test_fabrics_are_buildable():
    for hosts, radix, tiers in FABRICS.values():
        assert fat_tree(hosts, radix=radix, tiers=tiers).hosts == hosts


RATE = catalog.link("Ethernet 800G").per_direction_bytes_per_s


def test_initial_state_is_the_model():
    panel = SprayPanel()
    expected = spray_arrivals([2e-6] * 3 + [3.5e-6], 64, 4 * u.KiB, RATE)
    assert np.array_equal(panel.result.arrival_times_s, expected.arrival_times_s)
    assert f"{expected.go_back_n_accepted} of 64" in panel.readout.value
    assert u.format_bytes(expected.reorder_buffer_bytes) in panel.readout.value


@pytest.mark.parametrize("name, value", [("paths", 8), ("queue_us", 5.0), ("packets", 128), ("order", "random")])
def test_every_control_changes_readout_and_figure(name, value):
    panel = SprayPanel()
    readout, png = panel.readout.value, panel.png()
    panel.controls[name].value = value
    assert panel.readout.value != readout
    assert panel.png() != png


def test_queue_moves_the_lines_in_place():
    panel = SprayPanel(queue_us=1.5)
    lines = panel.axes.get_lines()
    panel.controls["queue_us"].value = 2.0          # same time axis: the fast path
    assert panel.axes.get_lines() == lines
    slow = lines[1].get_xdata()
    expected = spray_arrivals([2e-6] * 3 + [4e-6], 64, 4 * u.KiB, RATE)
    assert slow == pytest.approx(expected.arrival_times_s[expected.paths == 3] / u.us)


def test_no_queue_means_one_group_and_no_reordering():
    panel = SprayPanel(queue_us=0.0)
    assert panel.result.out_of_order_fraction == 0
    assert "0% of the packets" in panel.readout.value
    assert len(panel.axes.get_lines()) == 2        # one delay group and the frontier


def test_readout_names_the_setting_even_when_the_metrics_coincide():
    # With random spraying, 8 and 9 paths can give the same metrics; the readout still changes.
    panel = SprayPanel(paths=8, queue_us=3.0, order="random")
    before = panel.readout.value
    panel.controls["paths"].value = 9
    assert "over 9 paths" in panel.readout.value and panel.readout.value != before
