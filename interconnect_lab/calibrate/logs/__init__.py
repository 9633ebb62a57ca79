"""Real tool output shipped with the library, each file exactly as it was printed.

Every file in this folder is the output of one run of nccl-tests, perftest or
``nvidia-smi topo -m`` that its owner published on GitHub; :data:`SHIPPED_LOGS`
says where (repository, path, commit, year), what ran and what is missing.
Only the program's own output was kept: shell prompts, the command line and
lines that ``mpirun`` or ``kubectl`` printed around it were left out, nothing
inside was changed. Names (hosts, process ids) are as published.

The nccl-tests logs name no collective (they predate the ``# Collective test``
line), so the registry records which program produced each, as its source
states.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources
from types import MappingProxyType

from ..._validation import check_choice

__all__ = ["ShippedLog", "SHIPPED_LOGS", "shipped_log", "shipped_text"]


@dataclass(frozen=True, kw_only=True)
class ShippedLog:
    """Where one shipped log comes from and what it holds.

    Attributes
    ----------
    name : str
        Key in :data:`SHIPPED_LOGS`.
    filename : str
        File in this folder.
    tool : str
        ``"nccl-tests"``, ``"perftest"`` or ``"nvidia-smi topo"``.
    program : str
        The program that printed it (``"all_reduce_perf"``, ``"ib_write_bw"``...).
    system : str
        The hardware, as the source describes it.
    url : str or None
        Where it was published; None where the index that found it did not say.
    repository : str or None
        GitHub repository (owner/name); None where unknown.
    path : str or None
        File in the repository; None where the index that found it did not say.
    commit : str or None
        Commit of the file as read.
    year : int
        Year of publication (of the commit, or as the page dates it).
    bib_key : str
        Entry in ``book/references.bib``.
    reference : tuple
        What the book's model compares it with: ``("link", catalog link)`` or
        ``("cluster", training cluster or catalog system)``; empty if nothing.
    notes : str
        What to know (what the source says, what is missing).
    """

    name: str
    filename: str
    tool: str
    program: str
    system: str
    url: str | None
    repository: str | None
    path: str | None
    commit: str | None
    year: int
    bib_key: str
    reference: tuple = ()
    notes: str = ""


_ORACLE = "oracle-quickstart/oci-hpc-oke"
_WOHLBIER = "wohlbier/nccl-tests"
_PERFTEST_NOTES = ("One of several perftest runs (ConnectX-3, mlx4_0, InfiniBand link, MTU 2048) in a "
                   "notes file of the repository; the search index that found it did not record the "
                   "file's path or date.")

#: Every shipped log, by name: where it comes from and what it holds.
SHIPPED_LOGS = MappingProxyType({entry.name: entry for entry in (
    ShippedLog(
        name="v100_dgx2_all_reduce", filename="nccl_tests_v100_dgx2_12gpu_all_reduce.txt",
        tool="nccl-tests", program="all_reduce_perf",
        system="NVIDIA DGX-2, 12 of its 16 Tesla V100-SXM3-32GB on NVSwitch, one process",
        url=f"https://github.com/{_WOHLBIER}/blob/33ee81a3ec6c5e8fdd1e61f713a5c5185b000cd1/README.md",
        repository=_WOHLBIER, path="README.md", commit="33ee81a3ec6c5e8fdd1e61f713a5c5185b000cd1",
        year=2019, bib_key="wohlbier2019dgx2", reference=("link", "NVLink 2"),
        notes=("Older table layout: 'redop' but no 'root' column, an 'error' column instead of '#wrong'. "
               "Year from the README's copyright line (2016-2019).")),
    ShippedLog(
        name="v100_dgx2_all_gather", filename="nccl_tests_v100_dgx2_12gpu_all_gather.txt",
        tool="nccl-tests", program="all_gather_perf",
        system="NVIDIA DGX-2, 12 Tesla V100-SXM3-32GB on NVSwitch, one process",
        url=f"https://github.com/{_WOHLBIER}/blob/33ee81a3ec6c5e8fdd1e61f713a5c5185b000cd1/README.md",
        repository=_WOHLBIER, path="README.md", commit="33ee81a3ec6c5e8fdd1e61f713a5c5185b000cd1",
        year=2019, bib_key="wohlbier2019dgx2", reference=("link", "NVLink 2"),
        notes=("Oldest layout (no 'redop', no 'root'); early nccl-tests printed all-gather's algbw equal to "
               "busbw; the last two rows report errors (Out of bounds values : 4 FAILED), as published.")),
    ShippedLog(
        name="v100_dgx2_broadcast", filename="nccl_tests_v100_dgx2_12gpu_broadcast.txt",
        tool="nccl-tests", program="broadcast_perf",
        system="NVIDIA DGX-2, 12 Tesla V100-SXM3-32GB on NVSwitch, one process",
        url=f"https://github.com/{_WOHLBIER}/blob/33ee81a3ec6c5e8fdd1e61f713a5c5185b000cd1/README.md",
        repository=_WOHLBIER, path="README.md", commit="33ee81a3ec6c5e8fdd1e61f713a5c5185b000cd1",
        year=2019, bib_key="wohlbier2019dgx2", reference=("link", "NVLink 2"),
        notes="Older layout with a 'root' column and no 'redop'."),
    ShippedLog(
        name="a100_2x8_roce_all_reduce", filename="nccl_tests_a100_2x8_roce_all_reduce.txt",
        tool="nccl-tests", program="all_reduce_perf",
        system=("Two Oracle Cloud BM.GPU4.8 / BM.GPU.A100-v2.8 nodes, 8 A100-SXM4-40GB each, RDMA over "
                "Converged Ethernet (RoCE) between them"),
        url=f"https://github.com/{_ORACLE}/blob/main/README.md", repository=_ORACLE, path="README.md",
        commit=None, year=2024, bib_key="oracle2024ocihpcoke", reference=("cluster", "Selene"),
        notes=("Current layout. The README revision that used the 2024.02.12 GPU image; the repository's "
               "README has been rewritten since.")),
    ShippedLog(
        name="a100_2x8_roce_all_reduce_large", filename="nccl_tests_a100_2x8_roce_all_reduce_large.txt",
        tool="nccl-tests", program="all_reduce_perf",
        system="Two Oracle Cloud A100 nodes (8 A100-SXM4-40GB each) over RoCE, 1 GiB and 10 GiB only",
        url=(f"https://github.com/{_ORACLE}/blob/3e5d61bdd4541ef9e5fc46f3a0b68ada4e272f9c/"
             "docs/running-rdma-workloads-on-oke-a100.md"),
        repository=_ORACLE, path="docs/running-rdma-workloads-on-oke-a100.md",
        commit="3e5d61bdd4541ef9e5fc46f3a0b68ada4e272f9c", year=2023, bib_key="oracle2023okea100",
        reference=("cluster", "Selene"),
        notes="Prints 'NCCL version 2.14.3+cuda11.7' in its header; two sizes only."),
    ShippedLog(
        name="h100_2x8_a3mega_all_reduce", filename="nccl_tests_h100_2x8_a3mega_all_reduce.txt",
        tool="nccl-tests", program="all_reduce_perf",
        system="Two Google Cloud A3 Mega VMs, 8 H100 80GB HBM3 each (GPUDirect-TCPXO networking)",
        url="https://github.com/lessizzmore/create-a3mega-ztan-fork/blob/02dd8f455c43ced1cf442ef29334bda97149264b/ztan-NCCL-test-result",
        repository="lessizzmore/create-a3mega-ztan-fork", path="ztan-NCCL-test-result",
        commit="02dd8f455c43ced1cf442ef29334bda97149264b", year=2024, bib_key="ztan2024a3mega",
        reference=("cluster", "HGX H100"),
        notes=("Current layout, 8 B to 8 GiB. The file ends at the Avg line. The catalog's HGX H100 has "
               "one 400G port per GPU; the source does not state this cluster's NICs.")),
    ShippedLog(
        name="ib_write_bw_roce", filename="perftest_ib_write_bw_roce_100g.txt", tool="perftest",
        program="ib_write_bw", system="Oracle Cloud GPU node, mlx5_5 (RoCE), 4 queue pairs, --report_gbits",
        url=f"https://github.com/{_ORACLE}/blob/9855dd2853614eaf4102672c177734dda631aa05/docs/running-ib-write-bw-test.md",
        repository=_ORACLE, path="docs/running-ib-write-bw-test.md",
        commit="9855dd2853614eaf4102672c177734dda631aa05", year=2024, bib_key="oracle2024ibwritebw",
        notes="Client side, one message size (64 KiB)."),
    ShippedLog(
        name="ib_write_lat_connectx3", filename="perftest_ib_write_lat_connectx3.txt", tool="perftest",
        program="ib_write_lat", system="Two hosts with ConnectX-3 (mlx4_0) on InfiniBand, -a (all sizes)",
        url="https://github.com/stmatengss/useful_shell_instructions", repository="stmatengss/useful_shell_instructions",
        path=None, commit=None, year=2017, bib_key="stmatengss2017perftest", notes=_PERFTEST_NOTES),
    ShippedLog(
        name="ib_read_bw_connectx3", filename="perftest_ib_read_bw_connectx3.txt", tool="perftest",
        program="ib_read_bw", system="Two hosts with ConnectX-3 (mlx4_0) on InfiniBand, -a (all sizes)",
        url="https://github.com/stmatengss/useful_shell_instructions", repository="stmatengss/useful_shell_instructions",
        path=None, commit=None, year=2017, bib_key="stmatengss2017perftest", notes=_PERFTEST_NOTES),
    ShippedLog(
        name="ib_send_bw_connectx3", filename="perftest_ib_send_bw_connectx3.txt", tool="perftest",
        program="ib_send_bw", system="Two hosts with ConnectX-3 (mlx4_0) on InfiniBand, -a (all sizes)",
        url="https://github.com/stmatengss/useful_shell_instructions", repository="stmatengss/useful_shell_instructions",
        path=None, commit=None, year=2017, bib_key="stmatengss2017perftest", notes=_PERFTEST_NOTES),
    ShippedLog(
        name="topo_dgx_a100", filename="nvidia_smi_topo_dgx_a100.txt", tool="nvidia-smi topo",
        program="nvidia-smi topo -m",
        system="8 A100 on NVSwitch (NV12) with 10 Mellanox NICs, two per PCIe switch (DGX A100 layout)",
        url=None, repository=None, path=None, commit=None, year=2023, bib_key="yjhmitweb2024nccl1505",
        notes=("Published in the README of a public GPU compression project ('GPU topo' section, 2023) whose "
               "repository the search index that found it did not name: provenance incomplete. NVIDIA/nccl "
               "issue 1505 (2024, cited) prints the same DGX A100 rows for GPU0 to GPU4 (NV12, NIC pairs on "
               "PXB, CPU affinity 48-63,176-191 on NUMA node 3 for GPU0), with two more NICs.")),
)})


def shipped_log(name) -> ShippedLog:
    """The registry entry called ``name`` (see :data:`SHIPPED_LOGS`).

    Parameters
    ----------
    name : str
        A key of :data:`SHIPPED_LOGS`.
    """
    check_choice("shipped log", name, SHIPPED_LOGS)
    return SHIPPED_LOGS[name]


def shipped_text(name) -> str:
    """The text of a shipped log, exactly as published.

    Parameters
    ----------
    name : str
        A key of :data:`SHIPPED_LOGS`.
    """
    entry = shipped_log(name)
    return resources.files(__name__).joinpath(entry.filename).read_text(encoding="utf-8")
