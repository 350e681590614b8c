"""The mirror test (``check_no_mirrors``): honest noise on a float32 grid passes; mirrors excused by near-equal
pairs (draws reused with a tiny jitter) do not."""

from __future__ import annotations

import numpy as np
import pytest

from mic_dp_helpers.checks._core import CheckFailed
from mic_dp_helpers.checks._noise_tests import check_fresh_noise, check_no_mirrors


def test_honest_float32_noise_passes_the_mirror_test():
    rng = np.random.default_rng(3)
    releases = (np.float32(0.5) + np.float32(0.3) * rng.standard_normal(200_000, dtype=np.float32)).astype(float)
    check_no_mirrors(releases, 0.5, 0.3, "x")


@pytest.mark.parametrize("mirrors, near_duplicates", [(60, 20), (300, 100)])
def test_mirrors_are_not_excused_by_near_duplicates(mirrors, near_duplicates):
    rng = np.random.default_rng(5)
    noise = rng.laplace(0.0, 0.7, 1500)
    order = rng.permutation(noise.size)
    for k in range(mirrors):  # call order[2k + 1] mirrors call order[2k]
        noise[order[2 * k + 1]] = -noise[order[2 * k]]
    for k in range(mirrors, mirrors + near_duplicates):  # ... and a draw reused, 1e-12 of itself apart
        noise[order[2 * k + 1]] = noise[order[2 * k]] * (1 + 1e-12)
    check_fresh_noise(3.0 + noise, 3.0, 0.7, "laplace", "x")  # bit-equal pairs only: these pass it
    with pytest.raises(CheckFailed, match="average to the true answer"):
        check_no_mirrors(3.0 + noise, 3.0, 0.7, "x")
