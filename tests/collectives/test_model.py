"""Collectives: the α-β model, nccl-tests' algbw and busbw, and published bus bandwidths.

Hostile input is at the end (and fuzzed with tests/fuzzing.py where noted).
"""

import math

import numpy as np
import pytest
from hypothesis import given, strategies as st

from fuzzing import Case, choice, count, fraction, make_tests, nonnegative, optional, positive

from interconnect_lab import catalog, collectives as c, collectives, units as u
from interconnect_lab.published import NCCL_BUS_BANDWIDTH

NVLINK4 = catalog.link("NVLink 4").per_gpu_per_direction_bytes_per_s

POINT_TO_POINT = [(collective, name) for name, entry in c.ALGORITHMS.items()
                  if not entry.in_network and name != "hierarchical"
                  for collective in entry.collectives]

EVERY_FLAT = [(collective, name) for name, entry in c.ALGORITHMS.items()
              if name != "hierarchical" for collective in entry.collectives]

sizes = st.floats(min_value=0, max_value=1e13, allow_nan=False)

bandwidths = st.floats(min_value=1e6, max_value=1e13)

latencies = st.floats(min_value=0, max_value=1e-3)

efficiencies = st.floats(min_value=0.01, max_value=1.0)


def test_brief_cases_are_in_the_table():
    cases = {(m.link, m.collective, m.algorithm, m.source.url.rsplit("/", 1)[-1]): m
             for m in NCCL_BUS_BANDWIDTH}
    assert cases[("NVLink 4", "all_reduce", "ring", "212")].bus_bandwidth_bytes_per_s == 370e9
    assert cases[("NVLink 4", "all_reduce", "nvls", "212")].bus_bandwidth_bytes_per_s == 480e9
    assert cases[("NVLink 3", "all_reduce", "ring", "149")].bus_bandwidth_bytes_per_s == 230e9


def test_ring_all_reduce_by_hand():
    # n = 4, S = 4 GB, B = 100 GB/s, α = 1 µs, no launch latency, η = 1:
    # 2(n-1) = 6 steps and 2(n-1)/n = 1.5 S sent per rank -> t = 6 µs + 60 ms.
    r = c.collective_performance("all_reduce", 4e9, 4, 100e9, 1e-6, "ring",
                                 base_latency_s=0, efficiency=1)
    assert r.steps == 6
    assert r.bytes_sent_per_rank == pytest.approx(6e9)
    assert r.latency_term_s == pytest.approx(6e-6)
    assert r.bandwidth_term_s == pytest.approx(0.06)
    assert r.time_s == pytest.approx(0.060006)
    assert r.algorithm_bandwidth_bytes_per_s == pytest.approx(4e9 / 0.060006)
    assert r.bus_bandwidth_bytes_per_s == pytest.approx(1.5 * 4e9 / 0.060006)


def test_tree_all_reduce_by_hand():
    # n = 8: 2 log2(8) = 6 steps, 2 S per rank at 0.92 of the usable bandwidth.
    r = c.collective_performance("all_reduce", 1e9, 8, 100e9, 2e-6, "tree",
                                 base_latency_s=1e-6, efficiency=0.5)
    assert r.steps == 6
    assert r.time_s == pytest.approx(1e-6 + 6 * 2e-6 + 2e9 / (0.92 * 0.5 * 100e9))


def test_halving_doubling_on_six_ranks_by_hand():
    # p = 4: 2 log2(4) = 4 steps plus 2 to fold the two extra ranks in and out; the
    # partner sends 2(p-1)/p = 1.5 S in the core and S more at the end.
    r = c.collective_performance("all_reduce", 1e6, 6, 1e9, 1e-6, "halving_doubling",
                                 base_latency_s=0, efficiency=1)
    assert r.steps == 6
    assert r.bytes_sent_per_rank == pytest.approx(2.5e6)
    assert r.time_s == pytest.approx(6e-6 + 2.5e-3)


