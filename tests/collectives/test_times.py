"""Tests of ``interconnect_lab.collectives.times``: convenience functions: the time of each collective,
and where latency and bandwidth cross over.

Hostile input is at the end (and fuzzed with tests/fuzzing.py where noted).
"""

import math

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from fuzzing import Case, choice, count, make_tests, nonnegative, positive

from interconnect_lab import catalog, collectives as c, collectives, reliability, standards, training

NVLINK4 = catalog.link("NVLink 4").per_gpu_per_direction_bytes_per_s

EVERY_FLAT = [(collective, name) for name, entry in c.ALGORITHMS.items()
              if name != "hierarchical" for collective in entry.collectives]

sizes = st.floats(min_value=0, max_value=1e13, allow_nan=False)

ranks = st.integers(min_value=1, max_value=4096)

bandwidths = st.floats(min_value=1e6, max_value=1e13)

latencies = st.floats(min_value=0, max_value=1e-3)


def test_send_recv_and_all_to_all_by_hand():
    assert c.send_recv_time(1e9, 50e9, 5e-6, base_latency_s=0, efficiency=1) == pytest.approx(0.020005)
    assert c.all_to_all_time(8e9, 8, 100e9, 1e-6, base_latency_s=0, efficiency=1) == pytest.approx(
        1e-6 + 7e9 / 100e9)


@pytest.mark.parametrize("algorithm", ["ring", "halving_doubling", "direct"])
@pytest.mark.parametrize("n", [2, 4, 8, 32])
def test_all_reduce_is_reduce_scatter_plus_all_gather(algorithm, n):
    sizes = np.logspace(0, 10, 11)
    kwargs = {"base_latency_s": 0.0}
    all_reduce = c.all_reduce_time(sizes, n, 300e9, 2e-6, algorithm, **kwargs)
    halves = (c.reduce_scatter_time(sizes, n, 300e9, 2e-6, algorithm, **kwargs)
              + c.all_gather_time(sizes, n, 300e9, 2e-6, algorithm, **kwargs))
    assert all_reduce == pytest.approx(halves)


def test_hierarchical_reduces_to_flat_algorithms():
    sizes = np.logspace(3, 9, 7)
    network = {"network_bandwidth_bytes_per_s": 50e9, "network_latency_s": 14e-6,
               "network_efficiency": c.NETWORK_EFFICIENCY}
    one_node = c.all_reduce_time(sizes, 8, 450e9, 3.4e-6, "hierarchical", ranks_per_node=8, **network)
    assert one_node == pytest.approx(c.all_reduce_time(sizes, 8, 450e9, 3.4e-6, "ring"))
    one_gpu_per_node = c.all_reduce_time(sizes, 8, 450e9, 3.4e-6, "hierarchical", ranks_per_node=1,
                                         network_algorithm="tree", **network)
    assert one_gpu_per_node == pytest.approx(
        c.all_reduce_time(sizes, 8, 50e9, 14e-6, "tree", efficiency=c.NETWORK_EFFICIENCY))


def test_hierarchical_beats_a_flat_network_ring():
    # 16 nodes of 8 GPUs: the flat ring pays 2(n-1) network steps and sends everything over
    # the 50 GB/s ports; the hierarchy sends 1/8 of it across and keeps the rest on NVLink.
    network = {"network_bandwidth_bytes_per_s": 50e9, "network_latency_s": 14e-6}
    for size in (1e4, 1e9):
        flat = c.all_reduce_time(size, 128, 50e9, 14e-6, efficiency=c.NETWORK_EFFICIENCY)
        two_level = c.all_reduce_time(size, 128, 450e9, 3.4e-6, "hierarchical", ranks_per_node=8,
                                      **network)
        assert two_level < flat


def test_crossover_grows_with_rank_count_and_vanishes_for_two_ranks():
    sizes = [c.crossover_size("all_reduce", n, NVLINK4, c.NVLINK_STEP_LATENCY_S) for n in (4, 8, 64, 512)]
    assert sizes == sorted(sizes)
    assert c.crossover_size("all_reduce", 2, NVLINK4, c.NVLINK_STEP_LATENCY_S) == math.inf


