"""NVIDIA's runs: SC21 Table 2 (ZeRO-3 against PTD-P), Korthikanti et al. (sequence parallelism, selective
recomputation), the DGX Cloud benchmarking recipes, Megatron-Bridge's performance summary and NeMo's
long-sequence table."""

from __future__ import annotations

import dataclasses

from ...sources import SC21, Source
from .run import PublishedRun

__all__ = ["SC21_TABLE2", "SC21_TABLE2_ZERO3_RUNS", "SC21_TABLE2_PTD_RUNS", "KORTHIKANTI_2022", "KORTHIKANTI_RUNS", "DGXC_BENCHMARKING", "DGXC_RUNS", "DGXC_NEMOTRON_2025",
           "DGXC_NEMOTRON_2025_H100", "DGXC_NEMOTRON_2025_GB200", "DGXC_LLAMA31_2025",
           "DGXC_LLAMA31_2025_H100", "DGXC_LLAMA31_2025_GB200", "MEGATRON_BRIDGE_PERFORMANCE",
           "MEGATRON_BRIDGE_2511_H100", "MEGATRON_BRIDGE_2511_BLACKWELL", "NEMO_LONG_SEQUENCE",
           "NEMO_FLOPS_FORMULAS", "nemo_llama2_flops_per_token", "NEMO_LONG_SEQUENCE_H100"]


# NVIDIA, Stanford and Microsoft: SC21 Table 2, ZeRO-3 without model parallelism against PTD-P ---

SC21_TABLE2 = dataclasses.replace(SC21, url="https://arxiv.org/abs/2104.04473").at(
    "Table 2 and §5.4", note="GPT 174.6B (96 layers, h 12,288, 96 heads) and 529.6B (105 layers, h 20,480, 128 "
    "heads), V = 51,200, s = 2,048, A100 80 GB on Selene (DGX A100: 8 x 200 Gb/s HDR per node); ZeRO-3 "
    "(DeepSpeed) without model parallelism against PTD-P (model-parallel size 96 and 280); TFLOP/s per GPU by "
    "Eq. 3, which counts the recomputed forward pass")

_SC21_TABLE2_MODELS = {"174.6B": (96, 12288, 96), "529.6B": (105, 20480, 128)}   # layers, hidden, heads

_SC21_ZERO3_ASSUMPTIONS = (
    "activation recomputation not stated for the ZeRO-3 rows: full (Eq. 3, which the table's TFLOP/s use, "
    "counts the recomputed forward pass; without it the microbatches would not fit)",
    "DeepSpeed version and ZeRO-3 settings not stated: DeepSpeed's defaults of April 2021 (stack 'DeepSpeed "
    "ZeRO-3 2021'); model code not stated: unfused attention, Megatron-style fused element-wise kernels",
    "not modelled: the host-side cost of that ZeRO-3 (a torch.cuda.synchronize() before each parameter's "
    "gather, a blocking wait after each module's fetch, an all_gather into a list of partitions per "
    "parameter), for which there is no sourced cost; the published figures imply step times that stay at "
    "about 67 s from 768 to 1,536 GPUs (174.6B) and about 180 s from 1,120 to 2,240 (529.6B) while each "
    "GPU's work halves, a cost per step that does not shrink with the work, and far longer than the "
    "model's gathers and reduce-scatters through the collective model (8 to 26 s): these rows are too "
    "optimistic, the more so the more GPUs",
)


