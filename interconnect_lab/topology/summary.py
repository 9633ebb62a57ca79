"""One shape for every topology: the numbers a comparison table needs.

Each builder of :mod:`interconnect_lab.topology` (fat trees, rail-only
networks, dragonflies, tori, direct-connect fabrics) returns its own
description; its ``summary()`` method (or :func:`fat_tree_summary` for a
:class:`~interconnect_lab.topology.FatTree`) condenses it into a
:class:`TopologySummary` with the same fields for all of them, so that
:func:`~interconnect_lab.topology.topology_comparison` can put them side by
side.

Conventions
-----------
- *Hosts* are network endpoints (GPU or TPU network ports).
- *Hops* count links between network nodes (switches, or chips that forward
  in a direct network): the "three switch-to-switch hops" of a dragonfly. A
  message also crosses the two host links at the ends of a switched network,
  so ``diameter_links`` = ``diameter_hops + 2`` there; in a torus the chips
  are the network nodes and ``diameter_links`` = ``diameter_hops``.
- *Bisection* is the bandwidth, one direction, across the cut that halves the
  hosts with the fewest links cut among the cuts the builder considers (its
  docstring says which).
- *Optical links* carry one transceiver at each end; the others are copper
  (or, in a torus cube, circuit-board traces). Which links are optical follows
  each design's published practice.
"""

from __future__ import annotations

from dataclasses import dataclass

from .._validation import check_integer, check_number
from .fat_trees import FatTree

__all__ = ["TopologySummary", "fat_tree_summary"]


@dataclass(frozen=True, kw_only=True)
class TopologySummary:
    """A topology's size, reach, capacity and failure exposure, in one shape.

    Attributes
    ----------
    name : str
        What the network is, e.g. ``"dragonfly (p=16, a=32, h=17)"``.
    family : str
        ``"fat tree"``, ``"rail-optimized fat tree"``, ``"rail-only"``,
        ``"dragonfly"``, ``"torus"`` or ``"direct-connect"``.
    hosts : int
        Network endpoints [-].
    switches : int
        Packet switches (0 for a torus, whose chips forward) [-].
    radix : int
        Ports of one switch (or network links of one torus chip) [-].
    links : int
        Cables: host links plus links between network nodes [-].
    optical_links : int
        Links with a transceiver at each end [-].
    circuit_switches : int
        Optical circuit switches (OCS) that patch links without reading packets [-].
    diameter_hops : int
        Most hops between network nodes on a minimal path between two hosts [-].
    diameter_links : int
        Most links a minimal path between two hosts crosses, host links included [-].
    bisection_links : float
        Links (one direction each) across the bisection [-].
    port_bytes_per_s : float or None
        Rate of one link, one direction [B/s].
    hosts_cut_by_switch : int
        Hosts that lose the network when the worst-placed switch fails [-].
    worst_link_loss : float
        Share of the minimal-path capacity between two network nodes (or
        groups, or blocks) that the worst single link failure removes [-]:
        1.0 means that pair must fall back to longer paths.
    failure_note : str
        What one failure does, in words.
    """

    name: str
    family: str
    hosts: int
    switches: int
    radix: int
    links: int
    optical_links: int
    circuit_switches: int = 0
    diameter_hops: int
    diameter_links: int
    bisection_links: float
    port_bytes_per_s: float | None = None
    hosts_cut_by_switch: int
    worst_link_loss: float
    failure_note: str = ""

    def __post_init__(self):
        for field in ("hosts", "radix"):
            check_integer(f"TopologySummary.{field}", getattr(self, field), minimum=1)
        for field in ("switches", "links", "optical_links", "circuit_switches", "diameter_hops",
                      "diameter_links", "hosts_cut_by_switch"):
            check_integer(f"TopologySummary.{field}", getattr(self, field), minimum=0)
        if self.optical_links > self.links:
            raise ValueError(f"TopologySummary.optical_links = {self.optical_links} is not valid: it "
                             f"must be <= links = {self.links}")
        check_number("TopologySummary.bisection_links", self.bisection_links, minimum=0)
        check_number("TopologySummary.worst_link_loss", self.worst_link_loss, minimum=0, maximum=1)
        if self.port_bytes_per_s is not None:
            check_number("TopologySummary.port_bytes_per_s", self.port_bytes_per_s, unit="B/s",
                         minimum=0, min_inclusive=False)

    @property
    def bisection_per_direction_bytes_per_s(self) -> float | None:
        """Bisection bandwidth, one direction [B/s]; None without a port rate."""
        if self.port_bytes_per_s is None:
            return None
        return self.bisection_links * self.port_bytes_per_s

    @property
    def bisection_ratio(self) -> float:
        """Bisection over what half the hosts can inject, :math:`B / (H/2)` in links [-].

        1 is a full-bisection (non-blocking) network; uniform all-to-all traffic
        sends half of every host's bytes across the cut, so it needs 1/2.
        """
        return self.bisection_links / (self.hosts / 2)

    @property
    def optical_port_ends(self) -> int:
        """Transceiver ends: two per optical link [-]."""
        return 2 * self.optical_links

    @property
    def switch_ports(self) -> int:
        """Switch ports bought: ``switches * radix`` [-]."""
        return self.switches * self.radix


