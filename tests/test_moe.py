"""Mixture of experts: architectures, all-to-all bytes, skewed routing, timing, bad input."""

import math
import subprocess
import sys
import textwrap

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from interconnect_lab import moe

# --- Architectures against their papers ----------------------------------------------------


@pytest.mark.parametrize(("name", "total", "activated", "tolerance"), [
    # DeepSeek-V3 technical report, abstract and §4.2: "671B total parameters with 37B activated".
    ("DeepSeek-V3", 671e9, 37e9, 0.02),
    # Mixtral of Experts, §2: "47B parameters", "13B active parameters" (46.7B / 12.9B in Mistral's release).
    ("Mixtral 8x7B", 46.7e9, 12.9e9, 0.01),
])
def test_parameter_counts_match_the_papers(name, total, activated, tolerance):
    model = moe.moe_model(name)
    assert model.total_parameters == pytest.approx(total, rel=tolerance)
    assert model.activated_parameters == pytest.approx(activated, rel=tolerance)


def test_unknown_model_lists_the_valid_names():
    with pytest.raises(ValueError, match="DeepSeek-V3"):
        moe.moe_model("GPT-5")


def test_model_import_needs_no_plotting():
    script = textwrap.dedent("""
        import sys
        class Block:
            def find_spec(self, name, path=None, target=None):
                if name.split('.')[0] in ('matplotlib', 'ipywidgets', 'IPython'):
                    raise ImportError('blocked: ' + name)
        sys.meta_path.insert(0, Block())
        import interconnect_lab.moe, interconnect_lab.inference
        print('ok')
    """)
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


# --- Distinct GPUs per token ----------------------------------------------------------------


def test_expected_ranks_limits():
    assert moe.expected_ranks_per_token(256, 1, 64) == pytest.approx(1.0)
    assert moe.expected_ranks_per_token(256, 8, 1) == pytest.approx(1.0)
    # One expert per GPU: every chosen expert is on its own GPU.
    assert moe.expected_ranks_per_token(64, 8, 64) == pytest.approx(8.0)


@settings(max_examples=60, deadline=None)
@given(k=st.integers(1, 16), log_n=st.integers(0, 8))
def test_expected_ranks_is_bounded_and_grows_with_the_group(k, log_n):
    n = 2 ** log_n
    d = moe.expected_ranks_per_token(256, k, n)
    assert 1.0 - 1e-12 <= d <= min(k, n) + 1e-12
    if n < 256:
        assert moe.expected_ranks_per_token(256, k, 2 * n) >= d - 1e-12


