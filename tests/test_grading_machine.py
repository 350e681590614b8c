"""The grader on the teacher's machine: every layout works, a broken machine stops the run, odd names are graded.

- Layouts: the course, its environment, ``TMPDIR`` and the submissions in private (0700) folders, the home
  folder, ``/tmp``, a job folder; an honest and a hostile notebook graded in each. One in-process case is
  fast; the full set runs the command in a copied course with a ``venv --copies`` environment (slow), and
  four of them again as a teacher who is not root (slow).
- A failure of the machine (a kernel that cannot start, checks that cannot load) stops the run before
  anything is recorded, with exit status 3 and one message naming the cause and the fix.
- File names with undecodable bytes, control characters, or differing only in Unicode normalisation
  each get rows of their own, readable in a spreadsheet.
- A class that handed in different lessons is told so, with the ``--lessons`` command.
"""

from __future__ import annotations

import csv
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

import mic_dp_helpers
from mic_dp_teacher import grading
from mic_dp_teacher.grading import counting, machine, report, runner, sandbox
from mic_dp_teacher.grading.submissions import readable_name
from test_grading import IMPORTS, LESSON, ROOT, WRONG_01_1, _rows, _solution_cells, _write

ROOT_MODE = sandbox.isolation_mode() == "root"
needs_root = pytest.mark.skipif(not ROOT_MODE, reason="needs the grader to run as root with namespaces")
TIMEOUT = 20
HOSTILE = ("import dataclasses, pathlib\nfrom mic_dp_helpers.checks import _core\n"
           "for key, spec in list(_core.EXERCISES.items()):\n"
           "    _core.EXERCISES[key] = dataclasses.replace(spec, checker=lambda answer: None)\n"
           "for target in {targets}:\n    try:\n        pathlib.Path(target).write_text('hacked')\n"
           "    except OSError:\n        pass")


def _class(folder: Path, targets: list[str], full: bool = True) -> None:
    """An honest student (lesson 01's solution; only 01.1's unless ``full``) and a hostile one (a wrong 01.1,
    a patched registry, and writes to the teacher's files ``targets``)."""
    _write(folder, "honest", _solution_cells() if full else _solution_cells()[:2])
    _write(folder, "hostile", [IMPORTS, WRONG_01_1, HOSTILE.format(targets=targets)])


def _private(path: Path) -> Path:
    path.mkdir(parents=True, exist_ok=True)
    os.chmod(path, 0o700)
    return path


def _run_folders(tmpdir: Path) -> list[Path]:
    """The grader's run folders left in ``tmpdir`` (the user-id registry, shared by runs, stays)."""
    return [p for p in tmpdir.iterdir() if p.name.startswith("mic-dp-grading-") and "uids" not in p.name]


def _check_class(rows_by_student: dict, secrets: dict[Path, str], passed=("01.1", "01.2", "01.3", "01.4")) -> None:
    honest, hostile = rows_by_student["honest"], rows_by_student["hostile"]
    messages = {e: (row["status"], row["message"][:300]) for e, row in honest.items()}
    assert all(honest[e]["status"] == "passed" for e in passed), messages
    assert hostile["01.1"]["status"] == "wrong", hostile["01.1"]
    for path, text in secrets.items():
        assert path.read_text() == text, path


# ------------------------------------------------------------------ 1. layouts
@needs_root
def test_tmpdir_and_submissions_in_a_private_folder(tmp_path, monkeypatch):
    """The fast case: TMPDIR under a 0700 folder that holds nothing the kernel needs (it failed at chdir)."""
    private = _private(tmp_path / "private")
    scratch = private / "tmp"
    scratch.mkdir()
    secret = private / "secret.txt"
    secret.write_text("the teacher's")
    _class(private / "class", [str(secret), str(private / "grades" / "gradebook.csv")], full=False)
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))
    rows = grading.grade_folder(private / "class", timeout=TIMEOUT, jobs=2, progress=False,
                                out=private / "grades" / "gradebook.csv")
    by_student = {s: {e: {"status": r.status, "message": r.message} for e, r in _rows(rows, s).items()}
                  for s in ("honest", "hostile")}
    _check_class(by_student, {secret: "the teacher's"}, passed=("01.1",))
    assert not _run_folders(scratch)  # the run folder is gone afterwards


