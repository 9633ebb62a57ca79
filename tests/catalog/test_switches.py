"""Tests of ``interconnect_lab.catalog.switches``: switches: NVSwitch, InfiniBand and Ethernet switch
chips, their radix and capacity.

Hostile input is at the end (and fuzzed with tests/fuzzing.py where noted).
"""

import dataclasses

import pytest
from hypothesis import given, settings, strategies as st

from fuzzing import Case, choice, count, make_tests

from interconnect_lab import catalog, cost, rdma, units as u
from interconnect_lab.published import LATENCY_ESTIMATES
from interconnect_lab.topology import max_hosts, path_latency


def test_nvlink_switch_tray_is_two_chips_and_14_4_TB_per_s():
    # NVIDIA NVLink page: "144 NVLink ports with a non-blocking switching capacity of 14.4TB/s".
    tray, chip = catalog.switch("NVLink Switch tray"), catalog.switch("NVLink Switch chip")
    assert tray.ports == 2 * chip.ports == 144
    assert tray.capacity_both_directions_bytes_per_s == pytest.approx(14.4 * u.TB_per_s)


def test_quantum2_51_2_Tbit_per_s_adds_both_directions():
    # NVIDIA/ComputerBase: 64 ports x 400 Gb/s; "51.2 Tb/s" counts both directions.
    qm9700 = catalog.switch("Quantum-2 QM9700")
    assert qm9700.capacity_per_direction_bytes_per_s == pytest.approx(25.6 * u.Tbit_per_s)
    assert qm9700.capacity_both_directions_bytes_per_s == pytest.approx(51.2 * u.Tbit_per_s)


@pytest.mark.parametrize("name", ["Tomahawk 5", "Spectrum-4 SN5600"])
def test_51_2_Tbit_per_s_ethernet_switches_count_one_direction(name):
    # Broadcom press release (Tomahawk 5) and NVIDIA (Spectrum-4): 64 x 800GbE = 51.2 Tb/s.
    assert catalog.switch(name).capacity_per_direction_bytes_per_s == pytest.approx(51.2 * u.Tbit_per_s)


def test_quantum_hdr_is_16_Tbit_per_s_both_directions():
    # Mellanox QM8790 brief (quoted by IT4Innovations): 40 x 200 Gb/s, "16Tb/s".
    assert catalog.switch("Quantum QM8700").capacity_both_directions_bytes_per_s == pytest.approx(
        16 * u.Tbit_per_s)


def test_quantum_x800_is_144_ports_of_800_Gbit_per_s():
    assert catalog.switch("Quantum-X800 Q3400").capacity_per_direction_bytes_per_s == pytest.approx(
        115.2 * u.Tbit_per_s)


def test_in_network_reduction_where_the_vendor_ships_it():
    reducing = {name for name, entry in catalog.SWITCHES.items() if entry.in_network_reduction}
    # SHARP arrived on NVSwitch with the third generation; of the Ethernet switches here only
    # Broadcom's scale-up Tomahawk Ultra (2025) reduces in the switch.
    assert reducing == {"NVSwitch 3", "NVLink Switch chip", "NVLink Switch tray",
                        "Quantum QM8700", "Quantum-2 QM9700", "Quantum-X800 Q3400", "Tomahawk Ultra"}


@settings(max_examples=50, deadline=None)
@given(ports=st.integers(min_value=2, max_value=4096),
       rate=st.floats(min_value=1e6, max_value=1e13, allow_nan=False))
def test_switch_capacity_is_ports_times_port_rate(ports, rate):
    variant = dataclasses.replace(catalog.switch("Quantum-2 QM9700"), name="radix what-if",
                                  ports=ports, port_per_direction_bytes_per_s=rate)
    assert variant.capacity_per_direction_bytes_per_s == pytest.approx(ports * rate)
    assert variant.capacity_both_directions_bytes_per_s == pytest.approx(2 * ports * rate)


@settings(max_examples=25, deadline=None)
@given(ports=st.integers(max_value=1))
def test_switch_needs_two_ports(ports):
    with pytest.raises(ValueError, match=r"Switch.ports = -?\d+ is not valid: it must be >= 2"):
        dataclasses.replace(catalog.switch("Tomahawk 5"), ports=ports)


