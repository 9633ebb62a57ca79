"""MosaicML's llm-foundry benchmark tables (MPT models on A100 and H100)."""

from __future__ import annotations

from ...sources import Source
from .run import PublishedRun

__all__ = ["LLM_FOUNDRY", "LLM_FOUNDRY_BENCHMARKS", "LLM_FOUNDRY_1B_A100_40GB",
           "LLM_FOUNDRY_30B_32_A100_40GB", "LLM_FOUNDRY_A100_80GB_ONE_NODE", "LLM_FOUNDRY_1B_BY_LENGTH"]


# MosaicML llm-foundry ------------------------------------------------------------------

LLM_FOUNDRY = Source(
    title="MosaicML, llm-foundry: MPT training benchmarks (scripts/train/benchmarking/README.md)",
    year=2023,
    url="https://github.com/mosaicml/llm-foundry/blob/061f2c7ce64e655100286584a7629e2a09f827ba/scripts/train/benchmarking/README.md",
    note="MFU counts 6N per token plus 12 l h s for attention, no recomputation, over the dense BF16 peak; "
         "PyTorch FSDP FULL_SHARD, no tensor or pipeline parallelism; model shapes from scripts/train/yamls/pretrain/mpt-*.yaml, "
         "which leave MPTConfig's dropout probabilities at their default of 0 (llmfoundry/models/mpt/configuration_mpt.py)")

_MPT = {   # name: (layers, hidden, heads): d_model, n_heads, n_layers of the MPT yamls; FFN 4h, vocabulary 50,368
    "125M": (12, 768, 12), "1B": (24, 2048, 16), "3B": (32, 2560, 20), "7B": (32, 4096, 32),
    "13B": (40, 5120, 40), "30B": (48, 7168, 56), "70B": (80, 8192, 64),
}

_LLM_FOUNDRY_CLUSTERS = {
    "H100 80GB": dict(gpu="H100 SXM", scale_up_link="NVLink 4", scale_out_link="InfiniBand NDR", nics_per_node=8),
    "A100 80GB": dict(gpu="A100 SXM", scale_up_link="NVLink 3", scale_out_link="Ethernet 200G", nics_per_node=8),
    "A100 40GB": dict(gpu="A100 SXM 40GB", scale_up_link="NVLink 3", scale_out_link="Ethernet 200G", nics_per_node=8),
}

_LLM_FOUNDRY_ASSUMPTIONS = {
    "H100 80GB": ("8 GPUs per node on NVLink 4 (an HGX H100 server)",
                  "network not stated: 8 x 400 Gb/s InfiniBand NDR per node, the HGX H100 reference design"),
    "A100 80GB": ("8 GPUs per node on NVLink 3 (an HGX A100 server)",
                  "the README's 1,600 Gb/s RoCE per node taken as 8 x 200 Gb/s ports"),
    "A100 40GB": ("8 GPUs per node on NVLink 3 (an HGX A100 server)",
                  "the README's 1,600 Gb/s RoCE per node taken as 8 x 200 Gb/s ports"),
}


#: The table's "MP Mode" column: Composer's FSDP mixed precision, and the stack it names.
_LLM_FOUNDRY_STACKS = {"DEFAULT": "llm-foundry 2023, DEFAULT", "PURE": "llm-foundry 2023, PURE"}


