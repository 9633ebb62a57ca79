"""Disaggregated prefill and decode: the KV transfer, KV-cache tiers across the network, TTFT.

Published values: DistServe §3.3 (OPT-66B), Splitwise §VI-A (A100 against H100 setups), Mooncake's
transfer engine (README). The transfer and the RDMA tier are the collective model's send/receive (issue 35).
Hostile input at the end, fuzzed with tests/fuzzing.py.
"""

import pytest
from hypothesis import strategies as st

from fuzzing import Case, choice, count, flag, fraction, make_tests, mixed, nonnegative, optional, positive

from interconnect_lab import catalog, collectives, memory, inference
from interconnect_lab import units as u
from interconnect_lab.inference import disaggregation
from interconnect_lab.published.inference import (
    DISTSERVE_KV_EXAMPLE, MOONCAKE_KV_TRANSFERS, SPLITWISE_KV_TRANSFER,
)


def test_distserve_kv_cache_of_one_opt66b_request():
    # DistServe (Zhong et al., OSDI 2024) §3.3: "the KV cache size of a single 512-token request on
    # OPT-66B is approximately 1.13GB" -- their GB are GiB: 2 x 64 layers x 9,216 x 2 B x 512 = 1.125 GiB.
    example = DISTSERVE_KV_EXAMPLE
    transfer = inference.kv_transfer(example.model, example.prompt_tokens)
    assert transfer.kv_bytes / 2**30 == pytest.approx(example.kv_bytes_as_stated / 1e9, rel=0.01)


def test_distserve_bandwidth_for_ten_requests_per_second():
    # DistServe §3.3: at 10 requests/s, "11.3GB data per second -- or equivalently 90Gbps", in binary
    # units (2^30 bit/s); in SI units the same traffic is 96.6 Gb/s.
    example = DISTSERVE_KV_EXAMPLE
    kv = inference.kv_transfer(example.model, example.prompt_tokens).kv_bytes
    bits_per_s = kv * example.requests_per_s * 8
    assert bits_per_s / 2**30 == pytest.approx(example.bandwidth_bit_per_s_as_stated / 1e9, rel=0.01)
    assert bits_per_s / 1e9 == pytest.approx(96.6, rel=0.005)


def test_splitwise_twice_the_bandwidth_halves_the_serialized_transfer():
    # Splitwise (Patel et al., ISCA 2024) §VI-A: the H100 setup (400 Gb/s) transfers "about twice as
    # fast" as the A100 setup (200 Gb/s); a large prompt's serialized transfer is bandwidth-bound. Tolerance 5%.
    observed = SPLITWISE_KV_TRANSFER
    assert observed.faster_link_bit_per_s == 2 * observed.slower_link_bit_per_s
    a100 = inference.kv_transfer("Llama 2 70B", 8192, senders=8, link="InfiniBand HDR")
    h100 = inference.kv_transfer("Llama 2 70B", 8192, senders=8, link="InfiniBand NDR")
    assert a100.total_s / h100.total_s == pytest.approx(observed.serialized_speedup, rel=0.05)


def test_mooncake_moves_a_128k_token_cache_at_the_ports_rate_over_four_200g_nics():
    # Mooncake README: the 40 GB cache of 128k Llama 3 70B tokens at 87 GB/s over 4 x 200 Gbps RoCE. The model,
    # four GPUs each sending a quarter over its 200 Gb/s port: 96 GB/s. Tolerance 15%.
    row = MOONCAKE_KV_TRANSFERS[0]
    transfer = inference.kv_transfer(row.model, row.tokens, senders=row.ports, link="Ethernet 200G")
    assert transfer.kv_bytes / u.GiB == pytest.approx(40, rel=0.01)
    assert transfer.bandwidth_bytes_per_s == pytest.approx(row.rate_bytes_per_s, rel=0.15)


