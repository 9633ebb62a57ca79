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

Logs as they are published are read too, and what they leave out is listed
in :attr:`NcclTestsRun.elisions`:

- rank lines left out with ``...`` (or ``......``), or an excerpt that starts
  inside the rank list or at the table;
- smaller sizes left out with ``# Truncated  smaller message sizes`` or
  ``# <smaller message sizes truncated>``, rows left out with ``...``;
- the lines of a launcher: ``[1,0]<stdout>:`` (Open MPI ``--tag-output``) and
  ``0: `` (``srun --label``) are removed, and so are NCCL's own log lines;
- header and closing lines printed without their ``#``;
- a text that ends inside the table, without the closing lines; a last row
  cut short is dropped.

The number of ranks sets nccl-tests' bus-bandwidth factor, so it is never
guessed: it comes from the rank lines when every rank is listed, from the last
rank line when the list is elided but ends with it, from the header's
``nThread x nGpus`` when one process drove every GPU (which the printed busbw
must confirm), or from the caller (``n_ranks=``);
:attr:`NcclTestsRun.rank_count_source` says which. When none of these states it
and the printed busbw needs it to be checked, the log is refused.

Nothing else is guessed either: each row is checked against the printed size
and time (``algbw = size / time``) and against nccl-tests' bus-bandwidth factor
(``busbw = algbw × f(n)``; early versions printed all-gather and
reduce-scatter with ``algbw = busbw``, which is recognised and recorded as
``bandwidth_convention="legacy"``); a line that does not fit raises
:class:`ValueError` naming the line number, what was expected there and what
was found.

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
from .._validation import NotPossible, check_integer, check_number
from ..collectives import COLLECTIVES, bus_bandwidth_factor

__all__ = ["NCCL_TESTS_PROGRAMS", "RANK_COUNT_SOURCES", "NcclTestsMeasurement", "NcclTestsRun", "parse_nccl_tests"]

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

#: Where a run's number of ranks comes from, best first (:attr:`NcclTestsRun.rank_count_source`).
RANK_COUNT_SOURCES = MappingProxyType({
    "rank lines": "every rank's line is printed, ranks 0 to n - 1",
    "last rank line": "the rank list is elided ('...') but ends with its last rank, n - 1",
    "header": "no rank lines; one process drove every GPU: n = nThread x nGpus, as the printed busbw confirms",
    "caller": "given as n_ranks=, where the log does not list every rank",
    "unknown": "nothing states it, and no printed busbw needs it to be checked",
})

_REDUCTIONS = ("all_reduce", "reduce_scatter", "reduce")
#: Collectives whose busbw factor does not depend on the number of ranks.
_FACTOR_ONE = ("broadcast", "reduce", "send_recv")
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

# Every pattern is matched on a line without its launcher tag and surrounding blanks; the
# leading '#' of nccl-tests' comment lines is optional (some pages print them without).
_LAUNCHER_TAG = re.compile(r"\[\d+,\d+\]<stdout>:")
_LAUNCHER_PREFIX = re.compile(r"^\s*(?:\[\d+,\d+\]<std(?:out|err)>:|\d+:(?=\s|$))")
_HEADER = re.compile(
    r"^#?\s*nThread (?P<nThread>\d+) nGpus (?P<nGpus>\d+) minBytes (?P<minBytes>\d+) "
    r"maxBytes (?P<maxBytes>\d+) step: (?P<step>\d+)\((?P<step_kind>factor|bytes)\)(?P<rest>.*)$")
_HEADER_PAIR = re.compile(r"([a-z][a-z ]*?): (\d+)")
_RANK = re.compile(
    r"^#?\s*Rank\s+(?P<rank>\d+)\s+(?:Group\s+\d+\s+)?Pid\s+\d+\s+on\s+(?P<host>\S+)\s+"
    r"device\s+(?P<device>\d+)\s+\[(?P<bus>[^\]]*)\]\s+(?P<name>.+?)$")
