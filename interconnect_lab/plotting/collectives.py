"""Figures for collectives (chapter 7): bandwidth and time against message size,
a collective's data moving step by step, and what NCCL runs over sizes and node counts."""

from __future__ import annotations

import math
from types import MappingProxyType

import numpy as np
from matplotlib.colors import LinearSegmentedColormap
from matplotlib.lines import Line2D
from matplotlib.patches import Patch, Rectangle
from matplotlib.ticker import FuncFormatter, LogLocator, NullLocator
from matplotlib.transforms import blended_transform_factory

from .. import units as u
from ..units import format_bytes
from .style import COLORS, PALETTE, legend_below, new_figure, styled

__all__ = ["bus_bandwidth_plot", "collective_time_plot", "collective_steps_plot", "crossover_plot",
           "bus_bandwidth_scaling_plot", "ALGORITHM_COLORS", "PROTOCOL_STYLES", "ALGORITHM_NAMES", "choice_label",
           "nccl_choice_plot", "update_nccl_choice_plot", "busbw_legend_handles", "candidates_plot",
           "grouped_bandwidth_plot", "measured_sweep_plot", "reproduction_ratio_plot"]

_SIZE_LABEL = "message size S [B]"


def size_axis(ax):
    ax.set_xscale("log")
    ax.xaxis.set_major_locator(LogLocator(base=10, numticks=20))
    ax.xaxis.set_major_formatter(FuncFormatter(
        lambda x, _: format_bytes(x, digits=3) if x >= 1 and math.log10(x) % 3 == 0 else ""))
    ax.set_xlabel(_SIZE_LABEL)


def _check_results(results):
    results = dict(results)
    if not results:
        raise ValueError("results must map at least one label to a CollectivePerformance")
    for label, result in results.items():
        if np.ndim(result.size_bytes) != 1:
            raise ValueError(f"result {label!r} must be computed for an array of sizes "
                             "(pass a 1-D array as size_bytes)")
    return results


@styled
def bus_bandwidth_plot(results, *, ax=None, link_bandwidth_bytes_per_s=None, efficiency=None,
                       measured=(), title=None):
    """Bus bandwidth against message size, one line per algorithm (log x).

    Parameters
    ----------
    results : mapping of str to CollectivePerformance
        Label → a result of :func:`interconnect_lab.collectives.collective_performance`
        computed for an array of sizes.
    ax : matplotlib.axes.Axes, optional
        Axes to draw on; a new figure is made if omitted.
    link_bandwidth_bytes_per_s : float, optional
        Line rate of one rank's link, one direction [B/s], drawn as a dashed line.
    efficiency : float, optional
        With ``link_bandwidth_bytes_per_s``, also draw the usable rate
        efficiency × link [-], the large-message limit of the ring.
    measured : sequence of (str, float, float) or (str, float, float, str)
        Published points: (label, size [B], busbw [B/s]), drawn as markers; an
        optional fourth item is the marker's colour, e.g. that of the curve the
        point belongs to.
    title : str, optional
        Title.

    Returns
    -------
    matplotlib.axes.Axes
    """
    results = _check_results(results)
    if ax is None:
        _, ax = new_figure(7.0, 4.0)
    top = 0.0
    for label, result in results.items():
        busbw = np.asarray(result.bus_bandwidth_bytes_per_s) / u.GB_per_s
        ax.plot(result.size_bytes, busbw, label=label, linewidth=2)
        top = max(top, float(np.max(busbw)))
    if link_bandwidth_bytes_per_s is not None:
        link = link_bandwidth_bytes_per_s / u.GB_per_s
        ax.axhline(link, color=PALETTE["black"], linestyle="--", linewidth=1,
                   label=f"link line rate, per direction ({link:.0f} GB/s)")
        top = max(top, link)
        if efficiency is not None:
            ax.axhline(efficiency * link, color=PALETTE["grey"], linestyle=":", linewidth=1.5,
                       label=f"usable: {efficiency:.0%} of line rate ({efficiency * link:.0f} GB/s)")
    for point in measured:
        label, size, busbw = point[:3]
        color = {"color": point[3]} if len(point) > 3 else {}
        ax.plot([size], [busbw / u.GB_per_s], marker="o", linestyle="none", markersize=8,
                markerfacecolor="white", markeredgewidth=2, label=f"measured: {label}", **color)
        top = max(top, busbw / u.GB_per_s)
    size_axis(ax)
    ax.set_ylim(0, 1.12 * top)
    ax.set_ylabel("bus bandwidth [GB/s]")
    if link_bandwidth_bytes_per_s is not None:
        legend_below(ax, fontsize=9)  # the line-rate lines cross the axes from side to side
    else:
        ax.legend(loc="upper left", fontsize=9)
    if title:
        ax.set_title(title, loc="left")
    return ax


