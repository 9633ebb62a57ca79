"""The fidelity table: published runs replayed with the library's one set of defaults.

Tolerances: SC21 Table 1 and MegaScale Table 2 stay within 10% (tests/training/test_step.py);
here every other published run is replayed and the table's median and worst errors are
pinned as they are measured today, so a change that makes the model worse fails.
"""

import dataclasses

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from interconnect_lab import catalog, collectives as c, training as tr, units as u
from interconnect_lab.published import DGX_A100_MULTINODE_ALL_REDUCE_BYTES_PER_S
from interconnect_lab.published.training_runs import (
    BLOOM_176B, DGXC_LLAMA31_2025_GB200, DGXC_LLAMA31_2025_H100, DGXC_NEMOTRON_2025_GB200,
    DGXC_NEMOTRON_2025_H100, DGXC_RUNS, FLASH_ATTENTION_2_RUNS, FMS_FSDP_A100_RUNS, FMS_FSDP_H100_RUNS,
    KORTHIKANTI_RUNS, LLAMA3_405B_RUNS, LLM_FOUNDRY_1B_A100_40GB, LLM_FOUNDRY_1B_BY_LENGTH,
    LLM_FOUNDRY_30B_32_A100_40GB, LLM_FOUNDRY_A100_80GB_ONE_NODE, LLM_FOUNDRY_BENCHMARKS,
    MEGATRON_BRIDGE_2511_BLACKWELL, MEGATRON_BRIDGE_2511_H100, NEMO_LONG_SEQUENCE_H100, TORCHTITAN_A100_RUNS,
    TORCHTITAN_H100_COMPILE_RUNS, TORCHTITAN_H100_CONTEXT_PARALLEL_RUNS, TRAINING_RUNS, FAMILIES, MT_NLG_530B,
    SC21_TABLE2_PTD_RUNS, SC21_TABLE2_ZERO3_RUNS, family,
)



def test_the_table_covers_at_least_twelve_runs_four_organisations_and_both_generations():
    summary = tr.fidelity_summary()
    assert summary["runs"] >= 12
    assert len(summary["organisations"]) >= 4
    assert {"A100 SXM", "H100 SXM"} <= set(summary["gpus"])


def test_every_run_names_its_source_and_what_it_assumed():
    for run in TRAINING_RUNS:
        assert run.source.url, run.label
        assert run.source.locator, run.label
        for assumption in run.assumptions:
            assert len(assumption) > 20


def _pinned_elsewhere(run):
    """Rows whose misses their own tests pin: SC21 Table 2's ZeRO-3 rows (DeepSpeed 2021's host-side
    cost has no sourced model) and torchtitan's context-parallel rows (their 500 W H100s)."""
    return run in SC21_TABLE2_ZERO3_RUNS or run in TORCHTITAN_H100_CONTEXT_PARALLEL_RUNS


def test_the_table_errors_do_not_grow():
    # Measured 2026-12-07 with the defaults, by family (training_runs.family, by stack):
    # development 53 runs, median 5.3%, worst 27.9% (MPT-70B on 64 A100 40 GB, FSDP with one
    # microbatch of 2 sequences per GPU); validation 39 runs, median 9.1%, worst +292% (SC21 Table
    # 2's ZeRO-3 rows), and 25 runs, median 3.4%, worst 17.2% without the two groups pinned in their
    # own tests (torchtitan's context-parallel rows, SC21 Table 2's ZeRO-3 rows). These bounds stop
    # the table from getting worse; they are not targets.
    table = tr.fidelity_table()
    medians = {name: np.median(np.abs([row.error for row in table if family(row.run) == name])) for name in FAMILIES}
    assert medians["development"] < 0.07 and medians["validation"] < 0.10, medians
    assert np.median([abs(row.error) for row in table
                      if family(row.run) == "validation" and not _pinned_elsewhere(row.run)]) < 0.05
    assert max(abs(row.error) for row in table if not _pinned_elsewhere(row.run)) < 0.30


def test_sc21_table2_zero3_rows_miss_by_a_cost_per_step_the_model_does_not_have():
    # SC21 Table 2, ZeRO-3 (DeepSpeed, April 2021) without model parallelism, 174.6B and 529.6B on
    # 384 to 2,240 A100. Measured: +30%, +109%, +292% (174.6B) and +42%, +96%, +276% (529.6B). The
    # published step times stay flat as the GPUs double at a fixed batch (67 s at 768 and 1,536
    # GPUs); the model's step halves with the work: its gathers and reduce-scatters, through the
    # collective model, hide under compute. The rows keep these errors (no cost without a source);
    # pinned to within 10 points so that a change to ZeRO-3's pricing shows.
    rows = tr.fidelity_table(SC21_TABLE2_ZERO3_RUNS)
    measured = [0.303, 1.093, 2.921, 0.418, 0.958, 2.759]
    assert [row.error for row in rows] == pytest.approx(measured, abs=0.10)
    published_step = [row.step.hardware_flops / (row.published * row.run.gpus) for row in rows]
    assert published_step[1] == pytest.approx(published_step[2], rel=1e-9)          # 66.7 s, twice
    assert rows[2].step.step_s < 0.6 * rows[1].step.step_s                          # the model's halves
    for row in rows:
        assert row.step.data_parallel_s < 0.01 * row.step.step_s                  # hidden under compute
        assert row.step.data_parallel_hidden_s > 0.1 * row.step.step_s


