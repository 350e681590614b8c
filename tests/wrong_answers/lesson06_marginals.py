"""Wrong answers to lesson 06's marginal exercises (06.5, 06.6): each a plausible mistake, each must be rejected."""

import math

import numpy as np


def _sigma(rho, n, replace_one):
    return math.sqrt(n * (2.0 if replace_one else 1.0) / (2 * rho))


def _bisection_low_end(rho, n, replace_one, relative=1e-10):
    """Root-finding for sigma stopped at a relative width of 1e-10, returning the end that spends too much."""
    spent = lambda sigma: n * (2.0 if replace_one else 1.0) / (2 * sigma * sigma)  # noqa: E731
    low, high = 1e-300, 1.0
    while spent(high) > rho:
        high *= 2
    low = high / 2
    while high - low > relative * high:
        middle = (low + high) / 2
        low, high = (middle, high) if spent(middle) > rho else (low, middle)
    return low


def _quantile_bins(values, lower, upper, n_bins):
    edges = np.quantile(values, np.linspace(0, 1, n_bins + 1))
    return np.clip(np.searchsorted(edges, values, side="right") - 1, 0, n_bins - 1)


def _min_max_bins(values, lower, upper, n_bins):
    edges = np.linspace(values.min(), values.max(), n_bins + 1)
    return np.clip(np.searchsorted(edges, values, side="right") - 1, 0, n_bins - 1)


def _floor_without_clip(values, lower, upper, n_bins):
    return np.floor((values - lower) / (upper - lower) * n_bins).astype(int)


def _upper_in_extra_bin(values, lower, upper, n_bins):
    clipped = np.clip(values, lower, upper)
    return np.floor((clipped - lower) / (upper - lower) * n_bins).astype(int)


def _one_bin_short(values, lower, upper, n_bins):
    edges = np.linspace(lower, upper, n_bins)  # n_bins edges make n_bins - 1 bins
    return np.clip(np.searchsorted(edges, values, side="right") - 1, 0, max(n_bins - 2, 0))


def _midpoints(values, lower, upper, n_bins):
    width = (upper - lower) / n_bins
    index = np.clip(np.floor((values - lower) / width), 0, n_bins - 1)
    return lower + (index + 0.5) * width


def _right_closed(values, lower, upper, n_bins):
    edges = np.linspace(lower, upper, n_bins + 1)
    return np.clip(np.searchsorted(edges, values, side="left") - 1, 0, n_bins - 1)


def _one_based(values, lower, upper, n_bins):
    edges = np.linspace(lower, upper, n_bins + 1)
    return np.clip(np.searchsorted(edges, values, side="right"), 1, n_bins)


def _data_range_inside_bounds(values, lower, upper, n_bins):
    """Non-private: narrows the public range to the data's own min and max when they lie inside it."""
    values = np.asarray(values, dtype=float)
    low, high = max(lower, float(values.min())), min(upper, float(values.max()))
    if high <= low:
        low, high = lower, upper
    return np.clip(np.floor((values - low) / (high - low) * n_bins).astype(int), 0, n_bins - 1)


def _clips_in_place(values, lower, upper, n_bins):
    np.clip(values, lower, upper, out=values)
    return np.clip(np.floor((values - lower) / (upper - lower) * n_bins).astype(int), 0, n_bins - 1)


def _quantile_bins_when_long(values, lower, upper, n_bins):  # referee: public bins only for short arrays
    values = np.asarray(values, dtype=float)
    if len(values) <= 100:
        width = (upper - lower) / n_bins
        return np.clip(np.floor((values - lower) / width).astype(int), 0, n_bins - 1)
    return _quantile_bins(values, lower, upper, n_bins)


