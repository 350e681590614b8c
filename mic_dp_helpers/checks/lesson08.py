"""Checks for lesson 08 (DP machine learning: DP-SGD, its accounting, membership inference).

Every input is drawn fresh from a generator with a fixed seed, over wide ranges (tiny and huge
gradients, rows exactly at the clipping norm, zero rows, one example, one coordinate, sizes that
do not divide). The student's function is called positionally with plain data (NumPy arrays,
numbers, a NumPy Generator); the expected answers are computed only after it returns, with NumPy
and SciPy functions bound when this module is imported.

The random answers (08.2, 08.5) are checked on their distribution: centre, spread per coordinate
(chi-square), shape (Kolmogorov-Smirnov against the normal), independence across coordinates and
across calls, reproducibility from the given generator, and no noiseless output. Each statistical
test is set so that a correct answer fails it with probability below 1e-6; with at most about a
hundred such tests per exercise, a correct answer fails a check with probability below 1e-4 at any
seed (the standard asks for at most 1e-3). The reference solutions pass at the fixed seeds.
"""

from __future__ import annotations

import math

import numpy as np
from scipy import stats

from mic_dp_helpers.ml import dpsgd as _dpsgd
from mic_dp_helpers.ml import accounting as _dpsgd_accounting
from mic_dp_helpers.attacks import membership as _membership
from mic_dp_helpers.checks import _core, _stats
from mic_dp_helpers.checks._core import CheckFailed, call_repeatedly, exercise, expect_number

# References bound at import: patching numpy or scipy later does not change what the checks compute.
_norm = np.linalg.norm
_asarray = np.asarray
_array_equal = np.array_equal
_allclose = np.allclose
_minimum = np.minimum
_where = np.where
_exp = math.exp
_tanh = math.tanh
_sqrt = math.sqrt
_chi2_sf = stats.chi2.sf
_chi2_cdf = stats.chi2.cdf
_kstest = stats.kstest
_default_rng = np.random.default_rng
_cholesky = np.linalg.cholesky
_np_abs = np.abs
_np_all = np.all
_np_array = np.array
_np_corrcoef = np.corrcoef
_np_exp = np.exp
_np_eye = np.eye
_np_isfinite = np.isfinite
_np_stack = np.stack
_np_tile = np.tile
_np_triu_indices = np.triu_indices
_np_zeros = np.zeros
_np_sqrt = np.sqrt
_solve = np.linalg.solve

def _public_functions(module) -> tuple[str, ...]:
    return tuple(f"{module.__name__}:{name}" for name, value in vars(module).items()
                 if callable(value) and getattr(value, "__module__", None) == module.__name__
                 and not isinstance(value, type) and not name.startswith("_"))


# The exercises say: do not call the course's dpsgd or membership, which already solve them (nor its
# dp-accounting wrappers, which solve 08.3). They refuse to run while the student's function runs.
_COURSE_VERSIONS = (_public_functions(_dpsgd) + _public_functions(_membership)
                    + _public_functions(_dpsgd_accounting))
for _id in ("08.1", "08.2", "08.3", "08.4", "08.5"):
    _core.FORBIDDEN[_id] = _COURSE_VERSIONS

#: Two-sided tail probability below which a statistical test rejects.
P_REJECT = 1e-6
#: A standard normal beyond this many standard deviations has two-sided probability below P_REJECT.
Z_REJECT = 4.89
DRAWS = 2000


def _clip_reference(grads: np.ndarray, clip_norm: float) -> np.ndarray:
    norms = _norm(grads, axis=1, keepdims=True)
    return grads * _minimum(1.0, clip_norm / _where(norms > 0, norms, 1.0))


def _as_float_array(value, what: str, shape: tuple) -> np.ndarray:
    try:
        array = _asarray(value, dtype=float)
    except (TypeError, ValueError):
        raise CheckFailed(f"it should return {what} as a NumPy array of numbers, got {type(value).__name__}.") from None
    if array.shape != shape:
        raise CheckFailed(f"it should return {what} of shape {shape}, got shape {array.shape}.")
    if not _np_isfinite(array).all():
        raise CheckFailed(f"it returned NaN or infinite values in {what}.")
    return array


