"""Chapter 11, mixture of experts and all-to-all: its checked exercises and quiz questions."""

from __future__ import annotations

from ... import moe
from ... import units as u
from ._common import choice, numeric


def _deepseek():
    return moe.moe_model("DeepSeek-V3")


ENTRIES = [
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
