"""Membership inference: the loss-threshold attack, its advantage and AUC with confidence intervals, and DP's bound.

The experiment (Yeom, Giacomelli, Fredrikson & Jha, "Privacy risk in machine learning:
analyzing the connection to overfitting", CSF 2018): a model is trained on **members**; the
attacker gets one example, a member or a **non-member** drawn from the same distribution, and
guesses "member" when the model's loss on it is small. Its **advantage** is
``TPR - FPR`` (true-positive rate on members minus false-positive rate on non-members).

What DP promises. If training is (epsilon, delta)-DP with respect to adding or removing one
example, every test that tells "this example was in the training set" from "it was not" has
``TPR <= e^epsilon FPR + delta`` and ``1 - FPR <= e^epsilon (1 - TPR) + delta`` (the hypothesis-
testing view of DP: Wasserman & Zhou 2010; Kairouz, Oh & Viswanath 2015). Adding the two,

    ``advantage = TPR - FPR <= (e^epsilon - 1 + 2 delta) / (e^epsilon + 1)``,

reached when both inequalities are tight. For membership inference with independently drawn
records this is the bound of Humphries et al. ("Investigating membership inference attacks under
data dependencies", CSF 2023); Yeom et al.'s ``e^epsilon - 1`` is looser. :func:`advantage_bound`
computes it.

The attack measures what **one** attacker achieves: a small advantage does not prove that a model
is private (a better attack may exist), while an advantage above the bound proves that the
claimed epsilon is false (for that experiment).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy.stats import rankdata

from mic_dp_helpers._validation import as_generator, check_probability, check_size
from mic_dp_helpers.attacks.audit import clopper_pearson

__all__ = ["AttackResult", "advantage_bound", "auc", "bootstrap_auc_interval", "loss_threshold_attack"]


def advantage_bound(epsilon: float, delta: float = 0.0) -> float:
    """Largest membership advantage (TPR - FPR) any attack can have against an (epsilon, delta)-DP model.

    ``(e^epsilon - 1 + 2 delta) / (e^epsilon + 1)``, computed as
    ``tanh(epsilon / 2) + 2 delta / (e^epsilon + 1)`` so that it stays accurate for small and
    large epsilon (see the module docstring for the derivation and references).

    Parameters
    ----------
    epsilon : float
        >= 0 (``inf`` gives 1: no protection).
    delta : float, default 0.0
        In [0, 1).

    Returns
    -------
    float
        In [0, 1].

    Examples
    --------
    >>> round(advantage_bound(1.0), 4)
    0.4621
    >>> advantage_bound(0.0, 0.01)
    0.01
    """
    if isinstance(epsilon, bool) or not isinstance(epsilon, (int, float, np.floating, np.integer)):
        raise TypeError(f"epsilon must be a number >= 0, got {type(epsilon).__name__} {epsilon!r}.")
    epsilon = float(epsilon)
    if math.isnan(epsilon) or epsilon < 0:
        raise ValueError(f"epsilon must be >= 0, got {epsilon}.")
    delta = check_probability(delta, "delta", allow_zero=True)
    if math.isinf(epsilon):
        return 1.0
    return min(1.0, math.tanh(epsilon / 2) + 2 * delta / (math.exp(min(epsilon, 700.0)) + 1))


def _scores(values, name: str) -> np.ndarray:
    try:
        array = np.asarray(values, dtype=float)
    except (TypeError, ValueError) as error:
        raise TypeError(f"{name} must be a 1-D array of numbers: {error}") from None
    if array.ndim != 1 or array.size == 0:
        raise ValueError(f"{name} must be a non-empty 1-D array, got shape {array.shape}.")
    if np.isnan(array).any():
        raise ValueError(f"{name} contains NaN; a loss of +inf is allowed, NaN is not.")
    return array


def auc(member_scores, nonmember_scores) -> float:
    """Area under the ROC curve: the chance a random member scores above a random non-member (ties count 1/2).

    scikit-learn's :func:`~sklearn.metrics.roc_auc_score` on the ranks of the scores (ranks keep the
    order, ties included, and let a score of -inf, the negative of an infinite loss, take part).
    Higher scores mean "more likely a member" (for a loss attack, pass minus the loss).

    Parameters
    ----------
    member_scores, nonmember_scores : array_like
        Attack scores of members and of non-members (1-D, finite, non-empty).

    Returns
    -------
    float
        The AUC in [0, 1]; 0.5 is a guess.

    Examples
    --------
    >>> auc([3.0, 4.0], [1.0, 2.0])
    1.0
    >>> auc([1.0, 2.0], [1.0, 2.0])
    0.5
    """
    members = _scores(member_scores, "member_scores")
    nonmembers = _scores(nonmember_scores, "nonmember_scores")
    from sklearn.metrics import roc_auc_score

    labels = np.r_[np.ones(len(members)), np.zeros(len(nonmembers))]
    return float(roc_auc_score(labels, rankdata(np.concatenate([members, nonmembers]))))


def bootstrap_auc_interval(member_scores, nonmember_scores, confidence: float = 0.95, n_boot: int = 1000,
                           rng=None) -> tuple[float, float]:
    """Percentile bootstrap interval for :func:`auc`, resampling members and non-members separately.

    Parameters
    ----------
    member_scores, nonmember_scores : array_like
        Attack scores of members and of non-members.
    confidence : float, default 0.95
        Coverage of the interval, in (0, 1).
    n_boot : int, default 1000
        Bootstrap resamples (>= 10).
    rng : None, int or numpy.random.Generator, optional
        Source of randomness.

    Returns
    -------
    low, high : float
        The percentile interval.

    Examples
    --------
    >>> low, high = bootstrap_auc_interval(np.arange(50.0) + 10, np.arange(50.0), rng=0)
    >>> low < auc(np.arange(50.0) + 10, np.arange(50.0)) < high
    True
    """
    members = _scores(member_scores, "member_scores")
    nonmembers = _scores(nonmember_scores, "nonmember_scores")
    confidence = check_probability(confidence, "confidence")
    n_boot = check_size(n_boot, "n_boot", 10, per_item=2 * (len(members) + len(nonmembers)))
    generator = as_generator(rng)
    m, n = len(members), len(nonmembers)
    boot_m = members[generator.integers(0, m, (n_boot, m))]
    boot_n = nonmembers[generator.integers(0, n, (n_boot, n))]
    ranks = rankdata(np.concatenate([boot_m, boot_n], axis=1), axis=1)
    values = (ranks[:, :m].sum(axis=1) - m * (m + 1) / 2) / (m * n)
    tail = (1 - confidence) / 2
    low, high = np.quantile(values, [tail, 1 - tail])
    return float(low), float(high)


@dataclass(frozen=True)
class AttackResult:
    """What :func:`loss_threshold_attack` measured.

    Attributes
    ----------
    threshold : float
        Loss at or below which the attack says "member" (chosen on the calibration half).
    tpr, fpr : float
        True- and false-positive rates on the evaluation half.
    advantage : float
        ``tpr - fpr`` on the evaluation half.
    advantage_interval : tuple of float
        Confidence interval for the advantage (Clopper-Pearson on TPR and FPR, union bound).
    auc : float
        AUC of minus the loss on all examples.
    auc_interval : tuple of float
        Percentile bootstrap interval for the AUC.
    confidence : float
    n_members, n_nonmembers : int
        Evaluation-half sizes.
    """

    threshold: float
    tpr: float
    fpr: float
    advantage: float
    advantage_interval: tuple[float, float]
    auc: float
    auc_interval: tuple[float, float]
    confidence: float
    n_members: int
    n_nonmembers: int

    def __str__(self) -> str:
        low, high = self.advantage_interval
        return (f"advantage {self.advantage:.3f} [{low:.3f}, {high:.3f}], AUC {self.auc:.3f} "
                f"[{self.auc_interval[0]:.3f}, {self.auc_interval[1]:.3f}] ({self.confidence:.0%} intervals)")


def _best_threshold(member_losses: np.ndarray, nonmember_losses: np.ndarray) -> float:
    candidates = np.unique(np.concatenate([member_losses, nonmember_losses]))
    tpr = np.searchsorted(np.sort(member_losses), candidates, side="right") / len(member_losses)
    fpr = np.searchsorted(np.sort(nonmember_losses), candidates, side="right") / len(nonmember_losses)
    return float(candidates[int(np.argmax(tpr - fpr))])


def loss_threshold_attack(member_losses, nonmember_losses, confidence: float = 0.95, rng=None,
                          calibration_share: float = 0.5, n_boot: int = 1000) -> AttackResult:
    """The loss-threshold membership attack (Yeom et al. 2018), measured honestly.

    The examples are split at random: on the **calibration** part the attacker picks the loss
    threshold that maximizes ``TPR - FPR``; on the other part the rates are measured, so the
    reported advantage is not inflated by choosing the threshold on the same examples. (An
    attacker who knows the member distribution well can do this calibration; shadow models are
    the usual way.) The advantage interval combines one-sided Clopper-Pearson bounds on TPR and
    FPR at ``(1 - confidence) / 4`` each; the AUC interval is a percentile bootstrap.

    Parameters
    ----------
    member_losses, nonmember_losses : array_like
        Per-example losses of the model on its training examples and on fresh examples.
    confidence : float, default 0.95
    rng : None, int or numpy.random.Generator, optional
        Source of the split and the bootstrap.
    calibration_share : float, default 0.5
        Share of each group used to choose the threshold, in (0, 1).
    n_boot : int, default 1000
        Bootstrap resamples for the AUC interval.

    Returns
    -------
    AttackResult

    Examples
    --------
    >>> gen = np.random.default_rng(0)
    >>> result = loss_threshold_attack(gen.exponential(0.2, 400), gen.exponential(1.0, 400), rng=1)
    >>> result.advantage_interval[0] > 0.2
    True
    """
    members = _scores(member_losses, "member_losses")
    nonmembers = _scores(nonmember_losses, "nonmember_losses")
    confidence = check_probability(confidence, "confidence")
    calibration_share = check_probability(calibration_share, "calibration_share")
    generator = as_generator(rng)
    m_cal = int(round(calibration_share * len(members)))
    n_cal = int(round(calibration_share * len(nonmembers)))
    if not (1 <= m_cal < len(members) and 1 <= n_cal < len(nonmembers)):
        raise ValueError("member_losses and nonmember_losses need at least 2 examples each, so both the calibration "
                         "and the evaluation part are non-empty.")
    members = members[generator.permutation(len(members))]
    nonmembers = nonmembers[generator.permutation(len(nonmembers))]
    threshold = _best_threshold(members[:m_cal], nonmembers[:n_cal])
    eval_m, eval_n = members[m_cal:], nonmembers[n_cal:]
    hits_m, hits_n = int((eval_m <= threshold).sum()), int((eval_n <= threshold).sum())
    tpr, fpr = hits_m / len(eval_m), hits_n / len(eval_n)
    alpha = (1 - confidence) / 4
    tpr_low, tpr_high = clopper_pearson(hits_m, len(eval_m), alpha)
    fpr_low, fpr_high = clopper_pearson(hits_n, len(eval_n), alpha)
    interval = (float(tpr_low - fpr_high), float(tpr_high - fpr_low))
    scores_m, scores_n = -members, -nonmembers
    return AttackResult(
        threshold=threshold, tpr=tpr, fpr=fpr, advantage=tpr - fpr, advantage_interval=interval,
        auc=auc(scores_m, scores_n),
        auc_interval=bootstrap_auc_interval(scores_m, scores_n, confidence, n_boot, generator),
        confidence=confidence, n_members=len(eval_m), n_nonmembers=len(eval_n),
    )

