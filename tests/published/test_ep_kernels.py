"""Published EP kernel benchmarks: every table names its source at a commit and its inputs; the EFA
microbenchmark is as printed (UCCL ep/bench/alltoall/efa_alltoall_results.md, 'On two p5')."""

import re

import pytest

from interconnect_lab.published.ep_kernels import (
    EFA_MESSAGE_RATE, EP_KERNEL_BENCHMARKS, EP_KERNEL_TABLES, EPKernelBenchmark, EPKernelTable,
)
from interconnect_lab.published.moe import DEEPEP_LOW_LATENCY, DEEPEP_NORMAL


def test_deepep_rows_are_the_chapter_tables_not_retyped():
    deepep = [b for b in EP_KERNEL_BENCHMARKS if b.table.label.startswith("deepep_v1")]
    assert len(deepep) == len(DEEPEP_NORMAL) + len(DEEPEP_LOW_LATENCY)
    assert {b.bandwidth_gb_per_s for b in deepep} == {round(m.bandwidth_bytes_per_s / 1e9, 6)
                                                      for m in DEEPEP_NORMAL + DEEPEP_LOW_LATENCY}


def test_every_table_states_what_it_assumes_and_where_it_comes_from():
    for table in EP_KERNEL_TABLES:
        assert re.search(r"/blob/[0-9a-f]{40}/", table.source.url), table.label
        if "not stated" in table.network_as_published:
            assert table.assumptions, table.label


def test_efa_microbenchmark_as_printed():
    cross, rail = EFA_MESSAGE_RATE
    assert cross.message_bytes == rail.message_bytes and cross.message_bytes[0] == 8 * 1024
    assert (cross.bandwidth_gb_per_s[0], rail.bandwidth_gb_per_s[0], rail.bandwidth_gb_per_s[-1]) == (6.1, 13.8, 43.7)
    assert "f3a0911d" in cross.source.url


def test_a_cell_needs_a_figure_and_a_definition_for_its_bandwidth():
    table = EP_KERNEL_TABLES[0]
    with pytest.raises(ValueError, match="bandwidth or latency"):
        EPKernelBenchmark(table=table, operation="dispatch", ep_degree=8, definition=None)
    with pytest.raises(ValueError, match="needs its definition"):
        EPKernelBenchmark(table=table, operation="dispatch", ep_degree=8, definition=None, bandwidth_gb_per_s=1.0)
    with pytest.raises(ValueError, match="family"):
        EPKernelTable(**{**table.__dict__, "family": "training"})
