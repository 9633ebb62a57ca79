"""Checking a student's answer against a stored hash, with feedback on units.

An exercise's answer is computed by the library (see ``exercises/bank/``). What is
stored (``exercises/store.py``) is not that value but a salted SHA-256 of it quantised
to a band: the logarithm of the answer, in steps of twice the tolerance, for a
number; the integer itself for a count; the letter for a multiple choice. A
student's answer is quantised the same way and its hash compared, so the page
source never holds an answer in clear.

This deters reading the answer off the page; it is not a secret. The bands
are few, and anyone can compute the answer with the library, which is the
point of the book.
"""

from __future__ import annotations

import hashlib
import math
import re
import numbers
from dataclasses import dataclass, field
from typing import Callable

__all__ = ["Numeric", "Choice", "Result", "Prompt", "Verification", "UNIT_SLIPS", "CLOSE_BANDS", "token",
           "digest", "judge", "close_bound"]

#: Factors a right answer in the wrong unit is off by, most common slip first,
#: with what probably went wrong. An answer off by a factor here (or its
#: inverse) is "right order of magnitude but wrong units".
UNIT_SLIPS: tuple[tuple[float, str], ...] = (
    (8.0, "bits and bytes mixed up (a factor of 8)"),
    (2.0, "per direction and both directions mixed up (a factor of 2)"),
    (100.0, "a fraction and a percentage mixed up (a factor of 100)"),
    (1e3, "a decimal prefix off by one step (k, M, G, T: a factor of 1,000)"),
    (1e6, "a decimal prefix off by two steps (a factor of a million)"),
    (1e9, "a decimal prefix off by three steps (a factor of a billion)"),
    (1e12, "a decimal prefix off by four steps (a factor of 10^12)"),
    (1024**2 / 1000**2, "binary and decimal prefixes mixed up (MiB and MB)"),
    (1024**3 / 1000**3, "binary and decimal prefixes mixed up (GiB and GB)"),
    (1024**4 / 1000**4, "binary and decimal prefixes mixed up (TiB and TB)"),
    (1024.0, "a binary prefix off by one step (a factor of 1,024)"),
    (1024.0**2, "a binary prefix off by two steps (a factor of 1,048,576)"),
    (1024.0**3, "a binary prefix off by three steps (a factor of 2^30)"),
    (8e3, "bits and bytes and a decimal prefix (a factor of 8,000)"),
    (8e6, "bits and bytes and a decimal prefix (a factor of 8 million)"),
    (8e9, "bits and bytes and a decimal prefix (a factor of 8 billion)"),
    (16.0, "bits and bytes, and per direction against both (a factor of 16)"),
    (60.0, "seconds and minutes, or minutes and hours (a factor of 60)"),
    (3600.0, "seconds and hours (a factor of 3,600)"),
    (86400.0, "seconds and days (a factor of 86,400)"),
    (24.0, "hours and days (a factor of 24)"),
    (365.0, "days and years (a factor of 365)"),
)

#: How far "close" reaches, in tolerance bands beyond the accepted ones. An answer outside an
#: exercise's tolerance is "close" when it is off by less than about six times that tolerance, and
#: never when it is off by more than :func:`close_bound` (8.3 % for a 1 % tolerance; 0.8 % for
#: 0.1 %): a few percent, and tighter for an exercise that asks for more precision.
CLOSE_BANDS = 2

#: A binary prefix (a factor of 1,024, or 1.049 to 1.100 between MiB and MB, GiB and GB, TiB and
#: TB) can only have slipped into an exercise whose unit or question speaks of bytes or bits. Those
#: slips are not named elsewhere: a percentage 10% off is a wrong percentage, not a TiB taken for
#: a TB.
_DATA_WORDS = re.compile(r"(?<![A-Za-z])[kKMGTPE]i?[Bb](?:/s)?(?![A-Za-z0-9])|(?<![A-Za-z0-9])B/s|\bbytes?\b|\bbits?\b")


def _is_binary_slip(factor: float) -> bool:
    return any(math.isclose(factor, (1024 / 1000) ** k) or math.isclose(factor, 1024.0 ** k) for k in (1, 2, 3, 4))


