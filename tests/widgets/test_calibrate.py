"""Tests of ``interconnect_lab.widgets.calibrate``: panel for the appendix *Measuring your own
cluster*: pick a shipped nccl-tests log or paste your own, and see the fitted regimes and the
comparison with the book's catalog prediction.
"""

import pytest

pytest.importorskip("ipywidgets")

from interconnect_lab.calibrate import calibrate_nccl_tests, shipped_text


def test_calibration_panel_shows_the_model_and_refuses_bad_text():
    pytest.importorskip("ipywidgets")
    from interconnect_lab.widgets.calibrate import PASTE, CalibrationPanel
    panel = CalibrationPanel()
    assert panel.result.calibration.link == calibrate_nccl_tests("v100_dgx2_all_reduce").link
    first = panel.png()
    panel.controls["log"].value = "h100_2x8_a3mega_all_reduce"
    assert panel.result.calibration.run.n_nodes == 2 and panel.png() != first
    panel.controls["log"].value = PASTE
    assert panel.result.error and "Paste" in panel.readout.value
    panel.controls["reference"].value = "NVLink 2 (V100)"
    panel.controls["collective"].value = "all_reduce"
    text = shipped_text("v100_dgx2_all_reduce")
    panel.controls["text"].value = text
    assert panel.result.error is None and "124 GB/s" in panel.readout.value
    panel.controls["text"].value = text[: len(text) // 2]
    assert "line" in panel.result.error and "Not calibrated" in panel.readout.value