def _random_gradients(rng: np.random.Generator, n: int, p: int) -> np.ndarray:
    """Rows of widely different lengths: tiny, typical, huge, some zero."""
    grads = rng.normal(0.0, 1.0, (n, p)) * rng.lognormal(0.0, 2.5, (n, 1))
    grads[rng.random(n) < 0.1] = 0.0
    return grads


# ------------------------------------------------------------------------------------ 08.1
@exercise("08.1", title="Clip each example's gradient", answer_name="clip_rows")
def check_clip_rows(answer) -> None:
    rng = _default_rng(8001)
    cases = []
    for _ in range(40):
        n, p = int(rng.integers(1, 40)), int(rng.integers(1, 12))
        clip_norm = float(10 ** rng.uniform(-3, 3))
        grads = _random_gradients(rng, n, p) * clip_norm
        if n > 2:  # a row exactly at the norm, and one a hair above it
            for row, factor in ((0, 1.0), (1, 1 + 1e-6)):
                length = float(_norm(grads[row]))
                if length > 0:
                    grads[row] *= clip_norm * factor / length
        cases.append((grads, clip_norm))
    cases.append((_np_array([[3.0, 4.0]]), 5.0))  # one example, exactly at the norm
    cases.append((_np_zeros((3, 2)), 1.0))        # nothing to clip
    outputs = []
    for grads, clip_norm in cases:
        given = grads.copy()
        out = answer(given, clip_norm)
        if not _array_equal(given, grads):
            raise CheckFailed("your function changed the gradient array it was given; clip a copy.")
        outputs.append(_as_float_array(out, "the clipped gradients", grads.shape))
    for (grads, clip_norm), out in zip(cases, outputs):  # expected values only now
        expected = _clip_reference(grads, clip_norm)
        if _allclose(out, expected, rtol=1e-9, atol=1e-12 * clip_norm):
            continue
        where = f"with {len(grads)} example(s) and clip_norm={clip_norm:.3g}:"
        row_norms, in_norms = _norm(out, axis=1), _norm(grads, axis=1)
        if (row_norms > clip_norm * (1 + 1e-9)).any():
            raise CheckFailed(f"{where} some rows are still longer than clip_norm after clipping. Every example's "
                              "gradient must end up with L2 norm at most clip_norm.")
        short = in_norms <= clip_norm
        if not _allclose(out[short], grads[short], rtol=1e-9, atol=0):
            raise CheckFailed(f"{where} rows that were already within clip_norm were changed. Clipping only shrinks "
                              "rows that are too long; the others stay exactly as they are.")
        long = ~short
        cosine = (out[long] * grads[long]).sum(axis=1) / _where(row_norms[long] * in_norms[long] > 0,
                                                               row_norms[long] * in_norms[long], 1.0)
        if (cosine < 1 - 1e-9).any():
            raise CheckFailed(f"{where} a clipped row no longer points the same way as the original. Scale the whole "
                              "row by one factor; do not clip coordinates one by one.")
        raise CheckFailed(f"{where} rows longer than clip_norm should come out with norm exactly clip_norm, as long "
                          "as possible: shrinking them more throws away signal. Scale each row by its own factor, "
                          "computed from that row's L2 norm.")


