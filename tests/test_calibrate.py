"""Calibration: parsers read every shipped log exactly; bad input is refused with the line named;
the fit reproduces each shipped sweep; the calibrated link and cluster feed the library's models."""

import re
import subprocess
import sys
import textwrap

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from interconnect_lab import catalog, training
from interconnect_lab import collectives as coll
from interconnect_lab import units as u
from interconnect_lab.calibrate import (
    SHIPPED_LOGS, CalibratedCluster, CalibratedLink, NcclTestsRun, PerftestRun, TopologyMatrix,
    calibrate_nccl_tests, calibrated_cluster, fit_collective, parse_nccl_tests,
    parse_nvidia_smi_topo, parse_perftest, shipped_run, shipped_system, shipped_text,
)

NCCL_LOGS = [name for name, entry in SHIPPED_LOGS.items() if entry.tool == "nccl-tests"]
PERFTEST_LOGS = [name for name, entry in SHIPPED_LOGS.items() if entry.tool == "perftest"]
ROW = re.compile(r"^\s+\d+\s+\d+\s+\w+")

#: The issue's tolerance: the fitted model reproduces each shipped sweep's busbw within 10 %
#: at every size from 1 MiB up.
FIT_TOLERANCE = 0.10


def rows_of(text):
    """The table rows of a log, without a launcher's line labels ('0: ')."""
    lines = (re.sub(r"^\s*\d+:(?=\s)", "", line) for line in text.splitlines())
    return [line for line in lines if ROW.match(line)]


# Provenance --------------------------------------------------------------------------------

def test_every_shipped_file_is_registered_and_every_entry_has_a_file_and_a_bib_entry():
    from importlib import resources
    folder = resources.files("interconnect_lab.calibrate.logs")
    files = {p.name for p in folder.iterdir() if p.name.endswith(".txt")}
    assert files == {entry.filename for entry in SHIPPED_LOGS.values()}
    bib = (__import__("pathlib").Path(__file__).resolve().parent.parent / "book" / "references.bib").read_text()
    for entry in SHIPPED_LOGS.values():
        assert f"{{{entry.bib_key}," in bib, entry.bib_key
        assert entry.url is None or entry.url.startswith("https://github.com/")
        assert entry.year >= 2017


# nccl-tests round trip ------------------------------------------------------------------

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


def test_newer_preamble_names_collective_and_nccl_version():
    body = shipped_text("a100_2x8_roce_all_reduce")
    text = ("# nccl-tests version 2.18.0 nccl-headers=22907 nccl-library=22907\n"
            "# Collective test starting: all_reduce_perf\n" + body + "# Collective test concluded: all_reduce_perf\n")
    run = parse_nccl_tests(text)
    assert run.collective == "all_reduce" and run.nccl_version == "2.29.7"
    with pytest.raises(ValueError, match="disagrees"):
        parse_nccl_tests(text, collective="all_gather")


def test_nccl_debug_lines_are_skipped_and_listed():
    lines = shipped_text("v100_dgx2_all_reduce").splitlines()
    at = next(i for i, line in enumerate(lines) if ROW.match(line)) + 3
    lines.insert(at, "seville:88131:88131 [0] NCCL INFO Launch mode Parallel")
    run = parse_nccl_tests("\n".join(lines), collective="all_reduce")
    assert run.skipped_lines == (at + 1,)


# nccl-tests bad input --------------------------------------------------------------------

def test_empty_input_is_refused():
    for text in ("", "   \n\n"):
        with pytest.raises(ValueError, match="empty"):
            parse_nccl_tests(text, collective="all_reduce")
    with pytest.raises(TypeError, match="string"):
        parse_nccl_tests(b"# nThread", collective="all_reduce")