def test_over_eight_400g_nics_mooncakes_dram_benchmark_reaches_half_the_ports():
    # Mooncake README: 190 GB/s over 8 x 400 Gbps, half of the ports' 400 GB/s (the benchmark moves host DRAM;
    # its EFA notes call such runs DRAM-limited). The model, GPU to GPU at the ports' rate: about twice that.
    row = MOONCAKE_KV_TRANSFERS[1]
    transfer = inference.kv_transfer(row.model, row.tokens, senders=row.ports, link="Ethernet 400G")
    assert 1.8 < transfer.bandwidth_bytes_per_s / row.rate_bytes_per_s < 2.1


def test_the_transfer_is_nccls_send_receive_between_two_servers():
    # Issue 35: the KV transfer gets the collective model's numbers for the same inputs.
    t = inference.kv_transfer("Llama 3 70B", 8192, senders=8)
    system = collectives.collective_system("H100 SXM", nodes=2, gpus_per_node=1, nics_per_node=1)
    assert t.total_s == collectives.nccl_time("send_recv", t.kv_bytes / 8, system)


def test_layerwise_transfer_exposes_one_layer():
    whole = inference.kv_transfer("Llama 3 70B", 8192, senders=8)
    layered = inference.kv_transfer("Llama 3 70B", 8192, senders=8, layerwise=True)
    assert layered.exposed_s < whole.exposed_s == whole.total_s
    assert layered.total_s == whole.total_s
    assert whole.kv_bytes == memory.kv_cache_bytes(inference.inference_model("Llama 3 70B"), 8192)


def test_mla_and_fp8_shrink_the_transfer():
    llama = inference.kv_transfer("Llama 3 70B", 4096).kv_bytes
    deepseek = inference.kv_transfer("DeepSeek-V3", 4096).kv_bytes
    fp8 = inference.kv_transfer("DeepSeek-V3", 4096, kv_format="FP8").kv_bytes
    assert llama / deepseek == pytest.approx(320 * 1024 / (61 * 1152))
    assert fp8 / deepseek == pytest.approx(656 / 1152)


def test_each_tier_is_read_as_its_model_says():
    size = 1e9
    assert inference.kv_load_time("GPU HBM", size) == 0.0
    assert inference.kv_load_time("host DRAM", size) == memory.transfer_time(0.0, size,
                                                                             "host DDR5 over PCIe Gen5 x16")
    system = collectives.collective_system("H100 SXM", nodes=2, gpus_per_node=1, nics_per_node=1)
    assert inference.kv_load_time("peer DRAM over RDMA", size) == collectives.nccl_time("send_recv", size, system)
    # 3FS README: peak 40 GiB/s per client server, here shared by its 8 GPUs.
    assert inference.kv_load_time("SSD over RDMA (3FS)", size) == pytest.approx(size / (40 * u.GiB / 8))


def test_nearer_tiers_are_faster():
    times = [inference.kv_load_time(tier, 4e9) for tier in inference.KV_TIERS]
    assert times == sorted(times)


def test_ttft_parts_add_up_and_a_full_cache_skips_prefill():
    r = inference.disaggregated_ttft("Llama 3 70B", 8192, cached_fraction=0.5, tier="peer DRAM over RDMA")
    assert r.ttft_s == pytest.approx(r.load_s + r.prefill_s + r.transfer.exposed_s)
    assert r.uncached_ttft_s == pytest.approx(r.recompute_s + r.transfer.exposed_s)
    full = inference.disaggregated_ttft("Llama 3 70B", 8192, cached_fraction=1.0, tier="GPU HBM")
    assert full.prefill_s == 0.0 and full.load_s == 0.0 and full.saving > 0.99


def test_loading_beats_recomputing_for_every_tier_of_a_long_prompt():
    for tier in inference.KV_TIERS:
        r = inference.disaggregated_ttft("Llama 3 70B", 32768, cached_fraction=0.9, tier=tier)
        assert r.ttft_s < r.uncached_ttft_s, tier


