"""The catalog: every entry sourced, validated and looked up by name."""

import dataclasses

import pytest

from interconnect_lab import catalog
from interconnect_lab import units as u
from interconnect_lab.sources import Source


def all_entries():
    """Every catalog table (a public mapping of name to entry), flattened."""
    for name in dir(catalog):
        table = getattr(catalog, name)
        if name.isupper() and hasattr(table, "values"):
            yield from table.values()


def test_catalog_is_not_empty():
    assert len(list(all_entries())) >= 2


def test_source_check_covers_every_table():
    tables = {name for name in dir(catalog) if name.isupper() and hasattr(getattr(catalog, name), "values")}
    assert {"GPUS", "LINKS", "SWITCHES", "NICS", "SYSTEMS", "MEMORY_TIERS"} <= tables
    kinds = {type(entry).__name__ for entry in all_entries()}
    assert kinds == {"GPU", "Link", "Switch", "NIC", "System", "MemoryTier", "ScaleUpFabric", "RoadmapItem"}


@pytest.mark.parametrize("entry", list(all_entries()), ids=lambda e: e.name)
def test_every_entry_has_a_checkable_source(entry):
    assert entry.sources, f"{entry.name} has no source"
    for source in entry.sources:
        assert isinstance(source, Source)
        assert source.title and source.year and (source.url or source.doi)


def test_a_source_needs_an_address():
    with pytest.raises(ValueError, match="needs a url or a doi"):
        Source(title="A datasheet", year=2024)


def test_an_entry_needs_a_source():
    h100 = catalog.gpu("H100 SXM")
    with pytest.raises(ValueError, match="needs at least one Source"):
        dataclasses.replace(h100, sources=())


def test_what_if_variant_is_validated():
    h100 = catalog.gpu("H100 SXM")
    faster = dataclasses.replace(h100, name="H100 2x", bf16_flop_per_s=2 * h100.bf16_flop_per_s)
    assert faster.bf16_flop_per_s == 2 * h100.bf16_flop_per_s
    with pytest.raises(ValueError, match=r"GPU.bf16_flop_per_s = -1 FLOP/s is not valid"):
        dataclasses.replace(h100, bf16_flop_per_s=-1)


def test_unknown_name_lists_valid_names():
    with pytest.raises(ValueError, match=r"unknown GPU name 'H1000'.*'H100 SXM'"):
        catalog.gpu("H1000")


def test_fp8_is_twice_bf16_where_supported():
    # Tensor cores run FP8 at twice the BF16 rate: a sparse figure entered for one
    # precision but not the other would break this.
    for gpu in catalog.GPUS.values():
        if gpu.fp8_flop_per_s is not None:
            assert gpu.fp8_flop_per_s == pytest.approx(2 * gpu.bf16_flop_per_s, rel=0.01), gpu.name
