"""Panels for :mod:`interconnect_lab.training`.

Chapter 8: plan a training run, watch the pipeline bubble, weigh ZeRO++ against the network.
Chapter 2: tensor parallelism over NVLink, and one NVL72 rack against nine 8-GPU nodes.
"""

from __future__ import annotations

import html
import dataclasses
import math

import ipywidgets as widgets
import numpy as np

from .. import catalog, collectives
from .. import units as u
from ..plotting.style import styled
from ..plotting.training import (
    memory_breakdown_plot, memory_label_x, network_scan_plot, pipeline_schedule_plot, schedule_bars, schedule_time_limit,
    schedule_title, tensor_parallel_plot, training_breakdown_plot,
)
from ..training import (
    CLUSTERS, EFFICIENT_OPERATORS, MODELS, RECOMPUTATION, Cluster, TrainingStep, TransformerModel, network_scan,
    parallel_config, parallel_sweep, parameter_count, pipeline_bubble_fraction, pipeline_schedule, scale_out_variants,
    software, system_cluster, tensor_parallel_scan, training_step, zero_communication_volume,
)
from ..units import format_bytes, format_time
from .panel import Panel
from .static import refusal_text

__all__ = ["TrainingRunPanel", "PipelineSchedulePanel", "ZeroPlusPlusPanel", "OVERLAP_SWITCHES", "cluster_choices",
           "TensorParallelPanel", "NVLinkDomainPanel", "example_model", "WIDTHS", "DEGREES", "SOFTWARE_CHOICES"]

_CONTROL = {"style": {"description_width": "12em"}, "layout": widgets.Layout(width="29em")}
# The run panel's two columns of controls, each half the page wide.
_COLUMN = {"style": {"description_width": "12.5em"}, "layout": widgets.Layout(width="97%")}

#: The switches the run panel offers, as (label, control name, the change to the stack when on, for
#: :meth:`~interconnect_lab.training.Software.replace`). All on, over the ``"Megatron-LM 2023"``
#: stack, is the ``"MegaScale"`` stack.
OVERLAP_SWITCHES = (
    ("parallel transformer block", "parallel_block", {"kernels": {"parallel_block": True}}),
    ("tensor-parallel overlap", "tensor_parallel_overlap", {"overlap": {"tensor_parallel": "pipelined"}}),
    ("pipeline-parallel overlap", "pipeline_parallel_overlap", {"overlap": {"pipeline": "asynchronous"}}),
    ("data-parallel overlap", "data_parallel_overlap", {"overlap": {"data_parallel": "per layer"}}),
    ("efficient operators", "efficient_operators", EFFICIENT_OPERATORS),
)

_BASE_STACK = "Megatron-LM 2023"


def cluster_choices():
    """The clusters the run panel offers: the published ones and two catalog systems, by label."""
    choices = {f"{name} ({CLUSTERS[name].gpu}, {CLUSTERS[name].nics_per_node} x {CLUSTERS[name].scale_out_link})": name
               for name in CLUSTERS}
    for system in ("DGX H100", "GB200 NVL72"):
        entry = system_cluster(system)
        choices[f"{system} ({entry.gpu}, {entry.nics_per_node} x {entry.scale_out_link})"] = entry
    return choices


def _memory_limit_gb(total_bytes, capacity_bytes):
    """A memory axis that changes only when the total crosses a power of two of the HBM capacity [GB]."""
    over = max(float(total_bytes) / capacity_bytes, 1.0)
    return 1.45 * capacity_bytes * 2 ** math.ceil(math.log2(over) - 1e-12) / 1e9


