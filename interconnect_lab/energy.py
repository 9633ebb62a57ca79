"""Energy: what a cluster draws over its life, what that costs, and energy per bit.

A cluster's IT power :math:`P_\\text{IT}` (servers, switches, transceivers: see
:class:`~interconnect_lab.cost.ClusterCost`) reaches the utility multiplied by
the facility's power usage effectiveness (PUE): cooling, power conversion and
lighting come on top. Over :math:`T` years at an average load :math:`\\ell`
(the share of the rated power drawn on average), the energy bought is

.. math::

    E = P_\\text{IT}\\, \\ell \\cdot \\text{PUE} \\cdot T

and it costs :math:`E` times the price of a kWh. :func:`energy_bill` does this
for a :class:`~interconnect_lab.cost.ClusterCost` and sets the result beside the
capital cost. Prices and PUE are estimates: see
:data:`~interconnect_lab.pricebook.ELECTRICITY_PRICE` and
:data:`~interconnect_lab.published.PUE_ESTIMATES`.

The load factor applies to every part alike. That is a simplification: GPUs
swing with the work, optics and switch chips draw nearly the same power idle or
busy.

References
----------
Uptime Institute Intelligence, "Large data centers are mostly more efficient,
analysis confirms" (2023): PUE is "a ratio of total site power to IT power".
https://intelligence.uptimeinstitute.com/resource/large-data-centers-are-mostly-more-efficient-analysis-confirms
"""

from __future__ import annotations

from dataclasses import dataclass

from . import units as u
from ._validation import check_number

#: Documented upper bounds of the energy models' inputs, far above any real cluster, so that
#: no result overflows: a terawatt [W], a thousand years, a PUE of 10 [-], 1e30 J and
#: 1,000 USD per kWh.
MAX_POWER_W = 1e12
MAX_YEARS = 1000.0
MAX_PUE = 10.0
MAX_ENERGY_J = 1e30
MAX_USD_PER_KWH = 1000.0
from .cost import ClusterCost
from .pricebook import ELECTRICITY_PRICE

__all__ = ["EnergyBill", "energy_bill", "lifetime_energy_j", "energy_cost_usd", "energy_per_bit_j",
           "POWER_PARTS"]

#: Parts of a power breakdown, in the order tables and figures show them.
POWER_PARTS = ("compute", "switches", "transceivers", "facility overhead")


def lifetime_energy_j(it_power_w, years, *, pue=1.0, load=1.0):
    """Energy bought over ``years`` for an IT load of ``it_power_w`` [J].

    .. math:: E = P_\\text{IT}\\, \\ell \\cdot \\text{PUE} \\cdot T

    Parameters
    ----------
    it_power_w : float or array_like
        Rated IT power [W], in [0, 1e12].
    years : float or array_like
        Service life [year], in [0, 1000] (Julian years of 365.25 days).
    pue : float or array_like
        Power usage effectiveness, in [1, 10] [-].
    load : float or array_like
        Average power over rated power, in [0, 1] [-].

    Returns
    -------
    float or numpy.ndarray
        Energy [J].

    Examples
    --------
    >>> from interconnect_lab import units as u
    >>> round(lifetime_energy_j(1 * u.MW, 1, pue=1.5) / u.GWh, 3)   # 1 MW for a year at PUE 1.5
    13.149
    """
    it_power_w = check_number("it_power_w", it_power_w, unit="W", minimum=0, maximum=MAX_POWER_W)
    years = check_number("years", years, unit="year", minimum=0, maximum=MAX_YEARS)
    pue = check_number("pue", pue, minimum=1, maximum=MAX_PUE)
    load = check_number("load", load, minimum=0, maximum=1)
    return it_power_w * load * pue * years * u.year


def energy_cost_usd(energy_j, usd_per_kwh):
    """What ``energy_j`` costs at ``usd_per_kwh`` [USD].

    Parameters
    ----------
    energy_j : float or array_like
        Energy [J], in [0, 1e30].
    usd_per_kwh : float or array_like
        Price of one kWh [USD/kWh], in [0, 1000].

    Returns
    -------
    float or numpy.ndarray
        Cost [USD].

    Examples
    --------
    >>> from interconnect_lab import units as u
    >>> energy_cost_usd(1000 * u.kWh, 0.10)
    100.0
    """
    energy_j = check_number("energy_j", energy_j, unit="J", minimum=0, maximum=MAX_ENERGY_J)
    usd_per_kwh = check_number("usd_per_kwh", usd_per_kwh, unit="USD/kWh", minimum=0, maximum=MAX_USD_PER_KWH)
    return energy_j / u.kWh * usd_per_kwh


def energy_per_bit_j(power_w, per_direction_bytes_per_s):
    """Energy to move one bit: power over the data rate of one direction [J/bit].

    .. math:: E_\\text{bit} = P / R

    Links and optics are rated this way: a module drawing 17 W while it carries
    800 Gb/s each way spends 17 W / 800 Gb/s = 21.25 pJ per bit. (Counting both
    directions would halve the figure; datasheets and roadmaps do not.)

    Parameters
    ----------
    power_w : float or array_like
        Power [W], in [0, 1e12].
    per_direction_bytes_per_s : float or array_like
        Data rate, one direction [B/s], >= 1.

    Returns
    -------
    float or numpy.ndarray
        Energy per bit [J/bit].

    Examples
    --------
    >>> from interconnect_lab import units as u
    >>> round(energy_per_bit_j(17.0, 800 * u.Gbit_per_s) / u.pJ, 2)
    21.25
    """
    power_w = check_number("power_w", power_w, unit="W", minimum=0, maximum=MAX_POWER_W)
    rate = check_number("per_direction_bytes_per_s", per_direction_bytes_per_s, unit="B/s", minimum=1)
    return power_w / (rate / u.bit)


