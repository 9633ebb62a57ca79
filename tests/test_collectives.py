"""Collectives: the α-β model, nccl-tests' algbw and busbw, and published bus bandwidths."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from interconnect_lab import catalog
from interconnect_lab import collectives as c
from interconnect_lab import units as u
from interconnect_lab.published import NCCL_BUS_BANDWIDTH, NCCL_NVLS_SCALING

NVLINK4 = catalog.link("NVLink 4").per_gpu_per_direction_bytes_per_s
POINT_TO_POINT = [(collective, name) for name, entry in c.ALGORITHMS.items()
                  if not entry.in_network and name != "hierarchical"
                  for collective in entry.collectives]
EVERY_FLAT = [(collective, name) for name, entry in c.ALGORITHMS.items()
              if name != "hierarchical" for collective in entry.collectives]


def model_for(measurement, **overrides):
    """The model at the measurement's point, from the catalog link and the one set of defaults."""
    parameters = c.link_parameters(catalog.link(measurement.link))
    return c.collective_performance(measurement.collective, measurement.size_bytes,
                                    measurement.n_ranks, algorithm=measurement.algorithm,
                                    **parameters, **overrides)


# Published values -------------------------------------------------------------------

# published-results §5: bus bandwidths stated by NCCL's maintainers (nccl-tests #149 for
# 8x A100, #212 for 8x H100 ring and NVLS, nccl #1442 for H100 non-all-reduce, nccl-tests
# #319 for a ConnectX-7 port) and the H200 figures of the ML Engineering book. One set of
# defaults, no per-case tuning; tolerance ±10 % on busbw (and on algbw where stated).
TOLERANCE = 0.10


@pytest.mark.parametrize("measurement", NCCL_BUS_BANDWIDTH, ids=lambda m: f"{m.system} {m.algorithm}")
def test_model_reproduces_published_bus_bandwidth(measurement):
    result = model_for(measurement)
    assert result.bus_bandwidth_bytes_per_s == pytest.approx(
        measurement.bus_bandwidth_bytes_per_s, rel=TOLERANCE)
    if measurement.algorithm_bandwidth_bytes_per_s is not None:
        assert result.algorithm_bandwidth_bytes_per_s == pytest.approx(
            measurement.algorithm_bandwidth_bytes_per_s, rel=TOLERANCE)


def test_brief_cases_are_in_the_table():
    cases = {(m.link, m.collective, m.algorithm, m.source.url.rsplit("/", 1)[-1]): m
             for m in NCCL_BUS_BANDWIDTH}
    assert cases[("NVLink 4", "all_reduce", "ring", "212")].bus_bandwidth_bytes_per_s == 370e9
    assert cases[("NVLink 4", "all_reduce", "nvls", "212")].bus_bandwidth_bytes_per_s == 480e9
    assert cases[("NVLink 3", "all_reduce", "ring", "149")].bus_bandwidth_bytes_per_s == 230e9


def test_published_nvls_busbw_uses_the_ring_factor():
    # nccl-tests #212: busbw ~480 GB/s is algbw ~275 GB/s times 2(n-1)/n = 7/4, not (n-1)/(n+1).
    nvls = next(m for m in NCCL_BUS_BANDWIDTH if m.algorithm == "nvls" and "H100" in m.system)
    factor = c.bus_bandwidth_factor("all_reduce", nvls.n_ranks)
    assert nvls.algorithm_bandwidth_bytes_per_s * factor == pytest.approx(
        nvls.bus_bandwidth_bytes_per_s, rel=0.01)


@pytest.mark.parametrize("measurement", [m for m in NCCL_NVLS_SCALING if m.n_ranks >= 4],
                         ids=lambda m: f"{m.n_ranks} GPUs")