def test_sc21_table2_ptd_rows_within_seven_percent():
    # SC21 Table 2, PTD-P on the same models and GPUs (model-parallel size 96 and 280 taken as TP 8
    # x PP 12 and 8 x 35). Measured -2.6% to -6.8%, the model low as on Table 1's large rows.
    rows = tr.fidelity_table(SC21_TABLE2_PTD_RUNS)
    assert all(-0.07 < row.error < 0.0 for row in rows), [round(row.error, 3) for row in rows]


def test_deepspeed_pipeline_engine_runs():
    # MT-NLG 530B on 2,240 A100 (DeepSpeed's restated peak, 126 TFLOP/s): measured +13.9%, with
    # microbatch, recomputation and formula assumed and 'peak' a best case. BLOOM 176B's logged
    # 149.77 TFLOP/s on Megatron-DeepSpeed with the BF16 optimizer: +6.0% (+6.6% when it was
    # replayed with Megatron-LM SC21's stack, which differs in FP16 gradients and clipping).
    (mt_nlg,) = tr.fidelity_table((MT_NLG_530B,))
    assert 0.10 < mt_nlg.error < 0.18
    (bloom,) = tr.fidelity_table((BLOOM_176B,))
    assert 0.03 < bloom.error < 0.09
    # The engine's blocking sends are charged for every microbatch: 2 m transfers per stage.
    blocking = mt_nlg.step.pipeline_s
    asynchronous = tr.replay(MT_NLG_530B, tr.software("Megatron-DeepSpeed 2021").replace(
        overlap={"pipeline": "asynchronous"}))
    assert blocking == pytest.approx(asynchronous.pipeline_s * 240 / 34)          # 2 m over 2 (p - 1)


def test_torchtitans_long_sequence_rows_are_overrated_at_every_degree():
    # torchtitan's H100 benchmark (820504e), Tables 2 and 6: FSDP (+ TP 8, PP 8) + CP 1 to 8 on its 500 W,
    # 96 GB H100s. Measured 2026-12-07: 8B +32.7, +24.2, +67.4, +75.6%; 405B +29.4, +47.4, +46.2, +59.0%
    # by degree. Already +25 to +33% at CP 1, as for the same GPUs' 8K runs (TORCHTITAN_H100_COMPILE_RUNS):
    # the 500 W limit is not charged (no measurement of the part's clock prices it). The exposed exchange
    # of PyTorch's all-gather rotate is small on one node (the 8B rows: under 1% of the step); across
    # nodes (the 405B rows, CP groups strided by TP 8) 1 to 6%. Pinned so a change is deliberate.
    rows = tr.fidelity_table(TORCHTITAN_H100_CONTEXT_PARALLEL_RUNS)
    errors = [row.error for row in rows]
    assert all(0.15 < error < 0.9 for error in errors)
    assert errors[3] > errors[0] and errors[7] > errors[4]                      # CP 8 worse than CP 1
    share = [row.step.tensor_parallel_s / row.step.step_s for row in rows]
    assert all(value < 0.01 for value in share[1:4]) and all(0.005 < value < 0.1 for value in share[5:])


@pytest.mark.parametrize("run", KORTHIKANTI_RUNS + (BLOOM_176B,) + LLAMA3_405B_RUNS[:2], ids=lambda r: r.label)
def test_megatron_style_runs_within_seventeen_percent(run):
    # Korthikanti et al. Table 5 (A100), BLOOM's logged TFLOP/s, Llama 3 Table 4 (H100, 8K):
    # runs whose sources state every input but the interleave depth. Measured: -15% (the 1T
    # model, interleaving not stated) to +10% (Llama 3 on 8,192 GPUs, whose last pipeline stage
    # holds one layer fewer beside the output layer, as the paper splits it).
    (row,) = tr.fidelity_table((run,))
    assert abs(row.error) < 0.17


@pytest.mark.parametrize("run", [r for r in LLM_FOUNDRY_BENCHMARKS if r.gpu.startswith("A100")
                                 and r.microbatch_size >= 4 and r.hidden_size >= 2048], ids=lambda r: r.label)
def test_fsdp_runs_on_a100_within_ten_percent(run):
    # llm-foundry's A100 table, FULL_SHARD, rows with at least 4 sequences per microbatch and
    # a hidden size of at least 2,048 (the GEMM model's range; MPT-125M is +13%). Measured
    # -3% to -9%: with the Triton attention MPT ran, the A100 rows sit at the low edge.
    (row,) = tr.fidelity_table((run,))
    assert abs(row.error) < 0.10


def test_one_row_of_a_benchmark_table_falls_far_from_its_neighbours_and_the_model_does_not_follow():
    # llm-foundry's A100 40GB table, MPT-1B at 2,048 tokens on 8 to 128 GPUs, same code and
    # settings: the 32-GPU row (45.39% MFU) is 18% below the mean of the four others (54.41% to
    # 56.23%), with nothing in its columns to say why. FSDP over this network hides its traffic
    # at every count, so the model predicts all five within 1% of each other (measured 0.2%)
    # and the four others within 4% (measured -0.1% to +3.3%).
    rows = tr.fidelity_table(LLM_FOUNDRY_1B_A100_40GB)
    assert sorted(row.run.gpus for row in rows) == [8, 16, 32, 64, 128]
    predicted = [row.predicted for row in rows]
    assert max(predicted) / min(predicted) - 1 < 0.01
    (dip,) = [row for row in rows if row.run.gpus == 32]
    others = [row for row in rows if row is not dip]
    assert dip.published / np.mean([row.published for row in others]) < 0.85
    assert all(abs(row.error) < 0.04 for row in others)
    assert dip.error > 0.15


