"""Wide expert parallelism in decode: data-parallel attention, experts spread over many GPUs.

DeepSeek serves DeepSeek-V3 with each GPU running attention for its own
sequences (data parallelism: every GPU holds the attention weights and its
sequences' MLA cache, and no tensor-parallel all-reduce remains) and the
routed experts spread over 144 GPUs, two per GPU, so that each expert sees
enough tokens per step (DeepSeek's inference overview). Every MoE layer of
every decode step then sends each sequence's token to its eight experts and
back: a dispatch and a combine across the NVLink domain and the network
(:func:`interconnect_lab.moe.dispatch_and_combine`, with DeepEP's GPU-initiated
low-latency kernels by default). Two micro-batches overlap one's communication
with the other's computation.

:func:`wide_ep_decode_step` times one decode step of one GPU, term by term:

- **attention** (per layer): reading its weights and the micro-batch's MLA cache
  from HBM, or the attention's FLOPs, whichever is longer;
- **experts**: the shared expert and router, and the GPU's routed experts, each
  reading its weights or doing its FLOPs (FP8);
- **dispatch and combine** (per MoE layer);
- the first dense layers and the output head, with no communication.

.. math::

    t_\\text{MoE layer} = \\begin{cases}
        C(B) + M(B) & \\text{one batch} \\\\
        \\max\\big(2C(B/2),\\ 2M(B/2)\\big) & \\text{two micro-batches overlapped}
    \\end{cases}

Memory-bound reads run at FlashMLA's measured 3,000 GB/s on an H800 (0.90 of
its HBM bandwidth, ``DECODE_MEMORY_EFFICIENCY``); MLA's attention FLOPs at
FlashMLA's measured 660 TFLOP/s (0.67 of the BF16 peak,
``MLA_COMPUTE_EFFICIENCY``); the expert and projection matrix multiplies at
the GPU's measured FP8 rate. The model is a lower bound on a real step: kernel
launches, the router's top-k and the sampling of the next token are left out.
"""

from __future__ import annotations

from dataclasses import dataclass

from .. import catalog, collectives, moe
from .._lookup import resolve
from .._validation import check_choice, check_flag, check_integer, check_number
from ..catalog.variants import VARIANT_GPUS
from ..moe import MoEModel
from ..sources import Source
from .models import KV_CACHE_FORMATS, LATENT_ATTENTION, kv_bytes_per_token, serving_model

__all__ = ["WideEPDecode", "wide_ep_decode_step", "DECODE_MEMORY_EFFICIENCY", "MLA_COMPUTE_EFFICIENCY",
           "FLASHMLA_PERFORMANCE"]

FLASHMLA_PERFORMANCE = Source(
    title="DeepSeek-AI, FlashMLA README: Performance", year=2026,
    url="https://github.com/deepseek-ai/FlashMLA/blob/9241ae3ef9bac614dd25e45e507e089f888280e0/README.md",
    locator="Performance",
    note="the dense MLA decoding kernel reaches 3,000 GB/s memory-bound and 660 TFLOPS compute-bound on H800 SXM5 "
         "(3.35 TB/s HBM, 989 TFLOP/s BF16 dense)")

#: Share of HBM bandwidth a decode step's reads reach: FlashMLA's 3,000 GB/s of an H800's 3,350 [-].
DECODE_MEMORY_EFFICIENCY = 3000.0 / 3350.0
#: Share of the BF16 peak MLA's decode attention reaches: FlashMLA's 660 of an H800's 989.4 TFLOP/s [-].
MLA_COMPUTE_EFFICIENCY = 660.0 / 989.4

#: Bytes of one weight: FP8 matrices (attention projections, experts, dense MLPs); BF16 embeddings and
#: output head (DeepSeek-V3 §3.3.1 keeps them in their original precision) [B].
_FP8_WEIGHT, _BF16_WEIGHT = 1.0, 2.0


def _gpu(gpu):
    return resolve("gpu", gpu, catalog.GPU, (*catalog.GPUS, *VARIANT_GPUS),
                   lookup=lambda name: VARIANT_GPUS[name] if name in VARIANT_GPUS else catalog.gpu(name))


