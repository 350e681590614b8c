"""Power of the DP-release checks' statistical tests against named non-private alternatives (issue 26).

Usage::

    PYTHONPATH=$PWD .venv/bin/python benchmarks/check_power.py              # 200 repetitions per row
    PYTHONPATH=$PWD .venv/bin/python benchmarks/check_power.py --reps 50 02.1

For each check the tests of :mod:`mic_dp_helpers.checks._stats` that it applies are run, with the
check's own sample sizes, on noise in units of the mechanism's scale (``z``) drawn from an alternative:

- ``truncated at 4 sd``: the noise redrawn beyond 4 standard deviations (Laplace: 4 sqrt(2) scales);
- ``clipped at 10 scales`` (Laplace): the noise clipped to [-10, 10] scales;
- ``1% point mass``: 1% of releases at half a scale from the true answer;
- ``correlation 0.1 between calls``: each call's noise ``0.1 z_prev + sqrt(0.99) z``;
- ``correlation 0.1 between coordinates`` / ``between people`` (06.4): equicorrelated noise across the
  coordinates of a group mean / across the group means of a release;
- ``10% too little noise``: every draw times 0.9 (also a scale read from data that span 90% of the
  declared bound);
- ``scale from the data (a quarter of the bound)``: every draw times 0.25.

It prints the share of repetitions the tests reject, with a 95% Clopper-Pearson interval; those are the
numbers in ``mic_dp_helpers.checks._stats.LESSON02_06_POWER``. A "correct" row gives the false-rejection rate of
these tests alone. PyDP's noise (04.1, 04.4) is modelled as Laplace with the same mean absolute value.
"""

from __future__ import annotations

import argparse
import math

import numpy as np
from scipy.signal import lfilter
from scipy.stats import beta

from mic_dp_helpers.checks import _stats, _sweeps
from mic_dp_helpers.checks._core import CheckFailed

LAPLACE_SD = math.sqrt(2.0)


def _interval(k: int, n: int) -> tuple[float, float]:
    low = 0.0 if k == 0 else float(beta.ppf(0.025, k, n - k + 1))
    high = 1.0 if k == n else float(beta.ppf(0.975, k + 1, n - k))
    return low, high


# ------------------------------------------------------------------------------------ alternatives
def _base(law, rng, shape):
    return rng.laplace(0.0, 1.0, shape) if law == "laplace" else rng.standard_normal(shape)


def _truncated(law, rng, shape, c):
    z = _base(law, rng, shape)
    bad = np.abs(z) > c
    while bad.any():
        z[bad] = _base(law, rng, int(bad.sum()))
        bad = np.abs(z) > c
    return z


def _ar1(law, rng, shape, rho=0.1):
    z = _base(law, rng, shape).reshape(shape[0], -1)
    mixed = lfilter([math.sqrt(1 - rho * rho)], [1.0, -rho], z, axis=0)
    mixed[0] = z[0]
    return mixed.reshape(shape)


def _point_mass(law, rng, shape, rate=0.01, at=0.5):
    z = _base(law, rng, shape)
    z[rng.random(shape) < rate] = at
    return z


def _equicorrelated(law, rng, shape, axis, rho=0.1):
    z = _base(law, rng, shape)
    common_shape = list(shape)
    common_shape[axis] = 1
    return math.sqrt(1 - rho) * z + math.sqrt(rho) * _base(law, rng, tuple(common_shape))


ALTERNATIVES = {
    "correct": lambda law, rng, shape: _base(law, rng, shape),
    "truncated at 4 sd": lambda law, rng, shape: _truncated(law, rng, shape, 4 * (LAPLACE_SD if law == "laplace" else 1)),
    "clipped at 10 scales": lambda law, rng, shape: np.clip(_base(law, rng, shape), -10, 10),
    "1% point mass": _point_mass,
    "correlation 0.1 between calls": _ar1,
    "correlation 0.1 between coordinates": lambda law, rng, shape: _equicorrelated(law, rng, shape, axis=2),
    "correlation 0.1 between people": lambda law, rng, shape: _equicorrelated(law, rng, shape, axis=1),
    "10% too little noise": lambda law, rng, shape: 0.9 * _base(law, rng, shape),
    "scale from the data (a quarter of the bound)": lambda law, rng, shape: 0.25 * _base(law, rng, shape),
}


# ------------------------------------------------------------------------------------ the checks' tests
def _laplace_release(zs):
    for z in zs:
        _stats.check_laplace_noise(z, "")
        _stats.check_fresh_noise(z, 0.0, 1.0, "laplace", "")
    _sweeps.check_independent_calls(zs, "")
    _sweeps.check_pooled_tails(zs, "laplace", "")


