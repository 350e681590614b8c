"""A plan that fits a budget by exact addition but not by float addition, for exercise 04.4's check.

Found by search from a seed, so the case is the same on every Python (3.12's ``sum()`` of floats is
compensated, a chain of ``+`` is not; the case trips both).
"""

from __future__ import annotations

import math

import numpy as np

from mic_dp_helpers.accounting.ledger import PrivacyAccountant

_default_rng = np.random.default_rng
_fsum = math.fsum
_float = float


def _log_uniform(rng, low, high) -> float:
    return _float(math.exp(rng.uniform(math.log(low), math.log(high))))


def _compensated_sum(values) -> float:
    """Neumaier's compensated sum, as Python 3.12's sum() of floats computes it (written out, so the
    case below is the same on every Python)."""
    total, compensation = 0.0, 0.0
    for value in values:
        step = total + value
        if abs(total) >= abs(value):
            compensation += (total - step) + value
        else:
            compensation += (value - step) + total
        total = step
    return total + compensation


def float_rounding_plan(seed: int):
    """A budget already partly spent and a plan that fits what is left, but whose epsilons, added in
    floating point (with or without compensation, as Python 3.12's sum() does), exceed the remaining
    epsilon by a few units in the last place. Found by search, so the case holds on every Python.

    Parameters
    ----------
    seed : int
        Seed of the search.

    Returns
    -------
    total : float
        The accountant's total epsilon.
    earlier : list of float
        The epsilons already spent.
    plan : list of tuple
        ``(kind, epsilon)`` of each query of the plan.
    """
    rng = _default_rng([seed, 44])
    for _attempt in range(100_000):  # a case turns up within a few hundred attempts
        total = _float(rng.choice([1.0, 2.0, 3.0, _log_uniform(rng, 0.5, 5)]))
        earlier = [_float(round(rng.uniform(0.05, 0.3), int(rng.integers(1, 4)))) for _ in range(int(rng.integers(1, 4)))]
        if _fsum(earlier) > 0.8 * total:
            continue
        accountant = PrivacyAccountant(total)
        for spend in earlier:
            accountant.spend(spend, label="earlier analysis")
        left = accountant.remaining_epsilon
        m = int(rng.integers(2, 8))
        part = _float(round(left / m, int(rng.integers(1, 17))))
        plan_epsilons = [part] * m
        naive = 0.0
        for e in plan_epsilons:
            naive += e
        exact = _fsum(plan_epsilons)
        trips_float_sums = naive > left and _compensated_sum(plan_epsilons) > left and exact > left
        if trips_float_sums and accountant.can_spend_all(plan_epsilons) and not accountant.can_spend(exact):
            kinds = [str(k) for k in rng.choice(["count", "sum", "mean"], m)]
            return total, earlier, list(zip(kinds, plan_epsilons))
    raise RuntimeError(f"no float-rounding plan found for seed {seed}: the ledger's rule changed; update float_rounding_plan.")
