"""Fuzz the remaining model modules with hostile input (see tests/fuzzing.py for the rules).

Mixture of experts (``moe``, with ``moe_models``), inference, the Ethernet
roadmap, GEMM rates (``matmul``), calibration (parsers fed garbage text and
damaged real logs, fits fed damaged sweeps), the direct networks of the flow
simulator (dragonflies and tori, from ``topology``'s builders to
``fabric.simulate_direct``) and the incast port (``incast_port``,
``incast_collapse``).

Every public function in the ``__all__`` of these modules has a case
(``test_every_public_function_has_a_case`` checks it); ``moe_models.moe_model``
is ``moe.moe_model`` (``moe`` re-exports it) and is fuzzed once. Classes and
their methods (``IncastSimulation``, ``CollectiveFit.link`` ...) are reached
through the functions that build them, not fuzzed on their own.
"""

import dataclasses
import math

import numpy as np
from fuzzing import (
    HOSTILE, Case, choice, count, flag, fraction, make_tests, mixed, nonnegative, optional, positive,
)
from hypothesis import strategies as st

from interconnect_lab import (
    calibrate, catalog, collectives, fabric, inference, matmul, moe, pricebook, roadmap, topology, training,
)
from interconnect_lab.catalog.variants import VARIANT_GPUS, VARIANT_LINKS

LINKS = tuple(catalog.LINKS)
GPUS = tuple(catalog.GPUS)
NVLINKS = tuple(name for name in LINKS if name.startswith("NVLink "))
NETWORK_LINKS = tuple(name for name in LINKS if name.startswith(("InfiniBand", "Ethernet")))
MOE_MODELS = tuple(moe.MOE_MODELS)
PATHS = tuple(moe.COMMUNICATION_PATHS)
INFERENCE_MODELS = tuple(inference.INFERENCE_MODELS)
power_of_two = mixed(st.sampled_from([1, 2, 4, 8, 16, 32, 64, 128, 256]))


# Mixture of experts -----------------------------------------------------------------------

def traffic_sent_equals_received(result, kwargs):
    assert result.sent_bytes == result.received_bytes
    assert result.copies_per_token <= result.top_k + 1e-9
    assert result.network_bytes <= result.sent_bytes * (1 + 1e-9) + 1e-9 or result.hierarchical


def shares_sum_to_one(result, kwargs):
    assert np.all(result > 0) and abs(result.sum() - 1) < 1e-9, result


def imbalance_at_least_one(result, kwargs):
    assert result.imbalance_factor >= 1 - 1e-12
    assert result.tokens_per_expert.sum() == kwargs["tokens"] * kwargs["top_k"]


def ranks_at_most_k(result, kwargs):
    assert 1 - 1e-9 <= result <= min(kwargs["top_k"], kwargs["ep_degree"]) + 1e-9, result


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


def layer_step_consistent(result, kwargs):
    assert result.step.step_s > 0
    if math.isinf(result.compute_to_communication):
        assert result.communication_s == 0


def traffic_of(tokens, hidden, top_k, ep, experts, domain, hierarchical):
    """A valid AllToAllTraffic for the all-to-all time (its own fuzzing is the case above)."""
    return moe.all_to_all_traffic(tokens, hidden, top_k, ep, experts=experts, domain_size=domain,
                                  hierarchical=hierarchical)


valid_traffic = st.builds(
    traffic_of, st.floats(0, 1e6), st.sampled_from([1024, 4096, 7168]), st.sampled_from([1, 2, 8]),
    st.sampled_from([8, 16, 64]), st.just(256), st.sampled_from([1, 8, 64]), st.booleans())

moe_link = choice(NVLINKS + tuple(VARIANT_LINKS))
network_link = choice(NETWORK_LINKS)

