"""07.1 answers of referee s39rB D0 and D1, each with other members of its class, and honest forms that must pass.

D0: coins memoised between calls and reused at another epsilon or on another truth array (keyed on the number of
people, on (people, epsilon), on a rounded epsilon, only for the first calls of a size, only above a size, or
reused as 1 - u). D1: coins too coarse for the flip probability at epsilon 16.7-20 (float32 uniforms, p in
float32 or rounded to 8 digits). Joined to 07.1 through ``MORE_WRONG_ANSWERS``; ``HONEST`` (read by
``lesson07``) holds the referee's honest answers and the float64 forms the coin-resolution test must pass.
"""

from __future__ import annotations

import math

import numpy as np
import scipy.stats


def _p(epsilon):
    return math.exp(epsilon) / (1 + math.exp(epsilon))


def _memo(key_of, fresh_when, flip_form=False, antithetic=False):
    """Uniforms memoised under ``key_of(truth, epsilon)``; fresh when ``fresh_when(memory, truth, epsilon)``."""
    memory = {}

    def answer(truth, epsilon, rng):
        truth = np.asarray(truth, dtype=bool)
        key = key_of(truth, epsilon)
        kept = memory.get(key)
        if kept is None or fresh_when(kept, truth, epsilon):
            u = rng.random(truth.size)
        else:
            u = 1 - kept["u"] if antithetic else kept["u"]
        memory[key] = {"u": u, "truth": truth.copy(), "epsilon": epsilon, "calls": (kept or {}).get("calls", 0) + 1}
        flip = u < 1 - _p(epsilon) if flip_form else u >= _p(epsilon)
        return np.where(flip, ~truth, truth)
    return answer


def _same_setting(kept, truth, epsilon):
    return kept["epsilon"] == epsilon and np.array_equal(kept["truth"], truth)


_BY_SIZE = lambda t, e: t.size  # noqa: E731
_D0 = {
    "non-private (calls): uniforms memoised per size, reused at another epsilon (referee s39rB D0)":
        _memo(_BY_SIZE, lambda kept, t, e: kept["epsilon"] == e),
    "non-private (calls): flip coins memoised per size, reused at another epsilon":
        _memo(_BY_SIZE, lambda kept, t, e: kept["epsilon"] == e, flip_form=True),
    "non-private (calls): coins memoised per (size, epsilon), reused on another truth (referee s39rB D0)":
        _memo(lambda t, e: (t.size, e), lambda kept, t, e: np.array_equal(kept["truth"], t)),
    "non-private (calls): uniforms memoised per size, reused whenever the truth or epsilon changes":
        _memo(_BY_SIZE, _same_setting),
    "non-private (calls): uniforms memoised per (size, epsilon rounded to 6 digits), fresh on the same call":
        _memo(lambda t, e: (t.size, round(e, 6)), _same_setting),
    "non-private (calls): uniforms memoised per size for its first 4 calls only":
        _memo(_BY_SIZE, lambda kept, t, e: kept["calls"] >= 4 or _same_setting(kept, t, e)),
    "non-private (calls): uniforms memoised per size above 50,000 people, reused at another epsilon":
        _memo(lambda t, e: t.size if t.size > 50_000 else object(), lambda kept, t, e: kept["epsilon"] == e),
    "non-private (calls): 1 - u of the last call's uniforms at another epsilon":
        _memo(_BY_SIZE, lambda kept, t, e: kept["epsilon"] == e, antithetic=True),
}


def _float32_coins(truth, epsilon, rng):
    """The referee's rr_float32: float32 uniforms against a Python float p (cast to float32 by NumPy 2)."""
    truth = np.asarray(truth, dtype=bool)
    return np.where(rng.random(truth.size, dtype=np.float32) < _p(epsilon), truth, ~truth)


def _float32_coins_numpy_p(truth, epsilon, rng):
    """float32 uniforms against a NumPy float64 p: never flips above epsilon 16.64."""
    truth = np.asarray(truth, dtype=bool)
    p = np.exp(np.float64(epsilon)) / (1 + np.exp(np.float64(epsilon)))
    return np.where(rng.random(truth.size, dtype=np.float32) < p, truth, ~truth)


