"""Grade submissions: find them, run each in a sandboxed kernel, check the answers in the grader.

The process that decides a verdict never runs a student's code. For each submission a fresh grading
process (forked from the grader, which loaded the course's checks before anything else ran) starts a
sandboxed kernel (:mod:`~mic_dp_teacher.grading.sandbox`), has it run the notebook's cells, and then
runs every exercise's check here, handing it a :class:`~mic_dp_teacher.grading.student_calls.StudentFunction`
that calls the student's function in the kernel. What the kernel prints, displays or patches in itself
cannot change a verdict.
"""

from __future__ import annotations

import dataclasses
import datetime
import hashlib
import json
import multiprocessing
import multiprocessing.connection
import os
import re
import shutil
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import mic_dp_helpers
from mic_dp_helpers.checks import EXERCISES, exercises_for_lesson
from mic_dp_helpers.checks._core import FAILED, NOT_DONE, PASSED, run_check
from mic_dp_teacher.grading import processes, sandbox, student_calls
from mic_dp_teacher.grading.notebooks import lesson_of, metadata_lesson, name_lesson, parse_notebook
from mic_dp_teacher.grading.machine import MachineFailure, sandbox_layout, unreachable_ancestors  # noqa: F401
from mic_dp_teacher.grading.submissions import MAX_NOTEBOOK_BYTES, Submission, find_submissions  # noqa: F401

NOTEBOOK = "notebook"  # the "exercise" column for rows about the whole submission
WRONG, NOT_DONE_STATUS, PROBLEM, NOTE = "wrong", "not done", "problem", "note"
STATUS_OF = {PASSED: "passed", FAILED: WRONG, NOT_DONE: NOT_DONE_STATUS}
GiB = 1024**3
_SUBREAPER = False  # True in a grading process that adopts its kernel's orphans (see processes.become_subreaper)
_KERNEL_READY = False  # True in a grading process once one of its kernels got ready (the machine works)


@dataclass(frozen=True)
class GradeRow:
    """One line of the gradebook. ``status`` is "passed", "wrong", "not done", "problem" or "note".

    Attributes
    ----------
    submission : str
        The notebook's path below the submissions folder.
    exercise : str
        The exercise id, or the notebook-level row's name.
    passed : bool
        Whether the check passed.
    message : str
        The check's message (a hint when wrong), or what went wrong.
    status : str
        One of the statuses above.
    student : str
        The student's id.
    points, max_points : float
        Points earned and available.
    sha256 : str
        Hash of the notebook file.
    graded_at : str
        UTC time of grading.
    grader_version : str
        See :func:`grader_version`.
    """

    submission: str
    exercise: str
    passed: bool
    message: str
    status: str = ""
    student: str = ""
    points: float = 0.0
    max_points: float = 0.0
    sha256: str = ""
    graded_at: str = ""
    grader_version: str = ""


@dataclass
class Settings:
    """Limits and sandbox layout for one grading run (see ``python -m mic_dp_teacher.grading --help``).

    Attributes
    ----------
    timeout : float
        Seconds one cell, or one call of a student's function, may run.
    total_timeout : float
        Seconds one submission may take in all.
    memory : int
        Memory limit of a kernel, in bytes.
    nproc : int
        Most processes a kernel may run.
    output_limit : int
        Characters of output kept per cell.
    file_size : int
        Largest file a kernel may write, in bytes.
    points : dict
        Exercise id -> its points.
    isolation : str
        How kernels are isolated on this machine.
    hide, readonly, expose : list of str
        Paths hidden from a kernel, made read-only, or made passable.
    as_nobody : bool
        Run each kernel under a user id of its own (when the grader is root).
    package_parent : str
        The folder holding the course package.
    run_base : str
        This run's scratch folder.
    kernel_uid : int
        User id of this slot's kernels (0: pick a free one).
    tmp_size : int
        Size of a kernel's private ``/tmp``, ``/var/tmp`` and ``/dev/shm`` together, in bytes.
    """

    timeout: float = 60.0
    total_timeout: float = 300.0
    memory: int = 2 * GiB
    nproc: int = 128
    output_limit: int = 10_000
    file_size: int = 256 * 1024 * 1024
    points: dict = field(default_factory=dict)
    isolation: str = ""
    hide: list = field(default_factory=list)
    readonly: list = field(default_factory=list)
    expose: list = field(default_factory=list)  # folders an unprivileged kernel cannot pass (see cli._settings)
    as_nobody: bool = False  # as root: the kernel runs unprivileged, under a user id of its own (kernel_uid)
    package_parent: str = ""
    run_base: str = ""
    kernel_uid: int = 0  # set per grading slot by grade_all (0: pick a free one)
    tmp_size: int = 256 * 1024 * 1024  # the kernel's private /tmp, /var/tmp and /dev/shm together

    def for_kernel(self) -> dict:
        """The settings as a plain dict, as the sandbox reads them.

        Returns
        -------
        dict
            Field name -> value.
        """
        return dataclasses.asdict(self)


