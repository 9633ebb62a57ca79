"""Figures for the memory wall (chapter 3): model state and KV cache against HBM, offload's cost.

- :func:`memory_wall_plot`: each model's 16-bit weights and whole training state
  against the HBM of the catalog's GPUs, on one log scale.
- :func:`kv_cache_plot`: KV cache against context length, per model.
- :func:`offload_share_plot`: how much longer a step gets when state crosses the
  host link, against the tokens each GPU computes per step.
- :func:`offload_memory_plot` and :func:`offload_paths_plot`: the two halves of the
  offload panel: where the state lives against what fits, and the step on every path.
- :func:`decode_plot`: time per decode step against the share of the KV cache
  kept outside HBM.
"""

from __future__ import annotations

import numpy as np
from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter, PercentFormatter

from .. import units as u
from .style import COLORS, PALETTE, axes_size_in, bar_legend, new_figure, styled, text_width_in

__all__ = ["memory_wall_plot", "kv_cache_plot", "offload_share_plot", "offload_memory_plot",
           "offload_paths_plot", "update_offload_memory", "update_offload_paths", "decode_plot", "PATH_COLORS",
           "path_color"]

#: One colour per offload path family, shared by every figure of the chapter.
PATH_COLORS = {
    "PCIe Gen3": PALETTE["grey"],
    "PCIe Gen4": PALETTE["sky"],
    "PCIe Gen5": PALETTE["blue"],
    "PCIe Gen6": PALETTE["purple"],
    "CXL": PALETTE["green"],
    "NVLink-C2C": PALETTE["orange"],
}
_LINE_STYLES = ("-", "--", "-.", ":", (0, (5, 1)), (0, (3, 1, 1, 1)))


def path_color(name):
    """The colour of an offload path, from the link family its name mentions.

    Parameters
    ----------
    name : str
        An offload path's name (a key of ``memory.OFFLOAD_PATHS``).
    """
    return next((colour for key, colour in PATH_COLORS.items() if key in name), PALETTE["black"])


def _gb_axis(axis):
    axis.set_major_formatter(FuncFormatter(lambda x, _: f"{x:,.0f}" if x >= 1 else f"{x:g}"))
    axis.set_minor_formatter(NullFormatter())


def _capacity_clusters(capacities, ratio=1.12):
    """Capacities grouped when within ``ratio`` of the smallest of their group: [(low, high, names)]."""
    clusters = []
    for name, capacity in sorted(capacities.items(), key=lambda item: item[1]):
        if clusters and capacity <= clusters[-1][0] * ratio:
            low, _, names = clusters[-1]
            clusters[-1] = (low, capacity, names + [name])
        else:
            clusters.append((capacity, capacity, [name]))
    return clusters


#: Font size of the HBM labels [pt].
_CAPACITY_FONTSIZE = 9


def _capacity_label(low, high, names):
    amount = f"{low / u.GB:,.0f}" if low == high else f"{low / u.GB:,.0f}-{high / u.GB:,.0f}"
    return f"{', '.join(names)}: {amount} GB"


def _log_span(limits):
    low, high = limits
    return float(np.log10(high) - np.log10(low))


