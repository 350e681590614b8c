"""Wrong answers to 08.2 and 08.5 that passed referee s38rC's run (items D1, D2, D6, D8), each with another member
of its class (other numbers), so that a fix for the referee's numbers alone fails here; and the referee's honest
variants, which must pass.

- coordinates copied from others with a random pairing, random signs and a small jitter (D1): their sum or
  difference is released with almost no noise;
- the noise of an earlier call reused, permuted, signed and jittered (D2): two releases give away the multiset
  of their noise;
- the exact sum released without noise in a small share of the calls (D6);
- a clipping norm read from the data (D8: its hint must name the centre, not the amount of noise).
"""

import numpy as np
from scipy.special import expit

from wrong_answers.lesson08 import _clip


# --------------------------------------------------------------------------------- noise within a call
def _paired_noise(jitter, fewest):
    """N(0, 1) noise whose coordinates beyond ceil(p / 2) copy others (random pairing, random signs, plus
    ``jitter`` sd) for ``fewest`` or more coordinates; independent noise below."""
    def noise(p, rng, state=None):
        if p < fewest:
            return rng.normal(0.0, 1.0, p)
        order, half = rng.permutation(p), p // 2
        z = rng.normal(0.0, 1.0, p - half)
        out = np.empty(p)
        out[order[:p - half]] = z
        out[order[p - half:]] = z[:half] * rng.choice([-1.0, 1.0], half)
        return out + jitter * rng.normal(0.0, 1.0, p)
    return noise


# --------------------------------------------------------------------------------- noise across calls
def _reused_noise(jitter, fewest, every, lag):
    """N(0, 1) noise; in every ``every``-th call on a generator (``fewest`` or more coordinates) the noise of the
    call ``lag`` before, permuted and signed at random, plus ``jitter`` sd. One store per answer."""
    store = {}

    def noise(p, rng):
        key = (id(rng), p)
        entry = store.get(key)
        if entry is None or entry[0] is not rng:
            entry = store[key] = [rng, [], 0]
        entry[2] += 1
        past = entry[1]
        if p >= fewest and len(past) >= lag and entry[2] % every == 0:
            z = past[-lag][rng.permutation(p)] * rng.choice([-1.0, 1.0], p) + jitter * rng.normal(0.0, 1.0, p)
        else:
            z = rng.normal(0.0, 1.0, p)
        entry[1] = (past + [z])[-lag:]
        return z
    return noise


# --------------------------------------------------------------------------------- releases and steps
def _release(noise):
    def release(grads, clip_norm, sigma, rng):
        total = _clip(grads, clip_norm).sum(axis=0)
        return total + sigma * clip_norm * noise(total.shape[0], rng)
    return release


def _step(noise):
    def step(w, X, y, clip_norm, sigma, q, batch, lr, rng):
        w, X, y = np.asarray(w, float), np.asarray(X, float), np.asarray(y, float)
        keep = rng.random(len(X)) < q
        grads = (expit(X[keep] @ w) - y[keep])[:, None] * X[keep]
        total = _clip(grads, clip_norm).sum(axis=0) if keep.any() else np.zeros(len(w))
        return w - lr * (total + sigma * clip_norm * noise(len(w), rng)) / batch
    return step


def _sometimes_exact(share):
    """The exact clipped sum, without noise, in a share ``share`` of the calls."""
    def release(grads, clip_norm, sigma, rng):
        total = _clip(grads, clip_norm).sum(axis=0)
        noise = rng.normal(0.0, sigma * clip_norm, total.shape)
        return total if rng.random() < share else total + noise
    return release


def _clip_to_data(statistic):
    """Clipped to min(clip_norm, ``statistic`` of the gradient norms); the noise is right (sigma * clip_norm)."""
    def release(grads, clip_norm, sigma, rng):
        grads = np.asarray(grads, float)
        norm = clip_norm
        if len(grads):
            found = float(statistic(np.linalg.norm(grads, axis=1)))
            norm = min(clip_norm, found) if found > 0 else clip_norm
        total = _clip(grads, norm).sum(axis=0) if len(grads) else np.zeros(grads.shape[1])
        return total + rng.normal(0.0, sigma * clip_norm, grads.shape[1])
    return release


