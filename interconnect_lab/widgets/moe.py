"""Panel for chapter 11: an MoE layer's dispatch and combine on an 8-GPU or a 72-GPU NVLink domain."""

from __future__ import annotations

import html
import dataclasses

import ipywidgets as widgets

from ..moe import moe_layer_step, moe_model, routing_load
from ..plotting.moe import moe_layer_plot, routing_load_plot, update_moe_layer_plot, update_routing_load_plot
from ..plotting.style import styled
from ..units import format_time
from .panel import Panel
from .static import refusal_text

__all__ = ["MoEPanel", "DOMAINS", "EXPERTS", "TOP_K", "TOKENS", "EP_DEGREES", "SKEWS"]

_CONTROL = {"style": {"description_width": "15em"}, "layout": widgets.Layout(width="40em")}

#: Scale-up domains the panel offers: label → (GPUs per domain, catalog GPU).
DOMAINS = {"8 GPUs (HGX H100, NVLink 4)": (8, "H100 SXM"), "72 GPUs (GB200 NVL72, NVLink 5)": (72, "GB200")}
#: Routed experts per layer [-].
EXPERTS = (8, 16, 32, 64, 128, 256)
#: Experts per token [-].
TOP_K = (1, 2, 4, 6, 8)
#: Tokens each GPU routes per micro-batch [token].
TOKENS = (128, 256, 512, 1024, 2048, 4096, 8192, 16384)
#: GPUs in the expert-parallel group [-].
EP_DEGREES = (8, 16, 32, 64, 128, 256)
#: Zipf exponents of expert popularity [-].
SKEWS = (0.0, 0.1, 0.2, 0.3, 0.5, 0.7, 1.0)


class MoEPanel(Panel):
    """Experts, top-k, tokens, EP degree, domain and skew → dispatch and combine, and their share of the layer.

    The layer is DeepSeek-V3's (hidden size 7,168, experts of width 2,048)
    with the chosen number of experts and top-k; the load on the busiest GPU
    comes from one seeded routing draw
    (:func:`interconnect_lab.moe.routing_load`); times from
    :func:`interconnect_lab.moe.moe_layer_step` (hierarchical all-to-all, one
    400 Gb/s InfiniBand port per GPU, FP8 dispatch, BF16 combine, forward pass,
    no overlap).
    """

    #: Values the static book precomputes (the initial ones are always kept): 192 combinations.
    static_grid = {"experts": (64, 256), "top_k": (2, 8), "tokens_per_gpu": (1024, 4096), "ep_degree": (8, 16, 64, 128),
                   "skew": (0.0, 0.2, 1.0)}

    BASE_MODEL = "DeepSeek-V3"
    NETWORK = "InfiniBand NDR"
    #: y-axis top of the load chart, as a multiple of the even share [-].
    LOAD_LIMIT = 6.0

    def __init__(self, *, experts=256, top_k=8, tokens_per_gpu=4096, ep_degree=64,
                 domain="8 GPUs (HGX H100, NVLink 4)", skew=0.2):
        self.controls = {
            "experts": widgets.SelectionSlider(options=list(EXPERTS), value=experts, description="routed experts",
                                               continuous_update=True, **_CONTROL),
            "top_k": widgets.SelectionSlider(options=list(TOP_K), value=top_k, description="experts per token (top-k)",
                                             continuous_update=True, **_CONTROL),
            "tokens_per_gpu": widgets.SelectionSlider(options=[(f"{t:,}", t) for t in TOKENS], value=tokens_per_gpu,
                                                      description="tokens per GPU", continuous_update=True,
                                                      **_CONTROL),
            "ep_degree": widgets.SelectionSlider(options=list(EP_DEGREES), value=ep_degree,
                                                 description="expert-parallel GPUs", continuous_update=True,
                                                 **_CONTROL),
            "domain": widgets.Dropdown(options=list(DOMAINS), value=domain, description="NVLink domain",
                                       **_CONTROL),
            "skew": widgets.SelectionSlider(options=list(SKEWS), value=skew,
                                            description="routing skew (Zipf exponent)", continuous_update=True,
                                            **_CONTROL),
        }
        super().__init__(figure_size_in=(9.0, 3.3), subplots={"ncols": 2, "width_ratios": [1.5, 1]})

    def compute(self, *, experts, top_k, tokens_per_gpu, ep_degree, domain, skew):
        """The layer's step and the routing draw, or why the choice is not possible."""
        size, gpu = DOMAINS[domain]
        try:
            if top_k > experts:
                raise ValueError(f"top_k = {top_k} is not valid with {experts} experts: a token picks "
                                 "distinct experts, at most as many as there are")
            model = dataclasses.replace(moe_model(self.BASE_MODEL), name=f"{experts} experts, top-{top_k}",
                                        experts=experts, top_k=top_k, max_nodes_per_token=None)
            load = routing_load(tokens_per_gpu * ep_degree, experts, top_k, ep_degree, skew=skew, seed=0)
            step = moe_layer_step(model, tokens_per_gpu, ep_degree, gpu=gpu, domain_size=size,
                                  network_link=self.NETWORK, imbalance_factor=load.imbalance_factor)
        except ValueError as error:
            return {"error": refusal_text(error)}
        return {"step": step, "load": load, "domain": domain}

    def describe(self, result):
        if "error" in result:
            return f"<b>Not possible.</b> {html.escape(result['error'])}"
        step, load = result["step"], result["load"]
        d, c = step.dispatch, step.combine
        return (f"Busiest GPU carries <b>{load.imbalance_factor:.2f}×</b> the even share. Dispatch "
                f"<b>{format_time(d.time_s)}</b> (bottleneck: {d.bottleneck}), combine "
                f"<b>{format_time(c.time_s)}</b>, against {format_time(step.compute_s)} of compute: "
                f"without overlap the all-to-alls are <b>{step.communication_share:.0%}</b> of the layer's "
                f"{format_time(step.step.step_s)}.")

    def _title(self, result):
        step = result["step"]
        return f"{step.model}, {step.ep_degree} GPUs, domains of {step.domain_size}"

    @styled
    def draw(self, result):
        left, right = self.axes
        if "error" in result:
            for ax in (left, right):
                ax.set_axis_off()
            left.text(0.5, 0.5, "not possible: see the line above", ha="center", va="center",
                      transform=left.transAxes)
            return
        for ax in (left, right):
            ax.set_axis_on()
        moe_layer_plot(result["step"], ax=left, title=self._title(result))
        routing_load_plot(result["load"], ax=right, limit=self.LOAD_LIMIT, title="load per GPU (one draw)")

    @styled
    def redraw(self, result):
        left, right = self.axes
        if "error" in result or not left.axison or not left.patches:
            return None
        bars = update_routing_load_plot(right, result["load"])
        if bars is None:
            return None
        changed = update_moe_layer_plot(left, result["step"])
        changed.append(left.set_title(self._title(result), loc="left", fontsize=9))
        return changed + bars
