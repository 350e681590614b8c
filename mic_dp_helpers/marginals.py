"""Marginal-based DP synthetic data: a teaching implementation of MST, and an independent baseline (lesson 06).

MST (McKenna, Sheldon & Miklau, "Winning the NIST Contest: A scalable and general approach to
differentially private synthetic data", Journal of Privacy and Confidentiality 2021) won the NIST
2018 DP synthetic data challenge. It keeps what most analyses of a table need, the pairs of
columns, in three steps:

1. **measure** every one-way marginal (a histogram per column) with Gaussian noise;
2. **select** the pairs of a maximum spanning tree with the exponential mechanism: a pair scores
   high when its true two-way marginal is far (L1) from what the noisy one-way marginals predict
   if the two columns were independent;
3. **measure** the chosen two-way marginals with Gaussian noise, then **estimate** one consistent
   tree model from all noisy marginals and **sample** synthetic records from it.

The published MST estimates with Private-PGM (the ``mbi`` package, JAX); this module does the
estimation in closed form for the tree: negative counts are set to 0, each measured table is
normalised, and each child column is drawn from its noisy two-way table given the value of its
parent, so every pair is consistent with the parent's one-way marginal. It is simpler and
somewhat less accurate than Private-PGM; the privacy analysis is the same.

Columns must be **discrete with a domain fixed in advance from public knowledge**:
:func:`equal_width_bins` makes bin edges from public bounds and :func:`discretize` maps values
to bins, clipping what falls outside. Bins taken from the data (:func:`quantile_bins`, kept to
show the mistake) move when one record changes and void the guarantee.

Privacy analysis
----------------
Accounted in zero-concentrated DP (zCDP; Bun & Steinke 2016), converted to (epsilon, delta) with
:func:`mic_dp_helpers.accounting.zcdp_to_dp`. Two neighbour relations are supported and every
release names its own (``neighbours``):

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

For teaching only: NumPy's floating-point Gaussian and Gumbel samplers are not safe against
floating-point attacks (Mironov 2012); production code uses a DP library (OpenDP, or MST in
``smartnoise-synth``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from mic_dp_helpers._validation import (
    as_generator,
    check_finite_array,
    check_int_at_least,
    check_positive_float,
    check_probability,
)
from mic_dp_helpers.accounting import PrivacyAccountant, zcdp_to_dp

__all__ = [
    "NEIGHBOURS",
    "equal_width_bins",
    "quantile_bins",
    "discretize",
    "undiscretize",
    "zcdp_rho_for",
    "marginal_sigma",
    "pair_counts",
    "measure_one_way",
    "exponential_mechanism",
    "select_tree",
    "fit_tree",
    "sample_tree",
    "MarginalRelease",
    "mst",
    "independent_marginals",
]

#: Supported neighbour relations, with (L2 sensitivity of one histogram, L1 sensitivity of a score).
NEIGHBOURS = {"add/remove": (1.0, 1.0), "replace": (math.sqrt(2.0), 2.0)}


def _check_neighbours(neighbours) -> tuple[float, float]:
    if neighbours not in NEIGHBOURS:
        raise ValueError(f"neighbours must be one of {sorted(NEIGHBOURS)}, got {neighbours!r}.")
    return NEIGHBOURS[neighbours]


# ======================================================================= public discretisation
def equal_width_bins(lower, upper, n_bins: int) -> list[np.ndarray]:
    """Bin edges for each column: ``n_bins`` equal-width bins between public bounds.

    Only the bounds and ``n_bins`` are used, never data, so the bins are public.

    Examples
    --------
    >>> [edges.tolist() for edges in equal_width_bins([0, 0], [16, 1], 4)]
    [[0.0, 4.0, 8.0, 12.0, 16.0], [0.0, 0.25, 0.5, 0.75, 1.0]]
    """
    lower = np.atleast_1d(check_finite_array(lower, "lower"))
    upper = np.atleast_1d(check_finite_array(upper, "upper"))
    lower, upper = np.broadcast_arrays(lower, upper)
    if not (lower < upper).all():
        raise ValueError("every lower bound must be < its upper bound; use public bounds, never the data's min/max.")
    n_bins = check_int_at_least(n_bins, "n_bins", 1)
    return [np.linspace(lo, hi, n_bins + 1) for lo, hi in zip(lower, upper)]


def quantile_bins(X, n_bins: int) -> list[np.ndarray]:
    """Bin edges at the data's own quantiles. **Not private**: kept to show (and audit) the mistake.

    Each edge is a statistic of the data: one changed record moves it and with it the bin of
    many other records, so no noise calibrated to one record per bin covers the release.

    Examples
    --------
    >>> quantile_bins([[0.0], [1.0], [2.0], [3.0]], 2)[0].tolist()
    [0.0, 1.5, 3.0]
    """
    X = check_finite_array(X, "X")
    if X.ndim != 2:
        raise ValueError(f"X must be a 2-D array (records x columns), got shape {X.shape}.")
    n_bins = check_int_at_least(n_bins, "n_bins", 1)
    return [np.quantile(X[:, j], np.linspace(0, 1, n_bins + 1)) for j in range(X.shape[1])]


def _check_edges(edges, n_columns: int) -> list[np.ndarray]:
    edges = [check_finite_array(e, f"edges[{j}]") for j, e in enumerate(edges)]
    if len(edges) != n_columns:
        raise ValueError(f"give one array of bin edges per column: {n_columns} columns, {len(edges)} edge arrays.")
    for j, e in enumerate(edges):
        if e.ndim != 1 or len(e) < 2 or not (np.diff(e) > 0).all():
            raise ValueError(f"edges[{j}] must be increasing with at least 2 values, got {e.tolist()}.")
    return edges


def discretize(X, edges) -> np.ndarray:
    """Bin index of every value: ``codes[i, j]`` in ``0 .. len(edges[j]) - 2``.

    Bins are ``[e_0, e_1), [e_1, e_2), ..., [e_{k-1}, e_k]``; values outside the outer edges are
    clipped into the first or last bin (so one record's value never changes another's bin).

    Examples
    --------
    >>> discretize([[-1.0], [0.5], [3.9], [4.0], [99.0]], [[0, 1, 2, 3, 4]]).ravel().tolist()
    [0, 0, 3, 3, 3]
    """
    X = check_finite_array(X, "X")
    if X.ndim != 2:
        raise ValueError(f"X must be a 2-D array (records x columns), got shape {X.shape}.")
    edges = _check_edges(edges, X.shape[1])
    codes = np.empty(X.shape, dtype=np.int64)
    for j, e in enumerate(edges):
        codes[:, j] = np.clip(np.searchsorted(e, X[:, j], side="right") - 1, 0, len(e) - 2)
    return codes


def undiscretize(codes, edges, rng=None) -> np.ndarray:
    """Values drawn uniformly inside each record's bin (post-processing: it uses only public edges).

    Examples
    --------
    >>> values = undiscretize([[0], [3]], [[0, 1, 2, 3, 4]], rng=0)
    >>> bool(0 <= values[0, 0] < 1 and 3 <= values[1, 0] <= 4)
    True
    """
    codes = _check_codes(codes, [len(e) - 1 for e in edges])
    edges = _check_edges(edges, codes.shape[1])
    generator = as_generator(rng)
    u = generator.random(codes.shape)
    low = np.stack([e[:-1][codes[:, j]] for j, e in enumerate(edges)], axis=1)
    high = np.stack([e[1:][codes[:, j]] for j, e in enumerate(edges)], axis=1)
    return low + u * (high - low)


def _check_codes(codes, sizes) -> np.ndarray:
    codes = np.asarray(codes)
    if codes.ndim != 2 or not np.issubdtype(codes.dtype, np.integer):
        raise ValueError(f"codes must be a 2-D array of integer bin indices, got {codes.dtype} of shape {codes.shape}.")
    if len(sizes) != codes.shape[1]:
        raise ValueError(f"sizes must give one domain size per column: {codes.shape[1]} columns, {len(sizes)} sizes.")
    bad = (codes < 0) | (codes >= np.asarray(sizes)[None, :])
    if bad.any():
        j = int(np.flatnonzero(bad.any(axis=0))[0])
        raise ValueError(f"column {j} has codes outside 0..{sizes[j] - 1}: discretize with public bins first.")
    return codes.astype(np.int64)


# ================================================================================ accounting
def zcdp_rho_for(epsilon: float, delta: float) -> float:
    """The largest rho whose conversion :func:`~mic_dp_helpers.accounting.zcdp_to_dp` gives at most epsilon.

    Inverts ``epsilon = rho + 2 sqrt(rho ln(1/delta))`` (Bun & Steinke 2016, Proposition 1.3):
    ``rho = (sqrt(ln(1/delta) + epsilon) - sqrt(ln(1/delta)))**2``.

    Examples
    --------
    >>> rho = zcdp_rho_for(1.0, 1e-6)
    >>> round(rho, 5), zcdp_to_dp(rho, 1e-6) <= 1.0
    (0.01747, True)
    """
    epsilon = check_positive_float(epsilon, "epsilon")
    delta = check_probability(delta, "delta")
    log_term = math.log(1 / delta)
    rho = epsilon**2 / (math.sqrt(log_term + epsilon) + math.sqrt(log_term)) ** 2  # no cancellation
    while zcdp_to_dp(rho, delta) > epsilon:  # stay on the safe side of rounding
        rho *= 1 - 1e-12
    return rho


def marginal_sigma(rho: float, n_marginals: int, neighbours: str = "add/remove") -> float:
    """Noise sd that makes ``n_marginals`` noisy histograms ``rho``-zCDP together.

    ``sigma = sqrt(n_marginals * Delta**2 / (2 rho))`` with ``Delta = 1`` (add/remove) or
    ``sqrt(2)`` (replace one record) per histogram (Bun & Steinke 2016).

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
def _one_hot(codes: np.ndarray, sizes) -> tuple[np.ndarray, np.ndarray]:
    offsets = np.concatenate([[0], np.cumsum(sizes)])
    onehot = np.zeros((len(codes), offsets[-1]), dtype=np.float64)
    rows = np.repeat(np.arange(len(codes)), codes.shape[1])
    onehot[rows, (codes + offsets[:-1]).ravel()] = 1.0
    return onehot, offsets


