"""A tensor-parallel deployment end to end: time to first token, inter-token latency, the network's share."""

from __future__ import annotations

from dataclasses import dataclass

from .. import catalog, collectives, memory
from .._lookup import resolve
from .._validation import check_choice, check_flag, check_integer, check_number
from .disaggregation import KVTransfer, kv_transfer
from .models import inference_model, prefill_flops
from .tensor_parallel import SERVING_ENGINES, DecodeAllReduce, tensor_parallel_decode_all_reduce, \
    tensor_parallel_system

__all__ = ["ServingDeployment", "serving_deployment"]

#: Most tokens a prompt or a context may hold [token].
_MAX_TOKENS = 1e9


@dataclass(frozen=True)
class ServingDeployment:
    """TTFT and ITL of one deployment, and the network's share of each.

    Times are per request for prefill (one prompt) and per step for decode
    (``batch`` sequences of ``context_tokens`` each).

    Attributes
    ----------
    model, gpu : str
    tensor_parallel, batch : int
    prompt_tokens, context_tokens : float
    engine : str
        The serving engine whose all-reduces run (``SERVING_ENGINES``).
    prefill_compute_s, prefill_communication_s : float
        Prefill's matrix multiplies and its TP all-reduces [s].
    kv : KVTransfer or None
        None when prefill and decode share the GPUs.
    decode_memory_s : float
        One decode step's HBM reads (weights and KV cache) [s].
    decode : DecodeAllReduce
        The TP all-reduces of one decode step.
    fits_hbm : bool
        Weights and the batch's KV cache fit the decode GPUs' HBM.
    """

    model: str
    gpu: str
    tensor_parallel: int
    batch: int
    prompt_tokens: float
    context_tokens: float
    engine: str
    prefill_compute_s: float
    prefill_communication_s: float
    kv: KVTransfer | None
    decode_memory_s: float
    decode: DecodeAllReduce
    fits_hbm: bool

    @property
    def kv_exposed_s(self) -> float:
        """KV transfer the first token waits for [s]."""
        return 0.0 if self.kv is None else self.kv.exposed_s

    @property
    def ttft_s(self) -> float:
        """Time to first token: prefill and the exposed KV transfer [s].

        Counted as systems that stream every token from the decode machine see
        it; where the prefill machine returns the first token itself
        (Splitwise), the transfer delays the second token instead.
        """
        return self.prefill_compute_s + self.prefill_communication_s + self.kv_exposed_s

    @property
    def itl_s(self) -> float:
        """Inter-token latency: one decode step [s]."""
        return self.decode_memory_s + self.decode.per_token_s

    @property
    def ttft_network_s(self) -> float:
        """Network and NVLink time in the TTFT [s]."""
        return self.prefill_communication_s + self.kv_exposed_s

    @property
    def ttft_network_share(self) -> float:
        """Share of the TTFT spent communicating [-]."""
        return self.ttft_network_s / self.ttft_s

    @property
    def itl_network_share(self) -> float:
        """Share of each decode step spent in TP all-reduces [-]."""
        return self.decode.per_token_s / self.itl_s

    @property
    def tokens_per_s(self) -> float:
        """Tokens generated per second by the decode group [token/s]."""
        return self.batch / self.itl_s


