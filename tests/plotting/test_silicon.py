"""Figures of ``interconnect_lab.silicon``: chip yield against area."""

import numpy as np
import pytest

pytest.importorskip("matplotlib")

import matplotlib as mpl

from interconnect_lab import silicon
from interconnect_lab.plotting.silicon import yield_plot


def test_yield_plot_draws_one_curve_per_design_in_square_millimetres():
    before = dict(mpl.rcParams)
    areas = np.geomspace(1e-5, 5e-2, 40)
    curves = [("no spares", silicon.poisson_yield(silicon.DEFECT_DENSITY_5NM_PER_M2, areas))]
    ax = yield_plot(areas, curves, marks=[("reticle", 8.58e-4)])
    line = ax.lines[0]
    assert np.allclose(line.get_xdata(), areas / 1e-6)          # m^2 drawn as mm^2
    assert np.allclose(line.get_ydata(), curves[0][1])
    assert line.get_label() == "no spares"
    assert ax.lines[-1].get_xdata()[0] == pytest.approx(8.58e-4 / 1e-6)   # the mark
    assert ax.get_ylim() == (0, 1.05) and "[mm²]" in ax.get_xlabel()
    assert dict(mpl.rcParams) == before
