"""Check 05.4's fixed column: releases the check chooses, so that it knows the audit's verdict on them.

Referee s37rC: the audit's ``confidence`` leaves no trace in ``release``'s calls, so an audit at confidence 0.01
(an upper bound), 0.05 (alpha for the confidence) or 0.5 passed, and so did one on 5,000 or 7,000 of one call's
20,000 releases at a low confidence (the lower confidence restores the power the smaller sample loses). This
column's releases do not come from the generator the audit hands over (its state is still logged, so a reused
generator is still seen): they are a fixed sequence of 0s and 1s per side, the same in every call, so the check
knows exactly what the audit the exercise asks for (all 20,000 releases per side, 95% confidence, delta 0) says
on them, and places the claim between that audit's bound and the bound at 93% confidence:

- releases 0 to 9,999 (the audit's selection half) separate the sides strongly (a 1 in 98% of dataset_a's
  releases and 2% of dataset_b's), so the audit picks the events "1" and "0";
- releases 10,000 to 19,999 (its evaluation half) separate them just enough for the 93% bound to exceed the
  claim and not the 95% bound (randomized-response counts, spread evenly over the positions), the first 5,000
  less (a share of 1s 0.05 nearer 0.5 on each side) and the last 5,000 more than the total, so that an audit of
  the last 10,000 releases or fewer sees a strong separation too;
- releases from 20,000 on (an audit with more samples) separate them at half the claim.

So an audit at any confidence up to 0.93 refutes the claim, and so does an audit of a prefix or a suffix of
the 20,000 releases: of 19,500 releases or fewer at confidence up to 0.95, of 15,000 or fewer up to 0.999 (its
evaluation half holds releases of a strongly separating part; measured for claims 0.33-0.37 and 1-1.5);
the exercise's audit does not. The mirror column (``trap_counts(claimed, 0.95, HIGHER_CONFIDENCE)``, ``mirror``)
puts the claim between the 95% and the 96% bound instead, so the exercise's audit refutes it and a stricter one
does not (referee s38rC); its releases beyond 20,000 separate the sides as strongly as the selection half, so an
audit of more releases refutes it too. The verdicts are exact (no randomness), for any audit that sees the releases in
the order ``release`` returns them.
"""

from __future__ import annotations

import math

import numpy as np

from mic_dp_helpers.attacks.audit import audit_epsilon as _audit_epsilon

#: Releases per side of the exercise's audit, and of each half (selection, evaluation) of it.
AUDIT_SAMPLES = 20_000
_HALF = AUDIT_SAMPLES // 2
#: Shares of 1s on dataset_a and dataset_b in the selection half.
SELECTION_SHARES = (0.98, 0.02)
#: The confidence whose bound must exceed the claim (the exercise's is 0.95).
LOWER_CONFIDENCE = 0.93
#: The confidence whose bound must stay below the claim in the mirror column, which the exercise's audit refutes
#: (referee s38rC: audits at confidence 0.99 and 0.999 passed; a higher confidence flags fewer columns).
HIGHER_CONFIDENCE = 0.96
#: Shift of the share of 1s between the two quarters of the evaluation half (nearer 0.5 first, further after).
QUARTER_SHIFT = 0.05


