"""Chapter 4 panel: GPUDirect RDMA against staging shows what the model computes."""

import numpy as np
import pytest

pytest.importorskip("ipywidgets")

from interconnect_lab import catalog, published, units as u
from interconnect_lab.plotting.rdma import gpu_transfer_plot
from interconnect_lab.rdma import GPU_PATHS, SEGMENTS, gpu_transfer
from interconnect_lab.widgets.rdma import LOADS, PCIE_LINKS, SIZE_GRID, SIZES, GpuDirectPanel


def expected(size, path, pcie="PCIe Gen5 x16", nic="ConnectX-7", load=LOADS[1][1]):
    gpus, both = load
    return gpu_transfer(size, path, nic=catalog.nic(nic), pcie_bytes_per_s=catalog.link(pcie).per_direction_bytes_per_s,
                        gpus_sharing_host=gpus, bidirectional=both,
                        inter_socket_bytes_per_s=published.INTER_SOCKET_LINK_BYTES_PER_S)


def test_initial_state_matches_the_model():
    panel = GpuDirectPanel()
    point = expected(64 * u.MiB, "GPUDirect RDMA")
    assert panel.result["point"] == point
    assert LOADS[1][1] == (catalog.system("DGX H100").gpus_per_socket, True)
    for path in GPU_PATHS:
        curve = panel.result["curves"][path]
        np.testing.assert_allclose(curve.time_s, expected(SIZE_GRID, path).time_s)
    assert f"{point.rate_bytes_per_s / u.GB_per_s:,.1f} GB/s per GPU" in panel.readout.value
    assert "network port" in panel.readout.value and "would use GPUDirect" in panel.readout.value


@pytest.mark.parametrize(("control", "value"), [
    ("size_bytes", 4 * u.KiB), ("path", "staged through host memory"), ("pcie", "PCIe Gen3 x16"),
    ("nic", "ConnectX-6"), ("load", LOADS[0][1]),
])
def test_every_control_changes_readout_and_figure(control, value):
    # Staged, so that the load matters too (GPUDirect runs at the port's rate under either load).
    panel = GpuDirectPanel(path="staged, NIC on the other socket" if control == "load" else "GPUDirect RDMA")
    readout, image = panel.readout.value, panel.png()
    panel.controls[control].value = value
    assert panel.readout.value != readout
    assert panel.png() != image


def test_staging_for_a_whole_socket_is_limited_by_host_memory_and_says_why():
    panel = GpuDirectPanel(path="staged through host memory")
    assert panel.result["point"].limited_by == "host memory"
    assert "host memory" in panel.readout.value and "off or unavailable" in panel.readout.value
    panel.controls["path"].value = "staged, NIC on the other socket"
    assert "would not use GPUDirect" in panel.readout.value and "PXB" in panel.readout.value


def test_choices_come_from_the_catalog_and_every_result_fits_the_fixed_axes():
    panel = GpuDirectPanel()
    assert [v for _, v in panel.controls["nic"].options] == list(catalog.NICS)
    assert [v for _, v in panel.controls["pcie"].options] == list(PCIE_LINKS)
    assert SIZES[0] == SIZE_GRID[0] and SIZES[-1] == SIZE_GRID[-1]
    for nic in catalog.NICS:
        for pcie in PCIE_LINKS:
            for _, load in LOADS:
                for path in GPU_PATHS:
                    t = expected(SIZE_GRID, path, pcie, nic, load)
                    assert t.rate_bytes_per_s < GpuDirectPanel.BANDWIDTH_LIMIT_BYTES_PER_S
                    rates = [s.rate_bytes_per_s for s in t.segments]
                    assert max(rates) < GpuDirectPanel.RATE_LIMIT_BYTES_PER_S


def test_the_figure_shows_every_segment_and_marks_the_bottleneck():
    curves = {path: expected(SIZE_GRID, path) for path in GPU_PATHS}
    point = expected(2**30, "staged through host memory")
    curve_ax, bar_ax = gpu_transfer_plot(curves, point)
    labels = [t.get_text() for t in bar_ax.get_yticklabels()]
    assert labels == list(SEGMENTS)
    widths = {p.get_gid(): p.get_width() for p in bar_ax.patches}
    assert widths["bar:host memory"] == pytest.approx(point.rate_bytes_per_s / u.GB_per_s)
    assert widths["bar:inter-socket link"] == 0.0
    with pytest.raises(TypeError, match="one message size"):
        gpu_transfer_plot(curves, curves["GPUDirect RDMA"])
