"""What a reader downloads, chapter by chapter: a first visit, and each chapter after another.

Serves a built book (``$BOOK_BUILD_DIR/_build/html``, else ``_build/html``) on 127.0.0.1 and
opens every chapter page in headless Chromium (``tests/browser/support.py``): once as a
reader's first page (a fresh profile, nothing cached) and once after the chapter before it
(one profile, so the theme, MathJax and the panels' renderer are cached). Each page is
scrolled to the bottom; the bytes are the resource timings' transfer sizes (headers
included, uncompressed as the test server sends them). Budgets (issue 38): 2.5 MB for a
first visit, 1 MB of new bytes for each further chapter. ``tests/browser/test_page_weight.py``
asserts the same budgets.

Usage: ``python benchmarks/bench_page_weight.py`` (build the book first).
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import benchlib

sys.path.insert(0, str(benchlib.ROOT / "tests" / "browser"))

import support  # noqa: E402


def book_html() -> Path | None:
    root = Path(os.environ.get("BOOK_BUILD_DIR", benchlib.ROOT))
    html = root / "_build" / "html"
    return html if (html / "index.html").exists() else None


def main() -> int:
    from playwright.sync_api import sync_playwright

    html = book_html()
    if html is None:
        print("no built book (set BOOK_BUILD_DIR or run jupyter-book build .): nothing measured")
        return 0
    chapters = [d for d in support.toc_documents() if re.fullmatch(r"book/\d\d_\w+", d)]
    with support.static_server(html) as url, sync_playwright() as playwright:
        browser = support.launch_chromium(playwright)
        first, further = support.chapter_weights(browser, url, chapters)
        browser.close()
    for document in chapters:
        name = document.removeprefix("book/")
        benchlib.record("page weight", f"{name}: first visit", value=first[document] / 1e6, unit="MB",
                        budget=support.FIRST_VISIT_BYTES / 1e6, note="fresh profile, scrolled to the bottom")
        if document in further:
            benchlib.record("page weight", f"{name}: after the chapter before it", value=further[document] / 1e6,
                            unit="MB", budget=support.FURTHER_VISIT_BYTES / 1e6, note="new bytes; shared files cached")
    benchlib.record("page weight", "heaviest first visit", value=max(first.values()) / 1e6, unit="MB",
                    budget=support.FIRST_VISIT_BYTES / 1e6, note=max(first, key=first.get).removeprefix("book/"))
    benchlib.record("page weight", "heaviest further chapter", value=max(further.values()) / 1e6, unit="MB",
                    budget=support.FURTHER_VISIT_BYTES / 1e6, note=max(further, key=further.get).removeprefix("book/"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
