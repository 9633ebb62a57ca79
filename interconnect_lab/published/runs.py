"""Published training runs: Megatron-LM's and MegaScale's tables, SC21's worked examples, ZeRO++'s volumes."""

from __future__ import annotations

from dataclasses import dataclass

from ..sources import MEGASCALE, SC21, Source

__all__ = ["AblationStep", "MEGASCALE_ABLATION_SOURCE", "MEGASCALE_ABLATION", "MegatronRun",
           "SC21_TABLE1_SOURCE", "SC21_TABLE1", "MegaScaleRun", "MEGASCALE_TABLE2_SOURCE", "MEGASCALE_TABLE2",
           "SC21_TABLE1_VOCABULARY", "SC21_TABLE1_SEQUENCE_LENGTH", "TrainingTimeExample",
           "SC21_TRAINING_TIME_SOURCE", "SC21_TRAINING_TIME_EXAMPLES", "ZERO_PLUS_PLUS_SOURCE",
           "ZERO_PLUS_PLUS_VOLUME", "ZERO_PLUS_PLUS_THROUGHPUT"]


@dataclass(frozen=True, kw_only=True)
class AblationStep:
    """One row of an ablation study: an optimization and the MFU after adding it.

    Attributes
    ----------
    label : str
        The optimization as the paper names it.
    mfu : float
        MFU after adding this optimization to all the rows above it [-].
    category : str
        What kind of change it is: ``"baseline"``, ``"communication"`` (overlapping
        or shortening data movement), ``"computation"`` (faster kernels),
        ``"algorithm"`` (a change to the model or optimizer) or ``"other"``.
    """

    label: str
    mfu: float
    category: str


MEGASCALE_ABLATION_SOURCE: Source = MEGASCALE.at(
    "Table 3", note="175B model on 256 GPUs; the LAMB row triples the batch from 256 to 768"
)

#: MegaScale Table 3: the 175B model on 256 GPUs, optimizations added one by one.
MEGASCALE_ABLATION: tuple[AblationStep, ...] = (
    AblationStep(label="Megatron-LM baseline", mfu=0.477, category="baseline"),
    AblationStep(label="parallel transformer block", mfu=0.523, category="algorithm"),
    AblationStep(label="sliding-window attention", mfu=0.533, category="algorithm"),
    AblationStep(label="tensor-parallel overlap", mfu=0.555, category="communication"),
    AblationStep(label="pipeline-parallel overlap", mfu=0.580, category="communication"),
    AblationStep(label="data-parallel overlap", mfu=0.595, category="communication"),
    AblationStep(label="efficient operators", mfu=0.612, category="computation"),
    AblationStep(label="miscellaneous", mfu=0.623, category="other"),
    AblationStep(label="LAMB optimizer (batch x3)", mfu=0.653, category="algorithm"),
)


@dataclass(frozen=True, kw_only=True)
class MegatronRun:
    """One row of Megatron-LM's weak-scaling table (SC21 Table 1).

    Selene: 8 A100 80 GB per node on NVLink/NVSwitch, 8 x 200 Gb/s HDR InfiniBand
    per node, three-level fat tree; vocabulary 51,200, sequence 2,048, full
    activation recomputation, interleaved schedule.

    Attributes
    ----------
    parameters : float
        Model parameters [-].
    heads, hidden_size, layers : int
        Attention heads, hidden size h and transformer layers l.
    tensor_parallel, pipeline_parallel, gpus : int
        Tensor- and pipeline-parallel degrees and GPU count; data-parallel degree
        is ``gpus / (tensor_parallel * pipeline_parallel)``.
    batch_size, microbatch_size : int
        Global batch and microbatch [sequences]. Microbatch sizes are from the
        authors' script ``examples/sc21/run_table_1.sh``.
    interleave : int or None
        Model chunks per pipeline stage (v) from the same script; None where the
        paper does not state it.
    flop_per_s_per_gpu : float
        Achieved FLOP/s per GPU, counting recomputation (HFU-style) [FLOP/s].
    fraction_of_peak : float
        ``flop_per_s_per_gpu`` over the 312 TFLOP/s A100 peak, as printed [-].
    ddp : {"torch", "local"}
        Data-parallel implementation from the same script: PyTorch's
        DistributedDataParallel, which all-reduces gradients during the backward
        pass, or Megatron-LM's own, which all-reduces them after it.
    """

    parameters: float
    heads: int
    hidden_size: int
    layers: int
    tensor_parallel: int
    pipeline_parallel: int
    gpus: int
    batch_size: int
    microbatch_size: int
    interleave: int | None
    flop_per_s_per_gpu: float
    fraction_of_peak: float
    ddp: str

    @property
    def software(self) -> str:
        """The training stack that replays this row, a name in ``interconnect_lab.training.SOFTWARE``."""
        return "Megatron-LM SC21, torch DDP" if self.ddp == "torch" else "Megatron-LM SC21"


