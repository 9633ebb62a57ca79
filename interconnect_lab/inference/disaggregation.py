"""Disaggregated prefill and decode, and the KV cache across the network.

When prefill and decode run on different machines (Splitwise, DistServe, and in
production DeepSeek, Mooncake and NVIDIA Dynamo), each request's KV cache crosses
the network from the prefill GPUs to the decode GPUs (:func:`kv_transfer`), as
RDMA writes from GPU memory (NIXL, Mooncake's transfer engine): here NCCL's
point-to-point model of :mod:`interconnect_lab.collectives`, one stream per
sending GPU over its own port.

A prompt that starts like an earlier one can skip recomputing the shared prefix
if that prefix's KV cache is kept somewhere: in HBM (prefix caching), in host
DRAM (LMCache's CPU backend, SGLang's HiCache, Dynamo's KV block manager), in another
machine's DRAM reached over RDMA (Mooncake Store) or on SSDs across the network
(DeepSeek's 3FS). ``KV_TIERS`` lists them with the rate one GPU reads each at;
:func:`disaggregated_ttft` puts loading the cached prefix, prefilling the rest and
moving the cache to decode together into the time to first token, against
recomputing everything.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType

from .. import catalog, collectives, memory, training
from .. import units as u
from .._lookup import resolve
from .._validation import check_choice, check_flag, check_integer, check_number
from ..sources import Source
from .models import KV_CACHE_FORMATS, kv_bytes_per_token, prefill_flops, serving_model

__all__ = ["KVTransfer", "kv_transfer", "KVTier", "KV_TIERS", "kv_tier", "kv_load_time", "DisaggregatedTTFT",
           "disaggregated_ttft"]

#: Most tokens a prompt may hold here [token].
_MAX_TOKENS = 1e9


def _pair(gpu, link):
    """Two GPUs in two servers, each with its own port: what one KV stream crosses."""
    spec = resolve("gpu", gpu, catalog.GPU, catalog.GPUS)
    port = resolve("link", link, catalog.Link, catalog.LINKS)
    if port.family not in ("InfiniBand", "Ethernet"):
        raise ValueError(f"link = {port.name!r} is not a network port: the KV cache crosses the network "
                         "(an InfiniBand or Ethernet link)")
    return collectives.collective_system(spec, nodes=2, gpus_per_node=1, network=port.name, nics_per_node=1)


def _send(size_bytes, system):
    return float(collectives.nccl_time("send_recv", size_bytes, system))


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


def kv_transfer(model, prompt_tokens, *, senders=1, link="InfiniBand NDR", layerwise=False, kv_format="BF16",
                gpu="H100 SXM") -> KVTransfer:
    """Time to move a prompt's KV cache from prefill to decode over the network.

    The cache (:func:`~interconnect_lab.inference.kv_bytes_per_token` x tokens) is
    split over the ``senders`` GPUs of the prefill group; each writes its share to
    its decode peer over its own port, timed as NCCL's send/receive between two
    servers (:func:`interconnect_lab.collectives.nccl_time`):

    .. math:: t = \\ell + \\frac{M_\\text{KV} / s}{\\eta B}

    Sent layer by layer while prefill goes on (Splitwise), only the last layer's
    share is left to wait for.

    Parameters
    ----------
    model : TransformerModel, MoEModel or str
        A key of ``SERVING_MODELS``.
    prompt_tokens : float
        [token], in [0, 1e9].
    senders : int
        GPUs sending in parallel [-] (tensor parallelism splits the cache over them; an
        MLA model with data-parallel attention keeps a request on one GPU).
    link : str or catalog.Link
        Catalog network port of each GPU.
    layerwise : bool
        Overlap the transfer with prefill, layer by layer.
    kv_format : str
        One of ``KV_CACHE_FORMATS``.
    gpu : str or catalog.GPU
        Catalog GPU at both ends (its NCCL class sets the fixed cost).

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
    model = serving_model(model)
    tokens = check_number("prompt_tokens", prompt_tokens, unit="token", minimum=0, maximum=_MAX_TOKENS, scalar=True)
    senders = check_integer("senders", senders, minimum=1, maximum=2 ** 12)
    layerwise = check_flag("layerwise", layerwise)
    kv = kv_bytes_per_token(model, kv_format) * float(tokens)
    system = _pair(gpu, link)
    total = _send(kv / senders, system)
    exposed = _send(kv / senders / model.layers, system) if layerwise else total
    return KVTransfer(kv_bytes=kv, senders=senders, total_s=total, exposed_s=exposed, layerwise=layerwise)


# ============================================================================
# Where a reusable KV cache can wait
# ============================================================================