# ---------------------------------------------------------------------------- noise tests
def _noise_tests(noise: np.ndarray, scale: float, where: str, extra_covariance: np.ndarray | None = None) -> None:
    """``noise`` (draws, p), centre removed, should be independent draws with covariance ``scale^2 I``.

    With ``extra_covariance`` (the spread that Poisson sampling adds), the covariance is
    ``scale^2 I + extra_covariance``; the draws are then whitened with it and tested on their centre,
    spread, correlations and independence (they are a sum of many small terms, close to normal).
    """
    draws, p = noise.shape
    if _np_all(noise == noise[0]):
        raise CheckFailed(f"{where} every call returned the same output: there is no noise (or a generator is "
                          "created afresh inside the function). A DP release must be random.")
    if extra_covariance is None:
        std_units = noise / scale
    else:
        factor = _cholesky(scale**2 * _np_eye(p) + extra_covariance)
        std_units = _solve(factor, noise.T).T
    # Spread, shape and independence first, around the sample mean (so a wrong centre does not look like a
    # wrong spread); then the centre, in units of the known spread.
    sample_mean = std_units.mean(axis=0)
    centred = std_units - sample_mean
    dof = draws - 1
    if extra_covariance is None:
        total = float((centred**2).sum())
        if _chi2_sf(total, dof * p) < P_REJECT or _chi2_cdf(total, dof * p) < P_REJECT:
            amount = "too little" if total < dof * p else "too much"
            raise CheckFailed(f"{where} there is {amount} noise. Its standard deviation on every coordinate must be "
                              "the noise multiplier times the clipping norm, whatever the data and the batch.")
        per_coordinate = (centred**2).sum(axis=0)
        if (_chi2_cdf(per_coordinate, dof) < P_REJECT / p).any() or (_chi2_sf(per_coordinate, dof) < P_REJECT / p).any():
            raise CheckFailed(f"{where} some coordinates get a different amount of noise than others: every "
                              "coordinate needs its own noise of the same standard deviation.")
        if _kstest((centred / (centred.std(axis=0) + 1e-300)).ravel(), "norm").pvalue < P_REJECT:
            raise CheckFailed(f"{where} the amount of noise is right but its distribution is not normal: DP-SGD "
                              "adds Gaussian noise.")
    else:
        ratio = (centred**2).sum(axis=0) / dof
        if (_np_abs(ratio - 1) > 0.25).any():
            amount = "too little" if (ratio < 0.75).any() else "too much"
            raise CheckFailed(f"{where} the updates vary {amount}: check that you clip each example's gradient (not "
                              "the batch's), the noise, that every example joins the batch independently with "
                              "probability sample_rate, and that you divide by the expected batch size, not the one "
                              "you drew.")
    if p > 1:
        corr = _np_corrcoef(centred.T)
        off = _np_abs(corr[_np_triu_indices(p, 1)])
        if (off * _sqrt(draws) > Z_REJECT + 1.5).any():
            raise CheckFailed(f"{where} the noise on different coordinates is correlated: draw independent noise "
                              "for every coordinate, not one number for all.")
    lag = (centred[1:] * centred[:-1]).mean() * _sqrt((draws - 1) * p)
    if abs(lag) > Z_REJECT + 1.5:
        raise CheckFailed(f"{where} the noise of one call predicts the next: draw fresh noise from rng every call.")
    if (_np_abs(sample_mean * _sqrt(draws)) > Z_REJECT + 0.5).any():
        raise CheckFailed(f"{where} the outputs are not centred where they should be: on average the noisy sum must "
                          "equal the sum of the clipped gradients (of the examples that can be in the batch). Check "
                          "which gradients you clip and how, and which way the step goes.")


def _reproducible(answer, args_before_rng: tuple, seed: int, what: str) -> None:
    first = answer(*args_before_rng, _default_rng(seed))
    again = answer(*args_before_rng, _default_rng(seed))
    if not _allclose(_asarray(first, dtype=float), _asarray(again, dtype=float), rtol=0, atol=0):
        raise CheckFailed(f"two calls with generators seeded alike gave different {what}: draw all randomness from "
                          "the rng argument (not from np.random or a generator of your own).")


