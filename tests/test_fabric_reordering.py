"""Packet spraying and reordering: hand-worked arrivals, limits and bad input."""

import math

import numpy as np
import pytest

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
