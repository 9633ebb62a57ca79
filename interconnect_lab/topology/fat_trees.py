"""Fat trees: folded-Clos networks of 1, 2 or 3 tiers, counted by the wiring rules.

The wiring rules, the optics assumption and the references are in the
package's documentation, :mod:`interconnect_lab.topology`; this module holds
:func:`fat_tree`, :func:`max_hosts` and the path latency of small messages.
"""


from __future__ import annotations

import math
from dataclasses import dataclass
from types import MappingProxyType

from .. import catalog
from .._lookup import resolve
from .._validation import NotPossible, check_choice, check_integer, check_number

__all__ = ["FatTree", "fat_tree", "max_hosts", "PATHS", "PathLatency", "path_latency", "MAX_RADIX"]

#: Most ports a switch may have in a fat tree [-]: hundreds of times today's largest switch chips
#: (144 ports in the catalog, 512 on a Tomahawk 6). Wiring a tree looks for divisors of the port
#: counts, which takes time in proportion to the radix: a prime half-radix of 60 million took 3 s.
MAX_RADIX = 2 ** 16


# Fat trees ----------------------------------------------------------------------------------

#: Where two hosts sit, and how many switches a shortest path between them crosses.
PATHS = MappingProxyType({
    "same leaf": 1,     # host - leaf - host
    "same pod": 3,      # host - leaf - spine - leaf - host
    "across core": 5,   # host - leaf - spine - core - spine - leaf - host
})