@pytest.mark.parametrize("name", NCCL_LOGS)
def test_a_log_cut_above_its_first_row_is_refused_and_below_it_says_where_it_ends(name):
    lines = shipped_text(name).splitlines()
    full = shipped_run(name)
    options = {"collective": SHIPPED_LOGS[name].program, "n_ranks": SHIPPED_LOGS[name].n_ranks}
    first_row = next(i for i, line in enumerate(lines) if rows_of(line))
    average = next((i for i, line in enumerate(lines) if "Avg bus bandwidth" in line), len(lines))
    for cut in range(1, first_row + 1):
        with pytest.raises(ValueError, match=r"line \d+|ends|empty"):
            parse_nccl_tests("\n".join(lines[:cut]), **options)
    for cut in range(first_row + 1, average + 1):
        run = parse_nccl_tests("\n".join(lines[:cut]), **options)
        assert np.array_equal(run.size_bytes, full.size_bytes[:len(run.size_bytes)])
        assert run.average_bus_bandwidth_bytes_per_s is None
        assert re.search(rf"^line {cut}: the log ends here, without the", run.elisions[-1])
    # A row cut in the middle is refused, naming its line, unless it is the text's last line.
    damaged = lines[:first_row] + [lines[first_row][:40]] + lines[first_row + 1:]
    with pytest.raises(ValueError, match=f"line {first_row + 1}:"):
        parse_nccl_tests("\n".join(damaged), **options)


def test_reordered_rows_are_refused():
    lines = shipped_text("v100_dgx2_all_reduce").splitlines()
    rows = [i for i, line in enumerate(lines) if ROW.match(line)]
    lines[rows[4]], lines[rows[5]] = lines[rows[5]], lines[rows[4]]
    with pytest.raises(ValueError, match=rf"line {rows[5] + 1}: expected a size >= .*reordered"):
        parse_nccl_tests("\n".join(lines), collective="all_reduce")


def test_non_numeric_cells_are_refused_naming_line_and_column():
    lines = shipped_text("h100_2x8_a3mega_all_reduce").splitlines()
    row = next(i for i, line in enumerate(lines) if ROW.match(line))
    lines[row] = lines[row].replace("135.8", "13x.8", 1)
    with pytest.raises(ValueError, match=rf"line {row + 1}: expected a number in column 'out-of-place time'"):
        parse_nccl_tests("\n".join(lines), collective="all_reduce")


def test_a_garbled_bandwidth_is_caught_by_size_over_time():
    lines = shipped_text("v100_dgx2_all_reduce").splitlines()
    row = next(i for i, line in enumerate(lines) if ROW.match(line) and line.split()[0] == "1073741824")
    lines[row] = lines[row].replace("67.17", "76.17", 1)
    with pytest.raises(ValueError, match=rf"line {row + 1}: out-of-place algbw 76.17 GB/s does not equal"):
        parse_nccl_tests("\n".join(lines), collective="all_reduce")


def test_the_wrong_collective_is_refused_by_the_bus_factor():
    text = shipped_text("v100_dgx2_all_reduce")
    with pytest.raises(ValueError, match="bus factor of 'reduce_scatter'"):
        parse_nccl_tests(text, collective="reduce_scatter")
    with pytest.raises(ValueError, match="cannot be a 'all_gather' run"):
        parse_nccl_tests(text, collective="all_gather")
    with pytest.raises(ValueError, match="does not name its collective"):
        parse_nccl_tests(text)
    with pytest.raises(ValueError, match="unknown collective 'allreduce'"):
        parse_nccl_tests(text, collective="allreduce")


def test_text_before_the_header_is_refused_with_advice():
    text = "$ ./build/all_reduce_perf -b 8 -e 8G\n" + shipped_text("v100_dgx2_all_reduce")
    with pytest.raises(ValueError, match="line 1: expected the nccl-tests header.*shell prompt"):
        parse_nccl_tests(text, collective="all_reduce")


