"""Wrong answers to 07.1 and 07.4 hidden in a band of sizes or parameters, or in the noise's size (referee rt0709).

Each ``non-private`` answer is exact, shares coins, or draws too little noise only inside a band the checks'
fixed cases skipped: 20,000-60,000 people, bound shares below 0.2, public bounds below 100, levels above
0.99, 3,001-15,000 values, or noise 10% (or a factor n / (n + 1)) too small. Read by ``lesson07``.
"""

import math

import numpy as np

from mic_dp_helpers.mechanisms.selection import dp_quantile
from wrong_answers.lesson07 import (_CORRECT_BM, _CORRECT_RR, _EXACT_RR, _bound_mean_variant, _exact_when, _rr,
                                    _rr_paired)

WRONG: dict = {}
HONEST: dict = {}


# ------------------------------------------------------------------ referee rt0709: size bands, bound shares, noise size
def _rr_paired_between(low, high):
    """Coins shared between person i and i + n/2, only for ``low`` to ``high`` people."""
    return lambda t, e, rng: _rr_paired(t, e, rng) if low <= len(t) <= high else _rr(t, e, rng)


def _rr_epsilon_scaled_between(low, high, factor):
    """Randomized response at ``factor`` times epsilon (too few flips), only for ``low`` to ``high`` people."""
    return lambda t, e, rng: _rr(t, e * factor if low <= len(t) <= high else e, rng)


def _bound_mean_noise_factor(factor_of):
    """The 07.4 release with its Laplace scale multiplied by ``factor_of(n)``."""
    def answer(values, level, high, epsilon, share, rng):
        values = np.asarray(values, dtype=float)
        upper = dp_quantile(values, level, 0.0, high, share * epsilon, rng)
        scale = factor_of(len(values)) * upper / (len(values) * (1 - share) * epsilon)
        return upper, float(np.clip(values, 0.0, upper).mean() + rng.laplace(0.0, scale))
    return answer


def _exact_bound_when(condition):
    """The 07.4 release with the exact ``level``-quantile as the bound wherever ``condition(level, n)``."""
    def answer(values, level, high, epsilon, share, rng):
        if not condition(level, len(values)):
            return _bound_mean_variant(values, level, high, epsilon, share, rng)
        values = np.asarray(values, dtype=float)
        upper = float(np.quantile(values, level))
        scale = upper / (len(values) * (1 - share) * epsilon)
        return upper, float(np.clip(values, 0.0, upper).mean() + rng.laplace(0.0, scale))
    return answer


WRONG["07.1"] = {
    "non-private (size): exact for 20,000 to 60,000 people":
        _exact_when(lambda t, e, rng: 20_000 <= len(t) <= 60_000, _CORRECT_RR, _EXACT_RR),
    "non-private (size): exact for 150 to 400 people":
        _exact_when(lambda t, e, rng: 150 <= len(t) <= 400, _CORRECT_RR, _EXACT_RR),
    "non-private (size): exact for 3,000 to 9,000 people, except 3,000 itself":
        _exact_when(lambda t, e, rng: 3_000 < len(t) <= 9_000, _CORRECT_RR, _EXACT_RR),
    "non-private (size): coins shared between person i and i + n/2 for 20,000 to 60,000 people":
        _rr_paired_between(20_000, 60_000),
    "non-private (size): coins shared between person i and i + n/2 for 200,000 to 900,000 people":
        _rr_paired_between(200_000, 900_000),
    "non-private (size): 1.1 times epsilon for 300,000 to 900,000 people":
        _rr_epsilon_scaled_between(300_000, 900_000, 1.1),
    "non-private (size): twice epsilon for 10 to 1,000 people": _rr_epsilon_scaled_between(10, 1_000, 2.0),
}


# ------------------------------------------------------------------ referee s35rcb: flip counts, grid gaps
def _flip_count_between(low, high, spread):
    """Flips at random positions, their number n (1 - p) plus ``spread`` binomial standard errors of normal
    noise (0: exactly round(n (1 - p)) liars), only for ``low`` to ``high`` people."""
    def answer(truth, epsilon, rng):
        truth = np.asarray(truth, dtype=bool)
        n = truth.size
        if not low <= n <= high:
            return _rr(truth, epsilon, rng)
        f = 1 / (1 + math.exp(epsilon))
        k = int(np.clip(round(n * f + spread * rng.normal() * math.sqrt(n * f * (1 - f))), 0, n))
        flip = np.zeros(n, dtype=bool)
        flip[rng.choice(n, k, replace=False)] = True
        return truth ^ flip
    return answer


