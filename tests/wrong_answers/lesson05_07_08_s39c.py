"""Wrong answers to 05.4 and 08.4 found by referee s39rC, each with another member of its class.

08.4: the delta term halved for small epsilons or dropped for small deltas (told "the epsilon term is wrong" and
"not accurate enough" before; now "the delta term is wrong"). 08.2 and 08.5: noise correlated between
neighbouring coordinates (MA(1)), told "one call predicts the noise 1 call later", and a noise scale drawn per
call (0.7 or 0.6 x in half the calls), told "copied from other coordinates"; both hints now say what was seen. ``audit_b_first`` is an honest 05.4 answer: one
audit per column with ``dataset_b`` first (it was told "you also audited with the datasets swapped"). They join the owners' answers as
``MORE_WRONG_ANSWERS`` (see :func:`wrong_answers.collect_wrong_answers`).

05.4 (D0): the audit, or a ratio of the counts of the audit's best event above a margin times the claim (a point
estimate, no confidence bound), passed at margin 1.2. Now the point column (fixed releases whose best event has
counts of 20-45 against 1: a log ratio 2.1 to 9 times the claim, a 95% bound at most 0.7 times it) and the rare
case's honest columns (rare outputs, each e^claim times likelier on one side) fail every member below, with
margins 1.05 to 3, smoothed counts, an upper bound taken for a lower one. ``STATED_LIMITS`` holds the member
the check does not catch (stated in ``check_flawed_features``'s Limits), for the record, not collected.
"""

import math

import numpy as np

from mic_dp_helpers.attacks.audit import audit_epsilon, clopper_pearson
from wrong_answers.lesson08_s38 import _release, _step


def _exact_with_delta(share):
    """The exact bound with delta replaced by ``share(epsilon, delta)``."""
    def answer(epsilon, delta):
        d = share(epsilon, delta)
        return min(1.0, math.tanh(epsilon / 2) + 2 * d * math.exp(-epsilon) / (1 + math.exp(-epsilon)))
    return answer


def _ma1(theta: float):
    """Unit noise z_j = (e_(j+1) + theta e_j) / sqrt(1 + theta^2): neighbouring coordinates correlated."""
    def draw(p, rng):
        e = rng.normal(size=p + 1)
        return (e[1:] + theta * e[:-1]) / math.sqrt(1 + theta * theta)
    return draw


def _scale_mixture(small: float):
    """Unit noise whose scale is drawn once per call: ``small`` or sqrt(2 - small^2), each half of the calls."""
    def draw(p, rng):
        scale = small if rng.random() < 0.5 else math.sqrt(2 - small * small)
        return scale * rng.normal(size=p)
    return draw


_LESS_OR_MORE = ("less noise than others", "too much noise", "too little noise")
#: The hint of each 08.2 / 08.5 entry must hold one of the first phrases and not the second
#: (tests/test_checks_lesson08.py); a scale mixture may first show as too much or too little noise in one case.
HINT_WORDS = {
    "non-private (shape): neighbouring coordinates correlated 0.44, MA(1) (referee s39rC)":
        (("noise of neighbouring coordinates",), "1 call(s) later"),
    "non-private (shape): neighbouring coordinates correlated 0.34, MA(1)":
        (("noise of neighbouring coordinates",), "1 call(s) later"),
    "non-private (calls): noise 0.7 x in half the calls, 1.23 x in the rest (referee s39rC)":
        (_LESS_OR_MORE, "Some coordinates' noise is copied"),
    "non-private (calls): noise 0.6 x in half the calls, 1.28 x in the rest":
        (_LESS_OR_MORE, "Some coordinates' noise is copied"),
}
_DRAWS = dict(zip(HINT_WORDS, (_ma1(0.6), _ma1(0.4), _scale_mixture(0.7), _scale_mixture(0.6))))

MORE_WRONG_ANSWERS = {
    "08.2": {name: _release(draw) for name, draw in _DRAWS.items()},
    "08.5": {name: _step(draw) for name, draw in _DRAWS.items()},
    "08.4": {
        "delta counted once for epsilon up to 1e-3 (referee s39rC)":
            _exact_with_delta(lambda e, d: d if e > 1e-3 else d / 2),
        "delta counted once for epsilon up to 0.1": _exact_with_delta(lambda e, d: d if e > 0.1 else d / 2),
        "delta dropped below 1e-4 (referee s39rC)": _exact_with_delta(lambda e, d: 0.0 if d < 1e-4 else d),
        "delta dropped below 1e-3": _exact_with_delta(lambda e, d: 0.0 if d < 1e-3 else d),
    },
}


