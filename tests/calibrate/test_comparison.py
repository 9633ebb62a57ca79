"""Tests of ``interconnect_lab.calibrate.comparison``: a reader's nccl-tests log against the collective model for its collective, node count and
machine, row by row; all-to-all across nodes against the network, not NVLink; no fall-back to the
per-link α-β model.

Published runs: Oracle's B300 all-to-all across two RoCE nodes (README-B300.md, 2026; 181 GB/s
busbw at 8 GiB) and ALCF's A100 all-to-all across two HDR nodes (alcf-nccl-tests, 2024;
39.7 GB/s at 1 GiB). Tolerances are stated per test.

Hostile input is at the end (and fuzzed with tests/fuzzing.py where noted).
"""

import dataclasses
import math

import numpy as np
import pytest
from hypothesis import strategies as st

from fuzzing import HOSTILE, Case, choice, count, make_tests, mixed, optional

from interconnect_lab import calibrate, catalog, collectives
from interconnect_lab import units as u
from interconnect_lab.calibrate import (
    SHIPPED_LOGS, ModelComparison, calibrate_nccl_tests, compare_with_model, run_system, shipped_run, shipped_system,
)
from interconnect_lab.collectives.nccl import nccl_collective
from interconnect_lab.collectives.system import collective_system

NCCL_LOGS = [name for name, entry in SHIPPED_LOGS.items() if entry.tool == "nccl-tests"]


@pytest.mark.parametrize("name", NCCL_LOGS)
def test_every_row_is_the_collective_models_number_for_the_same_inputs(name):
    run, system = shipped_run(name), shipped_system(name)
    comparison = compare_with_model(run, system)
    model = nccl_collective(run.collective, comparison.size_bytes, system)
    assert np.array_equal(comparison.predicted_bus_bandwidth_bytes_per_s, model.bus_bandwidth_bytes_per_s)
    assert np.array_equal(comparison.predicted_time_s, model.time_s)
    assert comparison.algorithm == tuple(model.algorithm) and comparison.protocol == tuple(model.protocol)
    assert np.array_equal(comparison.channels, model.channels)
    # Measured busbw is f(n) S / t, which the printed busbw rounds to 0.01 GB/s.
    factor = collectives.bus_bandwidth_factor(run.collective, run.n_ranks)
    size, time = run.sweep()
    assert np.allclose(comparison.measured_bus_bandwidth_bytes_per_s, factor * size / time)
    printed = run.out_of_place.bus_bandwidth_bytes_per_s[run.size_bytes > 0]
    fast = printed >= 1 * u.GB_per_s
    assert np.allclose(comparison.measured_bus_bandwidth_bytes_per_s[fast], printed[fast], rtol=0.01)
    assert np.allclose(comparison.error, model.bus_bandwidth_bytes_per_s / comparison.measured_bus_bandwidth_bytes_per_s
                       - 1)
    assert np.allclose(comparison.ratio * (1 + comparison.error), 1)


def test_all_to_all_across_nodes_is_compared_with_the_network_not_nvlink():
    # B300, 2 nodes over RoCE: the model's point-to-point pairs through the ports land within 5 %
    # of the 181 GB/s measured; the same 16 GPUs in one NVLink domain (what calibration used to
    # compare a cross-node alltoall log with) would be 3.5 times faster.
    run = shipped_run("b300_2x8_roce_alltoall")
    comparison = compare_with_model(run, shipped_system("b300_2x8_roce_alltoall"))
    assert comparison.algorithm == ("p2p",) and comparison.system.nodes == 2
    assert abs(comparison.error[0]) < 0.05
    one_domain = shipped_system("b300_2x8_roce_alltoall").__class__(
        **{**shipped_system("b300_2x8_roce_alltoall").__dict__, "nodes": 1, "gpus_per_node": 16,
           "nics_per_node": 0, "nic_bytes_per_s": 0.0})
    assert compare_with_model(run, one_domain).error[0] > 2.5


def test_a_full_all_to_all_sweep_across_two_hdr_nodes():
    # ALCF Sophia, 2 x 8 A100 on HDR: the plateau (256 MiB and up) within 15 % (the model is
    # faster: NCCL's maintainers' 24 GB/s per 200 Gb/s port against 22.6 measured per GPU),
    # small messages within 10 %.
    comparison = calibrate_nccl_tests("a100_2x8_ib_alltoall").comparison
    worst = comparison.worst_by_band()
    assert set(worst) == {"small", "mid", "large"}
    assert 0 < worst["large"][1] < 0.15 and abs(worst["small"][1]) < 0.10
    assert set(comparison.algorithm) == {"p2p"}
    assert comparison.band[0] == "small" and comparison.band[-1] == "large" and "" in comparison.band


def test_the_machine_by_catalog_names():
    run = shipped_run("a100_2x8_ib_alltoall")
    by_names = compare_with_model(run, gpu="A100 SXM 40GB", network="InfiniBand HDR", cpu="amd")
    assert (by_names.system.nodes, by_names.system.gpus_per_node) == (2, 8)          # from the rank lines
    assert by_names.system == run_system(run, gpu="A100 SXM 40GB", network="InfiniBand HDR", cpu="amd")
    same = compare_with_model(run, collective_system("A100 SXM 40GB", nodes=2, gpus_per_node=8,
                                                     network="InfiniBand HDR", cpu="amd", name=by_names.system.name))
    assert np.array_equal(same.predicted_bus_bandwidth_bytes_per_s, by_names.predicted_bus_bandwidth_bytes_per_s)


