"""What the next fabrics change: scale-up domains, fat-tree reach and the parts count.

The catalog records the new parts (``catalog.SCALE_UP_FABRICS``,
``catalog.ETHERNET_ROADMAP``, the Tomahawk 6 and
Tomahawk Ultra switches). This module recomputes three of the book's numbers
with them:

- chapter 2 — a tensor-parallel all-reduce inside a scale-up domain
  (:func:`tensor_parallel_all_reduce_time`, :func:`scale_up_comparison`);
- chapter 5 — how many hosts a fat tree of a switch chip holds in 2 and 3
  tiers as the chip's capacity is split into more, slower ports
  (:func:`fat_tree_reach`), and multi-plane fabrics (:func:`multi_plane_fabric`);
- chapter 10 — switches, optics and their cost for a cluster on one switch
  generation or the next (:func:`network_parts`), and whether the network
  must grow as fast as compute (:func:`generation_growth`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from . import catalog
from ._validation import check_integer, check_number
from .pricebook import H100_ETHERNET_PRICES, PriceBook, transceiver
from .topology import MultiPlaneFatTree, fat_tree, max_hosts, multi_plane_fat_tree

__all__ = [
    "ScaleUpStatus", "scale_up_status_table", "tensor_parallel_all_reduce_time", "ScaleUpRow", "scale_up_comparison", "FatTreeReach", "fat_tree_reach",
    "MultiPlaneFabric", "multi_plane_fabric", "NetworkParts", "network_parts", "GenerationGrowth",
    "generation_growth",
]


def _fabric(fabric):
    return fabric if isinstance(fabric, catalog.ScaleUpFabric) else catalog.scale_up_fabric(fabric)


def _usable_bandwidth(entry, group, ports_per_accelerator):
    if ports_per_accelerator is None and entry.accelerator_per_direction_bytes_per_s is not None:
        # The vendor gives the accelerator's total (links of several rates, or no port rate at all).
        return entry.accelerator_per_direction_bytes_per_s
    if entry.port_per_direction_bytes_per_s is None:
        raise ValueError(f"{entry.name} publishes no port rate: it cannot be priced port by port "
                         "(omit ports_per_accelerator to use its total)")
    ports = entry.ports_per_accelerator if ports_per_accelerator is None else ports_per_accelerator
    if ports is None:
        raise ValueError(f"ports_per_accelerator is needed: {entry.name} leaves the number of ports per "
                         "accelerator to the chip designer; pass one (e.g. 8)")
    ports = check_integer("ports_per_accelerator", ports, minimum=1)
    if entry.topology == "full mesh":
        # A mesh gives each peer one link: a group of g uses only g - 1 of a GPU's links.
        ports = min(ports, group - 1)
    # A switch gives every member all its ports; a torus at best all of them too, for a group laid out
    # along every axis (an upper bound: a group along one axis uses two).
    return ports * entry.port_per_direction_bytes_per_s


@dataclass(frozen=True)
class ScaleUpStatus:
    """One row of the scale-up fabrics' status table (chapter 14).

    Attributes
    ----------
    fabric, owner, openness, topology : str
        As in the catalog entry.
    status, since, as_of : str
        Where it stands, since when, and when that was last checked (ISO).
    expected_by : str or None
        For a forward-looking status, when its next step is expected (ISO).
    max_accelerators : int or None
        Largest one-hop domain [-]; None where the entry fixes none.
    per_accelerator_bytes_per_s : float or None
        What one accelerator can send at once, one direction [B/s]; None where the
        specification leaves the ports to the chip designer.
    """

    fabric: str
    owner: str
    openness: str
    topology: str
    status: str
    since: str
    as_of: str
    expected_by: str | None
    max_accelerators: int | None
    per_accelerator_bytes_per_s: float | None


def scale_up_status_table():
    """Every scale-up fabric of the catalog with its status, as-of and expected-by dates, in catalog order.

    Returns
    -------
    list of ScaleUpStatus

    Examples
    --------
    >>> rows = scale_up_status_table()
    >>> [(r.fabric, r.status, r.expected_by) for r in rows if r.fabric.startswith("UALink ")][1:]
    [('UALink 200G 1.0', 'specification', '2027'), ('UALink 2.0', 'specification', '2027')]
    """
    return [ScaleUpStatus(fabric=f.name, owner=f.owner, openness=f.openness, topology=f.topology, status=f.status,
                          since=f.status_date, as_of=f.as_of, expected_by=f.expected_by,
                          max_accelerators=f.max_accelerators,
                          per_accelerator_bytes_per_s=f.per_accelerator_per_direction_bytes_per_s)
            for f in catalog.SCALE_UP_FABRICS.values()]


def tensor_parallel_all_reduce_time(fabric, message_bytes, group, *, ports_per_accelerator=None):
    """Time of one all-reduce among ``group`` accelerators of one scale-up domain [s].

    Bandwidth term only (ring, or the direct algorithm of a full mesh, which
    moves the same bytes):

    .. math:: t = 2 \\frac{g - 1}{g} \\frac{S}{B}

    where *B* is what one accelerator can send at once: all its ports on a
    switched fabric, but only :math:`\\min(p, g - 1)` links in a full mesh.

    Parameters
    ----------
    fabric : str or catalog.ScaleUpFabric
        A name in ``catalog.SCALE_UP_FABRICS`` or an entry.
    message_bytes : float
        Bytes each accelerator contributes [B], in (0, 1e30].
    group : int
        Accelerators in the all-reduce, in [2, max_accelerators].
    ports_per_accelerator : int, optional
        Ports of one accelerator, to override the entry (required for UALink,
        whose specification leaves it open).

    Returns
    -------
    float
        Time [s].

    References
    ----------
    P. Patarasuk, X. Yuan, "Bandwidth optimal all-reduce algorithms for clusters
    of workstations", JPDC 69(2), 2009, https://doi.org/10.1016/j.jpdc.2008.09.002.

    Examples
    --------
    256 MB among 8 GPUs: NVL72's 900 GB/s per direction against MI300X's mesh.

    >>> round(tensor_parallel_all_reduce_time("NVLink 5 (GB200 NVL72)", 256e6, 8) * 1e6)
    498
    >>> round(tensor_parallel_all_reduce_time("Infinity Fabric (MI300X)", 256e6, 8) * 1e6)
    1000
    """
    entry = _fabric(fabric)
    message_bytes = check_number("message_bytes", message_bytes, unit="B", minimum=0, min_inclusive=False,
                                 maximum=1e30, scalar=True)
    if entry.max_accelerators is None:
        raise ValueError(f"fabric = {entry.name!r} fixes no domain size or rate (a requirements specification): "
                         "it has no all-reduce time; choose a fabric with max_accelerators")
    group = check_integer("group", group, minimum=2, maximum=entry.max_accelerators)
    bandwidth = _usable_bandwidth(entry, group, ports_per_accelerator)
    return 2 * (group - 1) / group * message_bytes / bandwidth


@dataclass(frozen=True)
class ScaleUpRow:
    """One scale-up fabric in :func:`scale_up_comparison`.

    Attributes
    ----------
    fabric : catalog.ScaleUpFabric
    group : int
        Accelerators in the all-reduce [-].
    per_accelerator_bytes_per_s : float
        What one accelerator can send at once in that group, one direction [B/s].
    all_reduce_s : float
        Time of the all-reduce [s].
    """

    fabric: object
    group: int
    per_accelerator_bytes_per_s: float
    all_reduce_s: float


def scale_up_comparison(message_bytes, group=8, *, open_ports=8):
    """Every scale-up fabric of the catalog on the same all-reduce.

    Parameters
    ----------
    message_bytes : float
        Bytes per accelerator [B], in (0, 1e30].
    group : int
        Accelerators in the all-reduce, >= 2; fabrics whose domain is smaller
        use their whole domain.
    open_ports : int
        Ports per accelerator for the fabrics whose entry leaves it open
        (UALink and Scale-Up Ethernet): a what-if, >= 1.

    Returns
    -------
    list of ScaleUpRow
        In catalog order, for every fabric with a domain size and a rate (a
        requirements specification such as ESUN's fixes neither and is left out).

    Examples
    --------
    >>> rows = scale_up_comparison(256e6, 8)
    >>> [(r.fabric.name[:12], round(r.per_accelerator_bytes_per_s / 1e9)) for r in rows][:4]
    [('NVLink 5 (GB', 900), ('NVLink 6 (Ve', 1800), ('NVLink Fusio', 900), ('Infinity Fab', 448)]
    """
    message_bytes = check_number("message_bytes", message_bytes, unit="B", minimum=0, min_inclusive=False,
                                 maximum=1e30, scalar=True)
    group = check_integer("group", group, minimum=2)
    open_ports = check_integer("open_ports", open_ports, minimum=1)
    rows = []
    for entry in catalog.SCALE_UP_FABRICS.values():
        if entry.max_accelerators is None:
            continue
        g = min(group, entry.max_accelerators)
        ports = open_ports if (entry.ports_per_accelerator is None
                               and entry.accelerator_per_direction_bytes_per_s is None) else None
        rows.append(ScaleUpRow(fabric=entry, group=g,
                               per_accelerator_bytes_per_s=_usable_bandwidth(entry, g, ports),
                               all_reduce_s=tensor_parallel_all_reduce_time(entry, message_bytes, g,
                                                                            ports_per_accelerator=ports)))
    return rows


@dataclass(frozen=True)
class FatTreeReach:
    """How far one switch chip reaches when its capacity is split into ports of one rate.

    Attributes
    ----------
    switch : str
        Catalog switch (with the breakout in its name).
    radix : int
        Ports [-].
    port_bytes_per_s : float
        One port, one direction [B/s].
    hosts_two_tiers, hosts_three_tiers : int
        Most hosts of a non-blocking fat tree (:func:`~interconnect_lab.topology.max_hosts`) [-].
    """

    switch: str
    radix: int
    port_bytes_per_s: float
    hosts_two_tiers: int
    hosts_three_tiers: int


def fat_tree_reach(switch="Tomahawk 6", ways=(1, 2, 8)):
    """Hosts of a 2- and 3-tier fat tree of one switch chip, for each way of splitting its ports.

    A chip of capacity *C* split into *k* ports of *C/k* holds :math:`k^2/2`
    hosts in two tiers and :math:`k^3/4` in three (Al-Fares et al.), so
    halving the port rate doubles the radix and quadruples the two-tier size.

    Parameters
    ----------
    switch : str or catalog.Switch
        A catalog switch.
    ways : sequence of int
        Breakouts to try (see :func:`~interconnect_lab.catalog.breakout`).

    Returns
    -------
    list of FatTreeReach

    Examples
    --------
    Tomahawk 6 (102.4 Tb/s) as 64 x 1.6T, 128 x 800G and 512 x 200G:

    >>> [(r.radix, r.hosts_two_tiers) for r in fat_tree_reach("Tomahawk 6", (1, 2, 8))]
    [(64, 2048), (128, 8192), (512, 131072)]
    """
    if isinstance(ways, int):
        ways = (ways,)
    rows = []
    for w in ways:
        entry = catalog.breakout(switch, w)
        rows.append(FatTreeReach(switch=entry.name, radix=entry.ports,
                                 port_bytes_per_s=entry.port_per_direction_bytes_per_s,
                                 hosts_two_tiers=max_hosts(entry.ports, 2),
                                 hosts_three_tiers=max_hosts(entry.ports, 3)))
    return rows


#: Each GPU's NIC split into planes, one fat tree per plane (kept for chapter 14's readers; the model is
#: :class:`interconnect_lab.topology.MultiPlaneFatTree`, with ``split="port"``).
MultiPlaneFabric = MultiPlaneFatTree


def multi_plane_fabric(gpus, *, nic_bytes_per_s, switch="Tomahawk 6", ways=8):
    """Split each GPU's NIC into ports of the switch's (broken-out) rate, one fat tree per plane.

    The planes follow from the rates: ``nic_bytes_per_s`` over the switch port's; the fabric is
    :func:`interconnect_lab.topology.multi_plane_fat_tree` with ``split="port"``.

    Parameters
    ----------
    gpus : int
        GPUs, >= 1.
    nic_bytes_per_s : float
        One GPU's network rate, one direction [B/s], in [1, 1e18]; a whole number of ports.
    switch : str
        Catalog switch.
    ways : int
        Breakout of each switch port.

    Returns
    -------
    topology.MultiPlaneFatTree

    Examples
    --------
    131,072 GPUs at 800 Gb/s on Tomahawk 6 as 512 x 200G: four planes of two tiers.

    >>> from interconnect_lab import units as u
    >>> m = multi_plane_fabric(131072, nic_bytes_per_s=800 * u.Gbit_per_s)
    >>> m.planes, m.tiers, m.switches
    (4, 2, 3072)
    """
    gpus = check_integer("gpus", gpus, minimum=1)
    nic = check_number("nic_bytes_per_s", nic_bytes_per_s, unit="B/s", minimum=1, maximum=1e18, scalar=True)
    entry = catalog.breakout(switch, ways)
    planes = nic / entry.port_per_direction_bytes_per_s
    if abs(planes - round(planes)) > 1e-9 or round(planes) < 1:
        raise ValueError(f"nic_bytes_per_s = {nic:g} B/s is not valid for {entry.name}: it must be a whole "
                         f"number of its {entry.port_per_direction_bytes_per_s:g} B/s ports")
    return multi_plane_fat_tree(gpus, int(round(planes)), split="port", switch=entry)


@dataclass(frozen=True)
class NetworkParts:
    """The parts of one non-blocking fat tree for a cluster, and their cost.

    Attributes
    ----------
    switch : str
    tree : topology.FatTree
    transceiver_modules : int
        Modules at switch ports and host ports, each serving ``module_ports`` port ends [-].
    switch_usd : float
        Price of one switch used [USD].
    switches_usd, optics_usd, cables_usd : float
        Cost of each part [USD].
    switch_power_w : float or None
        All switches' power where the catalog gives one [W].
    """

    switch: str
    tree: object
    transceiver_modules: int
    switch_usd: float
    switches_usd: float
    optics_usd: float
    cables_usd: float
    switch_power_w: float | None

    @property
    def total_usd(self) -> float:
        """Switches, optics and cables [USD]."""
        return self.switches_usd + self.optics_usd + self.cables_usd

    @property
    def per_gpu_usd(self) -> float:
        """Network cost per host port [USD]."""
        return self.total_usd / self.tree.hosts


def network_parts(gpus, *, switch="Tomahawk 5", ways=1, switch_usd=None, prices=H100_ETHERNET_PRICES,
                  estimate="central"):
    """Switches, optics and cables of a non-blocking fat tree of ``gpus`` ports, and what they cost.

    Prices come from ``prices``; a switch the price book does not price needs
    ``switch_usd`` (a what-if: the price of a new chip's switch is not public).
    Every link is optical. Optics are the price book's module (an 800 Gb/s
    twin-port module): two port ends per module for ports of half its rate or
    less, otherwise whole modules per port end by rate (one per 800G port end,
    two per 1.6T), an estimate for rates the book does not price.

    Parameters
    ----------
    gpus : int
        Host ports (one per GPU), >= 1.
    switch : str
        Catalog switch.
    ways : int
        Breakout of each switch port.
    switch_usd : float, optional
        Price of one switch [USD], in [0, 1e12]; the price book's when it prices this switch.
    prices : PriceBook
    estimate : str
        End of the price ranges (see :data:`~interconnect_lab.pricebook.ESTIMATES`).

    Returns
    -------
    NetworkParts

    Examples
    --------
    8,192 GPUs at 800G: Tomahawk 5 (64 x 800G) needs three tiers, Tomahawk 6
    (128 x 800G) two.

    >>> old = network_parts(8192, switch="Tomahawk 5", switch_usd=200_000)
    >>> new = network_parts(8192, switch="Tomahawk 6", ways=2, switch_usd=400_000)
    >>> old.tree.tiers, old.tree.switches, new.tree.tiers, new.tree.switches
    (3, 640, 2, 192)
    """
    gpus = check_integer("gpus", gpus, minimum=1)
    if not isinstance(prices, PriceBook):
        raise TypeError(f"prices must be a PriceBook, got {prices!r}")
    book = prices.at(estimate)
    entry = catalog.breakout(switch, ways)
    if switch_usd is None:
        if book.switch.item != entry.name:
            raise ValueError(f"switch_usd is needed: the price book {book.name!r} prices {book.switch.item!r}, "
                             f"not {entry.name!r}; pass a price in USD (a what-if)")
        switch_usd = book.switch.usd
    switch_usd = check_number("switch_usd", switch_usd, unit="USD", minimum=0, maximum=1e12, scalar=True)
    tree = fat_tree(gpus, switch=entry)
    module = transceiver(book.switch_transceiver.item)
    ends = tree.switch_transceivers + tree.host_transceivers
    per_end = module.per_direction_bytes_per_s / module.ports
    if entry.port_per_direction_bytes_per_s <= per_end * (1 + 1e-9):
        modules = math.ceil(ends / module.ports)            # a twin-port module serves two slow ports
    else:                                                   # a fast port needs whole modules' capacity
        modules = ends * math.ceil(entry.port_per_direction_bytes_per_s / module.per_direction_bytes_per_s - 1e-9)
    power = None if entry.power_w is None else tree.switches * entry.power_w
    return NetworkParts(switch=entry.name, tree=tree, transceiver_modules=modules, switch_usd=switch_usd,
                        switches_usd=tree.switches * switch_usd, optics_usd=modules * book.switch_transceiver.usd,
                        cables_usd=tree.cables * book.cable.usd, switch_power_w=power)


@dataclass(frozen=True)
class GenerationGrowth:
    """How much compute, scale-up and scale-out bandwidth grew from one GPU generation to the next.

    Attributes
    ----------
    old, new : str
        Catalog GPU names.
    bf16_ratio, fp8_ratio : float
        Dense peak FLOP/s, new over old, at the same precision [-].
    scale_up_ratio : float
        Scale-up bandwidth per GPU, new over old [-].
    scale_out_ratio : float
        NIC rate per GPU, new over old [-].
    old_nic, new_nic : str
        The NICs compared.
    """

    old: str
    new: str
    bf16_ratio: float
    fp8_ratio: float
    scale_up_ratio: float
    scale_out_ratio: float
    old_nic: str = ""
    new_nic: str = ""

    @property
    def compute_to_scale_out(self) -> float:
        """How much more compute each byte of network has to feed: ``bf16_ratio / scale_out_ratio`` [-]."""
        return self.bf16_ratio / self.scale_out_ratio


def _shipped_nic(gpu_name):
    """The compute-fabric NIC the catalog's systems pair with ``gpu_name``, one per GPU."""
    nics = {system.nic for system in catalog.SYSTEMS.values()
            if system.gpu == gpu_name and system.nic is not None and system.nics == system.gpus}
    if len(nics) != 1:
        found = ", ".join(sorted(nics)) or "none"
        raise ValueError(f"the catalog's systems pair {gpu_name!r} with {found} NIC(s), one per GPU: pass the "
                         "NIC (old_nic or new_nic) explicitly")
    return nics.pop()


def generation_growth(old="H100 SXM", new="B200", *, old_nic=None, new_nic=None):
    """Growth of compute and of both networks between two GPU generations, from the catalog.

    Each GPU is paired by default with the network adapter the catalog's systems
    ship it with, one per GPU: a DGX H100 has eight 400 Gb/s ConnectX-7, and so
    does a DGX B200 (NVIDIA's user guide); the 800 Gb/s ConnectX-8 came with
    B300 and GB300.

    Parameters
    ----------
    old, new : str
        Catalog GPUs, each with an FP8 rate.
    old_nic, new_nic : str, optional
        Catalog NICs to pair them with instead (a what-if).

    Returns
    -------
    GenerationGrowth

    Examples
    --------
    H100 to B200: compute 2.27x at equal precision, NVLink 2x, and the NIC unchanged
    (ConnectX-7 in both DGX systems), so each byte of network feeds 2.27x the compute.

    >>> g = generation_growth()
    >>> round(g.bf16_ratio, 2), g.scale_up_ratio, g.scale_out_ratio, round(g.compute_to_scale_out, 2)
    (2.27, 2.0, 1.0, 2.27)
    >>> generation_growth("H100 SXM", "B300").scale_out_ratio      # ConnectX-7 to ConnectX-8
    2.0
    """
    gpus = [catalog.gpu(old), catalog.gpu(new)]
    links = [catalog.link(g.scale_up_link) for g in gpus]
    for argument, gpu in (("old", gpus[0]), ("new", gpus[1])):
        if gpu.fp8_flop_per_s is None:
            with_fp8 = ", ".join(repr(name) for name, g in catalog.GPUS.items() if g.fp8_flop_per_s is not None)
            raise ValueError(f"{argument} = {gpu.name!r} is not valid here: the catalog has no FP8 rate for it; "
                             f"GPUs with one are: {with_fp8}")
    nics = [catalog.nic(old_nic if old_nic is not None else _shipped_nic(gpus[0].name)),
            catalog.nic(new_nic if new_nic is not None else _shipped_nic(gpus[1].name))]
    up = [link.per_direction_bytes_per_s * link.links_per_gpu for link in links]
    return GenerationGrowth(
        old=gpus[0].name, new=gpus[1].name,
        bf16_ratio=gpus[1].bf16_flop_per_s / gpus[0].bf16_flop_per_s,
        fp8_ratio=gpus[1].fp8_flop_per_s / gpus[0].fp8_flop_per_s,
        scale_up_ratio=up[1] / up[0],
        scale_out_ratio=nics[1].per_direction_bytes_per_s / nics[0].per_direction_bytes_per_s,
        old_nic=nics[0].name, new_nic=nics[1].name)
