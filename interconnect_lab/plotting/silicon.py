"""Figures for :mod:`interconnect_lab.silicon` (chapter 10): chip yield against area."""

from __future__ import annotations

import numpy as np

from .style import COLORS, PALETTE, new_figure, styled

__all__ = ["yield_plot"]

@styled
def yield_plot(areas_m2, curves, *, marks=(), ax=None, title=None):
    """Chip yield against chip area for several designs.

    Parameters
    ----------
    areas_m2 : array_like
        Chip areas [m^2].
    curves : sequence of (str, array_like)
        ``(label, yields)``, one yield per area.
    marks : sequence of (str, float)
        ``(label, area_m2)`` vertical reference lines (a reticle-sized die, a wafer).
    ax : matplotlib.axes.Axes, optional
    title : str, optional

    Returns
    -------
    matplotlib.axes.Axes
    """
    areas = np.asarray(areas_m2, dtype=float) / 1e-6
    if ax is None:
        _, ax = new_figure(7.5, 4.6)
    colours = [PALETTE["black"], COLORS["communication"], COLORS["compute"], PALETTE["green"], PALETTE["purple"]]
    styles = ["-", "--", "-", ":", "-."]
    for (label, yields), colour, style in zip(curves, colours, styles):
        ax.plot(areas, np.asarray(yields, dtype=float), style, color=colour, lw=2, label=label)
    for label, area in marks:
        ax.axvline(area / 1e-6, color=PALETTE["grey"], lw=1, ls=":")
        ax.annotate(label, (area / 1e-6, 1.02), rotation=0, fontsize=8, ha="center", va="bottom",
                    xycoords=("data", "axes fraction"))
    ax.set_xscale("log")
    ax.set_ylim(0, 1.05)
    ax.yaxis.set_major_formatter(lambda v, _: f"{v:.0%}")
    ax.set_xlabel("chip area [mm²]")
    ax.set_ylabel("chips that work [-]")
    ax.legend(loc="lower left", fontsize=8.5)
    if title:
        ax.set_title(title, loc="left", fontsize=10, pad=16)
    return ax
