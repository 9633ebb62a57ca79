"""Figures for :mod:`interconnect_lab.matmul`: the sustained GEMM rate by shape (chapter 8)."""

from __future__ import annotations

import numpy as np

from .style import PALETTE, new_figure, styled

__all__ = ["gemm_shape_plot"]

#: One colour per GPU, in the order the GPUs are given.
_GPU_COLORS = (PALETTE["blue"], PALETTE["vermillion"], PALETTE["green"], PALETTE["orange"], PALETTE["purple"],
               PALETTE["sky"])

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
    for color, gpu in zip(_GPU_COLORS, gpus):
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
