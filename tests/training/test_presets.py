"""Tests of ``interconnect_lab.training.presets``: named models, clusters and training stacks, and the
defaults every published case uses.

Hostile input is at the end (and fuzzed with tests/fuzzing.py where noted).
"""

import pytest

from fuzzing import Case, choice, count, make_tests, optional

from interconnect_lab import catalog, training as tr, training, units as u


def test_system_cluster_reads_the_catalog():
    dgx = tr.system_cluster("DGX H100")
    assert (dgx.gpu, dgx.gpus_per_node, dgx.scale_up_link, dgx.scale_out_link, dgx.nics_per_node) == \
        ("H100 SXM", 8, "NVLink 4", "InfiniBand NDR", 8)
    assert dgx.scale_out_bytes_per_s == catalog.nic("ConnectX-7").per_direction_bytes_per_s
    nvl72 = tr.system_cluster("GB200 NVL72")
    assert nvl72.gpus_per_node == catalog.system("GB200 NVL72").gpus
    assert nvl72.scale_up_bytes_per_s == catalog.link("NVLink 5").per_gpu_per_direction_bytes_per_s
    small = tr.system_cluster("GB200 NVL72", gpus_per_node=8)
    assert small.nics_per_node == 8 and small.scale_out_bytes_per_s == nvl72.scale_out_bytes_per_s
    assert "8-GPU" in small.name
    assert tr.system_cluster("DGX H100", scale_out_link="Ethernet 400G").scale_out_link == "Ethernet 400G"


def test_system_cluster_rejects_bad_input():
    with pytest.raises(ValueError, match="unknown system name"):
        tr.system_cluster("DGX Z100")
    with pytest.raises(ValueError, match="gpus_per_node"):
        tr.system_cluster("DGX H100", gpus_per_node=0)
    with pytest.raises(TypeError, match="gpus_per_node"):
        tr.system_cluster("DGX H100", gpus_per_node=4.5)  # not a whole number


def test_composer_default_and_pure_differ_only_in_the_weights():
    bf16, fp32 = tr.software("llm-foundry 2023, PURE"), tr.software("llm-foundry 2023, DEFAULT")
    assert fp32.precision.fp32_weights and not bf16.precision.fp32_weights
    assert fp32.replace(name=bf16.name, precision={"fp32_weights": False}, sources=bf16.sources) == bf16
    # ... and from PyTorch FSDP only in the attention kernel MPT ran (attn_impl: triton) and in
    # MPT's single-kernel LayerNorm and GELU.
    fsdp = tr.software("PyTorch FSDP")
    # (and in the PyTorch 1.13 its table ran, whose checkpoint reran each block whole).
    assert bf16.replace(name=fsdp.name, kernels={"attention": fsdp.kernels.attention, "elementwise": "eager"},
                        checkpoint="early stop", sources=fsdp.sources) == fsdp


def test_deepspeed_pipeline_engine_presets():
    # DeepSpeed's pipeline engine (DEEPSPEED_PIPELINE_2021): plain 1F1B with blocking sends, each
    # boundary split over the tensor-parallel ranks and all-gathered after the receive, the
    # gradient reduction after the flush; FP16 (2021) or DeepSpeed's BF16 optimizer (2022).
    fp16, bf16 = tr.software("Megatron-DeepSpeed 2021"), tr.software("Megatron-DeepSpeed 2022, BF16")
    for stack in (fp16, bf16):
        assert stack.scatter_gather and stack.overlap.pipeline == "none" and stack.overlap.data_parallel == "none"
        assert stack.kernels.attention == "unfused"
    assert (fp16.precision.gradient_bytes, fp16.optimizer.clipping) == (2, "every step")
    assert (bf16.precision.gradient_bytes, bf16.optimizer.clipping) == (4, "over threshold")
    assert any("e2fdd254e" in source.locator for source in fp16.sources)


def test_deepspeed_zero3_2021_and_metaseq_presets():
    zero3 = tr.software("DeepSpeed ZeRO-3 2021")
    assert zero3.overlap.data_parallel == "per submodule" and zero3.kernels.attention == "unfused"
    assert zero3.precision.gradient_bytes == 2 and not zero3.scatter_gather
    assert any("adac058ac" in source.locator for source in zero3.sources)
    metaseq = tr.software("metaseq 2022")
    assert (metaseq.overlap.data_parallel, metaseq.overlap.tensor_parallel, metaseq.precision.gradient_bytes,
            metaseq.kernels.attention) == ("per layer", "none", 2, "unfused")