# ------------------------------------------------------------------------------------ 08.2
def _release_cases(rng: np.random.Generator) -> list[tuple[np.ndarray, float, float]]:
    cases = []
    for n, p in ((int(rng.integers(5, 60)), int(rng.integers(2, 9))), (int(rng.integers(3, 20)), 1),
                 (1, int(rng.integers(2, 6)))):
        clip_norm = float(rng.choice([10 ** rng.uniform(-2, -0.5), 10 ** rng.uniform(0.5, 2)]))
        grads = _random_gradients(rng, n, p) * clip_norm * 3
        cases.append((grads, clip_norm, float(rng.uniform(0.5, 4.0))))
    n, p = int(rng.integers(4, 30)), int(rng.integers(2, 6))  # every row far below the clipping norm
    clip_norm = float(10 ** rng.uniform(0.5, 2))
    cases.append((rng.normal(0, 1, (n, p)) * clip_norm * 1e-3, clip_norm, float(rng.uniform(0.5, 4.0))))
    return cases


@exercise("08.2", title="One DP-SGD release: clip, sum, add noise", answer_name="noisy_clipped_sum")
def check_noisy_clipped_sum(answer) -> None:
    rng = _default_rng(8002)
    cases = _release_cases(rng)
    grads, clip_norm, sigma = cases[0]
    _as_float_array(answer(grads.copy(), clip_norm, sigma, _default_rng(1)), "the noisy sum", (grads.shape[1],))
    _reproducible(answer, (grads.copy(), clip_norm, sigma), 11, "releases")
    collected = []
    for index, (grads, clip_norm, sigma) in enumerate(cases):
        given = grads.copy()
        outs = call_repeatedly(answer, DRAWS, given, clip_norm, sigma, _default_rng(800 + index))
        if not _array_equal(given, grads):
            raise CheckFailed("your function changed the gradient array it was given; clip a copy.")
        collected.append(_np_stack([_as_float_array(o, "the noisy sum", (grads.shape[1],)) for o in outs]))
    for (grads, clip_norm, sigma), outs in zip(cases, collected):  # expected values only now
        centre = _clip_reference(grads, clip_norm).sum(axis=0)
        where = f"with {len(grads)} example(s) of {grads.shape[1]} coordinate(s), clip_norm={clip_norm:.3g} and " \
                f"noise_multiplier={sigma:.3g}:"
        _noise_tests(outs - centre, sigma * clip_norm, where)
        _stats.check_fresh_noise(outs, centre, sigma * clip_norm, "gaussian", where)


# ------------------------------------------------------------------------------------ 08.3
def _rdp_epsilon(q: float, sigma: float, steps: int, delta: float) -> float:
    import dp_accounting
    from dp_accounting import rdp

    from mic_dp_helpers.ml.accounting import _quiet_absl

    accountant = rdp.RdpAccountant()
    event = dp_accounting.GaussianDpEvent(sigma)
    if q < 1:
        event = dp_accounting.PoissonSampledDpEvent(q, event)
    with _quiet_absl():
        accountant.compose(dp_accounting.SelfComposedDpEvent(event, steps))
        return float(accountant.get_epsilon(delta))


def _pld_epsilon(q: float, sigma: float, steps: int, delta: float) -> float:
    import dp_accounting
    from dp_accounting import pld

    accountant = pld.PLDAccountant(value_discretization_interval=1e-3)
    event = dp_accounting.GaussianDpEvent(sigma)
    if q < 1:
        event = dp_accounting.PoissonSampledDpEvent(q, event)
    accountant.compose(dp_accounting.SelfComposedDpEvent(event, steps))
    return float(accountant.get_epsilon(delta))


#: Accepted: from 3% below the PLD figure (finer PLD grids give up to about 0.5% less) to 5% above the RDP
#: figure with dp_accounting's default orders (other sets of orders give slightly looser, still valid, bounds).
LOWER_SLACK, UPPER_SLACK = 0.03, 0.05


