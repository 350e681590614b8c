"""The grader's command line and its Python entry points."""

from __future__ import annotations

import argparse
import csv
import dataclasses
import json
import os
import shlex
import shutil
import sys
import tempfile
import time
from collections.abc import Iterable
from pathlib import Path

import mic_dp_helpers
from mic_dp_helpers.checks import EXERCISES, exercises_for_lesson
from mic_dp_teacher.grading import counting, notebooks, processes, report, runner, sandbox
from mic_dp_teacher.grading.machine import EXIT_STATUS, MachineFailure
from mic_dp_teacher.grading.runner import NOTEBOOK, GradeRow, Settings, Submission

__all__ = ["GradeRow", "NOTEBOOK", "grade_submission", "grade_folder", "write_gradebook", "summary_table", "main"]

summary_table = report.summary_table


def _settings(submissions: Path, outputs: list[Path], *, timeout, total_timeout, memory_gb, points, output_limit,
              nproc) -> Settings:
    for name, value in (("timeout", timeout), ("total_timeout", total_timeout), ("memory_gb", memory_gb)):
        if not value > 0:
            raise ValueError(f"{name} must be positive, got {value!r}")
    unknown = sorted(set(points) - set(EXERCISES))
    if unknown:
        raise ValueError(f"points given for unknown exercises {unknown}; known exercises are {sorted(EXERCISES)}")
    run_base = tempfile.mkdtemp(prefix="mic-dp-grading-")
    os.chmod(run_base, 0o711)  # an unprivileged kernel can enter its own scratch folder, not list the others
    hide, readonly, package_parent = runner.sandbox_layout(submissions, outputs, run_base)
    needed = [os.path.realpath(p) for p in (sys.base_prefix, sys.prefix, package_parent,
                                             os.path.dirname(os.path.realpath(sys.executable)))]
    # folders others cannot pass through above what an unprivileged kernel needs, its scratch folder included;
    # with namespaces the kernel covers them itself (confinement._make_reachable), without them it keeps the grader's user
    expose = runner.unreachable_ancestors(sorted({*needed, os.path.realpath(run_base)}))
    isolation = sandbox.isolation_mode()
    # as root, kernels run under a user id of their own; without namespaces only if it can reach Python and the package
    as_nobody = os.geteuid() == 0 and (isolation == "root" or not expose)
    return Settings(expose=expose, as_nobody=as_nobody, timeout=float(timeout), total_timeout=float(total_timeout), memory=int(memory_gb * runner.GiB),
                    nproc=int(nproc), output_limit=int(output_limit), points=dict(points),
                    isolation=isolation, hide=hide, readonly=readonly, package_parent=package_parent,
                    run_base=run_base)


def _watched() -> list[Path]:
    package = Path(mic_dp_helpers.__file__).resolve().parent
    solutions = package.parent / "solutions"
    return [package, *([solutions] if solutions.is_dir() else [])]


def _preload_package() -> None:
    """Import every module of the package now, so later edits on disk cannot change this run's checks."""
    import importlib
    import pkgutil

    for module in pkgutil.walk_packages(mic_dp_helpers.__path__, "mic_dp_helpers."):
        if ".grading.worker" in module.name or module.name.endswith("__main__"):
            continue
        try:
            importlib.import_module(module.name)
        except Exception:  # an optional dependency missing: that module's checks are not used
            pass


