"""Expert-parallel dispatch and combine: each kernel's terms against a hand calculation, the bandwidth each
implementation prints, and bad input. The check against published EP benchmarks is tests/moe/test_reproduction.py.
"""

import math

import pytest
from hypothesis import given, settings, strategies as st

from fuzzing import Case, choice, make_tests, mixed, optional, positive

from interconnect_lab import units as u
from interconnect_lab.collectives import expert_parallel as ep, tuning
from interconnect_lab.collectives.point_to_point import NETWORK_EFFICIENCY, point_to_point
from interconnect_lab.collectives.system import CollectiveSystem, collective_system

H800_2 = collective_system("H800 SXM", nodes=2)
H800_8 = collective_system("H800 SXM", nodes=8)


def traffic(tokens=4096, payload=7168.0, scale=224.0, k=8.0, ranks=6.5, domains=2.0, remote=1.0, **kw):
    return ep.ExpertParallelTraffic(tokens=tokens, payload_bytes=payload, scale_bytes=scale, selections_per_token=k,
                                    ranks_per_token=ranks, domains_per_token=domains,
                                    remote_domains_per_token=remote, **kw)


def test_normal_kernel_by_hand():
    # One RDMA copy per remote domain at 0.96 x 50 GB/s; the forward of D copies x 7/8 over NCCL's 8 x 20.6 GB/s.
    t = traffic()
    ex = ep.expert_parallel_exchange("normal", t, H800_2)
    token = 7168 + 224
    assert ex.network_bytes == pytest.approx(4096 * 1.0 * token)
    assert ex.nvlink_bytes == pytest.approx(4096 * 6.5 * token * 7 / 8)
    assert ex.network_s == pytest.approx(ex.network_bytes / (0.96 * 50e9))
    assert ex.nvlink_s == pytest.approx(ex.nvlink_bytes / (8 * 20.6e9))
    simple = tuning.PROTOCOLS.index("Simple")
    latency = (tuning.BASE_LATENCY_US["ring"][simple] + tuning.HOP_LATENCY_US["nvlink"]["ring"][simple]
               + tuning.HOP_LATENCY_US["net"]["ring"][simple]) * u.us
    assert ex.latency_s == pytest.approx(latency)
    assert ex.time_s == pytest.approx(latency + max(ex.network_s, ex.nvlink_s))
    assert ex.bottleneck == "nvlink"


def test_low_latency_kernel_sends_one_message_per_selection_with_a_dispatch_header():
    t = traffic(tokens=128, ranks=7.5, domains=5.3, remote=4.6)
    ex = ep.expert_parallel_exchange("low_latency", t, H800_8)
    remote_selections = 128 * 8 * 56 / 64
    assert ex.network_messages == pytest.approx(remote_selections)
    assert ex.network_bytes == pytest.approx(remote_selections * (7168 + 224 + 16))
    assert ex.nvlink_bytes == pytest.approx(128 * 8 * 7 / 64 * (7168 + 224 + 16))
    assert ex.latency_s == pytest.approx(16.7e-6 / 2) and ex.posting_s == 0.0
    combine = ep.expert_parallel_exchange("low_latency", traffic(tokens=128, payload=14336, scale=0, ranks=7.5,
                                                                  domains=5.3, remote=4.6, operation="combine"),
                                          H800_8)
    assert combine.network_bytes == pytest.approx(remote_selections * 14336)


def test_host_proxies_pay_one_post_per_message_shared_among_their_threads():
    t = traffic(tokens=128, ranks=7.5, domains=5.3, remote=4.6)
    proxied = ep.expert_parallel_exchange("host_proxied", t, H800_8)
    one = ep.expert_parallel_exchange("host_proxied", t, H800_8, proxy_threads=1)
    gpu = ep.expert_parallel_exchange("low_latency", t, H800_8)
    messages = 128 * 8 * 56 / 64
    assert proxied.posting_s == pytest.approx(messages * 1e-6 / 4)
    assert one.posting_s == pytest.approx(4 * proxied.posting_s)
    assert one.bottleneck == "posting" and one.time_s > proxied.time_s > gpu.time_s
    amd = ep.expert_parallel_exchange("host_proxied", t, collective_system("H800 SXM", nodes=8, cpu="amd"))
    assert amd.posting_s == pytest.approx(2 * proxied.posting_s)


def test_nccl_kernel_is_the_collective_models_all_to_all_after_a_count_exchange():
    t = traffic()
    ex = ep.expert_parallel_exchange("nccl", t, H800_8)
    size = 4096 * 6.5 * (7168 + 224)
    counts = point_to_point("all_to_all", 4 * 64, H800_8).time_s
    assert ex.time_s == pytest.approx(point_to_point("all_to_all", size, H800_8).time_s + counts)
    assert ex.counts_s == pytest.approx(counts)


