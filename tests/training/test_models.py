"""Tests of ``interconnect_lab.training.models``: transformer shapes, parameter counts and FLOPs per
token (SC21 Eq. 2-4).

Hostile input is at the end (and fuzzed with tests/fuzzing.py where noted).
"""

import pytest
from hypothesis import strategies as st

from fuzzing import Case, choice, count, make_tests, nonnegative, positive

from interconnect_lab import catalog, collectives, training as tr, training, units as u
from interconnect_lab.published import (
    SC21_TABLE1, SC21_TABLE1_SEQUENCE_LENGTH, SC21_TABLE1_VOCABULARY, SC21_TRAINING_TIME_EXAMPLES,
)


def _mpt(shard_group_size=None, overlap=True, microbatch=8, accumulation=1):
    model = tr.TransformerModel.gpt(layers=32, hidden_size=4096, heads=32, vocabulary_size=50368,
                                    sequence_length=2048, name="MPT-7B")
    cluster = tr.Cluster(name="8 x 8 H100", gpu="H100 SXM", gpus_per_node=8, scale_up_link="NVLink 4",
                         scale_out_link="Ethernet 200G", nics_per_node=8)
    config = tr.parallel_config(64, global_batch_size=64 * microbatch * accumulation, microbatch_size=microbatch,
                                recompute="none", zero_stage=3, shard_group_size=shard_group_size)
    software = tr.software("PyTorch FSDP").replace(overlap={"data_parallel": "per layer" if overlap else "none"})
    return tr.training_step(model, cluster, config, software)


def test_fsdp_overlap_hides_all_but_the_first_gather_and_last_reduce():
    hidden, exposed = _mpt(), _mpt(overlap=False)
    assert hidden.data_parallel_s < exposed.data_parallel_s
    assert exposed.data_parallel_hidden_s == pytest.approx(0.0, abs=1e-15)
    assert hidden.data_parallel_s + hidden.data_parallel_hidden_s == pytest.approx(exposed.data_parallel_s)


def test_hybrid_sharding_keeps_gathers_in_the_node():
    # With many microbatches per step the per-microbatch gathers dominate: inside the node
    # (hybrid) they beat gathers across 8 nodes, plus one all-reduce of shards per step.
    full = _mpt(microbatch=1, accumulation=16, overlap=False)
    hybrid = _mpt(shard_group_size=8, microbatch=1, accumulation=16, overlap=False)
    assert hybrid.data_parallel_s < full.data_parallel_s


def test_hybrid_sharding_holds_and_updates_one_copy_per_shard_group():
    # Each replica of a hybrid-sharded model holds, and its optimizer updates, a whole copy
    # split over its shard group of 8, not a 1/64 share: 8 times the weights, gradients,
    # optimizer state and update time of full sharding over 64 GPUs.
    full, hybrid = _mpt(), _mpt(shard_group_size=8)
    for field in ("weights_bytes", "gradients_bytes", "optimizer_bytes"):
        assert getattr(hybrid.memory, field) == pytest.approx(8 * getattr(full.memory, field), rel=1e-12)
    assert hybrid.memory.activations_bytes == pytest.approx(full.memory.activations_bytes, rel=1e-12)
    assert hybrid.optimizer_s == pytest.approx(8 * full.optimizer_s, rel=1e-12)


POLICIES = tuple(tr.RECOMPUTATION)


def _llama():
    return tr.transformer_model("Llama 3 8B")


def _step(recompute, model=None, cluster=None, gpus=8, software="PyTorch FSDP", **kwargs):
    config = tr.parallel_config(gpus, global_batch_size=gpus, recompute=recompute, zero_stage=3, **kwargs)
    return tr.training_step(model or _llama(), cluster or tr.system_cluster("DGX H100"), config, software)


def test_the_policies_are_megatrons_three_and_torchtitans_two():
    assert POLICIES == ("full", "selective", "none", "every other layer", "every other matmul")
    full, selective, none = (tr.RECOMPUTATION[name] for name in ("full", "selective", "none"))
    assert (full.projections, full.attention, full.elementwise, full.collectives) == (1, 1, 1, 1)
    assert (selective.projections, selective.attention, selective.elementwise) == (0, 1, 0)
    assert (none.projections, none.attention, none.elementwise, none.collectives) == (0, 0, 0, 0)
    for name in ("every other layer", "every other matmul"):
        assert "torchtitan" in tr.RECOMPUTATION[name].source.title


