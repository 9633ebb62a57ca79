r"""Collective operations: α-β cost models, what NCCL runs on a machine, and algbw and busbw.

Two layers, the second built on the first:

1. **α-β models per link** (:func:`collective_performance` and friends): an
   algorithm's steps and bytes over one link of bandwidth :math:`B` and step
   latency :math:`\alpha` (what chapter 7 teaches first);
2. **the model of what NCCL runs** (:func:`nccl_collective`, :func:`nccl_time`)
   on a :class:`CollectiveSystem` (GPUs, NVLink domains, ports, SHARP): every
   algorithm and protocol NCCL has for the collective is one α-β line, with
   NCCL's own latencies and its bus bandwidth from the channels its topology
   search finds (a ring is exactly :func:`collective_performance`'s ring with
   :math:`B` = NCCL's bus bandwidth, :math:`\alpha` = its hop latency and
   :math:`t_0` = its base latency); NCCL runs the cheapest. All-to-all and
   send/recv are point-to-point pairs bounded by each GPU's port
   (:func:`point_to_point`). An MoE layer's dispatch and combine are the same
   all-to-all as expert-parallel kernels run it (:func:`expert_parallel_exchange`:
   NCCL's pairs, DeepEP's normal kernels forwarding over NVLink, low-latency
   kernels posting one RDMA write per token from the GPU or from CPU proxies).
   :func:`nccl_choice_map` maps what NCCL runs over message sizes and node
   counts, with the sizes where its choice changes. Every other module prices its
   collectives here;
3. **what serving engines run** (:func:`serving_all_reduce`): inside one NVLink
   domain, vLLM's and TensorRT-LLM's one-shot and two-shot kernels, PyTorch's
   multimem all-reduce and NCCL's symmetric kernels (NCCL 2.27 and later), chosen
   by size as each engine's code does, with NCCL beyond them.

Every rank holds a buffer; a *collective* combines them (all-reduce, all-gather,
reduce-scatter, broadcast, reduce, all-to-all, send/recv). An *algorithm* is the
pattern of point-to-point messages (or switch operations) that performs it: a
ring, a pipelined double binary tree, recursive halving and doubling, direct
sends, a two-level hierarchy, or reduction inside the switches (NVLink SHARP,
InfiniBand SHARP).

The α-β model charges every algorithm a latency per step and a bandwidth cost
per byte that crosses the busiest rank's link in one direction:

.. math::

    t(S) = t_0 + k\,\alpha + \frac{\tau\, S}{\eta_\text{alg}\,\eta\, B}

with :math:`S` the message size as nccl-tests counts it, :math:`k` the number
of sequential steps, :math:`\alpha` the latency of one step, :math:`t_0` a
fixed launch latency, :math:`\tau S` the bytes the busiest rank sends, :math:`B`
its link bandwidth per direction, :math:`\eta` the share of that line rate
data can use (protocol overhead) and :math:`\eta_\text{alg}` a documented
per-algorithm factor. A hierarchical algorithm adds one such term per level.

nccl-tests reports two bandwidths (NVIDIA/nccl-tests ``doc/PERFORMANCE.md``):
the *algorithm bandwidth* ``algbw = S / t`` and the *bus bandwidth*
``busbw = algbw × factor``, with factor 2(n−1)/n for all-reduce, (n−1)/n for
all-gather, reduce-scatter and all-to-all, and 1 for broadcast, reduce and
send/recv. For point-to-point algorithms busbw is the per-rank link bandwidth
the collective actually used, so it can be compared with the hardware. See
:func:`bus_bandwidth_factor` for how in-network reduction is counted.

Defaults, each with its source (see the constants below):

- :data:`NVLINK_EFFICIENCY` = 0.80: an NVLink carries about 20 GB/s of data per
  25 GB/s of line rate when GPU streaming multiprocessors write 128-byte
  payloads (nccl-tests issue #149).
- :data:`NETWORK_EFFICIENCY` = 0.96: NCCL's maintainers take 24 GB/s as the peak
  of a 200 Gb/s (25 GB/s) NIC (nccl-tests issue #119).
- :data:`NCCL_LATENCIES`: NCCL's tuning constants for the ring algorithm, per
  protocol; the defaults are those of the ``Simple`` protocol NCCL uses for
  large messages: 8.4 µs launch, 3.4 µs per NVLink step, 14 µs per network step.
- per-algorithm factors in :data:`ALGORITHMS`: 0.92 for the tree and 0.85 for
  in-network reduction, the factors NCCL's own cost model applies.

Examples
--------
Ring all-reduce of 1 GiB on 8 H100 (NVLink 4, 450 GB/s per GPU per direction):

>>> from interconnect_lab import units as u
>>> result = collective_performance("all_reduce", 1 * u.GiB, 8, 450 * u.GB_per_s,
...                                 NVLINK_STEP_LATENCY_S)
>>> round(result.bus_bandwidth_bytes_per_s / u.GB_per_s)
356
>>> round(result.time_s / u.ms, 2)
5.28
"""

