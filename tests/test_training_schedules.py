"""Chapter 8 additions: the pipeline schedule pass by pass, what each parallelism sends, network what-ifs."""

import dataclasses

import numpy as np
import pytest

from interconnect_lab import training as tr
from interconnect_lab import units as u


@pytest.mark.parametrize(("p", "m", "v"), [
    (1, 4, 1), (2, 1, 1), (4, 2, 1), (4, 4, 1), (4, 8, 1), (8, 64, 1),
    (2, 4, 2), (4, 8, 2), (4, 12, 3), (8, 16, 4), (8, 24, 3),
])
def test_simulated_bubble_is_sc21s_formula(p, m, v):
    # SC21 §2.2: (p-1)/(v m) of the ideal time, for the plain and the interleaved 1F1B schedule.
    schedule = tr.pipeline_schedule(p, m, v)
    assert schedule.bubble_fraction == pytest.approx(tr.pipeline_bubble_fraction(p, m, v), abs=1e-9)
    assert schedule.stage.size == 2 * p * m * v


@pytest.mark.parametrize("ratio", [2.0, 3.0])
def test_schedule_respects_dependencies_and_runs_one_pass_at_a_time(ratio):
    p, m, v = 4, 8, 2
    schedule = tr.pipeline_schedule(p, m, v, backward_ratio=ratio)
    ends = {}
    for stage, backward, microbatch, chunk, start, end in zip(
            schedule.stage, schedule.backward, schedule.microbatch, schedule.chunk, schedule.start, schedule.end):
        ends[(bool(backward), int(microbatch), int(chunk) * p + int(stage))] = (start, end)
        assert end - start == pytest.approx((ratio if backward else 1.0) / v)
    for (backward, microbatch, virtual), (start, _) in ends.items():
        if not backward and virtual > 0:
            assert start >= ends[(False, microbatch, virtual - 1)][1] - 1e-12
        if backward:
            before = (True, microbatch, virtual + 1) if virtual < p * v - 1 else (False, microbatch, virtual)
            assert start >= ends[before][1] - 1e-12
    for stage in range(p):
        on_stage = schedule.stage == stage
        starts, stops = schedule.start[on_stage], schedule.end[on_stage]
        order = np.argsort(starts)
        assert np.all(starts[order][1:] >= stops[order][:-1] - 1e-12)       # never two passes at once
        assert stops.max() - starts.min() <= schedule.makespan + 1e-12
    assert schedule.ideal == m * (1 + ratio)


def test_schedule_rejects_what_megatron_rejects():
    with pytest.raises(ValueError, match="multiple of pipeline_parallel = 4"):
        tr.pipeline_schedule(4, 6, 2)
    with pytest.raises(ValueError, match="pipeline_parallel"):
        tr.pipeline_schedule(0, 4)
    with pytest.raises(ValueError, match="backward_ratio"):
        tr.pipeline_schedule(2, 4, backward_ratio=0)


def gpt3_config(**more):
    return tr.parallel_config(1024, global_batch_size=1536, tensor_parallel=8, pipeline_parallel=8, **more)


def test_traffic_is_what_the_step_charges_when_nothing_overlaps():
    config = gpt3_config()
    step = tr.training_step("GPT-3 175B", "Selene", config)
    rows = tr.parallel_traffic("GPT-3 175B", "Selene", config)
    by_kind = {kind: sum(r.time_s for r in rows if r.kind == kind) for kind in ("tensor", "pipeline", "data")}
    assert by_kind["tensor"] == pytest.approx(step.tensor_parallel_s, rel=1e-12)
    assert by_kind["pipeline"] == pytest.approx(step.pipeline_s, rel=1e-12)
    assert by_kind["data"] == pytest.approx(step.data_parallel_s, rel=1e-12)


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


def test_network_scan_is_training_step_on_each_network():
    config = tr.parallel_config(64, global_batch_size=64, recompute="full", zero_stage=3)
    scan = tr.network_scan("Llama 3 8B", "MegaScale", config, "DeepSpeed ZeRO-3")
    for cluster, step in zip(scan.clusters, scan.steps):
        assert step == tr.training_step("Llama 3 8B", cluster, config, "DeepSpeed ZeRO-3")
    assert np.all(np.diff(scan.step_s) <= 1e-12)                    # a faster network never slows the step
    assert scan.mfu.shape == scan.bandwidth_bytes_per_s.shape


def test_zero_plus_plus_gains_most_where_the_network_is_slow():
    config = tr.parallel_config(384, global_batch_size=384, recompute="full", zero_stage=3)
    plain = tr.network_scan("GPT-3 175B", "MegaScale", config, "DeepSpeed ZeRO-3")
    plus = tr.network_scan("GPT-3 175B", "MegaScale", config, "DeepSpeed ZeRO++")
    gain = plain.step_s / plus.step_s
    # On the fastest network the collectives hide; what is left of ZeRO++'s gain is the HBM
    # traffic of the fewer bytes it receives (collectives.HBM_BYTES_PER_RECEIVED_BYTE).
    assert gain[0] > 2 and 1 <= gain[-1] < 1.05
    assert np.all(np.diff(gain) <= 1e-9)
    with_hpz_only = dataclasses.replace(tr.software("DeepSpeed ZeRO-3"), hierarchical_partition=True)
    assert tr.network_scan("GPT-3 175B", "MegaScale", config, with_hpz_only).step_s[0] < plain.step_s[0]


def test_block_quantization_scales_each_block():
    g = np.random.default_rng(3).standard_t(3, 10_000)
    whole = tr.gradient_compression(g, "quantize", bits=4, rng=7)
    one_block = tr.gradient_compression(g, "quantize", bits=4, block_size=g.size, rng=7)
    assert one_block == whole                                        # one block is the whole-tensor scale
    blocks = tr.gradient_compression(g, "quantize", bits=4, block_size=100, rng=7)
    assert blocks.bytes_sent == g.size * 4 / 8 + 4 * 100            # a 4-byte scale per block
    assert blocks.relative_error < whole.relative_error / 2
    ragged = tr.gradient_compression(g[:1050], "quantize", bits=8, block_size=100, rng=7)
    assert ragged.bytes_sent == 1050 + 4 * 11                        # the last, short block has a scale too
    assert tr.gradient_compression(np.zeros(10), "quantize", block_size=3).relative_error == 0.0
    with pytest.raises(ValueError, match="block_size"):
        tr.gradient_compression(g, "quantize", block_size=0)
