"""NCCL's tuning constants, as its source writes them.

Every number here is read from NVIDIA's NCCL at one commit (2.30-dev, June
2026) and kept in NCCL's own units (µs, GB/s) beside the name NCCL gives it;
:mod:`interconnect_lab.collectives.nccl` converts to base SI where it uses
them. Nothing here is fitted to a measurement.
"""

from __future__ import annotations

from types import MappingProxyType

from ..sources import Source
from .system import NCCL_COMMIT

__all__ = [
    "NCCL_ALGORITHMS", "PROTOCOLS", "NCCL_TUNING_SOURCE", "NCCL_SEARCH_SOURCE", "NCCL_ENQUEUE_SOURCE",
    "NCCL_NVLS_CHANNELS_SOURCE", "NCCL_P2P_SOURCE",
]

_BASE = f"https://github.com/NVIDIA/nccl/blob/{NCCL_COMMIT}/"

NCCL_TUNING_SOURCE = Source(
    title="NVIDIA, NCCL source: src/graph/tuning.cc (2.30-dev)", year=2026, url=_BASE + "src/graph/tuning.cc",
    locator="ncclTunerConstantsDefaults, nvlsEfficiency, ncclTopoTuneModel, treeCorrectionFactor, ncclTopoGetAlgoTime",
    note="base and per-hop latencies per algorithm and protocol; LL, LL128, tree and NVLSTree bandwidth caps; "
         "the model time = latency + bytes / algorithm bandwidth")
NCCL_SEARCH_SOURCE = Source(
    title="NVIDIA, NCCL source: src/graph/search.cc and src/graph/connect.cc (2.30-dev)", year=2026,
    url=_BASE + "src/graph/search.cc",
    locator="speedArrayIntra/Inter, sm90SpeedArray*, sm100SpeedArray*, ncclTopoCompute, ncclTopoDupChannels; "
            "connect.cc ncclTopoPostset",
    note="the per-channel speeds the topology search tries, and how it doubles channels")
NCCL_ENQUEUE_SOURCE = Source(
    title="NVIDIA, NCCL source: src/enqueue.cc and src/include/comm.h (2.30-dev)", year=2026,
    url=_BASE + "src/enqueue.cc", locator="updateCollCostTable, topoGetAlgoInfo; comm.h NCCL_*_THREAD_THRESHOLD",
    note="the cheapest (algorithm, protocol) wins; then channels drop while bytes < channels x threads x threshold")
NCCL_NVLS_CHANNELS_SOURCE = Source(
    title="NVIDIA, NCCL source: src/transport/nvls.cc (2.30-dev)", year=2026, url=_BASE + "src/transport/nvls.cc",
    locator="NVLS_NCHANNELS_SM90, NVLS_NCHANNELS_SM100, NVLS_NCHANNELS_SM100_NVL",
    note="NVLS runs 16 channels on Hopper, 24 on one Blackwell NVLink domain, 32 across domains")
NCCL_P2P_SOURCE = Source(
    title="NVIDIA, NCCL source: src/enqueue.cc, src/init.cc and src/graph/paths.cc (2.30-dev)", year=2026,
    url=_BASE + "src/graph/paths.cc",
    locator="taskAppend (alltoall as one send and one receive per peer), ncclTopoComputeP2pChannels, "
            "NCCL_MAX_DEV_WORK_P2P_PER_BATCH",
    note="all-to-all is n point-to-point pairs; a cross-node pair uses one NIC, PXN routes it over NVLink "
         "to the GPU on the right rail")

#: NCCL's algorithms in its own order (``NCCL_ALGO_*``), named as this library names them.
NCCL_ALGORITHMS = ("tree", "ring", "collnet_direct", "collnet_chain", "nvls", "nvls_tree", "pat")

#: NCCL's protocols (``NCCL_PROTO_*``).
PROTOCOLS = ("LL", "LL128", "Simple")

