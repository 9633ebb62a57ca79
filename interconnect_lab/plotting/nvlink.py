"""Figures for scale-up domains (chapter 2): NVSwitch wiring, the bandwidth ladder, tensor parallelism.

- :func:`nvlink_domain_plot` draws a :class:`~interconnect_lab.topology.ScaleUpDomain`:
  GPUs below, switch chips above, one line per GPU-chip pair (thicker for more links).
- :func:`bandwidth_ladder_plot` puts catalog memory tiers and links on one log
  scale: how the pipe narrows as data travels further from the GPU.
- :func:`tensor_parallel_plot` draws a
  :class:`~interconnect_lab.training.TensorParallelLayer` scan: per-layer compute
  and communication against the tensor-parallel degree, and the share of the step.
"""

from __future__ import annotations

import numpy as np
from matplotlib.patches import FancyBboxPatch
from matplotlib.ticker import FixedLocator, FuncFormatter, NullLocator

from .. import units as u
from ..units import format_rate
from .style import COLORS, PALETTE, new_figure, styled

__all__ = ["nvlink_domain_plot", "bandwidth_ladder_plot", "ladder_entry", "tensor_parallel_plot"]

_GPU_COLOUR = PALETTE["blue"]
_SWITCH_COLOUR = PALETTE["green"]


# NVSwitch wiring --------------------------------------------------------------------------

def _boxes(ax, xs, y, width, height, colour, labels, fontsize):
    for x, label in zip(xs, labels):
        # A corner no rounder than a quarter of the box: narrow boxes stay boxes.
        ax.add_patch(FancyBboxPatch((x - width / 2, y - height / 2), width, height,
                                    boxstyle=f"round,pad=0,rounding_size={min(0.04, width / 4):.4f}", facecolor=colour,
                                    edgecolor="white", linewidth=0.5, zorder=3))
        if label:
            ax.text(x, y, label, ha="center", va="center", color="white", fontsize=fontsize,
                    fontweight="bold", zorder=4)


