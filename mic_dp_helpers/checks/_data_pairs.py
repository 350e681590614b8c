"""Calls with the same settings on different data, interleaved with other settings (referee s39rB D0b).

Noise memoised per setting (size, epsilon, sensitivity, bound share) and reused whenever the data change passed
07.3 and 07.4: every other case calls the answer on one data set per setting, so the reuse never triggered (the
referee counted 0 reuses in 118,435 and 18,120 calls). Here two neighbouring data sets (one entry changed) are
called in rounds ``A@s1, A@s2, B@s1, B@s2`` with one generator: the noise of calls on other data or at other
settings must be independent. A memo per setting, per size, or refreshed only when the same data come again,
reuses a draw on every call after the first round.
"""

from __future__ import annotations

import numpy as np
from scipy import stats

from mic_dp_helpers.checks._core import CheckFailed

_binom_sf, _spearmanr, _default_rng = stats.binom.sf, stats.spearmanr, np.random.default_rng

#: 07.3: rounds of four calls, candidates, sensitivity, the two epsilons, and the test's false-rejection rate.
RNM_ROUNDS, RNM_CANDIDATES, RNM_EPSILONS, RNM_ALPHA = 100, 200, (1.0, 0.5), 1e-6
#: 07.4: rounds of four calls, values, and the two settings (level, public_high, epsilon, bound_share).
MEAN_ROUNDS, MEAN_VALUES = 50, 200
MEAN_SETTINGS = ((0.9, 1000.0, 1.0, 0.3), (0.9, 1000.0, 0.5, 0.3))
#: The call order within a round: (data set, setting).
ORDER = ((0, 0), (0, 1), (1, 0), (1, 1))
#: Pairs of calls within a round compared: same setting, other data; same data, other setting; both other.
PAIRS = ((0, 2), (1, 3), (0, 1), (2, 3), (0, 3), (1, 2))


def _neighbours(values: np.ndarray, generator) -> list[np.ndarray]:
    """``values`` and a copy with one entry (at a random place) raised by 1."""
    other = values.copy()
    other[int(generator.integers(values.size))] += 1.0
    return [values, other]


def interleaved_calls(call, data, settings, rounds: int) -> list:
    """``rounds`` rounds of ``call(data[d], settings[s])`` for (d, s) in :data:`ORDER`, flattened in call order.

    Parameters
    ----------
    call : callable
        ``call(data_set, setting)``: one call of the answer.
    data, settings : sequence
        The two data sets and the two settings.
    rounds : int
        Rounds of four calls.

    Returns
    -------
    list
        The ``4 * rounds`` results, in call order.
    """
    return [call(data[d], settings[s]) for _ in range(rounds) for d, s in ORDER]


def _rnm_agreements(chosen: np.ndarray, probabilities: list) -> tuple[int, float]:
    """(rounds in which some pair of :data:`PAIRS` chose the same candidate, the union bound of its chance).

    Independent calls agree with chance sum_i p_i q_i per pair; a round's chance of any agreement is at most the
    sum over its pairs (``mu``), and rounds are independent, so the count is below Binomial(rounds, mu)."""
    per_round = chosen.reshape(-1, len(ORDER))
    laws = [probabilities[d][s] for d, s in ORDER]
    mu = float(sum((laws[a] * laws[b]).sum() for a, b in PAIRS))
    agree = np.zeros(per_round.shape[0], dtype=bool)
    for a, b in PAIRS:
        agree |= per_round[:, a] == per_round[:, b]
    return int(agree.sum()), min(mu, 1.0)


