"""Figures for the catalog's links and memory tiers: port rates by generation, and the bandwidth ladder.

- :func:`link_generations_plot` — the data rate of one port against the year of each
  generation, one line per link family;
- :func:`bandwidth_ladder_plot` — catalog memory tiers and links on one log scale (each
  rung from :func:`ladder_entry`): how the pipe narrows as data travels further from the GPU.
"""

from __future__ import annotations

import numpy as np
from matplotlib.ticker import FuncFormatter, NullLocator

from .. import units as u
from ..units import Gbit_per_s, format_rate
from .style import PALETTE, new_figure, styled

__all__ = ["link_generations_plot", "FAMILY_COLORS", "bandwidth_ladder_plot", "ladder_entry"]

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


# The bandwidth ladder -----------------------------------------------------------------------

_HEADLINED_BOTH_WAYS = ("NVLink", "NVLink-C2C", "PCIe", "CXL", "Infinity Fabric")


def ladder_entry(entry, label=None):
    """One rung of :func:`bandwidth_ladder_plot` from a catalog memory tier or link.

    Parameters
    ----------
    entry : catalog.MemoryTier or catalog.Link
        A memory tier (its bandwidth, ``"total"`` or ``"per direction"``) or a
        link: for a scale-up link all of one GPU's links, otherwise one link or
        port.
    label : str, optional
        Text for the axis; the entry's name by default.

    Returns
    -------
    dict
        ``label``; ``bytes_per_s``, the rate per direction, or for memory the
        total its reads and writes share [B/s]; ``both_directions_bytes_per_s``,
        both directions added, for the link families vendors headline that way
        (NVLink, NVLink-C2C, PCIe, CXL, Infinity Fabric), else None [B/s]; ``direction``
        (``"per direction"`` or ``"reads + writes"``); ``bits``, True for
        network ports, whose rates are quoted in bits per second.
    """
    if hasattr(entry, "bandwidth_direction"):
        total = entry.bandwidth_direction == "total"
        return {"label": label or entry.name, "bytes_per_s": entry.bandwidth_bytes_per_s,
                "both_directions_bytes_per_s": None,
                "direction": "reads + writes" if total else "per direction", "bits": False}
    if hasattr(entry, "per_direction_bytes_per_s") and hasattr(entry, "family"):
        rate = entry.per_gpu_per_direction_bytes_per_s or entry.per_direction_bytes_per_s
        name = entry.name if entry.links_per_gpu is None else f"{entry.name} ({entry.links_per_gpu} links)"
        both = u.both_directions(rate) if entry.family in _HEADLINED_BOTH_WAYS else None
        return {"label": label or name, "bytes_per_s": rate, "both_directions_bytes_per_s": both,
                "direction": "per direction", "bits": entry.family not in _HEADLINED_BOTH_WAYS}
    raise TypeError(f"entry must be a catalog MemoryTier or Link, got {type(entry).__name__}")


@styled
def bandwidth_ladder_plot(entries, *, ax=None, title=None):
    """Bandwidth of each place data can come from, on one log scale, nearest first.

    Solid bars are the rate a transfer can use in one direction (for memory: the
    total that reads and writes share); the pale extension of a link's bar is
    the vendor's figure with both directions added. Between consecutive bars,
    the factor by which the pipe narrows.

    Parameters
    ----------
    entries : sequence of dict
        From :func:`ladder_entry`, nearest to the GPU first.
    ax : matplotlib.axes.Axes, optional
        Axes to draw on; a new figure is made if omitted.
    title : str, optional
        Title.

    Returns
    -------
    matplotlib.axes.Axes
    """
    entries = list(entries)
    if not entries:
        raise ValueError("bandwidth_ladder_plot needs at least one entry (see ladder_entry)")
    if ax is None:
        _, ax = new_figure(7.5, 0.75 * len(entries) + 1.4)
    y = np.arange(len(entries))[::-1]
    rates = np.array([e["bytes_per_s"] for e in entries]) / u.GB_per_s
    both = [e["both_directions_bytes_per_s"] for e in entries]
    colours = [PALETTE["blue"], PALETTE["green"], PALETTE["orange"], PALETTE["vermillion"],
               PALETTE["purple"], PALETTE["sky"]]
    labelled = False
    for row, rate, entry, vendor, colour in zip(y, rates, entries, both, colours * 3):
        if vendor is not None:
            ax.barh(row, vendor / u.GB_per_s, height=0.6, color=colour, alpha=0.25, edgecolor=colour,
                    linewidth=0.8, label=None if labelled else "both directions added, as NVLink and PCIe are quoted")
            labelled = True
        ax.barh(row, rate, height=0.6, color=colour)
        text = f" {format_rate(entry['bytes_per_s'])}"
        if entry.get("bits"):
            text += f" ({format_rate(entry['bytes_per_s'], bits=True)})"
        text += f" {entry['direction']}"
        if vendor is not None:
            text += f"\n {format_rate(vendor)} both directions"
        ax.text(max(rate, (vendor or 0) / u.GB_per_s), row, text, va="center", fontsize=9, linespacing=1.1)
    for upper, lower, r0, r1 in zip(y[:-1], y[1:], rates[:-1], rates[1:]):
        ax.annotate(f"÷{r0 / r1:.1f}", xy=(min(r0, r1) * 0.55, (upper + lower) / 2), ha="right", va="center",
                    fontsize=9, color=PALETTE["black"], fontweight="bold")
    ax.set_xscale("log")
    low = 10 ** np.floor(np.log10(rates.min() / 3))
    high = max(rates.max(), max((b or 0) for b in both) / u.GB_per_s) * 20
    ax.set_xlim(low, high)
    ax.set_yticks(y, [e["label"] for e in entries])
    ax.set_xlabel("bandwidth [GB/s] (log scale)")
    ax.xaxis.set_major_formatter(FuncFormatter(lambda x, _: f"{x:,.0f}"))
    ax.grid(axis="y", visible=False)
    if labelled:
        ax.legend(loc="lower right", fontsize=8)
    if title:
        ax.set_title(title, loc="left", fontsize=10)
    return ax
