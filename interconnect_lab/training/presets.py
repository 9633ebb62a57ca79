"""Named models, clusters and training stacks, and the defaults every published case uses."""

from __future__ import annotations

import dataclasses
from types import MappingProxyType

from .. import catalog
from .._deprecation import renamed_parameters
from .._lookup import resolve
from .._validation import check_integer
from ..sources import LLAMA3, MEGASCALE, SC21, TORCHTITAN_H100_BENCHMARK, Source

PYTORCH_FSDP = Source(
    title="Y. Zhao et al., PyTorch FSDP: Experiences on Scaling Fully Sharded Data Parallel",
    year=2023, url="https://arxiv.org/abs/2304.11277")
TORCHTITAN_JOB_CONFIG = Source(
    title="torchtitan: torchtitan/config/job_config.py", year=2025,
    url="https://github.com/pytorch/torchtitan/blob/6404b932421f5ce382e7dac5ad381b2c17b1373c/"
        "torchtitan/config/job_config.py",
    locator="class Training: mixed_precision_param, mixed_precision_reduce",
    note="FSDP2 (fully_shard) keeps BF16 parameters for compute (mixed_precision_param 'bfloat16') and "
         "reduces gradients in FP32 (mixed_precision_reduce 'float32'); attention through PyTorch's SDPA")
COMPOSER_FSDP = Source(
    title="MosaicML, Composer: prepare_fsdp_module (composer/trainer/dist_strategy.py)", year=2023,
    url="https://github.com/mosaicml/composer/blob/029483a4dc79dae46d5e78906a6a694f0c228dd3/composer/trainer/dist_strategy.py",
    note="mixed_precision 'DEFAULT' (the default): no param_dtype, so the weights stay FP32 (PyTorch 1.13 "
         "FSDP refused FP32 as param_dtype), reduce_dtype the autocast precision, FP32 buffers; 'PURE': "
         "parameters, reduction and buffers in the autocast precision")
LLM_FOUNDRY_BENCHMARK_SCRIPT = Source(
    title="MosaicML, llm-foundry: scripts/train/benchmarking/submit_benchmarks.py", year=2023,
    url="https://github.com/mosaicml/llm-foundry/blob/12a631913c786ac70e33e42047d2eae6f443ee69/scripts/train/benchmarking/submit_benchmarks.py",
    note="the benchmark runs' settings: attn_impl 'triton' (the MPT yamls' too), FULL_SHARD, "
         "limit_all_gathers, low-precision LayerNorm, the FSDP mixed precision as given")
PYTORCH_AMP = Source(
    title="PyTorch documentation, Automatic Mixed Precision package (torch.amp)", year=2023,
    url="https://pytorch.org/docs/stable/amp.html",
    note="under autocast, linear layers and matmuls cast their inputs to the lower precision at each call; "
         "ops not listed (additions) run in the widest input type")
SC21_TABLE1_SCRIPT = Source(
    title="NVIDIA, Megatron-LM: examples/sc21/run_table_1.sh (the settings of SC21 Table 1)", year=2021,
    url="https://github.com/NVIDIA/Megatron-LM/blob/79a3bb6bf2c85b748c46749dd0695e23310d4e16/examples/sc21/run_table_1.sh",
    note="DDP=torch (PyTorch DistributedDataParallel) for the 1.7B to 18B rows, DDP=local (Megatron-LM's own, "
         "one all-reduce after the backward pass) from 39B up")
PYTORCH_DDP = Source(
    title="S. Li et al., PyTorch Distributed: Experiences on Accelerating Data Parallel Training, VLDB 2020",
    year=2020, url="https://arxiv.org/abs/2006.15704", locator="§3.2.3",
    note="gradients bucketed and each bucket all-reduced as soon as its gradients are ready, during the backward pass")
MEGATRON_LM_2022_LAYERS = Source(
    title="NVIDIA, Megatron-LM: megatron/mpu/layers.py (ColumnParallelLinearWithAsyncAllreduce, "
          "ColumnParallelLinearWithSequenceParallelism)", year=2022,
    url="https://github.com/NVIDIA/Megatron-LM/blob/02bb1f5c86fc8c36d4a96a2b7ebcf63d53219369/megatron/mpu/layers.py",
    note="backward of a column-parallel linear: the input gradient's all-reduce (with sequence parallelism its "
         "reduce-scatter) is started asynchronously before the weight-gradient GEMM and waited for after it; with "
         "sequence parallelism the input's all-gather runs under the data-gradient GEMM; on unless "
         "--no-async-tensor-model-parallel-allreduce")
