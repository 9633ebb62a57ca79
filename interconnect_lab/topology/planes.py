"""Multi-plane fat trees: several independent fat trees side by side, each endpoint's traffic split over them.

A *plane* is a complete fat tree of its own; no switch belongs to two planes. There are
two ways to put endpoints on planes, and they are one choice (``PLANE_SPLITS``):

``"port"``
    Every endpoint's network adapter is split into ``planes`` ports, one on each plane,
    each at ``1/planes`` of the adapter's rate. Every plane reaches every endpoint, so
    any pair talks over every plane. NVIDIA's ConnectX-8 runs 800 Gb/s Ethernet only as
    2 x 400 GbE ports, a two-plane fabric ("planarized"), and Broadcom's 102.4 Tb/s
    switches reach 131,072 endpoints in two tiers only as 512 x 200G planes.
``"endpoint"``
    Every endpoint sits on one plane: GPU *i* of every server on plane *i*, as in
    DeepSeek's multi-plane fat tree (8 planes, one per GPU and NIC of a server). A plane
    then holds only ``1/planes`` of the endpoints, so the same switches reach ``planes``
    times more endpoints, and traffic between two planes crosses a server's NVLink first
    (PXN-style forwarding), never the network.

Either way the fabric is ``planes`` copies of one tree (:func:`~interconnect_lab.topology.fat_tree`):
switches, cables and optics multiply by ``planes``, the tiers do not. Against a single
tree of the same endpoints, planes keep a tier out (fewer hops, fewer switches) and
divide the failure domain: a failed switch takes capacity from one plane only.

References
----------
C. Zhao et al., "Insights into DeepSeek-V3: Scaling Challenges and Reflections on
Hardware for AI Architectures", ISCA 2025, https://arxiv.org/abs/2505.09343, the
multi-plane fat-tree section and its cost comparison (8 planes of two tiers, 16,384 GPUs
with 64-port 400G switches, 768 switches).

NVIDIA, ConnectX-8 firmware release notes v40.44.0208: "supports 800Gb/s or XDR IB or
2 x 400GbE link speeds"; HGX B300 reference architecture, "dual plane compute fabric".
"""

from __future__ import annotations

from dataclasses import dataclass

from .._validation import check_choice, check_integer, check_number
from .fat_trees import FatTree, fat_tree, max_hosts

__all__ = ["PLANE_SPLITS", "MultiPlaneFatTree", "multi_plane_fat_tree", "multi_plane_max_endpoints"]

#: How endpoints are put on planes: each endpoint's adapter split into one port per plane ("port"),
#: or each endpoint on one plane ("endpoint", DeepSeek's GPU i of every server on plane i).
PLANE_SPLITS = {
    "port": "every endpoint has one port on every plane, each at 1/planes of its rate",
    "endpoint": "every endpoint is on one plane; a plane holds 1/planes of the endpoints",
}


@dataclass(frozen=True)
class MultiPlaneFatTree:
    """``planes`` identical fat trees and how endpoints sit on them.

    Build it with :func:`multi_plane_fat_tree`.

    Attributes
    ----------
    endpoints : int
        Endpoints (GPUs) of the whole fabric [-].
    planes : int
        Independent fat trees [-].
    split : str
        ``"port"`` or ``"endpoint"`` (``PLANE_SPLITS``).
    plane_tree : FatTree
        One plane.
    """

    endpoints: int
    planes: int
    split: str
    plane_tree: FatTree

    @property
    def tiers(self) -> int:
        """Tiers of every plane [-]."""
        return self.plane_tree.tiers

    @property
    def switches(self) -> int:
        """Switches of all planes [-]."""
        return self.planes * self.plane_tree.switches

    @property
    def cables(self) -> int:
        """Cables of all planes, host links included [-]."""
        return self.planes * self.plane_tree.cables

    @property
    def transceivers(self) -> int:
        """Port ends that need an optical module, all planes [-]."""
        return self.planes * self.plane_tree.transceivers

    @property
    def max_switch_hops(self) -> int:
        """Switches on the longest path within a plane: ``2 * tiers - 1`` [-]."""
        return 2 * self.tiers - 1

    @property
    def endpoint_bytes_per_s(self) -> float | None:
        """Network rate of one endpoint over all its planes, one direction [B/s]; None without a port rate."""
        port = self.plane_tree.port_bytes_per_s
        if port is None:
            return None
        return port * (self.planes if self.split == "port" else 1)

    @property
    def bisection_bytes_per_s(self) -> float | None:
        """Bisection bandwidth of all planes together, one direction [B/s]; None without a port rate."""
        plane = self.plane_tree.bisection_bytes_per_s
        return None if plane is None else self.planes * plane

    @property
    def switches_per_endpoint(self) -> float:
        """Switches per endpoint, the capital cost's main driver [-]."""
        return self.switches / self.endpoints


