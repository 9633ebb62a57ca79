"""Systems: nodes and racks built from the catalog's GPUs, links and NICs."""

from __future__ import annotations

from dataclasses import dataclass

from .. import units as u
from .._validation import check_integer
from .._lookup import resolve
from ..sources import (
    GLENN_NVLINK, MLENG_NETWORK, NVIDIA_NVLINK, NVIDIA_NVSWITCH3_BLOG,
    NVIDIA_SUPERPOD_GB200_NETWORK, NVIDIA_SUPERPOD_H100_COMPONENTS, Source,
)
from ._common import (
    _check_optional_integers, _check_positive_fields, _check_sources, _check_text, _table,
)
from .gpus import gpu
from .nics import nic


# System ---------------------------------------------------------------------------

@dataclass(frozen=True, kw_only=True)
class System:
    """A server or rack: GPUs, their scale-up switches and their network adapters.

    Parameters
    ----------
    name : str
        Catalog name, e.g. ``"DGX H100"``.
    gpu : str
        Catalog name of the GPU.
    gpus : int
        GPUs in one system (one scale-up domain).
    scale_up_switch : str or None
        Catalog name of the scale-up switch chip.
    scale_up_switches : int
        Number of scale-up switch chips.
    nic : str or None
        Catalog name of the scale-out (compute fabric) adapter.
    nics : int
        Compute-fabric adapters per system.
    power_w : float or None
        System power where sourced [W].
    cpu_sockets : int or None
        CPU sockets (NUMA domains with their own host memory) where sourced; the
        GPUs and NICs are split evenly among them.
    sources : tuple of Source
        Where the figures come from.

    Examples
    --------
    >>> from interconnect_lab import catalog, units as u
    >>> nvl72 = catalog.system("GB200 NVL72")
    >>> nvl72.gpus, nvl72.scale_up_switches
    (72, 18)
    >>> dgx = catalog.system("DGX H100")
    >>> dgx.nics * catalog.nic(dgx.nic).per_direction_bytes_per_s / u.GB_per_s   # scale-out, one direction
    400.0
    """

    name: str
    gpu: str
    gpus: int
    scale_up_switch: str | None
    scale_up_switches: int
    nic: str | None
    nics: int
    power_w: float | None = None
    cpu_sockets: int | None = None
    sources: tuple[Source, ...]

    def __post_init__(self):
        _check_sources(self)
        _check_text(self, "name", "gpu", "scale_up_switch", "nic",
                    optional=("scale_up_switch", "nic"))
        check_integer("System.gpus", self.gpus, minimum=1)
        check_integer("System.scale_up_switches", self.scale_up_switches, minimum=0)
        check_integer("System.nics", self.nics, minimum=0)
        _check_positive_fields(self, [("power_w", "W")], allow_none=("power_w",))
        _check_optional_integers(self, ("cpu_sockets",), minimum=1)

    @property
    def gpus_per_socket(self) -> int | None:
        """GPUs attached to one CPU socket; None where the sockets are not sourced.

        Examples
        --------
        >>> system("DGX H100").gpus_per_socket
        4
        """
        return None if self.cpu_sockets is None else self.gpus // self.cpu_sockets


# Systems ----------------------------------------------------------------------------

SYSTEMS = _table([
    System(
        name="DGX H100", gpu="H100 SXM", gpus=8,
        scale_up_switch="NVSwitch 3", scale_up_switches=4,
        nic="ConnectX-7", nics=8,
        power_w=10.2 * u.kW,
        cpu_sockets=2,
        sources=(NVIDIA_SUPERPOD_H100_COMPONENTS, NVIDIA_NVSWITCH3_BLOG, GLENN_NVLINK,
                 Source(title="NVIDIA DGX H100/H200 System User Guide, 1.2.3 Network Modules, Table 6",
                        year=2023,
                        url="https://docs.nvidia.com/dgx/dgxh100-user-guide/introduction-to-dgxh100.html",
                        note=("two network modules of four ConnectX-7 each, one per CPU; the table pairs "
                              "each compute-fabric port with one GPU, GPUs 0-3 on module/CPU 0 and 4-7 on "
                              "module/CPU 1 (read in a copy of the guide)")),
                 Source(title="NVIDIA DGX H100 System User Guide", year=2023,
                        url="https://docs.nvidia.com/dgx/dgxh100-user-guide/",
                        estimate=True,
                        note=("'~10.2 kW max' system power as quoted from this guide by several "
                              "public pages; the guide itself was not re-read for this entry"))),
    ),
    System(
        # The HGX baseboard is sold to server makers; NICs vary by build. NVIDIA's reference
        # design gives each GPU its own 400 Gb/s adapter on the compute fabric.
        name="HGX H100", gpu="H100 SXM", gpus=8,
        scale_up_switch="NVSwitch 3", scale_up_switches=4,
        nic="ConnectX-7", nics=8,
        sources=(GLENN_NVLINK,
                 Source(title="NVIDIA HGX AI Factory (H100, H200, B200) reference architecture: Abstract",
                        year=2025,
                        url=("https://docs.nvidia.com/reference-architectures/hgx-ai-factory-h100-h200-"
                             "b200/abstract.md"),
                        note="2-8-9-400 configuration: 2 CPUs, 8 GPUs, 400 Gb/s per GPU on the "
                             "compute fabric (plus one north-south DPU)")),
    ),
    System(
        # Every GPU has one NVLink 5 link to each of the 18 switch chips: 72 x 18 = 18 x 72 ports.
        name="GB200 NVL72", gpu="GB200", gpus=72,
        scale_up_switch="NVLink Switch chip", scale_up_switches=18,
        nic="ConnectX-7", nics=72,
        sources=(NVIDIA_SUPERPOD_GB200_NETWORK, NVIDIA_NVLINK,
                 MLENG_NETWORK.at("DGX GB200", note="4 x ConnectX-7 400 Gb/s per compute tray (one per "
                                                    "GPU), citing the DGX GB200 user guide")),
    ),
])


def system(name: str) -> System:
    """The catalog system called ``name``; an unknown name lists the valid ones.

    Parameters
    ----------
    name : str
        A key of ``catalog.SYSTEMS`` (an unknown name lists the valid ones);
        a System itself is returned as it is.

    Examples
    --------
    >>> system("HGX H100").scale_up_switch
    'NVSwitch 3'
    """
    return resolve("system", name, System, SYSTEMS)