MEGATRON_CORE_DDP = Source(
    title="NVIDIA, Megatron-LM: megatron/core/distributed/distributed_data_parallel.py (DistributedDataParallel)",
    year=2024,
    url="https://github.com/NVIDIA/Megatron-LM/blob/001199898c4badd01eaf0785c212d8ed7ce83042/"
        "megatron/core/distributed/distributed_data_parallel.py",
    note="default bucket_size max(40000000, 1000000 * data-parallel size) parameters, 'to ensure that chunks used "
         "in NCCL ring-reduce implementations are large enough to remain bandwidth-bound rather than "
         "latency-bound'; one bucket when overlap_grad_reduce is off")
FLASH_ATTENTION_TRAINING = Source(
    title="Dao-AILab, flash-attention: training/ (README and configs/experiment/pile)", year=2023,
    url="https://github.com/Dao-AILab/flash-attention/tree/0b037c2d96abecc4dca3320b6f50542d94d14d02/training",
    note="GPT models with FlashAttention, fused matmul + bias (+ GELU) and fused dropout + residual + LayerNorm, "
         "no activation checkpointing; PyTorch Lightning, trainer.precision bf16 (autocast over FP32 weights), "
         "DDP with a ZeRO-1 optimizer (DDPStrategyZero1) for the 1.3B and 2.7B models")
FLASH_ATTENTION_OPTIMIZER = Source(
    title="Dao-AILab, flash-attention: training/configs/optimizer/adamw-zero.yaml", year=2023,
    url="https://github.com/Dao-AILab/flash-attention/blob/edc7698f7f7af8371106fe6a50cf6938e6d95717/training/configs/optimizer/adamw-zero.yaml",
    note="torch.distributed.optim.ZeroRedundancyOptimizer over torch.optim.AdamW (op by op), the optimizer "
         "configs/experiment/pile/gpt3xl-flash.yaml selects for GPT3-XL (1.3B) and gpt3-2.7B-flash.yaml inherits")
DEEPSPEED_PIPELINE_2021 = Source(
    title="Microsoft, DeepSpeed: deepspeed/runtime/pipe/ (schedule.py, p2p.py, engine.py) and runtime/utils.py",
    year=2021, url="https://github.com/microsoft/DeepSpeed/tree/e2fdd254edff5780d00c04111572c913ee698719/deepspeed/runtime",
    locator="commit e2fdd254e (2021-09-29, 'Big science related changes'): schedule.py TrainSchedule, "
            "p2p.py send/recv, pipe/engine.py is_pipe_partitioned and _exec_reduce_grads, utils.py PartitionedTensor",
    note="TrainSchedule is plain 1F1B (2(m + p - 1) steps, no interleaved stages) and appends ReduceGrads and "
         "OptimizerStep only at the last step, after the pipeline flush; p2p send and recv assert async_op == "
         "False (dist.send/recv, or broadcast on a 2-rank group before torch 1.8); with tensor parallelism "
         "(is_pipe_partitioned = is_model_parallel) each rank sends 1/t of a stage's output and of the gradient "
         "sent back (PartitionedTensor) and the receiver all-gathers it over the tensor-parallel group (full()); "
         "FP16: the optimizer unscales (and clips) every gradient on every step (fp16/fused_optimizer.py "
         "unscale_and_clip_grads), gradients reduced in FP16 (allreduce_gradients)")
