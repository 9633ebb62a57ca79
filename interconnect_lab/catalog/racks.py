"""Rack power: what one liquid-cooled GPU rack draws, and how power reaches it.

Each entry is one rack design with the power its sources give for it, per rack,
and the voltage its power is distributed at inside the rack. A range
(``power_low_w`` to ``power_w``) is kept where the sources disagree; a figure
no primary source gives is marked ``estimate=True`` on its source. Entries carry
the catalog's status convention (``interconnect_lab.catalog._common``), so a
forward-looking rack (announced, not shipping) has an as-of and an expected-by
date and ``tests/catalog/test_currency.py`` fails once that date has passed.

Examples
--------
>>> from interconnect_lab import catalog, units as u
>>> [round(r.power_w / u.kW) for r in catalog.RACK_POWER.values()]
[142, 227, 600]
>>> catalog.rack_power("Rubin Ultra NVL576 (Kyber)").distribution
'800 VDC'
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType

from .. import units as u
from .._lookup import resolve
from .._validation import check_integer
from ..sources import Source
from ._common import check_member, check_positive_fields, check_sources, check_status, check_text, name_table

__all__ = ["RackPower", "RACK_POWER", "rack_power", "POWER_DISTRIBUTIONS", "DISTRIBUTION_VOLTS", "HVDC_800V"]

#: How power reaches a rack's trays: AC in, converted by power shelves in the rack to a 48-54 V DC
#: busbar (the NVL72 racks of 2024-26), or 800 V DC from the facility (NVIDIA's plan from 2027).
POWER_DISTRIBUTIONS = ("48-54 VDC in the rack", "800 VDC")

#: The voltage of each distribution [V]: the top of the 48-54 V range (so a current computed from it is
#: the least it can be) and 800 V. Sources: the Flex shelves of a Vera Rubin NVL72 put out 52 V
#: (_PHITHETASIGMA), in-rack busbars run at 48-54 V (_TRENDFORCE_800V's report, the Register), and
#: :data:`HVDC_800V`.
DISTRIBUTION_VOLTS = MappingProxyType({"48-54 VDC in the rack": 54.0, "800 VDC": 800.0})


@dataclass(frozen=True, kw_only=True)
class RackPower:
    """The power of one rack design, per rack.

    Parameters
    ----------
    name : str
        The rack, e.g. ``"GB300 NVL72"``.
    gpus : int
        GPU packages in the rack [-].
    power_w : float
        The figure the sources give, or the top of their range [W].
    power_low_w : float or None
        The bottom of the sources' range where they disagree [W]; None for one figure.
    distribution : str or None
        One of ``POWER_DISTRIBUTIONS``, where a source says.
    status, status_date, as_of, expected_by : str or None
        The catalog's status convention (``interconnect_lab.catalog._common``).
    sources : tuple of Source
        The first gives the figure (:attr:`estimate` reads it); the others bear on it.
    note : str
        What the figure is (a maximum, a thermal design power, an estimate).
    """

    name: str
    gpus: int
    power_w: float
    power_low_w: float | None = None
    distribution: str | None = None
    status: str | None = None
    status_date: str | None = None
    as_of: str | None = None
    expected_by: str | None = None
    sources: tuple[Source, ...]
    note: str = ""

    def __post_init__(self):
        check_sources(self)
        check_status(self)
        check_text(self, "name")
        check_integer("RackPower.gpus", self.gpus, minimum=1, maximum=10_000)
        check_positive_fields(self, [("power_w", "W"), ("power_low_w", "W")], allow_none=("power_low_w",))
        if self.power_low_w is not None and self.power_low_w > self.power_w:
            raise ValueError(f"RackPower {self.name!r}: power_low_w = {self.power_low_w:g} W must be at most "
                             f"power_w = {self.power_w:g} W")
        if self.distribution is not None:
            check_member(self, "distribution", POWER_DISTRIBUTIONS)

    @property
    def per_gpu_w(self) -> float:
        """The rack's power over its GPU packages, everything else in the rack included [W]."""
        return self.power_w / self.gpus

    @property
    def estimate(self) -> bool:
        """Whether the figure is an estimate: its first source, the one that gives it, is marked so."""
        return self.sources[0].estimate


#: When the statuses of this module's entries were last checked against their sources.
_CHECKED = "2026-12-07"

