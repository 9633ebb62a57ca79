"""Panels for the cost of a cluster's network (chapters 5 and 10)."""

from __future__ import annotations

import html
import ipywidgets as widgets
import numpy as np

from .. import units as u
from ..cost import BREAKDOWN_PARTS, cluster_cost
from ..plotting.cost import PART_COLORS
from ..plotting.style import styled
from ..pricebook import ESTIMATES, H100_NDR_PRICES
from ..published import EPOCH_CLUSTER_INTERCONNECT_COST_FRACTION
from .panel import Panel
from .static import refusal_text

__all__ = ["ClusterCostPanel"]

_CONTROL = {"style": {"description_width": "13em"}, "layout": widgets.Layout(width="40em")}

#: GPU counts offered: whole DGX H100 systems up to the largest 3-tier QM9700 tree.
_GPU_COUNTS = (256, 512, 1016, 2048, 4096, 8192, 10_000, 16_384, 32_768, 65_536)

# The DGX price includes its NICs, so the price book has no NIC price: no NIC bar.
_COST_PARTS = tuple(part for part in BREAKDOWN_PARTS if part != "NICs")
_POWER_PARTS = ("servers", "switches", "transceivers")
_POWER_COLORS = {"servers": PART_COLORS["compute"], "switches": PART_COLORS["switches"],
                 "transceivers": PART_COLORS["transceivers"]}


