"""What serving papers, engines and vendors published about inference traffic.

DistServe's KV-transfer example, Splitwise's measured KV-transfer overheads,
TensorRT-LLM's MultiShot all-reduce speed-up, the small all-reduce latencies
serving engines' developers measured on 8 H100 (SGLang, vLLM), Mooncake's KV
transfer rates and the decode throughputs of wide expert-parallel deployments
(DeepSeek, SGLang), each as printed.
"""

from __future__ import annotations

from dataclasses import dataclass

from .. import units as u
from ..sources import Source

__all__ = ["DISTSERVE", "SPLITWISE", "TRTLLM_MULTISHOT", "KVTransferExample", "DISTSERVE_KV_EXAMPLE",
           "KVTransferObservation", "SPLITWISE_KV_TRANSFER", "AllReduceSpeedup", "MULTISHOT_SPEEDUP",
           "SGLANG_PR_2904", "VLLM_PR_24111", "VLLM_PR_33839", "AllReduceLatency", "SERVING_ALL_REDUCE_LATENCIES",
           "SymmetricSpeedup", "NCCL_SYMMETRIC_SPEEDUP", "MOONCAKE_TRANSFER_ENGINE", "KVTransferRate",
           "MOONCAKE_KV_TRANSFERS", "LMSYS_LARGE_SCALE_EP", "LMSYS_GB200", "DecodeThroughput",
           "WIDE_EP_DECODE_THROUGHPUTS"]

DISTSERVE = Source(
    title="Y. Zhong et al., DistServe: Disaggregating Prefill and Decoding for Goodput-optimized Large Language "
          "Model Serving (OSDI 2024)", year=2024, url="https://arxiv.org/abs/2401.09670", locator="§3.3",
    note="'the KV cache size of a single 512-token request on OPT-66B is approximately 1.13GB ... at 10 rps ... "
         "11.3GB data per second -- or equivalently 90Gbps'")

SPLITWISE = Source(
    title="P. Patel et al., Splitwise: Efficient Generative LLM Inference Using Phase Splitting (ISCA 2024)",
    year=2024, url="https://arxiv.org/abs/2311.18677", locator="§VI-A, Fig. 14-15",
    note="serialized transfer grows with the prompt; per-layer transfer leaves about 8 ms (A100, 200 Gb/s) and "
         "5 ms (H100, 400 Gb/s) not overlapped; the H100 setup transfers about twice as fast; overhead below 7% "
         "of prompt computation; 0.8% of end-to-end latency against 3% serialized")

TRTLLM_MULTISHOT = Source(
    title="NVIDIA Technical Blog, 3x Faster AllReduce with NVSwitch and TensorRT-LLM MultiShot", year=2024,
    url="https://developer.nvidia.com/blog/3x-faster-allreduce-with-nvswitch-and-tensorrt-llm-multishot/",
    note="ring all-reduce takes 2N-2 steps; MultiShot uses NVSwitch multicast for two steps regardless of N; "
         "up to 3x faster than the ring on HGX H200 for the small messages of low-latency inference")


@dataclass(frozen=True, kw_only=True)
class KVTransferExample:
    """A worked example of KV-cache traffic, as a paper states it.

    Attributes
    ----------
    model : str
    prompt_tokens : int
        [token].
    kv_bytes_as_stated : float
        The size as printed, in the unit the paper wrote ("GB") taken literally as 10^9 B [B].
    requests_per_s : float
        [1/s].
    bandwidth_bit_per_s_as_stated : float
        As printed ("Gbps" taken as 10^9 bit/s) [bit/s].
    source : Source
    """

    model: str
    prompt_tokens: int
    kv_bytes_as_stated: float
    requests_per_s: float
    bandwidth_bit_per_s_as_stated: float
    source: Source


#: DistServe §3.3.
DISTSERVE_KV_EXAMPLE = KVTransferExample(
    model="OPT-66B", prompt_tokens=512, kv_bytes_as_stated=1.13 * u.GB, requests_per_s=10.0,
    bandwidth_bit_per_s_as_stated=90e9, source=DISTSERVE)


