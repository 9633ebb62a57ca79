"""Tests of ``interconnect_lab.training.terms``: each term of the step-time model alone.

Every term has a hand calculation or an identity, and a bad input; the step that adds them
up is tested in test_step.py. Hostile input is at the end.
"""

import dataclasses
import math

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from interconnect_lab import catalog, collectives, matmul, training as tr
from interconnect_lab.training import terms

A100 = tr.cluster("Selene")                       # 8 A100 80 GB per node, 8 HDR ports
H100 = tr.system_cluster("DGX H100")
GPT3 = tr.transformer_model("GPT-3 175B")          # LayerNorm, dropout, learned positions, GELU
LLAMA = tr.transformer_model("Llama 3 8B")         # RMSNorm, no dropout, rotary, SwiGLU, GQA
EFF = tr.DEFAULT_EFFICIENCIES
SC21 = tr.software("Megatron-LM SC21")             # unfused attention, nothing overlapped
FSDP = tr.software("PyTorch FSDP")                 # eager element-wise ops, early stop, op-by-op AdamW
HBM_A100 = terms.hbm_rate(A100, EFF)
GEMM_A100 = terms.gemm_rate(A100, EFF)


def split(**changes):
    values = dict(t=1, p=1, d=1, c=1, b=1, v=1, sequence_parallel=False, global_batch_size=8, recompute="none",
                  zero_stage=0)
    values.update(changes)
    return terms.Split(**values)


# Split -------------------------------------------------------------------------------------------

def test_split_reads_a_parallel_config():
    config = tr.parallel_config(512, global_batch_size=1024, tensor_parallel=8, pipeline_parallel=4,
                                microbatch_size=2, zero_stage=1, recompute="selective")
    s = terms.Split.of(config)
    assert (s.t, s.p, s.d, s.c, s.b, s.v) == (8.0, 4.0, 16.0, 1.0, 2.0, 1.0)
    assert s.microbatches == config.microbatches == 1024 / (16 * 2)
    assert int(s.gpus) == 512 and s.recompute == "selective" and s.zero_stage == 1
    many = split(t=np.array([1, 2, 4]), d=np.array([4, 2, 1]), global_batch_size=4)
    assert many.gpus.tolist() == [4, 4, 4] and many.microbatches.tolist() == [1.0, 2.0, 4.0]


# Rates and collectives ---------------------------------------------------------------------------

def test_rates_are_the_efficiencies_times_the_gpus_rates():
    # A100: best measured BF16 matmul 271.2 TFLOP/s (0.869 of 312); HBM 2.039 TB/s.
    assert GEMM_A100 == pytest.approx(0.77 * 271.2e12, rel=1e-12)
    assert HBM_A100 == pytest.approx(0.9 * 2.039e12, rel=1e-12)


def test_collective_time_is_nccls_on_the_groups_system():
    system = A100.group_system(16, 8)
    expected = collectives.nccl_time("all_reduce", 1e8, system)
    assert terms.collective_s("all_reduce", 1e8, 16, 8, A100) == expected
    # vectorised: each group priced on its own system; one rank and empty messages take no time
    times = terms.collective_s("all_reduce", np.array([1e8, 1e8, 0.0]), np.array([16, 1, 16]), 8, A100)
    assert times.tolist() == [expected, 0.0, 0.0]
    slow = terms.collective_s("all_reduce", 1e8, 16, 8, A100, network_slowdown=4.0)
    assert slow == collectives.nccl_time("all_reduce", 1e8, A100.group_system(16, 8, 4.0)) > expected


def test_collective_sms_are_the_bus_bandwidth_over_what_one_sm_carries():
    busbw = collectives.nccl_collective("all_reduce", terms.SM_PROBE_BYTES,
                                        A100.group_system(8, 8)).bus_bandwidth_bytes_per_s
    per_sm = tr.NCCL_BUS_BYTES_PER_S_PER_SM
    assert terms.collective_sms("all_reduce", 8, 8, A100, per_sm) == np.clip(math.ceil(busbw / per_sm), 2, 32)
    assert terms.collective_sms("all_reduce", 8, 8, A100, 1e15) == 2            # at least NCCL_MIN_SMS
    assert terms.collective_sms("all_reduce", 8, 8, A100, 1.0) == 32            # at most NCCL_MAX_SMS
    assert terms.collective_sms("all_reduce", 1, 8, A100, per_sm) == 0


def test_received_bytes_follow_the_bus_bandwidth_factor():
    assert terms.received_bytes("all_reduce", 1e6, 8) == pytest.approx(2 * 7 / 8 * 1e6)
    assert terms.received_bytes("all_gather", 1e6, 8) == pytest.approx(7 / 8 * 1e6)
    assert terms.received_bytes("reduce_scatter", 1e6, 1) == 0.0


def test_hidden_share_and_its_hbm_time(monkeypatch):
    assert terms.hidden_share(10.0, 4.0) == pytest.approx(0.6)
    assert terms.hidden_share(np.array([0.0, 2.0]), np.array([0.0, 2.0])).tolist() == [0.0, 0.0]
    # 1 GB received, twice through HBM at 2 TB/s: 1 ms.
    monkeypatch.setattr(collectives, "HBM_BYTES_PER_RECEIVED_BYTE", 2.0)
    assert terms.hidden_traffic_s(1e9, 2e12) == pytest.approx(1e-3)


def test_held_compute_is_charged_only_on_request():
    assert terms.held_compute_s("all_reduce", 1.0, 8, 8, A100, EFF) == 0.0
    charged = dataclasses.replace(EFF, nccl_bus_bytes_per_s_per_sm=tr.NCCL_BUS_BYTES_PER_S_PER_SM)
    sms = terms.collective_sms("all_reduce", 8, 8, A100, tr.NCCL_BUS_BYTES_PER_S_PER_SM)
    assert terms.held_compute_s("all_reduce", 1.0, 8, 8, A100, charged) == pytest.approx(sms / 108)


def test_group_ranks_per_node_is_the_gcd_with_the_node():
    assert terms.group_ranks_per_node(16, 72, 1152) == 8       # groups of 16 in 72-GPU racks straddle them
    assert terms.group_ranks_per_node(8, 8, 64) == 8
    assert terms.group_ranks_per_node(16, 8, 64) == 8
    assert terms.group_ranks_per_node(4, 8, 4) == 4            # a run smaller than a node
    assert terms.group_ranks_per_node(np.array([2, 3]), 8, 48).tolist() == [2, 1]


