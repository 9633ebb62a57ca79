"""Tests of ``interconnect_lab.moe.traffic``: traffic and time of an MoE layer's dispatch and combine
all-to-alls.

Hostile input is at the end (and fuzzed with tests/fuzzing.py where noted).
"""

import math

import pytest
from hypothesis import given, settings, strategies as st

from fuzzing import Case, choice, count, flag, make_tests, mixed, nonnegative, optional, positive

from interconnect_lab import catalog, collectives, moe
from interconnect_lab.catalog.variants import VARIANT_GPUS, VARIANT_LINKS
from interconnect_lab.collectives.point_to_point import point_to_point


def _a2a(ep, domain, gpu, kernel="normal", imbalance=1.0):
    traffic = moe.all_to_all_traffic(4096, 7168, 8, ep, experts=256, bytes_per_element=1.0, domain_size=domain,
                                     hierarchical=True)
    return moe.expert_parallel_all_to_all(traffic, kernel=kernel, gpu=gpu, imbalance_factor=imbalance)


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


def test_node_limited_routing_hits_every_chosen_node():
    # DeepSeek-V3 §2.1.2 and DeepEP's test_internode.py choose a token's nodes by their best experts' scores,
    # so each of the 4 chosen nodes of 8 holds one of its 8 experts: 4 destination nodes, half of them remote.
    t = moe.all_to_all_traffic(4096, 7168, 8, 64, experts=256, domain_size=8, hierarchical=True,
                               max_domains_per_token=4)
    assert t.domains_per_token == 4.0 and t.remote_domains_per_token == pytest.approx(3.5)
    assert t.ranks_per_token == pytest.approx(moe.expected_ranks_per_token(128, 8, 32))


def test_without_experts_the_choices_are_independent():
    t = moe.all_to_all_traffic(128, 7168, 8, 64, domain_size=8)
    assert t.ranks_per_token == pytest.approx(64 * (1 - (63 / 64) ** 8))
    assert t.domains_per_token == pytest.approx(8 * (1 - (7 / 8) ** 8))


def test_nvl72_domain_beats_eight_gpu_nodes_for_ep64():
    hgx, rack = _a2a(64, 8, "H100 SXM"), _a2a(64, 72, "GB200")
    assert hgx.bottleneck == "network" and rack.exchange.network_bytes == 0
    assert hgx.time_s / rack.time_s > 5


def test_the_bandwidth_term_scales_with_the_busiest_gpu():
    one, two = _a2a(64, 8, "H100 SXM"), _a2a(64, 8, "H100 SXM", imbalance=2.0)
    assert two.network_s == pytest.approx(2 * one.network_s)


@pytest.mark.parametrize("kernel", tuple(collectives.EXPERT_PARALLEL_KERNELS))
def test_moe_gets_the_collective_models_numbers_for_the_same_inputs(kernel):
    # issue 35: no collective is priced outside the collectives package.
    domain = 64 if kernel == "nvlink_one_sided" else 8
    gpu = "GB200" if kernel == "nvlink_one_sided" else "H100 SXM"
    traffic = moe.all_to_all_traffic(512, 7168, 8, 64, experts=256, bytes_per_element=1.0, domain_size=domain,
                                     scale_bytes_per_token=224)
    ours = moe.expert_parallel_all_to_all(traffic, kernel=kernel, gpu=gpu, imbalance_factor=1.3)
    system = moe.expert_parallel_system(64, domain, gpu=gpu)
    theirs = collectives.expert_parallel_exchange(kernel, traffic.expert_parallel_traffic("dispatch", 1.3), system)
    assert ours.time_s == theirs.time_s and ours.exchange == theirs
    if kernel == "nccl":
        size = 512 * 1.3 * traffic.ranks_per_token * (7168 + 224)
        counts = point_to_point("all_to_all", 4 * 64, system).time_s
        assert ours.time_s == pytest.approx(point_to_point("all_to_all", size, system).time_s + counts)


def test_the_layer_prices_its_all_to_alls_through_the_collective_model():
    step = moe.moe_layer_step("DeepSeek-V3", 4096, 64, gpu="H800 SXM", kernel="normal")
    d, c = moe.dispatch_and_combine(4096, 7168, 8, 64, experts=256, max_domains_per_token=4, gpu="H800 SXM")
    assert step.dispatch.time_s == d.time_s and step.combine.time_s == c.time_s


def test_gpu_initiated_kernels_skip_the_count_exchange_of_a_host_launched_all_to_all():
    host, gpu = _a2a(64, 8, "H100 SXM", kernel="nccl"), _a2a(64, 8, "H100 SXM", kernel="low_latency")
    assert gpu.counts_s == 0.0 < host.counts_s