_USING_DEVICES = re.compile(r"^#?\s*Using devices$")
_REDUCING = re.compile(r"^#?\s*Reducing maxBytes to (\d+) due to memory limitation$")
_NCCL_VERSION = re.compile(r"^NCCL version (\S+)$")
_TESTS_VERSION = re.compile(r"^#?\s*nccl-tests version (\S+)(?: nccl-headers=(\d+))?(?: nccl-library=(\d+))?$")
_STARTING = re.compile(r"^#?\s*Collective test (starting|concluded): (\S+)$")
_NCCL_LOG = re.compile(r"^\S*:\d+:\d+ \[\d+\] NCCL (INFO|WARN|TRACE|ABORT) ")
_OUT_OF_BOUNDS = re.compile(r"^#?\s*Out of bounds values\s*:\s*(\d+) (OK|FAILED)$")
_AVERAGE = re.compile(r"^#?\s*Avg bus bandwidth\s*:\s*(\S+)(?: (OK|FAILED))?$")
_ASTERISKS = re.compile(r"^#?\s*Errors with asterisks indicate errors that have exceeded the maximum threshold\.$")
_ELISION = re.compile(r"^#?\s*(?:\.{3,}|\u2026)$")
_TRUNCATED = re.compile(r"^#.*\btruncated\b", re.IGNORECASE)


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
        ``maxBytes``, ``step``, ``iters``, ``warmup iters``...); ``maxBytes``
        is the reduced value where the output says it reduced it for lack of
        memory. Empty when the log starts below the header.
    step_kind : str or None
        ``"factor"`` (sizes multiply by ``step``) or ``"bytes"`` (sizes add
        it); None without the header.
    n_ranks : int or None
        Ranks (GPUs) in the run; None only where nothing states it and no
        printed busbw needs it (``rank_count_source == "unknown"``).
    hosts : tuple of str
        The host of each listed rank, in the order of ``listed_ranks``.
    devices : tuple of str
        The device name of each listed rank.
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
    out_of_bounds : int or None
        The count on the ``# Out of bounds values`` line [-]; None if the log
        ends before it.
    average_bus_bandwidth_bytes_per_s : float or None
        The ``# Avg bus bandwidth`` line: busbw averaged over every row the
        run printed, elided ones included [B/s]; None if the log ends before it.
    bandwidth_convention : str
        ``"current"``: algbw = S/t and busbw = algbw × f(n), as nccl-tests has
        printed since 2019. ``"legacy"``: early nccl-tests printed, for
        all-gather and reduce-scatter, algbw = busbw = S (n−1)/n / t; busbw
        means the same in both.
    rank_count_source : str
        Where ``n_ranks`` comes from, a key of :data:`RANK_COUNT_SOURCES`.
    listed_ranks : tuple of int
        The ranks whose lines the log prints.
    elisions : tuple of str
        What the log leaves out, each naming its line: elided rank lines or
        rows, truncated smaller sizes, a dropped partial last row, missing
        closing lines. Empty for a log printed whole.
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
    step_kind: str | None
    n_ranks: int | None
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
    out_of_bounds: int | None
    average_bus_bandwidth_bytes_per_s: float | None
    bandwidth_convention: str
    row_lines: tuple = field(repr=False)
    skipped_lines: tuple = field(default=(), repr=False)
    rank_count_source: str = "rank lines"
    listed_ranks: tuple = field(default=(), repr=False)
    elisions: tuple = ()

    @property
    def rank_lines_complete(self) -> bool:
        """True if the log prints the line of every rank (so hosts and nodes are known)."""
        return self.n_ranks is not None and self.listed_ranks == tuple(range(self.n_ranks))

    def _require_rank_lines(self, what):
        if not self.rank_lines_complete:
            listed = len(self.listed_ranks)
            ranks = f"{self.n_ranks} ranks" if self.n_ranks else "its ranks"
            raise ValueError(f"{what} is not known: the log lists {listed} of {ranks} (rank lines elided "
                             "or left out); give the machine instead (nodes=..., gpus_per_node=...)")

    @property
    def n_nodes(self) -> int:
        """Distinct hosts among the ranks [-]; a ValueError if the log does not list every rank."""
        self._require_rank_lines("the number of nodes")
        return len(set(self.hosts))

    @property
    def ranks_per_node(self) -> int:
        """Ranks on each host [-]; a ValueError if hosts hold different numbers of ranks or the
        log does not list every rank."""
        self._require_rank_lines("the number of ranks per node")
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

    def sweep(self, placement="out_of_place"):
        """The sizes above 0 B and their measured times, after checking both arrays.

        A parsed run is sound; one whose arrays were built or edited by hand may not be, and
        what uses it must say so rather than return NaN or fail deep inside numpy.

        Parameters
        ----------
        placement : str
            ``"out_of_place"`` or ``"in_place"``.

        Returns
        -------
        (numpy.ndarray, numpy.ndarray)
            Sizes [B] and times [s], as floats, rows of 0 B left out.
        """
        measurement = self.measurement(placement)
        size, time = np.asarray(self.size_bytes), np.asarray(measurement.time_s)
        for name, array in (("run.size_bytes", size), (f"run.{placement}.time_s", time)):
            if array.ndim != 1 or array.dtype.kind not in "iuf":
                raise TypeError(f"{name} must be a one-dimensional array of numbers, got {array.dtype} "
                                f"of shape {array.shape}")
        if size.shape != time.shape:
            raise ValueError(f"run.size_bytes has {size.size} rows but run.{placement}.time_s has {time.size}: "
                             "they must have one entry per row")
        check_number("run.size_bytes", size, unit="B", minimum=0, maximum=1e30)
        # Sizes grow row by row; only the 0 B rows of a small count split over many ranks repeat.
        step = np.flatnonzero((np.diff(size) < 0) | ((np.diff(size) == 0) & (size[1:] > 0)))
        if step.size:
            i = int(step[0])
            raise ValueError(f"run.size_bytes must grow row by row, as nccl-tests prints a sweep: row {i + 2} "
                             f"({size[i + 1]:g} B) follows {size[i]:g} B")
        keep = size > 0
        size, time = size[keep].astype(float), time[keep].astype(float)
        check_number(f"run.{placement}.time_s", time, unit="s", minimum=1e-12, maximum=1e6)
        return size, time

    def describe(self) -> str:
        """One line: collective, ranks, nodes, device, NCCL version, sizes, and what the log leaves out."""
        if self.n_ranks is None:
            ranks = "ranks not stated"
        else:
            ranks = f"{self.n_ranks} ranks"
            if self.rank_count_source != "rank lines":
                ranks += f" (from the {self.rank_count_source})"
        if self.rank_lines_complete:
            ranks += f" on {self.n_nodes} node{'s' if self.n_nodes > 1 else ''}"
        if not self.devices:
            device = "devices not listed"
        else:
            device = self.devices[0] if len(set(self.devices)) == 1 else "mixed devices"
        version = f", NCCL {self.nccl_version}" if self.nccl_version else ""
        count = len(self.size_bytes)
        sizes = (f"{count} sizes from {u.format_bytes(float(self.size_bytes.min()))} "
                 f"to {u.format_bytes(float(self.size_bytes.max()))}" if count > 1 else
                 f"1 size, {u.format_bytes(float(self.size_bytes[0]))}")
        elided = f" ({len(self.elisions)} elision{'s' if len(self.elisions) > 1 else ''})" if self.elisions else ""
        return f"{self.program}: {ranks}, {device}{version}; {sizes}{elided}"


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


