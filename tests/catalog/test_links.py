"""Tests of ``interconnect_lab.catalog.links``: links: NVLink, PCIe, CXL, InfiniBand and Ethernet,
stored per direction.

Hostile input is at the end (and fuzzed with tests/fuzzing.py where noted).
"""

import dataclasses

import pytest
from hypothesis import given, settings, strategies as st

from fuzzing import Case, choice, make_tests

from interconnect_lab import catalog, units as u


def test_claim_a_nvlink4_900_GB_per_s_is_per_gpu_with_both_directions_added():
    # NVIDIA Hopper page: "900 GB/s bidirectional per GPU" over 18 links.
    nvlink4 = catalog.link("NVLink 4")
    assert nvlink4.links_per_gpu == 18
    assert nvlink4.per_gpu_per_direction_bytes_per_s == pytest.approx(450 * u.GB_per_s)
    assert nvlink4.per_gpu_both_directions_bytes_per_s == pytest.approx(900 * u.GB_per_s)
    # Eight GPUs together inject 8 x 900 GB/s = 7.2 TB/s, not 900 GB/s.
    dgx = catalog.system("DGX H100")
    assert dgx.gpus * nvlink4.per_gpu_both_directions_bytes_per_s == pytest.approx(7.2 * u.TB_per_s)


def test_nvlink3_is_600_GB_per_s_per_gpu_both_directions():
    # NVIDIA A100-generation NVLink page: twelve links, 600 GB/s per GPU.
    nvlink3 = catalog.link("NVLink 3")
    assert nvlink3.per_gpu_both_directions_bytes_per_s == pytest.approx(600 * u.GB_per_s)
    assert nvlink3.per_gpu_per_direction_bytes_per_s == pytest.approx(300 * u.GB_per_s)


def test_nvlink5_is_1_8_TB_per_s_per_gpu_both_directions_and_twice_nvlink4():
    # NVIDIA NVLink page: 18 links of 100 GB/s, 1.8 TB/s, "2X more bandwidth than the previous generation".
    nvlink5 = catalog.link("NVLink 5")
    assert nvlink5.both_directions_bytes_per_s == pytest.approx(100 * u.GB_per_s)
    assert nvlink5.per_gpu_both_directions_bytes_per_s == pytest.approx(1.8 * u.TB_per_s)
    assert nvlink5.per_gpu_per_direction_bytes_per_s == pytest.approx(
        2 * catalog.link("NVLink 4").per_gpu_per_direction_bytes_per_s)


@pytest.mark.parametrize(("name", "per_gpu_both_directions_GB_per_s"),
                         [("NVLink 1", 160), ("NVLink 2", 300), ("NVLink 3", 600),
                          ("NVLink 4", 900), ("NVLink 5", 1800)])
def test_nvlink_generations_match_the_duplex_column(name, per_gpu_both_directions_GB_per_s):
    # ml-engineering NVLink table, "Duplex" column (per GPU, both directions).
    entry = catalog.link(name)
    assert entry.per_gpu_both_directions_bytes_per_s == pytest.approx(
        per_gpu_both_directions_GB_per_s * u.GB_per_s)


def test_claim_c_nvlink5_is_about_14x_pcie_gen5_like_for_like():
    # NVIDIA NVLink page: "over 14X the bandwidth of PCIe Gen5"; both figures bidirectional:
    # 1,800 GB/s / 128 GB/s. PCIe's "128 GB/s" is its raw signalling rate, both directions.
    nvlink5 = catalog.link("NVLink 5").per_gpu_both_directions_bytes_per_s
    pcie5 = catalog.link("PCIe Gen5 x16")
    assert u.both_directions(pcie5.signalling_per_direction_bytes_per_s) == pytest.approx(128 * u.GB_per_s)
    headline_ratio = nvlink5 / u.both_directions(pcie5.signalling_per_direction_bytes_per_s)
    assert headline_ratio == pytest.approx(14.06, abs=0.01)
    # With PCIe's data rate after 128b/130b encoding the ratio is 14.3; never 18.
    data_ratio = nvlink5 / pcie5.both_directions_bytes_per_s
    assert 14 < data_ratio < 15
    # 28x appears only when mixing conventions (bidirectional NVLink / one-direction PCIe).
    assert nvlink5 / pcie5.per_direction_bytes_per_s == pytest.approx(28.6, abs=0.1)


