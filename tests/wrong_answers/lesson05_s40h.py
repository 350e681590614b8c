"""Wrong answers to 05.4 found by referee s40rD (D1), each with another member of its class.

The audit, or a rule on the counts of the audit's best event (a point estimate, no valid confidence bound) passed:
a count ratio above 1.2 x the claim gated on the bound being above 0.8 x the claim, a count ratio above 1.5 x the
claim where both counts are 3 or more, and a best event seen on one side only (0 vs 10 or more). Now the rare case
holds two more point columns (fixed releases, :mod:`mic_dp_helpers.checks._audit_rare`): one whose best event has
counts of 31-35 vs 0 (bound at most 0.7 claims) and one with 87-102 vs 5 (bound 0.89-0.90 claims, log count ratio
1.68-1.79 claims), so every member below fails at every seed, exactly. They join the owners' answers as
``MORE_WRONG_ANSWERS`` (see :func:`wrong_answers.collect_wrong_answers`).
"""

from wrong_answers.lesson05_07_08_s39c import _audits, _count_ratio


def _ratio_near_bound(margin: float, share: float):
    """The audit, or a count ratio above ``margin`` x the claim when the bound is above ``share`` x the claim."""
    def answer(release, dataset_a, dataset_b, claimed):
        return [j for j, r in _audits(release, dataset_a, dataset_b)
                if r.refutes(claimed)
                or (_count_ratio(r) > margin * claimed and r.epsilon_lower_bound > share * claimed)]
    return answer


def _ratio_at_least(margin: float, at_least: int):
    """The audit, or a count ratio above ``margin`` x the claim where both counts are ``at_least`` or more."""
    def answer(release, dataset_a, dataset_b, claimed):
        return [j for j, r in _audits(release, dataset_a, dataset_b)
                if r.refutes(claimed) or _count_ratio(r, at_least=at_least) > margin * claimed]
    return answer


def _zero_count(at_least: int):
    """The audit, or a best event seen on one side only, ``at_least`` or more times on the other."""
    def answer(release, dataset_a, dataset_b, claimed):
        return [j for j, r in _audits(release, dataset_a, dataset_b)
                if r.refutes(claimed) or (min(r.count_a, r.count_b) == 0 and max(r.count_a, r.count_b) >= at_least)]
    return answer


MORE_WRONG_ANSWERS = {"05.4": {
    "the audit, or a count ratio above 1.2 x the claim with a bound above 0.8 x it (referee s40rD)":
        _ratio_near_bound(1.2, 0.8),
    "the audit, or a count ratio above 1.5 x the claim with a bound above 0.85 x it": _ratio_near_bound(1.5, 0.85),
    "the audit, or a count ratio above 1.5 x the claim, both counts 3 or more (referee s40rD)":
        _ratio_at_least(1.5, 3),
    "the audit, or a count ratio above 1.6 x the claim, both counts 5 or more": _ratio_at_least(1.6, 5),
    "the audit, or a count ratio above 1.2 x the claim, both counts 5 or more (stated before)":
        _ratio_at_least(1.2, 5),
    "the audit, or a best event seen 0 vs 10 or more times (referee s40rD)": _zero_count(10),
    "the audit, or a best event seen 0 vs 25 or more times": _zero_count(25),
}}
