"""Tests of ``interconnect_lab.exercises.core``: checking a student's answer against a stored hash,
with feedback on units.
"""

import re
from pathlib import Path

from interconnect_lab import exercises
from interconnect_lab.exercises import EXERCISES, Numeric


ROOT = Path(__file__).resolve().parents[2]

NUMERIC = [key for key, spec in EXERCISES.items() if isinstance(spec, Numeric)]


def expected(key):
    return EXERCISES[key].expected()


def _forms(value):
    """How an answer would look if printed: forms with three or more significant digits."""
    forms = {f"{value:.3g}", f"{value:.4g}", f"{value:.5g}", f"{value:.2f}", f"{value:.1f}", f"{value:,.1f}"}
    if float(value).is_integer():
        forms |= {f"{int(value)}", f"{int(value):,}"}
    return {f for f in forms if len(re.sub(r"\D", "", f).lstrip("0")) >= 3 and "e" not in f}


def test_no_numeric_answer_appears_in_clear_in_the_instructors_guide():
    text = (ROOT / "book" / "appendices" / "instructors.md").read_text()
    leaks = [(key, form) for key in NUMERIC for form in _forms(expected(key))
             if re.search(rf"(?<![\d.,]){re.escape(form)}(?![\d])", text)]
    assert leaks == []


def test_no_answer_appears_in_clear_in_the_store():
    text = (ROOT / "interconnect_lab" / "exercises" / "store.py").read_text()
    leaks = [(key, form) for key in NUMERIC for form in _forms(expected(key)) if "." in form and form in text]
    assert leaks == []


def test_adding_an_exercise_is_one_entry():
    # A chapter written later (11-14) gets checks from one registry entry, with no other change.
    from interconnect_lab.exercises.core import digest, judge, token

    spec = exercises.bank.numeric("ch99.ex1", "A test", "Twice a GB, in GB.", lambda: 2e9, unit="GB", scale=1e9)
    stored = ("salt", digest("salt", spec.key, token(spec, spec.expected())))
    assert judge(spec, stored, 2.0).correct
    assert judge(spec, stored, 16.0).verdict == "units"
