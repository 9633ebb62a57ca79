"""What a training run runs on: clusters of catalog parts, what the stacks' kernels cost, efficiency defaults.

The stacks themselves are :mod:`interconnect_lab.training.stack`.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import NamedTuple
from types import MappingProxyType

import numpy as np

from .. import catalog, matmul
from .._validation import check_choice, check_integer, check_number
from .. import units as u
from ..sources import FLASH_ATTENTION_2, Source


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
    pod_gpus : int or None
        GPUs under one part of the fabric with full bisection bandwidth (a
        pod); None: the whole fabric is non-blocking. Meta's Llama 3 RoCE
        cluster: 3,072-GPU pods.
    oversubscription : float
        Downlink over uplink capacity above the pods (Llama 3: 7 for 1:7) [-].
        A ring over a data-parallel group with :math:`n_\\text{pod}` ranks in
        each pod sends one flow out of the pod per group, so the pod's uplinks
        carry :math:`1/n_\\text{pod}` of its GPUs' rate; the network level
        slows by :math:`\\max(1, \\text{oversubscription}/n_\\text{pod})`.
    """

    name: str
    gpu: str
    gpus_per_node: int
    scale_up_link: str
    scale_out_link: str
    nics_per_node: int
    sources: tuple[Source, ...] = ()
    pod_gpus: int | None = None
    oversubscription: float = 1.0

    def __post_init__(self):
        catalog.gpu(self.gpu)
        catalog.link(self.scale_up_link)
        catalog.link(self.scale_out_link)
        check_integer("Cluster.gpus_per_node", self.gpus_per_node, minimum=1)
        check_integer("Cluster.nics_per_node", self.nics_per_node, minimum=1)
        if self.pod_gpus is not None:
            check_integer("Cluster.pod_gpus", self.pod_gpus, minimum=self.gpus_per_node)
        check_number("Cluster.oversubscription", self.oversubscription, minimum=1, maximum=1000)
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

    @property
    def collective_nvlink_bytes_per_s(self) -> float | None:
        """One GPU's NVLink bandwidth, one direction, as NCCL counts it (links x its per-link rate) [B/s];
        None where the GPUs are not joined by NVLink (the collective model follows NCCL)."""
        from .. import collectives

        if catalog.link(self.scale_up_link).family != "NVLink":
            return None
        return collectives.nvlink_bytes_per_s(self.scale_up_link)

    @property
    def collective_port_bytes_per_s(self) -> float:
        """One GPU's share of the node's ports at line rate, one direction [B/s] (as NCCL reads a port)."""
        port = catalog.link(self.scale_out_link).per_direction_bytes_per_s
        return port * self.nics_per_node / self.gpus_per_node

    def group_system(self, ranks: int, ranks_per_node: int, network_slowdown: float = 1.0):
        """The :class:`~interconnect_lab.collectives.CollectiveSystem` one group of ``ranks`` GPUs runs on.

        The group has ``ranks_per_node`` GPUs in each node it spans (a whole number of nodes;
        otherwise each rank is taken to sit in a node of its own). Every other group runs its
        own collective at the same time, so each of the group's GPUs has its own share of the
        node's ports (``nics_per_node / gpus_per_node`` of them, counted as one port of that
        rate), divided by ``network_slowdown`` above oversubscribed pods, and all of its NVLink.

        Examples
        --------
        >>> from interconnect_lab import training
        >>> s = training.cluster("Selene").group_system(64, 1)
        >>> s.nodes, s.gpus_per_node, s.nic_bytes_per_s / 1e9
        (64, 1, 25.0)
        """
        return _group_system(self, ranks, ranks_per_node, network_slowdown)


@functools.lru_cache(maxsize=4096)
def _group_system(cluster, ranks, ranks_per_node, network_slowdown):
    from .. import collectives

    per_node = ranks_per_node if ranks % ranks_per_node == 0 else 1
    nvlink = cluster.collective_nvlink_bytes_per_s
    if nvlink is None or cluster.gpu_spec.vendor != "NVIDIA":
        raise ValueError(f"cluster {cluster.name!r}: its collectives cannot be priced: the collective model "
                         f"follows NCCL on NVIDIA GPUs joined by NVLink, and {cluster.gpu} with "
                         f"{cluster.scale_up_link} is not one")
    return collectives.CollectiveSystem(
        architecture=collectives.architecture_of(cluster.gpu_spec), nodes=ranks // per_node,
        gpus_per_node=per_node, nvlink_bytes_per_s=nvlink,
        nvswitch=cluster.gpus_per_node > 2, nics_per_node=per_node,
        nic_bytes_per_s=cluster.collective_port_bytes_per_s / network_slowdown,
        name=f"{ranks // per_node} x {per_node} {cluster.gpu}")


