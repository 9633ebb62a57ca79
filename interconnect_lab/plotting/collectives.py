"""Figures for collectives (chapter 7): bandwidth and time against message size, and
a collective's data moving step by step."""

from __future__ import annotations

import math

import numpy as np
from matplotlib.colors import LinearSegmentedColormap
from matplotlib.ticker import FuncFormatter, LogLocator

from .. import units as u
from ..units import format_bytes
from .style import COLORS, PALETTE, legend_below, new_figure, styled

__all__ = ["bus_bandwidth_plot", "collective_time_plot", "collective_steps_plot", "crossover_plot",
           "bus_bandwidth_scaling_plot"]

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
                               title=None):
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
    ax.set_xscale("log", base=2)
    ax.xaxis.set_major_formatter(FuncFormatter(lambda x, _: f"{x:g}"))
    ax.set_xlabel(xlabel)
    ax.set_ylim(0, 1.15 * top)
    ax.set_ylabel("bus bandwidth [GB/s]")
    ax.legend(loc="best", fontsize=9)
    if title:
        ax.set_title(title, loc="left")
    return ax
