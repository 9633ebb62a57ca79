"""Tests of ``interconnect_lab.widgets.panel``: the pattern every interactive panel follows."""

import base64
import importlib
import inspect
import io
import pkgutil
import re
import time

import numpy as np
import pytest

pytest.importorskip("ipywidgets")

from PIL import Image

from interconnect_lab import widgets as panels
from interconnect_lab._deprecation import MOVED_MODULES
from interconnect_lab.widgets import Panel
from interconnect_lab._validation import NotPossible
from interconnect_lab.widgets.static import ERROR_CLASS, GENERIC_REFUSAL, error_html


def public_panels():
    """Every public Panel subclass in every module of interconnect_lab.widgets."""
    found = []
    for info in pkgutil.iter_modules(panels.__path__):
        if f"{panels.__name__}.{info.name}" in MOVED_MODULES:   # deprecated aliases
            continue
        module = importlib.import_module(f"{panels.__name__}.{info.name}")
        found += [obj for name, obj in vars(module).items()
                  if inspect.isclass(obj) and issubclass(obj, Panel) and obj is not Panel
                  and obj.__module__ == module.__name__ and not name.startswith("_")]
    return found


PANELS = public_panels()


def pixels(png):
    return np.asarray(Image.open(io.BytesIO(png)).convert("RGB")).astype(int)


def other_value(control):
    """A valid value of ``control`` different from its current one."""
    if hasattr(control, "options"):
        values = [v[1] if isinstance(v, tuple) else v for v in control.options]
        return next(v for v in values if v != control.value)
    if isinstance(control.value, bool):
        return not control.value
    if isinstance(control.value, str):
        return control.value      # free text (a pasted log): its own panel's tests try other texts
    step = control.step or (control.max - control.min) / 10
    return control.value + step if control.value + step <= control.max else control.value - step


def test_the_library_exports_panels():
    assert PANELS


@pytest.mark.parametrize("cls", PANELS, ids=lambda c: c.__name__)
def test_fast_redraw_shows_what_a_full_draw_shows(cls):
    panel = cls()
    for control in panel.controls.values():
        control.value = other_value(control)
    fast = panel.png()
    panel.redraw = lambda result: None  # the reference: cleared and drawn from scratch, no blitting
    panel.update()
    full = panel.png()
    a, b = pixels(fast), pixels(full)
    assert a.shape == b.shape
    differing = (np.abs(a - b).max(axis=-1) > 32).mean()
    # Redrawn artists go on top of the grid: a few pixels may differ, no more.
    assert differing < 0.005, f"{cls.__name__}: {differing:.2%} of the pixels differ from a full draw"


@pytest.mark.parametrize("cls", PANELS, ids=lambda c: c.__name__)
def test_output_widget_holds_the_current_figure(cls):
    panel = cls()
    for control in panel.controls.values():
        before = panel.png()
        control.value = other_value(control)
        (output,) = panel.output.outputs
        assert base64.b64decode(output["data"]["image/png"]) == panel.png()
        assert panel.png() is panel.png()  # cached until the figure changes
    assert before is not None


def test_png_follows_changes_made_outside_update():
    panel = PANELS[0]()
    before = panel.png()
    panel.figure.axes[0].set_xlabel("something else")
    assert panel.png() != before


def _ends(control):
    """The first and last valid value of a control (a dropdown's options, a slider's range)."""
    if hasattr(control, "options"):
        options = [o[1] if isinstance(o, tuple) else o for o in control.options]
        return [options[0], options[-1]]
    if isinstance(control.value, bool):
        return [False, True]
    if all(hasattr(control, a) for a in ("min", "max")) and not isinstance(control.value, tuple):
        return [control.min, control.max]
    return []


@pytest.fixture(scope="module")
def built():
    panels = {}
    for cls in PANELS:
        try:
            panels[cls] = cls()
        except TypeError:  # needs arguments: not a panel with defaults
            continue
    return panels


def test_there_are_panels():
    assert len(PANELS) > 10