def _is_columns(line):
    return line.lstrip("#").split()[:2] == ["size", "count"]


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


def _partial_row(line, lead, check, previous_size):
    """True if ``line`` is the beginning of a row: fewer columns than a row, each a valid start."""
    tokens = line.split()
    names = (*lead, *_GROUP, check, *_GROUP, check)
    if not 0 < len(tokens) < len(names):
        return False
    for name, token in zip(names, tokens):
        if name == "type":
            valid = token in _TYPES
        elif name == "redop":
            valid = token in _REDOPS
        elif name in ("size", "count"):
            valid = token.isdigit()
        else:
            valid = token == "N/A" or re.fullmatch(r"-?\d+(\.\d*)?(e[-+]?\d+)?", token) is not None
        if not valid:
            return False
    return int(tokens[0]) >= previous_size


def _checked_groups(rows):
    """(line number, row, group name, group) of every measurement with a time > 0."""
    for number, row in rows:
        for group, name in zip(row["groups"], ("out-of-place", "in-place")):
            if group[0] > 0:
                yield number, row, name, group


def _busbw_needs_ranks(rows, collective):
    """True if some printed busbw can only be checked with the number of ranks."""
    return collective not in _FACTOR_ONE and any(group[1] / u.GB_per_s >= 1.0
                                                 for _, _, _, group in _checked_groups(rows))


