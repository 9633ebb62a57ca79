"""Published training runs, with every input their sources state, for the fidelity table.

Each :class:`PublishedRun` is one row of a published table (or one sentence of
a paper) that reports the throughput of a real training run, stored with the
model's shape, the hardware, the parallel split, the training stack and the
published figure, and with the source. Inputs the source does not state are
named in ``assumptions`` with the value used and why; nothing here is tuned.
:func:`interconnect_lab.training.fidelity_table` replays every run through
:func:`interconnect_lab.training.training_step` with the library's defaults.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..sources import FLASH_ATTENTION_2, LLAMA3, TORCHTITAN_H100_BENCHMARK, Source

__all__ = ["PublishedRun", "TRAINING_RUNS", "FLASH_ATTENTION_2_RUNS", "LLM_FOUNDRY_BENCHMARKS", "LLM_FOUNDRY_1B_A100_40GB", "LLM_FOUNDRY_1B_BY_LENGTH", "LLM_FOUNDRY_A100_80GB_ONE_NODE", "DGXC_RUNS", "METRICS"]

#: What a run's ``value`` measures: MFU (model FLOPs, no recomputation, over the
#: dense BF16 peak), model or executed TFLOP/s per GPU, or tokens per second of the
#: whole job (sequence length x global batch / step time).
METRICS = ("mfu", "model_flop_per_s_per_gpu", "hardware_flop_per_s_per_gpu", "tokens_per_s")


@dataclass(frozen=True, kw_only=True)
class PublishedRun:
    """One published training run: its inputs as the source states them, and its result.

    Attributes
    ----------
    label : str
        Short name for a table row.
    organisation : str
        Who ran and published it.
    layers, hidden_size, heads, kv_heads, ffn_hidden_size, vocabulary_size, sequence_length : int
        The transformer's shape.
    gated_mlp : bool
        SwiGLU-style MLP (three matrices) rather than two.
    dropout : bool or None
        The model applies dropout; None for its architecture's usual choice
        (GPT-style models do, Llama-style models do not).
    gpu : str
        Catalog GPU name.
    gpus, gpus_per_node : int
        GPUs in the run and in one NVLink domain.
    scale_up_link, scale_out_link : str
        Catalog links inside and between nodes.
    nics_per_node : int
        Compute-fabric ports per node.
    pod_gpus : int or None
        GPUs under one full-bisection pod of the fabric (None: non-blocking throughout).
    oversubscription : float
        Downlink over uplink capacity above the pods [-].
    tensor_parallel, pipeline_parallel, context_parallel, interleave : int
        Degrees t, p, c and model chunks per stage v (data parallelism is derived).
    microbatch_size, global_batch_size : int
        Sequences per microbatch and per iteration.
    recompute : str
        Activation recomputation, a name from ``interconnect_lab.training.RECOMPUTATION``.
    sequence_parallel : bool
        Megatron sequence parallelism.
    zero_stage : int
        0-3; 3 is FSDP FULL_SHARD / ZeRO-3.
    shard_group_size : int or None
        FSDP hybrid sharding: GPUs sharing one copy of the weights.
    uneven_pipeline : bool
        Stages may hold one layer fewer; the short ones are the first and the
        last, beside the embedding and the output layer.
    software : str
        Training stack, a name from :data:`interconnect_lab.training.SOFTWARE`.
    metric : str
        One of ``METRICS``: "mfu", "model_flop_per_s_per_gpu", "hardware_flop_per_s_per_gpu", "tokens_per_s".
    value : float
        The published figure (a fraction for MFU, FLOP/s or tokens/s otherwise).
    assumptions : tuple of str
        Inputs the source does not state, each with the value used and why.
    source : Source
        Where the row is printed.
    """

    label: str
    organisation: str
    layers: int
    hidden_size: int
    heads: int
    kv_heads: int
    ffn_hidden_size: int
    vocabulary_size: int
    sequence_length: int
    gated_mlp: bool
    dropout: bool | None = None
    gpu: str
    gpus: int
    gpus_per_node: int
    scale_up_link: str
    scale_out_link: str
    nics_per_node: int
    pod_gpus: int | None = None
    oversubscription: float = 1.0
    tensor_parallel: int = 1
    pipeline_parallel: int = 1
    context_parallel: int = 1
    interleave: int = 1
    microbatch_size: int
    global_batch_size: int
    recompute: str
    sequence_parallel: bool = False
    zero_stage: int = 0
    shard_group_size: int | None = None
    uneven_pipeline: bool = False
    software: str
    metric: str
    value: float
    assumptions: tuple[str, ...] = ()
    source: Source

    def __post_init__(self):
        if self.metric not in METRICS:
            raise ValueError(f"PublishedRun.metric {self.metric!r} is not one of {', '.join(METRICS)}")

    @property
    def data_parallel(self) -> int:
        """Data-parallel degree d = N / (t p c)."""
        return self.gpus // (self.tensor_parallel * self.pipeline_parallel * self.context_parallel)


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
#: (the 32-GPU row; chapter 8 and tests/test_fidelity.py).
LLM_FOUNDRY_1B_A100_40GB: tuple[PublishedRun, ...] = tuple(_llm_foundry(*row) for row in (
    ("1B", "A100 40GB", 8, 56.23, 8, 512, False, "PURE"),
    ("1B", "A100 40GB", 16, 55.69, 8, 128, False, "PURE"),
    ("1B", "A100 40GB", 32, 45.39, 10, 320, False, "PURE"),
    ("1B", "A100 40GB", 64, 55.44, 10, 640, False, "PURE"),
)) + tuple(run for run in LLM_FOUNDRY_BENCHMARKS if run.label == "MPT-1B, 128 x A100 40GB")


#: llm-foundry's MPT-30B on 32 A100 40GB, one microbatch of 4 sequences per step: in the same table
#: the nearest peer of its MPT-70B row on 64 of those GPUs (the fidelity table's worst), with about
#: the same work, the same share of its model and the same memory per GPU. Not in the fidelity
#: table (chapter 8 and tests/test_fidelity.py).
LLM_FOUNDRY_30B_32_A100_40GB: PublishedRun = _llm_foundry("30B", "A100 40GB", 32, 51.74, 4, 128, True, "PURE")


#: llm-foundry's A100 80GB table on one node of 8 GPUs, MPT-1B to MPT-30B at 1,024 to 4,096 tokens
#: (Composer's DEFAULT mixed precision, FULL_SHARD), with or without activation checkpointing as
#: each row ran, compared by throughput in tokens per second (the 2,048-token MPT-7B row is also in
#: the fidelity table, by its MFU). Not in the table: they show the model's errors splitting by the
#: checkpointing column (chapter 8 and tests/test_fidelity.py).
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
#: (chapter 8 and tests/test_fidelity.py).
LLM_FOUNDRY_1B_BY_LENGTH: tuple[PublishedRun, ...] = tuple(
    _llm_foundry("1B", gpu, 8, None, microbatch, batch, sequence_length == 65536, "DEFAULT",
                 sequence_length=sequence_length, tokens_per_s=tokens_per_s)
    for gpu, rows in (   # (tokens per sequence, microbatch, global batch, Throughput (T/s))
        ("A100 80GB", ((512, 56, 1792, 185186), (2048, 14, 448, 164109), (8192, 3, 96, 110516),
                       (32768, 1, 32, 50207), (65536, 1, 16, 24353))),
        ("H100 80GB", ((512, 56, 1792, 418201), (2048, 14, 112, 363645), (8192, 3, 96, 233256),
                       (32768, 1, 32, 96203), (65536, 1, 16, 44050))))
    for sequence_length, microbatch, batch, tokens_per_s in rows)

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
    "their H100s have 96 GB of HBM2e at 2.4 TB/s and a 500 W power limit, which the catalog lacks; the "
    "catalog's H100 SXM stands in, so compare the rows' ratios, not their figures",
    "400 Gb/s of RDMA network per GPU taken as one 400 Gb/s Ethernet port per GPU",
    "'selective' checkpointing taken as torchtitan's 'op' option, as its Llama 3 8B config sets it",
)
#: The benchmark's "Techniques" column, by the stack the library replays each row with.
_TORCHTITAN_H100_TECHNIQUES = {"torchtitan 2024": "FSDP", "torchtitan 2024, compiled": "FSDP + torch.compile",
                               "torchtitan 2024, compiled FP8": "FSDP + torch.compile + Float8"}


#: torchtitan's H100 benchmark of December 2024: Llama 3.1 8B with FSDP on 8 and on 128 H100, two
#: sequences per GPU, eager, with torch.compile, and with torch.compile and Float8 (GPUs, stack,
#: tokens per GPU per second, table). Not in the fidelity table, since the catalog lacks their
#: 500 W, HBM2e H100: they measure what compiling bought, which the model reads as the
#: element-wise ops of ``Software.eager_elementwise`` moving each element once, and what FP8 then
#: bought (chapter 8, tests/test_fidelity.py).
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

# IBM: fms-fsdp on 128 A100 ---------------------------------------------------------------

FMS_FSDP = Source(
    title="IBM, fms-fsdp: README, training throughput of Llama 2 7B to 70B on 128 A100", year=2024,
    url="https://github.com/foundation-model-stack/fms-fsdp/blob/0d319983c4b3b7f7b3b5e2c5e7f746746b6f73a9/README.md",
    note="per row: sharding strategy (HSDP shards within a node of 8 GPUs and replicates across, FSDP over all "
         "128), activation checkpointing of every block or none, batch size per GPU, tokens per GPU per second; "
         "shapes from fms_fsdp/utils/config_utils.py (get_model_config, vocabulary 32,000), 4,096 tokens per "
         "sequence and BF16 mixed precision (parameters and gradient reductions) from the training config")
PYTORCH_FSDP_BLOG = Source(
    title="Team PyTorch at IBM and Team PyTorch at Meta, Maximizing training throughput using PyTorch FSDP",
    year=2024, url="https://pytorch.org/blog/maximizing-training/",
    note="the same runs: 128 A100 80GB with 400 Gbps network connectivity and GPUDirect RDMA; SDPA's "
         "FlashAttention-2; FSDP from PyTorch nightlies after 2.2; torch.compile named as work still to do")

_FMS_MODELS = {   # name: (layers, hidden, heads, KV heads, FFN)
    "7b": (32, 4096, 32, 32, 11008), "13b": (40, 5120, 40, 40, 13824),
    "34b": (48, 8192, 64, 8, 22016), "70b": (80, 8192, 64, 8, 28672),
}
_FMS_ASSUMPTIONS = (
    "8 GPUs per node on NVLink 3 (an HGX A100 server)",
    "400 Gb/s per node (the blog's figure) taken as 4 x 100 Gb/s Ethernet ports; the repository's launch "
    "scripts set AWS EFA variables",
    "no torch.compile (the blog lists it as future work): the model's RMSNorm, rotary embedding and SwiGLU "
    "run op by op",
)


#: The two clusters of IBM's runs: GPU, GPUs, NVLink, 100 Gb/s Ethernet ports per node of 8.
_FMS_CLUSTERS = {"A100": ("A100 SXM", 128, "NVLink 3", 4), "H100": ("H100 SXM", 96, "NVLink 4", 8)}


def _fms_fsdp(model, cluster, sharding, recompute, batch, tokens_per_gpu, *, assumptions, source, label=""):
    """One of IBM's runs: ``sharding`` "HSDP" (shard within a node) or "FSDP" (over every GPU)."""
    layers, hidden, heads, kv, ffn = _FMS_MODELS[model]
    gpu, gpus, scale_up_link, nics_per_node = _FMS_CLUSTERS[cluster]
    return PublishedRun(
        label=f"Llama 2 {model[:-1]}B, {gpus} x {cluster}, fms-fsdp{label}", organisation="IBM",
        layers=layers, hidden_size=hidden, heads=heads, kv_heads=kv, ffn_hidden_size=ffn, vocabulary_size=32000,
        sequence_length=4096, gated_mlp=True, dropout=False, gpu=gpu, gpus=gpus, gpus_per_node=8,
        scale_up_link=scale_up_link, scale_out_link="Ethernet 100G", nics_per_node=nics_per_node,
        microbatch_size=batch, global_batch_size=gpus * batch, recompute=recompute, zero_stage=3,
        shard_group_size=8 if sharding == "HSDP" else None, software="PyTorch FSDP", metric="tokens_per_s",
        value=float(gpus * tokens_per_gpu), assumptions=assumptions, source=source)


