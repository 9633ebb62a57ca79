"""Modules and names that moved keep a deprecated alias for one release: it warns, and still works."""

import importlib
import pathlib
import re
import sys

import pytest

from interconnect_lab._deprecation import MOVED_MODULES

ROOT = pathlib.Path(__file__).resolve().parent.parent


def fresh_import(name):
    """Import ``name`` as if for the first time (a module warns only when it is first imported)."""
    sys.modules.pop(name, None)
    return importlib.import_module(name)


@pytest.mark.parametrize("old", sorted(MOVED_MODULES))
def test_a_moved_module_warns_and_still_holds_its_names(old):
    if old.startswith(("interconnect_lab.plotting", "interconnect_lab.widgets")):
        pytest.importorskip("matplotlib")
        pytest.importorskip("ipywidgets")
    with pytest.warns(DeprecationWarning, match=re.escape(MOVED_MODULES[old])):
        module = fresh_import(old)
    assert module.__all__
    missing = [name for name in module.__all__ if not hasattr(module, name)]
    assert not missing


def test_nothing_in_the_repository_imports_a_moved_module():
    """The library, the tests, the tools and the book use the new paths."""
    old_paths = sorted(MOVED_MODULES, key=len, reverse=True)
    patterns = [re.compile(r"\b" + re.escape(old) + r"\b") for old in old_paths]
    aliases = {ROOT / (old.replace(".", "/") + ".py") for old in MOVED_MODULES}
    found = []
    for folder in ("interconnect_lab", "tests", "tools", "benchmarks", "book"):
        for path in (ROOT / folder).rglob("*"):
            if path.suffix not in (".py", ".ipynb", ".md") or path in aliases or "_build" in path.parts \
                    or path.name in ("test_deprecations.py", "_deprecation.py"):
                continue
            text = path.read_text(encoding="utf-8")
            for pattern in patterns:
                if pattern.search(text):
                    found.append(f"{path.relative_to(ROOT)}: {pattern.pattern}")
    assert not found, found
