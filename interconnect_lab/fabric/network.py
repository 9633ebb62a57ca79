"""The link-level graph of a fat tree: directed links with a capacity each way.

The fat tree itself — how many leaves, spines, cores and pods, how hosts and
rails are placed — is described once, by
:func:`interconnect_lab.topology.fat_tree`, following the wiring rules
written there. :class:`Network` turns that description into links:

- every host has one link up to its leaf and one down from it (its NIC);
- every leaf has ``leaf_up_ports`` up-links, port ``a`` going to spine
  ``a // m1`` of its pod (``m1`` = ``leaf_spine_parallel_links``);
- in a three-tier tree every spine has ``radix / 2`` up-links, port ``c``
  going to core ``c // m2`` of its core group (``m2`` =
  ``spine_core_parallel_links``); spine ``s`` of every pod connects to core
  group ``s``.

Every cable is two directed links, one per direction, each with its own
capacity [B/s]. Links are numbered in blocks::

    [0, H)         host h -> its leaf                    ("nic up")
    [H, 2H)        leaf -> host h                        ("nic down")
    then L*A       leaf l, port a -> spine               ("leaf up")
    then L*A       spine -> leaf l, port a               ("leaf down")
    then P*S*C     spine (p, s), port c -> core          ("spine up", 3 tiers)
    then P*S*C     core -> spine (p, s), port c          ("spine down", 3 tiers)

with H hosts, L leaves, A leaf up-ports, P pods, S spines per pod and C spine
up-ports.

Why this numbering: in a fat tree the *way up* can be chosen freely and the
*way down* is then fixed. A shortest path is named by the up-ports it
takes: ``a`` at the source leaf (A choices) and, across pods, ``c`` at the
spine (C choices). It comes down through the same port numbers — core
``c // m2`` of group ``s`` to spine ``s`` of the destination pod over its
port ``c``, then spine ``s`` to the destination leaf over that leaf's port
``a`` — so where there are parallel links the way down mirrors the way up.
Routing never lists paths: the links of path ``(a, c)`` are a few integer
formulas, evaluated for a million flows at once.

References
----------
M. Al-Fares, A. Loukissas, A. Vahdat, "A Scalable, Commodity Data Center
Network Architecture", SIGCOMM 2008. https://doi.org/10.1145/1402958.1402967
"""

from __future__ import annotations

import dataclasses
import itertools
from dataclasses import dataclass

import numpy as np

from .._validation import check_choice, check_integer, check_number
from ..topology import FatTree

__all__ = ["Network", "LINK_KINDS", "CAPACITY_RANGE_BYTES_PER_S", "MAX_LINKS"]

#: The kinds of directed link, in the order of their blocks of link numbers.
LINK_KINDS = ("nic up", "nic down", "leaf up", "leaf down", "spine up", "spine down")

#: The capacities a working link may have, each direction [B/s]; 0 marks a failed one. The top is
#: 8 Eb/s, thousands of times any port; the bottom is as far below any. With flow sizes in
#: :data:`~interconnect_lab.fabric.traffic.FLOW_BYTES_RANGE` every time, rate and byte count the
#: flow simulator forms stays an ordinary float: no time overflows to inf or rounds to 0.
CAPACITY_RANGE_BYTES_PER_S = (1e-30, 1e18)

#: Most directed links a network of the flow simulator may have [-], fat tree or direct network
#: (:data:`~interconnect_lab.fabric.direct.MAX_DIRECT_LINKS` is this number): a three-tier fat tree
#: of 65,536 hosts on 64-port switches has 393,216, HPE Slingshot's largest dragonfly (279,040
#: hosts) 1,395,200 and a 64 x 64 x 64 torus 2,097,152. Building this many takes a few tenths of a
#: second at most, and simulating traffic on them far longer; a larger network is refused before
#: anything is allocated.
MAX_LINKS = 2 ** 21


