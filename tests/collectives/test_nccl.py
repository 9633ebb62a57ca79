"""NCCL's cost model on a machine: what it runs and how long it takes.

Published values come from NCCL's maintainers (nccl-tests issues #212, #130, #119;
nccl issue #812); identities and limits from NCCL's source at commit 5067397c.
"""

import dataclasses
import math

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from interconnect_lab import units as u
from interconnect_lab.collectives import nccl, tuning
from interconnect_lab.collectives.graphs import search_graphs
from interconnect_lab.collectives.nccl import algorithm_costs, nccl_collective
from interconnect_lab.collectives.point_to_point import point_to_point
from interconnect_lab.collectives.system import CollectiveSystem, collective_system


H100 = collective_system("H100 SXM")
A100_HDR = collective_system("A100 SXM", network="InfiniBand HDR")


def test_h100_ring_is_twelve_channels_of_thirty_gb_per_s():
    # search.cc: 6 channels at 60 GB/s (360 of NCCL's 370.8) doubled into 12 at 30.
    graphs = search_graphs(H100)
    assert (graphs.ring.channels, graphs.ring.intra_bytes_per_s) == (12, 30 * u.GB_per_s)
    assert graphs.channels == 24


def test_h100_nvls_all_reduce_matches_the_maintainers_480_gb_per_s():
    # nccl-tests #212: NVLS all-reduce on 8 H100 peaks at busbw ~480 GB/s, algbw ~275 GB/s. Tolerance 2%.
    result = nccl_collective("all_reduce", 8 * u.GiB, H100)
    assert result.algorithm == "nvls"
    assert result.bus_bandwidth_bytes_per_s == pytest.approx(480 * u.GB_per_s, rel=0.02)
    assert result.algorithm_bandwidth_bytes_per_s == pytest.approx(275 * u.GB_per_s, rel=0.02)


def test_h100_ring_matches_the_maintainers_370_gb_per_s():
    # nccl-tests #212: ~370 GB/s effective with NCCL_ALGO=RING. Tolerance 3%.
    result = nccl_collective("all_reduce", 8 * u.GiB, H100, algorithm="ring")
    assert result.bus_bandwidth_bytes_per_s == pytest.approx(370 * u.GB_per_s, rel=0.03)


def test_dgx_a100_ring_across_nodes_is_the_eight_nics():
    # nccl #812 (a maintainer): 8 x 200 Gb/s per DGX A100, "we measure 192GB/s AllReduce BusBW". Exact:
    # 8 channels of 24 GB/s, the search's speed for a 25 GB/s port.
    system = A100_HDR.with_nodes(4)
    result = nccl_collective("all_reduce", 8 * u.GiB, system, algorithm="ring")
    assert result.bus_bandwidth_bytes_per_s == pytest.approx(192 * u.GB_per_s, rel=0.01)


def test_all_gather_across_nodes_is_a_ring_bounded_by_the_nics():
    # Without SHARP NCCL has no hierarchical all-gather: one ring through the ports (nccl-mechanisms §4).
    for nodes in (2, 4, 16):
        result = nccl_collective("all_gather", 4 * u.GiB, H100.with_nodes(nodes))
        assert result.algorithm == "ring"
        ports = H100.nics_per_node * H100.nic_bytes_per_s
        assert result.bus_bandwidth_bytes_per_s <= ports


def test_pat_runs_only_with_one_gpu_per_node():
    one = collective_system("H100 SXM", nodes=16, gpus_per_node=1)
    assert nccl_collective("all_gather", 64 * u.KiB, one).algorithm == "pat"
    with pytest.raises(ValueError, match="PAT runs only with one GPU per node"):
        nccl_collective("all_gather", 64 * u.KiB, H100.with_nodes(16), algorithm="pat")


def test_nvls_needs_nvswitch_and_sharp_across_nodes():
    with pytest.raises(ValueError, match="NVLS needs NVSwitch and Hopper"):
        nccl_collective("all_reduce", u.GiB, A100_HDR, algorithm="nvls")
    with pytest.raises(ValueError, match="NVLS across nodes needs SHARP"):
        nccl_collective("all_reduce", u.GiB, H100.with_nodes(4), algorithm="nvls")


