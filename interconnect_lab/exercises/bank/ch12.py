"""Chapter 12, inference traffic: its checked exercises and quiz questions."""

from __future__ import annotations

from ... import inference
from ... import units as u
from ._common import choice, numeric, pick


def _decode():
    return inference.tensor_parallel_decode_all_reduce("Llama 3 70B", 8)


def _deepseek():
    return inference.wide_ep_decode_step()


ENTRIES = [
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
            "At batch 1 on 8 H100, with the kernel vLLM runs for them, how long do those all-reduces take "
            "together per token?",
            lambda: _decode().per_token_s, unit="ms", scale=u.ms,
            hint="`inference.tensor_parallel_decode_all_reduce(model, 8).per_token_s`: count × one "
                 "all-reduce, almost all fixed cost."),
    numeric("ch12.ex5", "A latent cache",
            "How many bytes of KV cache does one token of DeepSeek-V3 keep in BF16, over all its layers, "
            "with multi-head latent attention?",
            lambda: inference.kv_bytes_per_token("DeepSeek-V3"), unit="KiB", scale=u.KiB,
            hint="(512 + 64) elements per layer, 2 bytes each, 61 layers: `inference.kv_bytes_per_token`."),
    numeric("ch12.ex6", "The network in wide expert parallelism",
            "In DeepSeek's decode deployment (144 H800, 128 sequences of 4,096 tokens per GPU, "
            "`inference.wide_ep_decode_step()`), how many bytes does each GPU send through the network in "
            "one MoE layer, dispatch and combine together?",
            lambda: _deepseek().network_bytes, unit="MB", scale=u.MB,
            hint="The `network_bytes` of the step; almost every copy leaves the server."),
    numeric("ch12.ex7", "A cached prefix",
            "A 32,768-token Llama 3 70B prompt has 90% of its KV cache in host DRAM. What is its time to "
            "first token on 8 H100, loading the prefix, prefilling the rest and moving the cache to decode "
            "layer by layer?",
            lambda: inference.disaggregated_ttft("Llama 3 70B", 32768, cached_fraction=0.9,
                                                 tier="host DRAM").ttft_s,
            unit="ms", scale=u.ms, hint="`inference.disaggregated_ttft(..., cached_fraction=0.9, tier=...)`."),
    choice("ch12.q1", "Prefill and decode",
           "Which is true of prefill against decode?",
           ["prefill is compute-bound; decode reads all weights for few tokens and is memory- and "
            "latency-bound", "both are compute-bound", "decode is compute-bound; prefill is memory-bound"],
           "a"),
    choice("ch12.q2", "What limits a decode all-reduce",
           "At batch 1, what dominates one tensor-parallel all-reduce of decode on 8 H100?",
           ["its fixed cost (launch and synchronisation)", "moving its bytes over NVLink"],
           lambda: pick(_decode().latency_share > 0.5)),
    choice("ch12.q3", "Disaggregated serving",
           "What crosses the network between prefill and decode GPUs in disaggregated serving?",
           ["the weights", "the gradients", "the prompt's KV cache"], "c"),
    choice("ch12.q4", "What serving engines run",
           "What does vLLM run for a 16 KiB all-reduce among 8 H100 in one server?",
           ["NCCL's ring with the low-latency protocol", "a one-shot kernel: every GPU reads every peer's "
            "buffer over NVLink and adds", "a tree across the network"],
           lambda: "b" if _decode().mechanism == "one_shot" else "a"),
    choice("ch12.q5", "Reading a paper's GB",
           "A paper prints a KV cache's size in 'GB' that it computed in 2³⁰-byte units. Quoted in decimal "
           "GB, the size is ...",
           ["larger", "the same", "smaller"], "a",
           hint="A GiB is about 7 % more than a GB."),
]
