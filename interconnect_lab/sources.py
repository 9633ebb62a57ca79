"""Where every real-world number comes from.

A :class:`Source` names a public document (title, year, and a URL or DOI) and,
where it helps, the place inside it (``locator``: a table, section or page).
Estimates — prices, analyst figures, secondary pages — carry ``estimate=True``
so the book can label them as such.

Sources used by more than one entry are defined once here and referred to by
name; an entry with a one-off source may build its own :class:`Source`.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

__all__ = ["Source", "cite"]


@dataclass(frozen=True, kw_only=True)
class Source:
    """A public document that supports a number.

    Parameters
    ----------
    title : str
        Title of the document (with authors or publisher where known).
    year : int
        Year of publication, or of the version read.
    url : str, optional
        Address of the document. One of ``url`` and ``doi`` is required.
    doi : str, optional
        Digital object identifier, without the ``https://doi.org/`` prefix.
    locator : str, optional
        Where in the document: ``"Table 1"``, ``"§3.2"``, ``"p. 66"``.
    estimate : bool
        True for estimates: prices, analyst figures, unverified secondary pages.
    note : str, optional
        How a number was read or derived from the document.

    Examples
    --------
    >>> Source(title="Example datasheet", year=2024, url="https://example.org/ds.pdf")
    Source(title='Example datasheet', year=2024, url='https://example.org/ds.pdf', doi=None, locator='', estimate=False, note='')
    """

    title: str
    year: int
    url: str | None = None
    doi: str | None = None
    locator: str = ""
    estimate: bool = False
    note: str = ""

    def __post_init__(self):
        if not isinstance(self.title, str) or not self.title.strip():
            raise ValueError("Source.title must be a non-empty string")
        if not isinstance(self.year, int) or not 1970 <= self.year <= 2100:
            raise ValueError(f"Source.year = {self.year!r} is not valid: it must be a year in [1970, 2100]")
        if not (self.url or self.doi):
            raise ValueError(f"Source {self.title!r} needs a url or a doi so a reader can check it")
        if self.url is not None and not self.url.startswith(("https://", "http://")):
            raise ValueError(f"Source.url = {self.url!r} must start with https:// or http://")

    @property
    def link(self) -> str:
        """The address a reader follows: the DOI resolver if there is a DOI, else the URL."""
        return f"https://doi.org/{self.doi}" if self.doi else self.url

    def at(self, locator: str, note: str = "") -> "Source":
        """The same document, pointing at a place inside it (``SC21.at("Table 1")``)."""
        return dataclasses.replace(self, locator=locator, note=note or self.note)

    def __str__(self) -> str:
        parts = [self.title, str(self.year)]
        if self.locator:
            parts.append(self.locator)
        text = ", ".join(parts)
        if self.estimate:
            text += " (estimate)"
        return f"{text}. {self.link}"


def azure_benchmarking_guide(system: str, note: str) -> Source:
    """Microsoft Azure's AI benchmarking guide, the results page of one VM ``system``, at its GEMM table."""
    path = f"Azure_Results/{system.replace(' ', '_')}_results.md"
    return Source(title=f"Microsoft Azure, AI benchmarking guide: {system} results ({path})", year=2024,
                  url=f"https://github.com/Azure/AI-benchmarking-guide/blob/main/{path}",
                  locator="GEMM cuBLASLt table", note=note)


def cite(*sources: Source) -> str:
    """One line per source, for a figure caption or a table footnote."""
    return "\n".join(str(source) for source in sources)


# Sources shared by several entries ------------------------------------------

MLENG_ACCELERATORS = Source(
    title="S. Bekman, Machine Learning Engineering Open Book: Accelerators",
    year=2026,
    url="https://github.com/stas00/ml-engineering/blob/744d01e18b79512572f64a6bbd8b5f4a725203a7/compute/accelerator/README.md",
    note="secondary: a maintained compilation of vendor datasheets, dense (non-sparse) values",
)

