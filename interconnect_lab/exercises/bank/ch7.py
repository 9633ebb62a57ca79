"""Chapter 7, collectives and NCCL: its checked exercises and quiz questions."""

from __future__ import annotations

from ... import catalog, collectives
from ... import units as u
from ._common import choice, numeric, pick


def _ndr():
    return collectives.link_parameters(catalog.link("InfiniBand NDR"))


def _hdr():
    return collectives.link_parameters(catalog.link("InfiniBand HDR"))


ENTRIES = [
    numeric("ch7.ex1", "algbw from a measurement",
            "An `all_reduce_perf` row on 8 GPUs reads 1,073,741,824 bytes in 5,600 µs. What is its algbw?",
            lambda: collectives.algorithm_bandwidth(2**30, 5600 * u.us), unit="GB/s", scale=u.GB_per_s,
            hint="algbw = size / time; nccl-tests prints GB/s with decimal prefixes."),
    numeric("ch7.ex2", "busbw of the same row",
            "What busbw does nccl-tests print for that row?",
            lambda: collectives.bus_bandwidth("all_reduce", 2**30, 8, 5600 * u.us), unit="GB/s",
            scale=u.GB_per_s, hint="For all-reduce, busbw = algbw × 2 (n − 1)/n."),
    numeric("ch7.ex3", "A ring all-reduce on NDR",
            "How long does the α-β model take for a ring all-reduce of 1 GiB over 16 ranks, one InfiniBand "
            "NDR port per rank (`collectives.link_parameters` of the catalog link)?",
            lambda: collectives.all_reduce_time(2**30, 16, **_ndr()), unit="ms", scale=u.ms,
            hint="`collectives.all_reduce_time(size, n, **link_parameters(link))`."),
    numeric("ch7.ex4", "Where the ring overtakes the tree",
            "On 128 ranks with one InfiniBand HDR port each, from what message size is the ring all-reduce "
            "faster than the tree?",
            lambda: collectives.crossover_size("all_reduce", 128, **_hdr()), unit="MiB", scale=u.MiB,
            hint="`collectives.crossover_size`; the tree pays log n latencies, the ring n."),
    choice("ch7.q1", "All-reduce, decomposed",
           "An all-reduce is the same as ...",
           ["a reduce followed by a broadcast, always the fastest way", "a reduce-scatter followed by an "
            "all-gather", "an all-to-all"], "b"),
    choice("ch7.q2", "busbw",
           "For an all-reduce on n ranks, nccl-tests' busbw is algbw times ...",
           ["1", "(n − 1)/n", "2 (n − 1)/n"],
           lambda: "c" if abs(collectives.bus_bandwidth_factor("all_reduce", 16) - 2 * 15 / 16) < 1e-12 else "b",
           hint="busbw is comparable with the link rate whatever n is."),
    choice("ch7.q3", "Small messages at scale",
           "An 8 KiB all-reduce over 128 ranks on InfiniBand HDR: which is faster in the model?",
           ["the ring", "the tree"],
           lambda: pick(collectives.all_reduce_time(8 * u.KiB, 128, algorithm="ring", **_hdr())
                         < collectives.all_reduce_time(8 * u.KiB, 128, algorithm="tree", **_hdr())),
           hint="For small messages the latency term decides."),
    choice("ch7.q4", "Broadcast's factor",
           "nccl-tests' busbw factor for a broadcast is ...",
           ["1", "(n − 1)/n", "2 (n − 1)/n"],
           lambda: "a" if collectives.bus_bandwidth_factor("broadcast", 16) == 1 else "b"),
    numeric("ch7.q5", "All-gather's factor",
            "What is nccl-tests' busbw factor for an all-gather over 16 ranks?",
            lambda: collectives.bus_bandwidth_factor("all_gather", 16), unit="(dimensionless)", rtol=0.002),
]
