"""GPUs: peak and measured matmul rates, memory, links."""

from __future__ import annotations

from dataclasses import dataclass

from .. import units as u
from .._validation import check_integer
from .._lookup import resolve
from ..sources import MLENG_ACCELERATORS, MLENG_SUSTAINED_MATMUL, Source, azure_benchmarking_guide
from ._common import check_positive_fields, check_sources, check_status, check_text, name_table


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
    power_w : float or None
        Maximum board power (TDP/TGP) [W]; None where the vendor has not published it
        (an announced part).
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
    status, status_date, as_of, expected_by : str or None
        Where it stands: one of ``catalog.STATUSES``, when it got there, when that was
        last checked, and for a forward-looking status when the next step is expected
        (see ``interconnect_lab.catalog._common``); None for an entry whose ``year``
        says enough.
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
    power_w: float | None
    scale_up_link: str | None
    measured_matmul_flop_per_s: float | None = None
    measured_fp8_matmul_flop_per_s: float | None = None
    sustained_matmul_flop_per_s: float | None = None
    same_silicon_as: str | None = None
    streaming_multiprocessors: int | None = None
    status: str | None = None
    status_date: str | None = None
    as_of: str | None = None
    expected_by: str | None = None
    sources: tuple[Source, ...]

    def __post_init__(self):
        check_sources(self)
        check_status(self)
        check_text(self, "name", "vendor", "scale_up_link", "same_silicon_as",
                   optional=("scale_up_link", "same_silicon_as"))
        if self.same_silicon_as == self.name:
            raise ValueError(f"GPU {self.name!r}: same_silicon_as = {self.same_silicon_as!r} names the GPU itself; "
                             "give another catalog GPU built on the same chip, or None")
        check_integer("GPU.year", self.year, minimum=2000, maximum=2100)
        check_positive_fields(self, [
            ("bf16_flop_per_s", "FLOP/s"), ("fp8_flop_per_s", "FLOP/s"), ("hbm_bytes", "B"),
            ("hbm_bandwidth_bytes_per_s", "B/s"), ("power_w", "W"),
            ("measured_matmul_flop_per_s", "FLOP/s"), ("measured_fp8_matmul_flop_per_s", "FLOP/s"),
            ("sustained_matmul_flop_per_s", "FLOP/s"),
        ], allow_none=("fp8_flop_per_s", "measured_matmul_flop_per_s", "measured_fp8_matmul_flop_per_s",
                       "sustained_matmul_flop_per_s", "power_w"))
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

#: When the statuses of this module's entries were last checked against their sources.
_CHECKED = "2026-12-07"

_BLACKWELL_ULTRA_BLOG = Source(
    title="NVIDIA Technical Blog, Inside NVIDIA Blackwell Ultra: The Chip Powering the AI Factory Era", year=2025,
    url="https://developer.nvidia.com/blog/inside-nvidia-blackwell-ultra-the-chip-powering-the-ai-factory-era/",
    note="'640 fifth-generation Tensor Cores with 15 PetaFLOPS dense NVFP4 compute'; 288 GB HBM3E per GPU")
_GB300_NVL72_RA = Source(
    title="NVIDIA, NVL72 AI Factory Enterprise Reference Architecture: Components", year=2025,
    url="https://docs.nvidia.com/enterprise-reference-architectures/nvl72-ai-factory/latest/components.html",
    note="GB300 NVL72: 18 compute trays, each with '2 Mezzanine Network Boards with 2 ConnectX-8 silicon chips in "
         "each, for a total of 4 ConnectX-8 HCAs' for its 4 GPUs; 9 NVLink switch trays, 'total aggregated "
         "bandwidth of 130 TB/s'; '8 power shelves of 33 kW'; 'Full rack requiring up to 142 kW'")

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

