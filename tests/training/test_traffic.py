"""Tests of ``interconnect_lab.training.traffic``: what each kind of parallelism sends, over which
link, how often.
"""

import dataclasses

import pytest

from interconnect_lab import training as tr
from interconnect_lab.training import terms


def gpt3_config(**more):
    return tr.parallel_config(1024, global_batch_size=1536, tensor_parallel=8, pipeline_parallel=8, **more)


def test_tensor_parallel_volume_is_sc21s_per_layer_formula():
    # SC21 §3.2: 8 b s h (t-1)/t elements per layer and microbatch for forward + backward, plus the
    # recomputed forward's two all-reduces; two bytes per element.
    model = tr.transformer_model("GPT-3 175B")
    config = gpt3_config(recompute="none")
    (tensor,) = [r for r in tr.parallel_traffic(model, "Selene", config) if r.kind == "tensor"]
    b, s, h, t = 1, model.sequence_length, model.hidden_size, 8
    per_layer = 2 * 8 * b * s * h * (t - 1) / t
    assert tensor.sent_bytes == pytest.approx(per_layer * (model.layers // 8) * config.microbatches, rel=1e-12)
    assert tensor.link == "NVLink 3" and not tensor.crosses_network


def test_links_follow_the_rank_layout():
    rows = {(r.kind, r.collective): r for r in tr.parallel_traffic("GPT-3 175B", "Selene", gpt3_config())}
    assert rows[("pipeline", "send_recv")].link == "InfiniBand HDR"        # stages live in different nodes
    assert rows[("data", "all_reduce")].link == "InfiniBand HDR"           # one GPU per node in each group
    two_level = tr.parallel_config(1024, global_batch_size=1024, tensor_parallel=2, pipeline_parallel=8)
    data = [r for r in tr.parallel_traffic("GPT-3 175B", "Selene", two_level) if r.kind == "data"]
    assert data[0].link == "NVLink 3 + InfiniBand HDR" and data[0].crosses_network


def test_zero_traffic_matches_the_volume_table():
    config = tr.parallel_config(64, global_batch_size=64, recompute="none", zero_stage=3)
    model = tr.transformer_model("Llama 3 8B")
    size = 2 * tr.parameter_count(model)
    plain = [r for r in tr.parallel_traffic(model, "MegaScale", config, "DeepSpeed ZeRO-3") if r.kind == "data"]
    plus = [r for r in tr.parallel_traffic(model, "MegaScale", config, "DeepSpeed ZeRO++") if r.kind == "data"]
    assert [r.collective for r in plain] == ["all_gather", "all_gather", "reduce_scatter"]
    assert sum(r.message_bytes * r.calls for r in plain) == pytest.approx(3 * size, rel=1e-12)
    crossing = sum(r.message_bytes * r.calls for r in plus if r.crosses_network)
    volume = tr.zero_communication_volume(3, quantized_weights=True, hierarchical_partition=True,
                                          quantized_gradients=True)
    assert crossing == pytest.approx(volume.cross_node * size, rel=1e-12)


def test_no_traffic_for_a_single_gpu():
    assert tr.parallel_traffic("Llama 3 8B", "Selene", tr.ParallelConfig(global_batch_size=4, recompute="none")) == ()


@pytest.mark.parametrize("implementation", sorted(tr.Overlap.CHOICES["context_parallel"]))
@pytest.mark.parametrize("recompute", ["none", "full"])
def test_context_rows_are_the_exchange_the_step_charges(implementation, recompute):
    # The table lists, collective by collective, what terms.context_parallel_layer_s adds up: m x layers x it.
    model = dataclasses.replace(tr.transformer_model("Llama 3 8B"), sequence_length=65536)
    cluster = tr.system_cluster("DGX H100")
    software = tr.software("Megatron-Core 2024").replace(overlap={"context_parallel": implementation})
    config = tr.parallel_config(64, global_batch_size=8, tensor_parallel=2, context_parallel=4, recompute=recompute)
    rows = [r for r in tr.parallel_traffic(model, cluster, config, software) if r.kind == "context"]
    layer = terms.context_parallel_layer_s(model, cluster, software, recompute, 2.0, 4.0, 1.0, 0.0, 0.0)
    assert sum(r.time_s for r in rows) == pytest.approx(config.microbatches * model.layers * layer.communication_s)
    data = [r for r in tr.parallel_traffic(model, cluster, config, software) if r.kind == "data"]
    assert {r.group for r in data} == {8 * 4}                                   # d c ranks reduce gradients