FLASH_ATTENTION_3 = Source(
    title="J. Shah et al., FlashAttention-3: Fast and Accurate Attention with Asynchrony and Low-precision",
    year=2024, url="https://arxiv.org/abs/2407.08608", locator="Abstract",
    note="FlashAttention-2 reaches only 35% of the H100's peak; FlashAttention-3 up to 740 TFLOP/s in BF16 (75%)")

#: Sequence lengths of FlashAttention-3's benchmark (Figures 5 and 6), which holds batch x length
#: at 16K tokens and heads x head dimension at 2,048 [tokens].
ATTENTION_BENCHMARK_LENGTHS = (512, 1024, 2048, 4096, 8192, 16384)

#: FlashAttention-3's Figures 5 and 6 on an H100 SXM5, BF16: the causal forward pass and the
#: backward pass (its FLOPs counted as 2.5 forwards, ``FLASH_ATTENTION_BACKWARD_FLOPS``), at each
#: of ``ATTENTION_BENCHMARK_LENGTHS``, for head dimensions 64 and 128 [TFLOP/s]. Every kernel
#: gains with the length: each tile of queries pays a fixed cost (loading its queries, the causal
#: diagonal, writing its output) that a longer row of keys amortises.
_H100_ATTENTION_TFLOPS = {   # kernel: {head dimension: (forward by length, backward by length)}
    "FlashAttention-2": {64: ((180, 229, 262, 284, 295, 299), (198, 238, 264, 279, 287, 291)),
                         128: ((191, 260, 298, 319, 333, 335), (214, 260, 291, 310, 318, 322))},
    "FlashAttention-3": {64: ((197, 265, 371, 420, 460, 473), (272, 363, 422, 453, 472, 474)),
                         128: ((292, 423, 521, 579, 602, 616), (316, 424, 501, 542, 559, 561))},
    "cuDNN": {64: ((225, 288, 334, 363, 379, 388), (266, 348, 395, 417, 432, 433)),
              128: ((315, 410, 484, 518, 529, 539), (305, 408, 465, 499, 518, 516))},
}

FLASH_ATTENTION_3_FIGURES = FLASH_ATTENTION_3.at(
    "Figures 5 and 6", note="H100 80GB SXM5, BF16, causal forward and backward, 512 to 16K tokens, head "
    "dimensions 64 and 128; at 16K and head dimension 128: "
    + "; ".join(f"{kernel} {by_dim[128][0][-1]} and {by_dim[128][1][-1]} TFLOP/s"
                for kernel, by_dim in _H100_ATTENTION_TFLOPS.items()))

TRANSFORMER_ENGINE_ATTENTION = Source(
    title="NVIDIA, Transformer Engine: transformer_engine/pytorch/attention.py (get_attention_backend)",
    year=2024, url="https://github.com/NVIDIA/TransformerEngine/blob/001b736048c5428a3820584041ba61ca91a7c992/"
                   "transformer_engine/pytorch/attention.py",
    note="'Disabling FlashAttention to give FusedAttention preference on Hopper+ for performance reasons': "
         "on an H100 DotProductAttention runs cuDNN's fused attention")

FLASH_ATTENTION_BENCHMARK = Source(
    title="Dao-AILab, flash-attention: benchmarks/benchmark_flash_attention.py", year=2023,
    url="https://github.com/Dao-AILab/flash-attention/blob/0469c72723278048f1b1bd29f6c6155b5ef98369/benchmarks/benchmark_flash_attention.py",
    note="flops(): the backward pass counts 2.5 times the forward's 4 b s^2 a d (halved when causal)")

FLASH_ATTENTION_TRITON = Source(
    title="T. Dao, flash-attention: flash_attn/flash_attn_triton.py (the Triton FlashAttention)", year=2022,
    url="https://github.com/Dao-AILab/flash-attention/blob/00583fb14af7b84c4dca7531dc23126870eb0d35/flash_attn/flash_attn_triton.py",
    note="docstring: 'Overall Triton forward + backward is slightly slower than CUDA forward + backward' "
         "(the CUDA FlashAttention of 2022, which FlashAttention-2's abstract puts at 25-40% of an A100's peak); "
         "'only been tested on A100'")