@pytest.fixture(scope="module")
def workspace(tmp_path_factory):
    """A private workspace holding a copy of the course and a ``python -m venv --copies`` environment
    that sees the packages of the environment running the tests (through a .pth file)."""
    work = _private(tmp_path_factory.mktemp("layouts") / "workspace")
    course = work / "course"
    for name in ("mic_dp_helpers", "mic_dp_teacher", "exercises", "solutions"):
        shutil.copytree(ROOT / name, course / name, ignore=shutil.ignore_patterns("__pycache__"))
    venv = work / "venv"
    base = getattr(sys, "_base_executable", sys.executable)
    subprocess.run([base, "-m", "venv", "--copies", "--without-pip", str(venv)], check=True, capture_output=True)
    site = subprocess.run([str(venv / "bin" / "python"), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          check=True, capture_output=True, text=True).stdout.strip()
    here = [p for p in sys.path if p.endswith("site-packages") and os.path.isdir(p)]
    Path(site, "course_packages.pth").write_text("\n".join(here) + "\n")
    return work


def _open_folder() -> Path:
    path = Path(tempfile.mkdtemp(prefix="grading-open-", dir="/tmp"))
    os.chmod(path, 0o755)
    return path


LAYOUTS = {
    "course and venv in a private workspace, TMPDIR unset": dict(tmpdir=None),
    "the same with TMPDIR inside the workspace": dict(tmpdir="work/tmp"),
    "TMPDIR in the home folder": dict(tmpdir="home"),
    "TMPDIR in another private folder holding nothing the kernel needs": dict(tmpdir="other/tmp"),
    "SLURM-style TMPDIR=/tmp/jobNNN (0700)": dict(tmpdir="job"),
    "course in a 0755 folder, TMPDIR and submissions inside": dict(tmpdir="open/tmp", course="open", submissions="course"),
    "submissions and gradebook in /tmp, TMPDIR unset": dict(tmpdir=None, submissions="open"),
}


@pytest.mark.slow
@needs_root
@pytest.mark.parametrize("layout", list(LAYOUTS))
def test_every_layout_grades_right(workspace, tmp_path, layout):
    spec = LAYOUTS[layout]
    made: list[Path] = []
    work = workspace
    course = work / "course"
    if spec.get("course") == "open":
        opened = _open_folder()
        made.append(opened)
        shutil.copytree(course, opened / "course")
        course = opened / "course"
    places = {"work": work, "other": _private(tmp_path / "other")}
    tmpdir = spec["tmpdir"]
    if tmpdir == "home":
        tmpdir = Path(tempfile.mkdtemp(prefix="grading-tmp-", dir=Path.home()))
        made.append(tmpdir)
    elif tmpdir == "job":
        tmpdir = Path(tempfile.mkdtemp(prefix="job", dir="/tmp"))  # 0700, as a batch system makes it
        made.append(tmpdir)
    elif tmpdir is not None:
        root, rest = tmpdir.split("/", 1)
        if root == "open":
            places["open"] = course.parent
        tmpdir = places[root] / rest
        tmpdir.mkdir(parents=True, exist_ok=True)
    base = {"open": None, "course": course.parent}.get(spec.get("submissions"), work) or _open_folder()
    if base not in (work, course.parent):
        made.append(base)
    folder, out = base / f"class-{abs(hash(layout))}", base / f"grades-{abs(hash(layout))}" / "gradebook.csv"
    secret = work / "secret.txt"
    secret.write_text("the teacher's")
    package_file = course / "mic_dp_helpers" / "checks" / "lesson01.py"
    package_text = package_file.read_text()
    _class(folder, [str(secret), str(package_file), str(out)])
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(Path.home()), "LANG": "C.UTF-8",
           "PYTHONPATH": str(course)}
    if tmpdir is not None:
        env["TMPDIR"] = str(tmpdir)
    try:
        done = subprocess.run([str(work / "venv" / "bin" / "python"), "-m", "mic_dp_teacher.grading", str(folder),
                               "--out", str(out), "--jobs", "2", "--timeout", str(TIMEOUT)],
                              env=env, cwd=str(course), capture_output=True, text=True, timeout=600)
        assert done.returncode == 0, done.stderr[-2000:]
        with open(out, newline="", encoding="utf-8") as handle:
            table = list(csv.DictReader(handle))
        by_student: dict = {}
        for row in table:
            by_student.setdefault(row["student"], {})[row["exercise"]] = row
        _check_class(by_student, {secret: "the teacher's", package_file: package_text})
        if tmpdir is not None:
            assert not _run_folders(Path(tmpdir))
    finally:
        for path in made:
            shutil.rmtree(path, ignore_errors=True)


