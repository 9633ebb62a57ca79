"""Panel for chapter 3: training with part of the state offloaded to host or CXL memory."""

from __future__ import annotations

import ipywidgets as widgets

from .. import catalog, training
from .. import units as u
from ..memory import OFFLOAD_PATHS, OFFLOAD_PLANS, offload_step
from ..plotting.memory import (
    offload_memory_plot,
    offload_paths_plot,
    update_offload_memory,
    update_offload_paths,
)
from ..plotting.style import bar_legend_is_current, styled
from ..units import format_bytes, format_time
from .panel import Panel

__all__ = ["OffloadPanel", "SHARDS", "TOKENS", "path_label"]

_CONTROL = {"style": {"description_width": "15em"}, "layout": widgets.Layout(width="40em")}

#: GPUs the training state can be split over (ZeRO-3 style) [-].
SHARDS = (1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024)
#: Tokens each GPU computes per step [token].
TOKENS = tuple(2**k for k in range(9, 18))


def path_label(name):
    """A short label for a path: the link, or what stands at the end of it.

    Parameters
    ----------
    name : str
        An offload path's name (a key of ``memory.OFFLOAD_PATHS``).
    """
    return name.replace("host DDR5 over ", "host DDR5, ").replace(" behind the host", "")


class OffloadPanel(Panel):
    """Model, GPU, shards, offload plan, path, tokens and overlap → memory per GPU and the step on every path.

    The training state (16 bytes per parameter) is shared by ``shards`` GPUs;
    the plan decides what stays in HBM (whole on every GPU where the plan
    replicates it, as ZeRO-Offload does the 16-bit weights) and what crosses the
    host link each step; the step computes the model FLOPs
    of the chosen tokens per GPU. Every path is computed at once by
    :func:`interconnect_lab.memory.offload_step`; the chosen one is outlined.

    Parameters
    ----------
    model, gpu, plan, path : str
        Initial choices (names from ``training.MODELS``, the catalog,
        :data:`~interconnect_lab.memory.OFFLOAD_PLANS` and
        :data:`~interconnect_lab.memory.OFFLOAD_PATHS`).
    shards : int
        Initial number of GPUs sharing the state, one of :data:`SHARDS`.
    tokens_per_gpu : int
        Initial tokens per GPU per step, one of :data:`TOKENS`.
    overlap_fraction : float
        Initial share of the transfers that may run under compute.
    """

    #: The rendered book's grid (every option would make over a million combinations).
    static_grid = {"model": ("Llama 3 70B", "Llama 3 405B"), "gpu": ("H100 SXM", "B200"), "shards": (1, 8, 512),
                   "path": ("host DDR5 over PCIe Gen5 x16", "CXL 2.0 expander behind the host",
                            "Grace LPDDR5X over NVLink-C2C"),
                   "tokens_per_gpu": (2048, 8192), "overlap_fraction": (0.0, 0.5, 1.0)}

    def __init__(self, *, model="Llama 3 70B", gpu="H100 SXM", shards=8, plan="ZeRO-3 + CPU optimizer offload",
                 path="host DDR5 over PCIe Gen5 x16", tokens_per_gpu=8192, overlap_fraction=0.5):
        parameters = {name: training.parameter_count(m) for name, m in training.MODELS.items()}
        self.controls = {
            "model": widgets.Dropdown(
                options=[(f"{name} ({parameters[name] / 1e9:,.0f} billion parameters)", name)
                         for name in training.MODELS], value=model, description="model", **_CONTROL),
            "gpu": widgets.Dropdown(
                options=[(f"{name} ({g.hbm_bytes / u.GB:,.0f} GB HBM)", name) for name, g in catalog.GPUS.items()],
                value=gpu, description="GPU (HBM per GPU)", **_CONTROL),
            "shards": widgets.SelectionSlider(options=list(SHARDS), value=shards,
                                              description="GPUs sharing the state", continuous_update=True,
                                              **_CONTROL),
            "plan": widgets.Dropdown(options=[(f"{name}: {p.description.split(':')[0]}", name)
                                              for name, p in OFFLOAD_PLANS.items()],
                                     value=plan, description="what is offloaded", **_CONTROL),
            "path": widgets.Dropdown(options=[(path_label(name), name) for name in OFFLOAD_PATHS], value=path,
                                     description="where to (outlined below)", **_CONTROL),
            "tokens_per_gpu": widgets.SelectionSlider(
                options=[(f"{t:,}", t) for t in TOKENS], value=tokens_per_gpu,
                description="tokens per GPU per step", continuous_update=True, **_CONTROL),
            "overlap_fraction": widgets.FloatSlider(value=overlap_fraction, min=0.0, max=1.0, step=0.1,
                                                    description="share of transfers overlapped",
                                                    readout_format=".0%", continuous_update=True, **_CONTROL),
        }
        self._limits = None
        super().__init__(figure_size_in=(8.0, 3.5), subplots={"ncols": 2, "width_ratios": [1, 1.35]})

    # Model ----------------------------------------------------------------------------
    def compute(self, *, model, gpu, shards, plan, path, tokens_per_gpu, overlap_fraction):
        """One offload step per path, for the chosen model, GPU, plan, shards, tokens and overlap."""
        steps = [offload_step(model, gpu, plan, name, tokens_per_gpu=tokens_per_gpu, shards=shards,
                              overlap_fraction=overlap_fraction) for name in OFFLOAD_PATHS]
        return {"steps": steps, "selected": list(OFFLOAD_PATHS).index(path)}

    def describe(self, result):
        step = result["steps"][result["selected"]]
        hbm = "fits" if step.fits_hbm else "does <b>not</b> fit"
        head = (f"<b>{step.model}</b> over {step.shards:,} {step.gpu}: each GPU keeps "
                f"<b>{format_bytes(step.gpu_bytes)}</b> of training state in HBM, which {hbm} its "
                f"{format_bytes(step.hbm_bytes)} (activations come on top)")
        if step.plan == "none":
            return head + "; nothing crosses the host link."
        if step.host_capacity_bytes is None:
            host = f"{format_bytes(step.host_bytes)} in host memory"
        else:
            verdict = "fits" if step.fits_host else "does not fit"
            host = (f"{format_bytes(step.host_bytes)} in host memory, which {verdict} its "
                    f"{format_bytes(step.host_capacity_bytes)} share")
        return (f"{head}; {host}. Over {path_label(step.path)}, {format_bytes(step.to_host_bytes)} go out and "
                f"{format_bytes(step.to_device_bytes)} come back each step: <b>{format_time(step.transfer_s)}</b> "
                f"against {format_time(step.compute_s)} of compute; with {step.step.overlap_fraction:.0%} of them "
                f"overlapped, the step is <b>{step.added_fraction:+.1%}</b> longer than its compute alone.")

    # Figure ---------------------------------------------------------------------------
    #: Ends of the logarithmic memory axis, wide enough for every choice [GB].
    MEMORY_LIMITS_GB = (0.01, 100_000.0)
    #: Right end of the time axis, as a multiple of the compute time: longer bars stop at the
    #: edge and their text gives the value, so that the axes never change [-].
    TIME_LIMIT = 2.0

    def _title(self, result):
        step = result["steps"][result["selected"]]
        return f"plan: {step.plan}\ncompute alone: {format_time(step.compute_s)} per step"

    @styled
    def draw(self, result):
        left, right = self.axes
        steps = result["steps"]
        offload_memory_plot(steps[result["selected"]], ax=left, limits=self.MEMORY_LIMITS_GB)
        offload_paths_plot([path_label(name) for name in OFFLOAD_PATHS], steps, selected=result["selected"],
                           ax=right, limit=self.TIME_LIMIT)
        right.set_title(self._title(result), loc="left", fontsize=9)

    @styled
    def redraw(self, result):
        # In place (both axes are fixed): bar widths, capacity ticks, texts and the title.
        left, right = self.axes
        steps = result["steps"]
        changed = update_offload_memory(left, steps[result["selected"]])
        changed += update_offload_paths(right, steps, result["selected"])
        if not bar_legend_is_current(right):
            return None   # another set of parts is drawn: the legend is drawn again with them
        changed.append(right.set_title(self._title(result), loc="left", fontsize=9))
        return changed
