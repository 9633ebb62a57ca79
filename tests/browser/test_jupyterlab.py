"""Every chapter notebook in a real JupyterLab, driven as a reader drives it.

One JupyterLab server (on 127.0.0.1, serving a copy of book/) for all
notebooks. For each: open it, wait until its kernel is connected and idle,
clear the outputs, Run > Run All Cells, check that every cell ran and none
shows an error, then move every slider one step with the keyboard and check
that the output depending on it, text and figure, changes.
"""

from __future__ import annotations

import pytest

import support

# Practice pages have no panels (nbval runs them); the chapters and notebook appendices do.
NOTEBOOKS = [p for p in support.chapter_notebooks() if "practice" not in p.relative_to(support.BOOK).parts]


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=lambda p: p.relative_to(support.BOOK).as_posix())
def test_notebook_runs_and_every_slider_changes_its_output(notebook, lab, page, page_log):
    support.open_notebook(page, lab, notebook)
    run = support.run_all(page)
    assert not run["errors"], f"{notebook.name}: cells show errors:\n  " + "\n  ".join(run["errors"])
    assert run["executed"] == run["cells"], f"{notebook.name}: only {run['executed']} of {run['cells']} cells ran"

    problems = []
    for slider in page.evaluate(support.JS_SLIDERS):
        name = f"slider '{slider['label']}'"
        if not slider["hasOutput"]:
            problems.append(f"{name}: no output widget depends on it")
            continue
        move = support.move_slider(page, slider)
        if move.value_after == move.value_before:
            problems.append(f"{name}: {move.key} did not move it (still {move.value_before})")
        elif not (move.has_text and move.has_figure):
            problems.append(f"{name}: its panel shows no {'text' if not move.has_text else 'figure'}")
        elif move.latency_ms is None:
            problems.append(f"{name}: moved {move.value_before} -> {move.value_after} but its text and "
                            "figure did not both change")
        elif not move.figures_ok:
            problems.append(f"{name}: after moving it, its figure does not load or has no size")
    after = page.evaluate(support.JS_RUN_STATE)
    problems += [f"after moving the sliders: {e}" for e in after["errors"]]
    problems += page_log.problems()
    assert not problems, f"{notebook.name}:\n  " + "\n  ".join(problems)
