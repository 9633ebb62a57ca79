"""Tests of ``interconnect_lab.plotting.calibrate``: figures for calibration (appendix *Measuring your
own cluster*, chapter 7): a measured nccl-tests sweep against the fitted lines and a prediction,
with the ratio and the regimes.
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
