"""Real tool output shipped with the library, each file exactly as it was printed.

Every file in this folder is the output of one run of nccl-tests, perftest or
``nvidia-smi topo -m`` that its owner published on GitHub; :data:`SHIPPED_LOGS`
says where (repository, path, commit, year), what ran and what is missing.
Only the program's own output was kept: shell prompts, the command line, the
prose and Markdown fences of the page around it and lines that ``mpirun``,
``kubectl`` or ``dstack`` printed around it were left out, nothing inside was
changed. Names (hosts, process ids) are as published.

Several nccl-tests logs are published excerpts, kept as their publishers cut
them: rank lines elided with ``...``, smaller sizes cut with
``# Truncated  smaller message sizes`` or ``# <smaller message sizes truncated>``,
lines prefixed by the launcher (``0: ``), header lines printed without their
``#``, a table that ends without its closing lines. They are the test cases of
the parser's reading of such excerpts.

Each nccl-tests entry names the collective its source states (older logs print
none) and the machine it ran on, for the collective model
(:func:`shipped_system`): the published run of
:mod:`interconnect_lab.published.nccl_tests` with the same source where there
is one, else the machine as the source describes it.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources
from types import MappingProxyType

from ..._validation import check_choice

__all__ = ["ShippedLog", "SHIPPED_LOGS", "shipped_log", "shipped_text", "shipped_system"]


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
        The catalog prediction the deprecated ``calibrate_nccl_tests(reference=...)``
        compared it with: ``("link", catalog link)`` or ``("cluster", training
        cluster or catalog system)``; empty if none.
    notes : str
        What to know (what the source says, what is missing).
    machine : str or mapping or None
        The machine, for the collective model (:func:`shipped_system`): the label of
        the run in ``published.nccl_tests.NCCL_TESTS_RESULTS``
        with the same source, or the keywords of
        :class:`~interconnect_lab.collectives.system.CollectiveSystem` (their source
        in ``notes``); None for perftest and topology output.
    n_ranks : int or None
        Ranks in the run, as its source states them, where the log does not
        list them (passed to the parser as ``n_ranks``); None where it does.
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
    machine: str | MappingProxyType | None = None
    n_ranks: int | None = None


_ORACLE = "oracle-quickstart/oci-hpc-oke"
_OCI_QUICKSTARTS = ("https://github.com/oracle-quickstart/oci-gpu-quickstarts/blob/"
                    "6a0abdc78b574b28eb10926387615c8414ed8c1d/nvidia")
_AWSOME = "aws-samples/awsome-distributed-training"
_WOHLBIER = "wohlbier/nccl-tests"
_PERFTEST_NOTES = ("One of several perftest runs (ConnectX-3, mlx4_0, InfiniBand link, MTU 2048) in a "
                   "notes file of the repository; the search index that found it did not record the "
                   "file's path or date.")

#: The DGX-2's V100 for the collective model: NCCL's Volta class, six NVLinks per GPU to the
#: NVSwitches, each counted by NCCL at 20 GB/s (collectives.system.NCCL_NVLINK_BYTES_PER_S_PER_LINK).
_DGX2_12_V100 = MappingProxyType({"architecture": "volta", "nodes": 1, "gpus_per_node": 12,
                                  "nvlink_links": 6, "nvswitch": True, "cpu": "intel"})
_DGX2_NOTE = ("Machine: each V100 of a DGX-2 uses its six NVLinks, one to each NVSwitch of its board, and the host "
              "CPUs are two Intel Xeon Platinum (AnandTech, 'NVIDIA Develops NVLink Switch: NVSwitch, 18 Ports For "
              "DGX-2 & More', 2018, https://www.anandtech.com/show/12581; PC Perspective, 'NVIDIA Announces DGX-2 "
              "with 16 GV100s & 8 100Gb NICs', 2018).")

#: Every shipped log, by name: where it comes from and what it holds.
SHIPPED_LOGS = MappingProxyType({entry.name: entry for entry in (
    ShippedLog(
        name="v100_dgx2_all_reduce", filename="nccl_tests_v100_dgx2_12gpu_all_reduce.txt",
        tool="nccl-tests", program="all_reduce_perf",
        system="NVIDIA DGX-2, 12 of its 16 Tesla V100-SXM3-32GB on NVSwitch, one process",
        url=f"https://github.com/{_WOHLBIER}/blob/33ee81a3ec6c5e8fdd1e61f713a5c5185b000cd1/README.md",
        repository=_WOHLBIER, path="README.md", commit="33ee81a3ec6c5e8fdd1e61f713a5c5185b000cd1",
        year=2019, bib_key="wohlbier2019dgx2", reference=("link", "NVLink 2"), machine=_DGX2_12_V100,
        notes=("Older table layout: 'redop' but no 'root' column, an 'error' column instead of '#wrong'. "
               "Year from the README's copyright line (2016-2019). " + _DGX2_NOTE)),
    ShippedLog(
        name="v100_dgx2_all_gather", filename="nccl_tests_v100_dgx2_12gpu_all_gather.txt",
        tool="nccl-tests", program="all_gather_perf",
        system="NVIDIA DGX-2, 12 Tesla V100-SXM3-32GB on NVSwitch, one process",
        url=f"https://github.com/{_WOHLBIER}/blob/33ee81a3ec6c5e8fdd1e61f713a5c5185b000cd1/README.md",
        repository=_WOHLBIER, path="README.md", commit="33ee81a3ec6c5e8fdd1e61f713a5c5185b000cd1",
        year=2019, bib_key="wohlbier2019dgx2", reference=("link", "NVLink 2"), machine=_DGX2_12_V100,
        notes=("Oldest layout (no 'redop', no 'root'); early nccl-tests printed all-gather's algbw equal to "
               "busbw; the last two rows report errors (Out of bounds values : 4 FAILED), as published. "
               + _DGX2_NOTE)),
    ShippedLog(
        name="v100_dgx2_broadcast", filename="nccl_tests_v100_dgx2_12gpu_broadcast.txt",
        tool="nccl-tests", program="broadcast_perf",
        system="NVIDIA DGX-2, 12 Tesla V100-SXM3-32GB on NVSwitch, one process",
        url=f"https://github.com/{_WOHLBIER}/blob/33ee81a3ec6c5e8fdd1e61f713a5c5185b000cd1/README.md",
        repository=_WOHLBIER, path="README.md", commit="33ee81a3ec6c5e8fdd1e61f713a5c5185b000cd1",
        year=2019, bib_key="wohlbier2019dgx2", reference=("link", "NVLink 2"), machine=_DGX2_12_V100,
        notes="Older layout with a 'root' column and no 'redop'. " + _DGX2_NOTE),
    ShippedLog(
        name="a100_2x8_roce_all_reduce", filename="nccl_tests_a100_2x8_roce_all_reduce.txt",
        tool="nccl-tests", program="all_reduce_perf",
        system=("Two Oracle Cloud BM.GPU4.8 / BM.GPU.A100-v2.8 nodes, 8 A100-SXM4-40GB each, RDMA over "
                "Converged Ethernet (RoCE) between them"),
        url=f"https://github.com/{_ORACLE}/blob/main/README.md", repository=_ORACLE, path="README.md",
        commit=None, year=2024, bib_key="oracle2024ocihpcoke", reference=("cluster", "Selene"),
        machine="oci_oke_a100_2n_allreduce",
        notes=("Current layout. The README revision that used the 2024.02.12 GPU image; the repository's "
               "README has been rewritten since. The same log as the published run "
               "'oci_oke_a100_2n_allreduce' (the README at commit ce46372).")),
    ShippedLog(
        name="a100_2x8_roce_all_reduce_large", filename="nccl_tests_a100_2x8_roce_all_reduce_large.txt",
        tool="nccl-tests", program="all_reduce_perf",
        system="Two Oracle Cloud A100 nodes (8 A100-SXM4-40GB each) over RoCE, 1 GiB and 10 GiB only",
        url=(f"https://github.com/{_ORACLE}/blob/3e5d61bdd4541ef9e5fc46f3a0b68ada4e272f9c/"
             "docs/running-rdma-workloads-on-oke-a100.md"),
        repository=_ORACLE, path="docs/running-rdma-workloads-on-oke-a100.md",
        commit="3e5d61bdd4541ef9e5fc46f3a0b68ada4e272f9c", year=2023, bib_key="oracle2023okea100",
        reference=("cluster", "Selene"), machine="oci_oke_a100_2n_allreduce",
        notes=("Prints 'NCCL version 2.14.3+cuda11.7' in its header; two sizes only. The machine is taken "
               "to be the one of 'oci_oke_a100_2n_allreduce' (same repository, A100-SXM4-40GB, 16 x 100 Gb/s "
               "RoCE): the document does not name the shape.")),
    ShippedLog(
        name="h100_2x8_a3mega_all_reduce", filename="nccl_tests_h100_2x8_a3mega_all_reduce.txt",
        tool="nccl-tests", program="all_reduce_perf",
        system="Two Google Cloud A3 Mega VMs, 8 H100 80GB HBM3 each (GPUDirect-TCPXO networking)",
        url="https://github.com/lessizzmore/create-a3mega-ztan-fork/blob/02dd8f455c43ced1cf442ef29334bda97149264b/ztan-NCCL-test-result",
        repository="lessizzmore/create-a3mega-ztan-fork", path="ztan-NCCL-test-result",
        commit="02dd8f455c43ced1cf442ef29334bda97149264b", year=2024, bib_key="ztan2024a3mega",
        reference=("cluster", "HGX H100"), machine="gcp_a3mega_h100_2n_allreduce",
        notes=("Current layout, 8 B to 8 GiB. The file ends at the Avg line. The same log as the published "
               "run 'gcp_a3mega_h100_2n_allreduce' (8 x 200 Gb/s GPUDirect-TCPXO per VM, from Google's "
               "A3 Mega specification).")),
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
        name="gb300_nvl72_8gpu_alltoall", filename="nccl_tests_gb300_8gpu_nvl72_alltoall.txt",
        tool="nccl-tests", program="alltoall_perf",
        system="Two Oracle Cloud BM.GPU.GB300.4 trays (8 GB300) in one NVL72 rack: one NVLink domain",
        url=f"{_OCI_QUICKSTARTS}/GB300/README-GB300.md", repository="oracle-quickstart/oci-gpu-quickstarts",
        path="nvidia/GB300/README-GB300.md", commit="6a0abdc78b574b28eb10926387615c8414ed8c1d", year=2026,
        bib_key="oracle2026gb300", machine="oci_gb300_2n_alltoall",
        notes=("Section 'NCCL All to All Scale Performance 2 Hosts Single Rack'. Published with rank lines "
               "2 to 5 elided ('...') and the sizes below 8 GiB cut ('# Truncated  smaller message sizes').")),
    ShippedLog(
        name="b300_2x8_roce_alltoall", filename="nccl_tests_b300_2x8_roce_alltoall.txt",
        tool="nccl-tests", program="alltoall_perf",
        system="Two Oracle Cloud BM.GPU.B300.8 nodes (8 B300 each) over RoCE: all-to-all across nodes",
        url=f"{_OCI_QUICKSTARTS}/B300/README-B300.md", repository="oracle-quickstart/oci-gpu-quickstarts",
        path="nvidia/B300/README-B300.md", commit="6a0abdc78b574b28eb10926387615c8414ed8c1d", year=2026,
        bib_key="oracle2026b300", machine="oci_b300_2n_alltoall", n_ranks=16,
        notes=("Section 'All-to-All - 2 Nodes'. Published without rank lines and with the sizes below 8 GiB cut "
               "('# <smaller message sizes truncated>'); one process per GPU (nGpus 1), 16 ranks as the section "
               "states.")),
    ShippedLog(
        name="a100_2x8_ib_alltoall", filename="nccl_tests_a100_2x8_ib_alltoall.txt",
        tool="nccl-tests", program="alltoall_perf",
        system="Two ALCF Sophia nodes (DGX A100, 8 A100-SXM4-40GB each) over InfiniBand HDR: all-to-all across nodes",
        url=("https://github.com/argonne-lcf/alcf-nccl-tests/blob/9e9c74fa28b547c158383d2f75a97c36bbd6ed7e/"
             "results_sophia/n2.g8/2024-10-15-11-21-15/alltoall_output.dat.2"),
        repository="argonne-lcf/alcf-nccl-tests",
        path="results_sophia/n2.g8/2024-10-15-11-21-15/alltoall_output.dat.2",
        commit="9e9c74fa28b547c158383d2f75a97c36bbd6ed7e", year=2024, bib_key="alcf2024ncclsophia",
        machine="alcf_sophia_a100_2n_alltoall",
        notes=("The whole file: 4 B to 1 GiB, rows of 0 B (a count too small to split over 16 ranks), 'N/A' "
               "in the in-place #wrong column (all-to-all has no in-place check).")),
    ShippedLog(
        name="a100_2x8_efa_all_reduce", filename="nccl_tests_a100_2x8_efa_all_reduce.txt",
        tool="nccl-tests", program="all_reduce_perf",
        system="Two AWS p4de.24xlarge instances (8 A100 80GB each) over EFA, 4 x 100 Gb/s per instance",
        url=f"https://github.com/{_AWSOME}/blob/88c2e71b17895e2d5de10733861888c7faedf2f0/micro-benchmarks/nccl-tests/README.md",
        repository=_AWSOME, path="micro-benchmarks/nccl-tests/README.md",
        commit="88c2e71b17895e2d5de10733861888c7faedf2f0", year=2024, bib_key="aws2024ncclreadme",
        machine="aws_p4de_efa_2n_allreduce", n_ranks=16,
        notes=("README section 'Results', first block. Every line carries srun's '0: ' label; the excerpt "
               "starts at the column names and ends at the last row, without the closing lines; 16 ranks "
               "as the README states (2 x p4de.24xlarge).")),
    ShippedLog(
        name="h100_2x8_a3mega_all_gather", filename="nccl_tests_h100_2x8_a3mega_all_gather.txt",
        tool="nccl-tests", program="all_gather_perf",
        system="Two Google Cloud A3 Mega VMs (8 H100 80GB each), GPUDirect-TCPXO, run by dstack",
        url=("https://github.com/dstackai/dstack/blob/511c318c8a7672fb2a925041bfc2d7301a26272e/"
             "mkdocs/docs/examples/clusters/gcp.md"),
        repository="dstackai/dstack", path="mkdocs/docs/examples/clusters/gcp.md",
        commit="511c318c8a7672fb2a925041bfc2d7301a26272e", year=2025, bib_key="dstack2025gcp",
        machine="dstack_gcp_a3mega_h100_2n_allgather", n_ranks=16,
        notes=("Tab 'A3 Mega' under 'Run tasks > NCCL tests'. The page prints nccl-tests' comment lines "
               "without their '#' and indented by four spaces; 8 MiB to 8 GiB, no rank lines, 16 ranks "
               "(-n ${DSTACK_GPUS_NUM} on 2 x 8 GPUs).")),
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


def shipped_system(name):
    """The machine a shipped nccl-tests log ran on, for the collective model.

    Parameters
    ----------
    name : str
        A key of :data:`SHIPPED_LOGS` naming nccl-tests output.

    Returns
    -------
    CollectiveSystem
        The published run's machine (``ShippedLog.machine`` names it), or the one the
        entry describes.

    Raises
    ------
    ValueError
        For an unknown name, or perftest and topology output (no machine for the model).

    Examples
    --------
    >>> s = shipped_system("b300_2x8_roce_alltoall")
    >>> s.nodes, s.gpus_per_node, s.nics_per_node, s.nic_bytes_per_s / 1e9
    (2, 8, 8, 100.0)
    """
    from ...collectives.reproduction import result_system
    from ...collectives.system import NCCL_NVLINK_BYTES_PER_S_PER_LINK, CollectiveSystem
    from ...published.nccl_tests import NCCL_TESTS_RESULTS

    entry = shipped_log(name)
    if entry.machine is None:
        raise ValueError(f"shipped log {name!r} is {entry.tool} output: it names no machine for the collective model")
    if isinstance(entry.machine, str):
        result = next(r for r in NCCL_TESTS_RESULTS if r.label == entry.machine)
        return result_system(result)
    keywords = dict(entry.machine)
    links = keywords.pop("nvlink_links")
    return CollectiveSystem(nvlink_bytes_per_s=links * NCCL_NVLINK_BYTES_PER_S_PER_LINK[keywords["architecture"]],
                            name=entry.system.split(",")[0], **keywords)