def _sc21_table2(model, gpus, microbatch, batch, tflops, ptd=False):
    layers, hidden, heads = _SC21_TABLE2_MODELS[model]
    t, p, v = ((8, 12, 1) if model == "174.6B" else (8, 35, 3)) if ptd else (1, 1, 1)
    assumptions = (("model-parallel size 96 (280) not split in the table: tensor 8 x pipeline 12 (8 x 35), as "
                    "SC21 splits its large models; interleaving depth not stated: 1 for 174.6B, 3 for 529.6B "
                    "(Table 1's for the same model); recomputation: full, as in Table 1",) if ptd
                   else _SC21_ZERO3_ASSUMPTIONS)
    return PublishedRun(
        label=f"GPT {model}, {gpus:,} x A100, {'PTD-P' if ptd else 'ZeRO-3'} (SC21 T2)",
        organisation="NVIDIA", layers=layers, hidden_size=hidden, heads=heads, kv_heads=heads,
        ffn_hidden_size=4 * hidden, vocabulary_size=51200, sequence_length=2048, gated_mlp=False,
        gpu="A100 SXM", gpus=gpus, gpus_per_node=8, scale_up_link="NVLink 3", scale_out_link="InfiniBand HDR",
        nics_per_node=8, tensor_parallel=t, pipeline_parallel=p, interleave=v, microbatch_size=microbatch,
        global_batch_size=batch, recompute="full", zero_stage=0 if ptd else 3,
        software="Megatron-LM SC21" if ptd else "DeepSpeed ZeRO-3 2021", metric="hardware_flop_per_s_per_gpu",
        value=tflops * 1e12, assumptions=assumptions, source=SC21_TABLE2)


#: SC21 Table 2, ZeRO-3 without model parallelism (DeepSpeed): GPUs, microbatch, batch, TFLOP/s per GPU.
SC21_TABLE2_ZERO3_RUNS: tuple[PublishedRun, ...] = tuple(
    _sc21_table2(model, gpus, microbatch, batch, tflops) for model, gpus, microbatch, batch, tflops in (
        ("174.6B", 384, 4, 1536, 144), ("174.6B", 768, 2, 1536, 88), ("174.6B", 1536, 1, 1536, 44),
        ("529.6B", 640, 4, 2560, 138), ("529.6B", 1120, 2, 2240, 98), ("529.6B", 2240, 1, 2240, 48),
    ))

#: SC21 Table 2, PTD-P (Megatron-LM) on the same models: microbatch 1.
SC21_TABLE2_PTD_RUNS: tuple[PublishedRun, ...] = tuple(
    _sc21_table2(model, gpus, 1, batch, tflops, ptd=True) for model, gpus, batch, tflops in (
        ("174.6B", 384, 1536, 153), ("174.6B", 768, 1536, 149), ("174.6B", 1536, 1536, 141),
        ("529.6B", 560, 2240, 171), ("529.6B", 1120, 2240, 167), ("529.6B", 2240, 2240, 159),
    ))


# NVIDIA: Korthikanti et al., sequence parallelism and selective recomputation ------------

KORTHIKANTI_2022 = Source(
    title="V. Korthikanti et al., Reducing Activation Recomputation in Large Transformer Models, MLSys 2023",
    year=2022, url="https://arxiv.org/abs/2205.05198",
    note="Selene (8 A100 80 GB per node, NVLink 3, 8 x 200 Gb/s HDR); s = 2,048, V = 51,200; "
         "no data parallelism except the 2,240-GPU run; interleaving depth 3 for 175B and 530B")

_KORTHIKANTI_MODELS = {   # name: (heads, hidden, layers, tensor, pipeline, interleave), Table 3
    "22B": (64, 6144, 48, 8, 1, 1), "175B": (96, 12288, 96, 8, 8, 3),
    "530B": (128, 20480, 105, 8, 35, 3), "1T": (160, 25600, 128, 8, 64, 1),
}


def _korthikanti(model, gpus, batch, microbatch, mfu, present_work, locator, assumptions=()):
    heads, hidden, layers, t, p, v = _KORTHIKANTI_MODELS[model]
    return PublishedRun(
        label=f"GPT {model}, {gpus:,} x A100, {'SP + selective' if present_work else 'full recompute'}",
        organisation="NVIDIA", layers=layers, hidden_size=hidden, heads=heads, kv_heads=heads,
        ffn_hidden_size=4 * hidden, vocabulary_size=51200, sequence_length=2048, gated_mlp=False,
        gpu="A100 SXM", gpus=gpus, gpus_per_node=8, scale_up_link="NVLink 3", scale_out_link="InfiniBand HDR",
        nics_per_node=8, tensor_parallel=t, pipeline_parallel=p, interleave=v, microbatch_size=microbatch,
        global_batch_size=batch, recompute="selective" if present_work else "full",
        sequence_parallel=present_work, software="Megatron-LM 2022", metric="mfu", value=mfu,
        assumptions=assumptions, source=KORTHIKANTI_2022.at(locator))