MOE_CASES = [
    Case(moe.moe_model, dict(name=choice(MOE_MODELS))),
    Case(moe.expected_ranks_per_token, dict(experts=count(1, 2 ** 17), top_k=mixed(st.one_of(
        st.integers(1, 64), st.integers(1, 2 ** 17))), ep_degree=power_of_two), check=ranks_at_most_k),
    Case(moe.all_to_all_traffic, dict(
        tokens_per_gpu=nonnegative(1.0, 1e17), hidden_size=count(1, 2 ** 25), top_k=count(1, 16),
        ep_degree=power_of_two, bytes_per_element=positive(0.5, 100.0), experts=optional(mixed(st.sampled_from(
            [8, 64, 256, 1024, 2 ** 16, 2 ** 17]))), deduplicate=optional(flag()), domain_size=optional(power_of_two),
        hierarchical=flag(), max_domains_per_token=optional(count(1, 64)),
        scale_bytes_per_token=nonnegative(1.0, 1e10)), check=traffic_sent_equals_received),
    Case(moe.zipf_expert_shares, dict(experts=count(1, 2 ** 17), exponent=nonnegative(1e-3, 20)),
         check=shares_sum_to_one),
    Case(moe.routing_load, dict(tokens=count(0, 2 ** 60), experts=mixed(st.sampled_from([8, 64, 256, 2 ** 17])),
                                top_k=count(1, 8), ep_degree=power_of_two, skew=nonnegative(1e-3, 20),
                                seed=count(0, 1000), capacity_factor=optional(positive(1.0, 1e3))),
         check=imbalance_at_least_one),
    Case(moe.communication_path, dict(name=choice(PATHS))),
    Case(moe.expert_parallel_all_to_all, dict(
        traffic=mixed(valid_traffic), scale_up_link=moe_link, network_link=network_link,
        imbalance_factor=positive(1.0, 10.0), path=choice(PATHS),
        scale_up_bandwidth_bytes_per_s=optional(positive(1e6, 1e13)),
        network_bandwidth_bytes_per_s=optional(positive(1e6, 1e13))), check=all_to_all_within_links),
    Case(moe.moe_layer_step, dict(
        model=choice(MOE_MODELS), tokens_per_gpu=positive(1.0, 1e17), ep_degree=power_of_two,
        gpu=choice(GPUS + tuple(VARIANT_GPUS)), domain_size=power_of_two, network_link=network_link,
        imbalance_factor=positive(1.0, 300.0), dispatch_bytes_per_element=positive(0.5, 4.0),
        combine_bytes_per_element=positive(0.5, 4.0), hierarchical=flag(), path=choice(PATHS),
        flop_per_s=optional(positive(1e-3, 1e23)), communication_sm_fraction=fraction(0.0, 0.9),
        overlap_fraction=fraction(), backward=flag()),
        check=layer_step_consistent, infinite=("compute_to_communication",), examples=0.5),
    Case(moe.incast_fan_in, dict(ep_degree=power_of_two, domain_size=optional(power_of_two), hierarchical=flag())),
    Case(moe.fp8_scale_bytes, dict(hidden_size=count(1, 65_536), block=count(1, 1024),
                                   scale_bytes=positive(0.5, 8.0))),
    Case(moe.dispatch_and_combine, dict(
        tokens_per_gpu=nonnegative(1.0, 1e6), hidden_size=count(1, 16_384), top_k=count(1, 8),
        ep_degree=power_of_two, experts=optional(mixed(st.sampled_from([64, 256]))), domain_size=power_of_two,
        hierarchical=flag(), dispatch_bytes_per_element=positive(0.5, 4.0),
        combine_bytes_per_element=positive(0.5, 4.0), scale_up_link=moe_link, network_link=network_link,
        imbalance_factor=positive(1.0, 10.0), path=choice(PATHS)), check=all_to_all_within_links),
]


# Inference --------------------------------------------------------------------------------

def decode_all_reduce_consistent(result, kwargs):
    assert result.per_token_s == result.all_reduces_per_token * result.all_reduce_s >= 0


def kv_transfer_within_link(result, kwargs):
    rate = collectives.link_parameters(catalog.link(kwargs["link"]))["bandwidth_bytes_per_s"]
    assert result.bandwidth_bytes_per_s <= rate * kwargs["senders"] * (1 + 1e-9)
    assert 0 <= result.exposed_s <= result.total_s


