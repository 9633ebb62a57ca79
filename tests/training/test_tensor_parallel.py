"""Tests of ``interconnect_lab.training.tensor_parallel``: tensor parallelism layer by layer (chapter
2): where a layer's time goes and a scan over degrees.
"""

import pytest
from hypothesis import given, settings, strategies as st

from interconnect_lab import catalog, collectives, training as tr, units as u


def gpt(hidden_size, layers=8):
    return tr.TransformerModel.gpt(layers=layers, hidden_size=hidden_size, heads=hidden_size // 128,
                                   vocabulary_size=51200, sequence_length=2048)


def layer(hidden_size=12288, t=8, system="DGX H100", gpus_per_node=None, recompute="none",
          microbatch_size=1, software="Megatron-LM SC21"):
    config = tr.parallel_config(t, global_batch_size=8 * microbatch_size, tensor_parallel=t,
                                microbatch_size=microbatch_size, recompute=recompute)
    return tr.tensor_parallel_layer(gpt(hidden_size), tr.system_cluster(system, gpus_per_node=gpus_per_node),
                                    config, software)


@pytest.mark.parametrize("t", [2, 4, 8])
@pytest.mark.parametrize("b", [1, 2])
@pytest.mark.parametrize("h", [4096, 12288])
def test_forward_and_backward_volume_is_sc21s(t, b, h):
    result = layer(hidden_size=h, t=t, microbatch_size=b, recompute="none")
    elements = 8 * b * 2048 * h * (t - 1) / t
    assert result.all_reduces == 4
    assert result.message_bytes == 2 * b * 2048 * h
    assert result.sent_bytes == pytest.approx(2 * elements, rel=1e-12)   # 2-byte activations


def test_full_recomputation_adds_the_recomputed_forward_all_reduces():
    assert layer(recompute="full").all_reduces == 6
    assert layer(recompute="full").sent_bytes == pytest.approx(1.5 * layer(recompute="none").sent_bytes)


def test_a_parallel_block_halves_the_all_reduces():
    assert layer(software="MegaScale").all_reduces == layer().all_reduces // 2


def test_no_tensor_parallelism_no_communication():
    result = layer(t=1)
    assert result.sent_bytes == result.communication_s == result.exposed_s == result.step_share == 0.0


def test_time_is_the_collectives_faster_of_ring_and_nvls_over_nvlink():
    # Inside an NVSwitch domain NCCL runs the cheapest by its own estimate: NVLink SHARP on
    # 8 H100 for this layer's all-reduces (collectives.nccl_collective).
    result = layer(t=8)
    system = tr.system_cluster("DGX H100").group_system(8, 8)
    chosen = collectives.nccl_collective("all_reduce", result.message_bytes, system)
    ring = collectives.nccl_collective("all_reduce", result.message_bytes, system, algorithm="ring")
    assert chosen.algorithm == "nvls" and chosen.time_s < ring.time_s
    assert result.communication_s == pytest.approx(result.all_reduces * chosen.time_s, rel=1e-12)
    assert result.exposed_s == result.communication_s          # SC21's Megatron-LM: no overlap
    assert not result.crosses_network


def test_step_share_and_per_layer_time_add_up_to_the_step():
    result = layer(t=8, recompute="full")
    microbatches, layers = 8, 8
    assert result.step.tensor_parallel_s == pytest.approx(microbatches * layers * result.exposed_s, rel=1e-12)
    assert result.step_share == pytest.approx(result.step.tensor_parallel_s / result.step.step_s)
    assert 0 < result.step_share < 1


def _seconds_per_byte(cluster, ranks, ranks_per_node):
    """Seconds per byte of a tensor-parallel all-reduce: its bandwidth-bound slope at 1-2 GiB."""
    system = cluster.group_system(ranks, ranks_per_node)
    size = 2.0 ** 30
    return (collectives.nccl_time("all_reduce", 2 * size, system) - collectives.nccl_time("all_reduce", size, system)) / size


def test_a_group_larger_than_the_nvlink_domain_crosses_the_network_and_slows_down():
    in_rack = layer(t=24, system="GB200 NVL72")                      # 3 groups per 72-GPU rack
    split = layer(t=24, system="GB200 NVL72", gpus_per_node=8)       # 3 domains of 8 per group
    assert split.crosses_network and not in_rack.crosses_network
    # Per byte, the group that crosses the network is slower (its NIC share is the
    # bottleneck of the pipelined two-level all-reduce); for this layer's 50 MB
    # messages the 46 NVLink steps of the in-rack ring cost more latency than that.
    nvl72, eights = tr.system_cluster("GB200 NVL72"), tr.system_cluster("GB200 NVL72", gpus_per_node=8)
    assert _seconds_per_byte(eights, 24, 8) > _seconds_per_byte(nvl72, 24, 24)
    assert split.compute_s == in_rack.compute_s
    assert layer(t=8, system="GB200 NVL72", gpus_per_node=8).communication_s == \
        layer(t=8, system="GB200 NVL72").communication_s


