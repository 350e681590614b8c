"""More wrong answers to 06.4 (random-grouping release), kept apart because ``lesson06`` is full (600 lines).

Referee s35rca: the shared-generator stage called only float records, so an answer that adds no noise to integer
or boolean records (binary data in [0, 1]^D, which the text allows) passed. Collected through
``MORE_WRONG_ANSWERS`` (see :func:`wrong_answers.collect_wrong_answers`).
"""

import numpy as np

from wrong_answers.lesson06 import _release_with

WRONG_ANSWERS: dict = {}


def _means_only_when(condition):
    """Random groups; the exact group means (no noise) when ``condition(X)``, the correct release otherwise."""
    def random_group_release(X, l, sigma, rng):
        if condition(np.asarray(X)):
            return _release_with(X, l, sigma, rng, noise_scale=0.0)
        return _release_with(X, l, sigma, rng)
    return random_group_release


MORE_WRONG_ANSWERS = {"06.4": {
    "non-private (data): no noise for integer or boolean records (s35rca)":
        _means_only_when(lambda X: X.dtype.kind in "iub"),
    "non-private (data): no noise for boolean records (s35rca)": _means_only_when(lambda X: X.dtype.kind == "b"),
    "non-private (data): no noise for unsigned integer records (s35rca)": _means_only_when(lambda X: X.dtype.kind == "u"),
}}
