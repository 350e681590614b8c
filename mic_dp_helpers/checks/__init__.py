"""Exercise checks. In a notebook: ``from mic_dp_helpers.checks import check`` then ``check("01.1", my_function)``."""

from mic_dp_helpers.checks._core import (
    EXERCISES,
    CheckFailed,
    CheckResult,
    Exercise,
    check,
    exercises_for_lesson,
    run_check,
)
from mic_dp_helpers.checks import lesson00, lesson01  # noqa: F401  (each registers its exercises)

__all__ = ["check", "run_check", "CheckResult", "CheckFailed", "Exercise", "EXERCISES", "exercises_for_lesson"]