@dataclass(frozen=True, kw_only=True)
class KVTransferObservation:
    """Splitwise's measured KV-transfer overheads.

    Attributes
    ----------
    slower_link_bit_per_s, faster_link_bit_per_s : float
        The A100 and H100 setups' links [bit/s].
    serialized_speedup : float
        How much faster the faster setup's serialized transfers are ("about twice") [-].
    layerwise_exposed_s : dict
        Per-layer transfer time not overlapped, by setup [s].
    max_share_of_prompt_time : float
        Transfer overhead against prompt computation, at most [-].
    layerwise_share_of_end_to_end, serialized_share_of_end_to_end : float
        Share of end-to-end latency, coding trace [-].
    source : Source
    """

    slower_link_bit_per_s: float
    faster_link_bit_per_s: float
    serialized_speedup: float
    layerwise_exposed_s: dict
    max_share_of_prompt_time: float
    layerwise_share_of_end_to_end: float
    serialized_share_of_end_to_end: float
    source: Source


#: Splitwise §VI-A.
SPLITWISE_KV_TRANSFER = KVTransferObservation(
    slower_link_bit_per_s=200e9, faster_link_bit_per_s=400e9, serialized_speedup=2.0,
    layerwise_exposed_s={"A100": 8 * u.ms, "H100": 5 * u.ms}, max_share_of_prompt_time=0.07,
    layerwise_share_of_end_to_end=0.008, serialized_share_of_end_to_end=0.03, source=SPLITWISE)


@dataclass(frozen=True, kw_only=True)
class AllReduceSpeedup:
    """A stated speed-up of one all-reduce algorithm over another.

    Attributes
    ----------
    system : str
    faster, slower : str
        Algorithms, named as ``interconnect_lab.collectives.ALGORITHMS`` names them.
    n_ranks : int
        [-].
    speedup : float
        Up to this factor [-].
    source : Source
    """

    system: str
    faster: str
    slower: str
    n_ranks: int
    speedup: float
    source: Source


#: TensorRT-LLM MultiShot on HGX H200: NVSwitch multicast against the ring, "up to 3x".
MULTISHOT_SPEEDUP = AllReduceSpeedup(system="HGX H200, NVSwitch", faster="nvls", slower="ring", n_ranks=8,
                                     speedup=3.0, source=TRTLLM_MULTISHOT)


# ============================================================================
# Small all-reduces as serving engines run them
# ============================================================================

SGLANG_PR_2904 = Source(
    title="SGLang pull request #2904: optimize custom allreduce kernel", year=2025,
    url="https://github.com/sgl-project/sglang/pull/2904",
    locator="'unit test performance in H100 (without cuda graph)'",
    note="latency per all-reduce at TP 2/4/8 for 512 B to 1 MiB; 'custom allreduce' is SGLang's TensorRT-LLM-derived "
         "kernel, which copies its input inside the kernel; vLLM's kernel also launches a separate copy into its IPC "
         "buffer in eager mode (vLLM TP8: 10.1, 9.3, 11.8 us at 512 B, 4 KB, 32 KB)")
VLLM_PR_24111 = Source(
    title="vLLM pull request #24111: Enable Torch Symmetric Memory All-Reduce By Default", year=2025,
    url="https://github.com/vllm-project/vllm/pull/24111",
    locator="Isolated primitives benchmark results, H100, TP=2",
    note="ms per all-reduce of a (32, 8192) BF16 tensor (0.50 MB): ca_1stage 0.007")
VLLM_PR_33839 = Source(
    title="vLLM pull request #33839: optimize NCCL symm_mem vs custom_AR selection thresholds", year=2026,
    url="https://github.com/vllm-project/vllm/pull/33839",
    note="8 H100 (one node, NVLink): 'symm_mem also significantly outperforms custom_AR for small tensors "
         "(<=16KB)', 1.21x-1.48x; benchmark results (8 GPUs): '2K - 16K: PyNCCL-symm wins (1.35x - 1.48x faster)'")


