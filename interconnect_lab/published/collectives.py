"""Bus bandwidth measured with nccl-tests, as NCCL's maintainers and users published it."""

from __future__ import annotations

from dataclasses import dataclass

from .. import units as u
from ..sources import MLENG_NETWORK, Source
from ..sources import (
    NCCL_ISSUE_1442, NCCL_ISSUE_1455, NCCL_TESTS_ISSUE_149, NCCL_TESTS_ISSUE_212,
    NCCL_TESTS_ISSUE_319,
)

__all__ = ["CollectiveMeasurement", "NCCL_BUS_BANDWIDTH", "NCCL_NVLS_SCALING", "NCCL_ISSUE_812",
           "DGX_A100_MULTINODE_ALL_REDUCE_BYTES_PER_S"]


# Collectives: bus bandwidth measured with nccl-tests ------------------------------------


@dataclass(frozen=True, kw_only=True)
class CollectiveMeasurement:
    """A collective's bandwidth measured with nccl-tests, as its source states it.

    Attributes
    ----------
    system : str
        What was measured, as the source describes it.
    link : str
        Catalog name of the link each rank sends on (``"NVLink 4"``, ``"InfiniBand NDR"``).
    n_ranks : int
        Ranks (GPUs) in the run.
    collective : str
        The collective, named as :mod:`interconnect_lab.collectives` names it.
    algorithm : str
        The algorithm NCCL ran, named as :data:`interconnect_lab.collectives.ALGORITHMS` names it.
    size_bytes : float
        Message size at which the figure holds [B]. Sources quote the plateau of a
        sweep to ``-e 8G``; where they give no size, 8 GiB.
    bus_bandwidth_bytes_per_s : float
        busbw as nccl-tests printed it [B/s] (factor 2(n-1)/n for every all-reduce,
        NVLS included).
    algorithm_bandwidth_bytes_per_s : float or None
        algbw where the source states it [B/s].
    source : Source
        Where it is stated; the note says by whom.
    """

    system: str
    link: str
    n_ranks: int
    collective: str
    algorithm: str
    size_bytes: float
    bus_bandwidth_bytes_per_s: float
    algorithm_bandwidth_bytes_per_s: float | None
    source: Source


