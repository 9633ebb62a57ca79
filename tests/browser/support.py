"""What the browser tests and the benchmarks share: Chromium, the servers, the page checks.

Everything here runs on 127.0.0.1 only. Chromium is Debian's (``/usr/bin/chromium``),
driven by Playwright without any browser download; every request that would
leave 127.0.0.1 is aborted and recorded, so the book and JupyterLab are tested
as they work offline.
"""

from __future__ import annotations

import contextlib
import functools
import http.server
import json
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.parse
import urllib.request
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BOOK = ROOT / "book"
ARTIFACTS = ROOT / "test-artifacts" / "browser"

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMIUM_FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run",
]
LOCAL_HOSTS = {"127.0.0.1"}


# --- The book's pages ---------------------------------------------------------------
def toc_documents(toc_path: Path = ROOT / "_toc.yml") -> list[str]:
    """Every document in the table of contents (``root`` first), as paths without suffix."""
    import yaml

    toc = yaml.safe_load(toc_path.read_text())
    documents = [toc["root"]]

    def walk(node):
        if isinstance(node, dict):
            if "file" in node:
                documents.append(node["file"])
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for item in node:
                walk(item)

    walk({k: v for k, v in toc.items() if k != "root"})
    return [d.removesuffix(".md").removesuffix(".ipynb") for d in documents]


def chapter_notebooks() -> list[Path]:
    """Every notebook in book/ (chapters and notebook appendices), in name order."""
    return sorted(p for p in BOOK.rglob("*.ipynb") if ".ipynb_checkpoints" not in p.parts)


def image_problem(data: bytes) -> str | None:
    """Why ``data`` is not a complete, non-empty image, or None if it is.

    Browsers draw a truncated PNG as far as it goes, with its full size, so
    the page alone cannot tell; decoding every pixel can.
    """
    import io

    from PIL import Image

    try:
        with Image.open(io.BytesIO(data)) as image:
            image.load()
            if image.width == 0 or image.height == 0:
                return "an empty image"
    except Exception as error:
        return f"not a complete image ({type(error).__name__}: {error})"
    return None


def data_url_bytes(src: str) -> bytes | None:
    """The bytes of a base64 ``data:`` URL, or None for any other URL."""
    import base64

    if not src.startswith("data:") or ";base64," not in src:
        return None
    return base64.b64decode(src.split(";base64,", 1)[1])


# --- Chromium -----------------------------------------------------------------------
def launch_chromium(playwright):
    return playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS, headless=True)


@dataclass
class PageLog:
    """What a page did that a test may object to."""

    console: list[str] = field(default_factory=list)      # every console message, for the artefact
    errors: list[str] = field(default_factory=list)       # console errors and uncaught exceptions
    failed_requests: list[str] = field(default_factory=list)
    external_requests: list[str] = field(default_factory=list)

    def problems(self) -> list[str]:
        return ([f"console error: {e}" for e in self.errors]
                + [f"failed request: {r}" for r in self.failed_requests]
                + [f"request leaving 127.0.0.1 (blocked): {r}" for r in self.external_requests])


def is_local(url: str) -> bool:
    parsed = urllib.parse.urlsplit(url)
    return parsed.scheme in {"data", "blob", "about"} or parsed.hostname in LOCAL_HOSTS


def watch(page, log: PageLog, *, ignore_failed=()) -> None:
    """Record console errors, failed requests and block every request that leaves 127.0.0.1."""

    def on_console(message):
        text = f"[{message.type}] {message.text}"
        log.console.append(text)
        if message.type == "error" and not message.text.startswith("Failed to load resource"):
            log.errors.append(message.text)  # failed loads are reported with their URL below

    def on_route(route):
        url = route.request.url
        if is_local(url):
            route.continue_()
        else:
            log.external_requests.append(url)
            route.abort("blockedbyclient")

    def on_failed(request):
        if is_local(request.url) and not any(re.search(p, request.url) for p in ignore_failed):
            log.failed_requests.append(f"{request.url} ({request.failure})")

    def on_response(response):
        if response.status >= 400 and not any(re.search(p, response.url) for p in ignore_failed):
            log.failed_requests.append(f"{response.url} (HTTP {response.status})")

    page.on("console", on_console)
    page.on("pageerror", lambda error: (log.errors.append(f"uncaught: {error}"),
                                        log.console.append(f"[pageerror] {error}")))
    page.on("requestfailed", on_failed)
    page.on("response", on_response)
    page.route("**/*", on_route)


