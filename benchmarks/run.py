"""Run every benchmark and print one table: measurements against their budgets (not pass/fail).

Runs each ``benchmarks/bench_*.py`` in its own process (from a scratch copy
of this folder, so no module writes into the repository), collects the rows
they report through ``benchlib.record``, then runs the whole test command
(``tools/check.py``) and reports its total time and each step's, including the
book build. Prints the table and writes it as JSON (and as Markdown with
``--markdown``). See benchmarks/README.md for the convention a module follows.

Usage (from the repository root, inside the environment the README sets up)::

    python benchmarks/run.py                      # everything (about 10 minutes on 2 cores)
    python benchmarks/run.py --quick --skip-check # fewer repeats; reuse the last test-command timings
    python benchmarks/run.py --only widgets       # modules whose name contains "widgets"
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
ARTIFACTS = ROOT / "test-artifacts" / "benchmarks"
CHECK_TIMINGS = ROOT / "test-artifacts" / "check-timings.json"
TEST_COMMAND_BUDGET_S = 20 * 60
MODULE_TIMEOUT_S = 900
ROW_LINE = re.compile(r"^\[[\w .-]+\] .+: median ")


def modules(only: str | None) -> list[Path]:
    found = sorted(HERE.glob("bench_*.py"))
    return [m for m in found if only is None or only in m.stem]


def run_module(module: Path, scratch: Path, quick: bool, timeout_s: float) -> dict:
    """Run one module as a script; return its rows and how it went."""
    results = scratch / f"{module.stem}.results.jsonl"
    log = ARTIFACTS / f"{module.stem}.log"
    env = dict(os.environ, INTERCONNECT_BENCHMARK_RESULTS=str(results), INTERCONNECT_BENCHMARK_ROOT=str(ROOT),
               INTERCONNECT_BENCHMARK_QUICK="1" if quick else "0", PYTHONUNBUFFERED="1")
    print(f"--- {module.name}", flush=True)
    started = time.perf_counter()
    status = "ok"
    with open(log, "w", encoding="utf-8") as output:
        process = subprocess.Popen([sys.executable, str(scratch / module.name)], cwd=ROOT, env=env,
                                   stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                   start_new_session=True)
        deadline = started + timeout_s
        for line in process.stdout:  # echo and keep what the module prints
            output.write(line)
            if ROW_LINE.match(line):  # the rows benchlib.record prints
                print("   ", line.rstrip(), flush=True)
            if time.perf_counter() > deadline:
                break
        try:
            code = process.wait(timeout=max(1.0, deadline - time.perf_counter()))
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, 9)
            process.wait()
            code, status = None, f"timed out after {timeout_s:.0f} s"
    seconds = time.perf_counter() - started
    if code not in (0, None):
        status = f"exit {code}"
    rows = []
    if results.exists():
        rows = [json.loads(line) for line in results.read_text().splitlines() if line.strip()]
    for row in rows:
        row["module"] = module.name
    print(f"    {len(rows)} rows, {seconds:.1f} s, {status}; log: {log.relative_to(ROOT)}", flush=True)
    return {"module": module.name, "seconds": round(seconds, 2), "status": status, "rows": rows,
            "log": str(log.relative_to(ROOT))}


def test_command_rows(skip: bool) -> list[dict]:
    """Rows for the whole test command and its steps, from a fresh run or the last one recorded."""
    note = ""
    if not skip:
        print("--- tools/check.py (the README's test command after installation)", flush=True)
        with open(ARTIFACTS / "check.log", "w", encoding="utf-8") as log:
            subprocess.call([sys.executable, str(ROOT / "tools" / "check.py")], cwd=ROOT, stdout=log,
                            stderr=subprocess.STDOUT)
    if not CHECK_TIMINGS.exists():
        return []
    timings = json.loads(CHECK_TIMINGS.read_text())
    if skip:
        note = f"recorded {timings['finished']}"
    if timings.get("fast"):
        note = (note + "; " if note else "") + "--fast run only"
    failed = [s["name"] for s in timings["steps"] if not s["passed"]]
    status_note = f"; steps failing: {', '.join(failed)}" if failed else "; every step passed"
    rows = [{"group": "test command", "name": "tools/check.py, all steps", "unit": "s",
             "median": timings["total_s"], "p95": None, "n": 1, "budget": TEST_COMMAND_BUDGET_S,
             "note": (note + status_note).lstrip("; "), "module": "run.py"}]
    for step in timings["steps"]:
        rows.append({"group": "test command", "name": step["name"], "unit": "s", "median": step["seconds"],
                     "p95": None, "n": 1, "budget": None, "module": "run.py",
                     "note": "passed" if step["passed"] else "FAILED"})
    return rows


FIRST_GROUPS = ["widgets", "jupyterlab", "notebooks"]  # what a reader feels, first


def group_rank(group: str):
    return (FIRST_GROUPS.index(group), "") if group in FIRST_GROUPS else (len(FIRST_GROUPS), group)


def status(row: dict) -> str:
    if row.get("budget") is None:
        return ""
    slack = 1e-9 * abs(row["budget"])  # a value at its budget is within it, float rounding aside
    if row["median"] > row["budget"] + slack:
        return "OVER"
    if row.get("p95") is not None and row["p95"] > row["budget"] + slack:
        return "ok (p95 over)"
    return "ok"


def _number(value) -> str:
    return "" if value is None else f"{value:.3g}" if value < 100 else f"{value:,.0f}"


def table(rows: list[dict]) -> list[list[str]]:
    header = ["group", "measurement", "median", "p95", "unit", "budget", "status", "note"]
    body = [[r["group"], r["name"], _number(r["median"]), _number(r.get("p95")), r["unit"],
             _number(r.get("budget")), status(r), r.get("note", "")] for r in rows]
    return [header] + body


def print_table(lines: list[list[str]]) -> None:
    widths = [max(len(line[i]) for line in lines) for i in range(len(lines[0]) - 1)]
    for number, line in enumerate(lines):
        cells = [cell.ljust(width) if i in (0, 1, 4, 6) else cell.rjust(width)
                 for i, (cell, width) in enumerate(zip(line, widths))]
        print("  ".join(cells + [line[-1]]).rstrip())
        if number == 0:
            print("  ".join("-" * w for w in widths) + "  ----")


def markdown(lines: list[list[str]], machine: dict, modules_run: list[dict]) -> str:
    out = [f"# Benchmark results\n",
           f"Measured {machine['date']} on {machine['cpus']} cores ({machine['cpu']}), Python {machine['python']}, "
           f"load average {machine['load']} at the start. Produced by `python benchmarks/run.py "
           f"--markdown benchmarks/RESULTS.md`; budgets are DESIGN.md's. Status compares the median with the "
           f"budget (and says when the 95th percentile is over it).\n",
           "| " + " | ".join(lines[0]) + " |", "|" + "|".join("---" for _ in lines[0]) + "|"]
    out += ["| " + " | ".join(cell.replace("|", "\\|") for cell in line) + " |" for line in lines[1:]]
    out += ["", "Modules: " + "; ".join(f"`{m['module']}` {m['seconds']:.0f} s ({m['status']})"
                                         for m in modules_run) + "."]
    return "\n".join(out) + "\n"


def machine_info() -> dict:
    cpu = platform.processor() or ""
    try:
        cpu = next(line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo") if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    return {"date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
            "cpus": os.cpu_count(), "cpu": cpu or "unknown CPU", "python": platform.python_version(),
            "platform": platform.platform(), "load": round(load, 2)}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repeats (modules read benchlib.quick())")
    parser.add_argument("--skip-check", action="store_true",
                        help="do not run tools/check.py; report its last recorded timings")
    parser.add_argument("--only", help="run only modules whose name contains this")
    parser.add_argument("--timeout", type=float, default=MODULE_TIMEOUT_S, help="per-module limit [s]")
    parser.add_argument("--json", type=Path, default=ARTIFACTS / "results.json", help="where to write the JSON")
    parser.add_argument("--markdown", type=Path, help="also write the table as Markdown here")
    args = parser.parse_args(argv)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    machine = machine_info()
    modules_run = []
    with tempfile.TemporaryDirectory() as scratch:
        scratch = Path(scratch)
        shutil.copytree(HERE, scratch, dirs_exist_ok=True, ignore=shutil.ignore_patterns("__pycache__"))
        for module in modules(args.only):
            modules_run.append(run_module(module, scratch, args.quick, args.timeout))
    rows = sorted((row for m in modules_run for row in m["rows"]), key=lambda row: group_rank(row["group"]))
    rows += [{"group": "modules", "name": f"{m['module']}: whole run", "unit": "s", "median": m["seconds"],
              "p95": None, "n": 1, "budget": None, "module": m["module"],
              "note": m["status"] + ("" if m["rows"] else "; reports no rows (prints only: see its log)")}
             for m in modules_run]
    if args.only is None or args.skip_check:
        rows += test_command_rows(skip=args.skip_check)
    lines = table(rows)
    print()
    print_table(lines)
    over = [f"{r['group']}: {r['name']}" for r in rows if status(r) == "OVER"]
    print(f"\n{len(rows)} rows; over budget: {', '.join(over) if over else 'none'}")
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps({"machine": machine, "rows": [dict(r, status=status(r)) for r in rows],
                                     "modules": [{k: v for k, v in m.items() if k != "rows"}
                                                 for m in modules_run]}, indent=1) + "\n")
    print(f"wrote {args.json}")
    if args.markdown:
        # Keep the hand-written explanations (from a "## Notes" heading on) across refreshes.
        previous = args.markdown.read_text() if args.markdown.exists() else ""
        notes = previous[previous.index("\n## Notes"):] if "\n## Notes" in previous else ""
        args.markdown.write_text(markdown(lines, machine, modules_run) + notes)
        print(f"wrote {args.markdown}")
    broken = [m for m in modules_run if m["status"] != "ok"]
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main())
