"""The checked exercises and quizzes, chapter by chapter, with answers computed by the library.

Each entry's ``answer`` is a function that calls the library, so a change of a
catalog entry or a model moves the answer; ``python -m interconnect_lab.exercises``
then regenerates the hashed store (a test fails until it is regenerated).

Adding a checked exercise is one entry in :data:`EXERCISES`, e.g.::

    numeric("ch11.ex1", "Title", "Question ...", lambda: energy.energy_per_bit_j(...),
            unit="pJ/bit", scale=units.pJ, hint="Where to look."),

and a chapter's practice page lists its keys (``keys("ch11")``). Prompts name
their inputs (catalog entries, sizes, counts, assumptions) and never the answer.
"""

from __future__ import annotations

import dataclasses

from .. import (
    catalog, collectives, energy, fabric, inference, memory, moe, rdma, reliability, roadmap, silicon, topology,
    training,
)
from .. import units as u
from .. import utilization
from .core import Choice, Numeric

__all__ = ["EXERCISES", "CHAPTERS", "keys", "numeric", "choice"]

#: Chapter number -> the chapter's notebook (book/<name>.ipynb) and its practice page.
CHAPTERS = {
    1: "01_gpu_paradox", 2: "02_nvlink_nvswitch", 3: "03_pcie_cxl_memory", 4: "04_rdma_gpudirect",
    5: "05_infiniband_fat_trees", 6: "06_ultra_ethernet", 7: "07_collectives_nccl",
    8: "08_training_at_scale", 9: "09_stragglers_tail", 10: "10_power_optics_future",
    11: "11_moe_all_to_all", 12: "12_inference_traffic", 13: "13_topologies", 14: "14_scale_up_fabrics",
}


def numeric(key, title, prompt, answer, *, unit, scale=1.0, rtol=0.01, exact=False, hint="", binary_prefixes=None):
    return Numeric(key=key, title=title, prompt=prompt, answer=answer, unit=unit, scale=scale, rtol=rtol,
                   exact=exact, hint=hint, binary_prefixes=binary_prefixes)


def choice(key, title, prompt, options, answer, *, hint=""):
    return Choice(key=key, title=title, prompt=prompt, options=tuple(options),
                  answer=answer if callable(answer) else (lambda: answer), hint=hint)


def _pick(condition: bool) -> str:
    """``"a"`` if ``condition`` holds, else ``"b"`` (for a computed two-way choice)."""
    return "a" if condition else "b"


# --- Chapter 1: the GPU paradox ------------------------------------------------------
def _h100_peak():
    return catalog.gpu("H100 SXM").bf16_flop_per_s


def _ch1_step():
    compute = utilization.compute_time(500 * u.TFLOP, _h100_peak(), compute_efficiency=0.70)
    return utilization.step_time(compute, 0.3, overlap_fraction=0.4)


def _ch1_mfu_after_upgrade_falls():
    before = utilization.step_time(1.0, 0.5, 0.5).step_s * 1.0          # peak P
    after = utilization.step_time(0.5, 0.5, 0.5).step_s * 2.0           # peak 2P, same network
    return after > before                                               # MFU ∝ 1 / (step × peak)


