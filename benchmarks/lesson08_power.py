"""Power of lesson 08's release checks (08.2, 08.5) against named alternatives, by simulation.

Usage::

    PYTHONPATH=$PWD .venv/bin/python benchmarks/lesson08_power.py [--reps 200]

Each alternative's noise is drawn in the shape of the check case that is there to catch it and fed
to :func:`mic_dp_helpers.checks._vector_noise.check_vector_noise` (and, for the point mass, to
:func:`mic_dp_helpers.checks._stats.check_fresh_noise`); the printed power is the share of
replicates rejected. The table in :data:`mic_dp_helpers.checks._stats.POWER_LESSON08` is this
script's output.
"""

from __future__ import annotations

import argparse

import numpy as np
from scipy.stats import truncnorm

from mic_dp_helpers.checks._core import CheckFailed
from mic_dp_helpers.checks._stats import check_fresh_noise
from mic_dp_helpers.checks._vector_noise import check_vector_noise


def _rejects(test) -> bool:
    try:
        test()
    except CheckFailed:
        return True
    return False


def _ar1(rng, draws, p, rho):
    z = rng.normal(size=(draws, p))
    for t in range(1, draws):
        z[t] = rho * z[t - 1] + np.sqrt(1 - rho**2) * z[t]
    return z


def _pair(rng, draws, p, rho, partner):
    z = rng.normal(size=(draws, p))
    z[:, partner] = rho * z[:, 0] + np.sqrt(1 - rho**2) * z[:, partner]
    return z


def _halves(rng, draws, p, rho):
    z = rng.normal(size=(draws, p))
    half = p // 2
    z[:, half:2 * half] = rho * z[:, :half] + np.sqrt(1 - rho**2) * z[:, half:2 * half]
    return z


def _equicorrelated(rng, draws, p, rho):
    return np.sqrt(1 - rho) * rng.normal(size=(draws, p)) + np.sqrt(rho) * rng.normal(size=(draws, 1))


def _point_mass(rng, draws, p, share):
    z = rng.normal(size=(draws, p))
    z[rng.random(draws) < share] = 0.0
    return z


#: (alternative, case, draws, coordinates, noise maker)
ALTERNATIVES = [
    ("noise truncated at 4 scales", "tails (25 calls, 20,000 coordinates)", 25, 20_000,
     lambda rng, n, p: truncnorm.rvs(-4, 4, size=(n, p), random_state=rng)),
    ("noise truncated at 3 scales", "generic (1,500 calls, 2 coordinates)", 1500, 2,
     lambda rng, n, p: truncnorm.rvs(-3, 3, size=(n, p), random_state=rng)),
    ("Student-t (5) noise of the same variance", "tails (25 calls, 20,000 coordinates)", 25, 20_000,
     lambda rng, n, p: rng.standard_t(5, (n, p)) * np.sqrt(3 / 5)),
    ("10% too little noise", "generic (1,500 calls, 2 coordinates)", 1500, 2,
     lambda rng, n, p: 0.9 * rng.normal(size=(n, p))),
    ("10% too little noise", "100,000 examples (100 calls, 2 coordinates)", 100, 2,
     lambda rng, n, p: 0.9 * rng.normal(size=(n, p))),
    ("correlation 0.1 between successive calls", "generic (1,500 calls, 2 coordinates)", 1500, 2,
     lambda rng, n, p: _ar1(rng, n, p, 0.1)),
    ("correlation 0.1 between successive calls", "tails (25 calls, 20,000 coordinates)", 25, 20_000,
     lambda rng, n, p: _ar1(rng, n, p, 0.1)),
    ("correlation 0.1 between two coordinates", "16 coordinates (3,000 calls)", 3000, 16,
     lambda rng, n, p: _pair(rng, n, p, 0.1, 9)),
    ("correlation 0.1 between coordinates j and j + p/2", "tails (25 calls, 20,000 coordinates)", 25, 20_000,
     lambda rng, n, p: _halves(rng, n, p, 0.1)),
    ("correlation 0.1 between all coordinates", "16 coordinates (3,000 calls)", 3000, 16,
     lambda rng, n, p: _equicorrelated(rng, n, p, 0.1)),
    ("a scale read from the data (rows at 1e-3 C: noise x 1e-3)", "rows far below C (1,500 calls)", 1500, 2,
     lambda rng, n, p: 1e-3 * rng.normal(size=(n, p))),
    ("no noise in 1% of calls", "generic (1,500 calls, 2 coordinates)", 1500, 2,
     lambda rng, n, p: _point_mass(rng, n, p, 0.01)),
    ("none (a correct release)", "generic (1,500 calls, 2 coordinates)", 1500, 2,
     lambda rng, n, p: rng.normal(size=(n, p))),
]


def power(make, draws, p, reps, seed=0) -> float:
    rng = np.random.default_rng(seed)
    rejected = 0
    for _ in range(reps):
        noise = make(rng, draws, p)
        centre = np.full(p, 3.7)
        rejected += _rejects(lambda: (check_vector_noise(noise, 1.0, ""),
                                      check_fresh_noise(centre + noise, centre, 1.0, "gaussian", "")))
    return rejected / reps


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=200)
    args = parser.parse_args(argv)
    for name, case, draws, p, make in ALTERNATIVES:
        reps = args.reps if draws * p < 100_000 else max(20, args.reps // 10)
        print(f"{name:<60} {case:<46} {power(make, draws, p, reps):.3f} ({reps} replicates)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
