"""Tests of mic_dp_helpers.accounting.private_database: declarative queries, refusals, histograms."""

import numpy as np
import pandas as pd
import pytest

from mic_dp_helpers.accounting.ledger import BudgetExceededError, PrivacyAccountant
from mic_dp_helpers.accounting.private_database import PrivateDatabase
from mic_dp_helpers.attacks.audit import audit_epsilon
from mic_dp_helpers.mechanisms.noise import laplace_mechanism


@pytest.fixture
def people():
    return pd.DataFrame({
        "age": [23.0, 35.0, 41.0, 58.0, 62.0, 1000.0],  # 1000: a data-entry outlier
        "zip": ["02138", "02139", "02138", "02140", "02138", "02139"],
        "smoker": [True, False, True, False, False, True],
    })


def test_count_with_declarative_conditions(people):
    db = PrivateDatabase(people, 100.0, rng=0)
    assert db.count({"zip": "02138"}, epsilon=20.0) == pytest.approx(3, abs=0.5)
    assert db.count({"smoker": True, "age": (">=", 35)}, epsilon=20.0) == pytest.approx(2, abs=0.5)
    assert db.count({"zip": ("in", ["02139", "02140"]), "age": ("<", 100)}, epsilon=20.0) == pytest.approx(2, abs=0.5)
    assert db.count({"zip": ("not in", ["02138"]), "smoker": ("!=", True)}, epsilon=20.0) == pytest.approx(2, abs=0.5)
    assert db.count(None, epsilon=20.0) == pytest.approx(6, abs=0.5)
    assert db.accountant.remaining_epsilon == 0.0
    assert [entry.label for entry in db.accountant.ledger] == ["count"] * 5


def _whole_table_count(data, predicate, epsilon, rng):
    """The old design: the analyst's function sees the whole table, its mask is trusted as sensitivity 1."""
    return laplace_mechanism(float(np.asarray(predicate(data)).sum()), 1.0, epsilon, rng)


def test_whole_table_predicate_exploit_is_closed():
    # Neighbours: patient 2's secret flipped (one row changes). The exploit reads that one
    # row and selects every row when it is True: the count moves by the table's size.
    table_a = pd.DataFrame({"rare_disease": [False, False, True] + [False] * 27})
    table_b = table_a.assign(rare_disease=False)
    exploit = lambda df: np.full(len(df), df.loc[2, "rare_disease"])  # noqa: E731

    def old_design(data, size, rng):
        return np.array([_whole_table_count(data, exploit, 1.0, rng) for _ in range(size)])

    broken = audit_epsilon(old_design, table_a, table_b, n_samples=4000, rng=1)
    assert broken.refutes(3.0), broken  # the audit has the power to see the leak

    # The database never runs the analyst's code on the data: the exploit is refused, unpaid.
    db = PrivateDatabase(table_a, 10.0, rng=0)
    calls = []
    with pytest.raises(TypeError, match="Functions of the table and row masks are not accepted"):
        db.count(lambda df: calls.append(1) or exploit(df), epsilon=1.0)
    assert calls == [] and db.accountant.ledger == ()

    # The closest query it can express, a count of the secret, keeps epsilon = 1: the audit,
    # with the same power, finds nothing above 1.
    def new_design(data, size, rng):
        database = PrivateDatabase(data, float(size), rng=rng)
        return np.array([database.count({"rare_disease": True}, epsilon=1.0) for _ in range(size)])

    closed = audit_epsilon(new_design, table_a, table_b, n_samples=4000, rng=1)
    assert not closed.refutes(1.0), closed


def test_refused_query_never_reads_the_data(people, monkeypatch):
    db = PrivateDatabase(people, 1.0, rng=0)
    db.count(None, epsilon=0.9)
    touched = []
    monkeypatch.setattr(PrivateDatabase, "_mask", lambda self, conditions: touched.append("mask"))
    monkeypatch.setattr(PrivateDatabase, "_values", lambda self, column: touched.append("values"))
    for query in (lambda: db.count({"smoker": True}, epsilon=0.5),
                  lambda: db.bounded_sum("age", 0, 100, epsilon=0.5),
                  lambda: db.bounded_mean("age", 0, 100, epsilon=0.5),
                  lambda: db.histogram("zip", ["02138"], epsilon=0.5)):
        with pytest.raises(BudgetExceededError):
            query()
    assert touched == [] and len(db.accountant.ledger) == 1