def test_half_bandwidth_size_grows_with_ranks_and_latency_and_is_infinite_for_one_rank():
    sizes = [c.half_bandwidth_size("all_reduce", n, NVLINK4, c.NVLINK_STEP_LATENCY_S) for n in (2, 8, 64)]
    assert sizes == sorted(sizes)
    slow = c.half_bandwidth_size("all_reduce", 8, NVLINK4, 2 * c.NVLINK_STEP_LATENCY_S)
    assert slow > sizes[1]
    assert c.half_bandwidth_size("all_reduce", 1, NVLINK4, c.NVLINK_STEP_LATENCY_S) == math.inf
    vector = c.half_bandwidth_size("all_gather", 8, np.array([100e9, 400e9]), 3.4e-6)
    assert vector.shape == (2,) and vector[1] == pytest.approx(4 * vector[0])
    with pytest.raises(ValueError, match="does not implement 'all_gather'"):
        c.half_bandwidth_size("all_gather", 8, NVLINK4, 3.4e-6, "tree")


@given(st.sampled_from(EVERY_FLAT), sizes, sizes, ranks, bandwidths, latencies)
def test_time_never_falls_as_size_grows(case, size_a, size_b, n, bandwidth, latency):
    collective, algorithm = case
    small, large = sorted((size_a, size_b))
    t = [c.collective_time(collective, s, n, bandwidth, latency, algorithm) for s in (small, large)]
    assert t[0] <= t[1]


@settings(max_examples=50)
@given(sizes, st.integers(1, 64), st.integers(1, 16), bandwidths, bandwidths, latencies, latencies)
def test_hierarchical_time_is_positive_and_monotone(size, nodes, per_node, inner, outer, alpha, beta):
    kwargs = {"ranks_per_node": per_node, "network_bandwidth_bytes_per_s": outer,
              "network_latency_s": beta}
    t1 = c.all_reduce_time(size, nodes * per_node, inner, alpha, "hierarchical", **kwargs)
    t2 = c.all_reduce_time(2 * size, nodes * per_node, inner, alpha, "hierarchical", **kwargs)
    assert 0 < t1 <= t2


@pytest.mark.parametrize(("call", "error", "message"), [
    (lambda: c.all_reduce_time(-1, 8, 1e9, 1e-6), ValueError,
     r"size_bytes = -1 B is not valid: it must be in \[0, 1e\+30\] B"),
    (lambda: c.all_reduce_time(1e6, 0, 1e9, 1e-6), ValueError,
     r"n_ranks = 0 is not valid: it must be >= 1"),
    (lambda: c.all_reduce_time(1e6, 8, 0, 1e-6), ValueError,
     r"bandwidth_bytes_per_s = 0 B/s is not valid: it must be in \[1, 1e\+18\] B/s"),
    (lambda: c.all_reduce_time(1e6, 8, 1e9, -1e-6), ValueError, r"latency_s = -1e-06 s is not valid"),
    (lambda: c.all_reduce_time(1e6, 8, 1e9, 1e-6, efficiency=1.2), ValueError,
     r"efficiency = 1.2 is not valid: it must be in \[0.001, 1\]"),
    (lambda: c.all_reduce_time(1e6, 8, 1e9, 1e-6, "rings"), ValueError,
     r"unknown algorithm 'rings'; valid algorithms are: 'ring', 'tree'"),
    (lambda: c.collective_time("allreduce", 1e6, 8, 1e9, 1e-6), ValueError,
     r"unknown collective 'allreduce'; valid collectives are: 'all_reduce'"),
    (lambda: c.all_to_all_time(1e6, 8, 1e9, 1e-6, "ring"), ValueError,
     r"algorithm 'ring' does not implement 'all_to_all'; valid algorithms for 'all_to_all' are: 'direct'"),
    (lambda: c.all_gather_time(1e6, 8, 1e9, 1e-6, "nvls"), ValueError,
     r"does not implement 'all_gather'"),
    (lambda: c.all_reduce_time(1e6, 8, 1e9, 1e-6, "hierarchical"), ValueError,
     r"needs ranks_per_node, network_bandwidth_bytes_per_s, network_latency_s"),
    (lambda: c.all_reduce_time(1e6, 12, 1e9, 1e-6, "hierarchical", ranks_per_node=8,
                               network_bandwidth_bytes_per_s=1e9, network_latency_s=1e-6), ValueError,
     r"n_ranks = 12 is not valid for ranks_per_node = 8"),
    (lambda: c.all_reduce_time(1e6, 16, 1e9, 1e-6, "hierarchical", ranks_per_node=8,
                               network_bandwidth_bytes_per_s=1e9, network_latency_s=1e-6,
                               network_algorithm="nvls"), ValueError,
     r"network_algorithm 'nvls' is not valid across nodes"),
    (lambda: c.all_reduce_time(1e6, 8, 1e9, 1e-6, ranks_per_node=8), ValueError,
     r"ranks_per_node applies only to algorithm 'hierarchical', not 'ring'"),
    (lambda: c.all_reduce_time(1e6, 8.5, 1e9, 1e-6), TypeError, r"n_ranks must be a whole number"),
    (lambda: c.all_reduce_time(1e6, 8, 1e9, 1e-6, effciency=0.9), TypeError, r"effciency"),
    (lambda: c.crossover_size("all_reduce", 8, 1e9, 1e-6, effciency=0.9), TypeError,
     r"unexpected keyword argument\(s\) 'effciency'"),
    (lambda: c.algorithm_bandwidth(1e6, 0), ValueError, r"time_s = 0 s is not valid: it must be > 0 s"),
])
def test_bad_input_is_a_clear_error(call, error, message):
    with pytest.raises(error, match=message):
        call()


