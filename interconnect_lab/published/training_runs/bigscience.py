"""BigScience's BLOOM-176B, as logged during training."""

from __future__ import annotations

from ...sources import Source
from .run import PublishedRun

__all__ = ["BLOOM_TRAINING", "BLOOM_176B"]


# BigScience: BLOOM-176B ------------------------------------------------------------------

BLOOM_TRAINING = Source(
    title="BigScience, tr11-176B-ml: BLOOM-176B training (README and slurm script)", year=2022,
    url="https://github.com/bigscience-workshop/bigscience/blob/master/train/tr11-176B-ml/README.md",
    note="384 A100 80 GB, 8 per node, 4 Omni-Path links per node; TP 4, PP 12, DP 8, microbatch 2, batch 2,048, "
         "full activation checkpointing, BF16, Megatron-DeepSpeed with ZeRO-1-style optimizer; logged "
         "149.77 TFLOP/s per GPU (SC21 Eq. 3, recomputation included); pipeline partition "
         "'type:transformer|embedding': the tied embeddings count as layers, so pipeline ranks 0 and 11 "
         "hold 5 transformer blocks and an embedding, the others 6 blocks")

#: BLOOM-176B's logged throughput during training.
BLOOM_176B = PublishedRun(
    label="BLOOM 176B, 384 x A100", organisation="BigScience", layers=70, hidden_size=14336, heads=112,
    kv_heads=112, ffn_hidden_size=4 * 14336, vocabulary_size=250880, sequence_length=2048, gated_mlp=False,
    gpu="A100 SXM", gpus=384, gpus_per_node=8, scale_up_link="NVLink 3", scale_out_link="InfiniBand EDR",
    nics_per_node=4, tensor_parallel=4, pipeline_parallel=12, microbatch_size=2, global_batch_size=2048,
    recompute="full", zero_stage=1, uneven_pipeline=True, software="Megatron-DeepSpeed 2022, BF16",
    metric="hardware_flop_per_s_per_gpu",
    value=149.77e12,
    assumptions=("Omni-Path link rate not stated: 100 Gb/s per link (the rate of Omni-Path's one generation), "
                 "modelled as the catalog's 100 Gb/s InfiniBand EDR port",
                 "stack: Megatron-DeepSpeed with DeepSpeed's BF16 optimizer (ZeRO stage 0 in DeepSpeed's terms), "
                 "which all-reduces the FP32 gradients after the pipeline flush and all-gathers the BF16 weights "
                 "after each rank updates its share; modelled as the library's ZeRO-1, which reduce-scatters "
                 "instead of all-reducing: half the gradient traffic of the all-reduce is not counted",),
    source=BLOOM_TRAINING.at("sections Hardware, Replica setup, Architecture; log line at iteration 85,376"))