def test_nvls_by_hand():
    # Each GPU moves (n+1)/n S through its NVLink at 0.85 of the usable bandwidth, in 2 steps.
    r = c.collective_performance("all_reduce", 9e9, 8, 450e9, 3e-6, "nvls",
                                 base_latency_s=0, efficiency=0.8)
    assert r.steps == 2
    assert r.time_s == pytest.approx(6e-6 + 9e9 * 9 / 8 / (0.85 * 0.8 * 450e9))


def test_hierarchical_by_hand():
    # 2 nodes x 4 GPUs: reduce-scatter in the node (3 steps, 3/4 S), ring all-reduce of S/4
    # across the 2 nodes (2 steps, 2 * 1/2 * 1/4 S), all-gather in the node (3 steps, 3/4 S).
    # The phases are pipelined in chunks, so the busier level sets the rate: NVLink
    # carries 1.5 S, the network 0.25 S.
    s, nvlink, network = 8e9, 400e9, 50e9
    r = c.collective_performance(
        "all_reduce", s, 8, nvlink, 1e-6, "hierarchical", base_latency_s=0, efficiency=1,
        ranks_per_node=4, network_bandwidth_bytes_per_s=network, network_latency_s=10e-6,
        network_efficiency=1)
    assert r.steps == 3 + 2 + 3
    assert r.latency_term_s == pytest.approx(6e-6 + 20e-6)
    assert r.bandwidth_term_s == pytest.approx(max(1.5 * s / nvlink, 0.25 * s / network))
    slow_network = c.collective_performance(
        "all_reduce", s, 8, nvlink, 1e-6, "hierarchical", base_latency_s=0, efficiency=1,
        ranks_per_node=4, network_bandwidth_bytes_per_s=network / 10, network_latency_s=10e-6,
        network_efficiency=1)
    assert slow_network.bandwidth_term_s == pytest.approx(0.25 * s / (network / 10))
    assert r.bytes_sent_per_rank == pytest.approx(1.75 * s)


def test_one_rank_with_no_launch_latency_is_instant_not_nan():
    r = c.collective_performance("all_reduce", 1e6, 1, 100e9, 1e-6, base_latency_s=0)
    assert r.time_s == 0 and r.algorithm_bandwidth_bytes_per_s == math.inf
    assert r.bus_bandwidth_bytes_per_s == 0
    empty = c.collective_performance("all_reduce", 0.0, 1, 100e9, 1e-6, base_latency_s=0)
    assert empty.algorithm_bandwidth_bytes_per_s == 0


def test_large_tree_and_halving_doubling_limits():
    tree = c.collective_performance("all_reduce", 1e18, 16, 100e9, 1e-6, "tree", efficiency=0.8)
    assert tree.bus_bandwidth_bytes_per_s == pytest.approx(0.92 * 0.8 * 100e9 * 15 / 16)
    hd = c.collective_performance("all_reduce", 1e18, 16, 100e9, 1e-6, "halving_doubling",
                                  efficiency=0.8)
    assert hd.bus_bandwidth_bytes_per_s == pytest.approx(0.8 * 100e9)


def test_in_network_reduction_exceeds_the_link_and_beats_the_ring():
    nvls = c.collective_performance("all_reduce", 8 * u.GiB, 8, NVLINK4, c.NVLINK_STEP_LATENCY_S, "nvls")
    ring = c.collective_performance("all_reduce", 8 * u.GiB, 8, NVLINK4, c.NVLINK_STEP_LATENCY_S, "ring")
    assert nvls.bus_bandwidth_bytes_per_s > NVLINK4 > ring.bus_bandwidth_bytes_per_s
    # nccl #1442: "a 30% improvement using NVLink SHARP" (±10 points).
    assert nvls.bus_bandwidth_bytes_per_s / ring.bus_bandwidth_bytes_per_s == pytest.approx(1.3, abs=0.1)


def test_vectorized_sizes_match_scalar_calls():
    sizes = np.logspace(0, 10, 21)
    for collective, algorithm in EVERY_FLAT:
        vector = c.collective_performance(collective, sizes, 8, NVLINK4, 3.4e-6, algorithm)
        assert isinstance(vector.time_s, np.ndarray) and vector.time_s.shape == sizes.shape
        for i in (0, 10, 20):
            scalar = c.collective_performance(collective, sizes[i], 8, NVLINK4, 3.4e-6, algorithm)
            assert isinstance(scalar.time_s, float)
            assert vector.time_s[i] == pytest.approx(scalar.time_s)
            assert vector.bus_bandwidth_bytes_per_s[i] == pytest.approx(scalar.bus_bandwidth_bytes_per_s)


