"""Tests of ``interconnect_lab.training.hardware``: what a training run runs on: clusters of catalog
parts, software stacks, efficiency defaults.
"""

import dataclasses

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from interconnect_lab import catalog, training as tr, units as u


def _llama8b_step(software="Megatron-Core 2024", pod_gpus=None, oversubscription=1.0, **config):
    cluster = tr.Cluster(name="RoCE H100", gpu="H100 SXM", gpus_per_node=8, scale_up_link="NVLink 4",
                         scale_out_link="Ethernet 400G", nics_per_node=8, pod_gpus=pod_gpus,
                         oversubscription=oversubscription)
    settings = dict(global_batch_size=1024, tensor_parallel=8, zero_stage=1) | config
    return tr.training_step(tr.transformer_model("Llama 3 8B"), cluster, tr.parallel_config(1024, **settings),
                            software)


def test_oversubscribed_pods_slow_data_parallel_rings_only_when_few_ranks_share_a_pod():
    flat = _llama8b_step()
    # 128 data-parallel ranks over 16 pods of 64 GPUs: 8 ranks per pod, more than the 1:7 ratio.
    assert _llama8b_step(pod_gpus=64, oversubscription=7).data_parallel_s == pytest.approx(flat.data_parallel_s)
    # Pods of 16 GPUs: 2 ranks per pod, so each pod's uplinks carry 1/2 of its rate against 1/7.
    tight = _llama8b_step(pod_gpus=16, oversubscription=7)
    assert tight.data_parallel_s + tight.data_parallel_hidden_s > flat.data_parallel_s + flat.data_parallel_hidden_s
    with pytest.raises(ValueError, match="oversubscription"):
        _llama8b_step(oversubscription=0.5)


def test_fp8_gemms_run_faster_and_mfu_stays_against_the_bf16_peak():
    bf16, fp8 = _llama8b_step(), _llama8b_step("Megatron-Core 2024 FP8")
    assert fp8.compute_s < bf16.compute_s
    assert fp8.peak_flop_per_s == bf16.peak_flop_per_s == catalog.gpu("H100 SXM").bf16_flop_per_s
    a100 = tr.Cluster(name="A100", gpu="A100 SXM", gpus_per_node=8, scale_up_link="NVLink 3",
                      scale_out_link="InfiniBand HDR", nics_per_node=8)
    with pytest.raises(ValueError, match="FP8"):
        tr.training_step("Llama 3 8B", a100, tr.parallel_config(8, global_batch_size=8),
                         "Megatron-Core 2024 FP8")


def _eager_step(model, eager, **changes):
    stack = tr.software("PyTorch FSDP").replace(kernels={"elementwise": "eager" if eager else "one kernel each"},
                                                **changes)
    config = tr.parallel_config(1, global_batch_size=2, microbatch_size=2, recompute="none")
    return tr.training_step(model, "MegaScale", config, stack)


#: FlashAttention-3's Figures 5 and 6 (H100 SXM5, BF16), head dimension 128: causal forward and
#: backward TFLOP/s at 512, 2K and 8K tokens, typed here from the figures to check the catalog.
_FA3_FIGURE_POINTS = {("cuDNN", 512): (315, 305), ("cuDNN", 2048): (484, 465), ("cuDNN", 8192): (529, 518),
                      ("FlashAttention-2", 2048): (298, 291), ("FlashAttention-3", 1024): (423, 424)}


