"""Panels for chapter 7: how a collective's time and bus bandwidth depend on size, ranks,
algorithm and link, and what NCCL runs on a machine.

- :class:`CollectivePanel` draws time (log-log) and bus bandwidth against
  message size, one line per α-β algorithm over one link, with a marker at the
  message size the reader picks; what it shows is computed by
  :func:`interconnect_lab.collectives.collective_performance` with the catalog's
  link parameters (:func:`interconnect_lab.collectives.link_parameters`).
- :class:`NcclChoicePanel` shows what NCCL runs over message sizes and node
  counts on a machine the reader picks, and the busbw at one node count; what
  it shows is :func:`interconnect_lab.collectives.nccl_choice_map`.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import ipywidgets as widgets
import numpy as np
from matplotlib.ticker import NullLocator

from .. import catalog
from .. import units as u
from ..collectives import (
    algorithms_for, collective_performance, collective_system, crossover_size, link_parameters, nccl_choice_map,
)
from ..plotting.collectives import (
    bus_bandwidth_plot, busbw_legend_handles, choice_label, collective_time_plot, nccl_choice_plot,
    update_nccl_choice_plot,
)
from ..plotting.style import PALETTE, STYLE, styled
from ..units import format_bytes, format_time
from .panel import Panel

__all__ = ["CollectivePanel", "NcclChoicePanel", "MACHINES", "CHOICE_COLLECTIVES", "CHOICE_NODES", "CHOICE_SIZES_BYTES"]

#: Message sizes of the curves: 8 B to 8 GiB, as ``all_reduce_perf -b 8 -e 8G`` sweeps them [B].
CURVE_SIZES_BYTES = np.logspace(np.log10(8.0), np.log10(8 * u.GiB), 161)

#: Sizes the reader can mark: powers of two from 1 KiB to 8 GiB [B].
SIZE_OPTIONS = tuple((format_bytes(2.0**k, binary=True), 2.0**k) for k in range(10, 34))

RANK_OPTIONS = (2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 256, 512, 1024)

#: Collectives the panel offers (send/recv has no algorithms to compare).
PANEL_COLLECTIVES = ("all_reduce", "all_gather", "reduce_scatter", "broadcast", "reduce", "all_to_all")

_NETWORK_FAMILIES = ("InfiniBand", "Ethernet")
_LABELS = {
    "ring": "ring", "tree": "double binary tree", "halving_doubling": "halving-doubling",
    "direct": "direct", "nvls": "NVLink SHARP (NVLS)", "sharp": "InfiniBand SHARP",
}

_CONTROL = {"style": {"description_width": "12em"}, "layout": widgets.Layout(width="34em")}
_SLIDER = {"continuous_update": True, **_CONTROL}


def panel_links(families=("NVLink", *_NETWORK_FAMILIES)):
    """Catalog links of the given families, which all have sourced collective defaults."""
    return tuple(name for name, link in catalog.LINKS.items() if link.family in families)


def compared_algorithms(collective, link_family):
    """The algorithms a panel compares for ``collective`` on a link of ``link_family``.

    Every flat algorithm of :data:`~interconnect_lab.collectives.ALGORITHMS`
    that implements the collective, except: NVLink SHARP only on NVLink,
    InfiniBand SHARP only on InfiniBand, and direct sends only where they are
    the sole algorithm (all-to-all). A direct all-reduce or all-gather among
    many ranks opens n−1 connections at once, whose per-message overheads the
    α-β model does not charge, so it would look better than it is.
    """
    names = [a for a in algorithms_for(collective) if a != "hierarchical"]
    names = [a for a in names if not (a == "nvls" and link_family != "NVLink")]
    names = [a for a in names if not (a == "sharp" and link_family != "InfiniBand")]
    if len(names) > 1:
        names = [a for a in names if a != "direct"]
    return tuple(names)


@dataclass(frozen=True)
class Sweep:
    """What a panel computes: curves against size, the values at the marked size.

    Attributes
    ----------
    collective : str
        The collective.
    curves : dict of str to CollectivePerformance
        Label → result over :data:`CURVE_SIZES_BYTES`.
    points : dict of str to CollectivePerformance
        Label → result at ``size_bytes``.
    size_bytes : float
        The marked message size [B].
    link_bandwidth_bytes_per_s : float
        Line rate drawn as a reference, one direction [B/s].
    efficiency : float
        Usable share of that line rate [-].
    crossover_bytes : float
        Size where ring and tree take equal time [B]; ``inf`` if there is none
        (or no tree to compare).
    title : str
        What is compared, for the figure.
    time_limits_us : tuple of float
        Time axis range [µs]: whole decades around the fastest and slowest
        cases the panel's controls reach for this frame, so moving a slider
        keeps the axes still.
    busbw_top_gb_per_s : float
        Top of the busbw data the controls reach for this frame [GB/s].
    """

    collective: str
    curves: dict
    points: dict
    size_bytes: float
    link_bandwidth_bytes_per_s: float
    efficiency: float
    crossover_bytes: float
    title: str
    time_limits_us: tuple
    busbw_top_gb_per_s: float


def _axis_extents(extremes, link_bandwidth_bytes_per_s):
    """Time limits [µs] and busbw top [GB/s] from results at the controls' extreme values."""
    times = np.array([r.time_s for r in extremes]) / u.us
    low = 10.0 ** math.floor(math.log10(max(float(times.min()), 1e-3)))
    high = 10.0 ** math.ceil(math.log10(float(times.max())))
    busbw = max(r.bus_bandwidth_bytes_per_s for r in extremes)
    return (low, high), max(busbw, link_bandwidth_bytes_per_s) / u.GB_per_s


