"""The PDF tool's checks, configuration and Sphinx extensions, without TeX.

The PDF itself is built and checked by ``tools/build_pdf.py`` (the "PDF (LaTeX)"
step of ``tools/check.py``); these tests pin what decides its verdict on small
fixtures: the overfull-box and missing-glyph parsers, the guide's page range,
the table of contents and configuration written for the PDF, and what the
LaTeX-only extensions print.
"""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from docutils import nodes
from docutils.utils import new_document
from docutils.frontend import get_default_settings
from docutils.parsers.rst import Parser

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
sys.path.insert(0, str(ROOT / "tools" / "sphinxext"))

import build_pdf  # noqa: E402
import latex_print  # noqa: E402
import library_guide  # noqa: E402

LOG = r"""
Underfull \hbox (badness 10000) in paragraph at lines 120--121
[]\TU/FreeSerif(0)/m/n/10 text

Overfull \hbox (3.5pt too wide) in paragraph at lines 200--203
[]\TU/FreeSerif(0)/m/n/10 slightly too long

Overfull \hbox (27.38597pt too wide) in paragraph at lines 20909--20909
\TU/FreeSerif(0)/m/n/10 (\TU/FreeMono(0)/m/n/10 HierarchicalAllReducePanel\TU/FreeSerif(0)/m/n/10 );
[]

Overfull \hbox (41.0pt too wide) in alignment at lines 300--320
[]

Overfull \hbox (22.1pt too wide) detected at line 410
[]

Overfull \vbox (23.8728pt too high) detected at line 7897
 []

Overfull \vbox (4.2pt too high) has occurred while \output is active
[]

Missing character: There is no ⌈ (U+2308) in font FreeSerif/I:mapping=tex-text;!
Missing character: There is no ⌈ (U+2308) in font FreeSerif/I:mapping=tex-text;!
Missing character: There is no ⌉ (U+2309) in font FreeMono/B:mapping=tex-text;!
"""

AUX = r"""
\newlabel{book/intro::doc}{{}{i}{Interconnect Lab}{chapter*.1}{}}
\newlabel{book/01_gpu_paradox::doc}{{1}{5}{The GPU paradox}{chapter.1}{}}
\newlabel{book/appendices/measuring::doc}{{18}{253}{Measuring your own cluster}{chapter.18}{}}
\newlabel{book/appendices/library_guide::doc}{{19}{263}{A guide to the \sphinxstyleliteralintitle {\sphinxupquote {interconnect\_lab}} library}{chapter.19}{}}
\newlabel{book/appendices/library_guide:units}{{19.1}{263}{units}{section.19.1}{}}
"""

TOC = r"""
\contentsline {part}{VII\hspace {1em}Appendices}{239}{part.7}%
\contentsline {chapter}{\numberline {18}Measuring your own cluster}{253}{chapter.18}%
\contentsline {section}{\numberline {18.1}1. What the GPU computes}{253}{section.18.1}%
\contentsline {chapter}{\numberline {19}A guide to the \sphinxstyleliteralintitle {\sphinxupquote {interconnect\_lab}} library}{263}{chapter.19}%
\contentsline {section}{\numberline {19.1}\sphinxcode {\sphinxupquote {units}}}{263}{section.19.1}%
\contentsline {section}{\numberline {19.25}Figures and panels}{270}{section.19.25}%
\contentsline {chapter}{References}{271}{chapter*.374}%
\contentsline {chapter}{Index}{287}{section*.415}%
"""


# --- the verdict --------------------------------------------------------------------------------

def test_a_complete_pdf_passes():
    assert build_pdf.problems("Chapter 1. See Fig. 1.2 and [Smith 2020].", 400) == []


@pytest.mark.parametrize("text", ["as shown in Fig. ??", "see Section ?? for", "as argued in [?]"])
def test_unresolved_references_fail(text):
    found = build_pdf.problems(f"Some text, {text}, more text.", 400)
    assert len(found) == 1 and "unresolved" in found[0] and text.split()[-1].strip(",") in found[0]


def test_a_short_pdf_fails():
    assert "pages" in build_pdf.problems("text", 12)[0]


def test_a_pdf_longer_than_an_instructor_would_print_fails():
    found = build_pdf.problems("text", build_pdf.MAX_PAGES + 1)
    assert len(found) == 1 and f"at most {build_pdf.MAX_PAGES}" in found[0]
    assert build_pdf.problems("text", build_pdf.MAX_PAGES) == []


