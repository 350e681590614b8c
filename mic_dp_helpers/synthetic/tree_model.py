"""The tree model of MST: one consistent distribution from noisy marginals, and sampling from it.

MST (:mod:`mic_dp_helpers.synthetic.marginals`) measures noisy one-way marginals and the noisy
two-way marginals of a spanning tree of column pairs. This module turns those measurements into
synthetic records, in closed form for a tree (the published MST uses Private-PGM, the ``mbi``
package, for this step):

* :func:`fit_tree` averages each column's one-way counts with the margins of the pair tables it
  is in, shrinks each noisy pair table towards independence where its structure is weaker than the
  noise, makes it non-negative and fits it to both one-way marginals;
* :func:`sample_tree` draws each column given its parent (ancestral sampling).

Privacy: everything here reads only noisy measurements, never the private records, so it is
post-processing (Dwork & Roth 2014, Proposition 2.1) and spends no budget; the neighbour relation
and what is public are those of the release that measured the marginals.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from mic_dp_helpers._validation import (
    ColumnError,
    as_generator,
    check_finite_array,
    check_positive_float,
    check_size,
    describe,
    ndim_of,
)

__all__ = ["TreeModel", "fit_tree", "sample_tree"]


def _check_one_way(one_way, sizes: list[int] | None = None) -> list[np.ndarray]:
    """Noisy one-way counts: a list with one 1-D finite array per column (of ``sizes[j]`` cells if given)."""
    if isinstance(one_way, (str, bytes, dict, np.ndarray)) or not isinstance(one_way, (list, tuple)) or not one_way:
        raise TypeError(f"one_way must be a non-empty list with one array of noisy counts per column "
                        f"(from measure_one_way), got {describe(one_way)}.")
    counts = [check_finite_array(m, f"one_way[{j}]") for j, m in enumerate(one_way)]
    for j, m in enumerate(counts):
        if m.ndim != 1 or (sizes is not None and j < len(sizes) and len(m) != sizes[j]):
            expected = "" if sizes is None or j >= len(sizes) else f" of {sizes[j]} counts"
            raise ValueError(f"one_way[{j}] must be a 1-D array{expected} (one noisy count per bin), got shape "
                             f"{m.shape}.")
    if sizes is not None and len(counts) != len(sizes):
        raise ValueError(f"one_way has {len(counts)} arrays but there are {len(sizes)} columns; give one per column.")
    return counts


def _column_pair(pair, n_columns: int, what: str) -> tuple[int, int]:
    if (isinstance(pair, (str, bytes)) or ndim_of(pair) != 1 or len(pair) != 2 or pair[0] == pair[1]
            or not all(isinstance(c, (int, np.integer)) and 0 <= c < n_columns for c in pair)):
        raise ValueError(f"every {what} must be a pair (i, j) of two different columns 0..{n_columns - 1}, "
                         f"got {pair!r}.")
    return int(pair[0]), int(pair[1])


def _check_tree(edges, pair_tables, sizes: list[int]) -> tuple[list[tuple[int, int]], dict]:
    """Edges ``(i, j)`` between distinct columns, each with a finite noisy pair table of shape (sizes[i], sizes[j])."""
    if (isinstance(edges, (str, bytes, dict)) or not isinstance(edges, (list, tuple, np.ndarray))
            or ndim_of(edges) == 0):
        raise TypeError(f"edges must be a list of (i, j) pairs of columns, got {describe(edges)}.")
    if not isinstance(pair_tables, dict):
        raise TypeError(f"pair_tables must be a dict {{(i, j): noisy table}}, got {describe(pair_tables)}.")
    tables = {}
    for key, table in pair_tables.items():
        i, j = _column_pair(key, len(sizes), "key of pair_tables")
        tables[(i, j)] = check_finite_array(table, f"pair_tables[{key}]")
        if tables[(i, j)].shape != (sizes[i], sizes[j]):
            raise ValueError(f"pair_tables[{key}] must have shape {(sizes[i], sizes[j])} (the columns' numbers of "
                             f"bins), got {tables[(i, j)].shape}.")
    checked = [_column_pair(edge, len(sizes), "edge") for edge in edges]
    for i, j in checked:
        if (i, j) not in tables and (j, i) not in tables:
            raise ColumnError(f"pair_tables has no noisy table for the edge {(i, j)}; measure every edge's pair.")
    return checked, tables


def _normalise(counts: np.ndarray, fallback: np.ndarray | None = None) -> np.ndarray:
    """Project noisy counts to a probability vector: negatives to 0, then divide by the total."""
    clipped = np.maximum(np.asarray(counts, dtype=float), 0.0)
    total = clipped.sum()
    if total > 0:
        return clipped / total
    return fallback if fallback is not None else np.full(len(clipped), 1.0 / len(clipped))


def _check_n_rows(n, n_columns: int, name: str) -> int:
    """``n`` as an int >= 1 after checking ``n`` rows of ``n_columns`` codes fit under the shared size cap."""
    return check_size(n, name, 1, per_item=n_columns)


@dataclass(frozen=True)
class TreeModel:
    """A tree-shaped model: the root's distribution and each child's distribution given its parent.

    Attributes
    ----------
    order : tuple of int
        Columns, each after its parent.
    parent : dict
        Column -> parent column (the root has none).
    root_probabilities : numpy.ndarray
        Distribution of the root column.
    conditionals : dict
        Column -> array (values of parent) x (values of column); rows sum to 1.
    marginals : list of numpy.ndarray
        One-way probability vector of each column.
    """

    order: tuple[int, ...]  # columns, each after its parent
    parent: dict  # column -> parent column (the root has none)
    root_probabilities: np.ndarray
    conditionals: dict  # column -> array (values of parent) x (values of column), rows sum to 1
    marginals: list  # one-way probability vector per column (for columns without a parent)


def _combine_one_way(one_way, pair_tables, sigma_one, sigma_pairs) -> list[np.ndarray]:
    """Inverse-variance average of each column's one-way counts and the margins of its noisy pair tables."""
    weight_one = 1.0 / sigma_one**2
    num = [np.asarray(m, dtype=float) * weight_one for m in one_way]
    den = [np.full(len(m), weight_one) for m in one_way]
    for (i, j), table in pair_tables.items():
        for column, margin, summed in ((i, table.sum(axis=1), table.shape[1]), (j, table.sum(axis=0), table.shape[0])):
            weight = 1.0 / (summed * sigma_pairs**2)  # a margin adds `summed` noisy cells
            num[column] = num[column] + weight * margin
            den[column] = den[column] + weight
    return [a / b for a, b in zip(num, den)]


