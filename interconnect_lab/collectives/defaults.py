"""Defaults of the collective models: efficiencies, NCCL's protocol latencies, per-link parameters."""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType

from .. import units as u
from ..sources import (
    NCCL_ISSUE_1428, NCCL_ISSUE_1442, NCCL_NVLS_TUNING, NCCL_TESTS_ISSUE_119, NCCL_TESTS_ISSUE_149, NCCL_TESTS_ISSUE_212,
    NCCL_TUNING, Source,
)


#: The collectives, named as the model and the reference implementation name them.
COLLECTIVES = ("all_reduce", "all_gather", "reduce_scatter", "broadcast", "reduce",
               "all_to_all", "send_recv")

_REDUCTIONS = ("all_reduce", "reduce_scatter", "reduce")


# Defaults -----------------------------------------------------------------------

#: Share of NVLink line rate that NCCL's data can use [-]. One NVLink carries
#: 25 GB/s per direction on the wire but ~20 GB/s of data with the 128-byte
#: payloads that GPU streaming multiprocessors write (copy engines use 256 B);
#: NCCL's maintainers quote the same ~20% protocol overhead for H100.
NVLINK_EFFICIENCY = 0.80

#: Share of a network port's data rate that NCCL reaches [-]: its maintainers take
#: 24 GB/s as the peak of a 200 Gb/s (25 GB/s) NIC and 12 GB/s for 100 Gb/s.
NETWORK_EFFICIENCY = 0.96

#: HBM traffic of a collective per byte it receives over a link [-]: NCCL stores what
#: arrives in memory and reads it back, so a collective running beside compute takes at
#: least twice its link bandwidth from HBM (three times when it also reads or writes the
#: user's buffers); the maintainers' lower figure.
HBM_BYTES_PER_RECEIVED_BYTE = 2.0

#: Where :data:`HBM_BYTES_PER_RECEIVED_BYTE` comes from.
HBM_TRAFFIC_SOURCE = NCCL_ISSUE_1428

#: Where the two efficiencies come from.
EFFICIENCY_SOURCES = MappingProxyType({
    "NVLINK_EFFICIENCY": (NCCL_TESTS_ISSUE_149, NCCL_TESTS_ISSUE_212, NCCL_ISSUE_1442),
    "NETWORK_EFFICIENCY": (NCCL_TESTS_ISSUE_119,),
})


@dataclass(frozen=True, kw_only=True)
class ProtocolLatency:
    """NCCL's latency constants for the ring algorithm under one protocol.

    Attributes
    ----------
    protocol : str
        ``"LL"`` (low latency: 8-byte stores carrying a flag with the data),
        ``"LL128"`` (128-byte lines, 120 B of data) or ``"Simple"`` (large chunks
        with separate synchronization).
    base_latency_s : float
        Fixed latency of one collective (NCCL's ``baseLat``) [s].
    nvlink_step_latency_s : float
        Latency of one ring step over NVLink (``hwLat`` NVLink) [s].
    network_step_latency_s : float
        Latency of one ring step over the network (``hwLat`` NET) [s].
    source : Source
        Where the constants come from.
    """

    protocol: str
    base_latency_s: float
    nvlink_step_latency_s: float
    network_step_latency_s: float
    source: Source


#: NCCL's ring latency constants per protocol (``src/graph/tuning.cc``).
NCCL_LATENCIES = MappingProxyType({
    name: ProtocolLatency(protocol=name, base_latency_s=base * u.us,
                          nvlink_step_latency_s=nvlink * u.us,
                          network_step_latency_s=network * u.us, source=NCCL_TUNING)
    for name, base, nvlink, network in (
        ("LL", 6.6, 0.6, 2.7),
        ("LL128", 14.0, 1.9, 4.0),
        ("Simple", 8.4, 3.4, 14.0),
    )
})

#: Default fixed latency per collective: NCCL ``Simple`` protocol [s].
BASE_LATENCY_S = NCCL_LATENCIES["Simple"].base_latency_s
#: Default latency of one step over NVLink: NCCL ``Simple`` protocol [s].
NVLINK_STEP_LATENCY_S = NCCL_LATENCIES["Simple"].nvlink_step_latency_s
#: Default latency of one step over the network: NCCL ``Simple`` protocol [s].
NETWORK_STEP_LATENCY_S = NCCL_LATENCIES["Simple"].network_step_latency_s


