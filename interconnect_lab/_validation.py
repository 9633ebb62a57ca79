"""Input checks shared by every model module.

Each check raises an error that names the parameter, the value received, its
unit and the valid range, so a reader who mistypes a slider value learns how to
fix it instead of meeting a NaN or a traceback from deep inside numpy.

The policy every public model function follows:

- numbers are finite and in their documented range (:func:`check_number`);
  ``True`` is not a number and a list is not a scalar where a scalar is meant
  (``scalar=True``);
- counts are whole numbers of an integer type (:func:`check_integer`): not
  ``True``, not ``8.0``, and at most :data:`MAX_COUNT` unless a smaller bound
  is documented;
- names are one of a listed set, with the closest valid names suggested
  (:func:`check_choice`);
- switches are ``True`` or ``False``, not ``0``, ``"yes"`` or NaN (:func:`check_flag`);
- a result too large for a float is an error that names the inputs
  (:func:`check_finite_result`), never ``inf`` or NaN.
"""

from __future__ import annotations

import difflib
import math
import numbers
from collections.abc import Iterable

import numpy as np

__all__ = ["NotPossible", "check_number", "check_integer", "check_choice", "check_flag", "check_finite_result",
           "as_output", "MAX_COUNT"]

#: Largest count (ranks, GPUs, hosts, tokens, ...) a model accepts unless it documents a
#: smaller bound: 2**53, the largest integer below which every integer is exactly a float.
MAX_COUNT = 2 ** 53


class NotPossible(ValueError):
    """Values that are each valid but cannot go together, said for a programmer and for a reader.

    ``str(error)`` names the parameters, the values and the rule, as every error of the
    library does; ``error.plain`` says the same in a sentence without code names or
    symbols (for the book's panels, whose readers set the values with sliders).

    Parameters
    ----------
    message : str
        For a programmer.
    plain : str
        For a reader: a sentence, starting with a capital and ending with a full stop.

    Examples
    --------
    >>> error = NotPossible("hosts = 4096 must be <= 2048", plain="Two tiers connect at most 2,048 hosts.")
    >>> str(error), error.plain
    ('hosts = 4096 must be <= 2048', 'Two tiers connect at most 2,048 hosts.')
    """

    def __init__(self, message, *, plain):
        super().__init__(message)
        self.plain = plain


def _bound(value):
    """A bound as a reader types it: a whole-number bound exactly (1048576, not 1.04858e+06)."""
    if isinstance(value, numbers.Integral) and not isinstance(value, (bool, np.bool_)):
        return f"{int(value)}"
    return f"{value:g}"


def _describe_range(minimum, maximum, min_inclusive, max_inclusive, unit):
    suffix = f" {unit}" if unit else ""
    if minimum is not None and maximum is not None:
        left = "[" if min_inclusive else "("
        right = "]" if max_inclusive else ")"
        return f"in {left}{_bound(minimum)}, {_bound(maximum)}{right}{suffix}"
    if minimum is not None:
        return f"{'>=' if min_inclusive else '>'} {_bound(minimum)}{suffix}"
    if maximum is not None:
        return f"{'<=' if max_inclusive else '<'} {_bound(maximum)}{suffix}"
    return "finite"