_FULL_RECOMPUTE = ("MFU of the full-recomputation baseline derived from Table 5: the present work's MFU "
                   "times its iteration time over the baseline's",)

#: Korthikanti et al. Table 5 (present work and full recomputation) and the 2,240-GPU run of §6
#: and the abstract, also both ways.
KORTHIKANTI_RUNS: tuple[PublishedRun, ...] = (
    _korthikanti("22B", 8, 4, 4, 0.415, True, "Tables 3 and 5"),
    _korthikanti("175B", 64, 64, 1, 0.514, True, "Tables 3 and 5"),
    _korthikanti("530B", 280, 280, 1, 0.560, True, "Tables 3 and 5"),
    _korthikanti("1T", 512, 512, 1, 0.563, True, "Tables 3 and 5",
                 ("interleaving depth of the 1T model not stated: 1 (the paper names depth 3 for 175B and 530B only)",)),
    _korthikanti("22B", 8, 4, 4, 0.415 * 1.10 / 1.42, False, "Tables 3 and 5", _FULL_RECOMPUTE),
    _korthikanti("175B", 64, 64, 1, 0.514 * 13.75 / 18.13, False, "Tables 3 and 5", _FULL_RECOMPUTE),
    _korthikanti("530B", 280, 280, 1, 0.560 * 37.83 / 49.05, False, "Tables 3 and 5", _FULL_RECOMPUTE),
    _korthikanti("530B", 2240, 2240, 1, 0.542, True, "§6 and abstract: 8-way data parallelism, no overlap of "
                 "gradient all-reduces with back-propagation"),
    _korthikanti("530B", 2240, 2240, 1, 0.421, False, "abstract: the same run with full activation "
                 "recomputation"),
)


# NVIDIA: DGX Cloud Benchmarking recipes (NeMo on DGX H100) ---------------------------------

DGXC_BENCHMARKING = Source(
    title="NVIDIA, DGX Cloud Benchmarking: performance recipes (dgxc-benchmarking)", year=2024,
    url="https://github.com/NVIDIA/dgxc-benchmarking/tree/143b90dd91f9be958fed4773ae95d941a3356a82",
    note="measured on DGX H100 (8 H100 SXM, 8 x 400 Gb/s InfiniBand per node) with the NeMo container the "
         "recipe names; each table states TP, PP, CP, VP, microbatch and batch; throughput = sequence length x "
         "global batch / step time of the last step")

_DGXC_ASSUMPTIONS = (
    "activation recomputation not stated: none (the recipes' tables state every parallel setting and no "
    "recomputation)",
    "sequence parallelism with tensor parallelism and the distributed optimizer (ZeRO-1) not stated: on, "
    "as NeMo's Megatron-Core recipes set them",
)

_DGXC_MODELS = {   # name: (layers, hidden, heads, KV heads, FFN, vocabulary, sequence, gated MLP, dropout)
    # Nemotron-4: "dropout rate of zero" (its report); the others keep their architecture's usual choice.
    "Nemotron-4 340B": (96, 18432, 96, 8, 73728, 256000, 4096, False, False),
    "Nemotron-4 15B": (32, 6144, 48, 8, 24576, 256000, 4096, False, False),
    "Llama 3.1 8B": (32, 4096, 32, 8, 14336, 128256, 8192, True, None),
    "Llama 3.1 70B": (80, 8192, 64, 8, 28672, 128256, 8192, True, None),
    "Llama 3.1 405B": (126, 16384, 128, 8, 53248, 128256, 8192, True, None),
    "GPT-3 175B": (96, 12288, 96, 96, 49152, 51200, 2048, False, None),
    "Llama 2 7B": (32, 4096, 32, 32, 11008, 32000, 4096, True, None),
}


