"""Figures for :mod:`interconnect_lab.training` (chapters 2 and 8): step time, memory, pipeline
schedules, model against published runs, MFU against the network, gradient compression, tensor
parallelism degree by degree, attention kernels by sequence length and the fidelity table."""

from __future__ import annotations

import numpy as np
from matplotlib import patheffects
from matplotlib.lines import Line2D
from matplotlib.patches import Patch
from matplotlib.ticker import FixedLocator, FuncFormatter, NullLocator

from .. import units as u
from .style import COLORS, PALETTE, axes_size_in, legend_label, new_figure, styled, text_width_in

__all__ = ["training_breakdown_plot", "published_comparison_plot", "memory_breakdown_plot",
           "pipeline_schedule_plot", "mfu_scaling_plot", "ablation_replay_plot", "network_scan_plot",
           "compression_tradeoff_plot", "SCHEDULE_TIME_LIMITS", "schedule_time_limit", "schedule_bars",
           "schedule_title", "CHUNK_HATCHES", "tensor_parallel_plot", "attention_share_plot", "fidelity_plot"]

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


#: Colours of a figure's series, in order (up to four series).
_SERIES_COLORS = [COLORS["compute"], COLORS["communication"], PALETTE["green"], PALETTE["orange"]]


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
        ax.barh(y, values, left=left, color=color, label=legend_label(label, values), height=0.6)
        left += values
    for row, step, end in zip(y, steps, left):
        ax.text(end, row, f"  MFU {float(step.mfu):.0%}", va="center", fontsize=9)
    ax.set_yticks(y, labels)
    if normalize:
        # The parts add up to the step, so shares end at 100 %; beyond is room for the MFU only.
        ax.set_xlim(0, 115)
        ax.set_xticks(np.arange(0, 101, 20))
        ax.spines["bottom"].set_bounds(0, 100)
    else:
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


def memory_label_x(memory):
    """Where the "fits" / "short by" label of a memory bar starts [GB]: after the bar and after the HBM line."""
    return max(float(memory.total_bytes), float(memory.capacity_bytes)) / 1e9


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
        ax.barh(y, values, left=left, color=color, label=legend_label(label, values), height=0.6)
        left += values
    capacities = {float(memory.capacity_bytes) for memory in memories}
    for capacity in capacities:
        ax.axvline(capacity / 1e9, color=COLORS["communication"], linestyle="--", linewidth=1.5,
                   label="HBM capacity" if capacity == min(capacities) else None)
    for row, memory, end in zip(y, memories, left):
        text = "fits" if memory.fits else f"short by {float(memory.shortfall_bytes) / 1e9:.0f} GB"
        ax.text(memory_label_x(memory), row, f"  {text}", va="center", fontsize=9)
    ax.set_yticks(y, labels)
    ax.set_xlim(0, 1.3 * float(max(np.max(left), max(capacities) / 1e9)))
    ax.set_xlabel("memory per GPU [GB]")
    ax.legend(loc="lower right", fontsize=8)
    ax.grid(axis="y", visible=False)
    return ax


#: Right ends the schedule's time axis snaps to [ideal iteration times], so that a panel keeps its axis.
SCHEDULE_TIME_LIMITS = (1.25, 1.5, 2.0, 3.0, 4.0, 6.0, 8.0, 16.0, 32.0, 64.0)


def schedule_time_limit(schedule):
    """The smallest of :data:`SCHEDULE_TIME_LIMITS` that shows the whole schedule [ideal iteration times].

    Parameters
    ----------
    schedule : PipelineSchedule
        From :func:`interconnect_lab.training.pipeline_schedule`.
    """
    length = schedule.makespan / schedule.ideal
    return next((limit for limit in SCHEDULE_TIME_LIMITS if limit >= 1.02 * length), 1.05 * length)


