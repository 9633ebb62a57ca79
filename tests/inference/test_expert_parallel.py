"""Wide expert parallelism in decode: data-parallel attention, dispatch and combine every MoE layer.

Published values: SGLang's DeepSeek deployments on H100 and GB200 NVL72 (LMSYS blogs), DeepSeek's
production statistics (inference overview). The all-to-alls are the MoE model's (issue 35).
Hostile input at the end, fuzzed with tests/fuzzing.py.
"""

import pytest
from hypothesis import strategies as st

from fuzzing import Case, choice, count, flag, make_tests, mixed, positive

from interconnect_lab import moe, inference
from interconnect_lab.published.inference import WIDE_EP_DECODE_THROUGHPUTS


def test_dispatch_and_combine_are_the_moe_models():
    # Issue 35: the same inputs give moe.dispatch_and_combine's numbers.
    d = inference.wide_ep_decode_step(batch_per_gpu=64, overlap=False)
    dispatch, combine = moe.dispatch_and_combine(64, 7168, 8, 144, experts=288, domain_size=8,
                                                 scale_up_link="NVLink 4 (H800)", network_link="InfiniBand NDR",
                                                 kernel="low_latency")
    assert (d.dispatch_s, d.combine_s) == (dispatch.time_s, combine.time_s)
    assert d.network_bytes == dispatch.traffic.network_bytes + combine.traffic.network_bytes


def test_overlap_takes_the_longer_of_compute_and_communication():
    on = inference.wide_ep_decode_step(batch_per_gpu=256)
    off = inference.wide_ep_decode_step(batch_per_gpu=256, overlap=False)
    assert on.layer_s == pytest.approx(max(on.compute_s, on.communication_s))
    assert off.layer_s == pytest.approx(off.compute_s + off.communication_s)
    assert on.step_s < off.step_s


def test_at_small_batch_two_micro_batches_read_the_weights_twice_and_lose():
    on = inference.wide_ep_decode_step(batch_per_gpu=16)
    off = inference.wide_ep_decode_step(batch_per_gpu=16, overlap=False)
    assert on.step_s > off.step_s


def test_sglang_h100_and_gb200_throughputs_fall_between_32_and_64_sequences_per_gpu():
    # LMSYS blogs: 22.3k output tokens/s per 8-H100 node (2,788 per GPU) and 7,583 per GB200 GPU, DeepSeek-V3
    # with 2,000-token inputs. The batch per GPU is not printed; the model reaches each between 32 and 64
    # sequences per GPU of 2,000 tokens, EP72 (9 H100 servers; one NVL72 rack).
    h100, gb200 = WIDE_EP_DECODE_THROUGHPUTS[1], WIDE_EP_DECODE_THROUGHPUTS[2]

    def rate(gpu, domain, batch):
        return inference.wide_ep_decode_step(gpu=gpu, ep_degree=72, domain_size=domain, batch_per_gpu=batch,
                                             context_tokens=2000).tokens_per_s_per_gpu

    assert rate("H100 SXM", 8, 32) < h100.tokens_per_s_per_gpu < rate("H100 SXM", 8, 64)
    assert rate("GB200", 72, 32) < gb200.tokens_per_s_per_gpu < rate("GB200", 72, 64)


def test_gb200_to_h100_ratio_at_equal_batch_is_sglangs_within_15_percent():
    # LMSYS GB200 part I: "a 2.7x speedup compared to the H100 per GPU". The model at 64 sequences per GPU: 2.4x.
    h100, gb200 = WIDE_EP_DECODE_THROUGHPUTS[1], WIDE_EP_DECODE_THROUGHPUTS[2]
    model = (inference.wide_ep_decode_step(gpu="GB200", ep_degree=72, domain_size=72, batch_per_gpu=64,
                                           context_tokens=2000).tokens_per_s_per_gpu
             / inference.wide_ep_decode_step(gpu="H100 SXM", ep_degree=72, batch_per_gpu=64,
                                             context_tokens=2000).tokens_per_s_per_gpu)
    assert model == pytest.approx(gb200.tokens_per_s_per_gpu / h100.tokens_per_s_per_gpu, rel=0.15)


