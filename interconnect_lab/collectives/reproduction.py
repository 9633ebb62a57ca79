"""The collective model against published nccl-tests runs: chapter 7's reproduction table.

:func:`reproduction_table` rebuilds each published machine as a
:class:`~interconnect_lab.collectives.system.CollectiveSystem`, asks
:func:`~interconnect_lab.collectives.nccl_collective` for the same
collective at up to three of the printed sizes, one in each band a reader
cares about, and compares the bus bandwidths:

- **small**: at most 64 KiB, the printed size nearest 8 KiB (latency);
- **mid**: 1 to 64 MiB, the printed size nearest 8 MiB (the ramp);
- **large**: at least 256 MiB, the largest printed size (the plateau).

The error is ``predicted busbw / measured busbw - 1``: positive when the model
is too fast.
"""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass

from .. import units as u
from .nccl import nccl_collective
from .system import NCCL_NVLINK_BYTES_PER_S_PER_LINK, CollectiveSystem

__all__ = ["BANDS", "ReproductionRow", "result_system", "reproduction_table", "reproduction_summary"]

#: Message-size bands of the table: name, (smallest, largest) size [B], and the size aimed at [B].
BANDS = (
    ("small", (1.0, 64 * u.KiB), 8 * u.KiB),
    ("mid", (1 * u.MiB, 64 * u.MiB), 8 * u.MiB),
    ("large", (256 * u.MiB, math.inf), math.inf),
)


@dataclass(frozen=True)
class ReproductionRow:
    """One published measurement against the model.

    Attributes
    ----------
    result : interconnect_lab.published.nccl_tests.NcclTestsResult
        The run, its machine and its source.
    band : str
        ``"small"``, ``"mid"`` or ``"large"`` (:data:`BANDS`).
    size_bytes : float
        The printed size compared [B].
    measured_bus_bandwidth_bytes_per_s, predicted_bus_bandwidth_bytes_per_s : float
        busbw as printed and as the model predicts it [B/s].
    algorithm, protocol : str
        What the model says NCCL runs.
    """

    result: object
    band: str
    size_bytes: float
    measured_bus_bandwidth_bytes_per_s: float
    predicted_bus_bandwidth_bytes_per_s: float
    algorithm: str
    protocol: str

    @property
    def error(self) -> float:
        """``predicted / measured - 1`` [-]: positive when the model is too fast."""
        return self.predicted_bus_bandwidth_bytes_per_s / self.measured_bus_bandwidth_bytes_per_s - 1


def result_system(result) -> CollectiveSystem:
    """The :class:`CollectiveSystem` of a published run, as its source describes the machine.

    Parameters
    ----------
    result : interconnect_lab.published.nccl_tests.NcclTestsResult
        The run.

    Returns
    -------
    CollectiveSystem
    """
    return CollectiveSystem(
        architecture=result.architecture, nodes=result.nodes, gpus_per_node=result.gpus_per_node,
        nvlink_bytes_per_s=result.nvlink_links * NCCL_NVLINK_BYTES_PER_S_PER_LINK[result.architecture],
        nvswitch=result.nvls, nics_per_node=result.nics_per_node,
        nic_bytes_per_s=result.nic_gbit_per_s * u.Gbit_per_s, sharp=result.sharp, cpu=result.cpu,
        name=f"{result.nodes} x {result.gpus_per_node} {result.gpu}")


def _pick(result, band):
    _, (low, high), target = BANDS[[b[0] for b in BANDS].index(band)]
    rows = [(s, t, b) for s, t, b in zip(result.sizes_bytes, result.times_us, result.bus_bandwidth_gb_per_s)
            if low <= s <= high and b > 0]
    if not rows:
        return None
    if math.isinf(target):
        return max(rows)
    return min(rows, key=lambda row: abs(math.log(row[0] / target)))


def reproduction_table(results=None):
    """Every published run against the model, one row per size band it prints.

    Parameters
    ----------
    results : sequence of NcclTestsResult, optional
        The runs; ``published.nccl_tests.NCCL_TESTS_RESULTS`` by default.

    Returns
    -------
    tuple of ReproductionRow
    """
    if results is None:
        from ..published.nccl_tests import NCCL_TESTS_RESULTS as results
    rows = []
    for result in results:
        system = result_system(result)
        for band, _, _ in BANDS:
            picked = _pick(result, band)
            if picked is None:
                continue
            size, _, busbw = picked
            predicted = nccl_collective(result.collective, size, system,
                                        algorithm=None if result.algorithms is None else result.algorithms)
            rows.append(ReproductionRow(result, band, size, busbw * u.GB_per_s,
                                        predicted.bus_bandwidth_bytes_per_s, predicted.algorithm,
                                        predicted.protocol))
    return tuple(rows)


def reproduction_summary(rows):
    """Median and largest ``|error|`` over ``rows``, in all and per band and family.

    Parameters
    ----------
    rows : sequence of ReproductionRow
        From :func:`reproduction_table`.

    Returns
    -------
    dict
        ``{(family or "all", band or "all"): (rows, median |error|, largest |error|)}``.
    """
    summary = {}
    keys = {("all", "all")}
    for row in rows:
        keys |= {(row.result.family, "all"), ("all", row.band), (row.result.family, row.band)}
    for family, band in sorted(keys):
        chosen = [abs(r.error) for r in rows if family in ("all", r.result.family) and band in ("all", r.band)]
        summary[(family, band)] = (len(chosen), statistics.median(chosen), max(chosen))
    return summary
