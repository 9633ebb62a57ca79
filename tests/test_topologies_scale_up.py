"""Scale-up fabrics and the Ethernet roadmap: catalog entries against their sources, and what they change."""

import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from interconnect_lab import catalog, roadmap
from interconnect_lab import units as u


# Catalog entries against their sources ---------------------------------------------------------

def test_every_entry_is_marked_and_sourced():
    for entry in list(catalog.SCALE_UP_FABRICS.values()) + list(catalog.ETHERNET_ROADMAP.values()):
        assert entry.status in catalog.STATUSES
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


def test_broadcom_switches():
    th6 = catalog.switch("Tomahawk 6")
    ultra = catalog.switch("Tomahawk Ultra")
    # 102.4 Tb/s = 64 x 1.6T = 128 x 800G = 512 x 200G, one direction.
    assert th6.capacity_per_direction_bytes_per_s * 8 == pytest.approx(102.4e12)
    for ways, ports, gbit in ((2, 128, 800), (8, 512, 200)):
        split = catalog.breakout(th6, ways)
        assert (split.ports, split.port_per_direction_bytes_per_s) == (ports, gbit * u.Gbit_per_s)
    assert ultra.capacity_per_direction_bytes_per_s * 8 == pytest.approx(51.2e12)
    assert ultra.latency_s == 250 * u.ns and ultra.in_network_reduction
    assert catalog.roadmap_item("Tomahawk 6 (102.4 Tb/s)").status == "shipping"
    sue = catalog.scale_up_fabric("Scale-Up Ethernet (Tomahawk 6, 512 x 200G)")
    assert sue.max_accelerators == 512  # Broadcom: "up to 512 XPUs" on one switch


def test_ethernet_standards():
    df = catalog.roadmap_item("800GbE (IEEE 802.3df)")
    dj = catalog.roadmap_item("1.6TbE (IEEE 802.3dj)")
    assert df.status_date == "2024-02-16" and df.per_direction_bit_per_s / df.lanes == 100e9
    assert dj.status == "in development" and dj.per_direction_bit_per_s / dj.lanes == 200e9
    assert catalog.roadmap_item("200G-per-lane SerDes").per_direction_bit_per_s == dj.per_direction_bit_per_s / 8


def test_entries_validate():
    ua = catalog.scale_up_fabric("UALink 200G 1.0")
    with pytest.raises(ValueError, match="unknown status 'rumoured'"):
        dataclasses.replace(ua, status="rumoured")
    with pytest.raises(ValueError, match="status_date"):
        dataclasses.replace(ua, status_date="April 2025")
    with pytest.raises(ValueError, match="needs at least one Source"):
        dataclasses.replace(ua, sources=())
    with pytest.raises(ValueError, match="full mesh of 8 needs 7 ports"):
        dataclasses.replace(catalog.scale_up_fabric("Infinity Fabric (MI300X)"), ports_per_accelerator=4)
    with pytest.raises(ValueError, match="unknown scale-up fabric 'NVLink 6'"):
        catalog.scale_up_fabric("NVLink 6")
    with pytest.raises(ValueError, match="unknown kind"):
        dataclasses.replace(catalog.roadmap_item("200G-per-lane SerDes"), kind="optics")


# Chapter 2: an all-reduce inside the domain ----------------------------------------------------

def test_all_reduce_time_by_hand():
    # 8 GPUs, 256 MB each: 2 * 7/8 * 256e6 B / 900e9 B/s on NVLink 5.
    t = roadmap.tensor_parallel_all_reduce_time("NVLink 5 (GB200 NVL72)", 256e6, 8)
    assert t == pytest.approx(2 * 7 / 8 * 256e6 / 900e9)
    # MI300X mesh: a group of 4 uses 3 of its 7 links.
    four = roadmap.tensor_parallel_all_reduce_time("Infinity Fabric (MI300X)", 256e6, 4)
    assert four == pytest.approx(2 * 3 / 4 * 256e6 / (3 * 64e9))
    ua = roadmap.tensor_parallel_all_reduce_time("UALink 200G 1.0", 256e6, 8, ports_per_accelerator=9)
    assert ua == pytest.approx(t)  # nine x4 ports = NVLink 5's 900 GB/s


@settings(max_examples=40, deadline=None)
@given(size=st.floats(1e3, 1e10), group=st.integers(2, 72))
def test_all_reduce_time_scales_with_size(size, group):
    a = roadmap.tensor_parallel_all_reduce_time("NVLink 5 (GB200 NVL72)", size, group)
    b = roadmap.tensor_parallel_all_reduce_time("NVLink 5 (GB200 NVL72)", 2 * size, group)
    assert b == pytest.approx(2 * a)
    assert a >= size / 900e9  # never faster than one pass over the links


