"""Read what NVIDIA's nccl-tests print: the header, every row and the closing lines.

``all_reduce_perf``, ``all_gather_perf``, ``reduce_scatter_perf``,
``alltoall_perf``, ``sendrecv_perf`` (and ``broadcast_perf``, ``reduce_perf``)
print the same layout: a header naming the run's parameters and every rank's
device, a table with one row per message size (time, algbw, busbw and a
correctness check, out of place then in place) and two closing lines, the
out-of-bounds count and the average bus bandwidth over every row.

The table's columns have changed over the years, and all of these are read:

==========  ============================================================  ======
layout      columns before the two measurement groups                     check
==========  ============================================================  ======
current     ``size count type redop root`` (nccl-tests 2.x, since ~2020)  #wrong
redop-root  ``size count type redop root``                                error
redop       ``size count type redop`` (all-reduce, reduce-scatter)        error
root        ``size count type root`` (broadcast)                          error
plain       ``size count type`` (all-gather, all-to-all)                  error
==========  ============================================================  ======

Nothing is guessed: each row is checked against the printed size and time
(``algbw = size / time``) and against nccl-tests' bus-bandwidth factor
(``busbw = algbw × f(n)``; early versions printed all-gather and
reduce-scatter with ``algbw = busbw``, which is recognised and recorded as
``bandwidth_convention="legacy"``); a line that does not fit raises :class:`ValueError` naming the line number, what
was expected there and what was found.

References
----------
NVIDIA, nccl-tests ``src/common.cu`` (the table it prints) and
``doc/PERFORMANCE.md`` (algbw and busbw). https://github.com/NVIDIA/nccl-tests
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from types import MappingProxyType

import numpy as np

from .. import units as u
from .._validation import NotPossible
from ..collectives import COLLECTIVES, bus_bandwidth_factor

__all__ = ["NCCL_TESTS_PROGRAMS", "NcclTestsMeasurement", "NcclTestsRun", "parse_nccl_tests"]

#: The nccl-tests programs and the collective each measures (library names).
NCCL_TESTS_PROGRAMS = MappingProxyType({
    "all_reduce_perf": "all_reduce",
    "all_gather_perf": "all_gather",
    "reduce_scatter_perf": "reduce_scatter",
    "alltoall_perf": "all_to_all",
    "sendrecv_perf": "send_recv",
    "broadcast_perf": "broadcast",
    "reduce_perf": "reduce",
})

_REDUCTIONS = ("all_reduce", "reduce_scatter", "reduce")
_TYPES = ("int8", "uint8", "int32", "uint32", "int64", "uint64", "half", "float", "double",
          "bfloat16", "f8e4m3", "f8e5m2", "fp8_e4m3", "fp8_e5m2")
_REDOPS = ("sum", "prod", "max", "min", "avg", "mulsum", "premulsum", "none")
_LEADING = {
    ("size", "count", "type", "redop", "root"): "redop-root",
    ("size", "count", "type", "redop"): "redop",
    ("size", "count", "type", "root"): "root",
    ("size", "count", "type"): "plain",
}
_GROUP = ("time", "algbw", "busbw")

_HEADER = re.compile(
    r"^# nThread (?P<nThread>\d+) nGpus (?P<nGpus>\d+) minBytes (?P<minBytes>\d+) "
    r"maxBytes (?P<maxBytes>\d+) step: (?P<step>\d+)\((?P<step_kind>factor|bytes)\)(?P<rest>.*)$")
_HEADER_PAIR = re.compile(r"([a-z][a-z ]*?): (\d+)")
_RANK = re.compile(
    r"^#\s+Rank\s+(?P<rank>\d+)\s+(?:Group\s+\d+\s+)?Pid\s+\d+\s+on\s+(?P<host>\S+)\s+"
    r"device\s+(?P<device>\d+)\s+\[(?P<bus>[^\]]*)\]\s+(?P<name>.+?)\s*$")
_NCCL_VERSION = re.compile(r"^NCCL version (\S+)\s*$")
_TESTS_VERSION = re.compile(r"^# nccl-tests version (\S+)(?: nccl-headers=(\d+))?(?: nccl-library=(\d+))?\s*$")
_STARTING = re.compile(r"^# Collective test (starting|concluded): (\S+)\s*$")
_NCCL_LOG = re.compile(r"^\S*:\d+:\d+ \[\d+\] NCCL (INFO|WARN|TRACE|ABORT) ")
_OUT_OF_BOUNDS = re.compile(r"^# Out of bounds values : (\d+) (OK|FAILED)\s*$")
_AVERAGE = re.compile(r"^# Avg bus bandwidth\s*: (\S+)(?: (OK|FAILED))?\s*$")
_ASTERISKS = "# Errors with asterisks indicate errors that have exceeded the maximum threshold."


@dataclass(frozen=True)
class NcclTestsMeasurement:
    """One of the two measurement groups of a table (out of place or in place).

    Attributes
    ----------
    time_s : numpy.ndarray
        Average time of one operation, per row [s].
    algorithm_bandwidth_bytes_per_s : numpy.ndarray
        algbw as printed, per row [B/s] (nccl-tests prints GB/s, 1 GB = 10⁹ B).
    bus_bandwidth_bytes_per_s : numpy.ndarray
        busbw as printed, per row [B/s].
    check : numpy.ndarray
        The correctness column as printed: the count of wrong elements
        (``#wrong``) or the largest relative error (``error``); 0 where the
        check was not run (``N/A``, see ``checked``) [-].
    checked : numpy.ndarray of bool
        False where the table prints ``N/A``.
    """

    time_s: np.ndarray
    algorithm_bandwidth_bytes_per_s: np.ndarray
    bus_bandwidth_bytes_per_s: np.ndarray
    check: np.ndarray
    checked: np.ndarray


@dataclass(frozen=True)
class NcclTestsRun:
    """Everything one nccl-tests run printed, as numbers.

    Attributes
    ----------
    collective : str
        The collective, as :mod:`interconnect_lab.collectives` names it.
    program : str
        The nccl-tests program (``"all_reduce_perf"``...).
    layout : str
        The table layout (``"current"``, ``"redop-root"``, ``"redop"``,
        ``"root"``, ``"plain"``; see the module docstring).
    check_column : str
        ``"#wrong"`` or ``"error"``.
    parameters : mapping of str to int
        The header's numbers (``nThread``, ``nGpus``, ``minBytes``,
        ``maxBytes``, ``step``, ``iters``, ``warmup iters``...).
    step_kind : str
        ``"factor"`` (sizes multiply by ``step``) or ``"bytes"`` (sizes add it).
    n_ranks : int
        Ranks (GPUs) in the run, from the ``Using devices`` list.
    hosts : tuple of str
        Each rank's host, in rank order.
    devices : tuple of str
        Each rank's device name, in rank order.
    nccl_version : str or None
        NCCL's version where the output prints it (``NCCL version 2.14.3+cuda11.7``
        or the ``nccl-library=`` code of newer nccl-tests), else None.
    size_bytes : numpy.ndarray of int
        Message size S per row, as nccl-tests counts it [B].
    count : numpy.ndarray of int
        Elements per row [-].
    data_type : tuple of str
        Element type per row.
    redop : tuple of str or None
        Reduction per row, None if the layout has no ``redop`` column.
    root : numpy.ndarray of int or None
        Root per row (−1: none), None if the layout has no ``root`` column.
    out_of_place, in_place : NcclTestsMeasurement
        The two measurement groups.
    out_of_bounds : int
        The count on the ``# Out of bounds values`` line [-].
    average_bus_bandwidth_bytes_per_s : float
        The ``# Avg bus bandwidth`` line: busbw averaged over every row [B/s].
    bandwidth_convention : str
        ``"current"``: algbw = S/t and busbw = algbw × f(n), as nccl-tests has
        printed since 2019. ``"legacy"``: early nccl-tests printed, for
        all-gather and reduce-scatter, algbw = busbw = S (n−1)/n / t; busbw
        means the same in both.
    row_lines : tuple of int
        Line number (1-based) of each row in the text.
    skipped_lines : tuple of int
        Lines that were NCCL's own log lines (``host:pid:tid [dev] NCCL INFO ...``)
        and were skipped on purpose.
    """

    collective: str
    program: str
    layout: str
    check_column: str
    parameters: MappingProxyType
    step_kind: str
    n_ranks: int
    hosts: tuple
    devices: tuple
    nccl_version: str | None
    size_bytes: np.ndarray
    count: np.ndarray
    data_type: tuple
    redop: tuple | None
    root: np.ndarray | None
    out_of_place: NcclTestsMeasurement
    in_place: NcclTestsMeasurement
    out_of_bounds: int
    average_bus_bandwidth_bytes_per_s: float
    bandwidth_convention: str
    row_lines: tuple = field(repr=False)
    skipped_lines: tuple = field(default=(), repr=False)

    @property
    def n_nodes(self) -> int:
        """Distinct hosts among the ranks [-]."""
        return len(set(self.hosts))

    @property
    def ranks_per_node(self) -> int:
        """Ranks on each host [-]; a ValueError if hosts hold different numbers of ranks."""
        counts = {host: self.hosts.count(host) for host in self.hosts}
        if len(set(counts.values())) != 1:
            raise ValueError(f"hosts hold different numbers of ranks: {counts}; a number of ranks per node "
                             "needs every host to hold the same")
        return next(iter(counts.values()))

    def measurement(self, placement="out_of_place") -> NcclTestsMeasurement:
        """``out_of_place`` or ``in_place``."""
        if placement not in ("out_of_place", "in_place"):
            raise ValueError(f"unknown placement {placement!r}; valid placements are: "
                             "'out_of_place', 'in_place'")
        return getattr(self, placement)

    def describe(self) -> str:
        """One line: collective, ranks, nodes, device, NCCL version."""
        device = self.devices[0] if len(set(self.devices)) == 1 else "mixed devices"
        version = f", NCCL {self.nccl_version}" if self.nccl_version else ""
        nodes = f"{self.n_nodes} node{'s' if self.n_nodes > 1 else ''}"
        return (f"{self.program}: {self.n_ranks} ranks on {nodes}, {device}{version}; "
                f"{len(self.size_bytes)} sizes from {u.format_bytes(float(self.size_bytes.min()))} "
                f"to {u.format_bytes(float(self.size_bytes.max()))}")


class _Lines:
    """The text's lines with their 1-based numbers, and a cursor."""

    def __init__(self, text):
        self.lines = text.splitlines()
        self.index = 0

    def __bool__(self):
        return self.index < len(self.lines)

    @property
    def number(self):
        return self.index + 1

    def peek(self):
        return self.lines[self.index]

    def take(self):
        line = self.lines[self.index]
        self.index += 1
        return line