def _capacity_lines(ax, capacities, *, vertical=True, curves=()):
    """Dashed lines at each HBM capacity, each group of nearby capacities labelled at its own line.

    Vertical lines (a log x axis): the labels stand above the axes in a
    staircase, the lowest capacity's on the top row, each joined to its lines
    by their dashed continuation. Horizontal lines (a log y axis): each label
    sits just above its lines (below, when the next line up leaves no room
    for it) where none of ``curves`` (pairs of x and y data arrays) runs
    through it, at the left edge if it can, else at the right edge, else in
    the first free place in between. Call it after the curves are drawn and
    the scales set.
    """
    colour = COLORS["communication"]
    for capacity in capacities.values():
        line = ax.axvline if vertical else ax.axhline
        line(capacity / u.GB, color=colour, linestyle="--", linewidth=1, zorder=1)
    clusters = _capacity_clusters(capacities)
    fontsize = _CAPACITY_FONTSIZE
    row_pt = 1.3 * fontsize
    width_in, height_in = axes_size_in(ax)
    if vertical:
        for index, (low, high, names) in enumerate(clusters):
            row = len(clusters) - 1 - index
            top_pt = 4 + row_pt * (row + 0.5)
            for capacity in sorted({c for c in capacities.values() if low <= c <= high}):
                # The dashed line continued above the axes, up to its label.
                ax.annotate("", (capacity / u.GB, 1.0), xycoords=("data", "axes fraction"),
                            xytext=(0, top_pt), textcoords="offset points", annotation_clip=False,
                            arrowprops={"arrowstyle": "-", "linestyle": "--", "color": colour, "linewidth": 1,
                                        "shrinkA": 0, "shrinkB": 0})
            ax.annotate(_capacity_label(low, high, names), (high / u.GB, 1.0), xycoords=("data", "axes fraction"),
                        xytext=(3, top_pt), textcoords="offset points", ha="left", va="center",
                        fontsize=fontsize, color=colour, annotation_clip=False)
        return
    x_span, y_span = _log_span(ax.get_xlim()), _log_span(ax.get_ylim())
    x_low, y_low = np.log10(ax.get_xlim()[0]), np.log10(ax.get_ylim()[0])
    height = 1.2 * fontsize / 72 / height_in         # a label's height [axes fraction]
    gap = 1.5 / 72 / height_in

    def fraction(value_gb):
        return (np.log10(value_gb) - y_low) / y_span

    levels = sorted(fraction(c / u.GB) for c in capacities.values())
    paths = [(np.log10(np.asarray(x, dtype=float)), np.log10(np.asarray(y, dtype=float))) for x, y in curves]

    def free(x0, x1, y0, y1, placed):
        if y0 < 0 or y1 > 1 or any(y0 < level < y1 for level in levels):
            return False
        if any(x0 < b[1] and b[0] < x1 and y0 < b[3] and b[2] < y1 for b in placed):
            return False
        for log_x, log_y in paths:
            inside = np.linspace(x_low + x0 * x_span, x_low + x1 * x_span, 50)
            inside = inside[(inside >= log_x.min()) & (inside <= log_x.max())]
            curve = np.interp(inside, log_x, log_y)
            if np.any((curve >= y_low + y0 * y_span) & (curve <= y_low + y1 * y_span)):
                return False
        return True

    placed = []
    for low, high, names in reversed(clusters):        # from the top: the highest line's label goes first
        text = _capacity_label(low, high, names)
        top, bottom = fraction(high / u.GB), fraction(low / u.GB)
        width = text_width_in(text, fontsize) / width_in + 0.01
        options = [(x, above) for x in (0.01, 0.99 - width, *np.arange(0.02, 0.99 - width, 0.01))
                   for above in (True, False)]

        def box(option):
            x, above = option
            return (x, x + width, top + gap, top + gap + height) if above else (
                x, x + width, bottom - gap - height, bottom - gap)

        x, above = next((o for o in options if free(*box(o), placed)), options[0])
        placed.append(box((x, above)))
        ax.annotate(text, (x, high / u.GB if above else low / u.GB), xycoords=("axes fraction", "data"),
                    xytext=(0, 1.5 if above else -1.5), textcoords="offset points", ha="left",
                    va="bottom" if above else "top", fontsize=fontsize, color=colour, zorder=4)


def _clear_of_lines(value, lines, factor):
    """Where text starting at ``value`` and spanning ``factor`` of it (log axis) crosses none of ``lines``."""
    start = value
    for line in sorted(lines):
        if start / 1.03 <= line <= start * factor * 1.03:
            start = line * 1.06
    return start


