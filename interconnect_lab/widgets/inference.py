"""Panels for chapter 12: a TP deployment's TTFT and ITL, a wide expert-parallel decode step, and TTFT with
KV-cache tiers across the network."""

from __future__ import annotations

import html
import ipywidgets as widgets

from ..collectives import EXPERT_PARALLEL_KERNELS
from ..inference import (
    INFERENCE_MODELS, KV_CACHE_FORMATS, KV_TIERS, SERVING_ENGINES, disaggregated_ttft,
    serving_deployment, wide_ep_decode_step,
)
from ..plotting.inference import (
    serving_plot, ttft_tiers_plot, update_serving_plot, update_ttft_tiers_plot, update_wide_ep_plot, wide_ep_plot,
)
from ..plotting.style import bar_legend_is_current, styled
from ..units import format_bytes, format_time
from .panel import Panel
from .static import refusal_text

__all__ = ["ServingPanel", "TENSOR_PARALLEL", "BATCHES", "CONTEXTS", "KV_LINKS", "WideEPPanel", "WIDE_EP_SYSTEMS",
           "EP_DEGREES", "WIDE_EP_BATCHES", "WIDE_EP_CONTEXTS", "KVTierPanel", "TIER_MODELS", "PROMPTS",
           "CACHED_FRACTIONS"]

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


#: How the readouts name what runs.
_MECHANISM = {"one_shot": "one-shot kernel", "two_shot": "two-shot kernel", "multimem": "NVLink SHARP (multimem)",
              "nccl_symmetric": "NCCL symmetric kernel", "nccl": "NCCL", "none": "none on one GPU"}


class ServingPanel(Panel):
    """Model, TP degree, batch, context, KV link and transfer mode → TTFT and ITL, with the network's share.

    Everything comes from :func:`interconnect_lab.inference.serving_deployment`
    on H100 SXM (8 per NVLink domain): prefill of one prompt of the chosen
    length, decode steps of ``batch`` sequences with that context.
    """

    GPU = "H100 SXM"
    #: Values the static book precomputes (the initial ones are always kept): 972 combinations.
    static_grid = {"model": ("Llama 3 8B", "Llama 3 70B"), "tensor_parallel": (2, 4, 8),
                   "batch": (1, 16, 64), "context_tokens": (2048, 8192, 32768),
                   "kv_link": ("co-located (no transfer)", "InfiniBand NDR (400 Gb/s)", "Ethernet 100G"),
                   "engine": ("vLLM", "NCCL")}

    def __init__(self, *, model="Llama 3 70B", tensor_parallel=8, batch=16, context_tokens=8192,
                 kv_link="InfiniBand NDR (400 Gb/s)", layerwise=False, engine="vLLM"):
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
            "engine": widgets.Dropdown(options=list(SERVING_ENGINES), value=engine, description="all-reduces run by",
                                       **_CONTROL),
        }
        super().__init__(figure_size_in=(8.0, 2.7))

    def compute(self, *, model, tensor_parallel, batch, context_tokens, kv_link, layerwise, engine):
        """The deployment, or why it is not possible."""
        link = KV_LINKS[kv_link]
        try:
            deployment = serving_deployment(model, self.GPU, tensor_parallel=tensor_parallel, batch=batch,
                                            prompt_tokens=context_tokens, disaggregated=link is not None,
                                            kv_link=link or "InfiniBand NDR", layerwise=layerwise,
                                            engine=engine)
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
                f"({d.decode.all_reduces_per_token} all-reduces of {format_bytes(d.decode.message_bytes)} per token, "
                f"{_MECHANISM[d.decode.mechanism]}); "
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


#: Machines of a wide-EP decode deployment: (GPU, GPUs per NVLink domain).
WIDE_EP_SYSTEMS = {"H800 servers (8 per server), InfiniBand NDR": ("H800 SXM", 8),
                   "H100 servers (8 per server), InfiniBand NDR": ("H100 SXM", 8),
                   "GB200 NVL72 racks (72 per rack), InfiniBand NDR": ("GB200", 72)}
#: Expert-parallel degrees that divide DeepSeek-V3's 256 routed plus 32 redundant experts [-].
EP_DEGREES = (8, 16, 32, 48, 72, 144, 288)
#: Sequences each GPU decodes [-].
WIDE_EP_BATCHES = (16, 32, 64, 128, 256)
#: Tokens cached per sequence [token].
WIDE_EP_CONTEXTS = (1024, 2048, 4096, 8192, 32768)


#: The expert-parallel kernels the wide-EP panel offers: DeepSeek's decode kernels (GPU-initiated) and NCCL's
#: host-launched all-to-all, the two ways a decode step's dispatch can start.
DECODE_KERNELS = ("low_latency", "nccl")


