"""Tests of ``interconnect_lab.plotting.inference``: figures for inference traffic (chapter 12): all-reduces
as engines run them, decode, KV transfer and tiers, wide expert parallelism, TTFT and ITL.
"""

import pytest

pytest.importorskip("matplotlib")

from interconnect_lab import inference
from interconnect_lab.plotting.inference import (
    SERVING_PARTS, TTFT_PARTS, WIDE_EP_PARTS, decode_all_reduce_plot, kv_transfer_plot, serving_all_reduce_plot,
    serving_plot, ttft_tiers_plot, update_serving_plot, update_ttft_tiers_plot, update_wide_ep_plot, wide_ep_plot,
)


def row_ends(ax):
    ends = {}
    for patch in ax.patches:
        row = patch.get_gid().split(":")[1]
        ends[row] = max(ends.get(row, 0.0), patch.get_x() + patch.get_width())
    return ends


def test_serving_plot_shares_sum_to_one_and_update():
    d = inference.serving_deployment("Llama 3 70B", batch=16, prompt_tokens=4096, layerwise=False)
    ax = serving_plot(d)
    ends = {}
    for patch in ax.patches:
        row = patch.get_gid().split(":")[1]
        ends[row] = max(ends.get(row, 0.0), patch.get_x() + patch.get_width())
    assert ends == pytest.approx({row: 1.0 for row in SERVING_PARTS})
    other = inference.serving_deployment("Llama 3 8B", tensor_parallel=2, batch=1, prompt_tokens=512)
    texts = [t.get_text() for t in ax.texts]
    update_serving_plot(ax, other)
    assert [t.get_text() for t in ax.texts] != texts
    with pytest.raises(TypeError):
        serving_plot(None)


def test_decode_and_kv_plots_label_their_axes():
    ax = decode_all_reduce_plot([1, 2, 4, 8], {"ring": [1e-4, 2e-3, 2.2e-3, 2.4e-3]})
    assert ax.get_xlabel() == "tensor-parallel GPUs (log scale)" and "log scale" in ax.get_ylabel()
    ax = kv_transfer_plot([512, 1024], {"NDR": [1e-3, 2e-3]}, reference_s=[0.05, 0.1], reference_label="prefill")
    assert len(ax.lines) == 2 and "tokens" in ax.get_xlabel()


def test_serving_all_reduce_plot_draws_lines_choice_and_published_points():
    ax = serving_all_reduce_plot([1024, 2048, 4096], {"one-shot": [6e-6, 6.1e-6, 6.2e-6], "NCCL": [1.5e-5] * 3},
                                 chosen_s=[6e-6, 6.1e-6, 6.2e-6], published=[("SGLang", 4096, 5.7e-6)])
    assert len(ax.lines) == 4 and "log scale" in ax.get_xlabel()
    with pytest.raises(ValueError, match="at least one line"):
        serving_all_reduce_plot([1], {})
    with pytest.raises(ValueError, match="has 1 values for 2 sizes"):
        serving_all_reduce_plot([1, 2], {"a": [1.0]})


def test_wide_ep_plot_rows_are_shares_of_the_layer_and_update():
    overlapped = inference.wide_ep_decode_step(batch_per_gpu=256)
    ax = wide_ep_plot(overlapped)
    ends = row_ends(ax)
    assert ends["MoE layer as run"] == pytest.approx(1.0)
    assert max(ends["compute"], ends["communication"]) == pytest.approx(1.0)
    assert set(ends) == set(WIDE_EP_PARTS)
    sequential = inference.wide_ep_decode_step(batch_per_gpu=256, overlap=False)
    update_wide_ep_plot(ax, sequential)
    ends = row_ends(ax)
    assert ends["compute"] + ends["communication"] == pytest.approx(1.0)
    with pytest.raises(TypeError):
        wide_ep_plot(None)


def test_ttft_tiers_plot_is_a_share_of_the_uncached_ttft_and_updates():
    r = inference.disaggregated_ttft("Llama 3 70B", 32768, cached_fraction=0.9)
    ax = ttft_tiers_plot(r)
    ends = row_ends(ax)
    assert ends["recomputed"] == pytest.approx(1.0) and ends["cached"] == pytest.approx(r.ttft_s / r.uncached_ttft_s)
    assert set(ends) == set(TTFT_PARTS)
    texts = [t.get_text() for t in ax.texts]
    update_ttft_tiers_plot(ax, inference.disaggregated_ttft("DeepSeek-V3", 2048, cached_fraction=0.5))
    assert [t.get_text() for t in ax.texts] != texts
    with pytest.raises(TypeError):
        ttft_tiers_plot(None)
