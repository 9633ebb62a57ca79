"""Tests of ``interconnect_lab.calibrate.topo``: read the matrix that ``nvidia-smi topo -m`` prints:
how each GPU reaches each GPU and NIC.

Hostile input is at the end (and fuzzed with tests/fuzzing.py where noted).
"""

import pytest
from hypothesis import strategies as st

from fuzzing import HOSTILE, Case, make_tests

from interconnect_lab import calibrate
from interconnect_lab.calibrate import parse_nvidia_smi_topo, shipped_text


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


# Hostile input: fuzzed with tests/fuzzing.py -----------------------------------------------------

TOPO_LOGS = tuple(name for name, entry in calibrate.SHIPPED_LOGS.items() if entry.tool not in ("nccl-tests",
                                                                                               "perftest"))

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


TOPO_MESSAGES = (r"^nvidia-smi topo -m output", r"^the NIC Legend")

FUZZ_CASES = [
    Case(calibrate.parse_nvidia_smi_topo, dict(text=text_for(st.sampled_from(TOPO_LOGS))), messages=TOPO_MESSAGES),
]

test_fuzz, test_fuzz_nightly = make_tests(FUZZ_CASES)
