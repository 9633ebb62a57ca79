"""Tests of ``interconnect_lab.catalog.racks``: rack power (catalog.RACK_POWER), the 142-600 kW racks of
chapter 10, each with its status and sources.

Hostile input is at the end.
"""

import dataclasses

import pytest

from interconnect_lab import catalog
from interconnect_lab import units as u


def test_rack_power_runs_from_an_nvl72_to_a_kyber_rack():
    gb300, rubin, kyber = (catalog.rack_power(n) for n in
                           ("GB300 NVL72", "Vera Rubin NVL72", "Rubin Ultra NVL576 (Kyber)"))
    assert gb300.power_w == 142 * u.kW and not gb300.estimate           # NVIDIA's reference architecture
    assert gb300.power_w == catalog.system("GB300 NVL72").power_w        # one fact, stated twice alike
    assert (rubin.power_low_w, rubin.power_w) == (225 * u.kW, 227 * u.kW) and rubin.estimate
    assert kyber.power_w == 600 * u.kW and kyber.estimate and kyber.distribution == "800 VDC"
    assert kyber.expected_by == "2027-12" and kyber.status == "announced"
    assert rubin.status == catalog.system("Vera Rubin NVL72").status
    assert rubin.expected_by == catalog.system("Vera Rubin NVL72").expected_by


def test_rack_power_entries_take_part_in_the_currency_check():
    assert "rack" in {kind for kind, _ in catalog.entries_with_status()}
    assert catalog.HVDC_800V in catalog.rack_power("Rubin Ultra NVL576 (Kyber)").sources


def test_bad_rack_power_raises_naming_the_field():
    gb300 = catalog.rack_power("GB300 NVL72")
    with pytest.raises(ValueError, match="power_low_w = 200000 W must be at most power_w = 142000 W"):
        dataclasses.replace(gb300, power_low_w=200 * u.kW)
    with pytest.raises(ValueError, match=r"RackPower.distribution = '400 VAC' is not valid"):
        dataclasses.replace(gb300, distribution="400 VAC")
    with pytest.raises(ValueError, match="RackPower.gpus"):
        dataclasses.replace(gb300, gpus=0)
    with pytest.raises(ValueError, match="RackPower.power_w"):
        dataclasses.replace(gb300, power_w=-1.0)
    with pytest.raises(ValueError, match="unknown"):
        catalog.rack_power("GB400 NVL72")