# One layer: compute ------------------------------------------------------------------------------

def test_projection_gemms_cost_each_shape_at_its_own_efficiency():
    tokens, t = 2048.0, 2.0
    h, f = GPT3.hidden_size, GPT3.ffn_hidden_size
    gemms = terms.projection_gemm_s(GPT3, A100.gpu_spec, GEMM_A100, tokens, t)
    shapes = [(3 * h / t, h), (h, h / t), (f / t, h), (h, f / t)]           # (n, k): QKV, out, MLP in, MLP out

    def seconds(m, n, k):
        return 2 * m * n * k / (GEMM_A100 * matmul.gemm_efficiency(A100.gpu_spec, m, n, k))

    assert gemms.forward_s == pytest.approx(sum(seconds(tokens, n, k) for n, k in shapes), rel=1e-12)
    assert gemms.backward_s == pytest.approx(sum(seconds(tokens, k, n) + seconds(k, n, tokens)
                                                 for n, k in shapes), rel=1e-12)
    assert gemms.output_projection_s == pytest.approx(seconds(tokens, h, f / t), rel=1e-12)
    assert gemms.column_weight_gradient_s.tolist() == pytest.approx(
        [seconds(h, 3 * h / t, tokens), seconds(h, f / t, tokens)], rel=1e-12)


def test_precision_speedup_is_the_ratio_of_measured_rates():
    assert terms.precision_speedup(SC21, A100.gpu_spec) == 1.0
    fp8 = tr.software("Megatron-Core 2024 FP8")
    h100 = H100.gpu_spec
    assert terms.precision_speedup(fp8, h100) == matmul.best_rate(h100, "fp8") / matmul.best_rate(h100, "bf16")


def test_unfused_attention_writes_and_reads_every_score():
    # GPT-3, one 2,048-token sequence, t = 8: 4 s h / t FLOPs per token at the GEMM rate, and
    # 13 bytes per score (dropout) for a s^2 / t scores.
    s, h, a, t = 2048, GPT3.hidden_size, GPT3.heads, 8.0
    core = terms.attention_core_s(GPT3, A100, SC21, GEMM_A100, HBM_A100, t, 1.0, 1.0)
    flops = s * 4 * s * h / t
    assert core.flops == pytest.approx(flops)
    assert core.forward_s == pytest.approx(flops / GEMM_A100 + 13 * a * s * s / t / HBM_A100)
    assert core.backward_s == pytest.approx(2 * flops / GEMM_A100 + 2 * 13 * a * s * s / t / HBM_A100)
    assert core.backward_flop_factor == 2.0


def test_fused_attention_skips_the_masked_half_at_its_kernels_share():
    s, h, t = 2048, GPT3.hidden_size, 8.0
    stack = SC21.replace(kernels={"attention": "FlashAttention-2"})
    core = terms.attention_core_s(GPT3, A100, stack, GEMM_A100, HBM_A100, t, 1.0, 1.0)
    flops = s * 4 * (s / 2) * h / t
    rate = min(GEMM_A100, 0.72 * 312e12)                                   # FlashAttention-2 on an A100
    assert core.flops == pytest.approx(flops)
    assert core.forward_s == pytest.approx(flops / rate + 4 * s * (h + GPT3.kv_size) / t / HBM_A100)
    assert core.backward_flop_factor == tr.FLASH_ATTENTION_BACKWARD_FLOPS == 2.5


def test_elementwise_ops_move_one_read_and_write_per_element():
    # GPT-3 in BF16, one sequence, t = 1: two LayerNorms (2 + 2 B), two adds with dropout
    # (2 + 2 + 2 + 1 B) per element of the hidden state, and GELU (4 B) per element of the MLP.
    n, h, f = 2048.0, GPT3.hidden_size, GPT3.ffn_hidden_size
    expected = (2 * 4 * n * h + 2 * 7 * n * h + 4 * n * f) / HBM_A100
    assert terms.elementwise_s(GPT3, SC21, n, 1.0, False, HBM_A100) == pytest.approx(expected)
    fused = SC21.replace(kernels={"elementwise": "fused"})
    assert terms.elementwise_s(GPT3, fused, n, 1.0, False, HBM_A100) == pytest.approx(2 * 7 * n * h / HBM_A100)
    # sequence parallelism shards the norms and adds over t; the activation is sharded anyway
    assert terms.elementwise_s(GPT3, fused, n, 8.0, True, HBM_A100) == pytest.approx(2 * 7 * n * h / 8 / HBM_A100)


def test_eager_elementwise_ops_move_what_torchtitans_code_moves():
    n, h, f, kv = 8192.0, LLAMA.hidden_size, LLAMA.ffn_hidden_size, LLAMA.kv_size
    forward, backward = terms.eager_elementwise_s(LLAMA, FSDP, n, 1.0, False, HBM_A100)
    assert forward == pytest.approx((2 * (36 - 4) * n * h + 20 * n * (h + kv) + (10 - 6) * n * f) / HBM_A100)
    assert backward == pytest.approx((2 * (76 - 8) * n * h + 20 * n * (h + kv) + (18 - 12) * n * f) / HBM_A100)
    assert terms.eager_elementwise_s(GPT3, FSDP, n, 1.0, False, HBM_A100) == (0.0, 0.0)   # none of those ops
    assert terms.eager_elementwise_s(LLAMA, SC21, n, 1.0, False, HBM_A100) == (0.0, 0.0)  # one kernel each


def test_fp8_quantizes_each_gemm_operand_at_four_bytes_per_element():
    n, h, f, kv = 8192.0, LLAMA.hidden_size, LLAMA.ffn_hidden_size, LLAMA.kv_size
    fp8 = tr.software("Megatron-Core 2024 FP8")
    forward, backward = terms.fp8_quantize_s(LLAMA, fp8, n, 1.0, False, HBM_A100)
    assert forward == pytest.approx(4 * n * (2 * h + h + f) / HBM_A100)
    assert backward == pytest.approx(4 * n * ((h + 2 * kv) + h + 2 * f + h) / HBM_A100)
    assert terms.fp8_quantize_s(LLAMA, tr.software("Megatron-Core 2024"), n, 1.0, False, HBM_A100) == (0.0, 0.0)