def test_nvls_scaling_with_rank_count(measurement):
    # nccl #1455 (user report): NVLS busbw and algbw on 4 to 8 H100 of one node, ±10 %.
    # The rise of algbw with n follows the (n+1)/n bytes per rank of the NVLS data path.
    result = model_for(measurement)
    assert result.bus_bandwidth_bytes_per_s == pytest.approx(
        measurement.bus_bandwidth_bytes_per_s, rel=TOLERANCE)
    if measurement.algorithm_bandwidth_bytes_per_s is not None:
        assert result.algorithm_bandwidth_bytes_per_s == pytest.approx(
            measurement.algorithm_bandwidth_bytes_per_s, rel=TOLERANCE)


@pytest.mark.parametrize("measurement", [m for m in NCCL_NVLS_SCALING if m.n_ranks < 4],
                         ids=lambda m: f"{m.n_ranks} GPUs")
def test_nvls_on_two_or_three_gpus_is_outside_the_model(measurement):
    # Known gap, kept visible: on 2 and 3 GPUs NVLS measures like the ring (~367 GB/s),
    # while the model's (n+1)/n switch traffic predicts far less. The model under-predicts
    # by more than the tolerance here; if it ever stops doing so, revisit the NVLS entry.
    result = model_for(measurement)
    assert result.bus_bandwidth_bytes_per_s < (1 - TOLERANCE) * measurement.bus_bandwidth_bytes_per_s


# Hand-worked α-β cases ------------------------------------------------------------------

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


def test_send_recv_and_all_to_all_by_hand():
    assert c.send_recv_time(1e9, 50e9, 5e-6, base_latency_s=0, efficiency=1) == pytest.approx(0.020005)
    assert c.all_to_all_time(8e9, 8, 100e9, 1e-6, base_latency_s=0, efficiency=1) == pytest.approx(
        1e-6 + 7e9 / 100e9)


def test_nccl_latency_constants_match_published_results():
    # published-results §5 (NCCL src/graph/tuning.cc): Ring base LL/LL128/Simple 6.6/14.0/8.4 µs,
    # per step NVLink 0.6/1.9/3.4 µs, network 2.7/4.0/14.0 µs.
    table = {name: (p.base_latency_s, p.nvlink_step_latency_s, p.network_step_latency_s)
             for name, p in c.NCCL_LATENCIES.items()}
    expected = {"LL": (6.6, 0.6, 2.7), "LL128": (14.0, 1.9, 4.0), "Simple": (8.4, 3.4, 14.0)}
    for name, values in expected.items():
        assert table[name] == pytest.approx(tuple(v * u.us for v in values))
    assert (c.BASE_LATENCY_S, c.NVLINK_STEP_LATENCY_S, c.NETWORK_STEP_LATENCY_S) == table["Simple"]


# nccl-tests definitions ------------------------------------------------------------------

@pytest.mark.parametrize(("collective", "factor"), [
    ("all_reduce", 2 * 7 / 8), ("all_gather", 7 / 8), ("reduce_scatter", 7 / 8),
    ("all_to_all", 7 / 8), ("broadcast", 1.0), ("reduce", 1.0), ("send_recv", 1.0)])
def test_bus_bandwidth_factors_from_nccl_tests(collective, factor):
    # nccl-tests doc/PERFORMANCE.md, "Summary", for n = 8.
    assert c.bus_bandwidth_factor(collective, 8) == pytest.approx(factor)


def test_in_network_factor_as_the_doc_lists_it():
    # doc/PERFORMANCE.md: "AllReduce (In-Network Reduction): (n-1)/(n+1)".
    assert c.bus_bandwidth_factor("all_reduce", 8, in_network=True) == pytest.approx(7 / 9)
    assert c.bus_bandwidth("all_reduce", 275e9, 8, 1.0, in_network=True) == pytest.approx(275e9 * 7 / 9)
    with pytest.raises(ValueError, match="only to 'all_reduce'"):
        c.bus_bandwidth_factor("all_gather", 8, in_network=True)