def grader_version() -> str:
    """The package version and a short hash of the grading and check code, e.g. "0.1.0+3fa2c1d0".

    Returns
    -------
    str
        The version string.
    """
    digest = hashlib.sha256()
    package = Path(mic_dp_helpers.__file__).parent
    for path in sorted([*package.glob("checks/*.py"), *package.glob("grading/*.py")]):
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return f"{mic_dp_helpers.__version__}+{digest.hexdigest()[:8]}"


# ----- grading one submission (in a grading process of its own) ----------------------------------------
def _row(sub: Submission, exercise: str, status: str, message: str, settings: Settings) -> GradeRow:
    best = float(settings.points.get(exercise, 1.0)) if exercise != NOTEBOOK else 0.0
    return GradeRow(sub.name, exercise, status == "passed", message, status, sub.student,
                    best if status == "passed" else 0.0, best, sub.sha256)


def _size(chars: int) -> str:
    return f"{chars / 1e6:.0f} MB" if chars >= 1e6 else f"{chars / 1e3:.0f} kB"


def grade_one(sub: Submission, settings: Settings, outputs: list | None = None) -> list[GradeRow]:
    """Grade one submission; never raises for anything the submission does.

    ``outputs``, if given, receives ``[cell number, kept output, characters printed]`` per cell.

    Parameters
    ----------
    sub : Submission
        The submission.
    settings : Settings
        Limits and sandbox layout.
    outputs : list, optional
        Receives what each cell printed.

    Returns
    -------
    list of GradeRow
        One row per exercise of its lesson, plus notebook-level rows.
    """
    if sub.refused:
        return [_row(sub, NOTEBOOK, PROBLEM, sub.refused, settings)]
    try:
        sources, metadata = parse_notebook(sub.data or b"")
    except ValueError as error:
        rows = [_row(sub, NOTEBOOK, PROBLEM, f"not a valid notebook file ({error})", settings)]
        lesson = lesson_of(sub.name, {}, [])
        return rows + [_row(sub, spec.id, PROBLEM, "not graded: the notebook file is invalid", settings)
                       for spec in exercises_for_lesson(lesson or "")]
    lesson = lesson_of(sub.name, metadata, sources)
    exercises = exercises_for_lesson(lesson) if lesson else []
    if not exercises:  # e.g. a stray Untitled.ipynb beside the student's work: not held against them
        return [_row(sub, NOTEBOOK, NOTE, f"ignored: `{Path(sub.name).name}` is not a course notebook (cannot tell which "
                     "lesson it belongs to: no lesson number in its file name, e.g. 01_...ipynb, nor in its metadata, "
                     "and no check(...) calls); it was not graded and does not count", settings)]
    notes = []
    by_name, by_metadata = name_lesson(sub.name), metadata_lesson(metadata)
    if by_name and by_metadata and by_name != by_metadata:
        notes.append(_row(sub, NOTEBOOK, NOTE, f"the file name says lesson {by_name} but the notebook's metadata says "
                          f"lesson {by_metadata}; graded as lesson {by_name} (the file name)", settings))
    claimed = None
    if settings.as_nobody and not settings.kernel_uid:  # graded on its own (not by grade_all): claim a user id
        claimed = processes.free_kernel_uid()
        settings = dataclasses.replace(settings, kernel_uid=claimed)
    scratch = ""
    kernels: list[sandbox.StudentKernel] = []
    try:
        try:
            scratch = tempfile.mkdtemp(prefix="sub-", dir=settings.run_base)
        except OSError as error:
            raise MachineFailure(f"the grader could not create a scratch folder in {settings.run_base} "
                                 f"({type(error).__name__}: {error})") from None
        return notes + _run_and_check(sub, sources, exercises, scratch, settings, outputs, kernels)
    except MachineFailure as failure:  # not this submission's doing: the caller decides whether the run goes on
        failure.rows = notes + failure.rows
        raise
    except Exception as error:  # a bug or an unexpected state in the grader: report, never crash the run
        return [_row(sub, NOTEBOOK, PROBLEM, f"grading stopped: {type(error).__name__}: {error}", settings)] + [
            _row(sub, spec.id, PROBLEM, "not graded: the grader failed on this submission", settings) for spec in exercises]
    finally:  # whatever happened, nothing the submission started outlives it
        for kernel in kernels:
            kernel.kill(kernel.stopped or "closed")
        processes.kill_uid(sandbox.kernel_uid(settings.for_kernel()))
        if _SUBREAPER:
            processes.kill_descendants()
        if scratch:
            shutil.rmtree(scratch, ignore_errors=True)
        if claimed is not None:
            processes.release_kernel_uid(claimed)