def test_an_unknown_policy_names_the_valid_ones():
    with pytest.raises(ValueError, match="recompute.*every other matmul"):
        tr.parallel_config(8, global_batch_size=8, recompute="op")
    with pytest.raises(ValueError, match="recompute"):
        tr.flops_per_token(_llama(), recompute="half")


def test_every_other_layer_costs_and_stores_the_mean_of_full_and_none():
    model = _llama()
    full, none, half = (tr.flops_per_token(model, recompute=name) for name in ("full", "none", "every other layer"))
    assert half == pytest.approx((full + none) / 2)
    steps = {name: _step(name) for name in ("full", "none", "every other layer")}
    assert steps["every other layer"].compute_s == pytest.approx(
        (steps["full"].compute_s + steps["none"].compute_s) / 2, rel=1e-9)
    assert steps["every other layer"].memory.activations_bytes == pytest.approx(
        (steps["full"].memory.activations_bytes + steps["none"].memory.activations_bytes) / 2, rel=1e-9)


def test_every_other_matmul_reruns_half_the_weight_gemms_and_the_elementwise_ops():
    model = _llama()
    # The FLOP count: half the projections' forward FLOPs again, no attention.
    projections = tr.flops_per_token(model, recompute="full") - tr.flops_per_token(model, recompute="selective")
    extra = tr.flops_per_token(model, recompute="every other matmul") - tr.flops_per_token(model, recompute="none")
    assert extra == pytest.approx(projections / 2)
    # It costs more than Megatron's selective recomputation and less than full; it stores less
    # than keeping everything and more than keeping only each layer's input.
    steps = {name: _step(name) for name in POLICIES}
    assert steps["none"].compute_s < steps["selective"].compute_s < steps["every other matmul"].compute_s
    assert steps["every other matmul"].compute_s < steps["full"].compute_s
    stored = {name: step.memory.activations_bytes for name, step in steps.items()}
    assert stored["full"] < stored["every other matmul"] < stored["none"]


def sc21_model(run):
    return tr.TransformerModel.gpt(layers=run.layers, hidden_size=run.hidden_size, heads=run.heads,
                                   vocabulary_size=SC21_TABLE1_VOCABULARY,
                                   sequence_length=SC21_TABLE1_SEQUENCE_LENGTH)


def _wide_data_parallel_step(gpus, software):
    # A 15B-parameter model at TP 8 over d = gpus / 8 nodes, four microbatches per GPU:
    # the shape of a small model trained on many DGX H100 nodes.
    model = tr.TransformerModel.gpt(layers=32, hidden_size=6144, heads=48, vocabulary_size=256000,
                                    sequence_length=4096)
    config = tr.parallel_config(gpus, global_batch_size=gpus // 2, tensor_parallel=8, microbatch_size=1,
                                recompute="selective", sequence_parallel=True, zero_stage=1)
    dgx_h100 = tr.Cluster(name="DGX H100", gpu="H100 SXM", gpus_per_node=8, scale_up_link="NVLink 4",
                          scale_out_link="InfiniBand NDR", nics_per_node=8)
    return tr.training_step(model, dgx_h100, config, software)


def _fsdp_step(hbm_bytes_per_received_byte, monkeypatch, stack="PyTorch FSDP"):
    from interconnect_lab import collectives
    monkeypatch.setattr(collectives, "HBM_BYTES_PER_RECEIVED_BYTE", hbm_bytes_per_received_byte)
    config = tr.parallel_config(64, global_batch_size=128, microbatch_size=2, recompute="none", zero_stage=3)
    return tr.training_step("Llama 3 8B", "MegaScale", config, stack)


def _fp32_weights_step(fp32_weights, *, gpus=64, recompute="none", monkeypatch=None):
    if monkeypatch is not None:     # no contention term, to isolate the casts and the gathers
        from interconnect_lab import collectives
        monkeypatch.setattr(collectives, "HBM_BYTES_PER_RECEIVED_BYTE", 0.0)
    stack = tr.software("llm-foundry 2023, DEFAULT" if fp32_weights else "llm-foundry 2023, PURE")
    config = tr.parallel_config(gpus, global_batch_size=2 * gpus, microbatch_size=2, recompute=recompute,
                                zero_stage=3)
    return tr.training_step("Llama 3 8B", "MegaScale", config, stack)


@pytest.mark.parametrize("run", SC21_TABLE1, ids=lambda r: f"{r.parameters / 1e9:g}B")
def test_sc21_table1_parameter_count_eq2(run):
    # SC21 Table 1 prints parameters to 0.1 B; Eq. (2) plus the final LayerNorm.
    assert tr.parameter_count(sc21_model(run)) == pytest.approx(run.parameters, abs=0.05e9)


