"""Wrong answers to 07.1 that referee s38rB found accepted, each with other members of its class.

Coins reused between consecutive calls by *other* people (a pool of uniforms read through overlapping
windows), antithetic coins (u and 1 - u) between people at high epsilons, and coins shared (or antithetic)
between people paired by the data (the k-th true-yes and the k-th true-no person). Joined to ``lesson07``'s
answers through ``MORE_WRONG_ANSWERS``; the referee's honest answers through ``HONEST``.
"""

import math

import numpy as np


def _keep(epsilon):
    return 1.0 / (1.0 + math.exp(-epsilon))


def _release(truth, u, epsilon):
    return np.where(u < _keep(epsilon), truth, ~truth)


def _pool_window(overlap, n_min=0):
    """A pool of uniforms per generator read through windows that advance by n - overlap(n) from ``n_min``
    people: the first overlap(n) people of a call reuse the last overlap(n) people's coins of the call before."""
    state = {"rng": None, "pool": None, "at": 0}

    def answer(truth, epsilon, rng):
        truth = np.asarray(truth, dtype=bool)
        n = truth.size
        if n < n_min:
            return _release(truth, rng.random(n), epsilon)
        if state["rng"] is not rng:
            state.update(rng=rng, pool=rng.random(0), at=0)
        if state["at"] + n > state["pool"].size:
            state.update(pool=np.concatenate([state["pool"][state["at"]:], rng.random(max(4 * n, 100_000))]), at=0)
        u = state["pool"][state["at"]:state["at"] + n]
        state["at"] += n - min(n - 1, max(1, overlap(n)))
        return _release(truth, u, epsilon)
    return answer


def _positions_antithetic(low, partner):
    """Above epsilon ``low``, the person partner(n)[j] gets 1 - u of person j's coin u (a matching by position)."""
    def answer(truth, epsilon, rng):
        truth = np.asarray(truth, dtype=bool)
        n = truth.size
        u = rng.random(n)
        if epsilon > low and n >= 2:
            first, second = partner(n)
            u[second] = 1.0 - u[first]
        return _release(truth, u, epsilon)
    return answer


def _halves(n):
    return np.arange(n // 2), np.arange(n // 2) + n // 2


def _adjacent(start):
    return lambda n: (np.arange(start, n - 1, 2), np.arange(start, n - 1, 2) + 1)


def _mirror(n):
    return np.arange(n // 2), n - 1 - np.arange(n // 2)


def _yes_no(low=-math.inf, n_min=0, antithetic=False, same_answer=False):
    """Above epsilon ``low`` and from ``n_min`` people, the k-th true-yes and the k-th true-no person share one
    uniform (or take u and 1 - u); ``same_answer``: the 2k-th and (2k + 1)-th person with the same answer."""
    def answer(truth, epsilon, rng):
        truth = np.asarray(truth, dtype=bool)
        n = truth.size
        u = rng.random(n)
        if epsilon > low and n >= n_min:
            yes, no = np.flatnonzero(truth), np.flatnonzero(~truth)
            if same_answer:
                for group in (yes, no):
                    h = group.size // 2
                    u[group[1:2 * h:2]] = u[group[0:2 * h:2]]
            else:
                m = min(yes.size, no.size)
                u[no[:m]] = 1.0 - u[yes[:m]] if antithetic else u[yes[:m]]
        return _release(truth, u, epsilon)
    return answer


def _exponential(truth, epsilon, rng):
    """Honest (referee s38rB): keep iff an Exp(1) draw is below log(1 + e^eps); float 0/1 reports."""
    truth = np.asarray(truth, dtype=bool)
    keep = rng.exponential(size=truth.size) < np.logaddexp(0.0, epsilon)
    return np.where(keep, truth, ~truth).astype(np.float64)


def _binomial_xor(truth, epsilon, rng):
    """Honest (referee s38rB): flips drawn as Binomial(1, 1 - p) per person; int8 0/1 reports."""
    truth = np.asarray(truth, dtype=bool)
    flip = rng.binomial(1, 1.0 / (1.0 + np.exp(epsilon)), size=truth.size).astype(bool)
    return (truth ^ flip).astype(np.int8)


_RR = {
    "non-private (calls): a pool of coins read through windows overlapping by 2% of the people (referee s38rB)":
        _pool_window(lambda n: n // 50),
    "non-private (calls): a pool of coins read through windows overlapping by 10% of the people (referee s38rB)":
        _pool_window(lambda n: n // 10),
    "non-private (calls): a pool of coins read through windows overlapping by 7 people":
        _pool_window(lambda n: 7),
    "non-private (calls): a pool of coins read through windows overlapping by 1% from 100,000 people":
        _pool_window(lambda n: n // 100, n_min=100_000),
    "non-private (parameters): antithetic coins for persons i and i + n // 2 above epsilon 5 (referee s38rB)":
        _positions_antithetic(5.0, _halves),
    "non-private (parameters): antithetic coins for persons 2i and 2i + 1 above epsilon 4 (referee s38rB)":
        _positions_antithetic(4.0, _adjacent(0)),
    "non-private (parameters): antithetic coins for persons i and i + n // 2 above epsilon 6.5":
        _positions_antithetic(6.5, _halves),
    "non-private (parameters): antithetic coins for persons 2i + 1 and 2i + 2 above epsilon 5.5":
        _positions_antithetic(5.5, _adjacent(1)),
    "non-private (parameters): antithetic coins for persons i and n - 1 - i above epsilon 4.5":
        _positions_antithetic(4.5, _mirror),
    "non-private (data): the k-th true-yes and the k-th true-no person share a coin above 150,000 people "
    "(referee s38rB)": _yes_no(n_min=150_001),
    "non-private (data): the k-th true-yes and the k-th true-no person share a coin above epsilon 4 "
    "(referee s38rB)": _yes_no(low=4.0),
    "non-private (data): the k-th true-yes and the k-th true-no person share a coin from 400,000 people":
        _yes_no(n_min=400_000),
    "non-private (data): antithetic coins for the k-th true-yes and the k-th true-no person above epsilon 5":
        _yes_no(low=5.0, antithetic=True),
    "non-private (data): the 2k-th and (2k + 1)-th person with the same answer share a coin above epsilon 3":
        _yes_no(low=3.0, same_answer=True),
}

MORE_WRONG_ANSWERS = {"07.1": _RR}
HONEST = {"07.1": {"keep iff an Exp(1) draw is below log(1 + e^eps), float reports (referee s38rB)": _exponential,
                   "Binomial(1, 1 - p) flips, int8 reports (referee s38rB)": _binomial_xor}}
