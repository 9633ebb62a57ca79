"""Topologies side by side: hosts, switches, links, hops, bisection, cost per port, failures.

:func:`topology_comparison` builds every family of
:mod:`interconnect_lab.topology` for about the same number of hosts from the
same switch radix and port rate, and returns a :class:`TopologyComparison`:
one :class:`~interconnect_lab.topology.TopologySummary` per design, with the
network's capital cost per host port from a
:class:`~interconnect_lab.pricebook.PriceBook` (:func:`network_cost_per_host`).

Cost model (an estimate, like the prices it uses)
-------------------------------------------------
- every switch costs the price book's switch price, scaled by its radix over
  the price book switch's ports (a constant price per switch port);
- every optical link needs a transceiver port end at each end, bought as the
  price book's (twin-port) switch modules;
- every link, copper or fibre, costs one cable;
- optical circuit switches, whose price is not public, are left out (Jouppi
  et al. put them under 5 % of TPU v4's system cost) and counted apart.
"""

from __future__ import annotations

import dataclasses
import math
import re
from dataclasses import dataclass

from .. import catalog
from .._validation import check_integer, check_number
from ..pricebook import H100_NDR_PRICES, PriceBook, transceiver
from .dragonflies import dragonfly
from .fat_trees import MAX_RADIX, fat_tree
from .spineless import direct_connect, rail_only
from .summary import TopologySummary, fat_tree_summary
from .tori import torus

__all__ = ["TopologyComparison", "topology_comparison", "network_cost_per_host", "COMPARISON_COLUMNS"]

#: Columns of :meth:`TopologyComparison.rows`, in order, with their units.
COMPARISON_COLUMNS = (
    ("topology", ""), ("hosts", "-"), ("switches", "-"), ("links", "-"), ("diameter hops", "-"),
    ("bisection ratio", "-"), ("cost per host port", "USD"), ("hosts cut by a switch", "-"),
    ("worst link loss", "-"),
)


def network_cost_per_host(summary, prices=H100_NDR_PRICES, *, estimate="central"):
    """Capital cost of a network per host port [USD], by the module's cost model.

    .. math::

        c = \\frac{S \\, P_\\text{switch} \\, k / k_\\text{book}
            + \\lceil 2 L_\\text{optical} / m \\rceil P_\\text{module}
            + L \\, P_\\text{cable}}{H}

    Parameters
    ----------
    summary : TopologySummary
    prices : PriceBook
        Switch, transceiver and cable prices; the switch item must be a catalog switch or
        one of its breakouts (``"Tomahawk 5 (128 x 400G)"``, see
        :func:`~interconnect_lab.catalog.breakout`).
    estimate : str
        Which end of the price ranges: a key of :data:`~interconnect_lab.pricebook.ESTIMATES`.

    Returns
    -------
    float
        USD per host port [USD].

    Examples
    --------
    A 2-tier tree of 2,048 hosts: 96 switches at USD 36,000, 4,096 twin-port
    modules at USD 1,250 (8,192 link ends) and 4,096 cables at USD 100:

    >>> from interconnect_lab.topology import fat_tree
    >>> network_cost_per_host(fat_tree_summary(fat_tree(2048, radix=64)))
    4387.5
    """
    if not isinstance(summary, TopologySummary):
        raise TypeError(f"summary must be a TopologySummary, got {type(summary).__name__}")
    if not isinstance(prices, PriceBook):
        raise TypeError(f"prices must be a PriceBook, got {prices!r}")
    book = prices.at(estimate)
    reference_ports = _switch_ports(book.switch.item)
    module = transceiver(book.switch_transceiver.item)
    switches_usd = summary.switches * book.switch.usd * summary.radix / reference_ports
    optics_usd = math.ceil(summary.optical_port_ends / module.ports) * book.switch_transceiver.usd
    cables_usd = summary.links * book.cable.usd
    return (switches_usd + optics_usd + cables_usd) / summary.hosts