# Hostile input: fuzzed with tests/fuzzing.py -----------------------------------------------------

COLLECTIVES = collectives.COLLECTIVES

ALGORITHMS = tuple(collectives.ALGORITHMS)

size = nonnegative(1.0, 1e13)

rate = positive(1e6, 1e13)

latency = nonnegative(1e-9, 1e-2)

rank_counts = count(1, 4096)


def positive_time(result, kwargs):
    assert np.all(np.asarray(result) >= 0), result


def crossover_or_never(result, kwargs):
    """inf only where the two algorithms never swap places (documented); else a size > 0."""
    assert np.all(np.asarray(result) > 0), result
    if np.ndim(result) == 0 and result == np.inf:
        first = collectives.collective_performance(kwargs["collective"], 1e12, kwargs["n_ranks"],
                                                   kwargs["bandwidth_bytes_per_s"], kwargs["latency_s"],
                                                   kwargs["first"])
        second = collectives.collective_performance(kwargs["collective"], 1e12, kwargs["n_ranks"],
                                                    kwargs["bandwidth_bytes_per_s"], kwargs["latency_s"],
                                                    kwargs["second"])
        small_first = collectives.collective_performance(kwargs["collective"], 0.0, kwargs["n_ranks"],
                                                         kwargs["bandwidth_bytes_per_s"],
                                                         kwargs["latency_s"], kwargs["first"])
        small_second = collectives.collective_performance(kwargs["collective"], 0.0, kwargs["n_ranks"],
                                                          kwargs["bandwidth_bytes_per_s"],
                                                          kwargs["latency_s"], kwargs["second"])
        first_wins = first.time_s <= second.time_s and small_first.time_s <= small_second.time_s
        second_wins = second.time_s <= first.time_s and small_second.time_s <= small_first.time_s
        assert first_wins or second_wins, (kwargs, first.time_s, second.time_s)


def half_bandwidth_or_nothing_sent(result, kwargs):
    """inf only where nothing is sent (documented: one rank); else a size >= 0."""
    result = np.asarray(result)
    assert np.all(result >= 0), result
    if np.any(result == np.inf):
        assert np.all(collectives.collective_performance(
            kwargs["collective"], 1.0, kwargs["n_ranks"], kwargs["bandwidth_bytes_per_s"], kwargs["latency_s"],
            kwargs["algorithm"]).bandwidth_term_s == 0), kwargs


