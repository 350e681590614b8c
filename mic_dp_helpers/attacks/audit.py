"""Empirical privacy audit: a statistically valid lower bound on a mechanism's epsilon.

If a mechanism ``M`` is (epsilon, delta)-DP then for neighbouring datasets ``A`` and ``B``
and **every** set of outputs ``S``::

    P[M(A) in S] <= exp(epsilon) * P[M(B) in S] + delta      (and with A, B swapped)

so ``epsilon >= log((P[M(A) in S] - delta) / P[M(B) in S])``. The audit samples the
mechanism many times on ``A`` and on ``B``, looks for an event ``S`` where the two output
distributions differ most, and turns the observed frequencies into a bound that holds with
the requested confidence:

1. draw ``n_samples`` outputs on each side and split them in two halves;
2. on the *selection* half, score a family of events on 1-D projections of the outputs
   (each coordinate; for vector outputs also the differences of two coordinates and the
   direction of the mean difference): half-lines ``x <= t`` and ``x > t`` at quantiles and
   extremes, the bins between consecutive thresholds, and "exact value" events ``x == v``
   for values that occur repeatedly (atoms, e.g. an output released without noise);
3. keep the ``n_candidates`` best (event, direction) pairs and evaluate only those on the
   fresh *evaluation* half, with one-sided Clopper-Pearson bounds (``scipy.stats.beta``
   quantiles) and a Bonferroni correction over the ``2 * n_candidates`` bounds used;
4. report the largest ``log((p_lower - delta) / p_upper)``, or 0 if no event beats 1.

Because the events are chosen on data that are not used for the final bound, the result
is a valid lower bound: if the mechanism really is (epsilon, delta)-DP for this pair, the
reported bound exceeds epsilon with probability at most ``1 - confidence``. A bound below
the claim does not prove the claim (the audit only tries one pair of datasets and a
finite family of events); a bound above it disproves it.

**Neighbours.** The audit itself releases nothing; it tests a claim about the pair it is given.
A bound refutes a claim only if ``A`` and ``B`` are neighbours under the relation the claim is
made for: add/remove one record (lessons 02-04) or replace one record with the number of
records public (lessons 05-06). Feeding a replace-one pair to an add/remove claim (or the
reverse) tests a different claim.
"""

from __future__ import annotations

import inspect
import math
import numbers
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy.special import betaincinv

from mic_dp_helpers._validation import (
    as_generator,
    check_int_at_least,
    check_probability,
    check_size,
    is_boolean,
)

__all__ = ["AuditResult", "audit_epsilon", "clopper_pearson"]

_MAX_PAIRWISE_DIM = 10  # differences of coordinates are tried for outputs of at most this many entries
_MAX_ATOMS = 20  # most frequent repeated values tried as "exact value" events per coordinate
_N_TAIL_LEVELS = 10  # extra thresholds at geometrically spaced tail quantiles, per tail


@dataclass(frozen=True)
class AuditResult:
    """What :func:`audit_epsilon` found.

    Attributes
    ----------
    epsilon_lower_bound : float
        With probability at least ``confidence``, the mechanism's true epsilon (for this pair
        of datasets, at the given delta) is at least this. Never negative.
    confidence : float
        Confidence level of the bound.
    event : str
        The best event found, e.g. ``"output > 2.31"``.
    direction : str
        ``"A over B"`` if the bound is ``log(P_A(event) / P_B(event))``, else ``"B over A"``.
    count_a, count_b : int
        How often the event occurred among the ``n_eval`` evaluation samples of each side.
    n_eval : int
        Evaluation samples per side.
    n_events_scored : int
        (Event, direction) pairs scored on the selection half.
    n_events_evaluated : int
        Candidates evaluated on the evaluation half (the Bonferroni correction divides the
        error probability by twice this number).
    delta : float
        The delta used in the bound.
    """

    epsilon_lower_bound: float
    confidence: float
    event: str
    direction: str
    count_a: int
    count_b: int
    n_eval: int
    n_events_scored: int
    n_events_evaluated: int
    delta: float = 0.0

    def refutes(self, claimed_epsilon: float) -> bool:
        """True if the audit proves (at this confidence) that ``claimed_epsilon`` is false.

        Parameters
        ----------
        claimed_epsilon : float
            The epsilon a mechanism claims (>= 0).

        Returns
        -------
        bool
            Whether the audit's lower bound on epsilon exceeds the claim.

        Examples
        --------
        >>> AuditResult(2.5, 0.95, "output == 0", "A over B", 100, 0, 100, 10, 5).refutes(1.0)
        True
        """
        if isinstance(claimed_epsilon, bool) or not isinstance(claimed_epsilon, numbers.Real):
            raise TypeError(f"claimed_epsilon must be a number >= 0, got {type(claimed_epsilon).__name__}.")
        if not claimed_epsilon >= 0:  # also NaN
            raise ValueError(f"claimed_epsilon must be a number >= 0, got {claimed_epsilon}.")
        return self.epsilon_lower_bound > claimed_epsilon

    def __str__(self) -> str:
        return (f"epsilon >= {self.epsilon_lower_bound:.3f} with {self.confidence:.0%} confidence "
                f"(event {self.event!r}, {self.direction}: {self.count_a} vs {self.count_b} "
                f"of {self.n_eval} samples per side)")


