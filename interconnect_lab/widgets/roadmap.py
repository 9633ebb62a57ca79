"""Panel for :mod:`interconnect_lab.roadmap` (chapter 14): scale-up fabrics on one all-reduce."""

from __future__ import annotations

import ipywidgets as widgets
import numpy as np

from .. import units as u
from ..plotting.roadmap import STATUS_HATCHES
from ..plotting.style import PALETTE, styled
from ..roadmap import scale_up_comparison
from .panel import Panel

__all__ = ["ScaleUpPanel", "MESSAGE_SIZES", "GROUP_SIZES"]

_CONTROL = {"style": {"description_width": "13em"}, "layout": widgets.Layout(width="40em")}

#: All-reduce sizes the scale-up panel offers [B].
MESSAGE_SIZES = (1 * u.MB, 16 * u.MB, 256 * u.MB, 1 * u.GB)

#: Group sizes the scale-up panel offers [-].
GROUP_SIZES = (4, 8, 16, 72)


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
