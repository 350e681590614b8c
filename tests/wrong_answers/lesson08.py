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


# ------------------------------------------------------------------ by class (issue 26)
# Each class below has several members per exercise, so that a check that catches one member by
# accident (a lucky case) still has to look where the others hide: size, parameters, calls, shape,
# data, state.
from scipy.stats import truncnorm  # noqa: E402

from wrong_answers._noise_misuse import few_seeds  # noqa: E402


def _noise_like(shape, sd, rng, kind):
    """Noise of standard deviation about ``sd`` that is not Gaussian, or not quite the right amount."""
    if kind == "truncated at 3":
        return sd * truncnorm.rvs(-3, 3, size=shape, random_state=rng)
    if kind == "truncated at 4":
        return sd * truncnorm.rvs(-4, 4, size=shape, random_state=rng)
    if kind == "three uniforms":  # bounded parts, variance 1
        return sd * rng.uniform(-1.0, 1.0, (3,) + tuple(np.atleast_1d(shape))).sum(axis=0)
    if kind == "student t (5)":
        return sd * rng.standard_t(5, shape) * math.sqrt(3 / 5)
    if kind == "10% too little":
        return rng.normal(0.0, 0.9 * sd, shape)
    raise ValueError(kind)


def _release_with(noise_kind):
    def answer(grads, clip_norm, sigma, rng):
        total = _clip(grads, clip_norm).sum(axis=0)
        return total + _noise_like(total.shape, sigma * clip_norm, rng, noise_kind)
    return answer


def _stateful(make):
    """An answer with memory between calls: ``make(state, *args)``."""
    state = {}
    return lambda *args: make(state, *args)


def _reused_every_other_call(state, grads, clip_norm, sigma, rng):
    total = _clip(grads, clip_norm).sum(axis=0)
    key = total.shape
    if key in state:
        return total + state.pop(key)
    state[key] = rng.normal(0.0, sigma * clip_norm, total.shape)
    return total + state[key]


def _antithetic(state, grads, clip_norm, sigma, rng):
    total = _clip(grads, clip_norm).sum(axis=0)
    key = total.shape
    if key in state:
        return total - state.pop(key)
    state[key] = rng.normal(0.0, sigma * clip_norm, total.shape)
    return total + state[key]


def _autoregressive(state, grads, clip_norm, sigma, rng, rho=0.5):
    total = _clip(grads, clip_norm).sum(axis=0)
    fresh = rng.normal(0.0, 1.0, total.shape)
    last = state.get(total.shape, fresh)
    z = rho * last + math.sqrt(1 - rho**2) * fresh if total.shape in state else fresh
    state[total.shape] = z
    return total + sigma * clip_norm * z


def _memoised_release(state, grads, clip_norm, sigma, rng):
    key = (np.shape(grads), clip_norm)
    if key not in state:
        state[key] = _release(grads, clip_norm, sigma, rng)
    return state[key]


