"""The power-bill panel of chapter 10."""

import pytest

pytest.importorskip("ipywidgets")

from .test_panel import other_value

from interconnect_lab import cost, units as u
from interconnect_lab.energy import energy_bill
from interconnect_lab.pricebook import with_transceiver
from interconnect_lab.widgets.energy import FABRICS, PowerBillPanel


def test_initial_state_matches_the_model():
    panel = PowerBillPanel()
    values = panel.values()
    switch, book = FABRICS[values["fabric"]]
    expected = energy_bill(cost.cluster_cost(values["gpus"], switch=switch,
                                             prices=with_transceiver(book, values["optics"])),
                           years=values["years"], pue=values["pue"], usd_per_kwh=values["usd_per_kwh"])
    assert panel.result.energy_usd == pytest.approx(expected.energy_usd)
    assert f"{expected.facility_power_w / u.MW:,.1f} MW" in panel.readout.value
    assert "switch power unknown" in panel.readout.value


@pytest.mark.parametrize("name", ["fabric", "gpus", "optics", "years", "usd_per_kwh", "pue"])
def test_every_control_changes_readout_and_figure(name):
    panel = PowerBillPanel()
    text, png = panel.readout.value, panel.png()
    panel.controls[name].value = other_value(panel.controls[name])
    assert panel.readout.value != text
    assert panel.png() != png


def test_an_unbuildable_fabric_says_why():
    panel = PowerBillPanel(gpus=100_000)
    assert "Cannot be built" in panel.readout.value and "at most 65,536 hosts" in panel.readout.value
    panel.controls["fabric"].value = "400GbE (Tomahawk 5 as 128 ports)"
    assert "100,000 GPUs" in panel.readout.value and "chip estimate" in panel.readout.value


def test_redraw_matches_draw():
    panel = PowerBillPanel()
    panel.controls["gpus"].value = 32_768
    panel.controls["pue"].value = 1.6
    fast = [v for ax in panel.axes for bar in ax.patches for v in (bar.get_x(), bar.get_width())]
    texts = [t.get_text() for ax in panel.axes for t in ax.texts]
    for ax in panel.axes:
        ax.clear()
    panel.draw(panel.result)
    full = [v for ax in panel.axes for bar in ax.patches for v in (bar.get_x(), bar.get_width())]
    assert fast == pytest.approx(full)
    assert texts == [t.get_text() for ax in panel.axes for t in ax.texts]