def _a_run(collective):
    """'an all-gather run', 'a broadcast run': a collective's run in words."""
    name = collective.replace("_", "-")
    return f"{'an' if name[0] in 'aeiou' else 'a'} {name} run"


def _bandwidth_mismatch(rows, collective, n_ranks, convention):
    """The first printed bandwidth that the convention does not explain, as the error to raise, or None.

    ``current``: algbw = S / t and busbw = algbw x f(n) (nccl-tests since 2019).
    ``legacy``: early nccl-tests printed, for all-gather and reduce-scatter,
    algbw = busbw = S (n-1)/n / t. With ``n_ranks=None`` only algbw is checked
    (the caller has made sure no busbw needs the factor).
    """
    factors = []
    if n_ranks is not None:
        factors.append(bus_bandwidth_factor(collective, n_ranks))
        if collective == "all_reduce":
            factors.append(bus_bandwidth_factor(collective, n_ranks, in_network=True))
    elif collective in _FACTOR_ONE:
        factors.append(1.0)
    for number, row, name, group in _checked_groups(rows):
        time_s, algbw, busbw, _, _, time_token, algbw_token, busbw_token = group
        time_us = time_s / u.us
        plain = row["size"] / (time_us * 1e3)        # S / t in GB/s
        algbw_gb, busbw_gb = algbw / u.GB_per_s, busbw / u.GB_per_s
        expected = plain if convention == "current" else factors[0] * plain
        tolerance = (expected * _decimals_half_unit(time_token) / time_us
                     + _decimals_half_unit(algbw_token) + 1e-9) * 1.5
        if abs(algbw_gb - expected) > tolerance:
            return NotPossible(
                f"nccl-tests output, line {number}: {name} algbw {algbw_token} GB/s does not equal "
                f"size / time = {row['size']} B / {time_token} us = {plain:.4g} GB/s; the row is "
                "garbled or its columns are shifted",
                plain=f"Line {number} of the log does not read as nccl-tests prints a "
                      f"{collective.replace('_', '-')}: choose the collective the log ran, or check that the line "
                      "is whole.")
        if algbw_gb < 1.0 or not factors:
            continue
        bus = factors if convention == "current" else [1.0]
        if not any(abs(busbw_gb - f * algbw_gb) <= 0.0051 * (1 + f) + 1e-9 for f in bus):
            return NotPossible(
                f"nccl-tests output, line {number}: {name} busbw {busbw_token} GB/s is not "
                f"algbw {algbw_token} GB/s x {factors[0]:.4g}, the bus factor of {collective!r} on "
                f"{n_ranks} ranks; is the collective right (pass collective=...) and is the number of ranks right?",
                plain=f"The log's bus bandwidths are not those of a {collective.replace('_', '-')} on "
                      f"{n_ranks} GPUs: choose the collective the log ran, or the number of GPUs it ran on.")
    return None


def _bandwidth_convention(rows, collective, n_ranks):
    """The convention that explains every printed bandwidth, or the first mismatch as the error to raise."""
    problem = _bandwidth_mismatch(rows, collective, n_ranks, "current")
    if problem is None:
        return "current", None
    if collective in ("all_gather", "reduce_scatter") and n_ranks is not None and \
            _bandwidth_mismatch(rows, collective, n_ranks, "legacy") is None:
        return "legacy", None
    return None, problem


def _ranks_hint(rows, collective):
    """What the printed busbw / algbw of the fastest row says about the number of ranks, as words."""
    best = max(((group[1], group[2], number) for number, _, _, group in _checked_groups(rows)), default=None)
    if best is None or best[0] < 1.0 * u.GB_per_s or collective in _FACTOR_ONE:
        return ""
    ratio = best[1] / best[0]
    room = 2.0 if collective == "all_reduce" else 1.0
    if not 0 < ratio < room:
        return f"; line {best[2]} prints busbw / algbw = {ratio:.4g}"
    return (f"; line {best[2]} prints busbw / algbw = {ratio:.4g}, which is what about "
            f"{room / (room - ratio):.0f} ranks give")


