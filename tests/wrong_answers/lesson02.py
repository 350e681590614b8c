"""Wrong answers to lesson 02's exercises: each a mistake a student could make, and each must be rejected.

Neighbours differ by adding or removing one person. Signatures:
02.1 ``laplace_mechanism(value, sensitivity, epsilon, rng)``; 02.2 ``sensitivity(query, lower, upper, n)``;
02.3 ``smallest_epsilon(sensitivity, max_error, confidence)``; 02.4 ``dp_bounded_sum(values, lower, upper, epsilon, rng)``.
"""

import math

import numpy as np

from mic_dp_helpers.mechanisms import noise as mechanisms
from wrong_answers._cheats import cheats
from wrong_answers import _hiding as hide
from wrong_answers._noise_misuse import cycled_laplace, few_seeds, sometimes_noiseless


def _largest(lower, upper):
    return max(abs(lower), abs(upper))


def _replace_one_sensitivity(query, lower, upper, n):
    return {"count": 1.0, "sum": upper - lower, "mean": (upper - lower) / n}[query]


def _sum_sensitivity_for_mean(query, lower, upper, n):
    return {"count": 1.0, "sum": _largest(lower, upper), "mean": _largest(lower, upper)}[query]


def _upper_only(query, lower, upper, n):
    return {"count": 1.0, "sum": upper, "mean": upper / n}[query]


def _count_is_n(query, lower, upper, n):
    return {"count": float(n), "sum": _largest(lower, upper), "mean": _largest(lower, upper) / n}[query]