#: Fixed latency of one operation per algorithm and protocol (``baseLatencies``) [µs].
BASE_LATENCY_US = MappingProxyType({
    "tree": (6.8, 14.0, 8.4), "ring": (6.6, 14.0, 8.4), "collnet_direct": (0.0, 0.0, 0.0),
    "collnet_chain": (0.0, 0.0, 0.0), "nvls": (0.0, 0.0, 0.0), "nvls_tree": (0.0, 0.0, 0.0),
    "pat": (8.0, 8.0, 8.0),
})

#: Latency of one hop per hardware, algorithm and protocol (``hwLatencies``) [µs].
HOP_LATENCY_US = MappingProxyType({
    "nvlink": MappingProxyType({
        "tree": (0.6, 1.25, 4.0), "ring": (0.6, 1.9, 3.4), "collnet_direct": (0.0, 0.0, 3.7),
        "collnet_chain": (0.0, 0.0, 2.8), "nvls": (0.0, 0.0, 25.0), "nvls_tree": (0.0, 0.0, 25.0),
        "pat": (0.0, 0.0, 4.0)}),
    "pci": MappingProxyType({
        "tree": (1.0, 1.9, 4.0), "ring": (1.0, 2.5, 5.7), "collnet_direct": (0.0, 0.0, 3.7),
        "collnet_chain": (0.0, 0.0, 2.8), "nvls": (0.0, 0.0, 0.0), "nvls_tree": (0.0, 0.0, 0.0),
        "pat": (0.0, 0.0, 4.0)}),
    "net": MappingProxyType({
        "tree": (5.0, 8.5, 14.0), "ring": (2.7, 4.0, 14.0), "collnet_direct": (0.0, 0.0, 31.0),
        "collnet_chain": (0.0, 0.0, 30.0), "nvls": (0.0, 0.0, 18.0), "nvls_tree": (0.0, 0.0, 20.9),
        "pat": (0.0, 0.0, 14.0)}),
})

#: Most bandwidth LL reaches (``llMaxBws``) [GB/s]: one node by architecture; across nodes by
#: host CPU (Intel and Arm in the first row, AMD in the second), for 1, 2 and more nodes.
LL_MAX_BANDWIDTH_GBPS = MappingProxyType({
    "volta": (39.0, 39.0, 20.4), "ampere": (87.7, 22.5, 19.0), "hopper": (141.0, 45.0, 35.0),
    "blackwell": (2 * 141.0, 2 * 45.0, 2 * 35.0),
})

#: Per-channel caps by architecture, for 1, 2 and more nodes [GB/s].
RING_LL128_MAX_PER_CHANNEL_GBPS = MappingProxyType({
    "volta": (20.0, 20.0, 20.0), "ampere": (20.0, 20.0, 20.0), "hopper": (36.7, 36.7, 36.7),
    "blackwell": (40.0, 40.0, 40.0)})
TREE_LL128_MAX_PER_CHANNEL_GBPS = MappingProxyType({
    "volta": (20.0, 20.0, 20.0), "ampere": (20.0, 20.0, 20.0), "hopper": (36.7, 36.7, 29.0),
    "blackwell": (55.6, 31.67, 20.0)})
TREE_MAX_PER_CHANNEL_GBPS = MappingProxyType({
    "volta": (26.5, 18.5, 10.0), "ampere": (24.0, 23.6, 17.8), "hopper": (38.7, 41.4, 36.0),
    "blackwell": (70.0, 42.8, 24.0)})
NVLS_TREE_MAX_PER_CHANNEL_GBPS = MappingProxyType({
    "volta": (26.5, 18.5, 10.0), "ampere": (24.0, 23.6, 17.8), "hopper": (0.0, 57.7, 45.5),
    "blackwell": (0.0, 96.0, 80.0)})

#: NVLink SHARP efficiency by architecture (``nvlsEfficiency``) [-].
NVLS_EFFICIENCY = MappingProxyType({"volta": 0.0, "ampere": 0.0, "hopper": 0.85, "blackwell": 0.74})

#: Channels NVLS runs (``NVLS_NCHANNELS_*``): (one NVLink domain, several).
NVLS_CHANNELS = MappingProxyType({"hopper": (16, 16), "blackwell": (24, 32)})

