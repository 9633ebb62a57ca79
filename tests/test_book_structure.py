"""The book's structure: every notebook listed, executed, linked to one repository, accessible."""

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BOOK = ROOT / "book"
NOTEBOOKS = sorted(p for p in BOOK.rglob("*.ipynb") if ".ipynb_checkpoints" not in p.parts)
CHAPTERS = [p for p in NOTEBOOKS if re.match(r"\d\d_", p.name)]


def toc_files():
    text = (ROOT / "_toc.yml").read_text()
    return set(re.findall(r"(?:root|file):\s*(\S+)", text))


def repository_url():
    match = re.search(r"^repository:\s*\n\s+url:\s*(\S+)", (ROOT / "_config.yml").read_text(), re.M)
    assert match, "_config.yml has no repository.url"
    return match.group(1)


def load(path):
    return json.loads(path.read_text())


#: Pages only the PDF prints, in place of a page of the HTML book (tools/build_pdf.py swaps them in).
PDF_ONLY_PAGES = {"book/appendices/library_guide"}


def test_every_page_is_in_the_toc_and_every_toc_entry_exists():
    listed = toc_files() | PDF_ONLY_PAGES
    pages = {str(p.relative_to(ROOT).with_suffix("")) for p in BOOK.rglob("*")
             if p.suffix in {".ipynb", ".md"} and ".ipynb_checkpoints" not in p.parts}
    assert pages == listed


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_is_committed_executed_without_errors(path):
    cells = [c for c in load(path)["cells"] if c["cell_type"] == "code"]
    counts = [c["execution_count"] for c in cells]
    assert None not in counts, f"{path.name}: cells saved without running: re-run tools/execute_notebooks.py"
    assert counts == list(range(1, len(cells) + 1)), f"{path.name}: not run top to bottom in one fresh kernel"
    errors = [o for c in cells for o in c.get("outputs", []) if o["output_type"] == "error"]
    assert not errors


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_install_cell_points_at_the_configured_repository(path):
    # Colab users get the library from the repository named once in _config.yml.
    sources = ["".join(c["source"]) for c in load(path)["cells"] if c["cell_type"] == "code"]
    installs = [s for s in sources if "%pip install" in s]
    assert installs, f"{path.name} lacks the Colab install cell"
    assert all(repository_url() in s for s in installs)


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.name)
def test_chapter_has_objectives_exercises_solutions_and_citations(path):
    cells = load(path)["cells"]
    markdown = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
    assert "Learning objectives" in markdown
    exercises = re.findall(r"```\{exercise\}", markdown)
    solutions = re.findall(r"```\{solution-start\}[^\n]*\n:class: dropdown", markdown)
    assert len(exercises) >= 5, f"{path.name}: {len(exercises)} exercises; a chapter has at least five"
    assert len(solutions) == len(exercises), f"{path.name}: every exercise needs a folded solution"
    # A computational solution holds a code cell between its solution-start and solution-end.
    computed, inside = 0, False
    for cell in cells:
        source = "".join(cell["source"])
        if cell["cell_type"] == "markdown":
            if "{solution-start}" in source and "{solution-end}" not in source.split("{solution-start}")[-1]:
                inside = True
            elif "{solution-end}" in source:
                inside = False
        elif inside:
            computed += 1
            inside = False
    assert computed >= 2, f"{path.name}: {computed} computed solutions; at least two must be checked by nbval"
    assert "{cite" in markdown
    assert "Claims, checked" in markdown, f"{path.name}: no 'Claims, checked' box"


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.name)
def test_chapter_ends_with_a_summary_before_further_reading(path):
    # Every chapter closes with its key takeaways, placed after the exercises and right before
    # "Further reading", so that a reader finds them in the same place in every chapter.
    markdown = "\n".join("".join(c["source"]) for c in load(path)["cells"] if c["cell_type"] == "markdown")
    summary = re.search(r"^## Summary\b", markdown, re.M)
    assert summary, f"{path.name}: no '## Summary' heading (key takeaways)"
    further = re.search(r"^## Further reading\b", markdown, re.M)
    if further:
        assert summary.start() < further.start(), f"{path.name}: the summary belongs before 'Further reading'"
        exercises = re.search(r"^## Exercises\b", markdown, re.M)
        assert not exercises or exercises.start() < summary.start(), \
            f"{path.name}: the summary belongs after the exercises, before 'Further reading'"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_every_figure_has_alt_text(path):
    for cell in load(path)["cells"]:
        if cell["cell_type"] != "code":
            continue
        has_image = any("image/png" in o.get("data", {}) for o in cell.get("outputs", []))
        if has_image:
            alt = cell["metadata"].get("mystnb", {}).get("image", {}).get("alt", "")
            assert len(alt) > 20, f"{path.name}: a figure without alt text:\n{''.join(cell['source'])[:200]}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_figures_are_rendered_not_printed(path):
    # A figure shown without an image formatter prints "<Figure size ...>" instead.
    for cell in load(path)["cells"]:
        for output in cell.get("outputs", []):
            text = "".join(output.get("data", {}).get("text/plain", ""))
            assert not (text.startswith("<Figure size") and "image/png" not in output.get("data", {})), \
                f"{path.name}: figure printed as text; is '%matplotlib inline' in the setup cell?"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_live_panels_and_only_they_skip_output_comparison(path):
    for cell in load(path)["cells"]:
        tags = cell.get("metadata", {}).get("tags", [])
        shows_widget = any("application/vnd.jupyter.widget-view+json" in o.get("data", {})
                           for o in cell.get("outputs", []))
        assert ("nbval-ignore-output" in tags) == shows_widget, "".join(cell["source"])[:200]