SC21_TABLE1_SOURCE: Source = SC21.at(
    "Table 1", note="microbatch, interleave and data-parallel implementation from NVIDIA/Megatron-LM "
                    "examples/sc21/run_table_1.sh")

#: Megatron-LM weak scaling, SC21 Table 1 (vocabulary 51,200, sequence 2,048).
SC21_TABLE1: tuple[MegatronRun, ...] = tuple(
    MegatronRun(parameters=p * 1e9, heads=a, hidden_size=h, layers=l, tensor_parallel=t,
                pipeline_parallel=pp, gpus=n, batch_size=b, microbatch_size=mb, interleave=v,
                flop_per_s_per_gpu=x * 1e12, fraction_of_peak=f / 100, ddp=ddp)
    for p, a, h, l, t, pp, n, b, mb, v, x, f, ddp in (
        (1.7, 24, 2304, 24, 1, 1, 32, 512, 16, None, 137, 44, "torch"),
        (3.6, 32, 3072, 30, 2, 1, 64, 512, 16, None, 138, 44, "torch"),
        (7.5, 32, 4096, 36, 4, 1, 128, 512, 16, None, 142, 46, "torch"),
        (18.4, 48, 6144, 40, 8, 1, 256, 1024, 8, None, 135, 43, "torch"),
        (39.1, 64, 8192, 48, 8, 2, 512, 1536, 4, None, 138, 44, "local"),
        (76.1, 80, 10240, 60, 8, 4, 1024, 1792, 2, 3, 140, 45, "local"),
        (145.6, 96, 12288, 80, 8, 8, 1536, 2304, 2, 2, 148, 47, "local"),
        (310.1, 128, 16384, 96, 8, 16, 1920, 2160, 1, 2, 155, 50, "local"),
        (529.6, 128, 20480, 105, 8, 35, 2520, 2520, 1, 3, 163, 52, "local"),
        (1008.0, 160, 25600, 128, 8, 64, 3072, 3072, 1, None, 163, 52, "local"),
    )
)


@dataclass(frozen=True, kw_only=True)
class MegaScaleRun:
    """One row of MegaScale's strong-scaling table (NSDI'24 Table 2).

    The 175B model (96 layers, h = 12,288, 128 heads, sequence 2,048, vocabulary
    64,000) with TP 8, PP 8 and interleave depth 6 on A100-class GPUs (312 TFLOP/s).

    Attributes
    ----------
    batch_size : int
        Global batch [sequences].
    system : str
        ``"Megatron-LM"`` or ``"MegaScale"``.
    gpus : int
        GPU count.
    iteration_s : float
        Time per iteration [s].
    tokens_per_s : float
        Training throughput [token/s].
    mfu : float
        Model FLOPs utilization as printed [-].
    speedup : float or None
        MegaScale over Megatron-LM at the same size, as printed; None for Megatron-LM rows.
    """

    batch_size: int
    system: str
    gpus: int
    iteration_s: float
    tokens_per_s: float
    mfu: float
    speedup: float | None


MEGASCALE_TABLE2_SOURCE: Source = MEGASCALE.at(
    "Table 2", note="the aggregate PFLOP/s column is inconsistent in four cells and is not stored")

