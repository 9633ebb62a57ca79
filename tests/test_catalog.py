"""The hardware catalog against published headline figures, its own conventions and bad input.

The first group checks the seed-article claims (a)-(d) of
``shared/reference/claims-to-check.md``: each test names the vendor figure it
reproduces and the source in a comment. Vendor headline figures are typed here
on purpose, as the thing the catalog must reproduce; the catalog itself stores
each number once.
"""

import dataclasses
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from interconnect_lab import catalog
from interconnect_lab import units as u
from interconnect_lab.sources import Source

# ---------------------------------------------------------------------------
# Claim (a): "NVLink 4.0 reaches 900 GB/s total bandwidth between eight GPUs"
# ---------------------------------------------------------------------------


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


# ---------------------------------------------------------------------------
# Claim (b): "NVL72: 72 GPUs share the same NVSwitch fabric for 1.8 TB/s total bandwidth"
# ---------------------------------------------------------------------------


def test_claim_b_nvl72_totals_about_130_TB_per_s_not_1_8():
    # NVIDIA NVLink page: "130TB/s of GPU bandwidth in one NVL72" = 72 x 1.8 TB/s.
    nvl72 = catalog.system("GB200 NVL72")
    per_gpu = catalog.link(catalog.gpu(nvl72.gpu).scale_up_link).per_gpu_both_directions_bytes_per_s
    total = nvl72.gpus * per_gpu
    assert total == pytest.approx(129.6 * u.TB_per_s)
    assert total == pytest.approx(130 * u.TB_per_s, rel=0.01)
    assert u.per_direction(total) == pytest.approx(64.8 * u.TB_per_s)


def test_nvl72_wiring_uses_every_switch_port():
    # NVIDIA DGX SuperPOD GB200 RA: one link from each GPU to each of the 18 switch chips.
    nvl72 = catalog.system("GB200 NVL72")
    chip = catalog.switch(nvl72.scale_up_switch)
    gpu_links = nvl72.gpus * catalog.link("NVLink 5").links_per_gpu
    assert gpu_links == nvl72.scale_up_switches * chip.ports == 1296


def test_nvlink_switch_tray_is_two_chips_and_14_4_TB_per_s():
    # NVIDIA NVLink page: "144 NVLink ports with a non-blocking switching capacity of 14.4TB/s".
    tray, chip = catalog.switch("NVLink Switch tray"), catalog.switch("NVLink Switch chip")
    assert tray.ports == 2 * chip.ports == 144
    assert tray.capacity_both_directions_bytes_per_s == pytest.approx(14.4 * u.TB_per_s)


def test_dgx_h100_nvswitches_have_room_for_every_gpu_link():
    # 8 GPUs x 18 links (5+5+4+4 over 4 chips, Lockwood) fit in 4 x 64 NVSwitch 3 ports.
    dgx = catalog.system("DGX H100")
    chip = catalog.switch(dgx.scale_up_switch)
    assert dgx.gpus * catalog.link("NVLink 4").links_per_gpu <= dgx.scale_up_switches * chip.ports


# ---------------------------------------------------------------------------
# Claim (c): "NVLink 5.0 1.8 TB/s is roughly 18x a PCIe Gen5 x16 slot"
# ---------------------------------------------------------------------------


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


# ---------------------------------------------------------------------------
# Claim (d): "800Gbps (NDR InfiniBand) and the upcoming 1.6Tbps (XDR)"
# ---------------------------------------------------------------------------


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


# ---------------------------------------------------------------------------
# Switch capacity: vendors add directions differently.
# ---------------------------------------------------------------------------


def test_quantum2_51_2_Tbit_per_s_adds_both_directions():
    # NVIDIA/ComputerBase: 64 ports x 400 Gb/s; "51.2 Tb/s" counts both directions.
    qm9700 = catalog.switch("Quantum-2 QM9700")
    assert qm9700.capacity_per_direction_bytes_per_s == pytest.approx(25.6 * u.Tbit_per_s)
    assert qm9700.capacity_both_directions_bytes_per_s == pytest.approx(51.2 * u.Tbit_per_s)


@pytest.mark.parametrize("name", ["Tomahawk 5", "Spectrum-4 SN5600"])
def test_51_2_Tbit_per_s_ethernet_switches_count_one_direction(name):
    # Broadcom press release (Tomahawk 5) and NVIDIA (Spectrum-4): 64 x 800GbE = 51.2 Tb/s.
    assert catalog.switch(name).capacity_per_direction_bytes_per_s == pytest.approx(51.2 * u.Tbit_per_s)


