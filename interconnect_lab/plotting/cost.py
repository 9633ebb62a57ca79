"""Figures for cluster cost (chapter 10): where the money goes, and the network's share."""

from __future__ import annotations

import numpy as np

from ..cost import BREAKDOWN_PARTS
from ..published import NETWORK_COST_SHARES
from ..units import MUSD
from .style import COLORS, PALETTE, legend_below, new_figure, styled

__all__ = ["cost_breakdown_plot", "network_share_plot", "PART_COLORS"]

#: One colour per part of a cost breakdown.
PART_COLORS = {
    "compute": COLORS["compute"],
    "NICs": PALETTE["sky"],
    "switches": PALETTE["vermillion"],
    "transceivers": PALETTE["orange"],
    "cables": PALETTE["purple"],
}


@styled
def cost_breakdown_plot(costs, *, labels=None, ax=None, per_gpu=False, title=None):
    """Stacked bars: each cluster's capital cost split into compute and network parts.

    Parameters
    ----------
    costs : sequence of ClusterCost
        Results of :func:`interconnect_lab.cost.cluster_cost`.
    labels : sequence of str, optional
        One label per bar; by default the GPU count.
    ax : matplotlib.axes.Axes, optional
        Axes to draw on; a new figure is made if omitted.
    per_gpu : bool
        Show cost per GPU instead of the total.
    title : str, optional
        Title.

    Returns
    -------
    matplotlib.axes.Axes
    """
    costs = list(costs)
    if not costs:
        raise ValueError("cost_breakdown_plot needs at least one ClusterCost")
    if labels is None:
        labels = [f"{c.gpus:,} GPUs" for c in costs]
    if len(labels) != len(costs):
        raise ValueError(f"labels has {len(labels)} entries for {len(costs)} clusters")
    if ax is None:
        _, ax = new_figure(7.0, 1.7 + 0.55 * len(costs))
    scale = np.array([c.gpus if per_gpu else 1.0 for c in costs]) * (1.0 if per_gpu else MUSD)
    y = np.arange(len(costs))[::-1]
    left = np.zeros(len(costs))
    for part in BREAKDOWN_PARTS:
        values = np.array([c.breakdown_usd[part] for c in costs]) / scale
        if not values.any():
            continue
        ax.barh(y, values, left=left, height=0.6, color=PART_COLORS[part], label=part)
        left += values
    for yi, total, cost in zip(y, left, costs):
        ax.annotate(f"network {cost.network_fraction:.0%}", (total, yi), xytext=(4, 0),
                    textcoords="offset points", va="center", fontsize=9)
    ax.set_yticks(y, labels)
    ax.set_xlim(0, 1.18 * left.max())
    ax.set_xlabel("capital cost per GPU [USD]" if per_gpu else "capital cost [million USD]")
    ax.grid(axis="y", visible=False)
    legend_below(ax, fontsize=9, ncols=5)
    if title is None:
        title = f"servers and compute fabric ({costs[0].price_book})"
    ax.set_title(title, loc="left", fontsize=10)
    return ax


@styled
def network_share_plot(costs, *, low=None, high=None, estimates=NETWORK_COST_SHARES,
                       claim=(0.15, 0.30), ax=None, title=None):
    """The network's share of capital cost against cluster size, with published estimates.

    Parameters
    ----------
    costs : sequence of ClusterCost
        Central estimates at growing GPU counts.
    low, high : sequence of ClusterCost, optional
        The same sizes at the ends of the price ranges (e.g. the ``"low network share"``
        and ``"high network share"`` estimates); shaded between.
    estimates : sequence of CostShareEstimate
        Published shares drawn as horizontal lines (a range as a band).
    claim : (float, float) or None
        A claimed range to shade, e.g. the seed article's 15 to 30 %.
    ax : matplotlib.axes.Axes, optional
        Axes to draw on; a new figure is made if omitted.
    title : str, optional
        Title.

    Returns
    -------
    matplotlib.axes.Axes
    """
    costs = sorted(costs, key=lambda c: c.gpus)
    if not costs:
        raise ValueError("network_share_plot needs at least one ClusterCost")
    if ax is None:
        _, ax = new_figure(7.0, 5.6)
    gpus = np.array([c.gpus for c in costs])
    if claim is not None:
        ax.axhspan(*claim, color=PALETTE["yellow"], alpha=0.25, lw=0,
                   label=f"claimed {claim[0]:.0%} to {claim[1]:.0%}")
    if low is not None and high is not None:
        lo = sorted(low, key=lambda c: c.gpus)
        hi = sorted(high, key=lambda c: c.gpus)
        ax.fill_between([c.gpus for c in lo], [c.interconnect_fraction for c in lo],
                        [c.interconnect_fraction for c in hi], step="post",
                        color=COLORS["communication"], alpha=0.15, lw=0,
                        label="model, over the price ranges")
    ax.step(gpus, [c.interconnect_fraction for c in costs], where="post",
            color=COLORS["communication"], lw=2, label="model, central prices")
    styles = iter(["-", "--", ":", "-."])
    # Ranges overlap, so each gets its own hatch direction and colour; where two overlap
    # the hatches cross.
    hatches = iter([("//", PALETTE["grey"]), ("\\\\", PALETTE["blue"]), ("||", PALETTE["green"]),
                    ("--", PALETTE["purple"])])
    for estimate in estimates:
        style = next(styles, "-")
        if estimate.low == estimate.high:
            ax.axhline(estimate.low, color=PALETTE["black"], lw=1, ls=style, label=estimate.label)
        else:
            hatch, colour = next(hatches, ("xx", PALETTE["grey"]))
            ax.axhspan(estimate.low, estimate.high, facecolor="none", edgecolor=colour, hatch=hatch,
                       lw=0.8, ls=style,
                       label=f"{estimate.label}: {estimate.low:.0%} to {estimate.high:.0%}")
    ax.set_xscale("log")
    ax.set_ylim(0, max(0.35, 1.1 * max(c.interconnect_fraction for c in (high or costs))))
    ax.yaxis.set_major_formatter(lambda v, _: f"{v:.0%}")
    ax.set_xlabel("GPUs [-]")
    ax.set_ylabel("switches + optics + cables\nshare of capital cost [-]")
    legend_below(ax, fontsize=8, ncols=1)
    if title is None:
        title = f"network share of capital cost ({costs[0].price_book})"
    ax.set_title(title, loc="left", fontsize=10)
    return ax