@styled
def memory_wall_plot(labels, states, capacities, *, ax=None, title=None):
    """Each model's 16-bit weights and whole training state against GPUs' HBM, log scale.

    Parameters
    ----------
    labels : sequence of str
        One label per model.
    states : sequence of interconnect_lab.memory.TrainingState
        Scalar training states (:func:`interconnect_lab.memory.training_state`).
    capacities : mapping of str to float
        HBM capacity per GPU [B], by GPU name; drawn as dashed lines.
    ax : matplotlib.axes.Axes, optional
    title : str, optional

    Returns
    -------
    matplotlib.axes.Axes
    """
    labels, states = list(labels), list(states)
    if len(labels) != len(states) or not states:
        raise ValueError(f"memory_wall_plot needs one label per state, got {len(labels)} and {len(states)}")
    if ax is None:
        _, ax = new_figure(7.5, 0.5 * len(labels) + 2.2)
    y = np.arange(len(labels))[::-1]
    total = np.array([float(s.total_bytes) for s in states]) / u.GB
    weights = np.array([float(s.weights_bytes) for s in states]) / u.GB
    ax.barh(y, total, height=0.7, color=PALETTE["green"], alpha=0.35, edgecolor=PALETTE["green"],
            label="training state (16 B per parameter)")
    ax.barh(y, weights, height=0.7, color=COLORS["compute"], label="16-bit weights (2 B per parameter)")
    ax.set_xscale("log")
    ax.set_xlim(min(weights.min(), min(capacities.values()) / u.GB) / 2, total.max() * 4)
    decades_per_in = _log_span(ax.get_xlim()) / axes_size_in(ax)[0]
    lines = [c / u.GB for c in capacities.values()]
    for row, value in zip(y, total):
        text = f"{value / 1e3:,.2f} TB" if value >= 1e3 else f"{value:,.0f} GB"
        # Right of the bar, or right of the HBM lines that would run through the text.
        span = 10 ** (decades_per_in * (text_width_in(text, 8) + 0.05))
        ax.text(_clear_of_lines(value * 1.08, lines, span), row, text, va="center", fontsize=8, zorder=4,
                bbox={"facecolor": "white", "edgecolor": "none", "pad": 1.0, "alpha": 0.85})
    _capacity_lines(ax, capacities)
    _gb_axis(ax.xaxis)
    ax.set_yticks(y, labels)
    ax.set_xlabel("memory [GB] (log scale); dashed: HBM of one GPU")
    ax.grid(axis="y", visible=False)
    ax.legend(loc="upper right", fontsize=8, frameon=True, framealpha=0.9, edgecolor="white")
    if title:
        ax.set_title(title, loc="left", fontsize=10)
    return ax


@styled
def kv_cache_plot(tokens, sizes, capacities, *, ax=None, title=None):
    """KV cache against the tokens cached, one line per model, with HBM capacities.

    Parameters
    ----------
    tokens : array_like
        Tokens cached [token].
    sizes : mapping of str to array_like
        Cache size at each token count [B], by model label.
    capacities : mapping of str to float
        HBM per GPU [B], by GPU name; dashed lines.
    ax : matplotlib.axes.Axes, optional
    title : str, optional

    Returns
    -------
    matplotlib.axes.Axes
    """
    tokens = np.asarray(tokens, dtype=float)
    if ax is None:
        _, ax = new_figure(7.0, 4.6)       # tall enough that an HBM label fits between two nearby lines
    colours = [PALETTE[c] for c in ("blue", "green", "purple", "black", "sky")]
    curves = []
    for (label, size), colour, style in zip(sizes.items(), colours * 2, _LINE_STYLES):
        curves.append((tokens, np.asarray(size, dtype=float) / u.GB))
        ax.plot(*curves[-1], color=colour, linestyle=style, lw=1.8, label=label)
    ax.set_xscale("log")
    ax.set_yscale("log")
    for capacity in capacities.values():           # the HBM lines inside the y range
        ax.update_datalim([(tokens[0], capacity / u.GB)])
    ax.autoscale_view()
    _capacity_lines(ax, capacities, vertical=False, curves=curves)
    ax.xaxis.set_major_locator(LogLocator(base=10))
    ax.xaxis.set_major_formatter(FuncFormatter(lambda x, _: f"{x:,.0f}"))
    ax.xaxis.set_minor_formatter(NullFormatter())
    _gb_axis(ax.yaxis)
    ax.set_xlabel("tokens in the cache [token] (log scale)")
    ax.set_ylabel("KV cache, 16-bit [GB]\n(log scale); dashed: HBM")
    ax.legend(loc="best", fontsize=8)          # "best" keeps clear of the curves and the HBM labels
    if title:
        ax.set_title(title, loc="left", fontsize=10)
    return ax


