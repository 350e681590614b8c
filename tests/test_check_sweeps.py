"""The sweep and pooled tests of checks/_stats (issue 26): they reject what they are there to catch, not correct noise."""

from __future__ import annotations

import math
import sys
from pathlib import Path

import numpy as np
import pytest

from mic_dp_helpers.checks import _stats, _sweeps
from mic_dp_helpers.checks._core import CheckFailed

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))


def test_corner_sweep_meets_every_corner():
    cases = _sweeps.corner_sweep(np.random.default_rng(3), {"n": (1, 120_000), "epsilon": (1e-2, 20.0)}, interior=2)
    assert len(cases) == 6 and all(isinstance(c["n"], int) for c in cases)
    n_low = [c for c in cases if c["n"] < 4]
    eps_high = [c for c in cases if c["epsilon"] > 9]
    assert n_low and eps_high and any(c["n"] > 37_000 and c["epsilon"] > 9 for c in cases)
    assert any(c["n"] < 4 and c["epsilon"] < 0.022 for c in cases)


@pytest.mark.parametrize("seed", range(5))
def test_pooled_tests_pass_correct_noise(seed):
    rng = np.random.default_rng(seed)
    laplace = [rng.laplace(size=20_000) for _ in range(4)]
    _sweeps.check_independent_calls(laplace, "x")
    _sweeps.check_pooled_tails(laplace, "laplace", "x")
    _sweeps.check_coordinate_correlation(rng.standard_normal((200, 20, 3)), "x")


def test_antithetic_and_correlated_calls_are_caught():
    rng = np.random.default_rng(0)
    z = rng.laplace(size=3_000)
    z[1::2] = -z[0::2]
    with pytest.raises(CheckFailed, match="independence"):
        _sweeps.check_independent_calls([z], "x")
    e = rng.standard_normal(20_000)
    ar = e.copy()
    for t in range(1, len(e)):
        ar[t] = 0.1 * ar[t - 1] + math.sqrt(0.99) * e[t]
    with pytest.raises(CheckFailed, match="independence"):
        _sweeps.check_independent_calls([ar], "x")


def test_clipped_noise_fails_the_pooled_tails():
    rng = np.random.default_rng(1)
    clipped = [np.clip(rng.laplace(size=40_000), -10, 10) for _ in range(8)]
    with pytest.raises(CheckFailed, match="tails"):
        _sweeps.check_pooled_tails(clipped, "laplace", "x")


def test_correlated_coordinates_and_groups_are_caught():
    rng = np.random.default_rng(2)
    z = rng.standard_normal((400, 20, 3))
    coordinates = math.sqrt(0.9) * z + math.sqrt(0.1) * rng.standard_normal((400, 20, 1))
    groups = math.sqrt(0.9) * z + math.sqrt(0.1) * rng.standard_normal((400, 1, 3))
    for correlated in (coordinates, groups):
        with pytest.raises(CheckFailed, match="correlated"):
            _sweeps.check_coordinate_correlation(correlated, "x")


@pytest.mark.slow
def test_power_rows_of_06_4_hold():
    import check_power

    assert check_power.power("06.4", "correlation 0.1 between people", reps=3) == (3, 3)
    assert check_power.power("06.4", "truncated at 4 sd", reps=3) == (3, 3)
    assert check_power.power("06.4", "correct", reps=3) == (0, 3)


def test_clipped_means_of_07_4_agree_with_a_clip_per_bound():
    """07.4's prefix-sum clipped means (one sort per case) equal ``np.clip(values, 0, u).mean()`` per bound."""
    from mic_dp_helpers.checks.lesson07_sweeps import clipped_means

    rng = np.random.default_rng(7)
    for n in (1, 2, 60, 23_000):
        values = np.round(rng.lognormal(3.0, 0.8, n), 2)
        uppers = np.concatenate([[0.0, values.max() * 2], values[:3], rng.uniform(0.0, 200.0, 40)])
        expected = np.array([np.clip(values, 0.0, u).mean() for u in uppers])
        assert np.allclose(clipped_means(values, uppers), expected, rtol=1e-14, atol=0.0)


def _band_noise(seed, family_below=None, share=0.25):
    """Standardised noise of 400 band-sweep cases (20 releases each) and their keys; the cases whose key lies below
    its ``share`` quantile get ``family_below`` (mean |z| 1) instead of Laplace."""
    from wrong_answers.lesson02_shape import FAMILIES

    rng = np.random.default_rng(seed)
    keys = {name: rng.random(400) for name in ("epsilon", "sensitivity", "scale", "ratio")}
    cutoff = np.quantile(keys["epsilon"], share)
    z = [np.array([FAMILIES[family_below](rng, 1.0) for _ in range(20)])
         if family_below and keys["epsilon"][i] < cutoff else rng.laplace(0.0, 1.0, 20) for i in range(400)]
    return z, keys


@pytest.mark.parametrize("seed", range(5))
def test_band_shape_passes_laplace_noise(seed):
    from mic_dp_helpers.checks._shape_scan import check_band_shape

    check_band_shape(*_band_noise(seed), "Over 400 cases,")


@pytest.mark.parametrize("family, share", [("uniform", 0.05), ("gaussian", 0.2)])
def test_band_shape_catches_another_family_at_one_end(family, share):
    """Uniform noise on 20 cases (400 releases), a Gaussian on 80 (1,600), of the right mean |noise|: s38rA D2."""
    from mic_dp_helpers.checks._shape_scan import check_band_shape

    with pytest.raises(CheckFailed, match="property: Laplace noise for every parameter"):
        check_band_shape(*_band_noise(7, family, share), "Over 400 cases,")
