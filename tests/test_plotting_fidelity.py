import pytest

from interconnect_lab import catalog, training as tr
from interconnect_lab.plotting import attention_share_plot, fidelity_plot, gemm_shape_plot
from interconnect_lab.published import AZURE_A100_GEMM, TILELANG_H800_GEMM, TRAINING_RUNS


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


def test_attention_share_plot_draws_each_pass_of_each_kernel_through_its_measurements():
    ax = attention_share_plot("H100 SXM")
    assert len(ax.lines) == 6                                   # three kernels, forward and backward
    assert [len(c.get_offsets()) for c in ax.collections] == [len(tr.ATTENTION_BENCHMARK_LENGTHS)] * 6
    cudnn = next(line for line in ax.lines if line.get_label() == "cuDNN, forward")
    x, y = cudnn.get_data()
    assert y[-1] == pytest.approx(100 * tr.ATTENTION_KERNELS["cuDNN"]["H100 SXM"].forward)   # held beyond 16K
    assert y[0] < 0.7 * y[-1]
    assert "%" in ax.get_ylabel() and "tokens" in ax.get_xlabel() and ax.get_xscale() == "log"


def test_attention_share_plot_draws_one_figure_flat_and_skips_kernels_without_a_share():
    # On the A100 the papers give FlashAttention-2 one share, and cuDNN none.
    ax = attention_share_plot("A100 SXM", ("FlashAttention-2", "cuDNN"))
    assert len(ax.lines) == 2 and not ax.collections
    assert set(ax.lines[0].get_ydata()) == {72.0}


def test_fidelity_plot_has_a_point_per_run_sorted_by_error():
    rows = tr.fidelity_table(TRAINING_RUNS[:6])
    ax = fidelity_plot(rows)
    points = [c for c in ax.collections if len(c.get_offsets()) == 1]
    errors = [float(c.get_offsets()[0][1]) for c in points]
    assert len(errors) == 6
    assert errors == sorted(errors)
    assert "%" in ax.get_ylabel()


def test_fidelity_plot_refuses_an_empty_table():
    with pytest.raises(ValueError, match="at least one"):
        fidelity_plot([])
