"""Sphinx extension: the book's panels answer their controls without a kernel.

While the book builds, this extension sets ``INTERCONNECT_LAB_STATIC_PANELS=1``
in the environment, which the notebook kernels inherit: a panel displayed in a
notebook then evaluates its model over a grid of control values and displays
an HTML panel holding the results (``interconnect_lab/widgets/static.py``),
instead of its ipywidgets. On every page that has such a panel, this
extension adds the renderer (``static/static-panels.js`` and ``.css``, copied
to ``_static/``) and Chart.js (``offline/chartjs/``, vendored by
``tools/vendor_js.py``). Chart.js is loaded before require.js (priority 200
against the widgets' 500): its UMD bundle registers as an anonymous AMD
module when require.js is already on the page, which require.js rejects.
"""

from __future__ import annotations

import os
from pathlib import Path

#: Must equal ``interconnect_lab.widgets.static.ENV`` (tests/test_static_panels.py checks it).
ENV = "INTERCONNECT_LAB_STATIC_PANELS"
STATIC = Path(__file__).resolve().parent / "static"
CHART_JS = "chartjs/chart.umd.min.js"
MARKER = 'class="il-static-panel"'


def add_static_path(app, config):
    if str(STATIC) not in config.html_static_path:
        config.html_static_path.append(str(STATIC))


def add_assets(app, pagename, templatename, context, doctree):
    if MARKER not in (context.get("body") or ""):
        return
    app.add_js_file(CHART_JS, priority=200)
    app.add_js_file("static-panels.js", priority=600)
    app.add_css_file("static-panels.css")


def setup(app):
    os.environ[ENV] = "1"
    app.connect("config-inited", add_static_path)
    app.connect("html-page-context", add_assets)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
