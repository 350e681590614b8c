"""Re-identification and k-anonymity: the tools of lesson 01 (why anonymization fails)."""

from __future__ import annotations

import numbers
from collections.abc import Sequence

import numpy as np
import pandas as pd

from mic_dp_helpers._validation import (
    check_column_list,
    check_column_name,
    check_dataframe,
    check_int_at_least,
    describe,
    ndim_of,
)

__all__ = [
    "uniqueness_share",
    "matching_records",
    "equivalence_class_sizes",
    "k_anonymity",
    "generalize",
    "smallest_generalization",
    "homogeneous_classes",
    "homogeneity_exposure",
]


def uniqueness_share(df: pd.DataFrame, columns: Sequence[str]) -> float:
    """Share of rows whose combination of values in ``columns`` occurs exactly once.

    A person who is unique on what an attacker knows can be singled out.

    Parameters
    ----------
    df : pandas.DataFrame
        The table.
    columns : sequence of str
        What the attacker knows (one name is accepted).

    Returns
    -------
    float
        Share of unique rows, in [0, 1].

    Examples
    --------
    >>> df = pd.DataFrame({"age": [30, 30, 41], "zip_code": ["02101", "02101", "02101"]})
    >>> uniqueness_share(df, ["age", "zip_code"])
    0.3333333333333333
    """
    columns = check_column_list(columns)
    check_dataframe(df, columns=columns)
    sizes = df.groupby(columns, dropna=False, observed=True)[columns[0]].transform("size")
    return float((sizes == 1).mean())


def matching_records(table: pd.DataFrame, **known) -> pd.DataFrame:
    """Rows of ``table`` consistent with what an attacker knows about a target.

    Each keyword names a column; its value is what the attacker knows about that column:

    * an exact value, e.g. ``sex="F"``;
    * a ``(low, high)`` tuple meaning ``low <= value <= high``; either end may be None for an
      open range, e.g. ``age=(60, None)``;
    * a list (or set, array) of possible values, e.g. ``zip_code=["02139", "02141"]``;
    * ``None``: not known, so the column is **not used** in the match (handy when the known
      attributes come from a form with blanks). At least one attribute must be known.

    A row whose value is missing (NaN) in a column used in the match is not consistent with
    any known value there, so it is not returned. A known value of the wrong type for the
    column (text for a numeric column, a number for a text column such as a zip code) is an
    error, not an empty match, and so is NaN (write None for "not known").

    Parameters
    ----------
    table : pandas.DataFrame
        The table the attacker searches.
    **known
        Column name -> what is known about it (see above).

    Returns
    -------
    pandas.DataFrame
        The consistent rows of ``table``, with their original index.

    Raises
    ------
    ValueError
        If nothing is known (every value None), or a known value is NaN.
    TypeError
        If a known value's type does not fit its column.

    Examples
    --------
    >>> df = pd.DataFrame({"age": [30, 30, 41], "salary": [40_000, 90_000, 50_000]})
    >>> matching_records(df, age=30, salary=(50_000, 100_000)).index.tolist()
    [1]
    >>> matching_records(df, age=None, salary=(45_000, None)).index.tolist()
    [1, 2]
    """
    known = {column: value for column, value in known.items() if value is not None}
    check_dataframe(table, "table", columns=list(known))
    if not known:
        raise ValueError("matching_records needs at least one known attribute, e.g. age=34 (None means not known).")
    mask = np.ones(len(table), dtype=bool)
    for column, value in known.items():
        mask &= _matches(table[column], column, value)
    return table[mask]