def _fit_pair(table: np.ndarray, p_row: np.ndarray, p_col: np.ndarray, n_hat: float, sigma: float,
              iterations: int = 30) -> np.ndarray:
    """A non-negative table with margins ``p_row`` and ``p_col`` from one noisy pair table.

    The deviation from independence is shrunk by the positive-part James-Stein factor (James &
    Stein 1961): pair structure weaker than the noise is dropped, not invented. Negatives are
    set to 0 and iterative proportional fitting (Deming & Stephan 1940) matches both margins.
    """
    expected = np.outer(p_row, p_col) * n_hat
    deviation = table - expected
    energy = float((deviation**2).sum())
    shrink = max(0.0, 1.0 - (deviation.size - 2) * sigma**2 / energy) if energy > 0 else 0.0
    fitted = np.maximum(expected + shrink * deviation, 0.0) + 1e-9 * max(n_hat, 1.0) / table.size
    for _ in range(iterations):
        fitted *= _ratio(p_row, fitted.sum(axis=1))[:, None]
        col_sums = fitted.sum(axis=0)
        if np.abs(col_sums - p_col).max() < 1e-12:
            break
        fitted *= _ratio(p_col, col_sums)[None, :]
    return fitted


def _ratio(target: np.ndarray, current: np.ndarray) -> np.ndarray:
    """``target / current`` where ``current > 0``, else 0 (a row or column with no mass stays empty)."""
    positive = current > 0
    return np.where(positive, target / np.where(positive, current, 1.0), 0.0)


