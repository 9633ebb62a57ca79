"""Training at scale (chapter 8): FLOPs, parameters, memory, parallel step time, ZeRO volumes.

Published values are read from interconnect_lab.published; each test names its
table and tolerance. One set of defaults (training.DEFAULT_EFFICIENCIES,
training.SOFTWARE) serves every case.
"""

import dataclasses
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from interconnect_lab import catalog, collectives
from interconnect_lab import training as tr
from interconnect_lab import units as u
from interconnect_lab.published import (
    MEGASCALE_ABLATION,
    MEGASCALE_TABLE2,
    SC21_TABLE1,
    SC21_TABLE1_SEQUENCE_LENGTH,
    SC21_TABLE1_VOCABULARY,
    SC21_TRAINING_TIME_EXAMPLES,
    ZERO_PLUS_PLUS_VOLUME,
)
from interconnect_lab.published.training_runs import LLM_FOUNDRY_BENCHMARKS


def sc21_model(run):
    return tr.TransformerModel.gpt(layers=run.layers, hidden_size=run.hidden_size, heads=run.heads,
                                   vocabulary_size=SC21_TABLE1_VOCABULARY,
                                   sequence_length=SC21_TABLE1_SEQUENCE_LENGTH)


def sc21_step(run, efficiencies=tr.DEFAULT_EFFICIENCIES):
    config = tr.parallel_config(run.gpus, global_batch_size=run.batch_size,
                                tensor_parallel=run.tensor_parallel,
                                pipeline_parallel=run.pipeline_parallel,
                                microbatch_size=run.microbatch_size, interleave=run.interleave or 1,
                                recompute="full")
    return tr.training_step(sc21_model(run), "Selene", config, run.software, efficiencies=efficiencies)


def megascale_step(run, efficiencies=tr.DEFAULT_EFFICIENCIES):
    megatron = run.system == "Megatron-LM"
    config = tr.parallel_config(run.gpus, global_batch_size=run.batch_size, tensor_parallel=8,
                                pipeline_parallel=8, interleave=6,
                                microbatch_size=tr.MEGASCALE_MICROBATCH_SIZE, recompute="selective",
                                sequence_parallel=True, zero_stage=0 if megatron else 2)
    stack = "Megatron-LM 2023" if megatron else "MegaScale"
    return tr.training_step("MegaScale 175B", "MegaScale", config, stack, efficiencies=efficiencies)


def calibration_errors(gemm):
    """Relative errors over SC21 Table 1 and MegaScale Table 2 with ``Efficiencies.gemm = gemm``."""
    efficiencies = dataclasses.replace(tr.DEFAULT_EFFICIENCIES, gemm=gemm)
    sc21 = [sc21_step(run, efficiencies).hardware_flop_per_s_per_gpu / run.flop_per_s_per_gpu - 1
            for run in SC21_TABLE1]
    megascale = [megascale_step(run, efficiencies).mfu / run.mfu - 1 for run in MEGASCALE_TABLE2]
    return np.array(sc21 + megascale)


# Published values ------------------------------------------------------------------

def test_sc21_rows_replay_the_data_parallel_implementation_their_script_names():
    # examples/sc21/run_table_1.sh: DDP=torch (PyTorch's DistributedDataParallel, which
    # all-reduces gradient buckets during the backward pass) for the four smallest rows,
    # DDP=local (Megatron-LM's own, one all-reduce after the backward pass) from 39B up.
    assert [run.ddp for run in SC21_TABLE1] == ["torch"] * 4 + ["local"] * 6
    torch_ddp, local = tr.software("Megatron-LM SC21, torch DDP"), tr.software("Megatron-LM SC21")
    assert [run.software for run in SC21_TABLE1] == [torch_ddp.name] * 4 + [local.name] * 6
    # The two stacks differ in the overlap alone.
    assert dataclasses.replace(torch_ddp, name=local.name, data_parallel_overlap=False,
                               sources=local.sources) == local
    # The 18.4B row's all-reduce, 4% of its step after the backward pass, hides behind it.
    run = SC21_TABLE1[3]
    after = dataclasses.replace(run, ddp="local")
    overlapped, exposed = sc21_step(run), sc21_step(after)
    assert exposed.data_parallel_s > 0.03 * exposed.step_s
    assert overlapped.data_parallel_s < 0.1 * exposed.data_parallel_s
    assert overlapped.step_s < exposed.step_s


@pytest.mark.parametrize("run", SC21_TABLE1, ids=lambda r: f"{r.parameters / 1e9:g}B")
def test_sc21_table1_parameter_count_eq2(run):
    # SC21 Table 1 prints parameters to 0.1 B; Eq. (2) plus the final LayerNorm.
    assert tr.parameter_count(sc21_model(run)) == pytest.approx(run.parameters, abs=0.05e9)


@pytest.mark.parametrize("run", SC21_TABLE1, ids=lambda r: f"{r.parameters / 1e9:g}B")
def test_sc21_table1_tflops_per_gpu_within_10_percent(run):
    # SC21 Table 1, "achieved teraFLOP/s per GPU", within ±10 %.
    step = sc21_step(run)
    assert step.hardware_flop_per_s_per_gpu == pytest.approx(run.flop_per_s_per_gpu, rel=0.10)
    assert step.memory.fits


@pytest.mark.parametrize("run", MEGASCALE_TABLE2, ids=lambda r: f"{r.system}-{r.gpus}-{r.batch_size}")
def test_megascale_table2_mfu_within_10_percent(run):
    # MegaScale NSDI'24 Table 2, MFU column, within ±10 % relative.
    step = megascale_step(run)
    assert step.mfu == pytest.approx(run.mfu, rel=0.10)
    assert step.memory.fits


def test_megascale_speedup_at_12288_gpus():
    # MegaScale Table 2: 1.34x over Megatron-LM on 12,288 GPUs, within ±0.15.
    rows = [r for r in MEGASCALE_TABLE2 if r.gpus == 12288]
    megascale = next(r for r in rows if r.system == "MegaScale")
    megatron = next(r for r in rows if r.system == "Megatron-LM")
    speedup = megascale_step(megascale).tokens_per_s / megascale_step(megatron).tokens_per_s
    assert speedup == pytest.approx(megascale.speedup, abs=0.15)


def test_megascale_model_flops_per_token():
    # published-results §1: 1.077e12 FLOP per token for MegaScale's 175B model.
    assert tr.flops_per_token(tr.transformer_model("MegaScale 175B")) == pytest.approx(1.077e12, rel=1e-3)


