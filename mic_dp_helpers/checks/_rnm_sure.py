"""07.3's near-certain cases: the best candidate holds 99.9-99.993% of the exponential mechanism's chance.

Referee s40rB D3: an answer that returns the plain argmax when the exponential mechanism would pick the best with
chance above 0.995, 0.999 or 0.9999 passed, as no case of :func:`_rnm_cases.rnm_cases` had a best chance between
about 0.985 and 1 - 1e-16 (the far cases' far candidates together always hold about 1.5%). Without the runner-up's
small chance the choice is not private: a neighbouring data set whose gap falls below the threshold gives it a
positive chance, so epsilon is infinite. Here one best candidate and a few others hold the others' total chance
``q`` (drawn in a range), and the calls are set for :data:`SURE_PICKS` expected choices of the others; the check
runs them after every other case, so they change none of the others' draws.
"""

from __future__ import annotations

import math

import numpy as np
from scipy import stats

from mic_dp_helpers.checks._core import CheckFailed, call_repeatedly
from mic_dp_helpers.checks._rnm_cases import RNM_SENSITIVITIES, RNM_SWEEP_EPSILONS, _log_uniform

_binom_cdf, _binom_sf, _default_rng = stats.binom.cdf, stats.binom.sf, np.random.default_rng

#: The near-certain cases: (fewest candidates, most candidates, the others' least and largest total chance).
#: Two candidates reach the referee's 0.9999 (the others below 1e-4); more candidates stop higher, for cost.
SURE_CASES = ((2, 2, 7e-5, 9.5e-5), (3, 10, 2e-4, 4e-4), (11, 300, 5e-4, 1e-3))
#: Expected choices of the candidates other than the best in each near-certain case: a correct answer never
#: chooses them with probability e^-16 = 1.1e-7 (the test's alpha at the lower end).
SURE_PICKS = 16.0
#: False-rejection rate of each tail of the near-certain test (the lower tail is reached only at 0 choices).
SURE_ALPHA = 1e-6


def _sure_scores(generator, k: int, others: float, scale: float) -> np.ndarray:
    """``k`` scores: one best (at a random place) and ``k - 1`` others spread over 3 Gumbel scales (of size
    ``scale``), placed so that the exponential mechanism gives the others ``others`` of the chance in all."""
    logits = -generator.uniform(0.0, 3.0, k - 1)
    logits += math.log(others / (1.0 - others)) - math.log(float(np.exp(logits).sum()))
    return np.insert(logits * scale, int(generator.integers(k)), 0.0)


def sure_cases(generator) -> list[tuple]:
    """(scores, sensitivity, epsilon, calls) for each of :data:`SURE_CASES`: the others' total chance q drawn
    log-uniform in its range (so no round threshold sits on it), calls ceil(SURE_PICKS / q): 168,000 to 229,000
    calls for 2 candidates, 40,000 to 80,000 for 3-10, 16,000 to 32,000 for 11-300.

    Parameters
    ----------
    generator : numpy.random.Generator
        The check's generator.

    Returns
    -------
    list of tuple
        One case per row of :data:`SURE_CASES`.
    """
    cases = []
    for fewest, most, low, high in SURE_CASES:
        k = int(generator.integers(fewest, most + 1))
        others = _log_uniform(generator, low, high)
        sensitivity = _log_uniform(generator, *RNM_SENSITIVITIES)  # 1e-3 to 1e3
        epsilon = _log_uniform(generator, *RNM_SWEEP_EPSILONS)  # 0.01 to 20
        scores = _sure_scores(generator, k, others, 2.0 * sensitivity / epsilon)
        cases.append((scores, sensitivity, epsilon, int(math.ceil(SURE_PICKS / others))))
    return cases


def _sure_failure(where: str, picked: int, calls: int, chance: float) -> str | None:
    """The hint when ``picked`` choices of the others in ``calls`` are beyond Binomial(calls, chance)'s
    :data:`SURE_ALPHA` tails, else None."""
    expected = calls * chance
    if float(_binom_cdf(picked, calls, chance)) < SURE_ALPHA:
        return (f"{where} the best candidate was chosen {calls - picked:,} times in {calls:,} calls, where the "
                f"exponential mechanism gives the others {chance:.2g} of the chance (about {expected:.0f} choices; "
                f"{picked} here): the noise is skipped (or cut short) when the winner looks certain. Add Gumbel "
                "noise of scale 2 * sensitivity / epsilon on every call, however sure the winner looks: the "
                "runner-up's small chance is what makes the choice epsilon-DP (without it, a neighbouring data set "
                "that gives the runner-up a chance shows at once).")
    if float(_binom_sf(picked - 1, calls, chance)) < SURE_ALPHA:
        return (f"{where} candidates other than the best were chosen {picked} times in {calls:,} calls, where the "
                f"exponential mechanism gives them about {expected:.0f}: more noise than Gumbel noise of scale "
                "2 * sensitivity / epsilon, or not the largest noisy score reported.")
    return None


def check_near_certain(answer, generator, index, exact_em) -> None:
    """Run :func:`sure_cases` and test the choices of the candidates other than the best (binomial, both tails
    at :data:`SURE_ALPHA`; an answer that never chooses them fails with probability 1 - e^-16).

    Parameters
    ----------
    answer : callable
        The student's ``report_noisy_max(scores, sensitivity, epsilon, rng)``.
    generator : numpy.random.Generator
        The check's generator (the cases and the answer's generators are drawn from it).
    index : callable
        ``index(raw, k, where)``: the chosen index, or CheckFailed when it is not one.
    exact_em : callable
        ``exact_em(scores, sensitivity, epsilon)``: the exponential mechanism's chances.

    Raises
    ------
    CheckFailed
        When the choices of the others are too few or too many.
    """
    for scores, sensitivity, epsilon, calls in sure_cases(generator):
        where = (f"For {len(scores)} scores with one far ahead of the others (the best at position "
                 f"{int(np.argmax(scores))}), sensitivity={sensitivity:.3g}, epsilon={epsilon:.3g}:")
        outputs = call_repeatedly(answer, calls, scores.copy(), sensitivity, epsilon,
                                  _default_rng(int(generator.integers(2**31))))
        best = int(np.argmax(scores))
        picked = sum(index(o, len(scores), where) != best for o in outputs)
        chance = float(np.delete(exact_em(scores, sensitivity, epsilon), best).sum())  # now, after the calls
        failure = _sure_failure(where, picked, calls, chance)
        if failure is not None:
            raise CheckFailed(failure)