def _matches(values: pd.Series, column: str, known) -> np.ndarray:
    """Which of ``values`` are consistent with the ``known`` value, range or list of values."""
    if isinstance(known, tuple):
        if len(known) != 2:
            raise ValueError(f"{column} range must be a (low, high) pair, got {known!r}.")
        low, high = (_comparable(values, column, end) if end is not None else None for end in known)
        if low is not None and high is not None and low > high:
            raise ValueError(f"{column} range is reversed: low={low} > high={high}; swap them.")
        if isinstance(values.dtype, pd.CategoricalDtype) and not values.cat.ordered:
            raise TypeError(f"{column} is an unordered categorical column: a range means nothing there; give one "
                            "value or a list of values.")
        selected = np.ones(len(values), dtype=bool)
        if low is not None:
            selected &= (values >= low).to_numpy(dtype=bool, na_value=False)
        if high is not None:
            selected &= (values <= high).to_numpy(dtype=bool, na_value=False)
        return selected
    if isinstance(known, (list, set, frozenset, np.ndarray, pd.Series, pd.Index)):
        candidates = [_comparable(values, column, v) for v in known]
        return values.isin(candidates).to_numpy(dtype=bool, na_value=False)
    return (values == _comparable(values, column, known)).to_numpy(dtype=bool, na_value=False)


def _comparable(values: pd.Series, column: str, value):
    """``value`` after checking it can equal a value of the column (a number for numbers, text for text)."""
    if not pd.api.types.is_scalar(value):
        raise TypeError(f"{column} must be a value, a (low, high) range or a list of values, got {describe(value)}.")
    if pd.isna(value):
        raise ValueError(f"{column} is NaN: a missing value matches nothing. Pass None to leave {column} out.")
    numeric_column = pd.api.types.is_numeric_dtype(values) and not pd.api.types.is_bool_dtype(values)
    text_column = pd.api.types.is_string_dtype(values) or (
        isinstance(values.dtype, pd.CategoricalDtype) and pd.api.types.is_string_dtype(values.cat.categories))
    if numeric_column and not isinstance(value, (numbers.Real, np.number)):
        raise TypeError(f"{column} holds numbers; compare it with a number, got {describe(value)}.")
    if text_column and not isinstance(value, str):
        raise TypeError(f"{column} holds text; compare it with text such as {str(values.dropna().iloc[0])!r}, "
                        f"got {describe(value)}." if values.notna().any() else f"{column} holds text; got {value!r}.")
    return value


def equivalence_class_sizes(df: pd.DataFrame, quasi_identifiers: Sequence[str]) -> pd.Series:
    """Size of each equivalence class: the groups of rows sharing all quasi-identifier values.

    Parameters
    ----------
    df : pandas.DataFrame
        The (generalized) table.
    quasi_identifiers : sequence of str
        Columns an attacker can link on (one name is accepted).

    Returns
    -------
    pandas.Series
        Rows per class, indexed by the quasi-identifier values.

    Examples
    --------
    >>> df = pd.DataFrame({"age": ["30-39", "30-39", "40-49"]})
    >>> equivalence_class_sizes(df, ["age"]).to_dict()
    {'30-39': 2, '40-49': 1}
    """
    quasi_identifiers = check_column_list(quasi_identifiers, "quasi_identifiers")
    check_dataframe(df, columns=quasi_identifiers)
    return df.groupby(quasi_identifiers, dropna=False, observed=True).size()


def k_anonymity(df: pd.DataFrame, quasi_identifiers: Sequence[str]) -> int:
    """The k for which ``df`` is k-anonymous: the size of its smallest equivalence class.

    Parameters
    ----------
    df : pandas.DataFrame
        The (generalized) table.
    quasi_identifiers : sequence of str
        Columns an attacker can link on.

    Returns
    -------
    int
        The smallest class size (1 means someone is unique).

    Examples
    --------
    >>> df = pd.DataFrame({"age": ["30-39", "30-39", "40-49"]})
    >>> k_anonymity(df, ["age"])
    1
    """
    return int(equivalence_class_sizes(df, quasi_identifiers).min())