def serving_consistent(result, kwargs):
    assert result.ttft_s > 0 and result.itl_s > 0


inference_model = choice(INFERENCE_MODELS)

INFERENCE_CASES = [
    Case(inference.inference_model, dict(model=inference_model)),
    Case(inference.tensor_parallel_decode_all_reduce, dict(
        model=inference_model, tensor_parallel=power_of_two, batch=count(1, 4096),
        scale_up_link=choice(NVLINKS + NETWORK_LINKS), algorithm=choice(inference.SERVING_ALGORITHMS),
        protocol=choice(tuple(collectives.NCCL_LATENCIES)), bytes_per_element=positive(0.5, 4.0)),
         check=decode_all_reduce_consistent),
    Case(inference.kv_transfer, dict(
        model=inference_model, prompt_tokens=nonnegative(1.0, 1e17), senders=count(1, 64),
        link=choice(NETWORK_LINKS), layerwise=flag(), bytes_per_element=positive(0.5, 4.0)),
         check=kv_transfer_within_link),
    Case(inference.serving_deployment, dict(
        model=inference_model, gpu=choice(GPUS), tensor_parallel=power_of_two, batch=count(1, 512),
        prompt_tokens=positive(1.0, 1e17), context_tokens=optional(positive(1.0, 1e17)),
        domain_size=power_of_two, kv_link=choice(NETWORK_LINKS), disaggregated=flag(), layerwise=flag(),
        algorithm=choice(inference.SERVING_ALGORITHMS), compute_efficiency=optional(fraction(0.01, 1.0))),
         check=serving_consistent, examples=0.5),
]


# The Ethernet roadmap and GEMM rates ---------------------------------------------------------

def efficiency_in_unit_interval(result, kwargs):
    assert np.all((np.asarray(result) > 0) & (np.asarray(result) <= 1)), result


def rate_at_most_best(result, kwargs):
    best = matmul.best_rate(kwargs["gpu"], kwargs["precision"])
    assert np.all((np.asarray(result) > 0) & (np.asarray(result) <= best * kwargs["sustained"] * (1 + 1e-12)))


gpu_spec = mixed(st.sampled_from(GPUS).map(catalog.gpu))
precision = choice(tuple(matmul.PRECISIONS))
dimension = mixed(st.one_of(st.floats(0, 6).map(lambda e: float(round(10 ** e))),
                            st.floats(0, 20).map(lambda e: float(round(10 ** e))),
                            st.lists(st.integers(1, 100_000), min_size=1, max_size=4)))

ROADMAP_CASES = [
    Case(roadmap.tensor_parallel_all_reduce_time, dict(
        fabric=choice(tuple(catalog.SCALE_UP_FABRICS)), message_bytes=positive(1.0, 1e32), group=count(2, 576),
        ports_per_accelerator=optional(count(1, 64)))),
    Case(roadmap.scale_up_comparison, dict(message_bytes=positive(1.0, 1e13), group=count(2, 576),
                                           open_ports=count(1, 64))),
    Case(roadmap.fat_tree_reach, dict(switch=choice(tuple(catalog.SWITCHES)),
                                      ways=mixed(st.lists(st.sampled_from([1, 2, 4, 8]), min_size=1, max_size=3)))),
    Case(roadmap.multi_plane_fabric, dict(gpus=count(1, 1_000_000), nic_bytes_per_s=mixed(st.sampled_from(
        [25e9, 50e9, 100e9, 200e9, 3e9])), switch=choice(tuple(catalog.SWITCHES)), ways=mixed(st.sampled_from(
            [1, 2, 4, 8])))),
    Case(roadmap.network_parts, dict(gpus=count(1, 1_000_000), switch=choice(tuple(catalog.SWITCHES)),
                                     ways=mixed(st.sampled_from([1, 2, 4, 8])),
                                     switch_usd=optional(nonnegative(1.0, 1e14)),
                                     prices=mixed(st.sampled_from([pricebook.H100_ETHERNET_PRICES,
                                                                   pricebook.H100_NDR_PRICES])),
                                     estimate=choice(tuple(pricebook.ESTIMATES)))),
    Case(roadmap.generation_growth, dict(old=choice(GPUS), new=choice(GPUS), old_nic=choice(tuple(catalog.NICS)),
                                         new_nic=choice(tuple(catalog.NICS)))),
    Case(matmul.best_rate, dict(gpu=gpu_spec, precision=precision)),
    Case(matmul.gemm_efficiency, dict(gpu=gpu_spec, m=dimension, n=dimension, k=dimension, precision=precision),
         check=efficiency_in_unit_interval),
    Case(matmul.gemm_rate, dict(gpu=gpu_spec, m=dimension, n=dimension, k=dimension,
                                sustained=fraction(0.01, 1.0), precision=precision), check=rate_at_most_best),
    Case(matmul.gemm_time_s, dict(gpu=gpu_spec, m=dimension, n=dimension, k=dimension,
                                  sustained=fraction(0.01, 1.0), precision=precision)),
]