@exercise("08.3", title="Epsilon of a DP-SGD run with dp-accounting", answer_name="training_epsilon")
def check_training_epsilon(answer) -> None:
    rng = _default_rng(8003)
    cases = [(float(10 ** rng.uniform(-2.5, -0.8)), float(rng.uniform(0.7, 3.0)), int(rng.integers(50, 1200)),
              float(10 ** rng.uniform(-8, -4))) for _ in range(4)]
    cases.append((float(rng.uniform(0.01, 0.2)), float(rng.uniform(0.8, 2.0)), 1, 1e-5))   # a single step
    cases.append((1.0, float(rng.uniform(2.0, 6.0)), int(rng.integers(2, 30)), 1e-6))    # no subsampling
    answers = [expect_number(answer(q, sigma, steps, delta), "an epsilon") for q, sigma, steps, delta in cases]
    for (q, sigma, steps, delta), got in zip(cases, answers):  # expected values only now
        where = f"for sample_rate={q:.4g}, noise_multiplier={sigma:.3g}, steps={steps}, delta={delta:.2g}:"
        upper = _rdp_epsilon(q, sigma, steps, delta)
        if got > upper * (1 + UPPER_SLACK):
            raise CheckFailed(f"{where} your epsilon {got:.4g} is far more pessimistic than the RDP or PLD "
                              "accountant's. Did you account for the Poisson sampling, and compose the steps with "
                              "the accountant rather than adding epsilons up?")
        if got < upper * (1 - LOWER_SLACK) and got < _pld_epsilon(q, sigma, steps, delta) * (1 - LOWER_SLACK):
            raise CheckFailed(f"{where} your epsilon {got:.4g} is smaller than any valid accountant gives: it claims "
                              "more privacy than the run has. Did you compose all the steps, and use an upper bound "
                              "(RDP or PLD), not an approximation?")


# ------------------------------------------------------------------------------------ 08.4
@exercise("08.4", title="The membership advantage that (epsilon, delta) allows", answer_name="max_advantage")
def check_max_advantage(answer) -> None:
    rng = _default_rng(8004)
    cases = [(0.0, 0.0), (0.0, 0.05), (1e-9, 0.0), (1.0, 0.0), (1.0, 1e-5), (50.0, 0.0), (8.0, 0.3)]
    cases += [(float(10 ** rng.uniform(-4, 1.6)), float(rng.choice([0.0, 10 ** rng.uniform(-9, -0.5)])))
              for _ in range(40)]
    answers = [expect_number(answer(eps, delta), "an advantage") for eps, delta in cases]
    for (eps, delta), got in zip(cases, answers):
        expected = min(1.0, _tanh(eps / 2) + 2 * delta / (_exp(eps) + 1))
        if abs(got - expected) <= 1e-9 * max(expected, 1e-3) + 1e-15:
            continue
        where = f"for epsilon={eps:.4g} and delta={delta:.3g}:"
        if got < 0 or got > 1:
            raise CheckFailed(f"{where} you returned {got:.4g}, but an advantage TPR - FPR lies between 0 and 1.")
        if got > expected:
            raise CheckFailed(f"{where} your bound is too loose: it allows more than any (epsilon, delta)-DP model "
                              "does. Use both inequalities of the hypothesis-testing view, for TPR and for 1 - FPR.")
        raise CheckFailed(f"{where} your bound is too small: some (epsilon, delta)-DP mechanism (randomized response, "
                          "for one) has a larger advantage. Check the role of delta, and where both inequalities "
                          "are tight.")


# ------------------------------------------------------------------------------------ 08.5
def _logistic_grads(w: np.ndarray, X: np.ndarray, y: np.ndarray) -> np.ndarray:
    margin = X @ w
    prob = _where(margin >= 0, 1.0 / (1.0 + _np_exp(-_np_abs(margin))), _np_exp(-_np_abs(margin)) / (1.0 + _np_exp(-_np_abs(margin))))
    return (prob - y)[:, None] * X