def _switch_ports(item):
    """Ports of a price book's switch: a catalog switch, or a breakout of one by the name it gives."""
    if item in catalog.SWITCHES:
        return catalog.switch(item).ports
    mode = re.fullmatch(r"(?P<base>.+) \((?P<ports>\d+) x [\d.]+G\)", item)
    if mode and mode["base"] in catalog.SWITCHES:
        base = catalog.switch(mode["base"])
        ways, rest = divmod(int(mode["ports"]), base.ports)
        if ways >= 1 and rest == 0 and catalog.breakout(base, ways).name == item:
            return base.ports * ways
    catalog.switch(item)  # an unknown name: the error lists the catalog's switches
    raise ValueError(f"switch {item!r} is not a catalog switch or a breakout of one")


@dataclass(frozen=True)
class TopologyComparison:
    """Several topologies for the same job, with cost per host port.

    Attributes
    ----------
    summaries : tuple of TopologySummary
    cost_per_host_usd : tuple of float
        :func:`network_cost_per_host` of each [USD].
    price_book : str
        Name of the price book used.
    """

    summaries: tuple[TopologySummary, ...]
    cost_per_host_usd: tuple[float, ...]
    price_book: str

    def __len__(self):
        return len(self.summaries)

    @property
    def names(self) -> tuple[str, ...]:
        """Topology names, in row order."""
        return tuple(s.name for s in self.summaries)

    def rows(self):
        """The table as a list of tuples, one per topology, in ``COMPARISON_COLUMNS`` order."""
        return [(s.name, s.hosts, s.switches, s.links, s.diameter_hops, s.bisection_ratio, cost,
                 s.hosts_cut_by_switch, s.worst_link_loss)
                for s, cost in zip(self.summaries, self.cost_per_host_usd)]

    def row(self, family):
        """The first summary of ``family`` (e.g. ``"dragonfly"``) and its cost per host port [USD]."""
        for s, cost in zip(self.summaries, self.cost_per_host_usd):
            if s.family == family:
                return s, cost
        families = ", ".join(repr(s.family) for s in self.summaries)
        raise ValueError(f"unknown family {family!r}; valid families are: {families}")


