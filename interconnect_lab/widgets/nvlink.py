"""Panels for chapter 2: tensor parallelism over NVLink, and one NVL72 rack against nine 8-GPU nodes."""

from __future__ import annotations

import ipywidgets as widgets
import numpy as np

from .. import catalog
from .. import units as u
from ..plotting.nvlink import tensor_parallel_plot
from ..plotting.style import styled
from ..plotting.training import training_breakdown_plot
from ..training import (
    Cluster,
    TrainingStep,
    TransformerModel,
    parallel_config,
    system_cluster,
    tensor_parallel_scan,
    training_step,
)
from ..units import format_bytes, format_time
from .panel import Panel

__all__ = ["TensorParallelPanel", "NVLinkDomainPanel", "example_model", "WIDTHS", "DEGREES", "SOFTWARE_CHOICES"]

_CONTROL = {"style": {"description_width": "15em"}, "layout": widgets.Layout(width="40em")}

#: Model widths h the tensor-parallel panel offers (one head per 128 dimensions) [-].
WIDTHS = (2048, 4096, 8192, 12288, 16384, 32768)
#: Tensor-parallel degrees it draws [GPUs].
DEGREES = (1, 2, 4, 8, 16, 32, 64)
#: The two training stacks the panels compare, as named in :data:`interconnect_lab.training.SOFTWARE`.
SOFTWARE_CHOICES = (("Megatron-LM (SC21): no overlap", "Megatron-LM SC21"),
                    ("MegaScale: parallel block, TP overlap", "MegaScale"))

# Example inputs of the tensor-parallel panel: a GPT-style model, 2,048-token sequences,
# one sequence per microbatch, eight microbatches per step, 8-GPU NVLink domains with one
# 400 Gb/s InfiniBand port per GPU beyond them.
_LAYERS, _SEQUENCE, _VOCABULARY, _HEAD_DIM = 32, 2048, 51200, 128
_DOMAIN_GPUS, _SCALE_OUT = 8, "InfiniBand NDR"


def example_model(hidden_size):
    """The GPT-style model of the tensor-parallel panel at width ``hidden_size``.

    32 layers, ``hidden_size / 128`` heads, 2,048-token sequences, a 51,200-token
    vocabulary (SC21's): only the width changes.
    """
    return TransformerModel.gpt(layers=_LAYERS, hidden_size=hidden_size, heads=hidden_size // _HEAD_DIM,
                                vocabulary_size=_VOCABULARY, sequence_length=_SEQUENCE,
                                name=f"GPT-style, h = {hidden_size:,}")


def _nvlink_gpus():
    return [name for name, g in catalog.GPUS.items()
            if g.scale_up_link is not None and catalog.link(g.scale_up_link).family == "NVLink"]


