"""``interconnect_lab.plotting.legibility``, and every figure of the book put through it.

Three parts: the checks on small figures whose faults are known; every panel the library offers
(enumerated from ``interconnect_lab.widgets``, so a new panel is covered without a line here), in
its initial state and with each control at either end of what the rendered book offers; and every
figure a chapter displays, caught as the notebook prints it (each chapter runs in a kernel with a
hook on matplotlib's ``print_figure``). The rendered book's side, at two widths and in both colour
schemes, is ``tests/browser/test_legibility.py``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("matplotlib")

import numpy as np
from matplotlib.lines import Line2D
from matplotlib.patches import Patch

from interconnect_lab.plotting import legibility
from interconnect_lab.plotting.style import new_figure

ROOT = Path(__file__).resolve().parents[2]


# --- The checks ---------------------------------------------------------------------------
def test_two_texts_on_one_spot_overlap_and_apart_they_do_not():
    figure, ax = new_figure(4.0, 3.0)
    ax.text(0.5, 0.5, "first label")
    ax.text(0.5, 0.5, "second label")
    ax.text(0.1, 0.1, "far away")
    problems = legibility.figure_problems(figure)
    assert problems == ["text 'first label' overlaps text 'second label'"]


def test_turned_labels_side_by_side_do_not_overlap_though_their_boxes_do():
    figure, ax = new_figure(4.0, 3.0)
    ax.set_xticks(range(8), [f"a long tick label {i}" for i in range(8)], rotation=40, ha="right")
    texts = [t for t in legibility.drawn_texts(figure) if t.kind == "tick" and t.corners]
    assert len(texts) == 8 and any(legibility._overlap(a.box, b.box) for a, b in zip(texts, texts[1:]))
    assert legibility.overlapping_texts(texts) == []
    ax.text(1, 0, "on top of a label", rotation=40, transform=ax.get_xaxis_transform(), ha="right", va="top")
    assert legibility.overlapping_texts(legibility.drawn_texts(figure))


def test_an_axis_label_in_the_plot_beside_it_is_found():
    figure, (left, right) = new_figure(4.0, 2.0, ncols=2)
    figure.set_layout_engine("none")   # constrained layout would make room
    left.set_position([0.15, 0.2, 0.4, 0.7])
    right.set_position([0.57, 0.2, 0.4, 0.7])
    right.set_ylabel("the right plot's label")
    assert "text \"the right plot's label\" runs into another plot" in legibility.figure_problems(figure)


def test_a_text_past_the_figure_edge_leaves_it():
    figure, ax = new_figure(3.0, 2.0)
    figure.set_layout_engine("none")
    ax.text(0.9, 0.5, "a label that runs off the right edge", transform=ax.transAxes, clip_on=False)
    outside = legibility.texts_outside(figure, legibility.drawn_texts(figure))
    assert ("a label that runs off the right edge", "leaves the figure") in [(t.text, why) for t, why in outside]


def test_a_clipped_text_outside_its_axes_draws_nothing():
    figure, ax = new_figure(3.0, 2.0)
    ax.set_xlim(0, 1)
    ax.text(5.0, 0.5, "out of view", clip_on=True)
    assert "out of view" not in [t.text for t in legibility.drawn_texts(figure)]


def test_legend_entries_for_hidden_empty_or_zero_artists_name_nothing_drawn():
    figure, ax = new_figure(3.0, 2.0)
    ax.plot([0, 1], [0, 1], label="drawn")
    ax.plot([0, 1], [1, 0], label="hidden", visible=False)
    ax.plot([0, 1], [np.nan, np.nan], label="no data")
    ax.barh([0], [0.0], label="zero bar")
    ax.set_xlim(0, 1)
    ax.legend()
    assert legibility.undrawn_legend_entries(figure) == ["hidden", "no data", "zero bar"]


def test_stand_in_handles_match_what_is_drawn_by_colour_or_by_shape():
    figure, ax = new_figure(3.0, 2.0)
    ax.barh([0], [1.0], color="#0072B2")
    ax.axvspan(0.2, 0.4, color="#009E73", alpha=0.3)
    ax.plot([0.5], [0], marker="D", color="#D55E00", linestyle="none")
    ax.legend(handles=[Patch(color="#0072B2", label="bar"), Line2D([], [], color="#009E73", label="band"),
                       Line2D([], [], marker="D", color="grey", linestyle="none", label="a diamond"),
                       Patch(color="#CC79A7", label="not drawn")])
    assert legibility.undrawn_legend_entries(figure) == ["not drawn"]


def test_entries_of_one_legend_that_look_the_same_are_ambiguous():
    figure, ax = new_figure(3.0, 2.0)
    ax.plot([0, 1], [0, 1], color="#0072B2", label="one thing")
    ax.plot([0, 1], [1, 0], color="#0072B2", label="another")
    ax.legend()
    assert legibility.ambiguous_legend_entries(figure) == [("one thing", "another")]


# --- Every panel --------------------------------------------------------------------------
def panel_classes():
    pytest.importorskip("ipywidgets")
    import importlib
    import inspect
    import pkgutil

    from interconnect_lab import widgets
    from interconnect_lab._deprecation import MOVED_MODULES
    from interconnect_lab.widgets import Panel

    found = {}
    for info in pkgutil.iter_modules(widgets.__path__):
        if f"{widgets.__name__}.{info.name}" in MOVED_MODULES:
            continue
        module = importlib.import_module(f"{widgets.__name__}.{info.name}")
        found.update({name: obj for name, obj in vars(module).items()
                      if inspect.isclass(obj) and issubclass(obj, Panel) and obj is not Panel
                      and obj.__module__ == module.__name__ and not name.startswith("_")})
    return found


def panel_states(panel):
    """The panel's initial values, then each offered control at either end of the book's grid."""
    from interconnect_lab.widgets import static

    initial = panel.values()
    yield "as it starts", initial
    for control in static.grid(panel):
        for end in {0, len(control.values) - 1} - {control.index}:
            yield f"{control.label} = {control.labels[end]}", dict(initial, **{control.name: control.values[end]})


@pytest.mark.parametrize("name", sorted(panel_classes()))
def test_every_panels_figure_reads_at_the_ends_of_its_controls(name):
    panel = panel_classes()[name]()
    problems = []
    for state, values in panel_states(panel):
        try:
            result = panel.compute(**values)
        except (ValueError, TypeError):
            continue   # refused: the figure keeps its last state
        panel._redraw_figure(result)
        panel._background = None   # draw everything, as a first render does
        problems += [f"{name} ({state}): {p}" for p in legibility.figure_problems(panel.figure, draw=panel._render)]
    assert not problems, "\n".join(dict.fromkeys(problems))


# --- Every figure a chapter displays --------------------------------------------------------
# Run first in the notebook's kernel: every figure matplotlib prints (the inline backend's PNG of a
# displayed figure) is checked before it is printed; the last cell reports what was found.
AUDIT = '''
import matplotlib.backend_bases as _il_backend_bases
from interconnect_lab.plotting import legibility as _il_legibility

_il_found, _il_busy = [], []
_il_print_figure = _il_backend_bases.FigureCanvasBase.print_figure


def _il_audited(self, *args, **kwargs):
    if not _il_busy:   # figure_problems draws the figure, which prints it once more
        _il_busy.append(True)
        try:
            figure = self.figure
            source = [line for line in get_ipython().user_ns["In"][-1].splitlines() if line.strip()]
            where = f"the figure of the cell {source[0][:60]!r}" if source else "a figure"
            tight = kwargs.get("bbox_inches") == "tight"   # the inline backend's: the image grows to fit
            _il_found.extend(f"{where}: {p}" for p in _il_legibility.figure_problems(figure, saved_tight=tight))
        finally:
            _il_busy.clear()
    return _il_print_figure(self, *args, **kwargs)


_il_backend_bases.FigureCanvasBase.print_figure = _il_audited
'''
REPORT = "import json as _il_json\nprint('IL-LEGIBILITY ' + _il_json.dumps(_il_found))"

CHAPTERS = sorted(p for p in (ROOT / "book").rglob("*.ipynb")
                  if ".ipynb_checkpoints" not in p.parts and "practice" not in p.parts)


def figures_in(path: Path) -> int:
    import nbformat

    notebook = nbformat.read(path, as_version=4)
    return sum("image/png" in output.get("data", {}) for cell in notebook.cells if cell.cell_type == "code"
               for output in cell.get("outputs", []))


@pytest.mark.parametrize("notebook", [p for p in CHAPTERS if figures_in(p)],
                         ids=lambda p: p.relative_to(ROOT / "book").as_posix())
def test_every_figure_a_chapter_displays_reads(notebook):
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    book = nbformat.read(notebook, as_version=4)
    book.cells.insert(0, nbformat.v4.new_code_cell(AUDIT))
    book.cells.append(nbformat.v4.new_code_cell(REPORT))
    # A cell that raises is nbval's business (it runs every notebook); here the figures after it count.
    client = nbclient.NotebookClient(book, timeout=300, kernel_name="python3", allow_errors=True,
                                     resources={"metadata": {"path": str(notebook.parent)}})
    client.execute()
    lines = [output.get("text", "") for output in book.cells[-1].get("outputs", [])]
    report = next(line for text in lines for line in text.splitlines() if line.startswith("IL-LEGIBILITY "))
    problems = json.loads(report.removeprefix("IL-LEGIBILITY "))
    assert not problems, f"{notebook.name}:\n" + "\n".join(problems)