@dataclass(frozen=True)
class Numeric:
    """An exercise whose answer is a number, computed by the library.

    Parameters
    ----------
    key : str
        ``"ch<chapter>.ex<n>"`` or ``"ch<chapter>.q<n>"`` (a quiz question).
    title : str
        A few words, shown as the exercise's heading.
    prompt : str
        The question, in Markdown. It names its inputs (catalog entries,
        sizes, counts) but never the answer.
    answer : callable
        No arguments; returns the answer in base SI units (the library's).
    unit : str
        The unit the student answers in, e.g. ``"GB/s"`` or ``"%"``.
    scale : float
        That unit in base SI (``units.GB_per_s``; 0.01 for a percentage).
    rtol : float
        Relative tolerance: answers within it are always accepted; answers
        further than four times it never are (the band is quantised). It also
        sets what counts as *close* (:data:`CLOSE_BANDS`, :func:`close_bound`).
    exact : bool
        The answer is a count: only the exact integer is right.
    hint : str
        Shown with a wrong answer: where to look, not what to find.
    binary_prefixes : bool or None
        Whether a binary prefix (GiB against GB) can have slipped into the
        answer, so that an answer off by 1.049 to 1.100 or by 1,024 is named
        as that slip. None (the default): when the unit or the question speaks
        of bytes or bits. Set it for a follow-up whose data size comes from an
        earlier exercise.
    """

    key: str
    title: str
    prompt: str
    answer: Callable[[], float]
    unit: str
    scale: float = 1.0
    rtol: float = 0.01
    exact: bool = False
    hint: str = ""
    binary_prefixes: bool | None = None

    def expected(self) -> float:
        """The library's current answer, in :attr:`unit`."""
        return float(self.answer()) / self.scale

    @property
    def width(self) -> float:
        """Width of one quantisation band, in natural-log units."""
        return 2.0 * math.log1p(self.rtol)

    @property
    def about_data(self) -> bool:
        """A binary prefix can have slipped in: ``binary_prefixes``, or where that is None, the unit
        or the question speaks of bytes or bits (``GiB``, ``Gb/s``, "bytes")."""
        if self.binary_prefixes is not None:
            return self.binary_prefixes
        return bool(_DATA_WORDS.search(self.unit) or _DATA_WORDS.search(self.prompt))


@dataclass(frozen=True)
class Choice:
    """A multiple-choice question; the answer is a letter, ``"a"``, ``"b"``, ...

    ``answer`` is a callable like :class:`Numeric`'s; where it can, it
    computes the letter with the library (so a change of the model that
    changes the right option changes the answer).
    """

    key: str
    title: str
    prompt: str
    options: tuple[str, ...]
    answer: Callable[[], str]
    hint: str = ""

    def expected(self) -> str:
        letter = self.answer()
        if letter not in self.letters:
            raise ValueError(f"{self.key}: answer {letter!r} is not one of {self.letters}")
        return letter

    @property
    def letters(self) -> tuple[str, ...]:
        return tuple("abcdefghij"[: len(self.options)])


def digest(salt: str, key: str, token_: str) -> str:
    """The stored form of one quantised answer."""
    return hashlib.sha256(f"{salt}|{key}|{token_}".encode()).hexdigest()[:32]


def _band(spec: Numeric, value: float) -> int:
    return round(math.log(abs(value)) / spec.width)


def token(spec, value) -> str:
    """The quantised form of ``value`` (in the exercise's unit) that is hashed."""
    if isinstance(spec, Choice):
        return f"choice:{value}"
    if spec.exact:
        return f"count:{int(round(value))}"
    if value == 0:
        return "zero"
    return f"{'-' if value < 0 else '+'}{_band(spec, value)}"


@dataclass(frozen=True)
class Prompt:
    """An exercise's question, for display in a notebook."""

    spec: Numeric | Choice

    def markdown(self) -> str:
        spec = self.spec
        lines = [spec.prompt]
        if isinstance(spec, Choice):
            lines += [""] + [f"- ({letter}) {option}" for letter, option in zip(spec.letters, spec.options)]
            lines += ["", f'Answer with a letter: `check("{spec.key}", "a")`.']
        else:
            what = "an integer" if spec.exact else \
                f"a number in **{spec.unit}** (within {_percent(spec.rtol)})"
            lines += ["", f"Answer with {what}: `check(\"{spec.key}\", your_answer)`."]
        return "\n".join(lines)

    def _repr_markdown_(self) -> str:
        return self.markdown()

    def __repr__(self) -> str:
        body = self.markdown().replace("**", "").replace("`", "")
        return f"{self.spec.key}: {self.spec.title}\n\n{body}"


VERDICT_TEXT = {
    "right": "Right.",
    "units": "Right order of magnitude, wrong units.",
    "close": "Close, but not within the tolerance.",
    "wrong": "Not right yet.",
    "unanswered": "Not answered yet.",
    "invalid": "That is not an answer this exercise can check.",
}


@dataclass(frozen=True)
class Result:
    """The verdict on one answer; ``correct`` is True only for ``"right"``."""

    key: str
    verdict: str
    message: str
    hint: str = ""
    prompt: Prompt | None = field(default=None, repr=False)

    @property
    def correct(self) -> bool:
        return self.verdict == "right"

    def __bool__(self) -> bool:
        return self.correct

    def text(self) -> str:
        lines = [f"{self.key}: {VERDICT_TEXT[self.verdict]} {self.message}".rstrip()]
        if self.hint and self.verdict not in {"right", "unanswered"}:
            lines.append(f"Hint: {self.hint}")
        return "\n".join(lines)

    def __repr__(self) -> str:
        return self.text()

    def _repr_markdown_(self) -> str:
        lines = [f"**{VERDICT_TEXT[self.verdict]}** {self.message}".rstrip()]
        if self.hint and self.verdict not in {"right", "unanswered"}:
            lines += ["", f"*Hint:* {self.hint}"]
        return "\n".join(lines)