# --- A static server for the built book -----------------------------------------------
class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@contextlib.contextmanager
def static_server(directory: Path):
    """Serve ``directory`` on 127.0.0.1 at a free port; yield the base URL."""
    handler = functools.partial(_QuietHandler, directory=str(directory))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}/"
    finally:
        server.shutdown()
        server.server_close()


# --- Links and anchors, from the rendered HTML ----------------------------------------
class _LinkParser(HTMLParser):
    def __init__(self):
        super().__init__()
        self.ids, self.links = set(), []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if attrs.get("id"):
            self.ids.add(attrs["id"])
        if tag == "a" and attrs.get("name"):
            self.ids.add(attrs["name"])
        if tag == "a" and attrs.get("href"):
            self.links.append(attrs["href"])


@functools.lru_cache(maxsize=None)
def parse_html(path: Path) -> _LinkParser:
    parser = _LinkParser()
    parser.feed(path.read_text(encoding="utf-8", errors="replace"))
    return parser


def broken_links(html_root: Path, page: Path) -> list[str]:
    """Internal links on ``page`` whose target file or anchor does not exist."""
    broken = []
    for href in parse_html(page).links:
        parsed = urllib.parse.urlsplit(href)
        if parsed.scheme or parsed.netloc or href.startswith(("mailto:", "javascript:")):
            continue  # external: launch buttons, the repository, licences
        path = urllib.parse.unquote(parsed.path)
        target = (page.parent / path).resolve() if path else page
        if target.is_dir():
            target = target / "index.html"
        if not target.is_relative_to(html_root.resolve()) or not target.exists():
            broken.append(f"{href}: no file {target}")
            continue
        fragment = urllib.parse.unquote(parsed.fragment)
        if fragment and target.suffix == ".html" and fragment not in parse_html(target).ids:
            broken.append(f"{href}: no anchor #{fragment} in {target.relative_to(html_root.resolve())}")
    return broken


# --- JupyterLab -----------------------------------------------------------------------
def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class LabServer:
    url: str            # base URL, ending in /
    token: str
    root_dir: Path      # served folder: a copy of book/ under book/
    log_path: Path
    process: subprocess.Popen

    def notebook_url(self, notebook: Path) -> str:
        relative = notebook.relative_to(BOOK).as_posix()
        return f"{self.url}lab/tree/book/{urllib.parse.quote(relative)}?reset&token={self.token}"


_LAB_SETTINGS = {
    # Never write the copies back while a test runs cells; no news, no update checks.
    "@jupyterlab/docmanager-extension/plugin.jupyterlab-settings": {"autosave": False},
    "@jupyterlab/apputils-extension/notification.jupyterlab-settings":
        {"checkForUpdates": False, "fetchNews": "false"},
    # Every cell in the DOM, so every slider can be found and moved.
    "@jupyterlab/notebook-extension/tracker.jupyterlab-settings": {"windowingMode": "none"},
}