def _fail(number, expected, found):
    shown = found if len(found) <= 100 else found[:97] + "..."
    raise ValueError(f"nccl-tests output, line {number}: expected {expected}; found {shown!r}")


def _normalize_collective(collective):
    if collective is None:
        return None
    if not isinstance(collective, str):
        raise TypeError(f"collective must be a string, got {collective!r}")
    if collective in COLLECTIVES:
        return collective
    stem = collective.removesuffix("_mpi")
    if stem in NCCL_TESTS_PROGRAMS:
        return NCCL_TESTS_PROGRAMS[stem]
    valid = ", ".join(repr(c) for c in (*COLLECTIVES, *NCCL_TESTS_PROGRAMS))
    raise ValueError(f"unknown collective {collective!r}; valid collectives are: {valid}")


def _columns(number, line):
    tokens = line.lstrip("#").split()
    check = tokens[-1] if tokens else ""
    if check not in ("#wrong", "error"):
        _fail(number, "the column names ending in '#wrong' or 'error' "
              "('#       size         count      type   redop    root     time   algbw   busbw #wrong ...')", line)
    group = (*_GROUP, check)
    lead = tokens[:-8]
    if tuple(tokens[-8:]) != group * 2 or tuple(lead) not in _LEADING:
        _fail(number, "'size count type [redop] [root]' then 'time algbw busbw #wrong|error' twice", line)
    layout = _LEADING[tuple(lead)]
    if check == "#wrong":
        if layout != "redop-root":
            _fail(number, "'size count type redop root' before '#wrong' columns", line)
        layout = "current"
    return tuple(lead), check, layout