def _prepare_scratch(scratch: str, sources: list[str], settings: Settings) -> None:
    with open(os.path.join(scratch, "cells.json"), "w", encoding="utf-8") as handle:
        json.dump(sources, handle)
    uid = sandbox.kernel_uid(settings.for_kernel())
    if uid is not None:
        for path in (scratch, os.path.join(scratch, "cells.json")):
            os.chown(path, uid, uid)
    os.chmod(scratch, 0o700)


def _cell_rows(sub: Submission, reports: list[dict], settings: Settings) -> list[GradeRow]:
    rows = []
    limit_gb = settings.memory / GiB
    for report in reports:
        index, status = report["index"], report["status"]
        if status == "error":
            rows.append(_row(sub, NOTEBOOK, PROBLEM, f"cell {index} raised {report['error'].get('summary', 'an error')}", settings))
        elif status == "memory":
            rows.append(_row(sub, NOTEBOOK, PROBLEM, f"cell {index} ran out of memory (MemoryError: the limit is "
                             f"{limit_gb:g} GB per submission)", settings))
        elif status == "timeout":
            rows.append(_row(sub, NOTEBOOK, PROBLEM, f"cell {index} ran past the {settings.timeout:g} s limit "
                             "(infinite loop?) and was stopped", settings))
        if report.get("output_chars", 0) > settings.output_limit:
            rows.append(_row(sub, NOTEBOOK, NOTE, f"cell {index} printed {_size(report['output_chars'])} of output; "
                             f"only the first {_size(settings.output_limit)} were kept", settings))
    return rows


def _stopped_message(reason: str, where: str, settings: Settings) -> str:
    """Why the kernel was stopped; ``where`` is e.g. "cell 3" or "during the check"."""
    if reason == "time":
        return f"the submission ran past its total time limit of {settings.total_timeout:g} s ({where}) and was stopped"
    if reason == "timeout":
        return (f"{where} ran past the {settings.timeout:g} s limit and did not stop when interrupted; the kernel "
                "and everything it started were stopped")
    if "signal SIGKILL" in reason or "died" in reason:
        return (f"{reason} ({where}); a kernel is killed when it goes over the memory limit of "
                f"{settings.memory / GiB:g} GB or is stopped by its own code")
    return f"{reason} ({where})"