# Calibration --------------------------------------------------------------------------------

NCCL_LOGS = tuple(name for name, entry in calibrate.SHIPPED_LOGS.items() if entry.tool == "nccl-tests")
PERFTEST_LOGS = tuple(name for name, entry in calibrate.SHIPPED_LOGS.items() if entry.tool == "perftest")
TOPO_LOGS = tuple(name for name, entry in calibrate.SHIPPED_LOGS.items() if entry.tool not in ("nccl-tests",
                                                                                               "perftest"))
_TEXT = {name: calibrate.shipped_text(name) for name in calibrate.SHIPPED_LOGS}
SYSTEMS = tuple(calibrate.shipped_system(name) for name in NCCL_LOGS)
_RUNS = {name: calibrate.shipped_run(name) for name in NCCL_LOGS}

#: What a damaged number looks like.
BAD_TOKENS = ("nan", "inf", "-inf", "-1", "0", "1e400", "-0.0", "N/A", "", "x", "1e-320", "99999999999999999999",
              "0.000", "1,5", "\t", "#")


@st.composite
def damaged(draw, name):
    """Shipped log ``name`` cut short, with a token replaced, a line dropped or repeated, or garbage appended."""
    text = _TEXT[name]
    kind = draw(st.sampled_from(["truncate", "token", "drop line", "repeat line", "append", "intact"]))
    if kind == "truncate":
        return text[:draw(st.integers(0, len(text)))]
    lines = text.splitlines(keepends=True)
    where = draw(st.integers(0, len(lines) - 1))
    if kind == "token":
        tokens = lines[where].split(" ")
        tokens[draw(st.integers(0, len(tokens) - 1))] = draw(st.sampled_from(BAD_TOKENS))
        lines[where] = " ".join(tokens)
    elif kind == "drop line":
        del lines[where]
    elif kind == "repeat line":
        lines.insert(where, lines[where])
    elif kind == "append":
        lines.append(draw(st.text(max_size=200)))
    return "".join(lines)


def text_for(log):
    """Garbage text, the shipped log drawn by ``log`` damaged, or hostile non-text values."""
    return st.integers(0, 7).flatmap(lambda k: st.sampled_from(HOSTILE) if k == 0 else (
        st.text(max_size=400) if k == 1 else log.flatmap(damaged)))


def collective_for(log):
    """The collective the shipped log drawn by ``log`` ran (it does not print it), mostly; else any."""
    return st.integers(0, 7).flatmap(lambda k: optional(choice(calibrate.COLLECTIVES_FOR_TEXT)) if k == 0 else
                                     log.map(lambda name: calibrate.SHIPPED_LOGS[name].program))


nccl_log = st.shared(st.sampled_from(NCCL_LOGS), key="nccl-tests log")


#: The parsers' own clear errors: they name the line and what was expected there.
NCCL_MESSAGES = (r"^nccl-tests output", r"nccl-tests output does not name", r"^rows with (redop|a reduction)")
PERFTEST_MESSAGES = (r"^perftest output",)
TOPO_MESSAGES = (r"^nvidia-smi topo -m output", r"^the NIC Legend")


