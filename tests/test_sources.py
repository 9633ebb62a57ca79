"""The catalog: every entry sourced, validated and looked up by name."""

import pytest

from interconnect_lab import catalog
from interconnect_lab.sources import Source


def all_entries():
    """Every catalog table (a public mapping of name to entry), flattened; a mapping of plain numbers
    (catalog.DISTRIBUTION_VOLTS) is a constant, not a table."""
    for name in dir(catalog):
        table = getattr(catalog, name)
        if name.isupper() and hasattr(table, "values") and not all(isinstance(v, float) for v in table.values()):
            yield from table.values()


def test_catalog_is_not_empty():
    assert len(list(all_entries())) >= 2


def test_source_check_covers_every_table():
    tables = {name for name in dir(catalog) if name.isupper() and hasattr(getattr(catalog, name), "values")}
    assert {"GPUS", "LINKS", "SWITCHES", "NICS", "SYSTEMS", "MEMORY_TIERS", "HOSTS", "RACK_POWER"} <= tables
    kinds = {type(entry).__name__ for entry in all_entries()}
    assert kinds == {"GPU", "Link", "Switch", "NIC", "System", "MemoryTier", "ScaleUpFabric", "RoadmapItem", "Host",
                     "RackPower"}


@pytest.mark.parametrize("entry", list(all_entries()), ids=lambda e: e.name)
def test_every_entry_has_a_checkable_source(entry):
    assert entry.sources, f"{entry.name} has no source"
    for source in entry.sources:
        assert isinstance(source, Source)
        assert source.title and source.year and (source.url or source.doi)


def test_a_source_needs_an_address():
    with pytest.raises(ValueError, match="needs a url or a doi"):
        Source(title="A datasheet", year=2024)
