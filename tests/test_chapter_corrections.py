"""Issue 37's numbered errors, pinned in the chapters that made them.

Each test reads one committed notebook: the values its prose glues (from the
stored outputs, as the book and the slides read them) and its Markdown. A test
fails on the chapter as it stood before the correction, on the old number or
the old statement, and passes on the corrected one. The library side of each
correction has its own unit test beside its module (named in each docstring).
"""

import ast
import json
import math
import re
from functools import lru_cache
from pathlib import Path

import pytest

BOOK = Path(__file__).resolve().parent.parent / "book"


@lru_cache(maxsize=None)
def _notebook(name):
    return json.loads((BOOK / f"{name}.ipynb").read_text(encoding="utf-8"))


def glued(name):
    """Glued name -> value, from the notebook's stored outputs (as tools/build_slides.py reads them)."""
    values = {}
    for cell in _notebook(name)["cells"]:
        for output in cell.get("outputs", []):
            record = output.get("metadata", {}).get("scrapbook")
            if not record:
                continue
            text = "".join(output.get("data", {}).get(record.get("mime_prefix", "") + "text/plain", ""))
            text = re.sub(r"^np\.\w+\((.*)\)$", r"\1", text.strip())
            try:
                values[record["name"]] = ast.literal_eval(text)
            except (ValueError, SyntaxError):
                values[record["name"]] = text
    return values


def prose(name):
    """The chapter's Markdown, lines joined with single spaces (a phrase may span a line break)."""
    text = "\n".join("".join(c["source"]) for c in _notebook(name)["cells"] if c["cell_type"] == "markdown")
    return re.sub(r"\s+", " ", text)


CH3, CH6, CH10, CH13, CH14 = ("03_pcie_cxl_memory", "06_ultra_ethernet", "10_power_optics_future",
                              "13_topologies", "14_scale_up_fabrics")
CH12 = "12_inference_traffic"


def test_error_1_gb200_is_paired_with_its_400g_connectx_7():
    """Ch 14 paired GB200 with an 800G ConnectX-8 ("a ratio of 9"): it ships one 400G ConnectX-7 per GPU.

    Library: tests/catalog/test_systems.py::test_issue_37_error_1_gb200_has_one_400g_nic_per_gpu.
    """
    g = glued(CH14)
    assert (g["ch14_nic"], g["ch14_nic_gbit"], g["ch14_cliff"]) == ("ConnectX-7", 400.0, 18.0)
    assert (g["ch14_gb300_nic"], g["ch14_gb300_cliff"]) == ("ConnectX-8", 9.0)   # the 800G NIC is GB300's


def test_error_2_dgx_b200_kept_the_connectx_7():
    """Ch 14 said both networks doubled from H100 to B200; DGX B200 ships eight 400G ConnectX-7.

    Library: tests/test_roadmap.py::test_issue_37_error_2_b200_kept_the_400g_connectx_7.
    """
    g = glued(CH14)
    assert "both networks doubled" not in prose(CH14)
    assert g["ch14_g_ratio"] == pytest.approx(2.27, abs=0.01)       # compute per byte of NIC grew 2.3x
    assert (g["ch14_old_nic"], g["ch14_new_nic"], g["ch14_new_nic_gbit"]) == ("ConnectX-7", "ConnectX-7", 400.0)


def test_error_3_zero_offload_and_zero_3_with_cpu_offload_under_their_names():
    """Ch 3 modelled ZeRO-Offload with sharded weights (ZeRO-3 with CPU offload); each plan now stops where it does.

    Library: tests/test_memory.py::test_issue_37_error_3_zero_offload_keeps_every_weight_on_every_gpu.
    """
    g, text = glued(CH3), prose(CH3)
    assert "ZeRO-3 with CPU" in text and "ZeRO-Offload" in text
    assert g["zo_limit_b"] == pytest.approx(40.0)      # 80 GB of H100 HBM over 2 bytes per weight, any GPU count
    assert g["z3_limit_8_b"] == pytest.approx(320.0)   # ZeRO-3 with CPU offload on 8 GPUs: 8x as much


def test_error_4_pcie_gen6_verdict_rerun_on_a_current_host():
    """Ch 3's "PCIe Gen6 does not help" came from a 2023 host; on 12 x DDR5-6400 Gen6 is about twice Gen5.

    Library: tests/test_memory.py::test_the_host_is_a_parameter_of_a_path_to_host_memory.
    """
    g, text = glued(CH3), prose(CH3)
    assert "PCIe Gen6 does not help" not in text
    assert "DDR5-6400" in text
    assert g["old_gain"] == pytest.approx(1.22, abs=0.01)
    assert g["new_gain"] == pytest.approx(1.92, abs=0.01)


def test_error_5_bytes_per_flop_fall_as_a_trend_not_every_generation():
    """Ch 3 said every generation has fewer bytes of memory bandwidth per FLOP; its own table's H200 has more."""
    g, text = glued(CH3), prose(CH3)
    assert "every generation has fewer bytes" not in text
    assert g["flop_growth"] > g["hbm_bandwidth_growth"] > 1     # the trend, over the whole span