def test_result_bandwidths_follow_the_definitions():
    r = c.collective_performance("reduce_scatter", 3e8, 6, 200e9, 2e-6)
    assert r.algorithm_bandwidth_bytes_per_s == pytest.approx(c.algorithm_bandwidth(3e8, r.time_s))
    assert r.bus_bandwidth_bytes_per_s == pytest.approx(c.bus_bandwidth("reduce_scatter", 3e8, 6, r.time_s))


# Limits and identities ---------------------------------------------------------------------

@pytest.mark.parametrize(("collective", "algorithm"), EVERY_FLAT)
def test_one_rank_communicates_nothing(collective, algorithm):
    r = c.collective_performance(collective, 1e6, 1, 100e9, 1e-6, algorithm, base_latency_s=2e-6)
    assert r.steps == 0 and r.bytes_sent_per_rank == 0
    assert r.time_s == pytest.approx(2e-6)
    # busbw = factor x algbw: 0 for all-reduce and the (n-1)/n collectives, algbw otherwise.
    factor = c.bus_bandwidth_factor(collective, 1)
    assert r.bus_bandwidth_bytes_per_s == pytest.approx(factor * 1e6 / 2e-6)


def test_one_rank_with_no_launch_latency_is_instant_not_nan():
    r = c.collective_performance("all_reduce", 1e6, 1, 100e9, 1e-6, base_latency_s=0)
    assert r.time_s == 0 and r.algorithm_bandwidth_bytes_per_s == math.inf
    assert r.bus_bandwidth_bytes_per_s == 0
    empty = c.collective_performance("all_reduce", 0.0, 1, 100e9, 1e-6, base_latency_s=0)
    assert empty.algorithm_bandwidth_bytes_per_s == 0


@pytest.mark.parametrize(("collective", "algorithm"), EVERY_FLAT)
def test_small_messages_are_latency_bound(collective, algorithm):
    r = c.collective_performance(collective, 0.0, 16, NVLINK4, c.NVLINK_STEP_LATENCY_S, algorithm)
    steps, _ = c.ALGORITHMS[algorithm].cost(collective, 16)
    assert r.time_s == pytest.approx(c.BASE_LATENCY_S + steps * c.NVLINK_STEP_LATENCY_S)
    assert c.collective_performance(collective, 1.0, 16, NVLINK4, c.NVLINK_STEP_LATENCY_S,
                                    algorithm).latency_bound


@pytest.mark.parametrize("collective", ["all_reduce", "all_gather", "reduce_scatter", "broadcast", "reduce"])
@pytest.mark.parametrize("n", [2, 3, 8, 64])
def test_large_ring_messages_reach_efficiency_times_link(collective, n):
    r = c.collective_performance(collective, 1e18, n, NVLINK4, c.NVLINK_STEP_LATENCY_S)
    assert r.bus_bandwidth_bytes_per_s == pytest.approx(c.NVLINK_EFFICIENCY * NVLINK4, rel=1e-9)
    assert not r.latency_bound


def test_large_tree_and_halving_doubling_limits():
    tree = c.collective_performance("all_reduce", 1e18, 16, 100e9, 1e-6, "tree", efficiency=0.8)
    assert tree.bus_bandwidth_bytes_per_s == pytest.approx(0.92 * 0.8 * 100e9 * 15 / 16)
    hd = c.collective_performance("all_reduce", 1e18, 16, 100e9, 1e-6, "halving_doubling",
                                  efficiency=0.8)
    assert hd.bus_bandwidth_bytes_per_s == pytest.approx(0.8 * 100e9)


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


def test_in_network_reduction_exceeds_the_link_and_beats_the_ring():
    nvls = c.collective_performance("all_reduce", 8 * u.GiB, 8, NVLINK4, c.NVLINK_STEP_LATENCY_S, "nvls")
    ring = c.collective_performance("all_reduce", 8 * u.GiB, 8, NVLINK4, c.NVLINK_STEP_LATENCY_S, "ring")
    assert nvls.bus_bandwidth_bytes_per_s > NVLINK4 > ring.bus_bandwidth_bytes_per_s
    # nccl #1442: "a 30% improvement using NVLink SHARP" (±10 points).
    assert nvls.bus_bandwidth_bytes_per_s / ring.bus_bandwidth_bytes_per_s == pytest.approx(1.3, abs=0.1)


