"""Tests of ``interconnect_lab.plotting.tables``: tables for the book: rendered as an HTML table in the
book, as aligned text everywhere else.
"""

import pytest

pytest.importorskip("matplotlib")

from interconnect_lab.plotting.tables import Table


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
