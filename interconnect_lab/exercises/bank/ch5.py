"""Chapter 5, InfiniBand and fat trees: its checked exercises and quiz questions."""

from __future__ import annotations

from ... import catalog, topology
from ... import units as u
from ._common import choice, numeric


def _qm9700_tree():
    return topology.fat_tree(4096, switch="Quantum-2 QM9700")


ENTRIES = [
    numeric("ch5.ex1", "Two tiers of radix-64 switches",
            "How many hosts can a non-blocking two-tier fat tree of 64-port switches connect?",
            lambda: topology.max_hosts(64, 2), unit="hosts", exact=True, hint="k²/2 for radix k."),
    numeric("ch5.ex2", "Three tiers",
            "And a non-blocking three-tier fat tree of the same switches?",
            lambda: topology.max_hosts(64, 3), unit="hosts", exact=True, hint="k³/4 for radix k."),
    numeric("ch5.ex3", "Switches for 4,096 hosts",
            "How many switches (leaves, spines and cores together) does the library's non-blocking fat "
            "tree of Quantum-2 QM9700 take for 4,096 hosts?",
            lambda: sum(getattr(_qm9700_tree(), tier) for tier in ("leaves", "spines", "cores")),
            unit="switches", exact=True, hint="`topology.fat_tree(4096, switch=...)`."),
    numeric("ch5.ex4", "One GiB over one NDR port",
            "How long does one GiB take to cross one InfiniBand NDR port in one direction at the catalog's "
            "data rate?",
            lambda: u.GiB / catalog.link("InfiniBand NDR").per_direction_bytes_per_s, unit="ms", scale=u.ms,
            hint="A GiB is 2³⁰ bytes; the port rate is per direction."),
    choice("ch5.q1", "Credit-based flow control",
           "On an InfiniBand link, a sender transmits a packet only when ...",
           ["the receiver has advertised buffer space for it (a credit)", "the link is idle",
            "the subnet manager allows it"], "a"),
    choice("ch5.q2", "Oversubscription",
           "A leaf switch is 3:1 oversubscribed. It has ...",
           ["three times as many up-link ports as host ports", "three times as many host ports as up-link "
            "ports", "three tiers"], "b",
           hint="Oversubscription compares what can enter a switch from below with what can leave upward."),
    numeric("ch5.q3", "Radix 40",
            "How many hosts fit in a non-blocking two-tier fat tree of 40-port switches?",
            lambda: topology.max_hosts(40, 2), unit="hosts", exact=True),
    choice("ch5.q4", "Rail-optimized",
           "In a rail-optimized fabric, GPU number k of every server connects to ...",
           ["the leaf switch of rail k", "a random leaf", "the server's own top-of-rack switch"], "a"),
    choice("ch5.q5", "One more tier",
           "Going from two to three tiers of 64-port switches multiplies the largest non-blocking fabric's "
           "host count by ...",
           ["2", "32", "64"],
           lambda: {2: "a", 32: "b", 64: "c"}.get(topology.max_hosts(64, 3) // topology.max_hosts(64, 2), "a")),
]
