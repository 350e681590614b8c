"""A student's function that patches the check's namespaces through ``f_globals`` leaves no trace.

The checks call the student's function from frames of many modules (sweeps, statistics helpers, reference
mechanisms). A patch through any such frame must be undone and fail the check; if it lingered, every later check
in the same process would run on the patched module (it did: once 08.2's cases moved to a module of their own,
a shadowed ``len`` in ``lesson08`` made honest 08.2 answers fail later with "math domain error").
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from conftest import changed_names, course_namespaces, solution_namespace
from mic_dp_helpers.checks import run_check
from mic_dp_helpers.checks._core import EXERCISES
from wrong_answers._cheats import patches_check_helpers, shadows_builtins

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("cheat", [shadows_builtins, patches_check_helpers], ids=["shadows builtins", "patches helpers"])
@pytest.mark.parametrize("exercise_id", sorted(EXERCISES))
def test_a_patch_through_any_check_frame_is_undone_and_refused(exercise_id, cheat):
    if exercise_id == "05.1":
        pytest.importorskip("minepy")
    before = course_namespaces()
    result = run_check(exercise_id, cheat(lambda *args, **kwargs: None))
    assert not changed_names(before), f"{exercise_id}: the cheat's patches were left in place"
    assert result.status == "failed"
    assert "changed what the check itself uses" in result.message, result.message


def _laplace_release(value, sensitivity, epsilon, rng):
    return value + rng.laplace(0.0, sensitivity / epsilon)


def _patching(patch):
    """An 02.1 answer that patches the check machinery once (on its first call), else answers correctly."""
    done = []

    def answer(value, sensitivity, epsilon, rng):
        if not done:
            done.append(True)
            patch()
        return _laplace_release(value, sensitivity, epsilon, rng)

    return answer


def _swap_code():
    from mic_dp_helpers.checks import _core
    _core.expect_number.__code__ = (lambda value, what, **kwargs: 0.0).__code__


def _swap_guard_default():
    from mic_dp_helpers.checks import _guard
    _guard.student_call.__kwdefaults__["_restore"] = lambda snapshots: []


def _swap_method():
    from mic_dp_helpers.checks import _core
    _core._Guarded._watched = lambda self, function, *args: function(*args)


def _lazily_imported_module():
    import mic_dp_helpers.attacks.audit as audit
    audit.audit_epsilon = lambda *args, **kwargs: 0.0


@pytest.mark.parametrize("patch", [_swap_code, _swap_guard_default, _swap_method, _lazily_imported_module],
                         ids=["a function's code", "the guard's own keyword default", "a class's method",
                              "a module the check imports inside a function"])
def test_a_patch_that_rebinds_no_module_name_is_undone_and_refused_too(patch):
    """Referee s38rD: replacing a function's ``__code__`` or keyword defaults, a class's method, or a name in a
    course module the check imports lazily passed unseen (and switched the guard off for the process). The code of
    the machinery's functions (``_core``, ``_guard``) is watched; other course functions' code is not (a stated
    limit in the README)."""
    from mic_dp_helpers.checks import _core, _guard

    code, kwdefaults, watched = _core.expect_number.__code__, dict(_guard.student_call.__kwdefaults__), \
        _core._Guarded.__dict__["_watched"]
    before = course_namespaces()
    result = run_check("02.1", _patching(patch))
    assert result.status == "failed" and "changed what the check itself uses" in result.message, result.message
    assert not changed_names(before)
    assert _core.expect_number.__code__ is code and _core._Guarded.__dict__["_watched"] is watched
    assert all(_guard.student_call.__kwdefaults__[key] is value for key, value in kwdefaults.items())
    again = run_check("02.1", _patching(patch))  # the guard still works: the same patch is refused again
    assert again.status == "failed" and "changed what the check itself uses" in again.message, again.message


def _patches_helper_frames_only(fallback, checker_module: str):
    """A cheat that passes the check's own frames by and shadows ``len`` and ``max`` in every other check module
    it is called from (the sweeps and statistics helpers), answering like ``fallback``."""

    def answer(*args, **kwargs):
        frame = sys._getframe(1)
        while frame is not None:
            name = frame.f_globals.get("__name__", "")
            if name.startswith("mic_dp_helpers.checks") and name != checker_module and not name.endswith(
                    ("._core", "._guard")):
                frame.f_globals.update(len=lambda x: 0, max=lambda *a, **k: 0.0)
            frame = frame.f_back
        return fallback(*args, **kwargs)

    return answer


@pytest.mark.slow
@pytest.mark.parametrize("exercise_id", sorted(EXERCISES))
def test_a_patch_from_a_helper_frame_late_in_the_check_is_refused(exercise_id):
    """The cheat behaves like the reference solution until a helper module calls it (for some checks only late,
    in a sweep): that patch too is undone and refused."""
    if exercise_id == "05.1":
        pytest.importorskip("minepy")
    spec = EXERCISES[exercise_id]
    (notebook,) = sorted(ROOT.glob(f"solutions/{spec.lesson}_*.ipynb"))
    reference = solution_namespace(notebook.name)[spec.answer_name]
    before = course_namespaces()
    result = run_check(exercise_id, _patches_helper_frames_only(reference, spec.checker.__module__))
    assert not changed_names(before), f"{exercise_id}: the cheat's patches were left in place"
    assert result.status == "passed" or "changed what the check itself uses" in result.message, result.message


def test_an_error_in_the_checks_own_code_is_not_blamed_on_the_student():
    """An exception with no frame of the student's code is the check's: the message says so (referee s38rC: the
    poisoned ``lesson08`` made honest answers fail with "your function raised ValueError: math domain error")."""
    from mic_dp_helpers.checks import _core, _noise_tests

    try:
        _noise_tests.laplace_tail_threshold(0)  # log(0) inside a check helper
    except ValueError as error:
        message = _core._error_message(error.with_traceback(error.__traceback__.tb_next))  # as run_check sees it
    assert message.startswith("the check stopped with ValueError") and "teacher" in message


def test_an_error_in_the_students_code_names_its_line():
    result = run_check("02.1", lambda value, sensitivity, epsilon, rng: 1 / 0)
    assert result.message.startswith("your function raised ZeroDivisionError") and "of your code" in result.message


# ---- referee s43 (the guard made cheaper: one guard a call, a quick identity test of unchanged namespaces)
def _swap_guard_helpers_and_shadow(*helpers):
    """A 02.2 answer that swaps the code of the guard's own ``helpers`` for ``return []`` and shadows the
    comparison the 02.2 check makes, then answers 7.0."""
    from mic_dp_helpers.checks import _guard, lesson02

    def finds_nothing(*args, **kwargs):
        return []

    def answer(query, lower, upper, n):
        lesson02.__dict__["_isclose"] = lambda *args, **kwargs: True
        for name in helpers:
            getattr(_guard, name).__code__ = finds_nothing.__code__
        return 7.0
    return answer


@pytest.mark.parametrize("helpers", [("_restore",), ("_restore", "_restore_internals"), ("_unchanged",)],
                         ids=["restore", "restore and restore_internals", "the quick identity test"])
def test_swapping_the_guards_own_code_is_refused_and_leaves_no_patch(helpers):
    """Referee s43 R1, P1: with one guard a call, a swapped ``_restore`` left the check's module patched, and the
    plainly wrong answer 7.0 then passed 02.2."""
    before = course_namespaces()
    result = run_check("02.2", _swap_guard_helpers_and_shadow(*helpers))
    assert result.status == "failed" and "changed what the check itself uses" in result.message, result.message
    assert not changed_names(before)
    assert run_check("02.2", lambda query, lower, upper, n: 7.0).status == "failed"


def test_a_course_module_swapped_in_sys_modules_is_put_back_and_refused():
    """Referee s43 P2: an empty module put in ``sys.modules`` under the check module's name hid the real one from
    the guard, and a later patch of the real module passed unseen."""
    import types

    real = sys.modules["mic_dp_helpers.checks.lesson02"]
    calls = []

    def answer(query, lower, upper, n):
        calls.append(1)
        if len(calls) == 1:
            sys.modules["mic_dp_helpers.checks.lesson02"] = types.ModuleType("mic_dp_helpers.checks.lesson02")
        real.__dict__["_isclose"] = lambda *args, **kwargs: True
        return 7.0
    before = course_namespaces()
    result = run_check("02.2", answer)
    assert sys.modules["mic_dp_helpers.checks.lesson02"] is real
    assert result.status == "failed" and "changed what the check itself uses" in result.message, result.message
    assert not changed_names(before)


@pytest.mark.slow
def test_a_patch_made_on_one_run_of_a_plan_and_undone_on_the_next_is_refused():
    """Referee s43 R2: 04.4 runs the answer many times through ``call_repeatedly`` with check code in between; a
    patch made on one run and undone on the next must still be seen (each run keeps its own guard)."""
    from check_rates import correct_answer
    from mic_dp_helpers.checks import lesson04_plans

    reference, calls, saved = correct_answer("04.4"), [], {}

    def answer(accountant, values, lower, upper, plan):
        calls.append(1)
        namespace = lesson04_plans.__dict__
        if len(calls) == 30:
            saved["PrivacyAccountant"] = namespace["PrivacyAccountant"]
            namespace["PrivacyAccountant"] = type("Fake", (saved["PrivacyAccountant"],), {})
        elif len(calls) == 31:
            namespace.update(saved)
        return reference(accountant, values, lower, upper, plan)
    result = run_check("04.4", answer)
    assert result.status == "failed" and "PrivacyAccountant" in result.message, result.message
