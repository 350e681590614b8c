"""Checks for lesson 06's marginal-based synthetic data (MST): the noise of the marginals, public bins.

Both answers are deterministic, so each check compares the student's function with the
property it must have on many inputs drawn from a seeded generator over wide ranges
(boundaries included), and names the property that failed. Expected values are computed
after the student's call, with builtins bound when this module is imported.
"""

from __future__ import annotations

import math

import numpy as np

from mic_dp_helpers.checks import _core
from mic_dp_helpers.checks._core import CheckFailed, exercise, expect_number

# The exercises name these as the course's own answers: they refuse to run while the student's function runs.
_core.FORBIDDEN["06.5"] = ("mic_dp_helpers.synthetic.marginals:marginal_sigma",)
_core.FORBIDDEN["06.6"] = ("mic_dp_helpers.synthetic.binning:discretize",)

_sqrt, _isclose, _floor = math.sqrt, math.isclose, math.floor
_default_rng, _asarray, _array_equal = np.random.default_rng, np.asarray, np.array_equal
_linspace, _searchsorted, _clip, _abs, _amin = np.linspace, np.searchsorted, np.clip, np.abs, np.min
_isfinite, _round, _all, _concatenate, _arange = np.isfinite, np.round, np.all, np.concatenate, np.arange


# --------------------------------------------------------------------------------------- 06.5
_float, _float32, _len, _getattr = float, np.float32, len, getattr
_FLOAT32_HINT = ("your sigma has float32 precision (about 7 significant digits): rounded down, it is smaller "
                 "than the smallest private sigma and spends more than rho; rounded up, it is not the smallest. "
                 "Compute and return it in float64 (Python floats, math.sqrt) (property: full precision).")


def _dtype_of(value):
    return _getattr(value, "dtype", None)


#: The exercise's "Try it": marginal_noise(0.5, 2, False), two histograms under add/remove, is sqrt(2) = 1.41.
WORKED_EXAMPLE = (0.5, 2, False)
#: How far above rho the spent budget may be (relative): rounding of sqrt(n Delta^2 / (2 rho)) and of the check's
#: own n Delta^2 / (2 sigma^2) is a few units of 1e-16; an answer that spends 1e-12 more is too small a sigma.
OVERSPEND = 1e-12
#: How far below rho (relative): a sigma larger than needed by up to 5e-8 (a root-finder's tolerance) passes.
UNDERSPEND = 1e-7


def _noise_cases() -> list[tuple[float, int, bool]]:
    rng = _default_rng(6_05)
    cases = [WORKED_EXAMPLE, (0.3, 3, False), (0.3, 3, True), (1e-4, 500, True), (100.0, 1, False),
             (0.0175 / 3, 31, True), (0.7, 1, True), (2.5e-3, 1, False)]  # a single histogram: replace one, add/remove
    for _ in range(40):
        cases.append((float(10 ** rng.uniform(-4, 2)), int(rng.integers(1, 600)), bool(rng.integers(2))))
    for _ in range(10):  # many marginals too (600 to a million): an answer right only below 600 fails
        cases.append((float(10 ** rng.uniform(-4, 2)), int(10 ** rng.uniform(2.78, 6)), bool(rng.integers(2))))
    for _ in range(6):  # beyond (referee, third pass): rho from 100 to 10,000, and a million to a billion marginals
        cases.append((float(10 ** rng.uniform(2, 4)), int(rng.integers(1, 600)), bool(rng.integers(2))))
        cases.append((float(10 ** rng.uniform(-4, 4)), int(10 ** rng.uniform(6, 9)), bool(rng.integers(2))))
    return cases


