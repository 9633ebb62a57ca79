"""Regression tests for what hostile-input fuzzing found: each input once gave a warning,
an internal exception, a negative time, NaN or inf; now it gives a finite answer or a
ValueError/TypeError that names the parameter and the valid range."""

import math
import time
import warnings

import numpy as np
import pytest

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
    started = time.process_time()
    with pytest.raises(ValueError, match=message):
        incast_port(*arguments, **options)
    assert time.process_time() - started < 1.0


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
