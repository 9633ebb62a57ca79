"""Topology: scale-up NVLink domains and scale-out fat trees, counted.

Two kinds of network join the GPUs of a training cluster.

*Scale-up domains* join a few GPUs (8 in a DGX H100, 72 in a GB200 NVL72)
through NVSwitch chips: every GPU has a fixed number of NVLinks to every
switch chip, so any GPU reaches any other at its full NVLink rate.
:func:`scale_up_domain` counts the chips, links and bandwidth of such a domain.

*Scale-out fat trees* join thousands of GPUs through their network adapters
(one port per GPU on a DGX). :func:`fat_tree` builds a folded-Clos fat tree of
1, 2 or 3 tiers from switches of radix *k* and returns a :class:`FatTree`: how
many switches, links and transceivers it needs, its bisection bandwidth, and the
hops between two hosts. The classic non-blocking counts (Al-Fares et al. 2008)
are the special case ``oversubscription=1, rails=1``:

==========  ===============  ==================
tiers       hosts (max)      switches (full)
==========  ===============  ==================
2           :math:`k^2/2`    :math:`3k/2`
3           :math:`k^3/4`    :math:`5k^2/4`
==========  ===============  ==================

Wiring rules
------------
A :class:`FatTree` is a description from which the flow simulator
(``interconnect_lab.fabric``) builds its link-level graph; every count in it
follows from these rules.

1. **Leaves.** A leaf switch has ``leaf_down_ports`` ports towards hosts and
   ``leaf_up_ports`` towards spines, in the ratio ``oversubscription``
   (down : up). Hosts fill leaves in order.
2. **Rails.** With ``rails = R > 1`` (rail-optimized; *R* is the number of
   network ports per node, 8 on a DGX) host *r* of every node goes to the leaf
   of rail *r* of its *rail group*: a rail group is *R* leaves serving up to
   ``leaf_down_ports`` nodes (NVIDIA's *scalable unit*). Leaves come in whole
   rail groups. With ``rails = 1`` a rail group is a single leaf.
3. **Spines, 2 tiers.** Every leaf connects to every spine, and every
   leaf-spine pair carries the same number of parallel links, so all paths
   through the spines are alike. The spine count is the smallest divisor of
   ``leaf_up_ports`` whose spines have enough ports for all leaf up-links. This
   is why NVIDIA's 3-SU SuperPOD has 16 spines, not the 12 that would just
   hold its 768 up-links.
4. **Pods, 3 tiers.** A pod is ``leaves_per_pod`` leaves (whole rail groups,
   at most *k/2*) and ``spines_per_pod`` spines, wired by rule 3; a spine uses
   *k/2* ports down and *k/2* up, so the tiers above the leaves are
   non-blocking. Spine *j* of every pod connects to core group *j*; a core
   group has the smallest number of cores that divides *k/2* evenly and has
   ports for one group of up-links from every pod.
5. **Built for growth.** Every switch's up-ports are cabled even where its
   down-ports are not all used, and every pod has its full set of spines, as
   NVIDIA advises for SuperPODs ("the fabric should be designed to support the
   full SU").

Optics assumption: every link is an optical fibre with one transceiver at each
end. Transceivers are counted per *port end*; a twin-port module that serves
two switch ports counts as two (:mod:`interconnect_lab.pricebook` converts
port ends into modules).

Beyond the fat tree
-------------------
:func:`rail_only` and :func:`direct_connect` drop a fat tree's top tier (one
separate tree per rail; pods joined block to block, Jupiter-style);
:func:`multi_plane_fat_tree` builds several fat trees side by side (an adapter split into
one port per plane, or each GPU of a server on its own plane, as DeepSeek's is);
:func:`dragonfly` builds HPE Slingshot's kind of network and :func:`torus`
TPU-style tori with optical circuit switches. Every design condenses to a
:class:`TopologySummary` (hosts, switches, links, hops, bisection, failure
exposure), and :func:`topology_comparison` puts them side by side with the
network's cost per host port.

References
----------
M. Al-Fares, A. Loukissas, A. Vahdat, "A Scalable, Commodity Data Center
Network Architecture", SIGCOMM 2008, https://doi.org/10.1145/1402958.1402967.

NVIDIA, "DGX SuperPOD: Next Generation Scalable Infrastructure for AI
Leadership, Reference Architecture featuring DGX H100", Network Fabrics,
https://docs.nvidia.com/dgx-superpod/reference-architecture-scalable-infrastructure-h100/latest/network-fabrics.html
"""

from .fat_trees import PATHS, FatTree, PathLatency, fat_tree, max_hosts, path_latency
from .scale_up import NVLINK_DOMAIN_WIRING, ScaleUpDomain, nvlink_domain, scale_up_domain
from .summary import TopologySummary, fat_tree_summary
from .dragonflies import SLINGSHOT, Dragonfly, dragonfly, dragonfly_max_hosts
from .tori import TPU_V4, Torus, torus
from .spineless import JUPITER_REPORTED, RAIL_ONLY_REPORTED, DirectConnect, RailOnly, direct_connect, rail_only
from .comparison import COMPARISON_COLUMNS, TopologyComparison, network_cost_per_host, topology_comparison
from .planes import PLANE_SPLITS, MultiPlaneFatTree, multi_plane_fat_tree, multi_plane_max_endpoints

__all__ = [
    "ScaleUpDomain", "scale_up_domain", "nvlink_domain", "NVLINK_DOMAIN_WIRING",
    "FatTree", "fat_tree", "max_hosts", "PATHS", "PathLatency", "path_latency",
    # beyond the fat tree
    "TopologySummary", "fat_tree_summary",
    "Dragonfly", "dragonfly", "dragonfly_max_hosts", "SLINGSHOT",
    "Torus", "torus", "TPU_V4",
    "RailOnly", "rail_only", "DirectConnect", "direct_connect", "RAIL_ONLY_REPORTED", "JUPITER_REPORTED",
    "TopologyComparison", "topology_comparison", "network_cost_per_host", "COMPARISON_COLUMNS",
    # several fat trees side by side
    "MultiPlaneFatTree", "multi_plane_fat_tree", "multi_plane_max_endpoints", "PLANE_SPLITS",
]
