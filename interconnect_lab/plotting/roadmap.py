"""Figures for the next scale-up fabrics and switch chips (chapter 14), from :mod:`interconnect_lab.roadmap`.

- :func:`scale_up_plot` — each scale-up fabric's bandwidth per accelerator and the time of
  one all-reduce, marked shipping or not;
- :func:`fat_tree_reach_plot` — hosts in two and three tiers as a switch chip's ports are split.
"""

from __future__ import annotations

import numpy as np
from matplotlib.patches import Patch

from ..units import GB_per_s, Gbit_per_s, us
from .style import PALETTE, new_figure, styled

__all__ = ["STATUS_HATCHES", "scale_up_plot", "fat_tree_reach_plot"]

#: Bars of what cannot be bought yet are hatched.
STATUS_HATCHES = {"shipping": "", "sampling": "\\\\", "announced": "//", "specification": "xx", "in development": ".."}


def _short(name, width=26):
    return name if len(name) <= width else name[: width - 1] + "…"


@styled
def scale_up_plot(rows, *, title=None):
    """Two bar charts per scale-up fabric: bandwidth per accelerator and the time of one all-reduce.

    Bars of fabrics not yet shipping are hatched.

    Parameters
    ----------
    rows : list of interconnect_lab.roadmap.ScaleUpRow
    title : str, optional

    Returns
    -------
    matplotlib.figure.Figure
    """
    figure, axes = new_figure(9.0, 3.8, ncols=2, sharey=True)
    y = np.arange(len(rows))[::-1]
    for ax, values, label in (
            (axes[0], [r.per_accelerator_bytes_per_s / GB_per_s for r in rows],
             "bandwidth one accelerator sends at once [GB/s, one direction]"),
            (axes[1], [r.all_reduce_s / us for r in rows], "all-reduce time [µs]")):
        for yi, v, r in zip(y, values, rows):
            ax.barh(yi, v, height=0.7, color=PALETTE["blue"] if r.fabric.status == "shipping" else PALETTE["sky"],
                    hatch=STATUS_HATCHES[r.fabric.status], edgecolor=PALETTE["black"], lw=0.5)
            ax.text(v, yi, f" {v:,.0f}", va="center", fontsize=8)
        ax.set_xlabel(label, fontsize=9)
        ax.set_xlim(0, max(values) * 1.3)
        ax.grid(axis="y", visible=False)
    axes[0].set_yticks(y, [f"{_short(r.fabric.name, 44)} [{r.group}]" for r in rows], fontsize=8)
    # One legend entry per status the bars show, with the hatch each is drawn with.
    statuses = list(dict.fromkeys(r.fabric.status for r in rows))
    handles = [Patch(facecolor=PALETTE["blue"] if status == "shipping" else PALETTE["sky"],
                     hatch=STATUS_HATCHES[status], edgecolor=PALETTE["black"], lw=0.5, label=status)
               for status in sorted(statuses, key=list(STATUS_HATCHES).index)]
    figure.legend(handles=handles, loc="outside lower center", ncols=len(handles), fontsize=8)
    figure.suptitle(title or "Scale-up fabrics on one all-reduce (accelerators in brackets)", fontsize=11,
                    x=0.02, ha="left")
    return figure


@styled
def fat_tree_reach_plot(reaches, *, ax=None, title=None):
    """Hosts of a non-blocking fat tree in two and three tiers against the switch radix, with each chip marked.

    The curves are :math:`k^2/2` and :math:`k^3/4`; each point is one switch
    chip split into ports of one rate.

    Parameters
    ----------
    reaches : list of interconnect_lab.roadmap.FatTreeReach
    ax : matplotlib.axes.Axes, optional
    title : str, optional

    Returns
    -------
    matplotlib.axes.Axes
    """
    if ax is None:
        _, ax = new_figure(7.0, 3.8)
    radix = np.array([r.radix for r in reaches])
    k = np.geomspace(max(8, radix.min() / 2), radix.max() * 2, 60)
    ax.plot(k, k ** 2 / 2, color=PALETTE["blue"], lw=1.8, label="two tiers, $k^2/2$")
    ax.plot(k, k ** 3 / 4, color=PALETTE["green"], lw=1.8, label="three tiers, $k^3/4$")
    for i, r in enumerate(reaches):
        ax.plot([r.radix], [r.hosts_two_tiers], "o", color=PALETTE["blue"], ms=6)
        ax.plot([r.radix], [r.hosts_three_tiers], "s", color=PALETTE["green"], ms=6)
        rate = r.port_bytes_per_s / Gbit_per_s
        ax.annotate(f"{r.switch.split(' (')[0]}: {r.radix} x {rate:,.0f}G", (r.radix, r.hosts_two_tiers),
                    xytext=(6, -12 - 9 * (i % 2)), textcoords="offset points", fontsize=7)
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel("switch radix k (ports after the split) [-]")
    ax.set_ylabel("hosts (one port each) [-]")
    ax.legend(loc="upper left", fontsize=9)
    ax.set_title(title or "Fat-tree reach of a switch chip as its ports are split", loc="left", fontsize=10)
    return ax
