"""What serving papers and vendors published about inference traffic.

DistServe's KV-transfer example, Splitwise's measured KV-transfer overheads and
TensorRT-LLM's MultiShot all-reduce speed-up, each as printed.
"""

from __future__ import annotations

from dataclasses import dataclass

from .. import units as u
from ..sources import Source

__all__ = ["DISTSERVE", "SPLITWISE", "TRTLLM_MULTISHOT", "KVTransferExample", "DISTSERVE_KV_EXAMPLE",
           "KVTransferObservation", "SPLITWISE_KV_TRANSFER", "AllReduceSpeedup", "MULTISHOT_SPEEDUP"]

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
        Algorithms, named as :data:`interconnect_lab.collectives.ALGORITHMS` names them.
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
