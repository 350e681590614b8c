"""Wrong answers for the exercise checks, one module per lesson (``lessonNN.py`` with a ``WRONG_ANSWERS`` dict)."""

from __future__ import annotations

import importlib
import pkgutil

#: Exercises whose check takes 1-8 s for a correct answer (thousands of calls, PyDP, Spark-sized logs, a
#: Python loop per call): the default run tries only a few of their wrong answers and none of their honest
#: variants (the reference solution is checked in solutions/*.ipynb); the slow run tries them all.
COSTLY_CHECKS = frozenset({"02.1", "02.4", "04.1", "04.4", "06.4", "07.1", "07.3", "07.4", "07.5", "08.2", "08.3",
                           "08.5", "09.1"})


def collect_wrong_answers() -> dict[str, dict]:
    """Merge the ``WRONG_ANSWERS`` of every lesson module: {exercise id: {mistake: function}}.

    A module may also hold ``MORE_WRONG_ANSWERS`` (same shape) for an exercise another module owns, when
    that module is full (600 lines): they join the owner's answers, a mistake named twice is an error."""
    merged: dict[str, dict] = {}
    extra: list[tuple[str, dict]] = []
    for module in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if module.name.startswith("_"):
            continue
        loaded = importlib.import_module(f"{__name__}.{module.name}")
        answers = getattr(loaded, "WRONG_ANSWERS", {})
        overlap = set(answers) & set(merged)
        if overlap:
            raise ValueError(f"exercises {sorted(overlap)} have wrong answers in two modules")
        merged.update(answers)
        extra.extend(getattr(loaded, "MORE_WRONG_ANSWERS", {}).items())
    for exercise_id, answers in extra:
        twice = set(answers) & set(merged.setdefault(exercise_id, {}))
        if twice:
            raise ValueError(f"wrong answers {sorted(twice)} of {exercise_id} are named in two modules")
        merged[exercise_id] = {**merged[exercise_id], **answers}
    return merged