@pytest.mark.parametrize("run", [r for r in LLM_FOUNDRY_BENCHMARKS if r.gpu == "H100 SXM"], ids=lambda r: r.label)
def test_fsdp_runs_on_h100_with_their_stated_fp32_weights(run):
    # llm-foundry's H100 table ran Composer's DEFAULT mixed precision (FP32 weights under
    # autocast) and the Triton FlashAttention, at its A100 ratio to FlashAttention-2 (by length on
    # Hopper: at 2,048 tokens about a tenth below its 16K share). Measured -8.0% (MPT-30B) to +4.2% (MPT-1B);
    # the rows without checkpointing were +17% to +28% before the FP32 weights, FlashAttention's
    # recomputed scores and the kernel's Hopper share were modelled.
    (row,) = tr.fidelity_table((run,))
    assert abs(row.error) < 0.09


def test_flash_attention_2_table_1_on_one_a100_node():
    # FlashAttention-2 §4.2 Table 1: GPT3-1.3B and -2.7B on 8 A100 80GB, model TFLOP/s per GPU,
    # the same code with the first FlashAttention and with FlashAttention-2, at 2K and 8K tokens.
    # Measured: FlashAttention-2 -5.2% to +2.7%, the first FlashAttention -1.5% and -1.3% at 2K;
    # at 8K the first kernel is +12.7% and +14.4%, since the model holds it to one share of peak
    # at every length (the top of its published range). Each group keeps its side of 8%.
    rows = tr.fidelity_table(FLASH_ATTENTION_2_RUNS)
    assert len(rows) == 8 and {row.run.organisation for row in rows} == {"Princeton & Stanford"}
    first_long = [row for row in rows if row.run.software.endswith("FlashAttention-1")
                  and row.run.sequence_length == 8192]
    others = [row for row in rows if row not in first_long]
    assert all(abs(row.error) < 0.08 for row in others)
    assert all(0.08 < row.error < 0.15 for row in first_long)
    # The kernel is all that separates the pairs: FlashAttention-2 is faster at both lengths,
    # and by more at 8K, in the table and in the model.
    for model in ("1.3B", "2.7B"):
        gains = {}
        for length in (2048, 8192):
            pair = {row.run.software[-1]: row for row in rows if model in row.run.label
                    and row.run.sequence_length == length}
            gains[length] = (pair["2"].published / pair["1"].published, pair["2"].predicted / pair["1"].predicted)
            assert gains[length][0] > 1 and gains[length][1] > 1
        assert gains[8192][0] > gains[2048][0] and gains[8192][1] > gains[2048][1]


def test_the_first_flash_attention_on_a100_grows_optimistic_with_the_sequence_length():
    # llm-foundry's MPT-1B on 8 GPUs at 512 to 65,536 tokens (same code, Triton FlashAttention),
    # by tokens per second. On H100 the model stays within 5% at every length (measured +0.1% to
    # +4.3%); on A100 it goes from pessimistic at 512 tokens to optimistic at 32K (measured -7.9%
    # to +17.5%), as FlashAttention-2's Table 1 shows for the first kernel at 8K: the model holds
    # the kernel to one share of peak at every length.
    rows = tr.fidelity_table(LLM_FOUNDRY_1B_BY_LENGTH)
    a100 = sorted((row for row in rows if row.run.gpu == "A100 SXM"), key=lambda row: row.run.sequence_length)
    h100 = [row for row in rows if row.run.gpu == "H100 SXM"]
    assert len(a100) == len(h100) == 5
    assert all(abs(row.error) < 0.05 for row in h100)
    assert a100[0].error < 0 < a100[-2].error
    assert a100[-2].error - a100[0].error > 0.15


def test_mosaicml_one_node_a100_rows_split_by_their_checkpointing_column():
    # llm-foundry's A100 80GB table, one node, MPT-1B to MPT-30B at 1,024 to 4,096 tokens, by
    # tokens per second (15 rows, 7 with activation checkpointing). Measured: checkpointed rows
    # -20.4% to -12.7%, the others -8.9% to -1.2%; the checkpointed ones replayed as if every
    # other block had been recomputed, -9.6% to -0.8%. The model charges full recomputation one
    # more forward pass per block; these rows ran as if it had cost about half that.
    rows = tr.fidelity_table(LLM_FOUNDRY_A100_80GB_ONE_NODE)
    full = [row for row in rows if row.run.recompute == "full"]
    none = [row for row in rows if row.run.recompute == "none"]
    assert len(full) == 7 and len(none) == 8
    assert all(-0.25 < row.error < -0.10 for row in full)
    assert all(-0.10 < row.error < 0 for row in none)
    half = tr.fidelity_table(tuple(dataclasses.replace(row.run, recompute="every other layer") for row in full))
    assert all(-0.11 < row.error < 0 for row in half)