# Latency against bandwidth: tree against ring --------------------------------------------

def test_tree_beats_ring_at_small_sizes_and_many_ranks():
    network = {"efficiency": c.NETWORK_EFFICIENCY}
    for n in (16, 64, 256):
        small = {a: c.all_reduce_time(64 * u.kB, n, 50e9, c.NETWORK_STEP_LATENCY_S, a, **network)
                 for a in ("ring", "tree")}
        large = {a: c.all_reduce_time(64 * u.GB, n, 50e9, c.NETWORK_STEP_LATENCY_S, a, **network)
                 for a in ("ring", "tree")}
        assert small["tree"] < small["ring"]
        assert large["ring"] < large["tree"]


def test_crossover_is_where_the_times_meet():
    n, bandwidth, latency = 64, 50e9, c.NETWORK_STEP_LATENCY_S
    size = c.crossover_size("all_reduce", n, bandwidth, latency, "ring", "tree",
                            efficiency=c.NETWORK_EFFICIENCY)
    ring = c.all_reduce_time(size, n, bandwidth, latency, "ring", efficiency=c.NETWORK_EFFICIENCY)
    tree = c.all_reduce_time(size, n, bandwidth, latency, "tree", efficiency=c.NETWORK_EFFICIENCY)
    assert ring == pytest.approx(tree, rel=1e-9)
    # By hand: (126 - 12) steps x 14 µs over (2/0.92 - 126/64) / (0.96 x 50 GB/s) per byte.
    expected = (126 - 12) * 14e-6 / ((2 / 0.92 - 126 / 64) / (0.96 * 50e9))
    assert size == pytest.approx(expected)


def test_crossover_grows_with_rank_count_and_vanishes_for_two_ranks():
    sizes = [c.crossover_size("all_reduce", n, NVLINK4, c.NVLINK_STEP_LATENCY_S) for n in (4, 8, 64, 512)]
    assert sizes == sorted(sizes)
    assert c.crossover_size("all_reduce", 2, NVLINK4, c.NVLINK_STEP_LATENCY_S) == math.inf



def test_half_bandwidth_size_by_hand_and_at_half_the_bandwidth():
    # Ring all-reduce, 8 ranks: L = 8.4 µs + 14 x 3.4 µs; c = (14/8) / (0.8 x 450 GB/s).
    size = c.half_bandwidth_size("all_reduce", 8, NVLINK4, c.NVLINK_STEP_LATENCY_S)
    assert size == pytest.approx((8.4e-6 + 14 * 3.4e-6) / (1.75 / (0.8 * NVLINK4)))
    at_half = c.collective_performance("all_reduce", size, 8, NVLINK4, c.NVLINK_STEP_LATENCY_S)
    assert at_half.latency_term_s == pytest.approx(at_half.bandwidth_term_s)
    limit = 0.8 * NVLINK4  # busbw of a large ring all-reduce
    assert at_half.bus_bandwidth_bytes_per_s == pytest.approx(limit / 2)


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

# Vectorization ------------------------------------------------------------------------------

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


# Properties ----------------------------------------------------------------------------------

sizes = st.floats(min_value=0, max_value=1e13, allow_nan=False)
ranks = st.integers(min_value=1, max_value=4096)
bandwidths = st.floats(min_value=1e6, max_value=1e13)
latencies = st.floats(min_value=0, max_value=1e-3)
efficiencies = st.floats(min_value=0.01, max_value=1.0)


@given(st.sampled_from(EVERY_FLAT), sizes, sizes, ranks, bandwidths, latencies)
def test_time_never_falls_as_size_grows(case, size_a, size_b, n, bandwidth, latency):
    collective, algorithm = case
    small, large = sorted((size_a, size_b))
    t = [c.collective_time(collective, s, n, bandwidth, latency, algorithm) for s in (small, large)]
    assert t[0] <= t[1]


