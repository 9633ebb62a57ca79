"""The book's chrome as a reader meets it, at 1366 px and 390 px, in the light and the dark scheme.

One search box on every page; a favicon and a logo that load (so a first visit logs no 404);
static figures that follow the colour scheme (light plates in the light scheme, the page's
dark background in the dark one); and unevenly stepped sliders of the precomputed panels that
show their values under the track, without the labels running into each other.
"""

from __future__ import annotations

import io

import pytest

import support

WIDTHS = [1366, 390]
SCHEMES = ["light", "dark"]
CHAPTER = "book/07_collectives_nccl"      # figures, a panel with uneven sliders (ranks, sizes)

JS_SEARCH_BOXES = """() => Array.from(document.querySelectorAll('.search-button__button, .search-button-field'))
  .filter(el => el.checkVisibility() && el.getBoundingClientRect().width > 0)
  .map(el => el.className)"""


@pytest.fixture
def view(browser, book_url, request):
    width, scheme = request.param
    context = browser.new_context(viewport={"width": width, "height": 900}, color_scheme=scheme)
    page = context.new_page()
    log = support.PageLog()
    support.watch(page, log)
    yield page, log, width, scheme
    context.close()


@pytest.mark.parametrize("view", [(w, s) for w in WIDTHS for s in SCHEMES], indirect=True,
                         ids=lambda v: f"{v[0]}px-{v[1]}")
def test_one_search_box_a_favicon_and_a_logo(view, book_url):
    page, log, width, _ = view
    page.goto(f"{book_url}{CHAPTER}.html", wait_until="networkidle")
    boxes = page.evaluate(JS_SEARCH_BOXES)
    assert len(boxes) == 1, f"{width} px: {len(boxes)} search boxes: {boxes}"
    icon = page.evaluate("() => (document.querySelector('link[rel~=icon]') || {}).href")
    assert icon, "no favicon declared: the browser asks for /favicon.ico and logs a 404"
    response = page.request.get(icon)
    assert response.ok and b"<svg" in response.body()
    logo = page.evaluate("() => Array.from(document.querySelectorAll('img.logo__image'))"
                         ".map(img => ({w: img.naturalWidth, alt: img.alt}))")
    assert logo and all(l["w"] > 0 for l in logo), logo
    assert log.problems() == []


def _luminance(png: bytes) -> float:
    from PIL import Image, ImageStat

    with Image.open(io.BytesIO(png)) as image:
        return ImageStat.Stat(image.convert("L")).mean[0] / 255


@pytest.mark.parametrize("view", [(w, s) for w in WIDTHS for s in SCHEMES], indirect=True,
                         ids=lambda v: f"{v[0]}px-{v[1]}")
def test_static_figures_follow_the_colour_scheme(view, book_url):
    page, log, _, scheme = view
    page.goto(f"{book_url}{CHAPTER}.html", wait_until="networkidle")
    figures = page.locator(".cell_output img")
    assert figures.count() >= 3
    for index in range(min(3, figures.count())):
        figure = figures.nth(index)
        figure.scroll_into_view_if_needed()
        page.wait_for_timeout(100)
        brightness = _luminance(figure.screenshot())
        if scheme == "dark":
            assert brightness < 0.3, f"figure {index}: a bright plate in the dark scheme ({brightness:.2f})"
        else:
            assert brightness > 0.75, f"figure {index}: not on white in the light scheme ({brightness:.2f})"
    assert log.problems() == []


JS_TICKS = """() => Array.from(document.querySelectorAll('.il-sp-ticks')).map(row => {
  const labels = Array.from(row.querySelectorAll('.il-sp-tick-label')).map(l => l.getBoundingClientRect());
  const track = row.parentElement.querySelector('input[type=range]').getBoundingClientRect();
  return {count: row.querySelectorAll('.il-sp-tick').length, texts: Array.from(row.querySelectorAll('.il-sp-tick-label')).map(l => l.textContent),
          boxes: labels.map(b => [b.left, b.right, b.width]), track: [track.left, track.right]};
})"""


@pytest.mark.parametrize("view", [(w, "light") for w in WIDTHS], indirect=True, ids=lambda v: f"{v[0]}px")
def test_uneven_slider_steps_are_labelled_without_collisions(view, book_url):
    page, log, width, _ = view
    page.goto(f"{book_url}{CHAPTER}.html", wait_until="networkidle")
    rows = page.evaluate(JS_TICKS)
    assert rows, "no unevenly stepped slider shows its values"
    for row in rows:
        assert len(row["texts"]) >= 2 and all(t.strip() for t in row["texts"])
        boxes = sorted(row["boxes"])
        overlaps = [(a, b) for a, b in zip(boxes, boxes[1:]) if a[1] > b[0] + 0.5]
        assert not overlaps, f"{width} px: tick labels {row['texts']} overlap"
        assert boxes[0][0] >= row["track"][0] - 10 and boxes[-1][1] <= row["track"][1] + 10, \
            f"{width} px: tick labels {row['texts']} leave the slider"
    assert log.problems() == []
