"""The rendered book in headless Chromium, page by page, as a reader opens it offline.

Every page in _toc.yml: loads with no console error, no failed request and no
request leaving 127.0.0.1; every figure has a size; every embedded widget
panel renders in the state stored with its notebook; every formula is
typeset; every internal link and anchor resolves; a chapter page loads at
most 5 MB in all.
"""

from __future__ import annotations

import base64
import html
import json
import re
import urllib.parse

import pytest

import support

PAGES = support.toc_documents()
#: Most bytes a chapter page may load in all (HTML and every file it fetches, uncompressed).
PAGE_LIMIT_BYTES = 5_000_000
# What the page has loaded so far, uncompressed: the document and every same-origin file.
JS_WEIGHT = """() => [...performance.getEntriesByType('navigation'), ...performance.getEntriesByType('resource')]
  .filter(e => e.name.startsWith(location.origin)).reduce((sum, e) => sum + e.decodedBodySize, 0)"""
IMAGE_SUFFIXES = {".png", ".jpg", ".jpeg", ".gif", ".webp"}  # SVGs are checked by the browser alone

# Waits for the page's own machinery: MathJax's first typesetting and the
# widgets HTML manager's rendering of every stored view.
JS_SETTLED = """() => {
  const views = document.querySelectorAll('script[type="application/vnd.jupyter.widget-view+json"]');
  const rendered = Array.from(views).filter(view => {
    const area = view.previousElementSibling;
    return area && area.classList.contains('widget-subarea') && area.children.length > 0
        && Array.from(area.querySelectorAll('.widget-output')).every(o => o.querySelector('img, pre, .jp-RenderedText')
                                                                            || o.innerText.trim() === '');
  });
  const mathjax = !document.querySelector('.math') || (window.MathJax && window.MathJax.startup
      && window.MathJax.startup.document && window.MathJax.startup.document.processed !== undefined);
  return rendered.length === views.length && mathjax && document.readyState === 'complete';
}"""

JS_INSPECT = """async () => {
  if (window.MathJax && window.MathJax.startup && window.MathJax.startup.promise) {
    await window.MathJax.startup.promise;
  }
  const main = document.querySelector('main') || document.body;
  const images = Array.from(main.querySelectorAll('img'));
  await Promise.all(images.map(img => img.decode().catch(() => null)));
  const describe = img => (img.getAttribute('alt') || img.currentSrc.slice(0, 80));
  const figures = images.map(img => {
    const box = img.getBoundingClientRect();
    return {name: describe(img), loaded: img.complete && img.naturalWidth > 0 && img.naturalHeight > 0,
            shown: img.checkVisibility(), width: box.width, height: box.height, src: img.currentSrc};
  });
  const maths = Array.from(document.querySelectorAll('.math')).map(el => ({
    text: el.textContent.slice(0, 80), typeset: Boolean(el.querySelector('mjx-container')),
    error: Boolean(el.querySelector('mjx-merror'))}));
  const views = Array.from(document.querySelectorAll('script[type="application/vnd.jupyter.widget-view+json"]'))
    .map(view => {
      const area = view.previousElementSibling;
      const leaves = area ? Array.from(area.querySelectorAll(
          '.widget-slider, .widget-dropdown, .widget-html, .widget-output')) : [];
      return {model_id: JSON.parse(view.textContent).model_id, rendered: Boolean(area && area.children.length),
        leaves: leaves.map(el => {
          if (el.classList.contains('widget-slider')) {
            const box = el.getBoundingClientRect();
            return {kind: 'slider', text: el.querySelector('.widget-readout').innerText.trim(),
                    label: el.querySelector('.widget-label').textContent.trim(), width: box.width};
          }
          if (el.classList.contains('widget-dropdown')) {
            const select = el.querySelector('select');
            return {kind: 'dropdown', text: select.options[select.selectedIndex].text};
          }
          if (el.classList.contains('widget-html')) {
            return {kind: 'html', text: el.querySelector('.widget-html-content').textContent};
          }
          return {kind: 'output', images: Array.from(el.querySelectorAll('img')).map(img => ({
            src: img.getAttribute('src') || '', loaded: img.naturalWidth > 0,
            width: img.getBoundingClientRect().width}))};
        })};
    });
  const state = document.querySelector('script[type="application/vnd.jupyter.widget-state+json"]');
  return {figures, maths, views, state: state ? state.textContent : null};
}"""


