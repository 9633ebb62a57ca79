"""RDMA model: kernel TCP against RDMA on the host, GPUDirect RDMA against staging through host memory.

Hostile input is at the end (and fuzzed with tests/fuzzing.py where noted).
"""

import dataclasses
import math

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from fuzzing import Case, choice, count, flag, fraction, make_tests, nonnegative, positive

from interconnect_lab import catalog, memory, published, rdma, units as u
from interconnect_lab.collectives import NETWORK_EFFICIENCY
from interconnect_lab.rdma import (
    GPU_PATHS, NCCL_CHUNK_BYTES, STACKS, gpu_transfer, host_latency, host_memory_traffic, host_transfer,
    nccl_uses_gpudirect,
)
from interconnect_lab.topology import path_latency

CX7 = catalog.nic("ConnectX-7")

PORT_400G = 400 * u.Gbit_per_s

SIZES = np.geomspace(1, 2**32, 60)


def transfer(size, stack, link=PORT_400G, case="central"):
    return host_transfer(size, stack, link_bytes_per_s=link, latency_s=host_latency(stack, case=case).total_s)


def test_kernel_tcp_per_core_is_cai_2021_section_1():
    # "~42Gbps throughput-per-core", > 50 % of cycles copying, on a 3.4 GHz Xeon with a 100 Gbps NIC.
    measured = published.KERNEL_TCP_PER_CORE
    assert measured.bytes_per_s_per_core == pytest.approx(5.25 * u.GB_per_s)
    assert measured.data_copy_share_of_cycles == 0.5
    assert measured.link_bytes_per_s / u.Gbit_per_s == pytest.approx(100)
    t = transfer(2**30, "kernel TCP")
    assert t.cycles_per_byte(measured.clock_hz) == pytest.approx(3.4e9 / 5.25e9)


def test_one_core_saturates_40g_but_not_100g_cai_2021_section_3_1():
    # "For 10-40Gbps access link bandwidths, a single thread was able to saturate the network
    # bandwidth. However, such is no longer the case for high-bandwidth networks."
    at_40 = transfer(2**30, "kernel TCP", link=40 * u.Gbit_per_s)
    at_100 = transfer(2**30, "kernel TCP", link=100 * u.Gbit_per_s)
    assert at_40.limited_by == "network port"
    assert at_100.limited_by == "CPU"
    assert at_100.cores_to_fill_link == pytest.approx(NETWORK_EFFICIENCY * 100 / 42)


def test_erpc_moves_more_per_core_than_the_kernel_kalia_2019():
    assert published.ERPC_PER_CORE.bytes_per_s_per_core / published.KERNEL_TCP_PER_CORE.bytes_per_s_per_core \
        == pytest.approx(75 / 42)
    assert published.ERPC_PER_CORE.messages_per_s_per_core == 10e6


def test_host_latency_adds_the_published_parts():
    est = published.LATENCY_ESTIMATES
    mid = {name: e.at("central") for name, e in est.items()}
    rdma_latency = host_latency("RDMA", switch_hops=3, switch_latency_s=130 * u.ns, link_latency_s=100 * u.ns)
    expected = path_latency(3, software_s=2 * mid["application post or receive"],
                            nic_s=2 * mid["NIC transmit or receive path (RDMA)"],
                            switch_latency_s=130 * u.ns, link_latency_s=100 * u.ns)
    assert rdma_latency == expected
    tcp_latency = host_latency("kernel TCP", switch_hops=3, switch_latency_s=130 * u.ns, link_latency_s=100 * u.ns)
    assert tcp_latency.total_s - rdma_latency.total_s == pytest.approx(mid["kernel TCP/IP stack"])
    # The ends of the ranges bracket the middle.
    for stack in STACKS:
        best, central, worst = (host_latency(stack, case=c).total_s for c in rdma.CASES)
        assert best < central < worst


def test_zero_bytes_take_the_latency_and_large_messages_reach_the_rate():
    for stack in STACKS:
        t = transfer(np.array([0.0, 2.0**40]), stack)
        assert t.time_s[0] == pytest.approx(t.latency_s)
        assert t.effective_bandwidth_bytes_per_s[0] == 0.0
        assert t.effective_bandwidth_bytes_per_s[1] == pytest.approx(t.rate_bytes_per_s, rel=1e-4)


def test_rdma_runs_at_the_port_and_costs_no_cpu_per_byte():
    t = transfer(2**30, "RDMA")
    assert t.rate_bytes_per_s == pytest.approx(NETWORK_EFFICIENCY * PORT_400G)
    assert (t.cpu_s_per_byte, t.cores_to_fill_link, t.host_memory_bytes_per_byte) == (0.0, 0.0, 1)


def test_kernel_tcp_is_cpu_bound_and_more_cores_help_until_the_port():
    one = transfer(2**30, "kernel TCP")
    assert one.limited_by == "CPU" and one.rate_bytes_per_s == pytest.approx(42 * u.Gbit_per_s)
    many = host_transfer(2**30, "kernel TCP", link_bytes_per_s=PORT_400G, latency_s=one.latency_s,
                         cores_per_end=16)
    assert many.limited_by == "network port"
    assert many.rate_bytes_per_s == pytest.approx(NETWORK_EFFICIENCY * PORT_400G)
    assert one.host_memory_bytes_per_byte == 3 and STACKS["kernel TCP"].cpu_copies_per_end == 1


