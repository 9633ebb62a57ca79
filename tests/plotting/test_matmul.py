"""Tests of ``interconnect_lab.plotting.matmul``: figures for :mod:`interconnect_lab.matmul`: the
sustained GEMM rate by shape (chapter 8).
"""

import pytest

pytest.importorskip("matplotlib")

from interconnect_lab import catalog
from interconnect_lab.plotting import gemm_shape_plot
from interconnect_lab.published import AZURE_A100_GEMM, TILELANG_H800_GEMM


def test_gemm_shape_plot_draws_a_curve_per_gpu_and_the_measured_points():
    ax = gemm_shape_plot([catalog.gpu("A100 SXM"), catalog.gpu("H100 SXM")], AZURE_A100_GEMM)
    assert len(ax.lines) == 2
    assert "TFLOP/s" in ax.get_ylabel() and "elements" in ax.get_xlabel()
    assert ax.get_xscale() == "log"
    measured = [c for c in ax.collections if c.get_label() == "measured, A100 SXM"]
    assert len(measured[0].get_offsets()) == len(AZURE_A100_GEMM)


def test_gemm_shape_plot_names_the_gpu_a_sweep_ran_on():
    # TileLang's sweep ran on an H800 and stands for the H100: the legend says both.
    ax = gemm_shape_plot([catalog.gpu("H100 SXM")], TILELANG_H800_GEMM)
    labels = [c.get_label() for c in ax.collections]
    assert "measured, H800 SXM (for the H100 SXM)" in labels
