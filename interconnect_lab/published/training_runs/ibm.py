"""IBM's fms-fsdp runs: Llama 2 on 128 A100 and 96 H100."""

from __future__ import annotations

from ...sources import Source
from .run import PublishedRun

__all__ = ["FMS_FSDP", "PYTORCH_FSDP_BLOG", "FMS_FSDP_A100_RUNS", "FMS_FSDP_H100_RUNS"]


# IBM: fms-fsdp on 128 A100 ---------------------------------------------------------------

FMS_FSDP = Source(
    title="IBM, fms-fsdp: README, training throughput of Llama 2 7B to 70B on 128 A100", year=2024,
    url="https://github.com/foundation-model-stack/fms-fsdp/blob/0d319983c4b3b7f7b3b5e2c5e7f746746b6f73a9/README.md",
    note="per row: sharding strategy (HSDP shards within a node of 8 GPUs and replicates across, FSDP over all "
         "128), activation checkpointing of every block or none, batch size per GPU, tokens per GPU per second; "
         "shapes from fms_fsdp/utils/config_utils.py (get_model_config, vocabulary 32,000), 4,096 tokens per "
         "sequence and BF16 mixed precision (parameters and gradient reductions) from the training config")
PYTORCH_FSDP_BLOG = Source(
    title="Team PyTorch at IBM and Team PyTorch at Meta, Maximizing training throughput using PyTorch FSDP",
    year=2024, url="https://pytorch.org/blog/maximizing-training/",
    note="the same runs: 128 A100 80GB with 400 Gbps network connectivity and GPUDirect RDMA; SDPA's "
         "FlashAttention-2; FSDP from PyTorch nightlies after 2.2; torch.compile named as work still to do")

_FMS_MODELS = {   # name: (layers, hidden, heads, KV heads, FFN)
    "7b": (32, 4096, 32, 32, 11008), "13b": (40, 5120, 40, 40, 13824),
    "34b": (48, 8192, 64, 8, 22016), "70b": (80, 8192, 64, 8, 28672),
}
_FMS_ASSUMPTIONS = (
    "8 GPUs per node on NVLink 3 (an HGX A100 server)",
    "400 Gb/s per node (the blog's figure) taken as 4 x 100 Gb/s Ethernet ports; the repository's launch "
    "scripts set AWS EFA variables",
    "no torch.compile (the blog lists it as future work): the model's RMSNorm, rotary embedding and SwiGLU "
    "run op by op",
)


#: The two clusters of IBM's runs: GPU, GPUs, NVLink, 100 Gb/s Ethernet ports per node of 8.
_FMS_CLUSTERS = {"A100": ("A100 SXM", 128, "NVLink 3", 4), "H100": ("H100 SXM", 96, "NVLink 4", 8)}


def _fms_fsdp(model, cluster, sharding, recompute, batch, tokens_per_gpu, *, assumptions, source, label=""):
    """One of IBM's runs: ``sharding`` "HSDP" (shard within a node) or "FSDP" (over every GPU)."""
    layers, hidden, heads, kv, ffn = _FMS_MODELS[model]
    gpu, gpus, scale_up_link, nics_per_node = _FMS_CLUSTERS[cluster]
    return PublishedRun(
        label=f"Llama 2 {model[:-1]}B, {gpus} x {cluster}, fms-fsdp{label}", organisation="IBM",
        layers=layers, hidden_size=hidden, heads=heads, kv_heads=kv, ffn_hidden_size=ffn, vocabulary_size=32000,
        sequence_length=4096, gated_mlp=True, dropout=False, gpu=gpu, gpus=gpus, gpus_per_node=8,
        scale_up_link=scale_up_link, scale_out_link="Ethernet 100G", nics_per_node=nics_per_node,
        microbatch_size=batch, global_batch_size=gpus * batch, recompute=recompute, zero_stage=3,
        shard_group_size=8 if sharding == "HSDP" else None, software="PyTorch FSDP", metric="tokens_per_s",
        value=float(gpus * tokens_per_gpu), assumptions=assumptions, source=source)


#: fms-fsdp's table of Llama 2 runs on 128 A100 80GB over 400 Gb/s per node (model, sharding
#: strategy, activation checkpointing, batch per GPU, tokens per GPU per second).
FMS_FSDP_A100_RUNS: tuple[PublishedRun, ...] = tuple(
    _fms_fsdp(model, "A100", sharding, recompute, batch, tokens_per_gpu, assumptions=_FMS_ASSUMPTIONS,
              source=FMS_FSDP.at(f"table, row {model}"), label=f" {sharding}")
    for model, sharding, recompute, batch, tokens_per_gpu in (
        ("7b", "HSDP", "none", 2, 3760), ("13b", "HSDP", "none", 1, 1700),
        ("34b", "FSDP", "full", 8, 772), ("70b", "FSDP", "full", 6, 380),
    ))

_FMS_H100_ASSUMPTIONS = (
    "8 GPUs per node on NVLink 4 (an HGX H100 server)",
    "800 Gb/s per node (the blog's figure) taken as 8 x 100 Gb/s Ethernet ports",
    "sharding not stated for these rows: hybrid within a node for 7B and 13B, full for 34B and 70B, "
    "as fms-fsdp's docs/configurations.md advises",
    "'Selective' checkpointing (13B) checkpoints every n-th block, n not stated: every other block",
    _FMS_ASSUMPTIONS[2],
)

#: The blog's H100 side of the same table: Llama 2 on 96 H100 80GB over 800 Gb/s per node, two
#: sequences per GPU (model, activation checkpointing, tokens per GPU per second). Not in the
#: fidelity table, since the blog leaves each row's sharding and the 13B row's checkpointing
#: frequency unstated; they show the model overrating eager FSDP runs on H100, which their authors
#: saw communication show through and suspected HBM bandwidth for (chapter 8, tests/training/test_fidelity.py).
FMS_FSDP_H100_RUNS: tuple[PublishedRun, ...] = tuple(
    _fms_fsdp(model, "H100", "HSDP" if model in ("7b", "13b") else "FSDP", recompute, 2, tokens_per_gpu,
              assumptions=_FMS_H100_ASSUMPTIONS,
              source=PYTORCH_FSDP_BLOG.at(f"Table 1, {model.upper()} row, H100 80GB columns"))
    for model, recompute, tokens_per_gpu in (
        ("7b", "none", 7500), ("13b", "every other layer", 3800), ("34b", "full", 1550), ("70b", "full", 800),
    ))
