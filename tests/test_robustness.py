"""Regression tests for what hostile-input fuzzing found: each input once gave a warning,
an internal exception, a negative time, NaN or inf; now it gives a finite answer or a
ValueError/TypeError that names the parameter and the valid range."""

import math
import time
import warnings

import numpy as np
import pytest
import scipy.sparse as sp

from interconnect_lab import catalog, collectives, energy, reliability, standards, topology, training, units


@pytest.fixture(autouse=True)
def warnings_are_errors():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        yield


def test_checkpoint_plan_of_a_hopeless_job_is_a_clear_error_not_a_division_by_zero():
    # a million GPUs failing once a day each: a failure every 0.086 s against one-hour checkpoints
    with pytest.raises(ValueError, match=r"gpus = 1e\+06 .* never makes progress"):
        reliability.checkpoint_plan(1_000_000, 86_400, 3600)
    # a failure every 0.86 s against 10-minute checkpoints: a useful share near 1e-302, refused too
    with pytest.raises(ValueError, match="never makes progress"):
        reliability.checkpoint_plan(100_000, 86_400, 600)


def test_checkpoint_plan_of_an_ordinary_job_stays_finite():
    plan = reliability.checkpoint_plan([1_000, 16_384, 100_000], 5 * 365 * 86_400, 60, restart_s=600)
    assert np.all(np.isfinite(plan.slowdown)) and np.all((plan.effective_fraction > 0)
                                                         & (plan.effective_fraction <= 1))


def test_fat_tree_refuses_an_absurd_host_count_at_once():
    for hosts in (10 ** 12, 2 ** 53):
        started = time.perf_counter()
        with pytest.raises(ValueError, match=f"hosts = {hosts} is not valid"):
            topology.fat_tree(hosts, radix=64)
        assert time.perf_counter() - started < 0.1
    with pytest.raises(ValueError, match=r"hosts = 9007199254740993 is not valid: it must be <= 2\*\*53"):
        topology.fat_tree(2 ** 53 + 1, radix=64)


@pytest.mark.parametrize("call", [
    lambda: collectives.all_reduce_time(1e308, 8, 1.0, 1e-6, efficiency=0.001),
    lambda: collectives.all_reduce_time(1e6, 8, 1e9, 1e308),
    lambda: collectives.all_gather_time(1.7e308, 2 ** 40, 1.0, 0.0),
    lambda: collectives.crossover_size("all_reduce", 8, 1e9, 1e308),
    lambda: collectives.half_bandwidth_size("all_reduce", 8, 1e9, 1e308),
])
def test_collective_times_that_overflow_are_a_clear_error(call):
    # refused by a documented bound (size 1e30 B, line rate 1e18 B/s, latency 1e6 s) or named as an overflow
    with pytest.raises(ValueError, match="is not valid: it must be in|overflows"):
        call()


def test_collective_rank_counts_beyond_a_float_are_refused_not_an_overflow_error():
    with pytest.raises(ValueError, match=r"n_ranks = .* it must be <= 2\*\*53"):
        collectives.all_reduce_time(1e6, 10 ** 30, 1e9, 1e-6)
    with pytest.raises(ValueError, match=r"bandwidth_bytes_per_s = 1e-300 B/s is not valid: it must be in \[1, 1e\+18\] B/s"):
        collectives.all_reduce_time(1e6, 8, 1e-300, 1e-6)


def test_documented_infinities_remain():
    assert collectives.crossover_size("all_reduce", 2, 450e9, 3.4e-6) == math.inf
    assert collectives.half_bandwidth_size("all_reduce", 1, 450e9, 3.4e-6) == math.inf
    assert standards.local_ack_timeout_s(0) == math.inf


def test_training_time_is_never_nan():
    with pytest.raises(ValueError, match="parameters = 1e\\+300 is not valid"):
        training.training_time_s(1e300, 1e300, 1, 1e-300)
    with pytest.raises(ValueError, match="flop_per_s_per_gpu = 1e\\+308"):
        training.training_time_s(175e9, 300e9, 1024, 1e308)
    assert training.training_time_s(175e9, 0, 1024, 140e12) == 0


def test_energy_never_inf():
    with pytest.raises(ValueError, match=r"it_power_w = 1e\+300 W is not valid: it must be in \[0, 1e\+12\] W"):
        energy.lifetime_energy_j(1e300, 1e300)
    with pytest.raises(ValueError, match=r"energy_j = 1e\+308 J is not valid"):
        energy.energy_cost_usd(1e308, 1e10)
    assert math.isfinite(energy.energy_cost_usd(energy.lifetime_energy_j(1e12, 1000, pue=10), 1000))


@pytest.mark.parametrize(("checkpoint_s", "mtbf_s"), [(1e-300, 1e-300), (5e-324, 1e15), (1e15, 1e-300), (300, 86_400)])
def test_daly_interval_is_positive(checkpoint_s, mtbf_s):
    assert reliability.daly_interval(checkpoint_s, mtbf_s) > 0
    assert reliability.young_interval(checkpoint_s, mtbf_s) > 0


def test_daly_interval_still_reproduces_daly_fig_3():
    assert round(reliability.daly_interval(5 * 60, 24 * 3600) / 60) == 117


def test_per_direction_refuses_a_negative_bandwidth():
    with pytest.raises(ValueError, match=r"both_directions_value = -900 B/s is not valid: it must be >= 0 B/s"):
        units.per_direction(-900)
    with pytest.raises(ValueError, match="per_direction_value"):
        units.both_directions(1.7e308)


@pytest.mark.parametrize(("call", "error", "message"), [
    (lambda: collectives.all_reduce_time(1e6, True, 1e9, 1e-6), TypeError, "n_ranks must be a whole number"),
    (lambda: collectives.all_reduce_time(1e6, 8.0, 1e9, 1e-6), TypeError, "n_ranks must be a whole number"),
    (lambda: standards.local_ack_timeout_s(0.0), TypeError, "exponent must be a whole number"),
    (lambda: standards.local_ack_timeout_s(False), TypeError, "exponent must be a whole number"),
    (lambda: training.flops_per_token(training.transformer_model("GPT-3 175B"), recompute=[1]), ValueError,
     "recompute"),
    (lambda: collectives.collective_performance("all_reduce", 1e6, 8, 1e9, 1e-6, algorithm_efficiency=[0.5]),
     TypeError, "algorithm_efficiency must be a single real number"),
    (lambda: reliability.checkpoint_plan(1000, [1e8], 60), TypeError, "gpu_mtbf_s must be a single real number"),
])
def test_right_type(call, error, message):
    with pytest.raises(error, match=message):
        call()


