"""Figures for topologies beyond the fat tree (chapter 13) and the next scale-up fabrics (chapter 14).

- :func:`topology_comparison_plot` — hops, bisection and cost per host port of each design;
- :func:`dragonfly_plot` — a small dragonfly's groups, routers and global links;
- :func:`scale_up_plot` — each scale-up fabric's bandwidth per accelerator and domain size,
  marked shipping or not;
- :func:`fat_tree_reach_plot` — hosts in two and three tiers as a switch chip's ports are split;
- :func:`topology_flow_plot` — flow completion times of one traffic pattern on several topologies.
"""

from __future__ import annotations

import numpy as np
from matplotlib.patches import Patch

from ..units import GB_per_s, Gbit_per_s, us
from .style import PALETTE, new_figure, styled

__all__ = ["FAMILY_COLORS", "STATUS_HATCHES", "topology_comparison_plot", "dragonfly_plot", "scale_up_plot",
           "fat_tree_reach_plot", "topology_flow_plot"]

#: One colour per topology family, shared by every figure of chapter 13.
FAMILY_COLORS = {
    "fat tree": PALETTE["blue"],
    "rail-optimized fat tree": PALETTE["sky"],
    "rail-only": PALETTE["green"],
    "dragonfly": PALETTE["vermillion"],
    "direct-connect": PALETTE["purple"],
    "torus": PALETTE["black"],          # not orange: next to the dragonfly's vermillion the two look alike
}

_FAMILY_LABELS = {"rail-optimized fat tree": "rail-optimized"}

#: Bars of what cannot be bought yet are hatched.
STATUS_HATCHES = {"shipping": "", "announced": "//", "specification": "xx", "in development": ".."}


def _short(name, width=26):
    return name if len(name) <= width else name[: width - 1] + "…"


@styled
def topology_comparison_plot(comparison, *, title=None):
    """Three bar charts, one bar per design: diameter in hops, bisection ratio, cost per host port.

    Parameters
    ----------
    comparison : interconnect_lab.topology.TopologyComparison
    title : str, optional

    Returns
    -------
    matplotlib.figure.Figure
    """
    summaries, costs = comparison.summaries, comparison.cost_per_host_usd
    figure, axes = new_figure(9.5, 3.6, ncols=3, sharey=True)
    y = np.arange(len(summaries))[::-1]
    colors = [FAMILY_COLORS.get(s.family, PALETTE["grey"]) for s in summaries]
    values = ([s.diameter_hops for s in summaries], [s.bisection_ratio for s in summaries],
              [c / 1e3 for c in costs])
    labels = ("diameter [hops]", "bisection / half the ports [-]", "cost per host port [kUSD]")
    for ax, data, label in zip(axes, values, labels):
        ax.barh(y, data, color=colors, height=0.7)
        for yi, v in zip(y, data):
            ax.text(v, yi, f" {v:.3g}", va="center", fontsize=8)
        ax.set_xlabel(label, fontsize=9)
        ax.set_xlim(0, max(data) * 1.3 if max(data) > 0 else 1)
        ax.grid(axis="y", visible=False)
    axes[1].axvline(0.5, color=PALETTE["grey"], ls="--", lw=1)
    axes[1].axvline(1.0, color=PALETTE["black"], ls=":", lw=1)
    axes[0].set_yticks(y, [f"{_FAMILY_LABELS.get(s.family, s.family)}\n{s.hosts:,} hosts" for s in summaries],
                       fontsize=8)
    figure.suptitle(title or f"About {min(s.hosts for s in summaries):,} hosts, one design per row",
                    fontsize=11, x=0.02, ha="left")
    return figure


