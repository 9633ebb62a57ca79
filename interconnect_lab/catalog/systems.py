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
    check_optional_integers, check_positive_fields, check_sources, check_status, check_text, name_table,
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
        Catalog name of the scale-up switch chip; None where there is none or the catalog
        has no entry for it (an announced part whose switch is not described).
    scale_up_switches : int
        Number of scale-up switch chips; 0 when ``scale_up_switch`` is None.
    nic : str or None
        Catalog name of the scale-out (compute fabric) adapter.
    nics : int
        Compute-fabric adapters per system.
    power_w : float or None
        System power where sourced [W].
    cpu_sockets : int or None
        CPU sockets (NUMA domains with their own host memory) where sourced; the
        GPUs and NICs are split evenly among them.
    status, status_date, as_of, expected_by : str or None
        Where it stands: one of ``catalog.STATUSES``, when it got there, when that was
        last checked, and for a forward-looking status when the next step is expected
        (see ``interconnect_lab.catalog._common``); None for an entry whose ``year``
        says enough.
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
    status: str | None = None
    status_date: str | None = None
    as_of: str | None = None
    expected_by: str | None = None
    sources: tuple[Source, ...]

    def __post_init__(self):
        check_sources(self)
        check_status(self)
        check_text(self, "name", "gpu", "scale_up_switch", "nic",
                   optional=("scale_up_switch", "nic"))
        check_integer("System.gpus", self.gpus, minimum=1)
        check_integer("System.scale_up_switches", self.scale_up_switches, minimum=0)
        if self.scale_up_switch is None and self.scale_up_switches:
            raise ValueError(f"System {self.name!r}: scale_up_switches = {self.scale_up_switches} needs a "
                             "scale_up_switch naming the catalog switch chip")
        check_integer("System.nics", self.nics, minimum=0)
        check_positive_fields(self, [("power_w", "W")], allow_none=("power_w",))
        check_optional_integers(self, ("cpu_sockets",), minimum=1)

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

#: When the statuses of this module's entries were last checked against their sources.
_CHECKED = "2026-12-07"

_GB300_NVL72_RA = Source(
    title="NVIDIA, NVL72 AI Factory Enterprise Reference Architecture: Components", year=2025,
    url="https://docs.nvidia.com/enterprise-reference-architectures/nvl72-ai-factory/latest/components.html",
    note="GB300 NVL72: 18 compute trays, each with '2 Mezzanine Network Boards with 2 ConnectX-8 silicon chips in "
         "each, for a total of 4 ConnectX-8 HCAs' for its 4 GPUs; 9 NVLink switch trays, 'total aggregated "
         "bandwidth of 130 TB/s'; '8 power shelves of 33 kW'; 'Full rack requiring up to 142 kW'")
MLENG_ACCELERATORS_HGX = Source(
    title="S. Bekman, Machine Learning Engineering Open Book: Accelerators", year=2026,
    url=("https://github.com/stas00/ml-engineering/blob/744d01e18b79512572f64a6bbd8b5f4a725203a7/"
         "compute/accelerator/README.md"),
    locator="high-end accelerators list, B300",
    note="secondary: 'NVIDIA now publishes official HGX B300 platform specs and lists it as shipping, as of "
         "2026-07-31 ... 14.4TBps total NVLink' for the 8-GPU board")