@styled
def collective_time_plot(results, *, ax=None, crossover_bytes=None, crossover_label="crossover",
                         show_terms=False, title=None):
    """Time against message size, one line per algorithm (log-log).

    Flat lines are latency-bound (the steps dominate); lines of slope one are
    bandwidth-bound (the bytes dominate).

    Parameters
    ----------
    results : mapping of str to CollectivePerformance
        Label → a result computed for an array of sizes.
    ax : matplotlib.axes.Axes, optional
        Axes to draw on; a new figure is made if omitted.
    crossover_bytes : float, optional
        A size to mark with a vertical line, e.g. from
        :func:`interconnect_lab.collectives.crossover_size` [B].
    crossover_label : str
        What the marked size is, for the legend (e.g. ``"half bandwidth"`` for
        :func:`interconnect_lab.collectives.half_bandwidth_size`).
    show_terms : bool
        Also draw each result's latency term (dashed) and bandwidth term
        (dotted) in its colour: the total is their sum.
    title : str, optional
        Title.

    Returns
    -------
    matplotlib.axes.Axes
    """
    results = _check_results(results)
    if ax is None:
        _, ax = new_figure(7.0, 4.0)
    for label, result in results.items():
        (line,) = ax.plot(result.size_bytes, np.asarray(result.time_s) / u.us, label=label, linewidth=2)
        if show_terms:
            sizes = np.asarray(result.size_bytes)
            latency = np.broadcast_to(np.asarray(result.latency_term_s) / u.us, sizes.shape)
            ax.plot(sizes, latency, color=line.get_color(), linestyle="--", linewidth=1.2,
                    label=f"{label}: latency term")
            ax.plot(sizes, np.asarray(result.bandwidth_term_s) / u.us, color=line.get_color(),
                    linestyle=":", linewidth=1.5, label=f"{label}: bandwidth term")
    if crossover_bytes is not None and math.isfinite(crossover_bytes):
        ax.axvline(crossover_bytes, color=PALETTE["grey"], linestyle=":", linewidth=1.5,
                   label=f"{crossover_label} at {format_bytes(crossover_bytes)}")
    size_axis(ax)
    ax.set_yscale("log")
    if show_terms:
        # The bandwidth term of a tiny message is far below any time worth showing.
        floor = min(float(np.min(np.asarray(r.latency_term_s))) for r in results.values()) / u.us
        ax.set_ylim(bottom=0.3 * floor)
    ax.set_ylabel("time [µs]")
    ax.legend(loc="upper left", fontsize=9)
    if title:
        ax.set_title(title, loc="left")
    return ax


_CONTRIBUTIONS = LinearSegmentedColormap.from_list("contributions", ["white", PALETTE["blue"]])


@styled
def collective_steps_plot(run, *, columns=4, panel_in=1.9, title=None):
    """A collective step by step: which ranks' inputs each chunk of each buffer holds.

    One panel per state, from the start to the end. In each panel a column is a
    rank and a row a chunk of its buffer; the number (and the shade) is how many
    ranks' inputs that chunk has summed or copied so far. Arrows show the
    transfers of the step that led to the state.

    Parameters
    ----------
    run : ReferenceRun
        A result of :mod:`interconnect_lab.collectives.reference`, e.g.
        ``ring_all_reduce``.
    columns : int
        Panels per row.
    panel_in : float
        Size of one panel [inch].
    title : str, optional
        Figure title; by default the algorithm, collective and rank count.

    Returns
    -------
    matplotlib.figure.Figure
    """
    counts = run.contribution_counts()
    states, n_ranks, n_chunks = counts.shape
    columns = max(1, min(int(columns), states))
    rows = math.ceil(states / columns)
    figure, axes = new_figure(panel_in * columns + 0.6, panel_in * rows + 0.6,
                              nrows=rows, ncols=columns, squeeze=False)
    for index, ax in enumerate(axes.flat):
        if index >= states:
            ax.set_axis_off()
            continue
        grid = counts[index].T
        ax.imshow(grid, cmap=_CONTRIBUTIONS, vmin=0, vmax=n_ranks, aspect="auto")
        for chunk in range(n_chunks):
            for rank in range(n_ranks):
                value = grid[chunk, rank]
                ax.text(rank, chunk, str(value), ha="center", va="center", fontsize=9,
                        color="white" if value > n_ranks / 2 else PALETTE["black"])
        # A wrap-around arrow on the top chunk bows above the panel: the titles stand clear of it.
        title_pad = 12
        if index == 0:
            ax.set_title("start", fontsize=10, pad=title_pad)
        else:
            moves = run.transfers_at(index - 1)
            kinds = {t.operation for t in moves}
            verb = "add" if kinds == {"reduce"} else "copy" if kinds == {"copy"} else "move"
            ax.set_title(f"step {index}: {verb}", fontsize=10, pad=title_pad)
            for t in moves:
                for chunk in t.chunks:
                    wrap = abs(t.receiver - t.sender) > 1
                    ax.annotate("", xy=(t.receiver, chunk), xytext=(t.sender, chunk),
                                arrowprops={"arrowstyle": "->", "color": COLORS["communication"],
                                            "linewidth": 1.5, "shrinkA": 6, "shrinkB": 6,
                                            "connectionstyle": f"arc3,rad={0.35 if wrap else 0.0}"})
        ax.set_xticks(range(n_ranks), [f"r{r}" for r in range(n_ranks)] if index // columns == rows - 1
                      or index + columns >= states else [])
        ax.set_yticks(range(n_chunks), [f"c{k}" for k in range(n_chunks)] if index % columns == 0 else [])
        ax.tick_params(length=0, labelsize=8)
        ax.grid(False)
        for spine in ax.spines.values():
            spine.set_visible(False)
    if title is None:
        title = (f"{run.algorithm.replace('_', '-')} {run.collective.replace('_', '-')} on "
                 f"{n_ranks} ranks\nhow many ranks' inputs each chunk (row) of each rank's "
                 "buffer (column) holds")
    figure.suptitle(title, fontsize=11)
    return figure


