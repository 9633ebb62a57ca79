"""Modules and names that moved keep a deprecated alias for one release: it warns, and still works."""

import importlib
import sys

import pytest


def fresh_import(name):
    """Import ``name`` as if for the first time (a module warns only when it is first imported)."""
    sys.modules.pop(name, None)
    return importlib.import_module(name)


@pytest.mark.parametrize(("old", "new", "names"), [
    ("interconnect_lab.moe_models", "interconnect_lab.moe", ["MoEModel", "MOE_MODELS", "moe_model"]),
    ("interconnect_lab.collectives_reference", "interconnect_lab.collectives.reference",
     ["ReferenceRun", "ring_all_reduce", "run_collective"]),
])
def test_a_moved_module_warns_and_still_holds_its_names(old, new, names):
    with pytest.warns(DeprecationWarning, match=new.replace(".", r"\.")):
        module = fresh_import(old)
    replacement = importlib.import_module(new)
    for name in names:
        assert getattr(module, name) is getattr(replacement, name)


def test_nothing_in_the_library_imports_a_deprecated_module():
    import interconnect_lab  # noqa: F401

    for name in list(sys.modules):
        if name == "interconnect_lab.moe_models":
            del sys.modules[name]
    importlib.import_module("interconnect_lab.moe")
    assert "interconnect_lab.moe_models" not in sys.modules
