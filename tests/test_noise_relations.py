"""The exact-relation tests of lesson 08's noise (mic_dp_helpers.checks._noise_relations): they pass independent
Gaussian noise and fail the relations referee s37rC found accepted (blocks [z, w, -z, w], a removed direction,
a draw reused on other data)."""

from __future__ import annotations

import numpy as np
import pytest

from mic_dp_helpers.checks._core import CheckFailed
from mic_dp_helpers.checks._noise_relations import (
    check_full_rank, check_no_repeated_coordinates, check_no_repeated_noise, unit_resolution)


def test_independent_noise_passes_every_test():
    rng = np.random.default_rng(37)
    for calls, p in ((44, 2), (74, 17), (552, 256), (4, 40), (100, 2000), (3, 13)):
        for _ in range(20):
            units = rng.standard_normal((calls, p))
            check_full_rank(units, "here:")
            check_no_repeated_coordinates(units, "here:", 1e-16)
            check_no_repeated_noise([(units, "here:", 1e-16), (rng.standard_normal((500, p)), "there:", 1e-16)])


def test_a_removed_direction_fails_the_rank_test():
    rng = np.random.default_rng(1)
    units = rng.standard_normal((80, 20))
    v = np.where(np.arange(20) % 2 == 0, 1.0, -1.0) / np.sqrt(20)
    with pytest.raises(CheckFailed, match="no noise"):
        check_full_rank(units - np.outer(units @ v, v), "here:")


def test_opposite_coordinates_fail():
    rng = np.random.default_rng(2)
    z, w = rng.standard_normal((4, 5)), rng.standard_normal((4, 5))
    with pytest.raises(CheckFailed, match="opposite noise"):
        check_no_repeated_coordinates(np.hstack([z, w, -z, w]), "here:", 1e-16)


def test_a_draw_reused_in_another_case_fails_unless_the_releases_are_coarse():
    rng = np.random.default_rng(3)
    first, second = rng.standard_normal((4, 31)), rng.standard_normal((2, 31))
    second[0] = first[-1]
    with pytest.raises(CheckFailed, match="the same noise"):
        check_no_repeated_noise([(first, "with one input:", 1e-16), (second, "with another input:", 1e-16)])
    check_no_repeated_noise([(first, "with one input:", 1e-16), (second, "with another input:", 1e-6)])


def test_float32_releases_are_coarse():
    assert unit_resolution(np.float32([1.1, 2.5]), 1.0) > 1e-8 > unit_resolution(np.array([1.1, 2.5]), 1.0)