@styled
def nvlink_domain_plot(domain, *, ax=None, title=None, label_links=None, switch_ports=None):
    """Diagram of an NVSwitch domain: every GPU wired to every switch chip.

    Parameters
    ----------
    domain : ScaleUpDomain
        From :func:`interconnect_lab.topology.nvlink_domain` or
        :func:`~interconnect_lab.topology.scale_up_domain`.
    ax : matplotlib.axes.Axes, optional
        Axes to draw on; a new figure is made if omitted.
    title : str, optional
        Title; by default the domain's name, GPU and chip counts.
    label_links : bool, optional
        Write the number of links on each GPU-chip line; by default only when
        the domain has at most 8 GPUs.
    switch_ports : int, optional
        Ports of one switch chip (its catalog radix); if given, each chip is
        annotated with the ports the domain uses.

    Returns
    -------
    matplotlib.axes.Axes
    """
    if ax is None:
        _, ax = new_figure(7.0, 3.0)
    gpus, chips = domain.gpus, domain.switch_chips
    counts = np.array(domain.links_per_gpu_per_chip)
    small = gpus <= 8 if label_links is None else label_links
    gpu_x = (np.arange(gpus) + 0.5) / gpus
    chip_x = (np.arange(chips) + 0.5) / chips
    gpu_y, chip_y = 0.0, 1.0
    widest = counts.max()
    alpha = 0.8 if gpus * chips <= 64 else max(0.15, 40 / (gpus * chips))
    for g, x0 in enumerate(gpu_x):
        for c, x1 in enumerate(chip_x):
            ax.plot([x0, x1], [gpu_y, chip_y], color=PALETTE["grey"], alpha=alpha,
                    linewidth=(0.6 + 2.4 * counts[c] / widest) if small else 0.5, zorder=1,
                    solid_capstyle="butt")
    if small:
        # Label the links of the first GPU only: every GPU is wired the same way.
        for c, x1 in enumerate(chip_x):
            xm, ym = gpu_x[0] + 0.72 * (x1 - gpu_x[0]), gpu_y + 0.72 * (chip_y - gpu_y)
            ax.text(xm, ym, str(counts[c]), ha="center", va="center", fontsize=9,
                    bbox={"boxstyle": "circle,pad=0.15", "facecolor": "white", "edgecolor": PALETTE["grey"]},
                    zorder=5)
    # Boxes fill 80% of their slot, 60% when there are many, so neighbours stay apart.
    gpu_width = min((0.8 if gpus <= 8 else 0.6) / gpus, 0.09)
    chip_width = min((0.8 if chips <= 8 else 0.6) / chips, 0.16)
    _boxes(ax, gpu_x, gpu_y, gpu_width, 0.16, _GPU_COLOUR,
           [f"GPU\n{i}" if gpus <= 8 else "" for i in range(gpus)], 8)
    _boxes(ax, chip_x, chip_y, chip_width, 0.16, _SWITCH_COLOUR,
           [f"NVSwitch\n{i}" if chips <= 8 else "" for i in range(chips)], 8)
    if switch_ports is not None and chips <= 8:
        for x, used in zip(chip_x, domain.switch_ports_used):
            ax.text(x, chip_y + 0.11, f"{used} of {switch_ports} ports", ha="center", va="bottom", fontsize=8,
                    color=_SWITCH_COLOUR)
    elif switch_ports is not None:
        used = sorted(set(domain.switch_ports_used))
        ax.text(0.5, chip_y + 0.11, f"each chip: {'/'.join(map(str, used))} of {switch_ports} ports used",
                ha="center", va="bottom", fontsize=8, color=_SWITCH_COLOUR)
    ax.text(-0.02, gpu_y, f"{gpus} GPUs", ha="right", va="center", fontsize=10, color=_GPU_COLOUR)
    ax.text(-0.02, chip_y, f"{chips} switch\nchips", ha="right", va="center", fontsize=10,
            color=_SWITCH_COLOUR)
    ax.set_xlim(-0.2, 1.02)
    ax.set_ylim(-0.2, 1.3)
    ax.set_axis_off()
    if title is None:
        title = (f"{domain.name}: {gpus} GPUs x {domain.links_per_gpu} {domain.link} links "
                 f"= {domain.links} links to {chips} switch chips")
    ax.set_title(title, loc="left", fontsize=10)
    return ax


# The bandwidth ladder -----------------------------------------------------------------------

_HEADLINED_BOTH_WAYS = ("NVLink", "NVLink-C2C", "PCIe", "CXL", "Infinity Fabric")


def ladder_entry(entry, label=None):
    """One rung of :func:`bandwidth_ladder_plot` from a catalog memory tier or link.

    Parameters
    ----------
    entry : catalog.MemoryTier or catalog.Link
        A memory tier (its bandwidth, ``"total"`` or ``"per direction"``) or a
        link: for a scale-up link all of one GPU's links, otherwise one link or
        port.
    label : str, optional
        Text for the axis; the entry's name by default.

    Returns
    -------
    dict
        ``label``; ``bytes_per_s``, the rate per direction, or for memory the
        total its reads and writes share [B/s]; ``both_directions_bytes_per_s``,
        both directions added, for the link families vendors headline that way
        (NVLink, NVLink-C2C, PCIe, CXL, Infinity Fabric), else None [B/s]; ``direction``
        (``"per direction"`` or ``"reads + writes"``); ``bits``, True for
        network ports, whose rates are quoted in bits per second.
    """
    if hasattr(entry, "bandwidth_direction"):
        total = entry.bandwidth_direction == "total"
        return {"label": label or entry.name, "bytes_per_s": entry.bandwidth_bytes_per_s,
                "both_directions_bytes_per_s": None,
                "direction": "reads + writes" if total else "per direction", "bits": False}
    if hasattr(entry, "per_direction_bytes_per_s") and hasattr(entry, "family"):
        rate = entry.per_gpu_per_direction_bytes_per_s or entry.per_direction_bytes_per_s
        name = entry.name if entry.links_per_gpu is None else f"{entry.name} ({entry.links_per_gpu} links)"
        both = u.both_directions(rate) if entry.family in _HEADLINED_BOTH_WAYS else None
        return {"label": label or name, "bytes_per_s": rate, "both_directions_bytes_per_s": both,
                "direction": "per direction", "bits": entry.family not in _HEADLINED_BOTH_WAYS}
    raise TypeError(f"entry must be a catalog MemoryTier or Link, got {type(entry).__name__}")


