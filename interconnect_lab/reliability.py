r"""Failures and checkpoints: how often a large job stops, and how often it should save.

A synchronous training job stops when any one of its parts fails. If each of
:math:`N` GPUs (with its share of hosts, NICs, switches and software) fails
independently at a constant rate, the job's failures form a Poisson process
with mean time between failures

.. math:: M = \frac{m}{N},

where :math:`m` is the mean time between failures of one GPU's share of the
machine. A job that saves a checkpoint every :math:`\tau` seconds of work,
spends :math:`\delta` seconds writing it and :math:`R` seconds restarting
after a failure loses, per failure, the restart and the work done since the
last checkpoint. With failures that can strike during work, checkpoints and
restarts alike, Daly's complete model gives the wall-clock time of a segment
of work :math:`\tau` as :math:`M e^{R/M}(e^{(\tau+\delta)/M} - 1)`, so the
share of wall-clock time spent on useful work is

.. math::

    \eta(\tau) = \frac{\tau}{M\, e^{R/M}\,\big(e^{(\tau + \delta)/M} - 1\big)}
    \approx \frac{\tau}{\tau + \delta}\left(1 - \frac{\tau + \delta}{2M} - \frac{R}{M}\right)
    \quad (\tau, \delta, R \ll M):

the time spent writing checkpoints, half a segment of work redone per failure
on average, and the restarts. Saving often wastes time writing; saving rarely
wastes work redone. The interval that balances them is, to first order
(Young 1974),

.. math:: \tau_\text{Young} = \sqrt{2 \delta M},

and to higher order (Daly 2006, Eq. 37), for :math:`\delta < 2M`,

.. math::

    \tau_\text{Daly} = \sqrt{2\delta M}\left[1 + \tfrac13\sqrt{\tfrac{\delta}{2M}}
    + \tfrac19\,\tfrac{\delta}{2M}\right] - \delta ,

and :math:`\tau = M` otherwise. The restart time does not change the best
interval (it multiplies every segment by the same :math:`e^{R/M}`), but it
does lower :math:`\eta`.

The model assumes exponential (memoryless) failure times, a whole-job restart
after every failure and a fixed checkpoint and restart cost. Real jobs differ:
some failures only slow a job down, some are handled without a restart, and
failure rates are not constant over a machine's life. Read the result as the
cost of synchronous training with global checkpoint and restart.

References
----------
J. W. Young, "A first order approximation to the optimum checkpoint
interval", Communications of the ACM 17(9), 530-531, 1974.
https://doi.org/10.1145/361147.361115

J. T. Daly, "A higher order estimate of the optimum checkpoint interval for
restart dumps", Future Generation Computer Systems 22(3), 303-312, 2006.
https://doi.org/10.1016/j.future.2004.11.016
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType

import numpy as np

from . import units as u
from ._validation import check_choice, check_number

#: Longest time the failure models accept [s]: thirty million years.
MAX_TIME_S = 1e15

__all__ = [
    "CHECKPOINT_INTERVALS", "system_mtbf", "young_interval", "daly_interval", "optimal_checkpoint_interval",
    "effective_training_fraction", "CheckpointPlan", "checkpoint_plan",
]


def _output(value):
    return float(value) if np.ndim(value) == 0 else value


def system_mtbf(components, component_mtbf_s):
    """Mean time between failures of a job that stops when any of its parts fails [s].

    .. math:: M = m / N

    Parameters
    ----------
    components : float or array_like
        Independent parts :math:`N` (GPUs, each with its share of the rest) [-], >= 1.
    component_mtbf_s : float or array_like
        Mean time between failures of one part, :math:`m` [s], in (0, 1e15].

    Returns
    -------
    float or numpy.ndarray
        :math:`M` [s].

    Examples
    --------
    A GPU (with its share of the machine) that fails once in five years, in a
    job of 16,384 GPUs: a failure every 2.7 hours.

    >>> from interconnect_lab import units as u
    >>> round(system_mtbf(16_384, 5 * 365 * u.day) / u.hour, 2)
    2.67
    """
    components = check_number("components", components, minimum=1, maximum=2.0 ** 53)
    component_mtbf_s = _time("component_mtbf_s", component_mtbf_s)
    with np.errstate(under="ignore"):
        return _output(check_number("the job's MTBF", component_mtbf_s / components, unit="s",
                                    minimum=0, min_inclusive=False))


def _time(name, value, *, zero=False, scalar=False):
    """A time in (0, :data:`MAX_TIME_S`] [s], or [0, ...] where ``zero``."""
    return check_number(name, value, unit="s", minimum=0, min_inclusive=zero, maximum=MAX_TIME_S,
                        scalar=scalar)


def _interval_inputs(checkpoint_s, mtbf_s):
    checkpoint_s = _time("checkpoint_s", checkpoint_s)
    mtbf_s = _time("mtbf_s", mtbf_s)
    return np.broadcast_arrays(np.asarray(checkpoint_s, dtype=float), np.asarray(mtbf_s, dtype=float))


def young_interval(checkpoint_s, mtbf_s):
    """Young's first-order optimal checkpoint interval, :math:`\\sqrt{2\\delta M}` [s].

    Parameters
    ----------
    checkpoint_s : float or array_like
        Time to write one checkpoint, :math:`\\delta` [s], in (0, 1e15].
    mtbf_s : float or array_like
        Mean time between failures of the job, :math:`M` [s], in (0, 1e15].

    Returns
    -------
    float or numpy.ndarray
        Work between checkpoints [s].

    References
    ----------
    J. W. Young, Communications of the ACM 17(9), 1974.
    https://doi.org/10.1145/361147.361115

    Examples
    --------
    >>> young_interval(5 * 60, 24 * 3600) / 60
    120.0
    """
    checkpoint_s, mtbf_s = _interval_inputs(checkpoint_s, mtbf_s)
    return _output(np.sqrt(2 * checkpoint_s) * np.sqrt(mtbf_s))


def daly_interval(checkpoint_s, mtbf_s):
    """Daly's higher-order optimal checkpoint interval (2006, Eq. 37) [s].

    .. math::

        \\tau = \\sqrt{2\\delta M}\\left[1 + \\tfrac13\\sqrt{\\tfrac{\\delta}{2M}}
        + \\tfrac19\\,\\tfrac{\\delta}{2M}\\right] - \\delta \\quad (\\delta < 2M),
        \\qquad \\tau = M \\quad (\\delta \\ge 2M)

    Parameters
    ----------
    checkpoint_s : float or array_like
        Time to write one checkpoint, :math:`\\delta` [s], in (0, 1e15].
    mtbf_s : float or array_like
        Mean time between failures of the job, :math:`M` [s], in (0, 1e15].

    Returns
    -------
    float or numpy.ndarray
        Work between checkpoints [s].

    References
    ----------
    J. T. Daly, Future Generation Computer Systems 22(3), 2006, Eq. (37) and
    Figs. 3-5. https://doi.org/10.1016/j.future.2004.11.016

    Examples
    --------
    Daly's Fig. 3: M = 24 h, 5 minutes per checkpoint; the paper predicts 117 minutes.

    >>> round(daly_interval(5 * 60, 24 * 3600) / 60)
    117
    """
    checkpoint_s, mtbf_s = _interval_inputs(checkpoint_s, mtbf_s)
    # With x = sqrt(delta / 2M) the series is sqrt(2 delta M) (1 - x/3)^2: the same
    # polynomial, written so that rounding cannot make it negative.
    with np.errstate(over="ignore"):
        x = np.sqrt(checkpoint_s / (2 * mtbf_s))
    series = np.sqrt(2 * checkpoint_s) * np.sqrt(mtbf_s) * (1 - np.minimum(x, 1) / 3) ** 2
    return _output(np.where(checkpoint_s < 2 * mtbf_s, series, mtbf_s))


#: Optimal-interval models by name: (function, description).
CHECKPOINT_INTERVALS = MappingProxyType({
    "young": (young_interval, "Young 1974: first order, sqrt(2 delta M)"),
    "daly": (daly_interval, "Daly 2006, Eq. 37: higher order, valid up to delta = 2M"),
})


def optimal_checkpoint_interval(checkpoint_s, mtbf_s, *, model="daly"):
    """Work between checkpoints that maximizes useful time, by the named model [s].

    Parameters
    ----------
    checkpoint_s : float or array_like
        Time to write one checkpoint [s], in (0, 1e15].
    mtbf_s : float or array_like
        Mean time between failures of the job [s], in (0, 1e15].
    model : str
        A name in :data:`CHECKPOINT_INTERVALS`: ``"young"`` or ``"daly"``.

    Returns
    -------
    float or numpy.ndarray
        Interval [s].

    Examples
    --------
    >>> round(optimal_checkpoint_interval(60, 3 * 3600, model="young"))
    1138
    """
    check_choice("checkpoint interval model", model, CHECKPOINT_INTERVALS)
    return CHECKPOINT_INTERVALS[model][0](checkpoint_s, mtbf_s)


def effective_training_fraction(interval_s, checkpoint_s, mtbf_s, *, restart_s=0.0):
    """Share of wall-clock time spent on useful work, with checkpoints and restarts (Daly's model).

    .. math::

        \\eta = \\frac{\\tau}{M\\, e^{R/M}\\,\\big(e^{(\\tau + \\delta)/M} - 1\\big)}

    Parameters
    ----------
    interval_s : float or array_like
        Work between checkpoints, :math:`\\tau` [s], in (0, 1e15].
    checkpoint_s : float or array_like
        Time to write one checkpoint, :math:`\\delta` [s], in [0, 1e15].
    mtbf_s : float or array_like
        Mean time between failures of the job, :math:`M` [s], in (0, 1e15].
    restart_s : float or array_like
        Time from a failure to work resuming (detect, replace, reload), :math:`R` [s], in [0, 1e15].

    Returns
    -------
    float or numpy.ndarray
        :math:`\\eta` in (0, 1] [-]; the run takes :math:`1/\\eta` times its failure-free length.

    Notes
    -----
    Failures arrive as a Poisson process and may strike during work, while a
    checkpoint is written and during a restart; after each, the job rolls back
    to its last complete checkpoint. Without failures (:math:`M \\to \\infty`)
    :math:`\\eta \\to \\tau/(\\tau + \\delta)`.

    References
    ----------
    J. T. Daly, Future Generation Computer Systems 22(3), 2006, §3 (the
    complete cost function). https://doi.org/10.1016/j.future.2004.11.016

    Examples
    --------
    A failure every 3 hours, a 1-minute checkpoint every 20 minutes and 10 minutes to restart:

    >>> round(effective_training_fraction(20 * 60, 60, 3 * 3600, restart_s=10 * 60), 3)
    0.849
    """
    interval_s = _time("interval_s", interval_s)
    checkpoint_s = _time("checkpoint_s", checkpoint_s, zero=True)
    mtbf_s = _time("mtbf_s", mtbf_s)
    restart_s = _time("restart_s", restart_s, zero=True)
    # tau / (M e^{R/M} (e^y - 1)) with y = (tau + delta)/M, as a product of factors in
    # [0, 1] so that no step overflows: tau/(tau + delta) * y/(e^y - 1) * e^{-R/M}.
    with np.errstate(over="ignore", under="ignore", invalid="ignore"):
        y = (interval_s + checkpoint_s) / mtbf_s
        grown = np.expm1(y)
        lost_to_failures = np.where(y == 0, 1.0, np.where(np.isfinite(grown), y / grown, 0.0))
        eta = interval_s / (interval_s + checkpoint_s) * lost_to_failures * np.exp(-restart_s / mtbf_s)
    return _output(np.asarray(eta, dtype=float))


@dataclass(frozen=True)
class CheckpointPlan:
    """A job's failure rate, its best checkpoint interval and the share of time it trains.

    Attributes
    ----------
    gpus : numpy.ndarray
        Job sizes :math:`N` [-].
    gpu_mtbf_s : float
        Mean time between failures of one GPU's share of the machine, :math:`m` [s].
    checkpoint_s, restart_s : float
        Time to write a checkpoint and to restart after a failure [s].
    mtbf_s : numpy.ndarray
        The job's mean time between failures, :math:`M = m/N` [s].
    interval_s : numpy.ndarray
        Work between checkpoints chosen by ``model`` [s].
    effective_fraction : numpy.ndarray
        Share of wall-clock time spent on useful work, :math:`\\eta` [-].
    model : str
        The interval model's name in :data:`CHECKPOINT_INTERVALS`.
    """

    gpus: np.ndarray
    gpu_mtbf_s: float
    checkpoint_s: float
    restart_s: float
    mtbf_s: np.ndarray
    interval_s: np.ndarray
    effective_fraction: np.ndarray
    model: str

    @property
    def failures_per_day(self) -> np.ndarray:
        """Expected failures per day of wall-clock time [1/day]."""
        return u.day / self.mtbf_s

    @property
    def slowdown(self) -> np.ndarray:
        """Wall-clock time over failure-free time, :math:`1/\\eta` [-]."""
        return 1 / self.effective_fraction


def checkpoint_plan(gpus, gpu_mtbf_s, checkpoint_s, *, restart_s=0.0, model="daly"):
    """From job size to failures, checkpoint interval and effective training time.

    The chain :math:`N \\to M = m/N \\to \\tau(\\delta, M) \\to \\eta(\\tau, \\delta, M, R)`
    of :func:`system_mtbf`, :func:`optimal_checkpoint_interval` and
    :func:`effective_training_fraction`.

    Parameters
    ----------
    gpus : int or array_like
        Job sizes [-], >= 1.
    gpu_mtbf_s : float
        Mean time between failures of one GPU's share of the machine [s], in (0, 1e15].
    checkpoint_s : float
        Time to write one checkpoint [s], in (0, 1e15].
    restart_s : float
        Time from a failure to work resuming [s], in [0, 1e15].
    model : str
        A name in :data:`CHECKPOINT_INTERVALS`.

    Returns
    -------
    CheckpointPlan

    Raises
    ------
    ValueError
        For a value out of range, or a job that fails so often for its checkpoint
        time that it never makes progress (effective fraction below 1e-300).

    Examples
    --------
    >>> from interconnect_lab import units as u
    >>> plan = checkpoint_plan([1_000, 100_000], 5 * 365 * u.day, 60, restart_s=600)
    >>> (plan.mtbf_s / u.hour).round(2).tolist(), plan.effective_fraction.round(3).tolist()
    ([43.8, 0.44], [0.969, 0.512])
    """
    gpus = np.atleast_1d(check_number("gpus", gpus, minimum=1, maximum=2.0 ** 53))
    gpu_mtbf_s = _time("gpu_mtbf_s", gpu_mtbf_s, scalar=True)
    checkpoint_s = _time("checkpoint_s", checkpoint_s, scalar=True)
    restart_s = _time("restart_s", restart_s, zero=True, scalar=True)
    check_choice("checkpoint interval model", model, CHECKPOINT_INTERVALS)
    mtbf = np.atleast_1d(system_mtbf(gpus, gpu_mtbf_s))
    interval = np.atleast_1d(optimal_checkpoint_interval(checkpoint_s, mtbf, model=model))
    effective = np.atleast_1d(effective_training_fraction(interval, checkpoint_s, mtbf, restart_s=restart_s))
    if np.any(effective < 1e-300):  # its slowdown, 1 / effective, would overflow
        stuck = float(gpus[np.flatnonzero(effective < 1e-300)[0]])
        raise ValueError(
            f"gpus = {stuck:g} with gpu_mtbf_s = {gpu_mtbf_s:g} s, checkpoint_s = {checkpoint_s:g} s and "
            f"restart_s = {restart_s:g} s is not valid: the job fails hundreds of times per checkpoint "
            "and never makes progress (effective training fraction below 1e-300)")
    return CheckpointPlan(gpus=gpus, gpu_mtbf_s=float(gpu_mtbf_s), checkpoint_s=float(checkpoint_s),
                          restart_s=float(restart_s), mtbf_s=mtbf, interval_s=interval,
                          effective_fraction=effective, model=model)