def test_quantum_hdr_is_16_Tbit_per_s_both_directions():
    # Mellanox QM8790 brief (quoted by IT4Innovations): 40 x 200 Gb/s, "16Tb/s".
    assert catalog.switch("Quantum QM8700").capacity_both_directions_bytes_per_s == pytest.approx(
        16 * u.Tbit_per_s)


def test_quantum_x800_is_144_ports_of_800_Gbit_per_s():
    assert catalog.switch("Quantum-X800 Q3400").capacity_per_direction_bytes_per_s == pytest.approx(
        115.2 * u.Tbit_per_s)


def test_in_network_reduction_where_the_vendor_ships_it():
    reducing = {name for name, entry in catalog.SWITCHES.items() if entry.in_network_reduction}
    # SHARP arrived on NVSwitch with the third generation; of the Ethernet switches here only
    # Broadcom's scale-up Tomahawk Ultra (2025) reduces in the switch.
    assert reducing == {"NVSwitch 3", "NVLink Switch chip", "NVLink Switch tray",
                        "Quantum QM8700", "Quantum-2 QM9700", "Quantum-X800 Q3400", "Tomahawk Ultra"}


# ---------------------------------------------------------------------------
# NICs, PCIe, CXL and encodings
# ---------------------------------------------------------------------------


def test_a_400_Gbit_per_s_nic_carries_50_GB_per_s():
    assert catalog.nic("ConnectX-7").per_direction_bytes_per_s == pytest.approx(50 * u.GB_per_s)


def test_dgx_h100_scale_out_is_400_GB_per_s_per_direction():
    # ml-engineering / NVIDIA SuperPOD RA: 8 x 400 Gb/s = 3.2 Tb/s = 400 GB/s per node.
    dgx = catalog.system("DGX H100")
    total = dgx.nics * catalog.nic(dgx.nic).per_direction_bytes_per_s
    assert total == pytest.approx(3.2 * u.Tbit_per_s) == pytest.approx(400 * u.GB_per_s)


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


@pytest.mark.parametrize("nic", list(catalog.NICS.values()), ids=lambda e: e.name)
def test_every_nic_fits_its_host_link(nic):
    # A NIC faster than its PCIe slot could not run at line rate.
    assert catalog.link(nic.host_link).per_direction_bytes_per_s >= nic.per_direction_bytes_per_s


# ---------------------------------------------------------------------------
# GPUs
# ---------------------------------------------------------------------------


def test_blackwell_is_2_3x_hopper_at_equal_precision():
    # Claim (h) groundwork: dense B200 vs H100, BF16 and FP8 (ml-engineering accelerator table).
    b200, h100 = catalog.gpu("B200"), catalog.gpu("H100 SXM")
    assert b200.bf16_flop_per_s / h100.bf16_flop_per_s == pytest.approx(2.27, abs=0.01)
    assert b200.fp8_flop_per_s / h100.fp8_flop_per_s == pytest.approx(2.27, abs=0.01)


def test_gb200_nvl72_hbm_totals_about_13_4_TB():
    nvl72 = catalog.system("GB200 NVL72")
    assert nvl72.gpus * catalog.gpu(nvl72.gpu).hbm_bytes == pytest.approx(13.4 * u.TB, rel=0.01)


def test_best_matmul_rates_are_the_mamf_tables():
    # ML Engineering Open Book, "Maximum Achievable Matmul FLOPS comparison table" (BF16 and FP8
    # tables): the H200 measured as the H100 ("H200 is the same"), Blackwell's FP8 rows as printed.
    h100, h200 = catalog.gpu("H100 SXM"), catalog.gpu("H200 SXM")
    assert h200.measured_matmul_flop_per_s == h100.measured_matmul_flop_per_s == 794.5 * u.TFLOP_per_s
    assert catalog.gpu("B200").measured_fp8_matmul_flop_per_s == 3432.5 * u.TFLOP_per_s
    assert catalog.gpu("GB200").measured_fp8_matmul_flop_per_s == 3615.6 * u.TFLOP_per_s
    # On Blackwell the best FP8 kernels reach about twice the best BF16 ones; on Hopper 1.7 times.
    for name in ("B200", "GB200"):
        gpu = catalog.gpu(name)
        assert 1.9 < gpu.measured_fp8_matmul_flop_per_s / gpu.measured_matmul_flop_per_s < 2.0
    for gpu in (h100, h200):
        assert 1.7 < gpu.measured_fp8_matmul_flop_per_s / gpu.measured_matmul_flop_per_s < 1.75


