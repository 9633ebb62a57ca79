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

MLENG_NETWORK = Source(
    title="S. Bekman, Machine Learning Engineering Open Book: Inter-node and intra-node networking hardware",
    year=2026,
    url="https://github.com/stas00/ml-engineering/blob/744d01e18b79512572f64a6bbd8b5f4a725203a7/network/README.md",
    note="secondary: a maintained compilation of vendor figures and measurements",
)

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
