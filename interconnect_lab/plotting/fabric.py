"""Figures for the fabric simulator (chapters 5, 6 and 9): routing, incast, stragglers, and
multipath transport (hash collisions and packet reordering).

Each function takes results of :mod:`interconnect_lab.fabric`, draws on an
optional ``ax`` and returns the axes. Colours follow the meaning of the thing
drawn: ECMP in vermillion (the problem), spraying in blue, adaptive routing in
green; the three flow controls likewise.
"""

from __future__ import annotations

import numpy as np
from matplotlib.lines import Line2D
from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter

from ..fabric.network import LINK_KINDS
from ..units import format_time
from .style import COLORS, PALETTE, legend_below, new_figure, styled, time_unit

__all__ = [
    "ROUTING_COLORS", "ROUTING_LINESTYLES", "FLOW_CONTROL_COLORS",
    "flow_completion_plot", "line_rate_plot", "link_utilization_plot",
    "incast_collapse_plot", "victim_slowdown_plot",
    "straggler_scaling_plot", "slow_rank_plot",
    "max_load_plot", "flow_splitting_plot", "spray_arrivals_plot",
]

#: Colour of each routing scheme across the book.
ROUTING_COLORS = {"ecmp": PALETTE["vermillion"], "spray": PALETTE["blue"], "adaptive": PALETTE["green"],
                  "explicit": PALETTE["grey"]}

#: Line style of each routing scheme where curves may coincide (spraying and adaptive
#: routing often finish flows at the same moment): dashed spraying is drawn over solid
#: adaptive routing, so both stay visible where they overlap.
ROUTING_LINESTYLES = {"ecmp": "-", "spray": (0, (4, 2.5)), "adaptive": "-", "explicit": (0, (1, 1.5))}

#: Colour of each flow control across the book.
FLOW_CONTROL_COLORS = {"lossless": PALETTE["purple"], "drop-tail": PALETTE["vermillion"],
                       "drop-tail/timeout only": PALETTE["vermillion"], "drop-tail/selective repeat": PALETTE["green"],
                       "drop-tail/go-back-n": PALETTE["orange"], "trimming": PALETTE["blue"]}


def _mapping(results, what):
    results = dict(results)
    if not results:
        raise ValueError(f"results must map at least one label to a {what}")
    return results


def _color(result_or_name, table, index):
    name = getattr(result_or_name, "routing", result_or_name)
    cycle = [PALETTE[c] for c in ("blue", "vermillion", "green", "orange", "sky", "purple", "black")]
    return table.get(name, cycle[index % len(cycle)])


