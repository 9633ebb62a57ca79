"""One call from a log to a fit, a calibrated link and a comparison with the book's model."""

from __future__ import annotations

from dataclasses import dataclass

from .fit import BusBandwidthComparison, CalibratedLink, CollectiveFit, compare_bus_bandwidth, fit_collective
from .logs import SHIPPED_LOGS, shipped_log, shipped_text
from .nccl_tests import NcclTestsRun, parse_nccl_tests

__all__ = ["REFERENCES", "COLLECTIVES_FOR_TEXT", "Calibration", "calibrate_nccl_tests", "reference_parameters"]

#: Collectives nccl-tests measures, as the library names them (for text that does not say).
COLLECTIVES_FOR_TEXT = ("all_reduce", "all_gather", "reduce_scatter", "all_to_all", "send_recv", "broadcast",
                        "reduce")

#: Catalog predictions a sweep can be compared with: label -> ("link", name) or ("cluster", name).
REFERENCES = {
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
    """A sweep, its fit, the link it implies and its comparison with a catalog prediction.

    Attributes
    ----------
    run : NcclTestsRun
        The parsed sweep.
    fit : CollectiveFit
        Piecewise α-β lines.
    link : CalibratedLink
        What the models take in place of a catalog link.
    comparison : BusBandwidthComparison
        Measured against the catalog prediction.
    reference : tuple
        The prediction: ``("link", name)`` or ``("cluster", name)``.
    """

    run: NcclTestsRun
    fit: CollectiveFit
    link: CalibratedLink
    comparison: BusBandwidthComparison
    reference: tuple


def reference_parameters(run, reference):
    """The book's catalog prediction for ``run``: (label, keywords for ``compare_bus_bandwidth``).

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
    >>> label, kwargs = reference_parameters(shipped_run("v100_dgx2_all_reduce"), ("link", "NVLink 2"))
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


def calibrate_nccl_tests(source, *, collective=None, reference=None, placement="out_of_place"):
    """Parse, fit, calibrate and compare in one call.

    Parameters
    ----------
    source : str
        A shipped log's name (a key of :data:`~interconnect_lab.calibrate.logs.SHIPPED_LOGS`)
        or the text nccl-tests printed.
    collective : str, optional
        For text that does not name its collective (see
        :func:`~interconnect_lab.calibrate.nccl_tests.parse_nccl_tests`); a shipped log's
        source names it.
    reference : tuple, optional
        The catalog prediction to compare with (see :func:`reference_parameters`,
        :data:`REFERENCES`); a shipped log's own if omitted, required for text.
    placement : str
        ``"out_of_place"`` or ``"in_place"``.

    Returns
    -------
    Calibration

    Raises
    ------
    ValueError
        From the parser (naming the line), or if no reference is given for text.

    Examples
    --------
    >>> c = calibrate_nccl_tests("v100_dgx2_all_reduce")
    >>> round(c.link.bandwidth_bytes_per_s / 1e9), c.comparison.prediction_label
    (124, 'catalog: NVLink 2')
    """
    if not isinstance(source, str):
        raise TypeError(f"source must be a shipped log's name or nccl-tests output, got {type(source).__name__}")
    if source in SHIPPED_LOGS:
        entry = shipped_log(source)
        if entry.tool != "nccl-tests":
            raise ValueError(f"shipped log {source!r} is {entry.tool} output, not nccl-tests")
        run = parse_nccl_tests(shipped_text(source), collective=collective or entry.program)
        reference = reference or entry.reference
    else:
        run = parse_nccl_tests(source, collective=collective)
    if not reference:
        raise ValueError("choose the catalog prediction to compare with: reference=('link', 'NVLink 4') "
                         "or ('cluster', 'HGX H100'); see calibrate.REFERENCES")
    fit = fit_collective(run, placement=placement)
    label, kwargs = reference_parameters(run, reference)
    comparison = compare_bus_bandwidth(run, fit=fit, placement=placement, prediction_label=label, **kwargs)
    return Calibration(run=run, fit=fit, link=fit.link(), comparison=comparison, reference=reference)