@styled
def offload_share_plot(tokens, steps, *, ax=None, title=None):
    """How much longer a step gets when state crosses the host link, against tokens per GPU.

    Parameters
    ----------
    tokens : array_like
        Tokens each GPU computes per step [token].
    steps : mapping of str to interconnect_lab.memory.OffloadStep
        One step computed over ``tokens`` per label (the path's name picks the colour).
    ax : matplotlib.axes.Axes, optional
    title : str, optional

    Returns
    -------
    matplotlib.axes.Axes
    """
    tokens = np.asarray(tokens, dtype=float)
    if ax is None:
        _, ax = new_figure(7.0, 3.8)
    for (label, step), style in zip(steps.items(), _LINE_STYLES * 3):
        ax.plot(tokens, 100 * np.asarray(step.added_fraction), color=path_color(step.path), linestyle=style,
                lw=1.8, label=label)
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.xaxis.set_major_formatter(FuncFormatter(lambda x, _: f"{x / 1024:g}k" if x >= 1024 else f"{x:g}"))
    ax.yaxis.set_major_formatter(FuncFormatter(lambda y, _: f"{y:g}%"))
    ax.yaxis.set_minor_formatter(NullFormatter())
    ax.set_xlabel("tokens each GPU computes per step [token] (log scale)")
    ax.set_ylabel("step longer than its\ncompute alone [%] (log scale)")
    ax.legend(loc="upper right", fontsize=8)
    if title:
        ax.set_title(title, loc="left", fontsize=10)
    return ax


_MEMORY_ROWS = ("HBM, nothing offloaded", "HBM, with the plan", "host memory, with the plan")


@styled
def offload_memory_plot(step, *, ax=None, limits=None):
    """Training state per GPU: in HBM without and with the plan, and in host memory; capacities as ticks.

    Parameters
    ----------
    step : interconnect_lab.memory.OffloadStep
    ax : matplotlib.axes.Axes, optional
    limits : (float, float), optional
        Ends of the (logarithmic) memory axis [GB]; automatic if omitted.

    Returns
    -------
    matplotlib.axes.Axes
        Its ``bars`` (three Rectangles), ``capacity_marks`` (two Line2D) and
        ``value_texts`` (three Text) are kept on the axes as ``ax.offload_artists``
        for a panel to update in place.
    """
    if ax is None:
        _, ax = new_figure(3.6, 2.6)
    y = np.arange(3)[::-1]
    values = np.array([step.all_on_gpu_bytes, step.gpu_bytes, step.host_bytes]) / u.GB
    colours = [PALETTE["grey"], COLORS["compute"], PALETTE["green"]]
    bars = ax.barh(y, values, height=0.6, color=colours)
    host = step.host_capacity_bytes / u.GB if step.host_capacity_bytes is not None else np.nan
    hbm = step.hbm_bytes / u.GB
    marks = [ax.plot([hbm, hbm], [row - 0.42, row + 0.42], color=COLORS["communication"], lw=2.2)[0]
             for row in y[:2]]
    marks.append(ax.plot([host, host], [y[2] - 0.42, y[2] + 0.42], color=COLORS["communication"], lw=2.2,
                         linestyle=(0, (2, 1)))[0])
    texts = [ax.text(0, row, "", va="center", fontsize=8) for row in y]
    ax.set_yticks(y, [label.replace(", ", ",\n") for label in _MEMORY_ROWS], fontsize=8)
    ax.set_xscale("log")
    if limits is not None:
        ax.set_xlim(*limits)
    _gb_axis(ax.xaxis)
    ax.set_xlabel("training state per GPU [GB] (log scale)")
    ax.grid(axis="y", visible=False)
    ax.set_title("where the state lives (ticks: capacity)", loc="left", fontsize=9)
    ax.offload_artists = {"bars": list(bars), "marks": marks, "texts": texts}
    update_offload_memory(ax, step)
    return ax


