"""Every public function of the fuzzed modules has a hostile-input case somewhere under tests/.

The cases live beside each module's own tests (a ``FUZZ_CASES`` list in ``tests/<area>/test_<module>.py``,
run by ``fuzzing.make_tests``); this test gathers them all.
"""

import importlib
import inspect
import pathlib

import pytest

from interconnect_lab import calibrate, fabric, inference, matmul, moe, roadmap, topology
from interconnect_lab.moe import models as moe_models

TESTS = pathlib.Path(__file__).resolve().parent

#: Modules whose every public function must have a case.
FUZZED = (moe, moe_models, inference, roadmap, matmul, calibrate, fabric, topology)


def fuzz_modules():
    """The test modules that hold fuzz cases, imported under the names pytest gives them."""
    found = []
    for path in sorted(TESTS.rglob("test_*.py")):
        if "browser" in path.parts or "FUZZ_CASES" not in path.read_text(encoding="utf-8"):
            continue
        name = ".".join(path.relative_to(TESTS).with_suffix("").parts)
        if path == pathlib.Path(__file__).resolve():
            continue
        found.append(importlib.import_module(name))
    return found


def covers(cases, wrapped, function):
    """A case calls the function, or its wrapper, or is named after it (one run through a wrapper)."""
    return any(case.function is function or case.function is wrapped.get(function)
               or case.name.split(" ", 1)[0] == f"{function.__module__.split('.')[1]}.{function.__name__}"
               for case in cases)


def test_every_public_function_of_the_fuzzed_modules_has_a_case():
    pytest.importorskip("hypothesis")
    modules = fuzz_modules()
    assert len(modules) > 20, [m.__name__ for m in modules]
    cases = [case for module in modules for case in module.FUZZ_CASES]
    wrapped = {}
    for module in modules:
        wrapped.update(getattr(module, "FUZZ_WRAPPED", {}))
    missing = sorted({f"{package.__name__}.{name}"
                      for package in FUZZED for name in package.__all__
                      if inspect.isfunction(function := getattr(package, name))
                      and not covers(cases, wrapped, function)})
    assert not missing, f"public functions without a fuzz case: {missing}"
