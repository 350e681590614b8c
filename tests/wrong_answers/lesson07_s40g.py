"""07.1 answers of referee s40rB D1, D2 and D10, each with other members of its class (other numbers).

D1: the coins skipped when a call expects few liars (round(n q) == 0, n q below a threshold, one person per
call). D2: exact above a high epsilon for up to a number of people (12 and 1,000,000; 6.2 and 40,000 or
2,000). D10: exact in a band of sizes below 2,000 people from a middle epsilon. Joined to 07.1 through
``MORE_WRONG_ANSWERS``; ``HINT_WORDS`` holds the words each hint must hold; ``HONEST`` the referee's honest
answers, which the few-people ladder must pass.
"""

from __future__ import annotations

import math

import numpy as np


def _q(epsilon):
    return 1 / (1 + math.exp(epsilon)) if epsilon < 700 else 0.0


def _rr(truth, epsilon, rng):
    p = 1 - _q(epsilon)
    return np.where(rng.random(truth.size) < p, truth, ~truth)


def _exact_when(condition):
    """Randomized response that returns the truth unchanged when ``condition(people, epsilon)`` holds."""
    def answer(truth, epsilon, rng):
        truth = np.asarray(truth, dtype=bool)
        return truth.copy() if condition(truth.size, epsilon) else _rr(truth, epsilon, rng)
    return answer


_D1 = {
    "non-private (size): coins skipped when round(n q) == 0, no liar expected (referee s40rB D1)":
        _exact_when(lambda n, e: round(n * _q(e)) == 0),
    "non-private (size): coins skipped when round(n q) == 0 above epsilon 0.5 (referee s40rB D1)":
        _exact_when(lambda n, e: round(n * _q(e)) == 0 and e > 0.5),
    "non-private (size): coins skipped when n q < 0.9 (referee s40rB D1)": _exact_when(lambda n, e: n * _q(e) < 0.9),
    "non-private (size): coins skipped when n q < 0.02": _exact_when(lambda n, e: n * _q(e) < 0.02),
    "non-private (size): coins skipped when round(n q) == 0 above epsilon 3": _exact_when(
        lambda n, e: round(n * _q(e)) == 0 and e > 3),
    "non-private (size): the truth for one person (referee s40rB D1)": _exact_when(lambda n, e: n == 1),
    "non-private (size): the truth for one person above epsilon 4": _exact_when(lambda n, e: n == 1 and e > 4),
    "non-private (size): the truth for up to 3 people above epsilon 2": _exact_when(lambda n, e: n <= 3 and e > 2),
}

_D2 = {
    "non-private (parameters): exact above epsilon 12 for up to 1,000,000 people (referee s40rB D2)":
        _exact_when(lambda n, e: e > 12 and n <= 1_000_000),
    "non-private (parameters): exact above epsilon 13.6 for up to 1,000,000 people":
        _exact_when(lambda n, e: e > 13.6 and n <= 1_000_000),
    "non-private (parameters): exact above epsilon 12.6 for up to 200,000 people":
        _exact_when(lambda n, e: e > 12.6 and n <= 200_000),
    "non-private (parameters): exact for fewer than 40,000 people above epsilon 6.2 (referee s40rB D2)":
        _exact_when(lambda n, e: n < 40_000 and e > 6.2),
    "non-private (parameters): exact for fewer than 2,000 people above epsilon 6.2 (referee s40rB D2)":
        _exact_when(lambda n, e: n < 2_000 and e > 6.2),
    "non-private (parameters): exact for up to 20,000 people above epsilon 6.5 (referee s40rB)":
        _exact_when(lambda n, e: n <= 20_000 and e > 6.5),
    "non-private (parameters): exact for up to 100,000 people above epsilon 7.3 but at 10 and 11.5 (referee s40rB)":
        _exact_when(lambda n, e: n <= 100_000 and e > 7.3 and e not in (10.0, 11.5)),
    "non-private (parameters): exact for fewer than 5,000 people above epsilon 9": _exact_when(
        lambda n, e: n < 5_000 and e > 9),
    "non-private (parameters): exact between epsilon 12 and 14.4 (referee s40rB, noted)": _exact_when(
        lambda n, e: 12 < e < 14.4),
}

_D10 = {
    "non-private (size): exact for 600-1,400 people from epsilon 1 (referee s40rB D10)":
        _exact_when(lambda n, e: 600 <= n <= 1_400 and e >= 1),
    "non-private (size): exact for 100-300 people from epsilon 2": _exact_when(lambda n, e: 100 <= n <= 300 and e >= 2),
    "non-private (size): exact for 20-60 people at epsilon 0.5-3": _exact_when(lambda n, e: 20 <= n <= 60 and 0.5 <= e <= 3),
}

MORE_WRONG_ANSWERS = {"07.1": {**_D1, **_D2, **_D10}}

#: Words the hint of each answer above must hold.
HINT_WORDS = {"non-private": "every report is the true answer"}


def _reports_direct(truth, epsilon, rng):
    """The referee's rr_ok_reports_direct: yes with probability p for a true yes, 1 - p for a true no."""
    from scipy.special import expit
    truth = np.asarray(truth, dtype=bool)
    p = expit(epsilon)
    return rng.random(truth.size) < np.where(truth, p, 1 - p)


def _int_coins(truth, epsilon, rng):
    """The referee's rr_ok_int_coins: 53-bit integer coins, int8 reports."""
    truth = np.asarray(truth, dtype=bool)
    flip = rng.integers(0, 2**53, truth.size) < int(_q(epsilon) * 2**53)
    return (truth ^ flip).astype(np.int8)


def _choice(truth, epsilon, rng):
    """The referee's rr_ok_choice: rng.choice of keep or flip per person."""
    truth = np.asarray(truth, dtype=bool)
    p = 1 / (1 + math.exp(-epsilon))
    keep = rng.choice(np.array([True, False]), size=truth.size, p=[p, 1 - p])
    return np.where(keep, truth, ~truth)


HONEST = {"07.1": {
    "reports drawn directly with p or 1 - p (referee s40rB)": _reports_direct,
    "53-bit integer coins, int8 reports (referee s40rB)": _int_coins,
    "rng.choice of keep or flip (referee s40rB)": _choice,
}}