def test_groups_that_do_not_tile_the_domain_straddle_it():
    # One group of 16 fits in a 72-GPU rack; nine groups over two racks do not all fit:
    # GPUs 64-79 are 8 in one rack and 8 in the next, and that group sets the pace.
    model, nvl72 = gpt(12288), tr.system_cluster("GB200 NVL72")
    alone = tr.tensor_parallel_layer(model, nvl72, tr.parallel_config(16, global_batch_size=8, tensor_parallel=16))
    tiled = tr.tensor_parallel_layer(model, nvl72, tr.parallel_config(144, global_batch_size=72, tensor_parallel=16))
    eight = tr.tensor_parallel_layer(model, tr.system_cluster("GB200 NVL72", gpus_per_node=8),
                                     tr.parallel_config(144, global_batch_size=72, tensor_parallel=16))
    assert not alone.crosses_network and tiled.crosses_network
    assert tiled.communication_s == eight.communication_s
    assert _seconds_per_byte(nvl72, 16, 16) <= _seconds_per_byte(nvl72, 16, 8)   # equal to 3 digits here


def test_faster_nvlink_means_less_communication_per_layer():
    h100 = tr.system_cluster("DGX H100")
    nvlink3 = tr.Cluster(name="H100 with NVLink 3", gpu="H100 SXM", gpus_per_node=8, scale_up_link="NVLink 3",
                         scale_out_link="InfiniBand NDR", nics_per_node=8)
    config = tr.parallel_config(8, global_batch_size=8, tensor_parallel=8)
    fast = tr.tensor_parallel_layer(gpt(8192), h100, config)
    slow = tr.tensor_parallel_layer(gpt(8192), nvlink3, config)
    assert slow.communication_s > fast.communication_s and slow.step_share > fast.step_share


@settings(max_examples=25, deadline=None)
@given(st.sampled_from([2, 4, 8]), st.sampled_from([2048, 4096, 8192, 16384]))
def test_wider_models_spend_a_smaller_share_on_tensor_parallelism(t, h):
    # Communication grows like h, compute like h^2: the ratio falls as the model widens.
    assert layer(hidden_size=2 * h, t=t).communication_to_compute < layer(hidden_size=h, t=t).communication_to_compute


def test_tensor_parallel_layer_rejects_a_split_that_does_not_divide_the_model():
    config = tr.parallel_config(64, global_batch_size=64, tensor_parallel=64)
    with pytest.raises(ValueError, match="not divisible by tensor_parallel = 64"):
        tr.tensor_parallel_layer(gpt(12288), "Selene", config)
    with pytest.raises(TypeError, match="ParallelConfig"):
        tr.tensor_parallel_layer(gpt(12288), "Selene", {"tensor_parallel": 8})
    assert u.GB == 1e9


def test_scan_equals_one_call_per_degree():
    model, cluster = gpt(8192), tr.system_cluster("DGX H100")
    scan = tr.tensor_parallel_scan(model, cluster, max_tensor_parallel=32)
    assert scan.tensor_parallel.tolist() == [1, 2, 4, 8, 16, 32]
    for index, t in enumerate(scan.tensor_parallel):
        one = tr.tensor_parallel_layer(model, cluster, tr.parallel_config(int(t), global_batch_size=8,
                                                                          tensor_parallel=int(t)))
        assert scan.communication_s[index] == pytest.approx(one.communication_s, rel=1e-12)
        assert scan.compute_s[index] == pytest.approx(one.compute_s, rel=1e-12)
        assert scan.step_share[index] == pytest.approx(one.step_share, rel=1e-12)
        assert scan.sent_bytes[index] == pytest.approx(one.sent_bytes, rel=1e-12)
        assert bool(scan.crosses_network[index]) == one.crosses_network


def test_scan_keeps_only_degrees_that_divide_the_model():
    assert tr.tensor_parallel_scan(gpt(4096), "Selene").tensor_parallel.tolist() == [1, 2, 4, 8, 16, 32]
    assert tr.tensor_parallel_scan(gpt(12288), "Selene", degrees=[3, 12]).tensor_parallel.tolist() == [3, 12]
    with pytest.raises(ValueError, match="not divisible by tensor_parallel = 5"):
        tr.tensor_parallel_scan(gpt(12288), "Selene", degrees=[5])
    with pytest.raises(ValueError, match="microbatch_size"):
        tr.tensor_parallel_scan(gpt(12288), "Selene", global_batch_size=8, microbatch_size=3)


POLICIES = tuple(tr.RECOMPUTATION)


def _llama():
    return tr.transformer_model("Llama 3 8B")


def _step(recompute, model=None, cluster=None, gpus=8, software="PyTorch FSDP", **kwargs):
    config = tr.parallel_config(gpus, global_batch_size=gpus, recompute=recompute, zero_stage=3, **kwargs)
    return tr.training_step(model or _llama(), cluster or tr.system_cluster("DGX H100"), config, software)


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
