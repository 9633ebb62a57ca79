"""The machine a collective runs on, as NCCL's topology search sees it.

NCCL prices a collective from a few facts about the machine: the GPUs'
architecture (which selects its tuning tables), how many NVLink domains the
communicator spans and how many of its ranks share each one, the NVLink
bandwidth of one GPU, whether an NVSwitch joins the GPUs, the network ports
of each domain and their rate, whether the switches can reduce (SHARP) and
the host CPU (the cost of posting a network operation). :class:`CollectiveSystem`
holds exactly those, in base SI units; :func:`collective_system` builds one
from catalog names.

NCCL counts NVLink bandwidth per link with its own constants, lower than the
line rate (``src/graph/topo.h``: 20.0 GB/s per link on Ampere, 20.6 on Hopper,
40.1 on Blackwell, against 25, 25 and 50 GB/s on the wire), and a network
port at its line rate (``src/graph/topo.cc``: the port speed in Mb/s over
8,000, so 400 Gb/s is 50 GB/s).
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType

from .. import units as u
from .._validation import NotPossible, check_choice, check_flag, check_integer, check_number
from ..sources import Source

__all__ = [
    "ARCHITECTURES", "CPU_VENDORS", "NCCL_NVLINK_BYTES_PER_S_PER_LINK", "NCCL_TOPOLOGY",
    "CollectiveSystem", "collective_system", "architecture_of", "nvlink_bytes_per_s",
]

#: NCCL's source at the commit every constant of the collective model was read from.
NCCL_COMMIT = "5067397c2676d5aed50042fc39e5c8ee96eb0027"

#: Where NCCL's per-link NVLink rates and its reading of a network port's speed are written.
NCCL_TOPOLOGY = Source(
    title="NVIDIA, NCCL source: src/graph/topo.h and src/graph/topo.cc (2.30-dev)",
    year=2026, url=f"https://github.com/NVIDIA/nccl/blob/{NCCL_COMMIT}/src/graph/topo.h",
    locator="SM80_NVLINK_BW, SM90_NVLINK_BW, SM100_NVLINK_BW; topo.cc: net.bw = mbps / 8000",
    note="NVLink per link 20.0 GB/s (Ampere), 20.6 (Hopper), 40.1 (Blackwell); a network port is its "
         "line rate: 400 Gb/s = 50 GB/s")

#: NCCL's compute-capability classes, which select its tuning tables (``NCCL_NUM_COMPCAPS``).
ARCHITECTURES = ("volta", "ampere", "hopper", "blackwell")

#: Host CPU vendors NCCL tells apart when it prices a network operation.
CPU_VENDORS = ("intel", "amd", "arm")

#: NCCL's bandwidth of one NVLink, one direction, by architecture [B/s] (``topo.h``).
NCCL_NVLINK_BYTES_PER_S_PER_LINK = MappingProxyType({
    "volta": 20.0 * u.GB_per_s, "ampere": 20.0 * u.GB_per_s,
    "hopper": 20.6 * u.GB_per_s, "blackwell": 40.1 * u.GB_per_s,
})

#: NVIDIA's compute capability of each catalog GPU, and the NCCL class it falls in.
_COMPUTE_CAPABILITY = MappingProxyType({
    "V100": "volta", "A100 SXM": "ampere", "A100 SXM 40GB": "ampere", "H100 SXM": "hopper",
    "H200 SXM": "hopper", "H800 SXM": "hopper", "B200": "blackwell", "GB200": "blackwell", "B300": "blackwell",
    "GB300": "blackwell", "Rubin": "blackwell",
})

CUDA_GPUS = Source(
    title="NVIDIA, CUDA GPU Compute Capability", year=2026, url="https://developer.nvidia.com/cuda-gpus",
    note="A100 8.0, H100 and H200 9.0, B200 and GB200 10.0, B300 and GB300 10.3; NCCL groups 10.x and "
         "later as Blackwell")

#: Where the NVLink generation of a GPU tells its NCCL class (for GPUs not named above). NCCL at
#: the commit read has no class after Blackwell: it prices compute capability 10.0 and later, Rubin
#: (NVLink 6) included, with its Blackwell tables and per-link rate (``topo.h``: ``>= 100``).
_BY_NVLINK = MappingProxyType({"NVLink 2": "volta", "NVLink 3": "ampere", "NVLink 4": "hopper",
                               "NVLink 4 (H800)": "hopper", "NVLink 5": "blackwell", "NVLink 6": "blackwell"})


def _link(name):
    """The catalog link or export variant (``"NVLink 4 (H800)"``) called ``name``."""
    from .. import catalog
    from ..catalog.variants import VARIANT_LINKS

    return VARIANT_LINKS[name] if name in VARIANT_LINKS else catalog.link(name)


def _gpu(name):
    """The catalog GPU or export variant (``"H800 SXM"``) called ``name``."""
    from .. import catalog
    from ..catalog.variants import VARIANT_GPUS

    return VARIANT_GPUS[name] if name in VARIANT_GPUS else catalog.gpu(name)


def nvlink_bytes_per_s(link) -> float:
    """One GPU's NVLink bandwidth, one direction, as NCCL counts it: links x its per-link rate [B/s].

    NCCL keys the per-link rate by the GPU's architecture, which fixes the NVLink
    generation; here the generation picks it, so that a what-if (NVLink 5 on a
    Hopper GPU) takes the link's rate.

    Parameters
    ----------
    link : str or interconnect_lab.catalog.Link
        An NVLink generation of the catalog (``"NVLink 3"`` to ``"NVLink 6"``) or an export
        variant of one (``"NVLink 4 (H800)"``, :mod:`interconnect_lab.catalog.variants`).

    Examples
    --------
    >>> round(nvlink_bytes_per_s("NVLink 4") / 1e9, 1), round(nvlink_bytes_per_s("NVLink 5") / 1e9, 1)
    (370.8, 721.8)

    NVLink 6's 36 links at NCCL's latest per-link rate:

    >>> round(nvlink_bytes_per_s("NVLink 6") / 1e9, 1)
    1443.6
    """
    entry = _link(link) if isinstance(link, str) else link
    if entry.name not in _BY_NVLINK:
        raise NotPossible(f"link {entry.name!r} is not an NVLink generation NCCL knows: "
                          f"{', '.join(map(repr, _BY_NVLINK))}",
                          plain=f"NCCL's tables, which time the collectives, start at NVLink 2: {entry.name} "
                                "cannot be priced. Choose a later generation.")
    return entry.links_per_gpu * NCCL_NVLINK_BYTES_PER_S_PER_LINK[_BY_NVLINK[entry.name]]


def architecture_of(gpu) -> str:
    """NCCL's architecture class of a catalog GPU (by name or object).

    Parameters
    ----------
    gpu : str or interconnect_lab.catalog.GPU
        An NVIDIA GPU of the catalog, or an export variant (``"H800 SXM"``).

    Returns
    -------
    str
        One of ``ARCHITECTURES``.

    Examples
    --------
    >>> architecture_of("H100 SXM"), architecture_of("GB200")
    ('hopper', 'blackwell')
    """
    from .. import catalog

    spec = gpu if isinstance(gpu, catalog.GPU) else _gpu(gpu)
    if spec.name in _COMPUTE_CAPABILITY:
        return _COMPUTE_CAPABILITY[spec.name]
    if spec.scale_up_link in _BY_NVLINK:
        return _BY_NVLINK[spec.scale_up_link]
    raise ValueError(f"gpu {spec.name!r} has no NCCL architecture: NCCL runs on NVIDIA GPUs "
                     f"({', '.join(map(repr, _COMPUTE_CAPABILITY))})")


@dataclass(frozen=True, kw_only=True)
class CollectiveSystem:
    """The GPUs and links one NCCL communicator spans.

    Parameters
    ----------
    architecture : str
        NCCL's class of the GPUs, one of ``ARCHITECTURES``.
    nodes : int
        NVLink domains the communicator spans (NCCL's ``nNodes``): servers of
        8 GPUs, or whole NVL72 racks.
    gpus_per_node : int
        Ranks in each domain (NCCL's ``ppn``), >= 1.
    nvlink_bytes_per_s : float
        One GPU's NVLink bandwidth, one direction, as NCCL counts it (links x
        ``NCCL_NVLINK_BYTES_PER_S_PER_LINK``) [B/s]; 0 for GPUs joined only by PCIe.
    nvswitch : bool
        An NVSwitch joins the domain's GPUs (needed for NVLink SHARP).
    nics_per_node : int
        Network ports of each domain used by the communicator, >= 1 across
        domains (0 allowed for one domain).
    nic_bytes_per_s : float
        Line rate of one port, one direction [B/s] (400 Gb/s = 50 GB/s).
    sharp : bool
        The network switches reduce (InfiniBand SHARP through NCCL's CollNet plugin).
    cpu : str
        Host CPU vendor, one of ``CPU_VENDORS``: it sets the cost of posting a
        network operation (1 µs Intel and Arm, 2 µs AMD).
    name : str
        Label for tables.
    """

    architecture: str
    nodes: int
    gpus_per_node: int
    nvlink_bytes_per_s: float
    nvswitch: bool = True
    nics_per_node: int = 0
    nic_bytes_per_s: float = 0.0
    sharp: bool = False
    cpu: str = "intel"
    name: str = ""

    def __post_init__(self):
        check_choice("architecture", self.architecture, ARCHITECTURES)
        check_integer("nodes", self.nodes, minimum=1, maximum=2 ** 20)
        check_integer("gpus_per_node", self.gpus_per_node, minimum=1, maximum=2 ** 12)
        check_number("nvlink_bytes_per_s", self.nvlink_bytes_per_s, unit="B/s", minimum=0, maximum=1e15,
                     scalar=True)
        check_flag("nvswitch", self.nvswitch)
        check_flag("sharp", self.sharp)
        check_choice("cpu", self.cpu, CPU_VENDORS)
        check_integer("nics_per_node", self.nics_per_node, minimum=1 if self.nodes > 1 else 0, maximum=2 ** 12)
        check_number("nic_bytes_per_s", self.nic_bytes_per_s, unit="B/s",
                     minimum=1e6 if self.nodes > 1 else 0, maximum=1e15, scalar=True)
        if self.nvswitch and self.nvlink_bytes_per_s == 0:
            raise ValueError("nvswitch = True needs nvlink_bytes_per_s > 0: an NVSwitch joins GPUs by NVLink")
        if self.nodes > 1 and self.nics_per_node == 0:
            raise ValueError(f"nodes = {self.nodes} needs nics_per_node >= 1: domains talk through the network")
        object.__setattr__(self, "nvlink_bytes_per_s", float(self.nvlink_bytes_per_s))
        object.__setattr__(self, "nic_bytes_per_s", float(self.nic_bytes_per_s))

    @property
    def ranks(self) -> int:
        """Ranks in the communicator, ``nodes x gpus_per_node``."""
        return self.nodes * self.gpus_per_node

    @property
    def nics_per_gpu(self) -> float:
        """Network ports per rank [-]."""
        return self.nics_per_node / self.gpus_per_node

    def with_nodes(self, nodes: int) -> "CollectiveSystem":
        """The same machine spanning ``nodes`` domains."""
        import dataclasses

        return dataclasses.replace(self, nodes=nodes)


def collective_system(gpu="H100 SXM", *, nodes=1, gpus_per_node=8, network="InfiniBand NDR", nics_per_node=None,
                      nvswitch=True, sharp=False, cpu="intel", name="") -> CollectiveSystem:
    """A :class:`CollectiveSystem` from catalog names.

    Parameters
    ----------
    gpu : str
        Catalog GPU name (or export variant, ``"H800 SXM"``); its NVLink generation and NCCL
        class give the NVLink bandwidth.
    nodes : int
        NVLink domains, >= 1.
    gpus_per_node : int
        Ranks per domain (8 for an HGX server, 72 for an NVL72 rack), >= 1.
    network : str
        Catalog link of one network port (``"InfiniBand NDR"``, ``"Ethernet 400G"``).
    nics_per_node : int, optional
        Ports per domain; one per GPU if omitted.
    nvswitch, sharp : bool
        See :class:`CollectiveSystem`.
    cpu : str
        Host CPU vendor, one of ``CPU_VENDORS``.
    name : str
        Label.

    Examples
    --------
    >>> s = collective_system("H100 SXM", nodes=4)
    >>> s.ranks, round(s.nvlink_bytes_per_s / 1e9, 1), s.nic_bytes_per_s / 1e9
    (32, 370.8, 50.0)
    """
    from .. import catalog

    spec = _gpu(gpu) if isinstance(gpu, str) else gpu
    if not isinstance(spec, catalog.GPU):
        raise TypeError(f"gpu must be a catalog GPU's name or a catalog.GPU, got {gpu!r}")
    architecture = architecture_of(spec)
    link = _link(spec.scale_up_link) if spec.scale_up_link else None
    links = link.links_per_gpu if link is not None and link.family == "NVLink" else 0
    port = catalog.link(network)
    if port.family not in ("InfiniBand", "Ethernet"):
        raise ValueError(f"network = {network!r} is not a network port (an InfiniBand or Ethernet link)")
    gpus_per_node = check_integer("gpus_per_node", gpus_per_node, minimum=1, maximum=2 ** 12)
    return CollectiveSystem(
        architecture=architecture, nodes=nodes, gpus_per_node=gpus_per_node,
        nvlink_bytes_per_s=links * NCCL_NVLINK_BYTES_PER_S_PER_LINK[architecture],
        nvswitch=bool(nvswitch and links > 0), nics_per_node=gpus_per_node if nics_per_node is None else nics_per_node,
        nic_bytes_per_s=port.per_direction_bytes_per_s, sharp=sharp, cpu=cpu,
        name=name or f"{nodes} x {gpus_per_node} {spec.name}, {network}")
