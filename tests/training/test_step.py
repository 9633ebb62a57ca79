"""Tests of ``interconnect_lab.training.step``: step time and its parts: the vectorised core behind
:func:`training_step` and :func:`memory_per_gpu`.

Hostile input is at the end (and fuzzed with tests/fuzzing.py where noted).
"""

import dataclasses
import math

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from fuzzing import Case, choice, count, flag, make_tests, mixed

from interconnect_lab import catalog, collectives, memory, training as tr, training, units as u
from interconnect_lab.published import (
    MEGASCALE_TABLE2, SC21_TABLE1, SC21_TABLE1_SEQUENCE_LENGTH, SC21_TABLE1_VOCABULARY,
)
from interconnect_lab.published.training_runs import LLM_FOUNDRY_BENCHMARKS
from interconnect_lab.training import terms


POLICIES = tuple(tr.RECOMPUTATION)


def _llama():
    return tr.transformer_model("Llama 3 8B")


def _step(recompute, model=None, cluster=None, gpus=8, software="PyTorch FSDP", **kwargs):
    config = tr.parallel_config(gpus, global_batch_size=gpus, recompute=recompute, zero_stage=3, **kwargs)
    return tr.training_step(model or _llama(), cluster or tr.system_cluster("DGX H100"), config, software)


@pytest.mark.parametrize("name", POLICIES)
def test_a_policy_never_makes_a_step_faster_than_none(name):
    assert _step(name).compute_s >= _step("none").compute_s
    assert _step(name).hardware_flops >= _step("none").hardware_flops


def test_torchtitans_selective_read_as_megatrons_would_overrate_it():
    # torchtitan's docs/performance.md: Llama 2 70B on 64 A100 with op-level selective
    # checkpointing. Megatron's "selective" reruns only the attention core, torchtitan's half the
    # weight GEMMs: read one for the other, the step looks about a fifth faster than it is.
    run = tr.transformer_model("Llama 3 70B")
    op_level, megatron = (_step(name, model=run, cluster=tr.cluster("Selene"), gpus=64) for name in
                          ("every other matmul", "selective"))
    assert 1.10 < op_level.step_s / megatron.step_s < 1.30


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


def _eager_step(model, eager, **changes):
    stack = tr.software("PyTorch FSDP").replace(kernels={"elementwise": "eager" if eager else "one kernel each"})
    stack = stack.replace(**changes)
    config = tr.parallel_config(1, global_batch_size=2, microbatch_size=2, recompute="none")
    return tr.training_step(model, "MegaScale", config, stack)


def _nccl_sm_step(per_sm):
    efficiencies = dataclasses.replace(tr.DEFAULT_EFFICIENCIES, nccl_bus_bytes_per_s_per_sm=per_sm)
    config = tr.parallel_config(8, global_batch_size=16, microbatch_size=2, zero_stage=3, recompute="none")
    return tr.training_step("Llama 3 8B", "MegaScale", config, "PyTorch FSDP", efficiencies=efficiencies)


def _one_gpu_step(stack, monkeypatch, backward_flops):
    monkeypatch.setattr(terms, "FLASH_ATTENTION_BACKWARD_FLOPS", backward_flops)
    config = tr.parallel_config(1, global_batch_size=2, microbatch_size=2, recompute="none")
    return tr.training_step("Llama 3 8B", "MegaScale", config, stack)


def test_sc21_rows_replay_the_data_parallel_implementation_their_script_names():
    # examples/sc21/run_table_1.sh: DDP=torch (PyTorch's DistributedDataParallel, which
    # all-reduces gradient buckets during the backward pass) for the four smallest rows,
    # DDP=local (Megatron-LM's own, one all-reduce after the backward pass) from 39B up.
    assert [run.ddp for run in SC21_TABLE1] == ["torch"] * 4 + ["local"] * 6
    torch_ddp, local = tr.software("Megatron-LM SC21, torch DDP"), tr.software("Megatron-LM SC21")
    assert [run.software for run in SC21_TABLE1] == [torch_ddp.name] * 4 + [local.name] * 6
    # The two stacks differ in the overlap alone.
    assert torch_ddp.replace(name=local.name, overlap={"data_parallel": "none"}, sources=local.sources) == local
    # The 18.4B row's all-reduce, 4% of its step after the backward pass, hides behind it.
    run = SC21_TABLE1[3]
    after = dataclasses.replace(run, ddp="local")
    overlapped, exposed = sc21_step(run), sc21_step(after)
    assert exposed.data_parallel_s > 0.03 * exposed.step_s
    assert overlapped.data_parallel_s < 0.1 * exposed.data_parallel_s
    assert overlapped.step_s < exposed.step_s


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


