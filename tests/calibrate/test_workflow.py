"""Tests of ``interconnect_lab.calibrate.workflow``: one call from a log to a fit, a calibrated link
and a comparison with the book's model.

Hostile input is at the end (and fuzzed with tests/fuzzing.py where noted).
"""

import dataclasses
import math

import numpy as np
import pytest
from hypothesis import strategies as st

from fuzzing import HOSTILE, Case, choice, make_tests, mixed, optional

from interconnect_lab import calibrate
from interconnect_lab.calibrate import REFERENCES, calibrate_nccl_tests, shipped_text


def test_calibrate_nccl_tests_one_call_and_its_errors():
    result = calibrate_nccl_tests("h100_2x8_a3mega_all_reduce")
    assert result.comparison.prediction_label == "catalog: HGX H100"
    text = shipped_text("v100_dgx2_all_reduce")
    own = calibrate_nccl_tests(text, collective="all_reduce", reference=REFERENCES["NVLink 2 (V100)"])
    assert own.link == calibrate_nccl_tests("v100_dgx2_all_reduce").link.__class__(
        **{**own.link.__dict__})
    with pytest.raises(ValueError, match="choose the catalog prediction"):
        calibrate_nccl_tests(text, collective="all_reduce")
    with pytest.raises(ValueError, match="perftest output, not nccl-tests"):
        calibrate_nccl_tests("ib_write_bw_roce")


# Hostile input: fuzzed with tests/fuzzing.py -----------------------------------------------------

NCCL_LOGS = tuple(name for name, entry in calibrate.SHIPPED_LOGS.items() if entry.tool == "nccl-tests")

_TEXT = {name: calibrate.shipped_text(name) for name in calibrate.SHIPPED_LOGS}

_RUNS = {name: calibrate.shipped_run(name) for name in NCCL_LOGS}

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


nccl_log = st.shared(st.sampled_from(NCCL_LOGS), key="nccl-tests log")

#: The parsers' own clear errors: they name the line and what was expected there.
NCCL_MESSAGES = (r"^nccl-tests output", r"nccl-tests output does not name", r"^rows with (redop|a reduction)")


def _measurement(measurement, time_s):
    return dataclasses.replace(measurement, time_s=time_s)


@st.composite
def damaged_run(draw):
    """A parsed sweep whose arrays were damaged: NaN, zero, negative or infinite times or sizes,
    sizes out of order or repeated, arrays of the wrong length or type, one row."""
    run = _RUNS[draw(st.sampled_from(NCCL_LOGS))]
    kind = draw(st.sampled_from(["time", "size", "order", "length", "one row", "dtype", "intact"]))
    size, time = run.size_bytes.copy(), run.out_of_place.time_s.copy()
    i = draw(st.integers(0, size.size - 1))
    if kind == "time":
        time[i] = draw(st.sampled_from([math.nan, 0.0, -1e-6, math.inf, 5e-324, 1e300]))
    elif kind == "size":
        size = size.astype(float)
        size[i] = draw(st.sampled_from([math.nan, -1.0, math.inf, 1e300]))
    elif kind == "order":
        size = size[::-1].copy() if draw(st.booleans()) else np.concatenate((size[:1], size[:-1]))
    elif kind == "length":
        time = time[:-1]
    elif kind == "one row":
        size, time = size[-1:], time[-1:]
    elif kind == "dtype":
        time = time.astype(str)
    return dataclasses.replace(run, size_bytes=size, out_of_place=_measurement(run.out_of_place, time))


run_or_damaged = st.integers(0, 7).flatmap(lambda k: st.sampled_from(HOSTILE) if k == 0 else (
    st.sampled_from(list(_RUNS.values())) if k < 4 else damaged_run()))

FUZZ_CASES = [
    Case(calibrate.calibrate_nccl_tests, dict(source=st.one_of(choice(NCCL_LOGS), text_for(nccl_log)),
                                              collective=collective_for(nccl_log),
                                              reference=optional(mixed(st.sampled_from(
                                                  list(calibrate.REFERENCES.values())))),
                                              placement=choice(("out_of_place", "in_place"))),
         infinite=("bus_bandwidth_bytes_per_s",), messages=NCCL_MESSAGES, refusing=("ranks_per_node",),
         examples=0.25),
    Case(calibrate.reference_parameters, dict(run=run_or_damaged, reference=mixed(st.sampled_from(
        list(calibrate.REFERENCES.values()))))),
]

test_fuzz, test_fuzz_nightly = make_tests(FUZZ_CASES)