def update_offload_memory(ax, step):
    """Set the memory bars, capacity ticks and value texts from ``step``; return the artists changed.

    Parameters
    ----------
    ax : matplotlib.axes.Axes
        Axes :func:`offload_memory_plot` drew.
    step : OffloadStep
        The new result.
    """
    artists = ax.offload_artists
    values = np.array([step.all_on_gpu_bytes, step.gpu_bytes, step.host_bytes]) / u.GB
    hbm = step.hbm_bytes / u.GB
    host = step.host_capacity_bytes / u.GB if step.host_capacity_bytes is not None else np.nan
    limit = ax.get_xlim()[1]
    for bar, value in zip(artists["bars"], values):
        bar.set_width(value)
    for mark, capacity in zip(artists["marks"], (hbm, hbm, host)):
        mark.set_xdata([capacity, capacity])
    fits = [values[0] <= hbm, values[1] <= hbm, bool(values[2] <= host) if np.isfinite(host) else None]
    for text, value, fit, capacity in zip(artists["texts"], values, fits, (hbm, hbm, host)):
        verdict = "" if fit is None else (" fits" if fit else " too big")
        text.set_text(f" {value:,.0f} GB{verdict}")
        end = max(value, capacity) if np.isfinite(capacity) else value
        text.set_x(min(max(end * 1.1, ax.get_xlim()[0]), limit / 30))
    return artists["bars"] + artists["marks"] + artists["texts"]


@styled
def offload_paths_plot(labels, steps, *, selected=None, ax=None, limit=None):
    """One training step on every offload path, relative to its compute: compute, hidden and exposed transfers.

    Each bar is the step divided by its compute time: the blue part is the
    compute (100%), the thin orange part the transfers hidden under it, the
    vermillion part the transfers the GPU waits for.

    Parameters
    ----------
    labels : sequence of str
        One label per path.
    steps : sequence of interconnect_lab.memory.OffloadStep
        Scalar steps, one per path.
    selected : int, optional
        Index of the path to highlight.
    ax : matplotlib.axes.Axes, optional
    limit : float, optional
        Right end of the axis, as a multiple of the compute time [-]; by default
        1.15 x the longest step.

    Returns
    -------
    matplotlib.axes.Axes
        Its bars are kept as ``ax.offload_artists`` for :func:`update_offload_paths`.
    """
    labels, steps = list(labels), list(steps)
    if len(labels) != len(steps) or not steps:
        raise ValueError(f"offload_paths_plot needs one label per step, got {len(labels)} and {len(steps)}")
    if ax is None:
        _, ax = new_figure(4.6, 2.6)
    y = np.arange(len(steps))[::-1]
    zeros = np.zeros(len(steps))
    compute_bars = ax.barh(y, zeros + 1, height=0.62, color=COLORS["compute"], label="compute")
    hidden_bars = ax.barh(y, zeros, height=0.22, color=COLORS["hidden"], label="transfer, hidden")
    exposed_bars = ax.barh(y, zeros, left=1, height=0.62, color=COLORS["communication"],
                           label="transfer, GPU waits")
    texts = [ax.text(1, row, "", va="center", fontsize=8) for row in y]
    ax.set_yticks(y, labels, fontsize=8)
    ax.set_xlim(0, limit or 1.15 * max(1 + float(s.added_fraction) for s in steps))
    ax.xaxis.set_major_formatter(PercentFormatter(1.0))
    ax.set_xlabel("step time relative to compute alone [%]")
    ax.grid(axis="y", visible=False)
    ax.offload_artists = {"compute": list(compute_bars), "hidden": list(hidden_bars),
                          "exposed": list(exposed_bars), "texts": texts}
    update_offload_paths(ax, steps, selected)
    # The parts these steps draw (no transfer, or none hidden, draws nothing of that part).
    bar_legend(ax, loc="upper center", bbox_to_anchor=(0.4, -0.22), ncol=3, fontsize=7, frameon=False,
               handlelength=1.0, columnspacing=0.8, handletextpad=0.4)
    return ax