def test_eager_elementwise_costs_the_bytes_counted_from_torchtitans_code():
    # Llama 3 8B on one A100, 2 x 8,192 tokens: per layer, two RMSNorms (36 B forward and 76 B
    # backward per element of the hidden state, where one kernel moves 2 + 2 and twice that), the
    # rotary embedding on queries and keys (20 B each way per element) and SwiGLU (10 and 18 B per
    # element of the FFN width, where one kernel moves 6 and 12), all at the HBM rate.
    model = tr.transformer_model("Llama 3 8B")
    hbm = tr.DEFAULT_EFFICIENCIES.memory_bandwidth * catalog.gpu("A100 SXM").hbm_bandwidth_bytes_per_s
    tokens = 2 * model.sequence_length
    norm = 2 * (sum(tr.EAGER_RMSNORM_BYTES) - 3 * (2 + 2)) * model.hidden_size
    rotary = sum(tr.EAGER_ROTARY_BYTES) * (model.hidden_size + model.kv_size)
    gated = (sum(tr.EAGER_GATED_ACTIVATION_BYTES) - 3 * 6) * model.ffn_hidden_size
    assert (norm, rotary, gated) == (2 * 100 * 4096, 40 * (4096 + 1024), 10 * 14336)
    expected = model.layers * tokens * (norm + rotary + gated) / hbm
    fused, eager = (_eager_step(model, flag) for flag in (False, True))
    assert eager.compute_s - fused.compute_s == pytest.approx(expected, rel=1e-9)
    assert 0.05 < expected / fused.compute_s < 0.15


def test_eager_stacks_are_the_pytorch_ones_that_run_llama_op_by_op():
    eager = {name for name, stack in tr.SOFTWARE.items() if stack.kernels.elementwise == "eager"}
    assert eager == {"PyTorch FSDP", "torchtitan 2024"}
    assert set(tr.EAGER_ELEMENTWISE_SOURCES) <= set(tr.software("torchtitan 2024").sources)


def test_an_op_by_op_adam_step_costs_the_bytes_counted_from_pytorchs_adamw():
    # One GPU updates all of Llama 3 8B: the op-by-op step moves 80 B per parameter against
    # 24 + 2 + 2 for one fused kernel, at the HBM rate; nothing else in the step changes.
    model = tr.transformer_model("Llama 3 8B")
    hbm = tr.DEFAULT_EFFICIENCIES.memory_bandwidth * catalog.gpu("A100 SXM").hbm_bandwidth_bytes_per_s
    fused, eager = (_eager_step(model, True, optimizer={"update": update}) for update in ("fused", "op by op"))
    assert tr.EAGER_ADAMW_BYTES == 80
    fused_bytes = tr.DEFAULT_EFFICIENCIES.optimizer_bytes_per_parameter + 2 + 2
    assert eager.optimizer_s - fused.optimizer_s == pytest.approx(
        tr.parameter_count(model) * (tr.EAGER_ADAMW_BYTES - fused_bytes) / hbm, rel=1e-9)
    assert eager.step_s - eager.optimizer_s == pytest.approx(fused.step_s - fused.optimizer_s, rel=1e-12)


@pytest.mark.parametrize("fused", [True, False])
@pytest.mark.parametrize("every_step", [True, False])
def test_clipping_the_gradients_costs_a_norm_read_and_a_scale_per_updated_parameter(fused, every_step, monkeypatch):
    # Every stack reads each FP32 gradient for the global norm (4 B per parameter a GPU updates);
    # PyTorch's clip_grad_norm_ then multiplies each by the clamped coefficient on every step
    # (read 4, write 4), Megatron-LM only on the steps it clips. Nothing but the optimizer moves.
    from interconnect_lab.training import terms
    model = tr.transformer_model("Llama 3 8B")
    hbm = tr.DEFAULT_EFFICIENCIES.memory_bandwidth * catalog.gpu("A100 SXM").hbm_bandwidth_bytes_per_s
    changes = dict(optimizer={"update": "fused" if fused else "op by op",
                              "clipping": "every step" if every_step else "over threshold"})
    clipped = _eager_step(model, True, **changes)
    monkeypatch.setattr(terms, "GRADIENT_CLIP_BYTES", 0.0)
    monkeypatch.setattr(terms, "GRADIENT_NORM_BYTES", 0.0)
    unclipped = _eager_step(model, True, **changes)
    assert (tr.GRADIENT_NORM_BYTES, tr.GRADIENT_CLIP_BYTES) == (4, 12)
    clip_bytes = tr.GRADIENT_CLIP_BYTES if every_step else tr.GRADIENT_NORM_BYTES
    assert clipped.optimizer_s - unclipped.optimizer_s == pytest.approx(
        tr.parameter_count(model) * clip_bytes / hbm, rel=1e-9)
    assert clipped.step_s - clipped.optimizer_s == pytest.approx(unclipped.step_s - unclipped.optimizer_s, rel=1e-12)


