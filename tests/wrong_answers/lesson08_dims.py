"""Wrong answers to 08.2, 08.4 and 08.5 that hide where the fixed cases never looked (referee s36rC).

Each referee answer is here with at least one more member of its class (other numbers), so that a check that
only covers the referee's numbers fails: numbers of coordinates or weights (08.2, 08.5), numbers of examples
above 200,000 and sample rates below 1e-3 (08.5; 08.2 beyond its stated 100,000 examples), noise truncated at
4.5 scales (truncation at 5 is a stated limit), and deltas or epsilons in the gaps of 08.4's fixed cases.
"""

import math

import numpy as np
from scipy import stats

from wrong_answers.lesson08 import _clip
from wrong_answers.lesson08_noise import _step


# --------------------------------------------------------------------------------- 08.2
def _release_where(inside, wrong):
    """The correct release, or ``wrong(clipped sum, sd, p, rng)`` where ``inside(p, n)``."""
    def release(grads, clip_norm, sigma, rng):
        grads = np.asarray(grads, dtype=float)
        total = _clip(grads, clip_norm).sum(axis=0)
        p, sd = grads.shape[1], sigma * clip_norm
        if inside(p, len(grads)):
            return wrong(total, sd, p, rng)
        return total + rng.normal(0.0, sd, p)
    return release


def _no_noise(total, sd, p, rng):
    return total


def _shared(total, sd, p, rng):
    return total + rng.normal(0.0, sd) * np.ones(p)


def _sqrt_p(total, sd, p, rng):
    return total + rng.normal(0.0, sd / math.sqrt(p), p)


def _truncated(bound):
    def release(grads, clip_norm, sigma, rng):
        grads = np.asarray(grads, dtype=float)
        z = stats.truncnorm.rvs(-bound, bound, size=grads.shape[1], random_state=rng)
        return _clip(grads, clip_norm).sum(axis=0) + sigma * clip_norm * z
    return release


def _coordinates(low, high):
    return lambda p, n: low <= p <= high


def _examples(low, high):
    return lambda p, n: low <= n <= high


RELEASES = {
    "non-private (shape): no noise for 20 to 10,000 coordinates": _release_where(_coordinates(20, 10_000), _no_noise),
    "non-private (shape): no noise for 300 to 600 coordinates": _release_where(_coordinates(300, 600), _no_noise),
    "non-private (shape): no noise for 9 to 15 coordinates": _release_where(_coordinates(9, 15), _no_noise),
    "non-private (shape): no noise for 1,000 to 2,000 coordinates":
        _release_where(_coordinates(1000, 2000), _no_noise),
    "non-private (shape): one noise draw shared by 17 to 19,999 coordinates":
        _release_where(_coordinates(17, 19_999), _shared),
    "non-private (shape): one noise draw shared by 100 to 400 coordinates":
        _release_where(_coordinates(100, 400), _shared),
    "non-private (shape): noise sd sigma C / sqrt(p) for 17 to 19,999 coordinates":
        _release_where(_coordinates(17, 19_999), _sqrt_p),
    "non-private (shape): noise sd sigma C / sqrt(p) for 9 to 40 coordinates":
        _release_where(_coordinates(9, 40), _sqrt_p),
    "noise truncated at 4.5 scales": _truncated(4.5),
    "noise truncated at 4.4 scales": _truncated(4.4),
    "non-private (size): no noise for 200,001 to 1,000,000 examples": _release_where(_examples(200_001, 1_000_000),
                                                                              _no_noise),
    "non-private (size): no noise for 400,000 to 800,000 examples":
        _release_where(_examples(400_000, 800_000), _no_noise),
}


# --------------------------------------------------------------------------------- 08.5
def _step_where(inside, **wrong):
    """The correct step, or ``_step(..., **wrong)`` where ``inside(d, n, q)``."""
    def step(w, X, y, clip_norm, sigma, q, batch, lr, rng):
        args = (w, X, y, clip_norm, sigma, q, batch, lr, rng)
        return _step(*args, **wrong) if inside(len(w), len(X), q) else _step(*args)
    return step


def _weights(*bands):
    return lambda d, n, q: any(low <= d <= high for low, high in bands)


class _SharedGenerator:
    """A generator whose ``normal(0, sd, shape)`` is one draw repeated over the shape."""

    def __init__(self, rng):
        self.rng = rng

    def normal(self, loc, scale, shape):
        return self.rng.normal(loc, scale) * np.ones(shape)


def _shared_step(bands):
    inside = _weights(*bands)

    def step(w, X, y, clip_norm, sigma, q, batch, lr, rng):
        gen = _SharedGenerator(rng) if inside(len(w), len(X), q) else None
        return _step(w, X, y, clip_norm, sigma, q, batch, lr, rng, gen=gen)
    return step


def _zero_noise(sigma, clip_norm, q, n):
    return 0.0


def _batch_scaled(bands):
    """Noise of sd sigma C / expected_batch_size in ``bands`` of the number of weights."""
    inside = _weights(*bands)

    def step(w, X, y, clip_norm, sigma, q, batch, lr, rng):
        scale = (lambda s, c, q_, n: s * c / max(batch, 1.0)) if inside(len(w), len(X), q) else None
        return _step(w, X, y, clip_norm, sigma, q, batch, lr, rng, noise_scale=scale)
    return step


