"""Wrong answers to 07.3 and 07.5 found by referee s36rC, each with another member of its class.

07.3: the exact argmax in a band of sizes the fixed cases skipped, or a noise scale wrong in a band of
sensitivities. 07.5: audits at another confidence, with a delta, or on part of the samples; and honest audits
that see the samples in another order (two were rejected before). Read by ``lesson07``.
"""

import numpy as np

from mic_dp_helpers.attacks.audit import audit_epsilon
from wrong_answers.lesson07 import _CORRECT_RNM, _EXACT_RNM, _exact_when

WRONG: dict = {}
HONEST: dict = {}


def _exact_for_sizes(*bands):
    """The exact argmax when the number of candidates lies in one of ``bands`` ((low, high) inclusive)."""
    return _exact_when(lambda s, d, e, rng: any(low <= len(s) <= high for low, high in bands), _CORRECT_RNM, _EXACT_RNM)


def _gumbel_scaled(factor_of):
    """Gumbel noisy max with scale ``factor_of(sensitivity) / epsilon`` (2 * sensitivity / epsilon is right)."""
    return lambda s, d, e, rng: int(np.argmax(np.asarray(s, float) + rng.gumbel(0.0, factor_of(d) / e, len(s))))


def _audit(samples, *, shuffle=False, draw=False, n=None, **options):
    """The names whose claim the course audit refutes, with ``options``, on the first ``n`` samples.

    ``shuffle``: the samples in a random order; ``draw``: the stored outputs handed back in the order of a
    permutation drawn from the audit's own generator. Both are correct audits.
    """
    order = np.random.default_rng(1)
    flagged = []
    for name, (a, b, claimed) in samples.items():
        a, b = (order.permutation(a), order.permutation(b)) if shuffle else (np.asarray(a), np.asarray(b))
        size = len(a) if n is None else n
        stored = (lambda data, k, rng: rng.permutation(data)[:k]) if draw else (lambda data, k, rng: data[:k])
        if audit_epsilon(stored, a[:size], b[:size], n_samples=size, **options).refutes(claimed):
            flagged.append(name)
    return flagged


WRONG["07.3"] = {
    "non-private (size): exact argmax for 11-25 candidates (referee s36rC)": _exact_for_sizes((11, 25)),
    "non-private (size): exact argmax for 600-8,000 and 10,000-99,999 candidates (referee s36rC)":
        _exact_for_sizes((600, 8_000), (10_000, 99_999)),
    "non-private (size): exact argmax for 150-260 candidates": _exact_for_sizes((150, 260)),
    "non-private (size): exact argmax for 2,000-3,500 candidates": _exact_for_sizes((2_000, 3_500)),
    "too little noise: the sensitivity capped at 4 (referee s36rC)": _gumbel_scaled(lambda d: 2 * min(d, 4.0)),
    "too little noise: the sensitivity capped at 50": _gumbel_scaled(lambda d: 2 * min(d, 50.0)),
    "twice epsilon: the factor 2 forgotten below sensitivity 0.5 (referee s36rC)":
        _gumbel_scaled(lambda d: d if d < 0.5 else 2 * d),
    "twice epsilon: the factor 2 forgotten above sensitivity 20": _gumbel_scaled(lambda d: d if d > 20 else 2 * d),
}
# 07.5's audits at confidence 0.93 (and 0.9 on shuffled samples) pass since referee s37rC (see
# wrong_answers.lesson07_s37c.STATED_LIMITS); at 0.97, with delta 1e-3 or on the first 90,000 samples they are valid,
# weaker 95% audits (lesson07_s37c.HONEST).
HONEST["07.5"] = {
    "the audit on shuffled samples (referee s36rC)": lambda samples: _audit(samples, shuffle=True),
    "the stored outputs handed back in a random order (referee s36rC)": lambda samples: _audit(samples, draw=True),
}