def test_nvlink4_is_over_7x_pcie_gen5():
    # NVIDIA Hopper page: "over 7X the bandwidth of PCIe Gen5".
    ratio = (catalog.link("NVLink 4").per_gpu_per_direction_bytes_per_s
             / catalog.link("PCIe Gen5 x16").per_direction_bytes_per_s)
    assert 7 < ratio < 7.5


@pytest.mark.parametrize(("generation", "lane_data_Gbit_per_s"),
                         [("EDR", 25), ("HDR", 50), ("NDR", 100), ("XDR", 200)])
def test_claim_d_infiniband_4x_port_is_4_lanes_times_the_lane_data_rate(generation, lane_data_Gbit_per_s):
    # ml-engineering InfiniBand table: 1 link (lane) EDR 25, HDR 50, NDR 100, XDR 200 Gb/s per
    # direction; a 4x port has 4 lanes.
    port = catalog.link(f"InfiniBand {generation}")
    assert port.lanes == 4
    assert port.per_direction_bytes_per_s == pytest.approx(4 * lane_data_Gbit_per_s * u.Gbit_per_s)


def test_claim_d_ndr_is_400_and_xdr_800_Gbit_per_s():
    assert catalog.link("InfiniBand NDR").per_direction_bytes_per_s / u.Gbit_per_s == pytest.approx(400)
    assert catalog.link("InfiniBand XDR").per_direction_bytes_per_s / u.Gbit_per_s == pytest.approx(800)
    # 1.6 Tb/s per 4x port is GDR, a roadmap generation, not XDR.
    rates = {entry.per_direction_bytes_per_s / u.Gbit_per_s
             for entry in catalog.LINKS.values() if entry.family == "InfiniBand"}
    assert 1600 not in {round(r) for r in rates}


@pytest.mark.parametrize(("name", "per_direction_GB_per_s"),
                         [("PCIe Gen3 x16", 15.75), ("PCIe Gen4 x16", 31.5),
                          ("PCIe Gen5 x16", 63.0), ("PCIe Gen6 x16", 121.0)])
def test_pcie_x16_data_rates(name, per_direction_GB_per_s):
    # Wikipedia / ml-engineering PCIe tables, per direction after encoding.
    assert catalog.link(name).per_direction_bytes_per_s == pytest.approx(
        per_direction_GB_per_s * u.GB_per_s, rel=2e-3)


@pytest.mark.parametrize("name", ["PCIe Gen3 x16", "PCIe Gen4 x16", "PCIe Gen5 x16"])
def test_128b_130b_encoding(name):
    entry = catalog.link(name)
    assert entry.per_direction_bytes_per_s == pytest.approx(
        entry.signalling_per_direction_bytes_per_s * 128 / 130)


@pytest.mark.parametrize(("name", "raw_MB_per_s"), [("NVLink 4", 26_562), ("NVLink 5", 53_125)])
def test_nvlink_signalling_matches_nvidia_smi(name, raw_MB_per_s):
    # NVIDIA Health Validation NVLink checks: expected per-link speed H100 26,562 MB/s,
    # GB200 53,125 MB/s; the data rate is 16/17 of it (25 of 26.5625 GB/s).
    entry = catalog.link(name)
    assert entry.signalling_per_direction_bytes_per_s == pytest.approx(raw_MB_per_s * u.MB_per_s, rel=1e-4)
    assert entry.per_direction_bytes_per_s / entry.signalling_per_direction_bytes_per_s == pytest.approx(16 / 17)


def test_mi300x_infinity_fabric_mesh():
    # ml-engineering: 64 GB/s per peer per direction, 7 links, 448 GB/s all-to-all.
    fabric = catalog.link(catalog.gpu("MI300X").scale_up_link)
    assert fabric.per_direction_bytes_per_s == pytest.approx(64 * u.GB_per_s)
    assert fabric.per_gpu_per_direction_bytes_per_s == pytest.approx(448 * u.GB_per_s)


@pytest.mark.parametrize("name", [n for n, e in catalog.LINKS.items() if e.family == "CXL"])
def test_cxl_runs_at_its_pcie_phy_rate(name):
    entry = catalog.link(name)
    phy = catalog.link(entry.phy)
    assert phy.family == "PCIe"
    assert entry.per_direction_bytes_per_s == phy.per_direction_bytes_per_s
    assert (entry.lanes, entry.lane_signalling_bit_per_s) == (phy.lanes, phy.lane_signalling_bit_per_s)