def test_two_runs_in_one_text_are_refused():
    text = shipped_text("v100_dgx2_all_reduce")
    with pytest.raises(ValueError, match="one run per text"):
        parse_nccl_tests(text + text, collective="all_reduce")


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=400))
def test_random_text_is_refused_with_a_value_error(text):
    for parser, kwargs in ((parse_nccl_tests, {"collective": "all_reduce"}), (parse_perftest, {}),
                           (parse_nvidia_smi_topo, {})):
        with pytest.raises(ValueError):
            parser(text, **kwargs)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_mutated_logs_parse_or_fail_with_a_value_error_naming_a_line(data):
    name = data.draw(st.sampled_from(NCCL_LOGS))
    lines = shipped_text(name).splitlines()
    index = data.draw(st.integers(0, len(lines) - 1))
    action = data.draw(st.sampled_from(["delete", "duplicate", "garble", "swap"]))
    if action == "delete":
        del lines[index]
    elif action == "duplicate":
        lines.insert(index, lines[index])
    elif action == "swap" and index + 1 < len(lines):
        lines[index], lines[index + 1] = lines[index + 1], lines[index]
    else:
        junk = data.draw(st.text(alphabet="0123456789.-eE#xN/A ", min_size=1, max_size=6))
        position = data.draw(st.integers(0, max(len(lines[index]) - 1, 0)))
        lines[index] = lines[index][:position] + junk + lines[index][position + len(junk):]
    try:
        run = parse_nccl_tests("\n".join(lines), collective=SHIPPED_LOGS[name].program,
                               n_ranks=SHIPPED_LOGS[name].n_ranks)
    except ValueError as error:
        assert re.search(r"line \d+|ends|truncated|empty|collective|cannot be", str(error)), str(error)
    else:
        assert np.all(np.diff(run.size_bytes) >= 0)
        assert np.all(run.out_of_place.time_s > 0) or np.any(run.size_bytes == 0)


# perftest ------------------------------------------------------------------------------

@pytest.mark.parametrize("name", PERFTEST_LOGS)
def test_perftest_parser_reads_every_row_of_the_shipped_log(name):
    text = shipped_text(name)
    run = shipped_run(name)
    assert isinstance(run, PerftestRun)
    assert run.program == SHIPPED_LOGS[name].program
    rows = [line for line in text.splitlines() if re.match(r"^\s*\d+\s+\d+\s+[\d.]", line)]
    assert len(run.size_bytes) == len(rows)
    last = rows[-1].split()
    assert run.size_bytes[-1] == int(last[0]) and run.iterations[-1] == int(last[1])
    if run.kind == "bandwidth":
        scale = {"MB/sec": 2**20, "Gb/sec": 125e6}[run.rate_unit]
        assert run.average_bandwidth_bytes_per_s[-1] == pytest.approx(float(last[3]) * scale)
        assert run.message_rate_per_s[-1] == pytest.approx(float(last[4]) * 1e6)
    else:
        assert run.latency_s["t_typical"][-1] == pytest.approx(float(last[4]) * 1e-6)
        assert np.all(run.latency_s["t_min"] <= run.latency_s["t_max"])


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


def test_perftest_bad_input():
    text = shipped_text("ib_write_lat_connectx3")
    lines = text.splitlines()
    with pytest.raises(ValueError, match="empty"):
        parse_perftest("")
    with pytest.raises(ValueError, match="truncated"):
        parse_perftest("\n".join(lines[:-1]))
    rows = [i for i, line in enumerate(lines) if re.match(r"^\s*\d+\s+20000", line)]
    swapped = list(lines)
    swapped[rows[2]], swapped[rows[3]] = swapped[rows[3]], swapped[rows[2]]
    with pytest.raises(ValueError, match=rf"line {rows[3] + 1}: expected a size > "):
        parse_perftest("\n".join(swapped))
    garbled = list(lines)
    garbled[rows[0]] = garbled[rows[0]].replace("0.98", "O.98")
    with pytest.raises(ValueError, match=rf"line {rows[0] + 1}: expected numbers"):
        parse_perftest("\n".join(garbled))
    with pytest.raises(ValueError, match="line 1: expected a dashed line"):
        parse_perftest("ib_write_lat -a 192.168.1.60\n" + text)
    with pytest.raises(ValueError, match="one run per text"):
        parse_perftest(text + text)


