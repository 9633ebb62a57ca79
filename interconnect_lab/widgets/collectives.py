"""Panels for chapter 7: how a collective's time and bus bandwidth depend on size, ranks,
algorithm and link.

Both panels draw the same figure: time (log-log) and bus bandwidth (log x)
against message size, one line per algorithm, with a marker at the message
size the reader picks. What they show is computed by
:func:`interconnect_lab.collectives.collective_performance`; the panels only
choose which algorithms to compare and read the link parameters from the
catalog through :func:`interconnect_lab.collectives.link_parameters`.
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
    algorithms_for, collective_performance, crossover_size, link_parameters,
)
from ..plotting.collectives import bus_bandwidth_plot, collective_time_plot
from ..plotting.style import PALETTE, STYLE, styled
from ..units import format_bytes, format_time
from .panel import Panel

__all__ = ["CollectivePanel", "HierarchicalAllReducePanel"]

#: Message sizes of the curves: 8 B to 8 GiB, as ``all_reduce_perf -b 8 -e 8G`` sweeps them [B].
CURVE_SIZES_BYTES = np.logspace(np.log10(8.0), np.log10(8 * u.GiB), 161)

#: Sizes the reader can mark: powers of two from 1 KiB to 8 GiB [B].
SIZE_OPTIONS = tuple((format_bytes(2.0**k, binary=True), 2.0**k) for k in range(10, 34))

RANK_OPTIONS = (2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 256, 512, 1024)
NODE_OPTIONS = (2, 4, 8, 16, 32, 64, 128, 256, 512)
GPUS_PER_NODE_OPTIONS = (2, 4, 8, 16, 36, 72)

#: Collectives the panel offers (send/recv has no algorithms to compare).
PANEL_COLLECTIVES = ("all_reduce", "all_gather", "reduce_scatter", "broadcast", "reduce", "all_to_all")

_NETWORK_FAMILIES = ("InfiniBand", "Ethernet")
_LABELS = {
    "ring": "ring", "tree": "double binary tree", "halving_doubling": "halving-doubling",
    "direct": "direct", "nvls": "NVLink SHARP (NVLS)", "sharp": "InfiniBand SHARP",
}

_SHORT = {"ring": "ring", "tree": "tree", "sharp": "SHARP"}

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


def _hierarchical_cases(scale_up, network, gpus_per_node):
    """Label -> (algorithm, link parameters, options) of the all-reduces the hierarchical panel compares."""
    inside = link_parameters(catalog.link(scale_up))
    port = catalog.link(network)
    across = link_parameters(port)
    two_level = {"ranks_per_node": gpus_per_node,
                 "network_bandwidth_bytes_per_s": across["bandwidth_bytes_per_s"],
                 "network_latency_s": across["latency_s"], "network_efficiency": across["efficiency"]}
    cases = {"flat ring (network only)": ("ring", across, {})}
    for outer in ("ring", "tree", "sharp"):
        if outer == "sharp" and port.family != "InfiniBand":
            continue
        cases[f"hierarchical, {_SHORT[outer]} across nodes"] = (
            "hierarchical", inside, {**two_level, "network_algorithm": outer})
    return cases


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


@functools.lru_cache(maxsize=None)
def _hierarchical_extents():
    """Axis extents that hold every position of every control of the hierarchical panel."""
    extremes, top = [], 0.0
    for scale_up in panel_links(("NVLink",)):
        for network in panel_links(_NETWORK_FAMILIES):
            top = max(top, link_parameters(catalog.link(network))["bandwidth_bytes_per_s"])
            for per_node in (GPUS_PER_NODE_OPTIONS[0], GPUS_PER_NODE_OPTIONS[-1]):
                for algorithm, parameters, options in _hierarchical_cases(scale_up, network, per_node).values():
                    for size, nodes in ((CURVE_SIZES_BYTES[0], NODE_OPTIONS[0]),
                                        (CURVE_SIZES_BYTES[-1], NODE_OPTIONS[0]),
                                        (CURVE_SIZES_BYTES[-1], NODE_OPTIONS[-1])):
                        extremes.append(collective_performance("all_reduce", size, nodes * per_node,
                                                               algorithm=algorithm, **parameters, **options))
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


class HierarchicalAllReducePanel(_SweepPanel):
    """Nodes, GPUs per node, links and message size → flat against hierarchical all-reduce.

    Every GPU has its own network port (a rail). The flat ring treats all
    ``nodes × gpus_per_node`` GPUs as one ring whose every step crosses the
    network; the hierarchical all-reduce reduce-scatters inside each node over
    NVLink, all-reduces one shard per GPU across the nodes, and all-gathers
    inside each node again.

    Parameters
    ----------
    nodes : int
        One of ``NODE_OPTIONS``.
    gpus_per_node : int
        One of ``GPUS_PER_NODE_OPTIONS``.
    scale_up : str
        Catalog name of the NVLink generation inside a node.
    network : str
        Catalog name of each GPU's network port (InfiniBand or Ethernet).
    size_bytes : float
        The marked message size, one of the values of ``SIZE_OPTIONS`` [B].
    """

    LABELS = ("flat ring (network only)", "hierarchical, ring across nodes", "hierarchical, tree across nodes",
              "hierarchical, SHARP across nodes")
    #: The rendered book's grid: a few of each.
    static_grid = {"nodes": (2, 16, 512), "gpus_per_node": (8, 72), "scale_up": ("NVLink 4", "NVLink 5"),
                   "network": ("InfiniBand NDR", "Ethernet 400G"), "size_bytes": tuple(2.0**k for k in (20, 24, 28, 33))}

    def __init__(self, *, nodes=16, gpus_per_node=8, scale_up="NVLink 4", network="InfiniBand NDR",
                 size_bytes=2.0**28):
        self.controls = {
            "nodes": widgets.SelectionSlider(options=NODE_OPTIONS, value=nodes, description="nodes",
                                             **_SLIDER),
            "gpus_per_node": widgets.SelectionSlider(options=GPUS_PER_NODE_OPTIONS, value=gpus_per_node,
                                                     description="GPUs per node", **_SLIDER),
            "scale_up": widgets.Dropdown(options=panel_links(("NVLink",)), value=scale_up,
                                         description="inside a node", **_CONTROL),
            "network": widgets.Dropdown(options=panel_links(_NETWORK_FAMILIES), value=network,
                                        description="network port per GPU", **_CONTROL),
            "size_bytes": widgets.SelectionSlider(options=SIZE_OPTIONS, value=size_bytes,
                                                  description="message size S", **_SLIDER),
        }
        super().__init__()

    def compute(self, *, nodes, gpus_per_node, scale_up, network, size_bytes):
        across = link_parameters(catalog.link(network))
        n_ranks = nodes * gpus_per_node
        cases = _hierarchical_cases(scale_up, network, gpus_per_node)
        curves, points = {}, {}
        for label, (algorithm, parameters, options) in cases.items():
            curves[label] = collective_performance("all_reduce", CURVE_SIZES_BYTES, n_ranks, algorithm=algorithm,
                                                   **parameters, **options)
            points[label] = collective_performance("all_reduce", size_bytes, n_ranks, algorithm=algorithm,
                                                   **parameters, **options)
        time_limits, busbw_top = _hierarchical_extents()
        return Sweep(collective="all_reduce", curves=curves, points=points, size_bytes=size_bytes,
                     link_bandwidth_bytes_per_s=across["bandwidth_bytes_per_s"], efficiency=across["efficiency"],
                     crossover_bytes=math.inf,
                     title=f"all-reduce on {nodes} × {gpus_per_node} GPUs",
                     time_limits_us=time_limits, busbw_top_gb_per_s=busbw_top)

    def describe(self, sweep):
        flat = sweep.points["flat ring (network only)"]
        two_level = sweep.points["hierarchical, ring across nodes"]
        return (self._describe_points(sweep) + f" Hierarchical (ring) is "
                f"<b>{flat.time_s / two_level.time_s:.1f}×</b> faster than the flat ring here.")
