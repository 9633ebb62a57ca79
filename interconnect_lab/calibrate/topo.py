"""Read the matrix that ``nvidia-smi topo -m`` prints: how each GPU reaches each GPU and NIC.

Each cell names the path between two devices, best first:

========  ==============================================================
``NV#``   a bonded set of # NVLinks
``PIX``   at most one PCIe bridge (same PCIe switch)
``PXB``   several PCIe bridges, without the host bridge
``PHB``   through a PCIe host bridge (typically the CPU)
``NODE``  through the interconnect between host bridges inside a NUMA node
``SYS``   across the SMP interconnect between NUMA nodes (QPI/UPI)
``X``     the device itself
========  ==============================================================

Drivers before ~R470 name NICs by device (``mlx5_0``); newer ones print
``NIC0``… and a ``NIC Legend``. Both are read; the legend maps NIC labels to
device names. The trailing columns (``CPU Affinity``, ``NUMA Affinity``,
``GPU NUMA ID``) are kept as text per row.

References
----------
NVIDIA, ``nvidia-smi topo -m`` legend (printed with every matrix).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from types import MappingProxyType

__all__ = ["CONNECTION_RANK", "TopologyMatrix", "parse_nvidia_smi_topo"]

#: Path kinds, best (0) to worst; NV# ranks above all of them.
CONNECTION_RANK = MappingProxyType({"NV": 0, "PIX": 1, "PXB": 2, "PHB": 3, "NODE": 4, "SYS": 5})

_TRAILING = ("CPU Affinity", "NUMA Affinity", "GPU NUMA ID")
_CELL = re.compile(r"^(X|NV\d+|PIX|PXB|PHB|NODE|SYS)$")
_DEVICE = re.compile(r"^(GPU\d+|NIC\d+|mlx\d+_\d+|mlx\d+_bond_\d+|\w+_\d+)$")
_LEGEND_NIC = re.compile(r"^\s*(NIC\d+):\s*(\S+)\s*$")


@dataclass(frozen=True)
class TopologyMatrix:
    """The ``nvidia-smi topo -m`` matrix.

    Attributes
    ----------
    devices : tuple of str
        Row and column labels in order (``GPU0``…, then NICs).
    connections : tuple of tuple of str
        ``connections[i][j]``: the path from ``devices[i]`` to ``devices[j]``
        (``"X"`` on the diagonal).
    affinity : mapping of str to mapping of str to str
        Each GPU's trailing columns (``"CPU Affinity"``...), as printed.
    nic_names : mapping of str to str
        NIC label → device name, from the ``NIC Legend`` (identity when the
        matrix names devices directly).
    """

    devices: tuple
    connections: tuple
    affinity: MappingProxyType
    nic_names: MappingProxyType

    @property
    def gpus(self) -> tuple:
        """GPU labels."""
        return tuple(d for d in self.devices if d.startswith("GPU"))

    @property
    def nics(self) -> tuple:
        """NIC labels."""
        return tuple(d for d in self.devices if not d.startswith("GPU"))

    def connection(self, a, b) -> str:
        """The path between two devices (``"NV12"``, ``"PXB"``...)."""
        for name in (a, b):
            if name not in self.devices:
                raise ValueError(f"unknown device {name!r}; valid devices are: {', '.join(self.devices)}")
        return self.connections[self.devices.index(a)][self.devices.index(b)]

    def nvlinks(self, a, b) -> int:
        """NVLinks bonded between two GPUs [-]; 0 if their path is not NVLink."""
        cell = self.connection(a, b)
        return int(cell[2:]) if cell.startswith("NV") else 0

    def nearest_nics(self, gpu) -> tuple:
        """The NICs with the best path from ``gpu`` (ties kept), as device names."""
        if gpu not in self.gpus:
            raise ValueError(f"unknown GPU {gpu!r}; valid GPUs are: {', '.join(self.gpus)}")
        if not self.nics:
            return ()
        ranks = {nic: _rank(self.connection(gpu, nic)) for nic in self.nics}
        best = min(ranks.values())
        return tuple(self.nic_names.get(nic, nic) for nic, rank in ranks.items() if rank == best)

    def counts(self) -> dict:
        """How many GPU pairs (each counted once) have each kind of path."""
        result = {}
        gpus = self.gpus
        for i, a in enumerate(gpus):
            for b in gpus[i + 1:]:
                cell = self.connection(a, b)
                result[cell] = result.get(cell, 0) + 1
        return result


def _rank(cell):
    return CONNECTION_RANK["NV" if cell.startswith("NV") else cell]


def _split(line, tabbed):
    if tabbed:
        return [cell.strip() for cell in line.split("\t")]
    tokens = line.split()
    merged, i = [], 0
    while i < len(tokens):
        for name in _TRAILING:
            words = name.split()
            if tokens[i:i + len(words)] == words:
                merged.append(name)
                i += len(words)
                break
        else:
            merged.append(tokens[i])
            i += 1
    return merged


def _fail(number, expected, found):
    shown = found if len(found) <= 100 else found[:97] + "..."
    raise ValueError(f"nvidia-smi topo -m output, line {number}: expected {expected}; found {shown!r}")


def parse_nvidia_smi_topo(text):
    """Parse the output of ``nvidia-smi topo -m``.

    Parameters
    ----------
    text : str
        The matrix, optionally followed by its ``Legend`` and ``NIC Legend``.

    Returns
    -------
    TopologyMatrix

    Raises
    ------
    TypeError
        If ``text`` is not a string.
    ValueError
        If the header is missing, a row is missing, out of order or has the
        wrong number of cells, a cell is not a known path, or the matrix is
        not symmetric; the message names the line.

    Examples
    --------
    >>> text = "\\tGPU0\\tGPU1\\tCPU Affinity\\nGPU0\\t X \\tNV4\\t0-23\\nGPU1\\tNV4\\t X \\t0-23\\n"
    >>> topo = parse_nvidia_smi_topo(text)
    >>> topo.nvlinks("GPU0", "GPU1"), topo.counts()
    (4, {'NV4': 1})
    """
    if not isinstance(text, str):
        raise TypeError(f"text must be the program's output as a string, got {type(text).__name__}")
    lines = text.splitlines()
    numbered = [(i + 1, line) for i, line in enumerate(lines) if line.strip()]
    if not numbered:
        raise ValueError("nvidia-smi topo -m output is empty: expected the header '\\tGPU0\\tGPU1 ...'")
    number, header = numbered[0]
    tabbed = "\t" in header
    labels = _split(header, tabbed)
    if tabbed and labels and labels[0] == "":
        labels = labels[1:]
    while labels and labels[-1] == "":
        labels.pop()
    devices = [label for label in labels if label not in _TRAILING]
    trailing = [label for label in labels if label in _TRAILING]
    if not devices or devices[0] != "GPU0" or labels[:len(devices)] != devices or \
            not all(_DEVICE.match(d) for d in devices):
        _fail(number, "the header row: device labels 'GPU0 GPU1 ... [NIC0 ...]' then 'CPU Affinity' ...",
              header)
    rows = {}
    affinity = {}
    for number, line in numbered[1:]:
        if line.strip() == "Legend:" or line.strip() == "NIC Legend:":
            break
        cells = _split(line, tabbed)
        label = cells[0]
        expected = devices[len(rows)] if len(rows) < len(devices) else None
        if expected is None:
            _fail(number, "the 'Legend:' line after the last device row", line)
        if label != expected:
            _fail(number, f"the row of {expected} (rows follow the header's order)", line)
        values = cells[1:]
        matrix, rest = values[:len(devices)], values[len(devices):]
        if len(matrix) < len(devices) or not all(_CELL.match(c) for c in matrix):
            _fail(number, f"{len(devices)} cells, each X, NV#, PIX, PXB, PHB, NODE or SYS", line)
        if matrix[len(rows)] != "X":
            _fail(number, f"'X' in column {expected} (a device's path to itself)", line)
        if label.startswith("GPU"):
            rest = [c for c in rest if c != ""] if tabbed else rest
            # The GPU NUMA ID column is separated by two tabs; empty cells are padding.
            if len(rest) != len(trailing):
                _fail(number, f"{len(trailing)} trailing value(s) ({', '.join(trailing)})", line)
            affinity[label] = MappingProxyType(dict(zip(trailing, rest)))
        elif any(c for c in rest):
            _fail(number, "no affinity values on a NIC row", line)
        rows[label] = tuple(matrix)
    if len(rows) != len(devices):
        missing = devices[len(rows)]
        raise ValueError(f"nvidia-smi topo -m output is truncated: the row of {missing} is missing "
                         f"({len(rows)} of {len(devices)} rows)")
    for i, a in enumerate(devices):
        for j, b in enumerate(devices):
            if rows[a][j] != rows[b][i]:
                raise ValueError(f"nvidia-smi topo -m output is not symmetric: {a}->{b} is {rows[a][j]!r} "
                                 f"but {b}->{a} is {rows[b][i]!r}")
    legend = {}
    for number, line in numbered:
        match = _LEGEND_NIC.match(line)
        if match:
            legend[match.group(1)] = match.group(2)
    nic_labels = [d for d in devices if not d.startswith("GPU")]
    unnamed = [d for d in nic_labels if d.startswith("NIC") and d not in legend]
    if unnamed and legend:
        raise ValueError(f"the NIC Legend does not name {', '.join(unnamed)}")
    names = {d: legend.get(d, d) for d in nic_labels}
    return TopologyMatrix(devices=tuple(devices), connections=tuple(rows[d] for d in devices),
                          affinity=MappingProxyType(affinity), nic_names=MappingProxyType(names))
