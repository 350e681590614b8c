"""Lesson 07's statistical checks reject a correct answer rarely: at most 1 of 200 seeds (target under 1 in 1,000).
07.1 and 07.4 here, 07.3 and 07.5 in ``test_check_false_rejection_07_selection.py``: each of 07.1 and 07.3 takes
minutes for its 200 seeds, and pytest-xdist gives each file to one worker, so two files run side by side.

``benchmarks/check_false_rejection.py 07.1 07.3 07.4 07.5`` runs 1,000 seeds and prints the rates.
"""

from __future__ import annotations

import pytest

from test_check_false_rejection import assert_rarely_rejected


@pytest.mark.slow
@pytest.mark.parametrize("exercise_id", ["07.1", "07.4"])
def test_correct_answer_is_rarely_rejected(exercise_id):
    assert_rarely_rejected(exercise_id)
