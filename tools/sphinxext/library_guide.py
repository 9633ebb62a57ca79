"""Sphinx extension for the PDF: a short guide to the library, generated from its public modules.

The HTML book's API appendix (``book/appendices/api.md``) documents every
public name with autodoc; printed, that is some 300 pages of signatures and
data values. The PDF prints ``book/appendices/library_guide.md`` in its place,
whose ``{library-guide}`` directive writes, for each public module, what it
is for (its docstring's first line) and its main functions and classes (each
with its docstring's first line). The list comes from the library at build
time, so the guide cannot drift from it:

- the modules are those ``import interconnect_lab`` offers, from the table of
  public modules ``interconnect_lab._api`` (``TOP_LEVEL``) when the library has
  one, else the modules named in ``interconnect_lab.__all__``; deprecated
  aliases (``_deprecation.MOVED_MODULES``) are left out;
- a module's main names are those the package re-exports from it, else its
  public functions, else its classes; at most ``MAX_NAMES`` each, with the
  count of the rest and the modules inside a package.

``guide_markdown()`` returns the generated text (MyST Markdown), for tests and
for reading without a build.
"""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import pkgutil
import re

from docutils import nodes
from docutils.statemachine import StringList
from sphinx.util.docutils import SphinxDirective

PACKAGE = "interconnect_lab"
#: Names listed per module; the online reference has the rest.
MAX_NAMES = 10
#: Subpackages listed by their modules' purpose only (figures and panels), after the model.
PRESENTATION = ("plotting", "widgets")


#: A reST role in a docstring (``:func:`~pkg.name```), printed as code: the guide links nowhere.
ROLE = re.compile(r":[a-z]+(?::[a-z]+)?:`~?([^`]+)`")


def first_line(obj) -> str:
    """The docstring's summary (its first paragraph) on one line, in Markdown; empty if none."""
    doc = inspect.getdoc(obj) or ""
    summary = " ".join(doc.strip().split("\n\n")[0].split())
    return ROLE.sub(lambda match: f"`{match.group(1).split('.')[-1]}`", summary)


def moved_modules() -> set[str]:
    """Old module paths kept for one release as deprecated aliases (``_deprecation.MOVED_MODULES``)."""
    try:
        deprecation = importlib.import_module(f"{PACKAGE}._deprecation")
    except ModuleNotFoundError:
        return set()
    return {name.removeprefix(f"{PACKAGE}.") for name in getattr(deprecation, "MOVED_MODULES", {})}


def api_table():
    """The table of public modules, ``interconnect_lab._api``, or None where the library has none.

    It holds ``MODULES`` (``"interconnect_lab.x"`` -> (purpose, public names)) and
    ``TOP_LEVEL`` (the model modules ``import interconnect_lab`` offers -> the names it
    re-exports from each).
    """
    spec = importlib.util.find_spec(f"{PACKAGE}._api")
    package = importlib.import_module(PACKAGE)
    # Only the table of this copy of the library (an editable install may point elsewhere).
    if spec is None or not any(str(spec.origin).startswith(folder) for folder in package.__path__):
        return None
    return importlib.import_module(f"{PACKAGE}._api")


def public_modules() -> list[str]:
    """The library's public model modules, in the order the package lists them."""
    package = importlib.import_module(PACKAGE)
    api = api_table()
    if api is not None and getattr(api, "TOP_LEVEL", None):
        names = list(api.TOP_LEVEL)
    else:
        submodules = set(getattr(package, "_SUBMODULES", ()))
        names = [name for name in package.__all__ if name in submodules or _is_module(package, name)]
    return [name for name in names if name not in PRESENTATION and name not in moved_modules()]


def _is_module(package, name) -> bool:
    try:
        return inspect.ismodule(getattr(package, name))
    except AttributeError:
        return False


def _public_names(module_name: str, module) -> list[str]:
    api = api_table()
    row = (getattr(api, "MODULES", None) or {}).get(f"{PACKAGE}.{module_name}") if api else None
    if row:
        return list(row[1])
    return list(getattr(module, "__all__", None) or [name for name in vars(module) if not name.startswith("_")])


def _exported(module_name: str) -> set[str]:
    api = api_table()
    if api is not None and getattr(api, "TOP_LEVEL", None):
        return set(api.TOP_LEVEL.get(module_name, ()))
    return set((getattr(importlib.import_module(PACKAGE), "_EXPORTS", {}) or {}).get(module_name, ()))