@pytest.mark.parametrize("guide, passes", [((263, 270), True), ((263, 302), True), ((263, 303), False)])
def test_the_guide_may_take_at_most_a_tenth_of_the_pages(guide, passes):
    # 40 of 400 pages is 10.0%; 41 is too many.
    found = build_pdf.problems("text", 400, guide=guide)
    assert (found == []) == passes
    if not passes:
        assert "263-303" in found[0] and "10.2%" in found[0]


def test_overfull_boxes_and_missing_glyphs_are_problems():
    boxes = build_pdf.overfull_boxes(LOG, min_pt=20)
    tex = [f"line {n}" for n in range(1, 25000)]
    found = build_pdf.problems("text", 400, overfull=boxes, missing=build_pdf.missing_characters(LOG),
                               tex_lines=tex)
    assert len(found) == 3 + 2
    assert found[0].startswith("overfull \\hbox 27.4 pt too wide at .tex lines 20909--20909")
    assert "HierarchicalAllReducePanel" in found[0] and "source: line 20909" in found[0]
    assert found[-2:] == ["missing character: ⌈ (U+2308) in FreeSerif/I",
                          "missing character: ⌉ (U+2309) in FreeMono/B"]


# --- reading the LaTeX run's files ----------------------------------------------------------------

def test_overfull_boxes_are_read_with_width_lines_and_content():
    boxes = build_pdf.overfull_boxes(LOG)
    assert [(box.width_pt, box.lines) for box in boxes] == [
        (3.5, "200--203"), (27.38597, "20909--20909"), (41.0, "300--320"), (22.1, "410")]
    assert "slightly too long" in boxes[0].content
    # vertical boxes and underfull lines are not what the check is about
    assert all("vbox" not in box.content and "badness" not in box.content for box in boxes)


def test_overfull_pages_are_read_apart_from_lines():
    tall = build_pdf.overfull_boxes(LOG, kind="vbox")
    assert [(box.width_pt, box.lines, box.kind) for box in tall] == [(23.8728, "7897", "vbox"), (4.2, "", "vbox")]
    assert tall[0].describe(["x"] * 8000).startswith("overfull \\vbox 23.9 pt too high at .tex line 7897")
    assert "at a page break" in tall[1].describe(["x"] * 8000)
    assert build_pdf.overfull_boxes(LOG, kind="vbox", min_pt=build_pdf.MAX_OVERFULL_VBOX_PT) == tall[:1]


def test_only_boxes_wider_than_the_limit_are_kept():
    assert [box.lines for box in build_pdf.overfull_boxes(LOG, min_pt=20)] == ["20909--20909", "300--320", "410"]
    assert build_pdf.overfull_boxes("no boxes here\n") == []


def test_a_box_is_described_with_its_source_line():
    box = build_pdf.overfull_boxes(LOG, min_pt=25)[0]
    tex = ["x"] * 20908 + [r"chapter 10: power and optics (\sphinxcode{\sphinxupquote{PowerBillPanel}})"]
    assert box.describe(tex).endswith(r"source: chapter 10: power and optics (\sphinxcode{\sphinxupquote{PowerBillPanel}})")
    assert "source" not in box.describe(None)


def test_each_missing_glyph_is_reported_once_per_font():
    assert build_pdf.missing_characters(LOG) == ["⌈ (U+2308) in FreeSerif/I", "⌉ (U+2309) in FreeMono/B"]


def test_the_guides_pages_run_to_the_next_chapter():
    assert build_pdf.document_page(AUX, build_pdf.GUIDE_PAGE) == 263
    assert build_pdf.page_range(AUX, TOC, build_pdf.GUIDE_PAGE, last_page=300) == (263, 270)
    # sections inside the guide do not end it; a chapter does
    assert build_pdf.page_range(AUX, TOC, "book/appendices/measuring", last_page=300) == (253, 262)


def test_a_guide_that_ends_the_book_runs_to_the_last_page():
    toc = "\n".join(line for line in TOC.splitlines() if "References" not in line and "Index" not in line)
    assert build_pdf.page_range(AUX, toc, build_pdf.GUIDE_PAGE, last_page=300) == (263, 300)


def test_front_matter_pages_and_absent_documents_give_no_range():
    assert build_pdf.page_range(AUX, TOC, "book/intro", last_page=300) is None
    assert build_pdf.page_range(AUX, TOC, "book/nowhere", last_page=300) is None


# --- what the PDF build is told -----------------------------------------------------------------

