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


WRONG_ANSWERS = {
    "01.1": {
        "distinct combinations": lambda df, cols: df.groupby(cols).ngroups / len(df),
        "constant": lambda df, cols: 0.7,
        "unique on first column only": lambda df, cols: float((df.groupby(cols[0])[cols[0]].transform("size") == 1).mean()),
        "count not share": lambda df, cols: int((df.groupby(cols)[cols[0]].transform("size") == 1).sum()),
        "average of per-column uniqueness": _unique_excluding_missing_pairs,
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
        **cheats(lambda df, qi: 2, forbidden=anonymity.k_anonymity),
    },
    "01.4": {
        "share of groups": lambda df, qi, s: float((df.groupby(qi)[s].nunique() == 1).mean()),
        "constant": lambda df, qi, s: 0.0,
        "ignores quasi-identifiers": lambda df, qi, s: float(df[s].value_counts(normalize=True).iloc[0]),
        "always the diagnosis column": _exposure_diagnosis_only,
        **cheats(lambda df, qi, s: 0.3, forbidden=anonymity.homogeneity_exposure),
    },
}
