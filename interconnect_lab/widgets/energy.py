"""Panel for :mod:`interconnect_lab.energy` (chapter 10): a cluster's power and energy bill."""

from __future__ import annotations

import html
import ipywidgets as widgets
import numpy as np

from .. import units as u
from ..catalog import breakout
from ..cost import cluster_cost
from ..energy import POWER_PARTS, energy_bill
from ..plotting.energy import POWER_COLORS
from ..plotting.style import PALETTE, legend_label, styled
from ..pricebook import ELECTRICITY_PRICE, H100_ETHERNET_PRICES, H100_NDR_PRICES, with_transceiver
from .panel import Panel
from .static import refusal_text

__all__ = ["PowerBillPanel", "FABRICS"]

_CONTROL = {"style": {"description_width": "13em"}, "layout": widgets.Layout(width="40em")}

#: The fabrics the panel offers: label -> (switch, price book). Both carry DGX H100 servers.
FABRICS = {
    "InfiniBand NDR (Quantum-2 QM9700, 64 ports)": ("Quantum-2 QM9700", H100_NDR_PRICES),
    "400GbE (Tomahawk 5 as 128 ports)": (breakout("Tomahawk 5", 2), H100_ETHERNET_PRICES),
}

_GPU_COUNTS = (1016, 2048, 4096, 10_000, 16_384, 32_768, 65_536, 100_000)
_OPTICS = {"single-mode, 100 m (MMS4X00-NS)": "MMS4X00-NS", "multimode, 50 m (MMA4Z00-NS)": "MMA4Z00-NS"}

_MONEY_PARTS = ("capital: compute", "capital: network", "energy: compute", "energy: network")
_MONEY_COLORS = {"capital: compute": POWER_COLORS["compute"], "capital: network": POWER_COLORS["switches"],
                 "energy: compute": PALETTE["sky"], "energy: network": PALETTE["orange"]}


def _named(ax):
    """Which of the axes' bar groups the legend names (a part drawn as nothing is left out)."""
    return [not container.get_label().startswith("_") for container in ax.containers]


