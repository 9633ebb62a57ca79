"""What NCCL runs over sizes and node counts (chapter 7's panel): every cell is nccl_collective's answer,
every crossover is where that answer changes, and the limits busbw is measured against hold."""

import math

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from interconnect_lab import units as u
from interconnect_lab.collectives import ChoiceMap, collective_system, nccl_choice_map, nccl_collective
from interconnect_lab.collectives.choice_map import DEFAULT_NODES, DEFAULT_SIZES_BYTES

H100 = collective_system("H100 SXM")
SIZES = 2.0 ** np.arange(3.0, 35.0)
MAP = nccl_choice_map("all_reduce", H100, nodes=(1, 2, 16), size_bytes=SIZES)


def test_every_cell_is_what_nccl_collective_says():
    for i, nodes in enumerate(MAP.nodes):
        result = nccl_collective("all_reduce", SIZES, H100.with_nodes(nodes))
        assert list(MAP.algorithm[i]) == list(result.algorithm)
        assert list(MAP.protocol[i]) == list(result.protocol)
        assert np.array_equal(MAP.channels[i], result.channels)
        assert np.array_equal(MAP.bus_bandwidth_bytes_per_s[i], result.bus_bandwidth_bytes_per_s)
        assert np.array_equal(MAP.time_s[i], result.time_s)


def test_each_crossover_is_where_the_choice_changes():
    assert MAP.crossovers
    for crossover in MAP.crossovers:
        system = H100.with_nodes(crossover.nodes)
        at = nccl_collective("all_reduce", crossover.size_bytes, system)
        below = nccl_collective("all_reduce", crossover.size_bytes * (1 - 1e-3), system)
        assert (at.algorithm, at.protocol) == crossover.after
        assert (below.algorithm, below.protocol) == crossover.before
        assert crossover.before != crossover.after


def test_segments_tile_the_row_and_follow_the_crossovers():
    for nodes in MAP.nodes:
        segments = MAP.segments(nodes)
        assert segments[0][2] == SIZES[0] and segments[-1][3] == SIZES[-1]
        assert all(a[3] == b[2] for a, b in zip(segments, segments[1:]))
        assert len(segments) == len(MAP.crossovers_at(nodes)) + 1
        for algorithm, protocol, low, high in segments:
            inside = (SIZES >= low) & (SIZES < high)
            assert set(MAP.algorithm[MAP.row(nodes)][inside]) <= {algorithm}
            assert set(MAP.protocol[MAP.row(nodes)][inside]) <= {protocol}


def test_two_nodes_of_h100_start_on_the_tree_and_end_on_nvlstree():
    # tuning.cc: the tree's LL latency wins small all-reduces across nodes; NVLSTree (NVLS inside, a
    # tree across) the large ones; on one node the ring's LL, then NVLS.
    assert [(a, p) for a, p, _, _ in MAP.segments(2)] == [("tree", "LL"), ("tree", "LL128"), ("nvls_tree", "Simple")]
    assert [(a, p) for a, p, _, _ in MAP.segments(1)] == [("ring", "LL"), ("nvls", "Simple")]
    assert MAP.choices()[0] == ("ring", "LL")


def test_pat_runs_only_with_one_gpu_per_node_and_a_single_rank_row_is_empty():
    one = nccl_choice_map("all_gather", collective_system("H100 SXM", gpus_per_node=1), nodes=(1, 16))
    assert MAP.algorithm.dtype.kind == "U"
    assert one.segments(1) == () and set(one.algorithm[0]) == {""} and not one.bus_bandwidth_bytes_per_s[0].any()
    assert one.segments(16)[0][:2] == ("pat", "Simple")
    eight = nccl_choice_map("all_gather", H100, nodes=(16,))
    assert "pat" not in set(eight.algorithm.ravel())


def test_the_limits_are_the_nvlink_and_the_ports():
    assert MAP.bus_bandwidth_limits(1) == {"nvlink": H100.nvlink_bytes_per_s}
    assert MAP.bus_bandwidth_limits(2) == {"nvlink": H100.nvlink_bytes_per_s, "ports": 8 * 50 * u.GB_per_s}
    a2a = nccl_choice_map("all_to_all", H100, nodes=(2, 4), size_bytes=SIZES)
    assert a2a.bus_bandwidth_limits(4)["ports"] == pytest.approx(50 * u.GB_per_s * 4 / 3)
    assert set(a2a.algorithm.ravel()) == {"p2p"} and a2a.crossovers == ()
    one_gpu = nccl_choice_map("all_gather", collective_system("H100 SXM", gpus_per_node=1), nodes=(1, 2))
    assert "nvlink" not in one_gpu.bus_bandwidth_limits(2)


