"""Wrong answers to lesson 08's exercises: each a mistake a student could make, and each must be rejected."""

import math

import dp_accounting
import numpy as np
from dp_accounting import rdp
from scipy.special import expit
from scipy.stats import norm

from wrong_answers._noise_misuse import sometimes_noiseless


def _clip(grads, clip_norm):
    grads = np.asarray(grads, dtype=float)
    norms = np.linalg.norm(grads, axis=1, keepdims=True)
    return grads * np.minimum(1.0, clip_norm / np.maximum(norms, 1e-300))


# --------------------------------------------------------------------------------- 08.1
def _clip_batch(grads, clip_norm):
    """Non-private: one factor for the whole matrix (clipping the batch, not each example)."""
    grads = np.asarray(grads, dtype=float)
    return grads * min(1.0, clip_norm / max(np.linalg.norm(grads), 1e-300))


def _normalise_all(grads, clip_norm):
    grads = np.asarray(grads, dtype=float)
    norms = np.linalg.norm(grads, axis=1, keepdims=True)
    return grads * clip_norm / np.maximum(norms, 1e-300)


def _clip_in_place(grads, clip_norm):
    norms = np.linalg.norm(grads, axis=1, keepdims=True)
    grads *= np.minimum(1.0, clip_norm / np.maximum(norms, 1e-300))
    return grads


def _clip_l1(grads, clip_norm):
    grads = np.asarray(grads, dtype=float)
    norms = np.abs(grads).sum(axis=1, keepdims=True)
    return grads * np.minimum(1.0, clip_norm / np.maximum(norms, 1e-300))


def _clip_half(grads, clip_norm):
    grads = np.asarray(grads, dtype=float)
    norms = np.linalg.norm(grads, axis=1, keepdims=True)
    return np.where(norms > clip_norm, grads * clip_norm / np.maximum(norms, 1e-300) / 2, grads)


# --------------------------------------------------------------------------------- 08.2
def _release(grads, clip_norm, sigma, rng, *, clip=_clip, scale=None, noise="normal"):
    total = clip(grads, clip_norm).sum(axis=0)
    sd = sigma * clip_norm if scale is None else scale(np.asarray(grads, dtype=float), clip_norm, sigma)
    if noise == "normal":
        return total + rng.normal(0.0, sd, total.shape)
    if noise == "laplace":  # same variance as the Gaussian
        return total + rng.laplace(0.0, sd / math.sqrt(2), total.shape)
    if noise == "shared":
        return total + rng.normal(0.0, sd) * np.ones_like(total)
    if noise == "global":
        return total + np.random.normal(0.0, sd, total.shape)
    if noise == "fresh":
        return total + np.random.default_rng(0).normal(0.0, sd, total.shape)
    raise ValueError(noise)


def _batch_clipped_release(grads, clip_norm, sigma, rng):
    """Non-private: clips the summed gradient."""
    total = np.asarray(grads, dtype=float).sum(axis=0)
    total = total * min(1.0, clip_norm / max(np.linalg.norm(total), 1e-300))
    return total + rng.normal(0.0, sigma * clip_norm, total.shape)


# --------------------------------------------------------------------------------- 08.3
def _rdp(q, sigma, steps, delta, wrap=True):
    event = dp_accounting.GaussianDpEvent(sigma)
    if wrap and q < 1:
        event = dp_accounting.PoissonSampledDpEvent(q, event)
    accountant = rdp.RdpAccountant()
    accountant.compose(dp_accounting.SelfComposedDpEvent(event, steps))
    return accountant.get_epsilon(delta)


def _basic_of_amplified(q, sigma, steps, delta):
    accountant = rdp.RdpAccountant()
    event = dp_accounting.GaussianDpEvent(sigma)
    accountant.compose(dp_accounting.PoissonSampledDpEvent(q, event) if q < 1 else event)
    return steps * accountant.get_epsilon(delta / steps)


def _gdp_clt(q, sigma, steps, delta):
    """Approximation (Bu, Dong, Long & Su 2020), not an upper bound."""
    mu = q * math.sqrt(steps * (math.exp(1 / sigma**2) - 1))
    low, high = 0.0, 500.0
    for _ in range(200):
        mid = (low + high) / 2
        d = norm.cdf(-mid / mu + mu / 2) - math.exp(mid) * norm.cdf(-mid / mu - mu / 2)
        low, high = (mid, high) if d > delta else (low, mid)
    return high


