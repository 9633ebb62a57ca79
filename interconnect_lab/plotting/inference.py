"""Figures for inference traffic (chapter 12): all-reduces as engines run them, decode, KV transfer and tiers,
wide expert parallelism, TTFT and ITL.

Each function takes results of :mod:`interconnect_lab.inference`, draws on
optional axes and returns them. Artists a panel updates in place carry a
``gid`` (``"segment:<row>:<part>"``, ``"total:<row>"``).
"""

from __future__ import annotations

import numpy as np
from matplotlib.ticker import PercentFormatter

from .. import units as u
from ..inference import DisaggregatedTTFT, ServingDeployment, WideEPDecode
from .moe import time_axis
from .style import COLORS, PALETTE, bar_legend, new_figure, styled

__all__ = ["decode_all_reduce_plot", "kv_transfer_plot", "serving_plot", "update_serving_plot", "SERVING_PARTS",
           "serving_all_reduce_plot", "wide_ep_plot", "update_wide_ep_plot", "WIDE_EP_PARTS", "ttft_tiers_plot",
           "update_ttft_tiers_plot", "TTFT_PARTS"]

#: Rows of :func:`serving_plot` and the parts of each, with colours; the network's parts are warm.
SERVING_PARTS = {
    "TTFT": {"prefill compute": COLORS["compute"], "prefill all-reduces": COLORS["communication"],
             "KV transfer (exposed)": PALETTE["purple"]},
    "ITL": {"HBM reads": PALETTE["sky"], "decode all-reduces": COLORS["communication"]},
}
_LINE_COLORS = (PALETTE["vermillion"], PALETTE["blue"], PALETTE["green"], PALETTE["orange"], PALETTE["purple"])


@styled
def decode_all_reduce_plot(tensor_parallel, lines_s, *, ax=None, title=None):
    """Time per decode step against the tensor-parallel degree, one line per component.

    Parameters
    ----------
    tensor_parallel : array_like of int
        TP degrees [-].
    lines_s : mapping of str to array_like
        Label → seconds per decode step at each degree [s] (e.g. HBM reads,
        all-reduces with each algorithm).
    ax : matplotlib.axes.Axes, optional
    title : str, optional

    Returns
    -------
    matplotlib.axes.Axes
    """
    lines_s = dict(lines_s)
    if not lines_s:
        raise ValueError("decode_all_reduce_plot needs at least one line")
    if ax is None:
        _, ax = new_figure(7.0, 3.8)
    x = np.asarray(tensor_parallel, dtype=float)
    styles = ("-", "--", "-.", ":")
    for index, (label, values) in enumerate(lines_s.items()):
        values = np.asarray(values, dtype=float)
        if values.shape != x.shape:
            raise ValueError(f"line {label!r} has {values.size} values for {x.size} degrees")
        ax.plot(x, values, marker="o", linestyle=styles[index % len(styles)],
                color=_LINE_COLORS[index % len(_LINE_COLORS)], label=label, linewidth=1.8)
    ax.set_xscale("log", base=2)
    ax.set_xticks(x, [f"{int(v)}" for v in x])
    ax.set_yscale("log")
    time_axis(ax.yaxis, subs=(1.0, 2.0, 5.0))
    ax.set_xlabel("tensor-parallel GPUs (log scale)")
    ax.set_ylabel("time per decode step (log scale)")
    ax.legend(loc="best", fontsize=8.5)
    if title:
        ax.set_title(title, loc="left", fontsize=10)
    return ax


@styled
def kv_transfer_plot(prompt_tokens, lines_s, *, reference_s=None, reference_label=None, ax=None, title=None):
    """KV-cache transfer time against prompt length, one line per link or mode.

    Parameters
    ----------
    prompt_tokens : array_like
        Prompt lengths [token].
    lines_s : mapping of str to array_like
        Label → transfer time [s].
    reference_s : array_like, optional
        A time to compare with (prefill's compute) [s], dashed.
    reference_label : str, optional
    ax : matplotlib.axes.Axes, optional
    title : str, optional

    Returns
    -------
    matplotlib.axes.Axes
    """
    lines_s = dict(lines_s)
    if ax is None:
        _, ax = new_figure(7.0, 4.6)
    x = np.asarray(prompt_tokens, dtype=float)
    for index, (label, values) in enumerate(lines_s.items()):
        ax.plot(x, np.asarray(values, dtype=float), color=_LINE_COLORS[index % len(_LINE_COLORS)], linewidth=1.8,
                label=label, marker="o", markersize=3.5)
    if reference_s is not None:
        ax.plot(x, np.asarray(reference_s, dtype=float), color=PALETTE["black"], linestyle="--", linewidth=1.4,
                label=reference_label or "reference")
    ax.set_xscale("log", base=2)
    ax.set_xticks(x, [f"{int(v):,}" for v in x])
    ax.set_yscale("log")
    time_axis(ax.yaxis)
    ax.set_xlabel("prompt length [tokens]")
    ax.set_ylabel("time")
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.2), ncol=2, fontsize=8.5, frameon=False)
    if title:
        ax.set_title(title, loc="left", fontsize=10)
    return ax