#: MegaScale Table 2: 175B model, Megatron-LM against MegaScale at equal batch.
MEGASCALE_TABLE2: tuple[MegaScaleRun, ...] = tuple(
    MegaScaleRun(batch_size=b, system=system, gpus=n, iteration_s=t, tokens_per_s=k * 1e3,
                 mfu=m / 100, speedup=x)
    for b, system, n, t, k, m, x in (
        (768, "Megatron-LM", 256, 40.0, 39.3, 53.0, None),
        (768, "Megatron-LM", 512, 21.2, 74.1, 49.9, None),
        (768, "Megatron-LM", 768, 15.2, 103.8, 46.7, None),
        (768, "Megatron-LM", 1024, 11.9, 132.7, 44.7, None),
        (768, "MegaScale", 256, 32.0, 49.0, 65.3, 1.23),
        (768, "MegaScale", 512, 16.5, 95.1, 63.5, 1.27),
        (768, "MegaScale", 768, 11.5, 136.7, 61.3, 1.31),
        (768, "MegaScale", 1024, 8.9, 176.9, 59.0, 1.32),
        (6144, "Megatron-LM", 3072, 29.02, 433.6, 48.7, None),
        (6144, "Megatron-LM", 6144, 14.78, 851.6, 47.8, None),
        (6144, "Megatron-LM", 8192, 12.24, 1027.9, 43.3, None),
        (6144, "Megatron-LM", 12288, 8.57, 1466.8, 41.2, None),
        (6144, "MegaScale", 3072, 23.66, 531.9, 59.1, 1.21),
        (6144, "MegaScale", 6144, 12.21, 1030.9, 57.3, 1.19),
        (6144, "MegaScale", 8192, 9.56, 1315.6, 54.9, 1.26),
        (6144, "MegaScale", 12288, 6.34, 1984.0, 55.2, 1.34),
    )
)


# Settings shared by every row of a table, and worked examples -----------------------

#: Vocabulary and sequence length of every SC21 Table 1 model (§5.1).
SC21_TABLE1_VOCABULARY = 51200
SC21_TABLE1_SEQUENCE_LENGTH = 2048


@dataclass(frozen=True, kw_only=True)
class TrainingTimeExample:
    """A worked example of SC21 Eq. (4), end-to-end training time ≈ 8TP/(nX).

    Attributes
    ----------
    parameters : float
        Model parameters P [-].
    tokens : float
        Training tokens T [token].
    gpus : int
        GPUs n.
    flop_per_s_per_gpu : float
        Achieved FLOP/s per GPU X [FLOP/s].
    days : float
        Training time as printed [day].
    """

    parameters: float
    tokens: float
    gpus: int
    flop_per_s_per_gpu: float
    days: float


SC21_TRAINING_TIME_SOURCE: Source = SC21.at("§5.1, Eq. (4)")

#: SC21's two examples of Eq. (4): GPT-3 175B (about 34 days) and the 1T model (about 84 days).
SC21_TRAINING_TIME_EXAMPLES: tuple[TrainingTimeExample, ...] = (
    TrainingTimeExample(parameters=175e9, tokens=300e9, gpus=1024, flop_per_s_per_gpu=140e12, days=34),
    TrainingTimeExample(parameters=1e12, tokens=450e9, gpus=3072, flop_per_s_per_gpu=163e12, days=84),
)

ZERO_PLUS_PLUS_SOURCE: Source = Source(
    title=("G. Wang et al., ZeRO++: Extremely Efficient Collective Communication for Giant "
           "Model Training, ICLR 2024"),
    year=2023, url="https://arxiv.org/abs/2306.10209", locator="§3-4",
)

#: ZeRO-3 and ZeRO++ communication volume per iteration, in units of the model size M.
ZERO_PLUS_PLUS_VOLUME = __import__("types").MappingProxyType({
    "zero3_forward_all_gather": 1.0, "zero3_backward_all_gather": 1.0, "zero3_reduce_scatter": 1.0,
    "zero3_total": 3.0,
    "qwz_forward_all_gather": 0.5, "hpz_backward_all_gather_across_nodes": 0.0,
    "qgz_reduce_scatter": 0.25, "zero_plus_plus_total": 0.75,
})

#: ZeRO++'s headline throughput gain over ZeRO-3: "up to 2.16x" at 384 V100 GPUs (abstract),
#: reached on the low-bandwidth configuration of its evaluation.
ZERO_PLUS_PLUS_THROUGHPUT = __import__("types").MappingProxyType({
    "max_speedup": 2.16, "gpus": 384, "gpu": "V100",
})
