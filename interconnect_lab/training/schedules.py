"""Pipeline schedules: the bubble fraction and the 1F1B order, microbatch by microbatch."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._validation import NotPossible, check_integer, check_number


def pipeline_bubble_fraction(pipeline_parallel, microbatches, interleave=1):
    """Idle time of a pipeline flush relative to the ideal time, SC21 §2.2.

    .. math:: \\frac{t_\\text{bubble}}{t_\\text{ideal}} = \\frac{1}{v}\\,\\frac{p - 1}{m}

    Parameters
    ----------
    pipeline_parallel : int or array_like
        Stages p.
    microbatches : int or array_like
        Microbatches per iteration m.
    interleave : int or array_like
        Model chunks per stage v.

    Returns
    -------
    float or numpy.ndarray
        Bubble over ideal time [-].

    Examples
    --------
    >>> pipeline_bubble_fraction(8, 64), pipeline_bubble_fraction(8, 64, interleave=7)
    (0.109375, 0.015625)
    """
    p = check_number("pipeline_parallel", pipeline_parallel, minimum=1)
    m = check_number("microbatches", microbatches, minimum=1)
    v = check_number("interleave", interleave, minimum=1)
    result = (p - 1) / (v * m)
    return float(result) if np.ndim(result) == 0 else result


# ============================================================================
# The pipeline schedule, microbatch by microbatch
# ============================================================================

@dataclass(frozen=True)
class PipelineSchedule:
    """When each stage runs each forward and backward pass of a pipelined iteration.

    From :func:`pipeline_schedule`. One element per pass (a forward or backward
    pass of one microbatch through one model chunk on one stage); times are in
    units of one microbatch's *forward* pass through a whole stage (all its
    chunks), so a stage's ideal busy time is ``microbatches * (1 + backward_ratio)``.

    Attributes
    ----------
    pipeline_parallel, microbatches, interleave : int
        Stages p, microbatches m and model chunks per stage v.
    backward_ratio : float
        Duration of a backward pass over a forward pass [-].
    stage : numpy.ndarray of int
        Stage that runs the pass, 0 (first) to p - 1.
    backward : numpy.ndarray of bool
        True for a backward pass.
    microbatch : numpy.ndarray of int
        Microbatch, 0 to m - 1.
    chunk : numpy.ndarray of int
        Model chunk on its stage, 0 to v - 1 (virtual stage ``chunk * p + stage``).
    start, end : numpy.ndarray of float
        When the pass starts and ends [forward-pass units].
    """

    pipeline_parallel: int
    microbatches: int
    interleave: int
    backward_ratio: float
    stage: np.ndarray
    backward: np.ndarray
    microbatch: np.ndarray
    chunk: np.ndarray
    start: np.ndarray
    end: np.ndarray

    @property
    def makespan(self) -> float:
        """Time from the first pass to the last [forward-pass units]."""
        return float(self.end.max())

    @property
    def ideal(self) -> float:
        """A stage's busy time, ``m (1 + backward_ratio)`` [forward-pass units]."""
        return self.microbatches * (1 + self.backward_ratio)

    @property
    def bubble_fraction(self) -> float:
        """Idle time over ideal time, ``makespan / ideal - 1`` [-]: SC21's (p-1)/(vm)."""
        return self.makespan / self.ideal - 1


def _schedule_order(p, m, v, stage):
    """Megatron-LM's order of passes on one stage: warm-up forwards, one-forward-one-backward, cool-down."""
    total = m * v
    warmup = min(p - stage - 1 if v == 1 else 2 * (p - stage - 1) + (v - 1) * p, total)
    order = [(False, k) for k in range(warmup)]
    for k in range(total - warmup):
        order += [(False, warmup + k), (True, k)]
    order += [(True, k) for k in range(total - warmup, total)]
    return order


