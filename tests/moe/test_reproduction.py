"""Chapter 11's table: the expert-parallel kernels against published dispatch and combine benchmarks.

Sources (interconnect_lab.published.ep_kernels, each with its URL at a commit): DeepEP V1 on H800
(docs/legacy.md, development family); Hybrid-EP on H100, B200 and GB200 (DeepEP hybrid-ep branch,
docs/README_Hybrid-EP.md); UCCL-EP on H200 and B200 with AWS EFA (uccl ep/README.md); TensorRT-LLM's
NVLinkOneSided all-to-all on GB200 NVL72 (tech blog 18); NCCL EP on H100 (contrib/nccl_ep/README.md).
The validation family was compared only after the model was committed. Every tolerance below is what
chapter 11 reports: it guards against the model getting worse, it is not a target; the misses are named.
"""

import re
import statistics

import pytest

from interconnect_lab.moe.reproduction import (
    benchmark_system, benchmark_traffic, ep_reproduction_summary, ep_reproduction_table,
)
from interconnect_lab.published.ep_kernels import EP_KERNEL_BENCHMARKS, EP_KERNEL_TABLES, FAMILIES

ROWS = ep_reproduction_table()
SUMMARY = ep_reproduction_summary(ROWS)


def rows_of(label, **match):
    chosen = [r for r in ROWS if r.benchmark.table.label == label
              and all(getattr(r.benchmark, key) == value for key, value in match.items())]
    assert chosen, (label, match)
    return chosen


def errors(rows):
    return [abs(r.error) for r in rows]


def test_the_table_covers_what_issue_35_asks():
    implementations = {t.implementation.split(" ")[0] for t in EP_KERNEL_TABLES}
    assert len(implementations) >= 3, implementations
    architectures = {benchmark_system(b).architecture for b in EP_KERNEL_BENCHMARKS}
    assert architectures == {"hopper", "blackwell"}
    assert {t.family for t in EP_KERNEL_TABLES} == set(FAMILIES)
    assert {t.kernel for t in EP_KERNEL_TABLES} == {"normal", "low_latency", "host_proxied", "nvlink_one_sided"}
    assert len(ROWS) >= 100


def test_every_table_cites_its_source_at_a_commit():
    for table in EP_KERNEL_TABLES:
        assert re.search(r"/blob/[0-9a-f]{40}/", table.source.url), table.label


def test_every_cell_builds_its_machine_and_workload():
    for b in EP_KERNEL_BENCHMARKS:
        system, traffic = benchmark_system(b), benchmark_traffic(b)
        assert system.ranks == b.ep_degree == traffic.ep_degree


def test_the_model_counts_the_bytes_each_test_counts():
    # Where a table prints a time and a bandwidth, bandwidth x time is the bytes the authors' test counts:
    # the model's count of the same bytes agrees within 3% (DeepEP, TensorRT-LLM, UCCL-EP normal), within
    # 16% for UCCL-EP's low-latency table (its printed bandwidths and times do not quite agree with each other).
    for row in ROWS:
        if row.counted_bytes_error is None:
            continue
        tolerance = 0.16 if row.benchmark.table.label.startswith("uccl_ep") and \
            row.benchmark.table.kernel == "host_proxied" else 0.03
        assert abs(row.counted_bytes_error) <= tolerance, (row.benchmark, row.counted_bytes_error)


def test_families_are_reported_as_chapter_11_reports_them():
    # Development (DeepEP V1 on H800, 20 rows): median |error| 20%, largest 88% (low-latency EP 8).
    n, median, largest = SUMMARY[("development", "all")]
    assert n == 20 and median <= 0.25 and largest <= 0.95
    # Validation (87 rows of four implementations, Hopper and Blackwell): median 38%; the largest misses
    # are the latency floors of one-token batches (TensorRT-LLM) and host-proxied posting on EFA (UCCL-EP).
    n, median, largest = SUMMARY[("validation", "all")]
    assert n == 87 and median <= 0.45


def test_the_model_is_never_slower_than_a_measurement():
    # Every term is a lower bound on what a kernel needs: the model is optimistic on every row.
    assert all(row.error > -0.01 for row in ROWS), [r.benchmark for r in ROWS if r.error <= -0.01]