def schedule_bars(schedule, stage, backward, chunk=None):
    """(start, width) of each pass of one kind on one stage [ideal iteration times], for ``broken_barh``.

    Parameters
    ----------
    schedule : PipelineSchedule
        From :func:`interconnect_lab.training.pipeline_schedule`.
    stage : int
        The stage, 0 to p - 1.
    backward : bool
        Backward passes instead of forward ones.
    chunk : int, optional
        Model chunk, 0 to v - 1; every chunk by default.
    """
    chosen = (schedule.stage == stage) & (schedule.backward == backward)
    if chunk is not None:
        chosen &= schedule.chunk == chunk
    starts, ends = schedule.start[chosen] / schedule.ideal, schedule.end[chosen] / schedule.ideal
    return list(zip(starts, ends - starts))


#: Hatch of the passes through each model chunk of an interleaved schedule (the first is plain).
CHUNK_HATCHES = ("", "///", "\\\\\\", "xx", "..", "++")


def _chunk_hatch(chunk):
    return CHUNK_HATCHES[chunk % len(CHUNK_HATCHES)]


@styled
def pipeline_schedule_plot(schedule, *, ax=None, title=None, label_microbatches=None, time_limit=None):
    """Gantt chart of a pipeline schedule: one row per stage, forward and backward passes, idle gaps.

    Time is in units of the ideal iteration, m (forward + backward) passes of
    one stage, so a schedule without a bubble would end at 1 and the bubble
    is what lies beyond. In an interleaved schedule (v > 1) the passes
    through the second and later model chunks of a stage are hatched.

    Parameters
    ----------
    schedule : PipelineSchedule
        From :func:`interconnect_lab.training.pipeline_schedule`.
    ax : matplotlib.axes.Axes, optional
        Axes to draw on; a new figure is made if omitted.
    title : str, optional
        Title; by default p, m, v and the bubble.
    label_microbatches : bool, optional
        Write the microbatch number (from 1) in each pass wide enough to
        hold it; by default when there are at most 64 passes.
    time_limit : float, optional
        Right end of the time axis [ideal iteration times]; by default
        :func:`schedule_time_limit`.

    Returns
    -------
    matplotlib.axes.Axes
        Its first 2p collections are the passes, stage by stage (forward then
        backward), so a caller can update them with :func:`schedule_bars`;
        when v > 1, the hatching of the later chunks' passes follows them.
    """
    p, v = schedule.pipeline_parallel, schedule.interleave
    if ax is None:
        _, ax = new_figure(7.5, 0.32 * p + 1.6)
    colors = {False: COLORS["compute"], True: PALETTE["sky"]}
    for stage in range(p):
        for backward in (False, True):
            bars = ax.broken_barh(schedule_bars(schedule, stage, backward), (p - 1 - stage - 0.38, 0.76),
                                  facecolors=colors[backward], edgecolors="white", linewidth=0.6,
                                  label=("backward pass" if backward else "forward pass") if stage == 0 else None)
            bars.set_in_layout(False)       # inside the axes: the layout need not measure them
    handles = []
    for chunk in range(1, v):
        # The hatch is drawn in the edge colour: white lines over the pass's own colour.
        for stage in range(p):
            for backward in (False, True):
                hatched = ax.broken_barh(schedule_bars(schedule, stage, backward, chunk),
                                         (p - 1 - stage - 0.38, 0.76), facecolors=colors[backward],
                                         edgecolors="white", linewidth=0.6, hatch=_chunk_hatch(chunk))
                hatched.set_in_layout(False)
        handles.append(Patch(facecolor=PALETTE["grey"], edgecolor="white", hatch=_chunk_hatch(chunk),
                             label=f"model chunk {chunk + 1} of {v}"))
    if label_microbatches is None:
        label_microbatches = schedule.stage.size <= 64
    if label_microbatches:
        limit = schedule_time_limit(schedule) if time_limit is None else time_limit
        # Width of the axes before the layout runs, a little less than after: a pass
        # gets its number only if the number fits with some room on both sides.
        axes_in = axes_size_in(ax)[0]
        fontsize = 8
        for stage, backward, microbatch, start, end in zip(schedule.stage, schedule.backward, schedule.microbatch,
                                                          schedule.start, schedule.end):
            text = str(microbatch + 1)
            width_in = (end - start) / schedule.ideal / limit * axes_in
            if width_in < text_width_in(text, fontsize) + 0.8 * fontsize / 72:
                continue
            # A halo in the pass's colour keeps the hatch of a later chunk off the digits.
            ax.text((start + end) / 2 / schedule.ideal, p - 1 - stage, text, ha="center", va="center",
                    fontsize=fontsize, color="black" if backward else "white", in_layout=False,
                    path_effects=[patheffects.withStroke(linewidth=3, foreground=colors[bool(backward)])])
    ax.axvline(1.0, color=COLORS["communication"], linestyle="--", linewidth=1.2, label="ideal: no bubble")
    ax.set_yticks(range(p), [f"stage {p - k}" for k in range(p)])
    ax.set_ylim(-0.6, p - 0.4)
    ax.set_xlim(0, schedule_time_limit(schedule) if time_limit is None else time_limit)
    ax.set_xlabel("time [ideal iteration: m forward and backward passes of one stage]")
    ax.grid(axis="y", visible=False)
    own, _ = ax.get_legend_handles_labels()
    ax.legend(handles=own + handles, loc="upper center", bbox_to_anchor=(0.5, -0.2 - 0.02 * max(0, 8 - p)),
              ncols=3 if len(own) + len(handles) <= 3 else 4, fontsize=8)
    ax.set_title(schedule_title(schedule) if title is None else title, loc="left", fontsize=10)
    return ax