@contextlib.contextmanager
def jupyterlab_server(workdir: Path, *, startup_timeout_s: float = 90.0):
    """A real JupyterLab server on 127.0.0.1, serving a copy of book/; stopped on exit.

    Configuration, data, runtime and settings live under ``workdir``, so the
    machine's own Jupyter setup neither helps nor hinders.
    """
    served = workdir / "served"
    shutil.copytree(BOOK, served / "book", ignore=shutil.ignore_patterns(".ipynb_checkpoints", "_build"))
    env = dict(os.environ)
    for name in ("JUPYTER_CONFIG_DIR", "JUPYTER_DATA_DIR", "JUPYTER_RUNTIME_DIR", "JUPYTERLAB_SETTINGS_DIR",
                 "JUPYTERLAB_WORKSPACES_DIR", "IPYTHONDIR"):
        env[name] = str(workdir / name.lower())
        Path(env[name]).mkdir(parents=True, exist_ok=True)
    for relative, settings in _LAB_SETTINGS.items():
        path = Path(env["JUPYTERLAB_SETTINGS_DIR"]) / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(settings))
    port, token = free_port(), secrets.token_hex(16)
    command = [
        sys.executable, "-m", "jupyterlab", "--no-browser",
        "--ServerApp.ip=127.0.0.1", f"--ServerApp.port={port}", "--ServerApp.port_retries=0",
        f"--IdentityProvider.token={token}", f"--ServerApp.root_dir={served}",
        "--LabApp.expose_app_in_browser=True", "--LabApp.extension_manager=readonly",
        "--LabApp.news_url=None", "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
    ]
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        command.append("--allow-root")
    log_path = workdir / "jupyterlab.log"
    with open(log_path, "wb") as log:
        process = subprocess.Popen(command, cwd=served, env=env, stdout=log, stderr=subprocess.STDOUT,
                                   start_new_session=True)
    server = LabServer(f"http://127.0.0.1:{port}/", token, served, log_path, process)
    try:
        deadline = time.monotonic() + startup_timeout_s
        while True:
            if process.poll() is not None:
                raise RuntimeError(f"JupyterLab exited with {process.returncode}; see {log_path}")
            try:
                with urllib.request.urlopen(f"{server.url}api/status?token={token}", timeout=2) as response:
                    if response.status == 200:
                        break
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"JupyterLab did not start within {startup_timeout_s:.0f} s; see {log_path}")
            time.sleep(0.25)
        yield server
    finally:
        _stop(process)


def _stop(process: subprocess.Popen) -> None:
    """Stop the server we started, then anything left in its process group (its kernels)."""
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)  # the server shuts its kernels down
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            pass
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.wait(timeout=5)


# JavaScript run in JupyterLab's page (window.jupyterapp exists with expose_app_in_browser).
JS_KERNEL_READY = """() => {
  const app = window.jupyterapp;
  const panel = app && app.shell.currentWidget;
  const context = panel && panel.sessionContext;
  const kernel = context && context.session && context.session.kernel;
  return Boolean(kernel && context.isReady && kernel.connectionStatus === 'connected'
                 && kernel.status === 'idle' && panel.content && panel.content.widgets);
}"""

JS_RUN_STATE = """() => {
  const panel = window.jupyterapp.shell.currentWidget;
  const kernel = panel.sessionContext.session.kernel;
  const cells = panel.content.widgets.filter(c => c.model.type === 'code');
  const outputs = cells.map(c => c.model.outputs.toJSON());
  const errors = [];
  cells.forEach((cell, i) => outputs[i].forEach(o => {
    if (o.output_type === 'error') errors.push(`cell ${i + 1}: ${o.ename}: ${o.evalue}`);
    if (o.output_type === 'stream' && o.name === 'stderr') errors.push(`cell ${i + 1} stderr: ${o.text}`);
  }));
  return {cells: cells.length, executed: cells.filter(c => c.model.executionCount !== null).length,
          idle: kernel.status === 'idle', errors: errors};
}"""

# Every slider with the output that depends on it: the nearest enclosing
# widget box that also holds an Output widget (a Panel, or an interact).
JS_SLIDERS = """() => {
  const sliders = Array.from(document.querySelectorAll('.jp-Notebook .widget-slider'));
  return sliders.map((slider, index) => {
    slider.dataset.testIndex = String(index);
    let root = slider.parentElement;
    while (root && !root.querySelector('.widget-output') && !root.classList.contains('jp-OutputArea-output')) {
      root = root.parentElement;
    }
    const label = slider.querySelector('.widget-label');
    const readout = slider.querySelector('.widget-readout');
    return {index: index, label: label ? label.textContent.trim() : `slider ${index + 1}`,
            hasOutput: Boolean(root && root.querySelector('.widget-output')),
            onRelease: slider.classList.contains('il-updates-on-release'),
            value: readout ? readout.innerText.trim() : null};
  });
}"""