def fat_tree_summary(tree, *, name=None):
    """A :class:`TopologySummary` of a fat tree from :func:`~interconnect_lab.topology.fat_tree`.

    Bisection: a non-blocking tree carries ``hosts / 2`` links across; an
    oversubscribed one divides that by the leaf oversubscription (the tiers
    above the leaves are non-blocking by the wiring rules). A full tree's
    worst path climbs to the top tier: ``2 * (tiers - 1)`` hops. Every link
    is optical (the wiring rules' optics assumption).

    Parameters
    ----------
    tree : FatTree
    name : str, optional
        Label; by default it says tiers, radix and rails.

    Returns
    -------
    TopologySummary

    Examples
    --------
    Al-Fares's 3-tier tree of 4-port switches: 16 hosts, 20 switches, paths of
    at most 4 switch-to-switch hops.

    >>> from interconnect_lab.topology import fat_tree
    >>> s = fat_tree_summary(fat_tree(16, radix=4, tiers=3))
    >>> s.switches, s.diameter_hops, s.diameter_links, s.bisection_ratio
    (20, 4, 6, 1.0)
    """
    if not isinstance(tree, FatTree):
        raise TypeError(f"tree must be a topology.FatTree (from topology.fat_tree), got {type(tree).__name__}")
    if name is not None and not isinstance(name, str):
        raise TypeError(f"name must be a str, got {name!r}")
    hops = 2 * (tree.tiers - 1)
    rails = tree.rails
    family = "rail-optimized fat tree" if rails > 1 else "fat tree"
    label = name or (f"{family}, {tree.tiers} tier{'s' if tree.tiers > 1 else ''}, radix {tree.radix}"
                     + (f", {rails} rails" if rails > 1 else "")
                     + (f", {tree.oversubscription:g}:1" if tree.oversubscription != 1 else ""))
    if tree.tiers == 1:
        worst, note = 0.0, "the one switch is every host's only path: its failure cuts all"
        bisection = tree.hosts // 2
    else:
        worst = 1.0 / tree.leaf_up_ports
        bisection = (tree.hosts / 2) / tree.oversubscription
        note = (f"a leaf failure cuts its {tree.leaf_down_ports} hosts"
                + (f" (each node loses 1 of its {rails} rails)" if rails > 1 else "")
                + f"; a leaf up-link failure removes 1/{tree.leaf_up_ports} of that leaf's up capacity")
    return TopologySummary(
        name=label, family=family, hosts=tree.hosts, switches=tree.switches, radix=tree.radix,
        links=tree.cables, optical_links=tree.cables, diameter_hops=hops, diameter_links=hops + 2,
        bisection_links=float(bisection), port_bytes_per_s=tree.port_bytes_per_s,
        hosts_cut_by_switch=tree.leaf_down_ports if tree.tiers > 1 else tree.hosts,
        worst_link_loss=worst, failure_note=note)
