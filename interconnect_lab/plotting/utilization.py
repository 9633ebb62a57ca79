"""Figures for step time and utilization (chapter 1)."""

from __future__ import annotations

import numpy as np

from ..units import format_time
from .style import COLORS, legend_label, new_figure, styled

__all__ = ["step_time_plot", "step_breakdown_plot", "ablation_plot"]

_LANES = {"GPU": 1.0, "network": 0.0}
_BAR_HEIGHT = 0.6


@styled
def step_time_plot(step, *, ax=None, compute_efficiency=1.0, time_limit_s=None, title=None):
    """Timeline of one training step: compute, hidden and exposed communication.

    Two lanes: what the GPU does (compute, then idle while it waits) and what
    the network does (communication hidden under compute, then exposed).

    Parameters
    ----------
    step : StepTime
        A scalar result of :func:`interconnect_lab.utilization.step_time`.
    ax : matplotlib.axes.Axes, optional
        Axes to draw on; a new figure is made if omitted.
    compute_efficiency : float
        Share of peak reached while computing, used for the MFU in the title [-].
    time_limit_s : float, optional
        Right end of the time axis [s]; fix it so that moving a slider changes
        the bars, not the scale.
    title : str, optional
        Title; by default the step time and MFU.

    Returns
    -------
    matplotlib.axes.Axes
    """
    if np.ndim(step.step_s) != 0:
        raise ValueError("step_time_plot draws one step: pass a StepTime built from scalars")
    if ax is None:
        _, ax = new_figure(7.0, 2.6)
    compute, hidden = step.compute_s, step.hidden_communication_s
    exposed, total = step.exposed_communication_s, step.step_s
    gpu, net = _LANES["GPU"], _LANES["network"]
    # A part of zero length is drawn as nothing and left out of the legend.
    ax.barh(gpu, compute, left=0, height=_BAR_HEIGHT, color=COLORS["compute"],
            label=legend_label("compute", compute))
    ax.barh(gpu, total - compute, left=compute, height=_BAR_HEIGHT, color="white",
            edgecolor=COLORS["idle"], hatch="//", label=legend_label("GPU idle, waiting for data", total - compute))
    ax.barh(net, hidden, left=compute - hidden, height=_BAR_HEIGHT, color=COLORS["hidden"],
            label=legend_label("communication hidden under compute", hidden))
    ax.barh(net, exposed, left=compute, height=_BAR_HEIGHT, color=COLORS["communication"],
            label=legend_label("communication exposed", exposed))
    ax.set_yticks([gpu, net], ["GPU", "network"])
    ax.set_ylim(-0.5, 2.45)  # headroom above the lanes for the legend
    ax.set_xlim(0, time_limit_s if time_limit_s is not None else 1.05 * total)
    ax.set_xlabel("time within one training step [s]")
    ax.grid(axis="y", visible=False)
    ax.legend(loc="upper left", ncols=2, fontsize=9)
    if title is None:
        title = f"step {format_time(total)}, MFU {step.mfu(compute_efficiency):.0%}"
    ax.set_title(title, loc="left")
    return ax


@styled
def ablation_plot(steps, *, ax=None):
    """Waterfall of an ablation study: each optimization's MFU gain, coloured by kind.

    Parameters
    ----------
    steps : sequence of AblationStep
        Rows in order, starting with the baseline.
    ax : matplotlib.axes.Axes, optional
        Axes to draw on; a new figure is made if omitted.

    Returns
    -------
    matplotlib.axes.Axes
    """
    steps = tuple(steps)
    if ax is None:
        _, ax = new_figure(7.0, 3.8)
    labels = [s.label for s in steps]
    y = np.arange(len(steps))[::-1]
    ax.barh(y[0], steps[0].mfu * 100, color=COLORS["idle"])
    seen = set()
    for row, before, after in zip(y[1:], steps, steps[1:]):
        category = after.category
        ax.barh(row, (after.mfu - before.mfu) * 100, left=before.mfu * 100,
                color=COLORS.get(category, COLORS["other"]),
                label=category if category not in seen else None)
        seen.add(category)
        ax.text(after.mfu * 100 + 0.3, row, f"+{(after.mfu - before.mfu) * 100:.1f}",
                va="center", fontsize=9)
    ax.set_yticks(y, labels)
    ax.set_xlim(40, max(s.mfu for s in steps) * 100 + 4)
    ax.set_xlabel("MFU [%] (axis starts at 40%)")
    ax.legend(title="kind of optimization", loc="upper right")
    ax.grid(axis="y", visible=False)
    return ax


@styled
def step_breakdown_plot(labels, steps, *, ax=None, compute_efficiency=1.0):
    """Stacked bars of compute, hidden and exposed communication for several cases.

    Parameters
    ----------
    labels : sequence of str
        One label per case.
    steps : StepTime
        A result of :func:`interconnect_lab.utilization.step_time` whose arrays
        hold one element per label.
    ax : matplotlib.axes.Axes, optional
        Axes to draw on; a new figure is made if omitted.
    compute_efficiency : float or array_like
        Share of peak reached while computing, for the MFU printed beside each bar [-].

    Returns
    -------
    matplotlib.axes.Axes
    """
    labels = list(labels)
    compute = np.atleast_1d(steps.compute_s)
    exposed = np.atleast_1d(steps.exposed_communication_s)
    if not (len(labels) == compute.size == exposed.size):
        raise ValueError(f"got {len(labels)} labels for {compute.size} cases: pass one label per case")
    if ax is None:
        _, ax = new_figure(7.0, 0.55 * len(labels) + 1.4)
    y = np.arange(len(labels))[::-1]
    ax.barh(y, compute, color=COLORS["compute"], label="compute")
    ax.barh(y, exposed, left=compute, color=COLORS["communication"], label="exposed communication")
    mfu = np.atleast_1d(steps.mfu(compute_efficiency))
    for row, total, value in zip(y, compute + exposed, mfu):
        ax.text(total, row, f"  MFU {value:.0%}", va="center", fontsize=10)
    ax.set_yticks(y, labels)
    ax.set_xlim(0, 1.25 * float(np.max(compute + exposed)))
    ax.set_xlabel("time per training step [s]")
    ax.grid(axis="y", visible=False)
    ax.legend(loc="lower left", bbox_to_anchor=(0, 1.0), ncols=2, borderaxespad=0.2)
    return ax
