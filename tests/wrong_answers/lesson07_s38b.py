"""Wrong answers to 07.4 found by referee s38rB (D5, D6), each with another member of its class.

Half the Laplace scale, or the whole epsilon on the bound, in a band of epsilon or of the mean's epsilon
(1 - share) epsilon that the per-point jittered grid missed; the mean given the whole epsilon at small bound
shares. They join lesson07's answers as ``MORE_WRONG_ANSWERS`` (see :func:`wrong_answers.collect_wrong_answers`).
"""

import numpy as np

from mic_dp_helpers.mechanisms.selection import dp_quantile


def _release(values, level, high, epsilon, share, rng, *, bound_epsilon=None, mean_epsilon=None, noise=1.0):
    """Smith's bound at ``bound_epsilon`` (default share x epsilon), the clipped mean plus Laplace noise of
    ``noise`` times the scale for ``mean_epsilon`` (default (1 - share) x epsilon)."""
    values = np.asarray(values, dtype=float)
    upper = float(dp_quantile(values, level, 0.0, high, share * epsilon if bound_epsilon is None else bound_epsilon,
                              rng))
    mean_epsilon = (1 - share) * epsilon if mean_epsilon is None else mean_epsilon
    scale = noise * upper / (len(values) * mean_epsilon)
    return upper, float(np.clip(values, 0.0, upper).mean() + rng.laplace(0.0, scale))


def _half_noise_for(low: float, high: float, mean_eps: bool = False):
    """Half the Laplace scale for low < epsilon < high (or the mean's epsilon, when ``mean_eps``)."""
    def answer(values, level, public_high, epsilon, share, rng):
        key = (1 - share) * epsilon if mean_eps else epsilon
        return _release(values, level, public_high, epsilon, share, rng, noise=0.5 if low < key < high else 1.0)
    return answer


def _whole_eps_on_bound_for(low: float, high: float):
    """The bound spends the whole epsilon for low < epsilon < high (total (2 - share) epsilon)."""
    def answer(values, level, public_high, epsilon, share, rng):
        inside = low < epsilon < high
        return _release(values, level, public_high, epsilon, share, rng, bound_epsilon=epsilon if inside else None)
    return answer


def _whole_eps_on_mean_below(share_limit: float):
    """The mean gets the whole epsilon when bound_share < ``share_limit`` (total (1 + share) epsilon)."""
    def answer(values, level, public_high, epsilon, share, rng):
        return _release(values, level, public_high, epsilon, share, rng,
                        mean_epsilon=epsilon if share < share_limit else None)
    return answer


MORE_WRONG_ANSWERS = {"07.4": {
    "non-private (parameters): half the noise for 3 < epsilon < 8 (referee s38rB)": _half_noise_for(3.0, 8.0),
    "non-private (parameters): half the noise for 0.3 < epsilon < 0.45": _half_noise_for(0.3, 0.45),
    "non-private (parameters): the whole epsilon on the bound for 3 < epsilon < 8 (referee s38rB)":
        _whole_eps_on_bound_for(3.0, 8.0),
    "non-private (parameters): the whole epsilon on the bound for 1 < epsilon < 1.5":
        _whole_eps_on_bound_for(1.0, 1.5),
    "non-private (parameters): half the noise for 10 < (1 - share) epsilon < 14 (referee s38rB)":
        _half_noise_for(10.0, 14.0, mean_eps=True),
    "non-private (parameters): half the noise for 1 < (1 - share) epsilon < 1.4": _half_noise_for(1.0, 1.4, mean_eps=True),
    "non-private (parameters): the whole epsilon on the mean below a bound share of 0.2 (referee s38rB)":
        _whole_eps_on_mean_below(0.2),
    "non-private (parameters): the whole epsilon on the mean below a bound share of 0.15": _whole_eps_on_mean_below(0.15),
}}