#: Tree all-reduce bandwidth correction by message size, powers of two from 64 B (``treeCorrectionFactor``).
TREE_CORRECTION = MappingProxyType({
    "LL": (1.0, 1.0, 1.0, 1.0, .9, .8, .7, .7, .7, .7, .6, .5, .4, .4, .5, .6, .7, .8, .9, 1.0, 1.0, 1.0, 1.0, 1.0),
    "LL128": (1.0, 1.0, 1.0, 1.0, 1.0, .9, .8, .8, .8, .7, .6, .6, .6, .6, .6, .6, .8, .9, .9, .9, .9, 1.0, 1.0,
              1.0),
    "Simple": (.9, .9, .9, .9, .9, .9, .9, .8, .7, .6, .6, .5, .5, .5, .5, .6, .7, .8, .7, .7, .8, .9, .9, .9),
})

#: Cost of posting one network operation (``getNetOverhead``) [µs]; tripled for Simple.
NET_OVERHEAD_US = MappingProxyType({"intel": 1.0, "amd": 2.0, "arm": 1.0})

#: "Plateau effect of ring": multi-node Simple ring all-reduce latency multiplier (Ampere and later).
RING_PLATEAU_LATENCY_FACTOR = 1.4

#: Per-channel speeds the topology search tries, highest first [GB/s]: within one node, across nodes.
SEARCH_SPEEDS_GBPS = MappingProxyType({
    "volta": ((40.0, 30.0, 20.0, 18.0, 15.0, 12.0, 10.0, 9.0, 7.0, 6.0, 5.0, 4.0, 3.0),
              (48.0, 30.0, 28.0, 24.0, 20.0, 18.0, 15.0, 12.0, 10.0, 9.0, 7.0, 6.0, 5.0, 4.0, 3.0, 2.4, 1.2,
               0.24, 0.12)),
    "hopper": ((60.0, 50.0, 40.0, 30.0, 24.0, 20.0, 15.0, 12.0, 11.0, 6.0, 3.0),
               (48.0, 45.0, 42.0, 40.0, 30.0, 24.0, 22.0, 20.0, 17.5, 15.0, 12.0, 6.0, 3.0, 2.4, 1.2, 0.24, 0.12)),
    "blackwell": ((90.0, 80.0, 70.0, 60.0, 50.0, 45.0, 40.0, 30.0, 24.0, 20.0, 19.0, 18.0),
                  (96.0, 86.0, 80.0, 48.0, 45.1, 42.0, 40.0, 30.0, 24.0, 22.0, 20.0, 17.5, 15.0, 12.0, 6.0, 3.0,
                   2.4, 1.2, 0.24, 0.12)),
})
SEARCH_SPEEDS_GBPS = MappingProxyType({**SEARCH_SPEEDS_GBPS, "ampere": SEARCH_SPEEDS_GBPS["volta"]})

#: Channels the ring search may find (``MAXCHANNELS / 2``) and the most a communicator runs.
RING_MAX_CHANNELS = 32
MAX_CHANNELS = 64

#: Threads per channel per protocol (``NCCL_LL_MAX_NTHREADS``, ``NCCL_LL128_MAX_NTHREADS``,
#: ``NCCL_SIMPLE_MAX_NTHREADS``) and bytes per thread below which NCCL drops a channel
#: (``NCCL_*_THREAD_THRESHOLD``; LL's is multiplied by the ranks for the ring).
THREADS = MappingProxyType({"LL": 512, "LL128": 640, "Simple": 512})
THREAD_THRESHOLD_BYTES = MappingProxyType({"LL": 8, "LL128": 8, "Simple": 64})

#: Most local ranks NVLS serves for collectives other than all-reduce (``NCCL_MAX_NVLS_ARITY``) and
#: most local GPUs CollNet Direct serves (``NCCL_MAX_DIRECT_ARITY + 1``).
MAX_NVLS_ARITY = 32
MAX_DIRECT_ARITY = 8

#: Peers one point-to-point batch serves (``NCCL_MAX_DEV_WORK_P2P_PER_BATCH``).
P2P_PEERS_PER_BATCH = 8