def test_recomputation_charge_against_what_the_published_runs_paid():
    # torchtitan's Llama 2 13B on 64 A100, the same batch: every other layer checkpointed took
    # 13.0% longer per step than none. PyTorch's non-reentrant checkpoint stops recomputing each
    # block before its MLP output projection (Software.checkpoint "early stop"); the model charges
    # 13.0% (15.7% when it reran the whole block). Korthikanti et al.'s full-recomputation
    # baselines, Megatron-LM's own checkpointing that reruns every block whole, took 29% to 32%
    # longer than SP + selective; the model charges 34% to 36%. Pinned so that a change to the
    # recomputation model shows here.
    titan = {row.run.recompute: row for row in tr.fidelity_table(TORCHTITAN_A100_RUNS) if row.run.layers == 40}
    measured = titan["none"].published / titan["every other layer"].published - 1
    modelled = titan["none"].predicted / titan["every other layer"].predicted - 1
    assert measured == pytest.approx(0.1296, abs=5e-4)
    assert modelled == pytest.approx(measured, abs=0.005)
    whole = tr.software(titan["none"].run.software).replace(checkpoint="whole block")
    rerun = tr.replay(titan["none"].run, whole).tokens_per_s / tr.replay(titan["every other layer"].run, whole).tokens_per_s - 1
    assert 0.01 < rerun - measured < 0.05
    rows = tr.fidelity_table(KORTHIKANTI_RUNS)
    selective = {(row.run.layers, row.run.gpus): row for row in rows if row.run.recompute == "selective"}
    for row in rows:
        if row.run.recompute == "full":
            twin = selective[row.run.layers, row.run.gpus]
            measured = twin.published / row.published - 1
            modelled = twin.predicted / row.predicted - 1
            assert 0.28 < measured < 0.33 and 0.02 < modelled - measured < 0.07, row.run.label


@pytest.mark.parametrize("run", DGXC_RUNS + DGXC_NEMOTRON_2025_H100 + DGXC_LLAMA31_2025_H100 + MEGATRON_BRIDGE_2511_H100,
                         ids=lambda r: r.label)
def test_nemo_h100_recipes_bf16_within_ten_percent_fp8_within_fifteen(run):
    # NVIDIA's DGX Cloud benchmarking tables (NeMo, DGX H100), tokens per second: the largest run
    # of each 2024 table, the 2025 Nemotron-4 recipe's H100 rows (15B on 16 GPUs, 340B on 256), the
    # 2025 Llama 3.1 405B recipe's (512 GPUs), and Megatron-Bridge's NeMo 25.11 Llama rows (8B with
    # FSDP on 8 GPUs, 70B on 64, 405B on 1,024). Measured: BF16 -2.0% to +5.3%; FP8 -5.2%
    # (Nemotron-4 340B, 2025) to +10.4% (Llama 3.1 405B, NeMo 25.11); the Llama 3.1 FP8 rows are
    # the optimistic ones.
    (row,) = tr.fidelity_table((run,))
    fp8 = run.software.endswith("FP8")
    assert abs(row.error) < (0.15 if fp8 else 0.10)


def test_the_model_overrates_gb200_in_fp8_more_than_in_bf16():
    # The 2025 Nemotron-4 recipe (nemotron/README.md, "GB200 Performance"): 340B on 128-512 GPUs of
    # GB200 NVL72 racks, weak and strong scaling, BF16 and FP8. With the GB200's GEMMs at its chip's
    # sustained rate (the B200's, scaled by the ratio of their best rates), measured: BF16 +3.9% to
    # +9.1%, FP8 +19.5% to +29.3% (at the best burst rate they were +19% to +25% and +35% to +46%).
    # The README's FP8 gain over BF16 is 1.48 on GB200 as on H100, where the model's is larger on
    # GB200: the gap left is FP8's. The same README's H100 rows are within -5.2% to +5.3%. These
    # rows are kept out of the fidelity table; this test pins the gap so that closing it is a
    # deliberate change.
    gb200 = tr.fidelity_table(DGXC_NEMOTRON_2025_GB200)
    assert len(gb200) == 12 and {row.run.gpu for row in gb200} == {"GB200"}
    bf16 = {(row.run.gpus, row.run.global_batch_size): row.error for row in gb200 if "BF16" in row.run.label}
    fp8 = {(row.run.gpus, row.run.global_batch_size): row.error for row in gb200 if "FP8" in row.run.label}
    assert set(bf16) == set(fp8) and len(bf16) == 6
    assert all(0.0 < error < 0.12 for error in bf16.values())
    assert all(0.15 < error < 0.35 for error in fp8.values())
    assert all(fp8[key] > bf16[key] + 0.10 for key in bf16)
    h100 = tr.fidelity_table(DGXC_NEMOTRON_2025_H100)
    assert all(abs(row.error) < 0.06 for row in h100)


