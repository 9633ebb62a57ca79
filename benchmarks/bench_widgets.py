"""Every interactive panel: its model call and its full update, as a reader moving controls causes them.

For each panel (every public ``Panel`` subclass in ``interconnect_lab.widgets``),
constructed with its defaults:

- model call: ``panel.compute(**values)`` on a new set of control values each
  time (budget 5 ms);
- full update: one control set to a new value, which runs the panel's update
  (model, readout, figure, PNG into the Output widget) as a slider does in a
  notebook (budget 50 ms).

A panel whose sliders all update on release (``continuous_update=False``, the
simulator-backed ones) is held to 1 s for its full update and to no budget for
its model call: it answers one question per release, not one per step of a drag.

Controls move round-robin through a spread of their valid values, so no two
consecutive calls see the same input.

Usage: ``python benchmarks/bench_widgets.py``
"""

from __future__ import annotations

import inspect
import itertools
import statistics
import sys
import time

import benchlib

MODEL_BUDGET_MS = 5
UPDATE_BUDGET_MS = 50
RELEASE_BUDGET_MS = 1000  # panels that update on release: "well within a second"
MAX_SECONDS = 8  # per measurement: a simulator-backed panel gets fewer samples (at least 10)


def panels():
    """Every public Panel subclass in every module of interconnect_lab.widgets."""
    import importlib
    import pkgutil

    from interconnect_lab import widgets
    from interconnect_lab._deprecation import MOVED_MODULES
    from interconnect_lab.widgets import Panel

    found = []
    for module_info in pkgutil.iter_modules(widgets.__path__):
        if f"{widgets.__name__}.{module_info.name}" in MOVED_MODULES:   # deprecated aliases
            continue
        module = importlib.import_module(f"{widgets.__name__}.{module_info.name}")
        found += [obj for name, obj in vars(module).items()
                  if inspect.isclass(obj) and issubclass(obj, Panel) and obj is not Panel
                  and obj.__module__ == module.__name__ and not name.startswith("_")]
    return found


def candidate_values(control, count=8):
    """A spread of valid values of one control."""
    if hasattr(control, "options"):
        return [option[1] if isinstance(option, tuple) else option for option in control.options]
    if isinstance(control.value, bool):
        return [False, True]
    if all(hasattr(control, a) for a in ("min", "max", "step")) and not isinstance(control.value, tuple):
        low, high, step = control.min, control.max, control.step or (control.max - control.min) / 100
        steps = int(round((high - low) / step))
        picks = sorted({round(i * steps / (count - 1)) for i in range(count)})
        kind = type(control.value)
        return [kind(low + k * step) if kind is int else round(low + k * step, 12) for k in picks]
    return []


def moves(panel):
    """Endless (name, value) pairs, round-robin over controls, each a change from the current value."""
    candidates = {name: candidate_values(control) for name, control in panel.controls.items()}
    candidates = {name: values for name, values in candidates.items() if len(values) > 1}
    cycles = {name: itertools.cycle(values) for name, values in candidates.items()}
    current = dict(panel.values())
    for name in itertools.cycle(candidates):
        value = next(cycles[name])
        if value == current[name]:
            value = next(cycles[name])
        current[name] = value
        yield name, value


def main() -> int:
    from interconnect_lab.widgets import Panel

    repeat = 30 if benchlib.quick() else 200
    found = panels()
    if not found:
        print("no panels in interconnect_lab.widgets")
        return 0
    failures = []
    for cls in found:
        try:
            measure_panel(cls, Panel, repeat)
        except Exception as error:  # a crash is a finding: name the inputs, go on with the next panel
            failures.append(cls.__name__)
            print(f"{cls.__name__}: FAILED: {type(error).__name__}: {error}")
            if getattr(error, "panel_values", None):
                print(f"    with control values {error.panel_values}")
    return 1 if failures else 0


def measure_panel(cls, Panel, repeat):
    try:
        panel = cls()
    except TypeError as error:
        print(f"{cls.__name__}: cannot be built with its defaults ({error}); skipped")
        return
    stream = moves(panel)
    values = dict(panel.values())

    def next_values():
        name, value = next(stream)
        values[name] = value
        return dict(values)

    try:
        samples = benchlib.measure(lambda v: panel.compute(**v), repeat=repeat, setup=next_values,
                                   max_seconds=MAX_SECONDS, warmup=1)
    except Exception as error:
        error.panel_values = dict(values)
        raise
    # A panel whose sliders all update on release (continuous_update=False,
    # STYLE.md: slow models) answers one question per release, not one per
    # pixel of a drag: it is held to "well within a second", not to 5/50 ms.
    sliders = [c for c in panel.controls.values() if hasattr(c, "continuous_update")]
    on_release = bool(sliders) and not any(c.continuous_update for c in sliders)
    kind = "; updates on release (simulator)" if on_release else ""
    benchlib.record("widgets", f"{cls.__name__}: model call", samples_s=samples,
                    budget_ms=None if on_release else MODEL_BUDGET_MS, note="compute(**values)" + kind)

    stream = moves(panel)
    fast = type(panel).redraw is not Panel.redraw
    by_control = {}

    def move(step):
        name, value = step
        started = time.perf_counter()
        panel.controls[name].value = value
        by_control.setdefault(name, []).append(time.perf_counter() - started)

    try:
        samples = benchlib.measure(move, repeat=repeat, setup=lambda: next(stream), max_seconds=MAX_SECONDS,
                                   warmup=1)
    except Exception as error:
        error.panel_values = panel.values()
        raise
    slowest = max(by_control, key=lambda name: statistics.median(by_control[name]))
    benchlib.record("widgets", f"{cls.__name__}: full update", samples_s=samples,
                    budget_ms=RELEASE_BUDGET_MS if on_release else UPDATE_BUDGET_MS,
                    note=("redraw() fast path" if fast else "full redraw (no redraw())") + kind
                    + f"; slowest control '{slowest}' median {statistics.median(by_control[slowest]) * 1e3:.0f} ms")


if __name__ == "__main__":
    sys.exit(main())