def check_capacity(name, value, *, failed=False, scalar=False, maximum=None):
    """``value`` as a float (or float array) of link capacities [B/s], in :data:`CAPACITY_RANGE_BYTES_PER_S`.

    With ``failed``, 0 is valid too (a failed link); with ``scalar``, only a single number is;
    ``maximum`` raises the top of the range (for resources that pool many links).
    """
    low, high = CAPACITY_RANGE_BYTES_PER_S
    high = high if maximum is None else maximum
    valid = f"{'0 (a failed link) or ' if failed else ''}in [{low:g}, {high:g}] B/s"
    checked = check_number(name, value, unit="B/s", scalar=scalar)  # finite real numbers; the range is checked here
    array = np.asarray(checked)
    bad = ((array < low) & ~((array == 0) & failed)) | (array > high)
    if np.any(bad):
        offender = float(array[bad].flat[0]) if array.ndim else float(array)
        where = "" if array.ndim == 0 else f" (element {int(np.flatnonzero(bad)[0])})"
        raise ValueError(f"{name} = {offender:g} B/s{where} is not valid: it must be {valid}")
    return checked


@dataclass(frozen=True, eq=False)
class Network:
    """A fat tree as directed links with capacities.

    Parameters
    ----------
    tree : interconnect_lab.topology.FatTree
        The fat tree, from :func:`interconnect_lab.topology.fat_tree`.
    nic_capacity_bytes_per_s : float, optional
        Capacity of a host's link, each direction [B/s]; the tree's port rate
        by default. In :data:`CAPACITY_RANGE_BYTES_PER_S`, as every capacity.
    link_capacity_bytes_per_s : float, optional
        Capacity of a switch-to-switch link, each direction [B/s]; the tree's
        port rate by default, or the NIC's if the tree has none.
    capacity_bytes_per_s : numpy.ndarray, optional
        Per-link capacities [B/s] (0 for a failed link), overriding the two above. Use
        :meth:`with_link_capacity`, :meth:`with_failed_links` and
        :meth:`with_degraded_links` for what-if variants.

    Raises
    ------
    ValueError
        If a capacity is out of range or the tree would make more than
        :data:`MAX_LINKS` directed links (about 350,000 hosts in a
        non-blocking three-tier tree).

    Examples
    --------
    Eight hosts on four leaves and two spines (a radix-4 two-tier fat tree),
    100 B/s everywhere:

    >>> from interconnect_lab.topology import fat_tree
    >>> net = Network(fat_tree(8, radix=4, tiers=2), nic_capacity_bytes_per_s=100.0)
    >>> net.link_count, net.path_count(0, 7)
    (32, 2)
    >>> [net.link_name(link) for link in net.paths(0, 7)[1]]
    ['host 0 -> leaf 0', 'leaf 0 -> spine 1', 'spine 1 -> leaf 3', 'leaf 3 -> host 7']
    """

    tree: FatTree
    nic_capacity_bytes_per_s: float | None = None
    link_capacity_bytes_per_s: float | None = None
    capacity_bytes_per_s: np.ndarray | None = None
    leaf_of_host: np.ndarray = dataclasses.field(init=False, repr=False)

    def __post_init__(self):
        set_ = lambda name, value: object.__setattr__(self, name, value)  # noqa: E731
        if not isinstance(self.tree, FatTree):
            raise TypeError(f"tree must be a topology.FatTree (from topology.fat_tree), got "
                            f"{type(self.tree).__name__}")
        for name in ("nic_capacity_bytes_per_s", "link_capacity_bytes_per_s"):
            value = getattr(self, name)
            if value is None:
                value = self.tree.port_bytes_per_s
            if value is None and name == "link_capacity_bytes_per_s":
                value = self.nic_capacity_bytes_per_s
            if value is None:
                raise ValueError(f"{name} is needed: the fat tree has no port rate; pass one in B/s "
                                 "(e.g. 400 * units.Gbit_per_s) or build the tree from a catalog switch")
            set_(name, check_capacity(name, value, scalar=True))
        if self.link_count > MAX_LINKS:
            raise ValueError(f"tree has {self.hosts} hosts and would make a network of {self.link_count} directed "
                             f"links: the simulator's networks must have at most MAX_LINKS = {MAX_LINKS} "
                             "(a fat tree of fewer hosts)")
        set_("leaf_of_host", self._place_hosts())
        if self.capacity_bytes_per_s is None:
            capacity = np.full(self.link_count, self.link_capacity_bytes_per_s)
            capacity[: 2 * self.hosts] = self.nic_capacity_bytes_per_s
        else:
            capacity = np.array(check_capacity("capacity_bytes_per_s", self.capacity_bytes_per_s, failed=True),
                                dtype=float)
            if capacity.shape != (self.link_count,):
                raise ValueError(f"capacity_bytes_per_s has shape {capacity.shape}; this network has "
                                 f"{self.link_count} links")
        capacity.setflags(write=False)
        set_("capacity_bytes_per_s", capacity)

    def _place_hosts(self):
        """Leaf of every host, by the tree's wiring rules 1 and 2 (rails); one switch holds every rail."""
        hosts = np.arange(self.hosts)
        rails, down = self.tree.rails, self.tree.leaf_down_ports
        if rails == 1 or self.tiers == 1:
            return hosts // down
        node, rail = np.divmod(hosts, rails)
        return (node // down) * rails + rail

    # Shape, read from the tree ---------------------------------------------------
    @property
    def tiers(self) -> int:
        """Switch tiers: 1, 2 or 3 [-]."""
        return self.tree.tiers

    @property
    def hosts(self) -> int:
        """Hosts (network ports of endpoints) [-]."""
        return self.tree.hosts

    @property
    def leaves(self) -> int:
        """Leaf switches [-]."""
        return self.tree.leaves

    @property
    def leaves_per_pod(self) -> int:
        """Leaves a full pod holds [-]."""
        return self.tree.leaves_per_pod

    @property
    def pods(self) -> int:
        """Pods (1 for two tiers, and for one) [-]."""
        return max(self.tree.pods, 1)

    @property
    def leaf_up_ports(self) -> int:
        """Up-links of a leaf, A: the choices of a path at its first hop [-]."""
        return self.tree.leaf_up_ports if self.tiers > 1 else 0

    @property
    def spines_per_pod(self) -> int:
        """Spines of every pod, S [-]."""
        return self.tree.spines_per_pod

    @property
    def spine_up_ports(self) -> int:
        """Up-links of a spine to the core, C (0 below three tiers) [-]."""
        return self.tree.radix // 2 if self.tiers == 3 else 0

    @property
    def gpus_per_node(self) -> int:
        """Hosts per server: the tree's rails [-]."""
        return self.tree.rails

    # Sizes ----------------------------------------------------------------
    @property
    def link_count(self) -> int:
        """Number of directed links [-]."""
        return self._offsets[-1]

    @property
    def _offsets(self):
        h, la = self.hosts, self.leaves * self.leaf_up_ports
        psc = self.pods * self.spines_per_pod * self.spine_up_ports
        return list(itertools.accumulate((h, h, la, la, psc, psc), initial=0))  # Python ints: never overflow

    @property
    def pod_of_host(self) -> np.ndarray:
        """Pod of each host [-]."""
        return self.leaf_of_host // self.leaves_per_pod

    @property
    def _leaf_parallel(self) -> int:
        return max(self.tree.leaf_spine_parallel_links, 1)

    @property
    def _core_parallel(self) -> int:
        return max(self.tree.spine_core_parallel_links, 1)

    # Link numbers -----------------------------------------------------------
    def nic_link(self, host, direction="up"):
        """Link from ``host`` to its leaf (``"up"``) or back (``"down"``)."""
        host = self.check_hosts("host", host)
        return host + (0 if check_choice("direction", direction, ("up", "down")) == "up" else self.hosts)

    def leaf_link(self, leaf, port, direction="up"):
        """Link on up-port ``port`` of ``leaf``: to its spine (``"up"``) or from it (``"down"``)."""
        leaf = _check_index("leaf", leaf, self.leaves)
        port = _check_index("port", port, self.leaf_up_ports)
        block = 2 if check_choice("direction", direction, ("up", "down")) == "up" else 3
        return self._offsets[block] + leaf * self.leaf_up_ports + port

    def spine_link(self, pod, spine, port, direction="up"):
        """Link on up-port ``port`` of spine ``spine`` of ``pod``: to its core or from it (3 tiers)."""
        if self.tiers != 3:
            raise ValueError("spine up-links to a core exist only in a three-tier fat tree")
        pod = _check_index("pod", pod, self.pods)
        spine = _check_index("spine", spine, self.spines_per_pod)
        port = _check_index("port", port, self.spine_up_ports)
        block = 4 if check_choice("direction", direction, ("up", "down")) == "up" else 5
        return self._offsets[block] + (pod * self.spines_per_pod + spine) * self.spine_up_ports + port

    def links_of_kind(self, kind):
        """All link numbers of one kind (see :data:`LINK_KINDS`)."""
        block = LINK_KINDS.index(check_choice("link kind", kind, LINK_KINDS))
        return np.arange(self._offsets[block], self._offsets[block + 1])

    def link_kind(self, links):
        """Index into :data:`LINK_KINDS` of each link."""
        links = self.check_links("links", links)
        return np.searchsorted(self._offsets, links, side="right") - 1

    def reverse_link(self, links):
        """The link in the other direction of the same cable."""
        links = self.check_links("links", links)
        kind = self.link_kind(links)
        offsets = np.asarray(self._offsets)
        return offsets[kind ^ 1] + (links - offsets[kind])  # blocks come in (up, down) pairs

    def link_name(self, link) -> str:
        """Human-readable name of one link: ``'leaf 0 -> spine 1'``.

        Switches are numbered across the whole tree: spine ``p * S + s`` is
        spine ``s`` of pod ``p``; core ``s * Q + q`` is core ``q`` of group ``s``.
        Parallel links between the same two switches get ``(link j)``.
        """
        link = int(self.check_links("link", link))
        kind = int(self.link_kind(link))
        index = link - self._offsets[kind]
        if kind < 2:
            ends = (f"host {index}", f"leaf {int(self.leaf_of_host[index])}")
        elif kind < 4:
            leaf, port = divmod(index, self.leaf_up_ports)
            spine, parallel = divmod(port, self._leaf_parallel)
            ends = (f"leaf {leaf}", f"spine {(leaf // self.leaves_per_pod) * self.spines_per_pod + spine}"
                    + (f" (link {parallel})" if self._leaf_parallel > 1 else ""))
        else:
            spine, port = divmod(index, self.spine_up_ports)
            core, parallel = divmod(port, self._core_parallel)
            group = spine % self.spines_per_pod
            ends = (f"spine {spine}", f"core {group * self.tree.cores_per_group + core}"
                    + (f" (link {parallel})" if self._core_parallel > 1 else ""))
        return f"{ends[0]} -> {ends[1]}" if kind % 2 == 0 else f"{ends[1]} -> {ends[0]}"

    # Nodes ------------------------------------------------------------------
    @property
    def node_count(self) -> int:
        """Hosts and switches: hosts first, then leaves, spines and cores [-]."""
        return self.hosts + self.leaves + self.pods * self.spines_per_pod + (
            self.tree.cores if self.tiers == 3 else 0)

    def link_ends(self, links):
        """The node each link leaves and the node it enters (see :attr:`node_count` for numbering)."""
        links = np.atleast_1d(self.check_links("links", links))
        kind = self.link_kind(links)
        index = links - np.asarray(self._offsets)[kind]
        hosts, leaves = self.hosts, self.leaves
        spine_base = hosts + leaves
        core_base = spine_base + self.pods * self.spines_per_pod
        lower = np.zeros(links.size, dtype=np.int64)
        upper = np.zeros(links.size, dtype=np.int64)
        nic = kind < 2
        lower[nic] = index[nic]
        upper[nic] = hosts + self.leaf_of_host[index[nic]]
        leaf = (kind == 2) | (kind == 3)
        if np.any(leaf):
            leaf_index, port = np.divmod(index[leaf], self.leaf_up_ports)
            pod = leaf_index // self.leaves_per_pod
            lower[leaf] = hosts + leaf_index
            upper[leaf] = spine_base + pod * self.spines_per_pod + port // self._leaf_parallel
        core = kind >= 4
        if np.any(core):
            spine, port = np.divmod(index[core], self.spine_up_ports)
            group = spine % self.spines_per_pod
            lower[core] = spine_base + spine
            upper[core] = core_base + group * self.tree.cores_per_group + port // self._core_parallel
        up = kind % 2 == 0
        return np.where(up, lower, upper), np.where(up, upper, lower)

    # Paths ------------------------------------------------------------------
    def path_level(self, source, destination):
        """How high a shortest path climbs: 0 same leaf, 1 to a spine, 2 to a core."""
        leaf_s, leaf_d = self.leaf_of_host[source], self.leaf_of_host[destination]
        same_pod = leaf_s // self.leaves_per_pod == leaf_d // self.leaves_per_pod
        return np.where(leaf_s == leaf_d, 0, np.where(same_pod, 1, 2))

    @property
    def choices_per_level(self) -> np.ndarray:
        """Equal-cost paths at each level of :meth:`path_level`: 1, A, A*C [-]."""
        return np.array([1, self.leaf_up_ports, self.leaf_up_ports * max(self.spine_up_ports, 1)])

    def path_count(self, source, destination):
        """Number of equal-cost shortest paths between hosts (ignoring failures) [-].

        1 under the same leaf, A (the leaf's up-ports) within a pod, A*C
        across pods (C: a spine's up-ports).
        """
        source = self.check_hosts("source", source)
        destination = self.check_hosts("destination", destination)
        result = self.choices_per_level[self.path_level(source, destination)]
        return int(result) if np.ndim(result) == 0 else result

    def path_links(self, source, destination, leaf_port, spine_port):
        """Links of shortest paths named by their up-ports, for many flows at once.

        Parameters
        ----------
        source, destination : array_like of int
            Hosts of each flow.
        leaf_port : array_like of int
            Up-port ``a`` in ``[0, A)`` taken at the source leaf.
        spine_port : array_like of int
            Up-port ``c`` in ``[0, C)`` taken at the spine (ignored unless the
            path crosses pods).

        Returns
        -------
        numpy.ndarray
            ``(flows, 6)`` link numbers in path order: NIC up, leaf up, spine
            up, spine down, leaf down, NIC down; ``-1`` for hops a shorter path
            does not take.
        """
        source, destination = np.asarray(source), np.asarray(destination)
        leaf_port, spine_port = np.asarray(leaf_port), np.asarray(spine_port)
        leaf_s, leaf_d = self.leaf_of_host[source], self.leaf_of_host[destination]
        level = self.path_level(source, destination)
        off = self._offsets
        ports = self.leaf_up_ports
        links = np.full((np.size(source), 6), -1, dtype=np.int64)
        links[:, 0] = off[0] + source
        links[:, 5] = off[1] + destination
        climbs = level >= 1
        links[climbs, 1] = off[2] + leaf_s[climbs] * ports + leaf_port[climbs]
        links[climbs, 4] = off[3] + leaf_d[climbs] * ports + leaf_port[climbs]
        if self.tiers == 3:
            top = level == 2
            spines, up = self.spines_per_pod, self.spine_up_ports
            spine = leaf_port[top] // self._leaf_parallel
            pod_s, pod_d = leaf_s[top] // self.leaves_per_pod, leaf_d[top] // self.leaves_per_pod
            links[top, 2] = off[4] + (pod_s * spines + spine) * up + spine_port[top]
            links[top, 3] = off[5] + (pod_d * spines + spine) * up + spine_port[top]
        return links

    def paths(self, source, destination):
        """Every equal-cost shortest path between two hosts, as arrays of link numbers.

        Meant for small examples and inspection; routing uses :meth:`path_links`
        and never lists all paths.
        """
        source = int(self.check_hosts("source", source))
        destination = int(self.check_hosts("destination", destination))
        count = self.path_count(source, destination)
        spine_ports = max(self.spine_up_ports, 1)
        leaf_port, spine_port = np.divmod(np.arange(count), spine_ports)
        if self.path_level(source, destination) < 2:
            leaf_port, spine_port = np.arange(count), np.zeros(count, dtype=np.int64)
        links = self.path_links(np.full(count, source), np.full(count, destination), leaf_port, spine_port)
        return [row[row >= 0] for row in links]

    # Checks -----------------------------------------------------------------
    def check_hosts(self, name, hosts):
        """Return ``hosts`` as int64 array (or int) after checking every one exists."""
        return _check_index(name, hosts, self.hosts, noun="host")

    def check_links(self, name, links):
        """Return ``links`` as int64 array (or int) after checking every one exists."""
        return _check_index(name, links, self.link_count, noun="link")

    # What-if variants -------------------------------------------------------
    def with_link_capacity(self, links, capacity_bytes_per_s):
        """A copy with new capacities on some links [B/s] (0 fails them; see :data:`CAPACITY_RANGE_BYTES_PER_S`)."""
        links = self.check_links("links", links)
        value = check_capacity("capacity_bytes_per_s", capacity_bytes_per_s, failed=True)
        capacity = self.capacity_bytes_per_s.copy()
        capacity[links] = value
        return dataclasses.replace(self, capacity_bytes_per_s=capacity)

    def with_failed_links(self, links, *, both_directions=True):
        """A copy where the given links (and, by default, the reverse direction of each cable) carry nothing."""
        links = np.atleast_1d(self.check_links("links", links))
        if both_directions:
            links = np.concatenate((links, self.reverse_link(links)))
        return self.with_link_capacity(links, 0.0)

    def with_degraded_links(self, links, fraction, *, both_directions=True):
        """A copy where the given links run at ``fraction`` of their capacity.

        Parameters
        ----------
        links : int or array_like of int
            Links to degrade.
        fraction : float
            Remaining share of capacity, in (0, 1] [-] (a 400 Gb/s link that
            trained down to 200 Gb/s has 0.5); what it leaves of a working
            link must stay in :data:`CAPACITY_RANGE_BYTES_PER_S`.
        both_directions : bool
            Degrade the reverse direction of each cable too.
        """
        links = np.atleast_1d(self.check_links("links", links))
        fraction = check_number("fraction", fraction, minimum=0, maximum=1, min_inclusive=False)
        if both_directions:
            links = np.unique(np.concatenate((links, self.reverse_link(links))))
        return self.with_link_capacity(links, _degraded(self.capacity_bytes_per_s[links], fraction))

    def random_links(self, count, kind="leaf up", *, seed):
        """``count`` distinct links of one kind, drawn at random (to fail or degrade a few).

        Parameters
        ----------
        count : int
            How many [-].
        kind : str
            A name in :data:`LINK_KINDS`.
        seed : int
            Randomness.

        Returns
        -------
        numpy.ndarray
            Link numbers, sorted.
        """
        links = self.links_of_kind(kind)
        count = check_integer("count", count, minimum=0, maximum=links.size)
        if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer)):
            raise TypeError(f"seed must be an integer, got {seed!r}")
        return np.sort(np.random.default_rng(int(seed)).choice(links, size=count, replace=False))

    @property
    def failed_links(self) -> np.ndarray:
        """Links with zero capacity."""
        return np.flatnonzero(self.capacity_bytes_per_s == 0)

    def __repr__(self):
        tree = self.tree
        shape = {1: "1 switch", 2: f"{tree.leaves} leaves, {tree.spines} spines",
                 3: f"{tree.leaves} leaves, {tree.spines} spines, {tree.cores} cores in {tree.pods} pods"}[self.tiers]
        return (f"Network({self.tiers} tiers, {self.hosts} hosts, {shape}, {self.link_count} links, "
                f"{self.failed_links.size} failed)")


