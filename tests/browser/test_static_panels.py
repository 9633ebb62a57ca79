"""The rendered book's precomputed panels in headless Chromium: every control, moved, against the library.

For each chapter page: at least one precomputed panel (interconnect_lab/widgets/static.py)
is on it and ready. For each such panel, every control is moved with the keyboard (sliders
and checkboxes) or chosen (dropdowns) through at least three positions (all of them when it
has fewer); after each move the readout must equal the library's own
``describe(compute(values))`` for the values shown, computed here from the panel built as the
notebook builds it, and whenever the stored figure changes, the drawn canvas must change. A
control that changes neither readout nor figure fails, unless the library's readout and stored
figure do not change either. The initial readout must equal the live
(ipywidgets) panel's readout. Controls are labelled; the readout is an aria-live region; in dark
mode text is light on a dark background.
"""

from __future__ import annotations

import html
import re

import nbformat
import pytest

import support

# Chapter notebooks that are pages of the book (in _toc.yml).
CHAPTERS = [p for p in support.chapter_notebooks() if re.match(r"\d\d_", p.name)
            and p.relative_to(support.ROOT).with_suffix("").as_posix() in support.toc_documents()]

JS_READY = """() => {
  const all = document.querySelectorAll('.il-static-panel');
  return all.length > 0 && document.querySelectorAll('.il-static-panel.il-sp-ready').length === all.length
      && Array.from(all).every(p => p.querySelectorAll('canvas').length > 0);
}"""

JS_PANELS = """() => Array.from(document.querySelectorAll('.il-static-panel')).map(root => {
  const data = window.ilStaticPanels.panels.find(p => p.root === root).data;
  const inputs = Array.from(root.querySelectorAll('[data-control]'));
  return {id: root.id, panel: data.panel, controls: data.controls,
          labelled: inputs.every(i => i.labels && i.labels.length === 1 && i.labels[0].textContent.trim()),
          live: root.querySelector('.il-sp-readout').getAttribute('aria-live')};
})"""

# The panel's state as the page shows it: readout text, stored scene, a hash of the drawn canvases.
JS_STATE = """(id) => {
  const root = document.getElementById(id);
  let hash = 2166136261;
  for (const canvas of root.querySelectorAll('.il-sp-axes:not([hidden]) canvas')) {
    const text = canvas.toDataURL();
    for (let i = 0; i < text.length; i += 7) { hash = Math.imul(hash ^ text.charCodeAt(i), 16777619) >>> 0; }
  }
  return {readout: root.querySelector('.il-sp-readout').innerText, scene: root.dataset.scene,
          renders: Number(root.dataset.renders), figure: hash,
          state: Array.from(root.querySelectorAll('[data-control]')).map(
              i => i.type === 'checkbox' ? (i.checked ? 1 : 0) : Number(i.value))};
}"""


