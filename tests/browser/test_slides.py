"""The chapters' slide decks in headless Chromium, offline.

The decks are built here (``tools/build_slides.py`` into a temporary folder,
a few seconds) so the test needs no earlier step. Each deck must open with no
console error, no failed request and no request leaving 127.0.0.1; reveal.js
must start with the slides the notebook gives; every figure must load and every
formula be typeset by the vendored MathJax. Every slide has speaker notes (what
to say, the question to ask) that the speaker view (key S) shows; no slide ends
on a colon or names a class; the index lists the chapters by title; the decks
wear the book's fonts and colours.
"""

from __future__ import annotations

import re
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
  const images = Array.from(document.querySelectorAll('.slides img:not(.logo)'));  // the logo is decoration
  await Promise.all(images.map(img => img.decode().catch(() => null)));
  const sections = Array.from(document.querySelectorAll('.slides > section'));
  const shown = s => { const copy = s.cloneNode(true); copy.querySelectorAll('aside.notes').forEach(n => n.remove());
                       return copy.textContent.replace(/\\s+/g, ' ').trim(); };
  return {
    ready: Boolean(window.Reveal && window.Reveal.isReady()),
    total: window.Reveal ? window.Reveal.getTotalSlides() : 0,
    sections: sections.length,
    titles: sections.map(s => (s.querySelector('h1, h2') || {}).textContent || ''),
    texts: sections.map(shown),
    notes: sections.map(s => { const n = s.querySelector('aside.notes'); return n ? n.textContent.trim() : ''; }),
    images: images.map(img => ({src: img.getAttribute('src'), loaded: img.complete && img.naturalWidth > 0,
                                alt: img.getAttribute('alt') || ''})),
    texMarkers: sections.filter(s => /\\\\\\(|\\\\\\[/.test(s.textContent)).length,
    typeset: document.querySelectorAll('mjx-container').length,
    mathErrors: document.querySelectorAll('mjx-merror').length,
    notesPlugin: Boolean(window.Reveal && window.Reveal.hasPlugin && window.Reveal.hasPlugin('notes')),
    font: getComputedStyle(document.querySelector('.reveal h2') || document.body).fontFamily,
    heading: getComputedStyle(document.querySelector('.reveal h2') || document.body).color,
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


@pytest.mark.parametrize("chapter", CHAPTERS, ids=lambda p: p.stem)
def test_every_slide_has_notes_to_teach_from_and_none_dangles(chapter, slides, page, page_log):
    url, _ = slides
    page.goto(f"{url}{chapter.stem}.html", wait_until="load")
    page.wait_for_function("() => window.Reveal && window.Reveal.isReady()", timeout=20_000)
    deck = page.evaluate(JS_DECK)
    problems = []
    for title, text, notes in zip(deck["titles"], deck["texts"], deck["notes"]):
        if not ("Say:" in notes and "Ask:" in notes and len(notes) > 120):
            problems.append(f"'{title}': notes without what to say and what to ask ({notes[:80]!r})")
        if text.endswith(":"):
            problems.append(f"'{title}': the slide ends on a colon ({text[-80:]!r})")
        if re.search(r"\b[A-Z][a-z]+(?:[A-Z][a-z]*)*Panel\b", text):
            problems.append(f"'{title}': names a class ({text[:120]!r})")
    # A section slide says something: more than its heading and one short sentence.
    problems += [f"'{title}': only {len(text.split())} words" for title, text in zip(deck["titles"][2:-1], deck["texts"][2:-1])
                 if len(text.split()) < 25 and not deck["images"]]
    assert not problems, "\n".join(problems)
    # Figures' numbers come from the chapter: every deck's notes point at some.
    assert sum("Point at:" in n for n in deck["notes"]) >= 2
    assert deck["notesPlugin"], "the speaker-notes plugin is not loaded"
    assert deck["font"].startswith("system-ui") and deck["heading"] == "rgb(34, 40, 50)", \
        f"not the book's font and text colour: {deck['font']}, {deck['heading']}"
    assert page_log.problems() == []


def test_speaker_view_shows_the_notes(slides, page, page_log):
    url, _ = slides
    page.goto(f"{url}{CHAPTERS[0].stem}.html#/2", wait_until="load")
    page.wait_for_function("() => window.Reveal && window.Reveal.isReady()", timeout=20_000)
    with page.context.expect_page(timeout=15_000) as opened:
        page.keyboard.press("s")
    speaker = opened.value
    speaker.wait_for_selector(".speaker-controls-notes .value", timeout=15_000)
    speaker.wait_for_function("() => document.querySelector('.speaker-controls-notes .value').textContent"
                              ".includes('Ask:')", timeout=15_000)
    assert "Say:" in speaker.inner_text(".speaker-controls-notes .value")
    speaker.close()
    assert page_log.problems() == []


def test_index_lists_the_chapters_by_title_in_the_books_look(slides, page, page_log):
    url, decks = slides
    page.goto(url + "index.html", wait_until="load")
    links = page.evaluate("() => Array.from(document.querySelectorAll('main li a'))"
                          ".map(a => ({href: a.getAttribute('href'), text: a.innerText.replace(/\\s+/g, ' ')}))")
    titles = build_slides.document_titles()
    assert [link["href"] for link in links] == [d.name for d in decks]
    for link, deck in zip(links, decks):
        assert titles[deck.stem].split(". ")[-1] in link["text"] and deck.stem not in link["text"], link
    parts = page.evaluate("() => Array.from(document.querySelectorAll('main h2')).map(h => h.textContent)")
    assert parts[0].startswith("I. ") and len(parts) >= 5
    style = page.evaluate("() => ({font: getComputedStyle(document.body).fontFamily,"
                          " logo: document.querySelector('header img').naturalWidth})")
    assert style["font"].startswith("system-ui") and style["logo"] > 0
    assert page_log.problems() == []
