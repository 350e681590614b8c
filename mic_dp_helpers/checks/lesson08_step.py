"""Check 08.5 (one full DP-SGD step with Poisson sampling), moved out of :mod:`mic_dp_helpers.checks.lesson08`.

The inputs, their ranges and the tests are described in that module's docstring; besides the fixed cases
of ``_step_cases`` and the band sweep (``lesson08._band_sweep``), :func:`_dimension_sweep` calls the step
with every number of weights from 1 to 8 and one in each stratum of a log scale up to 20,000 (referee
s36rC: answers wrong only for numbers of weights the fixed cases never used passed), and, after referee
s37rC, :func:`_corner_sweep` (the same numbers of weights with as many examples as 400,000 entries allow, and
marker examples that sampling with replacement takes twice), :func:`_covariance_sweep` (more calls than weights:
noise in every direction) and :func:`_neighbours_in_turn` (noise reused when the data change).
"""

from __future__ import annotations

import numpy as np
from scipy.stats import chi2 as _chi2

from mic_dp_helpers.checks import _stats
from mic_dp_helpers.checks._core import CheckFailed, call_repeatedly, exercise
from mic_dp_helpers.checks._dimension_tests import covariance_dimensions, dimension_grid
from mic_dp_helpers.checks._near_relations import (
    check_no_near_copies, check_no_noiseless_call, interleaved)
from mic_dp_helpers.checks._noise_relations import (
    check_full_rank, check_no_repeated_coordinates, check_no_repeated_noise, unit_resolution)
from mic_dp_helpers.checks._vector_noise import check_vector_noise
from mic_dp_helpers.checks.lesson08 import (
    DRAWS, FRESH_CALLS, SEED, TAIL_CALLS, _array_equal, _as_float_array, _band_sweep, _case_noise, _clip_reference,
    _default_rng, _float, _log_uniform, _logistic_grads, _norm, _np_ones, _np_stack, _np_tile, _np_zeros, _reproducible,
    _sqrt)

_np_concatenate = np.concatenate
_np_abs = np.abs