#: FLOPs of FlashAttention's backward pass over its forward pass [-]. The forward pass runs two
#: matmuls (scores, then probabilities x V); the backward pass recomputes the scores from Q and
#: K, since they were never stored, then runs the four matmuls of the gradients: five against
#: two, as FlashAttention's own benchmark counts them (``FLASH_ATTENTION_BACKWARD_SOURCE``).
#: Attention with materialised scores reads them back instead: twice the forward's FLOPs.
FLASH_ATTENTION_BACKWARD_FLOPS = 2.5
FLASH_ATTENTION_BACKWARD_SOURCE = FLASH_ATTENTION_BENCHMARK.at("flops()")

TORCHTITAN_RMSNORM = Source(
    title="torchtitan: torchtitan/models/norms.py (RMSNorm)", year=2024,
    url="https://github.com/pytorch/torchtitan/blob/026e23a981dee27d41a8637baad651656698b6f8/torchtitan/models/norms.py",
    locator="class RMSNorm",
    note="forward: self._norm(x.float()).type_as(x) * self.weight, _norm being "
         "x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + eps); the default norm_type 'rmsnorm' "
         "(train_configs/llama2_13b.toml: norm_type 'rmsnorm', compile false)")
TORCHTITAN_LLAMA = Source(
    title="torchtitan: torchtitan/models/llama/model.py", year=2024,
    url="https://github.com/pytorch/torchtitan/blob/0199cbc1ba671c15df501fd9aa8bb68afd4352fd/torchtitan/models/llama/model.py",
    locator="apply_rotary_emb, FeedForward.forward",
    note="rotary embedding: view_as_complex(xq.float()...) * freqs_cis, view_as_real, type_as(xq); "
         "MLP: self.w2(F.silu(self.w1(x)) * self.w3(x))")
FMS_ELEMENTWISE = Source(
    title="IBM, foundation-model-stack: fms/modules/layernorm.py and fms/modules/positions.py", year=2024,
    url="https://github.com/foundation-model-stack/foundation-model-stack/blob/0790a1500927763a763dddf34dfbf08099201a73/fms/modules/layernorm.py",
    locator="LayerNormParameterized.forward; RotaryEmbedding.adjusted_qk",
    note="the same FP32 RMSNorm op by op (use_high_precision_pow); the rotation as a broadcast product with "
         "2 x 2 FP32 matrices and a sum (positions.py), more bytes than torchtitan's complex product")
#: Where the eager element-wise costs are counted from.
EAGER_ELEMENTWISE_SOURCES = (TORCHTITAN_RMSNORM, TORCHTITAN_LLAMA, FMS_ELEMENTWISE)

#: HBM bytes per element of an RMSNorm written as PyTorch tensor ops, forward and backward [B]
#: (``EAGER_ELEMENTWISE_SOURCES``), for a BF16 residual stream: torchtitan's RMSNorm
#: (``self._norm(x.float()).type_as(x) * self.weight``, the ``_norm`` being
#: ``x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + eps)``), each op its own kernel. Forward:
#: the FP32 cast (read 2, write 4), the square (4, 4), the mean (read 4), the product with the
#: reciprocal root (4, 4), the cast back (4, 2) and the weight (2, 2): 36. Backward, autograd's
#: kernels in reverse: the weight's product and its gradient's reduction (12), the cast (6), the
#: product's two gradients (8 and 16), the mean's expanded gradient (4), the square's (12), the
#: two paths summed (12) and the cast back (6): 76.
EAGER_RMSNORM_BYTES = (36.0, 76.0)
#: HBM bytes per element of a query or key that a rotary embedding written as PyTorch tensor ops
#: moves, forward and backward [B]: torchtitan's ``apply_rotary_emb`` casts to FP32 (read 2,
#: write 4), multiplies by the complex frequencies (4, 4) and casts back (4, 2); its backward
#: runs the same three kernels the other way.
EAGER_ROTARY_BYTES = (20.0, 20.0)
#: HBM bytes per element of the MLP's wide tensor that a gated activation written as
#: ``F.silu(w1(x)) * w3(x)`` moves, forward and backward [B]: the SiLU (read 2, write 2) and
#: the product (read 4, write 2); backward the product's two gradients (6 each) and the SiLU's
#: (read 4, write 2).
EAGER_GATED_ACTIVATION_BYTES = (10.0, 18.0)

