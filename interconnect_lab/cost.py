"""Capital cost and power of a GPU cluster: servers plus the fat tree that joins them.

:func:`cluster_cost` counts the parts of a cluster (servers from the catalog, a
rail-optimized fat tree from :func:`~interconnect_lab.topology.fat_tree`),
prices them from a :class:`~interconnect_lab.pricebook.PriceBook` and adds up
their power from the catalog:

.. math::

    C = n_\\text{server} p_\\text{server} + n_\\text{switch} p_\\text{switch}
        + n_\\text{module} p_\\text{module} + n_\\text{cable} p_\\text{cable}

The network's share of the capital cost is
:math:`(C - n_\\text{server} p_\\text{server}) / C` when the server price
includes its NICs (a DGX does): the *cluster-level interconnect* of Epoch AI's
cost model, switches plus optics plus cables. Epoch AI's constant of 19 %
(:data:`~interconnect_lab.published.EPOCH_CLUSTER_INTERCONNECT_COST_FRACTION`)
is that share for NVIDIA's H100 SuperPOD as priced by Kostovic (Cottier et al.
2024, Appendix A.1); its code turns it into a surcharge on server cost with
:func:`interconnect_overhead`.

What is not counted: storage and management networks, racks, power and
cooling infrastructure, installation, software licences (UFM), spares and
support contracts.

References
----------
B. Cottier et al., "The rising costs of training frontier AI models",
arXiv:2405.21015 (2024), Appendix A.1.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from . import catalog
from ._lookup import resolve
from ._validation import check_integer, check_number
from .pricebook import ESTIMATES, H100_NDR_PRICES, PriceBook, transceiver
from .topology import FatTree, fat_tree

__all__ = [
    "ClusterCost", "cluster_cost", "cluster_cost_estimates", "interconnect_overhead",
    "BREAKDOWN_PARTS",
]

#: The parts of a cost breakdown, in the order tables and figures show them.
BREAKDOWN_PARTS = ("compute", "NICs", "switches", "transceivers", "cables")


@dataclass(frozen=True)
class ClusterCost:
    """What a cluster costs to buy and how much power it draws.

    Build it with :func:`cluster_cost`. Money in [USD], power in [W].

    Attributes
    ----------
    gpus : int
        GPUs bought (whole servers) [-].
    nodes : int
        Servers [-].
    system, switch : str
        Catalog names of the server and the fabric switch.
    fabric : FatTree
        The compute fabric, with its switch, cable and transceiver counts.
    price_book : str
        Name of the price book used (and which estimate).
    servers_usd : float
        All servers, as priced (including their NICs where the price does) [USD].
    nics : int
        Compute-fabric NICs [-].
    nics_usd : float
        NICs [USD]; 0 where the book has no NIC price and the server price includes them.
    nics_in_server_price : bool
        Whether ``servers_usd`` includes the NICs.
    switches_usd, transceivers_usd, cables_usd : float
        Fabric switches, transceiver modules and fibre cables [USD].
    switch_transceiver_modules, host_transceiver_modules : int
        Transceiver modules at switch ports and at server ports [-].
    server_power_w : float or None
        Server power from the catalog [W]; None where the catalog has none.
    gpu_power_w : float
        GPU board power alone [W].
    switch_power_w : float or None
        Switch power from the catalog [W]; None where the catalog has none.
    transceiver_power_w : float
        Transceiver modules [W].
    """

    gpus: int
    nodes: int
    system: str
    switch: str
    fabric: FatTree
    price_book: str
    servers_usd: float
    nics: int
    nics_usd: float
    nics_in_server_price: bool
    switches_usd: float
    transceivers_usd: float
    cables_usd: float
    switch_transceiver_modules: int
    host_transceiver_modules: int
    server_power_w: float | None
    gpu_power_w: float
    switch_power_w: float | None
    transceiver_power_w: float

    # Money --------------------------------------------------------------------------------
    @property
    def compute_usd(self) -> float:
        """Servers without their compute-fabric NICs [USD]."""
        return self.servers_usd - (self.nics_usd if self.nics_in_server_price else 0.0)

    @property
    def interconnect_usd(self) -> float:
        """Cluster-level interconnect: switches, transceivers and cables [USD]."""
        return self.switches_usd + self.transceivers_usd + self.cables_usd

    @property
    def network_usd(self) -> float:
        """The whole compute fabric: NICs, switches, transceivers and cables [USD]."""
        return self.nics_usd + self.interconnect_usd

    @property
    def total_usd(self) -> float:
        """Capital cost of servers and compute fabric [USD]."""
        return self.compute_usd + self.network_usd

    @property
    def per_gpu_usd(self) -> float:
        """Capital cost per GPU [USD]."""
        return self.total_usd / self.gpus

    @property
    def network_fraction(self) -> float:
        """Share of the capital cost spent on the compute fabric, NICs included [-]."""
        return self.network_usd / self.total_usd

    @property
    def interconnect_fraction(self) -> float:
        """Share spent on switches, transceivers and cables: Epoch AI's definition [-]."""
        return self.interconnect_usd / self.total_usd

    @property
    def breakdown_usd(self) -> dict[str, float]:
        """Capital cost by part, in the order of :data:`BREAKDOWN_PARTS` [USD]."""
        return dict(zip(BREAKDOWN_PARTS, (self.compute_usd, self.nics_usd, self.switches_usd,
                                          self.transceivers_usd, self.cables_usd)))

    # Power --------------------------------------------------------------------------------
    @property
    def unknown_power(self) -> tuple[str, ...]:
        """Parts whose power the catalog does not give (left out of the totals)."""
        missing = []
        if self.server_power_w is None:
            missing.append(f"{self.system} (GPU board power used instead)")
        if self.switch_power_w is None:
            missing.append(self.switch)
        return tuple(missing)

    @property
    def compute_power_w(self) -> float:
        """Servers, or GPUs alone where the catalog has no server power [W]."""
        return self.gpu_power_w if self.server_power_w is None else self.server_power_w

    @property
    def network_power_w(self) -> float:
        """Switches (where known) and transceiver modules [W]."""
        return (self.switch_power_w or 0.0) + self.transceiver_power_w

    @property
    def power_w(self) -> float:
        """IT power of servers and compute fabric, without cooling overhead [W]."""
        return self.compute_power_w + self.network_power_w

    @property
    def network_power_fraction(self) -> float:
        """Share of the IT power drawn by the compute fabric [-]."""
        return self.network_power_w / self.power_w