@styled
def crossover_plot(ranks, crossovers, *, ax=None, title=None):
    """Crossover message size against the number of ranks, one line per case (log-log).

    Below a line the first algorithm of the pair (the one with fewer steps,
    e.g. the tree) is faster; above it the second (e.g. the ring).

    Parameters
    ----------
    ranks : array_like of int
        Numbers of ranks.
    crossovers : mapping of str to array_like
        Label → crossover size for each entry of ``ranks`` [B], e.g. from
        :func:`interconnect_lab.collectives.crossover_size`; infinite values
        (no crossover) are left out.
    ax : matplotlib.axes.Axes, optional
        Axes to draw on; a new figure is made if omitted.
    title : str, optional
        Title.

    Returns
    -------
    matplotlib.axes.Axes
    """
    ranks = np.asarray(ranks, dtype=float)
    crossovers = dict(crossovers)
    if ranks.ndim != 1 or ranks.size == 0:
        raise ValueError("ranks must be a non-empty 1-D array of rank counts")
    if not crossovers:
        raise ValueError("crossovers must map at least one label to an array of sizes [B]")
    if ax is None:
        _, ax = new_figure(7.0, 4.0)
    for label, sizes in crossovers.items():
        sizes = np.asarray(sizes, dtype=float)
        if sizes.shape != ranks.shape:
            raise ValueError(f"crossovers[{label!r}] has shape {sizes.shape}; it must match ranks "
                             f"{ranks.shape}")
        finite = np.isfinite(sizes)
        ax.plot(ranks[finite], sizes[finite], marker="o", markersize=4, linewidth=2, label=label)
    ax.set_xscale("log", base=2)
    ax.xaxis.set_major_formatter(FuncFormatter(lambda x, _: f"{x:g}"))
    ax.set_xlabel("ranks n")
    ax.set_yscale("log")
    ax.yaxis.set_major_locator(LogLocator(base=10, numticks=20))
    ax.yaxis.set_major_formatter(FuncFormatter(lambda y, _: format_bytes(y, digits=3) if y >= 1 else ""))
    ax.set_ylabel("crossover message size S* [B]")
    ax.legend(loc="upper left", fontsize=9)
    if title:
        ax.set_title(title, loc="left")
    return ax


@styled
def bus_bandwidth_scaling_plot(counts, bus_bandwidths, *, xlabel, ax=None, link_bandwidth_bytes_per_s=None,
                               title=None, measured=()):
    """Bus bandwidth against a count (ranks, nodes), one line per case (log x).

    Parameters
    ----------
    counts : array_like of int
        The counts on the x axis (ranks, nodes...).
    bus_bandwidths : mapping of str to array_like
        Label → busbw for each entry of ``counts`` [B/s].
    xlabel : str
        What the counts are, e.g. ``"nodes (8 GPUs each)"``.
    ax : matplotlib.axes.Axes, optional
        Axes to draw on; a new figure is made if omitted.
    link_bandwidth_bytes_per_s : float, optional
        A line rate to draw as a dashed reference, one direction [B/s].
    title : str, optional
        Title.
    measured : sequence of (str, float, float) or (str, float, float, str)
        Published points: (label, count, busbw [B/s]), drawn as open markers (points that
        share a label share a marker); an optional fourth item is the marker's colour (that
        of the curve the point belongs to).

    Returns
    -------
    matplotlib.axes.Axes
    """
    counts = np.asarray(counts, dtype=float)
    bus_bandwidths = dict(bus_bandwidths)
    if counts.ndim != 1 or counts.size == 0:
        raise ValueError("counts must be a non-empty 1-D array")
    if not bus_bandwidths:
        raise ValueError("bus_bandwidths must map at least one label to an array of busbw [B/s]")
    if ax is None:
        _, ax = new_figure(7.0, 4.0)
    top = 0.0
    for label, values in bus_bandwidths.items():
        values = np.asarray(values, dtype=float)
        if values.shape != counts.shape:
            raise ValueError(f"bus_bandwidths[{label!r}] has shape {values.shape}; it must match counts "
                             f"{counts.shape}")
        ax.plot(counts, values / u.GB_per_s, marker="o", markersize=4, linewidth=2, label=label)
        top = max(top, float(values.max()) / u.GB_per_s)
    if link_bandwidth_bytes_per_s is not None:
        link = link_bandwidth_bytes_per_s / u.GB_per_s
        ax.axhline(link, color=PALETTE["black"], linestyle="--", linewidth=1,
                   label=f"link line rate, per direction ({link:.0f} GB/s)")
        top = max(top, link)
    points = {}
    for point in measured:  # points that share a label share a marker and one legend entry
        label, count, busbw = point[:3]
        points.setdefault(label, ([], [], point[3] if len(point) > 3 else None))
        points[label][0].append(count)
        points[label][1].append(busbw / u.GB_per_s)
    for marker, (label, (xs, ys, color)) in zip(("o", "s", "^", "D", "v", "P", "X", "*") * 4, points.items()):
        ax.plot(xs, ys, marker=marker, linestyle="none", markersize=8, markerfacecolor="white", markeredgewidth=2,
                label=f"measured: {label}", **({"color": color} if color else {}))
        top = max(top, max(ys))
    ax.set_xscale("log", base=2)
    ax.xaxis.set_major_formatter(FuncFormatter(lambda x, _: f"{x:g}"))
    ax.set_xlabel(xlabel)
    ax.set_ylim(0, 1.15 * top)
    ax.set_ylabel("bus bandwidth [GB/s]")
    ax.legend(loc="best", fontsize=9)
    if title:
        ax.set_title(title, loc="left")
    return ax