def _one_way(end, *, kernel):
    part = {k: v.at(end) for k, v in LATENCY_ESTIMATES.items()}
    software = 2 * part["application post or receive"] + (part["kernel TCP/IP stack"] if kernel else 0.0)
    return path_latency(1, software_s=software, nic_s=2 * part["NIC transmit or receive path (RDMA)"],
                        switch_latency_s=catalog.switch("Quantum QM8700").latency_s)


def test_max_hosts_for_catalog_switches():
    # 2,048 two-tier ports on Quantum-2 is also what ComputerBase printed (hardware.md §4b).
    assert max_hosts(catalog.switch("Quantum-2 QM9700").ports, 2) == 2048
    assert max_hosts(catalog.switch("Quantum-X800 Q3400").ports, 2) == 10_368


def test_latency_parts_add_up_to_the_published_round_trips():
    # Kentino's breakdown: RDMA through one switch "~2 us" round trip, kernel TCP 20-60 us. The
    # parts at their low ends reproduce the first within 10 %; kernel TCP lands in its range.
    rdma = LATENCY_ESTIMATES["RDMA round trip through one switch"]
    assert 2 * _one_way("low", kernel=False).total_s == pytest.approx(rdma.low_s, rel=0.10)
    tcp = LATENCY_ESTIMATES["kernel TCP round trip"]
    assert tcp.low_s <= 2 * _one_way("low", kernel=True).total_s <= tcp.high_s
    assert tcp.low_s <= 2 * _one_way("central", kernel=True).total_s <= tcp.high_s


def test_cluster_cost_takes_a_what_if_switch():
    qm9700 = catalog.switch("Quantum-2 QM9700")
    assert cost.cluster_cost(1016).switch_power_w is None  # the catalog has no sourced power
    guess = dataclasses.replace(qm9700, power_w=1_000.0)
    with_power = cost.cluster_cost(1016, switch=guess)
    assert with_power.switch_power_w == pytest.approx(48 * 1_000.0)
    assert with_power.unknown_power == ()
    assert with_power.total_usd == cost.cluster_cost(1016).total_usd
    renamed = dataclasses.replace(qm9700, name="QM9700 what-if")
    with pytest.raises(ValueError, match="prices switch 'Quantum-2 QM9700', not 'QM9700 what-if'"):
        cost.cluster_cost(1016, switch=renamed)


def test_broadcom_switches():
    th6 = catalog.switch("Tomahawk 6")
    ultra = catalog.switch("Tomahawk Ultra")
    # 102.4 Tb/s = 64 x 1.6T = 128 x 800G = 512 x 200G, one direction.
    assert th6.capacity_per_direction_bytes_per_s * 8 == pytest.approx(102.4e12)
    for ways, ports, gbit in ((2, 128, 800), (8, 512, 200)):
        split = catalog.breakout(th6, ways)
        assert (split.ports, split.port_per_direction_bytes_per_s) == (ports, gbit * u.Gbit_per_s)
    assert ultra.capacity_per_direction_bytes_per_s * 8 == pytest.approx(51.2e12)
    assert ultra.latency_s == 250 * u.ns and ultra.in_network_reduction
    assert catalog.roadmap_item("Tomahawk 6 (102.4 Tb/s)").status == "shipping"
    sue = catalog.scale_up_fabric("Scale-Up Ethernet (Tomahawk 6, 512 x 200G)")
    assert sue.max_accelerators == 512  # Broadcom: "up to 512 XPUs" on one switch


# Hostile input: fuzzed with tests/fuzzing.py -----------------------------------------------------

FUZZ_CASES = [
    Case(catalog.switch, dict(name=choice(tuple(catalog.SWITCHES)))),
    Case(catalog.breakout, dict(switch_or_name=choice(tuple(catalog.SWITCHES)), ways=count(1, 16))),
]

test_fuzz, test_fuzz_nightly = make_tests(FUZZ_CASES)