#: Share of a stacked-row plot's x range kept free right of the longest bar for its total
#: (inside the axes: the static book draws only what lies inside them).
_TOTAL_ROOM = 0.16


def _serving_values(deployment):
    kv = deployment.kv_exposed_s
    return {
        "TTFT": {"prefill compute": deployment.prefill_compute_s,
                 "prefill all-reduces": deployment.prefill_communication_s,
                 "KV transfer (exposed)": kv},
        "ITL": {"HBM reads": deployment.decode_memory_s, "decode all-reduces": deployment.decode.per_token_s},
    }


@styled
def serving_plot(deployment, *, ax=None, title=None):
    """TTFT and ITL of a deployment as shares of each, with the totals written beside them.

    Parameters
    ----------
    deployment : ServingDeployment
    ax : matplotlib.axes.Axes, optional
    title : str, optional

    Returns
    -------
    matplotlib.axes.Axes
    """
    if not isinstance(deployment, ServingDeployment):
        raise TypeError(f"deployment must be a ServingDeployment, got {type(deployment).__name__}")
    if ax is None:
        _, ax = new_figure(7.5, 2.6)
    rows = list(SERVING_PARTS)
    y = np.arange(len(rows))[::-1]
    for yi, row in zip(y, rows):
        for part, colour in SERVING_PARTS[row].items():
            label = "tensor-parallel all-reduces" if "all-reduces" in part else part
            ax.barh(yi, 0.0, left=0.0, height=0.55, color=colour, gid=f"segment:{row}:{part}", label=label)
        ax.text(1.01, yi, "", va="center", ha="left", fontsize=9, gid=f"total:{row}",
                transform=ax.get_yaxis_transform())
    ax.set_yticks(y, ["time to first token", "inter-token latency"])
    ax.set_xlim(0, 1.22)
    ax.set_xticks(np.linspace(0.0, 1.0, 6))
    ax.xaxis.set_major_formatter(PercentFormatter(1.0))
    ax.set_xlabel("share of the latency")
    ax.grid(axis="y", visible=False)
    if title:
        ax.set_title(title, loc="left", fontsize=9)
    update_serving_plot(ax, deployment)
    # The parts this deployment draws (co-located prefill and decode move no KV cache).
    bar_legend(ax, loc="upper center", bbox_to_anchor=(0.5, -0.32), ncol=3, fontsize=8, frameon=False)
    return ax


def update_serving_plot(ax, deployment):
    """Set the segments and totals of :func:`serving_plot` to ``deployment``; return the changed artists.

    Parameters
    ----------
    ax : matplotlib.axes.Axes
        Axes :func:`serving_plot` drew.
    deployment : ServingDeployment
        The new result.
    """
    values = _serving_values(deployment)
    totals = {row: sum(parts.values()) for row, parts in values.items()}
    lefts = {row: 0.0 for row in values}
    changed = []
    for artist in ax.patches:
        gid = artist.get_gid() or ""
        if gid.startswith("segment:"):
            _, row, part = gid.split(":", 2)
            share = values[row][part] / totals[row] if totals[row] else 0.0
            artist.set_x(lefts[row])
            artist.set_width(share)
            lefts[row] += share
            changed.append(artist)
    for artist in ax.texts:
        gid = artist.get_gid() or ""
        if gid.startswith("total:"):
            artist.set_text(u.format_time(totals[gid.split(":", 1)[1]]))
            changed.append(artist)
    return changed