def test_deepseeks_production_average_is_below_the_models_bound():
    # DeepSeek's overview: ~14.8k output tokens/s per H800 node (1,850 per GPU), average KV length 4,989. The
    # model, EP144 at the largest batch that fits (128 sequences), is a lower bound on the step: it gives more.
    row = WIDE_EP_DECODE_THROUGHPUTS[0]
    d = inference.wide_ep_decode_step(batch_per_gpu=128, context_tokens=row.input_tokens)
    assert d.fits_hbm and not inference.wide_ep_decode_step(batch_per_gpu=160,
                                                            context_tokens=row.input_tokens).fits_hbm
    assert 1.5 < d.tokens_per_s_per_gpu / row.tokens_per_s_per_gpu < 3


def test_an_nvl72_rack_keeps_the_all_to_alls_off_the_network():
    rack = inference.wide_ep_decode_step(gpu="GB200", ep_degree=72, domain_size=72)
    assert rack.network_bytes == 0 and rack.nvlink_bytes > 0
    servers = inference.wide_ep_decode_step(gpu="H100 SXM", ep_degree=72)
    assert servers.network_bytes > servers.nvlink_bytes


def test_fp8_cache_shortens_attention_at_long_context():
    bf16 = inference.wide_ep_decode_step(context_tokens=32768, batch_per_gpu=32)
    fp8 = inference.wide_ep_decode_step(context_tokens=32768, batch_per_gpu=32, kv_format="FP8")
    assert fp8.attention_s < bf16.attention_s and fp8.kv_bytes < bf16.kv_bytes


def test_each_gpu_holds_its_share_of_the_experts():
    wide = inference.wide_ep_decode_step(ep_degree=144)
    narrow = inference.wide_ep_decode_step(ep_degree=72, batch_per_gpu=64)
    expert_bytes = 58 * moe.moe_model("DeepSeek-V3").expert_parameters
    assert narrow.weights_bytes - wide.weights_bytes == pytest.approx(2 * expert_bytes)


@pytest.mark.parametrize(("call", "error", "message"), [
    (lambda: inference.wide_ep_decode_step(ep_degree=100), ValueError, "ep_degree = 100 is not valid"),
    (lambda: inference.wide_ep_decode_step("Llama 3 70B"), ValueError, "is dense"),
    (lambda: inference.wide_ep_decode_step(batch_per_gpu=1), ValueError, "batch_per_gpu = 1"),
    (lambda: inference.wide_ep_decode_step(kernel="carrier pigeon"), ValueError, "kernel"),
    (lambda: inference.wide_ep_decode_step(kv_format="INT4"), ValueError, "valid kv_formats"),
    (lambda: inference.wide_ep_decode_step(imbalance_factor=0.5), ValueError, "imbalance_factor = 0.5"),
    (lambda: inference.wide_ep_decode_step(gpu="H900"), ValueError, "H900"),
    (lambda: inference.wide_ep_decode_step(overlap="yes"), TypeError, "overlap must be True or False"),
])
def test_bad_input_names_the_parameter(call, error, message):
    with pytest.raises(error, match=message):
        call()


def step_consistent(result, kwargs):
    assert result.step_s > 0 and result.tokens_per_s_per_gpu > 0
    assert result.layer_s >= max(result.compute_s, result.communication_s) * (1 - 1e-12)


FUZZ_CASES = [
    Case(inference.wide_ep_decode_step, dict(
        gpu=choice(("H800 SXM", "H100 SXM", "H200 SXM", "B200", "GB200")),
        ep_degree=mixed(st.sampled_from([8, 16, 32, 48, 72, 96, 144, 288])),
        domain_size=mixed(st.sampled_from([8, 72])), batch_per_gpu=count(2, 1024), context_tokens=positive(1.0, 1e6),
        kv_format=choice(inference.KV_CACHE_FORMATS), redundant_experts=mixed(st.sampled_from([0, 32, 64])),
        kernel=choice(("nccl", "normal", "low_latency", "host_proxied")), overlap=flag(),
        imbalance_factor=positive(1.0, 4.0)),
         check=step_consistent, examples=0.5),
]

test_fuzz, test_fuzz_nightly = make_tests(FUZZ_CASES)
