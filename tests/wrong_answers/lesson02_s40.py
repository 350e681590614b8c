"""Wrong answers to 02.1 and 02.4 (referee s40rA): call patterns hidden where only the band sweep or the mid-sizes
look (D2, D3: exact in every k-th call, mirrored or reused draws, noise rounded to a grid before it is added, for
small sensitivities or epsilons, values far from 0 or 120,000 to 1,000,000 values), and clipping skipped on large
arrays whose few out-of-bound values a sample does not show, or at some sizes (D1).

The referee's accepted answers and members of the same classes with other numbers. Each stateful answer keeps its
state in a closure. Collected through ``MORE_WRONG_ANSWERS`` (see :func:`wrong_answers.collect_wrong_answers`).
"""

import numpy as np

from wrong_answers.lesson02 import _largest

WRONG_ANSWERS: dict = {}


def _laplace_scale(value, sensitivity, epsilon):
    return sensitivity / epsilon


def _sum_scale(values, lower, upper, epsilon):
    return _largest(lower, upper) / epsilon


def _laplace_exact(value, sensitivity, epsilon):
    return float(value)


def _sum_exact(values, lower, upper, epsilon):
    return float(np.clip(values, lower, upper).sum())


def _pattern(exact, scale, inside, kind, period=2):
    """Laplace noise, but where ``inside(*args)`` the calls follow ``kind``: "mirror" (the call ``period // 2``
    later negates the draw), "reuse" (the same draw twice) or "exact" (every ``period``-th call has no noise)."""
    state = {"count": 0, "draws": []}

    def answer(*args):
        rng, args = args[-1], args[:-1]
        if not inside(*args):
            return exact(*args) + rng.laplace(0.0, scale(*args))
        state["count"] += 1
        if kind == "exact":
            return exact(*args) if state["count"] % period == 0 else exact(*args) + rng.laplace(0.0, scale(*args))
        draws, lag = state["draws"], period // 2
        if len(draws) >= lag:
            z = draws.pop(0)
            z = -z if kind == "mirror" else z
        else:
            z = rng.laplace()
            draws.append(z)
        return exact(*args) + z * scale(*args)
    return answer


def _on_grid(exact, scale, inside, share):
    """Laplace noise rounded to ``share`` scales before it is added, where ``inside(*args)``."""
    def answer(*args):
        rng, args = args[-1], args[:-1]
        noise = rng.laplace(0.0, scale(*args))
        if inside(*args):
            step = scale(*args) * share
            noise = float(np.round(noise / step) * step)
        return exact(*args) + noise
    return answer


def _clip_if_seen(sample):
    """02.4: clips only when ``sample(values)`` holds a value outside the bounds, else sums the raw values."""
    def dp_bounded_sum(values, lower, upper, epsilon, rng):
        seen = np.asarray(sample(values, rng))
        outside = seen.size and (seen.min() < lower or seen.max() > upper)
        total = float(np.clip(values, lower, upper).sum()) if outside else float(np.sum(values))
        return total + rng.laplace(0.0, _largest(lower, upper) / epsilon)
    return dp_bounded_sum


def _clip_unless(skip):
    """02.4: sums the raw values when ``skip(n)``."""
    def dp_bounded_sum(values, lower, upper, epsilon, rng):
        total = float(np.sum(values)) if skip(len(values)) else float(np.clip(values, lower, upper).sum())
        return total + rng.laplace(0.0, _largest(lower, upper) / epsilon)
    return dp_bounded_sum


def _small_sensitivity(limit):
    return lambda value, sensitivity, epsilon: sensitivity < limit


def _small_epsilon(limit):
    return lambda *args: args[-1] < limit


def _far_value(ratio):
    return lambda value, sensitivity, epsilon: abs(value) > ratio * sensitivity / epsilon


def _sizes(low, high):
    return lambda values, lower, upper, epsilon: low < len(values) < high


_L = (_laplace_exact, _laplace_scale)
_S = (_sum_exact, _sum_scale)