def _step_cases(rng: np.random.Generator) -> list[tuple]:
    cases = []
    # Every example the same: the realised batch size matters (Poisson sampling must show).
    d, n = int(rng.integers(2, 6)), int(rng.integers(150, 300))
    x = rng.normal(0, 3, d)
    cases.append((rng.normal(0, 0.1, d), _np_tile(x, (n, 1)), _np_zeros(n), 1.0, 0.3, float(rng.uniform(0.2, 0.4)),
                  float(rng.uniform(0.05, 1.0))))
    # Large, diverse gradients: clipping each row vs the batch shows in the mean.
    d, n = int(rng.integers(2, 7)), int(rng.integers(60, 200))
    X = (rng.normal(0, 1, (n, d)) + rng.normal(0, 3, d)) * rng.lognormal(1.0, 1.0, (n, 1))
    y = (rng.random(n) < 0.15).astype(float)  # mostly one class: the gradients point roughly the same way
    cases.append((rng.normal(0, 1, d), X, y, float(10 ** rng.uniform(-1, 0.5)), float(rng.uniform(0.5, 2.0)),
                  float(rng.uniform(0.05, 0.3)), float(rng.uniform(0.01, 0.5))))
    # Zero features: every gradient is 0, so the update is pure noise.
    d, n = int(rng.integers(2, 6)), int(rng.integers(20, 90))
    cases.append((rng.normal(0, 1, d), _np_zeros((n, d)), (rng.random(n) < 0.5).astype(float),
                  float(10 ** rng.uniform(0.4, 1.5)), float(rng.uniform(0.5, 3.0)), float(rng.uniform(0.05, 0.5)),
                  float(rng.uniform(0.05, 1.0))))
    return cases


@exercise("08.5", title="One full DP-SGD step with Poisson sampling", answer_name="dpsgd_step")
def check_dpsgd_step(answer) -> None:
    rng = _default_rng(8005)
    cases = _step_cases(rng)
    w, X, y, clip_norm, sigma, q, lr = cases[1]
    _as_float_array(answer(w.copy(), X.copy(), y.copy(), clip_norm, sigma, q, lr, _default_rng(2)), "the new weights",
                    w.shape)
    _reproducible(answer, (w.copy(), X.copy(), y.copy(), clip_norm, sigma, q, lr), 12, "weights")
    collected = []
    for index, (w, X, y, clip_norm, sigma, q, lr) in enumerate(cases):
        gw, gX, gy = w.copy(), X.copy(), y.copy()
        outs = call_repeatedly(answer, DRAWS, gw, gX, gy, clip_norm, sigma, q, lr, _default_rng(850 + index))
        if not (_array_equal(gw, w) and _array_equal(gX, X) and _array_equal(gy, y)):
            raise CheckFailed("your function changed an array it was given (the weights or the data); return new "
                              "weights and leave the inputs as they were.")
        collected.append(_np_stack([_as_float_array(o, "the new weights", w.shape) for o in outs]))
    for (w, X, y, clip_norm, sigma, q, lr), outs in zip(cases, collected):  # expected values only now
        expected_batch = q * len(X)
        released = (w - outs) * expected_batch / lr  # the noisy sum of clipped gradients of the batch
        clipped = _clip_reference(_logistic_grads(w, X, y), clip_norm)
        sampling_covariance = q * (1 - q) * clipped.T @ clipped  # Poisson: each row in with probability q
        where = f"with {len(X)} examples, clip_norm={clip_norm:.3g}, noise_multiplier={sigma:.3g}, " \
                f"sample_rate={q:.3g}, learning_rate={lr:.3g}:"
        centre = q * clipped.sum(axis=0)
        if not sampling_covariance.any():
            _noise_tests(released - centre, sigma * clip_norm, where)
        else:
            _noise_tests(released - centre, sigma * clip_norm, where, extra_covariance=sampling_covariance)
        # Sampling only spreads the releases further, so a release this close to the centre is no likelier
        # than with the noise alone: the test of noiseless steps holds with or without sampling.
        _stats.check_fresh_noise(released, centre, sigma * clip_norm, "gaussian", where)
