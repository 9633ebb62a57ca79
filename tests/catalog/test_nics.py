"""Tests of ``interconnect_lab.catalog.nics``: nICs: the network adapters that connect a node to the
compute fabric.

Hostile input is at the end (and fuzzed with tests/fuzzing.py where noted).
"""

import pytest

from fuzzing import Case, choice, make_tests

from interconnect_lab import catalog, units as u


def test_a_400_Gbit_per_s_nic_carries_50_GB_per_s():
    assert catalog.nic("ConnectX-7").per_direction_bytes_per_s == pytest.approx(50 * u.GB_per_s)


@pytest.mark.parametrize("nic", [n for n in catalog.NICS.values() if n.host_link is not None],
                         ids=lambda e: e.name)
def test_every_nic_fits_its_host_link(nic):
    # A NIC faster than its PCIe slot could not run at line rate (a NIC whose host link is not
    # published has none to check).
    assert catalog.link(nic.host_link).per_direction_bytes_per_s >= nic.per_direction_bytes_per_s


# Hostile input: fuzzed with tests/fuzzing.py -----------------------------------------------------

FUZZ_CASES = [
    Case(catalog.nic, dict(name=choice(tuple(catalog.NICS)))),
]

test_fuzz, test_fuzz_nightly = make_tests(FUZZ_CASES)
