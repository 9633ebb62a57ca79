"""Activation-recomputation policies (training.RECOMPUTATION): what each reruns, costs and stores.

Megatron's three (Korthikanti et al. 2022, §4-5) and torchtitan's two selective ones
(torchtitan/distributed/activation_checkpoint.py: every second block checkpointed whole, or every
op's output saved except every second matmul's).
"""

import pytest

from interconnect_lab import training as tr

POLICIES = tuple(tr.RECOMPUTATION)


def _llama():
    return tr.transformer_model("Llama 3 8B")


def _step(recompute, model=None, cluster=None, gpus=8, software="PyTorch FSDP", **kwargs):
    config = tr.parallel_config(gpus, global_batch_size=gpus, recompute=recompute, zero_stage=3, **kwargs)
    return tr.training_step(model or _llama(), cluster or tr.system_cluster("DGX H100"), config, software)


def test_the_policies_are_megatrons_three_and_torchtitans_two():
    assert POLICIES == ("full", "selective", "none", "every other layer", "every other matmul")
    full, selective, none = (tr.RECOMPUTATION[name] for name in ("full", "selective", "none"))
    assert (full.projections, full.attention, full.elementwise, full.collectives) == (1, 1, 1, 1)
    assert (selective.projections, selective.attention, selective.elementwise) == (0, 1, 0)
    assert (none.projections, none.attention, none.elementwise, none.collectives) == (0, 0, 0, 0)
    for name in ("every other layer", "every other matmul"):
        assert "torchtitan" in tr.RECOMPUTATION[name].source.title


def test_an_unknown_policy_names_the_valid_ones():
    with pytest.raises(ValueError, match="recompute.*every other matmul"):
        tr.parallel_config(8, global_batch_size=8, recompute="op")
    with pytest.raises(ValueError, match="recompute"):
        tr.flops_per_token(_llama(), recompute="half")


def test_every_other_layer_costs_and_stores_the_mean_of_full_and_none():
    model = _llama()
    full, none, half = (tr.flops_per_token(model, recompute=name) for name in ("full", "none", "every other layer"))
    assert half == pytest.approx((full + none) / 2)
    steps = {name: _step(name) for name in ("full", "none", "every other layer")}
    assert steps["every other layer"].compute_s == pytest.approx(
        (steps["full"].compute_s + steps["none"].compute_s) / 2, rel=1e-9)
    assert steps["every other layer"].memory.activations_bytes == pytest.approx(
        (steps["full"].memory.activations_bytes + steps["none"].memory.activations_bytes) / 2, rel=1e-9)


def test_every_other_matmul_reruns_half_the_weight_gemms_and_the_elementwise_ops():
    model = _llama()
    # The FLOP count: half the projections' forward FLOPs again, no attention.
    projections = tr.flops_per_token(model, recompute="full") - tr.flops_per_token(model, recompute="selective")
    extra = tr.flops_per_token(model, recompute="every other matmul") - tr.flops_per_token(model, recompute="none")
    assert extra == pytest.approx(projections / 2)
    # It costs more than Megatron's selective recomputation and less than full; it stores less
    # than keeping everything and more than keeping only each layer's input.
    steps = {name: _step(name) for name in POLICIES}
    assert steps["none"].compute_s < steps["selective"].compute_s < steps["every other matmul"].compute_s
    assert steps["every other matmul"].compute_s < steps["full"].compute_s
    stored = {name: step.memory.activations_bytes for name, step in steps.items()}
    assert stored["full"] < stored["every other matmul"] < stored["none"]


def test_only_recomputed_collectives_run_again():
    # With tensor parallelism the full policy repeats the forward's all-reduces; torchtitan's
    # op-level policy saves collectives' outputs, its layer policy repeats half of them.
    kwargs = dict(model=_llama(), gpus=8, software="Megatron-Core 2024", tensor_parallel=8)
    layer = {name: tr.tensor_parallel_layer(_llama(), tr.system_cluster("DGX H100"),
                                            tr.parallel_config(8, global_batch_size=8, tensor_parallel=8,
                                                               recompute=name))
             for name in POLICIES}
    assert layer["full"].communication_s == pytest.approx(1.5 * layer["none"].communication_s)
    assert layer["every other layer"].communication_s == pytest.approx(1.25 * layer["none"].communication_s)
    assert layer["every other matmul"].communication_s == pytest.approx(layer["none"].communication_s)
    assert _step("every other matmul", **kwargs).step_s > 0


@pytest.mark.parametrize("name", POLICIES)
def test_a_policy_never_makes_a_step_faster_than_none(name):
    assert _step(name).compute_s >= _step("none").compute_s
    assert _step(name).hardware_flops >= _step("none").hardware_flops


def test_torchtitans_selective_read_as_megatrons_would_overrate_it():
    # torchtitan's docs/performance.md: Llama 2 70B on 64 A100 with op-level selective
    # checkpointing. Megatron's "selective" reruns only the attention core, torchtitan's half the
    # weight GEMMs: read one for the other, the step looks about a fifth faster than it is.
    run = tr.transformer_model("Llama 3 70B")
    op_level, megatron = (_step(name, model=run, cluster=tr.cluster("Selene"), gpus=64) for name in
                          ("every other matmul", "selective"))
    assert 1.10 < op_level.step_s / megatron.step_s < 1.30
