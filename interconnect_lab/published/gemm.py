"""Published GEMM rates by shape: what the sustained-GEMM model of :mod:`interconnect_lab.matmul` is checked against."""

from __future__ import annotations

from dataclasses import dataclass

from .. import units as u
from ..sources import Source, azure_benchmarking_guide

__all__ = ["GemmMeasurement", "AZURE_A100_GEMM", "AZURE_A100_GEMM_SOURCE", "TILELANG_H800_GEMM", "TILELANG_H800_GEMM_SOURCE"]


@dataclass(frozen=True, kw_only=True)
class GemmMeasurement:
    """One measured GEMM: its shape and its rate.

    Attributes
    ----------
    gpu : str
        Catalog GPU name.
    m, n, k : int
        Shape: an m × k matrix times a k × n matrix [elements].
    flop_per_s : float
        Measured rate, 2mnk per second [FLOP/s].
    measured_on : str or None
        The GPU the measurement ran on, where it is not ``gpu`` but stands for it
        (an H800 has the H100's SMs and HBM3); None when it is ``gpu``.
    """

    gpu: str
    m: int
    n: int
    k: int
    flop_per_s: float
    measured_on: str | None = None


def _sweep(gpu, rows):
    """GemmMeasurements of one GPU from (m, n, k, TFLOP/s) rows."""
    return tuple(GemmMeasurement(gpu=gpu, m=m, n=n, k=k, flop_per_s=rate * u.TFLOP_per_s) for m, n, k, rate in rows)


AZURE_A100_GEMM_SOURCE = azure_benchmarking_guide(
    "ND A100 v4", "A100 SXM4 80GB, CUDA 12.5, FP16 inputs, random initialization, 10,000 warm-up iterations")

#: cuBLASLt GEMMs on an A100 SXM4 80GB, by shape (Azure's benchmarking guide).
AZURE_A100_GEMM: tuple[GemmMeasurement, ...] = _sweep("A100 SXM", (
    (1024, 1024, 1024, 119.4), (2048, 2048, 2048, 221.8), (4096, 4096, 4096, 228.0),
    (8192, 8192, 8192, 253.7), (16384, 16384, 16384, 256.5), (1024, 2145, 1024, 132.8),
    (6144, 12288, 12288, 250.8), (802816, 192, 768, 157.8),
))


TILELANG_H800_GEMM_SOURCE = Source(
    title="TileLang, FP16 matmul benchmark (8192 x 8192) on an H800 SXM (benchmark/matmul/README.md)",
    year=2025, url="https://github.com/xwhzz/tilelang/blob/17bd0a6c651f599bec1397e0b91830c3ddc93076/benchmark/matmul/README.md",
    locator="Results table",
    note="M = N = 8192, K from 256 to 16,384, autotuned kernels; the H800 SXM has the H100 SXM's SMs and HBM3 "
         "(its NVLink is narrower), so its GEMMs stand for the H100's")

#: FP16 GEMMs of 8192 x 8192 x K on an H800 SXM (the H100's compute and memory), by K.
TILELANG_H800_GEMM: tuple[GemmMeasurement, ...] = tuple(
    GemmMeasurement(gpu="H100 SXM", m=8192, n=8192, k=k, flop_per_s=rate * u.TFLOP_per_s, measured_on="H800 SXM")
    for k, rate in ((256, 386), (512, 520), (1024, 628), (2048, 705), (4096, 736), (8192, 758), (16384, 766)))


AZURE_H100_FP8_GEMM_SOURCE = azure_benchmarking_guide(
    "ND H100 v5", "H100 80GB HBM3, CUDA 12.6, FP8 inputs, random initialization, 10,000 warm-up iterations")

#: cuBLASLt FP8 GEMMs on an H100 SXM (80 GB HBM3), by shape (Azure's benchmarking guide).
AZURE_H100_FP8_GEMM: tuple[GemmMeasurement, ...] = _sweep("H100 SXM", (
    (1024, 1024, 1024, 274.1), (2048, 2048, 2048, 1011.3), (4096, 4096, 4096, 1216.9),
    (8192, 8192, 8192, 1290.1), (16384, 16384, 16384, 1377.3), (32768, 32768, 32768, 1382.2),
    (1024, 2145, 1024, 410.7), (6144, 12288, 12288, 1351.4), (802816, 192, 768, 663.8),
))