def _step_cases(rng: np.random.Generator) -> list[tuple]:
    """(w, X, y, clip_norm, sigma, q, expected_batch_size, learning_rate, draws); B != q * n in every case.

    Clipping norms from 1e-4 to 1e4, noise multipliers from 0.05 to 50 and sample rates from 3e-4
    to 0.999, each range's ends in cases of their own.
    """
    def normaliser(q, n):  # the batch size planned for a dataset of another size: public, and not q * len(X)
        return q * n * float(rng.choice([rng.uniform(0.5, 0.8), rng.uniform(1.25, 2.0)]))

    def rate():
        return _log_uniform(rng, 0.01, 1.0)

    cases = []
    # Every example the same: the realised batch size matters (Poisson sampling must show).
    d, n = int(rng.integers(2, 6)), int(rng.integers(150, 300))
    q = float(rng.uniform(0.2, 0.4))
    cases.append((rng.normal(0, 0.1, d), _np_tile(rng.normal(0, 3, d), (n, 1)), _np_zeros(n), 1.0, 0.3, q,
                  normaliser(q, n), rate(), DRAWS))
    # Large, diverse gradients: clipping each row vs the batch shows in the mean.
    d, n = int(rng.integers(2, 7)), int(rng.integers(60, 200))
    X = (rng.normal(0, 1, (n, d)) + rng.normal(0, 3, d)) * rng.lognormal(1.0, 1.0, (n, 1))
    y = (rng.random(n) < 0.15).astype(float)  # mostly one class: the gradients point roughly the same way
    q = float(rng.uniform(0.05, 0.3))
    cases.append((rng.normal(0, 1, d), X, y, _log_uniform(rng, 0.1, 3.0), float(rng.uniform(0.5, 2.0)), q,
                  normaliser(q, n), rate(), DRAWS))
    # One example, with a gradient far longer than clip_norm.
    d = int(rng.integers(2, 5))
    q = float(rng.uniform(0.3, 0.9))
    cases.append((_np_zeros(d), rng.normal(0, 1, (1, d)) * 200.0, _np_ones(1), _log_uniform(rng, 0.1, 3.0),
                  float(rng.uniform(0.5, 2.0)), q, q * float(rng.uniform(2.0, 10.0)), rate(), DRAWS))
    # Zero features: every gradient is 0, so the update is pure noise.
    d, n = int(rng.integers(2, 6)), int(rng.integers(20, 90))
    q = float(rng.uniform(0.05, 0.5))
    cases.append((rng.normal(0, 1, d), _np_zeros((n, d)), (rng.random(n) < 0.5).astype(float),
                  _log_uniform(rng, 1e-3, 1e3), _log_uniform(rng, 0.05, 50.0), q, normaliser(q, n), rate(), DRAWS))
    # 100,000 examples at a small rate, gradients pointing one way.
    d, n = 3, 100_000
    q = _log_uniform(rng, 3e-4, 2e-3)
    x = rng.normal(0, 1, d)
    cases.append((_np_zeros(d), _np_tile(x, (n, 1)) * rng.uniform(0.5, 2.0, (n, 1)), _np_zeros(n), 1.0,
                  float(rng.uniform(0.5, 2.0)), q, normaliser(q, n), rate(), 200))
    # Every gradient non-zero and far below clip_norm (norms about 1e-3 clip_norm): a clipping norm taken from
    # the data (the batch's or the dataset's largest gradient) shrinks the noise and shows here.
    d, n = int(rng.integers(2, 6)), int(rng.integers(20, 90))
    q = float(rng.uniform(0.1, 0.5))
    clip_norm = _log_uniform(rng, 1.0, 1e3)
    Xs = rng.normal(0, 1, (n, d))
    Xs *= (clip_norm * 1e-3 * rng.uniform(0.5, 2.0, (n, 1)) * 2) / _norm(Xs, axis=1, keepdims=True)
    cases.append((_np_zeros(d), Xs, _np_ones(n), clip_norm, float(rng.uniform(0.5, 4.0)), q, normaliser(q, n),
                  rate(), DRAWS))
    # 20,000 zero features: the noise's tails.
    d, n = 20_000, 5
    q = float(rng.uniform(0.2, 0.8))
    cases.append((_np_zeros(d), _np_zeros((n, d)), _np_ones(n), _log_uniform(rng, 0.01, 100.0),
                  _log_uniform(rng, 0.05, 50.0), q, normaliser(q, n), rate(), TAIL_CALLS))
    # The ends of the ranges, as pure noise: C = 1e-4 with multiplier 0.05 at q from 0.95 to 0.999, and C = 1e4
    # with multiplier 50 at q from 0.9 to 0.999.
    for clip_norm, sigma, q in ((1e-4, 0.05, 1 - _log_uniform(rng, 1e-3, 0.05)),
                                (1e4, 50.0, float(rng.uniform(0.9, 0.999)))):
        d, n = int(rng.integers(2, 6)), int(rng.integers(20, 90))
        cases.append((rng.normal(0, 1, d), _np_zeros((n, d)), _np_ones(n), clip_norm, sigma, q, normaliser(q, n),
                      rate(), DRAWS))
    # Sampling at a large rate: 1,000 equal examples at q from 0.9 to 0.97 spread the batch's sum by at least
    # 29 clipped gradients' variance, against the noise's 1 to 2.25: taking every example shows.
    d, n = int(rng.integers(2, 5)), 1000
    q = float(rng.uniform(0.9, 0.97))
    cases.append((rng.normal(0, 0.1, d), _np_tile(rng.normal(0, 3, d), (n, 1)), _np_zeros(n), 1.0,
                  float(rng.uniform(1.0, 1.5)), q, normaliser(q, n), rate(), DRAWS))
    # Every gradient zero (features all 0), 64 weights: the update is the noise alone, tested on its shape, tails and
    # length (referee: noise rescaled to a fixed norm passes where sampling adds its own spread).
    d, n = 64, int(rng.integers(20, 60))
    q = float(rng.uniform(0.1, 0.5))
    cases.append((rng.normal(0, 0.1, d), _np_zeros((n, d)), (rng.random(n) < 0.5).astype(float), 1.0,
                  float(rng.uniform(0.5, 2.0)), q, normaliser(q, n), rate(), DRAWS))
    # Far above the other sizes: 1,000,001 to 1,100,000 equal examples sampled at a rate that expects 20 to 40 in
    # the batch, 40 calls. Poisson sampling spreads the batch's sum along the gradient by its batch size's
    # variance (20 to 40 clipped gradients' worth) against the noise's 0.25 to 1: a batch of fixed size
    # (rng.choice(n, round(q * n))) leaves about 1/40 to 1/20 of the expected variance, and dividing by the realised
    # batch size instead of expected_batch_size (0.5-0.8 or 1.25-2 times q * n) moves every step by 10 to 40
    # noise standard deviations: both fail the amount or centre tests of check_vector_noise.
    d, n = 2, int(rng.integers(1_000_001, 1_100_000))
    q = float(rng.uniform(20.0, 40.0)) / n
    cases.append((rng.normal(0, 0.1, d), _np_tile(rng.normal(0, 3, d), (n, 1)), _np_zeros(n), 1.0,
                  float(rng.uniform(0.5, 1.0)), q, normaliser(q, n), rate(), 40))
    return cases


