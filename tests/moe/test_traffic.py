"""Tests of ``interconnect_lab.moe.traffic``: traffic and time of an MoE layer's dispatch and combine
all-to-alls.

Hostile input is at the end (and fuzzed with tests/fuzzing.py where noted).
"""

import math

import pytest
from hypothesis import given, settings, strategies as st

from fuzzing import Case, choice, count, flag, make_tests, mixed, nonnegative, optional, positive

from interconnect_lab import catalog, collectives, moe
from interconnect_lab.catalog.variants import VARIANT_LINKS
from interconnect_lab.published.moe import DEEPEP_LOW_LATENCY, DEEPEP_NORMAL


def _a2a(ep, domain, link, path="host-initiated (NCCL)", imbalance=1.0):
    traffic = moe.all_to_all_traffic(4096, 7168, 8, ep, experts=256, bytes_per_element=1.0, domain_size=domain,
                                     hierarchical=True)
    return moe.expert_parallel_all_to_all(traffic, scale_up_link=link, imbalance_factor=imbalance, path=path)


def _modelled(m):
    s = m.setup
    d, c = moe.dispatch_and_combine(
        s.tokens_per_gpu, s.hidden_size, s.top_k, m.ep_degree, experts=s.experts, domain_size=s.gpus_per_node,
        hierarchical=m.kernel == "normal", max_domains_per_token=s.max_nodes_per_token,
        dispatch_bytes_per_element=s.dispatch_bytes_per_element, combine_bytes_per_element=s.combine_bytes_per_element,
        scale_up_link="NVLink 4 (H800)", network_link="InfiniBand NDR",
        path="host-initiated (NCCL)" if m.kernel == "normal" else "GPU-initiated (IBGDA)")
    return d if m.operation == "dispatch" else c


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


# Hostile input: fuzzed with tests/fuzzing.py -----------------------------------------------------

LINKS = tuple(catalog.LINKS)

NVLINKS = tuple(name for name in LINKS if name.startswith("NVLink "))

NETWORK_LINKS = tuple(name for name in LINKS if name.startswith(("InfiniBand", "Ethernet")))

PATHS = tuple(moe.COMMUNICATION_PATHS)

power_of_two = mixed(st.sampled_from([1, 2, 4, 8, 16, 32, 64, 128, 256]))


def traffic_sent_equals_received(result, kwargs):
    assert result.sent_bytes == result.received_bytes
    assert result.copies_per_token <= result.top_k + 1e-9
    assert result.network_bytes <= result.sent_bytes * (1 + 1e-9) + 1e-9 or result.hierarchical


def _link_rate(link, override):
    if override is not None:
        return override
    link = VARIANT_LINKS[link] if link in VARIANT_LINKS else catalog.link(link)
    return collectives.link_parameters(link)["bandwidth_bytes_per_s"]


def all_to_all_within_links(result, kwargs):
    """The bottleneck level's bytes never cross faster than that level's link."""
    rates = (_link_rate(kwargs.get("scale_up_link", "NVLink 4"), kwargs.get("scale_up_bandwidth_bytes_per_s")),
             _link_rate(kwargs.get("network_link", "InfiniBand NDR"), kwargs.get("network_bandwidth_bytes_per_s")))
    for one in (result if isinstance(result, tuple) else (result,)):
        assert one.time_s >= max(one.scale_up_s, one.network_s) >= 0
        assert one.bottleneck_bandwidth_bytes_per_s <= max(rates) * (1 + 1e-9), (one, rates)


def traffic_of(tokens, hidden, top_k, ep, experts, domain, hierarchical):
    """A valid AllToAllTraffic for the all-to-all time (its own fuzzing is the case above)."""
    return moe.all_to_all_traffic(tokens, hidden, top_k, ep, experts=experts, domain_size=domain,
                                  hierarchical=hierarchical)


valid_traffic = st.builds(
    traffic_of, st.floats(0, 1e6), st.sampled_from([1024, 4096, 7168]), st.sampled_from([1, 2, 8]),
    st.sampled_from([8, 16, 64]), st.just(256), st.sampled_from([1, 8, 64]), st.booleans())

moe_link = choice(NVLINKS + tuple(VARIANT_LINKS))

network_link = choice(NETWORK_LINKS)