def test_config_for_the_pdf_changes_only_what_it_must(tmp_path):
    path = build_pdf.pdf_config(ROOT / "_config.yml", tmp_path)
    original, pdf = yaml.safe_load((ROOT / "_config.yml").read_text()), yaml.safe_load(path.read_text())
    assert pdf["latex"]["latex_engine"] == "xelatex"
    assert pdf["execute"]["execute_notebooks"] == "off"
    assert pdf["bibtex_bibfiles"] == original["bibtex_bibfiles"]
    assert pdf["parse"] == original["parse"]
    extensions = pdf["sphinx"]["local_extensions"]
    assert set(original["sphinx"]["local_extensions"]) | set(build_pdf.PDF_EXTENSIONS) == set(extensions)
    for name, folder in extensions.items():
        assert Path(folder).is_absolute() and (Path(folder) / f"{name}.py").is_file()
    config = pdf["sphinx"]["config"]
    shim = Path(config["latex_additional_files"][0])
    assert shim.name == "bbm.sty" and "\\mathbbm" in shim.read_text()
    assert "newunicodechar{⌈}" in config["latex_elements"]["preamble"]
    assert "verbatimforcewraps=true" in config["latex_elements"]["sphinxsetup"]
    # the HTML settings are untouched
    assert config["html_theme"] == original["sphinx"]["config"]["html_theme"]


def test_the_pdf_toc_prints_the_guide_instead_of_the_api_appendix(tmp_path):
    toc = yaml.safe_load(build_pdf.pdf_toc(ROOT / "_toc.yml", tmp_path).read_text())
    original = yaml.safe_load((ROOT / "_toc.yml").read_text())
    files = [c["file"] for part in toc["parts"] for c in part["chapters"]]
    original_files = [c["file"] for part in original["parts"] for c in part["chapters"]]
    assert build_pdf.API_PAGE in original_files and build_pdf.API_PAGE not in files
    assert files == [build_pdf.GUIDE_PAGE if f == build_pdf.API_PAGE else f for f in original_files]
    assert (ROOT / f"{build_pdf.GUIDE_PAGE}.md").is_file()


def test_the_pdf_toc_leaves_part_numbering_to_latex(tmp_path):
    toc = yaml.safe_load(build_pdf.pdf_toc(ROOT / "_toc.yml", tmp_path).read_text())
    original = yaml.safe_load((ROOT / "_toc.yml").read_text())
    for before, after in zip(original["parts"], toc["parts"]):
        assert after["caption"] == build_pdf.PART_NUMERAL.sub("", before["caption"])
        assert not build_pdf.PART_NUMERAL.match(after["caption"])
    assert build_pdf.PART_NUMERAL.sub("", "IV. What the data does") == "What the data does"
    assert build_pdf.PART_NUMERAL.sub("", "Appendices") == "Appendices"


@pytest.mark.skipif(not shutil.which("pdftotext"), reason="needs poppler-utils")
def test_check_only_reports_a_missing_pdf(tmp_path):
    result = subprocess.run([sys.executable, str(ROOT / "tools" / "build_pdf.py"), "--check-only",
                             str(tmp_path / "none.pdf")], capture_output=True, text=True)
    assert result.returncode == 1 and "no PDF" in result.stdout


# --- the guide to the library ---------------------------------------------------------------------

def test_the_guide_has_a_section_for_every_public_module():
    import interconnect_lab

    text = library_guide.guide_markdown()
    modules = library_guide.public_modules()
    assert len(modules) >= 10
    for module in modules:
        assert f"## `{module}`" in text
    # with no table of public modules, the list is the package's __all__ less deprecated aliases
    if not (ROOT / "interconnect_lab" / "_api.py").is_file():
        expected = [name for name in interconnect_lab.__all__ if name in interconnect_lab._SUBMODULES
                    and name not in library_guide.moved_modules() and name not in library_guide.PRESENTATION]
        assert modules == expected
    assert "## Figures and panels" in text


def test_the_guide_lists_main_names_with_their_summaries():
    names, total = library_guide.main_names("collectives")
    assert "all_reduce_time" in names and len(names) <= library_guide.MAX_NAMES <= total
    text = library_guide.module_section("collectives")
    assert "- `all_reduce_time()`: Time of an all-reduce" in text
    # reST roles in docstrings become plain code: the guide links nowhere
    assert ":func:" not in library_guide.guide_markdown() and ":class:" not in library_guide.guide_markdown()


def test_the_guide_is_short_and_holds_no_data_values():
    text = library_guide.guide_markdown()
    assert len(text.splitlines()) < 400
    assert "TRAINING_RUNS" not in text and "Source(" not in text