def test_megascale_model_flops_per_token():
    # published-results §1: 1.077e12 FLOP per token for MegaScale's 175B model.
    assert tr.flops_per_token(tr.transformer_model("MegaScale 175B")) == pytest.approx(1.077e12, rel=1e-3)


@pytest.mark.parametrize("example", SC21_TRAINING_TIME_EXAMPLES, ids=lambda e: f"{e.days}d")
def test_sc21_eq4_training_days_within_2_percent(example):
    # SC21 §5.1, Eq. (4): 34 and 84 days, within 2 %.
    days = tr.training_time_s(example.parameters, example.tokens, example.gpus,
                              example.flop_per_s_per_gpu) / u.day
    assert days == pytest.approx(example.days, rel=0.02)


def test_parameter_count_of_released_llama_models():
    # Counted matrix by matrix; Llama 3 8B is 8,030,261,248 parameters as released.
    assert tr.parameter_count(tr.transformer_model("Llama 3 8B")) == 8_030_261_248
    assert tr.parameter_count(tr.transformer_model("Llama 2 70B")) == pytest.approx(68.98e9, rel=1e-3)
    assert tr.parameter_count(tr.transformer_model("Llama 3 405B")) == pytest.approx(405.9e9, rel=2e-3)


def test_megatron_flops_equal_sc21_eq3():
    # SC21 Eq. (3): F = 96 B s l h^2 (1 + s/6h + V/16lh) with full recomputation.
    run = SC21_TABLE1[4]
    model = sc21_model(run)
    l, h, s, V, B = run.layers, run.hidden_size, 2048, 51200, run.batch_size
    eq3 = 96 * B * s * l * h**2 * (1 + s / (6 * h) + V / (16 * l * h))
    assert tr.training_flops(model, B, recompute="full") == pytest.approx(eq3, rel=1e-12)
    assert tr.flops_per_token(model, recompute="none") == pytest.approx(
        72 * l * h**2 * (1 + s / (6 * h)) + 6 * h * V, rel=1e-12)


def test_flop_conventions_agree_roughly():
    model = tr.transformer_model("GPT-3 175B")
    megatron = tr.flops_per_token(model)
    palm = tr.flops_per_token(model, convention="6N+attention")
    assert palm == pytest.approx(megatron, rel=0.03)
    assert tr.flops_per_token(model, convention="6N") < megatron
    assert tr.flops_per_token(model, recompute="full") > tr.flops_per_token(model, recompute="selective") > megatron


@pytest.mark.parametrize("gpus", [768, 2304])
def test_megatron_core_buckets_keep_wide_data_parallel_rings_bandwidth_bound(gpus):
    # Megatron-Core's buckets of max(40 M, 1 M d) parameters: at d = 96 and 288 a ring's
    # per-step latency, paid once per layer, would cost more than the fewer, larger
    # buckets leave exposed at the end of the backward pass.
    core = tr.software("Megatron-Core 2024")
    per_layer = core.replace(overlap={"data_parallel": "per layer", "bucket_parameters": 0,
                                      "bucket_parameters_per_rank": 0})
    bucketed, layered = _wide_data_parallel_step(gpus, core), _wide_data_parallel_step(gpus, per_layer)
    assert bucketed.data_parallel_s < layered.data_parallel_s
    # The bytes moved are the same; only the count of collectives changes.
    assert bucketed.data_parallel_s + bucketed.data_parallel_hidden_s < \
        layered.data_parallel_s + layered.data_parallel_hidden_s


def test_one_bucket_is_the_reduction_after_the_backward_pass():
    # A bucket holding the whole stage fires when the backward pass ends, as a stack with no
    # overlap reduces its one contiguous buffer: the two cost the same.
    core = tr.software("Megatron-Core 2024")
    one_bucket = core.replace(overlap={"bucket_parameters": 10**12})
    no_overlap = core.replace(overlap={"data_parallel": "none", "bucket_parameters": 0,
                                       "bucket_parameters_per_rank": 0})
    a, b = _wide_data_parallel_step(768, one_bucket), _wide_data_parallel_step(768, no_overlap)
    assert a.data_parallel_s == pytest.approx(b.data_parallel_s, rel=1e-12)
    assert a.data_parallel_hidden_s == pytest.approx(0.0, abs=1e-15)


