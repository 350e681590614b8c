"""The check machinery shared by every lesson's exercises.

An exercise is registered with :func:`exercise`: an id such as "01.2", the name of the
function the student writes, and a checker that calls the student's function on inputs it
generates itself (so a constant answer cannot pass) and raises :class:`CheckFailed` with a
hint when something is off. :func:`check` runs a checker and prints one line.

While a checker runs the student's function, :func:`check_is_running` returns the exercise id. The
course helpers that would give an exercise's answer away are listed in one table, :data:`FORBIDDEN`,
and refuse to run inside that exercise's check (see below). The grader's sandboxed kernel uses the
same table.

Running the student's code under watch
--------------------------------------
Run a student's function inside a check so that it cannot pass without solving the exercise.

In the student's own process a function can reach everything the check can. The checks therefore

- compute the expected answer only *after* the student's function returns, from inputs they
  regenerate, so nothing worth reading sits in a frame the function can walk up to;
- use references to NumPy, SciPy and builtins bound when their module is imported;
- run the student's function inside :func:`student_call`, which snapshots the namespaces a
  check relies on (its own module, the check machinery, ``builtins``, ``math``, NumPy, SciPy's
  statistics, pandas' table classes, the course modules used to compute expected answers) and,
  when the function returns, puts back anything it changed and fails the check: patching a
  helper through ``f_globals`` or shadowing a builtin in the check's module is refused, never
  rewarded;
- make the course helpers an exercise asks students to write themselves refuse to run for the
  duration of the call (their code object is swapped for one that records the call and raises),
  so ``from mic_dp_helpers.mechanisms.noise import laplace_mechanism`` done earlier is caught too.

When the grader runs the student's code in another process (a proxy with its own
``call_repeatedly``), the patches cannot reach the check at all; the forbidden helpers of each
exercise are listed in :data:`FORBIDDEN`, and the grader's kernel
(:class:`mic_dp_teacher.grading.worker._ForbiddenHelpers`) installs the same stand-ins there around
every call of the student's function, from the table and function objects it captured before the
student's cells ran, so the verdict is the same as the notebook's ``check()``.
"""

from __future__ import annotations

import contextlib
import contextvars
import functools
import math
import numbers
import sys
import traceback
import types
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass
import builtins
import importlib
import numpy as np
import pandas as pd
import scipy.special
import scipy.stats

__all__ = [
    "CheckFailed", "CheckResult", "Exercise", "EXERCISES", "exercise", "check", "run_check", "exercises_for_lesson",
    "expect_number", "call_repeatedly", "check_is_running", "running_student_code",
    "FORBIDDEN", "student_call", "forbidden_helpers", "ForbiddenHelperCalled"]

PASSED, FAILED, NOT_DONE = "passed", "failed", "not done"
ICONS = {PASSED: "✅", FAILED: "❌", NOT_DONE: "⏳"}


class CheckFailed(AssertionError):
    """Raised by a checker with a hint for the student (the hint must not give the answer away)."""


def expect_number(value, what: str) -> float:
    """Return a student's answer as a finite float, or fail with a hint saying what was expected.

    A one-element NumPy array counts as a number; booleans, strings, NaN and infinities do not.

    Parameters
    ----------
    value : object
        What the student's function returned.
    what : str
        What was expected, for the hint ("a share").

    Returns
    -------
    float
        ``value`` as a finite float.

    Raises
    ------
    CheckFailed
        If ``value`` is not a single finite number.

    Examples
    --------
    >>> expect_number(0.25, "a share")
    0.25
    """
    import numpy as np

    if isinstance(value, np.ndarray) and value.size == 1 and value.dtype.kind in "fiu":
        value = value.reshape(-1)[0]
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (numbers.Real, np.number)):
        raise CheckFailed(f"it should return {what} (a single number), but it returned a {type(value).__name__}.")
    value = float(value)
    if not math.isfinite(value):
        raise CheckFailed(f"it returned {value} instead of {what}; it must return a finite number.")
    return value