#: fms-fsdp's table of Llama 2 runs on 128 A100 80GB over 400 Gb/s per node (model, sharding
#: strategy, activation checkpointing, batch per GPU, tokens per GPU per second).
FMS_FSDP_A100_RUNS: tuple[PublishedRun, ...] = tuple(
    _fms_fsdp(model, "A100", sharding, recompute, batch, tokens_per_gpu, assumptions=_FMS_ASSUMPTIONS,
              source=FMS_FSDP.at(f"table, row {model}"), label=f" {sharding}")
    for model, sharding, recompute, batch, tokens_per_gpu in (
        ("7b", "HSDP", "none", 2, 3760), ("13b", "HSDP", "none", 1, 1700),
        ("34b", "FSDP", "full", 8, 772), ("70b", "FSDP", "full", 6, 380),
    ))

_FMS_H100_ASSUMPTIONS = (
    "8 GPUs per node on NVLink 4 (an HGX H100 server)",
    "800 Gb/s per node (the blog's figure) taken as 8 x 100 Gb/s Ethernet ports",
    "sharding not stated for these rows: hybrid within a node for 7B and 13B, full for 34B and 70B, "
    "as fms-fsdp's docs/configurations.md advises",
    "'Selective' checkpointing (13B) checkpoints every n-th block, n not stated: every other block",
    _FMS_ASSUMPTIONS[2],
)