def schedule_title(schedule):
    """The default title of :func:`pipeline_schedule_plot`: p, m, v and the bubble.

    Parameters
    ----------
    schedule : PipelineSchedule
        From :func:`interconnect_lab.training.pipeline_schedule`.
    """
    v = f", v = {schedule.interleave}" if schedule.interleave > 1 else ""
    return (f"p = {schedule.pipeline_parallel}, m = {schedule.microbatches}{v}: bubble "
            f"{schedule.bubble_fraction:.1%} of the ideal time")


@styled
def mfu_scaling_plot(series, *, ax=None, title=None):
    """MFU against GPU count: published points and the model's line, one colour per series.

    Parameters
    ----------
    series : sequence of dict
        Each with ``label`` (str), ``gpus`` (GPU counts), ``published`` and
        ``modelled`` (MFU [-] at those counts), and optionally ``color``.
        Series that share a label share one legend entry.
    ax : matplotlib.axes.Axes, optional
        Axes to draw on; a new figure is made if omitted.
    title : str, optional
        Title.

    Returns
    -------
    matplotlib.axes.Axes
    """
    series = list(series)
    if not series:
        raise ValueError("pass at least one series")
    if ax is None:
        _, ax = new_figure(7.0, 3.8)
    colors = _SERIES_COLORS
    ticks, labelled = set(), set()
    for index, entry in enumerate(series):
        gpus = np.asarray(entry["gpus"], dtype=float)
        color = entry.get("color", colors[index % len(colors)])
        first = entry["label"] not in labelled
        labelled.add(entry["label"])
        ax.plot(gpus, 100 * np.asarray(entry["published"]), "o", color=color, markersize=7,
                label=f"{entry['label']}: published" if first else None)
        ax.plot(gpus, 100 * np.asarray(entry["modelled"]), "--", color=color, marker="x", markersize=6,
                label=f"{entry['label']}: model" if first else None)
        ticks.update(gpus.tolist())
    ax.set_xscale("log", base=2)
    ax.set_xticks(sorted(ticks), [f"{int(t):,}" for t in sorted(ticks)], rotation=45, ha="right")
    ax.minorticks_off()
    ax.set_xlabel("GPUs (log scale)")
    ax.set_ylabel("MFU [%]")
    ax.legend(loc="lower left", fontsize=8, ncols=2)
    if title:
        ax.set_title(title, loc="left")
    return ax


