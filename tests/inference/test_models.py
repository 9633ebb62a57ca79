"""The serving models and their KV caches: grouped-query and latent (MLA) attention, BF16 and FP8.

Published values: DeepSeek-V2 §2.1 (MLA equals GQA with 2.25 groups), FlashMLA's FP8 format (656 B per
token and layer), the vLLM paper (KV per token). Hostile input at the end, fuzzed with tests/fuzzing.py.
"""

import pytest
from hypothesis import strategies as st

from fuzzing import Case, choice, make_tests, mixed, nonnegative, positive

from interconnect_lab import inference, memory, moe, training
from interconnect_lab.inference import LATENT_ATTENTION, kv_bytes_per_token, prefill_flops


def test_llama_keeps_320_kib_per_token_in_bf16_and_half_in_fp8():
    llama = inference.inference_model("Llama 3 70B")
    assert kv_bytes_per_token(llama) == memory.kv_cache_bytes(llama, 1) == 320 * 1024
    assert kv_bytes_per_token(llama, "FP8") == 160 * 1024


def test_mla_caches_what_gqa_with_two_and_a_quarter_groups_would():
    # DeepSeek-V2 §2.1: (d_c + d_h^R) l elements per token, "equal to GQA with only 2.25 groups" of d_h = 128.
    mla = LATENT_ATTENTION["DeepSeek-V3"]
    assert mla.cached_elements == 576 == 2 * 2.25 * 128
    assert kv_bytes_per_token("DeepSeek-V3") == 61 * 576 * 2


def test_flashmla_fp8_cache_is_656_bytes_per_token_and_layer():
    # FlashMLA README: 512 float8_e4m3 values, 4 float32 scales, 64 bfloat16 rotary values.
    assert kv_bytes_per_token("DeepSeek-V3", "FP8") == 61 * (512 + 16 + 128) == 61 * 656


def test_mla_decode_flops_per_cached_token():
    # Absorbed MLA ("MQA mode"): scores over 576 elements and sums of 512, per head.
    assert LATENT_ATTENTION["DeepSeek-V3"].decode_flops_per_cached_token() == 2 * 128 * (576 + 512)


def test_prefill_flops_split_into_weights_and_causal_attention():
    llama = inference.inference_model("Llama 3 70B")
    prompt = 4096
    linear = 2 * training.parameter_count(llama) * prompt
    attention = llama.layers * 4 * llama.heads * llama.head_dim * prompt ** 2 / 2
    assert prefill_flops(llama, prompt) == pytest.approx(linear + attention)
    assert prefill_flops(llama, prompt, prompt) == 0.0
    # The cached half saves more than half: the new tokens attend to the whole context.
    assert prefill_flops(llama, prompt, prompt / 2) < prefill_flops(llama, prompt) / 2 + attention / 2


def test_moe_prefill_counts_activated_weights_only():
    model = moe.moe_model("DeepSeek-V3")
    assert prefill_flops(model, 1) == pytest.approx(2 * model.activated_parameters, rel=1e-4)


@pytest.mark.parametrize(("call", "error", "message"), [
    (lambda: kv_bytes_per_token("Llama 3 70B", "INT4"), ValueError, "valid kv_formats"),
    (lambda: kv_bytes_per_token("Mixtral 8x7B"), ValueError, "valid model names"),
    (lambda: inference.serving_model(moe.moe_model("Mixtral 8x7B")), ValueError, "has no attention dimensions"),
    (lambda: prefill_flops("Llama 3 70B", 100, 200), ValueError, r"cached_tokens = 200 token is not valid"),
    (lambda: prefill_flops("Llama 3 70B", 0), ValueError, "prompt_tokens = 0 token"),
    (lambda: inference.LatentAttention(heads=0, kv_rank=512, rope_head_dim=64, value_head_dim=128), ValueError,
     "LatentAttention.heads"),
    (lambda: inference.inference_model(70), TypeError, "model must be a TransformerModel"),
])
def test_bad_input_names_the_parameter(call, error, message):
    with pytest.raises(error, match=message):
        call()


MODELS = tuple(inference.SERVING_MODELS)

FUZZ_CASES = [
    Case(inference.inference_model, dict(model=choice(tuple(inference.INFERENCE_MODELS)))),
    Case(inference.serving_model, dict(model=choice(MODELS + ("Mixtral 8x7B",)))),
    Case(inference.kv_bytes_per_token, dict(model=choice(MODELS), kv_format=choice(inference.KV_CACHE_FORMATS))),
    Case(inference.prefill_flops, dict(model=choice(MODELS), prompt_tokens=positive(1.0, 1e6),
                                       cached_tokens=nonnegative(1.0, 1e6))),
]

test_fuzz, test_fuzz_nightly = make_tests(FUZZ_CASES)
