"""Meta's runs: torchtitan's FSDP2 tables on A100 and H100, and Llama 3 405B (Table 4)."""

from __future__ import annotations

from ...sources import LLAMA3, TORCHTITAN_H100_BENCHMARK, Source
from .run import PublishedRun

__all__ = ["TORCHTITAN_PERFORMANCE", "TORCHTITAN_A100_RUNS", "TORCHTITAN_H100_COMPILE_RUNS",
           "TORCHTITAN_H100_CONTEXT_PARALLEL_RUNS", "LLAMA3_405B_RUNS"]


# Meta: torchtitan on 64 A100 -------------------------------------------------------------

TORCHTITAN_PERFORMANCE = Source(
    title="torchtitan: docs/performance.md, Llama 3 and Llama 2 performance numbers (FSDP2 on 64 A100 80GB)",
    year=2024,
    url="https://github.com/pytorch/torchtitan/blob/041336434916bdc0f88c1f89fda176fd3c2092e4/docs/performance.md",
    note="WPS (tokens per second per GPU) and MFU with FSDP2 on 64 A100 80GB; batch size per GPU (global = "
         "64 x local); activation checkpointing 'selective layer', 'selective op', 'full' or none; sequence "
         "length the models' defaults there, 8,192 for Llama 3 and 4,096 for Llama 2")

_TORCHTITAN_MODELS = {   # name: (layers, hidden, heads, KV heads, FFN, vocabulary, sequence)
    "Llama 3 8B": (32, 4096, 32, 8, 14336, 128256, 8192),
    "Llama 3 70B": (80, 8192, 64, 8, 28672, 128256, 8192),
    "Llama 2 13B": (40, 5120, 40, 40, 13824, 32000, 4096),
    "Llama 2 70B": (80, 8192, 64, 8, 28672, 32000, 4096),
    "Llama 3.1 8B": (32, 4096, 32, 8, 14336, 128256, 8192),
    "Llama 3.1 405B": (126, 16384, 128, 8, 53248, 128256, 8192),
}
#: The table's "Activation checkpoiting" column, as the library names the policy.
_TORCHTITAN_CHECKPOINTING = {"selective layer": "every other layer", "selective op": "every other matmul",
                             "full": "full", "no": "none"}
_TORCHTITAN_ASSUMPTIONS = (
    "8 GPUs per node on NVLink 3 (an HGX A100 server)",
    "network not stated: 8 x 200 Gb/s InfiniBand HDR per node, the DGX A100 reference design",
    "'selective layer' taken as torchtitan's default frequency, every second block (selective_ac_option 2)",
    "eager mode (no torch.compile), as the table's runs were",
)


#: The clusters of torchtitan's tables: GPU, NVLink, one network port per GPU.
_TORCHTITAN_CLUSTERS = {"A100": ("A100 SXM", "NVLink 3", "InfiniBand HDR"),
                        "H100": ("H100 SXM", "NVLink 4", "Ethernet 400G")}


def _torchtitan(model, cluster, gpus, local_batch, recompute, software, tokens_per_gpu, *, label, assumptions,
                source):
    """One row of torchtitan's tables: FSDP2 over ``gpus`` GPUs, ``local_batch`` sequences each."""
    layers, hidden, heads, kv, ffn, vocabulary, sequence = _TORCHTITAN_MODELS[model]
    gpu, scale_up_link, scale_out_link = _TORCHTITAN_CLUSTERS[cluster]
    return PublishedRun(
        label=label, organisation="Meta", layers=layers, hidden_size=hidden, heads=heads, kv_heads=kv,
        ffn_hidden_size=ffn, vocabulary_size=vocabulary, sequence_length=sequence, gated_mlp=True, dropout=False,
        gpu=gpu, gpus=gpus, gpus_per_node=8, scale_up_link=scale_up_link, scale_out_link=scale_out_link,
        nics_per_node=8, microbatch_size=local_batch, global_batch_size=gpus * local_batch, recompute=recompute,
        zero_stage=3, software=software, metric="tokens_per_s", value=float(gpus * tokens_per_gpu),
        assumptions=assumptions, source=source)


#: torchtitan's two tables of FSDP2 runs on 64 A100 80GB: every row (model, batch per GPU,
#: activation checkpointing, WPS per GPU).
TORCHTITAN_A100_RUNS: tuple[PublishedRun, ...] = tuple(
    _torchtitan(model, "A100", 64, batch, _TORCHTITAN_CHECKPOINTING[checkpointing], "torchtitan 2024", wps,
                label=f"{model}, 64 x A100, torchtitan, {checkpointing} checkpointing",
                assumptions=_TORCHTITAN_ASSUMPTIONS,
                source=TORCHTITAN_PERFORMANCE.at(f'table "{table}", {model} row, {checkpointing} checkpointing'))
    for table, rows in (
        ("Llama 3 performance numbers", (("Llama 3 8B", 1, "selective layer", 2904),
                                         ("Llama 3 8B", 1, "selective op", 2973),
                                         ("Llama 3 70B", 1, "full", 331))),
        ("Llama 2 performance numbers", (("Llama 2 13B", 2, "no", 2162),
                                         ("Llama 2 13B", 2, "selective layer", 1914),
                                         ("Llama 2 13B", 2, "selective op", 1904),
                                         ("Llama 2 70B", 1, "selective op", 355),
                                         ("Llama 2 70B", 2, "full", 353))))
    for model, batch, checkpointing, wps in rows)

