"""Calibration: parsers read every shipped log exactly; bad input is refused with the line named;
the fit reproduces each shipped sweep; the calibrated link and cluster feed the library's models.

Hostile input is at the end (and fuzzed with tests/fuzzing.py where noted).
"""

import re
import subprocess
import sys
import textwrap

import numpy as np
import pytest

from fuzzing import Case, choice, make_tests

from interconnect_lab import calibrate, collectives as coll, units as u
from interconnect_lab.calibrate import (
    SHIPPED_LOGS, NcclTestsRun, TopologyMatrix, parse_nvidia_smi_topo, shipped_run, shipped_text,
)


NCCL_LOGS = [name for name, entry in SHIPPED_LOGS.items() if entry.tool == "nccl-tests"]

ROW = re.compile(r"^\s+\d+\s+\d+\s+\w+")


def rows_of(text):
    """The table rows of a log, without a launcher's line labels ('0: ')."""
    lines = (re.sub(r"^\s*\d+:(?=\s)", "", line) for line in text.splitlines())
    return [line for line in lines if ROW.match(line)]


def test_every_shipped_file_is_registered_and_every_entry_has_a_file_and_a_bib_entry():
    from importlib import resources
    folder = resources.files("interconnect_lab.calibrate.logs")
    files = {p.name for p in folder.iterdir() if p.name.endswith(".txt")}
    assert files == {entry.filename for entry in SHIPPED_LOGS.values()}
    bib = (__import__("pathlib").Path(__file__).resolve().parents[2] / "book" / "references.bib").read_text()
    for entry in SHIPPED_LOGS.values():
        assert f"{{{entry.bib_key}," in bib, entry.bib_key
        assert entry.url is None or entry.url.startswith("https://github.com/")
        assert entry.year >= 2017


@pytest.mark.parametrize("name", NCCL_LOGS)
def test_nccl_tests_parser_reads_every_row_and_column_of_the_shipped_log(name):
    text = shipped_text(name)
    run = shipped_run(name)
    assert isinstance(run, NcclTestsRun)
    rows = rows_of(text)
    assert len(run.size_bytes) == len(rows)
    lead = {"current": 5, "redop-root": 5, "redop": 4, "root": 4, "plain": 3}[run.layout]
    for i, line in enumerate(rows):
        tokens = line.split()
        assert run.size_bytes[i] == int(tokens[0]) and run.count[i] == int(tokens[1])
        assert run.data_type[i] == tokens[2]
        for group, offset in ((run.out_of_place, lead), (run.in_place, lead + 4)):
            assert group.time_s[i] == pytest.approx(float(tokens[offset]) * 1e-6, rel=1e-12)
            assert group.algorithm_bandwidth_bytes_per_s[i] == pytest.approx(float(tokens[offset + 1]) * 1e9)
            assert group.bus_bandwidth_bytes_per_s[i] == pytest.approx(float(tokens[offset + 2]) * 1e9)
    average = re.search(r"Avg bus bandwidth\s*: (\S+)", text)
    if average is None:
        assert run.average_bus_bandwidth_bytes_per_s is None and "without the closing" in run.elisions[-1]
    else:
        assert run.average_bus_bandwidth_bytes_per_s == pytest.approx(float(average.group(1)) * 1e9)
    ranks = [int(r) for r in re.findall(r"^#\s+Rank\s+(\d+)", text, re.M)]
    assert run.n_ranks == (SHIPPED_LOGS[name].n_ranks or max(ranks) + 1)
    assert run.rank_count_source == ("caller" if SHIPPED_LOGS[name].n_ranks else
                                     "rank lines" if len(ranks) == max(ranks) + 1 else "last rank line")


@pytest.mark.parametrize("name", [n for n in NCCL_LOGS if not shipped_run(n).elisions])
def test_avg_bus_bandwidth_is_the_mean_of_every_printed_busbw(name):
    # nccl-tests averages busbw over both groups of every row; each printed busbw is rounded to 0.01.
    # (Excerpts are left out: their average covers the rows their publishers cut.)
    run = shipped_run(name)
    both = np.concatenate([run.out_of_place.bus_bandwidth_bytes_per_s, run.in_place.bus_bandwidth_bytes_per_s])
    assert abs(both.mean() - run.average_bus_bandwidth_bytes_per_s) / u.GB_per_s <= 0.0051


