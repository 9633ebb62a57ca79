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
   (from :data:`SOFTWARE`; see below) go into
   :func:`training_step`, which returns a :class:`TrainingStep`: where the
   time goes, step time, tokens/s, FLOP/s per GPU, MFU, HFU, memory per GPU
   and the days to train on T tokens (SC21 Eq. 4).
3. :func:`parallel_sweep` evaluates every valid (TP, PP, DP, microbatch) split
   of N GPUs at once, vectorised, so a widget can search the space.

A :class:`Software` stack is a few small records, one per mechanism, each a
field or two of named choices (``interconnect_lab.training.stack``):
:class:`Kernels` (attention kernel, GEMM precision, element-wise execution,
parallel block), :class:`Precision` (bytes of a weight and a gradient, FP32
weights under autocast), :class:`Overlap` (tensor-, context-, pipeline- and
data-parallel overlap, with the data-parallel buckets), :class:`Optimizer`
(fused or op by op; clipping every step or over the threshold) and
:class:`ZeroPlusPlus`, beside the checkpoint implementation and SC21's
scatter/gather. Each enumerated field takes a name from its record's
``CHOICES`` table; :meth:`Software.replace` makes a variant.

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

times 1 (forward) + 2 (backward) + the recomputation pass; FlashAttention's
backward pass recomputes the attention scores, so its attention core costs
``training.FLASH_ATTENTION_BACKWARD_FLOPS`` forward passes instead of 2. Small hidden sizes
and materialised attention scores make the second term matter; large models
are GEMM-bound. The slowest stage (the last, which also computes the logits)
sets the pace:

.. math::

    t_\\text{step} = m\\, t_\\text{stage} + \\frac{p-1}{v} t_\\text{stage}
        + t_\\text{TP} + t_\\text{PP} + t_\\text{DP} + t_\\text{optimizer}

with :math:`m` microbatches, :math:`p` stages, :math:`v` model chunks per stage
(SC21 §2.2: bubble :math:`(p-1)/(vm)` of the ideal time) and only the *exposed*
part of each communication counted. The hidden part is not free either: what a
hidden collective receives passes through HBM at least twice
(:data:`interconnect_lab.collectives.HBM_BYTES_PER_RECEIVED_BYTE`, NCCL's
maintainers), and that memory time is added to the compute it overlaps; on
request (``Efficiencies.nccl_bus_bytes_per_s_per_sm``) so are the SMs its NCCL
kernels hold. Recomputation reruns what the policy names, less each block's
MLP output projection where PyTorch's checkpoint stops early
(``Software.checkpoint``). The optimizer updates each GPU's share
of the weights (all of them without ZeRO, a shard group's share with hybrid
sharding) in one fused kernel or op by op (``Optimizer.update``),
after clipping the gradients to a global norm (``Optimizer.clipping``).
A stack that keeps FP32 weights under autocast (``Precision.fp32_weights``)
also pays autocast's casts of every weight and weight gradient in HBM time,
gathers 4 bytes per weight, and carries an FP32 residual stream.
Communication times come from :mod:`interconnect_lab.collectives` over the
link each group actually uses.
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

from . import models, presets
from .models import (  # noqa: F401
    RECOMPUTATION, Recomputation, TransformerModel, parameter_count, flops_per_token, training_flops,
    training_time_s,
)
from .hardware import ZERO, ZERO_PLUS_PLUS, Cluster, Efficiencies
from .stack import CONTEXT_PARALLEL_SOURCES, Kernels, Optimizer, Overlap, Precision, Software, ZeroPlusPlus
from .presets import (  # noqa: F401
    GPT3, LLAMA2, transformer_model, cluster, software, system_cluster, scale_out_variants,
)
from .config import ParallelConfig, parallel_config
from .schedules import pipeline_bubble_fraction, PipelineSchedule, pipeline_schedule
from .models import KORTHIKANTI  # noqa: F401
from .hardware import (
    SUSTAINED_REFERENCE_GPU, matmul_fraction_of_peak, sustained_matmul_rate, NCCL_BUS_BYTES_PER_S_PER_SM,
    NCCL_SM_SOURCE,
)
from .step import MemoryBreakdown, TrainingStep, training_step, memory_per_gpu
from .tensor_parallel import TensorParallelLayer, tensor_parallel_layer, tensor_parallel_scan
from .sweeps import NetworkScan, network_scan, TrainingSweep, parallel_sweep, megascale_ablation
from .traffic import ParallelTraffic, parallel_traffic
from .zero import ZeroVolume, zero_communication_volume, GradientCompression, gradient_compression
from .hardware import (ATTENTION_BENCHMARK_LENGTHS, ATTENTION_KERNEL_SOURCES, ATTENTION_KERNELS, FLASH_ATTENTION_BACKWARD_FLOPS,
                       FLASH_ATTENTION_BACKWARD_SOURCE, AttentionShare, attention_share, EAGER_RMSNORM_BYTES,
                       EAGER_ROTARY_BYTES, EAGER_GATED_ACTIVATION_BYTES, EAGER_ELEMENTWISE_SOURCES,
                       EAGER_ADAMW_BYTES, EAGER_OPTIMIZER_SOURCES, GRADIENT_NORM_BYTES, GRADIENT_CLIP_BYTES,
                       GRADIENT_CLIP_SOURCES)
