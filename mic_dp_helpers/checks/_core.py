"""The check machinery shared by every lesson's exercises.

An exercise is registered with :func:`exercise`: an id such as "01.2", the name of the
function the student writes, and a checker that calls the student's function on inputs it
generates itself (so a constant answer cannot pass) and raises :class:`CheckFailed` with a
hint when something is off. :func:`check` runs a checker and prints one line.

While a checker runs the student's function, :func:`check_is_running` returns the exercise id. The
course helpers that would give an exercise's answer away are listed in one table, :data:`FORBIDDEN`,
and refuse to run inside that exercise's check (see below). The grader's sandboxed kernel uses the
same table.

The student's function runs under watch: see :mod:`mic_dp_helpers.checks._guard`.
"""

from __future__ import annotations

import contextlib
import contextvars
import sysconfig
import functools
import math
import numbers
import sys
import traceback
import types
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass

import numpy as np

from mic_dp_helpers.checks import _guard
from mic_dp_helpers.checks._guard import FORBIDDEN, CheckFailed, ForbiddenHelperCalled, forbidden_helpers

__all__ = [
    "CheckFailed", "CheckResult", "Exercise", "EXERCISES", "exercise", "check", "run_check", "exercises_for_lesson",
    "expect_number", "call_repeatedly", "check_is_running", "running_student_code",
    "FORBIDDEN", "student_call", "forbidden_helpers", "ForbiddenHelperCalled"]

PASSED, FAILED, NOT_DONE = "passed", "failed", "not done"
ICONS = {PASSED: "✅", FAILED: "❌", NOT_DONE: "⏳"}


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
    try:
        value = float(value)
    except OverflowError:  # a Python int above about 1.8e308
        raise CheckFailed(f"it returned an integer too large for a float instead of {what}; it must return a "
                          "finite number.") from None
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


class _AlreadyWatched:
    """A :class:`_Guarded` answer handed to :func:`student_call`, which watches the call itself.

    It runs the student's function as :class:`_Guarded` does, without a second guard inside the first: the
    snapshot and comparison of every watched namespace cost milliseconds a call, and guarding each call
    twice doubled the time of every statistical check. Only :func:`student_call` makes these, and only of the
    function it calls: an answer among the arguments (``call_repeatedly(answer, n, ...)``, or a helper that
    runs check code between the answer's calls) keeps a guard around each of its calls.
    """

    def __init__(self, guarded: _Guarded) -> None:
        self._answer = guarded._answer
        self._exercise = guarded._exercise

    def __call__(self, *args, **kwargs):
        args = tuple(_unguard(a) for a in args)
        with running_student_code(self._exercise):
            return self._answer(*args, **kwargs)

    def call_repeatedly(self, n: int, *args) -> list:
        args = tuple(_unguard(a) for a in args)
        with running_student_code(self._exercise):
            return call_repeatedly(self._answer, n, *args)


def _watched_once(value, _type=type, _guarded=_Guarded, _plain=_AlreadyWatched):
    return _plain(value) if _type(value) is _guarded else value


#: Python's standard library folder: its frames in a traceback are not the student's code.
_STDLIB = sysconfig.get_paths()["stdlib"]


def _library_file(filename: str) -> bool:
    """Whether a traceback frame's file belongs to an installed library or Python itself, not to the student."""
    return ("site-packages" in filename or "dist-packages" in filename or filename.endswith((".pyx", ".pxd"))
            or filename.startswith(("<frozen", _STDLIB)))


def _is_python_code(answer) -> bool:
    """Whether the answer runs Python code the student wrote (a function, a method, a partial of one, or an
    object whose class defines ``__call__`` in Python), rather than a built-in or compiled library function."""
    target = answer
    while isinstance(target, functools.partial):
        target = target.func
    if isinstance(target, types.MethodType):
        target = target.__func__
    if isinstance(target, types.FunctionType):
        return True
    try:  # the class (or a base class) that defines __call__
        method = next((k.__dict__["__call__"] for k in type(target).__mro__ if "__call__" in k.__dict__), None)
        return isinstance(method, types.FunctionType)
    except Exception:
        return False


def _error_message(error: BaseException, answer=None) -> str:
    """The message for an exception that ended a check: the student's, with its line, or the check's own."""
    summary = getattr(error, "student_summary", None)
    if isinstance(summary, str):  # an error that happened in the student's kernel, described there
        return f"your function raised {summary}"
    own = [f for f in traceback.extract_tb(error.__traceback__) if not _library_file(f.filename)]
    if own and "mic_dp_helpers" not in own[-1].filename:  # the innermost line not in a library is the student's
        return f"your function raised {type(error).__name__}: {error} (line {own[-1].lineno} of your code)"
    if answer is not None and not _is_python_code(answer):  # numpy.add, max, a partial of a library function
        name = getattr(answer, "__name__", type(answer).__name__)
        return (f"your function ({name}, a built-in or library function, not Python code of yours) raised "
                f"{type(error).__name__}: {error}. Write the answer as a Python function (def ...) that does what "
                "the exercise asks.")
    return (f"the check stopped with {type(error).__name__}: {error} in its own code, not in a line of yours. "
            "Check that your function returns what the exercise asks for (type and shape); if it does, "
            "tell your teacher: the fault is then the check's.")


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
        return CheckResult(exercise_id, FAILED, _error_message(error, answer))
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


def student_call(exercise_id: str, check_module, function, *args, extra_modules=(), _call=_guard.student_call,
                 _this=sys.modules[__name__], _once=_watched_once):
    """Call ``function(*args)`` under watch, this module's namespace watched too.

    :func:`mic_dp_helpers.checks._guard.student_call` with the check machinery added to the watched
    namespaces, so a student's function that patches the machinery fails the check.

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
    return _call(exercise_id, check_module, _once(function), *args, extra_modules=(*extra_modules, _this))
