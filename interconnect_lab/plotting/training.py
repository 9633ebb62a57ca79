"""Figures for training at scale (chapter 8): step-time breakdown, model vs published, memory."""

from __future__ import annotations

import numpy as np

from .style import COLORS, PALETTE, new_figure, styled

__all__ = ["training_breakdown_plot", "published_comparison_plot", "memory_breakdown_plot"]

#: Colour and legend label of each part of a training step, in stacking order.
_STEP_PARTS = (
    ("compute_s", "compute", COLORS["compute"]),
    ("tensor_parallel_s", "tensor/context-parallel communication", COLORS["communication"]),
    ("pipeline_s", "pipeline sends and receives", PALETTE["orange"]),
    ("bubble_s", "pipeline bubble", COLORS["idle"]),
    ("data_parallel_s", "data-parallel communication", PALETTE["purple"]),
    ("optimizer_s", "optimizer update", PALETTE["green"]),
)

_MEMORY_PARTS = (
    ("weights_bytes", "weights", COLORS["compute"]),
    ("gradients_bytes", "gradients", PALETTE["sky"]),
    ("optimizer_bytes", "optimizer state", PALETTE["green"]),
    ("activations_bytes", "activations", PALETTE["orange"]),
)


def _cases(labels, items, kind):
    items = list(items)
    labels = list(labels)
    if len(labels) != len(items):
        raise ValueError(f"got {len(labels)} labels for {len(items)} {kind}: pass one label per {kind[:-1]}")
    if not items:
        raise ValueError(f"pass at least one {kind[:-1]}")
    return labels, items


@styled
def training_breakdown_plot(labels, steps, *, ax=None, normalize=False):
    """Stacked bars: where the time of each training step goes.

    Parameters
    ----------
    labels : sequence of str
        One label per configuration.
    steps : sequence of TrainingStep
        Scalar results of :func:`interconnect_lab.training.training_step`.
    ax : matplotlib.axes.Axes, optional
        Axes to draw on; a new figure is made if omitted.
    normalize : bool
        Show shares of the step [%] instead of seconds.

    Returns
    -------
    matplotlib.axes.Axes
    """
    labels, steps = _cases(labels, steps, "steps")
    if ax is None:
        _, ax = new_figure(7.5, 0.55 * len(labels) + 1.8)
    y = np.arange(len(labels))[::-1]
    totals = np.array([float(step.step_s) for step in steps])
    left = np.zeros(len(labels))
    for name, label, color in _STEP_PARTS:
        values = np.array([float(getattr(step, name)) for step in steps])
        if normalize:
            values = 100 * values / totals
        ax.barh(y, values, left=left, color=color, label=label, height=0.6)
        left += values
    for row, step, end in zip(y, steps, left):
        ax.text(end, row, f"  MFU {float(step.mfu):.0%}", va="center", fontsize=9)
    ax.set_yticks(y, labels)
    ax.set_xlim(0, 1.22 * float(np.max(left)))
    ax.set_xlabel("share of the training step [%]" if normalize else "time per training step [s]")
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.25 if len(labels) < 4 else -0.12),
              ncols=2, fontsize=8)
    ax.grid(axis="y", visible=False)
    return ax


@styled
def published_comparison_plot(labels, modelled, published, *, quantity, unit, ax=None, tolerance=0.10,
                              title=None):
    """Modelled against published values, one pair of bars per run, with the tolerance band.

    Parameters
    ----------
    labels : sequence of str
        One label per published run (e.g. the SC21 Table 1 model sizes).
    modelled, published : array_like
        The model's values and the published ones, in the same unit.
    quantity : str
        What is compared, for the axis label (e.g. ``"TFLOP/s per GPU"`` or ``"MFU"``).
    unit : str
        Its unit, shown in brackets (e.g. ``"TFLOP/s"`` or ``"%"``).
    ax : matplotlib.axes.Axes, optional
        Axes to draw on; a new figure is made if omitted.
    tolerance : float
        Relative tolerance drawn around each published value [-].
    title : str, optional
        Title, e.g. ``"SC21 Table 1"``.

    Returns
    -------
    matplotlib.axes.Axes
    """
    labels = list(labels)
    modelled = np.asarray(modelled, dtype=float)
    published = np.asarray(published, dtype=float)
    if not (len(labels) == modelled.size == published.size):
        raise ValueError(f"got {len(labels)} labels, {modelled.size} modelled and {published.size} "
                         "published values: pass one of each per run")
    if ax is None:
        _, ax = new_figure(max(6.0, 0.5 * len(labels) + 2.5), 3.6)
    x = np.arange(len(labels))
    width = 0.38
    ax.bar(x - width / 2, published, width, color=COLORS["idle"], label="published")
    ax.bar(x + width / 2, modelled, width, color=COLORS["compute"], label="model")
    ax.errorbar(x - width / 2, published, yerr=tolerance * published, fmt="none", ecolor="black",
                capsize=3, linewidth=1, label=f"±{tolerance:.0%}")
    ax.set_xticks(x, labels, rotation=45 if len(labels) > 6 else 0, ha="right" if len(labels) > 6 else "center")
    ax.set_ylabel(f"{quantity} [{unit}]")
    ax.set_ylim(0, 1.25 * float(max(np.max(modelled), np.max(published))))
    ax.legend(loc="upper left", ncols=3, fontsize=9)
    ax.grid(axis="x", visible=False)
    if title:
        ax.set_title(title, loc="left")
    return ax


@styled
def memory_breakdown_plot(labels, memories, *, ax=None):
    """Stacked bars of memory per GPU against the GPU's HBM capacity.

    Parameters
    ----------
    labels : sequence of str
        One label per configuration.
    memories : sequence of MemoryBreakdown
        Scalar results of :func:`interconnect_lab.training.memory_per_gpu`
        (or ``TrainingStep.memory``).
    ax : matplotlib.axes.Axes, optional
        Axes to draw on; a new figure is made if omitted.

    Returns
    -------
    matplotlib.axes.Axes
    """
    labels, memories = _cases(labels, memories, "memories")
    if ax is None:
        _, ax = new_figure(7.0, 0.55 * len(labels) + 1.6)
    y = np.arange(len(labels))[::-1]
    left = np.zeros(len(labels))
    for name, label, color in _MEMORY_PARTS:
        values = np.array([float(getattr(memory, name)) for memory in memories]) / 1e9
        ax.barh(y, values, left=left, color=color, label=label, height=0.6)
        left += values
    capacities = {float(memory.capacity_bytes) for memory in memories}
    for capacity in capacities:
        ax.axvline(capacity / 1e9, color=COLORS["communication"], linestyle="--", linewidth=1.5,
                   label="HBM capacity" if capacity == min(capacities) else None)
    for row, memory, end in zip(y, memories, left):
        text = "fits" if memory.fits else f"short by {float(memory.shortfall_bytes) / 1e9:.0f} GB"
        ax.text(end, row, f"  {text}", va="center", fontsize=9)
    ax.set_yticks(y, labels)
    ax.set_xlim(0, 1.3 * float(max(np.max(left), max(capacities) / 1e9)))
    ax.set_xlabel("memory per GPU [GB]")
    ax.legend(loc="lower right", fontsize=8)
    ax.grid(axis="y", visible=False)
    return ax