def _even(ones: int, n: int) -> np.ndarray:
    """``n`` values 0 or 1 with ``ones`` 1s spread evenly: every stretch of m values holds m ones / n, rounded."""
    i = np.arange(n)
    return ((i + 1) * ones // n - i * ones // n).astype(float)


def _share(epsilon: float) -> float:
    """The share of 1s on dataset_a of randomized response at ``epsilon`` (dataset_b's is 1 minus it)."""
    return 1.0 / (1.0 + math.exp(-epsilon))


def _evaluation_half(ones: int, sign: int) -> np.ndarray:
    """``ones`` 1s over 10,000 releases: the first 5,000 hold ``sign`` x 250 fewer than half of them."""
    quarter = _HALF // 2
    first = ones // 2 - sign * round(QUARTER_SHIFT * quarter)
    return np.concatenate([_even(first, quarter), _even(ones - first, quarter)])


def _sequences(ones_a: int, ones_b: int, claimed: float, size: int = AUDIT_SAMPLES,
               mirror: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """The releases on dataset_a and dataset_b: the selection half, the evaluation half with ``ones_a`` and
    ``ones_b`` 1s, then (beyond 20,000) randomized response at half the claim, or for the ``mirror`` column (which
    the exercise's audit refutes) as strongly separating as the selection half, so that a valid audit of more
    releases refutes it too."""
    extra = max(size - AUDIT_SAMPLES, 0)
    tail = SELECTION_SHARES[0] if mirror else _share(0.5 * claimed)
    a = np.concatenate([_even(round(SELECTION_SHARES[0] * _HALF), _HALF), _evaluation_half(ones_a, 1),
                        _even(round(tail * extra), extra)])
    b = np.concatenate([_even(round(SELECTION_SHARES[1] * _HALF), _HALF), _evaluation_half(ones_b, -1),
                        _even(round((1 - tail) * extra), extra)])
    return a, b


def audit_bound(a: np.ndarray, b: np.ndarray, confidence: float = 0.95, size: int = AUDIT_SAMPLES) -> float:
    """The course audit's lower bound on the first ``size`` of the releases ``a`` and ``b``, at ``confidence``.

    Parameters
    ----------
    a, b : numpy.ndarray
        The releases on dataset_a and on dataset_b, in the order ``release`` returns them.
    confidence : float, default 0.95
        The audit's confidence.
    size : int, default AUDIT_SAMPLES
        How many releases per side the audit uses (the first ones).

    Returns
    -------
    float
        ``audit_epsilon(...).epsilon_lower_bound`` with the audit's other defaults.
    """
    return float(_audit_epsilon(lambda data, k, rng: data[:k], a[:size], b[:size], n_samples=size,
                                confidence=confidence, rng=0).epsilon_lower_bound)


def trap_counts(claimed: float, refuting: float = LOWER_CONFIDENCE, holding: float = 0.95) -> tuple[int, int]:
    """The 1s of each side's evaluation half such that the bound at confidence ``holding`` is below ``claimed`` and
    the bound at ``refuting`` above.

    With the defaults (the trap: the exercise's 95% audit does not refute, one at 93% does) the bound grows by
    about 2.5e-4 per 1 on dataset_a's side and the two bounds differ by about 0.0023, so the window holds about 9
    counts: a linear step from two audits, then unit steps until both hold (about 6 audits). With ``refuting``
    0.95 and ``holding`` :data:`HIGHER_CONFIDENCE` (the mirror: the exercise's audit refutes, a stricter one does
    not) the window is about 0.001 wide (4 counts).

    Parameters
    ----------
    claimed : float
        The case's claimed epsilon (0.33-0.37 and 1-1.5 in check 05.4).
    refuting, holding : float, default 0.93 and 0.95
        The confidence whose bound must exceed the claim, and the (higher) one whose bound must not.

    Returns
    -------
    tuple of int
        The number of 1s among the 10,000 releases of the evaluation half, on dataset_a and on dataset_b.
    """
    ones_b = round((1 - _share(claimed)) * _HALF)
    first = round(_share(claimed) * _HALF)
    low, high = (audit_bound(*_sequences(first + d, ones_b, claimed), holding) for d in (0, 200))
    gap = audit_bound(*_sequences(first, ones_b, claimed), confidence=refuting) - low
    ones_a = first + round((claimed - gap / 2 - low) / ((high - low) / 200))
    for _ in range(40):
        a, b = _sequences(ones_a, ones_b, claimed)
        if audit_bound(a, b, holding) >= claimed:
            ones_a -= 1
        elif audit_bound(a, b, refuting) <= claimed:
            ones_a += 1
        else:
            return ones_a, ones_b
    raise RuntimeError(f"no counts put the claim {claimed} between the {holding} and {refuting} bounds")


def trap_release(ones_a: int, ones_b: int, claimed: float, mirror: bool = False):
    """``release_column(x, size)``: the first ``size`` releases on dataset_a (x < 0.5) or dataset_b (x >= 0.5).

    Parameters
    ----------
    ones_a, ones_b : int
        The counts of :func:`trap_counts`.
    claimed : float
        The case's claimed epsilon.
    mirror : bool, default False
        The mirror column (releases beyond 20,000 separate the sides strongly, not at half the claim).

    Returns
    -------
    callable
        ``release_column(x, size)`` returning a copy of the fixed releases (an array of 0.0 and 1.0).
    """
    stored = {}

    def release_column(x: float, size: int) -> np.ndarray:
        if size not in stored:
            stored[size] = _sequences(ones_a, ones_b, claimed, max(size, AUDIT_SAMPLES), mirror)
        a, b = stored[size]
        return (a if x < 0.5 else b)[:size].copy()

    return release_column
