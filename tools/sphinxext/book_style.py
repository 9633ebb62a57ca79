"""Sphinx extension: the book's own look on every page.

- its stylesheet (``static/book.css``): tables one size smaller than the prose;
  in the dark colour scheme, figures drawn as their dark variant (see the
  stylesheet);
- one search box per page: pydata-sphinx-theme puts a search field in a header
  bar above the page when ``navbar_persistent`` is not set, and
  sphinx-book-theme has its own in the sidebar; the header's is dropped (the
  article header keeps a search button for narrow screens, where the sidebar
  is folded away);
- the logo (``_config.yml``'s ``logo``) with the book's title beside it.
"""

from __future__ import annotations

from static_panels import add_static_path


def theme_options(app, config):
    options = config.html_theme_options
    options["navbar_persistent"] = []
    options.setdefault("logo", {})
    options["logo"].setdefault("text", config.html_title or config.project)
    options["logo"].setdefault("alt_text", f"{config.html_title or config.project}: home")


def setup(app):
    app.connect("config-inited", add_static_path)
    app.connect("config-inited", theme_options)
    app.add_css_file("book.css")
    return {"parallel_read_safe": True, "parallel_write_safe": True}
