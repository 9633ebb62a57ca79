"""Figures for mixture of experts (chapter 11): all-to-all time, skewed routing, an MoE layer.

Each function takes results of :mod:`interconnect_lab.moe`, draws on optional
axes and returns them. Artists an interactive panel updates in place carry a
``gid`` (``"bar:<part>"``, ``"value:<part>"``, ``"gpu-load"``).
"""

from __future__ import annotations

import numpy as np
from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter, PercentFormatter

from .. import units as u
from ..moe import MoELayerStep, RoutingLoad
from .style import COLORS, PALETTE, new_figure, styled

__all__ = ["DOMAIN_COLORS", "domain_comparison_plot", "routing_load_plot", "update_routing_load_plot",
           "moe_layer_plot", "update_moe_layer_plot", "measured_vs_model_plot", "LAYER_PARTS", "KERNEL_COLORS",
           "ep_reproduction_plot"]

#: Colours of the scale-up domains compared in the chapter.
DOMAIN_COLORS = (PALETTE["vermillion"], PALETTE["blue"], PALETTE["green"], PALETTE["orange"])

#: Colours that tell the labels of :func:`measured_vs_model_plot` apart (Okabe-Ito, without yellow).
MEASURED_COLORS = (PALETTE["vermillion"], PALETTE["blue"], PALETTE["green"], PALETTE["orange"], PALETTE["purple"],
                   PALETTE["sky"], PALETTE["black"])

#: The rows of :func:`moe_layer_plot`, top to bottom, with their colours.
LAYER_PARTS = {
    "attention and shared expert": COLORS["compute"],
    "routed experts (busiest GPU)": PALETTE["sky"],
    "dispatch": COLORS["communication"],
    "combine": PALETTE["orange"],
    "layer (exposed communication)": PALETTE["black"],
}


def time_axis(axis, subs=(1.0,)):
    def label(x, _):
        if x >= 1:
            return f"{x:g} s"
        if x >= 1e-3:
            return f"{x * 1e3:g} ms"
        return f"{x * 1e6:g} µs"
    axis.set_major_locator(LogLocator(base=10, subs=subs))
    axis.set_major_formatter(FuncFormatter(label))
    axis.set_minor_formatter(NullFormatter())


def _format_time(seconds):
    return u.format_time(seconds)


@styled
def domain_comparison_plot(ep_degrees, times_s, *, ax=None, title=None):
    """Dispatch plus combine time against the expert-parallel degree, one line per scale-up domain.

    Parameters
    ----------
    ep_degrees : array_like of int
        GPUs in the expert-parallel group [-].
    times_s : mapping of str to array_like
        Label → time of dispatch and combine at each degree [s].
    ax : matplotlib.axes.Axes, optional
    title : str, optional

    Returns
    -------
    matplotlib.axes.Axes
    """
    times_s = dict(times_s)
    if not times_s:
        raise ValueError("domain_comparison_plot needs at least one line")
    if ax is None:
        _, ax = new_figure(7.0, 3.8)
    x = np.asarray(ep_degrees, dtype=float)
    markers = ("o", "s", "^", "D")
    for index, (label, values) in enumerate(times_s.items()):
        values = np.asarray(values, dtype=float)
        if values.shape != x.shape:
            raise ValueError(f"line {label!r} has {values.size} values for {x.size} degrees")
        ax.plot(x, values / u.ms, marker=markers[index % len(markers)], color=DOMAIN_COLORS[index % len(DOMAIN_COLORS)],
                label=label, linewidth=1.8)
    ax.set_xscale("log", base=2)
    ax.set_xticks(x, [f"{int(v)}" for v in x])
    ax.xaxis.set_minor_formatter(NullFormatter())
    ax.set_ylim(0, 1.1 * max(float(np.max(v)) for v in times_s.values()) / u.ms)
    ax.set_xlabel("GPUs in the expert-parallel group")
    ax.set_ylabel("dispatch + combine, one layer [ms]")
    ax.legend(loc="upper left", fontsize=9)
    if title:
        ax.set_title(title, loc="left", fontsize=10)
    return ax