def test_each_overlap_switch_never_slows_the_step():
    run = next(r for r in MEGASCALE_TABLE2 if r.system == "Megatron-LM" and r.gpus == 1024)
    config = tr.parallel_config(run.gpus, global_batch_size=run.batch_size, tensor_parallel=8,
                                pipeline_parallel=8, interleave=6, microbatch_size=2,
                                recompute="selective", sequence_parallel=True, zero_stage=1)
    base = tr.software("Megatron-LM 2023")
    before = tr.training_step("MegaScale 175B", "MegaScale", config, base).step_s
    for switch in ({"overlap": {"tensor_parallel": "pipelined"}}, {"overlap": {"tensor_parallel": "backward"}},
                   {"overlap": {"pipeline": "asynchronous"}}, {"overlap": {"data_parallel": "per layer"}},
                   {"kernels": {"parallel_block": True}}, {"kernels": {"elementwise": "fused"}}):
        after = tr.training_step("MegaScale 175B", "MegaScale", config, base.replace(**switch)).step_s
        assert after < before, switch


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
        return terms.activation_bytes_per_layer(model, stack, recompute, np.float64(tp), 1.0, b, sp)

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


def test_a_stack_that_hides_nothing_pays_no_contention(monkeypatch):
    free, twice = (_fsdp_step(k, monkeypatch, "Megatron-LM SC21") for k in (0.0, 2.0))
    assert twice.step_s == free.step_s


def test_eager_elementwise_leaves_models_without_those_ops_alone():
    gpt = tr.transformer_model("GPT-3 175B")
    gpt = dataclasses.replace(gpt, layers=2, name="two GPT-3 layers")      # LayerNorm, learned positions, GELU
    assert _eager_step(gpt, True).step_s == _eager_step(gpt, False).step_s
    llama = tr.transformer_model("Llama 3 8B")
    assert _eager_step(llama, True).step_s > _eager_step(llama, False).step_s
    # Fused into their neighbours, the norms and the activation move nothing of their own.
    fused = _eager_step(llama, False, kernels={"elementwise": "fused"})
    assert fused.step_s < _eager_step(llama, False).step_s


@given(st.sampled_from([1, 2, 4, 8, 16, 32, 64]), st.booleans())
@settings(max_examples=20, deadline=None)
def test_the_optimizer_step_scales_with_the_share_each_gpu_updates(shard_group, fused):
    # ZeRO-3 over 64 GPUs in shard groups of g: each GPU holds and updates 1/g of the model, so
    # g times the optimizer time is the same for every g; an op-by-op step is never the faster.
    stack = tr.software("PyTorch FSDP").replace(optimizer={"update": "fused" if fused else "op by op"})
    config = tr.parallel_config(64, global_batch_size=64, zero_stage=3, shard_group_size=shard_group)
    step = tr.training_step("Llama 3 8B", "MegaScale", config, stack)
    whole = tr.training_step("Llama 3 8B", "MegaScale", dataclasses.replace(config, shard_group_size=1), stack)
    assert shard_group * step.optimizer_s == pytest.approx(whole.optimizer_s, rel=1e-9)
    assert step.memory.optimizer_bytes * shard_group == pytest.approx(whole.memory.optimizer_bytes, rel=1e-9)
    other = tr.training_step("Llama 3 8B", "MegaScale", config,
                             stack.replace(optimizer={"update": "op by op" if fused else "fused"}))
    assert (step.optimizer_s > other.optimizer_s) == (not fused)


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


def test_fp32_weights_gather_twice_the_bytes(monkeypatch):
    # ZeRO-3 gathers 4 B per weight instead of 2 (forward and backward) and reduce-scatters the
    # same 2 B gradients: on one GPU nothing is gathered, so only the per-GPU casts differ.
    bf16, fp32 = (_fp32_weights_step(k, monkeypatch=monkeypatch) for k in (False, True))
    assert fp32.data_parallel_s + fp32.data_parallel_hidden_s > bf16.data_parallel_s + bf16.data_parallel_hidden_s
    solo_bf16, solo_fp32 = (_fp32_weights_step(k, gpus=1) for k in (False, True))
    assert solo_fp32.data_parallel_s == solo_bf16.data_parallel_s == 0.0