class TrainingRunPanel(Panel):
    """Plan a training run: model, cluster, split and software → step time, MFU, days and memory.

    The split is set by hand (t, p, microbatch) or found by
    :func:`~interconnect_lab.training.parallel_sweep` ("best split": the
    highest throughput among the splits that fit in memory). The software is
    Megatron-LM (2023) with MegaScale's switches, each on or off; all on is
    MegaScale. Every number comes from
    :func:`~interconnect_lab.training.training_step`.

    Parameters
    ----------
    model, cluster : str
        Initial model (a key of :data:`~interconnect_lab.training.MODELS`) and
        cluster (a label of :func:`cluster_choices` or a key of ``CLUSTERS``).
    gpus, global_batch_size : int
        Initial GPU count and batch [sequences].
    best_split : bool
        Start with the sweep's best split instead of the given one.
    tensor_parallel, pipeline_parallel, microbatch_size, interleave : int
        Initial split.
    recompute : str
        A policy from ``training.RECOMPUTATION``.
    sequence_parallel : bool
        Initial sequence parallelism.
    zero_stage : int
        Initial ZeRO stage.
    switches : sequence of str
        Control names of :data:`OVERLAP_SWITCHES` switched on initially.
    training_tokens : float
        Initial tokens to train on, for the days [token].
    """

    #: The rendered book's variant: MegaScale's switches one at a time, the sweep's best split or a
    #: hand-set tensor-parallel degree; the model, cluster and the rest of the split as in the text.
    static_controls = ("best_split", "tensor_parallel", *(control for _, control, _ in OVERLAP_SWITCHES))
    static_grid = {"tensor_parallel": (4, 8, 16)}

    GPU_COUNTS = (8, 16, 32, 64, 128, 256, 512, 768, 1024, 1536, 2048, 3072, 4096, 6144, 8192, 12288, 16384)
    BATCHES = (8, 16, 32, 64, 128, 256, 384, 512, 768, 1024, 1536, 2048, 3072, 4096, 6144, 8192)
    DEGREES = (1, 2, 4, 8, 16, 32, 64)
    MICROBATCHES = (1, 2, 4, 8, 16)
    INTERLEAVES = (1, 2, 3, 4, 6, 8)
    #: Recomputation policies, from the least recomputed to the most (all of ``training.RECOMPUTATION``).
    RECOMPUTE = tuple(sorted(RECOMPUTATION, key=lambda name: sum(
        (RECOMPUTATION[name].projections, RECOMPUTATION[name].attention, RECOMPUTATION[name].elementwise))))
    TOKENS = (("300 billion", 300e9), ("1 trillion", 1e12), ("2 trillion", 2e12), ("15 trillion", 15e12))

    def __init__(self, *, model="MegaScale 175B", cluster="MegaScale", gpus=12288, global_batch_size=6144,
                 best_split=False, tensor_parallel=8, pipeline_parallel=8, microbatch_size=2, interleave=6,
                 recompute="selective", sequence_parallel=True, zero_stage=0, switches=(), training_tokens=300e9):
        self.clusters = cluster_choices()
        labels = list(self.clusters)
        cluster_label = next((label for label, value in self.clusters.items()
                              if label == cluster or value == cluster), None)
        if cluster_label is None:
            raise ValueError(f"cluster {cluster!r} is not offered; choose one of {', '.join(map(repr, labels))}")
        slider = {"continuous_update": False, **_COLUMN}
        self.controls = {
            "model": widgets.Dropdown(options=list(MODELS), value=model, description="model", **_COLUMN),
            "cluster": widgets.Dropdown(options=labels, value=cluster_label, description="cluster", **_COLUMN),
            "gpus": widgets.SelectionSlider(options=list(self.GPU_COUNTS), value=gpus, description="GPUs", **slider),
            "global_batch_size": widgets.SelectionSlider(options=list(self.BATCHES), value=global_batch_size,
                                                         description="batch [sequences]", **slider),
            "best_split": widgets.Dropdown(options=(("set t, p and b below", False),
                                                    ("best split (sweep)", True)),
                                           value=best_split, description="split", **_COLUMN),
            "tensor_parallel": widgets.SelectionSlider(options=list(self.DEGREES), value=tensor_parallel,
                                                       description="tensor-parallel t", **slider),
            "pipeline_parallel": widgets.SelectionSlider(options=list(self.DEGREES), value=pipeline_parallel,
                                                         description="pipeline stages p", **slider),
            "microbatch_size": widgets.SelectionSlider(options=list(self.MICROBATCHES), value=microbatch_size,
                                                       description="microbatch [sequences]", **slider),
            "interleave": widgets.SelectionSlider(options=list(self.INTERLEAVES), value=interleave,
                                                  description="chunks per stage v", **slider),
            "recompute": widgets.Dropdown(options=self.RECOMPUTE, value=recompute,
                                          description="recomputation", **_COLUMN),
            "sequence_parallel": widgets.Checkbox(value=sequence_parallel, description="sequence parallelism",
                                                  indent=False),
            "zero_stage": widgets.SelectionSlider(options=[0, 1, 2, 3], value=zero_stage,
                                                  description="ZeRO stage", **slider),
            **{control: widgets.Checkbox(value=control in switches, description=label, indent=False)
               for label, control, _ in OVERLAP_SWITCHES},
            "training_tokens": widgets.Dropdown(options=self.TOKENS, value=training_tokens,
                                                description="train on [tokens]", **_COLUMN),
        }
        super().__init__(figure_size_in=(8.5, 3.6), subplots={"nrows": 2})
        left = [self.controls[name] for name in ("model", "cluster", "gpus", "global_batch_size", "best_split",
                                                 "tensor_parallel", "pipeline_parallel", "microbatch_size")]
        right = [self.controls[name] for name in ("interleave", "zero_stage", "recompute", "training_tokens",
                                                  "sequence_parallel")]
        right += [self.controls[control] for _, control, _ in OVERLAP_SWITCHES]
        column = widgets.Layout(width="50%")
        self.widget.children = ((widgets.HBox([widgets.VBox(left, layout=column), widgets.VBox(right, layout=column)]),)
                                + self.widget.children[1:])

    def software(self, values):
        """The stack the switches describe: Megatron-LM (2023) with the chosen MegaScale switches."""
        chosen = [bool(values[control]) for _, control, _ in OVERLAP_SWITCHES]
        name = "MegaScale" if all(chosen) else (
            _BASE_STACK if not any(chosen) else f"{_BASE_STACK} + some MegaScale switches")
        stack = software(_BASE_STACK).replace(name=name)
        for on, (_, _, change) in zip(chosen, OVERLAP_SWITCHES):
            if on:
                stack = stack.replace(**change)
        return stack

    def compute(self, **values):
        """The step (and the split used), or why the configuration is not possible."""
        cluster = self.clusters[values["cluster"]]
        stack = self.software(values)
        common = {"recompute": values["recompute"], "sequence_parallel": values["sequence_parallel"],
                  "zero_stage": values["zero_stage"]}
        try:
            if values["best_split"]:
                sweep = parallel_sweep(values["model"], cluster, values["gpus"], values["global_batch_size"], stack,
                                       interleave=values["interleave"], **common)
                row = sweep.row(sweep.best())
                t, p, b = row["tensor_parallel"], row["pipeline_parallel"], row["microbatch_size"]
            else:
                t, p, b = values["tensor_parallel"], values["pipeline_parallel"], values["microbatch_size"]
            config = parallel_config(values["gpus"], global_batch_size=values["global_batch_size"], tensor_parallel=t,
                                     pipeline_parallel=p, microbatch_size=b, interleave=values["interleave"],
                                     **common)
            step = training_step(values["model"], cluster, config, stack)
        except ValueError as error:
            return {"error": refusal_text(error), "asked": self._asked(values)}
        return {"step": step, "config": config, "software": stack.name, "tokens": values["training_tokens"],
                "cluster": cluster if not isinstance(cluster, str) else CLUSTERS[cluster],
                "best": values["best_split"]}

    @staticmethod
    def _asked(values):
        # What was asked, so that the readout and figure of an impossible run still follow every control.
        split = "the sweep's best split" if values["best_split"] else (
            f"t = {values['tensor_parallel']}, p = {values['pipeline_parallel']}, b = {values['microbatch_size']}")
        return (f"{values['gpus']:,} GPUs, batch {values['global_batch_size']:,}, {split}, "
                f"v = {values['interleave']}, ZeRO-{values['zero_stage']}, {values['recompute']} recomputation")

    def describe(self, result):
        if "error" in result:
            return f"<b>Not possible</b> with {result['asked']}. {html.escape(result['error'])}"
        step, config = result["step"], result["config"]
        memory = step.memory
        fits = ("fits" if memory.fits else "<b>does not fit</b>") + f": {memory.verdict().split(': ', 1)[1]}"
        split = "best split" if result["best"] else "split"
        bubble = pipeline_bubble_fraction(config.pipeline_parallel, config.microbatches, config.interleave)
        exposed = step.tensor_parallel_s + step.pipeline_s + step.data_parallel_s
        return (f"{split}: t = {config.tensor_parallel}, p = {config.pipeline_parallel}, "
                f"d = {config.data_parallel}, b = {config.microbatch_size}, m = {config.microbatches} microbatches "
                f"(bubble {bubble:.1%} of the ideal time). <b>Step {format_time(step.step_s)}</b>, of which "
                f"exposed communication {format_time(exposed)}; <b>MFU {step.mfu:.1%}</b>, HFU {step.hfu:.1%}, "
                f"{step.tokens_per_s:,.0f} tokens/s: {result['tokens'] / 1e9:,.0f} billion tokens in "
                f"<b>{step.days_to_train(result['tokens']):,.1f} days</b> ({result['software']} on "
                f"{result['cluster'].name}). "
                f"Memory per GPU {fits}")

    def _titles(self, result):
        step = result["step"]
        config = result["config"]
        return (f"where the step goes: {format_time(step.step_s)} on {config.gpus:,} {result['cluster'].gpu}",
                f"memory per GPU: {format_bytes(step.memory.total_bytes)} of {format_bytes(step.memory.capacity_bytes)}")

    @styled
    def draw(self, result):
        top, bottom = self.axes
        if "error" in result:
            for ax in self.axes:
                ax.set_axis_off()
            top.text(0.5, 0.5, f"not possible: {result['asked']}\n(see the line above)", ha="center",
                     va="center", transform=top.transAxes)
            return
        for ax in self.axes:
            ax.set_axis_on()
        step = result["step"]
        training_breakdown_plot([""], [step], ax=top, normalize=True)
        top.legend(loc="center left", bbox_to_anchor=(1.01, 0.5), fontsize=7.5)
        top.set_yticks([])
        memory_breakdown_plot([""], [step.memory], ax=bottom)
        bottom.set_yticks([])
        bottom.set_xlim(0, _memory_limit_gb(step.memory.total_bytes, step.memory.capacity_bytes))
        bottom.legend(loc="center left", bbox_to_anchor=(1.01, 0.5), fontsize=7.5)
        first, second = self._titles(result)
        top.set_title(first, loc="left", fontsize=10)
        bottom.set_title(second, loc="left", fontsize=10)

    @styled
    def redraw(self, result):
        # In place: the six step shares, the four memory parts, their labels and the titles. A new
        # memory scale (the total crossed a power of two of the HBM) or GPU means a full draw.
        top, bottom = self.axes
        if "error" in result or not top.axison:
            return None
        step = result["step"]
        memory = step.memory
        capacity_lines = [line for line in bottom.lines if line.get_linestyle() == "--"]
        if (len(top.patches) != len(TrainingStep.PARTS) or len(bottom.patches) != 4 or len(top.texts) != 1
                or len(bottom.texts) != 1 or len(capacity_lines) != 1
                or capacity_lines[0].get_xdata()[0] != memory.capacity_bytes / 1e9
                or bottom.get_xlim()[1] != _memory_limit_gb(memory.total_bytes, memory.capacity_bytes)):
            return None
        left = 0.0
        for bar, part in zip(top.patches, TrainingStep.PARTS):
            width = 100 * float(getattr(step, part)) / float(step.step_s)
            bar.set_x(left)
            bar.set_width(width)
            left += width
        top.texts[0].set_x(left)
        top.texts[0].set_text(f"  MFU {float(step.mfu):.0%}")
        left = 0.0
        for bar, part in zip(bottom.patches, ("weights_bytes", "gradients_bytes", "optimizer_bytes",
                                              "activations_bytes")):
            width = float(getattr(memory, part)) / 1e9
            bar.set_x(left)
            bar.set_width(width)
            left += width
        bottom.texts[0].set_x(memory_label_x(memory))
        bottom.texts[0].set_text("  fits" if memory.fits else f"  short by {float(memory.shortfall_bytes) / 1e9:.0f} GB")
        first, second = self._titles(result)
        titles = [top.set_title(first, loc="left", fontsize=10), bottom.set_title(second, loc="left", fontsize=10)]
        return [*top.patches, *top.texts, *bottom.patches, *bottom.texts, *titles]