def test_comparison_rows():
    rows = roadmap.scale_up_comparison(256e6, 8, open_ports=8)
    assert [r.fabric.name for r in rows] == list(catalog.SCALE_UP_FABRICS)
    assert all(r.group == min(8, r.fabric.max_accelerators) for r in rows)
    fastest = min(rows, key=lambda r: r.all_reduce_s)
    assert fastest.fabric.name.startswith("NVLink")


def test_all_reduce_bad_input():
    with pytest.raises(ValueError, match="ports_per_accelerator is needed"):
        roadmap.tensor_parallel_all_reduce_time("UALink 200G 1.0", 1e6, 8)
    with pytest.raises(ValueError, match="group = 9"):
        roadmap.tensor_parallel_all_reduce_time("Infinity Fabric (MI300X)", 1e6, 9)
    with pytest.raises(ValueError, match="message_bytes = 0"):
        roadmap.tensor_parallel_all_reduce_time("NVLink Fusion", 0, 8)


# Chapter 5: reach of a 102.4 Tb/s chip ---------------------------------------------------------

def test_tomahawk_6_reach():
    rows = roadmap.fat_tree_reach("Tomahawk 6", (1, 2, 8))
    assert [(r.radix, r.hosts_two_tiers, r.hosts_three_tiers) for r in rows] == [
        (64, 2048, 65536), (128, 8192, 524288), (512, 131072, 33554432)]
    # Broadcom (via IBS Electronics): two-tier fabrics "to over 128,000 XPUs".
    assert rows[2].hosts_two_tiers >= 128_000
    assert rows[2].hosts_two_tiers / 128_000 - 1 < 0.03
    # Halving the port rate doubles the radix and quadruples the two-tier reach.
    assert rows[1].hosts_two_tiers == 4 * rows[0].hosts_two_tiers


def test_multi_plane():
    m = roadmap.multi_plane_fabric(131072, nic_bytes_per_s=800 * u.Gbit_per_s)
    assert (m.planes, m.tiers) == (4, 2)
    assert m.switches == 4 * (256 + 512)
    with pytest.raises(ValueError, match="whole number"):
        roadmap.multi_plane_fabric(1024, nic_bytes_per_s=300 * u.Gbit_per_s)


# Chapter 10: parts and cost ---------------------------------------------------------------------

def test_network_parts_th5_against_th6():
    old = roadmap.network_parts(8192, switch="Tomahawk 5", switch_usd=200_000)
    new = roadmap.network_parts(8192, switch="Tomahawk 6", ways=2, switch_usd=400_000)
    assert (old.tree.tiers, new.tree.tiers) == (3, 2)
    assert new.tree.switches < old.tree.switches and new.transceiver_modules < old.transceiver_modules
    assert old.total_usd == pytest.approx(old.switches_usd + old.optics_usd + old.cables_usd)
    assert new.per_gpu_usd < old.per_gpu_usd
    priced = roadmap.network_parts(1024, switch="Tomahawk 5", ways=2)  # the Ethernet price book's switch
    assert priced.switch_usd == 200_000
    # Optics: a twin-port 800G module serves two 400G port ends, or one 800G end; a 1.6T end needs two.
    ends = lambda parts: parts.tree.switch_transceivers + parts.tree.host_transceivers  # noqa: E731
    assert priced.transceiver_modules == ends(priced) // 2
    assert old.transceiver_modules == ends(old)
    fast = roadmap.network_parts(1024, switch="Tomahawk 6", switch_usd=1.0)
    assert fast.transceiver_modules == 2 * ends(fast)
    with pytest.raises(ValueError, match="switch_usd is needed"):
        roadmap.network_parts(1024, switch="Tomahawk 6")


def test_generation_growth_and_the_five_times_claim():
    g = roadmap.generation_growth("H100 SXM", "B200")
    h100, b200 = catalog.gpu("H100 SXM"), catalog.gpu("B200")
    assert g.bf16_ratio == pytest.approx(b200.bf16_flop_per_s / h100.bf16_flop_per_s)
    assert g.bf16_ratio == pytest.approx(2.27, abs=0.01)  # hardware notes §8h: 2.3x at equal precision
    assert (g.scale_up_ratio, g.scale_out_ratio) == (2.0, 2.0)
    assert g.compute_to_scale_out < 1.2  # nowhere near "the network must get 5x faster"
