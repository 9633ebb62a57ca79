"""Figures for multipath transport (chapter 6): hash collisions and packet reordering.

Each function takes a result of :mod:`interconnect_lab.fabric`, draws on an
optional ``ax`` and returns the axes.
"""

from __future__ import annotations

import numpy as np

from .. import units as u
from .fabric import ROUTING_COLORS
from .style import PALETTE, new_figure, styled

__all__ = ["max_load_plot", "flow_splitting_plot", "spray_arrivals_plot"]

_PATH_COLORS = [PALETTE[c] for c in ("blue", "vermillion", "green", "orange", "sky", "purple", "grey", "yellow")]


def _time_unit(seconds):
    for name, size in (("s", 1.0), ("ms", u.ms), ("µs", u.us), ("ns", u.ns)):
        if seconds >= size:
            return name, size
    return "ns", u.ns


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
    unit, size = _time_unit(arrivals.completion_time_s)
    sequence = np.arange(arrivals.packets)
    delays = arrivals.path_delays_s
    delay_unit, delay_size = _time_unit(max(float(delays.max()), 1e-12))
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
