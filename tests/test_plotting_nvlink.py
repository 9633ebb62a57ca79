"""Chapter 2 figures and tables: built from model results, units on the axes, no global state touched."""

import matplotlib as mpl
import pytest

from interconnect_lab import catalog, topology
from interconnect_lab import training as tr
from interconnect_lab import units as u
from interconnect_lab.plotting.catalog import bandwidth_ladder_plot, ladder_entry
from interconnect_lab.plotting.topology import nvlink_domain_plot
from interconnect_lab.plotting.training import tensor_parallel_plot
from interconnect_lab.plotting.tables import Table


def test_domain_diagram_draws_every_gpu_chip_pair():
    before = dict(mpl.rcParams)
    dgx = topology.nvlink_domain("DGX H100")
    ax = nvlink_domain_plot(dgx, switch_ports=catalog.switch("NVSwitch 3").ports)
    assert len(ax.lines) == dgx.gpus * dgx.switch_chips
    texts = [t.get_text() for t in ax.texts]
    assert texts.count("5") == 2 and texts.count("4") == 2           # the first GPU's 5+5+4+4 links
    assert "40 of 64 ports" in texts and "32 of 64 ports" in texts
    assert "144 links" in ax.get_title(loc="left")
    assert dict(mpl.rcParams) == before
    nvl72 = nvlink_domain_plot(topology.nvlink_domain("GB200 NVL72"), switch_ports=72)
    assert "1296 links" in nvl72.get_title(loc="left")


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


def test_tensor_parallel_plot_marks_the_chosen_degree_and_the_network():
    scan = tr.tensor_parallel_scan("GPT-3 175B", tr.system_cluster("DGX H100"), max_tensor_parallel=32)
    left, right = tensor_parallel_plot(scan, selected=8)
    assert left.get_yscale() == "log" and "[ms]" in left.get_ylabel() and "[%]" in right.get_ylabel()
    assert "[GPUs]" in left.get_xlabel()
    assert len(left.lines) == 4 and len(right.lines) == 2            # two curves + two rings; curve + ring
    assert left.patches or left.collections                          # the shaded network region
    with pytest.raises(ValueError, match="at least two degrees"):
        tensor_parallel_plot(tr.tensor_parallel_scan("GPT-3 175B", "Selene", degrees=[8]))


def test_table_renders_as_markdown_and_as_text():
    table = Table(["link", "per GPU [GB/s]"], [["NVLink 4", "450"], ["NVLink 5", "900"]])
    assert table._repr_markdown_().splitlines()[1] == "|:---|---:|"
    assert table._repr_html_().startswith('<table class="table"><thead><tr><th style="text-align: left">link</th>')
    assert "<td style=\"text-align: right\">900</td>" in table._repr_html_()
    assert repr(table).splitlines()[2] == "NVLink 4             450"
    with pytest.raises(ValueError, match="row 0 has 1 cells"):
        Table(["a", "b"], [["only one"]])
    with pytest.raises(ValueError, match="align"):
        Table(["a", "b"], [["x", "y"]], align="lc")
