"""Figures for :mod:`interconnect_lab.topology`: fat trees, the designs beyond them, NVSwitch domains.

- fat trees (chapter 5): a diagram of a small tree (:func:`fat_tree_plot`), switch counts
  against size, the reach of a switch radix, and where a small message's latency goes;
- topologies beyond the fat tree (chapter 13): :func:`topology_comparison_plot` (hops,
  bisection and cost per host port of each design), :func:`dragonfly_plot` (a small
  dragonfly's groups, routers and global links) and :func:`topology_flow_plot` (flow
  completion times of one traffic pattern on several topologies);
- scale-up domains (chapter 2): :func:`nvlink_domain_plot` draws a
  :class:`~interconnect_lab.topology.ScaleUpDomain`, GPUs below, switch chips above, one
  line per GPU-chip pair (thicker for more links).
"""

from __future__ import annotations

import textwrap

import numpy as np
from matplotlib.lines import Line2D
from matplotlib.patches import FancyBboxPatch

from ..topology import PathLatency, max_hosts
from ..units import us
from .style import PALETTE, legend_below, new_figure, styled

__all__ = ["fat_tree_plot", "switch_count_plot", "max_hosts_plot", "latency_breakdown_plot",
           "TIER_COLORS", "LATENCY_COLORS", "FAMILY_COLORS", "topology_comparison_plot", "dragonfly_plot",
           "topology_flow_plot", "nvlink_domain_plot"]

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
    # The curves reach the largest switch marked, so that every switch in the legend is drawn.
    radices = np.unique(np.concatenate([radices, [sw.ports for sw in switches if sw.ports > radices.max()]]))
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


# Topologies beyond the fat tree ----------------------------------------------------------------

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


# NVSwitch wiring --------------------------------------------------------------------------------

_GPU_COLOUR = PALETTE["blue"]
_SWITCH_COLOUR = PALETTE["green"]


def _boxes(ax, xs, y, width, height, colour, labels, fontsize):
    for x, label in zip(xs, labels):
        # A corner no rounder than a quarter of the box: narrow boxes stay boxes.
        ax.add_patch(FancyBboxPatch((x - width / 2, y - height / 2), width, height,
                                    boxstyle=f"round,pad=0,rounding_size={min(0.04, width / 4):.4f}", facecolor=colour,
                                    edgecolor="white", linewidth=0.5, zorder=3))
        if label:
            ax.text(x, y, label, ha="center", va="center", color="white", fontsize=fontsize,
                    fontweight="bold", zorder=4)


@styled
def nvlink_domain_plot(domain, *, ax=None, title=None, label_links=None, switch_ports=None):
    """Diagram of an NVSwitch domain: every GPU wired to every switch chip.

    Parameters
    ----------
    domain : ScaleUpDomain
        From :func:`interconnect_lab.topology.nvlink_domain` or
        :func:`~interconnect_lab.topology.scale_up_domain`.
    ax : matplotlib.axes.Axes, optional
        Axes to draw on; a new figure is made if omitted.
    title : str, optional
        Title; by default the domain's name, GPU and chip counts.
    label_links : bool, optional
        Write the number of links on each GPU-chip line; by default only when
        the domain has at most 8 GPUs.
    switch_ports : int, optional
        Ports of one switch chip (its catalog radix); if given, each chip is
        annotated with the ports the domain uses.

    Returns
    -------
    matplotlib.axes.Axes
    """
    if ax is None:
        _, ax = new_figure(7.0, 3.0)
    gpus, chips = domain.gpus, domain.switch_chips
    counts = np.array(domain.links_per_gpu_per_chip)
    small = gpus <= 8 if label_links is None else label_links
    gpu_x = (np.arange(gpus) + 0.5) / gpus
    chip_x = (np.arange(chips) + 0.5) / chips
    gpu_y, chip_y = 0.0, 1.0
    widest = counts.max()
    alpha = 0.8 if gpus * chips <= 64 else max(0.15, 40 / (gpus * chips))
    for g, x0 in enumerate(gpu_x):
        for c, x1 in enumerate(chip_x):
            ax.plot([x0, x1], [gpu_y, chip_y], color=PALETTE["grey"], alpha=alpha,
                    linewidth=(0.6 + 2.4 * counts[c] / widest) if small else 0.5, zorder=1,
                    solid_capstyle="butt")
    if small:
        # Label the links of the first GPU only: every GPU is wired the same way.
        for c, x1 in enumerate(chip_x):
            xm, ym = gpu_x[0] + 0.72 * (x1 - gpu_x[0]), gpu_y + 0.72 * (chip_y - gpu_y)
            ax.text(xm, ym, str(counts[c]), ha="center", va="center", fontsize=9,
                    bbox={"boxstyle": "circle,pad=0.15", "facecolor": "white", "edgecolor": PALETTE["grey"]},
                    zorder=5)
    # Boxes fill 80% of their slot, 60% when there are many, so neighbours stay apart.
    gpu_width = min((0.8 if gpus <= 8 else 0.6) / gpus, 0.09)
    chip_width = min((0.8 if chips <= 8 else 0.6) / chips, 0.16)
    _boxes(ax, gpu_x, gpu_y, gpu_width, 0.16, _GPU_COLOUR,
           [f"GPU\n{i}" if gpus <= 8 else "" for i in range(gpus)], 8)
    _boxes(ax, chip_x, chip_y, chip_width, 0.16, _SWITCH_COLOUR,
           [f"NVSwitch\n{i}" if chips <= 8 else "" for i in range(chips)], 8)
    if switch_ports is not None and chips <= 8:
        for x, used in zip(chip_x, domain.switch_ports_used):
            ax.text(x, chip_y + 0.11, f"{used} of {switch_ports} ports", ha="center", va="bottom", fontsize=8,
                    color=_SWITCH_COLOUR)
    elif switch_ports is not None:
        used = sorted(set(domain.switch_ports_used))
        ax.text(0.5, chip_y + 0.11, f"each chip: {'/'.join(map(str, used))} of {switch_ports} ports used",
                ha="center", va="bottom", fontsize=8, color=_SWITCH_COLOUR)
    ax.text(-0.02, gpu_y, f"{gpus} GPUs", ha="right", va="center", fontsize=10, color=_GPU_COLOUR)
    ax.text(-0.02, chip_y, f"{chips} switch\nchips", ha="right", va="center", fontsize=10,
            color=_SWITCH_COLOUR)
    ax.set_xlim(-0.2, 1.02)
    ax.set_ylim(-0.2, 1.3)
    ax.set_axis_off()
    if title is None:
        title = (f"{domain.name}: {gpus} GPUs x {domain.links_per_gpu} {domain.link} links "
                 f"= {domain.links} links to {chips} switch chips")
    ax.set_title(title, loc="left", fontsize=10)
    return ax