# --------------------------------------------------------------------------------- 08.5
def _step(w, X, y, clip_norm, sigma, q, batch, lr, rng, *, sampling="poisson", clip="rows", divide="given",
          noise_scale=None, gen=None):
    w, X, y = np.asarray(w, float), np.asarray(X, float), np.asarray(y, float)
    n = len(X)
    if sampling == "poisson":
        chosen = np.flatnonzero(rng.random(n) < q)
    elif sampling == "fixed":
        chosen = rng.choice(n, size=max(1, round(q * n)), replace=False)
    else:  # "all"
        chosen = np.arange(n)
    grads = (expit(X[chosen] @ w) - y[chosen])[:, None] * X[chosen]
    if clip == "rows":
        total = _clip(grads, clip_norm).sum(axis=0)
    elif clip == "batch":
        total = grads.sum(axis=0)
        total = total * min(1.0, clip_norm / max(np.linalg.norm(total), 1e-300))
    else:
        total = grads.sum(axis=0)
    sd = sigma * clip_norm if noise_scale is None else noise_scale(sigma, clip_norm, q, n)
    total = total + (rng if gen is None else gen).normal(0.0, sd, w.shape)
    denominator = {"given": batch, "realised": max(len(chosen), 1), "q n": q * n}[divide]
    return w - lr * total / denominator


WRONG_ANSWERS = {
    "08.1": {
        "clips the whole batch (non-private)": _clip_batch,
        "no clipping": lambda grads, clip_norm: np.asarray(grads, dtype=float).copy(),
        "clips each coordinate": lambda grads, clip_norm: np.clip(np.asarray(grads, float), -clip_norm, clip_norm),
        "scales every row to clip_norm": _normalise_all,
        "modifies its input": _clip_in_place,
        "L1 norm": _clip_l1,
        "shrinks long rows too far": _clip_half,
    },
    "08.2": {
        "non-private: the exact sum in 1% of calls": sometimes_noiseless(
            _release, lambda grads, clip_norm, sigma, rng: _clip(grads, clip_norm).sum(axis=0)),
        "no noise (non-private)": lambda g, c, s, rng: _clip(g, c).sum(axis=0),
        "clips the summed gradient (non-private)": _batch_clipped_release,
        "no clipping (non-private)": lambda g, c, s, rng: _release(g, c, s, rng, clip=lambda x, c: np.asarray(x, float)),
        "noise not scaled by clip_norm": lambda g, c, s, rng: _release(g, c, s, rng, scale=lambda x, c, s: s),
        "noise divided by the batch size (non-private)": lambda g, c, s, rng: _release(
            g, c, s, rng, scale=lambda x, c, s: s * c / len(x)),
        "noise scaled by the data's largest clipped norm": lambda g, c, s, rng: _release(
            g, c, s, rng, scale=lambda x, c, s: s * max(np.linalg.norm(_clip(x, c), axis=1).max(), 1e-12)),
        "Laplace noise of the same variance": lambda g, c, s, rng: _release(g, c, s, rng, noise="laplace"),
        "one noise draw shared by every coordinate": lambda g, c, s, rng: _release(g, c, s, rng, noise="shared"),
        "numpy's global random state": lambda g, c, s, rng: _release(g, c, s, rng, noise="global"),
        "a new generator every call": lambda g, c, s, rng: _release(g, c, s, rng, noise="fresh"),
        "the mean instead of the sum": lambda g, c, s, rng: _release(g, c, s, rng) / len(g),
    },
    "08.3": {
        "ignores the sampling": lambda q, s, t, d: _rdp(q, s, t, d, wrap=False),
        "one step only": lambda q, s, t, d: _rdp(q, s, 1, d),
        "adds up the steps' epsilons": _basic_of_amplified,
        "GDP central-limit approximation": _gdp_clt,
        "steps times the sample rate (epochs)": lambda q, s, t, d: _rdp(q, s, max(1, round(t * q)), d),
        "noise multiplier inverted": lambda q, s, t, d: _rdp(q, 1 / s, t, d),
        "constant": lambda q, s, t, d: 1.0,
    },
    "08.4": {
        "Yeom et al.'s e^eps - 1": lambda e, d: math.expm1(e),
        "forgets delta": lambda e, d: math.tanh(e / 2),
        "delta not doubled": lambda e, d: math.tanh(e / 2) + d / (math.exp(e) + 1),
        "delta added outside": lambda e, d: min(1.0, math.tanh(e / 2) + d),
        "best accuracy instead of advantage": lambda e, d: 1 / (1 + math.exp(-e)),
        "tanh(eps)": lambda e, d: min(1.0, math.tanh(e) + 2 * d / (math.exp(e) + 1)),
        "one inequality only": lambda e, d: min(1.0, 1 - math.exp(-e) + d),
    },
    "08.5": {
        "non-private: a step without noise in 1% of calls": sometimes_noiseless(
            _step, lambda w, X, y, clip_norm, sigma, q, b, lr, rng: _step(w, X, y, clip_norm, 0.0, q, b, lr, rng)),
        "no noise (non-private)": lambda *a: _step(*a, noise_scale=lambda s, c, q, n: 0.0),
        "clips the batch gradient (non-private)": lambda *a: _step(*a, clip="batch"),
        "no clipping (non-private)": lambda *a: _step(*a, clip="none"),
        "noise scaled by the batch size (non-private)": lambda *a: _step(*a, noise_scale=lambda s, c, q, n: s * c / (q * n)),
        "noise not scaled by clip_norm": lambda *a: _step(*a, noise_scale=lambda s, c, q, n: s),
        "fixed-size batches": lambda *a: _step(*a, sampling="fixed"),
        "every example every step": lambda *a: _step(*a, sampling="all"),
        "divides by the realised batch size": lambda *a: _step(*a, divide="realised"),
        "non-private: divides by sample_rate * len(X) (the private size)": lambda *a: _step(*a, divide="q n"),
        "numpy's global random state for the noise": lambda *a: _step(*a, gen=np.random.default_rng()),
        "gradient ascent": lambda w, *a: 2 * np.asarray(w, float) - _step(w, *a),
    },
}