def update_offload_paths(ax, steps, selected):
    """Set every path's bars, its text and the highlight from ``steps``; return the artists changed.

    A bar longer than the axis stops at its end; its text still gives the full value.

    Parameters
    ----------
    ax : matplotlib.axes.Axes
        Axes :func:`offload_paths_plot` drew.
    steps : sequence of OffloadStep
        The new results, one per path, in the order drawn.
    selected : int or None
        The path to highlight.
    """
    artists = ax.offload_artists
    limit = ax.get_xlim()[1]
    changed = []
    for index, step in enumerate(steps):
        hidden = float(step.step.hidden_communication_s / step.compute_s)
        exposed = min(float(step.exposed_s / step.compute_s), limit - 1)
        chosen = index == selected
        artists["hidden"][index].set_x(1 - hidden)
        artists["hidden"][index].set_width(hidden)
        artists["exposed"][index].set_width(exposed)
        for bar in (artists["compute"][index], artists["exposed"][index]):
            bar.set_edgecolor(PALETTE["black"] if chosen else "none")
            bar.set_linewidth(1.4 if chosen else 0)
        text = artists["texts"][index]
        text.set_text(f" +{step.added_fraction:.1%}")
        text.set_x(min(1 + exposed, 0.84 * limit))
        text.set_fontweight("bold" if chosen else "normal")
        changed += [artists["compute"][index], artists["hidden"][index], artists["exposed"][index], text]
    return changed


@styled
def decode_plot(fractions, steps, *, ax=None, title=None):
    """Time per decode step against the share of the KV cache kept outside HBM, one line per path.

    Parameters
    ----------
    fractions : array_like
        Shares of the cache offloaded [-].
    steps : mapping of str to interconnect_lab.memory.DecodeStep
        Steps computed over ``fractions``, by path name.
    ax : matplotlib.axes.Axes, optional
    title : str, optional

    Returns
    -------
    matplotlib.axes.Axes
    """
    fractions = np.asarray(fractions, dtype=float)
    if ax is None:
        _, ax = new_figure(7.0, 3.6)
    for (label, step), style in zip(steps.items(), _LINE_STYLES * 3):
        ax.plot(fractions, np.asarray(step.step_s) / u.ms, color=path_color(label), linestyle=style, lw=1.8,
                label=label)
    ax.set_yscale("log")
    ax.xaxis.set_major_formatter(PercentFormatter(1.0))
    ax.yaxis.set_major_formatter(FuncFormatter(lambda y, _: f"{y:g}"))
    ax.yaxis.set_minor_formatter(NullFormatter())
    ax.set_xlabel("share of the KV cache kept outside HBM [%]")
    ax.set_ylabel("time per decode step [ms]\n(log scale)")
    ax.legend(loc="lower right", fontsize=8)
    if title:
        ax.set_title(title, loc="left", fontsize=10)
    return ax