@pytest.mark.parametrize("recompute, sequence_parallel, exposed_share", [
    ("selective", False, 2 / 4),   # 2 forward all-reduces of 4 per layer
    ("full", False, 4 / 6),        # and 2 more in the recomputed forward pass
    ("selective", True, 6 / 8),    # the backward's all-gathers stay: 6 of 8 halves
])
def test_megatron_2022_runs_its_backward_collectives_under_the_weight_gradient_gemms(
        recompute, sequence_parallel, exposed_share):
    # Korthikanti et al.'s 22B layer on 8 GPUs (Table 3): each weight-gradient GEMM outlasts the
    # collective it hides, so exactly the forward passes' share stays exposed.
    model = tr.TransformerModel.gpt(layers=48, hidden_size=6144, heads=64, vocabulary_size=51200,
                                    sequence_length=2048)
    config = tr.parallel_config(8, global_batch_size=4, tensor_parallel=8, microbatch_size=4,
                                recompute=recompute, sequence_parallel=sequence_parallel)
    blocking = tr.training_step(model, "Selene", config, "Megatron-LM SC21")
    asynchronous = tr.training_step(model, "Selene", config, "Megatron-LM 2022")
    assert asynchronous.tensor_parallel_s == pytest.approx(exposed_share * blocking.tensor_parallel_s)


def test_a_short_weight_gradient_gemm_hides_only_part_of_its_collective():
    model = tr.TransformerModel.gpt(layers=4, hidden_size=4096, heads=32, vocabulary_size=51200,
                                    sequence_length=128)
    config = tr.parallel_config(8, global_batch_size=1, tensor_parallel=8, microbatch_size=1)
    blocking = tr.training_step(model, "Selene", config, "Megatron-LM SC21").tensor_parallel_s
    asynchronous = tr.training_step(model, "Selene", config, "Megatron-LM 2022").tensor_parallel_s
    assert blocking / 2 < asynchronous < blocking