MLENG_SUSTAINED_MATMUL = Source(
    title="S. Bekman, Machine Learning Engineering Open Book: Maximum Achievable and Sustainable Matmul FLOPS "
          "comparison table (compute/accelerator/README.md)",
    year=2026,
    url="https://github.com/stas00/ml-engineering/blob/0359db89793c313e90e4f8a8bc8a2b1514ba00ae/compute/accelerator/README.md",
    locator="'Maximum Achievable and Sustainable Matmul FLOPS comparison table', BF16 and FP8 rows with Siblings = yes",
    note="mamf-finder-all-gpus.py (benchmark version 4, torch 2.14.0+cu130): each GPU of an 8-GPU node measured while "
         "all the others ran a continuous matmul, the median GPU. BF16 MSMF (best rate held at the power limit) / "
         "MAMF (best boost-clock burst): H200 SXM 755 / 850, B200 SXM 1,439 / 1,737 TFLOP/s; FP8: H200 1,354 / "
         "1,525, B200 2,788 / 3,350. GB200 has a MAMF row (1,822, one GPU alone) and no MSMF",
)

MLENG_NETWORK = Source(
    title="S. Bekman, Machine Learning Engineering Open Book: Inter-node and intra-node networking hardware",
    year=2026,
    url="https://github.com/stas00/ml-engineering/blob/744d01e18b79512572f64a6bbd8b5f4a725203a7/network/README.md",
    note="secondary: a maintained compilation of vendor figures and measurements",
)

TORCHTITAN_H100_BENCHMARK = Source(
    title="torchtitan: benchmarks/llama3_h100_202412_torchtitan.md (Llama 3.1 on H100, December 2024)", year=2024,
    url="https://github.com/pytorch/torchtitan/blob/31a17bfdb70bab6f62a13d21816a5339b911d6e3/"
        "benchmarks/llama3_h100_202412_torchtitan.md",
    note="Grand Teton hosts of 8 H100 (96 GB HBM2e at 2.4 TB/s, the default 500 W power limit) on NVLink, "
         "400 Gb/s of RDMA network per GPU; TPS per GPU read at the 90th iteration; torch 1963fc8, "
         "torchtitan 9dec370")
SC21 = Source(
    title=("D. Narayanan et al., Efficient Large-Scale Language Model Training on GPU "
           "Clusters Using Megatron-LM, SC21"),
    year=2021,
    doi="10.1145/3458817.3476209",
    note="arXiv:2104.04473",
)

MEGASCALE = Source(
    title=("Z. Jiang et al., MegaScale: Scaling Large Language Model Training to More "
           "Than 10,000 GPUs, NSDI 24"),
    year=2024,
    url="https://www.usenix.org/conference/nsdi24/presentation/jiang-ziheng",
    note="arXiv:2402.15627",
)

PALM = Source(
    title="A. Chowdhery et al., PaLM: Scaling Language Modeling with Pathways",
    year=2022,
    url="https://arxiv.org/abs/2204.02311",
    note="Appendix B defines model FLOPs utilization (MFU)",
)


# Hardware catalog: vendor pages, standards and papers used by several entries ------

NVIDIA_NVLINK = Source(
    title="NVIDIA, NVLink and NVLink Switch (fifth-generation NVLink page)",
    year=2024,
    url="https://www.nvidia.com/en-au/data-center/nvlink/",
    note=("Blackwell GPU: 18 NVLink connections of 100 GB/s, 1.8 TB/s bidirectional, "
          "'over 14X the bandwidth of PCIe Gen5'; NVLink Switch: 144 NVLink ports, 14.4 TB/s "
          "non-blocking; '130TB/s of GPU bandwidth in one NVL72'"),
)

NVIDIA_NVSWITCH3_BLOG = Source(
    title=("NVIDIA Technical Blog, Upgrading Multi-GPU Interconnectivity with the "
           "Third-Generation NVIDIA NVSwitch"),
    year=2022,
    url=("https://developer.nvidia.com/blog/upgrading-multi-gpu-interconnectivity-with-the-"
         "third-generation-nvidia-nvswitch/"),
    note="third-generation NVSwitch: NVLink 4, SHARP in-network reductions, 4 chips per DGX H100",
)

