"""Chapter 14, scale-up fabrics and the Ethernet roadmap: its checked exercises and quiz questions."""

from __future__ import annotations

from ... import catalog, roadmap
from ... import units as u
from ._common import choice, numeric


def _th6_reach(radix):
    return next(r for r in roadmap.fat_tree_reach("Tomahawk 6") if r.radix == radix)


ENTRIES = [
    numeric("ch14.ex1", "A Tomahawk 6's capacity",
            "What is a Tomahawk 6 switch chip's total capacity, all ports, one direction, from the catalog?",
            lambda: (lambda s: s.ports * s.port_per_direction_bytes_per_s)(catalog.switch("Tomahawk 6")),
            unit="Tb/s", scale=u.Tbit_per_s, hint="Ports × per-port rate, in bits per second."),
    numeric("ch14.ex2", "Splitting its ports",
            "Split into 512 ports of 200G, how many hosts does a two-tier non-blocking fat tree of "
            "Tomahawk 6 chips reach (`roadmap.fat_tree_reach`)?",
            lambda: _th6_reach(512).hosts_two_tiers, unit="hosts", exact=True,
            hint="k²/2 with the split radix k."),
    numeric("ch14.ex3", "A mesh against a switch",
            "How long does an all-reduce of 16 MiB among the 8 GPUs of an MI300X platform take on its "
            "Infinity Fabric mesh (`roadmap.tensor_parallel_all_reduce_time`)?",
            lambda: roadmap.tensor_parallel_all_reduce_time("Infinity Fabric (MI300X)", 16 * u.MiB, 8),
            unit="µs", scale=u.us, hint="In a mesh each GPU reaches each peer over its own links only."),
    choice("ch14.ex4", "UALink 2.0's status",
           "What is UALink 2.0's status in the catalog (`catalog.scale_up_fabric(\"UALink 2.0\").status`)?",
           ["shipping", "specification", "announced"],
           lambda: "abc"[["shipping", "specification", "announced"].index(catalog.scale_up_fabric("UALink 2.0").status)],
           hint="A published specification with no product implementing it is not yet shipping."),
    numeric("ch14.ex5", "Compute per byte of network, H100 to B200",
            "By what factor did dense BF16 compute per byte of scale-out NIC grow from a DGX H100 to a DGX "
            "B200 (`roadmap.generation_growth(\"H100 SXM\", \"B200\")`, the NICs the systems ship with)?",
            lambda: roadmap.generation_growth("H100 SXM", "B200").compute_to_scale_out,
            unit="x", hint="DGX B200 kept the 400G ConnectX-7: the network did not double."),
    choice("ch14.q1", "Shipping or announced",
           "Before using a roadmap figure in a cost model, the first thing to check is ...",
           ["whether it is shipping, announced or only a specification, and as of when",
            "the number of lanes", "the vendor's logo"], "a"),
    choice("ch14.q2", "Compute against networks, H100 to B200",
           "From the catalog, between H100 SXM and B200 the dense BF16 rate grew ... the scale-out NIC's "
           "rate.",
           ["more than", "as much as", "less than"],
           lambda: (lambda g: "a" if g.bf16_ratio > g.scale_out_ratio * 1.01 else
                    ("b" if abs(g.bf16_ratio - g.scale_out_ratio) <= 0.01 * g.scale_out_ratio else "c"))(
               roadmap.generation_growth())),
    numeric("ch14.q3", "Three tiers of 128 ports",
            "Split into 128 ports of 800G, how many hosts does a three-tier non-blocking fat tree of "
            "Tomahawk 6 chips reach?",
            lambda: _th6_reach(128).hosts_three_tiers, unit="hosts", exact=True),
    choice("ch14.q4", "Why split a switch's ports",
           "Breaking a switch chip's ports into more, slower ports ...",
           ["raises the radix, so a fat tree of fewer tiers reaches more hosts", "raises each port's rate",
            "lowers the chip's total capacity"], "a"),
    choice("ch14.q5", "A mesh's small groups",
           "In a full mesh of 8 GPUs, a tensor-parallel group of 2 GPUs can use ...",
           ["all of each GPU's links", "only the links between the two GPUs", "none of them"], "b",
           hint="In a mesh, links are point to point."),
]
