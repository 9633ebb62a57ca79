"""Tests of ``interconnect_lab.calibrate.nccl_tests``: read what NVIDIA's nccl-tests print: the header,
every row and the closing lines.

Hostile input is at the end (and fuzzed with tests/fuzzing.py where noted).
"""

import re

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from fuzzing import HOSTILE, Case, choice, make_tests, optional

from interconnect_lab import calibrate
from interconnect_lab.calibrate import SHIPPED_LOGS, parse_nccl_tests, shipped_text


NCCL_LOGS = [name for name, entry in SHIPPED_LOGS.items() if entry.tool == "nccl-tests"]

ROW = re.compile(r"^\s+\d+\s+\d+\s+\w+")


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
def test_every_truncation_is_refused_with_a_line_number(name):
    lines = shipped_text(name).splitlines()
    average = next(i for i, line in enumerate(lines) if line.startswith("# Avg bus bandwidth"))
    for cut in range(1, average + 1):
        with pytest.raises(ValueError, match=r"line \d+|ends|truncated|empty"):
            parse_nccl_tests("\n".join(lines[:cut]), collective=SHIPPED_LOGS[name].program)
    # A row cut in the middle is refused too, naming its line.
    row = next(i for i, line in enumerate(lines) if ROW.match(line))
    damaged = lines[:row] + [lines[row][:40]] + lines[row + 1:]
    with pytest.raises(ValueError, match=f"line {row + 1}:"):
        parse_nccl_tests("\n".join(damaged), collective=SHIPPED_LOGS[name].program)


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
        run = parse_nccl_tests("\n".join(lines), collective=SHIPPED_LOGS[name].program)
    except ValueError as error:
        assert re.search(r"line \d+|ends|truncated|empty|collective|cannot be", str(error)), str(error)
    else:
        assert np.all(np.diff(run.size_bytes) >= 0)
        assert np.all(run.out_of_place.time_s > 0) or np.any(run.size_bytes == 0)


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
         messages=NCCL_MESSAGES, refusing=("ranks_per_node",)),
]

test_fuzz, test_fuzz_nightly = make_tests(FUZZ_CASES)