WRONG_ANSWERS = {
    "06.5": {
        "rho read as 2 rho: sqrt(2) too much noise under both relations (redA)": lambda rho, n, replace_one:
            math.sqrt(n * (2.0 if replace_one else 1.0) / rho),
        "right only below 600 marginals (referee)": lambda rho, n, replace_one: (
            _sigma(rho, n, replace_one) if n < 600 else 1.0),
        "ignores the neighbour relation": lambda rho, n, replace_one: math.sqrt(n / (2 * rho)),
        "no square root": lambda rho, n, replace_one: n * (2.0 if replace_one else 1.0) / (2 * rho),
        "one histogram only": lambda rho, n, replace_one: _sigma(rho, 1, replace_one),
        "forgets the 2 in 2 rho": lambda rho, n, replace_one: math.sqrt(n * (2.0 if replace_one else 1.0) / rho),
        "epsilon-style scale": lambda rho, n, replace_one: math.sqrt(n) * (math.sqrt(2) if replace_one else 1.0) / rho,
        "replace-one sensitivity 2": lambda rho, n, replace_one: math.sqrt(n * (4.0 if replace_one else 1.0) / (2 * rho)),
        "noise grows with n, not sqrt(n)": lambda rho, n, replace_one: n * _sigma(rho, 1, replace_one),
        "constant": lambda rho, n, replace_one: 1.0,
        # the referee's second pass (/tmp/ref0506/w0656.py): sensitivity 1 for a single replace-one histogram
        "replace-one sensitivity sqrt(2) only for several marginals (referee)": lambda rho, n, replace_one: (
            _sigma(rho, n, replace_one and n > 1)),
        "replace-one sensitivity 1 for one or two marginals": lambda rho, n, replace_one: (
            _sigma(rho, n, replace_one and n > 2)),
        # the referee's third pass (/tmp/ref0506/a065.py): float32 precision, off by up to 6e-8
        "float32 precision, returned as a Python float (referee)": lambda rho, n, replace_one: float(
            np.float32(_sigma(rho, n, replace_one))),
        "a NumPy float32": lambda rho, n, replace_one: np.float32(_sigma(rho, n, replace_one)),
        "rho above 100 treated as 1 (referee)": lambda rho, n, replace_one: _sigma(min(rho, 1.0) if rho > 100 else rho,
                                                                            n, replace_one),
        "right only up to a million marginals (referee)": lambda rho, n, replace_one: _sigma(rho, min(n, 10**6),
                                                                                         replace_one),
        # the referee's fourth pass (fix064): a sigma a hair too small, within the old relative 1e-7, overspends
        "sigma 4.5e-8 too small: spends 9e-8 more than rho (referee)": lambda rho, n, replace_one: (
            _sigma(rho, n, replace_one) * (1 - 4.5e-8)),
        "sigma 1e-10 too small": lambda rho, n, replace_one: _sigma(rho, n, replace_one) * (1 - 1e-10),
        "sigma 1e-11 too small": lambda rho, n, replace_one: _sigma(rho, n, replace_one) * (1 - 1e-11),
        "bisection to a relative 1e-10, returning the end that overspends": _bisection_low_end,
        "rounded to two decimals, as the worked example prints it": lambda rho, n, replace_one: round(
            _sigma(rho, n, replace_one), 2),
        "float32 arithmetic": lambda rho, n, replace_one: np.sqrt(
            np.float32(n) * np.float32(2.0 if replace_one else 1.0) / (np.float32(2) * np.float32(rho))),
    },
    "06.6": {
        "quantile bins for more than 100 values (referee)": _quantile_bins_when_long,
        "quantile bins from the data": _quantile_bins,
        "bins between the data's min and max": _min_max_bins,
        "no clipping": _floor_without_clip,
        "upper bound in an extra bin": _upper_in_extra_bin,
        "one bin short": _one_bin_short,
        "bin midpoints instead of indices": _midpoints,
        "right-closed bins": _right_closed,
        "bins numbered from 1": _one_based,
        "bins between the data's min and max when they lie inside the public bounds": _data_range_inside_bounds,
        "clips the values in place": _clips_in_place,
    },
}


# Edge cases of 06.6's check (no value, one value, int8 values, 2,000 bins): each passed the check before them.
def _in_input_dtype(values, lower, upper, n_bins):
    values = np.asarray(values)
    return np.clip((values - lower) * n_bins // (upper - lower), 0, n_bins - 1).astype(int)


def _vectorized_bins(values, lower, upper, n_bins):
    def one(value):
        return min(max(int(np.floor((value - lower) / (upper - lower) * n_bins)), 0), n_bins - 1)
    return np.vectorize(one)(values)


def _floor_bins(values, lower, upper, n_bins):
    return np.clip(np.floor((np.asarray(values, dtype=float) - lower) / (upper - lower) * n_bins), 0, n_bins - 1)


WRONG_ANSWERS["06.6"].update({
    "(data) arithmetic in the input's dtype (int8 overflows)": _in_input_dtype,
    "(size) np.vectorize without otypes (fails on no value)": _vectorized_bins,
    "(size) squeezed result (a 0-d array for one value)": lambda *a: np.squeeze(_floor_bins(*a).astype(int)),
    "(parameters) bin indices stored as uint8 (wrap above 255 bins)": lambda *a: _floor_bins(*a).astype(np.uint8),
})


# The answers that try to pass without solving (frame reading, patching, shadowed builtins), each
# wrapped around a wrong answer: every one must still be rejected.
from wrong_answers._cheats import cheats as _cheats  # noqa: E402

for _answers in WRONG_ANSWERS.values():
    _answers.update(_cheats(next(iter(_answers.values()))))

# Answers that hand the work to the course helpers the exercises name as off limits (round 2 of the red team).
from mic_dp_helpers.synthetic import binning as _binning  # noqa: E402
from mic_dp_helpers.synthetic import marginals as _marginals
from wrong_answers._cheats import calls_forbidden as _calls_forbidden  # noqa: E402

WRONG_ANSWERS["06.5"]["cheat: calls the course's marginal_sigma"] = _calls_forbidden(
    _marginals.marginal_sigma,
    adapt=lambda helper, rho, n, replace_one: helper(rho, n, "replace" if replace_one else "add/remove"))
WRONG_ANSWERS["06.6"]["cheat: calls the course's discretize"] = _calls_forbidden(
    _binning.discretize,
    adapt=lambda helper, values, lower, upper, n_bins: helper(
        np.asarray(values, dtype=float)[:, None], _binning.equal_width_bins([lower], [upper], n_bins))[:, 0])


#: Honest variants: other valid ways to write the answer (float64 rounding differs by a few units in 1e-16).
HONEST_ANSWERS = {
    "06.5": {
        "sensitivity times sqrt(n / (2 rho))": lambda rho, n, replace_one: (
            math.sqrt(2.0) if replace_one else 1.0) * math.sqrt(n / (2 * rho)),
        "square roots taken apart": lambda rho, n, replace_one: math.sqrt(n) * math.sqrt(
            2.0 if replace_one else 1.0) / math.sqrt(2 * rho),
        "NumPy power 0.5": lambda rho, n, replace_one: float(np.power(
            n * (2 if replace_one else 1) / (2.0 * rho), 0.5)),
        "per-histogram rho, then sqrt": lambda rho, n, replace_one: math.sqrt(
            (2.0 if replace_one else 1.0) / (2 * (rho / n))),
    },
}