# Arms a watcher on one slider's dependent output: resolves with the time
# from the key press to the moment both its text and its figure have changed.
JS_ARM_WATCH = """(index) => {
  const slider = document.querySelector(`.widget-slider[data-test-index="${index}"]`);
  let root = slider.parentElement;
  while (!root.querySelector('.widget-output')) root = root.parentElement;
  const text = () => Array.from(root.querySelectorAll('.widget-html-content, .widget-output'))
      .filter(el => !slider.contains(el)).map(el => el.innerText).join('\\n');
  const figure = () => Array.from(root.querySelectorAll('.widget-output img'))
      .map(img => img.src).join(' ');
  const before = {text: text(), figure: figure()};
  const watch = {pressed: null, changed: null, before: before};
  window.__sliderWatch = watch;
  slider.querySelector('.noUi-handle').addEventListener('keydown', () => {
    if (watch.pressed === null) watch.pressed = performance.now();
  }, {capture: true, once: true});
  const check = () => {
    const now = {text: text(), figure: figure()};
    const textChanged = before.text === '' || now.text !== before.text;
    const figureChanged = before.figure === '' || now.figure !== before.figure;
    if (watch.pressed !== null && watch.changed === null && textChanged && figureChanged) {
      watch.changed = performance.now();
      watch.after = now;
      observer.disconnect();
    }
  };
  const observer = new MutationObserver(check);
  observer.observe(root, {subtree: true, childList: true, attributes: true, characterData: true});
  return {hasText: before.text !== '', hasFigure: before.figure !== ''};
}"""

JS_WATCH_RESULT = """() => {
  const w = window.__sliderWatch;
  return {pressed: w.pressed, changed: w.changed,
          latency_ms: (w.pressed !== null && w.changed !== null) ? w.changed - w.pressed : null};
}"""


# The figures in one slider's panel, decoded: a figure that changed but does
# not load (broken PNG) counts as broken.
JS_PANEL_FIGURES = """async (index) => {
  const slider = document.querySelector(`.widget-slider[data-test-index="${index}"]`);
  let root = slider.parentElement;
  while (!root.querySelector('.widget-output')) root = root.parentElement;
  const images = Array.from(root.querySelectorAll('.widget-output img'));
  await Promise.all(images.map(img => img.decode().catch(() => null)));
  return images.map(img => ({loaded: img.complete && img.naturalWidth > 0,
                             width: img.getBoundingClientRect().width, src: img.getAttribute('src') || ''}));
}"""


def open_notebook(page, lab: LabServer, notebook: Path, *, timeout_ms: float = 90_000) -> float:
    """Open ``notebook`` in JupyterLab and wait for a connected, idle kernel; return seconds taken."""
    started = time.perf_counter()
    page.goto(lab.notebook_url(notebook), wait_until="domcontentloaded", timeout=timeout_ms)
    page.wait_for_function("() => window.jupyterapp !== undefined", timeout=timeout_ms)
    page.evaluate("() => window.jupyterapp.restored")
    page.wait_for_selector(".jp-Notebook-ExecutionIndicator[data-status='idle']", timeout=timeout_ms)
    # The indicator can read idle before the session's kernel is connected
    # (a Run All then does nothing): wait for the kernel itself.
    page.wait_for_function(JS_KERNEL_READY, timeout=timeout_ms, polling=100)
    return time.perf_counter() - started


def menu(page, top: str, item: str) -> None:
    page.locator(f".lm-MenuBar-itemLabel:text-is('{top}')").click()
    page.locator(f".lm-Menu-itemLabel:text-is('{item}')").click()


def run_all(page, *, timeout_ms: float = 120_000) -> dict:
    """Clear every output, then Run > Run All Cells; wait until every cell ran or one failed."""
    menu(page, "Edit", "Clear Outputs of All Cells")
    page.wait_for_function("() => window.jupyterapp.shell.currentWidget.content.widgets"
                           ".filter(c => c.model.type === 'code').every(c => c.model.executionCount === null)",
                           timeout=10_000)
    started = time.perf_counter()
    menu(page, "Run", "Run All Cells")
    page.wait_for_function(f"() => {{ const s = ({JS_RUN_STATE})(); "
                           "return s.idle && (s.executed === s.cells || s.errors.length > 0); }",
                           timeout=timeout_ms, polling=100)
    state = page.evaluate(JS_RUN_STATE)
    state["seconds"] = time.perf_counter() - started
    return state


def wait_kernel_idle(page, timeout_ms: float = 30_000) -> None:
    page.wait_for_function("() => window.jupyterapp.shell.currentWidget.sessionContext.session"
                           ".kernel.status === 'idle'", timeout=timeout_ms, polling=50)


@dataclass
class SliderMove:
    label: str
    key: str
    latency_ms: float | None
    value_before: str | None
    value_after: str | None
    has_text: bool
    has_figure: bool
    figures_ok: bool = True   # every figure in the panel loads and has a size after the move


