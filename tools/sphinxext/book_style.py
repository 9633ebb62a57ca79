"""Sphinx extension: the book's own stylesheet (``static/book.css``) on every page."""

from __future__ import annotations

from static_panels import add_static_path


def setup(app):
    app.connect("config-inited", add_static_path)
    app.add_css_file("book.css")
    return {"parallel_read_safe": True, "parallel_write_safe": True}