def test_perftest_cpu_frequency_warnings_are_skipped_and_listed():
    lines = shipped_text("ib_send_bw_connectx3").splitlines()
    row = next(i for i, line in enumerate(lines) if line.startswith(" 2 "))
    lines.insert(row, "Conflicting CPU frequency values detected: 2300.000000 != 2400.000000. CPU Frequency is not max.")
    run = parse_perftest("\n".join(lines))
    assert run.skipped_lines == (row + 1,) and len(run.size_bytes) == 23


# nvidia-smi topo -m ------------------------------------------------------------------------

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


def test_topology_bad_input():
    lines = shipped_text("topo_dgx_a100").splitlines()
    with pytest.raises(ValueError, match="truncated: the row of NIC9 is missing"):
        parse_nvidia_smi_topo("\n".join(lines[:18]))
    with pytest.raises(ValueError, match="line 3: expected the row of GPU1"):
        parse_nvidia_smi_topo("\n".join([lines[0], lines[1], lines[3], lines[2]] + lines[4:]))
    asymmetric = list(lines)
    asymmetric[1] = asymmetric[1].replace("NV12", "NV6", 1)
    with pytest.raises(ValueError, match="not symmetric"):
        parse_nvidia_smi_topo("\n".join(asymmetric))
    odd = list(lines)
    odd[2] = odd[2].replace("PXB", "PCI", 1)
    with pytest.raises(ValueError, match="line 3: expected 18 cells"):
        parse_nvidia_smi_topo("\n".join(odd))
    with pytest.raises(ValueError, match="empty"):
        parse_nvidia_smi_topo("")


# Fitting -----------------------------------------------------------------------------------

@pytest.mark.parametrize("name", NCCL_LOGS)
def test_fit_reproduces_each_shipped_sweep_within_ten_percent_above_one_mebibyte(name):
    fit = fit_collective(shipped_run(name))
    sizes = fit.size_bytes >= u.MiB
    predicted = fit.predicted_bus_bandwidth_bytes_per_s(fit.size_bytes[sizes])
    measured = fit.measured_bus_bandwidth_bytes_per_s[sizes]
    worst = float(np.max(np.abs(predicted / measured - 1)))
    assert worst <= FIT_TOLERANCE, f"{name}: fitted busbw off by {worst:.1%} (tolerance {FIT_TOLERANCE:.0%})"
    assert worst == pytest.approx(fit.max_relative_error(u.MiB))


def test_fit_recovers_the_parameters_of_a_sweep_made_by_the_model():
    # A sweep printed from the model itself must be fitted back to the model's own line.
    sizes = 8 * 2.0 ** np.arange(0, 31)
    n = 8
    model = coll.collective_performance("all_reduce", sizes, n, 450e9, 3.4e-6, efficiency=0.8)
    rows = "\n".join(f"{int(s):12d}  {int(s // 4):12d}     float     sum      -1  {t * 1e6:9.3f}  "
                     f"{s / t / 1e9:6.2f}  {b / 1e9:6.2f}      0  {t * 1e6:9.3f}  {s / t / 1e9:6.2f}  {b / 1e9:6.2f}      0"
                     for s, t, b in zip(sizes, model.time_s, model.bus_bandwidth_bytes_per_s))
    ranks = "\n".join(f"#  Rank {r:2d} Group  0 Pid 1 on host device {r:2d} [0x{r:02x}] NVIDIA H100 80GB HBM3"
                      for r in range(n))
    text = textwrap.dedent("""\
        # nThread 1 nGpus 8 minBytes 8 maxBytes 8589934592 step: 2(factor) warmup iters: 5 iters: 20 agg iters: 1 validation: 1 graph: 0
        #
        # Using devices
        """) + ranks + textwrap.dedent("""
        #
        #                                                              out-of-place                       in-place
        #       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong
        #        (B)    (elements)                               (us)  (GB/s)  (GB/s)            (us)  (GB/s)  (GB/s)
        """) + rows + "\n# Out of bounds values : 0 OK\n# Avg bus bandwidth    : 100\n"
    fit = fit_collective(parse_nccl_tests(text, collective="all_reduce"))
    assert len(fit.segments) == 1
    assert fit.segments[0].latency_term_s == pytest.approx(model.latency_term_s[0], rel=1e-3)
    assert fit.plateau_bus_bandwidth_bytes_per_s == pytest.approx(360e9, rel=1e-3)
    link = fit.link()
    assert link.bandwidth_bytes_per_s == pytest.approx(0.8 * 450e9, rel=1e-3)
    assert link.base_latency_s + 14 * link.latency_s == pytest.approx(model.latency_term_s[0], rel=1e-3)


