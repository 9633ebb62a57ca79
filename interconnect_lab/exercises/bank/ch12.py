"""Chapter 12, inference traffic: its checked exercises and quiz questions."""

from __future__ import annotations

from ... import inference
from ... import units as u
from ._common import choice, numeric, pick


def _decode():
    return inference.tensor_parallel_decode_all_reduce("Llama 3 70B", 8)


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
           lambda: pick(_decode().all_reduce.latency_term_s > _decode().all_reduce.bandwidth_term_s)),
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