SYSTEMS = name_table([
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
        status="shipping", status_date="2024", as_of=_CHECKED,
        sources=(NVIDIA_SUPERPOD_GB200_NETWORK, NVIDIA_NVLINK,
                 MLENG_NETWORK.at("DGX GB200", note="4 x ConnectX-7 400 Gb/s per compute tray (one per "
                                                    "GPU), citing the DGX GB200 user guide"),
                 Source(title="MLCommons Inference v6.1, Crusoe system description GB200-NVL72", year=2025,
                        url=("https://raw.githubusercontent.com/mlcommons/inference_results_v6.1/main/"
                             "closed/Crusoe/systems/GB200-NVL72_GB200-186GB_aarch64x16_Dynamo.json"),
                        note="'for each 4-GPU node: 4x Mellanox MT43244 BlueField-3' (ConnectX-7 class, 400 Gb/s): "
                             "one 400 Gb/s adapter per GPU, not ConnectX-8")),
    ),
    System(
        # "2 x 5th generation NVLink switches that provide 14.4 TB/s aggregate bandwidth": 2 chips of 72
        # ports = 8 GPUs x 18 links. The 800 Gb/s ConnectX-8 came with B300, not B200.
        name="DGX B200", gpu="B200", gpus=8,
        scale_up_switch="NVLink Switch chip", scale_up_switches=2,
        nic="ConnectX-7", nics=8,
        power_w=14.3 * u.kW, cpu_sockets=2,
        status="shipping", status_date="2024", as_of=_CHECKED,
        sources=(Source(title="NVIDIA DGX B200 User Guide: Introduction to the NVIDIA DGX B200 System", year=2025,
                        url="https://docs.nvidia.com/dgx/dgxb200-user-guide/introduction-to-dgxb200.html",
                        note="'Network (Cluster) card | 4 x OSFP ports for 8 x NVIDIA ConnectX-7 Single Port Cards "
                             "... InfiniBand (default): Up to 400Gbps'; '2 x 5th generation NVLink switches that "
                             "provide 14.4 TB/s aggregate bandwidth'; 6 x 3.3 kW PSUs, maximum system power 14.3 kW; "
                             "2 Intel Xeon CPUs"),),
    ),
    System(
        # Two NVLink switch chips as in DGX B200 (derived: 8 x 18 = 144 ports; NVIDIA gives 14.4 TB/s of
        # NVLink for the 8-GPU board); eight 800 Gb/s ConnectX-8, one per GPU.
        name="DGX B300", gpu="B300", gpus=8,
        scale_up_switch="NVLink Switch chip", scale_up_switches=2,
        nic="ConnectX-8", nics=8,
        status="shipping", status_date="2026-07-31", as_of=_CHECKED,
        sources=(MLENG_NETWORK.at("InfiniBand examples",
                                  note="'NVIDIA DGX B300 systems provide eight ConnectX-8 interfaces at up to 800Gbps "
                                       "each'; compute fabric Quantum-X800 XDR in the documented SuperPOD design"),
                 Source(title="NVIDIA HGX AI Factory Enterprise Reference Architecture: Networking Physical "
                              "Topologies (HGX B300)", year=2025,
                        url=("https://docs.nvidia.com/enterprise-reference-architectures/hgx-ai-factory/latest/"
                             "networking-physical-topologies.html"),
                        note="'the GPUs are connected using a rail-optimized network topology through their "
                             "respective NVIDIA ConnectX-8 SuperNICs'; 'recommends a dual plane compute fabric for "
                             "resiliency purposes, a cost-effective single plane configuration is also supported'"),
                 MLENG_ACCELERATORS_HGX),
    ),
    System(
        # 18 compute trays of 4 GB300 GPUs, each GPU with its own 800 Gb/s ConnectX-8; 9 NVLink switch
        # trays of 2 chips, as in GB200 NVL72.
        name="GB300 NVL72", gpu="GB300", gpus=72,
        scale_up_switch="NVLink Switch chip", scale_up_switches=18,
        nic="ConnectX-8", nics=72,
        power_w=142 * u.kW,
        status="shipping", status_date="2025", as_of=_CHECKED,
        sources=(_GB300_NVL72_RA,),
    ),
    System(
        # Announced: 72 Rubin GPUs and 36 Vera CPUs on NVLink 6, ConnectX-9 for the compute fabric. The NVLink 6
        # switch is not described in the sources read, nor the rack's power (secondary estimates: 180-230 kW).
        name="Vera Rubin NVL72", gpu="Rubin", gpus=72,
        scale_up_switch=None, scale_up_switches=0,
        nic="ConnectX-9", nics=72,
        status="announced", status_date="2025-03-18", as_of=_CHECKED, expected_by="2026-12",
        sources=(Source(title="NVIDIA, Vera Rubin NVL72 AI Factory reference architecture: networking physical "
                              "topologies", year=2026,
                        url=("https://docs.nvidia.com/reference-architectures/vera-rubin-nvl72-ai-factory/"
                             "networking-physical-topologies.md"),
                        note="Spectrum-X compute fabric as a 'full non-blocking fat tree', GPUs connected "
                             "rail-optimized 'through their respective' ConnectX-9 SuperNICs; called 'Vera Rubin "
                             "NVL144' (counting dies) until January 2026"),
                 Source(title="NG Times, Nvidia sends Vera Rubin into full production (on NVIDIA's release of "
                              "June 2026)", year=2026,
                        url="https://ngtimes.org/2026/06/03/nvidia-sends-vera-rubin-into-full-production",
                        estimate=True,
                        note="secondary: 'production shipments begin this fall' (autumn 2026); no primary "
                             "shipping statement found by 2026-12-07")),
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