def test_the_machine_must_match_the_run():
    run = shipped_run("a100_2x8_ib_alltoall")
    with pytest.raises(ValueError, match=r"the machine has 1 x 8 = 8 ranks but the run has 16 \(from its rank lines\)"):
        compare_with_model(run, gpu="A100 SXM 40GB", nodes=1, gpus_per_node=8)
    elided = shipped_run("b300_2x8_roce_alltoall")
    with pytest.raises(ValueError, match="the log does not list every rank.*give nodes= and gpus_per_node="):
        compare_with_model(elided, gpu="B200")
    assert compare_with_model(elided, gpu="B200", nodes=2, gpus_per_node=8).system.ranks == 16
    with pytest.raises(TypeError, match="not both"):
        compare_with_model(run, shipped_system("a100_2x8_ib_alltoall"), gpu="A100 SXM 40GB")
    with pytest.raises(TypeError, match=r"not both \(got system and sharp\)"):
        compare_with_model(run, shipped_system("a100_2x8_ib_alltoall"), sharp=True)
    with pytest.raises(TypeError, match="say what machine the log ran on"):
        compare_with_model(run)
    with pytest.raises(TypeError, match="system must be a CollectiveSystem"):
        compare_with_model(run, "A100 SXM 40GB")
    with pytest.raises(TypeError, match="run must be an NcclTestsRun"):
        compare_with_model("a100_2x8_ib_alltoall", shipped_system("a100_2x8_ib_alltoall"))


def test_an_algorithm_nccl_would_not_run_is_refused_with_the_reason():
    run = shipped_run("a100_2x8_efa_all_reduce")
    system = shipped_system("a100_2x8_efa_all_reduce")
    assert set(compare_with_model(run, system, algorithm="ring").algorithm) == {"ring"}
    with pytest.raises(ValueError, match="NVLS needs NVSwitch and Hopper or later"):
        compare_with_model(run, system, algorithm="nvls")
    with pytest.raises(ValueError, match="unknown algorithm 'rings'"):
        compare_with_model(run, system, algorithm="rings")


def test_the_table_and_the_disagreements():
    comparison = calibrate_nccl_tests("h100_2x8_a3mega_all_reduce").comparison
    assert isinstance(comparison, ModelComparison)
    text = comparison.table()
    assert "nvls_tree" in text and "8 GiB" in text and len(text.splitlines()) == 4 + len(comparison.size_bytes)
    disagreements = comparison.disagreements(0.25)
    assert disagreements and all(abs(e) > 0.25 for _, e, _, _ in disagreements)
    assert comparison.median_absolute_error() == pytest.approx(float(np.median(np.abs(comparison.error))))


def test_calibration_never_falls_back_to_the_per_link_alpha_beta_model(monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("calibration priced a collective with the per-link α-β model")

    for module in (collectives, collectives.model, collectives.times):
        for name in ("collective_performance", "collective_time", "all_to_all_time", "all_reduce_time"):
            if hasattr(module, name):
                monkeypatch.setattr(module, name, refuse)
    for name in NCCL_LOGS:
        calibration = calibrate_nccl_tests(name)
        assert calibration.comparison.system == shipped_system(name)


# Hostile input: fuzzed with tests/fuzzing.py -----------------------------------------------------

_RUNS = {name: shipped_run(name) for name in NCCL_LOGS}

#: The machines the shipped logs ran on.
SYSTEMS = tuple(shipped_system(name) for name in NCCL_LOGS)

GPUS = tuple(catalog.GPUS)
NETWORK_LINKS = tuple(name for name in catalog.LINKS if name.startswith(("InfiniBand", "Ethernet")))


def _measurement(measurement, time_s):
    return dataclasses.replace(measurement, time_s=time_s)


@st.composite
def damaged_run(draw):
    """A parsed sweep whose arrays were damaged: NaN, zero, negative or infinite times or sizes,
    sizes out of order or repeated, arrays of the wrong length or type, one row."""
    run = _RUNS[draw(st.sampled_from(NCCL_LOGS))]
    kind = draw(st.sampled_from(["time", "size", "order", "length", "one row", "dtype", "intact"]))
    size, time = run.size_bytes.copy(), run.out_of_place.time_s.copy()
    i = draw(st.integers(0, size.size - 1))
    if kind == "time":
        time[i] = draw(st.sampled_from([math.nan, 0.0, -1e-6, math.inf, 5e-324, 1e300]))
    elif kind == "size":
        size = size.astype(float)
        size[i] = draw(st.sampled_from([math.nan, -1.0, math.inf, 1e300]))
    elif kind == "order":
        size = size[::-1].copy() if draw(st.booleans()) else np.concatenate((size[:1], size[:-1]))
    elif kind == "length":
        time = time[:-1]
    elif kind == "one row":
        size, time = size[-1:], time[-1:]
    elif kind == "dtype":
        time = time.astype(str)
    return dataclasses.replace(run, size_bytes=size, out_of_place=_measurement(run.out_of_place, time))


run_or_damaged = st.integers(0, 7).flatmap(lambda k: st.sampled_from(HOSTILE) if k == 0 else (
    st.sampled_from(list(_RUNS.values())) if k < 4 else damaged_run()))

FUZZ_CASES = [
    Case(calibrate.compare_with_model, dict(run=run_or_damaged, system=optional(mixed(st.sampled_from(SYSTEMS))),
                                            gpu=optional(choice(GPUS)), nodes=optional(count(1, 64)),
                                            gpus_per_node=optional(count(1, 72)), network=optional(choice(NETWORK_LINKS)),
                                            algorithm=optional(choice(("ring", "tree", "p2p", "nvls")))),
         examples=0.25),
    Case(calibrate.run_system, dict(run=run_or_damaged, gpu=choice(GPUS), nodes=optional(count(1, 64)),
                                    gpus_per_node=optional(count(1, 72)), network=optional(choice(NETWORK_LINKS))),
         examples=0.25),
]

test_fuzz, test_fuzz_nightly = make_tests(FUZZ_CASES)