def _batch_size_spread(noise: np.ndarray, gradient: np.ndarray, sd: float, q: float, n: int, where: str) -> None:
    """Every example's clipped gradient is ``gradient``: along it, the released sums vary by the noise's sd^2 plus
    the Poisson batch size's variance q (1 - q) n times |gradient|^2 (20 to 40 of them). A batch of fixed size
    leaves only the noise, a sum divided by its realised size (times expected_batch_size) about as little: the
    sample variance over the calls, in units of the expected one, falls below the chi-square's 1e-6 quantile
    (a correct answer: probability 1e-6; Poisson sums of mean >= 20 are near normal, kurtosis excess <= 0.05).
    """
    length = _float(_norm(gradient))
    if not length > 0:
        return
    along = noise @ (gradient / length)
    variance = sd**2 + q * (1 - q) * n * length**2
    dof = len(along) - 1
    statistic = _float(((along - along.mean()) ** 2).sum()) / variance
    if _chi2.cdf(statistic, dof) < 1e-6:
        raise CheckFailed(f"{where} every example is the same, so the step along their gradient varies with the batch "
                          f"size, by about {_sqrt(variance):.3g} per call, but yours varies by "
                          f"{_sqrt(statistic * variance / dof):.3g}. The batch must be a Poisson sample (each example in "
                          "independently with probability sample_rate, so its size varies), not a fixed number of "
                          "examples (rng.choice), and the sum is divided by the expected_batch_size you are given, not "
                          "by the size of the batch you drew.")


#: The 08.5 dimension sweep: the largest number of feature entries (examples x weights) of a case (at least 40
#: examples), and the expected batch sizes (15 to 30).
STEP_CELLS, STEP_BATCH = 300_000, (15.0, 30.0)


def _dimension_case(rng: np.random.Generator, d: int) -> tuple:
    """(w, X, y, clip_norm, sigma, q, batch, lr) with ``d`` weights: n equal examples (40 to 2,000, at most
    300,000 / d) whose gradient, clip_norm long after clipping, lies along the first weight; 15 to 30 expected
    in a batch. With one weight the features are 0 (the step is the noise alone)."""
    n = int(_log_uniform(rng, 40.0, min(2000.0, max(40.0, STEP_CELLS / d))))
    q = float(rng.uniform(*STEP_BATCH)) / n
    clip_norm, sigma = _log_uniform(rng, 0.01, 100.0), float(rng.uniform(0.5, 1.5))
    X = _np_zeros((n, d))
    if d > 1:  # w = 0, y = 0: every gradient is X / 2, 4 to 40 times clip_norm long
        X[:, 0] = clip_norm * float(rng.uniform(8.0, 80.0))
    batch = q * n * float(rng.choice([rng.uniform(0.5, 0.8), rng.uniform(1.25, 2.0)]))
    return _np_zeros(d), X, _np_zeros(n), clip_norm, sigma, q, batch, float(rng.uniform(0.01, 1.0))


def _signal_units(step, released) -> np.ndarray:
    """The first weight's released sum, centred and in units of its standard deviation (noise plus sampling)."""
    w, X, y, clip_norm, sigma, q, batch, lr = step
    n = len(X)
    return (released[:, 0] - q * n * clip_norm) / (clip_norm * _sqrt(sigma**2 + q * (1 - q) * n))


