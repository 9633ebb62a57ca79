"""Panels for the fabric simulator (chapters 5, 6 and 9): routing, incast, stragglers.

These panels run a simulation on every change, so their sliders update when
released (``continuous_update=False``); each answers well within a second on
the instance sizes offered. The numbers a panel starts from that are not in
the catalog (buffer, timeout, jitter) are illustrative and labelled so.

The spray panel (chapter 6) asks the reordering model
(:func:`interconnect_lab.fabric.reordering.spray_arrivals`), which answers in well
under a millisecond. Moving the queue or the spray order updates the figure's lines
in place; changing the number of paths or packets redraws it, so the sliders update
when released. The path delays are illustrative.
"""

from __future__ import annotations

import ipywidgets as widgets
import numpy as np

from .. import catalog
from .. import units as u
from ..fabric import (
    JITTERS, Network, all_to_all, compare_routings, incast, incast_collapse, permutation, rank_placement,
    ring_all_reduce_traffic, step_times,
)
from ..fabric.reordering import SPRAY_ORDERS, spray_arrivals
from ..plotting.fabric import (
    flow_completion_plot, incast_collapse_plot, spray_arrivals_plot, straggler_scaling_plot, victim_slowdown_plot,
)
from ..plotting.style import styled, time_unit
from ..topology import fat_tree
from .panel import Panel

__all__ = ["RoutingPanel", "IncastPanel", "StragglerPanel", "SprayPanel", "FABRICS", "TRAFFIC_PATTERNS"]

_CONTROL = {"style": {"description_width": "14em"}, "layout": widgets.Layout(width="40em")}
_SLIDER = {"continuous_update": False, **_CONTROL}

#: Fabrics the routing panel offers: label -> (hosts, radix, tiers).
FABRICS = {
    "128 hosts, 2 tiers (radix 16)": (128, 16, 2),
    "512 hosts, 2 tiers (radix 32)": (512, 32, 2),
    "1,024 hosts, 3 tiers (radix 16)": (1024, 16, 3),
    "8,192 hosts, 3 tiers (radix 32)": (8192, 32, 3),
}

#: Traffic patterns the routing panel offers.
TRAFFIC_PATTERNS = ("random permutation", "ring all-reduce step, ranks placed at random",
                    "all-to-all among 32 hosts (MoE, skew 1)", "16-to-1 incast")


def _traffic(pattern, hosts, size_bytes, seed):
    if pattern == TRAFFIC_PATTERNS[0]:
        return permutation(hosts, size_bytes, seed=seed)
    if pattern == TRAFFIC_PATTERNS[1]:
        ranks = rank_placement(hosts, placement="random", seed=seed)
        return ring_all_reduce_traffic(ranks, size_bytes * hosts).phases[0].traffic
    rng = np.random.default_rng(seed)
    chosen = np.sort(rng.choice(hosts, size=32 if pattern == TRAFFIC_PATTERNS[2] else 17, replace=False))
    if pattern == TRAFFIC_PATTERNS[2]:
        return all_to_all(chosen, size_bytes / 31, skew=1.0, seed=seed)
    return incast(chosen[1:], int(chosen[0]), size_bytes)


