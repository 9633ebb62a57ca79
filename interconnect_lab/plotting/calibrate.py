"""Figures for calibration (appendix *Measuring your own cluster*, chapter 7): a measured
nccl-tests sweep against the collective model for its machine and the fitted lines, with the
ratio, what the model says NCCL runs and the regimes of the fit."""

from __future__ import annotations

import math
import textwrap

import numpy as np
from matplotlib.ticker import FixedLocator, FuncFormatter, LogLocator, NullFormatter, NullLocator
from matplotlib.transforms import blended_transform_factory

from .. import units as u
from ..units import format_bytes
from .style import PALETTE, new_figure, styled

__all__ = ["calibration_plot", "REGIME_COLORS"]

#: Shade of each regime's size range (light, so the data stays readable).
REGIME_COLORS = {"latency-bound": PALETTE["sky"], "protocol-bound": PALETTE["yellow"],
                 "bandwidth-bound": PALETTE["green"]}


def _size_axis(ax, label=True, every_decade=False):
    ax.set_xscale("log")
    ax.xaxis.set_major_locator(LogLocator(base=10, numticks=20))
    ax.xaxis.set_major_formatter(FuncFormatter(
        lambda x, _: format_bytes(x, digits=3) if x >= 1 and (every_decade or math.log10(x) % 3 == 0) else ""))
    ax.xaxis.set_minor_formatter(NullFormatter())
    if label:
        ax.set_xlabel("message size S [B]")


def _regime_spans(ax, sizes, regimes):
    """Shade contiguous runs of one regime, edges halfway (geometrically) between sizes."""
    edges = np.sqrt(sizes[1:] * sizes[:-1])
    lower = np.concatenate([[sizes[0] / 1.4], edges])
    upper = np.concatenate([edges, [sizes[-1] * 1.4]])
    start = 0
    for i in range(1, len(regimes) + 1):
        if i == len(regimes) or regimes[i] != regimes[start]:
            ax.axvspan(lower[start], upper[i - 1], color=REGIME_COLORS[regimes[start]], alpha=0.15,
                       linewidth=0, zorder=0)
            start = i


def _model_labels(ax, sizes, comparison):
    """Name what the model runs ('tree/LL128') over each run of sizes where it does not change,
    along the top of ``ax``, with a dotted line where it changes."""
    pairs = [f"{a}/{p}" for a, p in zip(comparison.algorithm, comparison.protocol)]
    where = blended_transform_factory(ax.transData, ax.transAxes)
    start = 0
    for i in range(1, len(pairs) + 1):
        if i == len(pairs) or pairs[i] != pairs[start]:
            middle = float(np.sqrt(sizes[start] * sizes[i - 1]))
            ax.text(middle, 0.9, pairs[start], transform=where, ha="center", va="center", fontsize=7,
                    color=PALETTE["vermillion"])
            if start > 0:
                ax.axvline(float(np.sqrt(sizes[start - 1] * sizes[start])), color=PALETTE["vermillion"],
                           linewidth=0.8, linestyle=":")
            start = i


