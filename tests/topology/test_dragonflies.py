"""Tests of ``interconnect_lab.topology.dragonflies``: dragonfly networks: groups of routers wired
all-to-all, groups joined by global links.

Hostile input is at the end (and fuzzed with tests/fuzzing.py where noted).
"""

import pytest
from hypothesis import given, settings, strategies as st

from fuzzing import Case, make_tests, mixed, optional, positive

from interconnect_lab import topology, units as u
from interconnect_lab.topology import SLINGSHOT, dragonfly, dragonfly_max_hosts


def test_dragonfly_max_size_is_kim_formula():
    # Kim et al., ISCA 2008, section 3: g = a h + 1 groups, N = a p (a h + 1) terminals.
    for p, a, h in ((4, 8, 4), (2, 4, 2), (16, 32, 17)):
        d = dragonfly(p, a, h)
        assert d.groups == a * h + 1
        assert d.hosts == a * p * (a * h + 1) == dragonfly_max_hosts(p, a, h)
        assert d.links_per_group_pair == 1
        assert d.unused_global_ports == 0


def test_slingshot_rosetta_wiring():
    # Rosetta: 64 ports (16 + 31 + 17), 545 groups of 512 endpoints (Lockwood's notes), 3 hops (ALCF).
    d = dragonfly(SLINGSHOT["terminals_per_router"], SLINGSHOT["routers_per_group"],
                  SLINGSHOT["global_links_per_router"], port_bytes_per_s=SLINGSHOT["port_bytes_per_s"])
    assert d.radix == 64
    assert d.groups == 545 and d.hosts_per_group == 512
    assert d.hosts == 545 * 512 == 279_040
    assert d.diameter_hops == 3 and d.valiant_diameter_hops == 5
    assert d.port_bytes_per_s * 64 == pytest.approx(12.8 * u.Tbit_per_s)  # 12.8 Tb/s per direction
    assert all(s.url or s.doi for s in SLINGSHOT["sources"])


@settings(max_examples=60, deadline=None)
@given(p=st.integers(1, 8), a=st.integers(1, 12), h=st.integers(1, 8), data=st.data())
def test_dragonfly_port_and_link_accounting(p, a, h, data):
    g = data.draw(st.integers(2, a * h + 1))
    d = dragonfly(p, a, h, g)
    # Every global port is used or counted unused; every local port is used.
    assert 2 * d.global_links + d.unused_global_ports == d.routers * h
    assert 2 * d.local_links == d.routers * (a - 1)
    assert d.links == d.hosts + d.local_links + d.global_links
    assert d.links_per_group_pair >= 1
    s = d.summary()
    assert s.optical_links == d.global_links
    assert s.diameter_links == s.diameter_hops + 2
    assert 0 < s.worst_link_loss <= 1


# Hostile input: fuzzed with tests/fuzzing.py -----------------------------------------------------

#: Counts small and large: the builders hold them as integers, the networks allocate arrays of them.
big_count = mixed(st.one_of(st.integers(1, 64), st.integers(1, 2 ** 53)))

FUZZ_CASES = [
    Case(topology.dragonfly_max_hosts, dict(terminals_per_router=big_count, routers_per_group=big_count,
                                            global_links_per_router=big_count)),
    Case(topology.dragonfly, dict(terminals_per_router=big_count, routers_per_group=big_count,
                                  global_links_per_router=big_count, groups=optional(big_count),
                                  port_bytes_per_s=optional(positive(1e-3, 1e25)))),
]

test_fuzz, test_fuzz_nightly = make_tests(FUZZ_CASES)