#: How the recipes' systems are built: a DGX H100 node, or GB200 NVL72 racks with one 400 Gb/s
#: port per GPU. A job on NVL72 racks is taken as 64 GPUs per rack (``_GB200_ASSUMPTIONS``).
_DGXC_CLUSTERS = {
    "H100 SXM": dict(gpus_per_node=8, scale_up_link="NVLink 4", scale_out_link="InfiniBand NDR", nics_per_node=8),
    "B200": dict(gpus_per_node=8, scale_up_link="NVLink 5", scale_out_link="InfiniBand NDR", nics_per_node=8),
    "GB200": dict(gpus_per_node=64, scale_up_link="NVLink 5", scale_out_link="InfiniBand NDR", nics_per_node=64),
}
_DGXC_GPU_LABELS = {"H100 SXM": "H100", "B200": "B200", "GB200": "GB200"}
_GB200_ASSUMPTIONS = (
    "layout on the NVL72 racks not stated: 64 GPUs per rack (16 of its 18 compute trays), so each tensor- and "
    "pipeline-parallel group of 32 stays in one NVLink domain and only data parallelism crosses racks",
    "scale-out: one 400 Gb/s ConnectX-7 InfiniBand port per GPU, as the GB200 NVL72 compute tray has "
    "(catalog.system('GB200 NVL72'))",
)


def _dgxc(model, precision, gpus, batch, tokens_per_s, t, p, c, v, microbatch, path, gpu="H100 SXM",
          source=None, label_suffix="", zero_stage=1, assumptions=_DGXC_ASSUMPTIONS):
    layers, hidden, heads, kv, ffn, vocabulary, sequence, gated, dropout = _DGXC_MODELS[model]
    source = source or DGXC_BENCHMARKING.at(f"{path}, {precision.upper()} table, {gpus} GPUs")
    return PublishedRun(
        label=f"{model} {precision.upper()}, {gpus:,} x {_DGXC_GPU_LABELS[gpu]}{label_suffix}", organisation="NVIDIA",
        layers=layers, hidden_size=hidden, heads=heads, kv_heads=kv, ffn_hidden_size=ffn, vocabulary_size=vocabulary,
        sequence_length=sequence, gated_mlp=gated, dropout=dropout, gpu=gpu, gpus=gpus, **_DGXC_CLUSTERS[gpu],
        tensor_parallel=t, pipeline_parallel=p, context_parallel=c, interleave=v,
        microbatch_size=microbatch, global_batch_size=batch, recompute="none", sequence_parallel=t > 1,
        zero_stage=zero_stage, uneven_pipeline=layers % (p * v) != 0,
        software="Megatron-Core 2024" + (" FP8" if precision == "fp8" else ""),
        metric="tokens_per_s", value=tokens_per_s,
        assumptions=assumptions + (_GB200_ASSUMPTIONS if gpu == "GB200" else ()), source=source)


#: NVIDIA's DGX Cloud benchmarking recipes, the largest scale of each table, BF16 and FP8 (Transformer
#: Engine): NeMo 24.11 (Nemotron-4), 24.09 (Llama 3.1), and the GPT-3 175B recipe.
DGXC_RUNS: tuple[PublishedRun, ...] = tuple(
    _dgxc(*row) for row in (
        ("Nemotron-4 340B", "bf16", 2048, 512, 433296, 8, 8, 1, 12, 1, "nemotron/README_340b.md"),
        ("Nemotron-4 340B", "fp8", 2048, 512, 600903, 8, 8, 1, 12, 1, "nemotron/README_340b.md"),
        ("Nemotron-4 15B", "bf16", 2048, 8192, 11335957, 4, 1, 1, 1, 4, "nemotron/README_15b.md"),
        ("Nemotron-4 15B", "fp8", 2048, 8192, 15391941, 4, 1, 1, 1, 4, "nemotron/README_15b.md"),
        ("Llama 3.1 8B", "bf16", 128, 2048, 1280704, 1, 1, 2, 1, 1, "llama3.1/README_8b.md"),
        ("Llama 3.1 8B", "fp8", 128, 2048, 1708474, 1, 1, 2, 1, 1, "llama3.1/README_8b.md"),
        ("Llama 3.1 70B", "bf16", 2048, 4096, 2248957, 4, 4, 2, 5, 1, "llama3.1/README_70b.md"),
        ("Llama 3.1 70B", "fp8", 2048, 4096, 2945955, 4, 4, 2, 5, 1, "llama3.1/README_70b.md"),
        ("Llama 3.1 405B", "bf16", 2304, 1008, 468646, 8, 9, 2, 7, 1, "llama3.1/README_405b.md"),
        ("Llama 3.1 405B", "fp8", 2304, 1008, 668626, 8, 9, 2, 7, 1, "llama3.1/README_405b.md"),
        ("GPT-3 175B", "bf16", 2048, 4096, 988057, 4, 8, 1, 12, 1, "nemo_megatron/README_175b.md"),
        ("GPT-3 175B", "fp8", 2048, 4096, 1407485, 4, 8, 1, 12, 1, "nemo_megatron/README_175b.md"),
    ))