def pair_counts(codes, sizes) -> tuple[np.ndarray, np.ndarray]:
    """Every one-way and two-way marginal at once: the blocks of ``O.T @ O`` for the one-hot matrix ``O``.

    Returns ``(table, offsets)``: the two-way counts of columns ``i, j`` are
    ``table[offsets[i]:offsets[i+1], offsets[j]:offsets[j+1]]``; the one-way counts of column
    ``i`` are the diagonal of its own block.

    Examples
    --------
    >>> table, offsets = pair_counts([[0, 1], [1, 1], [1, 0]], [2, 2])
    >>> table[offsets[0]:offsets[1], offsets[1]:offsets[2]].tolist()
    [[0.0, 1.0], [1.0, 1.0]]
    """
    sizes = [check_int_at_least(s, f"sizes[{j}]", 1) for j, s in enumerate(sizes)]
    onehot, offsets = _one_hot(_check_codes(codes, sizes), sizes)
    return onehot.T @ onehot, offsets


def measure_one_way(codes, sizes, sigma: float, rng=None) -> list[np.ndarray]:
    """Noisy histogram of every column: exact counts plus ``N(0, sigma**2)`` in every cell.

    Examples
    --------
    >>> noisy = measure_one_way([[0], [1], [1]], [2], sigma=1e-9, rng=0)
    >>> np.round(noisy[0], 6).tolist()
    [1.0, 2.0]
    """
    sizes = [check_int_at_least(s, f"sizes[{j}]", 1) for j, s in enumerate(sizes)]
    codes = _check_codes(codes, sizes)
    sigma = check_positive_float(sigma, "sigma")
    generator = as_generator(rng)
    return [np.bincount(codes[:, j], minlength=k) + generator.normal(0.0, sigma, k) for j, k in enumerate(sizes)]