def _fits(sweep, time_limits, busbw_limits):
    times = np.concatenate([np.asarray(r.time_s) for r in sweep.curves.values()]) / u.us
    busbw = max(float(np.max(r.bus_bandwidth_bytes_per_s)) for r in sweep.curves.values()) / u.GB_per_s
    return time_limits[0] <= times.min() and times.max() <= time_limits[1] and busbw <= busbw_limits[1]


#: Bottom of the bus-bandwidth axis (log) [GB/s]: below it a collective is all latency.
BUSBW_FLOOR_GB_PER_S = 0.01


class _SweepPanel(Panel):
    """Time and busbw against size for a few algorithms, with a marked size.

    The axes are the same for every position of every control (decades that hold
    all the cases the controls reach, bus bandwidth on a log axis), and every
    curve any choice can show is drawn once, so moving any control only changes
    lines' data, what is visible and the legend: the fast path of
    :meth:`Panel.redraw`.
    """

    #: Every curve label the panel can show, in legend order; subclasses set it.
    LABELS: tuple = ()

    def __init__(self):
        super().__init__(figure_size_in=(8.6, 4.2), subplots={"ncols": 2})

    def _frame_key(self, sweep):
        # What fixes everything but the curves' data: a change redraws from scratch (the legend
        # names the curves shown, so a change of algorithms redraws too).
        return (sweep.time_limits_us, sweep.busbw_top_gb_per_s, tuple(sorted(sweep.curves)))

    @styled
    def draw(self, sweep):
        time_ax, busbw_ax = self.axes
        for ax in self.axes:  # clearing the axes reset their colour cycle to matplotlib's default
            ax.set_prop_cycle(STYLE["axes.prop_cycle"])
        # The plotting functions style the axes; the panel then owns the lines.
        collective_time_plot(sweep.curves, ax=time_ax)
        bus_bandwidth_plot(sweep.curves, ax=busbw_ax)
        for ax in self.axes:
            for artist in [*ax.get_lines(), ax.get_legend()]:
                if artist is not None:
                    artist.remove()
        colors = dict(zip(self.LABELS, STYLE["axes.prop_cycle"].by_key()["color"]))
        nothing = np.full(CURVE_SIZES_BYTES.size, np.nan)
        self._curve_lines = ({label: time_ax.plot(CURVE_SIZES_BYTES, nothing, color=colors[label], linewidth=2,
                                                  label=label)[0] for label in self.LABELS},
                             {label: busbw_ax.plot(CURVE_SIZES_BYTES, nothing, color=colors[label],
                                                   linewidth=2, label=label)[0] for label in self.LABELS})
        self._markers = tuple(
            {label: ax.plot([], [], "o", color=colors[label], markersize=7, markeredgecolor="white",
                            zorder=5)[0] for label in self.LABELS} for ax in self.axes)
        self._link_lines = (busbw_ax.axhline(1.0, color=PALETTE["black"], linestyle="--", linewidth=1,
                                             label="link line rate, per direction"),
                            busbw_ax.axhline(1.0, color=PALETTE["grey"], linestyle=":", linewidth=1.5,
                                             label="usable share of the line rate"))
        # One legend for the curves shown (text is slow to draw, so it stays in the background
        # and a change of algorithms redraws the figure); the readout gives the link's rates.
        for legend in self.figure.legends:  # axes.clear() leaves the figure's legend
            legend.remove()
        shown = [line for label, line in self._curve_lines[1].items() if label in sweep.curves]
        self.figure.legend(handles=[*shown, *self._link_lines], loc="outside lower center",
                           ncols=3, fontsize=8, frameon=False)
        self._size_lines = [ax.axvline(sweep.size_bytes, color=PALETTE["black"], linewidth=1, alpha=0.6)
                            for ax in self.axes]
        self._crossover_line = time_ax.axvline(sweep.size_bytes, color=PALETTE["grey"], linestyle=":",
                                               linewidth=1.5)
        time_ax.set_ylim(*sweep.time_limits_us)
        busbw_ax.set_yscale("log")
        busbw_ax.set_ylim(BUSBW_FLOOR_GB_PER_S, 10.0 ** math.ceil(math.log10(1.5 * sweep.busbw_top_gb_per_s)))
        for ax in self.axes:
            ax.set_xlim(CURVE_SIZES_BYTES[0] / 2, CURVE_SIZES_BYTES[-1] * 2)
        # Minor ticks on log axes are most of the cost of a full draw; the
        # decade grid reads as well without them.
        for axis in (time_ax.xaxis, time_ax.yaxis, busbw_ax.xaxis, busbw_ax.yaxis):
            axis.set_minor_locator(NullLocator())
        self._frame = (self._frame_key(sweep), time_ax.get_ylim(), busbw_ax.get_ylim())
        self._update_artists(sweep)

    @styled
    def redraw(self, sweep):
        key, time_limits, busbw_limits = self._frame
        if self._frame_key(sweep) != key or not _fits(sweep, time_limits, busbw_limits):
            return None
        return self._update_artists(sweep)

    def _update_artists(self, sweep):
        time_lines, busbw_lines = self._curve_lines
        time_markers, busbw_markers = self._markers
        for label in self.LABELS:
            shown = label in sweep.curves
            for artist in (time_lines[label], busbw_lines[label], time_markers[label], busbw_markers[label]):
                artist.set_visible(shown)
            if not shown:
                continue
            curve, point = sweep.curves[label], sweep.points[label]
            time_lines[label].set_ydata(np.asarray(curve.time_s) / u.us)
            busbw_lines[label].set_ydata(np.asarray(curve.bus_bandwidth_bytes_per_s) / u.GB_per_s)
            time_markers[label].set_data([point.size_bytes], [point.time_s / u.us])
            busbw_markers[label].set_data([point.size_bytes], [point.bus_bandwidth_bytes_per_s / u.GB_per_s])
        link = sweep.link_bandwidth_bytes_per_s / u.GB_per_s
        line_rate, usable = self._link_lines
        line_rate.set_ydata([link, link])
        usable.set_ydata([sweep.efficiency * link, sweep.efficiency * link])
        for line in self._size_lines:
            line.set_xdata([sweep.size_bytes, sweep.size_bytes])
        crossover = sweep.crossover_bytes
        visible = math.isfinite(crossover) and CURVE_SIZES_BYTES[0] < crossover < CURVE_SIZES_BYTES[-1]
        self._crossover_line.set_visible(visible)
        if visible:
            self._crossover_line.set_xdata([crossover, crossover])
        time_ax, busbw_ax = self.axes
        # The time title names the ranks, so it moves with a slider; returning it
        # every time keeps it out of the background from the first render.
        titles = []
        for ax, text in ((time_ax, f"time: {sweep.title}"),
                         (busbw_ax, "bus bandwidth (nccl-tests definition)")):
            if ax.get_title(loc="left") != text:
                ax.set_title(text, loc="left", fontsize=10)
            titles.append(ax._left_title)
        return [*time_lines.values(), *busbw_lines.values(), *time_markers.values(), *busbw_markers.values(),
                *self._link_lines, *self._size_lines, self._crossover_line, titles[0]]

    def _describe_points(self, sweep):
        ranked = sorted(sweep.points.items(), key=lambda item: item[1].time_s)
        best_label, best = ranked[0]
        bound = "latency-bound" if best.latency_bound else "bandwidth-bound"
        rows = "; ".join(f"{label} {format_time(point.time_s)}, busbw "
                         f"{point.bus_bandwidth_bytes_per_s / u.GB_per_s:,.0f} GB/s"
                         for label, point in sweep.points.items())
        link = sweep.link_bandwidth_bytes_per_s / u.GB_per_s
        return (f"At <b>{format_bytes(sweep.size_bytes, binary=True)}</b> the fastest is "
                f"<b>{best_label}</b> ({format_time(best.time_s)}, {bound}). {rows}. Link line rate "
                f"{link:,.0f} GB/s per direction, {sweep.efficiency:.0%} usable.")