def grade_submission(path: Path | str, *, timeout: float = 60, total_timeout: float = 300, memory_gb: float = 2,
                     name: str | None = None) -> list[GradeRow]:
    """Grade one notebook file (in a sandboxed kernel); never raises for a bad submission.

    Parameters
    ----------
    path : path
        The notebook file.
    timeout : float, default 60
        Seconds one cell, or one call of a student's function, may run.
    total_timeout : float, default 300
        Seconds the submission may take in all.
    memory_gb : float, default 2
        Memory limit of its kernel, in GB.
    name : str, optional
        Name to record it under; the file name by default.

    Returns
    -------
    list of GradeRow
        One row per exercise of its lesson, plus notebook-level rows.
    """
    _preload_package()
    path = Path(path)
    subs = runner.find_submissions(path.parent)
    subs = [s for s in subs if s.path.name == path.name and len(Path(s.name).parts) == 1] or [
        Submission(path.name, path.stem, path, refused=f"refused: `{path.name}` could not be found")]
    sub = subs[0]
    if name:
        sub.name = name
    settings = _settings(path.parent, [], timeout=timeout, total_timeout=total_timeout, memory_gb=memory_gb, points={},
                         output_limit=10_000, nproc=128)
    try:
        return runner.grade_one(sub, settings)
    except MachineFailure as failure:  # the machine's, not the submission's: raised, with the fix
        failure.settings = settings
        raise
    finally:
        shutil.rmtree(settings.run_base, ignore_errors=True)