_UNEVEN_ASSUMPTION = ("126 layers over pipeline x interleave chunks that do not divide them: the embedding and the "
                      "loss count as layers in the split, so the first and last chunks hold one layer fewer")

DGXC_NEMOTRON_2025 = Source(
    title="NVIDIA, DGX Cloud Benchmarking: Nemotron4 pre-training recipe (nemotron/README.md)", year=2025,
    url="https://github.com/NVIDIA/dgxc-benchmarking/blob/1f6d9f40e4117d7c71b726f86074ac01c29f87f5/nemotron/README.md",
    note="'H100 Performance' and 'GB200 Performance' tables: seconds per step and tokens per second (4,096 x "
         "global batch / step time); settings from its specification tables: on H100, 15B with TP 2, microbatch 2, "
         "batch 64 on 16 GPUs and 340B with TP 8, PP 8, VP 12, microbatch 1, batch 64 on 256 GPUs; on GB200, 340B "
         "with TP 8, PP 4, VP 12, microbatch 1 and batch GPUs/4 (weak scaling) or 512 (strong scaling); the NeMo "
         "25.04.00 container its setup section imports")


def _dgxc_2025(source, name, model, precision, gpus, batch, step_s, t, p, c, v, microbatch, gpu="H100 SXM",
               label_suffix=""):
    """One column of a 2025 recipe's performance table (its ``name``): tokens per second from the step time."""
    sequence_length = _DGXC_MODELS[model][6]
    uneven = _DGXC_MODELS[model][0] % (p * v) != 0
    return _dgxc(model, precision, gpus, batch, sequence_length * batch / step_s, t, p, c, v, microbatch, "", gpu=gpu,
                 source=source.at(f'table "{name}", {gpus} GPUs, step time {step_s} s'), label_suffix=label_suffix,
                 assumptions=_DGXC_ASSUMPTIONS + ((_UNEVEN_ASSUMPTION,) if uneven else ()))


def _nemotron_2025(model, precision, gpus, batch, step_s, t, p, v, microbatch, gpu="H100 SXM", table=""):
    name = f"Nemotron4 {model.split()[-1].lower()} {precision.upper()} {_DGXC_GPU_LABELS[gpu]}{table}"
    return _dgxc_2025(DGXC_NEMOTRON_2025, name, model, precision, gpus, batch, step_s, t, p, 1, v, microbatch, gpu=gpu,
                      label_suffix=", batch 512" if table else "")


#: The Nemotron-4 recipe's DGX H100 rows (2025): 15B on 16 GPUs and 340B on 256, BF16 and FP8.
DGXC_NEMOTRON_2025_H100: tuple[PublishedRun, ...] = tuple(
    _nemotron_2025(*row) for row in (
        ("Nemotron-4 15B", "bf16", 16, 64, 2.746, 2, 1, 1, 2),
        ("Nemotron-4 15B", "fp8", 16, 64, 1.988, 2, 1, 1, 2),
        ("Nemotron-4 340B", "bf16", 256, 64, 4.606, 8, 8, 12, 1),
        ("Nemotron-4 340B", "fp8", 256, 64, 3.107, 8, 8, 12, 1),
    ))

#: The same recipe's GB200 rows: Nemotron-4 340B on 128, 256 and 512 GPUs of GB200 NVL72 racks, BF16
#: and FP8, with the batch growing with the GPUs (weak scaling) and held at 512 (strong scaling). Not
#: in the fidelity table: they show how far the model is from Blackwell (chapter 8 and
#: tests/training/test_fidelity.py).
DGXC_NEMOTRON_2025_GB200: tuple[PublishedRun, ...] = tuple(
    _nemotron_2025("Nemotron-4 340B", precision, gpus, batch, step_s, 8, 4, 12, 1, gpu="GB200", table=table)
    for precision, table, batches, steps in (
        ("bf16", "", (32, 64, 128), (2.189, 2.19, 2.229)),
        ("fp8", "", (32, 64, 128), (1.483, 1.517, 1.549)),
        ("bf16", " Strong Scaling", (512, 512, 512), (32.66, 16.58, 8.468)),
        ("fp8", " Strong Scaling", (512, 512, 512), (21.83, 11.21, 5.668)))
    for gpus, batch, step_s in zip((128, 256, 512), batches, steps))

