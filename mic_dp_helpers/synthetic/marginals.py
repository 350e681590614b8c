"""Marginal-based DP synthetic data: a teaching implementation of MST, and an independent baseline (lesson 06).

MST (McKenna, Miklau & Sheldon, "Winning the NIST Contest: A scalable and general approach to
differentially private synthetic data", Journal of Privacy and Confidentiality 2021) is a general
version of NIST-MST, the mechanism that won the NIST 2018 DP synthetic data challenge. It keeps what most analyses of a table need, the pairs of
columns, in three steps:

1. **measure** every one-way marginal (a histogram per column) with Gaussian noise;
2. **select** the pairs of a maximum spanning tree with the exponential mechanism: a pair scores
   high when its true two-way marginal is far (L1) from what the noisy one-way marginals predict
   if the two columns were independent;
3. **measure** the chosen two-way marginals with Gaussian noise, then **estimate** one consistent
   tree model from all noisy marginals and **sample** synthetic records from it.

The published MST estimates with Private-PGM (the ``mbi`` package, JAX); this module does the
estimation in closed form for the tree
(:func:`~mic_dp_helpers.synthetic.tree_model.fit_tree`): one-way counts are averaged with the
margins of the pair tables, each noisy pair table is shrunk towards independence where its
structure is weaker than the noise, set non-negative and fitted to both one-way marginals, and
each child column is drawn given its parent. It is simpler than Private-PGM (how much accuracy
that costs is not measured in this course); the privacy analysis is the same (all of it is
post-processing of the noisy measurements).

Columns must be **discrete with a domain fixed in advance from public knowledge**
(:mod:`mic_dp_helpers.synthetic.binning`: bins from public bounds, never from the data).

Privacy analysis
----------------
:func:`mst` is accounted in zero-concentrated DP (zCDP; Bun & Steinke 2016) and converted to
(epsilon, delta) with Canonne, Kamath & Steinke's conversion (2020;
:func:`mic_dp_helpers.accounting.zcdp.zcdp_epsilon`), the one MST's authors use: its selection
step is not Gaussian, so no exact Gaussian-DP curve applies. :func:`independent_marginals` is
Gaussian noise only, so it gets the exact Gaussian-DP conversion (Dong, Roth & Su 2022;
:mod:`mic_dp_helpers.accounting.gdp`), as the group means of lesson 06 do. Two neighbour
relations are supported and every release names its own (``neighbours``):

* ``"add/remove"`` (MST's): one record more or fewer. A histogram changes by 1 in one cell: L2
  sensitivity 1 per marginal; an L1 score changes by at most 1. The number of records is not
  public: the synthetic size is estimated from the noisy marginals (post-processing).
* ``"replace"`` (lesson 06's, as for the group means): one record's values change, ``n`` is
  public. A histogram changes by -1 and +1 in two cells: L2 sensitivity ``sqrt(2)`` per marginal;
  an L1 score changes by at most 2.

Gaussian noise ``N(0, sigma**2)`` on ``k`` marginals with per-marginal L2 sensitivity ``Delta`` is
``k Delta**2 / (2 sigma**2)``-zCDP (Bun & Steinke 2016, Proposition 1.6 with the L2 norm over all
``k`` tables). The exponential mechanism with parameter ``eps`` is ``eps**2 / 8``-zCDP (Cesar &
Rogers 2021, bounded range); MST runs it ``d - 1`` times. zCDP composes by adding rho. The default
split gives each of the three steps a third of rho (as MST does).

For teaching only: NumPy's floating-point Gaussian noise and the floating-point sampling of the
exponential mechanism are not safe against
floating-point attacks (Mironov 2012); production code uses a DP library (OpenDP, or MST in
``smartnoise-synth``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from mic_dp_helpers._validation import (
    as_generator,
    check_choice,
    check_finite_array,
    check_flag,
    check_int_at_least,
    check_positive_float,
    check_probability,
    check_size,
    describe,
    ndim_of,
)
from mic_dp_helpers.accounting.gdp import gdp_mu
from mic_dp_helpers.accounting.ledger import PrivacyAccountant
from mic_dp_helpers.accounting.zcdp import zcdp_epsilon, zcdp_rho
from mic_dp_helpers.mechanisms.selection import exponential_mechanism
from mic_dp_helpers.synthetic.binning import _check_codes, discretize, equal_width_bins
from mic_dp_helpers.synthetic.tree_model import _check_n_rows, _check_one_way, _normalise, fit_tree, sample_tree

__all__ = [
    "NEIGHBOURS",
    "zcdp_rho_for",
    "marginal_sigma",
    "pair_counts",
    "measure_one_way",
    "one_way_audit_mechanism",
    "pair_scores",
    "select_tree",
    "MarginalRelease",
    "mst",
    "independent_marginals",
]

_ONE_HOT_CELLS = 10**7  # one-hot cells built at a time when counting pairs (80 MB)

#: Supported neighbour relations, with (L2 sensitivity of one histogram, L1 sensitivity of a score).
NEIGHBOURS = {"add/remove": (1.0, 1.0), "replace": (math.sqrt(2.0), 2.0)}


def _check_sizes(sizes) -> list[int]:
    """The public domain size of each column, as ints >= 1, with room for the table of all pairs."""
    if isinstance(sizes, (str, bytes, dict)) or ndim_of(sizes) != 1:
        raise TypeError(f"sizes must be a list with one domain size (an int >= 1) per column, e.g. [3, 3, 2]; "
                        f"got {type(sizes).__name__} {sizes!r}.")
    checked = [check_size(s, f"sizes[{j}]", 1) for j, s in enumerate(sizes)]
    total = sum(checked)
    check_size(total, "sum(sizes)", 1, per_item=total)  # the table of all pairs is sum(sizes) x sum(sizes)
    return checked


def _check_neighbours(neighbours) -> tuple[float, float]:
    return NEIGHBOURS[check_choice(neighbours, "neighbours", NEIGHBOURS)]


# ================================================================================ accounting
def zcdp_rho_for(epsilon: float, delta: float) -> float:
    """The largest rho whose conversion :func:`~mic_dp_helpers.accounting.zcdp.zcdp_epsilon` gives at most epsilon.

    Canonne, Kamath & Steinke's conversion (2020), the one MST's authors use; it allows about
    1.4 times the rho of Bun & Steinke's closed form (:func:`~mic_dp_helpers.accounting.ledger.zcdp_to_dp`)
    at (1, 1e-6). See :func:`mic_dp_helpers.accounting.zcdp.zcdp_rho`.

    Parameters
    ----------
    epsilon : float
        Target epsilon (> 0).
    delta : float
        Target delta, in (0, 1).

    Returns
    -------
    float
        rho > 0 with ``zcdp_epsilon(rho, delta) <= epsilon``.

    Examples
    --------
    >>> from mic_dp_helpers.accounting.zcdp import zcdp_epsilon
    >>> rho = zcdp_rho_for(1.0, 1e-6)
    >>> round(rho, 4), zcdp_epsilon(rho, 1e-6) <= 1.0
    (0.0244, True)
    """
    return zcdp_rho(epsilon, delta)


def marginal_sigma(rho: float, n_marginals: int, neighbours: str = "add/remove") -> float:
    """Noise sd that makes ``n_marginals`` noisy histograms ``rho``-zCDP together.

    ``sigma = sqrt(n_marginals * Delta**2 / (2 rho))`` with ``Delta = 1`` (add/remove) or
    ``sqrt(2)`` (replace one record) per histogram (Bun & Steinke 2016).

    Parameters
    ----------
    rho : float
        zCDP budget of all the histograms together (> 0).
    n_marginals : int
        Number of histograms measured with this noise (>= 1).
    neighbours : {"add/remove", "replace"}
        The neighbour relation (sets ``Delta``).

    Returns
    -------
    float
        The noise standard deviation, in counts.

    Examples
    --------
    >>> round(marginal_sigma(0.5, 2), 4)
    1.4142
    >>> round(marginal_sigma(0.5, 2, "replace"), 4)
    2.0
    """
    rho = check_positive_float(rho, "rho")
    n_marginals = check_int_at_least(n_marginals, "n_marginals", 1)
    l2, _ = _check_neighbours(neighbours)
    return math.sqrt(n_marginals * l2**2 / (2 * rho))


# ================================================================================= measuring
def _one_hot(codes: np.ndarray, offsets: np.ndarray) -> np.ndarray:
    onehot = np.zeros((len(codes), offsets[-1]), dtype=np.float64)
    rows = np.repeat(np.arange(len(codes)), codes.shape[1])
    onehot[rows, (codes + offsets[:-1]).ravel()] = 1.0
    return onehot


def pair_counts(codes, sizes) -> tuple[np.ndarray, np.ndarray]:
    """Every one-way and two-way marginal at once: the blocks of ``O.T @ O`` for the one-hot matrix ``O``.

    Returns ``(table, offsets)``: the two-way counts of columns ``i, j`` are
    ``table[offsets[i]:offsets[i+1], offsets[j]:offsets[j+1]]``; the one-way counts of column
    ``i`` are the diagonal of its own block.

    Parameters
    ----------
    codes : array_like
        Integer bin codes, shape ``(n, d)``.
    sizes : sequence of int
        Public number of bins of each column.

    Returns
    -------
    table : numpy.ndarray
        The counts, shape ``(sum(sizes), sum(sizes))``.
    offsets : numpy.ndarray
        Where each column's block starts (and, last, ends).

    Examples
    --------
    >>> table, offsets = pair_counts([[0, 1], [1, 1], [1, 0]], [2, 2])
    >>> table[offsets[0]:offsets[1], offsets[1]:offsets[2]].tolist()
    [[0.0, 1.0], [1.0, 1.0]]
    """
    sizes = _check_sizes(sizes)
    codes = _check_codes(codes, sizes)
    offsets = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)
    table = np.zeros((offsets[-1], offsets[-1]))
    chunk = max(1, _ONE_HOT_CELLS // int(offsets[-1]))  # rows per one-hot block: memory does not grow with n
    for start in range(0, len(codes), chunk):
        onehot = _one_hot(codes[start:start + chunk], offsets)
        table += onehot.T @ onehot
    return table, offsets


def measure_one_way(codes, sizes, sigma: float, rng=None) -> list[np.ndarray]:
    """Noisy histogram of every column: exact counts plus ``N(0, sigma**2)`` in every cell.

    Parameters
    ----------
    codes : array_like
        Integer bin codes, shape ``(n, d)``.
    sizes : sequence of int
        Public number of bins of each column.
    sigma : float
        Noise standard deviation per cell (> 0).
    rng : None, int or numpy.random.Generator, optional
        Source of randomness.

    Returns
    -------
    list of numpy.ndarray
        One noisy histogram per column.

    Examples
    --------
    >>> noisy = measure_one_way([[0], [1], [1]], [2], sigma=1e-9, rng=0)
    >>> np.round(noisy[0], 6).tolist()
    [1.0, 2.0]
    """
    sizes = _check_sizes(sizes)
    codes = _check_codes(codes, sizes)
    sigma = check_positive_float(sigma, "sigma")
    generator = as_generator(rng)
    return [np.bincount(codes[:, j], minlength=k) + generator.normal(0.0, sigma, k) for j, k in enumerate(sizes)]


def one_way_audit_mechanism(sigma: float, lower: float, upper: float, n_bins: int, *, bins_from_data: bool = False):
    """One noisy histogram of a 1-column dataset, in the vectorized form :func:`~mic_dp_helpers.attacks.audit.audit_epsilon` expects.

    Returns ``mechanism(values, size, rng)``: ``size`` independent draws of the ``n_bins`` counts
    plus ``N(0, sigma**2)`` noise, with bins between the public ``lower`` and ``upper``, or, with
    ``bins_from_data=True``, between the data's own min and max: **the broken variant**, whose
    edges move when one record changes.

    Parameters
    ----------
    sigma : float
        Noise standard deviation per cell (> 0).
    lower, upper : float
        Public bounds of the column.
    n_bins : int
        Number of bins.
    bins_from_data : bool, default False
        Use the data's min and max (broken) instead of the public bounds.

    Returns
    -------
    callable
        ``mechanism(values, size, rng) -> numpy.ndarray`` of shape ``(size, n_bins)``.

    Examples
    --------
    >>> mechanism = one_way_audit_mechanism(1.0, 0.0, 1.0, 2)
    >>> mechanism(np.array([[0.2], [0.9]]), 3, np.random.default_rng(0)).shape
    (3, 2)
    """
    sigma = check_positive_float(sigma, "sigma")
    public_edges = equal_width_bins(lower, upper, n_bins)
    check_flag(bins_from_data, "bins_from_data")

    def mechanism(values, size, rng):
        size = check_size(size, "size", 1, per_item=n_bins)
        values = check_finite_array(values, "values").reshape(-1, 1)
        edges = equal_width_bins(values.min(), values.max(), n_bins) if bins_from_data else public_edges
        counts = np.bincount(discretize(values, edges)[:, 0], minlength=n_bins)
        return counts + as_generator(rng).normal(0.0, sigma, size=(size, n_bins))

    return mechanism


def pair_scores(codes, sizes, one_way: list[np.ndarray]) -> tuple[list[tuple[int, int]], np.ndarray]:
    """MST's score of every pair: L1 distance between its true counts and what independence predicts.

    The prediction is the product of the noisy one-way marginals (already released, so public),
    scaled to their mean total. One record moves a score by at most 1 (add/remove) or 2
    (replace): it moves one cell (or two) of the true counts by 1.

    Parameters
    ----------
    codes : array_like
        Integer bin codes, shape ``(n, d)``.
    sizes : sequence of int
        Public number of bins of each column.
    one_way : list of numpy.ndarray
        The released noisy one-way marginals.

    Returns
    -------
    pairs : list of tuple of int
        Every pair ``(i, j)``, ``i < j``.
    scores : numpy.ndarray
        The score of each pair.

    Examples
    --------
    >>> pairs, scores = pair_scores([[0, 0], [1, 1]], [2, 2], [np.array([1.0, 1.0])] * 2)
    >>> pairs, scores.tolist()
    ([(0, 1)], [2.0])
    """
    table, offsets = pair_counts(codes, sizes)
    one_way = _check_one_way(one_way, _check_sizes(sizes))
    d = len(sizes)
    n_hat = float(np.mean([max(np.sum(m), 1.0) for m in one_way]))
    expected = np.concatenate([_normalise(m) for m in one_way]) * n_hat
    deviation = np.abs(table - np.outer(expected, expected) / n_hat)
    blocks = np.add.reduceat(np.add.reduceat(deviation, offsets[:-1], axis=0), offsets[:-1], axis=1)
    rows, cols = np.triu_indices(d, k=1)
    return list(zip(rows.tolist(), cols.tolist())), blocks[rows, cols]


def select_tree(codes, sizes, one_way: list[np.ndarray], epsilon_round: float, neighbours: str = "add/remove",
                rng=None) -> list[tuple[int, int]]:
    """Choose the ``d - 1`` pairs of a spanning tree with the exponential mechanism (MST's selection).

    Kruskal's algorithm picks, ``d - 1`` times, one pair among those that join two separate
    components, with the exponential mechanism
    (:func:`~mic_dp_helpers.mechanisms.selection.exponential_mechanism`) at ``epsilon_round`` on the scores of
    :func:`pair_scores` (high for pairs the one-way marginals explain badly). Each round is
    ``epsilon_round``-DP and ``epsilon_round**2 / 8``-zCDP.

    Parameters
    ----------
    codes : array_like
        Integer bin codes, shape ``(n, d)``.
    sizes : sequence of int
        Public number of bins of each column.
    one_way : list of numpy.ndarray
        The released noisy one-way marginals.
    epsilon_round : float
        Epsilon of each selection round (> 0).
    neighbours : {"add/remove", "replace"}, default "add/remove"
        The neighbour relation (sets the score's sensitivity).
    rng : None, int or numpy.random.Generator, optional
        Source of randomness.

    Returns
    -------
    list of tuple of int
        The ``d - 1`` chosen pairs.

    Examples
    --------
    >>> codes = np.array([[0, 0, 1], [1, 1, 0], [1, 1, 1], [0, 0, 0]] * 5)
    >>> one_way = measure_one_way(codes, [2, 2, 2], sigma=0.5, rng=0)
    >>> sorted(select_tree(codes, [2, 2, 2], one_way, epsilon_round=50.0, rng=0))[0]
    (0, 1)
    """
    _, score_sensitivity = _check_neighbours(neighbours)
    pairs, scores = pair_scores(codes, sizes, one_way)
    generator = as_generator(rng)
    first, second = np.array(pairs, dtype=np.int64).reshape(-1, 2).T
    component = np.arange(len(sizes))
    chosen: list[tuple[int, int]] = []
    for _ in range(len(sizes) - 1):
        candidates = np.flatnonzero(component[first] != component[second])  # pairs that join two components
        pick = candidates[exponential_mechanism(scores[candidates], score_sensitivity, epsilon_round, generator)]
        i, j = pairs[pick]
        component[component == component[j]] = component[i]
        chosen.append((i, j))
    return chosen


# ================================================================================ releases
@dataclass(frozen=True)
class MarginalRelease:
    """Synthetic records (bin codes) from noisy marginals, and what the release assumes.

    Attributes
    ----------
    codes : numpy.ndarray
        Synthetic records, one integer bin index per column.
    sizes : tuple of int
        Public domain size of each column.
    metadata : dict
        ``method``, ``neighbours``, ``rho`` and its split, noise ``sigma`` of each step,
        ``epsilon_round`` of the selection, ``epsilon``/``delta`` (the ``conversion`` named:
        Canonne, Kamath & Steinke's for MST, Gaussian DP for independent marginals), the chosen ``tree``,
        ``differentially_private`` and the list of ``assumptions``.
    """

    codes: np.ndarray
    sizes: tuple
    metadata: dict = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.codes)

    def __repr__(self) -> str:
        m = self.metadata
        return (f"MarginalRelease({len(self)} records x {len(self.sizes)} columns, method={m.get('method')!r}, "
                f"epsilon={m.get('epsilon', float('nan')):.3g}, delta={m.get('delta')}, "
                f"neighbours={m.get('neighbours')!r})")


def _prepare(codes, sizes, epsilon, delta, neighbours, n_synthetic, accountant, label, calibrate):
    """Check the arguments, charge the ledger, then check the values (a failure that depends on them is paid).

    ``calibrate(epsilon, delta)`` returns ``(rho, charged epsilon)`` of the method's accounting.
    """
    sizes = tuple(_check_sizes(sizes))
    codes = _check_codes(codes, sizes, check_values=False)
    _check_neighbours(neighbours)
    rho, charged = calibrate(check_positive_float(epsilon, "epsilon"), check_probability(delta, "delta"))
    if neighbours == "replace" and n_synthetic is None:
        n_synthetic = len(codes)  # n is public under replace-one neighbours
    if n_synthetic is not None:
        n_synthetic = _check_n_rows(n_synthetic, len(sizes), "n_synthetic")
    if accountant is not None:
        if not isinstance(accountant, PrivacyAccountant):
            raise TypeError(f"accountant must be a PrivacyAccountant, got {type(accountant).__name__}.")
        accountant.spend(charged, delta, label=label)  # charged before the values are read
    return _check_codes(codes, sizes), sizes, rho, charged, n_synthetic


def _assumptions(neighbours: str, n: int, delta: float) -> list[str]:
    public_n = ("n is public (replace-one neighbours)" if neighbours == "replace"
                else "n is not assumed public: the synthetic size is estimated from the noisy marginals")
    return [
        "bins (and so every column's domain) are fixed in advance from public knowledge, never from the data",
        public_n,
        f"delta = {delta:g}, compared with 1/n = {1 / max(n, 1):.3g} (delta must be much smaller than 1/n)",
        "noise from NumPy's floating-point samplers: teaching only (Mironov 2012)",
    ]


def _size_from(one_way: list[np.ndarray], n_synthetic: int | None) -> int:
    if n_synthetic is not None:
        return n_synthetic
    return max(1, int(round(float(np.mean([m.sum() for m in one_way])))))  # post-processing


def mst(codes, sizes, epsilon: float, delta: float, *, neighbours: str = "add/remove", n_synthetic: int | None = None,
        split: tuple[float, float, float] = (1 / 3, 1 / 3, 1 / 3), rng=None,
        accountant: PrivacyAccountant | None = None) -> MarginalRelease:
    """MST: synthetic records from noisy one-way marginals and a noisy spanning tree of pairs.

    Parameters
    ----------
    codes : array_like of int, shape (n, d)
        Private records, discretised with public bins (:func:`discretize`).
    sizes : sequence of int
        Public domain size of each column.
    epsilon, delta : float
        Target privacy; the whole release is ``rho``-zCDP with ``rho = zcdp_rho_for(epsilon, delta)``,
        so (epsilon, delta)-DP by Canonne, Kamath & Steinke's conversion (2020).
    neighbours : {"add/remove", "replace"}
        The neighbour relation the noise is calibrated for (see the module docstring).
    n_synthetic : int, optional
        Records to sample. Default: ``n`` under ``"replace"`` (public); under ``"add/remove"``
        the mean total of the noisy one-way marginals.
    split : three floats summing to 1
        Shares of rho for the one-way measurements, the selection and the two-way measurements.
    rng : None, int or numpy.random.Generator
    accountant : PrivacyAccountant, optional
        Charged ``(zcdp_epsilon(rho, delta), delta)`` (at most ``epsilon``) before the data are touched.

    Returns
    -------
    MarginalRelease

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> x = rng.integers(0, 2, 500); codes = np.column_stack([x, x, rng.integers(0, 3, 500)])
    >>> release = mst(codes, [2, 2, 3], epsilon=3.0, delta=1e-6, rng=1)
    >>> (0, 1) in release.metadata["tree"], release.metadata["differentially_private"]
    (True, True)
    """
    shares = check_finite_array(split, "split")
    if shares.shape != (3,) or (shares <= 0).any() or not math.isclose(shares.sum(), 1.0, rel_tol=1e-9):
        raise ValueError(f"split must be three positive shares of rho summing to 1, got {list(split)}.")
    generator = as_generator(rng)  # checked before the ledger is charged
    codes, sizes, rho, charged, n_synthetic = _prepare(
        codes, sizes, epsilon, delta, neighbours, n_synthetic, accountant, f"MST ({neighbours} neighbours)",
        lambda eps, dlt: (zcdp_rho(eps, dlt), zcdp_epsilon(zcdp_rho(eps, dlt), dlt)))
    d = len(sizes)
    rho_one, rho_select, rho_pairs = (rho * s for s in shares)
    sigma_one = marginal_sigma(rho_one, d, neighbours)
    one_way = measure_one_way(codes, sizes, sigma_one, generator)
    tree, epsilon_round, sigma_pairs, pair_tables = [], None, None, {}
    if d > 1:
        epsilon_round = math.sqrt(8 * rho_select / (d - 1))  # (d - 1) rounds of eps**2/8-zCDP
        tree = select_tree(codes, sizes, one_way, epsilon_round, neighbours, generator)
        sigma_pairs = marginal_sigma(rho_pairs, d - 1, neighbours)
        for i, j in tree:
            exact = np.zeros((sizes[i], sizes[j]))
            np.add.at(exact, (codes[:, i], codes[:, j]), 1.0)
            pair_tables[(i, j)] = exact + generator.normal(0.0, sigma_pairs, exact.shape)
    model = fit_tree(one_way, tree, pair_tables, sigma_one, sigma_pairs or 1.0)
    synthetic = sample_tree(model, _size_from(one_way, n_synthetic), generator)
    metadata = {
        "method": "MST (tree model estimated in closed form)",
        "neighbours": neighbours,
        "rho": rho,
        "rho_split": {"one-way": rho_one, "selection": rho_select, "two-way": rho_pairs},
        "sigma_one_way": sigma_one,
        "epsilon_round": epsilon_round,
        "sigma_two_way": sigma_pairs,
        "tree": [(int(i), int(j)) for i, j in tree],
        "epsilon": charged,
        "delta": delta,
        "conversion": "zCDP to (epsilon, delta): Canonne, Kamath & Steinke 2020",
        "differentially_private": True,
        "assumptions": _assumptions(neighbours, len(codes), delta),
    }
    return MarginalRelease(synthetic, sizes, metadata)


def independent_marginals(codes, sizes, epsilon: float, delta: float, *, neighbours: str = "add/remove",
                          n_synthetic: int | None = None, rng=None,
                          accountant: PrivacyAccountant | None = None) -> MarginalRelease:
    """Baseline: every column drawn independently from its noisy one-way marginal (the whole budget on them).

    Gaussian noise only, so it is accounted exactly in Gaussian DP (Dong, Roth & Su 2022): the
    ``d`` histograms together have L2 sensitivity ``sqrt(d) * Delta``, and the noise gives
    ``mu = gdp_mu(epsilon, delta)`` (``rho = mu**2 / 2`` in zCDP terms). It keeps each column's
    distribution and none of the pairs.

    Parameters
    ----------
    codes : array_like of int, shape (n, d)
        Private records, discretised with public bins (:func:`discretize`).
    sizes : sequence of int
        Public domain size of each column.
    epsilon, delta : float
        Target privacy: the noise is ``sqrt(d) * Delta / gdp_mu(epsilon, delta)``, so the release
        is exactly (epsilon, delta)-DP.
    neighbours : {"add/remove", "replace"}
        The neighbour relation the noise is calibrated for.
    n_synthetic : int, optional
        Records to sample. Default: ``n`` under ``"replace"`` (public); under ``"add/remove"``
        the mean total of the noisy one-way marginals.
    rng : None, int or numpy.random.Generator
    accountant : PrivacyAccountant, optional
        Charged ``(epsilon, delta)`` before the data are touched.

    Returns
    -------
    MarginalRelease

    Examples
    --------
    >>> release = independent_marginals([[0, 1]] * 50, [2, 2], epsilon=1.0, delta=1e-6, rng=0)
    >>> release.metadata["method"]
    'independent marginals'
    """
    generator = as_generator(rng)  # checked before the ledger is charged
    codes, sizes, rho, charged, n_synthetic = _prepare(
        codes, sizes, epsilon, delta, neighbours, n_synthetic, accountant,
        f"independent marginals ({neighbours} neighbours)",
        lambda eps, dlt: (gdp_mu(eps, dlt) ** 2 / 2, eps))  # gdp_mu makes gdp_delta(eps, mu) <= delta exactly
    sigma = marginal_sigma(rho, len(sizes), neighbours)  # sqrt(d) Delta / sigma = sqrt(2 rho) = mu
    one_way = measure_one_way(codes, sizes, sigma, generator)
    synthetic = sample_tree(fit_tree(one_way, [], {}, sigma), _size_from(one_way, n_synthetic), generator)
    metadata = {"method": "independent marginals", "neighbours": neighbours, "rho": rho, "sigma_one_way": sigma,
                "epsilon": charged, "delta": delta, "conversion": "Gaussian DP (exact): Dong, Roth & Su 2022",
                "differentially_private": True,
                "assumptions": _assumptions(neighbours, len(codes), delta)}
    return MarginalRelease(synthetic, sizes, metadata)
