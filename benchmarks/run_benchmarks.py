"""Measure the course's performance budgets: each notebook run as a learner's tool runs it, and the floor.

Usage::

    .venv/bin/python benchmarks/run_benchmarks.py                  # lecture notebooks
    .venv/bin/python benchmarks/run_benchmarks.py --all            # + solutions/ and exercises/
    .venv/bin/python benchmarks/run_benchmarks.py --only 06 09     # lessons whose file names start so
    .venv/bin/python benchmarks/run_benchmarks.py --floor          # + the empty-notebook floor, here and
                                                                   #   in a plain environment (built once)
    .venv/bin/python benchmarks/run_benchmarks.py --floor --plain-python /path/to/python
    .venv/bin/python benchmarks/run_benchmarks.py --suite          # + the whole test suite's wall time
    .venv/bin/python benchmarks/run_benchmarks.py --runs 7         # median of 7 runs per notebook
    .venv/bin/python benchmarks/run_benchmarks.py --only 01 02 03 04 06 --runs 7 --anchors /path/to/anchors
                                                                   # side by side with the public notebooks
    .venv/bin/python benchmarks/run_benchmarks.py --update-readme  # write the table into README.md

Each notebook is timed as a whole ``jupyter nbconvert --to notebook --execute`` process (kernel start
included), the way the issue's side-by-side comparisons were made. The **floor** is the median time of
the same command on an empty notebook; "above floor" is a notebook's time minus the course's floor. With
``--floor`` the floor is also measured in a *plain* environment that has only the same versions of
nbconvert, nbclient, ipykernel and jupyter_client (no JupyterLab, no course), in paired runs alternating
the two sides; the course's process start should cost within 10% of it. Peak memory is the resident
memory of the kernel and everything it started (Spark's JVM included). The slowest cells come from the
timing nbclient records in each executed cell. With ``--runs N`` every time is the median of N runs.

**Anchors.** Issue 18 holds every lesson to at most 1.5 times the run time of the best public notebook on
its topic (:data:`ANCHORS`), timed side by side. The public notebooks are not part of the course (their
code is not ours to ship): put local copies in a folder, named ``NN_anything.ipynb`` after the lesson
they anchor, and pass ``--anchors FOLDER``. Each such lesson and its anchor are then run in pairs, the
order alternating, and the table gives both medians and their ratio. Without ``--anchors`` the ratio
column divides by the anchor's time in issue 18's own side-by-side table (marked "ref"), which was
measured on the same machine type but not in this run.

Budgets (course-design.md): each notebook under 30 s and 1 GB peak memory on 2 cores; the test
suite under 5 minutes, installs excluded. Over-budget rows are marked and the exit code is 1.
No test asserts on time: this script is where time is measured.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from datetime import datetime
from pathlib import Path

import nbformat
import psutil

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOK_BUDGET_S = 30.0
MEMORY_BUDGET_MB = 1024.0
SUITE_BUDGET_S = 300.0
FLOOR_TOLERANCE = 0.10
PLAIN_ENV = ROOT / "benchmarks" / ".plain-env"
PLAIN_PACKAGES = ("nbconvert", "nbclient", "nbformat", "ipykernel", "jupyter_client", "jupyter_core")
README_START, README_END = "<!-- benchmark-table:start -->", "<!-- benchmark-table:end -->"
ANCHOR_RATIO_LIMIT = 1.5

#: lesson prefix -> (the public notebook on its topic, its run time in seconds in issue 18's table:
#: whole ``nbconvert --execute`` runs, medians of 7 paired runs, 2-core machine of the course's type)
ANCHORS = {
    "01": ("Programming Differential Privacy (Near & Abuah), ch. 1", 5.4),
    "02": ("OpenDP documentation, additive noise mechanisms", 5.1),
    "03": ("Programming Differential Privacy (Near & Abuah), ch. 6", 5.3),
    "04": ("PyDP examples, restaurant demo", 17.2),
    "06": ("Programming Differential Privacy (Near & Abuah), ch. 14", 5.8),
}


def _proportional_bytes(process: psutil.Process) -> int:
    """PSS where the system reports it (Linux): a page shared by k processes counts 1/k in each, so a
    sum over processes counts it once. RSS elsewhere (it counts shared pages in every process)."""
    try:  # the kernel's own total: half the cost of psutil's memory_full_info, which reads every mapping
        with open(f"/proc/{process.pid}/smaps_rollup") as rollup:
            for line in rollup:
                if line.startswith("Pss:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    try:
        return process.memory_full_info().pss
    except (AttributeError, psutil.AccessDenied):
        return process.memory_info().rss


class PeakMemory:
    """Poll the memory of a process's descendants (not the process itself) in a thread.

    The sum is of proportional set sizes (PSS) on Linux: the kernel, Spark's JVM and Spark's Python
    workers forked from one daemon share pages, and a sum of resident sizes would count those pages
    once per process."""

    def __init__(self, pid: int, interval: float = 0.1):
        self.process = psutil.Process(pid)
        self.interval = interval
        self.peak_bytes = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                total = sum(_proportional_bytes(p) for p in self.process.children(recursive=True) if p.is_running())
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


def _cell_seconds(cell) -> float | None:
    execution = cell.get("metadata", {}).get("execution", {})
    start, end = execution.get("iopub.execute_input"), execution.get("shell.execute_reply")
    if not (start and end):
        return None
    parse = lambda stamp: datetime.fromisoformat(stamp.replace("Z", "+00:00"))  # noqa: E731
    return (parse(end) - parse(start)).total_seconds()


def run_nbconvert(python: str, path: Path) -> tuple[float, float, list[tuple[float, int, str]]]:
    """Run ``python -m jupyter nbconvert --execute`` on ``path``; return (seconds, peak MB, slowest cells)."""
    with tempfile.TemporaryDirectory() as scratch:
        output = Path(scratch) / "executed.ipynb"
        command = [python, "-m", "jupyter", "nbconvert", "--to", "notebook", "--execute",
                   "--ExecutePreprocessor.timeout=600", f"--output={output}", str(path)]
        environment = {**os.environ, "PYTHONPATH": str(ROOT)} if python == sys.executable else dict(os.environ)
        start = time.perf_counter()
        process = subprocess.Popen(command, cwd=path.parent, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                   env=environment)
        with PeakMemory(process.pid) as memory:
            _, stderr = process.communicate()
        seconds = time.perf_counter() - start
        if process.returncode != 0:
            raise RuntimeError(f"{path.name} failed:\n{stderr.decode(errors='replace')[-2000:]}")
        executed = nbformat.read(output, as_version=4)
    cells = [(_cell_seconds(cell), number, cell.source.strip().splitlines()[0][:60] if cell.source.strip() else "")
             for number, cell in enumerate(executed.cells, start=1) if cell.cell_type == "code"]
    slowest = sorted(((s, n, text) for s, n, text in cells if s is not None), reverse=True)[:3]
    return seconds, memory.peak_bytes / 2**20, slowest


def empty_notebook(folder: Path) -> Path:
    path = folder / "empty.ipynb"
    nbformat.write(nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("1 + 1")],
                                            metadata={"kernelspec": {"name": "python3", "display_name": "Python 3",
                                                                     "language": "python"}}), path)
    return path


def build_plain_environment() -> str:
    """A venv with only the course's versions of nbconvert, nbclient, ipykernel, jupyter_client (built once)."""
    python = PLAIN_ENV / "bin" / "python"
    if not python.exists():
        print(f"Building the plain comparison environment in {PLAIN_ENV} (once) ...", flush=True)
        subprocess.run([sys.executable, "-m", "venv", str(PLAIN_ENV)], check=True)
        subprocess.run([str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                        *PLAIN_PACKAGES, "-c", str(ROOT / "requirements" / "constraints.txt")], check=True)
    return str(python)


