"""Latency: where a small message's time goes, part by part, as published."""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType

from .. import units as u
from ..sources import Source

__all__ = ["LATENCY_DISSECTION_SOURCE", "LatencyEstimate", "LATENCY_ESTIMATES"]


# Latency: where a small message's time goes ---------------------------------------------


#: The one public breakdown found of a small message's latency, part by part. Secondary: a
#: vendor's article giving "the consensus range from public measurements"; use with that label.
LATENCY_DISSECTION_SOURCE: Source = Source(
    title="Kentino, Latency Dissection: Where Every Microsecond Goes in an AI Cluster Network",
    year=2025,
    url=("https://kentino.com/cs/pages/latency-dissection-where-every-microsecond-goes-in-an-ai-"
         "cluster-network"),
    locator="table 'The full round trip, one slide'",
    estimate=True,
    note=("secondary: 'the consensus range from public measurements, NVIDIA/Mellanox "
          "documentation, and our own benches ... a budget, not a guarantee'; 64-byte ping-pong"),
)


@dataclass(frozen=True, kw_only=True)
class LatencyEstimate:
    """A published range for the time one part of a message's path takes.

    Attributes
    ----------
    part : str
        What takes the time.
    low_s, high_s : float
        The range [s] (per ``per``).
    per : str
        What one value covers: ``"end"`` (sender or receiver, each), ``"trip"``
        (one way, both ends together), ``"round trip"``, ``"hop"`` (one
        switch) or ``"metre"`` (of cable).
    source : Source
        Where the range is published.
    """

    part: str
    low_s: float
    high_s: float
    per: str
    source: Source

    PER = ("end", "trip", "round trip", "hop", "metre")

    def __post_init__(self):
        if self.per not in self.PER:
            raise ValueError(f"LatencyEstimate.per = {self.per!r}; valid values are {self.PER}")
        if not 0 <= self.low_s <= self.high_s:
            raise ValueError(f"LatencyEstimate({self.part!r}): 0 <= low_s <= high_s must hold")

    def at(self, end):
        """The value at the ``"low"``, ``"central"`` (midpoint) or ``"high"`` end [s]."""
        values = {"low": self.low_s, "central": (self.low_s + self.high_s) / 2, "high": self.high_s}
        if end not in values:
            raise ValueError(f"unknown end {end!r}; valid ends are: 'low', 'central', 'high'")
        return values[end]


#: Latency of the parts of a small message's path, as published (all secondary estimates).
LATENCY_ESTIMATES = MappingProxyType({e.part: e for e in (
    LatencyEstimate(part="application post or receive", low_s=0.1 * u.us, high_s=1 * u.us,
                    per="end", source=LATENCY_DISSECTION_SOURCE),
    LatencyEstimate(part="NIC transmit or receive path (RDMA)", low_s=0.3 * u.us, high_s=0.8 * u.us,
                    per="end", source=LATENCY_DISSECTION_SOURCE),
    LatencyEstimate(part="kernel TCP/IP stack", low_s=10 * u.us, high_s=30 * u.us,
                    per="trip", source=LATENCY_DISSECTION_SOURCE),
    LatencyEstimate(part="Ethernet switch, cut-through", low_s=400 * u.ns, high_s=600 * u.ns,
                    per="hop", source=LATENCY_DISSECTION_SOURCE),
    LatencyEstimate(part="propagation in cable", low_s=5 * u.ns, high_s=5 * u.ns,
                    per="metre", source=LATENCY_DISSECTION_SOURCE),
    LatencyEstimate(part="RDMA round trip through one switch", low_s=2 * u.us, high_s=2 * u.us,
                    per="round trip", source=LATENCY_DISSECTION_SOURCE),
    LatencyEstimate(part="kernel TCP round trip", low_s=20 * u.us, high_s=60 * u.us,
                    per="round trip", source=LATENCY_DISSECTION_SOURCE),
)})
