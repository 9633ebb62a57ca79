"""Figures for failures and checkpoints (chapter 9).

Each function takes results of :mod:`interconnect_lab.reliability` or a log
from :mod:`interconnect_lab.published`, draws on optional axes and returns
them. The network's share of failures is drawn in the colour the book uses
for communication.
"""

from __future__ import annotations

import numpy as np
from matplotlib.ticker import FuncFormatter, PercentFormatter

from .. import units as u
from .style import COLORS, PALETTE, new_figure, styled

__all__ = ["CATEGORY_COLORS", "interruption_causes_plot", "interval_tradeoff_plot", "checkpoint_plot"]

#: Colour of each root-cause category of a training interruption.
CATEGORY_COLORS = {
    "GPU": COLORS["compute"], "Network": COLORS["communication"], "Host": PALETTE["orange"],
    "Dependency": PALETTE["purple"], "Unplanned Maintenance": PALETTE["grey"], "Unknown": PALETTE["sky"],
}

_CYCLE = [PALETTE[c] for c in ("blue", "vermillion", "green", "orange", "purple", "sky", "black")]


def _count_axis(ax):
    ax.xaxis.set_major_formatter(FuncFormatter(lambda x, _: f"{x:,.0f}"))


@styled
def interruption_causes_plot(log, *, ax=None, title=None):
    """Unexpected interruptions of a training run by root cause, coloured by category.

    Parameters
    ----------
    log : interconnect_lab.published.InterruptionLog
        A log with its ``causes`` table (e.g. ``LLAMA3_INTERRUPTIONS``).
    ax : matplotlib.axes.Axes, optional
        Axes to draw on; a new figure is made if omitted.
    title : str, optional
        Title.

    Returns
    -------
    matplotlib.axes.Axes
    """
    causes = sorted(getattr(log, "causes", ()), key=lambda c: c.interruptions)
    if not causes:
        raise ValueError("log has no causes table to draw")
    if ax is None:
        _, ax = new_figure(7.0, 5.2)
    total = sum(c.interruptions for c in causes)
    positions = np.arange(len(causes))
    colors = [CATEGORY_COLORS.get(c.category, PALETTE["black"]) for c in causes]
    ax.barh(positions, [c.interruptions for c in causes], color=colors, height=0.7)
    for position, cause in zip(positions, causes):
        ax.text(cause.interruptions + total * 0.004, position, f"{cause.interruptions} ({cause.interruptions / total:.1%})",
                va="center", fontsize=9)
    ax.set_yticks(positions, [c.component for c in causes], fontsize=9)
    ax.set_xlim(0, max(c.interruptions for c in causes) * 1.22)
    ax.set_xlabel(f"unexpected interruptions [-] (of {total:,})")
    _count_axis(ax)
    ax.grid(axis="y", visible=False)
    by_category = log.interruptions_by_category()
    handles = [ax.bar([0], [0], color=CATEGORY_COLORS.get(name, PALETTE["black"]), width=0)[0] for name in by_category]
    ax.legend(handles, [f"{name}: {count} ({count / total:.0%})" for name, count in by_category.items()],
              loc="lower right", fontsize=9, title="category (share of counts)", title_fontsize=9)
    if title:
        ax.set_title(title, loc="left")
    return ax


@styled
def interval_tradeoff_plot(interval_s, fractions, *, optima=None, ax=None, title=None):
    """Effective training time against the work between checkpoints, one curve per scenario.

    Parameters
    ----------
    interval_s : array_like
        Work between checkpoints [s] (the x axis).
    fractions : mapping of str to array_like
        Label → effective training fraction at each interval [-] (from
        :func:`interconnect_lab.reliability.effective_training_fraction`).
    optima : mapping of str to (float, float), optional
        Label → (interval [s], fraction [-]) to mark, e.g. Daly's interval.
    ax : matplotlib.axes.Axes, optional
        Axes to draw on; a new figure is made if omitted.
    title : str, optional
        Title.

    Returns
    -------
    matplotlib.axes.Axes
    """
    interval_s = np.asarray(interval_s, dtype=float)
    fractions = dict(fractions)
    if not fractions:
        raise ValueError("fractions must map at least one label to an array of fractions")
    if ax is None:
        _, ax = new_figure(7.0, 3.6)
    optima = dict(optima or {})
    for index, (label, values) in enumerate(fractions.items()):
        color = _CYCLE[index % len(_CYCLE)]
        ax.plot(interval_s / u.minute, np.asarray(values), color=color, linewidth=2, label=label)
        if label in optima:
            at_s, value = optima[label]
            ax.plot([at_s / u.minute], [value], marker="o", markersize=7, color=color, linestyle="none")
            ax.annotate(f"{at_s / u.minute:.0f} min, {value:.1%}", (at_s / u.minute, value),
                        textcoords="offset points", xytext=(6, 6), fontsize=9, color=color)
    ax.set_xscale("log")
    ax.set_xlabel("work between checkpoints [min]")
    ax.set_ylabel("effective training time [-]")
    ax.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
    ax.xaxis.set_major_formatter(FuncFormatter(lambda x, _: f"{x:g}"))
    ax.legend(loc="lower center", fontsize=9)
    if title:
        ax.set_title(title, loc="left")
    return ax


