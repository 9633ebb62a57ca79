"""Facility overhead (PUE) and rack power, as published."""

from __future__ import annotations

from dataclasses import dataclass

from .. import units as u
from ..sources import Source

__all__ = ["PueEstimate", "PUE_ESTIMATES", "RackPowerFigure", "RACK_POWER_FIGURES"]


# Facility overhead and rack power (chapter 10) --------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class PueEstimate:
    """A published power usage effectiveness: total facility power over IT power.

    Attributes
    ----------
    label : str
        Whose facilities, briefly.
    pue : float
        Power usage effectiveness, >= 1 [-].
    scope : str
        What was measured and how.
    source : Source
    """

    label: str
    pue: float
    scope: str
    source: Source


_UPTIME_2023 = Source(
    title="J. Davis, J. O'Brien (Uptime Institute Intelligence), Large data centers are mostly more "
          "efficient, analysis confirms", year=2023,
    url="https://intelligence.uptimeinstitute.com/resource/large-data-centers-are-mostly-more-efficient-analysis-confirms",
    note=("'industry PUE has remained at a high average (ranging from 1.55 to 1.59) since around 2020 ... "
          "In 2023, industry average PUE stood at 1.58'; from the Uptime Institute Global Data Center Survey"),
)

_UPTIME_2024 = Source(
    title="Cloud News, Uptime Institute highlights decline in trust in AI and need to improve sustainability "
          "metrics (on the Uptime Institute Global Data Center Survey 2024)", year=2024,
    url=("https://cloudnews.tech/uptime-institute-highlights-decline-in-trust-in-ai-and-need-to-improve-"
         "sustainability-metrics-in-data-centers"),
    estimate=True,
    note=("secondary: average PUE 'stable for five consecutive years'; new, larger facilities 'have achieved "
          "PUEs of 1.3 or even better'; average rack density still below 8-10 kW, few racks above 30 kW"),
)

#: Published PUE figures, the industry average first.
PUE_ESTIMATES: tuple[PueEstimate, ...] = (
    PueEstimate(label="industry average, Uptime Institute survey 2023", pue=1.58,
                scope="annual average PUE reported by operators for their largest data centre",
                source=_UPTIME_2023),
    PueEstimate(label="new large facilities, Uptime Institute survey 2024", pue=1.3,
                scope="'1.3 or even better' for newer, larger builds (an upper value)",
                source=_UPTIME_2024),
)


@dataclass(frozen=True, kw_only=True)
class RackPowerFigure:
    """A published figure bearing on how much power a rack, or a unit of racks, draws.

    Attributes
    ----------
    label : str
        What the figure is, briefly.
    power_w : float
        The figure [W].
    racks : int
        Racks it covers [-].
    kind : str
        ``"budget"`` (what a design provisions), ``"supply"`` (what the power supplies can
        deliver, an upper bound) or ``"survey"`` (what operators report).
    source : Source
    """

    label: str
    power_w: float
    racks: int
    kind: str
    source: Source

    @property
    def per_rack_w(self) -> float:
        """The figure per rack [W]."""
        return self.power_w / self.racks


#: What is public about the power of liquid-cooled GB200 NVL72 racks, and what air-cooled rooms hold.
#: No primary source gives the draw of one GB200 NVL72 rack.
RACK_POWER_FIGURES: tuple[RackPowerFigure, ...] = (
    RackPowerFigure(
        label="DGX GB200 SuperPOD scalable unit: 8 NVL72 racks, TDP", power_w=1.2 * u.MW, racks=8,
        kind="budget",
        source=Source(title="NVIDIA DGX SuperPOD reference architecture (GB200): architecture", year=2024,
                      url=("https://docs.nvidia.com/dgx-superpod/reference-architecture-scalable-infrastructure-"
                           "gb200/latest/dgx-superpod-architecture.html"),
                      note="a scalable unit of 8 DGX GB200 racks (576 GPUs) has a TDP of 1.2 MW, switches and "
                           "other racks of the unit included")),
    RackPowerFigure(
        label="GB200 rack power shelves: 8 shelves x 6 PSUs x 5.5 kW", power_w=8 * 6 * 5.5 * u.kW, racks=1,
        kind="supply",
        source=Source(title="NVIDIA Mission Control (Base Command Manager 11): BCM Power Shelf Integration",
                      year=2025,
                      url="https://docs.nvidia.com/base-command-manager/product-manuals/nvidia-mission-control/powershelf",
                      note="'The reference design for an NVIDIA GB200 rack has 8 power shelves, and uses 6 PSUs in "
                           "each power shelf. Each PSU is rated up to 5.5kW'; supply capacity, redundancy included")),
    RackPowerFigure(
        label="air-cooled data centres: most operators have no rack above 20 kW (Uptime 2023)",
        power_w=20 * u.kW, racks=1, kind="survey",
        source=Source(title="Uptime Institute, Global Data Center Survey 2023 (key points)", year=2023,
                      url="https://intelligence.uptimeinstitute.com/index.php/resource/uptime-institute-global-data-center-survey-2023",
                      note="'Server rack densities are climbing - steadily, but slowly. Most operators do not have "
                           "any racks beyond 20 kW'")),
)