PYTORCH_FOREACH_ADAMW = Source(
    title="PyTorch: torch/optim/adamw.py (_multi_tensor_adamw)", year=2024,
    url="https://github.com/pytorch/pytorch/blob/002d2f0bb40cf08beb74bce80f52ce4f2eda46a0/torch/optim/adamw.py",
    locator="_multi_tensor_adamw",
    note="AdamW's default on CUDA when neither foreach nor fused is given: _foreach_mul_ (weight decay), "
         "_foreach_lerp_ (first moment), _foreach_mul_ and _foreach_addcmul_ (second moment), _foreach_sqrt "
         "into a temporary, _foreach_div_ and _foreach_add_ on it, _foreach_addcdiv_ into the weights")
FMS_FSDP_OPTIMIZER = Source(
    title="IBM, fms-fsdp: main_training.py", year=2024,
    url="https://github.com/foundation-model-stack/fms-fsdp/blob/0210fd330a51ed769334a8f804e7668198a8ab66/main_training.py",
    locator="optim.AdamW(model.parameters(), ...)", note="torch.optim.AdamW with neither foreach nor fused set")
TORCHTITAN_OPTIMIZER = Source(
    title="torchtitan: build_optimizers", year=2024, url="https://github.com/pytorch/torchtitan",
    locator="torchtitan/optimizer.py, build_optimizers",
    note="optimizer_kwargs 'fused': fused, 'foreach': not fused, with optimizer.fused false by default")
MPT_PRETRAIN_YAML = Source(
    title="MosaicML, llm-foundry: scripts/train/yamls/pretrain/mpt-70b.yaml", year=2023,
    url="https://github.com/mosaicml/llm-foundry/blob/17e6d6312c13710ecbbeeff7ec93ef8c9ecefe1e/scripts/train/yamls/pretrain/mpt-70b.yaml",
    locator="optimizer", note="name: decoupled_adamw (Composer's DecoupledAdamW, a loop of tensor ops per parameter)")
PYTORCH_CHECKPOINT_EARLY_STOP = Source(
    title="PyTorch: torch/utils/checkpoint.py (set_checkpoint_early_stop)", year=2024,
    url="https://github.com/pytorch/pytorch/blob/002d2f0bb40cf08beb74bce80f52ce4f2eda46a0/torch/utils/checkpoint.py",
    locator="set_checkpoint_early_stop",
    note="'By default, non-reentrant checkpoint stops recomputation as soon as it has computed all needed "
         "Tensors', the default since pytorch/pytorch pull request 96866 (March 2023, after the 2.0 branch: "
         "first released in 2.1); torchtitan's and fms-fsdp's checkpoint_wrapper use the non-reentrant "
         "implementation")

#: Where the op-by-op optimizer step is counted from, and the PyTorch FSDP code that runs it
#: (torchtitan's and llm-foundry's are ``TORCHTITAN_OPTIMIZER`` and ``MPT_PRETRAIN_YAML``).
EAGER_OPTIMIZER_SOURCES = (PYTORCH_FOREACH_ADAMW, FMS_FSDP_OPTIMIZER)

#: HBM bytes per parameter of one AdamW step run op by op over FP32 tensors [B]
#: (``PYTORCH_FOREACH_ADAMW``), PyTorch's default on CUDA: the weight decay (read 4, write 4),
#: the first moment's lerp toward the gradient (8, 4), the second moment's scale (4, 4) and its
#: addcmul with the squared gradient (8, 4), the root into a temporary (4, 4), its division by
#: the bias correction (4, 4) and the epsilon (4, 4), and the addcdiv into the weight (12, 4): 80,
#: against 28 for one fused kernel (``Efficiencies.optimizer_bytes_per_parameter`` and a
#: 16-bit gradient and weight). Composer's DecoupledAdamW runs the same ops one tensor at a time.
EAGER_ADAMW_BYTES = 80.0

PYTORCH_CLIP_GRAD_NORM = Source(
    title="PyTorch: torch/nn/utils/clip_grad.py (clip_grad_norm_)", year=2024,
    url="https://github.com/pytorch/pytorch/blob/20592e4db96fcad1c113bfd4fc1832258767ba26/torch/nn/utils/clip_grad.py",
    locator="_get_total_norm, _clip_grads_with_norm_",
    note="the norm of every gradient (_foreach_norm), then _foreach_mul_ by the clamped coefficient on every "
         "step: 'multiplying by the clamped coef is redundant when the coef is clamped to 1, but doing so avoids "
         "a `if clip_coef < 1:` conditional which can require a CPU <=> device synchronization'; FSDP's "
         "clip_grad_norm_ (fms-fsdp, Composer) and torchtitan do the same on each GPU's shard")
