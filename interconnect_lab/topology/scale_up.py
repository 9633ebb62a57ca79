"""Scale-up domains: GPUs joined through NVSwitch chips by point-to-point links.

See :mod:`interconnect_lab.topology` for the overview.
"""


from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType

from .. import catalog
from .._lookup import resolve
from .._validation import check_choice, check_integer
from ..sources import GLENN_NVLINK, NVIDIA_SUPERPOD_GB200_NETWORK, Source

__all__ = ["ScaleUpDomain", "scale_up_domain", "nvlink_domain", "NVLINK_DOMAIN_WIRING"]


# Scale-up domains ---------------------------------------------------------------------------

@dataclass(frozen=True)
class ScaleUpDomain:
    """An NVSwitch domain: GPUs joined through switch chips by point-to-point links.

    Build it with :func:`scale_up_domain` or :func:`nvlink_domain`. Every GPU
    has ``links_per_gpu_per_chip[i]`` links to switch chip *i*; the chips are
    crossbars, so any GPU reaches any other at its full link rate.

    Attributes
    ----------
    name : str
        What the domain is (e.g. ``"DGX H100"``).
    gpus : int
        GPUs in the domain.
    links_per_gpu_per_chip : tuple of int
        Links from one GPU to each switch chip, e.g. ``(5, 5, 4, 4)``.
    link : str
        Catalog name of the link generation (e.g. ``"NVLink 4"``).
    link_per_direction_bytes_per_s : float
        Rate of one link in one direction [B/s].
    sources : tuple of Source
        Where the wiring comes from.
    """

    name: str
    gpus: int
    links_per_gpu_per_chip: tuple[int, ...]
    link: str
    link_per_direction_bytes_per_s: float
    sources: tuple[Source, ...] = ()

    @property
    def switch_chips(self) -> int:
        """Switch chips in the domain [-]."""
        return len(self.links_per_gpu_per_chip)

    @property
    def links_per_gpu(self) -> int:
        """Links from one GPU to all the switch chips [-]."""
        return sum(self.links_per_gpu_per_chip)

    @property
    def links(self) -> int:
        """GPU-to-switch links in the domain, :math:`N \\sum_i n_i` [-]."""
        return self.gpus * self.links_per_gpu

    @property
    def switch_ports_used(self) -> tuple[int, ...]:
        """Ports used on each switch chip by the domain's GPUs, :math:`N n_i` [-]."""
        return tuple(self.gpus * n for n in self.links_per_gpu_per_chip)

    @property
    def per_gpu_per_direction_bytes_per_s(self) -> float:
        """One GPU's NVLink bandwidth, one direction [B/s]."""
        return self.links_per_gpu * self.link_per_direction_bytes_per_s

    @property
    def total_per_direction_bytes_per_s(self) -> float:
        """All GPUs' NVLink bandwidth added, one direction [B/s].

        Vendors headline the sum over GPUs with both directions added (NVL72:
        "130 TB/s"); that is ``2 * total_per_direction_bytes_per_s``.
        """
        return self.gpus * self.per_gpu_per_direction_bytes_per_s

    @property
    def bisection_per_direction_bytes_per_s(self) -> float:
        """Bandwidth from one half of the GPUs to the other, one direction [B/s].

        .. math:: B_\\text{bisection} = \\lfloor N/2 \\rfloor \\, b_\\text{GPU}

        The switch chips are non-blocking crossbars, so the cut is limited by
        the GPUs' own links.
        """
        return (self.gpus // 2) * self.per_gpu_per_direction_bytes_per_s


def scale_up_domain(gpus, links_per_gpu_per_chip, link, *, name="", sources=()):
    """Count an NVSwitch domain from its wiring.

    .. math::

        L = N \\sum_i n_i, \\qquad b_\\text{GPU} = \\Big(\\sum_i n_i\\Big) b_\\text{link},
        \\qquad B_\\text{total} = N b_\\text{GPU}

    for *N* GPUs with :math:`n_i` links each to switch chip *i*.

    Parameters
    ----------
    gpus : int
        GPUs in the domain, >= 2.
    links_per_gpu_per_chip : sequence of int
        Links from each GPU to each switch chip, each >= 1.
    link : str or catalog.Link
        Link generation (a catalog name or entry); its per-direction rate is used.
    name : str
        Label for the domain.
    sources : tuple of Source
        Where the wiring comes from.

    Returns
    -------
    ScaleUpDomain

    Raises
    ------
    ValueError
        If a count is not a positive whole number, the link is unknown, or the
        GPU has more links than its link generation provides.

    Examples
    --------
    >>> from interconnect_lab import units as u
    >>> dgx = scale_up_domain(8, (5, 5, 4, 4), "NVLink 4", name="DGX H100")
    >>> dgx.links, dgx.per_gpu_per_direction_bytes_per_s / u.GB_per_s
    (144, 450.0)
    """
    gpus = check_integer("gpus", gpus, minimum=2)
    if isinstance(links_per_gpu_per_chip, (str, bytes)) or not hasattr(links_per_gpu_per_chip, "__iter__"):
        raise TypeError(
            "links_per_gpu_per_chip must be a sequence of whole numbers, one per switch chip, "
            f"e.g. (5, 5, 4, 4); got {links_per_gpu_per_chip!r}")
    counts = tuple(check_integer(f"links_per_gpu_per_chip[{i}]", n, minimum=1)
                   for i, n in enumerate(links_per_gpu_per_chip))
    if not counts:
        raise ValueError("links_per_gpu_per_chip is empty: a domain needs at least one switch chip")
    entry = resolve("link", link, catalog.Link, catalog.LINKS)
    if entry.links_per_gpu is not None and sum(counts) > entry.links_per_gpu:
        raise ValueError(
            f"links_per_gpu_per_chip = {counts} gives {sum(counts)} links per GPU, but a "
            f"{entry.name} GPU has {entry.links_per_gpu}: it must be <= {entry.links_per_gpu}")
    return ScaleUpDomain(
        name=str(name), gpus=gpus, links_per_gpu_per_chip=counts, link=entry.name,
        link_per_direction_bytes_per_s=entry.per_direction_bytes_per_s, sources=tuple(sources),
    )


#: How the GPUs of each catalog system are wired to its NVSwitch chips:
#: (links from one GPU to each chip, source of the wiring).
NVLINK_DOMAIN_WIRING = MappingProxyType({
    "DGX H100": ((5, 5, 4, 4), GLENN_NVLINK),
    "HGX H100": ((5, 5, 4, 4), GLENN_NVLINK),
    "GB200 NVL72": ((1,) * 18, NVIDIA_SUPERPOD_GB200_NETWORK),
})


def nvlink_domain(system):
    """The NVSwitch domain of a catalog system, wired as ``topology.NVLINK_DOMAIN_WIRING`` says.

    Parameters
    ----------
    system : str
        ``"DGX H100"``, ``"HGX H100"`` or ``"GB200 NVL72"``. GPU count, switch
        chips and link generation come from the catalog.

    Returns
    -------
    ScaleUpDomain

    Examples
    --------
    >>> from interconnect_lab import units as u
    >>> dgx = nvlink_domain("DGX H100")
    >>> dgx.switch_chips, dgx.links_per_gpu
    (4, 18)
    >>> u.both_directions(dgx.bisection_per_direction_bytes_per_s) / u.TB_per_s
    3.6
    """
    check_choice("NVLink domain", system, NVLINK_DOMAIN_WIRING)
    counts, source = NVLINK_DOMAIN_WIRING[system]
    entry = catalog.system(system)
    if len(counts) != entry.scale_up_switches:
        raise ValueError(
            f"the wiring of {system!r} names {len(counts)} switch chips but the catalog lists "
            f"{entry.scale_up_switches}")
    link = catalog.gpu(entry.gpu).scale_up_link
    return scale_up_domain(entry.gpus, counts, link, name=system, sources=(source,) + entry.sources)