# What NCCL runs: the choice map ----------------------------------------------------------

#: Colour of each algorithm NCCL runs, the same in every figure of its choices.
ALGORITHM_COLORS = MappingProxyType({
    "ring": PALETTE["blue"], "tree": PALETTE["orange"], "nvls": PALETTE["green"], "nvls_tree": PALETTE["sky"],
    "pat": PALETTE["purple"], "collnet_direct": PALETTE["vermillion"], "collnet_chain": PALETTE["yellow"],
    "p2p": PALETTE["black"],
})

#: How each protocol is drawn: a hatch in the map, a line style on the bandwidth curve.
PROTOCOL_STYLES = MappingProxyType({"LL": ("...", ":"), "LL128": ("///", "--"), "Simple": ("", "-")})

#: NCCL's algorithms as the book names them.
ALGORITHM_NAMES = MappingProxyType({
    "ring": "ring", "tree": "tree", "nvls": "NVLS", "nvls_tree": "NVLSTree", "pat": "PAT",
    "collnet_direct": "CollNet Direct", "collnet_chain": "CollNet Chain", "p2p": "point-to-point",
})

#: Most crossovers one row of a choice map shows (the rest are left out).
MAX_CROSSOVERS = 6

_ROW_HALF_HEIGHT = 2.0 ** 0.4   # a row spans n / h to n x h on the log2 node axis


def choice_label(algorithm, protocol):
    """``"NVLSTree Simple"``: an (algorithm, protocol) pair as figures and readouts name it.

    Parameters
    ----------
    algorithm, protocol : str
        NCCL's names, as :func:`interconnect_lab.collectives.nccl_collective` reports them.
    """
    return f"{ALGORITHM_NAMES.get(algorithm, algorithm)} {protocol}"


_LINE_NAMES = {":": "dotted", "--": "dashed", "-": "solid"}


def _map_handles(choice_map):
    """Legend of the map: the algorithms it shows (colours), then its protocols (hatches, line styles)."""
    algorithms = list(dict.fromkeys(a for a, _ in choice_map.choices()))
    protocols = [p for p in PROTOCOL_STYLES if p in {p for _, p in choice_map.choices()}]
    handles = [Patch(facecolor=ALGORITHM_COLORS[a], edgecolor="white", label=ALGORITHM_NAMES[a])
               for a in algorithms]
    handles += [Patch(facecolor=PALETTE["grey"], edgecolor="white", hatch=PROTOCOL_STYLES[p][0],
                      label=f"{p}: {'plain' if not PROTOCOL_STYLES[p][0] else 'hatched'}, "
                            f"{_LINE_NAMES[PROTOCOL_STYLES[p][1]]} line")
                for p in protocols]
    return handles


def busbw_legend_handles(choice_map, nodes):
    """Legend of :func:`nccl_choice_plot`'s busbw plot at ``nodes``: the limits drawn there, and
    the crossovers if there are any.

    :func:`update_nccl_choice_plot` keeps the legend as drawn; a panel compares these
    handles' labels to know when to draw the figure again.

    Parameters
    ----------
    choice_map : interconnect_lab.collectives.ChoiceMap
        From :func:`interconnect_lab.collectives.nccl_choice_map`.
    nodes : int
        A node count of ``choice_map.nodes``.

    Returns
    -------
    list of matplotlib.lines.Line2D
    """
    limits = choice_map.bus_bandwidth_limits(nodes)
    handles = []
    if "nvlink" in limits:
        handles.append(Line2D([], [], color=PALETTE["black"], linestyle="--", linewidth=1,
                              label="one GPU's NVLink (as NCCL counts it)"))
    if "ports" in limits:
        handles.append(Line2D([], [], color=PALETTE["grey"], linestyle="-.", linewidth=1.5,
                              label=_ports_label(choice_map.collective)))
    if choice_map.crossovers_at(nodes):
        handles.append(Line2D([], [], color=PALETTE["grey"], linestyle=":", linewidth=1.2,
                              label="crossover: the choice changes"))
    return handles


def _gb_label(value, _position=None):
    """A bandwidth tick in GB/s: 1,000 or 0.001, never in scientific notation."""
    if value >= 1 or value <= 0:
        return f"{value:,.0f}"
    return f"{value:.{-math.floor(math.log10(value) + 1e-9)}f}"


def _ports_label(collective):
    if collective == "all_to_all":
        return "one GPU's port × N/(N−1), N nodes"
    if collective == "send_recv":
        return "one GPU's port"
    return "all ports of one node together"


def _bus_bandwidth_limits(choice_map):
    """The busbw axis [GB/s]: whole decades around every row's busbw and limits."""
    busbw = choice_map.bus_bandwidth_bytes_per_s[choice_map.bus_bandwidth_bytes_per_s > 0] / u.GB_per_s
    limits = [v / u.GB_per_s for n in choice_map.nodes for v in choice_map.bus_bandwidth_limits(n).values()]
    # Below 1 MB/s a collective is all latency: the axis starts there.
    low = max(10.0 ** math.floor(math.log10(float(busbw.min()))), 1e-3) if busbw.size else 1e-3
    high = 10.0 ** math.ceil(math.log10(1.3 * max([float(busbw.max()) if busbw.size else 1.0, *limits])))
    return low, high


