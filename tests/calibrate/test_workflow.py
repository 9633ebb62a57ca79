"""calibrate_nccl_tests in one call, from a shipped log or pasted text and the machine; the figure and
the panel that show it; the names of the former α-β comparison, deprecated for one release."""

import warnings

import numpy as np
import pytest

from interconnect_lab import calibrate
from interconnect_lab.calibrate import calibrate_nccl_tests, shipped_system, shipped_text


def test_a_pasted_log_with_its_machine_by_catalog_names():
    text = shipped_text("b300_2x8_roce_alltoall")
    with pytest.raises(ValueError, match="pass n_ranks="):
        calibrate_nccl_tests(text, gpu="B200", network="Ethernet 800G")
    with pytest.raises(ValueError, match="the log does not list every rank.*give nodes= and gpus_per_node="):
        calibrate_nccl_tests(text, n_ranks=16, gpu="B200", network="Ethernet 800G")
    result = calibrate_nccl_tests(text, n_ranks=16, gpu="B200", network="Ethernet 800G", nodes=2, gpus_per_node=8)
    assert result.run.rank_count_source == "caller" and result.system.ranks == 16
    assert result.fit.determines == "bandwidth" and result.link is None
    assert result.comparison.algorithm == ("p2p",)


def test_a_shipped_log_uses_its_own_machine_and_ranks_unless_told_otherwise():
    shipped = calibrate_nccl_tests("a100_2x8_ib_alltoall")
    assert shipped.system == shipped_system("a100_2x8_ib_alltoall") and shipped.reference == ()
    other = calibrate_nccl_tests("a100_2x8_ib_alltoall", gpu="A100 SXM", network="InfiniBand NDR")
    assert other.system.nic_bytes_per_s == 50e9
    assert np.all(other.comparison.predicted_bus_bandwidth_bytes_per_s
                  >= shipped.comparison.predicted_bus_bandwidth_bytes_per_s * (1 - 1e-12))


@pytest.mark.parametrize("old, new", [
    ("compare_bus_bandwidth", "compare_with_model"), ("BusBandwidthComparison", "ModelComparison"),
    ("reference_parameters", "run_system"), ("REFERENCES", "shipped_system"),
])
def test_the_former_names_warn_for_one_release_and_still_work(old, new):
    assert old not in calibrate.__all__ and new in calibrate.__all__
    with pytest.deprecated_call(match=rf"interconnect_lab.calibrate.{old} is deprecated and will be removed in the "
                                      rf"next release: use .*{new}"):
        value = getattr(calibrate, old)
    module = "fit" if old in ("compare_bus_bandwidth", "BusBandwidthComparison") else "workflow"
    with pytest.deprecated_call(match=rf"interconnect_lab.calibrate.{module}.{old} is deprecated"):
        assert getattr(getattr(calibrate, module), old) is value
    with pytest.raises(AttributeError, match="has no attribute 'compare'"):
        calibrate.compare


def test_the_former_alpha_beta_comparison_still_answers_with_a_warning():
    run = calibrate.shipped_run("v100_dgx2_all_reduce")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        references = calibrate.REFERENCES
        label, kwargs = calibrate.reference_parameters(run, references["NVLink 2 (V100)"])
        comparison = calibrate.compare_bus_bandwidth(run, prediction_label=label, **kwargs)
    size, ratio = comparison.worst_by_regime()["bandwidth-bound"]
    assert label == "catalog: NVLink 2" and abs(ratio - 1) < 0.08
    with pytest.deprecated_call(match=r"calibrate_nccl_tests\(reference=...\) is deprecated"):
        old = calibrate_nccl_tests("v100_dgx2_all_reduce", reference=("link", "NVLink 2"))
    assert old.reference == ("link", "NVLink 2") and old.system is None
    assert np.allclose(old.comparison.ratio, comparison.ratio)


def test_the_figure_names_what_the_model_runs_and_what_the_fit_determines():
    pytest.importorskip("matplotlib")
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
    assert "pass n_ranks=" in panel.result.error and "choose your nodes and your GPUs per node" in panel.result.error
    panel.controls["nodes"].value = 2
    panel.controls["gpus_per_node"].value = 8
    assert panel.result.error is None and panel.result.calibration.system.ranks == 16