def _llm_foundry(model, gpu, gpus, mfu_percent, microbatch, batch, checkpointing, mixed_precision,
                 sequence_length=2048, tokens_per_s=None):
    """One row of llm-foundry's tables: its MFU column, or with ``tokens_per_s`` its Throughput (T/s)
    column instead (``mfu_percent`` then unused; at long sequences the MFU column counts the learned
    position embedding as parameters)."""
    layers, hidden, heads = _MPT[model]
    length = "" if sequence_length == 2048 else f", {sequence_length:,} tokens"
    return PublishedRun(
        label=f"MPT-{model}, {gpus} x {gpu}{length}", organisation="MosaicML",
        layers=layers, hidden_size=hidden, heads=heads, kv_heads=heads, ffn_hidden_size=4 * hidden,
        vocabulary_size=50368, sequence_length=sequence_length, gated_mlp=False, dropout=False, gpus=gpus,
        gpus_per_node=8, **_LLM_FOUNDRY_CLUSTERS[gpu], microbatch_size=microbatch, global_batch_size=batch,
        recompute="full" if checkpointing else "none", zero_stage=3,
        software=_LLM_FOUNDRY_STACKS[mixed_precision],
        metric="mfu" if tokens_per_s is None else "tokens_per_s",
        value=mfu_percent / 100 if tokens_per_s is None else float(tokens_per_s),
        assumptions=_LLM_FOUNDRY_ASSUMPTIONS[gpu],
        source=LLM_FOUNDRY.at(f'table "{gpu}", row {model}, {sequence_length} tokens, on {gpus} GPUs'))


#: llm-foundry's benchmark rows (model, GPU, GPUs, MFU %, microbatch, global batch, checkpointing,
#: mixed precision).
LLM_FOUNDRY_BENCHMARKS: tuple[PublishedRun, ...] = tuple(_llm_foundry(*row) for row in (
    ("70B", "H100 80GB", 64, 42.57, 8, 2048, True, "DEFAULT"),
    ("70B", "H100 80GB", 32, 36.15, 2, 1024, True, "DEFAULT"),
    ("30B", "H100 80GB", 32, 43.92, 14, 1344, True, "DEFAULT"),
    ("13B", "H100 80GB", 64, 39.86, 2, 128, False, "DEFAULT"),
    ("3B", "H100 80GB", 64, 40.80, 6, 1152, False, "DEFAULT"),
    ("1B", "H100 80GB", 64, 40.85, 20, 1280, False, "DEFAULT"),
    ("7B", "H100 80GB", 8, 46.44, 6, 48, False, "DEFAULT"),
    ("70B", "A100 80GB", 64, 53.33, 8, 2048, True, "PURE"),
    ("70B", "A100 80GB", 32, 48.56, 2, 1024, True, "PURE"),
    ("7B", "A100 80GB", 8, 64.23, 6, 96, False, "DEFAULT"),
    ("70B", "A100 40GB", 128, 48.91, 4, 512, True, "PURE"),
    ("70B", "A100 40GB", 64, 35.87, 2, 128, True, "PURE"),
    ("30B", "A100 40GB", 128, 52.25, 6, 768, True, "PURE"),
    ("13B", "A100 40GB", 128, 51.93, 16, 2048, True, "PURE"),
    ("7B", "A100 40GB", 128, 50.14, 18, 2304, True, "PURE"),
    ("1B", "A100 40GB", 128, 54.41, 10, 1280, False, "PURE"),
    ("125M", "A100 40GB", 128, 38.86, 26, 3328, False, "PURE"),
))

#: llm-foundry's MPT-1B on 8 to 128 A100 40GB, 2,048 tokens, the same code and settings on every
#: GPU count (the 128-GPU row is the benchmark above). Not in the fidelity table: they show how far
#: one row of a benchmark table falls from its neighbours with nothing in its columns to say why
#: (the 32-GPU row; chapter 8 and tests/training/test_fidelity.py).
LLM_FOUNDRY_1B_A100_40GB: tuple[PublishedRun, ...] = tuple(_llm_foundry(*row) for row in (
    ("1B", "A100 40GB", 8, 56.23, 8, 512, False, "PURE"),
    ("1B", "A100 40GB", 16, 55.69, 8, 128, False, "PURE"),
    ("1B", "A100 40GB", 32, 45.39, 10, 320, False, "PURE"),
    ("1B", "A100 40GB", 64, 55.44, 10, 640, False, "PURE"),
)) + tuple(run for run in LLM_FOUNDRY_BENCHMARKS if run.label == "MPT-1B, 128 x A100 40GB")


