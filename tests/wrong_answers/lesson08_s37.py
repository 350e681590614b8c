"""Wrong answers to 08.2 and 08.5 that passed referee s37rC's run (items D1-D5), each with another member of
its class (other numbers), so that a fix for the referee's numbers alone fails here.

- noise with an exact relation: blocks ``[z, w, -z, w]`` (a sum of two coordinates released without noise) or a
  component removed along one direction, from 17 coordinates (D4);
- noise stored and reused on the first call with other data (D5);
- no noise, or sd / sqrt(p), where both the examples and the coordinates are many (D3);
- in 08.5 a fixed-size batch, division by the realised batch size or the batch's sum clipped, where both the
  examples and the weights are many (D1), and sampling with replacement (D2).
"""

import math

import numpy as np
from scipy.special import expit

from wrong_answers.lesson08 import _clip
from wrong_answers.lesson08_dims import _release_where, _sqrt_p, _step_where
from wrong_answers.lesson08_noise import _step


# --------------------------------------------------------------------------------- noise with an exact relation
def _antithetic(p, rng):
    """Blocks [z, w, -z, w]: right amount per coordinate, but x_j + x_(j + p/2) has no noise for j < p/4."""
    m = p // 4
    z, w, rest = rng.standard_normal(m), rng.standard_normal(m), rng.standard_normal(p - 4 * m)
    return np.concatenate([z, w, -z, w, rest])


def _flat_direction(p, rng):
    """Standard normal noise with its component along (+1, -1, +1, ...) / sqrt(p) removed."""
    z = rng.standard_normal(p)
    v = np.where(np.arange(p) % 2 == 0, 1.0, -1.0) / math.sqrt(p)
    return z - (z @ v) * v


def _structured(noise, low, high):
    """A generator-like object whose ``normal(0, sd, p)`` is ``sd * noise(p, rng)`` for ``low <= p <= high``."""
    class Structured:
        def __init__(self, rng):
            self.rng = rng

        def normal(self, loc, scale, shape):
            p = int(np.prod(shape))
            if low <= p <= high:
                return loc + scale * noise(p, self.rng).reshape(shape)
            return self.rng.normal(loc, scale, shape)
    return Structured


def _release_with(generator):
    def release(grads, clip_norm, sigma, rng):
        grads = np.asarray(grads, dtype=float)
        return _clip(grads, clip_norm).sum(axis=0) + generator(rng).normal(0.0, sigma * clip_norm, grads.shape[1])
    return release


def _step_with(generator):
    def step(w, X, y, clip_norm, sigma, q, batch, lr, rng):
        return _step(w, X, y, clip_norm, sigma, q, batch, lr, rng, gen=generator(rng))
    return step


# --------------------------------------------------------------------------------- noise reused on other data
def _reuse_on_new_data(low):
    """The last standard-normal draw, kept per number of coordinates (from ``low`` up), reused on the first call
    whose data differ from the last call's."""
    last = {}

    def noise(p, key, rng):
        previous = last.get(p)
        z = previous[1] if (p >= low and previous is not None and previous[0] != key) else rng.standard_normal(p)
        last[p] = (key, z)
        return z

    def release(grads, clip_norm, sigma, rng):
        grads = np.asarray(grads, dtype=float)
        z = noise(grads.shape[1], (grads.shape, float(grads.sum()), clip_norm, sigma), rng)
        return _clip(grads, clip_norm).sum(axis=0) + sigma * clip_norm * z

    def step(w, X, y, clip_norm, sigma, q, batch, lr, rng):
        w, X, y = np.asarray(w, float), np.asarray(X, float), np.asarray(y, float)
        keep = rng.random(len(X)) < q
        grads = (expit(X[keep] @ w) - y[keep])[:, None] * X[keep]
        total = _clip(grads, clip_norm).sum(axis=0) if keep.any() else np.zeros(len(w))
        z = noise(len(w), (X.shape, float(X.sum()), clip_norm, sigma, q), rng)
        return w - lr * (total + sigma * clip_norm * z) / batch
    return release, step