@exercise("06.5", title="Noise for a zCDP budget on many marginals", answer_name="marginal_noise")
def check_marginal_noise(answer) -> None:
    """A correct answer returns the sigma at which ``n_marginals`` Gaussian histograms spend exactly ``rho``
    of zCDP together, ``n_marginals * Delta**2 / (2 sigma**2) = rho`` (at most a relative 1e-12
    above rho, the rounding of the closed form, and 1e-7 below), with ``Delta**2`` = 1 for add/remove
    and 2 for replace-one neighbours, on 8 fixed cases (the exercise's worked example (0.5, 2, False)
    and a single replace-one histogram among them) and 62 random ones (rho from 1e-4 to 100, 1 to 600
    marginals and 600 to a million; then rho from 100 to 10,000, and a million to a billion marginals). A float32 answer (a NumPy float32, or a float with only float32's 24
    bits of mantissa in most cases) gets a hint to compute in float64: float32 is off by up to 6e-8, and
    rounded down it is below the smallest private sigma.

    Parameters
    ----------
    answer : callable
        The student's ``marginal_noise(rho, n_marginals, replace_one)`` (exercise 06.5).

    Raises
    ------
    CheckFailed
        With a hint that describes the error, when the answer is wrong.
    """
    cases = _noise_cases()
    single_precision = 0  # answers that are float32 numbers (exactly representable in 24 bits of mantissa)
    for rho, n_marginals, replace_one in cases:
        returned = answer(rho, n_marginals, replace_one)
        sigma = expect_number(returned, "the noise standard deviation")
        if _dtype_of(returned) == _float32:
            raise CheckFailed(_FLOAT32_HINT)
        single_precision += sigma > 0 and _float(_float32(sigma)) == sigma
        if sigma <= 0:
            raise CheckFailed(f"for rho={rho:.3g}, n_marginals={n_marginals} you returned sigma={sigma:.3g}; a noise "
                              "standard deviation is positive.")
        l2_squared = 2.0 if replace_one else 1.0  # per histogram, computed after the call
        spent = n_marginals * l2_squared / (2 * sigma * sigma)  # rho of the Gaussian mechanism on all histograms
        if rho * (1 - UNDERSPEND) <= spent <= rho * (1 + OVERSPEND):
            continue
        if _float(_float32(sigma)) == sigma and _isclose(spent, rho, rel_tol=1e-6):
            raise CheckFailed(_FLOAT32_HINT)
        relation = "replace one record" if replace_one else "add or remove one record"
        other_l2 = 1.0 if replace_one else 2.0
        if _isclose(n_marginals * other_l2 / (2 * sigma * sigma), rho, rel_tol=1e-7):
            # A swap, or one relation treated as the other, errs differently under the other relation; the same
            # factor under both (rho read as 2 rho, n_marginals for its square root at n_marginals = 2) does not.
            other = expect_number(answer(rho, n_marginals, not replace_one), "the noise standard deviation")
            ratio_here = sigma * sigma * 2 * rho / (n_marginals * l2_squared)
            ratio_other = other * other * 2 * rho / (n_marginals * other_l2)
            if _isclose(ratio_here, ratio_other, rel_tol=1e-7):
                raise CheckFailed(f"for rho={rho:.3g}, n_marginals={n_marginals} your noise is off by a factor "
                                  "sqrt(2) under both neighbour relations, so the relation is not the error: check "
                                  "the zCDP formula rho = Delta^2 / (2 sigma^2) and how the histograms add up.")
            raise CheckFailed(f"with replace_one={replace_one} ({relation}) your noise is off by a factor sqrt(2): "
                              "it would fit the other neighbour relation. How many cells of one histogram change "
                              "when one record is replaced, and when one is added? And where does the 2 of "
                              "2 sigma^2 go?")
        if spent > rho * (1 + 1e-6):
            raise CheckFailed(f"for rho={rho:.3g}, n_marginals={n_marginals}, replace_one={replace_one} your noise is "
                              f"too small: the histograms together would spend rho = {spent:.3g}. Each histogram "
                              "moves, and all of them move at once.")
        if spent > rho:
            raise CheckFailed(f"for rho={rho:.3g}, n_marginals={n_marginals}, replace_one={replace_one} your sigma is "
                              f"a hair too small: the histograms together would spend {spent / rho - 1:.2g} more "
                              "than rho (relative), and the budget is a bound, not a target to within rounding "
                              "(property: spends at most rho). Solve rho = n_marginals Delta^2 / (2 sigma^2) for sigma "
                              "exactly, in float64, without rounding sigma down or stopping a search on the wrong side.")
        raise CheckFailed(f"for rho={rho:.3g}, n_marginals={n_marginals}, replace_one={replace_one} your noise is "
                          "private but larger than needed. rho of the Gaussian mechanism is (L2 sensitivity)^2 / "
                          "(2 sigma^2), with the sensitivity taken over all the histograms together.")
    if single_precision > _len(cases) // 2:  # a float64 sigma is a float32 number with probability ~2**-29
        raise CheckFailed(_FLOAT32_HINT)