DEEPSPEED_BF16_PIPELINE = Source(
    title="Microsoft, DeepSpeed: bf16+pipeline parallelism (#1801): runtime/bf16_optimizer.py, runtime/pipe/engine.py",
    year=2022, url="https://github.com/microsoft/DeepSpeed/blob/56c522386d7f8e2aff2eac1e5ff8f8b6bfc75c60/deepspeed/runtime/bf16_optimizer.py",
    locator="commit 56c522386 (2022-04-19): BF16_Optimizer.step, get_grads_for_reduction; "
            "PipelineEngine._bf16_reduce_grads; utils.py clip_tensors_by_global_norm",
    note="BF16 with the pipeline engine (BigScience's BLOOM branch, merged): gradients accumulated in FP32 and "
         "all-reduced in FP32 after the pipeline flush (buffered_allreduce_fallback over the optimizer's FP32 "
         "gradients); each rank updates its partition and the BF16 weights are all-gathered "
         "(all_gather_dp_groups); gradients scaled only when the norm exceeds clip_grad (if clip_coef < 1)")
DEEPSPEED_ZERO3_2021 = Source(
    title="Microsoft, DeepSpeed: deepspeed/runtime/zero/stage3.py, partition_parameters.py, constants.py",
    year=2021, url="https://github.com/microsoft/DeepSpeed/tree/adac058ac0f6422eed24042f280db93a6841da59/deepspeed/runtime/zero",
    locator="commit adac058ac (2021-04-14): stage3.py pre_sub_module_forward_function, fetch_sub_module, "
            "prefetch_next_sub_modules, unscale_and_clip_grads; partition_parameters.py _allgather_param, "
            "_reduce_scatter_gradient; constants.py defaults",
    note="ZeRO-3 as DeepSpeed ran it in 2021: before each nn.Module runs, its own parameters are gathered "
         "(one torch.distributed.all_gather per parameter, after a torch.cuda.synchronize()) and waited for, then "
         "the next module's parameters prefetched (up to stage3_prefetch_bucket_size = 5e7 elements, at least one "
         "parameter); parameters under stage3_param_persistence_threshold = 1e5 elements stay whole; gradients "
         "reduce-scattered parameter by parameter in their FP16 dtype, flushed in buckets of reduce_bucket_size = "
         "5e8 elements on a reduction stream (overlap_comm on for stage 3); FP16 gradients unscaled every step")
TORCHAO_FLOAT8_ALL_GATHER = Source(
    title="PyTorch, torchao: torchao/float8/config.py (Float8LinearConfig.enable_fsdp_float8_all_gather)", year=2024,
    url="https://github.com/pytorch/ao/blob/c6c388b53dd1734bb2ce96b16f2680a3cb68feaa/torchao/float8/config.py",
    note="'If True, then uses a tensor subclass for the float8 linear module's weight that implements "
         "pre/post-all-gather methods to do float8 all-gather with FSDP2'; tensorwise scaling only; FSDP2 gathers "
         "the FP8 shards as uint8 (torch/distributed/_composable/fsdp/_fsdp_collectives.py): 1 byte per weight")
METASEQ_OPT = Source(
    title="S. Zhang et al., OPT: Open Pre-trained Transformer Language Models", year=2022,
    url="https://arxiv.org/abs/2205.01068", locator="§2.4",
    note="'Fully Sharded Data Parallel (Artetxe et al., 2021) with Megatron-LM Tensor Parallelism'; "
         "'the model weights remained in FP16', Adam state FP32 sharded across all hosts, dynamic loss scaling")
FAIRSCALE_FSDP = Source(
    title="fairseq: examples/fully_sharded_data_parallel/README.md (FairScale FSDP in fairseq/metaseq)", year=2021,
    url="https://github.com/facebookresearch/fairseq/blob/c98c35da6b9193ed845465f49762252dd9932498/"
        "examples/fully_sharded_data_parallel/README.md",
    note="'FSDP shards parameters (FP16 + FP32) and optimizer state across data parallel GPUs'; 'the "
         "communication can be overlapped with the forward pass'; --fp16, --checkpoint-activations work as "
         "normal. Each FSDP unit gathered before its forward and backward pass, its gradients "
         "reduce-scattered, the next unit prefetched: FairScale's fully_sharded_data_parallel.py as secondary "
         "descriptions give it (its source not read)")
MEGATRON_CORE = Source(
    title="NVIDIA, Megatron-LM and Megatron-Core (repository README)", year=2024,
    url="https://github.com/NVIDIA/Megatron-LM")