#: llm-foundry's MPT-30B on 32 A100 40GB, one microbatch of 4 sequences per step: in the same table
#: the nearest peer of its MPT-70B row on 64 of those GPUs (the fidelity table's worst), with about
#: the same work, the same share of its model and the same memory per GPU. Not in the fidelity
#: table (chapter 8 and tests/training/test_fidelity.py).
LLM_FOUNDRY_30B_32_A100_40GB: PublishedRun = _llm_foundry("30B", "A100 40GB", 32, 51.74, 4, 128, True, "PURE")


#: llm-foundry's A100 80GB table on one node of 8 GPUs, MPT-1B to MPT-30B at 1,024 to 4,096 tokens
#: (Composer's DEFAULT mixed precision, FULL_SHARD), with or without activation checkpointing as
#: each row ran, compared by throughput in tokens per second (the 2,048-token MPT-7B row is also in
#: the fidelity table, by its MFU). Not in the table: they show the model's errors splitting by the
#: checkpointing column (chapter 8 and tests/training/test_fidelity.py).
LLM_FOUNDRY_A100_80GB_ONE_NODE: tuple[PublishedRun, ...] = tuple(
    _llm_foundry(model, "A100 80GB", 8, None, microbatch, batch, checkpointing, "DEFAULT",
                 sequence_length=length, tokens_per_s=tokens_per_s)
    for model, length, microbatch, batch, checkpointing, tokens_per_s in (
        # (model, tokens per sequence, microbatch, global batch, activation checkpointing, Throughput (T/s))
        ("30B", 4096, 1, 168, True, 6513), ("30B", 2048, 3, 504, True, 7330), ("30B", 1024, 6, 1008, True, 7571),
        ("13B", 4096, 10, 240, True, 16482), ("13B", 2048, 2, 48, False, 18097),
        ("13B", 1024, 40, 960, True, 18647),
        ("7B", 4096, 16, 256, True, 29472), ("7B", 2048, 6, 96, False, 37130), ("7B", 1024, 64, 1024, True, 34857),
        ("3B", 4096, 5, 240, False, 75658), ("3B", 2048, 10, 160, False, 86491), ("3B", 1024, 20, 960, False, 92643),
        ("1B", 4096, 7, 224, False, 142457), ("1B", 2048, 14, 448, False, 164109),
        ("1B", 1024, 18, 576, False, 176898),
    ))


#: llm-foundry's MPT-1B on one node of 8 GPUs from 512 to 65,536 tokens, on A100 80GB and on H100
#: 80GB (Composer's DEFAULT mixed precision, the Triton FlashAttention; checkpointing only at 65K),
#: compared by throughput in tokens per second. Not in the fidelity table: they show how the
#: model's error moves with the sequence length, where attention takes a growing share of the step
#: (chapter 8 and tests/training/test_fidelity.py).
LLM_FOUNDRY_1B_BY_LENGTH: tuple[PublishedRun, ...] = tuple(
    _llm_foundry("1B", gpu, 8, None, microbatch, batch, sequence_length == 65536, "DEFAULT",
                 sequence_length=sequence_length, tokens_per_s=tokens_per_s)
    for gpu, rows in (   # (tokens per sequence, microbatch, global batch, Throughput (T/s))
        ("A100 80GB", ((512, 56, 1792, 185186), (2048, 14, 448, 164109), (8192, 3, 96, 110516),
                       (32768, 1, 32, 50207), (65536, 1, 16, 24353))),
        ("H100 80GB", ((512, 56, 1792, 418201), (2048, 14, 112, 363645), (8192, 3, 96, 233256),
                       (32768, 1, 32, 96203), (65536, 1, 16, 44050))))
    for sequence_length, microbatch, batch, tokens_per_s in rows)
