"""Inference traffic: what the network does while a model answers.

Serving a language model has two phases with different appetites
(Splitwise, DistServe):

- **prefill** reads the whole prompt at once: compute-bound, and with tensor
  parallelism (TP) it all-reduces ``prompt x hidden`` activations twice per
  layer;
- **decode** makes one token per sequence per step: it reads every weight and
  the whole KV cache from HBM each step, and with TP it all-reduces only
  ``batch x hidden`` values twice per layer, messages of kilobytes whose time
  is almost all latency.

When the two phases run on different machines (*disaggregated* serving), the
KV cache that prefill built must cross the network to the decode machine,
over RDMA.

This module computes the decode all-reduces
(:func:`tensor_parallel_decode_all_reduce`, from the latency model of
:mod:`interconnect_lab.collectives` with NCCL's low-latency protocol), the
KV transfer (:func:`kv_transfer`, with the KV size of
:func:`interconnect_lab.memory.kv_cache_bytes`), and a whole deployment
(:func:`serving_deployment`): time to first token (TTFT), inter-token latency
(ITL) and the network's share of each.

Examples
--------
Llama 3 70B on 8 H100, one sequence: each decode all-reduce is 16 KiB.

>>> from interconnect_lab import inference
>>> ar = inference.tensor_parallel_decode_all_reduce("Llama 3 70B", 8, batch=1)
>>> ar.message_bytes / 1024, ar.all_reduces_per_token
(16.0, 160)
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from types import MappingProxyType

from . import catalog, collectives, memory, training
from ._lookup import resolve
from ._validation import check_choice, check_flag, check_integer, check_number
from .sources import Source

__all__ = [
    "INFERENCE_MODELS", "inference_model", "OPT_66B",
    "DecodeAllReduce", "tensor_parallel_decode_all_reduce",
    "KVTransfer", "kv_transfer",
    "ServingDeployment", "serving_deployment", "SERVING_ALGORITHMS",
]

OPT = Source(
    title="S. Zhang et al., OPT: Open Pre-trained Transformer Language Models", year=2022,
    url="https://arxiv.org/abs/2205.01068",
    locator="Table 1", note="OPT-66B: 64 layers, 72 heads, d_model 9,216; vocabulary 50,272 (GPT-2 BPE)")

#: OPT-66B, the model of DistServe's KV-transfer example.
OPT_66B = training.TransformerModel.gpt(name="OPT-66B", layers=64, hidden_size=9216, heads=72,
                                        vocabulary_size=50272, sequence_length=2048, sources=(OPT,))

#: Models the serving chapter uses: the training chapter's, plus OPT-66B.
INFERENCE_MODELS = MappingProxyType({**training.MODELS, OPT_66B.name: OPT_66B})


def inference_model(model):
    """A :class:`~interconnect_lab.training.TransformerModel` by name (see :data:`INFERENCE_MODELS`), or as given.

    Parameters
    ----------
    model : TransformerModel or str
        A model, or a key of :data:`INFERENCE_MODELS`.
    """
    return resolve("model", model, training.TransformerModel, INFERENCE_MODELS)


#: All-reduce algorithms a serving engine uses inside an NVLink domain: NCCL's ring,
#: and NVLink SHARP (``nvls``, the switch reduces; TensorRT-LLM's MultiShot uses
#: the switch's multicast the same way).
SERVING_ALGORITHMS = ("ring", "nvls")


#: Most tokens a prompt or a context may hold [token] (as :func:`interconnect_lab.memory.kv_cache_bytes`).
_MAX_TOKENS = 1e15


def _link(link, argument):
    """A catalog link by name, or the Link given."""
    return resolve(argument, link, catalog.Link, catalog.LINKS)


def _check_tensor_parallel(model, tensor_parallel, domain_size):
    tp = check_integer("tensor_parallel", tensor_parallel, minimum=1)
    if domain_size is not None and tp > domain_size:
        raise ValueError(f"tensor_parallel = {tp} is not valid on a scale-up domain of {domain_size} GPUs: "
                         "tensor parallelism all-reduces twice per layer and stays inside the NVLink domain "
                         f"(at most {domain_size})")
    if model.kv_heads % tp and tp % model.kv_heads:
        raise ValueError(f"tensor_parallel = {tp} does not split {model.name}'s {model.kv_heads} key/value heads: "
                         "it must divide them (or be a multiple of them, replicating each head)")
    if model.heads % tp:
        raise ValueError(f"tensor_parallel = {tp} does not divide {model.name}'s {model.heads} attention heads")
    return tp


@dataclass(frozen=True)
class DecodeAllReduce:
    """The tensor-parallel all-reduces of one decode step.

    Attributes
    ----------
    model : str
    tensor_parallel : int
    batch : int
    message_bytes : float
        One all-reduce: ``batch x hidden x bytes`` [B].
    all_reduces_per_token : int
        Two per layer (after attention, after the MLP) [-].
    all_reduce : collectives.CollectivePerformance or None
        One all-reduce; None on one GPU, which needs none.
    """

    model: str
    tensor_parallel: int
    batch: int
    message_bytes: float
    all_reduces_per_token: int
    all_reduce: collectives.CollectivePerformance | None

    @property
    def all_reduce_s(self) -> float:
        """One all-reduce [s]; 0 on one GPU."""
        return 0.0 if self.all_reduce is None else float(self.all_reduce.time_s)

    @property
    def per_layer_s(self) -> float:
        """Both all-reduces of one layer [s]."""
        return 2 * self.all_reduce_s

    @property
    def per_token_s(self) -> float:
        """Every all-reduce of one decode step [s]."""
        return self.all_reduces_per_token * self.all_reduce_s

    @property
    def latency_share(self) -> float:
        """Share of one all-reduce's time that does not depend on its size [-]."""
        time = self.all_reduce_s
        return float(self.all_reduce.latency_term_s) / time if time else 0.0


