"""Price book: dated, sourced estimates of what a cluster's parts cost.

Hardware list prices for AI clusters are rarely published; what is public are
analyst estimates, reseller listings and vendor blogs. Every price here is
therefore an **estimate** (its :class:`~interconnect_lab.sources.Source` has
``estimate=True``), carries the date it refers to, a range where the sources
give one, and a note saying how it was read. Edit a price with
``dataclasses.replace``::

    >>> import dataclasses
    >>> from interconnect_lab import pricebook
    >>> book = pricebook.H100_NDR_PRICES
    >>> dearer = dataclasses.replace(book, switch=dataclasses.replace(book.switch, usd=50_000))
    >>> dearer.switch.usd
    50000.0

Transceivers are not in the hardware catalog yet, so their specifications
(ports served, power, rate, reach, with sources) live here in ``TRANSCEIVERS``,
together with the copper cables that can replace them over a few metres.

Electricity is priced here too (``ELECTRICITY_PRICE``, per kWh), and a second
book prices an Ethernet fabric (``H100_ETHERNET_PRICES``).

Status of each default price (H100 generation, NDR InfiniBand):

==========================  ==========  ===================================================
item                        USD         source and status
==========================  ==========  ===================================================
DGX H100 server             270,000     SemiAnalysis (May 2023) via Epoch AI; analyst estimate
Quantum-2 QM9700 switch     36,000      FS.com-sold variant, Aug 2024, via E. Cheah; reseller
800G twin-port transceiver  1,250       vendor blog, volume third-party range; UNVERIFIED
400G single-port (NIC)      700         vendor blog, QSFP-DD range; UNVERIFIED
fibre cable (one link)      100         vendor blog range; UNVERIFIED
ConnectX-7 NIC              none        no public price found; inside the DGX price
==========================  ==========  ===================================================
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from types import MappingProxyType

from . import units as u
from ._validation import check_choice, check_integer, check_number
from .sources import Source

__all__ = [
    "Price", "Transceiver", "TRANSCEIVERS", "transceiver", "PriceBook", "ESTIMATES",
    "H100_NDR_PRICES", "SINGLE_PORT_400G_TRANSCEIVER_PRICE", "MEDIA",
    "ELECTRICITY_PRICE", "H100_ETHERNET_PRICES", "with_transceiver",
]

_DATE = re.compile(r"^\d{4}(-(0[1-9]|1[0-2]))?$")


@dataclass(frozen=True, kw_only=True)
class Price:
    """What one unit of an item costs, with its range, date and source.

    Parameters
    ----------
    item : str
        What is priced: a catalog name (``"DGX H100"``), a ``TRANSCEIVERS``
        key, or a description (``"fibre cable"``).
    usd : float
        Central estimate per unit [USD], > 0.
    low_usd, high_usd : float, optional
        Range the sources give [USD]; default to ``usd``.
    date : str
        When the price applies, ``"YYYY-MM"`` or ``"YYYY"``.
    source : Source
        Where it comes from; must be marked ``estimate=True``.
    note : str
        How the figure was read or derived.
    """

    item: str
    usd: float
    low_usd: float | None = None
    high_usd: float | None = None
    date: str
    source: Source
    note: str = ""

    def __post_init__(self):
        if not isinstance(self.item, str) or not self.item.strip():
            raise ValueError("Price.item must be a non-empty string naming what is priced")
        usd = check_number(f"Price({self.item!r}).usd", self.usd, unit="USD",
                           minimum=0, min_inclusive=False)
        object.__setattr__(self, "usd", usd)
        for field in ("low_usd", "high_usd"):
            value = getattr(self, field)
            value = usd if value is None else check_number(
                f"Price({self.item!r}).{field}", value, unit="USD", minimum=0, min_inclusive=False)
            object.__setattr__(self, field, value)
        if not self.low_usd <= usd <= self.high_usd:
            raise ValueError(
                f"Price({self.item!r}): low_usd <= usd <= high_usd must hold, got "
                f"{self.low_usd:g} <= {usd:g} <= {self.high_usd:g}")
        if not isinstance(self.date, str) or not _DATE.match(self.date):
            raise ValueError(f"Price({self.item!r}).date = {self.date!r} must be 'YYYY-MM' or 'YYYY'")
        if not isinstance(self.source, Source):
            raise TypeError(f"Price({self.item!r}).source must be a Source, got {self.source!r}")
        if not self.source.estimate:
            raise ValueError(
                f"Price({self.item!r}).source must be marked estimate=True: prices in the book "
                "are estimates and the book labels them so")

    def at(self, end):
        """The price at ``"low"``, ``"central"`` or ``"high"`` end of its range [USD]."""
        check_choice("price end", end, ("low", "central", "high"))
        return {"low": self.low_usd, "central": self.usd, "high": self.high_usd}[end]


#: Kinds of link end in ``TRANSCEIVERS``, from the shortest reach to the longest.
MEDIA = ("passive copper", "active copper", "multimode optics", "single-mode optics")


@dataclass(frozen=True, kw_only=True)
class Transceiver:
    """A pluggable link end: an optical transceiver module, or the end of a copper cable.

    Parameters
    ----------
    name : str
        Part number, e.g. ``"MMS4X00-NS"``.
    description : str
        Form factor, rate and reach.
    ports : int
        Network ports the module serves: 2 for a twin-port OSFP in a Quantum-2
        switch cage (two 400 Gb/s ports), 1 for a single-port OSFP in a NIC.
    power_w : float
        Power the vendor gives for one module, or one cable end [W].
    sources : tuple of Source
        Where the figures come from.
    per_direction_bytes_per_s : float, optional
        Data rate of the whole module (all its ports), one direction [B/s].
    reach_m : float, optional
        Longest link the vendor specifies [m].
    medium : str, optional
        One of :data:`MEDIA`.

    Examples
    --------
    >>> from interconnect_lab import units as u
    >>> round(transceiver("MMS4X00-NS").energy_per_bit_j / u.pJ, 2)   # 17 W over 800 Gb/s
    21.25
    """

    name: str
    description: str
    ports: int
    power_w: float
    sources: tuple[Source, ...]
    per_direction_bytes_per_s: float | None = None
    reach_m: float | None = None
    medium: str | None = None

    def __post_init__(self):
        check_integer(f"Transceiver({self.name!r}).ports", self.ports, minimum=1)
        object.__setattr__(self, "power_w", check_number(
            f"Transceiver({self.name!r}).power_w", self.power_w, unit="W", minimum=0,
            min_inclusive=False))
        for field, unit in (("per_direction_bytes_per_s", "B/s"), ("reach_m", "m")):
            if getattr(self, field) is not None:
                object.__setattr__(self, field, check_number(
                    f"Transceiver({self.name!r}).{field}", getattr(self, field), unit=unit,
                    minimum=0, min_inclusive=False))
        if self.medium is not None:
            check_choice(f"Transceiver({self.name!r}).medium", self.medium, MEDIA)
        if not self.sources or not all(isinstance(s, Source) for s in self.sources):
            raise ValueError(f"Transceiver {self.name!r} needs at least one Source")

    @property
    def energy_per_bit_j(self) -> float | None:
        """Power over the data rate of one direction [J/bit]; None where the rate is not given.

        .. math:: E_\\text{bit} = P / R_\\text{one direction}

        The convention of optics datasheets and roadmaps: a module that draws 17 W
        while carrying 800 Gb/s each way is quoted at 17 W / 800 Gb/s = 21 pJ/bit.
        """
        if self.per_direction_bytes_per_s is None:
            return None
        return self.power_w / (self.per_direction_bytes_per_s / u.bit)


_GBIT_PER_S = u.Gbit_per_s

TRANSCEIVERS = MappingProxyType({t.name: t for t in (
    Transceiver(
        name="MMS4X00-NS", description="800 Gb/s twin-port OSFP, 2 x 400G DR4 single-mode, 100 m",
        ports=2, power_w=17.0, per_direction_bytes_per_s=800 * _GBIT_PER_S, reach_m=100.0,
        medium="single-mode optics",
        sources=(Source(title="NVIDIA MMS4X00-NS 800Gbps Twin-port OSFP 2x400Gb/s Single Mode DR8 100m: Overview",
                        year=2025, url="https://docs.nvidia.com/networking/display/800GMMS4X00NS/Overview",
                        note="'Twin-port single mode OSFP transceivers remain at 17 Watts for all configurations'; "
                             "used in Quantum-2 switch cages and the DGX H100's compute-fabric cages"),)),
    Transceiver(
        name="MMA4Z00-NS", description="800 Gb/s twin-port OSFP, 2 x 400G SR4 multimode, 50 m",
        ports=2, power_w=15.0, per_direction_bytes_per_s=800 * _GBIT_PER_S, reach_m=50.0,
        medium="multimode optics",
        sources=(Source(title="NVIDIA MMA4Z00-NS-T 800Gbps Twin-port OSFP 2x400Gb/s Multimode SR8 50m: Overview",
                        year=2025, url="https://docs.nvidia.com/networking/display/800gmma4z00nst/overview",
                        note="15 W"),)),
    Transceiver(
        name="MMS4X00-NS400", description="400 Gb/s single-port OSFP DR4 single-mode, 100 m (ConnectX-7 cards)",
        ports=1, power_w=9.0, per_direction_bytes_per_s=400 * _GBIT_PER_S, reach_m=100.0,
        medium="single-mode optics",
        sources=(Source(title="NVIDIA MMS4X00-NS400 400Gb/s Single-port OSFP Single Mode DR4: Overview",
                        year=2025, url="https://docs.nvidia.com/networking/display/mms4x00ns400/overview",
                        note="'draws 9 Watts maximum or 9 Watts typical' at 400 Gb/s"),)),
    Transceiver(
        name="MCP4Y10-N00x", description="2 x 400 Gb/s twin-port OSFP passive copper cable (DAC), 0.5 to 2 m",
        ports=2, power_w=0.1, per_direction_bytes_per_s=800 * _GBIT_PER_S, reach_m=2.0,
        medium="passive copper",
        sources=(Source(title="NVIDIA MCP4Y10-Nxxx Twin-port 2x400Gb/s OSFP to 2x400Gb/s OSFP Passive DAC "
                              "Product Specifications", year=2025,
                        url="https://docs.nvidia.com/networking/display/mcp4y10nxxx2x400pub",
                        note="'0.5, 1, 1.5, and 2-meter lengths', 8 channels of 100G-PAM4; links Quantum-2 or "
                             "Spectrum-4 switches 'up to 2-meters'"),
                 Source(title="NVIDIA MCP4Y10-Nxxx Product Specifications: Specifications", year=2025,
                        url="https://docs.nvidia.com/networking/display/mcp4y10nxxx2x400pub/specifications",
                        note="power consumption 0.1 W maximum (the EEPROM at each end; no electronics in the "
                             "data path)")),
    ),
    Transceiver(
        name="MCA7J70-N00x", description="800 Gb/s twin-port OSFP active copper cable (ACC), switch end, 4 to 5 m",
        ports=2, power_w=1.5, per_direction_bytes_per_s=800 * _GBIT_PER_S, reach_m=5.0,
        medium="active copper",
        sources=(Source(title="NVIDIA MCA7J70-Nxxx 800Gb/s Twin-port OSFP ACC Splitter Product Specifications: "
                              "Specifications", year=2025,
                        url="https://docs.nvidia.com/networking/display/MCA7J70NXXX800pub/Specifications",
                        note="power consumption of the 800G head end at the switch 1.5 W maximum (each 200G "
                             "tail 0.3 W)"),
                 Source(title="NVIDIA MCP7Y50-Nxxx 800Gbps Twin-port DAC Splitter: Use Cases", year=2024,
                        url="https://docs.nvidia.com/networking/display/mcp7y50nxxx800pub/use+cases",
                        note="'Active Copper Cables (ACC) are also available for lengths of 4 and 5-meters'")),
    ),
)})


def transceiver(name):
    """The transceiver called ``name``; an unknown name lists the valid ones.

    Parameters
    ----------
    name : str
        The transceiver's part name, a key of ``TRANSCEIVERS``.
    """
    check_choice("transceiver", name, TRANSCEIVERS)
    return TRANSCEIVERS[name]


#: How each named estimate picks the end of every price's range: (servers, network parts).
#: "low/high network share" pair the cheap end of one with the dear end of the other, which
#: brackets the network's share of the cost.
ESTIMATES = MappingProxyType({
    "central": ("central", "central"),
    "low": ("low", "low"),
    "high": ("high", "high"),
    "low network share": ("high", "low"),
    "high network share": ("low", "high"),
})


@dataclass(frozen=True, kw_only=True)
class PriceBook:
    """The prices a cluster-cost estimate uses, one :class:`Price` per part.

    Parameters
    ----------
    name : str
        Label shown in tables and figures.
    server : Price
        One server; ``item`` is the catalog system name.
    server_includes_nics : bool
        Whether the server price includes its compute-fabric NICs (true for a DGX).
    nic : Price or None
        One compute-fabric NIC; ``item`` is the catalog NIC name. None where no
        price is known, which requires ``server_includes_nics``.
    switch : Price
        One switch; ``item`` is the catalog switch name.
    switch_transceiver, host_transceiver : Price
        One transceiver module at a switch port and at a server port; ``item``
        is a ``TRANSCEIVERS`` key.
    cable : Price
        One fibre cable (one link).
    """

    name: str
    server: Price
    server_includes_nics: bool
    nic: Price | None
    switch: Price
    switch_transceiver: Price
    host_transceiver: Price
    cable: Price

    def __post_init__(self):
        for field in ("server", "switch", "switch_transceiver", "host_transceiver", "cable"):
            if not isinstance(getattr(self, field), Price):
                raise TypeError(f"PriceBook.{field} must be a Price, got {getattr(self, field)!r}")
        if self.nic is not None and not isinstance(self.nic, Price):
            raise TypeError(f"PriceBook.nic must be a Price or None, got {self.nic!r}")
        if self.nic is None and not self.server_includes_nics:
            raise ValueError(
                "PriceBook.nic is None but server_includes_nics is False: give a NIC price, or "
                "a server price that includes the NICs")
        for field in ("switch_transceiver", "host_transceiver"):
            transceiver(getattr(self, field).item)

    def at(self, estimate):
        """This book with every price moved to one end of its range.

        Parameters
        ----------
        estimate : str
            A key of :data:`ESTIMATES`: ``"central"``, ``"low"``, ``"high"``,
            ``"low network share"`` or ``"high network share"``.

        Returns
        -------
        PriceBook
            Prices whose ``usd`` is the chosen end (and whose range collapses to it).

        Examples
        --------
        >>> H100_NDR_PRICES.at("high").switch.usd
        50000.0
        """
        check_choice("estimate", estimate, ESTIMATES)
        if estimate == "central":
            return self
        server_end, network_end = ESTIMATES[estimate]

        def moved(price, end):
            if price is None:
                return None
            value = price.at(end)
            return dataclasses.replace(price, usd=value, low_usd=value, high_usd=value)

        return dataclasses.replace(
            self, name=f"{self.name} ({estimate})",
            server=moved(self.server, server_end),
            **{field: moved(getattr(self, field), network_end)
               for field in ("nic", "switch", "switch_transceiver", "host_transceiver", "cable")},
        )


# The default book: H100 generation on NDR InfiniBand ------------------------------------------

_LUXOPTX = Source(
    title="LuxOptX, 800G Optical Module Cost Analysis: TCO Optimization for AI Data Centers",
    year=2025,
    url="https://luxoptx.com/blogs/news/800g-optical-module-cost-analysis-tco-optimization-for-ai-data-centers",
    estimate=True,
    note=("vendor blog, undated; 'volume pricing for 1000+ units' of third-party modules; "
          "'OEM modules ... command 30-50% premium'. UNVERIFIED: no second source found"),
)

_CHEAH = Source(
    title="E. Cheah, H100 Freakonomics: the economical tiers of H100s (spreadsheet)",
    year=2024,
    url="https://substack.tech-talk-cto.com/p/h100-freakonomics-the-economical",
    estimate=True,
    note=("'Prices and projections were all done as per: Aug 2024'; '64 Port 400Gbps Infiniband "
          "Switch, is assumed to $36k ... based on the FS.com variant which is cheaper than the "
          "nvidia official variant (approx 50k)'"),
)

H100_NDR_PRICES = PriceBook(
    name="H100 + NDR InfiniBand, 2023-24 estimates",
    server=Price(
        item="DGX H100", usd=270_000, high_usd=355_920, date="2023-05",
        source=Source(
            title="D. Patel, G. Wong, AI Server Cost Analysis: Memory Is the Biggest Loser (SemiAnalysis)",
            year=2023,
            url="https://web.archive.org/web/20230529125834/https://www.semianalysis.com/p/ai-server-cost-analysis-memory-is",
            estimate=True,
            note="'Nvidia sells DGX H100's at around $270,000'; as recorded in Epoch AI's hardware price data"),
        note=("analyst estimate of NVIDIA's selling price, 8 GPUs with NVSwitch and 8 ConnectX-7. "
              "High end: Delta Computer list price EUR 369,856 = USD 355,920 (Sep 2022), from "
              "Epoch AI's 'Hardware prices.csv' (8 x 44,489.88)"),
    ),
    server_includes_nics=True,
    nic=None,
    switch=Price(
        item="Quantum-2 QM9700", usd=36_000, high_usd=50_000, date="2024-08", source=_CHEAH,
        note="FS.com-sold variant; the NVIDIA-branded switch about USD 50,000 (same source)",
    ),
    switch_transceiver=Price(
        item="MMS4X00-NS", usd=1_250, low_usd=1_100, high_usd=2_100, date="2025", source=_LUXOPTX,
        note=("'800G OSFP-DR8: $1,100-1,400'; central is the midpoint; high is 1,400 x 1.5 for an "
              "OEM (NVIDIA) module"),
    ),
    host_transceiver=Price(
        item="MMS4X00-NS", usd=1_250, low_usd=1_100, high_usd=2_100, date="2025", source=_LUXOPTX,
        note="the DGX H100's compute-fabric cages take the same twin-port module (two NICs each)",
    ),
    cable=Price(
        item="fibre cable", usd=100, low_usd=50, high_usd=150, date="2025", source=_LUXOPTX,
        note="'MPO-16 trunk cables $50-150 per cable'; NDR uses MPO-12/APC fibres, one per 400G link",
    ),
)

#: A 400 Gb/s single-port module for servers with PCIe ConnectX-7 cards (HGX-style), to swap
#: in with ``dataclasses.replace(book, host_transceiver=SINGLE_PORT_400G_TRANSCEIVER_PRICE)``.
SINGLE_PORT_400G_TRANSCEIVER_PRICE = Price(
    item="MMS4X00-NS400", usd=700, low_usd=600, high_usd=800, date="2025", source=_LUXOPTX,
    note="'400G QSFP-DD: $600-800' (the NIC takes the OSFP form factor); central is the midpoint",
)


def with_transceiver(book, name):
    """``book`` with every transceiver module (switch and host ends) replaced by ``name``.

    The price stays the same: the price book's module prices are ranges for 800G
    OSFP modules in general, not for one part. Use it to compare optics by power.

    Parameters
    ----------
    book : PriceBook
    name : str
        A ``TRANSCEIVERS`` key.

    Returns
    -------
    PriceBook

    Examples
    --------
    >>> with_transceiver(H100_NDR_PRICES, "MMA4Z00-NS").switch_transceiver.item
    'MMA4Z00-NS'
    """
    if not isinstance(book, PriceBook):
        raise TypeError(f"book must be a PriceBook, got {book!r}")
    transceiver(name)
    return dataclasses.replace(
        book, switch_transceiver=dataclasses.replace(book.switch_transceiver, item=name),
        host_transceiver=dataclasses.replace(book.host_transceiver, item=name))



# Electricity ------------------------------------------------------------------------------------

_EIA_2023 = Source(
    title="U.S. Energy Information Administration, Electric Power Annual 2023: average revenue per "
          "kilowatthour by state and sector",
    year=2024, url="https://www.eia.gov/electricity/annual/secrev-map.php",
    estimate=True,
    note=("released 17 Oct 2024, data for 2023; average revenue per kWh is EIA's proxy for the price. "
          "Industrial: Virginia 8.92, Texas 6.60, California 18.64 cents/kWh. Large buyers negotiate "
          "their own contracts, so this is an estimate of what a cluster pays, not a quote"),
)

#: One kWh of electricity for a large cluster [USD per kWh]: the 2023 industrial average of Virginia,
#: the largest US data-centre market, with Texas and California as the low and high ends.
ELECTRICITY_PRICE = Price(
    item="electricity, 1 kWh (US industrial average by state)", usd=0.0892, low_usd=0.0660,
    high_usd=0.1864, date="2023", source=_EIA_2023,
    note="central: Virginia industrial 8.92 cents/kWh; low: Texas 6.60; high: California 18.64 (EIA, 2023)",
)


# An Ethernet book: H100 on Tomahawk 5 switches split into 128 ports of 400 GbE ----------------

H100_ETHERNET_PRICES = PriceBook(
    name="H100 + 400GbE on Tomahawk 5, 2023-25 estimates",
    server=H100_NDR_PRICES.server,
    server_includes_nics=True,
    nic=None,
    switch=Price(
        item="Tomahawk 5 (128 x 400G)", usd=200_000, low_usd=150_000, high_usd=250_000, date="2025",
        source=_LUXOPTX,
        note=("'64-port 800G Ethernet switch' USD 150,000-250,000 (a box of one 51.2 Tb/s chip, run as "
              "128 ports of 400GbE); central is the midpoint. UNVERIFIED, and of another kind than the "
              "QM9700's reseller price: compare the two books with care"),
    ),
    switch_transceiver=H100_NDR_PRICES.switch_transceiver,
    host_transceiver=H100_NDR_PRICES.host_transceiver,
    cable=H100_NDR_PRICES.cable,
)