def test_small_messages_are_latency_bound_and_the_kernel_is_ten_times_slower():
    tcp, rdma_ = transfer(64, "kernel TCP"), transfer(64, "RDMA")
    assert tcp.time_s / rdma_.time_s == pytest.approx(host_latency("kernel TCP").total_s
                                                      / host_latency("RDMA").total_s, rel=1e-3)
    assert tcp.time_s / rdma_.time_s > 5


@given(st.sampled_from(list(STACKS)), st.floats(1e9, 1e12), st.sampled_from(rdma.CASES))
@settings(max_examples=60, deadline=None)
def test_time_grows_and_bandwidth_never_exceeds_the_rate(stack, link, case):
    t = transfer(SIZES, stack, link=link, case=case)
    assert np.all(np.diff(t.time_s) > 0)
    assert np.all(np.diff(t.effective_bandwidth_bytes_per_s) > 0)
    assert np.all(t.effective_bandwidth_bytes_per_s < t.rate_bytes_per_s)
    assert t.rate_bytes_per_s <= NETWORK_EFFICIENCY * link * (1 + 1e-12)


def test_host_memory_traffic():
    assert host_memory_traffic(3, rate_bytes_per_s=50 * u.GB_per_s, nics=8) == pytest.approx(2400 * u.GB_per_s)
    assert host_memory_traffic(1, rate_bytes_per_s=50 * u.GB_per_s, nics=8, bidirectional=False) \
        == pytest.approx(400 * u.GB_per_s)
    assert host_memory_traffic(0, rate_bytes_per_s=50 * u.GB_per_s, nics=8) == 0


def test_nccl_default_gpudirect_threshold_is_pxb():
    assert [nccl_uses_gpudirect(t) for t in ("PIX", "PXB", "PHB", "NODE", "SYS")] == [True, True, False, False,
                                                                                      False]
    assert nccl_uses_gpudirect("SYS", gdr_level="SYS")
    assert not nccl_uses_gpudirect("PIX", gdr_level="LOC")
    assert rdma.NCCL_CHUNK_BYTES == 512 * u.KiB


def test_gpudirect_is_limited_by_the_port_and_touches_no_host_memory():
    t = gpu_transfer(2**30, "GPUDirect RDMA", nic=CX7, gpus_sharing_host=4, bidirectional=True)
    assert t.limited_by == "network port"
    assert t.rate_bytes_per_s == pytest.approx(NETWORK_EFFICIENCY * CX7.per_direction_bytes_per_s)
    assert t.host_memory_bytes_per_byte == 0 and t.segment("host memory") is None
    assert t.staging_latency_s == 0.0 and t.nccl_default_gpudirect


def test_staging_loads_the_uplink_twice_and_host_memory_four_times_both_ways():
    gen5 = catalog.link("PCIe Gen5 x16").per_direction_bytes_per_s
    memory = catalog.memory_tier("Host DDR5 (one Xeon socket)").bandwidth_bytes_per_s
    one_way = gpu_transfer(2**30, "staged through host memory", nic=CX7)
    both = gpu_transfer(2**30, "staged through host memory", nic=CX7, bidirectional=True)
    socket = gpu_transfer(2**30, "staged through host memory", nic=CX7, bidirectional=True, gpus_sharing_host=4)
    assert one_way.limited_by == "network port"       # one GPU, one way: staging costs no bandwidth
    assert both.segment("PCIe switch uplink").rate_bytes_per_s == pytest.approx(gen5 / 2)
    assert both.limited_by == "PCIe switch uplink"
    assert socket.limited_by == "host memory"
    assert socket.rate_bytes_per_s == pytest.approx(memory / 16)
    assert socket.host_memory_bytes_per_byte == 2


def test_staging_adds_one_chunk_copy_at_each_end():
    gen5 = catalog.link("PCIe Gen5 x16").per_direction_bytes_per_s
    sizes = np.array([4 * u.KiB, 64 * u.MiB])
    staged = gpu_transfer(sizes, "staged through host memory", nic=CX7)
    direct = gpu_transfer(sizes, "GPUDirect RDMA", nic=CX7)
    np.testing.assert_allclose(staged.staging_latency_s, 2 * np.minimum(sizes, NCCL_CHUNK_BYTES) / gen5)
    np.testing.assert_allclose(staged.time_s - direct.time_s, staged.staging_latency_s)  # same rate, one way