DGXC_LLAMA31_2025 = Source(
    title="NVIDIA, DGX Cloud Benchmarking: Llama 3.1 405B pre-training recipe (llama3.1/README.md)", year=2025,
    url="https://github.com/NVIDIA/dgxc-benchmarking/blob/1f6d9f40e4117d7c71b726f86074ac01c29f87f5/llama3.1/README.md",
    note="'GB200 Performance' and 'H100 Performance' tables: seconds per step (mean of iterations 11-44) and tokens "
         "per second (8,192 x global batch / step time); settings from its specification tables: on GB200, TP 4, "
         "PP 8, CP 2, VP 8, microbatch 1 and batch GPUs/2 on 128, 256 and 512 GPUs; on H100, TP 8, PP 8, CP 2, VP 8, "
         "microbatch 1 and batch 256 on 512 GPUs; the NeMo 25.04.01 container its setup section imports")


def _llama31_2025(precision, gpus, batch, step_s, gpu):
    t = 4 if gpu == "GB200" else 8
    name = f"Llama3.1 405b {precision.upper()}"
    return _dgxc_2025(DGXC_LLAMA31_2025, name, "Llama 3.1 405B", precision, gpus, batch, step_s, t, 8, 2, 8, 1,
                      gpu=gpu, label_suffix=", 2025")


#: The Llama 3.1 405B recipe's DGX H100 rows (2025): 512 GPUs, BF16 and FP8. In the fidelity table.
DGXC_LLAMA31_2025_H100: tuple[PublishedRun, ...] = (
    _llama31_2025("bf16", 512, 256, 19.810, "H100 SXM"),
    _llama31_2025("fp8", 512, 256, 13.020, "H100 SXM"),
)