@styled
def nccl_choice_plot(choice_map, nodes, *, axes=None):
    """What NCCL runs over sizes and node counts (left), and the busbw at one node count (right).

    Left, the map: one row per node count, each run of one (algorithm, protocol)
    a bar coloured by the algorithm and hatched by the protocol; the row of
    ``nodes`` is outlined. Right: busbw against size at ``nodes``, each stretch
    coloured as its algorithm and dashed as its protocol, the crossovers as
    vertical dotted lines, and the rates busbw is measured against (:meth:`~interconnect_lab.collectives.ChoiceMap.bus_bandwidth_limits`).
    :func:`update_nccl_choice_plot` moves to another node count in place.

    Parameters
    ----------
    choice_map : interconnect_lab.collectives.ChoiceMap
        From :func:`interconnect_lab.collectives.nccl_choice_map`.
    nodes : int
        The node count to show on the right, one of ``choice_map.nodes``.
    axes : pair of matplotlib.axes.Axes, optional
        Axes to draw on; a new figure is made if omitted.

    Returns
    -------
    pair of matplotlib.axes.Axes
    """
    choice_map.row(nodes)
    if axes is None:
        _, axes = new_figure(9.0, 4.6, ncols=2)
    map_ax, busbw_ax = axes
    sizes = choice_map.size_bytes
    for row_nodes in choice_map.nodes:
        low, high = row_nodes / _ROW_HALF_HEIGHT, row_nodes * _ROW_HALF_HEIGHT
        for algorithm, protocol, first, last in choice_map.segments(row_nodes):
            map_ax.add_patch(Rectangle((first, low), last - first, high - low, facecolor=ALGORITHM_COLORS[algorithm],
                                       edgecolor="white", linewidth=0.6, hatch=PROTOCOL_STYLES[protocol][0]))
    map_ax.add_patch(Rectangle((sizes[0], nodes / _ROW_HALF_HEIGHT), sizes[-1] - sizes[0],
                               nodes * _ROW_HALF_HEIGHT - nodes / _ROW_HALF_HEIGHT, fill=False,
                               edgecolor=PALETTE["black"], linewidth=2.0, zorder=5, gid="row"))
    size_axis(map_ax)
    map_ax.set_xlim(sizes[0], sizes[-1])
    map_ax.set_yscale("log", base=2)
    map_ax.set_ylim(choice_map.nodes[0] / 1.5, choice_map.nodes[-1] * 1.5)
    map_ax.set_yticks(choice_map.nodes, [f"{n:,}" for n in choice_map.nodes])
    map_ax.yaxis.set_minor_locator(NullLocator())
    map_ax.set_ylabel(f"nodes ({choice_map.system.gpus_per_node} GPUs each)")
    map_ax.grid(False)
    map_ax.set_title(f"what NCCL runs: {choice_map.collective.replace('_', '-')}", loc="left", fontsize=10)

    for algorithm, protocol in choice_map.choices():
        busbw_ax.plot([], [], color=ALGORITHM_COLORS[algorithm], linestyle=PROTOCOL_STYLES[protocol][1],
                      linewidth=2.2, gid=f"busbw:{algorithm}:{protocol}")
    busbw_ax.axhline(1.0, color=PALETTE["black"], linestyle="--", linewidth=1, gid="limit:nvlink")
    busbw_ax.axhline(1.0, color=PALETTE["grey"], linestyle="-.", linewidth=1.5, gid="limit:ports")
    # The crossovers are lines only: the map beside them says what runs on either side, and the
    # panel's readout names them (rotated labels would crowd the curve).
    for k in range(MAX_CROSSOVERS):
        busbw_ax.axvline(1.0, color=PALETTE["grey"], linestyle=":", linewidth=1.2, gid=f"crossover:{k}")
    size_axis(busbw_ax)
    busbw_ax.set_xlim(sizes[0], sizes[-1])
    busbw_ax.set_yscale("log")
    busbw_ax.set_ylim(*_bus_bandwidth_limits(choice_map))
    busbw_ax.yaxis.set_major_formatter(FuncFormatter(_gb_label))
    busbw_ax.yaxis.set_minor_locator(NullLocator())
    busbw_ax.set_ylabel("bus bandwidth [GB/s]")
    legend_below(map_ax, handles=_map_handles(choice_map), ncols=2, fontsize=8)
    update_nccl_choice_plot(axes, choice_map, nodes)
    legend_below(busbw_ax, handles=busbw_legend_handles(choice_map, nodes), ncols=1, fontsize=8)
    return axes


def _stretches(x, y, shown):
    """The points of ``x, y`` where ``shown``, with one NaN between separate stretches (so they stay apart)."""
    index = np.flatnonzero(shown)
    if not index.size:
        return np.array([]), np.array([])
    breaks = np.flatnonzero(np.diff(index) > 1) + 1
    xs, ys = np.split(x[index], breaks), np.split(y[index], breaks)
    gap = np.array([np.nan])
    return (np.concatenate([part for a in xs for part in (a, gap)][:-1]),
            np.concatenate([part for b in ys for part in (b, gap)][:-1]))


