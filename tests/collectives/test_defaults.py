"""Tests of ``interconnect_lab.collectives.defaults``: defaults of the collective models: efficiencies,
NCCL's protocol latencies, per-link parameters.

Hostile input is at the end (and fuzzed with tests/fuzzing.py where noted).
"""

import pytest

from fuzzing import Case, choice, make_tests

from interconnect_lab import catalog, collectives as c, collectives, units as u
from interconnect_lab.published import NCCL_BUS_BANDWIDTH, NCCL_NVLS_SCALING

NVLINK4 = catalog.link("NVLink 4").per_gpu_per_direction_bytes_per_s

EVERY_FLAT = [(collective, name) for name, entry in c.ALGORITHMS.items()
              if name != "hierarchical" for collective in entry.collectives]


def model_for(measurement, **overrides):
    """The model at the measurement's point, from the catalog link and the one set of defaults."""
    parameters = c.link_parameters(catalog.link(measurement.link))
    return c.collective_performance(measurement.collective, measurement.size_bytes,
                                    measurement.n_ranks, algorithm=measurement.algorithm,
                                    **parameters, **overrides)


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


def test_nccl_latency_constants_match_published_results():
    # published-results §5 (NCCL src/graph/tuning.cc): Ring base LL/LL128/Simple 6.6/14.0/8.4 µs,
    # per step NVLink 0.6/1.9/3.4 µs, network 2.7/4.0/14.0 µs.
    table = {name: (p.base_latency_s, p.nvlink_step_latency_s, p.network_step_latency_s)
             for name, p in c.NCCL_LATENCIES.items()}
    expected = {"LL": (6.6, 0.6, 2.7), "LL128": (14.0, 1.9, 4.0), "Simple": (8.4, 3.4, 14.0)}
    for name, values in expected.items():
        assert table[name] == pytest.approx(tuple(v * u.us for v in values))
    assert (c.BASE_LATENCY_S, c.NVLINK_STEP_LATENCY_S, c.NETWORK_STEP_LATENCY_S) == table["Simple"]


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


def test_half_bandwidth_size_by_hand_and_at_half_the_bandwidth():
    # Ring all-reduce, 8 ranks: L = 8.4 µs + 14 x 3.4 µs; c = (14/8) / (0.8 x 450 GB/s).
    size = c.half_bandwidth_size("all_reduce", 8, NVLINK4, c.NVLINK_STEP_LATENCY_S)
    assert size == pytest.approx((8.4e-6 + 14 * 3.4e-6) / (1.75 / (0.8 * NVLINK4)))
    at_half = c.collective_performance("all_reduce", size, 8, NVLINK4, c.NVLINK_STEP_LATENCY_S)
    assert at_half.latency_term_s == pytest.approx(at_half.bandwidth_term_s)
    limit = 0.8 * NVLINK4  # busbw of a large ring all-reduce
    assert at_half.bus_bandwidth_bytes_per_s == pytest.approx(limit / 2)


def test_link_parameters_read_the_catalog():
    nvlink3 = c.link_parameters(catalog.link("NVLink 3"))
    assert nvlink3["bandwidth_bytes_per_s"] == catalog.link("NVLink 3").per_gpu_per_direction_bytes_per_s
    assert nvlink3["efficiency"] == c.NVLINK_EFFICIENCY
    ndr = c.link_parameters(catalog.link("InfiniBand NDR"))
    assert ndr == {"bandwidth_bytes_per_s": 400 * u.Gbit_per_s, "latency_s": c.NETWORK_STEP_LATENCY_S,
                   "efficiency": c.NETWORK_EFFICIENCY}
    with pytest.raises(TypeError, match="catalog Link"):
        c.link_parameters("NVLink 4")


# Hostile input: fuzzed with tests/fuzzing.py -----------------------------------------------------

FUZZ_CASES = [
    Case(collectives.link_parameters, dict(link=choice(tuple(catalog.LINKS)))),
    Case(collectives.nvls_efficiency, dict(link_name=choice(tuple(catalog.LINKS)))),
]

test_fuzz, test_fuzz_nightly = make_tests(FUZZ_CASES)