def test_hierarchical_beats_nccls_flat_pairs_across_nodes():
    t = traffic(ranks=7.47, domains=4.0, remote=3.5)
    assert ep.expert_parallel_exchange("normal", t, H800_8).time_s < ep.expert_parallel_exchange("nccl", t,
                                                                                                    H800_8).time_s


def test_one_sided_nvlink_kernel_runs_inside_one_domain_only():
    nvl = collective_system("GB200", nodes=1, gpus_per_node=64)
    t = traffic(tokens=2048, payload=14336, scale=0, ranks=7.5, domains=1.0, remote=0.0)
    ex = ep.expert_parallel_exchange("nvlink_one_sided", t, nvl)
    assert ex.network_bytes == 0 and ex.nvlink_bytes == pytest.approx(2048 * 7.5 * 14336 * 63 / 64)
    with pytest.raises(ValueError, match="runs inside one NVLink domain"):
        ep.expert_parallel_exchange("nvlink_one_sided", t, collective_system("GB200", nodes=2, gpus_per_node=32))


def test_deepep_rdma_figure_counts_the_senders_own_node():
    # MORI-EP-BENCHMARK.md: physical_bw = algo_bw x (num_nodes - 1) / num_nodes.
    t = traffic(domains=2.0, remote=1.0)
    ex = ep.expert_parallel_exchange("normal", t, H800_2)
    assert ep.reported_bandwidth(ex, "deepep_rdma") == pytest.approx(2 * ep.reported_bandwidth(ex, "network"))
    assert ep.reported_bandwidth(ex, "deepep_nvlink") == pytest.approx(4096 * 6.5 * (7168 + 224) / ex.time_s)


def test_low_latency_figures_count_every_selection_and_the_fp8_header():
    fp8 = ep.expert_parallel_exchange("low_latency", traffic(tokens=128, ranks=7.5, domains=5.3, remote=4.6), H800_8)
    assert ep.reported_bandwidth(fp8, "deepep_low_latency") == pytest.approx(128 * 8 * (7168 + 224 + 16) / fp8.time_s)
    bf16 = ep.expert_parallel_exchange("low_latency", traffic(tokens=128, payload=14336, scale=0, ranks=7.5,
                                                               domains=5.3, remote=4.6), H800_8)
    assert ep.reported_bandwidth(bf16, "deepep_low_latency") == pytest.approx(128 * 8 * 14336 / bf16.time_s)
    assert ep.reported_bandwidth(bf16, "trtllm_logical") == pytest.approx(128 * 8 * 14336 / bf16.time_s)


def test_every_kernel_and_definition_names_its_source():
    for kernel in ep.EXPERT_PARALLEL_KERNELS.values():
        assert kernel.sources and all(s.url.startswith("https://") for s in kernel.sources), kernel.name
    for definition in ep.BANDWIDTH_DEFINITIONS.values():
        assert definition.source.url.startswith("https://"), definition.name


@settings(max_examples=60, deadline=None)
@given(tokens=st.floats(1, 1e5), kernel=st.sampled_from(["nccl", "normal", "low_latency", "host_proxied"]),
       nodes=st.sampled_from([1, 2, 4, 8]))
def test_time_grows_with_tokens_and_no_link_runs_faster_than_its_rate(tokens, kernel, nodes):
    system = collective_system("H100 SXM", nodes=nodes)
    domains = min(4.0, nodes)
    small = traffic(tokens=tokens, ranks=6.0, domains=domains, remote=domains - domains / nodes)
    big = traffic(tokens=2 * tokens, ranks=6.0, domains=domains, remote=domains - domains / nodes)
    a, b = (ep.expert_parallel_exchange(kernel, t, system) for t in (small, big))
    assert b.time_s > a.time_s >= a.latency_s > 0
    assert ep.reported_bandwidth(a, "network") <= NETWORK_EFFICIENCY * system.nic_bytes_per_s * (1 + 1e-9)
    assert ep.reported_bandwidth(a, "nvlink") <= system.nvlink_bytes_per_s * (1 + 1e-9)


