"""Wrong answers to 05.4, 07.3, 07.5 and 08.4 found by referee s38rC, each with another member of its class.

05.4: audits at a confidence above the exercise's 95% (0.99, 0.999, 0.97) or with delta 0.001 (valid, looser
bounds that flag fewer columns): the check's mirror column catches them. 07.3: a noise scale wrong only where
the sensitivity and the number of candidates are both large (the sensitivity sweep). 07.5: a rule that refutes
a claim when an output shows on one side only (the honest entry with ten rare outputs). 08.4: the epsilon term
dropped or doubled below epsilon 1e-4 (the per-decade cases from 1e-8). They join the owners' answers as
``MORE_WRONG_ANSWERS`` (see :func:`wrong_answers.collect_wrong_answers`); ``STATED_LIMITS`` holds 07.5 audits the
check cannot tell from valid ones (stated in ``check_not_private``'s Notes), for the record, not collected.
"""

import math

import numpy as np

from mic_dp_helpers.attacks.audit import audit_epsilon
from wrong_answers.lesson05_s37c import _audit_each


def _gumbel_scale_where(condition, factor: float):
    """Gumbel noisy max with noise of scale ``factor * sensitivity / epsilon`` where ``condition(size,
    sensitivity)`` holds, 2 * sensitivity / epsilon elsewhere."""
    def answer(scores, sensitivity, epsilon, rng):
        scores = np.asarray(scores, float)
        scale = (factor if condition(scores.size, sensitivity) else 2.0) * sensitivity / epsilon
        return int(np.argmax(scores + rng.gumbel(0.0, scale, scores.size)))
    return answer


def _exact_advantage(eps, delta):
    return min(1.0, math.tanh(eps / 2) + 2 * delta * math.exp(-eps) / (1 + math.exp(-eps)))


def _small_epsilon_term(below: float, term):
    """The exact bound, but ``min(1, delta + term(eps))`` for epsilon below ``below``."""
    return lambda eps, delta: min(1.0, delta + term(eps)) if eps < below else _exact_advantage(eps, delta)


def _audit(a, b, **options):
    """The course audit of stored outputs ``a`` and ``b`` (all of them unless ``n`` is given)."""
    n = options.pop("n", min(len(a), len(b)))
    return audit_epsilon(lambda data, size, rng: np.asarray(data)[:size], np.asarray(a), np.asarray(b),
                         n_samples=n, rng=options.pop("seed", 0), **options)


def _one_sided_values(a, b, at_least: int) -> bool:
    """True if an output value shows ``at_least`` times on one side and never on the other (at most 50 values)."""
    counts = [dict(zip(*(values.tolist() for values in np.unique(np.asarray(side), return_counts=True))))
              for side in (a, b)]
    if len(counts[0].keys() | counts[1].keys()) > 50:
        return False
    return any(n >= at_least and value not in counts[1 - side] for side in (0, 1) for value, n in counts[side].items())


def _audit_or_one_sided(at_least: int):
    """The audit, or a value seen ``at_least`` times on one side only: a claim refuted either way."""
    def answer(samples):
        return [name for name, (a, b, claimed) in samples.items()
                if _audit(a, b).refutes(claimed) or _one_sided_values(a, b, at_least)]
    return answer


MORE_WRONG_ANSWERS = {
    "05.4": {
        "confidence 0.999 (referee s38rC)": _audit_each(0.999),
        "confidence 0.99 (referee s38rC)": _audit_each(0.99),
        "confidence 0.97": _audit_each(0.97),
        "delta 0.001 at 95% confidence": _audit_each(0.95, 0.001),
    },
    "07.3": {
        "twice epsilon: the factor 2 forgotten above 100 candidates at sensitivity above 3 (referee s38rC)":
            _gumbel_scale_where(lambda k, d: d > 3 and k > 100, 1.0),
        "twice epsilon: the factor 2 forgotten above 100 candidates at sensitivity above 50 (referee s38rC)":
            _gumbel_scale_where(lambda k, d: d > 50 and k > 100, 1.0),
        "non-private (parameters): noise ten times too small for 101-1,000 candidates at sensitivity above 3 "
        "(referee s38rC)": _gumbel_scale_where(lambda k, d: d > 3 and 100 < k <= 1000, 0.2),
        "twice epsilon: the factor 2 forgotten for 31-300 candidates at sensitivity above 10":
            _gumbel_scale_where(lambda k, d: d > 10 and 30 < k <= 300, 1.0),
        "twice epsilon: the factor 2 forgotten above 300 candidates at sensitivity below 0.01":
            _gumbel_scale_where(lambda k, d: d < 0.01 and k > 300, 1.0),
    },
    "07.5": {
        "the audit, or an output seen on one side only (referee s38rC)": _audit_or_one_sided(1),
        "the audit, or an output seen 3 times or more on one side only": _audit_or_one_sided(3),
    },
    "08.4": {
        "the epsilon term dropped below epsilon 1e-4 (referee s38rC)": _small_epsilon_term(1e-4, lambda eps: 0.0),
        "the epsilon term dropped below epsilon 2e-5": _small_epsilon_term(2e-5, lambda eps: 0.0),
        "delta + epsilon below epsilon 1e-4 (referee s38rC)": _small_epsilon_term(1e-4, lambda eps: eps),
        "delta + epsilon below epsilon 1e-5": _small_epsilon_term(1e-5, lambda eps: eps),
    },
}


def _doubled(samples):
    return [name for name, (a, b, claimed) in samples.items()
            if _audit(np.concatenate([a, a]), np.concatenate([b, b])).refutes(claimed)]


def _bootstrapped(samples):
    generator = np.random.default_rng(1)
    flagged = []
    for name, (a, b, claimed) in samples.items():
        a, b = np.asarray(a), np.asarray(b)
        if _audit(a[generator.integers(0, len(a), len(a))], b[generator.integers(0, len(b), len(b))]).refutes(claimed):
            flagged.append(name)
    return flagged


def _both_orders(samples):
    return [name for name, (a, b, claimed) in samples.items()
            if _audit(a, b).refutes(claimed) or _audit(b, a, seed=1).refutes(claimed)]


#: 07.5 audits the check passes, stated in ``check_not_private``'s Notes (referee s38rC): their bounds are
#: overconfident, but below every honest entry's claim (a true claim they would refute needs a claim within
#: about 0.02 of the true epsilon, which a valid audit also refutes too often).
STATED_LIMITS = {"07.5": {
    "the audit of every sample counted twice (referee s38rC)": _doubled,
    "the audit of bootstrapped samples (referee s38rC)": _bootstrapped,
    "two audits, the sides swapped, either refutes (referee s38rC)": _both_orders,
    "the audit at 99% confidence (referee s38rC: valid, looser)": lambda samples: [
        name for name, (a, b, claimed) in samples.items() if _audit(a, b, confidence=0.99).refutes(claimed)],
}}