def multi_plane_max_endpoints(radix, tiers, planes, split="endpoint", *, oversubscription=1.0):
    """Most endpoints a multi-plane fabric of radix-``radix`` switches holds in ``tiers`` tiers.

    .. math::

        N_\\text{port} = H_t(k), \\qquad N_\\text{endpoint} = p \\, H_t(k)

    with :math:`H_2 = k^2/2` and :math:`H_3 = k^3/4` for a non-blocking tree
    (:func:`~interconnect_lab.topology.max_hosts`) and :math:`p` planes.

    Parameters
    ----------
    radix : int
        Ports per switch, even, >= 2.
    tiers : {1, 2, 3}
        Tiers of each plane.
    planes : int
        Planes, >= 1.
    split : {"port", "endpoint"}
        How endpoints sit on planes (``PLANE_SPLITS``).
    oversubscription : float
        Leaf down-ports over up-ports of each plane, >= 1.

    Returns
    -------
    int

    Examples
    --------
    DeepSeek's multi-plane fat tree: 8 planes of two tiers of 64-port switches.

    >>> multi_plane_max_endpoints(64, 2, 8)
    16384
    >>> multi_plane_max_endpoints(64, 2, 8, split="port")     # planes add bandwidth, not reach
    2048
    """
    planes = check_integer("planes", planes, minimum=1, maximum=1024)
    check_choice("plane split", split, PLANE_SPLITS)
    per_plane = max_hosts(radix, tiers, oversubscription=oversubscription)   # checks radix, tiers, oversubscription
    return per_plane * (planes if split == "endpoint" else 1)


def multi_plane_fat_tree(endpoints, planes, *, split="endpoint", radix=None, switch=None, tiers=None,
                         oversubscription=1.0, port_bytes_per_s=None):
    """Build ``planes`` fat trees for ``endpoints`` endpoints, split by port or by endpoint.

    Each plane is :func:`~interconnect_lab.topology.fat_tree` of
    ``endpoints`` hosts (``split="port"``) or ``ceil(endpoints / planes)`` hosts
    (``split="endpoint"``); the fabric is ``planes`` copies of it.

    Parameters
    ----------
    endpoints : int
        Endpoints (GPUs), >= 1.
    planes : int
        Planes, in [1, 1024].
    split : {"port", "endpoint"}
        How endpoints sit on planes (``PLANE_SPLITS``).
    radix, switch, tiers, oversubscription, port_bytes_per_s
        As for :func:`~interconnect_lab.topology.fat_tree`, for each plane.

    Returns
    -------
    MultiPlaneFatTree

    Raises
    ------
    ValueError
        If a parameter is out of range, or the endpoints do not fit the planes' tiers.

    References
    ----------
    Zhao et al., ISCA 2025 (DeepSeek-V3 hardware), multi-plane fat tree; NVIDIA ConnectX-8
    firmware notes.

    Examples
    --------
    DeepSeek's fabric: 16,384 GPUs on 8 planes of 64-port switches, two tiers each,
    768 switches; one fat tree of the same switches needs a third tier.

    >>> mpft = multi_plane_fat_tree(16_384, 8, radix=64)
    >>> mpft.tiers, mpft.switches, mpft.max_switch_hops
    (2, 768, 3)
    >>> fat_tree(16_384, radix=64).tiers
    3
    """
    endpoints = check_integer("endpoints", endpoints, minimum=1)
    planes = check_integer("planes", planes, minimum=1, maximum=1024)
    check_choice("plane split", split, PLANE_SPLITS)
    if port_bytes_per_s is not None:
        port_bytes_per_s = check_number("port_bytes_per_s", port_bytes_per_s, unit="B/s", minimum=0,
                                        min_inclusive=False, maximum=1e18, scalar=True)
    hosts = endpoints if split == "port" else -(-endpoints // planes)
    plane = fat_tree(hosts, radix, switch=switch, tiers=tiers, oversubscription=oversubscription,
                     port_bytes_per_s=port_bytes_per_s)
    return MultiPlaneFatTree(endpoints=endpoints, planes=planes, split=split, plane_tree=plane)