@styled
def routing_load_plot(load, *, ax=None, title=None, limit=None):
    """Token copies each GPU receives, busiest first, against the even share.

    The x axis is the GPU's rank in the order of load, as a share of the group,
    so groups of any size share one frame.

    Parameters
    ----------
    load : RoutingLoad
    ax : matplotlib.axes.Axes, optional
    title : str, optional
    limit : float, optional
        Upper end of the y axis, as a multiple of the mean (keeps a panel's axes fixed) [-].

    Returns
    -------
    matplotlib.axes.Axes
    """
    if not isinstance(load, RoutingLoad):
        raise TypeError(f"load must be a RoutingLoad, got {type(load).__name__}")
    if ax is None:
        _, ax = new_figure(6.0, 3.2)
    x, y = _load_steps(load)
    ax.fill_between([0, 1], 0, 1, color=PALETTE["grey"], alpha=0.15, step="pre", label="even share")
    ax.plot(x, y, drawstyle="steps-post", color=PALETTE["blue"], linewidth=2, gid="gpu-load",
            label="copies received")
    ax.axhline(1.0, color=PALETTE["black"], linestyle="--", linewidth=1.0)
    ax.set_xlim(0, 1)
    ax.set_ylim(0, limit if limit is not None else 1.1 * max(float(y.max()), 1.0))
    ax.xaxis.set_major_formatter(PercentFormatter(1.0))
    ax.set_xlabel("GPUs of the group, busiest first")
    ax.set_ylabel("load / even share [-]")
    ax.legend(loc="upper right", fontsize=8.5)
    if title:
        ax.set_title(title, loc="left", fontsize=9)
    return ax


def _load_steps(load):
    mean = load.mean_tokens_per_gpu
    per_gpu = np.sort(load.tokens_per_gpu)[::-1]
    shares = per_gpu / mean if mean > 0 else np.ones_like(per_gpu)
    x = np.arange(shares.size + 1) / shares.size
    return x, np.append(shares, shares[-1])


def update_routing_load_plot(ax, load):
    """Set the line of :func:`routing_load_plot` to a new load; return the changed artists.

    Parameters
    ----------
    ax : matplotlib.axes.Axes
        Axes :func:`routing_load_plot` drew.
    load : RoutingLoad
        The new draw.
    """
    lines = [line for line in ax.lines if line.get_gid() == "gpu-load"]
    if not lines:
        return None
    x, y = _load_steps(load)
    lines[0].set_data(x, np.minimum(y, ax.get_ylim()[1]))
    return lines


def _layer_values(step):
    return {
        "attention and shared expert": step.attention_s,
        "routed experts (busiest GPU)": step.experts_s,
        "dispatch": step.dispatch.time_s * (2 if step.passes == 3 else 1),
        "combine": step.combine.time_s * (2 if step.passes == 3 else 1),
        "layer (exposed communication)": float(step.step.step_s),
    }


@styled
def moe_layer_plot(step, *, ax=None, limits_s=(1e-6, 1.0), title=None):
    """Where the time of one MoE layer goes on one GPU, on a logarithmic time axis.

    Parameters
    ----------
    step : MoELayerStep
    ax : matplotlib.axes.Axes, optional
    limits_s : (float, float)
        Ends of the time axis [s]; longer bars stop at the edge and their label gives the value.
    title : str, optional

    Returns
    -------
    matplotlib.axes.Axes
    """
    if not isinstance(step, MoELayerStep):
        raise TypeError(f"step must be an MoELayerStep, got {type(step).__name__}")
    if ax is None:
        _, ax = new_figure(7.5, 3.0)
    low, high = limits_s
    values = _layer_values(step)
    y = np.arange(len(LAYER_PARTS))[::-1]
    for yi, (part, colour) in zip(y, LAYER_PARTS.items()):
        value = min(max(values[part], low), high)
        ax.barh(yi, value - low, left=low, height=0.62, color=colour, gid=f"bar:{part}")
        ax.text(low * 1.3, yi, "", va="center", ha="left", fontsize=8.5, color="white", fontweight="bold",
                gid=f"value:{part}")
    ax.set_xscale("log")
    ax.set_xlim(low, high)
    time_axis(ax.xaxis)
    ax.set_yticks(y, list(LAYER_PARTS))
    ax.set_xlabel("time on one GPU (logarithmic)")
    ax.grid(axis="y", visible=False)
    if title:
        ax.set_title(title, loc="left", fontsize=9)
    update_moe_layer_plot(ax, step)
    return ax


