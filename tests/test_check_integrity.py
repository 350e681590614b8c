"""Checks cannot be passed without solving: patches are undone and refused, forbidden helpers refuse.

These run the student's function in the checker's own process (as a notebook does). The answers that
try to cheat live in ``tests/wrong_answers/_cheats.py``; here we also verify that nothing they did
survives the check.
"""

from __future__ import annotations

import builtins
import math

import numpy as np
import pytest
import scipy.stats

from mic_dp_helpers.mechanisms import noise as mechanisms
from mic_dp_helpers.checks import EXERCISES, run_check
from mic_dp_helpers.checks import _core, _guard, lesson02
from conftest import changed_names, course_namespaces
from wrong_answers import collect_wrong_answers

ORIGINALS = {"isclose": math.isclose, "median": np.median, "kstest": scipy.stats.kstest, "abs": builtins.abs}


def _state():
    return {"isclose": math.isclose, "median": np.median, "kstest": scipy.stats.kstest, "abs": builtins.abs}


WRONG_ANSWERS = collect_wrong_answers()


@pytest.mark.parametrize("exercise_id", sorted(WRONG_ANSWERS))
def test_every_cheat_is_rejected_and_leaves_nothing_behind(exercise_id):
    answers = WRONG_ANSWERS[exercise_id]
    cheats = [name for name in answers if name.startswith("cheat")]
    assert cheats, f"{exercise_id} has no answer that tries to cheat"
    for name in cheats:
        answer = answers[name]
        before = {space: dict(vars(space)) for space in (_core, lesson02)}
        every_module = course_namespaces()
        result = run_check(exercise_id, answer)
        assert result.status == "failed", f"{exercise_id} {name!r} was accepted"
        assert _state() == ORIGINALS, f"{exercise_id} {name!r} left a patch behind"
        for space, names in before.items():
            assert set(vars(space)) == set(names), f"{exercise_id} {name!r} left names in {space.__name__}"
        assert not changed_names(every_module), f"{exercise_id} {name!r} left a patch in a course module"


def test_patching_through_f_globals_is_named_in_the_hint():
    import sys

    def answer(value, sensitivity, epsilon, rng):
        frame = sys._getframe(1)
        while frame is not None and frame.f_globals.get("__name__") != "mic_dp_helpers.checks.lesson02":
            frame = frame.f_back
        frame.f_globals["_isclose"] = lambda *a, **k: True
        return value + rng.laplace(0.0, sensitivity / epsilon)

    result = run_check("02.1", answer)
    assert result.status == "failed" and "lesson02._isclose" in result.message
    assert lesson02._isclose is math.isclose


def test_a_forbidden_helper_imported_before_the_check_refuses_and_works_again_after():
    from mic_dp_helpers.mechanisms.noise import laplace_mechanism  # taken before the check, as a student would

    def answer(value, sensitivity, epsilon, rng):
        return laplace_mechanism(value, sensitivity, epsilon, rng)

    result = run_check("02.1", answer)
    assert result.status == "failed" and "write it yourself" in result.message
    assert abs(mechanisms.laplace_mechanism(5.0, 1.0, 1.0, rng=0) - 5.0) < 50  # restored after the check


def test_the_forbidden_list_names_existing_functions():
    for exercise_id, targets in _core.FORBIDDEN.items():
        assert exercise_id in EXERCISES
        for target in targets:
            assert callable(_guard._resolve(target)), target


def test_namespaces_are_restored_when_the_student_raises():
    def answer(value, sensitivity, epsilon, rng):
        math.isclose = lambda *a, **k: True
        raise KeyboardInterrupt if False else ValueError("boom")

    result = run_check("02.1", answer)
    assert result.status == "failed" and math.isclose is ORIGINALS["isclose"]


def test_the_float_plan_of_04_4_trips_a_bare_comparison_on_this_python():
    """The planted mistake (``sum(...) > remaining``) must fail for the same reason on 3.11, 3.12 and 3.13."""
    from mic_dp_helpers.accounting.ledger import PrivacyAccountant
    from mic_dp_helpers.checks.lesson04_plans import _float_case

    for seed in range(50):
        total, earlier, plan = _float_case(seed)
        accountant = PrivacyAccountant(total)
        for spend in earlier:
            accountant.spend(spend)
        epsilons = [e for _, e in plan]
        assert sum(epsilons) > accountant.remaining_epsilon  # builtin sum: compensated from 3.12
        assert accountant.can_spend_all(epsilons)  # the plan fits when added exactly, as the ledger does
        assert not accountant.can_spend(math.fsum(epsilons))  # but not as one float-summed spend
