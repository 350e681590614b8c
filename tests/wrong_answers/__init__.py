"""Wrong answers for the exercise checks, one module per lesson (``lessonNN.py`` with a ``WRONG_ANSWERS`` dict)."""

from __future__ import annotations

import importlib
import pkgutil


def collect_wrong_answers() -> dict[str, dict]:
    """Merge the ``WRONG_ANSWERS`` of every lesson module: {exercise id: {mistake: function}}."""
    merged: dict[str, dict] = {}
    for module in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if module.name.startswith("_"):
            continue
        answers = importlib.import_module(f"{__name__}.{module.name}").WRONG_ANSWERS
        overlap = set(answers) & set(merged)
        if overlap:
            raise ValueError(f"exercises {sorted(overlap)} have wrong answers in two modules")
        merged.update(answers)
    return merged