@dataclass(frozen=True)
class WideEPDecode:
    """One decode step of one GPU of a wide expert-parallel deployment, term by term.

    Times of one MoE layer (``attention_s``, ``experts_s``, ``dispatch_s``, ``combine_s``)
    add up both micro-batches when they overlap.

    Attributes
    ----------
    model, gpu : str
    ep_degree, domain_size, batch_per_gpu : int
    context_tokens : float
        Tokens in each sequence's cache [token].
    kv_format : str
    overlap : bool
        Two micro-batches, one's communication under the other's computation.
    attention_s : float
        Attention of one MoE layer [s].
    experts_s : float
        Shared expert, router and routed experts of one MoE layer [s].
    dispatch_s, combine_s : float
        The all-to-alls of one MoE layer [s].
    layer_s : float
        One MoE layer, overlapped or not [s].
    dense_layers_s : float
        The dense layers before the first MoE layer [s].
    head_s : float
        The output head [s].
    step_s : float
        One decode step: every sequence of the GPU gets a token [s].
    network_bytes, nvlink_bytes : float
        Bytes this GPU sends per MoE layer through the network and over NVLink, dispatch and combine [B].
    weights_bytes, kv_bytes : float
        Weights and KV cache this GPU holds [B].
    hbm_bytes : float
        Its HBM [B].
    """

    model: str
    gpu: str
    ep_degree: int
    domain_size: int
    batch_per_gpu: int
    context_tokens: float
    kv_format: str
    overlap: bool
    attention_s: float
    experts_s: float
    dispatch_s: float
    combine_s: float
    layer_s: float
    dense_layers_s: float
    head_s: float
    step_s: float
    network_bytes: float
    nvlink_bytes: float
    weights_bytes: float
    kv_bytes: float
    hbm_bytes: float
    moe_layers: int

    @property
    def compute_s(self) -> float:
        """Attention and experts of one MoE layer [s]."""
        return self.attention_s + self.experts_s

    @property
    def communication_s(self) -> float:
        """Dispatch and combine of one MoE layer [s]."""
        return self.dispatch_s + self.combine_s

    @property
    def exposed_communication_s(self) -> float:
        """Communication of one MoE layer that compute does not hide [s]."""
        return max(self.layer_s - self.compute_s, 0.0)

    @property
    def communication_share(self) -> float:
        """Share of the decode step spent waiting for dispatch and combine [-]."""
        return self.moe_layers * self.exposed_communication_s / self.step_s

    @property
    def itl_s(self) -> float:
        """Inter-token latency: one decode step [s]."""
        return self.step_s

    @property
    def tokens_per_s_per_gpu(self) -> float:
        """Tokens this GPU's sequences receive per second [token/s]."""
        return self.batch_per_gpu / self.step_s

    @property
    def fits_hbm(self) -> bool:
        """Weights and the sequences' cache fit this GPU's HBM."""
        return self.weights_bytes + self.kv_bytes <= self.hbm_bytes


def _read_or_compute(bytes_read, flops, memory_rate, flop_rate):
    return max(bytes_read / memory_rate, flops / flop_rate)