#: The blog's H100 side of the same table: Llama 2 on 96 H100 80GB over 800 Gb/s per node, two
#: sequences per GPU (model, activation checkpointing, tokens per GPU per second). Not in the
#: fidelity table, since the blog leaves each row's sharding and the 13B row's checkpointing
#: frequency unstated; they show the model overrating eager FSDP runs on H100, which their authors
#: saw communication show through and suspected HBM bandwidth for (chapter 8, tests/test_fidelity.py).
FMS_FSDP_H100_RUNS: tuple[PublishedRun, ...] = tuple(
    _fms_fsdp(model, "H100", "HSDP" if model in ("7b", "13b") else "FSDP", recompute, 2, tokens_per_gpu,
              assumptions=_FMS_H100_ASSUMPTIONS,
              source=PYTORCH_FSDP_BLOG.at(f"Table 1, {model.upper()} row, H100 80GB columns"))
    for model, recompute, tokens_per_gpu in (
        ("7b", "none", 7500), ("13b", "every other layer", 3800), ("34b", "full", 1550), ("70b", "full", 800),
    ))


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


# BigScience: BLOOM-176B ------------------------------------------------------------------

BLOOM_TRAINING = Source(
    title="BigScience, tr11-176B-ml: BLOOM-176B training (README and slurm script)", year=2022,
    url="https://github.com/bigscience-workshop/bigscience/blob/master/train/tr11-176B-ml/README.md",
    note="384 A100 80 GB, 8 per node, 4 Omni-Path links per node; TP 4, PP 12, DP 8, microbatch 2, batch 2,048, "
         "full activation checkpointing, BF16, Megatron-DeepSpeed with ZeRO-1-style optimizer; logged "
         "149.77 TFLOP/s per GPU (SC21 Eq. 3, recomputation included); pipeline partition "
         "'type:transformer|embedding': the tied embeddings count as layers, so pipeline ranks 0 and 11 "
         "hold 5 transformer blocks and an embedding, the others 6 blocks")

