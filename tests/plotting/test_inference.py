"""Tests of ``interconnect_lab.plotting.inference``: figures for inference traffic (chapter 12): decode
all-reduces, KV transfer, TTFT and ITL.
"""

import pytest

pytest.importorskip("matplotlib")

from interconnect_lab import inference
from interconnect_lab.plotting.inference import (
    SERVING_PARTS, decode_all_reduce_plot, kv_transfer_plot, serving_plot, update_serving_plot,
)


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
