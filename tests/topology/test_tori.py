"""Tests of ``interconnect_lab.topology.tori``: tori: chips wired to their neighbours in a 2D or 3D
grid that wraps around.

Hostile input is at the end (and fuzzed with tests/fuzzing.py where noted).
"""

import math
import time

import pytest
from hypothesis import given, settings, strategies as st

from fuzzing import Case, count, make_tests, mixed, optional, positive

from interconnect_lab import topology
from interconnect_lab.topology import TPU_V4, direct_connect, dragonfly, topology_comparison, torus


def test_tpu_v4_torus_and_ocs_counts():
    # Jouppi et al. ISCA 2023 / HPCwire: 4,096 chips, 64 racks (4x4x4 cubes), 48 OCS.
    t = torus(TPU_V4["dimensions"], cube=TPU_V4["cube"])
    assert t.chips == 4096
    assert t.cubes == 64
    assert t.circuit_switches == TPU_V4["circuit_switches_published"] == 48
    assert t.circuit_switch_ports == 128 <= 136  # Palomar OCS has 136 ports
    assert t.radix == 6  # six ICI links per chip
    assert t.optical_links == 64 * 96 // 2  # every face link of every cube, paired through an OCS
    assert t.links == 3 * 4096
    assert t.links - t.optical_links == 64 * 3 * 3 * 16  # inside a cube: 3 dims x 3 links x 16 rows


@settings(max_examples=60, deadline=None)
@given(dims=st.lists(st.integers(2, 12), min_size=1, max_size=3))
def test_torus_counts(dims):
    t = torus(dims)
    n = math.prod(dims)
    assert t.chips == n
    # Every chip has `radix` link ends: 2 L = N * radix.
    assert 2 * t.links == n * t.radix
    assert t.diameter_hops == sum(k // 2 for k in dims)
    assert t.average_hops <= t.diameter_hops
    assert 0 < t.bisection_links <= t.links


def test_torus_ring_by_hand():
    ring = torus((8,))
    assert (ring.links, ring.diameter_hops, ring.bisection_links, ring.radix) == (8, 4, 2, 2)
    assert ring.average_hops == pytest.approx((0 + 1 + 2 + 3 + 4 + 3 + 2 + 1) / 8)


@pytest.mark.parametrize("call, message", [
    (lambda: dragonfly(0, 4, 2), "terminals_per_router = 0"),
    (lambda: dragonfly(2, 4, 2, groups=10), "groups = 10"),
    (lambda: dragonfly(2, 4, 2, port_bytes_per_s=-1), "port_bytes_per_s"),
    (lambda: torus((1, 4)), r"dimensions\[0\] = 1"),
    (lambda: torus((4, 4, 4, 4)), "1, 2 or 3"),
    (lambda: torus((8, 8), cube=(3, 4)), "must divide"),
    (lambda: direct_connect(100, radix=64), "needs >= 2"),
    (lambda: topology_comparison(4096, families=["mesh"]), "unknown family 'mesh'"),
    (lambda: topology_comparison(1), "hosts = 1"),
])
def test_bad_input_names_the_parameter(call, message):
    with pytest.raises(ValueError, match=message):
        call()


# Hostile input: fuzzed with tests/fuzzing.py -----------------------------------------------------

#: Counts small and large: the builders hold them as integers, the networks allocate arrays of them.
big_count = mixed(st.one_of(st.integers(1, 64), st.integers(1, 2 ** 53)))

FUZZ_CASES = [
    Case(topology.torus, dict(dimensions=mixed(st.lists(big_count, min_size=1, max_size=4)),
                              cube=optional(mixed(st.lists(count(1, 8), min_size=1, max_size=3))),
                              port_bytes_per_s=optional(positive(1e-3, 1e25)))),
]


# Hostile input -----------------------------------------------------------------------------------

@pytest.mark.usefixtures("warnings_are_errors")
def test_torus_average_hops_is_a_closed_form():
    started = time.process_time()
    assert topology.torus((2 ** 40,)).average_hops == 2 ** 38   # a loop over 2**40 distances before
    assert time.process_time() - started < 0.1
    for dims in [(3,), (4,), (5, 6, 7), (16, 16, 16)]:
        by_sum = sum(sum(min(d, k - d) for d in range(k)) / k for k in dims)
        assert topology.torus(dims).average_hops == by_sum


@pytest.mark.usefixtures("warnings_are_errors")
@pytest.mark.parametrize(("call", "error", "message"), [
    (lambda: topology.torus((2 ** 20, 2 ** 20, 2 ** 20)), ValueError, r"a torus must have at most 2\*\*53"),
    (lambda: topology.dragonfly(2 ** 20, 2 ** 20, 2 ** 20), ValueError, r"it must have at most 2\*\*53"),
    (lambda: topology.torus((4, 4), port_bytes_per_s=[1.0]), TypeError, "port_bytes_per_s must be a single real number"),
    (lambda: topology.fat_tree(64, radix=8, port_bytes_per_s=1e300), ValueError, r"port_bytes_per_s = 1e\+300 B/s"),
])
def test_topology_builders_bound_their_counts(call, error, message):
    with pytest.raises(error, match=message):
        call()

test_fuzz, test_fuzz_nightly = make_tests(FUZZ_CASES)
