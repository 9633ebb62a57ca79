"""Panels for :mod:`interconnect_lab.topology`: sizing a fat tree (chapter 5), and topologies side by side (chapter 13)."""

from __future__ import annotations

import html
import ipywidgets as widgets
import numpy as np

from .. import catalog
from .. import units as u
from ..plotting.style import PALETTE, styled
from ..plotting.topology import FAMILY_COLORS, TIER_COLORS
from ..topology import PATHS, fat_tree, topology_comparison
from .panel import Panel
from .static import refusal_text

__all__ = ["FatTreePanel", "GPU_COUNTS", "SIZE_GRID", "TopologyPanel", "HOST_COUNTS"]

_CONTROL = {"style": {"description_width": "13em"}, "layout": widgets.Layout(width="40em")}

#: GPU counts the panels offer (one network port per GPU, as on a DGX).
GPU_COUNTS = (128, 256, 512, 1024, 2048, 4096, 8192, 10_000, 16_384, 32_768, 65_536, 131_072)

#: Host counts the switch-count curves are drawn over [-].
SIZE_GRID = tuple(int(n) for n in np.unique(np.round(np.geomspace(32, 131_072, 73))))

#: Host counts the topology panel offers [-].
HOST_COUNTS = (1024, 2048, 4096, 8192, 16_384, 32_768, 65_536)

_RADICES = (32, 40, 64, 128, 144, 256, 512)
_TIERS = ("leaf", "spine", "core")


def _radix_options():
    names = {}
    for entry in catalog.SWITCHES.values():
        if entry.family != "NVSwitch":
            names.setdefault(entry.ports, []).append(entry.name)
    return [(f"{k} ports" + (f" ({', '.join(names[k])})" if k in names else " (what-if)"), k)
            for k in _RADICES]