class WideEPPanel(Panel):
    """Machine, EP degree, batch, context, KV format, overlap and expert-parallel kernel → one wide-EP decode step of DeepSeek-V3.

    Everything comes from :func:`interconnect_lab.inference.wide_ep_decode_step`; the
    figure splits one MoE layer into compute, dispatch and combine, and the layer as it runs.
    """

    static_grid = {"ep_degree": (8, 32, 72, 144), "batch_per_gpu": (32, 64, 128, 256),
                   "context_tokens": (2048, 8192, 32768)}

    def __init__(self, *, system="H800 servers (8 per server), InfiniBand NDR", ep_degree=144, batch_per_gpu=128,
                 context_tokens=4096, kv_format="BF16", overlap=True, kernel="low_latency"):
        self.controls = {
            "system": widgets.Dropdown(options=list(WIDE_EP_SYSTEMS), value=system, description="machines",
                                       **_CONTROL),
            "ep_degree": widgets.SelectionSlider(options=list(EP_DEGREES), value=ep_degree,
                                                 description="expert-parallel GPUs", continuous_update=True,
                                                 **_CONTROL),
            "batch_per_gpu": widgets.SelectionSlider(options=list(WIDE_EP_BATCHES), value=batch_per_gpu,
                                                     description="sequences per GPU", continuous_update=True,
                                                     **_CONTROL),
            "context_tokens": widgets.SelectionSlider(options=[(f"{c:,}", c) for c in WIDE_EP_CONTEXTS],
                                                      value=context_tokens, description="context [tokens]",
                                                      continuous_update=True, **_CONTROL),
            "kv_format": widgets.Dropdown(options=list(KV_CACHE_FORMATS), value=kv_format,
                                          description="KV cache format", **_CONTROL),
            "overlap": widgets.Checkbox(value=overlap, description="two micro-batches overlap compute and network",
                                        indent=False),
            "kernel": widgets.Dropdown(options=[(f"{name.replace('_', ' ')}: {k.implementations.split(',')[0]}", name)
                                                for name, k in EXPERT_PARALLEL_KERNELS.items()
                                                if name in DECODE_KERNELS],
                                       value=kernel, description="dispatch and combine", **_CONTROL),
        }
        super().__init__(figure_size_in=(8.0, 3.0))

    def compute(self, *, system, ep_degree, batch_per_gpu, context_tokens, kv_format, overlap, kernel):
        """The decode step, or why it is not possible."""
        gpu, domain = WIDE_EP_SYSTEMS[system]
        try:
            step = wide_ep_decode_step("DeepSeek-V3", gpu, ep_degree=ep_degree, domain_size=domain,
                                       batch_per_gpu=batch_per_gpu, context_tokens=context_tokens,
                                       kv_format=kv_format, overlap=overlap, kernel=kernel)
        except ValueError as error:
            return {"error": refusal_text(error)}
        return {"step": step}

    def describe(self, result):
        if "error" in result:
            return f"<b>Not possible:</b> {result['error']}"
        d = result["step"]
        fits = "" if d.fits_hbm else (f" <b>Does not fit</b>: {format_bytes(d.weights_bytes)} of weights and "
                                      f"{format_bytes(d.kv_bytes)} of KV cache exceed the GPU's HBM.")
        return (f"<b>ITL {format_time(d.itl_s)}</b>, {d.tokens_per_s_per_gpu:,.0f} tokens/s per GPU; "
                f"waiting for dispatch and combine: {d.communication_share:.0%} of the step. Per MoE layer each GPU "
                f"sends {format_bytes(d.network_bytes)} through the network and {format_bytes(d.nvlink_bytes)} over "
                f"NVLink.{fits}")

    def _title(self, result):
        d = result["step"]
        return f"DeepSeek-V3, EP{d.ep_degree} on {d.gpu}, {d.batch_per_gpu} sequences per GPU"

    @styled
    def draw(self, result):
        ax = self.axes
        if "error" in result:
            ax.set_axis_off()
            ax.text(0.5, 0.5, "not possible: see the line above", ha="center", va="center", transform=ax.transAxes)
            return
        ax.set_axis_on()
        wide_ep_plot(result["step"], ax=ax, title=self._title(result))

    @styled
    def redraw(self, result):
        ax = self.axes
        if "error" in result or not ax.axison or not ax.patches:
            return None
        changed = update_wide_ep_plot(ax, result["step"])
        if not bar_legend_is_current(ax):
            return None   # another set of parts is drawn: the legend is drawn again with them
        changed.append(ax.set_title(self._title(result), loc="left", fontsize=9))
        return changed