# --------------------------------------------------------------------------------- 08.5: sampling with replacement
def _with_replacement(min_examples):
    """A Poisson batch size, then ``rng.choice(n, k)`` (with replacement by default), from ``min_examples`` up."""
    def step(w, X, y, clip_norm, sigma, q, batch, lr, rng):
        w, X, y = np.asarray(w, float), np.asarray(X, float), np.asarray(y, float)
        n = len(X)
        if n < min_examples:
            return _step(w, X, y, clip_norm, sigma, q, batch, lr, rng)
        chosen = rng.choice(n, size=rng.binomial(n, q))
        grads = (expit(X[chosen] @ w) - y[chosen])[:, None] * X[chosen]
        total = _clip(grads, clip_norm).sum(axis=0) if len(chosen) else np.zeros(len(w))
        return w - lr * (total + rng.normal(0.0, sigma * clip_norm, len(w))) / batch
    return step


def _big(min_examples, min_weights):
    return lambda d, n, q: n > min_examples and d >= min_weights


def _no_noise_big(min_coordinates, min_entries):
    return _release_where(lambda p, n: p > min_coordinates and n * p > min_entries, lambda total, sd, p, rng: total)


# One cache per answer: a cache left by another check's run would make the first calls differ from a rerun.
_REUSE_ALL, _STEP_REUSE_ALL = _reuse_on_new_data(1)[0], _reuse_on_new_data(1)[1]
_REUSE_30, _STEP_REUSE_30 = _reuse_on_new_data(31)[0], _reuse_on_new_data(31)[1]


def _flat_but_64(p, rng):
    return rng.standard_normal(p) if p == 64 else _flat_direction(p, rng)


#: (what, noise, the fewest and most coordinates it is used for); in 08.5 "coordinates" reads "weights".
_STRUCTURES = (
    ("noise in blocks [z, w, -z, w] from 17 {} (referee s37rC)", _antithetic, 17, 10**9),
    ("noise in blocks [z, w, -z, w] from 300 {}", _antithetic, 300, 10**9),
    ("noise without its component along one direction from 17 {} (referee s37rC; 08.5: but 64)", None, 17, 10**9),
    ("noise without its component along one direction for 40 to 250 {}", _flat_direction, 40, 250),
)


def _structured_answers(wrap, unit, exercise):
    return {f"non-private (shape): {what.format(unit)}":
            wrap(_structured(noise or (_flat_direction if exercise == "08.2" else _flat_but_64), low, high))
            for what, noise, low, high in _STRUCTURES}


MORE_WRONG_ANSWERS = {
    "08.2": {
        **_structured_answers(_release_with, "coordinates", "08.2"),
        "non-private (size): no noise above 8 coordinates and 250,000 entries (referee s37rC)":
            _no_noise_big(8, 250_000),
        "non-private (size): no noise above 50 coordinates and 600,000 entries": _no_noise_big(50, 600_000),
        "non-private (size): sd sigma C / sqrt(p) above 100 coordinates and 2,500 examples (referee s37rC)":
            _release_where(lambda p, n: p > 100 and n > 2500, _sqrt_p),
        "non-private (size): sd sigma C / sqrt(p) above 20 coordinates and 20,000 examples":
            _release_where(lambda p, n: p > 20 and n > 20_000, _sqrt_p),
        "non-private (calls): a draw reused on the first call with other data (referee s37rC)": _REUSE_ALL,
        "non-private (calls): a draw reused on the first call with other data, above 30 coordinates": _REUSE_30,
    },
    "08.5": {
        **_structured_answers(_step_with, "weights", "08.5"),
        "non-private (calls): a draw reused on the first call with other data (referee s37rC)": _STEP_REUSE_ALL,
        "non-private (calls): a draw reused on the first call with other data, above 30 weights": _STEP_REUSE_30,
        "non-private (data): sampling with replacement (rng.choice's default; referee s37rC)": _with_replacement(0),
        "non-private (data): sampling with replacement above 1,000 examples": _with_replacement(1001),
        **{f"non-private (size): {what} above {n:,} examples and {d - 1} weights{who}": _step_where(_big(n, d), **wrong)
           for what, wrong in (("a fixed-size batch", {"sampling": "fixed"}),
                               ("divides by the realised batch size", {"divide": "realised"}),
                               ("clips the batch's sum", {"clip": "batch"}))
           for n, d, who in ((2000, 4, " (referee s37rC)"), (5000, 10, ""))},
    },
}
