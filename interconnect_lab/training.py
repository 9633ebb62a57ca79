"""Training at scale: transformer FLOPs and memory, 3D/4D-parallel step time, MFU and HFU.

The chain a reader follows in chapter 8:

1. A :class:`TransformerModel` (GPT-3-style or Llama-style, by name from
   :data:`MODELS` or built with :meth:`TransformerModel.gpt`) gives the
   parameter count (:func:`parameter_count`, SC21 Eq. 2) and the FLOPs per
   token (:func:`flops_per_token`, SC21 Eq. 3 and the "6N + attention"
   convention).
2. A :class:`Cluster` (GPUs and links by catalog name, from :data:`CLUSTERS`), a
   :class:`ParallelConfig` (TP, PP, DP, CP, microbatch, global batch,
   interleaving, recomputation, ZeRO stage) and a :class:`Software` stack
   (named overlap switches, from :data:`SOFTWARE`) go into
   :func:`training_step`, which returns a :class:`TrainingStep`: where the
   time goes, step time, tokens/s, FLOP/s per GPU, MFU, HFU, memory per GPU
   and the days to train on T tokens (SC21 Eq. 4).
3. :func:`parallel_sweep` evaluates every valid (TP, PP, DP, microbatch) split
   of N GPUs at once, vectorised, so a widget can search the space.

Communication volumes of the data-parallel family live beside them:
:func:`zero_communication_volume` (ZeRO stages and ZeRO++) and
:func:`gradient_compression` (quantization and top-k sparsification).

The step-time model
-------------------
For one pipeline stage and one microbatch, each transformer layer costs its
matrix-multiply FLOPs at a sustained fraction of peak plus its memory-bound
(element-wise) bytes at a fraction of HBM bandwidth — a roofline per operator
group:

.. math::

    t_\\text{layer} = \\frac{F_\\text{GEMM}}{\\eta_\\text{GEMM} R_\\text{peak}}
        + \\frac{Q_\\text{elementwise}}{\\eta_\\text{HBM} B_\\text{HBM}}

times 1 (forward) + 2 (backward) + the recomputation pass. Small hidden sizes
and materialised attention scores make the second term matter; large models
are GEMM-bound. The slowest stage (the last, which also computes the logits)
sets the pace:

.. math::

    t_\\text{step} = m\\, t_\\text{stage} + \\frac{p-1}{v} t_\\text{stage}
        + t_\\text{TP} + t_\\text{PP} + t_\\text{DP} + t_\\text{optimizer}

with :math:`m` microbatches, :math:`p` stages, :math:`v` model chunks per stage
(SC21 §2.2: bubble :math:`(p-1)/(vm)` of the ideal time) and only the *exposed*
part of each communication counted. Communication times come from
:mod:`interconnect_lab.collectives` over the link each group actually uses.
All defaults are in :data:`DEFAULT_EFFICIENCIES` and :data:`SOFTWARE`; none is
fitted to one case.

References
----------
D. Narayanan et al., "Efficient Large-Scale Language Model Training on GPU
Clusters Using Megatron-LM", SC21, https://doi.org/10.1145/3458817.3476209.

V. Korthikanti et al., "Reducing Activation Recomputation in Large Transformer
Models", MLSys 2023, https://arxiv.org/abs/2205.05198.

S. Rajbhandari et al., "ZeRO: Memory Optimizations Toward Training Trillion
Parameter Models", SC20, https://arxiv.org/abs/1910.02054.

G. Wang et al., "ZeRO++: Extremely Efficient Collective Communication for Giant
Model Training", ICLR 2024, https://arxiv.org/abs/2306.10209.

Z. Jiang et al., "MegaScale: Scaling Large Language Model Training to More
Than 10,000 GPUs", NSDI 24, https://arxiv.org/abs/2402.15627.
"""

from __future__ import annotations

import dataclasses
import functools
import math
from dataclasses import dataclass
from types import MappingProxyType

import numpy as np

from . import catalog, collectives
from . import units as u
from ._validation import check_choice, check_integer, check_number
from .sources import LLAMA3, MEGASCALE, MLENG_ACCELERATORS, PALM, SC21, Source
from .utilization import hardware_flops_utilization, model_flops_utilization

__all__ = [
    # model descriptions
    "TransformerModel", "MODELS", "matmul_fraction_of_peak", "transformer_model",
    "parameter_count", "flops_per_token", "FLOP_CONVENTIONS", "training_flops",
    # hardware and software
    "Cluster", "CLUSTERS", "cluster", "Software", "SOFTWARE", "software",
    "Efficiencies", "DEFAULT_EFFICIENCIES",
    # configuration and results
    "ParallelConfig", "parallel_config", "MemoryBreakdown", "memory_per_gpu",
    "TrainingStep", "training_step", "pipeline_bubble_fraction", "PipelineSchedule", "pipeline_schedule",
    "ParallelTraffic", "parallel_traffic",
    "system_cluster", "scale_out_variants", "NetworkScan", "network_scan", "TensorParallelLayer", "tensor_parallel_layer", "tensor_parallel_scan",
    "training_time_s", "TrainingSweep", "parallel_sweep",
    # communication volumes
    "ZeroVolume", "zero_communication_volume", "GradientCompression", "gradient_compression",
    # replaying published runs
    "megascale_ablation", "MEGASCALE_MICROBATCH_SIZE",
]

# Sources used only here -------------------------------------------------------

KORTHIKANTI = Source(
    title="V. Korthikanti et al., Reducing Activation Recomputation in Large Transformer Models, MLSys 2023",
    year=2022, url="https://arxiv.org/abs/2205.05198",
    note="§4: activation memory per layer sbh(34 + 5as/h) bytes; sequence parallelism; selective recomputation",
)
ZERO = Source(
    title="S. Rajbhandari et al., ZeRO: Memory Optimizations Toward Training Trillion Parameter Models, SC20",
    year=2020, url="https://arxiv.org/abs/1910.02054",
    note="§5 memory (2+2+K)Ψ with K = 12 for mixed-precision Adam; §7 communication 2Ψ for stages 1-2, 3Ψ for stage 3",
)
ZERO_PLUS_PLUS = Source(
    title=("G. Wang et al., ZeRO++: Extremely Efficient Collective Communication for Giant "
           "Model Training, ICLR 2024"),
    year=2023, url="https://arxiv.org/abs/2306.10209",
    note="qwZ (INT8 weights) 0.5M, hpZ (secondary partition per node) 0 across nodes, qgZ (INT4 gradients) 0.25M: 3M -> 0.75M",
)
GPT3 = Source(
    title="T. Brown et al., Language Models are Few-Shot Learners (GPT-3)",
    year=2020, url="https://arxiv.org/abs/2005.14165", locator="Table 2.1",
)
LLAMA2 = Source(
    title="H. Touvron et al., Llama 2: Open Foundation and Fine-Tuned Chat Models",
    year=2023, url="https://arxiv.org/abs/2307.09288",
    note="architecture as released (config.json): RMSNorm, SwiGLU, rotary, untied embeddings; 70B uses GQA with 8 KV heads",
)
_LLAMA3_SHAPES = LLAMA3.at(
    "Table 3",
    note="8B/70B/405B: layers, model dimension, FFN dimension, heads, 8 KV heads, vocabulary 128,000 (128,256 as released)",
)


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


def _models():
    gpt = TransformerModel.gpt
    llama = TransformerModel.llama
    entries = [
        gpt(name="GPT-3 175B", layers=96, hidden_size=12288, heads=96, vocabulary_size=50257,
            sequence_length=2048, sources=(GPT3,)),
        gpt(name="MegaScale 175B", layers=96, hidden_size=12288, heads=128, vocabulary_size=64000,
            sequence_length=2048, sources=(MEGASCALE.at("§6.1, Table 2"),)),
        gpt(name="Megatron-LM 1T", layers=128, hidden_size=25600, heads=160, vocabulary_size=51200,
            sequence_length=2048, sources=(SC21.at("Table 1"),)),
        llama(name="Llama 2 70B", layers=80, hidden_size=8192, heads=64, kv_heads=8,
              ffn_hidden_size=28672, vocabulary_size=32000, sequence_length=4096, sources=(LLAMA2,)),
        llama(name="Llama 3 8B", layers=32, hidden_size=4096, heads=32, kv_heads=8,
              ffn_hidden_size=14336, vocabulary_size=128256, sequence_length=8192, sources=(_LLAMA3_SHAPES,)),
        llama(name="Llama 3 70B", layers=80, hidden_size=8192, heads=64, kv_heads=8,
              ffn_hidden_size=28672, vocabulary_size=128256, sequence_length=8192, sources=(_LLAMA3_SHAPES,)),
        llama(name="Llama 3 405B", layers=126, hidden_size=16384, heads=128, kv_heads=8,
              ffn_hidden_size=53248, vocabulary_size=128256, sequence_length=8192, sources=(_LLAMA3_SHAPES,)),
    ]
    return MappingProxyType({model.name: model for model in entries})


#: Published architectures, by name. GPT-3-style and Llama-style side by side.
MODELS = _models()


def _named(kind, table, name):
    """``table[name]``; a non-string or an unknown name is an error listing the valid names."""
    if not isinstance(name, str):
        raise TypeError(f"{kind} name must be a string, one of {', '.join(map(repr, table))}; got {name!r}")
    check_choice(kind, name, table)
    return table[name]


def transformer_model(name: str) -> TransformerModel:
    """The published model called ``name`` (see :data:`MODELS`); an unknown name lists the valid ones."""
    return _named("model", MODELS, name)


def _layer_parameters(model: TransformerModel) -> int:
    h, f, kv = model.hidden_size, model.ffn_hidden_size, model.kv_size
    attention = 2 * h * h + 2 * h * kv + ((2 * h + 2 * kv) if model.biases else 0)
    mlp = model.mlp_matrices * h * f + ((f * (model.mlp_matrices - 1) + h) if model.biases else 0)
    norms = 2 * (2 * h if model.norm == "layernorm" else h)
    return attention + mlp + norms


def _embedding_parameters(model: TransformerModel) -> tuple[int, int]:
    """(input side, output side): embeddings, positions, final norm, untied output layer."""
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

    >>> parameter_count(transformer_model("Llama 3 8B"))
    8030261248
    """
    if not isinstance(model, TransformerModel):
        raise TypeError(f"model must be a TransformerModel, got {type(model).__name__}")
    first, last = _embedding_parameters(model)
    return model.layers * _layer_parameters(model) + first + last


# FLOPs -----------------------------------------------------------------------

def _forward_flops_per_token(model: TransformerModel, attended_tokens):
    """(layer matmul FLOPs excluding attention scores, attention-score FLOPs, logit FLOPs) per token, forward."""
    h, f, kv = model.hidden_size, model.ffn_hidden_size, model.kv_size
    projections = 2 * (2 * h * h + 2 * h * kv) + 2 * model.mlp_matrices * h * f
    attention = 4 * attended_tokens * h      # QK^T and attention x V, every key counted (SC21 convention)
    logits = 2 * h * model.vocabulary_size
    return projections, attention, logits


def _megatron(model, recompute):
    projections, attention, logits = _forward_flops_per_token(model, model.sequence_length)
    extra = {"full": projections + attention, "selective": attention, "none": 0}[recompute]
    return model.layers * (3 * (projections + attention) + extra) + 3 * logits


def _palm(model, recompute):
    # 6N + 12 l h s over the non-embedding parameters N (PaLM, Appendix B).
    first, last = _embedding_parameters(model)
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

_RECOMPUTE = ("full", "selective", "none")


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
    recompute : {"none", "selective", "full"}
        Activation recomputation: ``"none"`` gives model FLOPs (for MFU).
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

    >>> round(flops_per_token(transformer_model("MegaScale 175B")) / 1e12, 3)
    1.077
    """
    check_choice("recompute", recompute, _RECOMPUTE)
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
    recompute : {"full", "selective", "none"}
        Activation recomputation.

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
    batch = check_number("batch_size", batch_size, unit="sequences", minimum=1)
    return batch * model.sequence_length * flops_per_token(model, recompute=recompute)


def training_time_s(parameters, tokens, gpus, flop_per_s_per_gpu):
    """Time to train on T tokens, SC21 Eq. (4): :math:`t \\approx 8TP/(nX)`.

    Eight FLOPs per parameter per token: forward (2), backward (4) and the
    recomputation pass (2); attention and logit FLOPs are neglected.

    Parameters
    ----------
    parameters : float or array_like
        Model parameters P [-].
    tokens : float or array_like
        Training tokens T [token].
    gpus : int or array_like
        GPUs n [-].
    flop_per_s_per_gpu : float or array_like
        Achieved FLOP/s per GPU X, counting recomputation [FLOP/s].

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
    parameters = check_number("parameters", parameters, minimum=0, min_inclusive=False)
    tokens = check_number("tokens", tokens, unit="token", minimum=0)
    gpus = check_number("gpus", gpus, minimum=1)
    rate = check_number("flop_per_s_per_gpu", flop_per_s_per_gpu, unit="FLOP/s", minimum=0, min_inclusive=False)
    result = 8 * tokens * parameters / (gpus * rate)
    return float(result) if np.ndim(result) == 0 else result


# ============================================================================
# Hardware, software and efficiency defaults
# ============================================================================

@dataclass(frozen=True, kw_only=True)
class Cluster:
    """The hardware a run uses, described by catalog names.

    Parameters
    ----------
    name : str
        Label, e.g. ``"Selene"``.
    gpu : str
        Catalog GPU name (:func:`interconnect_lab.catalog.gpu`).
    gpus_per_node : int
        GPUs in one scale-up domain (one NVLink/NVSwitch node).
    scale_up_link : str
        Catalog link joining the GPUs of a node; each GPU uses all of its
        ``links_per_gpu`` links.
    scale_out_link : str
        Catalog link of one compute-fabric port (one NIC), e.g. ``"InfiniBand HDR"``.
    nics_per_node : int
        Compute-fabric ports per node.
    sources : tuple of Source
        Where the description comes from.
    """

    name: str
    gpu: str
    gpus_per_node: int
    scale_up_link: str
    scale_out_link: str
    nics_per_node: int
    sources: tuple[Source, ...] = ()

    def __post_init__(self):
        catalog.gpu(self.gpu)
        catalog.link(self.scale_up_link)
        catalog.link(self.scale_out_link)
        check_integer("Cluster.gpus_per_node", self.gpus_per_node, minimum=1)
        check_integer("Cluster.nics_per_node", self.nics_per_node, minimum=1)
        if catalog.link(self.scale_up_link).links_per_gpu is None:
            raise ValueError(f"Cluster.scale_up_link {self.scale_up_link!r} is not a GPU link "
                             "(its catalog entry has no links_per_gpu)")
        if isinstance(self.sources, Source):
            object.__setattr__(self, "sources", (self.sources,))

    @property
    def gpu_spec(self) -> catalog.GPU:
        """The catalog GPU."""
        return catalog.gpu(self.gpu)

    @property
    def peak_flop_per_s(self) -> float:
        """Dense 16-bit peak of one GPU [FLOP/s]."""
        return self.gpu_spec.bf16_flop_per_s

    @property
    def scale_up_bytes_per_s(self) -> float:
        """One GPU's scale-up bandwidth, one direction, all its links together [B/s]."""
        return catalog.link(self.scale_up_link).per_gpu_per_direction_bytes_per_s

    @property
    def scale_out_bytes_per_s(self) -> float:
        """One GPU's share of the node's compute-fabric ports, one direction [B/s]."""
        port = catalog.link(self.scale_out_link).per_direction_bytes_per_s
        return self.nics_per_node * port / self.gpus_per_node


