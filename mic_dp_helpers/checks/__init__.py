"""Exercise checks. In a notebook: ``from mic_dp_helpers.checks import check`` then ``check("01.1", my_function)``.

Each lesson's checks live beside this file in ``lessonNN.py`` or, when one module would hold two ideas, in
``lessonNN_topic.py`` modules (one exercise in one module only); every ``lesson*`` module registers its checks
on import.
"""

import importlib as _importlib
import pkgutil as _pkgutil

from mic_dp_helpers.checks._core import (
    EXERCISES,
    CheckFailed,
    CheckResult,
    Exercise,
    call_repeatedly,
    check,
    check_is_running,
    exercises_for_lesson,
    run_check,
)

for _module in sorted(_pkgutil.iter_modules(__path__), key=lambda m: m.name):
    if _module.name.startswith("lesson"):
        _importlib.import_module(f"{__name__}.{_module.name}")

__all__ = [
    "check", "run_check", "CheckResult", "CheckFailed", "Exercise", "EXERCISES", "exercises_for_lesson",
    "call_repeatedly", "check_is_running",
]
