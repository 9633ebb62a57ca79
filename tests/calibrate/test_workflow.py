"""Tests of ``interconnect_lab.calibrate.workflow``: one call from a log to a fit, a calibrated link
and a comparison with the collective model, from a shipped log or pasted text and the machine.

Hostile input is at the end (and fuzzed with tests/fuzzing.py where noted).
"""

import numpy as np
import pytest
from hypothesis import strategies as st

from fuzzing import HOSTILE, Case, choice, count, make_tests, mixed, optional

from interconnect_lab import calibrate, catalog
from interconnect_lab.calibrate import calibrate_nccl_tests, shipped_system, shipped_text


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


def test_a_pasted_log_with_its_machine_by_catalog_names():
    text = shipped_text("b300_2x8_roce_alltoall")
    with pytest.raises(ValueError, match="pass n_ranks="):
        calibrate_nccl_tests(text, gpu="B200", network="Ethernet 800G")
    with pytest.raises(ValueError, match="the log does not list every rank.*give nodes= and gpus_per_node="):
        calibrate_nccl_tests(text, n_ranks=16, gpu="B200", network="Ethernet 800G")
    result = calibrate_nccl_tests(text, n_ranks=16, gpu="B200", network="Ethernet 800G", nodes=2, gpus_per_node=8)
    assert result.run.rank_count_source == "caller" and result.system.ranks == 16
    assert result.fit.determines == "bandwidth" and result.link is None
    assert result.comparison.algorithm == ("p2p",)


def test_a_shipped_log_uses_its_own_machine_and_ranks_unless_told_otherwise():
    shipped = calibrate_nccl_tests("a100_2x8_ib_alltoall")
    assert shipped.system == shipped_system("a100_2x8_ib_alltoall") and shipped.reference == ()
    other = calibrate_nccl_tests("a100_2x8_ib_alltoall", gpu="A100 SXM", network="InfiniBand NDR")
    assert other.system.nic_bytes_per_s == 50e9
    assert np.all(other.comparison.predicted_bus_bandwidth_bytes_per_s
                  >= shipped.comparison.predicted_bus_bandwidth_bytes_per_s * (1 - 1e-12))


# Hostile input: fuzzed with tests/fuzzing.py -----------------------------------------------------

NCCL_LOGS = tuple(name for name, entry in calibrate.SHIPPED_LOGS.items() if entry.tool == "nccl-tests")

_TEXT = {name: calibrate.shipped_text(name) for name in calibrate.SHIPPED_LOGS}

#: The machines the shipped logs ran on.
SYSTEMS = tuple(calibrate.shipped_system(name) for name in NCCL_LOGS)

GPUS = tuple(catalog.GPUS)

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

FUZZ_CASES = [
    Case(calibrate.calibrate_nccl_tests, dict(source=st.one_of(choice(NCCL_LOGS), text_for(nccl_log)),
                                              collective=collective_for(nccl_log),
                                              n_ranks=optional(count(1, 64)), gpu=optional(choice(GPUS)),
                                              system=optional(mixed(st.sampled_from(SYSTEMS))),
                                              placement=choice(("out_of_place", "in_place"))),
         infinite=("bus_bandwidth_bytes_per_s",), messages=NCCL_MESSAGES, refusing=("ranks_per_node", "n_nodes"),
         examples=0.25),
]

test_fuzz, test_fuzz_nightly = make_tests(FUZZ_CASES)