def test_only_megatron_stacks_and_deepspeeds_bf16_optimizer_scale_their_gradients_just_on_the_steps_they_clip():
    conditional = {name for name, stack in tr.SOFTWARE.items() if stack.optimizer.clipping == "over threshold"}
    megatron = {"Megatron-LM SC21", "Megatron-LM SC21, torch DDP", "Megatron-LM 2022", "Megatron-LM 2023",
                "MegaScale", "Megatron-Core 2024", "Megatron-Core 2024 FP8"}
    assert conditional == megatron | {"Megatron-DeepSpeed 2022, BF16"}
    megatron_clip, pytorch_clip = tr.GRADIENT_CLIP_SOURCES[1], tr.GRADIENT_CLIP_SOURCES[0]
    assert "Megatron-LM" in megatron_clip.title and "clip_grad.py" in pytorch_clip.title
    for name in megatron - {"MegaScale"}:             # MegaScale cites its paper, on Megatron-LM 2023's code
        assert megatron_clip in tr.software(name).sources
    # DeepSpeed's BF16_Optimizer: clip_tensors_by_global_norm scales only if clip_coef < 1.
    assert any("clip_tensors_by_global_norm" in source.locator
               for source in tr.software("Megatron-DeepSpeed 2022, BF16").sources)


def test_op_by_op_optimizers_are_pytorchs_default_adamw_and_composers():
    # Megatron-LM, DeepSpeed, Llama 3 and NeMo step a fused Adam; the PyTorch-native stacks do not.
    eager = {name for name, stack in tr.SOFTWARE.items() if stack.optimizer.update == "op by op"}
    assert eager == {"PyTorch FSDP", "llm-foundry 2023, PURE", "llm-foundry 2023, DEFAULT", "torchtitan 2024",
                     "torchtitan 2024, compiled", "torchtitan 2024, compiled FP8",
                     "torchtitan 2024, compiled FP8, async TP", "torchtitan 2024, compiled FP8, FP8 all-gather",
                     "flash-attention GPT, FlashAttention-2", "flash-attention GPT, FlashAttention-1"}
    assert set(tr.EAGER_OPTIMIZER_SOURCES) <= set(tr.software("PyTorch FSDP").sources)


def test_flash_attention_backward_flops_come_from_a_source():
    # Five matmuls (the recomputed scores and the four gradients) over the forward's two.
    assert tr.FLASH_ATTENTION_BACKWARD_FLOPS == pytest.approx(5 / 2)
    assert "benchmark_flash_attention.py" in tr.FLASH_ATTENTION_BACKWARD_SOURCE.url


def test_every_attention_kernel_names_its_sources():
    assert set(tr.ATTENTION_KERNEL_SOURCES) == set(tr.ATTENTION_KERNELS)
    for kernel, sources in tr.ATTENTION_KERNEL_SOURCES.items():
        assert sources and all(source.url for source in sources), kernel


