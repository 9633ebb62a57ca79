"""Fuzz the training, memory, cost and fabric models with hostile input (see tests/fuzzing.py).

These take catalog objects, configurations and networks: the strategies build
mostly valid ones and mix in wrong names, impossible splits and wrong types.
"""

import numpy as np
from fuzzing import Case, choice, count, flag, fraction, make_tests, mixed, nonnegative, optional, positive
from hypothesis import strategies as st

from interconnect_lab import catalog, fabric, memory, topology, training

MODELS = tuple(training.MODELS)
CLUSTERS = tuple(training.CLUSTERS)
SOFTWARE = tuple(training.SOFTWARE)
GPUS = tuple(catalog.GPUS)
model = choice(MODELS)
power_of_two = mixed(st.sampled_from([1, 2, 4, 8, 16, 32, 64]))


def step_with_config(model, cluster, software, gpus, global_batch_size, tensor_parallel, pipeline_parallel,
                     microbatch_size, recompute, zero_stage, sequence_parallel):
    """training_step on a configuration built from fuzzed parts (the path a panel takes)."""
    config = training.parallel_config(gpus, global_batch_size=global_batch_size, tensor_parallel=tensor_parallel,
                                      pipeline_parallel=pipeline_parallel, microbatch_size=microbatch_size,
                                      recompute=recompute, zero_stage=zero_stage,
                                      sequence_parallel=sequence_parallel)
    return training.training_step(model, cluster, config, software)


def memory_with_config(model, cluster, gpus, global_batch_size, tensor_parallel, pipeline_parallel, zero_stage):
    config = training.parallel_config(gpus, global_batch_size=global_batch_size, tensor_parallel=tensor_parallel,
                                      pipeline_parallel=pipeline_parallel, zero_stage=zero_stage)
    return training.memory_per_gpu(model, cluster, config)


def mfu_in_unit_interval(result, kwargs):
    assert 0 < result.mfu <= 1 and 0 < result.hfu <= 1, (result.mfu, result.hfu)
    assert result.step_s > 0


def simulate_small(hosts, radix, routing, size_bytes, nic_capacity_bytes_per_s, link_capacity_bytes_per_s,
                   background_fraction, seed):
    """The flow simulator on a permutation (and perhaps background flows) over a small fat tree."""
    network = fabric.Network(topology.fat_tree(hosts, radix=radix, tiers=3),
                             nic_capacity_bytes_per_s=nic_capacity_bytes_per_s,
                             link_capacity_bytes_per_s=link_capacity_bytes_per_s)
    traffic = fabric.permutation(network.hosts, size_bytes, seed=seed)
    if background_fraction is not None:
        traffic = fabric.combine(traffic, fabric.background(network.hosts, background_fraction, seed=seed))
    return fabric.simulate(network, traffic, routing, seed=seed)


def simulation_within_capacity(result, kwargs):
    """Every foreground flow finishes at a finite positive time; no link or NIC is used beyond its capacity."""
    foreground = result.foreground
    times = result.completion_times_s[foreground]
    assert np.all(np.isfinite(times) & (times > 0)), times
    assert np.all(np.isnan(result.completion_times_s[~foreground])), "a background flow finished"
    assert 0 < result.completion_time_s == times.max()
    assert np.all(result.link_utilization <= 1 + 1e-9), result.link_utilization.max()
    nic = kwargs["nic_capacity_bytes_per_s"]
    assert np.all(result.throughput_bytes_per_s <= nic * (1 + 1e-9)), (result.throughput_bytes_per_s.max(), nic)


def route_small(hosts, radix, routing, seed):
    network = fabric.Network(topology.fat_tree(hosts, radix=radix, tiers=3), nic_capacity_bytes_per_s=50e9)
    return fabric.fair_rates(network, fabric.permutation(network.hosts, 1e6, seed=seed), routing, seed=seed)


def rates_within_line_rate(result, kwargs):
    assert np.all(result.line_rate_fraction <= 1 + 1e-9) and np.all(result.line_rate_fraction >= 0)


