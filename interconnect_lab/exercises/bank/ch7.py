"""Chapter 7, collectives and NCCL: its checked exercises and quiz questions."""

from __future__ import annotations

from ... import catalog, collectives
from ... import units as u
from ._common import choice, numeric, pick


def _ndr():
    return collectives.link_parameters(catalog.link("InfiniBand NDR"))


def _hdr():
    return collectives.link_parameters(catalog.link("InfiniBand HDR"))


def _four_ports():
    """Two nodes of 8 H100 reaching the network through 4 ports of 200 Gb/s each (like GCP's A3 High)."""
    return collectives.collective_system("H100 SXM", nodes=2, network="Ethernet 200G", nics_per_node=4)


def _small_choice():
    result = collectives.nccl_collective("all_reduce", 8 * u.KiB, collectives.collective_system("H100 SXM", nodes=16))
    return {("ring", "LL"): "a", ("tree", "LL"): "b", ("nvls_tree", "Simple"): "c"}[(result.algorithm, result.protocol)]


def _ports_bound():
    system = _four_ports()
    busbw = collectives.nccl_collective("all_gather", 8 * u.GiB, system).bus_bandwidth_bytes_per_s
    ports = system.nics_per_node * system.nic_bytes_per_s
    one_port = system.nic_bytes_per_s
    return "b" if one_port < busbw <= ports < system.nvlink_bytes_per_s else "a"


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
    numeric("ch7.ex5", "An all-gather through four ports",
            "Two nodes of 8 H100 reach the network through 4 ports of 200 Gb/s each (`collective_system(\"H100 SXM\", "
            "nodes=2, network=\"Ethernet 200G\", nics_per_node=4)`). What busbw does NCCL's model give an 8 GiB "
            "all-gather?",
            lambda: collectives.nccl_collective("all_gather", 8 * u.GiB, _four_ports()).bus_bandwidth_bytes_per_s,
            unit="GB/s", scale=u.GB_per_s,
            hint="A ring through every GPU: the node's ports together carry as much as one GPU's NVLink."),
    numeric("ch7.ex6", "All-to-all across two nodes",
            "What busbw does the model give an 8 GiB all-to-all on 2 nodes of 8 H100, one InfiniBand NDR port per "
            "GPU?",
            lambda: collectives.nccl_collective("all_to_all", 8 * u.GiB, collectives.collective_system(
                "H100 SXM", nodes=2)).bus_bandwidth_bytes_per_s, unit="GB/s", scale=u.GB_per_s,
            hint="One port per cross-node pair: busbw tends to N/(N-1) times one GPU's port."),
    choice("ch7.q1", "All-reduce, decomposed",
           "An all-reduce is the same as ...",
           ["a reduce followed by a broadcast, always the fastest way", "a reduce-scatter followed by an "
            "all-gather", "an all-to-all"], "b"),
    choice("ch7.q2", "busbw",
           "For an all-reduce on n ranks, nccl-tests' busbw is algbw times ...",
           ["1", "(n − 1)/n", "2 (n − 1)/n"],
           lambda: "c" if abs(collectives.bus_bandwidth_factor("all_reduce", 16) - 2 * 15 / 16) < 1e-12 else "b",
           hint="busbw is comparable with the link rate whatever n is."),
    choice("ch7.q3", "What NCCL runs for small messages",
           "An 8 KiB all-reduce on 16 nodes of 8 H100, one InfiniBand NDR port per GPU: which algorithm and "
           "protocol does NCCL's cost model (`collectives.nccl_collective`) pick?",
           ["the ring with LL", "the tree with LL", "NVLSTree with Simple"], _small_choice,
           hint="For small messages the latency decides; the ring's grows with every rank, the tree's with log2 of "
                "the nodes."),
    choice("ch7.q4", "What bounds an all-gather across nodes",
           "Without SHARP, the busbw of a large all-gather across nodes of 8 GPUs is bounded by ...",
           ["one GPU's network port", "all the network ports of a node together (or one GPU's NVLink, if lower)",
            "nothing but NVLink: a two-level all-gather halves the network traffic"], _ports_bound,
           hint="NCCL runs one ring through every GPU; each channel enters and leaves each node once."),
    numeric("ch7.q5", "All-gather's factor",
            "What is nccl-tests' busbw factor for an all-gather over 16 ranks?",
            lambda: collectives.bus_bandwidth_factor("all_gather", 16), unit="(dimensionless)", rtol=0.002),
]
