"""All-reduce as serving engines run it: one-shot and two-shot kernels over NVLink, and NCCL's symmetric kernels.

A decode step of a tensor-parallel model all-reduces a few kilobytes twice per
layer. NCCL's classic kernels (:func:`~interconnect_lab.collectives.nccl_time`)
pay a ring's :math:`2(n-1)` steps for them; serving engines do not run those.
Inside one NVLink domain they run kernels of their own that read and write the
other GPUs' memory directly (CUDA IPC or symmetric-memory buffers mapped into every
GPU's address space), captured in CUDA graphs:

- **one-shot**: after a barrier, every GPU loads the whole buffer of each of its
  :math:`n-1` peers over NVLink, adds them up locally and ends with a second
  barrier. One exchange, :math:`(n-1)S` bytes into each GPU (vLLM's
  ``cross_device_reduce_1stage``, TensorRT-LLM's ``ONESHOT``, PyTorch's
  ``one_shot_all_reduce``; SGLang runs vLLM's kernel);
- **two-shot**: a reduce-scatter (each GPU loads and adds its :math:`1/n` slice
  from every peer) then an all-gather (each GPU loads the other reduced slices):
  :math:`2(n-1)S/n` bytes into each GPU, in two phases separated by a barrier
  (vLLM's ``cross_device_reduce_2stage``, TensorRT-LLM's ``TWOSHOT``);
- **multimem**: the same two phases through the NVSwitch's multicast (NVLink
  SHARP): the switch reads and adds a slice from every GPU and writes the result
  back to all of them, :math:`S(1 + 1/n)` bytes through each GPU's NVLink
  (PyTorch's ``multimem_all_reduce_``, which vLLM runs on four to eight Hopper GPUs).

Each is one α-β line over the GPU's NVLink, as chapter 7 teaches:

.. math::

    t = t_\\text{kernel} + \\frac{\\beta_k(n)\\,S}{B_\\text{NVLink}}, \\qquad
    \\beta_\\text{one-shot} = n-1,\\;
    \\beta_\\text{two-shot} = \\tfrac{2(n-1)}{n},\\;
    \\beta_\\text{multimem} = 1 + \\tfrac{1}{n}

with :math:`B_\\text{NVLink}` one GPU's NVLink bandwidth as NCCL counts it
(:attr:`CollectiveSystem.nvlink_bytes_per_s`). The fixed costs are NCCL's own
prices for kernels of the same design on Hopper (its symmetric kernels, below):
4.5 µs for a kernel whose flags travel in its data, plus the engines' two explicit
barriers at NCCL's NVLink low-latency hop latency, 0.6 µs each ("Latency = 1 p2p
write", vLLM's source), for one-shot (5.7 µs); 7.8 µs for the barrier-synchronised
load/store kernels, two-shot and multimem. A kernel launched from a CUDA graph
does not get slower with the GPU generation: the engines' kernels keep these
fixed costs on Blackwell (see ``SERVING_KERNEL_SOURCES``).

**NCCL's symmetric kernels** (NCCL 2.27 and later, buffers registered as symmetric
windows) are the same three designs inside NCCL, with their own cost model:
:func:`nccl_symmetric_all_reduce` is that model as NCCL's ``src/sym_kernels.cc``
writes it, kernel by kernel, with the block count NCCL picks.

**What each engine runs** (``SERVING_ENGINES``) is a rule over the size, read
from its code at one commit; above its largest custom size, or across nodes, an
engine calls NCCL (:func:`~interconnect_lab.collectives.nccl_time`).
:func:`serving_all_reduce` returns the engine's choice and every candidate's time.

The model leaves out what an engine does around the kernel: copies into a
registered buffer when it runs outside a CUDA graph (eager mode) or through
PyTorch's symmetric memory, and fusions with the following normalisation.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from types import MappingProxyType

import numpy as np

from .. import units as u
from .._validation import check_choice, check_number
from ..sources import Source
from . import tuning
from .nccl import algorithm_costs, nccl_collective, nccl_time
from .system import NCCL_COMMIT, CollectiveSystem

__all__ = [
    "SERVING_KERNELS", "ServingKernel", "serving_kernel_time", "SERVING_KERNEL_SOURCES",
    "SYMMETRIC_KERNELS", "SymmetricAllReduce", "nccl_symmetric_all_reduce",
    "SERVING_ENGINES", "ServingEngine", "ServingAllReduce", "serving_all_reduce",
    "ONE_SHOT_KERNEL_LATENCY_S", "TWO_PHASE_KERNEL_LATENCY_S", "BARRIER_LATENCY_S",
]

# ============================================================================
# Sources: code at a commit, and the releases that introduced each mechanism
# ============================================================================

NCCL_SYMMETRIC_SOURCE = Source(
    title="NVIDIA, NCCL source: src/sym_kernels.cc (2.30-dev)", year=2026,
    url=f"https://github.com/NVIDIA/nccl/blob/{NCCL_COMMIT}/src/sym_kernels.cc",
    locator="queryModel_lsa, model, softmin, softplus, ncclSymkMask, ncclSymkPickKernel",
    note="symmetric all-reduce kernels AGxLL_R (one-shot, LL flags), AGxLLMC_R (one-shot through multicast), "
         "RSxLD_AGxST (two-shot by loads and stores), RSxLDMC_AGxSTMC (two-shot through NVLink SHARP); Hopper base "
         "latencies 4.5 us (LL) and 7.8 us, 65 GiB/s per block, 320 GiB/s peak (480 with multicast); Blackwell "
         "11 and 19.5 us, 55 GiB/s per block, 600 and 1,000 GiB/s; non-LL all-reduce kernels need registered windows")
NCCL_227_RELEASE = Source(
    title="NVIDIA, NCCL 2.27.3-1 release (tag v2.27.3-1, commit 72d2432)", year=2025,
    url="https://github.com/NVIDIA/nccl/releases/tag/v2.27.3-1",
    note="symmetric memory API and symmetric kernels, 'redesign from the ground up'; the first implementation "
         "supports non-network communicators only (P2P and NVLS transports)")
NCCL_227_BLOG = Source(
    title="NVIDIA Technical Blog, Enabling Fast Inference and Resilient Training with NCCL 2.27", year=2025,
    url="https://developer.nvidia.com/blog/enabling-fast-inference-and-resilient-training-with-nccl-2-27/",
    note="low-latency kernels with symmetric memory: 'up to 9x reduction in latency for small message sizes'")
VLLM_KERNEL_SOURCE = Source(
    title="vLLM source: csrc/custom_all_reduce.cuh", year=2024,
    url="https://github.com/vllm-project/vllm/blob/036bb685581dbedcd6cf7fc845fe87268c7d1191/csrc/custom_all_reduce.cuh",
    locator="start_sync, end_sync, cross_device_reduce_1stage, cross_device_reduce_2stage, CustomAllreduce::allreduce",
    note="one barrier is 'Latency = 1 p2p write'; 1-stage when 2 GPUs, or up to 4 GPUs below 512 KiB, or up to "
         "8 GPUs below 256 KiB; 2-stage otherwise; 2, 4, 6 or 8 GPUs")
VLLM_DISPATCH_SOURCE = Source(
    title="vLLM source: vllm/distributed/device_communicators/{cuda_communicator, custom_all_reduce, "
          "all_reduce_utils}.py", year=2026,
    url="https://github.com/vllm-project/vllm/blob/00d618aab60448acdf3fac3e9c4e2e22d0c6c753/"
        "vllm/distributed/device_communicators/all_reduce_utils.py",
    locator="CudaCommunicator.all_reduce; CustomAllreduce.should_custom_ar (max_size 8 MiB); "
            "CUSTOM_ALL_REDUCE_MAX_SIZES, SYMM_MEM_ALL_REDUCE_MAX_SIZES",
    note="custom all-reduce first (one node, fully NVLink-connected), then PyTorch symmetric memory, then NCCL; "
         "with symmetric memory on (the default), custom all-reduce stops at 256 KiB on 8 Hopper GPUs, 1 MiB on "
         "8 B200")
VLLM_SYMM_MEM_SOURCE = Source(
    title="vLLM source: vllm/distributed/device_communicators/symm_mem.py", year=2026,
    url="https://github.com/vllm-project/vllm/blob/00859a52088e757514a25dddd0214ccc89898a1c/"
        "vllm/distributed/device_communicators/symm_mem.py",
    locator="SymmMemCommunicator._WORLD_SIZES_MULTIMEM, all_reduce",
    note="multimem_all_reduce_ on 4, 6 or 8 Hopper GPUs and 6 or 8 Blackwell GPUs, two_shot_all_reduce_ otherwise; "
         "the input is copied into the symmetric buffer and back")
TRTLLM_SOURCE = Source(
    title="TensorRT-LLM source: cpp/tensorrt_llm/plugins/ncclPlugin/allreducePlugin.cpp and "
          "common/customAllReduceUtils.h", year=2024,
    url="https://github.com/NVIDIA/TensorRT-LLM/blob/b57221b764bc579cbb2490154916a871f620e2c4/"
        "cpp/tensorrt_llm/plugins/ncclPlugin/allreducePlugin.cpp",
    locator="AllreducePlugin::selectImplementation; getMaxRequiredWorkspaceSize (commit 005b299b)",
    note="AUTO: one-shot on 2 GPUs; on up to 4 below 1,000,000 B, on more below 500,000 B; two-shot above; NCCL "
         "(RING) beyond the workspace, 16,000,000 B on 2 GPUs and 8,000,000 B on more")
SGLANG_KERNEL_SOURCE = Source(
    title="SGLang pull request #5079: transfer custom allreduce from the TensorRT-LLM kernel to the vLLM kernel",
    year=2025, url="https://github.com/sgl-project/sglang/pull/5079",
    note="SGLang's sgl-kernel runs vLLM's one-shot and two-shot kernels")
NCCL_LL_HOP_SOURCE = tuning.NCCL_TUNING_SOURCE

#: Where each mechanism and each constant of the engines' kernels comes from.
SERVING_KERNEL_SOURCES = MappingProxyType({
    "ONE_SHOT_KERNEL_LATENCY_S": (NCCL_SYMMETRIC_SOURCE,),
    "TWO_PHASE_KERNEL_LATENCY_S": (NCCL_SYMMETRIC_SOURCE,),
    "BARRIER_LATENCY_S": (NCCL_LL_HOP_SOURCE, VLLM_KERNEL_SOURCE),
    "fixed costs on Blackwell": (Source(
        title="NVIDIA/nccl-tests issue #333: how to benchmark symmetric memory", year=2025,
        url="https://github.com/NVIDIA/nccl-tests/issues/333",
        note="NCCL developer: 'I routinely get under 8us with all_reduce_perf for messages sizes up to 1KB, on a "
             "single-node GB200 (4 GPUs)' (NCCL's own table prices it at 11 us)"),),
    "one_shot": (VLLM_KERNEL_SOURCE, TRTLLM_SOURCE, SGLANG_KERNEL_SOURCE),
    "two_shot": (VLLM_KERNEL_SOURCE, TRTLLM_SOURCE),
    "multimem": (VLLM_SYMM_MEM_SOURCE, NCCL_SYMMETRIC_SOURCE),
    "nccl_symmetric": (NCCL_SYMMETRIC_SOURCE, NCCL_227_RELEASE, NCCL_227_BLOG),
})

# ============================================================================
# The engines' kernels
# ============================================================================

#: Fixed cost of a one-shot kernel whose flags travel with its data: NCCL's price of its symmetric
#: LL all-reduce on Hopper (``baseLat`` for LL kernels in ``queryModel_lsa``) [s].
ONE_SHOT_KERNEL_LATENCY_S = 4.5 * u.us

#: Fixed cost of a barrier-synchronised load/store kernel (two-shot, multimem): NCCL's price of its
#: symmetric non-LL kernels on Hopper [s].
TWO_PHASE_KERNEL_LATENCY_S = 7.8 * u.us

#: One barrier over NVLink: a flag written into every peer's memory and polled, NCCL's latency of
#: one low-latency (LL) step over NVLink (``hwLatencies[NVLINK][RING][LL]``) [s].
BARRIER_LATENCY_S = tuning.HOP_LATENCY_US["nvlink"]["ring"][tuning.PROTOCOLS.index("LL")] * u.us


@dataclass(frozen=True)
class ServingKernel:
    """One all-reduce kernel of the serving engines: its fixed cost and the bytes each GPU's NVLink carries.

    Attributes
    ----------
    name : str
        Key of ``SERVING_KERNELS``.
    description : str
        What the kernel does, in one sentence.
    fixed_latency_s : float
        Size-independent time: the kernel and its barriers [s].
    multicast : bool
        Needs the NVSwitch's multicast (NVLink SHARP).
    """

    name: str
    description: str
    fixed_latency_s: float
    multicast: bool

    def bytes_factor(self, ranks: int) -> float:
        """Bytes through each GPU's NVLink, in one direction, per byte of the message [-]."""
        n = ranks
        return {"one_shot": n - 1.0, "two_shot": 2.0 * (n - 1) / n, "multimem": 1.0 + 1.0 / n}[self.name]