def test_the_first_flash_attention_keeps_its_a100_ratio_to_flash_attention_2():
    # The first FlashAttention (and its slightly slower Triton port, which MPT ran): 40% of an
    # A100 (FlashAttention-2's abstract), which FlashAttention-2 raised to 72%. On Hopper, where
    # it was never measured, it keeps that ratio to FlashAttention-2's shares, in both passes.
    first, fa2 = tr.ATTENTION_KERNELS["FlashAttention-1"], tr.ATTENTION_KERNELS["FlashAttention-2"]
    assert first["A100 SXM"] == (0.40, 0.40)
    assert set(first) == set(fa2)
    for gpu in fa2:
        for part in ("forward", "backward"):
            assert getattr(first[gpu], part) / getattr(fa2[gpu], part) == pytest.approx(0.40 / 0.72), gpu
    assert first["H100 SXM"].forward < first["A100 SXM"].forward < fa2["A100 SXM"].forward


def test_hopper_attention_shares_are_flash_attention_3s_measurements():
    # FlashAttention-3's Figures 5-6 (H100 SXM5, head dimension 128, 16K tokens), over the
    # catalog's 989.4 TFLOP/s: causal forward 335 / 539 / 616 TFLOP/s, backward 322 / 516 / 561.
    kernels = tr.ATTENTION_KERNELS
    peak = catalog.gpu("H100 SXM").bf16_flop_per_s / u.TFLOP_per_s
    for kernel, (forward, backward) in {"FlashAttention-2": (335, 322), "cuDNN": (539, 516),
                                        "FlashAttention-3": (616, 561)}.items():
        share = kernels[kernel]["H100 SXM"]
        assert share.forward == pytest.approx(forward / peak)
        assert share.backward == pytest.approx(backward / peak)
        assert share.backward < share.forward                 # the backward pass is the slower one
    # FlashAttention-2 on Hopper: the third of peak FlashAttention-3's abstract speaks of.
    assert kernels["FlashAttention-2"]["H100 SXM"].forward == pytest.approx(0.35, abs=0.02)
    # Megatron-Core runs Transformer Engine, which prefers cuDNN's fused attention on Hopper.
    assert tr.software("Megatron-Core 2024").kernels.attention == "cuDNN"


def test_hopper_attention_shares_follow_the_benchmark_by_length():
    # Tolerance: the figures' bar labels are whole TFLOP/s.
    peak = catalog.gpu("H100 SXM").bf16_flop_per_s / u.TFLOP_per_s
    for (kernel, length), (forward, backward) in _FA3_FIGURE_POINTS.items():
        share = tr.attention_share(kernel, "H100 SXM", length, head_dim=128)
        assert share.forward * peak == pytest.approx(forward, abs=0.5), (kernel, length)
        assert share.backward * peak == pytest.approx(backward, abs=0.5), (kernel, length)
    # Head dimension 64 (FlashAttention-3's Figure 5, causal, 16K): cuDNN 388 TFLOP/s forward.
    assert tr.attention_share("cuDNN", "H100 SXM", 16384, 64).forward * peak == pytest.approx(388, abs=0.5)
    # At its best measured point the lookup is the kernel's one share in ATTENTION_KERNELS.
    for kernel in ("FlashAttention-1", "FlashAttention-2", "FlashAttention-3", "cuDNN"):
        for gpu in ("H100 SXM", "H200 SXM"):
            assert tr.attention_share(kernel, gpu, 16384, 128) == pytest.approx(tr.ATTENTION_KERNELS[kernel][gpu])
    # The curves are flat by 16K (what holding the last point beyond it rests on): from 8K to 16K no
    # kernel, pass or head dimension gains 3%.
    for kernel in ("FlashAttention-2", "FlashAttention-3", "cuDNN"):
        for head_dim in (64, 128):
            at_8k, at_16k = (tr.attention_share(kernel, "H100 SXM", n, head_dim) for n in (8192, 16384))
            assert all(long / short - 1 < 0.03 for short, long in zip(at_8k, at_16k)), (kernel, head_dim)
    # Every kernel is slower at 512 tokens than at 16K, by a third or more.
    for kernel in tr.ATTENTION_KERNELS:
        short, long = (tr.attention_share(kernel, "H100 SXM", n).forward for n in (512, 16384))
        assert short < 0.7 * long, kernel


