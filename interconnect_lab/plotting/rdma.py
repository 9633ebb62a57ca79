"""Figures for RDMA (chapter 4): data paths, kernel TCP against RDMA, host memory, GPUDirect RDMA.

Each function takes results of :mod:`interconnect_lab.rdma`, draws on optional
axes and returns them. Artists that an interactive panel updates in place carry
a ``gid`` (``"curve:<path>"``, ``"point"``, ``"bar:<segment>"`` and ``"value:<segment>"``).
"""

from __future__ import annotations

import math
import textwrap

import numpy as np
from matplotlib.patches import FancyArrowPatch

from .. import units as u
from ..rdma import GPU_PATHS, MOVERS, SEGMENTS, GpuTransfer, HostTransfer
from .collectives import size_axis
from .style import PALETTE, legend_label, new_figure, styled

__all__ = ["MOVER_COLORS", "STACK_COLORS", "PATH_COLORS", "data_path_plot", "host_transfer_plot",
           "host_memory_plot", "gpu_transfer_plot", "update_gpu_transfer_plot"]

#: Who moves the bytes: the CPU copying, a NIC's DMA engine, the GPU.
MOVER_COLORS = {"CPU": PALETTE["vermillion"], "NIC": PALETTE["blue"], "GPU": PALETTE["green"]}
#: One colour per host stack.
STACK_COLORS = {"kernel TCP": PALETTE["vermillion"], "RDMA": PALETTE["blue"]}
#: One colour per GPU path.
PATH_COLORS = dict(zip(GPU_PATHS, (PALETTE["blue"], PALETTE["orange"], PALETTE["purple"])))

_MOVER_LABELS = {"CPU": "CPU copies (software)", "NIC": "NIC reads or writes by DMA",
                 "GPU": "GPU copies over PCIe"}


def _wrap(text, width=11):
    return textwrap.wrap(text, width)


def _half_width_pt(text):
    # Half a box's width in points: about 0.55 em per character at 9 pt, plus the padding.
    return 0.5 * max(len(line) for line in _wrap(text)) * 5.2 + 5.0


def _box(ax, x, y, text):
    ax.text(x, y, "\n".join(_wrap(text)), ha="center", va="center", fontsize=9, zorder=3,
            bbox={"boxstyle": "round,pad=0.35", "facecolor": "white", "edgecolor": PALETTE["black"],
                  "linewidth": 1})


def _arrow(ax, x0, x1, y, color, *, start, end, width=2.0, label=None):
    ax.add_patch(FancyArrowPatch((x0, y), (x1, y), arrowstyle="-|>", mutation_scale=12, color=color,
                                 linewidth=width, shrinkA=_half_width_pt(start) + 2,
                                 shrinkB=_half_width_pt(end) + 3, zorder=2))
    if label:
        ax.text((x0 + x1) / 2, y + 0.42, "\n".join(textwrap.wrap(label, 14)), ha="center", va="bottom",
                fontsize=8, color=PALETTE["black"], linespacing=1.0)


