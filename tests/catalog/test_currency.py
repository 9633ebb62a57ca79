"""The currency check: no forward-looking statement of the catalog or the roadmap may outlive its date.

Every entry whose status looks forward (sampling, announced, specification, in
development) says when its next step is expected (``expected_by``) and when the
status was last checked (``as_of``). This test reads today's date and fails,
naming each entry, once an expected-by date has passed: the entry must then be
checked against its sources and its status, dates and sources updated, so that
the book cannot quietly go stale.
"""

import dataclasses
import datetime

import pytest

from interconnect_lab import catalog, roadmap
from interconnect_lab.catalog._common import overdue


def test_no_expected_by_date_has_passed():
    today = datetime.date.today()
    late = [f"{kind} {entry.name!r}: {catalog.status_line(entry)}" for kind, entry in catalog.overdue_entries(today)]
    assert not late, (f"today is {today}; these entries' expected-by dates have passed: check each against its "
                      "sources and update status, status_date, as_of, expected_by and sources:\n  "
                      + "\n  ".join(late))


def test_every_forward_looking_entry_has_an_as_of_and_an_expected_by_date():
    entries = catalog.entries_with_status()
    forward = [(kind, e) for kind, e in entries if e.status in catalog.FORWARD_LOOKING]
    assert len(forward) >= 10          # the late-2026 catalog has a dozen and more
    for kind, entry in forward:
        assert entry.as_of and entry.expected_by, f"{kind} {entry.name!r}"
        catalog.period(entry.as_of)
        catalog.period(entry.expected_by)


def test_every_roadmap_and_scale_up_entry_carries_a_status():
    # "The catalog and roadmap": roadmap.py reads these two tables and the catalog's parts.
    for entry in list(catalog.ETHERNET_ROADMAP.values()) + list(catalog.SCALE_UP_FABRICS.values()):
        assert entry.status in catalog.STATUSES and entry.as_of, entry.name
    assert {"scale-up fabric", "roadmap item", "GPU", "NIC", "switch", "system", "link", "host"} <= {
        kind for kind, _ in catalog.entries_with_status()}


@pytest.mark.parametrize("table", [catalog.GPUS, catalog.NICS, catalog.SWITCHES, catalog.LINKS],
                         ids=["GPUS", "NICS", "SWITCHES", "LINKS"])
def test_every_part_from_2025_on_says_where_it_stands(table):
    # Newer parts are the ones whose status moves: each must carry one.
    for entry in table.values():
        if entry.year >= 2025:
            assert entry.status is not None, f"{entry.name} ({entry.year}) has no status"


def test_every_system_of_a_new_gpu_says_where_it_stands():
    for system in catalog.SYSTEMS.values():
        if catalog.gpu(system.gpu).year >= 2024:
            assert system.status is not None, system.name


def test_the_check_fails_on_a_passed_date_and_names_the_entry():
    # The check must be able to fail: move "today" past an entry's expected-by date.
    rubin = catalog.gpu("Rubin")
    end = catalog.period(rubin.expected_by)[1]
    assert not overdue(rubin, end)
    assert overdue(rubin, end + datetime.timedelta(days=1))
    names = [entry.name for _, entry in catalog.overdue_entries(end + datetime.timedelta(days=1))]
    assert "Rubin" in names and "Vera Rubin NVL72" in names
    assert catalog.overdue_entries(datetime.date(2026, 12, 7)) == []


def test_dates_compare_by_the_period_they_name():
    assert catalog.period("2026") == (datetime.date(2026, 1, 1), datetime.date(2026, 12, 31))
    assert catalog.period("2028-02")[1] == datetime.date(2028, 2, 29)
    with pytest.raises(ValueError, match=r"date = '2026-13' is not valid: give an ISO date"):
        catalog.period("2026-13")
    with pytest.raises(ValueError, match="H2 2026"):
        catalog.period("H2 2026")


def test_status_fields_are_validated_on_construction():
    rubin = catalog.gpu("Rubin")
    with pytest.raises(ValueError, match="forward-looking status 'announced' but no expected_by"):
        dataclasses.replace(rubin, expected_by=None)
    with pytest.raises(ValueError, match="GPU.status = 'rumoured' is not valid for 'Rubin'"):
        dataclasses.replace(rubin, status="rumoured")
    with pytest.raises(ValueError, match="'Rubin' has status 'announced' but no as_of"):
        dataclasses.replace(rubin, as_of=None)
    with pytest.raises(ValueError, match="expected_by = '2024' is before status_date = '2025-03-18'"):
        dataclasses.replace(rubin, expected_by="2024")
    with pytest.raises(ValueError, match="gives as_of without a status"):
        dataclasses.replace(catalog.gpu("H100 SXM"), as_of="2026-12-07")
    # A shipping part needs no expected-by date.
    assert dataclasses.replace(rubin, status="shipping", expected_by=None).status == "shipping"


def test_the_book_shows_status_and_as_of_where_it_uses_an_entry():
    # status_line is what the chapters print beside a forward-looking entry.
    line = catalog.status_line(catalog.scale_up_fabric("UALink 2.0"))
    assert line == "specification 2026-04-07 (as of 2026-12-07; expected by 2027)"
    assert catalog.status_line(catalog.gpu("H100 SXM")) == "since 2022"
    rows = roadmap.scale_up_status_table()
    assert [r.fabric for r in rows] == list(catalog.SCALE_UP_FABRICS)
    assert all(r.as_of == catalog.scale_up_fabric(r.fabric).as_of for r in rows)
    ua = next(r for r in rows if r.fabric == "UALink 2.0")
    assert (ua.status, ua.since, ua.expected_by, ua.per_accelerator_bytes_per_s) == (
        "specification", "2026-04-07", "2027", None)