def test_database_refuses_to_overspend(people):
    db = PrivateDatabase(people, 1.0, rng=0)
    answers = []
    with pytest.raises(BudgetExceededError):
        while True:  # the averaging attack: ask the same count again and again
            answers.append(db.count(None, epsilon=0.1))
    assert len(answers) == 10
    assert db.accountant.spent_epsilon == pytest.approx(1.0)


def test_bounded_sum_clips_to_declared_bounds(people):
    db = PrivateDatabase(people, 1e6, rng=0)
    clipped_sum = 23 + 35 + 41 + 58 + 62 + 100  # 1000 clipped to the declared upper bound
    assert db.bounded_sum("age", 0, 100, epsilon=1e4) == pytest.approx(clipped_sum, abs=0.1)
    assert db.accountant.ledger[-1].label == "bounded_sum(age)"


def test_bounded_sum_noise_scale_uses_the_declared_bounds(people):
    # Sensitivity max(|lower|, |upper|) = 100 at epsilon 1: Laplace scale 100, so the mean
    # absolute error is 100. With 4000 answers its standard error is 1.6%; tolerance 6%.
    db = PrivateDatabase(people, 4000.0, rng=5)
    errors = np.array([db.bounded_sum("age", -20, 100, epsilon=1.0) for _ in range(4000)]) - 319.0
    assert abs(np.abs(errors).mean() / 100 - 1) < 0.06


def test_bounded_mean_is_accurate_at_large_epsilon_and_within_bounds():
    rng = np.random.default_rng(0)
    data = pd.DataFrame({"income": rng.uniform(20_000, 80_000, size=5000)})
    db = PrivateDatabase(data, 20.0, rng=1)
    estimate = db.bounded_mean("income", 0, 100_000, epsilon=10.0)
    assert estimate == pytest.approx(data["income"].mean(), rel=0.01)
    tiny = PrivateDatabase(data.head(3), 1.0, rng=2)
    assert 0 <= tiny.bounded_mean("income", 0, 100_000, epsilon=0.01) <= 100_000
    assert db.accountant.ledger[-1].epsilon == 10.0  # one entry for the whole mean


def test_database_accepts_a_shared_accountant(people):
    accountant = PrivacyAccountant(1.0)
    first, second = PrivateDatabase(people, accountant, rng=0), PrivateDatabase(people, accountant, rng=1)
    first.count(None, epsilon=0.6)
    with pytest.raises(BudgetExceededError):
        second.count(None, epsilon=0.6)
    assert first.accountant is accountant and accountant.spent_epsilon == 0.6
    assert first.columns == ["age", "zip", "smoker"]


def test_database_copies_its_data(people):
    db = PrivateDatabase(people, 1e6, rng=0)
    people.loc[0, "age"] = -5000.0
    assert db.bounded_sum("age", 0, 100, epsilon=1e4) == pytest.approx(319, abs=0.1)


