"""Chapter 3, PCIe, CXL and the memory wall: its checked exercises and quiz questions."""

from __future__ import annotations

from ... import catalog, memory, training
from ... import units as u
from ._common import choice, numeric, pick


def _llama70():
    return training.transformer_model("Llama 3 70B")


def _state_total(model):
    state = memory.training_state(model)
    return state.weights_bytes + state.gradients_bytes + state.optimizer_bytes


ENTRIES = [
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
    numeric("ch3.ex5", "ZeRO-Offload's ceiling",
            "ZeRO-Offload keeps all the 16-bit weights on every GPU and the optimizer on the host. What is "
            "the largest model it fits on 80 GB H100s, however many GPUs share the state "
            "(`memory.offload_limits`, HBM limit), in billions of parameters?",
            lambda: memory.offload_limits("ZeRO-Offload", "H100 SXM", shards=8).hbm_parameters / 1e9,
            unit="billion parameters", hint="2 bytes per weight, whole on every GPU: 80 GB / 2 B."),
    numeric("ch3.ex6", "PCIe Gen6 on a current host",
            "On a host with 12 channels of DDR5-6400 (`catalog.host(\"Xeon 6 6900P, 12 x DDR5-6400\")`), how "
            "many times faster than PCIe Gen5 x16 does Gen6 x16 move ZeRO-Offload's copies: the ratio of "
            "the two paths' rates (`memory.offload_path(name, host=...).read_bytes_per_s`)?",
            lambda: (memory.offload_path("host DDR5 over PCIe Gen6 x16", host="Xeon 6 6900P, 12 x DDR5-6400")
                     .read_bytes_per_s / memory.offload_path("host DDR5 over PCIe Gen5 x16",
                                                        host="Xeon 6 6900P, 12 x DDR5-6400").read_bytes_per_s),
            unit="x", hint="Each path runs at the slower of its link and the GPU's share of host memory."),
    choice("ch3.q1", "A NIC in a narrow slot",
           "Can a 200 Gb/s network adapter run at line rate in a PCIe Gen4 slot wired with 8 lanes?",
           ["yes", "no"],
           lambda: pick(catalog.link("PCIe Gen4 x16").per_direction_bytes_per_s / 2 >= 200 * u.Gbit_per_s),
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