#: BLOOM-176B's logged throughput during training.
BLOOM_176B = PublishedRun(
    label="BLOOM 176B, 384 x A100", organisation="BigScience", layers=70, hidden_size=14336, heads=112,
    kv_heads=112, ffn_hidden_size=4 * 14336, vocabulary_size=250880, sequence_length=2048, gated_mlp=False,
    gpu="A100 SXM", gpus=384, gpus_per_node=8, scale_up_link="NVLink 3", scale_out_link="InfiniBand EDR",
    nics_per_node=4, tensor_parallel=4, pipeline_parallel=12, microbatch_size=2, global_batch_size=2048,
    recompute="full", zero_stage=1, uneven_pipeline=True, software="Megatron-LM SC21",
    metric="hardware_flop_per_s_per_gpu",
    value=149.77e12,
    assumptions=("Omni-Path link rate not stated: 100 Gb/s per link (the rate of Omni-Path's one generation), "
                 "modelled as the catalog's 100 Gb/s InfiniBand EDR port",),
    source=BLOOM_TRAINING.at("sections Hardware, Replica setup, Architecture; log line at iteration 85,376"))

# FlashAttention-2 (Dao, 2023): GPT models on one DGX A100, with either attention kernel --------

_FLASH_ATTENTION_2_TABLE1_NOTE = (
    "training speed of GPT-style models on 8 A100 80GB SXM: TFLOP/s per GPU as "
    "6 s N + 12 l h s^2 per sequence (attention not halved for the causal mask), no recomputation")

_FLASH_ATTENTION_2_ASSUMPTIONS = (
    "settings not stated in the paper: the flash-attention repository's training configs on 80 GB GPUs "
    "(pile/gpt3xl-flash, gpt3xl-flash-8k, gpt3-2.7B-flash-hdim128, gpt3-2.7B-flash-8k): microbatch 8 "
    "sequences for 1.3B at 2K and 4 otherwise, a batch of 1M tokens (512 or 128 sequences; the 2.7B 8K "
    "config's own is not stored, its README gives 1M tokens for both models)",
    "GPT-2 vocabulary 50,257 padded to a multiple of 8 (pad_vocab_size_multiple: 8); the 2.7B model with "
    "head dimension 128 at 2K (20 heads, as the repository's README sets it) and 32 heads at 8K",
    "one DGX A100 node: NVLink 3 inside it; the network does not matter on one node",
)