def _check_signal(z, where: str) -> None:
    """The first weight's standardised sums (near normal: Poisson batches of 15 to 30): centre within 5.4 standard
    errors of 0 (a correct answer: 7e-8), variance within the chi-square's 1e-6 tails."""
    count, total = len(z), _float((z * z).sum())
    if abs(_float(z.mean())) * _sqrt(count) > 5.4:
        raise CheckFailed(f"{where} along the examples' gradient the steps are centred off the expected sum "
                          "(sample_rate x the sum of the clipped gradients, divided by expected_batch_size): clip each "
                          "example's gradient (not the batch's sum) and divide by the expected_batch_size you are "
                          "given, not by the size of the batch you drew.")
    if _chi2.cdf(total, count) < 1e-6 or _chi2.sf(total, count) < 1e-6:
        raise CheckFailed(f"{where} along the examples' gradient the steps vary {(total / count) ** 0.5:.3g} times as "
                          "much as Poisson sampling plus the noise make them vary. Sample each example independently "
                          "with probability sample_rate (not a fixed number of examples), add noise of standard "
                          "deviation noise_multiplier * clip_norm, and divide by expected_batch_size.")


def _dimension_sweep(answer, rng: np.random.Generator) -> list[tuple[np.ndarray, str, float]]:
    """08.5 with every number of weights from 1 to 8 and one in each stratum of a log scale up to 20,000
    (:func:`mic_dp_helpers.checks._dimension_tests.dimension_grid`), 4 calls each (see ``_dimension_case``).

    The weights other than the first see only the noise: each case is tested on them
    (:func:`~mic_dp_helpers.checks._dimension_tests.check_case_noise`: no noise, one draw shared by the
    weights, the amount: noise divided by the batch size, or a sum divided by its realised size, shows), then
    all of them together by :func:`check_vector_noise`. The first weight's sums, pooled over the cases, must be
    centred on sample_rate x n x clip_norm (clipping the batch's sum leaves clip_norm) and vary as Poisson sampling
    plus the noise (a batch of fixed size varies less).
    """
    units, signal, blocks = [], [], []
    for d in dimension_grid(rng):
        step = _dimension_case(rng, d)
        w, X, y, clip_norm, sigma, q, batch, lr = step
        released = _released_steps(answer, step, 4, rng)
        where = (f"with {len(X)} equal example(s), {d} weight(s), clip_norm={clip_norm:.3g}, noise_multiplier="
                 f"{sigma:.3g} and sample_rate={q:.3g}:")
        unit, _, resolution = _case_noise(released[:, 1:] if d > 1 else released, 0.0, sigma * clip_norm, where,
                                          _BATCH_ADVICE)
        units.append(unit.ravel())
        blocks.append((unit[:, NOISE_TAIL - 1:], where, resolution))
        if d > 1:
            signal.append(_signal_units(step, released))
    pooled = f"Over {len(units)} inputs with 1 to 20,000 weights (4 calls each):"
    check_vector_noise(_np_concatenate(units)[:, None], 1.0, f"{pooled} (the weights that see only noise, in units of "
                       "noise_multiplier * clip_norm)")
    _check_signal(_np_concatenate(signal), pooled)
    return blocks


_BATCH_ADVICE = (" Then the noisy sum is divided by the expected_batch_size you are given, not by the size of the "
                 "batch you drew.")
#: Noise blocks of 08.5 are compared across a run (``check_no_repeated_noise``) on the weights from this index
#: on, which see only noise in every case (the corner sweep's first weights carry gradients).
NOISE_TAIL = 9


def _released_steps(answer, step: tuple, calls: int, rng: np.random.Generator) -> np.ndarray:
    """``calls`` steps on one generator, as the released noisy sums ``(w - new) * batch / lr``."""
    w, X, y, clip_norm, sigma, q, batch, lr = step
    outs = call_repeatedly(answer, calls, w.copy(), X.copy(), y.copy(), clip_norm, sigma, q, batch, lr,
                           _default_rng(int(rng.integers(1 << 30))))
    return (w - _np_stack([_as_float_array(o, "the new weights", w.shape) for o in outs])) * batch / lr


#: The 08.5 corner sweep: at most this many feature entries (examples x weights) and examples a case; calls a case.
STEP_CORNER_CELLS, STEP_CORNER_SIZE, CORNER_CALLS = 400_000, 100_000, 4
#: Examples with a gradient of their own (one weight each), at most: each is in a Poisson batch at most once.
MARKERS = 8