@styled
def flow_completion_plot(results, *, ax=None, title=None):
    """Distribution of flow completion times, one curve per result (a CDF).

    The collective is done when its last flow is: the right end of each curve.
    A dot marks each curve's median (p50), a diamond its 99th percentile (p99);
    both are in the legend. Dashed curves are drawn over solid ones and markers
    shrink from curve to curve, so curves and markers that coincide all stay visible.

    Parameters
    ----------
    results : mapping of str to FlowResult
        Label → a result of :func:`interconnect_lab.fabric.simulation.simulate`.
    ax : matplotlib.axes.Axes, optional
        Axes to draw on; a new figure is made if omitted.
    title : str, optional
        Title.

    Returns
    -------
    matplotlib.axes.Axes
    """
    results = _mapping(results, "FlowResult")
    if ax is None:
        _, ax = new_figure(7.0, 3.6)
    longest = max(result.completion_time_s for result in results.values())
    unit, size = time_unit(longest)
    markersize = np.linspace(11.0, 6.5, len(results)) if len(results) > 1 else [7.0]
    for index, (label, result) in enumerate(results.items()):
        times = np.sort(result.completion_times_s[result.foreground]) / size
        share = np.arange(1, times.size + 1) / times.size
        color = _color(result.routes, ROUTING_COLORS, index)
        style = ROUTING_LINESTYLES.get(getattr(result.routes, "routing", None), "-")
        ax.step(np.concatenate(([0.0], times)), np.concatenate(([0.0], share)), where="post", color=color,
                linewidth=2, linestyle=style, zorder=2.2 if style != "-" else 2.0,
                label=f"{label}: done at {format_time(result.completion_time_s)}")
        p = result.percentiles((50, 99))
        for key, level, marker in (("p50", 0.5, "o"), ("p99", 0.99, "D")):
            ax.plot([p[key] / size], [level], linestyle="none", marker=marker, color=color,
                    markersize=markersize[index] * (0.9 if marker == "D" else 1.0), markeredgecolor="white",
                    markeredgewidth=0.6, zorder=3 + index)
    handles, _ = ax.get_legend_handles_labels()
    grey = {"linestyle": "none", "color": PALETTE["grey"], "markersize": 6}
    handles += [Line2D([], [], marker="o", label="median (p50)", **grey),
                Line2D([], [], marker="D", label="99th percentile (p99)", **{**grey, "markersize": 5})]
    ax.set_xlim(0, 1.05 * longest / size)
    ax.set_ylim(0, 1.02)
    ax.set_xlabel(f"flow completion time [{unit}]")
    ax.set_ylabel("share of flows finished [-]")
    ax.legend(handles=handles, loc="lower right", fontsize=9)
    if title:
        ax.set_title(title, loc="left")
    return ax


@styled
def line_rate_plot(results, *, ax=None, expectation=None, bins=40, title=None):
    """Histogram of each flow's max-min rate as a share of its line rate.

    Parameters
    ----------
    results : mapping of str to RateResult
        Label → a result of :func:`interconnect_lab.fabric.simulation.fair_rates`.
    ax : matplotlib.axes.Axes, optional
        Axes to draw on; a new figure is made if omitted.
    expectation : CollisionExpectation, optional
        Balls-into-bins prediction for ECMP
        (:func:`interconnect_lab.fabric.collisions.ecmp_collisions`): its mean rate and its
        guaranteed share are drawn as vertical lines.
    bins : int
        Histogram bins over [0, 1].
    title : str, optional
        Title.

    Returns
    -------
    matplotlib.axes.Axes
    """
    results = _mapping(results, "RateResult")
    if ax is None:
        _, ax = new_figure(7.0, 4.2)
    edges = np.linspace(0, 1.0, bins + 1)
    edges[-1] = 1.0 + 1e-9
    for index, (label, result) in enumerate(results.items()):
        fraction = result.line_rate_fraction
        color = _color(result.routes, ROUTING_COLORS, index)
        ax.hist(fraction, bins=edges, weights=np.full(fraction.size, 1 / fraction.size), color=color,
                alpha=0.55, label=f"{label}: mean {fraction.mean():.0%}, slowest {fraction.min():.0%}")
    if expectation is not None:
        ax.axvline(expectation.mean_rate, color=PALETTE["black"], linestyle="--", linewidth=1.5,
                   label=f"balls into bins: mean {expectation.mean_rate:.0%}")
        ax.axvline(expectation.expected_slowest_rate, color=PALETTE["black"], linestyle=":", linewidth=1.5,
                   label=f"balls into bins: slowest {expectation.expected_slowest_rate:.0%}")
    ax.set_xlim(0, 1.02)
    ax.set_xlabel("flow rate / line rate [-]")
    ax.set_ylabel("share of flows [-]")
    legend_below(ax, fontsize=9)  # the vertical lines cross any place inside the axes
    if title:
        ax.set_title(title, loc="left")
    return ax