@styled
def serving_all_reduce_plot(sizes_bytes, lines_s, *, chosen_s=None, chosen_label=None, published=None, ax=None,
                            title=None):
    """All-reduce time against message size, one line per mechanism, the engine's choice drawn over them.

    Parameters
    ----------
    sizes_bytes : array_like
        Message sizes [B].
    lines_s : mapping of str to array_like
        Label → time of each mechanism at each size [s] (NaN where it cannot run).
    chosen_s : array_like, optional
        The engine's choice at each size [s], drawn thick.
    chosen_label : str, optional
    published : sequence of (str, float, float), optional
        (label, size [B], time [s]) of published measurements, drawn as markers.
    ax : matplotlib.axes.Axes, optional
    title : str, optional

    Returns
    -------
    matplotlib.axes.Axes
    """
    lines_s = dict(lines_s)
    if not lines_s:
        raise ValueError("serving_all_reduce_plot needs at least one line")
    if ax is None:
        _, ax = new_figure(7.0, 4.0)
    x = np.asarray(sizes_bytes, dtype=float)
    styles = ("-", "--", "-.", ":", (0, (5, 1)))
    for index, (label, values) in enumerate(lines_s.items()):
        values = np.asarray(values, dtype=float)
        if values.shape != x.shape:
            raise ValueError(f"line {label!r} has {values.size} values for {x.size} sizes")
        ax.plot(x, values, linestyle=styles[index % len(styles)], color=_LINE_COLORS[index % len(_LINE_COLORS)],
                label=label, linewidth=1.6)
    if chosen_s is not None:
        ax.plot(x, np.asarray(chosen_s, dtype=float), color=PALETTE["black"], linewidth=3.2, alpha=0.35,
                label=chosen_label or "what the engine runs", zorder=1)
    markers = ("o", "s", "^", "D")
    for index, label in enumerate(dict.fromkeys(p[0] for p in (published or ()))):
        points = [(size, time) for name, size, time in published if name == label]
        ax.plot([p[0] for p in points], [p[1] for p in points], linestyle="none", marker=markers[index % 4],
                markersize=6, markerfacecolor="white", markeredgecolor=PALETTE["black"], label=label, zorder=5)
    ax.set_xscale("log", base=2)
    ticks = [2.0 ** k for k in range(int(np.ceil(np.log2(x.min()))), int(np.floor(np.log2(x.max()))) + 1, 4)]
    ax.set_xticks(ticks, [u.format_bytes(t, binary=True) for t in ticks])
    ax.set_yscale("log")
    time_axis(ax.yaxis, subs=(1.0, 2.0, 5.0))
    ax.set_xlabel("all-reduced message (log scale)")
    ax.set_ylabel("time of one all-reduce (log scale)")
    ax.legend(loc="upper left", fontsize=8)
    if title:
        ax.set_title(title, loc="left", fontsize=10)
    return ax


#: Rows of :func:`wide_ep_plot` and their parts, with colours: compute cool, communication warm.
WIDE_EP_PARTS = {
    "compute": {"attention": PALETTE["sky"], "experts": COLORS["compute"]},
    "communication": {"dispatch": PALETTE["orange"], "combine": COLORS["communication"]},
    "MoE layer as run": {"computing": PALETTE["grey"], "waiting for the network": PALETTE["purple"]},
}


def _wide_ep_values(decode):
    exposed = decode.exposed_communication_s
    return {
        "compute": {"attention": decode.attention_s, "experts": decode.experts_s},
        "communication": {"dispatch": decode.dispatch_s, "combine": decode.combine_s},
        "MoE layer as run": {"computing": decode.layer_s - exposed, "waiting for the network": exposed},
    }


def _stacked_rows(ax, parts, labels, xlabel, xlim):
    rows = list(parts)
    y = np.arange(len(rows))[::-1]
    for yi, row in zip(y, rows):
        for part, colour in parts[row].items():
            ax.barh(yi, 0.0, left=0.0, height=0.55, color=colour, gid=f"segment:{row}:{part}", label=part)
        ax.text(0.0, yi, "", va="center", ha="left", fontsize=9, gid=f"total:{row}")
    ax.set_yticks(y, labels)
    ax.set_xlim(*xlim)
    ax.set_xticks(np.linspace(0.0, 1.0, 6))
    ax.xaxis.set_major_formatter(PercentFormatter(1.0))
    ax.set_xlabel(xlabel)
    ax.grid(axis="y", visible=False)


def _rows_legend(ax):
    """The legend of :func:`_stacked_rows`: the parts that draw something (redrawn when that changes)."""
    bar_legend(ax, loc="upper center", bbox_to_anchor=(0.5, -0.3), ncol=3, fontsize=8, frameon=False)