MEGATRON_CLIP_GRADS = Source(
    title="NVIDIA Megatron-LM: megatron/core/optimizer/clip_grads.py", year=2025,
    url="https://github.com/NVIDIA/Megatron-LM/blob/0293807e53192713996ca335c74025d6d298b01a/megatron/core/optimizer/clip_grads.py",
    locator="get_grad_norm_fp32, clip_grad_by_total_norm_fp32",
    note="the FP32 gradients' norm in one multi-tensor kernel (multi_tensor_l2norm), then a multi-tensor scale: "
         "with Transformer Engine's multi_tensor_scale_tensor on every step (the coefficient clamped to 1 on "
         "the GPU), with apex's only when the norm exceeds the threshold")

#: HBM bytes per updated parameter of the global norm that every stack here clips its gradients
#: by before the optimizer step: one read of each FP32 gradient [B].
GRADIENT_NORM_BYTES = 4.0
#: HBM bytes per updated parameter of clipping with a scale on every step: the norm and then a
#: multiplication of each FP32 gradient by the clamped coefficient (read 4, write 4) [B].
#: PyTorch's ``clip_grad_norm_`` scales unconditionally to spare a host synchronisation
#: (``PYTORCH_CLIP_GRAD_NORM``); Megatron-LM scales only when the norm is over the threshold
#: (``MEGATRON_CLIP_GRADS``), which a steady step does not count (``Optimizer.clipping``).
GRADIENT_CLIP_BYTES = GRADIENT_NORM_BYTES + 8.0
#: Where the clipping is counted from.
GRADIENT_CLIP_SOURCES = (PYTORCH_CLIP_GRAD_NORM, MEGATRON_CLIP_GRADS)


class AttentionShare(NamedTuple):
    """Share of a GPU's dense BF16 peak one attention kernel reaches, per pass [-]."""

    forward: float
    backward: float


#: GPUs FlashAttention-3's benchmark speaks for: the H100 it ran on, and the H200 and Meta's 96 GB
#: H100, which have the H100's SMs (the 96 GB part's clocks at its 500 W limit are not published).
_HOPPER = ("H100 SXM", "H200 SXM", "H100 SXM 96GB")
#: Head dimensions the benchmark measured.
_BENCHMARK_HEAD_DIMS = (64, 128)


def _measured_share(kernel, sequence_length=ATTENTION_BENCHMARK_LENGTHS[-1], head_dim=128):
    """A kernel's share of the H100's peak from FlashAttention-3's benchmark: interpolated in log2
    of the length and linearly in the head dimension, the nearest measured point beyond them."""
    peak = catalog.gpu("H100 SXM").bf16_flop_per_s / u.TFLOP_per_s
    lengths = np.log2(ATTENTION_BENCHMARK_LENGTHS)
    weight = np.clip((np.asarray(head_dim, dtype=float) - _BENCHMARK_HEAD_DIMS[0])
                     / (_BENCHMARK_HEAD_DIMS[1] - _BENCHMARK_HEAD_DIMS[0]), 0.0, 1.0)
    by_dim = _H100_ATTENTION_TFLOPS[kernel]

    def share(part):
        low, high = (np.interp(np.log2(sequence_length), lengths, by_dim[dim][part]) for dim in _BENCHMARK_HEAD_DIMS)
        value = ((1 - weight) * low + weight * high) / peak
        return float(value) if np.ndim(value) == 0 else value

    return AttentionShare(share(0), share(1))


#: Share of the dense BF16 peak an attention kernel reaches, by kernel and catalog GPU, in the
#: forward and the backward pass, at its best: on Hopper the 16K tokens and head dimension 128
#: of FlashAttention-3's benchmark (:func:`attention_share` gives it by length and head
#: dimension). The attention core (scores and attention x V) runs at the lower of this and the
#: GEMM rate; a GPU not listed is held to the GEMM rate alone.
_FLASH_ATTENTION_2_SHARES = {
    "A100 SXM": AttentionShare(0.72, 0.72), "A100 SXM 40GB": AttentionShare(0.72, 0.72),
    **{gpu: _measured_share("FlashAttention-2") for gpu in _HOPPER}}