#: Models of the KV-tier panel.
TIER_MODELS = ("Llama 3 70B", "DeepSeek-V3")
#: Prompt lengths [token].
PROMPTS = (2048, 8192, 32768, 131072)
#: Shares of the prompt found in the tier [-].
CACHED_FRACTIONS = (0.0, 0.5, 0.9)
_TIER_LINKS = {"InfiniBand NDR (400 Gb/s)": "InfiniBand NDR", "InfiniBand XDR (800 Gb/s)": "InfiniBand XDR",
               "Ethernet 100G": "Ethernet 100G"}


class KVTierPanel(Panel):
    """Model, prompt, cached share, tier, link, KV format and layer-by-layer sending → TTFT against recomputing.

    Everything comes from :func:`interconnect_lab.inference.disaggregated_ttft` on H100
    (8 GPUs prefill a prompt): loading the cached prefix from the tier, prefilling the
    rest and moving the whole cache to the decode GPUs.
    """

    GPU = "H100 SXM"

    def __init__(self, *, model="Llama 3 70B", prompt_tokens=32768, cached_fraction=0.9, tier="host DRAM",
                 kv_link="InfiniBand NDR (400 Gb/s)", kv_format="BF16", layerwise=True):
        self.controls = {
            "model": widgets.Dropdown(options=list(TIER_MODELS), value=model, description="model", **_CONTROL),
            "prompt_tokens": widgets.SelectionSlider(options=[(f"{p:,}", p) for p in PROMPTS], value=prompt_tokens,
                                                     description="prompt [tokens]", continuous_update=True,
                                                     **_CONTROL),
            "cached_fraction": widgets.SelectionSlider(options=[(f"{c:.0%}", c) for c in CACHED_FRACTIONS],
                                                       value=cached_fraction, description="prompt already cached",
                                                       continuous_update=True, **_CONTROL),
            "tier": widgets.Dropdown(options=list(KV_TIERS), value=tier, description="cached prefix waits in",
                                     **_CONTROL),
            "kv_link": widgets.Dropdown(options=list(_TIER_LINKS), value=kv_link, description="each GPU's port",
                                        **_CONTROL),
            "kv_format": widgets.Dropdown(options=list(KV_CACHE_FORMATS), value=kv_format,
                                          description="KV cache format", **_CONTROL),
            "layerwise": widgets.Checkbox(value=layerwise, description="send the KV cache layer by layer",
                                          indent=False),
        }
        super().__init__(figure_size_in=(8.0, 2.8))

    def compute(self, *, model, prompt_tokens, cached_fraction, tier, kv_link, kv_format, layerwise):
        """The request's TTFT, or why it is not possible."""
        try:
            ttft = disaggregated_ttft(model, prompt_tokens, cached_fraction=cached_fraction, tier=tier, gpu=self.GPU,
                                      kv_link=_TIER_LINKS[kv_link], kv_format=kv_format, layerwise=layerwise)
        except ValueError as error:
            return {"error": refusal_text(error)}
        return {"ttft": ttft}

    def describe(self, result):
        if "error" in result:
            return f"<b>Not possible:</b> {result['error']}"
        r = result["ttft"]
        verdict = "saves" if r.saving >= 0 else "costs"
        return (f"<b>TTFT {format_time(r.ttft_s)}</b> with the cached prefix against {format_time(r.uncached_ttft_s)} "
                f"recomputing it: the cache {verdict} {abs(r.saving):.0%}. The prompt's KV cache is "
                f"{format_bytes(r.kv_bytes)}; loading the prefix takes {format_time(r.load_s)}, moving the cache to "
                f"decode {format_time(r.transfer.total_s)} ({format_time(r.transfer.exposed_s)} exposed).")

    def _title(self, result):
        r = result["ttft"]
        return f"{r.model}, {r.prompt_tokens:,.0f}-token prompt, prefix in {r.tier}"

    @styled
    def draw(self, result):
        ax = self.axes
        if "error" in result:
            ax.set_axis_off()
            ax.text(0.5, 0.5, "not possible: see the line above", ha="center", va="center", transform=ax.transAxes)
            return
        ax.set_axis_on()
        ttft_tiers_plot(result["ttft"], ax=ax, title=self._title(result))

    @styled
    def redraw(self, result):
        ax = self.axes
        if "error" in result or not ax.axison or not ax.patches:
            return None
        changed = update_ttft_tiers_plot(ax, result["ttft"])
        if not bar_legend_is_current(ax):
            return None   # another set of parts is drawn: the legend is drawn again with them
        changed.append(ax.set_title(self._title(result), loc="left", fontsize=9))
        return changed
