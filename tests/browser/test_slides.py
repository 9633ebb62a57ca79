"""The chapters' slide decks in headless Chromium, offline.

The decks are built here (``tools/build_slides.py`` into a temporary folder,
a few seconds) so the test needs no earlier step. Each deck must open with no
console error, no failed request and no request leaving 127.0.0.1; reveal.js
must start with the slides the notebook gives; every figure must load and every
formula be typeset by the vendored MathJax.
"""

from __future__ import annotations

import sys

import pytest

import support

sys.path.insert(0, str(support.ROOT / "tools"))

import build_slides  # noqa: E402

CHAPTERS = build_slides.chapter_paths()

JS_DECK = """async () => {
  if (window.MathJax && window.MathJax.startup && window.MathJax.startup.promise) {
    await window.MathJax.startup.promise;
  }
  const images = Array.from(document.querySelectorAll('.slides img'));
  await Promise.all(images.map(img => img.decode().catch(() => null)));
  const sections = Array.from(document.querySelectorAll('.slides > section'));
  return {
    ready: Boolean(window.Reveal && window.Reveal.isReady()),
    total: window.Reveal ? window.Reveal.getTotalSlides() : 0,
    sections: sections.length,
    titles: sections.map(s => (s.querySelector('h1, h2') || {}).textContent || ''),
    images: images.map(img => ({src: img.getAttribute('src'), loaded: img.complete && img.naturalWidth > 0,
                                alt: img.getAttribute('alt') || ''})),
    texMarkers: sections.filter(s => /\\\\\\(|\\\\\\[/.test(s.textContent)).length,
    typeset: document.querySelectorAll('mjx-container').length,
    mathErrors: document.querySelectorAll('mjx-merror').length,
  };
}"""


@pytest.fixture(scope="module")
def slides(tmp_path_factory):
    output = tmp_path_factory.mktemp("slides")
    decks = build_slides.build(output)
    with support.static_server(output) as url:
        yield url, decks


def test_every_chapter_has_a_deck(slides):
    _, decks = slides
    assert len(CHAPTERS) >= 10
    assert [d.stem for d in decks] == [p.stem for p in CHAPTERS]


@pytest.mark.parametrize("chapter", CHAPTERS, ids=lambda p: p.stem)
def test_deck_opens_offline_with_its_slides_figures_and_maths(chapter, slides, page, page_log):
    url, _ = slides
    page.goto(f"{url}{chapter.stem}.html", wait_until="load")
    page.wait_for_function("() => window.Reveal && window.Reveal.isReady()", timeout=20_000)
    deck = page.evaluate(JS_DECK)
    assert deck["ready"]
    assert deck["total"] == deck["sections"] >= 5, deck["titles"]
    assert deck["titles"][1].lower() == "learning objectives"
    assert deck["titles"][-1] == "Practice"
    assert deck["images"], "a deck with no figure"
    assert [i["src"] for i in deck["images"] if not i["loaded"]] == []
    assert all(len(i["alt"]) > 20 for i in deck["images"])
    if deck["texMarkers"]:
        assert deck["typeset"] > 0 and deck["mathErrors"] == 0
    page.evaluate("() => Reveal.slide(Reveal.getTotalSlides() - 1)")   # walk to the end
    page.wait_for_timeout(200)
    assert page.evaluate("() => Reveal.isLastSlide()")
    assert page_log.problems() == []
