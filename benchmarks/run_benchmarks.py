"""Measure the course's performance budgets: each notebook's wall time and peak memory in a fresh kernel.

Usage::

    .venv/bin/python benchmarks/run_benchmarks.py                  # lecture notebooks
    .venv/bin/python benchmarks/run_benchmarks.py --all            # + solutions/ and exercises/
    .venv/bin/python benchmarks/run_benchmarks.py --suite          # + the whole test suite's wall time
    .venv/bin/python benchmarks/run_benchmarks.py --update-readme  # write the table into README.md

Budgets (course-design.md): each notebook under 30 s and 1 GB peak memory on 2 cores; the test
suite under 5 minutes, installs excluded. Over-budget rows are marked and the exit code is 1.
"""

from __future__ import annotations

import argparse
import os
import platform
import re
import subprocess
import sys
import threading
import time
from pathlib import Path

import nbformat
import psutil
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOK_BUDGET_S = 30.0
MEMORY_BUDGET_MB = 1024.0
SUITE_BUDGET_S = 300.0
README_START, README_END = "<!-- benchmark-table:start -->", "<!-- benchmark-table:end -->"


class PeakMemory:
    """Poll the resident memory of a process and its children in a background thread."""

    def __init__(self, pid: int, interval: float = 0.05):
        self.process = psutil.Process(pid)
        self.interval = interval
        self.peak_bytes = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                processes = [self.process, *self.process.children(recursive=True)]
                total = sum(p.memory_info().rss for p in processes if p.is_running())
                self.peak_bytes = max(self.peak_bytes, total)
            except psutil.Error:
                pass
            self._stop.wait(self.interval)

    def __enter__(self) -> "PeakMemory":
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._thread.join()


def run_notebook(path: Path) -> tuple[float, float]:
    """Execute ``path`` in a fresh kernel (outputs discarded); return (seconds, peak MB of the kernel)."""
    notebook = nbformat.read(path, as_version=4)
    client = NotebookClient(notebook, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(path.parent)}})
    start = time.perf_counter()
    with client.setup_kernel():
        pid = client.km.provisioner.process.pid
        with PeakMemory(pid) as memory:
            for index, cell in enumerate(notebook.cells):
                client.execute_cell(cell, index)
    return time.perf_counter() - start, memory.peak_bytes / 2**20


def run_suite() -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "pytest", "-q"], cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--all", action="store_true", help="also run solutions/ and exercises/")
    parser.add_argument("--suite", action="store_true", help="also time the whole test suite")
    parser.add_argument("--update-readme", action="store_true", help="write the table into README.md")
    args = parser.parse_args(argv)

    folders = ["notebooks", "solutions", "exercises"] if args.all else ["notebooks"]
    paths = [p for folder in folders for p in sorted((ROOT / folder).glob("*.ipynb"))]
    rows, over_budget, total = [], False, 0.0
    for path in paths:
        seconds, megabytes = run_notebook(path)
        total += seconds
        flag = seconds > NOTEBOOK_BUDGET_S or megabytes > MEMORY_BUDGET_MB
        over_budget |= flag
        rows.append(f"| `{path.relative_to(ROOT)}` | {seconds:.1f} | {megabytes:.0f} |{' **over budget**' if flag else ''}")
        print(rows[-1], flush=True)
    rows.append(f"| **total** | {total:.1f} | |")
    if args.suite:
        suite_seconds = run_suite()
        over_budget |= suite_seconds > SUITE_BUDGET_S
        rows.append(f"| test suite (`./course test`, installs excluded) | {suite_seconds:.1f} | |")

    cpu = f"{os.cpu_count()} cores, {platform.python_implementation()} {platform.python_version()}"
    table = "\n".join(
        [f"Measured {time.strftime('%Y-%m-%d')} on {cpu} with `benchmarks/run_benchmarks.py{' --all' if args.all else ''}{' --suite' if args.suite else ''}`:", "",
         "| notebook | wall time (s) | peak kernel memory (MB) |", "|---|---:|---:|", *rows]
    )
    print("\n" + table)
    if args.update_readme:
        readme = ROOT / "README.md"
        text = readme.read_text()
        pattern = re.compile(re.escape(README_START) + ".*?" + re.escape(README_END), re.DOTALL)
        if not pattern.search(text):
            raise SystemExit(f"README.md has no {README_START} ... {README_END} markers")
        readme.write_text(pattern.sub(f"{README_START}\n{table}\n{README_END}", text))
        print("README.md updated.")
    return 1 if over_budget else 0


if __name__ == "__main__":
    sys.exit(main())
