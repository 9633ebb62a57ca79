"""Energy, energy per bit, link media, the Ethernet price book and the chip-yield model (chapter 10).

Hostile input is at the end (and fuzzed with tests/fuzzing.py where noted).
"""

import dataclasses
import math

import numpy as np
import pytest
from hypothesis import strategies as st

from fuzzing import Case, fraction, make_tests, nonnegative, optional, positive

from interconnect_lab import catalog, cost, energy, pricebook, published, standards, units as u
from interconnect_lab.energy import energy_bill, energy_cost_usd, energy_per_bit_j, lifetime_energy_j


@pytest.fixture(scope="module")
def pod():
    return cost.cluster_cost(1016)


def test_lifetime_energy_by_hand():
    # 1 MW for one Julian year (8,766 h) at PUE 1.5 and full load = 13,149 MWh
    assert lifetime_energy_j(1 * u.MW, 1, pue=1.5) == pytest.approx(1.5 * 8766 * u.MWh)
    assert lifetime_energy_j(1 * u.MW, 2, pue=1.0, load=0.5) == pytest.approx(8766 * u.MWh)
    assert energy_cost_usd(1000 * u.kWh, 0.10) == pytest.approx(100.0)


def test_lifetime_energy_is_linear_and_vectorized():
    years = np.array([1.0, 2.0, 4.0])
    energies = lifetime_energy_j(10 * u.kW, years, pue=1.2)
    assert np.allclose(energies / energies[0], years)


@pytest.mark.parametrize("kwargs, match", [
    (dict(it_power_w=-1, years=1), "it_power_w"),
    (dict(it_power_w=1, years=-1), "years"),
    (dict(it_power_w=1, years=1, pue=0.9), "pue"),
    (dict(it_power_w=1, years=1, load=1.5), "load"),
])
def test_lifetime_energy_rejects_bad_input(kwargs, match):
    with pytest.raises(ValueError, match=match):
        lifetime_energy_j(**kwargs)


def test_energy_per_bit_of_the_catalog_modules():
    assert energy_per_bit_j(17.0, 800 * u.Gbit_per_s) / u.pJ == pytest.approx(21.25)
    for module in pricebook.TRANSCEIVERS.values():
        assert module.energy_per_bit_j == pytest.approx(energy_per_bit_j(module.power_w,
                                                                         module.per_direction_bytes_per_s))
    with pytest.raises(ValueError, match="per_direction_bytes_per_s"):
        energy_per_bit_j(1.0, 0.0)


def test_link_media_order_reach_and_energy():
    # copper reaches metres for a fraction of a pJ/bit; optics reach 50-100 m for ~20 pJ/bit
    by_medium = {m.medium: m for m in pricebook.TRANSCEIVERS.values() if m.medium}
    order = [by_medium[medium] for medium in pricebook.MEDIA]
    reaches = [m.reach_m for m in order]
    energies = [m.energy_per_bit_j for m in order]
    assert reaches == sorted(reaches)
    assert energies == sorted(energies)
    assert by_medium["passive copper"].reach_m <= 3.0
    with pytest.raises(ValueError, match="medium"):
        dataclasses.replace(pricebook.transceiver("MMS4X00-NS"), medium="carrier pigeon")


def test_energy_bill_adds_up(pod):
    bill = energy_bill(pod, years=5, pue=1.3, usd_per_kwh=0.10)
    assert bill.facility_power_w == pytest.approx(1.3 * pod.power_w)
    assert sum(bill.power_breakdown_w.values()) == pytest.approx(bill.facility_power_w)
    assert sum(bill.energy_usd_breakdown.values()) == pytest.approx(bill.energy_usd)
    hours = 5 * 8766
    assert bill.energy_usd == pytest.approx(pod.power_w * 1.3 * hours / 1000 * 0.10)
    assert bill.energy_over_capital == pytest.approx(bill.energy_usd / pod.total_usd)
    assert 0 < bill.network_energy_usd < bill.energy_usd
    # the unknown QM9700 power is left out, and says so
    assert bill.power_breakdown_w["switches"] == 0.0 and pod.unknown_power


def test_energy_bill_defaults_to_the_price_book(pod):
    assert energy_bill(pod).usd_per_kwh == pricebook.ELECTRICITY_PRICE.usd
    with pytest.raises(TypeError, match="ClusterCost"):
        energy_bill(42)
    with pytest.raises(ValueError, match="pue"):
        energy_bill(pod, pue=0.5)


def test_energy_grows_with_every_input(pod):
    base = energy_bill(pod, years=4, pue=1.2, usd_per_kwh=0.08).energy_usd
    for kwargs in (dict(years=5, pue=1.2, usd_per_kwh=0.08), dict(years=4, pue=1.4, usd_per_kwh=0.08),
                   dict(years=4, pue=1.2, usd_per_kwh=0.12)):
        assert energy_bill(pod, **kwargs).energy_usd > base