@pytest.mark.parametrize("example", SC21_TRAINING_TIME_EXAMPLES, ids=lambda e: f"{e.days}d")
def test_sc21_eq4_training_days_within_2_percent(example):
    # SC21 §5.1, Eq. (4): 34 and 84 days, within 2 %.
    days = tr.training_time_s(example.parameters, example.tokens, example.gpus,
                              example.flop_per_s_per_gpu) / u.day
    assert days == pytest.approx(example.days, rel=0.02)


def test_zero_plus_plus_volume_is_four_times_smaller():
    # Wang et al. 2023 (ZeRO++), §3-4: 3M -> 0.75M, exactly.
    zero3 = tr.zero_communication_volume(3)
    plus = tr.zero_communication_volume(3, quantized_weights=True, hierarchical_partition=True,
                                        quantized_gradients=True)
    assert zero3.total == ZERO_PLUS_PLUS_VOLUME["zero3_total"]
    assert plus.forward_all_gather == ZERO_PLUS_PLUS_VOLUME["qwz_forward_all_gather"]
    assert plus.cross_node - plus.forward_all_gather - plus.gradient_reduction == \
        ZERO_PLUS_PLUS_VOLUME["hpz_backward_all_gather_across_nodes"]
    assert plus.gradient_reduction == ZERO_PLUS_PLUS_VOLUME["qgz_reduce_scatter"]
    assert plus.cross_node == ZERO_PLUS_PLUS_VOLUME["zero_plus_plus_total"]
    assert zero3.cross_node / plus.cross_node == 4.0


# Identities and limits ----------------------------------------------------------------

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


def test_mfu_never_exceeds_gemm_efficiency_and_hfu_exceeds_mfu():
    for run in SC21_TABLE1[::3]:
        step = sc21_step(run)
        assert step.mfu <= tr.DEFAULT_EFFICIENCIES.gemm
        assert step.hfu > step.mfu


def test_parts_add_up_to_the_step():
    step = sc21_step(SC21_TABLE1[6])
    assert sum(step.breakdown().values()) == pytest.approx(step.step_s, rel=1e-12)
    assert step.tokens_per_s == pytest.approx(step.tokens / step.step_s)


def test_tensor_parallel_one_has_no_tp_communication_and_no_pipeline_no_bubble():
    step = sc21_step(SC21_TABLE1[0])      # TP 1, PP 1
    assert step.tensor_parallel_s == 0.0
    assert step.pipeline_s == 0.0
    assert step.bubble_s == 0.0


def test_bubble_vanishes_with_many_microbatches():
    model = tr.transformer_model("GPT-3 175B")
    fractions = []
    for batch in (64, 512, 4096, 32768):
        config = tr.parallel_config(64, global_batch_size=batch, tensor_parallel=8, pipeline_parallel=8)
        fractions.append(tr.training_step(model, "Selene", config).bubble_fraction)
    assert all(a > b for a, b in zip(fractions, fractions[1:]))
    assert fractions[-1] < 0.001
    assert tr.pipeline_bubble_fraction(8, 10**9) < 1e-8


def test_bubble_formula_sc21():
    assert tr.pipeline_bubble_fraction(8, 64) == pytest.approx(7 / 64)
    assert tr.pipeline_bubble_fraction(8, 64, interleave=2) == pytest.approx(7 / 128)


def test_each_overlap_switch_never_slows_the_step():
    run = next(r for r in MEGASCALE_TABLE2 if r.system == "Megatron-LM" and r.gpus == 1024)
    config = tr.parallel_config(run.gpus, global_batch_size=run.batch_size, tensor_parallel=8,
                                pipeline_parallel=8, interleave=6, microbatch_size=2,
                                recompute="selective", sequence_parallel=True, zero_stage=1)
    base = tr.software("Megatron-LM 2023")
    before = tr.training_step("MegaScale 175B", "MegaScale", config, base).step_s
    for switch in ("tensor_parallel_overlap", "pipeline_parallel_overlap", "data_parallel_overlap",
                   "parallel_block", "fused_norm_activation"):
        after = tr.training_step("MegaScale 175B", "MegaScale", config,
                                 dataclasses.replace(base, **{switch: True})).step_s
        assert after < before, switch


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


@pytest.mark.parametrize("gpus", [768, 2304])
def test_megatron_core_buckets_keep_wide_data_parallel_rings_bandwidth_bound(gpus):
    # Megatron-Core's buckets of max(40 M, 1 M d) parameters: at d = 96 and 288 a ring's
    # per-step latency, paid once per layer, would cost more than the fewer, larger
    # buckets leave exposed at the end of the backward pass.
    core = tr.software("Megatron-Core 2024")
    per_layer = dataclasses.replace(core, bucket_parameters=0, bucket_parameters_per_rank=0)
    bucketed, layered = _wide_data_parallel_step(gpus, core), _wide_data_parallel_step(gpus, per_layer)
    assert bucketed.data_parallel_s < layered.data_parallel_s
    # The bytes moved are the same; only the count of collectives changes.
    assert bucketed.data_parallel_s + bucketed.data_parallel_hidden_s < \
        layered.data_parallel_s + layered.data_parallel_hidden_s


def test_one_bucket_is_the_reduction_after_the_backward_pass():
    # A bucket holding the whole stage fires when the backward pass ends, as a stack with no
    # overlap reduces its one contiguous buffer: the two cost the same.
    core = tr.software("Megatron-Core 2024")
    one_bucket = dataclasses.replace(core, bucket_parameters=10**12)
    no_overlap = dataclasses.replace(core, data_parallel_overlap=False)
    a, b = _wide_data_parallel_step(768, one_bucket), _wide_data_parallel_step(768, no_overlap)
    assert a.data_parallel_s == pytest.approx(b.data_parallel_s, rel=1e-12)
    assert a.data_parallel_hidden_s == pytest.approx(0.0, abs=1e-15)


def test_megascale_ablation_rises_step_by_step():
    rows = tr.megascale_ablation()
    mfus = [mfu for _, mfu in rows]
    assert all(b > a for a, b in zip(mfus, mfus[1:]))
    assert rows[0][1] == pytest.approx(0.477, rel=0.10)     # MegaScale Table 3 baseline, ±10 %
    assert rows[-1][1] == pytest.approx(0.653, rel=0.10)    # Table 3 final row, ±10 %


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


