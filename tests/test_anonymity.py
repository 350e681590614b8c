import numpy as np
import pandas as pd
import pytest

from mic_dp_helpers import datasets
from mic_dp_helpers.attacks import anonymity


@pytest.fixture(scope="module")
def patients():
    return datasets.medical(600, rng=3)


def test_medical_is_seeded_and_has_the_documented_schema(patients):
    again = datasets.medical(600, rng=3)
    pd.testing.assert_frame_equal(patients, again)
    assert not patients.equals(datasets.medical(600, rng=4))
    assert list(patients.columns) == ["name", "age", "sex", "zip_code", "salary", "diagnosis", "rare_disease"]
    assert patients["age"].between(20, 79).all()
    assert set(patients["zip_code"]) <= set(datasets.ZIP_CODES)
    assert (patients["rare_disease"] == (patients["diagnosis"] == "rare disease")).all()
    assert 0 < patients["rare_disease"].mean() < 0.05


def test_public_register_links_to_patients(patients):
    register = datasets.public_register(patients, coverage=0.5, n_others=50, rng=1)
    assert len(register) == 300 + 50
    assert register["name"].isin(patients["name"]).sum() >= 300


def test_uniqueness_share_small_table():
    df = pd.DataFrame({"a": [1, 1, 2, 3], "b": ["x", "x", "x", "y"]})
    assert anonymity.uniqueness_share(df, ["a"]) == 0.5
    assert anonymity.uniqueness_share(df, ["b"]) == 0.25
    assert anonymity.uniqueness_share(df, "a") == 0.5


def test_uniqueness_grows_with_attributes(patients):
    shares = [anonymity.uniqueness_share(patients, cols) for cols in (["zip_code"], ["zip_code", "age"], ["zip_code", "age", "sex"])]
    assert shares == sorted(shares) and shares[-1] > 0.5


def test_matching_records_inclusive_range_and_errors(patients):
    row = patients.iloc[0]
    found = anonymity.matching_records(patients, age=row.age, salary=(row.salary, row.salary))
    assert 0 in found.index
    with pytest.raises(ValueError, match="salary range is reversed"):
        anonymity.matching_records(patients, salary=(10, 5))
    with pytest.raises(KeyError, match="no column"):
        anonymity.matching_records(patients, height=180)
    with pytest.raises(ValueError, match="at least one known attribute"):
        anonymity.matching_records(patients)


def test_k_anonymity_and_generalization(patients):
    qi = ["age", "sex", "zip_code"]
    assert anonymity.k_anonymity(patients, qi) == 1
    coarse = anonymity.generalize(patients, age_band=20, zip_digits=2)
    assert anonymity.k_anonymity(coarse, qi) >= 5
    assert coarse["zip_code"].str.endswith("***").all()
    assert set(coarse["age"]) <= {"20-39", "40-59", "60-79"}
    band, digits = anonymity.smallest_generalization(patients, qi, k=5)
    assert anonymity.k_anonymity(anonymity.generalize(patients, age_band=band, zip_digits=digits), qi) >= 5


def test_homogeneity():
    df = pd.DataFrame({"age": ["30-39"] * 3 + ["40-49"] * 2, "diagnosis": ["flu"] * 3 + ["flu", "cold"]})
    classes = anonymity.homogeneous_classes(df, ["age"], "diagnosis")
    assert classes.to_dict("records") == [{"age": "30-39", "size": 3, "diagnosis": "flu"}]
    assert anonymity.homogeneity_exposure(df, ["age"], "diagnosis") == pytest.approx(0.6)


@pytest.mark.parametrize(
    "call, error, match",
    [
        (lambda: datasets.medical(0), ValueError, "n must be an integer >= 1"),
        (lambda: datasets.medical(10.5), TypeError, "n must be an integer"),
        (lambda: datasets.medical(10, rng="seed"), TypeError, "rng must be"),
        (lambda: anonymity.uniqueness_share(pd.DataFrame(), ["a"]), ValueError, "df is empty"),
        (lambda: anonymity.uniqueness_share([1, 2], ["a"]), TypeError, "df must be a pandas DataFrame"),
        (lambda: anonymity.uniqueness_share(pd.DataFrame({"a": [1]}), []), ValueError, "columns is empty"),
        (lambda: anonymity.k_anonymity(pd.DataFrame({"a": [1]}), ["b"]), KeyError, "no column"),
        (lambda: anonymity.generalize(pd.DataFrame({"age": [30]}), age_band=0), ValueError, "age_band must be an integer >= 1"),
        (lambda: anonymity.generalize(pd.DataFrame({"zip_code": ["02139"]}), zip_digits=7), ValueError, "zip_digits must be"),
        (lambda: anonymity.smallest_generalization(pd.DataFrame({"age": [30]}), ["age"], k=0), ValueError, "k must be an integer >= 1"),
        (lambda: anonymity.smallest_generalization(datasets.medical(3), ["age"], k=10), ValueError, "no generalization"),
        (lambda: datasets.public_register(datasets.medical(5), coverage=1.5), ValueError, "coverage must be"),
    ],
)
def test_helpers_reject_bad_input_with_a_clear_message(call, error, match):
    with pytest.raises(error, match=match):
        call()