# --- what the LaTeX-only extension prints ----------------------------------------------------------

def cell(hide_mode=None, *, output=None, source="x = 1"):
    container = nodes.container(nb_element="cell_code")
    if hide_mode:
        container["hide_mode"] = hide_mode
    code = nodes.container(nb_element="cell_code_source")
    code += nodes.literal_block(source, source)
    container += code
    out = nodes.container(nb_element="cell_code_output")
    bundle = nodes.container(nb_element="mime_bundle")
    mime = nodes.container(mime_type=output or "text/plain")
    mime += nodes.literal_block("1", "1")
    bundle += mime
    out += bundle
    container += out
    return container


def document_with(*cells):
    document = new_document("test", get_default_settings(Parser))
    section = nodes.section()
    section.extend(cells)
    document += section
    return document


@pytest.mark.parametrize("hide_mode, kept", [
    (None, ["cell_code_source", "cell_code_output"]),
    ("input", ["cell_code_output"]),
    ("output", ["cell_code_source"]),
    ("input+output", None),
    ("all", None),
])
def test_code_cells_are_folded_in_print_as_in_the_html(hide_mode, kept):
    document = document_with(cell(hide_mode))
    latex_print.fold_code_cells(document)
    cells = list(document.findall(latex_print.is_cell))
    if kept is None:
        assert cells == []
    else:
        assert [child["nb_element"] for child in cells[0].children] == kept


def test_a_panel_cell_prints_without_its_constructor_call():
    document = document_with(cell(output=latex_print.WIDGET_VIEW, source="StepTimePanel()"))
    latex_print.fold_code_cells(document)
    (panel,) = document.findall(latex_print.is_cell)
    assert [child["nb_element"] for child in panel.children] == ["cell_code_output"]


WIDGET_STATE = {
    "root": {"model_name": "VBoxModel", "state": {"children": ["IPY_MODEL_controls", "IPY_MODEL_readout",
                                                                "IPY_MODEL_figure"]}},
    "controls": {"model_name": "VBoxModel", "state": {"children": [
        "IPY_MODEL_gpu", "IPY_MODEL_time", "IPY_MODEL_check", "IPY_MODEL_ranks", "IPY_MODEL_text"]}},
    "gpu": {"model_name": "DropdownModel", "state": {"description": "GPU (peak BF16)", "index": 1,
                                                     "_options_labels": ["A100 SXM", "H100 SXM"]}},
    "time": {"model_name": "FloatSliderModel", "state": {"description": "compute time [s]", "value": 0.6}},
    "check": {"model_name": "CheckboxModel", "state": {"description": "rail-optimized", "value": True}},
    "ranks": {"model_name": "SelectionSliderModel", "state": {"description": "ranks n", "index": 0,
                                                              "_options_labels": ["8", "16"]}},
    "text": {"model_name": "TextareaModel", "state": {"description": "your output", "value": "a log"}},
    "readout": {"model_name": "HTMLModel", "state": {"value": "<b>MFU 60.0%</b>: step 1.00&nbsp;s<br>second"}},
    "figure": {"model_name": "OutputModel", "state": {"outputs": [
        {"output_type": "display_data", "data": {"image/png": "iVBORw0KGgo=", "text/plain": "<Figure>"}}]}},
}


def test_a_panel_prints_its_settings_readout_and_figure_as_it_opens():
    settings, readouts, images = latex_print.panel_parts(WIDGET_STATE, "root")
    assert settings == [("GPU (peak BF16)", "H100 SXM"), ("compute time [s]", "0.6"),
                        ("rail-optimized", "on"), ("ranks n", "8")]
    assert readouts == ["<b>MFU 60.0%</b>: step 1.00&nbsp;s<br>second"]
    assert images == ["iVBORw0KGgo="]
    assert latex_print.panel_parts(WIDGET_STATE, "missing") == ([], [], [])


def test_a_readout_keeps_its_bold_and_its_line_breaks():
    first, second = latex_print.readout_paragraphs("<b>MFU 60.0%</b>: step 1.00&nbsp;s<br>second")
    assert first.astext() == "MFU 60.0%: step 1.00\xa0s" and second.astext() == "second"
    assert isinstance(first.children[0], nodes.strong) and first.children[0].astext() == "MFU 60.0%"