GPUS = name_table([
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
        # Meta's Grand Teton H100: the H100 SXM's GH100 die with 96 GB of HBM2e at 2.4 TB/s, run at a 500 W
        # power limit. Its peak is not stated ("between SXM and NVL, and we don't know its exact value"):
        # the H100 SXM's dense peaks and best measured matmuls are taken, so the model does not charge
        # the lower power limit, which no published measurement of this part prices.
        name="H100 SXM 96GB", vendor="NVIDIA", year=2023,
        bf16_flop_per_s=989.4 * u.TFLOP_per_s, fp8_flop_per_s=1978.9 * u.TFLOP_per_s,
        hbm_bytes=96 * u.GB, hbm_bandwidth_bytes_per_s=2.4 * u.TB_per_s,
        power_w=500 * u.W, scale_up_link="NVLink 4",
        measured_matmul_flop_per_s=794.5 * u.TFLOP_per_s,
        measured_fp8_matmul_flop_per_s=1382.2 * u.TFLOP_per_s,
        same_silicon_as="H200 SXM",
        streaming_multiprocessors=132,
        sources=(
            Source(title="torchtitan: benchmarks/llama3_h100_202412_torchtitan.md", year=2024,
                   url="https://github.com/pytorch/torchtitan/blob/820504e20d1149fbf0b98c567af24c4b0433b22d/"
                       "benchmarks/llama3_h100_202412_torchtitan.md",
                   locator="Hardware (L13-15) and footnote 2 (L82)",
                   note="'Each H100 GPU is equipped with 96GB HBM2e with 2.4 TB/sec peak memory bandwidth'; 'We "
                        "used the default 500W power limit'; 'the actual peak TFLOPs number is between SXM and "
                        "NVL, and we don't know its exact value': the peaks and measured matmul rates here are "
                        "the H100 SXM's, an assumption"),
            MLENG_ACCELERATORS.at("H100 SXM row", note="the H100 SXM's peaks, taken for this variant"),
            _MAMF_SOURCE,
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
    GPU(
        # Blackwell Ultra in an HGX/DGX B300 (8 GPUs, x86 host). Same dense BF16/FP8 peaks as B200;
        # its gain is FP4 (15 PFLOP/s dense NVFP4) and memory (288 GB HBM3E).
        name="B300", vendor="NVIDIA", year=2025,
        bf16_flop_per_s=2250 * u.TFLOP_per_s, fp8_flop_per_s=4500 * u.TFLOP_per_s,
        hbm_bytes=288 * u.GB, hbm_bandwidth_bytes_per_s=8 * u.TB_per_s,
        power_w=1000 * u.W, scale_up_link="NVLink 5",
        measured_matmul_flop_per_s=1769.0 * u.TFLOP_per_s, measured_fp8_matmul_flop_per_s=3353.3 * u.TFLOP_per_s,
        status="shipping", status_date="2026-07-31", as_of=_CHECKED,
        sources=(
            _BLACKWELL_ULTRA_BLOG,
            MLENG_ACCELERATORS.at("TFLOPS comparison table, 'Generally available', B300 SXM row",
                                  note="dense 2,250 BF16 / 4,500 FP8 TFLOP/s (NVIDIA DGX B300 datasheet); 288 GB "
                                       "HBM3e at 8 TB/s; 1,000 W maximum TGP (DGX B300 power-capping guide); "
                                       "best measured BF16 matmul 1,769.0 and FP8 3,353.3 TFLOP/s; NVIDIA's HGX "
                                       "page lists HGX B300 as shipping as of 2026-07-31 (the 'status since' "
                                       "date: the earliest date a source read shows it shipping)"),
        ),
    ),
    GPU(
        # One Blackwell Ultra GPU of a GB300 superchip, as run in the GB300 NVL72 rack.
        name="GB300", vendor="NVIDIA", year=2025,
        bf16_flop_per_s=2500 * u.TFLOP_per_s, fp8_flop_per_s=5000 * u.TFLOP_per_s,
        hbm_bytes=288 * u.GB, hbm_bandwidth_bytes_per_s=8 * u.TB_per_s,
        power_w=1400 * u.W, scale_up_link="NVLink 5",
        status="shipping", status_date="2025", as_of=_CHECKED,
        sources=(
            _BLACKWELL_ULTRA_BLOG,
            MLENG_ACCELERATORS.at("TFLOPS comparison table, GB300 SXM row",
                                  note="per GPU, dense: 2,500 BF16 / 5,000 FP8 TFLOP/s (NVIDIA GB300 NVL72 page); "
                                       "1,400 W per GPU in NVIDIA's GB300 rack-planning example; 288 GB HBM3e"),
            _GB300_NVL72_RA,
        ),
    ),
    GPU(
        # Announced; NVIDIA's per-GPU figures are pre-release. The FP8 figure NVIDIA gives (17,500 TFLOP/s)
        # is 4.4 times its BF16 one, where every other part is 2x: not stored until confirmed as dense.
        name="Rubin", vendor="NVIDIA", year=2026,
        bf16_flop_per_s=4000 * u.TFLOP_per_s, fp8_flop_per_s=None,
        hbm_bytes=288 * u.GB, hbm_bandwidth_bytes_per_s=22 * u.TB_per_s,
        power_w=None, scale_up_link="NVLink 6",
        status="announced", status_date="2025-03-18", as_of=_CHECKED, expected_by="2026-12",
        sources=(
            MLENG_ACCELERATORS.at("TFLOPS comparison table, 'Announced, availability not confirmed', Rubin SXM row",
                                  note="dense 4,000 BF16 TFLOP/s, 'FP8' 17,500 and NVFP4 35,000 from NVIDIA's Vera "
                                       "Rubin NVL72 page ('pre-release, so these are announced figures'); 288 GB "
                                       "HBM4 at 22 TB/s; power not published"),
            Source(title="NG Times, Nvidia sends Vera Rubin into full production (on NVIDIA's release of June 2026)",
                   year=2026, url="https://ngtimes.org/2026/06/03/nvidia-sends-vera-rubin-into-full-production",
                   estimate=True,
                   note="secondary: NVIDIA says Rubin is in full production and that 'production shipments begin "
                        "this fall' (autumn 2026); no primary shipping statement found by 2026-12-07"),
        ),
    ),
    GPU(
        name="MI355X", vendor="AMD", year=2025,
        bf16_flop_per_s=2500 * u.TFLOP_per_s, fp8_flop_per_s=5000 * u.TFLOP_per_s,
        hbm_bytes=288 * u.GB, hbm_bandwidth_bytes_per_s=8 * u.TB_per_s,
        power_w=1400 * u.W, scale_up_link="Infinity Fabric (MI355X)",
        measured_matmul_flop_per_s=1565.0 * u.TFLOP_per_s,
        status="shipping", status_date="2026", as_of=_CHECKED,
        sources=(
            MLENG_ACCELERATORS.at("TFLOPS comparison table, MI355X row",
                                  note="dense 2,500 BF16 / 5,000 FP8 TFLOP/s (AMD's MI355X page; its 10.1 PFLOP/s "
                                       "FP8 is the sparse figure); 288 GB HBM3e at 8 TB/s; 1,400 W typical board "
                                       "power; best measured BF16 matmul 1,565 TFLOP/s"),
            Source(title="MLCommons Inference v6.0 results, AMD 87x MI355X system (closed division)", year=2026,
                   url=("https://github.com/mlcommons/inference_results_v6.0/tree/main/closed/AMD/results/"
                        "87xMI355X_22xEPYC_9575F"),
                   note="'AMD Instinct MI355X 288GB HBM3e', listed as available: the 'status since' date is "
                        "that of this round (2026)"),
        ),
    ),
    GPU(
        # AMD's figures are Performance Labs projections for a part not yet purchasable. FP8 is not
        # stored: AMD's unlabelled 20,100 TFLOP/s is most likely a sparse figure.
        name="MI455X", vendor="AMD", year=2026,
        bf16_flop_per_s=5000 * u.TFLOP_per_s, fp8_flop_per_s=None,
        hbm_bytes=432 * u.GB, hbm_bandwidth_bytes_per_s=23.3 * u.TB_per_s,
        power_w=None, scale_up_link=None,
        status="announced", status_date="2025-06-12", as_of=_CHECKED, expected_by="2026-12",
        sources=(
            MLENG_ACCELERATORS.at("TFLOPS and memory tables, 'Announced, availability not confirmed', MI455X rows",
                                  note="AMD's MI455X page read 2026-08-06: dense BF16 5,000 TFLOP/s; 432 GB HBM4 at "
                                       "23.3 TB/s; 'Results subject to change when products are released in "
                                       "market'; not purchasable as of 2026-07-31"),
            Source(title="Singulism (reporting Tom's Hardware, Computex 2026), AMD's Helios MI455X AI platform breaks "
                         "cover, initial systems use UALink-over-Ethernet", year=2026,
                   url="https://singulism.com/en/2026-06-04-amd-helios-mi455x-ualink-ethernet", estimate=True,
                   note="secondary (Tom's Hardware, Computex 2026): Helios systems with 72 MI455X shown; AMD's June "
                        "2025 preview gave 19.6 TB/s of HBM4 bandwidth, its 2026 product page 23.3 TB/s (stored); "
                        "AMD's window for Helios is 2026, no shipping confirmation found by 2026-12-07"),
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
