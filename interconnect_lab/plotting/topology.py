"""Figures for fat trees (chapter 5): a diagram of a small tree, switch counts against size,
the reach of a switch radix, and where a small message's latency goes."""

from __future__ import annotations

import textwrap

import numpy as np
from matplotlib.lines import Line2D

from ..topology import PathLatency, max_hosts
from ..units import us
from .style import PALETTE, legend_below, new_figure, styled

__all__ = ["fat_tree_plot", "switch_count_plot", "max_hosts_plot", "latency_breakdown_plot",
           "TIER_COLORS", "LATENCY_COLORS"]

#: One colour per tier, shared by the diagram and the count plot.
TIER_COLORS = {
    "host": PALETTE["grey"],
    "leaf": PALETTE["blue"],
    "spine": PALETTE["green"],
    "core": PALETTE["purple"],
}
_TIER_NAMES = ("leaf", "spine", "core")


def _spread(count, width=1.0):
    """``count`` positions spread evenly over [0, width]."""
    if count == 1:
        return np.array([width / 2])
    return np.linspace(0, width, count)


def _tree_edges(tree):
    """Edges (lower tier index, lower position, upper tier index, upper position, links)."""
    edges = []
    rails, down = tree.rails, tree.leaf_down_ports
    for host in range(tree.hosts):
        node, rail = divmod(host, rails)
        leaf = (node // down) * rails + rail if tree.tiers > 1 else 0
        edges.append((0, host, 1, leaf, 1))
    if tree.tiers >= 2:
        for leaf in range(tree.leaves):
            pod = leaf // tree.leaves_per_pod
            for s in range(tree.spines_per_pod):
                edges.append((1, leaf, 2, pod * tree.spines_per_pod + s, tree.leaf_spine_parallel_links))
    if tree.tiers == 3:
        for spine in range(tree.spines):
            group = spine % tree.spines_per_pod
            for c in range(tree.cores_per_group):
                edges.append((2, spine, 3, group * tree.cores_per_group + c,
                              tree.spine_core_parallel_links))
    return edges


@styled
def fat_tree_plot(tree, *, ax=None, max_switches=160, title=None):
    """Diagram of a small fat tree: hosts, leaves, spines and cores, with every link.

    Line width grows with the number of parallel links between two switches;
    hosts are coloured by rail in a rail-optimized tree.

    Parameters
    ----------
    tree : FatTree
        A result of :func:`interconnect_lab.topology.fat_tree`.
    ax : matplotlib.axes.Axes, optional
        Axes to draw on; a new figure is made if omitted.
    max_switches : int
        Largest tree drawn; a larger one raises ``ValueError`` (it would be a blur).
    title : str, optional
        Title; by default the tree's size and switch counts.

    Returns
    -------
    matplotlib.axes.Axes
    """
    if tree.switches > max_switches or tree.hosts > 8 * max_switches:
        raise ValueError(
            f"a tree of {tree.switches} switches and {tree.hosts} hosts is too large to draw: "
            f"draw one of at most {max_switches} switches (e.g. radix 4 or 8), or raise max_switches")
    if ax is None:
        _, ax = new_figure(7.5, 4.0)
    counts = (tree.hosts,) + tree.switches_per_tier
    x = [_spread(n) for n in counts]
    rail_colours = [PALETTE[c] for c in ("blue", "vermillion", "green", "orange", "sky",
                                         "purple", "black", "yellow")]
    for lower, i, upper, j, links in _tree_edges(tree):
        ax.plot([x[lower][i], x[upper][j]], [lower, upper], color=PALETTE["grey"],
                lw=0.4 + 0.5 * (links - 1), alpha=0.6, zorder=1)
    host_colours = ([rail_colours[h % tree.rails % len(rail_colours)] for h in range(tree.hosts)]
                    if tree.rails > 1 else TIER_COLORS["host"])
    ax.scatter(x[0], np.zeros(tree.hosts), s=12, c=host_colours, zorder=2, label="hosts")
    for level, name in enumerate(_TIER_NAMES[: tree.tiers], start=1):
        ax.scatter(x[level], np.full(counts[level], level), marker="s", s=60,
                   color=TIER_COLORS[name], edgecolor="white", zorder=3,
                   label=f"{name} switches ({counts[level]})")
    ax.set_yticks(range(tree.tiers + 1), ["hosts"] + [f"{n}" for n in _TIER_NAMES[: tree.tiers]])
    ax.set_xticks([])
    ax.set_ylim(-0.4, tree.tiers + 0.6)
    ax.grid(False)
    for side in ("left", "bottom"):
        ax.spines[side].set_visible(False)
    ax.legend(loc="upper right", fontsize=8, ncols=min(4, tree.tiers + 1))
    if title is None:
        title = (f"{tree.tiers}-tier fat tree of radix-{tree.radix} switches: {tree.hosts} hosts, "
                 f"{tree.switches} switches, {tree.cables} links")
        if tree.rails > 1:
            title += f", {tree.rails} rails"
    ax.set_title(title, loc="left", fontsize=10)
    return ax


@styled
def switch_count_plot(trees, *, ax=None, title=None):
    """Switches per tier against hosts, for trees built over a range of sizes.

    Parameters
    ----------
    trees : sequence of FatTree
        Trees of one design (radix, oversubscription, rails) at growing host counts.
    ax : matplotlib.axes.Axes, optional
        Axes to draw on; a new figure is made if omitted.
    title : str, optional
        Title; by default the design.

    Returns
    -------
    matplotlib.axes.Axes
    """
    trees = sorted(trees, key=lambda t: t.hosts)
    if not trees:
        raise ValueError("switch_count_plot needs at least one tree")
    if ax is None:
        _, ax = new_figure(7.0, 3.5)
    hosts = np.array([t.hosts for t in trees])
    per_tier = np.array([[t.leaves, t.spines, t.cores] for t in trees], dtype=float)
    ax.stackplot(hosts, per_tier.T, labels=[f"{n} switches" for n in _TIER_NAMES],
                 colors=[TIER_COLORS[n] for n in _TIER_NAMES], step="post", alpha=0.85)
    top = per_tier.sum(axis=1).max()
    for t_prev, t in zip(trees, trees[1:]):
        if t.tiers != t_prev.tiers:
            ax.axvline(t.hosts, color=PALETTE["black"], lw=0.8, ls="--")
            ax.annotate(f"{t.tiers} tiers from {t.hosts:,} hosts", (t.hosts, top), xytext=(4, -12),
                        textcoords="offset points", fontsize=9)
    ax.set_xscale("log")
    ax.set_xlabel("hosts (GPU network ports) [-]")
    ax.set_ylabel("switches [-]")
    ax.legend(loc="upper left")
    if title is None:
        first = trees[0]
        title = f"radix {first.radix}, oversubscription {first.oversubscription:g}:1"
        if first.rails > 1:
            title += f", {first.rails} rails"
    ax.set_title(title, loc="left")
    return ax


@styled
def max_hosts_plot(radices, *, switches=(), tiers=(2, 3), marks=(), ax=None, title=None):
    """Most hosts a non-blocking fat tree can attach, against switch radix, per tier count.

    Parameters
    ----------
    radices : sequence of int
        Even switch radices to draw the curves over.
    switches : sequence of catalog.Switch
        Switches to mark on the curves (at their port count).
    tiers : sequence of int
        Tier counts to draw, from {1, 2, 3}.
    marks : sequence of (str, int)
        Cluster sizes to draw as dashed horizontal lines: (label, hosts).
    ax : matplotlib.axes.Axes, optional
        Axes to draw on; a new figure is made if omitted.
    title : str, optional
        Title.

    Returns
    -------
    matplotlib.axes.Axes
    """
    radices = np.asarray(sorted(radices))
    if radices.size == 0:
        raise ValueError("max_hosts_plot needs at least one radix")
    if ax is None:
        _, ax = new_figure(7.0, 4.8)
    colours = {1: PALETTE["grey"], 2: TIER_COLORS["spine"], 3: TIER_COLORS["core"]}
    curves = []
    for t in tiers:
        hosts = [max_hosts(int(k), t) for k in radices]
        curves += ax.plot(radices, hosts, color=colours[t], lw=1.8,
                          label={1: "1 tier: $k$", 2: "2 tiers: $k^2/2$", 3: "3 tiers: $k^3/4$"}[t])
    by_radix = {}
    for sw in switches:
        by_radix.setdefault(sw.ports, []).append(sw.name)
    shapes = iter(["o", "s", "D", "^", "v", "P", "X"])
    markers = []  # legend entries: a switch's shape, white, as its markers sit on every curve
    for ports, names in sorted(by_radix.items()):
        shape = next(shapes, "o")
        for t in tiers:
            ax.plot(ports, max_hosts(ports, t), shape, color=colours[t], ms=7, mec=PALETTE["black"], zorder=3)
        markers.append(Line2D([], [], marker=shape, ls="none", ms=7, mfc="white", mec=PALETTE["black"],
                              label=textwrap.fill(f"{', '.join(names)} ({ports} ports)", 48)))
    for label, hosts in marks:
        ax.axhline(hosts, color=PALETTE["black"], lw=0.8, ls="--")
        ax.annotate(label, (radices.max(), hosts), xytext=(0, 3), textcoords="offset points",
                    ha="right", va="bottom", fontsize=8)
    ax.set_yscale("log")
    ax.set_xlim(0, radices.max() * 1.05)
    ax.set_ylim(top=ax.get_ylim()[1] * 8)
    ax.set_xlabel("switch radix $k$ [ports]")
    ax.set_ylabel("hosts, non-blocking [-]")
    # Below the axes (inside, it would cover the curves at small radix or the markers): the
    # curves in the first column, the switches in the second.
    rows = max(len(curves), len(markers))
    blank = Line2D([], [], ls="none", label=" ")
    handles = curves + [blank] * (rows - len(curves)) + markers + [blank] * (rows - len(markers))
    legend_below(ax, handles=handles, fontsize=8, ncols=2 if markers else 1)
    if title is not None:
        ax.set_title(title, loc="left", fontsize=10)
    return ax


#: One colour per part of a message's latency.
LATENCY_COLORS = {
    "software": PALETTE["orange"],
    "NICs": PALETTE["sky"],
    "switches": PALETTE["vermillion"],
    "links": PALETTE["purple"],
}


@styled
def latency_breakdown_plot(latencies, *, low=None, high=None, ax=None, title=None):
    """Stacked bars: each path's one-way latency split into software, NICs, switches and links.

    Parameters
    ----------
    latencies : mapping of str to PathLatency
        Central estimates, one bar per entry (label to result of
        :func:`interconnect_lab.topology.path_latency`), drawn top to bottom.
    low, high : mapping of str to PathLatency, optional
        The same paths at the low and high ends of their inputs; drawn as a
        range on each bar's total.
    ax : matplotlib.axes.Axes, optional
        Axes to draw on; a new figure is made if omitted.
    title : str, optional
        Title.

    Returns
    -------
    matplotlib.axes.Axes
    """
    labels = list(latencies)
    if not labels:
        raise ValueError("latency_breakdown_plot needs at least one path")
    if not all(isinstance(v, PathLatency) for v in latencies.values()):
        raise TypeError("latencies must map labels to PathLatency results of path_latency()")
    if ax is None:
        _, ax = new_figure(7.0, 1.6 + 0.5 * len(labels))
    y = np.arange(len(labels))[::-1]
    left = np.zeros(len(labels))
    for part in PathLatency.PARTS:
        values = np.array([latencies[k].parts_s[part] for k in labels]) / us
        ax.barh(y, values, left=left, height=0.6, color=LATENCY_COLORS[part], label=part)
        left += values
    right = left.copy()
    if low is not None and high is not None:
        lows = np.array([low[k].total_s for k in labels]) / us
        highs = np.array([high[k].total_s for k in labels]) / us
        xerr = np.clip([left - lows, highs - left], 0, None)  # rounding can make a zero negative
        ax.errorbar(left, y, xerr=xerr, fmt="none", ecolor=PALETTE["black"],
                    elinewidth=1, capsize=3, label="range of the estimates")
        right = np.maximum(right, highs)
    for yi, x, total in zip(y, right, left):
        ax.annotate(f"{total:.2g} µs", (x, yi), xytext=(5, 0), textcoords="offset points",
                    va="center", fontsize=9)
    ax.set_yticks(y, labels)
    ax.set_xlim(0, 1.15 * right.max())
    ax.set_xlabel("one-way latency of a small message [µs]")
    ax.grid(axis="y", visible=False)
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.25), fontsize=9, ncols=3)
    if title is not None:
        ax.set_title(title, loc="left", fontsize=10)
    return ax