@styled
def checkpoint_plot(plans, *, axes=None, mark_gpus=None, observations=(), time_limits_min=None):
    """Job size → time between failures and checkpoint interval (left) → effective training time (right).

    Parameters
    ----------
    plans : mapping of str to CheckpointPlan
        Label → a plan from :func:`interconnect_lab.reliability.checkpoint_plan`
        over an array of job sizes. The left panel draws the first plan's
        times; the right panel every plan's effective time.
    axes : sequence of two matplotlib.axes.Axes, optional
        Axes to draw on; a new figure with two side by side is made if omitted.
    mark_gpus : float, optional
        A job size to mark on both panels [-].
    observations : sequence of (float, float, str)
        Published (GPUs, effective fraction, label) points for the right panel.
    time_limits_min : (float, float), optional
        Fixed limits of the left panel's time axis [min].

    Returns
    -------
    tuple of matplotlib.axes.Axes
        The left and right axes. Lines carry ``gid`` values (``"mtbf"``,
        ``"interval"``, ``"effective <label>"``, ``"mark"``...) so that a panel can
        update them in place.
    """
    plans = dict(plans)
    if not plans:
        raise ValueError("plans must map at least one label to a CheckpointPlan")
    if axes is None:
        figure, axes = new_figure(9.0, 3.8, ncols=2)
    left, right = axes
    first = next(iter(plans.values()))
    left.plot(first.gpus, first.mtbf_s / u.minute, color=COLORS["communication"], linewidth=2,
              label="mean time between failures", gid="mtbf")
    left.plot(first.gpus, first.interval_s / u.minute, color=COLORS["compute"], linewidth=2, linestyle="--",
              label=f"work between checkpoints ({first.model.title()})", gid="interval")
    left.set_xscale("log")
    left.set_yscale("log")
    left.set_xlabel("GPUs in the job [-]")
    left.set_ylabel("time [min]")
    if time_limits_min is not None:
        left.set_ylim(*time_limits_min)
    left.legend(loc="upper right", fontsize=9)
    for index, (label, plan) in enumerate(plans.items()):
        right.plot(plan.gpus, plan.effective_fraction, color=_CYCLE[index % len(_CYCLE)], linewidth=2, label=label,
                   gid=f"effective {label}")
    for gpus, fraction, label in observations:
        right.plot([gpus], [fraction], marker="D", markersize=7, linestyle="none", color=PALETTE["black"],
                   markerfacecolor="white", markeredgewidth=1.5)
        right.annotate(label, (gpus, fraction), textcoords="offset points", xytext=(-8, -14), ha="right",
                       fontsize=8, bbox={"boxstyle": "round,pad=0.15", "facecolor": "white", "edgecolor": "none",
                                         "alpha": 0.85})
    right.set_xscale("log")
    right.set_ylim(0, 1)
    right.set_xlabel("GPUs in the job [-]")
    right.set_ylabel("effective training time [-]")
    right.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
    right.legend(loc="lower left", fontsize=9)
    for ax in axes:
        ax.xaxis.set_major_formatter(FuncFormatter(lambda x, _: f"{x:,.0f}"))
        ax.set_xlim(first.gpus.min(), first.gpus.max())
    if mark_gpus is not None:
        for ax in axes:
            ax.axvline(mark_gpus, color=PALETTE["grey"], linewidth=1, linestyle=":", gid="mark")
    return left, right
