"""Tables for the book: rendered as an HTML table in the book, as aligned text everywhere else.

A :class:`Table` displayed in a notebook becomes a real table in the rendered
book and in JupyterLab (its ``text/html`` form, styled by the theme, light or
dark) and stays readable, and checkable by nbval, as plain text (its
``text/plain`` form). Its ``text/markdown`` form serves other front ends.
"""

from __future__ import annotations

import html
from dataclasses import dataclass

__all__ = ["Table"]


@dataclass(frozen=True)
class Table:
    """A small table of already formatted cells.

    Parameters
    ----------
    header : sequence of str
        Column titles (with units in brackets).
    rows : sequence of sequence of str
        One sequence of cell texts per row, as many as there are columns.
    align : str, optional
        One character per column, ``"l"`` or ``"r"``; numbers right-aligned by
        default (every column but the first).

    Examples
    --------
    >>> print(repr(Table(["link", "rate [GB/s]"], [["NVLink 4", "450"], ["PCIe Gen5 x16", "63"]])))
    link           rate [GB/s]
    -------------  -----------
    NVLink 4               450
    PCIe Gen5 x16           63
    """

    header: tuple
    rows: tuple
    align: str | None = None

    def __post_init__(self):
        header = tuple(str(h) for h in self.header)
        rows = tuple(tuple(str(cell) for cell in row) for row in self.rows)
        for index, row in enumerate(rows):
            if len(row) != len(header):
                raise ValueError(f"row {index} has {len(row)} cells but the header has {len(header)} columns")
        align = self.align if self.align is not None else "l" + "r" * (len(header) - 1)
        if len(align) != len(header) or set(align) - {"l", "r"}:
            raise ValueError(f"align = {align!r} must give 'l' or 'r' for each of the {len(header)} columns")
        object.__setattr__(self, "header", header)
        object.__setattr__(self, "rows", rows)
        object.__setattr__(self, "align", align)

    def _repr_html_(self) -> str:
        def cells(tag, row):
            return "".join(f'<{tag} style="text-align: {"left" if a == "l" else "right"}">{html.escape(c)}</{tag}>'
                           for c, a in zip(row, self.align))
        body = "".join(f"<tr>{cells('td', row)}</tr>" for row in self.rows)
        return (f'<table class="table"><thead><tr>{cells("th", self.header)}</tr></thead>'
                f"<tbody>{body}</tbody></table>")

    def _repr_markdown_(self) -> str:
        def line(cells):
            return "| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |"
        rule = "|" + "|".join(":---" if a == "l" else "---:" for a in self.align) + "|"
        return "\n".join([line(self.header), rule] + [line(row) for row in self.rows])

    def __repr__(self) -> str:
        widths = [max(len(cell) for cell in column) for column in zip(self.header, *self.rows)]

        def line(cells):
            return "  ".join(c.ljust(w) if a == "l" else c.rjust(w)
                             for c, w, a in zip(cells, widths, self.align)).rstrip()
        return "\n".join([line(self.header), "  ".join("-" * w for w in widths)]
                         + [line(row) for row in self.rows])