from .._deprecation import renamed_attribute
from . import algorithms, defaults
# Imported here so that ``collectives.reference`` (collectives performed step by step) needs no import of its own.
from . import reference  # noqa: F401
from .defaults import ProtocolLatency, link_parameters, nvls_efficiency
from .algorithms import (  # noqa: F401
    Algorithm, algorithms_for, bus_bandwidth_factor, algorithm_bandwidth, bus_bandwidth,
)
from .model import CollectivePerformance, collective_performance
from .system import (  # noqa: F401
    ARCHITECTURES, CPU_VENDORS, NCCL_NVLINK_BYTES_PER_S_PER_LINK, CollectiveSystem, architecture_of,
    collective_system, nvlink_bytes_per_s,
)
from .tuning import NCCL_ALGORITHMS, PROTOCOLS  # noqa: F401
from .nccl import (  # noqa: F401
    NCCL_COLLECTIVES, AlgorithmCost, Candidate, NcclCollective, algorithm_costs, nccl_collective, nccl_time,
)
from .point_to_point import POINT_TO_POINT_COLLECTIVES, PointToPoint, point_to_point  # noqa: F401
from .choice_map import ChoiceMap, Crossover, nccl_choice_map  # noqa: F401
from .expert_parallel import (  # noqa: F401
    BANDWIDTH_DEFINITIONS, EXPERT_PARALLEL_KERNELS, BandwidthDefinition, ExpertParallelExchange,
    ExpertParallelKernel, ExpertParallelTraffic, bandwidth_definition, expert_parallel_exchange,
    expert_parallel_kernel, reported_bandwidth,
)
from .serving import (  # noqa: F401
    SERVING_KERNELS, SERVING_KERNEL_SOURCES, SERVING_ENGINES, SYMMETRIC_KERNELS, ServingAllReduce, ServingEngine,
    ServingKernel, SymmetricAllReduce, nccl_symmetric_all_reduce, serving_all_reduce, serving_kernel_time,
)
from .times import (  # noqa: F401
    collective_time, all_reduce_time, all_gather_time, reduce_scatter_time, broadcast_time,
    reduce_time, all_to_all_time, send_recv_time, crossover_size, half_bandwidth_size,
)

#: The collectives, named as the model and the reference implementation name them.
COLLECTIVES = defaults.COLLECTIVES

#: Share of NVLink line rate that NCCL's data can use [-]. One NVLink carries
#: 25 GB/s per direction on the wire but ~20 GB/s of data with the 128-byte
#: payloads that GPU streaming multiprocessors write (copy engines use 256 B);
#: NCCL's maintainers quote the same ~20% protocol overhead for H100.
NVLINK_EFFICIENCY = defaults.NVLINK_EFFICIENCY

#: Share of a network port's data rate that NCCL reaches [-]: its maintainers take
#: 24 GB/s as the peak of a 200 Gb/s (25 GB/s) NIC and 12 GB/s for 100 Gb/s.
NETWORK_EFFICIENCY = defaults.NETWORK_EFFICIENCY

#: HBM traffic of a collective per byte it receives over a link [-]: at least twice
#: (NCCL stores what arrives, then reads it back), so a collective hidden behind
#: compute still takes memory bandwidth from it.
HBM_BYTES_PER_RECEIVED_BYTE = defaults.HBM_BYTES_PER_RECEIVED_BYTE

#: Where :data:`HBM_BYTES_PER_RECEIVED_BYTE` comes from.
HBM_TRAFFIC_SOURCE = defaults.HBM_TRAFFIC_SOURCE

#: Where the two efficiencies come from.
EFFICIENCY_SOURCES = defaults.EFFICIENCY_SOURCES

#: NCCL's ring latency constants per protocol (``src/graph/tuning.cc``).
NCCL_LATENCIES = defaults.NCCL_LATENCIES

