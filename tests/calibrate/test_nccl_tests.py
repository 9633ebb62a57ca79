"""Tests of ``interconnect_lab.calibrate.nccl_tests``: read what NVIDIA's nccl-tests print: the header,
every row and the closing lines; and logs as vendors publish them: elided rank lines and sizes,
launcher prefixes, header lines without '#', rows of 0 B, 'N/A' checks, a cut last row; and where
the number of ranks comes from (rank lines, last rank line, header, caller), refused when nothing
states it and busbw needs it.

Real excerpts (interconnect_lab/calibrate/logs, each with its source in SHIPPED_LOGS): Oracle's
GB300 and B300 quick starts (2026), ALCF's Sophia all-to-all (2024), AWS's p4de README (2024),
dstack's A3 Mega page (2025). Other formats are made from them by the change a launcher or a
publisher makes, named in each test.

Hostile input is at the end (and fuzzed with tests/fuzzing.py where noted).
"""

import re

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from fuzzing import HOSTILE, Case, choice, make_tests, optional

from interconnect_lab import calibrate
from interconnect_lab import units as u
from interconnect_lab.calibrate import RANK_COUNT_SOURCES, SHIPPED_LOGS, parse_nccl_tests, shipped_run, shipped_text


NCCL_LOGS = [name for name, entry in SHIPPED_LOGS.items() if entry.tool == "nccl-tests"]

ROW = re.compile(r"^\s+\d+\s+\d+\s+\w+")


def rows_of(text):
    """The table rows of a log, without a launcher's line labels ('0: ')."""
    lines = (re.sub(r"^\s*\d+:(?=\s)", "", line) for line in text.splitlines())
    return [line for line in lines if ROW.match(line)]


def parse(name, text=None, **options):
    entry = SHIPPED_LOGS[name]
    return parse_nccl_tests(shipped_text(name) if text is None else text, collective=entry.program, **options)


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


# Elided rank lines ---------------------------------------------------------------------------

def test_elided_rank_lines_take_the_count_from_the_last_rank_line():
    run = shipped_run("gb300_nvl72_8gpu_alltoall")
    assert (run.n_ranks, run.rank_count_source, run.listed_ranks) == (8, "last rank line", (0, 1, 6, 7))
    assert not run.rank_lines_complete
    assert run.elisions[0] == "line 7: rank lines left out ('...')"
    assert run.nccl_version == "2.28.7+cuda13.0" and run.collective == "all_to_all"
    with pytest.raises(ValueError, match="the number of nodes is not known: the log lists 4 of 8 ranks"):
        run.n_nodes
    assert "8 ranks (from the last rank line)" in run.describe()


def test_six_dots_elide_as_three_do():
    text = shipped_text("gb300_nvl72_8gpu_alltoall").replace("\n...\n", "\n......\n")
    run = parse("gb300_nvl72_8gpu_alltoall", text)
    assert run.n_ranks == 8 and run.elisions[0] == "line 7: rank lines left out ('......')"


def test_a_rank_list_whose_end_is_elided_needs_the_caller():
    lines = shipped_text("gb300_nvl72_8gpu_alltoall").splitlines()
    text = "\n".join(lines[:6] + ["..."] + lines[10:])        # ranks 0, 1, then '...' up to the table
    with pytest.raises(ValueError, match=r"^nccl-tests output, line 7: the rank list is elided \('...'\) and does "
                                         r"not end with its last rank; the number of ranks is needed to check busbw; "
                                         r"line 14 prints busbw / algbw = 0.875, which is what about 8 ranks give: "
                                         r"pass n_ranks="):
        parse("gb300_nvl72_8gpu_alltoall", text)
    run = parse("gb300_nvl72_8gpu_alltoall", text, n_ranks=8)
    assert (run.n_ranks, run.rank_count_source, run.listed_ranks) == (8, "caller", (0, 1))


def test_ranks_out_of_order_without_an_elision_are_refused():
    lines = shipped_text("a100_2x8_ib_alltoall").splitlines()
    del lines[8]                                              # rank 5's line, with no '...' in its place
    with pytest.raises(ValueError, match=r"line 9: expected the line of rank 5 \(ranks are listed in order; mark "
                                         r"lines left out with '...'\)"):
        parse("a100_2x8_ib_alltoall", "\n".join(lines))


