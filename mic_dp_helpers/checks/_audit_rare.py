"""Check 05.4's rare events: columns where a ratio of event counts exceeds the claim and the audit's bound does not.

Referee s39rC (D0): an answer that flagged a column when the audit refuted it **or** when the log ratio of the
counts of the audit's best event exceeded 1.2 times the claim passed, because no honest column had a rare best
event. A ratio of counts is a point estimate: with counts of 1 to 50 it lies far above the true ratio by chance,
and the audit's Clopper-Pearson bound is what pays for that. Two kinds of column close the gap:

- *rare columns* (:func:`rare_case`): honest noise whose privacy loss sits in rare outputs. The constant 0.5,
  except for 20 rare values (:data:`RARE_VALUES`), each taken in 0.25% of the releases on the side it favours
  and e^claim times less often on the other, the sides alternating along the values (so that no threshold or
  bin groups two values that favour the same side). No output is more than e^claim times likelier on one side,
  so the column spends exactly the claim; its events are rare (about 25 and 5 of the audit's 10,000 evaluation
  releases), so the audit's best event has a count ratio above the claim in most runs and its bound never nears
  the claim. Measured (200 audits of one rare column at each of the claims 1.6 and 1.8): the best
  event's log count ratio exceeds 1.05 claims in 88-91% of audits, 1.2 claims in 72-73%, 1.5 claims in 33-34%, 2
  claims in 1-6%; the 95% bound reaches at most 0.75 claims (mean 0.2). With Poisson counts the chance that one
  evaluated event's bound exceeds the claim is at most 4e-7 (computed exactly over the counts).
- the *point column* (:func:`point_counts`, :func:`point_release`): releases fixed by the check, the same in
  every call (as :mod:`mic_dp_helpers.checks._audit_trap`'s), so the check knows the audit's verdict on them
  exactly. The constant 0.5, except for the values 2 and 3: on dataset_a, 60 and 3 of the selection half's
  10,000 releases, ``k_rare`` and 1 of the evaluation half's; on dataset_b the reverse; none beyond 20,000. The
  audit's best event is "output == 2.0" with counts ``k_rare`` vs 1, whose log ratio (3.0 to 3.8) is 2.1 or more
  times any claim of the check (1.8 at most), while its 95% bound is at most 0.7 times the claim: every rule on
  the best event's counts with a margin up to 2.1 flags it, the exercise's audit does not. The rare case holds
  two more (referee s40rD, :data:`ZERO_POINT`, :data:`NEAR_POINT`): counts of 31-35 vs 0 (bound at most 0.7
  claims) and 87-102 vs 5 (bound 0.89-0.90 claims, log count ratio 1.68-1.79 claims), against rules on a
  zero-count side, on counts filtered at 3-5 per side, or gated on a bound near the claim.
"""

from __future__ import annotations

import functools
import math

import numpy as np

from mic_dp_helpers.attacks.audit import audit_epsilon as _audit_epsilon

#: The rare values of a rare column; the even positions (2, 4, ...) favour dataset_a, the odd ones dataset_b.
RARE_VALUES = np.arange(2.0, 22.0)
_FAVOURS_A = np.arange(RARE_VALUES.size) % 2 == 0
#: Share of each rare value on the side it favours (about 25 of the audit's 10,000 evaluation releases).
RARE_SHARE = 0.0025
#: The rare columns of the rare case, and its claims.
N_RARE_COLUMNS = 12
RARE_CLAIMS = (1.6, 1.8)
#: The point column: its rare value's counts in the selection half (dataset_a, dataset_b) and its bound's ceiling.
POINT_SELECTION = (60, 3)
POINT_BOUND_SHARE = 0.7
#: The rare case's two more point columns (referee s40rD D1): (count of 3s, bound's ceiling as a share of the claim).
#: A zero-count side (best event about 35 vs 0) and a near bound (about 100 vs 5: bound 0.85-0.9 claims, log count
#: ratio 1.6-1.9 claims).
ZERO_POINT = (0, 0.7)
NEAR_POINT = (5, 0.9)
_HALF = 10_000


