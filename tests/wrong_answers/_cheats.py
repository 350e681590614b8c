"""Answers that try to pass without solving, in the ways the issue lists. Every one must be rejected.

- ``reads_checker_locals``: walks up the frame stack and returns the checker's expected answer if a
  frame holds one (the checks compute it only after the student's function returns);
- ``patches_check_helpers``: rewrites the check module's helpers through ``f_globals`` and patches
  ``math.isclose``, ``numpy.median`` and ``scipy.stats.kstest`` so every comparison succeeds;
- ``shadows_builtins``: puts ``abs``, ``max``, ``min``, ``sorted``, ``isinstance`` and ``len`` that lie
  into the check module's globals;
- ``calls_forbidden``: calls a course helper the exercise asks students to write themselves.
"""

from __future__ import annotations

import math
import sys

import numpy as np
import scipy.stats

_SECRET_NAMES = ("expected", "truth", "true_count", "centre", "flawed", "best", "errors", "reference",
                 "expected_share", "answer_expected")


def _check_frames():
    frame = sys._getframe(1)
    while frame is not None:
        if frame.f_globals.get("__name__", "").startswith("mic_dp_helpers.checks"):
            yield frame
        frame = frame.f_back


def reads_checker_locals(fallback):
    """An answer that returns whatever secret it finds in the checker's frames (else ``fallback(*args)``)."""

    def answer(*args):
        for frame in _check_frames():
            for name in _SECRET_NAMES:
                if name in frame.f_locals:
                    return frame.f_locals[name]
        return fallback(*args)

    return answer


class _Anything:
    def __getattr__(self, name):
        return lambda *args, **kwargs: True


def patches_check_helpers(fallback):
    """An answer that makes the check's comparisons always succeed, then returns ``fallback(*args)``."""

    def answer(*args):
        for frame in _check_frames():
            globals_ = frame.f_globals
            for name in list(globals_):
                if name in ("_isclose", "isclose", "_array_equal", "_allclose"):
                    globals_[name] = lambda *a, **k: True
                if name in ("_stats",):
                    globals_[name] = _Anything()
            globals_["CheckFailed"] = type("Quiet", (Exception,), {})
        math.isclose = lambda *a, **k: True
        np.median = lambda *a, **k: 0.0
        scipy.stats.kstest = lambda *a, **k: type("R", (), {"pvalue": 1.0})()
        return fallback(*args)

    return answer


def shadows_builtins(fallback):
    """An answer that shadows builtins in the check module's globals so that checks compare wrongly."""

    def answer(*args):
        for frame in _check_frames():
            frame.f_globals.update(abs=lambda x: 0.0, max=lambda *a, **k: 0.0, min=lambda *a, **k: 0.0,
                                   sorted=lambda x, **k: [], isinstance=lambda *a: True, len=lambda x: 0)
        return fallback(*args)

    return answer


def calls_forbidden(helper, adapt=lambda helper, *args: helper(*args), *, swallow=None):
    """An answer that hands the work to a forbidden course helper; with ``swallow``, errors fall back to it."""

    def answer(*args):
        if swallow is None:
            return adapt(helper, *args)
        try:
            return adapt(helper, *args)
        except Exception:  # noqa: BLE001 - a student hiding the refusal
            return swallow(*args)

    return answer


def cheats(fallback, forbidden=None, adapt=None) -> dict:
    """The three generic cheats around ``fallback`` (a wrong answer), plus a forbidden-helper call."""
    out = {
        "cheat: reads the checker's locals": reads_checker_locals(fallback),
        "cheat: patches check helpers via f_globals": patches_check_helpers(fallback),
        "cheat: shadows builtins in the check module": shadows_builtins(fallback),
    }
    if forbidden is not None:
        kwargs = {} if adapt is None else {"adapt": adapt}
        out["cheat: calls the forbidden course helper"] = calls_forbidden(forbidden, **kwargs)
        out["cheat: calls the forbidden helper inside try/except"] = calls_forbidden(forbidden, swallow=fallback, **kwargs)
    return out
