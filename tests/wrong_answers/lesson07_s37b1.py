"""Wrong answers to 07.1 and 07.4 that referee s37rB found accepted, each with another member of its class.

07.1: coins shared between people or reused between calls at a middle epsilon, the exact answer for a
unanimous truth, and answers wrong in a narrow band of sizes at several epsilons. 07.4: a range capped at the
data's maximum, Gaussian, reused, halved or truncated noise, the whole epsilon on one part, or an exact quantile
plus a jitter, each only in a band of sizes the fixed cases skipped. Joined to ``lesson07``'s answers through
``MORE_WRONG_ANSWERS``; the honest answers through ``HONEST``.
"""

import math

import numpy as np

from mic_dp_helpers.mechanisms.selection import dp_quantile


def _flip_rate(epsilon):
    return math.exp(-epsilon) / (1.0 + math.exp(-epsilon))


def _release(truth, flip):
    return np.where(flip, ~truth, truth)


def _shared(low, high, n_min, distance):
    """Person i + d reuses person i's coin (i < d, d = distance(n); d = 1: persons 2i and 2i + 1) for
    low < epsilon < high and n >= n_min."""
    def answer(truth, epsilon, rng):
        truth = np.asarray(truth, dtype=bool)
        n = truth.size
        flip = rng.random(n) < _flip_rate(epsilon)
        if low < epsilon < high and n >= n_min:
            d = distance(n)
            if d == 1:
                flip[1::2] = flip[0::2][: n // 2]
            else:
                flip[d:2 * d] = flip[:d]
        return _release(truth, flip)
    return answer


def _unanimous_exact(n_min, which=(True, False), low=0.0):
    """The truth itself when everyone gives the same answer (one of ``which``), above ``n_min`` and ``low``."""
    def answer(truth, epsilon, rng):
        truth = np.asarray(truth, dtype=bool)
        flip = rng.random(truth.size) < _flip_rate(epsilon)
        unanimous = (truth.all() and True in which) or (not truth.any() and False in which)
        if truth.size > n_min and epsilon > low and unanimous:
            return truth.copy()
        return _release(truth, flip)
    return answer


def _memo(low, high, n_min):
    """The same reports for the same truth and epsilon."""
    memo = {}

    def answer(truth, epsilon, rng):
        truth = np.asarray(truth, dtype=bool)
        out = _release(truth, rng.random(truth.size) < _flip_rate(epsilon))
        if truth.size >= n_min and low < epsilon < high:
            return memo.setdefault((truth.tobytes(), epsilon), out).copy()
        return out
    return answer


def _reused(low, high, n_min, share):
    """A share of the people reuse their coin of the previous call with the same n and epsilon."""
    last = {}

    def answer(truth, epsilon, rng):
        truth = np.asarray(truth, dtype=bool)
        n = truth.size
        flip = rng.random(n) < _flip_rate(epsilon)
        if n >= n_min and low < epsilon < high:
            previous = last.get((n, epsilon))
            cut = int(n * share)
            if previous is not None:
                flip[:cut] = previous[:cut]
            last[(n, epsilon)] = flip.copy()
        return _release(truth, flip)
    return answer


def _band(low, high, n_low, n_high, how):
    """Exact, twice epsilon or a fixed number of liars for low <= epsilon <= high and n_low <= n <= n_high."""
    def answer(truth, epsilon, rng):
        truth = np.asarray(truth, dtype=bool)
        n = truth.size
        inside = low <= epsilon <= high and n_low <= n <= n_high
        if inside and how == "exact":
            return truth.copy()
        if inside and how == "fixed count":
            flip = np.zeros(n, bool)
            flip[rng.choice(n, int(round(n * _flip_rate(epsilon))), replace=False)] = True
            return _release(truth, flip)
        e = 2 * epsilon if inside and how == "twice" else epsilon
        return _release(truth, rng.random(n) < _flip_rate(e))
    return answer


def _rr_logspace(truth, epsilon, rng):
    """Honest: the flip decided by comparing log(u) with log(1 / (1 + e^eps)), uint8 reports."""
    t = np.asarray(truth, dtype=bool)
    return (t ^ (np.log(rng.random(t.size)) < -np.logaddexp(0.0, epsilon))).astype(np.uint8)


_RR = {
    "non-private (size): coins shared by i and i + n/2 for 1.05 < epsilon < 5.9 from 2,000 people (referee s37rB)":
        _shared(1.05, 5.9, 2000, lambda n: n // 2),
    "non-private (size): coins shared by i and i + n/3 for 3 < epsilon < 5 from 50,000 people":
        _shared(3.0, 5.0, 50_000, lambda n: n // 3),
    "non-private (size): coins shared by i and i + 1 for 2 < epsilon < 4 from 5,000 people":
        _shared(2.0, 4.0, 5000, lambda n: 1),
    "non-private (data): the truth when it is unanimous, above 501 people (referee s37rB)": _unanimous_exact(501),
    "non-private (data): the truth when everyone says no, above 5,000 people and epsilon 2":
        _unanimous_exact(5000, which=(False,), low=2.0),
    "non-private (calls): the same reports for the same truth, 1.05 < epsilon < 5.9, from 2,000 people "
    "(referee s37rB)": _memo(1.05, 5.9, 2000),
    "non-private (calls): the same reports for the same truth, 2.5 < epsilon < 4, from 20,000 people":
        _memo(2.5, 4.0, 20_000),
    "non-private (calls): half the coins reused from the previous call, 1.05 < epsilon < 5.9, from 2,000 people "
    "(referee s37rB)": _reused(1.05, 5.9, 2000, 0.5),
    "non-private (calls): a fifth of the coins reused from the previous call, 1.5 < epsilon < 3, from 10,000 people":
        _reused(1.5, 3.0, 10_000, 0.2),
    "non-private (size): exact for 400,000-480,000 people at 1.5 <= epsilon <= 4 (referee s37rB)":
        _band(1.5, 4.0, 400_000, 480_000, "exact"),
    "non-private (size): twice epsilon for 250,000-400,000 people at 1.5 <= epsilon <= 4 (referee s37rB)":
        _band(1.5, 4.0, 250_000, 400_000, "twice"),
    "non-private (size): a fixed number of liars for 150,000-400,000 people at 1.05 < epsilon < 5.9 "
    "(referee s37rB)": _band(1.05, 5.9, 150_000, 400_000, "fixed count"),
    "non-private (size): a fixed number of liars for 300,000-1,000,000 people at 1.05 < epsilon < 5.9":
        _band(1.05, 5.9, 300_000, 1_000_000, "fixed count"),
    "non-private (size): exact for 600,000-800,000 people at 2 <= epsilon <= 6":
        _band(2.0, 6.0, 600_000, 800_000, "exact"),
    "non-private (size): twice epsilon for 100,000-180,000 people at 1 <= epsilon <= 3":
        _band(1.0, 3.0, 100_000, 180_000, "twice"),
}

def _bound_mean(values, level, high, epsilon, share, rng, *, sizes=(0, math.inf), cap_at_max=False,
                bound_epsilon=None, mean_epsilon=None, noise=None, jitter=None):
    """dp_quantile then the clipped mean plus Laplace noise, with one mistake for ``sizes[0] <= n <= sizes[1]``.

    ``cap_at_max``: the quantile's range ends at min(public_high, max(values)); ``bound_epsilon`` /
    ``mean_epsilon``: f(epsilon, share) spent on the bound / the mean; ``noise``: noise(rng) in units of the
    Laplace scale; ``jitter``: (method, low, high): np.quantile by ``method`` plus a uniform jitter as the bound.
    """
    values = np.asarray(values, dtype=float)
    n = values.size
    inside = sizes[0] <= n <= sizes[1]
    top = min(high, float(values.max())) if inside and cap_at_max else high
    e_bound = bound_epsilon(epsilon, share) if inside and bound_epsilon else share * epsilon
    if inside and jitter:
        upper = min(high, float(np.quantile(values, level, method=jitter[0])) + float(rng.uniform(*jitter[1:])))
    else:
        upper = dp_quantile(values, level, 0.0, top, e_bound, rng)
    e_mean = mean_epsilon(epsilon, share) if inside and mean_epsilon else (1 - share) * epsilon
    z = noise(rng) if inside and noise else rng.laplace()
    return upper, float(np.clip(values, 0.0, upper).mean() + upper / (n * e_mean) * z)


def _reused_noise(low, high):
    """One Laplace draw kept and reused on every call with low <= n <= high."""
    kept = []

    def noise(rng):
        z = rng.laplace()
        if not kept:
            kept.append(z)
        return kept[0]
    return lambda *a: _bound_mean(*a, sizes=(low, high), noise=noise)


def _truncated(limit):
    def noise(rng):
        z = rng.laplace()
        while abs(z) > limit:
            z = rng.laplace()
        return z
    return noise


def _smith_by_hand(values, level, public_high, epsilon, bound_share, rng):
    """Honest: Smith's mechanism with the Gumbel-max trick, Laplace noise as a difference of exponentials."""
    x = np.sort(np.clip(np.asarray(values, dtype=float), 0.0, public_high))
    n = x.size
    widths = np.diff(np.concatenate([[0.0], x, [public_high]]))
    with np.errstate(divide="ignore"):
        logits = np.log(widths) - bound_share * epsilon * np.abs(np.arange(n + 1) - level * n) / 2.0
    i = int(np.argmax(logits + rng.gumbel(size=n + 1)))
    upper = float(x[i - 1] if i else 0.0) + rng.random() * widths[i]
    b = upper / (n * (1 - bound_share) * epsilon)
    return upper, float(np.minimum(x, upper).mean()) + b * (rng.exponential() - rng.exponential())


_SQRT2 = math.sqrt(2.0)
_BM = {
    "non-private (size): the quantile's range capped at the data's maximum from 5,000 values (referee s37rB)":
        lambda *a: _bound_mean(*a, sizes=(5000, math.inf), cap_at_max=True),
    "non-private (size): the quantile's range capped at the data's maximum for 5,000-15,000 values":
        lambda *a: _bound_mean(*a, sizes=(5000, 15_000), cap_at_max=True),
    "non-private (size): Gaussian noise of the Laplace's sd for 3,001-19,999 values (referee s37rB)":
        lambda *a: _bound_mean(*a, sizes=(3001, 19_999), noise=lambda rng: rng.normal(0.0, _SQRT2)),
    "non-private (size): Gaussian noise of sd b for 5,000-15,000 values":
        lambda *a: _bound_mean(*a, sizes=(5000, 15_000), noise=lambda rng: rng.normal()),
    "non-private (calls): one noise draw reused for 3,001-19,999 values (referee s37rB)": _reused_noise(3001, 19_999),
    "non-private (calls): one noise draw reused for 2,000-9,000 values": _reused_noise(2000, 9000),
    "too little noise (size): half the scale for 3,001-19,999 values (referee s37rB)":
        lambda *a: _bound_mean(*a, sizes=(3001, 19_999), noise=lambda rng: rng.laplace(0.0, 0.5)),
    "too little noise (size): 0.6 of the scale for 5,000-12,000 values":
        lambda *a: _bound_mean(*a, sizes=(5000, 12_000), noise=lambda rng: rng.laplace(0.0, 0.6)),
    "too little noise (size): half the scale from 30,000 values (referee s37rB)":
        lambda *a: _bound_mean(*a, sizes=(30_000, math.inf), noise=lambda rng: rng.laplace(0.0, 0.5)),
    "too little noise (size): half the scale for 40,000-90,000 values":
        lambda *a: _bound_mean(*a, sizes=(40_000, 90_000), noise=lambda rng: rng.laplace(0.0, 0.5)),
    "twice epsilon (size): the whole epsilon on the bound from 30,000 values (referee s37rB)":
        lambda *a: _bound_mean(*a, sizes=(30_000, math.inf), bound_epsilon=lambda e, s: e),
    "twice epsilon (size): the whole epsilon on the bound for 40,000-90,000 values":
        lambda *a: _bound_mean(*a, sizes=(40_000, 90_000), bound_epsilon=lambda e, s: e),
    "twice epsilon (size): the whole epsilon on the mean from 30,000 values (referee s37rB)":
        lambda *a: _bound_mean(*a, sizes=(30_000, math.inf), mean_epsilon=lambda e, s: e),
    "twice epsilon (size): the whole epsilon on the mean for 40,000-90,000 values":
        lambda *a: _bound_mean(*a, sizes=(40_000, 90_000), mean_epsilon=lambda e, s: e),
    # Referee s37rB's Gaussian (sd sqrt(2) b or b) and truncated (4 scales) noise from 25,000-30,000 values pass:
    # a stated limit (_power_lesson07, the s37rB 07.4 row). Below 16,000 values they fail:
    "non-private (size): Laplace noise truncated at 4 scales for 3,001-16,000 values":
        lambda *a: _bound_mean(*a, sizes=(3001, 16_000), noise=_truncated(4.0)),
    "non-private (size): the exact quantile plus a jitter of 1e-3 to 4e-3 for 30,000-200,000 values "
    "(referee s37rB)": lambda *a: _bound_mean(*a, sizes=(30_000, 200_000), jitter=("linear", 0.001, 0.004)),
    "non-private (size): the exact quantile ('higher') plus a jitter of 1e-4 to 9e-4 from 30,000 values "
    "(referee s37rB)": lambda *a: _bound_mean(*a, sizes=(30_000, math.inf), jitter=("higher", 0.0001, 0.0009)),
    "non-private (size): the exact quantile plus a jitter of 0.01 to 0.02 for 50,000-100,000 values":
        lambda *a: _bound_mean(*a, sizes=(50_000, 100_000), jitter=("linear", 0.01, 0.02)),
}

MORE_WRONG_ANSWERS = {"07.1": _RR, "07.4": _BM}
HONEST = {"07.1": {"log-space comparison, uint8 reports (referee s37rB)": _rr_logspace},
          "07.4": {"Smith's mechanism by hand, the Gumbel-max trick (referee s37rB)": _smith_by_hand}}
