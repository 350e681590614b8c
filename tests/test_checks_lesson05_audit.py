"""Check 05.4 refuses answers that never audit (outside referee, lessons 05-06).

The near-claim case (``mic_dp_helpers.checks.lesson05_audit._near_claim_case``) has honest columns that are
clipped or rounded (post-processing: a scale estimate or a repeat detector flags them) and a flawed column
whose noise has an honest spread but a sharp centre (a scale estimate misses it). So an epsilon read from
a column's spread (mean absolute deviation, SD or IQR), with any margin and with or without a test for
repeated values, is rejected at every seed; an audit of 20,000 samples per side is not.
"""

from __future__ import annotations

import re

import pytest

from mic_dp_helpers.checks import CheckFailed
from mic_dp_helpers.checks.lesson05_audit import check_flawed_features
from wrong_answers import lesson05_08_s40d
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


#: A wrong answer of each class the check sees in its release's calls or its cases, and a phrase its hint must
#: hold (the hint names the actual error, outside referee).
HINTS = {
    "audit with 10,000 samples per side (referee)": "drew 10,000 releases per side",
    "audit with 15,000 samples per side (referee)": "drew 15,000 releases per side",
    "same noise for both datasets: a fixed seed in the column function (referee)": "the same noise",
    "same noise for both datasets: the generator reset in every call": "the same noise",
    "dataset_b's releases made from dataset_a's": "never on dataset_b",
    "audit retried until it refutes, 2 tries (referee)": "one audit per column",
    "audits both directions, larger bound kept (referee)": "datasets swapped",
    "audits the other direction when the first does not refute": "datasets swapped",
    "audit with delta 0.01 (referee)": "delta above 0",
    "audit with 5 bins (referee)": "n_bins=50",
    "audits only the first half of the columns (referee)": "audit every column",
    "point estimate: largest ratio of event counts over scanned events (referee)": "a point estimate",
    "audit's point estimate above 1.3 times the claim": "a margin above the claim",  # the mirror column (s38rC)
    "epsilon from the mean absolute deviation, margin 1.3, repeat test (referee)": "is not an audit",
}


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(HINTS))
def test_each_wrong_audit_gets_a_hint_that_names_its_error(name):
    with pytest.raises(CheckFailed, match=re.escape(HINTS[name])):
        check_flawed_features(WRONG_ANSWERS["05.4"][name])


@pytest.mark.slow
@pytest.mark.parametrize("n_samples", [20_000, 40_000])
def test_correct_audits_with_enough_samples_pass(n_samples):
    from wrong_answers.lesson05 import _audit_columns_with

    check_flawed_features(_audit_columns_with(n_samples=n_samples, n_bins=50), 3)


@pytest.mark.slow
@pytest.mark.parametrize("seed", [3, 506])
def test_one_audit_per_column_with_dataset_b_first_passes(seed):
    """Referee s39rC (D1): one audit per column with the datasets in the order (b, a) was told "you also audited
    with the datasets swapped and kept the larger bound"; audit_epsilon tests both directions, so it is valid."""
    from wrong_answers.lesson05_07_08_s39c import audit_b_first

    check_flawed_features(audit_b_first, seed)


@pytest.mark.parametrize("name", sorted(lesson05_08_s40d.AUDIT_HINTS))
def test_audits_all_with_dataset_b_first_and_retried_get_the_retry_hint(name):
    """Referee s40rC (D2): audits all with dataset_b first, retried, were told "you also audited with the datasets
    swapped (dataset_b first) ... One audit per column, dataset_a first"; they never audited in the other order."""
    with pytest.raises(CheckFailed, match=re.escape(lesson05_08_s40d.AUDIT_HINTS[name])) as failure:
        check_flawed_features(lesson05_08_s40d.MORE_WRONG_ANSWERS["05.4"][name])
    assert "swapped" not in str(failure.value) and "dataset_a first" not in str(failure.value)