_TORCHTITAN_H100_ASSUMPTIONS = (
    "their H100s have 96 GB of HBM2e at 2.4 TB/s and a 500 W power limit; the catalog's H100 SXM (80 GB "
    "HBM3 at 3.35 TB/s) stands in, as chapter 8 reads these rows, so compare the rows' ratios, not their figures",
    "400 Gb/s of RDMA network per GPU taken as one 400 Gb/s Ethernet port per GPU",
    "'selective' checkpointing taken as torchtitan's 'op' option, as its Llama 3 8B config sets it",
)
#: The benchmark's "Techniques" column, by the stack the library replays each row with.
_TORCHTITAN_H100_TECHNIQUES = {"torchtitan 2024": "FSDP", "torchtitan 2024, compiled": "FSDP + torch.compile",
                               "torchtitan 2024, compiled FP8": "FSDP + torch.compile + Float8"}


#: torchtitan's H100 benchmark of December 2024: Llama 3.1 8B with FSDP on 8 and on 128 H100, two
#: sequences per GPU, eager, with torch.compile, and with torch.compile and Float8 (GPUs, stack,
#: tokens per GPU per second, table). Not in the fidelity table: replayed on the catalog's H100 SXM,
#: they measure what compiling bought, which the model reads as the element-wise ops of
#: ``Kernels.elementwise`` "eager" moving each element once, and what FP8 then bought (chapter 8,
#: tests/training/test_fidelity.py). On the catalog's "H100 SXM 96GB", added later for the
#: context-parallel rows below, the model overrates them by 15% to 23% instead of 23% to 32%.
TORCHTITAN_H100_COMPILE_RUNS: tuple[PublishedRun, ...] = tuple(
    _torchtitan("Llama 3.1 8B", "H100", gpus, 2, "every other matmul", software, tps,
                label=f"Llama 3.1 8B, {gpus} x H100, {software}",
                assumptions=_TORCHTITAN_H100_ASSUMPTIONS
                + (("FSDP's all-gathers in FP8 not stated: BF16 gathers",) if software.endswith("FP8") else ()),
                source=TORCHTITAN_H100_BENCHMARK.at(f"Table {table}, row {_TORCHTITAN_H100_TECHNIQUES[software]}"))
    for gpus, software, tps, table in (
        (8, "torchtitan 2024", 5762, 1), (8, "torchtitan 2024, compiled", 6667, 1),
        (8, "torchtitan 2024, compiled FP8", 8532, 1),
        (128, "torchtitan 2024", 5605, 3), (128, "torchtitan 2024, compiled", 6514, 3),
        (128, "torchtitan 2024, compiled FP8", 8380, 3),
    ))


# Meta: torchtitan's long-sequence runs with context parallelism (H100, December 2024) -------------

_TORCHTITAN_BENCHMARK_820504E = TORCHTITAN_H100_BENCHMARK.__class__(
    title=TORCHTITAN_H100_BENCHMARK.title, year=2024,
    url="https://github.com/pytorch/torchtitan/blob/820504e20d1149fbf0b98c567af24c4b0433b22d/"
        "benchmarks/llama3_h100_202412_torchtitan.md",
    note=TORCHTITAN_H100_BENCHMARK.note)

_TORCHTITAN_CP_ASSUMPTIONS = (
    "their H100s (96 GB HBM2e at 2.4 TB/s, 500 W) as the catalog's 'H100 SXM 96GB', whose peak the benchmark "
    "does not know: the H100 SXM's is taken, so the lower power limit is not charged",
    "400 Gb/s of RDMA network per GPU taken as one 400 Gb/s Ethernet port per GPU",
    "context parallelism as torchtitan 9dec370 runs it by default: PyTorch's ring, rotate method 'allgather' "
    "(the benchmark does not name it)",
    "FSDP's all-gathers in BF16 (Float8 all-gather not stated)",
    "global batch: local batch x data-parallel degree (the context-parallel ranks of a replica share its sequences)",
)