@given(st.sampled_from(POINT_TO_POINT), sizes, st.integers(min_value=2, max_value=4096),
       bandwidths, latencies, efficiencies)
def test_bus_bandwidth_never_exceeds_the_usable_link(case, size, n, bandwidth, latency, efficiency):
    # From two ranks up (one rank uses no link, and a broadcast to itself has busbw = algbw).
    collective, algorithm = case
    r = c.collective_performance(collective, size, n, bandwidth, latency, algorithm,
                                 efficiency=efficiency)
    assert r.bus_bandwidth_bytes_per_s <= efficiency * bandwidth * (1 + 1e-12)
    assert r.bus_bandwidth_bytes_per_s <= bandwidth * (1 + 1e-12)


@settings(max_examples=50)
@given(sizes, st.integers(1, 64), st.integers(1, 16), bandwidths, bandwidths, latencies, latencies)
def test_hierarchical_time_is_positive_and_monotone(size, nodes, per_node, inner, outer, alpha, beta):
    kwargs = {"ranks_per_node": per_node, "network_bandwidth_bytes_per_s": outer,
              "network_latency_s": beta}
    t1 = c.all_reduce_time(size, nodes * per_node, inner, alpha, "hierarchical", **kwargs)
    t2 = c.all_reduce_time(2 * size, nodes * per_node, inner, alpha, "hierarchical", **kwargs)
    assert 0 < t1 <= t2


# Names and bad input --------------------------------------------------------------------------

def test_the_table_lists_and_dispatches():
    assert set(c.ALGORITHMS) == {"ring", "tree", "halving_doubling", "direct", "hierarchical",
                                 "nvls", "sharp"}
    for collective in c.COLLECTIVES:
        assert c.algorithms_for(collective), collective
    assert c.algorithms_for("all_reduce") == ("ring", "tree", "halving_doubling", "direct",
                                              "hierarchical", "nvls", "sharp")
    for entry in c.ALGORITHMS.values():
        assert entry.references and 0 < entry.bandwidth_factor <= 1 and entry.factor_note


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


def test_link_parameters_read_the_catalog():
    nvlink3 = c.link_parameters(catalog.link("NVLink 3"))
    assert nvlink3["bandwidth_bytes_per_s"] == catalog.link("NVLink 3").per_gpu_per_direction_bytes_per_s
    assert nvlink3["efficiency"] == c.NVLINK_EFFICIENCY
    ndr = c.link_parameters(catalog.link("InfiniBand NDR"))
    assert ndr == {"bandwidth_bytes_per_s": 400 * u.Gbit_per_s, "latency_s": c.NETWORK_STEP_LATENCY_S,
                   "efficiency": c.NETWORK_EFFICIENCY}
    with pytest.raises(TypeError, match="catalog Link"):
        c.link_parameters("NVLink 4")


# Figures -------------------------------------------------------------------------------------

def test_bus_bandwidth_plot_labels_axes_with_units():
    pytest.importorskip("matplotlib")
    from interconnect_lab.plotting.collectives import bus_bandwidth_plot, collective_time_plot

    sizes = np.logspace(1, 10, 50)
    results = {a: c.collective_performance("all_reduce", sizes, 8, NVLINK4, c.NVLINK_STEP_LATENCY_S, a)
               for a in ("ring", "tree", "nvls")}
    ax = bus_bandwidth_plot(results, link_bandwidth_bytes_per_s=NVLINK4,
                            measured=[("nccl-tests #212, ring", 8 * u.GiB, 370e9)])
    assert ax.get_xscale() == "log"
    assert "[B]" in ax.get_xlabel() and "[GB/s]" in ax.get_ylabel()
    assert len(ax.get_lines()) >= 4
    ax = collective_time_plot(results, crossover_bytes=1e6)
    assert ax.get_xscale() == "log" and ax.get_yscale() == "log"
    assert "[s]" in ax.get_ylabel() or "[µs]" in ax.get_ylabel()