def update_nccl_choice_plot(axes, choice_map, nodes):
    """Show another node count on a :func:`nccl_choice_plot` in place; return the artists changed.

    The map must be the one the figure was drawn with. The legend stays as drawn: when the
    limits or the crossovers at ``nodes`` differ from those it names, draw the figure again.

    Parameters
    ----------
    axes : pair of matplotlib.axes.Axes
        Axes :func:`nccl_choice_plot` drew.
    choice_map, nodes :
        As for :func:`nccl_choice_plot`.

    Returns
    -------
    list of matplotlib.artist.Artist
    """
    map_ax, busbw_ax = axes
    index = choice_map.row(nodes)
    by_gid = {a.get_gid(): a for ax in axes for a in ax.get_children() if a.get_gid()}
    row = by_gid["row"]
    row.set_y(nodes / _ROW_HALF_HEIGHT)
    row.set_height(nodes * _ROW_HALF_HEIGHT - nodes / _ROW_HALF_HEIGHT)
    changed = [row]
    sizes = choice_map.size_bytes
    busbw = choice_map.bus_bandwidth_bytes_per_s[index] / u.GB_per_s
    algorithm, protocol = choice_map.algorithm[index], choice_map.protocol[index]
    for pair in choice_map.choices():
        line = by_gid[f"busbw:{pair[0]}:{pair[1]}"]
        mine = (algorithm == pair[0]) & (protocol == pair[1])
        # Each stretch reaches into its neighbours' first points, so the curve has no gaps.
        shown = mine | np.roll(mine, 1) & (np.arange(sizes.size) > 0)
        line.set_data(*_stretches(sizes, busbw, shown & (busbw > 0)))
        changed.append(line)
    limits = choice_map.bus_bandwidth_limits(nodes)
    for name in ("nvlink", "ports"):
        line = by_gid[f"limit:{name}"]
        value = limits.get(name, math.nan) / u.GB_per_s
        line.set_ydata([value, value])
        line.set_visible(name in limits)
        changed.append(line)
    crossovers = choice_map.crossovers_at(nodes)[:MAX_CROSSOVERS]
    for k in range(MAX_CROSSOVERS):
        line = by_gid[f"crossover:{k}"]
        shown = k < len(crossovers)
        line.set_visible(shown)
        if shown:
            line.set_xdata([crossovers[k].size_bytes] * 2)
        changed.append(line)
    gpus = choice_map.system.gpus_per_node
    title = f"busbw on {nodes:,} × {gpus} GPUs"
    if busbw_ax.get_title(loc="left") != title:
        busbw_ax.set_title(title, loc="left", fontsize=10)
    changed.append(busbw_ax._left_title)
    return changed


def _choice_lines(ax, sizes, busbw_gb, algorithms, protocols, *, linewidth=2.2, labelled=True, zorder=2):
    """busbw against size, each stretch of one (algorithm, protocol) in its colour and line style."""
    algorithms, protocols = np.asarray(algorithms), np.asarray(protocols)
    pairs = list(dict.fromkeys(zip(algorithms.tolist(), protocols.tolist())))
    for algorithm, protocol in pairs:
        mine = (algorithms == algorithm) & (protocols == protocol)
        shown = mine | np.roll(mine, 1) & (np.arange(sizes.size) > 0)
        ax.plot(*_stretches(sizes, busbw_gb, shown & (busbw_gb > 0)), color=ALGORITHM_COLORS[algorithm],
                linestyle=PROTOCOL_STYLES[protocol][1], linewidth=linewidth, zorder=zorder,
                label=f"model: {choice_label(algorithm, protocol)}" if labelled else None)


def _busbw_log_axis(ax, low, high):
    ax.set_yscale("log")
    ax.set_ylim(low, high)
    ax.yaxis.set_major_formatter(FuncFormatter(_gb_label))
    ax.yaxis.set_minor_locator(NullLocator())
    ax.set_ylabel("bus bandwidth [GB/s]")


@styled
def candidates_plot(result, *, relative=False, ax=None, title=None):
    """Every (algorithm, protocol) NCCL priced, and the one it runs, against message size.

    Each candidate is a thin line (colour: algorithm, style: protocol); where NCCL's
    choice changes, a dotted line names the new choice. With ``relative=False`` the
    lines are busbw (log-log) and what NCCL runs is the thick line under them; with
    ``relative=True`` they are each candidate's time over the time of what NCCL runs
    (1 where a candidate is the one NCCL runs).

    Parameters
    ----------
    result : interconnect_lab.collectives.NcclCollective
        From :func:`interconnect_lab.collectives.nccl_collective` for an array of sizes.
    relative : bool
        Plot times relative to NCCL's choice instead of bus bandwidths.
    ax : matplotlib.axes.Axes, optional
        Axes to draw on; a new figure is made if omitted.
    title : str, optional
        Title.

    Returns
    -------
    matplotlib.axes.Axes
    """
    from ..collectives import bus_bandwidth_factor

    sizes = np.asarray(result.size_bytes, dtype=float)
    if sizes.ndim != 1 or sizes.size < 2:
        raise ValueError("result must be computed for a 1-D array of at least two sizes (pass an array as size_bytes)")
    if ax is None:
        _, ax = new_figure(7.0, 4.4)
    factor = bus_bandwidth_factor(result.collective, result.system.ranks)
    chosen = np.asarray(result.bus_bandwidth_bytes_per_s) / u.GB_per_s
    chosen_time = np.asarray(result.time_s, dtype=float)
    if not relative:
        ax.plot(sizes, chosen, color=PALETTE["grey"], linewidth=7, alpha=0.35, solid_capstyle="round", zorder=1,
                label="what NCCL runs")
    for candidate in result.candidates:
        times = np.asarray(candidate.time_s, dtype=float)
        if not np.all(np.isfinite(times)):
            continue
        values = times / chosen_time if relative else sizes / times * factor / u.GB_per_s
        ax.plot(sizes, values, color=ALGORITHM_COLORS[candidate.algorithm],
                linestyle=PROTOCOL_STYLES[candidate.protocol][1], linewidth=1.6, zorder=2,
                label=choice_label(candidate.algorithm, candidate.protocol))
    algorithms, protocols = np.asarray(result.algorithm), np.asarray(result.protocol)
    label_at = blended_transform_factory(ax.transData, ax.transAxes)
    for j in np.flatnonzero((algorithms[1:] != algorithms[:-1]) | (protocols[1:] != protocols[:-1])) + 1:
        ax.axvline(sizes[j], color=PALETTE["grey"], linestyle=":", linewidth=1.2)
        ax.text(sizes[j], 0.98 if relative else 0.02, f"→ {choice_label(algorithms[j], protocols[j])}",
                transform=label_at, rotation=90, ha="right", va="top" if relative else "bottom", fontsize=8)
    size_axis(ax)
    ax.set_xlim(sizes[0], sizes[-1])
    if relative:
        ax.set_yscale("log")
        ax.set_ylim(0.9, 10.0)
        ax.yaxis.set_major_locator(LogLocator(base=10, subs=(1.0, 2.0, 5.0)))
        ax.yaxis.set_major_formatter(FuncFormatter(lambda y, _: f"{y:g}×"))
        ax.yaxis.set_minor_locator(NullLocator())
        ax.set_ylabel("time / time of NCCL's choice [-]")
    else:
        positive = chosen[chosen > 0]
        _busbw_log_axis(ax, max(10.0 ** math.floor(math.log10(float(positive.min()))), 1e-3),
                        10.0 ** math.ceil(math.log10(1.5 * float(positive.max()))))
    legend_below(ax, ncols=3, fontsize=8)
    if title:
        ax.set_title(title, loc="left", fontsize=10)
    return ax