@pytest.mark.parametrize("run", LLM_FOUNDRY_BENCHMARKS, ids=lambda r: r.label)
def test_llm_foundry_rows_replay_the_mixed_precision_their_table_states(run):
    # llm-foundry's benchmark README, column "MP Mode": DEFAULT (FP32 weights) for the H100
    # table and the A100 80 GB rows but the 70B ones, PURE elsewhere.
    pure = run.gpu == "A100 SXM 40GB" or (run.gpu == "A100 SXM" and run.layers == 80)
    assert run.software == ("llm-foundry 2023, PURE" if pure else "llm-foundry 2023, DEFAULT")


def test_flash_attention_backward_costs_its_recomputed_scores(monkeypatch):
    # One GPU, nothing to overlap: the step is linear in the backward pass's FLOPs, whose extra
    # half forward (the recomputed scores) costs the attention core's forward time once more.
    two, two_and_half, three = (_one_gpu_step("PyTorch FSDP", monkeypatch, k) for k in (2.0, 2.5, 3.0))
    assert two_and_half.step_s > two.step_s
    assert three.step_s - two_and_half.step_s == pytest.approx(two_and_half.step_s - two.step_s, rel=1e-9)
    # Scores materialised in HBM are read back, not recomputed: the factor does not apply.
    sc21 = [_one_gpu_step("Megatron-LM SC21", monkeypatch, k).step_s for k in (2.0, 3.0)]
    assert sc21[0] == sc21[1]


def test_gemm_efficiency_is_the_value_its_documented_rule_chooses():
    # Efficiencies.gemm: to 0.01, the value with the smallest median |error| over SC21 Table 1 and
    # MegaScale Table 2 that keeps all 26 rows within 10%. Neighbours either break 10% or do worse.
    chosen = tr.DEFAULT_EFFICIENCIES.gemm
    errors = np.abs(calibration_errors(chosen))
    assert errors.max() < 0.10
    for neighbour in (chosen - 0.02, chosen - 0.01, chosen + 0.01, chosen + 0.02):
        other = np.abs(calibration_errors(round(neighbour, 2)))
        assert other.max() >= 0.10 or np.median(other) > np.median(errors), neighbour


def test_fp8_training_gains_less_than_its_gemms():
    # Transformer Engine's FP8 stack on a DGX H100: the projection GEMMs run 1.74x faster, but
    # attention stays BF16 and every GEMM operand is quantized first (4 B of HBM traffic per
    # element), so the step gains less; it still gains.
    model = tr.transformer_model("Llama 3 70B")
    config = tr.parallel_config(64, global_batch_size=128, tensor_parallel=4, pipeline_parallel=4,
                                interleave=5, recompute="none", sequence_parallel=True, zero_stage=1)
    cluster = tr.system_cluster("DGX H100")
    bf16 = tr.training_step(model, cluster, config, "Megatron-Core 2024")
    fp8 = tr.training_step(model, cluster, config, "Megatron-Core 2024 FP8")
    speedup = bf16.compute_s / fp8.compute_s
    assert 1.2 < speedup < 1.74


def test_fp8_charges_each_gemm_operand_quantization_as_hbm_traffic(monkeypatch):
    # Transformer Engine ("Performance considerations: handling transposes"): every activation
    # entering a GEMM, and in the backward pass every gradient leaving one, is read in BF16 and
    # written in FP8 row- and column-wise, 4 B per element. Counted by hand for Llama 3 8B, one
    # GPU's two microbatches of one 8,192-token sequence, no tensor parallelism: the FP8 step's
    # compute exceeds the same step with free quantization by exactly that HBM time.
    model = tr.transformer_model("Llama 3 8B")
    cluster = tr.system_cluster("DGX H100")
    config = tr.parallel_config(8, global_batch_size=16, microbatch_size=1, recompute="none")
    charged = tr.training_step(model, cluster, config, "Megatron-Core 2024 FP8").compute_s
    monkeypatch.setattr(terms, "FP8_QUANTIZE_BYTES", 0.0)
    free = tr.training_step(model, cluster, config, "Megatron-Core 2024 FP8").compute_s
    h, f = model.hidden_size, model.ffn_hidden_size
    kv = model.kv_heads * h // model.heads
    tokens = config.microbatches * config.microbatch_size * model.sequence_length   # per GPU per step
    inputs = tokens * (h + h + h + f)                  # into QKV, the output projection, gate+up, down
    gradients = tokens * ((h + 2 * kv) + h + 2 * f + h)  # out of QKV, the output projection, gate and up, down
    hbm = catalog.gpu("H100 SXM").hbm_bandwidth_bytes_per_s * tr.Efficiencies().memory_bandwidth
    expected = 4 * model.layers * (inputs + gradients) / hbm
    assert charged - free == pytest.approx(expected, rel=1e-9)
    assert expected > 0.02 * charged                   # not a rounding error: 4.3% of this step's compute


