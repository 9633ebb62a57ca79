"""Speed of the collectives model: a 1,000-point bandwidth curve for every algorithm.

Run it with ``python benchmarks/bench_collectives.py``. It prints, for every
(collective, algorithm) pair the model implements, the median time of one
:func:`~interconnect_lab.collectives.collective_performance` call on 1,000
message sizes, then the time to compute all of them (what a panel that redraws
every curve needs), and a few reference runs on arrays. The design budget is
under 5 ms for the model part of a widget update (DESIGN.md, "Performance
budgets"); this is a measurement, not a pass/fail test.
"""

from __future__ import annotations

import statistics
import timeit

import benchlib
import numpy as np

from interconnect_lab import catalog
from interconnect_lab import collectives as c
from interconnect_lab.collectives import reference as ref

POINTS = 1000
REPEATS = 7


def median_seconds(function, number):
    times = timeit.repeat(function, number=number, repeat=REPEATS)
    return statistics.median(times) / number


def main():
    sizes = np.logspace(0, 10.5, POINTS)
    nvlink = c.link_parameters(catalog.link("NVLink 4"))
    network = c.link_parameters(catalog.link("InfiniBand NDR"))
    hierarchy = {"ranks_per_node": 8, "network_bandwidth_bytes_per_s": network["bandwidth_bytes_per_s"],
                 "network_latency_s": network["latency_s"]}
    cases = []
    for name, entry in c.ALGORITHMS.items():
        for collective in entry.collectives:
            extra = hierarchy if name == "hierarchical" else {}
            cases.append((collective, name, extra))

    print(f"collectives model: {POINTS} message sizes per call, 64 ranks, median of {REPEATS}")
    print(f"{'collective':<16}{'algorithm':<18}{'time per call':>15}")
    for collective, name, extra in cases:
        seconds = median_seconds(
            lambda: c.collective_performance(collective, sizes, 64, algorithm=name, **nvlink, **extra),
            number=50)
        print(f"{collective:<16}{name:<18}{seconds * 1e6:>12.0f} µs")

    def every_curve():
        for collective, name, extra in cases:
            c.collective_performance(collective, sizes, 64, algorithm=name, **nvlink, **extra)

    total = median_seconds(every_curve, number=10)
    print(f"\nall {len(cases)} curves x {POINTS} sizes: {total * 1e3:.2f} ms "
          f"({total / (len(cases) * POINTS) * 1e9:.0f} ns per point)")
    benchlib.record("collectives", f"every algorithm's curve, {len(cases)} curves x {POINTS:,} sizes",
                    samples_s=benchlib.measure(every_curve, repeat=5 if benchlib.quick() else 30),
                    budget_ms=5, note="what a panel redrawing every curve needs")

    crossover = median_seconds(
        lambda: c.crossover_size("all_reduce", 64, first="ring", second="tree", **network), number=200)
    print(f"crossover_size (ring vs tree): {crossover * 1e6:.0f} µs")
    benchlib.record("collectives", "crossover size, ring against tree (64 ranks, NDR)", seconds=crossover,
                    budget_ms=5)

    print("\nreference implementations on numpy arrays (8 ranks, 2**16 float64 each):")
    rng = np.random.default_rng(0)
    arrays = [rng.normal(size=2**16) for _ in range(8)]
    for label, function in (("ring_all_reduce", ref.ring_all_reduce),
                            ("halving_doubling_all_reduce", ref.halving_doubling_all_reduce),
                            ("direct_all_to_all", ref.direct_all_to_all)):
        seconds = median_seconds(lambda: function(arrays), number=5)
        print(f"  {label:<30}{seconds * 1e3:>8.2f} ms")


if __name__ == "__main__":
    main()