def _torchtitan_cp(model, gpus, tensor, pipeline, context, sequence_length, local_batch, software, tps, table,
                   more=()):
    """One row of torchtitan's Tables 2 and 6: FSDP (+ TP + PP) + CP, full activation checkpointing."""
    layers, hidden, heads, kv, ffn, vocabulary, _ = _TORCHTITAN_MODELS[model]
    data = gpus // (tensor * pipeline * context)
    return PublishedRun(
        label=f"{model}, {gpus} x H100 96GB, {sequence_length // 1024}K, CP {context}", organisation="Meta",
        layers=layers, hidden_size=hidden, heads=heads, kv_heads=kv, ffn_hidden_size=ffn, vocabulary_size=vocabulary,
        sequence_length=sequence_length, gated_mlp=True, dropout=False, gpu="H100 SXM 96GB", gpus=gpus,
        gpus_per_node=8, scale_up_link="NVLink 4", scale_out_link="Ethernet 400G", nics_per_node=8,
        tensor_parallel=tensor, pipeline_parallel=pipeline, context_parallel=context, microbatch_size=1,
        global_batch_size=data * local_batch, recompute="full", sequence_parallel=tensor > 1,
        zero_stage=3 if pipeline == 1 else 2, uneven_pipeline=layers % pipeline > 0, software=software, metric="tokens_per_s", value=float(gpus * tps),
        assumptions=_TORCHTITAN_CP_ASSUMPTIONS + more,
        source=_TORCHTITAN_BENCHMARK_820504E.at(f"Table {table}, row 'FSDP {data}, CP {context}'"))


_TORCHTITAN_4D_ASSUMPTIONS = (
    "1F1B with as many microbatches as stages (torchtitan's default, pipeline_parallel_microbatches = "
    "pipeline_parallel_degree): 'local batch size 8' read as 8 microbatches of 1 sequence",
    "with pipeline parallelism torchtitan's FSDP keeps the weights gathered after the forward pass "
    "(reshard_after_forward False, parallelize_llama.py at 9dec370): ZeRO stage 2 here",
    "AsyncTP as Overlap.tensor_parallel 'pipelined'; pipeline sends blocking (not stated)",
    "126 layers on 8 stages: 16 on most, one fewer on the stages at the ends (the split is not stated)",
)

#: torchtitan's H100 benchmark, Tables 2 and 6: Llama 3.1 8B on 8 GPUs (FSDP + CP) and 405B on 512
#: (FSDP + TP 8 + PP 8 + CP), sequences of 32K to 256K tokens with CP 1 to 8. Validation rows of the
#: context-parallel mechanism (``Overlap.context_parallel``).
TORCHTITAN_H100_CONTEXT_PARALLEL_RUNS: tuple[PublishedRun, ...] = tuple(
    _torchtitan_cp("Llama 3.1 8B", 8, 1, 1, context, 32768 * context, 1, "torchtitan 2024, compiled FP8", tps, 2)
    for context, tps in ((1, 3890), (2, 2540), (4, 1071), (8, 548))
) + tuple(
    _torchtitan_cp("Llama 3.1 405B", 512, 8, 8, context, 32768 * context, 8,
                   "torchtitan 2024, compiled FP8, async TP", tps, 6, _TORCHTITAN_4D_ASSUMPTIONS)
    for context, tps in ((1, 76), (2, 47), (4, 31), (8, 16))
)


# Meta: Llama 3 405B ---------------------------------------------------------------------

_LLAMA3_TABLE4 = LLAMA3.at("Table 4; Table 3; §3.3.1-3.3.2",
                           note="BF16 MFU as PaLM defines it (6N + attention per token, no recomputation)")

_LLAMA3_ASSUMPTIONS = (
    "interleave depth V not stated: the deepest that leaves every model chunk at least two layers "
    "(126 layers, 16 stages: v = 4)",
    "microbatch not stated: 1 sequence",
    "pipeline sends asynchronous (stated); FSDP shards optimizer state and gradients, weights kept "
    "after the forward pass (stated): ZeRO stage 2",
)


def _llama3(gpus, context_parallel, sequence_length, batch, mfu):
    return PublishedRun(
        label=f"Llama 3 405B, {gpus:,} x H100, {sequence_length // 1024}K", organisation="Meta",
        layers=126, hidden_size=16384, heads=128, kv_heads=8, ffn_hidden_size=53248, vocabulary_size=128256,
        sequence_length=sequence_length, gated_mlp=True, gpu="H100 SXM", gpus=gpus, gpus_per_node=8,
        scale_up_link="NVLink 4", scale_out_link="Ethernet 400G", nics_per_node=8, pod_gpus=3072,
        oversubscription=7.0, tensor_parallel=8, pipeline_parallel=16, context_parallel=context_parallel, interleave=4,
        microbatch_size=1, global_batch_size=batch, recompute="none", sequence_parallel=True, zero_stage=2,
        uneven_pipeline=True, software="Llama 3", metric="mfu", value=mfu, assumptions=_LLAMA3_ASSUMPTIONS,
        source=_LLAMA3_TABLE4)


#: Llama 3 405B, Table 4: 8K sequences on 8,192 and 16,384 GPUs, 128K with context parallelism.
LLAMA3_405B_RUNS: tuple[PublishedRun, ...] = (
    _llama3(8192, 1, 8192, 2048, 0.43),
    _llama3(16384, 1, 8192, 2048, 0.41),
    _llama3(16384, 16, 131072, 128, 0.38),
)