@pytest.mark.parametrize("cls", PANELS, ids=lambda cls: cls.__name__)
def test_a_refused_combination_is_shown_in_the_readout(cls, built, monkeypatch):
    panel = built.get(cls)
    if panel is None:
        pytest.skip(f"{cls.__name__} needs arguments")
    before = panel.result

    def refuse(**values):
        raise ValueError("n_ranks = 3 is not valid: it must be a multiple of ranks_per_node = 8")

    monkeypatch.setattr(panel, "compute", refuse)
    panel.update()
    # A message written for programmers is not shown to a reader: the generic sentence is.
    assert ERROR_CLASS in panel.readout.value and GENERIC_REFUSAL in panel.readout.value
    assert "n_ranks" not in panel.readout.value
    assert panel.result is before  # the figure keeps the last accepted result

    def refuse_plainly(**values):
        raise NotPossible("n_ranks = 3 is not valid", plain="Three ranks do not fill 8-GPU nodes.")

    monkeypatch.setattr(panel, "compute", refuse_plainly)
    panel.update()
    assert "Not possible. Three ranks do not fill 8-GPU nodes." in panel.readout.value
    monkeypatch.undo()
    panel.update()
    assert ERROR_CLASS not in panel.readout.value


@pytest.mark.parametrize("cls", PANELS, ids=lambda cls: cls.__name__)
def test_the_ends_of_every_control_never_raise(cls, built):
    panel = built.get(cls)
    if panel is None:
        pytest.skip(f"{cls.__name__} needs arguments")
    started = time.process_time()
    for name, control in panel.controls.items():
        for value in _ends(control):
            if time.process_time() - started > 2:  # simulator panels: enough corners seen
                return
            control.value = value  # runs update(); a model that refuses writes its message instead
            assert panel.readout.value, f"{cls.__name__}: empty readout after {name} = {value!r}"
            if ERROR_CLASS in panel.readout.value:
                assert "Not possible" in panel.readout.value


#: Marks of text written for programmers: a parameter name (snake_case or "name = value" of a word),
#: a quoted identifier, a call, an exception's name.
CODE_TALK = re.compile(r"\b[a-z]+_[a-z_]+\b|\b[a-z]{2,}\w* = |'[a-z_]+'|\w\(\)|\w+Error\b")
#: Readouts that say a combination is refused (each panel's own words, or the shared one).
REFUSED = re.compile(r"Not possible|Cannot be built|Not calibrated|is not possible")


def _sampled_values(panel):
    """Each control's values as the book offers them (every option, a slider's grid), the others at their start."""
    from interconnect_lab.widgets import static

    initial = panel.values()
    for name, control in panel.controls.items():
        values = list(getattr(control, "_options_values", ()))
        if not values:
            try:
                values = list(static.control_grid(name, control).values)
            except static.NotStatic:
                continue   # free text: its own panel's tests try texts
        for value in values:
            yield dict(initial, **{name: value})


@pytest.mark.parametrize("cls", PANELS, ids=lambda cls: cls.__name__)
def test_a_refusal_is_a_plain_sentence(cls, built):
    # What a reader meets when the model refuses: a sentence naming no parameter, code or exception,
    # and a reason (not the generic line, which is for refusals the model never explains).
    panel = built.get(cls)
    if panel is None:
        pytest.skip(f"{cls.__name__} needs arguments")
    started = time.process_time()
    for values in _sampled_values(panel):
        if time.process_time() - started > 5:  # simulator panels: enough seen
            break
        try:
            readout = panel.describe(panel.compute(**values))
        except (ValueError, TypeError) as error:
            readout = error_html(error)
        text = " ".join(re.sub(r"<[^>]+>", "", readout).split())
        if not REFUSED.search(text):
            continue
        assert GENERIC_REFUSAL not in text, f"{cls.__name__}: {values}: the model gives no reason a reader can read"
        assert not CODE_TALK.search(text), f"{cls.__name__}: reads like code: {text!r}"
