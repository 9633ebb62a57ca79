"""Dragonfly networks: groups of routers wired all-to-all, groups joined by global links.

A dragonfly (Kim et al. 2008) is built from routers of radix
:math:`k = p + (a - 1) + h`: each router serves *p* terminals, has a local
link to each of the other :math:`a - 1` routers of its *group*, and *h*
global links to other groups. A group is one very-high-radix virtual router
with :math:`a h` global ports, so the largest dragonfly has
:math:`g = a h + 1` groups, one global link between every pair of groups:

.. math:: N_\\text{max} = a p (a h + 1)

A minimal route goes local, global, local: at most 3 router-to-router hops,
whatever the size. Valiant routing (non-minimal, for adversarial traffic)
first goes to a random intermediate group: at most 5 hops. Kim et al.
balance the network with :math:`a = 2p = 2h`.

HPE Slingshot (Cray EX systems such as Frontier) is a dragonfly of Rosetta
switches with 64 ports of 200 Gb/s: 16 to endpoints, 31 local, 17 global,
32 switches per group; ``SLINGSHOT`` holds that wiring and its sources.

Wiring of the global links (used by the flow simulator): group *i*'s global
ports are numbered :math:`q = r h + s` (router *r*, port *s*). With
:math:`t = \\lfloor a h / (g - 1) \\rfloor` links between every pair of groups,
link *m* of the pair (*i*, *j*) leaves group *i* on port
:math:`((j - i - 1) \\bmod g) + m (g - 1)`; the far end uses the same formula
with *i* and *j* swapped (the "absolute" arrangement).

References
----------
J. Kim, W. J. Dally, S. Scott, D. Abts, "Technology-Driven, Highly-Scalable
Dragonfly Topology", ISCA 2008, https://doi.org/10.1109/ISCA.2008.19.

D. De Sensi, S. Di Girolamo, K. H. McMahon, D. Roweth, T. Hoefler, "An
In-Depth Analysis of the Slingshot Interconnect", SC20,
https://arxiv.org/abs/2008.08886.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType

from .. import units as u
from .._validation import MAX_COUNT, check_integer, check_number
from ..sources import Source
from .summary import TopologySummary

__all__ = ["Dragonfly", "dragonfly", "dragonfly_max_hosts", "SLINGSHOT"]

_LOCKWOOD_SLINGSHOT = Source(
    title="G. Lockwood, Slingshot (notes)", year=2024, url="https://glennklockwood.com/garden/slingshot",
    note=("secondary: Rosetta is a 64-port 200G switch; at its maximum scale 32 switches per group, "
          "each with 16 L0 (endpoint), 31 L1 (local) and 17 L2 (global) ports, 545 groups of 512 "
          "endpoints. The page's total, 278,528 endpoints, is 544 groups; 545 x 512 = 279,040"),
)
_ALCF_AURORA = Source(
    title="Argonne Leadership Computing Facility, Aurora: Interconnect", year=2024,
    url="https://alcf.anl.gov/support-center/aurora/interconnect",
    note="'a 64-port switch (called Rosetta) with 12.8 Tb/s/dir per switch coming from 64 200 Gbps "
         "ports'; dragonfly with 'a diameter of just three network hops'",
)
_DE_SENSI = Source(
    title="D. De Sensi et al., An In-Depth Analysis of the Slingshot Interconnect (SC20)", year=2020,
    url="https://arxiv.org/abs/2008.08886",
    note="'high-radix switches, which allow building exascale and hyperscale datacenters networks "
         "with at most three switch-to-switch hops'",
)

#: HPE Slingshot's largest dragonfly: terminals, routers per group and global ports per router
#: of a 64-port Rosetta switch (p = 16, a = 32, h = 17), its port rate, the total one source
#: states (which does not match its own group count), and sources.
SLINGSHOT = MappingProxyType({
    "terminals_per_router": 16, "routers_per_group": 32, "global_links_per_router": 17,
    "port_bytes_per_s": 200 * u.Gbit_per_s, "lockwood_stated_endpoints": 278_528,
    "sources": (_LOCKWOOD_SLINGSHOT, _ALCF_AURORA, _DE_SENSI),
})


@dataclass(frozen=True)
class Dragonfly:
    """A dragonfly: *g* groups of *a* routers, each with *p* terminals and *h* global links.

    Build it with :func:`dragonfly`.

    Attributes
    ----------
    terminals_per_router : int
        *p* [-].
    routers_per_group : int
        *a* [-].
    global_links_per_router : int
        *h* [-].
    groups : int
        *g*, at most :math:`a h + 1` [-].
    port_bytes_per_s : float or None
        Rate of every link, one direction [B/s].
    """

    terminals_per_router: int
    routers_per_group: int
    global_links_per_router: int
    groups: int
    port_bytes_per_s: float | None = None

    @property
    def radix(self) -> int:
        """Router ports, :math:`k = p + a - 1 + h` [-]."""
        return self.terminals_per_router + self.routers_per_group - 1 + self.global_links_per_router

    @property
    def routers(self) -> int:
        """Routers, :math:`a g` [-]."""
        return self.routers_per_group * self.groups

    @property
    def hosts(self) -> int:
        """Terminals, :math:`a p g` [-]."""
        return self.routers * self.terminals_per_router

    @property
    def hosts_per_group(self) -> int:
        """Terminals of one group, :math:`a p` [-]."""
        return self.routers_per_group * self.terminals_per_router

    @property
    def links_per_group_pair(self) -> int:
        """Global links between every two groups, :math:`t = \\lfloor a h / (g - 1) \\rfloor` [-]."""
        if self.groups == 1:
            return 0
        return (self.routers_per_group * self.global_links_per_router) // (self.groups - 1)

    @property
    def local_links(self) -> int:
        """Router-to-router links inside groups, :math:`g \\, a (a - 1) / 2` [-]."""
        a = self.routers_per_group
        return self.groups * a * (a - 1) // 2

    @property
    def global_links(self) -> int:
        """Links between groups, :math:`t \\, g (g - 1) / 2` [-]."""
        return self.links_per_group_pair * self.groups * (self.groups - 1) // 2

    @property
    def unused_global_ports(self) -> int:
        """Global ports left unconnected so that every pair of groups gets the same *t* [-]."""
        return self.routers * self.global_links_per_router - 2 * self.global_links

    @property
    def links(self) -> int:
        """All cables: terminal, local and global links [-]."""
        return self.hosts + self.local_links + self.global_links

    @property
    def diameter_hops(self) -> int:
        """Router-to-router hops of the longest minimal route: local, global, local [-]."""
        if self.groups == 1:
            return 1 if self.routers_per_group > 1 else 0
        return 1 + 2 * (self.routers_per_group > 1)

    @property
    def valiant_diameter_hops(self) -> int:
        """Hops of the longest Valiant route (via an intermediate group): l-g-l-g-l [-]."""
        if self.groups < 3:
            return self.diameter_hops
        return 2 + 3 * (self.routers_per_group > 1)

    @property
    def bisection_links(self) -> int:
        """Global links across a cut of the groups into two halves, :math:`\\lfloor g/2 \\rfloor \\lceil g/2 \\rceil t` [-].

        Inside a group every router reaches every other directly, so for more
        than a few groups the cheapest cut that halves the terminals runs
        between groups. (With one group, the cut halves the group's routers.)
        """
        g = self.groups
        if g == 1:
            a = self.routers_per_group
            return (a // 2) * (a - a // 2)
        return (g // 2) * (g - g // 2) * self.links_per_group_pair

    def summary(self) -> TopologySummary:
        """This dragonfly as a :class:`~interconnect_lab.topology.TopologySummary`.

        Terminal and local links are copper (a group is a cabinet); global
        links are optical, as Kim et al. assume and Slingshot builds.
        """
        t = self.links_per_group_pair
        worst = 1.0 / t if t else 1.0
        note = (f"a router failure cuts its {self.terminals_per_router} terminals and 1/{self.routers_per_group} "
                "of its group's global links; a global link failure "
                + ("leaves that pair of groups no direct link: its traffic must take a non-minimal route"
                   if t == 1 else f"removes 1/{t} of the direct capacity between two groups"))
        return TopologySummary(
            name=(f"dragonfly (p={self.terminals_per_router}, a={self.routers_per_group}, "
                  f"h={self.global_links_per_router}, g={self.groups})"),
            family="dragonfly", hosts=self.hosts, switches=self.routers, radix=self.radix,
            links=self.links, optical_links=self.global_links, diameter_hops=self.diameter_hops,
            diameter_links=self.diameter_hops + 2, bisection_links=float(self.bisection_links),
            port_bytes_per_s=self.port_bytes_per_s, hosts_cut_by_switch=self.terminals_per_router,
            worst_link_loss=worst, failure_note=note)


def dragonfly_max_hosts(terminals_per_router, routers_per_group, global_links_per_router):
    """Terminals of the largest dragonfly, :math:`a p (a h + 1)`.

    Parameters
    ----------
    terminals_per_router : int
        *p*, >= 1.
    routers_per_group : int
        *a*, >= 1.
    global_links_per_router : int
        *h*, >= 1.

    Returns
    -------
    int
        Terminals [-].

    References
    ----------
    J. Kim et al., ISCA 2008, https://doi.org/10.1109/ISCA.2008.19 (the number
    of groups is at most :math:`a h + 1`).

    Examples
    --------
    Slingshot's 64-port Rosetta switch (p = 16, a = 32, h = 17):

    >>> dragonfly_max_hosts(16, 32, 17)
    279040
    """
    p = check_integer("terminals_per_router", terminals_per_router, minimum=1)
    a = check_integer("routers_per_group", routers_per_group, minimum=1)
    h = check_integer("global_links_per_router", global_links_per_router, minimum=1)
    return a * p * (a * h + 1)


def dragonfly(terminals_per_router, routers_per_group, global_links_per_router, groups=None, *,
              port_bytes_per_s=None):
    """Build a dragonfly of ``groups`` groups.

    .. math::

        k = p + a - 1 + h, \\qquad g \\le a h + 1, \\qquad N = a p g,
        \\qquad t = \\lfloor a h / (g - 1) \\rfloor

    Parameters
    ----------
    terminals_per_router : int
        *p*: terminals (hosts) on each router, >= 1.
    routers_per_group : int
        *a*: routers in each group, joined all-to-all, >= 1.
    global_links_per_router : int
        *h*: global links of each router, >= 1.
    groups : int, optional
        *g*, in [2, a h + 1]; the largest, :math:`a h + 1`, by default.
        The terminals, :math:`a p g`, must number at most 2**53.
    port_bytes_per_s : float, optional
        Rate of every link, one direction [B/s], in (0, 1e18].

    Returns
    -------
    Dragonfly

    Raises
    ------
    ValueError
        If a count is out of range.

    References
    ----------
    J. Kim et al., ISCA 2008, https://doi.org/10.1109/ISCA.2008.19.

    Examples
    --------
    Kim et al.'s balanced example, p = h = 4 and a = 8 (radix 15):

    >>> d = dragonfly(4, 8, 4)
    >>> d.radix, d.groups, d.hosts, d.diameter_hops, d.links_per_group_pair
    (15, 33, 1056, 3, 1)
    """
    p = check_integer("terminals_per_router", terminals_per_router, minimum=1)
    a = check_integer("routers_per_group", routers_per_group, minimum=1)
    h = check_integer("global_links_per_router", global_links_per_router, minimum=1)
    largest = a * h + 1
    groups = largest if groups is None else check_integer("groups", groups, minimum=2, maximum=largest)
    if a * p * groups > MAX_COUNT:
        raise ValueError(f"a dragonfly of {groups} groups of {a} routers with {p} terminals each has "
                         f"{a * p * groups} terminals: it must have at most 2**53 = {MAX_COUNT} (fewer "
                         "groups or smaller routers)")
    if port_bytes_per_s is not None:
        port_bytes_per_s = check_number("port_bytes_per_s", port_bytes_per_s, unit="B/s", minimum=0,
                                        min_inclusive=False, maximum=1e18, scalar=True)
    return Dragonfly(terminals_per_router=p, routers_per_group=a, global_links_per_router=h,
                     groups=groups, port_bytes_per_s=port_bytes_per_s)
