"""Sphinx extension for the PDF only: code cells folded as in the HTML, panels printed as they open.

``tools/build_pdf.py`` loads it; the HTML book does not. Four changes to the
LaTeX output, all made after reading, so the doctrees stay the HTML's:

- **Code cells.** The HTML folds a cell's source behind a toggle when it is
  tagged ``hide-input``, the whole cell when tagged ``hide-cell``, and its
  output when tagged ``hide-output``; LaTeX has no toggle and would print
  them in full. Here a folded part is dropped. The source of a cell that
  displays an interactive panel goes too (it is one constructor call, of use
  only in a notebook). Untagged cells are the code the text means to show
  (worked solutions, step-by-step examples) and stay.
- **Panels.** A panel's output is an ipywidgets view, which LaTeX cannot show;
  MyST-NB would fall back to its ``repr`` (``VBox(children=(...``). Instead
  the PDF prints what the panel shows when it opens, read from the widget
  state stored in the notebook: its settings, its readout and its figure.
- **References.** The page that holds only the bibliography loses its heading:
  LaTeX prints all citations in one list at the end of the book.
- **Long tables** (more than 30 rows, which LaTeX sets as a longtable whose
  columns never wrap) get column widths from their contents.
- **Links in tables** stay links without a footnote. The PDF prints each web
  link's address as a footnote (``latex_show_urls``); a table's footnotes are
  all set after it, and a table of sourced runs (each name a link) piles up
  more than a page of them, which LaTeX cannot break. The sources are in the
  bibliography.
"""

from __future__ import annotations

import base64
import hashlib
import html
import json
import math
import re
from html.parser import HTMLParser
from pathlib import Path

from docutils import nodes
from sphinx import addnodes
from sphinx.transforms.post_transforms import SphinxPostTransform

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
#: What each MyST-NB ``hide_mode`` folds in the HTML: the cell's parts to drop in print.
FOLDED = {"all": {"cell_code_source", "cell_code_output"},
          "input": {"cell_code_source"},
          "input+output": {"cell_code_source", "cell_code_output"},
          "output": {"cell_code_output"}}
PANEL_TITLE = "Interactive panel"
PANEL_NOTE = "Printed as it opens; move its controls in the online book or in the notebook."
PANEL_CLASS = "il-printed-panel"


def is_cell(node) -> bool:
    return isinstance(node, nodes.container) and node.get("nb_element") == "cell_code"


def part(cell, element):
    return next((child for child in cell.children if isinstance(child, nodes.Element)
                 and child.get("nb_element") == element), None)


def shows_a_panel(cell) -> bool:
    return any(WIDGET_VIEW == getattr(node, "get", lambda *_: None)("mime_type")
               for node in cell.findall(nodes.Element))


def fold_code_cells(document) -> None:
    """Remove from ``document`` the code-cell parts the HTML folds, and the source of panel cells."""
    for cell in list(document.findall(is_cell)):
        drop = set(FOLDED.get(cell.get("hide_mode"), ()))
        if shows_a_panel(cell):
            drop.add("cell_code_source")
        for element in drop:
            found = part(cell, element)
            if found is not None:
                cell.remove(found)
        if not cell.children:
            cell.parent.remove(cell)


class FoldCodeCells(SphinxPostTransform):
    """Drop, in print, what the HTML folds behind a toggle."""

    default_priority = 2  # before MyST-NB picks a mime type (4), while panel views are still marked
    formats = ("latex",)

    def run(self, **kwargs):
        fold_code_cells(self.document)


class _Readout(HTMLParser):
    """A panel readout's HTML as paragraphs of text and strong runs."""

    BLOCK = {"br", "p", "div", "li", "tr", "ul", "ol", "table"}

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.paragraphs: list[list[tuple[str, bool]]] = [[]]
        self.bold = 0

    def handle_starttag(self, tag, attrs):
        if tag in self.BLOCK:
            self.paragraphs.append([])
        elif tag in ("b", "strong"):
            self.bold += 1

    def handle_endtag(self, tag):
        if tag in ("b", "strong"):
            self.bold = max(0, self.bold - 1)
        elif tag in self.BLOCK:
            self.paragraphs.append([])

    def handle_data(self, data):
        if data:
            self.paragraphs[-1].append((data, self.bold > 0))


