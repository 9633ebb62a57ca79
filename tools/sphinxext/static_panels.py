"""Sphinx extension: the book's panels answer their controls without a kernel.

While the book builds, this extension sets ``INTERCONNECT_LAB_STATIC_PANELS=1``
in the environment, which the notebook kernels inherit: a panel displayed in a
notebook then evaluates its model over a grid of control values and displays
an HTML panel holding the results (``interconnect_lab/widgets/static.py``),
instead of its ipywidgets. On every page that has such a panel, this
extension adds the renderer (``static/static-panels.js`` and ``.css``, copied
to ``_static/``) and
Chart.js (``offline/chartjs/``, vendored by ``tools/vendor_js.py``). Chart.js is loaded before require.js (priority 200
against the widgets' 500): its UMD bundle registers as an anonymous AMD
module when require.js is already on the page, which require.js rejects.

A page whose panels are all precomputed displays no widget view, yet MyST-NB
still embeds the notebook's widget state and loads require.js and the
widgets HTML manager (about 3.7 MB with its fonts). On a page without any
``application/vnd.jupyter.widget-view+json`` view, this extension drops them.
"""

from __future__ import annotations

import os
from pathlib import Path

#: Must equal ``interconnect_lab.widgets.static.ENV`` (tests/widgets/test_static.py checks it).
ENV = "INTERCONNECT_LAB_STATIC_PANELS"
STATIC = Path(__file__).resolve().parent / "static"
CHART_JS = "chartjs/chart.umd.min.js"
MARKER = 'class="il-static-panel"'
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"


def add_static_path(app, config):
    if str(STATIC) not in config.html_static_path:
        config.html_static_path.append(str(STATIC))


def add_assets(app, pagename, templatename, context, doctree):
    body = context.get("body") or ""
    if MARKER not in body:
        return
    if WIDGET_VIEW not in body:
        drop_widget_scripts(app, context)
    app.add_js_file(CHART_JS, priority=200)
    app.add_js_file("static-panels.js", priority=600)
    app.add_css_file("static-panels.css")


def drop_widget_scripts(app, context):
    """Remove the widget state and the widgets' scripts from a page that shows no widget view."""
    widget_files = set(app.config.nb_ipywidgets_js or ())
    scripts = context.get("script_files")
    if not scripts:
        return

    def is_widget_script(script):
        filename = getattr(script, "filename", script) or ""
        attributes = getattr(script, "attributes", {}) or {}
        # Sphinx stores a static file's name as "_static/<name>".
        return attributes.get("type") == WIDGET_STATE or filename.removeprefix("_static/") in widget_files

    scripts[:] = [script for script in scripts if not is_widget_script(script)]


def setup(app):
    os.environ[ENV] = "1"
    app.connect("config-inited", add_static_path)
    # After MyST-NB adds the page's widget scripts (500), before inline_scripts dedupes (900).
    app.connect("html-page-context", add_assets, priority=800)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