def test_nvls_tree_has_one_group_per_port_and_needs_two():
    # ncclTopoSearchRecNet gives each NVLS head a NIC of its own; tuning.cc skips NVLS with
    # fewer than two channels.
    def on(ports):
        return dataclasses.replace(H100.with_nodes(16), nics_per_node=ports)

    assert search_graphs(on(8)).nvls.channels == 8 and search_graphs(on(4)).nvls.channels == 4
    eight, four = (nccl_collective("all_reduce", u.GiB, on(n), algorithm="nvls_tree").bus_bandwidth_bytes_per_s
                   for n in (8, 4))
    assert 0.45 * eight < four < 0.55 * eight   # half the ports, about half the bandwidth
    with pytest.raises(ValueError, match="no bandwidth"):
        nccl_collective("all_reduce", u.GiB, on(1), algorithm="nvls_tree")
    assert nccl_collective("all_reduce", u.GiB, on(1)).algorithm != "nvls_tree"


def test_unknown_names_list_the_valid_ones():
    with pytest.raises(ValueError, match="valid collectives are"):
        nccl_collective("allreduce", u.GiB, H100)
    with pytest.raises(ValueError, match="valid algorithms are"):
        nccl_collective("all_reduce", u.GiB, H100, algorithm="hierarchical")
    with pytest.raises(ValueError, match="valid protocols are"):
        nccl_collective("all_reduce", u.GiB, H100, protocol="LL64")
    with pytest.raises(TypeError, match="system must be a CollectiveSystem"):
        nccl_collective("all_reduce", u.GiB, "H100")


def test_bad_sizes_are_errors_not_numbers():
    for size in (-1.0, math.nan, math.inf, 1e31):
        with pytest.raises(ValueError, match="size_bytes"):
            nccl_collective("all_reduce", size, H100)


def test_ring_latency_grows_with_every_rank_not_nodes_plus_gpus():
    # tuning.cc: (nsteps - nInterSteps) x intra + nInterSteps x inter, nsteps = 2(n - 1).
    def ring_latency(system):
        cost = [c for c in algorithm_costs("all_reduce", system) if (c.algorithm, c.protocol) == ("ring", "Simple")]
        return cost[0].latency_s

    small, large = H100.with_nodes(2), H100.with_nodes(200)
    steps_small, steps_large = 2 * (16 - 1), 2 * (1600 - 1)
    assert ring_latency(large) > 40 * ring_latency(small) * steps_large / steps_small / 100
    assert ring_latency(large) / ring_latency(small) > (1600 + 0) / (16 * 1.5)


def test_protocols_follow_the_size_on_a_forced_ring():
    system = H100.with_nodes(2)
    small, mid, large = (nccl_collective("all_gather", s, system, algorithm="ring")
                         for s in (4 * u.KiB, 4 * u.MiB, 4 * u.GiB))
    assert (small.protocol, mid.protocol, large.protocol) == ("LL", "LL128", "Simple")


def test_nvls_efficiency_differs_by_generation():
    assert tuning.NVLS_EFFICIENCY["hopper"] == 0.85 and tuning.NVLS_EFFICIENCY["blackwell"] == 0.74


def test_nvls_bus_bandwidth_does_not_keep_rising_with_the_domain():
    # Measured NVL72 NVLS all-reduce: 842 GB/s on 8 GB300, 930 on 64 (OCI). Past 32 GPUs NVLS runs
    # at most 32 groups (NCCL_MAX_NVLS_ARITY), so the model's busbw stops rising.
    values = [nccl_collective("all_reduce", 8 * u.GiB, collective_system("GB200", gpus_per_node=n))
              .bus_bandwidth_bytes_per_s for n in (16, 32, 64, 72)]
    assert max(values[1:]) / min(values[1:]) < 1.01
    assert max(values[1:]) <= values[0]


def test_nvls_tree_across_two_blackwell_nodes_meets_nccls_cap():
    # tuning.cc perChMaxNVLSTreeBws: Blackwell 96 GB/s per channel on 2 nodes, 8 channels.
    system = collective_system("B200", nodes=2)
    result = nccl_collective("all_reduce", 16 * u.GiB, system)
    assert result.algorithm == "nvls_tree"
    assert result.bus_bandwidth_bytes_per_s == pytest.approx(8 * 96 * u.GB_per_s, rel=0.01)


