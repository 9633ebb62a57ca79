"""Tests of ``interconnect_lab.published.training_runs``: published training runs, with every input
their sources state, for the fidelity table.
"""

import pytest

from interconnect_lab.published.training_runs import BLOOM_176B, PublishedRun, nemo_llama2_flops_per_token


def test_nemo_counts_causal_attention_at_half():
    # NeMo's llama2() formula, per token, by hand at 4K tokens for Llama 2 7B: 32 layers x 4096^2 x
    # (12 + 12 + 18 x 11008 / 4096 + 12 x 4096 / 4096 / 2 + 6 x 32000 / (32 x 4096)).
    by_hand = 32 * 4096**2 * (12 + 12 + 18 * 11008 / 4096 + 6 + 6 * 32000 / (32 * 4096))
    assert nemo_llama2_flops_per_token("Llama 2 7B", 4096) == pytest.approx(by_hand)
    # Doubling the length adds 6 s h l, half the 12 s h l of the library's convention.
    assert (nemo_llama2_flops_per_token("Llama 2 7B", 8192) - nemo_llama2_flops_per_token("Llama 2 7B", 4096)
            == pytest.approx(6 * 4096 * 4096 * 32))


def test_bad_metric_is_refused():
    with pytest.raises(ValueError, match="metric"):
        PublishedRun(**{**BLOOM_176B.__dict__, "metric": "speed"})


def test_the_fidelity_tables_runs_keep_their_order_across_the_publishers():
    from interconnect_lab.published.training_runs import TRAINING_RUNS, bigscience, flash_attention, ibm, meta, mosaicml
    from interconnect_lab.published.training_runs import nvidia

    from interconnect_lab.published.training_runs import microsoft

    expected = (nvidia.KORTHIKANTI_RUNS + (bigscience.BLOOM_176B,) + meta.LLAMA3_405B_RUNS
                + mosaicml.LLM_FOUNDRY_BENCHMARKS + flash_attention.FLASH_ATTENTION_2_RUNS + nvidia.DGXC_RUNS
                + nvidia.DGXC_NEMOTRON_2025_H100 + nvidia.DGXC_LLAMA31_2025_H100 + nvidia.MEGATRON_BRIDGE_2511_H100
                + meta.TORCHTITAN_A100_RUNS + ibm.FMS_FSDP_A100_RUNS + meta.TORCHTITAN_H100_CONTEXT_PARALLEL_RUNS
                + nvidia.SC21_TABLE2_ZERO3_RUNS + nvidia.SC21_TABLE2_PTD_RUNS + (microsoft.MT_NLG_530B,))
    assert TRAINING_RUNS == expected
    assert len({run.label for run in TRAINING_RUNS}) == len(TRAINING_RUNS)


def test_torchtitans_context_parallel_rows_are_its_tables_as_printed():
    # torchtitan benchmarks/llama3_h100_202412_torchtitan.md @820504e, Tables 2 and 6: TPS per GPU by CP degree,
    # the sequence doubling with the degree; each replica's ranks share its sequences.
    from interconnect_lab.published.training_runs import TORCHTITAN_H100_CONTEXT_PARALLEL_RUNS as runs

    assert [round(run.value / run.gpus) for run in runs] == [3890, 2540, 1071, 548, 76, 47, 31, 16]
    assert [run.context_parallel for run in runs] == [1, 2, 4, 8] * 2
    assert all(run.sequence_length == 32768 * run.context_parallel and run.gpu == "H100 SXM 96GB" for run in runs)
    assert [run.data_parallel for run in runs] == [8, 4, 2, 1] * 2
    assert all(run.source.url.split("/blob/")[1].startswith("820504e") for run in runs)
def test_the_family_follows_the_stack_not_the_publisher():
    import dataclasses

    from interconnect_lab import training
    from interconnect_lab.published.training_runs import (
        DEVELOPMENT_STACKS, KORTHIKANTI_RUNS, MT_NLG_530B, SC21_TABLE2_PTD_RUNS, SC21_TABLE2_ZERO3_RUNS,
        TRAINING_RUNS, family,
    )

    assert set(DEVELOPMENT_STACKS) <= set(training.SOFTWARE)
    # NVIDIA's own DeepSpeed runs (SC21 Table 2's ZeRO-3 rows) are validation; its Megatron-LM rows development.
    assert {run.organisation for run in SC21_TABLE2_ZERO3_RUNS} == {"NVIDIA"}
    assert {family(run) for run in SC21_TABLE2_ZERO3_RUNS} == {"validation"}
    assert {family(run) for run in SC21_TABLE2_PTD_RUNS} == {"development"}
    assert family(MT_NLG_530B) == family(BLOOM_176B) == "validation"          # DeepSpeed's pipeline engine
    nvidia_on_deepspeed = dataclasses.replace(KORTHIKANTI_RUNS[0], software="DeepSpeed ZeRO-3")
    bigscience_on_megatron = dataclasses.replace(BLOOM_176B, software="Megatron-LM SC21")
    assert (family(nvidia_on_deepspeed), family(bigscience_on_megatron)) == ("validation", "development")
    # Every run's family is its stack's: no run of a development stack is validation, and back.
    assert all((family(run) == "development") == (run.software in DEVELOPMENT_STACKS) for run in TRAINING_RUNS)
    with pytest.raises(TypeError, match="PublishedRun"):
        family("BLOOM 176B")
