"""Inference traffic: decode all-reduces, KV transfer, TTFT and ITL, bad input.

Hostile input is at the end (and fuzzed with tests/fuzzing.py where noted).
"""

import pytest
from hypothesis import given, settings, strategies as st

from fuzzing import Case, choice, count, flag, fraction, make_tests, mixed, nonnegative, optional, positive

from interconnect_lab import catalog, collectives, inference, memory
from interconnect_lab.published.inference import (
    DISTSERVE_KV_EXAMPLE, MULTISHOT_SPEEDUP, SPLITWISE_KV_TRANSFER,
)


def test_decode_all_reduce_message_and_count():
    ar = inference.tensor_parallel_decode_all_reduce("Llama 3 70B", 8, batch=4)
    assert ar.message_bytes == 4 * 8192 * 2
    assert ar.all_reduces_per_token == 2 * 80
    assert ar.per_token_s == pytest.approx(160 * ar.all_reduce.time_s)
    assert ar.per_layer_s == pytest.approx(2 * ar.all_reduce.time_s)


def test_decode_all_reduce_is_latency_bound_and_uses_the_low_latency_protocol():
    ar = inference.tensor_parallel_decode_all_reduce("Llama 3 70B", 8, batch=1)
    assert ar.all_reduce.latency_bound and ar.latency_share > 0.9
    ll = collectives.NCCL_LATENCIES["LL"]
    assert ar.all_reduce.latency_term_s == pytest.approx(ll.base_latency_s + 14 * ll.nvlink_step_latency_s)


def test_one_gpu_needs_no_all_reduce():
    assert inference.tensor_parallel_decode_all_reduce("Llama 3 8B", 1).per_token_s == 0.0


def test_nvlink_sharp_takes_fewer_steps_than_the_ring():
    ring = inference.tensor_parallel_decode_all_reduce("Llama 3 70B", 8, algorithm="ring")
    nvls = inference.tensor_parallel_decode_all_reduce("Llama 3 70B", 8, algorithm="nvls")
    assert nvls.all_reduce.steps < ring.all_reduce.steps and nvls.per_token_s < ring.per_token_s


def test_distserve_kv_cache_of_one_opt66b_request():
    # DistServe (Zhong et al., OSDI 2024) §3.3: "the KV cache size of a single 512-token request on
    # OPT-66B is approximately 1.13GB" -- their GB are GiB: 2 x 64 layers x 9,216 x 2 B x 512 = 1.125 GiB.
    example = DISTSERVE_KV_EXAMPLE
    transfer = inference.kv_transfer(example.model, example.prompt_tokens)
    assert transfer.kv_bytes / 2**30 == pytest.approx(example.kv_bytes_as_stated / 1e9, rel=0.01)


def test_distserve_bandwidth_for_ten_requests_per_second():
    # DistServe §3.3: at 10 requests/s, "11.3GB data per second -- or equivalently 90Gbps", in binary
    # units (2^30 bit/s); in SI units the same traffic is 96.6 Gb/s.
    example = DISTSERVE_KV_EXAMPLE
    kv = inference.kv_transfer(example.model, example.prompt_tokens).kv_bytes
    bits_per_s = kv * example.requests_per_s * 8
    assert bits_per_s / 2**30 == pytest.approx(example.bandwidth_bit_per_s_as_stated / 1e9, rel=0.01)
    assert bits_per_s / 1e9 == pytest.approx(96.6, rel=0.005)


def test_splitwise_twice_the_bandwidth_halves_the_serialized_transfer():
    # Splitwise (Patel et al., ISCA 2024) §VI-A: the H100 setup (400 Gb/s) transfers "about twice as
    # fast" as the A100 setup (200 Gb/s); a large prompt's serialized transfer is bandwidth-bound.
    observed = SPLITWISE_KV_TRANSFER
    assert observed.faster_link_bit_per_s == 2 * observed.slower_link_bit_per_s
    a100 = inference.kv_transfer("Llama 2 70B", 8192, senders=8, link="InfiniBand HDR")
    h100 = inference.kv_transfer("Llama 2 70B", 8192, senders=8, link="InfiniBand NDR")
    assert a100.total_s / h100.total_s == pytest.approx(observed.serialized_speedup, rel=0.05)