def fit_tree(one_way: list[np.ndarray], edges: list[tuple[int, int]], pair_tables: dict, sigma_one: float = 1.0,
             sigma_pairs: float = 1.0) -> TreeModel:
    """One consistent tree model from noisy marginals (post-processing of the measurements).

    1. Each column's one-way counts are averaged with the margins of the noisy pair tables it
       is in (inverse-variance weights from ``sigma_one`` and ``sigma_pairs``), then projected
       to a probability vector (negatives to 0, divided by the total).
    2. Each noisy pair table is shrunk towards independence where its structure is weaker than
       the noise, made non-negative, and fitted to both one-way marginals (:func:`_fit_pair`), so
       every pair agrees with its columns' one-way marginals.
    3. The tree is rooted at column 0 and walked breadth first; each child's distribution given
       its parent is its fitted pair table with each row normalised. Columns without an edge
       are independent draws from their one-way marginal.

    Parameters
    ----------
    one_way : list of numpy.ndarray
        Noisy one-way counts of each column.
    edges : list of tuple of int
        The tree's pairs of columns.
    pair_tables : dict
        Pair -> its noisy two-way counts.
    sigma_one : float, default 1.0
        Noise sd of the one-way counts.
    sigma_pairs : float, default 1.0
        Noise sd of the pair counts.

    Returns
    -------
    TreeModel
        The fitted model.

    Examples
    --------
    >>> model = fit_tree([np.array([50.0, 50.0]), np.array([50.0, 50.0])], [(0, 1)],
    ...                  {(0, 1): np.array([[50.0, -1.0], [0.0, 50.0]])}, sigma_one=1.0, sigma_pairs=1.0)
    >>> np.round(model.conditionals[1], 2).tolist()
    [[1.0, 0.0], [0.0, 1.0]]
    """
    sigma_one = check_positive_float(sigma_one, "sigma_one")
    sigma_pairs = check_positive_float(sigma_pairs, "sigma_pairs")
    one_way = _check_one_way(one_way)
    edges, pair_tables = _check_tree(edges, pair_tables, [len(m) for m in one_way])
    n_hat = float(np.mean([max(np.sum(m), 1.0) for m in one_way]))
    marginals = [_normalise(m) for m in _combine_one_way(one_way, pair_tables, sigma_one, sigma_pairs)]
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
        fitted = _fit_pair(table, marginals[par], marginals[child], n_hat, sigma_pairs)
        conditionals[child] = np.stack([_normalise(row, marginals[child]) for row in fitted])
    return TreeModel(tuple(order), parent, marginals[order[0]], conditionals, marginals)


def sample_tree(model: TreeModel, n: int, rng=None) -> np.ndarray:
    """Ancestral sampling: each column drawn after its parent, from its distribution given the parent.

    Parameters
    ----------
    model : TreeModel
        From :func:`fit_tree`.
    n : int
        Rows to draw.
    rng : None, int or numpy.random.Generator, optional
        Source of randomness.

    Returns
    -------
    numpy.ndarray
        Integer codes, shape ``(n, d)``.

    Examples
    --------
    >>> model = fit_tree([np.array([1.0, 0.0]), np.array([1.0, 1.0])], [], {})
    >>> sample_tree(model, 3, rng=0)[:, 0].tolist()
    [0, 0, 0]
    """
    if not isinstance(model, TreeModel):
        raise TypeError(f"model must be a TreeModel from fit_tree, got {type(model).__name__} {model!r}.")
    n = _check_n_rows(n, len(model.marginals), "n")
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
