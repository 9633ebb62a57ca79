"""Transformer shapes, parameter counts and FLOPs per token (SC21 Eq. 2-4)."""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType

import numpy as np

from .._validation import check_choice, check_finite_result, check_integer, check_number
from ..sources import Source


# ============================================================================
# Model descriptions
# ============================================================================

@dataclass(frozen=True, kw_only=True)
class TransformerModel:
    """A decoder-only transformer, general enough for GPT-3-style and Llama-style models.

    Parameters
    ----------
    name : str
        A label for tables and figures.
    layers : int
        Transformer layers l.
    hidden_size : int
        Model dimension h.
    heads : int
        Attention (query) heads a; the head dimension is ``hidden_size / heads``.
    vocabulary_size : int
        Vocabulary V (padded as trained).
    sequence_length : int
        Tokens per sequence s.
    kv_heads : int, optional
        Key/value heads for grouped-query attention; ``heads`` (multi-head) if omitted.
    ffn_hidden_size : int, optional
        MLP width f; ``4 * hidden_size`` if omitted.
    gated_mlp : bool
        A gated MLP (SwiGLU: three matrices h x f) instead of two.
    biases : bool
        Linear layers carry biases (GPT-3) or not (Llama).
    norm : str
        ``"layernorm"`` (weight and bias) or ``"rmsnorm"`` (weight only).
    learned_positions : bool
        A learned position embedding of ``sequence_length x hidden_size`` (GPT)
        rather than rotary positions (Llama).
    tied_embeddings : bool
        The output layer shares the input embedding's weights.
    dropout : bool
        The model applies dropout (stores its masks as activations).
    attention_window : int, optional
        Sliding-window attention: each token attends to at most this many
        tokens [token]. None attends to the whole sequence.
    sources : tuple of Source
        Where the architecture is published.

    Examples
    --------
    >>> model = TransformerModel.gpt(layers=96, hidden_size=12288, heads=96,
    ...                              vocabulary_size=51200, sequence_length=2048)
    >>> round(parameter_count(model) / 1e9, 1)
    174.6
    """

    name: str
    layers: int
    hidden_size: int
    heads: int
    vocabulary_size: int
    sequence_length: int
    kv_heads: int | None = None
    ffn_hidden_size: int | None = None
    gated_mlp: bool = False
    biases: bool = True
    norm: str = "layernorm"
    learned_positions: bool = True
    tied_embeddings: bool = True
    dropout: bool = True
    attention_window: int | None = None
    sources: tuple[Source, ...] = ()

    NORMS = ("layernorm", "rmsnorm")

    def __post_init__(self):
        for field in ("layers", "hidden_size", "heads", "vocabulary_size", "sequence_length"):
            check_integer(f"TransformerModel.{field}", getattr(self, field), minimum=1)
        if self.kv_heads is None:
            object.__setattr__(self, "kv_heads", self.heads)
        if self.ffn_hidden_size is None:
            object.__setattr__(self, "ffn_hidden_size", 4 * self.hidden_size)
        check_integer("TransformerModel.kv_heads", self.kv_heads, minimum=1, maximum=self.heads)
        check_integer("TransformerModel.ffn_hidden_size", self.ffn_hidden_size, minimum=1)
        check_choice("norm", self.norm, self.NORMS)
        if self.hidden_size % self.heads:
            raise ValueError(
                f"TransformerModel.hidden_size = {self.hidden_size} is not divisible by heads = "
                f"{self.heads}: each head needs a whole head dimension")
        if self.heads % self.kv_heads:
            raise ValueError(
                f"TransformerModel.heads = {self.heads} is not divisible by kv_heads = {self.kv_heads}: "
                "grouped-query attention shares each key/value head among a whole number of query heads")
        if self.attention_window is not None:
            check_integer("TransformerModel.attention_window", self.attention_window, minimum=1, unit="token")
        if isinstance(self.sources, Source):
            object.__setattr__(self, "sources", (self.sources,))

    @classmethod
    def gpt(cls, *, layers, hidden_size, heads, vocabulary_size, sequence_length, name=None, **more):
        """A GPT-3-style model as Megatron-LM builds it (SC21 Table 1 rows).

        LayerNorm, biases, GeLU MLP of width 4h, learned positions, tied embeddings, dropout.
        """
        name = name or f"GPT l={layers} h={hidden_size}"
        return cls(name=name, layers=layers, hidden_size=hidden_size, heads=heads,
                   vocabulary_size=vocabulary_size, sequence_length=sequence_length, **more)

    @classmethod
    def llama(cls, *, layers, hidden_size, heads, kv_heads, ffn_hidden_size, vocabulary_size,
              sequence_length, name=None, **more):
        """A Llama-style model: RMSNorm, no biases, SwiGLU, rotary positions, untied embeddings, no dropout."""
        name = name or f"Llama l={layers} h={hidden_size}"
        return cls(name=name, layers=layers, hidden_size=hidden_size, heads=heads, kv_heads=kv_heads,
                   ffn_hidden_size=ffn_hidden_size, gated_mlp=True, biases=False, norm="rmsnorm",
                   learned_positions=False, tied_embeddings=False, dropout=False,
                   vocabulary_size=vocabulary_size, sequence_length=sequence_length, **more)

    @property
    def head_dim(self) -> int:
        """Dimension of one attention head, h / a."""
        return self.hidden_size // self.heads

    @property
    def kv_size(self) -> int:
        """Width of the key (and of the value) projection, kv_heads x head_dim."""
        return self.kv_heads * self.head_dim

    @property
    def mlp_matrices(self) -> int:
        """Weight matrices of width h x f in the MLP: 3 for a gated MLP, else 2."""
        return 3 if self.gated_mlp else 2

    @property
    def attended_tokens(self) -> int:
        """Tokens each query attends to: the window, or the whole sequence."""
        if self.attention_window is None:
            return self.sequence_length
        return min(self.attention_window, self.sequence_length)