def test_h200_is_an_h100_with_more_memory():
    h100, h200 = catalog.gpu("H100 SXM"), catalog.gpu("H200 SXM")
    assert (h200.bf16_flop_per_s, h200.fp8_flop_per_s) == (h100.bf16_flop_per_s, h100.fp8_flop_per_s)
    assert h200.hbm_bytes > h100.hbm_bytes and h200.hbm_bandwidth_bytes_per_s > h100.hbm_bandwidth_bytes_per_s


# ---------------------------------------------------------------------------
# Memory tiers: the further data travels, the narrower the pipe.
# ---------------------------------------------------------------------------


def test_the_pipe_narrows_with_distance_from_an_h100():
    tiers = [
        catalog.hbm_tier("H100 SXM").bandwidth_bytes_per_s,
        catalog.link("NVLink 4").per_gpu_per_direction_bytes_per_s,      # a peer GPU's HBM
        catalog.memory_tier("Host memory over PCIe Gen5 x16").bandwidth_bytes_per_s,
        catalog.nic("ConnectX-7").per_direction_bytes_per_s,             # another node
    ]
    assert tiers == sorted(tiers, reverse=True)
    assert tiers[0] / tiers[-1] == pytest.approx(67, abs=0.5)


def test_cxl_memory_is_slower_to_reach_than_local_ddr():
    ddr = catalog.memory_tier("Host DDR5 (one Xeon socket)")
    cxl = catalog.memory_tier("CXL memory expander (x16)")
    # Pond: CXL adds 70-90 ns to same-NUMA-node DRAM.
    assert 70 * u.ns <= cxl.latency_s - ddr.latency_s <= 90 * u.ns
    assert cxl.bandwidth_bytes_per_s < ddr.bandwidth_bytes_per_s
    assert any(source.estimate for source in cxl.sources)


def test_ddr5_socket_bandwidth_is_eight_channels_of_ddr5_4800():
    ddr = catalog.memory_tier("Host DDR5 (one Xeon socket)")
    assert ddr.bandwidth_bytes_per_s == pytest.approx(307.2 * u.GB_per_s)
    assert ddr.bandwidth_direction == "total"


@pytest.mark.parametrize("name", list(catalog.GPUS))
def test_hbm_tier_reads_the_gpu_entry(name):
    gpu = catalog.gpu(name)
    tier = catalog.hbm_tier(gpu)
    assert tier.bandwidth_bytes_per_s == gpu.hbm_bandwidth_bytes_per_s
    assert tier.capacity_bytes == gpu.hbm_bytes
    assert tier.bandwidth_direction == "total" and tier.sources == gpu.sources
    assert catalog.hbm_tier(name) == tier


def test_hbm_tier_of_a_what_if_gpu():
    faster = dataclasses.replace(catalog.gpu("H100 SXM"), name="H100 HBM4",
                                 hbm_bandwidth_bytes_per_s=8 * u.TB_per_s)
    assert catalog.hbm_tier(faster).bandwidth_bytes_per_s == 8 * u.TB_per_s
    with pytest.raises(TypeError, match="gpu_or_name must be a GPU"):
        catalog.hbm_tier(3.35e12)


# ---------------------------------------------------------------------------
# Cross-references between tables
# ---------------------------------------------------------------------------


def test_names_are_keys_and_tables_are_read_only():
    for table in (catalog.GPUS, catalog.LINKS, catalog.SWITCHES, catalog.NICS,
                  catalog.SYSTEMS, catalog.MEMORY_TIERS):
        assert all(key == entry.name for key, entry in table.items())
        with pytest.raises(TypeError):
            table["new"] = None


def test_every_reference_names_a_catalog_entry():
    for gpu in catalog.GPUS.values():
        assert gpu.scale_up_link in catalog.LINKS, gpu.name
    for nic in catalog.NICS.values():
        assert nic.host_link in catalog.LINKS, nic.name
    for entry in catalog.LINKS.values():
        assert entry.phy is None or entry.phy in catalog.LINKS, entry.name
    for tier in catalog.MEMORY_TIERS.values():
        assert tier.path is None or tier.path in catalog.LINKS, tier.name
    for system in catalog.SYSTEMS.values():
        assert system.gpu in catalog.GPUS
        assert system.scale_up_switch in catalog.SWITCHES
        assert system.nic in catalog.NICS


@pytest.mark.parametrize("switch", [s for s in catalog.SWITCHES.values() if s.family == "NVSwitch"],
                         ids=lambda s: s.name)
def test_nvswitch_ports_run_at_an_nvlink_rate(switch):
    nvlink_rates = {e.per_direction_bytes_per_s for e in catalog.LINKS.values() if e.family == "NVLink"}
    assert switch.port_per_direction_bytes_per_s in nvlink_rates


