"""Run every test of the project, as CI does.

Steps, in order (each one runs even if an earlier one failed, so one run shows
every failure; the exit status is non-zero if any failed):

1. pytest: unit, property and published-value tests, and the library's doctests;
2. nbval in strict mode on every notebook under book/;
3. the Jupyter Book build from a clean _build, warnings as errors;
4. the PDF (tools/build_pdf.py): the whole book through LaTeX, checked for its
   exit status, page count, unresolved references, overfull lines, missing
   glyphs and the library guide's share of the pages;
5. browser tests on the built book and in JupyterLab (tests/browser).

Usage (from the repository root, inside the environment the README sets up)::

    python tools/check.py            # everything
    python tools/check.py --fast     # steps 1 and 2 only

Each step's duration is printed and written to test-artifacts/check-timings.json
(the benchmarks report it); a failing browser test leaves a screenshot and
the page's console log in test-artifacts/browser/ and prints their paths.
The PDF lands in <build dir>/_build/pdf/_build/latex/interconnect-lab.pdf, beside
its LaTeX log.

The pytest steps run on two workers (pytest-xdist; a notebook's cells, and a
browser test file's tests, stay together on one worker with ``--dist
loadfile``, so each file starts one kernel or one JupyterLab server), which keeps the whole run under 20 minutes on a 2-core machine.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PY = sys.executable
TIMINGS = ROOT / "test-artifacts" / "check-timings.json"


WORKERS = ["-n", "2"]
BY_FILE = [*WORKERS, "--dist", "loadfile"]


def steps(build_dir: Path):
    browser = ROOT / "tests" / "browser"
    return [
        ("unit, property and published-value tests",
         [PY, "-m", "pytest", "tests", "interconnect_lab", f"--ignore={browser}", "-q", *WORKERS]),
        ("notebooks (nbval, strict)",
         [PY, "-m", "pytest", "--nbval", "--nbval-sanitize-with", "tests/nbval_sanitize.cfg",
          "book", "-q", *BY_FILE]),
        ("book build (clean, -W -n --keep-going)",
         [str(Path(PY).parent / "jupyter-book"), "build", ".", "--path-output", str(build_dir),
          "-W", "-n", "--keep-going"]),
        # From the notebooks' committed outputs (which nbval checked), in its own folder so
        # the HTML book and its doctrees stay as built for the browser tests.
        ("PDF (LaTeX)",
         [PY, str(ROOT / "tools" / "build_pdf.py"), "--path-output", str(build_dir / "_build" / "pdf")]),
        ("browser tests", [PY, "-m", "pytest", str(browser), "-q", *BY_FILE]) if browser.exists() else None,
    ]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fast", action="store_true", help="only the pytest and nbval steps")
    args = parser.parse_args(argv)
    os.chdir(ROOT)
    # The book lands in <build_dir>/_build/html; the browser tests read BOOK_BUILD_DIR.
    build_dir = Path(os.environ.setdefault("BOOK_BUILD_DIR", str(ROOT))).resolve()
    results = []
    started_all = time.perf_counter()
    for step in steps(build_dir)[: 2 if args.fast else None]:
        if step is None:
            continue
        name, command = step
        if name.startswith("book build"):
            shutil.rmtree(build_dir / "_build", ignore_errors=True)
        print(f"\n=== {name}\n$ {' '.join(command)}", flush=True)
        started = time.perf_counter()
        code = subprocess.call(command, cwd=ROOT)
        results.append((name, code, time.perf_counter() - started))
    total_s = time.perf_counter() - started_all
    print("\n=== summary")
    for name, code, elapsed in results:
        print(f"{'PASS' if code == 0 else 'FAIL'}  {elapsed:7.1f} s  {name}")
    print(f"total {total_s:.1f} s")
    TIMINGS.parent.mkdir(parents=True, exist_ok=True)
    TIMINGS.write_text(json.dumps({
        "finished": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "fast": args.fast, "total_s": round(total_s, 2),
        "steps": [{"name": name, "passed": code == 0, "seconds": round(elapsed, 2)}
                  for name, code, elapsed in results],
    }, indent=1) + "\n")
    return 0 if all(code == 0 for _, code, _ in results) else 1


if __name__ == "__main__":
    sys.exit(main())