# --------------------------------------------------------------------------------------- 06.6
def _reference_bins(values: np.ndarray, lower: float, upper: float, n_bins: int) -> np.ndarray:
    edges = _linspace(lower, upper, n_bins + 1)
    return _clip(_searchsorted(edges, values, side="right") - 1, 0, n_bins - 1)


def _as_bins(result, n: int) -> np.ndarray:
    array = _asarray(result)
    if array.shape != (n,):
        raise CheckFailed(f"it should return one bin index per value ({n}), but it returned shape {array.shape}.")
    if array.dtype.kind not in "iu":
        if array.dtype.kind == "f" and _all(_isfinite(array)) and _all(array == _round(array)):
            return array.astype(np.int64)
        raise CheckFailed("it should return integer bin indices (0, 1, ..., n_bins - 1), not values.")
    return array.astype(np.int64)


def _near_interior_edge(values, lower, upper, n_bins) -> np.ndarray:
    edges = _linspace(lower, upper, n_bins + 1)[1:-1]
    if edges.size == 0:
        return values != values  # all False (values are finite)
    return _amin(_abs(values[:, None] - edges[None, :]), axis=1) <= 1e-9 * (upper - lower)


def _edge_bin_cases(rng) -> list[tuple[np.ndarray, float, float, int]]:
    """The edge cases the exercise's text allows, with edges exactly representable (each value has one right
    bin): no value, one value (on an edge, at upper, outside), int8 values around integer bounds (an answer
    computing in the input's dtype overflows), int64 and float32 values on the edges, 2,000 bins, and 200,000
    values."""
    n_bins = int(rng.integers(2, 9))
    on_edges = _arange(-4, 2 * n_bins + 5) / 2.0  # bounds [0, n_bins]: edges at the integers, halves inside
    return [(_asarray([], dtype=float), 0.0, 1.0, 3), (_asarray([2.0]), 0.0, 4.0, 4), (_asarray([4.0]), 0.0, 4.0, 4),
            (_asarray([-7.5]), -2.0, 6.0, 8), (_asarray([0.0]), 0.0, 1.0, 1),
            (rng.integers(-100, 101, 300).astype(np.int8), -100, 100, 8),
            (rng.integers(-3, 20, 200), 0, 16, 16),
            (on_edges.astype(np.float32), 0.0, float(n_bins), n_bins),
            (rng.uniform(-1, 1001, 500), 0.0, 1000.0, 2000),
            (rng.uniform(-30.0, 70.0, 200_000), -25.0, 62.5, 7)]