@pytest.mark.parametrize("name, layout, convention, nodes, version", [
    ("v100_dgx2_all_reduce", "redop", "current", 1, None),
    ("v100_dgx2_all_gather", "plain", "legacy", 1, None),
    ("v100_dgx2_broadcast", "root", "current", 1, None),
    ("a100_2x8_roce_all_reduce", "current", "current", 2, None),
    ("a100_2x8_roce_all_reduce_large", "current", "current", 2, "2.14.3+cuda11.7"),
    ("h100_2x8_a3mega_all_reduce", "current", "current", 2, None),
])
def test_layouts_conventions_nodes_and_versions_are_read_not_guessed(name, layout, convention, nodes, version):
    run = shipped_run(name)
    assert (run.layout, run.bandwidth_convention, run.n_nodes, run.nccl_version) == (layout, convention, nodes,
                                                                                      version)


def test_legacy_all_gather_algbw_equals_busbw_and_both_are_the_bus_rate():
    run = shipped_run("v100_dgx2_all_gather")
    keep = run.size_bytes >= u.MiB
    factor = coll.bus_bandwidth_factor("all_gather", 12)
    recomputed = factor * run.size_bytes[keep] / run.out_of_place.time_s[keep]
    assert np.allclose(run.out_of_place.bus_bandwidth_bytes_per_s[keep], recomputed, rtol=0.01)
    assert np.allclose(run.out_of_place.algorithm_bandwidth_bytes_per_s[keep],
                       run.out_of_place.bus_bandwidth_bytes_per_s[keep])
    assert run.out_of_bounds == 4


def test_perftest_units_and_settings():
    roce = shipped_run("ib_write_bw_roce")
    assert roce.rate_unit == "Gb/sec" and roce.queue_pairs == 4
    assert roce.settings["Link type"] == "Ethernet" and roce.settings["Device"] == "mlx5_5"
    # 98.01 Gb/s = 12.25 GB/s (per direction; 100 Gb/s RoCE port)
    assert roce.average_bandwidth_bytes_per_s[0] == pytest.approx(98.01e9 / 8)
    read = shipped_run("ib_read_bw_connectx3")
    assert read.rate_unit == "MB/sec"
    assert read.average_bandwidth_bytes_per_s[-1] == pytest.approx(3666.47 * 2**20)
    # Bandwidth = message rate x size at every size, within the printed precision.
    assert np.allclose(read.average_bandwidth_bytes_per_s, read.message_rate_per_s * read.size_bytes, rtol=0.01)


def test_topology_matrix_of_the_shipped_dgx_a100():
    topo = shipped_run("topo_dgx_a100")
    assert isinstance(topo, TopologyMatrix)
    assert len(topo.gpus) == 8 and len(topo.nics) == 10
    assert topo.counts() == {"NV12": 28}
    assert topo.nvlinks("GPU0", "GPU7") == 12 and topo.nvlinks("GPU0", "NIC0") == 0
    assert topo.nearest_nics("GPU0") == ("mlx5_0", "mlx5_1")
    assert topo.nearest_nics("GPU7") == ("mlx5_6", "mlx5_7")
    assert topo.connection("NIC8", "NIC9") == "PIX"
    assert topo.affinity["GPU4"]["NUMA Affinity"] == "7"


def test_topology_space_separated_reads_the_same():
    text = shipped_text("topo_dgx_a100")
    spaced = "\n".join(line.replace("\t", "    ") for line in text.splitlines())
    assert parse_nvidia_smi_topo(spaced).connections == shipped_run("topo_dgx_a100").connections


def test_calibrate_imports_without_matplotlib_or_ipywidgets():
    script = textwrap.dedent("""
        import sys
        class Block:
            def find_spec(self, name, path=None, target=None):
                if name.split('.')[0] in ('matplotlib', 'ipywidgets', 'IPython'):
                    raise ImportError('blocked: ' + name)
        sys.meta_path.insert(0, Block())
        import interconnect_lab.calibrate as c
        c.calibrate_nccl_tests('v100_dgx2_all_reduce')
        print('ok')
    """)
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "ok"


# Hostile input: fuzzed with tests/fuzzing.py -----------------------------------------------------

FUZZ_CASES = [
    Case(calibrate.shipped_run, dict(name=choice(tuple(calibrate.SHIPPED_LOGS))), refusing=("ranks_per_node", "n_nodes")),
]

test_fuzz, test_fuzz_nightly = make_tests(FUZZ_CASES)