@dataclass(frozen=True, kw_only=True)
class AllReduceLatency:
    """One published time of one small all-reduce inside an NVLink domain.

    Attributes
    ----------
    gpu : str
        Catalog name of the GPU.
    ranks : int
        GPUs [-].
    size_bytes : float
        The all-reduced buffer [B].
    time_s : float
        As printed [s].
    implementation : str
        As the source names it.
    kernel : str
        What it runs, as ``interconnect_lab.collectives.SERVING_KERNELS`` names it.
    cuda_graph : bool
        Measured inside a CUDA graph (as serving engines run decode).
    source : Source
    """

    gpu: str
    ranks: int
    size_bytes: float
    time_s: float
    implementation: str
    kernel: str
    cuda_graph: bool
    source: Source


_SGLANG_CUSTOM = "SGLang custom all-reduce (TensorRT-LLM-derived, input copied inside the kernel)"

#: Published small all-reduces on 8 H100 or fewer: below 500 kB every engine runs its one-shot kernel.
SERVING_ALL_REDUCE_LATENCIES: tuple[AllReduceLatency, ...] = tuple(
    AllReduceLatency(gpu="H100 SXM", ranks=ranks, size_bytes=float(size), time_s=time_ms * u.ms,
                     implementation=_SGLANG_CUSTOM, kernel="one_shot", cuda_graph=False, source=SGLANG_PR_2904)
    for size, times in ((512, (0.0037, 0.0048, 0.0059)), (4096, (0.0039, 0.0037, 0.0057)),
                        (32768, (0.0045, 0.0048, 0.0078)))
    for ranks, time_ms in zip((2, 4, 8), times)
) + (
    AllReduceLatency(gpu="H100 SXM", ranks=2, size_bytes=32 * 8192 * 2.0, time_s=0.007 * u.ms,
                     implementation="vLLM custom all-reduce, 1-stage (ca_1stage)", kernel="one_shot", cuda_graph=True,
                     source=VLLM_PR_24111),
)


@dataclass(frozen=True, kw_only=True)
class SymmetricSpeedup:
    """A stated range of how much faster NCCL's symmetric all-reduce is than an engine's one-shot kernel.

    Attributes
    ----------
    gpu : str
    ranks : int
        [-].
    smallest_bytes, largest_bytes : float
        The message sizes the statement covers [B].
    low, high : float
        The stated speed-up range [-].
    source : Source
    """

    gpu: str
    ranks: int
    smallest_bytes: float
    largest_bytes: float
    low: float
    high: float
    source: Source


#: vLLM's maintainers on 8 H100: NCCL's symmetric kernels 1.35-1.48x faster than vLLM's custom all-reduce at 2-16 KiB.
NCCL_SYMMETRIC_SPEEDUP = SymmetricSpeedup(gpu="H100 SXM", ranks=8, smallest_bytes=2 * u.KiB, largest_bytes=16 * u.KiB,
                                          low=1.35, high=1.48, source=VLLM_PR_33839)


# ============================================================================
# KV caches across the network
# ============================================================================

MOONCAKE_TRANSFER_ENGINE = Source(
    title="Mooncake README: Transfer Engine performance", year=2026,
    url="https://github.com/kvcache-ai/Mooncake/blob/3a8593f5d240b44abf24e17de6e405512067c1ba/README.md",
    locator="Use Transfer Engine Standalone: Performance",
    note="'With 40 GB of data (equivalent to the size of the KVCache generated by 128k tokens in the LLaMA3-70B "
         "model), Mooncake Transfer Engine delivers up to 87 GB/s and 190 GB/s of bandwidth in 4x200 Gbps and "
         "8x400 Gbps RoCE networks respectively'")


@dataclass(frozen=True, kw_only=True)
class KVTransferRate:
    """A measured rate of moving a KV cache between servers over several NICs.

    Attributes
    ----------
    model : str
    tokens : int
        [token].
    ports : int
        NICs used [-].
    port_bit_per_s : float
        Line rate of each [bit/s].
    rate_bytes_per_s : float
        As printed ("GB/s" taken as 10^9 B/s) [B/s].
    source : Source
    """

    model: str
    tokens: int
    ports: int
    port_bit_per_s: float
    rate_bytes_per_s: float
    source: Source