#: Default fixed latency per collective: NCCL ``Simple`` protocol [s].
BASE_LATENCY_S = defaults.BASE_LATENCY_S

#: Default latency of one step over NVLink: NCCL ``Simple`` protocol [s].
NVLINK_STEP_LATENCY_S = defaults.NVLINK_STEP_LATENCY_S

#: Default latency of one step over the network: NCCL ``Simple`` protocol [s].
NETWORK_STEP_LATENCY_S = defaults.NETWORK_STEP_LATENCY_S

#: NCCL's NVLS efficiency per NVLink generation (Hopper 0.85, Blackwell 0.74) [-].
NVLS_EFFICIENCY = defaults.NVLS_EFFICIENCY

#: Latency of one NVLS all-reduce beyond the base latency, ``Simple`` protocol [s].
NVLS_LATENCY_S = defaults.NVLS_LATENCY_S

#: The kinds of expert-parallel kernel, by name: ``"nccl"``, ``"normal"``, ``"low_latency"``,
#: ``"host_proxied"``, ``"nvlink_one_sided"`` (:func:`expert_parallel_exchange` prices each).
EXPERT_PARALLEL_KERNELS = EXPERT_PARALLEL_KERNELS

#: How each implementation's test counts the bandwidth it prints, by name (:func:`reported_bandwidth`).
BANDWIDTH_DEFINITIONS = BANDWIDTH_DEFINITIONS

#: Every algorithm, by name: the table that lists them and dispatches to their costs.
ALGORITHMS = algorithms.ALGORITHMS

#: Where algbw, busbw and the busbw factors are defined.
BUS_BANDWIDTH_SOURCE = algorithms.BUS_BANDWIDTH_SOURCE

__all__ = [
    # names
    "COLLECTIVES", "ALGORITHMS", "Algorithm", "algorithms_for",
    # defaults
    "NVLINK_EFFICIENCY", "NETWORK_EFFICIENCY", "EFFICIENCY_SOURCES", "HBM_BYTES_PER_RECEIVED_BYTE",
    "HBM_TRAFFIC_SOURCE",
    "ProtocolLatency", "NCCL_LATENCIES", "BASE_LATENCY_S",
    "NVLINK_STEP_LATENCY_S", "NETWORK_STEP_LATENCY_S", "link_parameters",
    "NVLS_EFFICIENCY", "NVLS_LATENCY_S", "nvls_efficiency",
    # results and models
    "CollectivePerformance", "collective_performance", "collective_time",
    "all_reduce_time", "all_gather_time", "reduce_scatter_time", "broadcast_time",
    "reduce_time", "all_to_all_time", "send_recv_time", "crossover_size",
    "half_bandwidth_size",
    # nccl-tests definitions
    "BUS_BANDWIDTH_SOURCE", "algorithm_bandwidth", "bus_bandwidth", "bus_bandwidth_factor",
    # what NCCL runs on a machine
    "ARCHITECTURES", "CPU_VENDORS", "NCCL_NVLINK_BYTES_PER_S_PER_LINK", "CollectiveSystem", "collective_system",
    "architecture_of", "nvlink_bytes_per_s", "NCCL_ALGORITHMS", "PROTOCOLS", "NCCL_COLLECTIVES", "POINT_TO_POINT_COLLECTIVES",
    "AlgorithmCost", "Candidate", "NcclCollective", "algorithm_costs", "nccl_collective", "nccl_time",
    "PointToPoint", "point_to_point", "ChoiceMap", "Crossover", "nccl_choice_map",
    # expert-parallel dispatch and combine
    "EXPERT_PARALLEL_KERNELS", "ExpertParallelKernel", "expert_parallel_kernel", "ExpertParallelTraffic",
    "ExpertParallelExchange", "expert_parallel_exchange", "BANDWIDTH_DEFINITIONS", "BandwidthDefinition",
    "bandwidth_definition", "reported_bandwidth",
    # what serving engines run
    "SERVING_KERNELS", "ServingKernel", "serving_kernel_time", "SERVING_KERNEL_SOURCES", "SYMMETRIC_KERNELS",
    "SymmetricAllReduce", "nccl_symmetric_all_reduce", "SERVING_ENGINES", "ServingEngine", "ServingAllReduce",
    "serving_all_reduce",
]


def __getattr__(name):
    # Names renamed in this release still answer, with a DeprecationWarning (see _deprecation.RENAMED_NAMES).
    return renamed_attribute(__name__, name)