def submodules(module_name: str) -> list[str]:
    """The public modules inside a model package (``published.runs``, ...), by their short names.

    Only the table of public modules says which are public; without it, none are listed.
    """
    prefix = f"{module_name}."
    api = api_table()
    names = [name.removeprefix(f"{PACKAGE}.") for name in (getattr(api, "MODULES", None) or {})]
    moved = moved_modules()
    return [name.removeprefix(prefix) for name in names
            if name.startswith(prefix) and "." not in name.removeprefix(prefix) and name not in moved]


def main_names(module_name: str) -> tuple[list[str], int]:
    """A module's main public names (at most ``MAX_NAMES``) and how many public names it has in all."""
    module = importlib.import_module(f"{PACKAGE}.{module_name}")
    public = _public_names(module_name, module)
    exported = _exported(module_name)
    if exported:
        chosen = [name for name in public if name in exported]
        chosen += sorted(exported - set(chosen))
    else:
        objects = {name: getattr(module, name, None) for name in public}
        chosen = [name for name, obj in objects.items() if inspect.isfunction(obj)]
        if not chosen:
            chosen = [name for name, obj in objects.items() if inspect.isclass(obj)]
    # Functions first (what a reader calls), then the classes they return.
    chosen.sort(key=lambda name: inspect.isclass(getattr(module, name, None)))
    return chosen[:MAX_NAMES], len(public)


def _call(module, name) -> str:
    obj = getattr(module, name, None)
    return f"{name}()" if callable(obj) and not inspect.isclass(obj) else name


def module_section(module_name: str) -> str:
    module = importlib.import_module(f"{PACKAGE}.{module_name}")
    names, total = main_names(module_name)
    lines = [f"## `{module_name}`", "", first_line(module) or "(no description)", ""]
    for name in names:
        summary = first_line(getattr(module, name, None))
        lines.append(f"- `{_call(module, name)}`" + (f": {summary}" if summary else ""))
    inside = submodules(module_name)
    if inside:
        lines += ["", f"Its modules: {', '.join(f'`{name}`' for name in inside)}."]
    others = total - len(names)
    if others > 0:
        lines += ["", f"*{others} more public name{'s' if others > 1 else ''}: see the online reference.*"]
    return "\n".join(lines) + "\n"


def presentation_section() -> str:
    lines = ["## Figures and panels", "",
             "Import these explicitly; they need matplotlib and ipywidgets, which the model does not. "
             "One module per concept, named like the model module it draws:", ""]
    for subpackage in PRESENTATION:
        try:
            package = importlib.import_module(f"{PACKAGE}.{subpackage}")
        except ModuleNotFoundError:
            continue
        modules = submodules(subpackage) if api_table() is not None else [
            info.name for info in pkgutil.iter_modules(package.__path__)
            if not info.name.startswith("_") and f"{subpackage}.{info.name}" not in moved_modules()]
        lines.append(f"- `{subpackage}` ({first_line(package).rstrip('.')}): "
                     + ", ".join(f"`{name}`" for name in modules) + ".")
    return "\n".join(lines) + "\n"


def guide_markdown() -> str:
    """The generated part of the guide: one section per public module, then figures and panels."""
    return "\n".join([*(module_section(name) for name in public_modules()), presentation_section()])


#: The HTML book's API appendix, which the PDF replaces by the guide.
API_PAGE = "book/appendices/api"
GUIDE_PAGE = "book/appendices/library_guide"


def link_api_page_to_guide(app, env, node, contnode):
    """Resolve ``{doc}`` links to the API appendix, which the PDF leaves out, to the guide."""
    if node.get("reftype") != "doc" or GUIDE_PAGE not in env.titles:
        return None
    from posixpath import dirname, join, normpath
    target = node.get("reftarget", "")
    if not target.startswith("/"):
        target = join(dirname(node.get("refdoc", "")), target)
    if normpath(target.lstrip("/")) != API_PAGE:
        return None
    from sphinx.util.nodes import make_refnode
    text = env.titles[GUIDE_PAGE].astext() if not node.get("refexplicit") else contnode.astext()
    return make_refnode(app.builder, node["refdoc"], GUIDE_PAGE, "", nodes.inline(text, text))


class LibraryGuide(SphinxDirective):
    has_content = False

    def run(self):
        container = nodes.section()
        container.document = self.state.document
        self.state.nested_parse(StringList(guide_markdown().splitlines()), self.content_offset, container,
                                match_titles=True)
        return container.children


def setup(app):
    app.add_directive("library-guide", LibraryGuide)
    app.connect("missing-reference", link_api_page_to_guide)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
