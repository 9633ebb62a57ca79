"""The rendered book's precomputed panels (interconnect_lab/widgets/static.py).

The grid each control gets, the export (every combination's readout is the
panel's own describe(compute(...)) and its figure is read from matplotlib),
the HTML the page receives, the build-mode display, and that every chapter
has at least one panel the page can precompute.
"""

import html
import importlib
import importlib.util
import inspect
import itertools
import json
import math
import pkgutil
import re
from pathlib import Path

import pytest

pytest.importorskip("ipywidgets")

import ipywidgets as widgets
import nbformat

from interconnect_lab import widgets as panels
from interconnect_lab._deprecation import MOVED_MODULES
from interconnect_lab.plotting.style import styled
from interconnect_lab.widgets import Panel, static


ROOT = Path(__file__).resolve().parents[2]


class ToyPanel(Panel):
    """A panel small enough to check every combination by hand: y = a x + b, shown as a line and a bar."""

    def __init__(self, *, a=1.0, b="zero", double=False):
        self.controls = {
            "a": widgets.FloatSlider(value=a, min=0.5, max=2.0, step=0.5, description="slope a",
                                     readout_format=".1f"),
            "b": widgets.Dropdown(options=[("offset zero", "zero"), ("offset one", "one")], value=b,
                                  description="offset"),
            "double": widgets.Checkbox(value=double, description="double it"),
        }
        super().__init__(figure_size_in=(4.0, 3.0))

    def compute(self, *, a, b, double):
        return (2 if double else 1) * (a * 3.0 + {"zero": 0.0, "one": 1.0}[b])

    def describe(self, result):
        return f"<b>y(3) = {result:.2f}</b>"

    @styled
    def draw(self, result):
        self.axes.plot([0.0, 3.0], [result - 3.0, result], color="#0072B2", label="line")
        self.axes.barh([0], [result], color="#D55E00", label="bar")
        self.axes.text(result, 0, f"{result:.1f}")
        self.axes.set_xlim(-5, 20)
        self.axes.set_ylim(-6, 20)
        self.axes.set_xlabel("x [-]")
        self.axes.legend()


def values_of(controls, combination):
    return {c.name: c.values[i] for c, i in zip(controls, combination)}


def panel_classes():
    """Every public Panel subclass in every module of interconnect_lab.widgets, by name."""
    found = {}
    for info in pkgutil.iter_modules(panels.__path__):
        if f"{panels.__name__}.{info.name}" in MOVED_MODULES:   # deprecated aliases
            continue
        module = importlib.import_module(f"{panels.__name__}.{info.name}")
        found.update({name: obj for name, obj in vars(module).items()
                      if inspect.isclass(obj) and issubclass(obj, Panel) and obj is not Panel
                      and obj.__module__ == module.__name__ and not name.startswith("_")})
    return found


def chapter_panels():
    """(notebook, panel class names displayed in it), for book/NN_*.ipynb."""
    classes = panel_classes()
    found = []
    for path in sorted((ROOT / "book").glob("[0-9][0-9]_*.ipynb")):
        notebook = nbformat.read(path, as_version=4)
        names = [name for cell in notebook.cells if cell.cell_type == "code"
                 for name in re.findall(r"\b([A-Z]\w*Panel)\(", cell.source)
                 if name in classes]
        found.append((path.name, names))
    return found