@pytest.mark.parametrize(("lookup", "typed", "meant"), [
    (catalog.gpu, "h100 sxm", "H100 SXM"),
    (catalog.gpu, "H100", "H100 SXM"),
    (catalog.link, "nvlink 4", "NVLink 4"),
    (catalog.switch, "Tomahawk5", "Tomahawk 5"),
    (catalog.system, "dgx h100", "DGX H100"),
    (training.transformer_model, "llama 3 70b", "Llama 3 70B"),
])
def test_catalog_lookups_suggest_the_close_match(lookup, typed, meant):
    with pytest.raises(ValueError, match=f"did you mean '{meant}'"):
        lookup(typed)


# The flow simulator at extreme sizes and capacities ------------------------------------------------

def _small_fabric(nic_capacity_bytes_per_s, link_capacity_bytes_per_s=None):
    from interconnect_lab import fabric
    return fabric.Network(topology.fat_tree(16, radix=4, tiers=3), nic_capacity_bytes_per_s=nic_capacity_bytes_per_s,
                          link_capacity_bytes_per_s=link_capacity_bytes_per_s)


@pytest.mark.parametrize(("size_bytes", "nic_capacity_bytes_per_s", "message"), [
    # 5e-324 B at 50 GB/s finished at "0 s": link utilization 0/0 = NaN, throughput inf
    (5e-324, 50e9, r"size_bytes = 4\.94066e-324 B is not valid: it must be in \[1e-30, 1e\+30\] B"),
    # 1e30 B at 1e-300 B/s finished at inf s: utilization NaN
    (1e30, 1e-300, r"nic_capacity_bytes_per_s = 1e-300 B/s is not valid: it must be in \[1e-30, 1e\+18\] B/s"),
    # 1e-300 B at 1e300 B/s: a time of 0 s again
    (1e-300, 1e300, r"nic_capacity_bytes_per_s = 1e\+300 B/s is not valid"),
])
def test_simulate_refuses_sizes_and_capacities_whose_times_leave_the_float_range(size_bytes, nic_capacity_bytes_per_s,
                                                                                  message):
    from interconnect_lab import fabric
    with pytest.raises(ValueError, match=message):
        network = _small_fabric(nic_capacity_bytes_per_s)
        fabric.simulate(network, fabric.permutation(network.hosts, size_bytes, seed=0))


@pytest.mark.parametrize("routing", ["ecmp", "spray", "adaptive"])
@pytest.mark.parametrize(("size_bytes", "capacity_bytes_per_s"), [(1e-30, 1e18), (1e30, 1e-30), (1e-30, 1e-30),
                                                                   (1e30, 1e18)])
def test_simulate_is_finite_at_the_corners_of_the_documented_ranges(size_bytes, capacity_bytes_per_s, routing):
    from interconnect_lab import fabric
    network = _small_fabric(capacity_bytes_per_s, capacity_bytes_per_s)
    result = fabric.simulate(network, fabric.permutation(network.hosts, size_bytes, seed=3), routing)
    assert np.all(np.isfinite(result.completion_times_s)) and result.completion_time_s > 0
    assert np.all(np.isfinite(result.link_utilization)) and result.link_utilization.max() <= 1 + 1e-12
    assert result.throughput_bytes_per_s.max() <= capacity_bytes_per_s * (1 + 1e-12)


@pytest.mark.parametrize(("call", "error", "message"), [
    (lambda f: f.simulate(_small_fabric(50e9), f.background(16, 0.5, seed=1)), ValueError,
     "has no foreground flow"),
    (lambda f: f.all_to_all(16, 1e-29, skew=10, seed=0), ValueError,
     r"size_bytes = 1e-29 B with skew = 10 gives flows from 1\.45375e-40"),
    (lambda f: f.all_to_all(16, 1e6, skew=1e300, seed=0), ValueError, r"skew = 1e\+300 is not valid: it must be in \[0, 10\]"),
    (lambda f: f.ring_all_reduce(range(8), 1e-30), ValueError,
     r"message_bytes = 1e-30 B is not valid for 8 ranks: each flow carries message_bytes / 8"),
    (lambda f: _small_fabric(1.0).with_degraded_links(16, 1e-31), ValueError, r"fraction = 1e-31 is not valid here"),
    (lambda f: _small_fabric(50e9).with_link_capacity(16, 1e19), ValueError,
     r"capacity_bytes_per_s = 1e\+19 B/s is not valid: it must be 0 \(a failed link\) or in \[1e-30, 1e\+18\] B/s"),
    (lambda f: f.simulate_flows([[0]], [1.0], [1e-31]), ValueError, "size_bytes = 1e-31 B"),
    (lambda f: f.FlowSimulation(np.array([[1e-300]]), [1.0], [1.0]), ValueError, "incidence weights must be >= 1e-30"),
    (lambda f: f.background(16, [0.5], seed=0), TypeError, "fraction must be a single real number"),
    (lambda f: _small_fabric([50e9]), TypeError, "nic_capacity_bytes_per_s must be a single real number"),
])
def test_fabric_inputs_that_would_leave_the_float_range(call, error, message):
    from interconnect_lab import fabric
    with pytest.raises(error, match=message):
        call(fabric)


# The incast port: bounded work, retransmissions counted in whole packets -----------------------------

def test_incast_retransmitted_bytes_are_zero_without_loss_for_any_packet_size():
    from interconnect_lab.fabric import incast_port
    # 2 senders of 7 packets of 1.1 B: the bytes sent, summed a packet at a time, came to
    # 5.3e-15 B less than 14 x 1.1, and retransmitted_bytes was -5.3e-15.
    result = incast_port(2, 7 * 1.1, 1e9, 1e9, 1.1, "lossless", link_delay_s=1e-6, header_bytes=1.0)
    assert result.retransmitted_bytes == 0.0 and result.drops == 0


def test_incast_counts_a_size_of_whole_packets_as_that_many_packets():
    from interconnect_lab.fabric import IncastSimulation
    # 7 x 7.77 / 7.77 = 7.000000000000001 in floats: it was rounded up to 8 packets
    simulation = IncastSimulation(1, 7 * 7.77, 1e9, 1e9, 7.77, "lossless", link_delay_s=1e-6, header_bytes=1.0)
    assert simulation.flows[0].packets == 7