def test_table_columns_get_at_least_their_longest_word_and_share_the_rest():
    columns = [["GPT 175B, 64 x A100, SP + selective recomputation"], ["41.5%"], ["Megatron-LM 2022"]]
    widths = latex_print.column_widths(columns, line=40)
    least = [latex_print.COLUMN_PADDING + n for n in (14, 6, 9)]  # "recomputation", "41.5%", "Megatron-"
    assert all(w >= low for w, low in zip(widths, least))
    assert widths[0] > widths[2] > widths[1]   # the long text column gets the most of the spare
    # a table that fits keeps its natural widths
    assert latex_print.column_widths([["a b"], ["1.0"]], line=40) == [3 + 3, 3 + 3]


def test_long_tables_get_column_widths_and_short_ones_stay_with_sphinx():
    def table(rows):
        tgroup = nodes.tgroup(cols=2)
        tgroup += [nodes.colspec(colwidth=1), nodes.colspec(colwidth=1)]
        body = nodes.tbody()
        for index in range(rows):
            row = nodes.row()
            row += [nodes.entry("", nodes.paragraph(text=f"run {index} with a long name")),
                    nodes.entry("", nodes.paragraph(text="41.5%"))]
            body += row
        tgroup += body
        result = nodes.table(classes=["colwidths-auto"])
        result += tgroup
        return result

    long_table, short_table = table(latex_print.LONGTABLE_ROWS + 1), table(5)
    latex_print.fit_long_tables(document_with(long_table, short_table))
    assert "colwidths-given" in long_table["classes"] and "colwidths-auto" not in long_table["classes"]
    first, second = (spec["colwidth"] for spec in long_table.findall(nodes.colspec))
    assert first > second
    assert short_table["classes"] == ["colwidths-auto"]


def test_a_few_rows_of_long_text_break_across_pages():
    # Chapter 7's table of misses: seven rows whose last column explains each in a paragraph.
    # Set whole (tabulary) it ran 72 pt off the bottom of its page; as a longtable it breaks.
    def table(why):
        tgroup = nodes.tgroup(cols=2)
        tgroup += [nodes.colspec(colwidth=1), nodes.colspec(colwidth=1)]
        body = nodes.tbody()
        for index in range(7):
            row = nodes.row()
            row += [nodes.entry("", nodes.paragraph(text=f"run {index}")), nodes.entry("", nodes.paragraph(text=why))]
            body += row
        tgroup += body
        result = nodes.table(classes=["colwidths-auto"])
        result += tgroup
        return result

    tall, short = table("the source does not say why " * 30), table("within 6%")
    latex_print.fit_long_tables(document_with(tall, short))
    assert "longtable" in tall["classes"] and "colwidths-given" in tall["classes"]
    assert short["classes"] == ["colwidths-auto"]
    assert latex_print.table_lines([["a"], ["b " * 50]], [10, 20]) == 6      # 100 letters over 17 a line


def test_tables_computed_in_notebooks_reach_latex_as_tables(tmp_path):
    config = yaml.safe_load(build_pdf.pdf_config(ROOT / "_config.yml", tmp_path).read_text())
    # their text/markdown form is what LaTeX gets; CommonMark has no tables
    assert config["sphinx"]["config"]["nb_render_markdown_format"] == "myst"


def test_latex_errors_are_quoted_with_their_input_line():
    log = "(./interconnect-lab.tex\n! TeX capacity exceeded, sorry [main memory size=5000000].\nl.31337 ...TRAINING_RUNS = (PublishedRun(...\n\nmore\n"
    (error,) = build_pdf.latex_errors(log)
    assert error.startswith("! TeX capacity exceeded") and "l.31337" in error
    assert build_pdf.latex_errors("no errors\n") == []


def test_links_in_tables_keep_their_address_but_get_no_footnote():
    # Sphinx's ShowUrlsTransform footnotes every reference whose refuri is a web address; the
    # PDF hides table links from it and puts them back after.
    in_table = nodes.reference("", "run", refuri="https://example.org/run")
    in_text = nodes.reference("", "paper", refuri="https://example.org/paper")
    internal = nodes.reference("", "chapter", refuri="#chapter")
    entry = nodes.entry("", nodes.paragraph("", "", in_table, internal))
    table = nodes.table("", nodes.tgroup("", nodes.tbody("", nodes.row("", entry))))
    document = document_with(table, nodes.paragraph("", "", in_text))
    latex_print.hide_table_links(document)
    assert in_table["refuri"] == "" and in_text["refuri"] == "https://example.org/paper"
    assert internal["refuri"] == "#chapter"
    latex_print.restore_table_links(document)
    assert in_table["refuri"] == "https://example.org/run" and latex_print.TABLE_URI not in in_table.attributes
