"""Re-execute the book's notebooks in place, storing outputs and widget state.

Run this after changing the library or a chapter, then read the diff: nbval
compares every text output with the fresh run, so the committed outputs are
the book's record of what the model says. Widget state is stored so that a
notebook opened in JupyterLab, or on GitHub, shows its panels as last run
(the rendered book executes the notebooks again and precomputes its panels).

Usage (from the repository root)::

    python tools/execute_notebooks.py              # every notebook under book/
    python tools/execute_notebooks.py book/01_gpu_paradox.ipynb
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parent.parent


def notebooks(paths):
    if paths:
        return [Path(p).resolve() for p in paths]
    return sorted(p for p in (ROOT / "book").rglob("*.ipynb") if ".ipynb_checkpoints" not in p.parts)


def execute(path: Path, timeout_s: int, *, write: bool = True) -> float:
    """Run ``path`` top to bottom in a fresh kernel; return the seconds taken (kernel start included).

    With ``write=False`` the notebook file is left as it is (the benchmarks time it so).
    """
    notebook = nbformat.read(path, as_version=4)
    started = time.perf_counter()
    client = NotebookClient(
        notebook,
        timeout=timeout_s,
        kernel_name="python3",
        resources={"metadata": {"path": str(path.parent)}},
        store_widget_state=True,
        record_timing=False,
    )
    client.execute()
    elapsed = time.perf_counter() - started
    if write:
        nbformat.write(notebook, path)
    return elapsed


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="*", help="notebooks to run (default: all under book/)")
    parser.add_argument("--timeout", type=int, default=120, help="per-cell timeout [s]")
    args = parser.parse_args(argv)
    for path in notebooks(args.paths):
        elapsed = execute(path, args.timeout)
        print(f"{path.relative_to(ROOT)}: {elapsed:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