THREEFS = Source(
    title="DeepSeek-AI, Fire-Flyer File System (3FS) README: Performance, KVCache", year=2025,
    url="https://github.com/deepseek-ai/3FS/blob/11901ca76b830cf9b969c9d1b18f783d03144b15/README.md",
    locator="Performance §3 KVCache",
    note="read throughput of all KVCache clients (1 x 400 Gbps NIC per node), 'peak throughput reaching up to "
         "40 GiB/s'; 3FS serves KV caches from NVMe SSDs over RDMA")
MOONCAKE_README = Source(
    title="Mooncake README: Transfer Engine performance; Mooncake Store", year=2026,
    url="https://github.com/kvcache-ai/Mooncake/blob/3a8593f5d240b44abf24e17de6e405512067c1ba/README.md",
    locator="Use Transfer Engine Standalone: Performance; Mooncake Store",
    note="40 GB (the KV cache of 128k tokens of Llama 3 70B) at up to 87 GB/s over 4 x 200 Gbps and 190 GB/s "
         "over 8 x 400 Gbps RoCE; Mooncake Store keeps reusable KV caches in the cluster's DRAM and SSDs and "
         "stripes large objects over several NICs; Ant Group: cache hits cut TTFT by 84% against recomputation "
         "(DeepSeek-R1, disaggregated)")
LMCACHE = Source(
    title="LMCache README", year=2025, url="https://github.com/LMCache/LMCache",
    note="'By storing the KV caches of reusable texts across various locations, including (GPU, CPU DRAM, Local "
         "Disk), LMCache reuses the KV caches of any reused text (not necessarily prefix) in any serving engine "
         "instance'; integrates with vLLM and SGLang")
DYNAMO = Source(
    title="NVIDIA Dynamo documentation: KV Cache Offloading", year=2026,
    url="https://docs.nvidia.com/dynamo/latest/",
    note="KVBM (KV Block Manager): 'a three-layer architecture (LLM runtime, logical block management, NIXL "
         "transport) with support for CPU and disk cache tiers'; LMCache's backends: CPU RAM, local storage, Redis, "
         "GDS, InfiniStore/Mooncake")
NIXL = Source(
    title="NVIDIA, NIXL: NVIDIA Inference Xfer Library (README)", year=2025, url="https://github.com/ai-dynamo/nixl",
    note="point-to-point transfers for inference frameworks such as Dynamo, one API over HBM, DRAM, local or "
         "remote SSDs and distributed storage, with backends such as UCX and GPUDirect Storage")
DEEPSEEK_INFERENCE = Source(
    title="DeepSeek-AI, Day 6: DeepSeek-V3/R1 Inference System Overview (open-infra-index)", year=2025,
    url="https://github.com/deepseek-ai/open-infra-index/blob/56d86855fcf6e08fdfd45ce6280bd24322c93351/"
        "202502OpenSourceWeek/day_6_one_more_thing_deepseekV3R1_inference_system_overview.md",
    note="prefill EP32/DP32 on 4 nodes (9 routed experts and 1 shared per GPU), decode EP144/DP144 on 18 nodes "
         "(2 routed and 1 shared per GPU), 32 redundant experts; dual-batch overlap; FP8 matmuls and dispatch, "
         "BF16 MLA and combine; in 24 hours 608B input tokens of which 342B (56.3%) hit the on-disk KV cache, "
         "168B output tokens at 20-22 tokens/s per user, average KV length 4,989 per output token; ~73.7k input "
         "tokens/s per H800 node in prefill, ~14.8k output tokens/s per node in decode")


@dataclass(frozen=True, kw_only=True)
class KVTier:
    """A place a reusable KV cache can wait, and how a GPU reads it back.

    Parameters
    ----------
    name : str
        Key of ``KV_TIERS``.
    description : str
        Where the bytes are and what they cross.
    used_by : str
        Systems that keep KV caches there.
    sources : tuple of Source
    """

    name: str
    description: str
    used_by: str
    sources: tuple = ()


_HOST_PATH = "host DDR5 over PCIe Gen5 x16"
#: 3FS: peak read rate of one KVCache client node [B/s] and the GPUs that share it [-].
THREEFS_NODE_READ_BYTES_PER_S = 40 * u.GiB
GPUS_PER_NODE = 8

