"""The fidelity table: published runs replayed with the library's one set of defaults.

Tolerances: SC21 Table 1 and MegaScale Table 2 stay within 10% (tests/test_training.py);
here every other published run is replayed and the table's median and worst errors are
pinned as they are measured today, so a change that makes the model worse fails.
"""

import dataclasses

import numpy as np
import pytest

from interconnect_lab import catalog, collectives as c, matmul, training as tr, units as u
from interconnect_lab.training import step as training_step_module
from interconnect_lab.published import (
    AZURE_A100_GEMM, AZURE_H100_FP8_GEMM, DGX_A100_MULTINODE_ALL_REDUCE_BYTES_PER_S, TILELANG_H800_GEMM,
)
from interconnect_lab.published.training_runs import (
    BLOOM_176B, DGXC_LLAMA31_2025_GB200, DGXC_LLAMA31_2025_H100, DGXC_RUNS, DGXC_NEMOTRON_2025_GB200,
    DGXC_NEMOTRON_2025_H100, FLASH_ATTENTION_2_RUNS, FMS_FSDP_A100_RUNS, FMS_FSDP_H100_RUNS, KORTHIKANTI_RUNS,
    LLAMA3_405B_RUNS, LLM_FOUNDRY_1B_A100_40GB, LLM_FOUNDRY_30B_32_A100_40GB, LLM_FOUNDRY_1B_BY_LENGTH, LLM_FOUNDRY_BENCHMARKS,
    LLM_FOUNDRY_A100_80GB_ONE_NODE,
    MEGATRON_BRIDGE_2511_BLACKWELL, MEGATRON_BRIDGE_2511_H100, NEMO_LONG_SEQUENCE_H100, TORCHTITAN_A100_RUNS,
    TORCHTITAN_H100_COMPILE_RUNS,
    TRAINING_RUNS,
    PublishedRun, nemo_llama2_flops_per_token,
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


def test_the_table_errors_do_not_grow():
    # Measured 2026-12-06 with the defaults, 71 runs: median 4.8%, worst 28.0% (MPT-70B on 64
    # A100 40 GB, FSDP with one microbatch of 2 sequences per GPU). The goal is a median of 7%
    # and no run beyond 15%; these bounds stop the table from getting worse.
    summary = tr.fidelity_summary()
    assert summary["median_abs_error"] < 0.07
    assert summary["max_abs_error"] < 0.30


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
    # block before its MLP output projection (Software.recompute_early_stop); the model charges
    # 13.0% (15.7% when it reran the whole block). Korthikanti et al.'s full-recomputation
    # baselines, Megatron-LM's own checkpointing that reruns every block whole, took 29% to 32%
    # longer than SP + selective; the model charges 34% to 36%. Pinned so that a change to the
    # recomputation model shows here.
    titan = {row.run.recompute: row for row in tr.fidelity_table(TORCHTITAN_A100_RUNS) if row.run.layers == 40}
    measured = titan["none"].published / titan["every other layer"].published - 1
    modelled = titan["none"].predicted / titan["every other layer"].predicted - 1
    assert measured == pytest.approx(0.1296, abs=5e-4)
    assert modelled == pytest.approx(measured, abs=0.005)
    whole = dataclasses.replace(tr.software(titan["none"].run.software), recompute_early_stop=False)
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


def test_nemo_counts_causal_attention_at_half():
    # NeMo's llama2() formula, per token, by hand at 4K tokens for Llama 2 7B: 32 layers x 4096^2 x
    # (12 + 12 + 18 x 11008 / 4096 + 12 x 4096 / 4096 / 2 + 6 x 32000 / (32 x 4096)).
    by_hand = 32 * 4096**2 * (12 + 12 + 18 * 11008 / 4096 + 6 + 6 * 32000 / (32 * 4096))
    assert nemo_llama2_flops_per_token("Llama 2 7B", 4096) == pytest.approx(by_hand)
    # Doubling the length adds 6 s h l, half the 12 s h l of the library's convention.
    assert (nemo_llama2_flops_per_token("Llama 2 7B", 8192) - nemo_llama2_flops_per_token("Llama 2 7B", 4096)
            == pytest.approx(6 * 4096 * 4096 * 32))


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


def test_bad_metric_is_refused():
    with pytest.raises(ValueError, match="metric"):
        PublishedRun(**{**BLOOM_176B.__dict__, "metric": "speed"})


# FSDP, hybrid sharding, overlap -------------------------------------------------------

def _mpt(shard_group_size=None, overlap=True, microbatch=8, accumulation=1):
    model = tr.TransformerModel.gpt(layers=32, hidden_size=4096, heads=32, vocabulary_size=50368,
                                    sequence_length=2048, name="MPT-7B")
    cluster = tr.Cluster(name="8 x 8 H100", gpu="H100 SXM", gpus_per_node=8, scale_up_link="NVLink 4",
                         scale_out_link="Ethernet 200G", nics_per_node=8)
    config = tr.parallel_config(64, global_batch_size=64 * microbatch * accumulation, microbatch_size=microbatch,
                                recompute="none", zero_stage=3, shard_group_size=shard_group_size)
    software = dataclasses.replace(tr.software("PyTorch FSDP"), data_parallel_overlap=overlap)
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


def test_shard_group_must_divide_the_data_parallel_group():
    with pytest.raises(ValueError, match="shard_group_size"):
        tr.parallel_config(64, global_batch_size=64, zero_stage=3, shard_group_size=7)
    with pytest.raises(ValueError, match="zero_stage = 3"):
        tr.parallel_config(64, global_batch_size=64, zero_stage=1, shard_group_size=8)


# The GEMM's shape ---------------------------------------------------------------------

LARGE_GEMMS = [g for g in AZURE_A100_GEMM if min(g.m, g.n, g.k) >= 2048]
LARGEST = max(AZURE_A100_GEMM, key=lambda g: g.m * g.n * g.k)


@pytest.mark.parametrize("gemm", LARGE_GEMMS, ids=lambda g: f"{g.m}x{g.n}x{g.k}")
def test_gemm_shape_follows_a_published_a100_sweep(gemm):
    # Azure's ND A100 v4 cuBLASLt sweep, relative to its largest GEMM: within 12% for GEMMs
    # whose every dimension is at least 2,048 (smaller and thin GEMMs run smaller kernels).
    a100 = catalog.gpu(gemm.gpu)
    model = (matmul.gemm_efficiency(a100, gemm.m, gemm.n, gemm.k)
             / matmul.gemm_efficiency(a100, LARGEST.m, LARGEST.n, LARGEST.k))
    assert model == pytest.approx(gemm.flop_per_s / LARGEST.flop_per_s, rel=0.12)


@pytest.mark.parametrize("gemm", TILELANG_H800_GEMM, ids=lambda g: f"k={g.k}")
def test_gemm_inner_dimension_follows_a_published_hopper_sweep(gemm):
    # TileLang's 8192 x 8192 x K sweep on an H800 SXM (the H100's SMs and HBM), relative to
    # its largest K: within 10% from K = 256 (half the rate) to K = 16,384.
    h100 = catalog.gpu(gemm.gpu)
    best = TILELANG_H800_GEMM[-1]
    model = matmul.gemm_efficiency(h100, gemm.m, gemm.n, gemm.k) / matmul.gemm_efficiency(h100, best.m, best.n, best.k)
    assert model == pytest.approx(gemm.flop_per_s / best.flop_per_s, rel=0.10)


LARGE_FP8_GEMMS = [g for g in AZURE_H100_FP8_GEMM if min(g.m, g.n, g.k) >= 2048]
LARGEST_FP8 = max(AZURE_H100_FP8_GEMM, key=lambda g: g.flop_per_s)


@pytest.mark.parametrize("gemm", LARGE_FP8_GEMMS, ids=lambda g: f"{g.m}x{g.n}x{g.k}")
def test_fp8_gemm_shape_follows_a_published_h100_sweep(gemm):
    # Azure's ND H100 v5 cuBLASLt FP8 sweep, relative to its best GEMM: within 10% for GEMMs
    # whose every dimension is at least 2,048 (2048^3 runs at 73% of the best, 4096^3 at 88%).
    h100 = catalog.gpu(gemm.gpu)
    model = (matmul.gemm_efficiency(h100, gemm.m, gemm.n, gemm.k, "fp8")
             / matmul.gemm_efficiency(h100, LARGEST_FP8.m, LARGEST_FP8.n, LARGEST_FP8.k, "fp8"))
    assert model == pytest.approx(gemm.flop_per_s / LARGEST_FP8.flop_per_s, rel=0.10)


def test_fp8_best_rate_is_the_sweeps_best_and_short_of_twice_bf16():
    h100 = catalog.gpu("H100 SXM")
    assert h100.measured_fp8_matmul_flop_per_s == LARGEST_FP8.flop_per_s
    # Datasheet peaks say FP8 is twice BF16; the best measured kernels, 1,382 against 794.5 TFLOP/s.
    assert h100.fp8_flop_per_s == pytest.approx(2 * h100.bf16_flop_per_s, rel=1e-3)
    assert matmul.best_rate(h100, "fp8") / matmul.best_rate(h100, "bf16") == pytest.approx(1.74, abs=0.005)
    # An FP8 GEMM moves fewer bytes per FLOP, but at its higher rate a thin one is still memory-bound.
    assert matmul.gemm_efficiency(h100, 802816, 192, 768, "fp8") < matmul.gemm_efficiency(h100, 802816, 192, 768)


def test_fp8_on_a_gpu_without_it_names_the_gpus_that_have_it():
    with pytest.raises(ValueError, match=r"A100 SXM has no FP8 tensor cores .*'H100 SXM'"):
        matmul.best_rate(catalog.gpu("A100 SXM"), "fp8")
    with pytest.raises(ValueError, match=r"unknown precision 'fp4'; valid precisions are: 'bf16', 'fp8'"):
        matmul.gemm_efficiency(catalog.gpu("H100 SXM"), 4096, 4096, 4096, "fp4")


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
    monkeypatch.setattr(training_step_module, "_FP8_QUANTIZE_BYTES", 0.0)
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


def test_a_thin_gemm_is_bound_by_its_memory_traffic():
    # Azure's 802,816 x 192 x 768 GEMM runs at 62% of the sweep's best; the model, whose
    # memory-traffic term explains it, within 15%.
    thin = next(g for g in AZURE_A100_GEMM if g.n == 192)
    a100 = catalog.gpu(thin.gpu)
    model = (matmul.gemm_efficiency(a100, thin.m, thin.n, thin.k)
             / matmul.gemm_efficiency(a100, LARGEST.m, LARGEST.n, LARGEST.k))
    assert model == pytest.approx(thin.flop_per_s / LARGEST.flop_per_s, rel=0.15)


def test_flash_attention_skips_what_the_causal_mask_hides():
    model = tr.transformer_model("Llama 3 8B")
    cluster = tr.system_cluster("DGX H100")
    config = tr.parallel_config(8, global_batch_size=8, recompute="none")
    flash = tr.software("PyTorch FSDP")
    materialised = dataclasses.replace(flash, flash_attention=False)
    long = dataclasses.replace(model, sequence_length=65536)
    # Longer sequences cost the flash stack less extra time than the materialised one.
    grow_flash = tr.training_step(long, cluster, config, flash).compute_s / tr.training_step(model, cluster, config, flash).compute_s
    grow_full = (tr.training_step(long, cluster, config, materialised).compute_s
                 / tr.training_step(model, cluster, config, materialised).compute_s)
    assert grow_flash < grow_full


def test_gemm_efficiency_limits():
    h100 = catalog.gpu("H100 SXM")
    assert matmul.gemm_efficiency(h100, *matmul.REFERENCE_SHAPE) == pytest.approx(1.0)
    thin = matmul.gemm_efficiency(h100, 16384, 4096, np.array([128, 1024, 8192]))
    assert np.all(np.diff(thin) > 0)                      # more work per byte moved
    with pytest.raises(ValueError, match="k"):
        matmul.gemm_efficiency(h100, 1024, 1024, 0)


def test_attention_kernel_caps_the_attention_core_on_hopper():
    model = tr.transformer_model("Llama 3 8B")
    cluster = tr.system_cluster("DGX H100")
    config = tr.parallel_config(8, global_batch_size=8, recompute="none")
    fa2 = tr.training_step(model, cluster, config, tr.software("PyTorch FSDP"))
    fa3 = tr.training_step(model, cluster, config,
                           dataclasses.replace(tr.software("PyTorch FSDP"), attention_kernel="FlashAttention-3"))
    assert fa3.compute_s < fa2.compute_s
    with pytest.raises(ValueError, match="attention_kernel"):
        dataclasses.replace(tr.software("PyTorch FSDP"), attention_kernel="FlashAttention-9")


# Two-level all-reduce, pipelined ------------------------------------------------------

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


# Settings a modern stack and an Ethernet fabric need -------------------------------------

def _llama8b_step(software="Megatron-Core 2024", pod_gpus=None, oversubscription=1.0, **config):
    cluster = tr.Cluster(name="RoCE H100", gpu="H100 SXM", gpus_per_node=8, scale_up_link="NVLink 4",
                         scale_out_link="Ethernet 400G", nics_per_node=8, pod_gpus=pod_gpus,
                         oversubscription=oversubscription)
    settings = dict(global_batch_size=1024, tensor_parallel=8, zero_stage=1) | config
    return tr.training_step(tr.transformer_model("Llama 3 8B"), cluster, tr.parallel_config(1024, **settings),
                            software)


def test_oversubscribed_pods_slow_data_parallel_rings_only_when_few_ranks_share_a_pod():
    flat = _llama8b_step()
    # 128 data-parallel ranks over 16 pods of 64 GPUs: 8 ranks per pod, more than the 1:7 ratio.
    assert _llama8b_step(pod_gpus=64, oversubscription=7).data_parallel_s == pytest.approx(flat.data_parallel_s)
    # Pods of 16 GPUs: 2 ranks per pod, so each pod's uplinks carry 1/2 of its rate against 1/7.
    tight = _llama8b_step(pod_gpus=16, oversubscription=7)
    assert tight.data_parallel_s + tight.data_parallel_hidden_s > flat.data_parallel_s + flat.data_parallel_hidden_s
    with pytest.raises(ValueError, match="oversubscription"):
        _llama8b_step(oversubscription=0.5)


def test_fp8_gemms_run_faster_and_mfu_stays_against_the_bf16_peak():
    bf16, fp8 = _llama8b_step(), _llama8b_step("Megatron-Core 2024 FP8")
    assert fp8.compute_s < bf16.compute_s
    assert fp8.peak_flop_per_s == bf16.peak_flop_per_s == catalog.gpu("H100 SXM").bf16_flop_per_s
    a100 = tr.Cluster(name="A100", gpu="A100 SXM", gpus_per_node=8, scale_up_link="NVLink 3",
                      scale_out_link="InfiniBand HDR", nics_per_node=8)
    with pytest.raises(ValueError, match="FP8"):
        tr.training_step("Llama 3 8B", a100, tr.parallel_config(8, global_batch_size=8),
                         "Megatron-Core 2024 FP8")


def test_all_gathered_context_parallelism_is_exposed():
    ring = tr.software("Megatron-Core 2024")
    gathered = dataclasses.replace(ring, context_parallel_overlap=False)
    long = dataclasses.replace(tr.transformer_model("Llama 3 8B"), sequence_length=65536)
    cluster = tr.system_cluster("DGX H100")
    config = tr.parallel_config(64, global_batch_size=8, context_parallel=8, tensor_parallel=8)
    assert (tr.training_step(long, cluster, config, gathered).tensor_parallel_s
            > tr.training_step(long, cluster, config, ring).tensor_parallel_s)


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
    # (Software.recompute_early_stop; -6.3% and -4.7% before). Before the eager RMSNorm, rotary
    # embedding and SwiGLU were counted (Software.eager_elementwise) they were -1.9% to +9.2%.
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
    table = tr.fidelity_table()
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
    one_kernel_each = dataclasses.replace(tr.software(run.software), eager_elementwise=False)
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
    ranked = sorted(tr.fidelity_table(), key=lambda row: -abs(row.error))
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
    # x1.140 on both; without Software.eager_elementwise it would give x1.000. Float8 then took
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
    assert dataclasses.replace(one_by_one[0], eager_elementwise=False, name=stacks[1],
                               sources=()) == dataclasses.replace(one_by_one[1], sources=())
    assert dataclasses.replace(one_by_one[1], gemm_precision="fp8", name=stacks[2],
                               sources=()) == dataclasses.replace(one_by_one[2], sources=())
    # Their H100s (HBM2e at 2.4 TB/s, 500 W) are not the catalog's: the figures are 24% to 32% high.
    assert all(0.2 < row.error < 0.35 for row in rows)
