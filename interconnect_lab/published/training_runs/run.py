"""One published training run, as the fidelity table replays it: :class:`PublishedRun`."""

from __future__ import annotations

from dataclasses import dataclass

from ...sources import Source

__all__ = ["PublishedRun", "METRICS"]

#: What a run's ``value`` measures: MFU (model FLOPs, no recomputation, over the
#: dense BF16 peak), model or executed TFLOP/s per GPU, or tokens per second of the
#: whole job (sequence length x global batch / step time).
METRICS = ("mfu", "model_flop_per_s_per_gpu", "hardware_flop_per_s_per_gpu", "tokens_per_s")


@dataclass(frozen=True, kw_only=True)
class PublishedRun:
    """One published training run: its inputs as the source states them, and its result.

    Attributes
    ----------
    label : str
        Short name for a table row.
    organisation : str
        Who ran and published it.
    layers, hidden_size, heads, kv_heads, ffn_hidden_size, vocabulary_size, sequence_length : int
        The transformer's shape.
    gated_mlp : bool
        SwiGLU-style MLP (three matrices) rather than two.
    dropout : bool or None
        The model applies dropout; None for its architecture's usual choice
        (GPT-style models do, Llama-style models do not).
    gpu : str
        Catalog GPU name.
    gpus, gpus_per_node : int
        GPUs in the run and in one NVLink domain.
    scale_up_link, scale_out_link : str
        Catalog links inside and between nodes.
    nics_per_node : int
        Compute-fabric ports per node.
    pod_gpus : int or None
        GPUs under one full-bisection pod of the fabric (None: non-blocking throughout).
    oversubscription : float
        Downlink over uplink capacity above the pods [-].
    tensor_parallel, pipeline_parallel, context_parallel, interleave : int
        Degrees t, p, c and model chunks per stage v (data parallelism is derived).
    microbatch_size, global_batch_size : int
        Sequences per microbatch and per iteration.
    recompute : str
        Activation recomputation, a name from ``interconnect_lab.training.RECOMPUTATION``.
    sequence_parallel : bool
        Megatron sequence parallelism.
    zero_stage : int
        0-3; 3 is FSDP FULL_SHARD / ZeRO-3.
    shard_group_size : int or None
        FSDP hybrid sharding: GPUs sharing one copy of the weights.
    uneven_pipeline : bool
        Stages may hold one layer fewer; the short ones are the first and the
        last, beside the embedding and the output layer.
    software : str
        Training stack, a name from :data:`interconnect_lab.training.SOFTWARE`.
    metric : str
        One of ``METRICS``: "mfu", "model_flop_per_s_per_gpu", "hardware_flop_per_s_per_gpu", "tokens_per_s".
    value : float
        The published figure (a fraction for MFU, FLOP/s or tokens/s otherwise).
    assumptions : tuple of str
        Inputs the source does not state, each with the value used and why.
    source : Source
        Where the row is printed.
    """

    label: str
    organisation: str
    layers: int
    hidden_size: int
    heads: int
    kv_heads: int
    ffn_hidden_size: int
    vocabulary_size: int
    sequence_length: int
    gated_mlp: bool
    dropout: bool | None = None
    gpu: str
    gpus: int
    gpus_per_node: int
    scale_up_link: str
    scale_out_link: str
    nics_per_node: int
    pod_gpus: int | None = None
    oversubscription: float = 1.0
    tensor_parallel: int = 1
    pipeline_parallel: int = 1
    context_parallel: int = 1
    interleave: int = 1
    microbatch_size: int
    global_batch_size: int
    recompute: str
    sequence_parallel: bool = False
    zero_stage: int = 0
    shard_group_size: int | None = None
    uneven_pipeline: bool = False
    software: str
    metric: str
    value: float
    assumptions: tuple[str, ...] = ()
    source: Source

    def __post_init__(self):
        if self.metric not in METRICS:
            raise ValueError(f"PublishedRun.metric {self.metric!r} is not one of {', '.join(METRICS)}")

    @property
    def data_parallel(self) -> int:
        """Data-parallel degree d = N / (t p c)."""
        return self.gpus // (self.tensor_parallel * self.pipeline_parallel * self.context_parallel)
