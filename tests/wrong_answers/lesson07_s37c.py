"""Wrong answers to 07.3 found by referee s37rC, each with another member of its class; 07.5's valid audits.

07.3: the exact argmax above 8 candidates at epsilon above 10 (the size sweep drew epsilon over 0.05-10), the
factor 2 forgotten in a factor-2 band of sensitivities, far candidates pruned above 10,000 candidates, noise
reused for two consecutive calls above 20,000 candidates. They join lesson07's answers as
``MORE_WRONG_ANSWERS`` (see :func:`wrong_answers.collect_wrong_answers`).

07.5 (``HONEST``): valid 95% audits, which the check accepts since every entry not to be flagged is honest;
``STATED_LIMITS``: audits the check cannot tell from valid ones (stated in ``check_not_private``'s Notes), kept
here for the record and not collected.
"""

import numpy as np

from mic_dp_helpers.attacks.audit import audit_epsilon
from wrong_answers.lesson07 import _CORRECT_RNM, _EXACT_RNM, _audit_at, _exact_when  # first: it reads _lesson07_s36
from wrong_answers._lesson07_s36 import _audit, _gumbel_scaled  # noqa: I001


def _pruned_above(size: int, scales: float):
    """Gumbel noisy max that drops the candidates more than ``scales`` Gumbel scales behind the best, above
    ``size`` candidates."""
    def answer(scores, sensitivity, epsilon, rng):
        scores = np.asarray(scores, float)
        scale = 2.0 * sensitivity / epsilon
        keep = np.flatnonzero(scores >= scores.max() - scales * scale) if len(scores) > size else np.arange(len(scores))
        return int(keep[np.argmax(scores[keep] + rng.gumbel(0.0, scale, len(keep)))])
    return answer


def _reused_in_pairs(low: int, high: int):
    """Gumbel noisy max whose noise serves two consecutive calls for ``low`` to ``high`` - 1 candidates."""
    stored: dict = {}

    def answer(scores, sensitivity, epsilon, rng):
        scores = np.asarray(scores, float)
        k = len(scores)
        if not low <= k < high:
            return _CORRECT_RNM(scores, sensitivity, epsilon, rng)
        noise = stored.pop(k, None)
        if noise is None:
            noise = stored[k] = rng.gumbel(0.0, 1.0, k)
        return int(np.argmax(scores + 2.0 * sensitivity / epsilon * noise))
    return answer


MORE_WRONG_ANSWERS = {"07.3": {
    "non-private (parameters): exact argmax above 8 candidates at epsilon above 10 (referee s37rC)":
        _exact_when(lambda s, d, e, rng: len(s) > 8 and e > 10, _CORRECT_RNM, _EXACT_RNM),
    "non-private (parameters): exact argmax above 50 candidates at epsilon 8 or more (referee s37rC)":
        _exact_when(lambda s, d, e, rng: len(s) > 50 and e >= 8, _CORRECT_RNM, _EXACT_RNM),
    "non-private (parameters): exact argmax above 1,000 candidates at epsilon below 0.05":
        _exact_when(lambda s, d, e, rng: len(s) > 1_000 and e < 0.05, _CORRECT_RNM, _EXACT_RNM),
    "twice epsilon: the factor 2 forgotten for sensitivities 4.05-8.2 (referee s37rC)":
        _gumbel_scaled(lambda d: d if 4.05 < d < 8.2 else 2 * d),
    "twice epsilon: the factor 2 forgotten for sensitivities 0.021-0.042":
        _gumbel_scaled(lambda d: d if 0.021 < d < 0.042 else 2 * d),
    "non-private (size): candidates 10 scales behind dropped above 10,000 candidates (referee s37rC)":
        _pruned_above(10_000, 10.0),
    "non-private (size): candidates 11.5 scales behind dropped above 15,000 candidates": _pruned_above(15_000, 11.5),
    "non-private (calls): noise reused for two consecutive calls for 20,000-999,999 candidates (referee s37rC)":
        _reused_in_pairs(20_000, 1_000_000),
    "non-private (calls): noise reused for two consecutive calls for 2,000-15,000 candidates":
        _reused_in_pairs(2_000, 15_000),
}}

#: Valid 95% audits of 07.5 (referee s37rC: the first three were rejected).
HONEST = {"07.5": {
    "the audit with n_candidates=1 (referee s37rC)": lambda samples: _audit(samples, n_candidates=1),
    "the audit with n_candidates=20 (referee s37rC)": lambda samples: _audit(samples, n_candidates=20),
    "a Bonferroni correction over the mechanisms (referee s37rC)":
        lambda samples: _audit(samples, confidence=1 - 0.05 / len(samples)),
    "the audit at 97% confidence": lambda samples: _audit(samples, confidence=0.97),
    "the audit with delta 1e-3 (a weaker bound)": lambda samples: _audit(samples, delta=1e-3),
    "the audit on the first 90,000 samples": lambda samples: _audit(samples, n=90_000),
}}


def _largest_over_orders(samples, orders: int):
    """The largest course-audit bound over ``orders`` random orders of the samples, against the claim: a retry."""
    generator = np.random.default_rng(2)
    flagged = []
    for name, (a, b, claimed) in samples.items():
        bounds = [audit_epsilon(lambda data, k, rng: data[:k], generator.permutation(a), generator.permutation(b),
                                n_samples=len(a)).epsilon_lower_bound for _ in range(orders)]
        if max(bounds) > claimed:
            flagged.append(name)
    return flagged


#: 07.5 answers the check passes, stated in ``check_not_private``'s Notes: a lower confidence is, where one event
#: decides, the same test as a valid audit with fewer candidate events; retries are invisible in stored samples.
STATED_LIMITS = {"07.5": {
    "the audit at 50% confidence": lambda samples: _audit_at(samples, 0.5),
    "the audit at 60% confidence": lambda samples: _audit_at(samples, 0.6),
    "the audit at 80% confidence": lambda samples: _audit_at(samples, 0.8),
    "the audit at 90% confidence": lambda samples: _audit_at(samples, 0.9),
    "the audit at 93% confidence (referee s36rC)": lambda samples: _audit(samples, confidence=0.93),
    "the audit on shuffled samples at 90% confidence": lambda samples: _audit(samples, shuffle=True, confidence=0.9),
    "the largest bound over 20 orders of the samples (referee s37rC)": lambda samples: _largest_over_orders(samples, 20),
}}