from .config import ParallelConfig
from .models import TransformerModel
from .hardware import (EAGER_ELEMENTWISE_SOURCES, EAGER_OPTIMIZER_SOURCES, MEGATRON_CLIP_GRADS, MPT_PRETRAIN_YAML,
                       TORCHTITAN_OPTIMIZER, PYTORCH_CHECKPOINT_EARLY_STOP, Cluster, Efficiencies, ZERO,
                       ZERO_PLUS_PLUS)
from .stack import CONTEXT_PARALLEL_SOURCES, Kernels, Optimizer, Overlap, Precision, Software, ZeroPlusPlus


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


def transformer_model(name: str) -> TransformerModel:
    """The published model called ``name`` (see :data:`MODELS`); an unknown name lists the valid ones.

    Parameters
    ----------
    name : str
        A key of :data:`MODELS` (an unknown name lists the valid ones);
        a TransformerModel itself is returned as it is.
    """
    return resolve("model", name, TransformerModel, MODELS)


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
    """The published cluster called ``name`` (see :data:`CLUSTERS`).

    Parameters
    ----------
    name : str
        A key of :data:`CLUSTERS` (an unknown name lists the valid ones);
        a Cluster itself is returned as it is.
    """
    return resolve("cluster", name, Cluster, CLUSTERS)

#: MegaScale's "efficient operators" (§3.4) as changes to a stack's kernels (for
#: :meth:`Software.replace`): FlashAttention-2 in place of the first FlashAttention, and LayerNorm
#: and GeLU fused into neighbouring kernels.
EFFICIENT_OPERATORS = MappingProxyType({"kernels": MappingProxyType({"attention": "FlashAttention-2",
                                                                     "elementwise": "fused"})})


#: Megatron-LM's clipping, which scales the gradients only over the threshold (``MEGATRON_CLIP_GRADS``).
_MEGATRON_CLIPPING = Optimizer(clipping="over threshold")


def _megatron_lm_stacks():
    """Megatron-LM as SC21, Korthikanti et al. and MegaScale ran it, and MegaScale's own stack."""
    sc21 = Software(
        name="Megatron-LM SC21", scatter_gather=True, precision=Precision(gradient_bytes=2),
        optimizer=_MEGATRON_CLIPPING,
        sources=(SC21.at("§4", note="fused kernels, scatter/gather, no overlap; FP16 gradients all-reduced"),
                 MEGATRON_CLIP_GRADS))
    # SC21's four smallest rows ran PyTorch's DistributedDataParallel, which all-reduces
    # gradient buckets during the backward pass; the rest Megatron-LM's own, after it.
    sc21_torch_ddp = sc21.replace(
        name="Megatron-LM SC21, torch DDP", overlap={"data_parallel": "per layer"},
        sources=sc21.sources + (SC21_TABLE1_SCRIPT.at("DDP=torch"), PYTORCH_DDP))
    # The Megatron-LM that Korthikanti et al. measured (2022): SC21's stack, and the backward
    # collectives of the column-parallel layers run under their weight-gradient GEMMs.
    megatron_2022 = sc21.replace(
        name="Megatron-LM 2022", overlap={"tensor_parallel": "backward"},
        sources=sc21.sources + (MEGATRON_LM_2022_LAYERS,))
    # MegaScale's baseline keeps every tensor-parallel collective exposed: its Table 3 credits
    # overlapping them with 2.2 MFU points, more than the model would leave to gain had the
    # baseline already run its backward collectives asynchronously (Megatron-LM's default
    # since 2022; MegaScale names no version or flags).
    megatron = Software(
        name="Megatron-LM 2023", kernels=Kernels(attention="FlashAttention-1"), scatter_gather=True,
        precision=Precision(gradient_bytes=4), optimizer=_MEGATRON_CLIPPING,
        sources=(MEGASCALE.at("§3, §3.4, §6.1", note=(
            "the Megatron-LM baseline of Tables 2 and 3; FlashAttention-2 is one of the efficient operators "
            "MegaScale added (§3.4), so the baseline runs the first FlashAttention")), MEGATRON_CLIP_GRADS))
    megascale = megatron.replace(
        name="MegaScale", kernels={"attention": "FlashAttention-2", "elementwise": "fused", "parallel_block": True},
        overlap={"tensor_parallel": "pipelined", "pipeline": "asynchronous", "data_parallel": "per layer"},
        sources=(MEGASCALE.at("§3", note="parallel block, TP/PP/DP overlap, efficient operators "
                                         "(FlashAttention-2, fused LayerNorm and GeLU)"),))
    return sc21, sc21_torch_ddp, megatron_2022, megatron, megascale