def layer_parameters(model: TransformerModel) -> int:
    """Weights of one transformer layer: attention, MLP, biases where the model has them, two norms [-]."""
    h, f, kv = model.hidden_size, model.ffn_hidden_size, model.kv_size
    attention = 2 * h * h + 2 * h * kv + ((2 * h + 2 * kv) if model.biases else 0)
    mlp = model.mlp_matrices * h * f + ((f * (model.mlp_matrices - 1) + h) if model.biases else 0)
    norms = 2 * (2 * h if model.norm == "layernorm" else h)
    return attention + mlp + norms


def embedding_parameters(model: TransformerModel) -> tuple[int, int]:
    """Weights outside the layers, (input side, output side) [-].

    The input side holds the embedding and learned positions; the output side the final norm and,
    untied, the output layer.
    """
    h = model.hidden_size
    first = model.vocabulary_size * h + (model.sequence_length * h if model.learned_positions else 0)
    last = (2 * h if model.norm == "layernorm" else h)
    if not model.tied_embeddings:
        last += model.vocabulary_size * h
    return first, last


def parameter_count(model: TransformerModel) -> int:
    """Parameters of a transformer, counted matrix by matrix.

    For a GPT-3-style model this is SC21 Eq. (2) plus the final LayerNorm:

    .. math:: P = 12 l h^2 \\Big(1 + \\frac{13}{12h} + \\frac{V + s}{12 l h}\\Big) + 2h

    In general each layer holds :math:`2h^2 + 2h\\,d_{kv}` attention weights
    (queries and output h x h, keys and values h x d_kv with
    :math:`d_{kv}` = kv_heads x head_dim), ``mlp_matrices`` x h x f MLP weights,
    biases where the model has them and two norms; then the embedding
    (V x h), learned positions (s x h), the final norm and, when untied, the
    output layer (V x h).

    Parameters
    ----------
    model : TransformerModel
        The architecture.

    Returns
    -------
    int
        Parameter count [-].

    Notes
    -----
    SC21 Eq. (2) omits the final LayerNorm (2h parameters, below 1e-6 of the
    total for every Table 1 model).

    References
    ----------
    Narayanan et al., SC21, Eq. (2).

    Examples
    --------
    Llama 3 8B has 8,030,261,248 parameters as released:

    >>> from interconnect_lab.training import transformer_model
    >>> parameter_count(transformer_model("Llama 3 8B"))
    8030261248
    """
    if not isinstance(model, TransformerModel):
        raise TypeError(f"model must be a TransformerModel, got {type(model).__name__}")
    first, last = embedding_parameters(model)
    return model.layers * layer_parameters(model) + first + last


# FLOPs -----------------------------------------------------------------------

def forward_flops_per_token(model: TransformerModel, attended_tokens):
    """Forward FLOPs per token: (one layer's projections, one layer's attention scores and x V, the logits) [FLOP].

    ``attended_tokens`` is the keys each query's scores run over [tokens].
    """
    h, f, kv = model.hidden_size, model.ffn_hidden_size, model.kv_size
    projections = 2 * (2 * h * h + 2 * h * kv) + 2 * model.mlp_matrices * h * f
    attention = 4 * attended_tokens * h      # QK^T and attention x V, every key counted (SC21 convention)
    logits = 2 * h * model.vocabulary_size
    return projections, attention, logits


def _megatron(model, recompute):
    projections, attention, logits = forward_flops_per_token(model, model.sequence_length)
    share = RECOMPUTATION[recompute]
    extra = share.projections * projections + share.attention * attention
    return model.layers * (3 * (projections + attention) + extra) + 3 * logits


