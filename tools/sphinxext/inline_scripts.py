"""Sphinx extension: each inline ``<script>`` once per page.

Sphinx 7.4 adds an inline script (``app.add_js_file(None, body=...)``)
registered after the builder starts twice: once as filename ``None`` and once
as ``''``, which do not compare equal. sphinx-thebe's inline script declares
``const THEBE_JS_URL``, so the second copy throws "Identifier 'THEBE_JS_URL'
has already been declared" on every page. This drops the repeats.
"""

from __future__ import annotations


def _key(script):
    return (getattr(script, "filename", script) or "",
            tuple(sorted(getattr(script, "attributes", {}).items())))


def dedupe_scripts(app, pagename, templatename, context, doctree):
    scripts = context.get("script_files")
    if not scripts:
        return
    seen, unique = set(), []
    for script in scripts:
        key = _key(script)
        if key not in seen:
            seen.add(key)
            unique.append(script)
    scripts[:] = unique


def setup(app):
    # After the other extensions' handlers, which may add scripts to the page.
    app.connect("html-page-context", dedupe_scripts, priority=900)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
