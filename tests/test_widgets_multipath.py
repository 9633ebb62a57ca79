"""The spraying panel (chapter 6): it shows what the model computes, and every control changes it."""

import pytest

pytest.importorskip("ipywidgets")

import numpy as np

from interconnect_lab import catalog
from interconnect_lab import units as u
from interconnect_lab.fabric.reordering import spray_arrivals
from interconnect_lab.widgets.fabric import SprayPanel

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
