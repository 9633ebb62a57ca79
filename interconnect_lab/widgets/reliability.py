"""Panels for chapter 9: failures, checkpoints and the time a large job spends training."""

from __future__ import annotations

import ipywidgets as widgets
import numpy as np

from .. import units as u
from ..plotting.reliability import checkpoint_plot
from ..plotting.style import COLORS, styled
from ..published import FT_HSDP_RECOVERY, LLAMA3_INTERRUPTIONS
from ..reliability import checkpoint_plan
from ..units import format_time
from .panel import Panel

__all__ = ["CheckpointPanel", "LLAMA3_GPU_MTBF_S"]

_CONTROL = {"style": {"description_width": "14em"}, "layout": widgets.Layout(width="40em")}

#: Mean time between failures of one GPU's share of Llama 3's cluster: 54 days x 16,384 GPUs / 419 [s].
LLAMA3_GPU_MTBF_S = LLAMA3_INTERRUPTIONS.mean_time_between_unexpected_s * LLAMA3_INTERRUPTIONS.gpus

_GPU_COUNTS = [2**k for k in range(10, 18)]                     # 1,024 to 131,072
_FAILURE_SCALES = [("¼×", 0.25), ("½×", 0.5), ("1× (Llama 3)", 1.0), ("2×", 2.0), ("4×", 4.0)]
_CHECKPOINT_S = [5, 10, 30, 60, 120, 300, 600]
_RESTART_S = [1 * u.minute, 3 * u.minute, 5 * u.minute, 10 * u.minute, 20 * u.minute, 30 * u.minute]
_OBSERVED = [(LLAMA3_INTERRUPTIONS.gpus, LLAMA3_INTERRUPTIONS.effective_training_time_fraction,
              f"Llama 3 (>{LLAMA3_INTERRUPTIONS.effective_training_time_fraction:.0%})"),
             (FT_HSDP_RECOVERY[0].gpus, FT_HSDP_RECOVERY[0].effective_training_fraction,
              f"synchronous, O(100K) GPUs, {FT_HSDP_RECOVERY[0].recovery_s / u.minute:.0f} min stalls")]


class CheckpointPanel(Panel):
    """Job size, failure rate, checkpoint and restart time → failures, checkpoint interval, effective time.

    Each failure stops the whole job, which restarts from its last checkpoint;
    checkpoints are taken at Daly's interval (:func:`interconnect_lab.reliability.checkpoint_plan`).

    Parameters
    ----------
    gpus : int
        Initial job size, a power of two from 1,024 to 131,072 [-].
    failure_scale : float
        Initial failure rate per GPU relative to Llama 3's run: 0.25, 0.5, 1, 2 or 4 [-].
    checkpoint_s : float
        Initial time to write a checkpoint, one of 5, 10, 30, 60, 120, 300, 600 [s].
    restart_s : float
        Initial time from a failure to training again, 1 to 30 minutes (see the options) [s].
    """

    #: The rendered book's grid: three restart times.
    static_grid = {"restart_s": (60.0, 600.0, 1800.0)}

    #: Job sizes of the curves [-].
    GRID = np.geomspace(1_000, 200_000, 61)
    #: Length of the example run without failures [day].
    RUN_DAYS = 90
    #: Fixed time axis of the left panel [min], wide enough for every control setting.
    TIME_LIMITS_MIN = (0.5, 3e4)

    def __init__(self, *, gpus=16_384, failure_scale=1.0, checkpoint_s=60, restart_s=10 * u.minute):
        self.controls = {
            "gpus": widgets.SelectionSlider(options=[(f"{n:,}", n) for n in _GPU_COUNTS], value=gpus,
                                            description="GPUs in the job", continuous_update=True, **_CONTROL),
            "failure_scale": widgets.SelectionSlider(options=_FAILURE_SCALES, value=failure_scale,
                                                     description="failures per GPU vs Llama 3",
                                                     continuous_update=True, **_CONTROL),
            "checkpoint_s": widgets.SelectionSlider(options=[(format_time(s), s) for s in _CHECKPOINT_S],
                                                    value=checkpoint_s, description="time to write a checkpoint",
                                                    continuous_update=True, **_CONTROL),
            "restart_s": widgets.SelectionSlider(options=[(format_time(s), s) for s in _RESTART_S],
                                                 value=restart_s, description="time to restart after a failure",
                                                 continuous_update=True, **_CONTROL),
        }
        super().__init__(figure_size_in=(9.0, 3.8), subplots={"ncols": 2})

    def compute(self, *, gpus, failure_scale, checkpoint_s, restart_s):
        gpu_mtbf_s = LLAMA3_GPU_MTBF_S / failure_scale
        return {"curve": checkpoint_plan(self.GRID, gpu_mtbf_s, checkpoint_s, restart_s=restart_s),
                "at": checkpoint_plan(gpus, gpu_mtbf_s, checkpoint_s, restart_s=restart_s)}

    def describe(self, result):
        at = result["at"]
        mtbf, interval, effective = float(at.mtbf_s[0]), float(at.interval_s[0]), float(at.effective_fraction[0])
        return (f"<b>{int(at.gpus[0]):,} GPUs</b>: a failure every <b>{format_time(mtbf)}</b> "
                f"({float(at.failures_per_day[0]):.1f} a day); checkpoint every <b>{format_time(interval)}</b> "
                f"of work; effective training time <b>{effective:.1%}</b>: a run of {self.RUN_DAYS} days "
                f"without failures takes <b>{self.RUN_DAYS / effective:.0f} days</b>")

    @styled
    def draw(self, result):
        left, right = checkpoint_plot({"effective training time": result["curve"]}, axes=self.axes,
                                      observations=_OBSERVED, time_limits_min=self.TIME_LIMITS_MIN,
                                      mark_gpus=float(result["at"].gpus[0]))
        at = result["at"]
        left.plot(at.gpus, at.mtbf_s / u.minute, marker="o", color=COLORS["communication"], linestyle="none",
                  gid="point mtbf")
        left.plot(at.gpus, at.interval_s / u.minute, marker="o", color=COLORS["compute"], linestyle="none",
                  gid="point interval")
        right.plot(at.gpus, at.effective_fraction, marker="o", color=COLORS["compute"], linestyle="none",
                   gid="point effective")

    def redraw(self, result):
        # In place: the three curves, the three points and the two markers of the job size.
        lines = {line.get_gid(): line for ax in self.axes for line in ax.get_lines() if line.get_gid()}
        marks = [line for ax in self.axes for line in ax.get_lines() if line.get_gid() == "mark"]
        curve, at = result["curve"], result["at"]
        gpus = float(at.gpus[0])
        updates = {"mtbf": curve.mtbf_s / u.minute, "interval": curve.interval_s / u.minute,
                   "effective effective training time": curve.effective_fraction,
                   "point mtbf": at.mtbf_s / u.minute, "point interval": at.interval_s / u.minute,
                   "point effective": at.effective_fraction}
        if set(updates) - set(lines) or len(marks) != 2:
            return None
        for gid, values in updates.items():
            lines[gid].set_ydata(values)
            if gid.startswith("point"):
                lines[gid].set_xdata(at.gpus)
        for mark in marks:
            mark.set_xdata([gpus, gpus])
        return [lines[gid] for gid in updates] + marks