class FatTreePanel(Panel):
    """GPUs, switch radix, tiers, oversubscription, NIC rate, rails → a fat tree's counts.

    Each GPU has one network port (as on a DGX); the tree is built by
    :func:`interconnect_lab.topology.fat_tree`. The figure shows the switches
    per tier against cluster size for the chosen design, and the chosen size.

    Parameters
    ----------
    gpus : int
        Initial GPU count, one of :data:`GPU_COUNTS`.
    radix : int
        Initial switch radix [ports].
    tiers : {None, 2, 3}
        Initial tier count; None (or 0) takes the fewest that fit.
    oversubscription : float
        Initial leaf down:up ratio (1, 3 or 7).
    link : str
        Initial NIC and port generation, a catalog InfiniBand link name.
    rail_optimized : bool
        Initially wire the 8 ports of each DGX H100 rail by rail.
    """

    #: The rendered book's grid: two radices, two port rates.
    static_grid = {"radix": (64, 128), "link": ("InfiniBand NDR", "InfiniBand XDR")}

    X_LIMITS = (SIZE_GRID[0] / 1.2, SIZE_GRID[-1] * 1.2)
    Y_LIMITS = (0.8, 3e4)

    def __init__(self, *, gpus=10_000, radix=64, tiers=None, oversubscription=1.0,
                 link="InfiniBand NDR", rail_optimized=True):
        self.rails_when_optimized = catalog.system("DGX H100").nics
        self.controls = {
            "gpus": widgets.SelectionSlider(options=[(f"{n:,}", n) for n in GPU_COUNTS], value=gpus,
                                            description="GPUs (one port each)",
                                            continuous_update=True, **_CONTROL),
            "radix": widgets.Dropdown(options=_radix_options(), value=radix,
                                      description="switch radix", **_CONTROL),
            # 0 stands for "fewest that fit": a None value does not show in the static page.
            "tiers": widgets.Dropdown(options=[("fewest that fit", 0), ("2 (leaf, spine)", 2),
                                               ("3 (leaf, spine, core)", 3)],
                                      value=tiers or 0, description="tiers", **_CONTROL),
            "oversubscription": widgets.Dropdown(
                options=[("1:1 (non-blocking)", 1.0), ("3:1", 3.0), ("7:1", 7.0)],
                value=oversubscription, description="leaf oversubscription", **_CONTROL),
            "link": widgets.Dropdown(
                options=[(f"{name.split()[-1]}, {entry.per_direction_bytes_per_s / u.Gbit_per_s:g} Gb/s", name)
                         for name, entry in catalog.LINKS.items() if entry.family == "InfiniBand"],
                value=link, description="NIC and port rate", **_CONTROL),
            "rail_optimized": widgets.Checkbox(
                value=rail_optimized, description=f"rail-optimized ({self.rails_when_optimized} rails, DGX H100)",
                indent=False, layout=widgets.Layout(width="40em")),
        }
        super().__init__(figure_size_in=(7.0, 3.4))

    # Model ----------------------------------------------------------------------------
    def compute(self, *, gpus, radix, tiers, oversubscription, link, rail_optimized):
        """The tree for ``gpus`` (or the reason it cannot be built) and the curves of its design."""
        design = dict(radix=radix, tiers=tiers or None, oversubscription=oversubscription,
                      rails=self.rails_when_optimized if rail_optimized else 1,
                      port_bytes_per_s=catalog.link(link).per_direction_bytes_per_s)
        try:
            tree, error = fat_tree(gpus, **design), None
        except ValueError as exc:
            tree, error = None, refusal_text(exc)
        curves = np.full((len(SIZE_GRID), 3), np.nan)
        for i, hosts in enumerate(SIZE_GRID):
            try:
                t = fat_tree(hosts, **design)
            except ValueError:
                continue  # beyond what this design can attach
            curves[i] = (t.leaves, t.spines or np.nan, t.cores or np.nan)
        return {"gpus": gpus, "tree": tree, "error": error, "curves": curves, "design": design}

    def describe(self, result):
        tree = result["tree"]
        if tree is None:
            return f"<b>Cannot be built.</b> {html.escape(result['error'])}"
        tiers = " + ".join(f"{n:,} {name}" for n, name in zip(tree.switches_per_tier, _TIERS))
        per_gpu = tree.bisection_bytes_per_s / (tree.hosts / 2)
        return (f"<b>{tree.tiers} tier{'s' if tree.tiers > 1 else ''}: {tree.switches:,} switches</b> "
                f"({tiers}); <b>{tree.cables:,} cables</b>, {tree.transceivers:,} transceiver port ends; "
                f"bisection <b>{tree.bisection_bytes_per_s / u.TB_per_s:,.1f} TB/s</b> per direction "
                f"({per_gpu / u.GB_per_s:.1f} GB/s per GPU across the cut); "
                f"longest path {tree.switch_hops(list(PATHS)[tree.tiers - 1])} switch hops")

    # Figure ----------------------------------------------------------------------------
    def _title(self, result):
        tree = result["tree"]
        if tree is None:
            return f"{result['gpus']:,} GPUs: not buildable with this design"
        return f"{result['gpus']:,} GPUs: {tree.tiers} tiers, {tree.switches:,} switches"

    def _marker_y(self, result):
        tree = result["tree"]
        return np.nan if tree is None else tree.switches

    @styled
    def draw(self, result):
        ax = self.axes
        hosts = np.array(SIZE_GRID, dtype=float)
        curves = result["curves"]
        total = np.nansum(curves, axis=1)
        total[np.isnan(curves[:, 0])] = np.nan
        for column, name in enumerate(_TIERS):
            ax.plot(hosts, curves[:, column], drawstyle="steps-post", color=TIER_COLORS[name],
                    lw=1.6, label=f"{name} switches")
        ax.plot(hosts, total, drawstyle="steps-post", color=PALETTE["black"], lw=2.2, label="all switches")
        ax.axvline(result["gpus"], color=PALETTE["grey"], lw=1, ls="--")
        ax.plot([result["gpus"]], [self._marker_y(result)], "o", color=PALETTE["black"], ms=7)
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlim(*self.X_LIMITS)
        ax.set_ylim(*self.Y_LIMITS)
        ax.set_xlabel("GPUs (network ports) [-]")
        ax.set_ylabel("switches [-]")
        ax.legend(loc="upper left", fontsize=9)
        ax.set_title(self._title(result), loc="left", fontsize=10)

    @styled
    def redraw(self, result):
        # In place: four lines, the size marker and the title; tests check this matches draw().
        ax = self.axes
        lines = ax.get_lines()
        if len(lines) != 6:
            return None
        curves = result["curves"]
        total = np.nansum(curves, axis=1)
        total[np.isnan(curves[:, 0])] = np.nan
        for line, values in zip(lines[:4], (*curves.T, total)):
            line.set_ydata(values)
        lines[4].set_xdata([result["gpus"], result["gpus"]])
        lines[5].set_data([result["gpus"]], [self._marker_y(result)])
        title = ax.set_title(self._title(result), loc="left", fontsize=10)
        return [*lines, title]


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