class PipelineSchedulePanel(Panel):
    """Pipeline stages, microbatches and model chunks per stage → the schedule and its bubble.

    Simulated pass by pass by :func:`~interconnect_lab.training.pipeline_schedule`;
    the readout compares the simulated bubble with SC21's (p-1)/(vm).

    Parameters
    ----------
    pipeline_parallel, microbatches, interleave : int
        Initial p, m and v.
    full_recompute : bool
        Backward passes recompute the forward pass (3 units instead of 2).
    """

    #: The rendered book's grid (each schedule is many bars).
    static_grid = {"pipeline_parallel": (2, 4, 8), "microbatches": (1, 4, 8, 16, 32), "interleave": (1, 2, 4)}

    INTERLEAVES = (1, 2, 3, 4)

    def __init__(self, *, pipeline_parallel=4, microbatches=8, interleave=1, full_recompute=False):
        # Dragging m redraws in place; a new p or v redraws the whole figure, so those update on release.
        self.controls = {
            "pipeline_parallel": widgets.IntSlider(value=pipeline_parallel, min=1, max=8, continuous_update=False,
                                                   description="pipeline stages p", **_CONTROL),
            "microbatches": widgets.IntSlider(value=microbatches, min=1, max=32, continuous_update=True,
                                              description="microbatches m", **_CONTROL),
            "interleave": widgets.SelectionSlider(options=list(self.INTERLEAVES), value=interleave,
                                                  continuous_update=False, description="chunks per stage v",
                                                  **_CONTROL),
            "full_recompute": widgets.Checkbox(value=full_recompute, indent=False,
                                               description="full recomputation"),
        }
        super().__init__(figure_size_in=(8.0, 3.4))

    def compute(self, *, pipeline_parallel, microbatches, interleave, full_recompute):
        """The schedule, or why it cannot be built."""
        try:
            schedule = pipeline_schedule(pipeline_parallel, microbatches, interleave,
                                         backward_ratio=3.0 if full_recompute else 2.0)
        except ValueError as error:
            return {"error": refusal_text(error),
                    "asked": f"p = {pipeline_parallel}, m = {microbatches}, v = {interleave}"}
        return {"schedule": schedule,
                "formula": pipeline_bubble_fraction(pipeline_parallel, microbatches, interleave)}

    def describe(self, result):
        if "error" in result:
            return f"<b>Not possible</b> with {result['asked']}. {html.escape(result['error'])}"
        schedule = result["schedule"]
        p, m, v = schedule.pipeline_parallel, schedule.microbatches, schedule.interleave
        idle = schedule.makespan - schedule.ideal
        return (f"<b>Bubble {schedule.bubble_fraction:.1%}</b> of the ideal time (simulated); "
                f"(p&minus;1)/(v&middot;m) = {p - 1}/({v}&middot;{m}) = {result['formula']:.1%}. Each stage computes for "
                f"{schedule.ideal:g} units (a forward pass is 1, a backward {schedule.backward_ratio:g}) and idles "
                f"{idle:g} of {schedule.makespan:g}; it sends {2 * v * m} boundary transfers per iteration"
                + (f", {v}&times; as many as without interleaving." if v > 1 else "."))

    @styled
    def draw(self, result):
        ax = self.axes
        if "error" in result:
            ax.set_axis_off()
            ax.text(0.5, 0.5, f"{result['asked']}: not possible (see the line above)", ha="center", va="center",
                    transform=ax.transAxes)
            return
        ax.set_axis_on()
        pipeline_schedule_plot(result["schedule"], ax=ax)

    @styled
    def redraw(self, result):
        # In place while the stages, the time axis and the absence of microbatch labels stay:
        # the 2p collections of passes and the title. An interleaved schedule (v > 1) also
        # hatches its later chunks' passes, so it is drawn afresh.
        ax = self.axes
        if "error" in result or not ax.axison:
            return None
        schedule = result["schedule"]
        p = schedule.pipeline_parallel
        collections = ax.collections
        if (len(collections) != 2 * p or schedule.interleave > 1 or ax.texts or schedule.stage.size <= 64
                or ax.get_xlim()[1] != schedule_time_limit(schedule)):
            return None
        for stage in range(p):
            for kind, backward in enumerate((False, True)):
                bars = schedule_bars(schedule, stage, backward)
                y0, y1 = p - 1 - stage - 0.38, p - 1 - stage + 0.38
                collections[2 * stage + kind].set_verts(
                    [[(x, y0), (x, y1), (x + width, y1), (x + width, y0), (x, y0)] for x, width in bars])
        return [*collections, ax.set_title(schedule_title(schedule), loc="left", fontsize=10)]