def test_a_decode_batch_on_host_proxies_waits_for_the_posts():
    d, _ = moe.dispatch_and_combine(128, 7168, 8, 64, kernel="host_proxied", proxy_threads=1)
    assert d.bottleneck == "posting" and d.posting_s > d.network_s


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
    (lambda: moe.expert_parallel_all_to_all(moe.all_to_all_traffic(1, 8, 1, 2), kernel="MPI"),
     "valid expert-parallel kernels are"),
    (lambda: moe.expert_parallel_all_to_all(moe.all_to_all_traffic(1, 8, 1, 16, domain_size=8), gpu="MI300X"),
     "has no NCCL architecture"),
    (lambda: moe.expert_parallel_all_to_all(moe.all_to_all_traffic(1, 8, 1, 16, domain_size=8),
                                            system=moe.expert_parallel_system(16, 8), gpu="H100 SXM"),
     "pass either system or gpu"),
    (lambda: moe.expert_parallel_all_to_all(moe.all_to_all_traffic(1, 8, 1, 16, domain_size=8),
                                            system=moe.expert_parallel_system(32, 8)),
     "does not hold the traffic's group of 16 GPUs"),
    (lambda: moe.expert_parallel_system(16, 8, network_link="NVLink 4"), "is not a network port"),
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


# Hostile input: fuzzed with tests/fuzzing.py -----------------------------------------------------

LINKS = tuple(catalog.LINKS)

NVLINKS = tuple(name for name in LINKS if name.startswith("NVLink "))

NETWORK_LINKS = tuple(name for name in LINKS if name.startswith(("InfiniBand", "Ethernet")))

KERNELS = tuple(collectives.EXPERT_PARALLEL_KERNELS)

GPUS = ("H100 SXM", "H200 SXM", "B200", "GB200", "A100 SXM", "MI300X", *VARIANT_GPUS)

power_of_two = mixed(st.sampled_from([1, 2, 4, 8, 16, 32, 64, 128, 256]))


def traffic_sent_equals_received(result, kwargs):
    assert result.sent_bytes == result.received_bytes
    assert result.copies_per_token <= result.top_k + 1e-9
    assert result.network_bytes <= result.sent_bytes * (1 + 1e-9) + 1e-9 or result.hierarchical
    assert 1 <= result.domains_per_token <= result.ranks_per_token * (1 + 1e-9)


def all_to_all_within_links(result, kwargs):
    """No level's bytes cross faster than that level's link (NVLink as NCCL counts it, 96% of a port)."""
    for one in (result if isinstance(result, tuple) else (result,)):
        system = one.exchange.system
        assert one.time_s >= max(one.scale_up_s, one.network_s, one.posting_s) >= 0
        assert one.reported_bandwidth("nvlink") <= system.nvlink_bytes_per_s * (1 + 1e-9)
        assert one.reported_bandwidth("network") <= system.nic_bytes_per_s * system.nics_per_gpu * (1 + 1e-9)


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
    Case(moe.expert_parallel_system, dict(
        ep_degree=power_of_two, domain_size=power_of_two, gpu=choice(GPUS), scale_up_link=optional(moe_link),
        network_link=network_link, nics_per_gpu=count(1, 16), cpu=choice(collectives.CPU_VENDORS))),
    Case(moe.expert_parallel_all_to_all, dict(
        traffic=mixed(valid_traffic), kernel=optional(choice(KERNELS)), operation=choice(("dispatch", "combine")),
        imbalance_factor=positive(1.0, 10.0), gpu=optional(choice(GPUS)), scale_up_link=optional(moe_link),
        network_link=optional(network_link), nics_per_gpu=optional(count(1, 4)),
        proxy_threads=optional(count(1, 64))), check=all_to_all_within_links),
    Case(moe.fp8_scale_bytes, dict(hidden_size=count(1, 65_536), block=count(1, 1024),
                                   scale_bytes=positive(0.5, 8.0))),
    Case(moe.dispatch_and_combine, dict(
        tokens_per_gpu=nonnegative(1.0, 1e6), hidden_size=count(1, 16_384), top_k=count(1, 8),
        ep_degree=power_of_two, experts=optional(mixed(st.sampled_from([64, 256]))), domain_size=power_of_two,
        max_domains_per_token=optional(count(1, 8)), dispatch_bytes_per_element=positive(0.5, 4.0),
        combine_bytes_per_element=positive(0.5, 4.0), kernel=optional(choice(KERNELS)), gpu=optional(choice(GPUS)),
        scale_up_link=optional(moe_link), network_link=optional(network_link),
        imbalance_factor=positive(1.0, 10.0)), check=all_to_all_within_links),
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
    (lambda m: m.expert_parallel_all_to_all(_ep64_traffic(), nics_per_gpu=0), ValueError,
     r"nics_per_gpu = 0 is not valid"),
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