def _decimals_half_unit(token):
    """Half a unit in the last printed place of a decimal number."""
    if "e" in token.lower():
        return 0.0
    decimals = len(token.split(".")[1]) if "." in token else 0
    return 0.5 * 10.0 ** -decimals


def _number(number, token, name, *, integer=False, minimum=None, allow_na=False):
    if allow_na and token == "N/A":
        return None
    try:
        value = int(token) if integer else float(token)
    except ValueError:
        kind = "a whole number" if integer else "a number"
        raise ValueError(f"nccl-tests output, line {number}: expected {kind} in column {name!r}; "
                         f"found {token!r}") from None
    if not np.isfinite(value) or (minimum is not None and value < minimum):
        raise ValueError(f"nccl-tests output, line {number}: column {name!r} = {token!r} is not valid; "
                         f"it must be a finite number >= {minimum}")
    return value


def _row(number, line, lead, check):
    tokens = line.split()
    if len(tokens) != len(lead) + 8:
        _fail(number, f"a table row of {len(lead) + 8} columns ({' '.join(lead)} then time, algbw, busbw, "
              f"{check} twice); or the closing '# Out of bounds values' line", line)
    values = dict(zip(lead, tokens))
    row = {
        "size": _number(number, values["size"], "size", integer=True, minimum=0),
        "count": _number(number, values["count"], "count", integer=True, minimum=0),
        "type": values["type"],
        "redop": values.get("redop"),
        "root": None if "root" not in values else _number(number, values["root"], "root", integer=True,
                                                          minimum=-1),
    }
    if row["type"] not in _TYPES:
        _fail(number, f"a data type ({', '.join(_TYPES)}) in column 'type'", row["type"])
    if row["redop"] is not None and row["redop"] not in _REDOPS:
        _fail(number, f"a reduction ({', '.join(_REDOPS)}) in column 'redop'", row["redop"])
    groups = []
    for start, name in ((len(lead), "out-of-place"), (len(lead) + 4, "in-place")):
        time_token, algbw_token, busbw_token, check_token = tokens[start:start + 4]
        time = _number(number, time_token, f"{name} time", minimum=0)
        algbw = _number(number, algbw_token, f"{name} algbw", minimum=0)
        busbw = _number(number, busbw_token, f"{name} busbw", minimum=0)
        result = _number(number, check_token, f"{name} {check}", integer=check == "#wrong", minimum=0,
                         allow_na=True)
        if time == 0 and row["size"] > 0:
            raise ValueError(f"nccl-tests output, line {number}: {name} time is 0 us for "
                             f"{row['size']} B; a measured time must be > 0")
        groups.append((time * u.us, algbw * u.GB_per_s, busbw * u.GB_per_s,
                       0.0 if result is None else float(result), result is not None,
                       time_token, algbw_token, busbw_token))
    row["groups"] = groups
    return row


