"""Every panel answers an impossible combination of controls with a message, never a traceback.

Generic over every public Panel subclass in interconnect_lab.widgets: each control is
moved to the ends of its range (the corners where a model is most likely to refuse),
and a model that refuses is simulated to check the message reaches the readout.
"""

import time

import pytest
from test_panel import PANELS  # every public Panel subclass in interconnect_lab.widgets

from interconnect_lab.widgets.static import ERROR_CLASS


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
    assert ERROR_CLASS in panel.readout.value and "n_ranks = 3 is not valid" in panel.readout.value
    assert panel.result is before  # the figure keeps the last accepted result
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
