"""Check 05.4 refuses answers that never audit (outside referee, lessons 05-06).

The near-claim case (``mic_dp_helpers.checks.lesson05_audit._near_claim_case``) has honest columns that are
clipped or rounded (post-processing: a scale estimate or a repeat detector flags them) and a flawed column
whose noise has an honest spread but a sharp centre (a scale estimate misses it). So an epsilon read from
a column's spread (mean absolute deviation, SD or IQR), with any margin and with or without a test for
repeated values, is rejected at every seed; an audit of 20,000 samples per side is not.
"""

from __future__ import annotations

import math
import re

import pytest

from mic_dp_helpers.checks import CheckFailed
from mic_dp_helpers.checks.lesson05_audit import check_flawed_features
from wrong_answers import collect_wrong_answers, lesson05_08_s40d
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
    "audit's point estimate above 1.3 times the claim": "(a point estimate, with any margin)",  # point column
    "the audit, or its best event's count ratio above 1.2 times the claim (referee s39rC)":
        "(a point estimate, with any margin)",
    "the audit, or its best event's count ratio above twice the claim": "(a point estimate, with any margin)",
    "epsilon from the mean absolute deviation, margin 1.3, repeat test (referee)": "is not an audit",
}


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(HINTS))
def test_each_wrong_audit_gets_a_hint_that_names_its_error(name):
    with pytest.raises(CheckFailed, match=re.escape(HINTS[name])):
        check_flawed_features(collect_wrong_answers()["05.4"][name])


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


@pytest.mark.slow
@pytest.mark.parametrize("margin", [1.05, 1.2, 2.0, 3.0])
def test_the_audit_or_a_count_ratio_fails_at_every_seed(margin):
    """Referee s39rC (D0): the audit OR its best event's count ratio above 1.2 times the claim passed; the point
    column's count ratio is 8.2 claims or more in the near-claim case, run at every seed."""
    from wrong_answers.lesson05_07_08_s39c import _audit_or_ratio

    for seed in range(4):
        with pytest.raises(CheckFailed, match="a point estimate"):
            check_flawed_features(_audit_or_ratio(margin), seed)


@pytest.mark.parametrize("claimed", [0.33, 0.37, 1.0, 1.5, 1.6, 1.8])
def test_the_point_column_is_not_refuted_and_its_count_ratio_is_above_twice_the_claim(claimed):
    """The exercise's audit, one with the datasets swapped and one of 40,000 releases per side give bounds of at
    most 0.7 times the claim; the best event's log count ratio is 2.1 times the claim or more."""
    from mic_dp_helpers.attacks.audit import audit_epsilon
    from mic_dp_helpers.checks import _audit_rare

    k_rare, k_other = _audit_rare.point_counts(claimed)
    result = _audit_rare.point_audit(k_rare, k_other)
    assert result.epsilon_lower_bound <= 0.7 * claimed
    assert math.log(max(result.count_a, result.count_b) / min(result.count_a, result.count_b)) > 2.1 * claimed
    a, b = _audit_rare.point_sequences(k_rare, k_other, 40_000)
    for first, second, n in ((b[:20_000], a[:20_000], 20_000), (a, b, 40_000)):
        other = audit_epsilon(lambda data, k, rng: data[:k], first, second, n_samples=n, rng=0)
        assert other.epsilon_lower_bound <= 0.7 * claimed


@pytest.mark.slow
def test_the_rare_case_is_judged_right_by_the_audit_and_wrong_by_a_count_ratio():
    """Without the point column: the exercise's audit judges the rare case's columns right, and the audit OR a
    count ratio above 1.2 claims flags one of its 12 honest rare columns (measured: 100 of seeds 0-99)."""
    from mic_dp_helpers.attacks.audit import audit_epsilon
    from mic_dp_helpers.checks import lesson05_audit

    for seed in range(3):
        epsilons, claimed, dataset_a, dataset_b, leaks, forms = lesson05_audit._audit_case(seed, 6)
        release = lesson05_audit._row_release(epsilons, leaks, forms)
        kept = [j for j, form in enumerate(forms) if form[0] != "point"]
        results = {j: audit_epsilon(lambda data, k, rng, j=j: release(data, k, rng)[:, j], dataset_a, dataset_b,
                                    n_samples=20_000, rng=j) for j in kept}
        assert [j for j in kept if results[j].refutes(claimed)] == [j for j in kept if epsilons[j] > claimed]
        ratios = {j: math.log(max(r.count_a, r.count_b, 1) / max(min(r.count_a, r.count_b), 1))
                  for j, r in results.items()}
        assert any(ratios[j] > 1.2 * claimed for j in kept if forms[j][0] == "rare")


@pytest.mark.parametrize("name", sorted(lesson05_08_s40d.AUDIT_HINTS))
def test_audits_all_with_dataset_b_first_and_retried_get_the_retry_hint(name):
    """Referee s40rC (D2): audits all with dataset_b first, retried, were told "you also audited with the datasets
    swapped (dataset_b first) ... One audit per column, dataset_a first"; they never audited in the other order."""
    with pytest.raises(CheckFailed, match=re.escape(lesson05_08_s40d.AUDIT_HINTS[name])) as failure:
        check_flawed_features(lesson05_08_s40d.MORE_WRONG_ANSWERS["05.4"][name])
    assert "swapped" not in str(failure.value) and "dataset_a first" not in str(failure.value)
