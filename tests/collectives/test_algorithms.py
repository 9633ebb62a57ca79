"""Tests of ``interconnect_lab.collectives.algorithms``: collective algorithms: each one's steps and
bytes, and the bus-bandwidth factor nccl-tests uses.

Hostile input is at the end (and fuzzed with tests/fuzzing.py where noted).
"""

import pytest

from fuzzing import Case, choice, count, flag, make_tests, nonnegative, positive

from interconnect_lab import collectives as c, collectives
from interconnect_lab.published import NCCL_BUS_BANDWIDTH


EVERY_FLAT = [(collective, name) for name, entry in c.ALGORITHMS.items()
              if name != "hierarchical" for collective in entry.collectives]


def test_published_nvls_busbw_uses_the_ring_factor():
    # nccl-tests #212: busbw ~480 GB/s is algbw ~275 GB/s times 2(n-1)/n = 7/4, not (n-1)/(n+1).
    nvls = next(m for m in NCCL_BUS_BANDWIDTH if m.algorithm == "nvls" and "H100" in m.system)
    factor = c.bus_bandwidth_factor("all_reduce", nvls.n_ranks)
    assert nvls.algorithm_bandwidth_bytes_per_s * factor == pytest.approx(
        nvls.bus_bandwidth_bytes_per_s, rel=0.01)


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


@pytest.mark.parametrize(("collective", "algorithm"), EVERY_FLAT)
def test_one_rank_communicates_nothing(collective, algorithm):
    r = c.collective_performance(collective, 1e6, 1, 100e9, 1e-6, algorithm, base_latency_s=2e-6)
    assert r.steps == 0 and r.bytes_sent_per_rank == 0
    assert r.time_s == pytest.approx(2e-6)
    # busbw = factor x algbw: 0 for all-reduce and the (n-1)/n collectives, algbw otherwise.
    factor = c.bus_bandwidth_factor(collective, 1)
    assert r.bus_bandwidth_bytes_per_s == pytest.approx(factor * 1e6 / 2e-6)


def test_the_table_lists_and_dispatches():
    assert set(c.ALGORITHMS) == {"ring", "tree", "halving_doubling", "direct", "hierarchical",
                                 "nvls", "sharp"}
    for collective in c.COLLECTIVES:
        assert c.algorithms_for(collective), collective
    assert c.algorithms_for("all_reduce") == ("ring", "tree", "halving_doubling", "direct",
                                              "hierarchical", "nvls", "sharp")
    for entry in c.ALGORITHMS.values():
        assert entry.references and 0 < entry.bandwidth_factor <= 1 and entry.factor_note


# Hostile input: fuzzed with tests/fuzzing.py -----------------------------------------------------

COLLECTIVES = collectives.COLLECTIVES

size = nonnegative(1.0, 1e13)

ranks = count(1, 4096)

FUZZ_CASES = [
    Case(collectives.algorithm_bandwidth, dict(size_bytes=size, time_s=positive(1e-9, 1e6))),
    Case(collectives.bus_bandwidth, dict(collective=choice(COLLECTIVES), size_bytes=size, n_ranks=ranks,
                                         time_s=positive(1e-9, 1e6), in_network=flag())),
    Case(collectives.bus_bandwidth_factor, dict(collective=choice(COLLECTIVES), n_ranks=ranks,
                                                in_network=flag())),
    Case(collectives.algorithms_for, dict(collective=choice(COLLECTIVES))),
]

test_fuzz, test_fuzz_nightly = make_tests(FUZZ_CASES)