def test_regimes_run_from_latency_to_bandwidth_bound():
    for name in NCCL_LOGS:
        fit = fit_collective(shipped_run(name))
        regimes = fit.regime(fit.size_bytes)
        order = [("latency-bound", "protocol-bound", "bandwidth-bound").index(r) for r in regimes]
        assert regimes[-1] == "bandwidth-bound", name
        if len(regimes) > 4:
            assert regimes[0] == "latency-bound", name
        assert order == sorted(order), (name, regimes)


def test_fit_bad_input():
    run = shipped_run("v100_dgx2_all_reduce")
    with pytest.raises(TypeError, match="NcclTestsRun"):
        fit_collective("v100_dgx2_all_reduce")
    with pytest.raises(ValueError, match="tolerance = 0 is not valid"):
        fit_collective(run, tolerance=0)
    with pytest.raises(ValueError, match="unknown placement"):
        fit_collective(run, placement="inplace")
    with pytest.raises(ValueError, match="max_segments"):
        fit_collective(run, max_segments=0)


# Calibrated link, comparison, cluster ---------------------------------------------------------

@pytest.mark.parametrize("name", [n for n in NCCL_LOGS if len(shipped_run(n).size_bytes) > 4
                                  and shipped_run(n).size_bytes[shipped_run(n).size_bytes > 0][0] <= 64 * u.KiB])
def test_calibrated_link_reproduces_both_ends_of_the_sweep_in_the_librarys_model(name):
    # Sweeps that start at small messages: the time there is the latency the link carries.
    run = shipped_run(name)
    fit = fit_collective(run)
    link = fit.link()
    assert isinstance(link, CalibratedLink)
    sizes = run.size_bytes[run.size_bytes > 0].astype(float)
    result = coll.collective_performance(run.collective, sizes, run.n_ranks, algorithm=link.algorithm,
                                         **link.collective_kwargs())
    assert result.time_s[0] == pytest.approx(fit.segments[0].time_s(0.0), rel=1e-9, abs=fit.segments[0].time_s(sizes[0]) * 0.01)
    big = coll.collective_performance(run.collective, 1e15, run.n_ranks, algorithm=link.algorithm,
                                      **link.collective_kwargs())
    assert big.bus_bandwidth_bytes_per_s == pytest.approx(fit.plateau_bus_bandwidth_bytes_per_s, rel=1e-6)
    assert link.predict(sizes).time_s[-1] == pytest.approx(result.time_s[-1])


def test_calibrate_nccl_tests_one_call_and_its_errors():
    # The comparison is with the collective model for the log's machine (tests/calibrate/test_comparison.py).
    result = calibrate_nccl_tests("h100_2x8_a3mega_all_reduce")
    assert result.comparison.prediction_label == "model: 2 x 8 NVIDIA H100 80GB HBM3"
    text = shipped_text("v100_dgx2_all_reduce")
    own = calibrate_nccl_tests(text, collective="all_reduce", system=shipped_system("v100_dgx2_all_reduce"))
    assert own.link == calibrate_nccl_tests("v100_dgx2_all_reduce").link
    with pytest.raises(ValueError, match="say what machine the log ran on"):
        calibrate_nccl_tests(text, collective="all_reduce")
    with pytest.raises(ValueError, match="perftest output, not nccl-tests"):
        calibrate_nccl_tests("ib_write_bw_roce")