@styled
def calibration_plot(comparison, *, fit=None, axes=None, title=None):
    """Measured busbw against the collective model and the fitted lines, and their ratio.

    Top: busbw against message size (log x): measured points, the model's
    prediction for the machine, labelled with the algorithm and protocol it
    says NCCL runs, and the fitted α-β lines (if ``fit`` is given). Bottom:
    measured over predicted, with the band of ±10 %. The background shades
    each size's regime in the fit (latency-bound, protocol-bound,
    bandwidth-bound).

    Parameters
    ----------
    comparison : interconnect_lab.calibrate.ModelComparison
        From :func:`interconnect_lab.calibrate.comparison.compare_with_model` (the deprecated
        α-β comparison, which names its regimes, is drawn too).
    fit : interconnect_lab.calibrate.CollectiveFit, optional
        Draw its lines and shade its regimes.
    axes : (Axes, Axes), optional
        Two axes to draw on (busbw, ratio); a new figure is made if omitted.
    title : str, optional
        Title of the top axes.

    Returns
    -------
    matplotlib.figure.Figure
    """
    if axes is None:
        figure, axes = new_figure(7.5, 5.2, nrows=2, sharex=True,
                                  gridspec_kw={"height_ratios": [2.2, 1.0]})
    top, bottom = axes
    figure = top.figure
    sizes = np.asarray(comparison.size_bytes, dtype=float)
    regimes = tuple(fit.regime(sizes)) if fit is not None else tuple(getattr(comparison, "regime", ()))
    if regimes:
        for ax in (top, bottom):
            _regime_spans(ax, sizes, regimes)
    dense = np.logspace(np.log10(sizes[0]), np.log10(sizes[-1]), 200) if len(sizes) > 1 else sizes
    top.plot(sizes, comparison.predicted_bus_bandwidth_bytes_per_s / u.GB_per_s, color=PALETTE["vermillion"],
             linewidth=2, marker="s" if len(sizes) == 1 else None, label=comparison.prediction_label)
    if fit is not None:
        fitted = (f"fit: {len(fit.segments)} α-β line(s)" if fit.latency_s is not None
                  else "fit: bandwidth only (plateau sizes)")
        top.plot(dense, fit.predicted_bus_bandwidth_bytes_per_s(dense) / u.GB_per_s, color=PALETTE["black"],
                 linewidth=1.2, linestyle="--", label=fitted)
    top.plot(sizes, comparison.measured_bus_bandwidth_bytes_per_s / u.GB_per_s, marker="o", linestyle="none",
             markersize=5, markerfacecolor="white", markeredgewidth=1.5, color=PALETTE["blue"],
             label="measured (nccl-tests)")
    for name, color in REGIME_COLORS.items():
        if name in regimes:
            top.plot([], [], color=color, alpha=0.4, linewidth=8, label=name)
    top.set_ylabel("bus bandwidth [GB/s]")
    peak = max(float(np.max(comparison.measured_bus_bandwidth_bytes_per_s)),
               float(np.max(comparison.predicted_bus_bandwidth_bytes_per_s))) / u.GB_per_s
    top.set_ylim(0, 1.15 * peak)

    top.legend(loc="upper left", fontsize=8)
    top.set_title("\n".join(textwrap.wrap(title or comparison.label, 80)), loc="left", fontsize=9)
    bottom.axhspan(0.9, 1.1, color=PALETTE["grey"], alpha=0.15, linewidth=0)
    bottom.axhline(1.0, color=PALETTE["grey"], linewidth=1)
    bottom.plot(sizes, comparison.ratio, marker="o", markersize=4, color=PALETTE["blue"], linewidth=1)
    bottom.set_yscale("log")
    low = min(0.5, float(np.min(comparison.ratio)) / 1.2)
    high = max(2.0, float(np.max(comparison.ratio)) * 1.2)
    bottom.set_ylim(low, high)
    ticks = [t for t in (0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0, 20.0) if low <= t <= high]
    bottom.yaxis.set_major_locator(FixedLocator(ticks))
    bottom.yaxis.set_major_formatter(FuncFormatter(lambda y, _: f"{y:g}"))
    bottom.yaxis.set_minor_locator(NullLocator())
    bottom.yaxis.set_minor_formatter(NullFormatter())
    bottom.set_ylabel("measured / predicted [-]\n(log scale; shaded: ±10%)")
    if hasattr(comparison, "algorithm"):
        _model_labels(bottom, sizes, comparison)
    # A vendor's sweep may hold one or two plateau sizes: widen the axis so a decade shows.
    if sizes[-1] / sizes[0] < 10:
        middle = float(np.sqrt(sizes[0] * sizes[-1]))
        for ax in (top, bottom):
            ax.set_xlim(middle / 4, middle * 4)
    narrow = sizes[-1] / sizes[0] < 1e3
    _size_axis(top, label=False, every_decade=narrow)
    _size_axis(bottom, every_decade=narrow)
    return figure
