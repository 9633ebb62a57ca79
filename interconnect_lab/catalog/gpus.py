"""GPUs: peak and measured matmul rates, memory, links."""

from __future__ import annotations

from dataclasses import dataclass

from .. import units as u
from .._validation import check_integer
from .._lookup import resolve
from ..sources import MLENG_ACCELERATORS, MLENG_SUSTAINED_MATMUL, Source, azure_benchmarking_guide
from ._common import _check_positive_fields, _check_sources, _check_text, _table


# GPU ------------------------------------------------------------------------------

A100_DATASHEET = Source(
    title="NVIDIA A100 Tensor Core GPU datasheet", year=2021,
    url="https://www.nvidia.com/content/dam/en-zz/Solutions/Data-Center/a100/pdf/nvidia-a100-datasheet-us-nvidia-1758950-r4-web.pdf",
    note="A100 40GB SXM: 40 GB HBM2, 1,555 GB/s; A100 80GB SXM: 80 GB HBM2e, 2,039 GB/s; 108 SMs per the A100 whitepaper")


@dataclass(frozen=True, kw_only=True)
class GPU:
    """An accelerator, with the figures the book's models need.

    Parameters
    ----------
    name : str
        Catalog name, e.g. ``"H100 SXM"``.
    vendor : str
        Maker.
    year : int
        Year of first shipment.
    bf16_flop_per_s : float
        Dense BF16 tensor peak [FLOP/s].
    fp8_flop_per_s : float or None
        Dense FP8 tensor peak [FLOP/s]; None where FP8 is not supported.
    hbm_bytes : float
        HBM capacity [B] (decimal gigabytes as the vendor quotes them).
    hbm_bandwidth_bytes_per_s : float
        HBM bandwidth [B/s]: reads and writes share it; it is not a per-direction figure.
    power_w : float
        Maximum board power (TDP/TGP) [W].
    scale_up_link : str or None
        Name of the scale-up link generation in the catalog (e.g. ``"NVLink 4"``).
    measured_matmul_flop_per_s : float or None
        Maximum achievable matmul rate: the best dense BF16 matmul measured over many
        shapes on a real GPU with its software stack ("MAMF") [FLOP/s]; None where no
        measurement is published. No real kernel reaches the datasheet peak.
    measured_fp8_matmul_flop_per_s : float or None
        The same for FP8 inputs (BF16 output): the best dense FP8 matmul measured
        [FLOP/s]; None where none is published. FP8 kernels reach a smaller
        share of their peak than BF16 ones (an H100: 70% against 80%).
    sustained_matmul_flop_per_s : float or None
        Maximum sustainable matmul rate ("MSMF"): the best dense BF16 matmul held once the
        GPU is saturated at its power limit and its clock has settled, measured with every
        GPU of the node computing [FLOP/s]; None where none is published. A training step
        runs at this rate, not at the short burst of ``measured_matmul_flop_per_s``.
    same_silicon_as : str or None
        The catalog GPU built on the same chip (the same die, possibly at another clock or
        power limit), where that one's sustained rate is measured and this one's is not: the
        training model then takes the measured GPU's sustained rate, scaled by the ratio of the
        two GPUs' best measured rates (:func:`interconnect_lab.training.sustained_matmul_rate`).
        None where the catalog holds no such GPU.
    streaming_multiprocessors : int or None
        Streaming multiprocessors (NVIDIA) or compute units (AMD): how many GEMM
        tiles run at once (:mod:`interconnect_lab.matmul`); None where unknown.
    sources : tuple of Source
        Where the figures come from.

    Examples
    --------
    >>> from interconnect_lab import catalog, units as u
    >>> round(catalog.gpu("H100 SXM").matmul_fraction_of_peak, 3)   # best measured matmul / peak
    0.803
    >>> b200 = catalog.gpu("B200")
    >>> b200.bf16_flop_per_s / catalog.gpu("H100 SXM").bf16_flop_per_s   # same precision, dense
    2.274
    >>> b200.scale_up_link
    'NVLink 5'
    """

    name: str
    vendor: str
    year: int
    bf16_flop_per_s: float
    fp8_flop_per_s: float | None
    hbm_bytes: float
    hbm_bandwidth_bytes_per_s: float
    power_w: float
    scale_up_link: str | None
    measured_matmul_flop_per_s: float | None = None
    measured_fp8_matmul_flop_per_s: float | None = None
    sustained_matmul_flop_per_s: float | None = None
    same_silicon_as: str | None = None
    streaming_multiprocessors: int | None = None
    sources: tuple[Source, ...]

    def __post_init__(self):
        _check_sources(self)
        _check_text(self, "name", "vendor", "scale_up_link", "same_silicon_as",
                    optional=("scale_up_link", "same_silicon_as"))
        if self.same_silicon_as == self.name:
            raise ValueError(f"GPU {self.name!r}: same_silicon_as = {self.same_silicon_as!r} names the GPU itself; "
                             "give another catalog GPU built on the same chip, or None")
        check_integer("GPU.year", self.year, minimum=2000, maximum=2100)
        _check_positive_fields(self, [
            ("bf16_flop_per_s", "FLOP/s"), ("fp8_flop_per_s", "FLOP/s"), ("hbm_bytes", "B"),
            ("hbm_bandwidth_bytes_per_s", "B/s"), ("power_w", "W"),
            ("measured_matmul_flop_per_s", "FLOP/s"), ("measured_fp8_matmul_flop_per_s", "FLOP/s"),
            ("sustained_matmul_flop_per_s", "FLOP/s"),
        ], allow_none=("fp8_flop_per_s", "measured_matmul_flop_per_s", "measured_fp8_matmul_flop_per_s",
                       "sustained_matmul_flop_per_s"))
        if self.sustained_matmul_flop_per_s is not None and (
                self.measured_matmul_flop_per_s is None
                or self.sustained_matmul_flop_per_s > self.measured_matmul_flop_per_s):
            raise ValueError(f"GPU {self.name!r}: sustained_matmul_flop_per_s = {self.sustained_matmul_flop_per_s!r} "
                             "FLOP/s needs a measured_matmul_flop_per_s at least as large (a rate held at the "
                             "power limit cannot beat the best burst)")
        if self.measured_fp8_matmul_flop_per_s is not None and self.fp8_flop_per_s is None:
            raise ValueError(f"GPU {self.name!r} has measured_fp8_matmul_flop_per_s but no fp8_flop_per_s: "
                             "an FP8 measurement needs an FP8 peak")

    @property
    def matmul_fraction_of_peak(self) -> float | None:
        """Best measured BF16 matmul rate over the dense BF16 peak [-]; None if unmeasured."""
        if self.measured_matmul_flop_per_s is None:
            return None
        return self.measured_matmul_flop_per_s / self.bf16_flop_per_s