def _deepspeed_stacks():
    """DeepSpeed's ZeRO-3 (2021 and today), ZeRO++, and its pipeline engine under Megatron-DeepSpeed."""
    deepspeed = Software(
        name="DeepSpeed ZeRO-3", kernels=Kernels(attention="FlashAttention-2"),
        overlap=Overlap(data_parallel="per layer", context_parallel="a2a"), precision=Precision(gradient_bytes=2),
        scatter_gather=False, sources=(ZERO,) + CONTEXT_PARALLEL_SOURCES["a2a"][-1:])
    zero_pp = deepspeed.replace(
        name="DeepSpeed ZeRO++", zero_plus_plus=ZeroPlusPlus(quantized_weights=True, hierarchical_partition=True,
                                                             quantized_gradients=True), sources=(ZERO_PLUS_PLUS,))
    # ZeRO-3 as SC21 Table 2 compared it (2021): each weight matrix gathered on its own before
    # its module runs, the next one prefetched; FP16 gradients reduce-scattered matrix by matrix
    # and unscaled every step; no fused attention yet.
    zero3_2021 = deepspeed.replace(
        name="DeepSpeed ZeRO-3 2021", kernels={"attention": "unfused"}, overlap={"data_parallel": "per submodule"},
        sources=(ZERO, DEEPSPEED_ZERO3_2021))
    # Megatron-DeepSpeed: Megatron-LM's tensor-parallel layers inside DeepSpeed's pipeline engine:
    # plain 1F1B with blocking sends and receives, each boundary split over the tensor-parallel
    # ranks and all-gathered after the receive, the data-parallel reduction after the flush. With
    # FP16 (MT-NLG, 2021) gradients are reduced in FP16 and unscaled every step; with BF16 (BLOOM,
    # 2022) they are accumulated and all-reduced in FP32 and scaled only over the threshold.
    megatron_deepspeed = Software(
        name="Megatron-DeepSpeed 2021", scatter_gather=True, precision=Precision(gradient_bytes=2),
        overlap=Overlap(pipeline="none", data_parallel="none"), sources=(DEEPSPEED_PIPELINE_2021,))
    megatron_deepspeed_bf16 = megatron_deepspeed.replace(
        name="Megatron-DeepSpeed 2022, BF16", precision={"gradient_bytes": 4}, optimizer=_MEGATRON_CLIPPING,
        sources=(DEEPSPEED_PIPELINE_2021, DEEPSPEED_BF16_PIPELINE))
    return deepspeed, zero_pp, zero3_2021, megatron_deepspeed, megatron_deepspeed_bf16