def check_rnm_data_pairs(answer, generator, index, exact_em) -> None:
    """07.3: 100 rounds on 200 scores (uniform on [0, 3]) and a neighbour (one score + 1), sensitivity 1, epsilons
    1 and 0.5 (400 calls).

    Noise memoised per setting and reused on the other data (or at the other epsilon) makes the choices of a
    round agree; independent calls agree in a round with chance at most ``mu`` (about 0.04 here), so the number
    of rounds with an agreement is tested against Binomial(100, mu)'s upper tail at :data:`RNM_ALPHA` (a correct
    answer fails with probability below 1e-6). Reuse on every call gives 100 of 100 (power 1); reuse on a
    fraction f of the calls fails with probability 0.73 at f = 0.05 and 0.99
    from f = 0.08 (15 agreeing rounds or more fail; computed, mu = 0.03).

    Parameters
    ----------
    answer : callable
        The student's ``report_noisy_max``.
    generator : numpy.random.Generator
        The check's generator (scores, the answer's generator's seed).
    index : callable
        ``index(raw, k, where)``: the returned index, checked.
    exact_em : callable
        ``exact_em(scores, sensitivity, epsilon)``: the exponential mechanism's probabilities.
    """
    data = _neighbours(np.round(generator.uniform(0.0, 3.0, RNM_CANDIDATES), 3), generator)
    rng = _default_rng(int(generator.integers(2**31)))
    where = (f"For {RNM_CANDIDATES} scores and the same scores with one raised by 1 (sensitivity=1, epsilons "
             f"{RNM_EPSILONS[0]:g} and {RNM_EPSILONS[1]:g}), called in turn:")
    outputs = interleaved_calls(lambda d, eps: answer(d.copy(), 1.0, eps, rng), data, RNM_EPSILONS, RNM_ROUNDS)
    chosen = np.array([index(o, RNM_CANDIDATES, where) for o in outputs])
    probabilities = [[exact_em(d, 1.0, eps) for eps in RNM_EPSILONS] for d in data]  # after the calls
    agreed, mu = _rnm_agreements(chosen, probabilities)
    if agreed >= 2 and float(_binom_sf(agreed - 1, RNM_ROUNDS, mu)) < RNM_ALPHA:
        raise CheckFailed(f"{where} in {agreed} of {RNM_ROUNDS} rounds of four calls two calls chose the same "
                          f"candidate, where independent noise does so in at most about {mu * RNM_ROUNDS:.0f}: the "
                          "noise of one call is reused in a call on other scores or at another epsilon (noise kept "
                          "per size or setting). Two choices on neighbouring scores with shared noise are not the "
                          "independent releases composition counts on: draw fresh Gumbel noise from `rng` on every "
                          "call.")


def check_mean_data_pairs(answer, generator, bound_and_mean, clipped_means, no_repeat) -> None:
    """07.4: 50 rounds on 200 values (lognormal) and a neighbour (one value + 1), at epsilons 1 and 0.5 (200 calls).

    The standardised noises (noise / scale) and the raw noises of all 200 calls must hold no repeated draw
    (``no_repeat``: two independent Laplace draws agree that closely with probability below 1e-11 per pair,
    below 2e-7 over the 19,900 pairs), and the noises of the pairs of :data:`PAIRS` across the 50 rounds must be
    uncorrelated (Spearman, |rho| sqrt(50) above 5: about 6e-7 each, 4e-6 over the six pairs). A draw memoised per
    setting or per size and reused on the other data fails both (power 1).

    Parameters
    ----------
    answer : callable
        The student's 07.4 function, called 200 times here.
    generator : numpy.random.Generator
        Draws the values and the seed of the answer's generator.
    bound_and_mean : callable
        ``bound_and_mean(raw, where)``: the two returned numbers, checked.
    clipped_means : callable
        ``clipped_means(values, uppers)``: the clipped means.
    no_repeat : callable
        ``no_repeat(z, centres, scales, describe)``: fails on a repeated draw.
    """
    data = _neighbours(np.round(generator.lognormal(3.0, 0.8, MEAN_VALUES), 2), generator)
    rng = _default_rng(int(generator.integers(2**31)))
    where = (f"For {MEAN_VALUES} values and the same values with one raised by 1, at epsilons "
             f"{MEAN_SETTINGS[0][2]:g} and {MEAN_SETTINGS[1][2]:g} (level 0.9, public_high 1000, bound_share 0.3), "
             "called in turn:")
    results = interleaved_calls(lambda d, s: bound_and_mean(answer(d.copy(), *s, rng), where), data,
                                MEAN_SETTINGS, MEAN_ROUNDS)
    uppers = np.array([r[0] for r in results])
    means = np.array([r[1] for r in results])
    which = [ORDER[i % len(ORDER)] for i in range(len(results))]
    centres = np.array([clipped_means(data[d], [u])[0] for (d, _), u in zip(which, uppers)])
    scales = np.array([u / (MEAN_VALUES * (1 - MEAN_SETTINGS[s][3]) * MEAN_SETTINGS[s][2])
                       for (_, s), u in zip(which, uppers)])
    noise = means - centres
    describe = lambda i: f"{where} call {i + 1} ({'first' if which[i][0] == 0 else 'second'} values, epsilon " \
                         f"{MEAN_SETTINGS[which[i][1]][2]:g}):"
    no_repeat(noise / scales, centres, scales, describe)
    no_repeat(noise, centres, np.ones_like(scales), describe)
    per_round = (noise / scales).reshape(-1, len(ORDER))
    for a, b in PAIRS:
        rho = float(_spearmanr(per_round[:, a], per_round[:, b]).statistic)
        if abs(rho) * np.sqrt(MEAN_ROUNDS) > 5.0:
            raise CheckFailed(f"{where} the noises of calls on other values or at another epsilon are correlated "
                              f"(Spearman {rho:.2f} over {MEAN_ROUNDS} rounds): the noise of one call is reused in "
                              "another. Draw fresh Laplace noise from `rng` on every call.")