class _Lines:
    """The text's lines with their 1-based numbers, launcher tags removed, and a cursor."""

    def __init__(self, text):
        lines = text.splitlines()
        while lines and not lines[-1].strip():
            lines.pop()
        self.lines = [_LAUNCHER_TAG.sub("", _LAUNCHER_PREFIX.sub("", line, count=1)).strip() for line in lines]
        self.raw = lines
        self.index = 0

    def __bool__(self):
        return self.index < len(self.lines)

    @property
    def number(self):
        return self.index + 1

    @property
    def last(self):
        return self.index == len(self.lines)

    def peek(self):
        return self.lines[self.index]

    def take(self):
        line = self.lines[self.index]
        self.index += 1
        return line


@dataclass
class _Preamble:
    """What the lines above the table said."""

    parameters: dict = field(default_factory=dict)
    step_kind: str | None = None
    named: str | None = None
    nccl_version: str | None = None
    header_line: int | None = None
    ranks: list = field(default_factory=list)        # (line number, rank, host, device name)
    rank_elisions: list = field(default_factory=list)  # line numbers of '...' in or after the rank list
    tail_elided: bool = False
    skipped: list = field(default_factory=list)
    elisions: list = field(default_factory=list)


def _read_rank(preamble, number, line, match):
    rank = int(match.group("rank"))
    pending = preamble.tail_elided
    if preamble.ranks:
        expected = preamble.ranks[-1][1] + 1
        if rank != expected and not (pending and rank > expected):
            _fail(number, f"the line of rank {expected} (ranks are listed in order; mark lines left out "
                  "with '...')", line)
    elif rank != 0 and not pending and preamble.header_line is not None:
        _fail(number, "the line of rank 0 (ranks are listed in order; mark lines left out with '...')", line)
    elif rank != 0 and not pending:
        preamble.elisions.append(f"line {number}: the excerpt starts at rank {rank}; ranks 0 to {rank - 1} "
                                 "are not shown")
    preamble.tail_elided = False
    preamble.ranks.append((number, rank, match.group("host"), match.group("name")))


def _read_preamble(lines):
    """Read up to and including the table's column names; (preamble, lead, check, layout, line number)."""
    p = _Preamble()
    while True:
        if not lines:
            where = f"at line {lines.number - 1}" if lines.lines else "before its first line"
            raise ValueError(f"nccl-tests output ends {where}, before the table: expected the column names "
                             "'#  size  count  type ...' and the rows")
        number, line = lines.number, lines.take()
        if _NCCL_LOG.match(line):
            p.skipped.append(number)
            continue
        if _is_columns(line):
            lead, check, layout = _columns(number, line)
            return p, lead, check, layout, number
        if not line or line == "#" or _USING_DEVICES.match(line):
            continue
        if _ELISION.match(line):
            p.tail_elided = True
            p.rank_elisions.append(number)
            p.elisions.append(f"line {number}: rank lines left out ('{line}')")
            continue
        if _TRUNCATED.match(line):
            p.elisions.append(f"line {number}: smaller sizes left out ('{line}')")
            continue
        match = _RANK.match(line)
        if match:
            _read_rank(p, number, line, match)
            continue
        header = _HEADER.match(line)
        if header:
            if p.header_line is not None or p.ranks:
                _fail(number, "one header line per run, above the rank list (one run per text)", line)
            p.header_line = number
            p.step_kind = header.group("step_kind")
            p.parameters = {key: int(header.group(key))
                            for key in ("nThread", "nGpus", "minBytes", "maxBytes", "step")}
            p.parameters.update({key.strip(): int(value) for key, value in _HEADER_PAIR.findall(header.group("rest"))})
            continue
        version = _TESTS_VERSION.match(line)
        if version:
            if version.group(3):
                code = int(version.group(3))
                p.nccl_version = f"{code // 10000}.{code // 100 % 100}.{code % 100}"
            continue
        starting = _STARTING.match(line)
        if starting and starting.group(1) == "starting":
            p.named = starting.group(2)
            continue
        version = _NCCL_VERSION.match(line)
        if version:
            p.nccl_version = version.group(1)
            continue
        reducing = _REDUCING.match(line)
        if reducing:
            p.parameters["maxBytes"] = int(reducing.group(1))
            continue
        if line.lstrip("#").split() == ["out-of-place", "in-place"]:
            continue
        if p.header_line is None and not p.ranks:
            _fail(number, "the nccl-tests header '# nThread N nGpus N minBytes ...' or the table's column "
                  "names (remove lines that other programs printed, such as the shell prompt or mpirun's "
                  "warnings)", lines.raw[number - 1])
        _fail(number, "'# Using devices', a '#  Rank N ... device N [bus] name' line, '...' for lines left out "
              "or the 'out-of-place  in-place' line above the table", lines.raw[number - 1])