def grade_folder(folder: Path | str, *, timeout: float = 60, total_timeout: float = 300, memory_gb: float = 2,
                 jobs: int | None = None, progress: bool = True, out: Path | str | None = None,
                 only: str | None = None, roster: list[str] | None = None, points: dict | None = None,
                 output_limit: int = 10_000, nproc: int = 128, lessons: list[str] | None = None) -> list[GradeRow]:
    """Grade every ``*.ipynb`` below ``folder``; with ``out``, write the outputs and resume an earlier run.

    Parameters
    ----------
    progress : bool, default True
        Show a progress bar.
    output_limit : int, default 10_000
        Characters of output kept per cell.
    nproc : int, default 128
        Most processes a kernel may run.
    folder : the submissions (one sub-folder per student, or one file per student)
    timeout : seconds one cell, or one call of a student's function by a check, may run
    total_timeout : seconds one submission may take in all (cells and checks)
    memory_gb : address-space limit of a submission's kernel
    jobs : submissions graded at the same time (default: the number of cores)
    out : the long CSV; beside it ``*_wide.csv``, ``*_summary.txt``, ``*_feedback/``, ``*_run.json``.
        Submissions already in it with the same SHA-256 are not graded again.
    only : grade only this student (their rows in ``out`` are replaced)
    roster : student ids; those without a submission get 0 and "missing"
    points : points per exercise id (default 1 each)
    lessons : the assignment's lessons, e.g. ["01", "02"] (default: those handed in by at least half of the
        students). Only they score; only one notebook per student and lesson counts (``counting.POLICY``).

    Returns the rows of the long CSV: every notebook's rows, with the counting policy applied.

    Returns
    -------
    list of GradeRow
        As said above.

    Raises
    ------
    MachineFailure
        When the machine, not a submission, fails (a sandbox that cannot be set up, a kernel that cannot
        start): the outputs are left as they were before the run (the command exits with status 3 and the
        failure's one-paragraph message); see :mod:`mic_dp_teacher.grading.machine`.
    """
    _preload_package()
    folder = Path(folder)
    points = dict(points or {})
    lessons = _check_lessons(lessons)
    subs = runner.find_submissions(folder)
    if only is not None:
        subs = [s for s in subs if s.student == only]
        if not subs:
            raise ValueError(f"no submission of student {only!r} in {folder}")
    out_path = Path(out) if out is not None else None
    outputs = list(report.output_paths(out_path).values()) if out_path else []
    before = _snapshot(outputs + ([out_path.parent] if out_path is not None else []))
    settings = _settings(folder, outputs, timeout=timeout, total_timeout=total_timeout, memory_gb=memory_gb,
                         points=points, output_limit=output_limit, nproc=nproc)
    version, started = runner.grader_version(), runner.now_utc()
    kept: list[GradeRow] = []
    if out_path is not None:
        current = {s.name: s.sha256 for s in subs}
        names = {s.name for s in runner.find_submissions(folder)}
        for entry in report.read_long_csv(out_path):
            row = report.row_from_dict(entry)
            if counting.is_policy_row(row):  # recomputed below, from every notebook of this run
                continue
            row = counting.raw_row(row, points)
            redo = row.submission in current and (only is not None or current[row.submission] != row.sha256
                                                  or not row.sha256)
            if row.submission in names and not redo:
                kept.append(row)
        done = {row.submission for row in kept}
        subs = [s for s in subs if s.name not in done]
        out_path.parent.mkdir(parents=True, exist_ok=True)
        tmp = out_path.with_name(out_path.name + ".tmp")
        tmp.write_text(report.LONG_HEADER + report.long_csv_lines(kept), encoding="utf-8")
        os.replace(tmp, out_path)
    output_names = report.output_file_names(s.name for s in runner.find_submissions(folder))
    fd = os.open(out_path, os.O_WRONLY | os.O_APPEND) if out_path is not None else None
    count, total, clock = 0, len(subs), time.monotonic()

    def on_done(sub: Submission, rows: list[GradeRow]) -> list[GradeRow]:
        nonlocal count
        count += 1
        if fd is not None:  # one write per submission: a killed run loses nothing already graded
            os.write(fd, report.long_csv_lines(rows).encode("utf-8"))
            os.fsync(fd)
        if progress:
            scored = [r for r in rows if r.exercise != NOTEBOOK]
            print(f"[{count}/{total}] {sub.name}: {sum(r.passed for r in scored)}/{len(scored)} passed "
                  f"({time.monotonic() - clock:.0f} s)", file=sys.stderr, flush=True)
        return rows

    stamp = runner.now_utc()
    stamped: list[GradeRow] = []

    def stamp_rows(sub, rows, outputs):
        rows = [dataclasses.replace(r, graded_at=stamp if not r.graded_at else r.graded_at, grader_version=version)
                for r in rows]
        stamped.extend(rows)
        on_done(sub, rows)
        if out_path is not None and outputs:
            report.write_cell_outputs(report.output_paths(out_path)["outputs"], sub.name, outputs,
                                      output_names.get(sub.name))

    try:
        runner.grade_all(subs, settings, jobs=jobs or os.cpu_count() or 1, on_done=stamp_rows, watch=_watched())
    except MachineFailure as failure:  # nothing was recorded: leave the outputs as they were before the run
        failure.settings = settings
        if fd is not None:
            os.close(fd)
            fd = None
        _restore(outputs, before)
        if out_path is not None and out_path.parent not in before and not any(out_path.parent.iterdir()):
            out_path.parent.rmdir()
        raise
    finally:
        if fd is not None:
            os.close(fd)
        shutil.rmtree(settings.run_base, ignore_errors=True)
    everything = runner.find_submissions(folder)
    found = [(s.name, s.student, notebooks.submission_lesson(s)) for s in everything]
    assignment = counting.assignment_lessons(found, lessons)
    if out_path is not None:
        assignment["command"] = f"python -m mic_dp_teacher.grading {shlex.quote(str(folder))} --out {shlex.quote(str(out_path))}"
    rows = counting.apply_policy(kept + stamped, found, assignment["lessons"], notebooks.canonical_names())
    order = {s.name: i for i, s in enumerate(everything)}
    rows = sorted(rows, key=lambda r: (order.get(r.submission, len(order)), r.submission, r.exercise != NOTEBOOK,
                                       r.exercise))
    if out_path is not None:
        tmp = out_path.with_name(out_path.name + ".tmp")
        tmp.write_text(report.LONG_HEADER + report.long_csv_lines(rows), encoding="utf-8")
        os.replace(tmp, out_path)  # the complete gradebook, in submission order
        exercise_ids = sorted(e for e in EXERCISES if e.split(".")[0] in assignment["lessons"])
        report.write_outputs(rows, out_path, roster=roster, exercise_ids=exercise_ids, points=points, run_info={
            "grader_version": version, "started": started, "finished": runner.now_utc(),
            "python": sys.version.split()[0], "isolation": settings.isolation,
            "kernel_user": (f"a user id of its own per kernel ({processes.KERNEL_UID_BASE} and up)" if settings.as_nobody
                            else "the grader's user"),
            "kernel_memory_bound": processes.memory_bound(settings.memory) if settings.as_nobody else
            "per process only (RLIMIT_AS)",
            "kernel_tmp": (f"private /tmp, /var/tmp, /dev/shm: one tmpfs of {settings.tmp_size} bytes per kernel"
                           if settings.isolation in ("root", "userns") else "the machine's /tmp (plain mode)"),
            "limits": {"timeout_s": settings.timeout, "total_timeout_s": settings.total_timeout,
                       "memory_bytes": settings.memory, "processes": settings.nproc,
                       "output_kept_chars_per_cell": settings.output_limit},
            "assignment": assignment,
            "submissions": {s.name: s.sha256 for s in everything},
        })
    return rows