def _palm(model, recompute):
    # 6N + 12 l h s over the non-embedding parameters N (PaLM, Appendix B).
    first, last = embedding_parameters(model)
    n = parameter_count(model) - first - (model.vocabulary_size * model.hidden_size if not model.tied_embeddings else 0)
    return 6 * n + 12 * model.layers * model.hidden_size * model.sequence_length


def _six_n(model, recompute):
    return 6 * parameter_count(model)


#: FLOP-counting conventions by name: each is ``function(model, recompute) -> FLOP per token``.
FLOP_CONVENTIONS = MappingProxyType({
    "megatron": _megatron,
    "6N+attention": _palm,
    "6N": _six_n,
})

KORTHIKANTI = Source(
    title="V. Korthikanti et al., Reducing Activation Recomputation in Large Transformer Models, MLSys 2023",
    year=2022, url="https://arxiv.org/abs/2205.05198",
    note="§4: activation memory per layer sbh(34 + 5as/h) bytes; sequence parallelism; selective recomputation",
)

TORCHTITAN_ACTIVATION_CHECKPOINT = Source(
    title="torchtitan: torchtitan/distributed/activation_checkpoint.py", year=2025,
    url="https://github.com/pytorch/torchtitan/blob/cfb93265153094f99736547f26b5346410181102/"
        "torchtitan/distributed/activation_checkpoint.py",
    locator="_apply_layer_sac, _apply_op_sac",
    note="mode 'selective' with selective_ac_option N checkpoints every N-th transformer block whole (N = 2 by "
         "default); with 'op' it saves the output of every op on the save list (matmuls, attention kernels, "
         "collectives) except every second matmul, and recomputes the rest")


@dataclass(frozen=True)
class Recomputation:
    """What an activation-recomputation policy runs again in the backward pass.

    Each attribute is a share of one layer's forward pass [-].

    Attributes
    ----------
    projections : float
        The weight GEMMs (QKV, attention output, MLP).
    attention : float
        The attention core: scores, softmax and attention x V.
    elementwise : float
        Norms, activations, residual adds (and FP8 quantization).
    collectives : float
        The forward pass's tensor- and context-parallel collectives.
    source : Source
        Where the policy is defined.
    """

    projections: float
    attention: float
    elementwise: float
    collectives: float
    source: Source


#: Activation-recomputation policies by name. "full" reruns each layer's forward; "selective" is
#: Korthikanti et al.'s (only the attention core); "none" keeps every activation. torchtitan's
#: "selective" means one of two others: "every other layer" (selective_ac_option 2: every second
#: block checkpointed whole) and "every other matmul" (selective_ac_option "op": matmul outputs
#: saved but every second one, attention kernels and collectives saved, the element-wise ops rerun).
#: The step model charges each policy what it reruns at the forward pass's cost, less each block's
#: MLP output projection where the stack's checkpoint stops early (``Software.checkpoint`` "early stop",
#: PyTorch's non-reentrant checkpoint since 2.1: torchtitan's measured cost is then matched). Where
#: whole blocks are rerun (Megatron-LM, PyTorch 1.13) the published runs paid less (MosaicML,
#: Korthikanti et al.; chapter 8), so read that charge as an upper bound.
RECOMPUTATION = MappingProxyType({
    "full": Recomputation(1.0, 1.0, 1.0, 1.0, KORTHIKANTI.at("§5, full activation recomputation")),
    "selective": Recomputation(0.0, 1.0, 0.0, 0.0, KORTHIKANTI.at("§5, selective activation recomputation")),
    "none": Recomputation(0.0, 0.0, 0.0, 0.0, KORTHIKANTI.at("§4, no recomputation")),
    "every other layer": Recomputation(0.5, 0.5, 0.5, 0.5, TORCHTITAN_ACTIVATION_CHECKPOINT.at("_apply_layer_sac")),
    "every other matmul": Recomputation(0.5, 0.0, 1.0, 0.0, TORCHTITAN_ACTIVATION_CHECKPOINT.at("_apply_op_sac")),
})