def _measurement(measurement, time_s):
    return dataclasses.replace(measurement, time_s=time_s)


@st.composite
def damaged_run(draw):
    """A parsed sweep whose arrays were damaged: NaN, zero, negative or infinite times or sizes,
    sizes out of order or repeated, arrays of the wrong length or type, one row."""
    run = _RUNS[draw(st.sampled_from(NCCL_LOGS))]
    kind = draw(st.sampled_from(["time", "size", "order", "length", "one row", "dtype", "intact"]))
    size, time = run.size_bytes.copy(), run.out_of_place.time_s.copy()
    i = draw(st.integers(0, size.size - 1))
    if kind == "time":
        time[i] = draw(st.sampled_from([math.nan, 0.0, -1e-6, math.inf, 5e-324, 1e300]))
    elif kind == "size":
        size = size.astype(float)
        size[i] = draw(st.sampled_from([math.nan, -1.0, math.inf, 1e300]))
    elif kind == "order":
        size = size[::-1].copy() if draw(st.booleans()) else np.concatenate((size[:1], size[:-1]))
    elif kind == "length":
        time = time[:-1]
    elif kind == "one row":
        size, time = size[-1:], time[-1:]
    elif kind == "dtype":
        time = time.astype(str)
    return dataclasses.replace(run, size_bytes=size, out_of_place=_measurement(run.out_of_place, time))


def fit_is_sound(result, kwargs):
    assert result.max_relative_error() >= 0
    assert len(result.segments) >= 1


def bandwidth_can_be_inf_only_with_no_slope(result, kwargs):
    for segment in result.segments:
        if math.isinf(segment.bus_bandwidth_bytes_per_s):
            assert segment.seconds_per_byte == 0


run_or_damaged = st.integers(0, 7).flatmap(lambda k: st.sampled_from(HOSTILE) if k == 0 else (
    st.sampled_from(list(_RUNS.values())) if k < 4 else damaged_run()))

CALIBRATE_CASES = [
    Case(calibrate.parse_nccl_tests, dict(text=text_for(nccl_log), collective=collective_for(nccl_log)),
         messages=NCCL_MESSAGES, refusing=("ranks_per_node", "n_nodes")),
    Case(calibrate.parse_perftest, dict(text=text_for(st.sampled_from(PERFTEST_LOGS))), messages=PERFTEST_MESSAGES),
    Case(calibrate.parse_nvidia_smi_topo, dict(text=text_for(st.sampled_from(TOPO_LOGS))), messages=TOPO_MESSAGES),
    Case(calibrate.fit_collective, dict(run=run_or_damaged, placement=choice(("out_of_place", "in_place")),
                                        tolerance=fraction(0.001, 0.5), fit_from_bytes=nonnegative(1.0, 1e10),
                                        max_segments=count(1, 8)),
         check=bandwidth_can_be_inf_only_with_no_slope, infinite=("bus_bandwidth_bytes_per_s",), examples=0.25),
    Case(calibrate.compare_with_model, dict(run=run_or_damaged, system=optional(mixed(st.sampled_from(SYSTEMS))),
                                            gpu=optional(choice(GPUS)), nodes=optional(count(1, 64)),
                                            gpus_per_node=optional(count(1, 72)), network=optional(choice(NETWORK_LINKS)),
                                            algorithm=optional(choice(("ring", "tree", "p2p", "nvls")))),
         examples=0.25),
    Case(calibrate.run_system, dict(run=run_or_damaged, gpu=choice(GPUS), nodes=optional(count(1, 64)),
                                    gpus_per_node=optional(count(1, 72)), network=optional(choice(NETWORK_LINKS))),
         examples=0.25),
    Case(calibrate.shipped_system, dict(name=choice(tuple(calibrate.SHIPPED_LOGS)))),
    Case(calibrate.calibrated_cluster, dict(
        cluster=choice(tuple(training.CLUSTERS) + tuple(catalog.SYSTEMS)),
        scale_up=optional(run_or_damaged), scale_out=optional(run_or_damaged)), examples=0.25),
    Case(calibrate.calibrate_nccl_tests, dict(source=st.one_of(choice(NCCL_LOGS), text_for(nccl_log)),
                                              collective=collective_for(nccl_log),
                                              n_ranks=optional(count(1, 64)), gpu=optional(choice(GPUS)),
                                              system=optional(mixed(st.sampled_from(SYSTEMS))),
                                              placement=choice(("out_of_place", "in_place"))),
         infinite=("bus_bandwidth_bytes_per_s",), messages=NCCL_MESSAGES, refusing=("ranks_per_node", "n_nodes"),
         examples=0.25),
    Case(calibrate.shipped_log, dict(name=choice(tuple(calibrate.SHIPPED_LOGS)))),
    Case(calibrate.shipped_text, dict(name=choice(tuple(calibrate.SHIPPED_LOGS)))),
    Case(calibrate.shipped_run, dict(name=choice(tuple(calibrate.SHIPPED_LOGS))), refusing=("ranks_per_node", "n_nodes")),
]