@pytest.mark.parametrize(
    ("query", "error", "pattern"),
    [
        (lambda db: db.bounded_sum("age", 10, 10, 0.1), ValueError, "lower must be < upper, got lower=10.0, upper=10.0"),
        (lambda db: db.bounded_sum("age", 100, 0, 0.1), ValueError, "lower must be < upper"),
        (lambda db: db.bounded_mean("age", float("nan"), 100, 0.1), ValueError, "lower is NaN"),
        (lambda db: db.bounded_mean("age", 0, float("inf"), 0.1), ValueError, "upper must be finite"),
        (lambda db: db.bounded_mean("age", 0, "100", 0.1), TypeError, "upper must be a finite number"),
        (lambda db: db.bounded_sum("height", 0, 100, 0.1), KeyError, "column 'height' is not in the data"),
        (lambda db: db.bounded_mean("zip", 0, 100, 0.1), TypeError, "column 'zip' must be numeric"),
        (lambda db: db.bounded_sum(3, 0, 100, 0.1), TypeError, "column must be a column name"),
        (lambda db: db.bounded_sum("age", 0, 100, 0), ValueError, "epsilon must be > 0"),
        (lambda db: db.bounded_mean("age", 0, 100, -1), ValueError, "epsilon must be > 0"),
        (lambda db: db.count(None, float("nan")), ValueError, "epsilon is NaN"),
        (lambda db: db.count(np.ones(6, dtype=bool), 0.1), TypeError, "row masks are not accepted"),
        (lambda db: db.count(lambda df: df["age"] > 1, 0.1), TypeError, "Functions of the table"),
        (lambda db: db.count({"nope": 1}, 0.1), KeyError, "column 'nope' is not in the data"),
        (lambda db: db.count({"age": ("~", 1)}, 0.1), ValueError, "unknown operator '~'"),
        (lambda db: db.count({"age": (">=",)}, 0.1), ValueError, "pair \\(operator, value\\)"),
        (lambda db: db.count({"zip": (">", "02138")}, 0.1), TypeError, "needs a numeric column"),
        (lambda db: db.count({"age": (">", "40")}, 0.1), TypeError, "compared with 'age'"),
        (lambda db: db.count({"zip": ("in", "02138")}, 0.1), TypeError, "needs a list of values"),
        (lambda db: db.count({"zip": [1, 2]}, 0.1), TypeError, "plain number, string or boolean"),
        (lambda db: db.count("age > 40", 0.1), TypeError, "where must be None or a dict"),
        (lambda db: db.count({"age": ("in", [40, "41"])}, 0.1), TypeError, "column 'age' holds numbers"),
        (lambda db: db.count({"smoker": "yes"}, 0.1), TypeError, "column 'smoker' holds numbers"),
        (lambda db: db.count(None, 5.0), BudgetExceededError, "needs epsilon=5"),
        (lambda db: db.count(None, 0.1, label=7), TypeError, "label must be a string"),
    ],
)
def test_database_errors_spend_nothing(people, query, error, pattern):
    db = PrivateDatabase(people, 1.0, rng=0)
    with pytest.raises(error, match=pattern):
        query(db)
    assert db.accountant.ledger == () and db.accountant.spent_epsilon == 0.0


def test_database_rejects_duplicate_column_names():
    with pytest.raises(ValueError, match=r"more than one column named \['a'\]"):
        PrivateDatabase(pd.DataFrame([[1, 2], [3, 4]], columns=["a", "a"]), 1.0, rng=0)


def test_database_rejects_missing_numeric_values_at_construction():
    with pytest.raises(ValueError, match=r"numeric column\(s\) \['x'\] have missing values"):
        PrivateDatabase(pd.DataFrame({"x": [1.0, np.nan], "g": ["a", None]}), 1.0, rng=0)
    db = PrivateDatabase(pd.DataFrame({"x": [1.0, 2.0], "g": ["a", None]}), 1e6, rng=0)
    assert db.count({"g": ("!=", "a")}, epsilon=1e5) == pytest.approx(1, abs=0.01)  # a missing label is "not a"
    text = pd.DataFrame({"g": pd.array(["a", pd.NA, "b", "a"], dtype="string"), "c": pd.Categorical(list("xyxx"))})
    db = PrivateDatabase(text, 1e6, rng=0)
    expected = [(("==", "a"), 2), (("!=", "a"), 2), (("in", ["a", "b"]), 3), (("not in", ["a"]), 2)]
    for condition, count in expected:
        assert db.count({"g": condition}, epsilon=1e5) == pytest.approx(count, abs=0.01), condition
    assert db.count({"c": "x", "g": "a"}, epsilon=1e5) == pytest.approx(2, abs=0.01)


@pytest.mark.parametrize(
    ("args", "error", "pattern"),
    [
        (([1, 2, 3], 1.0), TypeError, "data must be a pandas DataFrame"),
        ((pd.DataFrame({"x": []}), 1.0), ValueError, "data is empty"),
        ((pd.DataFrame({"x": [1]}), "1.0"), TypeError, "budget must be a PrivacyAccountant"),
        ((pd.DataFrame({"x": [1]}), -1.0), ValueError, "budget must be > 0"),
        ((pd.DataFrame({"x": [1]}), 1.0, "seed"), TypeError, "rng must be None"),
    ],
)
def test_database_constructor_validation(args, error, pattern):
    with pytest.raises(error, match=pattern):
        PrivateDatabase(*args)


def test_histogram_costs_epsilon_once_and_counts_public_categories(people):
    db = PrivateDatabase(people, 1e6, rng=0)
    noisy = db.histogram("zip", ["02138", "02139", "02140", "99999"], epsilon=1e5)
    assert list(noisy.index) == ["02138", "02139", "02140", "99999"]
    assert noisy.to_numpy() == pytest.approx([3, 2, 1, 0], abs=1e-3)  # empty public category reported too
    assert db.accountant.spent_epsilon == 1e5  # once, not four times


