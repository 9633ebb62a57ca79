"""Speed of the flow-level fabric simulator (interconnect_lab.fabric).

Run it with ``python benchmarks/bench_fabric.py`` (or through ``run.py``). The
budgets are issue 5's, on one core:

- a 65,536-host three-tier fat tree (radix 64), random permutation: ECMP and
  spraying each solved (routing and max-min rates) in at most 2 s;
- a 1,024-host all-to-all (about a million flows) run to completion in at most 10 s;
- the case htsim answers in 30-70 s here (1,024-host three-tier permutation of
  2 MB flows at 100 Gb/s) well under a second;
- every call a book panel makes well under a second.

Times include routing (building the flows x links matrix) unless the row says
otherwise. The machine is shared: see the note printed with the rows.
"""

from __future__ import annotations

import os
import platform

import benchlib
import numpy as np

from interconnect_lab import units as u
from interconnect_lab.fabric import (
    Network, all_to_all, detect_slow_ranks, ecmp_collisions, fair_rates, incast_collapse, permutation,
    rank_timings, route, simulate, step_times,
)
from interconnect_lab.topology import fat_tree

REPEAT = 1 if benchlib.quick() else 3


def best(function, repeat=REPEAT):
    """Fastest of a few runs [s]: the figure least disturbed by other work on a shared machine."""
    return min(benchlib.measure(function, repeat=repeat, warmup=0))