def test_electricity_price_is_a_dated_estimate():
    price = pricebook.ELECTRICITY_PRICE
    assert price.source.estimate and price.date == "2023"
    assert price.low_usd < price.usd < price.high_usd < 0.25


def test_with_transceiver_swaps_both_ends():
    book = pricebook.with_transceiver(pricebook.H100_NDR_PRICES, "MMA4Z00-NS")
    assert book.switch_transceiver.item == book.host_transceiver.item == "MMA4Z00-NS"
    assert book.switch_transceiver.usd == pricebook.H100_NDR_PRICES.switch_transceiver.usd
    multimode = cost.cluster_cost(1016, prices=book)
    single = cost.cluster_cost(1016)
    assert multimode.transceiver_power_w == pytest.approx(single.transceiver_power_w * 15 / 17)
    with pytest.raises(ValueError, match="unknown transceiver"):
        pricebook.with_transceiver(pricebook.H100_NDR_PRICES, "SFP-1G")


def test_breakout_keeps_capacity_and_names_the_mode():
    th5 = catalog.switch("Tomahawk 5")
    split = catalog.breakout(th5, 2)
    assert split.name == "Tomahawk 5 (128 x 400G)" and split.ports == 128
    assert split.capacity_per_direction_bytes_per_s == th5.capacity_per_direction_bytes_per_s
    assert catalog.breakout("Tomahawk 5", 1) is th5
    with pytest.raises(ValueError, match="ways"):
        catalog.breakout(th5, 0)


def test_ethernet_book_reaches_100k_gpus():
    # a radix-128 three-tier tree holds 100,000 GPUs; the radix-64 QM9700 tree stops at 65,536
    eth = cost.cluster_cost(100_000, switch=catalog.breakout("Tomahawk 5", 2), prices=pricebook.H100_ETHERNET_PRICES)
    assert eth.fabric.tiers == 3 and not eth.unknown_power
    assert eth.switch_power_w == pytest.approx(eth.fabric.switches * 500.0)
    with pytest.raises(ValueError, match="65536"):
        cost.cluster_cost(100_000)


def test_pue_and_rack_figures_are_sourced():
    assert published.PUE_ESTIMATES[0].pue == 1.58
    assert all(e.source.url and e.pue >= 1 for e in published.PUE_ESTIMATES)
    kinds = {f.kind for f in published.RACK_POWER_FIGURES}
    assert kinds == {"budget", "supply", "survey"}
    su = published.RACK_POWER_FIGURES[0]
    assert su.per_rack_w == pytest.approx(150 * u.kW)


def test_cpo_claims_are_vendor_claims():
    for claim in (standards.NVIDIA_CPO_CLAIM, standards.BROADCOM_CPO_CLAIM):
        assert not claim.independent and claim.sources
    assert standards.NVIDIA_CPO_CLAIM.value == 3.5
    assert standards.BROADCOM_CPO_CLAIM.value == 0.70


# Hostile input: fuzzed with tests/fuzzing.py -----------------------------------------------------

FUZZ_CASES = [
    # energy and cost
    Case(energy.lifetime_energy_j, dict(it_power_w=nonnegative(1.0, 1e10), years=nonnegative(0.01, 100),
                                        pue=positive(1.0, 3.0), load=fraction())),
    Case(energy.energy_cost_usd, dict(energy_j=nonnegative(1.0, 1e20), usd_per_kwh=nonnegative(1e-3, 10))),
    Case(energy.energy_per_bit_j, dict(power_w=nonnegative(1e-3, 1e3),
                                       per_direction_bytes_per_s=positive(1e6, 1e13))),
    Case(energy.energy_bill, dict(cluster=st.builds(cost.cluster_cost, st.integers(1, 50_000)),
                                  years=positive(0.01, 50), pue=positive(1.0, 3.0), load=fraction(),
                                  usd_per_kwh=optional(positive(1e-3, 10))), examples=0.25),
]


# Hostile input -----------------------------------------------------------------------------------

@pytest.mark.usefixtures("warnings_are_errors")
def test_energy_never_inf():
    with pytest.raises(ValueError, match=r"it_power_w = 1e\+300 W is not valid: it must be in \[0, 1e\+12\] W"):
        energy.lifetime_energy_j(1e300, 1e300)
    with pytest.raises(ValueError, match=r"energy_j = 1e\+308 J is not valid"):
        energy.energy_cost_usd(1e308, 1e10)
    assert math.isfinite(energy.energy_cost_usd(energy.lifetime_energy_j(1e12, 1000, pue=10), 1000))

test_fuzz, test_fuzz_nightly = make_tests(FUZZ_CASES)