def rare_draws(x: float, share: float, epsilon: float, values: np.ndarray, favours_a: np.ndarray, size: int,
               generator: np.random.Generator) -> np.ndarray:
    """``size`` releases of a column that is 0.5 except for rare ``values``.

    Parameters
    ----------
    x : float
        The true value (0 on dataset_a, 1 on dataset_b), clipped to [0, 1].
    share : float
        Each value's share of the releases on the side it favours.
    epsilon : float
        The column's epsilon: a value is e^epsilon times rarer on the other side.
    values : numpy.ndarray
        The rare values.
    favours_a : numpy.ndarray
        For each value, whether it favours dataset_a (share ``share * exp(-epsilon * x)``) or dataset_b
        (``share * exp(-epsilon * (1 - x))``).
    size : int
        Releases to draw.
    generator : numpy.random.Generator
        Source of the draws (one uniform per release).

    Returns
    -------
    numpy.ndarray
        The releases.
    """
    x = min(max(float(x), 0.0), 1.0)
    rare = share * np.exp(-epsilon * np.where(favours_a, x, 1.0 - x))
    which = np.searchsorted(np.cumsum(rare), generator.random(int(size)), side="right")
    return np.append(values, 0.5)[which]


def rare_column(share: float, epsilon: float):
    """``draw(x, size, generator)`` for a rare column (:data:`RARE_VALUES`, sides alternating).

    Parameters
    ----------
    share, epsilon : float
        As in :func:`rare_draws`.

    Returns
    -------
    callable
        :func:`rare_draws` with the rare column's values.
    """
    return lambda x, size, generator: rare_draws(x, share, epsilon, RARE_VALUES, _FAVOURS_A, size, generator)


def rare_case(rng: np.random.Generator, layout):
    """The rare case: honest columns whose best events are rare, and flawed columns up to twice the claim.

    A claim of 1.6 to 1.8 and, in random positions, 15 to 17 columns:

    - 12 honest rare columns (see the module docstring) spending exactly the claim;
    - two flawed Laplace columns, at 1.3 to 1.5 and at 1.6 to 2 times the claim, which a point estimate with a
      margin of 1.5 or 2 misses. The audit's bound on the first is 1.32 claims on average (SD 0.059, at least
      1.20 in seeds 0-99: 5.4 SD above the claim), on the second 1.67 (at least 1.49);
    - one to three small honest Laplace columns.

    So the exercise's audit judges the case wrongly with probability about 5e-5 (a rare column refuted: at most
    4e-7 for each of its 10 evaluated events, by the module docstring) plus 3e-8 (a flawed column missed, as a
    normal tail); measured: the rare columns' bounds reach 0.65 claims in 1,200 audits (seeds 0-99).

    Parameters
    ----------
    rng : numpy.random.Generator
        The case's generator.
    layout : callable
        ``layout(rng, n_columns, claims)`` of check 05.4 (small honest columns, plain Laplace forms, an order).

    Returns
    -------
    tuple
        (column epsilons, claimed epsilon, dataset_a, dataset_b, leak shares, noise forms), as check 05.4's cases.
    """
    n_columns, claimed, epsilons, forms, positions = layout(rng, N_RARE_COLUMNS + 3 + int(rng.integers(0, 3)),
                                                            RARE_CLAIMS)
    for j in positions[:N_RARE_COLUMNS]:
        epsilons[j] = claimed
        forms[j] = ("rare", RARE_SHARE, claimed)
    epsilons[positions[N_RARE_COLUMNS]] = claimed * float(rng.uniform(1.3, 1.5))
    epsilons[positions[N_RARE_COLUMNS + 1]] = claimed * float(rng.uniform(1.6, 2.0))
    others = rng.uniform(0, 1, (int(rng.integers(1, 5)), n_columns))
    return (epsilons, claimed, np.vstack([np.zeros(n_columns), others]), np.vstack([np.ones(n_columns), others]),
            np.zeros(n_columns), forms)