#: The first FlashAttention's share of an A100's peak: the top of the 25-40% that
#: FlashAttention-2's abstract gives it [-].
_FLASH_ATTENTION_1_A100 = 0.40
#: The first FlashAttention's share over FlashAttention-2's, as measured on the A100 [-].
_FLASH_ATTENTION_1_RATIO = _FLASH_ATTENTION_1_A100 / _FLASH_ATTENTION_2_SHARES["A100 SXM"].forward

ATTENTION_KERNELS = MappingProxyType({
    "FlashAttention-2": MappingProxyType(_FLASH_ATTENTION_2_SHARES),
    "FlashAttention-3": MappingProxyType({gpu: _measured_share("FlashAttention-3") for gpu in _HOPPER}),
    # cuDNN's fused attention, which Transformer Engine's DotProductAttention prefers on Hopper
    # ("FusedAttention"): what Megatron-Core and NeMo run.
    "cuDNN": MappingProxyType({gpu: _measured_share("cuDNN") for gpu in _HOPPER}),
    # The first FlashAttention (2022), and its Triton port that MosaicML's MPT ran (slightly
    # slower, held to the same share). On Hopper it was never measured. FlashAttention-2 does
    # not use Hopper's new capabilities either (FlashAttention-3's abstract: hence its 35%), and
    # what FlashAttention-2 gained over the first (fewer non-matmul FLOPs, better parallelism
    # and work partitioning) does not depend on the GPU. So the first keeps, on every GPU, the
    # ratio to FlashAttention-2 measured on the A100: an estimate, named as one.
    "FlashAttention-1": MappingProxyType({
        gpu: AttentionShare(*(_FLASH_ATTENTION_1_RATIO * part for part in share))
        for gpu, share in _FLASH_ATTENTION_2_SHARES.items()}),
})

def attention_share(kernel, gpu, sequence_length, head_dim=128):
    """Share of a GPU's dense BF16 peak an attention kernel reaches, per pass, on sequences of a given length.

    On Hopper (H100, H200) the shares follow FlashAttention-3's benchmark (Figures 5
    and 6): every kernel gains with the length, since each tile of queries pays a
    fixed cost that a longer row of keys amortises, and loses with a narrower head.
    Between the measured 512 to 16,384 tokens the share is interpolated in log2 of
    the length, and between head dimensions 64 and 128 linearly; beyond them the
    nearest measured point holds (from 8K to 16K tokens no kernel gains more than
    2.9%; narrower heads than 64 are rarer still). On other GPUs the papers give
    one figure per kernel, and that share holds at every length and head dimension.

    Parameters
    ----------
    kernel : str
        A name in ``training.ATTENTION_KERNELS``.
    gpu : str
        A catalog GPU.
    sequence_length : float or array_like
        Keys each query's row runs over in one kernel call [tokens], at least 1.
    head_dim : int
        Dimension of one attention head, at least 1.

    Returns
    -------
    AttentionShare or None
        Forward and backward shares (arrays for an array of lengths), or None
        where the kernel has no measured share on ``gpu`` (the GEMM rate alone
        then caps it).
    """
    check_choice("kernel", kernel, ATTENTION_KERNELS)
    catalog.gpu(gpu)
    sequence_length = check_number("sequence_length", sequence_length, minimum=1, unit="tokens")
    head_dim = check_integer("head_dim", head_dim, minimum=1)
    if gpu not in _HOPPER:
        return ATTENTION_KERNELS[kernel].get(gpu)
    if kernel == "FlashAttention-1":   # FlashAttention-2's curve at the A100 ratio, as in ATTENTION_KERNELS
        return AttentionShare(*(_FLASH_ATTENTION_1_RATIO * part
                                for part in _measured_share("FlashAttention-2", sequence_length, head_dim)))
    return _measured_share(kernel, sequence_length, head_dim)


#: Where each kernel's shares in ``ATTENTION_KERNELS`` come from.
ATTENTION_KERNEL_SOURCES = MappingProxyType({
    "FlashAttention-2": (FLASH_ATTENTION_2, FLASH_ATTENTION_3_FIGURES),
    "FlashAttention-3": (FLASH_ATTENTION_3, FLASH_ATTENTION_3_FIGURES),
    "cuDNN": (FLASH_ATTENTION_3_FIGURES, TRANSFORMER_ENGINE_ATTENTION),
    "FlashAttention-1": (FLASH_ATTENTION_2, FLASH_ATTENTION_3, FLASH_ATTENTION_TRITON),
})