@pytest.mark.parametrize("entry", [e for e in catalog.LINKS.values()
                                   if e.signalling_per_direction_bytes_per_s is not None],
                         ids=lambda e: e.name)
def test_data_rate_never_exceeds_signalling_rate(entry):
    # Encoding and FEC cost between 0 and 10 % in every generation here.
    ratio = entry.per_direction_bytes_per_s / entry.signalling_per_direction_bytes_per_s
    assert 0.9 < ratio <= 1


def test_every_reference_names_a_catalog_entry():
    for gpu in catalog.GPUS.values():
        assert gpu.scale_up_link is None or gpu.scale_up_link in catalog.LINKS, gpu.name
    for nic in catalog.NICS.values():
        assert nic.host_link is None or nic.host_link in catalog.LINKS, nic.name
    for entry in catalog.LINKS.values():
        assert entry.phy is None or entry.phy in catalog.LINKS, entry.name
    for tier in catalog.MEMORY_TIERS.values():
        assert tier.path is None or tier.path in catalog.LINKS, tier.name
    for system in catalog.SYSTEMS.values():
        assert system.gpu in catalog.GPUS
        assert system.scale_up_switch is None or system.scale_up_switch in catalog.SWITCHES
        assert system.nic in catalog.NICS


@pytest.mark.parametrize("switch", [s for s in catalog.SWITCHES.values() if s.family == "NVSwitch"],
                         ids=lambda s: s.name)
def test_nvswitch_ports_run_at_an_nvlink_rate(switch):
    nvlink_rates = {e.per_direction_bytes_per_s for e in catalog.LINKS.values() if e.family == "NVLink"}
    assert switch.port_per_direction_bytes_per_s in nvlink_rates


@settings(max_examples=50, deadline=None)
@given(links=st.integers(min_value=1, max_value=1000),
       rate=st.floats(min_value=1e6, max_value=1e15, allow_nan=False))
def test_per_gpu_rate_is_links_times_link_rate(links, rate):
    variant = dataclasses.replace(catalog.link("NVLink 5"), name="NVLink what-if",
                                  links_per_gpu=links, per_direction_bytes_per_s=rate)
    assert variant.per_gpu_per_direction_bytes_per_s == pytest.approx(links * rate)
    assert variant.per_gpu_both_directions_bytes_per_s == pytest.approx(2 * links * rate)


@pytest.mark.parametrize(("entry", "field"), [
    (catalog.link("NVLink 4"), "links_per_gpu"),
    (catalog.link("InfiniBand NDR"), "lanes"),
    (catalog.system("DGX H100"), "gpus"),
])
def test_counts_must_be_positive_whole_numbers(entry, field):
    with pytest.raises(ValueError, match=rf"{type(entry).__name__}\.{field} = 0 is not valid"):
        dataclasses.replace(entry, **{field: 0})
    with pytest.raises(TypeError, match=rf"{type(entry).__name__}\.{field} must be a whole number"):
        dataclasses.replace(entry, **{field: 2.5})


def test_common_misspellings_are_caught():
    with pytest.raises(ValueError, match="valid link names are: .*'NVLink 4'"):
        catalog.link("NVLink4")
    with pytest.raises(ValueError, match="'InfiniBand NDR'"):
        catalog.link("NDR")


@pytest.mark.parametrize(("entry", "field", "bad"), [
    (catalog.link("NVLink 4"), "family", "nvlink"),
    (catalog.switch("Tomahawk 5"), "family", "RoCE"),
    (catalog.memory_tier("CXL memory expander (x16)"), "bandwidth_direction", "bidirectional"),
])
def test_a_bad_choice_lists_the_valid_ones(entry, field, bad):
    with pytest.raises(ValueError) as raised:
        dataclasses.replace(entry, **{field: bad})
    message = str(raised.value)
    assert f"{type(entry).__name__}.{field} = {bad!r} is not valid" in message
    for choice in getattr(type(entry), {"family": "FAMILIES",
                                        "bandwidth_direction": "BANDWIDTH_DIRECTIONS"}[field]):
        assert repr(choice) in message


# Hostile input: fuzzed with tests/fuzzing.py -----------------------------------------------------

FUZZ_CASES = [
    Case(catalog.link, dict(name=choice(tuple(catalog.LINKS)))),
]

test_fuzz, test_fuzz_nightly = make_tests(FUZZ_CASES)