#: Mooncake's transfer engine moving a 128k-token Llama 3 70B cache.
MOONCAKE_KV_TRANSFERS: tuple[KVTransferRate, ...] = (
    KVTransferRate(model="Llama 3 70B", tokens=131072, ports=4, port_bit_per_s=200e9, rate_bytes_per_s=87 * u.GB_per_s,
                   source=MOONCAKE_TRANSFER_ENGINE),
    KVTransferRate(model="Llama 3 70B", tokens=131072, ports=8, port_bit_per_s=400e9,
                   rate_bytes_per_s=190 * u.GB_per_s, source=MOONCAKE_TRANSFER_ENGINE),
)


# ============================================================================
# Wide expert parallelism in decode
# ============================================================================

LMSYS_LARGE_SCALE_EP = Source(
    title="The SGLang Team, Deploying DeepSeek with PD Disaggregation and Large-scale Expert Parallelism on 96 H100 "
          "GPUs (LMSYS blog)", year=2025, url="https://lmsys.org/blog/2025-05-05-large-scale-ep/",
    note="12 nodes of 8 H100; prefill-decode disaggregation, DP attention, DeepEP (low-latency dispatch in decode), "
         "two-batch overlap, EPLB; '52.3k input tokens per second and 22.3k output tokens per second per node for "
         "2000-token input sequences'")
LMSYS_GB200 = Source(
    title="The SGLang Team, Deploying DeepSeek on GB200 NVL72 with PD and Large Scale EP (Part I): 2.7x Higher "
          "Decoding Throughput (LMSYS blog)", year=2025, url="https://lmsys.org/blog/2025-06-16-gb200-part-1/",
    note="'7,583 tokens per second per GPU for decoding on the GB200 NVL72 -- a 2.7x speedup compared to the H100 "
         "per GPU ... for 2,000-token input lengths'; 12 of 14 nodes (4-GPU trays) for decode; DeepEP over NVLink only")


@dataclass(frozen=True, kw_only=True)
class DecodeThroughput:
    """A published decode throughput of a wide expert-parallel deployment of DeepSeek-V3/R1.

    Attributes
    ----------
    gpu : str
        As the source names it.
    gpus_per_domain : int
        GPUs per NVLink domain [-].
    input_tokens : float
        Prompt length, or average KV length per output token [token].
    tokens_per_s_per_gpu : float
        Output tokens per second per GPU, as printed or divided from a per-node figure [token/s].
    note : str
        How it was read.
    source : Source
    """

    gpu: str
    gpus_per_domain: int
    input_tokens: float
    tokens_per_s_per_gpu: float
    note: str
    source: Source


#: Decode throughputs per GPU from DeepSeek's production statistics and SGLang's reproductions.
WIDE_EP_DECODE_THROUGHPUTS: tuple[DecodeThroughput, ...] = (
    DecodeThroughput(gpu="H800", gpus_per_domain=8, input_tokens=4989, tokens_per_s_per_gpu=14.8e3 / 8,
                     note="production average, ~14.8k output tokens/s per 8-GPU node, EP144; 20-22 tokens/s per user",
                     source=Source(
                         title="DeepSeek-AI, Day 6: DeepSeek-V3/R1 Inference System Overview (open-infra-index)",
                         year=2025,
                         url="https://github.com/deepseek-ai/open-infra-index/blob/"
                             "56d86855fcf6e08fdfd45ce6280bd24322c93351/202502OpenSourceWeek/"
                             "day_6_one_more_thing_deepseekV3R1_inference_system_overview.md",
                         note="~14.8k tokens/s output per H800 node during decoding; average KV cache length per "
                              "output token 4,989")),
    DecodeThroughput(gpu="H100", gpus_per_domain=8, input_tokens=2000, tokens_per_s_per_gpu=22.3e3 / 8,
                     note="22.3k output tokens/s per 8-GPU node, decode nodes saturated", source=LMSYS_LARGE_SCALE_EP),
    DecodeThroughput(gpu="GB200", gpus_per_domain=72, input_tokens=2000, tokens_per_s_per_gpu=7583.0,
                     note="7,583 tokens/s per GPU, decode on 48 GPUs of one NVL72 rack", source=LMSYS_GB200),
)
