"""Tests of ``interconnect_lab.catalog.memory``: memory tiers: HBM, local and remote DRAM, CXL-attached
memory.

Hostile input is at the end (and fuzzed with tests/fuzzing.py where noted).
"""

import dataclasses

import pytest

from fuzzing import Case, choice, make_tests

from interconnect_lab import catalog, units as u


def test_the_pipe_narrows_with_distance_from_an_h100():
    tiers = [
        catalog.hbm_tier("H100 SXM").bandwidth_bytes_per_s,
        catalog.link("NVLink 4").per_gpu_per_direction_bytes_per_s,      # a peer GPU's HBM
        catalog.memory_tier("Host memory over PCIe Gen5 x16").bandwidth_bytes_per_s,
        catalog.nic("ConnectX-7").per_direction_bytes_per_s,             # another node
    ]
    assert tiers == sorted(tiers, reverse=True)
    assert tiers[0] / tiers[-1] == pytest.approx(67, abs=0.5)


def test_cxl_memory_is_slower_to_reach_than_local_ddr():
    ddr = catalog.memory_tier("Host DDR5 (one Xeon socket)")
    cxl = catalog.memory_tier("CXL memory expander (x16)")
    # Pond: CXL adds 70-90 ns to same-NUMA-node DRAM.
    assert 70 * u.ns <= cxl.latency_s - ddr.latency_s <= 90 * u.ns
    assert cxl.bandwidth_bytes_per_s < ddr.bandwidth_bytes_per_s
    assert any(source.estimate for source in cxl.sources)


def test_ddr5_socket_bandwidth_is_eight_channels_of_ddr5_4800():
    ddr = catalog.memory_tier("Host DDR5 (one Xeon socket)")
    assert ddr.bandwidth_bytes_per_s == pytest.approx(307.2 * u.GB_per_s)
    assert ddr.bandwidth_direction == "total"


def test_hbm_tier_of_a_what_if_gpu():
    faster = dataclasses.replace(catalog.gpu("H100 SXM"), name="H100 HBM4",
                                 hbm_bandwidth_bytes_per_s=8 * u.TB_per_s)
    assert catalog.hbm_tier(faster).bandwidth_bytes_per_s == 8 * u.TB_per_s
    with pytest.raises(TypeError, match="gpu_or_name must be a GPU"):
        catalog.hbm_tier(3.35e12)


# Hostile input: fuzzed with tests/fuzzing.py -----------------------------------------------------

FUZZ_CASES = [
    Case(catalog.memory_tier, dict(name=choice(tuple(catalog.MEMORY_TIERS)))),
    Case(catalog.hbm_tier, dict(gpu_or_name=choice(tuple(catalog.GPUS)))),
]

test_fuzz, test_fuzz_nightly = make_tests(FUZZ_CASES)