CH1 = [
    numeric("ch1.ex1", "Step time with partial overlap",
            "One H100 SXM runs a training step that needs 500 TFLOP of model FLOPs; its kernels reach 70 % "
            "of the catalog's dense BF16 peak. The step's communication takes 0.3 s on its own, and 40 % of "
            "it overlaps with compute. How long is the step?",
            lambda: _ch1_step().step_s, unit="s",
            hint="Exposed communication is the part not hidden behind compute; "
                 "`utilization.compute_time` and `utilization.step_time`."),
    numeric("ch1.ex2", "MFU of that step",
            "For the step of ch1.ex1, what is the model FLOPs utilization, against the H100 SXM's dense "
            "BF16 peak from the catalog?",
            lambda: utilization.model_flops_utilization(500 * u.TFLOP, _ch1_step().step_s, _h100_peak()),
            unit="%", scale=0.01,
            hint="MFU = model FLOPs / (step time × peak); the step time includes exposed communication."),
    numeric("ch1.ex3", "The same step on a B200",
            "The same 500 TFLOP of model FLOPs run on one B200 at 70 % of its dense BF16 peak (catalog). "
            "How long does the compute take, in milliseconds?",
            lambda: utilization.compute_time(500 * u.TFLOP, catalog.gpu("B200").bf16_flop_per_s, 0.70),
            unit="ms", scale=u.ms,
            hint="Compute time = FLOPs / (peak × efficiency); mind TFLOP against PFLOP/s."),
    numeric("ch1.ex4", "HFU from MFU",
            "A Llama 3 70B run with full activation recomputation reports 40 % MFU. What is its HFU, taking "
            "the library's exact ratio of executed to model FLOPs per token for that model?",
            lambda: 0.40 * training.flops_per_token(training.transformer_model("Llama 3 70B"), recompute="full")
            / training.flops_per_token(training.transformer_model("Llama 3 70B")),
            unit="%", scale=0.01,
            hint="Recomputation adds a second forward pass to the executed FLOPs, not to the model FLOPs; "
                 "`training.flops_per_token(model, recompute=...)`."),
    choice("ch1.q1", "What MFU counts",
           "Model FLOPs utilization divides by the peak rate the FLOPs that ...",
           ["every kernel executed, activation recomputation included",
            "the model needs per token (about six per parameter), recomputation excluded",
            "the matrix multiplications ran at their measured rate"], "b",
           hint="MFU is comparable across implementations because it ignores how the work was done."),
    choice("ch1.q2", "HFU against MFU",
           "A run recomputes every layer's activations in the backward pass. Its HFU is ... its MFU.",
           ["higher than", "equal to", "lower than"],
           lambda: "a" if training.flops_per_token(training.transformer_model("Llama 3 70B"), recompute="full")
           > training.flops_per_token(training.transformer_model("Llama 3 70B")) else "c",
           hint="Which FLOPs does each count?"),
    choice("ch1.q3", "Fully hidden communication",
           "Communication is shorter than compute and overlaps with it completely. The step time is ...",
           ["the compute time", "compute plus communication", "the communication time"],
           lambda: "a" if utilization.step_time(1.0, 0.5, 1.0).step_s == 1.0 else "b",
           hint="Exposed communication = communication × (1 − overlap)."),
    choice("ch1.q4", "A faster GPU, the same network",
           "Every GPU's peak doubles and kernels keep the same share of it; the network and the overlapped "
           "share stay the same. Compute took 1.0 s and communication 0.5 s with half of it overlapped. MFU ...",
           ["rises", "falls", "stays the same"], lambda: "b" if _ch1_mfu_after_upgrade_falls() else "a",
           hint="MFU is inversely proportional to step time × peak."),
    numeric("ch1.q5", "MFU from throughput",
            "A 7-billion-parameter model (count 6 FLOPs per parameter per token) trains at 3.5 million "
            "tokens per second on 512 H100 SXM. What is its MFU against the catalog's dense BF16 peak?",
            lambda: utilization.model_flops_utilization(6 * 7e9 * 3.5e6, 1.0, _h100_peak(), n_gpus=512),
            unit="%", scale=0.01, hint="Model FLOPs per second divided by the whole cluster's peak."),
]


# --- Chapter 2: NVLink and NVSwitch --------------------------------------------------
def _gpu_nvlink_per_direction(gpu_name):
    link = catalog.link(catalog.gpu(gpu_name).scale_up_link)
    return link.per_direction_bytes_per_s * link.links_per_gpu


def _nvl72_total():
    domain = topology.nvlink_domain("GB200 NVL72")
    return domain.gpus * sum(domain.links_per_gpu_per_chip) * domain.link_per_direction_bytes_per_s


