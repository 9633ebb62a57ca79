"""Build the whole book as one PDF through Jupyter Book's LaTeX route, then check it.

From the repository root, inside the environment the README sets up, with the
Debian packages below installed (``.ci/run`` installs them; the test command,
``tools/check.py``, runs this as its "PDF (LaTeX)" step)::

    sudo apt-get install --no-install-recommends texlive-latex-recommended texlive-latex-extra \\
        texlive-fonts-recommended texlive-xetex latexmk xindy fonts-freefont-otf fonts-dejavu-core \\
        poppler-utils make
    .venv/bin/python tools/build_pdf.py                    # -> _build/latex/interconnect-lab.pdf
    .venv/bin/python tools/build_pdf.py --path-output /tmp/pdf-build
    .venv/bin/python tools/build_pdf.py --check-only PATH.pdf

What the PDF changes against the HTML build, through copies of ``_config.yml``
and ``_toc.yml`` written to a temporary folder (the book's own files are left
alone):

- ``latex_engine: xelatex``: the text is full of Unicode (α, β, µ, ×, →, ⌈)
  that pdflatex cannot typeset without a declaration for each character;
- ``execute_notebooks: "off"``: the notebooks are committed with their
  outputs, and ``nbval`` in the test suite proves those outputs are what the
  library computes now, so the PDF uses them instead of running every
  notebook again;
- the table of contents: the API appendix (``book/appendices/api.md``, autodoc
  of every public name, some 300 pages printed) is replaced by a short guide to
  the library (``book/appendices/library_guide.md``, generated from the
  library by ``tools/sphinxext/library_guide.py``), and the parts lose the
  numerals their captions carry for the HTML ("I. Why the network decides"),
  which LaTeX numbers itself;
- ``tools/sphinxext/latex_print.py``: code cells folded in the HTML are left
  out, each panel prints its settings, readout and figure as it opens, long
  tables get column widths from their contents;
- Markdown outputs (the notebooks' computed tables) are parsed as MyST, which
  has tables, rather than CommonMark;
- the page: A4, 10 pt, a title page, margins to write in, blank pages left
  blank, tables with ragged-right cells whose code can break, code in boxes
  that breaks before the footer, and fonts with every glyph the book uses.

The check fails when LaTeX exits non-zero; when the PDF has fewer than
``--min-pages`` or more than ``--max-pages`` pages; when its text holds ``??``
(LaTeX's mark for an unresolved reference or citation) or ``[?]``; when the
LaTeX log reports a line wider than the text by more than ``--max-overfull-pt``,
a page taller than the text block by more than ``--max-overfull-vbox-pt`` (its
end runs into the footer) or a character missing from a font (each printed with
its line in the .tex); or when the library guide takes more than
``--max-guide-share`` of the pages (its page range read from the .aux and .toc
files). It needs ``pdfinfo`` and ``pdftotext`` (Debian's poppler-utils).
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
SPHINXEXT = ROOT / "tools" / "sphinxext"
TARGET = "interconnect-lab"
#: Fewer pages than this means chapters went missing (the whole book is a few hundred).
MIN_PAGES = 200
#: A book an instructor would print (issue 38); the autodoc reference alone once took 314.
MAX_PAGES = 450
#: A line this much wider than the text block is visibly cut off or runs into the margin.
MAX_OVERFULL_PT = 20.0
#: A page this much taller than the text block runs into the running footer.
MAX_OVERFULL_VBOX_PT = 15.0
#: The library guide's largest share of the pages.
MAX_GUIDE_SHARE = 0.10
#: The HTML's API appendix and the PDF's short guide printed in its place.
API_PAGE = "book/appendices/api"
GUIDE_PAGE = "book/appendices/library_guide"
#: What LaTeX prints for a reference, citation or equation number it could not resolve.
UNRESOLVED = re.compile(r"\?\?|\[\?\]")
#: "I. ", "IV. " at the start of a part caption: LaTeX numbers parts itself.
PART_NUMERAL = re.compile(r"^[IVXLC]+\.\s+")
#: The PDF's own Sphinx extensions (tools/sphinxext).
PDF_EXTENSIONS = ("latex_print", "library_guide")
BBM_SHIM = r"""\NeedsTeXFormat{LaTeX2e}
\ProvidesPackage{bbm}[2026/12/03 stand-in for bbm: blackboard bold from amssymb]
\RequirePackage{amssymb}
\providecommand{\mathbbm}[1]{\mathbb{#1}}
"""

#: Fonts with every glyph the book uses: FreeSerif and FreeSans (Debian's fonts-freefont-otf)
#: for text and headings, DejaVu Sans Mono (fonts-dejavu-core) for code, darker and easier
#: to read in print than FreeMono. Some styles lack a few mathematical symbols (⌈ ⌉ ⌊ ⌋);
#: PREAMBLE maps those to the maths font, which has them in every style.
FONTPKG = r"""
\setmainfont{FreeSerif}[Extension=.otf, UprightFont=*, ItalicFont=*Italic,
  BoldFont=*Bold, BoldItalicFont=*BoldItalic]
\setsansfont{FreeSans}[Extension=.otf, UprightFont=*, ItalicFont=*Oblique,
  BoldFont=*Bold, BoldItalicFont=*BoldOblique]
\setmonofont{DejaVu Sans Mono}[Scale=0.86]
"""

PREAMBLE = r"""
% --- tools/build_pdf.py ---
% Characters some of the fonts lack, typeset from the maths font in any style.
\usepackage{newunicodechar}
\newunicodechar{⌈}{\ensuremath{\lceil}}
\newunicodechar{⌉}{\ensuremath{\rceil}}
\newunicodechar{⌊}{\ensuremath{\lfloor}}
\newunicodechar{⌋}{\ensuremath{\rfloor}}
% Pages left blank so that chapters open on the right carry no header or footer.
\usepackage{emptypage}
% A text block with margins to write in (Jupyter Book's class leaves 1.75 cm), and the
% footer a little further below it.
\geometry{hmargin=2.5cm, footskip=40pt}
% Fewer overfull lines: a paragraph may stretch its spaces a little more before giving up.
\setlength{\emergencystretch}{2em}
% URLs break at any character; the bibliography is ragged right (long URLs and titles).
\usepackage{xurl}
% Table cells ragged right: justified text in a narrow column leaves wide gaps between
% words. T is Sphinx's column type for tabulary, \X and \Y its fixed-width ones.
\usepackage{ragged2e}
\makeatletter
\newcolumntype{T}{L}
% No paragraph column narrower than about 14 characters of code (Sphinx: 3 digits), so
% code-keyed first columns (environment variables, option names) break rarely.
\setlength{\tymin}{6.5em}
\newcolumntype{\X}[2]{>{\RaggedRight\arraybackslash}p{\dimexpr
      (\linewidth-\spx@arrayrulewidth)*#1/#2-\tw@\tabcolsep-\spx@arrayrulewidth\relax}}
\newcolumntype{\Y}[1]{>{\RaggedRight\arraybackslash}p{\dimexpr
      #1\dimexpr\linewidth-\spx@arrayrulewidth\relax-\tw@\tabcolsep-\spx@arrayrulewidth\relax}}
% Inline code may also break after _ = { } & and the like (Sphinx breaks it only after
% . , ; ? ! /) and between a lower-case and an upper-case letter (CamelCase), so an
% environment variable or a class name fits its table column. The bibliography may
% break after a / (URLs quoted as plain text). XeTeX inserts the break points between
% characters of the classes below, assigned only inside those two places.
\newXeTeXintercharclass\il@lowerclass
\newXeTeXintercharclass\il@upperclass
\newXeTeXintercharclass\il@slashclass
\XeTeXinterchartoks\il@lowerclass\il@upperclass={\penalty\z@}
\XeTeXinterchartoks\il@slashclass\il@lowerclass={\penalty\z@}
\XeTeXinterchartoks\il@slashclass\il@upperclass={\penalty\z@}
\def\il@letterclasses{%
  \count@`a \loop\XeTeXcharclass\count@\il@lowerclass\ifnum\count@<`z \advance\count@\@ne\repeat
  \count@`A \loop\XeTeXcharclass\count@\il@upperclass\ifnum\count@<`Z \advance\count@\@ne\repeat}
\let\il@sphinxupquote\sphinxupquote
\protected\def\sphinxupquote#1{{\sphinxbreaksattexescapedchars\il@letterclasses
  \expandafter\def\expandafter\sphinxbreaksafteractivelist\expandafter{\sphinxbreaksafteractivelist\do\=}%
  \il@sphinxupquote{#1}}}
\AtBeginEnvironment{sphinxthebibliography}{\raggedright
  \il@letterclasses\XeTeXcharclass`\/\il@slashclass}
\makeatother
% A code cell inside a framed box (an exercise's solution) is framed in an unbreakable
% minipage when Sphinx estimates that it fits on the page, with 2 lines to spare; the
% estimate misses the notebook cell's own spacing, and a block near the bottom of a page
% ran into the footer. With 6 lines to spare such a block is set unframed and breaks.
\usepackage{etoolbox}
\patchcmd{\endsphinxVerbatim}{2\baselineskip+}{6\baselineskip+}{}%
  {\PackageWarning{build_pdf}{could not patch sphinxVerbatim; code in boxes may overrun pages}}
% LaTeX gathers the citations at the end of the book; their list replaces the References page.
\addto\captionsenglish{\renewcommand{\bibname}{References}}
"""


#: The title page: the book's title, what it is (the introduction's first line), its
#: authors, the date it was printed and its licences.
TITLE_PAGE = r"""
\makeatletter
\begin{titlepage}
  \raggedleft
  \vspace*{0.2\textheight}
  {\py@HeaderFamily\Huge \@title\par}
  \vspace{1.5em}
  {\py@HeaderFamily\Large %(subtitle)s\par}
  \vfill
  {\Large \@author\par}
  \vspace{0.25\textheight}
  {\small Printed \@date\ from the online book and its notebooks.\\
   Text under CC BY 4.0; code under the MIT licence.\par}
\end{titlepage}
\makeatother
\setcounter{footnote}{0}
\cleardoublepage
"""
#: After the contents, the introduction (the root page, which carries no chapter heading
#: in LaTeX) gets one, and the running header and footer name it instead of "Contents".
INTRODUCTION = "About this book"
TABLE_OF_CONTENTS = r"""
\sphinxtableofcontents
\chapter*{%(title)s}
\addcontentsline{toc}{chapter}{%(title)s}
\markboth{%(title)s}{%(title)s}
"""


def subtitle(intro: Path) -> str:
    """The introduction's first bold line ("**An executable textbook on ...**"), for the title page."""
    match = re.search(r"^\*\*(?P<line>[^*]+?)\.?\*\*\s*$", intro.read_text(), re.M) if intro.is_file() else None
    return re.sub(r"([&%$#_{}])", r"\\\1", match["line"]) if match else ""


def pdf_toc(source: Path, destination: Path) -> Path:
    """Write a copy of ``_toc.yml`` for the PDF (guide for API appendix, parts without numerals)."""
    toc = yaml.safe_load(source.read_text())

    def swap(entries):
        for entry in entries or ():
            if entry.get("file") == API_PAGE:
                entry["file"] = GUIDE_PAGE
            swap(entry.get("sections"))

    for part in toc.get("parts", []):
        if part.get("caption"):
            part["caption"] = PART_NUMERAL.sub("", part["caption"])
        swap(part.get("chapters"))
    swap(toc.get("chapters"))
    path = destination / "_toc.yml"
    path.write_text(yaml.safe_dump(toc, sort_keys=False, allow_unicode=True))
    return path


def pdf_config(source: Path, destination: Path) -> Path:
    """Write a copy of ``_config.yml`` set up for the PDF; return its path."""
    config = yaml.safe_load(source.read_text())
    config.setdefault("execute", {})["execute_notebooks"] = "off"
    latex = config.setdefault("latex", {})
    latex["latex_engine"] = "xelatex"
    latex.setdefault("latex_documents", {})["targetname"] = f"{TARGET}.tex"
    # Jupyter Book resolves local extension folders against the config file's folder.
    extensions = config.setdefault("sphinx", {}).get("local_extensions") or {}
    for name, folder in extensions.items():
        extensions[name] = str((source.parent / folder).resolve())
    for name in PDF_EXTENSIONS:
        extensions[name] = str(SPHINXEXT)
    config["sphinx"]["local_extensions"] = extensions
    sphinx = config["sphinx"].setdefault("config", {})
    # Paper-friendly settings; the HTML build does not read them.
    sphinx["latex_show_urls"] = "footnote"
    # Tables computed in the notebooks (plotting.tables.Table) reach LaTeX as their Markdown
    # form; MyST-NB parses it as CommonMark by default, which has no tables.
    sphinx["nb_render_markdown_format"] = "myst"
    # The introduction's {tableofcontents} would print the contents again as a list.
    sphinx["jblatex_show_tocs"] = False
    sphinx["latex_elements"] = {
        "papersize": "a4paper", "pointsize": "10pt", "figure_align": "htbp",
        "fontpkg": FONTPKG, "preamble": PREAMBLE,
        "maketitle": TITLE_PAGE % {"subtitle": subtitle(source.parent / "book" / "intro.md")},
        "tableofcontents": TABLE_OF_CONTENTS % {"title": INTRODUCTION},
        # Long code lines and data reprs wrap (at any character if they must) instead
        # of running into the margin; inline code may break after _ and = as well.
        "sphinxsetup": "verbatimwrapslines=true, verbatimforcewraps=true, verbatimmaxoverfull=1, "
                       "inlineliteralwraps=true",
    }
    # Jupyter Book's LaTeX class loads bbm, which only Debian's 500 MB
    # texlive-fonts-extra ships; the book uses none of its letters, so a
    # stand-in built on amssymb's blackboard bold serves.
    shim = destination / "bbm.sty"
    shim.write_text(BBM_SHIM)
    sphinx["latex_additional_files"] = [str(shim)]
    path = destination / "_config.yml"
    path.write_text(yaml.safe_dump(config, sort_keys=False, allow_unicode=True))
    return path


# --- what the LaTeX run left behind --------------------------------------------------------------

@dataclass(frozen=True)
class OverfullBox:
    """One overfull box from a LaTeX log: how far it sticks out and where in the .tex it is.

    An \\hbox is a line wider than the text block; a \\vbox, a page (or a box on it)
    taller than the text block, whose end runs towards the footer.
    """

    width_pt: float     # how far it sticks out, to the right or at the bottom
    lines: str          # "1234--1240", "567", or "" if found while a page was shipped out
    content: str        # the log's rendering of the box, shortened
    kind: str = "hbox"

    def describe(self, tex_lines: list[str] | None = None) -> str:
        where = f".tex line{'s' if '--' in self.lines else ''} {self.lines}" if self.lines else "a page break"
        source = ""
        if tex_lines and self.lines:
            first = int(self.lines.split("--")[0])
            if 0 < first <= len(tex_lines):
                source = f"; source: {shorten(tex_lines[first - 1])}"
        size = "too wide" if self.kind == "hbox" else "too high"
        return f"overfull \\{self.kind} {self.width_pt:.1f} pt {size} at {where}: {self.content}{source}"


OVERFULL = re.compile(r"^Overfull \\(?P<kind>[hv]box) \((?P<pt>[\d.]+)pt too (?:wide|high)\) "
                      r"(?:in paragraph at lines (?P<a>\d+)--(?P<b>\d+)|in alignment at lines (?P<c>\d+)--(?P<d>\d+)"
                      r"|detected at line (?P<e>\d+)|has occurred while \\output is active)", re.M)
MISSING = re.compile(r"^Missing character: There is no (?P<char>.+?) \((?P<code>U\+[0-9A-F]+)\) in font (?P<font>[^:!]+)",
                     re.M)


def shorten(text: str, width: int = 110) -> str:
    text = " ".join(text.split())
    return text if len(text) <= width else text[: width - 1] + "…"


def overfull_boxes(log: str, *, min_pt: float = 0.0, kind: str = "hbox") -> list[OverfullBox]:
    """Every overfull box of ``kind`` (hbox or vbox) in a LaTeX log over ``min_pt``, in the order logged."""
    boxes = []
    for match in OVERFULL.finditer(log):
        width = float(match["pt"])
        if match["kind"] != kind or width <= min_pt:
            continue
        if match["a"]:
            lines = f"{match['a']}--{match['b']}"
        elif match["c"]:
            lines = f"{match['c']}--{match['d']}"
        else:
            lines = match["e"] or ""   # "" when LaTeX was shipping out the page
        # The box's contents follow on the next lines of the log, up to a blank line.
        tail = log[match.end():].split("\n\n", 1)[0]
        boxes.append(OverfullBox(width, lines, shorten(tail.replace("\n", "")), kind))
    return boxes


def latex_errors(log: str, *, limit: int = 5) -> list[str]:
    """LaTeX's first error messages ("! ..." and the line after, where it names the input line)."""
    lines = log.splitlines()
    errors = [" ".join(line.strip() for line in lines[index:index + 2])
              for index, line in enumerate(lines) if line.startswith("! ")]
    return [shorten(error, 200) for error in errors[:limit]]


def missing_characters(log: str) -> list[str]:
    """Each character a font lacked, once per character and font, as 'char (U+XXXX) in font'."""
    found = dict.fromkeys(f"{m['char']} ({m['code']}) in {m['font'].strip()}" for m in MISSING.finditer(log))
    return list(found)


#: ``\\newlabel{<docname>::doc}{{<number>}{<page>}...`` as Sphinx labels the start of each document.
DOC_LABEL = re.compile(r"\\newlabel\{(?P<doc>[^{}]+)::doc\}\{\{[^{}]*\}\{(?P<page>[^{}]*)\}")
#: ``\\contentsline {chapter}{<title>}{<page>}{<anchor>}%`` for a part or chapter in the .toc file.
TOC_ENTRY = re.compile(r"^\\contentsline \{(?:part|chapter)\}.*\{(?P<page>[^{}]*)\}\{[^{}]*\}%?\s*$", re.M)


def document_page(aux: str, document: str) -> int | None:
    """The (arabic) page ``document`` starts on, from the LaTeX .aux file; None if not there."""
    for match in DOC_LABEL.finditer(aux):
        if match["doc"] == document and match["page"].isdigit():
            return int(match["page"])
    return None


def page_range(aux: str, toc: str, document: str, *, last_page: int) -> tuple[int, int] | None:
    """First and last page of the chapter ``document`` opens: up to the next part or chapter.

    Page numbers are the printed (arabic) ones. ``last_page`` closes the range when nothing
    follows in the .toc; pass the PDF's page count, an upper bound. None if ``document`` is
    not in the .aux.
    """
    first = document_page(aux, document)
    if first is None:
        return None
    later = [int(match["page"]) for match in TOC_ENTRY.finditer(toc)
             if match["page"].isdigit() and int(match["page"]) > first]
    return first, (min(later) - 1 if later else last_page)


def problems(text: str, pages: int, *, min_pages: int = MIN_PAGES, max_pages: int = MAX_PAGES,
             overfull: list[OverfullBox] = (), missing: list[str] = (), guide: tuple[int, int] | None = None,
             max_guide_share: float = MAX_GUIDE_SHARE, tex_lines: list[str] | None = None) -> list[str]:
    """What is wrong with a PDF whose extracted text is ``text`` and that has ``pages`` pages.

    ``overfull`` and ``missing`` come from the LaTeX log; ``guide`` is the library guide's
    first and last page, if the guide was found.
    """
    found = []
    if pages < min_pages:
        found.append(f"{pages} pages; a complete book has at least {min_pages}")
    if pages > max_pages:
        found.append(f"{pages} pages; the printed book must have at most {max_pages}")
    for match in list(UNRESOLVED.finditer(text))[:20]:
        start, end = max(0, match.start() - 60), match.end() + 60
        context = " ".join(text[start:end].split())
        found.append(f"unresolved reference {match.group(0)!r} near: ...{context}...")
    found += [box.describe(tex_lines) for box in overfull]
    found += [f"missing character: {entry}" for entry in missing]
    if guide is not None:
        first, last = guide
        share = (last - first + 1) / pages
        if share > max_guide_share:
            found.append(f"the library guide takes pages {first}-{last}, {share:.1%} of {pages}; "
                         f"at most {max_guide_share:.0%} allowed")
    return found


def page_count(pdf: Path) -> int:
    info = subprocess.run(["pdfinfo", str(pdf)], check=True, capture_output=True, text=True).stdout
    match = re.search(r"^Pages:\s+(\d+)", info, re.M)
    if not match:
        raise SystemExit(f"pdfinfo reports no page count for {pdf}")
    return int(match.group(1))


def read(path: Path) -> str:
    return path.read_text(encoding="utf-8", errors="replace") if path.is_file() else ""


def check(pdf: Path, *, min_pages: int = MIN_PAGES, max_pages: int = MAX_PAGES,
          max_overfull_pt: float = MAX_OVERFULL_PT, max_overfull_vbox_pt: float = MAX_OVERFULL_VBOX_PT,
          max_guide_share: float = MAX_GUIDE_SHARE) -> list[str]:
    """Check a built PDF and the LaTeX log, .aux and .tex beside it."""
    if not pdf.is_file():
        return [f"no PDF at {pdf}"]
    text = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], check=True, capture_output=True,
                          text=True).stdout
    pages = page_count(pdf)
    log, aux, toc = (read(pdf.with_suffix(suffix)) for suffix in (".log", ".aux", ".toc"))
    tex_lines = read(pdf.with_suffix(".tex")).splitlines()
    found = []
    if not log:
        found.append(f"no LaTeX log at {pdf.with_suffix('.log')}: cannot check overfull lines and glyphs")
    boxes = overfull_boxes(log)
    wide = [box for box in boxes if box.width_pt > max_overfull_pt]
    tall = overfull_boxes(log, kind="vbox", min_pt=max_overfull_vbox_pt)
    guide = page_range(aux, toc, GUIDE_PAGE, last_page=pages) if aux else None
    if aux and guide is None:
        found.append(f"the library guide ({GUIDE_PAGE}) is not in {pdf.with_suffix('.aux').name}")
    print(f"{pdf}: {pages} pages, {len(text.split()):,} words; "
          f"{len(boxes)} overfull lines, {len(wide)} wider than {max_overfull_pt:g} pt; "
          f"{len(tall)} pages over {max_overfull_vbox_pt:g} pt too high")
    if guide:
        first, last = guide
        print(f"library guide: pages {first}-{last}, {last - first + 1} pages, "
              f"{(last - first + 1) / pages:.1%} of the book")
    return found + problems(text, pages, min_pages=min_pages, max_pages=max_pages, overfull=wide + tall,
                            missing=missing_characters(log), guide=guide, max_guide_share=max_guide_share,
                            tex_lines=tex_lines)


def build(path_output: Path) -> tuple[Path, int]:
    """Write the LaTeX with Jupyter Book, run it; return the PDF's path and LaTeX's exit status."""
    missing = [tool for tool in ("xelatex", "latexmk", "xindy", "make", "pdftotext", "pdfinfo")
               if not shutil.which(tool)]
    if missing:
        raise SystemExit(f"missing {', '.join(missing)}: install the Debian packages in this script's docstring")
    jupyter_book = Path(sys.executable).parent / "jupyter-book"
    latex_dir = path_output / "_build" / "latex"
    shutil.rmtree(latex_dir, ignore_errors=True)
    with tempfile.TemporaryDirectory() as tmp:
        config = pdf_config(ROOT / "_config.yml", Path(tmp))
        toc = pdf_toc(ROOT / "_toc.yml", Path(tmp))
        command = [str(jupyter_book), "build", str(ROOT), "--builder", "latex", "--config", str(config),
                   "--toc", str(toc), "--path-output", str(path_output)]
        print("$", " ".join(command), flush=True)
        started = time.perf_counter()
        written = subprocess.run(command, cwd=ROOT)
        print(f"LaTeX sources written in {time.perf_counter() - started:.0f} s", flush=True)
    if written.returncode:
        raise SystemExit(f"jupyter-book could not write the LaTeX sources (exit status {written.returncode})")
    started = time.perf_counter()
    # Sphinx's Makefile runs latexmk (xelatex, xindy) until the references settle.
    result = subprocess.run(["make", "all-pdf", "LATEXMKOPTS=-silent"], cwd=latex_dir)
    print(f"LaTeX ran in {time.perf_counter() - started:.0f} s, exit status {result.returncode}", flush=True)
    return latex_dir / f"{TARGET}.pdf", result.returncode


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--path-output", type=Path, default=ROOT,
                        help="folder to build in (the PDF lands in PATH/_build/latex/)")
    parser.add_argument("--check-only", type=Path, metavar="PDF",
                        help="check an existing PDF (and the .log, .aux, .tex beside it), build nothing")
    parser.add_argument("--min-pages", type=int, default=MIN_PAGES)
    parser.add_argument("--max-pages", type=int, default=MAX_PAGES)
    parser.add_argument("--max-overfull-pt", type=float, default=MAX_OVERFULL_PT)
    parser.add_argument("--max-overfull-vbox-pt", type=float, default=MAX_OVERFULL_VBOX_PT)
    parser.add_argument("--max-guide-share", type=float, default=MAX_GUIDE_SHARE)
    args = parser.parse_args(argv)
    started = time.perf_counter()
    found = []
    if args.check_only:
        pdf = args.check_only
    else:
        pdf, status = build(args.path_output.resolve())
        if status:
            found.append(f"LaTeX exited with status {status}: see {pdf.with_suffix('.log')}")
            found += [f"LaTeX error: {error}" for error in latex_errors(read(pdf.with_suffix(".log")))]
    found += check(pdf, min_pages=args.min_pages, max_pages=args.max_pages,
                   max_overfull_pt=args.max_overfull_pt, max_overfull_vbox_pt=args.max_overfull_vbox_pt,
                   max_guide_share=args.max_guide_share)
    for problem in found:
        print("PROBLEM:", problem)
    print(f"PDF check: {'failed' if found else 'passed'} ({time.perf_counter() - started:.0f} s)")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
