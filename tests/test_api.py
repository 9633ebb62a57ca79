"""One table of the public API (``interconnect_lab/_api.py``) holds every ``__all__``, the API
appendix and the docstrings in agreement (as SimPy checks its documentation against ``__all__``)."""

import importlib
import inspect
import pathlib
import pkgutil
import re

import pytest

import interconnect_lab
from interconnect_lab._api import MODULES, TOP_LEVEL
from interconnect_lab._deprecation import MOVED_MODULES

ROOT = pathlib.Path(__file__).resolve().parent.parent
API_PAGE = ROOT / "book" / "appendices" / "api.md"


def every_module():
    """Every module of the library but the deprecated aliases of moved ones."""
    names = ["interconnect_lab"]
    for info in pkgutil.walk_packages(interconnect_lab.__path__, "interconnect_lab."):
        if info.name not in MOVED_MODULES and not info.name.endswith("__main__"):
            names.append(info.name)
    return names


@pytest.mark.parametrize("module", sorted(MODULES))
def test_every_public_module_exports_exactly_its_row_of_the_table(module):
    exported = importlib.import_module(module).__all__
    _, names = MODULES[module]
    assert len(set(exported)) == len(exported), f"{module}.__all__ lists a name twice"
    assert len(set(names)) == len(names), f"the table lists a name of {module} twice"
    missing, extra = sorted(set(names) - set(exported)), sorted(set(exported) - set(names))
    assert not missing and not extra, (f"{module}: in the table but not in __all__: {missing}; "
                                       f"in __all__ but not in the table: {extra}")


def test_every_row_has_a_one_line_purpose():
    for module, (purpose, _) in MODULES.items():
        assert purpose.strip() and "\n" not in purpose, module


@pytest.mark.parametrize("module", every_module())
def test_every_name_in_every_all_exists(module):
    namespace = importlib.import_module(module)
    missing = [name for name in getattr(namespace, "__all__", ()) if not hasattr(namespace, name)]
    assert not missing, f"{module}.__all__ names what it does not hold: {missing}"


def test_the_package_offers_what_the_table_lists():
    assert interconnect_lab.__all__ == [*TOP_LEVEL, *(name for names in TOP_LEVEL.values() for name in names)]
    for module, names in TOP_LEVEL.items():
        assert f"interconnect_lab.{module}" in MODULES, module
        exported = set(MODULES[f"interconnect_lab.{module}"][1])
        assert set(names) <= exported, f"the top level re-exports from {module} what it does not export"


def documented_modules(text):
    """Modules the API page documents: the targets of its ``automodule`` directives."""
    return re.findall(r"^\.\. automodule:: (\S+)\s*$", text, flags=re.MULTILINE)


def test_the_api_appendix_documents_exactly_the_public_modules():
    documented = documented_modules(API_PAGE.read_text(encoding="utf-8"))
    assert len(set(documented)) == len(documented), "a module is documented twice"
    missing, extra = sorted(set(MODULES) - set(documented)), sorted(set(documented) - set(MODULES))
    assert not missing and not extra, (f"{API_PAGE.name}: public modules not documented: {missing}; "
                                       f"documented but not in the table: {extra}")


def test_the_appendix_parser_reads_directives():
    page = ".. automodule:: interconnect_lab.units\n   :members: per_direction\n\n.. automodule:: a.b\n"
    assert documented_modules(page) == ["interconnect_lab.units", "a.b"]


def parameters_documented(docstring):
    """Names the numpydoc ``Parameters`` (or ``Other Parameters``) section of a docstring describes.

    A line at the section's indentation names one or more parameters before `` : ``
    (``a, b : float``, or ``a, b :`` with the type left to another function); a line
    without a type names one parameter.
    """
    names = set()
    lines = inspect.cleandoc(docstring or "").splitlines()
    section = None
    for line, underline in zip(lines, [*lines[1:], ""]):
        if re.fullmatch(r"-{3,}", underline.strip()) and line.strip():
            section = line.strip()
            continue
        if section in ("Parameters", "Other Parameters") and line.strip() and not line[0].isspace() \
                and not re.fullmatch(r"-{3,}", line.strip()):
            names |= {part.strip().lstrip("*") for part in re.split(r" :( |$)", line)[0].split(",")}
    return names


def test_the_docstring_parser_reads_numpydoc():
    doc = """Summary.

    Parameters
    ----------
    a, b : float
        Two [s].
    c
        One.
    e, f :
        As for another function.

    Returns
    -------
    d : float
    """
    assert parameters_documented(doc) == {"a", "b", "c", "e", "f"}


def public_functions():
    seen = {}
    for module, (_, names) in MODULES.items():
        namespace = importlib.import_module(module)
        for name in names:
            value = getattr(namespace, name)
            if inspect.isfunction(value) and id(value) not in seen:
                seen[id(value)] = (f"{module}.{name}", value)
    return sorted(seen.values(), key=lambda item: item[0])


@pytest.mark.parametrize(("name", "function"), public_functions(), ids=lambda value: value
                         if isinstance(value, str) else "")
def test_every_public_parameter_is_documented(name, function):
    parameters = [p.name for p in inspect.signature(function).parameters.values()
                  if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]
    missing = [p for p in parameters if p not in parameters_documented(function.__doc__)]
    assert not missing, f"{name}: parameters missing from its docstring's Parameters section: {missing}"


def test_no_docstring_holds_a_control_character():
    # "\alpha" in a docstring that is not a raw string is a bell character and "alpha": the API
    # page's maths then fails to typeset (the book build does not warn).
    import importlib
    import pkgutil
    import warnings

    import interconnect_lab

    bad = []
    for info in pkgutil.walk_packages(interconnect_lab.__path__, "interconnect_lab."):
        if ".widgets" in info.name:
            continue   # needs ipywidgets; its docstrings hold no maths
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)   # the moved modules' aliases
            module = importlib.import_module(info.name)
        objects = [module, *vars(module).values()]
        objects += [member for obj in list(objects) if isinstance(obj, type) for member in vars(obj).values()]
        for obj in objects:
            doc = getattr(obj, "__doc__", None)
            if isinstance(doc, str) and any(ord(c) < 32 and c not in "\n\t" for c in doc):
                bad.append(f"{info.name}: {getattr(obj, '__qualname__', getattr(obj, '__name__', obj))}")
    assert not bad, f"docstrings with control characters (write them as r\"\"\"...\"\"\"): {sorted(set(bad))}"