def test_early_stop_applies_to_whole_block_policies_only():
    assert terms.stops_early(FSDP, "full") and terms.stops_early(FSDP, "every other layer")
    assert not terms.stops_early(FSDP, "selective") and not terms.stops_early(FSDP, "none")
    assert not terms.stops_early(SC21, "full")


def test_recomputation_reruns_the_policys_share_of_the_forward_pass():
    args = (10.0, 3.0, 4.0, 2.0)          # projections, of which the MLP output 3; attention; element-wise
    assert terms.recompute_s(SC21, "full", *args) == 10 + 4 + 2
    assert terms.recompute_s(FSDP, "full", *args) == (10 - 3) + 4 + 2          # stops before the last GEMM
    assert terms.recompute_s(SC21, "selective", *args) == 4
    assert terms.recompute_s(SC21, "none", *args) == 0
    assert terms.recompute_s(SC21, "every other matmul", *args) == 0.5 * 10 + 2


def test_collective_passes_count_the_recomputed_forward():
    assert terms.collective_passes(SC21, "full") == 3 and terms.collective_passes(SC21, "selective") == 2
    assert terms.collective_passes(FSDP, "full") == 2.5                    # the block's last all-reduce skipped
    parallel = FSDP.replace(kernels={"parallel_block": True})
    assert terms.collective_passes(parallel, "full") == 2                  # its only all-reduce is the last


# One layer: collectives --------------------------------------------------------------------------

def test_tensor_parallel_all_reduces_and_what_each_overlap_leaves():
    n, t, gpus = 2048.0, 8.0, 8
    message = 2 * n * GPT3.hidden_size
    one = terms.collective_s("all_reduce", message, 8, 8, A100)
    wgrad = np.array([1e-3, 1e-4])
    plain = terms.tensor_parallel_layer_s(GPT3, A100, SC21, "full", n, t, False, gpus, 1.0, wgrad)
    assert (plain.calls, plain.message_bytes) == (6, message)             # 2 per pass, 3 passes
    assert plain.communication_s == pytest.approx(6 * one) and plain.exposed_s == plain.communication_s
    assert plain.received_bytes == pytest.approx(6 * 2 * 7 / 8 * message)
    piped = SC21.replace(overlap={"tensor_parallel": "pipelined"})
    for gemm_s in (0.0, 1.0):
        layer = terms.tensor_parallel_layer_s(GPT3, A100, piped, "full", n, t, False, gpus, gemm_s, wgrad)
        assert layer.exposed_s == pytest.approx(max(6 * one / 8, 6 * one - gemm_s))
    backward = SC21.replace(overlap={"tensor_parallel": "backward"})
    layer = terms.tensor_parallel_layer_s(GPT3, A100, backward, "full", n, t, False, gpus, 1.0, wgrad)
    assert layer.exposed_s == pytest.approx(6 * one - min(one, 1e-3) - min(one, 1e-4))
    alone = terms.tensor_parallel_layer_s(GPT3, A100, SC21, "full", n, 1.0, False, 1, 1.0, wgrad)
    assert alone.communication_s == 0 and alone.received_bytes == 0


LONG = dataclasses.replace(LLAMA, sequence_length=65536)
_CP = {name: tr.software("Megatron-Core 2024").replace(overlap={"context_parallel": name})
       for name in tr.Overlap.CHOICES["context_parallel"]}


def _cp(name, attention_forward_s, attention_backward_s, c=8.0, t=1.0, recompute="none", cluster=H100):
    return terms.context_parallel_layer_s(LONG, cluster, _CP[name], recompute, t, c, 1.0, attention_forward_s,
                                          attention_backward_s)


def test_p2p_ring_hides_each_hop_under_one_step_of_attention():
    # Transformer Engine's AttnFuncWithCPAndKVP2P: c - 1 hops of this rank's K, V (GQA width) forward,
    # each under one step (attention / c); backward c - 1 hops of K, V and dK, dV, the last dK, dV waited for.
    c = 8.0
    chunk = 2 * 2 * 65536 / c * LONG.kv_size                               # BF16 K and V of 8K tokens
    hop = terms.collective_s("send_recv", chunk, 2, 2, H100)
    both = terms.collective_s("send_recv", 2 * chunk, 2, 2, H100)
    for forward_s, backward_s in ((0.0, 0.0), (c * hop / 2, c * both / 2), (10 * c * hop, 10 * c * both)):
        layer = _cp("p2p", forward_s, backward_s)
        assert layer.message_bytes == pytest.approx(chunk)
        assert layer.communication_s == pytest.approx(7 * hop + 7 * both + hop)
        assert layer.exposed_s == pytest.approx(7 * max(hop - forward_s / c, 0) + 7 * max(both - backward_s / c, 0)
                                                + hop)
    # Long attention hides everything but the last gradient hop.
    assert _cp("p2p", 1.0, 2.5).exposed_s == pytest.approx(hop)


def test_all_gather_is_exposed_forward_and_backward():
    # Llama 3 section 3.3.2 and TE's AttnFuncWithCPAndKVAllGather: the all-gather of K, V before
    # attention, again in the backward pass, and the reduce-scatter of dK, dV, all waited for.
    c = 8.0
    gathered = 2 * 2 * 65536 * LONG.kv_size
    gather = terms.collective_s("all_gather", gathered, 8, 8, H100)
    scatter = terms.collective_s("reduce_scatter", gathered, 8, 8, H100)
    for attention_s in (0.0, 1.0):
        layer = _cp("all_gather", attention_s, 2.5 * attention_s, c)
        assert layer.exposed_s == layer.communication_s == pytest.approx(2 * gather + scatter)
    # Full recomputation reruns the forward pass's gather.
    assert _cp("all_gather", 1.0, 2.5, c, recompute="full").exposed_s == pytest.approx(3 * gather + scatter)


def test_ulysses_all_to_alls_are_exposed_and_refuse_more_ranks_than_kv_heads():
    # DeepSpeed-Ulysses: all-to-all of Q, K, V (3Nh with as many KV heads as query heads) and of the output (Nh).
    c, tokens = 8.0, 65536 / 8
    qkv = 2 * tokens * (LONG.hidden_size + 2 * LONG.kv_size)
    out = 2 * tokens * LONG.hidden_size
    one = terms.collective_s("all_to_all", qkv, 8, 8, H100) + terms.collective_s("all_to_all", out, 8, 8, H100)
    layer = _cp("a2a", 1.0, 2.5, c)
    assert layer.exposed_s == layer.communication_s == pytest.approx(2 * one)
    with pytest.raises(ValueError, match="kv_heads = 8"):
        _cp("a2a", 1.0, 2.5, c=4.0, t=4.0)                     # 16 > 8 KV heads
    with pytest.raises(ValueError, match="context_parallel"):
        tr.training_step(LONG, H100, tr.parallel_config(16, global_batch_size=1, context_parallel=16),
                         _CP["a2a"])


