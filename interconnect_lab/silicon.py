"""Silicon yield: why a big chip needs spare cores, and what a wafer-scale chip does about it.

Manufacturing defects land at random on a wafer, :math:`D` per unit area. In the
Poisson model a region of area :math:`A` is defect-free with probability

.. math:: Y(A) = e^{-D A}

so a chip that must be perfect gets exponentially rarer as it grows. Chips made
of many identical cores escape this: a core with a defect is switched off, and
the chip still works if no more cores are bad than it has spares. With
:math:`n` cores of area :math:`a` each, :math:`s` of them spares, and a
*critical* area :math:`A_c` that must be perfect (what has no spare: I/O, clock,
the parts of the on-chip network with no alternative route),

.. math::

    Y = e^{-D A_c} \\; P\\big[\\text{Binomial}(n,\\, 1 - e^{-D a}) \\le s\\big]

:func:`chip_yield` evaluates this. GPUs use it at the scale of their streaming
multiprocessors (an H100 die has 144 and sells with 132 enabled); Cerebras'
wafer-scale engine uses it with cores about a hundred times smaller and a fabric
that routes around a dead core to a spare (:data:`WSE_3`).

Defects cluster in practice, which helps the redundant design further (several
defects in one core cost one core); this module keeps the independent,
Poisson case, which is the standard first model.

References
----------
J. Wang (Cerebras), "100x Defect Tolerance: How Cerebras Solved the Yield
Problem", 13 January 2025.
https://cerebras.ai/blog/100x-defect-tolerance-how-cerebras-solved-the-yield-problem
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ._validation import check_integer, check_number
from .sources import Source

__all__ = ["poisson_yield", "chip_yield", "Floorplan", "WSE_3", "H100_DIE", "DEFECT_DENSITY_5NM_PER_M2",
           "mm2"]

#: One square millimetre [m^2].
mm2 = 1e-6

_CEREBRAS_2025 = Source(
    title="J. Wang (Cerebras), 100x Defect Tolerance: How Cerebras Solved the Yield Problem", year=2025,
    url="https://cerebras.ai/blog/100x-defect-tolerance-how-cerebras-solved-the-yield-problem",
    estimate=True,
    note=("a vendor's account, 13 Jan 2025: WSE-3 46,225 mm^2, cores of about 0.05 mm^2, 970,000 physical and "
          "900,000 enabled (93 % of the silicon active); H100 814 mm^2 with 144 SMs of which 132 are enabled; "
          "TSMC 5 nm defect density taken as about 0.001 per mm^2"),
)

#: Defect density of a mature 5 nm process as Cerebras' comparison assumes it [1/m^2]. An estimate:
#: foundries do not publish theirs.
DEFECT_DENSITY_5NM_PER_M2: float = 0.001 / mm2


def poisson_yield(defect_density_per_m2, area_m2):
    """Probability that a region of ``area_m2`` has no defect [-].

    .. math:: Y = e^{-D A}

    Parameters
    ----------
    defect_density_per_m2 : float or array_like
        Defects per unit area [1/m^2], >= 0.
    area_m2 : float or array_like
        Area [m^2], >= 0.

    Returns
    -------
    float or numpy.ndarray

    Examples
    --------
    An H100-sized die at 0.001 defects per mm^2, with no redundancy:

    >>> round(poisson_yield(DEFECT_DENSITY_5NM_PER_M2, 814 * mm2), 3)
    0.443
    """
    density = check_number("defect_density_per_m2", defect_density_per_m2, unit="1/m^2", minimum=0)
    area = check_number("area_m2", area_m2, unit="m^2", minimum=0)
    result = np.exp(-density * area)
    return float(result) if np.ndim(result) == 0 else result


#: Most cores :func:`chip_yield` sums over: a hundred times a wafer-scale engine's.
MAX_CORES = 10 ** 8


def _binomial_cdf(k, n, p):
    """P[Binomial(n, p) <= k], summed in log space so that n in the millions is exact and fast."""
    if p <= 0.0 or k >= n:
        return 1.0
    if p >= 1.0:
        return 0.0
    j = np.arange(1, k + 1, dtype=float)
    # log pmf(j) = log pmf(j-1) + log((n - j + 1) / j) + log(p / (1 - p))
    steps = np.log((n - j + 1) / j) + math.log(p) - math.log1p(-p)
    log_pmf = n * math.log1p(-p) + np.concatenate(([0.0], np.cumsum(steps)))
    peak = log_pmf.max()
    return float(min(1.0, math.exp(peak) * np.exp(log_pmf - peak).sum()))


def chip_yield(area_m2, defect_density_per_m2=DEFECT_DENSITY_5NM_PER_M2, *, cores=1, spare_cores=0,
               critical_fraction=0.0):
    """Probability that a chip works: its critical area is clean and no more cores are bad than it has spares.

    .. math::

        Y = e^{-D f A}\\; P\\big[\\text{Binomial}(n, 1 - e^{-D (1-f) A / n}) \\le s\\big]

    The cores share the non-critical area :math:`(1-f)A` equally.

    Parameters
    ----------
    area_m2 : float
        Chip area [m^2], > 0.
    defect_density_per_m2 : float
        Defects per unit area [1/m^2], >= 0.
    cores : int
        Identical cores, spares included, in [1, 1e8]. One core and no spare is a chip that
        must be perfect.
    spare_cores : int
        Cores that may be bad, in [0, cores).
    critical_fraction : float
        Share of the area with no redundancy, in [0, 1] [-].

    Returns
    -------
    float
        Yield [-].

    Examples
    --------
    A whole-wafer chip of 46,225 mm^2 with no redundancy, and with Cerebras' cores and spares:

    >>> chip_yield(46_225 * mm2) < 1e-19
    True
    >>> round(chip_yield(46_225 * mm2, cores=970_000, spare_cores=70_000), 6)
    1.0
    """
    area = check_number("area_m2", area_m2, unit="m^2", minimum=0, min_inclusive=False, scalar=True)
    density = check_number("defect_density_per_m2", defect_density_per_m2, unit="1/m^2", minimum=0,
                           scalar=True)
    cores = check_integer("cores", cores, minimum=1, maximum=MAX_CORES)
    spare_cores = check_integer("spare_cores", spare_cores, minimum=0, maximum=cores - 1)
    critical = check_number("critical_fraction", critical_fraction, minimum=0, maximum=1, scalar=True)
    clean_critical = math.exp(-density * critical * area)
    core_area = (1 - critical) * area / cores
    core_bad = -math.expm1(-density * core_area)
    return clean_critical * _binomial_cdf(spare_cores, cores, core_bad)


@dataclass(frozen=True, kw_only=True)
class Floorplan:
    """How a chip is divided into cores, as its maker describes it.

    Attributes
    ----------
    name : str
    area_m2 : float
        Die area [m^2].
    cores : int
        Physical cores (SMs for a GPU) [-].
    enabled_cores : int
        Cores enabled in the product [-].
    source : Source
    """

    name: str
    area_m2: float
    cores: int
    enabled_cores: int
    source: Source

    def __post_init__(self):
        check_number(f"Floorplan({self.name!r}).area_m2", self.area_m2, unit="m^2", minimum=0,
                     min_inclusive=False)
        check_integer(f"Floorplan({self.name!r}).cores", self.cores, minimum=1)
        check_integer(f"Floorplan({self.name!r}).enabled_cores", self.enabled_cores, minimum=1,
                      maximum=self.cores)

    @property
    def spare_cores(self) -> int:
        """Cores that may be bad without losing the product [-]."""
        return self.cores - self.enabled_cores

    @property
    def core_area_m2(self) -> float:
        """Die area per core, if the cores filled the die [m^2]; an upper bound on one core's area."""
        return self.area_m2 / self.cores

    def yield_(self, defect_density_per_m2=DEFECT_DENSITY_5NM_PER_M2, *, critical_fraction=0.0):
        """:func:`chip_yield` of this floorplan [-]."""
        return chip_yield(self.area_m2, defect_density_per_m2, cores=self.cores, spare_cores=self.spare_cores,
                          critical_fraction=critical_fraction)


#: Cerebras' third wafer-scale engine, as its maker describes it.
WSE_3 = Floorplan(name="Cerebras WSE-3", area_m2=46_225 * mm2, cores=970_000, enabled_cores=900_000,
                  source=_CEREBRAS_2025)

#: An H100 die as the same comparison describes it: 144 streaming multiprocessors, 132 enabled.
H100_DIE = Floorplan(name="NVIDIA H100 die", area_m2=814 * mm2, cores=144, enabled_cores=132,
                     source=_CEREBRAS_2025)
