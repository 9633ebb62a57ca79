"""Mixture of experts: expert parallelism and the all-to-all traffic it makes.

A mixture-of-experts (MoE) layer replaces a transformer's one MLP with many
*experts* and a router that sends every token to its ``top_k`` best experts.
With *expert parallelism* (EP) the experts are spread over ``ep_degree`` GPUs,
so every MoE layer moves tokens twice:

- **dispatch**: each GPU sends each of its tokens' hidden vectors to the GPUs
  that hold the chosen experts (an all-to-all);
- **combine**: the experts' outputs travel back and are summed with the
  router's weights (another all-to-all, the same bytes in reverse).

This module counts those bytes and where they go (:func:`all_to_all_traffic`),
draws skewed routing with a seed (:func:`routing_load`), asks the collective
model (:mod:`interconnect_lab.collectives`) for the time of the two all-to-alls
as an expert-parallel kernel runs them on the group's NVLink domains and ports
(:func:`expert_parallel_all_to_all`: NCCL's all-to-all, DeepEP's normal kernels
with one network copy per destination domain and an NVLink forward, low-latency
kernels posting one RDMA write per token from the GPU or from CPU proxies), and
puts compute and communication together into the time of one MoE layer
(:func:`moe_layer_step`). :func:`~interconnect_lab.moe.reproduction.ep_reproduction_table` checks the kernels
against published EP benchmarks.

The model's assumptions, stated once: destinations are uniformly random unless
a routing draw says otherwise; every GPU has its link to itself (NVSwitch, a
non-blocking fat tree); the busiest receiver sets the pace of an all-to-all.

Examples
--------
DeepSeek-V3's layer on 64 H800 (8 nodes of 8), 4,096 tokens per GPU:

>>> from interconnect_lab import moe
>>> model = moe.moe_model("DeepSeek-V3")
>>> traffic = moe.all_to_all_traffic(4096, model.hidden_size, model.top_k, 64, experts=model.experts,
...                                  bytes_per_element=1.0, domain_size=8, hierarchical=True,
...                                  max_domains_per_token=model.max_nodes_per_token)
>>> round(traffic.network_bytes / 1e6, 1), round(traffic.scale_up_bytes / 1e6, 1)
(102.8, 189.1)
"""

from . import models, routing, traffic
from .._deprecation import deprecated_attribute
from .layer import MoELayerStep, moe_layer_step
from .models import DEEPSEEK_V3, MIXTRAL, MoEModel, moe_model  # noqa: F401
from .routing import RoutingLoad, expected_ranks_per_token, incast_fan_in, routing_load, zipf_expert_shares
from .traffic import (
    NODE_LIMITED_ROUTING, AllToAllTime, AllToAllTraffic, all_to_all_traffic, dispatch_and_combine,
    expert_parallel_all_to_all, expert_parallel_system, fp8_scale_bytes,
)

# The tables and bounds again here, each with its comment, so that the API page documents them
# where readers look them up (``moe.MAX_EXPERTS``).

#: Published MoE architectures, by name (DeepSeek-V3, Mixtral 8x7B).
MOE_MODELS = models.MOE_MODELS

#: Most routed experts a layer may have [-]: 256 times DeepSeek-V3's 256.
MAX_EXPERTS = routing.MAX_EXPERTS

#: Most tokens one GPU (or a group, in :func:`routing_load`) may route at once [token].
MAX_TOKENS = routing.MAX_TOKENS

#: Node-limited routing as DeepSeek-V3 does it: a token's nodes are chosen by their experts' best scores,
#: so every chosen node holds one of its experts (the source of :func:`all_to_all_traffic`'s rule).
NODE_LIMITED_ROUTING = NODE_LIMITED_ROUTING

__all__ = [
    "MoEModel", "MOE_MODELS", "moe_model",
    "expected_ranks_per_token", "AllToAllTraffic", "all_to_all_traffic",
    "zipf_expert_shares", "RoutingLoad", "routing_load",
    "NODE_LIMITED_ROUTING", "AllToAllTime", "expert_parallel_system", "expert_parallel_all_to_all",
    "MoELayerStep", "moe_layer_step", "incast_fan_in", "fp8_scale_bytes", "dispatch_and_combine",
    "MAX_EXPERTS", "MAX_TOKENS",
]


def __getattr__(name):
    # The old α-β pricing's names still answer, with a DeprecationWarning (see _deprecation.DEPRECATED_NAMES).
    return deprecated_attribute(__name__, name)