def test_an_excerpt_that_starts_inside_the_rank_list():
    lines = shipped_text("a100_2x8_ib_alltoall").splitlines()
    run = parse("a100_2x8_ib_alltoall", "\n".join(lines[10:]))     # from rank 7's line
    assert (run.n_ranks, run.rank_count_source) == (16, "last rank line")
    assert run.elisions[0] == "line 1: the excerpt starts at rank 7; ranks 0 to 6 are not shown"


# Truncated sizes, prefixes, '#'-less headers -------------------------------------------------

@pytest.mark.parametrize("name, marker, line", [
    ("gb300_nvl72_8gpu_alltoall", "# Truncated  smaller message sizes", 15),
    ("b300_2x8_roce_alltoall", "# <smaller message sizes truncated>", 7),
])
def test_truncated_smaller_sizes_are_read_and_named(name, marker, line):
    run = shipped_run(name)
    assert f"line {line}: smaller sizes left out ('{marker}')" in run.elisions
    assert run.size_bytes[0] == 8 * u.GiB
    assert run.in_place.checked.tolist() == [False] * len(run.size_bytes)     # 'N/A' in the in-place #wrong


def test_a_header_that_counts_one_process_is_not_taken_for_the_rank_count():
    # B300, 2 nodes: one process per GPU (nGpus 1), no rank lines; the source says 16 ranks.
    text = shipped_text("b300_2x8_roce_alltoall")
    with pytest.raises(ValueError, match=r"^nccl-tests output, line 2: the log lists no ranks, and the header's "
                                         r"nThread x nGpus = 1 counts the GPUs of one process.*what about 16 ranks "
                                         r"give: pass n_ranks="):
        parse("b300_2x8_roce_alltoall", text)
    run = parse("b300_2x8_roce_alltoall", text, n_ranks=16)
    assert (run.n_ranks, run.rank_count_source, run.parameters["nGpus"]) == (16, "caller", 1)
    with pytest.raises(ValueError, match=r"line 8: out-of-place busbw 180.98 GB/s is not algbw 193.04 GB/s x 0.9167, "
                                         r"the bus factor of 'all_to_all' on 12 ranks.*\(n = 12 from the caller\)"):
        parse("b300_2x8_roce_alltoall", text, n_ranks=12)


def test_a_header_that_counts_every_gpu_is_the_rank_count_when_busbw_confirms_it():
    # One process driving all 16 GPUs (nGpus 16), the rank lines left out by a publisher.
    lines = shipped_text("a100_2x8_ib_alltoall").splitlines()
    text = "\n".join([lines[0].replace("nGpus 1", "nGpus 16"), "#"] + lines[19:])
    run = parse("a100_2x8_ib_alltoall", text)
    assert (run.n_ranks, run.rank_count_source, run.hosts) == (16, "header", ())


def test_launcher_labels_are_removed():
    # srun --label: '0: ' before every line; the excerpt ends at its last row.
    run = shipped_run("a100_2x8_efa_all_reduce")
    assert run.size_bytes[0] == 8 and run.size_bytes[-1] == 2 * u.GiB and len(run.size_bytes) == 29
    assert run.elisions == ("line 31: the log ends here, without the closing '# Out of bounds values' and "
                            "'# Avg bus bandwidth' lines",)
    assert run.out_of_bounds is None and run.average_bus_bandwidth_bytes_per_s is None


def test_open_mpi_tags_are_removed_even_inside_a_line():
    # mpirun --tag-output: '[1,0]<stdout>:' before every line, and again wherever nccl-tests flushed a
    # row in pieces (as in KeitaW/p5-nccl-test-2024-07-19).
    plain = shipped_text("a100_2x8_ib_alltoall")
    tagged = []
    for line in plain.splitlines():
        tokens = line.split("  -1  ")
        tagged.append("[1,0]<stdout>:" + "  -1[1,0]<stdout>:  ".join(tokens))
    tagged.insert(3, "[1,3]<stderr>:node:1:1 [3] NCCL INFO Bootstrap : Using eth0")
    run = parse("a100_2x8_ib_alltoall", "\n".join(tagged))
    reference = shipped_run("a100_2x8_ib_alltoall")
    assert np.array_equal(run.size_bytes, reference.size_bytes)
    assert np.array_equal(run.out_of_place.time_s, reference.out_of_place.time_s)
    assert run.hosts == reference.hosts and run.skipped_lines == (4,)