def _read_table(lines, lead, check, columns_line):
    """Read the units line, the rows and the closing lines; (rows, closing, elisions, skipped, named)."""
    if not lines:
        raise ValueError(f"nccl-tests output ends at line {columns_line}: expected the units line '#  (B) ...'")
    number, line = lines.number, lines.take()
    if not ("(B)" in line and "(us)" in line and "(GB/s)" in line):
        _fail(number, "the units line '#        (B)    (elements) ... (us)  (GB/s)  (GB/s)'", lines.raw[number - 1])
    rows, elisions, skipped = [], [], []
    closing = {"out_of_bounds": None, "average": None}
    while True:
        if not lines:
            if not rows:
                raise ValueError(f"nccl-tests output ends at line {number}: expected at least one table row")
            elisions.append(f"line {number}: the log ends here, without the closing '# Out of bounds values' "
                            "and '# Avg bus bandwidth' lines")
            return rows, closing, elisions, skipped, None
        number, line = lines.number, lines.take()
        if _NCCL_LOG.match(line):
            skipped.append(number)
            continue
        if _ASTERISKS.match(line):
            continue
        if _ELISION.match(line) or _TRUNCATED.match(line):
            what = "rows left out" if rows and _ELISION.match(line) else "smaller sizes left out"
            elisions.append(f"line {number}: {what} ('{line}')")
            continue
        if _OUT_OF_BOUNDS.match(line) or _AVERAGE.match(line):
            break
        if line.startswith("#") or not line:
            _fail(number, "a table row or the closing '# Out of bounds values' line", lines.raw[number - 1])
        if lines.last and rows and _partial_row(line, lead, check, rows[-1][1]["size"]):
            elisions.append(f"line {number}: the last row is cut short and was dropped ({line.split()[0]} B)")
            return rows, closing, elisions, skipped, None
        row = _row(number, line, lead, check)
        if rows and row["size"] < rows[-1][1]["size"]:
            _fail(number, f"a size >= {rows[-1][1]['size']} B (nccl-tests prints sizes in increasing "
                  "order; are rows reordered or mixed from two runs?)", lines.raw[number - 1])
        rows.append((number, row))
    if not rows:
        _fail(number, "at least one table row below the units line", lines.raw[number - 1])
    bounds = _OUT_OF_BOUNDS.match(line)
    if bounds:
        closing["out_of_bounds"] = int(bounds.group(1))
        if not lines:
            elisions.append(f"line {number}: the log ends here, without the '# Avg bus bandwidth' line")
            return rows, closing, elisions, skipped, None
        number, line = lines.number, lines.take()
        if not _AVERAGE.match(line):
            _fail(number, "'# Avg bus bandwidth    : X'", lines.raw[number - 1])
    else:
        elisions.append(f"line {number}: no '# Out of bounds values' line above it")
    average = _AVERAGE.match(line)
    closing["average"] = _number(number, average.group(1), "Avg bus bandwidth", minimum=0)
    named = None
    while lines:
        number, line = lines.number, lines.take()
        if _NCCL_LOG.match(line):
            skipped.append(number)
            continue
        concluded = _STARTING.match(line)
        if concluded and concluded.group(1) == "concluded":
            named = (number, concluded.group(2), lines.raw[number - 1])
        elif line not in ("", "#"):
            _fail(number, "nothing after the '# Avg bus bandwidth' line but '#', blank lines or "
                  "'# Collective test concluded: ...' (one run per text)", lines.raw[number - 1])
    return rows, closing, elisions, skipped, named


