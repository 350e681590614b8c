"""Wrong answers to 07.1 and 07.4 hidden where the checks' cases did not reach (referee s36rB).

07.1: exact, twice epsilon, a fixed number of liars or stratified coins only for many people at a middle or
high epsilon. 07.4: zeros dropped (n read from the data), an exact quantile plus Laplace noise above a size,
nearly noise-free means on a small share of calls. Each referee answer comes with one more member of its class
(other numbers). Joined to ``lesson07``'s answers through ``MORE_WRONG_ANSWERS``.
"""

import math

import numpy as np

from mic_dp_helpers.mechanisms.selection import dp_quantile


def _keep(epsilon):
    return 1.0 / (1.0 + math.exp(-epsilon))


def _coins(truth, epsilon, rng):
    truth = np.asarray(truth, dtype=bool)
    return np.where(rng.random(truth.size) < _keep(epsilon), truth, ~truth)


def _inside(n_min, low, high):
    return lambda truth, epsilon: len(truth) > n_min and low < epsilon < high


def _exact_in(region):
    return lambda t, e, rng: np.asarray(t, dtype=bool).copy() if region(t, e) else _coins(t, e, rng)


def _double_eps_in(region):
    return lambda t, e, rng: _coins(t, 2 * e if region(t, e) else e, rng)


def _fixed_count_in(region):
    def answer(truth, epsilon, rng):
        truth = np.asarray(truth, dtype=bool)
        if not region(truth, epsilon):
            return _coins(truth, epsilon, rng)
        out = truth.copy()
        flip = rng.choice(truth.size, int(round(truth.size * (1 - _keep(epsilon)))), replace=False)
        out[flip] = ~out[flip]
        return out
    return answer


def _stratified_in(region):
    def answer(truth, epsilon, rng):
        truth = np.asarray(truth, dtype=bool)
        if not region(truth, epsilon):
            return _coins(truth, epsilon, rng)
        u = (rng.permutation(truth.size) + rng.random(truth.size)) / truth.size
        return np.where(u < _keep(epsilon), truth, ~truth)
    return answer


def _bound_mean(values, level, high, epsilon, share, rng, *, drop_zeros=False, noisy_quantile_above=None,
                near_exact=None):
    values = np.asarray(values, dtype=float)
    if drop_zeros:
        values = values[values > 0]
    n = values.size
    if noisy_quantile_above is not None and n > noisy_quantile_above:
        upper = float(np.clip(np.quantile(values, level) + rng.laplace(0, high / (n * share * epsilon)), 0, high))
    else:
        upper = dp_quantile(values, level, 0.0, high, share * epsilon, rng)
    noise = rng.laplace(0, upper / (n * (1 - share) * epsilon))
    if near_exact is not None and rng.random() < near_exact[0]:
        noise *= near_exact[1]
    return upper, float(np.clip(values, 0, upper).mean() + noise)


def _drop_zeros_mean_only(values, level, high, epsilon, share, rng):
    """The bound over every value, the mean over the positive values (divided by their count)."""
    values = np.asarray(values, dtype=float)
    upper = dp_quantile(values, level, 0.0, high, share * epsilon, rng)
    positive = values[values > 0]
    return upper, float(np.clip(positive, 0, upper).mean() + rng.laplace(0, upper / (positive.size * (1 - share) * epsilon)))


MORE_WRONG_ANSWERS = {
    "07.1": {
        "non-private (region): exact above 8,000 people for 1.05 < epsilon < 5.9": _exact_in(_inside(8000, 1.05, 5.9)),
        "non-private (region): exact above 20,000 people for 1.5 < epsilon < 5.5": _exact_in(_inside(20_000, 1.5, 5.5)),
        "non-private (region): exact above 100,000 people for 2.5 < epsilon < 4": _exact_in(_inside(100_000, 2.5, 4)),
        "non-private (region): twice epsilon above 20,000 people for 1.5 < epsilon < 5.5":
            _double_eps_in(_inside(20_000, 1.5, 5.5)),
        "non-private (region): twice epsilon above 200,000 people for 1.2 < epsilon < 2.5":
            _double_eps_in(_inside(200_000, 1.2, 2.5)),
        "non-private (region): a fixed number of liars from 2,000 people for epsilon > 1.05":
            _fixed_count_in(_inside(1999, 1.05, math.inf)),
        "non-private (region): a fixed number of liars above 30,000 people for 2 < epsilon < 7":
            _fixed_count_in(_inside(30_000, 2.0, 7.0)),
        "non-private (region): stratified coins from 2,000 people for epsilon > 1.05":
            _stratified_in(_inside(1999, 1.05, math.inf)),
        "non-private (region): stratified coins above 50,000 people for epsilon > 3":
            _stratified_in(_inside(50_000, 3.0, math.inf)),
    },
    "07.4": {
        "zeros dropped: n is the count of positive values": lambda *a: _bound_mean(*a, drop_zeros=True),
        "zeros dropped from the mean only (divided by the positive count)": _drop_zeros_mean_only,
        "non-private (size): exact quantile plus Laplace above 200,000 values":
            lambda *a: _bound_mean(*a, noisy_quantile_above=200_000),
        "non-private (size): exact quantile plus Laplace above 500,000 values":
            lambda *a: _bound_mean(*a, noisy_quantile_above=500_000),
        "non-private (calls): noise x 1e-4 on 1% of calls": lambda *a: _bound_mean(*a, near_exact=(0.01, 1e-4)),
        "non-private (calls): noise x 1e-3 on 0.6% of calls": lambda *a: _bound_mean(*a, near_exact=(0.006, 1e-3)),
        "non-private (calls): noise x 1e-2 on 1.5% of calls": lambda *a: _bound_mean(*a, near_exact=(0.015, 1e-2)),
    },
}