def test_error_6_incast_recoveries_named_for_what_they_do():
    """Ch 6's "drop-tail, selective recovery" recovered only by timeout; selective repeat now beats go-back-N.

    Library: tests/fabric/test_incast.py::test_selective_repeat_resends_on_the_sack_one_round_trip_after_the_loss.
    """
    g, text = glued(CH6), prose(CH6)
    assert "selective recovery" not in text
    assert "timeout only" in text and "selective repeat" in text
    assert g["ic_sr_8"] > g["ic_gbn_8"] > g["ic_droptail_8"]      # 8 senders: SR > GBN > timeout only


def test_error_7_the_4_3_second_stall_is_a_worst_case_of_named_settings():
    """Ch 6's 4.3 s stall is the worst case (adaptive retransmission off, NCCL_IB_TIMEOUT=20), not the norm."""
    g, text = glued(CH6), prose(CH6)
    assert "daptive retransmission" in text and "worst case" in text
    assert g["nccl_timeout_s"] == pytest.approx(4.294967296)
    assert g["adp_min_us"] == pytest.approx(4.0)                   # adaptive retransmission's base timeout


def test_error_8_infiniband_reach_and_the_cost_as_a_range():
    """Ch 10: 65,536 hosts is the QM9700's limit, not InfiniBand's; the Ethernet/InfiniBand cost is a range."""
    g, text = glued(CH10), prose(CH10)
    assert "The InfiniBand fabric cannot reach a hundred thousand GPUs" not in text
    assert "not of InfiniBand" in text
    assert (g["x800_ports"], g["x800_max2"], g["x800_max3"]) == (144, 10_368, 746_496)
    assert g["eth_ib_ratio_low"] < 1 < 2 < g["eth_ib_ratio_high"]  # "twice" is inside the range, so is parity
    assert g["eth_ib_ratio_central"] == pytest.approx(1.9, abs=0.05)


def test_error_9_the_largest_gpu_clusters_are_clos_fabrics():
    """Ch 13 said the largest machines mostly use something else than fat trees: not the largest GPU clusters.

    Library: tests/topology/test_planes.py::test_the_largest_published_gpu_clusters_are_clos_fabrics.
    """
    g, text = glued(CH13), prose(CH13)
    assert "mostly use something else" not in text
    assert "Clos" in g["ch13_meta_topology"] and g["ch13_meta_gpus"] == 24_576
    assert g["ch13_colossus_gpus"] == 100_000 and "three tiers" in g["ch13_colossus_topology"]



def test_error_10_decode_all_reduces_are_priced_as_serving_engines_run_them():
    """Ch 12's 31% share of the inter-token latency rested on NCCL's ring constants; engines run one-shot kernels.

    Library: tests/inference/test_deployment.py::test_error_10_the_all_reduces_are_a_sixth_of_the_inter_token_latency_not_31_percent
    and tests/collectives/test_serving.py (the kernels against SGLang's and vLLM's measurements).
    """
    g, text = glued(CH12), prose(CH12)
    assert g["inf_itl_share"] == pytest.approx(0.15, abs=0.02)
    assert g["inf_nccl_itl_share"] > 2 * g["inf_itl_share"]
    assert g["inf_oneshot_us"] == pytest.approx(6.0, abs=0.1) and g["inf_nccl_us"] > 3 * g["inf_oneshot_us"]
    assert "one-shot" in text and "NCCL's symmetric kernels" in text and "31%" not in text

@pytest.mark.parametrize("check", ["ualink", "cpo", "802.3dj", "pcie7", "cxl4"])
def test_error_11_statuses_are_current(check):
    """Stale statuses: UALink 2.0, TH6-Davisson shipping, 802.3dj past July 2026, PCIe 7.0, CXL 4.0's own release."""
    if check == "ualink":
        g, text = glued(CH14), prose(CH14)
        assert g["ch14_ua_status"] == "specification" and "UALink 2.0" in text
    elif check == "cpo":
        assert "Deployed in trials" not in prose(CH10)
        assert glued(CH14)["ch14_davisson_date"] == "2025-10"
        assert glued(CH10)["davisson_status"].startswith("shipping 2025-10")
    elif check == "802.3dj":
        assert "due for completion in 2026-07" not in prose(CH14)
        g = glued(CH14)
        assert g["ch14_dj_status"] == "in development" and g["ch14_dj_expected"] != "2026-07"
    elif check == "pcie7":
        g = glued(CH3)
        assert (g["pcie7_date"], g["pcie7_gt"]) == ("2025-06-11", 128.0)
    else:
        text = prose(CH3)
        assert "cxl2025spec40" in text and "introl2025cxl4" not in text
        assert glued(CH3)["cxl4_status"].startswith("specification 2025-11-18")


def test_forward_looking_entries_show_status_and_as_of_where_the_book_uses_them():
    """The book prints an announced entry's status with its as-of date (catalog.status_line) where it uses one."""
    for chapter, key in ((CH10, "kyber_status"), (CH10, "sxp_status"), (CH3, "cxl4_status")):
        value = glued(chapter)[key]
        assert "as of" in value and "expected by" in value, (chapter, key, value)
    assert math.isclose(glued(CH13)["ch13_ds_switches"], glued(CH13)["ch13_ds_published_switches"])
