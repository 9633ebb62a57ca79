"""Tests of ``interconnect_lab.exercises.bank``: the checked exercises and quizzes, one module per
chapter, with answers computed by the library.
"""

import json
import re
from pathlib import Path

import pytest

from interconnect_lab.exercises import CHAPTERS, EXERCISES, Numeric, keys, show


ROOT = Path(__file__).resolve().parents[2]

PRACTICE = sorted((ROOT / "book" / "practice").glob("*.ipynb"))

NUMERIC = [key for key, spec in EXERCISES.items() if isinstance(spec, Numeric)]


def expected(key):
    return EXERCISES[key].expected()


def _forms(value):
    """How an answer would look if printed: forms with three or more significant digits."""
    forms = {f"{value:.3g}", f"{value:.4g}", f"{value:.5g}", f"{value:.2f}", f"{value:.1f}", f"{value:,.1f}"}
    if float(value).is_integer():
        forms |= {f"{int(value)}", f"{int(value):,}"}
    return {f for f in forms if len(re.sub(r"\D", "", f).lstrip("0")) >= 3 and "e" not in f}


def _visible_text(path):
    """Sources and text outputs of a notebook (not cell ids or metadata)."""
    notebook = json.loads(path.read_text())
    parts = []
    for cell in notebook["cells"]:
        parts.append("".join(cell["source"]))
        for output in cell.get("outputs", []):
            parts.append("".join(output.get("text", "")))
            for mime, data in output.get("data", {}).items():
                if mime.startswith("text/"):
                    parts.append("".join(data))
    return "\n".join(parts)


@pytest.mark.parametrize("chapter", sorted(CHAPTERS))
def test_every_chapter_has_three_checked_exercises_and_a_five_question_quiz(chapter):
    assert len(keys(f"ch{chapter}", "ex")) >= 3
    assert len(keys(f"ch{chapter}", "q")) == 5


@pytest.mark.parametrize("path", PRACTICE, ids=lambda p: p.name)
def test_practice_page_checks_every_key_of_its_chapter_and_proves_them(path):
    chapter = int(re.match(r"ch(\d+)_", path.name).group(1))
    text = _visible_text(path)
    for key in keys(f"ch{chapter}"):
        assert f'check("{key}", ...)' in text
    assert f"verify_chapter({chapter})" in text
    assert f"{len(keys(f'ch{chapter}'))} of {len(keys(f'ch{chapter}'))} checks behave" in text


@pytest.mark.parametrize("path", PRACTICE, ids=lambda p: p.name)
def test_practice_page_asks_each_question_before_the_cell_that_answers_it(path):
    cells = json.loads(path.read_text())["cells"]
    chapter = int(re.match(r"ch(\d+)_", path.name).group(1))
    for key in keys(f"ch{chapter}"):
        where = [i for i, c in enumerate(cells) if "".join(c["source"]).strip() == f'check("{key}", ...)']
        assert len(where) == 1, f"{key}: {len(where)} answer cells"
        question = "".join(cells[where[0] - 1]["source"])
        assert cells[where[0] - 1]["cell_type"] == "markdown" and show(key).markdown() in question, \
            f"{key}: the cell above its answer cell is not its current question (run tools/build_practice.py)"
        outputs = json.dumps(cells[where[0]].get("outputs", []))
        assert EXERCISES[key].prompt[:40].replace('"', '\\"') not in outputs, f"{key}: the question is printed twice"


@pytest.mark.parametrize("path", PRACTICE, ids=lambda p: p.name)
def test_no_answer_appears_in_clear_on_a_practice_page(path):
    chapter = int(re.match(r"ch(\d+)_", path.name).group(1))
    text = _visible_text(path)
    leaks = [(key, form) for key in keys(f"ch{chapter}") if key in NUMERIC for form in _forms(expected(key))
             if re.search(rf"(?<![\d.,]){re.escape(form)}(?![\d])", text)]
    assert leaks == []
