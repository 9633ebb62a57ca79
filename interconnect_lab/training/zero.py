"""Communication volumes of the data-parallel family: ZeRO, ZeRO++ and gradient compression."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._validation import check_choice, check_integer, check_number


# ============================================================================
# Communication volumes: ZeRO, ZeRO++ and gradient compression
# ============================================================================

@dataclass(frozen=True)
class ZeroVolume:
    """Data-parallel communication per iteration, per GPU, in units of the model size M.

    Attributes
    ----------
    forward_all_gather, backward_all_gather, gradient_reduction : float
        The three collectives of ZeRO-3 (for stages 0-2 only the gradient
        reduction and the parameter all-gather after the update) [M].
    cross_node : float
        The part that crosses the scale-out network [M].
    """

    forward_all_gather: float
    backward_all_gather: float
    gradient_reduction: float
    cross_node: float

    @property
    def total(self) -> float:
        """All data-parallel traffic [M]."""
        return self.forward_all_gather + self.backward_all_gather + self.gradient_reduction


def zero_communication_volume(stage, *, quantized_weights=False, hierarchical_partition=False,
                              quantized_gradients=False) -> ZeroVolume:
    """ZeRO's per-iteration communication volume, in units of the model size M.

    Stages 0-2 move 2M per GPU (a reduce-scatter and an all-gather, the cost of
    an all-reduce; Rajbhandari et al. 2020 §7); stage 3 adds a second weight
    all-gather: M forward + M backward + M gradient reduce-scatter = 3M.
    ZeRO++ (Wang et al. 2023) cuts stage 3 to 0.75M across nodes:

    ===========================  ============  =============
    change                       collective    volume
    ===========================  ============  =============
    qwZ: INT8 weights            forward AG    M -> 0.5M
    hpZ: copy inside each node   backward AG   M -> 0 across nodes
    qgZ: INT4 gradients          RS            M -> 0.25M
    ===========================  ============  =============

    Parameters
    ----------
    stage : {0, 1, 2, 3}
        ZeRO stage.
    quantized_weights, hierarchical_partition, quantized_gradients : bool
        The three ZeRO++ techniques (stage 3 only).

    Returns
    -------
    ZeroVolume

    References
    ----------
    Rajbhandari et al., SC20, §7; Wang et al., arXiv:2306.10209, §3-4.

    Examples
    --------
    >>> zero_communication_volume(3).total
    3.0
    >>> zero_communication_volume(3, quantized_weights=True, hierarchical_partition=True,
    ...                           quantized_gradients=True).cross_node
    0.75
    """
    stage = check_integer("stage", stage, minimum=0, maximum=3)
    plus_plus = quantized_weights or hierarchical_partition or quantized_gradients
    if plus_plus and stage != 3:
        raise ValueError(f"ZeRO++ (quantized_weights, hierarchical_partition, quantized_gradients) "
                         f"applies to ZeRO stage 3, got stage = {stage}")
    if stage < 3:
        return ZeroVolume(forward_all_gather=1.0, backward_all_gather=0.0, gradient_reduction=1.0,
                          cross_node=2.0)
    forward = 0.5 if quantized_weights else 1.0
    backward = 1.0
    gradients = 0.25 if quantized_gradients else 1.0
    cross = forward + (0.0 if hierarchical_partition else backward) + gradients
    return ZeroVolume(forward_all_gather=forward, backward_all_gather=backward,
                      gradient_reduction=gradients, cross_node=cross)


@dataclass(frozen=True)
class GradientCompression:
    """What a gradient compressor sends and how much it distorts.

    Attributes
    ----------
    method : str
        ``"quantize"`` or ``"top-k"``.
    bytes_sent : float
        Bytes on the wire for the whole gradient [B].
    compression_ratio : float
        Uncompressed 16-bit bytes over ``bytes_sent`` [-].
    relative_error : float
        :math:`\\lVert g - \\hat g\\rVert / \\lVert g\\rVert` on the gradient given [-].
    """

    method: str
    bytes_sent: float
    compression_ratio: float
    relative_error: float


def gradient_compression(gradient, method, *, bits=8, fraction=0.01, index_bytes=4, value_bytes=2,
                         block_size=None, rng=None) -> GradientCompression:
    """Volume and error of quantizing or sparsifying a gradient.

    ``"quantize"``: stochastic rounding to ``bits`` bits on a uniform grid over
    [-max|g|, max|g|] (unbiased; error variance at most :math:`\\Delta^2/4`
    with step :math:`\\Delta = 2\\max|g|/(2^{bits}-1)`), plus one 4-byte scale.
    With ``block_size`` each block of that many entries gets its own scale
    (its own max|g|), as ZeRO++ quantizes (Wang et al. 2023, §4.1): one large
    entry then coarsens only its block's grid, for 4 more bytes per block.

    ``"top-k"``: keep the ``fraction`` of entries largest in magnitude, sending
    each value and its index; the rest are dropped (error = the dropped norm).

    Parameters
    ----------
    gradient : array_like
        The gradient to compress (any shape) [-].
    method : {"quantize", "top-k"}
        Compressor.
    bits : int
        Bits per value for ``"quantize"``, 1 to 16.
    fraction : float
        Share of entries kept by ``"top-k"``, in (0, 1].
    index_bytes, value_bytes : int
        Bytes per index and per kept value for ``"top-k"`` [B].
    block_size : int, optional
        Entries per quantization block for ``"quantize"``; one scale for the
        whole gradient if omitted.
    rng : numpy.random.Generator or int, optional
        Randomness for stochastic rounding.

    Returns
    -------
    GradientCompression

    Examples
    --------
    >>> g = np.random.default_rng(0).standard_normal(100_000)
    >>> q = gradient_compression(g, "quantize", bits=4, rng=1)
    >>> q.compression_ratio > 3.9, 0.05 < q.relative_error < 0.5
    (True, True)
    >>> round(gradient_compression(g, "top-k", fraction=0.01).compression_ratio, 1)
    33.3

    Blocks help most when a few entries are far larger than the rest:

    >>> heavy = np.random.default_rng(0).standard_t(3, 100_000)
    >>> whole = gradient_compression(heavy, "quantize", bits=4, rng=1)
    >>> blocks = gradient_compression(heavy, "quantize", bits=4, block_size=256, rng=1)
    >>> bool(blocks.relative_error < whole.relative_error / 3), round(blocks.compression_ratio, 2)
    (True, 3.88)
    """
    check_choice("compression method", method, ("quantize", "top-k"))
    g = np.asarray(gradient, dtype=float).ravel()
    if g.size == 0 or not np.all(np.isfinite(g)) or np.max(np.abs(g)) > 1e150:
        raise ValueError("gradient must be a non-empty array of finite numbers of magnitude at most 1e150 "
                         "(whose squares are finite)")
    dense_bytes = 2.0 * g.size
    norm = float(np.linalg.norm(g))
    if method == "quantize":
        approx, sent = _quantized(g, bits, block_size, rng)
    else:
        approx, sent = _top_k(g, fraction, index_bytes, value_bytes)
    error = float(np.linalg.norm(g - approx) / norm) if norm > 0 else 0.0
    return GradientCompression(method=method, bytes_sent=float(sent),
                               compression_ratio=dense_bytes / sent, relative_error=error)


def _quantized(g, bits, block_size, rng):
    """Stochastic rounding of ``g`` to ``bits`` bits, one scale per block: (what arrives, bytes sent)."""
    bits = check_integer("bits", bits, minimum=1, maximum=16)
    rng = np.random.default_rng(rng)
    levels = 2 ** bits - 1
    if block_size is None:
        scales, blocks = np.full(g.size, float(np.max(np.abs(g)))), 1
    else:
        block = check_integer("block_size", block_size, minimum=1)
        blocks = -(-g.size // block)
        padded = np.zeros(blocks * block)
        padded[:g.size] = np.abs(g)
        scales = np.repeat(padded.reshape(blocks, block).max(axis=1), block)[:g.size]
    safe = np.where(scales > 0, scales, 1.0)
    grid = (g + safe) / (2 * safe) * levels
    low = np.floor(grid)
    rounded = low + (rng.random(g.size) < (grid - low))
    approx = np.where(scales > 0, rounded / levels * 2 * safe - safe, 0.0)
    return approx, g.size * bits / 8 + 4 * blocks


def _top_k(g, fraction, index_bytes, value_bytes):
    """The ``fraction`` of entries of ``g`` largest in magnitude, with their indices: (what arrives, bytes sent)."""
    fraction = check_number("fraction", fraction, minimum=0, maximum=1, min_inclusive=False)
    kept = max(1, int(round(fraction * g.size)))
    keep = np.argpartition(np.abs(g), g.size - kept)[g.size - kept:]
    approx = np.zeros_like(g)
    approx[keep] = g[keep]
    return approx, kept * (check_integer("index_bytes", index_bytes, minimum=0, unit="B")
                           + check_integer("value_bytes", value_bytes, minimum=1, unit="B"))
