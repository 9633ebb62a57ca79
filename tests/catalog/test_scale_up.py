"""Tests of ``interconnect_lab.catalog.scale_up``: scale-up fabrics and the Ethernet roadmap, each
marked shipping, announced or still a specification.
"""

import dataclasses

import pytest

from interconnect_lab import catalog, units as u


def test_every_entry_is_marked_and_sourced():
    for entry in list(catalog.SCALE_UP_FABRICS.values()) + list(catalog.ETHERNET_ROADMAP.values()):
        assert entry.status in catalog.STATUSES
        assert entry.as_of and (entry.expected_by is not None or entry.status not in catalog.FORWARD_LOOKING)
        assert entry.sources and all(s.url or s.doi for s in entry.sources)
        assert 2020 <= entry.year <= 2026


def test_ualink_1_0():
    # UALink Consortium, April 2025: 200G lanes (212.5 GT/s signalling), x4 ports, up to 1,024 accelerators.
    ua = catalog.scale_up_fabric("UALink 200G 1.0")
    assert (ua.status, ua.status_date, ua.max_accelerators) == ("specification", "2025-04-08", 1024)
    assert ua.lane_bit_per_s == 200e9
    assert ua.port_per_direction_bytes_per_s == 4 * ua.lane_bit_per_s / 8 == 100 * u.GB_per_s
    assert ua.per_accelerator_per_direction_bytes_per_s is None  # the spec leaves ports open
    assert ua.openness == "open standard"


def test_mi300x_infinity_fabric():
    # AMD via Wheeler: 7 links x 16 lanes x 32 Gb/s = 128 GB/s per link, both directions added.
    mi = catalog.scale_up_fabric("Infinity Fabric (MI300X)")
    assert mi.ports_per_accelerator == 7 and mi.topology == "full mesh" and mi.max_accelerators == 8
    assert u.both_directions(mi.port_per_direction_bytes_per_s) == 128 * u.GB_per_s
    assert 16 * mi.lane_bit_per_s / 8 == mi.port_per_direction_bytes_per_s
    assert mi.per_accelerator_per_direction_bytes_per_s == 448 * u.GB_per_s


def test_nvlink_5_and_fusion():
    nv = catalog.scale_up_fabric("NVLink 5 (GB200 NVL72)")
    fusion = catalog.scale_up_fabric("NVLink Fusion")
    # NVIDIA: 1.8 TB/s per GPU, both directions added; 72 GPUs per rack.
    assert u.both_directions(nv.per_accelerator_per_direction_bytes_per_s) == 1.8 * u.TB_per_s
    assert nv.max_accelerators == catalog.system("GB200 NVL72").gpus
    assert (nv.status, fusion.status) == ("shipping", "announced")
    assert fusion.status_date == "2025-05-19" and fusion.openness == "licensed"


def test_ethernet_standards():
    df = catalog.roadmap_item("800GbE (IEEE 802.3df)")
    dj = catalog.roadmap_item("1.6TbE (IEEE 802.3dj)")
    assert df.status_date == "2024-02-16" and df.per_direction_bit_per_s / df.lanes == 100e9
    assert dj.status == "in development" and dj.per_direction_bit_per_s / dj.lanes == 200e9
    assert catalog.roadmap_item("200G-per-lane SerDes").per_direction_bit_per_s == dj.per_direction_bit_per_s / 8


def test_entries_validate():
    ua = catalog.scale_up_fabric("UALink 200G 1.0")
    with pytest.raises(ValueError, match="status = 'rumoured' is not valid for 'UALink 200G 1.0'"):
        dataclasses.replace(ua, status="rumoured")
    with pytest.raises(ValueError, match="status_date = 'April 2025' is not valid"):
        dataclasses.replace(ua, status_date="April 2025")
    with pytest.raises(ValueError, match="forward-looking status 'specification' but no expected_by"):
        dataclasses.replace(ua, expected_by=None)
    with pytest.raises(ValueError, match="as_of = '2024' is before status_date = '2025-04-08'"):
        dataclasses.replace(ua, as_of="2024")
    with pytest.raises(ValueError, match="needs at least one Source"):
        dataclasses.replace(ua, sources=())
    with pytest.raises(ValueError, match="full mesh of 8 needs 7 ports"):
        dataclasses.replace(catalog.scale_up_fabric("Infinity Fabric (MI300X)"), ports_per_accelerator=4)
    with pytest.raises(ValueError, match="unknown scale-up fabric 'NVLink 7'"):
        catalog.scale_up_fabric("NVLink 7")
    with pytest.raises(ValueError, match="unknown kind"):
        dataclasses.replace(catalog.roadmap_item("200G-per-lane SerDes"), kind="optics")
