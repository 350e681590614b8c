"""The cases of check 03.3 (the averaging attack): a true count, a noise kind and SD, and n_queries per case.

Split from ``lesson03`` at 600 lines. Cases 0-5 draw a count from 0 to 5,000; ``ORDER_CASE`` and ``LARGE_CASE``
are also handed out reordered (:mod:`mic_dp_helpers.checks._attack_orders`); ``SMALL_CASES`` hold small counts,
where an estimator biased near 0 shows (referee s37rA: answers clipped at 0, rounded and clipped, a geometric or a
harmonic mean passed, as no case had a count below 374).
"""

from __future__ import annotations

import math

import numpy as np

_default_rng = np.random.default_rng
_exp = math.exp
_log = math.log
_ceil = math.ceil
_sqrt = math.sqrt

#: The estimate must land within this of the true count (rounding then recovers it).
ATTACK_TOLERANCE = 0.5
#: n_queries is set so that the mean of the answers has at most this standard deviation (0.5 is 7 of them).
ATTACK_MAX_SD = 0.07
ORDER_CASE = 6  # the case whose answers are also handed out sorted (Laplace noise of SD 3)
#: A case allowing 150,000 to 200,000 answers (log-uniform), beyond the others' 51 to 8,344 (referee rt0206: an attack
#: capped at 10,000 questions passed; referee s35rca: at 20,000-200,000 the default seed allowed 45,828, so caps
#: of 50,000 or 100,000 passed), also handed out sorted (an attack averaging only its first 10,000 answers).
LARGE_CASE = 7
#: Small true counts (referee s37rA): (lowest count, highest count, lowest SD, highest SD, noise kind or None for
#: either). Exactly 0 (each answer clipped at 0, or at -1, rounded and clipped, or |answer|: off by 0.35-0.4 SD,
#: at least 1.06); 1-3 and 4-20 at SD 4-6 (a geometric mean of the positive parts, of max(answer, 1), a harmonic
#: mean: off by 0.5 to several units); the exercise's example, 16 with Laplace noise of SD 2 sqrt(2) (epsilon 0.5;
#: a harmonic mean is off by 0.5-1.7 there).
SMALL_COUNTS = ((0, 0, 3.0, 6.0, None), (1, 3, 4.0, 6.0, None), (4, 20, 4.0, 6.0, None),
                (16, 16, 2 * _sqrt(2), 2 * _sqrt(2), "laplace"))
SMALL_CASES = tuple(range(8, 8 + len(SMALL_COUNTS)))


def _log_uniform(rng, low: float, high: float) -> float:
    return float(_exp(rng.uniform(_log(low), _log(high)))) if high > low else float(low)


def attack_case(seed: int, index: int) -> tuple[int, str, float, int, int]:
    """(true count, noise kind, noise SD, n_queries, noise seed) of case ``index`` of ``seed``.

    Parameters
    ----------
    seed : int
        The check's seed.
    index : int
        0-5, ``ORDER_CASE``, ``LARGE_CASE`` or one of ``SMALL_CASES``.

    Returns
    -------
    tuple
        The case; its mean of n_queries answers has SD at most ``ATTACK_MAX_SD``.

    Examples
    --------
    >>> [attack_case(303, i)[0] for i in SMALL_CASES][::3]
    [0, 16]
    """
    rng = _default_rng([seed, index])
    true_count = int(rng.integers(0, 5_001))
    kind = "laplace" if rng.random() < 0.6 else "gaussian"
    sd = _log_uniform(rng, 0.5, 6.0)
    if index == ORDER_CASE:
        kind, sd = "laplace", 3.0
    if index in SMALL_CASES:
        low, high, low_sd, high_sd, fixed_kind = SMALL_COUNTS[index - SMALL_CASES[0]]
        true_count = int(rng.integers(low, high + 1)) if high < 5 else int(_log_uniform(rng, low, high + 1))
        sd, kind = _log_uniform(rng, low_sd, high_sd), fixed_kind or kind
    n_queries = int(_ceil((sd / ATTACK_MAX_SD) ** 2)) + int(rng.integers(0, 997))
    if index == LARGE_CASE:
        n_queries = int(_exp(rng.uniform(_log(150_000), _log(200_000))))
    return true_count, kind, sd, n_queries, int(rng.integers(1, 2**31))
