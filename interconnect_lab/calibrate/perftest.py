"""Read what the perftest programs print: ib_write_bw, ib_read_bw, ib_send_bw, ib_write_lat.

perftest (``linux-rdma/perftest``) measures one RDMA connection between two
hosts without NCCL. Every program prints a block of settings between dashed
lines, the queue pairs' addresses, then a table: one row per message size.

Bandwidth tests print ``BW peak`` and ``BW average`` in ``MB/sec`` or, with
``--report_gbits``, ``Gb/sec``, and the message rate in Mpps. perftest's
``MB/sec`` is 2²⁰ bytes per second and its ``Gb/sec`` 10⁹ bits (125,000,000
bytes) per second (``format_factor`` in ``src/perftest_parameters.c``); this
module converts both to bytes per second. Latency tests print ``t_min``,
``t_max``, ``t_typical``, ``t_avg``, ``t_stdev`` and percentiles in
microseconds; perftest's latency is half the round trip for write and send,
the whole round trip for read.

References
----------
linux-rdma, perftest ``src/perftest_parameters.c`` (``print_report_bw``,
``print_report_lat``). https://github.com/linux-rdma/perftest
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from types import MappingProxyType

import numpy as np

from .. import units as u

__all__ = ["PERFTEST_PROGRAMS", "PerftestRun", "parse_perftest"]

#: The title perftest prints for each program.
PERFTEST_PROGRAMS = MappingProxyType({
    "RDMA_Write BW Test": "ib_write_bw",
    "RDMA_Read BW Test": "ib_read_bw",
    "Send BW Test": "ib_send_bw",
    "RDMA_Write Latency Test": "ib_write_lat",
    "RDMA_Read Latency Test": "ib_read_lat",
    "Send Latency Test": "ib_send_lat",
})

#: Bytes per second in one unit of perftest's bandwidth columns.
_RATE_UNITS = {"MB/sec": 2.0**20, "Gb/sec": 125_000_000.0}

_COLUMN = re.compile(
    r"#bytes|#iterations|BW peak\[(?:MB|Gb)/sec\]|BW average\[(?:MB|Gb)/sec\]|MsgRate\[Mpps\]"
    r"|t_min\[usec\]|t_max\[usec\]|t_typical\[usec\]|t_avg\[usec\]|t_stdev\[usec\]"
    r"|99% percentile\[usec\]|99\.9% percentile\[usec\]")
_DASHES = re.compile(r"^\s*-{20,}\s*$")
_SETTING = re.compile(r"\s*([^:\t]+?)\s*:\s*(\S+)")
_WARNING = re.compile(r"^\s*Conflicting CPU frequency values detected")
_ADDRESS = re.compile(r"^\s*(local address|remote address|GID)\s*:")


@dataclass(frozen=True)
class PerftestRun:
    """One perftest run: its settings and its table.

    Attributes
    ----------
    program : str
        ``"ib_write_bw"``, ``"ib_read_bw"``, ``"ib_send_bw"``, ``"ib_write_lat"``...
    kind : str
        ``"bandwidth"`` or ``"latency"``.
    settings : mapping of str to str
        The settings block as printed (``Device``, ``Number of qps``,
        ``Link type``, ``Mtu``...).
    columns : tuple of str
        The table's columns as printed.
    size_bytes : numpy.ndarray of int
        Message size per row [B].
    iterations : numpy.ndarray of int
        Iterations per row [-].
    peak_bandwidth_bytes_per_s, average_bandwidth_bytes_per_s : numpy.ndarray or None
        Bandwidth tests: peak and average bandwidth per row, one direction [B/s].
    message_rate_per_s : numpy.ndarray or None
        Bandwidth tests: messages per second per row [1/s].
    latency_s : mapping of str to numpy.ndarray or None
        Latency tests: every latency column (``"t_min"``, ``"t_typical"``,
        ``"t_avg"``, ``"99%"``...) per row [s].
    rate_unit : str or None
        ``"MB/sec"`` or ``"Gb/sec"`` as printed.
    skipped_lines : tuple of int
        perftest's own warnings (``Conflicting CPU frequency values detected``),
        skipped on purpose.
    """

    program: str
    kind: str
    settings: MappingProxyType
    columns: tuple
    size_bytes: np.ndarray
    iterations: np.ndarray
    peak_bandwidth_bytes_per_s: np.ndarray | None
    average_bandwidth_bytes_per_s: np.ndarray | None
    message_rate_per_s: np.ndarray | None
    latency_s: MappingProxyType | None
    rate_unit: str | None
    skipped_lines: tuple = field(default=(), repr=False)

    @property
    def queue_pairs(self) -> int:
        """The ``Number of qps`` setting [-]."""
        return int(self.settings.get("Number of qps", "1"))

    def describe(self) -> str:
        """One line: program, device, link type, sizes."""
        device = self.settings.get("Device", "?")
        link = self.settings.get("Link type", "?")
        sizes = (f"{len(self.size_bytes)} sizes from {u.format_bytes(float(self.size_bytes.min()))} to "
                 f"{u.format_bytes(float(self.size_bytes.max()))}" if len(self.size_bytes) > 1
                 else f"one size, {u.format_bytes(float(self.size_bytes[0]))}")
        return f"{self.program} on {device} ({link} link, {self.queue_pairs} QP): {sizes}"


def _fail(number, expected, found):
    shown = found if len(found) <= 100 else found[:97] + "..."
    raise ValueError(f"perftest output, line {number}: expected {expected}; found {shown!r}")


def _columns(number, line):
    body = line.strip()
    names = _COLUMN.findall(body)
    rest = _COLUMN.sub("", body).strip()
    if rest or not names or names[:2] != ["#bytes", "#iterations"]:
        _fail(number, "the column names ' #bytes #iterations ...' (BW peak[MB/sec] ... or t_min[usec] ...)",
              line)
    return tuple(names)


def parse_perftest(text):
    """Parse the output of one perftest run (client side).

    Parameters
    ----------
    text : str
        What the program printed, from the first dashed line to the last
        (one run per text).

    Returns
    -------
    PerftestRun

    Raises
    ------
    TypeError
        If ``text`` is not a string.
    ValueError
        For empty, truncated, reordered or garbled output, or a program this
        module does not read; the message names the line.

    Examples
    --------
    >>> dashes = "-" * 87
    >>> text = "\\n".join([dashes, "                    RDMA_Write BW Test",
    ...     " Number of qps   : 1            Transport type : IB", dashes,
    ...     " #bytes     #iterations    BW peak[Gb/sec]    BW average[Gb/sec]   MsgRate[Mpps]",
    ...     " 65536      5000             98.00              97.50              0.186", dashes])
    >>> run = parse_perftest(text)
    >>> run.program, float(run.average_bandwidth_bytes_per_s[0]) / 1e9
    ('ib_write_bw', 12.1875)

    (Made-up numbers, kept short; the shipped logs are real.)
    """
    if not isinstance(text, str):
        raise TypeError(f"text must be the program's output as a string, got {type(text).__name__}")
    lines = text.splitlines()
    if not any(line.strip() for line in lines):
        raise ValueError("perftest output is empty: expected a dashed line, then the test's title")
    index = 0
    while not lines[index].strip():
        index += 1

    def take():
        nonlocal index
        if index >= len(lines):
            raise ValueError(f"perftest output is truncated after line {len(lines)}: expected the table "
                             "and its closing dashed line")
        index += 1
        return index, lines[index - 1]

    number, line = take()
    if not _DASHES.match(line):
        _fail(number, "a dashed line '-----...' (remove the shell prompt and the command line)", line)
    number, line = take()
    title = line.strip()
    if title not in PERFTEST_PROGRAMS:
        _fail(number, f"a test title ({', '.join(PERFTEST_PROGRAMS)})", line)
    program = PERFTEST_PROGRAMS[title]
    settings = {}
    while True:
        number, line = take()
        if _DASHES.match(line):
            break
        pairs = _SETTING.findall(line)
        if not pairs:
            _fail(number, "a setting 'Name : value' or the dashed line closing the settings", line)
        qps = dict(pairs).get("Number of qps")
        if qps is not None and not (qps.isdigit() and int(qps) >= 1):
            _fail(number, "a whole number >= 1 after 'Number of qps :'", line)
        settings.update(pairs)
    number, line = take()
    if _ADDRESS.match(line):
        while True:
            number, line = take()
            if _DASHES.match(line):
                break
            if not _ADDRESS.match(line):
                _fail(number, "a 'local address:', 'remote address:' or 'GID:' line, or a dashed line", line)
        number, line = take()
    columns = _columns(number, line)
    rows, skipped = [], []
    while True:
        number, line = take()
        if _DASHES.match(line):
            break
        if _WARNING.match(line):
            skipped.append(number)
            continue
        tokens = line.split()
        if len(tokens) != len(columns):
            _fail(number, f"a row of {len(columns)} numbers ({' '.join(columns)}) or the closing dashed line",
                  line)
        try:
            values = [int(tokens[0]), int(tokens[1]), *(float(t) for t in tokens[2:])]
        except ValueError:
            _fail(number, f"numbers in every column ({' '.join(columns)})", line)
        if not all(np.isfinite(values)) or min(values) < 0 or values[0] == 0 or values[1] == 0:
            _fail(number, "a positive size and iteration count and non-negative measurements", line)
        if rows and values[0] <= rows[-1][0]:
            _fail(number, f"a size > {rows[-1][0]} B (perftest prints increasing sizes)", line)
        rows.append(values)
    if not rows:
        _fail(number, "at least one row before the closing dashed line", line)
    for rest_number, rest in enumerate(lines[index:], start=index + 1):
        if rest.strip():
            _fail(rest_number, "nothing after the closing dashed line (one run per text)", rest)

    table = np.array(rows, dtype=float)
    kind = "bandwidth" if program.endswith("_bw") else "latency"
    by_name = {name: table[:, i] for i, name in enumerate(columns)}
    peak = average = rate = latency = unit = None
    if kind == "bandwidth":
        names = [c for c in columns if c.startswith("BW ")]
        if len(names) != 2 or "MsgRate[Mpps]" not in columns:
            _fail(number, "bandwidth columns 'BW peak[...]', 'BW average[...]' and 'MsgRate[Mpps]'",
                  " ".join(columns))
        unit = names[0][names[0].index("[") + 1:-1]
        peak = by_name[names[0]] * _RATE_UNITS[unit]
        average = by_name[names[1]] * _RATE_UNITS[unit]
        rate = by_name["MsgRate[Mpps]"] * 1e6
    else:
        if not any(c.startswith("t_") for c in columns):
            _fail(number, "latency columns 't_min[usec]' ...", " ".join(columns))
        latency = MappingProxyType({name.split("[")[0].replace(" percentile", ""): values * u.us
                                    for name, values in by_name.items() if name.endswith("[usec]")})
    return PerftestRun(
        program=program, kind=kind, settings=MappingProxyType(settings), columns=columns,
        size_bytes=table[:, 0].astype(np.int64), iterations=table[:, 1].astype(np.int64),
        peak_bandwidth_bytes_per_s=peak, average_bandwidth_bytes_per_s=average,
        message_rate_per_s=rate, latency_s=latency, rate_unit=unit, skipped_lines=tuple(skipped))
