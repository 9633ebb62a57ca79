"""Panel for chapter 4: GPUDirect RDMA against staging through host memory."""

from __future__ import annotations

import ipywidgets as widgets
import numpy as np

from .. import catalog
from .. import units as u
from ..collectives import NETWORK_EFFICIENCY
from ..plotting.rdma import gpu_transfer_plot, update_gpu_transfer_plot
from ..plotting.style import styled
from ..published import INTER_SOCKET_LINK_BYTES_PER_S
from ..rdma import GPU_PATHS, NCCL_NET_GDR_LEVEL_DEFAULT, gpu_transfer
from ..units import format_bytes
from .panel import Panel

__all__ = ["GpuDirectPanel", "SIZES", "SIZE_GRID", "PCIE_LINKS", "LOADS"]

_CONTROL = {"style": {"description_width": "12em"}, "layout": widgets.Layout(width="40em")}

#: Message sizes the slider offers: powers of two from 1 KiB to 1 GiB [B].
SIZES = tuple(2.0**k for k in range(10, 31))
#: Sizes the curves are drawn at [B].
SIZE_GRID = np.geomspace(2.0**10, 2.0**30, 121)
#: The PCIe generations offered, as catalog link names.
PCIE_LINKS = ("PCIe Gen3 x16", "PCIe Gen4 x16", "PCIe Gen5 x16", "PCIe Gen6 x16")
_SERVER = catalog.system("DGX H100")
#: Who transfers at once: (GPUs sharing one socket's host memory, sending and receiving at once).
LOADS = (("one GPU, sending only", (1, False)),
         (f"every GPU of a {_SERVER.name} socket ({_SERVER.gpus_per_socket}), sending and receiving",
          (_SERVER.gpus_per_socket, True)))


class GpuDirectPanel(Panel):
    """Message size, path, PCIe generation, NIC and load → rate, bottleneck and time of a GPU-to-GPU message.

    Every path is computed by :func:`interconnect_lab.rdma.gpu_transfer`: each
    GPU shares a PCIe switch with its NIC, the switch has one uplink to its CPU;
    the PCIe generation applies to every link on the path. A path across sockets
    uses one inter-socket link of
    :data:`interconnect_lab.published.INTER_SOCKET_LINK_BYTES_PER_S` (an estimate).

    Parameters
    ----------
    size_bytes : float
        Initial message size, one of :data:`SIZES` [B].
    path : str
        Initial path, a name in :data:`interconnect_lab.rdma.GPU_PATHS`.
    pcie : str
        Initial PCIe link, one of :data:`PCIE_LINKS`.
    nic : str
        Initial NIC (catalog name).
    load : tuple
        Initial (GPUs sharing host memory, both directions), a value of :data:`LOADS`.
    """

    #: The rendered book's grid: every other message size.
    static_grid = {"size_bytes": SIZES[::2]}

    #: Fixed upper limit of the effective-bandwidth axis: the fastest NIC's usable rate, with room [B/s].
    BANDWIDTH_LIMIT_BYTES_PER_S = 1.15 * NETWORK_EFFICIENCY * max(n.per_direction_bytes_per_s
                                                                  for n in catalog.NICS.values())
    #: Fixed upper limit of the segment-rate axis [B/s]: one socket's host memory shared by one byte
    #: written and one read, the widest segment any choice offers, with room for its label.
    RATE_LIMIT_BYTES_PER_S = 1.5 * catalog.memory_tier("Host DDR5 (one Xeon socket)").bandwidth_bytes_per_s / 2

    def __init__(self, *, size_bytes=64 * u.MiB, path="GPUDirect RDMA", pcie="PCIe Gen5 x16", nic="ConnectX-7",
                 load=LOADS[1][1]):
        self.controls = {
            "size_bytes": widgets.SelectionSlider(
                options=[(format_bytes(s, binary=True), s) for s in SIZES], value=size_bytes,
                description="message size", continuous_update=True, **_CONTROL),
            "path": widgets.Dropdown(
                options=[(f"{name} (GPU–NIC {p.path_type})", name) for name, p in GPU_PATHS.items()],
                value=path, description="path", **_CONTROL),
            "pcie": widgets.Dropdown(
                options=[(f"{name}: {catalog.link(name).per_direction_bytes_per_s / u.GB_per_s:.0f} GB/s per "
                          "direction", name) for name in PCIE_LINKS],
                value=pcie, description="PCIe generation", **_CONTROL),
            "nic": widgets.Dropdown(
                options=[(f"{name}: {n.per_direction_bytes_per_s / u.Gbit_per_s:.0f} Gb/s "
                          f"({n.per_direction_bytes_per_s / u.GB_per_s:.0f} GB/s) per direction", name)
                         for name, n in catalog.NICS.items()],
                value=nic, description="NIC", **_CONTROL),
            "load": widgets.Dropdown(options=list(LOADS), value=load, description="who transfers at once",
                                     **_CONTROL),
        }
        super().__init__(figure_size_in=(9.6, 3.6), subplots={"ncols": 2, "width_ratios": (1.15, 1)})

    def compute(self, *, size_bytes, path, pcie, nic, load):
        """Every path over the size grid, and the chosen path at the chosen size."""
        gpus, both = load
        options = dict(nic=catalog.nic(nic), pcie_bytes_per_s=catalog.link(pcie).per_direction_bytes_per_s,
                       gpus_sharing_host=gpus, bidirectional=both,
                       inter_socket_bytes_per_s=INTER_SOCKET_LINK_BYTES_PER_S)
        curves = {name: gpu_transfer(SIZE_GRID, name, **options) for name in GPU_PATHS}
        return {"curves": curves, "point": gpu_transfer(size_bytes, path, **options), "pcie": pcie, "nic": nic}

    def describe(self, result):
        p = result["point"]
        nccl = ("NCCL would use GPUDirect RDMA at this distance by default"
                if p.nccl_default_gpudirect else
                f"NCCL would not use GPUDirect RDMA at this distance by default (farther than "
                f"{NCCL_NET_GDR_LEVEL_DEFAULT})")
        if not GPU_PATHS[p.path].gpudirect and p.nccl_default_gpudirect:
            nccl += ": here it is off or unavailable"
        staging = (f", {p.staging_latency_s / u.us:,.1f} µs of it copying through host memory"
                   if p.staging_latency_s else "")
        tight = p.segment(p.limited_by)
        return (f"<b>{p.rate_bytes_per_s / u.GB_per_s:,.1f} GB/s per GPU</b>, one direction, limited by the "
                f"<b>{p.limited_by}</b> ({tight.capacity_bytes_per_s / u.GB_per_s:,.1f} GB/s ÷ load "
                f"{tight.load:g}). A {format_bytes(float(p.size_bytes), binary=True)} message takes "
                f"<b>{p.time_s / u.us:,.1f} µs</b> ({p.effective_bandwidth_bytes_per_s / u.GB_per_s:,.1f} GB/s "
                f"effective{staging}); host memory moves {p.host_memory_bytes_per_byte} bytes per byte at each "
                f"end. {nccl}.")

    @styled
    def draw(self, result):
        gpu_transfer_plot(result["curves"], result["point"], axes=self.axes,
                          bandwidth_limit_bytes_per_s=self.BANDWIDTH_LIMIT_BYTES_PER_S,
                          rate_limit_bytes_per_s=self.RATE_LIMIT_BYTES_PER_S)

    @styled
    def redraw(self, result):
        return update_gpu_transfer_plot(self.axes, result["curves"], result["point"])
