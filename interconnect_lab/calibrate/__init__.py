"""Calibrate the library to your own cluster: read real tool output, fit, compare.

The appendix *Measuring your own cluster* says which commands to run; this
package reads what they print, sets it against the collective model for the
same machine and turns it into parameters the library's models accept in
place of catalog entries.

- :func:`~interconnect_lab.calibrate.nccl_tests.parse_nccl_tests` reads nccl-tests (``all_reduce_perf``,
  ``all_gather_perf``, ``reduce_scatter_perf``, ``alltoall_perf``,
  ``sendrecv_perf``...), older and current table layouts, and the excerpts
  vendors publish (elided rank lines and sizes, launcher prefixes), taking the
  number of ranks from what the log states or from the caller;
  :func:`~interconnect_lab.calibrate.perftest.parse_perftest` reads ``ib_write_bw``, ``ib_read_bw``, ``ib_send_bw``
  and ``ib_write_lat``; :func:`~interconnect_lab.calibrate.topo.parse_nvidia_smi_topo` reads ``nvidia-smi topo -m``.
  Each returns a frozen result with numpy arrays and raises ``ValueError``
  naming the line on malformed input.
- :func:`~interconnect_lab.calibrate.comparison.compare_with_model` sets a sweep against
  :func:`interconnect_lab.collectives.nccl_collective` for its collective, node count and
  machine, size by size: measured and predicted busbw, the algorithm and protocol the model
  expects, the error; all-to-all across nodes included.
- :func:`~interconnect_lab.calibrate.fit.fit_collective` fits the α-β model per regime (latency-bound,
  protocol-bound, bandwidth-bound) with residuals, and says when a sweep of plateau sizes
  determines the bandwidth alone; ``fit.link()`` gives a
  :class:`~interconnect_lab.calibrate.fit.CalibratedLink` whose :meth:`~interconnect_lab.calibrate.fit.CalibratedLink.collective_kwargs`
  go straight into :func:`interconnect_lab.collectives.collective_performance`;
  :func:`~interconnect_lab.calibrate.fit.calibrated_cluster` gives the training model a measured cluster.
- :func:`~interconnect_lab.calibrate.workflow.calibrate_nccl_tests` does all of it in one call, from a shipped
  log's name or pasted text and the machine.
- :mod:`interconnect_lab.calibrate.logs` ships real outputs their owners
  published, with their sources and machines; :func:`~interconnect_lab.calibrate.shipped_run` parses one.

``compare_bus_bandwidth``, ``BusBandwidthComparison``, ``reference_parameters`` and
``REFERENCES``, which compared a sweep with a catalog link's α-β prediction,
are deprecated and answer, with a warning, for one more release.

Examples
--------
>>> from interconnect_lab import collectives as coll
>>> from interconnect_lab.calibrate import shipped_run, fit_collective
>>> link = fit_collective(shipped_run("v100_dgx2_all_reduce")).link()
>>> r = coll.all_reduce_time(1 * 2**30, 12, **link.collective_kwargs())
>>> round(r * 1e3, 2)
15.96
"""

from .._deprecation import renamed_attribute
from .fit import (
    DETERMINES, PLATEAU_FROM_BYTES, REGIMES, AlphaBetaSegment, CalibratedCluster, CalibratedLink, CollectiveFit,
    calibrated_cluster, fit_collective,
)
from .comparison import ModelComparison, compare_with_model, run_system
from .logs import SHIPPED_LOGS, ShippedLog, shipped_log, shipped_system, shipped_text
from .nccl_tests import NCCL_TESTS_PROGRAMS, RANK_COUNT_SOURCES, NcclTestsMeasurement, NcclTestsRun, parse_nccl_tests
from .perftest import PERFTEST_PROGRAMS, PerftestRun, parse_perftest
from .topo import CONNECTION_RANK, TopologyMatrix, parse_nvidia_smi_topo
from .workflow import COLLECTIVES_FOR_TEXT, Calibration, calibrate_nccl_tests

__all__ = [
    # parsers
    "parse_nccl_tests", "NcclTestsRun", "NcclTestsMeasurement", "NCCL_TESTS_PROGRAMS", "RANK_COUNT_SOURCES",
    "parse_perftest", "PerftestRun", "PERFTEST_PROGRAMS",
    "parse_nvidia_smi_topo", "TopologyMatrix", "CONNECTION_RANK",
    # fitting and comparison
    "REGIMES", "DETERMINES", "PLATEAU_FROM_BYTES", "AlphaBetaSegment", "CollectiveFit", "fit_collective",
    "CalibratedLink", "CalibratedCluster", "calibrated_cluster",
    # one call
    "Calibration", "calibrate_nccl_tests", "COLLECTIVES_FOR_TEXT",
    # comparison with the collective model
    "ModelComparison", "compare_with_model", "run_system",
    # shipped logs
    "SHIPPED_LOGS", "ShippedLog", "shipped_log", "shipped_text", "shipped_run", "shipped_system",
]


def shipped_run(name):
    """Parse a shipped log (see :data:`~interconnect_lab.calibrate.logs.SHIPPED_LOGS`) with the right parser.

    nccl-tests logs are parsed with the collective their source names (and the
    number of ranks, where the log does not list them); perftest and topology
    logs with their own parsers.

    Parameters
    ----------
    name : str
        A key of :data:`~interconnect_lab.calibrate.logs.SHIPPED_LOGS`.

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
        return parse_nccl_tests(text, collective=entry.program, n_ranks=entry.n_ranks)
    if entry.tool == "perftest":
        return parse_perftest(text)
    return parse_nvidia_smi_topo(text)


def __getattr__(name):
    # Names replaced in this release still answer, with a DeprecationWarning (see _deprecation.REPLACED_NAMES).
    return renamed_attribute(__name__, name)