@styled
def link_utilization_plot(result, *, ax=None, title=None):
    """Utilization of every link, sorted, one curve per kind of link.

    Flat curves mean evenly spread load (spraying); a long tail of idle links
    beside a few full ones is what hash collisions leave.

    Parameters
    ----------
    result : FlowResult or RateResult
        With ``link_utilization`` and ``routes``.
    ax : matplotlib.axes.Axes, optional
        Axes to draw on; a new figure is made if omitted.
    title : str, optional
        Title.

    Returns
    -------
    matplotlib.axes.Axes
    """
    if ax is None:
        _, ax = new_figure(7.0, 3.6)
    network = result.routes.network
    utilization = result.link_utilization
    colors = [PALETTE[c] for c in ("grey", "black", "blue", "sky", "green", "orange")]
    for index, kind in enumerate(LINK_KINDS):
        links = network.links_of_kind(kind)
        if links.size == 0:
            continue
        values = np.sort(utilization[links])[::-1]
        ax.plot(np.linspace(0, 1, values.size), values, color=colors[index], linewidth=2,
                label=f"{kind} ({links.size} links, mean {values.mean():.0%})")
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1.05)
    ax.set_xlabel("links, busiest first (share of links of the kind) [-]")
    ax.set_ylabel("utilization [-]")
    ax.legend(loc="upper right", fontsize=9)
    if title:
        ax.set_title(title, loc="left")
    return ax


def _senders_axis(ax, counts):
    ax.set_xscale("log", base=2)
    ax.xaxis.set_major_locator(LogLocator(base=2, numticks=20))
    ax.xaxis.set_major_formatter(FuncFormatter(lambda x, _: f"{x:g}"))
    ax.xaxis.set_minor_formatter(NullFormatter())
    ax.set_xlim(counts.min() / 1.2, counts.max() * 1.2)
    ax.set_xlabel("senders N [-]")


@styled
def incast_collapse_plot(curve, *, ax=None, title=None):
    """Goodput against the number of senders, one line per flow control.

    Parameters
    ----------
    curve : IncastCurve
        From :func:`interconnect_lab.fabric.incast.incast_collapse`.
    ax : matplotlib.axes.Axes, optional
        Axes to draw on; a new figure is made if omitted.
    title : str, optional
        Title.

    Returns
    -------
    matplotlib.axes.Axes
    """
    if ax is None:
        _, ax = new_figure(7.0, 3.6)
    for index, control in enumerate(curve.results):
        ax.plot(curve.n_senders, curve.goodput_fraction(control), marker="o", linewidth=2,
                color=_color(control, FLOW_CONTROL_COLORS, index), label=control)
    _senders_axis(ax, curve.n_senders)
    ax.set_ylim(0, 1.05)
    ax.set_ylabel("goodput / port rate [-]")
    ax.legend(loc="best", fontsize=9)
    if title:
        ax.set_title(title, loc="left")
    return ax


@styled
def victim_slowdown_plot(curve, *, ax=None, title=None):
    """How much longer a victim flow takes, against the number of incast senders.

    The victim shares sender 0's link but goes to another, idle port; under
    lossless flow control it waits behind paused incast packets.

    Parameters
    ----------
    curve : IncastCurve
        Computed with ``victim_bytes`` > 0.
    ax : matplotlib.axes.Axes, optional
        Axes to draw on; a new figure is made if omitted.
    title : str, optional
        Title.

    Returns
    -------
    matplotlib.axes.Axes
    """
    if ax is None:
        _, ax = new_figure(7.0, 3.6)
    for index, (control, results) in enumerate(curve.results.items()):
        slowdown = [r.victim_slowdown for r in results]
        if any(s is None for s in slowdown):
            raise ValueError("the curve has no victim flow: compute it with victim_bytes > 0")
        ax.plot(curve.n_senders, slowdown, marker="o", linewidth=2,
                color=_color(control, FLOW_CONTROL_COLORS, index), label=control)
    _senders_axis(ax, curve.n_senders)
    ax.set_yscale("log")
    ax.axhline(1.0, color=PALETTE["grey"], linewidth=1)
    ax.set_ylabel("victim's time / time alone [-]")
    ax.legend(loc="upper left", fontsize=9)
    if title:
        ax.set_title(title, loc="left")
    return ax


