"""Tests of ``interconnect_lab.widgets.calibrate``: panel for the appendix *Measuring your own
cluster*: pick a shipped nccl-tests log or paste your own with the machine it ran on, and see it
against the collective model, with the fitted regimes.
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
    panel.controls["collective"].value = "all_reduce"
    panel.controls["gpu"].value = "A100 SXM 40GB"
    text = shipped_text("a100_2x8_roce_all_reduce")
    panel.controls["text"].value = text
    assert panel.result.error is None and "model <b>" in panel.readout.value
    assert panel.result.calibration.system.nodes == 2          # the nodes as the log lists them
    panel.controls["text"].value = text[: len(text) // 4]      # cut above the table
    assert "line" in panel.result.error and "Not calibrated" in panel.readout.value


def test_the_panel_reads_a_pasted_log_with_the_machine_chosen():
    pytest.importorskip("ipywidgets")
    from interconnect_lab.widgets.calibrate import PASTE, CalibrationPanel, calibration_summary
    panel = CalibrationPanel(log="b300_2x8_roce_alltoall")
    summary = calibration_summary(panel.result.calibration)
    assert summary == panel.readout.value
    assert "16 ranks (given: the log does not list them), on 2 × 8 GPUs" in summary
    assert "it determines the bandwidth (181 GB/s busbw), no latency" in summary
    panel.controls["log"].value = PASTE
    panel.controls["gpu"].value = "B200"
    panel.controls["text"].value = shipped_text("b300_2x8_roce_alltoall")
    assert "choose your nodes and your GPUs per node" in panel.result.error
    assert "n_ranks" not in panel.result.error         # a reader's sentence, not a parameter
    panel.controls["nodes"].value = 2
    panel.controls["gpus_per_node"].value = 8
    assert panel.result.error is None and panel.result.calibration.system.ranks == 16
