"""Figures for the model against published runs (chapter 8): GEMM rate by shape, attention
kernels by sequence length, the fidelity table."""

from __future__ import annotations

import numpy as np

from .style import PALETTE, new_figure, styled

__all__ = ["gemm_shape_plot", "attention_share_plot", "fidelity_plot"]

_ORGANISATION_COLORS = (PALETTE["blue"], PALETTE["vermillion"], PALETTE["green"], PALETTE["orange"],
                        PALETTE["purple"], PALETTE["sky"])
_GPU_MARKERS = ("o", "s", "^", "D")


@styled
def gemm_shape_plot(gpus, measurements, *, sustained=1.0, ax=None):
    """Sustained rate of square GEMMs against their size, modelled per GPU, with measured points.

    Parameters
    ----------
    gpus : sequence of interconnect_lab.catalog.GPU
        A model curve per GPU (its best measured matmul rate times the shape's efficiency).
    measurements : sequence of interconnect_lab.published.GemmMeasurement
        Measured GEMMs, drawn at the geometric mean of m, n and k.
    sustained : float
        Share of the best rate kept end to end (1 draws the kernel's own rate) [-].
    ax : matplotlib.axes.Axes, optional
        Axes to draw on; a new figure is made if omitted.

    Returns
    -------
    matplotlib.axes.Axes
    """
    from .. import matmul

    if ax is None:
        _, ax = new_figure(8.5, 3.6)
    sizes = np.unique(np.round(np.geomspace(512, 32768, 200) / 64) * 64)
    for color, gpu in zip(_ORGANISATION_COLORS, gpus):
        rate = matmul.gemm_rate(gpu, sizes, sizes, sizes, sustained=sustained)
        ax.plot(sizes, rate / 1e12, color=color, label=f"model, {gpu.name} (square)")
        shown = [g for g in measurements if g.gpu == gpu.name]
        if shown:
            size = np.cbrt([float(g.m) * g.n * g.k for g in shown])
            where = sorted({g.measured_on or gpu.name for g in shown})
            ax.scatter(size, [g.flop_per_s / 1e12 for g in shown], color=color, edgecolor="black",
                       zorder=3, label=f"measured, {', '.join(where)}"
                       + ("" if where == [gpu.name] else f" (for the {gpu.name})"))
            modelled = [matmul.gemm_rate(gpu, g.m, g.n, g.k, sustained=sustained) / 1e12 for g in shown]
            ax.scatter(size, modelled, marker="x", color=color, zorder=3, label=f"model, {gpu.name}, measured shapes")
    ax.set_xscale("log", base=2)
    ax.set_xlabel("GEMM size: geometric mean of m, n and k [elements]")
    ax.set_ylabel("sustained rate [TFLOP/s]")
    ax.set_ylim(bottom=0)
    ax.legend(loc="center left", bbox_to_anchor=(1.01, 0.5), fontsize=8)
    return ax


@styled
def attention_share_plot(gpu="H100 SXM", kernels=("FlashAttention-2", "cuDNN", "FlashAttention-3"), *,
                         head_dim=128, ax=None):
    """Share of a GPU's peak each attention kernel reaches against the sequence length, per pass.

    Parameters
    ----------
    gpu : str
        A catalog GPU.
    kernels : sequence of str
        Names in ``training.ATTENTION_KERNELS``; one colour each, the forward pass solid and the
        backward pass dashed. Kernels without a share on ``gpu`` are left out.
    head_dim : int
        Dimension of one attention head.
    ax : matplotlib.axes.Axes, optional
        Axes to draw on; a new figure is made if omitted.

    Returns
    -------
    matplotlib.axes.Axes
    """
    from .. import training

    if ax is None:
        _, ax = new_figure(8.5, 3.4)
    lengths = np.geomspace(256, 131072, 120)
    measured = np.array(training.ATTENTION_BENCHMARK_LENGTHS, dtype=float)
    for color, kernel in zip(_ORGANISATION_COLORS, kernels):
        share = training.attention_share(kernel, gpu, lengths, head_dim)
        if share is None:
            continue
        at_points = training.attention_share(kernel, gpu, measured, head_dim)
        forward, backward = (np.broadcast_to(part, lengths.shape) for part in share)
        ax.plot(lengths, 100 * forward, color=color, label=f"{kernel}, forward")
        ax.plot(lengths, 100 * backward, color=color, linestyle="--", label=f"{kernel}, backward")
        if np.ndim(at_points.forward):
            ax.scatter(measured, 100 * at_points.forward, color=color, edgecolor="black", zorder=3, s=18)
            ax.scatter(measured, 100 * at_points.backward, color=color, edgecolor="black", zorder=3, s=18,
                       marker="s")
    ax.set_xscale("log", base=2)
    ax.set_xlabel("sequence length: keys per kernel call [tokens]")
    ax.set_ylabel(f"share of the {gpu}'s BF16 peak [%]")
    ax.set_ylim(0, 100)
    ax.legend(loc="center left", bbox_to_anchor=(1.01, 0.5), fontsize=8)
    return ax


@styled
def fidelity_plot(rows, *, ax=None, tolerance=0.10):
    """Predicted against published, one point per run, coloured by organisation, shaped by GPU.

    Parameters
    ----------
    rows : sequence of interconnect_lab.training.FidelityRow
        From :func:`interconnect_lab.training.fidelity_table`; MFU, TFLOP/s and tokens/s rows
        are all drawn as predicted over published.
    ax : matplotlib.axes.Axes, optional
        Axes to draw on; a new figure is made if omitted.
    tolerance : float
        Band drawn around parity [-].

    Returns
    -------
    matplotlib.axes.Axes
    """
    rows = list(rows)
    if not rows:
        raise ValueError("pass at least one FidelityRow")
    if ax is None:
        _, ax = new_figure(7.0, 3.8)
    organisations = sorted({row.run.organisation for row in rows})
    gpus = sorted({row.run.gpu for row in rows})
    if len(organisations) > len(_ORGANISATION_COLORS) or len(gpus) > len(_GPU_MARKERS):
        raise ValueError(f"at most {len(_ORGANISATION_COLORS)} organisations and {len(_GPU_MARKERS)} GPUs "
                         "fit the legend")
    order = np.argsort([row.error for row in rows])
    x = np.arange(len(rows))
    ax.axhspan(-100 * tolerance, 100 * tolerance, color=PALETTE["black"], alpha=0.08, linewidth=0,
               label=f"±{tolerance:.0%}")
    ax.axhline(0, color=PALETTE["black"], linewidth=0.8)
    for position, index in zip(x, order):
        row = rows[index]
        ax.scatter(position, 100 * row.error,
                   color=_ORGANISATION_COLORS[organisations.index(row.run.organisation)],
                   marker=_GPU_MARKERS[gpus.index(row.run.gpu)], edgecolor="black", zorder=3)
    for organisation, color in zip(organisations, _ORGANISATION_COLORS):
        ax.scatter([], [], color=color, edgecolor="black", label=organisation)
    for gpu, marker in zip(gpus, _GPU_MARKERS):
        ax.scatter([], [], color="white", edgecolor="black", marker=marker, label=gpu)
    ax.set_xticks([])
    ax.set_xlabel("published runs, sorted by the model's error")
    ax.set_ylabel("model against published [%]")
    ax.legend(loc="upper left", fontsize=8, ncols=2)
    return ax
