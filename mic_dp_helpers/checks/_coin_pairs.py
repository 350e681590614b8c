"""Joint law of the coins of a local randomizer (exercise 07.1): pairs of people, in one call and across calls.

Referee s38rB: coins reused between consecutive calls by *other* people (overlapping windows of a pool of
uniforms), antithetic coins (u and 1 - u) between people above epsilon about 4-5, and coins shared between the
k-th true-yes and the k-th true-no person passed 07.1. For independent coins, given a call's k flips among n
people, the number of pairs of a matching of m disjoint pairs that both flipped has mean m k (k - 1) / (n (n - 1))
and a variance at most that mean (the flipped set is a uniform k-subset); across two independent calls, the
number of people i with a flip in the second call and person i + d flipped in the first has mean
k1 k2 (n - |d|) / n^2 and, given the first call, a binomial law. Both tails of Poisson laws with these means are
conservative, and are tested per case and pooled over cases (:class:`PairPool`: at high epsilon a single case
expects far too few double flips to see 0 of them).
"""

from __future__ import annotations

import numpy as np
from scipy.stats import poisson

from mic_dp_helpers.checks._core import CheckFailed

# References bound at import: patching numpy later changes nothing here.
_rfft, _irfft, _flatnonzero, _count_nonzero = np.fft.rfft, np.fft.irfft, np.flatnonzero, np.count_nonzero
_arange, _rint, _minimum, _maximum = np.arange, np.rint, np.minimum, np.maximum
_poisson_sf, _poisson_cdf = poisson.sf, poisson.cdf

__all__ = ["PAIRING_TAIL", "POOL_TAIL", "OFFSET_TAIL", "pairing_counts", "check_pairings", "PairPool",
           "cross_call_counts", "check_cross_calls"]

#: Per pairing and case, the probability that a correct answer's count of double flips is declared off (each tail).
PAIRING_TAIL = 1e-9
#: Per pooled test (one pairing, one pool of cases), the same (each tail).
POOL_TAIL = 1e-8
#: Per offset between two calls, the same (each tail); about 4 n offsets are tested per case.
OFFSET_TAIL = 1e-13
#: Above this many people the offsets between two calls are counted between the head of one call and the tail
#: of the other (``WINDOW`` people each), not at every offset.
ALL_OFFSETS_PEOPLE = 32_768
WINDOW = 16_384
#: Below this share of flips, the pairings are counted from lists of the flipped people, not from slices.
SPARSE_SHARE = 0.02
#: Most pairs of flips (k1 k2) that the two-call offsets are counted from by listing.
LIST_PAIRS = 250_000

PAIRINGS = ("persons 2i and 2i + 1", "persons 2i + 1 and 2i + 2", "persons i and i + n // 2",
            "persons i and i + (n + 1) // 2", "persons i and n - 1 - i",
            "the k-th true-yes and the k-th true-no person", "the 2k-th and (2k + 1)-th person with the same answer")


