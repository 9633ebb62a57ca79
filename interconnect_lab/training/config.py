"""Parallel configuration: TP, PP, DP, CP, microbatch and the rules a valid split obeys."""

from __future__ import annotations

from dataclasses import dataclass

from .._validation import NotPossible, check_choice, check_integer
from .models import RECOMPUTATION, TransformerModel


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
    recompute : {"full", "selective", "none", "every other layer", "every other matmul"}
        Activation recomputation, a name from ``training.RECOMPUTATION``: the
        first three as Korthikanti et al. (2022) define them, the last two
        torchtitan's layer and op-level selective checkpointing.
    sequence_parallel : bool
        Shard norms, dropout and residuals along the sequence over the
        tensor-parallel group (Korthikanti et al. 2022).
    zero_stage : {0, 1, 2, 3}
        ZeRO stage over the data-parallel group: 1 shards optimizer state
        (Megatron-LM's distributed optimizer), 2 also gradients, 3 also weights.
    uneven_pipeline : bool
        Allow a layer count that ``pipeline_parallel x interleave`` does not
        divide: stages then hold ``ceil(l / p)`` or one layer fewer, and the
        short ones are at the two ends, where the embedding and the output
        layer take a layer's place (Llama 3 runs 126 layers on 16 stages,
        with one layer fewer on the first and last, Grattafiori et al. 2024,
        §3.3.2; BLOOM's partition counts its tied embeddings as layers). The
        slower of the fullest stage and the last one, with its logits, sets
        the pace. Off by default, so that a mistyped split is an error.
    shard_group_size : int or None
        ZeRO-3 / FSDP only: GPUs that share one copy of the weights (hybrid
        sharding, PyTorch's ``HYBRID_SHARD`` with the node as the group).
        Gathers and reduce-scatters stay inside the group; the replicas
        all-reduce their gradient shards once per step. None: the whole
        data-parallel group (``FULL_SHARD``).
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
    shard_group_size: int | None = None

    def __post_init__(self):
        check_integer("global_batch_size", self.global_batch_size, minimum=1, unit="sequences")
        for field in ("tensor_parallel", "pipeline_parallel", "data_parallel", "context_parallel",
                      "interleave"):
            check_integer(field, getattr(self, field), minimum=1)
        check_integer("microbatch_size", self.microbatch_size, minimum=1, unit="sequences")
        check_choice("recompute", self.recompute, RECOMPUTATION)
        check_integer("zero_stage", self.zero_stage, minimum=0, maximum=3)
        if self.shard_group_size is not None:
            check_integer("shard_group_size", self.shard_group_size, minimum=1, maximum=self.data_parallel)
            if self.zero_stage != 3:
                raise ValueError(f"shard_group_size = {self.shard_group_size} applies to zero_stage = 3 "
                                 f"(FSDP / ZeRO-3 hybrid sharding), not zero_stage = {self.zero_stage}")
            if self.data_parallel % self.shard_group_size:
                raise ValueError(f"shard_group_size = {self.shard_group_size} must divide data_parallel = "
                                 f"{self.data_parallel}: the replicas are whole shard groups")
        replica = self.data_parallel * self.microbatch_size
        if self.global_batch_size % replica:
            raise NotPossible(
                f"global_batch_size = {self.global_batch_size} sequences is not divisible by "
                f"data_parallel x microbatch_size = {self.data_parallel} x {self.microbatch_size} = {replica}: "
                "every data-parallel replica needs a whole number of microbatches",
                plain=f"A batch of {self.global_batch_size:,} sequences does not split into {self.data_parallel:,} "
                      f"data-parallel copies of whole microbatches of {self.microbatch_size}: the batch must be a "
                      f"multiple of {replica:,}.")
        if self.interleave > 1:
            if self.pipeline_parallel == 1:
                raise NotPossible(f"interleave = {self.interleave} needs pipeline_parallel > 1: "
                                  "model chunks interleave across pipeline stages",
                                  plain=f"{self.interleave} model chunks per stage need more than one pipeline "
                                        "stage to interleave across.")
            if self.microbatches % self.pipeline_parallel:
                raise NotPossible(
                    f"the interleaved schedule needs the microbatch count m = {self.microbatches} to be "
                    f"divisible by pipeline_parallel = {self.pipeline_parallel} (Megatron-LM's requirement)",
                    plain=f"The interleaved schedule needs the microbatches of each data-parallel copy "
                          f"({self.microbatches:,}) to be a multiple of the {self.pipeline_parallel} pipeline "
                          "stages, as Megatron-LM requires.")

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
        check_divides(model, self.tensor_parallel, self.pipeline_parallel, self.context_parallel,
                       self.interleave, uneven_pipeline=self.uneven_pipeline)
        return self


def divides_model(model, t):
    """Whether tensor-parallel degree t splits the model's heads and MLP evenly."""
    return not (model.heads % t or model.ffn_hidden_size % t or (model.kv_heads % t and t % model.kv_heads))


def check_divides(model, t, p, c, v, *, uneven_pipeline=False):
    """Raise ``ValueError`` naming everything of ``model`` that degrees t, p, c and v do not divide."""
    problems, plain = [], []
    if model.heads % t:
        problems.append(f"heads = {model.heads} are not divisible by tensor_parallel = {t}")
        plain.append(f"its {model.heads} attention heads do not share evenly among {t} tensor-parallel GPUs")
    if model.kv_heads % t and t % model.kv_heads:
        problems.append(f"kv_heads = {model.kv_heads} and tensor_parallel = {t}: neither divides the other")
        plain.append(f"its {model.kv_heads} key-value heads and {t} tensor-parallel GPUs do not divide one another")
    if model.ffn_hidden_size % t:
        problems.append(f"ffn_hidden_size = {model.ffn_hidden_size} is not divisible by tensor_parallel = {t}")
        plain.append(f"its feed-forward width of {model.ffn_hidden_size:,} does not share evenly among {t} GPUs")
    if model.layers % (p * v) and not uneven_pipeline:
        what = f"pipeline_parallel x interleave = {p} x {v} = {p * v}" if v > 1 else f"pipeline_parallel = {p}"
        problems.append(f"layers = {model.layers} are not divisible by {what} "
                        "(uneven_pipeline=True lets some stages hold one layer fewer)")
        where = f"{p} pipeline stages of {v} chunks each" if v > 1 else f"{p} pipeline stages"
        plain.append(f"its {model.layers} layers do not share evenly among {where}")
    if model.sequence_length % c:
        problems.append(f"sequence_length = {model.sequence_length} is not divisible by context_parallel = {c}")
        plain.append(f"its {model.sequence_length:,}-token sequences do not share evenly among {c} GPUs")
    if problems:
        raise NotPossible(f"model {model.name!r} cannot be split this way: " + "; ".join(problems),
                          plain=f"{model.name} cannot be split this way: " + "; ".join(plain) + ".")


def parallel_config(gpus, *, global_batch_size, tensor_parallel=1, pipeline_parallel=1,
                    context_parallel=1, **more) -> ParallelConfig:
    """A :class:`ParallelConfig` for ``gpus`` GPUs, with the data-parallel degree derived.

    .. math:: d = \\frac{N}{t\\, p\\, c}

    Parameters
    ----------
    gpus : int
        GPUs N, a multiple of t·p·c [-].
    global_batch_size : int
        Sequences per iteration B [sequences].
    tensor_parallel, pipeline_parallel, context_parallel : int
        Degrees t, p and c [-].
    **more
        The other fields of :class:`ParallelConfig` (``recompute``, ``zero_stage``, ...).

    Examples
    --------
    >>> parallel_config(1024, global_batch_size=1536, tensor_parallel=8, pipeline_parallel=16).data_parallel
    8
    """
    gpus = check_integer("gpus", gpus, minimum=1)
    tensor_parallel = check_integer("tensor_parallel", tensor_parallel, minimum=1)
    pipeline_parallel = check_integer("pipeline_parallel", pipeline_parallel, minimum=1)
    context_parallel = check_integer("context_parallel", context_parallel, minimum=1)
    model_parallel = tensor_parallel * pipeline_parallel * context_parallel
    if gpus % model_parallel:
        raise NotPossible(
            f"gpus = {gpus} is not divisible by tensor_parallel x pipeline_parallel x context_parallel = "
            f"{tensor_parallel} x {pipeline_parallel} x {context_parallel} = {model_parallel}",
            plain=f"{gpus:,} GPUs do not make whole copies of the model: one copy takes {model_parallel:,} GPUs "
                  f"({tensor_parallel} tensor-parallel x {pipeline_parallel} pipeline stages"
                  + (f" x {context_parallel} context-parallel" if context_parallel > 1 else "") + ").")
    return ParallelConfig(global_batch_size=global_batch_size, tensor_parallel=tensor_parallel,
                          pipeline_parallel=pipeline_parallel, context_parallel=context_parallel,
                          data_parallel=gpus // model_parallel, **more)