@styled
def data_path_plot(routes, *, ax=None, title=None):
    """Where a message's bytes go, from the sender's buffer to the receiver's, one row per stack.

    Boxes are places the data sits; arrows are moves, coloured by who makes them
    (:data:`MOVER_COLORS`). The receiver's side mirrors the sender's.

    Parameters
    ----------
    routes : mapping of str to tuple of Hop
        Label → the sender's side of a route (``STACKS[name].route``,
        ``GPU_PATHS[name].route``), drawn top to bottom.
    ax : matplotlib.axes.Axes, optional
    title : str, optional

    Returns
    -------
    matplotlib.axes.Axes
    """
    routes = dict(routes)
    if not routes:
        raise ValueError("data_path_plot needs at least one route")
    longest = max(len(r) for r in routes.values())
    if ax is None:
        _, ax = new_figure(8.4, 0.5 + 1.6 * len(routes))
    step, gap, pitch = 2.4, 2.3, 2.45
    nic_left, nic_right = longest * step, longest * step + gap
    mirror = 2 * nic_left + gap
    for row, (label, route) in enumerate(routes.items()):
        y = -row * pitch
        ax.text(-1.1, y + 1.2, label, ha="left", va="center", fontsize=10, fontweight="bold")
        xs = [nic_left - step * (len(route) - i) for i in range(len(route))]
        for i, hop in enumerate(route):
            _box(ax, xs[i], y, hop.place)
            _box(ax, mirror - xs[i], y, hop.place)
            end, end_place = (xs[i + 1], route[i + 1].place) if i + 1 < len(route) else (nic_left, "NIC")
            color = MOVER_COLORS[hop.mover]
            _arrow(ax, xs[i], end, y, color, start=hop.place, end=end_place, label=hop.how)
            _arrow(ax, mirror - end, mirror - xs[i], y, color, start=end_place, end=hop.place)
        _box(ax, nic_left, y, "NIC")
        _box(ax, nic_right, y, "NIC")
        _arrow(ax, nic_left, nic_right, y, PALETTE["grey"], start="NIC", end="NIC", width=3.5, label="network")
    used = {hop.mover for route in routes.values() for hop in route}
    for mover in (m for m in MOVERS if m in used):
        ax.plot([], [], color=MOVER_COLORS[mover], linewidth=2.5, label=_MOVER_LABELS[mover])
    sender_x = nic_left - step * longest / 2
    ax.text(sender_x, 1.75, "sender", ha="center", fontsize=9.5, style="italic")
    ax.text(mirror - sender_x, 1.75, "receiver", ha="center", fontsize=9.5, style="italic")
    ax.set_xlim(-1.2, mirror + 1.2)
    ax.set_ylim(-pitch * (len(routes) - 1) - 0.8, 2.1)
    ax.axis("off")
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, 0.0), ncols=2, fontsize=9)
    if title:
        ax.set_title(title, loc="left", fontsize=10)
    return ax


def _check_transfers(transfers, kind):
    transfers = dict(transfers)
    if not transfers:
        raise ValueError("give at least one result")
    for label, t in transfers.items():
        if not isinstance(t, kind):
            raise TypeError(f"{label!r} must be a {kind.__name__}, got {type(t).__name__}")
        if np.ndim(t.size_bytes) != 1:
            raise ValueError(f"{label!r} must be computed for an array of sizes (a 1-D size_bytes)")
    return transfers


@styled
def host_transfer_plot(central, *, best=None, worst=None, axes=None, link_bytes_per_s=None, title=None):
    """One-way time and effective bandwidth against message size, one line per host stack.

    Parameters
    ----------
    central : mapping of str to HostTransfer
        Stack → result of :func:`interconnect_lab.rdma.host_transfer` for an array of sizes.
    best, worst : mapping of str to HostTransfer, optional
        The same at the ends of the latency ranges, drawn as a band.
    axes : pair of matplotlib.axes.Axes, optional
        (time, bandwidth); a new figure is made if omitted.
    link_bytes_per_s : float, optional
        The port's line rate, one direction [B/s], drawn as a dashed line.
    title : str, optional

    Returns
    -------
    tuple of matplotlib.axes.Axes
    """
    central = _check_transfers(central, HostTransfer)
    if axes is None:
        _, axes = new_figure(9.0, 3.6, ncols=2)
    time_ax, bandwidth_ax = axes
    for label, t in central.items():
        color = STACK_COLORS.get(label, PALETTE["black"])
        time_ax.plot(t.size_bytes, t.time_s / u.us, color=color, linewidth=2, label=label)
        bandwidth_ax.plot(t.size_bytes, t.effective_bandwidth_bytes_per_s / u.GB_per_s, color=color, linewidth=2,
                          label=label)
        if best is not None and worst is not None:
            time_ax.fill_between(t.size_bytes, best[label].time_s / u.us, worst[label].time_s / u.us,
                                 color=color, alpha=0.18, linewidth=0)
            bandwidth_ax.fill_between(t.size_bytes, worst[label].effective_bandwidth_bytes_per_s / u.GB_per_s,
                                      best[label].effective_bandwidth_bytes_per_s / u.GB_per_s,
                                      color=color, alpha=0.18, linewidth=0)
    if best is not None and worst is not None:
        time_ax.fill_between([], [], [], color=PALETTE["grey"], alpha=0.3, label="range of the estimates")
    top = max(float(np.max(t.effective_bandwidth_bytes_per_s)) for t in central.values()) / u.GB_per_s
    if link_bytes_per_s is not None:
        top = max(top, link_bytes_per_s / u.GB_per_s)
        bandwidth_ax.axhline(link_bytes_per_s / u.GB_per_s, color=PALETTE["black"], linestyle="--", linewidth=1,
                             label=f"port line rate ({link_bytes_per_s / u.GB_per_s:.0f} GB/s)")
    size_axis(time_ax)
    time_ax.set_yscale("log")
    time_ax.set_ylabel("one-way time [µs]")
    time_ax.legend(loc="upper left", fontsize=9)
    size_axis(bandwidth_ax)
    bandwidth_ax.set_ylim(0, 1.15 * top)
    bandwidth_ax.set_ylabel("effective bandwidth, one direction [GB/s]")
    # Under the plateaus, right of the rise: the line-rate line crosses the top of the axes.
    bandwidth_ax.legend(loc="center right", fontsize=9)
    if title:
        time_ax.set_title(title, loc="left", fontsize=10)
    return time_ax, bandwidth_ax


