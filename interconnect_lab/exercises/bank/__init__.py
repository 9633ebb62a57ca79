"""The checked exercises and quizzes, one module per chapter, with answers computed by the library.

Each entry's ``answer`` is a function that calls the library, so a change of a
catalog entry or a model moves the answer; ``python -m interconnect_lab.exercises``
then regenerates the hashed store (a test fails until it is regenerated).

Adding a checked exercise is one entry in its chapter's ``ENTRIES`` (``bank/ch11.py``), e.g.::

    numeric("ch11.ex1", "Title", "Question ...", lambda: energy.energy_per_bit_j(...),
            unit="pJ/bit", scale=units.pJ, hint="Where to look."),

and a chapter's practice page lists its keys (``keys("ch11")``). Prompts name
their inputs (catalog entries, sizes, counts, assumptions) and never the answer.
"""

from __future__ import annotations

from . import ch1, ch2, ch3, ch4, ch5, ch6, ch7, ch8, ch9, ch10, ch11, ch12, ch13, ch14
from ._common import choice, numeric

__all__ = ["EXERCISES", "CHAPTERS", "keys", "numeric", "choice"]

#: Chapter number -> the chapter's notebook (book/<name>.ipynb) and its practice page.
CHAPTERS = {
    1: "01_gpu_paradox", 2: "02_nvlink_nvswitch", 3: "03_pcie_cxl_memory", 4: "04_rdma_gpudirect",
    5: "05_infiniband_fat_trees", 6: "06_ultra_ethernet", 7: "07_collectives_nccl",
    8: "08_training_at_scale", 9: "09_stragglers_tail", 10: "10_power_optics_future",
    11: "11_moe_all_to_all", 12: "12_inference_traffic", 13: "13_topologies", 14: "14_scale_up_fabrics",
}

#: Every checked exercise and quiz question, by key.
EXERCISES = {spec.key: spec for chapter in (ch1, ch2, ch3, ch4, ch5, ch6, ch7, ch8, ch9, ch10, ch11, ch12, ch13, ch14)
             for spec in chapter.ENTRIES}


def keys(chapter: str, kind: str | None = None) -> list[str]:
    """The keys of one chapter (``"ch7"``), optionally only exercises (``"ex"``) or quiz (``"q"``).

    Parameters
    ----------
    chapter : str
        The chapter, ``"ch7"``.
    kind : str, optional
        ``"ex"`` for exercises or ``"q"`` for quiz questions; both by default.
    """
    prefix = f"{chapter}." + (kind or "")
    return [key for key in EXERCISES if key.startswith(prefix)]
