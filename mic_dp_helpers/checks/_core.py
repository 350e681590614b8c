"""The check machinery shared by every lesson's exercises.

An exercise is registered with :func:`exercise`: an id such as "01.2", the name of the
function the student writes, and a checker that calls the student's function on inputs it
generates itself (so a constant answer cannot pass) and raises :class:`CheckFailed` with a
hint when something is off. :func:`check` runs a checker and prints one line.
"""

from __future__ import annotations

import math
import numbers
import traceback
from collections.abc import Callable
from dataclasses import asdict, dataclass

__all__ = [
    "CheckFailed", "CheckResult", "Exercise", "EXERCISES", "exercise", "check", "run_check", "exercises_for_lesson",
    "expect_number", "call_repeatedly",
]

PASSED, FAILED, NOT_DONE = "passed", "failed", "not done"
ICONS = {PASSED: "✅", FAILED: "❌", NOT_DONE: "⏳"}


class CheckFailed(AssertionError):
    """Raised by a checker with a hint for the student (the hint must not give the answer away)."""


def expect_number(value, what: str) -> float:
    """Return a student's answer as a finite float, or fail with a hint saying what was expected.

    A one-element NumPy array counts as a number; booleans, strings, NaN and infinities do not.

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


def call_repeatedly(answer: Callable, n: int, *args) -> list:
    """Call ``answer(*args)`` ``n`` times in order, with the same argument objects, and return the results.

    Checks that need many outputs of a student's function (a DP release drawn thousands of times) call
    it through here, never in a loop of their own: when the grader hands a check a function that lives
    in another process, that proxy provides its own ``call_repeatedly`` and does all ``n`` calls in one
    round trip. Arguments that change state between calls (a random generator) advance as in a loop.

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
    """One exercise: its id ("01.2"), title, the name of the student's function, and its checker."""

    id: str
    title: str
    answer_name: str
    checker: Callable[[Callable], None]

    @property
    def lesson(self) -> str:
        return self.id.split(".")[0]


@dataclass(frozen=True)
class CheckResult:
    """Outcome of one check: ``status`` is "passed", "failed" or "not done"."""

    exercise: str
    status: str
    message: str

    @property
    def passed(self) -> bool:
        return self.status == PASSED

    def to_dict(self) -> dict:
        return asdict(self)

    def __str__(self) -> str:
        return f"{ICONS[self.status]} Exercise {self.exercise}: {self.message}"


EXERCISES: dict[str, Exercise] = {}


def exercise(exercise_id: str, *, title: str, answer_name: str) -> Callable:
    """Decorator registering a checker for exercise ``exercise_id``."""

    def register(checker: Callable[[Callable], None]) -> Callable[[Callable], None]:
        if exercise_id in EXERCISES:
            raise ValueError(f"exercise {exercise_id} is registered twice")
        EXERCISES[exercise_id] = Exercise(exercise_id, title, answer_name, checker)
        return checker

    return register


def exercises_for_lesson(lesson: str) -> list[Exercise]:
    """The registered exercises of ``lesson`` ("01"), in order."""
    return [EXERCISES[key] for key in sorted(EXERCISES) if EXERCISES[key].lesson == lesson]


def _student_frame_summary(error: BaseException) -> str:
    frames = traceback.extract_tb(error.__traceback__)
    student = [f for f in frames if "mic_dp_helpers" not in f.filename]
    where = f" (line {student[-1].lineno} of your code)" if student else ""
    return f"{type(error).__name__}: {error}{where}"


def run_check(exercise_id: str, answer) -> CheckResult:
    """Run the checker of ``exercise_id`` on ``answer`` and return the result, without printing."""
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
        spec.checker(answer)
    except NotImplementedError:
        return CheckResult(
            exercise_id, NOT_DONE, f"not done yet: replace the `raise NotImplementedError` line in `{spec.answer_name}`."
        )
    except CheckFailed as failure:
        return CheckResult(exercise_id, FAILED, f"not right yet. Hint: {failure}")
    except KeyboardInterrupt:
        raise
    except BaseException as error:  # the student's code raised: report it, never pass
        return CheckResult(exercise_id, FAILED, f"your function raised {_student_frame_summary(error)}")
    return CheckResult(exercise_id, PASSED, f"{spec.title}: passed.")


def check(exercise_id: str, answer) -> CheckResult:
    """Check the answer to exercise ``exercise_id`` and print one line: passed, a hint, or not done yet.

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
