"""Scale-up fabrics and the Ethernet roadmap, each marked shipping, announced or still a specification.

Two tables, both with sources:

- ``SCALE_UP_FABRICS`` — the fabrics that join accelerators into one
  memory-semantic domain: NVLink (shipping, NVIDIA's), NVLink Fusion (NVLink
  for other companies' chips, announced), AMD's Infinity Fabric (shipping),
  UALink (an open specification, no product shipping when it was
  published) and Broadcom's Scale-Up Ethernet on Tomahawk Ultra and
  Tomahawk 6 switches (shipping chips). :func:`scale_up_fabric` looks one up.
- ``ETHERNET_ROADMAP`` — what sets the numbers of the next fabrics:
  200 Gb/s-per-lane SerDes, the IEEE 802.3df (800GbE) and 802.3dj (1.6TbE)
  standards, and 102.4 Tb/s switch chips. :func:`roadmap_item` looks one up.

*Status* says what a reader can buy, in the catalog's one convention
(``status``, ``status_date``, ``as_of``, ``expected_by``; see
``interconnect_lab.catalog._common``): ``"shipping"``, ``"sampling"``,
``"announced"``, ``"specification"`` (an open specification is published; no
product ships yet) or ``"in development"`` (a standard not yet approved).
Every forward-looking entry says when its next step is expected, and the
test suite fails once that date has passed.

Rates are per direction, as everywhere in the catalog.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType

from .. import units as u
from .._validation import check_choice, check_integer, check_number
from ..sources import Source
from ._common import STATUSES, check_status
from .links import LINKS
from .switches import SWITCHES, breakout

__all__ = ["STATUSES", "ScaleUpFabric", "SCALE_UP_FABRICS", "scale_up_fabric", "RoadmapItem",
           "ETHERNET_ROADMAP", "roadmap_item"]

#: When the statuses of this module's entries were last checked against their sources.
CHECKED = "2026-12-07"


def check_sources(owner, sources):
    if not sources or not all(isinstance(s, Source) for s in sources):
        raise ValueError(f"{owner} needs at least one Source: every entry says where its numbers come from")


# Sources ------------------------------------------------------------------------------------

_UALINK_PR = Source(
    title="Converge Digest, UALink Consortium releases UALink 200G 1.0 Specification", year=2025,
    url="https://dev.convergedigest.com/?p=101488",
    note="'200G per lane interconnect supporting up to 1,024 accelerators per AI pod'; memory-semantic "
         "load/store; '93% effective peak bandwidth'; consortium formed Oct 2024",
)
_UALINK_TOMS = Source(
    title="Tom's Hardware, UALink has Nvidia's NVLink in the crosshairs: final specs support up to 1,024 GPUs "
          "with 200 GT/s bandwidth", year=2025,
    url=("https://www.tomshardware.com/tech-industry/ualink-has-nvidias-nvlink-in-the-crosshairs-final-specs-"
         "support-up-to-1-024-gpus-with-200-gt-s-bandwidth"),
    note="200 GT/s per lane data rate, 212.5 GT/s signalling; links of x1, x2 or x4 lanes (x4: 800 Gb/s each "
         "way); one switch port per accelerator, 10-bit identifiers (1,024); cables < 4 m, < 1 us round trip",
)
_UALINK_QA = Source(
    title="UALink Consortium, A Deeper Dive: Responding to the UALink 200G 1.0 Specification Webinar Q&A",
    year=2025, url=("https://ualinkconsortium.org/blog/a-deeper-dive-responding-to-the-ualink-200g-1-0-"
                    "specification-webinar-qa-session-822"),
    note="switch port-to-port latency targets with 400G ports: 25T <= 150 ns, 50T < 200 ns, 100T < 250 ns",
)
_UALINK_DATE = Source(
    title="UALink (probsee summary of the UALink Consortium's announcements)", year=2025,
    url="https://probsee.com/p/ualink", estimate=True,
    note="secondary: 'ratified the UALink 200G 1.0 Specification on April 8, 2025'; promoter group "
         "announced 30 May 2024, incorporated Oct 2024",
)
_WHEELER_MI300 = Source(
    title="B. Wheeler, AMD Looks to Infinity for AI Interconnects (Wheeler's Network)", year=2024,
    url="https://www.wheelersnetwork.com/2024/01/",
    note="'Each MI300X GPU has up to seven Infinity Fabric links, each with 16 lanes ... 32Gbps per lane, "
         "yielding 128GB/s of bidirectional bandwidth per link'; GPUs joined directly in a mesh",
)
_FUSION_PR = Source(
    title="doitong (reprint of NVIDIA's Computex 2025 announcement), NVIDIA unveils NVLink Fusion for custom "
          "AI infrastructure", year=2025,
    url="https://doitong.com/news/en/nvidia-unveils-nvlink-fusion-for-custom-ai-infrastructure",
    note="announced at Computex 2025 (19 May); fifth-generation NVLink, '1.8 TB/s of bidirectional bandwidth "
         "per GPU'; partners MediaTek, Marvell, Alchip, Astera Labs, Synopsys, Cadence; Fujitsu, Qualcomm CPUs",
)
_FUSION_SEMIVOICE = Source(
    title="SemiVoice, NVIDIA NVLink Fusion", year=2025, url="https://news.semivoice.com/post/1c70548a19",
    note="secondary: NVLink-C2C for custom CPUs, an NVLink 5 chiplet for third-party accelerators; every "
         "configuration still includes NVIDIA hardware",
)
_TH6_PR = Source(
    title="Electronics Journal (Broadcom press release), Broadcom Ships Tomahawk 6: World's First 102.4 Tbps "
          "Switch", year=2025,
    url="https://electronics-journal.com/news/96096-broadcom-ships-tomahawk-6-world%E2%80%99s-first-102-4-tbps-switch",
    note="'now shipping the Tomahawk 6 switch series ... 102.4 Terabits/sec'; 100G or 200G SerDes, an "
         "option of 1,024 x 100G SerDes; co-packaged optics option",
)
_TH6_STH = Source(
    title="ServeTheHome, Broadcom Tomahawk 6 Launched for 1.6TbE Generation", year=2025,
    url="https://www.servethehome.com/broadcom-tomahawk-6-launched-for-1-6tbe-generation/",
    note="up to 64 ports of 1.6TbE; 512 x 200G PAM4 or 1,024 x 100G PAM4; 'up to 512 XPUs on a single "
         "switch (512 x 200G = 102.4Tbps)'",
)
_TH6_DATE = Source(
    title="TechInsights, Broadcom Tomahawk 6 Ushers in the Terabit Ethernet Era for AI Data Centers", year=2025,
    url="https://www-prod.techinsights.com/blog/broadcom-tomahawk-6-1024-tbps-ethernet-switch-ai-data-centers",
    note="dated 4 June 2025",
)
_TH6_TWO_TIER = Source(
    title="IBS Electronics, Broadcom's 102.4 Tbps Tomahawk 6 Redefines AI Data Center Networking", year=2025,
    url=("https://www.ibselectronics.in/resources/news/broadcom%E2%80%99s-102-4-tbps-tomahawk-6-redefines-ai-"
         "data-center-networking/"),
    estimate=True,
    note="secondary: 'flat two-tier network fabrics that can scale to over 128,000 XPUs'; 3 nm; mass "
         "production June 2025",
)
_TH_ULTRA = Source(
    title="Techzine, Broadcom launches Tomahawk Ultra with 250ns network latency", year=2025,
    url="https://www.techzine.eu/news/infrastructure/133074/broadcom-launches-tomahawk-ultra-with-250ns-network-latency",
    note="250 ns switch latency at 51.2 Tb/s; link-layer retry and credit-based flow control; header "
         "overhead from 46 to 10 bytes; collectives in the switch; SUE and SUE-Lite",
)
_TH_ULTRA_SHIPPING = Source(
    title="AI Magazine, Broadcom: How Tomahawk Ultra Will Power AI Workloads", year=2025,
    url="https://aimagazine.com/news/broadcom-how-tomahawk-ultra-will-power-ai-workloads",
    note="'The Tomahawk Ultra, now shipping to customers'",
)
_TH_ULTRA_DATE = Source(
    title="All About Circuits (via DGT), Broadcom Aims to Reimagine the Ethernet Switch for HPC and AI", year=2025,
    url="https://www.dgttech.com/community/details/broadcom-aims-to-reimagine-the-ethernet-switch-for-hpc-and-ai.html",
    note="dated 18 July 2025: 'Tomahawk Ultra switch IC has entered production'",
)
_SUE_WHEELER = Source(
    title="B. Wheeler, Broadcom Adds New Architecture With Tomahawk Ultra (Wheeler's Network)", year=2025,
    url="https://www.wheelersnetwork.com/2025/07",
    note="Scale-Up Ethernet (SUE) framework announced end of April 2025 and contributed to the Open Compute "
         "Project; its latency budget allocates under 250 ns to the switch",
)
_TERABIT_ETHERNET = Source(
    title="Wikipedia, Terabit Ethernet", year=2025, url="https://en.wikipedia.org/wiki/Terabit_Ethernet",
    estimate=True,
    note="secondary: 802.3df (800GbE) approved 16 Feb 2024; 1.6T and 200G/lane work split into 802.3dj in "
         "Nov 2022; '802.3dj project indicates completion in July 2026'",
)
_P8023DJ_BALLOT = Source(
    title="IEEE 802.3 B400G reflector, P802.3dj working group recirculation ballot of draft 2.1", year=2025,
    url="https://www.ieee802.org/3/B400G/email/msg01625.html",
    note="first working-group recirculation ballot of D2.1, 14-29 August 2025: the draft was still being balloted")
_P8023DF = Source(
    title="IEEE P802.3df Task Force, IEEE P802.3df Standard Approved!", year=2024,
    url="https://www.ieee802.org/3/B400G/email/msg01072.html",
    note="800 Gb/s Ethernet (IEEE 802.3df) approved 16 Feb 2024, over 100 Gb/s lanes",
)
_RECHECK = Source(
    title="Interconnect Lab, status re-check date (no vendor or body has given a date)", year=2026,
    url="https://github.com/interconnect-lab/interconnect-lab/issues/37", estimate=True,
    note="where no source gives a date for an entry's next step, its expected_by is a date at which the "
         "maintainers must check the entry again, not a forecast")
_NVIDIA_NVLINK = Source(
    title="NVIDIA, NVLink and NVLink Switch", year=2024, url="https://www.nvidia.com/en-au/data-center/nvlink/",
    note="fifth-generation NVLink: 1.8 TB/s per GPU (both directions), 18 links; GB200 NVL72 joins 72 GPUs",
)


# Sources of the 2025-26 entries ----------------------------------------------------------

_MLENG_NETWORK_2026 = Source(
    title="S. Bekman, Machine Learning Engineering Open Book: Inter-node and intra-node networking hardware",
    year=2026,
    url=("https://github.com/stas00/ml-engineering/blob/744d01e18b79512572f64a6bbd8b5f4a725203a7/"
         "network/README.md"),
    note="secondary: a maintained compilation of vendor pages, read at commit 744d01e (2026-08-22)",
)
_NVLINK6 = _MLENG_NETWORK_2026.at(
    "NVLink table, 'Announced, availability not confirmed'",
    note="NVLink 6 (Rubin): 2 lanes of 25 GB/s per direction, 36 links, 1,800 GB/s per direction, 3,600 both; "
         "listed as announced, availability not confirmed, as of 2026-07-31")
_RUBIN_PRODUCTION = Source(
    title="NG Times, Nvidia sends Vera Rubin into full production (on NVIDIA's release of June 2026)", year=2026,
    url="https://ngtimes.org/2026/06/03/nvidia-sends-vera-rubin-into-full-production", estimate=True,
    note="secondary: NVIDIA 'says Vera Rubin is ramping into full production. It also says production shipments "
         "begin this fall' (autumn 2026); NVLink 6 switch, ConnectX-9, Spectrum-6 in the platform. No shipping "
         "confirmation from a primary source was found by 2026-12-07")
_MI355X_XGMI = _MLENG_NETWORK_2026.at(
    "Infinity Fabric / xGMI table",
    note="MI355X: 7 links, AMD's 'Peak Infinity Fabric Link Bandwidth' 153 GB/s read as both directions, so "
         "76.5 GB/s per direction per peer and 535.5 GB/s to all 7; AMD's MI355X page")
_MI355X_SHIPPING = Source(
    title="MLCommons Inference v6.0 results, AMD 87x MI355X system (closed division)", year=2026,
    url=("https://github.com/mlcommons/inference_results_v6.0/tree/main/closed/AMD/results/"
         "87xMI355X_22xEPYC_9575F"),
    note="'AMD Instinct MI355X 288GB HBM3e', availability 'available': shipping hardware in a published "
         "benchmark round")
_MI455X_SCALE_UP = _MLENG_NETWORK_2026.at(
    "Infinity Fabric / xGMI table, MI455X row",
    note="AMD publishes only 'Scale-up Bandwidth per GPU: 3.6 TB/s' for MI455X (read as both directions: "
         "1,800 GB/s per direction); no link count or per-link rate")
_HELIOS_ETHERNET = Source(
    title="Singulism (reporting Tom's Hardware, Computex 2026), AMD's Helios MI455X AI platform breaks cover, "
          "initial systems use UALink-over-Ethernet", year=2026,
    url="https://singulism.com/en/2026-06-04-amd-helios-mi455x-ualink-ethernet", estimate=True,
    note="secondary: 72 MI455X per Helios rack; 'initial systems use UALink-over-Ethernet', native UALink "
         "switches later; Pensando Vulcano 800G NICs. AMD had announced Helios on 12 June 2025 for 2026; no "
         "shipping confirmation was found by 2026-12-07")
_UALINK2 = Source(
    title="rbtfl, UALink publishes four specs, formalising the open answer to NVLink", year=2026,
    url="https://www.rbtfl.xyz/fr/n/ualink-2-0-specs-2026", estimate=True,
    note="secondary: four specifications ratified 7 April 2026 (Common 2.0 with in-network compute, 200G Data "
         "Link/Physical Layer, Manageability 1.0, Chiplet 1.0 on UCIe 3.0); still 200 Gb/s lanes and 1,024 "
         "accelerators per pod; 'first UALink hardware (AMD, Intel, Astera Labs)' due late 2026")
_UALINK2_REGISTER = Source(
    title="SetupAI (summary of The Register), UALink 2.0 Specs Out Before v1 Silicon", year=2026,
    url="https://setupai.cc/update/ualink-20-54905077", estimate=True,
    note="secondary: the 2.0 specifications arrived before any UALink 1.0 silicon; the research notes of "
         "2026-12-07 read The Register as 'silicon in labs in H2 2026, products in 2027'")
_ESUN_LAUNCH = Source(
    title="Converge Digest, OCP Launches ESUN for Ethernet for Scale-Up", year=2025,
    url="https://dev.convergedigest.com/ocp-launches-esun-for-ethernet-for-scale-up",
    note="secondary: OCP workstream Ethernet for Scale-Up Networking launched at the OCP Global Summit 2025 "
         "(13-16 Oct 2025): L2/L3 framing, lossless transfer, error handling; complements SUE-Transport")
_ESUN_1_0 = Source(
    title="Converge Digest, OCP releases ESUN 1.0 spec for Ethernet-based scale-up AI fabrics", year=2026,
    url="https://convergedigest.com/ocp-releases-esun-1-0-spec-for-ethernet-based-scale-up-ai-fabrics/",
    note="secondary: 'OCP ESUN - Network Operator Requirements - Base Specification 1.0', released four months "
         "after the launch (so February 2026); a 4-byte ESUN header replaces IP/UDP; domains beyond 1,000 GPUs "
         "targeted; 175 member companies. A requirements document: it fixes no port rate or domain size")
_TPU7X = _MLENG_NETWORK_2026.at(
    "intra-node bandwidth table, note 4 (Google ICI, TPU7x)",
    note="Google: 'Bidirectional inter-chip interconnect (ICI) bandwidth per chip' 1,200 GB/s, 'bi-directional "
         "bandwidth of 200 GBps per axis': 6 neighbours of a 3D torus at 100 GB/s per direction each; listed "
         "among the generally available parts as of 2026-07-31 (rentable on Google Cloud)")
_TPU7X_POD = Source(
    title="S. Bekman, Machine Learning Engineering Open Book: Accelerators (TPU7x entry)", year=2026,
    url=("https://github.com/stas00/ml-engineering/blob/744d01e18b79512572f64a6bbd8b5f4a725203a7/"
         "compute/accelerator/README.md"),
    note="secondary: 'TPU7x (Ironwood) ... in 4-chip VMs up to a 9216-chip pod. Rent-only on GCP'")
_TRAINIUM2 = _MLENG_NETWORK_2026.at(
    "NeuronLink v3",
    note="AWS: 'NeuronLink-v3 ... 1.28 TB/sec bandwidth per chip' (read as both directions: 640 GB/s per "
         "direction); Trainium2 Ultra: 64 chips, 16-chip nodes at 128 GB/s per link plus 64 GB/s links between "
         "nodes, in a 3D torus; available on AWS")


# Scale-up fabrics ---------------------------------------------------------------------------

#: How the accelerators of one domain are joined.
TOPOLOGIES = ("switched", "full mesh", "torus")


@dataclass(frozen=True, kw_only=True)
class ScaleUpFabric:
    """A fabric that joins accelerators into one load/store (memory-semantic) domain.

    Parameters
    ----------
    name : str
        Catalog name.
    owner : str
        Vendor or standards body.
    openness : {"proprietary", "licensed", "open standard"}
        Who may build it: one vendor; others under the vendor's licence; anyone.
    status : str
        One of ``STATUSES``.
    status_date : str
        When it reached that status (ISO, at the source's precision).
    as_of : str
        When the status was last checked against the sources (ISO).
    expected_by : str or None
        For a forward-looking status, when the next step is expected (ISO); see
        ``interconnect_lab.catalog._common``.
    topology : {"switched", "full mesh", "torus"}
        How the accelerators of one domain are joined.
    max_accelerators : int or None
        Largest domain the fabric joins at full bandwidth with one hop of switches
        (or one mesh, or one torus) [-]; None for a requirements document that fixes none.
    port_per_direction_bytes_per_s : float or None
        One port (link) of one accelerator, one direction [B/s]; None where only the
        accelerator's total is published.
    ports_per_accelerator : int or None
        Ports of one accelerator, where the product fixes it; None for a
        specification that leaves it to the chip designer.
    accelerator_per_direction_bytes_per_s : float or None
        All links of one accelerator together, one direction [B/s], where the vendor
        publishes that total rather than (or as well as) a port rate whose multiple
        it is not (Trainium2's links run at two rates; AMD gives MI455X's total only).
    lane_bit_per_s : float or None
        Data rate of one lane [bit/s].
    switch_latency_s : float or None
        Port-to-port latency of the switch where a source gives one [s].
    sources : tuple of Source
    note : str
        What else a reader must know.
    """

    name: str
    owner: str
    openness: str
    status: str
    status_date: str
    as_of: str
    expected_by: str | None = None
    topology: str
    max_accelerators: int | None
    port_per_direction_bytes_per_s: float | None
    ports_per_accelerator: int | None = None
    accelerator_per_direction_bytes_per_s: float | None = None
    lane_bit_per_s: float | None = None
    switch_latency_s: float | None = None
    sources: tuple
    note: str = ""

    def __post_init__(self):
        check_sources(f"ScaleUpFabric {self.name!r}", self.sources)
        check_choice("openness", self.openness, ("proprietary", "licensed", "open standard"))
        check_status(self, required=True)
        check_choice("topology", self.topology, TOPOLOGIES)
        if self.max_accelerators is not None:
            check_integer(f"{self.name}.max_accelerators", self.max_accelerators, minimum=2)
        if self.ports_per_accelerator is not None:
            check_integer(f"{self.name}.ports_per_accelerator", self.ports_per_accelerator, minimum=1)
        for field, unit in (("port_per_direction_bytes_per_s", "B/s"), ("accelerator_per_direction_bytes_per_s", "B/s"),
                            ("lane_bit_per_s", "bit/s"), ("switch_latency_s", "s")):
            if getattr(self, field) is not None:
                check_number(f"{self.name}.{field}", getattr(self, field), unit=unit, minimum=0,
                             min_inclusive=False)
        if self.status not in ("specification", "in development") and self.port_per_direction_bytes_per_s is None \
                and self.accelerator_per_direction_bytes_per_s is None:
            raise ValueError(f"{self.name}: a product needs port_per_direction_bytes_per_s or "
                             "accelerator_per_direction_bytes_per_s [B/s]; only a specification may leave both open")
        if self.topology == "full mesh" and self.ports_per_accelerator is not None \
                and self.max_accelerators is not None and self.ports_per_accelerator < self.max_accelerators - 1:
            raise ValueError(f"{self.name}: a full mesh of {self.max_accelerators} needs "
                             f"{self.max_accelerators - 1} ports per accelerator, not {self.ports_per_accelerator}")

    @property
    def year(self) -> int:
        """Year of ``status_date``."""
        return int(self.status_date[:4])

    @property
    def per_accelerator_per_direction_bytes_per_s(self) -> float | None:
        """All ports of one accelerator together, one direction [B/s]; None where the ports are not fixed."""
        if self.accelerator_per_direction_bytes_per_s is not None:
            return self.accelerator_per_direction_bytes_per_s
        if self.ports_per_accelerator is None or self.port_per_direction_bytes_per_s is None:
            return None
        return self.ports_per_accelerator * self.port_per_direction_bytes_per_s


def _scale_up_fabrics(links):
    """The table, built from the catalog's link entries where one exists (nothing typed twice)."""
    nvlink5 = links["NVLink 5"]
    nvlink6 = links["NVLink 6"]
    infinity = links["Infinity Fabric (MI300X)"]
    infinity355 = links["Infinity Fabric (MI355X)"]
    ultra = SWITCHES["Tomahawk Ultra"]
    th6_200g = breakout(SWITCHES["Tomahawk 6"], 8)
    entries = [
        ScaleUpFabric(
            name="NVLink 5 (GB200 NVL72)", owner="NVIDIA", openness="proprietary", status="shipping",
            status_date="2024", as_of=CHECKED, topology="switched", max_accelerators=72,
            port_per_direction_bytes_per_s=nvlink5.per_direction_bytes_per_s,
            ports_per_accelerator=nvlink5.links_per_gpu, lane_bit_per_s=8 * nvlink5.per_direction_bytes_per_s / nvlink5.lanes,
            sources=(_NVIDIA_NVLINK,) + nvlink5.sources,
            note="72 GPUs in one rack through 18 NVLink Switch chips; each link is 2 lanes of 212.5 Gb/s "
                 "signalling (200 Gb/s of data); GB300 NVL72 (Blackwell Ultra) uses the same NVLink 5"),
        ScaleUpFabric(
            name="NVLink 6 (Vera Rubin NVL72)", owner="NVIDIA", openness="proprietary", status="announced",
            status_date="2025-03-18", as_of=CHECKED, expected_by="2026-12", topology="switched",
            max_accelerators=72, port_per_direction_bytes_per_s=nvlink6.per_direction_bytes_per_s,
            ports_per_accelerator=nvlink6.links_per_gpu,
            lane_bit_per_s=8 * nvlink6.per_direction_bytes_per_s / nvlink6.lanes,
            sources=nvlink6.sources + (_RUBIN_PRODUCTION,),
            note="announced at GTC (18 March 2025) as 'Vera Rubin NVL144' (counting dies), renamed NVL72 "
                 "(counting packages) in January 2026; 3.6 TB/s per GPU both directions; NVIDIA gave autumn 2026 "
                 "for production shipments (expected by: December 2026)"),
        ScaleUpFabric(
            name="NVLink Fusion", owner="NVIDIA", openness="licensed", status="announced",
            status_date="2025-05-19", as_of=CHECKED, expected_by="2027-06", topology="switched",
            max_accelerators=72,
            port_per_direction_bytes_per_s=nvlink5.per_direction_bytes_per_s,
            ports_per_accelerator=nvlink5.links_per_gpu, lane_bit_per_s=8 * nvlink5.per_direction_bytes_per_s / nvlink5.lanes,
            sources=(_FUSION_PR, _FUSION_SEMIVOICE, _RECHECK),
            note="NVLink 5 as IP or a chiplet for other companies' CPUs and accelerators, in NVIDIA's "
                 "rack-scale systems; every configuration still includes NVIDIA silicon. NVIDIA gave no ship "
                 "date: the expected-by date is one to check the entry again"),
        ScaleUpFabric(
            name="Infinity Fabric (MI300X)", owner="AMD", openness="proprietary", status="shipping",
            status_date="2023-12", as_of=CHECKED, topology="full mesh", max_accelerators=8,
            port_per_direction_bytes_per_s=infinity.per_direction_bytes_per_s,
            ports_per_accelerator=infinity.links_per_gpu, lane_bit_per_s=32 * u.giga,
            sources=(_WHEELER_MI300,) + infinity.sources,
            note="no switch: 8 GPUs in a full mesh, one x16 link to each of the 7 others, so two GPUs share "
                 "one link's bandwidth and a smaller group reaches only part of a GPU's links"),
        ScaleUpFabric(
            name="Infinity Fabric (MI355X)", owner="AMD", openness="proprietary", status="shipping",
            status_date="2026", as_of=CHECKED, topology="full mesh", max_accelerators=8,
            port_per_direction_bytes_per_s=infinity355.per_direction_bytes_per_s,
            ports_per_accelerator=infinity355.links_per_gpu,
            sources=infinity355.sources + (_MI355X_SHIPPING,),
            note="the MI300X's full mesh of 8 with faster links (76.5 GB/s per direction to each peer); "
                 "'status since' is the earliest date a source shows it shipping (MLPerf v6.0, 2026)"),
        ScaleUpFabric(
            name="UALink over Ethernet (MI455X Helios)", owner="AMD", openness="open standard",
            status="announced", status_date="2025-06-12", as_of=CHECKED, expected_by="2026-12",
            topology="switched", max_accelerators=72, port_per_direction_bytes_per_s=None,
            accelerator_per_direction_bytes_per_s=u.per_direction(3.6 * u.TB_per_s),
            sources=(_MI455X_SCALE_UP, _HELIOS_ETHERNET),
            note="72 MI455X in one double-wide rack; the first systems carry UALink's protocol over Ethernet "
                 "switches, native UALink switches later; AMD gives only the total per GPU (3.6 TB/s, both "
                 "directions); AMD's stated window is 2026"),
        ScaleUpFabric(
            name="UALink 200G 1.0", owner="UALink Consortium", openness="open standard", status="specification",
            status_date="2025-04-08", as_of=CHECKED, expected_by="2027", topology="switched",
            max_accelerators=1024,
            port_per_direction_bytes_per_s=4 * 200 * u.Gbit_per_s, lane_bit_per_s=200 * u.giga,
            sources=(_UALINK_PR, _UALINK_TOMS, _UALINK_QA, _UALINK_DATE, _UALINK2_REGISTER),
            note="ports of x1, x2 or x4 lanes (x4 stored); how many ports an accelerator has is the chip "
                 "designer's choice; switch latency targets < 250 ns for a 100 Tb/s switch (a target, not "
                 "a measurement); superseded in its common layer by 2.0 (April 2026); no product shipped by "
                 "2026-12-07, products expected in 2027"),
        ScaleUpFabric(
            name="UALink 2.0", owner="UALink Consortium", openness="open standard", status="specification",
            status_date="2026-04-07", as_of=CHECKED, expected_by="2027", topology="switched",
            max_accelerators=1024,
            port_per_direction_bytes_per_s=4 * 200 * u.Gbit_per_s, lane_bit_per_s=200 * u.giga,
            sources=(_UALINK2, _UALINK2_REGISTER),
            note="Common Specification 2.0 adds in-network compute (collectives in the switch); the 200G data "
                 "link and physical layer become their own specification; Manageability 1.0 and Chiplet 1.0 "
                 "(UCIe 3.0). Same 200 Gb/s lanes and 1,024-accelerator pods as 1.0"),
        ScaleUpFabric(
            name="Scale-Up Ethernet (Tomahawk Ultra)", owner="Broadcom", openness="open standard",
            status="shipping", status_date="2025-07", as_of=CHECKED, topology="switched",
            max_accelerators=ultra.ports,
            port_per_direction_bytes_per_s=ultra.port_per_direction_bytes_per_s, lane_bit_per_s=100 * u.giga,
            switch_latency_s=ultra.latency_s,
            sources=(_TH_ULTRA, _TH_ULTRA_SHIPPING, _TH_ULTRA_DATE, _SUE_WHEELER),
            note="the SUE framework was contributed to OCP (April 2025); Tomahawk Ultra is a 51.2 Tb/s "
                 "switch (64 x 800G) with link-layer retry, credit-based flow control and in-switch "
                 "collectives; 250 ns is Broadcom's figure"),
        ScaleUpFabric(
            name="Scale-Up Ethernet (Tomahawk 6, 512 x 200G)", owner="Broadcom", openness="open standard",
            status="shipping", status_date="2025-06", as_of=CHECKED, topology="switched",
            max_accelerators=th6_200g.ports,
            port_per_direction_bytes_per_s=th6_200g.port_per_direction_bytes_per_s,
            lane_bit_per_s=8 * th6_200g.port_per_direction_bytes_per_s,
            sources=(_TH6_PR, _TH6_STH, _TH6_DATE),
            note="one 102.4 Tb/s switch run as 512 ports of 200G joins up to 512 accelerators, one port each"),
        ScaleUpFabric(
            name="ESUN (OCP Ethernet for Scale-Up Networking)", owner="Open Compute Project",
            openness="open standard", status="specification", status_date="2026-02", as_of=CHECKED,
            expected_by="2027-06", topology="switched", max_accelerators=None, port_per_direction_bytes_per_s=None,
            sources=(_ESUN_LAUNCH, _ESUN_1_0, _RECHECK),
            note="a workstream (AMD, Arista, Arm, Broadcom, Cisco, HPE, Marvell, Meta, Microsoft, NVIDIA, OpenAI, "
                 "Oracle) launched October 2025; its 1.0 base specification of operator requirements fixes "
                 "framing (a 4-byte header in place of IP/UDP), lossless transfer and error handling, not rates "
                 "or domain sizes; no product announced against it as such"),
        ScaleUpFabric(
            name="ICI (TPU7x Ironwood)", owner="Google", openness="proprietary", status="shipping",
            status_date="2026", as_of=CHECKED, topology="torus", max_accelerators=9216,
            port_per_direction_bytes_per_s=u.per_direction(200 * u.GB_per_s), ports_per_accelerator=6,
            sources=(_TPU7X, _TPU7X_POD),
            note="a 3D torus: each chip has a link to its two neighbours on each of three axes; pods of up to "
                 "9,216 chips joined by optical circuit switches; rented on Google Cloud only; 'status since' is "
                 "the earliest date a source read shows it available"),
        ScaleUpFabric(
            name="NeuronLink v3 (Trainium2 Ultra)", owner="AWS", openness="proprietary", status="shipping",
            status_date="2026", as_of=CHECKED, topology="torus", max_accelerators=64,
            port_per_direction_bytes_per_s=128 * u.GB_per_s, ports_per_accelerator=6,
            accelerator_per_direction_bytes_per_s=u.per_direction(1.28 * u.TB_per_s),
            sources=(_TRAINIUM2,),
            note="64 chips: four links of 128 GB/s per direction inside a 16-chip node and two of 64 GB/s "
                 "between nodes (640 GB/s in all, AWS's 1.28 TB/s both directions); rented on AWS only; "
                 "'status since' is the earliest date a source read shows it available"),
    ]
    return MappingProxyType({entry.name: entry for entry in entries})


SCALE_UP_FABRICS = _scale_up_fabrics(LINKS)


def scale_up_fabric(name):
    """The scale-up fabric called ``name``; an unknown name lists the valid ones.

    Parameters
    ----------
    name : str
        A key of ``catalog.SCALE_UP_FABRICS``.

    Examples
    --------
    >>> f = scale_up_fabric("UALink 200G 1.0")
    >>> f.status, f.max_accelerators, f.port_per_direction_bytes_per_s / u.GB_per_s
    ('specification', 1024, 100.0)
    """
    check_choice("scale-up fabric", name, SCALE_UP_FABRICS)
    return SCALE_UP_FABRICS[name]


# Roadmap --------------------------------------------------------------------------------------

@dataclass(frozen=True, kw_only=True)
class RoadmapItem:
    """A step of the Ethernet roadmap: a lane rate, a port standard or a switch chip.

    Parameters
    ----------
    name : str
    kind : {"SerDes", "Ethernet standard", "switch chip"}
    status : str
        One of ``STATUSES``.
    status_date : str
        When it reached that status (ISO).
    as_of : str
        When the status was last checked against the sources (ISO).
    expected_by : str or None
        For a forward-looking status, when the next step (products, approval) is
        expected, or a date to check the entry again (ISO).
    per_direction_bit_per_s : float
        The rate it is about: one lane, one port, or a whole switch chip, one direction [bit/s].
    lanes : int or None
        Lanes of that rate in one port (standards) or one chip (switches) [-].
    sources : tuple of Source
    note : str
    """

    name: str
    kind: str
    status: str
    status_date: str
    as_of: str
    expected_by: str | None = None
    per_direction_bit_per_s: float
    lanes: int | None = None
    sources: tuple
    note: str = ""

    def __post_init__(self):
        check_sources(f"RoadmapItem {self.name!r}", self.sources)
        check_choice("kind", self.kind, ("SerDes", "Ethernet standard", "switch chip"))
        check_status(self, required=True)
        check_number(f"{self.name}.per_direction_bit_per_s", self.per_direction_bit_per_s, unit="bit/s",
                     minimum=0, min_inclusive=False)
        if self.lanes is not None:
            check_integer(f"{self.name}.lanes", self.lanes, minimum=1)

    @property
    def year(self) -> int:
        """Year of ``status_date``."""
        return int(self.status_date[:4])

    @property
    def per_direction_bytes_per_s(self) -> float:
        """The same rate in bytes, one direction [B/s]."""
        return self.per_direction_bit_per_s / 8


ETHERNET_ROADMAP = MappingProxyType({item.name: item for item in (
    RoadmapItem(name="200G-per-lane SerDes", kind="SerDes", status="shipping", status_date="2025-06", as_of=CHECKED,
                per_direction_bit_per_s=200 * u.giga,
                sources=(_TH6_PR, _TH6_STH, _NVIDIA_NVLINK),
                note="212.5 Gb/s PAM4 signalling for 200 Gb/s of data: in NVLink 5 since 2024 and in "
                     "Tomahawk 6 (512 lanes) since June 2025"),
    RoadmapItem(name="800GbE (IEEE 802.3df)", kind="Ethernet standard", status="shipping", status_date="2024-02-16",
                as_of=CHECKED,
                per_direction_bit_per_s=8 * LINKS["Ethernet 800G"].per_direction_bytes_per_s, lanes=8,
                sources=(_P8023DF, _TERABIT_ETHERNET),
                note="approved 16 Feb 2024, 8 lanes of 100 Gb/s; ports shipped before the standard"),
    RoadmapItem(name="1.6TbE (IEEE 802.3dj)", kind="Ethernet standard", status="in development",
                status_date="2022-11", as_of=CHECKED, expected_by="2027-06",
                per_direction_bit_per_s=8 * SWITCHES["Tomahawk 6"].port_per_direction_bytes_per_s,
                lanes=8,
                sources=(_TERABIT_ETHERNET, _P8023DJ_BALLOT, _RECHECK),
                note="8 lanes of 200 Gb/s (also 200, 400 and 800GbE over 200 Gb/s lanes); split from 802.3df in "
                     "November 2022; its timeline gave completion in July 2026, which passed with no approval "
                     "found by 2026-12-07 (the draft was still in ballot): the expected-by date is one to check "
                     "it again, not the body's; 1.6T switch ports (Tomahawk 6) ship ahead of it"),
    RoadmapItem(name="Tomahawk 6 (102.4 Tb/s)", kind="switch chip", status="shipping", status_date="2025-06",
                as_of=CHECKED,
                per_direction_bit_per_s=8 * SWITCHES["Tomahawk 6"].capacity_per_direction_bytes_per_s, lanes=512,
                sources=(_TH6_PR, _TH6_STH, _TH6_DATE, _TH6_TWO_TIER),
                note="64 x 1.6TbE, 128 x 800GbE or 512 x 200GbE; power not published"),
    RoadmapItem(name="Tomahawk 6-Davisson (102.4 Tb/s, co-packaged optics)", kind="switch chip", status="shipping",
                status_date="2025-10", as_of=CHECKED,
                per_direction_bit_per_s=8 * SWITCHES["Tomahawk 6-Davisson"].capacity_per_direction_bytes_per_s,
                sources=SWITCHES["Tomahawk 6-Davisson"].sources,
                note="Broadcom's third generation of co-packaged optics: the optical engines in the switch "
                     "package; shipping since October 2025"),
    RoadmapItem(name="Tomahawk Ultra (51.2 Tb/s)", kind="switch chip", status="shipping", status_date="2025-07",
                as_of=CHECKED,
                per_direction_bit_per_s=8 * SWITCHES["Tomahawk Ultra"].capacity_per_direction_bytes_per_s, lanes=512,
                sources=(_TH_ULTRA, _TH_ULTRA_SHIPPING, _TH_ULTRA_DATE),
                note="512 x 100G lanes, for scale-up: 250 ns, 64-byte packets at line rate"),
    RoadmapItem(name="Spectrum-6 (102.4 Tb/s, co-packaged optics)", kind="switch chip", status="announced",
                status_date="2025-03-18", as_of=CHECKED, expected_by="2026-12",
                per_direction_bit_per_s=8 * SWITCHES["Spectrum-X Photonics SN6810"].capacity_per_direction_bytes_per_s,
                sources=SWITCHES["Spectrum-X Photonics SN6810"].sources,
                note="NVIDIA's co-packaged-optics Ethernet switch chip (SN6810: 128 x 800G; SN6800: four of them, "
                     "512 x 800G); NVIDIA gave the second half of 2026; a slip of two quarters or more has been "
                     "reported and is not confirmed"),
)})


def roadmap_item(name):
    """The roadmap item called ``name``; an unknown name lists the valid ones.

    Parameters
    ----------
    name : str
        A key of ``catalog.ETHERNET_ROADMAP``.

    Examples
    --------
    >>> roadmap_item("1.6TbE (IEEE 802.3dj)").status
    'in development'
    """
    check_choice("roadmap item", name, ETHERNET_ROADMAP)
    return ETHERNET_ROADMAP[name]
