"""Fuzz every public function of the smaller model modules (see tests/fuzzing.py for the rules).

Collectives, units, energy, cost, reliability, standards, utilization,
silicon, topology (fat trees, scale-up domains), RDMA, memory and catalog
look-ups.
"""

import numpy as np
from fuzzing import (
    Case, choice, count, flag, fraction, make_tests, mixed, nonnegative, optional, positive,
)
from hypothesis import strategies as st

from interconnect_lab import (
    catalog, collectives, cost, energy, memory, rdma, reliability, silicon, standards, topology, units,
    utilization,
)

COLLECTIVES = collectives.COLLECTIVES
ALGORITHMS = tuple(collectives.ALGORITHMS)

size = nonnegative(1.0, 1e13)
rate = positive(1e6, 1e13)
latency = nonnegative(1e-9, 1e-2)
ranks = count(1, 4096)
seconds = positive(1e-3, 1e9)


def bandwidth_at_most_line_rate(result, kwargs):
    """Bus bandwidth never beats the links (in-network algorithms halve the traffic, so 2x)."""
    line = np.max(np.asarray(kwargs["bandwidth_bytes_per_s"], dtype=float))
    network = kwargs.get("network_bandwidth_bytes_per_s")
    limit = max(line, 0.0 if network is None else np.max(np.asarray(network, dtype=float))) * 2
    busbw = np.asarray(result.bus_bandwidth_bytes_per_s)
    assert np.all(busbw[np.isfinite(busbw)] <= limit * (1 + 1e-9)), (result, kwargs)
    assert np.all(np.asarray(result.time_s) >= 0)
    instant = np.asarray(result.time_s) == 0
    for rate in (result.algorithm_bandwidth_bytes_per_s, result.bus_bandwidth_bytes_per_s):
        assert np.all(np.isfinite(rate) | (instant & (kwargs["n_ranks"] == 1))), (result, kwargs)


def positive_time(result, kwargs):
    assert np.all(np.asarray(result) >= 0), result


def crossover_or_never(result, kwargs):
    """inf only where the two algorithms never swap places (documented); else a size > 0."""
    assert np.all(np.asarray(result) > 0), result
    if np.ndim(result) == 0 and result == np.inf:
        first = collectives.collective_performance(kwargs["collective"], 1e12, kwargs["n_ranks"],
                                                   kwargs["bandwidth_bytes_per_s"], kwargs["latency_s"],
                                                   kwargs["first"])
        second = collectives.collective_performance(kwargs["collective"], 1e12, kwargs["n_ranks"],
                                                    kwargs["bandwidth_bytes_per_s"], kwargs["latency_s"],
                                                    kwargs["second"])
        small_first = collectives.collective_performance(kwargs["collective"], 0.0, kwargs["n_ranks"],
                                                         kwargs["bandwidth_bytes_per_s"],
                                                         kwargs["latency_s"], kwargs["first"])
        small_second = collectives.collective_performance(kwargs["collective"], 0.0, kwargs["n_ranks"],
                                                          kwargs["bandwidth_bytes_per_s"],
                                                          kwargs["latency_s"], kwargs["second"])
        first_wins = first.time_s <= second.time_s and small_first.time_s <= small_second.time_s
        second_wins = second.time_s <= first.time_s and small_second.time_s <= small_first.time_s
        assert first_wins or second_wins, (kwargs, first.time_s, second.time_s)


def half_bandwidth_or_nothing_sent(result, kwargs):
    """inf only where nothing is sent (documented: one rank); else a size >= 0."""
    result = np.asarray(result)
    assert np.all(result >= 0), result
    if np.any(result == np.inf):
        assert np.all(collectives.collective_performance(
            kwargs["collective"], 1.0, kwargs["n_ranks"], kwargs["bandwidth_bytes_per_s"], kwargs["latency_s"],
            kwargs["algorithm"]).bandwidth_term_s == 0), kwargs


def timeout_infinite_only_for_zero(result, kwargs):
    assert (result == np.inf) == (kwargs["exponent"] == 0) and result > 0, (result, kwargs)