def _spread(n_two: int, n_three: int, n: int) -> np.ndarray:
    """``n`` releases: 0.5, but for ``n_two`` 2s then ``n_three`` 3s at evenly spread positions."""
    out = np.full(n, 0.5)
    positions = np.linspace(0, n - 1, n_two + n_three).round().astype(int)
    out[positions[:n_two]] = 2.0
    out[positions[n_two:]] = 3.0
    return out


def point_sequences(k_rare: int, k_other: int, size: int = 2 * _HALF) -> tuple[np.ndarray, np.ndarray]:
    """The point column's releases on dataset_a and dataset_b (see the module docstring), ``size`` of each.

    Parameters
    ----------
    k_rare, k_other : int
        The counts of 2 and 3 among dataset_a's evaluation half (dataset_b's are the reverse).
    size : int, default 20,000
        Releases per side (0.5 beyond 20,000).

    Returns
    -------
    tuple of numpy.ndarray
        The releases on dataset_a and on dataset_b.
    """
    extra = np.full(max(size - 2 * _HALF, 0), 0.5)
    high, low = POINT_SELECTION
    a = np.concatenate([_spread(high, low, _HALF), _spread(k_rare, k_other, _HALF), extra])
    b = np.concatenate([_spread(low, high, _HALF), _spread(k_other, k_rare, _HALF), extra])
    return a[:size], b[:size]


def _audit_stored(a: np.ndarray, b: np.ndarray):
    """The exercise's audit (20,000 releases per side, the defaults) of the first releases ``a`` and ``b``."""
    return _audit_epsilon(lambda data, k, rng: data[:k], a[:2 * _HALF], b[:2 * _HALF], n_samples=2 * _HALF, rng=0)


def point_audit(k_rare: int, k_other: int = 1):
    """The exercise's audit of the point column's releases.

    Parameters
    ----------
    k_rare, k_other : int
        The counts of 2 and 3 among dataset_a's evaluation half.

    Returns
    -------
    AuditResult
        What ``audit_epsilon`` at its defaults, 20,000 releases per side, finds.
    """
    return _audit_stored(*point_sequences(k_rare, k_other))


@functools.lru_cache(maxsize=64)
def point_counts(claimed: float, k_other: int = 1, share: float = POINT_BOUND_SHARE) -> tuple[int, int]:
    """The point column's evaluation counts for ``claimed``: the largest count of 2s (against ``k_other`` 3s) whose
    audit bound is at most ``share`` times the claim (a bisection over 20-200, about 8 audits).

    Parameters
    ----------
    claimed : float
        The case's claimed epsilon (0.33 to 1.8 in check 05.4).
    k_other : int, default 1
        The count of 3s in dataset_a's evaluation half (0: a zero-count side).
    share : float, default :data:`POINT_BOUND_SHARE`
        The bound's ceiling, as a share of the claim.

    Returns
    -------
    tuple of int
        (count of 2s, count of 3s) in dataset_a's evaluation half.
    """
    low, high = 20, 200  # bounds at 20: about 0.17 (1 other), 0.48 (0 others), 0 (5 others); at 200: above any claim
    ceiling = share * claimed
    while high - low > 1:
        middle = (low + high) // 2
        low, high = (middle, high) if point_audit(middle, k_other).epsilon_lower_bound <= ceiling else (low, middle)
    result = point_audit(low, k_other)
    if (not 0 < result.epsilon_lower_bound <= ceiling or result.event != "output == 2.0"
            or sorted((result.count_a, result.count_b)) != sorted((k_other, low))):
        raise RuntimeError(f"no point column for the claim {claimed}: {result}")
    return low, k_other


def point_release(k_rare: int, k_other: int):
    """``release_column(x, size)``: the point column's first ``size`` releases on dataset_a (x < 0.5) or b.

    Parameters
    ----------
    k_rare, k_other : int
        The counts of :func:`point_counts`.

    Returns
    -------
    callable
        ``release_column(x, size)`` returning a copy of the fixed releases.
    """
    stored = {}

    def release_column(x: float, size: int) -> np.ndarray:
        if size not in stored:
            stored[size] = point_sequences(k_rare, k_other, max(size, 2 * _HALF))
        a, b = stored[size]
        return (a if x < 0.5 else b)[:size].copy()

    return release_column