def clopper_pearson(successes, trials: int, alpha: float) -> tuple[np.ndarray, np.ndarray]:
    """One-sided Clopper-Pearson bounds on a binomial proportion.

    Returns ``(lower, upper)`` such that ``P[p < lower] <= alpha`` and ``P[p > upper] <= alpha``
    separately. ``lower`` is 0 for 0 successes; ``upper`` is 1 for ``trials`` successes; the
    upper bound for 0 successes is ``1 - alpha**(1/trials) > 0``.

    Parameters
    ----------
    successes : int or array_like of int
        Observed counts, between 0 and ``trials``.
    trials : int
        Number of trials (>= 1).
    alpha : float
        Error probability of each one-sided bound, in (0, 1).

    Returns
    -------
    lower, upper : numpy.ndarray
        Bounds of the same shape as ``successes``.

    Examples
    --------
    >>> lower, upper = clopper_pearson(0, 100, 0.05)
    >>> float(lower), round(float(upper), 4)
    (0.0, 0.0295)
    """
    trials = check_int_at_least(trials, "trials", 1)
    alpha = check_probability(alpha, "alpha")
    if (successes is None or isinstance(successes, (str, bytes)) or is_boolean(successes)
            or (isinstance(successes, np.ndarray) and successes.dtype.kind in "bUSO")):
        raise TypeError(f"successes must be whole numbers (counts) between 0 and trials={trials}, "
                        f"got {type(successes).__name__} {successes!r}.")
    try:
        k = np.asarray(successes, dtype=float)
    except (TypeError, ValueError):
        raise TypeError(f"successes must be whole numbers (counts) between 0 and trials={trials}, "
                        f"got {type(successes).__name__}.") from None
    if np.isnan(k).any() or (k < 0).any() or (k > trials).any() or (k != np.round(k)).any():
        raise ValueError(f"successes must be whole numbers between 0 and trials={trials}.")
    safe_low = np.maximum(k, 1.0)
    lower = np.where(k == 0, 0.0, betaincinv(safe_low, trials - safe_low + 1.0, alpha))
    safe_up = np.minimum(k, trials - 1.0)
    upper = np.where(k == trials, 1.0, betaincinv(safe_up + 1.0, trials - safe_up, 1.0 - alpha))
    return lower, upper


# ------------------------------------------------------------------------------ sampling
def _check_mechanism(mechanism, vectorized) -> None:
    """A callable that takes ``(dataset, size, rng)`` (vectorized) or ``(dataset, rng)``, before any sampling."""
    if not callable(mechanism):
        raise TypeError(f"mechanism must be callable, got {type(mechanism).__name__} {mechanism!r}.")
    if not isinstance(vectorized, bool):
        raise TypeError(f"vectorized must be True or False, got {type(vectorized).__name__} {vectorized!r}.")
    form = "mechanism(dataset, size, rng)" if vectorized else "mechanism(dataset, rng)"
    try:
        signature = inspect.signature(mechanism)
    except (TypeError, ValueError):  # a built-in without a signature: the call itself will tell
        return
    n_given = 3 if vectorized else 2
    try:
        signature.bind(*([None] * n_given))
    except TypeError:
        positional = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
        required = [p for p in signature.parameters.values() if p.kind in positional and p.default is p.empty]
        missing = len(required) - n_given
        problem = (f"it is missing {missing} required positional argument{'s' * (missing > 1)}" if missing > 0
                   else f"it does not take {n_given} positional arguments")
        other = "vectorized=False for mechanism(dataset, rng)" if vectorized else "vectorized=True for a sampler"
        raise TypeError(f"mechanism must be callable as {form}, but {problem} (its signature is {signature}); "
                        f"write it that way, or pass {other}.") from None



