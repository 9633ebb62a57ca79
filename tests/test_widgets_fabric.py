"""Fabric panels (chapters 5, 6, 9): each shows what the model computes, and every control changes it."""

import pytest

pytest.importorskip("ipywidgets")

import numpy as np

from interconnect_lab import catalog
from interconnect_lab.fabric import Network, compare_routings, incast_collapse, permutation, step_times
from interconnect_lab.topology import fat_tree
from interconnect_lab.widgets.fabric import FABRICS, IncastPanel, RoutingPanel, StragglerPanel

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
    assert f"{curve.goodput_fraction('drop-tail')[-1]:.0%}" in panel.readout.value


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