@styled
def ablation_replay_plot(labels, published, modelled, *, ax=None, title=None):
    """An ablation replayed: MFU after each step, published and modelled, and each step's gain.

    Parameters
    ----------
    labels : sequence of str
        The steps, starting with the baseline.
    published, modelled : array_like
        MFU after each step [-]; NaN where one side has no value (a step the
        model cannot express), drawn as a hollow marker at the previous
        step's value (the step changes nothing there).
    ax : matplotlib.axes.Axes, optional
        Axes to draw on; a new figure is made if omitted.
    title : str, optional
        Title.

    Returns
    -------
    matplotlib.axes.Axes
    """
    labels = list(labels)
    published = np.asarray(published, dtype=float)
    modelled = np.asarray(modelled, dtype=float)
    if not (len(labels) == published.size == modelled.size):
        raise ValueError(f"got {len(labels)} labels, {published.size} published and {modelled.size} modelled "
                         "values: pass one of each per step")
    if ax is None:
        _, ax = new_figure(7.5, 3.8)
    x = np.arange(len(labels))
    handles = []
    for values, label, color, style in ((published, "published", COLORS["idle"], "o-"),
                                        (modelled, "model", COLORS["compute"], "s--")):
        known = ~np.isnan(values)
        if not known[0]:
            raise ValueError(f"the {label} baseline (first value) must be known")
        carried = values.copy()
        for index in range(1, carried.size):
            if np.isnan(carried[index]):
                carried[index] = carried[index - 1]
        ax.plot(x, 100 * carried, style[1:], color=color)
        ax.plot(x[known], 100 * carried[known], style[0], color=color, markersize=6)
        handles.append(Line2D([], [], color=color, linestyle=style[1:], marker=style[0], label=label))
        if not known.all():
            ax.plot(x[~known], 100 * carried[~known], style[0], markerfacecolor="white", color=color,
                    markersize=6)
            handles.append(Line2D([], [], color=color, linestyle="none", marker=style[0], markerfacecolor="white",
                                  label=f"{label}: step not modelled (no change)"))
    ax.set_xticks(x, labels, rotation=35, ha="right")
    ax.set_ylabel("MFU after the step [%]")
    ax.legend(handles=handles, loc="upper left", fontsize=8)
    ax.grid(axis="x", visible=False)
    if title:
        ax.set_title(title, loc="left")
    return ax


@styled
def network_scan_plot(scans, *, ax=None, marker_bytes_per_s=None, title=None):
    """MFU against each GPU's network bandwidth, one line per training stack.

    Parameters
    ----------
    scans : dict of str to NetworkScan
        From :func:`interconnect_lab.training.network_scan`, by label.
    ax : matplotlib.axes.Axes, optional
        Axes to draw on; a new figure is made if omitted.
    marker_bytes_per_s : float, optional
        A bandwidth to mark with a vertical line [B/s].
    title : str, optional
        Title.

    Returns
    -------
    matplotlib.axes.Axes
    """
    scans = dict(scans)
    if not scans:
        raise ValueError("pass at least one scan")
    if ax is None:
        _, ax = new_figure(7.0, 3.6)
    colors = [COLORS["communication"], COLORS["compute"], PALETTE["green"], PALETTE["orange"], PALETTE["purple"]]
    for index, (label, scan) in enumerate(scans.items()):
        gbits = scan.bandwidth_bytes_per_s * 8 / 1e9
        ax.plot(gbits, 100 * scan.mfu, "o-", color=colors[index % len(colors)], label=label, markersize=5)
    first = next(iter(scans.values()))
    ticks = first.bandwidth_bytes_per_s * 8 / 1e9
    ax.set_xscale("log", base=2)
    ax.set_xticks(ticks, [f"{t:g}" for t in ticks])
    ax.minorticks_off()
    if marker_bytes_per_s is not None:
        ax.axvline(marker_bytes_per_s * 8 / 1e9, color=COLORS["idle"], linestyle=":", linewidth=1.5)
    ax.set_xlabel("network bandwidth per GPU, one direction [Gb/s]")
    ax.set_ylabel("MFU [%]")
    ax.set_ylim(0, 100 * max(float(np.max(scan.mfu)) for scan in scans.values()) * 1.25)
    ax.legend(loc="lower right", fontsize=8)
    if title:
        ax.set_title(title, loc="left")
    return ax