#: The engines' all-reduce kernels, by name: the table that lists them and dispatches to their costs.
SERVING_KERNELS = MappingProxyType({k.name: k for k in (
    ServingKernel("one_shot", "a barrier, every GPU loads all its peers' buffers over NVLink and adds them, "
                  "a barrier", ONE_SHOT_KERNEL_LATENCY_S + 2 * BARRIER_LATENCY_S, False),
    ServingKernel("two_shot", "reduce-scatter by loads from every peer, a barrier, all-gather of the reduced "
                  "slices", TWO_PHASE_KERNEL_LATENCY_S, False),
    ServingKernel("multimem", "the two phases through the NVSwitch's multicast: the switch adds each slice "
                  "and writes it back to every GPU", TWO_PHASE_KERNEL_LATENCY_S, True),
)})


def _check_domain(system, what):
    if not isinstance(system, CollectiveSystem):
        raise TypeError(f"system must be a CollectiveSystem, got {system!r}")
    if system.nodes != 1:
        raise ValueError(f"{what} runs inside one NVLink domain; system spans nodes = {system.nodes} "
                         "(use nodes = 1, or NCCL across domains)")
    if system.nvlink_bytes_per_s <= 0:
        raise ValueError(f"{what} loads peers' memory over NVLink; system has nvlink_bytes_per_s = 0")