def _clusters():
    entries = [
        Cluster(name="Selene", gpu="A100 SXM", gpus_per_node=8, scale_up_link="NVLink 3",
                scale_out_link="InfiniBand HDR", nics_per_node=8,
                sources=(SC21.at("§5", note="DGX A100 nodes: 8 A100 80 GB on NVLink/NVSwitch, 8 HDR 200 Gb/s HCAs"),)),
        Cluster(name="MegaScale", gpu="A100 SXM", gpus_per_node=8, scale_up_link="NVLink 3",
                scale_out_link="Ethernet 200G", nics_per_node=8,
                sources=(MEGASCALE.at("§3.6, §6.1", note="Ampere GPUs, 8 x 200G NICs per server, "
                                      "Tomahawk 4 three-tier Clos without oversubscription"),)),
    ]
    return MappingProxyType({entry.name: entry for entry in entries})


#: Published clusters, by name, built from catalog parts.
CLUSTERS = _clusters()


def cluster(name: str) -> Cluster:
    """The published cluster called ``name`` (see :data:`CLUSTERS`)."""
    return _named("cluster", CLUSTERS, name)


@dataclass(frozen=True, kw_only=True)
class Software:
    """A training stack: kernels and the named overlap switches.

    Every switch is a physical statement about what runs at the same time or
    what is not computed; toggling them one by one replays MegaScale's
    ablation (:func:`megascale_ablation`).

    Parameters
    ----------
    name : str
        Label.
    flash_attention : bool
        Attention computed in on-chip tiles (FlashAttention): the b·a·s² score
        and probability tensors are never written to HBM. Off: they are
        written, soft-maxed, dropped out and read again (13 bytes per score
        per forward pass with dropout, 8 without).
    fused_norm_activation : bool
        LayerNorm and the MLP activation fused into neighbouring kernels
        (MegaScale §3.4 "efficient operators"): their separate HBM round trips vanish.
    parallel_block : bool
        Attention and MLP read the same normalised input and their outputs are
        summed (GPT-J/PaLM block): one norm, one residual add and one
        tensor-parallel all-reduce per layer per pass instead of two.
    tensor_parallel_overlap : bool
        Tensor-parallel collectives split into t chunks and pipelined with the
        GEMMs that produce or consume them: all but the first chunk hide
        (exposed ``max(T/t, T - t_GEMM)``).
    pipeline_parallel_overlap : bool
        Pipeline sends and receives run asynchronously beside compute; only
        the 2(p-1) transfers of warm-up and cool-down stay on the critical path.
        Off: each of the 2·v·m transfers of a stage waits (Megatron-LM's
        blocking send/receive).
    data_parallel_overlap : bool
        Gradient reduction (and ZeRO parameter gathers) run per layer during the
        backward pass: only the last layer's share and anything longer than the
        compute stay exposed. Off: the whole reduction follows the backward pass.
    scatter_gather : bool
        SC21 §4.1: each tensor-parallel rank sends 1/t of a stage boundary's
        activations over the network and the receivers all-gather over NVLink.
    gradient_bytes : int
        Bytes per gradient element stored and reduced (4 for Megatron-LM's
        FP32 gradient buffer, 2 for ZeRO's 16-bit gradients) [B].
    parameter_bytes : int
        Bytes per weight element used in compute and gathered by ZeRO [B].
    quantized_weights, hierarchical_partition, quantized_gradients : bool
        ZeRO++ (Wang et al. 2023) for ZeRO-3: INT8 weight all-gather (qwZ),
        a secondary weight partition inside each node so the backward
        all-gather stays on NVLink (hpZ), INT4 gradient reduce-scatter (qgZ).
    sources : tuple of Source
        Where the stack is described.
    """

    name: str
    flash_attention: bool = False
    fused_norm_activation: bool = False
    parallel_block: bool = False
    tensor_parallel_overlap: bool = False
    pipeline_parallel_overlap: bool = False
    data_parallel_overlap: bool = False
    scatter_gather: bool = True
    gradient_bytes: int = 2
    parameter_bytes: int = 2
    quantized_weights: bool = False
    hierarchical_partition: bool = False
    quantized_gradients: bool = False
    sources: tuple[Source, ...] = ()

    def __post_init__(self):
        check_integer("Software.gradient_bytes", self.gradient_bytes, minimum=1, maximum=8, unit="B")
        check_integer("Software.parameter_bytes", self.parameter_bytes, minimum=1, maximum=8, unit="B")
        if isinstance(self.sources, Source):
            object.__setattr__(self, "sources", (self.sources,))


def _software():
    sc21 = Software(
        name="Megatron-LM SC21", scatter_gather=True, gradient_bytes=2,
        sources=(SC21.at("§4", note="fused kernels, scatter/gather, no overlap; FP16 gradients all-reduced"),))
    megatron = Software(
        name="Megatron-LM 2023", flash_attention=True, scatter_gather=True, gradient_bytes=4,
        sources=(MEGASCALE.at("§3, §6.1", note="the Megatron-LM baseline of Tables 2 and 3"),))
    megascale = dataclasses.replace(
        megatron, name="MegaScale", parallel_block=True, tensor_parallel_overlap=True,
        pipeline_parallel_overlap=True, data_parallel_overlap=True, fused_norm_activation=True,
        sources=(MEGASCALE.at("§3", note="parallel block, TP/PP/DP overlap, efficient operators"),))
    deepspeed = Software(
        name="DeepSpeed ZeRO-3", flash_attention=True, data_parallel_overlap=True, gradient_bytes=2,
        scatter_gather=False, sources=(ZERO,))
    zero_pp = dataclasses.replace(
        deepspeed, name="DeepSpeed ZeRO++", quantized_weights=True, hierarchical_partition=True,
        quantized_gradients=True, sources=(ZERO_PLUS_PLUS,))
    return MappingProxyType({s.name: s for s in (sc21, megatron, megascale, deepspeed, zero_pp)})


#: Training stacks by name: the overlap switches each one sets.
SOFTWARE = _software()


def software(name: str) -> Software:
    """The training stack called ``name`` (see :data:`SOFTWARE`)."""
    return _named("software", SOFTWARE, name)


@dataclass(frozen=True, kw_only=True)
class Efficiencies:
    """The few rates the step-time model cannot derive from the catalog; one set for every case.

    Parameters
    ----------
    gemm : float
        Sustained share of the GPU's best measured matmul rate (its "MAMF",
        ``GPU.measured_matmul_flop_per_s`` in the catalog) that training GEMMs
        reach end to end, :math:`\\eta_\\text{GEMM}` [-]. Default 0.7363. The
        best matmul shape reaches 0.87 of peak on an A100 SXM and 0.80 on an
        H100 SXM; training loses more to power-capped clocks under sustained
        load, shapes that are not the best one, and gaps between kernels. The
        value is one number, chosen once against SC21 Table 1 and MegaScale
        Table 2 together (it puts an A100's training GEMMs at 0.64 of peak)
        and then used for every case and every GPU; the benchmark reports how
        every published row moves with it. Measuring against each GPU's own
        best matmul, not its datasheet peak, carries the A100 calibration to
        GPUs whose kernels reach a smaller share of peak (H100, Blackwell,
        MI300X). A GPU without a published measurement takes the median share
        of the catalog's measured GPUs.
    memory_bandwidth : float
        Share of HBM bandwidth that streaming element-wise kernels reach,
        :math:`\\eta_\\text{HBM}` [-]. Default 0.9, typical of a
        bandwidth-bound copy kernel on HBM2e/HBM3 (an estimate).
    optimizer_bytes_per_parameter : float
        HBM traffic of one mixed-precision Adam update per parameter, besides
        the gradient [B]: read the FP32 master weight and both moments (12),
        write them back (12) and write the 16-bit weight (``parameter_bytes``
        is added separately; the gradient read is ``gradient_bytes``).
    optimizer_state_bytes_per_parameter : float
        Optimizer memory per parameter [B]: FP32 master weight and the two Adam
        moments, K = 12 in ZeRO's notation.
    """

    gemm: float = 0.7363
    memory_bandwidth: float = 0.9
    optimizer_bytes_per_parameter: float = 24.0
    optimizer_state_bytes_per_parameter: float = 12.0
    sources: tuple[Source, ...] = (
        ZERO.at("§5.1", note="K = 12 bytes of optimizer state per parameter for mixed-precision Adam"),
    )

    def __post_init__(self):
        for field in ("gemm", "memory_bandwidth"):
            check_number(f"Efficiencies.{field}", getattr(self, field), minimum=0, maximum=1, min_inclusive=False)
        for field in ("optimizer_bytes_per_parameter", "optimizer_state_bytes_per_parameter"):
            check_number(f"Efficiencies.{field}", getattr(self, field), unit="B", minimum=0)


#: The one set of defaults every published case is computed with.
DEFAULT_EFFICIENCIES = Efficiencies()

#: Microbatch for MegaScale's 175B runs, which the paper does not state [sequences]:
#: the largest for which every run of Table 2 satisfies the interleaved schedule's
#: rule that the microbatch count be a multiple of the pipeline depth.
MEGASCALE_MICROBATCH_SIZE = 2


# ============================================================================
# Parallel configuration
# ============================================================================

@dataclass(frozen=True, kw_only=True)
class ParallelConfig:
    """How a run splits the model and the batch over GPUs.

    The GPU count is ``tensor_parallel x pipeline_parallel x data_parallel x
    context_parallel``. Ranks are laid out as Megatron-LM orders them: tensor
    parallel innermost (inside a node), then context, then data, pipeline
    outermost.

    Parameters
    ----------
    global_batch_size : int
        Sequences per iteration B.
    tensor_parallel, pipeline_parallel, data_parallel, context_parallel : int
        Degrees t, p, d, c.
    microbatch_size : int
        Sequences per microbatch b; there are ``B / (d b)`` microbatches m.
    interleave : int
        Model chunks per pipeline stage v (1: plain 1F1B schedule).
    recompute : {"full", "selective", "none"}
        Activation recomputation (Korthikanti et al. 2022).
    sequence_parallel : bool
        Shard norms, dropout and residuals along the sequence over the
        tensor-parallel group (Korthikanti et al. 2022).
    zero_stage : {0, 1, 2, 3}
        ZeRO stage over the data-parallel group: 1 shards optimizer state
        (Megatron-LM's distributed optimizer), 2 also gradients, 3 also weights.
    uneven_pipeline : bool
        Allow a layer count that ``pipeline_parallel x interleave`` does not
        divide: stages then hold ``ceil(l / p)`` or one layer fewer, and the
        fullest stage sets the pace (Llama 3 runs 126 layers on 16 stages,
        with one layer fewer on the first and last; Grattafiori et al. 2024,
        §3.3.2). Off by default, so that a mistyped split is an error.
    """

    global_batch_size: int
    tensor_parallel: int = 1
    pipeline_parallel: int = 1
    data_parallel: int = 1
    context_parallel: int = 1
    microbatch_size: int = 1
    interleave: int = 1
    recompute: str = "full"
    sequence_parallel: bool = False
    zero_stage: int = 0
    uneven_pipeline: bool = False

    def __post_init__(self):
        check_integer("global_batch_size", self.global_batch_size, minimum=1, unit="sequences")
        for field in ("tensor_parallel", "pipeline_parallel", "data_parallel", "context_parallel",
                      "interleave"):
            check_integer(field, getattr(self, field), minimum=1)
        check_integer("microbatch_size", self.microbatch_size, minimum=1, unit="sequences")
        check_choice("recompute", self.recompute, _RECOMPUTE)
        check_integer("zero_stage", self.zero_stage, minimum=0, maximum=3)
        replica = self.data_parallel * self.microbatch_size
        if self.global_batch_size % replica:
            raise ValueError(
                f"global_batch_size = {self.global_batch_size} sequences is not divisible by "
                f"data_parallel x microbatch_size = {self.data_parallel} x {self.microbatch_size} = {replica}: "
                "every data-parallel replica needs a whole number of microbatches")
        if self.interleave > 1:
            if self.pipeline_parallel == 1:
                raise ValueError(f"interleave = {self.interleave} needs pipeline_parallel > 1: "
                                 "model chunks interleave across pipeline stages")
            if self.microbatches % self.pipeline_parallel:
                raise ValueError(
                    f"the interleaved schedule needs the microbatch count m = {self.microbatches} to be "
                    f"divisible by pipeline_parallel = {self.pipeline_parallel} (Megatron-LM's requirement)")

    @property
    def gpus(self) -> int:
        """GPUs in the run, t·p·d·c."""
        return self.tensor_parallel * self.pipeline_parallel * self.data_parallel * self.context_parallel

    @property
    def microbatches(self) -> int:
        """Microbatches per iteration per pipeline, m = B / (d·b)."""
        return self.global_batch_size // (self.data_parallel * self.microbatch_size)

    def check(self, model: TransformerModel) -> "ParallelConfig":
        """Raise ``ValueError`` naming what does not divide what; return self if the split is valid."""
        _check_divides(model, self.tensor_parallel, self.pipeline_parallel, self.context_parallel,
                       self.interleave, uneven_pipeline=self.uneven_pipeline)
        return self