def test_on_gb200_the_model_gets_bf16_right_and_overrates_what_fp8_gains():
    # The 2025 Llama 3.1 405B recipe (llama3.1/README.md, "GB200 Performance" and "H100
    # Performance"), a source the sustained rates were not chosen on: 128-512 GB200 with TP 4, PP 8,
    # CP 2, VP 8, and 512 H100 with TP 8. Measured: BF16 on GB200 +0.6% to +2.4%, FP8 +17.0% to
    # +19.3%; on H100 +2.5% and +3.4%. The recipe's FP8 step is 1.52 times as fast as its BF16 one
    # on both GPUs; the model's gain is 1.53 on the H100 and 1.77 on the GB200, whose best FP8
    # matmul is 1.98 times its best BF16 one where the H100's is 1.74 (the Nemotron-4 recipe
    # shows the same). Pinned so that closing the FP8 gap is a deliberate change.
    gb200 = tr.fidelity_table(DGXC_LLAMA31_2025_GB200)
    assert len(gb200) == 6 and {row.run.gpu for row in gb200} == {"GB200"}
    by_gpus = {}
    for row in gb200:
        by_gpus.setdefault(row.run.gpus, {})[row.run.software.endswith("FP8")] = row
    assert sorted(by_gpus) == [128, 256, 512]
    # Tokens per second from the step time, as the README's own "Throughput" rows give them.
    assert by_gpus[128][False].published == pytest.approx(56092, abs=1)
    assert by_gpus[512][True].published == pytest.approx(335867, abs=1)
    for pair in by_gpus.values():
        bf16, fp8 = pair[False], pair[True]
        assert abs(bf16.error) < 0.05
        assert 0.10 < fp8.error < 0.25
        assert fp8.published / bf16.published == pytest.approx(1.52, abs=0.02)
        assert fp8.predicted / bf16.predicted > fp8.published / bf16.published + 0.15
    # The same model on 256 GB200 in FP8 with NeMo 25.11 (Megatron-Bridge, another layout) reached
    # 813 tokens per second per GPU against 662 with NeMo 25.04.01: 1.23 times, where the model puts
    # the two layouts 2% apart. The later release is the one the model matches.
    (late,) = [row for row in tr.fidelity_table(MEGATRON_BRIDGE_2511_BLACKWELL)
               if row.run.gpu == "GB200" and "405B" in row.run.label]
    early = by_gpus[256][True]
    assert late.run.gpus == early.run.gpus == 256
    assert late.published / early.published == pytest.approx(813 / (8192 * 128 / 6.183 / 256), rel=1e-9)
    assert late.published / early.published > 1.2
    assert abs(late.predicted / early.predicted - 1) < 0.05
    assert abs(late.error) < 0.05 < early.error
    h100_bf16, h100_fp8 = tr.fidelity_table(DGXC_LLAMA31_2025_H100)
    assert (h100_bf16.published, h100_fp8.published) == (pytest.approx(105863, abs=1), pytest.approx(161072, abs=1))
    assert h100_fp8.published / h100_bf16.published == pytest.approx(1.52, abs=0.02)
    assert h100_fp8.predicted / h100_bf16.predicted == pytest.approx(h100_fp8.published / h100_bf16.published,
                                                                       abs=0.05)


def test_blackwell_llama_rows_are_within_ten_percent_at_the_sustained_rate():
    # Megatron-Bridge's NeMo 25.11 tables ("System: DGX-B200", "System: DGX-GB200"), the dense
    # Llama rows in FP8: 8B on 8 GPUs, 70B on 64 (GB200, FSDP), 405B on 128 (B200) and 256 (GB200).
    # Measured with the GEMMs at the sustained rates: B200 +7.8% (8B) and +0.9% (405B); GB200
    # +9.5%, +2.1% and -1.6%. At the best burst rates they were +12.8% to +24.4%. The same tables'
    # H100 rows are within -2.6% to +10.4%. Kept beside the fidelity table (its scope is A100 and
    # H100); pinned so that a change to the Blackwell rates shows here.
    blackwell = tr.fidelity_table(MEGATRON_BRIDGE_2511_BLACKWELL)
    assert {row.run.gpu for row in blackwell} == {"B200", "GB200"} and len(blackwell) == 5
    assert all(-0.05 < row.error < 0.10 for row in blackwell)
    # The 8B rows, the smallest GEMMs, stay the optimistic ones on both GPUs.
    eight_b = [row.error for row in blackwell if "8B" in row.run.label]
    assert len(eight_b) == 2 and min(eight_b) > max(row.error for row in blackwell if "8B" not in row.run.label)
    h100 = tr.fidelity_table(MEGATRON_BRIDGE_2511_H100)
    assert all(abs(row.error) < 0.11 for row in h100)


def test_the_uneven_405b_split_counts_the_embedding_and_loss_as_layers():
    # 126 layers over 8 x 8 model chunks (NeMo 25.11, 405B on H100): not divisible, so the rows take
    # the split in which the first and last chunks hold one layer fewer, and say so.
    (run,) = [r for r in MEGATRON_BRIDGE_2511_H100 if "405B" in r.label]
    assert run.layers % (run.pipeline_parallel * run.interleave) != 0 and run.uneven_pipeline
    assert any("first and last chunks" in text for text in run.assumptions)
    (fsdp,) = [r for r in MEGATRON_BRIDGE_2511_H100 if "8B" in r.label]
    assert fsdp.zero_stage == 3 and not fsdp.uneven_pipeline


def test_long_sequences_with_context_parallelism_by_nemo_s_flop_count():
    # NeMo's long-sequence table (Llama 2 7B FP8 on H100, 4K to 1M tokens, "With CP"), its TFLOPS
    # turned into tokens per second with NeMo's formula. Measured: +5.6% (4K) to +0.4% (32K), then
    # -6.6% (64K) to -17.4% (512K) where attention is most of the work; the split (TP, PP, CP and
    # the DP the page states) is reproduced. Pinned so that a change in attention's cost shows.
    rows = tr.fidelity_table(NEMO_LONG_SEQUENCE_H100)
    assert [row.run.data_parallel for row in rows] == [4, 4, 8, 8, 8, 8, 8, 4, 4]
    short = [row.error for row in rows if row.run.sequence_length <= 32 * 1024]
    long = [row.error for row in rows if row.run.sequence_length > 32 * 1024]
    assert len(short) == 4 and all(-0.02 < e < 0.07 for e in short)
    assert len(long) == 5 and all(-0.20 < e < -0.05 for e in long)
    assert short == sorted(short, reverse=True)


