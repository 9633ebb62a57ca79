"""Figures for inference traffic (chapter 12): decode all-reduces, KV transfer, TTFT and ITL.

Each function takes results of :mod:`interconnect_lab.inference`, draws on
optional axes and returns them. Artists a panel updates in place carry a
``gid`` (``"segment:<row>:<part>"``, ``"total:<row>"``).
"""

from __future__ import annotations

import numpy as np
from matplotlib.ticker import PercentFormatter

from .. import units as u
from ..inference import ServingDeployment
from .moe import _time_axis
from .style import COLORS, PALETTE, bar_legend, new_figure, styled

__all__ = ["decode_all_reduce_plot", "kv_transfer_plot", "serving_plot", "update_serving_plot", "SERVING_PARTS"]

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
    _time_axis(ax.yaxis, subs=(1.0, 2.0, 5.0))
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
        _, ax = new_figure(7.0, 3.8)
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
    _time_axis(ax.yaxis)
    ax.set_xlabel("prompt length [tokens]")
    ax.set_ylabel("time")
    ax.legend(loc="upper left", fontsize=8.5)
    if title:
        ax.set_title(title, loc="left", fontsize=10)
    return ax


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
    ax.set_xlim(0, 1)
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
    for artist in list(ax.patches) + list(ax.texts):
        gid = artist.get_gid() or ""
        if gid.startswith("segment:"):
            _, row, part = gid.split(":", 2)
            share = values[row][part] / totals[row] if totals[row] else 0.0
            artist.set_x(lefts[row])
            artist.set_width(share)
            lefts[row] += share
            changed.append(artist)
        elif gid.startswith("total:"):
            row = gid.split(":", 1)[1]
            artist.set_text(u.format_time(totals[row]))
            changed.append(artist)
    return changed
