"""Discretisation with bins fixed in advance from public knowledge (lesson 06, marginal-based synthetic data).

A marginal is a histogram over a domain; for its noise to protect anyone, the domain (the bins)
must not depend on the data. :func:`equal_width_bins` makes edges from public bounds only;
:func:`discretize` maps values to bins, clipping values outside the outer edges (so one record
never changes another's bin); :func:`undiscretize` draws a value inside each bin
(post-processing). :func:`quantile_bins` takes edges from the data: **not private**, kept to
show and audit the mistake (one changed record moves an edge and with it the bins of many
other records).
"""

from __future__ import annotations

import numpy as np

from mic_dp_helpers._validation import (
    as_generator,
    check_column_bounds,
    check_finite_array,
    check_size,
    describe,
    ndim_of,
)

__all__ = ["equal_width_bins", "quantile_bins", "discretize", "undiscretize"]


def equal_width_bins(lower, upper, n_bins: int) -> list[np.ndarray]:
    """Bin edges for each column: ``n_bins`` equal-width bins between public bounds.

    Only the bounds and ``n_bins`` are used, never data, so the bins are public.

    Parameters
    ----------
    lower, upper : float or array_like
        Public bounds, one number for all columns or one per column.
    n_bins : int
        Bins per column (>= 1).

    Returns
    -------
    list of numpy.ndarray
        ``n_bins + 1`` edges per column.

    Examples
    --------
    >>> [edges.tolist() for edges in equal_width_bins([0, 0], [16, 1], 4)]
    [[0.0, 4.0, 8.0, 12.0, 16.0], [0.0, 0.25, 0.5, 0.75, 1.0]]
    """
    lower, upper = check_column_bounds(lower, upper)
    n_bins = check_size(n_bins, "n_bins", 1, per_item=len(lower))
    return [np.linspace(lo, hi, n_bins + 1) for lo, hi in zip(lower, upper)]


def quantile_bins(X, n_bins: int) -> list[np.ndarray]:
    """Bin edges at the data's own quantiles. **Not private**: kept to show (and audit) the mistake.

    Each edge is a statistic of the data: one changed record moves it and with it the bin of
    many other records, so no noise calibrated to one record per bin covers the release.

    Parameters
    ----------
    X : array_like
        Values, shape ``(n, d)`` (private).
    n_bins : int
        Bins per column (>= 1).

    Returns
    -------
    list of numpy.ndarray
        ``n_bins + 1`` edges per column, read from the data.

    Examples
    --------
    >>> quantile_bins([[0.0], [1.0], [2.0], [3.0]], 2)[0].tolist()
    [0.0, 1.5, 3.0]
    """
    X = check_finite_array(X, "X")
    if X.ndim != 2:
        raise ValueError(f"X must be a 2-D array (records x columns), got shape {X.shape}.")
    n_bins = check_size(n_bins, "n_bins", 1, per_item=X.shape[1])
    return [np.quantile(X[:, j], np.linspace(0, 1, n_bins + 1)) for j in range(X.shape[1])]


def _check_edges(edges, n_columns: int | None = None) -> list[np.ndarray]:
    if isinstance(edges, (str, bytes, dict)) or ndim_of(edges) == 0 or not hasattr(edges, "__iter__"):
        raise TypeError(f"edges must be a list with one array of bin edges per column (from equal_width_bins), "
                        f"got {describe(edges)}.")
    if ndim_of(edges) == 1 and all(isinstance(e, (int, float, np.number)) for e in edges):
        raise ValueError("edges must be a list with one array of bin edges per column; for a single column, wrap "
                         "its edges in a list: [edges].")
    edges = [check_finite_array(e, f"edges[{j}]") for j, e in enumerate(edges)]
    if n_columns is not None and len(edges) != n_columns:
        raise ValueError(f"give one array of bin edges per column: {n_columns} columns, {len(edges)} edge arrays.")
    for j, e in enumerate(edges):
        if e.ndim != 1 or len(e) < 2 or not (np.diff(e) > 0).all():
            raise ValueError(f"edges[{j}] must be increasing with at least 2 values, got {e.tolist()}.")
    return edges


def discretize(X, edges) -> np.ndarray:
    """Bin index of every value: ``codes[i, j]`` in ``0 .. len(edges[j]) - 2``.

    Bins are ``[e_0, e_1), [e_1, e_2), ..., [e_{k-1}, e_k]``; values outside the outer edges are
    clipped into the first or last bin (so one record's value never changes another's bin).

    Parameters
    ----------
    X : array_like
        Values, shape ``(n, d)``.
    edges : list of array_like
        Public bin edges of each column (from :func:`equal_width_bins`).

    Returns
    -------
    numpy.ndarray
        Integer codes, shape ``(n, d)``.

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

    Parameters
    ----------
    codes : array_like
        Integer bin codes, shape ``(n, d)``.
    edges : list of array_like
        The bin edges the codes refer to.
    rng : None, int or numpy.random.Generator, optional
        Source of randomness.

    Returns
    -------
    numpy.ndarray
        Values, shape ``(n, d)``.

    Examples
    --------
    >>> values = undiscretize([[0], [3]], [[0, 1, 2, 3, 4]], rng=0)
    >>> bool(0 <= values[0, 0] < 1 and 3 <= values[1, 0] <= 4)
    True
    """
    edges = _check_edges(edges)
    codes = _check_codes(codes, [len(e) - 1 for e in edges])
    generator = as_generator(rng)
    u = generator.random(codes.shape)
    low = np.stack([e[:-1][codes[:, j]] for j, e in enumerate(edges)], axis=1)
    high = np.stack([e[1:][codes[:, j]] for j, e in enumerate(edges)], axis=1)
    return low + u * (high - low)


def _check_codes(codes, sizes, check_values: bool = True) -> np.ndarray:
    """Integer codes of shape (n, len(sizes)); with ``check_values``, also each in ``0 .. sizes[j] - 1``."""
    if ndim_of(codes) != 2:
        raise ValueError(f"codes must be a 2-D array of integer bin indices (records x columns), "
                         f"got {describe(codes)}.")
    codes = np.asarray(codes)
    if not np.issubdtype(codes.dtype, np.integer):
        raise ValueError(f"codes must be a 2-D array of integer bin indices, got {codes.dtype} of shape {codes.shape}.")
    if len(sizes) != codes.shape[1]:
        raise ValueError(f"codes have {codes.shape[1]} columns but there are {len(sizes)} domain sizes (sizes, or "
                         "arrays of edges); give one per column.")
    bad = (codes < 0) | (codes >= np.asarray(sizes)[None, :])
    if check_values and bad.any():
        j = int(np.flatnonzero(bad.any(axis=0))[0])
        raise ValueError(f"column {j} has codes outside 0..{sizes[j] - 1}: discretize with public bins first.")
    return codes.astype(np.int64)
