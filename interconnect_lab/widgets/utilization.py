"""Panels for chapter 1: step time, overlap and MFU."""

from __future__ import annotations

import ipywidgets as widgets

from .. import catalog
from .. import units as u
from ..plotting.style import styled
from ..plotting.utilization import step_time_plot
from ..units import format_time
from ..utilization import step_time
from .panel import Panel

__all__ = ["StepTimePanel"]

_CONTROL = {"style": {"description_width": "14em"}, "layout": widgets.Layout(width="34em")}
_SLIDER = {"continuous_update": True, **_CONTROL}


class StepTimePanel(Panel):
    """GPU, compute time, communication time and overlap → step time and MFU.

    Parameters
    ----------
    gpu : str
        Catalog name of the GPU whose peak sets the delivered FLOP/s.
    compute_s, communication_s : float
        Initial compute and communication time per step [s].
    overlap_fraction : float
        Initial share of the communication hidden under compute [-].
    compute_efficiency : float
        Initial share of peak reached while computing [-].
    """

    #: The rendered book's grid (its five controls would make 95,832 combinations).
    static_grid = {"gpu": ("A100 SXM", "H100 SXM", "B200"), "compute_s": (0.2, 0.4, 0.6, 0.8, 1.2, 2.0),
                   "communication_s": (0.0, 0.2, 0.4, 0.6, 0.8, 1.2, 2.0),
                   "overlap_fraction": (0.0, 0.25, 0.5, 0.75, 1.0), "compute_efficiency": (0.5, 0.75, 1.0)}

    TIME_LIMIT_S = 4.2

    def __init__(self, *, gpu="H100 SXM", compute_s=0.6, communication_s=0.4, overlap_fraction=0.0,
                 compute_efficiency=1.0):
        self.controls = {
            "gpu": widgets.Dropdown(options=list(catalog.GPUS), value=gpu,
                                    description="GPU (peak BF16)", **_CONTROL),
            "compute_s": widgets.FloatSlider(value=compute_s, min=0.05, max=2.0, step=0.05,
                                             description="compute time [s]", readout_format=".2f", **_SLIDER),
            "communication_s": widgets.FloatSlider(value=communication_s, min=0.0, max=2.0, step=0.05,
                                                   description="communication time [s]", readout_format=".2f",
                                                   **_SLIDER),
            "overlap_fraction": widgets.FloatSlider(value=overlap_fraction, min=0.0, max=1.0, step=0.05,
                                                    description="overlap fraction", readout_format=".2f",
                                                    **_SLIDER),
            "compute_efficiency": widgets.FloatSlider(value=compute_efficiency, min=0.3, max=1.0, step=0.05,
                                                      description="compute efficiency",
                                                      readout_format=".2f", **_SLIDER),
        }
        super().__init__(figure_size_in=(7.0, 2.6))

    def compute(self, *, gpu, compute_s, communication_s, overlap_fraction, compute_efficiency):
        step = step_time(compute_s, communication_s, overlap_fraction)
        return step, catalog.gpu(gpu).bf16_flop_per_s, compute_efficiency

    def describe(self, result):
        step, peak, efficiency = result
        mfu = step.mfu(efficiency)
        return (f"<b>MFU {mfu:.1%}</b>: the GPU delivers <b>{mfu * peak / u.TFLOP_per_s:,.0f} TFLOP/s</b> "
                f"of its {peak / u.TFLOP_per_s:,.0f} peak; step {step.step_s:.2f} s, "
                f"waiting {step.waiting_fraction:.0%} of it")

    @styled
    def draw(self, result):
        step, _, efficiency = result
        step_time_plot(step, ax=self.axes, compute_efficiency=efficiency, time_limit_s=self.TIME_LIMIT_S)

    @styled
    def redraw(self, result):
        # In place: the four bars' extents and the title (see step_time_plot);
        # tests/widgets/test_panel.py checks this draws what draw() would.
        step, _, efficiency = result
        containers = self.axes.containers
        if len(containers) != 4:
            return None
        compute, hidden = step.compute_s, step.hidden_communication_s
        exposed, total = step.exposed_communication_s, step.step_s
        extents = [(0.0, compute), (compute, total - compute), (compute - hidden, hidden), (compute, exposed)]
        if [not c.get_label().startswith("_") for c in containers] != [width > 0 for _, width in extents]:
            return None   # the legend names the parts of non-zero length: another set draws again
        bars = [container.patches[0] for container in containers]
        for bar, (left, width) in zip(bars, extents):
            bar.set_x(left)
            bar.set_width(width)
        title = self.axes.set_title(f"step {format_time(total)}, MFU {step.mfu(efficiency):.0%}", loc="left")
        return [*bars, title]
