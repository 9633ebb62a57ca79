"""Build the whole book as one PDF through Jupyter Book's LaTeX route, then check it.

The PDF is not part of the README's test command: the LaTeX run alone takes
minutes on two cores and needs about 400 MB of TeX packages that the HTML
book does not. Build it with this command instead (from the repository root,
inside the environment the README sets up)::

    sudo apt-get install texlive-latex-recommended texlive-latex-extra \\
        texlive-fonts-recommended texlive-xetex latexmk xindy fonts-freefont-otf poppler-utils
    .venv/bin/python tools/build_pdf.py                    # -> _build/latex/interconnect-lab.pdf
    .venv/bin/python tools/build_pdf.py --path-output /tmp/pdf-build
    .venv/bin/python tools/build_pdf.py --check-only PATH.pdf

What it changes against the HTML build, through a copy of ``_config.yml``
(the book's own file is left alone):

- ``latex_engine: xelatex``: the text is full of Unicode (α, β, µ, ×, →)
  that pdflatex cannot typeset without a declaration for each character;
- ``execute_notebooks: "off"``: the notebooks are committed with their
  outputs, and ``nbval`` in the test suite proves those outputs are what the
  library computes now, so the PDF uses them instead of running every
  notebook again.

The check fails when the PDF has fewer pages than ``--min-pages``, or when
its text holds ``??`` (LaTeX's mark for an unresolved reference or citation)
or ``[?]``. It needs ``pdfinfo`` and ``pdftotext`` (Debian's poppler-utils).
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
TARGET = "interconnect-lab"
#: Fewer pages than this means chapters went missing (the whole book is a few hundred).
MIN_PAGES = 150
#: What LaTeX prints for a reference, citation or equation number it could not resolve.
UNRESOLVED = re.compile(r"\?\?|\[\?\]")
BBM_SHIM = r"""\NeedsTeXFormat{LaTeX2e}
\ProvidesPackage{bbm}[2026/12/03 stand-in for bbm: blackboard bold from amssymb]
\RequirePackage{amssymb}
\providecommand{\mathbbm}[1]{\mathbb{#1}}
"""


def pdf_config(source: Path, destination: Path) -> Path:
    """Write a copy of ``_config.yml`` set up for the PDF; return its path."""
    config = yaml.safe_load(source.read_text())
    config.setdefault("execute", {})["execute_notebooks"] = "off"
    latex = config.setdefault("latex", {})
    latex["latex_engine"] = "xelatex"
    latex.setdefault("latex_documents", {})["targetname"] = f"{TARGET}.tex"
    # Jupyter Book resolves local extension folders against the config file's folder.
    extensions = config.get("sphinx", {}).get("local_extensions") or {}
    for name, folder in extensions.items():
        extensions[name] = str((source.parent / folder).resolve())
    sphinx = config.setdefault("sphinx", {}).setdefault("config", {})
    # Paper-friendly settings; the HTML build does not read them.
    sphinx["latex_show_urls"] = "footnote"
    sphinx["latex_elements"] = {"papersize": "a4paper", "pointsize": "10pt",
                                "figure_align": "htbp"}
    # Jupyter Book's LaTeX class loads bbm, which only Debian's 500 MB
    # texlive-fonts-extra ships; the book uses none of its letters, so a
    # stand-in built on amssymb's blackboard bold serves.
    shim = destination / "bbm.sty"
    shim.write_text(BBM_SHIM)
    sphinx["latex_additional_files"] = [str(shim)]
    path = destination / "_config.yml"
    path.write_text(yaml.safe_dump(config, sort_keys=False, allow_unicode=True))
    return path


def problems(text: str, pages: int, *, min_pages: int = MIN_PAGES) -> list[str]:
    """What is wrong with a PDF whose extracted text is ``text`` and that has ``pages`` pages."""
    found = []
    if pages < min_pages:
        found.append(f"{pages} pages; a complete book has at least {min_pages}")
    for match in list(UNRESOLVED.finditer(text))[:20]:
        start, end = max(0, match.start() - 60), match.end() + 60
        context = " ".join(text[start:end].split())
        found.append(f"unresolved reference {match.group(0)!r} near: ...{context}...")
    return found


def page_count(pdf: Path) -> int:
    info = subprocess.run(["pdfinfo", str(pdf)], check=True, capture_output=True, text=True).stdout
    match = re.search(r"^Pages:\s+(\d+)", info, re.M)
    if not match:
        raise SystemExit(f"pdfinfo reports no page count for {pdf}")
    return int(match.group(1))


def check(pdf: Path, *, min_pages: int = MIN_PAGES) -> list[str]:
    if not pdf.is_file():
        return [f"no PDF at {pdf}"]
    text = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], check=True, capture_output=True,
                          text=True).stdout
    pages = page_count(pdf)
    print(f"{pdf}: {pages} pages, {len(text.split()):,} words")
    return problems(text, pages, min_pages=min_pages)


def build(path_output: Path) -> Path:
    missing = [tool for tool in ("xelatex", "latexmk", "pdftotext", "pdfinfo") if not shutil.which(tool)]
    if missing:
        raise SystemExit(f"missing {', '.join(missing)}: install the Debian packages in this script's docstring")
    jupyter_book = Path(sys.executable).parent / "jupyter-book"
    with tempfile.TemporaryDirectory() as tmp:
        config = pdf_config(ROOT / "_config.yml", Path(tmp))
        command = [str(jupyter_book), "build", str(ROOT), "--builder", "pdflatex",
                   "--config", str(config), "--path-output", str(path_output)]
        print("$", " ".join(command), flush=True)
        started = time.perf_counter()
        subprocess.run(command, check=True, cwd=ROOT)
        print(f"built in {time.perf_counter() - started:.0f} s")
    return path_output / "_build" / "latex" / f"{TARGET}.pdf"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--path-output", type=Path, default=ROOT,
                        help="folder to build in (the PDF lands in PATH/_build/latex/)")
    parser.add_argument("--check-only", type=Path, metavar="PDF", help="check an existing PDF, build nothing")
    parser.add_argument("--min-pages", type=int, default=MIN_PAGES)
    args = parser.parse_args(argv)
    pdf = args.check_only or build(args.path_output.resolve())
    found = check(pdf, min_pages=args.min_pages)
    for problem in found:
        print("PROBLEM:", problem)
    print("PDF check:", "failed" if found else "passed")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
