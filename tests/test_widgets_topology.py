"""Chapter 5 panels: the fat-tree panel and the cluster-cost panel show what the model computes."""

import base64
import io

import pytest

pytest.importorskip("ipywidgets")

import numpy as np
from PIL import Image

from interconnect_lab import catalog, cost, topology
from interconnect_lab import units as u
from interconnect_lab.pricebook import ESTIMATES
from interconnect_lab.widgets.cost import ClusterCostPanel
from interconnect_lab.widgets.topology import GPU_COUNTS, SIZE_GRID, FatTreePanel

PANELS = [FatTreePanel, ClusterCostPanel]


def pixels(png):
    return np.asarray(Image.open(io.BytesIO(png)).convert("RGB")).astype(int)


def other_value(control):
    values = [v[1] if isinstance(v, tuple) else v for v in getattr(control, "options", (True, False))]
    return next(v for v in values if v != control.value)


# The fat-tree panel -------------------------------------------------------------------------

def test_fat_tree_panel_initial_state_matches_the_model():
    panel = FatTreePanel()
    tree = topology.fat_tree(10_000, radix=64, rails=8,
                             port_bytes_per_s=catalog.link("InfiniBand NDR").per_direction_bytes_per_s)
    assert panel.result["tree"] == tree
    assert f"{tree.switches:,} switches" in panel.readout.value
    assert f"{tree.cables:,} cables" in panel.readout.value
    assert f"{tree.bisection_bytes_per_s / u.TB_per_s:,.1f} TB/s" in panel.readout.value
    # The curves are the same model at every size of the grid.
    for hosts, (leaves, spines, cores) in zip(SIZE_GRID, panel.result["curves"]):
        if hosts > topology.max_hosts(64, 3, rails=8):
            assert np.isnan([leaves, spines, cores]).all()  # beyond the design's reach: no curve
            continue
        tree = topology.fat_tree(hosts, radix=64, rails=8)
        assert (leaves, spines, cores) == pytest.approx(
            (tree.leaves, tree.spines or np.nan, tree.cores or np.nan), nan_ok=True)


@pytest.mark.parametrize(("control", "value"), [
    ("gpus", 2048), ("radix", 144), ("tiers", 2), ("oversubscription", 3.0),
    ("link", "InfiniBand XDR"), ("rail_optimized", False),
])
def test_fat_tree_panel_every_control_changes_the_readout(control, value):
    panel = FatTreePanel()
    readout, image = panel.readout.value, panel.png()
    panel.controls[control].value = value
    assert panel.readout.value != readout
    if control != "link":  # the port rate changes the bisection, not the switch counts
        assert panel.png() != image


def test_fat_tree_panel_says_when_a_design_cannot_be_built():
    panel = FatTreePanel(gpus=131_072, radix=64)
    assert panel.result["tree"] is None
    assert "Cannot be built" in panel.readout.value and "must be <= 65536" in panel.readout.value
    panel.controls["radix"].value = 144  # 144-port switches reach it
    assert panel.result["tree"] is not None


def test_fat_tree_panel_offers_catalog_switch_radices_and_link_rates():
    panel = FatTreePanel()
    radices = [v for _, v in panel.controls["radix"].options]
    assert {s.ports for s in catalog.SWITCHES.values() if s.family != "NVSwitch"} <= set(radices)
    labels = [label for label, _ in panel.controls["link"].options]
    assert "NDR, 400 Gb/s" in labels and "XDR, 800 Gb/s" in labels
    assert set(GPU_COUNTS) >= {10_000, 65_536}


# The cluster-cost panel ---------------------------------------------------------------------

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


# Both: the fast path draws what a full draw would -------------------------------------------

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
