"""Tests of ``interconnect_lab.calibrate.perftest``: read what the perftest programs print:
ib_write_bw, ib_read_bw, ib_send_bw, ib_write_lat.

Hostile input is at the end (and fuzzed with tests/fuzzing.py where noted).
"""

import re

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from fuzzing import HOSTILE, Case, make_tests

from interconnect_lab import calibrate
from interconnect_lab.calibrate import (
    SHIPPED_LOGS, PerftestRun, parse_nccl_tests, parse_nvidia_smi_topo, parse_perftest, shipped_run,
    shipped_text,
)


PERFTEST_LOGS = [name for name, entry in SHIPPED_LOGS.items() if entry.tool == "perftest"]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=400))
def test_random_text_is_refused_with_a_value_error(text):
    for parser, kwargs in ((parse_nccl_tests, {"collective": "all_reduce"}), (parse_perftest, {}),
                           (parse_nvidia_smi_topo, {})):
        with pytest.raises(ValueError):
            parser(text, **kwargs)


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


# Hostile input: fuzzed with tests/fuzzing.py -----------------------------------------------------

SHIPPED_PERFTEST_LOGS = tuple(name for name, entry in calibrate.SHIPPED_LOGS.items() if entry.tool == "perftest")

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


PERFTEST_MESSAGES = (r"^perftest output",)

FUZZ_CASES = [
    Case(calibrate.parse_perftest, dict(text=text_for(st.sampled_from(SHIPPED_PERFTEST_LOGS))), messages=PERFTEST_MESSAGES),
]


# Hostile input -----------------------------------------------------------------------------------

@pytest.mark.usefixtures("warnings_are_errors")
def test_parsers_refuse_what_they_accepted_damaged():
    from interconnect_lab import calibrate
    # 'Number of qps : nan' was accepted; reading run.queue_pairs then raised int('nan')
    text = calibrate.shipped_text("ib_write_bw_roce").replace("Number of qps   : 4", "Number of qps   : nan")
    with pytest.raises(ValueError, match=r"perftest output, line \d+: expected a whole number >= 1 after 'Number of qps :'"):
        calibrate.parse_perftest(text)
    # a host name with spaces in it ('nan   seville') was accepted
    text = calibrate.shipped_text("v100_dgx2_all_reduce").replace("on    seville device  0", "on nan   seville device  0")
    with pytest.raises(ValueError, match=r"nccl-tests output, line 4"):
        calibrate.parse_nccl_tests(text, collective="all_reduce")
    with pytest.raises(ValueError, match="unknown shipped log"):
        calibrate.shipped_log([1.0])   # TypeError: unhashable type: 'list'

test_fuzz, test_fuzz_nightly = make_tests(FUZZ_CASES)