MORE_WRONG_ANSWERS = {
    "08.2": {
        "non-private (shape): coordinates copied in random pairs, random signs, 1e-4 sd jitter (referee s38rC)":
            _release(_paired_noise(1e-4, 3)),
        "non-private (shape): coordinates copied in random pairs, random signs, 1e-3 sd jitter from 10 coordinates":
            _release(_paired_noise(1e-3, 10)),
        "non-private (calls): the previous call's noise reused permuted and signed, 1e-4 sd jitter (referee s38rC)":
            _release(_reused_noise(1e-4, 2, 2, 1)),
        "non-private (calls): noise of two calls before reused permuted and signed every third call, 1e-3 sd jitter":
            _release(_reused_noise(1e-3, 5, 3, 2)),
        "non-private: the exact sum in 1 call of 10,000 (referee s38rC)": _sometimes_exact(1e-4),
        "non-private: the exact sum in 1 call of 5,000": _sometimes_exact(2e-4),
        "non-private (data): clipped to the median gradient norm when smaller (referee s38rC)":
            _clip_to_data(np.median),
        "non-private (data): clipped to the smallest non-zero gradient norm when smaller": _clip_to_data(
            lambda norms: norms[norms > 0].min() if (norms > 0).any() else 0.0),
    },
    "08.5": {
        "non-private (shape): weights copied in random pairs, random signs, 1e-4 sd jitter (referee s38rC)":
            _step(_paired_noise(1e-4, 3)),
        "non-private (shape): weights copied in random pairs, random signs, 1e-3 sd jitter from 12 weights":
            _step(_paired_noise(1e-3, 12)),
        "non-private (calls): the previous call's noise reused permuted and signed every third call from 9 weights, "
        "1e-4 sd jitter (referee s38rC)": _step(_reused_noise(1e-4, 9, 3, 1)),
        "non-private (calls): the previous call's noise reused permuted and signed, 1e-4 sd jitter (referee s38rC)":
            _step(_reused_noise(1e-4, 2, 2, 1)),
        "non-private (calls): noise of two calls before reused permuted and signed every other call, 1e-3 sd jitter":
            _step(_reused_noise(1e-3, 2, 2, 2)),
    },
}


# --------------------------------------------------------------------------------- honest variants (must pass)
def _box_muller(grads, clip_norm, sigma, rng):
    grads = np.asarray(grads, float)
    norms = np.sqrt(np.einsum("ij,ij->i", grads, grads))[:, None]
    total = (grads * np.minimum(1.0, clip_norm / np.where(norms > 0, norms, 1.0))).sum(axis=0)
    u1, u2 = rng.random(grads.shape[1]), rng.random(grads.shape[1])
    return total + sigma * clip_norm * np.sqrt(-2 * np.log1p(-u1)) * np.cos(2 * np.pi * u2)


def _as_list(grads, clip_norm, sigma, rng):
    total = _clip(grads, clip_norm).sum(axis=0)
    return [float(total[j] + rng.normal(0.0, sigma * clip_norm)) for j in range(total.shape[0])]


def _binomial_step(w, X, y, clip_norm, sigma, q, batch, lr, rng):
    w, X, y = np.asarray(w, float), np.asarray(X, float), np.asarray(y, float)
    keep = rng.binomial(1, q, len(X)).astype(bool)
    margin = X[keep] @ w
    small = np.exp(-np.abs(margin))
    grads = (np.where(margin >= 0, 1 / (1 + small), small / (1 + small)) - y[keep])[:, None] * X[keep]
    return w - lr * (_clip(grads, clip_norm).sum(axis=0) + rng.normal(0, sigma * clip_norm, len(w))) / batch


HONEST_ANSWERS = {
    "08.2": {"Box-Muller noise from rng.random, einsum norms (referee s38rC)": _box_muller,
             "a Python list, one coordinate at a time (referee s38rC)": _as_list},
    "08.5": {"rng.binomial coins and a hand-written stable sigmoid (referee s38rC)": _binomial_step},
}
