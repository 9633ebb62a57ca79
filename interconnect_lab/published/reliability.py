"""Failures at scale: stragglers, interruptions, restarts and recovery, as published."""

from __future__ import annotations

from dataclasses import dataclass

from .. import units as u
from ..sources import LLAMA3, MEGASCALE, Source

__all__ = ["StragglerObservation", "MEGASCALE_STRAGGLERS", "InterruptionCause", "InterruptionLog",
           "LLAMA3_INTERRUPTIONS", "RestartReport", "OPT", "OPT175B_RESTARTS", "RecoveryObservation",
           "FT_HSDP", "FT_HSDP_RECOVERY"]


@dataclass(frozen=True, kw_only=True)
class StragglerObservation:
    """Slow machines found in a large training job.

    Attributes
    ----------
    slow_machine_fraction : float
        Share of machines markedly slower than the rest [-].
    slowdown : float
        How much slower they ran the same computation [-] (0.1 is 10 %).
    mfu_gain_from_removal : float
        MFU gained by taking them out, in absolute terms [-].
    source : Source
    """

    slow_machine_fraction: float
    slowdown: float
    mfu_gain_from_removal: float
    source: Source


#: MegaScale's computational stragglers: about 0.5 % of machines about 10 % slower; removing them
#: raised MFU by about 0.7 % (all "about" in the paper).
MEGASCALE_STRAGGLERS = StragglerObservation(
    slow_machine_fraction=0.005, slowdown=0.10, mfu_gain_from_removal=0.007,
    source=MEGASCALE.at("§5-6 (computational stragglers)",
                        note="approximate values as the paper states them"))


@dataclass(frozen=True, kw_only=True)
class InterruptionCause:
    """One row of a table of root causes of job interruptions.

    Attributes
    ----------
    component : str
        What failed, as the source names it.
    category : str
        The source's category (``"GPU"``, ``"Network"``, ``"Host"``...).
    interruptions : int
        Interruptions attributed to it [-].
    printed_percent : float
        Its share as printed [%] (may not equal the count's share: see the log's note).
    """

    component: str
    category: str
    interruptions: int
    printed_percent: float


@dataclass(frozen=True, kw_only=True)
class InterruptionLog:
    """Job interruptions of one long training run.

    Attributes
    ----------
    days : float
        Length of the period [day].
    interruptions : int
        Job interruptions in the period [-].
    unexpected : int
        Of which unexpected (not planned maintenance) [-].
    network_switch_and_cable : int
        Of which attributed to network switches and cables [-].
    effective_training_time_fraction : float
        Share of time spent training, at least [-].
    source : Source
    gpus : int or None
        GPUs in the job [-].
    causes : tuple of InterruptionCause
        Root causes of the unexpected interruptions, as tabulated.
    """

    days: float
    interruptions: int
    unexpected: int
    network_switch_and_cable: int
    effective_training_time_fraction: float
    source: Source
    gpus: int | None = None
    causes: tuple = ()

    @property
    def mean_time_between_unexpected_s(self) -> float:
        """The period over the unexpected interruptions: the job's mean time between failures [s]."""
        return self.days * u.day / self.unexpected

    def interruptions_by_category(self) -> dict:
        """Unexpected interruptions summed per category of ``causes``, largest first [-]."""
        totals = {}
        for cause in self.causes:
            totals[cause.category] = totals.get(cause.category, 0) + cause.interruptions
        return dict(sorted(totals.items(), key=lambda item: -item[1]))