@styled
def grouped_bandwidth_plot(labels, series, *, limits=None, limit_label="limit", ax=None, title=None,
                           xlabel="bus bandwidth [GB/s]"):
    """One group of horizontal bars per case, one bar per series (bandwidths in GB/s).

    Parameters
    ----------
    labels : sequence of str
        One per case, top to bottom.
    series : mapping of str to array_like
        Series name → one bandwidth per case [B/s]; the first series is drawn grey
        (the measurement), the others in the palette's colours, a series whose name
        contains "hypothetical" hatched.
    limits : array_like, optional
        One rate per case drawn as a black tick across its group [B/s].
    limit_label : str
        What the ticks are, for the legend.
    ax : matplotlib.axes.Axes, optional
        Axes to draw on; a new figure is made if omitted.
    title : str, optional
        Title.
    xlabel : str
        Axis label.

    Returns
    -------
    matplotlib.axes.Axes
    """
    labels = list(labels)
    series = {name: np.asarray(values, dtype=float) / u.GB_per_s for name, values in dict(series).items()}
    if not series or any(values.shape != (len(labels),) for values in series.values()):
        raise ValueError(f"series must map names to one bandwidth per label ({len(labels)} labels)")
    if ax is None:
        _, ax = new_figure(7.0, 0.55 * len(labels) * len(series) / 2 + 1.6)
    height = 0.8 / len(series)
    y = np.arange(len(labels))[::-1].astype(float)
    colors = [PALETTE["grey"], PALETTE["blue"], PALETTE["orange"], PALETTE["green"], PALETTE["purple"]]
    for k, (name, values) in enumerate(series.items()):
        offset = 0.4 - height * (k + 0.5)
        hatch = "///" if "hypothetical" in name else None
        ax.barh(y + offset, values, height * 0.92, color=colors[k % len(colors)], label=name, hatch=hatch,
                edgecolor="white" if hatch else None, linewidth=0)
    if limits is not None:
        limits = np.asarray(limits, dtype=float) / u.GB_per_s
        if limits.shape != (len(labels),):
            raise ValueError(f"limits must give one rate per label ({len(labels)} labels)")
        for row, value in zip(y, limits):
            ax.plot([value, value], [row - 0.45, row + 0.45], color=PALETTE["black"], linewidth=2,
                    label=limit_label if row == y[0] else None)
    ax.set_yticks(y, labels, fontsize=9)
    ax.set_ylim(-0.6, len(labels) - 0.4)
    ax.set_xlabel(xlabel)
    ax.grid(axis="y", visible=False)
    legend_below(ax, ncols=2, fontsize=8)
    if title:
        ax.set_title(title, loc="left", fontsize=10)
    return ax


#: Message-size bands a sweep figure shades: name, (smallest, largest) size [B].
_BAND_SHADES = {"small": PALETTE["orange"], "mid": PALETTE["sky"]}