@dataclass(frozen=True)
class FatTree:
    """A folded-Clos fat tree: its shape and what it takes to build it.

    Build it with :func:`fat_tree`. The first group of attributes describes the
    tree (enough for the flow simulator to build its graph by the wiring rules
    in :mod:`interconnect_lab.topology`); the counts follow from them.

    Attributes
    ----------
    hosts : int
        Network endpoints attached (GPU network ports, plus any management ports).
    radix : int
        Ports per switch, *k* [-].
    tiers : int
        Switch tiers: 1 (one switch), 2 (leaf-spine) or 3 (leaf-spine-core).
    oversubscription : float
        Leaf down-ports over up-ports [-]; 1 is non-blocking.
    rails : int
        Network ports per node wired rail by rail; 1 is not rail-optimized.
    leaf_down_ports, leaf_up_ports : int
        Ports of a leaf towards hosts and towards spines.
    leaves, spines, cores : int
        Switches in each tier (``spines`` and ``cores`` are 0 where the tier is absent).
    pods : int
        Pods (3 tiers); 1 for a 2-tier tree, 0 for a single switch.
    leaves_per_pod, spines_per_pod : int
        Leaves a full pod holds and spines every pod has.
    leaf_spine_parallel_links : int
        Links between each leaf and each spine of its pod.
    cores_per_group : int
        Cores in each of the ``spines_per_pod`` core groups (3 tiers).
    spine_core_parallel_links : int
        Links between each spine and each core of its group (3 tiers).
    port_bytes_per_s : float or None
        Rate of one port, one direction [B/s]; None if not given.
    switch : str or None
        Catalog name of the switch, if the tree was built from one.
    switch_latency_s : float or None
        Port-to-port latency of one switch where the catalog sources one [s].
    """

    hosts: int
    radix: int
    tiers: int
    oversubscription: float
    rails: int
    leaf_down_ports: int
    leaf_up_ports: int
    leaves: int
    spines: int
    cores: int
    pods: int
    leaves_per_pod: int
    spines_per_pod: int
    leaf_spine_parallel_links: int
    cores_per_group: int
    spine_core_parallel_links: int
    port_bytes_per_s: float | None = None
    switch: str | None = None
    switch_latency_s: float | None = None

    # Counts -------------------------------------------------------------------------------
    @property
    def nodes(self) -> int:
        """Nodes (servers) the hosts belong to: ``ceil(hosts / rails)`` [-]."""
        return -(-self.hosts // self.rails)

    @property
    def rail_groups(self) -> int:
        """Rail groups (NVIDIA's scalable units): ``leaves / rails`` [-]."""
        return self.leaves // self.rails

    @property
    def switches_per_tier(self) -> tuple[int, ...]:
        """Switches in each tier, leaf first [-]."""
        return (self.leaves, self.spines, self.cores)[: self.tiers]

    @property
    def switches(self) -> int:
        """All switches [-]."""
        return self.leaves + self.spines + self.cores

    @property
    def links_per_tier(self) -> tuple[int, ...]:
        """Links host-leaf, then leaf-spine, then spine-core [-].

        Every switch's up-ports are cabled (wiring rule 5), so the leaf-spine
        links are ``leaves * leaf_up_ports`` and the spine-core links
        ``spines * radix / 2``.
        """
        counts = [self.hosts]
        if self.tiers >= 2:
            counts.append(self.leaves * self.leaf_up_ports)
        if self.tiers == 3:
            counts.append(self.spines * (self.radix // 2))
        return tuple(counts)

    @property
    def cables(self) -> int:
        """Cables: one per link [-]."""
        return sum(self.links_per_tier)

    @property
    def host_transceivers(self) -> int:
        """Transceiver port ends at the hosts: one per host link [-]."""
        return self.hosts

    @property
    def switch_transceivers(self) -> int:
        """Transceiver port ends at switch ports: one per host link, two per switch-switch link [-]."""
        return self.hosts + 2 * (self.cables - self.hosts)

    @property
    def transceivers(self) -> int:
        """All transceiver port ends: two per link (every link is optical) [-]."""
        return 2 * self.cables

    @property
    def max_hosts(self) -> int:
        """Most hosts a tree of this radix, tiers, oversubscription and rails can take [-]."""
        return _max_hosts(self.radix, self.tiers, self.leaf_down_ports, self.rails)

    # Bandwidth and latency ----------------------------------------------------------------
    @property
    def bisection_ports(self) -> float:
        """Host-port rates that cross the worst balanced cut, one direction [-].

        .. math:: P_\\text{bisection} = \\min(H,\\ L\\, u) / 2

        for *H* hosts spread evenly over *L* leaves with *u* up-ports each; above
        the leaves the tree is non-blocking. A full non-blocking tree gives
        :math:`H/2`, and oversubscription *r* divides that by *r*.
        """
        if self.tiers == 1:
            return self.hosts / 2
        return min(self.hosts, self.leaves * self.leaf_up_ports) / 2

    @property
    def bisection_bytes_per_s(self) -> float | None:
        """Bisection bandwidth, one direction [B/s]; None if no port rate was given.

        .. math:: B_\\text{bisection} = P_\\text{bisection} \\, b_\\text{port}
        """
        if self.port_bytes_per_s is None:
            return None
        return self.bisection_ports * self.port_bytes_per_s

    def switch_hops(self, where):
        """Switches crossed between two hosts, by where they sit (see ``topology.PATHS``).

        ``"same leaf"`` (1), ``"same pod"`` (3; in a 2-tier tree, any two
        leaves) or ``"across core"`` (5; 3 tiers only). In a rail-optimized tree
        two GPUs share a leaf only if they are on the same rail of the same rail
        group; NCCL moves cross-rail data over NVLink first (PXN) to stay there.
        """
        check_choice("path", where, PATHS)
        available = {1: ("same leaf",), 2: ("same leaf", "same pod"),
                     3: tuple(PATHS)}[self.tiers]
        if where not in available:
            raise ValueError(
                f"a {self.tiers}-tier fat tree has no {where!r} path; valid paths are: "
                + ", ".join(repr(p) for p in available))
        return PATHS[where]

    def latency_s(self, where, *, switch_latency_s=None, link_latency_s=0.0):
        """One-way latency between two hosts through the switches, unloaded [s].

        .. math:: t = n_\\text{switch}\\, t_\\text{switch} + (n_\\text{switch} + 1)\\, t_\\text{link}

        Parameters
        ----------
        where : str
            ``"same leaf"``, ``"same pod"`` or ``"across core"``.
        switch_latency_s : float, optional
            Port-to-port latency of one switch [s]. Defaults to the catalog's
            figure for the tree's switch; required where the catalog has none
            (published figures for NDR switches conflict).
        link_latency_s : float
            Latency of one link: propagation (about 5 ns per metre of fibre) and
            any transceiver delay [s], >= 0.

        Returns
        -------
        float
            Latency [s]; NIC and software time are not included.
        """
        hops = self.switch_hops(where)
        if switch_latency_s is None:
            switch_latency_s = self.switch_latency_s
        if switch_latency_s is None:
            raise ValueError(
                f"switch_latency_s is needed: the catalog gives no latency for switch "
                f"{self.switch!r}; pass one in seconds (e.g. 130e-9)")
        switch_latency_s = check_number("switch_latency_s", switch_latency_s, unit="s", minimum=0)
        link_latency_s = check_number("link_latency_s", link_latency_s, unit="s", minimum=0)
        return hops * switch_latency_s + (hops + 1) * link_latency_s


def max_hosts(radix, tiers, *, oversubscription=1.0, rails=1):
    """Most hosts a fat tree of radix-``radix`` switches and ``tiers`` tiers can attach.

    For a non-blocking tree that is not rail-optimized (Al-Fares et al. 2008):

    .. math:: H_1 = k, \\qquad H_2 = k^2/2, \\qquad H_3 = k^3/4

    Oversubscription gives each leaf more down-ports (``radix - up``); rails
    make leaves come in whole rail groups (see the wiring rules of
    :mod:`interconnect_lab.topology`), which can leave a few ports unused.

    Parameters
    ----------
    radix : int
        Ports per switch *k*, even, in [2, 65,536] (``MAX_RADIX``).
    tiers : {1, 2, 3}
        Switch tiers.
    oversubscription : float
        Leaf down-ports over up-ports, >= 1 (1 for a single switch).
    rails : int
        Network ports per node wired rail by rail; 1 if not rail-optimized.

    Returns
    -------
    int
        Hosts [-].

    Raises
    ------
    ValueError
        If the radix is odd, a count is out of range, or the oversubscription
        cannot be built from the radix.

    References
    ----------
    M. Al-Fares, A. Loukissas, A. Vahdat, SIGCOMM 2008,
    https://doi.org/10.1145/1402958.1402967.

    Examples
    --------
    >>> max_hosts(64, 2), max_hosts(64, 3), max_hosts(144, 2)
    (2048, 65536, 10368)
    >>> max_hosts(64, 2, oversubscription=3)
    3072
    """
    radix = check_integer("radix", radix, minimum=2, maximum=MAX_RADIX)
    if radix % 2:
        raise ValueError(f"radix = {radix} is not valid: it must be an even whole number >= 2")
    tiers = check_integer("tiers", tiers, minimum=1, maximum=3)
    oversubscription = check_number("oversubscription", oversubscription, minimum=1, maximum=1e6, scalar=True)
    rails = check_integer("rails", rails, minimum=1, maximum=radix)
    if tiers == 1:
        if oversubscription != 1:
            raise NotPossible(
                f"oversubscription = {oversubscription:g} is not valid for a 1-tier tree "
                "(a single switch has no up-ports): it must be 1",
                plain="A single switch has no links up to oversubscribe: a one-tier tree is non-blocking.")
        return radix
    if tiers == 3 and rails > radix // 2:
        raise ValueError(
            f"rails = {rails} is not valid for a 3-tier tree of radix-{radix} switches: "
            f"it must be <= {radix // 2}")
    down, _ = _leaf_ports(radix, oversubscription)
    return _max_hosts(radix, tiers, down, rails)


@dataclass(frozen=True)
class PathLatency:
    """One-way latency of a small message between two hosts, by where the time goes.

    Build it with :func:`path_latency`. Every time is for one trip from
    sender to receiver [s].

    Attributes
    ----------
    switch_hops : int
        Switches crossed [-].
    software_s : float
        Software at both ends together: posting the message and picking it
        up, plus any operating-system network stack on the way [s].
    nic_s : float
        Network adapters at both ends together (transmit and receive paths) [s].
    switches_s : float
        ``switch_hops`` times one switch's port-to-port latency [s].
    links_s : float
        ``switch_hops + 1`` links: propagation and any transceiver delay [s].
    """

    switch_hops: int
    software_s: float
    nic_s: float
    switches_s: float
    links_s: float

    #: The parts in the order tables and figures show them.
    PARTS = ("software", "NICs", "switches", "links")

    @property
    def total_s(self) -> float:
        """One-way latency [s]."""
        return self.software_s + self.nic_s + self.switches_s + self.links_s

    @property
    def fabric_s(self) -> float:
        """The part the network itself adds: switches and links [s]."""
        return self.switches_s + self.links_s

    @property
    def parts_s(self) -> dict[str, float]:
        """Time by part, in the order of :attr:`PARTS` [s]."""
        return dict(zip(self.PARTS, (self.software_s, self.nic_s, self.switches_s, self.links_s)))


def path_latency(switch_hops, *, software_s, nic_s, switch_latency_s, link_latency_s=0.0):
    """One-way latency of a small message: software and NICs at the ends, switches between.

    .. math::

        t = t_\\text{software} + t_\\text{NIC} + n\\, t_\\text{switch}
            + (n + 1)\\, t_\\text{link}

    for a path through *n* switches (:meth:`FatTree.switch_hops` gives *n*
    for two hosts of a fat tree). Serialization of the message itself is left
    out: the model is for messages small enough that it is negligible (64 B
    take 1.3 ns at 400 Gb/s).

    Parameters
    ----------
    switch_hops : int
        Switches crossed, in [0, 1000] (0: two hosts cabled back to back).
    software_s : float
        Software time at both ends together, one trip [s], in [0, 3600].
    nic_s : float
        Adapter time at both ends together, one trip [s], in [0, 3600].
    switch_latency_s : float
        Port-to-port latency of one switch [s], in [0, 3600].
    link_latency_s : float
        Latency of one link (about 5 ns per metre of fibre) [s], in [0, 3600].

    Returns
    -------
    PathLatency

    Examples
    --------
    Three switch hops of 130 ns between two RDMA endpoints that spend 1 us
    in software and 1 us in their NICs:

    >>> from interconnect_lab import units as u
    >>> rdma = path_latency(3, software_s=1 * u.us, nic_s=1 * u.us, switch_latency_s=130 * u.ns)
    >>> round(rdma.total_s / u.us, 2), round(rdma.fabric_s / rdma.total_s, 3)
    (2.39, 0.163)
    """
    switch_hops = check_integer("switch_hops", switch_hops, minimum=0, maximum=1000)
    software_s = check_number("software_s", software_s, unit="s", minimum=0, maximum=3600, scalar=True)
    nic_s = check_number("nic_s", nic_s, unit="s", minimum=0, maximum=3600, scalar=True)
    switch_latency_s = check_number("switch_latency_s", switch_latency_s, unit="s", minimum=0, maximum=3600, scalar=True)
    link_latency_s = check_number("link_latency_s", link_latency_s, unit="s", minimum=0, maximum=3600, scalar=True)
    return PathLatency(switch_hops=switch_hops, software_s=software_s, nic_s=nic_s,
                       switches_s=switch_hops * switch_latency_s,
                       links_s=(switch_hops + 1) * link_latency_s)


def _smallest_divisor_at_least(n, minimum):
    """Smallest divisor of ``n`` that is >= ``minimum`` (``n`` itself at worst)."""
    for d in range(max(1, math.ceil(minimum)), n + 1):
        if n % d == 0:
            return d
    return n


def _leaves_per_pod(radix, rails):
    return rails * ((radix // 2) // rails)


def _max_hosts(radix, tiers, down, rails):
    if tiers == 1:
        return radix
    if tiers == 2:
        return rails * (radix // rails) * down
    return radix * _leaves_per_pod(radix, rails) * down


def _leaf_ports(radix, oversubscription):
    up_exact = radix / (1 + oversubscription)
    up = round(up_exact)
    if up < 1 or abs(up - up_exact) > 1e-9 * radix:
        examples = ", ".join(f"{(radix - u) / u:g} ({radix - u}:{u})"
                             for u in (radix // 2, radix // 4, radix // 8) if u >= 1)
        raise ValueError(
            f"oversubscription = {oversubscription:g} cannot be built from radix-{radix} "
            f"switches: a leaf's {radix} ports must split into whole numbers of down- and "
            f"up-ports, so it must be (radix - up) / up for a whole number up, e.g. {examples}")
    return radix - up, up


def fat_tree(hosts, radix=None, *, switch=None, tiers=None, oversubscription=1.0, rails=1,
             port_bytes_per_s=None):
    """Build a fat tree for ``hosts`` endpoints from switches of radix ``radix``.

    The counts follow the wiring rules of :mod:`interconnect_lab.topology`. For
    a full non-blocking tree (``oversubscription=1``, ``rails=1``):

    .. math::

        H_2 = k^2/2,\\ S_2 = 3k/2; \\qquad H_3 = k^3/4,\\ S_3 = 5k^2/4

    Parameters
    ----------
    hosts : int
        Endpoints to attach (GPU network ports, plus management ports), >= 1.
    radix : int, optional
        Ports per switch *k*, even, in [2, 65,536] (``MAX_RADIX``). Give ``radix`` or ``switch``.
    switch : str or catalog.Switch, optional
        A catalog switch: its port count, port rate and latency are used.
    tiers : {1, 2, 3} or None
        Switch tiers; None picks the fewest that fit ``hosts``. One tier is a
        single switch (no oversubscription).
    oversubscription : float
        Leaf down-ports over up-ports, >= 1; ``radix / (1 + oversubscription)``
        must be a whole number.
    rails : int
        Network ports per node wired rail by rail (8 on a DGX H100); 1 for a
        tree that is not rail-optimized.
    port_bytes_per_s : float, optional
        Port rate, one direction [B/s], in (0, 1e18]; taken from ``switch`` when given.

    Returns
    -------
    FatTree

    Raises
    ------
    ValueError
        If a count is out of range, the radix is odd or below 2, the
        oversubscription cannot be built from the radix, or the hosts do not fit
        the tiers.
    TypeError
        If both or neither of ``radix`` and ``switch`` are given.

    References
    ----------
    M. Al-Fares, A. Loukissas, A. Vahdat, SIGCOMM 2008,
    https://doi.org/10.1145/1402958.1402967 (p. 66: "a fat-tree built with
    k-port switches supports k^3/4 hosts").

    Examples
    --------
    Al-Fares's 3-tier tree of 4-port switches:

    >>> tree = fat_tree(16, radix=4, tiers=3)
    >>> tree.switches_per_tier, tree.switches == 5 * 4**2 // 4
    ((8, 8, 4), True)

    NVIDIA's 1-SU DGX H100 SuperPOD: 31 DGX (248 GPU ports) and 4 UFM ports on
    64-port switches, rail-optimized over 8 rails:

    >>> pod = fat_tree(252, radix=64, rails=8)
    >>> pod.tiers, pod.leaves, pod.spines, pod.links_per_tier
    (2, 8, 4, (252, 256))
    """
    hosts = check_integer("hosts", hosts, minimum=1)
    if (radix is None) == (switch is None):
        raise TypeError("give exactly one of radix (a port count) and switch (a catalog switch)")
    switch_name = switch_latency = None
    if switch is not None:
        entry = resolve("switch", switch, catalog.Switch, catalog.SWITCHES)
        radix = entry.ports
        switch_name, switch_latency = entry.name, entry.latency_s
        if port_bytes_per_s is None:
            port_bytes_per_s = entry.port_per_direction_bytes_per_s
    radix = check_integer("radix", radix, minimum=2, maximum=MAX_RADIX)
    if radix % 2:
        raise ValueError(
            f"radix = {radix} is not valid: it must be an even whole number >= 2, because "
            "each switch splits its ports evenly between down- and up-links (e.g. 64)")
    if port_bytes_per_s is not None:
        port_bytes_per_s = check_number("port_bytes_per_s", port_bytes_per_s, unit="B/s",
                                        minimum=0, min_inclusive=False, maximum=1e18, scalar=True)
    oversubscription = check_number("oversubscription", oversubscription, minimum=1, maximum=1e6, scalar=True)
    rails = check_integer("rails", rails, minimum=1, maximum=radix)
    if tiers is not None:
        tiers = check_integer("tiers", tiers, minimum=1, maximum=3)
        if tiers == 1 and oversubscription != 1:
            raise ValueError(
                f"oversubscription = {oversubscription:g} is not valid for a 1-tier tree "
                "(a single switch has no up-ports): it must be 1")
    down, up = _leaf_ports(radix, oversubscription)
    if tiers == 3 and rails > radix // 2:
        raise NotPossible(
            f"rails = {rails} is not valid for a 3-tier tree of radix-{radix} switches: a pod "
            f"holds whole rail groups of at most radix/2 = {radix // 2} leaves, so it must be "
            f"<= {radix // 2}",
            plain=f"A three-tier tree of {radix}-port switches takes at most {radix // 2} rails (a pod holds "
                  f"whole groups of leaves, one per rail); {rails} is too many.")

    candidates = (tiers,) if tiers is not None else (
        (1, 2, 3) if oversubscription == 1 else (2, 3))
    # A 3-tier pod holds whole rail groups of at most radix/2 leaves.
    buildable = [t for t in candidates if not (t == 3 and rails > radix // 2)]
    for t in buildable:
        if hosts <= _max_hosts(radix, t, radix if t == 1 else down, rails):
            tiers = t
            break
    else:
        t = buildable[-1]
        limit = _max_hosts(radix, t, radix if t == 1 else down, rails)
        design = ", ".join(([f"{oversubscription:g}:1 oversubscribed"] if oversubscription != 1 else [])
                           + ([f"{rails} rails"] if rails > 1 else []))
        design = f" ({design})" if design else ""
        more = ("a third tier, " if t < 3 else "") + "switches with more ports or more oversubscription"
        raise NotPossible(
            f"hosts = {hosts} is not valid for a {t}-tier fat tree of radix-{radix} switches "
            f"(oversubscription {oversubscription:g}, rails {rails}): it must be <= {limit}; "
            "use more tiers, a larger radix or more oversubscription",
            plain=f"A {('one', 'two', 'three')[t - 1]}-tier fat tree of {radix}-port switches{design} connects at "
                  f"most {limit:,} hosts, fewer than {hosts:,}: it takes {more}.")

    common = dict(hosts=hosts, radix=radix, tiers=tiers, oversubscription=oversubscription,
                  rails=rails, port_bytes_per_s=port_bytes_per_s, switch=switch_name,
                  switch_latency_s=switch_latency)
    if tiers == 1:
        return FatTree(leaf_down_ports=radix, leaf_up_ports=0, leaves=1, spines=0, cores=0,
                       pods=0, leaves_per_pod=1, spines_per_pod=0, leaf_spine_parallel_links=0,
                       cores_per_group=0, spine_core_parallel_links=0, **common)

    nodes = -(-hosts // rails)
    leaves = rails * -(-nodes // down)
    if tiers == 2:
        spines = _smallest_divisor_at_least(up, leaves * up / radix)
        return FatTree(leaf_down_ports=down, leaf_up_ports=up, leaves=leaves, spines=spines,
                       cores=0, pods=1, leaves_per_pod=leaves, spines_per_pod=spines,
                       leaf_spine_parallel_links=up // spines, cores_per_group=0,
                       spine_core_parallel_links=0, **common)

    half = radix // 2
    leaves_per_pod = _leaves_per_pod(radix, rails)
    pods = -(-leaves // leaves_per_pod)
    spines_per_pod = _smallest_divisor_at_least(up, leaves_per_pod * up / half)
    cores_per_group = _smallest_divisor_at_least(half, pods * half / radix)
    return FatTree(leaf_down_ports=down, leaf_up_ports=up, leaves=leaves,
                   spines=pods * spines_per_pod, cores=spines_per_pod * cores_per_group,
                   pods=pods, leaves_per_pod=leaves_per_pod, spines_per_pod=spines_per_pod,
                   leaf_spine_parallel_links=up // spines_per_pod,
                   cores_per_group=cores_per_group,
                   spine_core_parallel_links=half // cores_per_group, **common)
