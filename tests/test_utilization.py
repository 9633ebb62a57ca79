"""Step time, overlap and FLOP utilization (chapter 1).

Hostile input is at the end (and fuzzed with tests/fuzzing.py where noted).
"""

import numpy as np
import pytest
from hypothesis import given, strategies as st

from fuzzing import Case, count, fraction, make_tests, nonnegative, positive

import interconnect_lab as il
from interconnect_lab import utilization
from interconnect_lab.published import MEGASCALE_ABLATION, MEGASCALE_TABLE2


times = st.floats(min_value=1e-6, max_value=1e3)

fractions = st.floats(min_value=0, max_value=1)

# MegaScale NSDI'24 Table 2 prints MFU next to throughput. With the model FLOPs per
# token MegaScale counts for its 175B model (72 l h^2 (1 + s/6h) + 6 h V = 1.077e12,
# published-results §1), the MFU definition reproduces every row within 2 % relative.
MEGASCALE_FLOP_PER_TOKEN = 72 * 96 * 12288**2 * (1 + 2048 / (6 * 12288)) + 6 * 12288 * 64000


def test_seed_example_waits_forty_percent():
    step = il.step_time(0.6, 0.4, 0.0)
    assert step.step_s == pytest.approx(1.0)
    assert step.waiting_fraction == pytest.approx(0.4)
    assert step.mfu() * 1000 == pytest.approx(600)


def test_hand_worked_overlap():
    # 0.75 of 0.4 s hides 0.3 s under 0.6 s of compute: 0.1 s exposed.
    step = il.step_time(0.6, 0.4, 0.75)
    assert step.hidden_communication_s == pytest.approx(0.3)
    assert step.exposed_communication_s == pytest.approx(0.1)
    assert step.step_s == pytest.approx(0.7)


def test_hiding_is_limited_by_compute():
    step = il.step_time(compute_s=1.0, communication_s=3.0, overlap_fraction=1.0)
    assert step.hidden_communication_s == 1.0
    assert step.step_s == 3.0


@given(times, times, fractions)
def test_step_lies_between_max_and_sum(compute, communication, overlap):
    step = il.step_time(compute, communication, overlap)
    assert max(compute, communication) * (1 - 1e-12) <= step.step_s <= (compute + communication) * (1 + 1e-12)
    assert step.hidden_communication_s + step.exposed_communication_s == pytest.approx(communication)
    assert 0 < step.busy_fraction <= 1


@given(times, times, fractions, fractions)
def test_more_overlap_never_slows_a_step(compute, communication, f1, f2):
    low, high = sorted((f1, f2))
    assert il.step_time(compute, communication, high).step_s <= il.step_time(compute, communication, low).step_s


def test_no_communication_means_mfu_equals_efficiency():
    assert il.step_time(1.0, 0.0).mfu(0.8) == pytest.approx(0.8)


def test_vectorized_matches_scalar():
    overlaps = np.linspace(0, 1, 11)
    vector = il.step_time(0.6, 0.4, overlaps)
    for i, f in enumerate(overlaps):
        assert vector.step_s[i] == pytest.approx(il.step_time(0.6, 0.4, f).step_s)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"compute_s": 0.0, "communication_s": 1.0}, r"compute_s = 0 s is not valid: it must be in \(0, 1e\+15\] s"),
        ({"compute_s": 1.0, "communication_s": -0.1}, r"communication_s = -0.1 s is not valid"),
        ({"compute_s": 1.0, "communication_s": 1.0, "overlap_fraction": 1.5},
         r"overlap_fraction = 1.5 is not valid: it must be in \[0, 1\]"),
        ({"compute_s": float("nan"), "communication_s": 1.0}, r"compute_s = nan s is not valid"),
    ],
)
def test_bad_input_names_parameter_and_range(kwargs, message):
    with pytest.raises(ValueError, match=message):
        il.step_time(**kwargs)


def test_mfu_rejects_efficiency_above_one():
    with pytest.raises(ValueError, match="compute_efficiency = 1.2"):
        il.step_time(1, 1).mfu(1.2)


def test_compute_time():
    assert il.compute_time(989.4e12, 989.4e12) == pytest.approx(1.0)
    assert il.compute_time(1e15, 1e15, 0.5) == pytest.approx(2.0)
    with pytest.raises(ValueError, match="peak_flop_per_s"):
        il.compute_time(1e15, 0)


def test_mfu_and_hfu_share_the_definition():
    assert il.model_flops_utilization(1e15, 2.0, 1e15, 1) == pytest.approx(0.5)
    assert il.hardware_flops_utilization(4e15, 1.0, 1e15, 8) == pytest.approx(0.5)
    with pytest.raises(ValueError, match="n_gpus = 0"):
        il.model_flops_utilization(1e15, 1.0, 1e15, 0)


@pytest.mark.parametrize("run", MEGASCALE_TABLE2, ids=lambda r: f"{r.system}-{r.gpus}-{r.batch_size}")
def test_mfu_definition_reproduces_megascale_table2(run):
    mfu = il.model_flops_utilization(MEGASCALE_FLOP_PER_TOKEN * run.tokens_per_s, 1.0, 312e12, run.gpus)
    assert mfu == pytest.approx(run.mfu, rel=0.02)


def test_megascale_ablation_gains_sum_to_the_total():
    gains = il.ablation_gains(MEGASCALE_ABLATION)
    assert sum(gains.values()) == pytest.approx(MEGASCALE_ABLATION[-1].mfu - MEGASCALE_ABLATION[0].mfu)
    # MegaScale Table 3: TP, PP and DP overlap add 2.2, 2.5 and 1.5 MFU points.
    assert gains["communication"] == pytest.approx(0.062, abs=1e-9)
    with pytest.raises(ValueError, match="baseline and at least one"):
        il.ablation_gains(MEGASCALE_ABLATION[:1])


# Hostile input: fuzzed with tests/fuzzing.py -----------------------------------------------------

FUZZ_CASES = [
    Case(utilization.step_time, dict(compute_s=nonnegative(1e-6, 1e4), communication_s=nonnegative(1e-6, 1e4),
                                     overlap_fraction=fraction())),
    Case(utilization.compute_time, dict(model_flops=positive(1e9, 1e24), peak_flop_per_s=positive(1e12, 1e16),
                                        compute_efficiency=fraction(0.01, 1.0))),
    Case(utilization.model_flops_utilization, dict(
        model_flops=positive(1e9, 1e24), time_s=positive(1e-3, 1e6), peak_flop_per_s=positive(1e12, 1e16),
        n_gpus=count(1, 100_000))),
    Case(utilization.hardware_flops_utilization, dict(
        hardware_flops=positive(1e9, 1e24), time_s=positive(1e-3, 1e6), peak_flop_per_s=positive(1e12, 1e16),
        n_gpus=count(1, 100_000))),
]

test_fuzz, test_fuzz_nightly = make_tests(FUZZ_CASES)