# Alt text is read in place of a figure, and glue cannot reach cell metadata: a result typed
# there goes stale silently when the model changes. Alt text says what the figure shows and
# what to notice; the glued prose and caption beside it carry the numbers. A number followed by
# a unit or a percent sign is a quantity; names that contain digits (H100, NVLink 4, Llama 3 70B,
# 1F1B, PCIe Gen5 x16) are not.
UNITS = (r"%|per ?cent|percent|[kKMGT]i?B(?:/s)?|[kMGT]?b/s|[GT]bps|[TP]?FLOP(?:/s)?|[kMG]?Hz"
         r"|ms|µs|μs|us|ns|s|min|h|[kM]?W|pJ|mm|x|×|times|fold|points|USD|dollars?"
         r"|(?:micro|milli|nano)?seconds?|minutes?|hours?|days?")
QUANTITY = re.compile(r"\$ ?\d"                                   # a price
                      r"|(?<![\w.,])\d+(?:[.,]\d+)*"               # a number that is not part of a name
                      rf"(?:[\s-]?(?:{UNITS})(?![A-Za-z])"          # then a unit or percent sign,
                      r"|\s+B(?![\w/]))")                           # or bytes, spaced apart from "70B"


def alt_texts(notebook):
    return [cell["metadata"]["mystnb"]["image"]["alt"] for cell in notebook["cells"]
            if "alt" in cell.get("metadata", {}).get("mystnb", {}).get("image", {})]


def quantities_in_alt_text(notebook):
    return [(match.group(0), alt) for alt in alt_texts(notebook) for match in QUANTITY.finditer(alt)]


@pytest.mark.parametrize("text", ["rises to about 360 GB/s", "MFU falls from 53% to 41%", "0.3 s of the communication",
                                  "±10% error bars", "12 percent", "about 5 % higher", "400 Gb/s", "8 GiB",
                                  "80 GB of HBM", "1.34×", "2.7 microseconds", "3-minute restarts", "$40,000",
                                  "16 B per parameter", "502 PFLOP/s", "700 W", "every 3.1 hours", "10 min",
                                  "about 5.7 times", "add 6.2 points", "a 4-fold drop"])
def test_quantity_pattern_finds_quantities(text):
    assert QUANTITY.search(text), text


@pytest.mark.parametrize("text", ["H100", "DGX H100", "NVLink 4", "NVLink-C2C", "Llama 3 70B", "GPT-3 175B",
                                  "Megatron-LM 1T", "1F1B", "PCIe Gen5 x16", "3:1 oversubscribed", "GB200 NVL72",
                                  "HBM3", "Quantum-2 QM9700", "Tomahawk 5", "a bandwidth axis in GB/s"])
