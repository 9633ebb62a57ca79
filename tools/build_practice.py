"""Write each chapter's practice page: its checked exercises and quiz, graded by the library.

One small notebook per chapter, ``book/practice/chNN_<chapter>.ipynb``, listed
in ``_toc.yml`` as a section under its chapter. Each exercise is its question
(a Markdown cell, from the bank) followed by the cell that answers it,
``check("ch7.ex3", ...)``, where the student types an answer in place of
``...``; the last cell proves, for nbval and the build, that every check
accepts the library's answer and rejects wrong ones, without printing any
answer.

Usage (from the repository root)::

    python tools/build_practice.py                 # write every chapter's page
    python tools/build_practice.py 7 8             # only these chapters
    python tools/execute_notebooks.py book/practice/*.ipynb   # then store outputs

The questions themselves live in ``interconnect_lab/exercises/bank/`` (one module per
chapter); a new exercise there appears on its page when this script runs again.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from interconnect_lab.exercises import CHAPTERS, EXERCISES, keys, show  # noqa: E402

PRACTICE = ROOT / "book" / "practice"
INSTALL_CELL = '''# On Colab or any kernel without the book's library, install it first.
try:
    import interconnect_lab
except ModuleNotFoundError:
    %pip install --quiet "interconnect-lab[book] @ git+{url}"'''


def repository_url() -> str:
    match = re.search(r"^repository:\s*\n\s+url:\s*(\S+)", (ROOT / "_config.yml").read_text(), re.M)
    return match.group(1)


def chapter_title(name: str) -> str:
    notebook = json.loads((ROOT / "book" / f"{name}.ipynb").read_text())
    for cell in notebook["cells"]:
        if cell["cell_type"] == "markdown":
            match = re.search(r"^# (.+)$", "".join(cell["source"]), re.M)
            if match:
                return match.group(1).strip()
    return name


def page_path(chapter: int) -> Path:
    return PRACTICE / f"ch{chapter:02d}_{CHAPTERS[chapter].split('_', 1)[1]}.ipynb"


def practice_notebook(chapter: int) -> nbformat.NotebookNode:
    name = CHAPTERS[chapter]
    title = chapter_title(name)
    md, code = nbformat.v4.new_markdown_cell, nbformat.v4.new_code_cell
    cells = [
        code(INSTALL_CELL.format(url=repository_url()), metadata={"tags": ["remove-cell"]}),
        md(f"# Practice: {title}\n\n"
           f"Checked exercises and a five-question quiz for {{doc}}`../{name}`. Open this page in "
           "JupyterLab, Binder or Colab (the rocket button above), read a question, type your answer in "
           "place of `...` in the cell under it and run that cell: the check says whether the answer is "
           "right, wrong, close (a few times the question's tolerance off, a few percent at most), or "
           "right in order of magnitude but in the wrong unit (bits for bytes, both directions for one, "
           "GiB for GB, ...), with a hint.\n\n"
           "The answers are not on this page. The library computes them, and the page only holds a "
           "salted hash of each, so a check can say *right* without saying what is right. Give numbers "
           "in the unit each question asks for; numbers within the tolerance each question states count "
           "as right."),
        code("from interconnect_lab.exercises import check"),
        md("## Checked exercises"),
    ]
    for key in keys(f"ch{chapter}", "ex"):
        cells += [md(f"### {EXERCISES[key].title}\n\n{show(key).markdown()}"), code(f'check("{key}", ...)')]
    cells.append(md("## Quiz\n\nFive questions; answer a multiple choice with its letter, e.g. "
                    '`check("ch1.q1", "b")`.'))
    for number, key in enumerate(keys(f"ch{chapter}", "q"), start=1):
        cells += [md(f"### Question {number}: {EXERCISES[key].title}\n\n{show(key).markdown()}"),
                  code(f'check("{key}", ...)')]
    cells += [
        md("## For instructors: every check, checked\n\n"
           "This cell computes each answer with the library, in the kernel, and proves that its check "
           "accepts it, rejects a wrong answer and flags the right answer given in bits instead of bytes "
           "as a unit slip. It prints no answer. The test suite runs it too, so a change to the library "
           "that moves an answer fails until the stored hashes are regenerated "
           "(`python -m interconnect_lab.exercises --write`)."),
        code(f"from interconnect_lab.exercises import verify_chapter\n\nverify_chapter({chapter})"),
    ]
    notebook = nbformat.v4.new_notebook(cells=cells)
    notebook.metadata = {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
                         "language_info": {"name": "python"}}
    return notebook


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("chapters", nargs="*", type=int, help="chapter numbers (default: all)")
    args = parser.parse_args(argv)
    PRACTICE.mkdir(parents=True, exist_ok=True)
    for chapter in args.chapters or sorted(CHAPTERS):
        path = page_path(chapter)
        nbformat.write(practice_notebook(chapter), path)
        print(f"wrote {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