@styled
def compression_tradeoff_plot(results, *, ax=None, title=None):
    """Relative error against compression ratio, one line per compressor.

    Parameters
    ----------
    results : dict of str to sequence of (str, GradientCompression)
        For each compressor, its settings as (label, result) pairs, from
        :func:`interconnect_lab.training.gradient_compression`.
    ax : matplotlib.axes.Axes, optional
        Axes to draw on; a new figure is made if omitted.
    title : str, optional
        Title.

    Returns
    -------
    matplotlib.axes.Axes
    """
    results = dict(results)
    if not results:
        raise ValueError("pass at least one compressor")
    if ax is None:
        _, ax = new_figure(7.0, 3.8)
    colors = _SERIES_COLORS
    point_labels = []
    for index, (label, points) in enumerate(results.items()):
        names = [name for name, _ in points]
        ratio = np.array([result.compression_ratio for _, result in points])
        error = np.array([result.relative_error for _, result in points])
        color = colors[index % len(colors)]
        ax.plot(ratio, error, "o-", color=color, label=label)
        for name, x, y in zip(names, ratio, error):
            point_labels.append(ax.annotate(name, (x, y), textcoords="offset points", xytext=(5, 4), fontsize=8,
                                            color=color))
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("compression ratio [16-bit bytes / bytes sent]")
    ax.set_ylabel("relative error ‖g − ĝ‖ / ‖g‖")
    ax.legend(loc="lower right", fontsize=9)
    if title:
        ax.set_title(title, loc="left")
    _place_labels_clear_of_lines(ax, point_labels)
    return ax


#: Where a point's label may go, in order of preference: (offset [pt], horizontal, vertical alignment).
_LABEL_PLACES = (((5, 4), "left", "baseline"), ((5, -4), "left", "top"), ((-5, 4), "right", "baseline"),
                 ((-5, -4), "right", "top"), ((0, 7), "center", "bottom"), ((0, -7), "center", "top"))


def _place_labels_clear_of_lines(ax, labels):
    """Move each point label to the first of :data:`_LABEL_PLACES` that no line, legend or label crosses.

    A label with no clear place keeps the first one. The figure is laid out once first, so that
    the test uses the final limits.
    """
    if not labels:
        return
    ax.figure.draw_without_rendering()
    paths = [line.get_transform().transform_path(line.get_path()) for line in ax.get_lines()]
    legend = ax.get_legend()
    taken = [legend.get_window_extent()] if legend is not None else []
    for label in labels:
        for offset, ha, va in _LABEL_PLACES:
            label.set(position=offset, horizontalalignment=ha, verticalalignment=va)
            box = label.get_window_extent().padded(1.0)
            if not any(path.intersects_bbox(box, filled=False) for path in paths) and not any(
                    box.overlaps(other) for other in taken):
                break
        else:
            offset, ha, va = _LABEL_PLACES[0]
            label.set(position=offset, horizontalalignment=ha, verticalalignment=va)
        taken.append(label.get_window_extent())


# Tensor parallelism, degree by degree -------------------------------------------------------

def _degree_axis(ax, degrees):
    ax.set_xscale("log", base=2)
    ax.xaxis.set_major_locator(FixedLocator(degrees))
    ax.xaxis.set_major_formatter(FuncFormatter(lambda x, _: f"{x:g}"))
    ax.xaxis.set_minor_locator(NullLocator())
    ax.set_xlim(degrees[0] / 1.4, degrees[-1] * 1.4)
    ax.set_xlabel("tensor-parallel degree t [GPUs]")


def _shade_network(ax, degrees, crosses):
    crossing = [d for d, c in zip(degrees, crosses) if c]
    if crossing:
        ax.axvspan(crossing[0] / 1.19, 1e6, color=PALETTE["grey"], alpha=0.12, linewidth=0)