def _rank_count(preamble, rows, collective, n_ranks, first_row):
    """(n_ranks or None, source, bandwidth convention): see :data:`RANK_COUNT_SOURCES`."""
    listed = [rank for _, rank, _, _ in preamble.ranks]
    complete = bool(listed) and listed == list(range(len(listed))) and not preamble.rank_elisions
    excerpt = bool(listed) and listed[0] != 0 and preamble.header_line is None
    if complete or excerpt:
        first, last = preamble.ranks[0][0], preamble.ranks[-1][0]
    if n_ranks is not None:
        if complete and n_ranks != len(listed):
            raise ValueError(f"n_ranks = {n_ranks} disagrees with the log, which lists every rank, "
                             f"{len(listed)} of them (lines {first}-{last})")
        if listed and n_ranks <= listed[-1]:
            raise ValueError(f"n_ranks = {n_ranks} disagrees with the log, which lists rank {listed[-1]} "
                             f"(line {preamble.ranks[-1][0]})")
        candidates = [(n_ranks, "rank lines" if complete else "caller")]
    elif complete:
        candidates = [(len(listed), "rank lines")]
    elif listed and not preamble.tail_elided and (preamble.rank_elisions or excerpt):
        candidates = [(listed[-1] + 1, "last rank line")]
    elif not listed and preamble.header_line is not None and _busbw_needs_ranks(rows, collective):
        # Only busbw can confirm that one process drove every GPU: otherwise the count is not stated.
        candidates = [(preamble.parameters["nThread"] * preamble.parameters["nGpus"], "header")]
    else:
        candidates = []
    for count, source in candidates:
        convention, problem = _bandwidth_convention(rows, collective, count)
        if problem is None:
            return count, source, convention
        if source != "header":
            problem.args = (f"{problem} (n = {count} from the {source})",)
            raise problem
    hint = _ranks_hint(rows, collective)
    if not _busbw_needs_ranks(rows, collective):
        convention, problem = _bandwidth_convention(rows, collective, None)
        if problem:
            raise problem
        return None, "unknown", convention
    if candidates:      # the header's count, contradicted by busbw
        count = candidates[0][0]
        why = (f"line {preamble.header_line}: the log lists no ranks, and the header's nThread x nGpus = {count} "
               "counts the GPUs of one process, which the printed busbw contradicts (the run had several "
               "processes)")
    elif preamble.tail_elided and preamble.rank_elisions:
        why = (f"line {preamble.rank_elisions[-1]}: the rank list is elided ('...') and does not end with "
               "its last rank")
    elif listed:
        why = f"line {preamble.ranks[0][0]}: the rank list does not start at rank 0"
    else:
        why = f"line {first_row}: the log lists no ranks and prints no header"
    raise ValueError(f"nccl-tests output, {why}; the number of ranks is needed to check busbw{hint}: "
                     "pass n_ranks=... (the ranks in the run)")