#: Bus bandwidth one SM carries in a NCCL collective [B/s]. NCCL runs each channel as a thread
#: block that holds its SM for the whole collective, shared with no compute kernel, and takes the
#: fewest SMs that reach the platform's bandwidth: 2 for one NIC (12-24 GB/s), 16 for a DGX's
#: 8 NICs at about 190 GB/s (``NCCL_SM_SOURCE``): 190/16 GB/s per SM, at least 2, at most 32
#: (NCCL's channel limit). Opt in with ``Efficiencies.nccl_bus_bytes_per_s_per_sm``.
NCCL_BUS_BYTES_PER_S_PER_SM = 190e9 / 16
NCCL_MIN_SMS, NCCL_MAX_SMS = 2, 32
NCCL_SM_SOURCE = Source(
    title="NVIDIA/nccl issue 689: Does NCCL Allreduce kernels slowdown the computation kernels of GPU?",
    year=2023, url="https://github.com/NVIDIA/nccl/issues/689",
    note="a maintainer: NCCL uses the minimal number of SMs to achieve the platform's performance, 2 for a "
         "single NIC at 12-24 GB/s, 16 on a DGX with 8 NICs at 190 GB/s; NCCL CTAs won't share an SM with "
         "compute kernels")



#: The GPU whose sustained (power-limited) matmul rate anchors the others: the H200, the H100's
#: chip at the same 700 W, on which the GEMM efficiency is validated (the H100 rows of the
#: fidelity table). Its best measured rate is the one the efficiency multiplies.
SUSTAINED_REFERENCE_GPU = "H200 SXM"


def sustained_matmul_rate(gpu) -> float | None:
    """The BF16 matmul rate ``gpu`` holds at its power limit, every GPU of its node busy [FLOP/s].

    The catalog's ``sustained_matmul_flop_per_s`` where measured. A GPU built on
    the same chip as a measured one (``GPU.same_silicon_as``) takes that GPU's
    sustained rate scaled by the ratio of their best measured rates: a GB200,
    the B200's chip at a higher clock and power limit, holds what a B200 holds
    times 1,822 / 1,745. None where neither is measured.

    Parameters
    ----------
    gpu : interconnect_lab.catalog.GPU
        The accelerator.

    Returns
    -------
    float or None
        Sustained rate [FLOP/s], or None.

    Examples
    --------
    >>> from interconnect_lab import catalog
    >>> round(sustained_matmul_rate(catalog.gpu("B200")) / 1e12)   # measured
    1439
    >>> round(sustained_matmul_rate(catalog.gpu("GB200")) / 1e12)  # the B200's, scaled by 1,822 / 1,745
    1502
    >>> sustained_matmul_rate(catalog.gpu("MI300X")) is None
    True
    """
    if gpu.sustained_matmul_flop_per_s is not None:
        return gpu.sustained_matmul_flop_per_s
    if gpu.same_silicon_as is None or gpu.measured_matmul_flop_per_s is None:
        return None
    measured = catalog.gpu(gpu.same_silicon_as)
    if measured.sustained_matmul_flop_per_s is None:
        return None
    return measured.sustained_matmul_flop_per_s * gpu.measured_matmul_flop_per_s / measured.measured_matmul_flop_per_s


def matmul_fraction_of_peak(gpu) -> float:
    """Share of peak the training model's GEMMs start from, before their efficiency and shape [-].

    A training step holds the GPU at its power limit, where the clock is lower
    than in the short bursts the catalog's best measured rates catch, and GPUs
    differ in how much they lose: measured side by side with the same software
    and every GPU of the node busy, a B200 sustains 1.91 times what an H200
    does, where their best bursts say 2.2 (``catalog.gpu('B200')`` and
    ``catalog.gpu('H200 SXM')``). So a GPU with a sustained rate
    (:func:`sustained_matmul_rate`, its own or its chip's) runs at the reference
    GPU's best measured rate (``SUSTAINED_REFERENCE_GPU``, the rate the
    efficiency holds for on Hopper) times the ratio of the two sustained rates.
    A GPU without one keeps its own best measured BF16 rate over its dense BF16
    peak (for a GPU with no published measurement, the median of the catalog
    GPUs that have one).

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
    >>> round(matmul_fraction_of_peak(catalog.gpu("A100 SXM")), 3)   # 271.2 / 312
    0.869
    >>> round(matmul_fraction_of_peak(catalog.gpu("H100 SXM")), 3)   # 794.5 / 989.4, its chip's reference
    0.803
    >>> round(matmul_fraction_of_peak(catalog.gpu("B200")), 3)       # 794.5 x 1,439 / 755, over 2,250
    0.673
    """
    sustained = sustained_matmul_rate(gpu)
    if sustained is None:
        if gpu.matmul_fraction_of_peak is not None:
            return gpu.matmul_fraction_of_peak
        return float(np.median([g.matmul_fraction_of_peak for g in catalog.GPUS.values()
                                if g.matmul_fraction_of_peak is not None]))
    reference = catalog.gpu(SUSTAINED_REFERENCE_GPU)
    return (matmul.best_rate(reference) * sustained / reference.sustained_matmul_flop_per_s
            / gpu.bf16_flop_per_s)