class ZeroPlusPlusPanel(Panel):
    """ZeRO-3 against ZeRO++ (each technique on or off) as the network gets faster or slower.

    A model trained with ZeRO-3 data parallelism alone (no tensor or pipeline
    parallelism, full recomputation, one sequence per GPU per step) on A100
    nodes of 8 GPUs whose network is every per-GPU bandwidth of
    :func:`~interconnect_lab.training.scale_out_variants`. MFU from
    :func:`~interconnect_lab.training.network_scan`, volumes from
    :func:`~interconnect_lab.training.zero_communication_volume`.

    Parameters
    ----------
    model : str
        Initial model.
    bandwidth_gbit_per_s : float
        Initial network bandwidth per GPU, one direction [Gb/s].
    quantized_weights, hierarchical_partition, quantized_gradients : bool
        Initial ZeRO++ techniques (qwZ, hpZ, qgZ).
    """

    #: The rendered book's grid: two models, four network rates (each combination runs training steps).
    static_grid = {"model": ("GPT-3 175B", "Llama 3 70B"), "network": (0, 2, 4, 6)}

    MODELS = ("GPT-3 175B", "Llama 2 70B", "Llama 3 70B", "Llama 3 8B")
    CLUSTER = "MegaScale"
    GPUS = 384

    def __init__(self, *, model="GPT-3 175B", bandwidth_gbit_per_s=50.0, quantized_weights=True,
                 hierarchical_partition=True, quantized_gradients=True):
        self.variants = scale_out_variants(self.CLUSTER)
        options = [(f"{v.scale_out_bytes_per_s / u.Gbit_per_s:g} Gb/s", index) for index, v in enumerate(self.variants)]
        rates = [v.scale_out_bytes_per_s / u.Gbit_per_s for v in self.variants]
        if bandwidth_gbit_per_s not in rates:
            raise ValueError(f"bandwidth_gbit_per_s = {bandwidth_gbit_per_s} Gb/s is not offered; choose one of {rates}")
        self.controls = {
            "model": widgets.Dropdown(options=list(self.MODELS), value=model, description="model", **_CONTROL),
            "network": widgets.SelectionSlider(options=options, value=rates.index(bandwidth_gbit_per_s),
                                               description="network per GPU", continuous_update=False,
                                               **_CONTROL),
            "quantized_weights": widgets.Checkbox(value=quantized_weights, indent=False,
                                                  description="qwZ: INT8 weight all-gather"),
            "hierarchical_partition": widgets.Checkbox(value=hierarchical_partition, indent=False,
                                                       description="hpZ: a weight copy in every node"),
            "quantized_gradients": widgets.Checkbox(value=quantized_gradients, indent=False,
                                                    description="qgZ: INT4 gradient reduction"),
        }
        super().__init__(figure_size_in=(7.5, 3.2))

    def compute(self, *, model, network, quantized_weights, hierarchical_partition, quantized_gradients):
        """Both scans, the volumes and the chosen network."""
        config = parallel_config(self.GPUS, global_batch_size=self.GPUS, recompute="full", zero_stage=3)
        switches = {"quantized_weights": quantized_weights, "hierarchical_partition": hierarchical_partition,
                    "quantized_gradients": quantized_gradients}
        parts = [name for name, on in zip(("qwZ", "hpZ", "qgZ"), switches.values()) if on]
        base = software("DeepSpeed ZeRO-3")
        chosen = base.replace(name="ZeRO++ (" + (", ".join(parts) or "no technique on") + ")",
                              zero_plus_plus=switches)
        return {"model": model, "index": network, "chosen_name": chosen.name,
                "scans": {"ZeRO-3": network_scan(model, self.CLUSTER, config, base),
                          chosen.name: network_scan(model, self.CLUSTER, config, chosen)},
                "volumes": (zero_communication_volume(3), zero_communication_volume(3, **switches)),
                "model_bytes": 2.0 * parameter_count(MODELS[model])}

    def describe(self, result):
        plain, chosen = result["scans"].values()
        i = result["index"]
        before, after = result["volumes"]
        size = result["model_bytes"]
        return (f"Across nodes, per GPU per iteration: ZeRO-3 moves {before.cross_node:g}M = "
                f"{format_bytes(before.cross_node * size)}, {result['chosen_name']} {after.cross_node:g}M = "
                f"{format_bytes(after.cross_node * size)} (M = the model's {format_bytes(size)} of 16-bit weights). "
                f"At {plain.bandwidth_bytes_per_s[i] / u.Gbit_per_s:g} Gb/s per GPU ({self.variants[i].nics_per_node} "
                f"{self.variants[i].scale_out_link} ports per {self.variants[i].gpus_per_node}-GPU node): MFU "
                f"<b>{plain.mfu[i]:.1%} &rarr; {chosen.mfu[i]:.1%}</b>, "
                f"<b>{plain.step_s[i] / chosen.step_s[i]:.2f}&times;</b> the throughput; exposed data-parallel time "
                f"{format_time(plain.data_parallel_s[i])} &rarr; {format_time(chosen.data_parallel_s[i])} per step.")

    def _title(self, result):
        return f"{result['model']} on {self.GPUS} A100, ZeRO-3 data parallelism, one sequence per GPU"

    @styled
    def draw(self, result):
        scans = result["scans"]
        first = next(iter(scans.values()))
        network_scan_plot(scans, ax=self.axes, marker_bytes_per_s=first.bandwidth_bytes_per_s[result["index"]])
        self.axes.set_ylim(0, 70)
        self.axes.set_title(self._title(result), loc="left", fontsize=10)

    @styled
    def redraw(self, result):
        # In place: the two curves, the marker line, the legend's second label and the title.
        ax = self.axes
        if len(ax.lines) != 3 or ax.get_legend() is None:
            return None
        scans = list(result["scans"].items())
        for line, (_, scan) in zip(ax.lines[:2], scans):
            line.set_ydata(100 * scan.mfu)
        x = scans[0][1].bandwidth_bytes_per_s[result["index"]] * 8 / 1e9
        ax.lines[2].set_xdata([x, x])
        legend = ax.get_legend()
        legend.texts[1].set_text(scans[1][0])
        title = ax.set_title(self._title(result), loc="left", fontsize=10)
        return [*ax.lines, legend, title]


