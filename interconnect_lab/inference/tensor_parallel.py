"""Tensor-parallel decode: the all-reduces every generated token waits for, as serving engines run them.

Megatron-style tensor parallelism ends each attention block and each MLP with an
all-reduce of the layer's output: one hidden vector per sequence, a few kilobytes
at small batch, :math:`2l` of them one after the other per decode step. Their
time comes from :func:`interconnect_lab.collectives.serving_all_reduce`: the
engine's one-shot or two-shot kernel inside an NVLink domain, NCCL across nodes.
"""

from __future__ import annotations

from dataclasses import dataclass

from .. import catalog, collectives
from .._lookup import resolve
from .._validation import check_choice, check_integer, check_number
from .models import inference_model

__all__ = ["DecodeAllReduce", "tensor_parallel_decode_all_reduce", "tensor_parallel_system", "SERVING_ENGINES"]

#: The engines whose all-reduce the serving models can run (``interconnect_lab.collectives.SERVING_ENGINES``).
SERVING_ENGINES = tuple(collectives.SERVING_ENGINES)


def tensor_parallel_system(gpu, tensor_parallel, *, nodes=1, network="InfiniBand NDR"):
    """The :class:`~interconnect_lab.collectives.CollectiveSystem` of one tensor-parallel group.

    Parameters
    ----------
    gpu : str or catalog.GPU
        Catalog GPU; its NVLink generation gives the NVLink bandwidth.
    tensor_parallel : int
        GPUs in the group, a multiple of ``nodes`` [-].
    nodes : int
        Servers (NVLink domains) the group spans, >= 1; 1 keeps it on NVLink.
    network : str
        Catalog network port of each GPU, used when ``nodes > 1``.

    Returns
    -------
    CollectiveSystem

    Examples
    --------
    >>> s = tensor_parallel_system("H100 SXM", 8)
    >>> s.ranks, s.nodes
    (8, 1)
    """
    spec = resolve("gpu", gpu, catalog.GPU, catalog.GPUS)
    tp = check_integer("tensor_parallel", tensor_parallel, minimum=1, maximum=2 ** 12)
    nodes = check_integer("nodes", nodes, minimum=1, maximum=tp)
    if tp % nodes:
        raise ValueError(f"tensor_parallel = {tp} is not valid with nodes = {nodes}: the group puts the same number "
                         "of GPUs in every node (a multiple of nodes)")
    return collectives.collective_system(spec, nodes=nodes, gpus_per_node=tp // nodes, network=network,
                                         nics_per_node=tp // nodes)


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
    engine : str
        The serving engine whose all-reduce runs (``SERVING_ENGINES``).
    all_reduce : collectives.ServingAllReduce or None
        One all-reduce, with the mechanism the engine picks; None on one GPU, which needs none.
    """

    model: str
    tensor_parallel: int
    batch: int
    message_bytes: float
    all_reduces_per_token: int
    engine: str
    all_reduce: collectives.ServingAllReduce | None

    @property
    def mechanism(self) -> str:
        """What runs: ``"one_shot"``, ``"two_shot"``, ``"multimem"``, ``"nccl_symmetric"``, ``"nccl"`` or ``"none"``."""
        return "none" if self.all_reduce is None else self.all_reduce.mechanism

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
    def nccl_per_token_s(self) -> float:
        """The same all-reduces with NCCL's classic kernels (ring or tree, LL to Simple) [s]."""
        return 0.0 if self.all_reduce is None else self.all_reduces_per_token * self.all_reduce.nccl_time_s

    @property
    def latency_share(self) -> float:
        """Share of one all-reduce's time that does not depend on its size [-]."""
        return 0.0 if self.all_reduce is None else self.all_reduce.latency_share


def tensor_parallel_decode_all_reduce(model, tensor_parallel, batch=1, *, gpu="H100 SXM", engine="vLLM", nodes=1,
                                      network="InfiniBand NDR", bytes_per_element=2.0) -> DecodeAllReduce:
    """The all-reduces tensor parallelism adds to every decode step, as ``engine`` runs them.

    .. math:: S = B\\,h\\,b, \\qquad t_\\text{token} = 2\\,l\\,t_\\text{all-reduce}(S)

    with :math:`t_\\text{all-reduce}` from :func:`interconnect_lab.collectives.serving_all_reduce`
    on the group's machine (:func:`tensor_parallel_system`).

    Parameters
    ----------
    model : TransformerModel or str
        A dense model (``INFERENCE_MODELS``).
    tensor_parallel : int
        GPUs t [-].
    batch : int
        Sequences decoded together B [-].
    gpu : str or catalog.GPU
        Catalog GPU.
    engine : str
        One of ``SERVING_ENGINES``.
    nodes : int
        Servers the group spans (1: all on NVLink); across servers every engine calls NCCL.
    network : str
        Catalog network port of each GPU, when ``nodes > 1``.
    bytes_per_element : float
        Activations' bytes [B], in (0, 64].

    Returns
    -------
    DecodeAllReduce

    Examples
    --------
    Llama 3 70B on 8 H100, one sequence: vLLM's one-shot kernel against NCCL's ring

    >>> ar = tensor_parallel_decode_all_reduce("Llama 3 70B", 8)
    >>> ar.mechanism, round(ar.per_token_s * 1e3, 2), round(ar.nccl_per_token_s * 1e3, 2)
    ('one_shot', 0.96, 3.01)
    """
    model = inference_model(model)
    batch = check_integer("batch", batch, minimum=1)
    check_choice("engine", engine, SERVING_ENGINES)
    b = check_number("bytes_per_element", bytes_per_element, unit="B", minimum=0, min_inclusive=False, maximum=64,
                     scalar=True)
    system = tensor_parallel_system(gpu, tensor_parallel, nodes=nodes, network=network)
    if model.kv_heads % system.ranks and system.ranks % model.kv_heads:
        raise ValueError(f"tensor_parallel = {system.ranks} does not split {model.name}'s {model.kv_heads} key/value "
                         "heads: it must divide them (or be a multiple of them, replicating each head)")
    if model.heads % system.ranks:
        raise ValueError(f"tensor_parallel = {system.ranks} does not divide {model.name}'s {model.heads} attention "
                         "heads")
    size = float(batch * model.hidden_size * b)
    result = None if system.ranks == 1 else collectives.serving_all_reduce(size, system, engine)
    return DecodeAllReduce(model=model.name, tensor_parallel=system.ranks, batch=batch, message_bytes=size,
                           all_reduces_per_token=2 * model.layers, engine=engine, all_reduce=result)
