"""Wrong answers to lesson 01's exercises: each a mistake a student could make, and each must be rejected."""

from mic_dp_helpers.attacks import anonymity
from wrong_answers._cheats import cheats


def _exposure_diagnosis_only(df, qi, s):  # ignores the name of the sensitive column
    return float((df.groupby(qi)["diagnosis"].transform("nunique") == 1).mean())


def _k_first_column(df, qi):
    return int(df.groupby(qi[0]).size().min())


def _k_second_smallest(df, qi):  # skips groups of one person as if they were noise
    sizes = df.groupby(qi).size()
    return int(sizes[sizes > 1].min()) if (sizes > 1).any() else 1


def _candidates_first_column(r, age, z, lo, hi):  # the first column taken as the age
    first = r.columns[0]
    return r[(r[first] == age) & (r.zip_code == z) & r.salary.between(lo, hi)]


def _unique_excluding_missing_pairs(df, cols):  # shares of rows unique on each column separately
    return float(sum((df.groupby(c)[c].transform("size") == 1).mean() for c in cols) / len(cols))


def _joined_key(df, cols, sep):  # one text key per row: the columns' values joined by ``sep``
    return df[list(cols)].astype(str).agg(sep.join, axis=1)


def _share_joined_key(sep):
    def answer(df, cols):
        key = _joined_key(df, cols, sep)
        return float((key.map(key.value_counts()) == 1).mean())
    return answer


def _k_joined_key(sep):
    def answer(df, qi):
        return int(_joined_key(df, qi, sep).value_counts().min())
    return answer


def _exposure_joined_key(sep):
    def answer(df, qi, s):
        return float((df.groupby(_joined_key(df, qi, sep))[s].transform("nunique") == 1).mean())
    return answer


def _share_after_dropna(df, cols):  # drops every row with a missing value anywhere in the table
    df = df.dropna()
    return float((df.groupby(cols)[cols[0]].transform("size") == 1).mean())


def _exposure_after_dropna(df, qi, s):
    df = df.dropna()
    return float((df.groupby(qi)[s].transform("nunique") == 1).mean())


def _candidates_after_dropna(r, age, z, lo, hi):
    r = r.dropna()
    return r[(r.age == age) & (r.zip_code == z) & r.salary.between(lo, hi)]


def _candidates_age_as_text(r, age, z, lo, hi):  # "34.0" in a float32 column never equals "34"
    return r[(r.age.astype(str) == str(age)) & (r.zip_code == z) & r.salary.between(lo, hi)]


def _candidates_first_rows(r, age, z, lo, hi):  # looks at the first 10,000 rows only, to be fast
    r = r.head(10_000)
    return r[(r.age == age) & (r.zip_code == z) & r.salary.between(lo, hi)]


def _share_first_rows(df, cols):
    return float((df.head(10_000).groupby(cols)[cols[0]].transform("size") == 1).mean())


def _k_on_a_sample(df, qi):  # a sample of 5,000 rows stands for a large table
    return int(df.sample(min(len(df), 5_000), random_state=0).groupby(qi).size().min())


def _exposure_first_rows(df, qi, s):
    df = df.head(10_000)
    return float((df.groupby(qi)[s].transform("nunique") == 1).mean())


_SEPARATORS = {"'|'": "|", "'_'": "_", "a space": " ", "nothing": ""}