def interconnect_overhead(fraction):
    """Surcharge on server cost that makes the interconnect ``fraction`` of the total.

    .. math:: s = \\frac{f}{1 - f}

    Epoch AI multiplies a cluster's server cost by :math:`1 + s = 1/(1-f)`; with
    :math:`f = 0.19` that is 1.23, the "23 % overhead for cluster-level
    networking" of Cottier et al. (2024), Figure 2.

    Parameters
    ----------
    fraction : float or array_like
        Interconnect share of total hardware cost, in [0, 1) [-].

    Returns
    -------
    float or numpy.ndarray
        Interconnect cost over server cost [-].

    Examples
    --------
    >>> round(interconnect_overhead(0.19), 3)
    0.235
    """
    fraction = check_number("fraction", fraction, minimum=0, maximum=1, max_inclusive=False)
    return fraction / (1 - fraction)


def cluster_cost(gpus, *, system="DGX H100", switch="Quantum-2 QM9700", prices=H100_NDR_PRICES,
                 estimate="central", oversubscription=1.0, rail_optimized=True, tiers=None):
    """Capital cost and power of ``gpus`` GPUs in servers on a fat-tree compute fabric.

    Servers are whole: ``ceil(gpus / gpus_per_server)`` of them. Each server's
    compute-fabric NIC ports attach to a fat tree of catalog switches, rail by
    rail if ``rail_optimized`` (see :func:`~interconnect_lab.topology.fat_tree`
    for the wiring and the optics assumption: every link is a fibre with a
    transceiver at each end).

    Parameters
    ----------
    gpus : int
        GPUs wanted, >= 1.
    system : str
        Catalog system (server), e.g. ``"DGX H100"``.
    switch : str or catalog.Switch
        Switch for every tier: a catalog name, e.g. ``"Quantum-2 QM9700"``, or a
        catalog entry or what-if variant of one (``dataclasses.replace``, e.g.
        to try a power figure the catalog lacks; its name must still match the
        price book's switch).
    prices : PriceBook
        Prices; its ``server`` and ``switch`` items must name ``system`` and ``switch``.
    estimate : str
        Which end of each price range to use: a key of
        :data:`~interconnect_lab.pricebook.ESTIMATES`.
    oversubscription : float
        Leaf down-ports over up-ports, >= 1.
    rail_optimized : bool
        Wire the servers' NIC ports rail by rail (as NVIDIA's SuperPOD does).
    tiers : {1, 2, 3} or None
        Switch tiers; None picks the fewest that fit.

    Returns
    -------
    ClusterCost

    Raises
    ------
    ValueError
        If ``gpus`` is not a positive whole number, a name is unknown, the price
        book prices other parts, or the fabric cannot be built.

    References
    ----------
    B. Cottier et al., arXiv:2405.21015 (2024), Appendix A.1.

    Examples
    --------
    NVIDIA's 4-SU H100 SuperPOD (127 DGX) with the default price book:

    >>> from interconnect_lab import units as u
    >>> pod = cluster_cost(1016)
    >>> pod.fabric.switches_per_tier
    (32, 16)
    >>> round(pod.total_usd / u.MUSD, 1), round(pod.interconnect_fraction, 3)
    (38.8, 0.116)

    The catalog gives no power for the QM9700; try a figure with a what-if variant:

    >>> import dataclasses
    >>> from interconnect_lab import catalog
    >>> guess = dataclasses.replace(catalog.switch("Quantum-2 QM9700"), power_w=1000.0)
    >>> cluster_cost(1016, switch=guess).switch_power_w
    48000.0
    """
    gpus = check_integer("gpus", gpus, minimum=1)
    if not isinstance(prices, PriceBook):
        raise TypeError(f"prices must be a PriceBook, got {prices!r}")
    book = prices.at(estimate)
    server_entry = catalog.system(system)
    switch_entry = resolve("switch", switch, catalog.Switch, catalog.SWITCHES)
    for role, item, wanted in (("server", book.server.item, server_entry.name),
                               ("switch", book.switch.item, switch_entry.name)):
        if item != wanted:
            raise ValueError(
                f"the price book {book.name!r} prices {role} {item!r}, not {wanted!r}: give a "
                f"{role} price with dataclasses.replace(book, {role}=Price(item={wanted!r}, ...))")
    if server_entry.nics < 1:
        raise ValueError(f"system {system!r} has no compute-fabric NICs to attach to a fat tree")
    if book.nic is not None and server_entry.nic is not None and book.nic.item != server_entry.nic:
        raise ValueError(
            f"the price book {book.name!r} prices NIC {book.nic.item!r}, but {system!r} has "
            f"{server_entry.nic!r}")

    nodes = -(-gpus // server_entry.gpus)
    nics = nodes * server_entry.nics
    rails = server_entry.nics if rail_optimized else 1
    fabric = fat_tree(nics, switch=switch_entry, tiers=tiers, oversubscription=oversubscription,
                      rails=rails)

    switch_module = transceiver(book.switch_transceiver.item)
    host_module = transceiver(book.host_transceiver.item)
    switch_modules = math.ceil(fabric.switch_transceivers / switch_module.ports)
    host_modules = nodes * math.ceil(server_entry.nics / host_module.ports)

    gpu_entry = catalog.gpu(server_entry.gpu)
    if gpu_entry.power_w is None and server_entry.power_w is None:
        raise ValueError(f"server = {server_entry.name!r} cannot be powered: the catalog has neither its power nor "
                         f"its GPU's ({gpu_entry.name!r}: not published); choose a system with a sourced power")
    return ClusterCost(
        gpus=nodes * server_entry.gpus, nodes=nodes, system=server_entry.name,
        switch=switch_entry.name, fabric=fabric, price_book=book.name,
        servers_usd=nodes * book.server.usd,
        nics=nics, nics_usd=0.0 if book.nic is None else nics * book.nic.usd,
        nics_in_server_price=book.server_includes_nics,
        switches_usd=fabric.switches * book.switch.usd,
        transceivers_usd=(switch_modules * book.switch_transceiver.usd
                          + host_modules * book.host_transceiver.usd),
        cables_usd=fabric.cables * book.cable.usd,
        switch_transceiver_modules=switch_modules, host_transceiver_modules=host_modules,
        server_power_w=None if server_entry.power_w is None else nodes * server_entry.power_w,
        gpu_power_w=nodes * server_entry.gpus * (gpu_entry.power_w or 0.0),
        switch_power_w=None if switch_entry.power_w is None else fabric.switches * switch_entry.power_w,
        transceiver_power_w=switch_modules * switch_module.power_w + host_modules * host_module.power_w,
    )


def cluster_cost_estimates(gpus, **kwargs):
    """:func:`cluster_cost` at every named estimate of :data:`~interconnect_lab.pricebook.ESTIMATES`.

    Parameters
    ----------
    gpus : int
        GPUs wanted.
    **kwargs
        Passed to :func:`cluster_cost` (not ``estimate``).

    Returns
    -------
    dict of str to ClusterCost
        Keyed ``"central"``, ``"low"``, ``"high"``, ``"low network share"`` and
        ``"high network share"``; the last two bracket the network's share.

    Examples
    --------
    >>> shares = {k: round(c.interconnect_fraction, 2) for k, c in cluster_cost_estimates(10_000).items()}
    >>> shares["low network share"] <= shares["central"] <= shares["high network share"]
    True
    """
    if "estimate" in kwargs:
        raise TypeError("cluster_cost_estimates computes every estimate; do not pass estimate")
    return {name: cluster_cost(gpus, estimate=name, **kwargs) for name in ESTIMATES}
