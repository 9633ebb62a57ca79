"""Tests of ``interconnect_lab.plotting.calibrate``: figures for calibration (appendix *Measuring your
own cluster*, chapter 7): a measured nccl-tests sweep against the collective model for its machine
and the fitted lines, with the ratio, what the model says NCCL runs and the regimes of the fit.
"""

import pytest

pytest.importorskip("matplotlib")

from interconnect_lab.calibrate import calibrate_nccl_tests


def test_calibration_plot_has_labelled_log_axes():
    pytest.importorskip("matplotlib")
    from interconnect_lab.plotting.calibrate import calibration_plot
    result = calibrate_nccl_tests("a100_2x8_roce_all_reduce")
    figure = calibration_plot(result.comparison, fit=result.fit)
    top, bottom = figure.axes
    assert top.get_xscale() == "log" and bottom.get_yscale() == "log"
    assert "[GB/s]" in top.get_ylabel() and "[B]" in bottom.get_xlabel() and "[-]" in bottom.get_ylabel()


def test_the_figure_names_what_the_model_runs_and_what_the_fit_determines():
    from interconnect_lab.plotting.calibrate import calibration_plot
    result = calibrate_nccl_tests("h100_2x8_a3mega_all_reduce")
    figure = calibration_plot(result.comparison, fit=result.fit)
    top, bottom = figure.axes
    labels = [text.get_text() for text in bottom.texts]
    assert labels == ["tree/LL", "tree/LL128", "nvls_tree/Simple"]
    legend = [text.get_text() for text in top.get_legend().get_texts()]
    assert legend[0] == "model: 2 x 8 NVIDIA H100 80GB HBM3" and legend[1] == "fit: 3 α-β line(s)"
    plateau = calibrate_nccl_tests("b300_2x8_roce_alltoall")
    figure = calibration_plot(plateau.comparison, fit=plateau.fit)
    top, bottom = figure.axes
    assert "fit: bandwidth only (plateau sizes)" in [t.get_text() for t in top.get_legend().get_texts()]
    low, high = top.get_xlim()
    assert low < 8 * 2**30 < high and high / low >= 10          # one size, a readable axis
