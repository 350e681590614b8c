"""Statistical checks reject a correct answer rarely: a regression test run in CI's slow tier.

This test does not measure the false-rejection rate: ``benchmarks/check_false_rejection.py`` runs 1,000 seeds per
exercise and prints the rates with their Clopper-Pearson bounds (the target: 1 in 1,000). What the test catches is a
check changed so that it rejects correct answers often. Its seeds are fixed (the inputs and the check's own draws
change with the seed; PyDP's noise changes with every run), and its size is set by CI's time limit: 100-200 seeds of
every check took about 7,900 s of CPU (stop 40's CI ran out of time), so

- a check that takes 3-8 s a seed (``COSTLY``) runs seeds 0-9 and fails on one rejection. Power against a check
  broken to reject a correct answer at rate r: 0.40 at r = 5%, 0.65 at 10%, 0.89 at 20%; a check at the design
  rate of 1e-4 fails it with probability 1e-3 (at 1e-3: 0.01).
- a cheaper check runs seeds 0-39 and fails on two rejections: power 0.60 at r = 5%, 0.92 at 10%, 1.00 at 20%;
  a check at 1e-3 fails it with probability 8e-4.

One test per exercise: the root conftest.py shares this module's tests out between the suite's workers one by
one. Deselect with ``-m "not slow"`` when iterating.
"""

from __future__ import annotations

import pytest

from check_rates import RANDOM_EXERCISES, rejection_rate

#: Checks that take 3-8 s per seed (time_checks on the reference solutions, stop 40).
COSTLY = frozenset({"02.1", "02.4", "04.1", "04.4", "06.4", "07.1", "07.3", "07.4", "08.2", "08.5", "09.1"})
#: (seeds, most rejections allowed) for a costly and a cheaper check; the module docstring gives their power.
COSTLY_RUN = (range(10), 0)
CHEAP_RUN = (range(40), 1)


def assert_rarely_rejected(exercise_id):
    seeds, allowed = COSTLY_RUN if exercise_id in COSTLY else CHEAP_RUN
    rejected, runs, hints, _ = rejection_rate(exercise_id, seeds)
    assert rejected <= allowed, f"{exercise_id}: a correct answer was rejected {rejected} times in {runs}: {hints}"


@pytest.mark.slow
@pytest.mark.parametrize("exercise_id", sorted(RANDOM_EXERCISES))
def test_correct_answer_is_rarely_rejected(exercise_id):
    assert_rarely_rejected(exercise_id)


def test_costly_names_statistical_checks():
    assert COSTLY <= set(RANDOM_EXERCISES), sorted(COSTLY - set(RANDOM_EXERCISES))