def test_quantity_pattern_spares_names(text):
    assert not QUANTITY.search(text), text


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_figure_alt_text_types_no_quantity(path):
    found = quantities_in_alt_text(load(path))
    assert not found, f"{path.name}: alt text states a quantity; describe the figure, glue the number in the prose:\n" \
        + "\n".join(f"  {quantity!r} in: {alt[:120]}" for quantity, alt in found)


#: Tags that fold or remove a code cell's source in the rendered book.
FOLDED = {"hide-input", "hide-cell", "remove-cell", "remove-input"}
#: Code cells a chapter may show unfolded before its exercises: short teaching examples (chapter 7
#: runs each collective rank by rank in view). Bookkeeping is never among them.
MOST_SHOWN_CODE_CELLS = 4


def _code_before_exercises(notebook):
    for cell in notebook["cells"]:
        source = "".join(cell["source"])
        if cell["cell_type"] == "markdown" and re.search(r"^## Exercises", source, re.M):
            return
        if cell["cell_type"] == "code":
            yield cell, source


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.name)
def test_chapter_folds_its_code_and_removes_its_bookkeeping(path):
    shown, bookkeeping = [], []
    for cell, source in _code_before_exercises(load(path)):
        tags = set(cell["metadata"].get("tags", []))
        if tags & FOLDED or "nbval-ignore-output" in tags:   # folded, removed, or a live panel
            continue
        lines = [line for line in source.splitlines() if line.strip()]
        shown.append(lines[0][:60] if lines else "")
        if sum(line.lstrip().startswith("glue(") for line in lines) * 2 > len(lines):
            bookkeeping.append(lines[0][:60])
    assert not bookkeeping, f"cells of glue(...) bookkeeping in view (tag them remove-cell or remove-input): " \
                            f"{bookkeeping}"
    assert len(shown) <= MOST_SHOWN_CODE_CELLS, f"{len(shown)} code cells shown in full (fold them with " \
                                                f"hide-input like the other chapters): {shown}"


def _cited_keys(text):
    """Keys of ``{cite}`...``` roles (any variant: cite:p, cite:t ...), comma-separated ones split."""
    return {key.strip() for group in re.findall(r"\{cite(?::\w+)?\}`([^`]+)`", text) for key in group.split(",")}


def test_the_bibliography_parses_and_holds_every_cited_key():
    # sphinxcontrib-bibtex reads book/references.bib with pybtex when the build starts; one
    # unclosed entry stops the whole build, so read it the same way here.
    pybtex = pytest.importorskip("pybtex.database")
    entries = pybtex.parse_file(str(BOOK / "references.bib")).entries
    cited = set()
    for path in NOTEBOOKS:
        cited |= _cited_keys("\n".join("".join(c["source"]) for c in load(path)["cells"] if c["cell_type"] == "markdown"))
    for path in BOOK.rglob("*.md"):
        cited |= _cited_keys(path.read_text())
    assert cited, "no {cite} role found: the pattern is wrong"
    missing = sorted(cited - set(entries))
    assert not missing, f"cited but not in book/references.bib: {missing}"


def test_cited_keys_pattern():
    assert _cited_keys("see {cite}`a2020, b2021` and {cite:p}`c`") == {"a2020", "b2021", "c"}


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_glued_numbers_are_plain_python(path):
    # MyST-NB formats a {glue:text}`name:.1f` from the value's repr; numpy 2 writes a numpy scalar
    # as 'np.float64(...)', which it cannot format (the book build warns and prints nothing).
    bad = [output["metadata"]["scrapbook"]["name"]
           for cell in load(path)["cells"] for output in cell.get("outputs", [])
           if "scrapbook" in output.get("metadata", {})
           and str(output.get("data", {}).get("application/papermill.record/text/plain", "")).startswith("np.")]
    assert not bad, f"{path.name}: glue float(...) or int(...) of these numpy scalars: {bad}"