def readout_paragraphs(markup: str) -> list[nodes.paragraph]:
    """Paragraph nodes for a panel's HTML readout (bold kept, other markup dropped)."""
    parser = _Readout()
    parser.feed(markup)
    parser.close()
    paragraphs = []
    for runs in parser.paragraphs:
        text = "".join(run for run, _ in runs)
        if not text.strip():
            continue
        paragraph = nodes.paragraph()
        for run, bold in runs:
            run = re.sub(r"[ \t\r\n]+", " ", run)  # a no-break space stays one
            paragraph += nodes.strong(run, run) if bold else nodes.Text(run)
        paragraphs.append(paragraph)
    return paragraphs


def setting(model: dict) -> tuple[str, str] | None:
    """A control's label and its value as the panel opens, or None for a control with no value to print."""
    state = model.get("state", {})
    label = html.unescape(re.sub(r"<[^>]+>", "", state.get("description") or "")).strip()
    name = model.get("model_name", "")
    if "options" in state or "_options_labels" in state:
        labels, index = state.get("_options_labels") or [], state.get("index")
        if not isinstance(index, int) or not 0 <= index < len(labels):
            return None
        value = labels[index]
    elif name == "CheckboxModel":
        value = "on" if state.get("value") else "off"
    elif name in ("FloatSliderModel", "IntSliderModel", "BoundedFloatTextModel", "BoundedIntTextModel"):
        value = f"{state.get('value'):g}"
    else:
        return None
    return (label, str(value)) if label else None


def panel_parts(state: dict, model_id: str):
    """The settings, readouts and PNG figures of the panel whose root view is ``model_id``."""
    settings, readouts, images = [], [], []

    def visit(identifier):
        model = state.get(identifier.removeprefix("IPY_MODEL_"))
        if model is None:
            return
        model_state = model.get("state", {})
        name = model.get("model_name")
        if name == "HTMLModel":
            readouts.append(model_state.get("value") or "")
        elif name == "OutputModel":
            for output in model_state.get("outputs", []):
                png = output.get("data", {}).get("image/png")
                if png:
                    images.append(png if isinstance(png, str) else "".join(png))
        elif (found := setting(model)) is not None:
            settings.append(found)
        for child in model_state.get("children", []):
            visit(child)

    visit(model_id)
    return settings, readouts, images


