"""Tests of ``interconnect_lab.catalog.systems``: systems: nodes and racks built from the catalog's
GPUs, links and NICs.

Hostile input is at the end (and fuzzed with tests/fuzzing.py where noted).
"""

import dataclasses

import pytest

from fuzzing import Case, choice, make_tests

from interconnect_lab import catalog, units as u


def test_claim_b_nvl72_totals_about_130_TB_per_s_not_1_8():
    # NVIDIA NVLink page: "130TB/s of GPU bandwidth in one NVL72" = 72 x 1.8 TB/s.
    nvl72 = catalog.system("GB200 NVL72")
    per_gpu = catalog.link(catalog.gpu(nvl72.gpu).scale_up_link).per_gpu_both_directions_bytes_per_s
    total = nvl72.gpus * per_gpu
    assert total == pytest.approx(129.6 * u.TB_per_s)
    assert total == pytest.approx(130 * u.TB_per_s, rel=0.01)
    assert u.per_direction(total) == pytest.approx(64.8 * u.TB_per_s)


def test_nvl72_wiring_uses_every_switch_port():
    # NVIDIA DGX SuperPOD GB200 RA: one link from each GPU to each of the 18 switch chips.
    nvl72 = catalog.system("GB200 NVL72")
    chip = catalog.switch(nvl72.scale_up_switch)
    gpu_links = nvl72.gpus * catalog.link("NVLink 5").links_per_gpu
    assert gpu_links == nvl72.scale_up_switches * chip.ports == 1296


def test_dgx_h100_nvswitches_have_room_for_every_gpu_link():
    # 8 GPUs x 18 links (5+5+4+4 over 4 chips, Lockwood) fit in 4 x 64 NVSwitch 3 ports.
    dgx = catalog.system("DGX H100")
    chip = catalog.switch(dgx.scale_up_switch)
    assert dgx.gpus * catalog.link("NVLink 4").links_per_gpu <= dgx.scale_up_switches * chip.ports


def test_dgx_h100_scale_out_is_400_GB_per_s_per_direction():
    # ml-engineering / NVIDIA SuperPOD RA: 8 x 400 Gb/s = 3.2 Tb/s = 400 GB/s per node.
    dgx = catalog.system("DGX H100")
    total = dgx.nics * catalog.nic(dgx.nic).per_direction_bytes_per_s
    assert total == pytest.approx(3.2 * u.Tbit_per_s) == pytest.approx(400 * u.GB_per_s)


def test_gb200_nvl72_hbm_totals_about_13_4_TB():
    nvl72 = catalog.system("GB200 NVL72")
    assert nvl72.gpus * catalog.gpu(nvl72.gpu).hbm_bytes == pytest.approx(13.4 * u.TB, rel=0.01)


def test_scale_up_links_of_a_system_match_its_switch():
    for system in catalog.SYSTEMS.values():
        if system.scale_up_switch is None:      # an announced rack whose switch is not described
            continue
        link = catalog.link(catalog.gpu(system.gpu).scale_up_link)
        switch = catalog.switch(system.scale_up_switch)
        assert switch.port_per_direction_bytes_per_s == link.per_direction_bytes_per_s, system.name


def test_issue_37_error_1_gb200_has_one_400g_nic_per_gpu():
    # Issue 37, error 1: GB200 NVL72 ships one 400G ConnectX-7 per GPU; NVLink 5's 900 GB/s per direction over
    # its 50 GB/s is a ratio of 18 (not 9, which pairs GB200 with an 800G ConnectX-8).
    nvl = catalog.system("GB200 NVL72")
    assert (nvl.nic, nvl.nics) == ("ConnectX-7", nvl.gpus)
    fabric = catalog.scale_up_fabric("NVLink 5 (GB200 NVL72)")
    assert fabric.per_accelerator_per_direction_bytes_per_s / catalog.nic(nvl.nic).per_direction_bytes_per_s == 18
    gb300 = catalog.system("GB300 NVL72")
    assert (gb300.nic, gb300.nics) == ("ConnectX-8", gb300.gpus)


def test_estimates_are_flagged():
    # Values without a primary source carry an estimate-flagged source.
    assert any(s.estimate for s in catalog.switch("NVSwitch 2").sources)      # 36 ports
    assert any(s.estimate for s in catalog.switch("Tomahawk 5").sources)      # 500 W
    assert any(s.estimate for s in catalog.system("DGX H100").sources)        # 10.2 kW
    assert catalog.system("GB200 NVL72").power_w is None                      # no source found


def test_system_counts_may_be_zero_but_not_negative():
    assert dataclasses.replace(catalog.system("DGX H100"), nics=0).nics == 0
    with pytest.raises(ValueError, match=r"System.nics = -1 is not valid: it must be >= 0"):
        dataclasses.replace(catalog.system("DGX H100"), nics=-1)


# Hostile input: fuzzed with tests/fuzzing.py -----------------------------------------------------

FUZZ_CASES = [
    Case(catalog.system, dict(name=choice(tuple(catalog.SYSTEMS)))),
]

test_fuzz, test_fuzz_nightly = make_tests(FUZZ_CASES)