def _snapshot(outputs: list[Path]) -> dict:
    """{output: its bytes (a file), True (a folder)} for the outputs that exist now."""
    found: dict = {}
    for path in outputs:
        if path.is_file() and not path.is_symlink():
            found[path] = path.read_bytes()
        elif path.exists():
            found[path] = True
    return found


def _restore(outputs: list[Path], before: dict) -> None:
    """Put the outputs back as :func:`_snapshot` found them (remove those this run created)."""
    for path in outputs:
        if isinstance(before.get(path), bytes):
            path.write_bytes(before[path])
        elif path not in before and path.is_dir() and not path.is_symlink():
            shutil.rmtree(path, ignore_errors=True)
        elif path not in before and path.is_file() and not path.is_symlink():
            path.unlink()


def write_gradebook(rows: Iterable[GradeRow], out: Path | str) -> None:
    """Write ``rows`` as the long CSV (see ``report.LONG_COLUMNS``).

    Parameters
    ----------
    rows : iterable of GradeRow
        The rows.
    out : path
        The CSV file.
    """
    Path(out).write_text(report.LONG_HEADER + report.long_csv_lines(rows), encoding="utf-8")


def _check_lessons(lessons) -> list[str] | None:
    """["1", "02"] -> ["01", "02"]; ValueError for a lesson the course does not have."""
    if lessons is None:
        return None
    if isinstance(lessons, str):
        lessons = lessons.split(",")
    cleaned = sorted({str(lesson).strip().zfill(2) for lesson in lessons if str(lesson).strip()})
    unknown = [lesson for lesson in cleaned if not exercises_for_lesson(lesson)]
    if unknown or not cleaned:
        known = sorted({e.split(".")[0] for e in EXERCISES})
        raise ValueError(f"--lessons: unknown lesson(s) {unknown or lessons!r}; the course's lessons are {', '.join(known)}")
    return cleaned


def _read_roster(path: str) -> list[str]:
    text = Path(path).read_text(encoding="utf-8")
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    if lines and "," in lines[0]:
        reader = csv.DictReader(lines)
        if "student" not in (reader.fieldnames or []):
            raise ValueError(f"roster {path}: a CSV roster needs a `student` column")
        return [row["student"].strip() for row in reader if row["student"].strip()]
    return [line for line in lines if not line.startswith("#")]