def _draw(mechanism: Callable, dataset: Any, size: int, generator: np.random.Generator, vectorized: bool,
          name: str) -> np.ndarray:
    """Run the mechanism ``size`` times on ``dataset``; return a (size, d) float array."""
    if vectorized:
        raw = mechanism(dataset, size, generator)
    else:
        raw = [mechanism(dataset, generator) for _ in range(size)]
    try:
        outputs = np.asarray(raw, dtype=float)
    except (TypeError, ValueError) as error:
        raise TypeError(f"mechanism must return numbers; on {name} it returned {type(raw).__name__}: {error}") from None
    raw_shape = outputs.shape
    if outputs.ndim == 1:
        outputs = outputs[:, None]
    form = "mechanism(dataset, size, rng)" if vectorized else "mechanism(dataset, rng)"
    if outputs.ndim != 2 or outputs.shape[0] != size or outputs.shape[1] == 0:
        raise ValueError(
            f"{form} on {name} must give {size} outputs, each a number or a 1-D vector, i.e. shape ({size},) "
            f"or ({size}, d); got shape {raw_shape}."
            + ("" if vectorized else " Pass vectorized=True only for mechanisms that take a size argument.")
        )
    if not np.isfinite(outputs).all():
        raise ValueError(f"mechanism returned NaN or infinite values on {name}; outputs must be finite numbers.")
    return outputs


def _projections(sel_a: np.ndarray, sel_b: np.ndarray) -> tuple[np.ndarray, list[str], int]:
    """Projection matrix (d, p), a label per projection, and how many leading ones are raw coordinates."""
    d = sel_a.shape[1]
    if d == 1:
        return np.ones((1, 1)), ["output"], 1
    columns, labels = list(np.eye(d)), [f"output[{i}]" for i in range(d)]
    if d <= _MAX_PAIRWISE_DIM:
        for i in range(d):
            for j in range(i + 1, d):
                w = np.zeros(d)
                w[i], w[j] = 1.0, -1.0
                columns.append(w)
                labels.append(f"output[{i}] - output[{j}]")
    mean_gap = sel_a.mean(axis=0) - sel_b.mean(axis=0)
    norm = float(np.linalg.norm(mean_gap))
    if norm > 0 and np.isfinite(norm):
        columns.append(mean_gap / norm)
        labels.append("projection on the mean difference")
    return np.column_stack(columns), labels, d


@dataclass(frozen=True)
class _Events:
    """Events on one projection: ``kind`` 0 is x <= t1, 1 is x > t1, 2 is t1 < x <= t2, 3 is x == t1."""

    kind: np.ndarray
    t1: np.ndarray
    t2: np.ndarray


def _quantiles_of_sorted(sorted_x: np.ndarray, levels: np.ndarray) -> np.ndarray:
    """``numpy.quantile(sorted_x, levels)`` (its default, linear method) for an already sorted array."""
    position = levels * (len(sorted_x) - 1)
    below = np.floor(position).astype(int)
    above = np.minimum(below + 1, len(sorted_x) - 1)
    low, high, weight = sorted_x[below], sorted_x[above], position - below
    gap = high - low
    return np.where(weight >= 0.5, high - gap * (1 - weight), low + gap * weight)


def _events_for(sorted_a: np.ndarray, sorted_b: np.ndarray, find_atoms: bool, n_bins: int) -> _Events:
    """Build the event family for one projection from the sorted selection samples of each side."""
    pooled = np.sort(np.concatenate([sorted_a, sorted_b]), kind="stable")  # a merge of two sorted runs
    finite = pooled[np.isfinite(pooled)]
    n = len(sorted_a)
    tail = np.geomspace(min(5.0 / n, 0.01), 0.05, _N_TAIL_LEVELS)
    levels = np.unique(np.concatenate([np.linspace(0, 1, n_bins + 1)[1:-1], tail, 1 - tail]))
    thresholds = [_quantiles_of_sorted(finite, levels)] if finite.size else []
    extremes = [sorted_a[0], sorted_a[-1], sorted_b[0], sorted_b[-1]]
    atoms = np.empty(0)
    if find_atoms:
        starts = np.flatnonzero(np.concatenate([[True], pooled[1:] != pooled[:-1]]))
        values, counts = pooled[starts], np.diff(np.append(starts, len(pooled)))
        repeated = counts >= 5
        if repeated.any():
            order = np.argsort(counts[repeated])[::-1][:_MAX_ATOMS]
            atoms = values[repeated][order]
    cuts = np.unique(np.concatenate(thresholds + [np.asarray(extremes), atoms]))
    cuts = cuts[np.isfinite(cuts)]
    kinds = [np.zeros(len(cuts)), np.ones(len(cuts)), np.full(max(len(cuts) - 1, 0), 2), np.full(len(atoms), 3)]
    t1 = [cuts, cuts, cuts[:-1], atoms]
    t2 = [cuts, cuts, cuts[1:], atoms]
    return _Events(np.concatenate(kinds).astype(int), np.concatenate(t1), np.concatenate(t2))


