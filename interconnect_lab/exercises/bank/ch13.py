"""Chapter 13, topologies beyond the fat tree: its checked exercises and quiz questions."""

from __future__ import annotations

from ... import topology
from ._common import choice, numeric


ENTRIES = [
    numeric("ch13.ex1", "Slingshot at full size",
            "How many endpoints does the largest dragonfly of HPE Slingshot's Rosetta routers connect "
            "(`topology.SLINGSHOT`: terminals, routers per group, global links per router)?",
            lambda: topology.dragonfly(topology.SLINGSHOT["terminals_per_router"],
                                       topology.SLINGSHOT["routers_per_group"],
                                       topology.SLINGSHOT["global_links_per_router"]).hosts,
            unit="endpoints", exact=True, hint="a p (a h + 1); `topology.dragonfly(...).hosts`."),
    numeric("ch13.ex2", "Groups of that dragonfly",
            "How many groups does it have?",
            lambda: topology.dragonfly(topology.SLINGSHOT["terminals_per_router"],
                                       topology.SLINGSHOT["routers_per_group"],
                                       topology.SLINGSHOT["global_links_per_router"]).groups,
            unit="groups", exact=True, hint="Each group has a h global links, one to every other group."),
    numeric("ch13.ex3", "TPU v4's torus",
            "How many switch hops is the diameter of TPU v4's 3D torus (`topology.TPU_V4`)?",
            lambda: topology.torus(topology.TPU_V4["dimensions"]).diameter_hops, unit="hops", exact=True,
            hint="Half of each ring's length, summed over the dimensions."),
    numeric("ch13.ex4", "Oversubscribed two tiers",
            "How many hosts fit in a two-tier fat tree of 64-port switches at 3:1 oversubscription?",
            lambda: topology.max_hosts(64, 2, oversubscription=3), unit="hosts", exact=True,
            hint="`topology.max_hosts(radix, tiers, oversubscription=...)`."),
    numeric("ch13.ex5", "DeepSeek's planes",
            "How many switches do 8 planes of two-tier fat trees of 64-port switches need for 16,384 GPUs, "
            "each GPU on one plane (`topology.multi_plane_fat_tree`)?",
            lambda: topology.multi_plane_fat_tree(16_384, 8, radix=64).switches, unit="switches", exact=True,
            hint="Each plane is a two-tier fat tree of 2,048 hosts: 64 leaves and 32 spines."),
    numeric("ch13.ex6", "Planes split by port",
            "An 800G NIC runs as 2 x 400G, one port on each of 2 planes of 128-port 400G switches. How many "
            "switches do the planes need for 8,192 GPUs (`split=\"port\"`)?",
            lambda: topology.multi_plane_fat_tree(8_192, 2, split="port", radix=128).switches, unit="switches",
            exact=True, hint="Every plane holds every GPU: two tiers of radix 128 hold 8,192."),
    choice("ch13.q1", "Adversarial traffic on a dragonfly",
           "Minimal routing on a dragonfly meets traffic where every group sends to the next one. What "
           "helps?",
           ["Valiant routing through a random intermediate group", "shorter cables", "more terminals "
            "per router"], "a"),
    choice("ch13.q2", "Rail-only",
           "A rail-only network drops the spine between rails. Traffic from GPU k of one server to GPU j "
           "(j ≠ k) of another must ...",
           ["go through the CPU", "cross the server's NVLink to rail j first", "be dropped"], "b"),
    choice("ch13.q3", "Optical circuit switches in TPU v4",
           "What do TPU v4's optical circuit switches do?",
           ["switch every packet", "add memory", "reconfigure which cubes connect, to build the torus a job "
            "asks for and route around failures"], "c"),
    numeric("ch13.q4", "Chips in the torus",
            "How many chips does TPU v4's full torus hold?",
            lambda: topology.torus(topology.TPU_V4["dimensions"]).chips, unit="chips", exact=True),
    choice("ch13.q5", "What the fat tree costs at the top",
           "In a three-tier non-blocking fat tree, the core tier ...",
           ["is optional at any size", "carries the full bisection and takes a large share of switches and "
            "optics", "only carries management traffic"], "b"),
]
