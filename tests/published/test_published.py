"""``interconnect_lab.published``: every published table carries its source, and its numbers are numbers.

The values themselves are checked where the model reproduces them (the tests of each model module);
here, what every table of every published module owes its reader.
"""

import dataclasses
import importlib
import math
import pkgutil

import pytest

from interconnect_lab import published
from interconnect_lab.sources import Source

MODULES = [importlib.import_module(info.name)
           for info in pkgutil.walk_packages(published.__path__, published.__name__ + ".")]


def entries(value):
    """The dataclass records in a published value (a record, or a table of them)."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return [value]
    if isinstance(value, (tuple, list)):
        return [item for element in value for item in entries(element)]
    if isinstance(value, dict) or hasattr(value, "values") and hasattr(value, "keys"):
        return [item for element in value.values() for item in entries(element)]
    return []


def records():
    found = {}
    for module in [published, *MODULES]:
        for name in getattr(module, "__all__", ()):
            for record in entries(getattr(module, name)):
                if not isinstance(record, Source):
                    found[id(record)] = (f"{module.__name__}.{name}", record)
    return list(found.values())


def test_every_module_is_reached():
    assert {m.__name__.rsplit(".", 1)[1] for m in MODULES} >= {
        "collectives", "fabrics", "gemm", "hosts", "inference", "latency", "moe", "power", "reliability", "runs",
        "training_runs"}
    assert len(records()) > 100


@pytest.mark.parametrize(("where", "record"), records(), ids=lambda value: value if isinstance(value, str) else "")
def test_every_record_names_a_source_and_holds_finite_numbers(where, record):
    sources = [getattr(record, field) for field in ("source", "sources") if hasattr(record, field)]
    flat = [s for item in sources for s in (item if isinstance(item, tuple) else (item,))]
    if hasattr(record, "source") or hasattr(record, "sources"):
        assert flat and all(isinstance(s, Source) for s in flat), f"{where}: {record!r} has no Source"
    for field in dataclasses.fields(record):
        value = getattr(record, field.name)
        if isinstance(value, float):
            assert math.isfinite(value), f"{where}.{field.name} = {value}"


def test_every_source_constant_says_where_to_find_it():
    for module in [published, *MODULES]:
        for name, value in vars(module).items():
            if isinstance(value, Source):
                assert value.title and value.year and (value.url or value.doi), f"{module.__name__}.{name}"
