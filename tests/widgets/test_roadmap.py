"""Tests of ``interconnect_lab.widgets.roadmap``: panel for :mod:`interconnect_lab.roadmap` (chapter
14): scale-up fabrics on one all-reduce.
"""

import pytest

pytest.importorskip("ipywidgets")

from interconnect_lab import roadmap, units as u


def test_scale_up_panel_shows_the_model():
    from interconnect_lab.widgets.roadmap import ScaleUpPanel
    panel = ScaleUpPanel()
    rows = roadmap.scale_up_comparison(256 * u.MB, 8, open_ports=8)
    assert [r.all_reduce_s for r in panel.result] == pytest.approx([r.all_reduce_s for r in rows])
    for control, value in (("message_bytes", 1 * u.GB), ("group", 72), ("open_ports", 16)):
        before = [r.all_reduce_s for r in panel.result]
        panel.controls[control].value = value
        assert [r.all_reduce_s for r in panel.result] != before
    assert "Fastest" in panel.readout.value