@styled
def dragonfly_plot(dragonfly, *, ax=None, title=None):
    """A small dragonfly: groups on a circle, each a ring of routers, every global link drawn.

    Parameters
    ----------
    dragonfly : interconnect_lab.topology.Dragonfly
        At most 24 groups of at most 16 routers (larger ones are unreadable).
    ax : matplotlib.axes.Axes, optional
    title : str, optional

    Returns
    -------
    matplotlib.axes.Axes
    """
    g, a, h = dragonfly.groups, dragonfly.routers_per_group, dragonfly.global_links_per_router
    if g > 24 or a > 16:
        raise ValueError(f"dragonfly has {g} groups of {a} routers: draw at most 24 groups of 16 routers")
    if ax is None:
        _, ax = new_figure(5.0, 5.0)
    angle = 2 * np.pi * np.arange(g) / g
    centres = np.column_stack((np.cos(angle), np.sin(angle)))
    radius = 0.55 * np.sin(np.pi / g) if g > 2 else 0.3
    positions = np.zeros((g, a, 2))
    for i in range(g):
        inner = angle[i] + np.pi + 2 * np.pi * np.arange(a) / a
        positions[i] = centres[i] + radius * np.column_stack((np.cos(inner), np.sin(inner)))
    t = dragonfly.links_per_group_pair
    for i in range(g):
        for j in range(i + 1, g):
            for m in range(t):
                ri = (((j - i - 1) % g) + m * (g - 1)) // h
                rj = (((i - j - 1) % g) + m * (g - 1)) // h
                p, q = positions[i, ri], positions[j, rj]
                ax.plot([p[0], q[0]], [p[1], q[1]], color=PALETTE["vermillion"], lw=0.6, alpha=0.6)
    for i in range(g):
        pts = positions[i]
        for r1 in range(a):
            for r2 in range(r1 + 1, a):
                ax.plot(*zip(pts[r1], pts[r2]), color=PALETTE["blue"], lw=0.5, alpha=0.5)
        ax.plot(pts[:, 0], pts[:, 1], "o", color=PALETTE["black"], ms=4)
    ax.plot([], [], color=PALETTE["blue"], label="local links (inside a group)")
    ax.plot([], [], color=PALETTE["vermillion"], label="global links (between groups)")
    ax.plot([], [], "o", color=PALETTE["black"], label="routers")
    ax.set_aspect("equal")
    ax.axis("off")
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, 0.0), ncols=1, fontsize=9)
    ax.set_title(title or f"Dragonfly: {g} groups of {a} routers, {dragonfly.hosts} terminals", fontsize=10)
    return ax


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


#: Line of the first, second and further runs of one family in :func:`topology_flow_plot`.
_FLOW_STYLES = ("-", (0, (4, 2.5)), (0, (1, 1.5)))


@styled
def topology_flow_plot(results, *, ax=None, title=None):
    """Flow completion times (a CDF per run), coloured by topology and dashed by routing.

    Parameters
    ----------
    results : mapping of str to FlowResult
        Label → result; a label starts with its family (``"fat tree, ECMP"``,
        ``"dragonfly, Valiant"``, ``"torus, dimension order"``). The first run
        of each family is drawn solid, the next dashed, then dotted; dashed and
        dotted lines lie on top, so a line that coincides with another shows both.
    ax : matplotlib.axes.Axes, optional
    title : str, optional

    Returns
    -------
    matplotlib.axes.Axes
    """
    results = dict(results)
    if not results:
        raise ValueError("results must map at least one label to a FlowResult")
    if ax is None:
        _, ax = new_figure(8.0, 3.6)
    longest = max(r.completion_time_s for r in results.values())
    seen = {}
    for label, result in results.items():
        family = next((f for f in FAMILY_COLORS if label.startswith(f)), None)
        color = FAMILY_COLORS.get(family, PALETTE["grey"])
        rank = min(seen.get(family, 0), 2)
        seen[family] = seen.get(family, 0) + 1
        times = np.sort(result.completion_times_s[result.foreground]) / 1e-3
        share = np.arange(1, times.size + 1) / times.size
        # Completion times come in steps of one flow's ideal time, so runs often share a vertical
        # segment: solid lines lie underneath and dashed, then dotted ones on top, so that where
        # two coincide the upper one's gaps show the lower one's colour.
        ax.step(np.concatenate(([0.0], times)), np.concatenate(([0.0], share)), where="post", color=color,
                linestyle=_FLOW_STYLES[rank], lw=2, zorder=2 + rank,
                label=f"{label}\n(last at {result.completion_time_s / 1e-3:.3g} ms)")
    ax.set_xlim(0, 1.05 * longest / 1e-3)
    ax.set_ylim(0, 1.02)
    ax.set_xlabel("flow completion time [ms]")
    ax.set_ylabel("share of flows finished [-]")
    # Beside the axes, where no curve can run through it.
    ax.legend(loc="upper left", bbox_to_anchor=(1.02, 1.0), borderaxespad=0.0, fontsize=8, labelspacing=0.9,
              handlelength=2.6)
    if title:
        ax.set_title(title, loc="left", fontsize=10)
    return ax