@pytest.mark.parametrize(("call", "message"), [
    (lambda: tr.transformer_model("GPT-5"), r"unknown model name 'GPT-5'; valid model names are: 'GPT-3 175B'"),
    (lambda: tr.cluster("Frontier"), r"unknown cluster name 'Frontier'"),
    (lambda: tr.software("PyTorch"), r"unknown software name 'PyTorch'"),
    (lambda: tr.ParallelConfig(global_batch_size=8, recompute="half"), r"unknown recompute 'half'"),
    (lambda: tr.ParallelConfig(global_batch_size=0), r"global_batch_size = 0 sequences is not valid"),
    (lambda: tr.ParallelConfig(global_batch_size=8, zero_stage=4), r"zero_stage = 4 is not valid"),
    (lambda: tr.zero_communication_volume(2, quantized_weights=True), r"applies to ZeRO stage 3"),
    (lambda: tr.training_time_s(175e9, 300e9, 0, 140e12), r"gpus = 0 is not valid"),
    (lambda: tr.flops_per_token(tr.transformer_model("GPT-3 175B"), convention="7N"), r"unknown FLOP convention"),
    (lambda: tr.TransformerModel.gpt(layers=2, hidden_size=100, heads=3, vocabulary_size=10, sequence_length=8),
     r"hidden_size = 100 is not divisible by heads = 3"),
    (lambda: tr.Efficiencies(gemm=1.5), r"Efficiencies.gemm = 1.5 is not valid"),
    (lambda: tr.Overlap(data_parallel="buckets", bucket_parameters=-1), r"Overlap.bucket_parameters = -1 parameters is not valid"),
])
def test_bad_input_names_parameter_and_range(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_hidden_collectives_cost_compute_in_proportion_to_their_hbm_traffic(monkeypatch):
    # The cost is HBM_BYTES_PER_RECEIVED_BYTE x bytes received / HBM rate: linear in the factor,
    # zero without it, and nothing else in the step moves.
    free, twice, four = (_fsdp_step(k, monkeypatch) for k in (0.0, 2.0, 4.0))
    assert twice.compute_s > free.compute_s
    assert four.compute_s - free.compute_s == pytest.approx(2 * (twice.compute_s - free.compute_s), rel=1e-9)
    assert twice.data_parallel_s == free.data_parallel_s
    assert twice.data_parallel_hidden_s == free.data_parallel_hidden_s
    # Bounded by the whole traffic: every GPU receives at most 3 M per microbatch (ZeRO-3) [B].
    a100 = catalog.gpu("A100 SXM")
    weights = 2 * tr.parameter_count(tr.transformer_model("Llama 3 8B"))
    bound = 2.0 * 3 * weights / (tr.DEFAULT_EFFICIENCIES.memory_bandwidth * a100.hbm_bandwidth_bytes_per_s)
    assert twice.compute_s - free.compute_s < bound


@pytest.mark.parametrize("recompute", sorted(tr.RECOMPUTATION))
def test_early_stop_skips_each_recomputed_blocks_mlp_output_projection(recompute):
    # PyTorch's non-reentrant checkpoint stops once the block's last saved tensor, the MLP output
    # projection's input, is back: that GEMM (2 f h FLOPs per token) is not rerun. Only the
    # policies that checkpoint whole blocks rerun it at all: every block ("full") or every other.
    model = tr.transformer_model("Llama 3 8B")
    config = tr.parallel_config(8, global_batch_size=16, microbatch_size=2, zero_stage=3, recompute=recompute)
    steps = {stop: tr.training_step(model, "MegaScale", config, tr.software("PyTorch FSDP").replace(
        checkpoint="early stop" if stop else "whole block")) for stop in (False, True)}
    blocks = {"full": 1.0, "every other layer": 0.5}.get(recompute, 0.0)
    skipped = blocks * model.layers * 16 * model.sequence_length * 2 * model.ffn_hidden_size * model.hidden_size
    assert steps[False].hardware_flops - steps[True].hardware_flops == pytest.approx(skipped, rel=1e-12)
    assert (steps[True].step_s < steps[False].step_s) == (blocks > 0)
    assert steps[True].model_flops == steps[False].model_flops


def test_fp32_weights_cost_the_casts_autocast_makes(monkeypatch):
    # On one GPU: each weight is cast once per forward pass (read 4, write 2 B), its gradient back
    # up (read 2, write 4) and down to the 2 B reduction (read 4, write 2): 18 B per weight and
    # microbatch; full recomputation casts again (24 B). The FP32 residual stream adds 2 B to each
    # norm's read and 4 B to each add (two of each per layer), per element of the hidden state
    # and per pass (forward, recomputation, and the backward pass's two).
    model = tr.transformer_model("Llama 3 8B")
    hbm = tr.DEFAULT_EFFICIENCIES.memory_bandwidth * catalog.gpu("A100 SXM").hbm_bandwidth_bytes_per_s
    weights = tr.parameter_count(model)
    for recompute, cast_bytes, passes in (("none", 18, 3), ("full", 24, 4)):
        bf16, fp32 = (_fp32_weights_step(k, gpus=1, recompute=recompute) for k in (False, True))
        stream = passes * 2 * (2 + 4) * (2 * model.sequence_length) * model.hidden_size
        expected = (weights * cast_bytes + model.layers * stream) / hbm   # every weight, the embeddings too
        assert fp32.compute_s - bf16.compute_s == pytest.approx(expected, rel=1e-9), recompute


# Hostile input: fuzzed with tests/fuzzing.py -----------------------------------------------------

MODELS = tuple(training.MODELS)

FUZZ_CASES = [
    Case(training.parameter_count, dict(model=st.builds(training.transformer_model, st.sampled_from(MODELS)))),
    Case(training.flops_per_token, dict(model=st.builds(training.transformer_model, st.sampled_from(MODELS)),
                                        recompute=choice(("full", "selective", "none")),
                                        convention=choice(tuple(training.FLOP_CONVENTIONS)))),
    Case(training.training_flops, dict(model=st.builds(training.transformer_model, st.sampled_from(MODELS)),
                                       batch_size=count(1, 10_000), recompute=choice(("full", "selective", "none")))),
    Case(training.training_time_s, dict(parameters=positive(1e6, 1e13), tokens=nonnegative(1e6, 1e14),
                                        gpus=count(1, 100_000), flop_per_s_per_gpu=positive(1e12, 1e16))),
]


# Hostile input -----------------------------------------------------------------------------------

@pytest.mark.usefixtures("warnings_are_errors")
def test_training_time_is_never_nan():
    with pytest.raises(ValueError, match="parameters = 1e\\+300 is not valid"):
        training.training_time_s(1e300, 1e300, 1, 1e-300)
    with pytest.raises(ValueError, match="flop_per_s_per_gpu = 1e\\+308"):
        training.training_time_s(175e9, 300e9, 1024, 1e308)
    assert training.training_time_s(175e9, 0, 1024, 140e12) == 0

test_fuzz, test_fuzz_nightly = make_tests(FUZZ_CASES)