WRONG["07.1"].update({
    "non-private (calls): exactly round(n (1 - p)) flips at random positions above 12,000 people":
        _flip_count_between(12_001, 10**9, 0.0),
    "non-private (calls): exactly round(n (1 - p)) flips at random positions above 400,000 people":
        _flip_count_between(400_001, 10**9, 0.0),
    "non-private (calls): a flip count with a tenth of the binomial spread above 12,000 people":
        _flip_count_between(12_001, 10**9, 0.1),
    "non-private (size): exact for 15,000 to 24,000 people":
        _exact_when(lambda t, e, rng: 15_000 <= len(t) <= 24_000, _CORRECT_RR, _EXACT_RR),
    "non-private (size): exact for 400,000 to 600,000 people":
        _exact_when(lambda t, e, rng: 400_000 <= len(t) <= 600_000, _CORRECT_RR, _EXACT_RR),
    "non-private (size): exact for 100,000 to 140,000 people":
        _exact_when(lambda t, e, rng: 100_000 <= len(t) <= 140_000, _CORRECT_RR, _EXACT_RR),
    "non-private (size): coins shared between person i and i + n/2 for 400,000 to 600,000 people":
        _rr_paired_between(400_000, 600_000),
    "non-private (parameters): exact for 1.2 <= epsilon <= 1.7":
        _exact_when(lambda t, e, rng: 1.2 <= e <= 1.7, _CORRECT_RR, _EXACT_RR),
})
WRONG["07.4"] = {
    "non-private (parameters): exact mean when bound_share <= 0.2": _exact_when(
        lambda v, q, h, e, s, rng: s <= 0.2, _CORRECT_BM, lambda *a: _bound_mean_variant(*a, exact_mean=True)),
    "non-private (parameters): exact mean when bound_share >= 0.8": _exact_when(
        lambda v, q, h, e, s, rng: s >= 0.8, _CORRECT_BM, lambda *a: _bound_mean_variant(*a, exact_mean=True)),
    "non-private (parameters): exact mean when public_high < 100": _exact_when(
        lambda v, q, h, e, s, rng: h < 100, _CORRECT_BM, lambda *a: _bound_mean_variant(*a, exact_mean=True)),
    "non-private (parameters): exact mean when public_high > 20,000": _exact_when(
        lambda v, q, h, e, s, rng: h > 20_000, _CORRECT_BM, lambda *a: _bound_mean_variant(*a, exact_mean=True)),
    "non-private (size): exact mean for 3,001 to 15,000 values": _exact_when(
        lambda v, *rest: 3_000 < len(v) < 15_000, _CORRECT_BM, lambda *a: _bound_mean_variant(*a, exact_mean=True)),
    "non-private (parameters): exact quantile as the bound above level 0.99": _exact_bound_when(lambda q, n: q > 0.99),
    "non-private (parameters): exact quantile as the bound below level 0.3": _exact_bound_when(lambda q, n: q < 0.3),
    "non-private (size): exact quantile as the bound for 500 to 2,000 values": _exact_bound_when(
        lambda q, n: 500 <= n <= 2_000),
    "non-private (shape): 10% too little noise": _bound_mean_noise_factor(lambda n: 0.9),
    "non-private (size): noise scaled by upper / (n + 1)": _bound_mean_noise_factor(lambda n: n / (n + 1)),
    "non-private (size): 0.8x noise below 10 values": _bound_mean_noise_factor(lambda n: 0.8 if n < 10 else 1.0),
}
HONEST["07.1"] = {}
HONEST["07.4"] = {}
HONEST["07.1"]["flips as Bernoulli draws, xor with the truth"] = lambda t, e, rng: np.asarray(t, dtype=bool) ^ (
    rng.binomial(1, 1 / (1 + math.exp(e)), np.asarray(t).size) == 1)
HONEST["07.4"]["a noisy clipped sum divided by the public n"] = lambda v, q, h, e, s, rng: (lambda v, u: (
    u, float((np.clip(v, 0.0, u).sum() + rng.laplace(0.0, u / ((1 - s) * e))) / len(v))))(
    np.asarray(v, dtype=float), dp_quantile(np.asarray(v, dtype=float), q, 0.0, h, s * e, rng))