def _band_labels(values: pd.Series, width: int, column: str) -> pd.Series:
    """``"low-high"`` band of every value; a missing value stays missing (its own class)."""
    if pd.api.types.is_bool_dtype(values) or not pd.api.types.is_numeric_dtype(values):
        raise TypeError(f"column {column!r} must be numeric to be cut into bands, got dtype {values.dtype}.")
    finite = np.isfinite(values.to_numpy(dtype=float, na_value=np.nan))
    low = (values[finite] // width) * width
    labels = low.astype(np.int64).astype(str) + "-" + (low + width - 1).astype(np.int64).astype(str)
    return labels.reindex(values.index)  # the rows left out (missing values) come back missing


def _zip_prefix(values: pd.Series, digits: int) -> pd.Series:
    """First ``digits`` digits of each 5-digit zip code, masked with ``*``; a missing code stays missing.

    Zip codes stored as numbers (2139 for "02139") are zero-padded to 5 digits first.
    """
    present = values.notna().to_numpy()
    if pd.api.types.is_numeric_dtype(values) and not pd.api.types.is_bool_dtype(values):
        text = values[present].map(lambda code: f"{int(code):05d}")
    else:
        text = values[present].astype(str)
    masked = text.str[:digits] + "*" * (5 - digits)
    return masked.reindex(values.index)


def generalize(
    df: pd.DataFrame,
    *,
    age_band: int | None = None,
    zip_digits: int | None = None,
    salary_band: int | None = None,
) -> pd.DataFrame:
    """Return a copy of ``df`` with coarser quasi-identifiers.

    Parameters
    ----------
    df : pandas.DataFrame
        The table; it needs each column that a given option coarsens.
    age_band : int, optional
        Replace ``age`` by a band of this many years, e.g. 10 gives "30-39".
    zip_digits : int in 0..5, optional
        Keep this many leading digits of ``zip_code`` and mask the rest, e.g. 3 gives "021**".
    salary_band : int, optional
        Replace ``salary`` by a band of this many dollars, e.g. 20000 gives "40000-59999".

    Returns
    -------
    pandas.DataFrame
        A copy of ``df``; columns not asked for are unchanged.

    Examples
    --------
    >>> df = pd.DataFrame({"age": [34], "zip_code": ["02139"]})
    >>> generalize(df, age_band=10, zip_digits=3).iloc[0].tolist()
    ['30-39', '021**']
    """
    check_dataframe(df)
    out = df.copy()
    if age_band is not None:
        check_dataframe(df, columns=["age"])
        out["age"] = _band_labels(df["age"], check_int_at_least(age_band, "age_band", 1), "age")
    if zip_digits is not None:
        check_dataframe(df, columns=["zip_code"])
        if isinstance(zip_digits, bool) or not isinstance(zip_digits, numbers.Integral) or not 0 <= zip_digits <= 5:
            raise ValueError(f"zip_digits must be an integer from 0 to 5, got {zip_digits!r}.")
        out["zip_code"] = _zip_prefix(df["zip_code"], zip_digits)
    if salary_band is not None:
        check_dataframe(df, columns=["salary"])
        out["salary"] = _band_labels(df["salary"], check_int_at_least(salary_band, "salary_band", 1), "salary")
    return out


def smallest_generalization(
    df: pd.DataFrame,
    quasi_identifiers: Sequence[str],
    k: int,
    *,
    age_bands: Sequence[int] = (1, 5, 10, 20, 40, 80),
    zip_digits: Sequence[int] = (5, 4, 3, 2, 1, 0),
) -> tuple[int, int]:
    """Search the (age band, zip digits) grid for the least coarse pair that makes ``df`` k-anonymous.

    Candidates are tried by total coarseness (position in ``age_bands`` plus position in
    ``zip_digits``), ties going to the finer age band. Returns ``(age_band, zip_digits)``;
    raises ValueError when no pair on the grid reaches ``k``.

    Parameters
    ----------
    df : pandas.DataFrame
        The table, with ``age`` and ``zip_code`` columns.
    quasi_identifiers : sequence of str
        Columns an attacker can link on.
    k : int
        The k to reach (>= 1).
    age_bands : sequence of int, default (1, 5, 10, 20, 40, 80)
        Age band widths to try, finest first.
    zip_digits : sequence of int, default (5, 4, 3, 2, 1, 0)
        Zip-code digits to keep, finest first.

    Returns
    -------
    age_band, zip_digits : int
        The least coarse pair that reaches ``k``.

    Raises
    ------
    ValueError
        If no pair on the grid reaches ``k``.

    Examples
    --------
    >>> from mic_dp_helpers.datasets import medical
    >>> smallest_generalization(medical(500), ["age", "zip_code"], k=2)
    (10, 4)
    """
    k = check_int_at_least(k, "k", 1)
    for name, grid_values in (("age_bands", age_bands), ("zip_digits", zip_digits)):
        if isinstance(grid_values, (str, bytes, dict)) or ndim_of(grid_values) != 1 or len(grid_values) == 0:
            raise TypeError(f"{name} must be a non-empty list of integers to try, got {describe(grid_values)}.")
    grid = sorted(
        ((i + j, i, band, digits) for i, band in enumerate(age_bands) for j, digits in enumerate(zip_digits))
    )
    for _, _, band, digits in grid:
        coarse = generalize(df, age_band=band, zip_digits=digits)
        if k_anonymity(coarse, quasi_identifiers) >= k:
            return band, digits
    raise ValueError(
        f"no generalization on the grid reaches k={k}; the table may have fewer than {k} rows "
        "or other quasi-identifiers that need generalizing too."
    )


def homogeneous_classes(df: pd.DataFrame, quasi_identifiers: Sequence[str], sensitive: str) -> pd.DataFrame:
    """Equivalence classes whose members all share one value of the ``sensitive`` column.

    Anyone known to be in such a class has that sensitive value disclosed, however large k is.

    Parameters
    ----------
    df : pandas.DataFrame
        The (generalized) table.
    quasi_identifiers : sequence of str
        Columns an attacker can link on.
    sensitive : str
        The column an attacker wants to learn.

    Returns
    -------
    pandas.DataFrame
        One row per homogeneous class: its quasi-identifier values, ``size`` and the shared ``sensitive`` value.

    Examples
    --------
    >>> df = pd.DataFrame({"age": ["30-39"] * 2 + ["40-49"] * 2, "diagnosis": ["flu", "flu", "flu", "cold"]})
    >>> homogeneous_classes(df, ["age"], "diagnosis")
         age  size diagnosis
    0  30-39     2       flu
    """
    quasi_identifiers = check_column_list(quasi_identifiers, "quasi_identifiers")
    check_dataframe(df, columns=[*quasi_identifiers, check_column_name(sensitive, "sensitive")])
    groups = df.groupby(quasi_identifiers, dropna=False, observed=True)[sensitive]
    summary = groups.agg(size="size", distinct="nunique", value="first").reset_index()
    homogeneous = summary[summary["distinct"] == 1].drop(columns="distinct")
    return homogeneous.rename(columns={"value": sensitive}).reset_index(drop=True)


def homogeneity_exposure(df: pd.DataFrame, quasi_identifiers: Sequence[str], sensitive: str) -> float:
    """Share of people whose sensitive value is disclosed because their whole class shares it.

    Parameters
    ----------
    df : pandas.DataFrame
        The (generalized) table.
    quasi_identifiers : sequence of str
        Columns an attacker can link on.
    sensitive : str
        The column an attacker wants to learn.

    Returns
    -------
    float
        Share of rows, in [0, 1], that sit in a homogeneous class.

    Examples
    --------
    >>> df = pd.DataFrame({"age": ["30-39"] * 2 + ["40-49"] * 2, "diagnosis": ["flu", "flu", "flu", "cold"]})
    >>> homogeneity_exposure(df, ["age"], "diagnosis")
    0.5
    """
    classes = homogeneous_classes(df, quasi_identifiers, sensitive)
    return float(classes["size"].sum() / len(df))