def _multicast(system) -> bool:
    return system.nvswitch and system.architecture in ("hopper", "blackwell")


def serving_kernel_time(kernel, size_bytes, system: CollectiveSystem):
    """Time of one serving-engine all-reduce kernel on one NVLink domain [s].

    .. math:: t = t_\\text{kernel} + \\beta_k(n)\\,S / B_\\text{NVLink}

    Parameters
    ----------
    kernel : str
        A key of ``SERVING_KERNELS``: ``"one_shot"``, ``"two_shot"`` or ``"multimem"``.
    size_bytes : float or array_like
        The all-reduced buffer [B], in [0, 1e30].
    system : CollectiveSystem
        One NVLink domain (``nodes = 1``); ``"multimem"`` needs an NVSwitch of Hopper or later.

    Returns
    -------
    float or numpy.ndarray
        Time [s].

    Examples
    --------
    A 16 KiB decode all-reduce on 8 H100: the fixed cost is almost all of it

    >>> from interconnect_lab.collectives.system import collective_system
    >>> round(serving_kernel_time("one_shot", 16 * 1024, collective_system("H100 SXM")) * 1e6, 2)
    6.01
    """
    check_choice("kernel", kernel, SERVING_KERNELS)
    _check_domain(system, f"the {kernel} kernel")
    spec = SERVING_KERNELS[kernel]
    if spec.multicast and not _multicast(system):
        raise ValueError(f"the {kernel} kernel needs NVLink SHARP (an NVSwitch of Hopper or later); "
                         f"system has nvswitch = {system.nvswitch}, architecture = {system.architecture!r}")
    size = check_number("size_bytes", size_bytes, unit="B", minimum=0, maximum=1e30)
    if system.ranks == 1:
        return 0.0 * size
    return spec.fixed_latency_s + spec.bytes_factor(system.ranks) * size / system.nvlink_bytes_per_s