def flops_per_token(model: TransformerModel, *, recompute="none", convention="megatron") -> float:
    """Training FLOPs per token: forward, backward and any recomputation.

    ``"megatron"`` counts every matrix multiply (SC21 Appendix): per layer and
    token the forward pass costs :math:`24h^2 + 4sh` for a GPT-3-style layer
    (in general :math:`2(2h^2 + 2h d_{kv}) + 2 k h f + 4 s h` with k MLP
    matrices); the backward pass twice that; full recomputation one more
    forward pass, selective recomputation the :math:`4sh` attention scores
    again; the logit layer :math:`2hV` forward and backward (never recomputed).
    With full recomputation this is SC21 Eq. (3) per token,

    .. math:: 96\\, l h^2 \\Big(1 + \\frac{s}{6h} + \\frac{V}{16 l h}\\Big),

    without it MegaScale's model FLOPs, :math:`72 l h^2 (1 + s/6h) + 6hV`.
    Attention is counted over the whole sequence, as Megatron-LM, PaLM and
    MegaScale count it, whatever the window: the model FLOPs behind MFU do
    not change when an implementation skips work.

    ``"6N+attention"`` is PaLM's :math:`6N + 12 l h s` (N without embeddings);
    ``"6N"`` is the rule of thumb over all parameters.

    Parameters
    ----------
    model : TransformerModel
        The architecture.
    recompute : {"none", "selective", "full", "every other layer", "every other matmul"}
        Activation recomputation (``training.RECOMPUTATION``): ``"none"`` gives model FLOPs (for MFU).
        Only the ``"megatron"`` convention counts recomputation.
    convention : str
        A key of :data:`FLOP_CONVENTIONS`.

    Returns
    -------
    float
        FLOPs per token [FLOP].

    References
    ----------
    Narayanan et al., SC21, Eq. (3) and Appendix; Chowdhery et al., PaLM, Appendix B.

    Examples
    --------
    MegaScale's 175B model (published-results §1: 1.077e12 FLOP per token):

    >>> from interconnect_lab.training import transformer_model
    >>> round(flops_per_token(transformer_model("MegaScale 175B")) / 1e12, 3)
    1.077
    """
    check_choice("recompute", recompute, RECOMPUTATION)
    check_choice("FLOP convention", convention, FLOP_CONVENTIONS)
    return float(FLOP_CONVENTIONS[convention](model, recompute))


def training_flops(model: TransformerModel, batch_size, *, recompute="full") -> float:
    """FLOPs of one training iteration of ``batch_size`` sequences (SC21 Eq. 3).

    .. math:: F = 96 B s l h^2 \\Big(1 + \\frac{s}{6h} + \\frac{V}{16 l h}\\Big)

    for a GPT-3-style model with full recomputation; other cases as in
    :func:`flops_per_token`.

    Parameters
    ----------
    model : TransformerModel
        The architecture.
    batch_size : int or array_like
        Global batch B [sequences].
    recompute : {"full", "selective", "none", "every other layer", "every other matmul"}
        Activation recomputation (``training.RECOMPUTATION``).

    Returns
    -------
    float or numpy.ndarray
        FLOPs per iteration [FLOP].

    Examples
    --------
    >>> model = TransformerModel.gpt(layers=24, hidden_size=2304, heads=24,
    ...                              vocabulary_size=51200, sequence_length=2048)
    >>> f"{training_flops(model, 512):.4g}"
    '1.547e+16'
    """
    batch = check_number("batch_size", batch_size, unit="sequences", minimum=1, maximum=1e12)
    return batch * model.sequence_length * flops_per_token(model, recompute=recompute)


def training_time_s(parameters, tokens, gpus, flop_per_s_per_gpu):
    """Time to train on T tokens, SC21 Eq. (4): :math:`t \\approx 8TP/(nX)`.

    Eight FLOPs per parameter per token: forward (2), backward (4) and the
    recomputation pass (2); attention and logit FLOPs are neglected.

    Parameters
    ----------
    parameters : float or array_like
        Model parameters P [-], in (0, 1e16].
    tokens : float or array_like
        Training tokens T [token], in [0, 1e18].
    gpus : int or array_like
        GPUs n [-], in [1, 2**53].
    flop_per_s_per_gpu : float or array_like
        Achieved FLOP/s per GPU X, counting recomputation [FLOP/s], in (0, 1e21].

    Returns
    -------
    float or numpy.ndarray
        Training time [s].

    References
    ----------
    Narayanan et al., SC21, Eq. (4).

    Examples
    --------
    GPT-3 175B on 300 billion tokens, 1024 GPUs at 140 TFLOP/s (SC21: about 34 days):

    >>> from interconnect_lab import units as u
    >>> round(training_time_s(175e9, 300e9, 1024, 140e12) / u.day, 1)
    33.9
    """
    parameters = check_number("parameters", parameters, minimum=0, min_inclusive=False, maximum=1e16)
    tokens = check_number("tokens", tokens, unit="token", minimum=0, maximum=1e18)
    gpus = check_number("gpus", gpus, minimum=1, maximum=2.0 ** 53)
    rate = check_number("flop_per_s_per_gpu", flop_per_s_per_gpu, unit="FLOP/s", minimum=0, min_inclusive=False,
                        maximum=1e21)
    with np.errstate(over="ignore"):
        result = 8 * tokens * parameters / (gpus * rate)
    check_finite_result("training time", result, unit="s", parameters=parameters, tokens=tokens,
                        flop_per_s_per_gpu=rate)
    return float(result) if np.ndim(result) == 0 else result
