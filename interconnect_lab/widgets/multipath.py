"""Panels for multipath transport (chapter 6): what packet spraying does to the order of arrival.

The model (:func:`interconnect_lab.fabric.reordering.spray_arrivals`) answers
in well under a millisecond. Moving the queue or the spray order updates the
figure's lines in place; changing the number of paths or packets redraws it,
so the sliders update when released. The path delays are illustrative.
"""

from __future__ import annotations

import ipywidgets as widgets
import numpy as np

from .. import catalog
from .. import units as u
from ..fabric.reordering import SPRAY_ORDERS, spray_arrivals
from ..plotting.multipath import _time_unit, spray_arrivals_plot
from ..plotting.style import styled
from .panel import Panel

__all__ = ["SprayPanel"]

_CONTROL = {"style": {"description_width": "16em"}, "layout": widgets.Layout(width="40em")}
_SLIDER = {"continuous_update": False, **_CONTROL}


class SprayPanel(Panel):
    """Paths, one path's queue, message size, spray order → arrival order and what a receiver makes of it.

    One message is sprayed over ``paths`` paths; all have the same base delay
    except the last, which also holds a queue.

    Parameters
    ----------
    paths : int
        Initial number of paths [-].
    queue_us : float
        Initial extra delay (queue) on the last path [µs].
    packets : int
        Initial packets in the message [-].
    order : str
        Initial name in :data:`~interconnect_lab.fabric.reordering.SPRAY_ORDERS`.
    link : str
        Catalog link whose per-direction rate the sender runs at.
    base_delay_s : float
        One-way delay of every path without queue [s] (illustrative).
    packet_bytes : float
        Packet size [B].
    """

    #: The rendered book's grid (each figure holds every packet's arrival).
    static_grid = {"paths": (1, 2, 4, 8, 16), "queue_us": (0.0, 1.5, 3.0, 5.0, 10.0)}

    def __init__(self, *, paths=4, queue_us=1.5, packets=64, order="round-robin", link="Ethernet 800G",
                 base_delay_s=2 * u.us, packet_bytes=4 * u.KiB):
        self.rate = catalog.link(link).per_direction_bytes_per_s
        self.link = link
        self.base_delay_s = base_delay_s
        self.packet_bytes = packet_bytes
        self.controls = {
            "paths": widgets.IntSlider(value=paths, min=1, max=16, description="paths", **_SLIDER),
            "queue_us": widgets.FloatSlider(value=queue_us, min=0.0, max=10.0, step=0.5,
                                            description="queue on the last path [µs]", **_SLIDER),
            "packets": widgets.SelectionSlider(options=[16, 32, 64, 128, 256], value=packets,
                                               description="packets in the message", **_SLIDER),
            "order": widgets.Dropdown(options=list(SPRAY_ORDERS), value=order, description="spray order",
                                      **_CONTROL),
        }
        super().__init__(figure_size_in=(7.0, 3.6))

    def compute(self, *, paths, queue_us, packets, order):
        delays = [self.base_delay_s] * (paths - 1) + [self.base_delay_s + queue_us * u.us]
        return spray_arrivals(delays, packets, self.packet_bytes, self.rate, order=order,
                              seed=0 if order == "random" else None)

    def describe(self, arrivals):
        delays = arrivals.path_delays_s
        queue_s = float(delays.max() - delays.min())
        setting = (f"{arrivals.packets} packets sprayed ({self.controls['order'].value}) over "
                   f"{delays.size} path{'s' if delays.size > 1 else ''}"
                   + (f", one with {u.format_time(queue_s)} of queue: " if queue_s > 0 else ", none queued: "))
        return (setting + f"{arrivals.out_of_order_fraction:.0%} of the packets are overtaken; in-order delivery needs a "
                f"reorder buffer of <b>{u.format_bytes(arrivals.reorder_buffer_bytes)}</b>; a go-back-N receiver "
                f"keeps <b>{arrivals.go_back_n_accepted} of {arrivals.packets}</b> packets on its first pass; "
                f"with direct placement the message is complete at {u.format_time(arrivals.completion_time_s)}")

    @styled
    def draw(self, arrivals):
        spray_arrivals_plot(arrivals, ax=self.axes, label_delays=False,
                            title=f"{arrivals.packets} packets of {u.format_bytes(self.packet_bytes, binary=True)} "
                                  f"at {u.format_rate(self.rate, bits=True)}")
        self.axes.set_xlim(0, self._shape(arrivals)[3])
        self._drawn_shape = self._shape(arrivals)

    def _shape(self, arrivals):
        """What fixes the figure's legend and scales: packets, path groups, time unit, time axis."""
        delays = arrivals.path_delays_s
        groups = tuple(tuple(np.flatnonzero(delays == d)) for d in np.unique(delays))
        unit = _time_unit(arrivals.completion_time_s)
        # The time axis spans the largest queue the slider offers, so moving the queue keeps the scale.
        longest_s = (self.base_delay_s + self.controls["queue_us"].max * u.us
                     + (arrivals.packets + 1) * self.packet_bytes / self.rate)
        right = 2 * float(np.ceil(1.02 * longest_s / unit[1] / 2))
        return arrivals.packets, groups, unit, right

    def redraw(self, arrivals):
        packets, groups, (_, size), _ = shape = self._shape(arrivals)
        if shape != self._drawn_shape:
            return None
        lines = self.axes.get_lines()
        sequence = np.arange(packets)
        for line, paths in zip(lines, groups):
            on_group = np.isin(arrivals.paths, paths)
            line.set_data(arrivals.arrival_times_s[on_group] / size, sequence[on_group])
        lines[len(groups)].set_data(arrivals.in_order_times_s / size, sequence)
        return list(lines[:len(groups) + 1])