@pytest.mark.parametrize(("call", "error", "message"), [
    (lambda: ep.expert_parallel_kernel("deepep"), ValueError,
     r"unknown expert-parallel kernel 'deepep'; valid expert-parallel kernels are: 'nccl', 'normal'"),
    (lambda: ep.bandwidth_definition("rdma"), ValueError, "valid bandwidth definitions are: 'deepep_rdma'"),
    (lambda: traffic(ranks=9.0), ValueError, "ranks_per_token = 9 is not valid"),
    (lambda: traffic(domains=7.0, remote=6.0), ValueError, "domains_per_token = 7 is not valid"),
    (lambda: traffic(remote=3.0), ValueError, "remote_domains_per_token = 3 is not valid"),
    (lambda: traffic(operation="gather"), ValueError, "valid operations are: 'dispatch', 'combine'"),
    (lambda: ep.expert_parallel_exchange("normal", traffic(domains=2.0), collective_system("H100 SXM")),
     ValueError, "domains_per_token = 2 is not valid on 1 NVLink domains"),
    (lambda: ep.expert_parallel_exchange("normal", traffic(ranks=6.5, domains=1, remote=0),
                                         collective_system("H100 SXM", gpus_per_node=4)),
     ValueError, "ranks_per_token = 6.5 is not valid on 4 GPUs"),
    (lambda: ep.expert_parallel_exchange("low_latency", traffic(), H800_2, proxy_threads=4), ValueError,
     "only host-proxied kernels post through CPU threads"),
    (lambda: ep.expert_parallel_exchange("host_proxied", traffic(), H800_2, proxy_threads=0), ValueError,
     r"proxy_threads = 0 is not valid"),
    (lambda: ep.expert_parallel_exchange("normal", "4096 tokens", H800_2), TypeError,
     "traffic must be an ExpertParallelTraffic"),
    (lambda: ep.expert_parallel_exchange("normal", traffic(), "H800"), TypeError, "system must be a CollectiveSystem"),
    (lambda: ep.reported_bandwidth(3.0, "network"), TypeError, "exchange must be an ExpertParallelExchange"),
    (lambda: ep.ExpertParallelKernel(name="x", description="", routing="per_rank", initiation="gpu",
                                     proxy_threads=2, sources=(ep.GIN_PAPER,)), ValueError,
     "only host-proxied kernels have proxy threads"),
])
def test_bad_input_says_what_is_wrong(call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_a_what_if_kernel_prices_through_the_same_function():
    import dataclasses

    eight = dataclasses.replace(ep.EXPERT_PARALLEL_KERNELS["host_proxied"], proxy_threads=8)
    t = traffic(tokens=128, ranks=7.5, domains=5.3, remote=4.6)
    assert ep.expert_parallel_exchange(eight, t, H800_8).posting_s == pytest.approx(
        ep.expert_parallel_exchange("host_proxied", t, H800_8).posting_s / 2)
    assert math.isfinite(ep.expert_parallel_exchange(eight, t, H800_8).time_s)


# Hostile input: fuzzed with tests/fuzzing.py -----------------------------------------------------

def _traffic(tokens, k, operation):
    return ep.ExpertParallelTraffic(tokens=tokens, payload_bytes=7168, scale_bytes=224, selections_per_token=k,
                                    ranks_per_token=min(k, 4), domains_per_token=min(k, 2),
                                    remote_domains_per_token=min(k, 2) - 0.5, operation=operation)


valid_traffic = st.builds(_traffic, st.floats(0, 1e6), st.sampled_from([2, 4, 8]),
                          st.sampled_from(["dispatch", "combine"]))
SYSTEMS = (H800_2, H800_8, collective_system("B200", nodes=4, network="Ethernet 400G", cpu="amd"),
           CollectiveSystem(architecture="hopper", nodes=2, gpus_per_node=8, nvlink_bytes_per_s=0.0, nvswitch=False,
                            nics_per_node=16, nic_bytes_per_s=25e9))


def within_rates(result, kwargs):
    assert result.time_s >= result.latency_s >= 0
    assert result.network_s >= 0 and result.nvlink_s >= 0 and result.posting_s >= 0


FUZZ_CASES = [
    Case(ep.expert_parallel_exchange, dict(
        kernel=choice(tuple(ep.EXPERT_PARALLEL_KERNELS)), traffic=mixed(valid_traffic),
        system=mixed(st.sampled_from(SYSTEMS)), proxy_threads=optional(mixed(st.integers(1, 64)))),
        check=within_rates),
    Case(ep.expert_parallel_kernel, dict(name=choice(tuple(ep.EXPERT_PARALLEL_KERNELS)))),
    Case(ep.bandwidth_definition, dict(name=choice(tuple(ep.BANDWIDTH_DEFINITIONS)))),
    Case(ep.ExpertParallelTraffic, dict(
        tokens=positive(1.0, 1e13), payload_bytes=positive(1.0, 1e10), scale_bytes=positive(1e-3, 1e10),
        selections_per_token=positive(1.0, 16.0), ranks_per_token=positive(1.0, 16.0),
        domains_per_token=positive(1.0, 8.0), remote_domains_per_token=positive(0.1, 8.0),
        operation=choice(("dispatch", "combine")), imbalance_factor=positive(1.0, 100.0)),
        name="collectives.ExpertParallelTraffic"),
]

test_fuzz, test_fuzz_nightly = make_tests(FUZZ_CASES)