NVIDIA_NVLINK_HEALTH_CHECKS = Source(
    title="NVIDIA Health Validation reference: NVLink checks",
    year=2025,
    url="https://docs.nvidia.com/health-validation/reference/checks/nvlink",
    note=("expected per-link NVLink speed as nvidia-smi reports it: H100 26,562 MB/s, "
          "GB200 53,125 MB/s (signalling rate of one link, one direction)"),
)

NVIDIA_SUPERPOD_GB200_NETWORK = Source(
    title="NVIDIA DGX SuperPOD reference architecture (GB200): network fabrics",
    year=2024,
    url=("https://docs.nvidia.com/dgx-superpod/reference-architecture-scalable-infrastructure-"
         "gb200/latest/network-fabrics.html"),
    note=("18 compute trays and 9 NVLink switch trays per rack, 2 NVLink switch chips per tray; "
          "each GPU has one link to each of the 18 switch chips"),
)

NVIDIA_SUPERPOD_H100_COMPONENTS = Source(
    title="NVIDIA DGX SuperPOD reference architecture (H100): components",
    year=2023,
    url=("https://docs.nvidia.com/dgx-superpod/reference-architecture-scalable-infrastructure-"
         "h100/latest/dgx-superpod-components.html"),
    note="DGX H100: 8 H100 GPUs, 8 ConnectX-7 adapters at 400 Gb/s for the compute fabric",
)

NVIDIA_GRACE_HOPPER = Source(
    title="NVIDIA Technical Blog, NVIDIA Grace Hopper Superchip Architecture In-Depth",
    year=2022,
    url="https://developer.nvidia.com/blog/nvidia-grace-hopper-superchip-architecture-in-depth/",
    note=("NVLink-C2C: 900 GB/s of total (both directions added) coherent CPU-GPU bandwidth, "
          "'7x' a PCIe Gen5 x16 link; Grace: up to 512 GB of LPDDR5X at up to 546 GB/s; "
          "Hopper: up to 96 GB of HBM3"),
)

GLENN_NVLINK = Source(
    title="G. K. Lockwood, NVLink (digital garden)",
    year=2025,
    url="https://glennklockwood.com/garden/NVLink",
    note=("secondary: H100 has 18 NVLinks split 5+5+4+4 over 4 NVSwitches; NVLink 5 switch "
          "chips have 72 ports"),
)

INFINIBAND_JP_SPEEDS = Source(
    title="infiniband.jp, InfiniBand 規格 (InfiniBand generations: signalling, encoding, data rate)",
    year=2022,
    url="https://infiniband.jp/2022/06/01/infiband-%E8%A6%8F%E6%A0%BC/",
    note="secondary: lane signalling rates and encodings per InfiniBand generation",
)

WIKIPEDIA_PCIE = Source(
    title="Wikipedia, PCI Express (table of versions: transfer rate, encoding, throughput)",
    year=2025,
    url="https://en.wikipedia.org/wiki/PCI_Express",
    note=("secondary: specification years 3.0 (2010), 4.0 (2017), 5.0 (2019), 6.0 (2022); "
          "8/16/32 GT/s with 128b/130b, 64 GT/s PAM4 with 256-byte FLITs"),
)

GLENN_PCIE_GEN6 = Source(
    title="G. K. Lockwood, PCIe Gen6 (digital garden)",
    year=2025,
    url="https://glennklockwood.com/garden/PCIe-Gen6",
    note=("secondary: 64 GT/s x16 is 128 GB/s per direction raw; each 256-byte FLIT carries "
          "236 B of TLP payload, 6 B of data-link payload, 8 B of CRC and 6 B of FEC"),
)

POND = Source(
    title=("H. Li et al., Pond: CXL-Based Memory Pooling Systems for Cloud Platforms, "
           "ASPLOS 2023"),
    year=2023,
    doi="10.1145/3575693.3578835",
    note=("arXiv:2203.00241. 'CXL will add 70-90ns to access latencies over same-NUMA-node DRAM "
          "with a pool size of 8-16 sockets'; Fig. 4 testbeds measured local DRAM at 78 ns and "
          "115 ns"),
)


# Collectives: NCCL, nccl-tests and the algorithms' papers ----------------------