@pytest.mark.parametrize("machine", [
    {"gpu": "H100 SXM"}, {"gpu": "A100 SXM", "network": "InfiniBand HDR"},
    {"gpu": "B200", "network": "Ethernet 400G", "nics_per_node": 4}, {"gpu": "H100 SXM", "gpus_per_node": 1},
])
@pytest.mark.parametrize("collective", ["all_gather", "reduce_scatter", "all_to_all"])
def test_across_nodes_busbw_stays_under_the_ports(machine, collective):
    # A ring across nodes without SHARP: the ports of one node carry (n-1)/n of the buffer (as much as
    # one GPU's NVLink), so busbw <= all the node's ports; all-to-all: <= N/(N-1) x one GPU's port.
    m = nccl_choice_map(collective, collective_system(**machine), nodes=(2, 4, 64))
    for nodes in m.nodes:
        assert m.bus_bandwidth_bytes_per_s[m.row(nodes)].max() <= m.bus_bandwidth_limits(nodes)["ports"] * (1 + 1e-12)


@settings(max_examples=25, deadline=None)
@given(nodes=st.sampled_from([2, 3, 8, 64]), gpus=st.sampled_from([1, 2, 4, 8]),
       collective=st.sampled_from(["all_reduce", "all_gather", "reduce_scatter", "broadcast", "all_to_all"]))
def test_busbw_grows_with_size_within_one_choice(nodes, gpus, collective):
    m = nccl_choice_map(collective, collective_system("H100 SXM", gpus_per_node=gpus), nodes=(nodes,),
                        size_bytes=2.0 ** np.arange(10.0, 34.0))
    algorithm, protocol, busbw = m.algorithm[0], m.protocol[0], m.bus_bandwidth_bytes_per_s[0]
    same = (algorithm[1:] == algorithm[:-1]) & (protocol[1:] == protocol[:-1])
    assert np.all(np.diff(busbw)[same] >= -1e-9 * busbw[1:][same])


def test_defaults_span_a_thousand_nodes_and_eight_bytes_to_sixteen_gib():
    assert DEFAULT_NODES[0] == 1 and DEFAULT_NODES[-1] == 1024
    assert DEFAULT_SIZES_BYTES[0] == 8 and DEFAULT_SIZES_BYTES[-1] == 16 * u.GiB
    assert isinstance(nccl_choice_map("broadcast", H100, nodes=(1,)), ChoiceMap)


@pytest.mark.parametrize("kwargs, error, match", [
    ({"collective": "allreduce"}, ValueError, "all_reduce"),
    ({"nodes": (2, 1)}, ValueError, "increase strictly"),
    ({"nodes": (0, 2)}, ValueError, r"integers in \[1"),
    ({"nodes": (1.5,)}, ValueError, "integers"),
    ({"nodes": ()}, ValueError, "at least one"),
    ({"nodes": 4}, TypeError, "sequence of node counts"),
    ({"size_bytes": (1e3, 1e2)}, ValueError, "increase strictly"),
    ({"size_bytes": (0.0, 1e2)}, ValueError, r"\[1, 1e30\]"),
    ({"size_bytes": (1e3,)}, ValueError, "at least two"),
    ({"system": "H100 SXM"}, TypeError, "CollectiveSystem"),
])
def test_bad_input_names_the_parameter(kwargs, error, match):
    arguments = {"collective": "all_reduce", "system": H100, "nodes": (1, 2), "size_bytes": SIZES, **kwargs}
    with pytest.raises(error, match=match):
        nccl_choice_map(arguments.pop("collective"), arguments.pop("system"), **arguments)


def test_a_machine_without_ports_cannot_span_nodes_and_rows_are_named():
    alone = collective_system("H100 SXM", nics_per_node=0)
    with pytest.raises(ValueError, match="nics_per_node"):
        nccl_choice_map("all_reduce", alone, nodes=(1, 2))
    with pytest.raises(ValueError, match=r"rows are \[1, 2, 16\]"):
        MAP.row(4)
    assert math.isclose(MAP.segments(16)[-1][3], SIZES[-1])