def _text(markup: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", "", markup)).split())


def expected_leaves(state: dict, model_id: str) -> list[dict]:
    """The leaf widgets under one displayed view, in the order the page renders them."""
    model = state[model_id]
    name, values = model["model_name"], model["state"]
    if name == "SelectionSliderModel":
        return [{"kind": "slider", "model": values, "text": values["_options_labels"][values["index"]]}]
    if name.endswith("SliderModel") and not name.endswith("RangeSliderModel"):
        return [{"kind": "slider", "model": values}]
    if name == "DropdownModel":
        return [{"kind": "dropdown", "text": values["_options_labels"][values["index"]]}]
    if name == "HTMLModel":
        return [{"kind": "html", "text": _text(values["value"])}]
    if name == "OutputModel":
        pngs = [o["data"]["image/png"] for o in values.get("outputs", []) if "image/png" in o.get("data", {})]
        return [{"kind": "output", "pngs": ["".join(p.split()) for p in pngs]}]
    leaves = []
    for child in values.get("children", []):
        leaves += expected_leaves(state, child.removeprefix("IPY_MODEL_"))
    return leaves


def slider_matches(model: dict, readout: str) -> bool:
    number = re.search(r"-?[\d,]*\.?\d+(?:e-?\d+)?", readout)
    if not number:
        return False
    shown = float(number.group().replace(",", ""))
    value = model["value"] * (100 if "%" in model.get("readout_format", "") else 1)
    decimals = len(number.group().split(".")[1]) if "." in number.group() else 0
    return abs(shown - value) <= 0.5 * 10 ** -decimals + 1e-9


def widget_problems(views: list[dict], state_json: str | None) -> list[str]:
    if not views:
        return []
    if state_json is None:
        return ["widget views on the page but no stored widget state"]
    state = {k: v for k, v in json.loads(state_json)["state"].items()}
    problems = []
    for number, view in enumerate(views, 1):
        where = f"panel {number}"
        if view["model_id"] not in state:
            problems.append(f"{where}: no stored state for model {view['model_id']}")
            continue
        if not view["rendered"]:
            problems.append(f"{where}: not rendered")
            continue
        expected = expected_leaves(state, view["model_id"])
        shown = view["leaves"]
        if [e["kind"] for e in expected] != [s["kind"] for s in shown]:
            problems.append(f"{where}: shows {[s['kind'] for s in shown]}, stored {[e['kind'] for e in expected]}")
            continue
        for want, got in zip(expected, shown):
            kind = want["kind"]
            if kind == "slider":
                stored = want.get("text", want["model"].get("value"))
                matches = got["text"] == want["text"] if "text" in want else slider_matches(want["model"], got["text"])
                if not matches or got["width"] <= 0:
                    problems.append(f"{where}: slider '{got['label']}' shows {got['text']!r}, stored {stored!r}")
            elif kind in {"dropdown", "html"}:
                if " ".join(got["text"].split()) != want["text"]:
                    problems.append(f"{where}: {kind} shows {got['text'][:80]!r}, stored {want['text'][:80]!r}")
            elif kind == "output":
                images = got["images"]
                sources = [i["src"].removeprefix("data:image/png;base64,") for i in images]
                if sources != want["pngs"]:
                    problems.append(f"{where}: figure is not the stored one ({len(images)} shown, "
                                    f"{len(want['pngs'])} stored)")
                problems += [f"{where}: figure with no size" for i in images if not i["loaded"] or i["width"] <= 0]
                for png in want["pngs"]:
                    if (why := support.image_problem(base64.b64decode(png))) is not None:
                        problems.append(f"{where}: stored figure is {why}")
    return problems


@pytest.mark.parametrize("document", PAGES)
def test_page_renders_offline_without_errors(document, book_url, book_html, page, page_log):
    response = page.goto(book_url + document + ".html", wait_until="load")
    assert response is not None and response.ok, f"{document}.html: HTTP {response and response.status}"
    page.wait_for_function(JS_SETTLED, timeout=30_000, polling=100)
    report = page.evaluate(JS_INSPECT)
    problems = list(page_log.problems())
    problems += [f"figure '{f['name']}' did not load" for f in report["figures"] if not f["loaded"]]
    problems += [f"figure '{f['name']}' has no size" for f in report["figures"]
                 if f["shown"] and (f["width"] <= 0 or f["height"] <= 0)]
    for figure in report["figures"]:
        data = support.data_url_bytes(figure["src"])
        if data is None and figure["src"].startswith(book_url):
            path = book_html / urllib.parse.unquote(urllib.parse.urlsplit(figure["src"]).path.lstrip("/"))
            data = path.read_bytes() if path.is_file() and path.suffix.lower() in IMAGE_SUFFIXES else None
        if data is not None and (why := support.image_problem(data)) is not None:
            problems.append(f"figure '{figure['name']}' is {why}")
    problems += [f"maths not typeset: {m['text']!r}" for m in report["maths"] if not m["typeset"]]
    problems += [f"maths with a TeX error: {m['text']!r}" for m in report["maths"] if m["error"]]
    problems += widget_problems(report["views"], report["state"])
    if re.fullmatch(r"book/\d\d_\w+", document):
        weight = page.evaluate(JS_WEIGHT)
        if weight > PAGE_LIMIT_BYTES:
            problems.append(f"the page loads {weight / 1e6:.2f} MB, over the {PAGE_LIMIT_BYTES / 1e6:.0f} MB "
                            "a chapter page may weigh (benchmarks/bench_static_panels.py lists what it loads)")
    assert not problems, f"{document}:\n  " + "\n  ".join(problems)


@pytest.mark.parametrize("document", ["index"] + PAGES)  # index.html: the redirect to the root page
def test_every_internal_link_and_anchor_resolves(document, book_html):
    page = book_html / f"{document}.html"
    assert page.exists(), f"{document} is in _toc.yml but {page} was not built"
    broken = support.broken_links(book_html, page)
    assert not broken, f"{document}:\n  " + "\n  ".join(broken)


def test_theme_icons_are_drawn_without_font_awesomes_script(book_url, book_html, page, page_log):
    """tools/sphinxext/theme_icons.py drops fontawesome.js; the icon font must still draw every icon."""
    page.goto(book_url + PAGES[1] + ".html", wait_until="load")
    page.wait_for_function(JS_SETTLED, timeout=30_000, polling=100)
    page.evaluate("document.fonts.ready")
    icons = page.evaluate("""() => Array.from(document.querySelectorAll('.header-article-items [class*="fa-"]'))
      .filter(el => el.offsetParent !== null)
      .map(el => { const before = getComputedStyle(el, '::before'); const box = el.getBoundingClientRect();
                   return {cls: el.className, width: box.width, glyph: before.content,
                           font: before.fontFamily, svg: el.tagName.toLowerCase() === 'svg'}; })""")
    assert len(icons) >= 3, f"expected the header's icons (launch, download, full screen...), found {icons}"
    problems = [f"{i['cls']}: not drawn by the icon font ({i})" for i in icons
                if i["svg"] or i["width"] <= 0 or i["glyph"] in ("none", "normal", "") or "Font Awesome" not in i["font"]]
    assert not list(book_html.rglob("fontawesome.js")), "the 1.5 MB script is still in _static"
    assert "fontawesome.js" not in (book_html / (PAGES[1] + ".html")).read_text()
    assert not problems and not page_log.problems(), problems + page_log.problems()
