"""Fixtures for the browser tests: the built book, its server, Chromium, JupyterLab.

The book is read from ``$BOOK_BUILD_DIR/_build/html`` (``tools/check.py`` sets
it after its build step); without BOOK_BUILD_DIR the book is built into a
temporary folder first. A failing test leaves a screenshot and the page's
console log in ``test-artifacts/browser/`` and prints their paths.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

import support  # noqa: E402

playwright_api = pytest.importorskip("playwright.sync_api")

_ARTEFACTS_SEEN: list[str] = []


@pytest.fixture(scope="session")
def book_html(tmp_path_factory) -> Path:
    """The rendered book's HTML folder."""
    configured = os.environ.get("BOOK_BUILD_DIR")
    if configured:
        html = Path(configured) / "_build" / "html"
        if not (html / "index.html").exists():
            pytest.fail(f"BOOK_BUILD_DIR={configured} holds no built book ({html}/index.html): "
                        "build it first (tools/check.py does)")
        return html
    build_dir = tmp_path_factory.mktemp("book")
    jupyter_book = Path(sys.executable).parent / "jupyter-book"
    result = subprocess.run([str(jupyter_book), "build", str(support.ROOT), "--path-output", str(build_dir),
                             "-W", "-n", "--keep-going"], capture_output=True, text=True)
    html = build_dir / "_build" / "html"
    if not (html / "index.html").exists():
        pytest.fail(f"the book did not build:\n{result.stdout[-3000:]}\n{result.stderr[-3000:]}")
    return html


@pytest.fixture(scope="session")
def book_url(book_html):
    with support.static_server(book_html) as url:
        yield url


@pytest.fixture(scope="session")
def browser():
    with playwright_api.sync_playwright() as playwright:
        chromium = support.launch_chromium(playwright)
        yield chromium
        chromium.close()


@pytest.fixture(scope="session")
def lab(tmp_path_factory):
    """One JupyterLab server for every notebook test, stopped at the end."""
    with support.jupyterlab_server(tmp_path_factory.mktemp("jupyterlab")) as server:
        yield server


@pytest.fixture
def page_log():
    return support.PageLog()


@pytest.fixture
def page(request, browser, page_log):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.set_default_timeout(30_000)
    support.watch(page, page_log)
    request.node._browser = (page, page_log)
    yield page
    support.shutdown_kernel(page)  # a JupyterLab page's kernel, after any failure screenshot
    context.close()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if report.when != "call" or not report.failed or not hasattr(item, "_browser"):
        return
    page, log = item._browser
    support.ARTIFACTS.mkdir(parents=True, exist_ok=True)
    stem = re.sub(r"[^A-Za-z0-9_.-]+", "_", item.nodeid.split("::", 1)[-1])[:120]
    screenshot = support.ARTIFACTS / f"{stem}.png"
    console = support.ARTIFACTS / f"{stem}.console.log"
    try:
        page.screenshot(path=str(screenshot), full_page=True)
    except Exception as error:  # a crashed page still gets its log saved
        screenshot = f"(no screenshot: {error})"
    console.write_text("\n".join(log.console + ["", "problems:"] + log.problems()) + "\n")
    lines = [f"screenshot:  {screenshot}", f"console log: {console}"]
    server = item.funcargs.get("lab")
    if server is not None:
        copy = support.ARTIFACTS / "jupyterlab-server.log"
        shutil.copyfile(server.log_path, copy)
        lines.append(f"server log:  {copy}")
    report.sections.append(("browser artefacts", "\n".join(lines)))
    _ARTEFACTS_SEEN.extend(f"{item.nodeid}: {line}" for line in lines)


def pytest_terminal_summary(terminalreporter):
    if _ARTEFACTS_SEEN:
        terminalreporter.section("browser artefacts (screenshots and console logs)")
        for line in _ARTEFACTS_SEEN:
            terminalreporter.write_line(line)
