"""Mixture-of-experts architectures: the shapes the expert-parallel model of :mod:`interconnect_lab.moe` runs.

:class:`MoEModel` holds a published MoE transformer (layers, width, experts, experts per
token, shared experts, attention), its parameter counts and FLOPs per token;
``MOE_MODELS`` names the published ones (DeepSeek-V3, Mixtral 8x7B).
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType


from .._lookup import resolve
from .._validation import check_integer
from ..sources import Source

__all__ = ["DEEPSEEK_V3", "MIXTRAL", "MoEModel", "MOE_MODELS", "moe_model"]

DEEPSEEK_V3 = Source(
    title="DeepSeek-AI, DeepSeek-V3 Technical Report", year=2024,
    url="https://arxiv.org/abs/2412.19437",
    note="§2.1, §3.1-3.2, §4.2: 61 layers, hidden 7,168, 128 heads with MLA (query rank 1,536, KV rank 512, "
         "head dims 128 + 64 rope), first 3 layers dense (FFN 18,432), then 1 shared + 256 routed experts of "
         "FFN 2,048, 8 routed per token, at most 4 nodes per token; 671B parameters, 37B activated; "
         "2,048 H800, NVLink 160 GB/s, InfiniBand 50 GB/s")

MIXTRAL = Source(
    title="A. Q. Jiang et al., Mixtral of Experts", year=2024, url="https://arxiv.org/abs/2401.04088",
    note="Table 1: 32 layers, dim 4,096, hidden 14,336, 32 heads, 8 KV heads, 8 experts, top-2, "
         "vocabulary 32,000; 47B parameters, 13B active")


# ============================================================================
# Architectures
# ============================================================================

@dataclass(frozen=True, kw_only=True)
class MoEModel:
    """A decoder whose MLPs are mixtures of experts.

    Parameters
    ----------
    name : str
        Label.
    layers : int
        Transformer layers [-].
    moe_layers : int
        Layers whose MLP is a mixture of experts; the first ``layers - moe_layers`` are dense [-].
    hidden_size : int
        Model dimension h [-].
    experts : int
        Routed experts per MoE layer E [-].
    top_k : int
        Routed experts each token goes to k [-].
    expert_ffn_hidden_size : int
        Width of one expert's (gated) MLP [-].
    attention_parameters_per_layer : int
        Weights of one attention block [-] (derived from the published dimensions).
    vocabulary_size : int
        Vocabulary V; input and output embeddings are counted separately (untied) [-].
    shared_experts : int
        Experts every token goes to, on its own GPU (no dispatch) [-].
    dense_ffn_hidden_size : int, optional
        MLP width of the dense layers [-].
    max_nodes_per_token : int, optional
        Node-limited routing: a token's experts lie on at most this many nodes [-].
    sources : tuple of Source
    """

    name: str
    layers: int
    moe_layers: int
    hidden_size: int
    experts: int
    top_k: int
    expert_ffn_hidden_size: int
    attention_parameters_per_layer: int
    vocabulary_size: int
    shared_experts: int = 0
    dense_ffn_hidden_size: int | None = None
    max_nodes_per_token: int | None = None
    sources: tuple[Source, ...] = ()

    def __post_init__(self):
        for name in ("layers", "hidden_size", "experts", "expert_ffn_hidden_size",
                     "attention_parameters_per_layer", "vocabulary_size"):
            check_integer(f"MoEModel.{name}", getattr(self, name), minimum=1)
        check_integer("MoEModel.moe_layers", self.moe_layers, minimum=1, maximum=self.layers)
        check_integer("MoEModel.top_k", self.top_k, minimum=1, maximum=self.experts)
        check_integer("MoEModel.shared_experts", self.shared_experts, minimum=0)
        if self.moe_layers < self.layers and self.dense_ffn_hidden_size is None:
            raise ValueError(f"MoEModel {self.name!r} has {self.layers - self.moe_layers} dense layers: "
                             "give dense_ffn_hidden_size")
        if self.max_nodes_per_token is not None:
            check_integer("MoEModel.max_nodes_per_token", self.max_nodes_per_token, minimum=1)
        if isinstance(self.sources, Source):
            object.__setattr__(self, "sources", (self.sources,))

    @property
    def expert_parameters(self) -> int:
        """Weights of one expert: a gated MLP, three h x f matrices [-]."""
        return 3 * self.hidden_size * self.expert_ffn_hidden_size

    @property
    def router_parameters(self) -> int:
        """Weights of one layer's router, h x E [-]."""
        return self.hidden_size * self.experts

    def _dense_layers(self):
        return self.layers - self.moe_layers

    def _dense_mlp(self):
        return 0 if self.dense_ffn_hidden_size is None else 3 * self.hidden_size * self.dense_ffn_hidden_size

    @property
    def total_parameters(self) -> int:
        """Every weight: attention, all experts, routers, dense MLPs, both embeddings [-].

        Norms are left out (a few hundred thousand weights).
        """
        moe = self.moe_layers * (self.attention_parameters_per_layer + self.router_parameters
                                 + (self.experts + self.shared_experts) * self.expert_parameters)
        dense = self._dense_layers() * (self.attention_parameters_per_layer + self._dense_mlp())
        return moe + dense + 2 * self.vocabulary_size * self.hidden_size

    @property
    def activated_parameters(self) -> int:
        """Weights one token uses: attention, its k routed and the shared experts, embeddings [-]."""
        moe = self.moe_layers * (self.attention_parameters_per_layer + self.router_parameters
                                 + (self.top_k + self.shared_experts) * self.expert_parameters)
        dense = self._dense_layers() * (self.attention_parameters_per_layer + self._dense_mlp())
        return moe + dense + 2 * self.vocabulary_size * self.hidden_size

    def layer_forward_flops_per_token(self):
        """(attention and shared-expert FLOPs, routed-expert FLOPs) of one MoE layer, forward [FLOP].

        Two FLOPs per weight and token; attention scores (which grow with the
        context) are left out.
        """
        local = 2 * (self.attention_parameters_per_layer + self.router_parameters
                     + self.shared_experts * self.expert_parameters)
        return float(local), float(2 * self.top_k * self.expert_parameters)


