"""Tests of ``interconnect_lab.matmul``: the sustained rate of a matrix multiply, by its shape and the
GPU.

Hostile input is at the end (and fuzzed with tests/fuzzing.py where noted).
"""

import numpy as np
import pytest
from hypothesis import strategies as st

from fuzzing import Case, choice, fraction, make_tests, mixed

from interconnect_lab import catalog, matmul
from interconnect_lab.published import AZURE_A100_GEMM, AZURE_H100_FP8_GEMM, TILELANG_H800_GEMM


LARGE_GEMMS = [g for g in AZURE_A100_GEMM if min(g.m, g.n, g.k) >= 2048]

LARGEST = max(AZURE_A100_GEMM, key=lambda g: g.m * g.n * g.k)

LARGE_FP8_GEMMS = [g for g in AZURE_H100_FP8_GEMM if min(g.m, g.n, g.k) >= 2048]

LARGEST_FP8 = max(AZURE_H100_FP8_GEMM, key=lambda g: g.flop_per_s)


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


def test_a_thin_gemm_is_bound_by_its_memory_traffic():
    # Azure's 802,816 x 192 x 768 GEMM runs at 62% of the sweep's best; the model, whose
    # memory-traffic term explains it, within 15%.
    thin = next(g for g in AZURE_A100_GEMM if g.n == 192)
    a100 = catalog.gpu(thin.gpu)
    model = (matmul.gemm_efficiency(a100, thin.m, thin.n, thin.k)
             / matmul.gemm_efficiency(a100, LARGEST.m, LARGEST.n, LARGEST.k))
    assert model == pytest.approx(thin.flop_per_s / LARGEST.flop_per_s, rel=0.15)


def test_gemm_efficiency_limits():
    h100 = catalog.gpu("H100 SXM")
    assert matmul.gemm_efficiency(h100, *matmul.REFERENCE_SHAPE) == pytest.approx(1.0)
    thin = matmul.gemm_efficiency(h100, 16384, 4096, np.array([128, 1024, 8192]))
    assert np.all(np.diff(thin) > 0)                      # more work per byte moved
    with pytest.raises(ValueError, match="k"):
        matmul.gemm_efficiency(h100, 1024, 1024, 0)


def test_gemm_time_is_two_m_n_k_flops_at_the_gemm_rate():
    # By hand: a 4096^3 GEMM is 2 x 4096^3 = 1.374e11 FLOPs; at the modelled rate it takes FLOPs / rate.
    h100 = catalog.gpu("H100 SXM")
    rate = matmul.gemm_rate(h100, 4096, 4096, 4096)
    assert matmul.gemm_time_s(h100, 4096, 4096, 4096) == pytest.approx(2 * 4096 ** 3 / rate)
    # the reference shape runs at the best measured rate
    assert matmul.gemm_rate(h100, *matmul.REFERENCE_SHAPE) == pytest.approx(matmul.best_rate(h100), rel=1e-9)
    # sustained scales the rate and nothing else
    assert matmul.gemm_rate(h100, 4096, 4096, 4096, sustained=0.5) == pytest.approx(rate / 2)


def test_gemm_bad_input_names_the_parameter():
    h100 = catalog.gpu("H100 SXM")
    with pytest.raises(ValueError, match="sustained"):
        matmul.gemm_rate(h100, 1024, 1024, 1024, sustained=2.0)
    with pytest.raises(TypeError, match="gpu must be a catalog.GPU"):
        matmul.gemm_rate("H100 SXM", 1024, 1024, 1024)


# Hostile input: fuzzed with tests/fuzzing.py -----------------------------------------------------

GPUS = tuple(catalog.GPUS)


def efficiency_in_unit_interval(result, kwargs):
    assert np.all((np.asarray(result) > 0) & (np.asarray(result) <= 1)), result


def rate_at_most_best(result, kwargs):
    best = matmul.best_rate(kwargs["gpu"], kwargs["precision"])
    assert np.all((np.asarray(result) > 0) & (np.asarray(result) <= best * kwargs["sustained"] * (1 + 1e-12)))


gpu_spec = mixed(st.sampled_from(GPUS).map(catalog.gpu))

precision = choice(tuple(matmul.PRECISIONS))

dimension = mixed(st.one_of(st.floats(0, 6).map(lambda e: float(round(10 ** e))),
                            st.floats(0, 20).map(lambda e: float(round(10 ** e))),
                            st.lists(st.integers(1, 100_000), min_size=1, max_size=4)))

FUZZ_CASES = [
    Case(matmul.best_rate, dict(gpu=gpu_spec, precision=precision)),
    Case(matmul.gemm_efficiency, dict(gpu=gpu_spec, m=dimension, n=dimension, k=dimension, precision=precision),
         check=efficiency_in_unit_interval),
    Case(matmul.gemm_rate, dict(gpu=gpu_spec, m=dimension, n=dimension, k=dimension,
                                sustained=fraction(0.01, 1.0), precision=precision), check=rate_at_most_best),
    Case(matmul.gemm_time_s, dict(gpu=gpu_spec, m=dimension, n=dimension, k=dimension,
                                  sustained=fraction(0.01, 1.0), precision=precision)),
]


# Hostile input -----------------------------------------------------------------------------------

A100 = catalog.gpu("A100 SXM")


@pytest.mark.usefixtures("warnings_are_errors")
@pytest.mark.parametrize(("call", "error", "message"), [
    (lambda m: m.gemm_efficiency(0, 8192, 8192, 8192), TypeError, "gpu must be a catalog.GPU"),
    # 2mnk overflowed to inf (a RuntimeWarning)
    (lambda m: m.gemm_time_s(A100, 1.7e308, 1e10, 1e10), ValueError, r"m = 1\.7e\+308 elements is not valid"),
    # a rate of 0 FLOP/s and a time of inf
    (lambda m: m.gemm_time_s(A100, 8192, 8192, 8192, sustained=0.0), ValueError,
     r"sustained = 0 is not valid: it must be in \[0\.001, 1\]"),
    (lambda m: m.gemm_rate(A100, 8192, 8192, 8192, sustained=True), TypeError, "sustained must be a real number"),
    (lambda m: m.gemm_efficiency(A100, [1, 2], [1, 2, 3], 8), ValueError, "m, n and k must broadcast to one shape"),
])
def test_gemm_inputs(call, error, message):
    from interconnect_lab import matmul
    with pytest.raises(error, match=message):
        call(matmul)

test_fuzz, test_fuzz_nightly = make_tests(FUZZ_CASES)