def _gigabytes(text: str) -> float:
    """"2", "2G", "2GB", "512M", "512MB" -> gigabytes."""
    value = text.strip().upper().removesuffix("B")
    scale = {"G": 1.0, "M": 1 / 1024, "K": 1 / 1024**2}.get(value[-1:], None)
    try:
        return float(value[:-1]) * scale if scale else float(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a memory size; write e.g. 2, 2G or 512M") from None


def _parse_points(values: list[str]) -> dict:
    points = {}
    for value in values:
        exercise, sep, amount = value.partition("=")
        try:
            points[exercise.strip()] = float(amount)
        except ValueError:
            sep = ""
        if not sep:
            raise ValueError(f"--points {value!r}: write it as EXERCISE=POINTS, e.g. 01.1=2")
    return points


def main(argv: list[str] | None = None) -> int:
    """Command line of ``python -m mic_dp_teacher.grading``: grade a folder and write the gradebook.

    Parameters
    ----------
    argv : list of str, optional
        Arguments; ``sys.argv[1:]`` by default.

    Returns
    -------
    int
        Exit status.
    """
    parser = argparse.ArgumentParser(prog="python -m mic_dp_teacher.grading",
                                     description="Grade a folder of submitted exercise notebooks in sandboxed kernels.")
    parser.add_argument("submissions", help="folder of .ipynb files (one sub-folder or one file per student)")
    parser.add_argument("--out", default="gradebook.csv", help="long CSV to write; the other outputs go beside it "
                        "(default: gradebook.csv). A re-run with the same --out skips submissions already graded.")
    parser.add_argument("--timeout", type=float, default=60, help="seconds one cell or one call of a student's function "
                        "may run (default: 60)")
    parser.add_argument("--total-timeout", "--submission-timeout", "--time-limit", dest="total_timeout", type=float,
                        default=300, help="seconds one submission may take in all "
                        "(default: 300)")
    parser.add_argument("--memory-gb", "--memory", dest="memory_gb", type=_gigabytes, default=2,
                        help="memory limit of a submission's kernel in GB, or with a unit: 512M, 2G (default: 2)")
    parser.add_argument("--processes", type=int, default=128, help="processes and threads a kernel may start (default: 128)")
    parser.add_argument("--output-kb", type=float, default=10, help="output kept per cell, in kB (default: 10)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="submissions graded at once (default: cores)")
    parser.add_argument("--only", metavar="STUDENT", help="grade only this student (sub-folder or file name)")
    parser.add_argument("--roster", help="file with one student id per line (or a CSV with a `student` column)")
    parser.add_argument("--points", action="append", default=[], metavar="EXERCISE=POINTS",
                        help="points of an exercise, e.g. --points 01.1=2 (default: 1 each)")
    parser.add_argument("--lessons", metavar="01,02", help="the assignment's lessons; only they score and have "
                        "columns in the wide CSV (default: every lesson handed in by at least half of the students; "
                        "gradebook_run.json records which and why). Notebooks of other lessons are graded and "
                        "reported with a 'note' row, for 0 of 0 points. Of several notebooks of one lesson, one "
                        "counts: the exercise file at the top of the student's folder, else the lowest-scoring one.")
    args = parser.parse_args(argv)
    for stream in (sys.stdout, sys.stderr):  # a name the terminal's encoding cannot show must not stop the run
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")
    if args.timeout <= 0 or args.total_timeout <= 0 or args.memory_gb <= 0 or args.jobs < 1 or args.output_kb <= 0:
        parser.error("--timeout, --total-timeout, --memory-gb, --output-kb must be positive and --jobs at least 1")
    try:
        roster = _read_roster(args.roster) if args.roster else None
        points = _parse_points(args.points)
        rows = grade_folder(args.submissions, out=args.out, timeout=args.timeout, total_timeout=args.total_timeout,
                            memory_gb=args.memory_gb, jobs=args.jobs, only=args.only, roster=roster, points=points,
                            output_limit=int(args.output_kb * 1000), nproc=args.processes,
                            lessons=args.lessons.split(",") if args.lessons else None)
    except MachineFailure as failure:
        print(failure.message(), file=sys.stderr)
        return EXIT_STATUS
    except (NotADirectoryError, ValueError, OSError) as error:
        parser.error(str(error))
    paths = report.output_paths(args.out)
    print(paths["summary"].read_text(encoding="utf-8"))
    print(f"Gradebook: {paths['long']} ({len(rows)} rows); one row per student: {paths['wide']}; "
          f"feedback: {paths['feedback']}/; summary: {paths['summary']}; run record: {paths['run']}")
    note = counting.assignment_note(json.loads(paths["run"].read_text(encoding="utf-8")).get("assignment", {}))
    if note:  # said again last, where a teacher looks after a run
        print("\n" + note, end="")
    return 0