@styled
def straggler_scaling_plot(results, *, ax=None, show_p99=True, title=None):
    """Expected step time against the number of workers, one line per scenario.

    Parameters
    ----------
    results : mapping of str to StepTimes
        Label → a result of :func:`interconnect_lab.fabric.stragglers.step_times` for an
        array of worker counts.
    ax : matplotlib.axes.Axes, optional
        Axes to draw on; a new figure is made if omitted.
    show_p99 : bool
        Shade up to the 99th percentile of the step time.
    title : str, optional
        Title.

    Returns
    -------
    matplotlib.axes.Axes
    """
    results = _mapping(results, "StepTimes")
    if ax is None:
        _, ax = new_figure(7.0, 4.6)
    cycle = [PALETTE[c] for c in ("blue", "vermillion", "green", "orange", "purple", "sky")]
    compute = None
    for index, (label, result) in enumerate(results.items()):
        color = cycle[index % len(cycle)]
        ax.plot(result.n_workers, result.expected_step_s / result.compute_s, color=color, linewidth=2,
                label=f"{label}: {result.expected_overhead[-1]:+.1%} at {result.n_workers[-1]:,} workers")
        if show_p99:
            ax.fill_between(result.n_workers, result.expected_step_s / result.compute_s,
                            result.p99_step_s / result.compute_s, color=color, alpha=0.15, linewidth=0)
            # The band's upper edge, so that a band as narrow as the line beside it still shows.
            ax.plot(result.n_workers, result.p99_step_s / result.compute_s, color=color, linewidth=0.8,
                    alpha=0.8)
        compute = result.compute_s
    ax.axhline(1.0, color=COLORS["compute"], linestyle="--", linewidth=1,
               label=f"one worker's mean ({format_time(compute)})")
    if show_p99:
        ax.fill_between([], [], [], facecolor=PALETTE["grey"], alpha=0.3, edgecolor=PALETTE["grey"],
                        linewidth=0.8, label="shaded: mean to 99th percentile of the step")
    ax.set_xscale("log")
    ax.set_xlabel("workers N [-]")
    ax.set_ylabel("step time / one worker's mean [-]")
    legend_below(ax, fontsize=9)  # the curves and bands can reach any corner of the axes
    if title:
        ax.set_title(title, loc="left")
    return ax


@styled
def slow_rank_plot(detection, *, ax=None, title=None):
    """Each rank's median compute time; the flagged ranks stand out.

    Parameters
    ----------
    detection : SlowRanks
        From :func:`interconnect_lab.fabric.stragglers.detect_slow_ranks`.
    ax : matplotlib.axes.Axes, optional
        Axes to draw on; a new figure is made if omitted.
    title : str, optional
        Title.

    Returns
    -------
    matplotlib.axes.Axes
    """
    if ax is None:
        _, ax = new_figure(7.0, 3.2)
    median = detection.median_compute_s
    unit, size = time_unit(float(np.max(median)))
    ranks = np.arange(median.size)
    flagged = np.zeros(median.size, dtype=bool)
    flagged[detection.flagged] = True
    ax.plot(ranks[~flagged], median[~flagged] / size, linestyle="none", marker=".", markersize=3,
            color=COLORS["idle"], label="ranks")
    ax.plot(ranks[flagged], median[flagged] / size, linestyle="none", marker="o", markersize=7,
            color=COLORS["communication"],
            label="flagged: " + (", ".join(str(r) for r in detection.flagged[:6]) or "none")
            + (" ..." if detection.flagged.size > 6 else ""))
    centre = np.median(median)
    spread = 1.4826 * np.median(np.abs(median - centre))
    ax.axhline((centre + detection.threshold * spread) / size, color=PALETTE["black"], linestyle="--",
               linewidth=1, label=f"threshold: median + {detection.threshold:g} x 1.4826 MAD")
    ax.set_xlim(-0.5, median.size - 0.5)
    ax.set_xlabel("rank [-]")
    ax.set_ylabel(f"median compute time [{unit}]")
    ax.legend(loc="best", fontsize=9)
    if title:
        ax.set_title(title, loc="left")
    return ax


