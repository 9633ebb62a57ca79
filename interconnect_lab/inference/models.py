"""The models the serving chapter runs, and the bytes of their KV caches.

Dense models (Llama 3, OPT-66B) keep, per token and layer, one key and one value
vector per key/value head (grouped-query attention shares each among several
query heads). DeepSeek-V3's *multi-head latent attention* (MLA) keeps instead one
compressed latent vector of :math:`d_c` elements and one rotary key of
:math:`d_h^R` elements per token and layer, shared by all 128 heads
(DeepSeek-V2 §2.1): :math:`(d_c + d_h^R)\\,l` elements per token, "equal to GQA
with only 2.25 groups". An FP8 cache halves the bytes again; FlashMLA's FP8 MLA
format stores the latent in FP8 with one FP32 scale per 128 values and the
rotary part in BF16: 656 B per token and layer.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType

from .. import memory, training
from .._lookup import resolve
from .._validation import check_choice, check_integer, check_number
from ..moe import MOE_MODELS, MoEModel
from ..sources import Source

__all__ = [
    "INFERENCE_MODELS", "inference_model", "OPT_66B", "LatentAttention", "LATENT_ATTENTION", "SERVING_MODELS",
    "serving_model", "KV_CACHE_FORMATS", "kv_bytes_per_token", "prefill_flops",
]

OPT = Source(
    title="S. Zhang et al., OPT: Open Pre-trained Transformer Language Models", year=2022,
    url="https://arxiv.org/abs/2205.01068",
    locator="Table 1", note="OPT-66B: 64 layers, 72 heads, d_model 9,216; vocabulary 50,272 (GPT-2 BPE)")

DEEPSEEK_V2 = Source(
    title="DeepSeek-AI, DeepSeek-V2: A Strong, Economical, and Efficient Mixture-of-Experts Language Model",
    year=2024, url="https://arxiv.org/abs/2405.04434", locator="§2.1, Table 1",
    note="MLA caches (d_c + d_h^R) l elements per token; with d_c = 4 d_h and d_h^R = d_h / 2 that equals GQA with "
         "only 2.25 groups")
DEEPSEEK_V3_MLA = Source(
    title="DeepSeek-AI, DeepSeek-V3 Technical Report", year=2024, url="https://arxiv.org/abs/2412.19437",
    locator="§4.2", note="128 attention heads of 128; KV compression dimension d_c = 512; decoupled rotary key "
                         "d_h^R = 64; 61 layers")
FLASHMLA_FP8 = Source(
    title="DeepSeek-AI, FlashMLA README: FP8 KV cache", year=2026,
    url="https://github.com/deepseek-ai/FlashMLA/blob/9241ae3ef9bac614dd25e45e507e089f888280e0/README.md",
    locator="FP8 KV Cache",
    note="'each token's KV cache is 656 Bytes': 512 float8_e4m3 values, 4 float32 scales (one per 128 values), "
         "64 bfloat16 rotary values; dequantized to BF16 for the attention")

#: OPT-66B, the model of DistServe's KV-transfer example.
OPT_66B = training.TransformerModel.gpt(name="OPT-66B", layers=64, hidden_size=9216, heads=72,
                                        vocabulary_size=50272, sequence_length=2048, sources=(OPT,))

#: Dense models the serving chapter runs with tensor parallelism: the training chapter's, plus OPT-66B.
INFERENCE_MODELS = MappingProxyType({**training.MODELS, OPT_66B.name: OPT_66B})


def inference_model(model):
    """A dense :class:`~interconnect_lab.training.TransformerModel` by name (see ``INFERENCE_MODELS``), or as given.

    Parameters
    ----------
    model : TransformerModel or str
        A model, or a key of ``INFERENCE_MODELS``.
    """
    return resolve("model", model, training.TransformerModel, INFERENCE_MODELS)


@dataclass(frozen=True, kw_only=True)
class LatentAttention:
    """The dimensions of multi-head latent attention (MLA) that set its cache and its decode work.

    Parameters
    ----------
    heads : int
        Query heads [-].
    kv_rank : int
        Elements of the compressed key/value latent cached per token and layer, :math:`d_c` [-].
    rope_head_dim : int
        Elements of the decoupled rotary key cached per token and layer, :math:`d_h^R` [-].
    value_head_dim : int
        Elements of one head's value [-].
    sources : tuple of Source
    """

    heads: int
    kv_rank: int
    rope_head_dim: int
    value_head_dim: int
    sources: tuple = ()

    def __post_init__(self):
        for name in ("heads", "kv_rank", "rope_head_dim", "value_head_dim"):
            check_integer(f"LatentAttention.{name}", getattr(self, name), minimum=1)

    @property
    def cached_elements(self) -> int:
        """Elements cached per token and layer, :math:`d_c + d_h^R` [-]."""
        return self.kv_rank + self.rope_head_dim

    def decode_flops_per_cached_token(self) -> float:
        """FLOPs of one query token against one cached token in one layer, weights absorbed [FLOP].

        Each head scores the query against the :math:`d_c + d_h^R` cached elements
        and sums :math:`d_c` latent values: :math:`2 n_h (2 d_c + d_h^R)` (FlashMLA's
        "MQA mode", key width 576, value width 512).
        """
        return 2.0 * self.heads * (2 * self.kv_rank + self.rope_head_dim)


#: MLA dimensions of the MoE models that have it, by model name.
LATENT_ATTENTION = MappingProxyType({
    "DeepSeek-V3": LatentAttention(heads=128, kv_rank=512, rope_head_dim=64, value_head_dim=128,
                                   sources=(DEEPSEEK_V2, DEEPSEEK_V3_MLA)),
})

#: Every model the serving chapter runs: dense ones (tensor parallel) and MoE ones with MLA (wide EP).
SERVING_MODELS = MappingProxyType({**INFERENCE_MODELS,
                                   **{name: MOE_MODELS[name] for name in LATENT_ATTENTION}})


def serving_model(model):
    """A dense :class:`~interconnect_lab.training.TransformerModel` or an MLA :class:`~interconnect_lab.moe.MoEModel`.

    Parameters
    ----------
    model : TransformerModel, MoEModel or str
        A model, or a key of ``SERVING_MODELS``.
    """
    found = resolve("model", model, (training.TransformerModel, MoEModel), SERVING_MODELS)
    if isinstance(found, MoEModel) and found.name not in LATENT_ATTENTION:
        raise ValueError(f"model {found.name!r} has no attention dimensions here; MoE models with MLA: "
                         f"{', '.join(map(repr, LATENT_ATTENTION))}")
    return found


#: KV-cache element formats: BF16, or FP8 (FlashMLA's scaled format for MLA, one byte per element otherwise).
KV_CACHE_FORMATS = ("BF16", "FP8")

#: Elements that share one FP32 scale in FlashMLA's FP8 MLA cache, and the bytes of that scale.
_FP8_BLOCK, _FP8_SCALE_BYTES = 128, 4


def kv_bytes_per_token(model, kv_format="BF16") -> float:
    """Bytes of KV cache one token keeps, over every layer [B].

    - grouped-query attention: :math:`2\\,l\\,n_\\text{kv}\\,d_\\text{head}\\,b`
      (:func:`interconnect_lab.memory.kv_cache_bytes`), :math:`b` = 2 for BF16, 1 for FP8;
    - MLA, BF16: :math:`2\\,l\\,(d_c + d_h^R)`; FP8 (FlashMLA): :math:`l\\,(d_c + 4 d_c/128 + 2 d_h^R)`.

    Parameters
    ----------
    model : TransformerModel, MoEModel or str
        A key of ``SERVING_MODELS``, or a model.
    kv_format : str
        One of ``KV_CACHE_FORMATS``.

    Returns
    -------
    float
        [B].

    References
    ----------
    DeepSeek-AI, DeepSeek-V2 (2024), §2.1; FlashMLA README (FP8 KV cache).

    Examples
    --------
    Llama 3 70B against DeepSeek-V3, BF16 and FP8:

    >>> kv_bytes_per_token("Llama 3 70B") / 1024, kv_bytes_per_token("DeepSeek-V3") / 1024
    (320.0, 68.625)
    >>> kv_bytes_per_token("DeepSeek-V3", "FP8") / 61
    656.0
    """
    model = serving_model(model)
    check_choice("kv_format", kv_format, KV_CACHE_FORMATS)
    if isinstance(model, training.TransformerModel):
        return float(memory.kv_cache_bytes(model, 1, bytes_per_element=2.0 if kv_format == "BF16" else 1.0))
    mla = LATENT_ATTENTION[model.name]
    if kv_format == "BF16":
        per_layer = 2.0 * mla.cached_elements
    else:
        per_layer = mla.kv_rank * 1.0 + _FP8_SCALE_BYTES * -(-mla.kv_rank // _FP8_BLOCK) + 2.0 * mla.rope_head_dim
    return float(model.layers * per_layer)


def _attention_flops_per_pair(model) -> float:
    """FLOPs of one query against one earlier token in one layer, in prefill [FLOP]."""
    if isinstance(model, training.TransformerModel):
        return 4.0 * model.heads * model.head_dim       # scores and values, 2 FLOPs per element each
    mla = LATENT_ATTENTION[model.name]
    # Prefill runs MLA in "MHA mode": per head a 192-element key (128 + 64 rotary) and a 128-element value.
    return 2.0 * mla.heads * ((mla.value_head_dim + mla.rope_head_dim) + mla.value_head_dim)


def _linear_flops_per_token(model) -> float:
    if isinstance(model, training.TransformerModel):
        return 2.0 * training.parameter_count(model)
    return 2.0 * model.activated_parameters


def prefill_flops(model, prompt_tokens, cached_tokens=0.0) -> float:
    """Forward FLOPs of prefilling a prompt whose first ``cached_tokens`` already have a KV cache [FLOP].

    Each new token costs two FLOPs per weight it uses (all of a dense model's, the
    activated ones of an MoE model) and, in every layer, attention over every
    earlier token (causal):

    .. math::

        F = 2N\\,(P - C) + l\\,a\\,\\frac{P^2 - C^2}{2}

    with :math:`a` the FLOPs of one query against one earlier token in one layer:
    :math:`4\\,n_h d_h` for a dense model, :math:`2\\,n_h (d_{qk} + d_v)` for MLA in
    prefill (128 heads, key 192 and value 128 elements).

    Parameters
    ----------
    model : TransformerModel, MoEModel or str
        A key of ``SERVING_MODELS``, or a model.
    prompt_tokens : float
        P [token], in [1, 1e9].
    cached_tokens : float
        C, the prefix already cached [token], in [0, P].

    Returns
    -------
    float
        [FLOP].

    Examples
    --------
    A 2,048-token prompt of Llama 3 70B, and the same with half of it cached:

    >>> round(prefill_flops("Llama 3 70B", 2048) / 1e12), round(prefill_flops("Llama 3 70B", 2048, 1024) / 1e12)
    (294, 149)
    """
    model = serving_model(model)
    prompt = check_number("prompt_tokens", prompt_tokens, unit="token", minimum=1, maximum=1e9, scalar=True)
    cached = check_number("cached_tokens", cached_tokens, unit="token", minimum=0, maximum=prompt, scalar=True)
    attention = model.layers * _attention_flops_per_pair(model) * (prompt ** 2 - cached ** 2) / 2
    return float(_linear_flops_per_token(model) * (prompt - cached) + attention)
