"""Check 05.4 refuses a point estimate without an audit (outside referee, lessons 05-06).

The near-claim case has two honest columns spending exactly the claim: a point estimate of each
column's epsilon exceeds the claim about half the time (45% of 200 runs), so the heuristic passes a
seed's cases about one time in four; the audit never flags them (lower bounds 4.1 SD below the claim).
Over 12 fixed seeds it was rejected 9 times; the test asks for at least 6.
"""

from __future__ import annotations

import pytest

from mic_dp_helpers.checks import CheckFailed
from mic_dp_helpers.checks.lesson05 import check_flawed_features
from wrong_answers.lesson05 import point_estimate_no_audit


@pytest.mark.slow
def test_point_estimate_without_audit_is_mostly_rejected():
    rejected = 0
    for seed in range(12):
        try:
            check_flawed_features(point_estimate_no_audit, seed)
        except CheckFailed:
            rejected += 1
    assert rejected >= 6