# Direct networks and the incast port -------------------------------------------------------------

def simulate_on_direct(network_shape, routing, size_bytes, capacity_bytes_per_s, seed):
    """A permutation over a small dragonfly or torus, routed and run to completion."""
    family, shape = network_shape
    if family == "dragonfly":
        network = fabric.dragonfly_network(topology.dragonfly(*shape), link_capacity_bytes_per_s=capacity_bytes_per_s)
    else:
        network = fabric.torus_network(topology.torus(shape), link_capacity_bytes_per_s=capacity_bytes_per_s)
    return fabric.simulate_direct(network, fabric.permutation(network.hosts, size_bytes, seed=seed), routing,
                                  seed=seed)


def direct_within_capacity(result, kwargs):
    assert np.all(np.isfinite(result.completion_times_s)) and result.completion_time_s > 0
    assert np.all(result.link_utilization <= 1 + 1e-9)


def incast_sound(result, kwargs):
    assert result.completion_time_s >= result.ideal_completion_time_s * (1 - 1e-12)
    assert 0 < result.goodput_fraction <= 1 and 0 < result.efficiency <= 1 + 1e-12
    packets = result.retransmitted_bytes / kwargs["packet_bytes"]
    assert result.retransmitted_bytes >= 0 and abs(packets - round(packets)) <= 1e-9 * max(packets, 1), packets
    if kwargs["flow_control"] == "lossless":
        assert result.drops == result.trims == 0


def rarely(usual, large):
    """``usual`` nine times in ten, else ``large`` (a large network takes a few tenths of a second)."""
    return st.integers(0, 9).flatmap(lambda k: large if k == 0 else usual)


#: Counts small and large: the builders hold them as integers, the networks allocate arrays of them.
big_count = mixed(st.one_of(st.integers(1, 64), st.integers(1, 2 ** 53)))
dragonfly_shape = st.tuples(st.integers(1, 3), st.integers(1, 4), st.integers(1, 3))
torus_shape = st.lists(st.integers(3, 6), min_size=1, max_size=3).map(tuple)