def main():
    print(f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} CPUs, one used; "
          f"load average {os.getloadavg()[0]:.1f}" if hasattr(os, "getloadavg") else "")
    ndr = 400 * u.Gbit_per_s  # per direction, as the fat tree's ports

    # 65,536 hosts -------------------------------------------------------------------------
    big = Network(fat_tree(65_536, radix=64, tiers=3), nic_capacity_bytes_per_s=ndr)
    traffic = permutation(big.hosts, 2 * u.MB, seed=1)
    for routing in ("ecmp", "spray"):
        seconds = best(lambda: fair_rates(big, traffic, routing, seed=1))
        rates = fair_rates(big, traffic, routing, seed=1)
        benchlib.record("fabric", f"65,536 hosts, permutation, {routing}: rates", seconds=seconds, budget_s=2,
                        note=f"radix 64, 3 tiers, {big.link_count:,} links; mean {rates.line_rate_fraction.mean():.1%} "
                             f"of line rate, {rates.rounds} rounds")
        seconds = best(lambda: simulate(big, traffic, routing, seed=1))
        result = simulate(big, traffic, routing, seed=1)
        benchlib.record("fabric", f"65,536 hosts, permutation of 2 MB, {routing}: to completion", seconds=seconds,
                        note=f"{result.events} events, done at {u.format_time(result.completion_time_s)}")
        # Conservation at scale: nothing above capacity, every byte delivered.
        nic_in = result.link_bytes[big.links_of_kind("nic down")].sum()
        benchlib.record("fabric", f"65,536 hosts, {routing}: busiest link, busiest NIC (conservation)",
                        value=100 * max(rates.link_utilization.max(), rates.line_rate_fraction.max()), unit="%",
                        budget=100, note=f"bytes delivered / sent = {nic_in / traffic.total_bytes:.12f}")
    seconds = best(lambda: route(big, traffic, "adaptive", seed=1), repeat=1)
    benchlib.record("fabric", "65,536 hosts, permutation, adaptive: routing", seconds=seconds, budget_s=0.5,
                    note="flows placed in waves that share no link, each wave one vectorised search")

    # 1,024-host all-to-all ------------------------------------------------------------------
    mid = Network(fat_tree(1024, radix=16, tiers=3), nic_capacity_bytes_per_s=ndr)
    everyone = all_to_all(mid.hosts, 1 * u.MB)
    for routing in ("spray", "ecmp"):
        seconds = best(lambda: simulate(mid, everyone, routing, seed=1), repeat=1)
        result = simulate(mid, everyone, routing, seed=1)
        benchlib.record("fabric", f"1,024-host all-to-all of 1 MB, {routing}: to completion", seconds=seconds,
                        budget_s=10, note=f"{everyone.flow_count:,} flows, {result.events} events, done at "
                                          f"{u.format_time(result.completion_time_s)}")

    # The case htsim takes 30-70 s for ---------------------------------------------------------
    slow = Network(fat_tree(1024, radix=16, tiers=3), nic_capacity_bytes_per_s=100 * u.Gbit_per_s)
    htsim_case = permutation(slow.hosts, 2 * u.MB, seed=2)
    for routing in ("ecmp", "spray"):
        samples = benchlib.measure(lambda: simulate(slow, htsim_case, routing, seed=2), repeat=5 * REPEAT, warmup=1)
        result = simulate(slow, htsim_case, routing, seed=2)
        benchlib.record("fabric", f"htsim's case (1,024 hosts, 2 MB at 100 Gb/s), {routing}", samples_s=samples,
                        budget_ms=1000, note=f"done at {u.format_time(result.completion_time_s)}; "
                                             "htsim: 30-70 s here")

    # Panel-sized calls ----------------------------------------------------------------------------
    small = Network(fat_tree(128, radix=16, tiers=2), nic_capacity_bytes_per_s=ndr)
    small_traffic = permutation(small.hosts, 1 * u.MB, seed=3)
    for routing in ("ecmp", "spray", "adaptive"):
        samples = benchlib.measure(lambda: simulate(small, small_traffic, routing, seed=3), repeat=10 * REPEAT)
        benchlib.record("fabric", f"panel: 128-host permutation, {routing}", samples_s=samples, budget_ms=500)
    for hosts, budget in ((32, 500), (64, None)):
        moe = all_to_all(hosts, 256 * u.kB, skew=1.0, seed=4)
        for routing in ("spray", "ecmp"):
            samples = benchlib.measure(lambda: simulate(small, moe, routing, seed=4), repeat=REPEAT)
            benchlib.record("fabric", f"panel: {hosts}-host skewed all-to-all (MoE), {routing}", samples_s=samples,
                            budget_ms=budget, note=f"{moe.flow_count:,} flows; sizes differ by destination and ECMP "
                                                   "rates by path: hundreds of events")
    unit = Network(fat_tree(512, radix=32, tiers=2), nic_capacity_bytes_per_s=1.0)
    samples = benchlib.measure(lambda: ecmp_collisions(unit, samples=4000), repeat=3 * REPEAT)
    benchlib.record("fabric", "panel: balls-into-bins prediction, 512 hosts", samples_s=samples, budget_ms=500)
    samples = benchlib.measure(lambda: incast_collapse([1, 2, 4, 8, 16, 32], 256 * u.KiB, ndr, 32 * 4096, 4096,
                                                       link_delay_s=1 * u.us, retransmission_timeout_s=1 * u.ms,
                                                       victim_bytes=256 * u.KiB), repeat=REPEAT)
    benchlib.record("fabric", "panel: incast curve, 1-32 senders, 3 flow controls", samples_s=samples,
                    budget_ms=1000, note="packet-level events")
    counts = np.unique(np.logspace(0, 5, 41).astype(int))
    samples = benchlib.measure(lambda: step_times(counts, 1.0, jitter="lognormal", jitter_s=0.01,
                                                  slow_fraction=0.005, slowdown=0.1), repeat=10 * REPEAT)
    benchlib.record("fabric", "panel: step time for 41 worker counts up to 100,000", samples_s=samples, budget_ms=500)
    samples = benchlib.measure(lambda: detect_slow_ranks(rank_timings(1024, 30, 1.0, slow_ranks=[7], slowdown=0.03,
                                                                      jitter_s=0.01, seed=5).compute_s),
                               repeat=10 * REPEAT)
    benchlib.record("fabric", "panel: slow-rank detection, 1,024 ranks x 30 steps", samples_s=samples, budget_ms=500)


if __name__ == "__main__":
    main()
