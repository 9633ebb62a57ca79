"""One call from a log to a fit, a calibrated link and a comparison with the collective model."""

from __future__ import annotations

import warnings
from dataclasses import dataclass

from .._deprecation import renamed_attribute
from ..collectives.system import CollectiveSystem
from .comparison import ModelComparison, compare_with_model
from .fit import CalibratedLink, CollectiveFit, compare_bus_bandwidth_as_catalog, fit_collective
from .logs import SHIPPED_LOGS, shipped_log, shipped_system, shipped_text
from .nccl_tests import NcclTestsRun, parse_nccl_tests

__all__ = ["COLLECTIVES_FOR_TEXT", "Calibration", "calibrate_nccl_tests"]

#: Collectives nccl-tests measures, as the library names them (for text that does not say).
COLLECTIVES_FOR_TEXT = ("all_reduce", "all_gather", "reduce_scatter", "all_to_all", "send_recv", "broadcast",
                        "reduce")

# The catalog predictions of the deprecated comparison: label -> ("link", name) or ("cluster", name).
_REFERENCES = {
    "NVLink 2 (V100)": ("link", "NVLink 2"),
    "NVLink 3 (A100)": ("link", "NVLink 3"),
    "NVLink 4 (H100)": ("link", "NVLink 4"),
    "NVLink 5 (B200)": ("link", "NVLink 5"),
    "Selene (A100, HDR)": ("cluster", "Selene"),
    "HGX H100 (NDR)": ("cluster", "HGX H100"),
    "GB200 NVL72": ("cluster", "GB200 NVL72"),
}


@dataclass(frozen=True)
class Calibration:
    """A sweep, its fit, the link it implies and its comparison with the collective model.

    Attributes
    ----------
    run : NcclTestsRun
        The parsed sweep.
    fit : CollectiveFit
        Piecewise α-β lines.
    link : CalibratedLink or None
        What the models take in place of a catalog link; None where the sweep has plateau
        sizes only, which determine no latency.
    comparison : ModelComparison
        Measured against the collective model for the machine (with the deprecated
        ``reference=``, the former comparison with a catalog link's α-β prediction).
    system : CollectiveSystem or None
        The machine the model priced; None with the deprecated ``reference=``.
    reference : tuple
        The deprecated catalog prediction, ``("link", name)`` or ``("cluster", name)``;
        empty when the comparison is with the collective model.
    """

    run: NcclTestsRun
    fit: CollectiveFit
    link: CalibratedLink | None
    comparison: ModelComparison
    system: CollectiveSystem | None = None
    reference: tuple = ()


def _reference_parameters(run, reference):
    """The former catalog prediction for ``run``: (label, keywords for the α-β comparison).

    The former public ``reference_parameters``, deprecated (``_deprecation.REPLACED_NAMES``).

    Parameters
    ----------
    run : NcclTestsRun
        The sweep (its collective, ranks and nodes choose the algorithm).
    reference : tuple
        ``("link", catalog link name)``: a flat algorithm on that link (a GPU's
        NVLinks); ``("cluster", training cluster or catalog system)``: a flat
        ring over its scale-up link inside one node, the library's two-level
        (hierarchical) collective across nodes.

    Returns
    -------
    (str, dict)

    Examples
    --------
    >>> from interconnect_lab.calibrate import shipped_run
    >>> label, kwargs = _reference_parameters(shipped_run("v100_dgx2_all_reduce"), ("link", "NVLink 2"))
    >>> label, kwargs["bandwidth_bytes_per_s"] / 1e9
    ('catalog: NVLink 2', 150.0)
    """
    from .. import catalog, collectives
    from .fit import base_cluster

    if not isinstance(run, NcclTestsRun):
        raise TypeError(f"run must be an NcclTestsRun, got {type(run).__name__}")
    if not isinstance(reference, tuple) or len(reference) != 2 or reference[0] not in ("link", "cluster"):
        raise ValueError(f"reference must be ('link', name) or ('cluster', name), got {reference!r}")
    kind, name = reference
    algorithm = "direct" if run.collective in ("all_to_all", "send_recv") else "ring"
    if kind == "link":
        return f"catalog: {name}", {**collectives.link_parameters(catalog.link(name)), "algorithm": algorithm}
    cluster = base_cluster(name)
    up = collectives.link_parameters(catalog.link(cluster.scale_up_link))
    label = f"catalog: {cluster.name}"
    if run.n_nodes == 1 or run.collective not in ("all_reduce", "all_gather", "reduce_scatter"):
        return label, {**up, "algorithm": algorithm}
    return label, {**up, "algorithm": "hierarchical", "ranks_per_node": run.ranks_per_node,
                   "network_bandwidth_bytes_per_s": cluster.scale_out_bytes_per_s,
                   "network_latency_s": collectives.NETWORK_STEP_LATENCY_S,
                   "network_efficiency": collectives.NETWORK_EFFICIENCY}


