"""Referee s40rB D1, D2 and D10 (07.1): few people per call and many calls. Each wrong answer fails the whole check
with a true hint (slow) and fails the few-people ladder alone (fast); the referee's honest answers pass the ladder."""

from __future__ import annotations

import math

import numpy as np
import pytest

from mic_dp_helpers.checks import run_check
from mic_dp_helpers.checks._core import CheckFailed
from mic_dp_helpers.checks._rr_few_people import check_few_people, ladder, ladder_epsilons, n0, smallest_size
from mic_dp_helpers.checks.lesson07 import _reports
from wrong_answers.lesson07_s40g import HINT_WORDS, HONEST, MORE_WRONG_ANSWERS

_WRONG = MORE_WRONG_ANSWERS["07.1"]


def _grid(seed: int) -> list[float]:
    """The epsilons of an epsilon-and-size grid as lesson07._epsilon_size_grid draws them."""
    u = np.random.default_rng(seed).random()
    return [math.exp(math.log(0.01) + (k + u) / 24 * (math.log(12.0) - math.log(0.01))) for k in range(24)]


@pytest.mark.slow
@pytest.mark.parametrize("mistake", list(_WRONG))
def test_s40g_answer_fails_with_a_true_hint(mistake):
    result = run_check("07.1", _WRONG[mistake])
    assert result.status == "failed", f"{mistake!r} was accepted"
    assert all(word in result.message for key, word in HINT_WORDS.items() if key in mistake), result.message


@pytest.mark.parametrize("mistake", list(_WRONG))
@pytest.mark.parametrize("seed", [0, 1])
def test_s40g_answer_fails_the_few_people_ladder(mistake, seed):
    with pytest.raises(CheckFailed, match="every report is the true answer"):
        check_few_people(_WRONG[mistake], np.random.default_rng(seed), _grid(seed), _reports)


@pytest.mark.parametrize("name", list(HONEST["07.1"]))
@pytest.mark.parametrize("seed", [0, 1])
def test_honest_answers_pass_the_few_people_ladder(name, seed):
    check_few_people(HONEST["07.1"][name], np.random.default_rng(seed), _grid(seed), _reports)


def test_the_ladder_starts_at_the_smallest_size_and_stays_below_n0():
    grid = _grid(3)
    between = ladder_epsilons(grid)
    assert len(between) in (23, 24) and all(a < e < b for a, e, b in zip(grid, between, grid[1:]))
    for epsilon in between:
        sizes = ladder(epsilon, n0(epsilon), 0.5)
        assert sizes[0] == smallest_size(epsilon) and all(n < n0(epsilon) for n in sizes[1:])
        assert sizes == sorted(set(sizes))
    assert smallest_size(5.29) == 1 and smallest_size(5.3) == 2
