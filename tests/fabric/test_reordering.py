"""Packet spraying and reordering: hand-worked arrivals, limits and bad input.

Hostile input is at the end (and fuzzed with tests/fuzzing.py where noted).
"""

import math

import numpy as np
import pytest
from hypothesis import strategies as st

from fuzzing import HOSTILE, Case, choice, make_tests, mixed, positive

from interconnect_lab import fabric
from interconnect_lab.fabric.reordering import SPRAY_ORDERS, spray_arrivals


def test_two_paths_by_hand():
    # One packet per second; path 1 is 1.5 s slower, so each odd packet is overtaken by the next even one.
    arrivals = spray_arrivals([0.0, 1.5], 8, 1000, 1000.0)
    assert arrivals.paths.tolist() == [0, 1, 0, 1, 0, 1, 0, 1]
    assert arrivals.send_times_s.tolist() == [0, 1, 2, 3, 4, 5, 6, 7]
    assert arrivals.out_of_order.tolist() == [False, True, False, True, False, True, False, False]
    assert arrivals.in_order_times_s.tolist() == [1.0, 3.5, 3.5, 5.5, 5.5, 7.5, 7.5, 9.5]
    assert arrivals.reorder_wait_s.tolist() == [0, 0, 0.5, 0, 0.5, 0, 0.5, 0]
    assert arrivals.reorder_buffer_bytes == 1000.0
    assert arrivals.completion_time_s == 9.5
    # Go-back-N keeps 0 and 1; packet 2 arrived before 1 and was discarded, and so was everything after.
    assert arrivals.go_back_n_accepted == 2
    assert arrivals.go_back_n_discarded_fraction == pytest.approx(0.75)


def test_equal_paths_keep_the_order():
    arrivals = spray_arrivals([2e-6] * 8, 1000, 4096, 50e9)
    assert arrivals.out_of_order_fraction == 0.0
    assert arrivals.reorder_buffer_packets == 0
    assert arrivals.go_back_n_accepted == 1000
    assert np.array_equal(arrivals.arrival_order, np.arange(1000))


def test_one_path_never_reorders_whatever_its_delay():
    arrivals = spray_arrivals([7e-6], 50, 4096, 50e9)
    assert arrivals.out_of_order_fraction == 0.0
    assert arrivals.completion_time_s == pytest.approx(50 * 4096 / 50e9 + 7e-6)


@pytest.mark.parametrize("skew_packets", [1.5, 4.2, 10.0, 37.7])
def test_reorder_buffer_holds_the_skew_times_the_rate(skew_packets):
    # Round robin over two paths: the fast path runs ahead by the skew, so about skew / tau packets wait.
    tau = 4096 / 50e9
    arrivals = spray_arrivals([0.0, skew_packets * tau], 2000, 4096, 50e9)
    expected = math.ceil(skew_packets / 2)  # only the fast path's packets (every other one) wait
    assert arrivals.reorder_buffer_packets == pytest.approx(expected, abs=1)
    assert arrivals.reorder_wait_s.max() <= skew_packets * tau + 1e-15


def test_in_order_times_bound_arrivals_and_end_together():
    arrivals = spray_arrivals([0.0, 3e-6, 1e-6, 5e-6], 500, 4096, 100e9, order="random", seed=3)
    assert np.all(arrivals.in_order_times_s >= arrivals.arrival_times_s)
    assert arrivals.in_order_times_s[-1] == arrivals.completion_time_s
    assert 0 < arrivals.out_of_order_fraction < 1
    assert arrivals.go_back_n_accepted < arrivals.packets


def test_random_spraying_is_reproducible():
    a = spray_arrivals([0.0, 1e-6], 100, 4096, 50e9, order="random", seed=7)
    b = spray_arrivals([0.0, 1e-6], 100, 4096, 50e9, order="random", seed=7)
    assert np.array_equal(a.paths, b.paths)
    assert set(np.unique(a.paths)) == {0, 1}


def test_orders_are_listed():
    assert set(SPRAY_ORDERS) == {"round-robin", "random"}