def update_moe_layer_plot(ax, step):
    """Set the bars and labels of :func:`moe_layer_plot` to ``step``; return the changed artists.

    Parameters
    ----------
    ax : matplotlib.axes.Axes
        Axes :func:`moe_layer_plot` drew.
    step : MoELayerStep
        The new result.
    """
    low, high = ax.get_xlim()
    values = _layer_values(step)
    changed = []
    for artist in list(ax.patches) + list(ax.texts):
        gid = artist.get_gid() or ""
        kind, _, part = gid.partition(":")
        if part not in values:
            continue
        value = values[part]
        if kind == "bar":
            artist.set_width(min(max(value, low), high) - low)
        else:
            artist.set_text(_format_time(value))
            inside = value > low * 30
            artist.set_color("white" if inside else PALETTE["black"])
            artist.set_x(low * 1.3 if inside else min(max(value, low), high) * 1.15)
        changed.append(artist)
    return changed


@styled
def measured_vs_model_plot(labels, measured, modelled, *, tolerance, unit, scale=1.0, ax=None, title=None,
                           kinds=None):
    """Published measurements against the model, with the tolerance the tests use.

    Parameters
    ----------
    labels : sequence of str
        One per point. Without ``kinds``, each label is a point of its own
        colour and marker; with ``kinds``, points that share a label share a
        colour (e.g. ``"EP 16"``).
    measured, modelled : array_like
        The published and the modelled values, same unit [any].
    tolerance : float
        Relative tolerance drawn as a band around equality [-].
    unit : str
        Axis unit after scaling.
    scale : float
        Values are divided by it for display.
    ax : matplotlib.axes.Axes, optional
    title : str, optional
    kinds : sequence of str, optional
        One per point: points of one kind share a marker (e.g. ``"dispatch"``,
        ``"combine"``; the first kind filled, the others open), and the legend
        names kinds by marker and labels by colour.

    Returns
    -------
    matplotlib.axes.Axes
    """
    measured = np.asarray(measured, dtype=float) / scale
    modelled = np.asarray(modelled, dtype=float) / scale
    if measured.shape != modelled.shape or measured.size != len(labels):
        raise ValueError("labels, measured and modelled must have the same length")
    if kinds is not None and len(kinds) != len(labels):
        raise ValueError(f"kinds must name one kind per point: {len(kinds)} kinds for {len(labels)} points")
    if ax is None:
        _, ax = new_figure(5.5, 4.5)
    top = 1.15 * max(measured.max(), modelled.max())
    line = np.array([0, top])
    ax.fill_between(line, line * (1 - tolerance), line * (1 + tolerance), color=PALETTE["grey"], alpha=0.2,
                    label="within the tests' tolerance")
    ax.plot(line, line, color=PALETTE["black"], linewidth=1, linestyle="--", label="model = measurement")
    markers = ("o", "s", "^", "D", "v", "P", "X", "*")
    groups = list(dict.fromkeys(labels))
    kind_names = [] if kinds is None else list(dict.fromkeys(kinds))
    if len(groups) > len(MEASURED_COLORS) or len(kind_names) > len(markers):
        raise ValueError(f"at most {len(MEASURED_COLORS)} labels and {len(markers)} kinds can be told apart; "
                         f"got {len(groups)} labels and {len(kind_names)} kinds")
    if kinds is None and len(groups) < len(labels):
        raise ValueError("without kinds, every point needs its own label")
    def style(kind, color):
        # The first kind filled, the others drawn open, so a point on top of another shows both.
        if kind:
            return dict(marker=markers[kind], facecolor="none", edgecolor=color, linewidth=1.6, s=64)
        return dict(marker=markers[kind], color=color, edgecolor="white", linewidth=0.6, s=46)

    for index, (label, m, p) in enumerate(zip(labels, measured, modelled)):
        group = groups.index(label)
        if kinds is None:
            ax.scatter(m, p, marker=markers[group], s=46, zorder=3, color=MEASURED_COLORS[group], label=label)
        else:
            ax.scatter(m, p, zorder=3, **style(kind_names.index(kinds[index]), MEASURED_COLORS[group]))
    if kinds is not None:
        for kind, name in enumerate(kind_names):
            ax.scatter([], [], label=name, **style(kind, PALETTE["black"]))
        for group, label in enumerate(groups):
            ax.scatter([], [], marker="s", s=46, color=MEASURED_COLORS[group], label=label)
    ax.set_xlim(0, top)
    ax.set_ylim(0, top)
    ax.set_xlabel(f"published [{unit}]")
    ax.set_ylabel(f"model [{unit}]")
    ax.legend(loc="upper left", fontsize=8)
    if title:
        ax.set_title(title, loc="left", fontsize=10)
    return ax