def _a_run(collective):
    """'an all-gather run', 'a broadcast run': a collective's run in words."""
    name = collective.replace("_", "-")
    return f"{'an' if name[0] in 'aeiou' else 'a'} {name} run"


def _bandwidth_mismatch(rows, collective, n_ranks, convention):
    """The first printed bandwidth that the convention does not explain, as (message, plain sentence), or None.

    ``current``: algbw = S / t and busbw = algbw x f(n) (nccl-tests since 2019).
    ``legacy``: early nccl-tests printed, for all-gather and reduce-scatter,
    algbw = busbw = S (n-1)/n / t.
    """
    factors = [bus_bandwidth_factor(collective, n_ranks)]
    if collective == "all_reduce":
        factors.append(bus_bandwidth_factor(collective, n_ranks, in_network=True))
    for number, row in rows:
        for group, name in zip(row["groups"], ("out-of-place", "in-place")):
            time_s, algbw, busbw, _, _, time_token, algbw_token, busbw_token = group
            if time_s <= 0:
                continue
            time_us = time_s / u.us
            plain = row["size"] / (time_us * 1e3)        # S / t in GB/s
            algbw_gb, busbw_gb = algbw / u.GB_per_s, busbw / u.GB_per_s
            expected = plain if convention == "current" else factors[0] * plain
            tolerance = (expected * _decimals_half_unit(time_token) / time_us
                         + _decimals_half_unit(algbw_token) + 1e-9) * 1.5
            if abs(algbw_gb - expected) > tolerance:
                return (f"nccl-tests output, line {number}: {name} algbw {algbw_token} GB/s does not equal "
                        f"size / time = {row['size']} B / {time_token} us = {plain:.4g} GB/s; the row is "
                        "garbled or its columns are shifted",
                        f"Line {number} of the log is garbled: its bandwidth is not its size over its time.")
            if algbw_gb < 1.0:
                continue
            bus = factors if convention == "current" else [1.0]
            if not any(abs(busbw_gb - f * algbw_gb) <= 0.0051 * (1 + f) + 1e-9 for f in bus):
                return (f"nccl-tests output, line {number}: {name} busbw {busbw_token} GB/s is not "
                        f"algbw {algbw_token} GB/s x {factors[0]:.4g}, the bus factor of {collective!r} on "
                        f"{n_ranks} ranks; is the collective right (pass collective=...) and is the "
                        "'Using devices' list complete?",
                        f"The bus bandwidths of this log do not fit {_a_run(collective)} on {n_ranks} ranks: "
                        "choose the collective it was measured with, and check that its list of devices is "
                        "complete.")
    return None