def _float32_p(truth, epsilon, rng):
    """The referee's rr_float32_cast: p computed in float32, float64 coins."""
    truth = np.asarray(truth, dtype=bool)
    e = np.float32(np.exp(np.float32(epsilon)))
    p = e / (np.float32(1) + e)
    return np.where(rng.random(truth.size) < p, truth, ~truth)


def _rounded_p(truth, epsilon, rng):
    """p rounded to 8 digits: exactly 1.0 above epsilon 18.4."""
    truth = np.asarray(truth, dtype=bool)
    return np.where(rng.random(truth.size) < round(_p(epsilon), 8), truth, ~truth)


def _float32_flip_form(truth, epsilon, rng):
    """flip iff a float32 uniform is at least a float32 p."""
    truth = np.asarray(truth, dtype=bool)
    return np.where(rng.random(truth.size, dtype=np.float32) >= np.float32(_p(epsilon)), ~truth, truth)


_D1 = {
    "non-private (parameters): float32 coins, never a flip above epsilon 17.3 (referee s39rB D1)": _float32_coins,
    "non-private (parameters): p computed in float32, 1.0 above epsilon 17.3 (referee s39rB D1)": _float32_p,
    "non-private (parameters): float32 coins against a NumPy p, never a flip above epsilon 16.6":
        _float32_coins_numpy_p,
    "non-private (parameters): p rounded to 8 digits, 1.0 above epsilon 18.4": _rounded_p,
    "non-private (parameters): flip iff a float32 uniform reaches a float32 p": _float32_flip_form,
}

MORE_WRONG_ANSWERS = {"07.1": {**_D0, **_D1}}

#: Words the hint of each answer above must hold.
HINT_WORDS = {"(calls)": "another epsilon or on other answers", "(parameters)": "too coarse"}


def _binomial_subset(truth, epsilon, rng):
    """The referee's rr_ok_binomial_subset: Binomial(n, q) flips at a random subset."""
    truth = np.asarray(truth, dtype=bool)
    k = rng.binomial(truth.size, 1 - _p(epsilon))
    flip = np.zeros(truth.size, bool)
    flip[rng.choice(truth.size, k, replace=False)] = True
    return np.where(flip, ~truth, truth)


def _child_stream(truth, epsilon, rng):
    """Coins from a child generator seeded from rng."""
    truth = np.asarray(truth, dtype=bool)
    child = np.random.default_rng(int(rng.integers(2**63)))
    return np.where(child.random(truth.size) < _p(epsilon), truth, ~truth)


HONEST = {"07.1": {
    "Binomial(n, q) flips at a random subset (referee s39rB)": _binomial_subset,
    "truth xor rng.binomial(1, q, n) (referee s39rB)": lambda t, e, rng: np.asarray(t, dtype=bool) ^ rng.binomial(
        1, 1 - _p(e), np.asarray(t).size).astype(bool),
    "keep iff an Exp(1) draw is below log(1 + e^epsilon)": lambda t, e, rng: np.where(
        rng.exponential(1.0, np.asarray(t).size) < math.log1p(math.exp(e)), t, ~np.asarray(t, dtype=bool)),
    "rng.choice of keep or flip with p": lambda t, e, rng: np.where(
        rng.choice([True, False], size=np.asarray(t).size, p=[_p(e), 1 - _p(e)]), t, ~np.asarray(t, dtype=bool)),
    "integers over 2^62": lambda t, e, rng: np.where(
        rng.integers(0, 2**62, np.asarray(t).size) < _p(e) * 2**62, t, ~np.asarray(t, dtype=bool)),
    "scipy.stats.bernoulli with random_state=rng": lambda t, e, rng: np.asarray(t, dtype=bool) ^ scipy.stats.bernoulli.rvs(
        1 - _p(e), size=np.asarray(t).size, random_state=rng).astype(bool),
    "report yes with probability p or 1 - p": lambda t, e, rng: rng.uniform(size=np.asarray(t).size) < np.where(
        np.asarray(t, dtype=bool), _p(e), 1 - _p(e)),
    "a child generator seeded from rng": _child_stream,
    "float32 flip coins (flip iff u < q: flips at least 2^-24, more than q)": lambda t, e, rng: np.asarray(
        t, dtype=bool) ^ (rng.random(np.asarray(t).size, dtype=np.float32) < 1 - _p(e)),
}}
