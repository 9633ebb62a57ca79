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


def test_table_groups_rows_and_links_cells():
    table = Table(["run", "busbw [GB/s]"], [["A100", "178"], ["H100", "361"], ["B200", "377"]],
                  groups=["validation", "validation", "development"],
                  links=["https://example.org/a?x=1&y=2", "", "https://example.org/b"])
    text = repr(table).splitlines()
    assert text[2] == "[validation]" and text[5] == "[development]" and text[3].startswith("A100")
    page = table._repr_html_()
    assert page.count('class="il-table-group"') == 2 and 'colspan="2"' in page
    assert '<a href="https://example.org/a?x=1&amp;y=2">A100</a>' in page and ">H100</td>" in page
    markdown = table._repr_markdown_().splitlines()
    assert markdown[2] == "| **validation** |  |" and markdown[3].startswith("| [A100](https://example.org/a")
    with pytest.raises(ValueError, match="consecutive"):
        Table(["a"], [["x"], ["y"], ["z"]], groups=["1", "2", "1"])
    with pytest.raises(ValueError, match="links has 1 entries"):
        Table(["a"], [["x"], ["y"]], links=["u"])
    with pytest.raises(ValueError, match="link_column = 3"):
        Table(["a"], [["x"]], links=["u"], link_column=3)