def _divides_model(model, t):
    """Whether tensor-parallel degree t splits the model's heads and MLP evenly."""
    return not (model.heads % t or model.ffn_hidden_size % t or (model.kv_heads % t and t % model.kv_heads))


def _check_divides(model, t, p, c, v, *, uneven_pipeline=False):
    problems = []
    if model.heads % t:
        problems.append(f"heads = {model.heads} are not divisible by tensor_parallel = {t}")
    if model.kv_heads % t and t % model.kv_heads:
        problems.append(f"kv_heads = {model.kv_heads} and tensor_parallel = {t}: neither divides the other")
    if model.ffn_hidden_size % t:
        problems.append(f"ffn_hidden_size = {model.ffn_hidden_size} is not divisible by tensor_parallel = {t}")
    if model.layers % (p * v) and not uneven_pipeline:
        what = f"pipeline_parallel x interleave = {p} x {v} = {p * v}" if v > 1 else f"pipeline_parallel = {p}"
        problems.append(f"layers = {model.layers} are not divisible by {what} "
                        "(uneven_pipeline=True lets some stages hold one layer fewer)")
    if model.sequence_length % c:
        problems.append(f"sequence_length = {model.sequence_length} is not divisible by context_parallel = {c}")
    if problems:
        raise ValueError(f"model {model.name!r} cannot be split this way: " + "; ".join(problems))