class TensorParallelPanel(Panel):
    """Tensor-parallel degree, model width, NVLink generation and GPU → per-layer all-reduce time and its share.

    One tensor-parallel group of t GPUs trains a GPT-style model of width h
    (:func:`example_model`); every degree is computed at once by
    :func:`interconnect_lab.training.tensor_parallel_scan`. The NVLink domain
    holds 8 GPUs; larger groups reach the others over one 400 Gb/s InfiniBand
    port per GPU. Any NVLink generation can be put on any GPU: a what-if that
    separates the link from the compute.

    Parameters
    ----------
    tensor_parallel : int
        Initial degree t, one of :data:`DEGREES`.
    hidden_size : int
        Initial width h, one of :data:`WIDTHS`.
    link : str
        Initial NVLink generation (catalog name).
    gpu : str
        Initial GPU (catalog name).
    software : str
        Initial training stack, ``"Megatron-LM SC21"`` or ``"MegaScale"``.
    """

    #: The rendered book's grid: two GPUs of six, three NVLink generations of five.
    static_grid = {"gpu": ("H100 SXM", "B200"), "link": ("NVLink 3", "NVLink 4", "NVLink 5")}

    #: Fixed limits of the per-layer time axis, wide enough for every choice [ms].
    TIME_LIMITS_MS = (0.03, 3000.0)

    def __init__(self, *, tensor_parallel=8, hidden_size=12288, link="NVLink 4", gpu="H100 SXM",
                 software="Megatron-LM SC21"):
        links = [name for name, entry in catalog.LINKS.items() if entry.family == "NVLink"]
        self.controls = {
            "tensor_parallel": widgets.SelectionSlider(options=list(DEGREES), value=tensor_parallel,
                                                       description="tensor-parallel degree t",
                                                       continuous_update=True, **_CONTROL),
            "hidden_size": widgets.SelectionSlider(options=[(f"{h:,}", h) for h in WIDTHS], value=hidden_size,
                                                   description="model width h", continuous_update=True,
                                                   **_CONTROL),
            "link": widgets.Dropdown(
                options=[(f"{name}: {catalog.link(name).per_gpu_per_direction_bytes_per_s / u.GB_per_s:,.0f} GB/s "
                          "per GPU per direction", name) for name in links],
                value=link, description="NVLink generation", **_CONTROL),
            "gpu": widgets.Dropdown(
                options=[(f"{name} ({catalog.gpu(name).bf16_flop_per_s / u.TFLOP_per_s:,.0f} TFLOP/s BF16)", name)
                         for name in _nvlink_gpus()],
                value=gpu, description="GPU (dense BF16 peak)", **_CONTROL),
            "software": widgets.Dropdown(options=list(SOFTWARE_CHOICES), value=software,
                                         description="training stack", **_CONTROL),
        }
        self._drawn_key = None
        super().__init__(figure_size_in=(8.0, 3.3), subplots={"ncols": 2})

    # Model ----------------------------------------------------------------------------
    def compute(self, *, tensor_parallel, hidden_size, link, gpu, software):
        """The scan over every degree that divides the model, and the chosen degree."""
        cluster = Cluster(name=f"{gpu} with {link}", gpu=gpu, gpus_per_node=_DOMAIN_GPUS, scale_up_link=link,
                          scale_out_link=_SCALE_OUT, nics_per_node=_DOMAIN_GPUS)
        scan = tensor_parallel_scan(example_model(hidden_size), cluster, software,
                                    max_tensor_parallel=DEGREES[-1])
        return {"scan": scan, "t": tensor_parallel, "h": hidden_size, "link": link, "gpu": gpu,
                "software": software}

    def describe(self, result):
        scan, t = result["scan"], result["t"]
        degrees = scan.tensor_parallel.tolist()
        if t not in degrees:
            return (f"<b>t = {t} does not split the model:</b> its {result['h'] // _HEAD_DIM} attention heads "
                    f"need a degree that divides them ({', '.join(map(str, degrees))})")
        i = degrees.index(t)
        if t == 1:
            return (f"<b>t = 1: no tensor parallelism</b>, nothing to all-reduce; one layer computes for "
                    f"{format_time(scan.compute_s[i])} per microbatch on the {result['gpu']}")
        where = "crosses the network" if scan.crosses_network[i] else "stays on NVLink"
        return (f"<b>t = {t}</b> ({where}): each GPU sends <b>{format_bytes(scan.sent_bytes[i])}</b> per layer and "
                f"microbatch in {scan.all_reduces} all-reduces of {format_bytes(scan.message_bytes[i])}; they take "
                f"<b>{format_time(scan.communication_s[i])}</b> against {format_time(scan.compute_s[i])} of "
                f"compute ({scan.communication_to_compute[i]:.0%}). Exposed tensor-parallel time: "
                f"<b>{scan.step_share[i]:.1%} of the step</b>, MFU {scan.step.mfu[i]:.1%}")

    # Figure ----------------------------------------------------------------------------
    def _title(self, result):
        stack = dict((name, label.split(":")[0]) for label, name in SOFTWARE_CHOICES)[result["software"]]
        return f"h = {result['h']:,}, {result['link']} on {result['gpu']}, {stack}"

    @styled
    def draw(self, result):
        left, right = self.axes
        tensor_parallel_plot(result["scan"], axes=(left, right), selected=result["t"], title=self._title(result),
                             degrees_shown=DEGREES, time_limits_ms=self.TIME_LIMITS_MS)
        self._drawn_key = bool(np.any(result["scan"].crosses_network))

    @styled
    def redraw(self, result):
        # In place (the axes are fixed): the three curves' data, the three rings and the title.
        scan = result["scan"]
        if bool(np.any(scan.crosses_network)) != self._drawn_key:
            return None  # the shading of degrees that cross the network
        left, right = self.axes
        compute = scan.compute_s / u.ms
        communication = scan.communication_s / u.ms
        low, high = left.get_ylim()
        shown = scan.tensor_parallel > 1
        if compute.min() < low or compute.max() > high or communication[shown].min() < low \
                or communication.max() > high or len(left.lines) != 4 or len(right.lines) != 2:
            return None
        degrees = scan.tensor_parallel
        compute_line, communication_line, compute_ring, communication_ring = left.lines
        share_line, share_ring = right.lines
        share = 100 * scan.step_share
        compute_line.set_data(degrees, compute)
        communication_line.set_data(degrees[shown], communication[shown])
        share_line.set_data(degrees, share)
        t = result["t"]
        index = np.flatnonzero(degrees == t)
        pick = (lambda values: values[index[0]]) if index.size else (lambda values: np.nan)
        compute_ring.set_data([t], [pick(compute)])
        communication_ring.set_data([t], [pick(communication) if t > 1 else np.nan])
        share_ring.set_data([t], [pick(share)])
        title = left.set_title(self._title(result), loc="left", fontsize=10)
        return [compute_line, communication_line, share_line, compute_ring, communication_ring, share_ring, title]