def _matched_sparse(flipped: np.ndarray, truth: np.ndarray) -> list[int]:
    """Pairs both flipped over all calls for each of ``PAIRINGS``, from each call's list of flips (few flips)."""
    n = flipped.shape[1]
    half, upper = n // 2, (n + 1) // 2
    yes, no = _flatnonzero(truth), _flatnonzero(~truth)
    m = min(yes.size, no.size)
    totals = [0] * len(PAIRINGS)
    for row in flipped:
        s = _flatnonzero(row)
        even, odd, low = s[s % 2 == 0], s[s % 2 == 1], s[s < half]
        totals[0] += _count_nonzero(row[even[even + 1 < 2 * half] + 1])
        totals[1] += _count_nonzero(row[odd[odd + 1 < n] + 1])
        totals[2] += _count_nonzero(row[low + half])
        totals[3] += _count_nonzero(row[low + upper]) if upper != half else 0
        totals[4] += _count_nonzero(row[n - 1 - low])
        said = truth[s]
        yes_ranks = np.searchsorted(yes, s[said])
        totals[5] += _count_nonzero(row[no[yes_ranks[yes_ranks < m]]])
        for group, ranks in ((yes, yes_ranks), (no, np.searchsorted(no, s[~said]))):
            first = ranks[(ranks % 2 == 0) & (ranks + 1 < 2 * (group.size // 2))]
            totals[6] += _count_nonzero(row[group[first + 1]])
    return [int(t) for t in totals]


def _matched_dense(flipped: np.ndarray, truth: np.ndarray) -> list[int]:
    """Pairs both flipped over all calls for each of ``PAIRINGS``, by slices (two gathers for the data's)."""
    n = flipped.shape[1]
    half, upper = n // 2, (n + 1) // 2
    out = [_count_nonzero(flipped[:, 0:2 * half:2] & flipped[:, 1:2 * half:2]),
           _count_nonzero(flipped[:, 1:n - 1:2] & flipped[:, 2:n:2]),
           _count_nonzero(flipped[:, :half] & flipped[:, half:2 * half]),
           _count_nonzero(flipped[:, :half] & flipped[:, upper:]) if upper != half else 0,
           _count_nonzero(flipped[:, :half] & flipped[:, ::-1][:, :half])]
    yes, no = np.compress(truth, flipped, axis=1), np.compress(~truth, flipped, axis=1)
    m = min(yes.shape[1], no.shape[1])
    out.append(_count_nonzero(yes[:, :m] & no[:, :m]))
    out.append(sum(_count_nonzero(g[:, 0:g.shape[1] - 1:2] & g[:, 1::2]) for g in (yes, no)))
    return [int(c) for c in out]


def _pair_sizes(n: int, yes: int) -> list[int]:
    """Pairs per call of each of ``PAIRINGS``, for n people of whom ``yes`` said yes."""
    half, upper = n // 2, (n + 1) // 2
    return [half, (n - 1) // 2, half, half if upper != half else 0, half, min(yes, n - yes),
            yes // 2 + (n - yes) // 2]


def pairing_counts(flipped: np.ndarray, truth: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Observed and expected double flips, summed over calls, for each of ``PAIRINGS``.

    Parameters
    ----------
    flipped : numpy.ndarray of bool, shape (calls, n) or (n,)
        Whether each person's report differs from their true answer, in each call.
    truth : numpy.ndarray of bool, shape (n,)
        The true answers (for the pairings by rank among the true-yes and true-no people).

    Returns
    -------
    observed, expected : numpy.ndarray
        One entry per pairing: pairs both flipped, and the sum over calls of m k (k - 1) / (n (n - 1)) for
        independent coins (m pairs, k flips in the call).

    Examples
    --------
    >>> observed, expected = pairing_counts(np.array([1, 1, 0, 0], dtype=bool), np.array([1, 0, 1, 0], dtype=bool))
    >>> observed.tolist()[:3], expected.tolist()[0]
    ([1.0, 0.0, 0.0], 0.3333333333333333)
    """
    flipped = flipped.reshape(-1, flipped.shape[-1])
    n = flipped.shape[1]
    k = _count_nonzero(flipped, axis=1).astype(float)
    rate = float((k * (k - 1.0)).sum()) / (n * (n - 1.0)) if n > 1 else 0.0
    sparse = n > 1 and float(k.sum()) <= SPARSE_SHARE * flipped.size
    counts = (_matched_sparse if sparse else _matched_dense)(flipped, truth)
    sizes = _pair_sizes(n, int(_count_nonzero(truth)))
    return np.array(counts, dtype=float), np.array([m * rate for m in sizes])


def _tails(observed, expected):
    """Upper and lower Poisson tail probabilities of each observed count (1 where it is not off at all)."""
    observed, expected = np.asarray(observed, dtype=float), np.asarray(expected, dtype=float)
    high = np.where(observed > expected, _poisson_sf(observed - 1, expected), 1.0)
    low = np.where(observed < expected, _poisson_cdf(observed, expected), 1.0)
    return high, low


def check_pairings(observed, expected, where: str, tail: float = PAIRING_TAIL) -> None:
    """Fail if any pairing's double flips fall outside the ``tail`` tails of Poisson(expected).

    Coins shared within a pairing give about m f pairs where m f^2 are expected; antithetic coins (u and
    1 - u, f < 1/2) give none.

    Parameters
    ----------
    observed, expected : array_like
        Per pairing of ``PAIRINGS``: double flips, and their expectation for independent coins.
    where : str
        The case, for the hint.
    tail : float, default PAIRING_TAIL
        Per pairing, the probability of each tail.

    Raises
    ------
    CheckFailed
        If a count is too high (shared coins) or too low (coins tied so that both rarely flip).
    """
    observed, expected = np.asarray(observed, dtype=float), np.asarray(expected, dtype=float)
    if not (np.abs(observed - expected) > 4.0 * np.sqrt(expected) + 1.0).any():  # every tail above 1e-4
        return
    high, low = _tails(observed, expected)
    worst = int(np.argmin(_minimum(high, low)))
    if min(high[worst], low[worst]) >= tail:
        return
    c, e = int(observed[worst]), float(expected[worst])
    how = ("share one coin (or coins that move together)" if c > e else
           "have coins tied so that they rarely flip together (such as u and 1 - u)")
    raise CheckFailed(f"{where} {c:,} pairs of {PAIRINGS[worst]} both flipped, where independent coins give about "
                      f"{e:,.1f}: those people {how}. Each person, at every epsilon, for every number of people and "
                      "whatever the answers are, must flip their own coin, independent of everyone else's.")


class PairPool:
    """Double flips of each pairing summed over cases, per epsilon of a grid: tested per epsilon and from the top.

    A wrong answer above some epsilon shows in the pool of every case at or above the next grid epsilon (and
    nowhere diluted by correct cases below it); one wrong in a band of epsilons in that epsilon's own pool.

    Parameters
    ----------
    epsilons : sequence of float
        The grid's epsilons, in increasing order.
    """

    def __init__(self, epsilons):
        self.epsilons = [float(e) for e in epsilons]
        self.observed = np.zeros((len(self.epsilons), len(PAIRINGS)))
        self.expected = np.zeros_like(self.observed)
        self.people = np.zeros(len(self.epsilons))

    def add(self, index: int, observed, expected, people: int) -> None:
        """Add one case's counts (from :func:`pairing_counts`) to the pool of grid epsilon ``index``.

        Parameters
        ----------
        index : int
            The grid epsilon's position in ``epsilons``.
        observed, expected : array_like
            Per pairing: double flips, and their expectation for independent coins.
        people : int
            Answers in the case (people x calls), for the hint.
        """
        self.observed[index] += observed
        self.expected[index] += expected
        self.people[index] += people

    def adder(self, index: int):
        """A function ``add(observed, expected, people)`` that adds to the pool of grid epsilon ``index``.

        Parameters
        ----------
        index : int
            The grid epsilon's position in ``epsilons``.

        Returns
        -------
        callable
            :meth:`add` with ``index`` bound.
        """
        return lambda observed, expected, people: self.add(index, observed, expected, people)

    def check(self) -> None:
        """Test every epsilon's pool and every pool of all epsilons from one up, both tails, at ``POOL_TAIL``.

        Raises
        ------
        CheckFailed
            If a pool's double flips are off.
        """
        top_observed, top_expected, top_people = (np.cumsum(a[::-1], axis=0)[::-1]
                                                  for a in (self.observed, self.expected, self.people))
        for i, epsilon in enumerate(self.epsilons):
            for observed, expected, people, what in ((self.observed[i], self.expected[i], self.people[i], "at"),
                                                     (top_observed[i], top_expected[i], top_people[i], "at and above")):
                check_pairings(observed, expected, f"Over {people:,.0f} answers in all, {what} epsilon={epsilon:.3g}:",
                               POOL_TAIL)


def _listed(previous: np.ndarray, following: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Offsets d with at least one i such that following[i] and previous[i + d] flipped, and their counts."""
    a, b = _flatnonzero(following), _flatnonzero(previous)
    if not a.size or not b.size:
        return np.zeros(0, dtype=np.int64), np.zeros(0)
    offsets, counts = np.unique((b[None, :] - a[:, None]).ravel(), return_counts=True)
    return offsets, counts.astype(float)


def _correlated(previous: np.ndarray, following: np.ndarray) -> np.ndarray:
    """``out[d + m - 1]`` = sum over rows and i of following[., i] * previous[., i + d], every d, by FFT.

    ``previous`` and ``following`` are (rows, length) arrays (length p and m); the rows are paired in order.
    """
    size = 1 << int(previous.shape[-1] + following.shape[-1] - 1).bit_length()
    spectrum = _rfft(previous.astype(float), size) * _rfft(following.astype(float), size).conj()
    circular = _irfft(spectrum.reshape(-1, size // 2 + 1).sum(axis=0), size)
    return _rint(np.r_[circular[size - following.shape[-1] + 1:], circular[:previous.shape[-1]]])


def _route(n: int, products) -> str:
    """How the offsets of a case are counted: "fft", "list" or "windows" (see :func:`cross_call_counts`)."""
    if n <= ALL_OFFSETS_PEOPLE:
        return "fft"
    return "list" if max(products) <= LIST_PAIRS else "windows"


def cross_call_counts(previous: np.ndarray, following: np.ndarray, route: str) -> tuple[np.ndarray, np.ndarray]:
    """For offsets d, how many people i flipped in ``following`` with person i + d flipped in ``previous``.

    ``route`` "fft": every offset -(n - 1) to n - 1 (used up to ``ALL_OFFSETS_PEOPLE`` people); "list": the
    offsets with at least one such pair (few flips, k1 k2 at most ``LIST_PAIRS``; an offset left out has none);
    "windows": the offsets between the first and the last ``WINDOW`` people of the two calls, both ways (coins
    of the previous call's last people reused by the next call's first, as overlapping windows of a pool of
    random numbers do). Rows of 2-d arrays are paired in order and their counts summed ("fft", "windows").

    Parameters
    ----------
    previous, following : numpy.ndarray of bool, shape (n,) or (pairs, n)
        The flips of two calls on the same people (or of several pairs of calls).
    route : str
        "fft", "list" or "windows" ("list": 1-d arrays only).

    Returns
    -------
    offsets, counts : numpy.ndarray
        The offsets d and their counts.

    Examples
    --------
    >>> offsets, counts = cross_call_counts(np.array([0, 0, 1], bool), np.array([1, 0, 0], bool), "list")
    >>> offsets.tolist(), counts.tolist()
    ([2], [1.0])
    """
    n = previous.shape[-1]
    if route == "fft":
        return _arange(-(n - 1), n), _correlated(previous, following)
    if route == "list":
        return _listed(previous, following)
    w = WINDOW
    reach = _arange(-(w - 1), w)
    forward = _correlated(previous[..., n - w:], following[..., :w])  # following's head against previous's tail
    backward = _correlated(previous[..., :w], following[..., n - w:])
    return np.r_[reach + (n - w), reach - (n - w)], np.r_[forward, backward]


def _positions(n: int, offsets: np.ndarray, route: str) -> np.ndarray:
    """How many people i are compared at each offset (``route`` as in :func:`cross_call_counts`)."""
    if route != "windows":
        return n - np.abs(offsets)
    return WINDOW - np.abs(np.abs(offsets) - (n - WINDOW))


def check_cross_calls(rows, where: str) -> None:
    """Test calls 2j and 2j + 1 of ``rows`` for coins of one person reused by another person in the next call.

    The counts of :func:`cross_call_counts` are summed over the disjoint pairs of calls (independent terms);
    at each offset d the sum must lie within the ``OFFSET_TAIL`` tails of Poisson(sum of k1 k2 / n^2 times the
    people compared). Coins of the previous call's last k people reused by the next call's first k (windows
    overlapping by k) give about k f pairs at d = n - k where k f^2 are expected.

    Parameters
    ----------
    rows : sequence of numpy.ndarray of bool, shape (n,)
        The flips of two or more calls on the same people, in call order.
    where : str
        The case, for the hint.

    Raises
    ------
    CheckFailed
        If some offset's count is off.
    """
    rows = np.asarray(rows)
    half = rows.shape[0] // 2
    if not half:
        return
    previous, following = rows[0:2 * half:2], rows[1:2 * half:2]
    n = rows.shape[1]
    products = (_count_nonzero(previous, axis=1) * _count_nonzero(following, axis=1).astype(float)).tolist()
    route = _route(n, products)
    if route != "list":
        offsets, observed = cross_call_counts(previous, following, route)
    else:
        parts = [cross_call_counts(a, b, route) for a, b in zip(previous, following)]
        offsets, inverse = np.unique(np.concatenate([d for d, _ in parts]), return_inverse=True)
        observed = np.bincount(inverse, np.concatenate([c for _, c in parts]), offsets.size)
    expected = _positions(n, offsets, route) * (sum(products) / (float(n) * n))
    _check_offsets(offsets, observed, expected, where)


def _check_offsets(offsets, observed, expected, where: str) -> None:
    suspect = np.flatnonzero((observed > expected + 4.0 * np.sqrt(expected) + 1.0)
                             | (observed < expected - 4.0 * np.sqrt(expected)))  # the rest: p > 1e-5
    if not suspect.size:
        return
    high, low = _tails(observed[suspect], expected[suspect])
    worst = int(np.argmin(_minimum(high, low)))
    if min(high[worst], low[worst]) >= OFFSET_TAIL:
        return
    i = int(suspect[worst])
    d, c, e = int(offsets[i]), int(observed[i]), float(expected[i])
    raise CheckFailed(f"{where} in {c:,} cases a person i flipped in one call and person i + {d:,} in the call "
                      f"before, where fresh coins give about {e:,.1f}: the coins of one call are "
                      f"{'reused' if c > e else 'tied to those of the other'} by other people in the next (as a pool "
                      "of random numbers read through overlapping windows is). Draw new coins from `rng` on every "
                      "call, one per person.")
