"""Wrong answers to 05.4 and 08.4 found by referee s39rC, each with another member of its class.

08.4: the delta term halved for small epsilons or dropped for small deltas (told "the epsilon term is wrong" and
"not accurate enough" before; now "the delta term is wrong"). ``audit_b_first`` is an honest 05.4 answer: one
audit per column with ``dataset_b`` first (it was told "you also audited with the datasets swapped"). They join the owners' answers as
``MORE_WRONG_ANSWERS`` (see :func:`wrong_answers.collect_wrong_answers`).
"""

import math

import numpy as np

from mic_dp_helpers.attacks.audit import audit_epsilon


def _exact_with_delta(share):
    """The exact bound with delta replaced by ``share(epsilon, delta)``."""
    def answer(epsilon, delta):
        d = share(epsilon, delta)
        return min(1.0, math.tanh(epsilon / 2) + 2 * d * math.exp(-epsilon) / (1 + math.exp(-epsilon)))
    return answer


MORE_WRONG_ANSWERS = {
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