CH2 = [
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


# --- Chapter 3: PCIe, CXL and the memory wall ----------------------------------------
def _llama70():
    return training.transformer_model("Llama 3 70B")


def _state_total(model):
    state = memory.training_state(model)
    return state.weights_bytes + state.gradients_bytes + state.optimizer_bytes


CH3 = [
    numeric("ch3.ex1", "A PCIe Gen5 x16 slot",
            "From the catalog, what is the data rate of a PCIe Gen5 x16 link in one direction?",
            lambda: catalog.link("PCIe Gen5 x16").per_direction_bytes_per_s, unit="GB/s", scale=u.GB_per_s,
            hint="The catalog stores per-direction rates, after encoding."),
    numeric("ch3.ex2", "Llama 3 70B's training state",
            "How much memory do Llama 3 70B's weights, gradients and mixed-precision Adam state take "
            "together (the library's default bytes per parameter), without activations?",
            lambda: _state_total(_llama70()), unit="TB", scale=u.TB,
            hint="`memory.training_state(model)`: add its three parts."),
    numeric("ch3.ex3", "A long KV cache",
            "How large is Llama 3 70B's KV cache for one sequence of 131,072 tokens, in BF16?",
            lambda: memory.kv_cache_bytes(_llama70(), 131_072), unit="GB", scale=u.GB,
            hint="2 (K and V) × layers × KV heads × head size × tokens × bytes; `memory.kv_cache_bytes`."),
    numeric("ch3.ex4", "Bringing it back over PCIe",
            "How long does it take to copy that KV cache (ch3.ex3) from host memory to one GPU over a "
            "single PCIe Gen5 x16 link at its catalog rate?",
            lambda: memory.kv_cache_bytes(_llama70(), 131_072) / catalog.link("PCIe Gen5 x16")
            .per_direction_bytes_per_s, unit="ms", scale=u.ms,
            hint="Size over the per-direction rate.", binary_prefixes=True),
    choice("ch3.q1", "A NIC in a narrow slot",
           "Can a 200 Gb/s network adapter run at line rate in a PCIe Gen4 slot wired with 8 lanes?",
           ["yes", "no"],
           lambda: _pick(catalog.link("PCIe Gen4 x16").per_direction_bytes_per_s / 2 >= 200 * u.Gbit_per_s),
           hint="Half a Gen4 x16 link, against 200 Gb/s in bytes."),
    choice("ch3.q2", "Pooling and sharing",
           "What does CXL 3.x memory sharing add to CXL 2.0 pooling?",
           ["several hosts can use the same region at once, coherently", "more bandwidth per lane",
            "memory that survives a power cut"], "a",
           hint="Pooling assigns a region to one host at a time."),
    choice("ch3.q3", "A KV cache in host memory",
           "When a KV cache parked in host memory is needed again, what limits how fast it comes back?",
           ["the GPU's HBM bandwidth", "the PCIe (or C2C) link between host and GPU", "the NVLink"], "b",
           hint="Compare the rates of the links the bytes cross."),
    choice("ch3.q4", "ZeRO-Offload",
           "What does ZeRO-Offload move to the host?",
           ["the weights only", "the optimizer state and its update step", "the activations"], "b",
           hint="The CPU runs Adam."),
    numeric("ch3.q5", "Bytes per parameter",
            "How many bytes of training state (weights, gradients, optimizer) does the library count per "
            "parameter for mixed-precision Adam?",
            lambda: _state_total(1_000_000) / 1_000_000, unit="bytes per parameter",
            hint="`memory.training_state(parameters)`."),
]


# --- Chapter 4: RDMA and GPUDirect ---------------------------------------------------
def _rdma_1mib():
    nic = catalog.nic("ConnectX-7")
    return rdma.host_transfer(1 * u.MiB, "RDMA", link_bytes_per_s=nic.per_direction_bytes_per_s,
                              latency_s=rdma.host_latency("RDMA").total_s)


CH4 = [
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


# --- Chapter 5: InfiniBand and fat trees ---------------------------------------------
def _qm9700_tree():
    return topology.fat_tree(4096, switch="Quantum-2 QM9700")


CH5 = [
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


# --- Chapter 6: Ultra Ethernet -------------------------------------------------------
CH6 = [
    numeric("ch6.ex1", "Three flows on one link",
            "A leaf hashes 32 flows onto its 32 up-links, each flow to a link chosen uniformly at random. "
            "What is the probability that at least one up-link carries three flows or more?",
            lambda: 1 - float(fabric.max_load_cdf(32, 32, [2])[0]), unit="%", scale=0.01,
            hint="One minus the probability that no link holds more than two; `fabric.max_load_cdf`."),
    numeric("ch6.ex2", "No collision at all",
            "With 8 flows hashed onto 8 up-links, what is the probability that every flow gets a link of "
            "its own?",
            lambda: float(fabric.max_load_cdf(8, 8, [1])[0]), unit="%", scale=0.01,
            hint="No link holds more than one flow."),
    numeric("ch6.ex3", "A Tomahawk 5's capacity",
            "What is a Tomahawk 5 switch chip's total capacity, all ports, one direction, from the catalog?",
            lambda: (lambda s: s.ports * s.port_per_direction_bytes_per_s)(catalog.switch("Tomahawk 5")),
            unit="Tb/s", scale=u.Tbit_per_s, hint="Ports × per-port rate; switch capacity is quoted in bits."),
    numeric("ch6.ex4", "Bytes in flight",
            "How many bytes are in flight on an Ethernet 400G link (catalog rate) with a 10 µs round trip: "
            "the bandwidth-delay product?",
            lambda: catalog.link("Ethernet 400G").per_direction_bytes_per_s * 10 * u.us, unit="KiB",
            scale=u.KiB, rtol=0.005, hint="Rate in bytes per second × round-trip time; a KiB is 1,024 bytes."),
    choice("ch6.q1", "Elephants and ECMP",
           "ECMP hashes each flow onto one path. With a few large flows, as in collectives, ...",
           ["the load spreads evenly anyway", "some links carry two or more flows while others idle",
            "the switch splits each flow"], "b"),
    choice("ch6.q2", "What spraying asks of the receiver",
           "Packet spraying sends one flow's packets over many paths. The receiver must ...",
           ["accept packets out of order", "slow the sender down", "drop duplicates only"], "a"),
    choice("ch6.q3", "Trimming",
           "With packet trimming, a congested switch ...",
           ["drops the packet silently", "cuts the payload and forwards the header, so the receiver learns "
            "of the loss at once", "marks the packet and delivers it whole"], "b"),
    choice("ch6.q4", "Incast",
           "Incast is ...",
           ["many senders sending to one receiver's port at once, overflowing its buffer",
            "a packet looping in the fabric", "a flow hashed onto a failed link"], "a"),
    numeric("ch6.q5", "Sixty-four flows",
            "With 64 flows hashed onto 64 up-links, what is the probability that no up-link carries more "
            "than two flows?",
            lambda: float(fabric.max_load_cdf(64, 64, [2])[0]), unit="%", scale=0.01),
]


# --- Chapter 7: collectives and NCCL -------------------------------------------------
def _ndr():
    return collectives.link_parameters(catalog.link("InfiniBand NDR"))


def _hdr():
    return collectives.link_parameters(catalog.link("InfiniBand HDR"))


CH7 = [
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
           lambda: _pick(collectives.all_reduce_time(8 * u.KiB, 128, algorithm="ring", **_hdr())
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


# --- Chapter 8: training at scale ----------------------------------------------------
CH8 = [
    numeric("ch8.ex1", "Counting parameters",
            "How many parameters does the library count for Llama 3 70B, in billions?",
            lambda: training.parameter_count(_llama70()), unit="billion", scale=1e9, rtol=0.002,
            hint="`training.parameter_count`; embeddings included."),
    numeric("ch8.ex2", "Model FLOPs per token",
            "How many model FLOPs per token (Megatron's convention, no recomputation) does Llama 3 70B "
            "take for a full training step (forward and backward)?",
            lambda: training.flops_per_token(_llama70()), unit="GFLOP", scale=u.GFLOP,
            hint="About 6 per parameter, plus attention; `training.flops_per_token`."),
    numeric("ch8.ex3", "The pipeline bubble",
            "With 8 pipeline stages and 32 microbatches per step (no interleaving), what share of the "
            "step is bubble, as the library defines it?",
            lambda: training.pipeline_bubble_fraction(8, 32), unit="%", scale=0.01,
            hint="(p − 1)/m; `training.pipeline_bubble_fraction`."),
    numeric("ch8.ex4", "Training time",
            "How many days does it take to train a 70-billion-parameter model on 15 trillion tokens on "
            "16,384 GPUs that each deliver 400 TFLOP/s of model FLOPs?",
            lambda: training.training_time_s(70e9, 15e12, 16384, 400 * u.TFLOP_per_s), unit="days",
            scale=u.day, hint="6 N D / (GPUs × rate); `training.training_time_s`."),
    choice("ch8.q1", "Six FLOPs per parameter",
           "Where do the ~6 FLOPs per parameter per token come from?",
           ["2 in the forward pass, 4 in the backward pass", "3 forward, 3 backward",
            "6 in the optimizer"], "a"),
    choice("ch8.q2", "Shrinking the bubble",
           "Which shrinks the pipeline bubble's share of a step?",
           ["fewer microbatches per step", "more microbatches per step", "more pipeline stages"],
           lambda: "b" if training.pipeline_bubble_fraction(8, 64) < training.pipeline_bubble_fraction(8, 32)
           else "a"),
    choice("ch8.q3", "Where tensor parallelism goes",
           "Why does Megatron-LM keep tensor parallelism inside a node?",
           ["it all-reduces activations in every layer, so it needs NVLink's bandwidth",
            "it only runs once per step", "pipeline parallelism cannot cross nodes"], "a"),
    choice("ch8.q4", "ZeRO stage 3",
           "ZeRO stage 3 partitions across the data-parallel GPUs ...",
           ["the optimizer state only", "the optimizer state and gradients",
            "the optimizer state, gradients and parameters"], "c"),
    numeric("ch8.q5", "An interleaved bubble",
            "With 4 pipeline stages, 16 microbatches and 2 model chunks per stage (interleaved schedule), "
            "what is the bubble's share?",
            lambda: training.pipeline_bubble_fraction(4, 16, 2), unit="%", scale=0.01,
            hint="Interleaving divides the bubble by the number of chunks."),
    numeric("ch8.ex5", "Attention at short sequences",
            "On an H100 SXM, what share of the BF16 peak does cuDNN's fused attention reach in the causal "
            "forward pass on sequences of 1,024 tokens with heads of dimension 128 (FlashAttention-3's "
            "benchmark, as the library reads it)?",
            lambda: training.attention_share("cuDNN", "H100 SXM", 1024, head_dim=128).forward, unit="%",
            scale=0.01, hint="`training.attention_share`; compare with its 16K share in `training.ATTENTION_KERNELS`."),
    numeric("ch8.ex6", "The power limit",
            "A training step holds a GPU at its power limit, below the clock of the short bursts its best measured "
            "matmul rate comes from. By what share does the library slow a B200's training GEMMs below that best "
            "rate (catalog.gpu('B200').measured_matmul_flop_per_s)?",
            lambda: 1 - training.matmul_fraction_of_peak(catalog.gpu("B200")) / catalog.gpu("B200").matmul_fraction_of_peak,
            unit="%", scale=0.01,
            hint="`training.matmul_fraction_of_peak`. Not 1 minus the B200's sustained rate over its best one: the "
                 "efficiency already allows for what the reference GPU (`training.SUSTAINED_REFERENCE_GPU`) loses, so "
                 "the B200 runs at the reference's best rate times the ratio of the two GPUs' sustained rates."),
    numeric("ch8.ex7", "Two meanings of selective",
            "Llama 3 8B trains with FSDP (ZeRO-3) on one DGX H100 (training.system_cluster('DGX H100')), one "
            "sequence per GPU per step, with the 'PyTorch FSDP' stack. By what share is its step longer with "
            "torchtitan's default selective checkpointing (every second layer checkpointed whole) than with "
            "Megatron's selective recomputation?",
            lambda: _titan_selective_cost(), unit="%", scale=0.01,
            hint="`training.RECOMPUTATION` names torchtitan's policy 'every other layer'; compare "
                 "`training_step(...).step_s` under it and under 'selective'."),
    numeric("ch8.ex8", "What checkpointing cost",
            "torchtitan's A100 table (published.training_runs.TORCHTITAN_A100_RUNS) ran Llama 2 13B on 64 A100s "
            "at the same batch without activation checkpointing and with every other layer checkpointed. "
            "Replaying both rows with training.replay, by what share is the checkpointed run's step longer? "
            "Then compare with what the two published throughputs say.",
            lambda: _titan_checkpointing_charge(), unit="%", scale=0.01,
            hint="`training.replay(run).step_s` for the two rows with `run.layers == 40` and recompute 'none' "
                 "and 'every other layer'; the published rows give tokens per second at the same batch."),
    numeric("ch8.ex9", "What eager kernels cost",
            "torchtitan's Llama 2 13B row without checkpointing (published.training_runs.TORCHTITAN_A100_RUNS) "
            "ran its RMSNorm, rotary embedding and SwiGLU op by op. Replay it with its own stack and with the "
            "same stack but those ops charged as one kernel each (Software.eager_elementwise off). By what share "
            "is the eager step longer?",
            lambda: _titan_eager_cost(), unit="%", scale=0.01,
            hint="`training.replay(run, software=...)` with `dataclasses.replace(training.software(run.software), "
                 "eager_elementwise=False)`; compare the two `step_s`."),
    numeric("ch8.ex10", "What an op-by-op optimizer costs a hybrid-sharded run",
            "IBM's Llama 2 13B row (published.training_runs.FMS_FSDP_A100_RUNS) shares each copy of the weights "
            "among the 8 GPUs of a node, so every GPU updates an eighth of the model each step, with PyTorch's "
            "default AdamW, which runs op by op. Replay it with its own stack and with the same stack stepping "
            "one fused Adam kernel (Software.fused_optimizer on). By what share is its step longer?",
            lambda: _fms_optimizer_cost(), unit="%", scale=0.01,
            hint="`dataclasses.replace(training.software(run.software), fused_optimizer=True)`; compare the "
                 "two `step_s`. Then try `dataclasses.replace(run, shard_group_size=None)`: what happens to "
                 "`optimizer_s`, and why?"),
]


def _titan_13b(recompute):
    """torchtitan's Llama 2 13B row on 64 A100 with the given recomputation policy."""
    from ..published.training_runs import TORCHTITAN_A100_RUNS
    (run,) = [run for run in TORCHTITAN_A100_RUNS if run.layers == 40 and run.recompute == recompute]
    return run


def _titan_eager_cost():
    run = _titan_13b("none")
    one_kernel_each = dataclasses.replace(training.software(run.software), eager_elementwise=False)
    return training.replay(run).step_s / training.replay(run, software=one_kernel_each).step_s - 1


def _fms_optimizer_cost():
    from ..published.training_runs import FMS_FSDP_A100_RUNS
    (run,) = [run for run in FMS_FSDP_A100_RUNS if run.layers == 40]
    fused = dataclasses.replace(training.software(run.software), fused_optimizer=True)
    return training.replay(run).step_s / training.replay(run, software=fused).step_s - 1


def _titan_checkpointing_charge():
    steps = [training.replay(_titan_13b(policy)).step_s for policy in ("every other layer", "none")]
    return steps[0] / steps[1] - 1


def _titan_selective_cost():
    steps = [training.training_step("Llama 3 8B", training.system_cluster("DGX H100"),
                                    training.parallel_config(8, global_batch_size=8, recompute=name, zero_stage=3),
                                    "PyTorch FSDP").step_s
             for name in ("every other layer", "selective")]
    return steps[0] / steps[1] - 1


# --- Chapter 9: stragglers, failures and the tail ------------------------------------
def _mtbf_16k():
    return reliability.system_mtbf(16384, 50_000 * u.hour)


CH9 = [
    numeric("ch9.ex1", "A big job's MTBF",
            "Assume each GPU fails on average once in 50,000 hours, independently. How often does a job on "
            "16,384 GPUs see a failure: what is its mean time between failures?",
            lambda: _mtbf_16k(), unit="hours", scale=u.hour, hint="`reliability.system_mtbf`."),
    numeric("ch9.ex2", "How often to checkpoint",
            "For that job, with 60 s checkpoints, what is Daly's optimal checkpoint interval?",
            lambda: reliability.daly_interval(60, _mtbf_16k()), unit="minutes", scale=u.minute,
            hint="`reliability.daly_interval`; close to √(2 δ M)."),
    numeric("ch9.ex3", "Time that counts",
            "At that interval, with restarts of 10 minutes, what share of wall-clock time trains the model?",
            lambda: reliability.effective_training_fraction(reliability.daly_interval(60, _mtbf_16k()), 60,
                                                            _mtbf_16k(), restart_s=10 * u.minute),
            unit="%", scale=0.01, hint="`reliability.effective_training_fraction`."),
    numeric("ch9.ex4", "The slowest of a thousand",
            "1,000 workers each take 1 s plus exponential jitter of standard deviation 10 ms (mean zero). "
            "What is the expected time of a synchronous step?",
            lambda: float(fabric.step_times(1000, 1.0, jitter="exponential", jitter_s=0.010)
                          .expected_step_s[0]), unit="s", rtol=0.001,
            hint="The expected maximum: t₀ + σ (H_N − 1); `fabric.step_times`."),
    choice("ch9.q1", "Who sets the pace",
           "In synchronous data-parallel training the step time is set by ...",
           ["the average worker", "the slowest worker", "the fastest worker"], "b"),
    choice("ch9.q2", "More workers, same jitter",
           "Each worker's jitter stays the same while the job grows from 1,000 to 100,000 workers. The "
           "expected step time ...",
           ["grows", "stays the same", "shrinks"],
           lambda: "a" if float(fabric.step_times(100_000, 1.0, jitter="exponential", jitter_s=0.01)
                                .expected_step_s[0]) > float(fabric.step_times(
                                    1000, 1.0, jitter="exponential", jitter_s=0.01).expected_step_s[0])
           else "b"),
    choice("ch9.q3", "Faster checkpoints",
           "Halving the checkpoint time changes Young's optimal interval by a factor of about ...",
           ["1/2", "1/√2", "1"],
           lambda: min((("a", 0.5), ("b", 2**-0.5), ("c", 1.0)), key=lambda o: abs(
               reliability.young_interval(30, 3 * u.hour) / reliability.young_interval(60, 3 * u.hour)
               - o[1]))[0]),
    choice("ch9.q4", "Twice the GPUs",
           "Doubling a job's GPUs (same per-GPU failure rate) changes its MTBF by a factor of ...",
           ["1/2", "1/√2", "2"],
           lambda: "a" if abs(reliability.system_mtbf(2000, 1e6) / reliability.system_mtbf(1000, 1e6) - 0.5)
           < 1e-12 else "b"),
    numeric("ch9.q5", "Young's interval",
            "What is Young's optimal checkpoint interval for 60 s checkpoints and a 3-hour MTBF?",
            lambda: reliability.young_interval(60, 3 * u.hour), unit="minutes", scale=u.minute,
            hint="√(2 δ M)."),
]


# --- Chapter 10: power, optics and the road ahead ------------------------------------
def _mw_energy():
    return energy.lifetime_energy_j(1 * u.MW, 5, pue=1.3)


CH10 = [
    numeric("ch10.ex1", "A megawatt for five years",
            "A cluster draws 1 MW of IT power around the clock for five years at a PUE of 1.3. How much "
            "energy does the facility use?",
            _mw_energy, unit="GWh", scale=u.GWh,
            hint="Power × PUE × time; `energy.lifetime_energy_j`."),
    numeric("ch10.ex2", "Its bill",
            "At an assumed 0.08 USD per kWh, what does that energy cost?",
            lambda: energy.energy_cost_usd(_mw_energy(), 0.08), unit="million USD", scale=u.MUSD,
            hint="`energy.energy_cost_usd`; mind kWh against J."),
    numeric("ch10.ex3", "Energy per bit",
            "An optical module for an Ethernet 800G port (catalog rate) draws an assumed 15 W. What is its "
            "energy per bit, counting one direction's traffic?",
            lambda: energy.energy_per_bit_j(15.0, catalog.link("Ethernet 800G").per_direction_bytes_per_s),
            unit="pJ/bit", scale=u.pJ, hint="Power over bits per second; `energy.energy_per_bit_j`."),
    numeric("ch10.ex4", "An H100-sized die",
            "With the library's default defect density and no spare cores, what share of H100-sized dies "
            "(`silicon.H100_DIE`) has no defect?",
            lambda: silicon.chip_yield(silicon.H100_DIE.area_m2), unit="%", scale=0.01,
            hint="Poisson yield exp(−D A); `silicon.chip_yield`."),
    choice("ch10.q1", "PUE",
           "A PUE of 1.3 means ...",
           ["the facility draws 1.3 W for each watt the IT equipment uses", "30 % of the IT power is wasted "
            "in the GPUs", "the cooling uses 1.3 W per watt of IT"], "a"),
    choice("ch10.q2", "Copper and optics",
           "Over a few metres inside a rack, which link end uses the least energy per bit?",
           ["passive copper (DAC)", "a pluggable single-mode optical module", "a multimode optical module"],
           "a", hint="A passive cable has no electronics of its own."),
    choice("ch10.q3", "Co-packaged optics",
           "Where do co-packaged optics save power against pluggable modules?",
           ["the laser uses no power", "the electrical path from switch chip to optics is millimetres, so "
            "retimers and long-reach SerDes go", "the fibre is shorter"], "b"),
    choice("ch10.q4", "Spare cores",
           "Why do spare cores raise the yield of a very large chip?",
           ["a defect then disables one core, not the whole die", "they lower the defect density",
            "they make the die smaller"], "a",
           hint="Compare `silicon.chip_yield` with and without `spare_cores`."),
    numeric("ch10.q5", "A smaller module",
            "An Ethernet 400G port's optical module draws an assumed 8 W. What is its energy per bit, one "
            "direction's traffic?",
            lambda: energy.energy_per_bit_j(8.0, catalog.link("Ethernet 400G").per_direction_bytes_per_s),
            unit="pJ/bit", scale=u.pJ),
]

# --- Chapter 11: mixture of experts and all-to-all -----------------------------------
def _deepseek():
    return moe.moe_model("DeepSeek-V3")


CH11 = [
    numeric("ch11.ex1", "How many GPUs a token visits",
            "DeepSeek-V3 routes each token to its top-k of its routed experts (`moe.moe_model`). With the "
            "experts spread evenly over 64 GPUs of expert parallelism and uniform routing, on how many "
            "distinct GPUs does a token's set of experts lie, on average?",
            lambda: moe.expected_ranks_per_token(_deepseek().experts, _deepseek().top_k, 64), unit="GPUs",
            hint="One minus the chance that a GPU holds none of the token's experts, times the GPUs; "
                 "`moe.expected_ranks_per_token`."),
    numeric("ch11.ex2", "Bytes of one dispatch",
            "One GPU holds 4,096 tokens of DeepSeek-V3 and dispatches them in FP8 (one byte per element) over "
            "64-way expert parallelism, uniform routing, no deduplication. How many bytes does it send?",
            lambda: moe.all_to_all_traffic(4096, _deepseek().hidden_size, _deepseek().top_k, 64,
                                           bytes_per_element=1.0).sent_bytes, unit="MB", scale=u.MB,
            hint="Tokens × copies sent to other GPUs × hidden size × bytes; `moe.all_to_all_traffic`."),
    numeric("ch11.ex3", "FP8's scaling factors",
            "FP8 dispatch carries one 4-byte scale per 128 elements of a token. How many bytes of scales "
            "does one DeepSeek-V3 token carry?",
            lambda: moe.fp8_scale_bytes(_deepseek().hidden_size), unit="bytes", exact=True,
            hint="`moe.fp8_scale_bytes(hidden_size)`."),
    numeric("ch11.ex4", "Senders at one receiver",
            "In a flat all-to-all over 64 GPUs in nodes of 8, how many senders write to one GPU over the "
            "network at the same moment?",
            lambda: moe.incast_fan_in(64, 8), unit="senders", exact=True,
            hint="Every GPU outside the receiver's node; `moe.incast_fan_in`."),
    choice("ch11.q1", "All-to-all against all-reduce",
           "What sets the all-to-all of an MoE layer apart from a data-parallel all-reduce?",
           ["each GPU sends different data to each peer, and nothing is summed", "it moves fewer bytes, always",
            "it runs once per step, after the backward pass"], "a"),
    choice("ch11.q2", "Skewed routing",
           "When some experts are far more popular than others, the dispatch takes as long as ...",
           ["the average GPU's share", "the GPU holding the hottest experts", "the least loaded GPU"], "b"),
    numeric("ch11.q3", "Hierarchical all-to-all",
            "With the all-to-all made hierarchical (NVLink inside the node first), how many senders write to "
            "one GPU over the network at once, 64 GPUs in nodes of 8?",
            lambda: moe.incast_fan_in(64, 8, hierarchical=True), unit="senders", exact=True),
    choice("ch11.q4", "GPU-initiated communication",
           "What does GPU-initiated communication (as in DeepEP) save against a host-initiated NCCL call?",
           ["the kernel launch and CPU round trip per transfer", "bytes on the wire", "HBM capacity"], "a"),
    choice("ch11.q5", "Why a big NVLink domain helps MoE most",
           "Why does a 72-GPU NVLink domain matter more for MoE than for dense models?",
           ["more of the all-to-all stays on NVLink instead of the slower scale-out network",
            "MoE needs more HBM per GPU", "MoE layers have no all-reduce"], "a"),
]


# --- Chapter 12: inference traffic ---------------------------------------------------
def _decode():
    return inference.tensor_parallel_decode_all_reduce("Llama 3 70B", 8)


CH12 = [
    numeric("ch12.ex1", "A prompt's KV cache",
            "How large is the KV cache of a 4,096-token Llama 3 70B prompt in BF16, the bytes a "
            "disaggregated deployment moves from prefill to decode (`inference.kv_transfer`)?",
            lambda: inference.kv_transfer("Llama 3 70B", 4096).kv_bytes, unit="GiB", scale=u.GiB,
            hint="Mind GiB against GB: papers often print one as the other."),
    numeric("ch12.ex2", "Moving it over one port",
            "How long does that transfer take from one sender over one InfiniBand NDR port, not layer by "
            "layer?",
            lambda: inference.kv_transfer("Llama 3 70B", 4096).total_s, unit="ms", scale=u.ms,
            hint="`inference.kv_transfer(model, tokens, link=...)`.", binary_prefixes=True),
    numeric("ch12.ex3", "All-reduces per token",
            "Decoding Llama 3 70B with 8-way tensor parallelism, how many all-reduces does each generated "
            "token take?",
            lambda: _decode().all_reduces_per_token, unit="all-reduces", exact=True,
            hint="Two per layer (after attention, after the MLP)."),
    numeric("ch12.ex4", "Their time per token",
            "At batch 1 over NVLink 4 with the ring, how long do those all-reduces take together per token?",
            lambda: _decode().all_reduces_per_token * _decode().all_reduce.time_s, unit="ms", scale=u.ms,
            hint="Count × one all-reduce's time; each is latency-bound."),
    choice("ch12.q1", "Prefill and decode",
           "Which is true of prefill against decode?",
           ["prefill is compute-bound; decode reads all weights for few tokens and is memory- and "
            "latency-bound", "both are compute-bound", "decode is compute-bound; prefill is memory-bound"],
           "a"),
    choice("ch12.q2", "What limits a decode all-reduce",
           "At batch 1, what dominates one tensor-parallel all-reduce of decode?",
           ["its latency term", "its bandwidth term"],
           lambda: _pick(_decode().all_reduce.latency_term_s > _decode().all_reduce.bandwidth_term_s)),
    choice("ch12.q3", "Disaggregated serving",
           "What crosses the network between prefill and decode GPUs in disaggregated serving?",
           ["the weights", "the gradients", "the prompt's KV cache"], "c"),
    numeric("ch12.q4", "One all-reduce's message",
            "How large is one of those all-reduce messages at batch 1 (one token's hidden vector in BF16)?",
            lambda: _decode().message_bytes, unit="KiB", scale=u.KiB),
    choice("ch12.q5", "Reading a paper's GB",
           "A paper prints a KV cache's size in 'GB' that it computed in 2³⁰-byte units. Quoted in decimal "
           "GB, the size is ...",
           ["larger", "the same", "smaller"], "a",
           hint="A GiB is about 7 % more than a GB."),
]


# --- Chapter 13: topologies beyond the fat tree --------------------------------------
CH13 = [
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

# --- Chapter 14: scale-up fabrics and the Ethernet roadmap ---------------------------
def _th6_reach(radix):
    return next(r for r in roadmap.fat_tree_reach("Tomahawk 6") if r.radix == radix)


CH14 = [
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

#: Every checked exercise and quiz question, by key.
EXERCISES = {spec.key: spec for spec in (*CH1, *CH2, *CH3, *CH4, *CH5, *CH6, *CH7, *CH8, *CH9, *CH10,
                                         *CH11, *CH12, *CH13, *CH14)}


def keys(chapter: str, kind: str | None = None) -> list[str]:
    """The keys of one chapter (``"ch7"``), optionally only exercises (``"ex"``) or quiz (``"q"``).

    Parameters
    ----------
    chapter : str
        The chapter, ``"ch7"``.
    kind : str, optional
        ``"ex"`` for exercises or ``"q"`` for quiz questions; both by default.
    """
    prefix = f"{chapter}." + (kind or "")
    return [key for key in EXERCISES if key.startswith(prefix)]