def interval_positive(result, kwargs):
    assert np.all(np.asarray(result) > 0), (result, kwargs)


def fraction_in_unit_interval(result, kwargs):
    assert np.all((np.asarray(result) >= 0) & (np.asarray(result) <= 1)), result


def per_direction_halves(result, kwargs):
    assert np.all((np.asarray(result) >= 0) & (np.asarray(result) <= np.asarray(kwargs["both_directions_value"])))


collective_options = dict(
    base_latency_s=latency,
    efficiency=fraction(0.05, 1.0),
)

CASES = [
    # collectives
    Case(collectives.collective_performance, dict(
        collective=choice(COLLECTIVES), size_bytes=size, n_ranks=ranks, bandwidth_bytes_per_s=rate,
        latency_s=latency, algorithm=choice(ALGORITHMS), **collective_options),
        check=bandwidth_at_most_line_rate, infinite=("algorithm_bandwidth_bytes_per_s", "bus_bandwidth_bytes_per_s")),
    Case(collectives.collective_performance, dict(
        collective=st.just("all_reduce"), size_bytes=size, n_ranks=count(2, 4096),
        bandwidth_bytes_per_s=rate, latency_s=latency, algorithm=st.just("hierarchical"),
        ranks_per_node=count(1, 16), network_bandwidth_bytes_per_s=optional(rate),
        network_latency_s=optional(latency), network_efficiency=optional(fraction(0.05, 1.0)),
        network_algorithm=optional(choice(("ring", "tree")))),
        check=bandwidth_at_most_line_rate, name="collectives.collective_performance (hierarchical)",
        infinite=("algorithm_bandwidth_bytes_per_s", "bus_bandwidth_bytes_per_s")),
    Case(collectives.collective_time, dict(
        collective=choice(COLLECTIVES), size_bytes=size, n_ranks=ranks, bandwidth_bytes_per_s=rate,
        latency_s=latency, algorithm=choice(ALGORITHMS)), check=positive_time),
    *[Case(function, dict(size_bytes=size, n_ranks=ranks, bandwidth_bytes_per_s=rate, latency_s=latency,
                          algorithm=choice(ALGORITHMS)), check=positive_time)
      for function in (collectives.all_reduce_time, collectives.all_gather_time,
                       collectives.reduce_scatter_time, collectives.broadcast_time, collectives.reduce_time,
                       collectives.all_to_all_time)],
    Case(collectives.send_recv_time, dict(size_bytes=size, bandwidth_bytes_per_s=rate, latency_s=latency),
         check=positive_time),
    Case(collectives.crossover_size, dict(
        collective=choice(COLLECTIVES), n_ranks=ranks, bandwidth_bytes_per_s=rate, latency_s=latency,
        first=choice(ALGORITHMS), second=choice(ALGORITHMS)), check=crossover_or_never, infinite=("result",)),
    Case(collectives.half_bandwidth_size, dict(
        collective=choice(COLLECTIVES), n_ranks=ranks, bandwidth_bytes_per_s=rate, latency_s=latency,
        algorithm=choice(ALGORITHMS)), check=half_bandwidth_or_nothing_sent, infinite=("result",)),
    Case(collectives.algorithm_bandwidth, dict(size_bytes=size, time_s=positive(1e-9, 1e6))),
    Case(collectives.bus_bandwidth, dict(collective=choice(COLLECTIVES), size_bytes=size, n_ranks=ranks,
                                         time_s=positive(1e-9, 1e6), in_network=flag())),
    Case(collectives.bus_bandwidth_factor, dict(collective=choice(COLLECTIVES), n_ranks=ranks,
                                                in_network=flag())),
    Case(collectives.algorithms_for, dict(collective=choice(COLLECTIVES))),
    Case(collectives.link_parameters, dict(link=choice(tuple(catalog.LINKS)))),
    Case(collectives.nvls_efficiency, dict(link_name=choice(tuple(catalog.LINKS)))),
    # units
    Case(units.per_direction, dict(both_directions_value=nonnegative(1.0, 1e15)), check=per_direction_halves),
    Case(units.both_directions, dict(per_direction_value=nonnegative(1.0, 1e15))),
    *[Case(function, {parameter: nonnegative(1e-12, 1e18), "digits": count(1, 8)})
      for function, parameter in ((units.format_bytes, "size_bytes"), (units.format_rate, "rate_bytes_per_s"),
                                  (units.format_time, "time_s"), (units.format_flop_rate, "rate_flop_per_s"),
                                  (units.format_power, "power_w"), (units.format_usd, "amount_usd"))],
    # energy and cost
    Case(energy.lifetime_energy_j, dict(it_power_w=nonnegative(1.0, 1e10), years=nonnegative(0.01, 100),
                                        pue=positive(1.0, 3.0), load=fraction())),
    Case(energy.energy_cost_usd, dict(energy_j=nonnegative(1.0, 1e20), usd_per_kwh=nonnegative(1e-3, 10))),
    Case(energy.energy_per_bit_j, dict(power_w=nonnegative(1e-3, 1e3),
                                       per_direction_bytes_per_s=positive(1e6, 1e13))),
    Case(cost.interconnect_overhead, dict(fraction=fraction())),
    Case(cost.cluster_cost, dict(gpus=count(1, 200_000), oversubscription=positive(1.0, 4.0),
                                 rail_optimized=flag(), tiers=optional(count(1, 3)),
                                 estimate=choice(("low", "central", "high"))), examples=0.5),
    Case(energy.energy_bill, dict(cluster=st.builds(cost.cluster_cost, st.integers(1, 50_000)),
                                  years=positive(0.01, 50), pue=positive(1.0, 3.0), load=fraction(),
                                  usd_per_kwh=optional(positive(1e-3, 10))), examples=0.25),
    # reliability
    Case(reliability.system_mtbf, dict(components=count(1, 10 ** 7), component_mtbf_s=seconds),
         check=interval_positive),
    Case(reliability.young_interval, dict(checkpoint_s=seconds, mtbf_s=seconds), check=interval_positive),
    Case(reliability.daly_interval, dict(checkpoint_s=seconds, mtbf_s=seconds), check=interval_positive),
    Case(reliability.optimal_checkpoint_interval, dict(checkpoint_s=seconds, mtbf_s=seconds,
                                                       model=choice(("young", "daly"))),
         check=interval_positive),
    Case(reliability.effective_training_fraction, dict(
        interval_s=seconds, checkpoint_s=nonnegative(1e-3, 1e6), mtbf_s=seconds,
        restart_s=nonnegative(1e-3, 1e6)), check=fraction_in_unit_interval),
    Case(reliability.checkpoint_plan, dict(
        gpus=mixed(st.one_of(st.integers(1, 10 ** 6), st.lists(st.integers(1, 10 ** 6), min_size=1,
                                                                max_size=5))),
        gpu_mtbf_s=seconds, checkpoint_s=positive(1.0, 1e5), restart_s=nonnegative(1.0, 1e5),
        model=choice(("young", "daly")))),
    # standards, utilization, silicon
    Case(standards.local_ack_timeout_s, dict(exponent=count(0, 40)), check=timeout_infinite_only_for_zero,
         infinite=("result",)),
    Case(utilization.step_time, dict(compute_s=nonnegative(1e-6, 1e4), communication_s=nonnegative(1e-6, 1e4),
                                     overlap_fraction=fraction())),
    Case(utilization.compute_time, dict(model_flops=positive(1e9, 1e24), peak_flop_per_s=positive(1e12, 1e16),
                                        compute_efficiency=fraction(0.01, 1.0))),
    Case(utilization.model_flops_utilization, dict(
        model_flops=positive(1e9, 1e24), time_s=positive(1e-3, 1e6), peak_flop_per_s=positive(1e12, 1e16),
        n_gpus=count(1, 100_000))),
    Case(utilization.hardware_flops_utilization, dict(
        hardware_flops=positive(1e9, 1e24), time_s=positive(1e-3, 1e6), peak_flop_per_s=positive(1e12, 1e16),
        n_gpus=count(1, 100_000))),
    Case(silicon.poisson_yield, dict(defect_density_per_m2=nonnegative(1.0, 1e5), area_m2=positive(1e-6, 0.1))),
    Case(silicon.chip_yield, dict(area_m2=positive(1e-6, 0.1), defect_density_per_m2=nonnegative(1.0, 1e5),
                                  cores=count(1, 1_000_000), spare_cores=count(0, 10_000),
                                  critical_fraction=fraction())),
    # topology
    Case(topology.max_hosts, dict(radix=count(2, 512), tiers=count(1, 3), oversubscription=positive(1.0, 8.0),
                                  rails=count(1, 16))),
    Case(topology.fat_tree, dict(hosts=count(1, 10 ** 7), radix=optional(count(2, 256)),
                                 tiers=optional(count(1, 3)), oversubscription=positive(1.0, 8.0),
                                 rails=count(1, 16)), examples=0.5),
    Case(topology.path_latency, dict(switch_hops=count(0, 10), software_s=latency, nic_s=latency,
                                     switch_latency_s=latency, link_latency_s=latency)),
    Case(topology.scale_up_domain, dict(gpus=count(1, 1024), links_per_gpu_per_chip=count(1, 32),
                                        link=choice(tuple(catalog.LINKS)))),
    Case(topology.nvlink_domain, dict(system=choice(tuple(catalog.SYSTEMS)))),
    # catalog look-ups
    Case(catalog.gpu, dict(name=choice(tuple(catalog.GPUS)))),
    Case(catalog.link, dict(name=choice(tuple(catalog.LINKS)))),
    Case(catalog.switch, dict(name=choice(tuple(catalog.SWITCHES)))),
    Case(catalog.nic, dict(name=choice(tuple(catalog.NICS)))),
    Case(catalog.system, dict(name=choice(tuple(catalog.SYSTEMS)))),
    Case(catalog.memory_tier, dict(name=choice(tuple(catalog.MEMORY_TIERS)))),
    Case(catalog.hbm_tier, dict(gpu_or_name=choice(tuple(catalog.GPUS)))),
    Case(catalog.breakout, dict(switch_or_name=choice(tuple(catalog.SWITCHES)), ways=count(1, 16))),
    # RDMA and memory
    Case(rdma.host_latency, dict(stack=choice(tuple(rdma.STACKS)), case=choice(tuple(rdma.CASES)),
                                 switch_hops=count(0, 10), switch_latency_s=latency, link_latency_s=latency)),
    Case(rdma.host_transfer, dict(size_bytes=size, stack=choice(tuple(rdma.STACKS)), link_bytes_per_s=rate,
                                  latency_s=latency, efficiency=fraction(0.05, 1.0),
                                  core_bytes_per_s=rate, cores_per_end=count(1, 64))),
    Case(rdma.host_memory_traffic, dict(bytes_per_byte=nonnegative(0.1, 10), rate_bytes_per_s=rate,
                                        nics=count(1, 16), bidirectional=flag())),
    Case(rdma.nccl_uses_gpudirect, dict(path_type=choice(tuple(rdma.PATH_TYPES)),
                                        gdr_level=choice(tuple(rdma.PATH_TYPES)))),
    Case(rdma.gpu_transfer, dict(size_bytes=size, path=choice(tuple(rdma.GPU_PATHS)),
                                 nic=choice(tuple(catalog.NICS)), gpus_sharing_host=count(1, 8),
                                 bidirectional=flag(), efficiency=fraction(0.05, 1.0),
                                 chunk_bytes=positive(1e3, 1e8))),
    Case(memory.training_state, dict(model_or_parameters=count(1, 10 ** 13),
                                     parameter_bytes=positive(0.5, 8), gradient_bytes=positive(0.5, 8))),
    Case(memory.offload_plan, dict(name=choice(tuple(memory.OFFLOAD_PLANS)))),
    Case(memory.offload_path, dict(name=choice(tuple(memory.OFFLOAD_PATHS)))),
    Case(memory.transfer_time, dict(to_host_bytes=size, to_device_bytes=size,
                                    path=choice(tuple(memory.OFFLOAD_PATHS)), directions_overlap=flag())),
]

test_fuzz, test_fuzz_nightly = make_tests(CASES)