def _count(sorted_x: np.ndarray, events: _Events) -> np.ndarray:
    """How many of ``sorted_x`` fall in each event."""
    at_most_1 = np.searchsorted(sorted_x, events.t1, side="right")
    at_most_2 = np.searchsorted(sorted_x, events.t2, side="right")
    below_1 = np.searchsorted(sorted_x, events.t1, side="left")
    n = len(sorted_x)
    return np.select(
        [events.kind == 0, events.kind == 1, events.kind == 2],
        [at_most_1, n - at_most_1, at_most_2 - at_most_1],
        default=at_most_1 - below_1,
    )


def _count_one(x: np.ndarray, kind: int, t1: float, t2: float) -> int:
    """How many of ``x`` (unsorted) fall in one event: the counts :func:`_count` gives, without a sort."""
    at_most_1 = int(np.count_nonzero(x <= t1))
    if kind == 0:
        return at_most_1
    if kind == 1:
        return len(x) - at_most_1
    if kind == 2:
        return int(np.count_nonzero(x <= t2)) - at_most_1
    return at_most_1 - int(np.count_nonzero(x < t1))


def _log_ratio(count_num: np.ndarray, count_den: np.ndarray, n: int, alpha: float, delta: float) -> np.ndarray:
    """log((lower bound of p_num - delta) / upper bound of p_den), -inf where not positive."""
    lower, _ = clopper_pearson(count_num, n, alpha)
    _, upper = clopper_pearson(count_den, n, alpha)
    return _log_ratio_of_bounds(lower, upper, delta)


def _log_ratio_of_bounds(lower: np.ndarray, upper: np.ndarray, delta: float) -> np.ndarray:
    """log((lower - delta) / upper), -inf where not positive: :func:`_log_ratio` from its two bounds."""
    numerator = lower - delta
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(numerator > 0, np.log(np.maximum(numerator, 1e-300)) - np.log(upper), -np.inf)


def _describe(label: str, kind: int, t1: float, t2: float) -> str:
    if kind == 0:
        return f"{label} <= {t1:.6g}"
    if kind == 1:
        return f"{label} > {t1:.6g}"
    if kind == 2:
        return f"{t1:.6g} < {label} <= {t2:.6g}"
    return f"{label} == {float(t1)!r}"