def pipeline_schedule(pipeline_parallel, microbatches, interleave=1, *, backward_ratio=2.0) -> PipelineSchedule:
    """Simulate the 1F1B pipeline schedule (interleaved when ``interleave > 1``) pass by pass.

    Each stage runs its passes in Megatron-LM's order (Narayanan et al. 2021,
    §2.2): ``p - s - 1`` warm-up forward passes on stage s (with v chunks,
    ``2(p - s - 1) + (v - 1)p``), then one forward and one backward in turn,
    then the remaining backward passes. With v chunks the k-th forward pass of
    a stage is chunk ``(k mod pv) // p`` of microbatch ``(k // pv) p + k mod p``
    (backward passes take the chunks in reverse). A forward pass waits for the
    same microbatch's forward pass on the previous virtual stage, a backward
    pass for its backward pass on the next one; communication takes no time.
    The result has the bubble SC21 derives,

    .. math:: \\frac{t_\\text{bubble}}{t_\\text{ideal}} = \\frac{1}{v}\\,\\frac{p-1}{m},

    which :func:`pipeline_bubble_fraction` gives in closed form; the schedule
    shows where the idle time falls.

    Parameters
    ----------
    pipeline_parallel : int
        Stages p, 1 to 64.
    microbatches : int
        Microbatches m per iteration, 1 to 512; with ``interleave > 1`` a
        multiple of p (Megatron-LM's requirement).
    interleave : int
        Model chunks per stage v, 1 to 16.
    backward_ratio : float
        Backward over forward duration [-]; 2 without recomputation.

    Returns
    -------
    PipelineSchedule

    References
    ----------
    D. Narayanan et al., SC21, §2.2, https://doi.org/10.1145/3458817.3476209.

    Examples
    --------
    >>> schedule = pipeline_schedule(4, 8)
    >>> schedule.bubble_fraction, pipeline_bubble_fraction(4, 8)
    (0.375, 0.375)
    >>> round(pipeline_schedule(4, 8, interleave=2).bubble_fraction, 6)
    0.1875
    """
    p = check_integer("pipeline_parallel", pipeline_parallel, minimum=1, maximum=64)
    m = check_integer("microbatches", microbatches, minimum=1, maximum=512)
    v = check_integer("interleave", interleave, minimum=1, maximum=16)
    ratio = check_number("backward_ratio", backward_ratio, minimum=0, min_inclusive=False, maximum=10, scalar=True)
    if v > 1 and m % p:
        raise NotPossible(f"microbatches = {m} must be a multiple of pipeline_parallel = {p} when "
                          f"interleave = {v} > 1 (Megatron-LM's interleaved schedule requires it)",
                          plain=f"With {v} model chunks per stage, the interleaved schedule needs a number of "
                                f"microbatches that is a multiple of the {p} pipeline stages; {m} is not.")
    rows = _run_schedule([_schedule_order(p, m, v, stage) for stage in range(p)], p, v, 1.0 / v, ratio / v)
    stage_, backward_, microbatch_, chunk_, start_, end_ = (np.array(column) for column in zip(*rows))
    return PipelineSchedule(pipeline_parallel=p, microbatches=m, interleave=v, backward_ratio=float(ratio),
                            stage=stage_.astype(int), backward=backward_.astype(bool),
                            microbatch=microbatch_.astype(int), chunk=chunk_.astype(int),
                            start=start_.astype(float), end=end_.astype(float))


def _run_schedule(orders, p, v, forward_s, backward_s):
    """Run each stage's passes in its order, each as soon as the pass it needs has ended.

    Returns one (stage, backward, microbatch, chunk, start, end) row per pass, in the order they run.
    """
    finished = {}                 # (backward, microbatch, virtual stage) -> end time
    position = [0] * p
    free = [0.0] * p
    rows = []
    remaining = sum(map(len, orders))
    while remaining:
        progressed = False
        for stage in range(p):
            order = orders[stage]
            while position[stage] < len(order):
                backward, k = order[position[stage]]
                group = k % (p * v)
                chunk = group // p if not backward else v - 1 - group // p
                microbatch = (k // (p * v)) * p + k % p
                virtual = chunk * p + stage
                if not backward:
                    needs = (False, microbatch, virtual - 1) if virtual > 0 else None
                else:
                    needs = (True, microbatch, virtual + 1) if virtual < p * v - 1 else (False, microbatch, virtual)
                if needs is not None and needs not in finished:
                    break         # wait for another stage
                start = max(free[stage], finished[needs] if needs else 0.0)
                end = start + (backward_s if backward else forward_s)
                finished[(backward, microbatch, virtual)] = end
                free[stage] = end
                rows.append((stage, backward, microbatch, chunk, start, end))
                position[stage] += 1
                remaining -= 1
                progressed = True
        if not progressed:    # pragma: no cover - the order above never deadlocks for valid input
            raise RuntimeError("pipeline schedule deadlocked")
    return rows
