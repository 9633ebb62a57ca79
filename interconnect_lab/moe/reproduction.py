"""The expert-parallel kernels against published dispatch and combine benchmarks: chapter 11's table.

:func:`ep_reproduction_table` rebuilds each published machine
(:func:`benchmark_system`) and workload (:func:`benchmark_traffic`), asks the
collective model for the time of the table's kind of kernel
(:func:`~interconnect_lab.moe.expert_parallel_all_to_all`) and compares it with
what the authors printed, by their own definition:

- normal kernels, whose tables print a bandwidth, are compared on that
  bandwidth, converted from the model's time by the same count the authors'
  test uses (:func:`interconnect_lab.collectives.reported_bandwidth`);
- the others on their printed time (bandwidth where no time is printed).

The error is the model's speed over the measured one, less one:
``predicted / measured - 1`` for a bandwidth, ``measured / predicted - 1`` for
a time, so it is positive when the model is too fast either way. Where a table
sweeps the number of SMs, the best printed cell is compared, as DeepEP and
UCCL-EP print the best of their own sweeps.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass

from .. import collectives
from .traffic import AllToAllTime, all_to_all_traffic, expert_parallel_all_to_all, expert_parallel_system, \
    fp8_scale_bytes

__all__ = ["EPReproductionRow", "benchmark_system", "benchmark_traffic", "ep_reproduction_table",
           "ep_reproduction_summary"]


@dataclass(frozen=True)
class EPReproductionRow:
    """One published cell against the model.

    Attributes
    ----------
    benchmark : interconnect_lab.published.ep_kernels.EPKernelBenchmark
        The cell, its table and its source.
    compared : str
        ``"bandwidth"`` or ``"latency"``: what is compared.
    measured, predicted : float
        As printed and as the model gives it, in base units [B/s or s].
    all_to_all : AllToAllTime
        The model's dispatch or combine.
    """

    benchmark: object
    compared: str
    measured: float
    predicted: float
    all_to_all: AllToAllTime

    @property
    def error(self) -> float:
        """The model's speed over the measured one, less one [-]: positive when the model is too fast."""
        if self.compared == "bandwidth":
            return self.predicted / self.measured - 1
        return self.measured / self.predicted - 1

    @property
    def counted_bytes_error(self) -> float | None:
        """Where a bandwidth and a time are both printed: the model's count of the authors' bytes over theirs,
        less one [-] (checks that the model counts what the test counts); None otherwise."""
        b = self.benchmark
        if b.bandwidth_gb_per_s is None or b.latency_us is None:
            return None
        counted = self.all_to_all.reported_bandwidth(b.definition) * self.all_to_all.time_s
        return counted / (b.bandwidth_gb_per_s * 1e9 * b.latency_us * 1e-6) - 1

    @property
    def family(self) -> str:
        """``"development"`` or ``"validation"``."""
        return self.benchmark.table.family


def _domain(benchmark):
    g = benchmark.table.gpus_per_domain
    return benchmark.ep_degree if g is None else min(g, benchmark.ep_degree)


def benchmark_system(benchmark):
    """The machine of a published cell, as its source describes it.

    Parameters
    ----------
    benchmark : interconnect_lab.published.ep_kernels.EPKernelBenchmark
        The cell.

    Returns
    -------
    interconnect_lab.collectives.CollectiveSystem
    """
    table = benchmark.table
    return expert_parallel_system(benchmark.ep_degree, _domain(benchmark), gpu=table.gpu,
                                  network_link=table.network or "InfiniBand NDR", nics_per_gpu=table.nics_per_gpu,
                                  cpu=table.cpu)


def benchmark_traffic(benchmark):
    """The workload of a published cell: its tokens, their bytes and destinations.

    Parameters
    ----------
    benchmark : interconnect_lab.published.ep_kernels.EPKernelBenchmark
        The cell.

    Returns
    -------
    AllToAllTraffic
    """
    table = benchmark.table
    experts = benchmark.experts or table.experts or (table.experts_per_gpu and table.experts_per_gpu
                                                     * benchmark.ep_degree)
    b = benchmark.bytes_per_element
    return all_to_all_traffic(benchmark.tokens, table.hidden_size, table.top_k, benchmark.ep_degree,
                              bytes_per_element=b, experts=experts, domain_size=_domain(benchmark),
                              max_domains_per_token=table.max_nodes_per_token,
                              scale_bytes_per_token=fp8_scale_bytes(table.hidden_size) if b < 2 else 0.0)


def _best_of_sweeps(benchmarks):
    """One cell per configuration: where a table sweeps SM counts, the one with the highest printed bandwidth."""
    best = {}
    for b in benchmarks:
        key = (b.table.label, b.operation, b.ep_degree, b.tokens, b.bytes_per_element)
        if key not in best or (b.bandwidth_gb_per_s or 0) > (best[key].bandwidth_gb_per_s or 0):
            best[key] = b
    return [b for b in benchmarks if best[(b.table.label, b.operation, b.ep_degree, b.tokens,
                                           b.bytes_per_element)] is b]


def ep_reproduction_table(benchmarks=None):
    """Every published cell against the model, one row per configuration.

    Parameters
    ----------
    benchmarks : sequence of EPKernelBenchmark, optional
        The cells; ``interconnect_lab.published.ep_kernels.EP_KERNEL_BENCHMARKS`` by default.

    Returns
    -------
    tuple of EPReproductionRow

    Examples
    --------
    >>> rows = ep_reproduction_table()
    >>> sorted({row.benchmark.table.gpu for row in rows})
    ['B200', 'GB200', 'H100 SXM', 'H200 SXM', 'H800 SXM']
    """
    if benchmarks is None:
        from ..published.ep_kernels import EP_KERNEL_BENCHMARKS as benchmarks
    rows = []
    for b in _best_of_sweeps(tuple(benchmarks)):
        result = expert_parallel_all_to_all(benchmark_traffic(b), kernel=b.table.kernel, operation=b.operation,
                                            system=benchmark_system(b))
        on_bandwidth = b.latency_us is None or (b.table.kernel == "normal" and b.bandwidth_gb_per_s is not None)
        if on_bandwidth:
            rows.append(EPReproductionRow(b, "bandwidth", b.bandwidth_gb_per_s * 1e9,
                                          collectives.reported_bandwidth(result.exchange, b.definition), result))
        else:
            rows.append(EPReproductionRow(b, "latency", b.latency_us * 1e-6, result.time_s, result))
    return tuple(rows)


def ep_reproduction_summary(rows):
    """Rows, median and largest absolute error per family, overall and per implementation.

    Parameters
    ----------
    rows : sequence of EPReproductionRow
        From :func:`ep_reproduction_table`.

    Returns
    -------
    dict
        ``{(family or "all", implementation or "all"): (rows, median abs(error), largest abs(error))}``.
    """
    keys = {("all", "all")}
    for row in rows:
        impl = row.benchmark.table.implementation
        keys |= {(row.family, "all"), ("all", impl), (row.family, impl)}
    summary = {}
    for family, impl in sorted(keys):
        chosen = [abs(r.error) for r in rows
                  if family in ("all", r.family) and impl in ("all", r.benchmark.table.implementation)]
        summary[(family, impl)] = (len(chosen), statistics.median(chosen), max(chosen))
    return summary
