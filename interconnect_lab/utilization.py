"""Step time and FLOP utilization: why the network decides MFU.

A training step spends ``compute_s`` computing and ``communication_s`` moving
data. Part of the communication runs while the GPU computes (it *overlaps*);
the rest is *exposed* and the GPU waits:

.. math::

    t_\\text{hidden} = \\min(f\\, t_\\text{comm},\\ t_\\text{compute}), \\qquad
    t_\\text{step} = t_\\text{compute} + t_\\text{comm} - t_\\text{hidden}

where :math:`f \\in [0, 1]` is the overlap fraction: the share of the
communication that the schedule *could* run under compute. Hiding is limited by
the compute there is to hide behind.

Model FLOPs utilization (MFU) is the FLOP/s a step achieves, counting only the
FLOPs the model needs, divided by the peak FLOP/s of the hardware; hardware
FLOPs utilization (HFU) counts every FLOP executed, including activation
recomputation, so HFU >= MFU (Chowdhery et al. 2022, Appendix B).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ._validation import as_output, check_number

__all__ = [
    "StepTime",
    "step_time",
    "compute_time",
    "model_flops_utilization",
    "hardware_flops_utilization",
    "ablation_gains",
]



@dataclass(frozen=True)
class StepTime:
    """Where the time of one training step goes (all times [s]).

    Build it with :func:`step_time`; the attributes may be floats or arrays that
    broadcast together.

    Attributes
    ----------
    compute_s : float or numpy.ndarray
        Time the GPU spends computing [s].
    communication_s : float or numpy.ndarray
        Time the step's communication takes when it runs alone [s].
    overlap_fraction : float or numpy.ndarray
        Share of the communication the schedule can run under compute [-].
    hidden_communication_s : float or numpy.ndarray
        Communication that runs while the GPU computes [s].
    exposed_communication_s : float or numpy.ndarray
        Communication the GPU waits for [s].
    step_s : float or numpy.ndarray
        Length of the step [s].
    """

    compute_s: float | np.ndarray
    communication_s: float | np.ndarray
    overlap_fraction: float | np.ndarray
    hidden_communication_s: float | np.ndarray
    exposed_communication_s: float | np.ndarray
    step_s: float | np.ndarray

    @property
    def busy_fraction(self):
        """Share of the step during which the GPU computes [-]."""
        return as_output(np.divide(self.compute_s, self.step_s))

    @property
    def waiting_fraction(self):
        """Share of the step during which the GPU waits for data [-]."""
        return as_output(np.divide(self.exposed_communication_s, self.step_s))

    def mfu(self, compute_efficiency=1.0):
        """MFU of this step if the compute phase runs at ``compute_efficiency`` of peak.

        .. math:: \\text{MFU} = \\eta \\, t_\\text{compute} / t_\\text{step}

        Parameters
        ----------
        compute_efficiency : float or array_like
            Share of peak FLOP/s reached while computing, :math:`\\eta \\in (0, 1]` [-].

        Returns
        -------
        float or numpy.ndarray
            Model FLOPs utilization [-].
        """
        efficiency = check_number("compute_efficiency", compute_efficiency,
                                  minimum=0, maximum=1, min_inclusive=False)
        return as_output(efficiency * np.divide(self.compute_s, self.step_s))


def step_time(compute_s, communication_s, overlap_fraction=0.0):
    """Length of a training step and how its communication splits into hidden and exposed.

    .. math::

        t_\\text{hidden} = \\min(f\\, t_\\text{comm},\\ t_\\text{compute}), \\qquad
        t_\\text{step} = t_\\text{compute} + t_\\text{comm} - t_\\text{hidden}

    Parameters
    ----------
    compute_s : float or array_like
        Time the GPU spends computing in one step [s], > 0.
    communication_s : float or array_like
        Time the step's communication takes on its own [s], >= 0.
    overlap_fraction : float or array_like
        Share of the communication the schedule can run under compute,
        :math:`f \\in [0, 1]` [-]. 0 runs compute and communication one after the
        other; 1 overlaps all of it, as far as there is compute to hide behind.

    Returns
    -------
    StepTime
        The breakdown; arrays broadcast together.

    Raises
    ------
    ValueError
        If a time is negative (or compute is zero) or the overlap lies outside [0, 1].

    Examples
    --------
    The seed article's GPU that waits 40% of the time:

    >>> step = step_time(compute_s=0.6, communication_s=0.4, overlap_fraction=0.0)
    >>> round(step.step_s, 9), round(step.busy_fraction, 9)
    (1.0, 0.6)

    Overlapping three quarters of the communication:

    >>> round(step_time(0.6, 0.4, 0.75).step_s, 9)
    0.7
    """
    compute = check_number("compute_s", compute_s, unit="s", minimum=0, min_inclusive=False, maximum=1e15)
    communication = check_number("communication_s", communication_s, unit="s", minimum=0, maximum=1e15)
    overlap = check_number("overlap_fraction", overlap_fraction, minimum=0, maximum=1)
    if any(np.ndim(x) for x in (compute, communication, overlap)):
        compute, communication, overlap = (
            np.array(a) for a in np.broadcast_arrays(compute, communication, overlap))
    hidden = np.minimum(overlap * communication, compute)
    exposed = communication - hidden
    return StepTime(
        compute_s=as_output(compute),
        communication_s=as_output(communication),
        overlap_fraction=as_output(overlap),
        hidden_communication_s=as_output(hidden),
        exposed_communication_s=as_output(exposed),
        step_s=as_output(compute + exposed),
    )


def compute_time(model_flops, peak_flop_per_s, compute_efficiency=1.0):
    """Time to execute ``model_flops`` at ``compute_efficiency`` of a GPU's peak.

    .. math:: t_\\text{compute} = F / (\\eta\\, R_\\text{peak})

    Parameters
    ----------
    model_flops : float or array_like
        FLOPs to execute [FLOP], > 0.
    peak_flop_per_s : float or array_like
        Peak rate of the GPU [FLOP/s], > 0.
    compute_efficiency : float or array_like
        Share of peak reached while computing, :math:`\\eta \\in (0, 1]` [-].

    Returns
    -------
    float or numpy.ndarray
        Compute time [s].

    Examples
    --------
    >>> compute_time(989.4e12, 989.4e12)
    1.0
    """
    flops = check_number("model_flops", model_flops, unit="FLOP", minimum=0, min_inclusive=False, maximum=1e30)
    peak = check_number("peak_flop_per_s", peak_flop_per_s, unit="FLOP/s", minimum=1, maximum=1e21)
    efficiency = check_number("compute_efficiency", compute_efficiency, minimum=1e-3, maximum=1)
    return as_output(flops / (efficiency * peak))


def _utilization(flops_name, flops, time_s, peak_flop_per_s, n_gpus):
    flops = check_number(flops_name, flops, unit="FLOP", minimum=0, maximum=1e30)
    time_s = check_number("time_s", time_s, unit="s", minimum=1e-12, maximum=1e12)
    peak = check_number("peak_flop_per_s", peak_flop_per_s, unit="FLOP/s", minimum=1, maximum=1e21)
    n_gpus = check_number("n_gpus", n_gpus, minimum=1, maximum=2.0 ** 53)
    return as_output(flops / (time_s * peak * n_gpus))


def model_flops_utilization(model_flops, time_s, peak_flop_per_s, n_gpus=1):
    """Model FLOPs utilization: the FLOPs the model needs per second, over peak.

    .. math:: \\text{MFU} = \\frac{F_\\text{model}}{t \\cdot N \\cdot R_\\text{peak}}

    ``model_flops`` counts the forward and backward passes only (about 6 FLOPs per
    parameter per token plus attention), never recomputation, so MFU compares
    systems fairly whatever they recompute.

    Parameters
    ----------
    model_flops : float or array_like
        FLOPs the model needs in ``time_s`` across all ``n_gpus`` [FLOP].
    time_s : float or array_like
        Wall-clock time [s].
    peak_flop_per_s : float or array_like
        Peak rate of one GPU at the precision used [FLOP/s].
    n_gpus : int or array_like
        Number of GPUs [-].

    Returns
    -------
    float or numpy.ndarray
        MFU [-].

    References
    ----------
    A. Chowdhery et al., "PaLM: Scaling Language Modeling with Pathways",
    arXiv:2204.02311 (2022), Appendix B.

    Examples
    --------
    1.077e12 FLOP per token at 49.0k tokens/s on 256 A100s (312 TFLOP/s):

    >>> round(model_flops_utilization(1.077e12 * 49.0e3, 1.0, 312e12, 256), 3)
    0.661
    """
    return _utilization("model_flops", model_flops, time_s, peak_flop_per_s, n_gpus)


def hardware_flops_utilization(hardware_flops, time_s, peak_flop_per_s, n_gpus=1):
    """Hardware FLOPs utilization: every FLOP executed per second, over peak.

    .. math:: \\text{HFU} = \\frac{F_\\text{executed}}{t \\cdot N \\cdot R_\\text{peak}}

    ``hardware_flops`` includes activation recomputation (an extra forward pass
    with full recompute), so HFU >= MFU; Megatron-LM's "TFLOP/s per GPU" is an
    HFU-style figure.

    Parameters
    ----------
    hardware_flops : float or array_like
        FLOPs executed in ``time_s`` across all ``n_gpus`` [FLOP].
    time_s : float or array_like
        Wall-clock time [s].
    peak_flop_per_s : float or array_like
        Peak rate of one GPU at the precision used [FLOP/s].
    n_gpus : int or array_like
        Number of GPUs [-].

    Returns
    -------
    float or numpy.ndarray
        HFU [-].

    References
    ----------
    A. Chowdhery et al., "PaLM: Scaling Language Modeling with Pathways",
    arXiv:2204.02311 (2022), Appendix B.
    """
    return _utilization("hardware_flops", hardware_flops, time_s, peak_flop_per_s, n_gpus)


def ablation_gains(steps):
    """MFU gained by each kind of optimization in an ablation study.

    Each row's gain is its MFU minus the MFU of the row above; gains are summed
    by the rows' ``category``.

    Parameters
    ----------
    steps : sequence of AblationStep
        Rows in the order the study adds them, starting with the baseline.

    Returns
    -------
    dict of str to float
        MFU points [-] gained per category, in order of first appearance,
        excluding the baseline.

    Examples
    --------
    >>> from interconnect_lab.published import MEGASCALE_ABLATION
    >>> gains = ablation_gains(MEGASCALE_ABLATION)
    >>> round(gains["communication"], 3)
    0.062
    """
    steps = tuple(steps)
    if len(steps) < 2:
        raise ValueError(f"steps must hold a baseline and at least one optimization, got {len(steps)} row(s)")
    gains: dict[str, float] = {}
    for before, after in zip(steps, steps[1:]):
        gains[after.category] = gains.get(after.category, 0.0) + (after.mfu - before.mfu)
    return gains
