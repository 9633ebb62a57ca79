"""What a reader downloads: a first chapter page under 2.5 MB, each further chapter under 1 MB.

One known exception, named with its reason and its own ceiling: chapter 8's first visit.

Measured in headless Chromium from the page's resource timings (bytes over the network,
headers included, uncompressed as the test server sends them), after scrolling through the
whole page; a further chapter is opened after the one before it in the same browser profile,
so the theme, MathJax and the panels' renderer come from the cache. ``bench_page_weight.py``
records the same numbers in the benchmarks.
"""

from __future__ import annotations

import re

import pytest

import support

CHAPTERS = [d for d in support.toc_documents() if re.fullmatch(r"book/\d\d_\w+", d)]
#: Chapters whose first visit is known to weigh more, and why. The test fails when one of them
#: comes under the budget, so that it leaves this list.
KNOWN_HEAVY_FIRST_VISITS = {
    # 2.9 MB in December 2026: its own page is 0.96 MB (a 230 kB precomputed pipeline-schedule
    # panel, 11 figures, the fidelity discussion's folded code) on top of the 2.0 MB every first
    # visit loads (theme 0.6 MB, MathJax 0.8 MB, Font Awesome, Chart.js).
    "book/08_training_at_scale": 3_000_000,
    # 2.8 MB in December 2026: its own page is 0.8 MB, of which 280 kB are its two precomputed
    # panels (what NCCL runs, over 6 machines x 3 collectives x 11 node counts; the collective
    # curves), 250 kB its 8 figures, and the rest the reproduction table (110 runs, each linked
    # to its source) and folded code.
    "book/07_collectives_nccl": 3_000_000,
}


@pytest.fixture(scope="module")
def weights(browser, book_url):
    return support.chapter_weights(browser, book_url, CHAPTERS)


def test_a_first_visit_to_any_chapter_loads_under_2_5_mb(weights):
    first, _ = weights
    heavy = {d: f"{b / 1e6:.2f} MB" for d, b in first.items()
             if b > KNOWN_HEAVY_FIRST_VISITS.get(d, support.FIRST_VISIT_BYTES)}
    assert not heavy, f"first visits over {support.FIRST_VISIT_BYTES / 1e6} MB: {heavy}"
    lighter = [d for d in KNOWN_HEAVY_FIRST_VISITS if first[d] <= support.FIRST_VISIT_BYTES]
    assert not lighter, f"now under the budget, remove from KNOWN_HEAVY_FIRST_VISITS: {lighter}"


def test_each_further_chapter_adds_under_1_mb(weights):
    _, further = weights
    heavy = {d: f"{b / 1e6:.2f} MB" for d, b in further.items() if b > support.FURTHER_VISIT_BYTES}
    assert not heavy, f"further chapters over {support.FURTHER_VISIT_BYTES / 1e6} MB: {heavy}"


def test_the_search_index_loads_only_on_the_search_page(browser, book_url):
    context = browser.new_context()
    page = context.new_page()
    chapter = support.visit_weight(page, f"{book_url}{CHAPTERS[0]}.html")
    assert not [e for e in chapter if "searchindex" in e["name"]]
    search = support.visit_weight(page, f"{book_url}search.html?q=busbw")
    assert [e for e in search if "searchindex" in e["name"]]
    page.wait_for_function("() => document.querySelectorAll('#search-results li').length > 0", timeout=20_000)
    context.close()