def _pytorch_fsdp_stacks():
    """PyTorch FSDP as torchtitan, IBM's fms-fsdp and MosaicML's llm-foundry ran it."""
    # PyTorch FSDP around a model written op by op and run without torch.compile, as torchtitan's
    # and IBM's Llama are: their RMSNorm, rotary embedding and SwiGLU run kernel by kernel, and
    # so does PyTorch's default AdamW; their blocks are checkpointed by PyTorch's non-reentrant
    # checkpoint, which stops recomputing early.
    sharding = PYTORCH_FSDP.at("§3.3-3.4", note="per-unit all-gather before forward and backward, "
                               "backward prefetch, reduce-scatter after backward")
    fsdp = Software(
        name="PyTorch FSDP", kernels=Kernels(attention="FlashAttention-2", elementwise="eager"),
        overlap=Overlap(data_parallel="per layer"), precision=Precision(gradient_bytes=2),
        optimizer=Optimizer(update="op by op"), checkpoint="early stop", scatter_gather=False,
        sources=(sharding,) + EAGER_ELEMENTWISE_SOURCES + EAGER_OPTIMIZER_SOURCES + (PYTORCH_CHECKPOINT_EARLY_STOP,))
    # MosaicML's llm-foundry benchmarks of 2023: FSDP through Composer, the Triton FlashAttention
    # kernel, and Composer's FSDP mixed precision, PURE (BF16 weights) or DEFAULT (FP32 weights).
    # MPT's low-precision LayerNorm and its GELU are one kernel each; ALiBi runs inside attention;
    # Composer's DecoupledAdamW steps op by op. The benchmark script's default image is PyTorch
    # 1.13, whose non-reentrant checkpoint reran the whole block (early stop came with 2.1).
    llm_foundry = fsdp.replace(
        name="llm-foundry 2023, PURE", kernels={"attention": "FlashAttention-1", "elementwise": "one kernel each"},
        checkpoint="whole block",
        sources=(sharding, LLM_FOUNDRY_BENCHMARK_SCRIPT, COMPOSER_FSDP.at("mixed_precision='PURE'"),
                 MPT_PRETRAIN_YAML))
    llm_foundry_fp32 = llm_foundry.replace(
        name="llm-foundry 2023, DEFAULT", precision={"fp32_weights": True},
        sources=(sharding, LLM_FOUNDRY_BENCHMARK_SCRIPT, COMPOSER_FSDP.at("mixed_precision='DEFAULT'"),
                 PYTORCH_AMP, MPT_PRETRAIN_YAML))
    # torchtitan: FSDP2 with BF16 compute weights and FP32 gradient reductions, SDPA's
    # FlashAttention-2 kernel, norms, rotary embedding and activations op by op (eager mode).
    # Its context parallelism is PyTorch's ring around SDPA, all-gather rotate by default (torchtitan
    # 9dec370, --experimental.context_parallel_rotate_method 'allgather').
    torchtitan = fsdp.replace(
        name="torchtitan 2024", precision={"gradient_bytes": 4}, kernels={"attention": "FlashAttention-2"},
        overlap={"context_parallel": "ring, all-gather rotate"},
        sources=fsdp.sources + (TORCHTITAN_JOB_CONFIG, TORCHTITAN_OPTIMIZER)
        + CONTEXT_PARALLEL_SOURCES["ring, all-gather rotate"])
    # ... with torch.compile on each transformer block: Inductor fuses each chain of element-wise
    # ops into one kernel, so the norms, rotary embedding and SwiGLU move each element once.
    torchtitan_compiled = torchtitan.replace(
        name="torchtitan 2024, compiled", kernels={"elementwise": "one kernel each"},
        sources=(sharding, TORCHTITAN_JOB_CONFIG, TORCHTITAN_OPTIMIZER, TORCHTITAN_H100_BENCHMARK.at(
            "Tables 1 and 3", note="FSDP against FSDP + torch.compile, which compiles each TransformerBlock"))
        + CONTEXT_PARALLEL_SOURCES["ring, all-gather rotate"])
    # ... and with torchao's Float8 linear layers (FP8 GEMMs through cuBLAS, dynamic scaling).
    torchtitan_compiled_fp8 = torchtitan_compiled.replace(
        name="torchtitan 2024, compiled FP8", kernels={"gemm_precision": "fp8"},
        sources=torchtitan_compiled.sources[:3] + (TORCHTITAN_H100_BENCHMARK.at(
            "Tables 1 and 3", note="FSDP + torch.compile + Float8: torchao's Float8 linear layers"),)
        + CONTEXT_PARALLEL_SOURCES["ring, all-gather rotate"])
    # ... and with asynchronous tensor parallelism (torchtitan's AsyncTP: each TP collective cut into
    # chunks pipelined with its matmuls through symmetric memory), as its 2D to 4D runs of Tables 4-6.
    torchtitan_async_tp = torchtitan_compiled_fp8.replace(
        name="torchtitan 2024, compiled FP8, async TP", overlap={"tensor_parallel": "pipelined"},
        sources=torchtitan_compiled_fp8.sources + (TORCHTITAN_H100_BENCHMARK.at(
            "Tables 4-6", note="2D + AsyncTP; 3D and 4D runs with torch.compile, Float8 and AsyncTP"),))
    # ... and with torchao's FP8 all-gather: FSDP2 gathers the Float8 linears' weights in FP8.
    torchtitan_compiled_fp8_gather = torchtitan_compiled_fp8.replace(
        name="torchtitan 2024, compiled FP8, FP8 all-gather", precision={"fp8_all_gather": True},
        sources=torchtitan_compiled_fp8.sources + (TORCHAO_FLOAT8_ALL_GATHER,))
    return (fsdp, llm_foundry, llm_foundry_fp32, torchtitan, torchtitan_compiled, torchtitan_compiled_fp8,
            torchtitan_async_tp, torchtitan_compiled_fp8_gather)