def test_crossing_sockets_needs_the_link_and_shares_it():
    with pytest.raises(ValueError, match="inter_socket_bytes_per_s"):
        gpu_transfer(2**30, "staged, NIC on the other socket", nic=CX7)
    link = published.INTER_SOCKET_LINK_BYTES_PER_S
    one = gpu_transfer(2**30, "staged, NIC on the other socket", nic=CX7, inter_socket_bytes_per_s=link)
    four = gpu_transfer(2**30, "staged, NIC on the other socket", nic=CX7, inter_socket_bytes_per_s=link,
                        gpus_sharing_host=4)
    assert one.limited_by == "inter-socket link" and one.rate_bytes_per_s == pytest.approx(link)
    assert four.rate_bytes_per_s == pytest.approx(link / 4)
    assert one.path_type == "SYS" and not one.nccl_default_gpudirect


def test_an_800g_nic_in_a_gen5_slot_is_pcie_bound():
    cx8 = catalog.nic("ConnectX-8")
    gen5 = catalog.link("PCIe Gen5 x16").per_direction_bytes_per_s
    own = gpu_transfer(2**30, "GPUDirect RDMA", nic=cx8)          # its own Gen6 host link
    slow = gpu_transfer(2**30, "GPUDirect RDMA", nic=cx8, pcie_bytes_per_s=gen5)
    assert own.limited_by == "network port"
    assert slow.limited_by == "NIC's PCIe link" and slow.rate_bytes_per_s == pytest.approx(gen5)


@given(st.sampled_from(list(catalog.NICS)), st.sampled_from(["PCIe Gen3 x16", "PCIe Gen4 x16", "PCIe Gen5 x16",
                                                              "PCIe Gen6 x16"]),
       st.integers(1, 8), st.booleans(), st.floats(10e9, 100e9))
@settings(max_examples=80, deadline=None)
def test_gpudirect_is_never_slower_than_staging(nic, pcie, gpus, both, inter):
    options = dict(nic=catalog.nic(nic), pcie_bytes_per_s=catalog.link(pcie).per_direction_bytes_per_s,
                   gpus_sharing_host=gpus, bidirectional=both, inter_socket_bytes_per_s=inter)
    direct = gpu_transfer(SIZES, "GPUDirect RDMA", **options)
    for path in GPU_PATHS:
        other = gpu_transfer(SIZES, path, **options)
        assert other.rate_bytes_per_s <= direct.rate_bytes_per_s * (1 + 1e-12)
        assert np.all(other.time_s >= direct.time_s * (1 - 1e-12))
        assert np.all(np.diff(other.effective_bandwidth_bytes_per_s) >= 0)
        assert np.all(other.effective_bandwidth_bytes_per_s <= other.rate_bytes_per_s * (1 + 1e-12))


def test_unknown_names_list_the_valid_ones():
    with pytest.raises(ValueError, match="valid stacks are: 'kernel TCP', 'RDMA'"):
        host_latency("UDP")
    with pytest.raises(ValueError, match="valid paths are: 'GPUDirect RDMA'"):
        gpu_transfer(1.0, "NVLink", nic=CX7)
    with pytest.raises(ValueError, match="valid cases are"):
        host_latency("RDMA", case="typical")
    with pytest.raises(ValueError, match="valid path_types are"):
        nccl_uses_gpudirect("PCI")


def test_bad_values_name_the_parameter_and_unit():
    with pytest.raises(ValueError, match=r"size_bytes = -1 B"):
        transfer(-1.0, "RDMA")
    with pytest.raises(ValueError, match=r"link_bytes_per_s = 0 B/s"):
        host_transfer(1.0, "RDMA", link_bytes_per_s=0.0, latency_s=0.0)
    with pytest.raises(ValueError, match="cores_per_end = 0"):
        host_transfer(1.0, "kernel TCP", link_bytes_per_s=1e9, latency_s=0.0, cores_per_end=0)
    with pytest.raises(TypeError, match="nic must be a catalog NIC"):
        gpu_transfer(1.0, "GPUDirect RDMA", nic="ConnectX-7")
    with pytest.raises(TypeError, match="bidirectional"):
        gpu_transfer(1.0, "GPUDirect RDMA", nic=CX7, bidirectional="yes")
    with pytest.raises(ValueError, match="gpus_sharing_host = 0"):
        gpu_transfer(1.0, "GPUDirect RDMA", nic=CX7, gpus_sharing_host=0)
    with pytest.raises(ValueError, match="mover"):
        rdma.Hop(place="x", mover="DMA", how="y")


def test_catalog_systems_know_their_sockets():
    dgx = catalog.system("DGX H100")
    assert (dgx.cpu_sockets, dgx.gpus_per_socket) == (2, 4)
    assert catalog.system("HGX H100").gpus_per_socket is None
    with pytest.raises(ValueError, match="cpu_sockets"):
        dataclasses.replace(dgx, cpu_sockets=0)
    assert math.isinf(rdma.Segment(name="host memory", capacity_bytes_per_s=1.0, load=0).rate_bytes_per_s)


# Hostile input: fuzzed with tests/fuzzing.py -----------------------------------------------------

size = nonnegative(1.0, 1e13)

rate = positive(1e6, 1e13)

latency = nonnegative(1e-9, 1e-2)

FUZZ_CASES = [
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
]

test_fuzz, test_fuzz_nightly = make_tests(FUZZ_CASES)
