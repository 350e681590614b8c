"""Wrong answers to lesson 01's exercises: each a mistake a student could make, and each must be rejected."""

WRONG_ANSWERS = {
    "01.1": {
        "distinct combinations": lambda df, cols: df.groupby(cols).ngroups / len(df),
        "constant": lambda df, cols: 0.7,
        "unique on first column only": lambda df, cols: float((df.groupby(cols[0])[cols[0]].transform("size") == 1).mean()),
        "count not share": lambda df, cols: int((df.groupby(cols)[cols[0]].transform("size") == 1).sum()),
    },
    "01.2": {
        "exclusive salary range": lambda r, age, z, lo, hi: r[(r.age == age) & (r.zip_code == z) & (r.salary > lo) & (r.salary < hi)],
        "ignores zip code": lambda r, age, z, lo, hi: r[(r.age == age) & r.salary.between(lo, hi)],
        "reset index": lambda r, age, z, lo, hi: r[(r.age == age) & (r.zip_code == z) & r.salary.between(lo, hi)].reset_index(drop=True),
        "returns a count": lambda r, age, z, lo, hi: int(((r.age == age) & (r.zip_code == z)).sum()),
    },
    "01.3": {
        "largest group": lambda df, qi: int(df.groupby(qi).size().max()),
        "constant": lambda df, qi: 1,
        "number of groups": lambda df, qi: df.groupby(qi).ngroups,
    },
    "01.4": {
        "share of groups": lambda df, qi, s: float((df.groupby(qi)[s].nunique() == 1).mean()),
        "constant": lambda df, qi, s: 0.0,
        "ignores quasi-identifiers": lambda df, qi, s: float(df[s].value_counts(normalize=True).iloc[0]),
    },
}
