"""Tests of ``interconnect_lab.training.schedules``: pipeline schedules: the bubble fraction and the
1F1B order, microbatch by microbatch.

Hostile input is at the end (and fuzzed with tests/fuzzing.py where noted).
"""

import numpy as np
import pytest

from fuzzing import Case, count, make_tests, positive

from interconnect_lab import training as tr, training


@pytest.mark.parametrize(("p", "m", "v"), [
    (1, 4, 1), (2, 1, 1), (4, 2, 1), (4, 4, 1), (4, 8, 1), (8, 64, 1),
    (2, 4, 2), (4, 8, 2), (4, 12, 3), (8, 16, 4), (8, 24, 3),
])
def test_simulated_bubble_is_sc21s_formula(p, m, v):
    # SC21 §2.2: (p-1)/(v m) of the ideal time, for the plain and the interleaved 1F1B schedule.
    schedule = tr.pipeline_schedule(p, m, v)
    assert schedule.bubble_fraction == pytest.approx(tr.pipeline_bubble_fraction(p, m, v), abs=1e-9)
    assert schedule.stage.size == 2 * p * m * v


@pytest.mark.parametrize("ratio", [2.0, 3.0])
def test_schedule_respects_dependencies_and_runs_one_pass_at_a_time(ratio):
    p, m, v = 4, 8, 2
    schedule = tr.pipeline_schedule(p, m, v, backward_ratio=ratio)
    ends = {}
    for stage, backward, microbatch, chunk, start, end in zip(
            schedule.stage, schedule.backward, schedule.microbatch, schedule.chunk, schedule.start, schedule.end):
        ends[(bool(backward), int(microbatch), int(chunk) * p + int(stage))] = (start, end)
        assert end - start == pytest.approx((ratio if backward else 1.0) / v)
    for (backward, microbatch, virtual), (start, _) in ends.items():
        if not backward and virtual > 0:
            assert start >= ends[(False, microbatch, virtual - 1)][1] - 1e-12
        if backward:
            before = (True, microbatch, virtual + 1) if virtual < p * v - 1 else (False, microbatch, virtual)
            assert start >= ends[before][1] - 1e-12
    for stage in range(p):
        on_stage = schedule.stage == stage
        starts, stops = schedule.start[on_stage], schedule.end[on_stage]
        order = np.argsort(starts)
        assert np.all(starts[order][1:] >= stops[order][:-1] - 1e-12)       # never two passes at once
        assert stops.max() - starts.min() <= schedule.makespan + 1e-12
    assert schedule.ideal == m * (1 + ratio)


def test_schedule_rejects_what_megatron_rejects():
    with pytest.raises(ValueError, match="multiple of pipeline_parallel = 4"):
        tr.pipeline_schedule(4, 6, 2)
    with pytest.raises(ValueError, match="pipeline_parallel"):
        tr.pipeline_schedule(0, 4)
    with pytest.raises(ValueError, match="backward_ratio"):
        tr.pipeline_schedule(2, 4, backward_ratio=0)


def test_bubble_vanishes_with_many_microbatches():
    model = tr.transformer_model("GPT-3 175B")
    fractions = []
    for batch in (64, 512, 4096, 32768):
        config = tr.parallel_config(64, global_batch_size=batch, tensor_parallel=8, pipeline_parallel=8)
        fractions.append(tr.training_step(model, "Selene", config).bubble_fraction)
    assert all(a > b for a, b in zip(fractions, fractions[1:]))
    assert fractions[-1] < 0.001
    assert tr.pipeline_bubble_fraction(8, 10**9) < 1e-8


def test_bubble_formula_sc21():
    assert tr.pipeline_bubble_fraction(8, 64) == pytest.approx(7 / 64)
    assert tr.pipeline_bubble_fraction(8, 64, interleave=2) == pytest.approx(7 / 128)


# Hostile input: fuzzed with tests/fuzzing.py -----------------------------------------------------

FUZZ_CASES = [
    Case(training.pipeline_bubble_fraction, dict(pipeline_parallel=count(1, 128), microbatches=count(1, 1024),
                                                 interleave=count(1, 8))),
    Case(training.pipeline_schedule, dict(pipeline_parallel=count(1, 16), microbatches=count(1, 64),
                                          interleave=count(1, 4), backward_ratio=positive(0.5, 4.0)),
         exempt=("bubble_fraction",)),  # idle over ideal time: above 1 when stages outnumber microbatches,
]

test_fuzz, test_fuzz_nightly = make_tests(FUZZ_CASES)
