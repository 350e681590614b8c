"""Check 05.4 refuses answers that never audit (outside referee, lessons 05-06).

The near-claim case (``mic_dp_helpers.checks.lesson05._near_claim_case``) has honest columns that are
clipped or rounded (post-processing: a scale estimate or a repeat detector flags them) and a flawed column
whose noise has an honest spread but a sharp centre (a scale estimate misses it). So an epsilon read from
a column's spread (mean absolute deviation, SD or IQR), with any margin and with or without a test for
repeated values, is rejected at every seed; an audit of 20,000 samples per side is not.
"""

from __future__ import annotations

import pytest

from mic_dp_helpers.checks import CheckFailed
from mic_dp_helpers.checks.lesson05 import check_flawed_features
from wrong_answers.lesson05 import WRONG_ANSWERS, point_estimate_no_audit


@pytest.mark.slow
@pytest.mark.parametrize("name", ["margin 1.15, exact-value test (referee)", "margin 1.3, repeat test (referee)",
                                  "SD, margin 1.2, repeat test (referee)", "IQR, margin 1.3, no repeat test"])
def test_answers_without_an_audit_are_rejected_at_every_seed(name):
    matches = [answer for key, answer in WRONG_ANSWERS["05.4"].items() if key.endswith(name)]
    assert len(matches) == 1
    for seed in range(12):
        with pytest.raises(CheckFailed):
            check_flawed_features(matches[0], seed)


@pytest.mark.slow
def test_point_estimate_without_audit_is_rejected():
    for seed in range(12):
        with pytest.raises(CheckFailed):
            check_flawed_features(point_estimate_no_audit, seed)
