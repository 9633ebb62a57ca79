"""The sustained rate of a matrix multiply, by its shape and the GPU.

A GEMM :math:`C_{m\\times n} = A_{m\\times k} B_{k\\times n}` runs as tiles of the
output, one thread block per tile, in waves over the GPU's streaming
multiprocessors (SMs). Three losses separate a given shape from the best shape
a GPU has been measured at (its "maximum achievable matmul FLOPS", the
catalog's ``measured_matmul_flop_per_s``):

* **Tile quantization**: the output is cut into :math:`T_m \\times T_n` tiles;
  a partial tile at an edge costs as much as a full one. The library picks,
  among a few tile shapes (:data:`TILES`), the one that wastes least.
* **Wave quantization**: :math:`\\lceil m/T_m\\rceil\\lceil n/T_n\\rceil` tiles run
  in waves of one tile per SM; the last wave may leave SMs idle.
* **Memory traffic**: the FLOPs take :math:`2mnk/R` at the best rate
  :math:`R`; reading A and B and writing C, :math:`e(mk + kn) + 2mn` bytes
  (:math:`e` = 2 for BF16 inputs, 1 for FP8; C is BF16), takes that over the
  HBM bandwidth :math:`B`. Counted as not overlapped, a
  GEMM with little work per byte (a thin one, :math:`n` or :math:`k` in the
  hundreds, or a small one) loses most; the large square GEMM at which the
  best rate is measured hardly loses at all.

.. math::

    \\eta(m, n, k) = \\underbrace{\\frac{m n}{T_m T_n \\lceil m/T_m\\rceil \\lceil n/T_n\\rceil}}_{\\text{tiles}}
        \\;\\underbrace{\\frac{N_\\text{tiles}}{N_\\text{SM} \\lceil N_\\text{tiles}/N_\\text{SM}\\rceil}}_{\\text{waves}}
        \\;\\underbrace{\\frac{1}{1 + \\frac{R}{B}\\,\\frac{e(mk + kn) + 2mn}{2mnk}}}_{\\text{memory traffic}}

divided by the same product at the reference shape the best rate was
measured at, so that :math:`\\eta = 1` there. FP8 GEMMs (``precision="fp8"``)
take the GPU's best measured FP8 rate as :math:`R` (the catalog's
``measured_fp8_matmul_flop_per_s``; where none is published, the FP8 peak at
the share of peak the BF16 measurement reaches, an assumption). The tile is NVIDIA's default
large-GEMM tiles (the Deep Learning Performance guide). The model is meant for
the GEMMs of training (every dimension in the thousands); cuBLAS's
smaller and split-K kernels make small or very thin GEMMs faster than it says
(``tests/test_matmul.py`` checks it against a published A100 sweep).

References
----------
NVIDIA, "Matrix Multiplication Background User's Guide" (Deep Learning
Performance documentation), sections "Tile Quantization" and "Wave
Quantization", https://docs.nvidia.com/deeplearning/performance/dl-performance-matrix-multiplication/index.html.

Q. Anthony et al., "The Case for Co-Designing Model Architectures with
Hardware", ICPP 2024, https://arxiv.org/abs/2401.14489.
"""

from __future__ import annotations

import numpy as np

from . import catalog
from ._validation import check_choice, check_number

__all__ = ["TILES", "REFERENCE_SHAPE", "PRECISIONS", "best_rate", "gemm_efficiency", "gemm_rate", "gemm_time_s"]

#: Output tiles (rows, columns) a GEMM library chooses among [elements]; it takes
#: the one that wastes least to tile and wave quantization.
TILES = ((128, 256), (256, 128), (128, 128), (128, 64))

#: The shape (m, n, k) at which the catalog's best matmul rates are taken to be
#: measured: a large square GEMM.
REFERENCE_SHAPE = (8192, 8192, 8192)

#: Input precisions and the bytes of one element of A or B [B]; C is written in BF16.
PRECISIONS = {"bf16": 2.0, "fp8": 1.0}