def test_calibrated_cluster_feeds_the_training_model():
    run = shipped_run("h100_2x8_a3mega_all_reduce")
    cluster = calibrated_cluster("HGX H100", scale_out=run)
    assert isinstance(cluster, CalibratedCluster) and isinstance(cluster, training.Cluster)
    # The two-level model with the calibrated network reproduces the measured plateau exactly.
    fit = fit_collective(run)
    result = coll.collective_performance(
        "all_reduce", 2.0**33, 16, cluster.scale_up_bytes_per_s, 0.0, "hierarchical", base_latency_s=0.0,
        efficiency=coll.NVLINK_EFFICIENCY, ranks_per_node=8,
        network_bandwidth_bytes_per_s=cluster.scale_out_bytes_per_s, network_latency_s=0.0)
    assert result.bandwidth_term_s == pytest.approx(2.0**33 * fit.segments[-1].seconds_per_byte, rel=1e-6)
    # The training model accepts it in place of a catalog cluster.
    model = training.transformer_model("GPT-3 175B")
    config = training.parallel_config(1024, global_batch_size=1536, tensor_parallel=8, pipeline_parallel=16)
    step = training.training_step(model, cluster, config)
    catalog_step = training.training_step(model, training.system_cluster("HGX H100"), config)
    # The measured network is slower than the catalog's NDR port per GPU: data parallelism costs more.
    assert step.data_parallel_s > catalog_step.data_parallel_s
    assert step.compute_s == catalog_step.compute_s
    single = calibrated_cluster("Selene", scale_up=shipped_run("v100_dgx2_all_reduce"))
    assert single.scale_up_bytes_per_s * coll.NVLINK_EFFICIENCY == pytest.approx(
        fit_collective(shipped_run("v100_dgx2_all_reduce")).plateau_bus_bandwidth_bytes_per_s)
    assert single.scale_out_bytes_per_s == training.cluster("Selene").scale_out_bytes_per_s
    with pytest.raises(ValueError, match="scale_up must be a sweep on one node"):
        calibrated_cluster("Selene", scale_up=run)
    with pytest.raises(ValueError, match="scale_out must be a sweep across nodes"):
        calibrated_cluster("Selene", scale_out=shipped_run("v100_dgx2_all_reduce"))
    with pytest.raises(ValueError, match="unknown cluster 'DGX-9'"):
        calibrated_cluster("DGX-9")


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


# Figure and panel --------------------------------------------------------------------------

def test_calibration_plot_has_labelled_log_axes():
    pytest.importorskip("matplotlib")
    from interconnect_lab.plotting.calibrate import calibration_plot
    result = calibrate_nccl_tests("a100_2x8_roce_all_reduce")
    figure = calibration_plot(result.comparison, fit=result.fit)
    top, bottom = figure.axes
    assert top.get_xscale() == "log" and bottom.get_yscale() == "log"
    assert "[GB/s]" in top.get_ylabel() and "[B]" in bottom.get_xlabel() and "[-]" in bottom.get_ylabel()


def test_calibration_panel_shows_the_model_and_refuses_bad_text():
    pytest.importorskip("ipywidgets")
    from interconnect_lab.widgets.calibrate import PASTE, CalibrationPanel
    panel = CalibrationPanel()
    assert panel.result.calibration.link == calibrate_nccl_tests("v100_dgx2_all_reduce").link
    first = panel.png()
    panel.controls["log"].value = "h100_2x8_a3mega_all_reduce"
    assert panel.result.calibration.run.n_nodes == 2 and panel.png() != first
    panel.controls["log"].value = PASTE
    assert panel.result.error and "Paste" in panel.readout.value
    panel.controls["collective"].value = "all_reduce"
    panel.controls["gpu"].value = "A100 SXM 40GB"
    text = shipped_text("a100_2x8_roce_all_reduce")
    panel.controls["text"].value = text
    assert panel.result.error is None and "model <b>" in panel.readout.value
    assert panel.result.calibration.system.nodes == 2          # the nodes as the log lists them
    panel.controls["text"].value = text[: len(text) // 4]      # cut above the table
    assert "line" in panel.result.error and "Not calibrated" in panel.readout.value
