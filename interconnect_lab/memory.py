"""The memory wall: what a model keeps in memory, where else it can live, and what moving it costs.

Chapter 3's chain:

1. :func:`training_state` splits a model's training state into 16-bit weights,
   gradients and the optimizer's state (mixed-precision Adam: ZeRO's
   :math:`(2 + 2 + K)\\Psi` bytes); :func:`kv_cache_bytes` sizes the key/value cache
   an inference server keeps per token.
2. An :class:`OffloadPlan` (by name from :data:`OFFLOAD_PLANS`) says which parts
   stay in HBM, which of those every GPU holds whole and which are split over the
   GPUs, and which cross the GPU's host link every step: DeepSpeed's
   **ZeRO-Offload** (built on ZeRO-2: every GPU keeps all the 16-bit weights) and
   **ZeRO-3 with CPU optimizer offload** (the weights split too) are two plans,
   and :func:`offload_limits` says where each stops fitting. An
   :class:`OffloadPath` (from :data:`OFFLOAD_PATHS`) says which catalog links and
   which memory the offloaded bytes travel through; a path to host memory takes
   the host as a parameter (``offload_path(name, host=...)``, a
   ``catalog.HOSTS`` entry: its memory channels and speed).
3. :func:`transfer_time` is the time those bytes take; :func:`offload_step` puts
   it against a training step's compute (:func:`interconnect_lab.utilization.step_time`)
   and checks what fits; :func:`decode_step` does the same for one step of
   token generation whose KV cache lives partly outside HBM.

The transfer model
------------------
A GPU reaches host memory through a chain of links (its PCIe or NVLink-C2C link,
then perhaps a CXL link) and the memory behind them, which it may share with
other GPUs. Each link carries :math:`B_\\text{link}` per direction; memory whose
reads and writes share one budget gives each of the :math:`n` GPUs sharing it
:math:`B_\\text{mem}/n`. Moving :math:`D` bytes to the host and :math:`U` bytes
to the GPU takes

.. math::

    t = \\max\\Big(\\frac{D}{B_\\text{link}},\\ \\frac{U}{B_\\text{link}},\\
        \\frac{D + U}{B_\\text{mem}/n}\\Big)

when the two directions run at the same time, and
:math:`D/B + U/B` with :math:`B = \\min(B_\\text{link}, B_\\text{mem}/n)` when one
follows the other. These are line rates: a real copy reaches less (88% measured
on PCIe Gen5, :data:`interconnect_lab.published.HOST_DEVICE_TRANSFER`).

References
----------
J. Ren et al., "ZeRO-Offload: Democratizing Billion-Scale Model Training",
USENIX ATC 2021, https://arxiv.org/abs/2101.06840.

DeepSpeed, "ZeRO-Offload" (2020) and "ZeRO-3 Offload" (2021), https://www.deepspeed.ai/2020/09/09/ZeRO-Offload.html,
https://github.com/microsoft/DeepSpeed/blob/master/docs/_posts/2021-03-08-zero3-offload.md.

S. Rajbhandari et al., "ZeRO-Infinity: Breaking the GPU Memory Wall for Extreme
Scale Deep Learning", SC21, https://arxiv.org/abs/2104.07857.

W. Kwon et al., "Efficient Memory Management for Large Language Model Serving
with PagedAttention", SOSP 2023, https://arxiv.org/abs/2309.06180.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from types import MappingProxyType

import numpy as np

from . import catalog, training
from ._lookup import resolve
from ._validation import as_output, check_choice, check_integer, check_number
from .sources import Source
from .utilization import StepTime, step_time

__all__ = [
    "TrainingState", "training_state", "kv_cache_bytes",
    "OffloadPlan", "OFFLOAD_PLANS", "offload_plan", "OffloadLimits", "offload_limits",
    "OffloadPath", "OFFLOAD_PATHS", "offload_path", "GPUS_PER_HOST_SOCKET", "DEFAULT_HOST",
    "transfer_time", "OffloadStep", "offload_step", "DecodeStep", "decode_step",
]

# Sources used only here ----------------------------------------------------------------

ZERO_OFFLOAD = Source(
    title="J. Ren et al., ZeRO-Offload: Democratizing Billion-Scale Model Training, USENIX ATC 2021",
    year=2021, url="https://arxiv.org/abs/2101.06840",
    note=("16-bit weights and the forward and backward passes stay on the GPU; gradients go to the CPU, "
          "which keeps the optimizer state and runs the update; the updated 16-bit weights come back"),
)
DEEPSPEED_ZERO_OFFLOAD = Source(
    title="DeepSpeed, ZeRO-Offload (blog post of 9 Sep 2020)", year=2020,
    url="https://www.deepspeed.ai/2020/09/09/ZeRO-Offload.html",
    note="'ZeRO-Offload extends ZeRO-2 to leverage both CPU and GPU memory for training large models': built on "
         "ZeRO-2, which splits gradients and optimizer state over the data-parallel GPUs, not the weights",
)
DEEPSPEED_ZERO3_OFFLOAD = Source(
    title="DeepSpeed, DeepSpeed ZeRO-3 Offload (blog post of 8 March 2021)", year=2021,
    url="https://github.com/microsoft/DeepSpeed/blob/master/docs/_posts/2021-03-08-zero3-offload.md",
    note="'Unlike ZeRO-2 and ZeRO-Offload where the parameters have to fit in the memory of a single GPU, ZeRO-3 "
         "Offload can partition the parameters across GPUs'",
)
ZERO_INFINITY = Source(
    title=("S. Rajbhandari et al., ZeRO-Infinity: Breaking the GPU Memory Wall for Extreme Scale Deep "
           "Learning, SC21"),
    year=2021, url="https://arxiv.org/abs/2104.07857",
    note="weights, gradients and optimizer state all offloaded to CPU or NVMe memory and fetched when needed",
)
VLLM = Source(
    title=("W. Kwon et al., Efficient Memory Management for Large Language Model Serving with "
           "PagedAttention, SOSP 2023"),
    year=2023, url="https://arxiv.org/abs/2309.06180", locator="§3",
    note=("'the KV cache of a single token demands 800 KB of space, calculated as 2 (key and value vectors) "
          "x 5120 (hidden state size) x 40 (number of layers) x 2 (bytes per FP16)' for OPT-13B"),
)

#: GPUs that share one host socket's memory in an 8-GPU, 2-socket server (HGX's "2-8-9-400"
#: reference configuration: 2 CPUs, 8 GPUs) [-].
GPUS_PER_HOST_SOCKET = 4

_HGX_REFERENCE = Source(
    title="NVIDIA HGX AI Factory (H100, H200, B200) reference architecture: Abstract", year=2025,
    url="https://docs.nvidia.com/reference-architectures/hgx-ai-factory-h100-h200-b200/abstract.md",
    note="2-8-9-400 configuration: 2 CPUs and 8 GPUs per server, so 4 GPUs per CPU socket",
)

_STATES = ("weights", "gradients", "optimizer")


# ============================================================================
# What a model keeps
# ============================================================================

@dataclass(frozen=True)
class TrainingState:
    """A model's training state in bytes (floats or arrays) [B].

    Attributes
    ----------
    weights_bytes, gradients_bytes, optimizer_bytes : float or numpy.ndarray
        16-bit weights, 16-bit gradients, and the optimizer's state (FP32 master
        weights and Adam's two moments) [B].
    """

    weights_bytes: float | np.ndarray
    gradients_bytes: float | np.ndarray
    optimizer_bytes: float | np.ndarray

    @property
    def total_bytes(self):
        """All three parts [B]."""
        return as_output(np.add(np.add(self.weights_bytes, self.gradients_bytes), self.optimizer_bytes))

    def part(self, name):
        """One part by name: ``"weights"``, ``"gradients"`` or ``"optimizer"`` [B]."""
        check_choice("state", name, _STATES)
        return getattr(self, f"{name}_bytes")


def _parameters(model_or_parameters):
    if isinstance(model_or_parameters, training.TransformerModel):
        return training.parameter_count(model_or_parameters)
    return check_number("model_or_parameters", model_or_parameters, minimum=0, maximum=1e16)


def training_state(model_or_parameters, *, parameter_bytes=2.0, gradient_bytes=2.0,
                   optimizer_bytes=None) -> TrainingState:
    """Weights, gradients and optimizer state of a model trained with mixed-precision Adam.

    .. math:: M = (2 + 2 + K)\\,\\Psi

    for :math:`\\Psi` parameters: a 16-bit weight, a 16-bit gradient and
    :math:`K` = 12 bytes of optimizer state (an FP32 master weight and Adam's two
    FP32 moments) per parameter (Rajbhandari et al. 2020, §3.1). Activations
    come on top and depend on the batch (see
    :func:`interconnect_lab.training.memory_per_gpu`).

    Parameters
    ----------
    model_or_parameters : TransformerModel or float or array_like
        A model (its :func:`~interconnect_lab.training.parameter_count`) or a
        parameter count [-], in [0, 1e16].
    parameter_bytes, gradient_bytes : float
        Bytes per weight and per gradient [B], in [0, 64].
    optimizer_bytes : float, optional
        Optimizer state per parameter [B], in [0, 64]; by default
        ``DEFAULT_EFFICIENCIES.optimizer_state_bytes_per_parameter`` (12).

    Returns
    -------
    TrainingState

    Examples
    --------
    >>> from interconnect_lab import units as u
    >>> state = training_state(175e9)
    >>> state.total_bytes / u.TB            # GPT-3's 175 billion parameters, 16 bytes each
    2.8
    >>> state.optimizer_bytes / state.total_bytes
    0.75
    """
    parameters = _parameters(model_or_parameters)
    if optimizer_bytes is None:
        optimizer_bytes = training.DEFAULT_EFFICIENCIES.optimizer_state_bytes_per_parameter
    parameter_bytes = check_number("parameter_bytes", parameter_bytes, unit="B", minimum=0, maximum=64, scalar=True)
    gradient_bytes = check_number("gradient_bytes", gradient_bytes, unit="B", minimum=0, maximum=64, scalar=True)
    optimizer_bytes = check_number("optimizer_bytes", optimizer_bytes, unit="B", minimum=0, maximum=64, scalar=True)
    return TrainingState(weights_bytes=as_output(np.multiply(parameters, parameter_bytes)),
                         gradients_bytes=as_output(np.multiply(parameters, gradient_bytes)),
                         optimizer_bytes=as_output(np.multiply(parameters, optimizer_bytes)))


def kv_cache_bytes(model, tokens, *, bytes_per_element=2.0):
    """Bytes of the key/value cache a decoder keeps for ``tokens`` tokens.

    Every layer stores one key and one value vector of ``kv_heads x head_dim``
    elements per token:

    .. math:: M_\\text{KV} = 2 \\cdot l \\cdot n_\\text{kv} \\cdot d_\\text{head} \\cdot b \\cdot T

    for :math:`l` layers, :math:`n_\\text{kv}` key/value heads (all heads without
    grouped-query attention), head dimension :math:`d_\\text{head}`, :math:`b`
    bytes per element and :math:`T` tokens (summed over every sequence in a
    batch).

    Parameters
    ----------
    model : TransformerModel
        The architecture.
    tokens : float or array_like
        Tokens cached, over all sequences [token], in [0, 1e15].
    bytes_per_element : float
        2 for FP16/BF16, 1 for an FP8 cache [B], in (0, 64].

    Returns
    -------
    float or numpy.ndarray
        Cache size [B].

    References
    ----------
    Kwon et al., SOSP 2023, §3: 800 KB per token for OPT-13B.

    Examples
    --------
    Llama 3 70B keeps 320 KiB per token (80 layers, 8 KV heads of 128):

    >>> kv_cache_bytes(training.transformer_model("Llama 3 70B"), 1) / 1024
    320.0
    """
    if not isinstance(model, training.TransformerModel):
        raise TypeError(f"model must be a TransformerModel, got {type(model).__name__}")
    tokens = check_number("tokens", tokens, unit="token", minimum=0, maximum=1e15)
    bytes_per_element = check_number("bytes_per_element", bytes_per_element, unit="B",
                                     minimum=0, min_inclusive=False, maximum=64, scalar=True)
    per_token = 2 * model.layers * model.kv_heads * model.head_dim * bytes_per_element
    return as_output(np.multiply(per_token, tokens))


# ============================================================================
# Where the state lives, and the way to it
# ============================================================================

@dataclass(frozen=True, kw_only=True)
class OffloadPlan:
    """Which parts of the training state stay in HBM and which cross the host link each step.

    Parameters
    ----------
    name : str
        Label, e.g. ``"ZeRO-Offload"``.
    on_gpu : tuple of str
        Parts kept in HBM: any of ``"weights"``, ``"gradients"``, ``"optimizer"``;
        the others live in host memory.
    replicated : tuple of str
        Parts of ``on_gpu`` that every GPU holds whole (ZeRO-2 keeps all the 16-bit
        weights on every GPU); the other parts, on the GPU and on the host, are
        split evenly over the GPUs sharing the state.
    to_host : tuple of str
        Parts sent from the GPU to the host every step (a part listed twice
        crosses twice).
    to_device : tuple of str
        Parts sent from the host to the GPU every step.
    directions_overlap : bool
        Whether the two directions run at the same time (True) or one after the
        other (False).
    description : str
        One line for a reader.
    sources : tuple of Source
    """

    name: str
    on_gpu: tuple
    replicated: tuple = ()
    to_host: tuple
    to_device: tuple
    directions_overlap: bool
    description: str
    sources: tuple = ()

    def __post_init__(self):
        for attribute in ("on_gpu", "replicated", "to_host", "to_device"):
            parts = tuple(getattr(self, attribute))
            for part in parts:
                check_choice(f"OffloadPlan.{attribute} state", part, _STATES)
            object.__setattr__(self, attribute, parts)
        if len(set(self.on_gpu)) != len(self.on_gpu):
            raise ValueError(f"OffloadPlan.on_gpu = {self.on_gpu!r} lists a state twice")
        if not set(self.replicated) <= set(self.on_gpu):
            raise ValueError(f"OffloadPlan.replicated = {self.replicated!r} must be parts kept on the GPU "
                             f"(on_gpu = {self.on_gpu!r}): only what is in HBM can be held whole by every GPU")
        if not isinstance(self.directions_overlap, bool):
            raise TypeError(f"OffloadPlan.directions_overlap must be True or False, got {self.directions_overlap!r}")

    @property
    def on_host(self) -> tuple:
        """Parts kept in host memory."""
        return tuple(part for part in _STATES if part not in self.on_gpu)

    def bytes(self, state: TrainingState, shards=1) -> dict:
        """Per GPU: bytes in HBM, in host memory, sent to the host and to the GPU each step [B].

        ``state`` is the whole model's (:func:`training_state`), split over ``shards``
        GPUs: a replicated part counts whole on every GPU, every other part and every
        transfer ``1/shards`` of it.
        """
        shards = check_integer("shards", shards, minimum=1)

        def total(parts, whole=()):
            return as_output(sum((np.asarray(state.part(p), dtype=float) / (1 if p in whole else shards)
                                   for p in parts), np.zeros(())))
        return {"gpu": total(self.on_gpu, self.replicated), "host": total(self.on_host),
                "to_host": total(self.to_host), "to_device": total(self.to_device)}


def _plans():
    entries = [
        OffloadPlan(name="none", on_gpu=_STATES, to_host=(), to_device=(), directions_overlap=True,
                    description="everything in HBM, split over the GPUs (ZeRO-3); nothing crosses the host link"),
        OffloadPlan(name="ZeRO-Offload", on_gpu=("weights",), replicated=("weights",), to_host=("gradients",),
                    to_device=("weights",), directions_overlap=False,
                    description=("ZeRO-2 with the optimizer on the CPU: every GPU keeps all the 16-bit weights; its "
                                 "share of the gradients goes out during the backward pass and its share of the "
                                 "updated weights comes back after the CPU's step"),
                    sources=(ZERO_OFFLOAD, DEEPSPEED_ZERO_OFFLOAD)),
        OffloadPlan(name="ZeRO-3 + CPU optimizer offload", on_gpu=("weights",), to_host=("gradients",),
                    to_device=("weights",), directions_overlap=False,
                    description=("ZeRO-3 with the optimizer on the CPU: the 16-bit weights split over the GPUs "
                                 "too, gathered over the network when used; the host link moves what "
                                 "ZeRO-Offload's does"),
                    sources=(DEEPSPEED_ZERO3_OFFLOAD, ZERO_OFFLOAD)),
        OffloadPlan(name="optimizer state streamed", on_gpu=("weights", "gradients"), to_host=("optimizer",),
                    to_device=("optimizer",), directions_overlap=True,
                    description=("optimizer state in host memory, update on the GPU: the whole state read in "
                                 "and written back every step (what 'transparently spilled' state costs)")),
        OffloadPlan(name="ZeRO-Infinity", on_gpu=(), to_host=("gradients",), to_device=("weights", "weights"),
                    directions_overlap=True,
                    description=("weights, gradients and optimizer state in host memory: weights fetched for "
                                 "the forward and again for the backward pass, gradients out"),
                    sources=(ZERO_INFINITY,)),
    ]
    return MappingProxyType({plan.name: plan for plan in entries})


#: Offload plans by name: what stays in HBM and what crosses the host link every step.
OFFLOAD_PLANS = _plans()


def offload_plan(name: str) -> OffloadPlan:
    """The offload plan called ``name`` (see :data:`OFFLOAD_PLANS`); an unknown name lists the valid ones.

    Parameters
    ----------
    name : str
        A key of :data:`OFFLOAD_PLANS` (an unknown name lists the valid ones);
        an OffloadPlan itself is returned as it is.
    """
    return resolve("offload plan", name, OffloadPlan, OFFLOAD_PLANS)


@dataclass(frozen=True, kw_only=True)
class OffloadPath:
    """The way from a GPU to the memory that holds its offloaded bytes.

    Parameters
    ----------
    name : str
        Label.
    links : tuple of str
        Catalog links crossed, the GPU's own first (e.g. ``("PCIe Gen5 x16",
        "CXL 2.0 x16")`` for a CXL expander behind the host).
    memory : str
        Catalog memory tier that holds the bytes.
    gpus_sharing_memory : int
        GPUs whose offloaded bytes share that memory's bandwidth [-].
    host : str or None
        For memory in the host: the catalog host (``catalog.HOSTS``)
        whose channels and speed set the memory's bandwidth; capacity and latency stay
        those of ``memory`` (the server's). None for other memory.
    description : str
        One line for a reader.
    sources : tuple of Source
        Where the sharing assumption comes from.
    """

    name: str
    links: tuple
    memory: str
    gpus_sharing_memory: int = 1
    host: str | None = None
    description: str = ""
    sources: tuple = ()

    def __post_init__(self):
        links = tuple(self.links)
        if not links:
            raise ValueError(f"OffloadPath {self.name!r} needs at least one catalog link in `links`")
        for name in links:
            catalog.link(name)
        catalog.memory_tier(self.memory)
        if self.host is not None:
            catalog.host(self.host)
        object.__setattr__(self, "links", links)
        object.__setattr__(self, "gpus_sharing_memory",
                           check_integer("OffloadPath.gpus_sharing_memory", self.gpus_sharing_memory, minimum=1))

    @property
    def link_bytes_per_s(self) -> float:
        """The narrowest link on the way, one direction [B/s]."""
        return min(catalog.link(name).per_direction_bytes_per_s for name in self.links)

    @property
    def memory_tier(self) -> catalog.MemoryTier:
        """The memory at the end: the catalog tier, with the host's bandwidth where a host is given."""
        tier = catalog.memory_tier(self.memory)
        if self.host is None:
            return tier
        return catalog.host_memory_tier(self.host, capacity_bytes=tier.capacity_bytes, latency_s=tier.latency_s,
                                        sources=tier.sources)

    @property
    def memory_bytes_per_s(self) -> float:
        """This GPU's share of the memory's bandwidth [B/s], in the tier's sense (total or per direction)."""
        return self.memory_tier.bandwidth_bytes_per_s / self.gpus_sharing_memory

    @property
    def memory_shared_by_directions(self) -> bool:
        """Whether reads and writes share the memory's bandwidth (DRAM) rather than each getting it."""
        return self.memory_tier.bandwidth_direction == "total"

    @property
    def read_bytes_per_s(self) -> float:
        """Rate of a one-way copy to the GPU: the narrower of the link and this GPU's share of the memory [B/s]."""
        return min(self.link_bytes_per_s, self.memory_bytes_per_s)

    @property
    def capacity_per_gpu_bytes(self) -> float | None:
        """This GPU's share of the memory's capacity [B]; None if the catalog gives no capacity."""
        capacity = self.memory_tier.capacity_bytes
        return None if capacity is None else capacity / self.gpus_sharing_memory


#: The host of the paths in :data:`OFFLOAD_PATHS`: the 8-GPU server of 2023-24 (8 channels of DDR5-4800
#: per socket). ``offload_path(name, host=...)`` puts another catalog host at the end of the same path.
DEFAULT_HOST = "Xeon Platinum 8480C, 8 x DDR5-4800"


def _paths():
    ddr = "Host DDR5 (one Xeon socket)"
    entries = [
        OffloadPath(name=f"host DDR5 over {link}", links=(link,), memory=ddr,
                    gpus_sharing_memory=GPUS_PER_HOST_SOCKET, host=DEFAULT_HOST,
                    description=f"the GPU's {link} link to its host; {GPUS_PER_HOST_SOCKET} GPUs share one socket's DDR5",
                    sources=(_HGX_REFERENCE,))
        for link in ("PCIe Gen3 x16", "PCIe Gen4 x16", "PCIe Gen5 x16", "PCIe Gen6 x16")
    ]
    entries += [
        OffloadPath(name="CXL 2.0 expander behind the host", links=("PCIe Gen5 x16", "CXL 2.0 x16"),
                    memory="CXL memory expander (x16)", gpus_sharing_memory=1,
                    description=("the GPU's PCIe Gen5 x16 link to the host, then the host's CXL 2.0 x16 link to "
                                 "an expander; one expander per GPU, an upper bound")),
        OffloadPath(name="Grace LPDDR5X over NVLink-C2C", links=("NVLink-C2C",),
                    memory="Grace LPDDR5X (one Grace CPU)", gpus_sharing_memory=1,
                    description="a Grace Hopper superchip: one Grace CPU per GPU, joined by NVLink-C2C"),
    ]
    return MappingProxyType({path.name: path for path in entries})


#: Ways from a GPU to the memory that holds offloaded bytes, by name.
OFFLOAD_PATHS = _paths()


def offload_path(name, host=None) -> OffloadPath:
    """The offload path called ``name`` (see :data:`OFFLOAD_PATHS`), with another host at its end if ``host`` is given.

    Parameters
    ----------
    name : str or OffloadPath
        A key of :data:`OFFLOAD_PATHS` (an unknown name lists the valid ones);
        an OffloadPath itself is returned as it is.
    host : str, optional
        A catalog host (``catalog.HOSTS``) for a path that ends in host
        memory: its memory channels and speed replace those of :data:`DEFAULT_HOST`.

    Returns
    -------
    OffloadPath

    Examples
    --------
    The GPUs' share of one socket's memory, on the 2023 host and on a 12-channel DDR5-6400 one:

    >>> from interconnect_lab import units as u
    >>> old = offload_path("host DDR5 over PCIe Gen6 x16")
    >>> new = offload_path("host DDR5 over PCIe Gen6 x16", host="Xeon 6 6900P, 12 x DDR5-6400")
    >>> old.memory_bytes_per_s / u.GB_per_s, new.memory_bytes_per_s / u.GB_per_s
    (76.8, 153.6)
    >>> round(old.read_bytes_per_s / u.GB_per_s, 1), round(new.read_bytes_per_s / u.GB_per_s, 1)   # Gen6 x16: 121
    (76.8, 121.0)
    """
    path = resolve("offload path", name, OffloadPath, OFFLOAD_PATHS)
    if host is None or host == path.host:
        return path
    if path.host is None:
        hosted = [n for n, p in OFFLOAD_PATHS.items() if p.host is not None]
        raise ValueError(f"host = {host!r} is not valid for path {path.name!r}: its memory is not a host's; "
                         f"paths to host memory are: {', '.join(map(repr, hosted))}")
    check_choice("host", host, catalog.HOSTS)
    return dataclasses.replace(path, name=f"{path.name} ({host})", host=host,
                               description=f"{path.description}; host {host}")


def transfer_time(to_host_bytes, to_device_bytes, path, *, directions_overlap=True):
    """Time to move bytes between a GPU and the memory at the end of ``path`` [s].

    .. math::

        t = \\max\\Big(\\frac{D}{B_\\text{link}},\\ \\frac{U}{B_\\text{link}},\\
            \\frac{D + U}{B_\\text{mem}/n}\\Big) \\quad\\text{(directions overlap)},\\qquad
        t = \\frac{D + U}{\\min(B_\\text{link},\\ B_\\text{mem}/n)} \\quad\\text{(one after the other)}

    for :math:`D` bytes to the host and :math:`U` to the GPU, the narrowest link's
    rate per direction :math:`B_\\text{link}` and this GPU's share
    :math:`B_\\text{mem}/n` of a memory whose reads and writes share one budget
    (for a memory quoted per direction the third term is
    :math:`\\max(D, U)/(B_\\text{mem}/n)`). Line rates, no latency: a lower bound.

    Parameters
    ----------
    to_host_bytes, to_device_bytes : float or array_like
        Bytes moved each way [B], >= 0.
    path : OffloadPath or str
        The way to the memory (a name from :data:`OFFLOAD_PATHS` or a what-if).
    directions_overlap : bool
        Whether both directions run at the same time.

    Returns
    -------
    float or numpy.ndarray
        Time [s].

    Examples
    --------
    >>> from interconnect_lab import units as u
    >>> pcie5 = offload_path("host DDR5 over PCIe Gen5 x16")
    >>> round(transfer_time(0, 63.015 * u.GB, pcie5), 3)     # one way at the link's rate
    1.0
    >>> round(transfer_time(50 * u.GB, 50 * u.GB, pcie5), 2)  # both ways: a quarter of one socket's DDR5
    1.3
    """
    path = offload_path(path)
    down = check_number("to_host_bytes", to_host_bytes, unit="B", minimum=0)
    up = check_number("to_device_bytes", to_device_bytes, unit="B", minimum=0)
    if not isinstance(directions_overlap, bool):
        raise TypeError(f"directions_overlap must be True or False, got {directions_overlap!r}")
    link, memory = path.link_bytes_per_s, path.memory_bytes_per_s
    if not directions_overlap:
        return as_output(np.add(down, up) / min(link, memory))
    through_memory = (np.add(down, up) if path.memory_shared_by_directions else np.maximum(down, up)) / memory
    return as_output(np.maximum(np.maximum(down, up) / link, through_memory))


# ============================================================================
# A training step with offloaded state
# ============================================================================

@dataclass(frozen=True)
class OffloadStep:
    """One training step with part of the state in host memory (per GPU; floats or arrays).

    Attributes
    ----------
    model, gpu, plan, path : str
        What was computed.
    shards : int
        GPUs the state is split over (ZeRO-style) [-].
    tokens_per_gpu : float or numpy.ndarray
        Tokens each GPU processes per step [token].
    gpu_bytes, host_bytes : float
        Training state kept in HBM and in host memory, per GPU [B].
    all_on_gpu_bytes : float
        The same state with nothing offloaded, per GPU [B].
    to_host_bytes, to_device_bytes : float
        Bytes crossing the host link each step, each way, per GPU [B].
    hbm_bytes : float
        The GPU's HBM [B].
    host_capacity_bytes : float or None
        This GPU's share of the host memory's capacity [B]; None if unknown.
    step : StepTime
        Compute, transfer (as communication) and overlap.
    """

    model: str
    gpu: str
    plan: str
    path: str
    shards: int
    tokens_per_gpu: float | np.ndarray
    gpu_bytes: float
    host_bytes: float
    all_on_gpu_bytes: float
    to_host_bytes: float
    to_device_bytes: float
    hbm_bytes: float
    host_capacity_bytes: float | None
    step: StepTime = field(repr=False)

    @property
    def compute_s(self):
        """GPU compute per step [s]."""
        return self.step.compute_s

    @property
    def transfer_s(self):
        """Host-link transfers per step, on their own [s]."""
        return self.step.communication_s

    @property
    def exposed_s(self):
        """Transfer time the GPU waits for [s]."""
        return self.step.exposed_communication_s

    @property
    def step_s(self):
        """Length of the step [s]."""
        return self.step.step_s

    @property
    def added_fraction(self):
        """How much longer the step is than its compute alone, ``step_s / compute_s - 1`` [-]."""
        return as_output(np.divide(self.step.step_s, self.step.compute_s) - 1.0)

    @property
    def fits_hbm(self) -> bool:
        """Whether the state kept on the GPU fits its HBM (activations not counted)."""
        return bool(self.gpu_bytes <= self.hbm_bytes)

    @property
    def fits_host(self) -> bool | None:
        """Whether the offloaded state fits this GPU's share of host memory; None if unknown."""
        if self.host_capacity_bytes is None:
            return None
        return bool(self.host_bytes <= self.host_capacity_bytes)


def _compute_s(model, gpu, tokens, efficiencies):
    rate = gpu.bf16_flop_per_s * efficiencies.gemm * training.matmul_fraction_of_peak(gpu)
    return as_output(np.multiply(training.flops_per_token(model), tokens) / rate)


def offload_step(model, gpu, plan, path, *, tokens_per_gpu, shards=1, overlap_fraction=0.0,
                 efficiencies=None, host=None) -> OffloadStep:
    """Memory and step time of training with part of the state offloaded to host memory.

    The state (:func:`training_state`) is shared by ``shards`` GPUs; the plan
    decides which parts stay in HBM (whole on every GPU where it replicates them,
    as ZeRO-Offload does the 16-bit weights, otherwise each GPU's share) and which
    cross the host link every step (:func:`transfer_time` over ``path``). The GPU computes the model FLOPs of ``tokens_per_gpu`` tokens
    (:func:`interconnect_lab.training.flops_per_token`) at the book's sustained
    matmul rate (``efficiencies.gemm`` x the GPU's measured matmul share of peak),
    and a fraction ``overlap_fraction`` of the transfers can run under that
    compute (:func:`interconnect_lab.utilization.step_time`).

    Per GPU, the share of the step the transfers add is, without overlap,

    .. math::

        \\frac{t_\\text{transfer}}{t_\\text{compute}} \\approx
        \\frac{\\beta\\,\\Psi/d}{B} \\Big/ \\frac{6\\Psi T}{R}
        = \\frac{\\beta R}{6\\, d\\, T B}

    for :math:`\\beta` bytes per parameter crossing the link, :math:`d` shards,
    :math:`T` tokens per GPU and step, sustained rate :math:`R` and link rate
    :math:`B`: the model's size cancels; what matters is how much compute each
    byte moved buys.

    Parameters
    ----------
    model : TransformerModel or str
        The model (or a name from :data:`interconnect_lab.training.MODELS`).
    gpu : catalog.GPU or str
        The GPU.
    plan : OffloadPlan or str
        What is offloaded (:data:`OFFLOAD_PLANS`).
    path : OffloadPath or str
        Where to (:data:`OFFLOAD_PATHS`).
    tokens_per_gpu : float or array_like
        Tokens each GPU processes per step [token], > 0.
    shards : int
        GPUs the state is split over [-], >= 1.
    overlap_fraction : float
        Share of the transfers that can run under compute [-].
    efficiencies : training.Efficiencies, optional
        Defaults to :data:`interconnect_lab.training.DEFAULT_EFFICIENCIES`.
    host : str, optional
        A catalog host at the end of a path to host memory (see :func:`offload_path`).

    Returns
    -------
    OffloadStep

    References
    ----------
    Ren et al., USENIX ATC 2021 (ZeRO-Offload); DeepSpeed, ZeRO-3 Offload (2021); Rajbhandari et al.,
    SC21 (ZeRO-Infinity).

    Examples
    --------
    Llama 3 70B on the 8 H100 of one server does not fit with its state in HBM.
    ZeRO-Offload keeps all 141 GB of 16-bit weights on every GPU and does not fit
    either; ZeRO-3 with the optimizer on the CPU splits the weights too and fits.
    Both move 4 bytes per parameter of each GPU's share across PCIe each step:

    >>> kw = dict(tokens_per_gpu=8192, shards=8)
    >>> steps = [offload_step("Llama 3 70B", "H100 SXM", plan, "host DDR5 over PCIe Gen5 x16", **kw)
    ...          for plan in ("none", "ZeRO-Offload", "ZeRO-3 + CPU optimizer offload")]
    >>> [s.fits_hbm for s in steps]
    [False, False, True]
    >>> round((steps[2].to_host_bytes + steps[2].to_device_bytes) / (70.55e9 / 8), 2)
    4.0
    """
    model = resolve("model", model, training.TransformerModel, training.MODELS)
    gpu = resolve("gpu", gpu, catalog.GPU, catalog.GPUS)
    plan, path = offload_plan(plan), offload_path(path, host)
    efficiencies = efficiencies or training.DEFAULT_EFFICIENCIES
    shards = check_integer("shards", shards, minimum=1)
    tokens = check_number("tokens_per_gpu", tokens_per_gpu, unit="token", minimum=0, min_inclusive=False)
    overlap_fraction = check_number("overlap_fraction", overlap_fraction, minimum=0, maximum=1)
    state = training_state(training.parameter_count(model),
                           optimizer_bytes=efficiencies.optimizer_state_bytes_per_parameter)
    moved = plan.bytes(state, shards)
    transfer_s = transfer_time(moved["to_host"], moved["to_device"], path, directions_overlap=plan.directions_overlap)
    compute_s = _compute_s(model, gpu, tokens, efficiencies)
    return OffloadStep(model=model.name, gpu=gpu.name, plan=plan.name, path=path.name, shards=shards,
                       tokens_per_gpu=tokens, gpu_bytes=moved["gpu"], host_bytes=moved["host"],
                       all_on_gpu_bytes=state.total_bytes / shards, to_host_bytes=moved["to_host"],
                       to_device_bytes=moved["to_device"], hbm_bytes=gpu.hbm_bytes,
                       host_capacity_bytes=path.capacity_per_gpu_bytes,
                       step=step_time(compute_s, transfer_s, overlap_fraction))


@dataclass(frozen=True)
class OffloadLimits:
    """Where an offload plan stops fitting: the largest model whose state fits HBM, the host, and both.

    Activations are not counted, so these are upper bounds.

    Attributes
    ----------
    plan, gpu, path : str
    shards : int
        GPUs sharing the state [-].
    hbm_parameters : float
        Most parameters whose per-GPU state in HBM fits the GPU's HBM [-] (``inf`` if the
        plan keeps nothing there).
    host_parameters : float
        Most parameters whose per-GPU share in host memory fits that GPU's share of it [-]
        (``inf`` if nothing is offloaded; NaN if the path gives no capacity).
    """

    plan: str
    gpu: str
    path: str
    shards: int
    hbm_parameters: float
    host_parameters: float

    @property
    def parameters(self) -> float:
        """Most parameters that fit both [-] (the HBM limit where the host's is unknown)."""
        return self.hbm_parameters if np.isnan(self.host_parameters) else min(self.hbm_parameters,
                                                                                self.host_parameters)

    @property
    def limited_by(self) -> str:
        """``"HBM"`` or ``"host memory"``: which runs out first."""
        return "host memory" if self.parameters < self.hbm_parameters else "HBM"


def offload_limits(plan, gpu, path="host DDR5 over PCIe Gen5 x16", *, shards=1, efficiencies=None,
                   host=None) -> OffloadLimits:
    """The largest model a plan fits on ``shards`` GPUs, by HBM and by host memory (no activations).

    Per parameter, a GPU keeps :math:`\\sum_{p \\in \\text{HBM}} b_p / s_p` bytes in HBM,
    with :math:`s_p = 1` for a part every GPU holds whole and :math:`s_p = d` for a
    part split over the :math:`d` GPUs, and :math:`\\sum_{p \\in \\text{host}} b_p / d`
    in host memory; the limit is the capacity over that.

    Parameters
    ----------
    plan : OffloadPlan or str
        A plan of :data:`OFFLOAD_PLANS`.
    gpu : catalog.GPU or str
        The GPU (its HBM).
    path : OffloadPath or str
        Where the host part lives (its capacity per GPU).
    shards : int
        GPUs sharing the state [-], >= 1.
    efficiencies : training.Efficiencies, optional
        For the optimizer's bytes per parameter.
    host : str, optional
        A catalog host at the end of the path (:func:`offload_path`).

    Returns
    -------
    OffloadLimits

    References
    ----------
    DeepSpeed, ZeRO-3 Offload (2021): "Unlike ZeRO-2 and ZeRO-Offload where the
    parameters have to fit in the memory of a single GPU, ZeRO-3 Offload can
    partition the parameters across GPUs".

    Examples
    --------
    On 80 GB H100s, ZeRO-Offload stops at 40 billion parameters however many GPUs share the
    state (2 bytes per weight, whole on every GPU); ZeRO-3 with CPU offload grows with them:

    >>> for plan in ("ZeRO-Offload", "ZeRO-3 + CPU optimizer offload"):
    ...     limits = [offload_limits(plan, "H100 SXM", shards=d) for d in (1, 8)]
    ...     print(plan, [round(x.hbm_parameters / 1e9) for x in limits], limits[1].limited_by)
    ZeRO-Offload [40, 40] HBM
    ZeRO-3 + CPU optimizer offload [40, 320] host memory
    """
    plan = offload_plan(plan)
    gpu = resolve("gpu", gpu, catalog.GPU, catalog.GPUS)
    path = offload_path(path, host)
    shards = check_integer("shards", shards, minimum=1)
    efficiencies = efficiencies or training.DEFAULT_EFFICIENCIES
    per_parameter = plan.bytes(training_state(1.0, optimizer_bytes=efficiencies.optimizer_state_bytes_per_parameter),
                               shards)
    hbm = gpu.hbm_bytes / per_parameter["gpu"] if per_parameter["gpu"] > 0 else np.inf
    capacity = path.capacity_per_gpu_bytes
    if per_parameter["host"] == 0:
        host_limit = np.inf
    else:
        host_limit = np.nan if capacity is None else capacity / per_parameter["host"]
    return OffloadLimits(plan=plan.name, gpu=gpu.name, path=path.name, shards=shards, hbm_parameters=float(hbm),
                         host_parameters=float(host_limit))


# ============================================================================
# One step of token generation with the KV cache partly outside HBM
# ============================================================================

@dataclass(frozen=True)
class DecodeStep:
    """One decode step (one new token for every sequence of a batch), per GPU.

    Attributes
    ----------
    weights_bytes : float
        Weights each GPU reads every step [B].
    kv_bytes : float or numpy.ndarray
        The batch's whole KV cache on this GPU [B].
    kv_offloaded_bytes : float or numpy.ndarray
        The part of it read across the host link every step [B].
    hbm_bytes : float
        The GPU's HBM [B].
    batch : int
        Sequences decoded together [-].
    step : StepTime
        HBM reads (as compute) and host-link reads (as communication).
    """

    weights_bytes: float
    kv_bytes: float | np.ndarray
    kv_offloaded_bytes: float | np.ndarray
    hbm_bytes: float
    batch: int
    step: StepTime = field(repr=False)

    @property
    def resident_bytes(self):
        """Weights and KV cache kept in HBM [B]."""
        return as_output(self.weights_bytes + np.subtract(self.kv_bytes, self.kv_offloaded_bytes))

    @property
    def fits_hbm(self):
        """Whether weights and the resident KV cache fit in HBM."""
        result = np.less_equal(self.resident_bytes, self.hbm_bytes)
        return bool(result) if np.ndim(result) == 0 else result

    @property
    def step_s(self):
        """Time per decode step [s]."""
        return self.step.step_s

    @property
    def tokens_per_s(self):
        """Tokens generated per second by the batch [token/s]."""
        return as_output(np.divide(self.batch, self.step.step_s))


def decode_step(model, gpu, *, context_tokens, batch=1, offloaded_fraction=0.0, path=None, gpus=1,
                bytes_per_element=2.0, weight_bytes=2.0, overlap_fraction=1.0, host=None) -> DecodeStep:
    """Time of one decode step when a share of the KV cache lives across the host link.

    Generating one token per sequence reads every weight once and every
    sequence's whole KV cache once: at small batch the step is bound by memory
    bandwidth, not FLOPs. With a fraction :math:`\\phi` of the cache
    :math:`M_\\text{KV}` (:func:`kv_cache_bytes`) in host memory,

    .. math::

        t_\\text{HBM} = \\frac{M_W + (1-\\phi) M_\\text{KV}}{B_\\text{HBM}}, \\qquad
        t_\\text{link} = \\frac{\\phi\\, M_\\text{KV}}{B_\\text{path}}

    and the step takes :func:`~interconnect_lab.utilization.step_time` of the two
    with ``overlap_fraction`` of the link reads hidden under the HBM reads
    (1: fetched ahead, layer by layer). Weights and cache are split evenly over
    ``gpus`` tensor-parallel GPUs; FLOPs and the GPUs' own communication are not
    counted: a lower bound on the time.

    Parameters
    ----------
    model : TransformerModel or str
        The model.
    gpu : catalog.GPU or str
        The GPU (its HBM bandwidth and capacity).
    context_tokens : float or array_like
        Tokens in each sequence's context [token], in [0, 1e15].
    batch : int
        Sequences decoded together [-].
    offloaded_fraction : float or array_like
        Share of the KV cache in host memory [-], in [0, 1].
    path : OffloadPath or str, optional
        Where it lives (:data:`OFFLOAD_PATHS`); needed when anything is offloaded.
    gpus : int
        Tensor-parallel GPUs sharing weights and cache [-].
    bytes_per_element : float
        Bytes per cached element [B].
    weight_bytes : float
        Bytes per weight [B].
    overlap_fraction : float
        Share of the host-link reads hidden under the HBM reads [-].
    host : str, optional
        A catalog host at the end of a path to host memory (:func:`offload_path`).

    Returns
    -------
    DecodeStep

    Examples
    --------
    Llama 3 8B, one 128k-token context on an H100, all in HBM:

    >>> step = decode_step("Llama 3 8B", "H100 SXM", context_tokens=131072)
    >>> round(step.kv_bytes / 2**30, 1), round(step.step_s * 1e3, 2)
    (16.0, 9.92)
    """
    model = resolve("model", model, training.TransformerModel, training.MODELS)
    gpu = resolve("gpu", gpu, catalog.GPU, catalog.GPUS)
    batch = check_integer("batch", batch, minimum=1)
    gpus = check_integer("gpus", gpus, minimum=1)
    context = check_number("context_tokens", context_tokens, unit="token", minimum=0, maximum=1e15)
    fraction = check_number("offloaded_fraction", offloaded_fraction, minimum=0, maximum=1)
    weight_bytes = check_number("weight_bytes", weight_bytes, unit="B", minimum=0, min_inclusive=False)
    overlap_fraction = check_number("overlap_fraction", overlap_fraction, minimum=0, maximum=1)
    kv = np.divide(kv_cache_bytes(model, np.multiply(context, batch), bytes_per_element=bytes_per_element), gpus)
    weights = training.parameter_count(model) * weight_bytes / gpus
    offloaded = np.multiply(fraction, kv)
    if path is None:
        if np.any(np.asarray(fraction) > 0):
            raise ValueError("decode_step: offloaded_fraction > 0 needs a `path` to the memory that holds it "
                             f"(one of {', '.join(map(repr, OFFLOAD_PATHS))})")
        link_s = np.zeros(np.shape(offloaded))
    else:
        link_s = transfer_time(0.0, offloaded, offload_path(path, host))
    hbm_s = (weights + np.subtract(kv, offloaded)) / gpu.hbm_bandwidth_bytes_per_s
    return DecodeStep(weights_bytes=float(weights), kv_bytes=as_output(kv), kv_offloaded_bytes=as_output(offloaded),
                      hbm_bytes=gpu.hbm_bytes, batch=batch,
                      step=step_time(as_output(hbm_s), as_output(link_s), overlap_fraction))