def test_megascale_baseline_keeps_its_tensor_parallel_collectives_exposed():
    # MegaScale Table 3 credits overlapping tensor-parallel communication with 2.2 MFU points;
    # a baseline that already ran its backward collectives asynchronously would leave the
    # model less of that to gain than the blocking one the preset keeps.
    published = {step.label: step.mfu for step in MEGASCALE_ABLATION}
    gain = published["tensor-parallel overlap"] - published["sliding-window attention"]

    def modelled_gain(baseline):
        rows = dict(tr.megascale_ablation(baseline=baseline))
        return rows["tensor-parallel overlap"] - rows["parallel transformer block"]

    blocking = modelled_gain("Megatron-LM 2023")
    asynchronous = modelled_gain(dataclasses.replace(tr.software("Megatron-LM 2023"),
                                                     tensor_parallel_backward_overlap=True))
    assert asynchronous < blocking
    assert abs(blocking - gain) < abs(asynchronous - gain)


def test_memory_sharding_by_zero_stage():
    model = tr.transformer_model("Llama 3 70B")
    totals = {}
    for stage in range(4):
        config = tr.parallel_config(64, global_batch_size=64, tensor_parallel=8, zero_stage=stage,
                                    recompute="full")
        memory = tr.training_step(model, "Selene", config).memory
        totals[stage] = memory
    assert totals[1].optimizer_bytes == pytest.approx(totals[0].optimizer_bytes / 8)
    assert totals[2].gradients_bytes == pytest.approx(totals[1].gradients_bytes / 8)
    assert totals[3].weights_bytes == pytest.approx(totals[2].weights_bytes / 8)
    assert totals[0].total_bytes > totals[1].total_bytes > totals[2].total_bytes > totals[3].total_bytes


def test_korthikanti_activation_memory_closed_forms():
    # Korthikanti et al. 2022 §4: sbh(34 + 5as/h) without parallelism, sbh(10 + 24/t + 5as/ht)
    # with TP, sbh/t (34 + 5as/h) with TP + SP, 34 sbh / t with selective recomputation + SP.
    model = tr.transformer_model("GPT-3 175B")
    s, b, h, a, t = 2048, 1, model.hidden_size, model.heads, 8
    stack = tr.software("Megatron-LM SC21")

    def layer(recompute, tp, sp):
        return tr._activation_bytes_per_layer(model, stack, recompute, np.float64(tp), 1.0, b, sp)

    assert layer("none", 1, False) == pytest.approx(s * b * h * (34 + 5 * a * s / h))
    assert layer("none", t, False) == pytest.approx(s * b * h * (10 + 24 / t + 5 * a * s / (h * t)))
    assert layer("none", t, True) == pytest.approx(s * b * h / t * (34 + 5 * a * s / h))
    assert layer("selective", t, True) == pytest.approx(34 * s * b * h / t)
    assert layer("full", t, False) == pytest.approx(2 * s * b * h)


def test_memory_verdict_says_by_how_much():
    config = tr.ParallelConfig(global_batch_size=8, data_parallel=8)
    memory = tr.memory_per_gpu("GPT-3 175B", "Selene", config)
    assert not memory.fits
    assert memory.shortfall_bytes > 2e12
    assert "does not fit" in memory.verdict() and "more than the 80 GB" in memory.verdict()
    fitting = tr.memory_per_gpu("Llama 3 8B", "Selene", tr.ParallelConfig(global_batch_size=8, data_parallel=8,
                                                                        zero_stage=1))
    assert fitting.fits and fitting.shortfall_bytes == 0.0 and fitting.verdict().startswith("fits")


def test_days_to_train_from_a_step():
    step = sc21_step(SC21_TABLE1[-1])
    days = step.days_to_train(450e9, parameters=SC21_TABLE1[-1].parameters)
    assert days == pytest.approx(84, rel=0.15)      # SC21 Eq. 4 at the modelled rate