@dataclass(frozen=True, kw_only=True)
class Efficiencies:
    """The few rates the step-time model cannot derive from the catalog; one set for every case.

    Parameters
    ----------
    gemm : float
        Sustained share of the GPU's best measured matmul rate (its "MAMF",
        ``GPU.measured_matmul_flop_per_s`` in the catalog) that training GEMMs
        reach end to end at the best shape, :math:`\\eta_\\text{GEMM}` [-].
        Default 0.77. Each GEMM's own shape then costs what
        :func:`interconnect_lab.matmul.gemm_efficiency` says (tile and wave
        quantization, the output write), and FlashAttention's published share
        of peak caps the attention core (:func:`attention_share`). What is
        left here is what a training step loses beyond the shape: clocks under
        sustained load and gaps between kernels. The value is one number,
        chosen once against SC21 Table 1 and MegaScale Table 2 together (to
        0.01, the value with the smallest median error that keeps all 26 rows
        within 10%; their mean error is then -1%) and then used for
        every case and every GPU; the fidelity table of chapter 8 replays
        every other published run with it. Measuring against each GPU's own
        best matmul, not its datasheet peak, carries the A100 calibration to
        GPUs whose kernels reach a smaller share of peak (H100, Blackwell,
        MI300X). A GPU without a published measurement takes the median share
        of the catalog's measured GPUs. A GPU whose rate sustained at its power
        limit is measured and keeps a smaller share of its best rate than
        Hopper does (the B200) is slowed by the difference
        (:func:`interconnect_lab.training.matmul_fraction_of_peak`).
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
    nccl_bus_bytes_per_s_per_sm : float or None
        Bus bandwidth one SM carries in a NCCL collective [B/s], to charge the
        SMs that hidden collectives hold: NCCL runs each channel as a thread
        block that keeps its SM for the whole collective, so the compute beside
        it runs on the rest. A collective takes its bus bandwidth over this
        many SMs (at least 2, at most 32); its hidden time times its share of
        the GPU's SMs is added to the compute. None (the default): not charged,
        as the calibration above was not. ``training.NCCL_BUS_BYTES_PER_S_PER_SM``
        is NCCL's maintainers' figure (16 SMs for a DGX's 190 GB/s). Tensor
        parallelism pipelined into its GEMMs (``Overlap.tensor_parallel`` "pipelined")
        is not charged; its kernels are not NCCL's.
    """

    gemm: float = 0.77
    memory_bandwidth: float = 0.9
    optimizer_bytes_per_parameter: float = 24.0
    optimizer_state_bytes_per_parameter: float = 12.0
    nccl_bus_bytes_per_s_per_sm: float | None = None
    sources: tuple[Source, ...] = (
        ZERO.at("§5.1", note="K = 12 bytes of optimizer state per parameter for mixed-precision Adam"),
    )

    def __post_init__(self):
        for field in ("gemm", "memory_bandwidth"):
            check_number(f"Efficiencies.{field}", getattr(self, field), minimum=0, maximum=1, min_inclusive=False)
        for field in ("optimizer_bytes_per_parameter", "optimizer_state_bytes_per_parameter"):
            check_number(f"Efficiencies.{field}", getattr(self, field), unit="B", minimum=0)
        if self.nccl_bus_bytes_per_s_per_sm is not None:
            check_number("Efficiencies.nccl_bus_bytes_per_s_per_sm", self.nccl_bus_bytes_per_s_per_sm, unit="B/s",
                         minimum=0, min_inclusive=False)