def _floor_divided_mean(query, lower, upper, n):  # integer bounds: 5 // 100 is 0
    largest = _largest(lower, upper)
    integral = isinstance(largest, (int, np.integer))
    return {"count": 1.0, "sum": largest, "mean": largest // n if integral else largest / n}[query]


def _floor_divided_epsilon(s, m, c):  # integer sensitivity and error: 1 // 5 is 0
    ratio = s // m if isinstance(s, (int, np.integer)) and isinstance(m, (int, np.integer)) else s / m
    return ratio * math.log(1 / (1 - c))


def _correct_laplace(value, sensitivity, epsilon, rng):
    return value + rng.laplace(0.0, sensitivity / epsilon)


def _correct_sum(values, lower, upper, epsilon, rng):
    return float(np.clip(values, lower, upper).sum()) + rng.laplace(0.0, _largest(lower, upper) / epsilon)


def _sensitivity_at_least_upper(values, lower, upper, epsilon, rng):  # non-private when |lower| is the larger bound
    clipped = np.clip(values, lower, upper)
    return float(clipped.sum()) + rng.laplace(0.0, max(abs(upper), float(np.abs(clipped).max())) / epsilon)


def _clip_in_place(values, lower, upper, epsilon, rng):
    np.clip(values, lower, upper, out=values)
    return float(values.sum()) + rng.laplace(0.0, _largest(lower, upper) / epsilon)


def _clamped_laplace(value, sensitivity, epsilon, rng):  # non-private: noise bounded at 5 scales
    scale = sensitivity / epsilon
    return value + float(np.clip(rng.laplace(0.0, scale), -5 * scale, 5 * scale))


_ANTITHETIC = {}


def _antithetic(value, sensitivity, epsilon, rng):  # every second release reuses the previous draw, negated
    key = id(rng)
    if key in _ANTITHETIC:
        return value - _ANTITHETIC.pop(key)
    noise = rng.laplace(0.0, sensitivity / epsilon)
    _ANTITHETIC[key] = noise
    return value + noise


def _bounds_from_data(values, lower, upper, epsilon, rng):  # non-private: sensitivity from the data's range
    values = np.asarray(values, dtype=float)
    clipped = np.clip(values, lower, upper)
    return float(clipped.sum()) + rng.laplace(0.0, np.abs(clipped).max() / epsilon)


def _clamped_sum(values, lower, upper, epsilon, rng):  # non-private: noise bounded at 4 scales
    scale = max(abs(lower), abs(upper)) / epsilon
    return float(np.clip(values, lower, upper).sum()) + float(np.clip(rng.laplace(0.0, scale), -4 * scale, 4 * scale))


def _sum_with_library(values, lower, upper, epsilon, rng):
    return mechanisms.laplace_mechanism(float(np.clip(values, lower, upper).sum()), max(abs(lower), abs(upper)),
                                        epsilon, rng)


def _exact_value(value, sensitivity, epsilon, rng):
    return float(value)


def _laplace_scale(value, sensitivity, epsilon, rng):
    return sensitivity / epsilon


def _exact_sum(values, lower, upper, epsilon, rng):
    return float(np.clip(values, lower, upper).sum())


def _sum_scale(values, lower, upper, epsilon, rng):
    return _largest(lower, upper) / epsilon


def _laplace_from_bounded_parts(value, sensitivity, epsilon, rng):  # difference of two capped exponentials
    scale = sensitivity / epsilon
    return value + scale * (min(rng.exponential(), 9.0) - min(rng.exponential(), 9.0))


def _scale_from_clipped_data_above_1000(values, lower, upper, epsilon, rng):
    """The largest |clipped value| as the sensitivity, for more than 1,000 values (the declared bound below)."""
    clipped = np.clip(values, lower, upper)
    scale = np.abs(clipped).max() if len(values) > 1000 else max(abs(lower), abs(upper))
    return float(clipped.sum() + rng.laplace(0.0, scale / epsilon))


_HIDDEN_021 = {  # classes of issue 26: size/parameters, shape, calls
    "non-private (parameters): no noise for epsilon of 5 or more":
        hide.exact_when(_correct_laplace, _exact_value, lambda v, s, e, rng: e >= 5),
    "non-private (parameters): no noise for epsilon below 0.05":
        hide.exact_when(_correct_laplace, _exact_value, lambda v, s, e, rng: e < 0.05),
    "non-private (parameters): no noise when sensitivity / epsilon exceeds 1000":
        hide.exact_when(_correct_laplace, _exact_value, lambda v, s, e, rng: s / e > 1000),
    "non-private (parameters): no noise for sensitivity below 0.01":
        hide.exact_when(_correct_laplace, _exact_value, lambda v, s, e, rng: s < 0.01),
    "non-private (shape): noise clipped at 10 scales": hide.clipped(_correct_laplace, _exact_value, _laplace_scale, 10),
    "non-private (shape): noise clipped at 8 scales": hide.clipped(_correct_laplace, _exact_value, _laplace_scale, 8),
    "non-private (shape): Laplace from exponentials capped at 9": _laplace_from_bounded_parts,
    "non-private (shape): a 1% point mass half a scale off": hide.point_mass(_correct_laplace, _exact_value, _laplace_scale),
    "non-private (shape): 10% too little noise": hide.shrunk(_correct_laplace, _exact_value, 0.9),
    "non-private (calls): noise correlated 0.1 with the previous call": hide.correlated(_correct_laplace, _exact_value, 0.1),
    "non-private (calls): odd and even calls average to the exact value": hide.antithetic(_correct_laplace, _exact_value),
    "non-private (calls): a new generator's first call is exact": hide.first_call_exact(_correct_laplace, _exact_value),
    "non-private (parameters): no noise for epsilon between 1.5 and 3 (referee 020409)":
        hide.exact_when(_correct_laplace, _exact_value, lambda v, s, e, rng: 1.5 < e < 3),
}

_HIDDEN_024 = {
    "non-private (size): the exact sum once n >= 100":
        hide.exact_when(_correct_sum, _exact_sum, lambda values, lo, up, e, rng: len(values) >= 100),
    "non-private (size): the exact sum once n >= 10,000":
        hide.exact_when(_correct_sum, _exact_sum, lambda values, lo, up, e, rng: len(values) >= 10_000),
    "non-private (size): the exact sum for a single value":
        hide.exact_when(_correct_sum, _exact_sum, lambda values, lo, up, e, rng: len(values) <= 1),
    "non-private (size and parameters): the exact sum when n >= 1000 and epsilon >= 5":
        hide.exact_when(_correct_sum, _exact_sum, lambda values, lo, up, e, rng: len(values) >= 1000 and e >= 5),
    "non-private (parameters): the exact sum for epsilon of 5 or more":
        hide.exact_when(_correct_sum, _exact_sum, lambda values, lo, up, e, rng: e >= 5),
    "non-private (parameters): the exact sum for epsilon below 0.05":
        hide.exact_when(_correct_sum, _exact_sum, lambda values, lo, up, e, rng: e < 0.05),
    "non-private (data): integer data summed without noise":
        hide.exact_when(_correct_sum, _exact_sum, lambda values, lo, up, e, rng: values.dtype.kind == "i"),
    "non-private (shape): noise clipped at 8 scales": hide.clipped(_correct_sum, _exact_sum, _sum_scale, 8),
    "non-private (shape): a 1% point mass half a scale off": hide.point_mass(_correct_sum, _exact_sum, _sum_scale),
    "non-private (shape): 10% too little noise": hide.shrunk(_correct_sum, _exact_sum, 0.9),
    "non-private (calls): noise correlated 0.1 with the previous call": hide.correlated(_correct_sum, _exact_sum, 0.1),
    "non-private (calls): odd and even calls average to the exact sum": hide.antithetic(_correct_sum, _exact_sum),
    "non-private (calls): a new generator's first call is exact": hide.first_call_exact(_correct_sum, _exact_sum),
    "non-private (parameters): the exact sum for epsilon between 1.5 and 3 (referee 020409)":
        hide.exact_when(_correct_sum, _exact_sum, lambda values, lo, up, e, rng: 1.5 < e < 3),
    "non-private (size): the exact sum for 500 to 5,000 values (referee 020409)":
        hide.exact_when(_correct_sum, _exact_sum, lambda values, lo, up, e, rng: 500 <= len(values) <= 5000),
    "non-private (data): sensitivity from the clipped data above 1,000 values (referee 020409)":
        _scale_from_clipped_data_above_1000,
}


WRONG_ANSWERS = {
    "02.1": {
        "no noise": lambda value, sensitivity, epsilon, rng: float(value),
        "inverted scale epsilon/sensitivity": lambda value, sensitivity, epsilon, rng:
            value + rng.laplace(0.0, epsilon / sensitivity),
        "Gaussian noise with the same variance": lambda value, sensitivity, epsilon, rng:
            value + rng.normal(0.0, math.sqrt(2) * sensitivity / epsilon),
        "noise not centred (exponential)": lambda value, sensitivity, epsilon, rng:
            value + rng.exponential(sensitivity / epsilon),
        "noise not centred (absolute value)": lambda value, sensitivity, epsilon, rng:
            value + abs(rng.laplace(0.0, sensitivity / epsilon)),
        "returns the noise only": lambda value, sensitivity, epsilon, rng: rng.laplace(0.0, sensitivity / epsilon),
        "scale ignores sensitivity": lambda value, sensitivity, epsilon, rng: value + rng.laplace(0.0, 1 / epsilon),
        "standard deviation set to the scale": lambda value, sensitivity, epsilon, rng:
            value + rng.laplace(0.0, sensitivity / epsilon / math.sqrt(2)),
        "uniform noise with the same variance": lambda value, sensitivity, epsilon, rng:
            value + rng.uniform(-1, 1) * math.sqrt(6) * sensitivity / epsilon,
        "ignores the rng argument": lambda value, sensitivity, epsilon, rng:
            value + np.random.default_rng().laplace(0.0, sensitivity / epsilon),
        "returns a list": lambda value, sensitivity, epsilon, rng: [value + rng.laplace(0.0, sensitivity / epsilon)],
        "non-private: noise clamped to 5 scales": _clamped_laplace,
        "non-private: antithetic draws (each draw used twice)": _antithetic,
        "non-private: the exact value in 1% of calls": sometimes_noiseless(_correct_laplace, lambda v, s, e, rng: float(v)),
        "non-private: draws recycled every 10,000 calls": cycled_laplace,
        "non-private: a generator from 65,536 seeds": few_seeds(_correct_laplace),
        "non-private: no noise for values beyond 1e7": lambda value, sensitivity, epsilon, rng:
            float(value) if abs(value) > 1e7 else _correct_laplace(value, sensitivity, epsilon, rng),
        "non-private: no noise for epsilon of 500 or more": lambda value, sensitivity, epsilon, rng:
            float(value) if epsilon >= 500 else _correct_laplace(value, sensitivity, epsilon, rng),
        **_HIDDEN_021,
        **cheats(lambda value, sensitivity, epsilon, rng: float(value), forbidden=mechanisms.laplace_mechanism),
    },
    "02.2": {
        "constant 1": lambda query, lower, upper, n: 1.0,
        "replace-one neighbours (upper - lower)": _replace_one_sensitivity,
        "mean without dividing by n": _sum_sensitivity_for_mean,
        "upper bound only": _upper_only,
        "count sensitivity is n": _count_is_n,
        "returns a string": lambda query, lower, upper, n: "1",
        "largest bound without abs": lambda query, lower, upper, n: {"count": 1.0, "sum": max(lower, upper),
                                                                     "mean": max(lower, upper) / n}[query],
        "(data) a sum's sensitivity of at least 1 (tiny bounds)": lambda query, lower, upper, n: {
            "count": 1.0, "sum": max(1.0, _largest(lower, upper)), "mean": max(1.0, _largest(lower, upper)) / n}[query],
        "(data) integer bounds: the mean by floor division": _floor_divided_mean,
        "(data) rounded to float32": lambda query, lower, upper, n: float(np.float32(
            {"count": 1.0, "sum": _largest(lower, upper), "mean": _largest(lower, upper) / n}[query])),
        **cheats(lambda query, lower, upper, n: 1.0),
    },
    "02.3": {
        "confidence instead of 1 - confidence": lambda s, m, c: s * math.log(1 / c) / m,
        "forgets the sensitivity": lambda s, m, c: math.log(1 / (1 - c)) / m,
        "inverted": lambda s, m, c: m / (s * math.log(1 / (1 - c))),
        "one-sided tail": lambda s, m, c: s * math.log(1 / (2 * (1 - c))) / m,
        "constant": lambda s, m, c: 1.0,
        "Gaussian quantile": lambda s, m, c: s * 2.0 / m,
        "error over sensitivity": lambda s, m, c: s / m,
        "log(1 - c) sign lost, rounded confidence": lambda s, m, c: s * math.log(1 / (1 - round(c, 3))) / m,
        "(parameters) confidence below 1% raised to 1%": lambda s, m, c: s * math.log(1 / (1 - max(c, 0.01))) / m,
        "(data) 1 - confidence in float32": lambda s, m, c: s * float(-np.log(np.float32(1 - c))) / m,
        "(data) integer sensitivity over integer error by floor division": _floor_divided_epsilon,
        **cheats(lambda s, m, c: 1.0),
    },
    "02.4": {
        "no clipping": lambda values, lower, upper, epsilon, rng:
            float(np.sum(values)) + rng.laplace(0.0, _largest(lower, upper) / epsilon),
        "count sensitivity 1": lambda values, lower, upper, epsilon, rng:
            float(np.clip(values, lower, upper).sum()) + rng.laplace(0.0, 1 / epsilon),
        "replace-one sensitivity (upper - lower)": lambda values, lower, upper, epsilon, rng:
            float(np.clip(values, lower, upper).sum()) + rng.laplace(0.0, (upper - lower) / epsilon),
        "upper bound as sensitivity": lambda values, lower, upper, epsilon, rng:
            float(np.clip(values, lower, upper).sum()) + rng.laplace(0.0, upper / epsilon),
        "no noise": lambda values, lower, upper, epsilon, rng: float(np.clip(values, lower, upper).sum()),
        "drops values outside the bounds": lambda values, lower, upper, epsilon, rng:
            float(values[(values >= lower) & (values <= upper)].sum()) + rng.laplace(0.0, _largest(lower, upper) / epsilon),
        "clips the caller's array in place": _clip_in_place,
        "Gaussian noise with the same variance": lambda values, lower, upper, epsilon, rng:
            float(np.clip(values, lower, upper).sum()) + rng.normal(0.0, math.sqrt(2) * _largest(lower, upper) / epsilon),
        "non-private: sensitivity from the data's range": _bounds_from_data,
        "non-private: noise clamped to 4 scales": _clamped_sum,
        "non-private: the exact sum in 1% of calls": sometimes_noiseless(
            _correct_sum, lambda values, lower, upper, epsilon, rng: float(np.clip(values, lower, upper).sum())),
        "non-private: noise rounded to 0.01 before it is added": lambda values, lower, upper, epsilon, rng:
            float(np.clip(values, lower, upper).sum()) + round(float(rng.laplace(0.0, _largest(lower, upper) / epsilon)), 2),
        "non-private: sensitivity from the data, never below |upper|": _sensitivity_at_least_upper,
        **_HIDDEN_024,
        **cheats(lambda values, lower, upper, epsilon, rng: float(np.clip(values, lower, upper).sum()),
                 forbidden=_sum_with_library),
    },
}


# ---- referee redA (2026-11-27): mirrors beyond the tested lags, near-exact answers, Python ints, far sizes
def _mirrors_at_lag(correct, exact, lag):
    """Half the calls (per argument set) return the mirror of the call ``lag`` before about the exact answer."""
    history = {}

    def answer(*args):
        key = tuple(id(a) if isinstance(a, np.ndarray) else a for a in args[:-1])
        past = history.setdefault(key, [])
        i = len(past)
        release = (2 * exact(*args) - past[i - lag] if i >= lag and i % (2 * lag) >= lag
                   else correct(*args))
        past.append(release)
        return release
    return answer


def _near_exact_sometimes(correct, exact, scale, share, width):
    """The exact answer plus a jitter of at most ``width`` scales in ``share`` of the calls."""
    def answer(*args):
        rng = args[-1]
        if rng.random() < share:
            return exact(*args) + rng.uniform(-width, width) * scale(*args)
        return correct(*args)
    return answer


def _exact_for_python_ints(value, sensitivity, epsilon, rng):  # the exercise's own example passes an int
    return value if isinstance(value, int) else _correct_laplace(value, sensitivity, epsilon, rng)


def _scale_from_clipped_data_above(limit):  # the largest |clipped value| as the sensitivity above `limit` values
    def answer(values, lower, upper, epsilon, rng):
        clipped = np.clip(values, lower, upper)
        largest = float(np.abs(clipped).max()) if len(values) > limit else _largest(lower, upper)
        return float(clipped.sum() + rng.laplace(0.0, largest / epsilon))
    return answer


WRONG_ANSWERS["02.1"].update({
    "non-private (calls): half the calls mirror the call 5 before (redA)":
        _mirrors_at_lag(_correct_laplace, _exact_value, 5),
    "non-private (calls): half the calls mirror the call 8 before (redA)":
        _mirrors_at_lag(_correct_laplace, _exact_value, 8),
    "non-private (shape): the value plus a 1e-3-scale jitter in 1% of calls (redA)":
        _near_exact_sometimes(_correct_laplace, _exact_value, _laplace_scale, 0.01, 1e-3),
    "non-private (shape): the value plus a 1e-2-scale jitter in 0.5% of calls (redA)":
        _near_exact_sometimes(_correct_laplace, _exact_value, _laplace_scale, 0.005, 1e-2),
    "non-private (data): no noise when the value is a Python int (redA)": _exact_for_python_ints,
})
WRONG_ANSWERS["02.4"].update({
    "non-private (calls): half the calls mirror the call 5 before (redA)": _mirrors_at_lag(_correct_sum, _exact_sum, 5),
    "non-private (size): the exact sum above 150,000 values (redA)":
        hide.exact_when(_correct_sum, _exact_sum, lambda values, lo, up, e, rng: len(values) > 150_000),
    "non-private (size): half the noise above 150,000 values (redA)": lambda values, lower, upper, epsilon, rng:
        _exact_sum(values, lower, upper, epsilon, rng) + rng.laplace(
            0.0, _sum_scale(values, lower, upper, epsilon, rng) * (0.5 if len(values) > 150_000 else 1.0)),
    "non-private (data): sensitivity from the clipped data above 130,000 values (redA)":
        _scale_from_clipped_data_above(130_000),
    "non-private (data): values not clipped above 150,000 values (redA)": lambda values, lower, upper, epsilon, rng:
        (float(np.sum(values)) if len(values) > 150_000 else _exact_sum(values, lower, upper, epsilon, rng))
        + rng.laplace(0.0, _sum_scale(values, lower, upper, epsilon, rng)),
    "non-private (shape): the sum plus a 1e-3-scale jitter in 1% of calls (redA)":
        _near_exact_sometimes(_correct_sum, _exact_sum, _sum_scale, 0.01, 1e-3),
})


# ---- referee rt0206 (2026-11-27): noise shared between different inputs on one generator (the other stages give
# each input its own generator), exact for a kind of value or bound, Laplace marginals correlated at lag 5-6.
def _across_inputs(correct, exact, combine):
    """Per generator, the noise of the last call on another input is reused through ``combine(noise)``."""
    last = {}

    def answer(*args):
        rng, centre = args[-1], exact(*args)
        key = id(rng)
        seen = last.get(key)
        if seen is not None and seen[0] is rng and seen[1] != centre:
            noise = combine(seen[2])
            last[key] = (rng, centre, seen[2])
            return centre + noise
        release = correct(*args)
        last[key] = (rng, centre, release - centre)
        return release
    return answer


def _copula_at_lag(exact, scale, lag, rho=-0.6):
    """Exact Laplace marginals, a Gaussian copula correlated ``rho`` with the call ``lag`` before (per generator)."""
    history = {}

    def answer(*args):
        rng = args[-1]
        seen = history.setdefault(id(rng), (rng, []))
        if seen[0] is not rng:
            seen = history[id(rng)] = (rng, [])
        past = seen[1]
        g = rng.standard_normal()
        if len(past) >= lag:
            g = rho * past[-lag] + math.sqrt(1 - rho * rho) * g
        past.append(g)
        u = 0.5 * math.erfc(-g / math.sqrt(2)) - 0.5  # in (-1/2, 1/2)
        return exact(*args) - scale(*args) * math.copysign(math.log1p(-2 * abs(u)), u)
    return answer


for _id, _correct, _exact, _scale, _change, _lag in (
        ("02.1", _correct_laplace, _exact_value, _laplace_scale, "the value changes", 5),
        ("02.4", _correct_sum, _exact_sum, _sum_scale, "the data change", 6)):
    WRONG_ANSWERS[_id].update({
        f"non-private (calls): noise reused when {_change} on the same generator (rt0206)":
            _across_inputs(_correct, _exact, lambda noise: noise),
        f"non-private (calls): noise negated when {_change} on the same generator (rt0206)":
            _across_inputs(_correct, _exact, lambda noise: -noise),
        f"non-private (calls): Laplace marginals correlated -0.6 with the call {_lag} before (rt0206)":
            _copula_at_lag(_exact, _scale, _lag),
    })
del _id, _correct, _exact, _scale, _change, _lag
WRONG_ANSWERS["02.1"].update({
    "non-private (calls): noise reused doubled when the value changes on the same generator (rt0206)":
        _across_inputs(_correct_laplace, _exact_value, lambda noise: 2 * noise),
    "non-private (data): no noise when the value is an integral float (rt0206)":
        hide.exact_when(_correct_laplace, _exact_value,
                        lambda value, s, e, rng: isinstance(value, float) and value.is_integer()),
    "non-private (data): no noise for NumPy integer values (rt0206)":
        hide.exact_when(_correct_laplace, _exact_value, lambda value, s, e, rng: isinstance(value, np.integer)),
    "non-private (size): no noise for values 1e9 scales or more from 0 (rt0206)":
        hide.exact_when(_correct_laplace, _exact_value, lambda value, s, e, rng: abs(value) >= 1e9 * s / e),
})
WRONG_ANSWERS["02.4"].update({
    "non-private (data): the exact sum for integer bounds, as in the example (rt0206)":
        hide.exact_when(_correct_sum, _exact_sum,
                        lambda values, lo, up, e, rng: isinstance(lo, int) and isinstance(up, int)),
    "non-private (data): the exact sum for float32 values (rt0206)":
        hide.exact_when(_correct_sum, _exact_sum, lambda values, lo, up, e, rng: values.dtype == np.float32),
    "non-private (data): the exact sum when a bound is 0 (rt0206)":
        hide.exact_when(_correct_sum, _exact_sum, lambda values, lo, up, e, rng: lo == 0 or up == 0),
    "non-private (data): the exact sum for symmetric bounds (rt0206)":
        hide.exact_when(_correct_sum, _exact_sum, lambda values, lo, up, e, rng: lo == -up),
    "non-private (data): the exact sum when every value lies beyond one bound (rt0206)":
        hide.exact_when(_correct_sum, _exact_sum,
                        lambda values, lo, up, e, rng: len(values) > 1 and (np.all(values > up) or np.all(values < lo))),
})


# ---- referee s35rca: on values 1e9 scales or more from 0 the shared stage tested exactness only.
def _huge_only(answer, limit=1e8):
    """``answer`` on values ``limit`` scales or more from 0, the correct release elsewhere."""
    return lambda v, s, e, rng: answer(v, s, e, rng) if abs(v) > limit * s / e else _correct_laplace(v, s, e, rng)


WRONG_ANSWERS["02.1"].update({
    "non-private (calls): noise reused from the last other input on values 1e8 scales or more from 0 (s35rca)":
        _huge_only(_across_inputs(_correct_laplace, _exact_value, lambda noise: noise)),
    "non-private (calls): noise negated from the last other input on values 1e8 scales or more from 0 (s35rca)":
        _huge_only(_across_inputs(_correct_laplace, _exact_value, lambda noise: -noise)),
    "non-private (size): a tenth of the noise on values 1e7 scales or more from 0 (s35rca)":
        _huge_only(lambda v, s, e, rng: v + rng.laplace(0, s / e / 10), 1e7),
    "non-private (size): a fifth of the noise on values 1e9 scales or more from 0 (s35rca)":
        _huge_only(lambda v, s, e, rng: v + rng.laplace(0, s / e / 5), 1e9),
    "non-private (size): a fixed offset of half a scale on values 1e7 scales or more from 0 (s35rca)":
        _huge_only(lambda v, s, e, rng: v + 0.5 * s / e, 1e7),
})


def _data_scale_when(condition):
    """The clipped sum plus Laplace noise of scale max |clipped value| / epsilon when ``condition(values, lo, up)``."""
    def dp_bounded_sum(values, lower, upper, epsilon, rng):
        clipped = np.clip(values, lower, upper)
        if len(values) and condition(values, lower, upper):
            return float(clipped.sum()) + rng.laplace(0, max(float(np.abs(clipped).max()), 1e-12) / epsilon)
        return _correct_sum(values, lower, upper, epsilon, rng)
    return dp_bounded_sum


WRONG_ANSWERS["02.4"].update({
    "non-private (data): a scale from the clipped data for integer values (s35rca)":
        _data_scale_when(lambda v, lo, up: v.dtype.kind in "iu"),
    "non-private (data): a scale from the clipped data for 32-bit values (s35rca)":
        _data_scale_when(lambda v, lo, up: v.dtype.itemsize <= 4),
    "non-private (data): a scale from the clipped data when every value lies beyond one bound (s35rca)":
        _data_scale_when(lambda v, lo, up: len(v) > 1 and (np.all(v >= up) or np.all(v <= lo))),
    "non-private (data): 0.0 for an empty array (s35rca)": hide.exact_when(
        _correct_sum, _exact_sum, lambda values, lo, up, e, rng: len(values) == 0),
    "non-private (data): the exact sum for int32 values (s35rca)": hide.exact_when(
        _correct_sum, _exact_sum, lambda values, lo, up, e, rng: values.dtype == np.int32),
    "non-private (data): the exact sum for unsigned or 32-bit integer values (s35rca)": hide.exact_when(
        _correct_sum, _exact_sum, lambda values, lo, up, e, rng: values.dtype.kind == "u" or values.dtype == np.int32),
})


def _rescaled_when_scale_changes(exact, scale, negate=False):
    """Per generator: when the scale differs from the last call's, the last standard draw rescaled (once each)."""
    last = {}

    def answer(*args):
        rng, b = args[-1], scale(*args)
        seen = last.get(id(rng))
        if seen is not None and seen[0] is rng and abs(seen[1] - b) > 1e-9 * b:
            z = -seen[2] if negate else seen[2]
            last[id(rng)] = (rng, b, rng.laplace())
            return exact(*args) + b * z
        z = rng.laplace()
        last[id(rng)] = (rng, b, z)
        return exact(*args) + b * z
    return answer


WRONG_ANSWERS["02.1"]["non-private (calls): standard noise reused when the scale changes (s35rca)"] = (
    _rescaled_when_scale_changes(_exact_value, _laplace_scale))
WRONG_ANSWERS["02.4"].update({
    "non-private (calls): standard noise reused when the scale changes (s35rca)":
        _rescaled_when_scale_changes(_exact_sum, _sum_scale),
    "non-private (calls): standard noise negated when the scale changes (s35rca)":
        _rescaled_when_scale_changes(_exact_sum, _sum_scale, negate=True),
})