def test_sweep_matches_single_evaluations_and_finds_a_fitting_best():
    sweep = tr.parallel_sweep("GPT-3 175B", "Selene", 1024, 1536, recompute="full")
    assert len(sweep) > 20
    assert np.all(sweep.tensor_parallel * sweep.pipeline_parallel * sweep.data_parallel == 1024)
    for index in (0, len(sweep) // 2, len(sweep) - 1, sweep.best()):
        row = sweep.row(index)
        config = tr.parallel_config(1024, global_batch_size=1536, tensor_parallel=row["tensor_parallel"],
                                    pipeline_parallel=row["pipeline_parallel"],
                                    microbatch_size=row["microbatch_size"], recompute="full")
        single = tr.training_step("GPT-3 175B", "Selene", config)
        assert single.step_s == pytest.approx(row["step_s"], rel=1e-12)
    assert sweep.row(sweep.best())["fits"]


def test_gradient_compression_volume_and_error():
    g = np.random.default_rng(3).standard_normal(50_000)
    eight = tr.gradient_compression(g, "quantize", bits=8, rng=0)
    four = tr.gradient_compression(g, "quantize", bits=4, rng=0)
    assert eight.compression_ratio == pytest.approx(2.0, rel=1e-3)
    assert four.compression_ratio == pytest.approx(4.0, rel=1e-3)
    assert four.relative_error > eight.relative_error
    topk = tr.gradient_compression(g, "top-k", fraction=0.1)
    assert topk.bytes_sent == 5000 * 6
    everything = tr.gradient_compression(g, "top-k", fraction=1.0)
    assert everything.relative_error == 0.0


# Properties ------------------------------------------------------------------------

@settings(max_examples=40, deadline=None)
@given(st.sampled_from(list(tr.MODELS)), st.sampled_from([1, 2, 4, 8]), st.sampled_from([1, 2, 4]),
       st.sampled_from([1, 2, 4, 8]), st.sampled_from(["full", "selective", "none"]))
def test_step_is_positive_and_bounded(model_name, t, p, d, recompute):
    model = tr.transformer_model(model_name)
    if model.layers % p or model.kv_heads % t and t % model.kv_heads:
        return
    config = tr.parallel_config(t * p * d, global_batch_size=16 * d, tensor_parallel=t, pipeline_parallel=p,
                                recompute=recompute)
    step = tr.training_step(model, "Selene", config)
    assert step.step_s >= step.compute_s > 0
    assert 0 < step.mfu <= tr.DEFAULT_EFFICIENCIES.gemm
    assert step.hfu >= step.mfu
    assert step.memory.total_bytes > 0


@settings(max_examples=30, deadline=None)
@given(st.floats(0.3, 1.0), st.floats(0.3, 1.0))
def test_faster_kernels_never_slow_a_step(gemm, memory_bandwidth):
    run = SC21_TABLE1[5]
    slow = dataclasses.replace(tr.DEFAULT_EFFICIENCIES, gemm=gemm * 0.9, memory_bandwidth=memory_bandwidth * 0.9)
    fast = dataclasses.replace(tr.DEFAULT_EFFICIENCIES, gemm=gemm, memory_bandwidth=memory_bandwidth)
    config = tr.parallel_config(run.gpus, global_batch_size=run.batch_size, tensor_parallel=8,
                                pipeline_parallel=4, microbatch_size=2, interleave=3)
    model = sc21_model(run)
    assert tr.training_step(model, "Selene", config, efficiencies=fast).step_s < \
        tr.training_step(model, "Selene", config, efficiencies=slow).step_s


# Bad input -----------------------------------------------------------------------------

@pytest.mark.parametrize(("kwargs", "message"), [
    ({"tensor_parallel": 7}, r"gpus = 1024 is not divisible by tensor_parallel x pipeline_parallel"),
    ({"tensor_parallel": 8, "pipeline_parallel": 64}, r"layers = 96 are not divisible by pipeline_parallel = 64"),
])
def test_split_that_does_not_divide_names_what(kwargs, message):
    with pytest.raises(ValueError, match=message):
        config = tr.parallel_config(1024, global_batch_size=1024, **kwargs)
        tr.training_step("GPT-3 175B", "Selene", config)


def test_heads_not_divisible_by_tensor_parallel():
    config = tr.parallel_config(64, global_batch_size=64, tensor_parallel=64)
    with pytest.raises(ValueError, match=r"heads = 96 are not divisible by tensor_parallel = 64"):
        tr.training_step("GPT-3 175B", "Selene", config)


def test_batch_not_divisible_by_replicas():
    with pytest.raises(ValueError, match=r"global_batch_size = 100 sequences is not divisible by "
                                         r"data_parallel x microbatch_size = 8 x 1 = 8"):
        tr.ParallelConfig(global_batch_size=100, data_parallel=8)


def test_interleaving_needs_microbatches_divisible_by_stages():
    with pytest.raises(ValueError, match=r"microbatch count m = 12 .* pipeline_parallel = 8"):
        tr.ParallelConfig(global_batch_size=96, data_parallel=8, pipeline_parallel=8, interleave=2)


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
    (lambda: tr.Software(name="x", bucket_parameters=-1), r"Software.bucket_parameters = -1 is not valid"),
])
def test_bad_input_names_parameter_and_range(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_wrong_types_are_rejected():
    with pytest.raises(TypeError, match="config must be a ParallelConfig"):
        tr.training_step("GPT-3 175B", "Selene", {"tensor_parallel": 8})
    with pytest.raises(TypeError, match=r"model must be a TransformerModel or the name of one \('GPT-3 175B'"):
        tr.training_step(42, "Selene", tr.ParallelConfig(global_batch_size=8))


def test_uneven_pipeline_is_opt_in_and_leaves_the_short_stages_at_the_ends():
    # Llama 3 405B runs 126 layers on 16 pipeline stages, one layer fewer on the first and the
    # last, where the embedding and the output layer are (Grattafiori et al. 2024, §3.3.2).
    # The default refuses the split and says how to allow it.
    model = tr.transformer_model("Llama 3 405B")
    with pytest.raises(ValueError, match=r"layers = 126 are not divisible by pipeline_parallel = 16 .*uneven_pipeline"):
        tr.parallel_config(8192, global_batch_size=2048, tensor_parallel=8, pipeline_parallel=16).check(model)
    cluster_ = tr.system_cluster("DGX H100")
    uneven = tr.parallel_config(8192, global_batch_size=2048, tensor_parallel=8, pipeline_parallel=16,
                                uneven_pipeline=True, recompute="selective", sequence_parallel=True,
                                zero_stage=1)

    def step(model_, config=uneven):
        return tr.training_step(model_, cluster_, config, "Megatron-LM 2023")

    def vocabulary(model_, factor):
        return dataclasses.replace(model_, vocabulary_size=int(model_.vocabulary_size * factor))

    llama = step(model)
    # 128 layers split evenly put 8 layers and the logits on the last stage; the uneven split
    # leaves it 7 layers and the logits, which cost less than a layer, so 8 layers set the pace.
    even_model = dataclasses.replace(model, layers=128)
    even = dataclasses.replace(uneven, uneven_pipeline=False)
    reference = step(even_model, even)
    assert llama.compute_s < reference.compute_s
    assert llama.memory.weights_bytes < reference.memory.weights_bytes
    # So a smaller vocabulary changes nothing in the uneven split, and speeds up the even one ...
    assert step(vocabulary(model, 0.5)).compute_s == pytest.approx(llama.compute_s, rel=1e-12)
    assert step(vocabulary(even_model, 0.5), even).compute_s < reference.compute_s
    # ... until the logits outweigh a layer: then the last stage sets the pace again.
    assert step(vocabulary(model, 8)).compute_s > llama.compute_s
    # The model FLOPs are those of the 126 layers the model has.
    assert llama.model_flops < reference.model_flops


# Hidden collectives still take HBM bandwidth (NVIDIA/nccl issue 1428) -----------------------

def _fsdp_step(hbm_bytes_per_received_byte, monkeypatch, stack="PyTorch FSDP"):
    from interconnect_lab import collectives
    monkeypatch.setattr(collectives, "HBM_BYTES_PER_RECEIVED_BYTE", hbm_bytes_per_received_byte)
    config = tr.parallel_config(64, global_batch_size=128, microbatch_size=2, recompute="none", zero_stage=3)
    return tr.training_step("Llama 3 8B", "MegaScale", config, stack)


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


def test_a_stack_that_hides_nothing_pays_no_contention(monkeypatch):
    free, twice = (_fsdp_step(k, monkeypatch, "Megatron-LM SC21") for k in (0.0, 2.0))
    assert twice.step_s == free.step_s


# FP32 weights under autocast (Composer's DEFAULT FSDP mixed precision) -----------------------

def _fp32_weights_step(fp32_weights, *, gpus=64, recompute="none", monkeypatch=None):
    if monkeypatch is not None:     # no contention term, to isolate the casts and the gathers
        from interconnect_lab import collectives
        monkeypatch.setattr(collectives, "HBM_BYTES_PER_RECEIVED_BYTE", 0.0)
    stack = tr.software("llm-foundry 2023, DEFAULT" if fp32_weights else "llm-foundry 2023, PURE")
    config = tr.parallel_config(gpus, global_batch_size=2 * gpus, microbatch_size=2, recompute=recompute,
                                zero_stage=3)
    return tr.training_step("Llama 3 8B", "MegaScale", config, stack)


def test_composer_default_and_pure_differ_only_in_the_weights():
    bf16, fp32 = tr.software("llm-foundry 2023, PURE"), tr.software("llm-foundry 2023, DEFAULT")
    assert fp32.fp32_weights and not bf16.fp32_weights
    assert dataclasses.replace(fp32, name=bf16.name, fp32_weights=False, sources=bf16.sources) == bf16
    # ... and from PyTorch FSDP only in the attention kernel MPT ran (attn_impl: triton) and in
    # MPT's single-kernel LayerNorm and GELU.
    fsdp = tr.software("PyTorch FSDP")
    # (and in the PyTorch 1.13 its table ran, whose checkpoint reran each block whole).
    assert dataclasses.replace(bf16, name=fsdp.name, attention_kernel=fsdp.attention_kernel,
                               eager_elementwise=True, recompute_early_stop=True, sources=fsdp.sources) == fsdp


# Element-wise ops written op by op (eager PyTorch) ----------------------------------------------

def _eager_step(model, eager, **changes):
    stack = dataclasses.replace(tr.software("PyTorch FSDP"), eager_elementwise=eager, **changes)
    config = tr.parallel_config(1, global_batch_size=2, microbatch_size=2, recompute="none")
    return tr.training_step(model, "MegaScale", config, stack)


def test_eager_elementwise_costs_the_bytes_counted_from_torchtitans_code():
    # Llama 3 8B on one A100, 2 x 8,192 tokens: per layer, two RMSNorms (36 B forward and 76 B
    # backward per element of the hidden state, where one kernel moves 2 + 2 and twice that), the
    # rotary embedding on queries and keys (20 B each way per element) and SwiGLU (10 and 18 B per
    # element of the FFN width, where one kernel moves 6 and 12), all at the HBM rate.
    model = tr.transformer_model("Llama 3 8B")
    hbm = tr.DEFAULT_EFFICIENCIES.memory_bandwidth * catalog.gpu("A100 SXM").hbm_bandwidth_bytes_per_s
    tokens = 2 * model.sequence_length
    norm = 2 * (sum(tr.EAGER_RMSNORM_BYTES) - 3 * (2 + 2)) * model.hidden_size
    rotary = sum(tr.EAGER_ROTARY_BYTES) * (model.hidden_size + model.kv_size)
    gated = (sum(tr.EAGER_GATED_ACTIVATION_BYTES) - 3 * 6) * model.ffn_hidden_size
    assert (norm, rotary, gated) == (2 * 100 * 4096, 40 * (4096 + 1024), 10 * 14336)
    expected = model.layers * tokens * (norm + rotary + gated) / hbm
    fused, eager = (_eager_step(model, flag) for flag in (False, True))
    assert eager.compute_s - fused.compute_s == pytest.approx(expected, rel=1e-9)
    assert 0.05 < expected / fused.compute_s < 0.15


def test_eager_elementwise_leaves_models_without_those_ops_and_fused_stacks_alone():
    gpt = tr.transformer_model("GPT-3 175B")
    gpt = dataclasses.replace(gpt, layers=2, name="two GPT-3 layers")      # LayerNorm, learned positions, GELU
    assert _eager_step(gpt, True).step_s == _eager_step(gpt, False).step_s
    llama = tr.transformer_model("Llama 3 8B")
    assert (_eager_step(llama, True, fused_norm_activation=True).step_s
            == _eager_step(llama, False, fused_norm_activation=True).step_s)
    assert _eager_step(llama, True).step_s > _eager_step(llama, False).step_s


def test_eager_stacks_are_the_pytorch_ones_that_run_llama_op_by_op():
    eager = {name for name, stack in tr.SOFTWARE.items() if stack.eager_elementwise}
    assert eager == {"PyTorch FSDP", "torchtitan 2024"}
    assert set(tr.EAGER_ELEMENTWISE_SOURCES) <= set(tr.software("torchtitan 2024").sources)


def test_an_op_by_op_adam_step_costs_the_bytes_counted_from_pytorchs_adamw():
    # One GPU updates all of Llama 3 8B: the op-by-op step moves 80 B per parameter against
    # 24 + 2 + 2 for one fused kernel, at the HBM rate; nothing else in the step changes.
    model = tr.transformer_model("Llama 3 8B")
    hbm = tr.DEFAULT_EFFICIENCIES.memory_bandwidth * catalog.gpu("A100 SXM").hbm_bandwidth_bytes_per_s
    fused, eager = (_eager_step(model, True, fused_optimizer=flag) for flag in (True, False))
    assert tr.EAGER_ADAMW_BYTES == 80
    fused_bytes = tr.DEFAULT_EFFICIENCIES.optimizer_bytes_per_parameter + 2 + 2
    assert eager.optimizer_s - fused.optimizer_s == pytest.approx(
        tr.parameter_count(model) * (tr.EAGER_ADAMW_BYTES - fused_bytes) / hbm, rel=1e-9)
    assert eager.step_s - eager.optimizer_s == pytest.approx(fused.step_s - fused.optimizer_s, rel=1e-12)


@pytest.mark.parametrize("fused", [True, False])
@pytest.mark.parametrize("every_step", [True, False])
def test_clipping_the_gradients_costs_a_norm_read_and_a_scale_per_updated_parameter(fused, every_step, monkeypatch):
    # Every stack reads each FP32 gradient for the global norm (4 B per parameter a GPU updates);
    # PyTorch's clip_grad_norm_ then multiplies each by the clamped coefficient on every step
    # (read 4, write 4), Megatron-LM only on the steps it clips. Nothing but the optimizer moves.
    from interconnect_lab.training import step as step_module
    model = tr.transformer_model("Llama 3 8B")
    hbm = tr.DEFAULT_EFFICIENCIES.memory_bandwidth * catalog.gpu("A100 SXM").hbm_bandwidth_bytes_per_s
    changes = dict(fused_optimizer=fused, clip_every_step=every_step)
    clipped = _eager_step(model, True, **changes)
    monkeypatch.setattr(step_module, "GRADIENT_CLIP_BYTES", 0.0)
    monkeypatch.setattr(step_module, "GRADIENT_NORM_BYTES", 0.0)
    unclipped = _eager_step(model, True, **changes)
    assert (tr.GRADIENT_NORM_BYTES, tr.GRADIENT_CLIP_BYTES) == (4, 12)
    clip_bytes = tr.GRADIENT_CLIP_BYTES if every_step else tr.GRADIENT_NORM_BYTES
    assert clipped.optimizer_s - unclipped.optimizer_s == pytest.approx(
        tr.parameter_count(model) * clip_bytes / hbm, rel=1e-9)
    assert clipped.step_s - clipped.optimizer_s == pytest.approx(unclipped.step_s - unclipped.optimizer_s, rel=1e-12)


def test_only_megatron_stacks_scale_their_gradients_just_on_the_steps_they_clip():
    conditional = {name for name, stack in tr.SOFTWARE.items() if not stack.clip_every_step}
    assert conditional == {"Megatron-LM SC21", "Megatron-LM SC21, torch DDP", "Megatron-LM 2022", "Megatron-LM 2023",
                           "MegaScale", "Megatron-Core 2024", "Megatron-Core 2024 FP8"}
    megatron_clip, pytorch_clip = tr.GRADIENT_CLIP_SOURCES[1], tr.GRADIENT_CLIP_SOURCES[0]
    assert "Megatron-LM" in megatron_clip.title and "clip_grad.py" in pytorch_clip.title
    for name in conditional - {"MegaScale"}:          # MegaScale cites its paper, on Megatron-LM 2023's code
        assert megatron_clip in tr.software(name).sources


@given(st.sampled_from([1, 2, 4, 8, 16, 32, 64]), st.booleans())
@settings(max_examples=20, deadline=None)
def test_the_optimizer_step_scales_with_the_share_each_gpu_updates(shard_group, fused):
    # ZeRO-3 over 64 GPUs in shard groups of g: each GPU holds and updates 1/g of the model, so
    # g times the optimizer time is the same for every g; an op-by-op step is never the faster.
    stack = dataclasses.replace(tr.software("PyTorch FSDP"), fused_optimizer=fused)
    config = tr.parallel_config(64, global_batch_size=64, zero_stage=3, shard_group_size=shard_group)
    step = tr.training_step("Llama 3 8B", "MegaScale", config, stack)
    whole = tr.training_step("Llama 3 8B", "MegaScale", dataclasses.replace(config, shard_group_size=1), stack)
    assert shard_group * step.optimizer_s == pytest.approx(whole.optimizer_s, rel=1e-9)
    assert step.memory.optimizer_bytes * shard_group == pytest.approx(whole.memory.optimizer_bytes, rel=1e-9)
    other = tr.training_step("Llama 3 8B", "MegaScale", config,
                             dataclasses.replace(stack, fused_optimizer=not fused))
    assert (step.optimizer_s > other.optimizer_s) == (not fused)


@pytest.mark.parametrize("recompute", sorted(tr.RECOMPUTATION))
def test_early_stop_skips_each_recomputed_blocks_mlp_output_projection(recompute):
    # PyTorch's non-reentrant checkpoint stops once the block's last saved tensor, the MLP output
    # projection's input, is back: that GEMM (2 f h FLOPs per token) is not rerun. Only the
    # policies that checkpoint whole blocks rerun it at all: every block ("full") or every other.
    model = tr.transformer_model("Llama 3 8B")
    config = tr.parallel_config(8, global_batch_size=16, microbatch_size=2, zero_stage=3, recompute=recompute)
    steps = {stop: tr.training_step(model, "MegaScale", config, dataclasses.replace(
        tr.software("PyTorch FSDP"), recompute_early_stop=stop)) for stop in (False, True)}
    blocks = {"full": 1.0, "every other layer": 0.5}.get(recompute, 0.0)
    skipped = blocks * model.layers * 16 * model.sequence_length * 2 * model.ffn_hidden_size * model.hidden_size
    assert steps[False].hardware_flops - steps[True].hardware_flops == pytest.approx(skipped, rel=1e-12)
    assert (steps[True].step_s < steps[False].step_s) == (blocks > 0)
    assert steps[True].model_flops == steps[False].model_flops


def _nccl_sm_step(per_sm):
    efficiencies = dataclasses.replace(tr.DEFAULT_EFFICIENCIES, nccl_bus_bytes_per_s_per_sm=per_sm)
    config = tr.parallel_config(8, global_batch_size=16, microbatch_size=2, zero_stage=3, recompute="none")
    return tr.training_step("Llama 3 8B", "MegaScale", config, "PyTorch FSDP", efficiencies=efficiencies)


def test_hidden_collectives_hold_the_sms_nccl_takes_for_their_bandwidth_when_asked():
    # FSDP over one node of 8 A100: every gather and reduce-scatter is an NVLink ring, whose bus
    # bandwidth is the GPU's NVLink rate times NCCL's efficiency; NCCL's maintainers put 16 SMs
    # on 190 GB/s, so it holds ceil(bus / (190/16 GB/s)) of the 108 SMs while it hides.
    off, on = _nccl_sm_step(None), _nccl_sm_step(tr.NCCL_BUS_BYTES_PER_S_PER_SM)
    cluster = tr.cluster("MegaScale")
    bus = cluster.scale_up_bytes_per_s * collectives.NVLINK_EFFICIENCY
    sms = math.ceil(bus / tr.NCCL_BUS_BYTES_PER_S_PER_SM)
    assert tr.NCCL_BUS_BYTES_PER_S_PER_SM == 190e9 / 16 and sms == 21
    assert off.data_parallel_hidden_s > 0 and on.data_parallel_hidden_s == pytest.approx(off.data_parallel_hidden_s)
    assert on.step_s - off.step_s == pytest.approx(off.data_parallel_hidden_s * sms / 108, rel=1e-9)
    assert tr.DEFAULT_EFFICIENCIES.nccl_bus_bytes_per_s_per_sm is None      # the calibrated model does not charge it
    with pytest.raises(ValueError, match="nccl_bus_bytes_per_s_per_sm"):
        dataclasses.replace(tr.DEFAULT_EFFICIENCIES, nccl_bus_bytes_per_s_per_sm=0.0)


def test_op_by_op_optimizers_are_pytorchs_default_adamw_and_composers():
    # Megatron-LM, DeepSpeed, Llama 3 and NeMo step a fused Adam; the PyTorch-native stacks do not.
    eager = {name for name, stack in tr.SOFTWARE.items() if not stack.fused_optimizer}
    assert eager == {"PyTorch FSDP", "llm-foundry 2023, PURE", "llm-foundry 2023, DEFAULT", "torchtitan 2024",
                     "torchtitan 2024, compiled", "torchtitan 2024, compiled FP8",
                     "flash-attention GPT, FlashAttention-2", "flash-attention GPT, FlashAttention-1"}
    assert set(tr.EAGER_OPTIMIZER_SOURCES) <= set(tr.software("PyTorch FSDP").sources)


def test_fp32_weights_gather_twice_the_bytes(monkeypatch):
    # ZeRO-3 gathers 4 B per weight instead of 2 (forward and backward) and reduce-scatters the
    # same 2 B gradients: on one GPU nothing is gathered, so only the per-GPU casts differ.
    bf16, fp32 = (_fp32_weights_step(k, monkeypatch=monkeypatch) for k in (False, True))
    assert fp32.data_parallel_s + fp32.data_parallel_hidden_s > bf16.data_parallel_s + bf16.data_parallel_hidden_s
    solo_bf16, solo_fp32 = (_fp32_weights_step(k, gpus=1) for k in (False, True))
    assert solo_fp32.data_parallel_s == solo_bf16.data_parallel_s == 0.0


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


@pytest.mark.parametrize("run", LLM_FOUNDRY_BENCHMARKS, ids=lambda r: r.label)
def test_llm_foundry_rows_replay_the_mixed_precision_their_table_states(run):
    # llm-foundry's benchmark README, column "MP Mode": DEFAULT (FP32 weights) for the H100
    # table and the A100 80 GB rows but the 70B ones, PURE elsewhere.
    pure = run.gpu == "A100 SXM 40GB" or (run.gpu == "A100 SXM" and run.layers == 80)
    assert run.software == ("llm-foundry 2023, PURE" if pure else "llm-foundry 2023, DEFAULT")


# FlashAttention's backward pass recomputes the scores ------------------------------------------

def _one_gpu_step(stack, monkeypatch, backward_flops):
    from interconnect_lab.training import step as step_module
    monkeypatch.setattr(step_module, "FLASH_ATTENTION_BACKWARD_FLOPS", backward_flops)
    config = tr.parallel_config(1, global_batch_size=2, microbatch_size=2, recompute="none")
    return tr.training_step("Llama 3 8B", "MegaScale", config, stack)


def test_flash_attention_backward_costs_its_recomputed_scores(monkeypatch):
    # One GPU, nothing to overlap: the step is linear in the backward pass's FLOPs, whose extra
    # half forward (the recomputed scores) costs the attention core's forward time once more.
    two, two_and_half, three = (_one_gpu_step("PyTorch FSDP", monkeypatch, k) for k in (2.0, 2.5, 3.0))
    assert two_and_half.step_s > two.step_s
    assert three.step_s - two_and_half.step_s == pytest.approx(two_and_half.step_s - two.step_s, rel=1e-9)
    # Scores materialised in HBM are read back, not recomputed: the factor does not apply.
    sc21 = [_one_gpu_step("Megatron-LM SC21", monkeypatch, k).step_s for k in (2.0, 3.0)]
    assert sc21[0] == sc21[1]


def test_flash_attention_backward_flops_come_from_a_source():
    # Five matmuls (the recomputed scores and the four gradients) over the forward's two.
    assert tr.FLASH_ATTENTION_BACKWARD_FLOPS == pytest.approx(5 / 2)
    assert "benchmark_flash_attention.py" in tr.FLASH_ATTENTION_BACKWARD_SOURCE.url


def test_every_attention_kernel_names_its_sources():
    assert set(tr.ATTENTION_KERNEL_SOURCES) == set(tr.ATTENTION_KERNELS)
    for kernel, sources in tr.ATTENTION_KERNEL_SOURCES.items():
        assert sources and all(source.url for source in sources), kernel


def test_the_first_flash_attention_keeps_its_a100_ratio_to_flash_attention_2():
    # The first FlashAttention (and its slightly slower Triton port, which MPT ran): 40% of an
    # A100 (FlashAttention-2's abstract), which FlashAttention-2 raised to 72%. On Hopper, where
    # it was never measured, it keeps that ratio to FlashAttention-2's shares, in both passes.
    first, fa2 = tr.ATTENTION_KERNELS["FlashAttention-1"], tr.ATTENTION_KERNELS["FlashAttention-2"]
    assert first["A100 SXM"] == (0.40, 0.40)
    assert set(first) == set(fa2)
    for gpu in fa2:
        for part in ("forward", "backward"):
            assert getattr(first[gpu], part) / getattr(fa2[gpu], part) == pytest.approx(0.40 / 0.72), gpu
    assert first["H100 SXM"].forward < first["A100 SXM"].forward < fa2["A100 SXM"].forward


def test_hopper_attention_shares_are_flash_attention_3s_measurements():
    # FlashAttention-3's Figures 5-6 (H100 SXM5, head dimension 128, 16K tokens), over the
    # catalog's 989.4 TFLOP/s: causal forward 335 / 539 / 616 TFLOP/s, backward 322 / 516 / 561.
    kernels = tr.ATTENTION_KERNELS
    peak = catalog.gpu("H100 SXM").bf16_flop_per_s / u.TFLOP_per_s
    for kernel, (forward, backward) in {"FlashAttention-2": (335, 322), "cuDNN": (539, 516),
                                        "FlashAttention-3": (616, 561)}.items():
        share = kernels[kernel]["H100 SXM"]
        assert share.forward == pytest.approx(forward / peak)
        assert share.backward == pytest.approx(backward / peak)
        assert share.backward < share.forward                 # the backward pass is the slower one
    # FlashAttention-2 on Hopper: the third of peak FlashAttention-3's abstract speaks of.
    assert kernels["FlashAttention-2"]["H100 SXM"].forward == pytest.approx(0.35, abs=0.02)
    # Megatron-Core runs Transformer Engine, which prefers cuDNN's fused attention on Hopper.
    assert tr.software("Megatron-Core 2024").attention_kernel == "cuDNN"


#: FlashAttention-3's Figures 5 and 6 (H100 SXM5, BF16), head dimension 128: causal forward and
#: backward TFLOP/s at 512, 2K and 8K tokens, typed here from the figures to check the catalog.
_FA3_FIGURE_POINTS = {("cuDNN", 512): (315, 305), ("cuDNN", 2048): (484, 465), ("cuDNN", 8192): (529, 518),
                      ("FlashAttention-2", 2048): (298, 291), ("FlashAttention-3", 1024): (423, 424)}


def test_hopper_attention_shares_follow_the_benchmark_by_length():
    # Tolerance: the figures' bar labels are whole TFLOP/s.
    peak = catalog.gpu("H100 SXM").bf16_flop_per_s / u.TFLOP_per_s
    for (kernel, length), (forward, backward) in _FA3_FIGURE_POINTS.items():
        share = tr.attention_share(kernel, "H100 SXM", length, head_dim=128)
        assert share.forward * peak == pytest.approx(forward, abs=0.5), (kernel, length)
        assert share.backward * peak == pytest.approx(backward, abs=0.5), (kernel, length)
    # Head dimension 64 (FlashAttention-3's Figure 5, causal, 16K): cuDNN 388 TFLOP/s forward.
    assert tr.attention_share("cuDNN", "H100 SXM", 16384, 64).forward * peak == pytest.approx(388, abs=0.5)
    # At its best measured point the lookup is the kernel's one share in ATTENTION_KERNELS.
    for kernel in ("FlashAttention-1", "FlashAttention-2", "FlashAttention-3", "cuDNN"):
        for gpu in ("H100 SXM", "H200 SXM"):
            assert tr.attention_share(kernel, gpu, 16384, 128) == pytest.approx(tr.ATTENTION_KERNELS[kernel][gpu])
    # The curves are flat by 16K (what holding the last point beyond it rests on): from 8K to 16K no
    # kernel, pass or head dimension gains 3%.
    for kernel in ("FlashAttention-2", "FlashAttention-3", "cuDNN"):
        for head_dim in (64, 128):
            at_8k, at_16k = (tr.attention_share(kernel, "H100 SXM", n, head_dim) for n in (8192, 16384))
            assert all(long / short - 1 < 0.03 for short, long in zip(at_8k, at_16k)), (kernel, head_dim)
    # Every kernel is slower at 512 tokens than at 16K, by a third or more.
    for kernel in tr.ATTENTION_KERNELS:
        short, long = (tr.attention_share(kernel, "H100 SXM", n).forward for n in (512, 16384))
        assert short < 0.7 * long, kernel


def test_attention_shares_hold_at_every_length_where_one_figure_is_published():
    # On the A100 the papers give one share per kernel: 72% for FlashAttention-2, 40% for the first.
    for length in (128, 2048, 65536):
        assert tr.attention_share("FlashAttention-2", "A100 SXM", length, 64) == (0.72, 0.72)
        assert tr.attention_share("FlashAttention-1", "A100 SXM 40GB", length) == (0.40, 0.40)
    # No measured share: the GEMM rate alone caps the kernel.
    assert tr.attention_share("cuDNN", "A100 SXM", 4096) is None


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(sorted(tr.ATTENTION_KERNELS)), st.floats(1, 1e7), st.integers(16, 512))
def test_hopper_attention_shares_stay_within_what_was_measured(kernel, length, head_dim):
    # Interpolation never leaves the measured range; beyond it the nearest point holds.
    share = tr.attention_share(kernel, "H100 SXM", length, head_dim)
    lowest = [tr.attention_share(kernel, "H100 SXM", n, d) for n in tr.ATTENTION_BENCHMARK_LENGTHS for d in (64, 128)]
    for part in (0, 1):
        assert min(s[part] for s in lowest) - 1e-12 <= share[part] <= max(s[part] for s in lowest) + 1e-12
    if length >= tr.ATTENTION_BENCHMARK_LENGTHS[-1]:
        assert share == pytest.approx(tr.attention_share(kernel, "H100 SXM", tr.ATTENTION_BENCHMARK_LENGTHS[-1], head_dim))
    if head_dim >= 128:
        assert share == pytest.approx(tr.attention_share(kernel, "H100 SXM", length, 128))