def test_pytorch_rings_carry_every_query_heads_keys_and_fp32_gradients():
    # PyTorch's context_parallel (torchtitan): K, V after repeat_kv, all-gathered under the first step;
    # dK, dV in FP32 passed on after each of c steps, the last hop exposed.
    c = 8.0
    chunk = 2 * 2 * 65536 / c * LONG.hidden_size
    gather = terms.collective_s("all_gather", c * chunk, 8, 8, H100)
    gradient = terms.collective_s("send_recv", 2 * chunk, 2, 2, H100)
    layer = _cp("ring, all-gather rotate", 1.0, 2.5, c)
    assert layer.message_bytes == pytest.approx(c * chunk)
    assert layer.communication_s == pytest.approx(2 * gather + c * gradient)
    assert layer.exposed_s == pytest.approx(gradient)                      # long attention hides the rest
    assert _cp("ring, all-gather rotate", 0.0, 0.0, c).exposed_s == pytest.approx(2 * gather + c * gradient)
    hop = terms.collective_s("send_recv", chunk, 2, 2, H100)
    rotate = _cp("ring, all-to-all rotate", 0.0, 0.0, c)
    assert rotate.exposed_s == pytest.approx(7 * hop + 7 * (hop + gradient) + gradient)


def test_one_context_parallel_rank_exchanges_nothing():
    for name in tr.Overlap.CHOICES["context_parallel"]:
        layer = _cp(name, 1.0, 2.5, c=1.0)
        assert layer.communication_s == 0 and layer.exposed_s == 0


@settings(max_examples=40, deadline=None)
@given(name=st.sampled_from(sorted(tr.Overlap.CHOICES["context_parallel"])),
       c=st.sampled_from([2.0, 4.0, 8.0, 16.0]), t=st.sampled_from([1.0, 2.0]),
       forward_s=st.floats(0.0, 1.0), recompute=st.sampled_from(sorted(tr.RECOMPUTATION)))
def test_context_parallel_exposed_is_never_negative_nor_more_than_the_exchange(name, c, t, forward_s, recompute):
    if name == "a2a" and c * t > LONG.kv_heads:
        return
    layer = _cp(name, forward_s, 2.5 * forward_s, c, t, recompute)
    assert 0.0 <= layer.exposed_s <= layer.communication_s * (1 + 1e-12)


@settings(max_examples=30, deadline=None)
@given(c=st.sampled_from([2.0, 4.0, 8.0, 16.0]), scale=st.floats(1.0, 100.0))
def test_the_ring_is_no_worse_than_the_gather_when_attention_is_long(c, scale):
    # With each step of attention longer than a hop of K, V and its gradient, TE's ring leaves only the
    # last gradient hop exposed, less than the exposed gather and scatter of the same K, V.
    in_node = 2 if c <= H100.gpus_per_node else 1                          # a ring of 16 crosses nodes
    both = terms.collective_s("send_recv", 2 * 2 * 2 * 65536 / c * LONG.kv_size, 2, in_node, H100)
    forward_s = scale * c * both
    assert _cp("p2p", forward_s, 2.5 * forward_s, c).exposed_s <= _cp("all_gather", forward_s, 2.5 * forward_s,
                                                                        c).exposed_s


def test_causal_imbalance_loads_the_last_rank_unless_balanced():
    # Contiguous chunks: the last of c ranks does (c - 1/2) chunks of keys against a mean of c/2.
    assert terms.causal_imbalance(1.0, balanced=False) == 1.0
    assert terms.causal_imbalance(2.0, balanced=False) == pytest.approx(1.5)
    assert terms.causal_imbalance(8.0, balanced=False) == pytest.approx(15 / 8)
    assert terms.causal_imbalance(8.0) == 1.0 and terms.causal_imbalance(8.0, False, windowed=True) == 1.0
    ring = tr.software("torchtitan 2024")
    unbalanced = ring.replace(overlap={"context_parallel_load_balance": False})
    config = tr.parallel_config(8, global_batch_size=1, context_parallel=8, recompute="full", zero_stage=3)
    assert (tr.training_step(LONG, H100, config, unbalanced).compute_s
            > tr.training_step(LONG, H100, config, ring).compute_s)
    with pytest.raises(ValueError, match="context_parallel_load_balance"):
        tr.Overlap(context_parallel="p2p", context_parallel_load_balance=False)


def test_context_parallel_ranks_reduce_gradients_with_the_data_parallel_ones():
    # Megatron-Core's dp_cp_group and torchtitan's dp_shard_cp: d c ranks, strided by t.
    split = terms.Split.of(tr.parallel_config(64, global_batch_size=8, tensor_parallel=2, context_parallel=4))
    group = terms.data_parallel_group(H100, split)
    assert group.ranks == 32 and group.shard == 32 and group.ranks_per_node == 4


def test_a_layer_adds_its_passes_and_hides_nothing_without_overlap():
    layer = terms.layer_terms(GPT3, A100, SC21, "full", GEMM_A100, HBM_A100, 8.0, 1.0, 1.0, False, 64)
    assert layer.compute_s == pytest.approx(layer.forward_s + layer.backward_s + layer.recompute_s, rel=1e-12)
    assert layer.tokens == 2048 and layer.tensor_parallel_all_reduces == 6 and layer.passes == 3
    assert layer.hidden_received_bytes == 0 and layer.tensor_parallel_exposed_s == layer.tensor_parallel_s
    none = terms.layer_terms(GPT3, A100, SC21, "none", GEMM_A100, HBM_A100, 8.0, 1.0, 1.0, False, 64)
    assert none.recompute_s == 0 and none.forward_s == layer.forward_s


# The stage and the pipeline ----------------------------------------------------------------------