def test_header_and_closing_lines_without_their_hash():
    run = shipped_run("h100_2x8_a3mega_all_gather")
    assert run.parameters["iters"] == 200 and run.step_kind == "factor"
    assert run.out_of_bounds == 0 and run.average_bus_bandwidth_bytes_per_s == pytest.approx(146.948e9)
    assert not run.out_of_place.checked.any()                 # 'N/A' in both groups: run with -c 0
    assert run.elisions == ()


# Rows: 0 B, a last row cut short, elided rows ---------------------------------------------------

def test_rows_of_zero_bytes_and_na_checks():
    run = shipped_run("a100_2x8_ib_alltoall")
    zero = run.size_bytes == 0
    assert zero.sum() == 4 and np.all(run.out_of_place.time_s[zero] > 0)
    assert run.out_of_place.checked.all() and not run.in_place.checked.any()
    assert run.n_ranks == 16 and run.rank_count_source == "rank lines" and run.n_nodes == 2


def test_a_last_row_cut_short_is_dropped_and_named():
    text = shipped_text("a100_2x8_efa_all_reduce")
    cut = text.rstrip()[:-40]                                 # the 2 GiB row loses its in-place group
    run = parse("a100_2x8_efa_all_reduce", cut, n_ranks=16)
    assert run.size_bytes[-1] == 1 * u.GiB
    assert run.elisions[-1] == "line 31: the last row is cut short and was dropped (2147483648 B)"
    # Followed by another line, a short row is damage, not a cut: refused.
    lines = text.splitlines()
    lines[10] = lines[10][:50]
    with pytest.raises(ValueError, match=r"line 11: expected a table row of 13 columns"):
        parse("a100_2x8_efa_all_reduce", "\n".join(lines), n_ranks=16)


def test_elided_rows_keep_the_sizes_in_order():
    lines = shipped_text("a100_2x8_ib_alltoall").splitlines()
    rows = [i for i, line in enumerate(lines) if re.match(r"^\s+\d+\s+\d+\s+float", line)]
    text = "\n".join(lines[:rows[8]] + ["   ..."] + lines[rows[18]:])       # rows 8 to 17 left out
    run = parse("a100_2x8_ib_alltoall", text)
    assert f"line {rows[8] + 1}: rows left out ('...')" in run.elisions
    whole = shipped_run("a100_2x8_ib_alltoall").size_bytes
    assert np.array_equal(run.size_bytes, np.concatenate([whole[:8], whole[18:]]))
    lines[rows[20]], lines[rows[21]] = lines[rows[21]], lines[rows[20]]
    with pytest.raises(ValueError, match=r"expected a size >= .* \(nccl-tests prints sizes in increasing"):
        parse("a100_2x8_ib_alltoall", "\n".join(lines[:rows[8]] + ["   ..."] + lines[rows[18]:]))


# The rank count --------------------------------------------------------------------------------

def test_the_caller_must_agree_with_a_complete_rank_list():
    with pytest.raises(ValueError, match=r"n_ranks = 8 disagrees with the log, which lists every rank, 16 of them "
                                         r"\(lines 4-19\)"):
        parse("a100_2x8_ib_alltoall", n_ranks=8)
    with pytest.raises(ValueError, match="n_ranks = 7 disagrees with the log, which lists rank 7"):
        parse("gb300_nvl72_8gpu_alltoall", n_ranks=7)
    with pytest.raises(ValueError, match=r"n_ranks = 0 is not valid"):
        parse("a100_2x8_ib_alltoall", n_ranks=0)
    assert parse("a100_2x8_ib_alltoall", n_ranks=16).rank_count_source == "rank lines"