def _flash_attention_2(model, sequence_length, microbatch, batch, kernel, tflops):
    layers, hidden, heads = {"1.3B": (24, 2048, 16), "2.7B": (32, 2560, 20 if sequence_length == 2048 else 32)}[model]
    return PublishedRun(
        label=f"GPT3-{model} {sequence_length // 1024}K, 8 x A100, {kernel}", organisation="Princeton & Stanford",
        layers=layers, hidden_size=hidden, heads=heads, kv_heads=heads, ffn_hidden_size=4 * hidden,
        vocabulary_size=50264, sequence_length=sequence_length, gated_mlp=False, gpu="A100 SXM", gpus=8,
        gpus_per_node=8, scale_up_link="NVLink 3", scale_out_link="InfiniBand HDR", nics_per_node=8,
        microbatch_size=microbatch, global_batch_size=batch, recompute="none", zero_stage=1,
        software=f"flash-attention GPT, {kernel}", metric="model_flop_per_s_per_gpu", value=tflops * 1e12,
        assumptions=_FLASH_ATTENTION_2_ASSUMPTIONS,
        source=FLASH_ATTENTION_2.at(f"§4.2, Table 1, GPT3-{model} {sequence_length // 1024}k context, column "
                                    f"{'FlashAttention' if kernel == 'FlashAttention-1' else kernel}",
                                    note=_FLASH_ATTENTION_2_TABLE1_NOTE))


#: FlashAttention-2's Table 1: the same GPT training code with the first FlashAttention and with
#: FlashAttention-2, at 2K and 8K tokens. The baseline column without FlashAttention is left out:
#: its settings are not stated, and the repository's configs would not fit it in 80 GB.
FLASH_ATTENTION_2_RUNS: tuple[PublishedRun, ...] = tuple(
    _flash_attention_2(*row) for row in (
        ("1.3B", 2048, 8, 512, "FlashAttention-1", 189), ("1.3B", 2048, 8, 512, "FlashAttention-2", 196),
        ("1.3B", 8192, 4, 128, "FlashAttention-1", 170), ("1.3B", 8192, 4, 128, "FlashAttention-2", 220),
        ("2.7B", 2048, 4, 512, "FlashAttention-1", 189), ("2.7B", 2048, 4, 512, "FlashAttention-2", 205),
        ("2.7B", 8192, 4, 128, "FlashAttention-1", 175), ("2.7B", 8192, 4, 128, "FlashAttention-2", 225),
    ))

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
#: tests/test_fidelity.py).
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
#: from Blackwell (chapter 8 and tests/test_fidelity.py).
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
#: tests/test_fidelity.py).
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
#: attention in a step (chapter 8 and tests/test_fidelity.py).
NEMO_LONG_SEQUENCE_H100: tuple[PublishedRun, ...] = tuple(_nemo_long_sequence(*row) for row in (
    # (sequence length [K tokens], GPUs, batch, TP, PP, CP, TFLOPS per GPU)
    (4, 4, 1024, 1, 1, 1, 768), (8, 8, 512, 1, 2, 1, 730), (16, 16, 256, 2, 1, 1, 660),
    (32, 32, 128, 2, 1, 2, 610), (64, 64, 64, 4, 1, 2, 574), (128, 128, 32, 4, 1, 4, 555),
    (256, 256, 16, 4, 1, 8, 549), (512, 512, 8, 8, 1, 16, 549), (1024, 1024, 4, 8, 1, 32, 536),
))

#: Every run of the fidelity table beyond SC21 Table 1 and MegaScale Table 2.
TRAINING_RUNS: tuple[PublishedRun, ...] = (KORTHIKANTI_RUNS + (BLOOM_176B,) + LLAMA3_405B_RUNS
                                           + LLM_FOUNDRY_BENCHMARKS + FLASH_ATTENTION_2_RUNS + DGXC_RUNS
                                           + DGXC_NEMOTRON_2025_H100 + DGXC_LLAMA31_2025_H100
                                           + MEGATRON_BRIDGE_2511_H100 + TORCHTITAN_A100_RUNS + FMS_FSDP_A100_RUNS)
