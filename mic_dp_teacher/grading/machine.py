"""The machine the kernels run on: the sandbox's layout, and failures that stop the run.

:func:`sandbox_layout` and :func:`unreachable_ancestors` say what a kernel must not see and which folders
an unprivileged kernel could not pass through. A failure of the machine, not of a submission, stops the
run with one message naming the cause and the fix (:class:`MachineFailure`).

A kernel that cannot be set up (mounts, its scratch folder, the course's checks, its memory limit) fails
before any of the submission's code runs, so it says nothing about the submission and would fail the
same way for every one. The grader then stops before recording anything more, instead of filling the
gradebook with a class of "problem" rows (see :func:`mic_dp_teacher.grading.runner.grade_all`).
"""

from __future__ import annotations

import os
import shlex
import stat
import sys
from pathlib import Path

import mic_dp_helpers

EXIT_STATUS = 3  # the command's exit status when a machine failure stops the run (2: a bad argument)


class MachineFailure(Exception):
    """The grader cannot grade anything on this machine as set up (it is not the submission's fault).

    Parameters
    ----------
    cause : what failed, e.g. "the sandbox could not be set up (PermissionError: ...)"
    always : True when it stops the run whenever it happens; False for a kernel that did not start in time
        or died while starting, which stops the run only before any kernel of the run has started (later,
        under load, it is one submission's problem row).
    rows : the rows recorded for the submission when the run goes on (``always`` False).
    """

    def __init__(self, cause: str, *, always: bool = True, rows: list | None = None) -> None:
        super().__init__(cause)
        self.cause, self.always, self.rows = cause, always, list(rows or [])
        self.settings = None  # the run's settings, once the grader knows them (for the fix's figures)

    def message(self) -> str:
        """One paragraph: what failed, that no submission was graded because of it, and what to do.

        Returns
        -------
        str
            The paragraph.
        """
        return (f"Grading stopped: {self.cause}. This is the machine or the grader's setup, not a submission, "
                f"so nothing more was written to the gradebook. Fix: {fix_for(self.cause, self.settings)}")

    def __str__(self) -> str:
        return self.message()


def _command() -> str:
    return "python -m mic_dp_teacher.grading " + " ".join(shlex.quote(a) for a in sys.argv[1:])


def fix_for(cause: str, settings=None) -> str:
    """What a teacher can do about ``cause`` (a sentence), from the words of the failure.

    Parameters
    ----------
    cause : str
        What failed, in words.
    settings : Settings, optional
        The run's settings, for advice that names a limit.

    Returns
    -------
    str
        One sentence.
    """
    text = cause.lower()
    memory = f" (now {settings.memory / 1024**3:g} GB)" if settings is not None else ""
    if any(word in text for word in ("memoryerror", "out of memory", "cannot allocate", "map segment", "sigkill")):
        return f"a kernel could not even start within its memory limit{memory}: raise --memory-gb (default 2)."
    if "loading the checks" in text:
        return ("the kernel could not import the course's checks with this Python environment; run "
                "`python -c \"import mic_dp_helpers.checks\"` with the same Python and PYTHONPATH and install "
                "what it says is missing.")
    if "did not start in time" in text:
        return ("the machine is too loaded for a kernel to start; lower --jobs (default: the number of cores), or "
                "grade when the machine is less busy.")
    if "exited" in text or "could not be started" in text or "did not start properly" in text:
        return (f"the kernel's Python ({sys.executable}) stopped before it was ready; check that "
                f"`{sys.executable} -c \"import mic_dp_helpers.checks\"` runs with the same PYTHONPATH.")
    return ("the sandbox needs a scratch folder it can create, mount and enter; put TMPDIR on a local disk, e.g. "
            f"`TMPDIR=/tmp {_command()}`; if the machine forbids namespaces, "
            "MIC_DP_GRADING_ISOLATION=plain grades without them (a weaker sandbox: see the README).")


def _is_within(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


def sandbox_layout(submissions: Path, outputs: list[Path], run_base: str) -> tuple[list[str], list[str], str]:
    """Folders/files to hide from the kernel, folders to make read-only, and the package's parent folder.

    Parameters
    ----------
    submissions : pathlib.Path
        The submissions folder.
    outputs : list of pathlib.Path
        Every output of the run (created now).
    run_base : str
        The run's scratch folder.

    Returns
    -------
    hide : list of str
        Paths to hide from the kernel.
    readonly : list of str
        Folders to make read-only.
    package_parent : str
        The folder holding the course package.
    """
    package = os.path.realpath(Path(mic_dp_helpers.__file__).parent)
    package_parent = os.path.dirname(package)
    prefix = os.path.realpath(sys.prefix)
    needed = [package, prefix, os.path.realpath(sys.executable), os.path.realpath(sys.base_prefix)]
    hide: list[str] = []
    for root in {package_parent, os.path.dirname(prefix), os.path.dirname(os.path.abspath(sys.prefix))}:
        for name in ("solutions", "tests", ".git"):
            candidate = os.path.join(root, name)
            if os.path.isdir(candidate) and not os.path.islink(candidate):
                hide.append(candidate)
    for output in outputs:  # every output, created now so that it is hidden from the first kernel on
        path = Path(output)
        path.parent.mkdir(parents=True, exist_ok=True)
        if path.suffix:  # gradebook.csv, _wide.csv, _summary.txt, _run.json
            if not path.is_symlink():
                path.touch(exist_ok=True)
        else:  # gradebook_feedback/, gradebook_outputs/
            path.mkdir(exist_ok=True)
        hide.append(os.path.realpath(path))
    for folder in {os.path.realpath(submissions), *(os.path.realpath(o.parent) for o in outputs), run_base}:
        if not any(_is_within(n, folder) for n in needed):
            hide.append(folder)
    readonly = [package, prefix]
    return sorted(set(hide)), readonly, package_parent


def unreachable_ancestors(paths: list[str]) -> list[list]:
    """[[ancestor, [paths under it]]] for folders that other users cannot pass through (e.g. /root).

    Parameters
    ----------
    paths : list of str
        Paths a kernel needs.

    Returns
    -------
    list of list
        ``[ancestor, [paths under it]]`` per blocking folder.
    """
    groups: dict[str, list[str]] = {}
    for path in paths:
        parts = Path(path).parts
        for depth in range(2, len(parts)):
            ancestor = str(Path(*parts[:depth]))
            if not os.stat(ancestor).st_mode & stat.S_IXOTH:
                groups.setdefault(ancestor, []).append(path)
                break
    return [[ancestor, sorted(set(p))] for ancestor, p in groups.items()]