def test_a_rank_count_nothing_states_is_unknown_only_where_busbw_does_not_need_it():
    # Broadcast's busbw factor is 1 whatever the ranks: a log without rank lines still parses.
    lines = shipped_text("v100_dgx2_broadcast").splitlines()
    text = "\n".join(line for line in lines if not re.match(r"#\s+Rank", line))
    text = text.replace("nGpus 12", "nGpus 1")
    run = parse("v100_dgx2_broadcast", text)
    assert (run.n_ranks, run.rank_count_source) == (None, "unknown")
    assert "ranks not stated" in run.describe()
    assert set(RANK_COUNT_SOURCES) == {"rank lines", "last rank line", "header", "caller", "unknown"}


def test_nccl_log_lines_after_the_closing_lines_are_skipped():
    text = shipped_text("a100_2x8_ib_alltoall") + "\nsophia-gpu-04:1:1 [0] NCCL INFO comm 0x1 rank 0 nranks 16 - Destroy COMPLETE\n"
    run = parse("a100_2x8_ib_alltoall", text)
    assert run.skipped_lines == (len(text.splitlines()),)


def test_text_around_the_output_is_still_refused_with_advice():
    text = "```log\n" + shipped_text("b300_2x8_roce_alltoall")
    with pytest.raises(ValueError, match=r"line 1: expected the nccl-tests header .* or the table's column names "
                                         r"\(remove lines that other programs printed"):
        parse("b300_2x8_roce_alltoall", text, n_ranks=16)


# Hostile input: fuzzed with tests/fuzzing.py -----------------------------------------------------

SHIPPED_NCCL_LOGS = tuple(name for name, entry in calibrate.SHIPPED_LOGS.items() if entry.tool == "nccl-tests")

_TEXT = {name: calibrate.shipped_text(name) for name in calibrate.SHIPPED_LOGS}

#: What a damaged number looks like.
BAD_TOKENS = ("nan", "inf", "-inf", "-1", "0", "1e400", "-0.0", "N/A", "", "x", "1e-320", "99999999999999999999",
              "0.000", "1,5", "\t", "#")


@st.composite
def damaged(draw, name):
    """Shipped log ``name`` cut short, with a token replaced, a line dropped or repeated, or garbage appended."""
    text = _TEXT[name]
    kind = draw(st.sampled_from(["truncate", "token", "drop line", "repeat line", "append", "intact"]))
    if kind == "truncate":
        return text[:draw(st.integers(0, len(text)))]
    lines = text.splitlines(keepends=True)
    where = draw(st.integers(0, len(lines) - 1))
    if kind == "token":
        tokens = lines[where].split(" ")
        tokens[draw(st.integers(0, len(tokens) - 1))] = draw(st.sampled_from(BAD_TOKENS))
        lines[where] = " ".join(tokens)
    elif kind == "drop line":
        del lines[where]
    elif kind == "repeat line":
        lines.insert(where, lines[where])
    elif kind == "append":
        lines.append(draw(st.text(max_size=200)))
    return "".join(lines)


def text_for(log):
    """Garbage text, the shipped log drawn by ``log`` damaged, or hostile non-text values."""
    return st.integers(0, 7).flatmap(lambda k: st.sampled_from(HOSTILE) if k == 0 else (
        st.text(max_size=400) if k == 1 else log.flatmap(damaged)))


def collective_for(log):
    """The collective the shipped log drawn by ``log`` ran (it does not print it), mostly; else any."""
    return st.integers(0, 7).flatmap(lambda k: optional(choice(calibrate.COLLECTIVES_FOR_TEXT)) if k == 0 else
                                     log.map(lambda name: calibrate.SHIPPED_LOGS[name].program))


nccl_log = st.shared(st.sampled_from(SHIPPED_NCCL_LOGS), key="nccl-tests log")

#: The parsers' own clear errors: they name the line and what was expected there.
NCCL_MESSAGES = (r"^nccl-tests output", r"nccl-tests output does not name", r"^rows with (redop|a reduction)")

FUZZ_CASES = [
    Case(calibrate.parse_nccl_tests, dict(text=text_for(nccl_log), collective=collective_for(nccl_log)),
         messages=NCCL_MESSAGES, refusing=("ranks_per_node", "n_nodes")),
]

test_fuzz, test_fuzz_nightly = make_tests(FUZZ_CASES)