WRONG_ANSWERS = {
    "01.1": {
        "distinct combinations": lambda df, cols: df.groupby(cols).ngroups / len(df),
        "constant": lambda df, cols: 0.7,
        "unique on first column only": lambda df, cols: float((df.groupby(cols[0])[cols[0]].transform("size") == 1).mean()),
        "count not share": lambda df, cols: int((df.groupby(cols)[cols[0]].transform("size") == 1).sum()),
        "average of per-column uniqueness": _unique_excluding_missing_pairs,
        **{f"(data) key of the values joined by {name}": _share_joined_key(sep) for name, sep in _SEPARATORS.items()},
        "(data) drops rows with NaN in any column": _share_after_dropna,
        "(size) first 10,000 rows only": _share_first_rows,
        **cheats(lambda df, cols: 0.5, forbidden=anonymity.uniqueness_share),
    },
    "01.2": {
        "exclusive salary range": lambda r, age, z, lo, hi: r[(r.age == age) & (r.zip_code == z) & (r.salary > lo) & (r.salary < hi)],
        "upper bound excluded": lambda r, age, z, lo, hi: r[(r.age == age) & (r.zip_code == z) & (r.salary >= lo) & (r.salary < hi)],
        "ignores zip code": lambda r, age, z, lo, hi: r[(r.age == age) & r.salary.between(lo, hi)],
        "reset index": lambda r, age, z, lo, hi: r[(r.age == age) & (r.zip_code == z) & r.salary.between(lo, hi)].reset_index(drop=True),
        "returns a count": lambda r, age, z, lo, hi: int(((r.age == age) & (r.zip_code == z)).sum()),
        "first column taken as the age": _candidates_first_column,
        "age within one year": lambda r, age, z, lo, hi: r[((r.age - age).abs() <= 1) & (r.zip_code == z)
                                                           & r.salary.between(lo, hi)],
        "zip code's 3-digit area only": lambda r, age, z, lo, hi: r[(r.age == age) & (r.zip_code.str[:3] == z[:3])
                                                                    & r.salary.between(lo, hi)],
        "salary range widened by one": lambda r, age, z, lo, hi: r[(r.age == age) & (r.zip_code == z)
                                                                   & r.salary.between(lo - 1, hi + 1)],
        "adds a column": lambda r, age, z, lo, hi: r[(r.age == age) & (r.zip_code == z)
                                                     & r.salary.between(lo, hi)].assign(match=True),
        "(data) drops rows with NaN in any column": _candidates_after_dropna,
        "(data) age compared as text": _candidates_age_as_text,
        "(size) first 10,000 rows only": _candidates_first_rows,
        "keeps only the known columns": lambda r, age, z, lo, hi: r.loc[(r.age == age) & (r.zip_code == z)
                                                                        & r.salary.between(lo, hi),
                                                                        ["age", "zip_code", "salary"]],
        **cheats(lambda r, age, z, lo, hi: r.head(0), forbidden=anonymity.matching_records,
                 adapt=lambda helper, r, age, z, lo, hi: helper(r, age=age, zip_code=z, salary=(lo, hi))),
    },
    "01.3": {
        "largest group": lambda df, qi: int(df.groupby(qi).size().max()),
        "constant": lambda df, qi: 1,
        "number of groups": lambda df, qi: df.groupby(qi).ngroups,
        "first quasi-identifier only": _k_first_column,
        "ignores groups of one": _k_second_smallest,
        **{f"(data) key of the values joined by {name}": _k_joined_key(sep) for name, sep in _SEPARATORS.items()},
        "(data) drops rows with NaN in any column": lambda df, qi: int(df.dropna().groupby(qi).size().min()),
        "(size) a sample of 5,000 rows": _k_on_a_sample,
        **cheats(lambda df, qi: 2, forbidden=anonymity.k_anonymity),
    },
    "01.4": {
        "share of groups": lambda df, qi, s: float((df.groupby(qi)[s].nunique() == 1).mean()),
        "constant": lambda df, qi, s: 0.0,
        "ignores quasi-identifiers": lambda df, qi, s: float(df[s].value_counts(normalize=True).iloc[0]),
        "always the diagnosis column": _exposure_diagnosis_only,
        **{f"(data) key of the values joined by {name}": _exposure_joined_key(sep)
           for name, sep in _SEPARATORS.items()},
        "(data) drops rows with NaN in any column": _exposure_after_dropna,
        "(size) first 10,000 rows only": _exposure_first_rows,
        **cheats(lambda df, qi, s: 0.3, forbidden=anonymity.homogeneity_exposure),
    },
}