# --- The grid ---------------------------------------------------------------------------
def test_environment_variable_matches_the_sphinx_extension():
    spec = importlib.util.spec_from_file_location("static_panels_ext", ROOT / "tools/sphinxext/static_panels.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.ENV == static.ENV


def test_each_kind_of_control_gets_its_values_and_labels():
    slider = static.control_grid("a", widgets.FloatSlider(value=0.25, min=0.0, max=1.0, step=0.25,
                                                          readout_format=".0%", description="share"))
    assert slider.kind == "range" and slider.values == (0.0, 0.25, 0.5, 0.75, 1.0)
    assert slider.labels == ("0%", "25%", "50%", "75%", "100%") and slider.index == 1 and slider.label == "share"
    dropdown = static.control_grid("d", widgets.Dropdown(options=[("one", 1), ("two", 2)], value=2))
    assert (dropdown.kind, dropdown.values, dropdown.labels, dropdown.index) == ("select", (1, 2), ("one", "two"), 1)
    selection = static.control_grid("s", widgets.SelectionSlider(options=[4, 8, 16], value=4))
    assert (selection.kind, selection.values, selection.labels) == ("range", (4, 8, 16), ("4", "8", "16"))
    check = static.control_grid("c", widgets.Checkbox(value=True))
    assert (check.kind, check.values, check.index) == ("check", (False, True), 1)
    integers = static.control_grid("i", widgets.IntSlider(value=3, min=1, max=5))
    assert integers.values == (1, 2, 3, 4, 5) and all(isinstance(v, int) for v in integers.values)


def test_long_sliders_are_thinned_and_keep_their_initial_value():
    control = widgets.FloatSlider(value=0.37, min=0.0, max=1.0, step=0.01)
    grid = static.control_grid("x", control)
    assert len(grid.values) <= static.MAX_SLIDER_POSITIONS + 1
    assert grid.values[0] == 0.0 and grid.values[-1] == 1.0 and grid.values[grid.index] == pytest.approx(0.37)
    assert list(grid.values) == sorted(grid.values)


def test_declared_values_replace_steps_and_narrow_options_but_keep_the_initial_value():
    slider = static.control_grid("x", widgets.FloatSlider(value=0.3, min=0, max=1, step=0.1), declared=(0.0, 1.0))
    assert slider.values == (0.0, 0.3, 1.0) and slider.index == 1
    dropdown = static.control_grid("d", widgets.Dropdown(options=["a", "b", "c", "d"], value="c"), declared=("a",))
    assert dropdown.values == ("a", "c") and dropdown.index == 1


def test_a_control_the_page_cannot_show_is_reported_by_name():
    with pytest.raises(static.NotStatic, match="control 'notes' is a Textarea"):
        static.control_grid("notes", widgets.Textarea(value="x"))


def test_unknown_declared_control_names_the_valid_ones():
    panel = ToyPanel()
    panel.static_grid = {"slope": (1.0,)}
    with pytest.raises(ValueError, match=r"names \['slope'\].*valid: \['a', 'b', 'double'\]"):
        static.grid(panel)


def test_too_many_combinations_stop_the_build_and_say_what_to_declare(monkeypatch):
    panel = ToyPanel()
    monkeypatch.setattr(static, "MAX_COMBINATIONS", 10)
    with pytest.raises(static.NotStatic, match="ToyPanel's controls make 16 combinations, more than the 10.*"
                                               "static_controls"):
        static.grid(panel)
    panel.static_controls = ("a", "double")   # its static variant: 4 x 2 combinations
    assert [c.name for c in static.grid(panel)] == ["a", "double"]


def test_a_panel_that_asks_for_a_still_is_told_to_declare_a_variant():
    panel = ToyPanel()
    panel.static_kernel_only = "it runs a simulator"
    with pytest.raises(static.NotStatic, match="no stills; declare static_controls"):
        panel.static_export()


def test_static_controls_name_controls_and_static_grid_only_offered_ones():
    panel = ToyPanel()
    panel.static_controls = ("slope",)
    with pytest.raises(ValueError, match=r"static_controls names \['slope'\].*\['a', 'b', 'double'\]"):
        static.grid(panel)
    panel.static_controls = ("a",)
    panel.static_grid = {"double": (True,)}
    with pytest.raises(ValueError, match=r"static_grid names \['double'\].*valid: \['a'\]"):
        static.grid(panel)


def test_a_static_variant_holds_the_other_controls_at_their_values_and_names_them():
    panel = ToyPanel(b="one", double=True)
    panel.static_controls = ("a",)
    data = panel.static_export()
    controls = static.grid(panel)
    assert [c["name"] for c in data["controls"]] == ["a"] and len(data["readout"]) == 4
    for k, a in enumerate(controls[0].values):
        assert data["readouts"][data["readout"][k]] == panel.describe(panel.compute(a=a, b="one", double=True))
    assert data["fixed"] == [["offset", "offset one"], ["double it", "on"]]
    page = static.static_html(panel, data)
    note = re.search(r'<p class="il-sp-note">(.*?)</p>', page).group(1)
    assert note.startswith("Other settings as in the text (offset: offset one; double it: on); open the notebook")
    assert "ToyPanel" not in re.sub(r'data-panel="[^"]*"', "", page), "no class name where a reader reads"


def test_a_panel_note_and_an_empty_text_box():
    class Noted(ToyPanel):
        static_controls = ("a", "b", "double")

        def __init__(self):
            self.extra = widgets.Textarea(value="")   # a text box, offered only in the notebook
            super().__init__()
            self.controls["notes"] = self.extra

        def compute(self, *, notes="", **values):
            return super().compute(**values)

    panel = Noted()
    panel.static_note = "Pasting your own numbers needs the notebook."
    assert static.fixed_settings(panel) == []
    page = static.static_html(panel)
    assert "Every value here was computed when the page was built" in page
    assert "Pasting your own numbers needs the notebook." in page


def test_a_grid_too_slow_to_evaluate_stops_the_build(monkeypatch):
    monkeypatch.setattr(static, "TIME_BUDGET_S", -1.0)
    with pytest.raises(static.NotStatic, match="ToyPanel: evaluating its controls took more than"):
        ToyPanel().static_export()


# --- The export -------------------------------------------------------------------------
def test_every_combination_holds_the_panels_own_readout_and_figure():
    panel = ToyPanel()
    data = panel.static_export()
    controls = static.grid(panel)
    combinations = list(itertools.product(*(range(len(c.values)) for c in controls)))
    assert len(data["readout"]) == len(data["scene"]) == len(combinations) == 4 * 2 * 2
    for k, combination in enumerate(combinations):  # row-major: the last control varies fastest
        values = values_of(controls, combination)
        result = panel.compute(**values)
        assert data["readouts"][data["readout"][k]] == panel.describe(result)
        items = [data["items"][i] for i in data["scenes"][data["scene"][k]]]
        line = next(i for i in items if i["k"] == "line")
        assert line["xy"] == [0.0, pytest.approx(result - 3.0), 3.0, pytest.approx(result)]
        bar = next(i for i in items if i["k"] == "poly")
        assert bar["r"][0][0] == pytest.approx(0.0, abs=1e-9) and bar["r"][0][2] == pytest.approx(result)
        text = next(i for i in items if i["k"] == "text")
        assert text["s"] == f"{result:.1f}"
        axes = next(i for i in items if i["k"] == "axes")
        assert axes["xl"] == [-5.0, 20.0] and axes["xlab"] == "x [-]"
        assert [entry[0] for entry in axes["legend"]] == ["line", "bar"]
        assert ["0", "10", "20"] == [label for value, label in axes["yt"] if value in (0, 10, 20)]
    # Unchanging parts are stored once: one axes frame for all 16 combinations.
    assert sum(1 for item in data["items"] if item["k"] == "axes") == 1
    # The export leaves the live panel as it was.
    assert panel.result == panel.compute(**panel.values())


def test_a_refused_combination_shows_the_live_panels_message_and_keeps_the_figure():
    from interconnect_lab.widgets.static import error_html

    class Refusing(ToyPanel):
        def compute(self, *, a, b, double):
            if a == 2.0 and double:
                raise ValueError("a = 2.0 with double is out of range [-]")
            return super().compute(a=a, b=b, double=double)

    panel = Refusing()
    data = panel.static_export()
    controls = static.grid(panel)
    for k, combination in enumerate(itertools.product(*(range(len(c.values)) for c in controls))):
        values = values_of(controls, combination)
        refused = values["a"] == 2.0 and values["double"]
        assert (data["scene"][k] == -1) == refused
        if refused:
            assert data["readouts"][data["readout"][k]] == error_html(
                ValueError("a = 2.0 with double is out of range [-]"))


def test_scene_reads_log_axes_in_data_coordinates():
    panel = ToyPanel()
    ax = panel.axes
    ax.clear()
    ax.set_xscale("log")
    ax.set_xlim(1, 1e6)
    ax.axvspan(10, 1e4, color="grey")
    ax.plot([1e2, 1e3], [1, 2])
    items = static.figure_scene(panel.figure, panel._canvas.get_renderer())
    span = next(i for i in items if i["k"] == "poly")
    assert span["r"][0][0] == pytest.approx(10, rel=1e-4) and span["r"][0][2] == pytest.approx(1e4, rel=1e-4)
    axes = next(i for i in items if i["k"] == "axes")
    assert axes["xs"] == "log" and ("10³", "10⁶") == tuple(l for v, l in axes["xt"] if v in (1e3, 1e6))


def test_scene_keeps_hatches_of_bars_collections_and_legend_entries():
    # The interleaved pipeline schedule tells its model chunks apart by hatching alone.
    from interconnect_lab.widgets.training import PipelineSchedulePanel

    panel = PipelineSchedulePanel(pipeline_parallel=4, microbatches=8, interleave=2)
    items = static.figure_scene(panel.figure, panel._canvas.get_renderer())
    hatched = [i for i in items if i["k"] == "poly" and i.get("h")]
    assert hatched and all(i["h"] == "///" for i in hatched)
    assert any(i["k"] == "poly" and not i.get("h") for i in items)       # the first chunk stays plain
    legend = next(i for i in items if i["k"] == "axes")["legend"]
    assert any(len(e) == 4 and e[3] == "///" for e in legend)
    plain = PipelineSchedulePanel(pipeline_parallel=4, microbatches=8, interleave=1)
    items = static.figure_scene(plain.figure, plain._canvas.get_renderer())
    assert not any(i.get("h") for i in items if i["k"] == "poly")


def test_legend_entries_keep_the_marker_shape():
    # Chapter 6's routing panel keys its median with a dot and its 99th percentile with a
    # diamond, both grey: the page's swatches must tell them apart by shape.
    import matplotlib.pyplot as plt
    from matplotlib.lines import Line2D

    figure, ax = plt.subplots()
    grey = {"color": "grey", "linestyle": "none"}
    ax.legend(handles=[Line2D([], [], marker="o", label="p50", **grey), Line2D([], [], marker="D", label="p99", **grey),
                       Line2D([], [], marker="s", label="square", **grey),
                       Line2D([], [], linestyle="--", color="grey", label="dashed")])
    entries = static._legend_entries(ax.get_legend())
    plt.close(figure)
    assert [entry[1] for entry in entries] == ["marker", "diamond", "square", "dash"]


def test_real_panel_export_matches_the_library_for_every_combination():
    panel = panels.NVLinkDomainPanel()
    data = panel.static_export()
    controls = static.grid(panel)
    for k, combination in enumerate(itertools.product(*(range(len(c.values)) for c in controls))):
        expected = panel.describe(panel.compute(**values_of(controls, combination)))
        assert data["readouts"][data["readout"][k]] == expected
    assert len(set(data["scene"])) > 10, "the figure must change with the controls"


# --- The page -----------------------------------------------------------------------------
def test_html_labels_every_control_and_announces_the_readout():
    panel = ToyPanel(a=1.5)
    page = static.static_html(panel)
    ids = re.findall(r'<(?:input|select) [^>]*id="([^"]+)"', page)
    assert len(ids) == 3
    for cid in ids:
        assert f'<label for="{cid}">' in page
    assert 'aria-live="polite"' in page and 'role="status"' in page
    assert html.escape(panel.describe(panel.compute(**panel.values()))) not in page  # raw HTML, not escaped
    assert panel.describe(panel.compute(**panel.values())) in page  # the initial readout, without script
    assert 'value="2"' in page and 'max="3"' in page and 'aria-valuetext="1.5"' in page
    payload = re.search(r'<script type="application/octet-stream" class="il-sp-data" '
                        r'data-encoding="gzip\+base64">([A-Za-z0-9+/=]*)</script>', page).group(1)
    data = static.decode_data(payload)
    again = static.export(panel)
    assert {k: v for k, v in data.items() if k != "seconds"} == {k: v for k, v in again.items() if k != "seconds"}
    assert len(payload) < len(json.dumps(data)) / 3, "stored compressed"
    assert static.encode_data(json.dumps(data)) == static.encode_data(json.dumps(data)), "deterministic"
    assert data["panel"] == "ToyPanel" and [c["name"] for c in data["controls"]] == ["a", "b", "double"]


def test_build_mode_displays_the_precomputed_panel_never_a_still(monkeypatch):
    shown = []
    monkeypatch.setattr("interconnect_lab.widgets.panel.display", lambda obj, raw=False: shown.append(obj))
    panel = ToyPanel()
    panel._ipython_display_()
    assert shown == [panel.widget]  # in a kernel: the live widget
    monkeypatch.setenv(static.ENV, "1")
    shown.clear()
    panel._ipython_display_()
    assert len(shown) == 1 and 'class="il-static-panel"' in shown[0]["text/html"]
    assert "application/vnd.jupyter.widget-view+json" not in shown[0]
    assert "<img" not in shown[0]["text/html"]
    monkeypatch.setattr(static, "MAX_COMBINATIONS", 10)
    with pytest.raises(static.NotStatic, match="static_controls"):   # the build stops: no still
        panel._ipython_display_()


@pytest.mark.parametrize("notebook, names", chapter_panels(), ids=[n for n, _ in chapter_panels()])
def test_every_chapter_displays_a_panel(notebook, names):
    assert names, f"{notebook} displays no panel"


@pytest.mark.parametrize("name", sorted(panel_classes()))
def test_every_panel_moves_in_the_rendered_book(name):
    # Every panel class the library offers, as built by default: the page can hold its grid (or
    # its static variant's), so no chapter ever shows a still. A new panel is covered by
    # being in interconnect_lab.widgets.
    panel = panel_classes()[name]()
    controls = static.grid(panel)
    assert math.prod(len(c.values) for c in controls) <= static.MAX_COMBINATIONS
    assert any(len(c.values) > 1 for c in controls), f"{name}: no control the reader can move"
    for label, value in static.fixed_settings(panel):
        assert "_" not in label and value.strip(), f"{name}: fixed setting {label!r} = {value!r} is not in words"


def test_pages_without_widget_views_drop_the_widget_scripts_and_state():
    spec = importlib.util.spec_from_file_location("static_panels_ext", ROOT / "tools/sphinxext/static_panels.py")
    extension = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(extension)

    class Script:
        def __init__(self, filename, **attributes):
            self.filename, self.attributes = filename, attributes

    class App:
        class config:
            nb_ipywidgets_js = {"requirejs/require.js": {}, "jupyter-widgets/embed-amd.js": {}}

        def __init__(self):
            self.added = []

        def add_js_file(self, name, **kwargs):
            self.added.append(name)

        def add_css_file(self, name):
            self.added.append(name)

    def page(body):
        scripts = [Script("_static/doctools.js"), Script(None, type=extension.WIDGET_STATE),
                   Script("_static/requirejs/require.js"), Script("_static/jupyter-widgets/embed-amd.js")]
        app, context = App(), {"body": body, "script_files": scripts}
        extension.add_assets(app, "page", "page.html", context, None)
        return app.added, [s.filename for s in context["script_files"]]

    added, kept = page('<div class="il-static-panel">')
    assert kept == ["_static/doctools.js"] and extension.CHART_JS in added and "static-panels.js" in added
    added, kept = page(f'<div class="il-static-panel"></div><script type="{extension.WIDGET_VIEW}">')
    assert len(kept) == 4 and extension.CHART_JS in added  # a live widget is still on the page
    added, kept = page("<p>no panel</p>")
    assert added == [] and len(kept) == 4


def test_unevenly_stepped_sliders_show_their_values_under_the_track():
    import ipywidgets as widgets

    uneven = static.control_grid("gpus", widgets.SelectionSlider(options=[1_024, 4_096, 16_384, 100_000], value=4_096))
    even = static.control_grid("share", widgets.FloatSlider(value=0.5, min=0, max=1, step=0.25))
    assert uneven.as_json()["uneven"] and not even.as_json()["uneven"]
    page = static._control_html("p", 0, uneven, uneven=True)
    ticks = re.findall(r'<span class="il-sp-tick[^"]*" style="--il-sp-at: ([\d.]+)">([^<]*)</span>', page)
    assert [float(at) for at, _ in ticks] == pytest.approx([0, 1 / 3, 2 / 3, 1], abs=1e-4)
    assert [text for _, text in ticks] == ["1024", "4096", "16384", "100000"]
    assert "il-sp-ticks" not in static._control_html("p", 1, even, uneven=False)
    many = static.control_grid("n", widgets.SelectionSlider(options=[2 ** k for k in range(12)], value=8))
    labels = [t for _, t in re.findall(r'style="--il-sp-at: ([\d.]+)">([^<]*)<', static._control_html("p", 2, many, True))]
    assert len(labels) == 12 and sum(bool(t) for t in labels) == static.MAX_TICK_LABELS
    assert labels[0] == "1" and labels[-1] == "2048"