NCCL_TESTS_PERFORMANCE = Source(
    title="NVIDIA, nccl-tests: Performance reported by NCCL tests (doc/PERFORMANCE.md)",
    year=2025,
    url=("https://github.com/NVIDIA/nccl-tests/blob/03a204a1f38aaea17f1a777885bb2d9600ba7eff/"
         "doc/PERFORMANCE.md"),
    note=("algbw = S/t; busbw factor 2(n-1)/n for AllReduce, (n-1)/(n+1) for AllReduce with "
          "in-network reduction, (n-1)/n for ReduceScatter, AllGather and AlltoAll, 1 for "
          "Broadcast and Reduce. src/all_reduce.cu at the same commit applies (n-1)/(n+1) only "
          "when NCCL_ALGO is NVLS or NVLSTree"),
)

NCCL_TUNING = Source(
    title="NVIDIA, NCCL source: src/graph/tuning.cc (cost model constants)",
    year=2024,
    url=("https://github.com/NVIDIA/nccl/blob/b6475625fbcaa2c3c0e50eed2fa1255d7514d4a2/"
         "src/graph/tuning.cc"),
    note=("Ring base latency LL/LL128/Simple 6.6/14.0/8.4 us; latency per ring step over NVLink "
          "0.6/1.9/3.4 us, over the network 2.7/4.0/14.0 us; Tree bandwidth x0.92; CollNet "
          "Direct bandwidth x0.85 on compute capability 9.0 and later"),
)

NCCL_NVLS_TUNING = Source(
    title="NVIDIA, NCCL source: src/tuning/nvls.cc (NVLS cost model)",
    year=2026,
    url=("https://github.com/NVIDIA/nccl/blob/1fc949c50bbd7e31fb27343def456d8d48993a90/"
         "src/tuning/nvls.cc"),
    note="nvlsEfficiency: Hopper 0.85, Blackwell 0.74",
)

NCCL_TESTS_ISSUE_119 = Source(
    title="NVIDIA/nccl-tests issue #119: Evaluation of NCCL test result",
    year=2022,
    url="https://github.com/NVIDIA/nccl-tests/issues/119",
    note=("S. Jeaugey (NVIDIA): 'We usually consider 24GB/s is the peak performance per 200G NIC "
          "(12 GB/s for 100G NICs)'"),
)

NCCL_TESTS_ISSUE_149 = Source(
    title="NVIDIA/nccl-tests issue #149: Expected bandwidth results? A100 GPUs over NVLink",
    year=2023,
    url="https://github.com/NVIDIA/nccl-tests/issues/149",
    note=("S. Jeaugey (NVIDIA): each NVLink has a line rate of 25 GB/s per direction, ~20 GB/s "
          "effective with the 128 B payloads SMs use; 240 GB/s in total on A100, other "
          "bottlenecks limit it to ~230 GB/s; run all_reduce_perf to 8G to reach it"),
)

NCCL_TESTS_ISSUE_212 = Source(
    title="NVIDIA/nccl-tests issue #212: H100 all reduce performance is poor",
    year=2024,
    url="https://github.com/NVIDIA/nccl-tests/issues/212",
    note=("S. Jeaugey (NVIDIA): 450 GB/s is the line rate; with ~20% protocol overhead NCCL gets "
          "370 GB/s busbw with NCCL_ALGO=RING; with NVLink SHARP a peak busbw of ~480 GB/s "
          "(algbw ~275 GB/s) on 8 GPUs, above 256 MB"),
)

NCCL_ISSUE_1428 = Source(
    title="NVIDIA/nccl issue #1428: Why the kernel duration time was affected by NCCL kernel?",
    year=2024,
    url="https://github.com/NVIDIA/nccl/issues/1428",
    note=("GEMM, attention and element-wise kernels measured slower on A100s while an all-gather runs "
          "beside them; S. Jeaugey (NVIDIA): they compete for memory bandwidth, and NCCL's link "
          "bandwidth 'needs to be multiplied by at least 2x for memory bandwidth, as we need to store to "
          "memory, then read back from it. If you add reading from or writing to user data, it can be 3x'"),
)