def test_replay_uses_the_stated_split():
    step = tr.replay(BLOOM_176B)
    assert step.gpus == 384
    assert step.tokens == 2048 * 2048


def test_dgx_a100_multi_node_all_reduce_reaches_what_nvidia_reports():
    # NVIDIA/nccl issue #812: "On an Nvidia DGX-A100 system we have 8x200Gbit/s IB cards and
    # we measure 192GB/s AllReduce BusBW" (ring, many nodes). Within 10% at 16 to 64 nodes.
    nvlink3 = c.link_parameters(catalog.link("NVLink 3"))
    hdr = c.link_parameters(catalog.link("InfiniBand HDR"))
    for nodes in (16, 32, 64):
        r = c.collective_performance("all_reduce", 8 * 2**30, 8 * nodes, nvlink3["bandwidth_bytes_per_s"],
                                     nvlink3["latency_s"], "hierarchical", ranks_per_node=8,
                                     network_bandwidth_bytes_per_s=hdr["bandwidth_bytes_per_s"],
                                     network_latency_s=hdr["latency_s"])
        assert r.bus_bandwidth_bytes_per_s == pytest.approx(DGX_A100_MULTINODE_ALL_REDUCE_BYTES_PER_S, rel=0.10)


def test_a_run_replays_the_dropout_its_source_states():
    # MPT's yamls leave MPTConfig's dropout probabilities at 0; a GPT-style model keeps its
    # dropout masks (more bytes per residual add) unless the run says otherwise.
    run = LLM_FOUNDRY_BENCHMARKS[0]
    assert run.dropout is False and all(r.dropout is False for r in LLM_FOUNDRY_BENCHMARKS)
    with_dropout = dataclasses.replace(run, dropout=True)
    assert tr.replay(with_dropout).step_s > tr.replay(run).step_s
    assert tr.replay(dataclasses.replace(run, dropout=None)).step_s == tr.replay(with_dropout).step_s


@pytest.mark.parametrize("run", TORCHTITAN_A100_RUNS, ids=lambda r: r.label)
def test_torchtitan_a100_rows_within_five_percent_with_their_own_checkpointing(run):
    # torchtitan's docs/performance.md (041336434), both tables: FSDP2 on 64 A100 80GB, WPS per
    # GPU. Measured: -3.3% (Llama 2 13B, every other matmul) to +4.1% (Llama 3 8B, every other
    # layer); the full-checkpointing rows -0.5% and +1.1% since the checkpoint's early stop
    # (Software.checkpoint "early stop"; -6.3% and -4.7% before). Before the eager RMSNorm, rotary
    # embedding and SwiGLU were counted (Kernels.elementwise "eager") they were -1.9% to +9.2%.
    (row,) = tr.fidelity_table((run,))
    assert abs(row.error) < 0.05
    assert run.value == 64 * round(run.value / 64)          # WPS per GPU times the 64 GPUs


def test_torchtitans_op_level_rows_read_as_megatrons_selective_would_be_far_off():
    # The same rows with Megatron's "selective" (the attention core only) in place of torchtitan's
    # op-level policy (half the weight GEMMs rerun): +10.0% to +17.1% instead of -3.2% to +2.1%.
    op_level = [run for run in TORCHTITAN_A100_RUNS if run.recompute == "every other matmul"]
    assert len(op_level) == 3
    for run in op_level:
        (own,) = tr.fidelity_table((run,))
        (megatron,) = tr.fidelity_table((dataclasses.replace(run, recompute="selective"),))
        assert abs(own.error) < 0.05 and megatron.error > own.error + 0.09 and megatron.error > 0.09


def test_the_worst_row_has_a_peer_in_its_own_table_that_the_model_matches():
    # llm-foundry's A100 40GB table: MPT-70B on 64 GPUs (microbatch 2, one per step) reached 35.87%
    # MFU, MPT-30B on 32 (microbatch 4, one per step) 51.74%, with 0.93 times the model FLOPs, 0.92
    # times the weights and the same memory per GPU. The model predicts 46.1% and 47.3%: it follows
    # what the columns describe, and the 70B row falls 31% below its peer.
    table = [row for row in tr.fidelity_table() if not _pinned_elsewhere(row.run)]
    worst = max(table, key=lambda row: abs(row.error))
    assert worst.run.label == "MPT-70B, 64 x A100 40GB"
    (peer,) = tr.fidelity_table((LLM_FOUNDRY_30B_32_A100_40GB,))
    assert (peer.published, worst.published) == (pytest.approx(0.5174), pytest.approx(0.3587))
    work = (peer.step.model_flops / peer.run.gpus) / (worst.step.model_flops / worst.run.gpus)
    weights = peer.step.memory.weights_bytes / worst.step.memory.weights_bytes
    assert 0.9 < work < 1 and 0.9 < weights < 1
    assert peer.step.memory.total_bytes == pytest.approx(worst.step.memory.total_bytes, rel=0.02)
    assert abs(peer.error) < 0.10 < 0.25 < worst.error
    assert abs(peer.predicted / worst.predicted - 1) < 0.05


def test_same_silicon_must_name_another_catalog_gpu():
    b200 = catalog.gpu("B200")
    with pytest.raises(ValueError, match="same_silicon_as"):
        dataclasses.replace(b200, same_silicon_as="B200")
    with pytest.raises(TypeError, match="same_silicon_as"):
        dataclasses.replace(b200, same_silicon_as="")