def not_an_audit(n_audits: int) -> str:
    """The end of a hint for flagging a column the audit does not refute: that a rule on the releases is no audit.

    Parameters
    ----------
    n_audits : int
        The pairs of calls (one per dataset) of 100 or more releases the answer made.

    Returns
    -------
    str
        The sentence when one pair of calls (or none) served every column, else empty.
    """
    return (" If you did not run audit_epsilon on each column: a spread, a scale estimate or a repeat count of the "
            "releases is not an audit." if n_audits <= 1 else "")


def ratio_clause(a: np.ndarray, b: np.ndarray, claimed: float) -> str:
    """", and so does a ratio of its best event's counts (...)", for the end of a sentence of a hint.

    Parameters
    ----------
    a, b : numpy.ndarray
        A fixed column's releases on dataset_a and dataset_b.
    claimed : float
        The case's claimed epsilon.

    Returns
    -------
    str
        The clause if the log count ratio of the exercise's audit's best event is above ``claimed``, else empty.
    """
    result = _audit_stored(a, b)
    high, low = max(result.count_a, result.count_b), max(min(result.count_a, result.count_b), 1)
    ratio = math.log(high / low) if high else 0.0
    if ratio <= claimed:
        return ""
    return (f", and so does a ratio of its best event's counts ({result.count_a} vs {result.count_b}: a log ratio "
            f"{ratio / claimed:.3f} times the claim), a point estimate with no confidence bound")


def point_hint(j: int, k_rare: int, k_other: int, claimed: float) -> str:
    """The hint for flagging the point column ``j``: its best event's counts and the audit's bound.

    Parameters
    ----------
    j : int
        The column.
    k_rare, k_other : int
        Its counts (:func:`point_counts`).
    claimed : float
        The case's claimed epsilon.

    Returns
    -------
    str
        The hint.
    """
    result = point_audit(k_rare, k_other)
    ratio = math.log(k_rare / k_other) if k_other else math.inf
    counts = (f"a log count ratio of {ratio:.2f}, {ratio / claimed:.1f} times the claim" if k_other else
              "0 on one side, which is no proof of an infinite ratio")
    return (f"you flagged column {j}, which the audit the exercise asks for does not refute: on the 20,000 releases "
            f"per side that release returned (fixed by the check: they are what they are, the same in every call, "
            f"so it knows what every audit of them gives), audit_epsilon at its defaults (n_candidates=20, "
            f"confidence 0.95, delta=0) gives {result.epsilon_lower_bound:.4f}, below the claim {claimed:.4f}. "
            f"Its best event ({result.event!r}) occurred {k_rare} vs {k_other} times: {counts}; counts that small "
            "are far from the true ratio by chance, and the exercise's confidence bound is what pays for that. A "
            "ratio of event counts (a point estimate, with any margin), with any count filter, or an audit with other "
            "arguments than the exercise's (fewer candidate events, a lower confidence) can flag it; the exercise "
            "asks for its audit at the defaults. Flag a column only when result.refutes(claimed_epsilon).")


def rare_hint(j: int, claimed: float) -> str:
    """The hint for flagging the honest rare column ``j``.

    Parameters
    ----------
    j : int
        The column.
    claimed : float
        The case's claimed epsilon (the column's).

    Returns
    -------
    str
        The hint.
    """
    return (f"you flagged column {j}, an honest column: it is 0.5 except for rare values, none of them more than "
            f"e^{claimed:.4f} times likelier on one side, so it spends exactly the claim. Its events are rare (about "
            "25 against 5 of the audit's 10,000 evaluation releases), so the ratio of the best event's counts is "
            "often far above the claim by chance; the audit's 95% bound accounts for that and stays below it: a ratio "
            "of event counts (a point estimate, with any margin) proves nothing. Flag a column only when "
            "result.refutes(claimed_epsilon).")