@styled
def tensor_parallel_plot(scan, *, axes=None, selected=None, title=None, degrees_shown=None, time_limits_ms=None):
    """Per-layer compute and tensor-parallel communication, and their share of the step, against t.

    Parameters
    ----------
    scan : TensorParallelLayer
        From :func:`interconnect_lab.training.tensor_parallel_scan` (arrays).
    axes : pair of matplotlib.axes.Axes, optional
        Left: per-layer times; right: share of the step. A new figure if omitted.
    selected : int, optional
        A degree to mark on both axes.
    title : str, optional
        Title of the left axes.
    degrees_shown : sequence of int, optional
        Degrees on the horizontal axis; the scan's by default. Fixing them (and
        ``time_limits_ms``) keeps the axes still while the data change.
    time_limits_ms : (float, float), optional
        Limits of the per-layer time axis [ms]; automatic by default.

    Returns
    -------
    (matplotlib.axes.Axes, matplotlib.axes.Axes)

    Notes
    -----
    Degrees whose groups cross the network (larger than the NVLink domain, or
    straddling it) are shaded grey.
    """
    degrees = np.atleast_1d(scan.tensor_parallel).astype(int)
    if degrees.size < 2:
        raise ValueError("tensor_parallel_plot needs a scan of at least two degrees (tensor_parallel_scan)")
    if axes is None:
        _, axes = new_figure(8.0, 3.4, ncols=2)
    left, right = axes
    crosses = np.atleast_1d(scan.crosses_network)
    compute = np.atleast_1d(scan.compute_s) / u.ms
    communication = np.atleast_1d(scan.communication_s) / u.ms
    share = 100 * np.atleast_1d(scan.step_share)
    shown = degrees > 1
    _shade_network(left, degrees, crosses)
    _shade_network(right, degrees, crosses)
    left.plot(degrees, compute, marker="o", color=COLORS["compute"], label="compute")
    left.plot(degrees[shown], communication[shown], marker="o", color=COLORS["communication"],
              label="tensor-parallel all-reduces")
    left.set_yscale("log")
    left.yaxis.set_major_formatter(FuncFormatter(lambda x, _: f"{x:g}"))
    left.set_ylabel("time per layer and microbatch [ms]")
    right.plot(degrees, share, marker="o", color=COLORS["communication"])
    right.set_ylabel("tensor-parallel share of the step [%]")
    right.set_ylim(0, 100)
    for ax in axes:
        _degree_axis(ax, degrees if degrees_shown is None else np.asarray(degrees_shown, dtype=int))
    if time_limits_ms is not None:
        left.set_ylim(*time_limits_ms)
    if crosses.any():
        right.text(right.get_xlim()[1] / 1.08, 96, "groups cross\nthe network", ha="right", va="top", fontsize=8,
                   color=PALETTE["grey"])
    if selected is not None:
        # Three rings (compute, communication, share), always in this order; NaN hides one.
        i = np.flatnonzero(degrees == selected)
        pick = (lambda values: values[i[0]]) if i.size else (lambda values: np.nan)
        ring = {"marker": "o", "markersize": 11, "markerfacecolor": "none", "markeredgecolor": PALETTE["black"],
                "linestyle": "none"}
        left.plot([selected], [pick(compute)], **ring)
        left.plot([selected], [pick(communication) if selected > 1 else np.nan], **ring)
        right.plot([selected], [pick(share)], **ring)
    left.legend(loc="upper right", fontsize=8)
    if title:
        left.set_title(title, loc="left", fontsize=10)
    return left, right


# The model against published runs -------------------------------------------------------------

_ORGANISATION_COLORS = (PALETTE["blue"], PALETTE["vermillion"], PALETTE["green"], PALETTE["orange"],
                        PALETTE["purple"], PALETTE["sky"])
_GPU_MARKERS = ("o", "s", "^", "D")


