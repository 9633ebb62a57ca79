"""Slider to updated output in a real JupyterLab, as a reader feels it.

Starts JupyterLab on 127.0.0.1 (the browser tests' harness), opens every
notebook in book/ in headless Chromium, runs all cells, then moves every
slider with the keyboard, alternately right and left, and times each key
press to the moment both the panel's text and its figure have changed in the
page. Budget: 150 ms (1 s for the sliders of simulator panels, which update
when released: ``continuous_update=False``). Also reports how long a notebook takes to open with a
ready kernel and to run all its cells in JupyterLab.

Usage: ``python benchmarks/bench_jupyterlab.py``
"""

from __future__ import annotations

import statistics
import sys
import tempfile
from pathlib import Path

import benchlib

sys.path.insert(0, str(benchlib.ROOT / "tests" / "browser"))

import support  # noqa: E402

BUDGET_MS = 150
RELEASE_BUDGET_MS = 1000  # sliders of simulator panels (continuous_update=False): "well within a second"


def main() -> int:
    from playwright.sync_api import sync_playwright

    moves_per_slider = 4 if benchlib.quick() else 12
    every_move, every_release_move, opened, ran = [], [], [], []
    with tempfile.TemporaryDirectory() as tmp, support.jupyterlab_server(Path(tmp)) as lab, \
            sync_playwright() as playwright:
        browser = support.launch_chromium(playwright)
        for notebook in support.chapter_notebooks():
            name = notebook.relative_to(support.BOOK).as_posix()
            context = browser.new_context(viewport={"width": 1280, "height": 900})
            page = context.new_page()
            opened.append(support.open_notebook(page, lab, notebook))
            run = support.run_all(page)
            ran.append(run["seconds"])
            if run["errors"]:
                print(f"{name}: cells show errors, skipped: {run['errors'][:3]}")
                context.close()
                continue
            latencies = {False: [], True: []}     # by "updates on release"
            by_slider = {False: {}, True: {}}
            for slider in page.evaluate(support.JS_SLIDERS):
                if not slider["hasOutput"]:
                    continue
                first = support.move_slider(page, slider)  # right, or left at the maximum
                keys = [first.key, "ArrowLeft" if first.key == "ArrowRight" else "ArrowRight"]
                samples = [first.latency_ms]
                for i in range(1, moves_per_slider):
                    samples.append(support.move_slider(page, slider, keys[i % 2]).latency_ms)
                measured = [s for s in samples if s is not None]
                if len(measured) < len(samples):
                    print(f"{name}: slider '{slider['label']}': {len(samples) - len(measured)} moves "
                          "changed nothing (see the browser tests)")
                by_slider[slider["onRelease"]][slider["label"]] = measured
                latencies[slider["onRelease"]] += measured
            support.shutdown_kernel(page)
            context.close()
            for on_release, measured in latencies.items():
                if not measured:
                    continue
                sliders = by_slider[on_release]
                slowest = max(sliders, key=lambda label: statistics.median(sliders[label] or [0]))
                kind = " (sliders that update on release)" if on_release else ""
                benchlib.record("jupyterlab", f"{name}: slider to updated output{kind}",
                                samples_s=[ms / 1e3 for ms in measured],
                                budget_ms=RELEASE_BUDGET_MS if on_release else BUDGET_MS,
                                note=f"{len(sliders)} sliders x {moves_per_slider} moves; slowest "
                                     f"'{slowest}' median {statistics.median(sliders[slowest]):.0f} ms")
                (every_release_move if on_release else every_move).extend(measured)
        browser.close()
    if every_move:
        benchlib.record("jupyterlab", "all notebooks: slider to updated output",
                        samples_s=[ms / 1e3 for ms in every_move], budget_ms=BUDGET_MS,
                        note=f"{len(every_move)} key presses")
    if every_release_move:
        benchlib.record("jupyterlab", "all notebooks: slider to updated output (sliders that update on release)",
                        samples_s=[ms / 1e3 for ms in every_release_move], budget_ms=RELEASE_BUDGET_MS,
                        note=f"{len(every_release_move)} key presses")
    if opened:
        benchlib.record("jupyterlab", "open a notebook until its kernel is connected and idle", samples_s=opened)
        benchlib.record("jupyterlab", "Run > Run All Cells", samples_s=ran)
    return 0


if __name__ == "__main__":
    sys.exit(main())