# ============================================================================
# NCCL's symmetric kernels, as NCCL prices them
# ============================================================================

_GIB_PER_S = 2 ** 30 / 1e6            # NCCL's "GBps": bytes per microsecond in one GiB/s
_MAX_BLOCKS = 64                      # ncclSymkMaxBlocks (and the default maxCTAs, MAXCHANNELS)
_LL_BUS_FACTOR = 9.0                  # "2X the bytes, plus some processing, plus no unrolling"
_BLOCK_PENALTY = 0.025                # "2.5% percent increase in time per SM" when NCCL compares kernels

#: NCCL's symmetric all-reduce kernels (``ncclSymkKernelId``), with what each does.
SYMMETRIC_KERNELS = MappingProxyType({
    "AllReduce_AGxLL_R": "one-shot: every GPU writes its buffer with LL flags into every peer, each adds locally",
    "AllReduce_AGxLLMC_R": "one-shot through multicast: one store reaches every peer",
    "AllReduce_RSxLD_AGxST": "two-shot: reduce-scatter by loads, all-gather by stores",
    "AllReduce_RSxLDMC_AGxSTMC": "two-shot through NVLink SHARP: multicast load-reduce, multicast store",
})


def _softmin(x, ceiling, softness):
    return ceiling - softness * math.log1p((math.exp(ceiling / softness) - 1) * math.exp(-x / softness))


