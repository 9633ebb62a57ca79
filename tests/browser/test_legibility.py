"""Figures that never collide, measured in the rendered book at a desktop and a phone width, light and dark.

For every page with precomputed panels, at 1366 and at 390 CSS pixels: each panel, in its initial
state and with each control at either end (the others where they start), is measured
(``legibility.problems``): no two texts of its figure overlap, no text is cut at the edge of
its plot, no two plots overlap, the values under a slider do not run into each other, no two entries
of one legend look alike and every text stands out from what it is written on. The initial state is
measured in both colour schemes; the controls' ends alternate between them (the layout is the same
in both, the colours are not), which halves the redraws. At 390 pixels a
figure of several plots shows them one under the other, each as wide as the figure. Every figure
image of the page is shown at no less than ``MIN_FIGURE_SCALE`` of its own width (its cell scrolls
sideways instead), so its labels stay readable.

matplotlib's side of the same question (the panels' figures as JupyterLab shows them, and every
figure a chapter draws) is ``tests/plotting/test_legibility.py``.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

import legibility
import support

sys.path.insert(0, str(support.ROOT / "tools" / "sphinxext"))
from book_style import MIN_FIGURE_SCALE  # noqa: E402

WIDTHS = (1366, 390)
#: Pages with precomputed panels: the chapters and the appendix on measuring a cluster.
PAGES = [d for d in support.toc_documents()
         if re.fullmatch(r"book/\d\d_\w+", d) or d == "book/appendices/measuring"]

JS_READY = """() => {
  const all = document.querySelectorAll('.il-static-panel');
  return document.readyState === 'complete'
      && document.querySelectorAll('.il-static-panel.il-sp-ready').length === all.length;
}"""

JS_PANELS = """() => Array.from(document.querySelectorAll('.il-static-panel')).map(root => {
  const data = window.ilStaticPanels.panels.find(p => p.root === root).data;
  return {id: root.id, panel: data.panel, plots: root.querySelectorAll('.il-sp-axes:not([hidden])').length,
          controls: data.controls.map(c => ({kind: c.kind, count: c.labels.length, index: c.index}))};
})"""

JS_FIGURES = """() => Array.from(document.querySelectorAll('.bd-content div.cell_output img')).map(img => ({
  name: (img.getAttribute('alt') || img.src).slice(0, 60), natural: img.naturalWidth,
  shown: img.getBoundingClientRect().width}))"""

JS_RENDERS = "(id) => Number(document.getElementById(id).dataset.renders)"


def set_control(page, panel_id, index, kind, position):
    """Put control ``index`` of the panel at ``position`` as a reader would (Home/End on a slider)."""
    element = page.locator(f"#{panel_id} [data-control='{index}']")
    if kind == "select":
        element.select_option(str(position))
    elif kind == "check":
        if element.is_checked() != bool(position):
            element.focus()
            page.keyboard.press("Space")
    else:
        element.focus()
        current = int(element.input_value())
        key = "ArrowRight" if position > current else "ArrowLeft"
        for _ in range(abs(position - current)):
            page.keyboard.press(key)


def wait_for_render(page, panel_id, renders):
    page.wait_for_function(f"() => Number(document.getElementById('{panel_id}').dataset.renders) > {renders}",
                           timeout=10_000)


def measure(page, panel_id, where, schemes=("light", "dark")) -> list[str]:
    """Problems of one panel as drawn now, in each of ``schemes`` in turn."""
    found = []
    for scheme in schemes:
        if page.evaluate("() => document.documentElement.dataset.theme") != scheme:
            renders = page.evaluate(JS_RENDERS, panel_id)
            page.evaluate(f"document.documentElement.dataset.theme = '{scheme}'")   # every panel redraws
            wait_for_render(page, panel_id, renders)
        found += legibility.problems(page.evaluate(legibility.JS_MEASURE, panel_id), f"{where}, {scheme}")
    return found


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("document", PAGES)
def test_figures_read_at_every_width_in_both_schemes(document, width, book_url, browser):
    context = browser.new_context(viewport={"width": width, "height": 900})
    context.add_init_script(legibility.RECORD_TEXT)
    page = context.new_page()
    log = support.PageLog()
    support.watch(page, log)
    try:
        page.goto(f"{book_url}{document}.html", wait_until="load")
        page.wait_for_function(JS_READY, timeout=30_000, polling=100)
        problems = []
        for panel in page.evaluate(JS_PANELS):
            pid, name = panel["id"], panel["panel"]
            where = f"{document} at {width} px: {name}"
            if width < 600 and panel["plots"] > 1:
                shape = page.evaluate(legibility.JS_MEASURE, pid)
                figure_width = shape["figure"]["x1"] - shape["figure"]["x0"]
                if not shape["stacked"] or any(c["box"]["x1"] - c["box"]["x0"] < 0.9 * figure_width
                                               for c in shape["charts"]):
                    problems.append(f"{where}: its {panel['plots']} plots are not stacked full width")
            problems += measure(page, pid, f"{where} (as it starts)")
            scheme = 0
            for index, control in enumerate(panel["controls"]):
                ends = sorted({0, control["count"] - 1} - {control["index"]})
                for position in [*ends, control["index"]] if ends else []:   # each end, then back
                    renders = page.evaluate(JS_RENDERS, pid)
                    set_control(page, pid, index, control["kind"], position)
                    wait_for_render(page, pid, renders)
                    if position != control["index"]:
                        scheme = 1 - scheme
                        problems += measure(page, pid, f"{where} (control {index + 1} at position {position})",
                                            (("light", "dark")[scheme],))
        for figure in page.evaluate(JS_FIGURES):
            if figure["natural"] and figure["shown"] < MIN_FIGURE_SCALE * figure["natural"] - 1:
                problems.append(f"{document} at {width} px: figure {figure['name']!r} is shown "
                                f"{figure['shown']:.0f} px wide, under {MIN_FIGURE_SCALE:.0%} of its "
                                f"{figure['natural']} px")
        problems += log.problems()
        assert not problems, "\n  ".join(dict.fromkeys(problems))
    finally:
        context.close()