class NVLinkDomainPanel(Panel):
    """One GB200 NVL72 rack against the same 72 GPUs in nine 8-GPU NVLink domains, for GPT-3 175B.

    Both systems train the same model with the same split: t-way tensor, p-way
    pipeline and 72/(t p)-way data parallelism, 144 sequences per step,
    selective recomputation, sequence parallelism and a distributed optimizer
    (ZeRO-1). In the rack every collective stays on NVLink; in 8-GPU domains
    whatever crosses a domain uses one 400 Gb/s port per GPU. Steps from
    :func:`interconnect_lab.training.training_step`.

    Parameters
    ----------
    tensor_parallel : int
        Initial t, a divisor of 72 that divides the model's 96 heads.
    pipeline_parallel : int
        Initial p.
    software : str
        Initial training stack, ``"Megatron-LM SC21"`` or ``"MegaScale"``.
    """

    MODEL = "GPT-3 175B"
    GLOBAL_BATCH = 144
    DEGREES = (1, 2, 3, 4, 6, 8, 12, 24)
    STAGES = (1, 2, 3)

    def __init__(self, *, tensor_parallel=12, pipeline_parallel=1, software="Megatron-LM SC21"):
        rack = catalog.system("GB200 NVL72")
        self.gpus = rack.gpus
        self.clusters = (system_cluster(rack.name, gpus_per_node=_DOMAIN_GPUS), system_cluster(rack.name))
        self.labels = (f"{self.gpus // _DOMAIN_GPUS} x {_DOMAIN_GPUS}-GPU NVLink domains",
                       f"one {self.gpus}-GPU NVLink domain ({rack.name})")
        self.controls = {
            "tensor_parallel": widgets.SelectionSlider(options=list(self.DEGREES), value=tensor_parallel,
                                                       description="tensor-parallel degree t",
                                                       continuous_update=True, **_CONTROL),
            "pipeline_parallel": widgets.SelectionSlider(options=list(self.STAGES), value=pipeline_parallel,
                                                         description="pipeline stages p",
                                                         continuous_update=True, **_CONTROL),
            "software": widgets.Dropdown(options=list(SOFTWARE_CHOICES), value=software,
                                         description="training stack", **_CONTROL),
        }
        super().__init__(figure_size_in=(8.0, 2.9))

    def compute(self, *, tensor_parallel, pipeline_parallel, software):
        """The two steps, or why the split is not possible."""
        try:
            config = parallel_config(self.gpus, global_batch_size=self.GLOBAL_BATCH, tensor_parallel=tensor_parallel,
                                     pipeline_parallel=pipeline_parallel, recompute="selective",
                                     sequence_parallel=True, zero_stage=1)
            steps = tuple(training_step(self.MODEL, cluster, config, software) for cluster in self.clusters)
        except ValueError as error:
            return {"error": str(error), "t": tensor_parallel, "p": pipeline_parallel}
        return {"steps": steps, "config": config, "t": tensor_parallel, "p": pipeline_parallel}

    def describe(self, result):
        if "error" in result:
            return f"<b>t = {result['t']}, p = {result['p']} is not possible:</b> {result['error']}"
        small, rack = result["steps"]
        memory = rack.memory
        fits = "fits" if memory.fits else "<b>does not fit</b>"
        return (f"t = {result['t']}, p = {result['p']}, d = {result['config'].data_parallel}: "
                f"<b>one rack: MFU {rack.mfu:.1%}</b>, 8-GPU domains: <b>MFU {small.mfu:.1%}</b>; the rack "
                f"trains <b>{small.step_s / rack.step_s:.2f}x</b> as fast. Exposed communication per step: "
                f"tensor-parallel {format_time(rack.tensor_parallel_s)} against {format_time(small.tensor_parallel_s)}, "
                f"data-parallel {format_time(rack.data_parallel_s)} against {format_time(small.data_parallel_s)}. "
                f"Memory {format_bytes(memory.total_bytes)} per GPU of {format_bytes(memory.capacity_bytes)}: {fits}")

    #: Fixed time axis, long enough for every split [s].
    TIME_LIMIT_S = 15.0

    def _title(self, result):
        return f"{self.MODEL} on {self.gpus} GB200 GPUs: t = {result['t']}, p = {result['p']}"

    @styled
    def draw(self, result):
        ax = self.axes
        if "error" in result:
            ax.text(0.5, 0.5, "this split is not possible: see the line above", ha="center", va="center",
                    transform=ax.transAxes)
            ax.set_axis_off()
            return
        ax.set_axis_on()
        training_breakdown_plot(self.labels, result["steps"], ax=ax)
        ax.set_xlim(0, self.TIME_LIMIT_S)
        ax.set_title(self._title(result), loc="left", fontsize=10)

    @styled
    def redraw(self, result):
        # In place: the stacked bars' extents, the MFU labels and the title
        # (the parts are drawn part by part, one bar per system each).
        ax = self.axes
        bars, labels = ax.patches, ax.texts
        if "error" in result or not ax.axison or len(bars) != 2 * len(TrainingStep.PARTS) or len(labels) != 2:
            return None
        steps = result["steps"]
        left = [0.0, 0.0]
        for index, part in enumerate(TrainingStep.PARTS):
            for row, step in enumerate(steps):
                width = float(getattr(step, part))
                bars[2 * index + row].set_x(left[row])
                bars[2 * index + row].set_width(width)
                left[row] += width
        for label, step, end in zip(labels, steps, left):
            label.set_x(end)
            label.set_text(f"  MFU {float(step.mfu):.0%}")
        return [*bars, *labels, ax.set_title(self._title(result), loc="left", fontsize=10)]