def audit_b_first(release, dataset_a, dataset_b, claimed_epsilon):
    """The exercise's audit of each column once, with ``dataset_b`` first (referee s39rC: a valid audit)."""
    n_columns = np.asarray(release(dataset_a, 1, np.random.default_rng(0))).shape[1]
    flawed = []
    for j in range(n_columns):
        def column_j(data, size, rng, j=j):
            return release(data, size, rng)[:, j]
        if audit_epsilon(column_j, dataset_b, dataset_a, n_samples=20_000, rng=j).refutes(claimed_epsilon):
            flawed.append(j)
    return flawed


def _audits(release, dataset_a, dataset_b):
    """The exercise's audit of each column: (column number, result)."""
    n_columns = np.asarray(release(dataset_a, 1, np.random.default_rng(0))).shape[1]
    for j in range(n_columns):
        def column_j(data, size, rng, j=j):
            return release(data, size, rng)[:, j]
        yield j, audit_epsilon(column_j, dataset_a, dataset_b, n_samples=20_000, rng=j)


def _count_ratio(result, add: float = 0.0, at_least: int = 0) -> float:
    """log(larger / max(smaller, 1)) of the best event's counts (``add`` added to both first); 0 if the smaller
    count is below ``at_least``."""
    high, low = max(result.count_a, result.count_b) + add, min(result.count_a, result.count_b) + add
    if high <= 0 or low < at_least:
        return 0.0
    return math.log(high / max(low, 1))


def _audit_or_ratio(margin: float, add: float = 0.0, at_least: int = 0, audit: bool = True):
    """Flags a column if the audit refutes the claim (when ``audit``) or its best event's count ratio is above
    ``margin`` times the claim."""
    def answer(release, dataset_a, dataset_b, claimed):
        return [j for j, r in _audits(release, dataset_a, dataset_b)
                if (audit and r.refutes(claimed)) or _count_ratio(r, add, at_least) > margin * claimed]
    return answer


def _upper_bound_taken(release, dataset_a, dataset_b, claimed):
    """A Clopper-Pearson bound on the wrong side: log(upper bound of the larger count / lower bound of the smaller),
    an upper bound on the best event's ratio, compared with the claim."""
    flagged = []
    for j, r in _audits(release, dataset_a, dataset_b):
        high, low = max(r.count_a, r.count_b), min(r.count_a, r.count_b)
        _, upper = clopper_pearson(high, r.n_eval, 0.025)
        lower, _ = clopper_pearson(low, r.n_eval, 0.025)
        if high > 0 and (low == 0 or math.log(float(upper) / float(lower)) > claimed):
            flagged.append(j)
    return flagged


MORE_WRONG_ANSWERS["05.4"] = {
    "the audit, or its best event's count ratio above 1.2 times the claim (referee s39rC)": _audit_or_ratio(1.2),
    "the audit, or its best event's count ratio above 1.05 times the claim": _audit_or_ratio(1.05),
    "the audit, or its best event's count ratio above 1.5 times the claim": _audit_or_ratio(1.5),
    "the audit, or its best event's count ratio above twice the claim": _audit_or_ratio(2.0),
    "the audit, or its best event's count ratio above 3 times the claim": _audit_or_ratio(3.0),
    "the audit, or its best event's count ratio, 1 added to each count, above 1.5 times the claim":
        _audit_or_ratio(1.5, add=1.0),
    "the best event's count ratio above twice the claim, no bound": _audit_or_ratio(2.0, audit=False),
    "an upper confidence bound on the best event's ratio compared with the claim": _upper_bound_taken,
}

#: 05.4 answers the check cannot reject at a false-rejection rate below 1e-3 (its docstring's Limits): not collected.
#: (The member stated here before, count ratio above 1.2 x with both counts 5 or more, now fails on the rare case's
#: near point column: see ``lesson05_s40h.py``.)
STATED_LIMITS: dict = {"05.4": {}}