def test_every_prefill_gpu_loads_and_sends_its_share():
    r = inference.disaggregated_ttft("DeepSeek-V3", 8192, cached_fraction=0.5, tier="host DRAM", prefill_gpus=4)
    assert r.transfer.senders == 4
    assert r.load_s == pytest.approx(memory.transfer_time(0.0, r.kv_bytes / 2 / 4, "host DDR5 over PCIe Gen5 x16"))


@pytest.mark.parametrize(("call", "error", "message"), [
    (lambda: inference.kv_transfer("Llama 3 70B", -5), ValueError, "prompt_tokens = -5 token"),
    (lambda: inference.kv_transfer("OPT-66B", 512, layerwise="no"), TypeError, "layerwise must be True or False"),
    (lambda: inference.kv_transfer("OPT-66B", 512, link=400e9), TypeError, r"link must be a Link or the name of one"),
    (lambda: inference.kv_transfer("OPT-66B", 512, link="NVLink 4"), ValueError, "is not a network port"),
    (lambda: inference.kv_transfer("OPT-66B", 512, kv_format="FP4"), ValueError, "valid kv_formats"),
    (lambda: inference.kv_tier("tape"), ValueError, "valid tier names"),
    (lambda: inference.kv_load_time("host DRAM", -1), ValueError, "bytes_per_gpu = -1 B"),
    (lambda: inference.disaggregated_ttft("Llama 3 70B", 4096, cached_fraction=1.5), ValueError,
     r"cached_fraction = 1\.5 is not valid"),
    (lambda: inference.disaggregated_ttft("Llama 3 70B", 4096, prefill_gpus=0), ValueError, "prefill_gpus = 0"),
    (lambda: inference.disaggregated_ttft("Llama 3 70B", 4096, compute_efficiency=0), ValueError,
     "compute_efficiency = 0"),
])
def test_bad_input_names_the_parameter(call, error, message):
    with pytest.raises(error, match=message):
        call()


MODELS = tuple(inference.SERVING_MODELS)
GPUS = tuple(g for g in catalog.GPUS if not g.startswith("MI"))
NETWORK_LINKS = tuple(name for name in catalog.LINKS if name.startswith(("InfiniBand", "Ethernet")))


def kv_transfer_within_link(result, kwargs):
    rate = catalog.link(kwargs["link"]).per_direction_bytes_per_s
    assert result.bandwidth_bytes_per_s <= rate * kwargs["senders"] * (1 + 1e-9)
    assert 0 <= result.exposed_s <= result.total_s


def ttft_consistent(result, kwargs):
    assert result.ttft_s > 0 and result.uncached_ttft_s > 0 and result.load_s >= 0


FUZZ_CASES = [
    Case(inference.kv_transfer, dict(
        model=choice(MODELS), prompt_tokens=nonnegative(1.0, 1e10), senders=count(1, 64), link=choice(NETWORK_LINKS),
        layerwise=flag(), kv_format=choice(inference.KV_CACHE_FORMATS), gpu=choice(GPUS)),
         check=kv_transfer_within_link),
    Case(inference.kv_tier, dict(name=choice(tuple(inference.KV_TIERS)))),
    Case(inference.kv_load_time, dict(tier=choice(tuple(inference.KV_TIERS)), bytes_per_gpu=nonnegative(1.0, 1e19),
                                      gpu=choice(GPUS), network=choice(NETWORK_LINKS))),
    Case(inference.disaggregated_ttft, dict(
        model=choice(MODELS), prompt_tokens=positive(1.0, 1e10), cached_fraction=fraction(),
        tier=choice(tuple(inference.KV_TIERS)), gpu=choice(GPUS), prefill_gpus=count(1, 64),
        kv_link=choice(NETWORK_LINKS), kv_format=choice(inference.KV_CACHE_FORMATS), layerwise=flag(),
        compute_efficiency=optional(fraction(0.01, 1.0))),
         check=ttft_consistent, exempt=("saving",), examples=0.5),
]

test_fuzz, test_fuzz_nightly = make_tests(FUZZ_CASES)
