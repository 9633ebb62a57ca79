"""Figures for link generations: port rates against year, per family."""

from __future__ import annotations

import numpy as np
from matplotlib.ticker import NullLocator

from ..units import Gbit_per_s
from .style import PALETTE, new_figure, styled

__all__ = ["link_generations_plot", "FAMILY_COLORS"]

#: One colour per link family.
FAMILY_COLORS = {
    "InfiniBand": PALETTE["blue"],
    "Ethernet": PALETTE["vermillion"],
    "NVLink": PALETTE["green"],
    "PCIe": PALETTE["orange"],
    "CXL": PALETTE["purple"],
    "Infinity Fabric": PALETTE["sky"],
}


def _short_name(link):
    """``"InfiniBand NDR"`` -> ``"NDR"``; ``"Ethernet 400G"`` -> ``"400G"``."""
    return link.name.split(" ", 1)[1] if " " in link.name else link.name


@styled
def link_generations_plot(links, *, ax=None, title=None):
    """Data rate of one port or link, one direction, against the year of each generation.

    Parameters
    ----------
    links : sequence of catalog.Link
        Catalog links (e.g. every InfiniBand and Ethernet entry); one line per family.
    ax : matplotlib.axes.Axes, optional
        Axes to draw on; a new figure is made if omitted.
    title : str, optional
        Title.

    Returns
    -------
    matplotlib.axes.Axes
    """
    links = list(links)
    if not links:
        raise ValueError("link_generations_plot needs at least one catalog link")
    if ax is None:
        _, ax = new_figure(7.0, 3.6)
    families = list(dict.fromkeys(link.family for link in links))
    # Labels above-left for the first family, below-right for the next, so that two
    # families reaching the same rate in the same year stay legible.
    placements = [((-4, 6), "right", "bottom"), ((5, -6), "left", "top")]
    for index, family in enumerate(families):
        offset, ha, va = placements[index % len(placements)]
        members = sorted((l for l in links if l.family == family),
                         key=lambda l: (l.year, l.per_direction_bytes_per_s))
        years = np.array([l.year for l in members])
        rates = np.array([l.per_direction_bytes_per_s for l in members]) / Gbit_per_s
        colour = FAMILY_COLORS.get(family, PALETTE["black"])
        ax.plot(years, rates, marker="o", color=colour, lw=1.5, label=family)
        for link, year, rate in zip(members, years, rates):
            ax.annotate(_short_name(link), (year, rate), xytext=offset, textcoords="offset points",
                        ha=ha, va=va, fontsize=9, color=colour)
    ticks = sorted({round(l.per_direction_bytes_per_s / Gbit_per_s, 6) for l in links})
    ax.set_yscale("log", base=2)
    ax.set_yticks(ticks, [f"{t:g}" for t in ticks])
    ax.yaxis.set_minor_locator(NullLocator())
    ax.set_ylim(ticks[0] / 1.5, ticks[-1] * 1.5)
    years = [l.year for l in links]
    ax.set_xlim(min(years) - 1.5, max(years) + 1)
    ax.xaxis.get_major_locator().set_params(integer=True)
    ax.set_xlabel("year of the generation [-]")
    ax.set_ylabel("data rate per port,\none direction [Gb/s] (log scale)")
    ax.legend(loc="upper left")
    if title is not None:
        ax.set_title(title, loc="left", fontsize=10)
    return ax
