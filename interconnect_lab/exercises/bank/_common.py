"""What every chapter's exercises are built with."""

from __future__ import annotations

from ..core import Choice, Numeric

__all__ = ["numeric", "choice", "pick"]


def numeric(key, title, prompt, answer, *, unit, scale=1.0, rtol=0.01, exact=False, hint="", binary_prefixes=None):
    return Numeric(key=key, title=title, prompt=prompt, answer=answer, unit=unit, scale=scale, rtol=rtol,
                   exact=exact, hint=hint, binary_prefixes=binary_prefixes)


def choice(key, title, prompt, options, answer, *, hint=""):
    return Choice(key=key, title=title, prompt=prompt, options=tuple(options),
                  answer=answer if callable(answer) else (lambda: answer), hint=hint)


def pick(condition: bool) -> str:
    """``"a"`` if ``condition`` holds, else ``"b"`` (for a computed two-way choice)."""
    return "a" if condition else "b"