def test_scale_up_links_of_a_system_match_its_switch():
    for system in catalog.SYSTEMS.values():
        link = catalog.link(catalog.gpu(system.gpu).scale_up_link)
        switch = catalog.switch(system.scale_up_switch)
        assert switch.port_per_direction_bytes_per_s == link.per_direction_bytes_per_s, system.name


def test_estimates_are_flagged():
    # Values without a primary source carry an estimate-flagged source.
    assert any(s.estimate for s in catalog.switch("NVSwitch 2").sources)      # 36 ports
    assert any(s.estimate for s in catalog.switch("Tomahawk 5").sources)      # 500 W
    assert any(s.estimate for s in catalog.system("DGX H100").sources)        # 10.2 kW
    assert catalog.system("GB200 NVL72").power_w is None                      # no source found


# ---------------------------------------------------------------------------
# Properties: what-if variants re-run validation
# ---------------------------------------------------------------------------

# (table, entry name, field, unit shown in the message)
POSITIVE_FIELDS = [
    (catalog.GPUS, "H100 SXM", "bf16_flop_per_s", "FLOP/s"),
    (catalog.GPUS, "H100 SXM", "fp8_flop_per_s", "FLOP/s"),
    (catalog.GPUS, "B200", "hbm_bytes", "B"),
    (catalog.GPUS, "MI300X", "hbm_bandwidth_bytes_per_s", "B/s"),
    (catalog.GPUS, "GB200", "power_w", "W"),
    (catalog.LINKS, "NVLink 4", "per_direction_bytes_per_s", "B/s"),
    (catalog.LINKS, "PCIe Gen5 x16", "lane_signalling_bit_per_s", "bit/s"),
    (catalog.LINKS, "InfiniBand EDR", "latency_s", "s"),
    (catalog.SWITCHES, "Quantum-2 QM9700", "port_per_direction_bytes_per_s", "B/s"),
    (catalog.SWITCHES, "Quantum QM8700", "latency_s", "s"),
    (catalog.SWITCHES, "Tomahawk 5", "power_w", "W"),
    (catalog.NICS, "ConnectX-7", "per_direction_bytes_per_s", "B/s"),
    (catalog.SYSTEMS, "DGX H100", "power_w", "W"),
    (catalog.MEMORY_TIERS, "CXL memory expander (x16)", "bandwidth_bytes_per_s", "B/s"),
    (catalog.MEMORY_TIERS, "CXL memory expander (x16)", "latency_s", "s"),
    (catalog.MEMORY_TIERS, "Host DDR5 (one Xeon socket)", "capacity_bytes", "B"),
]
_IDS = [f"{name}.{field}" for _, name, field, _ in POSITIVE_FIELDS]


@pytest.mark.parametrize(("table", "name", "field", "unit"), POSITIVE_FIELDS, ids=_IDS)
@settings(max_examples=25, deadline=None)
@given(value=st.floats(max_value=0, allow_nan=False, allow_infinity=False))
def test_replace_with_a_non_positive_value_names_field_value_and_unit(table, name, field, unit, value):
    entry = table[name]
    cls = type(entry).__name__
    with pytest.raises(ValueError) as raised:
        dataclasses.replace(entry, **{field: value})
    message = str(raised.value)
    assert f"{cls}.{field} = {value:g} {unit}" in message
    assert "> 0" in message


@pytest.mark.parametrize(("table", "name", "field", "unit"), POSITIVE_FIELDS, ids=_IDS)
@pytest.mark.parametrize("bad", [math.nan, math.inf, -math.inf])
def test_replace_with_nan_or_infinity_is_refused(table, name, field, unit, bad):
    with pytest.raises(ValueError, match=rf"{type(table[name]).__name__}\.{field} = .* {unit}"):
        dataclasses.replace(table[name], **{field: bad})


@pytest.mark.parametrize(("table", "name", "field", "unit"), POSITIVE_FIELDS, ids=_IDS)
@settings(max_examples=25, deadline=None)
@given(value=st.floats(min_value=1e-12, max_value=1e18, allow_nan=False))
def test_replace_with_a_positive_value_keeps_it(table, name, field, unit, value):
    original = getattr(table[name], field)
    variant = dataclasses.replace(table[name], **{field: value})
    assert getattr(variant, field) == value
    assert getattr(table[name], field) == original     # the catalog entry is untouched


@settings(max_examples=50, deadline=None)
@given(links=st.integers(min_value=1, max_value=1000),
       rate=st.floats(min_value=1e6, max_value=1e15, allow_nan=False))
