"""Panels for chapters 13 and 14: topologies side by side, and scale-up fabrics on one all-reduce."""

from __future__ import annotations

import ipywidgets as widgets
import numpy as np

from .. import units as u
from ..plotting.style import PALETTE, styled
from ..plotting.topologies import FAMILY_COLORS, STATUS_HATCHES
from ..roadmap import scale_up_comparison
from ..topology import topology_comparison
from .panel import Panel

__all__ = ["TopologyPanel", "ScaleUpPanel", "HOST_COUNTS", "MESSAGE_SIZES", "GROUP_SIZES"]

_CONTROL = {"style": {"description_width": "13em"}, "layout": widgets.Layout(width="40em")}

#: Host counts the topology panel offers [-].
HOST_COUNTS = (1024, 2048, 4096, 8192, 16_384, 32_768, 65_536)

#: All-reduce sizes the scale-up panel offers [B].
MESSAGE_SIZES = (1 * u.MB, 16 * u.MB, 256 * u.MB, 1 * u.GB)

#: Group sizes the scale-up panel offers [-].
GROUP_SIZES = (4, 8, 16, 72)


class TopologyPanel(Panel):
    """Hosts, switch radix → diameter, bisection and cost per host port of every design.

    The table comes from :func:`interconnect_lab.topology.topology_comparison`
    (costs from the default price book, estimates).

    Parameters
    ----------
    hosts : int
        Initial host count, one of :data:`HOST_COUNTS`.
    radix : int
        Initial switch radix (64 or 128) [ports].
    """

    def __init__(self, *, hosts=4096, radix=64):
        self.controls = {
            "hosts": widgets.SelectionSlider(options=[(f"{n:,}", n) for n in HOST_COUNTS], value=hosts,
                                             description="hosts (one port each)", continuous_update=True,
                                             **_CONTROL),
            # Every design must hold the largest host count: 64 ports reach 65,536 hosts in three tiers.
            "radix": widgets.Dropdown(options=[("64 ports", 64), ("128 ports", 128)],
                                      value=radix, description="switch radix", **_CONTROL),
        }
        super().__init__(figure_size_in=(9.0, 3.4), subplots={"ncols": 3, "sharey": True})

    def compute(self, *, hosts, radix):
        """The comparison table for ``hosts`` and ``radix``."""
        return topology_comparison(hosts, radix=radix)

    def describe(self, result):
        cheapest = int(np.argmin(result.cost_per_host_usd))
        fewest = min(result.summaries, key=lambda s: s.diameter_hops)
        hosts = sorted(s.hosts for s in result.summaries)[len(result.summaries) // 2]
        return (f"About {hosts:,} hosts. <b>Cheapest per port:</b> {result.summaries[cheapest].family} "
                f"(USD {result.cost_per_host_usd[cheapest]:,.0f}); <b>fewest hops:</b> {fewest.family} "
                f"({fewest.diameter_hops}); full bisection: "
                + ", ".join(s.family for s in result.summaries if s.bisection_ratio >= 1 - 1e-9))

    @styled
    def draw(self, result):
        summaries = result.summaries
        y = np.arange(len(summaries))[::-1]
        colors = [FAMILY_COLORS.get(s.family, PALETTE["grey"]) for s in summaries]
        labels = ("diameter [hops]", "bisection / half the ports [-]", "cost per host port [kUSD]")
        for ax, values, label, limit in zip(self.axes, self._values(result), labels, self.LIMITS):
            ax.barh(y, values, color=colors, height=0.7)
            for yi, v in zip(y, values):
                ax.text(*self._label(v, yi, limit), va="center", fontsize=8)
            ax.set_xlim(*limit)
            ax.set_xlabel(label, fontsize=9)
            ax.grid(axis="y", visible=False)
        self.axes[0].set_yticks(y, [s.family for s in summaries], fontsize=9)
        self._families = [s.family for s in summaries]

    #: Fixed scales of the three panels: diameter [hops], bisection [-], cost [kUSD].
    LIMITS = ((0, 70), (0, 1.6), (0, 9))

    @staticmethod
    def _values(result):
        return ([s.diameter_hops for s in result.summaries], [s.bisection_ratio for s in result.summaries],
                [c / 1e3 for c in result.cost_per_host_usd])

    @staticmethod
    def _label(value, y, limit):
        return min(value, limit[1] * 0.8), y, f" {value:.3g}"

    @styled
    def redraw(self, result):
        # In place while the designs stay: bar widths and their value labels.
        if [s.family for s in result.summaries] != getattr(self, "_families", None):
            return None
        changed = []
        for ax, values, limit in zip(self.axes, self._values(result), self.LIMITS):
            bars, texts = ax.containers[0].patches, ax.texts
            for bar, text, v in zip(bars, texts, values):
                x, y, label = self._label(v, bar.get_y() + bar.get_height() / 2, limit)
                bar.set_width(v)
                text.set_position((x, y))
                text.set_text(label)
            changed += [*bars, *texts]
        return changed


class ScaleUpPanel(Panel):
    """Message size, group, ports per accelerator → every scale-up fabric's all-reduce time.

    Computed by :func:`interconnect_lab.roadmap.scale_up_comparison`; bars of
    fabrics not yet shipping are hatched.

    Parameters
    ----------
    message_bytes : float
        Initial all-reduce size, one of :data:`MESSAGE_SIZES` [B].
    group : int
        Initial group, one of :data:`GROUP_SIZES`.
    open_ports : int
        Initial ports per accelerator where the fabric leaves it open (4, 8 or 16).
    """

    def __init__(self, *, message_bytes=256 * u.MB, group=8, open_ports=8):
        self.controls = {
            "message_bytes": widgets.SelectionSlider(
                options=[(u.format_bytes(m), m) for m in MESSAGE_SIZES], value=message_bytes,
                description="all-reduce size", continuous_update=True, **_CONTROL),
            "group": widgets.Dropdown(options=[(str(g), g) for g in GROUP_SIZES], value=group,
                                      description="accelerators in the group", **_CONTROL),
            "open_ports": widgets.Dropdown(options=[("4", 4), ("8", 8), ("16", 16)], value=open_ports,
                                           description="ports (UALink, SUE)", **_CONTROL),
        }
        super().__init__(figure_size_in=(8.0, 3.2))

    def compute(self, *, message_bytes, group, open_ports):
        """Rows of :func:`~interconnect_lab.roadmap.scale_up_comparison`."""
        return scale_up_comparison(message_bytes, group, open_ports=open_ports)

    def describe(self, result):
        best = min(result, key=lambda r: r.all_reduce_s)
        return (f"<b>Fastest:</b> {best.fabric.name} ({best.fabric.status}), "
                f"{best.all_reduce_s / u.us:,.0f} µs over {best.group} accelerators")

    @styled
    def draw(self, result):
        ax = self.axes
        y = np.arange(len(result))[::-1]
        times = [r.all_reduce_s / u.us for r in result]
        for yi, v, r in zip(y, times, result):
            ax.barh(yi, v, height=0.7, color=PALETTE["blue"] if r.fabric.status == "shipping" else PALETTE["sky"],
                    hatch=STATUS_HATCHES[r.fabric.status], edgecolor=PALETTE["black"], lw=0.5)
            ax.text(v, yi, self._label(v, r), va="center", fontsize=8)
        ax.set_xscale("log")
        ax.set_xlim(1, 1e6)
        ax.set_yticks(y, [r.fabric.name for r in result], fontsize=8)
        ax.set_xlabel("all-reduce time [µs] (accelerators in brackets)")
        ax.grid(axis="y", visible=False)
        self._fabrics = [(r.fabric.name, r.fabric.status) for r in result]

    @staticmethod
    def _label(time_us, row):
        return f" {time_us:,.0f} ({row.group})"

    @styled
    def redraw(self, result):
        # In place while the fabrics (and so the hatches) stay: bar lengths and their labels.
        ax = self.axes
        if [(r.fabric.name, r.fabric.status) for r in result] != getattr(self, "_fabrics", None):
            return None
        bars = [container.patches[0] for container in ax.containers]
        changed = []
        for bar, text, r in zip(bars, ax.texts, result):
            v = r.all_reduce_s / u.us
            bar.set_width(v)
            text.set_x(v)
            text.set_text(self._label(v, r))
            changed += [bar, text]
        return changed