#: NCCL's NVLS (NVLink SHARP) efficiency per NVLink generation [-]: ``nvlsEfficiency``
#: in ``src/tuning/nvls.cc``, by compute capability: Hopper (NVLink 4) 0.85,
#: Blackwell (NVLink 5) 0.74; Volta and Ampere have no NVLS.
NVLS_EFFICIENCY = MappingProxyType({"NVLink 4": 0.85, "NVLink 5": 0.74})

#: Latency of one NVLS all-reduce beyond the base latency [s]: NCCL's hardware
#: latency for the NVLS algorithm over NVLink, ``Simple`` protocol (23 µs).
NVLS_LATENCY_S = 23.0 * u.us

#: Where the NVLS constants come from.
NVLS_SOURCES = (NCCL_NVLS_TUNING, NCCL_TUNING)


def nvls_efficiency(link_name):
    """NCCL's NVLS efficiency for an NVLink generation, or None where NVLS does not exist [-].

    Parameters
    ----------
    link_name : str
        A catalog link's name (``"NVLink 4"``).

    Examples
    --------
    >>> nvls_efficiency("NVLink 4"), nvls_efficiency("NVLink 5"), nvls_efficiency("NVLink 3")
    (0.85, 0.74, None)

    A name that is not a catalog link is an error, with the closest names suggested.
    """
    from ..catalog import LINKS
    from .._validation import check_choice

    if not isinstance(link_name, str):
        raise TypeError(f"link_name must be a catalog link name (a string), got {link_name!r}")
    check_choice("link name", link_name, LINKS)
    return NVLS_EFFICIENCY.get(link_name)


_NETWORK_FAMILIES = ("InfiniBand", "Ethernet")


def link_parameters(link):
    """The model's per-rank parameters for a catalog link, with the sourced defaults.

    Parameters
    ----------
    link : interconnect_lab.catalog.Link
        An NVLink generation (the bandwidth is all of one GPU's links, one
        direction) or a network port (InfiniBand, Ethernet: one port, one
        direction).

    Returns
    -------
    dict
        ``bandwidth_bytes_per_s`` [B/s], ``latency_s`` [s] and ``efficiency`` [-],
        to pass on as keywords to :func:`collective_performance` and friends.

    Raises
    ------
    ValueError
        For a link family without sourced defaults (PCIe, CXL, Infinity Fabric):
        pass bandwidth, latency and efficiency explicitly.

    Examples
    --------
    >>> from interconnect_lab.collectives import collective_performance
    >>> from interconnect_lab import catalog
    >>> params = link_parameters(catalog.link("NVLink 4"))
    >>> params["bandwidth_bytes_per_s"] / 1e9, params["efficiency"]
    (450.0, 0.8)
    >>> round(collective_performance("all_reduce", 8 * 2**30, 8, **params)
    ...       .bus_bandwidth_bytes_per_s / 1e9)
    360
    """
    family = getattr(link, "family", None)
    if family == "NVLink":
        bandwidth = link.per_gpu_per_direction_bytes_per_s
        if bandwidth is None:
            raise ValueError(f"link {link.name!r} has no links_per_gpu: cannot tell one GPU's "
                             "NVLink bandwidth")
        return {"bandwidth_bytes_per_s": bandwidth, "latency_s": NVLINK_STEP_LATENCY_S,
                "efficiency": NVLINK_EFFICIENCY}
    if family in _NETWORK_FAMILIES:
        return {"bandwidth_bytes_per_s": link.per_direction_bytes_per_s,
                "latency_s": NETWORK_STEP_LATENCY_S, "efficiency": NETWORK_EFFICIENCY}
    if family is None:
        raise TypeError(f"link must be a catalog Link, got {link!r}")
    raise ValueError(f"no sourced collective defaults for link family {family!r}; valid "
                     f"families are: 'NVLink', {', '.join(map(repr, _NETWORK_FAMILIES))} "
                     "(or pass bandwidth_bytes_per_s, latency_s and efficiency yourself)")