def test_a_sustained_rate_above_the_best_one_is_refused():
    h200 = catalog.gpu("H200 SXM")
    with pytest.raises(ValueError, match="sustained_matmul_flop_per_s"):
        dataclasses.replace(h200, sustained_matmul_flop_per_s=1.01 * h200.measured_matmul_flop_per_s)
    with pytest.raises(ValueError, match="sustained_matmul_flop_per_s"):
        dataclasses.replace(h200, measured_matmul_flop_per_s=None)


def test_replay_with_another_stack_changes_only_the_stack():
    run = next(run for run in TORCHTITAN_A100_RUNS if run.recompute == "none")
    assert tr.replay(run, software=run.software).step_s == tr.replay(run).step_s
    one_kernel_each = tr.software(run.software).replace(kernels={"elementwise": "one kernel each"})
    assert tr.replay(run, software=one_kernel_each).step_s < tr.replay(run).step_s
    assert tr.replay(run, software=one_kernel_each).model_flops == tr.replay(run).model_flops
    with pytest.raises(ValueError, match="unknown software name 'no such stack'"):
        tr.replay(run, software="no such stack")


@pytest.mark.parametrize("run", FMS_FSDP_A100_RUNS, ids=lambda r: r.label)
def test_ibm_fms_fsdp_rows_within_20_percent_checkpointed_low_hybrid_high(run):
    # fms-fsdp's README table (commit 0d31998): Llama 2 with PyTorch FSDP on 128 A100 80GB, 400
    # Gb/s per node (the PyTorch blog of 2024-03-13), tokens per GPU per second. Measured: 7B
    # hybrid-sharded +4.9%, 13B hybrid-sharded with one sequence per GPU +17.8%, 34B and 70B fully
    # sharded with every block checkpointed -6.8% and -5.7% (-12.1% and -11.4% when the model reran
    # each checkpointed block whole).
    (row,) = tr.fidelity_table((run,))
    assert abs(row.error) < 0.20
    assert (row.error < 0) == (run.recompute == "full")
    hybrid = run.recompute == "none"
    assert run.shard_group_size == (8 if hybrid else None) and run.zero_stage == 3
    assert run.global_batch_size == 128 * run.microbatch_size and run.value == 128 * round(run.value / 128)
    assert run.nics_per_node * catalog.link(run.scale_out_link).per_direction_bytes_per_s == 400 * u.Gbit_per_s


def test_ibm_13b_run_hides_communication_that_fills_most_of_its_compute():
    # The model's reading of the table's second-worst row: its all-reduces across the 16 nodes
    # keep the network busy for about two thirds of the compute time and hide behind the backward
    # pass; its 7B sibling, with twice the sequences per GPU and half the weights, about a third.
    rows = {row.run.layers: row for row in tr.fidelity_table(FMS_FSDP_A100_RUNS)}
    busy = {layers: row.step.data_parallel_hidden_s / row.step.compute_s for layers, row in rows.items()}
    assert 0.55 < busy[40] < 0.75 and 0.25 < busy[32] < 0.45
    assert rows[40].step.data_parallel_s < 0.05 * rows[40].step.step_s
    ranked = sorted([row for row in tr.fidelity_table() if not _pinned_elsewhere(row.run)],
                    key=lambda row: -abs(row.error))
    assert ranked[1].run is rows[40].run


def test_the_model_overrates_ibms_eager_fsdp_runs_on_h100():
    # The PyTorch blog's Table 1 (2024-03-13), H100 80GB columns: Llama 2 on 96 H100 over 800 Gb/s
    # per node, two sequences per GPU. Kept out of the fidelity table (each row's sharding and the
    # 13B row's checkpointing frequency are not stated). Measured: +27.5% (7B), +23.7%, +18.1%,
    # +16.1% (70B); the smaller the model, the further. Pinned so that closing the gap is a
    # deliberate change.
    rows = tr.fidelity_table(FMS_FSDP_H100_RUNS)
    errors = [row.error for row in rows]
    assert [row.run.layers for row in rows] == [32, 40, 48, 80]
    assert all(0.05 < error < 0.35 for error in errors)
    assert errors == sorted(errors, reverse=True)
    assert not set(FMS_FSDP_H100_RUNS) & set(TRAINING_RUNS)


def test_what_torch_compile_bought_torchtitan_on_h100_is_the_eager_element_wise_cost():
    # torchtitan's H100 benchmark (December 2024), Tables 1 and 3: Llama 3.1 8B with FSDP, two
    # sequences per GPU, selective op checkpointing. torch.compile took 5,762 to 6,667 tokens/s
    # per GPU on 8 H100 (x1.157) and 5,605 to 6,514 on 128 (x1.162). The model, reading compile
    # as the element-wise ops moving each element once (stack "torchtitan 2024, compiled"), gives
    # x1.140 on both; without Kernels.elementwise "eager" it would give x1.000. Float8 then took
    # them to 8,532 and 8,380 (x1.280, x1.286); the model gives x1.330.
    rows = tr.fidelity_table(TORCHTITAN_H100_COMPILE_RUNS)
    stacks = ["torchtitan 2024", "torchtitan 2024, compiled", "torchtitan 2024, compiled FP8"]
    assert [row.run.software for row in rows] == stacks * 2
    for eager, compiled, fp8 in zip(rows[::3], rows[1::3], rows[2::3]):
        assert eager.run.gpus == compiled.run.gpus == fp8.run.gpus
        measured = compiled.published / eager.published
        modelled = compiled.predicted / eager.predicted
        assert measured == pytest.approx(1.16, abs=0.01)
        assert abs(modelled - measured) < 0.03
        assert fp8.published / compiled.published == pytest.approx(1.28, abs=0.01)
        assert 0 < fp8.predicted / compiled.predicted - fp8.published / compiled.published < 0.06
    one_by_one = [tr.software(name) for name in stacks]
    assert one_by_one[0].replace(kernels={"elementwise": "one kernel each"}, name=stacks[1],
                                 sources=()) == one_by_one[1].replace(sources=())
    assert one_by_one[1].replace(kernels={"gemm_precision": "fp8"}, name=stacks[2],
                                 sources=()) == one_by_one[2].replace(sources=())
    # Their H100s (HBM2e at 2.4 TB/s, 500 W) are not the catalog's: the figures are 24% to 32% high.
    assert all(0.2 < row.error < 0.35 for row in rows)