def test_flash_attention_skips_what_the_causal_mask_hides():
    model = tr.transformer_model("Llama 3 8B")
    cluster = tr.system_cluster("DGX H100")
    config = tr.parallel_config(8, global_batch_size=8, recompute="none")
    flash = tr.software("PyTorch FSDP")
    materialised = flash.replace(kernels={"attention": "unfused"})
    long = dataclasses.replace(model, sequence_length=65536)
    # Longer sequences cost the flash stack less extra time than the materialised one.
    grow_flash = tr.training_step(long, cluster, config, flash).compute_s / tr.training_step(model, cluster, config, flash).compute_s
    grow_full = (tr.training_step(long, cluster, config, materialised).compute_s
                 / tr.training_step(model, cluster, config, materialised).compute_s)
    assert grow_flash < grow_full


def test_attention_kernel_caps_the_attention_core_on_hopper():
    model = tr.transformer_model("Llama 3 8B")
    cluster = tr.system_cluster("DGX H100")
    config = tr.parallel_config(8, global_batch_size=8, recompute="none")
    fa2 = tr.training_step(model, cluster, config, tr.software("PyTorch FSDP"))
    fa3 = tr.training_step(model, cluster, config,
                           tr.software("PyTorch FSDP").replace(kernels={"attention": "FlashAttention-3"}))
    assert fa3.compute_s < fa2.compute_s
    with pytest.raises(ValueError, match="Kernels.attention 'FlashAttention-9'"):
        tr.software("PyTorch FSDP").replace(kernels={"attention": "FlashAttention-9"})


def test_all_gathered_context_parallelism_is_exposed():
    ring = tr.software("Megatron-Core 2024")
    assert ring.overlap.context_parallel == "p2p"                       # Megatron-LM's --cp-comm-type default
    gathered = ring.replace(overlap={"context_parallel": "all_gather"})
    long = dataclasses.replace(tr.transformer_model("Llama 3 8B"), sequence_length=65536)
    cluster = tr.system_cluster("DGX H100")
    config = tr.parallel_config(64, global_batch_size=8, context_parallel=8, tensor_parallel=8)
    assert (tr.training_step(long, cluster, config, gathered).tensor_parallel_s
            > tr.training_step(long, cluster, config, ring).tensor_parallel_s)


def test_blackwell_gemms_run_at_the_ratio_of_sustained_rates_measured_side_by_side():
    # ml-engineering's "Maximum Achievable and Sustainable Matmul FLOPS comparison table" (commit
    # 0359db8, rows with Siblings = yes, every GPU of the node busy): a B200 sustains 1,439 TFLOP/s
    # and an H200 755, a ratio of 1.906 where the same table's best bursts say 1,737 / 850 = 2.04
    # and the catalog's (older software) 1,745 / 794.5 = 2.20. The training model's GEMMs start
    # from the reference H200's best rate (the efficiency holds on Hopper) times that ratio.
    b200, h200, h100 = catalog.gpu("B200"), catalog.gpu("H200 SXM"), catalog.gpu("H100 SXM")
    assert tr.SUSTAINED_REFERENCE_GPU == "H200 SXM"
    assert b200.sustained_matmul_flop_per_s == 1439 * u.TFLOP_per_s
    assert h200.sustained_matmul_flop_per_s == 755 * u.TFLOP_per_s

    def rate(gpu):
        return tr.matmul_fraction_of_peak(gpu) * gpu.bf16_flop_per_s

    assert rate(b200) / rate(h200) == pytest.approx(1439 / 755)
    assert rate(b200) == pytest.approx(794.5e12 * 1439 / 755)
    # The H100 is the H200's chip: it keeps its own best rate, unchanged by the sustained scaling.
    assert h100.same_silicon_as == "H200 SXM"
    assert tr.sustained_matmul_rate(h100) == pytest.approx(755e12)
    assert rate(h100) == pytest.approx(h100.measured_matmul_flop_per_s)
    # A GB200 is the B200's chip at a higher clock: the B200's sustained rate times 1,822 / 1,745.
    gb200 = catalog.gpu("GB200")
    assert gb200.same_silicon_as == "B200" and gb200.sustained_matmul_flop_per_s is None
    assert tr.sustained_matmul_rate(gb200) == pytest.approx(1439e12 * 1822 / 1745)
    assert rate(gb200) == pytest.approx(794.5e12 * (1439 * 1822 / 1745) / 755)
    # GPUs with no sustained rate, their own or their chip's, keep their own best measured share.
    for name in ("A100 SXM", "A100 SXM 40GB", "MI300X"):
        gpu = catalog.gpu(name)
        assert tr.sustained_matmul_rate(gpu) is None
        assert tr.matmul_fraction_of_peak(gpu) == pytest.approx(gpu.matmul_fraction_of_peak)