DIRECT_CASES = [
    Case(topology.dragonfly_max_hosts, dict(terminals_per_router=big_count, routers_per_group=big_count,
                                            global_links_per_router=big_count)),
    Case(topology.dragonfly, dict(terminals_per_router=big_count, routers_per_group=big_count,
                                  global_links_per_router=big_count, groups=optional(big_count),
                                  port_bytes_per_s=optional(positive(1e-3, 1e25)))),
    Case(topology.torus, dict(dimensions=mixed(st.lists(big_count, min_size=1, max_size=4)),
                              cube=optional(mixed(st.lists(count(1, 8), min_size=1, max_size=3))),
                              port_bytes_per_s=optional(positive(1e-3, 1e25)))),
    Case(fabric.dragonfly_network, dict(
        topology=mixed(rarely(st.builds(topology.dragonfly, *[st.integers(1, 4)] * 3),
                              st.builds(topology.dragonfly, *[st.integers(1, 64)] * 3))),
        nic_capacity_bytes_per_s=optional(positive(1e-35, 1e23)),
        link_capacity_bytes_per_s=optional(positive(1e-35, 1e23))), examples=0.5),
    Case(fabric.torus_network, dict(topology=mixed(rarely(st.builds(topology.torus, torus_shape),
                                                          st.builds(topology.torus, st.lists(
                                                              st.integers(3, 300), min_size=1, max_size=3)))),
                                    link_capacity_bytes_per_s=optional(positive(1e-35, 1e23))), examples=0.5),
    Case(fabric.direct_route, dict(
        network=st.one_of(st.builds(lambda shape: fabric.dragonfly_network(
            topology.dragonfly(*shape), link_capacity_bytes_per_s=1e9), dragonfly_shape),
            st.builds(lambda shape: fabric.torus_network(topology.torus(shape), link_capacity_bytes_per_s=1e9),
                      torus_shape)),
        traffic=st.builds(lambda n: fabric.permutation(n, 1e6, seed=n), st.integers(2, 6)),
        routing=choice(tuple(fabric.DIRECT_ROUTINGS)), seed=count(0, 2 ** 40)), examples=0.5),
    Case(simulate_on_direct, dict(
        network_shape=st.one_of(st.tuples(st.just("dragonfly"), dragonfly_shape),
                                st.tuples(st.just("torus"), torus_shape)), routing=choice(tuple(fabric.DIRECT_ROUTINGS)),
        size_bytes=positive(1e-35, 1e35), capacity_bytes_per_s=positive(1e-35, 1e23), seed=count(0, 100)),
         check=direct_within_capacity, examples=0.5, name="fabric.simulate_direct (small dragonfly or torus)"),
    Case(fabric.incast_port, dict(
        n_senders=count(1, 32), size_bytes=positive(1.0, 1e5), link_bytes_per_s=positive(1e6, 1e13),
        buffer_bytes=positive(9e3, 1e7), packet_bytes=positive(64.0, 9000.0),
        flow_control=choice(tuple(fabric.FLOW_CONTROLS)), link_delay_s=nonnegative(1e-9, 1e-3),
        retransmission_timeout_s=rarely(positive(1e-9, 1e-1), st.none()), header_bytes=positive(1.0, 64.0),
        victim_bytes=nonnegative(1.0, 1e6), recovery=rarely(st.just("selective"), choice(fabric.RECOVERIES))),
         check=incast_sound, examples=0.5),
    Case(fabric.incast_collapse, dict(
        n_senders=mixed(st.lists(st.integers(1, 16), min_size=1, max_size=2)), size_bytes=positive(1.0, 1e5),
        link_bytes_per_s=positive(1e6, 1e13), buffer_bytes=positive(1e3, 1e6), packet_bytes=positive(64.0, 9000.0),
        flow_controls=mixed(st.lists(st.sampled_from(["lossless", "drop-tail", "trimming", "drop-tail/go-back-n"]),
                                     min_size=1, max_size=2)),
        link_delay_s=nonnegative(1e-9, 1e-3), retransmission_timeout_s=positive(1e-6, 1e-1)), examples=0.25),
]

CASES = MOE_CASES + INFERENCE_CASES + ROADMAP_CASES + CALIBRATE_CASES + DIRECT_CASES

test_fuzz, test_fuzz_nightly = make_tests(CASES)

#: Public functions reached through a wrapper that builds their arguments.
WRAPPED = {fabric.simulate_direct: simulate_on_direct}


def test_every_public_function_has_a_case():
    import importlib
    import inspect

    modules = [importlib.import_module(f"interconnect_lab.{name}") for name in (
        "moe", "moe_models", "inference", "roadmap", "matmul", "calibrate", "fabric.direct", "fabric.incast",
        "topology.dragonflies", "topology.tori")]   # fabric.incast, the module, not the traffic function
    covered = {case.function for case in CASES}
    missing = [f"{module.__name__}.{name}"
               for module in modules
               for name in module.__all__
               if inspect.isfunction(function := getattr(module, name))
               and function not in covered and WRAPPED.get(function) not in covered]
    assert not missing, f"public functions without a fuzz case: {missing}"
