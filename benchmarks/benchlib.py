"""Helpers for benchmark modules: time a function, record a row for the table.

A benchmark module (``benchmarks/bench_<topic>.py``) is a script. It measures
what it likes and prints what it likes; to put numbers in the table that
``benchmarks/run.py`` prints and writes as JSON, it calls :func:`record`::

    import benchlib

    samples = benchlib.measure(lambda: model(1e9), repeat=200)
    benchlib.record("collectives", "ring all-reduce, 1,000 sizes", samples_s=samples, budget_ms=5)
    benchlib.record("fabric", "what-if on a 65,536-host fat tree", seconds=12.3, budget_s=60,
                    note="1.2 M flows")

Run alone, ``record`` only prints the row; under ``run.py`` it also appends it
to the file named by ``INTERCONNECT_BENCHMARK_RESULTS``. ``quick()`` is true
when ``run.py --quick`` asks for fewer repeats. See benchmarks/README.md.
"""

from __future__ import annotations

import json
import math
import os
import statistics
import time
from pathlib import Path

__all__ = ["ROOT", "quick", "measure", "summary", "record"]

#: The repository (run.py runs modules from a scratch copy of benchmarks/ and says where it is).
ROOT = Path(os.environ.get("INTERCONNECT_BENCHMARK_ROOT", Path(__file__).resolve().parents[1]))


def quick() -> bool:
    """True when the caller wants a fast, rougher run (``run.py --quick``)."""
    return os.environ.get("INTERCONNECT_BENCHMARK_QUICK") == "1"


def measure(function, *, repeat: int = 100, warmup: int = 3, setup=None, max_seconds: float | None = None,
            min_repeat: int = 10) -> list[float]:
    """Call ``function`` ``repeat`` times; return each call's duration [s].

    ``setup``, if given, is called before each call, untimed, and its result
    passed to ``function``. ``max_seconds`` caps the time spent (after at
    least ``min_repeat`` calls), so a slow subject gets fewer samples.
    """
    started = time.perf_counter()
    for _ in range(warmup):
        function(setup()) if setup else function()
    samples = []
    for _ in range(repeat):
        argument = setup() if setup else None
        begin = time.perf_counter()
        function(argument) if setup else function()
        samples.append(time.perf_counter() - begin)
        if max_seconds is not None and len(samples) >= min_repeat and time.perf_counter() - started > max_seconds:
            break
    return samples


def percentile(samples, q: float) -> float:
    """The ``q``-th percentile (0-100) by linear interpolation between order statistics."""
    ordered = sorted(samples)
    if not ordered:
        return math.nan
    position = (len(ordered) - 1) * q / 100
    low, high = math.floor(position), math.ceil(position)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def summary(samples_s) -> dict:
    """Median and 95th percentile [s] of a list of durations."""
    return {"median": statistics.median(samples_s), "p95": percentile(samples_s, 95), "n": len(samples_s)}


def record(group: str, name: str, *, samples_s=None, seconds=None, value=None, unit=None,
           budget_ms=None, budget_s=None, budget=None, note: str = "") -> dict:
    """Report one row of the benchmark table.

    Give either ``samples_s`` (durations [s]: the row shows their median and
    95th percentile in ms, or in s when the median exceeds 1 s), ``seconds``
    (one duration [s]) or ``value`` with its ``unit`` (any other quantity).
    A budget (``budget_ms``, ``budget_s``, or ``budget`` in ``unit``) marks
    the row within budget or over it; leave it out for a plain measurement.
    """
    if sum(x is not None for x in (samples_s, seconds, value)) != 1:
        raise ValueError("record() needs exactly one of samples_s, seconds or value")
    row = {"group": group, "name": name, "note": note}
    if value is not None:
        if unit is None:
            raise ValueError("record(value=...) needs its unit")
        row.update(unit=unit, median=float(value), p95=None, n=1, budget=budget)
    else:
        stats = summary(samples_s) if samples_s is not None else {"median": float(seconds), "p95": None, "n": 1}
        budget_in_s = (budget_ms / 1e3 if budget_ms is not None else budget_s)
        in_ms = stats["median"] < 1.0 and (budget_in_s is None or budget_in_s < 10)
        scale, unit = (1e3, "ms") if in_ms else (1.0, "s")
        row.update(unit=unit, median=stats["median"] * scale,
                   p95=None if stats["p95"] is None else stats["p95"] * scale, n=stats["n"],
                   budget=None if budget_in_s is None else budget_in_s * scale)
    p95 = f", p95 {row['p95']:.3g}" if row["p95"] is not None else ""
    budget_text = f" (budget {row['budget']:.3g} {row['unit']})" if row["budget"] is not None else ""
    print(f"[{group}] {name}: median {row['median']:.3g}{p95} {row['unit']}{budget_text}"
          + (f" — {note}" if note else ""), flush=True)
    path = os.environ.get("INTERCONNECT_BENCHMARK_RESULTS")
    if path:
        with open(path, "a", encoding="utf-8") as results:
            results.write(json.dumps(row) + "\n")
    return row
