"""04.1 answers with too little noise where PyDP's answers pile up on a bound (referee s42 D1, D2; referee s44's
members of the class), and honest answers that post-process PyDP's answer by a hair (rounded, float32, moved
off a bound by 1e-9 of the width), which the same tests once rejected. ``MORE_WRONG_ANSWERS`` joins 04.1's corpus
(see :func:`wrong_answers.collect_wrong_answers`); ``HONEST`` is tested in ``tests/test_checks_lesson04_honest.py``."""

from __future__ import annotations

import numpy as np

from wrong_answers.lesson04_s39 import _bounded_mean


def _floored(least, below=0.015):
    def dp_mean_with_pydp(values, lower, upper, epsilon):
        return _bounded_mean(values, lower, upper, max(epsilon, least) if epsilon < below else epsilon)
    return dp_mean_with_pydp


def _beyond_one_bound(v, lower, upper, strictly=False):
    if strictly:
        return bool(np.all(v < lower) or np.all(v > upper))
    return bool(np.all(v <= lower) or np.all(v >= upper))


def _raised_beyond(factor, strictly=False):
    def dp_mean_with_pydp(values, lower, upper, epsilon):
        v = np.asarray(values, dtype=float)
        raised = len(v) >= 2 and _beyond_one_bound(v, lower, upper, strictly)
        return _bounded_mean(values, lower, upper, epsilon * factor if raised else epsilon)
    return dp_mean_with_pydp


def _floored_by_size(values, lower, upper, epsilon):
    return _bounded_mean(values, lower, upper, max(epsilon, 3.0 / len(values)))


def _narrowed_towards_the_bound(values, lower, upper, epsilon):
    v, width = np.asarray(values, dtype=float), upper - lower
    if np.all(v >= upper):
        return _bounded_mean(values, upper - width / 3, upper, epsilon)
    if np.all(v <= lower):
        return _bounded_mean(values, lower, lower + width / 3, epsilon)
    return _bounded_mean(values, lower, upper, epsilon)


def _asked_again_off_the_bounds(values, lower, upper, epsilon):
    """PyDP asked again (up to 50 times) until its answer is off the bounds: each try spends epsilon again."""
    answer = _bounded_mean(values, lower, upper, epsilon)
    for _ in range(49):
        if lower < answer < upper:
            break
        answer = _bounded_mean(values, lower, upper, epsilon)
    return answer


def _rounded(values, lower, upper, epsilon):
    return round(_bounded_mean(values, lower, upper, epsilon), 6)


def _as_float32(values, lower, upper, epsilon):
    return float(np.float32(_bounded_mean(values, lower, upper, epsilon)))


def _nudged_off_a_bound(values, lower, upper, epsilon):
    answer, width = _bounded_mean(values, lower, upper, epsilon), upper - lower
    if answer >= upper:
        return upper - 1e-9 * width
    if answer <= lower:
        return lower + 1e-9 * width
    return answer


def _on_one_bound(v, lower, upper):
    return len(v) >= 2 and bool(np.all(v == lower) or np.all(v == upper))


def _exact_on_a_bound(values, lower, upper, epsilon):
    """The value itself when every value (2 or more) is on one bound (referee s44 D1: passed at seeds 404, 0-2)."""
    v = np.asarray(values, dtype=float)
    return float(v[0]) if _on_one_bound(v, lower, upper) else _bounded_mean(values, lower, upper, epsilon)


def _raised_on_a_bound(factor):
    def dp_mean_with_pydp(values, lower, upper, epsilon):
        v = np.asarray(values, dtype=float)
        return _bounded_mean(values, lower, upper, epsilon * factor if _on_one_bound(v, lower, upper) else epsilon)
    return dp_mean_with_pydp


MORE_WRONG_ANSWERS: dict = {"04.1": {
    "non-private (data): the exact value when every value is on one bound (referee s44 D1)": _exact_on_a_bound,
    "non-private (data): ten times epsilon when every value is on one bound": _raised_on_a_bound(10.0),
    "non-private (data): three times epsilon when every value is on one bound": _raised_on_a_bound(3.0),
    "non-private (parameters): epsilon floored at 0.0045 below 0.015 (referee s42 D1)": _floored(0.0045),
    "non-private (parameters): epsilon floored at 0.002 below 0.015": _floored(0.002),
    "non-private (parameters): epsilon floored at 0.0015 below 0.01": _floored(0.0015, below=0.01),
    "non-private (size): epsilon floored at 3 / n": _floored_by_size,
    "non-private (data): three times epsilon when every value lies beyond one bound (referee s42 D2)":
        _raised_beyond(3.0),
    # Twice epsilon there is near the stage's power (referee s44: rejected at 5 of seeds 0-5; it passed one run of
    # the whole check): a stated limit, not a corpus member.
    "non-private (data): three times epsilon when every value lies strictly beyond one bound":
        _raised_beyond(3.0, strictly=True),
    "non-private (data): bounds narrowed towards the bound every value lies beyond": _narrowed_towards_the_bound,
    "non-private (calls): PyDP asked again until its answer is off the bounds": _asked_again_off_the_bounds,
}}

HONEST = {
    "the answer rounded to 6 decimals": _rounded,
    "the answer cast to float32": _as_float32,
    "an answer on a bound moved off it by 1e-9 of the width (post-processing)": _nudged_off_a_bound,
}