def test_multishot_speedup_lies_between_the_two_protocols():
    # TensorRT-LLM MultiShot (NVIDIA blog, 2024): two-step all-reduce "up to 3x" faster than the ring on
    # 8 GPUs. The model's ring/NVLS ratio for a decode message brackets it: below with NCCL's LL
    # constants, above with its Simple ones.
    claim = MULTISHOT_SPEEDUP

    def ratio(protocol):
        slow = inference.tensor_parallel_decode_all_reduce("Llama 3 70B", claim.n_ranks, protocol=protocol,
                                                           algorithm=claim.slower)
        fast = inference.tensor_parallel_decode_all_reduce("Llama 3 70B", claim.n_ranks, protocol=protocol,
                                                           algorithm=claim.faster)
        return slow.per_token_s / fast.per_token_s

    assert 1.5 < ratio("LL") < claim.speedup < ratio("Simple") < 2 * claim.speedup


def test_layerwise_transfer_exposes_one_layer():
    whole = inference.kv_transfer("Llama 3 70B", 8192, senders=8)
    layered = inference.kv_transfer("Llama 3 70B", 8192, senders=8, layerwise=True)
    assert layered.exposed_s < whole.exposed_s == whole.total_s
    assert layered.total_s == whole.total_s
    assert whole.kv_bytes == memory.kv_cache_bytes(inference.inference_model("Llama 3 70B"), 8192)


def test_deployment_parts_add_up():
    d = inference.serving_deployment("Llama 3 70B", tensor_parallel=8, batch=16, prompt_tokens=4096,
                                     layerwise=False)
    assert d.ttft_s == pytest.approx(d.prefill_compute_s + d.prefill_communication_s + d.kv.total_s)
    assert d.itl_s == pytest.approx(d.decode_memory_s + d.decode.per_token_s)
    assert 0 < d.ttft_network_share < 1 and 0 < d.itl_network_share < 1
    assert d.tokens_per_s == pytest.approx(16 / d.itl_s)
    colocated = inference.serving_deployment("Llama 3 70B", tensor_parallel=8, batch=16, prompt_tokens=4096,
                                             disaggregated=False)
    assert colocated.kv is None and colocated.ttft_s < d.ttft_s


@settings(max_examples=25, deadline=None)
@given(batch=st.sampled_from([1, 4, 16, 64]), prompt=st.sampled_from([256, 2048, 16384]))
def test_latencies_grow_with_batch_and_prompt(batch, prompt):
    d = inference.serving_deployment("Llama 3 8B", tensor_parallel=4, batch=batch, prompt_tokens=prompt)
    more = inference.serving_deployment("Llama 3 8B", tensor_parallel=4, batch=2 * batch, prompt_tokens=2 * prompt)
    assert more.itl_s > d.itl_s and more.ttft_s > d.ttft_s


def test_more_tensor_parallelism_raises_the_network_share_of_decode():
    shares = [inference.serving_deployment("Llama 3 70B", tensor_parallel=t, batch=1).itl_network_share
              for t in (2, 4, 8)]
    assert shares == sorted(shares)


