"""More wrong answers to 06.4 (random-grouping release), kept apart because ``lesson06`` is full (600 lines).

Referee s37rA: groupings sorted by the values (first feature, every feature, the norm) above 2,500 records or 8
features passed, since the independence test tried no larger varied data.
Referee s36rA: a draw kept when sigma changes, l above 10,000, more than 64 features with l > 1, sigma outside
1e-6 to 1e4. Referee s35rca: the shared-generator stage called only float records, so an answer that adds no noise to integer
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


def _kept_draw(sign=1.0):
    """The grouping and standard noise of the last call on the same records and l, kept (times ``sign``) when
    sigma changed since it (referee s36rA: "consistent" releases at several sigmas)."""
    cache = {}

    def random_group_release(X, l, sigma, rng):
        X = np.asarray(X, dtype=float)
        key = (X.tobytes(), X.shape, l)
        last = cache.get(key)
        if last is not None and last[0] != sigma:
            groups, z = last[1], sign * last[2]
        else:
            groups = np.array_split(rng.permutation(len(X)), len(X) // l)
            z = rng.standard_normal((len(groups), X.shape[1]))
        cache[key] = (sigma, groups, z)
        return np.stack([X[g].mean(axis=0) for g in groups]) + sigma * z
    return random_group_release


def _noise_when(condition, scale=lambda sigma: sigma):
    """Random groups; no noise when ``condition(X, l, sigma)``, else noise of SD ``scale(sigma)``."""
    def random_group_release(X, l, sigma, rng):
        if condition(np.asarray(X), l, sigma):
            return _release_with(X, l, sigma, rng, noise_scale=0.0)
        return _release_with(X, l, scale(sigma), rng)
    return random_group_release


def _sorted_when(condition, key):
    """Groups of consecutive records in the order of ``key(X)`` (sorted by the values: not private) when
    ``condition(n, features)``, random groups otherwise (referee s37rA: "faster, better utility" on large data)."""
    def random_group_release(X, l, sigma, rng):
        X = np.asarray(X, dtype=float)
        n, dim = X.shape
        if not condition(n, dim):
            return _release_with(X, l, sigma, rng)
        groups = np.array_split(np.argsort(key(X), kind="stable"), n // l)
        means = np.stack([X[g].mean(axis=0) for g in groups])
        return means + rng.normal(0.0, sigma, means.shape)
    return random_group_release


def _scale_mixture(low, high):
    """Random groups; each coordinate's noise of SD ``low`` or ``high`` sigma, half each (referee s38rA)."""
    def random_group_release(X, l, sigma, rng):
        X = np.asarray(X, dtype=float)
        groups = np.array_split(rng.permutation(len(X)), len(X) // l)
        means = np.stack([X[g].mean(axis=0) for g in groups])
        return means + np.where(rng.random(means.shape) < 0.5, low, high) * rng.normal(0.0, sigma, means.shape)
    return random_group_release


def _lexsorted(X):
    return np.lexsort(X.T[::-1])


MORE_WRONG_ANSWERS = {"06.4": {
    "non-private (grouping): sorted by the first feature above 2,500 records (s37rA)":
        _sorted_when(lambda n, dim: n > 2_500, lambda X: X[:, 0]),
    "non-private (grouping): sorted by the first feature above 30,000 records (s37rA class)":
        _sorted_when(lambda n, dim: n > 30_000, lambda X: X[:, 0]),
    "non-private (grouping): lexsorted by every feature above 2,500 records (s37rA)":
        _sorted_when(lambda n, dim: n > 2_500, _lexsorted),
    "non-private (grouping): sorted by the sum of the features above 300,000 records (s37rA class)":
        _sorted_when(lambda n, dim: n > 300_000, lambda X: X.sum(axis=1)),
    "non-private (grouping): sorted by the norm beyond 8 features (s37rA)":
        _sorted_when(lambda n, dim: dim > 8, lambda X: np.linalg.norm(X, axis=1)),
    "non-private (grouping): sorted by the norm beyond 100 features (s37rA class)":
        _sorted_when(lambda n, dim: dim > 100, lambda X: np.linalg.norm(X, axis=1)),
    "non-private (grouping): sorted by the first feature for 9 to 20 features above 2,500 records (s37rA class)":
        _sorted_when(lambda n, dim: n > 2_500 and 9 <= dim <= 20, lambda X: X[:, 0]),
    "non-private (grouping): sorted by the first feature above 25,000 records of 3+ features (s38rA)":
        _sorted_when(lambda n, dim: n > 25_000 and dim >= 3, lambda X: X[:, 0]),
    "non-private (grouping): sorted by the sum above 250,000 records of 2+ features (s38rA)":
        _sorted_when(lambda n, dim: n > 250_000 and dim >= 2, lambda X: X.sum(axis=1)),
    "non-private (grouping): sorted by the first feature above 2,600 records of 5 to 8 features (s38rA)":
        _sorted_when(lambda n, dim: n > 2_600 and 5 <= dim <= 8, lambda X: X[:, 0]),
    "non-private (grouping): sorted by the last feature above 400,000 records of 2 features (s38rA class)":
        _sorted_when(lambda n, dim: n > 400_000 and dim == 2, lambda X: X[:, -1]),
    "non-private (grouping): sorted by the norm above 60,000 records of 9 to 16 features (s38rA class)":
        _sorted_when(lambda n, dim: n > 60_000 and 9 <= dim <= 16, lambda X: np.linalg.norm(X, axis=1)),
    "non-private (grouping): sorted by the sum above 300 records of 1,001+ features (s38rA class)":
        _sorted_when(lambda n, dim: n > 300 and dim > 1_000, lambda X: X.sum(axis=1)),
    "non-private (grouping): sorted by the first feature above 100,000 records of 3 features (s38rA class)":
        _sorted_when(lambda n, dim: n > 100_000 and dim == 3, lambda X: X[:, 0]),
    "(noise) a scale mixture, 0.9 or 1.095 sigma per coordinate (s38rA)": _scale_mixture(0.9, 1.0954),
    "(noise) a scale mixture, 0.95 or 1.0488 sigma per coordinate (s38rA class)": _scale_mixture(0.95, 1.0488),
    "non-private (calls): grouping and standard noise kept when sigma changes (s36rA)": _kept_draw(),
    "non-private (calls): grouping kept and standard noise negated when sigma changes (s36rA)": _kept_draw(-1.0),
    "non-private (size): no noise for groups above 10,000 records (s36rA)":
        _noise_when(lambda X, l, sigma: l > 10_000),
    "non-private (size): no noise for groups above 30,000 records (s36rA)":
        _noise_when(lambda X, l, sigma: l > 30_000),
    "non-private (size): no noise beyond 100 features when l > 1 (s36rA)":
        _noise_when(lambda X, l, sigma: X.shape[1] > 100 and l > 1),
    "non-private (size): no noise beyond 1,000 features when l > 1 (s36rA)":
        _noise_when(lambda X, l, sigma: X.shape[1] > 1_000 and l > 1),
    "non-private (parameters): no noise below sigma 1e-6 (s36rA)": _noise_when(lambda X, l, sigma: sigma < 1e-6),
    "non-private (parameters): no noise below sigma 1e-8 (s36rA)": _noise_when(lambda X, l, sigma: sigma < 1e-8),
    "non-private (parameters): sigma capped at 2e4 (s36rA)":
        _noise_when(lambda X, l, sigma: False, scale=lambda sigma: min(sigma, 2e4)),
    "non-private (parameters): sigma capped at 1e6 (s36rA)":
        _noise_when(lambda X, l, sigma: False, scale=lambda sigma: min(sigma, 1e6)),
    "non-private (data): no noise for integer or boolean records (s35rca)":
        _means_only_when(lambda X: X.dtype.kind in "iub"),
    "non-private (data): no noise for boolean records (s35rca)": _means_only_when(lambda X: X.dtype.kind == "b"),
    "non-private (data): no noise for unsigned integer records (s35rca)": _means_only_when(lambda X: X.dtype.kind == "u"),
}}