class PrintPanels(SphinxPostTransform):
    """Replace each panel's widget view by its settings, readout and figure as it opens."""

    default_priority = 3  # before MyST-NB picks a mime type (4) and falls back to the repr
    formats = ("latex",)

    def run(self, **kwargs):
        bundles = [node for node in self.document.findall(nodes.container)
                   if node.get("nb_element") == "mime_bundle"
                   and any(child.get("mime_type") == WIDGET_VIEW for child in node.children)]
        if not bundles:
            return
        states = {}
        for bundle in bundles:
            docname = self.docname_of(bundle)
            if docname not in states:
                states[docname] = self.widget_state(docname)
            view = next(child for child in bundle.children if child.get("mime_type") == WIDGET_VIEW)
            match = re.search(r'"model_id":\s*"([0-9a-f]+)"', view.astext())
            printed = self.panel(states[docname], match.group(1)) if match else None
            if printed is None:
                bundle.parent.remove(bundle)
            else:
                bundle.replace_self(printed)

    def docname_of(self, node) -> str:
        """The document ``node`` was read from: LaTeX assembles the whole book into one tree."""
        while node is not None:
            if isinstance(node, addnodes.start_of_file):
                return node["docname"]
            source = node.source or node.get("source")
            if source and (docname := self.env.path2doc(source)):
                return docname
            node = node.parent
        return self.env.docname

    def widget_state(self, docname) -> dict:
        """A notebook's stored widget state, as MyST-NB keeps it for the page's script."""
        metadata = getattr(self.env, "nb_metadata", {}).get(docname, {})
        script = metadata.get("js_files", {}).get("ipywidgets_state")
        if not script:
            return {}
        body = script[1].get("body", "").replace("<\\/script>", "</script>")
        return json.loads(body).get("state", {})

    def panel(self, state, model_id):
        settings, readouts, images = panel_parts(state, model_id)
        if not (readouts or images):
            return None
        box = nodes.admonition(classes=[PANEL_CLASS])
        box += nodes.title(PANEL_TITLE, PANEL_TITLE)
        note = nodes.paragraph()
        note += nodes.emphasis(PANEL_NOTE, PANEL_NOTE)
        box += note
        if settings:
            line = nodes.paragraph()
            for index, (label, value) in enumerate(settings):
                line += nodes.Text(("; " if index else "Settings: ") + f"{label} ")
                line += nodes.strong(value, value)
            line += nodes.Text(".")
            box += line
        for markup in readouts:
            box.extend(readout_paragraphs(markup))
        folder = Path(self.app.outdir) / "panels"
        folder.mkdir(parents=True, exist_ok=True)
        for png in images:
            data = base64.b64decode(png)
            name = f"panel-{hashlib.sha1(data).hexdigest()[:16]}.png"
            (folder / name).write_bytes(data)
            box += nodes.image(uri=f"panels/{name}", candidates={"image/png": f"panels/{name}"})
        return box


#: Sphinx sets a table of more than this many rows as a longtable, whose columns, unless
#: given widths, take the natural width of their longest cell and never wrap.
LONGTABLE_ROWS = 30
#: Lower-case letters of body text in a table row (about 450 pt at 10 pt), and their
#: worth of space each column spends on its separation and rules.
LINE_CHARACTERS, COLUMN_PADDING = 88, 3
#: Lines of table text that fill most of a page (about 680 pt of text block at 12 pt a line,
#: less the caption and rules). A shorter table set whole (tabulary) cannot break across pages:
#: one taller than this is set as a longtable.
PAGE_TABLE_LINES = 45


def text_width(text: str) -> float:
    """A text's width in lower-case letters: capitals, digits' neighbours % and / are wider."""
    return sum(1.5 if char.isupper() or char in "%@&" else 1.0 for char in text)


def words(text: str) -> list[str]:
    """The pieces a line may not break inside: split at spaces, and after a hyphen or slash."""
    return [piece for piece in re.split(r"\s+|(?<=[-/])", text) if piece]


def column_widths(columns: list[list[str]], *, line: int = LINE_CHARACTERS) -> list[int]:
    """Widths, in lower-case letters, for columns of cell texts sharing a line of ``line``.

    Each column gets at least its longest word (it cannot be narrower without sticking out)
    and at most its longest cell; space beyond the minimum goes to the columns in
    proportion to what they lack.
    """
    least = [math.ceil(max((text_width(word) for text in column for word in words(text)), default=1))
             + COLUMN_PADDING for column in columns]
    most = [max(math.ceil(max((text_width(text) for text in column), default=1)) + COLUMN_PADDING, low)
            for column, low in zip(columns, least)]
    if sum(most) <= line:
        return most
    spare, wanted = line - sum(least), sum(m - low for m, low in zip(most, least))
    if spare <= 0 or wanted == 0:
        return least
    return [low + round(spare * (m - low) / wanted) for m, low in zip(most, least)]


def table_lines(columns: list[list[str]], widths: list[int]) -> int:
    """Lines the rows of ``columns`` take when each column wraps at its width (in letters)."""
    lines = 0
    for row in zip(*columns):
        lines += max(math.ceil(text_width(text) / max(width - COLUMN_PADDING, 1)) or 1
                     for text, width in zip(row, widths))
    return lines


