"""Sphinx extension: lighter pages, without changing what a reader sees.

A reader's first chapter page loaded 3.3 MB and chapter 8 another 1.5 MB
(uncompressed, as ``benchmarks/bench_page_weight.py`` measures them); the
budget is 2.5 MB for a first visit and 1 MB of new bytes for each further
chapter. After the HTML build this extension:

1. loads the search index (``searchindex.js``, 0.57 MB) only on the search
   page. pydata-sphinx-theme adds it to every page for its search-as-you-type
   box, which the book leaves off (``search_as_you_type`` is False): the
   search box on every page sends the reader to ``search.html``, which loads
   the index itself.
2. stores each figure in ``_images/`` as an indexed-colour PNG of at most 256
   colours when that loses nothing visible: the figures are matplotlib plots
   of a few palette colours, so median-cut quantisation without dithering
   keeps every pixel within 12 levels of 255 but a few anti-aliased edge
   pixels, and the files shrink about 2.7 times. A figure it would change
   more (over 1 % of its pixels) is left as it is.
3. drops the ``<span>`` pygments wraps around a name, a punctuation mark or
   white space (``n``, ``p``, ``w``...) when the theme's stylesheet gives
   that token exactly the colour of the code around it in both colour
   schemes: a folded code cell of chapter 8 is 40 kB of text in 150 kB of
   markup.

4. draws the repository button with Font Awesome's solid branch icon instead of
   the GitHub mark, the only glyph of the brand font (0.12 MB) on any page; the
   solid font is loaded on every page already.

``_config.yml`` does the rest: MathJax loads as its parts without the 0.43 MB
context menu (``mathjax_path: mathjax/startup.js``, the loader's components
in ``mathjax3_config``).
"""

from __future__ import annotations

import io
import re
from pathlib import Path

GITHUB_MARK = '<i class="fab fa-github"></i>'
BRANCH_ICON = '<i class="fa-solid fa-code-branch"></i>'
SEARCH_INDEX = re.compile(r'[ \t]*<script src="[^"]*searchindex\.js(?:\?[^"]*)?"></script>\n?')
#: A pixel further than this from the original, on any channel (0-255), counts as changed.
PIXEL_TOLERANCE = 12
#: Most share of changed pixels a quantised figure may have.
CHANGED_SHARE = 0.01


def drop_search_index(html: str, is_search_page: bool) -> str:
    """``html`` without the search index's ``<script>``, unless it is the search page."""
    return html if is_search_page else SEARCH_INDEX.sub("", html)


def quantised_png(data: bytes) -> bytes | None:
    """``data`` as an indexed-colour PNG if that is smaller and looks the same; else None."""
    import numpy as np
    from PIL import Image

    with Image.open(io.BytesIO(data)) as image:
        image.load()
        if image.mode == "P":
            return None
        rgba = image.convert("RGBA")
    opaque = rgba.getextrema()[3][0] == 255
    source = rgba.convert("RGB") if opaque else rgba
    method = Image.Quantize.MEDIANCUT if opaque else Image.Quantize.FASTOCTREE
    quantised = source.quantize(256, method=method, dither=Image.Dither.NONE)
    before = np.asarray(source.convert("RGBA"), dtype=np.int16)
    after = np.asarray(quantised.convert("RGBA"), dtype=np.int16)
    if (np.abs(before - after).max(axis=2) > PIXEL_TOLERANCE).mean() > CHANGED_SHARE:
        return None
    output = io.BytesIO()
    quantised.save(output, "PNG", optimize=True)
    return output.getvalue() if output.tell() < len(data) else None


def plain_token_classes(pygments_css: str) -> set[str]:
    """Pygments token classes coloured exactly like the code around them, in every colour scheme."""
    schemes = set(re.findall(r'html\[data-theme="(\w+)"\]', pygments_css)) or {""}
    plain = None
    for scheme in schemes:
        prefix = rf'html\[data-theme="{scheme}"\] ' if scheme else ""
        base = re.search(prefix + r"\.highlight \{[^}]*?color: (#[0-9A-Fa-f]+)", pygments_css)
        if not base:
            return set()
        rules = dict(re.findall(prefix + r"\.highlight \.([\w-]+) \{ ([^}]*?) \}", pygments_css))
        same = {token for token, body in rules.items() if body.strip().rstrip(";") == f"color: {base.group(1)}"}
        plain = same if plain is None else plain & same
    return plain or set()


def unwrap_plain_tokens(html: str, classes: set[str]) -> str:
    if not classes:
        return html
    pattern = re.compile(r'<span class="(?:' + "|".join(map(re.escape, sorted(classes))) + r')">([^<]*)</span>')
    return pattern.sub(r"\1", html)


def lighten(app, exception):
    if exception is not None or app.builder.format != "html":
        return
    out = Path(app.outdir)
    css = out / "_static" / "pygments.css"
    plain = plain_token_classes(css.read_text()) if css.exists() else set()
    for page in out.rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        lighter = unwrap_plain_tokens(drop_search_index(text, page.name == "search.html"), plain)
        lighter = lighter.replace(GITHUB_MARK, BRANCH_ICON)
        if lighter != text:
            page.write_text(lighter, encoding="utf-8")
    for figure in (out / "_images").glob("*.png"):
        smaller = quantised_png(figure.read_bytes())
        if smaller is not None:
            figure.write_bytes(smaller)


def setup(app):
    # After pydata-sphinx-theme's own build-finished handler, which rewrites pygments.css
    # with its light and dark colours (read here to find the plain tokens).
    app.connect("build-finished", lighten, priority=900)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
