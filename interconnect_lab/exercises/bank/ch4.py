"""Chapter 4, RDMA and GPUDirect: its checked exercises and quiz questions."""

from __future__ import annotations

from ... import catalog, rdma
from ... import units as u
from ._common import choice, numeric


def _rdma_1mib():
    nic = catalog.nic("ConnectX-7")
    return rdma.host_transfer(1 * u.MiB, "RDMA", link_bytes_per_s=nic.per_direction_bytes_per_s,
                              latency_s=rdma.host_latency("RDMA").total_s)


ENTRIES = [
    numeric("ch4.ex1", "A ConnectX-7 port",
            "What is a ConnectX-7 port's rate per direction, from the catalog?",
            lambda: catalog.nic("ConnectX-7").per_direction_bytes_per_s, unit="GB/s", scale=u.GB_per_s,
            hint="Network ports are quoted per direction, in bits per second."),
    numeric("ch4.ex2", "RDMA's small-message latency",
            "With the chapter's central estimates and two hosts cabled back to back, what is the one-way "
            "latency of a small RDMA message?",
            lambda: rdma.host_latency("RDMA").total_s, unit="µs", scale=u.us,
            hint="`rdma.host_latency('RDMA')`."),
    numeric("ch4.ex3", "What the kernel costs",
            "By what factor is kernel TCP's small-message latency larger than RDMA's, same setting?",
            lambda: rdma.host_latency("kernel TCP").total_s / rdma.host_latency("RDMA").total_s,
            unit="times", hint="Both from `rdma.host_latency`, central case."),
    numeric("ch4.ex4", "One mebibyte by RDMA",
            "How long does one 1 MiB message take by RDMA over a ConnectX-7 port, hosts back to back, "
            "with the library's default efficiency and the latency of ch4.ex2?",
            lambda: _rdma_1mib().time_s, unit="µs", scale=u.us,
            hint="Latency plus size over the usable rate; `rdma.host_transfer`."),
    choice("ch4.q1", "Zero copy",
           "In RDMA, 'zero copy' means ...",
           ["no CPU copies the data: the NIC reads and writes the application's registered buffers",
            "nothing crosses the wire twice", "the data is compressed to nothing"], "a"),
    choice("ch4.q2", "Kernel bypass",
           "In RDMA, 'kernel bypass' means ...",
           ["the kernel is unloaded during transfers", "the application posts work requests to the NIC's "
            "queues from user space; the kernel is off the data path", "the NIC runs its own kernel"], "b"),
    choice("ch4.q3", "GPUDirect RDMA",
           "What does GPUDirect RDMA let the NIC do?",
           ["read and write GPU memory directly over PCIe, with no bounce through host memory",
            "use NVLink between servers", "run collectives on the NIC"], "a",
           hint="Without it, data is staged in host memory."),
    choice("ch4.q4", "RoCE",
           "What does RoCE v2 ask of the Ethernet fabric to perform well?",
           ["nothing beyond ordinary Ethernet", "no loss under congestion: PFC, or ECN-based congestion "
            "control such as DCQCN", "InfiniBand switches"], "b"),
    numeric("ch4.q5", "Host memory traffic of kernel TCP",
            "How many bytes cross host memory for each byte kernel TCP sends (`rdma.host_transfer`)?",
            lambda: rdma.host_transfer(1 * u.MiB, "kernel TCP", link_bytes_per_s=50 * u.GB_per_s,
                                       latency_s=20 * u.us).host_memory_bytes_per_byte,
            unit="bytes per byte", exact=True, hint="Each copy reads and writes; the NIC's DMA reads once."),
]