def audit_epsilon(
    mechanism: Callable,
    dataset_a: Any,
    dataset_b: Any,
    n_samples: int = 100_000,
    confidence: float = 0.95,
    rng=None,
    n_bins: int = 50,
    *,
    delta: float = 0.0,
    vectorized: bool = True,
    n_candidates: int = 10,
) -> AuditResult:
    """Lower-bound a mechanism's epsilon by sampling it on two neighbouring datasets.

    See the module docstring for the method. The datasets must be neighbours under the
    mechanism's own definition (add/remove one record, or replace one); the audit treats
    them as opaque objects and only passes them to ``mechanism``.

    Parameters
    ----------
    mechanism : callable
        With ``vectorized=True`` (default, fast): ``mechanism(dataset, size, rng)`` returns
        ``size`` independent outputs, shape ``(size,)`` or ``(size, d)``. With
        ``vectorized=False``: ``mechanism(dataset, rng)`` returns one output, a number or a
        length-``d`` vector, and is called ``n_samples`` times per side (slow in Python).
        ``rng`` is a ``numpy.random.Generator``: draw all noise from it.
    dataset_a, dataset_b : object
        Neighbouring datasets.
    n_samples : int, default 100_000
        Outputs drawn per dataset (>= 100); half select events, half evaluate them.
    confidence : float, default 0.95
        Confidence of the bound, in (0, 1).
    rng : None, int or numpy.random.Generator, optional
        Randomness passed to the mechanism; an int seed makes the audit reproducible.
    n_bins : int, default 50
        Quantile thresholds per projection (>= 2); tail quantiles and extremes are added.
    delta : float, default 0.0
        The delta of the claim (0 <= delta < 1); the bound is on epsilon at that delta.
    vectorized : bool, default True
        Which calling convention ``mechanism`` follows (see above).
    n_candidates : int, default 10
        Events carried from the selection half to the evaluation half (>= 1).

    Returns
    -------
    AuditResult
        ``epsilon_lower_bound``, ``confidence``, the best event and its counts.

    Examples
    --------
    >>> from mic_dp_helpers.mechanisms.noise import laplace_mechanism
    >>> def noisy_count(data, size, rng):
    ...     return laplace_mechanism(np.full(size, float(len(data))), 1.0, 1.0, rng)
    >>> result = audit_epsilon(noisy_count, [1, 2, 3], [1, 2], n_samples=20_000, rng=0)
    >>> 0.5 < result.epsilon_lower_bound <= 1.0
    True
    """
    _check_mechanism(mechanism, vectorized)
    n_samples = check_size(n_samples, "n_samples", 100)
    confidence = check_probability(confidence, "confidence")
    n_bins = check_size(n_bins, "n_bins", 2)
    delta = check_probability(delta, "delta", allow_zero=True)
    n_candidates = check_size(n_candidates, "n_candidates", 1)
    generator = as_generator(rng)

    out_a = _draw(mechanism, dataset_a, n_samples, generator, vectorized, "dataset_a")
    out_b = _draw(mechanism, dataset_b, n_samples, generator, vectorized, "dataset_b")
    if out_a.shape[1] != out_b.shape[1]:
        raise ValueError(f"mechanism returned vectors of length {out_a.shape[1]} on dataset_a but "
                         f"{out_b.shape[1]} on dataset_b; outputs must have the same length.")
    n_sel = n_samples // 2
    n_eval = n_samples - n_sel
    alpha = (1.0 - confidence) / (2 * n_candidates)

    weights, labels, n_raw = _projections(out_a[:n_sel], out_b[:n_sel])
    with np.errstate(invalid="ignore"):  # inf - inf on a difference projection becomes NaN: drop it below
        proj_sel_a, proj_sel_b = out_a[:n_sel] @ weights, out_b[:n_sel] @ weights
    candidates = []  # (score, projection, kind, t1, t2, a_over_b)
    n_scored = 0
    for j in range(weights.shape[1]):
        a, b = proj_sel_a[:, j], proj_sel_b[:, j]
        if np.isnan(a).any() or np.isnan(b).any():
            continue
        sorted_a, sorted_b = np.sort(a), np.sort(b)
        events = _events_for(sorted_a, sorted_b, find_atoms=j < n_raw, n_bins=n_bins)
        count_a, count_b = _count(sorted_a, events), _count(sorted_b, events)
        n_scored += 2 * len(events.kind)
        lower_a, upper_a = clopper_pearson(count_a, n_sel, alpha)
        lower_b, upper_b = clopper_pearson(count_b, n_sel, alpha)
        for a_over_b, (lower, upper) in ((True, (lower_a, upper_b)), (False, (lower_b, upper_a))):
            scores = _log_ratio_of_bounds(lower, upper, delta)
            best = np.argsort(scores)[::-1][:n_candidates]
            candidates += [(scores[i], j, events.kind[i], events.t1[i], events.t2[i], a_over_b)
                           for i in best if np.isfinite(scores[i])]
    candidates.sort(key=lambda c: c[0], reverse=True)
    chosen = candidates[:n_candidates]

    if not chosen:
        return AuditResult(0.0, confidence, "none (no event separates the outputs)", "A over B", 0, 0,
                           n_eval, n_scored, 0, delta)
    eval_alpha = (1.0 - confidence) / (2 * len(chosen))
    eval_a, eval_b = out_a[n_sel:], out_b[n_sel:]
    projected: dict[int, tuple[np.ndarray, np.ndarray]] = {}
    best_result = None
    for _, j, kind, t1, t2, a_over_b in chosen:
        if j not in projected:
            with np.errstate(invalid="ignore"):
                projected[j] = (eval_a @ weights[:, j], eval_b @ weights[:, j])
        xa, xb = projected[j]
        ca, cb = _count_one(xa, kind, t1, t2), _count_one(xb, kind, t1, t2)
        num, den = (ca, cb) if a_over_b else (cb, ca)
        bound = float(_log_ratio(np.array([num]), np.array([den]), n_eval, eval_alpha, delta)[0])
        if best_result is None or bound > best_result[0]:
            best_result = (bound, _describe(labels[j], kind, t1, t2), "A over B" if a_over_b else "B over A", ca, cb)
    bound, description, direction, ca, cb = best_result
    return AuditResult(max(bound, 0.0) if math.isfinite(bound) else 0.0, confidence, description, direction,
                       ca, cb, n_eval, n_scored, len(chosen), delta)