MORE_WRONG_ANSWERS = {
    "02.1": {
        "non-private (calls): antithetic pairs for sensitivity < 1e-3 (s40rA D2)":
            _pattern(*_L, _small_sensitivity(1e-3), "mirror"),
        "non-private (calls): mirrors 3 calls apart for epsilon < 2e-4": _pattern(*_L, _small_epsilon(2e-4), "mirror", 6),
        "non-private (calls): one draw for two calls for sensitivity < 1e-3 (s40rA D2)":
            _pattern(*_L, _small_sensitivity(1e-3), "reuse"),
        "non-private (calls): one draw for two calls 2 apart for epsilon < 1e-4":
            _pattern(*_L, _small_epsilon(1e-4), "reuse", 4),
        "non-private (calls): exact every 10th call for sensitivity < 1e-3 (s40rA D2)":
            _pattern(*_L, _small_sensitivity(1e-3), "exact", 10),
        "non-private (calls): exact every 20th call for sensitivity < 1e-3 (s40rA D2)":
            _pattern(*_L, _small_sensitivity(1e-3), "exact", 20),
        "non-private (calls): exact every 15th call for epsilon < 3e-4": _pattern(*_L, _small_epsilon(3e-4), "exact", 15),
        "(grid) noise rounded to 1e-4 scales for sensitivity < 1e-3 (s40rA D2)":
            _on_grid(*_L, _small_sensitivity(1e-3), 1e-4),
        "(grid) noise rounded to 1e-4 scales for epsilon < 5e-4 (s40rA D2)": _on_grid(*_L, _small_epsilon(5e-4), 1e-4),
        "(grid) noise rounded to 1.2345e-3 scales beyond 1e7 scales from 0 (s40rA D4)":
            _on_grid(*_L, _far_value(1e7), 1.2345e-3),
        "(grid) noise rounded to 3.7e-5 scales for sensitivity < 3e-5": _on_grid(*_L, _small_sensitivity(3e-5), 3.7e-5),
        "(grid) noise rounded to 2.2e-4 scales beyond 1e5 scales from 0": _on_grid(*_L, _far_value(1e5), 2.2e-4),
        "non-private (data): float32 arithmetic, np.float32(value) + noise (s40rA D5)":
            lambda value, sensitivity, epsilon, rng: np.float32(value) + rng.laplace(0.0, sensitivity / epsilon),
    },
    "02.4": {
        "non-private (data): clips only if the first 1,000 values show one outside (s40rA D1)":
            _clip_if_seen(lambda values, rng: values[:1000]),
        "non-private (data): clips only if 500 values drawn at random show one outside":
            _clip_if_seen(lambda values, rng: values[rng.integers(0, len(values), 500)] if len(values) else values),
        "non-private (data): clips only if the first and last 100 values show one outside":
            _clip_if_seen(lambda values, rng: np.concatenate([values[:100], values[-100:]])),
        "non-private (size): no clipping for 125,000 to 999,999 values (s40rA D1)": _clip_unless(
            lambda n: 125_000 < n < 999_999),
        "non-private (size): no clipping above 200,000 values unless n is a multiple of 1,000 (s40rA D1)":
            _clip_unless(lambda n: n > 200_000 and n % 1000),
        "non-private (size): no clipping for 300,000 to 400,000 values": _clip_unless(lambda n: 300_000 < n < 400_000),
        "non-private (size): no clipping for 5,000 to 8,000 values": _clip_unless(lambda n: 5_000 < n < 8_000),
        "(grid) noise rounded to 1e-4 scales for 120,000 to 1,000,000 values (s40rA D3)":
            _on_grid(*_S, _sizes(120_000, 1_000_000), 1e-4),
        "(grid) noise rounded to 1e-4 scales for epsilon < 0.009 (s40rA D3)": _on_grid(*_S, _small_epsilon(0.009), 1e-4),
        "(grid) noise rounded to 1.2345e-3 scales for epsilon < 0.003": _on_grid(*_S, _small_epsilon(0.003), 1.2345e-3),
        "non-private (calls): mirrors 2 calls apart for 120,000 to 1,000,000 values (s40rA D3)":
            _pattern(*_S, _sizes(120_000, 1_000_000), "mirror", 4),
        "non-private (calls): mirrors 5 calls apart for 300,000 to 1,000,000 values":
            _pattern(*_S, _sizes(300_000, 1_000_000), "mirror", 10),
        "non-private (calls): antithetic pairs for epsilon < 0.009 (s40rA D3)":
            _pattern(*_S, _small_epsilon(0.009), "mirror"),
        "non-private (calls): one draw for two calls for epsilon < 0.009 (s40rA D3)":
            _pattern(*_S, _small_epsilon(0.009), "reuse"),
        "non-private (calls): one draw for two calls 3 apart for epsilon < 0.004":
            _pattern(*_S, _small_epsilon(0.004), "reuse", 6),
        "non-private (calls): exact every 10th call for epsilon < 0.009 (s40rA D3)":
            _pattern(*_S, lambda values, lower, upper, epsilon: epsilon < 0.009 and len(values) <= 120_000, "exact", 10),
        "non-private (calls): exact every 12th call for epsilon < 0.005": _pattern(*_S, _small_epsilon(0.005), "exact", 12),
    },
}
