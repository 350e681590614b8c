"""Wrong answers to 05.4, 08.2, 08.4 and 08.5 found by referee s40rC, each with another member of its class.

08.2 and 08.5: noise a constant 0.9 to 0.97 times too small in every call (and 08.2's noise shrunk by
``sqrt(2000 / p)`` above 2,000 coordinates) were told "copied or reused noise, or a noise scale that changes from
call to call"; the near pairs are now counted in the case's own scale, and the hint says too little noise.
05.4: audits all with ``dataset_b`` first, retried or run twice, were told "you also audited with the datasets
swapped"; they now get the retry hint. 08.4: ``delta`` returned for small epsilons was told "the delta term is
wrong. Yours is -70 times ..." at some seeds (:data:`SEEDS_084`); it now gets the epsilon-term hint. They join the
owners' answers as ``MORE_WRONG_ANSWERS`` (see :func:`wrong_answers.collect_wrong_answers`); :data:`HINT_WORDS`
holds what each hint must say and must not say (tests/test_checks_lesson08.py and test_checks_lesson05_audit.py).
"""

import math

import numpy as np

from mic_dp_helpers.attacks.audit import audit_epsilon
from wrong_answers.lesson08_s38 import _release, _step


def _scaled(factor: float, above: int = 0):
    """Unit noise ``factor`` times too small when there are more than ``above`` coordinates."""
    def draw(p, rng):
        return (factor if p > above else 1.0) * rng.normal(size=p)
    return draw


def _shrunk_above(width: int):
    """Unit noise times ``min(1, sqrt(width / p))``: the noise's norm kept below that of ``width`` coordinates."""
    def draw(p, rng):
        return min(1.0, math.sqrt(width / p)) * rng.normal(size=p)
    return draw


#: Referee s40rC's factors (0.9, 0.95 in 08.5, 0.97) and two more (0.96 and 0.98 got the false hint in 08.5).
_SCALES = {f"non-private (amount): noise {factor:g} x in every call{tag}": _scaled(factor)
           for factor, tag in ((0.9, " (referee s40rC)"), (0.97, " (referee s40rC)"), (0.95, " (referee s40rC)"),
                               (0.96, ""), (0.98, ""))}
_UNTRUE = ("copied", "reused", "less noise than others")
#: What the hint of each entry must say (one of the first) and must not say (none of the second).
HINT_WORDS = {name: (("too little noise",), _UNTRUE) for name in _SCALES}
HINT_WORDS["non-private (amount): noise x sqrt(2000 / p) above 2,000 coordinates (referee s40rC)"] = (
    ("too little noise",), _UNTRUE)
HINT_WORDS["non-private (amount): noise x sqrt(1000 / p) above 1,000 coordinates"] = (("too little noise",), _UNTRUE)

_RELEASE_ONLY = {"non-private (amount): noise x sqrt(2000 / p) above 2,000 coordinates (referee s40rC)":
                 _shrunk_above(2000),
                 "non-private (amount): noise x sqrt(1000 / p) above 1,000 coordinates": _shrunk_above(1000)}


def _exact(epsilon, delta):
    e = math.exp(-epsilon)
    return min(1.0, math.tanh(epsilon / 2) + 2 * delta * e / (1 + e))


def _only_delta_below(threshold: float):
    """``delta`` for epsilons below ``threshold`` ("for tiny epsilon the advantage is just delta")."""
    def answer(epsilon, delta):
        return delta if epsilon < threshold else _exact(epsilon, delta)
    return answer


#: 08.4 entries and seeds at which the old rule called them "the delta term is wrong" (12 and 10 of seeds 0-199).
SEEDS_084 = {"delta for epsilon below 1e-5 (referee s40rC)": (26, 42, 61),
             "delta for epsilon below 3e-5": (26, 80, 139)}


def _columns(release, dataset_a) -> int:
    return np.asarray(release(dataset_a, 1, np.random.default_rng(0))).shape[1]


def _column(release, j):
    def column_j(data, size, rng, j=j):
        return release(data, size, rng)[:, j]
    return column_j


def _b_first_retried(margin: float):
    """Every column audited with ``dataset_b`` first, again with another seed when the first bound is above
    ``margin`` times the claim and does not refute (referee s40rC: told "you audited with the datasets swapped")."""
    def answer(release, dataset_a, dataset_b, claimed_epsilon):
        flawed = []
        for j in range(_columns(release, dataset_a)):
            result = audit_epsilon(_column(release, j), dataset_b, dataset_a, n_samples=20_000, rng=j)
            if not result.refutes(claimed_epsilon) and result.epsilon_lower_bound > margin * claimed_epsilon:
                result = audit_epsilon(_column(release, j), dataset_b, dataset_a, n_samples=20_000, rng=1000 + j)
            if result.refutes(claimed_epsilon):
                flawed.append(j)
        return flawed
    return answer


def _b_first_twice(release, dataset_a, dataset_b, claimed_epsilon):
    """Two audits per column, both with ``dataset_b`` first; flagged if either refutes (referee s40rC)."""
    return [j for j in range(_columns(release, dataset_a))
            if any(audit_epsilon(_column(release, j), dataset_b, dataset_a, n_samples=20_000, rng=s)
                   .refutes(claimed_epsilon) for s in (j, 99 + j))]


#: The retry hint must be given to them, not the swapped one.
AUDIT_HINTS = {"audits all with dataset_b first, retried above 0.9 x the claim (referee s40rC)": "times for",
               "audits all with dataset_b first, retried above 0.7 x the claim": "times for",
               "audits all with dataset_b first, twice per column (referee s40rC)": "times for"}

MORE_WRONG_ANSWERS = {
    "08.2": {**{name: _release(draw) for name, draw in _SCALES.items()},
             **{name: _release(draw) for name, draw in _RELEASE_ONLY.items()}},
    "08.5": {name: _step(draw) for name, draw in _SCALES.items()},
    "08.4": {name: _only_delta_below(threshold) for name, threshold in zip(SEEDS_084, (1e-5, 3e-5))},
    "05.4": dict(zip(AUDIT_HINTS, (_b_first_retried(0.9), _b_first_retried(0.7), _b_first_twice))),
}
