"""Tests of ``interconnect_lab.silicon``: silicon yield: why a big chip needs spare cores, and what a
wafer-scale chip does about it.

Hostile input is at the end (and fuzzed with tests/fuzzing.py where noted).
"""

import math

import numpy as np
import pytest

from fuzzing import Case, count, fraction, make_tests, nonnegative, positive

from interconnect_lab import silicon
from interconnect_lab.silicon import chip_yield, mm2, poisson_yield


def test_poisson_yield_by_hand():
    assert poisson_yield(0.0, 1.0) == 1.0
    assert poisson_yield(1 / mm2, 1 * mm2) == pytest.approx(math.exp(-1))
    assert np.allclose(poisson_yield(0.001 / mm2, np.array([100, 1000]) * mm2), np.exp([-0.1, -1.0]))


def test_chip_yield_limits():
    area, density = 800 * mm2, 0.001 / mm2
    # one core, no spare: the Poisson yield
    assert chip_yield(area, density) == pytest.approx(poisson_yield(density, area))
    # all area critical: spares do not help
    assert chip_yield(area, density, cores=100, spare_cores=10, critical_fraction=1.0) == pytest.approx(
        poisson_yield(density, area))
    # no defects: always works
    assert chip_yield(area, 0.0, cores=100) == 1.0


def test_chip_yield_against_a_hand_binomial():
    # 10 cores of 10 mm^2 at 0.01 per mm^2: p = 1 - e^-0.1; at most 1 bad
    p = 1 - math.exp(-0.1)
    expected = (1 - p) ** 10 + 10 * p * (1 - p) ** 9
    assert chip_yield(100 * mm2, 0.01 / mm2, cores=10, spare_cores=1) == pytest.approx(expected)


def test_spares_raise_yield_monotonically():
    yields = [chip_yield(800 * mm2, cores=144, spare_cores=s) for s in range(0, 13)]
    assert all(b >= a for a, b in zip(yields, yields[1:]))


def test_wafer_scale_yield_as_cerebras_describes_it():
    wafer = silicon.WSE_3
    assert wafer.spare_cores == 70_000
    assert wafer.enabled_cores / wafer.cores == pytest.approx(0.928, abs=0.001)   # "93 %"
    assert chip_yield(wafer.area_m2) < 1e-19            # a perfect wafer: never
    assert wafer.yield_() == pytest.approx(1.0)          # with small cores and spares: nearly always
    # the critical area decides: what has no spare must be a small part of the wafer
    assert wafer.yield_(critical_fraction=0.01) == pytest.approx(math.exp(-0.001 * 462.25), rel=1e-6)
    assert wafer.yield_(critical_fraction=0.10) < 0.01


@pytest.mark.parametrize("kwargs, match", [
    (dict(area_m2=0.0), "area_m2"),
    (dict(area_m2=1e-4, cores=0), "cores"),
    (dict(area_m2=1e-4, cores=10, spare_cores=10), "spare_cores"),
    (dict(area_m2=1e-4, critical_fraction=1.5), "critical_fraction"),
])
def test_chip_yield_rejects_bad_input(kwargs, match):
    with pytest.raises(ValueError, match=match):
        chip_yield(**kwargs)


# Hostile input: fuzzed with tests/fuzzing.py -----------------------------------------------------

FUZZ_CASES = [
    Case(silicon.poisson_yield, dict(defect_density_per_m2=nonnegative(1.0, 1e5), area_m2=positive(1e-6, 0.1))),
    Case(silicon.chip_yield, dict(area_m2=positive(1e-6, 0.1), defect_density_per_m2=nonnegative(1.0, 1e5),
                                  cores=count(1, 1_000_000), spare_cores=count(0, 10_000),
                                  critical_fraction=fraction())),
]

test_fuzz, test_fuzz_nightly = make_tests(FUZZ_CASES)
