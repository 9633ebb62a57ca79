"""Start-up: what ``import interconnect_lab`` costs, and what a chapter's first imports cost.

Each measurement is a fresh interpreter (``python -c ...``) timed from outside,
minus the same interpreter doing nothing, so it is the import alone. Bytecode
is cached (as in any installed copy): one untimed run first writes it.

- ``import interconnect_lab``: the package itself (budget 0.3 s). Submodules
  and re-exported names load when first used (PEP 562), and the fabric loads
  SciPy only when a simulation runs.
- ``from interconnect_lab import catalog, collectives, training``: what a
  chapter's first cell typically pays (numpy included); no budget.

Usage: ``python benchmarks/bench_startup.py``
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time

import benchlib

IMPORT_BUDGET_S = 0.3


def _run(code, env):
    started = time.perf_counter()
    subprocess.run([sys.executable, "-c", code], check=True, env=env, cwd=benchlib.ROOT)
    return time.perf_counter() - started


def timed(code, repeat):
    env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    _run(code, env)  # writes the bytecode cache
    baseline = statistics.median(_run("pass", env) for _ in range(repeat))
    return [max(_run(code, env) - baseline, 0.0) for _ in range(repeat)]


def main():
    repeat = 5 if benchlib.quick() else 15
    benchlib.record("startup", "import interconnect_lab", samples_s=timed("import interconnect_lab", repeat),
                    budget_s=IMPORT_BUDGET_S, note="fresh interpreter, minus an empty one; submodules load on use")
    benchlib.record("startup", "from interconnect_lab import catalog, collectives, training",
                    samples_s=timed("from interconnect_lab import catalog, collectives, training", repeat),
                    note="a chapter's first imports, numpy included")


if __name__ == "__main__":
    main()
