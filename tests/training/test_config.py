"""Tests of ``interconnect_lab.training.config``: parallel configuration: TP, PP, DP, CP, microbatch
and the rules a valid split obeys.

Hostile input is at the end (and fuzzed with tests/fuzzing.py where noted).
"""

import pytest
from hypothesis import strategies as st

from fuzzing import Case, count, make_tests, mixed

from interconnect_lab import training as tr, training


def test_shard_group_must_divide_the_data_parallel_group():
    with pytest.raises(ValueError, match="shard_group_size"):
        tr.parallel_config(64, global_batch_size=64, zero_stage=3, shard_group_size=7)
    with pytest.raises(ValueError, match="zero_stage = 3"):
        tr.parallel_config(64, global_batch_size=64, zero_stage=1, shard_group_size=8)


def test_batch_not_divisible_by_replicas():
    with pytest.raises(ValueError, match=r"global_batch_size = 100 sequences is not divisible by "
                                         r"data_parallel x microbatch_size = 8 x 1 = 8"):
        tr.ParallelConfig(global_batch_size=100, data_parallel=8)


def test_interleaving_needs_microbatches_divisible_by_stages():
    with pytest.raises(ValueError, match=r"microbatch count m = 12 .* pipeline_parallel = 8"):
        tr.ParallelConfig(global_batch_size=96, data_parallel=8, pipeline_parallel=8, interleave=2)


# Hostile input: fuzzed with tests/fuzzing.py -----------------------------------------------------

power_of_two = mixed(st.sampled_from([1, 2, 4, 8, 16, 32, 64]))

FUZZ_CASES = [
    Case(training.parallel_config, dict(gpus=count(1, 100_000), global_batch_size=count(1, 10_000),
                                        tensor_parallel=power_of_two, pipeline_parallel=power_of_two,
                                        context_parallel=power_of_two)),
]

test_fuzz, test_fuzz_nightly = make_tests(FUZZ_CASES)