def exponential_mechanism(scores, epsilon: float, sensitivity: float, rng=None, size: int | None = None):
    """Index drawn with probability proportional to ``exp(epsilon * score / (2 * sensitivity))``.

    epsilon-DP when one record changes every score by at most ``sensitivity`` (McSherry & Talwar
    2007), and ``epsilon**2 / 8``-zCDP (Cesar & Rogers 2021). Drawn with the Gumbel-max trick:
    the argmax of ``epsilon * score / (2 * sensitivity) + Gumbel noise`` has exactly that law.
    ``size`` draws many independent choices at once (for audits).

    Examples
    --------
    >>> int(exponential_mechanism([0.0, 100.0, 0.0], epsilon=1.0, sensitivity=1.0, rng=0))
    1
    """
    scores = check_finite_array(scores, "scores").ravel()
    epsilon = check_positive_float(epsilon, "epsilon")
    sensitivity = check_positive_float(sensitivity, "sensitivity")
    generator = as_generator(rng)
    shape = (len(scores),) if size is None else (check_int_at_least(size, "size", 1), len(scores))
    utility = epsilon * (scores - scores.max()) / (2 * sensitivity)
    return np.argmax(utility + generator.gumbel(size=shape), axis=-1)


def _independent_estimate(one_way: list[np.ndarray], n: float) -> list[np.ndarray]:
    return [_normalise(m) * n for m in one_way]