#: Colours of the kinds of kernel in :func:`ep_reproduction_plot`.
KERNEL_COLORS = {"normal": PALETTE["blue"], "low_latency": PALETTE["vermillion"],
                 "host_proxied": PALETTE["orange"], "nvlink_one_sided": PALETTE["green"],
                 "nccl": PALETTE["purple"]}


@styled
def ep_reproduction_plot(rows, *, ax=None, title=None, limits=(0.8, 60.0)):
    """The model's speed over each published measurement, one column per published table.

    A point at 1 is exact; above 1 the model is too fast (its time shorter, its
    bandwidth higher, counted as the authors count it). Dispatch filled, combine
    open; colour by kind of kernel; the development table shaded.

    Parameters
    ----------
    rows : sequence of interconnect_lab.moe.reproduction.EPReproductionRow
        From :func:`interconnect_lab.moe.reproduction.ep_reproduction_table`.
    ax : matplotlib.axes.Axes, optional
    title : str, optional
    limits : (float, float)
        The y axis, model speed over measured [-] (log scale).

    Returns
    -------
    matplotlib.axes.Axes
    """
    from ..moe.reproduction import EPReproductionRow

    rows = list(rows)
    if not rows or not all(isinstance(r, EPReproductionRow) for r in rows):
        raise TypeError("rows must be a non-empty sequence of EPReproductionRow (from ep_reproduction_table)")
    if ax is None:
        _, ax = new_figure(10.0, 4.2)
    tables = list(dict.fromkeys(r.benchmark.table.label for r in rows))
    by_table = {label: [r for r in rows if r.benchmark.table.label == label] for label in tables}
    for index, label in enumerate(tables):
        members = by_table[label]
        table = members[0].benchmark.table
        if table.family == "development":
            ax.axvspan(index - 0.5, index + 0.5, color=PALETTE["grey"], alpha=0.12, linewidth=0)
            ax.text(index, limits[0] * 1.04, "development", ha="center", va="bottom", fontsize=7,
                    color=PALETTE["grey"])
        offsets = np.linspace(-0.3, 0.3, len(members)) if len(members) > 1 else [0.0]
        color = KERNEL_COLORS.get(table.kernel, PALETTE["black"])
        for offset, row in zip(offsets, members):
            ratio = min(max(1 + row.error, limits[0]), limits[1])
            filled = row.benchmark.operation == "dispatch"
            ax.scatter(index + offset, ratio, s=30, zorder=3, marker="o",
                       color=color if filled else "none", edgecolor=color, linewidth=1.2)
    ax.axhline(1.0, color=PALETTE["black"], linewidth=1, linestyle="--")
    ax.set_yscale("log")
    ax.set_ylim(*limits)
    ticks = [t for t in (1, 2, 5, 10, 20, 50, 100) if limits[0] <= t <= limits[1]]
    ax.set_yticks(ticks)
    ax.yaxis.set_major_formatter(FuncFormatter(lambda y, _: f"{y:g}×"))
    ax.yaxis.set_minor_formatter(NullFormatter())
    ax.set_xticks(range(len(tables)))
    ax.set_xticklabels([f"{by_table[t][0].benchmark.table.implementation.split(' (')[0].replace(' kernels', '')}\n"
                        f"{by_table[t][0].benchmark.table.gpu_as_published.split(' (')[0]}" for t in tables],
                       fontsize=7.5, rotation=30, ha="right")
    ax.set_xlim(-0.6, len(tables) - 0.4)
    ax.set_ylabel("model speed / measured [-]")
    for kernel in dict.fromkeys(by_table[t][0].benchmark.table.kernel for t in tables):
        ax.scatter([], [], s=30, color=KERNEL_COLORS.get(kernel, PALETTE["black"]), label=kernel.replace("_", " "))
    ax.scatter([], [], s=30, color="none", edgecolor=PALETTE["black"], label="combine (open)")
    ax.legend(loc="upper left", fontsize=8, ncol=3)
    if title:
        ax.set_title(title, loc="left", fontsize=10)
    return ax