# ------------------------------------------------------------------ 1b. the same layouts as a teacher who is not root
OTHER_UID = 65534  # "nobody": no home, no groups, owns nothing on the machine


def _blocked_ancestors(path: Path) -> list[Path]:
    """Ancestors of ``path`` that users other than their owner cannot pass through (no o+x)."""
    return [p for p in reversed(Path(path).resolve().parents) if not p.stat().st_mode & 0o001]


def _as_other_user() -> list[str] | None:
    """A command prefix that runs as ``OTHER_UID`` in a private mount namespace in which the interpreter and the
    environment are reachable, or None when this machine cannot do it. (Here the base Python lives under
    ``/root``, 0700: a tmpfs over that folder, with the interpreter's own tree moved back into it, lets another
    user run it without changing the machine.)"""
    if os.getuid() != 0 or not (shutil.which("unshare") and shutil.which("setpriv")):
        return None
    blocked = {p for prefix in (sys.base_prefix, sys.prefix) for p in _blocked_ancestors(Path(prefix) / "x")}
    if len(blocked) > 1:
        return None
    script = ["set -e"]
    if blocked:
        (folder,) = blocked
        children = {Path(prefix).resolve().relative_to(folder).parts[0] for prefix in (sys.base_prefix, sys.prefix)
                    if Path(prefix).resolve().is_relative_to(folder)}
        for index, child in enumerate(sorted(children)):
            script += [f"mkdir -p /tmp/.grading-view-{os.getpid()}-{index}",
                       f"mount --bind '{folder / child}' /tmp/.grading-view-{os.getpid()}-{index}"]
        script.append(f"mount -t tmpfs -o mode=0755 none '{folder}'")
        for index, child in enumerate(sorted(children)):
            script += [f"mkdir -p '{folder / child}'",
                       f"mount --move /tmp/.grading-view-{os.getpid()}-{index} '{folder / child}'"]
    script.append(f'exec setpriv --reuid {OTHER_UID} --regid {OTHER_UID} --clear-groups "$@"')
    probe = subprocess.run(["unshare", "-m", "--propagation", "private", "bash", "-c", "\n".join(script), "probe",
                            sys.executable, "-c", "import mic_dp_teacher.grading, os; print(os.getuid())"],
                           capture_output=True, text=True, env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)})
    if probe.stdout.strip() != str(OTHER_UID):
        return None
    return ["unshare", "-m", "--propagation", "private", "bash", "-c", "\n".join(script), "as-teacher"]


NON_ROOT_LAYOUTS = {
    "course in a private workspace, TMPDIR inside it": dict(tmpdir="work"),
    "TMPDIR unset (/tmp)": dict(tmpdir=None),
    "SLURM-style TMPDIR=/tmp/jobNNN (0700, the teacher's)": dict(tmpdir="job"),
    "submissions and gradebook in an open folder in /tmp": dict(tmpdir=None, submissions="open"),
}