def gpt3_config(**more):
    return tr.parallel_config(1024, global_batch_size=1536, tensor_parallel=8, pipeline_parallel=8, **more)


def test_traffic_is_what_the_step_charges_when_nothing_overlaps():
    config = gpt3_config()
    step = tr.training_step("GPT-3 175B", "Selene", config)
    rows = tr.parallel_traffic("GPT-3 175B", "Selene", config)
    by_kind = {kind: sum(r.time_s for r in rows if r.kind == kind) for kind in ("tensor", "pipeline", "data")}
    assert by_kind["tensor"] == pytest.approx(step.tensor_parallel_s, rel=1e-12)
    assert by_kind["pipeline"] == pytest.approx(step.pipeline_s, rel=1e-12)
    assert by_kind["data"] == pytest.approx(step.data_parallel_s, rel=1e-12)


# Hostile input: fuzzed with tests/fuzzing.py -----------------------------------------------------

MODELS = tuple(training.MODELS)

CLUSTERS = tuple(training.CLUSTERS)

SOFTWARE = tuple(training.SOFTWARE)

GPUS = tuple(catalog.GPUS)

model = choice(MODELS)

power_of_two = mixed(st.sampled_from([1, 2, 4, 8, 16, 32, 64]))


def step_with_config(model, cluster, software, gpus, global_batch_size, tensor_parallel, pipeline_parallel,
                     microbatch_size, recompute, zero_stage, sequence_parallel):
    """training_step on a configuration built from fuzzed parts (the path a panel takes)."""
    config = training.parallel_config(gpus, global_batch_size=global_batch_size, tensor_parallel=tensor_parallel,
                                      pipeline_parallel=pipeline_parallel, microbatch_size=microbatch_size,
                                      recompute=recompute, zero_stage=zero_stage,
                                      sequence_parallel=sequence_parallel)
    return training.training_step(model, cluster, config, software)


def memory_with_config(model, cluster, gpus, global_batch_size, tensor_parallel, pipeline_parallel, zero_stage):
    config = training.parallel_config(gpus, global_batch_size=global_batch_size, tensor_parallel=tensor_parallel,
                                      pipeline_parallel=pipeline_parallel, zero_stage=zero_stage)
    return training.memory_per_gpu(model, cluster, config)


def mfu_in_unit_interval(result, kwargs):
    assert 0 < result.mfu <= 1 and 0 < result.hfu <= 1, (result.mfu, result.hfu)
    assert result.step_s > 0


FUZZ_CASES = [
    Case(step_with_config, dict(
        model=model, cluster=choice(CLUSTERS), software=choice(SOFTWARE), gpus=count(1, 16_384),
        global_batch_size=count(1, 4096), tensor_parallel=power_of_two, pipeline_parallel=power_of_two,
        microbatch_size=count(1, 8), recompute=choice(("full", "selective", "none")), zero_stage=count(0, 3),
        sequence_parallel=flag()), check=mfu_in_unit_interval, examples=0.5,
        name="training.training_step (with parallel_config)"),
    Case(memory_with_config, dict(
        model=model, cluster=choice(CLUSTERS), gpus=count(1, 16_384), global_batch_size=count(1, 4096),
        tensor_parallel=power_of_two, pipeline_parallel=power_of_two, zero_stage=count(0, 3)), examples=0.5,
        name="training.memory_per_gpu (with parallel_config)"),
    Case(training.matmul_fraction_of_peak, dict(gpu=st.builds(catalog.gpu, st.sampled_from(GPUS)))),
]

test_fuzz, test_fuzz_nightly = make_tests(FUZZ_CASES)