def _run_and_check(sub, sources, exercises, scratch, settings: Settings, outputs: list | None,
                   kernels: list) -> list[GradeRow]:
    """``kernels`` receives every kernel started, so that the caller kills them whatever happens."""
    global _KERNEL_READY
    deadline = time.monotonic() + settings.total_timeout
    rows: list[GradeRow] = []
    clock = time.monotonic()
    try:
        _prepare_scratch(scratch, sources, settings)
        kernel = sandbox.StudentKernel(scratch, settings.for_kernel(), deadline)
    except OSError as error:  # e.g. chown refused, or Python cannot be started
        raise MachineFailure(f"the kernel could not be started ({type(error).__name__}: {error})") from None
    kernels.append(kernel)
    if not kernel.ready:  # none of the submission's code ran yet: this says nothing about the submission
        if kernel.setup_failed:
            raise MachineFailure(kernel.stopped or "the sandbox could not be set up")
        reason = kernel.stopped or "the kernel did not start properly"
        cause = (f"the kernel did not start in time (within {sandbox.START_LIMIT:g} s)" if reason in ("time", "timeout")
                 else f"{reason} while starting")
        raise MachineFailure(cause, always=False, rows=[
            _row(sub, NOTEBOOK, PROBLEM, f"{cause}, before any of the notebook ran; the machine was overloaded or short "
                 "of memory (regrade it with the same --out)", settings)] + [
            _row(sub, spec.id, PROBLEM, "not graded: the notebook did not finish running", settings) for spec in exercises])
    _KERNEL_READY = True
    deadline = kernel.deadline  # the submission's time counts from when its kernel was ready
    started = time.monotonic()
    reports = kernel.run_cells(len(sources))
    ran = time.monotonic()
    rows += _cell_rows(sub, reports, settings)
    if outputs is not None:
        outputs += [[r["index"], r.get("output", ""), r.get("output_chars", 0)] for r in reports if "output" in r]
    if kernel.stopped:
        where = f"cell {reports[-1]['index']}" if reports[-1]["index"] else "while starting"
        rows.append(_row(sub, NOTEBOOK, PROBLEM, _stopped_message(kernel.stopped, where, settings), settings))
        kernel.close()
        return rows + [_row(sub, spec.id, PROBLEM, "not graded: the notebook did not finish running", settings)
                       for spec in exercises]
    restarts = 0
    for position, spec in enumerate(exercises):
        if kernel.stopped:  # a check stopped the kernel: start a fresh one for the remaining exercises
            kernel.close()
            if restarts >= 2 or time.monotonic() > deadline - 5:
                rows += [_row(sub, s.id, PROBLEM, "not graded: the kernel had to be stopped during an earlier check",
                              settings) for s in exercises[position:]]
                break
            restarts += 1
            kernel = sandbox.StudentKernel(scratch, settings.for_kernel(), deadline)
            kernels.append(kernel)
            kernel.run_cells(len(sources))
            if kernel.stopped:
                rows += [_row(sub, s.id, PROBLEM, "not graded: " + _stopped_message(kernel.stopped, "re-running the notebook",
                              settings), settings) for s in exercises[position:]]
                break
        rows.append(_check_exercise(sub, spec, kernel, settings))
    kernel.close()
    if os.environ.get("MIC_DP_GRADING_TIMING"):
        print(f"{sub.name}: start {started - clock:.1f} s, cells {ran - started:.1f} s, checks "
              f"{time.monotonic() - ran:.1f} s", file=sys.stderr)
    return rows


def _check_exercise(sub: Submission, spec, kernel: sandbox.StudentKernel, settings: Settings) -> GradeRow:
    found = kernel.lookup(spec.answer_name)
    if found is None:
        return _row(sub, spec.id, PROBLEM, _stopped_message(kernel.stopped or "the kernel stopped", "looking up "
                    f"`{spec.answer_name}`", settings), settings)
    if found.get("kind") == "missing":
        return _row(sub, spec.id, NOT_DONE_STATUS, f"not done yet: `{spec.answer_name}` is not defined.", settings)
    if found.get("kind") != "callable":
        return _row(sub, spec.id, WRONG, f"`{spec.answer_name}` should be a function, got {str(found.get('type'))[:80]}.",
                    settings)
    function = student_calls.StudentFunction(kernel, spec.id, spec.answer_name)
    result = run_check(spec.id, function, in_kernel=False, guard=False)
    problem = function.problem
    if function.refused:  # it called a course helper this exercise forbids: wrong, whatever the checker did next
        return _row(sub, spec.id, WRONG, f"not right yet. Hint: {function.refused}", settings)
    if isinstance(problem, student_calls.StudentTimeout):
        return _row(sub, spec.id, PROBLEM, f"your function ran past the {settings.timeout:g} s limit during the check",
                    settings)
    if isinstance(problem, student_calls.KernelStopped):
        return _row(sub, spec.id, PROBLEM, _stopped_message(kernel.stopped or str(problem), "your function, during the check", settings),
                    settings)
    if isinstance(problem, student_calls.GraderLimitation):
        return _row(sub, spec.id, PROBLEM, f"the grader could not run this check: {problem}", settings)
    return _row(sub, spec.id, STATUS_OF.get(result.status, WRONG), result.message, settings)