_GAP = ((7, 63), (65, 19_999))
STEPS = {
    "non-private (shape): no noise for 7-63 and 65-19,999 weights":
        _step_where(_weights(*_GAP), noise_scale=_zero_noise),
    "non-private (shape): no noise for 100 to 300 weights":
        _step_where(_weights((100, 300)), noise_scale=_zero_noise),
    "non-private (shape): no noise with one weight": _step_where(_weights((1, 1)), noise_scale=_zero_noise),
    "non-private (shape): no noise with five weights": _step_where(_weights((5, 5)), noise_scale=_zero_noise),
    "non-private (shape): one noise draw shared by 65 to 19,999 weights": _shared_step(((65, 19_999),)),
    "non-private (shape): one noise draw shared by 20 to 50 weights": _shared_step(((20, 50),)),
    "non-private (shape): clips the batch's sum from 7 weights up": _step_where(_weights((7, 20_000)), clip="batch"),
    "non-private (shape): clips the batch's sum for 100 to 1,000 weights":
        _step_where(_weights((100, 1000)), clip="batch"),
    "non-private (shape): noise sd sigma C / B for 7-63 and 65-19,999 weights": _batch_scaled(_GAP),
    "non-private (shape): noise sd sigma C / B for 30 to 3,000 weights": _batch_scaled(((30, 3000),)),
    "non-private (shape): a fixed batch divided by its size for 7-63 and 65-19,999 weights": _step_where(
        _weights(*_GAP), sampling="fixed", divide="realised"),
    "non-private (shape): a fixed batch divided by its size for 10 to 100 weights": _step_where(
        _weights((10, 100)), sampling="fixed", divide="realised"),
    "non-private (size): no noise for 200,001 to 1,000,000 examples": _step_where(
        lambda d, n, q: 200_000 < n <= 1_000_000, noise_scale=_zero_noise),
    "non-private (size): no noise for 400,000 to 800,000 examples": _step_where(
        lambda d, n, q: 400_000 <= n <= 800_000, noise_scale=_zero_noise),
    "non-private (size): no noise, divided by the realised batch, for 200,001 to 1,000,000 examples": _step_where(
        lambda d, n, q: 200_000 < n <= 1_000_000, noise_scale=_zero_noise, divide="realised"),
    "non-private (parameters): no noise for sample rates 5e-5 to 9e-4": _step_where(
        lambda d, n, q: 5e-5 <= q <= 9e-4, noise_scale=_zero_noise),
    "non-private (parameters): no noise for sample rates 1e-4 to 3e-4": _step_where(
        lambda d, n, q: 1e-4 <= q <= 3e-4, noise_scale=_zero_noise),
}


# --------------------------------------------------------------------------------- 08.4
def _advantage(eps, delta):
    return min(1.0, (1 - delta) * math.tanh(eps / 2) + delta)


def _drops_delta(low, high):
    return lambda eps, delta: math.tanh(eps / 2) if low < delta < high else _advantage(eps, delta)


def _low_for_epsilon(low, high):
    return lambda eps, delta: 0.9 if low < eps < high and eps != 50 else _advantage(eps, delta)


def _exp_overflow(eps, delta):
    """The closed form with e^epsilon (math.exp raises OverflowError above 709.78)."""
    e = math.exp(eps)
    return (e - 1 + 2 * delta) / (e + 1)


def _np_exp_nan(eps, delta):
    """The closed form with np.exp: inf / inf is NaN above 709.78."""
    with np.errstate(over="ignore", invalid="ignore"):
        e = np.exp(np.float64(eps))
        return float((e - 1 + 2 * delta) / (e + 1))


ADVANTAGES = {
    "drops delta for 0.5 < delta < 0.85": _drops_delta(0.5, 0.85),
    "drops delta for 0.6 < delta < 0.7": _drops_delta(0.6, 0.7),
    "returns 0.9 for 40 < epsilon < 89": _low_for_epsilon(40, 89),
    "returns 0.9 for 100 < epsilon < 200": _low_for_epsilon(100, 200),
    # referee s37rC (D12): the cases stopped at epsilon 700, below e^epsilon's overflow
    "(parameters) the closed form with math.exp (OverflowError above epsilon 709.78)": _exp_overflow,
    "(parameters) the closed form with np.exp (NaN above epsilon 709.78)": _np_exp_nan,
    "(parameters) tanh plus 2 delta / (math.exp(epsilon) + 1) (OverflowError above 709.78)":
        lambda e, d: min(1.0, math.tanh(e / 2) + 2 * d / (math.exp(e) + 1)),
    "returns 0.9 for 2,000 < epsilon < 5,000": _low_for_epsilon(2000, 5000),
    # referee s37rC (D13): told "right idea, not accurate enough" at delta 1e-5 (tests/test_lesson08_hints.py)
    "tanh(epsilon / 2) + delta (delta not shrunk by 2 / (e^epsilon + 1))": lambda e, d: min(1.0, math.tanh(e / 2) + d),
}

MORE_WRONG_ANSWERS = {"08.2": RELEASES, "08.4": ADVANTAGES, "08.5": STEPS}
