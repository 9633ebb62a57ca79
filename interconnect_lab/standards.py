"""Standards, consortia and performance claims about AI fabrics, each with its source.

When the specifications the book discusses were released, who founded the
bodies behind them and what they aim at; the transport timer that InfiniBand
and RoCE reliable connections use and NCCL's default for it; and vendors' and
authors' performance claims, kept as *claims*: no model reads them, the book
checks them.

Dates are ISO strings at the precision the sources give (``"2025-06"`` is a
month, ``"2023-07-19"`` a day).

Examples
--------
>>> from interconnect_lab import standards
>>> standards.ULTRA_ETHERNET_CONSORTIUM.founded, len(standards.ULTRA_ETHERNET_CONSORTIUM.founders)
('2023-07-19', 9)
>>> round(standards.local_ack_timeout_s(standards.NCCL_IB_TIMEOUT_DEFAULT), 2)
4.29
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from . import units as u
from ._validation import check_integer
from .sources import MLENG_NETWORK, POND, Source

__all__ = [
    "Specification", "Consortium", "PerformanceClaim",
    "ROCE_V2", "ULTRA_ETHERNET_CONSORTIUM", "ULTRA_ETHERNET_1_0",
    "LOCAL_ACK_TIMEOUT_UNIT_S", "local_ack_timeout_s", "NCCL_IB_TIMEOUT_DEFAULT", "NCCL_IB_RETRY_CNT_DEFAULT",
    "ADAPTIVE_RETRANSMISSION_SOURCE", "ADAPTIVE_RETRANSMISSION_MIN_BASE_TIMEOUT_S",
    "ADAPTIVE_RETRANSMISSION_MAX_DELAY_FACTOR", "worst_case_loss_stall_s",
    "NCCL_IB_QPS_PER_CONNECTION_DEFAULT",
    "SPECTRUM_X_CLAIM", "SMARTT_CLAIM", "JERICHO3_AI_CLAIM",
    "CXL_SPECIFICATIONS", "COHERENT_INTERCONNECT_CONSORTIA", "PCIE_7_0", "PCIE_7_0_RELEASE", "CXL_4_0_RELEASE",
]

_DATE = re.compile(r"^\d{4}(-\d{2}(-\d{2})?)?$")


def _check_date(owner, field, value):
    if not isinstance(value, str) or not _DATE.match(value):
        raise ValueError(f"{owner}.{field} = {value!r} is not valid: give an ISO date, 'YYYY', 'YYYY-MM' or "
                         "'YYYY-MM-DD', at the precision the source gives")


def _check_sources(owner, sources):
    if not sources or not all(isinstance(s, Source) for s in sources):
        raise ValueError(f"{owner} needs at least one Source: every fact in this module says where it comes from")


@dataclass(frozen=True, kw_only=True)
class Specification:
    """A published specification.

    Attributes
    ----------
    name : str
        The specification as its publisher names it.
    body : str
        Who publishes it.
    released : str
        Release date (ISO, at the source's precision).
    scope : str
        What it defines, briefly.
    sources : tuple of Source
    """

    name: str
    body: str
    released: str
    scope: str
    sources: tuple

    def __post_init__(self):
        _check_date("Specification", "released", self.released)
        _check_sources(f"Specification {self.name!r}", self.sources)

    @property
    def year(self) -> int:
        """Year of release."""
        return int(self.released[:4])


@dataclass(frozen=True, kw_only=True)
class Consortium:
    """A standards consortium.

    Attributes
    ----------
    name : str
    host : str
        The organization it is hosted by.
    founded : str
        Date it was announced (ISO, at the source's precision).
    founders : tuple of str
        Founding members.
    joined_later : tuple of str
        Notable members that joined after the founding.
    endpoint_target : int or None
        The number of endpoints its fabric is designed to reach [-].
    merged_into : str or None
        The body its specifications and assets were transferred to, if any.
    merged : str or None
        When that transfer was decided (ISO, at the source's precision).
    sources : tuple of Source
    """

    name: str
    host: str
    founded: str
    founders: tuple
    joined_later: tuple = ()
    endpoint_target: int | None = None
    merged_into: str | None = None
    merged: str | None = None
    sources: tuple

    def __post_init__(self):
        _check_date("Consortium", "founded", self.founded)
        if (self.merged_into is None) != (self.merged is None):
            raise ValueError(f"Consortium {self.name!r}: give both merged_into and merged, or neither")
        if self.merged is not None:
            _check_date("Consortium", "merged", self.merged)
        _check_sources(f"Consortium {self.name!r}", self.sources)
        if self.endpoint_target is not None:
            check_integer("Consortium.endpoint_target", self.endpoint_target, minimum=1)

    @property
    def year(self) -> int:
        """Year it was founded."""
        return int(self.founded[:4])


@dataclass(frozen=True, kw_only=True)
class PerformanceClaim:
    """A published performance claim, as its author states it.

    Attributes
    ----------
    claimant : str
        Who makes the claim.
    subject : str
        What is claimed to be faster.
    statement : str
        The claim in the source's words.
    value : float
        Its number: a factor (1.6 for "1.6x") or a fraction (0.5 for "50 %") [-].
    metric : str
        What is measured, as far as the source says.
    baseline : str
        What it is compared with.
    independent : bool
        Whether anyone without a stake in the subject measured it.
    sources : tuple of Source
    """

    claimant: str
    subject: str
    statement: str
    value: float
    metric: str
    baseline: str
    independent: bool = False
    sources: tuple

    def __post_init__(self):
        _check_sources(f"PerformanceClaim {self.subject!r}", self.sources)


# Specifications and bodies -----------------------------------------------------------------

ROCE_V2 = Specification(
    name="Supplement to InfiniBand Architecture Specification Volume 1 Release 1.2.1, Annex A17: RoCEv2",
    body="InfiniBand Trade Association", released="2014-09-02",
    scope="the InfiniBand transport over UDP/IP, routable across Ethernet and IP networks",
    sources=(Source(title="InfiniBand Trade Association, Annex A17: RoCEv2 (IP Routable RoCE)", year=2014,
                    url="https://vdocuments.us/annex-a17-rocev2.html",
                    note="copy of the annex; revision 1.0, general release, Sept. 2, 2014"),),
)

_UEC_NEXTPLATFORM = Source(
    title="Ultra Ethernet Consortium (reprinting The Next Platform), The Collaboration That Will Drive Ethernet "
          "Into The HPC And AI Future", year=2024,
    url="https://ultraethernet.org/the-collaboration-that-will-drive-ethernet-into-the-hpc-and-ai-future",
    note="founders AMD, Arista, Broadcom, Cisco, Eviden, HPE, Intel, Meta, Microsoft; 'Nvidia was not originally a "
         "member, but joined recently'; networks 'that can scale to over 1 million endpoints'")

ULTRA_ETHERNET_CONSORTIUM = Consortium(
    name="Ultra Ethernet Consortium (UEC)", host="Linux Foundation", founded="2023-07-19",
    founders=("AMD", "Arista", "Broadcom", "Cisco", "Eviden", "HPE", "Intel", "Meta", "Microsoft"),
    joined_later=("NVIDIA",), endpoint_target=1_000_000,
    sources=(_UEC_NEXTPLATFORM,
             Source(title="Tom's Hardware, Linux Foundation announces the Ultra Ethernet Consortium", year=2023,
                    url="https://www.tomshardware.com/news/linux-foundation-ultra-ethernet-consortium",
                    note="secondary: the Linux Foundation's press release of 19 July 2023 and its nine members")),
)

ULTRA_ETHERNET_1_0 = Specification(
    name="Ultra Ethernet Specification 1.0", body="Ultra Ethernet Consortium", released="2025-06",
    scope=("a full stack over Ethernet and IP: software, transport (UET), network, link and physical layers; "
           "packet spraying, unordered delivery, selective retransmission, congestion control, packet trimming, "
           "optional link-level retry and credit-based flow control"),
    sources=(Source(title="T. Hoefler et al., Ultra Ethernet's Design Principles and Architectural Innovations",
                    year=2025, url="https://arxiv.org/abs/2508.08906",
                    note="by the specification's authors: 'the recently released Ultra Ethernet (UE) 1.0 "
                         "specification'"),
             Source(title="Converge Digest, Ultra Ethernet Consortium releases Specification 1.0", year=2025,
                    url="https://dev.convergedigest.com/ultra-ethernet-consortium-releases-specification-1-0",
                    note="secondary: release of the 1.0 specification, June 2025")),
)


# The transport timer of reliable connections ---------------------------------------------------

#: Unit of InfiniBand's Local ACK Timeout: a reliable connection retransmits when no acknowledgement
#: arrives within 4.096 us x 2^exponent (IBTA Vol. 1, 12.7.34, as NCCL's documentation gives it) [s].
LOCAL_ACK_TIMEOUT_UNIT_S: float = 4.096 * u.us

_NCCL_ENV = Source(title="NVIDIA, NCCL User Guide: Environment Variables (NCCL_IB_TIMEOUT, NCCL_IB_RETRY_CNT)",
                   year=2026, url="https://docs.nvidia.com/deeplearning/nccl/user-guide/docs/env.html",
                   note="'The timeout is computed as 4.096 us * 2 ^ timeout'; default 20 since 2.23 (18 since 2.14, "
                        "14 before); retry count default 7; NCCL_IB_QPS_PER_CONNECTION default 1")

#: NCCL's default exponent for the InfiniBand/RoCE transport timeout (since NCCL 2.23) [-].
NCCL_IB_TIMEOUT_DEFAULT: int = 20

#: NCCL's default retry count before it reports a network error [-].
NCCL_IB_RETRY_CNT_DEFAULT: int = 7

#: Queue pairs NCCL opens per connection between two ranks by default; more give ECMP more flows to
#: hash ("useful on multi-level fabrics which need multiple queue pairs to have good routing entropy") [-].
NCCL_IB_QPS_PER_CONNECTION_DEFAULT: int = 1


def local_ack_timeout_s(exponent):
    """The transport timer of an InfiniBand or RoCE reliable connection [s].

    .. math:: t = 4.096\\,\\mu s \\times 2^{n}

    Parameters
    ----------
    exponent : int
        The Local ACK Timeout exponent :math:`n` (``NCCL_IB_TIMEOUT``), 0 to 31;
        0 means no timeout (infinite).

    Returns
    -------
    float
        The timeout [s]; ``inf`` for 0.

    References
    ----------
    NVIDIA, NCCL User Guide, Environment Variables, ``NCCL_IB_TIMEOUT``.
    https://docs.nvidia.com/deeplearning/nccl/user-guide/docs/env.html

    Examples
    --------
    >>> round(local_ack_timeout_s(18), 3)
    1.074
    >>> local_ack_timeout_s(0)
    inf
    """
    exponent = check_integer("exponent", exponent, minimum=0, maximum=31)
    return math.inf if exponent == 0 else LOCAL_ACK_TIMEOUT_UNIT_S * 2.0**exponent


#: Where the adaptive retransmission of NVIDIA's ConnectX adapters is documented.
ADAPTIVE_RETRANSMISSION_SOURCE = Source(
    title="NVIDIA, Adaptive Retransmission: Parameters Control", year=2025,
    url="https://docs.nvidia.com/networking/display/adaptiveretransmissionparameterscontrol",
    note="'Adaptive Retransmission (ADP) Algorithm timeout adjustments is introduced in the April 2025 GA firmware "
         "for all NICs supporting the standard ADP algorithm'; 'adp_retx_base_timeout_min - Minimum base timeout "
         "enforced by firmware: 0xFA0 (4000 nanoseconds, i.e., 4 microseconds)'; the timeout starts from a "
         "randomised initial value and doubles through configured ranges; roce_adp_retrans_en enables it; 'The "
         "current design may introduce up to a 4x delay in the effective timeout'. Last updated 18 Aug 2025")

#: The smallest base timeout ConnectX firmware allows its adaptive retransmission to start from [s]: where
#: it is on, a lost packet is resent microseconds to milliseconds later, not after the Local ACK Timeout.
ADAPTIVE_RETRANSMISSION_MIN_BASE_TIMEOUT_S: float = 4 * u.us

#: How much later than configured the adaptive timeout may fire, by NVIDIA's note [-].
ADAPTIVE_RETRANSMISSION_MAX_DELAY_FACTOR: float = 4.0


def worst_case_loss_stall_s(exponent=None, retries=None):
    """The longest a reliable connection waits on a lost last packet before it gives up [s].

    With adaptive retransmission off (or on an adapter without it) every retry waits the
    full Local ACK Timeout, :math:`4.096\\,\\mu s \\times 2^{n}`, and the connection reports an
    error after ``retries`` retries:

    .. math:: t_\\text{worst} = (1 + r)\\, 4.096\\,\\mu s \\times 2^{n}

    where the first interval is the one that detects the loss. This is the worst case; ConnectX
    adapters with adaptive retransmission enabled start from a base timeout of microseconds
    (:data:`ADAPTIVE_RETRANSMISSION_MIN_BASE_TIMEOUT_S`) and resend far sooner.

    Parameters
    ----------
    exponent : int, optional
        ``NCCL_IB_TIMEOUT``, 1 to 31; NCCL's default (:data:`NCCL_IB_TIMEOUT_DEFAULT`) if omitted.
    retries : int, optional
        ``NCCL_IB_RETRY_CNT``, 0 to 7; NCCL's default if omitted.

    Returns
    -------
    float
        Seconds until the connection errors out.

    Examples
    --------
    >>> round(worst_case_loss_stall_s(), 1)                 # 8 intervals of 4.3 s under NCCL's defaults
    34.4
    >>> round(worst_case_loss_stall_s(exponent=18, retries=0), 2)
    1.07
    """
    exponent = NCCL_IB_TIMEOUT_DEFAULT if exponent is None else check_integer("exponent", exponent, minimum=1,
                                                                            maximum=31)
    retries = NCCL_IB_RETRY_CNT_DEFAULT if retries is None else check_integer("retries", retries, minimum=0,
                                                                            maximum=7)
    return (1 + retries) * local_ack_timeout_s(exponent)


# Performance claims (checked in the book, never used by a model) --------------------------------

SPECTRUM_X_CLAIM = PerformanceClaim(
    claimant="NVIDIA", subject="Spectrum-X (Spectrum-4 switches with NVIDIA SuperNICs)",
    statement="1.6x over off-the-shelf Ethernet", value=1.6,
    metric="'AI networking performance'; the workload and the baseline's configuration are not given",
    baseline="off-the-shelf Ethernet", independent=False,
    sources=(MLENG_NETWORK.at("Spectrum-X", note="quotes nvidia.com/spectrumx: 1.6x AI network performance "
                                                 "compared with off-the-shelf Ethernet (vendor claim)"),),
)

SMARTT_CLAIM = PerformanceClaim(
    claimant="T. Bonato et al. (authors from ETH Zurich, Microsoft, AMD, Broadcom and others)",
    subject="SMaRTT, the sender-based congestion control behind Ultra Ethernet's NSCC",
    statement="outperforms existing datacenter congestion control algorithms like Swift, RoCE, and MPRDMA by up "
              "to 50%",
    value=0.5,
    metric="not named in the abstract; 'up to' is the best case over the paper's scenarios, most of them simulated",
    baseline=("Swift, RoCE and MPRDMA (revision 4, 2026); the 2024 revisions compared with EQDS, Swift, BBR and "
              "MPRDMA, not RoCE"),
    independent=False,
    sources=(Source(title="T. Bonato et al., SMaRTT: Sender-based Marked Rapidly-adapting Trimmed & Timed Transport",
                    year=2026, url="https://arxiv.org/abs/2404.01630", locator="abstract, v4"),
             Source(title="T. Bonato et al., SMaRTT-REPS: Sender-based Marked Rapidly-adapting Trimmed & Timed "
                          "Transport with Recycled Entropies", year=2024, url="https://arxiv.org/abs/2404.01630v1",
                    locator="abstract, v1", note="'SMaRTT alone outperforms EQDS, Swift, BBR, and MPRDMA by up to 50%'")),
)

JERICHO3_AI_CLAIM = PerformanceClaim(
    claimant="Broadcom", subject="Jericho3-AI leaf chips with Ramon3 fabric chips, a scheduled Ethernet fabric",
    statement="systems with 32,768 ports running at 800 Gbps", value=32_768,
    metric="ports of 800 Gb/s in one fabric with end-to-end credit-based scheduling",
    baseline="(a scale claim, not a comparison)", independent=False,
    sources=(Source(title="J. Byrne (TechInsights), Broadcom Retargets Jericho at AI Clusters", year=2023,
                    url="https://www-prod.techinsights.com/blog/broadcom-retargets-jericho-ai-clusters",
                    note="an analyst's account of Broadcom's announcement, April 2023"),),
)


# CXL and the coherent interconnects before it (chapter 3) ------------------------------------------

_CXL_BODY = "CXL Consortium"

#: CXL generations: what each added. Rates and PHYs are in the catalog (``"CXL 2.0 x16"``...).
#: The CXL Consortium's own release of CXL 4.0 (BusinessWire, 18 Nov 2025), read in a verbatim reprint.
CXL_4_0_RELEASE = Source(
    title="CXL Consortium, CXL Consortium Releases the Compute Express Link 4.0 Specification Increasing Speed and "
          "Bandwidth (press release, BusinessWire, via a syndicated copy)", year=2025,
    url=("http://business.sherbrookerecord.com/sherbrookerecord/article/bizwire-2025-11-18-cxl-consortium-releases-"
         "the-compute-express-link-40-specification-increasing-speed-and-bandwidth"),
    note="BEAVERTON, Ore., 18 Nov 2025: 'Doubles the bandwidth to 128GTs with zero added latency'; 256B Flit "
         "format kept; native x2 width; up to four retimers; bundled ports; 'The new specification is released "
         "to the public'")

#: PCI-SIG's release of PCIe 7.0 (11 June 2025), read in a verbatim reprint.
PCIE_7_0_RELEASE = Source(
    title="PCI-SIG, PCI-SIG Releases PCIe 7.0 Specification (press release, via Memorys news)", year=2025,
    url="https://en.memorys.com/news/view?id=14461",
    note="'Delivers 128.0 GT/s raw bit rate and up to 512 GB/s bi-directionally via x16 configuration'; PAM4 "
         "signalling and Flit-based encoding; released 11 June 2025 (date per the research notes of 2026-12-07 "
         "and a StorageNewsletter reprint of 16 June 2025)")

PCIE_7_0 = Specification(
    name="PCI Express 7.0", body="PCI-SIG", released="2025-06-11",
    scope="128 GT/s per lane, PAM4 and 256-byte Flits as in PCIe 6.0: 512 GB/s for x16 with both directions added",
    sources=(PCIE_7_0_RELEASE,),
)

CXL_SPECIFICATIONS: tuple[Specification, ...] = (
    Specification(
        name="CXL 1.1", body=_CXL_BODY, released="2019-06",
        scope="CXL.io, CXL.cache and CXL.mem on the PCIe 5.0 PHY (32 GT/s): accelerators and memory "
              "expanders attached to one host",
        sources=(Source(title="CXL Consortium, Compute Express Link 1.1 Specification: Now Available to Members",
                        year=2019, url=("https://computeexpresslink.org/blog/compute-express-link-1-1-specification-"
                                        "now-available-to-members-2339/"),
                        note="CXL is based on the PCI Express 5.0 physical layer; released June 2019"),),
    ),
    Specification(
        name="CXL 2.0", body=_CXL_BODY, released="2020-11",
        scope="switching and memory pooling: one device's capacity split among several hosts, each region "
              "owned by one host at a time; same PCIe 5.0 PHY",
        sources=(Source(title="CXL Consortium, CXL Consortium Releases Compute Express Link 2.0 Specification",
                        year=2020, url="https://www.design-reuse.com/news/48999/compute-express-link-2-0-specification.html",
                        note="press release of 10 Nov 2020: switching, memory pooling"),
                 POND.at("§2", note="a CXL 2.0 pool assigns each slice of its memory to one host at a time")),
    ),
    Specification(
        name="CXL 3.0", body=_CXL_BODY, released="2022-08",
        scope="the PCIe 6.0 PHY (64 GT/s, PAM4) with no added latency; fabrics and multi-level switching; "
              "memory sharing: one region coherently accessed by several hosts; peer-to-peer",
        sources=(Source(title="Converge Digest, New CXL 3.0 spec doubles data rate to 64GTs (CXL Consortium release)",
                        year=2022, url="https://www.convergedigest.com/2022/08/new-cxl-30-spec-doubles-data-rate-to.html",
                        note="fabric capabilities, enhanced pooling, multi-level switching, 64 GT/s, 'zero added "
                             "latency over CXL 2.0'; board members include AMD, Intel, NVIDIA, Samsung"),
                 Source(title="Phoronix, CXL 3.0 Specification Released", year=2022,
                        url="https://www.phoronix.com/news/CXL-3.0-Specification-Released",
                        note="improved memory sharing and pooling, peer-to-peer communication")),
    ),
    Specification(
        name="CXL 3.1", body=_CXL_BODY, released="2023-11-14",
        scope="port-based-routing fabrics, host-to-host global integrated memory, direct peer-to-peer CXL.mem, "
              "a security protocol for trusted execution; same PHY as 3.0",
        sources=(Source(title="CXL Consortium (Business Wire), CXL Consortium Announces Compute Express Link 3.1 "
                              "Specification Release", year=2023,
                        url=("https://businesswire.com/news/home/20231114332690/en/CXL-Consortium-Announces-Compute-"
                             "Express-Link-3.1-Specification-Release")),),
    ),
    Specification(
        name="CXL 4.0", body=_CXL_BODY, released="2025-11-18",
        scope="the PCIe 7.0 PHY (128 GT/s) and bundled ports",
        sources=(CXL_4_0_RELEASE,),
    ),
)

#: Open coherent or memory-semantic interconnects that came before CXL, and where they went.
COHERENT_INTERCONNECT_CONSORTIA: tuple[Consortium, ...] = (
    Consortium(
        name="CCIX Consortium (Cache Coherent Interconnect for Accelerators)", host="independent",
        founded="2016-05",
        founders=("AMD", "Arm", "Huawei", "IBM", "Mellanox", "Qualcomm", "Xilinx"),
        sources=(Source(title="EDN Europe, Industry heavyweights unite to standardize cache coherent interconnects",
                        year=2016, url="http://www.edn-europe.com/news/industry-heavyweights-unite-standardize-cache-"
                                       "coherent-interconnects",
                        note="23 May 2016: a specification for processors of different instruction sets to "
                             "coherently share data with accelerators"),),
    ),
    Consortium(
        name="Gen-Z Consortium", host="independent", founded="2016-10",
        founders=(), merged_into="CXL Consortium", merged="2021-11",
        sources=(Source(title="CXL Consortium, CXL Consortium & Gen-Z Consortium Sign Letter of Intent to Advance "
                              "Interconnect Technology", year=2021,
                        url=("https://computeexpresslink.org/blog/exploring-the-future-cxl-consortium-gen-z-"
                             "consortium-sign-letter-of-intent-to-advance-interconnect-technology-2426/"),
                        note="10 Nov 2021: transfer of the Gen-Z specifications and assets to the CXL Consortium, "
                             "'with CXL as the sole industry standard moving forward'; Gen-Z founded in 2016"),
                 Source(title="Wikipedia, Gen-Z (consortium)", year=2025,
                        url="https://en.wikipedia.org/wiki/Gen-Z_(consortium)",
                        note="secondary: formed 11 October 2016; members voted the transfer in November 2021")),
    ),
    Consortium(
        name="OpenCAPI Consortium", host="independent", founded="2016",
        founders=(), merged_into="CXL Consortium", merged="2022-08",
        sources=(Source(title="Tom's Hardware, CXL 3.0 Debuts: One CPU Interconnect to Rule Them All", year=2022,
                        url="https://www.tomshardware.com/news/cxl-30-debuts-one-cpu-interconnect-to-rule-them-all",
                        note="OpenCAPI announced it would contribute its specification to the CXL Consortium, "
                             "August 2022"),
                 Source(title="Wikipedia, Gen-Z (consortium)", year=2025,
                        url="https://en.wikipedia.org/wiki/Gen-Z_(consortium)",
                        note="secondary: an open CAPI consortium formed at about the same time as Gen-Z and CCIX "
                             "(2016)")),
    ),
)


# Co-packaged optics (chapter 10) ------------------------------------------------------------------

__all__ += ["NVIDIA_CPO_CLAIM", "BROADCOM_CPO_CLAIM"]

NVIDIA_CPO_CLAIM = PerformanceClaim(
    claimant="NVIDIA",
    subject="Quantum-X Photonics and Spectrum-X Photonics switches (co-packaged silicon-photonics optics)",
    statement="3.5x more power efficiency, 63x greater signal integrity, 10x better network resiliency at scale "
              "and 1.3x faster deployment compared with traditional methods",
    value=3.5,
    metric=("network power for the optics, per port: NVIDIA's talks put a pluggable 1.6 Tb/s port at about 30 W "
            "and a co-packaged one at about 9 W"),
    baseline="the same switches with pluggable transceivers",
    independent=False,
    sources=(Source(title="Converge Digest, NVIDIA debuts Spectrum-X and Quantum-X Photonics switches", year=2025,
                    url="https://convergedigest.com/nvidia-debuts-spectrum-x-and-quantum-x-photonics-switches/",
                    note="secondary: NVIDIA's GTC announcement of 18 March 2025; 3.5x power efficiency; Quantum-X "
                         "Photonics 144 ports of 800 Gb/s, liquid-cooled"),
             Source(title="TechInsights, NVIDIA Launches New Switches with TSMC's Co-Packaged Optics", year=2025,
                    url="https://www-prod.techinsights.com/zh-cn/node/60126",
                    note="secondary: quotes the claims and 'plug-in transceiver modules, which draw about 30 W each'"),
             Source(title="Notebookcheck, Nvidia unveils photonics switches to scale AI networks with millions of GPUs",
                    year=2025,
                    url="https://www.notebookcheck.net/Nvidia-unveils-photonics-switches-to-scale-AI-networks-with-millions-of-GPUs.1096181.0.html",
                    note="secondary: per NVIDIA about 30 W per port with pluggables, about 9 W with co-packaged "
                         "optics; electrical loss about 22 dB against about 4 dB on 200G channels")),
)

BROADCOM_CPO_CLAIM = PerformanceClaim(
    claimant="Broadcom",
    subject="Bailly: a 51.2 Tb/s Tomahawk 5 Ethernet switch with co-packaged silicon-photonics optical engines",
    statement="enables an optical interconnect to operate at 70% lower power consumption and 8x better silicon "
              "area efficiency, compared to pluggable transceiver solutions",
    value=0.70,
    metric="power of the optical interconnect (the optics), not of the whole switch",
    baseline="pluggable transceivers",
    independent=False,
    sources=(Source(title="RCR Wireless News, Corning's CEO says 'you're going to hear a lot more' about co-packaged "
                          "optics", year=2025, url="https://www.rcrwireless.com/20250516/uncategorized/data-center-optics",
                    note="secondary: reports Broadcom's claim at Bailly's launch and its third-generation "
                         "(200G per lane) CPO"),),
)
