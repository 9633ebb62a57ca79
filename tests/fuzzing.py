"""Fuzzing public model functions as a hostile user would: the engine behind every ``FUZZ_CASES`` list.

Each module's cases sit beside its own tests (``tests/<area>/test_<module>.py``), run by
:func:`make_tests`; ``tests/test_fuzz_coverage.py`` checks that every public function of the
fuzzed modules has one.

Every argument is drawn, most of the time, from a plausible range and, the rest
of the time, from a list of hostile values (zero, negatives, NaN, infinities,
1e308, the smallest subnormal, booleans, strings, lists, None, huge integers,
whole-valued floats where an int is meant). Each call must either

- raise a clean ``ValueError`` or ``TypeError`` whose message says what was
  wrong (it names a parameter, or says "must", "valid" or "unknown"), or
- return a result in which every number is finite and the invariants hold:
  times, sizes, rates, energies and prices are >= 0; fractions,
  efficiencies and utilizations lie in [0, 1] (MFU and HFU in (0, 1]); plus
  whatever the case adds (bandwidth no more than the line rate, ...).

Warnings are errors (a numpy overflow or division warning is a bug), and one
call may use at most :data:`CALL_BUDGET_S` of CPU time.

Examples per case: :data:`CI_EXAMPLES` in the ordinary run (deterministic),
:data:`NIGHTLY_EXAMPLES` under ``pytest -m fuzz_nightly`` (random seeds).
"""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import math
import numbers
import os
import re
import time
import warnings
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from interconnect_lab.sources import Source

# The fabric imports SciPy on first use; import it here so that no fuzzed call is charged for it.
importlib.import_module("scipy.stats")
importlib.import_module("scipy.sparse")

CI_EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "200"))
NIGHTLY_EXAMPLES = int(os.environ.get("FUZZ_NIGHTLY_EXAMPLES", "1000"))
CALL_BUDGET_S = 1.0

#: What a hostile user types: wrong signs, non-finite values, extremes, wrong types.
HOSTILE = (
    0, -1, -0.5, 0.5, 1.5, 0.0, 8.0, -1e-300, 1e-300, 5e-324, 1e300, 1.7e308, -1.7e308,
    math.nan, math.inf, -math.inf, True, False, None, "1", "", [1.0], (2, 3), {"a": 1},
    2 ** 64, 10 ** 30, -(2 ** 63), np.float64(3.0), np.int64(4), np.nan, complex(1, 1),
)


def hostile():
    return st.sampled_from(HOSTILE)


def mixed(good, hostile_share=8):
    """``good`` most of the time; one draw in ``hostile_share`` a hostile value."""
    return st.integers(0, hostile_share - 1).flatmap(lambda k: hostile() if k == 0 else good)


def count(lo=1, hi=100_000):
    return mixed(st.integers(lo, hi))


def positive(lo, hi):
    """Floats spread evenly in log scale between ``lo`` and ``hi`` (> 0)."""
    return mixed(st.floats(math.log10(lo), math.log10(hi)).map(lambda e: float(10.0 ** e)))


def nonnegative(lo, hi):
    return mixed(st.one_of(st.just(0.0), st.floats(math.log10(lo), math.log10(hi)).map(lambda e: 10.0 ** e)))


def fraction(lo=0.0, hi=1.0):
    return mixed(st.floats(lo, hi))


def choice(options, near_misses=()):
    """One of ``options``; hostile draws include case slips of the valid names."""
    slips = tuple(o.lower() for o in options if isinstance(o, str) and o.lower() != o) + tuple(near_misses)
    return st.integers(0, 7).flatmap(
        lambda k: (st.sampled_from(HOSTILE + slips + ("unknown",)) if k == 0 else st.sampled_from(list(options))))


def flag():
    return mixed(st.booleans(), hostile_share=10)


def optional(strategy):
    return st.one_of(st.none(), strategy)