@dataclass(frozen=True)
class EnergyBill:
    """A cluster's power, lifetime energy and its cost, beside its capital cost.

    Build it with :func:`energy_bill`. Power in [W], energy in [J], money in [USD].

    Attributes
    ----------
    cluster : ClusterCost
        The cluster priced and powered by :func:`~interconnect_lab.cost.cluster_cost`.
    years : float
        Service life [year].
    pue : float
        Power usage effectiveness [-].
    load : float
        Average power over rated power [-].
    usd_per_kwh : float
        Electricity price [USD/kWh].
    """

    cluster: ClusterCost
    years: float
    pue: float
    load: float
    usd_per_kwh: float

    @property
    def it_power_w(self) -> float:
        """Rated IT power: servers (or GPUs), switches where known, transceivers [W]."""
        return self.cluster.power_w

    @property
    def facility_power_w(self) -> float:
        """Rated power drawn from the utility, IT power times PUE [W]."""
        return self.it_power_w * self.pue

    @property
    def power_breakdown_w(self) -> dict[str, float]:
        """Rated facility power by part, in the order of :data:`POWER_PARTS` [W].

        Switches count 0 where the catalog has no power for them (see
        ``cluster.unknown_power``).
        """
        c = self.cluster
        return dict(zip(POWER_PARTS, (c.compute_power_w, c.switch_power_w or 0.0, c.transceiver_power_w,
                                      self.facility_power_w - self.it_power_w)))

    @property
    def network_power_w(self) -> float:
        """Switches and transceivers, without their share of the facility overhead [W]."""
        return self.cluster.network_power_w

    @property
    def energy_j(self) -> float:
        """Energy bought over the service life [J]."""
        return lifetime_energy_j(self.it_power_w, self.years, pue=self.pue, load=self.load)

    @property
    def energy_usd(self) -> float:
        """What that energy costs [USD]."""
        return energy_cost_usd(self.energy_j, self.usd_per_kwh)

    @property
    def energy_usd_breakdown(self) -> dict[str, float]:
        """Energy cost by part, in the order of :data:`POWER_PARTS` [USD]."""
        scale = self.energy_usd / self.facility_power_w
        return {part: watts * scale for part, watts in self.power_breakdown_w.items()}

    @property
    def network_energy_usd(self) -> float:
        """Energy cost of switches and transceivers, their share of the overhead included [USD]."""
        return self.energy_usd * self.network_power_w / self.it_power_w

    @property
    def capital_usd(self) -> float:
        """Capital cost of servers and compute fabric [USD]."""
        return self.cluster.total_usd

    @property
    def energy_over_capital(self) -> float:
        """Lifetime energy cost over capital cost [-]."""
        return self.energy_usd / self.capital_usd

    @property
    def network_share_of_energy(self) -> float:
        """Share of the energy bill drawn by the compute fabric (switches where known, optics) [-]."""
        return self.network_power_w / self.it_power_w


def energy_bill(cluster, *, years=5.0, pue=1.3, load=1.0, usd_per_kwh=None):
    """Power, lifetime energy and energy cost of ``cluster``, beside its capital cost.

    Parameters
    ----------
    cluster : ClusterCost
        From :func:`~interconnect_lab.cost.cluster_cost`.
    years : float
        Service life [year], in (0, 1000].
    pue : float
        Power usage effectiveness, in [1, 3] [-].
    load : float
        Average power over rated power, in (0, 1] [-].
    usd_per_kwh : float, optional
        Electricity price [USD/kWh], in [0, 1000]; by default the central estimate of
        :data:`~interconnect_lab.pricebook.ELECTRICITY_PRICE`.

    Returns
    -------
    EnergyBill

    Raises
    ------
    TypeError
        If ``cluster`` is not a ClusterCost.
    ValueError
        If a number is out of its range.

    Examples
    --------
    >>> from interconnect_lab import cost, units as u
    >>> bill = energy_bill(cost.cluster_cost(1016), years=5, pue=1.3, usd_per_kwh=0.10)
    >>> round(bill.facility_power_w / u.MW, 2), round(bill.energy_usd / u.MUSD, 1)
    (1.73, 7.6)
    """
    if not isinstance(cluster, ClusterCost):
        raise TypeError(f"cluster must be a ClusterCost from cost.cluster_cost, got {cluster!r}")
    years = check_number("years", years, unit="year", minimum=0, min_inclusive=False, maximum=MAX_YEARS,
                         scalar=True)
    pue = check_number("pue", pue, minimum=1, maximum=3, scalar=True)
    load = check_number("load", load, minimum=0, maximum=1, min_inclusive=False, scalar=True)
    usd_per_kwh = ELECTRICITY_PRICE.usd if usd_per_kwh is None else check_number(
        "usd_per_kwh", usd_per_kwh, unit="USD/kWh", minimum=0, maximum=MAX_USD_PER_KWH, scalar=True)
    return EnergyBill(cluster=cluster, years=years, pue=pue, load=load, usd_per_kwh=usd_per_kwh)