_OUTPUT_BYTES = 2.0   # a BF16 element of C [B]


def best_rate(gpu, precision="bf16"):
    """The best matmul rate ``gpu`` has been measured at in ``precision`` [FLOP/s].

    BF16: the catalog's ``measured_matmul_flop_per_s`` (the datasheet peak if
    unmeasured). FP8: ``measured_fp8_matmul_flop_per_s``, or, where no FP8
    measurement is published, the FP8 peak at the share of peak the BF16
    measurement reaches (an assumption). A GPU without FP8 raises ValueError.

    >>> from interconnect_lab import catalog
    >>> h100 = catalog.gpu("H100 SXM")
    >>> round(best_rate(h100, "fp8") / best_rate(h100, "bf16"), 2)   # not the 2x of the peaks
    1.74

    Parameters
    ----------
    gpu : catalog.GPU
        The GPU.
    precision : str
        ``"bf16"`` or ``"fp8"``.
    """
    gpu = _check_gpu(gpu)
    check_choice("precision", precision, PRECISIONS)
    bf16 = gpu.measured_matmul_flop_per_s or gpu.bf16_flop_per_s
    if precision == "bf16":
        return bf16
    if gpu.fp8_flop_per_s is None:
        with_fp8 = ", ".join(repr(name) for name, g in catalog.GPUS.items() if g.fp8_flop_per_s is not None)
        raise ValueError(f"the {gpu.name} has no FP8 tensor cores (precision 'fp8'); GPUs with FP8: {with_fp8}")
    if gpu.measured_fp8_matmul_flop_per_s is not None:
        return gpu.measured_fp8_matmul_flop_per_s
    return gpu.fp8_flop_per_s * bf16 / gpu.bf16_flop_per_s


def _shape_factor(m, n, k, sms, balance, input_bytes=PRECISIONS["bf16"]):
    best = 0.0
    for tm, tn in TILES:
        rows, cols = np.ceil(m / tm), np.ceil(n / tn)
        tiles = rows * cols
        tile_use = m * n / (tiles * tm * tn)
        wave_use = 1.0 if sms is None else tiles / (sms * np.ceil(tiles / sms))
        best = np.maximum(best, tile_use * wave_use)
    # Time 2mnk/R for the FLOPs plus (mk + kn + mn) elements through HBM at B, not overlapped:
    # the share of the FLOP time is 1 / (1 + (R/B) (bytes per FLOP of this GEMM)).
    bytes_per_flop = (input_bytes * (m * k + k * n) + _OUTPUT_BYTES * m * n) / (2.0 * m * n * k)
    return best / (1.0 + balance * bytes_per_flop)


def gemm_efficiency(gpu, m, n, k, precision="bf16"):
    """Share of ``gpu``'s best measured matmul rate that an m × n × k GEMM sustains [-].

    Parameters
    ----------
    gpu : interconnect_lab.catalog.GPU
        The accelerator (its SM count, best matmul rate and HBM bandwidth).
    m, n, k : float or array_like
        The GEMM's rows, columns and inner dimension [elements], each in
        [1, 2**53].
    precision : {"bf16", "fp8"}
        The inputs' precision: the best rate it is a share of (:func:`best_rate`)
        and the bytes its memory traffic moves.

    Returns
    -------
    float or numpy.ndarray
        :math:`\\eta(m,n,k)/\\eta(\\text{reference})`, in (0, 1] for shapes no
        better than the reference [-].

    Examples
    --------
    >>> from interconnect_lab import catalog
    >>> a100 = catalog.gpu("A100 SXM")
    >>> round(gemm_efficiency(a100, 8192, 8192, 8192), 3)
    1.0
    >>> round(gemm_efficiency(a100, 16384, 2304, 288), 2)   # a thin shard: small k
    0.68
    """
    gpu = _check_gpu(gpu)
    m = check_number("m", m, unit="elements", minimum=1, maximum=_MAX_DIMENSION)
    n = check_number("n", n, unit="elements", minimum=1, maximum=_MAX_DIMENSION)
    k = check_number("k", k, unit="elements", minimum=1, maximum=_MAX_DIMENSION)
    try:
        np.broadcast_shapes(np.shape(m), np.shape(n), np.shape(k))
    except ValueError:
        raise ValueError(f"m, n and k must broadcast to one shape; got shapes {np.shape(m)}, {np.shape(n)} and "
                         f"{np.shape(k)}") from None
    best_rate(gpu, precision)                        # checks the precision and the GPU's support of it
    result = unchecked_gemm_efficiency(gpu, np.asarray(m, float), np.asarray(n, float), np.asarray(k, float),
                                       precision)
    return float(result) if np.ndim(result) == 0 else result


