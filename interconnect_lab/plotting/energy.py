"""Figures for :mod:`interconnect_lab.energy` (chapter 10): a cluster's power by part, and energy per bit."""

from __future__ import annotations

import numpy as np

from .. import units as u
from ..energy import POWER_PARTS
from .cost import PART_COLORS
from .style import PALETTE, legend_label, new_figure, styled

__all__ = ["POWER_COLORS", "power_breakdown_plot", "energy_per_bit_plot"]

#: One colour per part of a power breakdown.
POWER_COLORS = {
    "compute": PART_COLORS["compute"],
    "switches": PART_COLORS["switches"],
    "transceivers": PART_COLORS["transceivers"],
    "facility overhead": PALETTE["grey"],
}


_MEDIUM_COLORS = {
    "passive copper": PALETTE["orange"],
    "active copper": PALETTE["vermillion"],
    "multimode optics": PALETTE["sky"],
    "single-mode optics": PALETTE["blue"],
}


@styled
def power_breakdown_plot(bills, *, labels=None, ax=None, title=None):
    """Stacked bars: facility power per GPU by part, one bar per cluster.

    Parameters
    ----------
    bills : sequence of EnergyBill
        From :func:`interconnect_lab.energy.energy_bill`.
    labels : sequence of str, optional
        One per bar; by default the GPU count and the fabric's switch.
    ax : matplotlib.axes.Axes, optional
    title : str, optional

    Returns
    -------
    matplotlib.axes.Axes
    """
    bills = list(bills)
    if not bills:
        raise ValueError("power_breakdown_plot needs at least one EnergyBill")
    if labels is None:
        labels = [f"{b.cluster.gpus:,} GPUs, {b.cluster.switch}" for b in bills]
    if len(labels) != len(bills):
        raise ValueError(f"labels has {len(labels)} entries for {len(bills)} clusters")
    if ax is None:
        _, ax = new_figure(7.5, 1.9 + 0.55 * len(bills))
    y = np.arange(len(bills))[::-1]
    left = np.zeros(len(bills))
    for part in POWER_PARTS:
        values = np.array([b.power_breakdown_w[part] / b.cluster.gpus for b in bills])
        ax.barh(y, values, left=left, height=0.6, color=POWER_COLORS[part], label=legend_label(part, values))
        left += values
    for yi, total, bill in zip(y, left, bills):
        network = bill.network_power_w / bill.cluster.gpus
        note = "switches unknown" if bill.cluster.switch_power_w is None else "switches incl."
        ax.annotate(f"network {network:,.0f} W, {bill.network_share_of_energy:.1%} of IT ({note})",
                    (total, yi), xytext=(4, 0), textcoords="offset points", va="center", fontsize=8.5)
    ax.set_yticks(y, labels)
    ax.set_xlim(0, 1.85 * left.max())
    # The axis runs past the bars to hold the notes; its scale stops at the data.
    ticks = [t for t in ax.get_xticks() if 0 <= t <= 1.15 * left.max()]
    ax.set_xticks(ticks)
    ax.spines["bottom"].set_bounds(0, ticks[-1])
    ax.set_xlabel("facility power per GPU [W]")
    ax.grid(axis="y", visible=False)
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.16), fontsize=9, ncols=4)
    ax.set_title(title or f"rated power per GPU, PUE {bills[0].pue:g}", loc="left", fontsize=10)
    return ax


@styled
def energy_per_bit_plot(modules, *, claims=(), ax=None, title=None):
    """Energy per bit against reach for link ends, with vendors' claimed savings drawn as claims.

    Parameters
    ----------
    modules : sequence of Transceiver
        Entries of ``interconnect_lab.pricebook.TRANSCEIVERS`` with a rate and reach.
    claims : sequence of (str, float, float)
        ``(label, energy_per_bit_j, reach_m)`` points to draw hollow, labelled as claims
        (place them at the reach of the module the claim is applied to).
    ax : matplotlib.axes.Axes, optional
    title : str, optional

    Returns
    -------
    matplotlib.axes.Axes
    """
    modules = [m for m in modules if m.energy_per_bit_j is not None and m.reach_m is not None]
    if not modules:
        raise ValueError("energy_per_bit_plot needs modules with a rate and a reach")
    if ax is None:
        _, ax = new_figure(7.5, 4.8)
    seen, previous = set(), None
    for m in sorted(modules, key=lambda m: (m.reach_m, m.energy_per_bit_j)):
        label = m.medium if m.medium not in seen else None
        seen.add(m.medium)
        energy = m.energy_per_bit_j / u.pJ
        ax.plot(m.reach_m, energy, "o", ms=9, color=_MEDIUM_COLORS.get(m.medium, "black"), label=label)
        rate = m.per_direction_bytes_per_s / u.Gbit_per_s
        stacked = previous is not None and previous.reach_m == m.reach_m
        if m.reach_m < 20:                       # copper: label to the right
            offset, ha, va = (10, 0), "left", "center"
        elif m.medium == "multimode optics":     # left of the single-mode points
            offset, ha, va = (-10, -4), "right", "top"
        else:
            offset, ha, va = ((10, 6), "left", "bottom") if stacked else ((10, -6), "left", "top")
        ax.annotate(f"{m.name}: {m.power_w:g} W / {rate:g} Gb/s", (m.reach_m, energy), xytext=offset,
                    textcoords="offset points", fontsize=8, va=va, ha=ha)
        previous = m
    for i, (label, energy, reach) in enumerate(sorted(claims, key=lambda c: c[1])):
        ax.plot(reach, energy / u.pJ, "o", ms=9, mfc="white", mec=PALETTE["purple"], mew=2,
                label="vendor claim applied to a module" if i == 0 else None)
        ax.annotate(label, (reach, energy / u.pJ), xytext=(10, -6 if i == 0 else 6),
                    textcoords="offset points", fontsize=8, va="top" if i == 0 else "bottom",
                    color=PALETTE["black"])
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlim(0.5, 3000)
    ax.set_ylim(0.05, 60)
    ax.set_xlabel("longest link the vendor specifies [m] (log scale)")
    ax.set_ylabel("energy per bit, one direction [pJ/bit] (log scale)")
    ax.legend(loc="lower right", fontsize=8.5)
    ax.set_title(title or "400G/800G link ends: power over data rate, against reach", loc="left", fontsize=10)
    return ax
