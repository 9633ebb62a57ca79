"""Tests of ``interconnect_lab.widgets.topology``: panels for :mod:`interconnect_lab.topology`: sizing
a fat tree (chapter 5), and topologies side by side (chapter 13).
"""

import numpy as np
import pytest

pytest.importorskip("ipywidgets")

from interconnect_lab import catalog, topology, units as u
from interconnect_lab.topology import topology_comparison
from interconnect_lab.widgets.topology import GPU_COUNTS, SIZE_GRID, FatTreePanel


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
    assert "Cannot be built" in panel.readout.value and "at most 65,536 hosts" in panel.readout.value
    panel.controls["radix"].value = 144  # 144-port switches reach it
    assert panel.result["tree"] is not None


def test_fat_tree_panel_offers_catalog_switch_radices_and_link_rates():
    panel = FatTreePanel()
    radices = [v for _, v in panel.controls["radix"].options]
    assert {s.ports for s in catalog.SWITCHES.values() if s.family != "NVSwitch"} <= set(radices)
    labels = [label for label, _ in panel.controls["link"].options]
    assert "NDR, 400 Gb/s" in labels and "XDR, 800 Gb/s" in labels
    assert set(GPU_COUNTS) >= {10_000, 65_536}


def test_topology_panel_shows_the_model():
    from interconnect_lab.widgets.topology import TopologyPanel
    panel = TopologyPanel()
    table = topology_comparison(4096, radix=64)
    assert panel.result.names == table.names
    assert panel.result.cost_per_host_usd == pytest.approx(table.cost_per_host_usd)
    readout, image = panel.readout.value, panel.png()
    panel.controls["hosts"].value = 32_768
    assert panel.readout.value != readout or panel.png() != image
    assert panel.result.summaries[0].hosts >= 32_768
    panel.controls["radix"].value = 128
    assert panel.result.summaries[0].radix == 128