@styled
def host_memory_plot(demands, available_bytes_per_s, *, ax=None, available_label="host memory bandwidth",
                     title=None):
    """Host-memory traffic each data path needs, against what the host memory delivers.

    Parameters
    ----------
    demands : mapping of str to float
        Label → host-memory traffic [B/s] (reads and writes together), drawn top to bottom.
    available_bytes_per_s : float
        The host memory's bandwidth, reads and writes together [B/s].
    ax : matplotlib.axes.Axes, optional
    available_label : str
        Legend entry of the available bandwidth.
    title : str, optional

    Returns
    -------
    matplotlib.axes.Axes
    """
    demands = dict(demands)
    if not demands:
        raise ValueError("host_memory_plot needs at least one demand")
    if ax is None:
        _, ax = new_figure(8.0, 1.3 + 0.55 * len(demands))
    available = available_bytes_per_s / u.GB_per_s
    y = np.arange(len(demands))[::-1]
    values = np.array(list(demands.values())) / u.GB_per_s
    over = values > available
    # A legend entry only for a kind of bar that is drawn.
    ax.barh(y[over], values[over], height=0.6, color=PALETTE["vermillion"],
            label=legend_label("needs more than the host has", values[over]))
    ax.barh(y[~over], values[~over], height=0.6, color=PALETTE["green"], label=legend_label("fits", values[~over]))
    ax.axvline(available, color=PALETTE["black"], linestyle="--", linewidth=1.2,
               label=f"{available_label} ({available:,.0f} GB/s)")
    for yi, value in zip(y, values):
        ax.annotate(f"{value:,.0f} GB/s", (value, yi), xytext=(4, 0), textcoords="offset points", va="center",
                    fontsize=9)
    ax.set_yticks(y, list(demands))
    ax.set_xlim(0, 1.18 * max(values.max(), available))
    ax.set_xlabel("host-memory traffic, reads and writes together [GB/s]")
    ax.grid(axis="y", visible=False)
    ax.legend(loc="lower right", fontsize=8.5)
    if title:
        ax.set_title(title, loc="left", fontsize=10)
    return ax


def _segment_label(segment):
    return f" {segment.rate_bytes_per_s / u.GB_per_s:,.1f}" if segment else " not crossed"