@dataclass
class Case:
    """One public function and how to draw its arguments.

    ``args`` maps a keyword to a strategy; ``check(result, kwargs)`` may assert
    more invariants; ``examples`` scales the example count (expensive functions
    take fewer in the ordinary run, never fewer than 50); ``exempt`` lists
    result attribute names the generic name-based rules do not apply to;
    ``infinite`` names results that may be a documented ``inf`` (``"result"``
    for the whole result; the case's ``check`` then says when); ``messages``
    lists patterns (regular expressions) of the function's own clear errors
    that name neither a parameter nor a rule, such as a parser's "nccl-tests
    output, line 7: expected ..."; ``refusing`` names result properties
    documented to raise a ValueError for some results (a run's
    ``ranks_per_node`` when its hosts hold different numbers of ranks).
    """

    function: object
    args: dict
    check: object = None
    examples: float = 1.0
    exempt: tuple = ()
    name: str = ""
    infinite: tuple = ()
    messages: tuple = ()
    refusing: tuple = ()

    def __post_init__(self):
        if not self.name:
            self.name = f"{self.function.__module__.split('.', 1)[-1]}.{self.function.__name__}"

    def __repr__(self):
        return self.name


_NON_NEGATIVE_SUFFIXES = ("_s", "_bytes", "_bytes_per_s", "_usd", "_j", "_w", "_flop_per_s", "_flops",
                          "_per_s", "_hosts", "_count")
_UNIT_INTERVAL_NAMES = ("efficiency", "utilization", "fraction", "share", "probability")
_POSITIVE_UNIT_INTERVAL = ("mfu", "hfu", "model_flops_utilization", "hardware_flops_utilization")


def _skip(obj):
    module = type(obj).__module__ or ""
    return isinstance(obj, (Source, str, bytes, type(None))) or module.startswith(
        ("interconnect_lab.catalog", "interconnect_lab.sources", "interconnect_lab.pricebook"))


def numbers_in(obj, path="result", depth=0, seen=None, refusing=()):
    """(path, leaf name, value) for every number reachable in a result: fields, properties, items.

    A property named in ``refusing`` that raises a ValueError is skipped (it is documented to).
    """
    seen = set() if seen is None else seen
    if depth > 4 or id(obj) in seen or _skip(obj):
        return
    if isinstance(obj, (bool, np.bool_)):
        return
    if isinstance(obj, numbers.Real):
        yield path, path.rsplit(".", 1)[-1].split("[", 1)[0], float(obj)
        return
    if isinstance(obj, np.ndarray):
        if obj.dtype.kind in "iuf" and obj.size:
            yield path, path.rsplit(".", 1)[-1].split("[", 1)[0], obj
        elif obj.dtype == object:
            for i, item in enumerate(obj.flat[:20]):
                yield from numbers_in(item, f"{path}[{i}]", depth + 1, seen, refusing)
        return
    seen.add(id(obj))
    if isinstance(obj, Mapping):
        for key, value in list(obj.items())[:50]:
            yield from numbers_in(value, f"{path}[{key!r}]", depth + 1, seen, refusing)
    elif isinstance(obj, (tuple, list)):
        for i, item in enumerate(obj[:50]):
            yield from numbers_in(item, f"{path}[{i}]", depth + 1, seen, refusing)
    elif dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        for f in dataclasses.fields(obj):
            yield from numbers_in(getattr(obj, f.name), f"{path}.{f.name}", depth + 1, seen, refusing)
        for name, attr in inspect.getmembers(type(obj)):
            if isinstance(attr, property) and not name.startswith("_"):
                try:
                    value = getattr(obj, name)
                except ValueError:
                    if name in refusing:
                        continue
                    raise
                yield from numbers_in(value, f"{path}.{name}", depth + 1, seen, refusing)


def check_result(result, case):
    """Every number finite; names that carry a unit or a share obey their range."""
    for path, leaf, value in numbers_in(result, refusing=case.refusing):
        array = np.asarray(value, dtype=float)
        if leaf in case.infinite:
            array = array[np.isfinite(array)]
        assert np.all(np.isfinite(array)), f"{case.name}: {path} is not finite: {value!r}"
        if leaf in case.exempt:
            continue
        if leaf.endswith(_NON_NEGATIVE_SUFFIXES) or leaf == "result":
            if leaf != "result" or case.check is None:
                assert np.all(array >= 0), f"{case.name}: {path} is negative: {value!r}"
        lowered = leaf.lower()
        if lowered in _POSITIVE_UNIT_INTERVAL:
            assert np.all((array > 0) & (array <= 1)), f"{case.name}: {path} = {value!r} is outside (0, 1]"
        elif any(word in lowered for word in _UNIT_INTERVAL_NAMES) and not lowered.endswith(
                _NON_NEGATIVE_SUFFIXES):
            assert np.all((array >= 0) & (array <= 1 + 1e-12)), \
                f"{case.name}: {path} = {value!r} is outside [0, 1]"