def text(markup: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", "", markup)).split())


def panel_classes() -> dict:
    import importlib
    import inspect
    import pkgutil

    from interconnect_lab import widgets
    from interconnect_lab._deprecation import MOVED_MODULES
    from interconnect_lab.widgets import Panel

    found = {}
    for info in pkgutil.iter_modules(widgets.__path__):
        if f"{widgets.__name__}.{info.name}" in MOVED_MODULES:   # deprecated aliases
            continue
        module = importlib.import_module(f"{widgets.__name__}.{info.name}")
        found.update({name: obj for name, obj in vars(module).items()
                      if inspect.isclass(obj) and issubclass(obj, Panel) and obj is not Panel})
    return found


def live_panels(notebook) -> list:
    """The panels the notebook displays, built as its cells build them (cells tagged nbval-ignore-output)."""
    classes = panel_classes()
    built = []
    for cell in nbformat.read(notebook, as_version=4).cells:
        if cell.cell_type != "code" or "nbval-ignore-output" not in cell.metadata.get("tags", []):
            continue
        source = cell.source.strip()
        match = re.fullmatch(r"([A-Z]\w*Panel)\((.*)\)", source, re.S)
        if match and match.group(1) in classes:
            built.append(eval(source, dict(classes)))  # the cell is one constructor call
    return built


def move(page, panel_id, control_index, kind, current, target):
    """Set one control to position ``target`` as a reader would; return nothing."""
    selector = f"#{panel_id} [data-control='{control_index}']"
    element = page.locator(selector)
    if kind == "select":
        element.select_option(str(target))
    elif kind == "check":
        if current != target:
            element.focus()
            page.keyboard.press("Space")
    else:
        element.focus()
        key = "ArrowRight" if target > current else "ArrowLeft"
        for _ in range(abs(target - current)):
            page.keyboard.press(key)


def positions(count: int, initial: int) -> list[int]:
    """At least three positions to visit (every one when there are fewer), ending away from the start."""
    if count == 1:
        return []  # shown, but nothing to move
    if count <= 3:
        return [i for i in range(count) if i != initial] + [initial] + \
            ([i for i in range(count) if i != initial][:1] if count > 1 else [])
    picks = sorted({0, count // 2, count - 1} - {initial})
    return picks + [initial]


def wait_for_render(page, panel_id, renders):
    page.wait_for_function(f"() => Number(document.getElementById('{panel_id}').dataset.renders) > {renders}",
                           timeout=10_000)


@pytest.mark.parametrize("notebook", CHAPTERS, ids=[p.stem for p in CHAPTERS])
def test_static_panels_answer_every_control_with_the_librarys_numbers(notebook, book_url, page, page_log):
    from interconnect_lab.widgets import static

    document = notebook.relative_to(support.BOOK).with_suffix("").as_posix()
    response = page.goto(f"{book_url}book/{document}.html", wait_until="load")
    assert response is not None and response.ok
    page.wait_for_function(JS_READY, timeout=30_000, polling=100)
    shown = page.evaluate(JS_PANELS)
    assert shown, f"{document}: no precomputed panel on the page"
    live = live_panels(notebook)
    problems = []
    for info in shown:
        where = f"{document}: {info['panel']}"
        candidates = [p for p in live if type(p).__name__ == info["panel"]]
        assert candidates, f"{where}: the notebook builds no such panel"
        panel = candidates[0]
        live.remove(panel)
        controls = static.grid(panel)
        assert [c.name for c in controls] == [c["name"] for c in info["controls"]]
        assert info["labelled"], f"{where}: a control without its <label for>"
        assert info["live"] == "polite", f"{where}: the readout is not an aria-live region"
        state = page.evaluate(JS_STATE, info["id"])
        assert text(state["readout"]) == text(panel.readout.value), \
            f"{where}: the initial readout differs from the live panel's"
        for index, control in enumerate(controls):
            assert [str(label) for label in control.labels] == info["controls"][index]["labels"]
            changed, expected_texts, scenes = False, set(), {state["scene"]}
            for target in positions(len(control.values), control.index):
                before = state
                move(page, info["id"], index, control.kind, before["state"][index], target)
                wait_for_render(page, info["id"], before["renders"])
                state = page.evaluate(JS_STATE, info["id"])
                if state["state"][index] != target:
                    problems.append(f"{where}: '{control.name}' did not move to position {target}")
                    continue
                # A static variant holds the controls it does not offer at their initial values.
                values = dict(panel.values(), **{c.name: c.values[i] for c, i in zip(controls, state["state"])})
                try:
                    expected = text(panel.describe(panel.compute(**values)))
                except (ValueError, TypeError) as error:  # refused: the live panel's message
                    from interconnect_lab.widgets.static import error_html

                    expected = text(error_html(error))
                expected_texts.add(expected)
                scenes.add(state["scene"])
                if text(state["readout"]) != expected:
                    problems.append(f"{where}: {values}: page says {text(state['readout'])[:160]!r}, "
                                    f"library {expected[:160]!r}")
                if state["scene"] != before["scene"] and state["figure"] == before["figure"]:
                    problems.append(f"{where}: '{control.name}' -> {control.labels[target]}: the stored figure "
                                    "changed but the drawn one did not")
                changed |= state["readout"] != before["readout"] or state["figure"] != before["figure"]
            # A control may do nothing while others stand where they are (a switch for a transfer
            # that is off); the library says so too. Otherwise the page must have changed.
            if len(control.values) > 1 and not changed and (len(expected_texts) > 1 or len(scenes) > 1):
                problems.append(f"{where}: moving '{control.name}' changed neither the readout nor the figure")
    problems += page_log.problems()
    assert not problems, "\n  ".join(problems)


def test_static_panel_is_legible_in_dark_mode(book_url, page):
    page.goto(f"{book_url}book/{CHAPTERS[0].stem}.html", wait_until="load")
    page.wait_for_function(JS_READY, timeout=30_000, polling=100)
    page.evaluate("document.documentElement.dataset.theme = 'dark'")
    page.wait_for_timeout(200)
    colours = page.evaluate("""() => {
      const root = document.querySelector('.il-static-panel');
      const lum = c => { const v = c.match(/[\\d.]+/g).map(Number);
                         return (0.2126 * v[0] + 0.7152 * v[1] + 0.0722 * v[2]) / 255; };
      const bg = getComputedStyle(root).backgroundColor;
      const fg = getComputedStyle(root.querySelector('.il-sp-readout')).color;
      return {text: lum(fg), background: lum(bg), transparent: bg === 'rgba(0, 0, 0, 0)'};
    }""")
    assert colours["text"] > 0.6 and (colours["transparent"] or colours["background"] < 0.3), colours