def test_per_gpu_rate_is_links_times_link_rate(links, rate):
    variant = dataclasses.replace(catalog.link("NVLink 5"), name="NVLink what-if",
                                  links_per_gpu=links, per_direction_bytes_per_s=rate)
    assert variant.per_gpu_per_direction_bytes_per_s == pytest.approx(links * rate)
    assert variant.per_gpu_both_directions_bytes_per_s == pytest.approx(2 * links * rate)


@settings(max_examples=50, deadline=None)
@given(ports=st.integers(min_value=2, max_value=4096),
       rate=st.floats(min_value=1e6, max_value=1e13, allow_nan=False))
def test_switch_capacity_is_ports_times_port_rate(ports, rate):
    variant = dataclasses.replace(catalog.switch("Quantum-2 QM9700"), name="radix what-if",
                                  ports=ports, port_per_direction_bytes_per_s=rate)
    assert variant.capacity_per_direction_bytes_per_s == pytest.approx(ports * rate)
    assert variant.capacity_both_directions_bytes_per_s == pytest.approx(2 * ports * rate)


@settings(max_examples=25, deadline=None)
@given(ports=st.integers(max_value=1))
def test_switch_needs_two_ports(ports):
    with pytest.raises(ValueError, match=r"Switch.ports = -?\d+ is not valid: it must be >= 2"):
        dataclasses.replace(catalog.switch("Tomahawk 5"), ports=ports)


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


def test_system_counts_may_be_zero_but_not_negative():
    assert dataclasses.replace(catalog.system("DGX H100"), nics=0).nics == 0
    with pytest.raises(ValueError, match=r"System.nics = -1 is not valid: it must be >= 0"):
        dataclasses.replace(catalog.system("DGX H100"), nics=-1)


# ---------------------------------------------------------------------------
# Bad input
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(("lookup", "kind", "cls", "table"), [
    (catalog.gpu, "GPU", "GPU", catalog.GPUS),
    (catalog.link, "link", "Link", catalog.LINKS),
    (catalog.switch, "switch", "Switch", catalog.SWITCHES),
    (catalog.nic, "NIC", "NIC", catalog.NICS),
    (catalog.system, "system", "System", catalog.SYSTEMS),
    (catalog.memory_tier, "memory tier", "MemoryTier", catalog.MEMORY_TIERS),
])
def test_unknown_names_list_the_valid_ones(lookup, kind, cls, table):
    with pytest.raises(ValueError) as raised:
        lookup("Nonexistent 9000")
    message = str(raised.value)
    assert f"unknown {kind} name 'Nonexistent 9000'" in message
    for name in table:
        assert repr(name) in message
    with pytest.raises(TypeError, match=rf"{kind} must be an? {cls} or the name of one \('"):
        lookup(400)
    # An entry itself is taken as it is, as every function that takes "an entry or its name" does.
    entry = next(iter(table.values()))
    assert lookup(entry) is entry


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


@pytest.mark.parametrize(("entry", "field"), [
    (catalog.gpu("H100 SXM"), "name"),
    (catalog.nic("ConnectX-7"), "host_link"),
    (catalog.system("DGX H100"), "gpu"),
    (catalog.link("CXL 2.0 x16"), "phy"),
])
def test_names_and_references_must_be_text(entry, field):
    for bad in ("", "   ", 7):
        with pytest.raises(TypeError, match=rf"{type(entry).__name__}\.{field} must be a non-empty string"):
            dataclasses.replace(entry, **{field: bad})


def test_bool_is_not_a_number_and_reduction_is_a_bool():
    with pytest.raises(TypeError, match="GPU.power_w must be a real number"):
        dataclasses.replace(catalog.gpu("H100 SXM"), power_w=True)
    with pytest.raises(TypeError, match="Switch.in_network_reduction must be True or False"):
        dataclasses.replace(catalog.switch("Tomahawk 5"), in_network_reduction="yes")


@pytest.mark.parametrize("entry", [catalog.gpu("B200"), catalog.link("Ethernet 400G"),
                                   catalog.switch("NVLink Switch chip"), catalog.nic("ConnectX-8"),
                                   catalog.system("GB200 NVL72"),
                                   catalog.memory_tier("Host memory over PCIe Gen5 x16")],
                         ids=lambda e: e.name)
def test_every_kind_of_entry_needs_a_source(entry):
    with pytest.raises(ValueError, match="needs at least one Source"):
        dataclasses.replace(entry, sources=())
    with pytest.raises(ValueError, match="needs at least one Source"):
        dataclasses.replace(entry, sources=("a web page",))
    one = Source(title="A datasheet", year=2024, url="https://example.org/ds.pdf")
    assert dataclasses.replace(entry, sources=one).sources == (one,)
