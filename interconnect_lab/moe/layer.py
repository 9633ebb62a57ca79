"""One MoE layer on one GPU: attention and experts' compute, dispatch and combine."""

from __future__ import annotations

import math
from dataclasses import dataclass

from .. import catalog
from .._lookup import resolve
from .._validation import check_flag, check_integer, check_number
from ..catalog.variants import VARIANT_GPUS
from ..utilization import StepTime, step_time
from .models import MOE_MODELS, MoEModel
from .routing import MAX_TOKENS
from ._legacy import legacy_kernel
from .traffic import AllToAllTime, check_imbalance, dispatch_and_combine

__all__ = ["MoELayerStep", "moe_layer_step"]


def _gpu_or_variant(name):
    """The GPU variant called ``name`` (the H800), else the catalog GPU."""
    return VARIANT_GPUS[name] if name in VARIANT_GPUS else catalog.gpu(name)


@dataclass(frozen=True)
class MoELayerStep:
    """One MoE layer on one GPU: attention and experts, dispatch and combine.

    Attributes
    ----------
    model : str
    tokens_per_gpu : float
    ep_degree, domain_size : int
    attention_s : float
        Attention, router and shared experts [s].
    experts_s : float
        Routed experts on the busiest GPU [s].
    dispatch, combine : AllToAllTime
    step : StepTime
        Compute against communication with the chosen overlap.
    passes : int
        1 for a forward pass, 3 for forward and backward (compute), with 2
        all-to-alls per pass direction.
    """

    model: str
    tokens_per_gpu: float
    ep_degree: int
    domain_size: int
    attention_s: float
    experts_s: float
    dispatch: AllToAllTime
    combine: AllToAllTime
    step: StepTime
    passes: int

    @property
    def compute_s(self) -> float:
        """Compute of the layer [s]."""
        return float(self.step.compute_s)

    @property
    def communication_s(self) -> float:
        """Dispatch and combine (twice each with the backward pass) [s]."""
        return float(self.step.communication_s)

    @property
    def communication_share(self) -> float:
        """Exposed communication over the layer's time [-]."""
        return float(self.step.exposed_communication_s / self.step.step_s)

    @property
    def compute_to_communication(self) -> float:
        """Compute time over communication time (DeepSeek-V3's ratio) [-]; inf with no communication (one GPU)."""
        return float(self.compute_s / self.communication_s) if self.communication_s else math.inf