def test_layers_and_parameters_per_stage():
    llama405 = tr.transformer_model("Llama 3 405B")                        # 126 layers
    assert terms.layers_per_stage(GPT3, 8) == 12
    assert terms.layers_per_stage(llama405, 16, 1, True) == 8 and terms.edge_stage_layers(llama405, 16, 1, True) == 7
    assert terms.layers_per_stage(llama405, 16, 2, True) == 8
    assert terms.edge_stage_layers(GPT3, 8) == 12
    assert terms.stage_parameters(GPT3, 1, 1) == tr.parameter_count(GPT3)
    assert terms.stage_parameters(GPT3, 8, 1) == pytest.approx(tr.parameter_count(GPT3) / 8)
    shape = terms.stage_shape(GPT3, split(t=8, p=8))
    assert shape == (12, 12, terms.stage_parameters(GPT3, 8, 8))


def test_logits_cost_their_gemm_and_eight_bytes_per_logit_three_times():
    n, t, flops = 2048.0, 8.0, 2 * GPT3.hidden_size * GPT3.vocabulary_size
    expected = 3 * (n * flops / t / GEMM_A100 + 8 * n * GPT3.vocabulary_size / t / HBM_A100)
    assert terms.logits_s(GPT3, n, t, flops, GEMM_A100, HBM_A100) == pytest.approx(expected)


def test_autocasts_casts_of_fp32_weights():
    fp32 = tr.software("llm-foundry 2023, DEFAULT")            # FP32 weights, 16-bit gradients
    assert terms.stored_weight_bytes(fp32) == 4 and terms.stored_weight_bytes(SC21) == 2
    # each forward pass casts 4 -> 2 (6 B), the backward casts the gradient back (6 B) and down to 2 (6 B)
    assert terms.weight_cast_bytes(fp32, "none") == 6 + 6 + 6
    assert terms.weight_cast_bytes(fp32, "full") == 2 * 6 + 6 + 6
    fp32_gradients = fp32.replace(precision={"gradient_bytes": 4})
    assert terms.weight_cast_bytes(fp32_gradients, "none") == 6 + 6
    assert terms.weight_cast_bytes(SC21, "full") == 0


def test_stage_time_is_the_fullest_or_the_last_stage_with_its_logits():
    s = split(t=8, p=8, d=1, global_batch_size=8, recompute="full")
    layer = terms.layer_terms(GPT3, A100, SC21, "full", GEMM_A100, HBM_A100, s.t, s.c, s.b, False, s.gpus)
    shape = terms.stage_shape(GPT3, s)
    compute, communication = terms.stage_time_s(GPT3, A100, SC21, EFF, layer, s, shape, GEMM_A100, HBM_A100)
    logits = terms.logits_s(GPT3, layer.tokens, 8.0, layer.logit_flops, GEMM_A100, HBM_A100)
    contention = terms.layer_contention_s(layer, A100, SC21, EFF, HBM_A100, 8.0, 1.0, 64)
    assert contention == 0                                             # nothing hidden, nothing to contend
    assert compute == pytest.approx(12 * layer.compute_s + logits, rel=1e-12)
    assert communication == pytest.approx(12 * layer.tensor_parallel_exposed_s, rel=1e-12)


def test_bubble_is_p_minus_one_over_v_stage_times():
    assert terms.pipeline_bubble_s(8, 2, 1.0, 0.5) == pytest.approx(7 / 2 * 1.5)
    assert terms.pipeline_bubble_s(1, 1, 1.0, 0.5) == 0


def test_pipeline_sends_blocking_and_asynchronous():
    s = split(t=8, p=8, d=8, b=1, global_batch_size=64)                    # m = 8
    boundary = 2 * 2048 * GPT3.hidden_size
    transfer = (terms.collective_s("send_recv", boundary / 8, 2, 1, A100)
                + terms.collective_s("all_gather", boundary, 8, 8, A100))   # scatter, then re-gather
    assert terms.pipeline_send_s(GPT3, A100, SC21, s) == pytest.approx(2 * 1 * 8 * transfer)
    asynchronous = SC21.replace(overlap={"pipeline": "asynchronous"})
    assert terms.pipeline_send_s(GPT3, A100, asynchronous, s) == pytest.approx(2 * 7 * transfer)
    assert terms.pipeline_send_s(GPT3, A100, SC21, split(t=8, d=8)) == 0


# Data parallelism and ZeRO -----------------------------------------------------------------------

def test_data_parallel_group_sits_strided_by_t_c():
    group = terms.data_parallel_group(A100, split(t=8, d=16))
    assert (group.ranks, group.ranks_per_node, group.shard, group.replicas) == (16, 1, 16, 1)
    group = terms.data_parallel_group(A100, split(t=2, d=16, zero_stage=3, shard_group_size=4))
    assert (group.ranks_per_node, group.shard, group.replicas, group.shard_per_node) == (4, 4, 4, 4)
    pods = dataclasses.replace(A100, pod_gpus=64, oversubscription=7.0)
    group = terms.data_parallel_group(pods, split(t=8, d=32))             # 256 GPUs over 4 pods
    assert group.network_slowdown == pytest.approx(max(1.0, 7.0 * 4 / 32))
    assert terms.data_parallel_group(pods, split(t=8, d=8)).network_slowdown == 1.0


def test_data_parallel_units_per_layer_per_bucket_or_one():
    core = tr.software("Megatron-Core 2024")                              # max(40 M, 1 M d) parameters
    assert terms.data_parallel_units(SC21, 1e9, 12, 16) == 1
    assert terms.data_parallel_units(FSDP, 1e9, 12, 16) == 12
    assert terms.data_parallel_units(core, 1e9, 12, 16) == math.ceil(1e9 / 40e6)
    assert terms.data_parallel_units(core, 1e9, 12, 100) == math.ceil(1e9 / 100e6)


def test_exposed_is_one_collective_plus_what_outlasts_each_window():
    assert terms.exposed_s(3.0, 1.0, 4, True) == 3 + 3 * 2
    assert terms.exposed_s(1.0, 3.0, 4, True) == 1
    assert terms.exposed_s(3.0, 1.0, 4, False) == 12