#: NVIDIA's plan to feed racks with 800 V DC from the facility (announced at Computex, May 2025).
HVDC_800V = Source(
    title="NVIDIA Technical Blog, NVIDIA 800 V HVDC Architecture Will Power the Next Generation of AI Factories",
    year=2025, url="https://developer.nvidia.com/blog/nvidia-800-v-hvdc-architecture-will-power-the-next-"
                   "generation-of-ai-factories/",
    note="May 2025 (day not verified): 800 V DC from the facility to the rack for the 1 MW racks NVIDIA expects "
         "from 2027 (Kyber), in place of in-rack AC-to-54 V power shelves; claims up to 5 % end-to-end "
         "efficiency gain (as secondary sources report it; the page's text was not read); white paper '800 VDC "
         "Architecture for Next-Generation AI Infrastructure' (OCP Global Summit, Oct 2025)",
)
_TRENDFORCE_800V = Source(
    title="Cloud News (on TrendForce), NVIDIA prepares 800V racks: AI is no longer just hitting GPUs, it's hitting "
          "the power grid", year=2026,
    url="https://cloudnews.tech/nvidia-prepares-800v-racks-ai-is-no-longer-just-hitting-gpus-its-hitting-the-power-grid/",
    estimate=True,
    note="secondary, analyst: GB300 'approximately 150 kW per rack', VR200 'about 225 kW', Rubin Ultra 'around "
         "660 kW'; the 800 V rack 'ready for customer shipments by Q3 2026' as an option for Vera Rubin, wider "
         "adoption with Rubin Ultra (H2 2027), wide deployment 2028",
)

_PHITHETASIGMA = Source(
    title="phi theta sigma (analyst posts), Vera Rubin NVL72 power shelves at Computex 2026", year=2026,
    url="https://asia.aguea.com/phithetasigma", estimate=True,
    note="secondary: 'Max P TDP of about 227kW', '4 x 3RU power shelves for a total of 440kW' (Flex 110 kW "
         "shelves converting 345-480 VAC 'into 52VDC output'); no NVIDIA figure found; reports a SemiAnalysis note "
         "on a delay of 800 VDC (UNVERIFIED)",
)

RACK_POWER = name_table([
    RackPower(
        name="GB300 NVL72", gpus=72, power_w=142 * u.kW,
        status="shipping", status_date="2025", as_of=_CHECKED,
        sources=(
            Source(title="NVIDIA, NVL72 AI Factory Enterprise Reference Architecture: Components", year=2025,
                   url="https://docs.nvidia.com/enterprise-reference-architectures/nvl72-ai-factory/latest/"
                       "components.html",
                   note="GB300 NVL72: 'Full rack requiring up to 142 kW'; '8 power shelves of 33 kW'"),
            _TRENDFORCE_800V,
        ),
        note="NVIDIA's maximum for the rack; TrendForce's ~150 kW (an analyst's figure) is close",
    ),
    RackPower(
        name="Vera Rubin NVL72", gpus=72, power_w=227 * u.kW, power_low_w=225 * u.kW, distribution="48-54 VDC in the rack",
        status="announced", status_date="2025-03-18", as_of=_CHECKED, expected_by="2026-12",
        sources=(
            _TRENDFORCE_800V,
            _PHITHETASIGMA,
        ),
        note="no NVIDIA figure found: two analysts' 225-227 kW; status and expected-by as the catalog's "
             "Vera Rubin NVL72 system",
    ),
    RackPower(
        name="Rubin Ultra NVL576 (Kyber)", gpus=144, power_w=600 * u.kW, distribution="800 VDC",
        status="announced", status_date="2025-03-18", as_of=_CHECKED, expected_by="2027-12",
        sources=(
            Source(title="Tom's Hardware, Nvidia shows off Rubin Ultra with 600,000-Watt Kyber racks and "
                         "infrastructure, coming in 2027", year=2025,
                   url="https://www.tomshardware.com/pc-components/gpus/nvidia-shows-off-rubin-ultra-with-600-000-"
                       "watt-kyber-racks-and-infrastructure-coming-in-2027",
                   estimate=True,
                   note="secondary, on GTC 2025 (18 March): 'single rack solutions that consume up to 600kW, as "
                        "Jensen Huang verified'; 'intended to ship in the second half of 2027'; 576 GPU dies, "
                        "four per package"),
            HVDC_800V,
        ),
        note="an announced upper figure; TrendForce says ~660 kW; 144 packages of four dies (NVIDIA counts 576)",
    ),
])


def rack_power(name: str) -> RackPower:
    """The catalog rack called ``name``; an unknown name lists the valid ones.

    Parameters
    ----------
    name : str or RackPower
        A key of ``RACK_POWER`` (an entry itself is returned as it is).

    Examples
    --------
    >>> rack_power("GB300 NVL72").per_gpu_w
    1972.2222222222222
    """
    return resolve("name", name, RackPower, RACK_POWER)