@pytest.mark.slow
@pytest.mark.parametrize("layout", list(NON_ROOT_LAYOUTS))
def test_every_layout_grades_right_for_a_teacher_who_is_not_root(layout):
    """The grader run by an ordinary user (user namespaces, or the plain mode without them): the honest student
    passes, the hostile one is wrong, and the teacher's files, the course and the gradebook are untouched."""
    prefix = _as_other_user()
    if prefix is None:
        pytest.skip("needs root (to become another user), unshare and setpriv, and an interpreter another user can reach")
    spec = NON_ROOT_LAYOUTS[layout]
    work = Path(tempfile.mkdtemp(prefix="grading-teacher-", dir="/tmp"))  # 0700, the teacher's own
    made = [work]
    try:
        course = work / "course"
        for name in ("mic_dp_helpers", "mic_dp_teacher", "exercises", "solutions"):
            shutil.copytree(ROOT / name, course / name, ignore=shutil.ignore_patterns("__pycache__"))
        tmpdir = {"work": work / "tmp", "job": Path(tempfile.mkdtemp(prefix="job", dir="/tmp")), None: None}[spec["tmpdir"]]
        if spec["tmpdir"] == "job":
            made.append(tmpdir)
        base = work
        if spec.get("submissions") == "open":
            base = _open_folder()
            made.append(base)
        folder, out = base / "class", base / "grades" / "gradebook.csv"
        secret = work / "secret.txt"
        secret.write_text("the teacher's")
        package_file = course / "mic_dp_helpers" / "checks" / "lesson01.py"
        package_text = package_file.read_text()
        _class(folder, [str(secret), str(package_file), str(out)])
        if tmpdir is not None:
            tmpdir.mkdir(exist_ok=True)
        for path in made:
            subprocess.run(["chown", "-R", f"{OTHER_UID}:{OTHER_UID}", str(path)], check=True)
        env = {"PATH": "/usr/bin:/bin", "HOME": str(work), "LANG": "C.UTF-8", "PYTHONPATH": str(course)}
        if tmpdir is not None:
            env["TMPDIR"] = str(tmpdir)
        done = subprocess.run([*prefix, "env", *(f"{k}={v}" for k, v in env.items()), sys.executable, "-m",
                               "mic_dp_teacher.grading", str(folder), "--out", str(out), "--jobs", "2",
                               "--timeout", str(TIMEOUT)], cwd=str(course), capture_output=True, text=True, timeout=600)
        assert done.returncode == 0, done.stdout[-1000:] + done.stderr[-2000:]
        with open(out, newline="", encoding="utf-8") as handle:
            table = list(csv.DictReader(handle))
        by_student: dict = {}
        for row in table:
            by_student.setdefault(row["student"], {})[row["exercise"]] = row
        _check_class(by_student, {secret: "the teacher's", package_file: package_text})
        assert json.loads((out.parent / "gradebook_run.json").read_text())["isolation"] in ("userns", "plain")
        if tmpdir is not None:
            assert not _run_folders(tmpdir)
    finally:
        for path in made:
            shutil.rmtree(path, ignore_errors=True)


# ------------------------------------------------------------------ 2. a broken machine stops the run
def test_a_kernel_that_cannot_load_the_checks_stops_the_run_with_one_message(tmp_path, capsys):
    folder = tmp_path / "class"
    for student in ("ann", "bob", "carl"):
        _write(folder, student, [IMPORTS, WRONG_01_1])
    (folder / "dan").mkdir()
    os.symlink("/etc/passwd", folder / "dan" / LESSON)  # refused without a kernel: not recorded either
    out = tmp_path / "grades" / "gradebook.csv"
    status = grading.main([str(folder), "--out", str(out), "--memory-gb", "0.05", "--jobs", "2"])
    captured = capsys.readouterr()
    assert status == machine.EXIT_STATUS
    assert captured.err.count("Grading stopped") == 1 and "--memory-gb" in captured.err, captured.err
    assert "[1/" not in captured.err and not out.parent.exists()  # nothing was recorded, nothing left behind


def test_a_kernel_that_cannot_start_stops_the_run_and_keeps_the_gradebook(tmp_path, monkeypatch):
    folder = tmp_path / "class"
    _write(folder, "ann", [IMPORTS, WRONG_01_1])
    out = tmp_path / "gradebook.csv"
    out.write_text(report.LONG_HEADER)
    before = out.read_bytes()
    monkeypatch.setattr(sys, "executable", str(tmp_path / "no-such-python"))
    with pytest.raises(machine.MachineFailure) as raised:
        grading.grade_folder(folder, timeout=TIMEOUT, jobs=1, progress=False, out=out)
    assert "Fix:" in str(raised.value) and out.read_bytes() == before
    assert not (tmp_path / "gradebook_wide.csv").exists()


def test_machine_failure_messages_name_the_fix():
    assert "--memory-gb" in machine.fix_for("the sandbox could not be set up (loading the checks: MemoryError: )")
    assert "import mic_dp_helpers.checks" in machine.fix_for("the sandbox could not be set up (loading the checks: "
                                                              "ModuleNotFoundError: No module named 'scipy')")
    assert "--jobs" in machine.fix_for("the kernel did not start in time (within 60 s)")
    assert "runs" in machine.fix_for("the kernel exited (exit code 127) while starting")
    assert "TMPDIR" in machine.fix_for("the sandbox could not be set up (PermissionError: [Errno 13] ...)")