def test_incast_retransmitted_bytes_are_whole_packets_under_loss():
    from interconnect_lab.fabric import IncastSimulation
    simulation = IncastSimulation(16, 64 * 1500.3, 50e9, 8 * 1500.3, 1500.3, "drop-tail", link_delay_s=1e-6,
                                  retransmission_timeout_s=1e-4)
    result = simulation.run()
    assert result.drops > 0
    assert result.retransmitted_bytes == simulation.retransmitted_packets * 1500.3 >= 1500.3
    assert simulation.retransmitted_packets == simulation.sent_packets - 16 * 64


@pytest.mark.parametrize(("arguments", "options", "message"), [
    # 2,000 one-packet senders trimmed into a one-packet buffer: 10.7 s of CPU before
    ((2000, 4096, 50e9, 4096, 4096, "trimming"), dict(link_delay_s=1e-6),
     r"needs more than max_events = 100000 events .* 2000 senders of 1 packets .* fewer n_senders"),
    # 512 senders of 64 packets with a timeout of 1 ns: 6.3 s before
    ((512, 64 * 4096, 50e9, 4096, 4096, "drop-tail"), dict(link_delay_s=1e-6, retransmission_timeout_s=1e-9),
     r"n_senders = 512 senders of size_bytes = 262144 B in packets of packet_bytes = 4096 B make more than "
     r"MAX_PACKETS = 8192 packets"),
    # 8 senders of 1 GB: 2 million packets, 19.6 s before
    ((8, 1e9, 50e9, 32 * 4096, 4096, "lossless"), dict(link_delay_s=1e-6), "make more than MAX_PACKETS"),
    # 1e300 B in 1-byte packets: a list of 1e300 packets
    ((1, 1e300, 50e9, 4096, 1, "lossless"), dict(link_delay_s=1e-6, header_bytes=1), "make more than MAX_PACKETS"),
    ((10 ** 6, 4096, 50e9, 4096, 4096, "lossless"), dict(link_delay_s=1e-6), r"n_senders = 1000000 is not valid"),
])
def test_incast_work_is_bounded(arguments, options, message):
    from interconnect_lab.fabric import incast_port
    # The named refusal is the bound: the packet bound refuses before any packet is built, the
    # event budget after MAX_EVENTS events (about 0.3 s; benchmarks, not this test, time it),
    # where these inputs ran for 6-20 s before.
    with pytest.raises(ValueError, match=message):
        incast_port(*arguments, **options)


def test_incast_event_budget_can_be_raised_on_purpose():
    from interconnect_lab.fabric.incast import MAX_EVENTS, incast_port
    arguments = (128, 64 * 4096, 50e9, 64 * 4096, 4096, "trimming")
    with pytest.raises(ValueError, match="max_events"):
        incast_port(*arguments, link_delay_s=1e-6)
    result = incast_port(*arguments, link_delay_s=1e-6, max_events=3 * MAX_EVENTS)
    assert result.trims > 0 and result.efficiency <= 1


@pytest.mark.parametrize(("options", "error", "message"), [
    # a 1-byte packet at 1e300 B/s took "0 s": goodput 1 B / 0 s
    (dict(link_bytes_per_s=1e300), ValueError, r"link_bytes_per_s = 1e\+300 B/s is not valid: it must be in \[1, 1e\+18\]"),
    (dict(packet_bytes=1e300, buffer_bytes=1e300, size_bytes=1e300), ValueError, r"packet_bytes = 1e\+300 B"),
    (dict(link_delay_s=1e308), ValueError, r"link_delay_s = 1e\+308 s is not valid: it must be in \[0, 1e\+06\] s"),
    (dict(retransmission_timeout_s="1 ms"), TypeError, "retransmission_timeout_s must be a real number"),
    (dict(size_bytes=[4096.0]), TypeError, "size_bytes must be a single real number"),
    (dict(max_events=1.5), TypeError, "max_events must be a whole number"),
])
def test_incast_inputs_out_of_range(options, error, message):
    from interconnect_lab.fabric import incast_port
    arguments = dict(n_senders=2, size_bytes=4096, link_bytes_per_s=50e9, buffer_bytes=4096, packet_bytes=4096,
                     flow_control="lossless", link_delay_s=1e-6)
    with pytest.raises(error, match=message):
        incast_port(**{**arguments, **options})


# Modules fuzzed in tests/test_fuzz_more.py: MoE, inference, roadmap, GEMM rates -------------------

A100 = catalog.gpu("A100 SXM")


def _ep64_traffic():
    from interconnect_lab import moe
    return moe.all_to_all_traffic(4096, 7168, 8, 64, experts=256, domain_size=8, hierarchical=True)


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
     "network_link must be a catalog link's name"),
    (lambda m: m.moe_layer_step("DeepSeek-V3", 4096, 64, gpu=0), TypeError, "gpu must be a catalog GPU's name"),
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


def test_expected_ranks_per_token_of_many_experts_is_quick_and_exact():
    from interconnect_lab import moe
    # C(2**20, 2**19): binomials of 300,000 digits, which took minutes; now refused, and a large top_k
    # below the bound is a product of ratios
    with pytest.raises(ValueError, match=r"experts = 1048576 is not valid: it must be in \[1, 65536\]"):
        moe.expected_ranks_per_token(2 ** 20, 2 ** 19, 2)
    started = time.process_time()
    value = moe.expected_ranks_per_token(2 ** 16, 2 ** 12, 64)
    assert time.process_time() - started < 0.1
    exact = 64 * (1 - math.comb(2 ** 16 - 2 ** 10, 2 ** 12) / math.comb(2 ** 16, 2 ** 12))
    assert value == pytest.approx(exact, rel=1e-12)
    assert moe.expected_ranks_per_token(256, 8, 64) == 64 * (1 - math.comb(252, 8) / math.comb(256, 8))