#: Llama 3 405B pre-training: 466 interruptions in 54 days, 419 unexpected, 35 from network
#: switches and cables, more than 90 % effective training time.
LLAMA3_INTERRUPTIONS = InterruptionLog(
    days=54, interruptions=466, unexpected=419, network_switch_and_cable=35,
    effective_training_time_fraction=0.90, gpus=16_384,
    source=LLAMA3.at("§3.3.4, Table 5", note=(
        "16,384 H100 GPUs (§3.3.1, Table 4); Table 5's printed 30.1 % for 148 faulty-GPU interruptions is not "
        "148/419 = 35.3 %; its other shares match their counts, and the text's 58.7 % for GPU issues "
        "is the sum of the printed GPU shares")),
    causes=tuple(
        InterruptionCause(component=component, category=category, interruptions=count, printed_percent=percent)
        for component, category, count, percent in (
            ("Faulty GPU", "GPU", 148, 30.1),
            ("GPU HBM3 Memory", "GPU", 72, 17.2),
            ("Software Bug", "Dependency", 54, 12.9),
            ("Network Switch/Cable", "Network", 35, 8.4),
            ("Host Maintenance", "Unplanned Maintenance", 32, 7.6),
            ("GPU SRAM Memory", "GPU", 19, 4.5),
            ("GPU System Processor", "GPU", 17, 4.1),
            ("NIC", "Host", 7, 1.7),
            ("NCCL Watchdog Timeouts", "Unknown", 7, 1.7),
            ("Silent Data Corruption", "GPU", 6, 1.4),
            ("GPU Thermal Interface + Sensor", "GPU", 6, 1.4),
            ("SSD", "Host", 3, 0.7),
            ("Power Supply", "Host", 3, 0.7),
            ("Server Chassis", "Host", 2, 0.5),
            ("IO Expansion Board", "Host", 2, 0.5),
            ("Dependency", "Dependency", 2, 0.5),
            ("CPU", "Host", 2, 0.5),
            ("System Memory", "Host", 2, 0.5),
        )))


@dataclass(frozen=True, kw_only=True)
class RestartReport:
    """Restarts of one long training run, as a paper reports them (lower bounds).

    Attributes
    ----------
    system : str
        The run.
    gpus : int
        GPUs in the job [-].
    days : float
        Length of the period [day] (approximate where the source gives months).
    restarts_at_least : int
        Restarts attributed to hardware failures, at least [-].
    hosts_cycled_more_than : int
        Hosts taken out and replaced, more than [-].
    source : Source
    """

    system: str
    gpus: int
    days: float
    restarts_at_least: int
    hosts_cycled_more_than: int
    source: Source


OPT = Source(
    title="S. Zhang et al., OPT: Open Pre-trained Transformer Language Models",
    year=2022, url="https://arxiv.org/abs/2205.01068",
)

#: OPT-175B: on 992 80 GB A100 GPUs, hardware failures caused at least 35 manual restarts and the
#: cycling of over 100 hosts over about two months.
OPT175B_RESTARTS = RestartReport(
    system="OPT-175B", gpus=992, days=60, restarts_at_least=35, hosts_cycled_more_than=100,
    source=OPT.at("§2.4-2.5", note="992 80GB A100 GPUs; 'over the course of 2 months', stored as 60 days"))


@dataclass(frozen=True, kw_only=True)
class RecoveryObservation:
    """Effective training time of a large job, with the stall each failure cost.

    Attributes
    ----------
    system : str
        How the job recovered.
    gpus : int
        GPUs in the job (order of magnitude where the source says so) [-].
    recovery_s : float
        Training stalled per failure [s].
    effective_training_fraction : float
        Share of time spent training [-].
    source : Source
    """

    system: str
    gpus: int
    recovery_s: float
    effective_training_fraction: float
    source: Source


FT_HSDP = Source(
    title="O. Salpekar et al., Training LLMs with Fault Tolerant HSDP on 100,000 GPUs",
    year=2026, url="https://arxiv.org/abs/2602.00277",
    locator="abstract", note="'O(100K) GPUs', stored as 100,000",
)

#: Fully synchronous training against fault-tolerant HSDP on O(100K) GPUs: stall per failure 10 min
#: against 3 min, effective training time 44 % against 80 %.
FT_HSDP_RECOVERY: tuple[RecoveryObservation, ...] = (
    RecoveryObservation(system="fully synchronous", gpus=100_000, recovery_s=10 * u.minute,
                        effective_training_fraction=0.44, source=FT_HSDP),
    RecoveryObservation(system="FT-HSDP", gpus=100_000, recovery_s=3 * u.minute,
                        effective_training_fraction=0.80, source=FT_HSDP),
)
