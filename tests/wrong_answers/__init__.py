"""Wrong answers for the exercise checks, one module per lesson (``lessonNN.py`` with a ``WRONG_ANSWERS`` dict)."""

from __future__ import annotations

import importlib
import importlib.util
import pkgutil
from types import ModuleType

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
    extra: list[tuple[str, dict, ModuleType]] = []
    for module in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if module.name.startswith("_"):
            continue
        loaded = importlib.import_module(f"{__name__}.{module.name}")
        answers = getattr(loaded, "WRONG_ANSWERS", {})
        overlap = set(answers) & set(merged)
        if overlap:
            raise ValueError(f"exercises {sorted(overlap)} have wrong answers in two modules")
        merged.update(answers)
        _OWNER.update({(exercise_id, name): (loaded, "WRONG_ANSWERS") for exercise_id in answers
                       for name in answers[exercise_id]})
        extra.extend((exercise_id, more, loaded)
                     for exercise_id, more in getattr(loaded, "MORE_WRONG_ANSWERS", {}).items())
    for exercise_id, answers, loaded in extra:
        twice = set(answers) & set(merged.setdefault(exercise_id, {}))
        if twice:
            raise ValueError(f"wrong answers {sorted(twice)} of {exercise_id} are named in two modules")
        merged[exercise_id] = {**merged[exercise_id], **answers}
        _OWNER.update({(exercise_id, name): (loaded, "MORE_WRONG_ANSWERS") for name in answers})
    return merged


#: (exercise id, mistake) -> (the module that defines it, the name of its dict), filled by collect_wrong_answers.
_OWNER: dict[tuple[str, str], tuple[ModuleType, str]] = {}


def fresh_module(module: ModuleType) -> ModuleType:
    """A new copy of the corpus module ``module``, executed again from its file.

    Some wrong answers keep a memo between calls (a dict in a closure or a module global): an answer already
    run by one test would meet the next test's check with that memo filled, and fail at another stage, with
    another hint. The tests that run an answer another test also runs (``test_checks``, ``test_checks_s39b``,
    ``test_checks_s40a``) take it from a fresh copy, so that its verdict and hint do not depend on which tests
    ran before it in the same worker.
    """
    spec = importlib.util.spec_from_file_location(f"{module.__name__}__fresh", module.__file__)
    copy = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(copy)
    return copy


def fresh_answer(exercise_id: str, mistake: str):
    """The wrong answer ``mistake`` of ``exercise_id`` from a fresh copy of its module (see :func:`fresh_module`)."""
    if not _OWNER:
        collect_wrong_answers()
    module, name = _OWNER[(exercise_id, mistake)]
    return getattr(fresh_module(module), name)[exercise_id][mistake]