# Multipath transport: hash collisions and packet reordering -----------------------------------

_PATH_COLORS = [PALETTE[c] for c in ("blue", "vermillion", "green", "orange", "sky", "purple", "grey", "yellow")]


@styled
def max_load_plot(expectation, simulated_max_loads=None, *, ax=None, title=None):
    """The most flows on any one link under ECMP: balls-into-bins prediction against simulation.

    Under max-min sharing the slowest flow runs at exactly :math:`1/M_{max}` of
    the line rate, so this distribution is also the distribution of the
    slowest flow's rate.

    Parameters
    ----------
    expectation : CollisionExpectation
        From :func:`interconnect_lab.fabric.collisions.ecmp_collisions`.
    simulated_max_loads : array_like of int, optional
        :math:`M_{max}` measured in simulated permutations, one per seed.
    ax : matplotlib.axes.Axes, optional
        Axes to draw on; a new figure is made if omitted.
    title : str, optional
        Title.

    Returns
    -------
    matplotlib.axes.Axes
    """
    if ax is None:
        _, ax = new_figure(7.0, 3.6)
    loads = np.asarray(expectation.max_load)
    pmf = np.asarray(expectation.max_load_pmf)
    shown = pmf > 1e-3
    if simulated_max_loads is not None:
        simulated = np.asarray(simulated_max_loads, dtype=int)
        if simulated.size == 0:
            raise ValueError("simulated_max_loads is empty: give one busiest-link load per simulated seed")
        shown |= np.isin(loads, simulated)
    low, high = loads[shown].min(), loads[shown].max()
    window = (loads >= low) & (loads <= high)
    ax.bar(loads[window] - 0.2, pmf[window], width=0.4, color=PALETTE["vermillion"],
           label=f"balls into bins: E[M] = {expectation.expected_max_load:.2f}")
    if simulated_max_loads is not None:
        values, counts = np.unique(simulated, return_counts=True)
        ax.bar(values + 0.2, counts / simulated.size, width=0.4, color=PALETTE["grey"],
               label=f"simulated, {simulated.size} permutations: mean {simulated.mean():.2f}")
    ax.set_xticks(np.arange(low, high + 1))
    ax.set_xticklabels([f"{m}\n(1/{m})" for m in range(low, high + 1)])
    ax.set_xlabel("flows on the busiest link, M (slowest flow's share of line rate) [-]")
    ax.set_ylabel("probability [-]")
    ax.legend(loc="upper right", fontsize=9)
    if title:
        ax.set_title(title, loc="left")
    return ax