def tensor_parallel_decode_all_reduce(model, tensor_parallel, batch=1, *, scale_up_link="NVLink 4",
                                      algorithm="ring", protocol="LL", bytes_per_element=2.0) -> DecodeAllReduce:
    """The all-reduces tensor parallelism adds to every decode step.

    Megatron-style TP ends each attention block and each MLP with an
    all-reduce of the layer's output, one hidden vector per sequence:

    .. math:: S = B\\,h\\,b, \\qquad t_\\text{token} = 2\\,l\\,t_\\text{all-reduce}(S)

    The all-reduce comes from
    :func:`interconnect_lab.collectives.collective_performance` over the GPU's
    NVLink, with the latency constants of NCCL's protocol for small messages
    (``LL`` by default: 6.6 µs launch, 0.6 µs per NVLink step).

    Parameters
    ----------
    model : TransformerModel or str
    tensor_parallel : int
        GPUs t [-].
    batch : int
        Sequences decoded together B [-].
    scale_up_link : str
        Catalog link the all-reduce runs on: an NVLink generation, or a network
        port (one GPU per node, every step across the network, NCCL's network
        step latency).
    algorithm : str
        One of :data:`SERVING_ALGORITHMS`.
    protocol : str
        A key of :data:`interconnect_lab.collectives.NCCL_LATENCIES`.
    bytes_per_element : float
        Activations' bytes [B], in (0, 64].

    Returns
    -------
    DecodeAllReduce

    Examples
    --------
    >>> ar = tensor_parallel_decode_all_reduce("Llama 3 70B", 8)
    >>> round(ar.per_token_s * 1e3, 2), ar.all_reduce.latency_bound
    (2.41, True)
    """
    model = inference_model(model)
    tp = _check_tensor_parallel(model, tensor_parallel, None)
    batch = check_integer("batch", batch, minimum=1)
    check_choice("algorithm", algorithm, SERVING_ALGORITHMS)
    check_choice("protocol", protocol, collectives.NCCL_LATENCIES)
    b = check_number("bytes_per_element", bytes_per_element, unit="B", minimum=0, min_inclusive=False, maximum=64,
                     scalar=True)
    link = _link(scale_up_link, "scale_up_link")
    params = collectives.link_parameters(link)
    latencies = collectives.NCCL_LATENCIES[protocol]
    step = latencies.nvlink_step_latency_s if link.family == "NVLink" else latencies.network_step_latency_s
    size = batch * model.hidden_size * b
    result = None if tp == 1 else collectives.collective_performance(
        "all_reduce", size, tp, params["bandwidth_bytes_per_s"], step, algorithm,
        base_latency_s=latencies.base_latency_s, efficiency=params["efficiency"])
    return DecodeAllReduce(model=model.name, tensor_parallel=tp, batch=batch, message_bytes=float(size),
                           all_reduces_per_token=2 * model.layers, all_reduce=result)