def test_bandwidth_and_efficiency_broadcast_against_sizes():
    r = c.collective_performance("all_reduce", np.array([1e6, 1e9]), 8,
                                 np.array([[100e9], [400e9]]), 2e-6, efficiency=0.9)
    assert r.time_s.shape == (2, 2)
    assert r.time_s[1, 1] < r.time_s[0, 1]


@given(st.sampled_from(POINT_TO_POINT), sizes, st.integers(min_value=2, max_value=4096),
       bandwidths, latencies, efficiencies)
def test_bus_bandwidth_never_exceeds_the_usable_link(case, size, n, bandwidth, latency, efficiency):
    # From two ranks up (one rank uses no link, and a broadcast to itself has busbw = algbw).
    collective, algorithm = case
    r = c.collective_performance(collective, size, n, bandwidth, latency, algorithm,
                                 efficiency=efficiency)
    assert r.bus_bandwidth_bytes_per_s <= efficiency * bandwidth * (1 + 1e-12)
    assert r.bus_bandwidth_bytes_per_s <= bandwidth * (1 + 1e-12)


# Hostile input: fuzzed with tests/fuzzing.py -----------------------------------------------------

COLLECTIVES = collectives.COLLECTIVES

ALGORITHMS = tuple(collectives.ALGORITHMS)

size = nonnegative(1.0, 1e13)

rate = positive(1e6, 1e13)

latency = nonnegative(1e-9, 1e-2)

ranks = count(1, 4096)


def bandwidth_at_most_line_rate(result, kwargs):
    """Bus bandwidth never beats the links (in-network algorithms halve the traffic, so 2x)."""
    line = np.max(np.asarray(kwargs["bandwidth_bytes_per_s"], dtype=float))
    network = kwargs.get("network_bandwidth_bytes_per_s")
    limit = max(line, 0.0 if network is None else np.max(np.asarray(network, dtype=float))) * 2
    busbw = np.asarray(result.bus_bandwidth_bytes_per_s)
    assert np.all(busbw[np.isfinite(busbw)] <= limit * (1 + 1e-9)), (result, kwargs)
    assert np.all(np.asarray(result.time_s) >= 0)
    instant = np.asarray(result.time_s) == 0
    for rate in (result.algorithm_bandwidth_bytes_per_s, result.bus_bandwidth_bytes_per_s):
        assert np.all(np.isfinite(rate) | (instant & (kwargs["n_ranks"] == 1))), (result, kwargs)


collective_options = dict(
    base_latency_s=latency,
    efficiency=fraction(0.05, 1.0),
)

FUZZ_CASES = [
    # collectives
    Case(collectives.collective_performance, dict(
        collective=choice(COLLECTIVES), size_bytes=size, n_ranks=ranks, bandwidth_bytes_per_s=rate,
        latency_s=latency, algorithm=choice(ALGORITHMS), **collective_options),
        check=bandwidth_at_most_line_rate, infinite=("algorithm_bandwidth_bytes_per_s", "bus_bandwidth_bytes_per_s")),
    Case(collectives.collective_performance, dict(
        collective=st.just("all_reduce"), size_bytes=size, n_ranks=count(2, 4096),
        bandwidth_bytes_per_s=rate, latency_s=latency, algorithm=st.just("hierarchical"),
        ranks_per_node=count(1, 16), network_bandwidth_bytes_per_s=optional(rate),
        network_latency_s=optional(latency), network_efficiency=optional(fraction(0.05, 1.0)),
        network_algorithm=optional(choice(("ring", "tree")))),
        check=bandwidth_at_most_line_rate, name="collectives.collective_performance (hierarchical)",
        infinite=("algorithm_bandwidth_bytes_per_s", "bus_bandwidth_bytes_per_s")),
]

test_fuzz, test_fuzz_nightly = make_tests(FUZZ_CASES)