def wide_ep_decode_step(model="DeepSeek-V3", gpu="H800 SXM", *, ep_degree=144, domain_size=8, batch_per_gpu=128,
                        context_tokens=4096, kv_format="BF16", redundant_experts=32, network="InfiniBand NDR",
                        kernel="low_latency", overlap=True, imbalance_factor=1.0) -> WideEPDecode:
    """Time of one decode step on one GPU with data-parallel attention and wide expert parallelism.

    See the module's description for the terms. The routed experts, with
    ``redundant_experts`` extra copies of the busiest (DeepSeek: 32), are spread
    evenly over the ``ep_degree`` GPUs; every GPU decodes ``batch_per_gpu``
    sequences of ``context_tokens`` each.

    Parameters
    ----------
    model : MoEModel or str
        An MoE model with MLA (``"DeepSeek-V3"``).
    gpu : str or catalog.GPU
        Catalog GPU or variant (``"H800 SXM"``); its NVLink is the scale-up link.
    ep_degree : int
        GPUs sharing the experts, n; it must divide the routed experts plus ``redundant_experts`` [-].
    domain_size : int
        GPUs per NVLink domain, g (8 per HGX server, 72 per NVL72 rack) [-].
    batch_per_gpu : int
        Sequences each GPU decodes, B [-], in [2, 65536] (two micro-batches need two).
    context_tokens : float
        Tokens cached per sequence [token], in [1, 1e7].
    kv_format : str
        One of ``KV_CACHE_FORMATS``.
    redundant_experts : int
        Extra expert copies, >= 0 [-].
    network : str
        Catalog network port, one per GPU.
    kernel : str
        The expert-parallel kernel of dispatch and combine, a name in
        :data:`interconnect_lab.collectives.EXPERT_PARALLEL_KERNELS`
        (DeepSeek decodes with DeepEP's GPU-initiated ``"low_latency"`` kernels).
    overlap : bool
        Two micro-batches, one's dispatch and combine under the other's computation.
    imbalance_factor : float
        The busiest GPU's expert load over the mean, in [1, n] [-].

    Returns
    -------
    WideEPDecode

    References
    ----------
    DeepSeek-AI, DeepSeek-V3/R1 Inference System Overview (2025); DeepEP V1 documentation; FlashMLA README.

    Examples
    --------
    DeepSeek's decode deployment: 144 H800 in 18 servers, 128 sequences of 4,096 tokens per GPU

    >>> d = wide_ep_decode_step()
    >>> round(d.itl_s * 1e3, 1), round(d.tokens_per_s_per_gpu), round(d.communication_share, 2)
    (29.2, 4391, 0.1)
    """
    model = serving_model(model)
    if not isinstance(model, MoEModel):
        raise ValueError(f"model = {model.name!r} is dense: wide expert parallelism needs an MoE model with MLA "
                         f"({', '.join(map(repr, LATENT_ATTENTION))})")
    spec = _gpu(gpu)
    n = check_integer("ep_degree", ep_degree, minimum=2, maximum=2 ** 14)
    g = check_integer("domain_size", domain_size, minimum=1, maximum=2 ** 12)
    batch = check_integer("batch_per_gpu", batch_per_gpu, minimum=2, maximum=65536)
    context = check_number("context_tokens", context_tokens, unit="token", minimum=1, maximum=1e7, scalar=True)
    check_choice("kv_format", kv_format, KV_CACHE_FORMATS)
    redundant = check_integer("redundant_experts", redundant_experts, minimum=0, maximum=2 ** 14)
    check_choice("kernel", kernel, collectives.EXPERT_PARALLEL_KERNELS)
    overlap = check_flag("overlap", overlap)
    slots = model.experts + redundant
    if slots % n:
        raise ValueError(f"ep_degree = {n} is not valid: it must divide the {model.experts} routed experts plus "
                         f"redundant_experts = {redundant} ({slots} expert slots) so that every GPU holds the same "
                         "number")
    mla = LATENT_ATTENTION[model.name]
    memory_rate = spec.hbm_bandwidth_bytes_per_s * DECODE_MEMORY_EFFICIENCY
    fp8_rate = spec.measured_fp8_matmul_flop_per_s or spec.fp8_flop_per_s or spec.bf16_flop_per_s
    attention_rate = spec.bf16_flop_per_s * MLA_COMPUTE_EFFICIENCY
    kv_per_layer = kv_bytes_per_token(model, kv_format) / model.layers
    h = model.hidden_size
    shared = model.shared_experts * model.expert_parameters + model.router_parameters
    per_gpu_experts = slots // n

    def attention(b):
        weights = model.attention_parameters_per_layer * _FP8_WEIGHT
        cache = b * context * kv_per_layer
        core = b * context * mla.decode_flops_per_cached_token()
        projections = 2.0 * model.attention_parameters_per_layer * b
        return max((weights + cache) / memory_rate, core / attention_rate + projections / fp8_rate)

    def experts(b, iota):
        common = _read_or_compute(shared * _FP8_WEIGHT, 2.0 * shared * b, memory_rate, fp8_rate)
        routed = _read_or_compute(per_gpu_experts * model.expert_parameters * _FP8_WEIGHT,
                                  2.0 * model.expert_parameters * b * model.top_k * iota, memory_rate, fp8_rate)
        return common + routed

    def communicate(b):
        dispatch, combine = moe.dispatch_and_combine(
            b, h, model.top_k, n, experts=slots, domain_size=g, scale_up_link=spec.scale_up_link,
            network_link=network, imbalance_factor=imbalance_factor, kernel=kernel)
        return dispatch, combine

    micro, count = (batch / 2, 2) if overlap else (batch, 1)
    dispatch, combine = communicate(micro)
    iota = dispatch.imbalance_factor
    attention_s = count * attention(micro)
    experts_s = count * experts(micro, iota)
    dispatch_s, combine_s = count * dispatch.time_s, count * combine.time_s
    compute, communication = attention_s + experts_s, dispatch_s + combine_s
    layer = max(compute, communication) if overlap else compute + communication
    dense_layers = model.layers - model.moe_layers
    dense_mlp = 3 * h * (model.dense_ffn_hidden_size or 0)
    dense_s = dense_layers * (attention(batch) + _read_or_compute(dense_mlp * _FP8_WEIGHT, 2.0 * dense_mlp * batch,
                                                                  memory_rate, fp8_rate))
    head = model.vocabulary_size * h
    head_s = _read_or_compute(head * _BF16_WEIGHT, 2.0 * head * batch, memory_rate, spec.bf16_flop_per_s)
    step = dense_s + model.moe_layers * layer + head_s
    weights = (model.layers * model.attention_parameters_per_layer + model.moe_layers * shared
               + dense_layers * dense_mlp) * _FP8_WEIGHT + 2 * head * _BF16_WEIGHT \
        + model.moe_layers * per_gpu_experts * model.expert_parameters * _FP8_WEIGHT
    traffic = (dispatch.traffic, combine.traffic)
    return WideEPDecode(
        model=model.name, gpu=spec.name, ep_degree=n, domain_size=min(g, n), batch_per_gpu=batch,
        context_tokens=float(context), kv_format=kv_format, overlap=overlap, attention_s=float(attention_s),
        experts_s=float(experts_s), dispatch_s=float(dispatch_s), combine_s=float(combine_s), layer_s=float(layer),
        dense_layers_s=float(dense_s), head_s=float(head_s), step_s=float(step),
        network_bytes=float(count * sum(t.network_bytes for t in traffic)),
        nvlink_bytes=float(count * sum(t.scale_up_bytes for t in traffic)),
        weights_bytes=float(weights), kv_bytes=float(batch * context * kv_bytes_per_token(model, kv_format)),
        hbm_bytes=float(spec.hbm_bytes), moe_layers=model.moe_layers)