def _normalise(counts: np.ndarray, fallback: np.ndarray | None = None) -> np.ndarray:
    """Project noisy counts to a probability vector: negatives to 0, then divide by the total."""
    clipped = np.maximum(np.asarray(counts, dtype=float), 0.0)
    total = clipped.sum()
    if total > 0:
        return clipped / total
    return fallback if fallback is not None else np.full(len(clipped), 1.0 / len(clipped))


def select_tree(codes, sizes, one_way: list[np.ndarray], epsilon_round: float, neighbours: str = "add/remove",
                rng=None) -> list[tuple[int, int]]:
    """Choose the ``d - 1`` pairs of a spanning tree with the exponential mechanism (MST's selection).

    The score of pair ``(i, j)`` is the L1 distance between its true two-way counts and the
    product of the noisy one-way marginals (what independence predicts): large when the pair
    carries information the one-way marginals miss. Kruskal's algorithm picks, ``d - 1`` times,
    one pair among those that join two separate components, with the exponential mechanism at
    ``epsilon_round``. The noisy one-way marginals are already released, so one record moves a
    score by at most 1 (add/remove) or 2 (replace).

    Examples
    --------
    >>> codes = np.array([[0, 0, 1], [1, 1, 0], [1, 1, 1], [0, 0, 0]] * 5)
    >>> one_way = measure_one_way(codes, [2, 2, 2], sigma=0.5, rng=0)
    >>> sorted(select_tree(codes, [2, 2, 2], one_way, epsilon_round=50.0, rng=0))[0]
    (0, 1)
    """
    _, score_sensitivity = _check_neighbours(neighbours)
    table, offsets = pair_counts(codes, sizes)
    d = len(sizes)
    n_hat = float(np.mean([max(m.sum(), 1.0) for m in one_way]))
    expected = _independent_estimate(one_way, n_hat)
    pairs = [(i, j) for i in range(d) for j in range(i + 1, d)]
    scores = np.array([np.abs(table[offsets[i]:offsets[i + 1], offsets[j]:offsets[j + 1]]
                              - np.outer(expected[i], expected[j]) / n_hat).sum() for i, j in pairs])
    generator = as_generator(rng)
    component = list(range(d))
    chosen: list[tuple[int, int]] = []
    for _ in range(d - 1):
        candidates = [k for k, (i, j) in enumerate(pairs) if component[i] != component[j]]
        pick = candidates[int(exponential_mechanism(scores[candidates], epsilon_round, score_sensitivity, generator))]
        i, j = pairs[pick]
        old, new = component[j], component[i]
        component = [new if c == old else c for c in component]
        chosen.append((i, j))
    return chosen