def moe_layer_step(model, tokens_per_gpu, ep_degree, *, gpu="H100 SXM", domain_size=8,
                   scale_up_link=None, network_link="InfiniBand NDR", imbalance_factor=1.0,
                   dispatch_bytes_per_element=1.0, combine_bytes_per_element=2.0, kernel=None,
                   flop_per_s=None, communication_sm_fraction=0.0, overlap_fraction=0.0, backward=False,
                   **deprecated) -> MoELayerStep:
    """Time of one MoE layer on one GPU of an expert-parallel group.

    Compute runs at ``flop_per_s`` (the GPU's measured matmul rate by
    default) on the SMs left over by communication kernels:

    .. math::

        t_\\text{compute} = p\\,\\frac{T (F_\\text{local} + \\iota F_\\text{experts})}
                                 {R\\,(1 - \\sigma)}, \\qquad
        t_\\text{comm} = q\\,(t_\\text{dispatch} + t_\\text{combine})

    with :math:`F` the forward FLOPs per token of
    :meth:`MoEModel.layer_forward_flops_per_token`, :math:`\\iota` the
    imbalance, a share :math:`\\sigma` of the GPU's SMs given to communication
    kernels,
    and :math:`p = 1, q = 1` forward or :math:`p = 3, q = 2` forward and
    backward. :func:`~interconnect_lab.utilization.step_time` then hides
    ``overlap_fraction`` of the communication under compute (DeepSeek's
    DualPipe overlaps nearly all of it). The dispatch and combine times come
    from the collective model's expert-parallel ``kernel``
    (:func:`~interconnect_lab.moe.dispatch_and_combine`).

    Parameters
    ----------
    model : MoEModel or str
    tokens_per_gpu : float
        Tokens each GPU routes [token], in (0, :data:`MAX_TOKENS`].
    ep_degree : int
        n [-].
    gpu : str or catalog.GPU
        Catalog GPU or GPU variant (``"H800 SXM"``).
    domain_size : int
        GPUs per scale-up domain g [-].
    scale_up_link : str, optional
        Catalog NVLink generation; the GPU's own by default.
    network_link : str
        Catalog network port, one per GPU.
    imbalance_factor : float
        In [1, n] [-].
    dispatch_bytes_per_element, combine_bytes_per_element : float
        FP8 dispatch (1, plus one 4-byte scale per 128 elements), BF16 combine (2) [B].
    kernel : str, optional
        A key of :data:`interconnect_lab.collectives.EXPERT_PARALLEL_KERNELS`; ``"normal"``
        (DeepEP's hierarchical kernels, as DeepSeek-V3 trains) by default.
    flop_per_s : float, optional
        Compute rate [FLOP/s], in [1, 1e21].
    communication_sm_fraction : float
        Share of the GPU's SMs the communication kernels hold, in [0, 1) [-]
        (DeepSeek-V3: 20 of 132).
    overlap_fraction : float
        [0, 1] [-].
    backward : bool
        Forward and backward (training) instead of forward only.

    Returns
    -------
    MoELayerStep

    Examples
    --------
    DeepSeek-V3 on 64 H800 (8 NVLinks per GPU), one InfiniBand NDR port each:

    >>> step = moe_layer_step("DeepSeek-V3", 4096, 64, gpu="H800 SXM", network_link="InfiniBand NDR")
    >>> round(step.compute_to_communication, 2)
    0.92
    """
    kernel, _, _ = legacy_kernel("moe_layer_step", kernel, deprecated, accepted=("path", "hierarchical"))
    model = resolve("model", model, MoEModel, MOE_MODELS)
    spec = resolve("gpu", gpu, catalog.GPU, (*catalog.GPUS, *VARIANT_GPUS), lookup=_gpu_or_variant)
    scale_up_link = spec.scale_up_link if scale_up_link is None else scale_up_link
    n = check_integer("ep_degree", ep_degree, minimum=1)
    sms = check_number("communication_sm_fraction", communication_sm_fraction, minimum=0, maximum=1,
                       max_inclusive=False, scalar=True)
    rate = (spec.measured_matmul_flop_per_s or spec.bf16_flop_per_s) if flop_per_s is None else \
        check_number("flop_per_s", flop_per_s, unit="FLOP/s", minimum=1, maximum=1e21, scalar=True)
    iota = check_imbalance(imbalance_factor, n)
    tokens = check_number("tokens_per_gpu", tokens_per_gpu, unit="token", minimum=0, min_inclusive=False,
                          maximum=MAX_TOKENS, scalar=True)
    backward = check_flag("backward", backward)
    overlap_fraction = check_number("overlap_fraction", overlap_fraction, minimum=0, maximum=1, scalar=True)

    dispatch, combine = dispatch_and_combine(
        tokens, model.hidden_size, model.top_k, n, experts=model.experts, domain_size=domain_size,
        max_domains_per_token=model.max_nodes_per_token, dispatch_bytes_per_element=dispatch_bytes_per_element,
        combine_bytes_per_element=combine_bytes_per_element, kernel=kernel, gpu=spec, scale_up_link=scale_up_link,
        network_link=network_link, imbalance_factor=iota)
    local, routed = model.layer_forward_flops_per_token()
    passes, directions = (3, 2) if backward else (1, 1)
    usable = rate * (1 - sms)
    attention = passes * tokens * local / usable
    experts = passes * tokens * iota * routed / usable
    communication = directions * (dispatch.time_s + combine.time_s)
    step = step_time(attention + experts, communication, overlap_fraction)
    return MoELayerStep(model=model.name, tokens_per_gpu=tokens, ep_degree=n, domain_size=min(domain_size, n),
                        attention_s=float(attention), experts_s=float(experts), dispatch=dispatch, combine=combine,
                        step=step, passes=passes)