def test_fp8_all_gather_differs_from_its_stack_in_that_choice_alone():
    base, gathered = tr.software("torchtitan 2024, compiled FP8"), tr.software(
        "torchtitan 2024, compiled FP8, FP8 all-gather")
    assert gathered.precision.fp8_all_gather and not base.precision.fp8_all_gather
    assert gathered.replace(name=base.name, precision={"fp8_all_gather": False}, sources=base.sources) == base


def test_scale_out_variants_keep_everything_but_the_network():
    base = tr.cluster("MegaScale")
    variants = tr.scale_out_variants(base)
    rates = [v.scale_out_bytes_per_s for v in variants]
    assert rates == sorted(set(rates))
    assert rates[0] == pytest.approx(100 * u.Gbit_per_s / 8)
    assert all(v.gpu == base.gpu and v.gpus_per_node == base.gpus_per_node for v in variants)
    assert variants[-1].nics_per_node == 8                         # one port per GPU where it can be
    assert [v.nics_per_node for v in tr.scale_out_variants(base, ports_per_node=[8])] == [8] * 4
    with pytest.raises(ValueError, match="no catalog network link of family 'Token Ring'"):
        tr.scale_out_variants(base, family="Token Ring")


# Hostile input: fuzzed with tests/fuzzing.py -----------------------------------------------------

MODELS = tuple(training.MODELS)

CLUSTERS = tuple(training.CLUSTERS)

SOFTWARE = tuple(training.SOFTWARE)

model = choice(MODELS)

FUZZ_CASES = [
    Case(training.transformer_model, dict(name=model)),
    Case(training.cluster, dict(name=choice(CLUSTERS))),
    Case(training.software, dict(name=choice(SOFTWARE))),
    Case(training.system_cluster, dict(system=choice(tuple(catalog.SYSTEMS)), gpus_per_node=optional(count(1, 72)),
                                       scale_out_link=optional(choice(tuple(catalog.LINKS))))),
]

test_fuzz, test_fuzz_nightly = make_tests(FUZZ_CASES)


def test_each_stack_names_the_context_parallelism_it_runs_with_its_source():
    # Megatron-LM's --cp-comm-type defaults to ["p2p"] (arguments.py @d98e8a6); torchtitan's
    # --experimental.context_parallel_rotate_method to "allgather" (config_manager.py @9dec370); Llama 3
    # all-gathers K and V (section 3.3.2); DeepSpeed's sequence parallelism is Ulysses.
    expected = {"Megatron-Core 2024": "p2p", "Megatron-Core 2024 FP8": "p2p", "Llama 3": "all_gather",
                "torchtitan 2024": "ring, all-gather rotate", "torchtitan 2024, compiled": "ring, all-gather rotate",
                "torchtitan 2024, compiled FP8": "ring, all-gather rotate",
                "torchtitan 2024, compiled FP8, async TP": "ring, all-gather rotate", "DeepSpeed ZeRO-3": "a2a"}
    for name, implementation in expected.items():
        stack = tr.software(name)
        assert stack.overlap.context_parallel == implementation, name
        assert stack.overlap.context_parallel_load_balance, name
    for name in ("Megatron-Core 2024", "torchtitan 2024", "torchtitan 2024, compiled FP8, async TP"):
        implementation = tr.software(name).overlap.context_parallel
        assert set(tr.CONTEXT_PARALLEL_SOURCES[implementation]) <= set(tr.software(name).sources), name
    assert "d98e8a64" in tr.CONTEXT_PARALLEL_SOURCES["p2p"][1].url
    assert "9dec370a" in tr.CONTEXT_PARALLEL_SOURCES["ring, all-gather rotate"][1].url
    assert set(tr.CONTEXT_PARALLEL_SOURCES) == set(tr.Overlap.CHOICES["context_parallel"]) | {"load balance",
                                                                                              "data parallel"}
