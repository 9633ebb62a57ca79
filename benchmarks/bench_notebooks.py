"""Every notebook in book/, executed top to bottom from a fresh kernel (kernel start included).

Budget: 30 s per chapter on 2 cores. The notebooks on disk are not changed.

Usage: ``python benchmarks/bench_notebooks.py``
"""

from __future__ import annotations

import sys

import benchlib

sys.path.insert(0, str(benchlib.ROOT / "tools"))

from execute_notebooks import execute, notebooks  # noqa: E402

BUDGET_S = 30


def main() -> int:
    for path in notebooks([]):
        name = path.relative_to(benchlib.ROOT / "book").as_posix()
        try:
            seconds = execute(path, timeout_s=300, write=False)
        except Exception as error:  # report and go on: the tests say what broke
            print(f"{name}: failed: {type(error).__name__}: {str(error)[:300]}")
            continue
        benchlib.record("notebooks", f"{name}: execution", seconds=seconds, budget_s=BUDGET_S,
                        note="fresh kernel, top to bottom")
    return 0


if __name__ == "__main__":
    sys.exit(main())