@pytest.mark.parametrize("kwargs, message", [
    (dict(path_delays_s=[], packets=4), "at least one path"),
    (dict(path_delays_s=[-1e-6], packets=4), "path_delays_s"),
    (dict(path_delays_s=[0.0], packets=0), "packets"),
    (dict(path_delays_s=[0.0], packets=4, packet_bytes=0), "packet_bytes"),
    (dict(path_delays_s=[0.0], packets=4, link_bytes_per_s=-1), "link_bytes_per_s"),
    (dict(path_delays_s=[0.0], packets=4, order="zigzag"), "spray order"),
    (dict(path_delays_s=[0.0], packets=4, order="random"), "seed"),
])
def test_bad_input_is_named(kwargs, message):
    arguments = dict(packet_bytes=4096, link_bytes_per_s=50e9) | kwargs
    with pytest.raises(ValueError, match=message):
        spray_arrivals(arguments.pop("path_delays_s"), arguments.pop("packets"), arguments.pop("packet_bytes"),
                       arguments.pop("link_bytes_per_s"), **arguments)


# Hostile input: fuzzed with tests/fuzzing.py -----------------------------------------------------

def rarely(usual, unusual, odds=10):
    """``usual`` most of the time; one draw in ``odds``, ``unusual``."""
    return st.integers(0, odds - 1).flatmap(lambda k: unusual if k == 0 else usual)


#: Counts that some builder allocates arrays of: mostly small, sometimes large, and absurd ones that
#: must be refused before anything is allocated.
ABSURD = (2 ** 21 + 1, 2 ** 30, 2 ** 40, 2 ** 53)

seeds = mixed(st.integers(0, 2 ** 40))


def arrivals_are_sound(result, kwargs):
    assert np.all(result.arrival_times_s > result.send_times_s)
    assert np.all(result.in_order_times_s >= result.arrival_times_s)
    assert 1 <= result.go_back_n_accepted <= result.packets
    assert 0 <= result.reorder_buffer_packets < result.packets
    if np.unique(result.path_delays_s).size == 1:
        assert result.out_of_order_fraction == 0 and result.go_back_n_accepted == result.packets


FUZZ_CASES = [
    Case(fabric.spray_arrivals, dict(
        path_delays_s=mixed(st.lists(st.integers(0, 29).flatmap(lambda k: st.sampled_from(HOSTILE) if k == 0 else
                                                                st.floats(0, 1e-3)), min_size=1, max_size=8)),
        packets=mixed(rarely(st.integers(1, 2000), st.sampled_from(ABSURD))),
        packet_bytes=positive(1.0, 1e5), link_bytes_per_s=positive(1e6, 1e13),
        order=choice(tuple(fabric.SPRAY_ORDERS)), seed=rarely(seeds, st.none())), check=arrivals_are_sound),
]


# Hostile input -----------------------------------------------------------------------------------

@pytest.mark.usefixtures("warnings_are_errors")
def test_the_largest_counts_still_build():
    from interconnect_lab import fabric
    assert fabric.all_to_all(2048, 1.0).flow_count == 2048 * 2047 <= fabric.traffic.MAX_FLOWS
    assert fabric.permutation(fabric.traffic.MAX_HOSTS, 1.0, seed=0).flow_count == 2 ** 20
    arrivals = fabric.spray_arrivals([0.0, 1e-6, 3e-6], fabric.reordering.MAX_SPRAYED_PACKETS, 4096, 50e9)
    assert arrivals.packets == 2 ** 20 and arrivals.go_back_n_accepted == 3 and arrivals.reorder_buffer_packets == 20


@pytest.mark.usefixtures("warnings_are_errors")
def test_reorder_buffer_and_go_back_n_agree_with_packet_by_packet_counts():
    # vectorized (a Python loop over a million packets took seconds); checked against the loops they replace
    from interconnect_lab import fabric

    def by_loop(arrivals):
        arrived, expected, waiting, most = np.zeros(arrivals.packets, bool), 0, 0, 0
        for seq in arrivals.arrival_order:
            arrived[seq] = True
            waiting += 1
            while expected < arrivals.packets and arrived[expected]:
                expected, waiting = expected + 1, waiting - 1
            most = max(most, waiting)
        accepted = 0
        for seq in arrivals.arrival_order:
            accepted += seq == accepted
        return most, accepted

    rng = np.random.default_rng(5)
    for _ in range(300):
        delays = rng.choice([0.0, 1e-6, 2e-6, 3.5e-6], size=int(rng.integers(1, 5)))
        arrivals = fabric.spray_arrivals(delays, int(rng.integers(1, 80)), 4096, 50e9,
                                         order=str(rng.choice(["round-robin", "random"])), seed=int(rng.integers(99)))
        assert (arrivals.reorder_buffer_packets, arrivals.go_back_n_accepted) == by_loop(arrivals)

test_fuzz, test_fuzz_nightly = make_tests(FUZZ_CASES)