#: Where a reusable KV cache can wait, nearest first.
KV_TIERS = MappingProxyType({t.name: t for t in (
    KVTier(name="GPU HBM", description="the prefix is still in the GPU's HBM: nothing moves",
           used_by="vLLM automatic prefix caching, SGLang RadixAttention", sources=(memory.VLLM,)),
    KVTier(name="host DRAM", description="the server's DDR5 over each GPU's PCIe Gen5 x16 link, four GPUs per "
                                         "socket (memory.offload_path)",
           used_by="LMCache's CPU backend, SGLang's HiCache, Dynamo's KVBM CPU tier",
           sources=(LMCACHE, DYNAMO, MOONCAKE_README)),
    KVTier(name="peer DRAM over RDMA", description="another server's DRAM, read over each GPU's network port "
                                                   "(NCCL's send/receive model)",
           used_by="Mooncake Store, LMCache remote backends, over NIXL or Mooncake's transfer engine",
           sources=(MOONCAKE_README, NIXL)),
    KVTier(name="SSD over RDMA (3FS)", description="NVMe SSDs of storage servers over RDMA: 40 GiB/s per client "
                                                   "server at peak, shared by its 8 GPUs",
           used_by="DeepSeek's on-disk KV cache on 3FS", sources=(THREEFS, DEEPSEEK_INFERENCE)),
)})


def kv_tier(name) -> KVTier:
    """The KV tier called ``name`` (see ``KV_TIERS``).

    Parameters
    ----------
    name : str or KVTier
        A key of ``KV_TIERS``, or a tier.
    """
    return resolve("tier", name, KVTier, KV_TIERS)


def kv_load_time(tier, bytes_per_gpu, *, gpu="H100 SXM", network="InfiniBand NDR") -> float:
    """Time for one GPU to read ``bytes_per_gpu`` of KV cache back from ``tier`` [s].

    - ``"GPU HBM"``: 0, the cache is where attention reads it;
    - ``"host DRAM"``: :func:`interconnect_lab.memory.transfer_time` over PCIe Gen5 x16;
    - ``"peer DRAM over RDMA"``: NCCL's send/receive between two servers over ``network``;
    - ``"SSD over RDMA (3FS)"``: the GPU's share of 40 GiB/s per server (3FS's peak).

    Parameters
    ----------
    tier : str or KVTier
        A key of ``KV_TIERS``.
    bytes_per_gpu : float
        Bytes this GPU reads [B], in [0, 1e18].
    gpu : str or catalog.GPU
        Catalog GPU.
    network : str or catalog.Link
        Catalog network port of each GPU.

    Returns
    -------
    float
        [s].

    Examples
    --------
    Half a gigabyte from host DRAM and from another server:

    >>> round(kv_load_time("host DRAM", 0.5e9) * 1e3, 2), round(kv_load_time("peer DRAM over RDMA", 0.5e9) * 1e3, 2)
    (7.93, 10.44)
    """
    tier = kv_tier(tier)
    size = float(check_number("bytes_per_gpu", bytes_per_gpu, unit="B", minimum=0, maximum=1e18, scalar=True))
    if tier.name == "GPU HBM":
        resolve("gpu", gpu, catalog.GPU, catalog.GPUS)
        return 0.0
    if tier.name == "host DRAM":
        return float(memory.transfer_time(0.0, size, _HOST_PATH))
    if tier.name == "peer DRAM over RDMA":
        return _send(size, _pair(gpu, network))
    return size / (THREEFS_NODE_READ_BYTES_PER_S / GPUS_PER_NODE)


# ============================================================================
# Time to first token with a cached prefix and a transfer to decode
# ============================================================================

@dataclass(frozen=True)
class DisaggregatedTTFT:
    """Time to first token of one request on a disaggregated deployment with a KV-cache tier.

    Attributes
    ----------
    model : str
    prompt_tokens, cached_tokens : float
        The prompt, and its prefix found in the tier [token].
    tier : str
    kv_bytes : float
        The whole prompt's KV cache [B].
    load_s : float
        Reading the cached prefix back from the tier [s].
    prefill_s : float
        Prefilling the rest [s].
    recompute_s : float
        Prefilling the whole prompt, no cache [s].
    transfer : KVTransfer
        The whole cache from prefill to decode.
    """

    model: str
    prompt_tokens: float
    cached_tokens: float
    tier: str
    kv_bytes: float
    load_s: float
    prefill_s: float
    recompute_s: float
    transfer: KVTransfer

    @property
    def ttft_s(self) -> float:
        """Load the prefix, prefill the rest, wait for the exposed transfer [s]."""
        return self.load_s + self.prefill_s + self.transfer.exposed_s

    @property
    def uncached_ttft_s(self) -> float:
        """The same request with nothing cached [s]."""
        return self.recompute_s + self.transfer.exposed_s

    @property
    def network_s(self) -> float:
        """Time spent moving KV caches (loading and the exposed transfer) [s]."""
        return self.load_s + self.transfer.exposed_s

    @property
    def saving(self) -> float:
        """Share of the uncached TTFT the cache saves (negative when loading costs more than recomputing) [-]."""
        return 1.0 - self.ttft_s / self.uncached_ttft_s