# ================================================================================ the model
@dataclass(frozen=True)
class TreeModel:
    """A tree-shaped model: the root's distribution and each child's distribution given its parent."""

    order: tuple[int, ...]  # columns, each after its parent
    parent: dict  # column -> parent column (the root has none)
    root_probabilities: np.ndarray
    conditionals: dict  # column -> array (values of parent) x (values of column), rows sum to 1
    marginals: list  # one-way probability vector per column (for columns without a parent)


def fit_tree(one_way: list[np.ndarray], edges: list[tuple[int, int]], pair_tables: dict) -> TreeModel:
    """One consistent tree model from noisy marginals (post-processing of the measurements).

    The one-way marginals are projected to probability vectors (negatives to 0, divided by the
    total). The tree is rooted at column 0 and walked breadth first; each child's
    distribution given its parent is its noisy two-way table with negatives set to 0 and each
    row normalised (a row with no mass falls back to the child's one-way marginal). Columns not
    reached by an edge are independent draws from their one-way marginal.

    Examples
    --------
    >>> model = fit_tree([np.array([5.0, 5.0]), np.array([5.0, 5.0])], [(0, 1)],
    ...                  {(0, 1): np.array([[5.0, -1.0], [0.0, 5.0]])})
    >>> model.conditionals[1].tolist()
    [[1.0, 0.0], [0.0, 1.0]]
    """
    marginals = [_normalise(m) for m in one_way]
    d = len(marginals)
    neighbours_of: dict[int, list[int]] = {c: [] for c in range(d)}
    for i, j in edges:
        neighbours_of[i].append(j)
        neighbours_of[j].append(i)
    order, parent, seen = [], {}, set()
    for start in range(d):
        if start in seen:
            continue
        queue, seen = [start], seen | {start}
        while queue:
            column = queue.pop(0)
            order.append(column)
            for other in neighbours_of[column]:
                if other not in seen:
                    seen.add(other)
                    parent[other] = column
                    queue.append(other)
    conditionals = {}
    for child, par in parent.items():
        table = pair_tables[(par, child)] if (par, child) in pair_tables else pair_tables[(child, par)].T
        conditionals[child] = np.stack([_normalise(row, marginals[child]) for row in table])
    return TreeModel(tuple(order), parent, marginals[order[0]], conditionals, marginals)


def sample_tree(model: TreeModel, n: int, rng=None) -> np.ndarray:
    """Ancestral sampling: each column drawn after its parent, from its distribution given the parent.

    Examples
    --------
    >>> model = fit_tree([np.array([1.0, 0.0]), np.array([1.0, 1.0])], [], {})
    >>> sample_tree(model, 3, rng=0)[:, 0].tolist()
    [0, 0, 0]
    """
    n = check_int_at_least(n, "n", 1)
    generator = as_generator(rng)
    codes = np.zeros((n, len(model.marginals)), dtype=np.int64)
    for column in model.order:
        if column not in model.parent:
            codes[:, column] = generator.choice(len(model.marginals[column]), size=n, p=model.marginals[column])
            continue
        cumulative = np.cumsum(model.conditionals[column], axis=1)[codes[:, model.parent[column]]]
        draws = (cumulative < generator.random((n, 1)) * cumulative[:, -1:]).sum(axis=1)
        codes[:, column] = np.minimum(draws, cumulative.shape[1] - 1)
    return codes


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
        ``epsilon_round`` of the selection, ``epsilon``/``delta`` (converted with
        :func:`~mic_dp_helpers.accounting.zcdp_to_dp`), the chosen ``tree``,
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