def serving_deployment(model, gpu="H100 SXM", *, tensor_parallel=8, batch=1, prompt_tokens=2048,
                       context_tokens=None, domain_size=8, kv_link="InfiniBand NDR", disaggregated=True,
                       layerwise=True, engine="vLLM", compute_efficiency=None) -> ServingDeployment:
    """Time to first token and inter-token latency of a TP deployment, with the network's part.

    Prefill of one prompt of :math:`P` tokens on :math:`t` GPUs:

    .. math::

        t_\\text{prefill} = \\frac{F(P)}{t\\,\\eta R} + 2l\\,t_\\text{all-reduce}(P h b)

    with :math:`F` :func:`~interconnect_lab.inference.prefill_flops` and :math:`\\eta R`
    the GPU's measured matmul rate. Disaggregated, the KV cache then crosses
    ``kv_link`` (:func:`kv_transfer`). Each decode step reads weights and KV cache
    from HBM (:func:`interconnect_lab.memory.decode_step`, split over :math:`t`
    GPUs) and then waits for :math:`2l` small all-reduces
    (:func:`tensor_parallel_decode_all_reduce`); nothing overlaps in the step, as
    in engines that run one layer after the other. Every all-reduce is the
    engine's (:func:`interconnect_lab.collectives.serving_all_reduce`).

    Parameters
    ----------
    model : TransformerModel or str
        A dense model (``INFERENCE_MODELS``).
    gpu : str or catalog.GPU
        Catalog GPU (prefill and decode).
    tensor_parallel : int
        t [-], inside the scale-up domain.
    batch : int
        Sequences per decode step [-].
    prompt_tokens : float
        P [token], in [1, 1e9].
    context_tokens : float, optional
        Tokens in each decoded sequence's context [token], in [1, 1e9]; P by default.
    domain_size : int
        GPUs per NVLink domain (8 on HGX, 72 on NVL72) [-].
    kv_link : str
        Catalog port carrying the KV cache.
    disaggregated : bool
        Prefill and decode on different machines.
    layerwise : bool
        Send the KV cache layer by layer during prefill.
    engine : str
        One of ``SERVING_ENGINES``: whose all-reduce kernels run.
    compute_efficiency : float, optional
        Share of the BF16 peak prefill reaches, in [0.001, 1]; the measured matmul rate by default [-].

    Returns
    -------
    ServingDeployment

    Examples
    --------
    >>> d = serving_deployment("Llama 3 70B", "H100 SXM", tensor_parallel=8, batch=1, prompt_tokens=2048)
    >>> round(d.itl_s * 1e3, 2), round(d.itl_network_share, 2)
    (6.25, 0.15)
    """
    model = inference_model(model)
    spec = resolve("gpu", gpu, catalog.GPU, catalog.GPUS)
    domain = check_integer("domain_size", domain_size, minimum=1, maximum=2 ** 12)
    tp = check_integer("tensor_parallel", tensor_parallel, minimum=1, maximum=2 ** 12)
    if tp > domain:
        raise ValueError(f"tensor_parallel = {tp} is not valid on a scale-up domain of {domain} GPUs: "
                         "tensor parallelism all-reduces twice per layer and stays inside the NVLink domain "
                         f"(at most {domain})")
    batch = check_integer("batch", batch, minimum=1)
    prompt = check_number("prompt_tokens", prompt_tokens, unit="token", minimum=1, maximum=_MAX_TOKENS, scalar=True)
    context = prompt if context_tokens is None else check_number("context_tokens", context_tokens, unit="token",
                                                                 minimum=1, maximum=_MAX_TOKENS, scalar=True)
    disaggregated = check_flag("disaggregated", disaggregated)
    layerwise = check_flag("layerwise", layerwise)
    check_choice("engine", engine, SERVING_ENGINES)
    if compute_efficiency is None:
        rate = spec.measured_matmul_flop_per_s or spec.bf16_flop_per_s
    else:
        rate = spec.bf16_flop_per_s * check_number("compute_efficiency", compute_efficiency, minimum=1e-3,
                                                   maximum=1, scalar=True)
    decode = tensor_parallel_decode_all_reduce(model, tp, batch, gpu=spec, engine=engine)
    prefill_compute = prefill_flops(model, prompt) / (tp * rate)
    if tp > 1:
        one = collectives.serving_all_reduce(float(prompt) * model.hidden_size * 2.0, tensor_parallel_system(spec, tp),
                                             engine)
        prefill_comm = 2 * model.layers * one.time_s
    else:
        prefill_comm = 0.0
    kv = kv_transfer(model, prompt, senders=tp, link=kv_link, layerwise=layerwise, gpu=spec) if disaggregated \
        else None
    step = memory.decode_step(model, spec, context_tokens=context, batch=batch, gpus=tp)
    return ServingDeployment(model=model.name, gpu=spec.name, tensor_parallel=tp, batch=batch, prompt_tokens=prompt,
                             context_tokens=context, engine=engine, prefill_compute_s=float(prefill_compute),
                             prefill_communication_s=float(prefill_comm), kv=kv, decode_memory_s=float(step.step_s),
                             decode=decode, fits_hbm=bool(step.fits_hbm))