def test_deepep_v1_normal_kernels_h800():
    # DeepEP docs/legacy.md, normal kernels: RDMA-bound EP 32 and 64 within 12%, NVLink-bound EP 8 and 16
    # within 35% (the kernels reach ~80% of NCCL's NVLink rate; the model charges all of it).
    assert max(errors(r for r in rows_of("deepep_v1_h800_normal") if r.benchmark.ep_degree >= 32)) <= 0.12
    assert max(errors(rows_of("deepep_v1_h800_normal"))) <= 0.35
    assert {r.all_to_all.bottleneck for r in rows_of("deepep_v1_h800_normal", ep_degree=16)} == {"scale-up"}


def test_deepep_v1_low_latency_kernels_h800():
    # DeepEP docs/legacy.md, low-latency kernels: EP 16-256 within 36%; EP 8 (NVLink only, one warp per
    # message) is the named miss, the measured dispatch 1.9 times the model's.
    assert max(errors(r for r in rows_of("deepep_v1_h800_low_latency") if r.benchmark.ep_degree >= 16)) <= 0.36
    assert rows_of("deepep_v1_h800_low_latency", ep_degree=8, operation="dispatch")[0].error > 0.5


def test_hybrid_ep_h100_b200_gb200():
    # Hybrid-EP README: kernel-only algorithm bandwidth, best of the SM sweep. H100 (IB) median 14%, largest
    # 38%; B200 and GB200 (NVLink) median 14%, largest 46% (FP8 dispatch, where quantizing costs SM time).
    h100 = rows_of("hybrid_ep_h100")
    assert statistics.median(errors(h100)) <= 0.20 and max(errors(h100)) <= 0.40
    nvlink = rows_of("hybrid_ep_b200") + rows_of("hybrid_ep_gb200")
    assert statistics.median(errors(nvlink)) <= 0.20 and max(errors(nvlink)) <= 0.50


def test_uccl_ep_normal_kernels_on_efa():
    # UCCL-EP README, normal kernels on p5en (2 x 200G EFA per H200) and p6-b200 (400G EFA per B200):
    # dispatch across 3-4 nodes within 35%; the named misses are the p5en combines (18-43 GB/s printed)
    # and the B200 intranode dispatch (280 GB/s printed, the model 2.8 times faster).
    across = [r for r in rows_of("uccl_ep_h200_p5en_normal") + rows_of("uccl_ep_b200_p6_normal")
              if r.benchmark.ep_degree >= 24 and r.benchmark.operation == "dispatch"]
    assert max(errors(across)) <= 0.35
    assert rows_of("uccl_ep_h200_p5en_normal", ep_degree=16, operation="combine")[0].error > 3


def test_uccl_ep_low_latency_kernels_on_efa_are_the_largest_miss_of_the_host_proxies():
    # UCCL-EP README, low-latency kernels on EFA: the model (NCCL's 1 µs host post, 4 proxy threads) is
    # 1.6 to 2.9 times too fast: EFA's per-message rate, not the proxy, sets these times.
    proxied = rows_of("uccl_ep_h200_p5en_low_latency") + rows_of("uccl_ep_b200_p6_low_latency")
    assert all(0.5 < r.error < 2.0 for r in proxied)


def test_tensorrt_llm_one_sided_gb200():
    # TensorRT-LLM blog 18, GB200 NVL72, BF16: 2,048 tokens within 75%; 1 token misses by more than 20
    # times (the kernel's ~19-31 µs floor of flags and barriers; the model charges one NVLink hop).
    assert max(errors(r for r in rows_of("trtllm_gb200_one_sided") if r.benchmark.tokens == 2048)) <= 0.75
    assert min(r.error for r in rows_of("trtllm_gb200_one_sided") if r.benchmark.tokens == 1) > 20


def test_nccl_ep_low_latency_h100():
    # NCCL EP README, LL mode, BF16: EP 16-64 within 26%; EP 8 (NVLink only) is the named miss.
    assert max(errors(r for r in rows_of("nccl_ep_h100_low_latency") if r.benchmark.ep_degree >= 16)) <= 0.26
    assert min(r.error for r in rows_of("nccl_ep_h100_low_latency", ep_degree=8)) > 0.5


@pytest.mark.parametrize("label", [t.label for t in EP_KERNEL_TABLES])
def test_every_table_has_rows(label):
    assert rows_of(label)