_RUNNING: contextvars.ContextVar[str | None] = contextvars.ContextVar("mic_dp_check_running", default=None)


def check_is_running() -> str | None:
    """The id of the exercise whose check is running the student's function right now, else None.

    Returns
    -------
    str or None
        The exercise id, or None outside a check.

    Examples
    --------
    >>> check_is_running() is None
    True
    """
    return _RUNNING.get()


@contextlib.contextmanager
def running_student_code(exercise_id: str | None) -> Iterator[None]:
    """Mark the block as the student's function running under the check of ``exercise_id``.

    ``None`` marks the opposite (the checker's own code, e.g. a callback it handed the student).

    Parameters
    ----------
    exercise_id : str or None
        The exercise whose check runs the block, or None.

    Yields
    ------
    None
        The flag is reset on exit.
    """
    token = _RUNNING.set(exercise_id)
    try:
        yield
    finally:
        _RUNNING.reset(token)


def call_repeatedly(answer: Callable, n: int, *args) -> list:
    """Call ``answer(*args)`` ``n`` times in order, with the same argument objects, and return the results.

    Checks that need many outputs of a student's function (a DP release drawn thousands of times) call
    it through here, never in a loop of their own: when the grader hands a check a function that lives
    in another process, that proxy provides its own ``call_repeatedly`` and does all ``n`` calls in one
    round trip. Arguments that change state between calls (a random generator) advance as in a loop.

    Parameters
    ----------
    answer : callable
        The student's function (or a proxy of it).
    n : int
        Number of calls.
    *args
        Arguments of every call.

    Returns
    -------
    list
        The ``n`` results, in order.

    Examples
    --------
    >>> call_repeatedly(lambda x: x + 1, 3, 1)
    [2, 2, 2]
    """
    batched = getattr(type(answer), "call_repeatedly", None)
    if batched is not None:
        return list(batched(answer, n, *args))
    return [answer(*args) for _ in range(n)]


@dataclass(frozen=True)
class Exercise:
    """One exercise: its id ("01.2"), title, the name of the student's function, and its checker.

    Attributes
    ----------
    id : str
        The exercise id ("01.2").
    title : str
        A short title.
    answer_name : str
        Name of the function the student writes.
    checker : callable
        ``checker(answer)``: returns None, or raises CheckFailed with a hint.
    """

    id: str
    title: str
    answer_name: str
    checker: Callable[[Callable], None]

    @property
    def lesson(self) -> str:
        return self.id.split(".")[0]


@dataclass(frozen=True)
class CheckResult:
    """Outcome of one check: ``status`` is "passed", "failed" or "not done".

    Attributes
    ----------
    exercise : str
        The exercise id ("01.2").
    status : {"passed", "failed", "not done"}
        The outcome.
    message : str
        The line shown to the student (a hint when failed).
    """

    exercise: str
    status: str
    message: str

    @property
    def passed(self) -> bool:
        return self.status == PASSED

    def to_dict(self) -> dict:
        """The result as a plain dict (for JSON and the gradebook).

        Returns
        -------
        dict
            ``exercise``, ``status`` and ``message``.
        """
        return asdict(self)

    def _ipython_display_(self) -> None:
        """Show nothing: :func:`check` has already printed the one line a student needs."""

    def __str__(self) -> str:
        return f"{ICONS[self.status]} Exercise {self.exercise}: {self.message}"


EXERCISES: dict[str, Exercise] = {}


def exercise(exercise_id: str, *, title: str, answer_name: str) -> Callable:
    """Decorator registering a checker for exercise ``exercise_id``.

    Parameters
    ----------
    exercise_id : str
        The exercise id ("01.2"), registered once.
    title : str
        A short title.
    answer_name : str
        Name of the function the student writes.

    Returns
    -------
    callable
        The decorator; it registers the checker and returns it unchanged.

    Raises
    ------
    ValueError
        When the decorated checker is registered, if ``exercise_id`` already is.
    """

    def register(checker: Callable[[Callable], None]) -> Callable[[Callable], None]:
        if exercise_id in EXERCISES:
            raise ValueError(f"exercise {exercise_id} is registered twice")
        EXERCISES[exercise_id] = Exercise(exercise_id, title, answer_name, checker)
        return checker

    return register