@styled
def gpu_transfer_plot(curves, point, *, axes=None, bandwidth_limit_bytes_per_s=None,
                      rate_limit_bytes_per_s=None):
    """GPU-to-GPU transfers: effective bandwidth against size per path, and one path's bottleneck.

    Left: effective bandwidth against message size for every path, the chosen one
    bold with a ring at the chosen size. Right: what each segment of the chosen path
    leaves for each GPU (capacity over load); the tightest is the rate.

    Parameters
    ----------
    curves : mapping of str to GpuTransfer
        Path → result of :func:`interconnect_lab.rdma.gpu_transfer` for an array of sizes.
    point : GpuTransfer
        The chosen path at one size (a scalar ``size_bytes``).
    axes : pair of matplotlib.axes.Axes, optional
    bandwidth_limit_bytes_per_s, rate_limit_bytes_per_s : float, optional
        Fixed upper limits of the two x or y axes [B/s] (a panel keeps them fixed).

    Returns
    -------
    tuple of matplotlib.axes.Axes
    """
    curves = _check_transfers(curves, GpuTransfer)
    if not isinstance(point, GpuTransfer) or np.ndim(point.size_bytes) != 0:
        raise TypeError("point must be a GpuTransfer for one message size")
    if axes is None:
        _, axes = new_figure(10.0, 3.8, ncols=2, width_ratios=(1.15, 1))
    curve_ax, bar_ax = axes
    top = 0.0
    for path, t in curves.items():
        chosen = path == point.path
        values = t.effective_bandwidth_bytes_per_s / u.GB_per_s
        line, = curve_ax.plot(t.size_bytes, values, color=PATH_COLORS.get(path, PALETTE["black"]),
                              linewidth=3.0 if chosen else 1.3, alpha=1.0 if chosen else 0.75, label=path)
        line.set_gid(f"curve:{path}")
        top = max(top, float(np.max(values)))
    ring, = curve_ax.plot([float(point.size_bytes)], [float(point.effective_bandwidth_bytes_per_s) / u.GB_per_s],
                          marker="o", markersize=10, markerfacecolor="none", markeredgewidth=2,
                          color=PALETTE["black"], linestyle="none", label="chosen size")
    ring.set_gid("point")
    size_axis(curve_ax)
    limit = (bandwidth_limit_bytes_per_s / u.GB_per_s if bandwidth_limit_bytes_per_s else 1.12 * top)
    curve_ax.set_ylim(0, limit)
    curve_ax.set_ylabel("effective bandwidth per GPU,\none direction [GB/s]")
    curve_ax.legend(loc="upper left", fontsize=8.5)
    curve_ax.set_title("every path; ring: the chosen path and size", loc="left", fontsize=10)

    y = np.arange(len(SEGMENTS))[::-1]
    rates = []
    for yi, name in zip(y, SEGMENTS):
        segment = point.segment(name)
        rate = segment.rate_bytes_per_s / u.GB_per_s if segment else 0.0
        rates.append(rate)
        bar, = bar_ax.barh([yi], [rate], height=0.62,
                           color=PALETTE["vermillion"] if name == point.limited_by else PALETTE["sky"])
        bar.set_gid(f"bar:{name}")
        text = bar_ax.text(rate, yi, _segment_label(segment), va="center", fontsize=8.5,
                           color=PALETTE["black"] if segment else PALETTE["grey"])
        text.set_gid(f"value:{name}")
    bar_ax.set_yticks(y, SEGMENTS)
    right = rate_limit_bytes_per_s / u.GB_per_s if rate_limit_bytes_per_s else 1.6 * max(rates)
    bar_ax.set_xlim(0, right)
    bar_ax.set_xlabel("rate left for each GPU, one direction [GB/s]")
    bar_ax.grid(axis="y", visible=False)
    bar_ax.set_title("capacity ÷ load; red: the bottleneck", loc="left", fontsize=10)
    return curve_ax, bar_ax


def update_gpu_transfer_plot(axes, curves, point):
    """Update a :func:`gpu_transfer_plot` in place for new results; return the artists changed.

    The paths, sizes and axis limits must be those the figure was drawn with;
    returns None (draw again) when a value falls outside the axes.

    Parameters
    ----------
    axes : pair of matplotlib.axes.Axes
        Axes :func:`gpu_transfer_plot` drew.
    curves, point :
        As for :func:`gpu_transfer_plot`.
    """
    curve_ax, bar_ax = axes
    by_gid = {a.get_gid(): a for ax in axes for a in ax.get_children() if a.get_gid()}
    changed = []
    low, high = curve_ax.get_ylim()
    for path, t in curves.items():
        line = by_gid.get(f"curve:{path}")
        if line is None:
            return None
        values = t.effective_bandwidth_bytes_per_s / u.GB_per_s
        if float(np.max(values)) > high:
            return None
        chosen = path == point.path
        line.set_data(t.size_bytes, values)
        line.set_linewidth(3.0 if chosen else 1.3)
        line.set_alpha(1.0 if chosen else 0.75)
        changed.append(line)
    ring = by_gid["point"]
    ring.set_data([float(point.size_bytes)], [float(point.effective_bandwidth_bytes_per_s) / u.GB_per_s])
    changed.append(ring)
    right = bar_ax.get_xlim()[1]
    for name in SEGMENTS:
        segment = point.segment(name)
        rate = segment.rate_bytes_per_s / u.GB_per_s if segment else 0.0
        if not math.isfinite(rate) or rate > right:
            return None
        bar, text = by_gid[f"bar:{name}"], by_gid[f"value:{name}"]
        bar.set_width(rate)
        bar.set_color(PALETTE["vermillion"] if name == point.limited_by else PALETTE["sky"])
        text.set_x(rate)
        text.set_text(_segment_label(segment))
        text.set_color(PALETTE["black"] if segment else PALETTE["grey"])
        changed += [bar, text]
    return changed
