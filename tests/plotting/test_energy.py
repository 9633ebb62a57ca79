"""Figures of ``interconnect_lab.energy``: power per GPU by part, energy per bit against reach."""

import numpy as np
import pytest

pytest.importorskip("matplotlib")

import matplotlib as mpl

from interconnect_lab import cost
from interconnect_lab.energy import POWER_PARTS, energy_bill
from interconnect_lab.plotting.energy import POWER_COLORS, energy_per_bit_plot, power_breakdown_plot
from interconnect_lab.pricebook import TRANSCEIVERS


def bills():
    return [energy_bill(cost.cluster_cost(gpus)) for gpus in (1024, 4096)]


def test_power_breakdown_stacks_every_part_per_gpu():
    before = dict(mpl.rcParams)
    drawn = bills()
    ax = power_breakdown_plot(drawn)
    bars = ax.patches
    assert len(bars) == len(POWER_PARTS) * len(drawn)
    # the stacked bars of each cluster add up to its facility power per GPU
    for row, bill in enumerate(drawn):
        widths = [bar.get_width() for bar in bars[row::len(drawn)]]
        assert sum(widths) == pytest.approx(bill.facility_power_w / bill.cluster.gpus)
    assert {mpl.colors.to_hex(bar.get_facecolor()) for bar in bars} == \
        {mpl.colors.to_hex(POWER_COLORS[part]) for part in POWER_PARTS}
    assert "[W]" in ax.get_xlabel()
    assert dict(mpl.rcParams) == before


def test_power_breakdown_refuses_nothing_and_mismatched_labels():
    with pytest.raises(ValueError, match="at least one EnergyBill"):
        power_breakdown_plot([])
    with pytest.raises(ValueError, match="labels has 1 entries for 2 clusters"):
        power_breakdown_plot(bills(), labels=["one"])


def test_energy_per_bit_draws_each_module_at_its_reach():
    modules = [m for m in TRANSCEIVERS.values() if m.energy_per_bit_j is not None and m.reach_m is not None]
    ax = energy_per_bit_plot(modules)
    points = np.concatenate([line.get_xydata() for line in ax.lines if len(line.get_xydata())]
                            + [c.get_offsets() for c in ax.collections if len(c.get_offsets())])
    for module in modules:
        assert any(np.isclose(x, module.reach_m) and np.isclose(y, module.energy_per_bit_j * 1e12)
                   for x, y in points), module.name
    assert ax.get_xscale() == "log" and ax.get_yscale() == "log"
    assert "[pJ/bit]" in ax.get_ylabel()
