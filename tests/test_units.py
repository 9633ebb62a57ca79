"""Unit identities: the conversions every chapter relies on.

Hostile input is at the end (and fuzzed with tests/fuzzing.py where noted).
"""

import math

import numpy as np
import pytest
from hypothesis import given, strategies as st

from fuzzing import Case, count, make_tests, nonnegative

from interconnect_lab import units as u, units


def test_bits_and_bytes():
    assert 400 * u.Gbit_per_s == pytest.approx(50 * u.GB_per_s, rel=1e-15)
    assert u.GB_per_s / u.Gbit_per_s == 8
    assert u.byte == 8 * u.bit


def test_decimal_and_binary_prefixes_differ():
    assert u.GB == 10**9
    assert u.GiB == 2**30
    assert 80 * u.GB / u.GiB == pytest.approx(74.505805969, rel=1e-10)
    assert u.KiB == 1024 and u.kB == 1000


def test_direction_conversions_are_inverse():
    # NVIDIA's "900 GB/s" per H100 is both directions added: 450 GB/s each way.
    assert u.per_direction(900 * u.GB_per_s) == 450 * u.GB_per_s
    assert u.both_directions(450 * u.GB_per_s) == 900 * u.GB_per_s


@given(st.floats(min_value=0, max_value=1e18, allow_nan=False))
def test_direction_round_trip(rate):
    assert u.per_direction(u.both_directions(rate)) == pytest.approx(rate)


def test_time_and_compute():
    assert u.day == 24 * u.hour == 86400 * u.s
    assert u.us == pytest.approx(1000 * u.ns, rel=1e-15)
    assert u.TFLOP_per_s * u.s == u.TFLOP


@pytest.mark.parametrize(
    ("call", "expected"),
    [
        (lambda: u.format_bytes(80e9), "80 GB"),
        (lambda: u.format_bytes(80e9, binary=True), "74.5 GiB"),
        (lambda: u.format_rate(50e9), "50 GB/s"),
        (lambda: u.format_rate(50e9, bits=True), "400 Gb/s"),
        (lambda: u.format_time(2.5e-6), "2.5 µs"),
        (lambda: u.format_time(0.4), "400 ms"),
        (lambda: u.format_time(34 * u.day), "34 days"),
        (lambda: u.format_flop_rate(989.4e12), "989 TFLOP/s"),
        (lambda: u.format_power(1.2e6), "1.2 MW"),
        (lambda: u.format_usd(2.5e7), "$25 M"),
        (lambda: u.format_usd(-1500), "-$1.5 k"),
    ],
)
def test_formatters(call, expected):
    assert call() == expected


@pytest.mark.parametrize("bad", [math.nan, math.inf, "80 GB", None, True])
def test_formatters_reject_bad_input(bad):
    with pytest.raises((TypeError, ValueError), match="size_bytes"):
        u.format_bytes(bad)


def test_vectorized_conversion():
    rates_gbit = np.array([100, 200, 400, 800])
    assert np.allclose(rates_gbit * u.Gbit_per_s / u.GB_per_s, [12.5, 25, 50, 100])


# Hostile input: fuzzed with tests/fuzzing.py -----------------------------------------------------

def per_direction_halves(result, kwargs):
    assert np.all((np.asarray(result) >= 0) & (np.asarray(result) <= np.asarray(kwargs["both_directions_value"])))


FUZZ_CASES = [
    # units
    Case(units.per_direction, dict(both_directions_value=nonnegative(1.0, 1e15)), check=per_direction_halves),
    Case(units.both_directions, dict(per_direction_value=nonnegative(1.0, 1e15))),
    *[Case(function, {parameter: nonnegative(1e-12, 1e18), "digits": count(1, 8)})
      for function, parameter in ((units.format_bytes, "size_bytes"), (units.format_rate, "rate_bytes_per_s"),
                                  (units.format_time, "time_s"), (units.format_flop_rate, "rate_flop_per_s"),
                                  (units.format_power, "power_w"), (units.format_usd, "amount_usd"))],
]


# Hostile input -----------------------------------------------------------------------------------

@pytest.mark.usefixtures("warnings_are_errors")
def test_per_direction_refuses_a_negative_bandwidth():
    with pytest.raises(ValueError, match=r"both_directions_value = -900 B/s is not valid: it must be >= 0 B/s"):
        units.per_direction(-900)
    with pytest.raises(ValueError, match="per_direction_value"):
        units.both_directions(1.7e308)

test_fuzz, test_fuzz_nightly = make_tests(FUZZ_CASES)