def test_attention_share_takes_an_array_of_lengths():
    lengths = np.array([512.0, 2048.0, 16384.0])
    share = tr.attention_share("cuDNN", "H100 SXM", lengths)
    assert share.forward.shape == (3,)
    assert share.forward[1] == pytest.approx(tr.attention_share("cuDNN", "H100 SXM", 2048).forward)


@pytest.mark.parametrize("kwargs, match", [
    (dict(kernel="Flash", gpu="H100 SXM", sequence_length=2048), "kernel"),
    (dict(kernel="cuDNN", gpu="H100 SXM", sequence_length=0), "sequence_length"),
    (dict(kernel="cuDNN", gpu="H100 SXM", sequence_length=float("nan")), "sequence_length"),
    (dict(kernel="cuDNN", gpu="H100 SXM", sequence_length=2048, head_dim=0), "head_dim"),
])
def test_attention_share_rejects_bad_input(kwargs, match):
    with pytest.raises(ValueError, match=match):
        tr.attention_share(**kwargs)


def test_context_parallel_attention_runs_at_the_share_of_its_block(monkeypatch):
    # Ring attention runs each kernel call over one rank's block of keys: eight-way context
    # parallelism at 64K tokens runs attention as 8K-token calls, at the 8K share.
    from interconnect_lab.training import step as step_module
    lengths = []

    def spy(kernel, gpu, sequence_length, head_dim=128):
        lengths.append(float(sequence_length))
        return tr.attention_share(kernel, gpu, sequence_length, head_dim)

    monkeypatch.setattr(step_module, "attention_share", spy)
    hopper = tr.Cluster(name="H100 pod", gpu="H100 SXM", gpus_per_node=8, scale_up_link="NVLink 4",
                        scale_out_link="InfiniBand NDR", nics_per_node=8)
    model = dataclasses.replace(tr.MODELS["Llama 3 8B"], sequence_length=65536)
    for context_parallel in (1, 8):
        config = tr.parallel_config(8, global_batch_size=8 // context_parallel, microbatch_size=1,
                                    context_parallel=context_parallel, recompute="none")
        tr.training_step(model, hopper, config, "Megatron-Core 2024")
    assert set(lengths) == {65536.0, 8192.0}


def test_gemm_efficiency_is_the_value_its_documented_rule_chooses():
    # Efficiencies.gemm: to 0.01, the value with the smallest median |error| over SC21 Table 1 and
    # MegaScale Table 2 that keeps all 26 rows within 10%. Neighbours either break 10% or do worse.
    chosen = tr.DEFAULT_EFFICIENCIES.gemm
    errors = np.abs(calibration_errors(chosen))
    assert errors.max() < 0.10
    for neighbour in (chosen - 0.02, chosen - 0.01, chosen + 0.01, chosen + 0.02):
        other = np.abs(calibration_errors(round(neighbour, 2)))
        assert other.max() >= 0.10 or np.median(other) > np.median(errors), neighbour