FUZZ_CASES = [
    Case(moe.all_to_all_traffic, dict(
        tokens_per_gpu=nonnegative(1.0, 1e17), hidden_size=count(1, 2 ** 25), top_k=count(1, 16),
        ep_degree=power_of_two, bytes_per_element=positive(0.5, 100.0), experts=optional(mixed(st.sampled_from(
            [8, 64, 256, 1024, 2 ** 16, 2 ** 17]))), deduplicate=optional(flag()), domain_size=optional(power_of_two),
        hierarchical=flag(), max_domains_per_token=optional(count(1, 64)),
        scale_bytes_per_token=nonnegative(1.0, 1e10)), check=traffic_sent_equals_received),
    Case(moe.communication_path, dict(name=choice(PATHS))),
    Case(moe.expert_parallel_all_to_all, dict(
        traffic=mixed(valid_traffic), scale_up_link=moe_link, network_link=network_link,
        imbalance_factor=positive(1.0, 10.0), path=choice(PATHS),
        scale_up_bandwidth_bytes_per_s=optional(positive(1e6, 1e13)),
        network_bandwidth_bytes_per_s=optional(positive(1e6, 1e13))), check=all_to_all_within_links),
    Case(moe.fp8_scale_bytes, dict(hidden_size=count(1, 65_536), block=count(1, 1024),
                                   scale_bytes=positive(0.5, 8.0))),
    Case(moe.dispatch_and_combine, dict(
        tokens_per_gpu=nonnegative(1.0, 1e6), hidden_size=count(1, 16_384), top_k=count(1, 8),
        ep_degree=power_of_two, experts=optional(mixed(st.sampled_from([64, 256]))), domain_size=power_of_two,
        hierarchical=flag(), dispatch_bytes_per_element=positive(0.5, 4.0),
        combine_bytes_per_element=positive(0.5, 4.0), scale_up_link=moe_link, network_link=network_link,
        imbalance_factor=positive(1.0, 10.0), path=choice(PATHS)), check=all_to_all_within_links),
]


# Hostile input -----------------------------------------------------------------------------------

def _ep64_traffic():
    from interconnect_lab import moe
    return moe.all_to_all_traffic(4096, 7168, 8, 64, experts=256, domain_size=8, hierarchical=True)


@pytest.mark.usefixtures("warnings_are_errors")
@pytest.mark.parametrize(("call", "error", "message"), [
    # 0 tokens of 4 elements of 1.7e308 B: 0 x inf = NaN bytes sent
    (lambda m: m.all_to_all_traffic(0, 4, 1, 1, bytes_per_element=1.7e308), ValueError,
     r"bytes_per_element = 1\.7e\+308 B is not valid: it must be in \(0, 64\] B"),
    (lambda m: m.all_to_all_traffic(1, 4, 1, 1, scale_bytes_per_token=[1.0]), TypeError,
     "scale_bytes_per_token must be a single real number"),
    # "no" was true: the dispatch became hierarchical
    (lambda m: m.all_to_all_traffic(4096, 7168, 8, 64, experts=256, domain_size=8, hierarchical="no"), TypeError,
     "hierarchical must be True or False, got 'no'"),
    # an array of 2**40 shares: MemoryError
    (lambda m: m.zipf_expert_shares(2 ** 40, 1.0), ValueError, r"experts = 1099511627776 is not valid"),
    (lambda m: m.zipf_expert_shares(8, [1.0]), TypeError, "exponent must be a single real number"),
    # ceil(1e308 x tokens x k / E): OverflowError
    (lambda m: m.routing_load(100, 64, 2, 8, capacity_factor=1e308), ValueError,
     r"capacity_factor = 1e\+308 is not valid: it must be in \[1, 64\]"),
    (lambda m: m.routing_load(2 ** 53, 64, 2, 8), ValueError, r"tokens x top_k, must be <= 2\*\*53"),
    # the error named the inner parameter, "exponent"
    (lambda m: m.routing_load(100, 64, 2, 8, skew=-1), ValueError, r"skew = -1 is not valid"),
    # named "size_bytes = inf" from inside the collective model
    (lambda m: m.expert_parallel_all_to_all(_ep64_traffic(), imbalance_factor=1e308), ValueError,
     r"imbalance_factor = 1e\+308 is not valid: it must be in \[1, 64\]"),
    (lambda m: m.expert_parallel_all_to_all(_ep64_traffic(), network_bandwidth_bytes_per_s=1e-300), ValueError,
     r"network_bandwidth_bytes_per_s = 1e-300 B/s is not valid"),
    (lambda m: m.expert_parallel_all_to_all(_ep64_traffic(), network_link=7), TypeError,
     r"network_link must be a Link or the name of one \('"),
    (lambda m: m.moe_layer_step("DeepSeek-V3", 4096, 64, gpu=0), TypeError, r"gpu must be a GPU or the name of one \(.*'H800 SXM'"),
    (lambda m: m.moe_layer_step("DeepSeek-V3", 4096, 64, flop_per_s=1e-300), ValueError,
     r"flop_per_s = 1e-300 FLOP/s is not valid"),
    (lambda m: m.moe_layer_step("DeepSeek-V3", 4096, 64, backward="yes"), TypeError, "backward must be True or False"),
    # returned -inf
    (lambda m: m.fp8_scale_bytes(7168, scale_bytes=-1.7e308), ValueError, r"scale_bytes = -1\.7e\+308 B"),
    # "The truth value of an array with more than one element is ambiguous"
    (lambda m: m.dispatch_and_combine(128, 7168, 8, 64, imbalance_factor=(2, 3)), TypeError,
     "imbalance_factor must be a single real number"),
    (lambda m: m.dispatch_and_combine(128, 7168, 8, 64, dispatch_bytes_per_element=[1.0]), TypeError,
     "dispatch_bytes_per_element must be a single real number"),
    (lambda m: m.dispatch_and_combine([1.0], 7168, 8, 64), TypeError, "tokens_per_gpu must be a single real number"),
])
def test_moe_inputs(call, error, message):
    from interconnect_lab import moe
    with pytest.raises(error, match=message):
        call(moe)

test_fuzz, test_fuzz_nightly = make_tests(FUZZ_CASES)