def _check_bins_case(answer, values, lower, upper, n_bins, exact: bool, to_top: bool) -> None:
    """One case of 06.6: the answer's bins against the reference, computed after the answer returns."""
    given = values.copy()
    got = _as_bins(answer(given, lower, upper, n_bins), len(values))
    if not _array_equal(given, values) or given.dtype != values.dtype:
        raise CheckFailed("your function changed the values array it was given (for example clipped it in "
                          "place); compute the bins without modifying it.")
    if got.size and (got.min() < 0 or got.max() > n_bins - 1):
        raise CheckFailed(f"with n_bins={n_bins} you returned bin {int(got.min() if got.min() < 0 else got.max())}; "
                          "every value, also one outside [lower, upper], must land in a bin 0 .. n_bins - 1.")
    if len(values) > 1:  # data independence: a value's bin may not change when another value changes
        moved = values.astype(float)
        moved[0] = upper + 1000.0 * (upper - lower) if to_top else lower - 1000.0 * (upper - lower)
        again = _as_bins(answer(moved.copy(), lower, upper, n_bins), len(values))
        if not _array_equal(got[1:], again[1:]):
            raise CheckFailed("changing one value changed the bins of other values: your bins depend on the data. "
                              "Public bins use only lower, upper and n_bins.")
    values = values.astype(float)
    expected = _reference_bins(values, lower, upper, n_bins)
    ok = got == expected
    if not exact:  # random edges: a value within rounding of an edge may fall on either side
        ok |= _near_interior_edge(values, lower, upper, n_bins)
    if ok.all():
        return
    wrong = values[~ok][0]
    where = f"with {len(values)} value(s) of dtype {given.dtype}, lower={lower:.6g}, upper={upper:.6g}, n_bins={n_bins}:"
    if wrong > upper or wrong < lower:
        raise CheckFailed(f"{where} the value {wrong:.6g} lies outside [lower, upper]: it belongs in the nearest "
                          "outer bin (clipping).")
    if wrong == upper:
        raise CheckFailed(f"{where} the value equal to upper belongs in the last bin, n_bins - 1.")
    if exact and wrong in _linspace(lower, upper, n_bins + 1):
        raise CheckFailed(f"{where} the value {wrong:g} lies exactly on an edge between two bins: bins are "
                          "[left edge, right edge), so it belongs to the bin on its right.")
    raise CheckFailed(f"{where} the value {wrong:.6g} is in the wrong bin: n_bins bins of equal width cover "
                      "[lower, upper], each [left edge, right edge). Compute in float64, whatever the values' dtype.")


@exercise("06.6", title="Discretise with public bins", answer_name="public_bins")
def check_public_bins(answer) -> None:
    """A correct answer leaves ``values`` unchanged and puts every value in one of ``n_bins`` equal-width
    bins ``[left, right)`` between the public ``lower`` and ``upper`` (the value equal to ``upper`` in the
    last bin, values outside clipped to the nearest outer bin), so that changing one value never moves
    another value's bin, on 60 cases (integer edges with values exactly on them, then random bounds
    with 1 to 10,000 values: an answer right only for short arrays fails) and the edge cases of
    ``_edge_bin_cases`` (no value, one value, int8/int64/float32 values, 2,000 bins, 200,000 values).

    Parameters
    ----------
    answer : callable
        The student's ``public_bins(values, lower, upper, n_bins)`` (exercise 06.6).

    Raises
    ------
    CheckFailed
        With a hint that describes the error, when the answer is wrong.
    """
    rng = _default_rng(6_06)
    for trial in range(60):
        n_bins = int(rng.integers(1, 12))
        if trial < 10:  # integer edges: values exactly on an edge have one right answer
            lower, upper = 0.0, float(n_bins)
            values = _concatenate([_arange(n_bins + 1, dtype=float), rng.uniform(-2, n_bins + 2, 20)])
        else:
            lower = float(rng.uniform(-100, 100))
            upper = lower + float(10 ** rng.uniform(-2, 3))
            width = upper - lower
            if trial % 3 == 0:  # every value strictly inside: bins between the data's own min and max differ
                values = rng.uniform(lower + width / 5, upper - width / 5, int(10 ** rng.uniform(0.3, 4)))
            else:
                values = _concatenate([[lower, upper], rng.uniform(lower - width, upper + width,
                                                                   int(10 ** rng.uniform(0, 4)))])
        values = values[rng.permutation(len(values))]
        _check_bins_case(answer, values, lower, upper, n_bins, trial < 10, bool(trial % 2))
    for index, (values, lower, upper, n_bins) in enumerate(_edge_bin_cases(rng)):
        _check_bins_case(answer, values, lower, upper, n_bins, True, bool(index % 2))
