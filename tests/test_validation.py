"""The shared input checks: clear messages, never NaN, never a silent clamp."""

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from interconnect_lab._validation import check_choice, check_integer, check_number


def test_scalar_passes_through_as_float():
    assert check_number("x", 3, minimum=0) == 3.0
    assert isinstance(check_number("x", np.float32(2.5)), float)


def test_array_passes_through_as_array():
    out = check_number("x", [1, 2, 3], minimum=0)
    assert isinstance(out, np.ndarray) and out.dtype == float


@pytest.mark.parametrize("bad", [-1.0, math.nan, math.inf])
def test_message_names_parameter_value_unit_and_range(bad):
    with pytest.raises(ValueError) as info:
        check_number("compute_s", bad, unit="s", minimum=0)
    message = str(info.value)
    assert "compute_s" in message and ">= 0 s" in message


def test_array_message_points_at_the_element():
    with pytest.raises(ValueError, match=r"element 2"):
        check_number("overlap_fraction", [0.1, 0.5, 1.5], minimum=0, maximum=1)


@pytest.mark.parametrize("bad", ["1", None, True, object()])
def test_non_numbers_are_type_errors(bad):
    with pytest.raises(TypeError, match="x"):
        check_number("x", bad)


def test_integer_and_choice():
    assert check_integer("n_ranks", 8, minimum=1) == 8
    assert check_integer("n_ranks", np.int64(8), minimum=1) == 8
    for not_a_count in (8.0, True, np.float64(8.0), "8", [8]):
        with pytest.raises(TypeError, match="n_ranks must be a whole number"):
            check_integer("n_ranks", not_a_count, minimum=1)
    with pytest.raises(ValueError, match=r"n_ranks = 0 is not valid: it must be >= 1"):
        check_integer("n_ranks", 0, minimum=1)
    with pytest.raises(TypeError, match="n_ranks"):
        check_integer("n_ranks", 2.5)
    with pytest.raises(ValueError, match=r"unknown algorithm 'rung'.*'ring', 'tree'"):
        check_choice("algorithm", "rung", ["ring", "tree"])


@given(st.floats(allow_nan=True, allow_infinity=True))
def test_never_returns_out_of_range(value):
    try:
        out = check_number("x", value, minimum=0, maximum=1)
    except ValueError:
        return
    assert 0 <= out <= 1