def fit_long_tables(document) -> None:
    """Give long tables without widths column widths from their contents, so that cells wrap.

    Long means more than :data:`LONGTABLE_ROWS` rows (Sphinx then sets a longtable) or,
    wrapped, more than :data:`PAGE_TABLE_LINES` lines: such a table is set as a longtable
    too, so that it breaks across pages instead of running off the bottom of one.
    """
    for table in list(document.findall(nodes.table)):
        if "colwidths-given" in table["classes"]:
            continue
        tgroup = next(iter(table.findall(nodes.tgroup)), None)
        if tgroup is None:
            continue
        rows = list(tgroup.findall(nodes.row))
        colspecs = [child for child in tgroup.children if isinstance(child, nodes.colspec)]
        entries = [[entry for entry in row.children if isinstance(entry, nodes.entry)] for row in rows]
        if any(len(row) != len(colspecs) or any(e.get("morecols") or e.get("morerows") for e in row)
               for row in entries):
            continue  # merged cells: leave the table to Sphinx
        columns = [[row[index].astext() for row in entries] for index in range(len(colspecs))]
        widths = column_widths(columns)
        tall = table_lines(columns, widths) > PAGE_TABLE_LINES
        if len(rows) <= LONGTABLE_ROWS and "longtable" not in table["classes"] and not tall:
            continue
        for colspec, width in zip(colspecs, widths):
            colspec["colwidth"] = width
        table["classes"] = ([c for c in table["classes"] if c != "colwidths-auto"] + ["colwidths-given"]
                            + (["longtable"] if tall and "longtable" not in table["classes"] else []))


class FitLongTables(SphinxPostTransform):
    """Long tables' columns wrap within the page instead of running off it."""

    default_priority = 5
    formats = ("latex",)

    def run(self, **kwargs):
        fit_long_tables(self.document)


#: Attribute that holds a table link's address while Sphinx makes footnotes of the others.
TABLE_URI = "il_table_uri"


def hide_table_links(document) -> None:
    """Take the web addresses of links inside tables out of ``refuri`` (kept in :data:`TABLE_URI`)."""
    for table in document.findall(nodes.table):
        for reference in table.findall(nodes.reference):
            uri = reference.get("refuri", "")
            if uri.startswith(("http:", "https:", "ftp:", "mailto:")):
                reference[TABLE_URI] = uri
                reference["refuri"] = ""


def restore_table_links(document) -> None:
    """Put back what :func:`hide_table_links` took: the links work, without footnotes."""
    for reference in document.findall(nodes.reference):
        if TABLE_URI in reference.attributes:
            reference["refuri"] = reference.attributes.pop(TABLE_URI)


class HideTableLinks(SphinxPostTransform):
    """Before Sphinx's footnotes for web links (``ShowUrlsTransform``, priority 400)."""

    default_priority = 399
    formats = ("latex",)

    def run(self, **kwargs):
        hide_table_links(self.document)


class RestoreTableLinks(SphinxPostTransform):
    """After Sphinx's footnotes for web links."""

    default_priority = 401
    formats = ("latex",)

    def run(self, **kwargs):
        restore_table_links(self.document)


class DropEmptyReferencesChapter(SphinxPostTransform):
    """Drop the heading of a page that holds only the bibliography.

    LaTeX moves every citation to one list at the end of the book, so the
    references page would print as an empty chapter; the list itself is
    titled "References" (see ``tools/build_pdf.py``).
    """

    default_priority = 5
    formats = ("latex",)
    ONLY = {"bibliography", "citation", "target"}

    def run(self, **kwargs):
        for section in list(self.document.findall(nodes.section)):
            body = [child for child in section.children if not isinstance(child, nodes.title)]
            if body and all(child.tagname in self.ONLY for child in body) \
                    and any(child.tagname != "target" for child in body):
                section.replace_self(body)


def setup(app):
    app.add_post_transform(DropEmptyReferencesChapter)
    app.add_post_transform(FitLongTables)
    app.add_post_transform(FoldCodeCells)
    app.add_post_transform(PrintPanels)
    app.add_post_transform(HideTableLinks)
    app.add_post_transform(RestoreTableLinks)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
