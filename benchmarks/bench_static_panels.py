"""The rendered book's precomputed panels in Chromium: input event to redrawn figure, and bytes per page.

Serves a built book (``$BOOK_BUILD_DIR/_build/html``, else ``_build/html``) on
127.0.0.1, opens every chapter page in headless Chromium and moves every
slider of every precomputed panel with the keyboard, alternately right and
left. Each key press is timed from the input event's timestamp to the end of
the next animation frame after the renderer has redrawn (the renderer records
the event time and its redraw in ``window.ilStaticPanels.timings``). Budget:
50 ms median, as for a live panel.

Bytes each page adds: the panels' HTML and data in the page, plus the
renderer and Chart.js (loaded only on pages with a panel, the same cached files
on every page); and each chapter page's total weight (HTML and every
same-origin file it loads), which must stay under 5 MB.

Usage: ``python benchmarks/bench_static_panels.py`` (build the book first).
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import benchlib

sys.path.insert(0, str(benchlib.ROOT / "tests" / "browser"))

import support  # noqa: E402

BUDGET_MS = 50
PAGE_LIMIT_BYTES = 5_000_000

JS_PANELS = """() => Array.from(document.querySelectorAll('.il-static-panel')).map(root => ({
  id: root.id, panel: root.dataset.panel, bytes: new Blob([root.outerHTML]).size,
  ranges: Array.from(root.querySelectorAll("input[type=range]")).map(i => ({
      index: i.dataset.control, max: Number(i.max), value: Number(i.value)}))}))"""

# Armed before a key press: window.__ilNextDraw resolves with (input event -> redrawn, -> next frame) [ms].
JS_ARM = """() => { window.__ilNextDraw = new Promise(resolve => {
  const timings = window.ilStaticPanels.timings, seen = timings.length;
  const poll = () => {
    if (timings.length > seen) {
      const t = timings[timings.length - 1];
      requestAnimationFrame(() => setTimeout(() => resolve({draw: t.drawn - t.started,
                                                              frame: performance.now() - t.started}), 0));
    } else { requestAnimationFrame(poll); }
  };
  poll();
}); }"""


def book_html() -> Path | None:
    root = Path(os.environ.get("BOOK_BUILD_DIR", benchlib.ROOT))
    html = root / "_build" / "html"
    return html if (html / "index.html").exists() else None


def main() -> int:
    from playwright.sync_api import sync_playwright

    html = book_html()
    if html is None:
        print("no built book (set BOOK_BUILD_DIR or run jupyter-book build .): nothing measured")
        return 0
    moves = 6 if benchlib.quick() else 16
    every = []
    chapters = [p for p in support.chapter_notebooks() if re.match(r"\d\d_", p.name)]
    assets = sum((html / "_static" / name).stat().st_size
                 for name in ("chartjs/chart.umd.min.js", "static-panels.js", "static-panels.css"))
    with support.static_server(html) as url, sync_playwright() as playwright:
        browser = support.launch_chromium(playwright)
        for notebook in chapters:
            document = f"book/{notebook.stem}.html"
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            loaded = []
            page.on("response", lambda r: loaded.append(r))
            page.goto(url + document, wait_until="networkidle")
            total = 0
            for response in loaded:
                if support.is_local(response.url) and not response.url.startswith("data:"):
                    try:
                        total += len(response.body())
                    except Exception:
                        pass
            found = page.evaluate(JS_PANELS)
            added = sum(p["bytes"] for p in found)
            benchlib.record("static panels", f"{notebook.stem}: page weight", value=total / 1e6, unit="MB",
                            budget=PAGE_LIMIT_BYTES / 1e6,
                            note=f"{len(found)} precomputed panel(s) add {added / 1e3:,.0f} kB of HTML and data"
                                 + (f" + {assets / 1e3:,.0f} kB renderer and Chart.js (cached)" if found else ""))
            for info in found:
                samples = []
                for control in info["ranges"]:
                    selector = f"#{info['id']} [data-control='{control['index']}']"
                    page.locator(selector).scroll_into_view_if_needed()
                    page.focus(selector)
                    value = control["value"]
                    direction = 1 if value < control["max"] else -1
                    for _ in range(moves):
                        if not 0 <= value + direction <= control["max"]:
                            direction = -direction
                        value += direction
                        page.evaluate(JS_ARM)
                        page.keyboard.press("ArrowRight" if direction > 0 else "ArrowLeft")
                        samples.append(page.evaluate("() => window.__ilNextDraw")["frame"] / 1e3)
                if samples:
                    every += samples
                    benchlib.record("static panels", f"{notebook.stem}: {info['panel']}: key to redrawn figure",
                                    samples_s=samples, budget_ms=BUDGET_MS,
                                    note=f"{len(info['ranges'])} slider(s) x {moves} presses; "
                                         f"{info['bytes'] / 1e3:,.0f} kB in the page")
            page.close()
        browser.close()
    if every:
        benchlib.record("static panels", "all pages: key to redrawn figure", samples_s=every, budget_ms=BUDGET_MS,
                        note=f"{len(every)} key presses, Chromium headless, no kernel")
    return 0


if __name__ == "__main__":
    sys.exit(main())
