"""FlashAttention-2 (Dao, 2023): GPT models on one DGX A100, with either attention kernel."""

from __future__ import annotations

from ...sources import FLASH_ATTENTION_2
from .run import PublishedRun

__all__ = ["FLASH_ATTENTION_2_RUNS"]


# FlashAttention-2 (Dao, 2023): GPT models on one DGX A100, with either attention kernel --------

_FLASH_ATTENTION_2_TABLE1_NOTE = (
    "training speed of GPT-style models on 8 A100 80GB SXM: TFLOP/s per GPU as "
    "6 s N + 12 l h s^2 per sequence (attention not halved for the causal mask), no recomputation")

_FLASH_ATTENTION_2_ASSUMPTIONS = (
    "settings not stated in the paper: the flash-attention repository's training configs on 80 GB GPUs "
    "(pile/gpt3xl-flash, gpt3xl-flash-8k, gpt3-2.7B-flash-hdim128, gpt3-2.7B-flash-8k): microbatch 8 "
    "sequences for 1.3B at 2K and 4 otherwise, a batch of 1M tokens (512 or 128 sequences; the 2.7B 8K "
    "config's own is not stored, its README gives 1M tokens for both models)",
    "GPT-2 vocabulary 50,257 padded to a multiple of 8 (pad_vocab_size_multiple: 8); the 2.7B model with "
    "head dimension 128 at 2K (20 heads, as the repository's README sets it) and 32 heads at 8K",
    "one DGX A100 node: NVLink 3 inside it; the network does not matter on one node",
)


def _flash_attention_2(model, sequence_length, microbatch, batch, kernel, tflops):
    layers, hidden, heads = {"1.3B": (24, 2048, 16), "2.7B": (32, 2560, 20 if sequence_length == 2048 else 32)}[model]
    return PublishedRun(
        label=f"GPT3-{model} {sequence_length // 1024}K, 8 x A100, {kernel}", organisation="Princeton & Stanford",
        layers=layers, hidden_size=hidden, heads=heads, kv_heads=heads, ffn_hidden_size=4 * hidden,
        vocabulary_size=50264, sequence_length=sequence_length, gated_mlp=False, gpu="A100 SXM", gpus=8,
        gpus_per_node=8, scale_up_link="NVLink 3", scale_out_link="InfiniBand HDR", nics_per_node=8,
        microbatch_size=microbatch, global_batch_size=batch, recompute="none", zero_stage=1,
        software=f"flash-attention GPT, {kernel}", metric="model_flop_per_s_per_gpu", value=tflops * 1e12,
        assumptions=_FLASH_ATTENTION_2_ASSUMPTIONS,
        source=FLASH_ATTENTION_2.at(f"§4.2, Table 1, GPT3-{model} {sequence_length // 1024}k context, column "
                                    f"{'FlashAttention' if kernel == 'FlashAttention-1' else kernel}",
                                    note=_FLASH_ATTENTION_2_TABLE1_NOTE))


#: FlashAttention-2's Table 1: the same GPT training code with the first FlashAttention and with
#: FlashAttention-2, at 2K and 8K tokens. The baseline column without FlashAttention is left out:
#: its settings are not stated, and the repository's configs would not fit it in 80 GB.
FLASH_ATTENTION_2_RUNS: tuple[PublishedRun, ...] = tuple(
    _flash_attention_2(*row) for row in (
        ("1.3B", 2048, 8, 512, "FlashAttention-1", 189), ("1.3B", 2048, 8, 512, "FlashAttention-2", 196),
        ("1.3B", 8192, 4, 128, "FlashAttention-1", 170), ("1.3B", 8192, 4, 128, "FlashAttention-2", 220),
        ("2.7B", 2048, 4, 512, "FlashAttention-1", 189), ("2.7B", 2048, 4, 512, "FlashAttention-2", 205),
        ("2.7B", 8192, 4, 128, "FlashAttention-1", 175), ("2.7B", 8192, 4, 128, "FlashAttention-2", 225),
    ))
