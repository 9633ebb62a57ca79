"""Tests of ``interconnect_lab.training.stack``: the training stack as a few records of named choices.

Hostile input is at the end.
"""

import dataclasses

import pytest

from interconnect_lab import training as tr

RECORDS = (tr.Kernels, tr.Precision, tr.Overlap, tr.Optimizer, tr.ZeroPlusPlus, tr.Software)


def test_the_three_former_pairs_are_one_field_each():
    # Attention kernel (flash_attention + attention_kernel), tensor-parallel overlap (two switches)
    # and element-wise execution (fused_norm_activation + eager_elementwise): one enumeration each.
    assert set(tr.Kernels.CHOICES["attention"]) == {"unfused", *tr.ATTENTION_KERNELS}
    assert tuple(tr.Overlap.CHOICES["tensor_parallel"]) == ("none", "backward", "pipelined")
    assert tuple(tr.Kernels.CHOICES["elementwise"]) == ("fused", "one kernel each", "eager")
    fields = {field.name for record in RECORDS for field in dataclasses.fields(record)}
    assert not fields & {"flash_attention", "attention_kernel", "tensor_parallel_overlap",
                         "tensor_parallel_backward_overlap", "fused_norm_activation", "eager_elementwise"}


def test_every_field_is_a_record_an_enumeration_a_switch_or_a_quantity():
    for record in RECORDS:
        for field in dataclasses.fields(record):
            if field.name in ("name", "sources"):
                continue
            default = field.default
            kind = ("record" if dataclasses.is_dataclass(default) else "choice" if field.name in record.CHOICES
                    else "switch" if isinstance(default, bool) else "quantity" if isinstance(default, int) else None)
            assert kind is not None, f"{record.__name__}.{field.name}"
            if kind == "choice":
                assert default in record.CHOICES[field.name]
                assert all(isinstance(text, str) and text for text in record.CHOICES[field.name].values())
        assert set(record.CHOICES) <= {field.name for field in dataclasses.fields(record)}


def _alternatives(stack):
    """Every stack that differs from ``stack`` in one choice or one switch (buckets set or cleared to suit)."""
    for field in dataclasses.fields(tr.Software):
        value = getattr(stack, field.name)
        if dataclasses.is_dataclass(value):
            for inner in dataclasses.fields(value):
                current = getattr(value, inner.name)
                options = (value.CHOICES[inner.name] if inner.name in value.CHOICES
                           else (not current,) if isinstance(current, bool) else ())
                for option in options:
                    if option == current:
                        continue
                    change = {inner.name: option}
                    if inner.name == "data_parallel":
                        buckets = 100_000_000 if option == "buckets" else 0
                        change.update(bucket_parameters=buckets, bucket_parameters_per_rank=0)
                    if inner.name == "context_parallel_load_balance" and not value.context_parallel.startswith("ring"):
                        change.update(context_parallel="ring, all-gather rotate")    # only PyTorch's rings offer it
                    try:
                        variant = stack.replace(**{field.name: change})
                    except ValueError:       # a combination the stacks cannot run cannot be built
                        continue
                    yield f"{field.name}.{inner.name}={option}", variant
        elif field.name in tr.Software.CHOICES or isinstance(value, bool):
            options = tr.Software.CHOICES.get(field.name, (not value,))
            for option in options:
                if option != value:
                    yield f"{field.name}={option}", stack.replace(**{field.name: option})


def _probes(stack):
    """Steps of runs that between them exercise every mechanism of a stack, on H100s."""
    model = dataclasses.replace(tr.transformer_model("Llama 3 8B"), sequence_length=4096)
    cluster = tr.system_cluster("DGX H100")
    configs = (tr.parallel_config(128, global_batch_size=64, tensor_parallel=4, pipeline_parallel=4,
                                  zero_stage=1, recompute="full"),
               tr.parallel_config(128, global_batch_size=16, tensor_parallel=2, context_parallel=4,
                                  zero_stage=3, recompute="full"))
    return [tr.training_step(model, cluster, config, stack) for config in configs]


def _numbers(steps):
    return [(step.breakdown(), step.hardware_flops, step.memory.total_bytes) for step in steps]


@pytest.mark.parametrize("name", sorted(tr.SOFTWARE))
def test_no_field_is_ignored_by_another(name):
    # Two fields that encode one choice leave one of them ignored whenever the other takes
    # precedence (FlashAttention off made the kernel's name moot). Here every single change to
    # every stack must show in the step of a run that exercises its mechanism.
    stack = tr.software(name)
    before = _numbers(_probes(stack))
    for change, variant in _alternatives(stack):
        assert _numbers(_probes(variant)) != before, f"{name}: {change} changes nothing"


def test_replace_takes_a_records_changes_as_a_dict():
    core = tr.software("Megatron-Core 2024")
    by_dict = core.replace(name="x", overlap={"tensor_parallel": "backward"})
    by_record = dataclasses.replace(core, name="x",
                                    overlap=dataclasses.replace(core.overlap, tensor_parallel="backward"))
    assert by_dict == by_record
    assert by_dict.overlap.data_parallel == "buckets"                        # the rest of the record stays
    assert core.replace(overlap=tr.Overlap()).overlap == tr.Overlap()        # a whole record replaces it
    assert core.replace(checkpoint="early stop").checkpoint == "early stop"