def test_all_to_all_across_nodes_is_n_over_n_minus_one_ports():
    # nccl-tests #130 (S. Jeaugey): busBW = N/(N-1) x the network bandwidth per GPU, N nodes; exactly,
    # (n - 1)/(n - ppn) for n ranks, ppn per node, and 1 port with one GPU per node.
    port = 0.96 * H100.nic_bytes_per_s
    for nodes in (2, 4, 8):
        result = point_to_point("all_to_all", 64 * u.GiB, H100.with_nodes(nodes))
        n = 8 * nodes
        assert result.bottleneck == "network"
        assert result.bus_bandwidth_bytes_per_s == pytest.approx((n - 1) / (n - 8) * port, rel=0.01)
        assert result.bus_bandwidth_bytes_per_s == pytest.approx(nodes / (nodes - 1) * port, rel=0.07)
    one_per_node = collective_system("H100 SXM", nodes=16, gpus_per_node=1)
    assert point_to_point("all_to_all", 64 * u.GiB, one_per_node).bus_bandwidth_bytes_per_s == pytest.approx(
        port, rel=0.01)


def test_all_to_all_through_the_one_entry_point():
    result = nccl_collective("all_to_all", u.GiB, H100.with_nodes(2))
    assert (result.algorithm, result.protocol) == ("p2p", "Simple")
    with pytest.raises(ValueError, match="valid algorithms are"):
        nccl_collective("all_to_all", u.GiB, H100, algorithm="ring")


def test_one_rank_takes_no_time():
    one = collective_system("H100 SXM", gpus_per_node=1)
    result = nccl_collective("all_reduce", u.MiB, one)
    assert result.time_s == 0


def test_table_names_every_candidate_and_the_chosen_one():
    text = nccl_collective("all_reduce", u.GiB, H100.with_nodes(2)).table()
    assert "nvls_tree      Simple" in text and "chosen" in text
    assert "CollNet needs SHARP" in text


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(["all_reduce", "all_gather", "reduce_scatter", "broadcast", "all_to_all"]),
       st.sampled_from(["A100 SXM", "H100 SXM", "B200"]), st.integers(1, 64), st.sampled_from([1, 2, 4, 8]))
def test_time_never_falls_as_the_message_grows(collective, gpu, nodes, ppn):
    # For each (algorithm, protocol); the chosen one may switch to a faster protocol at a larger size.
    system = collective_system(gpu, nodes=nodes, gpus_per_node=ppn)
    sizes = 2.0 ** np.arange(3, 35)
    result = nccl_collective(collective, sizes, system)
    assert np.all(np.isfinite(result.time_s)) and np.all(result.time_s >= 0)
    for candidate in result.candidates:
        if np.all(np.isfinite(candidate.time_s)):
            assert np.all(np.diff(candidate.time_s) >= -1e-12), (candidate.algorithm, candidate.protocol)
    if collective != "all_to_all":
        ring = nccl_collective(collective, sizes, system, algorithm="ring", protocol="Simple")
        assert np.all(np.diff(ring.channels) >= 0)


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 32), st.sampled_from([1, 2, 4, 8]))
def test_choice_is_the_cheapest_by_nccls_own_estimate(nodes, ppn):
    system = collective_system("H100 SXM", nodes=nodes, gpus_per_node=ppn)
    result = nccl_collective("all_reduce", 32 * u.MiB, system)
    finite = [c for c in result.candidates if math.isfinite(c.time_s)]
    chosen = [c for c in finite if c.verdict == "chosen"]
    assert len(chosen) == 1


def test_system_rejects_what_cannot_be_built():
    with pytest.raises(ValueError, match="nics_per_node"):
        CollectiveSystem(architecture="hopper", nodes=2, gpus_per_node=8, nvlink_bytes_per_s=370.8e9)
    with pytest.raises(ValueError, match="architecture"):
        CollectiveSystem(architecture="rubin", nodes=1, gpus_per_node=8, nvlink_bytes_per_s=1e12)
    with pytest.raises(ValueError, match="nodes"):
        CollectiveSystem(architecture="hopper", nodes=0, gpus_per_node=8, nvlink_bytes_per_s=1e12)
