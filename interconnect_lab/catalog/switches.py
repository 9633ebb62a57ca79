"""Switches: NVSwitch, InfiniBand and Ethernet switch chips, their radix and capacity."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from .. import units as u
from .._validation import check_integer
from .._lookup import resolve
from ..sources import (
    GLENN_NVLINK, MLENG_NETWORK, NVIDIA_NVLINK, NVIDIA_NVSWITCH3_BLOG,
    NVIDIA_SUPERPOD_GB200_NETWORK, Source,
)
from ._common import (
    check_member, check_positive_fields, check_sources, check_status, check_text, name_table,
)
from .links import LINKS


# Switch ---------------------------------------------------------------------------

@dataclass(frozen=True, kw_only=True)
class Switch:
    """A switch chip or box: NVSwitch, InfiniBand or Ethernet.

    Parameters
    ----------
    name : str
        Catalog name, e.g. ``"Quantum-2 QM9700"``.
    vendor : str
        Maker.
    family : str
        ``"NVSwitch"``, ``"InfiniBand"`` or ``"Ethernet"``.
    year : int
        Year of announcement or first shipment.
    ports : int
        Radix: ports at ``port_per_direction_bytes_per_s`` [-].
    port_per_direction_bytes_per_s : float
        Rate of one port in one direction [B/s].
    latency_s : float or None
        Port-to-port latency where a source gives one [s].
    power_w : float or None
        Typical or maximum power where sourced [W] (the source says which, and marks
        analyst estimates).
    in_network_reduction : bool
        Whether the switch can reduce data itself (SHARP, NVLink SHARP).
    status, status_date, as_of, expected_by : str or None
        Where it stands: one of ``catalog.STATUSES``, when it got there, when that was
        last checked, and for a forward-looking status when the next step is expected
        (see ``interconnect_lab.catalog._common``); None for an entry whose ``year``
        says enough.
    sources : tuple of Source
        Where the figures come from.

    Examples
    --------
    >>> from interconnect_lab import catalog, units as u
    >>> qm9700 = catalog.switch("Quantum-2 QM9700")
    >>> qm9700.capacity_both_directions_bytes_per_s / u.Tbit_per_s   # NVIDIA's "51.2 Tb/s"
    51.2
    >>> catalog.switch("Tomahawk 5").capacity_per_direction_bytes_per_s / u.Tbit_per_s  # Broadcom's
    51.2
    """

    name: str
    vendor: str
    family: str
    year: int
    ports: int
    port_per_direction_bytes_per_s: float
    latency_s: float | None = None
    power_w: float | None = None
    in_network_reduction: bool = False
    status: str | None = None
    status_date: str | None = None
    as_of: str | None = None
    expected_by: str | None = None
    sources: tuple[Source, ...]

    FAMILIES = ("NVSwitch", "InfiniBand", "Ethernet")

    def __post_init__(self):
        check_sources(self)
        check_status(self)
        check_text(self, "name", "vendor")
        check_member(self, "family", self.FAMILIES)
        check_integer("Switch.year", self.year, minimum=1990, maximum=2100)
        check_integer("Switch.ports", self.ports, minimum=2)
        check_positive_fields(self, [
            ("port_per_direction_bytes_per_s", "B/s"), ("latency_s", "s"), ("power_w", "W"),
        ], allow_none=("latency_s", "power_w"))
        if not isinstance(self.in_network_reduction, bool):
            raise TypeError(
                f"Switch.in_network_reduction must be True or False, got {self.in_network_reduction!r}"
            )

    @property
    def capacity_per_direction_bytes_per_s(self) -> float:
        """All ports together, one direction [B/s]."""
        return self.ports * self.port_per_direction_bytes_per_s

    @property
    def capacity_both_directions_bytes_per_s(self) -> float:
        """All ports together, both directions added, as some vendors quote capacity [B/s]."""
        return u.both_directions(self.capacity_per_direction_bytes_per_s)


# Switches ---------------------------------------------------------------------------

#: When the statuses of this module's entries were last checked against their sources.
_CHECKED = "2026-12-07"

_SPECTRUM_X_PHOTONICS = (
    Source(title="Particle News, Nvidia sets 2026 rollout for co-packaged optics in Quantum-X and Spectrum-X "
                 "switches (Hot Chips 2025)", year=2025,
           url="https://particle.news/story/nvidia-sets-2026-rollout-for-copackaged-optics-in-quantumx-and-spectrumx-switches",
           estimate=True,
           note="secondary: 'Spectrum-X Photonics is slated for the second half of 2026 using the Spectrum-6 ASIC, with "
                "the SN6810 at 102.4 Tb/s (128x800 Gb/s) and the SN6800 at 409.6 Tb/s (512x800 Gb/s)'"),
    Source(title="Notebookcheck, Nvidia unveils photonics switches to scale AI networks with millions of GPUs", year=2025,
           url="https://www.notebookcheck.net/Nvidia-unveils-photonics-switches-to-scale-AI-networks-with-millions-of-GPUs.1096181.0.html",
           estimate=True,
           note="secondary: announced at GTC, March 2025; '128 ports at 800 Gb/s ... Larger setups can go up to 512 ports "
                "at 800 Gb/s'"),
)

SWITCHES = name_table([
    Switch(
        # DGX-2 (16 x V100): 6 chips per baseboard; each switch has 2 ports unused.
        name="NVSwitch 1", vendor="NVIDIA", family="NVSwitch", year=2018,
        ports=18, port_per_direction_bytes_per_s=LINKS["NVLink 2"].per_direction_bytes_per_s,
        power_w=100 * u.W,
        sources=(Source(title="WikiChip, NVSwitch - Nvidia", year=2018,
                        url="https://en.wikichip.org/w/index.php?title=nvidia%2Fnvswitch&printable=yes",
                        note="secondary: 18 NVLink 2 ports of 50 GB/s (both directions), 900 GB/s "
                             "total, 2 billion transistors, TSMC 12 nm, 100 W; announced GTC 2018"),),
    ),
    Switch(
        # 6 chips per HGX/DGX A100 board: 8 GPUs x 12 links = 96 GPU links, 16 per chip.
        name="NVSwitch 2", vendor="NVIDIA", family="NVSwitch", year=2020,
        ports=36, port_per_direction_bytes_per_s=LINKS["NVLink 3"].per_direction_bytes_per_s,
        sources=(Source(title="NVIDIA A100 whitepaper notes (J. Zhang)", year=2021,
                        url="https://jingchaozhang.github.io/A100-white-paper/",
                        estimate=True,
                        note=("6 NVSwitches per 8-GPU board, 4.8 TB/s both directions in total. The "
                              "radix of 36 ports per chip is widely reported but no primary source "
                              "was found: treat it as an estimate")),),
    ),
    Switch(
        name="NVSwitch 3", vendor="NVIDIA", family="NVSwitch", year=2022,
        ports=64, port_per_direction_bytes_per_s=LINKS["NVLink 4"].per_direction_bytes_per_s,
        in_network_reduction=True,
        sources=(NVIDIA_NVSWITCH3_BLOG, GLENN_NVLINK,
                 Source(title="NVIDIA NVLink and NVSwitch (H100 generation page, mirrored)", year=2022,
                        url="http://revitdc.org/index-368.html",
                        note="'each NVSwitch has 64 NVLink ports equipped with engines for NVIDIA "
                             "SHARP for in-network reductions and multicast acceleration'")),
    ),
    Switch(
        # Blackwell generation: two of these chips make one NVLink Switch tray.
        name="NVLink Switch chip", vendor="NVIDIA", family="NVSwitch", year=2024,
        ports=72, port_per_direction_bytes_per_s=LINKS["NVLink 5"].per_direction_bytes_per_s,
        in_network_reduction=True,
        sources=(NVIDIA_NVLINK.at("NVIDIA NVLink Switch",
                                  note="144 NVLink ports per tray of 2 chips, 72 per chip; SHARP engines"),
                 NVIDIA_SUPERPOD_GB200_NETWORK, GLENN_NVLINK),
    ),
    Switch(
        name="NVLink Switch tray", vendor="NVIDIA", family="NVSwitch", year=2024,
        ports=144, port_per_direction_bytes_per_s=LINKS["NVLink 5"].per_direction_bytes_per_s,
        in_network_reduction=True,
        sources=(NVIDIA_NVLINK.at("NVIDIA NVLink Switch",
                                  note="144 NVLink ports, non-blocking switching capacity of 14.4 TB/s "
                                       "(both directions: 144 x 100 GB/s)"),
                 NVIDIA_SUPERPOD_GB200_NETWORK),
    ),
    Switch(
        name="Quantum QM8700", vendor="NVIDIA (Mellanox)", family="InfiniBand", year=2018,
        ports=40, port_per_direction_bytes_per_s=LINKS["InfiniBand HDR"].per_direction_bytes_per_s,
        latency_s=130 * u.ns, in_network_reduction=True,
        sources=(Source(title="NVIDIA, QM87xx 1U HDR 200Gb/s InfiniBand Switch Systems User Manual",
                        year=2018,
                        url="https://docs.nvidia.com/networking/display/QM87XX/Document+Revision+History",
                        note="initial release Nov 2018"),
                 Source(title="IT4Innovations documentation (CESNET/eInfra-docs), Karolina: Network",
                        year=2021,
                        url=("https://github.com/CESNET/eInfra-docs/blob/065afc086d242746d9455e82554248e4b3c95ed2/"
                             "docs.it4i/karolina/network.md"),
                        note=("quotes the Mellanox QM8790 brief: 40 x HDR 200 Gb/s ports, 16 Tb/s, "
                              "'sub-130ns port-to-port latency' (stored as 130 ns, a ceiling), "
                              "SHARP collective offloads")),
                 Source(title="TOP500, Mellanox Unveils HDR InfiniBand Lineup", year=2016,
                        url="https://www.top500.org/news/mellanox-unveils-hdr-infiniband-lineup",
                        note="Quantum: 40 ports of 200 Gb/s or 80 of 100 Gb/s")),
    ),
    Switch(
        # Port-to-port latency: published figures conflict (<150 ns vs ~330 ns); left unset.
        name="Quantum-2 QM9700", vendor="NVIDIA", family="InfiniBand", year=2021,
        ports=64, port_per_direction_bytes_per_s=LINKS["InfiniBand NDR"].per_direction_bytes_per_s,
        in_network_reduction=True,
        sources=(Source(title="ComputerBase: Nvidia Quantum-2, ein 400-Gbit/s-Switch mit 57 Milliarden Transistoren",
                        year=2021,
                        url="https://computerbase.de/2021-11/nvidia-quantum-2-ein-400-gbit-s-switch-mit-57-milliarden-transistoren",
                        note="64 x 400 Gb/s or 128 x 200 Gb/s; SHARPv3"),
                 Source(title="NVIDIA, QM97XX 1U NDR 400Gbps InfiniBand Switch Systems User Manual: Interfaces",
                        year=2023,
                        url="https://docs.nvidia.com/networking/display/QM97X0PUB/Interfaces",
                        note="32 OSFP cages, each 2 logical InfiniBand ports")),
    ),
    Switch(
        name="Quantum-X800 Q3400", vendor="NVIDIA", family="InfiniBand", year=2024,
        ports=144, port_per_direction_bytes_per_s=LINKS["InfiniBand XDR"].per_direction_bytes_per_s,
        in_network_reduction=True,
        # Shipping: the user manual's first release (Sep 2024); in DGX B300 and GB300 NVL72 fabrics by 2026.
        status="shipping", status_date="2024-09", as_of=_CHECKED,
        sources=(Source(title="NVIDIA, Q3200-RA/Q3400-RA XDR 800Gb/s InfiniBand Switch Systems User Manual",
                        year=2024,
                        url="https://docs.nvidia.com/networking/display/XDRSwitchesHWUM/Document+Revision+History",
                        note="initial release Sep 2024"),
                 Source(title="Quantum Computing News, What is NVIDIA Quantum-X800", year=2025,
                        url="https://quantum-computing.news/what-is-nvidia-quantum-x800-how-it-works/",
                        note="secondary: up to 144 ports of 800 Gb/s, 200 Gb/s-per-lane SerDes, SHARP v4"),
                 MLENG_NETWORK.at("NVIDIA Quantum InfiniBand", note="800 Gb/s per port, SHARP v4"),
                 MLENG_NETWORK.at("NVIDIA Quantum-X800 InfiniBand",
                                  note="'As of 2026-07-28, Quantum-X800 is used by Blackwell Ultra systems such as "
                                       "DGX B300 and GB300 NVL72'")),
    ),
    Switch(
        # Broadcom publishes no power; 500 W is an analyst's estimate (another gives 450 W typical).
        name="Tomahawk 5", vendor="Broadcom", family="Ethernet", year=2022,
        ports=64, port_per_direction_bytes_per_s=LINKS["Ethernet 800G"].per_direction_bytes_per_s,
        power_w=500 * u.W,
        sources=(Source(title="Broadcom, Broadcom Ships Tomahawk 5 (press release, via Signal Integrity Journal)",
                        year=2022,
                        url=("https://www.signalintegrityjournal.com/articles/2766-broadcom-ships-tomahawk-5-"
                             "industrys-highest-bandwidth-switch-chip-to-accelerate-ai-ml-workloads"),
                        note="51.2 Tb/s (one direction: 64 x 800GbE), 512 x 100G PAM4 SerDes, 5 nm, Aug 2022"),
                 Source(title="TechInsights (J. Byrne), Tomahawk 5 Switches At 51.2Tbps", year=2022,
                        url="https://www-prod.techinsights.com/ko/node/49000",
                        estimate=True, note="'We estimate power consumption ... reaching 500W'")),
    ),
    Switch(
        name="Spectrum-4 SN5600", vendor="NVIDIA", family="Ethernet", year=2022,
        ports=64, port_per_direction_bytes_per_s=LINKS["Ethernet 800G"].per_direction_bytes_per_s,
        status="shipping", status_date="2023", as_of=_CHECKED,
        sources=(Source(title="NVIDIA, SN5000 Series Switch User Manual: Data Interfaces", year=2023,
                        url="https://docs.nvidia.com/networking/display/sn5000/data+interfaces",
                        note="SN5600: 64 ports of 800GbE (100 Gb/s per lane)"),
                 Source(title="Converge Digest, NVIDIA unveils 51.2T Spectrum-4 switch", year=2022,
                        url="https://convergedigest.blogspot.com/2022/03/nvidia-unveils-512t-spectrum-4-switch.html",
                        note="secondary: announced March 2022, 51.2 Tb/s, 4 nm, 100G PAM4 SerDes"),
                 MLENG_NETWORK.at("Spectrum-X", note="SN5600: 64 x 800GbE OSFP, 51.2 Tb/s, 2U")),
    ),
    Switch(
        # 102.4 Tb/s one direction; also run as 128 x 800G or 512 x 200G (catalog.breakout).
        # Broadcom publishes no power or latency for it.
        name="Tomahawk 6", vendor="Broadcom", family="Ethernet", year=2025,
        ports=64, port_per_direction_bytes_per_s=1600 * u.Gbit_per_s,
        status="shipping", status_date="2025-06-03", as_of=_CHECKED,
        sources=(Source(title="Electronics Journal (Broadcom press release), Broadcom Ships Tomahawk 6: World's "
                              "First 102.4 Tbps Switch", year=2025,
                        url=("https://electronics-journal.com/news/96096-broadcom-ships-tomahawk-6-world%E2%80%99s-"
                             "first-102-4-tbps-switch"),
                        note="'now shipping the Tomahawk 6 switch series ... 102.4 Terabits/sec'; 100G or 200G "
                             "SerDes; co-packaged optics option"),
                 Source(title="ServeTheHome, Broadcom Tomahawk 6 Launched for 1.6TbE Generation", year=2025,
                        url="https://www.servethehome.com/broadcom-tomahawk-6-launched-for-1-6tbe-generation/",
                        note="up to 64 ports of 1.6TbE; 512 x 200G PAM4 or 1,024 x 100G PAM4 SerDes")),
    ),
    Switch(
        # A scale-up switch: 512 x 100G lanes run as 64 x 800G; 250 ns is Broadcom's figure.
        name="Tomahawk Ultra", vendor="Broadcom", family="Ethernet", year=2025,
        ports=64, port_per_direction_bytes_per_s=LINKS["Ethernet 800G"].per_direction_bytes_per_s,
        latency_s=250 * u.ns, in_network_reduction=True,
        status="shipping", status_date="2025-07", as_of=_CHECKED,
        sources=(Source(title="Techzine, Broadcom launches Tomahawk Ultra with 250ns network latency", year=2025,
                        url=("https://www.techzine.eu/news/infrastructure/133074/broadcom-launches-tomahawk-"
                             "ultra-with-250ns-network-latency"),
                        note="51.2 Tb/s at 250 ns; link-layer retry, credit-based flow control; collectives "
                             "(all-reduce, broadcast, all-gather) in the switch"),
                 Source(title="ServeTheHome, Broadcom Tomahawk Ultra at Hot Chips 2025", year=2025,
                        url="https://www.servethehome.com/broadcom-tomahawk-ultra-at-hot-chips-2025",
                        note="512 x 100G-PAM4; 51.2T; about 77 billion 64-byte packets per second")),
    ),
    Switch(
        # Tomahawk 6 with its optical engines in the package; the same 102.4 Tb/s chip, stored as 64 x 1.6T
        # like Tomahawk 6 (other splits with catalog.breakout).
        name="Tomahawk 6-Davisson", vendor="Broadcom", family="Ethernet", year=2025,
        ports=64, port_per_direction_bytes_per_s=1600 * u.Gbit_per_s,
        status="shipping", status_date="2025-10", as_of=_CHECKED,
        sources=(Source(title="StorageNewsletter (Broadcom press release), Broadcom shipping Tomahawk 6 - Davisson "
                              "102.4 Tb/s Ethernet switch with co-packaged optics", year=2025,
                        url=("https://www.storagenewsletter.com/2025/10/10/broadcom-shipping-tomahawk-6-davisson-"
                             "102-4-tb-s-ethernet-switch-with-co-packaged-optics"),
                        note="'Broadcom Inc. announced that it is shipping Tomahawk 6 - Davisson (TH6-Davisson), the "
                             "company's 3th Gen Co-Packaged Optics (CPO) Ethernet switch'; reprint dated 10 Oct 2025"),),
    ),
    Switch(
        # Co-packaged optics; NVIDIA gave the second half of 2026 (Hot Chips, Aug 2025).
        name="Spectrum-X Photonics SN6810", vendor="NVIDIA", family="Ethernet", year=2026,
        ports=128, port_per_direction_bytes_per_s=LINKS["Ethernet 800G"].per_direction_bytes_per_s,
        status="announced", status_date="2025-03-18", as_of=_CHECKED, expected_by="2026-12",
        sources=_SPECTRUM_X_PHOTONICS,
    ),
    Switch(
        name="Spectrum-X Photonics SN6800", vendor="NVIDIA", family="Ethernet", year=2026,
        ports=512, port_per_direction_bytes_per_s=LINKS["Ethernet 800G"].per_direction_bytes_per_s,
        status="announced", status_date="2025-03-18", as_of=_CHECKED, expected_by="2026-12",
        sources=_SPECTRUM_X_PHOTONICS,
    ),
])


def switch(name: str) -> Switch:
    """The catalog switch called ``name``; an unknown name lists the valid ones.

    Parameters
    ----------
    name : str
        A key of ``catalog.SWITCHES`` (an unknown name lists the valid ones);
        a Switch itself is returned as it is.

    Examples
    --------
    >>> switch("Quantum-X800 Q3400").ports
    144
    """
    return resolve("switch", name, Switch, SWITCHES)


def breakout(switch_or_name, ways):
    """A switch run with each port split ``ways`` ways: ``ways`` times the ports at 1/``ways`` the rate.

    Switch chips drive their ports from SerDes lanes, so a 64-port 800 Gb/s chip can
    serve 128 ports of 400 Gb/s (Tomahawk 5: "64 x 800GbE / 128 x 400GbE / 256 x
    200GbE"). Capacity, latency, power and sources stay those of the catalog entry;
    the name says the mode, e.g. ``"Tomahawk 5 (128 x 400G)"``.

    Parameters
    ----------
    switch_or_name : Switch or str
        A catalog switch or its name.
    ways : int
        Ports each physical port is split into, >= 1 (1 returns the switch as it is).

    Returns
    -------
    Switch

    Raises
    ------
    ValueError
        If ``ways`` is not a whole number >= 1 or the name is unknown.

    Examples
    --------
    >>> split = breakout("Tomahawk 5", 2)
    >>> split.name, split.ports, split.port_per_direction_bytes_per_s / u.Gbit_per_s
    ('Tomahawk 5 (128 x 400G)', 128, 400.0)
    >>> split.capacity_per_direction_bytes_per_s == switch("Tomahawk 5").capacity_per_direction_bytes_per_s
    True
    """
    entry = resolve("switch_or_name", switch_or_name, Switch, SWITCHES, lookup=switch)
    ways = check_integer("ways", ways, minimum=1)
    if ways == 1:
        return entry
    rate = entry.port_per_direction_bytes_per_s / ways
    return dataclasses.replace(entry, name=f"{entry.name} ({entry.ports * ways} x {rate / u.Gbit_per_s:g}G)",
                               ports=entry.ports * ways, port_per_direction_bytes_per_s=rate)