NCCL_ISSUE_1442 = Source(
    title="NVIDIA/nccl issue #1442: NVLink SHARP Performance on AWS P5",
    year=2024,
    url="https://github.com/NVIDIA/nccl/issues/1442",
    note=("S. Jeaugey (NVIDIA), 2025: 'The app-level bandwidth is 370GB/s in each direction, "
          "which is the real target for NCCL BusBW intra-node, except for the Allreduce "
          "operation where we can get a 30% improvement using NVLink SHARP'"),
)

NCCL_ISSUE_1455 = Source(
    title="NVIDIA/nccl issue #1455: about the intranode allreduce performance with SHArP",
    year=2024,
    url="https://github.com/NVIDIA/nccl/issues/1455",
    note=("user measurements on 8 H100 SXM, 2-4 GB messages: NCCL_ALGO=NVLS busbw about "
          "365-370 GB/s for 2-4 GPUs and 420, 440, 460, 480 GB/s for 5-8 GPUs, algbw about 258, "
          "265, 270, 273 GB/s for 5-8 GPUs; NCCL_ALGO=RING about 365-370 GB/s"),
)

NCCL_TESTS_ISSUE_319 = Source(
    title="NVIDIA/nccl-tests issue #319: nccl-test performance with doca on 2 or 4 HGX hosts",
    year=2025,
    url="https://github.com/NVIDIA/nccl-tests/issues/319",
    note="NVIDIA maintainer: 'You should achieve around 48GB/s from each CX7 NIC at 400Gbps'",
)

THAKUR2005_MPICH = Source(
    title=("R. Thakur, R. Rabenseifner, W. Gropp, Optimization of Collective Communication "
           "Operations in MPICH, IJHPCA 19(1)"),
    year=2005,
    doi="10.1177/1094342005051521",
    note=("alpha-beta model; recursive doubling, recursive halving, Rabenseifner's all-reduce "
          "and the extra steps for a number of processes that is not a power of two"),
)

SANDERS2009_TWO_TREE = Source(
    title=("P. Sanders, J. Speck, J. L. Träff, Two-tree algorithms for full bandwidth broadcast, "
           "reduction and scan, Parallel Computing 35(12)"),
    year=2009,
    doi="10.1016/j.parco.2009.09.001",
    note="the double binary tree NCCL implements",
)

PATARASUK2009_RING = Source(
    title=("P. Patarasuk, X. Yuan, Bandwidth optimal all-reduce algorithms for clusters of "
           "workstations, JPDC 69(2)"),
    year=2009,
    doi="10.1016/j.jpdc.2008.09.002",
    note="the ring all-reduce reaches the lower bound of 2(n-1)/n S sent per rank",
)

KLENK2020_NVLS = Source(
    title=("B. Klenk, N. Jiang, G. Thorson, L. Dennison, An In-Network Architecture for "
           "Accelerating Shared-Memory Multiprocessor Collectives, ISCA 2020"),
    year=2020,
    doi="10.1109/ISCA45697.2020.00085",
    note="switch-side reduction and multicast for GPU all-reduce (the idea behind NVLink SHARP)",
)

GRAHAM2016_SHARP = Source(
    title=("R. L. Graham et al., Scalable Hierarchical Aggregation Protocol (SHArP): A Hardware "
           "Architecture for Efficient Data Reduction, COMHPC 2016"),
    year=2016,
    doi="10.1109/COMHPC.2016.006",
)

FLASH_ATTENTION_2 = Source(
    title="T. Dao, FlashAttention-2: Faster Attention with Better Parallelism and Work Partitioning",
    year=2023, url="https://arxiv.org/abs/2307.08691", locator="Abstract, §4",
    note="forward and backward reach 50-73% of the A100's peak, the first FlashAttention only 25-40%; "
         "225 TFLOP/s per A100 end to end (72%)")
LLAMA3 = Source(
    title="A. Grattafiori et al. (Llama Team, AI @ Meta), The Llama 3 Herd of Models",
    year=2024,
    url="https://arxiv.org/abs/2407.21783",
    note="§3.3.4 reports the reliability of the 54-day pre-training run of the 405B model (Table 5)",
)