def _degraded(capacity, fraction):
    """``capacity * fraction``, refused (naming ``fraction``) where it would leave a working link too slow."""
    degraded = capacity * fraction
    low = CAPACITY_RANGE_BYTES_PER_S[0]
    if np.any((capacity > 0) & (degraded < low)):
        raise ValueError(f"fraction = {fraction:g} is not valid here: it leaves a link of "
                         f"{float(capacity[(capacity > 0) & (degraded < low)][0]):g} B/s below the smallest "
                         f"capacity, {low:g} B/s")
    return degraded


def _check_index(name, value, count, noun=None):
    noun = noun or name
    if isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be a {noun} number (an integer in [0, {count - 1}]), got {value!r}")
    try:
        array = np.asarray(value)
    except ValueError:  # a ragged list
        array = np.asarray(None)
    whole = array.dtype.kind == "f" and np.all(np.isfinite(array)) and np.all(array == np.round(array))
    if array.dtype.kind not in "iu" and not whole:
        raise TypeError(f"{name} must be a {noun} number (an integer in [0, {count - 1}]), got {value!r}")
    bad = (array < 0) | (array >= count)
    if np.any(bad):
        offender = f"{array[bad].flat[0]:g}" if whole else int(array[bad].flat[0])
        raise ValueError(f"{name} = {offender} is not a {noun} of this network: valid {noun}s are "
                         f"0 to {count - 1}")
    array = array.astype(np.int64, copy=False)
    return int(array) if array.ndim == 0 else array