@functools.lru_cache(maxsize=None)
def _collective_extents():
    """Axis extents that hold every link, collective, algorithm, group size and message size of the panel."""
    extremes, top = [], 0.0
    for link in panel_links():
        parameters = link_parameters(catalog.link(link))
        top = max(top, parameters["bandwidth_bytes_per_s"])
        for collective in PANEL_COLLECTIVES:
            for algorithm in compared_algorithms(collective, catalog.link(link).family):
                extremes += [collective_performance(collective, size, ranks, algorithm=algorithm, **parameters)
                             for size, ranks in ((CURVE_SIZES_BYTES[0], RANK_OPTIONS[0]),
                                                 (CURVE_SIZES_BYTES[-1], RANK_OPTIONS[-1]))]
    return _axis_extents(extremes, top)


class CollectivePanel(_SweepPanel):
    """Link, collective, ranks and message size → time and busbw of each algorithm.

    Parameters
    ----------
    link : str
        Catalog name of the link each rank sends on (an NVLink generation: all of
        one GPU's links; a network port: one port).
    collective : str
        One of ``PANEL_COLLECTIVES``.
    n_ranks : int
        One of ``RANK_OPTIONS``.
    size_bytes : float
        The marked message size, one of the values of ``SIZE_OPTIONS`` [B].
    """

    LABELS = tuple(_LABELS.values())
    #: The rendered book's grid: three links, three group sizes, five message sizes.
    static_grid = {"link": ("NVLink 4", "InfiniBand NDR", "Ethernet 400G"), "n_ranks": (8, 64, 1024),
                   "size_bytes": tuple(2.0**k for k in (10, 16, 20, 24, 30))}

    def __init__(self, *, link="InfiniBand NDR", collective="all_reduce", n_ranks=64, size_bytes=2.0**24):
        self.controls = {
            "link": widgets.Dropdown(options=panel_links(), value=link,
                                     description="link (per rank)", **_CONTROL),
            "collective": widgets.Dropdown(options=[(c.replace("_", "-"), c) for c in PANEL_COLLECTIVES],
                                           value=collective, description="collective", **_CONTROL),
            "n_ranks": widgets.SelectionSlider(options=RANK_OPTIONS, value=n_ranks,
                                               description="ranks n", **_SLIDER),
            "size_bytes": widgets.SelectionSlider(options=SIZE_OPTIONS, value=size_bytes,
                                                  description="message size S", **_SLIDER),
        }
        super().__init__()

    def compute(self, *, link, collective, n_ranks, size_bytes):
        entry = catalog.link(link)
        parameters = link_parameters(entry)
        names = compared_algorithms(collective, entry.family)
        curves = {_LABELS[a]: collective_performance(collective, CURVE_SIZES_BYTES, n_ranks, algorithm=a,
                                                     **parameters) for a in names}
        points = {_LABELS[a]: collective_performance(collective, size_bytes, n_ranks, algorithm=a, **parameters)
                  for a in names}
        crossover = (crossover_size(collective, n_ranks, **parameters, first="ring", second="tree")
                     if {"ring", "tree"} <= set(names) else math.inf)
        time_limits, busbw_top = _collective_extents()
        return Sweep(collective=collective, curves=curves, points=points, size_bytes=size_bytes,
                     link_bandwidth_bytes_per_s=parameters["bandwidth_bytes_per_s"],
                     efficiency=parameters["efficiency"], crossover_bytes=crossover,
                     title=f"{collective.replace('_', '-')} on {n_ranks} ranks",
                     time_limits_us=time_limits, busbw_top_gb_per_s=busbw_top)

    def describe(self, sweep):
        text = self._describe_points(sweep)
        if math.isfinite(sweep.crossover_bytes):
            text += (f" The tree beats the ring below <b>{format_bytes(sweep.crossover_bytes)}</b> "
                     "(dotted line).")
        return text