def test_replicated_data_parallelism_all_reduces_the_gradients():
    group = terms.data_parallel_group(A100, split(t=8, d=16))
    reduce = terms.collective_s("all_reduce", 2e9, 16, 1, A100)
    data = terms.replicated_data_parallel_s(A100, SC21, EFF, group, 1.0, 1e9, 5.0)
    assert data.communication_s == data.exposed_s == pytest.approx(reduce)   # one buffer, after the backward pass
    assert data.received_bytes == pytest.approx(2 * 15 / 16 * 2e9) and data.held_s == 0
    hidden = terms.replicated_data_parallel_s(A100, FSDP, EFF, group, 4.0, 2.5e8, 1.0)
    one = terms.collective_s("all_reduce", 5e8, 16, 1, A100)
    assert hidden.exposed_s == pytest.approx(one + 3 * max(one - 1.0, 0.0))


def test_sharded_state_reduce_scatters_and_gathers():
    group = terms.data_parallel_group(A100, split(t=8, d=16, zero_stage=1))
    data = terms.sharded_state_data_parallel_s(A100, SC21, EFF, group, 1.0, 1e9, 5.0, 5.0)
    expected = (terms.collective_s("reduce_scatter", 2e9, 16, 1, A100)
                + terms.collective_s("all_gather", 2e9, 16, 1, A100))
    assert data.communication_s == data.exposed_s == pytest.approx(expected)
    assert data.received_bytes == pytest.approx(2 * 15 / 16 * 2e9)


def test_sharded_weights_gather_each_layer_every_microbatch():
    group = terms.data_parallel_group(A100, split(d=64, zero_stage=3))     # 8 ranks per node
    deepspeed, plus = tr.software("DeepSpeed ZeRO-3"), tr.software("DeepSpeed ZeRO++")
    data = terms.sharded_weight_data_parallel_s(A100, deepspeed, EFF, group, 12, 1e8, 4, 0.0, 0.0)
    gather = terms.collective_s("all_gather", 2e8, 64, 8, A100)
    reduce = terms.collective_s("reduce_scatter", 2e8, 64, 8, A100)
    assert data.communication_s == pytest.approx(12 * 4 * (2 * gather + reduce))
    assert data.exposed_s == pytest.approx(4 * 12 * (2 * gather + reduce))       # no compute to hide behind
    quantized = terms.sharded_weight_data_parallel_s(A100, plus, EFF, group, 12, 1e8, 4, 0.0, 0.0)
    expected = 12 * 4 * (terms.collective_s("all_gather", 1e8, 64, 8, A100)        # qwZ: INT8
                         + terms.collective_s("all_gather", 2e8, 8, 8, A100)       # hpZ: inside the node
                         + terms.collective_s("reduce_scatter", 0.5e8, 64, 8, A100))  # qgZ: INT4
    assert quantized.communication_s == pytest.approx(expected)


def test_zero3_per_submodule_gathers_each_matrix_apart_with_the_same_bytes():
    # DeepSpeed ZeRO-3 of 2021 (DEEPSPEED_ZERO3_2021): a gather (and a reduce-scatter) per weight
    # matrix, u per layer, each behind 1/u of the layer's compute. Same bytes; u times the latency;
    # with no compute to hide behind, every piece is exposed.
    group = terms.data_parallel_group(A100, split(d=64, zero_stage=3))
    zero3_2021 = tr.software("DeepSpeed ZeRO-3 2021")
    whole = terms.sharded_weight_data_parallel_s(A100, zero3_2021, EFF, group, 12, 1e8, 4, 0.0, 0.0)
    pieces = terms.sharded_weight_data_parallel_s(A100, zero3_2021, EFF, group, 12, 1e8, 4, 0.0, 0.0, 4)
    gather = terms.collective_s("all_gather", 2e8 / 4, 64, 8, A100)
    reduce = terms.collective_s("reduce_scatter", 2e8 / 4, 64, 8, A100)
    assert pieces.communication_s == pytest.approx(12 * 4 * 4 * (2 * gather + reduce))
    assert pieces.received_bytes == pytest.approx(whole.received_bytes)
    assert pieces.communication_s > whole.communication_s                     # four latencies a layer, not one
    # Behind ample compute only the first piece of each pass stays exposed: a quarter of a layer's.
    ample = 10.0
    hidden_whole = terms.sharded_weight_data_parallel_s(A100, zero3_2021, EFF, group, 12, 1e8, 1, ample, ample)
    hidden_pieces = terms.sharded_weight_data_parallel_s(A100, zero3_2021, EFF, group, 12, 1e8, 1, ample, ample, 4)
    assert hidden_pieces.exposed_s == pytest.approx(gather + gather + reduce)
    assert hidden_pieces.exposed_s < hidden_whole.exposed_s


def test_data_parallel_splits_zero3_per_submodule_into_the_layers_matrices():
    s = split(d=16, global_batch_size=16, zero_stage=3)
    zero3_2021 = tr.software("DeepSpeed ZeRO-3 2021")
    layer = terms.layer_terms(GPT3, A100, zero3_2021, "none", GEMM_A100, HBM_A100, 1, 1, 1, False, s.gpus)
    shape, group = terms.stage_shape(GPT3, s), terms.data_parallel_group(A100, s)
    window = layer.backward_s + layer.recompute_s
    for software, units in ((zero3_2021, 4), (tr.software("DeepSpeed ZeRO-3"), 1)):
        data = terms.data_parallel_s(A100, software, EFF, group, s, shape, layer, 4)
        direct = terms.sharded_weight_data_parallel_s(A100, software, EFF, group, 96, shape.parameters / 96, 1.0,
                                                      layer.forward_s, window, units)
        assert data == direct, software.name


def test_fp8_all_gather_sends_one_byte_per_weight_and_reduces_as_before():
    # torchao's enable_fsdp_float8_all_gather (TORCHAO_FLOAT8_ALL_GATHER): both gathers in FP8.
    fp8 = tr.software("torchtitan 2024, compiled FP8")
    gathered = tr.software("torchtitan 2024, compiled FP8, FP8 all-gather")
    assert (terms.gathered_weight_bytes(fp8), terms.gathered_weight_bytes(gathered)) == (2, 1)
    assert terms.gathered_weight_bytes(tr.software("llm-foundry 2023, DEFAULT")) == 4      # FP32 weights
    group = terms.data_parallel_group(H100, split(d=64, zero_stage=3))
    bf16 = terms.sharded_weight_data_parallel_s(H100, fp8, EFF, group, 12, 1e8, 1, 0.0, 0.0)
    one_byte = terms.sharded_weight_data_parallel_s(H100, gathered, EFF, group, 12, 1e8, 1, 0.0, 0.0)
    reduce = terms.received_bytes("reduce_scatter", 4e8, 64)                   # FP32 gradients either way
    assert one_byte.received_bytes - 12 * reduce == pytest.approx((bf16.received_bytes - 12 * reduce) / 2)
    assert one_byte.communication_s == pytest.approx(12 * (2 * terms.collective_s("all_gather", 1e8, 64, 8, H100)
                                                          + terms.collective_s("reduce_scatter", 4e8, 64, 8, H100)))