@styled
def measured_sweep_plot(sizes_bytes, measured_bytes_per_s, model, *, bands=(), ax=None, title=None):
    """A published nccl-tests sweep against the model: busbw against message size (log-log).

    The measurement as open circles; the model as a line coloured by the algorithm
    and styled by the protocol it says NCCL runs; the bands of sizes a reproduction
    table compares shaded.

    Parameters
    ----------
    sizes_bytes, measured_bytes_per_s : array_like
        The printed sizes [B] and busbw [B/s].
    model : interconnect_lab.collectives.NcclCollective
        The model at the same sizes.
    bands : sequence of (str, (float, float)), optional
        Bands to shade: name and (smallest, largest) size [B]; ``"small"`` and ``"mid"`` are shaded.
    ax : matplotlib.axes.Axes, optional
        Axes to draw on; a new figure is made if omitted.
    title : str, optional
        Title.

    Returns
    -------
    matplotlib.axes.Axes
    """
    sizes = np.asarray(sizes_bytes, dtype=float)
    measured = np.asarray(measured_bytes_per_s, dtype=float) / u.GB_per_s
    predicted = np.asarray(model.bus_bandwidth_bytes_per_s, dtype=float) / u.GB_per_s
    if sizes.ndim != 1 or sizes.shape != measured.shape or np.shape(model.size_bytes) != sizes.shape:
        raise ValueError("sizes_bytes, measured_bytes_per_s and the model's sizes must be 1-D and equally long")
    if ax is None:
        _, ax = new_figure(5.0, 3.8)
    for name, (low, high) in bands:
        if name in _BAND_SHADES:
            ax.axvspan(max(low, sizes[0]), min(high, sizes[-1]), color=_BAND_SHADES[name], alpha=0.12, linewidth=0,
                       zorder=0)
    _choice_lines(ax, sizes, predicted, model.algorithm, model.protocol)
    ax.plot(sizes, measured, linestyle="none", marker="o", markersize=5, markerfacecolor="white",
            markeredgecolor=PALETTE["black"], markeredgewidth=1.2, zorder=3, label="measured (nccl-tests)")
    size_axis(ax)
    ax.set_xlim(sizes[0] / 1.5, sizes[-1] * 1.5)
    values = np.concatenate([measured[measured > 0], predicted[predicted > 0]])
    _busbw_log_axis(ax, 10.0 ** math.floor(math.log10(float(values.min()))),
                    10.0 ** math.ceil(math.log10(1.3 * float(values.max()))))
    ax.legend(loc="upper left", fontsize=7.5)
    if title:
        ax.set_title(title, loc="left", fontsize=9.5)
    return ax


@styled
def reproduction_ratio_plot(bands, ratios, groups, *, tolerance=0.30, ax=None, title=None):
    """Model over measurement for every row of a reproduction table, one column of points per band.

    Points are spread sideways so they do not hide each other (the spread means
    nothing), coloured by group (e.g. the development and validation families);
    a bar marks each band's median; the band of ``1 ± tolerance`` is shaded.

    Parameters
    ----------
    bands : sequence of str
        The band of each row, in the order the columns should take (first seen, first drawn).
    ratios : array_like
        Predicted over measured busbw of each row [-].
    groups : sequence of str
        The group of each row.
    tolerance : float
        Half-width of the shaded band around 1 [-].
    ax : matplotlib.axes.Axes, optional
        Axes to draw on; a new figure is made if omitted.
    title : str, optional
        Title.

    Returns
    -------
    matplotlib.axes.Axes
    """
    bands, groups = list(bands), list(groups)
    ratios = np.asarray(ratios, dtype=float)
    if not (len(bands) == len(groups) == ratios.size) or ratios.size == 0:
        raise ValueError("bands, ratios and groups must give one value per row, for at least one row")
    if np.any(ratios <= 0):
        raise ValueError("ratios must be positive (predicted / measured busbw)")
    if ax is None:
        _, ax = new_figure(6.0, 4.0)
    columns = list(dict.fromkeys(bands))
    names = list(dict.fromkeys(groups))
    markers, colors = ("o", "s", "^", "D"), (PALETTE["blue"], PALETTE["vermillion"], PALETTE["green"], PALETTE["purple"])
    ax.axhspan(1 - tolerance, 1 + tolerance, color=PALETTE["grey"], alpha=0.18, linewidth=0,
               label=f"within ±{tolerance:.0%}")
    ax.axhline(1.0, color=PALETTE["black"], linewidth=1, linestyle="--", label="model = measurement")
    for k, name in enumerate(names):
        for column, band in enumerate(columns):
            chosen = np.array([b == band and g == name for b, g in zip(bands, groups)])
            values = ratios[chosen]
            # A deterministic spread (golden-ratio steps, no random state), one side of the column per group.
            spread = ((np.arange(values.size) * 0.6180339887) % 1.0 - 0.5) * 0.18
            ax.scatter(column + (k - (len(names) - 1) / 2) * 0.22 + spread, values, s=22,
                       marker=markers[k % 4], color=colors[k % 4], alpha=0.8, zorder=3,
                       label=name if column == 0 else None)
    for column, band in enumerate(columns):
        median = float(np.median(ratios[[b == band for b in bands]]))
        ax.plot([column - 0.35, column + 0.35], [median, median], color=PALETTE["black"], linewidth=2.5, zorder=4,
                label="median" if column == 0 else None)
    ax.set_xticks(range(len(columns)), columns)
    ax.set_xlim(-0.6, len(columns) - 0.4)
    ax.set_yscale("log")
    ax.set_ylim(min(0.5, float(ratios.min()) / 1.2), max(2.0, float(ratios.max()) * 1.2))
    ax.yaxis.set_major_locator(LogLocator(base=10, subs=(1.0, 2.0, 5.0)))
    ax.yaxis.set_major_formatter(FuncFormatter(lambda y, _: f"{y:g}×"))
    ax.yaxis.set_minor_locator(NullLocator())
    ax.set_ylabel("model busbw / measured busbw [-]")
    ax.grid(axis="x", visible=False)
    legend_below(ax, ncols=3, fontsize=8, gap_pt=28.0)
    if title:
        ax.set_title(title, loc="left", fontsize=10)
    return ax
