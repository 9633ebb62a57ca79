"""What every catalog entry shares: validation of its fields and sources, tables and look-up by name."""

from __future__ import annotations

from types import MappingProxyType

from .._validation import check_integer, check_number
from ..sources import Source


# Validation helpers -------------------------------------------------------------

def _check_sources(entry):
    sources = entry.sources
    if isinstance(sources, Source):
        sources = (sources,)
    if isinstance(sources, list):
        sources = tuple(sources)
    if not isinstance(sources, tuple) or not sources or not all(isinstance(s, Source) for s in sources):
        raise ValueError(
            f"{type(entry).__name__} {entry.name!r} needs at least one Source in `sources`: "
            "every real-world number in the catalog says where it comes from"
        )
    object.__setattr__(entry, "sources", sources)


def _check_text(entry, *fields, optional=()):
    for field in fields:
        value = getattr(entry, field)
        if value is None and field in optional:
            continue
        if not isinstance(value, str) or not value.strip():
            raise TypeError(
                f"{type(entry).__name__}.{field} must be a non-empty string, got {value!r}"
            )


def _check_member(entry, field, choices):
    value = getattr(entry, field)
    if value not in choices:
        listed = ", ".join(repr(c) for c in choices)
        raise ValueError(
            f"{type(entry).__name__}.{field} = {value!r} is not valid: it must be one of {listed}"
        )


def _check_positive_fields(entry, fields_and_units, *, allow_none=()):
    for field, unit in fields_and_units:
        value = getattr(entry, field)
        if value is None and field in allow_none:
            continue
        checked = check_number(f"{type(entry).__name__}.{field}", value, unit=unit,
                               minimum=0, min_inclusive=False)
        object.__setattr__(entry, field, checked)


def _check_optional_integers(entry, fields, *, minimum):
    for field in fields:
        value = getattr(entry, field)
        if value is not None:
            object.__setattr__(entry, field, check_integer(
                f"{type(entry).__name__}.{field}", value, minimum=minimum))


# Tables and look-up ----------------------------------------------------------------

def _table(entries):
    table = {}
    for entry in entries:
        if entry.name in table:
            raise ValueError(f"duplicate catalog name {entry.name!r}")
        table[entry.name] = entry
    return MappingProxyType(table)

