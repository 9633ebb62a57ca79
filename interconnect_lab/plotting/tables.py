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
    groups : sequence of str, optional
        One group name per row: where it changes, the table shows the new name on
        a row of its own (rows of one group must be consecutive).
    links : sequence of str, optional
        One address per row (or ``""``): the cell of ``link_column`` links to it
        in the HTML and Markdown forms.
    link_column : int
        The column whose cells carry ``links`` (the first by default).

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
    groups: tuple | None = None
    links: tuple | None = None
    link_column: int = 0

    def __post_init__(self):
        header = tuple(str(h) for h in self.header)
        rows = tuple(tuple(str(cell) for cell in row) for row in self.rows)
        for index, row in enumerate(rows):
            if len(row) != len(header):
                raise ValueError(f"row {index} has {len(row)} cells but the header has {len(header)} columns")
        align = self.align if self.align is not None else "l" + "r" * (len(header) - 1)
        if len(align) != len(header) or set(align) - {"l", "r"}:
            raise ValueError(f"align = {align!r} must give 'l' or 'r' for each of the {len(header)} columns")
        for name in ("groups", "links"):
            values = getattr(self, name)
            if values is None:
                continue
            values = tuple(str(v) for v in values)
            if len(values) != len(rows):
                raise ValueError(f"{name} has {len(values)} entries but the table has {len(rows)} rows")
            object.__setattr__(self, name, values)
        if self.groups is not None:
            starts = [g for i, g in enumerate(self.groups) if i == 0 or g != self.groups[i - 1]]
            if len(starts) != len(set(starts)):
                raise ValueError("groups: the rows of one group must be consecutive")
        if not -len(header) <= self.link_column < len(header):
            raise ValueError(f"link_column = {self.link_column} is not a column of the {len(header)}")
        object.__setattr__(self, "header", header)
        object.__setattr__(self, "rows", rows)
        object.__setattr__(self, "align", align)

    def _sections(self):
        """(group name or None where a group starts, row index, row) for every row."""
        for index, row in enumerate(self.rows):
            group = None
            if self.groups is not None and (index == 0 or self.groups[index] != self.groups[index - 1]):
                group = self.groups[index]
            yield group, index, row

    def _link(self, index, column):
        if self.links is None or column != self.link_column % len(self.header):
            return ""
        return self.links[index]

    def _repr_html_(self) -> str:
        def cell(tag, text, align, url=""):
            content = html.escape(text)
            if url:
                content = f'<a href="{html.escape(url, quote=True)}">{content}</a>'
            return f'<{tag} style="text-align: {"left" if align == "l" else "right"}">{content}</{tag}>'

        body = []
        for group, index, row in self._sections():
            if group is not None:
                body.append(f'<tr class="il-table-group"><th colspan="{len(self.header)}" style="text-align: left">'
                            f"{html.escape(group)}</th></tr>")
            body.append("<tr>" + "".join(cell("td", c, a, self._link(index, k))
                                         for k, (c, a) in enumerate(zip(row, self.align))) + "</tr>")
        head = "".join(cell("th", c, a) for c, a in zip(self.header, self.align))
        return f'<table class="table"><thead><tr>{head}</tr></thead><tbody>{"".join(body)}</tbody></table>'

    def _repr_markdown_(self) -> str:
        def escape(text):
            return text.replace("|", "\\|")

        def line(cells):
            return "| " + " | ".join(cells) + " |"
        rule = "|" + "|".join(":---" if a == "l" else "---:" for a in self.align) + "|"
        lines = [line(escape(c) for c in self.header), rule]
        for group, index, row in self._sections():
            if group is not None:
                lines.append(line([f"**{escape(group)}**"] + [""] * (len(self.header) - 1)))
            cells = [escape(c) for c in row]
            cells = [f"[{c}]({self._link(index, k)})" if self._link(index, k) else c for k, c in enumerate(cells)]
            lines.append(line(cells))
        return "\n".join(lines)

    def __repr__(self) -> str:
        widths = [max(len(cell) for cell in column) for column in zip(self.header, *self.rows)]

        def line(cells):
            return "  ".join(c.ljust(w) if a == "l" else c.rjust(w)
                             for c, w, a in zip(cells, widths, self.align)).rstrip()
        lines = [line(self.header), "  ".join("-" * w for w in widths)]
        for group, _, row in self._sections():
            if group is not None:
                lines.append(f"[{group}]")
            lines.append(line(row))
        return "\n".join(lines)