def _softplus(x, softness):
    z = x / softness
    return x if z >= 100.0 else softness * math.log1p(math.exp(z))


def _symmetric_model_us(bus_bytes, base_us, blocks, block_rate, multiplier, peak):
    bandwidth = _softmin(blocks * block_rate * multiplier, peak, block_rate)
    return base_us + _softplus(bus_bytes / bandwidth - 1.0, 1.0)


def _symmetric_parameters(kernel, size, n, architecture):
    """(bus bytes, base latency [µs], block rate, multiplier, peak [B/µs], most blocks) of one kernel."""
    hopper = architecture != "blackwell"
    multiplier, most = 1.0, _MAX_BLOCKS
    if kernel in ("AllReduce_AGxLL_R", "AllReduce_AGxLLMC_R"):
        bus = n * size * _LL_BUS_FACTOR
        multiplier = 1.1 if kernel == "AllReduce_AGxLLMC_R" else 1.0
        base = 4.5 if hopper else 11.0
    elif kernel == "AllReduce_RSxLD_AGxST":
        bus, base = 2.0 * size * (n - 1) / n, 7.8 if hopper else 19.5
    else:  # RSxLDMC_AGxSTMC
        bus, base, multiplier = size / n + size, 7.8 if hopper else 19.5, float(n)
        most = math.ceil((16 if hopper else 32) / n)
    block_rate = (65.0 if hopper else 55.0) * _GIB_PER_S
    if kernel == "AllReduce_RSxLDMC_AGxSTMC":
        peak = (480.0 if hopper else 1000.0) * _GIB_PER_S
    else:
        peak = (320.0 if hopper else 600.0) * _GIB_PER_S
    return bus, base, block_rate, multiplier, peak, most


def _query(kernel, size, n, architecture):
    """NCCL's ``queryModel_lsa``: (time [µs], blocks), the fewest blocks within 2.5% of the most's time."""
    bus, base, rate, multiplier, peak, most = _symmetric_parameters(kernel, size, n, architecture)
    best = _symmetric_model_us(bus, base, most, rate, multiplier, peak)
    for blocks in range(1, most):
        time = _symmetric_model_us(bus, base, blocks, rate, multiplier, peak)
        if time <= 1.025 * best:
            return time, blocks
    return best, most


@dataclass(frozen=True)
class SymmetricAllReduce:
    """What NCCL's symmetric kernels run for one all-reduce, and NCCL's price of it.

    Attributes
    ----------
    size_bytes : float
        [B].
    kernel : str
        The chosen key of ``SYMMETRIC_KERNELS``.
    blocks : int
        Thread blocks (CTAs) NCCL launches [-].
    time_s : float
        NCCL's estimate [s].
    candidates : tuple of (str, float, int)
        Every kernel NCCL priced: (name, time [s], blocks).
    """

    size_bytes: float
    kernel: str
    blocks: int
    time_s: float
    candidates: tuple