FUZZ_CASES = [
    Case(collectives.collective_time, dict(
        collective=choice(COLLECTIVES), size_bytes=size, n_ranks=rank_counts, bandwidth_bytes_per_s=rate,
        latency_s=latency, algorithm=choice(ALGORITHMS)), check=positive_time),
    *[Case(function, dict(size_bytes=size, n_ranks=rank_counts, bandwidth_bytes_per_s=rate, latency_s=latency,
                          algorithm=choice(ALGORITHMS)), check=positive_time)
      for function in (collectives.all_reduce_time, collectives.all_gather_time,
                       collectives.reduce_scatter_time, collectives.broadcast_time, collectives.reduce_time,
                       collectives.all_to_all_time)],
    Case(collectives.send_recv_time, dict(size_bytes=size, bandwidth_bytes_per_s=rate, latency_s=latency),
         check=positive_time),
    Case(collectives.crossover_size, dict(
        collective=choice(COLLECTIVES), n_ranks=rank_counts, bandwidth_bytes_per_s=rate, latency_s=latency,
        first=choice(ALGORITHMS), second=choice(ALGORITHMS)), check=crossover_or_never, infinite=("result",)),
    Case(collectives.half_bandwidth_size, dict(
        collective=choice(COLLECTIVES), n_ranks=rank_counts, bandwidth_bytes_per_s=rate, latency_s=latency,
        algorithm=choice(ALGORITHMS)), check=half_bandwidth_or_nothing_sent, infinite=("result",)),
]


# Hostile input -----------------------------------------------------------------------------------

@pytest.mark.usefixtures("warnings_are_errors")
@pytest.mark.parametrize("call", [
    lambda: collectives.all_reduce_time(1e308, 8, 1.0, 1e-6, efficiency=0.001),
    lambda: collectives.all_reduce_time(1e6, 8, 1e9, 1e308),
    lambda: collectives.all_gather_time(1.7e308, 2 ** 40, 1.0, 0.0),
    lambda: collectives.crossover_size("all_reduce", 8, 1e9, 1e308),
    lambda: collectives.half_bandwidth_size("all_reduce", 8, 1e9, 1e308),
])
def test_collective_times_that_overflow_are_a_clear_error(call):
    # refused by a documented bound (size 1e30 B, line rate 1e18 B/s, latency 1e6 s) or named as an overflow
    with pytest.raises(ValueError, match="is not valid: it must be in|overflows"):
        call()


@pytest.mark.usefixtures("warnings_are_errors")
def test_collective_rank_counts_beyond_a_float_are_refused_not_an_overflow_error():
    with pytest.raises(ValueError, match=r"n_ranks = .* it must be <= 2\*\*53"):
        collectives.all_reduce_time(1e6, 10 ** 30, 1e9, 1e-6)
    with pytest.raises(ValueError, match=r"bandwidth_bytes_per_s = 1e-300 B/s is not valid: it must be in \[1, 1e\+18\] B/s"):
        collectives.all_reduce_time(1e6, 8, 1e-300, 1e-6)


@pytest.mark.usefixtures("warnings_are_errors")
def test_documented_infinities_remain():
    assert collectives.crossover_size("all_reduce", 2, 450e9, 3.4e-6) == math.inf
    assert collectives.half_bandwidth_size("all_reduce", 1, 450e9, 3.4e-6) == math.inf
    assert standards.local_ack_timeout_s(0) == math.inf


@pytest.mark.usefixtures("warnings_are_errors")
@pytest.mark.parametrize(("call", "error", "message"), [
    (lambda: collectives.all_reduce_time(1e6, True, 1e9, 1e-6), TypeError, "n_ranks must be a whole number"),
    (lambda: collectives.all_reduce_time(1e6, 8.0, 1e9, 1e-6), TypeError, "n_ranks must be a whole number"),
    (lambda: standards.local_ack_timeout_s(0.0), TypeError, "exponent must be a whole number"),
    (lambda: standards.local_ack_timeout_s(False), TypeError, "exponent must be a whole number"),
    (lambda: training.flops_per_token(training.transformer_model("GPT-3 175B"), recompute=[1]), ValueError,
     "recompute"),
    (lambda: collectives.collective_performance("all_reduce", 1e6, 8, 1e9, 1e-6, algorithm_efficiency=[0.5]),
     TypeError, "algorithm_efficiency must be a single real number"),
    (lambda: reliability.checkpoint_plan(1000, [1e8], 60), TypeError, "gpu_mtbf_s must be a single real number"),
])
def test_right_type(call, error, message):
    with pytest.raises(error, match=message):
        call()

test_fuzz, test_fuzz_nightly = make_tests(FUZZ_CASES)