#: The same recipe's GB200 rows: 128, 256 and 512 GPUs of GB200 NVL72 racks (weak scaling), BF16 and
#: FP8. Not in the fidelity table: with ``DGXC_NEMOTRON_2025_GB200`` they show how far the model is
#: from Blackwell (chapter 8 and tests/training/test_fidelity.py).
DGXC_LLAMA31_2025_GB200: tuple[PublishedRun, ...] = tuple(
    _llama31_2025(precision, gpus, gpus // 2, step_s, "GB200")
    for precision, steps in (("bf16", (9.347, 9.484, 9.508)), ("fp8", (6.131, 6.183, 6.244)))
    for gpus, step_s in zip((128, 256, 512), steps))


# NVIDIA: Megatron-Bridge performance summary (NeMo 25.11) ---------------------------------

MEGATRON_BRIDGE_PERFORMANCE = Source(
    title="NVIDIA, Megatron-Bridge: performance summary archive (docs/performance-summary-archive.md)", year=2025,
    url="https://github.com/NVIDIA-NeMo/Megatron-Bridge/blob/4da7335ff4b7ea724ae1c26638684d49e0612fd9/docs/performance-summary-archive.md",
    note="'25.11 NeMo Container', pre-training tables by system (DGX-H100, DGX-B200, DGX-GB200): GBS, MBS, "
         "sequence length, FSDP, TP, PP, CP, VP and tokens per second per GPU; the dense Llama rows run FP8 with "
         "current scaling ('FP8-CS')")

_BRIDGE_ASSUMPTIONS = (
    "activation recomputation not stated: none (the tables state every parallel setting and no recomputation)",
    "sequence parallelism with tensor parallelism and the distributed optimizer (ZeRO-1) not stated: on, as "
    "Megatron-Bridge's recipes set them; FSDP (a sharding group of every GPU of the run) taken as ZeRO-3",
)
_DGX_B200_ASSUMPTION = ("a DGX B200 node: 8 B200 on NVLink 5 and 8 x 400 Gb/s InfiniBand NDR ports, the reference "
                        "design (the table names the system only)")

_BRIDGE_MODELS = {"LLAMA3_8B": "Llama 3.1 8B", "LLAMA3_70B": "Llama 3.1 70B", "LLAMA3.1_405B": "Llama 3.1 405B"}


def _bridge(system, model, gpus, batch, microbatch, fsdp, t, p, c, v, tokens_per_s_per_gpu):
    gpu = {"DGX-H100": "H100 SXM", "DGX-B200": "B200", "DGX-GB200": "GB200"}[system]
    layers = _DGXC_MODELS[_BRIDGE_MODELS[model]][0]
    assumptions = (_BRIDGE_ASSUMPTIONS + ((_UNEVEN_ASSUMPTION,) if layers % (p * v) else ())
                   + ((_DGX_B200_ASSUMPTION,) if gpu == "B200" else ()))
    return _dgxc(_BRIDGE_MODELS[model], "fp8", gpus, batch, tokens_per_s_per_gpu * gpus, t, p, c, v, microbatch, "",
                 gpu=gpu, zero_stage=3 if fsdp else 1, assumptions=assumptions, label_suffix=", NeMo 25.11",
                 source=MEGATRON_BRIDGE_PERFORMANCE.at(
                     f'"25.11 NeMo Container", table "System: {system}", row {model}, FP8-CS, {gpus} GPUs'))


#: (system, model, GPUs, GBS, MBS, FSDP, TP, PP, CP, VP, tokens/s/GPU): the dense Llama rows of the
#: 25.11 tables, FP8 with current scaling.
_BRIDGE_2511_ROWS = (
    ("DGX-H100", "LLAMA3_8B", 8, 128, 1, True, 1, 1, 1, 1, 14451),
    ("DGX-H100", "LLAMA3_70B", 64, 128, 1, False, 4, 8, 1, 5, 1602),
    ("DGX-H100", "LLAMA3.1_405B", 1024, 512, 1, False, 8, 8, 2, 8, 292),
    ("DGX-B200", "LLAMA3_8B", 8, 128, 2, False, 1, 1, 1, 1, 30624),
    ("DGX-B200", "LLAMA3.1_405B", 128, 64, 1, False, 4, 8, 2, 8, 661),
    ("DGX-GB200", "LLAMA3_8B", 8, 128, 2, False, 1, 1, 1, 1, 31508),
    ("DGX-GB200", "LLAMA3_70B", 64, 256, 2, True, 1, 1, 1, 1, 4312),
    ("DGX-GB200", "LLAMA3.1_405B", 256, 1536, 1, False, 4, 16, 1, 4, 813),
)

#: Megatron-Bridge's NeMo 25.11 Llama rows on DGX H100 (8B with FSDP on 8 GPUs, 70B on 64, 405B on
#: 1,024), FP8: in the fidelity table.
MEGATRON_BRIDGE_2511_H100: tuple[PublishedRun, ...] = tuple(
    _bridge(*row) for row in _BRIDGE_2511_ROWS if row[0] == "DGX-H100")

#: The same tables' Blackwell rows (DGX B200 and GB200 NVL72), FP8. Not in the fidelity table: with
#: ``DGXC_NEMOTRON_2025_GB200`` they show how far the model is from Blackwell (chapter 8 and
#: tests/training/test_fidelity.py).
MEGATRON_BRIDGE_2511_BLACKWELL: tuple[PublishedRun, ...] = tuple(
    _bridge(*row) for row in _BRIDGE_2511_ROWS if row[0] != "DGX-H100")


# NVIDIA: NeMo's long-sequence table (Llama 2 7B on DGX H100, context parallelism) -------------

NEMO_LONG_SEQUENCE = Source(
    title="NVIDIA, NeMo: Long Sequence Performance (docs/source/performance/performance_long_sequence.md)",
    year=2024,
    url="https://github.com/NVIDIA/NeMo/blob/9421f21af3bc554cd5656caac4dff863b20e8c65/docs/source/performance/performance_long_sequence.md",
    note="'LLAMA2-7B (FP8) - H100', NeMo 24.03.01 on DGX H100: sequence length, GPUs, batch, TP, PP, DP, CP and "
         "TFLOPS per GPU with context parallelism, from 4K tokens on 4 GPUs to 1M on 1,024")

NEMO_FLOPS_FORMULAS = Source(
    title="NVIDIA, NeMo: model FLOPs formulas (nemo/utils/flops_formulas.py)", year=2025,
    url="https://github.com/NVIDIA/NeMo/blob/6a5ad765bc7507c61f2b5fce41500673abdc964c/nemo/utils/flops_formulas.py",
    locator="llama2()",
    note="per token: layers h^2 (12 + 12 g/a + 18 f/h + (12 s/h) x 0.5 + 6 V/(layers h)); causal attention "
         "counted at half")


def nemo_llama2_flops_per_token(model, sequence_length):
    """Model FLOPs per token of ``model`` (a name in the recipes' model table) as NeMo counts them for the
    Llama 2 family (``NEMO_FLOPS_FORMULAS``): causal attention at half, unlike this library's 12 l h s [FLOP]."""
    layers, hidden, heads, query_groups, ffn, vocabulary = _DGXC_MODELS[model][:6]
    return layers * hidden**2 * (12 + 12 * query_groups / heads + 18 * ffn / hidden
                                 + 12 * sequence_length / hidden * 0.5 + 6 * vocabulary / (layers * hidden))


def _nemo_long_sequence(thousands, gpus, batch, t, p, c, tflops, model="Llama 2 7B"):
    layers, hidden, heads, kv, ffn, vocabulary, _, gated, dropout = _DGXC_MODELS[model]
    sequence_length = thousands * 1024
    return PublishedRun(
        label=f"{model} FP8, {thousands}K tokens, {gpus:,} x H100, CP {c}", organisation="NVIDIA",
        layers=layers, hidden_size=hidden, heads=heads, kv_heads=kv, ffn_hidden_size=ffn, vocabulary_size=vocabulary,
        sequence_length=sequence_length, gated_mlp=gated, dropout=dropout, gpu="H100 SXM", gpus=gpus,
        **_DGXC_CLUSTERS["H100 SXM"], tensor_parallel=t, pipeline_parallel=p, context_parallel=c,
        microbatch_size=1, global_batch_size=batch, recompute="none", sequence_parallel=t > 1, zero_stage=1,
        software="Megatron-Core 2024 FP8", metric="tokens_per_s",
        value=tflops * 1e12 * gpus / nemo_llama2_flops_per_token(model, sequence_length),
        assumptions=("TFLOPS per GPU counted with NeMo's own formula, causal attention at half "
                     "(NEMO_FLOPS_FORMULAS, 2025; the 2024 page does not say): tokens per second = TFLOPS x GPUs / "
                     "that formula's FLOPs per token",
                     "microbatch not stated: 1 sequence", "activation recomputation not stated: none",
                     "sequence parallelism with tensor parallelism and ZeRO-1 not stated: on, as NeMo's recipes set them"),
        source=NEMO_LONG_SEQUENCE.at(f'table "LLAMA2-7B (FP8) - H100", row {thousands}K, "With CP"'))


#: NeMo's Llama 2 7B on DGX H100 from 4K to 1M tokens per sequence, with context parallelism (FP8).
#: Not in the fidelity table: its TFLOPS need a FLOP convention the page does not state. Read with
#: NeMo's own (causal attention at half), they show the model's error moving with the share of
#: attention in a step (chapter 8 and tests/training/test_fidelity.py).
NEMO_LONG_SEQUENCE_H100: tuple[PublishedRun, ...] = tuple(_nemo_long_sequence(*row) for row in (
    # (sequence length [K tokens], GPUs, batch, TP, PP, CP, TFLOPS per GPU)
    (4, 4, 1024, 1, 1, 1, 768), (8, 8, 512, 1, 2, 1, 730), (16, 16, 256, 2, 1, 1, 660),
    (32, 32, 128, 2, 1, 2, 610), (64, 64, 64, 4, 1, 2, 574), (128, 128, 32, 4, 1, 4, 555),
    (256, 256, 16, 4, 1, 8, 549), (512, 512, 8, 8, 1, 16, 549), (1024, 1024, 4, 8, 1, 32, 536),
))
