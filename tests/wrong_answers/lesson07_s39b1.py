"""07.1 answers of referee s39rB (D2): noise skipped above a large epsilon, joined to 07.1 through
``MORE_WRONG_ANSWERS`` (the threshold varies, so a fix for one number cannot pass)."""

from __future__ import annotations

import numpy as np


def _exact_above(threshold: float):
    """Randomized response that returns the truth unchanged above ``threshold``."""
    def answer(truth, epsilon, rng):
        truth = np.asarray(truth, dtype=bool)
        if epsilon > threshold:
            return truth.copy()
        p = np.exp(epsilon) / (1 + np.exp(epsilon))
        return np.where(rng.random(truth.size) < p, truth, ~truth)
    return answer


MORE_WRONG_ANSWERS = {"07.1": {
    f"non-private: noise skipped above epsilon {t} (referee s39rB D2)": _exact_above(t) for t in (12, 13.2, 14)}}