@styled
def attention_share_plot(gpu="H100 SXM", kernels=("FlashAttention-2", "cuDNN", "FlashAttention-3"), *,
                         head_dim=128, ax=None):
    """Share of a GPU's peak each attention kernel reaches against the sequence length, per pass.

    Parameters
    ----------
    gpu : str
        A catalog GPU.
    kernels : sequence of str
        Names in ``training.ATTENTION_KERNELS``; one colour each, the forward pass solid and the
        backward pass dashed. Kernels without a share on ``gpu`` are left out.
    head_dim : int
        Dimension of one attention head.
    ax : matplotlib.axes.Axes, optional
        Axes to draw on; a new figure is made if omitted.

    Returns
    -------
    matplotlib.axes.Axes
    """
    from .. import training

    if ax is None:
        _, ax = new_figure(8.5, 3.4)
    lengths = np.geomspace(256, 131072, 120)
    measured = np.array(training.ATTENTION_BENCHMARK_LENGTHS, dtype=float)
    for color, kernel in zip(_ORGANISATION_COLORS, kernels):
        share = training.attention_share(kernel, gpu, lengths, head_dim)
        if share is None:
            continue
        at_points = training.attention_share(kernel, gpu, measured, head_dim)
        forward, backward = (np.broadcast_to(part, lengths.shape) for part in share)
        ax.plot(lengths, 100 * forward, color=color, label=f"{kernel}, forward")
        ax.plot(lengths, 100 * backward, color=color, linestyle="--", label=f"{kernel}, backward")
        if np.ndim(at_points.forward):
            ax.scatter(measured, 100 * at_points.forward, color=color, edgecolor="black", zorder=3, s=18)
            ax.scatter(measured, 100 * at_points.backward, color=color, edgecolor="black", zorder=3, s=18,
                       marker="s")
    ax.set_xscale("log", base=2)
    ax.set_xlabel("sequence length: keys per kernel call [tokens]")
    ax.set_ylabel(f"share of the {gpu}'s BF16 peak [%]")
    ax.set_ylim(0, 100)
    ax.legend(loc="center left", bbox_to_anchor=(1.01, 0.5), fontsize=8)
    return ax


@styled
def fidelity_plot(rows, *, ax=None, tolerance=0.10):
    """Predicted against published, one point per run, coloured by organisation, shaped by GPU.

    Parameters
    ----------
    rows : sequence of interconnect_lab.training.FidelityRow
        From :func:`interconnect_lab.training.fidelity_table`; MFU, TFLOP/s and tokens/s rows
        are all drawn as predicted over published.
    ax : matplotlib.axes.Axes, optional
        Axes to draw on; a new figure is made if omitted.
    tolerance : float
        Band drawn around parity [-].

    Returns
    -------
    matplotlib.axes.Axes
    """
    rows = list(rows)
    if not rows:
        raise ValueError("pass at least one FidelityRow")
    if ax is None:
        _, ax = new_figure(7.0, 3.8)
    organisations = sorted({row.run.organisation for row in rows})
    gpus = sorted({row.run.gpu for row in rows})
    if len(organisations) > len(_ORGANISATION_COLORS) or len(gpus) > len(_GPU_MARKERS):
        raise ValueError(f"at most {len(_ORGANISATION_COLORS)} organisations and {len(_GPU_MARKERS)} GPUs "
                         "fit the legend")
    order = np.argsort([row.error for row in rows])
    x = np.arange(len(rows))
    ax.axhspan(-100 * tolerance, 100 * tolerance, color=PALETTE["black"], alpha=0.08, linewidth=0,
               label=f"±{tolerance:.0%}")
    ax.axhline(0, color=PALETTE["black"], linewidth=0.8)
    for position, index in zip(x, order):
        row = rows[index]
        ax.scatter(position, 100 * row.error,
                   color=_ORGANISATION_COLORS[organisations.index(row.run.organisation)],
                   marker=_GPU_MARKERS[gpus.index(row.run.gpu)], edgecolor="black", zorder=3)
    for organisation, color in zip(organisations, _ORGANISATION_COLORS):
        ax.scatter([], [], color=color, edgecolor="black", label=organisation)
    for gpu, marker in zip(gpus, _GPU_MARKERS):
        ax.scatter([], [], color="white", edgecolor="black", marker=marker, label=gpu)
    ax.set_xticks([])
    ax.set_xlabel("published runs, sorted by the model's error")
    ax.set_ylabel("model against published [%]")
    ax.legend(loc="upper left", fontsize=8, ncols=2)
    return ax
