"""Panel for chapter 12: a serving deployment's TTFT and ITL and the network's share of each."""

from __future__ import annotations

import html
import ipywidgets as widgets

from ..inference import INFERENCE_MODELS, serving_deployment
from ..plotting.inference import serving_plot, update_serving_plot
from ..plotting.style import bar_legend_is_current, styled
from ..units import format_bytes, format_time
from .panel import Panel
from .static import refusal_text

__all__ = ["ServingPanel", "TENSOR_PARALLEL", "BATCHES", "CONTEXTS", "KV_LINKS"]

_CONTROL = {"style": {"description_width": "15em"}, "layout": widgets.Layout(width="40em")}

#: Tensor-parallel degrees [-].
TENSOR_PARALLEL = (1, 2, 4, 8)
#: Sequences per decode step [-].
BATCHES = (1, 4, 16, 64, 256)
#: Prompt (and context) lengths [token].
CONTEXTS = (512, 2048, 8192, 32768, 131072)
#: What carries the KV cache: a catalog port, or nothing (prefill and decode on the same GPUs).
KV_LINKS = {"co-located (no transfer)": None, "InfiniBand HDR (200 Gb/s)": "InfiniBand HDR",
            "InfiniBand NDR (400 Gb/s)": "InfiniBand NDR", "Ethernet 100G": "Ethernet 100G",
            "InfiniBand XDR (800 Gb/s)": "InfiniBand XDR"}


class ServingPanel(Panel):
    """Model, TP degree, batch, context, KV link and transfer mode → TTFT and ITL, with the network's share.

    Everything comes from :func:`interconnect_lab.inference.serving_deployment`
    on H100 SXM (8 per NVLink domain): prefill of one prompt of the chosen
    length, decode steps of ``batch`` sequences with that context.
    """

    GPU = "H100 SXM"
    #: Values the static book precomputes (the initial ones are always kept): 972 combinations.
    static_grid = {"model": ("Llama 3 8B", "Llama 3 70B", "Llama 3 405B"), "tensor_parallel": (2, 4, 8),
                   "batch": (1, 16, 64), "context_tokens": (2048, 8192, 32768),
                   "kv_link": ("co-located (no transfer)", "InfiniBand NDR (400 Gb/s)", "Ethernet 100G")}

    def __init__(self, *, model="Llama 3 70B", tensor_parallel=8, batch=16, context_tokens=8192,
                 kv_link="InfiniBand NDR (400 Gb/s)", layerwise=False, algorithm="ring"):
        self.controls = {
            "model": widgets.Dropdown(options=list(INFERENCE_MODELS), value=model, description="model", **_CONTROL),
            "tensor_parallel": widgets.SelectionSlider(options=list(TENSOR_PARALLEL), value=tensor_parallel,
                                                       description="tensor-parallel GPUs", continuous_update=True,
                                                       **_CONTROL),
            "batch": widgets.SelectionSlider(options=list(BATCHES), value=batch, description="sequences per step",
                                             continuous_update=True, **_CONTROL),
            "context_tokens": widgets.SelectionSlider(options=[(f"{c:,}", c) for c in CONTEXTS],
                                                      value=context_tokens, description="prompt and context [tokens]",
                                                      continuous_update=True, **_CONTROL),
            "kv_link": widgets.Dropdown(options=list(KV_LINKS), value=kv_link, description="KV cache moves over",
                                        **_CONTROL),
            "layerwise": widgets.Checkbox(value=layerwise, description="send the KV cache layer by layer",
                                          indent=False),
            "algorithm": widgets.Dropdown(options=[("ring (NCCL)", "ring"), ("NVLink SHARP", "nvls")],
                                          value=algorithm, description="all-reduce", **_CONTROL),
        }
        super().__init__(figure_size_in=(8.0, 2.7))

    def compute(self, *, model, tensor_parallel, batch, context_tokens, kv_link, layerwise, algorithm):
        """The deployment, or why it is not possible."""
        link = KV_LINKS[kv_link]
        try:
            deployment = serving_deployment(model, self.GPU, tensor_parallel=tensor_parallel, batch=batch,
                                            prompt_tokens=context_tokens, disaggregated=link is not None,
                                            kv_link=link or "InfiniBand NDR", layerwise=layerwise,
                                            algorithm=algorithm)
        except ValueError as error:
            return {"error": refusal_text(error)}
        return {"deployment": deployment}

    def describe(self, result):
        if "error" in result:
            return f"<b>Not possible.</b> {html.escape(result['error'])}"
        d = result["deployment"]
        kv = "" if d.kv is None else (f" The {format_bytes(d.kv.kv_bytes)} KV cache takes "
                                      f"{format_time(d.kv.total_s)} to move; the first token waits "
                                      f"{format_time(d.kv_exposed_s)} of it.")
        fits = "" if d.fits_hbm else " <b>Weights and KV cache do not fit in HBM</b>: fewer sequences or more GPUs."
        return (f"<b>TTFT {format_time(d.ttft_s)}</b>, network {d.ttft_network_share:.0%}; "
                f"<b>ITL {format_time(d.itl_s)}</b>, network {d.itl_network_share:.0%} "
                f"({d.decode.all_reduces_per_token} all-reduces of {format_bytes(d.decode.message_bytes)} per token); "
                f"{d.tokens_per_s:,.0f} tokens/s per group.{kv}{fits}")

    def _title(self, result):
        d = result["deployment"]
        return f"{d.model} on {d.tensor_parallel} {d.gpu}, {d.batch} sequences"

    @styled
    def draw(self, result):
        ax = self.axes
        if "error" in result:
            ax.set_axis_off()
            ax.text(0.5, 0.5, "not possible: see the line above", ha="center", va="center", transform=ax.transAxes)
            return
        ax.set_axis_on()
        serving_plot(result["deployment"], ax=ax, title=self._title(result))

    @styled
    def redraw(self, result):
        ax = self.axes
        if "error" in result or not ax.axison or not ax.patches:
            return None
        changed = update_serving_plot(ax, result["deployment"])
        if not bar_legend_is_current(ax):
            return None   # another set of parts is drawn: the legend is drawn again with them
        changed.append(ax.set_title(self._title(result), loc="left", fontsize=9))
        return changed