def test_expected_ranks_matches_a_simulation():
    rng = np.random.default_rng(3)
    draws = np.array([len(set(rng.choice(256, 8, replace=False) // 32)) for _ in range(20000)])
    assert moe.expected_ranks_per_token(256, 8, 8) == pytest.approx(draws.mean(), rel=0.01)


# --- Bytes -------------------------------------------------------------------------------


def test_top1_uniform_limit_and_conservation():
    t = moe.all_to_all_traffic(1000, 4096, 1, 8, bytes_per_element=2.0)
    assert t.sent_bytes == t.received_bytes == pytest.approx(1000 * 4096 * 2 * 7 / 8)
    assert t.sent_bytes + t.local_bytes == pytest.approx(1000 * 4096 * 2)
    assert t.remote_fraction == pytest.approx(7 / 8)


@settings(max_examples=60, deadline=None)
@given(tokens=st.integers(1, 20000), k=st.integers(1, 8), log_n=st.integers(0, 8), log_g=st.integers(0, 6))
def test_flat_traffic_splits_exactly_between_levels(tokens, k, log_n, log_g):
    n, g = 2 ** log_n, 2 ** log_g
    t = moe.all_to_all_traffic(tokens, 1024, k, n, experts=256, domain_size=g)
    assert t.sent_bytes == pytest.approx(t.received_bytes)
    assert t.scale_up_bytes + t.network_bytes == pytest.approx(t.sent_bytes)
    assert t.copies_per_token <= k + 1e-12


@settings(max_examples=40, deadline=None)
@given(k=st.integers(1, 8), log_n=st.integers(4, 8))
def test_hierarchical_sends_fewer_network_bytes_than_flat(k, log_n):
    n = 2 ** log_n
    flat = moe.all_to_all_traffic(4096, 7168, k, n, experts=256, domain_size=8)
    tiered = moe.all_to_all_traffic(4096, 7168, k, n, experts=256, domain_size=8, hierarchical=True)
    assert tiered.network_bytes <= flat.network_bytes + 1e-6


def test_node_limited_routing_caps_the_network_copies():
    free = moe.all_to_all_traffic(4096, 7168, 8, 64, experts=256, domain_size=8, hierarchical=True)
    limited = moe.all_to_all_traffic(4096, 7168, 8, 64, experts=256, domain_size=8, hierarchical=True,
                                     max_domains_per_token=4)
    assert limited.network_bytes < free.network_bytes
    assert limited.network_bytes <= 4096 * 7168 * 2 * 4


def test_one_domain_sends_nothing_over_the_network():
    t = moe.all_to_all_traffic(4096, 7168, 8, 72, experts=288 // 4 * 4, domain_size=72)
    assert t.network_bytes == 0.0 and t.scale_up_bytes == pytest.approx(t.sent_bytes)


# --- Skewed routing ------------------------------------------------------------------------


def test_routing_draw_is_reproducible_and_conserves_copies():
    a = moe.routing_load(8192, 64, 2, 8, skew=0.8, seed=5)
    b = moe.routing_load(8192, 64, 2, 8, skew=0.8, seed=5)
    assert np.array_equal(a.tokens_per_gpu, b.tokens_per_gpu)
    assert a.tokens_per_gpu.sum() == a.tokens_per_expert.sum() == 8192 * 2


def test_uniform_routing_is_nearly_even_and_skew_makes_a_hot_gpu():
    even = moe.routing_load(2 ** 20, 256, 8, 64, skew=0.0, seed=0)
    assert even.imbalance_factor == pytest.approx(1.0, abs=0.01)
    shares = moe.zipf_expert_shares(256, 1.0)
    assert shares.sum() == pytest.approx(1.0) and shares[0] == shares.max()
    skewed = moe.routing_load(2 ** 20, 256, 8, 64, skew=1.0, seed=0)
    assert skewed.imbalance_factor > 3.0


def test_capacity_factor_drops_only_above_capacity():
    load = moe.routing_load(2 ** 16, 64, 2, 8, skew=0.0, seed=1, capacity_factor=2.0)
    assert load.dropped_tokens == 0.0
    hot = moe.routing_load(2 ** 16, 64, 2, 8, skew=1.2, seed=1, capacity_factor=1.25)
    capacity = hot.capacity_per_expert
    assert hot.dropped_tokens == pytest.approx(np.maximum(hot.tokens_per_expert - capacity, 0).sum())
    assert 0 < hot.dropped_fraction < 1


def test_incast_fan_in():
    # Claim (t): a flat all-to-all of 1,024 GPUs in 8-GPU nodes makes each GPU the target of 1,016 at once.
    assert moe.incast_fan_in(1024, 8) == 1016
    assert moe.incast_fan_in(1024, 8, hierarchical=True) == 127
    assert moe.incast_fan_in(64, 72) == 0


# --- Timing --------------------------------------------------------------------------------


def _a2a(ep, domain, link, path="host-initiated (NCCL)", imbalance=1.0):
    traffic = moe.all_to_all_traffic(4096, 7168, 8, ep, experts=256, bytes_per_element=1.0, domain_size=domain,
                                     hierarchical=True)
    return moe.expert_parallel_all_to_all(traffic, scale_up_link=link, imbalance_factor=imbalance, path=path)


def test_nvl72_domain_beats_eight_gpu_nodes_for_ep64():
    hgx, rack = _a2a(64, 8, "NVLink 4"), _a2a(64, 72, "NVLink 5")
    assert hgx.bottleneck == "network" and rack.network is None
    assert hgx.time_s / rack.time_s > 5


def test_the_bandwidth_term_scales_with_the_busiest_gpu():
    one, two = _a2a(64, 8, "NVLink 4"), _a2a(64, 8, "NVLink 4", imbalance=2.0)
    assert two.network.bandwidth_term_s == pytest.approx(2 * one.network.bandwidth_term_s)


def test_gpu_initiated_saves_latency_not_bandwidth():
    host, gpu = _a2a(64, 8, "NVLink 4"), _a2a(64, 8, "NVLink 4", path="GPU-initiated (IBGDA)")
    assert gpu.time_s < host.time_s
    assert gpu.network.bandwidth_term_s == pytest.approx(host.network.bandwidth_term_s)
    assert gpu.counts_s == 0.0 < host.counts_s


def test_layer_step_parts_add_up():
    step = moe.moe_layer_step("DeepSeek-V3", 4096, 64, gpu="H100 SXM")
    assert step.compute_s == pytest.approx(step.attention_s + step.experts_s)
    assert step.communication_s == pytest.approx(step.dispatch.time_s + step.combine.time_s)
    assert 0 < step.communication_share < 1
    hidden = moe.moe_layer_step("DeepSeek-V3", 4096, 64, gpu="H100 SXM", overlap_fraction=1.0)
    assert hidden.step.step_s < step.step.step_s
    training = moe.moe_layer_step("DeepSeek-V3", 4096, 64, gpu="H100 SXM", backward=True)
    assert training.compute_s == pytest.approx(3 * step.compute_s)
    assert training.communication_s == pytest.approx(2 * step.communication_s)


def test_communication_sms_slow_compute():
    free = moe.moe_layer_step("DeepSeek-V3", 4096, 64, gpu="H100 SXM")
    busy = moe.moe_layer_step("DeepSeek-V3", 4096, 64, gpu="H100 SXM", communication_sm_fraction=20 / 132)
    assert busy.compute_s == pytest.approx(free.compute_s / (1 - 20 / 132))


# --- Bad input -------------------------------------------------------------------------------


@pytest.mark.parametrize(("call", "message"), [
    (lambda: moe.expected_ranks_per_token(256, 8, 48), "ep_degree = 48 is not valid for 256 experts"),
    (lambda: moe.expected_ranks_per_token(8, 9, 8), "top_k = 9"),
    (lambda: moe.all_to_all_traffic(-1, 4096, 2, 8), "tokens_per_gpu = -1 token"),
    (lambda: moe.all_to_all_traffic(10, 4096, 2, 12, domain_size=8), "must span whole domains"),
    (lambda: moe.all_to_all_traffic(10, 4096, 2, 8, hierarchical=True), "need `experts`"),
    (lambda: moe.routing_load(100, 64, 2, 8, skew=-1), "skew = -1"),
    (lambda: moe.routing_load(100, 64, 2, 8, capacity_factor=0.5), "capacity_factor = 0.5"),
    (lambda: moe.expert_parallel_all_to_all(moe.all_to_all_traffic(1, 8, 1, 2), imbalance_factor=0.5),
     "imbalance_factor = 0.5"),
    (lambda: moe.communication_path("MPI"), "valid communication paths are"),
    (lambda: moe.moe_layer_step("DeepSeek-V3", 4096, 64, communication_sm_fraction=1.0),
     "communication_sm_fraction = 1"),
])
def test_bad_input_names_the_parameter(call, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace("`", ".")):
        call()


def test_wrong_types_are_type_errors():
    with pytest.raises(TypeError):
        moe.expert_parallel_all_to_all("many bytes")
    with pytest.raises(TypeError):
        moe.moe_model(3)
    assert not math.isnan(moe.all_to_all_traffic(0, 4096, 2, 8).remote_fraction)


# --- Published: DeepEP on H800 and DeepSeek-V3 ------------------------------------------------

from interconnect_lab import catalog, collectives  # noqa: E402
from interconnect_lab.catalog.variants import variant_gpu, variant_link  # noqa: E402
from interconnect_lab.published.moe import (  # noqa: E402
    DEEPEP_LOW_LATENCY, DEEPEP_NORMAL, DEEPEP_NORMAL_SETUP, DEEPSEEK_V3_TRAINING)


def _modelled(m):
    s = m.setup
    d, c = moe.dispatch_and_combine(
        s.tokens_per_gpu, s.hidden_size, s.top_k, m.ep_degree, experts=s.experts, domain_size=s.gpus_per_node,
        hierarchical=m.kernel == "normal", max_domains_per_token=s.max_nodes_per_token,
        dispatch_bytes_per_element=s.dispatch_bytes_per_element, combine_bytes_per_element=s.combine_bytes_per_element,
        scale_up_link="NVLink 4 (H800)", network_link="InfiniBand NDR",
        path="host-initiated (NCCL)" if m.kernel == "normal" else "GPU-initiated (IBGDA)")
    return d if m.operation == "dispatch" else c


def test_h800_links_match_deepep_stated_maxima():
    # DeepEP legacy README: "H800 (~160 GB/s NVLink maximum bandwidth)", "CX7 ... (~50 GB/s maximum bandwidth)".
    nvlink = collectives.link_parameters(variant_link("NVLink 4 (H800)"))
    assert nvlink["efficiency"] * nvlink["bandwidth_bytes_per_s"] == pytest.approx(
        DEEPEP_NORMAL_SETUP.scale_up_bytes_per_s, rel=0.01)
    assert catalog.link("InfiniBand NDR").per_direction_bytes_per_s == DEEPEP_NORMAL_SETUP.network_bytes_per_s
    assert variant_gpu("H800 SXM").bf16_flop_per_s == catalog.gpu("H100 SXM").bf16_flop_per_s


@pytest.mark.parametrize("m", DEEPEP_LOW_LATENCY, ids=lambda m: f"{m.operation}-ep{m.ep_degree}")
def test_deepep_low_latency_bytes_match_the_published_bandwidth(m):
    # DeepEP low-latency table: bandwidth = bytes each GPU moves / latency. The model's bytes
    # (FP8 + one 4-byte scale per 128 values, or BF16; 8 copies per token) reproduce it within 3%.
    traffic = _modelled(m).traffic
    moved = traffic.sent_bytes + traffic.local_bytes
    assert moved / m.latency_s == pytest.approx(m.bandwidth_bytes_per_s, rel=0.03)


@pytest.mark.parametrize("m", [m for m in DEEPEP_LOW_LATENCY if m.ep_degree >= 16],
                         ids=lambda m: f"{m.operation}-ep{m.ep_degree}")
def test_deepep_low_latency_time_within_30_percent(m):
    # DeepEP low-latency table, EP 16-256: the α-β model (GPU-initiated path) is within 30%, and faster,
    # because the kernels do not reach the port's full rate.
    model = _modelled(m).time_s
    assert model == pytest.approx(m.latency_s, rel=0.30)
    assert model < m.latency_s


@pytest.mark.parametrize("m", [m for m in DEEPEP_NORMAL if m.ep_degree != 16],
                         ids=lambda m: f"{m.operation}-ep{m.ep_degree}")
def test_deepep_normal_bottleneck_bandwidth(m):
    # DeepEP normal-kernel table: NVLink-bound at EP 8 within 5%, RDMA-bound at EP 32 and 64 within 20%.
    modelled = _modelled(m)
    assert modelled.bottleneck == ("scale-up" if m.bottleneck == "NVLink" else "network")
    tolerance = 0.05 if m.bottleneck == "NVLink" else 0.20
    assert modelled.bottleneck_bandwidth_bytes_per_s == pytest.approx(m.bandwidth_bytes_per_s, rel=tolerance)


def test_deepep_rows_the_model_misses_are_named():
    # Documented limits (chapter 11): at EP 16 the model puts the bottleneck on NVLink forwarding where
    # DeepEP measured RDMA; at EP 8 the low-latency dispatch is issue-bound, far slower than α-β says.
    ep16 = next(m for m in DEEPEP_NORMAL if m.ep_degree == 16 and m.operation == "dispatch")
    assert _modelled(ep16).bottleneck == "scale-up"
    ep8 = next(m for m in DEEPEP_LOW_LATENCY if m.ep_degree == 8 and m.operation == "dispatch")
    assert ep8.latency_s / _modelled(ep8).time_s > 1.5


def test_deepseek_v3_compute_to_communication_is_about_one():
    # DeepSeek-V3 report §3.2.1: cross-node expert parallelism gives "an inefficient
    # computation-to-communication ratio of approximately 1:1". Forward pass of one MoE layer,
    # EP 64 over 8 H800 nodes; tolerance 30% for "approximately".
    report = DEEPSEEK_V3_TRAINING
    step = moe.moe_layer_step("DeepSeek-V3", 4096, report.expert_parallel, gpu="H800 SXM",
                              domain_size=report.gpus_per_node, network_link="InfiniBand NDR")
    assert step.compute_to_communication == pytest.approx(report.compute_to_communication, rel=0.30)