def _mla_parameters(hidden, heads, query_rank, kv_rank, nope_dim, rope_dim, value_dim):
    """Weights of a multi-head latent attention block (DeepSeek-V2/V3), from its dimensions."""
    down_q = hidden * query_rank
    up_q = query_rank * heads * (nope_dim + rope_dim)
    down_kv = hidden * (kv_rank + rope_dim)
    up_kv = kv_rank * heads * (nope_dim + value_dim)
    out = heads * value_dim * hidden
    return down_q + up_q + down_kv + up_kv + out


def _models():
    entries = [
        MoEModel(name="DeepSeek-V3", layers=61, moe_layers=58, hidden_size=7168, experts=256, top_k=8,
                 expert_ffn_hidden_size=2048, shared_experts=1, dense_ffn_hidden_size=18432,
                 attention_parameters_per_layer=_mla_parameters(7168, 128, 1536, 512, 128, 64, 128),
                 vocabulary_size=129280, max_nodes_per_token=4, sources=(DEEPSEEK_V3,)),
        MoEModel(name="Mixtral 8x7B", layers=32, moe_layers=32, hidden_size=4096, experts=8, top_k=2,
                 expert_ffn_hidden_size=14336,
                 attention_parameters_per_layer=2 * 4096 * 4096 + 2 * 4096 * 1024,
                 vocabulary_size=32000, sources=(MIXTRAL,)),
    ]
    return MappingProxyType({model.name: model for model in entries})


#: Published MoE architectures, by name.
MOE_MODELS = _models()


def moe_model(name: str) -> MoEModel:
    """The published MoE architecture called ``name`` (see ``MOE_MODELS``).

    Parameters
    ----------
    name : str
        A key of ``MOE_MODELS``; an MoEModel itself is returned as it is.

    Examples
    --------
    >>> model = moe_model("DeepSeek-V3")
    >>> round(model.total_parameters / 1e9), round(model.activated_parameters / 1e9, 1)
    (671, 37.6)
    """
    return resolve("MoE model", name, MoEModel, MOE_MODELS)