def _corner_case(rng: np.random.Generator, d: int) -> tuple:
    """(w, X, y, clip_norm, sigma, q, batch, lr) with ``d`` weights and as many examples as STEP_CORNER_CELLS
    allows (400,000 / d, at most 100,000): up to 8 "marker" examples (one each on weights 1 to 8) and the others
    all alike (on weight 0), each gradient 4 to 40 times clip_norm long; q from 0.4 to 0.8, sigma from 0.05 to
    0.1 (a marker taken twice puts 2 clip norms, 10 noise sd above 1, on its weight)."""
    n = max(50, min(STEP_CORNER_SIZE, STEP_CORNER_CELLS // d))
    markers = min(d - 1, MARKERS)
    clip_norm, sigma, q = _log_uniform(rng, 0.01, 100.0), float(rng.uniform(0.05, 0.1)), float(rng.uniform(0.4, 0.8))
    X = _np_zeros((n, d))  # w = 0, y = 0: every gradient is X / 2
    X[markers:, 0] = clip_norm * float(rng.uniform(8.0, 80.0))
    for k in range(markers):
        X[k, k + 1] = clip_norm * float(rng.uniform(8.0, 80.0))
    batch = q * n * float(rng.choice([rng.uniform(0.5, 0.8), rng.uniform(1.25, 2.0)]))
    return _np_zeros(d), X, _np_zeros(n), clip_norm, sigma, q, batch, float(rng.uniform(0.01, 1.0))


def _check_markers(released: np.ndarray, clip_norm: float, markers: int, where: str) -> None:
    """Each marker example is in a Poisson batch once or not at all: its weight's sum is 0 or clip_norm plus
    noise of sd at most 0.1 clip_norm, so beyond 1.6 or below -0.6 clip norms (6 noise sd; a correct answer:
    2e-9 a value) it was taken twice (sampling with replacement: about q^2 / 2 of the calls) or not clipped."""
    values = released[:, 1:markers + 1] / clip_norm
    if (values > 1.6).any() or (values < -0.6).any():
        raise CheckFailed(f"{where} a weight that only one example's gradient reaches moved by "
                          f"{_float(_np_abs(values).max()):.3g} clip norms in a step, more than that example's clipped "
                          "gradient (one clip norm) and the noise allow: the example entered the batch more than once "
                          "(sampling with replacement, rng.choice's default: Poisson sampling takes every example at "
                          "most once, independently with probability sample_rate), or its gradient was not clipped, "
                          "or the sum was not divided by the expected_batch_size you are given.")


def _corner_sweep(answer, rng: np.random.Generator, dims: list[int]) -> list[tuple[np.ndarray, str, float]]:
    """08.5 at its largest sizes: for every number of weights of ``dimension_grid``, the examples of ``_corner_case``
    (100,000 with 1 to 4 weights, 2,000 with 200, 50 with 20,000), 4 calls each (referee s37rC: a fixed-size batch,
    division by the realised batch size and clipping the batch's sum passed for more than 2,000 examples and 4 or
    more weights, never sampled together; sampling with replacement passed everywhere).

    Per case: the markers (``_check_markers``), the weights beyond the markers as noise (``_case_noise``), and
    weight 0's standardised sums (``_check_signal``: a fixed batch leaves 1/(n - 8) of its variance, caught
    from about 1,400 examples; dividing by the realised size moves the centre by 0.2-1 times the expected sum).
    Then weight 0's sums of all cases together. ``dims`` are the dimension sweep's, so that noise stored there
    and reused here on other data shows in ``check_no_repeated_noise``.
    """
    signal, blocks = [], []
    for d in dims:
        step = _corner_case(rng, d)
        w, X, y, clip_norm, sigma, q, batch, lr = step
        released = _released_steps(answer, step, CORNER_CALLS, rng)
        markers = min(d - 1, MARKERS)
        where = (f"with {len(X)} example(s) ({markers} with a gradient of their own), {d} weight(s), clip_norm="
                 f"{clip_norm:.3g}, noise_multiplier={sigma:.3g}, sample_rate={q:.3g} and expected_batch_size="
                 f"{batch:.4g}:")
        heavy = (*step[:1], X[markers:], *step[2:])  # weight 0: the n - markers equal examples
        signal.append(_signal_units(heavy, released))
        _check_signal(signal[-1], where)
        _check_markers(released, clip_norm, markers, where)
        if d > markers + 1:
            unit, _, resolution = _case_noise(released[:, markers + 1:], 0.0, sigma * clip_norm, where, _BATCH_ADVICE)
            blocks.append((unit[:, NOISE_TAIL - markers - 1:], where, resolution))
    _check_signal(_np_concatenate(signal), f"Over {len(signal)} inputs with 1 to 20,000 weights and the most examples "
                  "each allows (4 calls each):")
    return blocks


def _neighbours_in_turn(answer, rng: np.random.Generator) -> list[tuple[np.ndarray, str, float]]:
    """Two neighbouring datasets of one shape taking turns on one generator, 30 calls each: 5 to 40 examples with
    zero features, and the same with one example's first feature set (a gradient on weight 0 only), 11 to 24
    weights; weights 9 and up see only noise, so noise reused when the data change repeats there (referee
    s37rC: a draw kept per number of weights and reused on the first call with other data passed)."""
    n, d = int(rng.integers(5, 41)), int(rng.integers(NOISE_TAIL + 2, 25))
    clip_norm, sigma, q = _log_uniform(rng, 0.1, 10.0), float(rng.uniform(0.5, 4.0)), float(rng.uniform(0.1, 0.9))
    first = _np_zeros((n, d))
    second = first.copy()
    second[int(rng.integers(n)), 0] = clip_norm * float(rng.uniform(0.5, 20.0))
    batch, lr = q * n * float(rng.uniform(0.5, 2.0)), float(rng.uniform(0.01, 1.0))
    shared = _default_rng(int(rng.integers(1 << 30)))
    outs = ([], [])
    for _ in range(30):
        for k, X in enumerate((first, second)):
            new = answer(_np_zeros(d), X.copy(), _np_zeros(n), clip_norm, sigma, q, batch, lr, shared)
            outs[k].append(_as_float_array(new, "the new weights", (d,)))
    where = (f"with {n} example(s) and {d} weight(s), clip_norm={clip_norm:.3g} and noise_multiplier={sigma:.3g} "
             "(two neighbouring datasets taking turns on one generator):")
    blocks = [(-_np_stack(o)[:, NOISE_TAIL:] * batch / lr / (sigma * clip_norm), where,
               unit_resolution(_np_stack(o) * batch / lr, sigma * clip_norm)) for o in outs]
    check_no_noiseless_call(blocks)
    check_no_repeated_noise(blocks)
    check_no_near_copies([interleaved(blocks)])
    for unit, _, _ in blocks:
        check_vector_noise(unit, 1.0, where)
    return blocks


def _covariance_sweep(answer, rng: np.random.Generator) -> list[tuple[np.ndarray, str, float]]:
    """08.5's noise in every direction: zero features (the step is the noise alone) with each of
    ``covariance_dimensions`` (2 to 256 weights), 2d + 40 calls, tested by ``check_full_rank`` (referee s37rC:
    noise with one direction removed passed for every number of weights above 16 but 64)."""
    blocks = []
    for d in covariance_dimensions(rng):
        n, q = int(rng.integers(1, 21)), float(rng.uniform(0.1, 0.9))
        clip_norm, sigma = _log_uniform(rng, 0.01, 100.0), _log_uniform(rng, 0.05, 50.0)
        batch = q * n * float(rng.uniform(0.5, 2.0))
        step = (_np_zeros(d), _np_zeros((n, d)), _np_zeros(n), clip_norm, sigma, q, batch, float(rng.uniform(0.01, 1.0)))
        unit = _released_steps(answer, step, 2 * d + 40, rng) / (sigma * clip_norm)
        where = (f"with {n} example(s) whose features are all 0, {d} weight(s), clip_norm={clip_norm:.3g} and "
                 f"noise_multiplier={sigma:.3g}:")
        check_full_rank(unit, where)
        blocks.append((unit[:, NOISE_TAIL:], where, unit_resolution(unit, 1.0)))
    return blocks


@exercise("08.5", title="One full DP-SGD step with Poisson sampling", answer_name="dpsgd_step")
def check_dpsgd_step(answer, seed: int = SEED) -> None:
    """The step's distribution on 11 inputs and 2 call sequences, the band sweep (``lesson08._band_sweep``: 32
    inputs, 1 to 1,100,000 examples, sample rates 1e-5 to 0.999) and the dimension sweep (``_dimension_sweep``:
    every number of weights from 1 to 8 and one in each factor 1.51 of a log scale up to 20,000).

    The inputs include clipping norms 1e-4 and 1e4, noise multipliers 0.05 and 50 (at sample rates
    from 0.9 to 0.999), and 1,000 equal examples sampled at a rate from 0.9 to 0.97 (where taking
    every example, not a Poisson sample, shows), 20,000 zero features (100 calls: noise truncated at 4.5 scales
    fails), and 1,000,001 to 1,100,000 equal examples with 20 to 40 expected in a batch (40 calls: a batch of
    fixed size, or one divided by its realised size, shows).

    Then the corner sweep (``_corner_sweep``: the same numbers of weights, each with min(100,000, 400,000 / d)
    examples, up to 8 of them with a gradient of their own: sampling with replacement, a fixed batch, the
    realised batch size and the batch's sum clipped, where examples and weights are both many), the covariance
    sweep (``_covariance_sweep``: 2 to 256 weights, 2d + 40 calls of pure noise: every direction must get noise),
    two neighbouring datasets taking turns (``_neighbours_in_turn``) and no repeated or negated noise vector
    anywhere in the run (``check_no_repeated_noise`` on the weights from 9 up that see only noise), nor near
    copies or noiseless calls there (``check_no_noiseless_call``, ``check_no_near_copies``, referee s38rC:
    pairs equal or opposite within 1e-3 or 1e-2 sd, within a call and between calls 1-2 apart).

    Limits: Gaussian noise truncated at 4.54 scales or more passes (see 08.2's limits: truncation at 5 scales
    breaks delta = 1e-5 for multipliers below 1.35). No case holds more than 400,000 feature entries, so an
    answer wrong only for more than 400,000 / d examples with d weights (e.g. 2,000 examples of 200 weights)
    passes. Per corner case (4 calls, level 1e-6) a fixed batch is caught from about 1,400 examples (its variance
    along the gradient is 1/(n - 8) of Poisson's), below that only through the pooled test; sampling with
    replacement shows as a marker example taken twice (about q^2 / 2 of the calls for each marker, q 0.4-0.8),
    caught in a case with probability 0.23-0.57 with one marker (2 weights) and 0.87-0.999 with 8 (9 or more
    weights). A direction without noise is sought only up to 256 weights, and reused noise only on the weights
    from 9 up (see 08.2's limits). Near copies (weights copied in pairs, or an earlier call's noise permuted
    and signed, plus a jitter of j sd) are counted on the pure-noise cases and weights: j = 1e-4 to 1e-2 is
    caught for 2 to 256 weights (cases of 44 to 1,500 calls), above only the smaller jitters (see 08.2's
    limits for the figures, and for noise too small in every call, which gets the amount hint). A release without noise is tested in the fixed cases' 12,000 calls
    (check_fresh_noise) and in the sweeps' pure-noise weights: a share of 1e-4 of the calls is met with
    probability about 0.7. An answer wrong only in a band of weights narrower than a
    factor 1.51 (above 8), of examples narrower than 1.55 or of sample rates narrower than 0.58 on a logit scale
    is met with probability about its width in strata. Clipping the batch's sum, or a fixed batch, only in a
    narrow band of weights is seen through the pooled first-weight test (104 values): clipping the batch moves
    each of a case's 4 values by about 4.7 standard deviations, so a band holding 3 of the 26 cases with 2 or
    more weights (a factor 3.4 above 8) moves the pooled mean by 5.5 standard errors (caught), 2 cases by 3.7
    (not caught).

    Parameters
    ----------
    answer : callable
        The student's ``dpsgd_step`` (exercise 08.5).
    seed : int, default SEED
        Seed of the test cases.

    Raises
    ------
    CheckFailed
        With a hint that describes the error, when the answer is wrong.
    """
    rng = _default_rng([8005, seed])
    cases = _step_cases(rng)
    w, X, y, clip_norm, sigma, q, batch, lr, _ = cases[1]
    _reproducible(answer, (w.copy(), X.copy(), y.copy(), clip_norm, sigma, q, batch, lr), int(rng.integers(1 << 30)),
                  "weights")
    runs = []
    for index, (w, X, y, clip_norm, sigma, q, batch, lr, draws) in enumerate(cases):
        gw, gX, gy = w.copy(), X.copy(), y.copy()
        outs = call_repeatedly(answer, draws, gw, gX, gy, clip_norm, sigma, q, batch, lr, _default_rng([seed, 85, index]))
        if not (_array_equal(gw, w) and _array_equal(gX, X) and _array_equal(gy, y)):
            raise CheckFailed("your function changed an array it was given (the weights or the data); return new "
                              "weights and leave the inputs as they were.")
        runs.append((index, _np_stack([_as_float_array(o, "the new weights", w.shape) for o in outs]),
                     "one generator for every call"))
    w, X, y, clip_norm, sigma, q, batch, lr, _ = cases[3]
    fresh = [answer(w.copy(), X.copy(), y.copy(), clip_norm, sigma, q, batch, lr, _default_rng([seed, 86, k]))
             for k in range(FRESH_CALLS)]
    runs.append((3, _np_stack([_as_float_array(o, "the new weights", w.shape) for o in fresh]),
                 "a fresh generator in every call"))
    _band_sweep(answer, _default_rng([seed, 87]), step=True)
    blocks = _dimension_sweep(answer, _default_rng([seed, 88]))
    blocks += _corner_sweep(answer, _default_rng([seed, 89]), dimension_grid(_default_rng([seed, 88])))
    blocks += _covariance_sweep(answer, _default_rng([seed, 90]))
    blocks += _neighbours_in_turn(answer, _default_rng([seed, 91]))
    for index, outs, how in runs:  # expected values only now
        w, X, y, clip_norm, sigma, q, batch, lr, _ = cases[index]
        released = (w - outs) * batch / lr  # the noisy sum of clipped gradients of the batch
        clipped = _clip_reference(_logistic_grads(w, X, y), clip_norm)
        if not clipped.any():  # the step is the noise alone: exact relations between coordinates or calls
            blocks.append(_pure_noise_block(released, sigma * clip_norm, _where_how(cases[index], how)))
        # Poisson sampling: each row in with probability q, which adds this covariance (none for zero gradients)
        sampling_covariance = q * (1 - q) * clipped.T @ clipped if clipped.any() else None
        where = _where_how(cases[index], how)
        centre = q * clipped.sum(axis=0)
        check_vector_noise(released - centre, sigma * clip_norm, where, extra_covariance=sampling_covariance)
        if len(X) > 500_000:  # equal examples, 20 to 40 expected in a batch: the batch size's own spread must show
            _batch_size_spread(released - centre, clipped[0], sigma * clip_norm, q, len(X), where)
        # Sampling only spreads the releases further, so a release this close to the centre is no likelier
        # than with the noise alone: the test of noiseless steps holds with or without sampling.
        _stats.check_fresh_noise(released, centre, sigma * clip_norm, "gaussian", where)
    check_no_noiseless_call(blocks)  # first: two noiseless calls would read as reused noise
    check_no_repeated_noise(blocks)
    check_no_near_copies(blocks)


def _where_how(case: tuple, how: str) -> str:
    """The start of a hint for one of ``_step_cases`` and a call sequence."""
    w, X, y, clip_norm, sigma, q, batch, lr, _ = case
    return (f"with {len(X)} example(s), {len(w)} weight(s), clip_norm={clip_norm:.3g}, noise_multiplier="
            f"{sigma:.3g}, sample_rate={q:.3g}, expected_batch_size={batch:.4g}, learning_rate={lr:.3g} ({how}):")


def _pure_noise_block(released: np.ndarray, scale: float, where: str) -> tuple[np.ndarray, str, float]:
    """A zero-gradient case's exact-relation tests (coordinates, then the calls' rank); its block from NOISE_TAIL."""
    unit, resolution = released / scale, unit_resolution(released, scale)
    check_no_repeated_coordinates(unit, where, resolution)
    check_full_rank(unit, where)
    return unit[:, NOISE_TAIL:], where, resolution
