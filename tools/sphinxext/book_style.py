"""Sphinx extension: the book's own look on every page.

- its stylesheet (``static/book.css``): tables one size smaller than the prose;
  in the dark colour scheme, figures drawn as their dark variant (see the
  stylesheet);
- one search box per page: pydata-sphinx-theme puts a search field in a header
  bar above the page when ``navbar_persistent`` is not set, and
  sphinx-book-theme has its own in the sidebar; the header's is dropped (the
  article header keeps a search button for narrow screens, where the sidebar
  is folded away);
- the logo (``_config.yml``'s ``logo``) with the book's title beside it;
- figures that stay readable on a phone: each figure image gets a least width
  of :data:`MIN_FIGURE_SCALE` times its own (``readable_figures``), so that a
  plot 700 pixels wide is never squeezed into a 360-pixel column, where its
  labels would be a few pixels tall; the stylesheet lets the figure's cell
  output scroll sideways instead.
"""

from __future__ import annotations

import re
from pathlib import Path

from static_panels import add_static_path

#: Least share of its own width a figure image is shown at: matplotlib's 11-point labels at the
#: figures' 100 dpi are 15 pixels tall, and stay 10 or more.
MIN_FIGURE_SCALE = 0.7
_FIGURE = re.compile(r'<img (?P<before>[^>]*?)src="(?P<src>[^"]*_images/(?P<name>[^"/]+\.png))"(?P<after>[^>]*?)\s*/?>')


def theme_options(app, config):
    options = config.html_theme_options
    options["navbar_persistent"] = []
    options.setdefault("logo", {})
    options["logo"].setdefault("text", config.html_title or config.project)
    options["logo"].setdefault("alt_text", f"{config.html_title or config.project}: home")


def readable_figures(html: str, widths: dict) -> str:
    """``html`` with a least width on every figure image whose width [px] ``widths`` knows, by file name.

    >>> readable_figures('<img alt="a plot" src="../_images/f.png" />', {"f.png": 700})
    '<img alt="a plot" src="../_images/f.png" style="min-width: 490px" />'
    """
    def least(match):
        width = widths.get(match["name"])
        if width is None or "min-width" in match[0]:
            return match[0]
        return (f'<img {match["before"]}src="{match["src"]}"{match["after"]} '
                f'style="min-width: {round(MIN_FIGURE_SCALE * width)}px" />')
    return _FIGURE.sub(least, html)


def figure_widths(images: Path) -> dict:
    """Width [px] of every PNG in the build's ``_images`` folder, by file name."""
    from PIL import Image

    widths = {}
    for path in images.glob("*.png"):
        with Image.open(path) as image:
            widths[path.name] = image.width
    return widths


def readable_pages(app, exception):
    if exception is not None or app.builder.format != "html":
        return
    out = Path(app.outdir)
    widths = figure_widths(out / "_images")
    for page in out.rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        readable = readable_figures(text, widths)
        if readable != text:
            page.write_text(readable, encoding="utf-8")


def setup(app):
    app.connect("config-inited", add_static_path)
    app.connect("config-inited", theme_options)
    app.add_css_file("book.css")
    app.connect("build-finished", readable_pages)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