#: Machines the NCCL panel offers: label -> the arguments of
#: :func:`interconnect_lab.collectives.collective_system` (catalog names; one port per GPU).
MACHINES = {
    "8 H100 per node, InfiniBand NDR": {"gpu": "H100 SXM", "network": "InfiniBand NDR"},
    "8 H100 per node, InfiniBand NDR with SHARP": {"gpu": "H100 SXM", "network": "InfiniBand NDR", "sharp": True},
    "1 H100 per node, InfiniBand NDR": {"gpu": "H100 SXM", "gpus_per_node": 1, "network": "InfiniBand NDR"},
    "8 A100 per node, InfiniBand HDR": {"gpu": "A100 SXM", "network": "InfiniBand HDR"},
    "8 B200 per node, 400G Ethernet": {"gpu": "B200", "network": "Ethernet 400G"},
    "72 GB200 per rack (NVL72), InfiniBand NDR": {"gpu": "GB200", "gpus_per_node": 72, "network": "InfiniBand NDR"},
}

#: Collectives the NCCL panel offers (reduce-scatter runs as all-gather does).
CHOICE_COLLECTIVES = ("all_reduce", "all_gather", "all_to_all")

#: Node counts of the NCCL panel's map: 1 to 1,024 NVLink domains.
CHOICE_NODES = tuple(2**k for k in range(11))