def nccl_symmetric_all_reduce(size_bytes, system: CollectiveSystem, *, registered=True) -> SymmetricAllReduce:
    """NCCL's choice among its symmetric all-reduce kernels, and its price, as ``src/sym_kernels.cc`` computes it.

    Each kernel :math:`k` is priced from the bytes its busiest link carries
    :math:`S_k` (LL kernels count 9 times the gathered bytes), a base latency
    :math:`\\ell_k`, a rate per thread block :math:`r` and a peak :math:`P`:

    .. math::

        t_k(b) = \\ell_k + \\operatorname{softplus}\\!\\left(\\frac{S_k}{\\operatorname{softmin}(b\\,r\\,m_k, P)}
                 - 1\\right) \\ [\\mu s]

    NCCL takes the fewest blocks :math:`b` within 2.5% of its time with 64 and runs
    the kernel with the least :math:`t_k (1 + 0.025\\,b)`.

    Parameters
    ----------
    size_bytes : float
        The all-reduced buffer [B], in [1, 2**31) (LL kernels count elements in 32-bit integers).
    system : CollectiveSystem
        One NVLink domain (NCCL's symmetric all-reduce needs every GPU directly on NVLink).
    registered : bool
        Input and output buffers registered as symmetric windows; without, only the LL kernels run.

    Returns
    -------
    SymmetricAllReduce

    References
    ----------
    NVIDIA, NCCL ``src/sym_kernels.cc`` (2.30-dev, commit 5067397c); NCCL 2.27.3-1 release notes.

    Examples
    --------
    >>> from interconnect_lab.collectives.system import collective_system
    >>> r = nccl_symmetric_all_reduce(4096, collective_system("H100 SXM"))
    >>> r.kernel, r.blocks, round(r.time_s * 1e6, 2)
    ('AllReduce_AGxLLMC_R', 4, 5.23)
    """
    _check_domain(system, "NCCL's symmetric all-reduce")
    size = float(check_number("size_bytes", size_bytes, unit="B", minimum=1, maximum=2 ** 31,
                              max_inclusive=False, scalar=True))
    if not isinstance(registered, bool):
        raise TypeError(f"registered must be True or False, got {registered!r}")
    n = system.ranks
    if n == 1:
        return SymmetricAllReduce(size, "AllReduce_AGxLL_R", 1, 0.0, (("AllReduce_AGxLL_R", 0.0, 1),))
    multicast = _multicast(system) and n > 2
    kernels = [k for k in SYMMETRIC_KERNELS
               if (multicast or "MC" not in k) and (registered or "LL" in k)]
    candidates, best, best_score = [], None, math.inf
    for kernel in kernels:
        time_us, blocks = _query(kernel, size, n, system.architecture)
        candidates.append((kernel, time_us * u.us, blocks))
        score = time_us * (1.0 + _BLOCK_PENALTY * blocks)
        if score < best_score:
            best, best_score = (kernel, time_us * u.us, blocks), score
    return SymmetricAllReduce(size, best[0], best[2], best[1], tuple(candidates))


# ============================================================================
# What each engine runs
# ============================================================================

_KiB, _MiB = 1024, 1024 * 1024