def _metaseq_stacks():
    """metaseq (OPT-175B): FairScale's FSDP around Megatron-LM's tensor-parallel layers, in FP16."""
    # FSDP units gathered before each pass and reduce-scattered after, the next unit prefetched;
    # FP16 weights and gradients (reduced in FP16); Megatron-LM's tensor-parallel layers of 2021,
    # every collective waited for; unfused attention (2021). Not read in metaseq's code, so left at
    # the defaults: the optimizer (a fused Adam) and its clipping (every step, as an FP16 optimizer
    # unscales every gradient on every step).
    metaseq = Software(
        name="metaseq 2022", overlap=Overlap(data_parallel="per layer"), precision=Precision(gradient_bytes=2),
        scatter_gather=False, sources=(METASEQ_OPT, FAIRSCALE_FSDP))
    return (metaseq,)


def _other_stacks():
    """flash-attention's GPT training code, Llama 3's stack and Megatron-Core."""
    # The GPT training code of the flash-attention repository, with which FlashAttention-2's
    # paper measured end-to-end throughput (§4.2, Table 1), with either generation of the kernel.
    flash_attention_gpt = Software(
        name="flash-attention GPT, FlashAttention-2", kernels=Kernels(attention="FlashAttention-2", elementwise="fused"),
        overlap=Overlap(data_parallel="per layer"), scatter_gather=False,
        precision=Precision(gradient_bytes=4, fp32_weights=True), optimizer=Optimizer(update="op by op"),
        sources=(FLASH_ATTENTION_TRAINING, PYTORCH_DDP, PYTORCH_AMP, FLASH_ATTENTION_OPTIMIZER))
    flash_attention_1_gpt = flash_attention_gpt.replace(
        name="flash-attention GPT, FlashAttention-1", kernels={"attention": "FlashAttention-1"})
    llama3 = Software(
        name="Llama 3", kernels=Kernels(attention="FlashAttention-2", elementwise="fused"),
        overlap=Overlap(context_parallel="all_gather", pipeline="asynchronous", data_parallel="per layer"),
        scatter_gather=False, precision=Precision(gradient_bytes=4),
        sources=(LLAMA3.at("§3.3.2", note="asynchronous pipeline sends; FSDP of optimizer state and "
                           "gradients overlapped with compute; context parallelism all-gathers keys "
                           "and values, its latency exposed; attention kernel not stated"),))
    megatron_core = Software(
        name="Megatron-Core 2024", kernels=Kernels(attention="cuDNN", elementwise="fused"),
        overlap=Overlap(tensor_parallel="pipelined", context_parallel="p2p", pipeline="asynchronous",
                        data_parallel="buckets", bucket_parameters=40_000_000, bucket_parameters_per_rank=1_000_000),
        scatter_gather=False, precision=Precision(gradient_bytes=4), optimizer=_MEGATRON_CLIPPING,
        sources=(MEGATRON_CORE.at("README, training speed and scalability", note=(
            "Transformer Engine fused attention and kernels, tensor-parallel communication overlap, "
            "--overlap-grad-reduce and --overlap-param-gather with the distributed optimizer")),
                 MEGATRON_CORE_DDP, MEGATRON_CLIP_GRADS) + CONTEXT_PARALLEL_SOURCES["p2p"])
    megatron_core_fp8 = megatron_core.replace(
        name="Megatron-Core 2024 FP8", kernels={"gemm_precision": "fp8"},
        sources=megatron_core.sources + (MEGATRON_CORE.at("Transformer Engine", note="FP8 linear layers"),))
    return flash_attention_gpt, flash_attention_1_gpt, llama3, megatron_core, megatron_core_fp8


def _software():
    stacks = (_megatron_lm_stacks() + _deepspeed_stacks() + _pytorch_fsdp_stacks() + _metaseq_stacks()
              + _other_stacks())
    return MappingProxyType({stack.name: stack for stack in stacks})


