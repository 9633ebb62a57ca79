"""Input checks shared by every model module.

Each check raises an error that names the parameter, the value received, its
unit and the valid range, so a reader who mistypes a slider value learns how to
fix it instead of meeting a NaN or a traceback from deep inside numpy.
"""

from __future__ import annotations

import numbers
from collections.abc import Iterable

import numpy as np

__all__ = ["check_number", "check_integer", "check_choice"]


def _describe_range(minimum, maximum, min_inclusive, max_inclusive, unit):
    suffix = f" {unit}" if unit else ""
    if minimum is not None and maximum is not None:
        left = "[" if min_inclusive else "("
        right = "]" if max_inclusive else ")"
        return f"in {left}{minimum:g}, {maximum:g}{right}{suffix}"
    if minimum is not None:
        return f"{'>=' if min_inclusive else '>'} {minimum:g}{suffix}"
    if maximum is not None:
        return f"{'<=' if max_inclusive else '<'} {maximum:g}{suffix}"
    return "finite"


def check_number(name, value, *, unit="", minimum=None, maximum=None,
                 min_inclusive=True, max_inclusive=True):
    """Return ``value`` as a float (or float array) after checking it.

    Parameters
    ----------
    name : str
        The parameter's name as the caller spells it.
    value : float or array_like
        The value to check. Booleans and strings are rejected.
    unit : str
        Unit shown in the message, e.g. ``"s"`` or ``"B/s"``.
    minimum, maximum : float, optional
        Bounds of the valid range.
    min_inclusive, max_inclusive : bool
        Whether the bounds themselves are valid.

    Returns
    -------
    float or numpy.ndarray
        A Python float for scalar input, else a float64 array.

    Raises
    ------
    TypeError
        If ``value`` is not a real number or an array of them.
    ValueError
        If any element is NaN, infinite or outside the range.
    """
    valid = _describe_range(minimum, maximum, min_inclusive, max_inclusive, unit)
    if value is None or isinstance(value, (str, bytes, bool, np.bool_)):
        raise TypeError(f"{name} must be a real number ({valid}), got {value!r}")
    scalar = isinstance(value, numbers.Real)
    try:
        array = np.asarray(value, dtype=float)
    except (TypeError, ValueError):
        raise TypeError(
            f"{name} must be a real number or an array of them ({valid}), got {value!r}"
        ) from None
    if array.dtype == object:
        raise TypeError(f"{name} must be numeric, got {value!r}")
    bad = ~np.isfinite(array)
    if minimum is not None:
        bad |= (array < minimum) if min_inclusive else (array <= minimum)
    if maximum is not None:
        bad |= (array > maximum) if max_inclusive else (array >= maximum)
    if np.any(bad):
        offender = array[bad].flat[0] if array.ndim else float(array)
        unit_text = f" {unit}" if unit else ""
        where = "" if array.ndim == 0 else f" (element {int(np.flatnonzero(bad)[0])})"
        raise ValueError(
            f"{name} = {offender:g}{unit_text}{where} is not valid: it must be {valid}"
        )
    if scalar or array.ndim == 0:
        return float(array)
    return array


def check_integer(name, value, *, minimum=None, maximum=None, unit=""):
    """Return ``value`` as an ``int`` after checking it is a whole number in range."""
    valid = _describe_range(minimum, maximum, True, True, unit)
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
        if isinstance(value, numbers.Real) and float(value).is_integer():
            value = int(value)
        else:
            raise TypeError(f"{name} must be a whole number ({valid}), got {value!r}")
    value = int(value)
    if (minimum is not None and value < minimum) or (maximum is not None and value > maximum):
        unit_text = f" {unit}" if unit else ""
        raise ValueError(f"{name} = {value}{unit_text} is not valid: it must be {valid}")
    return value


def check_choice(name, value, choices: Iterable[str]):
    """Return ``value`` if it is one of ``choices``; otherwise list the valid ones."""
    choices = list(choices)
    if value not in choices:
        listed = ", ".join(repr(c) for c in choices)
        raise ValueError(f"unknown {name} {value!r}; valid {name}s are: {listed}")
    return value