@pytest.mark.parametrize(("call", "message"), [
    (lambda: inference.serving_deployment("Llama 3 70B", tensor_parallel=16), "scale-up domain of 8 GPUs"),
    (lambda: inference.serving_deployment("Llama 3 70B", tensor_parallel=3, domain_size=8),
     "does not split Llama 3 70B's 8 key/value heads"),
    (lambda: inference.serving_deployment("Llama 3 70B", batch=0), "batch = 0"),
    (lambda: inference.serving_deployment("Llama 3 70B", prompt_tokens=0), "prompt_tokens = 0 token"),
    (lambda: inference.tensor_parallel_decode_all_reduce("Llama 3 70B", 8, algorithm="tree"), "valid algorithms"),
    (lambda: inference.tensor_parallel_decode_all_reduce("Llama 3 70B", 8, protocol="fast"), "valid protocols"),
    (lambda: inference.kv_transfer("Llama 3 70B", -5), "prompt_tokens = -5 token"),
    (lambda: inference.inference_model("GPT-4"), "valid model names are"),
])
def test_bad_input_names_the_parameter(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_model_must_be_a_model_or_a_name():
    with pytest.raises(TypeError):
        inference.inference_model(70)


# Hostile input: fuzzed with tests/fuzzing.py -----------------------------------------------------

LINKS = tuple(catalog.LINKS)

GPUS = tuple(catalog.GPUS)

NVLINKS = tuple(name for name in LINKS if name.startswith("NVLink "))

NETWORK_LINKS = tuple(name for name in LINKS if name.startswith(("InfiniBand", "Ethernet")))

INFERENCE_MODELS = tuple(inference.INFERENCE_MODELS)

power_of_two = mixed(st.sampled_from([1, 2, 4, 8, 16, 32, 64, 128, 256]))


def decode_all_reduce_consistent(result, kwargs):
    assert result.per_token_s == result.all_reduces_per_token * result.all_reduce_s >= 0


def kv_transfer_within_link(result, kwargs):
    rate = collectives.link_parameters(catalog.link(kwargs["link"]))["bandwidth_bytes_per_s"]
    assert result.bandwidth_bytes_per_s <= rate * kwargs["senders"] * (1 + 1e-9)
    assert 0 <= result.exposed_s <= result.total_s


def serving_consistent(result, kwargs):
    assert result.ttft_s > 0 and result.itl_s > 0


inference_model = choice(INFERENCE_MODELS)

FUZZ_CASES = [
    Case(inference.inference_model, dict(model=inference_model)),
    Case(inference.tensor_parallel_decode_all_reduce, dict(
        model=inference_model, tensor_parallel=power_of_two, batch=count(1, 4096),
        scale_up_link=choice(NVLINKS + NETWORK_LINKS), algorithm=choice(inference.SERVING_ALGORITHMS),
        protocol=choice(tuple(collectives.NCCL_LATENCIES)), bytes_per_element=positive(0.5, 4.0)),
         check=decode_all_reduce_consistent),
    Case(inference.kv_transfer, dict(
        model=inference_model, prompt_tokens=nonnegative(1.0, 1e17), senders=count(1, 64),
        link=choice(NETWORK_LINKS), layerwise=flag(), bytes_per_element=positive(0.5, 4.0)),
         check=kv_transfer_within_link),
    Case(inference.serving_deployment, dict(
        model=inference_model, gpu=choice(GPUS), tensor_parallel=power_of_two, batch=count(1, 512),
        prompt_tokens=positive(1.0, 1e17), context_tokens=optional(positive(1.0, 1e17)),
        domain_size=power_of_two, kv_link=choice(NETWORK_LINKS), disaggregated=flag(), layerwise=flag(),
        algorithm=choice(inference.SERVING_ALGORITHMS), compute_efficiency=optional(fraction(0.01, 1.0))),
         check=serving_consistent, examples=0.5),
]


# Hostile input -----------------------------------------------------------------------------------

@pytest.mark.usefixtures("warnings_are_errors")
@pytest.mark.parametrize(("call", "error", "message"), [
    # message_bytes = inf, refused inside the collective model as "size_bytes"
    (lambda i: i.tensor_parallel_decode_all_reduce("Llama 3 70B", 8, bytes_per_element=1.7e308), ValueError,
     r"bytes_per_element = 1\.7e\+308 B is not valid: it must be in \(0, 64\] B"),
    (lambda i: i.tensor_parallel_decode_all_reduce("Llama 3 70B", 8, bytes_per_element=(2, 3)), TypeError,
     "bytes_per_element must be a single real number"),
    (lambda i: i.serving_deployment("Llama 3 70B", 1.5), TypeError, r"gpu must be a GPU or the name of one \('"),
    # an overflow in memory.decode_step (context x batch), then "tokens = ..." from the KV cache
    (lambda i: i.serving_deployment("Llama 3 70B", context_tokens=1.7e308), ValueError,
     r"context_tokens = 1\.7e\+308 token is not valid: it must be in \[1, 1e\+15\] token"),
    (lambda i: i.serving_deployment("Llama 3 70B", disaggregated=1), TypeError, "disaggregated must be True or False"),
    # an infinite time to first token
    (lambda i: i.serving_deployment("GPT-3 175B", "A100 SXM", tensor_parallel=1, compute_efficiency=5e-324), ValueError,
     r"compute_efficiency = 4\.94066e-324 is not valid: it must be in \[0\.001, 1\]"),
    (lambda i: i.serving_deployment("GPT-3 175B", "A100 SXM", tensor_parallel=1, compute_efficiency=[1.0]), TypeError,
     "compute_efficiency must be a single real number"),
    (lambda i: i.kv_transfer("OPT-66B", 512, layerwise="no"), TypeError, "layerwise must be True or False"),
    (lambda i: i.kv_transfer("OPT-66B", 512, link=400e9), TypeError, r"link must be a Link or the name of one \('"),
])
def test_inference_inputs(call, error, message):
    from interconnect_lab import inference
    with pytest.raises(error, match=message):
        call(inference)

test_fuzz, test_fuzz_nightly = make_tests(FUZZ_CASES)
