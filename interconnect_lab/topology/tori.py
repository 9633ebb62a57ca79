"""Tori: chips wired to their neighbours in a 2D or 3D grid that wraps around.

In a *k*-ary *n*-dimensional torus every chip has two links in each
dimension, to its neighbours at :math:`\\pm 1` (modulo the ring length
:math:`k_i`). There are no switches: the chips forward each other's traffic.
The longest minimal route goes half-way round every ring, and cutting the
longest ring in two cuts two links per ring (one in the middle, one at the
wrap-around):

.. math::

    N = \\prod_i k_i, \\qquad D = \\sum_i \\lfloor k_i / 2 \\rfloor, \\qquad
    B = 2 N / k_\\text{max}

Google's TPU v4 supercomputer is a 3D torus of 4,096 chips built from 64
cubes of 4 x 4 x 4 chips. Inside a cube the links are electrical; the links
that leave a cube's six faces are optical and pass through optical circuit
switches (OCS), which can join any cubes into a slice (and route around a
failed one). Each OCS serves one link position on a pair of opposite faces
of every cube, so a cube of :math:`c_x c_y c_z` chips needs
:math:`c_y c_z + c_x c_z + c_x c_y` OCS, each with :math:`2 \\times` cubes
ports in use: 48 OCS of 128 ports for TPU v4 (``TPU_V4``).

References
----------
N. P. Jouppi et al., "TPU v4: An Optically Reconfigurable Supercomputer for
Machine Learning with Hardware Support for Embeddings", ISCA 2023,
https://doi.org/10.1145/3579371.3589350.

W. J. Dally, B. Towles, *Principles and Practices of Interconnection
Networks*, Morgan Kaufmann, 2004, ch. 5 (tori: diameter and bisection).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from types import MappingProxyType

from .._validation import MAX_COUNT, check_integer, check_number
from ..sources import Source
from .summary import TopologySummary

__all__ = ["Torus", "torus", "TPU_V4"]

_JOUPPI = Source(
    title=("N. P. Jouppi et al., TPU v4: An Optically Reconfigurable Supercomputer for Machine Learning "
           "with Hardware Support for Embeddings (ISCA 2023)"),
    year=2023, doi="10.1145/3579371.3589350",
    note="4,096 chips in a 3D torus built of 4x4x4 blocks joined through optical circuit switches; "
         "the OCSes are 'less than 5%' of system cost and 'less than 3%' of system power",
)
_HPCWIRE = Source(
    title="HPCwire, Google AI Supercomputer Shows the Potential of Optical Interconnects", year=2023,
    url="https://www.hpcwire.com/2023/04/10/google-ai-supercomputer-shows-the-potential-of-optical-interconnects/",
    note="'a total of 64 racks hosting 4,096 TPUs, plus 48 optical circuit switches connecting all racks'",
)

#: Google's TPU v4 supercomputer: the torus, its 4x4x4 cubes, the published OCS count (derived
#: from the cube by :attr:`Torus.circuit_switches` and checked against it), the OCS's published
#: upper bounds on their share of system cost and power [-], and sources.
TPU_V4 = MappingProxyType({
    "dimensions": (16, 16, 16), "cube": (4, 4, 4), "circuit_switches_published": 48,
    "ocs_cost_share_below": 0.05, "ocs_power_share_below": 0.03,
    "sources": (_JOUPPI, _HPCWIRE),
})


@dataclass(frozen=True)
class Torus:
    """A torus of chips, optionally built from cubes joined through optical circuit switches.

    Build it with :func:`torus`.

    Attributes
    ----------
    dimensions : tuple of int
        Ring length in each dimension, :math:`k_i` [-].
    cube : tuple of int or None
        Chips per cube in each dimension, or None for a torus of fixed wiring.
    port_bytes_per_s : float or None
        Rate of one chip-to-chip link, one direction [B/s].
    """

    dimensions: tuple[int, ...]
    cube: tuple[int, ...] | None = None
    port_bytes_per_s: float | None = None

    @property
    def chips(self) -> int:
        """Chips, :math:`\\prod k_i` [-]."""
        return math.prod(self.dimensions)

    @property
    def radix(self) -> int:
        """Network links of one chip: two per dimension with a ring longer than 2, else one [-]."""
        return sum(2 if k > 2 else 1 for k in self.dimensions)

    @property
    def links(self) -> int:
        """Chip-to-chip links: *N* per dimension with rings longer than 2, *N*/2 for rings of 2 [-]."""
        return sum(self.chips if k > 2 else self.chips // 2 for k in self.dimensions)

    @property
    def diameter_hops(self) -> int:
        """Chip-to-chip hops of the longest minimal route, :math:`\\sum \\lfloor k_i/2 \\rfloor` [-]."""
        return sum(k // 2 for k in self.dimensions)

    @property
    def average_hops(self) -> float:
        """Mean minimal hops between two chips drawn uniformly (the same chip allowed) [-].

        A ring of *k* contributes :math:`\\frac{1}{k}\\sum_{d=0}^{k-1} \\min(d, k-d)
        = \\lfloor k^2/4 \\rfloor / k` (a closed form, so a long ring costs no more than a short one).
        """
        return float(sum((k * k // 4) / k for k in self.dimensions))

    @property
    def bisection_links(self) -> int:
        """Links across the cut that halves the longest ring: :math:`2N/k_\\text{max}` (N/2 for rings of 2) [-]."""
        k = max(self.dimensions)
        return self.chips // 2 if k == 2 else 2 * self.chips // k

    @property
    def cubes(self) -> int:
        """Cubes (0 without cubes) [-]."""
        return 0 if self.cube is None else self.chips // math.prod(self.cube)

    @property
    def optical_links(self) -> int:
        """Links that leave a cube's faces (all links without cubes) [-]."""
        if self.cube is None:
            return self.links
        return self.cubes * self.circuit_switches

    @property
    def circuit_switches(self) -> int:
        """Optical circuit switches: one per link position on a pair of opposite cube faces [-].

        .. math:: S_\\text{OCS} = \\sum_i \\prod_{j \\ne i} c_j
        """
        if self.cube is None:
            return 0
        return sum(math.prod(self.cube) // c for c in self.cube)

    @property
    def circuit_switch_ports(self) -> int:
        """Ports in use on each OCS: one link end on each of two faces of every cube [-]."""
        return 2 * self.cubes if self.cube is not None else 0

    def summary(self) -> TopologySummary:
        """This torus as a :class:`~interconnect_lab.topology.TopologySummary`."""
        if self.cube is not None:
            note = (f"a chip failure takes its cube of {math.prod(self.cube)} chips out of service; the "
                    "circuit switches rebuild the slice from healthy cubes")
        else:
            note = ("a chip or link failure breaks the rings through it: the slice must be rebuilt "
                    "around it or routed the long way")
        dims = "x".join(str(k) for k in self.dimensions)
        return TopologySummary(
            name=f"{len(self.dimensions)}D torus {dims}" + (" with OCS" if self.cube else ""),
            family="torus", hosts=self.chips, switches=0, radix=self.radix, links=self.links,
            optical_links=self.optical_links, circuit_switches=self.circuit_switches,
            diameter_hops=self.diameter_hops, diameter_links=self.diameter_hops,
            bisection_links=float(self.bisection_links), port_bytes_per_s=self.port_bytes_per_s,
            hosts_cut_by_switch=0, worst_link_loss=1.0, failure_note=note)


def torus(dimensions, *, cube=None, port_bytes_per_s=None):
    """Build a torus with rings of the given lengths.

    Parameters
    ----------
    dimensions : sequence of int
        Ring length in each dimension, each >= 2 (1 to 3 dimensions); at
        most 2**53 chips in all.
    cube : sequence of int, optional
        Chips per cube in each dimension; each must divide the ring length.
        Cubes are joined through optical circuit switches.
    port_bytes_per_s : float, optional
        Rate of one chip-to-chip link, one direction [B/s], in (0, 1e18].

    Returns
    -------
    Torus

    Raises
    ------
    ValueError
        If a ring is shorter than 2, there are more than 3 dimensions, or a
        cube does not tile the torus.
    TypeError
        If ``dimensions`` is not a sequence of whole numbers.

    References
    ----------
    N. P. Jouppi et al., ISCA 2023, https://doi.org/10.1145/3579371.3589350.

    Examples
    --------
    TPU v4: 4,096 chips, 64 cubes, 48 circuit switches of 128 ports in use:

    >>> t = torus((16, 16, 16), cube=(4, 4, 4))
    >>> t.chips, t.cubes, t.circuit_switches, t.circuit_switch_ports, t.diameter_hops
    (4096, 64, 48, 128, 24)
    """
    dims = _check_shape("dimensions", dimensions)
    if math.prod(dims) > MAX_COUNT:
        raise ValueError(f"dimensions = {dims} is not valid: {math.prod(dims)} chips, and a torus must have at most "
                         f"2**53 = {MAX_COUNT}")
    if cube is not None:
        cube = _check_shape("cube", cube, minimum=1)
        if len(cube) != len(dims):
            raise ValueError(f"cube = {cube} has {len(cube)} dimensions; the torus has {len(dims)}")
        for i, (k, c) in enumerate(zip(dims, cube)):
            if k % c:
                raise ValueError(f"cube[{i}] = {c} is not valid: it must divide the ring length {k}")
    if port_bytes_per_s is not None:
        port_bytes_per_s = check_number("port_bytes_per_s", port_bytes_per_s, unit="B/s", minimum=0,
                                        min_inclusive=False, maximum=1e18, scalar=True)
    return Torus(dimensions=dims, cube=cube, port_bytes_per_s=port_bytes_per_s)


def _check_shape(name, value, minimum=2):
    if isinstance(value, (str, bytes)) or not hasattr(value, "__iter__"):
        raise TypeError(f"{name} must be a sequence of whole numbers, one per dimension, e.g. (16, 16, 16); "
                        f"got {value!r}")
    shape = tuple(check_integer(f"{name}[{i}]", k, minimum=minimum) for i, k in enumerate(value))
    if not 1 <= len(shape) <= 3:
        raise ValueError(f"{name} has {len(shape)} dimensions: it must have 1, 2 or 3")
    return shape