CASES = [
    Case(training.transformer_model, dict(name=model)),
    Case(training.cluster, dict(name=choice(CLUSTERS))),
    Case(training.software, dict(name=choice(SOFTWARE))),
    Case(training.parameter_count, dict(model=st.builds(training.transformer_model, st.sampled_from(MODELS)))),
    Case(training.flops_per_token, dict(model=st.builds(training.transformer_model, st.sampled_from(MODELS)),
                                        recompute=choice(("full", "selective", "none")),
                                        convention=choice(tuple(training.FLOP_CONVENTIONS)))),
    Case(training.training_flops, dict(model=st.builds(training.transformer_model, st.sampled_from(MODELS)),
                                       batch_size=count(1, 10_000), recompute=choice(("full", "selective", "none")))),
    Case(training.training_time_s, dict(parameters=positive(1e6, 1e13), tokens=nonnegative(1e6, 1e14),
                                        gpus=count(1, 100_000), flop_per_s_per_gpu=positive(1e12, 1e16))),
    Case(training.system_cluster, dict(system=choice(tuple(catalog.SYSTEMS)), gpus_per_node=optional(count(1, 72)),
                                       scale_out_link=optional(choice(tuple(catalog.LINKS))))),
    Case(training.parallel_config, dict(gpus=count(1, 100_000), global_batch_size=count(1, 10_000),
                                        tensor_parallel=power_of_two, pipeline_parallel=power_of_two,
                                        context_parallel=power_of_two)),
    Case(training.pipeline_bubble_fraction, dict(pipeline_parallel=count(1, 128), microbatches=count(1, 1024),
                                                 interleave=count(1, 8))),
    Case(training.pipeline_schedule, dict(pipeline_parallel=count(1, 16), microbatches=count(1, 64),
                                          interleave=count(1, 4), backward_ratio=positive(0.5, 4.0)),
         exempt=("bubble_fraction",)),  # idle over ideal time: above 1 when stages outnumber microbatches
    Case(step_with_config, dict(
        model=model, cluster=choice(CLUSTERS), software=choice(SOFTWARE), gpus=count(1, 16_384),
        global_batch_size=count(1, 4096), tensor_parallel=power_of_two, pipeline_parallel=power_of_two,
        microbatch_size=count(1, 8), recompute=choice(("full", "selective", "none")), zero_stage=count(0, 3),
        sequence_parallel=flag()), check=mfu_in_unit_interval, examples=0.5,
        name="training.training_step (with parallel_config)"),
    Case(memory_with_config, dict(
        model=model, cluster=choice(CLUSTERS), gpus=count(1, 16_384), global_batch_size=count(1, 4096),
        tensor_parallel=power_of_two, pipeline_parallel=power_of_two, zero_stage=count(0, 3)), examples=0.5,
        name="training.memory_per_gpu (with parallel_config)"),
    Case(training.parallel_sweep, dict(model=model, cluster=choice(CLUSTERS), gpus=count(1, 4096),
                                       global_batch_size=count(1, 2048)), examples=0.25),
    Case(training.zero_communication_volume, dict(stage=count(0, 3), quantized_weights=flag(),
                                                  hierarchical_partition=flag(), quantized_gradients=flag())),
    Case(training.gradient_compression, dict(
        gradient=mixed(st.integers(1, 2000).map(lambda n: np.random.default_rng(n).standard_normal(n))),
        method=choice(("quantize", "top-k")), bits=count(1, 16), fraction=fraction(0.001, 1.0),
        rng=st.just(0)), exempt=("relative_error",)),
    Case(training.matmul_fraction_of_peak, dict(gpu=st.builds(catalog.gpu, st.sampled_from(GPUS)))),
    Case(memory.kv_cache_bytes, dict(model=st.builds(training.transformer_model, st.sampled_from(MODELS)),
                                     tokens=nonnegative(1.0, 1e9), bytes_per_element=positive(0.5, 4))),
    Case(memory.offload_step, dict(model=model, gpu=choice(GPUS), plan=choice(tuple(memory.OFFLOAD_PLANS)),
                                   path=choice(tuple(memory.OFFLOAD_PATHS)), tokens_per_gpu=count(1, 65_536),
                                   shards=count(1, 1024), overlap_fraction=fraction()), examples=0.5,
         exempt=("added_fraction",)),  # step over compute time minus one: any size
    Case(memory.decode_step, dict(model=model, gpu=choice(GPUS), context_tokens=count(1, 1_000_000),
                                  batch=count(1, 256), offloaded_fraction=fraction(), gpus=count(1, 8),
                                  overlap_fraction=fraction()), examples=0.5),
    # the flow simulator
    # Sizes and capacities span their documented ranges and beyond: [1e-30, 1e30] B, [1e-30, 1e18] B/s.
    Case(simulate_small, dict(hosts=count(2, 128), radix=st.sampled_from([4, 8, 16]),
                              routing=choice(tuple(fabric.ROUTINGS)), size_bytes=positive(1e-35, 1e35),
                              nic_capacity_bytes_per_s=positive(1e-35, 1e23),
                              link_capacity_bytes_per_s=positive(1e-35, 1e23),
                              background_fraction=optional(fraction()), seed=count(0, 100)),
         check=simulation_within_capacity, infinite=("completion_times_s", "size_bytes"), examples=0.25,
         name="fabric.simulate (small fat tree)"),
    Case(route_small, dict(hosts=count(2, 512), radix=st.sampled_from([4, 8, 16]),
                           routing=choice(tuple(fabric.ROUTINGS)), seed=count(0, 100)),
         check=rates_within_line_rate, examples=0.25, name="fabric.fair_rates (small fat tree)"),
    Case(fabric.step_times, dict(n_workers=count(1, 100_000), compute_s=positive(1e-3, 100),
                                 jitter=choice(tuple(fabric.JITTERS)), jitter_s=nonnegative(1e-6, 10),
                                 slow_fraction=fraction(), slowdown=nonnegative(1e-3, 10))),
    Case(fabric.lagging_worker_cost, dict(n_workers=count(1, 100_000), compute_s=positive(1e-3, 100),
                                          lag_s=nonnegative(1e-6, 100), jitter=choice(tuple(fabric.JITTERS)),
                                          jitter_s=nonnegative(1e-6, 10))),
    Case(fabric.max_load_cdf, dict(balls=count(1, 1000), bins=count(1, 1000), loads=count(0, 100))),
]

test_fuzz, test_fuzz_nightly = make_tests(CASES)