def _bandwidth_convention(rows, collective, n_ranks):
    problem = _bandwidth_mismatch(rows, collective, n_ranks, "current")
    if problem is None:
        return "current"
    if collective in ("all_gather", "reduce_scatter") and \
            _bandwidth_mismatch(rows, collective, n_ranks, "legacy") is None:
        return "legacy"
    raise NotPossible(problem[0], plain=problem[1])


def parse_nccl_tests(text, *, collective=None):
    """Parse the output of one nccl-tests run.

    Parameters
    ----------
    text : str
        What the program printed, from its first line (``# nThread ...``,
        or ``# nccl-tests version ...`` in newer versions) to the
        ``# Avg bus bandwidth`` line and the closing ``#`` lines. Lines that
        NCCL itself logs (``host:pid:tid [dev] NCCL INFO ...``) may be mixed
        in; they are skipped and listed in ``skipped_lines``.
    collective : str, optional
        The collective (``"all_reduce"``...) or program (``"all_reduce_perf"``).
        Required unless the output names it (``# Collective test starting:``,
        printed by nccl-tests since 2.13); if both are given they must agree.

    Returns
    -------
    NcclTestsRun

    Raises
    ------
    TypeError
        If ``text`` is not a string.
    ValueError
        For empty, truncated, reordered, garbled or inconsistent output; the
        message names the line number, what was expected and what was found.

    Examples
    --------
    >>> text = '''# nThread 1 nGpus 2 minBytes 1048576 maxBytes 1048576 step: 2(factor) warmup iters: 5 iters: 20 validation: 1
    ... #
    ... # Using devices
    ... #   Rank  0 Pid  100 on  node device  0 [0x07] NVIDIA A100-SXM4-80GB
    ... #   Rank  1 Pid  100 on  node device  1 [0x0b] NVIDIA A100-SXM4-80GB
    ... #
    ... #                                                     out-of-place                       in-place
    ... #       size         count    type   redop     time   algbw   busbw  error     time   algbw   busbw  error
    ... #        (B)    (elements)                     (us)  (GB/s)  (GB/s)            (us)  (GB/s)  (GB/s)
    ...      1048576        262144   float     sum    20.00   52.43   52.43  0e+00    20.00   52.43   52.43  0e+00
    ... # Out of bounds values : 0 OK
    ... # Avg bus bandwidth    : 52.43
    ... #'''
    >>> run = parse_nccl_tests(text, collective="all_reduce")
    >>> run.n_ranks, run.layout, float(run.out_of_place.bus_bandwidth_bytes_per_s[0]) / 1e9
    (2, 'redop', 52.43)

    (The numbers in this example are made up to be short; the shipped logs in
    :mod:`interconnect_lab.calibrate.logs` are real.)
    """
    if not isinstance(text, str):
        raise TypeError(f"text must be the program's output as a string, got {type(text).__name__}")
    if not text.strip():
        raise ValueError("nccl-tests output is empty: expected the header line '# nThread ...'")
    lines = _Lines(text)
    named = None
    nccl_version = None
    skipped = []

    def skip_blank():
        while lines and not lines.peek().strip():
            lines.take()

    # Preamble of newer nccl-tests: version, then the test's name.
    skip_blank()
    while lines and not lines.peek().startswith("# nThread"):
        number, line = lines.number, lines.take()
        version = _TESTS_VERSION.match(line)
        starting = _STARTING.match(line)
        if version and version.group(3):
            code = int(version.group(3))
            nccl_version = f"{code // 10000}.{code // 100 % 100}.{code % 100}"
        elif starting and starting.group(1) == "starting":
            named = starting.group(2)
        elif not (version or not line.strip()):
            _fail(number, "the nccl-tests header '# nThread N nGpus N minBytes ...' (remove lines that "
                  "other programs printed, such as the shell prompt or mpirun's warnings)", line)
    if not lines:
        raise ValueError("nccl-tests output ends before the header line '# nThread ...'")
    number, line = lines.number, lines.take()
    header = _HEADER.match(line)
    if not header:
        _fail(number, "the header '# nThread N nGpus N minBytes N maxBytes N step: N(factor|bytes) ...'", line)
    parameters = {key: int(header.group(key)) for key in ("nThread", "nGpus", "minBytes", "maxBytes", "step")}
    parameters.update({key.strip(): int(value) for key, value in _HEADER_PAIR.findall(header.group("rest"))})

    # '#', '# Using devices', one line per rank, optional 'NCCL version', '#'.
    hosts, devices = [], []
    while True:
        if not lines:
            raise ValueError(f"nccl-tests output ends at line {lines.number - 1}, inside the header: "
                             "expected the rank list and the table's column names")
        number, line = lines.number, lines.take()
        stripped = line.strip()
        if _NCCL_LOG.match(line):
            skipped.append(number)
            continue
        version = _NCCL_VERSION.match(stripped)
        if version:
            nccl_version = version.group(1)
            continue
        rank = _RANK.match(line)
        if rank:
            if int(rank.group("rank")) != len(hosts):
                _fail(number, f"the line of rank {len(hosts)} (ranks are listed in order)", line)
            hosts.append(rank.group("host"))
            devices.append(rank.group("name"))
            continue
        if stripped in ("#", "# Using devices"):
            continue
        if "out-of-place" in line and "in-place" in line:
            break
        _fail(number, "'# Using devices', a '#  Rank N ... device N [bus] name' line or the "
              "'out-of-place  in-place' line above the table", line)
    if not hosts:
        raise ValueError(f"nccl-tests output, line {number}: the table starts before any "
                         "'#  Rank N ...' line; the rank list is needed to know the number of ranks")
    if not lines:
        raise ValueError(f"nccl-tests output ends at line {number}: expected the column names")
    number, line = lines.number, lines.take()
    lead, check, layout = _columns(number, line)
    if not lines:
        raise ValueError(f"nccl-tests output ends at line {number}: expected the units line '#  (B) ...'")
    number, line = lines.number, lines.take()
    if not (line.startswith("#") and "(B)" in line and "(us)" in line and "(GB/s)" in line):
        _fail(number, "the units line '#        (B)    (elements) ... (us)  (GB/s)  (GB/s)'", line)

    rows = []
    while True:
        if not lines:
            last = rows[-1][0] if rows else number
            raise ValueError(f"nccl-tests output is truncated after line {last}: expected more rows or the "
                             "closing '# Out of bounds values' and '# Avg bus bandwidth' lines")
        number, line = lines.number, lines.take()
        if _NCCL_LOG.match(line):
            skipped.append(number)
            continue
        if line.startswith("#"):
            if line.strip() == _ASTERISKS:
                continue
            break
        if not line.strip():
            _fail(number, "a table row or the '# Out of bounds values' line", line)
        row = _row(number, line, lead, check)
        if rows and row["size"] < rows[-1][1]["size"]:
            _fail(number, f"a size >= {rows[-1][1]['size']} B (nccl-tests prints sizes in increasing "
                  "order; are rows reordered or mixed from two runs?)", line)
        rows.append((number, row))
    if not rows:
        _fail(number, "at least one table row below the units line", line)
    bounds = _OUT_OF_BOUNDS.match(line)
    if not bounds:
        _fail(number, "'# Out of bounds values : N OK|FAILED' after the last row", line)
    if not lines:
        raise ValueError(f"nccl-tests output is truncated after line {number}: expected "
                         "'# Avg bus bandwidth    : X'")
    number, line = lines.number, lines.take()
    average = _AVERAGE.match(line)
    if not average:
        _fail(number, "'# Avg bus bandwidth    : X'", line)
    average_gb = _number(number, average.group(1), "Avg bus bandwidth", minimum=0)
    while lines:
        number, line = lines.number, lines.take()
        concluded = _STARTING.match(line)
        if concluded and concluded.group(1) == "concluded":
            if named is not None and concluded.group(2) != named:
                _fail(number, f"'# Collective test concluded: {named}'", line)
            named = concluded.group(2)
        elif line.strip() not in ("", "#"):
            _fail(number, "nothing after the '# Avg bus bandwidth' line but '#', blank lines or "
                  "'# Collective test concluded: ...' (one run per text)", line)

    given = _normalize_collective(collective)
    from_output = _normalize_collective(named)
    if given and from_output and given != from_output:
        raise ValueError(f"collective={collective!r} disagrees with the output, which names {named!r}")
    chosen = given or from_output
    if chosen is None:
        raise ValueError("this nccl-tests output does not name its collective (older versions print no "
                         "'# Collective test' line): pass collective='all_reduce' (or the program name)")
    program = (named or "").removesuffix("_mpi") or next(p for p, c in NCCL_TESTS_PROGRAMS.items() if c == chosen)
    redops = [row["redop"] for _, row in rows if row["redop"] is not None]
    if chosen in _REDUCTIONS and "none" in redops:
        raise NotPossible(f"rows with redop 'none' cannot be a {chosen!r} run, which reduces; "
                          "is the collective right?",
                          plain=f"This log reduces nothing, so it is not {_a_run(chosen)}: choose the collective it "
                                "was measured with.")
    if chosen not in _REDUCTIONS and chosen != "send_recv" and any(r != "none" for r in redops):
        raise NotPossible(f"rows with a reduction ({redops[0]!r}) cannot be a {chosen!r} run; "
                          "is the collective right?",
                          plain=f"This log reduces (its rows name a {redops[0]}), so it is not {_a_run(chosen)}: "
                                "choose the collective it was measured with.")
    n_ranks = len(hosts)
    convention = _bandwidth_convention(rows, chosen, n_ranks)

    def measurement(index):
        columns = list(zip(*(row["groups"][index][:5] for _, row in rows)))
        return NcclTestsMeasurement(
            time_s=np.array(columns[0]), algorithm_bandwidth_bytes_per_s=np.array(columns[1]),
            bus_bandwidth_bytes_per_s=np.array(columns[2]), check=np.array(columns[3]),
            checked=np.array(columns[4], dtype=bool))

    has_root = "root" in lead
    return NcclTestsRun(
        collective=chosen, program=program, layout=layout, check_column=check,
        parameters=MappingProxyType(parameters), step_kind=header.group("step_kind"),
        n_ranks=n_ranks, hosts=tuple(hosts), devices=tuple(devices), nccl_version=nccl_version,
        size_bytes=np.array([row["size"] for _, row in rows], dtype=np.int64),
        count=np.array([row["count"] for _, row in rows], dtype=np.int64),
        data_type=tuple(row["type"] for _, row in rows),
        redop=tuple(redops) if "redop" in lead else None,
        root=np.array([row["root"] for _, row in rows], dtype=np.int64) if has_root else None,
        out_of_place=measurement(0), in_place=measurement(1),
        out_of_bounds=int(bounds.group(1)),
        average_bus_bandwidth_bytes_per_s=average_gb * u.GB_per_s,
        bandwidth_convention=convention,
        row_lines=tuple(number for number, _ in rows), skipped_lines=tuple(skipped),
    )