from .fidelity import FidelityRow, replay, fidelity_table, fidelity_summary, fidelity_by_family

#: FLOP-counting conventions by name: each is ``function(model, recompute) -> FLOP per token``.
FLOP_CONVENTIONS = models.FLOP_CONVENTIONS

#: Published architectures, by name. GPT-3-style and Llama-style side by side.
MODELS = presets.MODELS

#: Published clusters, by name, built from catalog parts.
CLUSTERS = presets.CLUSTERS

#: Training stacks by name: the kernels, precision, overlap, optimizer and checkpointing each one runs.
SOFTWARE = presets.SOFTWARE

#: The one set of defaults every published case is computed with.
DEFAULT_EFFICIENCIES = presets.DEFAULT_EFFICIENCIES

#: Microbatch for MegaScale's 175B runs, which the paper does not state [sequences]:
#: the largest for which every run of Table 2 satisfies the interleaved schedule's
#: rule that the microbatch count be a multiple of the pipeline depth.
MEGASCALE_MICROBATCH_SIZE = presets.MEGASCALE_MICROBATCH_SIZE

#: MegaScale's "efficient operators" (§3.4) as changes to a stack: FlashAttention-2 in place of
#: the first FlashAttention, and LayerNorm and GeLU fused into neighbouring kernels.
EFFICIENT_OPERATORS = presets.EFFICIENT_OPERATORS

__all__ = [
    # model descriptions
    "TransformerModel", "MODELS", "matmul_fraction_of_peak", "sustained_matmul_rate", "SUSTAINED_REFERENCE_GPU", "transformer_model",
    "parameter_count", "flops_per_token", "FLOP_CONVENTIONS", "training_flops", "RECOMPUTATION", "Recomputation",
    # hardware and software
    "Cluster", "CLUSTERS", "cluster", "Software", "Kernels", "Precision", "Overlap", "Optimizer", "ZeroPlusPlus",
    "SOFTWARE", "software", "CONTEXT_PARALLEL_SOURCES",
    "Efficiencies", "DEFAULT_EFFICIENCIES", "ATTENTION_KERNELS", "ATTENTION_KERNEL_SOURCES",
    "AttentionShare", "attention_share", "ATTENTION_BENCHMARK_LENGTHS",
    "FLASH_ATTENTION_BACKWARD_FLOPS",
    "FLASH_ATTENTION_BACKWARD_SOURCE",
    "EAGER_RMSNORM_BYTES", "EAGER_ROTARY_BYTES", "EAGER_GATED_ACTIVATION_BYTES", "EAGER_ELEMENTWISE_SOURCES",
    "EAGER_ADAMW_BYTES", "EAGER_OPTIMIZER_SOURCES", "GRADIENT_NORM_BYTES", "GRADIENT_CLIP_BYTES", "GRADIENT_CLIP_SOURCES",
    "NCCL_BUS_BYTES_PER_S_PER_SM", "NCCL_SM_SOURCE",
    # configuration and results
    "ParallelConfig", "parallel_config", "MemoryBreakdown", "memory_per_gpu",
    "TrainingStep", "training_step", "pipeline_bubble_fraction", "PipelineSchedule", "pipeline_schedule",
    "ParallelTraffic", "parallel_traffic",
    "system_cluster", "scale_out_variants", "NetworkScan", "network_scan", "TensorParallelLayer", "tensor_parallel_layer", "tensor_parallel_scan",
    "training_time_s", "TrainingSweep", "parallel_sweep",
    # communication volumes
    "ZeroVolume", "zero_communication_volume", "GradientCompression", "gradient_compression",
    # replaying published runs
    "megascale_ablation", "MEGASCALE_MICROBATCH_SIZE", "EFFICIENT_OPERATORS",
    "FidelityRow", "replay", "fidelity_table", "fidelity_summary", "fidelity_by_family",
]
