"""Auto-checked exercises and quizzes: ``check("ch7.ex3", answer)`` in a notebook cell.

Each chapter has checked exercises (``ch<n>.ex<k>``) and a five-question quiz
(``ch<n>.q<k>``), listed with their questions in ``exercises/bank/`` (one module per chapter). Their answers
are computed by the library; what is stored (``exercises/store.py``) is a salted hash
of each answer quantised to its tolerance band, so neither the practice pages
nor this package hold an answer in clear.

>>> from interconnect_lab.exercises import check
>>> check("ch5.ex1", 1).verdict
'wrong'
>>> check("ch5.q1", "a").correct
True
>>> check("ch2.ex1", ...).verdict
'unanswered'

A verdict is ``"right"``, ``"units"`` (right order of magnitude, wrong unit:
off by 8 for bits and bytes, 2 for per direction and both, a power of 1,000
or 1,024, ...), ``"close"`` (off by a few times the tolerance: see ``core.CLOSE_BANDS``),
``"wrong"``, ``"unanswered"`` (``...`` or None) or ``"invalid"``.

Instructors: after a change to the library, ``python -m interconnect_lab.exercises``
reports the exercises whose stored hash no longer matches the library's answer,
and ``python -m interconnect_lab.exercises --write`` regenerates the store.
"""

from __future__ import annotations

import secrets

from . import bank
from .bank import CHAPTERS, EXERCISES, keys
from .core import Choice, Numeric, Prompt, Result, Verification, digest, judge, token

__all__ = ["check", "show", "verify", "verify_chapter", "stale", "store_entries", "keys", "EXERCISES",
           "CHAPTERS", "Result", "Numeric", "Choice", "Verification"]


def _spec(key: str):
    if not isinstance(key, str) or key not in EXERCISES:
        close = [k for k in EXERCISES if isinstance(key, str) and k.split(".")[0] == key.split(".")[0]]
        raise ValueError(f"unknown exercise {key!r}; this chapter's are: {', '.join(close) or 'none'}"
                         if close else f"unknown exercise {key!r}; keys look like 'ch7.ex3' or 'ch7.q1'")
    return EXERCISES[key]


def _stored(key: str) -> tuple[str, str]:
    from .store import STORE

    if key not in STORE:
        raise LookupError(f"no stored answer for {key!r}: run `python -m interconnect_lab.exercises --write`")
    return STORE[key]


def check(key: str, answer) -> Result:
    """Check ``answer`` to exercise ``key``; the result displays its verdict and a hint.

    Parameters
    ----------
    key : str
        ``"ch<chapter>.ex<n>"`` or ``"ch<chapter>.q<n>"``.
    answer : float, int or str
        A number in the unit the exercise asks for, or a letter for a
        multiple choice; ``...`` or None says what to type (:func:`show` displays
        the question; the practice pages print it above each check).

    Returns
    -------
    Result
        ``.verdict``, ``.correct``, ``.message`` and ``.hint``.
    """
    spec = _spec(key)
    return judge(spec, _stored(key), answer)


def show(key: str) -> Prompt:
    """The question of exercise ``key`` (displays as Markdown in a notebook).

    Parameters
    ----------
    key : str
        The exercise, ``"ch7.ex3"``.
    """
    return Prompt(_spec(key))


def verify(key: str) -> Verification:
    """Prove that ``key``'s check accepts the library's answer and rejects wrong ones.

    Computes the answer with the library, checks it, checks a wrong answer
    (1.5 times it; another letter) and, where units apply, the right answer
    in bits instead of bytes (times 8). Nothing of the answer is returned.

    Parameters
    ----------
    key : str
        The exercise, ``"ch7.ex3"``.
    """
    spec = _spec(key)
    stored = _stored(key)
    right = spec.expected()
    if isinstance(spec, Choice):
        wrong = next(letter for letter in spec.letters if letter != right)
        return Verification(key, judge(spec, stored, right).correct, not judge(spec, stored, wrong).correct,
                            None)
    wrong = right + 1 if spec.exact else right * 1.5
    slip = None if spec.exact else judge(spec, stored, right * 8).verdict == "units"
    return Verification(key, judge(spec, stored, right).correct, not judge(spec, stored, wrong).correct, slip)


class ChapterVerification(list):
    """The :class:`Verification` of every exercise of a chapter; prints as a table."""

    def __repr__(self) -> str:
        def mark(value):
            return "n/a" if value is None else ("yes" if value else "NO")

        rows = [f"{'exercise':<10} {'accepts right':>14} {'rejects wrong':>14} {'flags x8 as units':>18}"]
        rows += [f"{v.key:<10} {mark(v.accepts_right):>14} {mark(v.rejects_wrong):>14} "
                 f"{mark(v.flags_units):>18}" for v in self]
        rows.append(f"{sum(v.ok for v in self)} of {len(self)} checks behave")
        return "\n".join(rows)


def verify_chapter(chapter: int) -> ChapterVerification:
    """:func:`verify` every exercise and quiz question of a chapter; raise if any check misbehaves.

    Parameters
    ----------
    chapter : int
        The chapter's number, 7.
    """
    results = ChapterVerification(verify(key) for key in keys(f"ch{chapter}"))
    if not results:
        raise ValueError(f"chapter {chapter!r} has no checked exercises; chapters with some: "
                         f"{sorted({int(k.split('.')[0][2:]) for k in EXERCISES})}")
    failed = [v.key for v in results if not v.ok]
    if failed:
        raise AssertionError(f"checks that misbehave: {failed}\n{results!r}\n"
                             "if the library changed, run `python -m interconnect_lab.exercises --write`")
    return results


def store_entries(previous: dict | None = None) -> dict[str, tuple[str, str]]:
    """Salt and hash of every exercise's current answer; salts kept from ``previous``.

    Parameters
    ----------
    previous : dict, optional
        The store as it was (key -> (salt, hash)); its salts are kept.
    """
    previous = previous or {}
    entries = {}
    for key, spec in EXERCISES.items():
        salt = previous[key][0] if key in previous else secrets.token_hex(8)
        entries[key] = (salt, digest(salt, key, token(spec, spec.expected())))
    return entries


def stale() -> list[str]:
    """Exercises whose stored hash does not match the library's current answer (or that have none)."""
    from .store import STORE

    current = store_entries(STORE)
    return [key for key in EXERCISES if STORE.get(key) != current[key]]