def scalar_parameters(function):
    """Parameters the numpydoc docstring types as a single number (``float``, ``int``, not array_like)."""
    doc = inspect.getdoc(function) or ""
    section = doc.split("Parameters\n----------", 1)[-1] if "Parameters" in doc else ""
    for heading in ("Returns\n", "Raises\n", "Notes\n", "Examples\n", "References\n", "See Also\n"):
        section = section.split(heading, 1)[0]
    scalars = set()
    for line in section.splitlines():
        if " : " not in line or line.startswith(" "):
            continue
        names, kind = line.split(" : ", 1)
        kind = kind.lower()
        if "array" in kind or "sequence" in kind or "list" in kind or "tuple" in kind or "iterable" in kind:
            continue
        if kind.split(",")[0].split(" or ")[0].strip() in ("float", "int"):
            scalars.update(name.strip() for name in names.split(","))
    return scalars


def _is_sequence(value):
    return isinstance(value, (list, tuple)) or (isinstance(value, np.ndarray) and value.ndim > 0)


def clean_error(error, kwargs, messages=()):
    """A ValueError/TypeError written for the user: it names a parameter, states the rule, or is one of
    the function's own clear errors (``messages``)."""
    if not isinstance(error, (ValueError, TypeError)):
        return False
    message = str(error)
    if not message:
        return False
    words = ("must", "valid", "unknown", "overflows", "cannot", "needs", "not ")
    return (any(name in message for name in kwargs) or any(word in message for word in words)
            or any(re.search(pattern, message) for pattern in messages))


def run_case(case, kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        started = time.process_time()
        try:
            result = case.function(**kwargs)
        except Exception as error:  # noqa: BLE001 - classified below
            elapsed = time.process_time() - started
            assert elapsed < CALL_BUDGET_S, f"{case.name}{kwargs!r} took {elapsed:.2f} s to refuse"
            if not clean_error(error, kwargs, case.messages):
                raise AssertionError(
                    f"{case.name}({kwargs!r}) raised an internal {type(error).__name__}: {error}") from error
            return None
        elapsed = time.process_time() - started
        assert elapsed < CALL_BUDGET_S, f"{case.name}({kwargs!r}) took {elapsed:.2f} s"
        sequences = [name for name in scalar_parameters(case.function) & set(kwargs) if _is_sequence(kwargs[name])]
        assert not sequences, f"{case.name} accepted a sequence for the single number {sequences}: {kwargs!r}"
        try:
            check_result(result, case)
            if case.check is not None:
                case.check(result, kwargs)
        except AssertionError:
            raise
        except Exception as error:  # noqa: BLE001 - a property of the result that fails
            raise AssertionError(f"{case.name}({kwargs!r}): reading the result raised "
                                 f"{type(error).__name__}: {error}") from error
    return result


def make_tests(cases):
    """Two parametrized tests over ``cases``: the ordinary run and the nightly marker."""

    def _strategy(case):
        return st.fixed_dictionaries(case.args)

    @pytest.mark.parametrize("case", cases, ids=repr)
    def test_fuzz(case):
        examples = max(50, int(CI_EXAMPLES * case.examples))

        @settings(max_examples=examples, deadline=None, derandomize=True, database=None,
                  suppress_health_check=list(HealthCheck))
        @given(_strategy(case))
        def run(kwargs):
            run_case(case, kwargs)

        run()

    @pytest.mark.fuzz_nightly
    @pytest.mark.parametrize("case", cases, ids=repr)
    def test_fuzz_nightly(case, request):
        if "fuzz_nightly" not in (request.config.getoption("markexpr") or ""):
            pytest.skip("nightly fuzzing: run with -m fuzz_nightly")

        @settings(max_examples=NIGHTLY_EXAMPLES, deadline=None, database=None,
                  suppress_health_check=list(HealthCheck))
        @given(_strategy(case))
        def run(kwargs):
            run_case(case, kwargs)

        run()

    return test_fuzz, test_fuzz_nightly