#: Training stacks by name: the kernels, precision, overlap, optimizer and checkpointing each one runs.
SOFTWARE = _software()


def software(name: str) -> Software:
    """The training stack called ``name`` (see :data:`SOFTWARE`).

    Parameters
    ----------
    name : str
        A key of :data:`SOFTWARE` (an unknown name lists the valid ones);
        a Software itself is returned as it is.
    """
    return resolve("software", name, Software, SOFTWARE)

#: The one set of defaults every published case is computed with.
DEFAULT_EFFICIENCIES = Efficiencies()


def resolve_run(model, cluster, config, software, efficiencies):
    """The model, cluster and stack of a run (looked up where given by name), its split checked against the model.

    What :func:`~interconnect_lab.training.training_step`,
    :func:`~interconnect_lab.training.tensor_parallel_layer` and
    :func:`~interconnect_lab.training.parallel_traffic` check before they compute.

    Parameters
    ----------
    model : TransformerModel or str
        The architecture, or a name from :data:`MODELS`.
    cluster : Cluster or str
        The hardware, or a name from :data:`CLUSTERS`.
    config : ParallelConfig
        The split.
    software : Software or str
        The stack, or a name from :data:`SOFTWARE`.
    efficiencies : Efficiencies
        The sustained rates.

    Returns
    -------
    (TransformerModel, Cluster, Software)

    Raises
    ------
    TypeError
        If ``config`` is not a ParallelConfig or ``efficiencies`` not an Efficiencies.
    ValueError
        For an unknown name, or a split that does not divide the model.
    """
    model = resolve("model", model, TransformerModel, MODELS)
    cluster = resolve("cluster", cluster, Cluster, CLUSTERS)
    software = resolve("software", software, Software, SOFTWARE)
    if not isinstance(config, ParallelConfig):
        raise TypeError(f"config must be a ParallelConfig (see parallel_config), got {type(config).__name__}")
    if not isinstance(efficiencies, Efficiencies):
        raise TypeError(f"efficiencies must be an Efficiencies, got {type(efficiencies).__name__}")
    config.check(model)
    return model, cluster, software

#: Microbatch for MegaScale's 175B runs, which the paper does not state [sequences]:
#: the largest for which every run of Table 2 satisfies the interleaved schedule's
#: rule that the microbatch count be a multiple of the pipeline depth.
MEGASCALE_MICROBATCH_SIZE = 2


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


@renamed_parameters(cluster_="cluster")
def scale_out_variants(cluster, *, family="Ethernet", ports_per_node=None) -> tuple[Cluster, ...]:
    """The same cluster with each per-GPU network bandwidth the catalog can build, slowest first.

    A what-if for the scale-out network alone: GPUs, nodes and NVLink stay as
    they are; the compute-fabric ports become every catalog link of
    ``family`` in turn, 1 to ``gpus_per_node`` of them per node (powers of
    two). Where two choices give a GPU the same bandwidth the one with more,
    slower ports is kept (one port per GPU where it can be).

    Parameters
    ----------
    cluster : Cluster or str
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
    cluster = resolve("cluster", cluster, Cluster, CLUSTERS)
    links = [link for link in catalog.LINKS.values() if link.family == family and link.links_per_gpu is None]
    if not links:
        families = sorted({link.family for link in catalog.LINKS.values() if link.links_per_gpu is None})
        raise ValueError(f"no catalog network link of family {family!r}; choose one of {', '.join(families)}")
    node = cluster.gpus_per_node
    counts = ([1 << k for k in range(node.bit_length()) if 1 << k <= node] if ports_per_node is None
              else [check_integer("ports_per_node", n, minimum=1) for n in ports_per_node])
    variants = {}
    for link in sorted(links, key=lambda entry: entry.per_direction_bytes_per_s):
        for ports in sorted(counts, reverse=True):
            variant = dataclasses.replace(cluster, name=f"{cluster.name}, {ports} x {link.name} per node",
                                          scale_out_link=link.name, nics_per_node=ports)
            variants.setdefault(variant.scale_out_bytes_per_s, variant)
    return tuple(variants[rate] for rate in sorted(variants))