def measure_floor(plain_python: str | None, runs: int) -> dict:
    """Median nbconvert time of an empty notebook here (and in the plain environment), paired runs."""
    with tempfile.TemporaryDirectory() as scratch:
        empty = empty_notebook(Path(scratch))
        sides = {"course": sys.executable} | ({"plain": plain_python} if plain_python else {})
        times: dict[str, list[float]] = {side: [] for side in sides}
        for run in range(runs):
            order = list(sides.items()) if run % 2 == 0 else list(sides.items())[::-1]
            for side, python in order:
                times[side].append(run_nbconvert(python, empty)[0])
    return {side: statistics.median(values) for side, values in times.items()}


def find_anchors(folder: Path) -> dict[str, Path]:
    """The anchor notebooks in ``folder``, by the lesson prefix their names start with (``06_pdp_ch14.ipynb``)."""
    found: dict[str, Path] = {}
    for path in sorted(folder.glob("*.ipynb")):
        prefix = path.name[:2]
        if prefix in ANCHORS:
            if prefix in found:
                raise SystemExit(f"--anchors: two notebooks for lesson {prefix} ({found[prefix].name}, {path.name}); "
                                 "keep one.")
            found[prefix] = path
    return found


def run_paired(path: Path, anchor: Path | None, runs: int, anchor_python: str
               ) -> tuple[float, float, list[tuple[float, int, str]], float | None]:
    """Median time of ``runs`` runs of ``path`` (and of ``anchor``, alternating which goes first).

    Returns (median seconds, highest peak MB, slowest cells of the median run, anchor's median or None).
    """
    lesson_runs, anchor_times = [], []
    for run in range(runs):
        order = [("lesson", path), ("anchor", anchor)] if run % 2 == 0 else [("anchor", anchor), ("lesson", path)]
        for side, notebook in order:
            if notebook is None:
                continue
            if side == "lesson":
                lesson_runs.append(run_nbconvert(sys.executable, notebook))
            else:
                anchor_times.append(run_nbconvert(anchor_python, notebook)[0])
    lesson_runs.sort(key=lambda result: result[0])
    seconds, _, slowest = lesson_runs[(len(lesson_runs) - 1) // 2]
    megabytes = max(result[1] for result in lesson_runs)
    return (statistics.median(r[0] for r in lesson_runs), megabytes, slowest,
            statistics.median(anchor_times) if anchor_times else None)


def anchor_ratio(path: Path, seconds: float, anchor_seconds: float | None) -> tuple[float, float] | None:
    """(ratio, anchor seconds) for a lesson with an anchor: measured if given, else issue 18's reference."""
    if path.parent.name != "notebooks" or path.name[:2] not in ANCHORS:
        return None
    reference = ANCHORS[path.name[:2]][1] if anchor_seconds is None else anchor_seconds
    return seconds / reference, reference


def run_suite() -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "pytest", "-q"], cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--all", action="store_true", help="also run solutions/ and exercises/")
    parser.add_argument("--only", nargs="+", metavar="PREFIX", help="only notebooks whose names start so (e.g. 06)")
    parser.add_argument("--floor", action="store_true", help="measure the empty-notebook floor here and plain")
    parser.add_argument("--plain-python", help="python of an existing plain environment for the floor")
    parser.add_argument("--floor-runs", type=int, default=7, help="paired runs for the floor (default 7)")
    parser.add_argument("--suite", action="store_true", help="also time the whole test suite")
    parser.add_argument("--runs", type=int, default=1, help="runs per notebook; the median is reported (default 1)")
    parser.add_argument("--anchors", metavar="FOLDER", help="local copies of the public anchor notebooks, "
                        "named NN_*.ipynb after their lesson: timed side by side with it")
    parser.add_argument("--anchor-python", default=sys.executable,
                        help="python of the environment that runs the anchors (default: the course's)")
    parser.add_argument("--update-readme", action="store_true", help="write the table into README.md")
    args = parser.parse_args(argv)
    if args.runs < 1:
        parser.error(f"--runs must be at least 1; got {args.runs}.")
    if args.anchors and not Path(args.anchors).is_dir():
        parser.error(f"--anchors: {args.anchors} is not a folder; put the public notebooks there as NN_*.ipynb.")

    over_budget = False
    lines: list[str] = []
    floor = None
    if args.floor:
        plain = args.plain_python or build_plain_environment()
        floors = measure_floor(plain, args.floor_runs)
        floor = floors["course"]
        ratio = floors["course"] / floors["plain"]
        lines += [f"Floor (an empty notebook, whole `nbconvert --execute`, median of {args.floor_runs} paired runs): "
                  f"course environment {floors['course']:.2f} s, plain environment with the same Jupyter versions "
                  f"{floors['plain']:.2f} s (ratio {ratio:.2f}; target at most {1 + FLOOR_TOLERANCE:.2f}).", ""]
        print(lines[0], flush=True)

    folders = ["notebooks", "solutions", "exercises"] if args.all else ["notebooks"]
    paths = [p for folder in folders for p in sorted((ROOT / folder).glob("*.ipynb"))
             if not args.only or p.name.startswith(tuple(args.only))]
    anchor_files = find_anchors(Path(args.anchors)) if args.anchors else {}
    rows, total = [], 0.0
    for path in paths:
        anchor = anchor_files.get(path.name[:2]) if path.parent.name == "notebooks" else None
        seconds, megabytes, slowest, anchor_seconds = run_paired(path, anchor, args.runs, args.anchor_python)
        total += seconds
        flag = seconds > NOTEBOOK_BUDGET_S or megabytes > MEMORY_BUDGET_MB
        ratio = anchor_ratio(path, seconds, anchor_seconds)
        over_anchor = ratio is not None and ratio[0] > ANCHOR_RATIO_LIMIT
        over_budget |= flag or over_anchor
        above = f"{seconds - floor:.1f}" if floor is not None else "–"
        cells = "; ".join(f"#{number} {cell_seconds:.1f} s `{text.replace('|', '/')}`"
                          for cell_seconds, number, text in slowest)
        anchor_cell = "–" if ratio is None else f"{ratio[1]:.1f}{' (ref)' if anchor_seconds is None else ''}"
        ratio_cell = "–" if ratio is None else f"{ratio[0]:.2f}{' **over 1.5**' if over_anchor else ''}"
        rows.append(f"| `{path.relative_to(ROOT)}` | {seconds:.1f} | {above} | {anchor_cell} | {ratio_cell} | "
                    f"{megabytes:.0f} | {cells} |{' **over budget**' if flag else ''}")
        print(rows[-1], flush=True)
    rows.append(f"| **total** | {total:.1f} | | | | | |")
    if args.suite:
        suite_seconds = run_suite()
        over_budget |= suite_seconds > SUITE_BUDGET_S
        rows.append(f"| test suite (`./course test`, installs excluded) | {suite_seconds:.1f} | | | | | |")

    cpu = f"{os.cpu_count()} cores, {platform.python_implementation()} {platform.python_version()}"
    flags = "".join(f" {flag}" for flag, on in (("--all", args.all), ("--floor", args.floor), ("--suite", args.suite),
                                                 (f"--runs {args.runs}", args.runs > 1),
                                                 ("--anchors FOLDER", bool(args.anchors))) if on)
    table = "\n".join(
        [f"Measured {time.strftime('%Y-%m-%d')} on {cpu} with `benchmarks/run_benchmarks.py{flags}`:", "", *lines,
         "| notebook | wall time (s) | above floor (s) | anchor: public notebook (s) | ratio to anchor (limit 1.5) "
         "| peak memory of the kernel and its children (MB, PSS) | slowest cells |",
         "|---|---:|---:|---:|---:|---:|---|", *rows]
    )
    print("\n" + table)
    if args.update_readme:
        readme = ROOT / "README.md"
        text = readme.read_text()
        pattern = re.compile(re.escape(README_START) + ".*?" + re.escape(README_END), re.DOTALL)
        if not pattern.search(text):
            raise SystemExit(f"README.md has no {README_START} ... {README_END} markers")
        readme.write_text(pattern.sub(lambda _: f"{README_START}\n{table}\n{README_END}", text))
        print("README.md updated.")
    return 1 if over_budget else 0


if __name__ == "__main__":
    sys.exit(main())
