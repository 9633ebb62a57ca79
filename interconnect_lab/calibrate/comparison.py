"""A measured nccl-tests sweep against the collective model, row by row.

:func:`compare_with_model` asks
:func:`~interconnect_lab.collectives.nccl_collective` what NCCL would run
for the log's collective at each printed size on the machine the log ran on
(a :class:`~interconnect_lab.collectives.system.CollectiveSystem`: GPUs,
NVLink domains and GPUs in each, network ports and their rate), and sets the
measured bus bandwidth beside the predicted one, with the algorithm and
protocol the model expects and the error. All-to-all and send/recv are
priced as NCCL runs them, point-to-point pairs through NVLink inside a domain
and through the ports across domains, so a cross-node ``alltoall_perf`` log
is compared with the network, not with NVLink.

The error is ``predicted busbw / measured busbw - 1``, as chapter 7's
reproduction table states it
(:mod:`interconnect_lab.collectives.reproduction`): positive where the model
is too fast. The measured busbw is recomputed from the printed size and time,
``f(n) S / t`` with nccl-tests' factor ``f`` for the run's ``n`` ranks, so it
keeps the time's precision (the printed busbw has two decimals).

References
----------
NVIDIA, nccl-tests ``doc/PERFORMANCE.md`` (algbw, busbw) and NCCL
``src/graph/tuning.cc`` (the model's algorithms and protocols).
https://github.com/NVIDIA/nccl-tests
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass

import numpy as np

from .. import units as u
from .._validation import check_number
from ..collectives.algorithms import bus_bandwidth_factor
from ..collectives.nccl import nccl_collective
from ..collectives.reproduction import BANDS
from ..collectives.system import CollectiveSystem, collective_system
from .nccl_tests import NcclTestsRun

__all__ = ["ModelComparison", "compare_with_model", "run_system"]


@dataclass(frozen=True)
class ModelComparison:
    """A measured sweep beside the collective model's prediction for the same machine, size by size.

    Attributes
    ----------
    label : str
        What was measured.
    collective : str
        The collective.
    system : CollectiveSystem
        The machine the model priced.
    placement : str
        ``"out_of_place"`` or ``"in_place"``: which measured times.
    size_bytes : numpy.ndarray
        Sizes (rows with S > 0) [B].
    measured_time_s, predicted_time_s : numpy.ndarray
        Time of one operation [s].
    measured_bus_bandwidth_bytes_per_s, predicted_bus_bandwidth_bytes_per_s : numpy.ndarray
        busbw [B/s].
    algorithm, protocol : tuple of str
        What the model says NCCL runs at each size.
    channels : numpy.ndarray
        Channels the model says NCCL runs at each size [-].
    """

    label: str
    collective: str
    system: CollectiveSystem
    placement: str
    size_bytes: np.ndarray
    measured_time_s: np.ndarray
    predicted_time_s: np.ndarray
    measured_bus_bandwidth_bytes_per_s: np.ndarray
    predicted_bus_bandwidth_bytes_per_s: np.ndarray
    algorithm: tuple
    protocol: tuple
    channels: np.ndarray

    @property
    def prediction_label(self) -> str:
        """What predicted it, for legends."""
        return f"model: {self.system.name or f'{self.system.nodes} x {self.system.gpus_per_node} GPUs'}"

    @property
    def error(self) -> np.ndarray:
        """``predicted / measured - 1`` per size [-]: positive where the model is too fast."""
        return self.predicted_bus_bandwidth_bytes_per_s / self.measured_bus_bandwidth_bytes_per_s - 1.0

    @property
    def ratio(self) -> np.ndarray:
        """``measured / predicted`` per size [-] (what the calibration figure draws)."""
        return self.measured_bus_bandwidth_bytes_per_s / self.predicted_bus_bandwidth_bytes_per_s

    @property
    def band(self) -> tuple:
        """Each size's band in chapter 7's reproduction table (``"small"``, ``"mid"``, ``"large"``),
        ``""`` between them (:data:`~interconnect_lab.collectives.reproduction.BANDS`)."""
        return tuple(next((name for name, (low, high), _ in BANDS if low <= s <= high), "")
                     for s in self.size_bytes)

    def disagreements(self, tolerance=0.10) -> tuple:
        """(size [B], error, algorithm, protocol) wherever ``|error| > tolerance``."""
        tolerance = check_number("tolerance", tolerance, minimum=0, scalar=True)
        return tuple((float(s), float(e), a, p) for s, e, a, p in
                     zip(self.size_bytes, self.error, self.algorithm, self.protocol) if abs(e) > tolerance)

    def worst_by_band(self) -> dict:
        """Band -> (size [B], error) of its largest ``|error|``, for the bands the sweep reaches."""
        worst = {}
        for size, error, band in zip(self.size_bytes, self.error, self.band):
            if band and (band not in worst or abs(error) > abs(worst[band][1])):
                worst[band] = (float(size), float(error))
        return {name: worst[name] for name, _, _ in BANDS if name in worst}

    def median_absolute_error(self) -> float:
        """Median of ``|error|`` over every size [-]."""
        return float(statistics.median(np.abs(self.error)))

    def table(self) -> str:
        """The comparison as a text table, one row per size."""
        lines = [f"{self.label}", f"against the {self.prediction_label}",
                 f"{'size':>10} {'measured':>10} {'model':>10} {'error':>7}  algorithm   protocol  channels",
                 f"{'':>10} {'busbw GB/s':>10} {'busbw GB/s':>10}"]
        for i, size in enumerate(self.size_bytes):
            lines.append(f"{u.format_bytes(float(size), binary=True):>10} "
                         f"{self.measured_bus_bandwidth_bytes_per_s[i] / u.GB_per_s:>10.2f} "
                         f"{self.predicted_bus_bandwidth_bytes_per_s[i] / u.GB_per_s:>10.2f} "
                         f"{self.error[i]:>+7.0%}  {self.algorithm[i]:<11} {self.protocol[i]:<9} {self.channels[i]:>8d}")
        return "\n".join(lines)


def run_system(run, *, gpu, nodes=None, gpus_per_node=None, network=None, nics_per_node=None, sharp=False,
               cpu="intel", name=""):
    """The machine a sweep ran on, from catalog names and what the log states [CollectiveSystem].

    Parameters
    ----------
    run : NcclTestsRun
        The sweep.
    gpu : str
        Catalog GPU name (``"H100 SXM"``...).
    nodes : int, optional
        NVLink domains the run spans: servers, or whole NVL72 racks. The log's
        hosts if omitted; give it for multi-node NVLink, where the trays of one
        rack are hosts of one domain.
    gpus_per_node : int, optional
        Ranks in each domain; the log's ranks per host if omitted.
    network : str, optional
        Catalog link of one network port (``"InfiniBand NDR"``, ``"Ethernet 400G"``);
        the default of :func:`~interconnect_lab.collectives.collective_system` if omitted.
    nics_per_node : int, optional
        Ports per domain; one per GPU if omitted.
    sharp : bool
        The network switches reduce (SHARP).
    cpu : str
        Host CPU vendor (``"intel"``, ``"amd"``, ``"arm"``).
    name : str
        Label; the run's description if empty.

    Returns
    -------
    CollectiveSystem

    Raises
    ------
    ValueError
        If ``nodes`` or ``gpus_per_node`` is omitted where the log does not list
        every rank, or the machine's ranks differ from the run's.

    Examples
    --------
    >>> from interconnect_lab.calibrate import shipped_run
    >>> s = run_system(shipped_run("a100_2x8_ib_alltoall"), gpu="A100 SXM 40GB", network="InfiniBand HDR")
    >>> s.nodes, s.gpus_per_node, s.nics_per_node, s.nic_bytes_per_s / 1e9
    (2, 8, 8, 25.0)
    """
    if not isinstance(run, NcclTestsRun):
        raise TypeError(f"run must be an NcclTestsRun (see parse_nccl_tests), got {type(run).__name__}")
    if nodes is None or gpus_per_node is None:
        if not run.rank_lines_complete:
            raise ValueError("the log does not list every rank, so its nodes are not known: give nodes= and "
                             "gpus_per_node= (NVLink domains, and ranks in each)")
        nodes = run.n_nodes if nodes is None else nodes
        gpus_per_node = run.ranks_per_node if gpus_per_node is None else gpus_per_node
    options = {} if network is None else {"network": network}
    system = collective_system(gpu, nodes=nodes, gpus_per_node=gpus_per_node, nics_per_node=nics_per_node,
                               sharp=sharp, cpu=cpu, name=name or f"{nodes} x {gpus_per_node} {gpu}", **options)
    _check_ranks(run, system)
    return system


def _check_ranks(run, system):
    if run.n_ranks is not None and run.n_ranks != system.ranks:
        raise ValueError(f"the machine has {system.nodes} x {system.gpus_per_node} = {system.ranks} ranks but the "
                         f"run has {run.n_ranks} (from its {run.rank_count_source}): give the nodes and GPUs per "
                         "node the run used")


def compare_with_model(run, system=None, *, gpu=None, nodes=None, gpus_per_node=None, network=None,
                       nics_per_node=None, sharp=False, cpu="intel", algorithm=None, protocol=None,
                       placement="out_of_place", label=None):
    """Set a measured nccl-tests sweep against the collective model for the same collective and machine.

    For every printed size ``S > 0`` the model
    (:func:`~interconnect_lab.collectives.nccl_collective`) says which
    algorithm and protocol NCCL runs on ``system`` and how long it takes; the
    comparison holds both bus bandwidths and the error

    .. math::

        e(S) = \\frac{\\text{busbw}_\\text{model}(S)}{f(n)\\,S / t_\\text{measured}(S)} - 1

    Parameters
    ----------
    run : NcclTestsRun
        The measurement (:func:`~interconnect_lab.calibrate.nccl_tests.parse_nccl_tests`).
    system : CollectiveSystem, optional
        The machine. Or give it by catalog names instead:
    gpu, nodes, gpus_per_node, network, nics_per_node, sharp, cpu
        See :func:`run_system`; ``gpu`` is required when ``system`` is omitted.
    algorithm, protocol : str or sequence of str, optional
        Restrict the model as ``NCCL_ALGO`` and ``NCCL_PROTO`` restricted the run.
    placement : str
        ``"out_of_place"`` (the default) or ``"in_place"``.
    label : str, optional
        What was measured; the run's description if omitted.

    Returns
    -------
    ModelComparison

    Raises
    ------
    TypeError
        If ``run`` is not an :class:`NcclTestsRun`, ``system`` not a CollectiveSystem,
        or both ``system`` and catalog names are given.
    ValueError
        If the machine's ranks differ from the run's, the run's rank count is
        needed and unknown, its arrays are damaged, or the model refuses an
        algorithm or protocol on this machine (the message says why).

    Examples
    --------
    An all-to-all across two B300 nodes over RoCE, 16 ranks, one printed size:

    >>> from interconnect_lab.calibrate import shipped_run, shipped_system
    >>> c = compare_with_model(shipped_run("b300_2x8_roce_alltoall"), shipped_system("b300_2x8_roce_alltoall"))
    >>> c.algorithm[0], round(float(c.measured_bus_bandwidth_bytes_per_s[0]) / 1e9), round(float(c.error[0]), 2)
    ('p2p', 181, -0.01)

    By catalog names, for a log that lists its ranks:

    >>> c = compare_with_model(shipped_run("a100_2x8_ib_alltoall"), gpu="A100 SXM 40GB", network="InfiniBand HDR",
    ...                        cpu="amd")
    >>> c.worst_by_band()["large"][0] / 2**30, round(c.worst_by_band()["large"][1], 2)
    (0.5, 0.14)
    """
    if not isinstance(run, NcclTestsRun):
        raise TypeError(f"run must be an NcclTestsRun (see parse_nccl_tests), got {type(run).__name__}")
    names = {"gpu": gpu, "nodes": nodes, "gpus_per_node": gpus_per_node, "network": network,
             "nics_per_node": nics_per_node}
    if system is not None:
        given = [key for key, value in names.items() if value is not None]
        given += [key for key, value, default in (("sharp", sharp, False), ("cpu", cpu, "intel")) if value != default]
        if given:
            raise TypeError(f"give the machine as system= or by catalog names, not both (got system and "
                            f"{', '.join(given)})")
        if not isinstance(system, CollectiveSystem):
            raise TypeError(f"system must be a CollectiveSystem (see collectives.system.collective_system), "
                            f"got {type(system).__name__}")
        _check_ranks(run, system)
    elif gpu is None:
        raise TypeError("say what machine the log ran on: system=collective_system(...) or gpu='H100 SXM', "
                        "network='InfiniBand NDR' (and nodes=, gpus_per_node= where the log does not list every rank)")
    else:
        system = run_system(run, sharp=sharp, cpu=cpu, **names)
    if system.ranks == 1:
        raise ValueError("a run on one rank moves nothing between GPUs (nccl-tests prints busbw 0): there is no "
                         "bandwidth to compare")
    size, time = run.sweep(placement)
    factor = bus_bandwidth_factor(run.collective, run.n_ranks or system.ranks)
    predicted = nccl_collective(run.collective, size, system, algorithm=algorithm, protocol=protocol)
    return ModelComparison(
        label=label or run.describe(), collective=run.collective, system=system, placement=placement,
        size_bytes=size, measured_time_s=time, predicted_time_s=np.asarray(predicted.time_s, dtype=float),
        measured_bus_bandwidth_bytes_per_s=factor * size / time,
        predicted_bus_bandwidth_bytes_per_s=np.asarray(predicted.bus_bandwidth_bytes_per_s, dtype=float),
        algorithm=tuple(str(a) for a in predicted.algorithm), protocol=tuple(str(p) for p in predicted.protocol),
        channels=np.asarray(predicted.channels, dtype=int))
