"""Tests of ``interconnect_lab.plotting.catalog``: figures for the catalog's links and memory tiers:
port rates by generation, and the bandwidth ladder.
"""

import pytest

pytest.importorskip("matplotlib")

from interconnect_lab import catalog, units as u
from interconnect_lab.plotting.catalog import bandwidth_ladder_plot, ladder_entry


def test_ladder_entries_keep_directions_apart():
    hbm = ladder_entry(catalog.hbm_tier("H100 SXM"))
    nvlink = ladder_entry(catalog.link("NVLink 4"))
    ib = ladder_entry(catalog.link("InfiniBand NDR"))
    assert hbm["direction"] == "reads + writes" and hbm["both_directions_bytes_per_s"] is None
    assert nvlink["bytes_per_s"] == 450 * u.GB_per_s and nvlink["both_directions_bytes_per_s"] == 900 * u.GB_per_s
    assert ib["both_directions_bytes_per_s"] is None and ib["bits"]          # ports are quoted per direction
    with pytest.raises(TypeError, match="MemoryTier or Link"):
        ladder_entry(catalog.gpu("H100 SXM"))


def test_ladder_plot_is_log_scale_with_units():
    entries = [ladder_entry(catalog.hbm_tier("H100 SXM")), ladder_entry(catalog.link("NVLink 4")),
               ladder_entry(catalog.link("PCIe Gen5 x16")), ladder_entry(catalog.link("InfiniBand NDR"))]
    ax = bandwidth_ladder_plot(entries)
    assert ax.get_xscale() == "log" and "[GB/s]" in ax.get_xlabel()
    assert [t.get_text() for t in ax.get_yticklabels()][0] == "HBM (H100 SXM)"
    assert any(t.get_text().startswith("÷") for t in ax.texts)
    with pytest.raises(ValueError, match="at least one entry"):
        bandwidth_ladder_plot([])