#: Peak bus bandwidths stated by NCCL's maintainers (published-results §5), plus the
#: H200 figures of the ML Engineering book and one network port.
NCCL_BUS_BANDWIDTH: tuple[CollectiveMeasurement, ...] = (
    CollectiveMeasurement(
        system="8x A100 SXM, NVSwitch", link="NVLink 3", n_ranks=8, collective="all_reduce",
        algorithm="ring", size_bytes=8 * u.GiB, bus_bandwidth_bytes_per_s=230 * u.GB_per_s,
        algorithm_bandwidth_bytes_per_s=None, source=NCCL_TESTS_ISSUE_149),
    CollectiveMeasurement(
        system="8x H100 SXM, NVSwitch, NCCL_ALGO=RING", link="NVLink 4", n_ranks=8,
        collective="all_reduce", algorithm="ring", size_bytes=8 * u.GiB,
        bus_bandwidth_bytes_per_s=370 * u.GB_per_s, algorithm_bandwidth_bytes_per_s=None,
        source=NCCL_TESTS_ISSUE_212),
    CollectiveMeasurement(
        system="8x H100 SXM, NVSwitch, NVLink SHARP (default algorithm)", link="NVLink 4",
        n_ranks=8, collective="all_reduce", algorithm="nvls", size_bytes=8 * u.GiB,
        bus_bandwidth_bytes_per_s=480 * u.GB_per_s,
        algorithm_bandwidth_bytes_per_s=275 * u.GB_per_s, source=NCCL_TESTS_ISSUE_212),
    CollectiveMeasurement(
        system="8x H100 SXM (AWS p5.48xlarge), collectives other than all-reduce",
        link="NVLink 4", n_ranks=8, collective="all_gather", algorithm="ring",
        size_bytes=8 * u.GiB, bus_bandwidth_bytes_per_s=370 * u.GB_per_s,
        algorithm_bandwidth_bytes_per_s=None, source=NCCL_ISSUE_1442),
    CollectiveMeasurement(
        system="8x H200 SXM, NCCL_ALGO=RING", link="NVLink 4", n_ranks=8,
        collective="all_reduce", algorithm="ring", size_bytes=8 * u.GiB,
        bus_bandwidth_bytes_per_s=365.6 * u.GB_per_s, algorithm_bandwidth_bytes_per_s=None,
        source=MLENG_NETWORK.at("NVLink SHARP", note="secondary: measured 365.6 GB/s without "
                                                     "and 473.1 GB/s with NVLS on 8 H200")),
    CollectiveMeasurement(
        system="8x H200 SXM, NVLink SHARP", link="NVLink 4", n_ranks=8,
        collective="all_reduce", algorithm="nvls", size_bytes=8 * u.GiB,
        bus_bandwidth_bytes_per_s=473.1 * u.GB_per_s, algorithm_bandwidth_bytes_per_s=None,
        source=MLENG_NETWORK.at("NVLink SHARP", note="secondary: measured 365.6 GB/s without "
                                                     "and 473.1 GB/s with NVLS on 8 H200")),
    CollectiveMeasurement(
        system="ConnectX-7 at 400 Gb/s, per NIC, 2 HGX nodes", link="InfiniBand NDR",
        n_ranks=16, collective="all_reduce", algorithm="ring", size_bytes=8 * u.GiB,
        bus_bandwidth_bytes_per_s=48 * u.GB_per_s, algorithm_bandwidth_bytes_per_s=None,
        source=NCCL_TESTS_ISSUE_319),
)

#: NVLS all-reduce on 2 to 8 H100 SXM of one node, 2-4 GB messages, as a user reported
#: it (nccl issue #1455): busbw "about 365-370 GB/s" for 2-4 GPUs (stored as 367.5),
#: then 420, 440, 460, 480 GB/s, with algbw 258, 265, 270, 273 GB/s for 5-8 GPUs.
NCCL_NVLS_SCALING: tuple[CollectiveMeasurement, ...] = tuple(
    CollectiveMeasurement(
        system=f"{n}x H100 SXM, NCCL_ALGO=NVLS", link="NVLink 4", n_ranks=n,
        collective="all_reduce", algorithm="nvls", size_bytes=2 * u.GiB,
        bus_bandwidth_bytes_per_s=busbw * u.GB_per_s,
        algorithm_bandwidth_bytes_per_s=None if algbw is None else algbw * u.GB_per_s,
        source=NCCL_ISSUE_1455)
    for n, busbw, algbw in (
        (2, 367.5, None), (3, 367.5, None), (4, 367.5, None),
        (5, 420, 258), (6, 440, 265), (7, 460, 270), (8, 480, 273),
    )
)


NCCL_ISSUE_812 = Source(
    title="NVIDIA/nccl issue 812: Why Tree has better bandwidth performance than Ring on only 2 DGX-A100?",
    year=2023, url="https://github.com/NVIDIA/nccl/issues/812",
    note="an NCCL maintainer: 'On an Nvidia DGX-A100 system we have 8x200Gbit/s IB cards and we measure "
         "192GB/s AllReduce BusBW'; on two nodes Tree's busbw exceeds the NICs' limit, so force Ring to "
         "measure the scale-out rate")

#: All-reduce bus bandwidth across DGX A100 nodes (8 A100 and 8 x 200 Gb/s HDR per node),
#: ring, as NCCL's maintainers measure it [B/s]: what the two-level model must reach.
DGX_A100_MULTINODE_ALL_REDUCE_BYTES_PER_S: float = 192 * u.GB_per_s