def _matches(spec, stored: tuple[str, str], value, *, reach: int = 1) -> bool:
    salt, expected = stored
    if isinstance(spec, Numeric) and not spec.exact and value != 0:
        # Accept the band of the answer and its neighbours: every answer within
        # rtol of the right one shares a band with it or lies next to it.
        band = _band(spec, value)
        sign = "-" if value < 0 else "+"
        return any(digest(salt, spec.key, f"{sign}{b}") == expected for b in range(band - reach, band + reach + 1))
    return digest(salt, spec.key, token(spec, value)) == expected


def judge(spec, stored: tuple[str, str], answer) -> Result:
    """Compare ``answer`` with the stored hash of ``spec``'s answer; say what is wrong."""
    prompt = Prompt(spec)
    if answer is None or answer is Ellipsis:
        unit = "a letter" if isinstance(spec, Choice) else ("an integer" if spec.exact else spec.unit)
        return Result(spec.key, "unanswered", f"Replace `...` with your answer ({unit}); "
                      f'`show("{spec.key}")` displays the question.', spec.hint, prompt)
    if isinstance(spec, Choice):
        letter = str(answer).strip().strip("()").lower() if isinstance(answer, str) else None
        if letter not in spec.letters:
            return Result(spec.key, "invalid", f"Answer with one of the letters {', '.join(spec.letters)}.",
                          spec.hint, prompt)
        if _matches(spec, stored, letter):
            return Result(spec.key, "right", f"({letter}) is the answer.", spec.hint, prompt)
        return Result(spec.key, "wrong", f"({letter}) is not the answer.", spec.hint, prompt)
    if isinstance(answer, bool) or not isinstance(answer, numbers.Real) or not math.isfinite(float(answer)):
        return Result(spec.key, "invalid", f"Give a finite number in {spec.unit}, not {answer!r}.",
                      spec.hint, prompt)
    value = float(answer)
    if spec.exact:
        if value != round(value):
            return Result(spec.key, "wrong", "The answer is a whole number.", spec.hint, prompt)
        if _matches(spec, stored, value):
            return Result(spec.key, "right", "Exactly.", spec.hint, prompt)
        return Result(spec.key, "wrong", "", spec.hint, prompt)
    if _matches(spec, stored, value):
        return Result(spec.key, "right", f"Within {_percent(spec.rtol)} of the library's answer.", spec.hint,
                      prompt)
    if value != 0:
        # Same band first, then neighbours, so that of two nearby factors
        # (GiB against GB, MiB against MB) the closer one is named.
        for reach in (0, 1):
            for factor, reason in UNIT_SLIPS:
                if _is_binary_slip(factor) and not spec.about_data:
                    continue
                for scaled, direction in ((value / factor, "large"), (value * factor, "small")):
                    if _matches(spec, stored, scaled, reach=reach):
                        return Result(spec.key, "units",
                                      f"Your answer is {_factor_text(factor)} times too {direction}: probably "
                                      f"{reason}. The answer is asked in {spec.unit}.", spec.hint, prompt)
        if _matches(spec, stored, value, reach=1 + CLOSE_BANDS):
            return Result(spec.key, "close",
                          f"Within {_percent(close_bound(spec), digits=2)} of the answer but not within its "
                          f"{_percent(spec.rtol)} tolerance: check the inputs you took from the catalog and "
                          "any rounding on the way.", spec.hint, prompt)
    return Result(spec.key, "wrong", "", spec.hint, prompt)


def close_bound(spec: Numeric) -> float:
    """The most a *close* answer to ``spec`` can be off by, as a fraction of the answer.

    Answers are hashed by band of width ``2 ln(1 + rtol)`` (:func:`token`); an answer
    is close when its band lies at most ``1 + CLOSE_BANDS`` bands from the answer's.
    Two values whose bands are ``k`` apart differ by less than ``k + 1`` widths,
    which bounds a close answer by ``(1 + rtol) ** (2 * (CLOSE_BANDS + 2)) - 1``:
    8.3 % for a 1 % tolerance. Answers off by less than ``2 * (CLOSE_BANDS + 1)``
    tolerances (6 %) and not accepted are always close.

    >>> round(close_bound(Numeric("x", "t", "p", lambda: 1.0, unit="s", rtol=0.01)), 3)
    0.083
    """
    return math.exp((CLOSE_BANDS + 2) * spec.width) - 1


def _percent(fraction: float, digits: int | None = None) -> str:
    return f"{fraction * 100:.{digits}g} %" if digits else f"{fraction * 100:g} %"


def _factor_text(factor: float) -> str:
    if factor >= 1000 and float(factor).is_integer():
        return f"{factor:,.0f}"
    return f"{factor:g}" if factor >= 1.2 else f"{factor:.3f}"


@dataclass(frozen=True)
class Verification:
    """What :func:`verify` found for one exercise (no answer in it)."""

    key: str
    accepts_right: bool
    rejects_wrong: bool
    flags_units: bool | None      # None where it does not apply (counts, multiple choice)

    @property
    def ok(self) -> bool:
        return self.accepts_right and self.rejects_wrong and self.flags_units is not False