@styled
def bandwidth_ladder_plot(entries, *, ax=None, title=None):
    """Bandwidth of each place data can come from, on one log scale, nearest first.

    Solid bars are the rate a transfer can use in one direction (for memory: the
    total that reads and writes share); the pale extension of a link's bar is
    the vendor's figure with both directions added. Between consecutive bars,
    the factor by which the pipe narrows.

    Parameters
    ----------
    entries : sequence of dict
        From :func:`ladder_entry`, nearest to the GPU first.
    ax : matplotlib.axes.Axes, optional
        Axes to draw on; a new figure is made if omitted.
    title : str, optional
        Title.

    Returns
    -------
    matplotlib.axes.Axes
    """
    entries = list(entries)
    if not entries:
        raise ValueError("bandwidth_ladder_plot needs at least one entry (see ladder_entry)")
    if ax is None:
        _, ax = new_figure(7.5, 0.75 * len(entries) + 1.4)
    y = np.arange(len(entries))[::-1]
    rates = np.array([e["bytes_per_s"] for e in entries]) / u.GB_per_s
    both = [e["both_directions_bytes_per_s"] for e in entries]
    colours = [PALETTE["blue"], PALETTE["green"], PALETTE["orange"], PALETTE["vermillion"],
               PALETTE["purple"], PALETTE["sky"]]
    labelled = False
    for row, rate, entry, vendor, colour in zip(y, rates, entries, both, colours * 3):
        if vendor is not None:
            ax.barh(row, vendor / u.GB_per_s, height=0.6, color=colour, alpha=0.25, edgecolor=colour,
                    linewidth=0.8, label=None if labelled else "both directions added, as NVLink and PCIe are quoted")
            labelled = True
        ax.barh(row, rate, height=0.6, color=colour)
        text = f" {format_rate(entry['bytes_per_s'])}"
        if entry.get("bits"):
            text += f" ({format_rate(entry['bytes_per_s'], bits=True)})"
        text += f" {entry['direction']}"
        if vendor is not None:
            text += f"\n {format_rate(vendor)} both directions"
        ax.text(max(rate, (vendor or 0) / u.GB_per_s), row, text, va="center", fontsize=9, linespacing=1.1)
    for upper, lower, r0, r1 in zip(y[:-1], y[1:], rates[:-1], rates[1:]):
        ax.annotate(f"÷{r0 / r1:.1f}", xy=(min(r0, r1) * 0.55, (upper + lower) / 2), ha="right", va="center",
                    fontsize=9, color=PALETTE["black"], fontweight="bold")
    ax.set_xscale("log")
    low = 10 ** np.floor(np.log10(rates.min() / 3))
    high = max(rates.max(), max((b or 0) for b in both) / u.GB_per_s) * 20
    ax.set_xlim(low, high)
    ax.set_yticks(y, [e["label"] for e in entries])
    ax.set_xlabel("bandwidth [GB/s] (log scale)")
    ax.xaxis.set_major_formatter(FuncFormatter(lambda x, _: f"{x:,.0f}"))
    ax.grid(axis="y", visible=False)
    if labelled:
        ax.legend(loc="lower right", fontsize=8)
    if title:
        ax.set_title(title, loc="left", fontsize=10)
    return ax


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
