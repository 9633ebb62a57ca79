"""Microsoft's runs with DeepSpeed: Megatron-Turing NLG 530B on Selene (with NVIDIA)."""

from __future__ import annotations

from ...sources import Source
from .run import PublishedRun

__all__ = ["MT_NLG", "DEEPSPEED_AZURE_BLOG", "MT_NLG_530B"]


# Microsoft and NVIDIA: Megatron-Turing NLG 530B --------------------------------------------

MT_NLG = Source(
    title="S. Smith et al., Using DeepSpeed and Megatron to Train Megatron-Turing NLG 530B, "
          "A Large-Scale Generative Language Model", year=2022, url="https://arxiv.org/abs/2201.11990",
    note="'The number of layers, hidden dimensions, attention heads are 105, 20480, and 128, respectively. The "
         "sequence length is 2048 and global batch size is 1920. We used 8-way tensor and 35-way pipeline "
         "parallelism'; Megatron-DeepSpeed (Megatron-LM's tensor parallelism, DeepSpeed's pipeline engine) on "
         "Selene's DGX A100 nodes")
DEEPSPEED_AZURE_BLOG = Source(
    title="Microsoft DeepSpeed blog, Azure and DeepSpeed empower easy-to-use and high-performance model training",
    year=2022, url="https://github.com/microsoft/DeepSpeed/blob/38327e07f6cd39b63418f60cedd1651b0be3e7c3/"
                   "docs/_posts/2022-07-26-deepspeed-azure.md",
    locator="L103",
    note="'Previous results on the 530B MT-NLG model using DeepSpeed and Megatron-LM on 280 DGX A100 servers on "
         "the Selene supercomputer showed the peak throughput of 126 TFLOPS/GPU'")

#: MT-NLG 530B on 2,240 A100 (280 DGX A100 on Selene), its peak throughput as DeepSpeed restates it.
MT_NLG_530B = PublishedRun(
    label="MT-NLG 530B, 2,240 x A100", organisation="Microsoft and NVIDIA", layers=105, hidden_size=20480,
    heads=128, kv_heads=128, ffn_hidden_size=4 * 20480, vocabulary_size=51200, sequence_length=2048,
    gated_mlp=False, gpu="A100 SXM", gpus=2240, gpus_per_node=8, scale_up_link="NVLink 3",
    scale_out_link="InfiniBand HDR", nics_per_node=8, tensor_parallel=8, pipeline_parallel=35,
    microbatch_size=1, global_batch_size=1920, recompute="full", zero_stage=1,
    software="Megatron-DeepSpeed 2021", metric="hardware_flop_per_s_per_gpu", value=126e12,
    assumptions=(
        "microbatch not stated in the sources read: 1 (a secondary note says 1)",
        "activation recomputation not stated: full (Megatron-DeepSpeed's checkpoint-activations, as every "
        "530B run of the period; the TFLOP/s of DeepSpeed's posts count the recomputed pass, SC21 Eq. 3)",
        "metric formula not stated for the 126: SC21 Eq. 3 (recomputation counted), the formula DeepSpeed's "
        "Azure post uses for its own TFLOP/s",
        "vocabulary not stated: GPT-2's 50,257 padded to 51,200, as Megatron pads it for 8-way tensor parallelism",
        "ZeRO stage not stated in the sources read: 1 (secondary notes); precision not stated: FP16, the "
        "pipeline engine's only mixed precision before DeepSpeed's bf16+pipeline support of April 2022",
        "'peak throughput': the best of the runs at 2,240 GPUs, not an average",
    ),
    source=DEEPSPEED_AZURE_BLOG.at("L103", note="shape, split and batch from MT_NLG §2.2-§3"))