def _tree_hashes(folders: list[Path]) -> dict[str, str]:
    hashes = {}
    for folder in folders:
        for path in sorted(folder.rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts:
                try:
                    hashes[str(path)] = hashlib.sha256(path.read_bytes()).hexdigest()
                except OSError:
                    hashes[str(path)] = "unreadable"
    return hashes


# ----- the whole run ---------------------------------------------------------------------------------
def _child(sub: Submission, settings: Settings, connection) -> None:
    global _SUBREAPER
    _SUBREAPER = processes.become_subreaper()  # a daemon the kernel leaves (double fork, setsid) is still ours to kill
    outputs: list = []
    machine = None
    try:
        rows = grade_one(sub, settings, outputs)
    except MachineFailure as failure:
        rows, machine = failure.rows, {"cause": failure.cause, "always": failure.always}
    except BaseException as error:  # noqa: BLE001 - a report beats a silent death
        rows = [_row(sub, NOTEBOOK, PROBLEM, f"grading stopped: {type(error).__name__}: {error}", settings)]
    connection.send_bytes(json.dumps({"rows": [dataclasses.asdict(r) for r in rows], "outputs": outputs,
                                      "machine": machine, "ready": _KERNEL_READY}).encode())
    connection.close()
    os._exit(0)


def grade_all(subs: list[Submission], settings: Settings, *, jobs: int = 1, on_done=None,
              watch: list[Path] = ()) -> list[GradeRow]:
    """Grade ``subs`` with ``jobs`` grading processes; ``on_done(sub, rows, outputs)`` is called as each finishes.

    Files under ``watch`` (the course package, ``solutions/``) and the submissions themselves are hashed
    after every submission; a change made while exactly one submission was running is reported on it.

    Nothing is handed to ``on_done`` before one kernel of the run has started (the machine works): a
    :class:`~mic_dp_teacher.grading.machine.MachineFailure` first (a sandbox that cannot be set up, a kernel
    that cannot start) stops every grading process and is raised, with nothing recorded.

    Parameters
    ----------
    subs : list of Submission
        The submissions.
    settings : Settings
        Limits and sandbox layout.
    jobs : int, default 1
        Grading processes at the same time.
    on_done : callable, optional
        Called with ``(sub, rows, outputs)`` as each submission finishes.
    watch : list of pathlib.Path, optional
        Files whose changes during the run are reported.

    Returns
    -------
    list of GradeRow
        Every submission's rows.

    Raises
    ------
    MachineFailure
        If the machine cannot grade (no sandbox, no kernel starts).
    """
    context = multiprocessing.get_context("fork")
    pending, running = list(subs), {}
    results: list[GradeRow] = []
    watched = _tree_hashes(list(watch))
    files = {s.name: (s.path, s.sha256) for s in subs if s.data is not None}
    suspects: set[str] = set()
    cell_outputs: dict[str, list] = {}
    hard_limit = settings.total_timeout * 2 + 120  # the grading process itself is trusted; this is a backstop
    uids: dict[str, int] = {}  # submission -> the user id its kernels run as (as root): one per grading slot
    proven, held = False, []  # held: results waiting until a kernel of this run has started

    def emit(sub, rows, outputs):
        if on_done is not None:
            held.append((sub, rows, outputs))
            while proven and held:
                on_done(*held.pop(0))
    while pending or running:
        while pending and len(running) < max(1, jobs):
            sub = pending.pop(0)
            if sub.refused:
                rows = grade_one(sub, settings)
                results += rows
                emit(sub, rows, [])
                continue
            receive, send = context.Pipe(duplex=False)
            child_settings = settings
            if settings.as_nobody:  # a user id no other kernel uses: its process limit and files are its own
                uids[sub.name] = processes.free_kernel_uid(set(uids.values()))
                child_settings = dataclasses.replace(settings, kernel_uid=uids[sub.name])
            process = context.Process(target=_child, args=(sub, child_settings, send), daemon=True)
            process.start()
            send.close()
            running[receive] = (process, sub, time.monotonic())
            suspects.add(sub.name)
        if not running:
            continue
        ready = multiprocessing.connection.wait(list(running), timeout=1.0)
        finished = []
        for connection in ready:
            process, sub, started = running.pop(connection)
            try:
                message = json.loads(connection.recv_bytes().decode())
                rows = [GradeRow(**r) for r in message["rows"]]
                cell_outputs[sub.name] = message["outputs"]
                proven = proven or bool(message.get("ready"))
                machine = message.get("machine")
                if isinstance(machine, dict) and (machine.get("always") or not proven):
                    _stop_all(running, uids)
                    processes.release_kernel_uid(uids.pop(sub.name, None))
                    raise MachineFailure(str(machine.get("cause")))
            except (EOFError, OSError, ValueError, TypeError, KeyError):
                rows = [_row(sub, NOTEBOOK, PROBLEM, "grading stopped: the grading process of this submission died "
                             "(it is regraded on the next run with the same --out)", settings)]
            process.join(5)
            processes.release_kernel_uid(uids.pop(sub.name, None))
            finished.append((sub, rows))
        for connection, (process, sub, started) in list(running.items()):
            if time.monotonic() - started > hard_limit:
                process.kill()
                process.join(5)
                processes.release_kernel_uid(uids.pop(sub.name, None))
                running.pop(connection)
                finished.append((sub, [_row(sub, NOTEBOOK, PROBLEM, "grading stopped: over the grader's hard time limit",
                                            settings)]))
        if not finished:
            continue
        now_watched = _tree_hashes(list(watch))
        changed = sorted(k for k in set(watched) | set(now_watched) if watched.get(k) != now_watched.get(k))
        moved = sorted(name for name, (path, sha) in files.items() if _file_sha(path) != sha)
        culprits = set(suspects)
        suspects = {s.name for _, s, _ in running.values()}
        for sub, rows in finished:
            extra = []
            if changed or moved:
                what = ", ".join([os.path.relpath(p, os.path.dirname(str(watch[0]))) if watch else p for p in changed[:5]]
                                 + [f"submission {m}" for m in moved[:5] if m != sub.name])
                if what and settings.isolation == "plain":
                    # without namespaces a process left by an earlier submission may have done it: say so
                    extra.append(_row(sub, NOTEBOOK, NOTE, f"possible tampering: files changed on disk while this submission ran ({what}); "
                                      "in the grader's plain mode (no namespaces) this may come from a process left "
                                      "by an earlier submission, so it is not held against this one. Grades used the "
                                      "copies read before the run.", settings))
                elif what and culprits == {sub.name}:
                    extra.append(_row(sub, NOTEBOOK, PROBLEM, f"tampering: while this submission ran, these files changed "
                                      f"on disk: {what}. Grades used the copies read before the run.", settings))
                elif what and sub.name in culprits:
                    extra.append(_row(sub, NOTEBOOK, NOTE, f"files changed on disk while this and {len(culprits) - 1} other "
                                      f"submission(s) ran ({what}); grades used the copies read before the run", settings))
            results += rows + extra
            emit(sub, rows + extra, cell_outputs.pop(sub.name, []))
        watched = now_watched
        files = {name: (path, _file_sha(path)) for name, (path, sha) in files.items()}
    for item in held:  # no kernel was needed (every notebook refused, invalid or not a course notebook)
        on_done(*item)
    return results


def _stop_all(running: dict, uids: dict) -> None:
    """Kill every grading process still running, and its kernel's processes."""
    for process, sub, _ in running.values():
        process.kill()
        process.join(5)
        processes.kill_uid(uids.get(sub.name))
        processes.release_kernel_uid(uids.pop(sub.name, None))
    running.clear()


def _file_sha(path: Path) -> str:
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return "gone"
    try:
        with os.fdopen(fd, "rb") as handle:
            return hashlib.sha256(handle.read(MAX_NOTEBOOK_BYTES + 1)).hexdigest()
    except OSError:
        return "unreadable"


def now_utc() -> str:
    """The current UTC time, to the second, in ISO 8601 (``2026-11-26T16:50:00+00:00``).

    Returns
    -------
    str
        The time stamp.
    """
    return datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")


def all_exercise_ids() -> list[str]:
    """Every registered exercise id, sorted.

    Returns
    -------
    list of str
        Exercise ids ("00.1", "01.1", ...).
    """
    return sorted(EXERCISES)