def test_data_parallel_dispatches_by_zero_stage():
    for stage, family in ((0, "replicated"), (1, "state"), (2, "state"), (3, "weights")):
        s = split(t=8, d=16, global_batch_size=16, zero_stage=stage)
        layer = terms.layer_terms(GPT3, A100, SC21, "none", GEMM_A100, HBM_A100, s.t, s.c, s.b, False, s.gpus)
        shape = terms.stage_shape(GPT3, s)
        group = terms.data_parallel_group(A100, s)
        data = terms.data_parallel_s(A100, SC21, EFF, group, s, shape, layer)
        window = layer.backward_s + layer.recompute_s
        if family == "replicated":
            direct = terms.replicated_data_parallel_s(A100, SC21, EFF, group, 1.0, shape.parameters, 96 * window)
        elif family == "state":
            direct = terms.sharded_state_data_parallel_s(A100, SC21, EFF, group, 1.0, shape.parameters,
                                                         96 * layer.forward_s, 96 * window)
        else:
            direct = terms.sharded_weight_data_parallel_s(A100, SC21, EFF, group, 96, shape.parameters / 96, 1.0,
                                                          layer.forward_s, window)
        assert data == direct, stage


# Optimizer, FLOPs, memory ------------------------------------------------------------------------

def test_optimizer_bytes_and_time():
    # Megatron-LM: the norm's read (4), fused Adam (24) with its 2-byte gradient and weight
    assert terms.optimizer_bytes_per_parameter(SC21, EFF) == 4 + 24 + 2 + 2
    # PyTorch: the norm and a scale on every step (12), AdamW op by op (80)
    assert terms.optimizer_bytes_per_parameter(FSDP, EFF) == 12 + 80
    assert terms.optimizer_s(SC21, EFF, 1e9, 0, 16, 1e12) == pytest.approx(1e9 * 32 / 1e12)
    assert terms.optimizer_s(SC21, EFF, 1e9, 1, 16, 1e12) == pytest.approx(1e9 / 16 * 32 / 1e12)


@pytest.mark.parametrize("recompute", sorted(tr.RECOMPUTATION))
def test_executed_flops_are_megatrons_count_less_what_early_stop_skips(recompute):
    tokens = 1536 * 2048.0
    assert terms.executed_flops(GPT3, SC21, recompute, tokens) == pytest.approx(
        tokens * tr.flops_per_token(GPT3, recompute=recompute), rel=1e-12)
    skipped = {"full": 1.0, "every other layer": 0.5}.get(recompute, 0.0)
    early = FSDP.replace(kernels={"attention": "unfused"})
    assert terms.executed_flops(GPT3, SC21, recompute, tokens) - terms.executed_flops(
        GPT3, early, recompute, tokens) == pytest.approx(
        skipped * tokens * GPT3.layers * 2 * GPT3.ffn_hidden_size * GPT3.hidden_size, rel=1e-9)


def test_activation_memory_follows_korthikantis_closed_forms():
    # Korthikanti et al. 2022 §4: sbh(34 + 5as/h) without parallelism, sbh(10 + 24/t + 5as/ht)
    # with TP, sbh/t (34 + 5as/h) with TP + SP, 34 sbh / t with selective recomputation + SP.
    s, b, h, a, t = 2048, 1, GPT3.hidden_size, GPT3.heads, 8

    def layer(recompute, tp, sp):
        return terms.activation_bytes_per_layer(GPT3, SC21, recompute, np.float64(tp), 1.0, b, sp)

    assert layer("none", 1, False) == pytest.approx(s * b * h * (34 + 5 * a * s / h))
    assert layer("none", t, False) == pytest.approx(s * b * h * (10 + 24 / t + 5 * a * s / (h * t)))
    assert layer("none", t, True) == pytest.approx(s * b * h / t * (34 + 5 * a * s / h))
    assert layer("selective", t, True) == pytest.approx(34 * s * b * h / t)
    assert layer("full", t, False) == pytest.approx(2 * s * b * h)


def test_memory_shards_by_zero_stage():
    s = split(t=8, p=8, d=16, global_batch_size=128, recompute="full", zero_stage=3)
    shape = terms.stage_shape(GPT3, s)
    memory = terms.memory_breakdown(GPT3, A100, SC21, EFF, s, shape, 16)
    assert memory.weights_bytes == pytest.approx(shape.parameters * 2 / 16)
    assert memory.gradients_bytes == pytest.approx(shape.parameters * 2 / 16)
    assert memory.optimizer_bytes == pytest.approx(shape.parameters * 12 / 16)
    # 1F1B: the first stage holds p = 8 microbatches of its 12 layers' inputs (full recomputation)
    assert memory.activations_bytes == pytest.approx(12 * 8 * 2 * 2048 * GPT3.hidden_size)
    assert memory.capacity_bytes == catalog.gpu("A100 SXM").hbm_bytes


# Hostile input -----------------------------------------------------------------------------------