#: Message sizes of the NCCL panel's map: 8 B to 16 GiB, three per power of two [B] (the crossovers are
#: placed exactly whatever the step; the step only smooths the curve).
CHOICE_SIZES_BYTES = 2.0 ** np.arange(3.0, 34.0 + 1e-9, 1.0 / 3.0)


@functools.lru_cache(maxsize=None)
def _choice_map(machine, collective):
    """The map of one machine and collective (every node count of the panel), computed once."""
    return nccl_choice_map(collective, collective_system(**MACHINES[machine]), nodes=CHOICE_NODES,
                           size_bytes=CHOICE_SIZES_BYTES)


@dataclass(frozen=True)
class ChoiceView:
    """What :class:`NcclChoicePanel` shows: a choice map and the node count picked.

    Attributes
    ----------
    machine : str
        Key of :data:`MACHINES`.
    choice_map : interconnect_lab.collectives.ChoiceMap
        What NCCL runs over sizes and :data:`CHOICE_NODES`.
    nodes : int
        The node count picked.
    """

    machine: str
    choice_map: object
    nodes: int


class NcclChoicePanel(Panel):
    """Machine, collective and node count → what NCCL runs at every message size, and its busbw.

    Left, the map of :func:`interconnect_lab.collectives.nccl_choice_map` over
    :data:`CHOICE_NODES`: the algorithm (colour) and protocol (hatch) NCCL's tuner
    picks at each size and node count. Right, the busbw at the picked node count,
    with the crossovers marked and the rates it is measured against. Moving the node
    count only moves the outline and the right-hand curve (the fast path).

    Parameters
    ----------
    machine : str
        One of :data:`MACHINES`.
    collective : str
        One of :data:`CHOICE_COLLECTIVES`.
    nodes : int
        One of :data:`CHOICE_NODES`.
    """

    def __init__(self, *, machine="8 H100 per node, InfiniBand NDR", collective="all_reduce", nodes=16):
        self.controls = {
            "machine": widgets.Dropdown(options=list(MACHINES), value=machine, description="machine", **_CONTROL),
            "collective": widgets.Dropdown(options=[(c.replace("_", "-"), c) for c in CHOICE_COLLECTIVES],
                                           value=collective, description="collective", **_CONTROL),
            "nodes": widgets.SelectionSlider(options=CHOICE_NODES, value=nodes, description="nodes", **_SLIDER),
        }
        super().__init__(figure_size_in=(9.0, 4.8), subplots={"ncols": 2})

    def compute(self, *, machine, collective, nodes):
        return ChoiceView(machine=machine, choice_map=_choice_map(machine, collective), nodes=nodes)

    def describe(self, view):
        choice_map, nodes = view.choice_map, view.nodes
        system = choice_map.system.with_nodes(nodes)
        name = choice_map.collective.replace("_", "-")
        segments = choice_map.segments(nodes)
        if not segments:
            return f"On <b>1 GPU</b> there is nothing to exchange: NCCL copies the buffer in place."
        runs = [f"<b>{choice_label(a, p)}</b>" + (f" up to {format_bytes(high)}" if k < len(segments) - 1 else
                                                 f" from {format_bytes(low)}" if k else " at every size")
                for k, (a, p, low, high) in enumerate(segments)]
        index = choice_map.row(nodes)
        top = float(choice_map.bus_bandwidth_bytes_per_s[index, -1]) / u.GB_per_s
        limits = choice_map.bus_bandwidth_limits(nodes)
        bounds = []
        if "nvlink" in limits:
            bounds.append(f"one GPU's NVLink {limits['nvlink'] / u.GB_per_s:,.0f} GB/s")
        if "ports" in limits:
            what = "the node's ports" if choice_map.collective not in ("all_to_all", "send_recv") \
                else "one GPU's port × N/(N−1)"
            bounds.append(f"{what} {limits['ports'] / u.GB_per_s:,.0f} GB/s")
        return (f"{name} on <b>{nodes:,} × {system.gpus_per_node} GPUs</b> ({system.ranks:,} ranks): NCCL runs "
                + ", then ".join(runs) + f". busbw at {format_bytes(choice_map.size_bytes[-1], binary=True)}: "
                f"<b>{top:,.0f} GB/s</b> ({'; '.join(bounds)}).")

    def _frame_key(self, view):
        # The busbw legend names what is drawn at this node count: when it changes, draw again.
        legend = tuple(handle.get_label() for handle in busbw_legend_handles(view.choice_map, view.nodes))
        return (view.machine, view.choice_map.collective, legend)

    @styled
    def draw(self, view):
        nccl_choice_plot(view.choice_map, view.nodes, axes=self.axes)
        self._frame = self._frame_key(view)

    def redraw(self, view):
        if self._frame_key(view) != self._frame:
            return None
        return update_nccl_choice_plot(self.axes, view.choice_map, view.nodes)