class RoutingPanel(Panel):
    """Fabric, traffic, failed links, seed → flow completion times under ECMP, spraying and adaptive routing.

    Parameters
    ----------
    fabric : str
        Initial key of :data:`FABRICS`.
    pattern : str
        Initial entry of :data:`TRAFFIC_PATTERNS`.
    failed_links : int
        Initial number of failed leaf-to-spine cables (both directions).
    link : str
        Catalog link whose per-direction rate every port runs at.
    size_bytes : float
        Bytes each host sends [B].
    seed : int
        Initial seed of the traffic, the failures and the routing.
    """

    #: The rendered book's variant: the three smaller fabrics (the largest takes seconds a run with failed
    #: links), every traffic pattern, five failure counts; the seed as in the text.
    static_controls = ("fabric", "pattern", "failed_links")
    static_grid = {"fabric": tuple(list(FABRICS)[:3]), "failed_links": (0, 2, 4, 8, 16)}

    def __init__(self, *, fabric="1,024 hosts, 3 tiers (radix 16)", pattern=TRAFFIC_PATTERNS[0], failed_links=0,
                 link="InfiniBand NDR", size_bytes=2 * u.MB, seed=0):
        self.rate = catalog.link(link).per_direction_bytes_per_s
        self.link = link
        self.size_bytes = size_bytes
        self.controls = {
            "fabric": widgets.Dropdown(options=list(FABRICS), value=fabric, description="fabric", **_CONTROL),
            "pattern": widgets.Dropdown(options=list(TRAFFIC_PATTERNS), value=pattern, description="traffic",
                                        **_CONTROL),
            "failed_links": widgets.IntSlider(value=failed_links, min=0, max=16, description="failed leaf up-links",
                                              **_SLIDER),
            "seed": widgets.IntSlider(value=seed, min=0, max=9, description="seed (traffic, hash)", **_SLIDER),
        }
        super().__init__(figure_size_in=(7.0, 3.6))

    def compute(self, *, fabric, pattern, failed_links, seed):
        hosts, radix, tiers = FABRICS[fabric]
        network = Network(fat_tree(hosts, radix=radix, tiers=tiers), nic_capacity_bytes_per_s=self.rate)
        if failed_links:
            network = network.with_failed_links(network.random_links(failed_links, "leaf up", seed=seed))
        traffic = _traffic(pattern, hosts, self.size_bytes, seed)
        return {"results": compare_routings(network, traffic, seed=seed), "traffic": traffic, "network": network}

    def describe(self, result):
        parts = [f"<b>{name}</b> {u.format_time(r.completion_time_s)}" for name, r in result["results"].items()]
        traffic = result["traffic"]
        return (f"{traffic.flow_count:,} flows, {u.format_bytes(traffic.total_bytes)} over "
                f"{self.link} ({u.format_rate(self.rate, bits=True)} per port): done in " + ", ".join(parts))

    @styled
    def draw(self, result):
        flow_completion_plot(result["results"], ax=self.axes, title=result["traffic"].name)


class IncastPanel(Panel):
    """Senders, buffer, timeout, block size → goodput of one port, and a victim's slowdown, per flow control.

    Drop-tail appears twice: recovering by timeouts alone, and going back to
    the first gap on a NAK as RoCE NICs do.

    The port and links run at the rate of a catalog link; the buffer, the
    timeout and the 1 µs link delay are illustrative.

    Parameters
    ----------
    max_senders : int
        Initial largest sender count (the curve doubles up to it).
    buffer_packets : int
        Initial egress buffer [packets of 4 KiB].
    timeout_s : float
        Initial retransmission timeout [s] (drop-tail).
    size_bytes : float
        Initial bytes per sender [B].
    link : str
        Catalog link for the port rate.
    """

    #: The rendered book's variant: the buffer and the timer (the senders span the figure's axis).
    static_controls = ("buffer_packets", "timeout_s")

    PACKET_BYTES = 4096.0
    LINK_DELAY_S = 1 * u.us
    FLOW_CONTROLS = ("lossless", "drop-tail/timeout only", "drop-tail/selective repeat", "drop-tail/go-back-n",
                     "trimming")

    def __init__(self, *, max_senders=32, buffer_packets=32, timeout_s=1 * u.ms, size_bytes=256 * u.KiB,
                 link="InfiniBand NDR"):
        self.rate = catalog.link(link).per_direction_bytes_per_s
        self.controls = {
            "max_senders": widgets.SelectionSlider(options=[4, 8, 16, 32], value=max_senders,
                                                   description="senders, up to", **_SLIDER),
            "buffer_packets": widgets.SelectionSlider(options=[8, 16, 32, 64, 128, 256], value=buffer_packets,
                                                      description="port buffer [4 KiB packets]", **_SLIDER),
            "timeout_s": widgets.SelectionSlider(
                options=[("100 µs", 100 * u.us), ("1 ms", 1 * u.ms), ("10 ms", 10 * u.ms), ("200 ms", 200 * u.ms)],
                value=timeout_s, description="drop-tail timeout", **_SLIDER),
            "size_bytes": widgets.SelectionSlider(
                options=[("64 KiB", 64 * u.KiB), ("256 KiB", 256 * u.KiB), ("512 KiB", 512 * u.KiB)],
                value=size_bytes, description="bytes per sender", **_SLIDER),
        }
        super().__init__(figure_size_in=(9.0, 3.4), subplots={"ncols": 2})

    def compute(self, *, max_senders, buffer_packets, timeout_s, size_bytes):
        counts = [n for n in (1, 2, 4, 8, 16, 32, 64) if n <= max_senders]
        return incast_collapse(counts, size_bytes, self.rate, buffer_packets * self.PACKET_BYTES,
                               self.PACKET_BYTES, link_delay_s=self.LINK_DELAY_S,
                               retransmission_timeout_s=timeout_s, victim_bytes=size_bytes,
                               flow_controls=self.FLOW_CONTROLS)

    def describe(self, curve):
        n = int(curve.n_senders[-1])
        parts = [f"<b>{control}</b> {curve.goodput_fraction(control)[-1]:.0%}" for control in curve.results]
        lossless = curve.results["lossless"][-1].victim_slowdown
        return (f"With {n} senders, goodput as a share of the port: " + ", ".join(parts)
                + f"; under lossless flow control the victim flow takes <b>{lossless:.1f}x</b> as long")

    @styled
    def draw(self, curve):
        incast_collapse_plot(curve, ax=self.axes[0], title="goodput of the congested port")
        victim_slowdown_plot(curve, ax=self.axes[1], title="a victim flow on sender 0's link")


