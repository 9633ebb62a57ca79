"""Tests of ``interconnect_lab.pricebook``: price book: dated, sourced estimates of what a cluster's
parts cost.

Hostile input is at the end (and fuzzed with tests/fuzzing.py where noted).
"""

import dataclasses
import math

import pytest

from interconnect_lab import topology
from interconnect_lab import units as u
from interconnect_lab.pricebook import (
    H100_NDR_PRICES, TRANSCEIVERS, Price, PriceBook, Transceiver, transceiver, with_transceiver,
)
from interconnect_lab.sources import Source


def all_prices(book):
    return [getattr(book, f.name) for f in dataclasses.fields(book)
            if isinstance(getattr(book, f.name), Price)]


@pytest.mark.parametrize("price", all_prices(H100_NDR_PRICES), ids=lambda p: p.item)
def test_every_price_is_a_dated_sourced_estimate(price):
    assert price.source.estimate
    assert price.source.url or price.source.doi
    assert price.date and price.note
    assert price.low_usd <= price.usd <= price.high_usd


def test_price_validation():
    guess = Source(title="a guess", year=2024, url="https://example.org", estimate=True)
    with pytest.raises(ValueError, match="must be marked estimate=True"):
        Price(item="switch", usd=1, date="2024", source=dataclasses.replace(guess, estimate=False))
    with pytest.raises(ValueError, match=r"date = '2024-13' must be 'YYYY-MM' or 'YYYY'"):
        Price(item="switch", usd=1, date="2024-13", source=guess)
    with pytest.raises(ValueError, match=r"Price\('switch'\).usd = -5 USD is not valid"):
        Price(item="switch", usd=-5, date="2024", source=guess)
    with pytest.raises(ValueError, match=r"low_usd <= usd <= high_usd must hold"):
        Price(item="switch", usd=10, low_usd=20, date="2024", source=guess)
    with pytest.raises(ValueError, match="give a NIC price"):
        dataclasses.replace(H100_NDR_PRICES, server_includes_nics=False)
    with pytest.raises(ValueError, match="unknown transceiver 'SFP-1G'"):
        dataclasses.replace(H100_NDR_PRICES, cable=H100_NDR_PRICES.cable,
                            host_transceiver=dataclasses.replace(H100_NDR_PRICES.cable, item="SFP-1G"))


def test_estimates_move_every_price_to_one_end():
    high = H100_NDR_PRICES.at("high")
    assert [p.usd for p in all_prices(high)] == [p.high_usd for p in all_prices(H100_NDR_PRICES)]
    skewed = H100_NDR_PRICES.at("high network share")
    assert skewed.server.usd == H100_NDR_PRICES.server.low_usd
    assert skewed.switch.usd == H100_NDR_PRICES.switch.high_usd
    assert H100_NDR_PRICES.at("central") is H100_NDR_PRICES
    with pytest.raises(ValueError, match=r"unknown estimate 'median'; valid estimates are: 'central'"):
        H100_NDR_PRICES.at("median")


def test_energy_per_bit_by_hand():
    # MMS4X00-NS: 17 W while carrying 800 Gb/s each way -> 17 / 800e9 J per bit = 21.25 pJ/bit.
    module = transceiver("MMS4X00-NS")
    assert module.energy_per_bit_j == pytest.approx(17.0 / 800e9)
    assert module.energy_per_bit_j / u.pJ == pytest.approx(21.25)


def test_energy_per_bit_halves_when_the_rate_doubles_and_is_none_without_a_rate():
    module = transceiver("MMS4X00-NS")
    faster = dataclasses.replace(module, per_direction_bytes_per_s=2 * module.per_direction_bytes_per_s)
    assert faster.energy_per_bit_j == pytest.approx(module.energy_per_bit_j / 2)
    assert dataclasses.replace(module, per_direction_bytes_per_s=None).energy_per_bit_j is None


def test_every_transceiver_has_a_source_and_a_positive_power():
    for name, module in TRANSCEIVERS.items():
        assert module.name == name and module.power_w > 0 and module.sources


def test_with_transceiver_swaps_the_modules_not_the_prices():
    book = with_transceiver(H100_NDR_PRICES, "MMA4Z00-NS")
    assert isinstance(book, PriceBook)
    assert book.switch_transceiver.item == "MMA4Z00-NS"
    assert book.switch_transceiver.usd == H100_NDR_PRICES.switch_transceiver.usd
    assert book.server == H100_NDR_PRICES.server


def test_bad_transceivers_name_the_parameter():
    with pytest.raises(ValueError, match=r"unknown transceiver 'SFP-1G'; valid transceivers are: .*'MMS4X00-NS'"):
        transceiver("SFP-1G")
    with pytest.raises(TypeError, match="book must be a PriceBook"):
        with_transceiver("H100 NDR", "MMS4X00-NS")
    with pytest.raises(ValueError, match=r"Transceiver\('x'\)\.power_w = 0 W is not valid"):
        Transceiver(name="x", description="", ports=1, power_w=0, sources=transceiver("MMS4X00-NS").sources)


# Hostile input -----------------------------------------------------------------------------------

@pytest.mark.usefixtures("warnings_are_errors")
def test_the_ethernet_price_book_prices_a_topology_comparison():
    # its switch is a breakout, "Tomahawk 5 (128 x 400G)": 'unknown switch name' for every comparison before
    from interconnect_lab import pricebook
    table = topology.topology_comparison(4096, radix=64, prices=pricebook.H100_ETHERNET_PRICES)
    tree = table.summaries[0]
    book = pricebook.H100_ETHERNET_PRICES
    switches_usd = tree.switches * book.switch.usd * 64 / 128   # the book's switch has 128 ports
    optics_usd = math.ceil(tree.optical_port_ends / 2) * book.switch_transceiver.usd
    assert table.cost_per_host_usd[0] == pytest.approx((switches_usd + optics_usd + tree.links * book.cable.usd)
                                                       / tree.hosts)
