"""Tests of ``interconnect_lab.moe.routing``: routing and load: where an MoE layer's token copies go,
and how unevenly.

Hostile input is at the end (and fuzzed with tests/fuzzing.py where noted).
"""

import math
import time

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from fuzzing import Case, count, flag, make_tests, mixed, nonnegative, optional, positive

from interconnect_lab import moe


def test_expected_ranks_limits():
    assert moe.expected_ranks_per_token(256, 1, 64) == pytest.approx(1.0)
    assert moe.expected_ranks_per_token(256, 8, 1) == pytest.approx(1.0)
    # One expert per GPU: every chosen expert is on its own GPU.
    assert moe.expected_ranks_per_token(64, 8, 64) == pytest.approx(8.0)


@settings(max_examples=60, deadline=None)
@given(k=st.integers(1, 16), log_n=st.integers(0, 8))
def test_expected_ranks_is_bounded_and_grows_with_the_group(k, log_n):
    n = 2 ** log_n
    d = moe.expected_ranks_per_token(256, k, n)
    assert 1.0 - 1e-12 <= d <= min(k, n) + 1e-12
    if n < 256:
        assert moe.expected_ranks_per_token(256, k, 2 * n) >= d - 1e-12


def test_expected_ranks_matches_a_simulation():
    rng = np.random.default_rng(3)
    draws = np.array([len(set(rng.choice(256, 8, replace=False) // 32)) for _ in range(20000)])
    assert moe.expected_ranks_per_token(256, 8, 8) == pytest.approx(draws.mean(), rel=0.01)


def test_routing_draw_is_reproducible_and_conserves_copies():
    a = moe.routing_load(8192, 64, 2, 8, skew=0.8, seed=5)
    b = moe.routing_load(8192, 64, 2, 8, skew=0.8, seed=5)
    assert np.array_equal(a.tokens_per_gpu, b.tokens_per_gpu)
    assert a.tokens_per_gpu.sum() == a.tokens_per_expert.sum() == 8192 * 2


def test_uniform_routing_is_nearly_even_and_skew_makes_a_hot_gpu():
    even = moe.routing_load(2 ** 20, 256, 8, 64, skew=0.0, seed=0)
    assert even.imbalance_factor == pytest.approx(1.0, abs=0.01)
    shares = moe.zipf_expert_shares(256, 1.0)
    assert shares.sum() == pytest.approx(1.0) and shares[0] == shares.max()
    skewed = moe.routing_load(2 ** 20, 256, 8, 64, skew=1.0, seed=0)
    assert skewed.imbalance_factor > 3.0


def test_capacity_factor_drops_only_above_capacity():
    load = moe.routing_load(2 ** 16, 64, 2, 8, skew=0.0, seed=1, capacity_factor=2.0)
    assert load.dropped_tokens == 0.0
    hot = moe.routing_load(2 ** 16, 64, 2, 8, skew=1.2, seed=1, capacity_factor=1.25)
    capacity = hot.capacity_per_expert
    assert hot.dropped_tokens == pytest.approx(np.maximum(hot.tokens_per_expert - capacity, 0).sum())
    assert 0 < hot.dropped_fraction < 1


def test_incast_fan_in():
    # Claim (t): a flat all-to-all of 1,024 GPUs in 8-GPU nodes makes each GPU the target of 1,016 at once.
    assert moe.incast_fan_in(1024, 8) == 1016
    assert moe.incast_fan_in(1024, 8, hierarchical=True) == 127
    assert moe.incast_fan_in(64, 72) == 0


# Hostile input: fuzzed with tests/fuzzing.py -----------------------------------------------------

power_of_two = mixed(st.sampled_from([1, 2, 4, 8, 16, 32, 64, 128, 256]))


def shares_sum_to_one(result, kwargs):
    assert np.all(result > 0) and abs(result.sum() - 1) < 1e-9, result


def imbalance_at_least_one(result, kwargs):
    assert result.imbalance_factor >= 1 - 1e-12
    assert result.tokens_per_expert.sum() == kwargs["tokens"] * kwargs["top_k"]


def ranks_at_most_k(result, kwargs):
    assert 1 - 1e-9 <= result <= min(kwargs["top_k"], kwargs["ep_degree"]) + 1e-9, result


FUZZ_CASES = [
    Case(moe.expected_ranks_per_token, dict(experts=count(1, 2 ** 17), top_k=mixed(st.one_of(
        st.integers(1, 64), st.integers(1, 2 ** 17))), ep_degree=power_of_two), check=ranks_at_most_k),
    Case(moe.zipf_expert_shares, dict(experts=count(1, 2 ** 17), exponent=nonnegative(1e-3, 20)),
         check=shares_sum_to_one),
    Case(moe.routing_load, dict(tokens=count(0, 2 ** 60), experts=mixed(st.sampled_from([8, 64, 256, 2 ** 17])),
                                top_k=count(1, 8), ep_degree=power_of_two, skew=nonnegative(1e-3, 20),
                                seed=count(0, 1000), capacity_factor=optional(positive(1.0, 1e3))),
         check=imbalance_at_least_one),
    Case(moe.incast_fan_in, dict(ep_degree=power_of_two, domain_size=optional(power_of_two), hierarchical=flag())),
]


# Hostile input -----------------------------------------------------------------------------------

@pytest.mark.usefixtures("warnings_are_errors")
def test_expected_ranks_per_token_of_many_experts_is_quick_and_exact():
    from interconnect_lab import moe
    # C(2**20, 2**19): binomials of 300,000 digits, which took minutes; now refused, and a large top_k
    # below the bound is a product of ratios
    with pytest.raises(ValueError, match=r"experts = 1048576 is not valid: it must be in \[1, 65536\]"):
        moe.expected_ranks_per_token(2 ** 20, 2 ** 19, 2)
    started = time.process_time()
    value = moe.expected_ranks_per_token(2 ** 16, 2 ** 12, 64)
    assert time.process_time() - started < 0.1
    exact = 64 * (1 - math.comb(2 ** 16 - 2 ** 10, 2 ** 12) / math.comb(2 ** 16, 2 ** 12))
    assert value == pytest.approx(exact, rel=1e-12)
    assert moe.expected_ranks_per_token(256, 8, 64) == 64 * (1 - math.comb(252, 8) / math.comb(256, 8))

test_fuzz, test_fuzz_nightly = make_tests(FUZZ_CASES)