@pytest.mark.parametrize(("call", "error", "message"), [
    # message_bytes = inf, refused inside the collective model as "size_bytes"
    (lambda i: i.tensor_parallel_decode_all_reduce("Llama 3 70B", 8, bytes_per_element=1.7e308), ValueError,
     r"bytes_per_element = 1\.7e\+308 B is not valid: it must be in \(0, 64\] B"),
    (lambda i: i.tensor_parallel_decode_all_reduce("Llama 3 70B", 8, bytes_per_element=(2, 3)), TypeError,
     "bytes_per_element must be a single real number"),
    (lambda i: i.serving_deployment("Llama 3 70B", 1.5), TypeError, "gpu must be a catalog GPU's name"),
    # an overflow in memory.decode_step (context x batch), then "tokens = ..." from the KV cache
    (lambda i: i.serving_deployment("Llama 3 70B", context_tokens=1.7e308), ValueError,
     r"context_tokens = 1\.7e\+308 token is not valid: it must be in \[1, 1e\+15\] token"),
    (lambda i: i.serving_deployment("Llama 3 70B", disaggregated=1), TypeError, "disaggregated must be True or False"),
    # an infinite time to first token
    (lambda i: i.serving_deployment("GPT-3 175B", "A100 SXM", tensor_parallel=1, compute_efficiency=5e-324), ValueError,
     r"compute_efficiency = 4\.94066e-324 is not valid: it must be in \[0\.001, 1\]"),
    (lambda i: i.serving_deployment("GPT-3 175B", "A100 SXM", tensor_parallel=1, compute_efficiency=[1.0]), TypeError,
     "compute_efficiency must be a single real number"),
    (lambda i: i.kv_transfer("OPT-66B", 512, layerwise="no"), TypeError, "layerwise must be True or False"),
    (lambda i: i.kv_transfer("OPT-66B", 512, link=400e9), TypeError, "link must be a catalog link's name"),
])
def test_inference_inputs(call, error, message):
    from interconnect_lab import inference
    with pytest.raises(error, match=message):
        call(inference)


def test_decode_step_context_has_a_bound():
    from interconnect_lab import memory
    with pytest.raises(ValueError, match=r"context_tokens = 1\.7e\+308 token is not valid: it must be in \[0, 1e\+15\]"):
        memory.decode_step("Llama 3 8B", "H100 SXM", context_tokens=1.7e308, batch=2)


@pytest.mark.parametrize(("call", "error", "message"), [
    (lambda r: r.scale_up_comparison([1.0]), TypeError, "message_bytes must be a single real number"),
    (lambda r: r.tensor_parallel_all_reduce_time("NVLink 5 (GB200 NVL72)", 1e300, 8), ValueError,
     r"message_bytes = 1e\+300 B is not valid: it must be in \(0, 1e\+30\] B"),
    # round() of an array: an internal TypeError
    (lambda r: r.multi_plane_fabric(1024, nic_bytes_per_s=(2, 3)), TypeError,
     "nic_bytes_per_s must be a single real number"),
    (lambda r: r.network_parts(8192, switch="Tomahawk 6", ways=2, switch_usd=1e308), ValueError,
     r"switch_usd = 1e\+308 USD is not valid: it must be in \[0, 1e\+12\] USD"),
    # "'A100 SXM' or 'B200' has none": which argument?
    (lambda r: r.generation_growth("A100 SXM", "B200"), ValueError,
     "old = 'A100 SXM' is not valid here: the catalog has no FP8 rate for it; GPUs with one are: 'H100 SXM'"),
])
def test_roadmap_inputs(call, error, message):
    from interconnect_lab import roadmap
    with pytest.raises(error, match=message):
        call(roadmap)


@pytest.mark.parametrize(("call", "error", "message"), [
    (lambda m: m.gemm_efficiency(0, 8192, 8192, 8192), TypeError, "gpu must be a catalog.GPU"),
    # 2mnk overflowed to inf (a RuntimeWarning)
    (lambda m: m.gemm_time_s(A100, 1.7e308, 1e10, 1e10), ValueError, r"m = 1\.7e\+308 elements is not valid"),
    # a rate of 0 FLOP/s and a time of inf
    (lambda m: m.gemm_time_s(A100, 8192, 8192, 8192, sustained=0.0), ValueError,
     r"sustained = 0 is not valid: it must be in \[0\.001, 1\]"),
    (lambda m: m.gemm_rate(A100, 8192, 8192, 8192, sustained=True), TypeError, "sustained must be a real number"),
    (lambda m: m.gemm_efficiency(A100, [1, 2], [1, 2, 3], 8), ValueError, "m, n and k must broadcast to one shape"),
])
def test_gemm_inputs(call, error, message):
    from interconnect_lab import matmul
    with pytest.raises(error, match=message):
        call(matmul)


# Calibration: damaged sweeps and logs ---------------------------------------------------------------

def _damaged_run(**changes):
    import dataclasses

    from interconnect_lab import calibrate
    run = calibrate.shipped_run("v100_dgx2_all_reduce")
    times = changes.pop("time_s", None)
    if times is not None:
        changes["out_of_place"] = dataclasses.replace(run.out_of_place, time_s=times(run.out_of_place.time_s.copy()))
    return dataclasses.replace(run, **changes)


def _with(index, value):
    def change(times):
        times[index] = value
        return times
    return change


@pytest.mark.parametrize(("run", "error", "message"), [
    # IndexError: boolean index did not match indexed array
    (lambda: _damaged_run(time_s=lambda t: t[:-1]), ValueError,
     "run.size_bytes has 31 rows but run.out_of_place.time_s has 30"),
    # LinAlgError: SVD did not converge (and LAPACK's DLASCL messages on stderr)
    (lambda: _damaged_run(time_s=_with(5, np.nan)), ValueError, r"run.out_of_place.time_s = nan s \(element 5\)"),
    (lambda: _damaged_run(time_s=_with(5, 1e300)), ValueError,
     r"run.out_of_place.time_s = 1e\+300 s \(element 5\) is not valid: it must be in \[1e-12, 1e\+06\] s"),
    (lambda: _damaged_run(time_s=_with(5, 0.0)), ValueError, r"run.out_of_place.time_s = 0 s"),
    (lambda: _damaged_run(size_bytes=_damaged_run().size_bytes[::-1].copy()), ValueError,
     r"run.size_bytes must grow row by row, as nccl-tests prints a sweep: row 2 \(4\.29497e\+09 B\) follows"),
    (lambda: _damaged_run(time_s=lambda t: t.astype(str)), TypeError,
     "run.out_of_place.time_s must be a one-dimensional array of numbers"),
])
def test_fits_refuse_damaged_sweeps(run, error, message):
    from interconnect_lab import calibrate
    for call in (lambda r: calibrate.fit_collective(r),
                 lambda r: calibrate.compare_with_model(r, calibrate.shipped_system("v100_dgx2_all_reduce")),
                 lambda r: calibrate.calibrated_cluster("Selene", scale_up=r)):
        with pytest.raises(error, match=message):
            call(run())