# Chapter 2: tensor parallelism over NVLink, and an NVL72 rack against 8-GPU nodes ---------------

# The chapter-2 panels' controls are wider than the run panel's columns.
_TENSOR_PARALLEL_CONTROL = {"style": {"description_width": "15em"}, "layout": widgets.Layout(width="40em")}

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

    Parameters
    ----------
    hidden_size : int
        Model width h, a multiple of 128 [-].
    """
    return TransformerModel.gpt(layers=_LAYERS, hidden_size=hidden_size, heads=hidden_size // _HEAD_DIM,
                                vocabulary_size=_VOCABULARY, sequence_length=_SEQUENCE,
                                name=f"GPT-style, h = {hidden_size:,}")


def _nvlink_gpus():
    return [name for name, g in catalog.GPUS.items()
            if g.scale_up_link is not None and catalog.link(g.scale_up_link).family == "NVLink"]


def _nccl_prices(link) -> bool:
    """Whether the collective model prices ``link``: NCCL's tables start at NVLink 2."""
    try:
        collectives.nvlink_bytes_per_s(link)
    except ValueError:
        return False
    return True


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
        links = [name for name, entry in catalog.LINKS.items() if entry.family == "NVLink" and _nccl_prices(name)]
        self.controls = {
            "tensor_parallel": widgets.SelectionSlider(options=list(DEGREES), value=tensor_parallel,
                                                       description="tensor-parallel degree t",
                                                       continuous_update=True, **_TENSOR_PARALLEL_CONTROL),
            "hidden_size": widgets.SelectionSlider(options=[(f"{h:,}", h) for h in WIDTHS], value=hidden_size,
                                                   description="model width h", continuous_update=True,
                                                   **_TENSOR_PARALLEL_CONTROL),
            "link": widgets.Dropdown(
                options=[(f"{name}: {catalog.link(name).per_gpu_per_direction_bytes_per_s / u.GB_per_s:,.0f} GB/s "
                          "per GPU per direction", name) for name in links],
                value=link, description="NVLink generation", **_TENSOR_PARALLEL_CONTROL),
            "gpu": widgets.Dropdown(
                options=[(f"{name} ({catalog.gpu(name).bf16_flop_per_s / u.TFLOP_per_s:,.0f} TFLOP/s BF16)", name)
                         for name in _nvlink_gpus()],
                value=gpu, description="GPU (dense BF16 peak)", **_TENSOR_PARALLEL_CONTROL),
            "software": widgets.Dropdown(options=list(SOFTWARE_CHOICES), value=software,
                                         description="training stack", **_TENSOR_PARALLEL_CONTROL),
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
                                                       continuous_update=True, **_TENSOR_PARALLEL_CONTROL),
            "pipeline_parallel": widgets.SelectionSlider(options=list(self.STAGES), value=pipeline_parallel,
                                                         description="pipeline stages p",
                                                         continuous_update=True, **_TENSOR_PARALLEL_CONTROL),
            "software": widgets.Dropdown(options=list(SOFTWARE_CHOICES), value=software,
                                         description="training stack", **_TENSOR_PARALLEL_CONTROL),
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
            return {"error": refusal_text(error), "t": tensor_parallel, "p": pipeline_parallel}
        return {"steps": steps, "config": config, "t": tensor_parallel, "p": pipeline_parallel}

    def describe(self, result):
        if "error" in result:
            return f"<b>t = {result['t']}, p = {result['p']} is not possible.</b> {html.escape(result['error'])}"
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
        named = [not c.get_label().startswith("_") for c in ax.containers]
        if named != [any(float(getattr(step, part)) > 0 for step in steps) for part in TrainingStep.PARTS]:
            return None   # the legend names the parts that are drawn: another set draws again
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