def move_slider(page, slider: dict, key: str | None = None, *, timeout_ms: float = 15_000) -> SliderMove:
    """Press an arrow key on a slider's handle; wait until its text and figure change.

    ``key`` defaults to ArrowRight, or ArrowLeft when the slider is at its maximum.
    """
    armed = page.evaluate(JS_ARM_WATCH, slider["index"])
    selector = f".widget-slider[data-test-index='{slider['index']}']"
    handle = page.locator(f"{selector} .noUi-handle")
    readout = page.locator(f"{selector} .widget-readout")
    before = readout.inner_text().strip()
    if key is None:
        now, top = handle.get_attribute("aria-valuenow"), handle.get_attribute("aria-valuemax")
        at_max = now is not None and top is not None and float(now) >= float(top)
        key = "ArrowLeft" if at_max else "ArrowRight"
    handle.scroll_into_view_if_needed()
    handle.focus()
    handle.press(key)
    with contextlib.suppress(Exception):  # a timeout leaves latency None: the caller reports it
        page.wait_for_function("() => window.__sliderWatch.changed !== null", timeout=timeout_ms, polling="raf")
    latency = page.evaluate(JS_WATCH_RESULT)["latency_ms"]
    after = readout.inner_text().strip()
    wait_kernel_idle(page)
    figures = page.evaluate(JS_PANEL_FIGURES, slider["index"])
    figures_ok = all(figure_ok(f) for f in figures)
    return SliderMove(slider["label"], key, latency, before, after, armed["hasText"], armed["hasFigure"],
                      figures_ok)


def figure_ok(figure: dict) -> bool:
    """A figure the page loaded, with a size, and (when inline) a complete image."""
    data = data_url_bytes(figure["src"])
    return figure["loaded"] and figure["width"] > 0 and (data is None or image_problem(data) is None)


def shutdown_kernel(page) -> None:
    with contextlib.suppress(Exception):
        page.evaluate("() => window.jupyterapp.shell.currentWidget.sessionContext.shutdown()")


# --- Page weight ----------------------------------------------------------------------
#: Most bytes a reader's first chapter page may load, and each further chapter after it (issue 38).
FIRST_VISIT_BYTES = 2_500_000
FURTHER_VISIT_BYTES = 1_000_000

# Bytes that came over the network for the page so far (headers included; 0 for a cache hit).
JS_TRANSFERRED = """() => [...performance.getEntriesByType('navigation'), ...performance.getEntriesByType('resource')]
  .filter(e => e.name.startsWith(location.origin))
  .map(e => ({name: e.name.slice(location.origin.length), bytes: e.transferSize}))"""


def visit_weight(page, url: str) -> list[dict]:
    """Open ``url`` and scroll to the bottom, as a reader would; return what came over the network.

    Each entry is ``{"name", "bytes"}``. Scrolling through the page lets anything that
    loads on the way (a panel's renderer, MathJax's fonts) count; waiting for the network
    to go quiet at each step lets it finish.
    """
    page.goto(url, wait_until="networkidle")
    height = page.evaluate("() => document.documentElement.scrollHeight")
    viewport = page.viewport_size["height"] if page.viewport_size else 900
    for top in range(0, height + viewport, viewport):
        page.evaluate(f"() => window.scrollTo(0, {top})")
        page.wait_for_timeout(60)
    page.wait_for_load_state("networkidle")
    page.wait_for_timeout(300)
    return page.evaluate(JS_TRANSFERRED)


def chapter_weights(browser, base_url: str, documents: list[str]) -> tuple[dict, dict]:
    """Bytes of each chapter as a reader's first page (a fresh browser profile) and as a further
    page (the chapters opened in order, in one profile, so the shared files are cached)."""
    first, further = {}, {}
    for document in documents:
        context = browser.new_context(viewport={"width": 1366, "height": 900})
        page = context.new_page()
        first[document] = sum(e["bytes"] for e in visit_weight(page, f"{base_url}{document}.html"))
        context.close()
    context = browser.new_context(viewport={"width": 1366, "height": 900})
    page = context.new_page()
    previous = None
    for document in documents:
        entries = visit_weight(page, f"{base_url}{document}.html")
        if previous is not None:
            further[document] = sum(e["bytes"] for e in entries)
        previous = document
    context.close()
    return first, further