#: Largest GEMM dimension [elements]: 2**53, so that 2mnk (at most 1.5e48) stays finite.
_MAX_DIMENSION = 2.0 ** 53


def _check_gpu(gpu):
    if not isinstance(gpu, catalog.GPU):
        raise TypeError(f"gpu must be a catalog.GPU (e.g. catalog.gpu('H100 SXM')), got {gpu!r}")
    return gpu


def _check_sustained(sustained):
    return check_number("sustained", sustained, minimum=1e-3, maximum=1, scalar=True)


def unchecked_gemm_efficiency(gpu, m, n, k, precision="bf16"):
    """:func:`gemm_efficiency` on arrays already checked, for the training model's inner loop [-].

    ``training.terms.projection_gemm_s`` builds every shape from a model and a
    split that were checked; skipping the checks keeps a step evaluation fast.
    Everything else calls :func:`gemm_efficiency`.

    Parameters
    ----------
    gpu, m, n, k, precision :
        As for :func:`gemm_efficiency`, already valid; m, n and k float arrays.
    """
    sms = gpu.streaming_multiprocessors
    balance = best_rate(gpu, precision) / gpu.hbm_bandwidth_bytes_per_s
    element = PRECISIONS[precision]
    # No shape runs faster than the best one measured: the reference stands for it.
    return np.minimum(_shape_factor(m, n, k, sms, balance, element)
                      / _shape_factor(*REFERENCE_SHAPE, sms, balance, element), 1.0)


def gemm_rate(gpu, m, n, k, *, sustained=1.0, precision="bf16"):
    """Sustained FLOP/s of an m × n × k GEMM: best measured rate × shape efficiency × ``sustained`` [FLOP/s].

    ``sustained`` is the share of the best rate that survives end to end in a
    training step (clocks under sustained power, gaps between kernels); see
    :class:`interconnect_lab.training.Efficiencies`.

    Parameters
    ----------
    gpu : catalog.GPU
        The GPU (``catalog.gpu("H100 SXM")``).
    m, n, k : int or array_like
        The GEMM's dimensions: (m x k) times (k x n) [elements], in [1, 2**53].
    sustained : float
        Share of the best rate kept end to end, in [0.001, 1] [-].
    precision : str
        ``"bf16"`` or ``"fp8"``.
    """
    gpu = _check_gpu(gpu)
    sustained = _check_sustained(sustained)
    return best_rate(gpu, precision) * sustained * gemm_efficiency(gpu, m, n, k, precision)


def gemm_time_s(gpu, m, n, k, *, sustained=1.0, precision="bf16"):
    """Time of one m × n × k GEMM, 2mnk FLOPs at :func:`gemm_rate` [s].

    Parameters
    ----------
    gpu : catalog.GPU
        The GPU (``catalog.gpu("H100 SXM")``).
    m, n, k : int or array_like
        The GEMM's dimensions: (m x k) times (k x n) [elements], in [1, 2**53].
    sustained : float
        Share of the best rate kept end to end, in [0.001, 1] [-].
    precision : str
        ``"bf16"`` or ``"fp8"``.
    """
    rate = gemm_rate(gpu, m, n, k, sustained=sustained, precision=precision)   # checks every argument
    return 2.0 * np.asarray(m, float) * np.asarray(n, float) * np.asarray(k, float) / rate