#: vLLM: largest custom all-reduce with symmetric memory on, and largest symmetric-memory all-reduce,
#: by architecture (compute capability 9.0, 10.0) and GPUs [B] (``all_reduce_utils.py``).
_VLLM_CUSTOM_MAX = MappingProxyType({"hopper": {2: 64 * _MiB, 4: 32 * _MiB, 6: _MiB // 2, 8: _MiB // 4},
                                     "blackwell": {2: 2 * _MiB, 4: 2 * _MiB, 6: _MiB, 8: _MiB}})
_VLLM_SYMM_MAX = MappingProxyType({"hopper": {2: 64 * _MiB, 4: 32 * _MiB, 6: 64 * _MiB, 8: 64 * _MiB},
                                   "blackwell": {2: 8 * _MiB, 4: 32 * _MiB, 6: 128 * _MiB, 8: 128 * _MiB}})
_VLLM_MULTIMEM_RANKS = MappingProxyType({"hopper": (4, 6, 8), "blackwell": (6, 8)})
_VLLM_DEFAULT_MAX = 8192 * 1024


def _vllm(size, system):
    n, arch = system.ranks, system.architecture
    symm = _multicast(system) and arch in _VLLM_SYMM_MAX and n in _VLLM_SYMM_MAX[arch]
    custom_ok = n in (2, 4, 6, 8) and (n == 2 or system.nvswitch)
    custom_max = min(_VLLM_DEFAULT_MAX, _VLLM_CUSTOM_MAX[arch][n]) if symm else _VLLM_DEFAULT_MAX
    one_shot = n == 2 or (n <= 4 and size < 512 * _KiB) or (n <= 8 and size < 256 * _KiB)
    if custom_ok and size < custom_max:
        return "one_shot" if one_shot else "two_shot"
    if symm and size <= _VLLM_SYMM_MAX[arch][n]:
        return "multimem" if n in _VLLM_MULTIMEM_RANKS[arch] else "two_shot"
    return "nccl"


def _tensorrt_llm(size, system):
    n = system.ranks
    if n % 2 or n > 8 or not (n == 2 or system.nvswitch):
        return "nccl"
    if size > (16e6 if n <= 2 else 8e6):
        return "nccl"
    if n <= 2:
        return "one_shot"
    if n <= 4:
        return "one_shot" if size < 1e6 else "two_shot"
    return "one_shot" if size < 5e5 else "two_shot"


def _nccl_symmetric(size, system):
    return "nccl_symmetric" if size >= 1 and size < 2 ** 31 else "nccl"


def _nccl(size, system):
    return "nccl"


@dataclass(frozen=True)
class ServingEngine:
    """A serving engine's (or library's) rule for which all-reduce to run.

    Attributes
    ----------
    name : str
        Key of ``SERVING_ENGINES``.
    description : str
        The rule, in words.
    source : Source
        The code it is read from.
    """

    name: str
    description: str
    source: Source
    _rule: object = None

    def mechanism(self, size_bytes: float, system: CollectiveSystem) -> str:
        """What the engine runs for one all-reduce of ``size_bytes`` on ``system``: a key of
        ``SERVING_KERNELS``, ``"nccl_symmetric"`` or ``"nccl"``."""
        if system.ranks == 1:
            return "none"
        if system.nodes > 1 or system.nvlink_bytes_per_s <= 0:
            return "nccl"
        return self._rule(size_bytes, system)


#: The engines, by name: each one's rule for choosing its all-reduce.
SERVING_ENGINES = MappingProxyType({e.name: e for e in (
    ServingEngine("vLLM", "one-shot below 256 KiB on 8 Hopper GPUs (512 KiB on 4, always on 2), two-shot to its "
                  "custom limit, then PyTorch symmetric memory (multimem on 4 to 8 Hopper GPUs), then NCCL",
                  VLLM_DISPATCH_SOURCE, _vllm),
    ServingEngine("TensorRT-LLM", "one-shot below 500 kB on more than 4 GPUs (1 MB on 4, always on 2), two-shot "
                  "to 8 MB (16 MB on 2), then NCCL", TRTLLM_SOURCE, _tensorrt_llm),
    ServingEngine("NCCL symmetric", "NCCL 2.27 or later with symmetric buffers: its one-shot, two-shot and "
                  "NVLink SHARP kernels, priced by NCCL", NCCL_SYMMETRIC_SOURCE, _nccl_symmetric),
    ServingEngine("NCCL", "NCCL's classic kernels: ring or tree, LL to Simple, NVLink SHARP for large messages",
                  tuning.NCCL_TUNING_SOURCE, _nccl),
)})


@dataclass(frozen=True)
class ServingAllReduce:
    """An all-reduce as a serving engine runs it: the mechanism it picks, its time, and the alternatives.

    Attributes
    ----------
    engine : str
        Key of ``SERVING_ENGINES``.
    system : CollectiveSystem
        The machine.
    size_bytes : float
        [B].
    mechanism : str
        ``"one_shot"``, ``"two_shot"``, ``"multimem"``, ``"nccl_symmetric"``, ``"nccl"`` or ``"none"`` (one GPU).
    time_s : float
        [s].
    candidates : tuple of (str, float)
        Every mechanism that can run on this machine, with its time [s].
    detail : str
        The NCCL algorithm and protocol, or the symmetric kernel, when NCCL runs it.
    fixed_latency_s : float
        The part of ``time_s`` that does not depend on the size: the kernel's fixed cost, or the
        latency of what NCCL runs [s].
    """

    engine: str
    system: CollectiveSystem
    size_bytes: float
    mechanism: str
    time_s: float
    candidates: tuple
    detail: str = ""
    fixed_latency_s: float = 0.0

    @property
    def latency_share(self) -> float:
        """Share of the time that does not depend on the size: the fixed cost over the time [-]."""
        return min(self.fixed_latency_s / self.time_s, 1.0) if self.time_s > 0 else 0.0

    @property
    def nccl_time_s(self) -> float:
        """What NCCL's classic kernels would take for the same all-reduce [s]."""
        return dict(self.candidates).get("nccl", 0.0)


def _candidates(size, system):
    """Every mechanism's time on this machine [s], infinite where it cannot run."""
    times = {}
    domain = system.nodes == 1 and system.nvlink_bytes_per_s > 0
    for name, spec in SERVING_KERNELS.items():
        runs = domain and (not spec.multicast or _multicast(system))
        times[name] = float(serving_kernel_time(name, size, system)) if runs else math.inf
    times["nccl_symmetric"] = (nccl_symmetric_all_reduce(size, system).time_s
                               if domain and 1 <= size < 2 ** 31 else math.inf)
    times["nccl"] = float(nccl_time("all_reduce", size, system))
    return times


def serving_all_reduce(size_bytes, system: CollectiveSystem, engine="vLLM") -> ServingAllReduce:
    """One all-reduce as ``engine`` runs it on ``system``: its choice, time and alternatives.

    Inside one NVLink domain, an engine picks a kernel by size with the rule
    of ``SERVING_ENGINES`` and the kernel takes :func:`serving_kernel_time`
    (or :func:`nccl_symmetric_all_reduce`); across domains, or beyond its
    largest custom size, it calls NCCL (:func:`~interconnect_lab.collectives.nccl_time`).

    Parameters
    ----------
    size_bytes : float
        The all-reduced buffer (one tensor-parallel layer's output: tokens x hidden x bytes) [B], in [0, 1e30].
    system : CollectiveSystem
        The tensor-parallel group's machine.
    engine : str
        A key of ``SERVING_ENGINES``.

    Returns
    -------
    ServingAllReduce

    Examples
    --------
    One decoded sequence of Llama 3 70B (16 KiB) on 8 H100: vLLM's one-shot kernel
    against NCCL's ring

    >>> from interconnect_lab.collectives.system import collective_system
    >>> r = serving_all_reduce(16 * 1024, collective_system("H100 SXM"))
    >>> r.mechanism, round(r.time_s * 1e6, 1), round(r.nccl_time_s * 1e6, 1)
    ('one_shot', 6.0, 18.8)
    """
    check_choice("engine", engine, SERVING_ENGINES)
    if not isinstance(system, CollectiveSystem):
        raise TypeError(f"system must be a CollectiveSystem, got {system!r}")
    size = float(check_number("size_bytes", size_bytes, unit="B", minimum=0, maximum=1e30, scalar=True))
    if system.ranks == 1:
        return ServingAllReduce(engine, system, size, "none", 0.0, (("none", 0.0),))
    times = _candidates(size, system)
    mechanism = SERVING_ENGINES[engine].mechanism(size, system)
    detail = ""
    if mechanism == "nccl":
        chosen = nccl_collective("all_reduce", size, system)
        detail = f"{chosen.algorithm} {chosen.protocol}"
        fixed = next(c.latency_s for c in algorithm_costs("all_reduce", system)
                     if (c.algorithm, c.protocol) == (chosen.algorithm, chosen.protocol))
    elif mechanism == "nccl_symmetric":
        detail = nccl_symmetric_all_reduce(size, system).kernel
        fixed = _query(detail, 0.0, system.ranks, system.architecture)[0] * u.us
    else:
        fixed = SERVING_KERNELS[mechanism].fixed_latency_s
    candidates = tuple((name, time) for name, time in times.items() if math.isfinite(time))
    return ServingAllReduce(engine, system, size, mechanism, times[mechanism], candidates, detail,
                            min(fixed, times[mechanism]))