def _update_rows(ax, values, scale, totals):
    lefts = {row: 0.0 for row in values}
    changed = []
    for artist in ax.patches:
        gid = artist.get_gid() or ""
        if gid.startswith("segment:"):
            _, row, part = gid.split(":", 2)
            width = values[row][part] / scale if scale else 0.0
            artist.set_x(lefts[row])
            artist.set_width(width)
            lefts[row] += width
            changed.append(artist)
    # Totals sit just past their bar's end; a bar running off the axes has its total at the edge.
    right = ax.get_xlim()[1]
    for artist in ax.texts:
        gid = artist.get_gid() or ""
        if gid.startswith("total:"):
            row = gid.split(":", 1)[1]
            artist.set_text(totals[row])
            artist.set_x(min(lefts[row], right - _TOTAL_ROOM * right) + 0.01 * right)
            changed.append(artist)
    return changed


@styled
def wide_ep_plot(decode, *, ax=None, title=None):
    """One MoE layer of a wide-EP decode step: compute, dispatch and combine, and the layer as run.

    Bars are shares of the layer's time as run (overlapped or not); the absolute
    times are written beside them.

    Parameters
    ----------
    decode : WideEPDecode
    ax : matplotlib.axes.Axes, optional
    title : str, optional

    Returns
    -------
    matplotlib.axes.Axes
    """
    if not isinstance(decode, WideEPDecode):
        raise TypeError(f"decode must be a WideEPDecode, got {type(decode).__name__}")
    if ax is None:
        _, ax = new_figure(7.5, 3.0)
    _stacked_rows(ax, WIDE_EP_PARTS, ["compute", "dispatch + combine", "MoE layer as run"],
                  "share of one MoE layer's time as run", (0, 1.2))
    if title:
        ax.set_title(title, loc="left", fontsize=9)
    update_wide_ep_plot(ax, decode)
    _rows_legend(ax)
    return ax


def update_wide_ep_plot(ax, decode):
    """Set the bars and totals of :func:`wide_ep_plot` to ``decode``; return the changed artists.

    Parameters
    ----------
    ax : matplotlib.axes.Axes
        Axes :func:`wide_ep_plot` drew.
    decode : WideEPDecode
        The new result.
    """
    values = _wide_ep_values(decode)
    totals = {row: u.format_time(sum(parts.values())) for row, parts in values.items()}
    return _update_rows(ax, values, decode.layer_s, totals)


#: Rows of :func:`ttft_tiers_plot` and their parts.
TTFT_PARTS = {
    "cached": {"load the cached prefix": PALETTE["purple"], "prefill the rest": COLORS["compute"],
               "KV transfer to decode (exposed)": COLORS["communication"]},
    "recomputed": {"prefill everything": PALETTE["sky"], "KV transfer (exposed)": PALETTE["orange"]},
}


def _ttft_values(result):
    return {
        "cached": {"load the cached prefix": result.load_s, "prefill the rest": result.prefill_s,
                   "KV transfer to decode (exposed)": result.transfer.exposed_s},
        "recomputed": {"prefill everything": result.recompute_s, "KV transfer (exposed)": result.transfer.exposed_s},
    }


@styled
def ttft_tiers_plot(result, *, ax=None, title=None):
    """Time to first token with the prefix loaded from a KV tier, against recomputing it all.

    Bars are shares of the uncached TTFT (a cached bar past 100% means loading
    costs more than recomputing); the absolute times are written beside them.

    Parameters
    ----------
    result : DisaggregatedTTFT
    ax : matplotlib.axes.Axes, optional
    title : str, optional

    Returns
    -------
    matplotlib.axes.Axes
    """
    if not isinstance(result, DisaggregatedTTFT):
        raise TypeError(f"result must be a DisaggregatedTTFT, got {type(result).__name__}")
    if ax is None:
        _, ax = new_figure(7.5, 2.8)
    _stacked_rows(ax, TTFT_PARTS, ["with the cached prefix", "recomputing it all"],
                  "share of the time to first token without a cache", (0, 1.3))
    if title:
        ax.set_title(title, loc="left", fontsize=9)
    update_ttft_tiers_plot(ax, result)
    _rows_legend(ax)
    return ax


def update_ttft_tiers_plot(ax, result):
    """Set the bars and totals of :func:`ttft_tiers_plot` to ``result``; return the changed artists.

    Parameters
    ----------
    ax : matplotlib.axes.Axes
        Axes :func:`ttft_tiers_plot` drew.
    result : DisaggregatedTTFT
        The new result.
    """
    values = _ttft_values(result)
    totals = {"cached": u.format_time(result.ttft_s), "recomputed": u.format_time(result.uncached_ttft_s)}
    return _update_rows(ax, values, result.uncached_ttft_s, totals)
