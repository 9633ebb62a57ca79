"""Inference traffic: what the network does while a model answers.

Serving a language model has two phases with different appetites
(Splitwise, DistServe):

- **prefill** reads the whole prompt at once: compute-bound;
- **decode** makes one token per sequence per step: it reads every weight it
  uses and the whole KV cache from HBM each step.

The network enters in four places, each a module:

- ``interconnect_lab.inference.tensor_parallel``: a dense model split over
  the GPUs of an NVLink domain all-reduces a few kilobytes twice per layer, with
  the serving engines' one-shot and two-shot kernels
  (:func:`tensor_parallel_decode_all_reduce`);
- ``interconnect_lab.inference.expert_parallel``: an MoE model with
  data-parallel attention and its experts spread over many GPUs sends every token
  to its experts and back in every layer (:func:`wide_ep_decode_step`);
- ``interconnect_lab.inference.disaggregation``: prefill and decode on
  different machines move each request's KV cache (:func:`kv_transfer`), and a
  reusable cache can wait in host DRAM, another server or SSDs across the network
  (``KV_TIERS``, :func:`disaggregated_ttft`);
- ``interconnect_lab.inference.deployment``: TTFT and ITL of a TP deployment
  and the network's share of each (:func:`serving_deployment`).

``interconnect_lab.inference.models`` holds the models and the bytes of their
KV caches, grouped-query or latent (MLA), BF16 or FP8. Every collective is priced
by :mod:`interconnect_lab.collectives` (all-to-alls through :mod:`interconnect_lab.moe`).

Examples
--------
Llama 3 70B on 8 H100, one sequence: each decode all-reduce is 16 KiB.

>>> from interconnect_lab import inference
>>> ar = inference.tensor_parallel_decode_all_reduce("Llama 3 70B", 8, batch=1)
>>> ar.message_bytes / 1024, ar.all_reduces_per_token
(16.0, 160)
"""

from .models import (
    INFERENCE_MODELS, KV_CACHE_FORMATS, LATENT_ATTENTION, OPT_66B, SERVING_MODELS, LatentAttention, inference_model,
    kv_bytes_per_token, prefill_flops, serving_model,
)
from .tensor_parallel import SERVING_ENGINES, DecodeAllReduce, tensor_parallel_decode_all_reduce, tensor_parallel_system
from .disaggregation import (
    KV_TIERS, DisaggregatedTTFT, KVTier, KVTransfer, disaggregated_ttft, kv_load_time, kv_tier, kv_transfer,
)
from .expert_parallel import (
    DECODE_MEMORY_EFFICIENCY, MLA_COMPUTE_EFFICIENCY, WideEPDecode, wide_ep_decode_step,
)
from .deployment import ServingDeployment, serving_deployment

__all__ = [
    "INFERENCE_MODELS", "inference_model", "OPT_66B", "SERVING_MODELS", "serving_model", "LatentAttention",
    "LATENT_ATTENTION", "KV_CACHE_FORMATS", "kv_bytes_per_token", "prefill_flops",
    "SERVING_ENGINES", "DecodeAllReduce", "tensor_parallel_decode_all_reduce", "tensor_parallel_system",
    "KVTransfer", "kv_transfer", "KVTier", "KV_TIERS", "kv_tier", "kv_load_time", "DisaggregatedTTFT",
    "disaggregated_ttft",
    "WideEPDecode", "wide_ep_decode_step", "DECODE_MEMORY_EFFICIENCY", "MLA_COMPUTE_EFFICIENCY",
    "ServingDeployment", "serving_deployment",
]
