"""Tests of ``interconnect_lab.roadmap``: what the next fabrics change: scale-up domains, fat-tree
reach and the parts count.

Hostile input is at the end (and fuzzed with tests/fuzzing.py where noted).
"""

import pytest
from hypothesis import given, settings, strategies as st

from fuzzing import Case, choice, count, make_tests, mixed, nonnegative, optional, positive

from interconnect_lab import catalog, pricebook, roadmap, units as u


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


def test_issue_37_error_2_b200_kept_the_400g_connectx_7():
    # Issue 37, error 2: DGX B200 ships eight 400 Gb/s ConnectX-7 (NVIDIA's DGX B200 user guide); the
    # 800 Gb/s ConnectX-8 came with B300. From H100 to B200 the NIC did not double, so each byte of
    # network feeds 2.27x the compute, not "about the same as before" (the old answer: 1.14x).
    assert catalog.system("DGX B200").nic == "ConnectX-7" and catalog.system("DGX B200").nics == 8
    assert catalog.system("DGX B300").nic == "ConnectX-8"
    g = roadmap.generation_growth("H100 SXM", "B200")
    assert (g.old_nic, g.new_nic, g.scale_out_ratio) == ("ConnectX-7", "ConnectX-7", 1.0)
    assert g.compute_to_scale_out == pytest.approx(2.27, abs=0.01)
    assert roadmap.generation_growth("H100 SXM", "B300").new_nic == "ConnectX-8"


def test_comparison_rows():
    rows = roadmap.scale_up_comparison(256e6, 8, open_ports=8)
    # Every fabric with a domain and a rate; ESUN's requirements specification fixes neither.
    assert [r.fabric.name for r in rows] == [n for n, f in catalog.SCALE_UP_FABRICS.items()
                                             if f.max_accelerators is not None]
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


# Hostile input: fuzzed with tests/fuzzing.py -----------------------------------------------------

GPUS = tuple(catalog.GPUS)

FUZZ_CASES = [
    Case(roadmap.tensor_parallel_all_reduce_time, dict(
        fabric=choice(tuple(catalog.SCALE_UP_FABRICS)), message_bytes=positive(1.0, 1e32), group=count(2, 576),
        ports_per_accelerator=optional(count(1, 64)))),
    Case(roadmap.scale_up_comparison, dict(message_bytes=positive(1.0, 1e13), group=count(2, 576),
                                           open_ports=count(1, 64))),
    Case(roadmap.scale_up_status_table, dict()),
    Case(roadmap.fat_tree_reach, dict(switch=choice(tuple(catalog.SWITCHES)),
                                      ways=mixed(st.lists(st.sampled_from([1, 2, 4, 8]), min_size=1, max_size=3)))),
    Case(roadmap.multi_plane_fabric, dict(gpus=count(1, 1_000_000), nic_bytes_per_s=mixed(st.sampled_from(
        [25e9, 50e9, 100e9, 200e9, 3e9])), switch=choice(tuple(catalog.SWITCHES)), ways=mixed(st.sampled_from(
            [1, 2, 4, 8])))),
    Case(roadmap.network_parts, dict(gpus=count(1, 1_000_000), switch=choice(tuple(catalog.SWITCHES)),
                                     ways=mixed(st.sampled_from([1, 2, 4, 8])),
                                     switch_usd=optional(nonnegative(1.0, 1e14)),
                                     prices=mixed(st.sampled_from([pricebook.H100_ETHERNET_PRICES,
                                                                   pricebook.H100_NDR_PRICES])),
                                     estimate=choice(tuple(pricebook.ESTIMATES)))),
    Case(roadmap.generation_growth, dict(old=choice(GPUS), new=choice(GPUS), old_nic=choice(tuple(catalog.NICS)),
                                         new_nic=choice(tuple(catalog.NICS)))),
]


# Hostile input -----------------------------------------------------------------------------------

@pytest.mark.usefixtures("warnings_are_errors")
@pytest.mark.parametrize(("call", "error", "message"), [
    (lambda r: r.scale_up_comparison([1.0]), TypeError, "message_bytes must be a single real number"),
    (lambda r: r.tensor_parallel_all_reduce_time("NVLink 5 (GB200 NVL72)", 1e300, 8), ValueError,
     r"message_bytes = 1e\+300 B is not valid: it must be in \(0, 1e\+30\] B"),
    # round() of an array: an internal TypeError
    (lambda r: r.multi_plane_fabric(1024, nic_bytes_per_s=(2, 3)), TypeError,
     "nic_bytes_per_s must be a single real number"),
    (lambda r: r.network_parts(8192, switch="Tomahawk 6", ways=2, switch_usd=1e308), ValueError,
     r"switch_usd = 1e\+308 USD is not valid: it must be in \[0, 1e\+12\] USD"),
    # "'A100 SXM' or 'B200' has none": which argument?
    (lambda r: r.generation_growth("A100 SXM", "B200"), ValueError,
     "old = 'A100 SXM' is not valid here: the catalog has no FP8 rate for it; GPUs with one are: 'H100 SXM'"),
])
def test_roadmap_inputs(call, error, message):
    from interconnect_lab import roadmap
    with pytest.raises(error, match=message):
        call(roadmap)

test_fuzz, test_fuzz_nightly = make_tests(FUZZ_CASES)