def test_attention_shares_hold_at_every_length_where_one_figure_is_published():
    # On the A100 the papers give one share per kernel: 72% for FlashAttention-2, 40% for the first.
    for length in (128, 2048, 65536):
        assert tr.attention_share("FlashAttention-2", "A100 SXM", length, 64) == (0.72, 0.72)
        assert tr.attention_share("FlashAttention-1", "A100 SXM 40GB", length) == (0.40, 0.40)
    # No measured share: the GEMM rate alone caps the kernel.
    assert tr.attention_share("cuDNN", "A100 SXM", 4096) is None


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(sorted(tr.ATTENTION_KERNELS)), st.floats(1, 1e7), st.integers(16, 512))
def test_hopper_attention_shares_stay_within_what_was_measured(kernel, length, head_dim):
    # Interpolation never leaves the measured range; beyond it the nearest point holds.
    share = tr.attention_share(kernel, "H100 SXM", length, head_dim)
    lowest = [tr.attention_share(kernel, "H100 SXM", n, d) for n in tr.ATTENTION_BENCHMARK_LENGTHS for d in (64, 128)]
    for part in (0, 1):
        assert min(s[part] for s in lowest) - 1e-12 <= share[part] <= max(s[part] for s in lowest) + 1e-12
    if length >= tr.ATTENTION_BENCHMARK_LENGTHS[-1]:
        assert share == pytest.approx(tr.attention_share(kernel, "H100 SXM", tr.ATTENTION_BENCHMARK_LENGTHS[-1], head_dim))
    if head_dim >= 128:
        assert share == pytest.approx(tr.attention_share(kernel, "H100 SXM", length, 128))


def test_attention_share_takes_an_array_of_lengths():
    lengths = np.array([512.0, 2048.0, 16384.0])
    share = tr.attention_share("cuDNN", "H100 SXM", lengths)
    assert share.forward.shape == (3,)
    assert share.forward[1] == pytest.approx(tr.attention_share("cuDNN", "H100 SXM", 2048).forward)


@pytest.mark.parametrize("kwargs, match", [
    (dict(kernel="Flash", gpu="H100 SXM", sequence_length=2048), "kernel"),
    (dict(kernel="cuDNN", gpu="H100 SXM", sequence_length=0), "sequence_length"),
    (dict(kernel="cuDNN", gpu="H100 SXM", sequence_length=float("nan")), "sequence_length"),
    (dict(kernel="cuDNN", gpu="H100 SXM", sequence_length=2048, head_dim=0), "head_dim"),
])
def test_attention_share_rejects_bad_input(kwargs, match):
    with pytest.raises(ValueError, match=match):
        tr.attention_share(**kwargs)


def test_context_parallel_attention_runs_at_the_share_of_its_block(monkeypatch):
    # Ring attention runs each kernel call over one rank's block of keys: eight-way context
    # parallelism at 64K tokens runs attention as 8K-token calls, at the 8K share.
    from interconnect_lab.training import terms
    lengths = []

    def spy(kernel, gpu, sequence_length, head_dim=128):
        lengths.append(float(sequence_length))
        return tr.attention_share(kernel, gpu, sequence_length, head_dim)

    monkeypatch.setattr(terms, "attention_share", spy)
    hopper = tr.Cluster(name="H100 pod", gpu="H100 SXM", gpus_per_node=8, scale_up_link="NVLink 4",
                        scale_out_link="InfiniBand NDR", nics_per_node=8)
    model = dataclasses.replace(tr.MODELS["Llama 3 8B"], sequence_length=65536)
    for context_parallel in (1, 8):
        config = tr.parallel_config(8, global_batch_size=8 // context_parallel, microbatch_size=1,
                                    context_parallel=context_parallel, recompute="none")
        tr.training_step(model, hopper, config, "Megatron-Core 2024")
    assert set(lengths) == {65536.0, 8192.0}