def _halves_shared(grads, clip_norm, sigma, rng):
    total = _clip(grads, clip_norm).sum(axis=0)
    p = len(total)
    z = rng.normal(0.0, sigma * clip_norm, p)
    z[p // 2: 2 * (p // 2)] = z[: p // 2]  # coordinate j + p/2 gets coordinate j's noise
    return total + z


def _common_component(grads, clip_norm, sigma, rng, rho=0.3):
    total = _clip(grads, clip_norm).sum(axis=0)
    z = math.sqrt(1 - rho) * rng.normal(0.0, 1.0, total.shape) + math.sqrt(rho) * rng.normal()
    return total + sigma * clip_norm * z


def _sized(threshold, small, large):
    return lambda grads, *rest: (large if len(grads) > threshold else small)(grads, *rest)


_exact_sum = lambda g, c, s, rng: _clip(g, c).sum(axis=0)  # noqa: E731
_unclipped_release = lambda g, c, s, rng: _release(g, c, s, rng, clip=lambda x, c: np.asarray(x, float))  # noqa: E731

WRONG_ANSWERS["08.2"].update({
    # shape
    "noise truncated at 3 scales (truncnorm)": _release_with("truncated at 3"),
    "noise truncated at 4 scales": _release_with("truncated at 4"),
    "noise from three uniforms (bounded)": _release_with("three uniforms"),
    "Student-t noise of the same variance": _release_with("student t (5)"),
    # parameters
    "10% too little noise": _release_with("10% too little"),
    "non-private: no noise once sigma * clip_norm > 100": lambda g, c, s, rng: (
        _exact_sum(g, c, s, rng) if s * c > 100 else _release(g, c, s, rng)),
    "noise scaled by min(clip_norm, 1)": lambda g, c, s, rng: _release(g, c, s, rng, scale=lambda x, c, s: s * min(c, 1.0)),
    # size
    "non-private: no clipping for a one-example batch": _sized(1, _unclipped_release, _release),
    "non-private: the exact sum above 10,000 examples": _sized(10_000, _release, _exact_sum),
    "noise divided by sqrt(n) above 1,000 examples": _sized(1_000, _release, lambda g, c, s, rng: _release(
        g, c, s, rng, scale=lambda x, c, s: s * c / math.sqrt(len(x)))),
    "reads only the first 1,000 examples": lambda g, c, s, rng: _release(np.asarray(g)[:1000], c, s, rng),
    # calls
    "noise reused on every other call": _stateful(_reused_every_other_call),
    "antithetic noise on every other call": _stateful(_antithetic),
    "noise correlated 0.5 with the previous call's": _stateful(_autoregressive),
    "noise drawn from 65,536 seeds": few_seeds(_release),
    "coordinate j + p/2 reuses coordinate j's noise": _halves_shared,
    "noise correlated 0.3 across coordinates": _common_component,
    # data
    "clip norm lowered to the largest row norm": lambda g, c, s, rng: _release(
        g, c, s, rng, scale=lambda x, c, s: s * min(c, max(np.linalg.norm(x, axis=1).max(), 1e-12))),
    # state
    "memoised on the shape and clip_norm": _stateful(_memoised_release),
    # nothing to hide (referee, lesson 08 review)
    "non-private: no noise on an empty gradient matrix": lambda g, c, s, rng: (
        np.zeros(np.shape(g)[1]) if len(g) == 0 else _release(g, c, s, rng)),
    "non-private: no noise when the clipped sum is zero": lambda g, c, s, rng: (
        _exact_sum(g, c, s, rng) if not _exact_sum(g, c, s, rng).any() else _release(g, c, s, rng)),
})


def _memoised_clip(state, grads, clip_norm):
    key = (np.shape(grads), clip_norm)
    if key not in state:
        state[key] = _clip(grads, clip_norm)
    return state[key]


def _alias_when_nothing_to_clip(grads, clip_norm):
    grads = np.asarray(grads, dtype=float)
    if (np.linalg.norm(grads, axis=1) <= clip_norm).all():
        return grads
    return _clip(grads, clip_norm)


WRONG_ANSWERS["08.1"].update({
    "no clipping above 10,000 examples": lambda g, c: (np.asarray(g, float).copy() if len(g) > 10_000 else _clip(g, c)),
    "no clipping for a single example": lambda g, c: (np.asarray(g, float).copy() if len(g) == 1 else _clip(g, c)),
    "clips only the first 1,000 rows": lambda g, c: np.vstack([_clip(np.asarray(g)[:1000], c),
                                                               np.asarray(g, float)[1000:]]),
    "no clipping when clip_norm > 100": lambda g, c: (np.asarray(g, float).copy() if c > 100 else _clip(g, c)),
    "compares the squared norm with clip_norm": lambda g, c: np.asarray(g, float) * np.minimum(
        1.0, c / np.maximum((np.asarray(g, float) ** 2).sum(axis=1, keepdims=True), 1e-300)),
    "clips to the median row norm when that is smaller": lambda g, c: _clip(
        g, min(c, float(np.median(np.linalg.norm(np.asarray(g, float), axis=1))) or c)),
    "memoised on the shape and clip_norm": _stateful(_memoised_clip),
    "returns the input itself when nothing needs clipping": _alias_when_nothing_to_clip,
    "casts back to the input's dtype (integers truncated)": lambda g, c: _clip(g, c).astype(np.asarray(g).dtype),
    "computes in float16": lambda g, c: _clip(np.asarray(g, np.float16), np.float16(c)),
    # edge cases (no example, int8/int32 gradients): each passed the check before them
    "(data) squares summed in the input's dtype (int8, int32 overflow)": lambda g, c: np.asarray(g, float) * np.minimum(
        1.0, c / np.maximum(np.sqrt((g ** 2).sum(axis=1, keepdims=True, dtype=g.dtype)), 1e-300)),
    "(size) rows stacked with np.vstack (fails on no example)": lambda g, c: np.vstack([
        row * min(1.0, c / max(np.linalg.norm(row), 1e-300)) for row in np.asarray(g, float)]),
    "(shape) no example returned as shape (0,)": lambda g, c: _clip(g, c) if len(g) else np.zeros(0),
})


def _amplification_only_above(q_min):
    return lambda q, s, t, d: _rdp(q, s, t, d, wrap=q >= q_min)


def _exact_gaussian(sigma, delta):
    """Epsilon of one Gaussian mechanism (Balle & Wang 2018), by bisection."""
    from scipy.optimize import brentq

    gap = lambda e: norm.cdf(0.5 / sigma - e * sigma) - math.exp(e) * norm.cdf(-0.5 / sigma - e * sigma) - delta
    return brentq(gap, 0.0, 500.0)


WRONG_ANSWERS["08.3"].update({
    # below the run's epsilon (referee, lesson 08 review); RDP with delta doubled or sigma * 1.03 stays above the
    # fine-grid PLD figure on every case, a valid (if wrongly derived) bound, so no value test can reject it
    "q = 1: 3.9% below the exact epsilon": lambda q, s, t, d: _rdp(q, s, t, d) if q < 1 else 0.961 * _exact_gaussian(
        s / math.sqrt(t), d),
    "ignores the sampling below q = 0.001": _amplification_only_above(1e-3),
    "half the steps above 500 steps": lambda q, s, t, d: _rdp(q, s, t // 2 if t > 500 else t, d),
    "delta fixed at 1e-5": lambda q, s, t, d: _rdp(q, s, t, 1e-5),
    "noise multiplier capped at 5": lambda q, s, t, d: _rdp(q, min(s, 5.0), t, d),
    "delta divided by the steps": lambda q, s, t, d: _rdp(q, s, t, d / t),
})


def _advantage_lp(epsilon, delta):
    from scipy.optimize import linprog

    shrink = math.exp(-epsilon)  # the constraints divided by e^epsilon: well scaled for every epsilon
    # variables (TPR, FPR): maximise TPR - FPR subject to TPR <= e^eps FPR + delta, 1 - FPR <= e^eps (1 - TPR) + delta
    result = linprog([-1.0, 1.0], A_ub=[[shrink, -1.0], [1.0, -shrink]], b_ub=[delta * shrink, 1 - (1 - delta) * shrink],
                     bounds=[(0, 1), (0, 1)], method="highs")
    return float(-result.fun)


WRONG_ANSWERS["08.4"].update({
    "forgets delta when epsilon > 5": lambda e, d: math.tanh(e / 2) + (0.0 if e > 5 else 2 * d / (math.exp(e) + 1)),
    "ignores delta above 0.1": lambda e, d: math.tanh(e / 2) + (0.0 if d > 0.1 else 2 * d / (math.exp(e) + 1)),
    "bisection stopped at 1e-4": lambda e, d: math.floor((math.tanh(e / 2) + 2 * d / (math.exp(e) + 1)) / 1e-4) * 1e-4,
    # edge cases (epsilon to 700, integer arguments): each passed the check before them
    "(parameters) the exp formula in float32 (NaN above epsilon 88)": lambda e, d: float(
        (np.exp(np.float32(e)) - np.float32(1) + np.float32(2 * d)) / (np.exp(np.float32(e)) + np.float32(1))),
})


def _step_sized(threshold, small, large):
    return lambda w, X, *rest: (large if len(X) > threshold else small)(w, X, *rest)


def _memoised_step(state, w, X, y, c, s, q, b, lr, rng):
    key = np.shape(X)
    if key not in state:
        state[key] = _step(w, X, y, c, s, q, b, lr, rng)
    return state[key]


def _truncated_step(kind):
    class _Noise:
        def __init__(self, rng):
            self.rng = rng

        def normal(self, loc, scale, size):
            return loc + _noise_like(size, scale, self.rng, kind)

    return lambda w, X, y, c, s, q, b, lr, rng: _step(w, X, y, c, s, q, b, lr, rng, gen=_Noise(rng))


def _data_clip_step(w, X, y, clip_norm, sigma, q, batch, lr, rng, *, whole_dataset):
    """Non-private: clip norm min(C, largest gradient norm of the batch or of the dataset), noise sized to it."""
    w, X, y = np.asarray(w, float), np.asarray(X, float), np.asarray(y, float)
    chosen = rng.random(len(X)) < q
    every = (expit(X @ w) - y)[:, None] * X
    grads = every[chosen]
    seen = every if whole_dataset else grads
    largest = np.linalg.norm(seen, axis=1).max() if len(seen) else 0.0
    c = min(clip_norm, largest) if largest > 0 else clip_norm
    return w - lr * (_clip(grads, c).sum(axis=0) + rng.normal(0.0, sigma * c, w.shape)) / batch


WRONG_ANSWERS["08.5"].update({
    # clip norm from the data (referee, lesson 08 review)
    "non-private: clip norm from the batch's largest gradient": lambda *a: _data_clip_step(*a, whole_dataset=False),
    "non-private: clip norm from the dataset's largest gradient": lambda *a: _data_clip_step(*a, whole_dataset=True),
    "non-private: no clipping with a one-example dataset": _step_sized(1, lambda *a: _step(*a, clip="none"), _step),
    "non-private: no noise above 10,000 examples": _step_sized(
        10_000, _step, lambda *a: _step(*a, noise_scale=lambda s, c, q, n: 0.0)),
    "noise divided by sqrt(n)": lambda *a: _step(*a, noise_scale=lambda s, c, q, n: s * c / math.sqrt(n)),
    "samples only among the first 1,000 examples": lambda w, X, y, *rest: _step(
        w, np.asarray(X)[:1000], np.asarray(y)[:1000], *rest),
    "10% too little noise": lambda *a: _step(*a, noise_scale=lambda s, c, q, n: 0.9 * s * c),
    "non-private: no noise once sigma * clip_norm > 100": lambda *a: _step(
        *a, noise_scale=lambda s, c, q, n: 0.0 if s * c > 100 else s * c),
    "noise truncated at 3 scales (truncnorm)": _truncated_step("truncated at 3"),
    "noise from three uniforms (bounded)": _truncated_step("three uniforms"),
    "memoised on the shape of X": _stateful(_memoised_step),
    "noise drawn from 65,536 seeds": few_seeds(_step),
})


# Range ends and rates (referee, 08.2 / 08.5 ranges): each went unnoticed while no case reached that corner.
WRONG_ANSWERS["08.2"].update({
    "non-private: no noise when clip_norm < 1e-3": lambda g, c, s, rng: (
        _exact_sum(g, c, s, rng) if c < 1e-3 else _release(g, c, s, rng)),
    "non-private: no noise when sigma > 40": lambda g, c, s, rng: (
        _exact_sum(g, c, s, rng) if s > 40 else _release(g, c, s, rng)),
    "noise multiplier capped at 30": lambda g, c, s, rng: _release(
        g, c, s, rng, scale=lambda x, c, s: min(s, 30.0) * c),
    "0.8x noise above 50,000 examples": _sized(50_000, _release, lambda g, c, s, rng: _release(
        g, c, s, rng, scale=lambda x, c, s: 0.8 * s * c)),
})
WRONG_ANSWERS["08.5"].update({
    "non-private: no noise when sigma < 0.1": lambda *a: _step(
        *a, noise_scale=lambda s, c, q, n: 0.0 if s < 0.1 else s * c),
    "non-private: no noise when sample_rate > 0.95": lambda w, X, y, c, s, q, *rest: _step(
        w, X, y, c, s, q, *rest, noise_scale=lambda s, c, q, n: 0.0 if q > 0.95 else s * c),
    "noise multiplier capped at 20": lambda *a: _step(*a, noise_scale=lambda s, c, q, n: min(s, 20.0) * c),
    "every example (no sampling) when sample_rate > 0.6": lambda w, X, y, c, s, q, *rest: _step(
        w, X, y, c, s, q, *rest, sampling="all" if q > 0.6 else "poisson"),
})

# ---------------------------------------------------------------- honest answers (must pass)
def _clip_loop(grads, clip_norm):
    out = np.array(grads, dtype=float)
    for row in out:
        norm = math.sqrt(float(row @ row))
        if norm > clip_norm:
            row *= clip_norm / norm
    return out


def _clip_divide(grads, clip_norm):
    grads = np.asarray(grads, dtype=float)
    return grads / np.maximum(1.0, np.linalg.norm(grads, axis=1, keepdims=True) / clip_norm)


def _clip_float32(grads, clip_norm):
    grads = np.asarray(grads, dtype=np.float32)
    norms = np.linalg.norm(grads, axis=1, keepdims=True)
    return grads * np.minimum(np.float32(1), np.float32(clip_norm) / np.maximum(norms, np.float32(1e-30)))

# Far above the largest size (referee, lesson 08 pass 4): cases stopped at 100,000 examples.
WRONG_ANSWERS["08.2"].update({
    "non-private (size): the exact sum from 150,000 examples": _sized(149_999, _release, _exact_sum),
    "non-private (size): the exact sum above 200,000 examples": _sized(200_000, _release, _exact_sum),
    "non-private (size): the exact sum from 500,000 examples": _sized(499_999, _release, _exact_sum),
    "non-private (size): the exact sum from a million examples": _sized(999_999, _release, _exact_sum),
})
WRONG_ANSWERS["08.5"].update({
    "non-private (size): divides by the realised batch size from 200,000 examples": _step_sized(
        199_999, _step, lambda *a: _step(*a, divide="realised")),
    "non-private (size): a fixed-size batch (rng.choice) from 150,000 examples": _step_sized(
        149_999, _step, lambda *a: _step(*a, sampling="fixed")),
    "non-private (size): a fixed-size batch (rng.choice) from a million examples": _step_sized(
        999_999, _step, lambda *a: _step(*a, sampling="fixed")),
    "non-private (size): no noise from 500,000 examples": _step_sized(
        499_999, _step, lambda *a: _step(*a, noise_scale=lambda s, c, q, n: 0.0)),
    "non-private (size): divides by sample_rate * n from a million examples": _step_sized(
        999_999, _step, lambda *a: _step(*a, divide="q n")),
})


def _release_noise_first(grads, clip_norm, sigma, rng):
    noise = rng.standard_normal(np.shape(grads)[1]) * (sigma * clip_norm)
    return _clip_divide(grads, clip_norm).sum(axis=0) + noise


def _release_looped(grads, clip_norm, sigma, rng):
    total = np.zeros(np.shape(grads)[1])
    for row in _clip_loop(grads, clip_norm):
        total += row
    return total + rng.normal(size=total.shape, scale=sigma * clip_norm)


def _pld_default(q, s, t, d):
    from dp_accounting import pld

    event = dp_accounting.GaussianDpEvent(s)
    accountant = pld.PLDAccountant()
    accountant.compose(dp_accounting.SelfComposedDpEvent(
        dp_accounting.PoissonSampledDpEvent(q, event) if q < 1 else event, t))
    return accountant.get_epsilon(d)


def _pld_coarse(q, s, t, d):
    from dp_accounting import pld

    event = dp_accounting.GaussianDpEvent(s)
    accountant = pld.PLDAccountant(value_discretization_interval=5e-3)
    accountant.compose(dp_accounting.SelfComposedDpEvent(
        dp_accounting.PoissonSampledDpEvent(q, event) if q < 1 else event, t))
    return accountant.get_epsilon(d)


def _rdp_custom_orders(q, s, t, d):
    event = dp_accounting.GaussianDpEvent(s)
    accountant = rdp.RdpAccountant(orders=[1 + x / 10.0 for x in range(1, 100)] + list(range(12, 257)))
    accountant.compose(dp_accounting.SelfComposedDpEvent(
        dp_accounting.PoissonSampledDpEvent(q, event) if q < 1 else event, t))
    return accountant.get_epsilon(d)


def _step_all_gradients(w, X, y, clip_norm, sigma, q, batch, lr, rng):
    w, X, y = np.asarray(w, float), np.asarray(X, float), np.asarray(y, float)
    mask = rng.uniform(size=len(X)) < q
    grads = (expit(X @ w) - y)[:, None] * X  # every example's gradient, then the batch's
    total = _clip_divide(grads[mask], clip_norm).sum(axis=0)
    return w - lr * (total + rng.normal(0.0, sigma * clip_norm, len(w))) / batch


def _fixed_length_noise(p, sd, rng):
    """Gaussian noise rescaled to norm sd * sqrt(p): right on every coordinate's scale, bounded, not private."""
    z = rng.standard_normal(p)
    return z / np.linalg.norm(z) * sd * math.sqrt(p)


WRONG_ANSWERS["08.2"]["non-private (shape): noise rescaled to a fixed norm"] = lambda g, c, s, rng: (
    lambda total: total + _fixed_length_noise(total.size, s * c, rng))(_clip(np.asarray(g, float), c).sum(axis=0)
                                                                         if len(g) else np.zeros(np.shape(g)[1]))
WRONG_ANSWERS["08.5"]["non-private (shape): noise rescaled to a fixed norm from 10 weights"] = lambda *a: _step(
    *a, noise_scale=lambda s, c, q, n: s * c) if len(a[0]) < 10 else _fixed_norm_step(*a)


def _fixed_norm_step(w, X, y, clip_norm, sigma, q, batch, lr, rng):
    w, X, y = np.asarray(w, float), np.asarray(X, float), np.asarray(y, float)
    keep = rng.random(len(X)) < q
    grads = (expit(X[keep] @ w) - y[keep])[:, None] * X[keep]
    total = _clip(grads, clip_norm).sum(axis=0) if keep.any() else np.zeros(len(w))
    return w - lr * (total + _fixed_length_noise(len(w), sigma * clip_norm, rng)) / batch


HONEST_ANSWERS = {
    "08.1": {"a loop over rows": _clip_loop, "divides by max(1, norm / C)": _clip_divide,
             "computed in float32": _clip_float32},
    "08.2": {"noise drawn first, standard_normal": _release_noise_first, "a loop over rows": _release_looped,
             # referee (08.2 pass 4): casting the release to float32 is post-processing; its rounding makes equal
             # coordinates, which are not reused noise
             "the release cast to float32": lambda g, c, s, rng: (
                 _release_noise_first(g, c, s, rng).astype(np.float32))},
    "08.3": {"PLD with the default grid": _pld_default, "PLD on a coarse 5e-3 grid": _pld_coarse, "RDP with other orders": _rdp_custom_orders},
    "08.4": {"a linear-programming solver (HiGHS, default tolerances)": _advantage_lp,
             "computed in float32": lambda e, d: float(np.float32(np.tanh(np.float32(e / 2))
                                                       + np.float32(2 * d) / np.float32(np.exp(np.float32(e)) + 1))),
             "the formula with exp": lambda e, d: min(1.0, (math.exp(e) - 1 + 2 * d) / (math.exp(e) + 1))},
    "08.5": {"every gradient computed, then the batch's": _step_all_gradients},
}