def calibrate_nccl_tests(source, *, collective=None, n_ranks=None, system=None, gpu=None, nodes=None,
                         gpus_per_node=None, network=None, nics_per_node=None, sharp=False, cpu="intel",
                         placement="out_of_place", reference=None):
    """Parse, fit, calibrate and compare with the collective model in one call.

    Parameters
    ----------
    source : str
        A shipped log's name (a key of :data:`~interconnect_lab.calibrate.logs.SHIPPED_LOGS`)
        or the text nccl-tests printed.
    collective : str, optional
        For text that does not name its collective (see
        :func:`~interconnect_lab.calibrate.nccl_tests.parse_nccl_tests`); a shipped log's
        source names it.
    n_ranks : int, optional
        Ranks in the run, for text that does not list them all (a shipped log's
        source states them).
    system : CollectiveSystem, optional
        The machine the log ran on; a shipped log's own
        (:func:`~interconnect_lab.calibrate.logs.shipped_system`) if omitted. Or give
        it by catalog names:
    gpu, nodes, gpus_per_node, network, nics_per_node, sharp, cpu
        See :func:`~interconnect_lab.calibrate.comparison.run_system`; for text, ``gpu``
        (or ``system``) is required.
    placement : str
        ``"out_of_place"`` or ``"in_place"``.
    reference : tuple, optional
        Deprecated: the former comparison with a catalog link's α-β prediction,
        ``("link", name)`` or ``("cluster", name)``. Give the machine instead.

    Returns
    -------
    Calibration

    Raises
    ------
    ValueError
        From the parser (naming the line), the fit or the comparison; or if the
        machine of a text is not given.

    Examples
    --------
    >>> c = calibrate_nccl_tests("v100_dgx2_all_reduce")
    >>> round(c.link.bandwidth_bytes_per_s / 1e9), c.comparison.prediction_label
    (124, 'model: NVIDIA DGX-2')
    >>> across = calibrate_nccl_tests("b300_2x8_roce_alltoall")
    >>> across.fit.determines, across.link, across.comparison.algorithm
    ('bandwidth', None, ('p2p',))
    """
    if not isinstance(source, str):
        raise TypeError(f"source must be a shipped log's name or nccl-tests output, got {type(source).__name__}")
    names = {"gpu": gpu, "nodes": nodes, "gpus_per_node": gpus_per_node, "network": network,
             "nics_per_node": nics_per_node}
    if source in SHIPPED_LOGS:
        entry = shipped_log(source)
        if entry.tool != "nccl-tests":
            raise ValueError(f"shipped log {source!r} is {entry.tool} output, not nccl-tests")
        run = parse_nccl_tests(shipped_text(source), collective=collective or entry.program,
                               n_ranks=entry.n_ranks if n_ranks is None else n_ranks)
        if system is None and gpu is None and reference is None:
            system = shipped_system(source)
    else:
        run = parse_nccl_tests(source, collective=collective, n_ranks=n_ranks)
    fit = fit_collective(run, placement=placement)
    link = None if fit.latency_s is None else fit.link()
    if reference is not None:
        warnings.warn("calibrate_nccl_tests(reference=...) is deprecated and will be removed in the next release: "
                      "give the machine (system= or gpu=, network=, ...) to compare with the collective model",
                      DeprecationWarning, stacklevel=2)
        label, kwargs = _reference_parameters(run, reference)
        comparison = compare_bus_bandwidth_as_catalog(run, fit=fit, placement=placement, prediction_label=label, **kwargs)
        return Calibration(run=run, fit=fit, link=link, comparison=comparison, reference=reference)
    if system is None and gpu is None:
        raise ValueError("say what machine the log ran on, to compare it with the collective model: "
                         "system=collective_system(...) or gpu='H100 SXM', network='InfiniBand NDR' (and nodes=, "
                         "gpus_per_node= where the log does not list every rank)")
    comparison = compare_with_model(run, system, placement=placement, sharp=sharp, cpu=cpu, **names)
    return Calibration(run=run, fit=fit, link=link, comparison=comparison, system=comparison.system)


def __getattr__(name):
    # Names replaced in this release still answer, with a DeprecationWarning (see _deprecation.REPLACED_NAMES).
    return renamed_attribute(__name__, name)