# ------------------------------------------------------------------ 3. file names from anywhere
def test_readable_names_are_utf8_without_control_characters():
    assert readable_name(os.fsdecode(b"caf\xe9.ipynb")) == "caf\\xe9.ipynb"
    assert readable_name("a\tb\nc\x1b\u202e") == "a\\x09b\\x0ac\\x1b\\u202e"
    assert readable_name("Mu\u0308ller") == readable_name("Müller") == "Müller"
    assert readable_name("zoé 👩\u200d🎓") == "zoé 👩\u200d🎓"


def test_odd_file_names_each_get_their_own_rows(tmp_path):
    folder = tmp_path / "class"
    _write(folder, "plain", [IMPORTS, WRONG_01_1])
    odd = os.fsencode(folder)
    os.makedirs(odd + b"/caf\xe9")  # bytes from an archive made on another system: graded by a kernel
    os.rename(folder / "plain" / LESSON, odd + b"/caf\xe9/" + LESSON.encode())
    for name in ("plain", "tab\tnew\nline\x1b", "Mu\u0308ller", "Müller"):  # invalid notebooks: no kernel
        os.makedirs(odd + b"/" + name.encode(), exist_ok=True)
        Path(os.fsdecode(odd + b"/" + name.encode() + b"/" + LESSON.encode())).write_text("{ not json")
    out = tmp_path / "grades" / "gradebook.csv"
    rows = grading.grade_folder(folder, timeout=TIMEOUT, jobs=2, progress=False, out=out)
    students = {row.student for row in rows}
    twin = next(s for s in students if s.startswith("Müller #"))
    assert students == {"plain", "caf\\xe9", "tab\\x09new\\x0aline\\x1b", "Müller", twin}
    assert _rows(rows, "caf\\xe9")["01.1"].status == "wrong"
    for student in ("plain", "tab\\x09new\\x0aline\\x1b", "Müller", twin):
        assert _rows(rows, student)["01.1"].status == "problem"
    text = out.read_bytes().decode("utf-8")  # the whole gradebook is UTF-8
    assert "\t" not in text and "\x1b" not in text and "\n" not in text.replace("\r\n", "")
    feedback = sorted(p.name for p in (tmp_path / "grades" / "gradebook_feedback").iterdir())
    assert len(feedback) == 5 and all(name.isascii() and name.isprintable() for name in feedback), feedback


# ------------------------------------------------------------------ 4. a class that handed in different lessons
def test_an_empty_assignment_is_said_with_the_command(tmp_path, capsys):
    folder = tmp_path / "class"
    for student, lesson in (("ann", "01"), ("bob", "02"), ("carl", "03")):
        name = next(p.name for p in (ROOT / "exercises").glob(f"{lesson}_*_exercises.ipynb"))
        (folder / student).mkdir(parents=True)
        (folder / student / name).write_text("{ not json")  # graded without a kernel: fast
    out = tmp_path / "gradebook.csv"
    assert grading.main([str(folder), "--out", str(out), "--jobs", "1"]) == 0
    printed = capsys.readouterr().out
    assert "assignment is empty" in printed and "--lessons 01,02,03" in printed and str(folder) in printed
    assert "assignment is empty" in (tmp_path / "gradebook_summary.txt").read_text()
    assert grading.main([str(folder), "--out", str(out), "--jobs", "1", "--lessons", "01,02,03"]) == 0
    assert "assignment is empty" not in capsys.readouterr().out


def test_a_lesson_left_out_is_named_and_a_full_assignment_says_nothing():
    found = [("a/01_x.ipynb", "a", "01"), ("b/01_x.ipynb", "b", "01"), ("c/03_x.ipynb", "c", "03")]
    note = counting.assignment_note(counting.assignment_lessons(found, None))
    assert "left out" in note and "03 (1 student)" in note and "--lessons 01,03" in note
    assert counting.assignment_note(counting.assignment_lessons(found[:2], None)) == ""
    assert counting.assignment_note(counting.assignment_lessons(found, ["01"])) == ""
