"""A fast flow-level simulator of AI-cluster fabrics (chapters 5, 6 and 9).

- :mod:`~interconnect_lab.fabric.network` — the link-level graph of a fat tree
- :mod:`~interconnect_lab.fabric.direct` — dragonflies and tori: links, minimal and Valiant routing
- :mod:`~interconnect_lab.fabric.traffic` — permutations, all-to-all, incast, all-reduce phases
- :mod:`~interconnect_lab.fabric.routing` — ECMP, packet spraying, adaptive routing
- :mod:`~interconnect_lab.fabric.maxmin` — max-min fair sharing by progressive filling
- :mod:`~interconnect_lab.fabric.simulation` — event-driven flow completion
- :mod:`~interconnect_lab.fabric.collisions` — ECMP hash collisions as balls into bins
- :mod:`~interconnect_lab.fabric.incast` — one congested port, packet by packet: lossless, drop-tail, trimming
- :mod:`~interconnect_lab.fabric.reordering` — a sprayed message's packets arriving out of order
- :mod:`~interconnect_lab.fabric.stragglers` — a synchronous step waits for its slowest worker
"""

from .._deprecation import renamed_attribute
from .incast import FLOW_CONTROLS, RECOVERIES, IncastCurve, IncastResult, IncastSimulation, incast_collapse, incast_port
from .maxmin import MaxMinRates, incidence_matrix, max_min_rates
from .network import LINK_KINDS, Network
from .direct import DIRECT_ROUTINGS, DirectNetwork, direct_route, dragonfly_network, simulate_direct, torus_network
from .reordering import SPRAY_ORDERS, SprayArrivals, spray_arrivals
from .collisions import CollisionExpectation, ecmp_collisions, max_load_cdf
from .routing import ROUTINGS, Routes, explicit_routes, route
from .simulation import (
    SimulatedCollective,
    FlowResult,
    FlowSimulation,
    RateResult,
    simulate_collective,
    compare_routings,
    fair_rates,
    simulate,
    simulate_flows,
    simulate_routes,
)
from .stragglers import (
    JITTERS,
    DegradedLink,
    RankTimings,
    SlowRanks,
    StepTimes,
    degraded_link_effect,
    detect_slow_ranks,
    lagging_worker_cost,
    rank_timings,
    sample_step_times,
    step_times,
)
from .traffic import (
    PLACEMENTS,
    Collective,
    Phase,
    Traffic,
    all_to_all,
    background,
    combine,
    hierarchical_all_reduce_traffic,
    incast,
    permutation,
    rank_placement,
    ring_all_reduce_traffic,
)

__all__ = [
    # network
    "Network", "LINK_KINDS",
    # direct networks (dragonfly, torus)
    "DirectNetwork", "dragonfly_network", "torus_network", "DIRECT_ROUTINGS", "direct_route", "simulate_direct",
    # traffic
    "Traffic", "Phase", "Collective", "PLACEMENTS", "permutation", "all_to_all", "incast", "background",
    "combine", "ring_all_reduce_traffic", "hierarchical_all_reduce_traffic", "rank_placement",
    # routing
    "ROUTINGS", "Routes", "route", "explicit_routes",
    # collisions
    "CollisionExpectation", "ecmp_collisions", "max_load_cdf",
    # incast
    "FLOW_CONTROLS", "RECOVERIES", "IncastSimulation", "IncastResult", "IncastCurve", "incast_port", "incast_collapse",
    # reordering
    "SPRAY_ORDERS", "SprayArrivals", "spray_arrivals",
    # max-min
    "MaxMinRates", "max_min_rates", "incidence_matrix",
    # stragglers
    "JITTERS", "StepTimes", "step_times", "sample_step_times", "lagging_worker_cost", "RankTimings",
    "rank_timings", "SlowRanks", "detect_slow_ranks", "DegradedLink", "degraded_link_effect",
    # simulation
    "FlowSimulation", "FlowResult", "RateResult", "SimulatedCollective", "simulate", "simulate_routes",
    "simulate_flows",
    "fair_rates", "simulate_collective", "compare_routings",
]


def __getattr__(name):
    # Names renamed in this release still answer, with a DeprecationWarning (see _deprecation.RENAMED_NAMES).
    return renamed_attribute(__name__, name)
