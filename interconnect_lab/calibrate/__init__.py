"""Calibrate the library to your own cluster: read real tool output, fit, compare.

The appendix *Measuring your own cluster* says which commands to run; this
package reads what they print and turns it into parameters the library's
models accept in place of catalog entries.

- :func:`parse_nccl_tests` reads nccl-tests (``all_reduce_perf``,
  ``all_gather_perf``, ``reduce_scatter_perf``, ``alltoall_perf``,
  ``sendrecv_perf``...), older and current table layouts;
  :func:`parse_perftest` reads ``ib_write_bw``, ``ib_read_bw``, ``ib_send_bw``
  and ``ib_write_lat``; :func:`parse_nvidia_smi_topo` reads ``nvidia-smi topo -m``.
  Each returns a frozen result with numpy arrays and raises ``ValueError``
  naming the line on malformed or truncated input.
- :func:`fit_collective` fits the α-β model per regime (latency-bound,
  protocol-bound, bandwidth-bound) with residuals; ``fit.link()`` gives a
  :class:`CalibratedLink` whose :meth:`~CalibratedLink.collective_kwargs`
  go straight into :func:`interconnect_lab.collectives.collective_performance`;
  :func:`calibrated_cluster` gives the training model a measured cluster.
- :func:`compare_bus_bandwidth` sets measured busbw against any prediction,
  size by size, with the ratio and the regime.
- :mod:`interconnect_lab.calibrate.logs` ships real outputs their owners
  published, with their sources; :func:`shipped_run` parses one.

Examples
--------
>>> from interconnect_lab import collectives as coll
>>> from interconnect_lab.calibrate import shipped_run, fit_collective
>>> link = fit_collective(shipped_run("v100_dgx2_all_reduce")).link()
>>> r = coll.all_reduce_time(1 * 2**30, 12, **link.collective_kwargs())
>>> round(r * 1e3, 2)
15.96
"""

from .fit import (
    REGIMES, AlphaBetaSegment, BusBandwidthComparison, CalibratedCluster, CalibratedLink,
    CollectiveFit, calibrated_cluster, compare_bus_bandwidth, fit_collective,
)
from .logs import SHIPPED_LOGS, ShippedLog, shipped_log, shipped_text
from .nccl_tests import NCCL_TESTS_PROGRAMS, NcclTestsMeasurement, NcclTestsRun, parse_nccl_tests
from .perftest import PERFTEST_PROGRAMS, PerftestRun, parse_perftest
from .topo import CONNECTION_RANK, TopologyMatrix, parse_nvidia_smi_topo

__all__ = [
    # parsers
    "parse_nccl_tests", "NcclTestsRun", "NcclTestsMeasurement", "NCCL_TESTS_PROGRAMS",
    "parse_perftest", "PerftestRun", "PERFTEST_PROGRAMS",
    "parse_nvidia_smi_topo", "TopologyMatrix", "CONNECTION_RANK",
    # fitting and comparison
    "REGIMES", "AlphaBetaSegment", "CollectiveFit", "fit_collective", "CalibratedLink",
    "BusBandwidthComparison", "compare_bus_bandwidth", "CalibratedCluster", "calibrated_cluster",
    # shipped logs
    "SHIPPED_LOGS", "ShippedLog", "shipped_log", "shipped_text", "shipped_run", "reference_parameters",
]


def shipped_run(name):
    """Parse a shipped log (see :data:`SHIPPED_LOGS`) with the right parser.

    nccl-tests logs are parsed with the collective their source names;
    perftest and topology logs with their own parsers.

    Examples
    --------
    >>> shipped_run("v100_dgx2_all_reduce").n_ranks
    12
    >>> shipped_run("ib_write_lat_connectx3").program
    'ib_write_lat'
    """
    entry = shipped_log(name)
    text = shipped_text(name)
    if entry.tool == "nccl-tests":
        return parse_nccl_tests(text, collective=entry.program)
    if entry.tool == "perftest":
        return parse_perftest(text)
    return parse_nvidia_smi_topo(text)


def reference_parameters(name_or_run, reference=None):
    """The book's catalog prediction for a sweep: (label, keywords for ``compare_bus_bandwidth``).

    Parameters
    ----------
    name_or_run : str or NcclTestsRun
        A shipped nccl-tests log's name, or a parsed run.
    reference : tuple, optional
        ``("link", catalog link name)`` for a sweep inside one NVLink domain, or
        ``("cluster", training cluster or catalog system)``: flat ring over the
        scale-up link inside one node, the library's two-level all-reduce across
        nodes. Required for a run that is not a shipped log.

    Returns
    -------
    (str, dict)

    Examples
    --------
    >>> label, kwargs = reference_parameters("v100_dgx2_all_reduce")
    >>> label, kwargs["bandwidth_bytes_per_s"] / 1e9
    ('catalog: NVLink 2', 150.0)
    """
    from .. import catalog, collectives, training
    from .fit import _base_cluster

    if isinstance(name_or_run, str):
        entry = shipped_log(name_or_run)
        run = shipped_run(name_or_run)
        reference = reference or entry.reference
    else:
        run = name_or_run
    if not isinstance(run, NcclTestsRun):
        raise TypeError(f"reference_parameters needs an nccl-tests run, got {type(run).__name__}")
    if not reference or reference[0] not in ("link", "cluster"):
        raise ValueError(f"reference must be ('link', name) or ('cluster', name), got {reference!r}")
    kind, name = reference
    if kind == "link":
        params = collectives.link_parameters(catalog.link(name))
        algorithm = "direct" if run.collective in ("all_to_all", "send_recv") else "ring"
        return f"catalog: {name}", {**params, "algorithm": algorithm}
    cluster = _base_cluster(name)
    up = collectives.link_parameters(catalog.link(cluster.scale_up_link))
    label = f"catalog: {cluster.name}"
    if run.n_nodes == 1:
        return label, {**up, "algorithm": "ring"}
    return label, {**up, "algorithm": "hierarchical", "ranks_per_node": run.ranks_per_node,
                   "network_bandwidth_bytes_per_s": cluster.scale_out_bytes_per_s,
                   "network_latency_s": collectives.NETWORK_STEP_LATENCY_S,
                   "network_efficiency": collectives.NETWORK_EFFICIENCY}
