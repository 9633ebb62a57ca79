"""The training stack: what software a run uses, as a few small records of named choices.

A :class:`Software` stack is a name, its sources and five records, each the few
fields of one mechanism:

=====================  ==========================================================================
record                 fields
=====================  ==========================================================================
:class:`Kernels`       ``attention`` (unfused, or which fused kernel), ``gemm_precision``,
                       ``elementwise`` (fused into neighbours, one kernel each, or eager PyTorch
                       ops), ``parallel_block``
:class:`Precision`     ``parameter_bytes``, ``gradient_bytes``, ``fp32_weights`` (FP32 weights
                       under autocast), ``fp8_all_gather`` (FSDP2 gathers FP8 weights)
:class:`Overlap`       ``tensor_parallel``, ``context_parallel`` (which implementation) and
                       ``context_parallel_load_balance``, ``pipeline``, ``data_parallel`` and
                       its ``bucket_parameters``, ``bucket_parameters_per_rank``
:class:`Optimizer`     ``update`` (one fused kernel or op by op), ``clipping`` (every step or only
                       over the threshold)
:class:`ZeroPlusPlus`  ``quantized_weights``, ``hierarchical_partition``, ``quantized_gradients``
=====================  ==========================================================================

and two fields of its own: ``checkpoint`` (which activation-checkpoint
implementation reruns a block: the whole block, or PyTorch's non-reentrant
checkpoint that stops early) and ``scatter_gather`` (SC21's pipeline sends).

A choice is one field: a field that picks one of several behaviours takes one
name from its record's ``CHOICES`` table, which lists every valid name with
what it means (``Overlap.CHOICES["tensor_parallel"]``); an unknown name is an
error that lists them. A switch that is on or off is a bool. So no two fields
say one thing, and a combination the stacks cannot run cannot be built
(``Overlap(data_parallel="none", bucket_parameters=...)`` is an error).

Each record is frozen, keyword-only and validated on construction. A variant
comes from :meth:`Software.replace`, which takes a record's changes as a dict::

    >>> from interconnect_lab import training
    >>> base = training.software("Megatron-LM 2023")
    >>> variant = base.replace(name="+ TP overlap", overlap={"tensor_parallel": "pipelined"})
    >>> variant.overlap.tensor_parallel, variant.overlap.pipeline
    ('pipelined', 'none')
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import ClassVar

from .._validation import check_choice, check_flag, check_integer
from ..sources import Source
from .hardware import ATTENTION_KERNELS

__all__ = ["Software", "Kernels", "Precision", "Overlap", "Optimizer", "ZeroPlusPlus", "CONTEXT_PARALLEL_SOURCES"]

_TE_CONTEXT_PARALLEL = Source(
    title="NVIDIA, Transformer Engine: transformer_engine/pytorch/attention/dot_product_attention/context_parallel.py",
    year=2025,
    url="https://github.com/NVIDIA/TransformerEngine/blob/d0067d0da6cb01811b8072a7d304f0e00344ce2b/"
        "transformer_engine/pytorch/attention/dot_product_attention/context_parallel.py")
_MEGATRON_CP_COMM_TYPE = Source(
    title="NVIDIA, Megatron-LM: megatron/training/arguments.py and megatron/core/transformer/transformer_config.py "
          "(cp_comm_type)", year=2025,
    url="https://github.com/NVIDIA/Megatron-LM/blob/d98e8a64ddf34856e74b24714e3bedb2f5a39553/"
        "megatron/training/arguments.py",
    locator="--cp-comm-type, default ['p2p'] (L3221); transformer_config.py L1030-1043",
    note="'p2p: Exchange KV chunks with P2P communications in ring topology. P2P is async and can be overlapped "
         "with attention compute. all_gather: ... The all-gather is not async, and cannot be overlapped. a2a: Like "
         "DeepSpeed Ulysses, scatter attention heads across the CP group'")
_PYTORCH_CONTEXT_PARALLEL = Source(
    title="PyTorch: torch/distributed/tensor/experimental/_attention.py (context_parallel)", year=2025,
    url="https://github.com/pytorch/pytorch/blob/0123248a484ffe531edb5098b986c1bac08cd296/"
        "torch/distributed/tensor/experimental/_attention.py",
    locator="_ContextParallelOptions, _AllGatherRotater, _AllToAllRotater, _templated_ring_attention(_backward)",
    note="rotate_method ALL_GATHER and enable_load_balance True by default; convert_to_f32 True: dK, dV "
         "accumulated in FP32; the forward ring waits for the K, V of step 1 after step 0's attention (the "
         "all-gather is issued once, at step 0); the backward pass passes dK, dV to the next rank after every "
         "step (dkv_rotater, always ALL_TO_ALL, i.e. permute_tensor) and waits for the last after the loop. "
         "The stored version read; torchtitan's benchmark ran torch 1963fc8 (2024-12-23)")
_TORCHTITAN_CONTEXT_PARALLEL = Source(
    title="torchtitan: torchtitan/config_manager.py and torchtitan/models/llama/model.py", year=2024,
    url="https://github.com/pytorch/torchtitan/blob/9dec370ad26b5f8e9a7333a0e36165018262644b/"
        "torchtitan/config_manager.py",
    locator="--experimental.context_parallel_rotate_method (default 'allgather'); model.py L200-209",
    note="'allgather' means to all-gather all kv shards on ranks after the first sub-SDPA computation, "
         "'alltoall' means to all-to-all shuffle the kv shards; the Llama attention repeats the KV heads "
         "(repeat_kv) before F.scaled_dot_product_attention, so the ring carries K and V of every query head; "
         "FSDP shards over the data- and context-parallel ranks together (mesh 'dp_shard_cp')")
_DEEPSPEED_ULYSSES = Source(
    title="S. A. Jacobs et al., DeepSpeed Ulysses: System Optimizations for Enabling Training of Extreme Long "
          "Sequence Transformer Models", year=2023, url="https://arxiv.org/abs/2309.14509",
    note="all-to-all of Q, K, V (3Nh) before attention and of the output (Nh) after: 4Nh/P per link; "
         "the sequence-parallel degree is at most the number of (KV) heads")
_LLAMA3_CONTEXT_PARALLEL = Source(
    title="A. Grattafiori et al., The Llama 3 Herd of Models", year=2024, url="https://arxiv.org/abs/2407.21783",
    locator="§3.3.2",
    note="'we partition the input sequence into 2 x CP chunks ... all-gather the key (K) and value (V) tensors ... "
         "Although the all-gather communication latency is exposed in the critical path, we still adopt this "
         "approach'")

#: Where each ``Overlap.context_parallel`` implementation and its load balancing are described.
CONTEXT_PARALLEL_SOURCES = MappingProxyType({
    "p2p": (_TE_CONTEXT_PARALLEL.at(
        "AttnFuncWithCPAndKVP2P (L1356), flash_attn_p2p_communicate (L96)",
        note="'Split attention compute into multiple steps, and overlap current-step compute with next-step "
             "communication'; for i in range(cp_size + 1): wait for step i's KV, post step i+1's isend/irecv, "
             "compute; backward: '# wait until dKV is received' after the last step"), _MEGATRON_CP_COMM_TYPE),
    "all_gather": (_TE_CONTEXT_PARALLEL.at(
        "AttnFuncWithCPAndKVAllGather (L3014)",
        note="'KV all-gather between CP ranks is exposed. Refer section 3.3.2 of The Llama 3 Herd of Models'"),
        _MEGATRON_CP_COMM_TYPE, _LLAMA3_CONTEXT_PARALLEL),
    "a2a": (_TE_CONTEXT_PARALLEL.at("AttnFuncWithCPAndQKVOA2A (L4170)", note="'Like Ulysses, applying A2A to QKVO'"),
            _MEGATRON_CP_COMM_TYPE, _DEEPSPEED_ULYSSES),
    "ring, all-gather rotate": (_PYTORCH_CONTEXT_PARALLEL, _TORCHTITAN_CONTEXT_PARALLEL),
    "ring, all-to-all rotate": (_PYTORCH_CONTEXT_PARALLEL, _TORCHTITAN_CONTEXT_PARALLEL),
    "data parallel": (Source(
        title="NVIDIA, Megatron-LM: megatron/core/distributed/distributed_data_parallel.py", year=2025,
        url="https://github.com/NVIDIA/Megatron-LM/blob/d98e8a64ddf34856e74b24714e3bedb2f5a39553/"
            "megatron/core/distributed/distributed_data_parallel.py",
        locator="L148-149, L275, L289", note="gradients reduced over dp_cp_group, the data- and "
                                              "context-parallel ranks together"), _TORCHTITAN_CONTEXT_PARALLEL),
    "load balance": (_TE_CONTEXT_PARALLEL.at(
        "get_seq_chunk_ids_for_reordering_before_attn (L236), DualChunkSwap (L4963)",
        note="'DualChunkSwap divides each sequence into (cp_size * 2) chunks and distributes 2 chunks of' it to "
             "each rank"), _PYTORCH_CONTEXT_PARALLEL, _LLAMA3_CONTEXT_PARALLEL),
})


def _check_choices(record):
    """Check every enumerated field of ``record`` against its ``CHOICES`` table."""
    for field, choices in record.CHOICES.items():
        check_choice(f"{type(record).__name__}.{field}", getattr(record, field), choices)


def _check_flags(record, *fields):
    for field in fields:
        check_flag(f"{type(record).__name__}.{field}", getattr(record, field))


@dataclass(frozen=True, kw_only=True)
class Kernels:
    """Which kernels compute a layer: attention, the weight GEMMs' precision, the element-wise ops.

    Parameters
    ----------
    attention : str
        A name in ``Kernels.CHOICES["attention"]``. ``"unfused"``: the b·a·s²
        score and probability tensors are written to HBM, soft-maxed, dropped
        out and read again (13 bytes per score per forward pass with dropout, 8
        without). Any other name is a fused kernel of
        ``training.ATTENTION_KERNELS`` that computes attention in on-chip tiles
        (FlashAttention): the scores never reach HBM, and the kernel's published
        share of the GPU's peak, forward and backward, caps the attention core's
        rate (FlashAttention-2 reaches 72% of an A100 but a third of an H100;
        on an H100 at head dimension 128, FlashAttention-3 62% forward and 57%
        backward, cuDNN's fused attention, which Transformer Engine runs, 54%
        and 52%; the first FlashAttention, and the Triton port of it that
        MosaicML's MPT ran in 2023, at most 40% of an A100, and on Hopper the
        same fraction of FlashAttention-2's share as on the A100: an estimate).
        Those are the Hopper shares at 16K tokens; on Hopper
        :func:`~interconnect_lab.training.attention_share` gives them by
        sequence length and head dimension.
    gemm_precision : {"bf16", "fp8"}
        Precision of the weight GEMMs (Transformer Engine's FP8 runs the linear
        layers in FP8 and attention in BF16). FP8 GEMMs run at the GPU's best
        measured FP8 matmul rate (1.74 times the BF16 one on an H100, not the 2
        of the peaks; :func:`interconnect_lab.matmul.best_rate`) with 1-byte
        operands in the shape model, and each GEMM input and output gradient is
        first quantized (read in BF16, written as FP8 row-wise and column-wise:
        4 B of HBM traffic per element). MFU stays relative to the BF16 peak,
        as NVIDIA and Meta report it.
    elementwise : str
        How the norms, the rotary embedding and the MLP activation run, a name
        in ``Kernels.CHOICES["elementwise"]``. ``"fused"``: into neighbouring
        kernels (MegaScale §3.4 "efficient operators"; Transformer Engine):
        their separate HBM round trips vanish. ``"one kernel each"``: each
        moves one read and one write per element (Megatron-LM's fused kernels,
        ``torch.compile``). ``"eager"``: written as PyTorch tensor ops and run
        without ``torch.compile``, each op its own kernel, the norm and the
        rotation upcast to FP32, as in torchtitan's Llama (``RMSNorm``,
        ``apply_rotary_emb``, ``F.silu(w1(x)) * w3(x)``); their HBM traffic is
        counted from that code (``training.EAGER_RMSNORM_BYTES``,
        ``EAGER_ROTARY_BYTES``, ``EAGER_GATED_ACTIVATION_BYTES``): a norm moves
        about ten times the bytes per element of one fused kernel. Other eager
        Llama code moves as much or more (IBM's FMS rotates by 2 x 2 matrices in
        FP32). Nothing changes between ``"one kernel each"`` and ``"eager"`` for
        a model without those ops (LayerNorm, learned positions, a two-matrix MLP).
    parallel_block : bool
        Attention and MLP read the same normalised input and their outputs are
        summed (GPT-J/PaLM block): one norm, one residual add and one
        tensor-parallel all-reduce per layer per pass instead of two.
    """

    #: The valid names of each enumerated field, with what each means.
    CHOICES: ClassVar[Mapping] = MappingProxyType({
        "attention": MappingProxyType({
            "unfused": "scores and probabilities written to HBM, soft-maxed, dropped out and read again",
            **{kernel: "fused in on-chip tiles, at its published share of the GPU's peak (training.ATTENTION_KERNELS)"
               for kernel in ATTENTION_KERNELS}}),
        "gemm_precision": MappingProxyType({
            "bf16": "weight GEMMs in BF16",
            "fp8": "weight GEMMs in FP8 at the GPU's measured FP8 rate, each operand quantized first",
        }),
        "elementwise": MappingProxyType({
            "fused": "norm and activation fused into neighbouring kernels: no HBM round trip of their own",
            "one kernel each": "each norm, rotary embedding and activation reads and writes each element once",
            "eager": "PyTorch tensor ops without torch.compile: a kernel per op, norm and rotation in FP32",
        }),
    })

    attention: str = "unfused"
    gemm_precision: str = "bf16"
    elementwise: str = "one kernel each"
    parallel_block: bool = False

    def __post_init__(self):
        _check_choices(self)
        _check_flags(self, "parallel_block")

    @property
    def fused_attention(self) -> bool:
        """Whether attention runs in on-chip tiles (any fused kernel, not ``"unfused"``)."""
        return self.attention != "unfused"


@dataclass(frozen=True, kw_only=True)
class Precision:
    """What one weight and one gradient take in memory and on the wire.

    Parameters
    ----------
    parameter_bytes : int
        Bytes per weight element used in compute and gathered by ZeRO [B].
    gradient_bytes : int
        Bytes per gradient element stored and reduced (4 for Megatron-LM's
        FP32 gradient buffer, 2 for ZeRO's 16-bit gradients) [B].
    fp32_weights : bool
        The weights stay FP32 and autocast runs the GEMMs in BF16 (PyTorch
        FSDP with no ``param_dtype``, as Composer's ``DEFAULT`` mixed precision
        set it in the PyTorch 1.13 era). Three costs follow: ZeRO gathers 4
        bytes per weight; every forward pass (and recomputation) casts each
        weight it uses to BF16 (read 4 B, write 2 B), the backward pass casts
        its BF16 weight gradient back to FP32 (read 2, write 4) and, with
        16-bit gradients, to the reduction's precision (read 4, write
        ``gradient_bytes``); and the residual stream, which starts at the FP32
        embedding, stays FP32, so each residual add and norm reads (and the
        add writes) 4-byte elements. Off: the weights are gathered and used
        in ``parameter_bytes`` (FSDP ``param_dtype`` BF16, Composer's ``PURE``).
    fp8_all_gather : bool
        ZeRO-3 gathers the weights of the FP8 linear layers as FP8, 1 byte per
        weight on the wire before the forward and the backward pass, instead of
        ``parameter_bytes`` (torchao's ``Float8LinearConfig.enable_fsdp_float8_all_gather``
        with FSDP2: each rank casts its shard to FP8 before the all-gather, and the
        gathered weight feeds the FP8 GEMM directly; ``TORCHAO_FLOAT8_ALL_GATHER``).
        Gradients are still reduced in ``gradient_bytes``. Needs FP8 weight GEMMs
        (``Kernels.gemm_precision="fp8"``) and 16-bit weights. The norms' few
        weights, gathered in ``parameter_bytes`` in the stack, are counted at 1
        byte too (under 0.1% of a layer's weights).
    """

    CHOICES: ClassVar[Mapping] = MappingProxyType({})

    parameter_bytes: int = 2
    gradient_bytes: int = 2
    fp32_weights: bool = False
    fp8_all_gather: bool = False

    def __post_init__(self):
        check_integer("Precision.parameter_bytes", self.parameter_bytes, minimum=1, maximum=8, unit="B")
        check_integer("Precision.gradient_bytes", self.gradient_bytes, minimum=1, maximum=8, unit="B")
        _check_flags(self, "fp32_weights", "fp8_all_gather")
        if self.fp8_all_gather and self.fp32_weights:
            raise ValueError("Precision.fp8_all_gather = True needs 16-bit weights, not fp32_weights = True: "
                             "torchao casts the BF16 weight shard to FP8 before FSDP2 gathers it")


@dataclass(frozen=True, kw_only=True)
class Overlap:
    """Which collectives run beside compute, and how much of each the GPU still waits for.

    Parameters
    ----------
    tensor_parallel : str
        A name in ``Overlap.CHOICES["tensor_parallel"]``. ``"none"``: every
        tensor-parallel collective is waited for. ``"backward"``: Megatron-LM's
        column-parallel linear layers since 2022: in the backward pass the
        collective on the input gradient (an all-reduce; with sequence
        parallelism a reduce-scatter, the input's re-gather running under the
        data-gradient GEMM) starts asynchronously and runs while the same
        layer's weight-gradient GEMM computes; exposed is what outlasts that
        GEMM, and the forward pass's collectives (and with sequence parallelism
        the backward's all-gather of the output gradient) stay on the critical
        path. ``"pipelined"``: every collective split into t chunks and
        pipelined with the GEMMs that produce or consume them (MegaScale,
        Megatron-Core's TP communication overlap): all but the first chunk hide
        (exposed ``max(T/t, T - t_GEMM)``).
    context_parallel : str
        How context parallelism exchanges keys and values, a name in
        ``Overlap.CHOICES["context_parallel"]`` (each priced by
        :func:`~interconnect_lab.training.terms.context_parallel_layer_s`, with
        its sources in ``training.CONTEXT_PARALLEL_SOURCES``). ``"p2p"``:
        Transformer Engine's ring (``cp_comm_type="p2p"``, Megatron-Core's
        default): c - 1 send/receive steps of the K, V chunk, each under one
        step of attention; in the backward pass the chunk and its gradient.
        ``"all_gather"``: K and V all-gathered before attention and exposed
        (Transformer Engine's ``"all_gather"``, Llama 3 §3.3.2), and dK, dV
        reduce-scattered after the backward pass. ``"a2a"``: DeepSpeed-Ulysses
        (Transformer Engine's ``"a2a"``): all-to-alls of Q, K, V before and of
        the output after attention, each exposed; needs c no larger than the
        KV heads of a tensor-parallel rank. ``"ring, all-gather rotate"`` and
        ``"ring, all-to-all rotate"``: PyTorch's ``context_parallel`` (as
        torchtitan runs it, around SDPA called with K and V repeated to every
        query head): the K, V all-gathered once under the first step of
        attention, or passed on step by step; in the backward pass the FP32
        dK, dV passed round the ring, the last hop exposed. Every one splits
        the sequence into 2c chunks, rank i holding chunks i and 2c - 1 - i
        (DualChunkSwap), so the causal mask leaves every rank the same work,
        unless ``context_parallel_load_balance`` is off.
    context_parallel_load_balance : bool
        PyTorch's ``enable_load_balance`` (on by default): the 2c chunks above.
        Off, rank i holds the i-th of c contiguous chunks and the causal mask
        gives the last rank (2c - 1)/c times the mean attention work
        (:func:`~interconnect_lab.training.terms.causal_imbalance`). Only the
        rings of PyTorch offer it off; Ulysses has no imbalance to balance.
    pipeline : str
        A name in ``Overlap.CHOICES["pipeline"]``. ``"asynchronous"``: sends and
        receives run beside compute; only the 2(p-1) transfers of warm-up and
        cool-down stay on the critical path. ``"none"``: each of the 2·v·m
        transfers of a stage waits (Megatron-LM's blocking send/receive).
    data_parallel : str
        A name in ``Overlap.CHOICES["data_parallel"]``. ``"none"``: the whole
        gradient reduction follows the backward pass as one collective over one
        contiguous buffer. ``"per layer"``: gradients are reduced (and ZeRO's
        weights gathered, ZeRO-3's prefetched) layer by layer during the
        backward pass, as FSDP wraps each block: only the last unit's share and
        anything longer than the compute stay exposed. ``"per submodule"``: as
        per layer, but ZeRO-3 gathers each weight matrix of a layer on its own
        (query-key-value, output projection, each MLP matrix), the next one
        prefetched under the current one's compute, and reduce-scatters each
        matrix's gradient (DeepSpeed ZeRO-3 of 2021: ``fetch_sub_module`` and
        ``prefetch_next_sub_modules`` per ``nn.Module``, one ``all_gather`` per
        parameter, ``_reduce_scatter_gradient`` per parameter; ``DEEPSPEED_ZERO3_2021``).
        For ZeRO stages 0-2 it reduces as ``"per layer"``. ``"buckets"``: the same,
        but ZeRO stage 0-2 reduce (and gather) in buckets of
        ``max(bucket_parameters, bucket_parameters_per_rank · d)`` parameters:
        fewer, larger collectives, so a ring over many data-parallel ranks pays
        its per-step latency fewer times, and a longer last bucket left exposed
        (Megatron-Core's default is ``max(40,000,000, 1,000,000 · d)``, "larger
        DP sizes need larger buckets to ensure collectives do not become
        latency-bound"). ZeRO-3 gathers and reduces per layer either way.
    bucket_parameters, bucket_parameters_per_rank : int
        The bucket size of ``data_parallel="buckets"`` [parameters]: at least
        one of them positive there, and both 0 otherwise.
    """

    CHOICES: ClassVar[Mapping] = MappingProxyType({
        "tensor_parallel": MappingProxyType({
            "none": "every tensor-parallel collective waited for",
            "backward": "the backward input-gradient collective under the weight-gradient GEMM (Megatron-LM 2022)",
            "pipelined": "every collective cut into t chunks pipelined with its GEMMs (MegaScale, Megatron-Core)",
        }),
        "context_parallel": MappingProxyType({
            "p2p": "K, V passed round a ring in c - 1 send/receive steps, each under a step of attention "
                   "(Transformer Engine, Megatron-Core's default)",
            "all_gather": "K, V all-gathered before attention, dK, dV reduce-scattered after, exposed "
                          "(Transformer Engine, Llama 3)",
            "a2a": "all-to-all of Q, K, V before attention and of its output after, exposed (DeepSpeed-Ulysses)",
            "ring, all-gather rotate": "K, V all-gathered under the first step of attention, FP32 dK, dV passed "
                                       "round the ring (PyTorch context_parallel, torchtitan's default)",
            "ring, all-to-all rotate": "K, V and FP32 dK, dV passed round the ring step by step "
                                       "(PyTorch context_parallel, rotate method 'alltoall')",
        }),
        "pipeline": MappingProxyType({
            "none": "every send and receive of a stage waited for (blocking)",
            "asynchronous": "sends and receives beside compute; only warm-up and cool-down wait",
        }),
        "data_parallel": MappingProxyType({
            "none": "one reduction of the whole gradient buffer after the backward pass",
            "per layer": "reduced (and gathered) layer by layer under the backward (and forward) pass",
            "per submodule": "as per layer, ZeRO-3 gathering and reducing each weight matrix apart (DeepSpeed 2021)",
            "buckets": "as per layer, in buckets of max(bucket_parameters, bucket_parameters_per_rank x d)",
        }),
    })

    tensor_parallel: str = "none"
    context_parallel: str = "p2p"
    context_parallel_load_balance: bool = True
    pipeline: str = "none"
    data_parallel: str = "none"
    bucket_parameters: int = 0
    bucket_parameters_per_rank: int = 0

    def __post_init__(self):
        _check_choices(self)
        _check_flags(self, "context_parallel_load_balance")
        if not self.context_parallel_load_balance and not self.context_parallel.startswith("ring"):
            raise ValueError(f"Overlap.context_parallel_load_balance = False needs one of PyTorch's rings "
                             f"(context_parallel 'ring, all-gather rotate' or 'ring, all-to-all rotate'), not "
                             f"{self.context_parallel!r}: Transformer Engine always balances its chunks and "
                             f"Ulysses has no causal imbalance; set it True or choose a ring")
        for field in ("bucket_parameters", "bucket_parameters_per_rank"):
            check_integer(f"Overlap.{field}", getattr(self, field), minimum=0, maximum=10**12, unit="parameters")
        bucketed = self.bucket_parameters > 0 or self.bucket_parameters_per_rank > 0
        if self.data_parallel == "buckets" and not bucketed:
            raise ValueError("Overlap.data_parallel = 'buckets' needs a bucket size: set bucket_parameters or "
                             "bucket_parameters_per_rank above 0 (or choose data_parallel='per layer')")
        if self.data_parallel != "buckets" and bucketed:
            raise ValueError(f"Overlap.bucket_parameters = {self.bucket_parameters} and bucket_parameters_per_rank "
                             f"= {self.bucket_parameters_per_rank} apply to data_parallel='buckets' only, not "
                             f"{self.data_parallel!r}: set them to 0 or choose data_parallel='buckets'")


@dataclass(frozen=True, kw_only=True)
class Optimizer:
    """How the optimizer step runs: the Adam update's kernels and the gradient clipping before it.

    Parameters
    ----------
    update : str
        A name in ``Optimizer.CHOICES["update"]``. ``"fused"``: one kernel
        (apex's FusedAdam in Megatron-LM, DeepSpeed's) reads and writes each
        FP32 weight and moment once (``Efficiencies.optimizer_bytes_per_parameter``).
        ``"op by op"``: PyTorch's default AdamW (``foreach``, as torchtitan and
        IBM's fms-fsdp run it) or Composer's DecoupledAdamW (llm-foundry), a
        kernel per op over every tensor: ``training.EAGER_ADAMW_BYTES`` per
        parameter, nearly three times as much. It matters where each GPU
        updates a large share of the model: replicas (DDP) and hybrid sharding.
    clipping : str
        A name in ``Optimizer.CHOICES["clipping"]``. ``"every step"``: every
        gradient is multiplied by the clamped coefficient on every step,
        clipping or not (PyTorch's ``clip_grad_norm_``, which FSDP, Composer
        and torchtitan call; DeepSpeed's unscale-and-clip):
        ``training.GRADIENT_CLIP_BYTES`` per updated parameter.
        ``"over threshold"``: only when the norm exceeds the threshold
        (Megatron-LM), which a steady step does not count: the norm's read
        alone, ``training.GRADIENT_NORM_BYTES``.
    """

    CHOICES: ClassVar[Mapping] = MappingProxyType({
        "update": MappingProxyType({
            "fused": "one fused Adam kernel: each FP32 weight and moment read and written once",
            "op by op": "a kernel per op over every tensor (PyTorch's default AdamW, Composer's DecoupledAdamW)",
        }),
        "clipping": MappingProxyType({
            "every step": "the gradients scaled by the clamped coefficient on every step (PyTorch, DeepSpeed)",
            "over threshold": "scaled only when the norm exceeds the threshold (Megatron-LM): the norm alone",
        }),
    })

    update: str = "fused"
    clipping: str = "every step"

    def __post_init__(self):
        _check_choices(self)


@dataclass(frozen=True, kw_only=True)
class ZeroPlusPlus:
    """ZeRO++'s three techniques for ZeRO-3 (Wang et al. 2023), each on or off.

    Parameters
    ----------
    quantized_weights : bool
        qwZ: the forward all-gather of the weights in INT8.
    hierarchical_partition : bool
        hpZ: a secondary weight partition inside each node, so the backward
        all-gather stays on NVLink.
    quantized_gradients : bool
        qgZ: the gradient reduce-scatter in INT4.
    """

    CHOICES: ClassVar[Mapping] = MappingProxyType({})

    quantized_weights: bool = False
    hierarchical_partition: bool = False
    quantized_gradients: bool = False

    def __post_init__(self):
        _check_flags(self, "quantized_weights", "hierarchical_partition", "quantized_gradients")


#: The records of a :class:`Software`, by field.
_RECORDS = {"kernels": Kernels, "precision": Precision, "overlap": Overlap, "optimizer": Optimizer,
            "zero_plus_plus": ZeroPlusPlus}

#: The fields of the flat ``Software`` of before, and where each choice lives now.
_MOVED_FIELDS = {
    "flash_attention": "kernels=Kernels(attention=...): 'unfused' or a fused kernel",
    "attention_kernel": "kernels=Kernels(attention=...)",
    "gemm_precision": "kernels=Kernels(gemm_precision=...)",
    "fused_norm_activation": "kernels=Kernels(elementwise='fused')",
    "eager_elementwise": "kernels=Kernels(elementwise='eager')",
    "parallel_block": "kernels=Kernels(parallel_block=...)",
    "tensor_parallel_overlap": "overlap=Overlap(tensor_parallel='pipelined')",
    "tensor_parallel_backward_overlap": "overlap=Overlap(tensor_parallel='backward')",
    "context_parallel_overlap": "overlap=Overlap(context_parallel=...)",
    "pipeline_parallel_overlap": "overlap=Overlap(pipeline='asynchronous')",
    "data_parallel_overlap": "overlap=Overlap(data_parallel='per layer' or 'buckets')",
    "bucket_parameters": "overlap=Overlap(data_parallel='buckets', bucket_parameters=...)",
    "bucket_parameters_per_rank": "overlap=Overlap(data_parallel='buckets', bucket_parameters_per_rank=...)",
    "parameter_bytes": "precision=Precision(parameter_bytes=...)",
    "gradient_bytes": "precision=Precision(gradient_bytes=...)",
    "fp32_weights": "precision=Precision(fp32_weights=...)",
    "fused_optimizer": "optimizer=Optimizer(update='fused' or 'op by op')",
    "clip_every_step": "optimizer=Optimizer(clipping='every step' or 'over threshold')",
    "recompute_early_stop": "checkpoint='early stop'",
    "quantized_weights": "zero_plus_plus=ZeroPlusPlus(quantized_weights=...)",
    "hierarchical_partition": "zero_plus_plus=ZeroPlusPlus(hierarchical_partition=...)",
    "quantized_gradients": "zero_plus_plus=ZeroPlusPlus(quantized_gradients=...)",
}


@dataclass(frozen=True, kw_only=True)
class Software:
    """A training stack: its kernels, precision, overlap, optimizer and checkpointing, as named choices.

    Every field is a physical statement about what runs, at what cost, and
    what runs at the same time; changing them one by one replays MegaScale's
    ablation (:func:`~interconnect_lab.training.megascale_ablation`). See the
    module docstring for the layout.

    Parameters
    ----------
    name : str
        Label.
    kernels : Kernels
        Attention, the weight GEMMs' precision, the element-wise ops, the block shape.
    precision : Precision
        Bytes of a weight and a gradient; FP32 weights under autocast.
    overlap : Overlap
        What the tensor-, context-, pipeline- and data-parallel collectives hide behind.
    optimizer : Optimizer
        The Adam update and the gradient clipping.
    zero_plus_plus : ZeroPlusPlus
        ZeRO++'s techniques, for ZeRO-3.
    checkpoint : str
        The activation-checkpoint implementation, a name in
        ``Software.CHOICES["checkpoint"]``. ``"whole block"``: the whole forward
        pass of a checkpointed block is rerun, as Megatron-LM's own
        checkpointing (and PyTorch's before 2.1) does. ``"early stop"``:
        PyTorch's non-reentrant checkpoint (PyTorch 2.1 and later, as
        torchtitan and IBM's fms-fsdp wrap their blocks), which stops
        recomputing a block as soon as it has rebuilt every tensor the
        backward pass needs (``PYTORCH_CHECKPOINT_EARLY_STOP``): the block's
        last GEMM, the MLP's output projection, saves only its input, so it and
        the collective after it are not run again. Applies to the policies that
        checkpoint whole blocks ("full", "every other layer").
    scatter_gather : bool
        SC21 §4.1: each tensor-parallel rank sends 1/t of a stage boundary's
        activations over the network and the receivers all-gather over NVLink.
        Off: each rank sends the whole boundary (with sequence parallelism the
        activations are already split, and 1/t is sent either way).
    sources : tuple of Source
        Where the stack is described.
    """

    CHOICES: ClassVar[Mapping] = MappingProxyType({
        "checkpoint": MappingProxyType({
            "whole block": "a checkpointed block's whole forward pass rerun (Megatron-LM, PyTorch before 2.1)",
            "early stop": "rerun until every tensor the backward pass needs is back (PyTorch 2.1+ non-reentrant)",
        }),
    })

    name: str
    kernels: Kernels = Kernels()
    precision: Precision = Precision()
    overlap: Overlap = Overlap()
    optimizer: Optimizer = Optimizer()
    zero_plus_plus: ZeroPlusPlus = ZeroPlusPlus()
    checkpoint: str = "whole block"
    scatter_gather: bool = True
    sources: tuple[Source, ...] = ()

    def __new__(cls, *args, **fields):
        moved = [name for name in fields if name in _MOVED_FIELDS]
        if moved:
            raise TypeError("Software has no field " + "; no field ".join(
                f"{name!r}: use {_MOVED_FIELDS[name]}" for name in moved))
        return super().__new__(cls)

    def __post_init__(self):
        for field, record in _RECORDS.items():
            value = getattr(self, field)
            if not isinstance(value, record):
                raise TypeError(f"Software.{field} must be a training.{record.__name__} "
                                f"(e.g. training.{record.__name__}()), got {value!r}; a dict of changes "
                                f"to a stack's {field} goes to Software.replace")
        _check_choices(self)
        _check_flags(self, "scatter_gather")
        if self.precision.fp8_all_gather and self.kernels.gemm_precision != "fp8":
            raise ValueError(f"Software {self.name!r}: Precision.fp8_all_gather = True needs FP8 linear layers, "
                             f"Kernels.gemm_precision = 'fp8', not {self.kernels.gemm_precision!r}")
        if self.precision.fp8_all_gather and self.zero_plus_plus.quantized_weights:
            raise ValueError(f"Software {self.name!r}: Precision.fp8_all_gather (FSDP2 with torchao) and "
                             f"ZeroPlusPlus.quantized_weights (DeepSpeed's qwZ) both gather 1-byte weights: "
                             f"choose one")
        if isinstance(self.sources, Source):
            object.__setattr__(self, "sources", (self.sources,))

    def replace(self, **changes) -> "Software":
        """A variant of this stack: :func:`dataclasses.replace`, where a record may be given as a dict of its changes.

        Parameters
        ----------
        **changes
            New field values; for a record field (``kernels``, ``precision``,
            ``overlap``, ``optimizer``, ``zero_plus_plus``) either a whole
            record or a dict of the fields of it to change.

        Returns
        -------
        Software

        Examples
        --------
        >>> from interconnect_lab import training
        >>> fsdp = training.software("PyTorch FSDP")
        >>> compiled = fsdp.replace(name="compiled", kernels={"elementwise": "one kernel each"})
        >>> compiled.kernels.elementwise, compiled.kernels.attention == fsdp.kernels.attention
        ('one kernel each', True)
        """
        for field, change in changes.items():
            if field in _RECORDS and isinstance(change, Mapping):
                changes[field] = dataclasses.replace(getattr(self, field), **change)
        return dataclasses.replace(self, **changes)