class PowerBillPanel(Panel):
    """Fabric, GPUs, optics, years, electricity price, PUE → power by part, energy and its cost.

    DGX H100 servers on a non-blocking, rail-optimized fat tree, priced and
    powered by :func:`interconnect_lab.cost.cluster_cost`; the energy bill from
    :func:`interconnect_lab.energy.energy_bill`. Both bars are per GPU.

    Parameters
    ----------
    fabric : str
        A key of :data:`FABRICS`.
    gpus : int
        One of the offered GPU counts.
    optics : str
        ``"MMS4X00-NS"`` or ``"MMA4Z00-NS"``.
    years : int
        Service life [year].
    usd_per_kwh : float
        Electricity price [USD/kWh].
    pue : float
        Power usage effectiveness [-].
    """

    #: The rendered book's grid for the three numeric sliders.
    static_grid = {"years": (1, 5, 8), "usd_per_kwh": (0.05, 0.09, 0.15), "pue": (1.1, 1.3, 1.5)}

    POWER_LIMIT_W = 3_000.0
    MONEY_LIMIT_KUSD = 120.0

    def __init__(self, *, fabric=next(iter(FABRICS)), gpus=10_000, optics="MMS4X00-NS", years=5,
                 usd_per_kwh=round(ELECTRICITY_PRICE.usd, 2), pue=1.3):
        self.controls = {
            "fabric": widgets.Dropdown(options=list(FABRICS), value=fabric, description="fabric (DGX H100)",
                                       **_CONTROL),
            "gpus": widgets.SelectionSlider(options=[(f"{n:,}", n) for n in _GPU_COUNTS], value=gpus,
                                            description="GPUs", continuous_update=True, **_CONTROL),
            "optics": widgets.Dropdown(options=list(_OPTICS.items()), value=optics, description="optics",
                                       **_CONTROL),
            "years": widgets.IntSlider(value=years, min=1, max=8, description="years in service", **_CONTROL),
            "usd_per_kwh": widgets.FloatSlider(value=usd_per_kwh, min=0.04, max=0.20, step=0.01,
                                               readout_format=".2f", description="electricity [USD/kWh]",
                                               **_CONTROL),
            "pue": widgets.FloatSlider(value=pue, min=1.05, max=1.8, step=0.05, readout_format=".2f",
                                       description="PUE", **_CONTROL),
        }
        super().__init__(figure_size_in=(7.0, 3.6), subplots={"nrows": 2})

    def compute(self, *, fabric, gpus, optics, years, usd_per_kwh, pue):
        """The cluster's energy bill, or the reason its fabric cannot be built."""
        switch, book = FABRICS[fabric]
        try:
            cluster = cluster_cost(gpus, switch=switch, prices=with_transceiver(book, optics))
        except ValueError as exc:
            return refusal_text(exc)
        return energy_bill(cluster, years=years, pue=pue, usd_per_kwh=usd_per_kwh)

    def describe(self, bill):
        if isinstance(bill, str):
            return f"<b>Cannot be built.</b> {html.escape(bill)}"
        c = bill.cluster
        switches = ("switch power unknown (not counted)" if c.switch_power_w is None
                    else f"switches {c.switch_power_w / u.MW:,.2f} MW (chip estimate)")
        return (f"<b>{bill.facility_power_w / u.MW:,.1f} MW</b> from the grid for {c.gpus:,} GPUs "
                f"(IT {bill.it_power_w / u.MW:,.1f} MW; optics {c.transceiver_power_w / u.MW:,.2f} MW, {switches}; "
                f"network <b>{bill.network_share_of_energy:.1%}</b> of IT). Over {bill.years:g} years: "
                f"{bill.energy_j / u.GWh:,.0f} GWh, <b>{bill.energy_usd / u.MUSD:,.0f} million USD</b>, "
                f"{bill.energy_over_capital:.0%} of the {bill.capital_usd / u.MUSD:,.0f} million USD capital cost")

    # Figure ----------------------------------------------------------------------------
    @staticmethod
    def _segments(bill):
        """Per-GPU power [W] and lifetime cost [kUSD] by part; zeros where nothing can be built."""
        if isinstance(bill, str):
            return np.zeros(len(POWER_PARTS)), np.zeros(len(_MONEY_PARTS))
        gpus = bill.cluster.gpus
        power = np.array([bill.power_breakdown_w[p] for p in POWER_PARTS]) / gpus
        c = bill.cluster
        money = np.array([c.compute_usd, c.network_usd, bill.energy_usd - bill.network_energy_usd,
                          bill.network_energy_usd]) / gpus / u.kUSD
        return power, money

    @staticmethod
    def _labels(bill):
        if isinstance(bill, str):
            return "not buildable", "not buildable"
        gpus = bill.cluster.gpus
        power = f"{bill.facility_power_w / gpus:,.0f} W per GPU"
        money = (f"{(bill.capital_usd + bill.energy_usd) / gpus / u.kUSD:,.1f} kUSD "
                 f"(energy {bill.energy_over_capital:.0%} of capital)")
        return power, money

    @styled
    def draw(self, bill):
        power_ax, money_ax = self.axes
        power, money = self._segments(bill)
        power_label, money_label = self._labels(bill)
        for ax, values, parts, colours, label, limit, unit in (
                (power_ax, power, POWER_PARTS, POWER_COLORS, power_label, self.POWER_LIMIT_W,
                 "facility power per GPU [W]"),
                (money_ax, money, _MONEY_PARTS, _MONEY_COLORS, money_label, self.MONEY_LIMIT_KUSD,
                 "capital + lifetime energy per GPU [thousand USD]")):
            lefts = np.concatenate([[0.0], np.cumsum(values)[:-1]])
            for part, left, width in zip(parts, lefts, values):
                ax.barh([0], [width], left=[left], height=0.55, color=colours[part],
                        label=legend_label(part, width))
            ax.annotate(label, (values.sum(), 0), xytext=(5, 0), textcoords="offset points", va="center",
                        fontsize=9)
            ax.set_xlim(0, limit)
            ax.set_ylim(-0.45, 1.05)
            ax.set_yticks([])
            ax.set_xlabel(unit)
            ax.grid(axis="y", visible=False)
            if any(_named(ax)):
                ax.legend(loc="upper left", ncols=4, fontsize=8, borderaxespad=0.1)

    @styled
    def redraw(self, bill):
        # In place: bar extents and the two labels; the panel tests check this matches draw().
        power, money = self._segments(bill)
        labels = self._labels(bill)
        changed = []
        for ax, values, label in zip(self.axes, (power, money), labels):
            bars = [c.patches[0] for c in ax.containers]
            if len(bars) != len(values) or len(ax.texts) != 1 or _named(ax) != [v > 0 for v in values]:
                return None   # the legend names other parts: draw again
            left = 0.0
            for bar, width in zip(bars, values):
                bar.set_x(left)
                bar.set_width(width)
                left += width
            ax.texts[0].xy = (left, 0)
            ax.texts[0].set_text(label)
            changed += [*bars, ax.texts[0]]
        return changed