def parallel_config(gpus, *, global_batch_size, tensor_parallel=1, pipeline_parallel=1,
                    context_parallel=1, **more) -> ParallelConfig:
    """A :class:`ParallelConfig` for ``gpus`` GPUs, with the data-parallel degree derived.

    .. math:: d = \\frac{N}{t\\, p\\, c}

    Raises ``ValueError`` if t·p·c does not divide the GPU count.

    Examples
    --------
    >>> parallel_config(1024, global_batch_size=1536, tensor_parallel=8, pipeline_parallel=16).data_parallel
    8
    """
    gpus = check_integer("gpus", gpus, minimum=1)
    model_parallel = tensor_parallel * pipeline_parallel * context_parallel
    if gpus % model_parallel:
        raise ValueError(
            f"gpus = {gpus} is not divisible by tensor_parallel x pipeline_parallel x context_parallel = "
            f"{tensor_parallel} x {pipeline_parallel} x {context_parallel} = {model_parallel}")
    return ParallelConfig(global_batch_size=global_batch_size, tensor_parallel=tensor_parallel,
                          pipeline_parallel=pipeline_parallel, context_parallel=context_parallel,
                          data_parallel=gpus // model_parallel, **more)


def pipeline_bubble_fraction(pipeline_parallel, microbatches, interleave=1):
    """Idle time of a pipeline flush relative to the ideal time, SC21 §2.2.

    .. math:: \\frac{t_\\text{bubble}}{t_\\text{ideal}} = \\frac{1}{v}\\,\\frac{p - 1}{m}

    Parameters
    ----------
    pipeline_parallel : int or array_like
        Stages p.
    microbatches : int or array_like
        Microbatches per iteration m.
    interleave : int or array_like
        Model chunks per stage v.

    Returns
    -------
    float or numpy.ndarray
        Bubble over ideal time [-].

    Examples
    --------
    >>> pipeline_bubble_fraction(8, 64), pipeline_bubble_fraction(8, 64, interleave=7)
    (0.109375, 0.015625)
    """
    p = check_number("pipeline_parallel", pipeline_parallel, minimum=1)
    m = check_number("microbatches", microbatches, minimum=1)
    v = check_number("interleave", interleave, minimum=1)
    result = (p - 1) / (v * m)
    return float(result) if np.ndim(result) == 0 else result


# ============================================================================
# Communication (through interconnect_lab.collectives)
# ============================================================================

@functools.lru_cache(maxsize=4096)
def _alpha_beta(kind, ranks, ranks_per_node, scale_up_bytes_per_s, scale_out_bytes_per_s):
    """(fixed seconds, seconds per byte) of one collective, from :mod:`collectives`.

    Every collective model there is affine in the message size, so two numbers
    describe it; caching them keeps a sweep of thousands of splits fast.
    ``ranks_per_node >= ranks``: the group lives inside one node (NVLink ring);
    ``ranks_per_node == 1``: every step crosses the network (ring over the
    GPU's NIC share); otherwise a two-level (hierarchical) collective.
    """
    if kind == "send_recv":
        if ranks_per_node >= 2:
            result = collectives.collective_performance(
                "send_recv", 1.0, 2, scale_up_bytes_per_s, collectives.NVLINK_STEP_LATENCY_S, "direct",
                efficiency=collectives.NVLINK_EFFICIENCY)
        else:
            result = collectives.collective_performance(
                "send_recv", 1.0, 2, scale_out_bytes_per_s, collectives.NETWORK_STEP_LATENCY_S, "direct",
                efficiency=collectives.NETWORK_EFFICIENCY)
    elif ranks_per_node >= ranks:
        result = collectives.collective_performance(
            kind, 1.0, ranks, scale_up_bytes_per_s, collectives.NVLINK_STEP_LATENCY_S, "ring",
            efficiency=collectives.NVLINK_EFFICIENCY)
    elif ranks_per_node == 1 or ranks % ranks_per_node:
        result = collectives.collective_performance(
            kind, 1.0, ranks, scale_out_bytes_per_s, collectives.NETWORK_STEP_LATENCY_S, "ring",
            efficiency=collectives.NETWORK_EFFICIENCY)
    else:
        result = collectives.collective_performance(
            kind, 1.0, ranks, scale_up_bytes_per_s, collectives.NVLINK_STEP_LATENCY_S, "hierarchical",
            efficiency=collectives.NVLINK_EFFICIENCY, ranks_per_node=ranks_per_node,
            network_bandwidth_bytes_per_s=scale_out_bytes_per_s,
            network_latency_s=collectives.NETWORK_STEP_LATENCY_S)
    return float(result.latency_term_s), float(result.bandwidth_term_s)


def _collective_s(kind, size_bytes, ranks, ranks_per_node, cluster_):
    """Time of one collective of each group in an array of groups [s], vectorised.

    ``size_bytes`` is the message as nccl-tests counts it (the whole array for
    all-reduce, all-gather and reduce-scatter). Groups of one rank take no time.
    Times come from :func:`interconnect_lab.collectives.collective_performance`
    with its documented NCCL efficiencies and latencies, over the cluster's
    scale-up link inside a node and each GPU's share of the NICs across nodes.
    """
    size_bytes, ranks, ranks_per_node = np.broadcast_arrays(
        np.asarray(size_bytes, float), np.asarray(ranks, int), np.asarray(ranks_per_node, int))
    up, out = cluster_.scale_up_bytes_per_s, cluster_.scale_out_bytes_per_s
    fixed = np.zeros(size_bytes.shape)
    per_byte = np.zeros(size_bytes.shape)
    pairs = np.stack([ranks.ravel(), np.minimum(ranks_per_node, ranks).ravel()], axis=1)
    unique, inverse = np.unique(pairs, axis=0, return_inverse=True)
    inverse = inverse.reshape(size_bytes.shape)
    for index, (n, g) in enumerate(unique):
        if n <= 1:
            continue
        a, b = _alpha_beta(kind, int(n), int(g), up, out)
        chosen = inverse == index
        fixed[chosen] = a
        per_byte[chosen] = b
    return np.where(size_bytes > 0, fixed + per_byte * size_bytes, 0.0)


# ============================================================================
# The vectorised core
# ============================================================================

def _as_output(value):
    return float(value) if np.ndim(value) == 0 else value


def _layers_per_stage(model, p, v=1, uneven_pipeline=False):
    """Layers on the fullest pipeline stage: l/p, or ceil(l/(p v)) v when the split is uneven."""
    if uneven_pipeline:
        return np.ceil(model.layers / (np.asarray(p) * v)) * v
    return model.layers / np.asarray(p)


def _stage_parameters(model, t, p, v=1, uneven_pipeline=False):
    """Parameters held by one GPU of the largest pipeline stage (TP-sharded)."""
    first, last = _embedding_parameters(model)
    layers = _layers_per_stage(model, p, v, uneven_pipeline)
    edge = np.where(p > 1, np.maximum(first, last + (model.vocabulary_size * model.hidden_size
                                                     if model.tied_embeddings else 0)), first + last)
    return (layers * _layer_parameters(model) + edge) / t


def _activation_bytes_per_layer(model, software, recompute, t, c, b, sp):
    """Stored activations of one layer for one microbatch on one GPU (Korthikanti et al. §4) [B]."""
    h, f, kv, a = model.hidden_size, model.ffn_hidden_size, model.kv_size, model.heads
    tokens = b * model.sequence_length / c
    replicated = np.where(sp, t, 1.0)                      # sequence parallelism shards these over t
    mask = 1.0 if model.dropout else 0.0
    if recompute == "full":
        return 2 * tokens * h / replicated                 # only each layer's input
    sharded_tokens = tokens / t
    attention = (2 * tokens * h / replicated                                  # QKV input
                 + 2 * sharded_tokens * (h + 2 * kv)                          # Q, K, V
                 + 2 * sharded_tokens * h                                     # output projection input
                 + mask * tokens * h / replicated)                            # dropout mask
    scores = a * tokens * model.attended_tokens / t * (2 + (3 * mask))      # softmax out, mask, dropout out
    if software.flash_attention:
        scores = 2 * sharded_tokens * h + 4 * a * sharded_tokens              # output and FP32 log-sum-exp
    elif recompute == "selective":
        scores = 0.0
    mlp = (2 * tokens * h / replicated + 2 * sharded_tokens * f * (model.mlp_matrices - 1)
           + 2 * sharded_tokens * f + mask * tokens * h / replicated)
    norms = 2 * 2 * tokens * h / replicated
    return attention + scores + mlp + norms


@dataclass(frozen=True)
class MemoryBreakdown:
    """Memory per GPU on the most loaded pipeline stage [B] (floats or arrays).

    Attributes
    ----------
    weights_bytes, gradients_bytes, optimizer_bytes, activations_bytes : float or numpy.ndarray
        The four parts [B].
    capacity_bytes : float
        HBM of one GPU [B].
    """

    weights_bytes: float | np.ndarray
    gradients_bytes: float | np.ndarray
    optimizer_bytes: float | np.ndarray
    activations_bytes: float | np.ndarray
    capacity_bytes: float

    @property
    def total_bytes(self):
        """All four parts [B]."""
        return _as_output(np.add(np.add(self.weights_bytes, self.gradients_bytes),
                                 np.add(self.optimizer_bytes, self.activations_bytes)))

    @property
    def fits(self):
        """Whether the total fits in HBM."""
        result = np.less_equal(self.total_bytes, self.capacity_bytes)
        return bool(result) if np.ndim(result) == 0 else result

    @property
    def shortfall_bytes(self):
        """How much more memory the run needs than one GPU has (0 if it fits) [B]."""
        return _as_output(np.maximum(np.subtract(self.total_bytes, self.capacity_bytes), 0.0))

    def verdict(self) -> str:
        """One sentence: fits with what headroom, or does not fit and by how much."""
        if np.ndim(self.total_bytes):
            raise ValueError("verdict() describes one configuration; index the arrays first")
        total, capacity = self.total_bytes, self.capacity_bytes
        if self.fits:
            return (f"fits: {u.format_bytes(total)} of {u.format_bytes(capacity)} per GPU "
                    f"({u.format_bytes(capacity - total)} free)")
        return (f"does not fit: needs {u.format_bytes(total)} per GPU, "
                f"{u.format_bytes(total - capacity)} more than the {u.format_bytes(capacity)} of HBM")


def _memory(model, cluster_, software, efficiencies, recompute, zero_stage, t, p, d, c, b, v, sp, m,
            uneven_pipeline=False):
    params = _stage_parameters(model, t, p, v, uneven_pipeline)
    weights = params * software.parameter_bytes / np.where(zero_stage >= 3, d, 1)
    gradients = params * software.gradient_bytes / np.where(zero_stage >= 2, d, 1)
    optimizer = params * efficiencies.optimizer_state_bytes_per_parameter / np.where(zero_stage >= 1, d, 1)
    per_layer = _activation_bytes_per_layer(model, software, recompute, t, c, b, sp)
    in_flight = np.minimum(m, p)                           # 1F1B: the first stage holds p microbatches
    interleave_factor = np.where(v > 1, 1 + (p - 1) / (p * v), 1.0)
    activations = per_layer * _layers_per_stage(model, p, v, uneven_pipeline) * in_flight * interleave_factor
    tokens = b * model.sequence_length / c
    logits = np.where(p > 1, 0.0, 4 * tokens * model.vocabulary_size / t)   # FP32 logits on the last stage
    activations = activations + logits
    return MemoryBreakdown(weights_bytes=_as_output(weights), gradients_bytes=_as_output(gradients),
                           optimizer_bytes=_as_output(optimizer), activations_bytes=_as_output(activations),
                           capacity_bytes=cluster_.gpu_spec.hbm_bytes)


@dataclass(frozen=True)
class TrainingStep:
    """Where the time of one training iteration goes, and what it achieves.

    All times [s] are per iteration and, except ``compute_s``, count only what
    the GPU waits for. Attributes are floats, or arrays from :func:`parallel_sweep`.

    Attributes
    ----------
    compute_s : float or numpy.ndarray
        Computing all m microbatches on the slowest stage, recomputation included [s].
    tensor_parallel_s : float or numpy.ndarray
        Exposed tensor- and context-parallel collectives [s].
    pipeline_s : float or numpy.ndarray
        Exposed pipeline sends and receives [s].
    bubble_s : float or numpy.ndarray
        Pipeline fill and drain, (p-1)/v stage times [s].
    data_parallel_s : float or numpy.ndarray
        Exposed gradient reduction and ZeRO gathers [s].
    data_parallel_hidden_s : float or numpy.ndarray
        Data-parallel communication hidden behind the backward pass [s].
    optimizer_s : float or numpy.ndarray
        The optimizer update (memory-bound) [s].
    step_s : float or numpy.ndarray
        Length of the iteration [s].
    gpus : int or numpy.ndarray
        GPUs.
    tokens : float or numpy.ndarray
        Tokens per iteration, B·s.
    model_flops : float or numpy.ndarray
        FLOPs the model needs per iteration, no recomputation (MFU's numerator) [FLOP].
    hardware_flops : float or numpy.ndarray
        FLOPs executed per iteration, recomputation included (HFU's) [FLOP].
    peak_flop_per_s : float
        Dense peak of one GPU [FLOP/s].
    memory : MemoryBreakdown
        Memory per GPU.
    """

    compute_s: float | np.ndarray
    tensor_parallel_s: float | np.ndarray
    pipeline_s: float | np.ndarray
    bubble_s: float | np.ndarray
    data_parallel_s: float | np.ndarray
    data_parallel_hidden_s: float | np.ndarray
    optimizer_s: float | np.ndarray
    step_s: float | np.ndarray
    gpus: int | np.ndarray
    tokens: float | np.ndarray
    model_flops: float | np.ndarray
    hardware_flops: float | np.ndarray
    peak_flop_per_s: float
    memory: MemoryBreakdown

    #: Names of the parts that add up to ``step_s``, in the order a figure stacks them.
    PARTS = ("compute_s", "tensor_parallel_s", "pipeline_s", "bubble_s", "data_parallel_s", "optimizer_s")

    @property
    def tokens_per_s(self):
        """Training throughput [token/s]."""
        return _as_output(np.divide(self.tokens, self.step_s))

    @property
    def model_flop_per_s_per_gpu(self):
        """Model FLOP/s per GPU (no recomputation) [FLOP/s]."""
        return _as_output(np.divide(self.model_flops, np.multiply(self.step_s, self.gpus)))

    @property
    def hardware_flop_per_s_per_gpu(self):
        """Executed FLOP/s per GPU, recomputation included: SC21's "TFLOP/s per GPU" [FLOP/s]."""
        return _as_output(np.divide(self.hardware_flops, np.multiply(self.step_s, self.gpus)))

    @property
    def mfu(self):
        """Model FLOPs utilization [-]."""
        return model_flops_utilization(self.model_flops, self.step_s, self.peak_flop_per_s, self.gpus)

    @property
    def hfu(self):
        """Hardware FLOPs utilization [-]."""
        return hardware_flops_utilization(self.hardware_flops, self.step_s, self.peak_flop_per_s, self.gpus)

    @property
    def bubble_fraction(self):
        """Pipeline bubble as a share of the iteration [-]."""
        return _as_output(np.divide(self.bubble_s, self.step_s))

    def breakdown(self) -> dict:
        """The parts of the step [s], by name, in stacking order."""
        return {name: getattr(self, name) for name in self.PARTS}

    def days_to_train(self, tokens, parameters=None):
        """Days to train on ``tokens`` tokens at this step's throughput [day].

        With ``parameters`` given, SC21 Eq. (4) (:func:`training_time_s`) at this
        step's executed FLOP/s per GPU instead.
        """
        tokens = check_number("tokens", tokens, unit="token", minimum=0)
        if parameters is None:
            return _as_output(tokens / np.asarray(self.tokens_per_s) / u.day)
        return _as_output(training_time_s(parameters, tokens, self.gpus, self.hardware_flop_per_s_per_gpu) / u.day)


def matmul_fraction_of_peak(gpu) -> float:
    """Share of peak the best measured matmul reaches on ``gpu`` [-].

    The catalog's measured best-shape BF16 matmul rate over the dense BF16 peak;
    for a GPU with no published measurement, the median of the catalog GPUs that
    have one.

    Parameters
    ----------
    gpu : interconnect_lab.catalog.GPU
        The accelerator.

    Returns
    -------
    float
        Fraction of peak [-].

    Examples
    --------
    >>> from interconnect_lab import catalog
    >>> round(matmul_fraction_of_peak(catalog.gpu("A100 SXM")), 3)
    0.869
    """
    if gpu.matmul_fraction_of_peak is not None:
        return gpu.matmul_fraction_of_peak
    measured = [g.matmul_fraction_of_peak for g in catalog.GPUS.values() if g.matmul_fraction_of_peak is not None]
    return float(np.median(measured))


def _group_ranks_per_node(ranks, gpus_per_node, gpus):
    """GPUs of a tensor-parallel group that every group has together in one node, gcd(t, node).

    Groups are contiguous blocks of t ranks (Megatron-LM puts tensor parallelism
    innermost) laid over the run's ``gpus`` GPUs; a run of no more GPUs than one
    node holds lives inside one node. When t divides the node size every group sits inside one node;
    when the node size divides t every group spans whole nodes. Otherwise some
    group straddles a node boundary (groups of 16 in 72-GPU racks: GPUs 64-79
    are 8 in one rack and 8 in the next), and the slowest group sets the pace.
    Every group can be cut into pieces of gcd(t, node) GPUs that each lie in one
    node, so a two-level collective over those pieces is always possible.
    """
    return np.gcd(ranks, np.minimum(gpus_per_node, gpus))


@dataclass(frozen=True)
class _LayerTerms:
    """One transformer layer, one microbatch, one GPU: what :func:`_evaluate` and
    :func:`tensor_parallel_layer` share. Floats or arrays."""

    tokens: float                       # tokens of the microbatch on this GPU, b·s/c
    projections: float                  # forward GEMM FLOPs per token of the layer's projections
    logit_flops: float                  # forward FLOPs per token of the logit layer
    compute_s: float                    # forward + backward + recomputation [s]
    gemm_s: float                       # the GEMM part of compute_s [s]
    passes: int                         # forward, backward (and the recomputed forward)
    tensor_parallel_all_reduces: int    # all-reduces of the activations per layer and microbatch
    tensor_parallel_message_bytes: float  # size S of each [B]
    tensor_parallel_s: float            # all of them, one after the other [s]
    tensor_parallel_exposed_s: float    # what the GPU waits for after overlap [s]
    context_parallel_exposed_s: float   # exposed context-parallel all-gathers [s]


def _layer_terms(model, cluster_, software, recompute, gemm_rate, hbm_rate, t, c, b, sp, gpus):
    """Compute and tensor/context-parallel collectives of one layer and microbatch (see the module docstring)."""
    h, f, kv, a = model.hidden_size, model.ffn_hidden_size, model.kv_size, model.heads
    s, w = model.sequence_length, model.attended_tokens
    node = cluster_.gpus_per_node
    tokens = b * s / c
    replicated = np.where(sp, t, 1.0)
    projections, _, logit_flops = _forward_flops_per_token(model, w)
    core_flops = tokens * 4 * w * h / t                                  # scores and attention x V
    proj_flops = tokens * projections / t
    blocks = 1 if software.parallel_block else 2
    mask = 1.0 if model.dropout else 0.0
    norm_bytes = 0.0 if software.fused_norm_activation else blocks * 4 * tokens * h / replicated
    residual_bytes = blocks * (6 + mask) * tokens * h / replicated
    activation_bytes = 0.0 if software.fused_norm_activation else (
        (2 * model.mlp_matrices) * tokens * f / t)                      # read 2 (or 3 gated) ... write 1 wide tensor
    if software.flash_attention:
        core_bytes = 4 * tokens * (h + kv) / t                          # Q, K, V in, O out
    else:
        core_bytes = (8 + 5 * mask) * a * tokens * w / t                # scores written, soft-maxed, dropped, read
    core_s = core_flops / gemm_rate + core_bytes / hbm_rate
    rest_s = proj_flops / gemm_rate + (norm_bytes + residual_bytes + activation_bytes) / hbm_rate
    forward_s = core_s + rest_s
    recompute_s = {"full": forward_s, "selective": core_s, "none": 0.0}[recompute]
    layer_s = 3 * forward_s + recompute_s
    layer_gemm_s = (3 * (core_flops + proj_flops) + {"full": core_flops + proj_flops,
                                                     "selective": core_flops, "none": 0.0}[recompute]) / gemm_rate

    # Tensor parallelism: one all-reduce of the b·s·h activations after attention and one
    # after the MLP (one in all with a parallel block), in every pass (SC21 §3.2).
    ti, ci = (np.rint(x).astype(int) for x in (t, c))
    activation_size = software.parameter_bytes * tokens * h
    passes = 2 + (1 if recompute == "full" else 0)                   # forward, backward, recomputation
    tp_ops = passes * blocks
    tp_comm = tp_ops * _collective_s("all_reduce", activation_size, ti,
                                        _group_ranks_per_node(ti, node, gpus), cluster_)
    if software.tensor_parallel_overlap:
        tp_exposed = np.maximum(tp_comm / t, tp_comm - layer_gemm_s)
    else:
        tp_exposed = tp_comm
    kv_size = software.parameter_bytes * 2 * b * s * kv / t           # keys and values of the whole sequence
    cp_comm = passes * _collective_s("all_gather", kv_size, ci, np.maximum(node // ti, 1), cluster_)
    cp_exposed = np.maximum(cp_comm - (3 * core_s), 0.0)              # ring attention hides it under attention
    return _LayerTerms(tokens=tokens, projections=projections, logit_flops=logit_flops, compute_s=layer_s,
                       gemm_s=layer_gemm_s, passes=passes, tensor_parallel_all_reduces=tp_ops,
                       tensor_parallel_message_bytes=activation_size, tensor_parallel_s=tp_comm,
                       tensor_parallel_exposed_s=tp_exposed, context_parallel_exposed_s=cp_exposed)


def _evaluate(model, cluster_, software, efficiencies, *, global_batch_size, recompute, zero_stage,
              sequence_parallel, t, p, d, c, b, v, uneven_pipeline=False):
    """The step-time model over arrays of (t, p, d, c, b, v); see the module docstring."""
    t, p, d, c, b, v = (np.asarray(x, dtype=float) for x in (t, p, d, c, b, v))
    sp = np.asarray(sequence_parallel, dtype=bool)
    B = float(global_batch_size)
    m = B / (d * b)
    h, f, kv, a = model.hidden_size, model.ffn_hidden_size, model.kv_size, model.heads
    s, V, w = model.sequence_length, model.vocabulary_size, model.attended_tokens
    peak = cluster_.peak_flop_per_s
    gemm_rate = efficiencies.gemm * matmul_fraction_of_peak(cluster_.gpu_spec) * peak
    hbm_rate = efficiencies.memory_bandwidth * cluster_.gpu_spec.hbm_bandwidth_bytes_per_s
    gpus = t * p * d * c
    node = cluster_.gpus_per_node

    # --- one layer, one microbatch, on one GPU: compute and its collectives ----------
    ti, ci, di, pi = (np.rint(x).astype(int) for x in (t, c, d, p))
    layer = _layer_terms(model, cluster_, software, recompute, gemm_rate, hbm_rate, t, c, b, sp,
                         np.rint(gpus).astype(int))
    tokens, projections, logit_flops = layer.tokens, layer.projections, layer.logit_flops
    layer_s, passes = layer.compute_s, layer.passes
    layer_comm_exposed = layer.tensor_parallel_exposed_s + layer.context_parallel_exposed_s

    # --- the slowest stage: layers of one stage plus the logits ------------------------
    layers_per_stage = _layers_per_stage(model, p, v, uneven_pipeline)
    logit_s = 3 * (tokens * logit_flops / t / gemm_rate + 8 * tokens * V / t / hbm_rate)
    stage_compute_s = layers_per_stage * layer_s + logit_s
    stage_comm_s = layers_per_stage * layer_comm_exposed
    compute = m * stage_compute_s
    tensor_parallel = m * stage_comm_s
    bubble = (p - 1) / v * (stage_compute_s + stage_comm_s)

    # --- pipeline sends and receives --------------------------------------------------------
    pp_ranks_per_node = np.where(ti * ci * di < node, 2, 1)
    boundary = software.parameter_bytes * tokens * h
    scatter = software.scatter_gather | sp
    sent = np.where(scatter, boundary / t, boundary)
    transfer = _collective_s("send_recv", sent, np.where(pi > 1, 2, 1), pp_ranks_per_node, cluster_)
    regather = np.where(scatter & ~sp, _collective_s("all_gather", boundary, ti,
                                                     _group_ranks_per_node(ti, node, np.rint(gpus).astype(int)),
                                                     cluster_), 0.0)
    transfer = transfer + np.where(p > 1, regather, 0.0)
    transfers = 2 * (p - 1) if software.pipeline_parallel_overlap else 2 * v * m
    pipeline = np.where(p > 1, transfers * transfer, 0.0)

    # --- data parallelism and ZeRO -------------------------------------------------------
    params = _stage_parameters(model, t, p, v, uneven_pipeline)
    ranks_per_node = np.clip(node // (ti * ci), 1, di)
    gradient_size = params * software.gradient_bytes
    weight_size = params * software.parameter_bytes
    if zero_stage == 0:
        dp_comm = _collective_s("all_reduce", gradient_size, di, ranks_per_node, cluster_)
    elif zero_stage in (1, 2):
        dp_comm = (_collective_s("reduce_scatter", gradient_size, di, ranks_per_node, cluster_)
                   + _collective_s("all_gather", weight_size, di, ranks_per_node, cluster_))
    else:
        forward_gather = weight_size * (0.5 if software.quantized_weights else 1.0)
        backward_ranks = np.minimum(di, ranks_per_node) if software.hierarchical_partition else di
        gradient_wire = params * (0.5 if software.quantized_gradients else software.gradient_bytes)
        gathers = ((passes - 1) * _collective_s("all_gather", forward_gather, di, ranks_per_node, cluster_)
                   + _collective_s("all_gather", weight_size, backward_ranks, ranks_per_node, cluster_))
        dp_comm = m * (gathers + _collective_s("reduce_scatter", gradient_wire, di, ranks_per_node, cluster_))
    if software.data_parallel_overlap:
        buckets = layers_per_stage
        exposed_dp = dp_comm / buckets + np.maximum(dp_comm * (1 - 1 / buckets) - compute, 0.0)
    else:
        exposed_dp = dp_comm
    hidden_dp = dp_comm - exposed_dp

    # --- optimizer -------------------------------------------------------------------------
    updated = params / np.where(zero_stage >= 1, d, 1)
    optimizer = updated * (efficiencies.optimizer_bytes_per_parameter + software.gradient_bytes
                           + software.parameter_bytes) / hbm_rate

    step = compute + tensor_parallel + pipeline + bubble + exposed_dp + optimizer
    tokens_per_iteration = B * s
    model_flops = tokens_per_iteration * flops_per_token(model, recompute="none")
    executed = tokens_per_iteration * (model.layers * (3 * (projections + 4 * w * h)
                                                       + {"full": projections + 4 * w * h,
                                                          "selective": 4 * w * h, "none": 0}[recompute])
                                       + 3 * logit_flops)
    memory = _memory(model, cluster_, software, efficiencies, recompute, zero_stage, t, p, d, c, b, v, sp, m,
                     uneven_pipeline)
    out_ = _as_output
    return TrainingStep(
        compute_s=out_(compute), tensor_parallel_s=out_(tensor_parallel), pipeline_s=out_(pipeline),
        bubble_s=out_(bubble), data_parallel_s=out_(exposed_dp), data_parallel_hidden_s=out_(hidden_dp),
        optimizer_s=out_(optimizer), step_s=out_(step),
        gpus=int(gpus) if np.ndim(gpus) == 0 else gpus.astype(int),
        tokens=tokens_per_iteration, model_flops=model_flops, hardware_flops=float(executed),
        peak_flop_per_s=peak, memory=memory)


def _resolve(kind, value, table, lookup, cls):
    if isinstance(value, str):
        return lookup(value)
    if not isinstance(value, cls):
        raise TypeError(f"{kind} must be a {cls.__name__} or a name from {', '.join(map(repr, table))}; "
                        f"got {value!r}")
    return value


def training_step(model, cluster_, config, software_="Megatron-LM SC21", *,
                  efficiencies=DEFAULT_EFFICIENCIES) -> TrainingStep:
    """Step time, throughput, MFU/HFU and memory of one parallel configuration.

    See the module docstring for the model. In brief: per-layer compute as a
    roofline of GEMM FLOPs and element-wise bytes; the slowest stage sets the
    pace; the bubble is (p-1)/v stage times; tensor-parallel all-reduces
    (2 per layer per pass, 1 with a parallel block) run over the scale-up link;
    pipeline transfers and data-parallel reductions over the link their
    groups span; the :class:`Software` switches decide what hides.

    Parameters
    ----------
    model : TransformerModel or str
        The architecture, or a name from :data:`MODELS`.
    cluster_ : Cluster or str
        The hardware, or a name from :data:`CLUSTERS`.
    config : ParallelConfig
        The split; see :func:`parallel_config`.
    software_ : Software or str
        The stack, or a name from :data:`SOFTWARE`.
    efficiencies : Efficiencies
        Sustained rates; :data:`DEFAULT_EFFICIENCIES` unless exploring.

    Returns
    -------
    TrainingStep
        Breakdown, step time, tokens/s, FLOP/s per GPU, MFU, HFU, memory.

    Raises
    ------
    ValueError
        If the split does not divide the layers, heads, sequence or batch.

    Examples
    --------
    The 1T-parameter row of SC21 Table 1 on Selene (published 163 TFLOP/s per GPU):

    >>> model = transformer_model("Megatron-LM 1T")
    >>> config = parallel_config(3072, global_batch_size=3072, tensor_parallel=8,
    ...                          pipeline_parallel=64, microbatch_size=1)
    >>> step = training_step(model, "Selene", config, "Megatron-LM SC21")
    >>> round(step.hardware_flop_per_s_per_gpu / 1e12)
    148
    >>> step.memory.fits
    True
    """
    model = _resolve("model", model, MODELS, transformer_model, TransformerModel)
    cluster_ = _resolve("cluster", cluster_, CLUSTERS, cluster, Cluster)
    software_ = _resolve("software", software_, SOFTWARE, software, Software)
    if not isinstance(config, ParallelConfig):
        raise TypeError(f"config must be a ParallelConfig (see parallel_config), got {type(config).__name__}")
    if not isinstance(efficiencies, Efficiencies):
        raise TypeError(f"efficiencies must be an Efficiencies, got {type(efficiencies).__name__}")
    config.check(model)
    return _evaluate(model, cluster_, software_, efficiencies,
                     global_batch_size=config.global_batch_size, recompute=config.recompute,
                     zero_stage=config.zero_stage, sequence_parallel=config.sequence_parallel,
                     t=config.tensor_parallel, p=config.pipeline_parallel, d=config.data_parallel,
                     c=config.context_parallel, b=config.microbatch_size, v=config.interleave,
                     uneven_pipeline=config.uneven_pipeline)


def memory_per_gpu(model, cluster_, config, software_="Megatron-LM SC21") -> MemoryBreakdown:
    """Weights, gradients, optimizer state and activations per GPU, and whether they fit.

    Weights take ``parameter_bytes`` per parameter of the most loaded stage,
    TP-sharded (/d under ZeRO-3); gradients ``gradient_bytes`` (/d from
    ZeRO-2); optimizer state 12 B (/d from ZeRO-1) (Rajbhandari et al. 2020,
    :math:`(2 + 2 + K)\\Psi`). Activations per layer and microbatch follow
    Korthikanti et al. (2022, §4):

    .. math::

        A_\\text{layer} = s b h \\Big(34 + \\frac{5 a s}{h}\\Big) \\quad\\text{(no parallelism)}, \\qquad
        s b h \\Big(10 + \\frac{24}{t} + \\frac{5 a s}{h t}\\Big) \\quad\\text{(TP)}, \\qquad
        \\frac{s b h}{t}\\Big(34 + \\frac{5 a s}{h}\\Big) \\quad\\text{(TP + SP)}

    generalised to GQA, gated MLPs and no dropout; selective recomputation
    drops the :math:`5as/h` term, FlashAttention stores the attention output
    instead, full recomputation keeps only :math:`2sbh` per layer. The first
    stage holds p microbatches of l/p layers — l layers' worth, times
    :math:`1 + (p-1)/(pv)` when interleaved; context parallelism divides s by c.

    Returns
    -------
    MemoryBreakdown
        Its :meth:`~MemoryBreakdown.verdict` says whether it fits and by how much.

    References
    ----------
    Korthikanti et al., MLSys 2023, Eqs. (1)-(5); Rajbhandari et al., SC20, §3.1.

    Examples
    --------
    GPT-3 175B with no parallelism besides data parallelism cannot fit an 80 GB A100:

    >>> memory = memory_per_gpu("GPT-3 175B", "Selene", ParallelConfig(global_batch_size=8, data_parallel=8))
    >>> memory.fits, memory.verdict().startswith("does not fit")
    (False, True)
    """
    return training_step(model, cluster_, config, software_).memory


# ============================================================================
# Clusters from catalog systems, and tensor parallelism layer by layer (chapter 2)
# ============================================================================

def system_cluster(system, *, gpus_per_node=None, scale_out_link=None, name=None) -> Cluster:
    """A :class:`Cluster` built from a catalog system: its GPU, NVLink domain and network adapters.

    Parameters
    ----------
    system : str
        Catalog system name (a key of ``catalog.SYSTEMS``), e.g.
        ``"DGX H100"`` or ``"GB200 NVL72"``.
    gpus_per_node : int, optional
        GPUs in one NVLink domain; the system's own count if omitted. A what-if:
        the same GPUs and links in smaller or larger domains. Each GPU keeps its
        share of the system's adapters, so ``nics_per_node`` scales with it.
    scale_out_link : str, optional
        Catalog link of one network port; by default the InfiniBand generation
        whose per-direction rate is that of the system's adapter.
    name : str, optional
        Label; the system's name (with the domain size, if changed) if omitted.

    Returns
    -------
    Cluster

    Raises
    ------
    ValueError
        For an unknown system, a system without NVLink or adapters, a domain
        size that does not give each GPU a whole share of the adapters, or no
        catalog link matching the adapter's rate.

    Examples
    --------
    >>> from interconnect_lab import units as u
    >>> nvl72 = system_cluster("GB200 NVL72")
    >>> nvl72.gpus_per_node, nvl72.scale_up_link, nvl72.scale_out_link
    (72, 'NVLink 5', 'InfiniBand NDR')
    >>> nvl72.scale_up_bytes_per_s / u.GB_per_s, nvl72.scale_out_bytes_per_s / u.GB_per_s
    (900.0, 50.0)
    >>> system_cluster("GB200 NVL72", gpus_per_node=8).nics_per_node
    8
    """
    entry = catalog.system(system)
    gpu = catalog.gpu(entry.gpu)
    if gpu.scale_up_link is None or entry.nic is None or entry.nics == 0:
        raise ValueError(f"system {system!r} needs a scale-up link and network adapters to make a Cluster")
    gpus = entry.gpus if gpus_per_node is None else check_integer("gpus_per_node", gpus_per_node, minimum=1)
    nics = entry.nics * gpus / entry.gpus
    if nics != int(nics) or nics < 1:
        raise ValueError(f"gpus_per_node = {gpus} does not give each GPU a whole share of the "
                         f"{entry.nics} adapters of {entry.gpus} GPUs in {system!r}: it must make "
                         f"{entry.nics} x gpus_per_node / {entry.gpus} a whole number >= 1")
    if scale_out_link is None:
        rate = catalog.nic(entry.nic).per_direction_bytes_per_s
        matches = [link.name for link in catalog.LINKS.values()
                   if link.family == "InfiniBand" and link.per_direction_bytes_per_s == rate]
        if not matches:
            raise ValueError(f"no catalog InfiniBand link runs at the {rate * 8 / 1e9:g} Gb/s of "
                             f"{entry.nic}: pass scale_out_link")
        scale_out_link = matches[0]
    if name is None:
        name = entry.name if gpus == entry.gpus else f"{entry.name} GPUs in {gpus}-GPU NVLink domains"
    return Cluster(name=name, gpu=entry.gpu, gpus_per_node=gpus, scale_up_link=gpu.scale_up_link,
                   scale_out_link=scale_out_link, nics_per_node=int(nics), sources=entry.sources)


def scale_out_variants(cluster_, *, family="Ethernet", ports_per_node=None) -> tuple[Cluster, ...]:
    """The same cluster with each per-GPU network bandwidth the catalog can build, slowest first.

    A what-if for the scale-out network alone: GPUs, nodes and NVLink stay as
    they are; the compute-fabric ports become every catalog link of
    ``family`` in turn, 1 to ``gpus_per_node`` of them per node (powers of
    two). Where two choices give a GPU the same bandwidth the one with more,
    slower ports is kept (one port per GPU where it can be).

    Parameters
    ----------
    cluster_ : Cluster or str
        The cluster, or a name from :data:`CLUSTERS`.
    family : str
        Catalog link family of the ports: ``"Ethernet"`` or ``"InfiniBand"``.
    ports_per_node : sequence of int, optional
        Port counts to try; powers of two up to the node size by default.

    Returns
    -------
    tuple of Cluster
        Sorted by :attr:`Cluster.scale_out_bytes_per_s`, one per distinct bandwidth.

    Examples
    --------
    >>> from interconnect_lab import units as u
    >>> [c.scale_out_bytes_per_s / u.Gbit_per_s for c in scale_out_variants("MegaScale")]
    [12.5, 25.0, 50.0, 100.0, 200.0, 400.0, 800.0]
    """
    cluster_ = _resolve("cluster", cluster_, CLUSTERS, cluster, Cluster)
    links = [link for link in catalog.LINKS.values() if link.family == family and link.links_per_gpu is None]
    if not links:
        families = sorted({link.family for link in catalog.LINKS.values() if link.links_per_gpu is None})
        raise ValueError(f"no catalog network link of family {family!r}; choose one of {', '.join(families)}")
    node = cluster_.gpus_per_node
    counts = ([1 << k for k in range(node.bit_length()) if 1 << k <= node] if ports_per_node is None
              else [check_integer("ports_per_node", n, minimum=1) for n in ports_per_node])
    variants = {}
    for link in sorted(links, key=lambda entry: entry.per_direction_bytes_per_s):
        for ports in sorted(counts, reverse=True):
            variant = dataclasses.replace(cluster_, name=f"{cluster_.name}, {ports} x {link.name} per node",
                                          scale_out_link=link.name, nics_per_node=ports)
            variants.setdefault(variant.scale_out_bytes_per_s, variant)
    return tuple(variants[rate] for rate in sorted(variants))


@dataclass(frozen=True)
class NetworkScan:
    """One run at every per-GPU network bandwidth of :func:`scale_out_variants`.

    Attributes
    ----------
    bandwidth_bytes_per_s : numpy.ndarray
        Each GPU's share of the scale-out network, one direction [B/s].
    clusters : tuple of Cluster
        The clusters, one per bandwidth.
    steps : tuple of TrainingStep
        The run on each.
    """

    bandwidth_bytes_per_s: np.ndarray
    clusters: tuple
    steps: tuple

    @property
    def mfu(self) -> np.ndarray:
        """MFU at each bandwidth [-]."""
        return np.array([step.mfu for step in self.steps])

    @property
    def step_s(self) -> np.ndarray:
        """Step time at each bandwidth [s]."""
        return np.array([step.step_s for step in self.steps])

    @property
    def data_parallel_s(self) -> np.ndarray:
        """Exposed data-parallel communication at each bandwidth [s]."""
        return np.array([step.data_parallel_s for step in self.steps])


def network_scan(model, cluster_, config, software_="Megatron-LM SC21", *, family="Ethernet",
                 efficiencies=DEFAULT_EFFICIENCIES) -> NetworkScan:
    """:func:`training_step` of one split on every network of :func:`scale_out_variants`.

    Parameters
    ----------
    model, cluster_, config, software_, efficiencies :
        As for :func:`training_step`.
    family : str
        As for :func:`scale_out_variants`.

    Returns
    -------
    NetworkScan

    Examples
    --------
    ZeRO-3 on 384 A100: the slower the network, the more ZeRO++ helps.

    >>> config = parallel_config(384, global_batch_size=384, recompute="full", zero_stage=3)
    >>> plain = network_scan("GPT-3 175B", "MegaScale", config, "DeepSpeed ZeRO-3")
    >>> plus = network_scan("GPT-3 175B", "MegaScale", config, "DeepSpeed ZeRO++")
    >>> bool(plus.mfu[0] / plain.mfu[0] > plus.mfu[-1] / plain.mfu[-1])
    True
    """
    model = _resolve("model", model, MODELS, transformer_model, TransformerModel)
    variants = scale_out_variants(cluster_, family=family)
    steps = tuple(training_step(model, variant, config, software_, efficiencies=efficiencies) for variant in variants)
    return NetworkScan(bandwidth_bytes_per_s=np.array([v.scale_out_bytes_per_s for v in variants]),
                       clusters=variants, steps=steps)


@dataclass(frozen=True)
class TensorParallelLayer:
    """Tensor-parallel communication of one transformer layer, and its weight in the step.

    From :func:`tensor_parallel_layer` (floats) or :func:`tensor_parallel_scan`
    (arrays, one element per degree); per GPU, per layer, per microbatch.

    Attributes
    ----------
    tensor_parallel : int or numpy.ndarray
        Tensor-parallel degree t.
    crosses_network : bool or numpy.ndarray
        True if a tensor-parallel group spans more than one NVLink domain (it
        is larger than the domain, or groups do not tile the domain evenly), so
        its all-reduces cross the network.
    all_reduces : int
        All-reduces of the layer's activations per microbatch: two per pass
        (after attention and after the MLP; one with a parallel block) in the
        forward pass, the backward pass and, with full recomputation, the
        recomputed forward pass.
    message_bytes : float
        Size of each all-reduce, the b·s·h activations of the microbatch [B].
    sent_bytes : float
        Bytes one GPU sends for them with the ring algorithm,
        ``all_reduces * 2(t-1)/t * message_bytes`` [B].
    communication_s : float
        Time of the layer's all-reduces, one after another [s].
    exposed_s : float
        The part of ``communication_s`` the GPU waits for after overlap [s].
    compute_s : float
        The layer's compute for the microbatch: forward, backward and
        recomputation [s].
    step : TrainingStep
        The whole iteration (its ``tensor_parallel_s`` is the exposed
        tensor-parallel time of every layer and microbatch).
    """

    tensor_parallel: int
    crosses_network: bool
    all_reduces: int
    message_bytes: float
    sent_bytes: float
    communication_s: float
    exposed_s: float
    compute_s: float
    step: TrainingStep

    @property
    def communication_to_compute(self):
        """``communication_s / compute_s`` for one layer [-]."""
        return _as_output(np.divide(self.communication_s, self.compute_s))

    @property
    def step_share(self):
        """Exposed tensor-parallel time as a share of the iteration [-]."""
        return _as_output(np.divide(self.step.tensor_parallel_s, self.step.step_s))


def tensor_parallel_layer(model, cluster_, config, software_="Megatron-LM SC21", *,
                          efficiencies=DEFAULT_EFFICIENCIES) -> TensorParallelLayer:
    """The tensor-parallel all-reduces of one layer: bytes, time, and share of the step.

    Megatron-LM's tensor parallelism (Shoeybi et al. 2019) splits each layer's
    weight matrices over t GPUs; after the attention block and after the MLP
    the t partial results are summed with an all-reduce of the microbatch's
    activations, :math:`S = b\\,s\\,h` elements, in the forward pass and again
    in the backward pass. With the ring algorithm each GPU sends
    :math:`2\\frac{t-1}{t} S` per all-reduce, so per layer and microbatch
    (SC21 §3.2)

    .. math::

        V_\\text{TP} = 8\\, b\\, s\\, h\\, \\frac{t-1}{t} \\text{ elements}

    for the forward and backward passes; full recomputation adds the two
    all-reduces of the recomputed forward pass. Times come from
    :func:`interconnect_lab.collectives.collective_performance` over the
    cluster's NVLink (a two-level algorithm once a group spans NVLink domains:
    groups are contiguous, so when t and the domain size do not divide one
    another some group straddles two domains and sets the pace), and the
    layer's compute from the same roofline :func:`training_step` uses.

    Parameters
    ----------
    model : TransformerModel or str
        The architecture, or a name from :data:`MODELS`.
    cluster_ : Cluster or str
        The hardware, or a name from :data:`CLUSTERS` (see also :func:`system_cluster`).
    config : ParallelConfig
        The split; its ``tensor_parallel`` is t.
    software_ : Software or str
        The stack, or a name from :data:`SOFTWARE`.
    efficiencies : Efficiencies
        Sustained rates; :data:`DEFAULT_EFFICIENCIES` unless exploring.

    Returns
    -------
    TensorParallelLayer

    Raises
    ------
    ValueError
        If the split does not divide the model (see :func:`training_step`).

    References
    ----------
    M. Shoeybi et al., "Megatron-LM: Training Multi-Billion Parameter Language
    Models Using Model Parallelism", arXiv:1909.08053, 2019.

    D. Narayanan et al., SC21, §3.2, https://doi.org/10.1145/3458817.3476209.

    Examples
    --------
    GPT-3 175B, one 2,048-token sequence per microbatch, t = 8 on a DGX H100:
    SC21's 8·b·s·h·(t−1)/t elements of 2 bytes for the forward and backward passes

    >>> from interconnect_lab import units as u
    >>> config = parallel_config(8, global_batch_size=8, tensor_parallel=8, recompute="none")
    >>> layer = tensor_parallel_layer("GPT-3 175B", system_cluster("DGX H100"), config)
    >>> layer.all_reduces, round(layer.sent_bytes / u.MB, 1)
    (4, 352.3)
    >>> 2 * 8 * 1 * 2048 * 12288 * 7 / 8 / u.MB
    352.321536
    >>> layer.crosses_network
    False
    """
    model = _resolve("model", model, MODELS, transformer_model, TransformerModel)
    cluster_ = _resolve("cluster", cluster_, CLUSTERS, cluster, Cluster)
    software_ = _resolve("software", software_, SOFTWARE, software, Software)
    if not isinstance(config, ParallelConfig):
        raise TypeError(f"config must be a ParallelConfig (see parallel_config), got {type(config).__name__}")
    if not isinstance(efficiencies, Efficiencies):
        raise TypeError(f"efficiencies must be an Efficiencies, got {type(efficiencies).__name__}")
    config.check(model)
    return _tensor_parallel(model, cluster_, software_, efficiencies, config.global_batch_size,
                            config.recompute, config.zero_stage, config.sequence_parallel,
                            config.tensor_parallel, config.pipeline_parallel, config.data_parallel,
                            config.context_parallel, config.microbatch_size, config.interleave)


def _tensor_parallel(model, cluster_, software_, efficiencies, global_batch_size, recompute, zero_stage,
                     sequence_parallel, t, p, d, c, b, v):
    """:class:`TensorParallelLayer` for scalar or array (t, p, d, c, b, v)."""
    step = _evaluate(model, cluster_, software_, efficiencies, global_batch_size=global_batch_size,
                     recompute=recompute, zero_stage=zero_stage, sequence_parallel=sequence_parallel,
                     t=t, p=p, d=d, c=c, b=b, v=v)
    t, p, d, c, b = (np.asarray(x) for x in (t, p, d, c, b))
    gpus = t * p * d * c
    peak = cluster_.peak_flop_per_s
    gemm_rate = efficiencies.gemm * matmul_fraction_of_peak(cluster_.gpu_spec) * peak
    hbm_rate = efficiencies.memory_bandwidth * cluster_.gpu_spec.hbm_bandwidth_bytes_per_s
    layer = _layer_terms(model, cluster_, software_, recompute, gemm_rate, hbm_rate, t.astype(float),
                         c.astype(float), b.astype(float), np.asarray(sequence_parallel, dtype=bool), gpus)
    ring_traffic = 2 * (t - 1) / t
    out_ = _as_output
    crosses = _group_ranks_per_node(t, cluster_.gpus_per_node, gpus) < t
    return TensorParallelLayer(
        tensor_parallel=int(t) if t.ndim == 0 else t,
        crosses_network=bool(crosses) if np.ndim(crosses) == 0 else crosses,
        all_reduces=int(layer.tensor_parallel_all_reduces),
        message_bytes=out_(layer.tensor_parallel_message_bytes * np.ones_like(ring_traffic)),
        sent_bytes=out_(layer.tensor_parallel_all_reduces * ring_traffic * layer.tensor_parallel_message_bytes),
        communication_s=out_(layer.tensor_parallel_s), exposed_s=out_(layer.tensor_parallel_exposed_s),
        compute_s=out_(layer.compute_s), step=step)


def tensor_parallel_scan(model, cluster_, software_="Megatron-LM SC21", *, degrees=None,
                         max_tensor_parallel=64, global_batch_size=8, microbatch_size=1, recompute="full",
                         sequence_parallel=False, efficiencies=DEFAULT_EFFICIENCIES) -> TensorParallelLayer:
    """:func:`tensor_parallel_layer` for one tensor-parallel group of each degree, at once.

    Each degree t runs on t GPUs with no pipeline or data parallelism, so
    everything but tensor parallelism stays the same from one degree to the
    next. Evaluated in one vectorised pass, fast enough for an interactive figure.

    Parameters
    ----------
    model, cluster_, software_ :
        As for :func:`tensor_parallel_layer`.
    degrees : sequence of int, optional
        Degrees t to evaluate; each must divide the model's heads and MLP width.
        By default every power of two up to ``max_tensor_parallel`` that does.
    max_tensor_parallel : int
        Largest default degree.
    global_batch_size, microbatch_size : int
        Sequences per iteration and per microbatch (there are
        ``global_batch_size / microbatch_size`` microbatches).
    recompute, sequence_parallel :
        As in :class:`ParallelConfig`.
    efficiencies : Efficiencies
        As for :func:`training_step`.

    Returns
    -------
    TensorParallelLayer
        With array attributes, one element per degree (``tensor_parallel``).

    Raises
    ------
    ValueError
        If a degree does not divide the model, or no default degree does.

    Examples
    --------
    >>> scan = tensor_parallel_scan("GPT-3 175B", system_cluster("DGX H100"), max_tensor_parallel=16)
    >>> scan.tensor_parallel.tolist(), scan.crosses_network.tolist()
    ([1, 2, 4, 8, 16], [False, False, False, False, True])
    >>> bool(scan.communication_s[3] < scan.communication_s[4])
    True
    """
    model = _resolve("model", model, MODELS, transformer_model, TransformerModel)
    cluster_ = _resolve("cluster", cluster_, CLUSTERS, cluster, Cluster)
    software_ = _resolve("software", software_, SOFTWARE, software, Software)
    if not isinstance(efficiencies, Efficiencies):
        raise TypeError(f"efficiencies must be an Efficiencies, got {type(efficiencies).__name__}")
    check_choice("recompute", recompute, _RECOMPUTE)
    batch = check_integer("global_batch_size", global_batch_size, minimum=1, unit="sequences")
    b = check_integer("microbatch_size", microbatch_size, minimum=1, unit="sequences")
    if batch % b:
        raise ValueError(f"global_batch_size = {batch} sequences is not divisible by microbatch_size = {b}")
    if degrees is None:
        limit = check_integer("max_tensor_parallel", max_tensor_parallel, minimum=1)
        degrees = [1 << k for k in range(limit.bit_length()) if 1 << k <= limit]
        degrees = [t for t in degrees if _divides_model(model, t)]
        if not degrees:
            raise ValueError(f"no power of two up to {limit} divides model {model.name!r}")
    else:
        degrees = [check_integer("degrees", t, minimum=1) for t in degrees]
        for t in degrees:
            _check_divides(model, t, 1, 1, 1)
    t = np.array(degrees, dtype=int)
    ones = np.ones_like(t)
    return _tensor_parallel(model, cluster_, software_, efficiencies, batch, recompute, 0, sequence_parallel,
                            t, ones, ones, ones, np.full_like(t, b), ones)


# ============================================================================
# Sweeping every split of N GPUs
# ============================================================================

def _divisors(n):
    small = [k for k in range(1, int(math.isqrt(n)) + 1) if n % k == 0]
    return sorted(set(small + [n // k for k in small]))


@dataclass(frozen=True)
class TrainingSweep:
    """Every valid (TP, PP, DP, microbatch) split of N GPUs, evaluated at once.

    Attributes
    ----------
    tensor_parallel, pipeline_parallel, data_parallel, microbatch_size : numpy.ndarray
        The splits, one element per configuration.
    step : TrainingStep
        The results; its attributes are arrays aligned with the splits.
    """

    tensor_parallel: np.ndarray
    pipeline_parallel: np.ndarray
    data_parallel: np.ndarray
    microbatch_size: np.ndarray
    step: TrainingStep

    def __len__(self):
        return int(self.tensor_parallel.size)

    @property
    def fits(self) -> np.ndarray:
        """Which configurations fit in HBM."""
        return np.atleast_1d(self.step.memory.fits)

    def best(self, *, require_fit=True) -> int:
        """Index of the highest-throughput configuration (among those that fit, by default)."""
        throughput = np.atleast_1d(self.step.tokens_per_s).astype(float)
        if require_fit:
            if not np.any(self.fits):
                raise ValueError("no configuration of this sweep fits in GPU memory: "
                                 "try recompute='full', sequence_parallel=True or a ZeRO stage")
            throughput = np.where(self.fits, throughput, -np.inf)
        return int(np.argmax(throughput))

    def row(self, index) -> dict:
        """One configuration and its headline numbers as a dict."""
        pick = lambda x: float(np.atleast_1d(x)[index])     # noqa: E731
        return {
            "tensor_parallel": int(self.tensor_parallel[index]),
            "pipeline_parallel": int(self.pipeline_parallel[index]),
            "data_parallel": int(self.data_parallel[index]),
            "microbatch_size": int(self.microbatch_size[index]),
            "step_s": pick(self.step.step_s), "mfu": pick(self.step.mfu),
            "tokens_per_s": pick(self.step.tokens_per_s),
            "memory_bytes": pick(self.step.memory.total_bytes), "fits": bool(self.fits[index]),
        }


def parallel_sweep(model, cluster_, gpus, global_batch_size, software_="Megatron-LM SC21", *,
                   recompute="full", sequence_parallel=False, zero_stage=0, interleave=1,
                   max_tensor_parallel=None, microbatch_sizes=None,
                   efficiencies=DEFAULT_EFFICIENCIES) -> TrainingSweep:
    """Evaluate every valid (TP, PP, DP, microbatch) split of ``gpus`` GPUs, vectorised.

    A split is valid when t·p·d = N, t divides the heads and the MLP width, p·v
    divides the layers, d·b divides the global batch and, when interleaved,
    p divides the microbatch count. Context parallelism is 1.

    Parameters
    ----------
    model, cluster_, software_ :
        As for :func:`training_step`.
    gpus : int
        N.
    global_batch_size : int
        B [sequences].
    recompute, sequence_parallel, zero_stage, interleave :
        Held fixed over the sweep (see :class:`ParallelConfig`).
    max_tensor_parallel : int, optional
        Largest t to try; by default the node size.
    microbatch_sizes : sequence of int, optional
        Microbatch sizes to try; by default every divisor of B/d.
    efficiencies : Efficiencies
        As for :func:`training_step`.

    Returns
    -------
    TrainingSweep

    Examples
    --------
    >>> sweep = parallel_sweep("GPT-3 175B", "Selene", 1024, 1536, recompute="full")
    >>> row = sweep.row(sweep.best())
    >>> row["tensor_parallel"] * row["pipeline_parallel"] * row["data_parallel"]
    1024
    """
    model = _resolve("model", model, MODELS, transformer_model, TransformerModel)
    cluster_ = _resolve("cluster", cluster_, CLUSTERS, cluster, Cluster)
    software_ = _resolve("software", software_, SOFTWARE, software, Software)
    gpus = check_integer("gpus", gpus, minimum=1)
    batch = check_integer("global_batch_size", global_batch_size, minimum=1, unit="sequences")
    check_choice("recompute", recompute, _RECOMPUTE)
    zero_stage = check_integer("zero_stage", zero_stage, minimum=0, maximum=3)
    interleave = check_integer("interleave", interleave, minimum=1)
    limit = cluster_.gpus_per_node if max_tensor_parallel is None else check_integer(
        "max_tensor_parallel", max_tensor_parallel, minimum=1)
    rows = []
    for t in _divisors(gpus):
        if t > limit or model.heads % t or model.ffn_hidden_size % t or (model.kv_heads % t and t % model.kv_heads):
            continue
        for p in _divisors(gpus // t):
            if model.layers % (p * interleave) or (interleave > 1 and p == 1):
                continue
            d = gpus // (t * p)
            if batch % d:
                continue
            per_replica = batch // d
            sizes = _divisors(per_replica) if microbatch_sizes is None else [
                k for k in microbatch_sizes if per_replica % k == 0]
            for b in sizes:
                if interleave > 1 and (per_replica // b) % p:
                    continue
                rows.append((t, p, d, b))
    if not rows:
        raise ValueError(f"no (TP, PP, DP, microbatch) split of {gpus} GPUs is valid for model {model.name!r} "
                         f"with global batch {batch}: the batch must be divisible by the data-parallel degree")
    t, p, d, b = (np.array(column, dtype=int) for column in zip(*rows))
    step = _evaluate(model, cluster_, software_, efficiencies, global_batch_size=batch, recompute=recompute,
                     zero_stage=zero_stage, sequence_parallel=sequence_parallel,
                     t=t, p=p, d=d, c=np.ones_like(t), b=b, v=np.full_like(t, interleave))
    return TrainingSweep(tensor_parallel=t, pipeline_parallel=p, data_parallel=d, microbatch_size=b, step=step)


# ============================================================================
# The pipeline schedule, microbatch by microbatch
# ============================================================================

@dataclass(frozen=True)
class PipelineSchedule:
    """When each stage runs each forward and backward pass of a pipelined iteration.

    From :func:`pipeline_schedule`. One element per pass (a forward or backward
    pass of one microbatch through one model chunk on one stage); times are in
    units of one microbatch's *forward* pass through a whole stage (all its
    chunks), so a stage's ideal busy time is ``microbatches * (1 + backward_ratio)``.

    Attributes
    ----------
    pipeline_parallel, microbatches, interleave : int
        Stages p, microbatches m and model chunks per stage v.
    backward_ratio : float
        Duration of a backward pass over a forward pass [-].
    stage : numpy.ndarray of int
        Stage that runs the pass, 0 (first) to p - 1.
    backward : numpy.ndarray of bool
        True for a backward pass.
    microbatch : numpy.ndarray of int
        Microbatch, 0 to m - 1.
    chunk : numpy.ndarray of int
        Model chunk on its stage, 0 to v - 1 (virtual stage ``chunk * p + stage``).
    start, end : numpy.ndarray of float
        When the pass starts and ends [forward-pass units].
    """

    pipeline_parallel: int
    microbatches: int
    interleave: int
    backward_ratio: float
    stage: np.ndarray
    backward: np.ndarray
    microbatch: np.ndarray
    chunk: np.ndarray
    start: np.ndarray
    end: np.ndarray

    @property
    def makespan(self) -> float:
        """Time from the first pass to the last [forward-pass units]."""
        return float(self.end.max())

    @property
    def ideal(self) -> float:
        """A stage's busy time, ``m (1 + backward_ratio)`` [forward-pass units]."""
        return self.microbatches * (1 + self.backward_ratio)

    @property
    def bubble_fraction(self) -> float:
        """Idle time over ideal time, ``makespan / ideal - 1`` [-]: SC21's (p-1)/(vm)."""
        return self.makespan / self.ideal - 1


def _schedule_order(p, m, v, stage):
    """Megatron-LM's order of passes on one stage: warm-up forwards, one-forward-one-backward, cool-down."""
    total = m * v
    warmup = min(p - stage - 1 if v == 1 else 2 * (p - stage - 1) + (v - 1) * p, total)
    order = [(False, k) for k in range(warmup)]
    for k in range(total - warmup):
        order += [(False, warmup + k), (True, k)]
    order += [(True, k) for k in range(total - warmup, total)]
    return order


def pipeline_schedule(pipeline_parallel, microbatches, interleave=1, *, backward_ratio=2.0) -> PipelineSchedule:
    """Simulate the 1F1B pipeline schedule (interleaved when ``interleave > 1``) pass by pass.

    Each stage runs its passes in Megatron-LM's order (Narayanan et al. 2021,
    §2.2): ``p - s - 1`` warm-up forward passes on stage s (with v chunks,
    ``2(p - s - 1) + (v - 1)p``), then one forward and one backward in turn,
    then the remaining backward passes. With v chunks the k-th forward pass of
    a stage is chunk ``(k mod pv) // p`` of microbatch ``(k // pv) p + k mod p``
    (backward passes take the chunks in reverse). A forward pass waits for the
    same microbatch's forward pass on the previous virtual stage, a backward
    pass for its backward pass on the next one; communication takes no time.
    The result has the bubble SC21 derives,

    .. math:: \\frac{t_\\text{bubble}}{t_\\text{ideal}} = \\frac{1}{v}\\,\\frac{p-1}{m},

    which :func:`pipeline_bubble_fraction` gives in closed form; the schedule
    shows where the idle time falls.

    Parameters
    ----------
    pipeline_parallel : int
        Stages p, 1 to 64.
    microbatches : int
        Microbatches m per iteration, 1 to 512; with ``interleave > 1`` a
        multiple of p (Megatron-LM's requirement).
    interleave : int
        Model chunks per stage v, 1 to 16.
    backward_ratio : float
        Backward over forward duration [-]; 2 without recomputation.

    Returns
    -------
    PipelineSchedule

    References
    ----------
    D. Narayanan et al., SC21, §2.2, https://doi.org/10.1145/3458817.3476209.

    Examples
    --------
    >>> schedule = pipeline_schedule(4, 8)
    >>> schedule.bubble_fraction, pipeline_bubble_fraction(4, 8)
    (0.375, 0.375)
    >>> round(pipeline_schedule(4, 8, interleave=2).bubble_fraction, 6)
    0.1875
    """
    p = check_integer("pipeline_parallel", pipeline_parallel, minimum=1, maximum=64)
    m = check_integer("microbatches", microbatches, minimum=1, maximum=512)
    v = check_integer("interleave", interleave, minimum=1, maximum=16)
    ratio = check_number("backward_ratio", backward_ratio, minimum=0, min_inclusive=False, maximum=10)
    if v > 1 and m % p:
        raise ValueError(f"microbatches = {m} must be a multiple of pipeline_parallel = {p} when "
                         f"interleave = {v} > 1 (Megatron-LM's interleaved schedule requires it)")
    orders = [_schedule_order(p, m, v, stage) for stage in range(p)]
    forward_s, backward_s = 1.0 / v, ratio / v
    finished = {}                 # (backward, microbatch, virtual stage) -> end time
    position = [0] * p
    free = [0.0] * p
    rows = []
    remaining = sum(map(len, orders))
    while remaining:
        progressed = False
        for stage in range(p):
            order = orders[stage]
            while position[stage] < len(order):
                backward, k = order[position[stage]]
                group = k % (p * v)
                chunk = group // p if not backward else v - 1 - group // p
                microbatch = (k // (p * v)) * p + k % p
                virtual = chunk * p + stage
                if not backward:
                    needs = (False, microbatch, virtual - 1) if virtual > 0 else None
                else:
                    needs = (True, microbatch, virtual + 1) if virtual < p * v - 1 else (False, microbatch, virtual)
                if needs is not None and needs not in finished:
                    break         # wait for another stage
                start = max(free[stage], finished[needs] if needs else 0.0)
                end = start + (backward_s if backward else forward_s)
                finished[(backward, microbatch, virtual)] = end
                free[stage] = end
                rows.append((stage, backward, microbatch, chunk, start, end))
                position[stage] += 1
                remaining -= 1
                progressed = True
        if not progressed:    # pragma: no cover - the order above never deadlocks for valid input
            raise RuntimeError("pipeline schedule deadlocked")
    stage_, backward_, microbatch_, chunk_, start_, end_ = (np.array(column) for column in zip(*rows))
    return PipelineSchedule(pipeline_parallel=p, microbatches=m, interleave=v, backward_ratio=float(ratio),
                            stage=stage_.astype(int), backward=backward_.astype(bool),
                            microbatch=microbatch_.astype(int), chunk=chunk_.astype(int),
                            start=start_.astype(float), end=end_.astype(float))


# ============================================================================
# What each kind of parallelism sends, over which link, how often
# ============================================================================

@dataclass(frozen=True)
class ParallelTraffic:
    """One collective of a parallel run: per GPU, per iteration.

    From :func:`parallel_traffic`.

    Attributes
    ----------
    kind : str
        ``"tensor"``, ``"context"``, ``"pipeline"`` or ``"data"``.
    purpose : str
        What the collective carries, in words.
    collective : str
        The collective as :mod:`interconnect_lab.collectives` names it
        (``"all_reduce"``, ``"all_gather"``, ``"reduce_scatter"``, ``"send_recv"``).
    group : int
        Ranks in the group.
    calls : int
        How many times each GPU takes part per iteration.
    message_bytes : float
        Size of each, as nccl-tests counts it (the whole array) [B].
    sent_bytes : float
        Bytes one GPU sends for all the calls, by the ring's traffic
        (:math:`2\\frac{n-1}{n}S` for all-reduce, :math:`\\frac{n-1}{n}S` for
        all-gather and reduce-scatter, S for a send) [B].
    link : str
        Catalog link the group uses: the scale-up link when the group lies in
        one node, the scale-out link when every rank is in a different node,
        both (``"NVLink 3 + InfiniBand HDR"``) for a two-level collective.
    crosses_network : bool
        True when the group spans more than one node.
    time_s : float
        All the calls one after another, none hidden behind compute [s];
        :class:`TrainingStep` counts only the exposed part.
    """

    kind: str
    purpose: str
    collective: str
    group: int
    calls: int
    message_bytes: float
    sent_bytes: float
    link: str
    crosses_network: bool
    time_s: float


def _link_used(cluster_, ranks, ranks_per_node):
    if ranks_per_node >= ranks:
        return cluster_.scale_up_link, False
    if ranks_per_node == 1 or ranks % ranks_per_node:
        return cluster_.scale_out_link, True
    return f"{cluster_.scale_up_link} + {cluster_.scale_out_link}", True


def parallel_traffic(model, cluster_, config, software_="Megatron-LM SC21", *,
                     efficiencies=DEFAULT_EFFICIENCIES) -> tuple[ParallelTraffic, ...]:
    """What each kind of parallelism puts on which link, how often and in how many bytes.

    The same collectives :func:`training_step` charges, listed one by one for
    one GPU of the most loaded pipeline stage and one iteration:

    - tensor parallelism: an all-reduce of the microbatch's b·s·h activations
      after attention and after the MLP (one with a parallel block), in every
      pass (forward, backward, recomputed forward), for every layer of the
      stage and every microbatch (SC21 §3.2). With sequence parallelism each
      becomes a reduce-scatter and an all-gather of the same volume
      (Korthikanti et al. 2022);
    - context parallelism: an all-gather of the keys and values of the whole
      sequence, per layer and pass;
    - pipeline parallelism: the b·s·h activations at a stage boundary sent
      forward and their gradients sent back, per microbatch and model chunk
      (1/t of them each with the scatter/gather optimisation, then an
      all-gather inside the tensor-parallel group);
    - data parallelism: the gradients (all-reduce; with ZeRO-1/2 a
      reduce-scatter and an all-gather of the updated weights), once per
      iteration; ZeRO-3 gathers the weights for every forward and backward
      pass of every microbatch.

    Parameters
    ----------
    model, cluster_, config, software_, efficiencies :
        As for :func:`training_step`.

    Returns
    -------
    tuple of ParallelTraffic
        One entry per collective the split uses (none for a degree of 1).

    References
    ----------
    Narayanan et al., SC21, §3.2; Korthikanti et al., MLSys 2023, §4;
    Rajbhandari et al., SC20, §7.

    Examples
    --------
    GPT-3 175B on 1,024 A100 of Selene, t = 8, p = 8, d = 16:

    >>> from interconnect_lab import units as u
    >>> config = parallel_config(1024, global_batch_size=1536, tensor_parallel=8, pipeline_parallel=8)
    >>> for row in parallel_traffic("GPT-3 175B", "Selene", config):
    ...     print(f"{row.kind:8} {row.collective:14} {row.calls:6d} x {row.message_bytes / u.MB:7.1f} MB  {row.link}")
    tensor   all_reduce       6912 x    50.3 MB  NVLink 3
    pipeline send_recv         192 x     6.3 MB  InfiniBand HDR
    pipeline all_gather        192 x    50.3 MB  NVLink 3
    data     all_reduce          1 x  5597.0 MB  InfiniBand HDR
    """
    model = _resolve("model", model, MODELS, transformer_model, TransformerModel)
    cluster_ = _resolve("cluster", cluster_, CLUSTERS, cluster, Cluster)
    software_ = _resolve("software", software_, SOFTWARE, software, Software)
    if not isinstance(config, ParallelConfig):
        raise TypeError(f"config must be a ParallelConfig (see parallel_config), got {type(config).__name__}")
    if not isinstance(efficiencies, Efficiencies):
        raise TypeError(f"efficiencies must be an Efficiencies, got {type(efficiencies).__name__}")
    config.check(model)
    t, p, d, c = config.tensor_parallel, config.pipeline_parallel, config.data_parallel, config.context_parallel
    b, v, m = config.microbatch_size, config.interleave, config.microbatches
    sp = config.sequence_parallel
    node, gpus = cluster_.gpus_per_node, config.gpus
    h, kv = model.hidden_size, model.kv_size
    tokens = b * model.sequence_length / c
    layers = int(_layers_per_stage(model, p, v, config.uneven_pipeline))
    passes = 2 + (1 if config.recompute == "full" else 0)
    rows = []

    def add(kind, purpose, collective, group, ranks_per_node, calls, message_bytes):
        group_ranks_per_node = int(min(ranks_per_node, group))
        link, crosses = _link_used(cluster_, group, group_ranks_per_node)
        traffic = collectives.ALGORITHMS["direct" if collective == "send_recv" else "ring"].cost(
            collective, 2 if collective == "send_recv" else group)[1]
        one = float(_collective_s(collective, message_bytes, 2 if collective == "send_recv" else group,
                                  group_ranks_per_node, cluster_))
        rows.append(ParallelTraffic(kind=kind, purpose=purpose, collective=collective, group=int(group),
                                    calls=int(calls), message_bytes=float(message_bytes),
                                    sent_bytes=float(calls * traffic * message_bytes), link=link,
                                    crosses_network=crosses, time_s=float(calls * one)))

    if t > 1:
        blocks = 1 if software_.parallel_block else 2
        add("tensor", "activations after attention and MLP, every layer and pass", "all_reduce", t,
            int(_group_ranks_per_node(t, node, gpus)), m * layers * passes * blocks,
            software_.parameter_bytes * tokens * h)
    if c > 1:
        add("context", "keys and values of the whole sequence, every layer and pass", "all_gather", c,
            max(node // t, 1), m * layers * passes, software_.parameter_bytes * 2 * b * model.sequence_length * kv / t)
    if p > 1:
        boundary = software_.parameter_bytes * tokens * h
        scatter = software_.scatter_gather or sp
        pp_ranks_per_node = 2 if t * c * d < node else 1
        add("pipeline", "activations forward and their gradients back at a stage boundary", "send_recv", 2,
            pp_ranks_per_node, 2 * v * m, boundary / t if scatter else boundary)
        if scatter and not sp and t > 1:
            add("pipeline", "re-assembling the scattered boundary inside the tensor-parallel group", "all_gather",
                t, int(_group_ranks_per_node(t, node, gpus)), 2 * v * m, boundary)
    if d > 1:
        params = float(_stage_parameters(model, t, p, v, config.uneven_pipeline))
        ranks_per_node = int(np.clip(node // (t * c), 1, d))
        gradient_size = params * software_.gradient_bytes
        weight_size = params * software_.parameter_bytes
        if config.zero_stage == 0:
            add("data", "gradients, once per iteration", "all_reduce", d, ranks_per_node, 1, gradient_size)
        elif config.zero_stage in (1, 2):
            add("data", "gradients, once per iteration (each rank keeps its shard)", "reduce_scatter", d,
                ranks_per_node, 1, gradient_size)
            add("data", "updated weights, once per iteration", "all_gather", d, ranks_per_node, 1, weight_size)
        else:
            forward = weight_size * (0.5 if software_.quantized_weights else 1.0)
            add("data", "weights before every forward pass of every microbatch", "all_gather", d, ranks_per_node,
                m * (passes - 1), forward)
            backward_ranks = min(d, ranks_per_node) if software_.hierarchical_partition else d
            if backward_ranks > 1:
                add("data", "weights before every backward pass of every microbatch", "all_gather", backward_ranks,
                    ranks_per_node, m, weight_size)
            gradient_wire = params * (0.5 if software_.quantized_gradients else software_.gradient_bytes)
            add("data", "gradients after every backward pass of every microbatch", "reduce_scatter", d,
                ranks_per_node, m, gradient_wire)
    return tuple(rows)


# ============================================================================
# Communication volumes: ZeRO, ZeRO++ and gradient compression
# ============================================================================

@dataclass(frozen=True)
class ZeroVolume:
    """Data-parallel communication per iteration, per GPU, in units of the model size M.

    Attributes
    ----------
    forward_all_gather, backward_all_gather, gradient_reduction : float
        The three collectives of ZeRO-3 (for stages 0-2 only the gradient
        reduction and the parameter all-gather after the update) [M].
    cross_node : float
        The part that crosses the scale-out network [M].
    """

    forward_all_gather: float
    backward_all_gather: float
    gradient_reduction: float
    cross_node: float

    @property
    def total(self) -> float:
        """All data-parallel traffic [M]."""
        return self.forward_all_gather + self.backward_all_gather + self.gradient_reduction


def zero_communication_volume(stage, *, quantized_weights=False, hierarchical_partition=False,
                              quantized_gradients=False) -> ZeroVolume:
    """ZeRO's per-iteration communication volume, in units of the model size M.

    Stages 0-2 move 2M per GPU (a reduce-scatter and an all-gather, the cost of
    an all-reduce; Rajbhandari et al. 2020 §7); stage 3 adds a second weight
    all-gather: M forward + M backward + M gradient reduce-scatter = 3M.
    ZeRO++ (Wang et al. 2023) cuts stage 3 to 0.75M across nodes:

    ===========================  ============  =============
    change                       collective    volume
    ===========================  ============  =============
    qwZ: INT8 weights            forward AG    M -> 0.5M
    hpZ: copy inside each node   backward AG   M -> 0 across nodes
    qgZ: INT4 gradients          RS            M -> 0.25M
    ===========================  ============  =============

    Parameters
    ----------
    stage : {0, 1, 2, 3}
        ZeRO stage.
    quantized_weights, hierarchical_partition, quantized_gradients : bool
        The three ZeRO++ techniques (stage 3 only).

    Returns
    -------
    ZeroVolume

    References
    ----------
    Rajbhandari et al., SC20, §7; Wang et al., arXiv:2306.10209, §3-4.

    Examples
    --------
    >>> zero_communication_volume(3).total
    3.0
    >>> zero_communication_volume(3, quantized_weights=True, hierarchical_partition=True,
    ...                           quantized_gradients=True).cross_node
    0.75
    """
    stage = check_integer("stage", stage, minimum=0, maximum=3)
    plus_plus = quantized_weights or hierarchical_partition or quantized_gradients
    if plus_plus and stage != 3:
        raise ValueError(f"ZeRO++ (quantized_weights, hierarchical_partition, quantized_gradients) "
                         f"applies to ZeRO stage 3, got stage = {stage}")
    if stage < 3:
        return ZeroVolume(forward_all_gather=1.0, backward_all_gather=0.0, gradient_reduction=1.0,
                          cross_node=2.0)
    forward = 0.5 if quantized_weights else 1.0
    backward = 1.0
    gradients = 0.25 if quantized_gradients else 1.0
    cross = forward + (0.0 if hierarchical_partition else backward) + gradients
    return ZeroVolume(forward_all_gather=forward, backward_all_gather=backward,
                      gradient_reduction=gradients, cross_node=cross)


@dataclass(frozen=True)
class GradientCompression:
    """What a gradient compressor sends and how much it distorts.

    Attributes
    ----------
    method : str
        ``"quantize"`` or ``"top-k"``.
    bytes_sent : float
        Bytes on the wire for the whole gradient [B].
    compression_ratio : float
        Uncompressed 16-bit bytes over ``bytes_sent`` [-].
    relative_error : float
        :math:`\\lVert g - \\hat g\\rVert / \\lVert g\\rVert` on the gradient given [-].
    """

    method: str
    bytes_sent: float
    compression_ratio: float
    relative_error: float


def gradient_compression(gradient, method, *, bits=8, fraction=0.01, index_bytes=4, value_bytes=2,
                         block_size=None, rng=None) -> GradientCompression:
    """Volume and error of quantizing or sparsifying a gradient.

    ``"quantize"``: stochastic rounding to ``bits`` bits on a uniform grid over
    [-max|g|, max|g|] (unbiased; error variance at most :math:`\\Delta^2/4`
    with step :math:`\\Delta = 2\\max|g|/(2^{bits}-1)`), plus one 4-byte scale.
    With ``block_size`` each block of that many entries gets its own scale
    (its own max|g|), as ZeRO++ quantizes (Wang et al. 2023, §4.1): one large
    entry then coarsens only its block's grid, for 4 more bytes per block.

    ``"top-k"``: keep the ``fraction`` of entries largest in magnitude, sending
    each value and its index; the rest are dropped (error = the dropped norm).

    Parameters
    ----------
    gradient : array_like
        The gradient to compress (any shape) [-].
    method : {"quantize", "top-k"}
        Compressor.
    bits : int
        Bits per value for ``"quantize"``, 1 to 16.
    fraction : float
        Share of entries kept by ``"top-k"``, in (0, 1].
    index_bytes, value_bytes : int
        Bytes per index and per kept value for ``"top-k"`` [B].
    block_size : int, optional
        Entries per quantization block for ``"quantize"``; one scale for the
        whole gradient if omitted.
    rng : numpy.random.Generator or int, optional
        Randomness for stochastic rounding.

    Returns
    -------
    GradientCompression

    Examples
    --------
    >>> g = np.random.default_rng(0).standard_normal(100_000)
    >>> q = gradient_compression(g, "quantize", bits=4, rng=1)
    >>> q.compression_ratio > 3.9, 0.05 < q.relative_error < 0.5
    (True, True)
    >>> round(gradient_compression(g, "top-k", fraction=0.01).compression_ratio, 1)
    33.3

    Blocks help most when a few entries are far larger than the rest:

    >>> heavy = np.random.default_rng(0).standard_t(3, 100_000)
    >>> whole = gradient_compression(heavy, "quantize", bits=4, rng=1)
    >>> blocks = gradient_compression(heavy, "quantize", bits=4, block_size=256, rng=1)
    >>> bool(blocks.relative_error < whole.relative_error / 3), round(blocks.compression_ratio, 2)
    (True, 3.88)
    """
    check_choice("compression method", method, ("quantize", "top-k"))
    g = np.asarray(gradient, dtype=float).ravel()
    if g.size == 0 or not np.all(np.isfinite(g)):
        raise ValueError("gradient must be a non-empty array of finite numbers")
    dense_bytes = 2.0 * g.size
    norm = float(np.linalg.norm(g))
    if method == "quantize":
        bits = check_integer("bits", bits, minimum=1, maximum=16)
        rng = np.random.default_rng(rng)
        levels = 2 ** bits - 1
        if block_size is None:
            scales, blocks = np.full(g.size, float(np.max(np.abs(g)))), 1
        else:
            block = check_integer("block_size", block_size, minimum=1)
            blocks = -(-g.size // block)
            padded = np.zeros(blocks * block)
            padded[:g.size] = np.abs(g)
            scales = np.repeat(padded.reshape(blocks, block).max(axis=1), block)[:g.size]
        safe = np.where(scales > 0, scales, 1.0)
        grid = (g + safe) / (2 * safe) * levels
        low = np.floor(grid)
        rounded = low + (rng.random(g.size) < (grid - low))
        approx = np.where(scales > 0, rounded / levels * 2 * safe - safe, 0.0)
        sent = g.size * bits / 8 + 4 * blocks
    else:
        fraction = check_number("fraction", fraction, minimum=0, maximum=1, min_inclusive=False)
        kept = max(1, int(round(fraction * g.size)))
        keep = np.argpartition(np.abs(g), g.size - kept)[g.size - kept:]
        approx = np.zeros_like(g)
        approx[keep] = g[keep]
        sent = kept * (check_integer("index_bytes", index_bytes, minimum=0, unit="B")
                       + check_integer("value_bytes", value_bytes, minimum=1, unit="B"))
    error = float(np.linalg.norm(g - approx) / norm) if norm > 0 else 0.0
    return GradientCompression(method=method, bytes_sent=float(sent),
                               compression_ratio=dense_bytes / sent, relative_error=error)


# ============================================================================
# Replaying MegaScale's ablation (Table 3)
# ============================================================================

def megascale_ablation(cluster_="MegaScale", *, gpus=256, global_batch_size=256,
                       microbatch_size=MEGASCALE_MICROBATCH_SIZE, efficiencies=DEFAULT_EFFICIENCIES):
    """MFU as MegaScale's optimizations are switched on one at a time (NSDI'24 Table 3).

    The 175B model with TP 8, PP 8, interleave 6, selective recomputation and
    sequence parallelism. The baseline is the ``"Megatron-LM 2023"`` stack
    with plain data-parallel all-reduce (Megatron-LM's default); the steps the
    model can express are the parallel transformer block, TP overlap, PP
    overlap, DP overlap (with ZeRO-2-style reduce-scatter and all-gather, as
    MegaScale §3.2 describes), efficient operators, and LAMB's three-times
    larger batch. Sliding-window attention (window not published) and
    "miscellaneous" are not modelled.

    Returns
    -------
    list of (str, float)
        (optimization, modelled MFU) in Table 3's order, starting with the baseline.

    Examples
    --------
    >>> rows = megascale_ablation()
    >>> rows[0][0], rows[-1][1] > rows[0][1]
    ('Megatron-LM baseline', True)
    """
    model = transformer_model("MegaScale 175B")
    stack = software("Megatron-LM 2023")
    steps = [
        ("Megatron-LM baseline", {}, 0),
        ("parallel transformer block", {"parallel_block": True}, 0),
        ("tensor-parallel overlap", {"tensor_parallel_overlap": True}, 0),
        ("pipeline-parallel overlap", {"pipeline_parallel_overlap": True}, 0),
        ("data-parallel overlap", {"data_parallel_overlap": True}, 2),
        ("efficient operators", {"fused_norm_activation": True}, 2),
    ]

    def mfu(batch, zero_stage):
        config = parallel_config(gpus, global_batch_size=batch, tensor_parallel=8, pipeline_parallel=8,
                                 interleave=6, microbatch_size=microbatch_size, recompute="selective",
                                 sequence_parallel=True, zero_stage=zero_stage)
        return training_step(model, cluster_, config, stack, efficiencies=efficiencies).mfu

    rows = []
    for label, change, zero_stage in steps:
        stack = dataclasses.replace(stack, **change)
        rows.append((label, mfu(global_batch_size, zero_stage)))
    rows.append(("LAMB optimizer (batch x3)", mfu(3 * global_batch_size, 2)))
    return rows