def parse_nccl_tests(text, *, collective=None, n_ranks=None):
    """Parse the output of one nccl-tests run.

    Parameters
    ----------
    text : str
        What the program printed, from its first line (``# nThread ...``,
        or ``# nccl-tests version ...`` in newer versions) to the
        ``# Avg bus bandwidth`` line and the closing ``#`` lines; or a published
        excerpt of it (see the module docstring for what may be left out).
        Lines that NCCL itself logs (``host:pid:tid [dev] NCCL INFO ...``) may
        be mixed in; they are skipped and listed in ``skipped_lines``.
    collective : str, optional
        The collective (``"all_reduce"``...) or program (``"all_reduce_perf"``).
        Required unless the output names it (``# Collective test starting:``,
        printed by nccl-tests since 2.13); if both are given they must agree.
    n_ranks : int, optional
        Ranks in the run, >= 1: needed when the log does not list every rank
        (and its header does not count them); must agree with the log where it
        does.

    Returns
    -------
    NcclTestsRun

    Raises
    ------
    TypeError
        If ``text`` is not a string.
    ValueError
        For empty, reordered, garbled or inconsistent output, or output that
        ends before its first row; for a rank count that nothing states when
        the printed busbw needs it. The message names the line number, what
        was expected and what was found.

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
    >>> run.n_ranks, run.rank_count_source, run.layout, float(run.out_of_place.bus_bandwidth_bytes_per_s[0]) / 1e9
    (2, 'rank lines', 'redop', 52.43)

    A published excerpt that leaves out the rank lines and the smaller sizes
    needs the number of ranks from the caller:

    >>> excerpt = '''#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong
    ... #        (B)    (elements)                               (us)  (GB/s)  (GB/s)            (us)  (GB/s)  (GB/s)
    ... # <smaller message sizes truncated>
    ...  8589934592   134217728     float    none      -1    44498  193.04  180.98      0    44500  193.03  180.97    N/A'''
    >>> run = parse_nccl_tests(excerpt, collective="all_to_all", n_ranks=16)
    >>> run.rank_count_source, run.elisions[0]
    ('caller', "line 3: smaller sizes left out ('# <smaller message sizes truncated>')")

    (The numbers of the first example are made up to be short; the shipped
    logs in :mod:`interconnect_lab.calibrate.logs` are real.)
    """
    if not isinstance(text, str):
        raise TypeError(f"text must be the program's output as a string, got {type(text).__name__}")
    if n_ranks is not None:
        n_ranks = check_integer("n_ranks", n_ranks, minimum=1, maximum=2 ** 24)
    if not text.strip():
        raise ValueError("nccl-tests output is empty: expected the header line '# nThread ...'")
    lines = _Lines(text)
    preamble, lead, check, layout, columns_line = _read_preamble(lines)
    rows, closing, table_elisions, skipped, concluded = _read_table(lines, lead, check, columns_line)
    named = preamble.named
    if concluded is not None:
        if named is not None and concluded[1] != named:
            _fail(concluded[0], f"'# Collective test concluded: {named}', the test the run started", concluded[2])
        named = concluded[1]

    given = _normalize_collective(collective)
    from_output = _normalize_collective(named)
    if given and from_output and given != from_output:
        raise NotPossible(f"collective={collective!r} disagrees with the output, which names {named!r}",
                          plain=f"The log was measured as a {from_output.replace('_', '-')}, not a "
                                f"{given.replace('_', '-')}: choose its collective, or leave it as the log says.")
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
    count, source, convention = _rank_count(preamble, rows, chosen, n_ranks, rows[0][0])

    def measurement(index):
        columns = list(zip(*(row["groups"][index][:5] for _, row in rows)))
        return NcclTestsMeasurement(
            time_s=np.array(columns[0]), algorithm_bandwidth_bytes_per_s=np.array(columns[1]),
            bus_bandwidth_bytes_per_s=np.array(columns[2]), check=np.array(columns[3]),
            checked=np.array(columns[4], dtype=bool))

    has_root = "root" in lead
    average = closing["average"]
    return NcclTestsRun(
        collective=chosen, program=program, layout=layout, check_column=check,
        parameters=MappingProxyType(preamble.parameters), step_kind=preamble.step_kind,
        n_ranks=count, hosts=tuple(host for _, _, host, _ in preamble.ranks),
        devices=tuple(name for _, _, _, name in preamble.ranks), nccl_version=preamble.nccl_version,
        size_bytes=np.array([row["size"] for _, row in rows], dtype=np.int64),
        count=np.array([row["count"] for _, row in rows], dtype=np.int64),
        data_type=tuple(row["type"] for _, row in rows),
        redop=tuple(redops) if "redop" in lead else None,
        root=np.array([row["root"] for _, row in rows], dtype=np.int64) if has_root else None,
        out_of_place=measurement(0), in_place=measurement(1),
        out_of_bounds=closing["out_of_bounds"],
        average_bus_bandwidth_bytes_per_s=None if average is None else average * u.GB_per_s,
        bandwidth_convention=convention,
        row_lines=tuple(number for number, _ in rows), skipped_lines=tuple(preamble.skipped + skipped),
        rank_count_source=source, listed_ranks=tuple(rank for _, rank, _, _ in preamble.ranks),
        elisions=tuple(preamble.elisions + table_elisions),
    )