def check_number(name, value, *, unit="", minimum=None, maximum=None,
                 min_inclusive=True, max_inclusive=True, scalar=False):
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
    scalar : bool
        Accept only a single number, not a list or an array.

    Returns
    -------
    float or numpy.ndarray
        A Python float for scalar input, else a float64 array.

    Raises
    ------
    TypeError
        If ``value`` is not a real number or an array of them (a single
        number if ``scalar``).
    ValueError
        If any element is NaN, infinite or outside the range.

    Examples
    --------
    >>> check_number("latency_s", 2e-6, unit="s", minimum=0)
    2e-06
    >>> check_number("latency_s", -1, unit="s", minimum=0)
    Traceback (most recent call last):
    ...
    ValueError: latency_s = -1 s is not valid: it must be >= 0 s
    >>> check_number("flop_per_s", [1e15], unit="FLOP/s", minimum=0, scalar=True)
    Traceback (most recent call last):
    ...
    TypeError: flop_per_s must be a single real number (>= 0 FLOP/s), got [1000000000000000.0]
    """
    if (type(value) is float and math.isfinite(value) or type(value) is int and -2 ** 53 <= value <= 2 ** 53) and (
            minimum is None or (value >= minimum if min_inclusive else value > minimum)) and (
            maximum is None or (value <= maximum if max_inclusive else value < maximum)):
        return float(value)  # the common case, checked without building a message
    valid = _describe_range(minimum, maximum, min_inclusive, max_inclusive, unit)
    if value is None or isinstance(value, (str, bytes, bool, np.bool_)):
        raise TypeError(f"{name} must be a real number ({valid}), got {value!r}")
    if scalar and not isinstance(value, numbers.Real) and not (
            isinstance(value, np.ndarray) and value.ndim == 0 and value.dtype.kind in "iuf"):
        raise TypeError(f"{name} must be a single real number ({valid}), got {value!r}")
    if isinstance(value, np.ndarray) and value.dtype.kind == "b":
        raise TypeError(f"{name} must be real numbers ({valid}), not booleans, got {value!r}")
    scalar = isinstance(value, numbers.Real)
    try:
        array = np.asarray(value, dtype=float)
    except OverflowError:
        raise ValueError(f"{name} = {_short(value)}{' ' + unit if unit else ''} is not valid: it is beyond "
                         f"a float's range; it must be {valid}") from None
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
    """Return ``value`` as an ``int`` after checking it is a whole number in range.

    Counts are integers: ``True`` and ``8.0`` are refused (a ``TypeError``), so
    a slip such as passing a flag or a rate where a count belongs is caught.
    ``maximum`` defaults to :data:`MAX_COUNT`.

    Examples
    --------
    >>> check_integer("n_ranks", 8, minimum=1)
    8
    >>> check_integer("n_ranks", True, minimum=1)
    Traceback (most recent call last):
    ...
    TypeError: n_ranks must be a whole number (an int, >= 1), got True
    >>> check_integer("exponent", 0.0, minimum=0, maximum=31)
    Traceback (most recent call last):
    ...
    TypeError: exponent must be a whole number (an int, in [0, 31]), got 0.0
    """
    if maximum is None:
        maximum = MAX_COUNT
    valid = _describe_range(minimum, maximum if maximum != MAX_COUNT else None, True, True, unit)
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
        kind = "an int" if valid == "finite" else f"an int, {valid}"
        raise TypeError(f"{name} must be a whole number ({kind}), got {value!r}")
    value = int(value)
    if value > maximum and maximum == MAX_COUNT:
        raise ValueError(f"{name} = {value} is not valid: it must be <= 2**53 = {MAX_COUNT}, "
                         "the largest count a float holds exactly")
    if (minimum is not None and value < minimum) or value > maximum:
        unit_text = f" {unit}" if unit else ""
        raise ValueError(f"{name} = {value}{unit_text} is not valid: it must be {valid}")
    return value


def check_choice(name, value, choices: Iterable[str]):
    """Return ``value`` if it is one of ``choices``; otherwise list the valid ones.

    An unknown name is a ``ValueError`` that lists the valid names and then
    suggests the closest ones (letter case and spaces ignored first, then
    :func:`difflib.get_close_matches`).

    Examples
    --------
    >>> check_choice("GPU name", "h100 sxm", ["A100 SXM", "H100 SXM", "H200 SXM"])
    Traceback (most recent call last):
    ...
    ValueError: unknown GPU name 'h100 sxm'; valid GPU names are: 'A100 SXM', 'H100 SXM', 'H200 SXM'; did you mean 'H100 SXM'?
    """
    choices = list(choices)
    try:
        known = value in choices
    except TypeError:  # an unhashable value against a mapping's keys
        known = False
    if not known:
        listed = ", ".join(repr(c) for c in choices)
        hint = ""
        if isinstance(value, str):
            close = _close_matches(value, [c for c in choices if isinstance(c, str)])
            if close:
                hint = f"; did you mean {' or '.join(map(repr, close))}?"
        raise ValueError(f"unknown {name} {value!r}; valid {name}s are: {listed}{hint}")
    return value


def check_flag(name, value):
    """Return ``value`` as a bool after checking it is ``True`` or ``False``.

    ``0``, ``1``, ``"yes"`` or NaN are refused (a ``TypeError``): a number or a
    string where a switch belongs is a slip, and ``"False"`` would be true.

    Examples
    --------
    >>> check_flag("hierarchical", True)
    True
    >>> check_flag("hierarchical", "no")
    Traceback (most recent call last):
    ...
    TypeError: hierarchical must be True or False, got 'no'
    """
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be True or False, got {value!r}")
    return bool(value)


def _close_matches(value, choices):
    """Up to three valid names closest to ``value``: same letters first, then difflib's ratio."""
    folded = {c.casefold(): c for c in choices}
    if value.casefold() in folded:
        return [folded[value.casefold()]]
    squeezed = {"".join(c.casefold().split()): c for c in choices}
    key = "".join(value.casefold().split())
    if key in squeezed:
        return [squeezed[key]]
    matches = difflib.get_close_matches(value.casefold(), list(folded), n=3, cutoff=0.6)
    return [folded[m] for m in matches]


def check_finite_result(name, value, *, unit="", **inputs):
    """Return ``value`` if every element is finite; otherwise say which inputs overflow it.

    Used where a formula's result can exceed the float range (about 1.8e308)
    for finite but extreme inputs: the caller gets a ``ValueError`` that names
    the result and the inputs instead of ``inf`` or NaN.

    Examples
    --------
    >>> check_finite_result("time_s", 1e300 * 1e10, unit="s", size_bytes=1e300, bandwidth_bytes_per_s=1e-10)
    Traceback (most recent call last):
    ...
    ValueError: time_s overflows (beyond 1.8e308 s) for size_bytes = 1e+300, bandwidth_bytes_per_s = 1e-10: use inputs of ordinary magnitude
    """
    with np.errstate(invalid="ignore"):
        finite = bool(np.all(np.isfinite(np.asarray(value, dtype=float))))
    if not finite:
        unit_text = f" {unit}" if unit else ""
        shown = ", ".join(f"{key} = {_short(v)}" for key, v in inputs.items())
        raise ValueError(f"{name} overflows (beyond 1.8e308{unit_text}) for {shown}: "
                         "use inputs of ordinary magnitude")
    return value


def _short(value):
    if isinstance(value, numbers.Integral) and not isinstance(value, bool) and abs(value) > 2 ** 1023:
        return f"{'-' if value < 0 else ''}an integer of {len(str(abs(value)))} digits"
    if isinstance(value, numbers.Real) and not isinstance(value, bool):
        return f"{value:g}"
    if isinstance(value, np.ndarray) and value.size > 1:
        return f"array from {np.min(value):g} to {np.max(value):g}"
    return repr(value)


def as_output(value):
    """A result as the model returns it: a scalar as a Python float, an array as a float array.

    Examples
    --------
    >>> as_output(np.float64(2.5)), as_output(np.array(3))
    (2.5, 3.0)
    >>> as_output([1, 2])
    array([1., 2.])
    """
    return float(value) if np.ndim(value) == 0 else np.asarray(value, dtype=float)