def test_a_stack_is_hashable_and_compares_by_value():
    assert tr.software("MegaScale") == tr.software("Megatron-LM 2023").replace(
        name="MegaScale", kernels={"attention": "FlashAttention-2", "elementwise": "fused", "parallel_block": True},
        overlap={"tensor_parallel": "pipelined", "pipeline": "asynchronous", "data_parallel": "per layer"},
        sources=tr.software("MegaScale").sources)
    assert len({tr.software(name) for name in tr.SOFTWARE}) == len(tr.SOFTWARE)
    assert tr.Kernels(attention="cuDNN").fused_attention and not tr.Kernels().fused_attention


# Hostile input ---------------------------------------------------------------------------------

@pytest.mark.parametrize(("build", "error", "message"), [
    (lambda: tr.Kernels(attention="FlashAttention-9"), ValueError,
     r"unknown Kernels.attention 'FlashAttention-9'.*'unfused'.*did you mean"),
    (lambda: tr.Kernels(elementwise="compiled"), ValueError, r"valid Kernels.elementwises are: 'fused'"),
    (lambda: tr.Kernels(gemm_precision="fp4"), ValueError, r"unknown Kernels.gemm_precision 'fp4'"),
    (lambda: tr.Kernels(parallel_block=1), TypeError, r"Kernels.parallel_block must be True or False"),
    (lambda: tr.Overlap(tensor_parallel="pipeline"), ValueError, r"did you mean 'pipelined'"),
    (lambda: tr.Overlap(data_parallel="buckets"), ValueError, r"'buckets' needs a bucket size"),
    (lambda: tr.Overlap(data_parallel="per layer", bucket_parameters=40_000_000), ValueError,
     r"apply to data_parallel='buckets' only, not 'per layer'"),
    (lambda: tr.Overlap(data_parallel="buckets", bucket_parameters_per_rank=2.5), TypeError,
     r"Overlap.bucket_parameters_per_rank"),
    (lambda: tr.Precision(gradient_bytes=0), ValueError, r"Precision.gradient_bytes = 0 B is not valid"),
    (lambda: tr.Precision(fp32_weights="yes"), TypeError, r"Precision.fp32_weights must be True or False"),
    (lambda: tr.Precision(fp8_all_gather=1), TypeError, r"Precision.fp8_all_gather must be True or False"),
    (lambda: tr.Precision(fp8_all_gather=True, fp32_weights=True), ValueError,
     r"fp8_all_gather = True needs 16-bit weights"),
    (lambda: tr.software("torchtitan 2024").replace(precision={"fp8_all_gather": True}), ValueError,
     r"needs FP8 linear layers, Kernels.gemm_precision = 'fp8', not 'bf16'"),
    (lambda: tr.Overlap(data_parallel="per module"), ValueError, r"did you mean 'per submodule'"),
    (lambda: tr.software("torchtitan 2024, compiled FP8, FP8 all-gather").replace(
        zero_plus_plus={"quantized_weights": True}), ValueError, r"both gather 1-byte weights: choose one"),
    (lambda: tr.Optimizer(update="fused Adam"), ValueError, r"unknown Optimizer.update 'fused Adam'"),
    (lambda: tr.Optimizer(clipping="never"), ValueError, r"'every step', 'over threshold'"),
    (lambda: tr.ZeroPlusPlus(quantized_weights=None), TypeError, r"ZeroPlusPlus.quantized_weights"),
    (lambda: tr.Software(name="x", checkpoint="early"), ValueError, r"did you mean 'early stop'"),
    (lambda: tr.Software(name="x", scatter_gather=0), TypeError, r"Software.scatter_gather must be True or False"),
    (lambda: tr.Software(name="x", kernels={"attention": "cuDNN"}), TypeError,
     r"Software.kernels must be a training.Kernels.*Software.replace"),
    (lambda: tr.Software(name="x", overlap=tr.Kernels()), TypeError, r"Software.overlap must be a training.Overlap"),
    # The flat fields of before name where each choice lives now.
    (lambda: tr.Software(name="x", flash_attention=True), TypeError,
     r"no field 'flash_attention': use kernels=Kernels\(attention=...\)"),
    (lambda: tr.software("MegaScale").replace(tensor_parallel_backward_overlap=True), TypeError,
     r"use overlap=Overlap\(tensor_parallel='backward'\)"),
    (lambda: dataclasses.replace(tr.software("MegaScale"), eager_elementwise=True), TypeError,
     r"kernels=Kernels\(elementwise='eager'\)"),
    (lambda: tr.software("MegaScale").replace(kernels={"attention_kernel": "cuDNN"}), TypeError,
     r"attention_kernel"),
])
def test_bad_input_says_how_to_fix_it(build, error, message):
    with pytest.raises(error, match=message):
        build()
