"""09.1's test of a choice among customers who share days (referee s38rB D4, D8, D9), run on its own."""

from __future__ import annotations

import numpy as np
import pytest

from conftest import solution_namespace
from mic_dp_helpers.checks import run_check
from mic_dp_helpers.checks._core import CheckFailed
from mic_dp_helpers.checks.lesson09_neighbours import check_choice_ignores_neighbours
from wrong_answers import collect_wrong_answers

_ANSWERS = collect_wrong_answers()["09.1"]
#: The corpus answers the neighbours test exists for, with a word their hint must hold.
_NEIGHBOUR_CLASS = {"(data) days other customers also shop on first": "other customers",
                    "(data) days with at least 5 customers first": "other customers",
                    "(size) days with at least 3 customers first above 60,000 rows": "other customers",
                    "(data) on shared days the rows nearest the day's median amount": "by amount",
                    "(data) on shared days the first rows in table order": "by table position",
                    "(data) on days with at least 4 customers the last rows in table order": "by table position",
                    "(size) days weighted by their rows above 10,000 rows": "not among their rows",
                    "(size) days weighted by their rows above 60,000 rows": "not among their rows"}


@pytest.mark.parametrize("mistake", sorted(_NEIGHBOUR_CLASS))
def test_neighbours_test_rejects_a_choice_that_looks_at_others(mistake):
    with pytest.raises(CheckFailed, match=_NEIGHBOUR_CLASS[mistake]):
        check_choice_ignores_neighbours(_ANSWERS[mistake], np.random.default_rng(11))


@pytest.mark.parametrize("seed", range(3))
def test_neighbours_test_accepts_the_reference(seed):
    solution = solution_namespace("09_dp_at_scale_solutions.ipynb")["bound_contributions"]
    check_choice_ignores_neighbours(solution, np.random.default_rng(seed))


def test_a_draw_shared_by_all_customers_is_called_not_independent_not_non_uniform():
    result = run_check("09.1", _ANSWERS["(state) one random priority per day, shared by all customers"])
    assert result.status == "failed"
    assert "not independent between customers" in result.message
    assert "not uniform" not in result.message and "not private" not in result.message