def _pydp_mean(zs):
    for z, (low, high) in zip(zs, [(0.87, 1.15)] * 3 + [(0.72, 1.35)]):
        deviation = float(np.mean(np.abs(z)))
        if not low <= deviation <= high or abs(float(np.mean(z))) > 6 * LAPLACE_SD / math.sqrt(len(z)):
            raise CheckFailed("scale or centre")
        _stats.check_fresh_noise(z, 0.0, 1.0, "laplace", "")
        if float(np.max(np.abs(z))) < 0.9 * _stats.laplace_tail_threshold(len(z)):
            raise CheckFailed("tails")
    _sweeps.check_independent_calls(zs, "")


def _pydp_plan(zs):
    columns = np.stack(zs, axis=1)  # runs x queries; queries 0-1, 2-3, 4-5 repeat a kind
    for column in columns.T:
        if not 0.75 <= float(np.mean(np.abs(column))) <= 1.33:
            raise CheckFailed("scale")
    for a in range(0, columns.shape[1], 2):
        r = float(np.corrcoef(columns[:, a], columns[:, a + 1])[0, 1])
        if abs(r) > 5.5 / math.sqrt(len(columns)):
            raise CheckFailed("repeats")


def _gaussian_release(zs):
    for z in zs:
        _stats.check_gaussian_noise(z, "")
        _sweeps.check_coordinate_correlation(z, "")
        _sweeps.check_independent_calls([z.ravel()], "", lags=(1, z.shape[2], z.shape[1] * z.shape[2]))
        _stats.check_fresh_noise(z, 0.0, 1.0, "gaussian", "")
    _sweeps.check_pooled_tails(zs, "gaussian", "")


def _sum_shapes():
    from mic_dp_helpers.checks import lesson02

    return [(lesson02._sum_draws(len(case[0])),) for case in lesson02._sum_cases(lesson02.SEED)]


#: check -> (law, shapes of the noise arrays it tests, the tests, alternatives that apply)
CHECKS = {
    "02.1": ("laplace", lambda: [(36_000,)] * 9, _laplace_release),
    "02.4": ("laplace", _sum_shapes, _laplace_release),
    "04.1": ("laplace", lambda: [(1_500,)] * 3 + [(300,)], _pydp_mean),
    "04.4": ("laplace", lambda: [(300,)] * 6, _pydp_plan),
    "06.4": ("gaussian", lambda: [(400, 20, 3), (30, 2000, 2), (50, 1000, 2)], _gaussian_release),
}
APPLIES = {
    "02.1": [a for a in ALTERNATIVES if "coordinates" not in a and "people" not in a and "data" not in a],
    "02.4": [a for a in ALTERNATIVES if "coordinates" not in a and "people" not in a],
    "04.1": [a for a in ALTERNATIVES if "coordinates" not in a and "people" not in a],
    "04.4": [a for a in ALTERNATIVES if "coordinates" not in a and "people" not in a],
    "06.4": [a for a in ALTERNATIVES if a != "clipped at 10 scales"],
}


def _draw_repeat_correlated(name, law, rng, shapes):
    """04.4: the alternative's correlation applies between a query and its repeat."""
    if name == "correlation 0.1 between calls":
        zs = [_base(law, rng, shape) for shape in shapes]
        for a in range(0, len(zs), 2):
            zs[a + 1] = 0.1 * zs[a] + math.sqrt(0.99) * zs[a + 1]
        return zs
    return [ALTERNATIVES[name](law, rng, shape) for shape in shapes]


def power(exercise: str, name: str, reps: int, seed: int = 0) -> tuple[int, int]:
    """(rejections, reps) of ``exercise``'s tests on noise drawn from alternative ``name``."""
    law, shapes, tests = CHECKS[exercise]
    shapes = shapes()
    rng = np.random.default_rng([seed, reps])
    rejected = 0
    for _ in range(reps):
        if exercise == "04.4":
            zs = _draw_repeat_correlated(name, law, rng, shapes)
        else:
            zs = [ALTERNATIVES[name](law, rng, shape) for shape in shapes]
        try:
            tests(zs)
        except CheckFailed:
            rejected += 1
    return rejected, reps


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("exercises", nargs="*", default=list(CHECKS))
    parser.add_argument("--reps", type=int, default=200)
    args = parser.parse_args(argv)
    print(f"{'check':<6} {'alternative':<46} {'power':>6} {'95% interval':>16}")
    for exercise in args.exercises:
        for name in APPLIES[exercise]:
            k, n = power(exercise, name, args.reps)
            low, high = _interval(k, n)
            print(f"{exercise:<6} {name:<46} {k / n:>6.3f}   [{low:.3f}, {high:.3f}]", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
