"""Tests of ``interconnect_lab.widgets.cost``: panels for the cost of a cluster's network (chapters 5
and 10).
"""

import base64
import io

import numpy as np
import pytest

pytest.importorskip("ipywidgets")

from PIL import Image

from interconnect_lab import cost, units as u
from interconnect_lab.pricebook import ESTIMATES
from interconnect_lab.widgets.cost import ClusterCostPanel
from interconnect_lab.widgets.topology import FatTreePanel


PANELS = [FatTreePanel, ClusterCostPanel]


def pixels(png):
    return np.asarray(Image.open(io.BytesIO(png)).convert("RGB")).astype(int)


def other_value(control):
    values = [v[1] if isinstance(v, tuple) else v for v in getattr(control, "options", (True, False))]
    return next(v for v in values if v != control.value)


def test_cost_panel_initial_state_matches_the_model():
    panel = ClusterCostPanel()
    assert panel.result == cost.cluster_cost(10_000)
    assert f"{panel.result.interconnect_fraction:.1%}" in panel.readout.value
    assert "no sourced power" in panel.readout.value  # the QM9700's power is unknown, and said so


@pytest.mark.parametrize(("control", "value"), [
    ("gpus", 2048), ("oversubscription", 3.0), ("tiers", 2), ("estimate", "high"),
    ("rail_optimized", False),
])
def test_cost_panel_every_control_changes_readout_and_figure(control, value):
    panel = ClusterCostPanel()
    readout, image = panel.readout.value, panel.png()
    panel.controls[control].value = value
    assert panel.readout.value != readout
    assert panel.png() != image


def test_cost_panel_bars_stay_inside_their_axes():
    # Fixed scales: the dearest and the most power-hungry per GPU must fit.
    for estimate in ESTIMATES:
        for ratio in (1.0, 3.0, 7.0):
            for gpus in (256, 65_536):
                c = cost.cluster_cost(gpus, estimate=estimate, oversubscription=ratio)
                assert c.per_gpu_usd / u.kUSD < ClusterCostPanel.COST_LIMIT_KUSD * 0.75
                assert c.power_w / c.gpus < ClusterCostPanel.POWER_LIMIT_W * 0.75


def test_cost_panel_says_when_a_fabric_cannot_be_built():
    panel = ClusterCostPanel(gpus=4096, tiers=2)
    assert isinstance(panel.result, str) and "Cannot be built" in panel.readout.value


@pytest.mark.parametrize("cls", PANELS, ids=lambda c: c.__name__)
def test_fast_redraw_shows_what_a_full_draw_shows(cls):
    panel = cls()
    for control in panel.controls.values():
        control.value = other_value(control)
        fast = panel.png()
        panel._drawn = False  # force the figure to be cleared and drawn from scratch
        panel.update()
        full = panel.png()
        a, b = pixels(fast), pixels(full)
        assert a.shape == b.shape
        differing = (np.abs(a - b).max(axis=-1) > 32).mean()
        assert differing < 0.005, f"{cls.__name__}: {differing:.2%} of the pixels differ from a full draw"


@pytest.mark.parametrize("cls", PANELS, ids=lambda c: c.__name__)
def test_output_widget_holds_the_current_figure(cls):
    panel = cls()
    for control in panel.controls.values():
        control.value = other_value(control)
        (output,) = panel.output.outputs
        assert base64.b64decode(output["data"]["image/png"]) == panel.png()