@dataclass(frozen=True)
class KVTransfer:
    """Moving one request's KV cache from a prefill machine to a decode machine.

    Attributes
    ----------
    kv_bytes : float
        The prompt's whole cache [B].
    senders : int
        GPUs sending at once, each its share over its own port [-].
    total_s : float
        Whole transfer, sent after prefill ends [s].
    exposed_s : float
        What the request waits for: all of it, or only the last layer when
        layers are sent while the next ones compute [s].
    layerwise : bool
    """

    kv_bytes: float
    senders: int
    total_s: float
    exposed_s: float
    layerwise: bool

    @property
    def bandwidth_bytes_per_s(self) -> float:
        """Bytes over the whole transfer's time [B/s]."""
        return self.kv_bytes / self.total_s if self.total_s else 0.0


def kv_transfer(model, prompt_tokens, *, senders=1, link="InfiniBand NDR", layerwise=False,
                bytes_per_element=2.0) -> KVTransfer:
    """Time to move a prompt's KV cache over RDMA.

    The cache (:func:`interconnect_lab.memory.kv_cache_bytes`) is split over
    the ``senders`` GPUs of the prefill group; each writes its share over its
    own port, a one-sided RDMA write timed as a send in
    :func:`interconnect_lab.collectives.send_recv_time`:

    .. math:: t = t_0 + \\alpha + \\frac{M_\\text{KV} / s}{\\eta B}

    Sent layer by layer while prefill goes on (Splitwise), only the last
    layer's share is left to wait for.

    Parameters
    ----------
    model : TransformerModel or str
    prompt_tokens : float
        [token], in [0, 1e15].
    senders : int
        GPUs sending in parallel [-].
    link : str
        Catalog network port of each GPU.
    layerwise : bool
        Overlap the transfer with prefill, layer by layer.
    bytes_per_element : float
        Cache element bytes [B].

    Returns
    -------
    KVTransfer

    Examples
    --------
    DistServe's example: one 512-token request of OPT-66B.

    >>> t = kv_transfer("OPT-66B", 512)
    >>> round(t.kv_bytes / 2**30, 3)
    1.125
    """
    model = inference_model(model)
    tokens = check_number("prompt_tokens", prompt_tokens, unit="token", minimum=0, maximum=_MAX_TOKENS, scalar=True)
    senders = check_integer("senders", senders, minimum=1)
    layerwise = check_flag("layerwise", layerwise)
    kv = float(memory.kv_cache_bytes(model, tokens, bytes_per_element=bytes_per_element))
    params = collectives.link_parameters(_link(link, "link"))

    def send(size):
        return float(collectives.send_recv_time(size, params["bandwidth_bytes_per_s"], params["latency_s"],
                                                efficiency=params["efficiency"]))

    total = send(kv / senders)
    exposed = send(kv / senders / model.layers) if layerwise else total
    return KVTransfer(kv_bytes=kv, senders=senders, total_s=total, exposed_s=exposed, layerwise=layerwise)


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
                       layerwise=True, algorithm="ring", compute_efficiency=None) -> ServingDeployment:
    """Time to first token and inter-token latency of a TP deployment, with the network's part.

    Prefill of one prompt of :math:`P` tokens on :math:`t` GPUs:

    .. math::

        t_\\text{prefill} = \\frac{P\\,F_\\text{fwd}(P)}{t\\,\\eta R}
            + 2l\\,t_\\text{all-reduce}(P h b)

    with :math:`F_\\text{fwd}` a third of
    :func:`~interconnect_lab.training.flops_per_token` at sequence length
    :math:`P` and :math:`\\eta R` the GPU's measured matmul rate. Disaggregated,
    the KV cache then crosses ``kv_link`` (:func:`kv_transfer`). Each decode
    step reads weights and KV cache from HBM
    (:func:`interconnect_lab.memory.decode_step`, split over :math:`t` GPUs) and
    then waits for :math:`2l` small all-reduces
    (:func:`tensor_parallel_decode_all_reduce`); nothing overlaps in the step,
    as in engines that run one layer after the other.

    Parameters
    ----------
    model : TransformerModel or str
    gpu : str or catalog.GPU
        Catalog GPU (prefill and decode).
    tensor_parallel : int
        t [-], inside the scale-up domain.
    batch : int
        Sequences per decode step [-].
    prompt_tokens : float
        P [token], in [1, 1e15].
    context_tokens : float, optional
        Tokens in each decoded sequence's context [token], in [1, 1e15]; P by default.
    domain_size : int
        GPUs per NVLink domain (8 on HGX, 72 on NVL72) [-].
    kv_link : str
        Catalog port carrying the KV cache.
    disaggregated : bool
        Prefill and decode on different machines.
    layerwise : bool
        Send the KV cache layer by layer during prefill.
    algorithm : str
        One of :data:`SERVING_ALGORITHMS` for the TP all-reduces.
    compute_efficiency : float, optional
        Share of the BF16 peak prefill reaches, in [0.001, 1]; the measured matmul rate by default [-].

    Returns
    -------
    ServingDeployment

    Examples
    --------
    >>> d = serving_deployment("Llama 3 70B", "H100 SXM", tensor_parallel=8, batch=1, prompt_tokens=2048)
    >>> round(d.itl_s * 1e3, 1), round(d.itl_network_share, 2)
    (7.7, 0.31)
    """
    model = inference_model(model)
    spec = resolve("gpu", gpu, catalog.GPU, catalog.GPUS)
    domain = check_integer("domain_size", domain_size, minimum=1)
    tp = _check_tensor_parallel(model, tensor_parallel, domain)
    batch = check_integer("batch", batch, minimum=1)
    prompt = check_number("prompt_tokens", prompt_tokens, unit="token", minimum=1, maximum=_MAX_TOKENS, scalar=True)
    context = prompt if context_tokens is None else check_number("context_tokens", context_tokens, unit="token",
                                                                 minimum=1, maximum=_MAX_TOKENS, scalar=True)
    disaggregated = check_flag("disaggregated", disaggregated)
    layerwise = check_flag("layerwise", layerwise)
    check_choice("algorithm", algorithm, SERVING_ALGORITHMS)
    if compute_efficiency is None:
        rate = spec.measured_matmul_flop_per_s or spec.bf16_flop_per_s
    else:
        rate = spec.bf16_flop_per_s * check_number("compute_efficiency", compute_efficiency, minimum=1e-3,
                                                   maximum=1, scalar=True)
    at_prompt = dataclasses.replace(model, sequence_length=max(int(round(prompt)), 1))
    forward_flops = prompt * training.flops_per_token(at_prompt) / 3
    prefill_compute = forward_flops / (tp * rate)
    link = spec.scale_up_link
    params = collectives.link_parameters(catalog.link(link))
    if tp > 1:
        one = collectives.collective_performance(
            "all_reduce", prompt * model.hidden_size * 2.0, tp, params["bandwidth_bytes_per_s"], params["latency_s"],
            algorithm, efficiency=params["efficiency"])
        prefill_comm = 2 * model.layers * float(one.time_s)
    else:
        prefill_comm = 0.0
    kv = kv_transfer(model, prompt, senders=tp, link=kv_link, layerwise=layerwise) if disaggregated else None
    step = memory.decode_step(model, spec.name if isinstance(gpu, str) else spec, context_tokens=context,
                              batch=batch, gpus=tp)
    decode = tensor_parallel_decode_all_reduce(model, tp, batch, scale_up_link=link, algorithm=algorithm)
    return ServingDeployment(model=model.name, gpu=spec.name, tensor_parallel=tp, batch=batch, prompt_tokens=prompt,
                             context_tokens=context, prefill_compute_s=float(prefill_compute),
                             prefill_communication_s=float(prefill_comm), kv=kv,
                             decode_memory_s=float(step.step_s), decode=decode, fits_hbm=bool(step.fits_hbm))