def exercises_for_lesson(lesson: str) -> list[Exercise]:
    """The registered exercises of ``lesson`` ("01"), in order.

    Parameters
    ----------
    lesson : str
        Two-digit lesson number ("01").

    Returns
    -------
    list of Exercise
        Sorted by id; empty for an unknown lesson.
    """
    return [EXERCISES[key] for key in sorted(EXERCISES) if EXERCISES[key].lesson == lesson]


class _Unguarded:
    """A callable the checker hands the student: while it runs, the checker's code is running."""

    def __init__(self, function: Callable) -> None:
        self._function = function

    def __call__(self, *args, **kwargs):
        with running_student_code(None):
            return self._function(*args, **kwargs)

    def __getattr__(self, name: str):
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(self._function, name)


def _unguard(value):
    if isinstance(value, (types.FunctionType, types.MethodType, functools.partial)) or (
        callable(value) and not isinstance(value, type) and type(value).__module__.startswith("mic_dp_helpers")
    ):
        return _Unguarded(value)
    return value


class _Guarded:
    """The student's function as a checker sees it: it runs with :func:`check_is_running` set."""

    def __init__(self, answer: Callable, exercise_id: str) -> None:
        self._answer = answer
        self._exercise = exercise_id

    def _watched(self, function: Callable, *args):
        # Every check, whoever wrote it, runs the student's code under the anti-patching guard: a patch
        # of the check's module, of builtins, math, NumPy, SciPy or pandas is undone and fails the check.
        module = sys.modules.get(EXERCISES[self._exercise].checker.__module__) if self._exercise in EXERCISES else None
        if module is None:
            return function(*args)
        return student_call(self._exercise, module, function, *args)

    def __call__(self, *args, **kwargs):
        args = tuple(_unguard(a) for a in args)
        with running_student_code(self._exercise):
            return self._watched(lambda *a: self._answer(*a, **kwargs), *args)

    def call_repeatedly(self, n: int, *args) -> list:
        args = tuple(_unguard(a) for a in args)
        with running_student_code(self._exercise):
            return self._watched(call_repeatedly, self._answer, n, *args)


def _student_frame_summary(error: BaseException) -> str:
    summary = getattr(error, "student_summary", None)
    if isinstance(summary, str):  # an error that happened in the student's kernel, described there
        return summary
    frames = traceback.extract_tb(error.__traceback__)
    student = [f for f in frames if "mic_dp_helpers" not in f.filename]
    where = f" (line {student[-1].lineno} of your code)" if student else ""
    return f"{type(error).__name__}: {error}{where}"


def _not_implemented_message(name: str, in_kernel: bool) -> str:
    message = f"not done yet: `{name}` still raises NotImplementedError."
    if in_kernel:
        message += (
            " If you have already written your answer, run that cell first (Shift+Enter), then this check: "
            "the check sees the function as it was when its cell last ran."
        )
    return message