@styled
def flow_splitting_plot(parts, slowdowns, *, references=None, ax=None, title=None):
    """A collective's completion time under ECMP against the sub-flows each flow is split into.

    Parameters
    ----------
    parts : array_like of int
        Sub-flows per host pair [-], one per column of ``slowdowns``.
    slowdowns : array_like of float
        Completion time over the time at line rate [-], shape ``(seeds, len(parts))``:
        one row per simulated permutation (a line for the mean, a band from the
        lowest to the highest).
    references : mapping of str to float, optional
        Routing name (``"spray"``, ``"adaptive"``, ...) -> its slowdown with
        unsplit flows, drawn as horizontal lines.
    ax : matplotlib.axes.Axes, optional
        Axes to draw on; a new figure is made if omitted.
    title : str, optional
        Title.

    Returns
    -------
    matplotlib.axes.Axes
    """
    parts = np.asarray(parts, dtype=float)
    slowdowns = np.atleast_2d(np.asarray(slowdowns, dtype=float))
    if slowdowns.shape[1] != parts.size:
        raise ValueError(f"slowdowns has {slowdowns.shape[1]} columns but parts has {parts.size} entries: "
                         "give one column per sub-flow count")
    if ax is None:
        _, ax = new_figure(7.0, 3.6)
    color = ROUTING_COLORS["ecmp"]
    ax.fill_between(parts, slowdowns.min(axis=0), slowdowns.max(axis=0), color=color, alpha=0.2, linewidth=0,
                    label=f"ECMP, lowest to highest of {slowdowns.shape[0]} permutations")
    ax.plot(parts, slowdowns.mean(axis=0), marker="o", linewidth=2, color=color, label="ECMP, mean")
    for name, value in (references or {}).items():
        ax.axhline(value, color=ROUTING_COLORS.get(name, PALETTE["black"]), linestyle="--", linewidth=1.5,
                   label=f"{name}, unsplit flows: {value:.2g}")
    ax.set_xscale("log", base=2)
    ax.set_xticks(parts)
    ax.set_xticklabels([f"{p:g}" for p in parts])
    ax.minorticks_off()
    ax.set_ylim(0, 1.08 * slowdowns.max())
    ax.set_xlabel("sub-flows per host pair [-]")
    ax.set_ylabel("completion time / time at line rate [-]")
    ax.legend(loc="upper right", fontsize=9)
    if title:
        ax.set_title(title, loc="left")
    return ax


@styled
def spray_arrivals_plot(arrivals, *, ax=None, title=None, label_delays=True):
    """Sequence number against arrival time for a sprayed message, one colour per path delay.

    Paths with the same delay share a colour. The black step is the in-order
    frontier: when each packet could be handed on if the receiver had to
    deliver in order. The horizontal gap between a dot and the step is the
    time that packet waits in a reorder buffer.

    Parameters
    ----------
    arrivals : SprayArrivals
        From :func:`interconnect_lab.fabric.reordering.spray_arrivals`.
    ax : matplotlib.axes.Axes, optional
        Axes to draw on; a new figure is made if omitted.
    title : str, optional
        Title.
    label_delays : bool
        Whether the legend gives each group's delay (a panel that moves the
        delays keeps its legend fixed with ``False``).

    Returns
    -------
    matplotlib.axes.Axes
        ``ax.get_lines()`` holds one line per distinct path delay, fastest
        first, then the in-order frontier.
    """
    if ax is None:
        _, ax = new_figure(7.0, 3.6)
    unit, size = time_unit(arrivals.completion_time_s)
    sequence = np.arange(arrivals.packets)
    delays = arrivals.path_delays_s
    delay_unit, delay_size = time_unit(max(float(delays.max()), 1e-12))
    for group, delay in enumerate(np.unique(delays)):
        paths = np.flatnonzero(delays == delay)
        on_group = np.isin(arrivals.paths, paths)
        name = _path_list(paths)
        label = f"{name}: delay {delay / delay_size:.3g} {delay_unit}" if label_delays else name
        ax.plot(arrivals.arrival_times_s[on_group] / size, sequence[on_group], linestyle="none", marker="o",
                markersize=4, color=_PATH_COLORS[group % len(_PATH_COLORS)], label=label)
    ax.step(arrivals.in_order_times_s / size, sequence, where="post", color=PALETTE["black"], linewidth=1.2,
            label="in-order frontier")
    ax.set_xlabel(f"arrival time at the receiver [{unit}]")
    ax.set_ylabel("packet sequence number [-]")
    ax.set_xlim(0, 1.02 * arrivals.completion_time_s / size)
    ax.set_ylim(-0.5, arrivals.packets - 0.5)
    ax.legend(loc="upper left", fontsize=9)
    if title:
        ax.set_title(title, loc="left")
    return ax


def _path_list(paths):
    """'path 3', 'paths 0-2' or 'paths 0, 2, 5'."""
    if paths.size == 1:
        return f"path {paths[0]}"
    if np.all(np.diff(paths) == 1):
        return f"paths {paths[0]}–{paths[-1]}"
    return "paths " + ", ".join(str(p) for p in paths)
