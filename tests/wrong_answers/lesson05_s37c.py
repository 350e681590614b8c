"""Wrong answers to 05.4 found by referee s37rC, each with another member of its class.

An audit at a confidence below 0.95 (0.01: an upper bound; 0.05: alpha taken for the confidence; 0.5, 0.8,
0.9), alone or with delta, and audits of part of one call's 20,000 releases per side at any confidence: the
check's fixed column (``mic_dp_helpers.checks._audit_trap``) separates them from the exercise's audit exactly.
They join lesson05's answers as ``MORE_WRONG_ANSWERS`` (see :func:`wrong_answers.collect_wrong_answers`).
"""

import numpy as np

from mic_dp_helpers.attacks.audit import audit_epsilon


def _n_columns(release, dataset):
    return np.asarray(release(dataset, 1, np.random.default_rng(0))).shape[1]


def _audit_each(confidence: float, delta: float = 0.0):
    """Each column audited with 20,000 releases per side at ``confidence`` and ``delta``."""
    def answer(release, dataset_a, dataset_b, claimed):
        def column(j):
            return lambda data, size, rng: release(data, size, rng)[:, j]
        return [j for j in range(_n_columns(release, dataset_a))
                if audit_epsilon(column(j), dataset_a, dataset_b, n_samples=20_000, confidence=confidence,
                                 delta=delta, rng=j).refutes(claimed)]
    return answer


def _sliced(start: int, stop: int, confidence: float):
    """One call of 20,000 releases per side; each column audited on releases ``start`` to ``stop`` - 1."""
    def answer(release, dataset_a, dataset_b, claimed):
        rng = np.random.default_rng(1)
        outputs = {0: release(dataset_a, 20_000, rng), 1: release(dataset_b, 20_000, rng)}
        flagged = []
        for j in range(outputs[0].shape[1]):
            stored = {side: values[start:stop, j] for side, values in outputs.items()}
            if audit_epsilon(lambda d, k, g: stored[d][:k], 0, 1, n_samples=stop - start,
                             confidence=confidence).refutes(claimed):
                flagged.append(j)
        return flagged
    return answer


MORE_WRONG_ANSWERS = {"05.4": {
    "confidence 0.01 (an upper bound, referee s37rC)": _audit_each(0.01),
    "confidence 0.05 (alpha taken for the confidence, referee s37rC)": _audit_each(0.05),
    "confidence 0.5 (referee s37rC)": _audit_each(0.5),
    "confidence 0.5 with delta 0.001 (referee s37rC)": _audit_each(0.5, 0.001),
    "confidence 0.9": _audit_each(0.9),
    "confidence 0.8": _audit_each(0.8),
    "one call, the first 10,000 releases at confidence 0.5 (referee s37rC)": _sliced(0, 10_000, 0.5),
    "one call, the first 7,000 releases at confidence 0.8 (referee s37rC)": _sliced(0, 7_000, 0.8),
    "one call, the first 7,000 releases at confidence 0.5 (referee s37rC)": _sliced(0, 7_000, 0.5),
    "one call, the first 5,000 releases at confidence 0.01 (referee s37rC)": _sliced(0, 5_000, 0.01),
    "one call, the first 5,000 releases at confidence 0.05 (referee s37rC)": _sliced(0, 5_000, 0.05),
    "one call, the first 12,000 releases at confidence 0.99": _sliced(0, 12_000, 0.99),
    "one call, the first 15,000 releases at confidence 0.9": _sliced(0, 15_000, 0.9),
    "one call, the last 10,000 releases at confidence 0.5": _sliced(10_000, 20_000, 0.5),
    "one call, the first 10,000 releases (referee s36rC, a stated limit until s37rC)": _sliced(0, 10_000, 0.95),
}}