def run_check(exercise_id: str, answer, *, in_kernel: bool = True, guard: bool = True) -> CheckResult:
    """Run the checker of ``exercise_id`` on ``answer`` and return the result, without printing.

    ``in_kernel=False`` words messages for a teacher's gradebook; ``guard=False`` leaves the
    "check is running" flag alone (the grader sets it in the student's sandboxed kernel instead).

    Parameters
    ----------
    exercise_id : str
        The exercise id ("01.2").
    answer : callable or None
        The student's function; None or ``...`` means not done yet.
    in_kernel : bool, default True
        Word the messages for a student in a notebook (False: for a gradebook).
    guard : bool, default True
        Set the "check is running" flag around the student's calls.

    Returns
    -------
    CheckResult
        The outcome.

    Raises
    ------
    KeyError
        If ``exercise_id`` is not a registered exercise.
    """
    if exercise_id not in EXERCISES:
        known = ", ".join(sorted(EXERCISES))
        raise KeyError(f"no exercise {exercise_id!r}; known exercises are {known}.")
    spec = EXERCISES[exercise_id]
    if answer is None or answer is Ellipsis:
        return CheckResult(exercise_id, NOT_DONE, f"not done yet: define `{spec.answer_name}` and run this cell again.")
    if not callable(answer):
        return CheckResult(
            exercise_id, FAILED, f"`{spec.answer_name}` should be a function, got {type(answer).__name__}."
        )
    try:
        spec.checker(_Guarded(answer, exercise_id) if guard else answer)
    except NotImplementedError:
        return CheckResult(exercise_id, NOT_DONE, _not_implemented_message(spec.answer_name, in_kernel))
    except CheckFailed as failure:
        return CheckResult(exercise_id, FAILED, f"not right yet. Hint: {failure}")
    except KeyboardInterrupt:
        raise
    except BaseException as error:  # the student's code raised: report it, never pass
        return CheckResult(exercise_id, FAILED, f"your function raised {_student_frame_summary(error)}")
    return CheckResult(exercise_id, PASSED, f"{spec.title}: passed.")


def check(exercise_id: str, answer) -> CheckResult:
    """Check the answer to exercise ``exercise_id`` and print one line: passed, a hint, or not done yet.

    The result is returned for code that wants it; as the last line of a Jupyter cell it shows nothing
    more than the printed line.

    Parameters
    ----------
    exercise_id : str
        The exercise id ("01.2").
    answer : callable or None
        The student's function; None or ``...`` means not done yet.

    Returns
    -------
    CheckResult
        The outcome (already printed).

    Examples
    --------
    >>> from mic_dp_helpers.checks import check
    >>> def uniqueness_share(df, columns):
    ...     raise NotImplementedError
    >>> result = check("01.1", uniqueness_share)  # doctest: +ELLIPSIS
    ⏳ Exercise 01.1: not done yet: ...
    """
    result = run_check(exercise_id, answer)
    print(result)
    return result

#: Exercise id -> the course helpers (``"module:function"``) that already solve it.
FORBIDDEN: dict[str, tuple[str, ...]] = {}

_IGNORED_KEYS = frozenset({"_", "__", "___", "__warningregistry__", "__loader__", "__spec__"})


class ForbiddenHelperCalled(RuntimeError):
    """Raised by a forbidden course helper called inside a check."""


def _base_namespaces() -> tuple:
    return (
        ("builtins", builtins.__dict__, True),
        ("math", math.__dict__, True),
        ("numpy", np.__dict__, False),
        ("numpy.random", np.random.__dict__, False),
        ("scipy.stats", scipy.stats.__dict__, False),
        ("scipy.special", scipy.special.__dict__, False),
        ("pandas", pd.__dict__, False),
        ("pandas.DataFrame", pd.DataFrame.__dict__, False),
        ("pandas.Series", pd.Series.__dict__, False),
        ("mic_dp_helpers.checks._core", sys.modules[__name__].__dict__, True),
    )


_BASE_NAMESPACES = _base_namespaces()


def _watched_namespaces(extra_modules, _base=_BASE_NAMESPACES, _list=list) -> list:
    """(name, namespace, own) triples; in ``own`` namespaces a new key counts as tampering too."""
    spaces = _list(_base)
    for module in extra_modules:
        spaces.append((module.__name__, module.__dict__, module.__name__.startswith("mic_dp_helpers.checks")))
    return spaces


def _snapshot(spaces, _dict=dict):
    return [(name, space, own, _dict(space)) for name, space, own in spaces]


_MISSING = object()