def _prepare(codes, sizes, epsilon, delta, neighbours, n_synthetic, accountant, label):
    sizes = tuple(check_int_at_least(s, f"sizes[{j}]", 1) for j, s in enumerate(sizes))
    codes = _check_codes(codes, sizes)
    _check_neighbours(neighbours)
    rho = zcdp_rho_for(epsilon, delta)
    if neighbours == "replace" and n_synthetic is None:
        n_synthetic = len(codes)  # n is public under replace-one neighbours
    if n_synthetic is not None:
        n_synthetic = check_int_at_least(n_synthetic, "n_synthetic", 1)
    if accountant is not None:
        if not isinstance(accountant, PrivacyAccountant):
            raise TypeError(f"accountant must be a PrivacyAccountant, got {type(accountant).__name__}.")
        accountant.spend(zcdp_to_dp(rho, delta), delta, label=label)  # charged before the data are touched
    return codes, sizes, rho, n_synthetic


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
        so (epsilon, delta)-DP.
    neighbours : {"add/remove", "replace"}
        The neighbour relation the noise is calibrated for (see the module docstring).
    n_synthetic : int, optional
        Records to sample. Default: ``n`` under ``"replace"`` (public); under ``"add/remove"``
        the mean total of the noisy one-way marginals.
    split : three floats summing to 1
        Shares of rho for the one-way measurements, the selection and the two-way measurements.
    rng : None, int or numpy.random.Generator
    accountant : PrivacyAccountant, optional
        Charged ``(zcdp_to_dp(rho, delta), delta)`` before the data are touched.

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
    codes, sizes, rho, n_synthetic = _prepare(codes, sizes, epsilon, delta, neighbours, n_synthetic, accountant,
                                              f"MST ({neighbours} neighbours)")
    shares = check_finite_array(split, "split")
    if shares.shape != (3,) or (shares <= 0).any() or not math.isclose(shares.sum(), 1.0, rel_tol=1e-9):
        raise ValueError(f"split must be three positive shares of rho summing to 1, got {list(split)}.")
    d = len(sizes)
    rho_one, rho_select, rho_pairs = (rho * s for s in shares)
    generator = as_generator(rng)
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
    model = fit_tree(one_way, tree, pair_tables)
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
        "epsilon": zcdp_to_dp(rho, delta),
        "delta": delta,
        "differentially_private": True,
        "assumptions": _assumptions(neighbours, len(codes), delta),
    }
    return MarginalRelease(synthetic, sizes, metadata)


def independent_marginals(codes, sizes, epsilon: float, delta: float, *, neighbours: str = "add/remove",
                          n_synthetic: int | None = None, rng=None,
                          accountant: PrivacyAccountant | None = None) -> MarginalRelease:
    """Baseline: every column drawn independently from its noisy one-way marginal (all of rho on them).

    Same privacy analysis as MST's first step with the whole budget; it keeps each column's
    distribution and none of the pairs.

    Examples
    --------
    >>> release = independent_marginals([[0, 1]] * 50, [2, 2], epsilon=1.0, delta=1e-6, rng=0)
    >>> release.metadata["method"]
    'independent marginals'
    """
    codes, sizes, rho, n_synthetic = _prepare(codes, sizes, epsilon, delta, neighbours, n_synthetic, accountant,
                                              f"independent marginals ({neighbours} neighbours)")
    generator = as_generator(rng)
    sigma = marginal_sigma(rho, len(sizes), neighbours)
    one_way = measure_one_way(codes, sizes, sigma, generator)
    synthetic = sample_tree(fit_tree(one_way, [], {}), _size_from(one_way, n_synthetic), generator)
    metadata = {"method": "independent marginals", "neighbours": neighbours, "rho": rho, "sigma_one_way": sigma,
                "epsilon": zcdp_to_dp(rho, delta), "delta": delta, "differentially_private": True,
                "assumptions": _assumptions(neighbours, len(codes), delta)}
    return MarginalRelease(synthetic, sizes, metadata)
