"""Fabrics without a top tier: rail-only networks and direct-connect (Jupiter-style) fabrics.

Two published designs remove the most expensive layer of a fat tree.

*Rail-only* (Wang et al. 2023): a rail-optimized cluster already sends most
of its traffic rail to rail; drop the spines that join the rails and keep one
separate fat tree per rail. A GPU reaches a GPU of another rail by first
crossing its own node's NVLink (scale-up) domain to the GPU of the right
rail, then that rail's network. :func:`rail_only` counts it.

*Direct-connect* (Google's Jupiter, Poutievski et al. 2022): the aggregation
blocks (pods of a three-tier Clos) connect to each other directly, through
optical circuit switches (OCS) that only patch fibres, instead of through a
layer of spine blocks. :func:`direct_connect` counts it: the pods of the
three-tier fat tree for the same hosts, the core tier removed, and every
pair of blocks joined by the same number of links.

References
----------
W. Wang, M. Ghobadi, K. Shakeri, Y. Zhang, N. Hasani, "Rail-only: A Low-Cost
High-Performance Network for Training LLMs with Trillion Parameters",
arXiv:2307.12169, 2023, https://arxiv.org/abs/2307.12169.

L. Poutievski et al., "Jupiter Evolving: Transforming Google's Datacenter
Network via Optical Circuit Switches and Software-Defined Networking",
SIGCOMM 2022, https://doi.org/10.1145/3544216.3544265.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType

from .._validation import check_integer, check_number
from ..sources import Source
from .fat_trees import FatTree, fat_tree
from .summary import TopologySummary, fat_tree_summary

__all__ = ["RailOnly", "rail_only", "DirectConnect", "direct_connect", "RAIL_ONLY_REPORTED",
           "JUPITER_REPORTED"]

_WANG = Source(
    title=("W. Wang, M. Ghobadi, K. Shakeri, Y. Zhang, N. Hasani, Rail-only: A Low-Cost High-Performance "
           "Network for Training LLMs with Trillion Parameters"),
    year=2023, url="https://arxiv.org/abs/2307.12169", locator="abstract",
)
_POUTIEVSKI = Source(
    title=("L. Poutievski et al., Jupiter Evolving: Transforming Google's Datacenter Network via Optical "
           "Circuit Switches and Software-Defined Networking (SIGCOMM 2022)"),
    year=2022, doi="10.1145/3544216.3544265", locator="abstract",
)

#: What Wang et al. report for rail-only against a rail-optimized Clos: network cost and power
#: reductions and the completion-time overhead of all-to-all traffic forwarded through NVLink
#: (each a (low, high) range, fractions) [-].
RAIL_ONLY_REPORTED = MappingProxyType({
    "network_cost_reduction": (0.38, 0.77), "network_power_reduction": (0.37, 0.75),
    "all_to_all_overhead": (0.082, 0.112), "source": _WANG,
})

#: What Poutievski et al. report for Jupiter's move from Clos to direct-connect with OCS: capex
#: and power reductions, the share of traffic on direct block-to-block paths and the mean
#: block-level path length [-].
JUPITER_REPORTED = MappingProxyType({
    "capex_reduction": 0.30, "power_reduction": 0.41, "direct_traffic_share": 0.60,
    "mean_block_path_length": 1.4, "source": _POUTIEVSKI,
})


@dataclass(frozen=True)
class RailOnly:
    """Separate fat trees, one per rail, with no switches between rails.

    Build it with :func:`rail_only`.

    Attributes
    ----------
    nodes : int
        Servers [-].
    rails : int
        Network ports per server, one per rail [-].
    rail_tree : FatTree
        The fat tree of one rail (``nodes`` hosts).
    """

    nodes: int
    rails: int
    rail_tree: FatTree

    @property
    def hosts(self) -> int:
        """Network ports, ``nodes * rails`` [-]."""
        return self.nodes * self.rails

    @property
    def switches(self) -> int:
        """Switches of all rails [-]."""
        return self.rails * self.rail_tree.switches

    @property
    def links(self) -> int:
        """Cables of all rails [-]."""
        return self.rails * self.rail_tree.cables

    def summary(self) -> TopologySummary:
        """This network as a :class:`~interconnect_lab.topology.TopologySummary`.

        Hops and bisection are those of the rails' networks; traffic between
        rails first crosses the node's scale-up (NVLink) domain, which the
        summary does not count as a network hop.
        """
        rail = fat_tree_summary(self.rail_tree)
        return TopologySummary(
            name=f"rail-only, {self.rails} rails of {rail.name}", family="rail-only", hosts=self.hosts,
            switches=self.switches, radix=self.rail_tree.radix, links=self.links, optical_links=self.links,
            diameter_hops=rail.diameter_hops, diameter_links=rail.diameter_links,
            bisection_links=self.rails * rail.bisection_links, port_bytes_per_s=self.rail_tree.port_bytes_per_s,
            hosts_cut_by_switch=rail.hosts_cut_by_switch, worst_link_loss=rail.worst_link_loss,
            failure_note=(rail.failure_note + "; no path joins two rails in the network: a GPU whose "
                          "rail is cut must forward through another GPU of its node"))


def rail_only(nodes, rails, *, radix, oversubscription=1.0, port_bytes_per_s=None):
    """Build a rail-only network: ``rails`` separate fat trees of ``nodes`` hosts each.

    Parameters
    ----------
    nodes : int
        Servers, >= 1.
    rails : int
        Network ports per server (8 on a DGX), >= 1.
    radix : int
        Ports per switch, even, in [2, 65,536].
    oversubscription : float
        Leaf oversubscription inside each rail, >= 1.
    port_bytes_per_s : float, optional
        Rate of one port, one direction [B/s], in (0, 1e18].

    Returns
    -------
    RailOnly

    References
    ----------
    W. Wang et al., arXiv:2307.12169, 2023, https://arxiv.org/abs/2307.12169.

    Examples
    --------
    1,024 DGX (8,192 GPUs) on 64-port switches: each rail is a 2-tier tree of
    32 leaves and 16 spines, 384 switches in all.

    >>> r = rail_only(1024, 8, radix=64)
    >>> r.rail_tree.tiers, r.switches, r.summary().diameter_hops
    (2, 384, 2)
    """
    nodes = check_integer("nodes", nodes, minimum=1)
    rails = check_integer("rails", rails, minimum=1)
    tree = fat_tree(nodes, radix=radix, oversubscription=oversubscription, port_bytes_per_s=port_bytes_per_s)
    return RailOnly(nodes=nodes, rails=rails, rail_tree=tree)


@dataclass(frozen=True)
class DirectConnect:
    """Aggregation blocks joined directly to each other (through circuit switches), no spine tier.

    Build it with :func:`direct_connect`.

    Attributes
    ----------
    clos : FatTree
        The three-tier fat tree whose pods are the blocks (its cores are not built).
    links_per_block_pair : int
        Links between every two blocks, :math:`t = \\lfloor U / (B - 1) \\rfloor` [-].
    circuit_switch_ports : int or None
        Ports of one optical circuit switch, or None to count none.
    """

    clos: FatTree
    links_per_block_pair: int
    circuit_switch_ports: int | None = None

    @property
    def blocks(self) -> int:
        """Aggregation blocks, *B* [-]."""
        return self.clos.pods

    @property
    def uplinks_per_block(self) -> int:
        """Up-ports of one block's spines, :math:`U` = spines per pod times radix/2 [-]."""
        return self.clos.spines_per_pod * (self.clos.radix // 2)

    @property
    def hosts(self) -> int:
        """Hosts [-]."""
        return self.clos.hosts

    @property
    def switches(self) -> int:
        """Leaves and spines: the Clos without its cores [-]."""
        return self.clos.leaves + self.clos.spines

    @property
    def block_links(self) -> int:
        """Links between blocks, :math:`t B (B - 1) / 2` [-]."""
        b = self.blocks
        return self.links_per_block_pair * b * (b - 1) // 2

    @property
    def links(self) -> int:
        """Host, leaf-spine and block-to-block links [-]."""
        return self.clos.links_per_tier[0] + self.clos.links_per_tier[1] + self.block_links

    @property
    def circuit_switches(self) -> int:
        """OCS needed to patch every block link (two ports each), or 0 if not counted [-]."""
        if self.circuit_switch_ports is None:
            return 0
        return -(-2 * self.block_links // self.circuit_switch_ports)

    @property
    def bisection_links(self) -> int:
        """Direct links across a cut of the blocks into halves, :math:`\\lfloor B/2 \\rfloor \\lceil B/2 \\rceil t` [-]."""
        b = self.blocks
        return (b // 2) * (b - b // 2) * self.links_per_block_pair

    def summary(self) -> TopologySummary:
        """This fabric as a :class:`~interconnect_lab.topology.TopologySummary`.

        The minimal path between blocks is leaf, spine, spine, leaf: 3 hops.
        Traffic that transits a third block (Jupiter sends 40 % that way) takes
        more. Every link is optical.
        """
        t = self.links_per_block_pair
        return TopologySummary(
            name=f"direct-connect, {self.blocks} blocks, radix {self.clos.radix}", family="direct-connect",
            hosts=self.hosts, switches=self.switches, radix=self.clos.radix, links=self.links,
            optical_links=self.links, circuit_switches=self.circuit_switches, diameter_hops=3,
            diameter_links=5, bisection_links=float(self.bisection_links),
            port_bytes_per_s=self.clos.port_bytes_per_s, hosts_cut_by_switch=self.clos.leaf_down_ports,
            worst_link_loss=1.0 / t,
            failure_note=(f"a leaf failure cuts its {self.clos.leaf_down_ports} hosts; a block-to-block link "
                          f"failure removes 1/{t} of the direct capacity between two blocks (the rest "
                          "can transit a third block)"))


def direct_connect(hosts, *, radix, circuit_switch_ports=None, port_bytes_per_s=None):
    """Build a direct-connect fabric: the pods of a 3-tier fat tree, wired block to block.

    .. math:: U = S \\frac{k}{2}, \\qquad t = \\left\\lfloor \\frac{U}{B - 1} \\right\\rfloor,
              \\qquad L_\\text{blocks} = t \\frac{B (B - 1)}{2}

    for *B* blocks of *S* spines of radix *k*. A 3-tier fat tree spends
    :math:`B U` links and :math:`k^2/4` core switches on the same job.

    Parameters
    ----------
    hosts : int
        Hosts, more than one pod holds (:math:`k^2/4`), >= 1.
    radix : int
        Ports per switch *k*, even, in [2, 65,536].
    circuit_switch_ports : int, optional
        Ports of one optical circuit switch (136 for Google's Palomar), to count them.
    port_bytes_per_s : float, optional
        Rate of one port, one direction [B/s], in (0, 1e18].

    Returns
    -------
    DirectConnect

    Raises
    ------
    ValueError
        If the hosts fit one pod (there is nothing to connect) or a count is out of range.

    References
    ----------
    L. Poutievski et al., SIGCOMM 2022, https://doi.org/10.1145/3544216.3544265.

    Examples
    --------
    8,192 hosts on 64-port switches: 8 blocks of 1,024 hosts, 146 links between
    every two blocks, and none of the fat tree's 128 core switches.

    >>> d = direct_connect(8192, radix=64)
    >>> d.blocks, d.links_per_block_pair, d.switches, d.clos.cores
    (8, 146, 512, 128)
    """
    hosts = check_integer("hosts", hosts, minimum=1)
    if circuit_switch_ports is not None:
        circuit_switch_ports = check_integer("circuit_switch_ports", circuit_switch_ports, minimum=2)
    if port_bytes_per_s is not None:
        port_bytes_per_s = check_number("port_bytes_per_s", port_bytes_per_s, unit="B/s", minimum=0,
                                        min_inclusive=False, maximum=1e18, scalar=True)
    clos = fat_tree(hosts, radix=radix, tiers=3, port_bytes_per_s=port_bytes_per_s)
    if clos.pods < 2:
        raise ValueError(f"hosts = {hosts} fit one pod of radix-{radix} switches (at most "
                         f"{clos.leaves_per_pod * clos.leaf_down_ports}): a direct-connect fabric needs >= 2 "
                         "blocks; give more hosts or use fat_tree")
    uplinks = clos.spines_per_pod * (clos.radix // 2)
    return DirectConnect(clos=clos, links_per_block_pair=uplinks // (clos.pods - 1),
                         circuit_switch_ports=circuit_switch_ports)