def _restore(snapshots, _isinstance=isinstance, _proxy=types.MappingProxyType, _setattr=setattr,
             _delattr=delattr, _frame=pd.DataFrame, _series=pd.Series, _ignored=_IGNORED_KEYS,
             _missing=_MISSING) -> list:
    """Put every watched namespace back as it was; return the names that had been changed.

    Only locals and default arguments are used here (no globals, no builtins by name), so a student
    who shadowed names in this module's globals cannot disturb the restoration.
    """
    changed = []
    for name, space, own, before in snapshots:
        get = space.get
        altered = [key for key, value in before.items() if get(key, _missing) is not value and key not in _ignored]
        added = ([key for key in space if key not in before and key not in _ignored]
                 if own or _isinstance(space, _proxy) else [])
        if not altered and not added:
            continue
        changed.extend(f"{name}.{key}" for key in altered + added)
        if _isinstance(space, _proxy):  # a class: restore with setattr
            owner = _frame if name.endswith("DataFrame") else _series
            for key in altered:
                _setattr(owner, key, before[key])
            for key in added:
                _delattr(owner, key)
        else:
            for key in altered:
                space[key] = before[key]
            for key in added:
                del space[key]
    return changed


def _resolve(target: str):
    module_name, _, attribute = target.partition(":")
    return getattr(importlib.import_module(module_name), attribute)


def _refusing_code():
    def refuse(*args, _record=None, _message="", **kwargs):
        _record.append(_message)
        raise RuntimeError(_message)

    return refuse.__code__


_REFUSE_CODE = _refusing_code()


@contextlib.contextmanager
def forbidden_helpers(targets, record: list):
    """Make each helper in ``targets`` ("module:function") refuse to run, appending its name to ``record``.

    The function objects themselves are changed (code and keyword defaults), so references the
    student took before the check (``from module import function``) refuse too. Everything is put
    back on exit.

    Parameters
    ----------
    targets : iterable of str
        Helpers as ``"module:function"``.
    record : list
        Receives the name of each refused helper that was called.

    Yields
    ------
    None
        The helpers refuse inside the ``with`` block.
    """
    swapped = []
    try:
        for target in targets:
            function = _resolve(target)
            if not isinstance(function, types.FunctionType) or function.__closure__:
                continue
            message = (f"{target.replace(':', '.')} is the course's own answer to this exercise; the exercise "
                       "asks you to write it yourself")
            swapped.append((function, function.__code__, function.__kwdefaults__))
            function.__code__ = _REFUSE_CODE
            function.__kwdefaults__ = {"_record": record, "_message": message}
        yield
    finally:
        for function, code, kwdefaults in swapped:
            function.__code__ = code
            function.__kwdefaults__ = kwdefaults


def student_call(exercise_id: str, check_module, function, *args, extra_modules=(), _restore=_restore,
                 _snapshot=_snapshot, _watched=_watched_namespaces, _forbidden=forbidden_helpers,
                 _table=FORBIDDEN, _failed=CheckFailed, _sorted=sorted, _set=set, _base=BaseException):
    """Call ``function(*args)`` (a student's function, or a helper that calls it) under watch.

    Returns what it returns. Raises :class:`~mic_dp_helpers.checks._core.CheckFailed` if, while
    it ran, it called a forbidden course helper or changed a namespace the check relies on (that
    change is undone first). After the call only locals and default arguments are used.

    Parameters
    ----------
    exercise_id : str
        The exercise whose check makes the call.
    check_module : module
        The check's module, whose namespace is watched.
    function : callable
        The function to call.
    *args
        Its arguments.
    extra_modules : sequence of module, optional
        More namespaces to watch.

    Returns
    -------
    object
        What ``function`` returned.
    """
    record: list[str] = []
    snapshots = _snapshot(_watched([check_module, *extra_modules]))
    failure = None
    try:
        with _forbidden(_table.get(exercise_id, ()), record):
            result = function(*args)
    except _base as error:  # re-raised below, after the namespaces are restored
        failure = error
    changed = _restore(snapshots)
    if changed:
        shown = ", ".join(_sorted(_set(changed))[:3])
        raise _failed(
            f"your function changed what the check itself uses ({shown}). Patching a check never makes "
            "it succeed; solve the exercise instead.")
    if record:
        raise _failed(f"{record[0]} (do not call it, not even inside try/except).")
    if failure is not None:
        try:
            raise failure
        finally:  # break the frame -> exception -> traceback -> frame cycle, so nothing lingers until GC
            failure = None
    return result
