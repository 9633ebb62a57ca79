"""Sphinx extension: the theme's icons from its icon font, without Font Awesome's 1.5 MB script.

pydata-sphinx-theme (under sphinx-book-theme) loads two copies of Font Awesome
on every page: the icon font, through its stylesheet (``fa-solid-900.woff2``
and friends, about 0.3 MB, with every ``fa-*`` class), and
``_static/scripts/fontawesome.js`` (1.5 MB), which only swaps each ``<i
class="fa-...">`` for an inline SVG of the same icon, "so that users can add
custom icons". The book adds no custom icons, so the script is a third of a
chapter page's weight for nothing. After the build, this extension removes
its ``<script>`` tag from every page and the file (and its source map) from
``_static``; the icons are then drawn by the font the stylesheet already
loads (the browser tests check that the header's icons still have a size).

If a theme update renames the script, nothing is removed and the page-weight
rows of ``benchmarks/RESULTS.md`` show the script's weight again.
"""

from __future__ import annotations

import re
from pathlib import Path

SCRIPT = "scripts/fontawesome.js"
TAG = re.compile(r'[ \t]*<script defer src="[^"]*_static/scripts/fontawesome\.js(?:\?[^"]*)?"></script>\n?')


def strip_script(app, exception):
    if exception is not None or app.builder.format != "html":
        return
    out = Path(app.outdir)
    for page in out.rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        stripped = TAG.sub("", text)
        if stripped != text:
            page.write_text(stripped, encoding="utf-8")
    for name in (SCRIPT, SCRIPT + ".map", SCRIPT + ".LICENSE.txt"):
        (out / "_static" / name).unlink(missing_ok=True)


def setup(app):
    app.connect("build-finished", strip_script)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