def test_nan_in_quasi_identifiers_forms_its_own_group():
    df = pd.DataFrame({"a": [1.0, np.nan, np.nan]})
    assert anonymity.k_anonymity(df, ["a"]) == 1



def test_every_dataset_generator_is_exported():
    generators = {"medical", "public_register", "coffee_shop_revenue", "nonlinear_features", "purchases"}
    assert generators <= set(datasets.__all__)
    assert all(hasattr(datasets, name) for name in datasets.__all__)


@pytest.mark.parametrize("bad", [["age"], pd.Series(["age"]), np.array(["age"]), {"age"}])
def test_a_sensitive_column_that_is_not_one_name_is_a_clear_error(bad):
    df = datasets.medical(30)
    for function in (anonymity.homogeneous_classes, anonymity.homogeneity_exposure):
        with pytest.raises(TypeError, match="sensitive must be one column name"):
            function(df, ["zip_code"], bad)


def test_a_missing_column_is_a_key_error_and_a_value_error():
    with pytest.raises(ValueError, match=r"df has no column\(s\) \['nope'\]") as error:
        anonymity.k_anonymity(datasets.medical(30), ["nope"])
    assert isinstance(error.value, KeyError) and not str(error.value).startswith('"')


def _survey():
    return pd.DataFrame({
        "age": [34, 45, np.nan, 23, 67],
        "zip_code": pd.Categorical(["02139", "02139", "02141", None, "02139"]),
        "salary": [50_000.0, 60_000, 70_000, 80_000, np.nan],
    }, index=[10, 30, 20, 50, 40])


@pytest.mark.parametrize("known, expected", [
    (dict(age=34, zip_code=None), [10]),  # None: not known, the column is not used
    (dict(age=None, zip_code="02139"), [10, 30, 40]),
    (dict(age=(40, None)), [30, 40]),  # open ranges; the missing age matches nothing
    (dict(age=(None, 40), salary=(None, 55_000)), [10]),
    (dict(age=[23, 67]), [50, 40]),  # a list: any of these values
    (dict(zip_code=["02141", "02000"]), [20]),
    (dict(salary=(0, None)), [10, 30, 20, 50]),
])
def test_matching_records_on_real_data(known, expected):
    assert anonymity.matching_records(_survey(), **known).index.tolist() == expected


@pytest.mark.parametrize("known, error, match", [
    (dict(age=None), ValueError, r"at least one known attribute.*None means not known"),
    (dict(age=np.nan), ValueError, "age is NaN: a missing value matches nothing. Pass None"),
    (dict(age="34"), TypeError, "age holds numbers; compare it with a number"),
    (dict(zip_code=2139), TypeError, "zip_code holds text; compare it with text such as '02139'"),
    (dict(zip_code=("02139", "02141")), TypeError, "unordered categorical column: a range means nothing"),
    (dict(age=(30, 40, 50)), ValueError, r"age range must be a \(low, high\) pair"),
    (dict(age=({"a": 1}, 40)), TypeError, "age must be a value, a \\(low, high\\) range or a list"),
])
def test_matching_records_explains_what_cannot_match(known, error, match):
    with pytest.raises(error, match=match):
        anonymity.matching_records(_survey(), **known)


def test_generalize_keeps_missing_values_missing_and_pads_numeric_zip_codes():
    df = pd.DataFrame({"age": [34, np.nan, 67], "zip_code": [2139, np.nan, 24101], "salary": [50_000.0, 1e5, None]},
                      index=[7, 3, 9])
    out = anonymity.generalize(df, age_band=10, zip_digits=3, salary_band=20_000)
    assert out["age"].fillna("missing").tolist() == ["30-39", "missing", "60-69"]
    assert out["zip_code"].fillna("missing").tolist() == ["021**", "missing", "241**"]
    assert out["salary"].fillna("missing").tolist() == ["40000-59999", "100000-119999", "missing"]
    complete = anonymity.generalize(datasets.medical(20), age_band=10, zip_digits=3, salary_band=20_000)
    assert (complete[["age", "zip_code", "salary"]].dtypes == datasets.medical(20)["zip_code"].dtype).all()
    assert anonymity.k_anonymity(out, ["age"]) == 1  # the missing age is a class of its own


@pytest.mark.parametrize("column", ["age", "salary"])
@pytest.mark.parametrize("values", [["34", "45"], pd.Categorical([30, 40]), [True, False]])
def test_generalize_needs_numbers_to_cut_into_bands(column, values):
    with pytest.raises(TypeError, match=f"column '{column}' must be numeric to be cut into bands"):
        anonymity.generalize(pd.DataFrame({column: values}), **{f"{column}_band": 10})


@pytest.mark.parametrize("grid", [dict(age_bands=None), dict(zip_digits=5), dict(age_bands=[]), dict(zip_digits="54")])
def test_smallest_generalization_needs_lists_to_try(grid):
    with pytest.raises(TypeError, match="must be a non-empty list of integers to try"):
        anonymity.smallest_generalization(datasets.medical(50), ["age", "zip_code"], 2, **grid)
