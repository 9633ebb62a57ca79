"""Tests of ``interconnect_lab.topology.spineless``: fabrics without a top tier: rail-only networks and
direct-connect (Jupiter-style) fabrics.

Hostile input is at the end (and fuzzed with tests/fuzzing.py where noted).
"""

import math
import time

import pytest
from hypothesis import strategies as st

from fuzzing import Case, count, make_tests, mixed, optional, positive

from interconnect_lab import topology
from interconnect_lab.topology import direct_connect


def test_direct_connect_removes_the_core_and_half_the_top_links():
    d = direct_connect(8192, radix=64)
    clos = d.clos
    assert d.switches == clos.switches - clos.cores
    assert d.block_links <= clos.links_per_tier[2] // 2
    assert d.links_per_block_pair * (d.blocks - 1) <= d.uplinks_per_block
    # Half the blocks times half the blocks times t links cross the bisection.
    assert d.bisection_links == 4 * 4 * d.links_per_block_pair
    ocs = direct_connect(8192, radix=64, circuit_switch_ports=136)
    assert ocs.circuit_switches == math.ceil(2 * ocs.block_links / 136)


# Hostile input: fuzzed with tests/fuzzing.py -----------------------------------------------------

def rarely(usual, unusual, odds=10):
    """``usual`` most of the time; one draw in ``odds``, ``unusual``."""
    return st.integers(0, odds - 1).flatmap(lambda k: unusual if k == 0 else usual)


def summary_is_sound(result, kwargs=None):
    summary = result if isinstance(result, topology.TopologySummary) else result.summary()
    assert summary.hosts >= 1 and summary.bisection_ratio >= 0 and 0 <= summary.worst_link_loss <= 1
    assert summary.optical_links <= summary.links and summary.diameter_links >= summary.diameter_hops


@st.composite
def direct_connect_sizes(draw):
    """(hosts, radix): mostly more hosts than one pod holds and fewer than three tiers do."""
    radix = draw(st.sampled_from([4, 8, 16, 32, 64]))
    return draw(st.integers(radix ** 2 // 4 + 1, radix ** 3 // 4)), radix


radix = mixed(rarely(st.sampled_from([4, 8, 16, 32, 64, 128, 256]),
                     st.one_of(st.integers(1, 2 ** 40).map(lambda half: 2 * half), st.integers(2, 2 ** 40))))

rate = optional(positive(1e-3, 1e25))

FUZZ_CASES = [
    Case(topology.rail_only, dict(nodes=mixed(rarely(st.integers(1, 10_000), st.integers(1, 2 ** 53))),
                                  rails=count(1, 16), radix=radix, oversubscription=positive(1.0, 8.0),
                                  port_bytes_per_s=rate), check=summary_is_sound),
    Case(topology.direct_connect, dict(
        hosts=mixed(rarely(st.shared(direct_connect_sizes(), key="direct").map(lambda pair: pair[0]),
                           st.integers(1, 2 ** 53))),
        radix=mixed(rarely(st.shared(direct_connect_sizes(), key="direct").map(lambda pair: pair[1]), radix)),
        circuit_switch_ports=optional(count(2, 1024)), port_bytes_per_s=rate), check=summary_is_sound),
]


# Hostile input -----------------------------------------------------------------------------------

@pytest.mark.usefixtures("warnings_are_errors")
def test_fat_tree_radix_has_a_documented_bound():
    # a prime half-radix of 60 million: 3.2 s looking for divisors (longer for larger ones)
    started = time.process_time()
    with pytest.raises(ValueError, match=r"radix = 120000022 is not valid: it must be in \[2, 65536\]"):
        topology.rail_only(180_000_033, 1, radix=120_000_022)
    with pytest.raises(ValueError, match=r"radix = 131072 is not valid: it must be in \[4, 65536\]"):
        topology.topology_comparison(4096, radix=2 ** 17)
    assert time.process_time() - started < 0.1
    assert topology.fat_tree(3 * 32_749, radix=2 * 32_749, tiers=2).spines == 32_749   # the largest prime below 2**15

test_fuzz, test_fuzz_nightly = make_tests(FUZZ_CASES)