class StragglerPanel(Panel):
    """Jitter, slow machines → expected step time of N synchronous workers, N up to 100,000.

    Parameters
    ----------
    jitter : str
        Initial name in ``interconnect_lab.fabric.JITTERS``.
    jitter_percent : float
        Initial jitter standard deviation [% of the step].
    slow_percent : float
        Initial share of slow machines [%].
    slowdown_percent : float
        Initial extra time of a slow machine [%].
    """

    #: The rendered book's variant: the jitter and the share of slow machines; their slowdown as in the text.
    static_controls = ("jitter", "jitter_percent", "slow_percent")
    static_grid = {"jitter_percent": (0.0, 0.5, 1.0, 2.0, 5.0), "slow_percent": (0.0, 0.1, 0.5, 1.0, 2.0)}

    COUNTS = np.unique(np.round(np.geomspace(1, 100_000, 41)).astype(int))

    def __init__(self, *, jitter="exponential", jitter_percent=1.0, slow_percent=0.5, slowdown_percent=10.0):
        self.controls = {
            "jitter": widgets.Dropdown(options=list(JITTERS), value=jitter, description="jitter", **_CONTROL),
            "jitter_percent": widgets.FloatSlider(value=jitter_percent, min=0.0, max=5.0, step=0.25,
                                                  description="jitter, std [% of step]", **_SLIDER),
            "slow_percent": widgets.FloatSlider(value=slow_percent, min=0.0, max=2.0, step=0.1,
                                                description="slow machines [%]", **_SLIDER),
            "slowdown_percent": widgets.FloatSlider(value=slowdown_percent, min=0.0, max=50.0, step=1.0,
                                                    description="a slow machine's extra time [%]", **_SLIDER),
        }
        super().__init__(figure_size_in=(7.0, 4.6))

    def compute(self, *, jitter, jitter_percent, slow_percent, slowdown_percent):
        jitter_s = jitter_percent / 100
        return {
            "jitter only": step_times(self.COUNTS, 1.0, jitter=jitter, jitter_s=jitter_s),
            "jitter and slow machines": step_times(self.COUNTS, 1.0, jitter=jitter, jitter_s=jitter_s,
                                                   slow_fraction=slow_percent / 100,
                                                   slowdown=slowdown_percent / 100),
        }

    def describe(self, results):
        both = results["jitter and slow machines"]
        at = {int(n): value for n, value in zip(both.n_workers, both.expected_overhead)}
        return (f"Expected time lost to waiting for the slowest worker: <b>{at[1000]:.1%}</b> at 1,000 workers, "
                f"<b>{at[10_000]:.1%}</b> at 10,000, <b>{at[100_000]:.1%}</b> at 100,000")

    @styled
    def draw(self, results):
        straggler_scaling_plot(results, ax=self.axes, title="a synchronous step waits for its slowest worker")


# Chapter 6: packet spraying and the order of arrival ---------------------------------------------

_SPRAY_CONTROL = {"style": {"description_width": "16em"}, "layout": widgets.Layout(width="40em")}
_SPRAY_SLIDER = {"continuous_update": False, **_SPRAY_CONTROL}


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
            "paths": widgets.IntSlider(value=paths, min=1, max=16, description="paths", **_SPRAY_SLIDER),
            "queue_us": widgets.FloatSlider(value=queue_us, min=0.0, max=10.0, step=0.5,
                                            description="queue on the last path [µs]", **_SPRAY_SLIDER),
            "packets": widgets.SelectionSlider(options=[16, 32, 64, 128, 256], value=packets,
                                               description="packets in the message", **_SPRAY_SLIDER),
            "order": widgets.Dropdown(options=list(SPRAY_ORDERS), value=order, description="spray order",
                                      **_SPRAY_CONTROL),
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
        unit = time_unit(arrivals.completion_time_s)
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