# Families: the development and validation split of the published runs, summed up apart.

def _row(run, error, *, organisation, software):
    """A fidelity row made by hand: ``run`` relabelled with ``organisation`` and ``software``, missed by ``error``."""
    run = dataclasses.replace(run, organisation=organisation, software=software)
    return tr.FidelityRow(run=run, step=None, published=1.0, predicted=1.0 + error)


def test_family_summaries_of_a_hand_made_table():
    # Three development rows (|error| 0.10, 0.20, 0.05) and two validation rows (0.04, 0.02),
    # from one run relabelled: medians 0.10 and 0.03, worst 0.20 and 0.04, by hand. The family
    # follows the stack: NVIDIA's run on DeepSpeed is validation.
    run = TRAINING_RUNS[0]
    rows = [_row(run, 0.10, organisation="NVIDIA", software="Megatron-LM SC21"),
            _row(run, -0.20, organisation="MosaicML", software="llm-foundry 2023, PURE"),
            _row(run, 0.05, organisation="ByteDance", software="MegaScale"),
            _row(run, -0.04, organisation="NVIDIA", software="DeepSpeed ZeRO-3"),
            _row(run, 0.02, organisation="IBM", software="PyTorch FSDP")]
    by_family = tr.fidelity_by_family(rows)
    assert list(by_family) == ["development", "validation"]
    development, validation = by_family["development"], by_family["validation"]
    assert (development["runs"], validation["runs"]) == (3, 2)
    assert development["median_abs_error"] == pytest.approx(0.10)
    assert development["max_abs_error"] == pytest.approx(0.20)
    assert validation["median_abs_error"] == pytest.approx(0.03)
    assert validation["max_abs_error"] == pytest.approx(0.04)
    assert development["organisations"] == ["ByteDance", "MosaicML", "NVIDIA"]
    assert validation["organisations"] == ["IBM", "NVIDIA"]


def test_a_family_with_no_row_is_left_out():
    (only,) = tr.fidelity_by_family([_row(TRAINING_RUNS[0], 0.01, organisation="Meta", software="torchtitan 2024")])
    assert only == "validation"


def test_family_summaries_partition_the_library_table():
    table = tr.fidelity_table()
    by_family = tr.fidelity_by_family(table)
    whole = tr.fidelity_summary(table)
    assert set(by_family) == set(FAMILIES)
    # Every row is in exactly one family, and each family's summary is the summary of its rows.
    assert sum(summary["runs"] for summary in by_family.values()) == len(table) == whole["runs"]
    for name, summary in by_family.items():
        assert summary == tr.fidelity_summary([row for row in table if family(row.run) == name])
    # The worst row of the table is the worst of one family; the median of the whole lies
    # between the families' medians (true of any split into two parts).
    assert whole["max_abs_error"] == max(summary["max_abs_error"] for summary in by_family.values())
    medians = [summary["median_abs_error"] for summary in by_family.values()]
    assert min(medians) <= whole["median_abs_error"] <= max(medians)
    assert set(whole["organisations"]) == {name for summary in by_family.values() for name in summary["organisations"]}


@given(st.lists(st.tuples(st.sampled_from(["Megatron-LM SC21", "MegaScale", "torchtitan 2024", "PyTorch FSDP",
                                           "Megatron-DeepSpeed 2022, BF16"]),
                          st.floats(-0.9, 2.0)), min_size=1, max_size=30))
@settings(max_examples=60, deadline=None)
def test_family_summaries_are_consistent_for_any_table(entries):
    rows = [_row(TRAINING_RUNS[0], error, organisation="any", software=software) for software, error in entries]
    by_family = tr.fidelity_by_family(rows)
    whole = tr.fidelity_summary(rows)
    assert sum(summary["runs"] for summary in by_family.values()) == len(rows)
    assert whole["max_abs_error"] == max(summary["max_abs_error"] for summary in by_family.values())
    medians = [summary["median_abs_error"] for summary in by_family.values()]
    assert min(medians) - 1e-12 <= whole["median_abs_error"] <= max(medians) + 1e-12
    for summary in by_family.values():
        assert 0 <= summary["median_abs_error"] <= summary["max_abs_error"]


@pytest.mark.parametrize("summarise", [tr.fidelity_summary, tr.fidelity_by_family])
def test_an_empty_table_is_refused_by_name(summarise):
    with pytest.raises(ValueError, match="rows must hold at least one FidelityRow"):
        summarise([])


def test_a_row_knows_its_family():
    rows = tr.fidelity_table()
    assert [row.family for row in rows] == [family(row.run) for row in rows]
    assert {row.family for row in rows} == set(FAMILIES)
