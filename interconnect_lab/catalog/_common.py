"""What every catalog entry shares: validation of its fields and sources, its status, tables and look-up by name.

Status
------
One convention, four fields, for every entry that says where a product or a
standard stands (:func:`check_status` validates them on construction):

``status``
    One of :data:`STATUSES`: ``"shipping"`` (a reader can buy it),
    ``"sampling"`` (samples or early units with some customers, no volume),
    ``"announced"`` (a vendor has announced it; nothing ships),
    ``"specification"`` (an open specification is published; no product
    implementing it ships) or ``"in development"`` (a standard not yet approved).
``status_date``
    When it reached that status (ISO, at the source's precision).
``as_of``
    When the status was last checked against its sources (ISO).
``expected_by``
    For a *forward-looking* status (every one but ``"shipping"``): the date by
    which the vendor or body says the next step (shipping, products, approval)
    will happen, or, where none says, a date at which the entry must be
    checked again (its source then says so and is marked ``estimate=True``).
    ``tests/catalog/test_currency.py`` fails once that date has passed, naming the
    entry, so that a stale status cannot quietly stay in the book.

Dates compare by the periods they name: ``"2026"`` runs to 31 December 2026
and ``"2026-07"`` to 31 July (:func:`period`).
"""

from __future__ import annotations

import calendar
import datetime
import re
from types import MappingProxyType

from .._validation import check_integer, check_number
from ..sources import Source


# Validation helpers -------------------------------------------------------------

def check_sources(entry):
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


def check_text(entry, *fields, optional=()):
    for field in fields:
        value = getattr(entry, field)
        if value is None and field in optional:
            continue
        if not isinstance(value, str) or not value.strip():
            raise TypeError(
                f"{type(entry).__name__}.{field} must be a non-empty string, got {value!r}"
            )


def check_member(entry, field, choices):
    value = getattr(entry, field)
    if value not in choices:
        listed = ", ".join(repr(c) for c in choices)
        raise ValueError(
            f"{type(entry).__name__}.{field} = {value!r} is not valid: it must be one of {listed}"
        )


def check_positive_fields(entry, fields_and_units, *, allow_none=()):
    for field, unit in fields_and_units:
        value = getattr(entry, field)
        if value is None and field in allow_none:
            continue
        checked = check_number(f"{type(entry).__name__}.{field}", value, unit=unit,
                               minimum=0, min_inclusive=False)
        object.__setattr__(entry, field, checked)


def check_optional_integers(entry, fields, *, minimum):
    for field in fields:
        value = getattr(entry, field)
        if value is not None:
            object.__setattr__(entry, field, check_integer(
                f"{type(entry).__name__}.{field}", value, minimum=minimum))


# Status -----------------------------------------------------------------------------

#: What a reader can buy, from most to least available.
STATUSES = ("shipping", "sampling", "announced", "specification", "in development")

#: The statuses that look forward: each needs an ``expected_by`` date.
FORWARD_LOOKING = ("sampling", "announced", "specification", "in development")

_DATE = re.compile(r"^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?$")


def period(value, *, owner="date"):
    """The first and last day of the period an ISO date names: ``"2026-07"`` is July 2026.

    Parameters
    ----------
    value : str
        ``"YYYY"``, ``"YYYY-MM"`` or ``"YYYY-MM-DD"``.
    owner : str
        Name of the field, for the error message.

    Returns
    -------
    tuple of datetime.date
        (first day, last day).

    Examples
    --------
    >>> period("2026-07")
    (datetime.date(2026, 7, 1), datetime.date(2026, 7, 31))
    >>> period("2026")[1]
    datetime.date(2026, 12, 31)
    """
    match = _DATE.match(value) if isinstance(value, str) else None
    try:
        year, month, day = (None if g is None else int(g) for g in match.groups())
        if month is None:
            return datetime.date(year, 1, 1), datetime.date(year, 12, 31)
        if day is None:
            return datetime.date(year, month, 1), datetime.date(year, month, calendar.monthrange(year, month)[1])
        day = datetime.date(year, month, day)
        return day, day
    except (AttributeError, ValueError):
        raise ValueError(f"{owner} = {value!r} is not valid: give an ISO date, 'YYYY', 'YYYY-MM' or "
                         "'YYYY-MM-DD', at the precision the source gives") from None


def check_status(entry, *, required=False):
    """Validate ``status``, ``status_date``, ``as_of`` and ``expected_by`` of ``entry`` (see the module notes).

    With ``required=False`` an entry may leave all four unset (an older entry whose
    ``year`` says enough); it may not set some and not others.
    """
    kind = type(entry).__name__
    owner = f"{kind} {entry.name!r}"
    status = getattr(entry, "status")
    if status is None:
        if required:
            raise ValueError(f"{owner} needs a status, one of {', '.join(map(repr, STATUSES))}")
        unset = [f for f in ("status_date", "as_of", "expected_by") if getattr(entry, f) is not None]
        if unset:
            raise ValueError(f"{owner} gives {', '.join(unset)} without a status: give status too "
                             f"(one of {', '.join(map(repr, STATUSES))})")
        return
    if status not in STATUSES:
        raise ValueError(f"{kind}.status = {status!r} is not valid for {entry.name!r}: it must be one of "
                         f"{', '.join(map(repr, STATUSES))}")
    for field in ("status_date", "as_of"):
        if getattr(entry, field) is None:
            raise ValueError(f"{owner} has status {status!r} but no {field}: give the date "
                             f"({'when it reached that status' if field == 'status_date' else 'when the status was last checked'}, ISO)")
    since = period(entry.status_date, owner=f"{kind}.status_date")
    checked = period(entry.as_of, owner=f"{kind}.as_of")
    if checked[1] < since[0]:
        raise ValueError(f"{owner}: as_of = {entry.as_of!r} is before status_date = {entry.status_date!r}; "
                         "a status cannot be checked before it was reached")
    if entry.expected_by is None:
        if status in FORWARD_LOOKING:
            raise ValueError(f"{owner} has the forward-looking status {status!r} but no expected_by: give the "
                             "date by which its next step is expected (ISO), or a date to check it again")
        return
    expected = period(entry.expected_by, owner=f"{kind}.expected_by")
    if expected[1] < since[0]:
        raise ValueError(f"{owner}: expected_by = {entry.expected_by!r} is before status_date = "
                         f"{entry.status_date!r}")


def status_line(entry) -> str:
    """``entry``'s status in one line for a table: ``"announced 2025-03-18 (as of 2026-12-07; expected by 2026-12)"``.

    Parameters
    ----------
    entry : catalog entry
        An entry with the status fields (an older entry without a status gives ``"since <year>"``).
    """
    if entry.status is None:
        return f"since {entry.year}"
    text = f"{entry.status} {entry.status_date} (as of {entry.as_of}"
    if entry.expected_by is not None:
        text += f"; expected by {entry.expected_by}"
    return text + ")"


def overdue(entry, today) -> bool:
    """Whether ``entry``'s ``expected_by`` period ended before ``today`` (a ``datetime.date``)."""
    expected_by = getattr(entry, "expected_by", None)
    return expected_by is not None and period(expected_by)[1] < today


# Tables and look-up ----------------------------------------------------------------

def name_table(entries):
    table = {}
    for entry in entries:
        if entry.name in table:
            raise ValueError(f"duplicate catalog name {entry.name!r}")
        table[entry.name] = entry
    return MappingProxyType(table)

