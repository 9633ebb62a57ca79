"""Chapter 3 figures: built from model results, units on the axes, no global state touched."""

import numpy as np
import pytest

pytest.importorskip("matplotlib")

import matplotlib as mpl

from interconnect_lab import catalog, memory as m, training as tr
from interconnect_lab.plotting.memory import (
    decode_plot, kv_cache_plot, memory_wall_plot, offload_memory_plot, offload_paths_plot, offload_share_plot,
    path_color, update_offload_paths,
)


CAPACITIES = {g.name: g.hbm_bytes for g in catalog.GPUS.values()}


def test_memory_wall_draws_both_bars_per_model_and_every_capacity():
    before = dict(mpl.rcParams)
    names = ["Llama 3 8B", "Llama 3 70B"]
    ax = memory_wall_plot(names, [m.training_state(tr.transformer_model(n)) for n in names], CAPACITIES)
    assert len(ax.patches) == 2 * len(names)
    assert len(ax.lines) == len(CAPACITIES)
    assert "[GB]" in ax.get_xlabel() and ax.get_xscale() == "log"
    labels = [t.get_text() for t in ax.texts]
    assert any("A100 SXM, H100 SXM: 80 GB" in t for t in labels)        # equal capacities share a label
    assert dict(mpl.rcParams) == before
    with pytest.raises(ValueError, match="one label per state"):
        memory_wall_plot(["a"], [], CAPACITIES)


def test_kv_and_share_and_decode_plots_have_units():
    tokens = np.geomspace(1024, 2**20, 10)
    ax = kv_cache_plot(tokens, {"Llama 3 8B": m.kv_cache_bytes(tr.transformer_model("Llama 3 8B"), tokens)},
                       {"H100 SXM": 80e9})
    assert "[GB]" in ax.get_ylabel() and "[token]" in ax.get_xlabel()
    steps = {p: m.offload_step("Llama 3 8B", "H100 SXM", "ZeRO-Offload", p, tokens_per_gpu=tokens[:4])
             for p in m.OFFLOAD_PATHS}
    ax = offload_share_plot(tokens[:4], steps)
    assert len(ax.lines) == len(steps) and "[%]" in ax.get_ylabel()
    fractions = np.linspace(0, 1, 5)
    decode = {p: m.decode_step("Llama 3 8B", "H100 SXM", context_tokens=8192, offloaded_fraction=fractions, path=p)
              for p in ("host DDR5 over PCIe Gen5 x16", "Grace LPDDR5X over NVLink-C2C")}
    ax = decode_plot(fractions, decode)
    assert "[ms]" in ax.get_ylabel()
    assert path_color("Grace LPDDR5X over NVLink-C2C") != path_color("host DDR5 over PCIe Gen5 x16")


def test_offload_bars_are_relative_to_compute_and_update_in_place():
    steps = [m.offload_step("Llama 3 70B", "H100 SXM", "ZeRO-3 + CPU optimizer offload", p, tokens_per_gpu=8192,
                            shards=8) for p in m.OFFLOAD_PATHS]
    ax = offload_paths_plot(list(m.OFFLOAD_PATHS), steps, selected=2)
    exposed = ax.offload_artists["exposed"]
    assert [bar.get_width() for bar in ax.offload_artists["compute"]] == [1.0] * len(steps)
    assert exposed[0].get_width() == pytest.approx(steps[0].added_fraction)
    assert ax.offload_artists["texts"][2].get_fontweight() == "bold"
    changed = update_offload_paths(ax, steps, 0)
    assert len(changed) == 4 * len(steps)
    assert ax.offload_artists["texts"][0].get_fontweight() == "bold"
    memory = offload_memory_plot(steps[2], limits=(0.01, 1e5))
    assert [t.get_text().strip() for t in memory.offload_artists["texts"]] == [
        "141 GB too big", "18 GB fits", "123 GB fits"]