def _dragonfly_for(hosts, radix):
    """A dragonfly of full-radix routers, as Slingshot builds one: p = k/4, a = k/2, h = k/4 + 1.

    The fewest groups that hold ``hosts`` (at least 2); for k = 64 this is
    Slingshot's Rosetta wiring (16, 32, 17).
    """
    p, a = radix // 4, radix // 2
    h = radix - p - (a - 1)
    largest = a * p * (a * h + 1)
    if hosts > largest:
        raise ValueError(f"hosts = {hosts} is not valid for a dragonfly of radix-{radix} routers "
                         f"(p={p}, a={a}, h={h}): it must be <= {largest}")
    return dragonfly(p, a, h, max(2, -(-hosts // (a * p))))


def _torus_for(hosts):
    """The most cube-like 3D torus with >= hosts chips, sides multiples of 4 (TPU-style cubes)."""
    side = 4
    while side ** 3 < hosts:
        side += 4
    dims = [side, side, side]
    for i in range(3):  # shrink sides while it still holds the hosts
        while dims[i] > 4 and (dims[i] - 4) * math.prod(dims) // dims[i] >= hosts:
            dims[i] -= 4
    return torus(tuple(sorted(dims, reverse=True)), cube=(4, 4, 4))


def topology_comparison(hosts, *, radix=64, rails=8, port_bytes_per_s=None, prices=H100_NDR_PRICES,
                        estimate="central", families=None):
    """Build each topology family for ``hosts`` endpoints and compare them in one table.

    The designs: a fat tree; the same tree rail-optimized over ``rails``
    rails; a rail-only network; a dragonfly of full-radix routers wired as
    Slingshot wires its 64-port switches (p = k/4 terminals, a = k/2 routers
    per group, the rest global); a direct-connect fabric of the
    3-tier tree's pods (when the hosts need more than one pod); a 3D torus of
    4x4x4 cubes with optical circuit switches. Each is built to hold at least
    ``hosts``; the table says how many each holds.

    Parameters
    ----------
    hosts : int
        Endpoints, >= 2.
    radix : int
        Ports per switch, even, in [4, 65,536].
    rails : int
        Network ports per server for the rail designs, >= 1.
    port_bytes_per_s : float, optional
        Rate of every link, one direction [B/s], in (0, 1e18].
    prices : PriceBook
    estimate : str
        Which end of the price ranges (see :data:`~interconnect_lab.pricebook.ESTIMATES`).
    families : sequence of str, optional
        Subset of ``"fat tree"``, ``"rail-optimized fat tree"``, ``"rail-only"``,
        ``"dragonfly"``, ``"direct-connect"``, ``"torus"`` (a list or tuple of at least one);
        all by default.

    Returns
    -------
    TopologyComparison

    Raises
    ------
    ValueError
        If a count is out of range or a family is unknown.

    Examples
    --------
    >>> table = topology_comparison(4096, radix=64)
    >>> [s.diameter_hops for s in table.summaries]
    [4, 4, 2, 3, 3, 24]
    >>> table.row("dragonfly")[0].name
    'dragonfly (p=16, a=32, h=17, g=8)'
    """
    hosts = check_integer("hosts", hosts, minimum=2)
    radix = check_integer("radix", radix, minimum=4, maximum=MAX_RADIX)
    rails = check_integer("rails", rails, minimum=1)
    if port_bytes_per_s is not None:
        port_bytes_per_s = check_number("port_bytes_per_s", port_bytes_per_s, unit="B/s", minimum=0,
                                        min_inclusive=False, maximum=1e18, scalar=True)
    if not isinstance(prices, PriceBook):
        raise TypeError(f"prices must be a PriceBook, got {prices!r}")
    prices.at(estimate)  # an unknown estimate is refused before anything is built
    builders = {
        "fat tree": lambda: fat_tree_summary(fat_tree(hosts, radix=radix, port_bytes_per_s=port_bytes_per_s)),
        "rail-optimized fat tree": lambda: fat_tree_summary(
            fat_tree(hosts, radix=radix, rails=rails, port_bytes_per_s=port_bytes_per_s)),
        "rail-only": lambda: rail_only(-(-hosts // rails), rails, radix=radix,
                                       port_bytes_per_s=port_bytes_per_s).summary(),
        "dragonfly": lambda: _with_rate(_dragonfly_for(hosts, radix).summary(), port_bytes_per_s),
        "direct-connect": lambda: direct_connect(hosts, radix=radix, circuit_switch_ports=136,
                                                 port_bytes_per_s=port_bytes_per_s).summary(),
        "torus": lambda: _with_rate(_torus_for(hosts).summary(), port_bytes_per_s),
    }
    if families is None:
        chosen = list(builders)
        if hosts <= radix ** 2 // 2:
            chosen.remove("direct-connect")  # one pod (or a 2-tier tree) holds them: no blocks to join
    else:
        if not isinstance(families, (list, tuple)):
            raise TypeError(f"families must be a sequence of names, e.g. ('fat tree', 'dragonfly'); got {families!r}")
        chosen = list(families)
        if not chosen:
            raise ValueError("families must name at least one family, or be None for all of them")
        for f in chosen:
            if not isinstance(f, str) or f not in builders:
                listed = ", ".join(repr(b) for b in builders)
                raise ValueError(f"unknown family {f!r}; valid families are: {listed}")
    summaries = tuple(builders[f]() for f in chosen)
    costs = tuple(network_cost_per_host(s, prices, estimate=estimate) for s in summaries)
    return TopologyComparison(summaries=summaries, cost_per_host_usd=costs, price_book=prices.at(estimate).name)


def _with_rate(summary, rate):
    if rate is None:
        return summary
    return dataclasses.replace(summary, port_bytes_per_s=rate)