def test_histogram_is_a_parallel_spend_of_epsilon(people):
    db = PrivateDatabase(people, 1.0, rng=0)
    db.histogram("zip", ["02138", "02139", "02140"], epsilon=0.4)
    (entry,) = db.accountant.ledger
    assert entry.kind == "parallel" and entry.epsilon == 0.4 and entry.parts == (0.4, 0.4, 0.4)
    assert db.accountant.remaining_epsilon == pytest.approx(0.6)


def test_histogram_noise_has_scale_one_over_epsilon():
    data = pd.DataFrame({"g": ["a"] * 50 + ["b"] * 30})
    db = PrivateDatabase(data, 1e9, rng=3)
    draws = np.array([db.histogram("g", ["a", "b"], epsilon=0.5).to_numpy() for _ in range(4000)])
    # Laplace scale 2: mean absolute deviation 2, standard error about 2 / sqrt(4000) = 0.03 per bin.
    assert np.abs(draws - [50, 30]).mean(axis=0) == pytest.approx([2.0, 2.0], abs=0.15)
    assert draws.mean(axis=0) == pytest.approx([50, 30], abs=0.2)


def test_histogram_refused_when_over_budget_releases_nothing(people):
    db = PrivateDatabase(people, 1.0, rng=0)
    db.count(None, 0.8)
    with pytest.raises(BudgetExceededError, match="histogram"):
        db.histogram("zip", ["02138", "02139"], epsilon=0.5)
    assert len(db.accountant.ledger) == 1 and db.accountant.spent_epsilon == 0.8


@pytest.mark.parametrize(
    ("query", "error", "pattern"),
    [
        (lambda db: db.histogram("zip", [], 0.1), ValueError, "categories is empty"),
        (lambda db: db.histogram("zip", ["02138", "02138"], 0.1), ValueError, "repeated entries"),
        (lambda db: db.histogram("zip", "02138", 0.1), TypeError, "categories must be a list"),
        (lambda db: db.histogram("height", ["a"], 0.1), KeyError, "column 'height' is not in the data"),
        (lambda db: db.histogram(3, ["a"], 0.1), TypeError, "column must be a column name"),
        (lambda db: db.histogram("zip", ["02138"], 0), ValueError, "epsilon must be > 0"),
    ],
)
def test_histogram_errors_spend_nothing(people, query, error, pattern):
    db = PrivateDatabase(people, 1.0, rng=0)
    with pytest.raises(error, match=pattern):
        query(db)
    assert db.accountant.ledger == ()


def test_private_database_answers_on_columns_with_non_string_labels():
    # a table read without a header has integer column labels: they name its columns
    db = PrivateDatabase(pd.DataFrame({0: [1.0, 2.0, 3.0], 1: ["a", "b", "a"]}), 10.0, rng=0)
    assert isinstance(db.bounded_sum(0, 0, 5, 1.0), float)
    assert isinstance(db.count({1: "a"}, 1.0), float)
    with pytest.raises(TypeError, match="column must be a column name"):
        db.bounded_sum(2, 0, 5, 1.0)


@pytest.mark.parametrize("bad", [["age"], pd.Series(["age"]), np.array(["age"])])
def test_private_database_refuses_a_column_that_is_not_one_name_and_spends_nothing(people, bad):
    db = PrivateDatabase(people, 1.0, rng=0)
    with pytest.raises(TypeError, match="column must be one column name"):
        db.bounded_sum(bad, 0, 100, 0.1)
    with pytest.raises(TypeError, match="column must be one column name"):
        db.histogram(bad, ["a"], 0.1)
    assert db.accountant.ledger == ()


@pytest.mark.parametrize("query, error, match", [
    (lambda db: db.count({"age": np.nan}, 0.1), ValueError, "compares with NaN, which equals nothing"),
    (lambda db: db.count({"age": ("in", [40.0, np.nan])}, 0.1), ValueError, "compares with NaN"),
    (lambda db: db.histogram("zip", [["02138"]], 0.1), TypeError, "categories must list plain values"),
])
def test_nan_conditions_and_unhashable_categories_spend_nothing(people, query, error, match):
    db = PrivateDatabase(people, 1.0, rng=0)
    with pytest.raises(error, match=match):
        query(db)
    assert db.accountant.ledger == ()