def disaggregated_ttft(model, prompt_tokens, *, cached_fraction=0.0, tier="host DRAM", gpu="H100 SXM",
                       prefill_gpus=8, kv_link="InfiniBand NDR", kv_format="BF16", layerwise=True,
                       compute_efficiency=None) -> DisaggregatedTTFT:
    """TTFT of one request: load its cached prefix from ``tier``, prefill the rest, move the cache to decode.

    .. math::

        t_\\text{TTFT} = t_\\text{load}(C) + \\frac{F(P, C)}{g\\,\\eta R} + t_\\text{KV, exposed}(P)

    with :math:`F` :func:`~interconnect_lab.inference.prefill_flops`, :math:`g` prefill
    GPUs at the measured matmul rate :math:`\\eta R` (FP8 for an MoE model, BF16 for a
    dense one), :math:`t_\\text{load}` :func:`kv_load_time` of the prefix's cache and
    the transfer :func:`kv_transfer`. The :math:`g` GPUs share the prompt's compute and
    its cache, each loading, computing and sending its share over its own port: tensor
    parallelism for a dense model; for an MLA model with data-parallel attention, where
    each GPU serves its own requests, the same totals per request on average.

    Parameters
    ----------
    model : TransformerModel, MoEModel or str
        A key of ``SERVING_MODELS``.
    prompt_tokens : float
        P [token], in [1, 1e9].
    cached_fraction : float
        Share of the prompt found in the tier, C/P [-], in [0, 1].
    tier : str
        A key of ``KV_TIERS``.
    gpu : str or catalog.GPU
        Catalog GPU of prefill and decode.
    prefill_gpus : int
        GPUs that prefill one prompt, g [-].
    kv_link : str or catalog.Link
        Catalog network port of each GPU (the transfer and the RDMA tiers).
    kv_format : str
        One of ``KV_CACHE_FORMATS``.
    layerwise : bool
        Send the cache layer by layer while prefill goes on.
    compute_efficiency : float, optional
        Share of the GPU's dense peak prefill reaches, in [0.001, 1]; the measured matmul rate by default [-].

    Returns
    -------
    DisaggregatedTTFT

    Examples
    --------
    >>> r = disaggregated_ttft("Llama 3 70B", 8192, cached_fraction=0.75, tier="host DRAM")
    >>> round(r.ttft_s * 1e3), round(r.uncached_ttft_s * 1e3)
    (56, 196)
    """
    model = serving_model(model)
    prompt = check_number("prompt_tokens", prompt_tokens, unit="token", minimum=1, maximum=_MAX_TOKENS, scalar=True)
    fraction = check_number("cached_fraction", cached_fraction, minimum=0, maximum=1, scalar=True)
    tier = kv_tier(tier)
    spec = resolve("gpu", gpu, catalog.GPU, catalog.GPUS)
    gpus = check_integer("prefill_gpus", prefill_gpus, minimum=1, maximum=2 ** 12)
    check_choice("kv_format", kv_format, KV_CACHE_FORMATS)
    dense = isinstance(model, training.TransformerModel)
    if compute_efficiency is None:
        rate = (spec.measured_matmul_flop_per_s or spec.bf16_flop_per_s) if dense else \
            (spec.measured_fp8_matmul_flop_per_s or spec.fp8_flop_per_s or spec.bf16_flop_per_s)
    else:
        peak = spec.bf16_flop_per_s if dense else (spec.fp8_flop_per_s or spec.bf16_flop_per_s)
        rate = peak * check_number("compute_efficiency", compute_efficiency, minimum=1e-3, maximum=1, scalar=True)
    cached = float(prompt) * float(fraction)
    senders = gpus
    kv = kv_bytes_per_token(model, kv_format) * float(prompt)
    load = kv_load_time(tier, kv_bytes_per_token(model, kv_format) * cached / senders, gpu=spec, network=kv_link)
    prefill = prefill_flops(model, prompt, cached) / (gpus * rate)
    recompute = prefill_flops(model, prompt) / (gpus * rate)
    transfer = kv_transfer(model, prompt, senders=senders, link=kv_link, layerwise=layerwise, kv_format=kv_format,
                           gpu=spec)
    return DisaggregatedTTFT(model=model.name, prompt_tokens=float(prompt), cached_tokens=cached, tier=tier.name,
                             kv_bytes=kv, load_s=float(load), prefill_s=float(prefill), recompute_s=float(recompute),
                             transfer=transfer)
