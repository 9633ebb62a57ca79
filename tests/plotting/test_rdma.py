"""Chapter 4 figures draw what the model computes, with labelled axes and units."""

import numpy as np
import pytest

pytest.importorskip("matplotlib")

from interconnect_lab import catalog, units as u
from interconnect_lab.plotting.rdma import MOVER_COLORS, data_path_plot, host_memory_plot, host_transfer_plot
from interconnect_lab.rdma import GPU_PATHS, STACKS, host_latency, host_transfer


SIZES = np.geomspace(8, 2**30, 50)

PORT = catalog.nic("ConnectX-7").per_direction_bytes_per_s


def test_data_path_plot_draws_every_place_twice_and_colours_by_mover():
    routes = {name: s.route for name, s in STACKS.items()} | {name: p.route for name, p in GPU_PATHS.items()}
    ax = data_path_plot(routes)
    texts = [t.get_text().replace("\n", " ") for t in ax.texts]
    for route in routes.values():
        for hop in route:
            assert texts.count(hop.place) >= 2            # sender and receiver
    assert texts.count("NIC") == 2 * len(routes)
    colours = {tuple(p.get_facecolor()[:3]) for p in ax.patches}
    assert len(colours) == 4                              # CPU, NIC, GPU movers and the network
    assert [t.get_text() for t in ax.get_legend().get_texts()] == [
        "CPU copies (software)", "NIC reads or writes by DMA", "GPU copies over PCIe"]
    host_only = data_path_plot({name: s.route for name, s in STACKS.items()})
    assert len(host_only.get_legend().get_texts()) == 2   # only the movers it uses
    with pytest.raises(ValueError, match="at least one route"):
        data_path_plot({})


def test_host_transfer_plot_draws_the_model_with_units():
    central = {s: host_transfer(SIZES, s, link_bytes_per_s=PORT, latency_s=host_latency(s).total_s) for s in STACKS}
    time_ax, bandwidth_ax = host_transfer_plot(central, link_bytes_per_s=PORT)
    assert time_ax.get_ylabel() == "one-way time [µs]" and "[B]" in time_ax.get_xlabel()
    assert "[GB/s]" in bandwidth_ax.get_ylabel()
    for line, (name, t) in zip(bandwidth_ax.lines, central.items()):
        np.testing.assert_allclose(line.get_ydata(), t.effective_bandwidth_bytes_per_s / u.GB_per_s)
    assert bandwidth_ax.get_ylim()[1] > PORT / u.GB_per_s
    with pytest.raises(ValueError, match="array of sizes"):
        host_transfer_plot({"RDMA": host_transfer(1.0, "RDMA", link_bytes_per_s=PORT, latency_s=0.0)})


def test_host_memory_plot_marks_what_does_not_fit():
    ax = host_memory_plot({"a": 900e9, "b": 100e9, "c": 0.0}, 600e9)
    assert sorted(p.get_width() for p in ax.patches) == pytest.approx([0.0, 100.0, 900.0])  # GB/s
    over = [p for p in ax.patches if p.get_width() > 600]
    assert len({tuple(p.get_facecolor()) for p in over}) == 1
    assert tuple(over[0].get_facecolor()) != tuple(next(p for p in ax.patches if p.get_width() == 100).get_facecolor())
    assert ax.get_xlabel().endswith("[GB/s]")
    assert ax.get_xlim()[1] > 900
    with pytest.raises(ValueError):
        host_memory_plot({}, 1.0)
    assert set(MOVER_COLORS) == {"CPU", "NIC", "GPU"}