def test_fit_of_a_long_sweep_is_refused_not_minutes():
    import dataclasses

    from interconnect_lab import calibrate
    run = calibrate.shipped_run("v100_dgx2_all_reduce")
    size = np.unique(np.round(np.geomspace(8, 1e10, 256)).astype(np.int64))
    time_s = 1e-5 + size / 1e11
    measured = dataclasses.replace(run.out_of_place, time_s=time_s, algorithm_bandwidth_bytes_per_s=size / time_s,
                                   bus_bandwidth_bytes_per_s=size / time_s, check=np.zeros(size.size),
                                   checked=np.ones(size.size, bool))
    long = dataclasses.replace(run, size_bytes=size, count=size // 4, out_of_place=measured)
    started = time.process_time()
    with pytest.raises(ValueError, match="this run has 255 sizes above 0 B: a fit takes at most MAX_FIT_SIZES = 128"):
        calibrate.fit_collective(long)   # 2.6 s before
    with pytest.raises(ValueError, match=r"max_segments = 1000000 is not valid: it must be in \[1, 10\]"):
        calibrate.fit_collective(run, max_segments=10 ** 6)
    assert time.process_time() - started < 0.1


def test_parsers_refuse_what_they_accepted_damaged():
    from interconnect_lab import calibrate
    # 'Number of qps : nan' was accepted; reading run.queue_pairs then raised int('nan')
    text = calibrate.shipped_text("ib_write_bw_roce").replace("Number of qps   : 4", "Number of qps   : nan")
    with pytest.raises(ValueError, match=r"perftest output, line \d+: expected a whole number >= 1 after 'Number of qps :'"):
        calibrate.parse_perftest(text)
    # a host name with spaces in it ('nan   seville') was accepted
    text = calibrate.shipped_text("v100_dgx2_all_reduce").replace("on    seville device  0", "on nan   seville device  0")
    with pytest.raises(ValueError, match=r"nccl-tests output, line 4"):
        calibrate.parse_nccl_tests(text, collective="all_reduce")
    with pytest.raises(ValueError, match="unknown shipped log"):
        calibrate.shipped_log([1.0])   # TypeError: unhashable type: 'list'


# Direct networks -------------------------------------------------------------------------------------

def test_torus_average_hops_is_a_closed_form():
    started = time.process_time()
    assert topology.torus((2 ** 40,)).average_hops == 2 ** 38   # a loop over 2**40 distances before
    assert time.process_time() - started < 0.1
    for dims in [(3,), (4,), (5, 6, 7), (16, 16, 16)]:
        by_sum = sum(sum(min(d, k - d) for d in range(k)) / k for k in dims)
        assert topology.torus(dims).average_hops == by_sum


@pytest.mark.parametrize(("call", "error", "message"), [
    (lambda: topology.torus((2 ** 20, 2 ** 20, 2 ** 20)), ValueError, r"a torus must have at most 2\*\*53"),
    (lambda: topology.dragonfly(2 ** 20, 2 ** 20, 2 ** 20), ValueError, r"it must have at most 2\*\*53"),
    (lambda: topology.torus((4, 4), port_bytes_per_s=[1.0]), TypeError, "port_bytes_per_s must be a single real number"),
    (lambda: topology.fat_tree(64, radix=8, port_bytes_per_s=1e300), ValueError, r"port_bytes_per_s = 1e\+300 B/s"),
])
def test_topology_builders_bound_their_counts(call, error, message):
    with pytest.raises(error, match=message):
        call()


@pytest.mark.parametrize("build", [
    # 16.8 million hosts: minutes of allocation before
    lambda f: f.dragonfly_network(topology.dragonfly(64, 64, 64), link_capacity_bytes_per_s=1e9),
    lambda f: f.torus_network(topology.torus((128, 128, 128)), link_capacity_bytes_per_s=1e9),
])
def test_direct_networks_have_a_documented_size_limit(build):
    from interconnect_lab import fabric
    started = time.process_time()
    with pytest.raises(ValueError, match=r"directed links: the simulator's direct networks must have at most "
                                         r"MAX_DIRECT_LINKS = 2097152"):
        build(fabric)
    assert time.process_time() - started < 0.1


# The flow simulator and the topologies beyond the fat tree (tests/test_fuzz_fabric.py) ------------------

def _leaf_spine(capacity=100.0):
    from interconnect_lab import fabric
    return fabric.Network(topology.fat_tree(8, radix=4, tiers=2), nic_capacity_bytes_per_s=capacity)


def test_a_collective_that_never_leaves_its_server_takes_no_network_time():
    # every flow inside one server: reading the bandwidth divided by a time of 0 (ZeroDivisionError)
    from interconnect_lab import fabric
    net = _leaf_spine()
    inside = fabric.ring_all_reduce(range(4), 400.0, gpus_per_node=4)
    result = fabric.collective_time(net, inside, "spray")
    assert result.time_s == 0.0 and result.phase_results == () and result.algorithm_bandwidth_bytes_per_s is None
    assert fabric.degraded_link_effect(net, inside, 0, 0.5).slowdown == 1.0   # 0 / 0 before
    across = fabric.collective_time(net, fabric.ring_all_reduce(range(4), 400.0, gpus_per_node=2), "spray")
    assert across.time_s == 6.0 and across.algorithm_bandwidth_bytes_per_s == pytest.approx(400 / 6)


@pytest.mark.parametrize(("call", "error", "message"), [
    # checked even when no simulation runs (a list seed, a non-network were accepted)
    (lambda f, ring: f.collective_time(0, ring), TypeError, "network must be a fabric Network, got int"),
    (lambda f, ring: f.collective_time(_leaf_spine(), ring, seed=[1]), TypeError, "seed must be an integer"),
    (lambda f, ring: f.collective_time(_leaf_spine(), ring, "hash"), ValueError, "unknown routing 'hash'"),
    (lambda f, ring: f.collective_time(_leaf_spine(), ring, time_tolerance=[1e-9]), TypeError,
     "time_tolerance must be a single real number"),
    (lambda f, ring: f.collective_time(_leaf_spine(), f.ring_all_reduce([0, 9], 1.0, gpus_per_node=16)),
     ValueError, "collective.ranks = 9 is not a host of this network"),
])
def test_collective_time_checks_its_arguments_even_when_nothing_crosses_the_network(call, error, message):
    from interconnect_lab import fabric
    with pytest.raises(error, match=message):
        call(fabric, fabric.ring_all_reduce(range(4), 400.0, gpus_per_node=4))


@pytest.mark.parametrize(("hosts", "radix"), [(2 ** 40, 2 ** 14), (400_000, 128)])
def test_a_fat_tree_network_has_a_documented_size_limit(hosts, radix):
    # 2**40 hosts: minutes of allocation, then a MemoryError, before
    from interconnect_lab import fabric
    tree = topology.fat_tree(hosts, radix=radix, tiers=3)
    started = time.process_time()
    with pytest.raises(ValueError, match=r"^tree has \d+ hosts and would make a network of \d+ directed links: the "
                                         r"simulator's networks must have at most MAX_LINKS = 2097152"):
        fabric.Network(tree, nic_capacity_bytes_per_s=50e9)
    assert time.process_time() - started < 0.1


def test_the_fat_tree_and_the_direct_networks_share_one_link_limit():
    from interconnect_lab import fabric
    assert fabric.direct.MAX_DIRECT_LINKS is fabric.network.MAX_LINKS
    big = fabric.Network(topology.fat_tree(65_536, radix=64, tiers=3), nic_capacity_bytes_per_s=50e9)
    assert big.link_count == 393_216   # the book's largest still builds


def test_max_min_rates_has_the_flow_simulators_ranges():
    # one home for the numbers: the capacity and share bounds are the simulator's
    from interconnect_lab.fabric import maxmin, simulation
    assert simulation._MAX_RESOURCE_BYTES_PER_S is maxmin._MAX_RESOURCE_BYTES_PER_S


@pytest.mark.parametrize(("call", "error", "message"), [
    # 1e300 B/s over a share of 1e-300: an overflow to an infinite rate before
    (lambda f: f.max_min_rates(sp.csr_matrix([[1e-300]]), [1.0]), ValueError,
     r"incidence weights must be >= 1e-30 \(the share of a flow's bytes on a link\), got 1e-300"),
    (lambda f: f.max_min_rates([[0]], [1e300]), ValueError,
     r"capacity_bytes_per_s = 1e\+300 B/s \(element 0\) is not valid: it must be 0 \(a failed link\) or in "
     r"\[1e-30, 1e\+30\] B/s"),
    (lambda f: f.max_min_rates([[0]], [1e-300]), ValueError, r"capacity_bytes_per_s = 1e-300 B/s"),
    (lambda f: f.max_min_rates(sp.csr_matrix([[1e31]]), [1.0]), ValueError, r"incidence weights must be <= 1e\+30"),
    # a NaN share: progressive filling never ended before
    (lambda f: f.max_min_rates(np.array([[math.nan]]), [1.0]), ValueError, r"incidence = nan \(element 0\) is not valid"),
    (lambda f: f.max_min_rates(sp.csr_matrix([[math.nan]]), [1.0]), ValueError, "incidence weights must be finite"),
    (lambda f: f.max_min_rates(0, 0), TypeError, "incidence must be a flows x links matrix"),
    (lambda f: f.max_min_rates([[0]], [1.0], active="yes"), TypeError, "active must be True or False"),
    (lambda f: f.simulate_flows(sp.csr_matrix([[1e31]]), [1.0], [1.0]), ValueError, r"incidence weights must be <= 1e\+30"),
])
def test_max_min_rates_refuses_what_the_flow_simulator_refuses(call, error, message):
    from interconnect_lab import fabric
    with pytest.raises(error, match=message):
        call(fabric)


def test_max_min_rates_is_finite_with_shares_far_apart_on_one_link():
    # shares of 1e30 and 1e-30 on link 0: the large one's departure left the link no weight (a division
    # by zero and an infinite rate before); the small flow gets what link 0 has left, 0.9 B/s / 1e-30
    from interconnect_lab import fabric
    incidence = sp.csr_matrix(np.array([[1e30, 10.0], [1e-30, 0.0]]))
    result = fabric.max_min_rates(incidence, [1.0, 1e-30])
    assert result.rates_bytes_per_s == pytest.approx([1e-31, 9e29])
    assert np.all(result.load_bytes_per_s <= result.capacity_bytes_per_s * (1 + 1e-12))
    assert np.all(np.isfinite(fabric.simulate_flows(incidence, [1.0, 1e-30], [1.0, 1.0])))


def test_a_rail_optimized_tree_on_one_switch_keeps_every_host_on_it():
    # rails = 2 on a single switch put host 1 on a leaf 1 that does not exist: simulate raised an IndexError
    from interconnect_lab import fabric
    net = fabric.Network(topology.fat_tree(4, radix=8, rails=2), nic_capacity_bytes_per_s=1.0)
    assert net.tiers == 1 and net.leaf_of_host.tolist() == [0, 0, 0, 0] and net.path_count(0, 1) == 1
    for routing in fabric.ROUTINGS:   # a division by zero in each before (no up-ports to choose among)
        result = fabric.simulate(net, fabric.permutation(4, 1.0, seed=0), routing)
        assert result.completion_time_s == 1.0


@pytest.mark.parametrize(("call", "message"), [
    (lambda f: f.permutation(2 ** 40, 1.0, seed=0), r"hosts = 1099511627776 is not valid: it must be in \[2, 1048576\]"),
    (lambda f: f.background(2 ** 40, 0.5, seed=0), r"hosts = 1099511627776 is not valid"),
    (lambda f: f.rank_placement(2 ** 53), r"hosts = 9007199254740992 is not valid"),
    (lambda f: f.ring_all_reduce(2 ** 30, 1e9), r"ranks = 1073741824 is not valid"),
    (lambda f: f.all_to_all(2 ** 20, 1.0), r"all_to_all: its n \(n - 1\) = 1099510579200 flows must be at most MAX_FLOWS"),
    (lambda f: f.all_to_all(2049, 1.0), r"4194304"),
    (lambda f: f.spray_arrivals([0.0], 2 ** 40, 4096, 50e9), r"packets = 1099511627776 is not valid: it must be in "
                                                             r"\[1, 1048576\]"),
    (lambda f: f.sample_step_times(2 ** 20, 2 ** 20, 1.0, seed=0), r"n_workers \* steps = 1099511627776 times must be "
                                                                  r"at most MAX_STEP_SAMPLES = 4194304"),
    (lambda f: f.rank_timings(2 ** 30, 2, 1.0, seed=0), r"MAX_STEP_SAMPLES"),
    (lambda f: f.ecmp_collisions(_leaf_spine(1.0), samples=2 ** 40), r"samples = 1099511627776 is not valid: it must "
                                                                     r"be in \[100, 100000\]"),
])
def test_builders_refuse_absurd_counts_before_allocating(call, message):
    # each allocated arrays of 2**40 elements or more before: a MemoryError, or a process killed for memory
    from interconnect_lab import fabric
    started = time.process_time()
    with pytest.raises(ValueError, match=message):
        call(fabric)
    assert time.process_time() - started < 0.5


def test_the_largest_counts_still_build():
    from interconnect_lab import fabric
    assert fabric.all_to_all(2048, 1.0).flow_count == 2048 * 2047 <= fabric.traffic.MAX_FLOWS
    assert fabric.permutation(fabric.traffic.MAX_HOSTS, 1.0, seed=0).flow_count == 2 ** 20
    arrivals = fabric.spray_arrivals([0.0, 1e-6, 3e-6], fabric.reordering.MAX_SPRAYED_PACKETS, 4096, 50e9)
    assert arrivals.packets == 2 ** 20 and arrivals.go_back_n_accepted == 3 and arrivals.reorder_buffer_packets == 20


def test_reorder_buffer_and_go_back_n_agree_with_packet_by_packet_counts():
    # vectorized (a Python loop over a million packets took seconds); checked against the loops they replace
    from interconnect_lab import fabric

    def by_loop(arrivals):
        arrived, expected, waiting, most = np.zeros(arrivals.packets, bool), 0, 0, 0
        for seq in arrivals.arrival_order:
            arrived[seq] = True
            waiting += 1
            while expected < arrivals.packets and arrived[expected]:
                expected, waiting = expected + 1, waiting - 1
            most = max(most, waiting)
        accepted = 0
        for seq in arrivals.arrival_order:
            accepted += seq == accepted
        return most, accepted

    rng = np.random.default_rng(5)
    for _ in range(300):
        delays = rng.choice([0.0, 1e-6, 2e-6, 3.5e-6], size=int(rng.integers(1, 5)))
        arrivals = fabric.spray_arrivals(delays, int(rng.integers(1, 80)), 4096, 50e9,
                                         order=str(rng.choice(["round-robin", "random"])), seed=int(rng.integers(99)))
        assert (arrivals.reorder_buffer_packets, arrivals.go_back_n_accepted) == by_loop(arrivals)


def test_sample_step_times_without_jitter_has_a_row_per_step():
    # jitter_s = 0 gave one row, whatever the steps, and rank_timings one step
    from interconnect_lab import fabric
    times = fabric.sample_step_times(3, 5, 1.0, slow_fraction=1.0, slowdown=0.5, seed=0)
    assert times.shape == (5, 3) and np.all(times == 1.5)
    assert fabric.rank_timings(3, 5, 1.0, slow_ranks=[1], seed=0).step_s.tolist() == [1.1] * 5


def test_detect_slow_ranks_scores_stay_finite_when_most_ranks_agree():
    # medians 0, 0, 0 and 1e18: a spread of the smallest float, and the score overflowed to inf
    from interconnect_lab import fabric
    result = fabric.detect_slow_ranks([[0.0, 0.0, 0.0, 1e18]])
    assert np.all(np.isfinite(result.score)) and result.flagged.tolist() == [3]
    # times near the float limit overflowed the median itself (NaN scores): refused
    with pytest.raises(ValueError, match=r"compute_s = 1\.7e\+308 s \(element 2\) is not valid: it must be in \[0, 1e\+18\] s"):
        fabric.detect_slow_ranks([[0.0, 1e17, 1.7e308, 1.7e308]])
    assert fabric.detect_slow_ranks(np.zeros((2, 4))).score.tolist() == [0.0] * 4
    assert fabric.detect_slow_ranks([[1.0, 1.0, 1.0, 1.0 + 1e-9]]).flagged.tolist() == [3]


@pytest.mark.parametrize(("call", "error", "message"), [
    # internal numpy errors, AttributeErrors and silent conversions before
    (lambda f: f.incast([0, [1.0]], 2, 1.0), TypeError, r"senders must be a one-dimensional sequence of host numbers"),
    (lambda f: f.incast([0, 1], 2, [1.0, 2.0]), TypeError, "size_bytes must be a single real number"),
    (lambda f: f.combine(0), TypeError, "every argument of combine must be a fabric Traffic: argument 1 is int"),
    (lambda f: f.Traffic([0], [1], 1.0, background="yes"), TypeError, "background must be True or False"),
    (lambda f: f.Traffic([0], [1], True), TypeError, "size_bytes must be a number"),
    (lambda f: f.Traffic([0], [1], 1.0, name=5), TypeError, "name must be a str"),
    (lambda f: f.Traffic([0, 1], [1, 2], [1.0, 2.0, 3.0]), ValueError, r"size_bytes has shape \(3,\) for 2 flows"),
    (lambda f: f.explicit_routes(_leaf_spine(), f.Traffic([0], [2], 1.0), 0), TypeError, "paths must be a sequence"),
    (lambda f: f.explicit_routes(_leaf_spine(), f.Traffic([0], [2], 1.0), [[0.5, 16.0]]), TypeError,
     r"paths\[0\] must be a link number"),
    (lambda f: f.incidence_matrix([[1e300]]), TypeError, r"paths\[0\] must be a sequence of link numbers"),
    (lambda f: f.incidence_matrix([[0.7]]), TypeError, r"paths\[0\] must be a sequence of link numbers"),  # link 0
    (lambda f: f.incidence_matrix([1.0]), TypeError, r"paths\[0\] must be a sequence of link numbers"),
    (lambda f: f.incidence_matrix([], weights=0), ValueError, "weights must be a sequence of one sequence"),
    (lambda f: f.incidence_matrix([[0]], resources=True), TypeError, "resources must be a whole number"),
    (lambda f: f.simulate_routes(0), TypeError, "routes must be a fabric Routes"),
    (lambda f: f.simulate_flows([[0]], [1.0], [1.0], time_tolerance=[1e-9]), TypeError,
     "time_tolerance must be a single real number"),
    (lambda f: f.compare_routings(_leaf_spine(), f.permutation(8, 1.0, seed=0), "ecmp"), TypeError,
     "routings must be a sequence of routing names"),   # ran 'e', 'c', ... before
    (lambda f: f.compare_routings(_leaf_spine(), f.permutation(8, 1.0, seed=0), []), ValueError,
     "routings must name at least one routing"),
    # seeds the call does not use (no skew, round-robin, rail-aligned, spraying) went unchecked
    (lambda f: f.route(_leaf_spine(), f.permutation(8, 1.0, seed=0), "spray", seed=[1.0]), TypeError,
     "seed must be an integer"),
    (lambda f: f.all_to_all(4, 1.0, seed=[1.0]), TypeError, "seed must be an integer"),
    (lambda f: f.rank_placement(4, seed=-2), ValueError, "seed = -2 is not valid"),
    (lambda f: f.spray_arrivals([0.0], 4, 4096, 50e9, seed=[1.0]), TypeError, "seed must be a whole number"),
    (lambda f: _leaf_spine().with_failed_links(1e300), ValueError, r"links = 1e\+300 is not a link of this network"),
    (lambda f: f.ecmp_collisions(_leaf_spine(1.0), seed=-1), ValueError, "seed = -1 is not valid: it must be >= 0"),
    (lambda f: f.ecmp_collisions(f.Network(topology.fat_tree(6, radix=4, tiers=2), nic_capacity_bytes_per_s=1.0)),
     ValueError, "network must be a fully built tree for the prediction: this one has 6 hosts of 8"),
    (lambda f: f.spray_arrivals([0.0], 4, [1.0], 1.0), TypeError, "packet_bytes must be a single real number"),
    (lambda f: f.spray_arrivals([0.0], 4, 1e308, 1e-300), ValueError,   # NaN times before
     r"packet_bytes = 1e\+308 B is not valid: it must be in \[1e-30, 1e\+30\] B"),
    (lambda f: f.spray_arrivals([0.0], 4, 4096, 1e-300), ValueError, r"link_bytes_per_s = 1e-300 B/s is not valid"),
    (lambda f: f.sample_step_times(3, 5, 1.0, seed=-1), ValueError, "seed = -1 is not valid: it must be >= 0"),
    (lambda f: f.rank_timings(4, 2, 1.0, slow_ranks=[1.5], seed=0), TypeError, "slow_ranks must be a rank"),  # rank 1
    (lambda f: f.rank_timings(4, 2, 1.0, slow_ranks=[1e300], seed=0), TypeError, "slow_ranks must be a rank"),
    (lambda f: f.rank_timings(4, 2, 1.0, slow_ranks=[1], slowdown=1e300, seed=0), ValueError,   # 1e300 s steps
     r"slowdown = 1e\+300 is not valid: it must be in \[0, 1e\+06\]"),
    (lambda f: f.detect_slow_ranks([["a", "b", "c"]]), TypeError, "compute_s must be a real number"),
    (lambda f: f.detect_slow_ranks([[1.0, 2.0, 3.0], [1.0]]), TypeError, "compute_s must be a real number"),
    (lambda f: f.detect_slow_ranks([[1.0, 1.0, 1.0]], threshold=[8.0]), TypeError, "threshold must be a single"),
    (lambda f: f.degraded_link_effect(_leaf_spine(), f.ring_all_reduce(range(8), 800.0), 16, [0.5]), TypeError,
     "fraction must be a single real number"),
])
def test_fabric_inputs_of_the_wrong_shape_or_type(call, error, message):
    from interconnect_lab import fabric
    with pytest.raises(error, match=message):
        call(fabric)


def test_a_flow_on_a_failed_link_is_refused_before_the_simulation_runs():
    # a RuntimeError once the simulation found it stuck; a background flow there raised it too
    from interconnect_lab import fabric
    with pytest.raises(ValueError, match=r"flow 1 crosses link 1, whose capacity_bytes_per_s is 0"):
        fabric.simulate_flows([[0], [1]], [1.0, 0.0], [1.0, 1.0])
    times = fabric.simulate_flows([[0], [1]], [1.0, 0.0], [1.0, np.inf], background=[False, True])
    assert times[0] == 1.0 and np.isnan(times[1])
    # ... even with a finite size (a division by its zero rate)
    times = fabric.simulate_flows([[0], [1], [0]], [0.0, 1e-30], 0.5, background=[True, False, True])
    assert times[1] == pytest.approx(5e29) and np.isnan(times[[0, 2]]).all()


def test_fat_tree_radix_has_a_documented_bound():
    # a prime half-radix of 60 million: 3.2 s looking for divisors (longer for larger ones)
    started = time.process_time()
    with pytest.raises(ValueError, match=r"radix = 120000022 is not valid: it must be in \[2, 65536\]"):
        topology.rail_only(180_000_033, 1, radix=120_000_022)
    with pytest.raises(ValueError, match=r"radix = 131072 is not valid: it must be in \[4, 65536\]"):
        topology.topology_comparison(4096, radix=2 ** 17)
    assert time.process_time() - started < 0.1
    assert topology.fat_tree(3 * 32_749, radix=2 * 32_749, tiers=2).spines == 32_749   # the largest prime below 2**15


def test_the_ethernet_price_book_prices_a_topology_comparison():
    # its switch is a breakout, "Tomahawk 5 (128 x 400G)": 'unknown switch name' for every comparison before
    from interconnect_lab import pricebook
    table = topology.topology_comparison(4096, radix=64, prices=pricebook.H100_ETHERNET_PRICES)
    tree = table.summaries[0]
    book = pricebook.H100_ETHERNET_PRICES
    switches_usd = tree.switches * book.switch.usd * 64 / 128   # the book's switch has 128 ports
    optics_usd = math.ceil(tree.optical_port_ends / 2) * book.switch_transceiver.usd
    assert table.cost_per_host_usd[0] == pytest.approx((switches_usd + optics_usd + tree.links * book.cable.usd)
                                                       / tree.hosts)


@pytest.mark.parametrize(("call", "error", "message"), [
    (lambda: topology.fat_tree_summary(topology.fat_tree(8, radix=4), name=math.nan), TypeError, "name must be a str"),
    # the price book was read only after building (an AttributeError when no family was built)
    (lambda: topology.topology_comparison(64, radix=8, prices=0), TypeError, "prices must be a PriceBook"),
    (lambda: topology.topology_comparison(64, radix=8, estimate="middle"), ValueError, "unknown"),
    (lambda: topology.topology_comparison(64, radix=8, families=[]), ValueError,
     "families must name at least one family"),
    (lambda: topology.topology_comparison(64, radix=8, families=[["torus"]]), ValueError, r"unknown family \['torus'\]"),
])
def test_topology_comparison_inputs(call, error, message):
    with pytest.raises(error, match=message):
        call()