# GPUs -------------------------------------------------------------------------------

def _azure_fp8_gemm(system, gpu_label, best):
    return azure_benchmarking_guide(
        system, f"{gpu_label}, CUDA 12.6, FP8 inputs, random initialization, 10,000 warm-up iterations; "
                f"best of the sweep {best} TFLOP/s")


# Measured best-shape BF16 and FP8 matmul rates (MAMF): what a real kernel reaches, unlike the peak.
_MAMF_SOURCE = MLENG_ACCELERATORS.at(
    "Maximum Achievable Matmul FLOPS comparison table",
    note="no sparsity, mean of 100 iterations after 50 warm-up, best of many shapes; BF16: A100 SXM 271.2, "
         "H100 SXM 794.5 ('H200 is the same'), B200 1,745, GB200 1,822, MI300X 668.4 TFLOP/s; "
         "FP8 (float8_e4m3fn): B200 3,432.5, GB200 3,615.6 TFLOP/s")

GPUS = _table([
    GPU(
        name="A100 SXM", vendor="NVIDIA", year=2020,
        bf16_flop_per_s=312 * u.TFLOP_per_s, fp8_flop_per_s=None,
        hbm_bytes=80 * u.GB, hbm_bandwidth_bytes_per_s=2.039 * u.TB_per_s,
        power_w=400 * u.W, scale_up_link="NVLink 3",
        measured_matmul_flop_per_s=271.2 * u.TFLOP_per_s,
        streaming_multiprocessors=108,
        sources=(MLENG_ACCELERATORS.at("A100 SXM row"), _MAMF_SOURCE),
    ),
    GPU(
        name="A100 SXM 40GB", vendor="NVIDIA", year=2020,
        bf16_flop_per_s=312 * u.TFLOP_per_s, fp8_flop_per_s=None,
        hbm_bytes=40 * u.GB, hbm_bandwidth_bytes_per_s=1.555 * u.TB_per_s,
        power_w=400 * u.W, scale_up_link="NVLink 3",
        measured_matmul_flop_per_s=271.2 * u.TFLOP_per_s,
        same_silicon_as="A100 SXM",
        streaming_multiprocessors=108,
        sources=(A100_DATASHEET, MLENG_ACCELERATORS.at("A100 SXM row"), _MAMF_SOURCE),
    ),
    GPU(
        name="H100 SXM", vendor="NVIDIA", year=2022,
        bf16_flop_per_s=989.4 * u.TFLOP_per_s, fp8_flop_per_s=1978.9 * u.TFLOP_per_s,
        hbm_bytes=80 * u.GB, hbm_bandwidth_bytes_per_s=3.35 * u.TB_per_s,
        power_w=700 * u.W, scale_up_link="NVLink 4",
        measured_matmul_flop_per_s=794.5 * u.TFLOP_per_s,
        measured_fp8_matmul_flop_per_s=1382.2 * u.TFLOP_per_s,
        same_silicon_as="H200 SXM",
        streaming_multiprocessors=132,
        sources=(
            MLENG_ACCELERATORS.at("H100 SXM row"), _MAMF_SOURCE,
            _azure_fp8_gemm("ND H100 v5", "H100 80GB HBM3", "1,382.2 (32,768 cubed)"),
            Source(title="G. K. Lockwood, H100 (digital garden)", year=2025,
                   url="https://glennklockwood.com/garden/processors/h100",
                   note="theoretical peaks 989.4 (BF16 dense) and 1978.9 (FP8 dense) TFLOP/s"),
        ),
    ),
    GPU(
        # Same GH100 die and clocks as H100 SXM; more and faster memory.
        name="H200 SXM", vendor="NVIDIA", year=2024,
        bf16_flop_per_s=989.4 * u.TFLOP_per_s, fp8_flop_per_s=1978.9 * u.TFLOP_per_s,
        hbm_bytes=141 * u.GB, hbm_bandwidth_bytes_per_s=4.8 * u.TB_per_s,
        power_w=700 * u.W, scale_up_link="NVLink 4",
        measured_matmul_flop_per_s=794.5 * u.TFLOP_per_s,
        measured_fp8_matmul_flop_per_s=1366.3 * u.TFLOP_per_s,
        # Held at 700 W with every GPU of the node busy. The same table's burst rate for it is
        # 850, with newer software than the 794.5 above; the training model uses only the ratio
        # of sustained rates measured side by side (training.matmul_fraction_of_peak).
        sustained_matmul_flop_per_s=755 * u.TFLOP_per_s,
        streaming_multiprocessors=132,
        sources=(
            _MAMF_SOURCE,
            MLENG_SUSTAINED_MATMUL,
            _azure_fp8_gemm("ND H200 v5", "H200 141GB", "1,366.3 (16,384 cubed)"),
            MLENG_ACCELERATORS.at("TFLOPS comparison table, H200 SXM row",
                                  note="same dense peaks as H100 SXM; 141 GB HBM3e at 4.8 TB/s"),
            Source(title="MLCommons Inference v4.1, NVIDIA system description H200-SXM-141GBx8",
                   year=2024,
                   url=("https://raw.githubusercontent.com/mlcommons/inference_results_v4.1/main/"
                        "closed/NVIDIA/systems/H200-SXM-141GBx8_TRT_MaxQ.json"),
                   note="'H200 TGP 700W'; '18x 4th Gen NVLink, 900GB/s'; 141 GB HBM3e"),
        ),
    ),
    GPU(
        name="B200", vendor="NVIDIA", year=2024,
        bf16_flop_per_s=2250 * u.TFLOP_per_s, fp8_flop_per_s=4500 * u.TFLOP_per_s,
        # 180 GB is the usable capacity NVIDIA's HGX/DGX B200 documents give (1,440 GB per
        # 8 GPUs); the marketing figure is 192 GB.
        hbm_bytes=180 * u.GB, hbm_bandwidth_bytes_per_s=8 * u.TB_per_s,
        power_w=1000 * u.W, scale_up_link="NVLink 5",
        measured_matmul_flop_per_s=1745.0 * u.TFLOP_per_s, measured_fp8_matmul_flop_per_s=3432.5 * u.TFLOP_per_s,
        sustained_matmul_flop_per_s=1439 * u.TFLOP_per_s,
        streaming_multiprocessors=148,
        sources=(
            _MAMF_SOURCE,
            MLENG_SUSTAINED_MATMUL,
            MLENG_ACCELERATORS.at("B200 rows",
                                  note="dense 2,250 BF16 / 4,500 FP8 TFLOP/s (DGX B200 datasheet); "
                                       "180 GB usable HBM3e at 8 TB/s; 1,000 W max TGP"),
        ),
    ),
    GPU(
        # One Blackwell GPU of a GB200 superchip, as run in the NVL72 rack (clocked above B200).
        name="GB200", vendor="NVIDIA", year=2024,
        bf16_flop_per_s=2500 * u.TFLOP_per_s, fp8_flop_per_s=5000 * u.TFLOP_per_s,
        hbm_bytes=186 * u.GB, hbm_bandwidth_bytes_per_s=8 * u.TB_per_s,
        power_w=1200 * u.W, scale_up_link="NVLink 5",
        measured_matmul_flop_per_s=1822.0 * u.TFLOP_per_s, measured_fp8_matmul_flop_per_s=3615.6 * u.TFLOP_per_s,
        same_silicon_as="B200",
        streaming_multiprocessors=148,
        sources=(
            _MAMF_SOURCE,
            MLENG_ACCELERATORS.at("GB200 rows",
                                  note="per Blackwell GPU, dense: 2,500 BF16 / 5,000 FP8 TFLOP/s "
                                       "(NVIDIA GB200 NVL72 page: 720 PF sparse FP8 / 72 / 2); "
                                       "1,200 W max per GPU (NVIDIA Mission Control FAQ)"),
            Source(title="MLCommons Inference v6.1, Crusoe system description GB200-NVL72",
                   year=2025,
                   url=("https://raw.githubusercontent.com/mlcommons/inference_results_v6.1/main/"
                        "closed/Crusoe/systems/GB200-NVL72_GB200-186GB_aarch64x16_Dynamo.json"),
                   note="'accelerator_memory_capacity': '186 GB' HBM3e per GPU"),
        ),
    ),
    GPU(
        name="MI300X", vendor="AMD", year=2023,
        bf16_flop_per_s=1307.4 * u.TFLOP_per_s, fp8_flop_per_s=2614.9 * u.TFLOP_per_s,
        hbm_bytes=192 * u.GB, hbm_bandwidth_bytes_per_s=5.3 * u.TB_per_s,
        power_w=750 * u.W, scale_up_link="Infinity Fabric (MI300X)",
        measured_matmul_flop_per_s=668.4 * u.TFLOP_per_s,
        streaming_multiprocessors=304,
        sources=(
            _MAMF_SOURCE,
            MLENG_ACCELERATORS.at("MI300X rows",
                                  note="dense 1,307.4 BF16 TFLOP/s = 2,100 MHz x 256 x 2 x 1,216 "
                                       "(AMD spec), FP8 twice that; 192 GB HBM3 at 5.3 TB/s; "
                                       "750 W peak typical board power"),
        ),
    ),
])

for _entry in GPUS.values():
    if _entry.same_silicon_as is not None and _entry.same_silicon_as not in GPUS:
        raise ValueError(f"GPU {_entry.name!r}: same_silicon_as = {_entry.same_silicon_as!r} is not a catalog GPU; "
                         f"valid: {', '.join(map(repr, GPUS))}")


def gpu(name: str) -> GPU:
    """The catalog GPU called ``name``; an unknown name lists the valid ones.

    Parameters
    ----------
    name : str
        A key of ``catalog.GPUS`` (an unknown name lists the valid ones);
        a GPU itself is returned as it is.

    Examples
    --------
    >>> gpu("MI300X").hbm_bytes / 1e9
    192.0
    """
    return resolve("GPU", name, GPU, GPUS)