class ClusterCostPanel(Panel):
    """GPUs, oversubscription, tiers, price estimate → capital cost, power and the network's share.

    DGX H100 servers on a Quantum-2 QM9700 fat tree, priced with
    ``interconnect_lab.pricebook.H100_NDR_PRICES`` by
    :func:`interconnect_lab.cost.cluster_cost`. Both bars are per GPU, so
    their scales stay put while the cluster grows.

    Parameters
    ----------
    gpus : int
        Initial GPU count.
    oversubscription : float
        Initial leaf down:up ratio (1, 3 or 7).
    tiers : {None, 2, 3}
        Initial tier count; None (or 0) takes the fewest that fit.
    estimate : str
        Initial price estimate, a key of :data:`interconnect_lab.pricebook.ESTIMATES`.
    rail_optimized : bool
        Initially wire the servers' ports rail by rail.
    """

    COST_LIMIT_KUSD = 75.0
    POWER_LIMIT_W = 2_000.0

    def __init__(self, *, gpus=10_000, oversubscription=1.0, tiers=None, estimate="central",
                 rail_optimized=True):
        self.controls = {
            "gpus": widgets.SelectionSlider(options=[(f"{n:,}", n) for n in _GPU_COUNTS], value=gpus,
                                            description="GPUs (DGX H100)", continuous_update=True,
                                            **_CONTROL),
            "oversubscription": widgets.Dropdown(
                options=[("1:1 (non-blocking)", 1.0), ("3:1", 3.0), ("7:1", 7.0)],
                value=oversubscription, description="leaf oversubscription", **_CONTROL),
            # 0 stands for "fewest that fit": a None value does not show in the static page.
            "tiers": widgets.Dropdown(options=[("fewest that fit", 0), ("2 (leaf, spine)", 2),
                                               ("3 (leaf, spine, core)", 3)],
                                      value=tiers or 0, description="tiers", **_CONTROL),
            "estimate": widgets.Dropdown(options=list(ESTIMATES), value=estimate,
                                         description="prices (estimate)", **_CONTROL),
            "rail_optimized": widgets.Checkbox(value=rail_optimized, description="rail-optimized",
                                               indent=False, layout=widgets.Layout(width="40em")),
        }
        super().__init__(figure_size_in=(7.0, 3.0), subplots={"nrows": 2})

    def compute(self, *, gpus, oversubscription, tiers, estimate, rail_optimized):
        """The cluster's cost, or the reason its fabric cannot be built."""
        try:
            return cluster_cost(gpus, prices=H100_NDR_PRICES, estimate=estimate,
                                oversubscription=oversubscription, tiers=tiers or None,
                                rail_optimized=rail_optimized)
        except ValueError as exc:
            return refusal_text(exc)

    def describe(self, cost):
        if isinstance(cost, str):
            return f"<b>Cannot be built.</b> {html.escape(cost)}"
        switch_power = ("switches not included: the catalog has no sourced power for the "
                        f"{cost.switch}" if cost.switch_power_w is None else "switches included")
        return (f"<b>{cost.total_usd / u.MUSD:,.0f} million USD</b> for {cost.gpus:,} GPUs "
                f"({cost.per_gpu_usd / u.kUSD:,.1f} k per GPU); switches, optics and cables "
                f"<b>{cost.interconnect_fraction:.1%}</b> of it (Epoch AI assumes "
                f"{EPOCH_CLUSTER_INTERCONNECT_COST_FRACTION:.0%}); {cost.fabric.switches:,} switches, "
                f"{cost.switch_transceiver_modules + cost.host_transceiver_modules:,} transceiver modules. "
                f"IT power <b>{cost.power_w / u.MW:,.2f} MW</b>, fabric {cost.network_power_fraction:.1%} "
                f"of it ({switch_power})")

    # Figure ----------------------------------------------------------------------------
    @staticmethod
    def _segments(cost):
        """Per-GPU cost [kUSD] and power [W] by part; zeros where the cluster cannot be built."""
        if isinstance(cost, str):
            return np.zeros(len(_COST_PARTS)), np.zeros(len(_POWER_PARTS))
        money = np.array([cost.breakdown_usd[p] for p in _COST_PARTS]) / cost.gpus / u.kUSD
        power = np.array([cost.compute_power_w, cost.switch_power_w or 0.0,
                          cost.transceiver_power_w]) / cost.gpus
        return money, power

    @staticmethod
    def _labels(cost):
        if isinstance(cost, str):
            return "not buildable", "not buildable"
        money = (f"{cost.per_gpu_usd / u.kUSD:.1f} kUSD; network "
                 f"{cost.interconnect_usd / cost.gpus / u.kUSD:.1f} ({cost.interconnect_fraction:.0%})")
        if cost.switch_power_w is None:
            power = (f"{cost.power_w / cost.gpus:,.0f} W; optics {cost.transceiver_power_w / cost.gpus:.0f} W, "
                     "switches unknown")
        else:
            power = f"{cost.power_w / cost.gpus:,.0f} W; network {cost.network_power_w / cost.gpus:.0f} W"
        return money, power

    @styled
    def draw(self, cost):
        money_ax, power_ax = self.axes
        money, power = self._segments(cost)
        money_label, power_label = self._labels(cost)
        for ax, values, parts, colours, label, limit, unit in (
                (money_ax, money, _COST_PARTS, PART_COLORS, money_label, self.COST_LIMIT_KUSD,
                 "capital cost per GPU [thousand USD]"),
                (power_ax, power, _POWER_PARTS, _POWER_COLORS, power_label, self.POWER_LIMIT_W,
                 "IT power per GPU [W]")):
            lefts = np.concatenate([[0.0], np.cumsum(values)[:-1]])
            for part, left, width in zip(parts, lefts, values):
                ax.barh([0], [width], left=[left], height=0.6, color=colours[part], label=part)
            ax.annotate(label, (values.sum(), 0), xytext=(5, 0), textcoords="offset points",
                        va="center", fontsize=9)
            ax.set_xlim(0, limit)
            ax.set_ylim(-0.5, 0.5)
            ax.set_yticks([])
            ax.set_xlabel(unit)
            ax.grid(axis="y", visible=False)
        money_ax.legend(loc="upper center", bbox_to_anchor=(0.5, 1.55), ncols=4, fontsize=8)

    @styled
    def redraw(self, cost):
        # In place: bar extents and the two labels; tests check this matches draw().
        money, power = self._segments(cost)
        labels = self._labels(cost)
        changed = []
        for ax, values, label in zip(self.axes, (money, power), labels):
            bars = [c.patches[0] for c in ax.containers]
            texts = ax.texts
            if len(bars) != len(values) or len(texts) != 1:
                return None
            left = 0.0
            for bar, width in zip(bars, values):
                bar.set_x(left)
                bar.set_width(width)
                left += width
            texts[0].xy = (left, 0)
            texts[0].set_text(label)
            changed += [*bars, texts[0]]
        return changed
