"""Chapter 2, NVLink and NVSwitch: its checked exercises and quiz questions."""

from __future__ import annotations

from ... import catalog, collectives, topology
from ... import units as u
from ._common import choice, numeric


def _gpu_nvlink_per_direction(gpu_name):
    link = catalog.link(catalog.gpu(gpu_name).scale_up_link)
    return link.per_direction_bytes_per_s * link.links_per_gpu


def _nvl72_total():
    domain = topology.nvlink_domain("GB200 NVL72")
    return domain.gpus * sum(domain.links_per_gpu_per_chip) * domain.link_per_direction_bytes_per_s


ENTRIES = [
    numeric("ch2.ex1", "An H100's NVLink, per direction",
            "Using the catalog's NVLink 4 entry, what is one H100 SXM's NVLink bandwidth, all its links "
            "together, in one direction?",
            lambda: _gpu_nvlink_per_direction("H100 SXM"), unit="GB/s", scale=u.GB_per_s,
            hint="Per-link rate per direction × links per GPU; the catalog stores per-direction rates."),
    numeric("ch2.ex2", "The same, as NVIDIA quotes it",
            "Give the same H100 SXM NVLink bandwidth the way the vendor's headline figure counts it: both "
            "directions added.",
            lambda: u.both_directions(_gpu_nvlink_per_direction("H100 SXM")), unit="GB/s", scale=u.GB_per_s,
            hint="Both directions added is twice the per-direction rate."),
    numeric("ch2.ex3", "Sending a buffer over NVLink",
            "How long does it take to send a 10 GB (decimal) buffer from one H100 SXM to another through "
            "the NVSwitches, at the sender's full NVLink rate per direction, ignoring latency?",
            lambda: 10 * u.GB / _gpu_nvlink_per_direction("H100 SXM"), unit="ms", scale=u.ms,
            hint="A transfer goes one way: use the per-direction rate."),
    numeric("ch2.ex4", "A whole NVL72 rack",
            "What is the NVLink bandwidth of all 72 GPUs of a GB200 NVL72 together, per direction "
            "(`topology.nvlink_domain`)?",
            _nvl72_total, unit="TB/s", scale=u.TB_per_s,
            hint="GPUs × links per GPU × per-link rate per direction."),
    choice("ch2.q1", "Reading a headline figure",
           "NVIDIA's headline NVLink bandwidth for a GPU is ...",
           ["per direction", "both directions added", "per link"], "b",
           hint="The book's convention is per direction; vendors of NVLink and PCIe add both."),
    choice("ch2.q2", "Inside a DGX H100",
           "How does one GPU of a DGX H100 reach another?",
           ["a direct NVLink cable between the two", "through all four NVSwitch chips, its links split "
            "over them", "over PCIe through the CPU"], "b",
           hint="`topology.nvlink_domain('DGX H100').links_per_gpu_per_chip`."),
    choice("ch2.q3", "What a ring all-reduce sends",
           "In a ring all-reduce of an S-byte buffer over n GPUs, each GPU sends about ...",
           ["S (n − 1)/n bytes", "2 S (n − 1)/n bytes", "S (n − 1) bytes"],
           lambda: "b" if abs(collectives.bus_bandwidth_factor("all_reduce", 8) - 2 * 7 / 8) < 1e-12 else "a",
           hint="A reduce-scatter then an all-gather, each (n − 1)/n of the buffer."),
    choice("ch2.q4", "NVLink SHARP",
           "Why does NVLink SHARP (NVLS) cut what each GPU sends in an all-reduce?",
           ["it compresses the gradients", "the switch adds the buffers, so each GPU sends its data once "
            "and receives the sum once", "it raises the link's clock"], "b",
           hint="In-network reduction: where does the addition happen?"),
    numeric("ch2.q5", "Bytes per byte for 72 GPUs",
            "In a ring all-reduce over the 72 GPUs of an NVL72, how many bytes does each GPU send per byte "
            "of the buffer?",
            lambda: collectives.bus_bandwidth_factor("all_reduce", 72), unit="bytes per byte", rtol=0.002,
            hint="2 (n − 1)/n; it is also the busbw factor."),
]