BAD = [
    (lambda: split(t=0), ValueError, r"every degree"),
    (lambda: split(t=np.array([1, 2]), d=np.array([1, 2, 4])), ValueError, r"broadcast to one shape"),
    (lambda: split(recompute="partial"), ValueError, r"unknown recompute 'partial'"),
    (lambda: split(zero_stage=4), ValueError, r"Split.zero_stage = 4"),
    (lambda: terms.gemm_rate(A100, None), AttributeError, r"gemm"),
    (lambda: terms.hbm_rate("Selene", EFF), AttributeError, r"gpu_spec"),
    (lambda: terms.collective_s("allreduce", 1e6, 8, 8, A100), ValueError, r"did you mean 'all_reduce'"),
    (lambda: terms.collective_sms("allgather", 8, 8, A100, 1e10), ValueError, r"unknown collective"),
    (lambda: terms.received_bytes("all_reduce", "1 MB", 8), TypeError, None),
    (lambda: terms.hidden_share(np.ones(2), np.ones(3)), ValueError, r"broadcast"),
    (lambda: terms.hidden_traffic_s(1e9, 0.0), ZeroDivisionError, None),
    (lambda: terms.held_compute_s("allreduce", 1.0, 8, 8, A100, dataclasses.replace(
        EFF, nccl_bus_bytes_per_s_per_sm=1e10)), ValueError, r"unknown collective"),
    (lambda: terms.group_ranks_per_node(8.5, 8, 64), TypeError, None),
    (lambda: terms.projection_gemm_s(GPT3, A100.gpu_spec, GEMM_A100, 2048, 1, "fp4"), ValueError, r"fp4"),
    (lambda: terms.precision_speedup(tr.software("Megatron-Core 2024 FP8"), A100.gpu_spec), ValueError,
     r"FP8, which the A100 SXM does not support"),
    (lambda: terms.attention_core_s(GPT3, A100, "MegaScale", GEMM_A100, HBM_A100, 1, 1, 1), AttributeError,
     r"kernels"),
    (lambda: terms.elementwise_s(GPT3, "MegaScale", 2048, 1, False, HBM_A100), AttributeError, r"kernels"),
    (lambda: terms.eager_elementwise_s(LLAMA, None, 2048, 1, False, HBM_A100), AttributeError, r"kernels"),
    (lambda: terms.fp8_quantize_s(LLAMA, None, 2048, 1, False, HBM_A100), AttributeError, r"kernels"),
    (lambda: terms.stops_early(FSDP, "partial"), ValueError, r"unknown recompute 'partial'"),
    (lambda: terms.recompute_s(SC21, "all", 1, 1, 1, 1), ValueError, r"valid recomputes are"),
    (lambda: terms.collective_passes(SC21, "Full"), ValueError, r"did you mean 'full'"),
    (lambda: terms.tensor_parallel_layer_s(GPT3, A100, SC21, "fulll", 2048, 8, False, 8, 1, np.zeros(2)),
     ValueError, r"unknown recompute"),
    (lambda: terms.context_parallel_layer_s(LLAMA, H100, SC21, "nothing", 1, 8, 1, 0.0, 0.0), ValueError,
     r"unknown recompute"),
    (lambda: terms.context_parallel_layer_s(LLAMA, H100, tr.software("DeepSpeed ZeRO-3"), "none", 2, 8, 1, 0.0,
                                            0.0), ValueError, r"at most kv_heads = 8"),
    (lambda: terms.causal_imbalance(0.5, balanced=False), ValueError, r"c = 0.5 .* at least 1"),
    (lambda: terms.layer_terms(GPT3, A100, tr.software("Megatron-Core 2024 FP8"), "full", GEMM_A100, HBM_A100,
                               1, 1, 1, False, 1), ValueError, r"FP8"),
    (lambda: terms.layers_per_stage(GPT3, "8"), TypeError, None),
    (lambda: terms.edge_stage_layers(GPT3, "8"), TypeError, None),
    (lambda: terms.stage_parameters("GPT-3 175B", 1, 1), AttributeError, None),
    (lambda: terms.stage_shape(GPT3, None), AttributeError, None),
    (lambda: terms.logits_s(GPT3, 2048, 1, 1e6, 0.0, HBM_A100), ZeroDivisionError, None),
    (lambda: terms.stored_weight_bytes("PyTorch FSDP"), AttributeError, r"precision"),
    (lambda: terms.gathered_weight_bytes("PyTorch FSDP"), AttributeError, r"precision"),
    (lambda: terms.weight_cast_bytes(tr.software("llm-foundry 2023, DEFAULT"), "most"), ValueError,
     r"unknown recompute 'most'"),
    (lambda: terms.layer_contention_s(None, A100, SC21, EFF, HBM_A100, 1, 1, 1), AttributeError, None),
    (lambda: terms.stage_time_s(GPT3, A100, SC21, EFF, None, split(), None, GEMM_A100, HBM_A100),
     AttributeError, None),
    (lambda: terms.pipeline_bubble_s(8, 0, 1.0, 1.0), ZeroDivisionError, None),
    (lambda: terms.pipeline_send_s(GPT3, A100, SC21, None), AttributeError, None),
    (lambda: terms.data_parallel_group(A100, None), AttributeError, None),
    (lambda: terms.data_parallel_units("MegaScale", 1e9, 12, 8), AttributeError, r"overlap"),
    (lambda: terms.exposed_s("1", 1.0, 4, True), TypeError, None),
    (lambda: terms.replicated_data_parallel_s(A100, SC21, EFF, None, 1, 1e9, 1.0), AttributeError, r"ranks"),
    (lambda: terms.sharded_state_data_parallel_s(A100, SC21, EFF, None, 1, 1e9, 1.0, 1.0), AttributeError,
     r"ranks"),
    (lambda: terms.sharded_weight_data_parallel_s(A100, SC21, EFF, None, 12, 1e8, 1, 1.0, 1.0),
     AttributeError, r"shard"),
    (lambda: terms.data_parallel_s(A100, SC21, EFF, None, split(d=8), None, None), AttributeError, None),
    (lambda: terms.optimizer_bytes_per_parameter(SC21, None), AttributeError, r"optimizer_bytes_per_parameter"),
    (lambda: terms.optimizer_s(SC21, None, 1e9, 0, 1, 1e12), AttributeError, r"optimizer_bytes_per_parameter"),
    (lambda: terms.executed_flops(GPT3, SC21, "twice", 1e6), ValueError, r"unknown recompute 'twice'"),
    (lambda: terms.activation_bytes_per_layer(GPT3, SC21, "some", 1, 1, 1, False), ValueError,
     r"unknown recompute 'some'"),
    (lambda: terms.memory_breakdown(GPT3, A100, SC21, EFF, None, None, 1), AttributeError, None),
]


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize(("call", "error", "message"), BAD, ids=range(len(BAD)))
def test_bad_input(call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_every_term_has_a_bad_input_case():
    import inspect

    source = inspect.getsource(inspect.getmodule(test_bad_input))
    bad_block = source[source.index("BAD = ["):source.index("def test_bad_input")]
    functions = [name for name in terms.__all__ if inspect.isfunction(getattr(terms, name))]
    missing = [name for name in functions if f"terms.{name}(" not in bad_block]
    assert not missing, f"terms without a bad-input case: {missing}"