# The answers that try to pass without solving (frame reading, patching, shadowed builtins), each
# wrapped around a wrong answer: every one must still be rejected.
from wrong_answers._cheats import cheats as _cheats  # noqa: E402

for _answers in WRONG_ANSWERS.values():
    _answers.update(_cheats(next(iter(_answers.values()))))

# Answers that hand the work to the course's dpsgd, membership and dp-accounting wrappers, which the
# exercises put off limits (round 2 of the red team).
from mic_dp_helpers.ml import dpsgd as _dpsgd  # noqa: E402
from mic_dp_helpers.ml import accounting as _dpsgd_accounting
from mic_dp_helpers.attacks import membership as _membership
from wrong_answers._cheats import calls_forbidden as _calls_forbidden  # noqa: E402

WRONG_ANSWERS["08.1"]["cheat: calls the course's clip_per_example"] = _calls_forbidden(_dpsgd.clip_per_example)
WRONG_ANSWERS["08.2"]["cheat: calls the course's private_gradient_sum"] = _calls_forbidden(
    _dpsgd.private_gradient_sum, adapt=lambda helper, grads, c, s, rng: helper(grads, c, s, rng=rng))
WRONG_ANSWERS["08.3"]["cheat: calls the course's dpsgd_epsilon"] = _calls_forbidden(_dpsgd_accounting.dpsgd_epsilon)
WRONG_ANSWERS["08.4"]["cheat: calls the course's advantage_bound"] = _calls_forbidden(_membership.advantage_bound)


def _step_with_course_clipping(helper, w, X, y, clip_norm, sigma, q, expected_batch, lr, rng):
    w, X, y = np.asarray(w, dtype=float), np.asarray(X, dtype=float), np.asarray(y, dtype=float)
    batch = rng.random(len(X)) < q
    grads = (expit(X[batch] @ w) - y[batch])[:, None] * X[batch]
    noisy = helper(grads, clip_norm).sum(axis=0) + rng.normal(0.0, sigma * clip_norm, size=w.shape)
    return w - lr * noisy / expected_batch


WRONG_ANSWERS["08.5"]["cheat: clips with the course's clip_per_example"] = _calls_forbidden(
    _dpsgd.clip_per_example, adapt=_step_with_course_clipping)
