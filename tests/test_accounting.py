"""Tests of mic_dp_helpers.accounting.ledger: the accountant, the private database, composition helpers."""

import dataclasses
import math
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mic_dp_helpers.accounting.ledger import (
    BudgetExceededError,
    LedgerEntry,
    PrivacyAccountant,
    advanced_composition_epsilon,
    split_epsilon,
    zcdp_rho_gaussian,
    zcdp_to_dp,
)
from mic_dp_helpers.accounting.private_database import PrivateDatabase

from mic_dp_helpers.attacks.audit import audit_epsilon
from mic_dp_helpers.mechanisms.noise import laplace_mechanism


def _decimal(x):
    """The decimal value a float is written as (how the accountant reads every epsilon)."""
    return Fraction(repr(float(x)))


def _state(accountant):
    return accountant.ledger, accountant.spent_epsilon, accountant.spent_delta, accountant.remaining


# --------------------------------------------------------------------------- accountant


def test_spend_records_ledger_and_remaining():
    accountant = PrivacyAccountant(1.0, 1e-5)
    entry = accountant.spend(0.25, 1e-6, label="mean age")
    assert entry == LedgerEntry("mean age", 0.25, 1e-6, "sequential", (0.25,))
    assert accountant.ledger == (entry,)
    assert accountant.spent_epsilon == 0.25
    assert accountant.remaining_epsilon == 0.75
    assert accountant.remaining == (0.75, pytest.approx(9e-6))
    assert accountant.total_epsilon == 1.0 and accountant.total_delta == 1e-5


def test_ten_spends_of_a_tenth_fit_in_one():
    accountant = PrivacyAccountant(1.0)
    for i in range(10):
        accountant.spend(0.1, label=f"q{i}")
    assert accountant.remaining_epsilon == 0.0
    assert not accountant.can_spend(1e-6)
    with pytest.raises(BudgetExceededError):
        accountant.spend(1e-6)


def test_refused_spend_changes_nothing_and_explains():
    accountant = PrivacyAccountant(1.0)
    accountant.spend(0.8, label="first")
    before = _state(accountant)
    with pytest.raises(BudgetExceededError, match=r"'second' needs epsilon=0.5.*only epsilon=0.2.*Nothing was spent") as info:
        accountant.spend(0.5, label="second")
    assert _state(accountant) == before
    error = info.value
    assert (error.requested_epsilon, error.remaining_epsilon, error.label) == (0.5, pytest.approx(0.2), "second")


def test_delta_budget_is_enforced():
    pure = PrivacyAccountant(1.0)
    with pytest.raises(BudgetExceededError, match="delta=1e-06"):
        pure.spend(0.1, delta=1e-6)
    approximate = PrivacyAccountant(1.0, total_delta=1e-5)
    approximate.spend(0.1, delta=1e-5)
    assert not approximate.can_spend(0.1, delta=1e-7)
    assert approximate.can_spend(0.1)  # pure-DP spends still fit


def test_ledger_is_read_only():
    accountant = PrivacyAccountant(1.0)
    accountant.spend(0.5)
    assert isinstance(accountant.ledger, tuple)
    with pytest.raises(dataclasses.FrozenInstanceError):
        accountant.ledger[0].epsilon = 0.0
    with pytest.raises(AttributeError):
        accountant.spent_epsilon = 0.0


def test_parallel_spend_costs_the_maximum():
    accountant = PrivacyAccountant(1.0)
    entry = accountant.spend_parallel([0.2, 0.5, 0.3], label="histogram")
    assert (entry.epsilon, entry.kind, entry.parts) == (0.5, "parallel", (0.2, 0.5, 0.3))
    assert accountant.remaining_epsilon == 0.5
    with pytest.raises(BudgetExceededError):
        accountant.spend_parallel([0.6, 0.1])
    entry = PrivacyAccountant(1.0, 1e-5).spend_parallel([0.1, 0.1], deltas=[1e-6, 3e-6])
    assert entry.delta == 3e-6


def test_charge_and_run_charges_when_attempted():
    accountant = PrivacyAccountant(1.0)
    assert accountant.charge_and_run(lambda: 42.0, 0.4, label="ok") == 42.0
    assert accountant.spent_epsilon == 0.4

    calls = []
    with pytest.raises(BudgetExceededError):
        accountant.charge_and_run(lambda: calls.append(1), 0.7, label="too big")
    assert calls == []  # a refused query never runs
    assert accountant.spent_epsilon == 0.4

    def failing():
        raise RuntimeError("query crashed")

    # A failure after the budget check may depend on the data: it is a release, and it is paid for.
    with pytest.raises(RuntimeError, match="query crashed"):
        accountant.charge_and_run(failing, 0.1, label="crashes")
    assert accountant.ledger[-1].label == "crashes" and accountant.spent_epsilon == 0.5


def test_charge_and_run_validation_errors_spend_nothing():
    accountant = PrivacyAccountant(1.0)
    calls = []
    for bad in (lambda: accountant.charge_and_run(lambda: calls.append(1), 0.0),
                lambda: accountant.charge_and_run(lambda: calls.append(1), 0.1, delta=1.5),
                lambda: accountant.charge_and_run(lambda: calls.append(1), 0.1, label=5),
                lambda: accountant.charge_and_run(None, 0.1)):
        with pytest.raises((TypeError, ValueError)):
            bad()
    assert calls == [] and accountant.ledger == ()


def test_charge_and_run_query_that_spends_more_cannot_overspend():
    accountant = PrivacyAccountant(1.0)

    def sneaky():
        accountant.spend(0.9, label="inner")
        return "secret"

    with pytest.raises(BudgetExceededError):
        accountant.charge_and_run(sneaky, 0.5, label="outer")
    assert [entry.label for entry in accountant.ledger] == ["outer"]
    assert accountant.spent_epsilon == 0.5


def test_to_frame_and_repr():
    accountant = PrivacyAccountant(2.0)
    accountant.spend(0.5, label="a")
    accountant.spend_parallel([0.1, 0.2], label="b")
    frame = accountant.to_frame()
    assert frame["label"].tolist() == ["a", "b"] and frame["epsilon"].tolist() == [0.5, 0.2]
    assert "spent_epsilon=0.7" in repr(accountant)


@pytest.mark.parametrize(
    ("call", "error", "pattern"),
    [
        (lambda: PrivacyAccountant(0), ValueError, "total_epsilon must be > 0"),
        (lambda: PrivacyAccountant(float("nan")), ValueError, "total_epsilon is NaN"),
        (lambda: PrivacyAccountant("1"), TypeError, "total_epsilon must be a positive number, got str"),
        (lambda: PrivacyAccountant(1.0, 1.0), ValueError, r"total_delta must be in \[0, 1\), got 1.0"),
        (lambda: PrivacyAccountant(1.0, -0.1), ValueError, "total_delta must be in"),
        (lambda: PrivacyAccountant(1.0).spend(0), ValueError, "epsilon must be > 0, got 0.0"),
        (lambda: PrivacyAccountant(1.0).spend(-0.1), ValueError, "epsilon must be > 0"),
        (lambda: PrivacyAccountant(1.0).spend(float("nan")), ValueError, "epsilon is NaN"),
        (lambda: PrivacyAccountant(1.0).spend(0.1, delta=2), ValueError, "delta must be in"),
        (lambda: PrivacyAccountant(1.0).spend(0.1, label=3), TypeError, "label must be a string, got int"),
        (lambda: PrivacyAccountant(1.0).can_spend(-1), ValueError, "epsilon must be > 0"),
        (lambda: PrivacyAccountant(1.0).spend_parallel([]), ValueError, "epsilons is empty"),
        (lambda: PrivacyAccountant(1.0).spend_parallel(0.5), TypeError, "epsilons must be a list"),
        (lambda: PrivacyAccountant(1.0).spend_parallel([0.1, -0.2]), ValueError, r"epsilons\[1\] must be > 0"),
        (lambda: PrivacyAccountant(1.0).spend_parallel([0.1], deltas=[0.0, 0.0]), ValueError,
         "deltas has 2 entries but epsilons has 1"),
        (lambda: PrivacyAccountant(1.0).charge_and_run("query", 0.1), TypeError, "query_fn must be a callable"),
        (lambda: PrivacyAccountant(1.0).charge_and_run(lambda: 1, 0), ValueError, "epsilon must be > 0"),
    ],
)
def test_accountant_validation(call, error, pattern):
    with pytest.raises(error, match=pattern):
        call()


# ----------------------------------------------------------------- property-based tests

epsilons = st.floats(min_value=1e-4, max_value=2.0, allow_nan=False)


@settings(max_examples=200, deadline=None)
@given(total=st.floats(min_value=0.01, max_value=10.0), requests=st.lists(epsilons, max_size=40))
def test_no_sequence_of_spends_exceeds_the_budget(total, requests):
    accountant = PrivacyAccountant(total)
    for epsilon in requests:
        before = _state(accountant)
        if accountant.can_spend(epsilon):
            accountant.spend(epsilon)
        else:
            with pytest.raises(BudgetExceededError):
                accountant.spend(epsilon)
            assert _state(accountant) == before  # a refused spend leaves the state unchanged
        # No overspend at all: the exact sum of what was spent never exceeds the total.
        assert sum(_decimal(e.epsilon) for e in accountant.ledger) <= _decimal(total)
        assert accountant.spent_epsilon <= total
        assert accountant.remaining_epsilon >= 0


@settings(max_examples=200, deadline=None)
@given(
    total=st.floats(min_value=0.01, max_value=10.0),
    requests=st.lists(st.tuples(epsilons, st.booleans()), max_size=30),
)
def test_refused_queries_never_run_and_failed_queries_are_paid(total, requests):
    accountant = PrivacyAccountant(total)
    for epsilon, fails in requests:
        before, fitted, ran = _state(accountant), accountant.can_spend(epsilon), []

        def query(fails=fails, ran=ran):
            ran.append(True)
            if fails:
                raise ZeroDivisionError("bad query")
            return 1.0

        try:
            accountant.charge_and_run(query, epsilon)
        except BudgetExceededError:
            assert _state(accountant) == before and not fitted
        except ZeroDivisionError:
            assert fitted and accountant.ledger[-1].epsilon == epsilon  # attempted, hence charged
        assert bool(ran) == fitted
        assert sum(_decimal(e.epsilon) for e in accountant.ledger) <= _decimal(total)


def test_a_budget_is_a_hard_limit():
    accountant = PrivacyAccountant(1.0)
    accountant.spend(1.0)
    for tiny in (1e-9, 1e-15, 1e-17, 5e-324):
        assert not accountant.can_spend(tiny)
        with pytest.raises(BudgetExceededError):
            accountant.spend(tiny)
    approximate = PrivacyAccountant(1.0, total_delta=1e-5)
    approximate.spend(0.5, delta=1e-5)
    with pytest.raises(BudgetExceededError):
        approximate.spend(0.1, delta=1e-20)
    assert approximate.remaining_delta == 0.0


@pytest.mark.parametrize("plan", [[0.1] * 10, [0.7, 0.2, 0.1], [0.3, 0.3, 0.4], [0.05] * 20, [0.6, 0.3, 0.1]])
def test_decimal_plans_summing_to_the_total_fit_exactly(plan):
    accountant = PrivacyAccountant(1.0)
    for part in plan:
        accountant.spend(part)
    assert accountant.remaining_epsilon == 0.0 and accountant.spent_epsilon == 1.0
    assert not accountant.can_spend(1e-12)


@settings(max_examples=300, deadline=None)
@given(units=st.lists(st.integers(min_value=1, max_value=10**6), min_size=1, max_size=30),
       digits=st.integers(min_value=1, max_value=8), shuffle_seed=st.integers(0, 2**32 - 1))
def test_any_plan_summing_to_the_total_in_exact_arithmetic_fits(units, digits, shuffle_seed):
    # Parts are decimals k / 10**digits; the total is their exact sum. Floats round each of
    # them, and their float sum may exceed the total's float, yet the plan must fit, in any order.
    parts = [Fraction(k, 10**digits) for k in units]
    total = float(sum(parts))
    floats = [float(p) for p in parts]
    np.random.default_rng(shuffle_seed).shuffle(floats)
    accountant = PrivacyAccountant(total)
    for part in floats:
        accountant.spend(part)
    assert accountant.remaining_epsilon == 0.0
    assert not accountant.can_spend(min(floats))


@settings(max_examples=200, deadline=None)
@given(total=st.floats(min_value=1e-3, max_value=100.0),
       weights=st.lists(st.floats(min_value=1e-3, max_value=1e3), min_size=1, max_size=50))
def test_split_epsilon_always_fits_and_wastes_nothing_noticeable(total, weights):
    parts = split_epsilon(total, weights)
    accountant = PrivacyAccountant(total)
    for part in parts:
        accountant.spend(part)
    assert accountant.remaining_epsilon <= 1e-12 * total
    shares = np.asarray(weights) / math.fsum(weights) * total
    assert np.allclose(parts, shares, rtol=1e-12, atol=0)


@settings(max_examples=100, deadline=None)
@given(n=st.integers(min_value=1, max_value=1000))
def test_splitting_a_budget_evenly_fits_with_split_epsilon(n):
    accountant = PrivacyAccountant(1.0)
    for part in split_epsilon(1.0, [1.0] * n):
        accountant.spend(part)
    assert accountant.remaining_epsilon <= 1e-13


def test_float_division_can_overshoot_and_is_refused():
    # 1/11 rounds up: eleven copies exceed 1 in exact arithmetic. The accountant does not let
    # that through; split_epsilon gives parts that fit.
    accountant = PrivacyAccountant(1.0)
    for _ in range(10):
        accountant.spend(1 / 11)
    assert not accountant.can_spend(1 / 11)
    assert accountant.can_spend(split_epsilon(1.0, [1.0] * 11)[-1])


# --------------------------------------------------------------------- private database


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


# ---------------------------------------------------------------- composition theorems


def test_advanced_composition_formula_and_advantage():
    epsilon, delta_prime, k = 0.01, 1e-6, 1000
    expected = math.sqrt(2 * k * math.log(1 / delta_prime)) * epsilon + k * epsilon * (math.exp(epsilon) - 1)
    assert advanced_composition_epsilon(epsilon, delta_prime, k) == pytest.approx(expected, rel=1e-12)
    assert advanced_composition_epsilon(epsilon, delta_prime, k) < k * epsilon  # beats basic composition here
    assert advanced_composition_epsilon(1.0, 1e-6, 2) > 2 * 1.0  # but not for few, large spends


def test_zcdp_helpers():
    assert zcdp_rho_gaussian(1.0, 2.0) == 0.125
    assert zcdp_to_dp(0.5, 1e-5) == pytest.approx(0.5 + 2 * math.sqrt(0.5 * math.log(1e5)), rel=1e-12)
    # k Gaussian queries: rho adds up, so epsilon grows like sqrt(k), not k.
    rho = zcdp_rho_gaussian(1.0, 10.0)
    assert zcdp_to_dp(100 * rho, 1e-6) < 100 * zcdp_to_dp(rho, 1e-6) / 5


@pytest.mark.parametrize(
    ("call", "error", "pattern"),
    [
        (lambda: advanced_composition_epsilon(0, 1e-6, 10), ValueError, "epsilon must be > 0"),
        (lambda: advanced_composition_epsilon(0.1, 0, 10), ValueError, r"delta_prime must be in \(0, 1\)"),
        (lambda: advanced_composition_epsilon(0.1, 1e-6, 0), ValueError, "k must be an integer >= 1"),
        (lambda: advanced_composition_epsilon(0.1, 1e-6, 2.5), TypeError, "k must be an integer"),
        (lambda: zcdp_rho_gaussian(-1, 1), ValueError, "sensitivity must be > 0"),
        (lambda: zcdp_rho_gaussian(1, 0), ValueError, "sigma must be > 0"),
        (lambda: zcdp_to_dp(0, 1e-5), ValueError, "rho must be > 0"),
        (lambda: zcdp_to_dp(0.1, 1.5), ValueError, r"delta must be in \(0, 1\)"),
    ],
)
def test_composition_validation(call, error, pattern):
    with pytest.raises(error, match=pattern):
        call()


# ------------------------------------------------------- histogram (parallel composition)


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


def test_refusal_by_a_rounding_hair_says_so():
    accountant = PrivacyAccountant(1.0)
    for _ in range(10):
        accountant.spend(1 / 11)
    with pytest.raises(BudgetExceededError, match=r"epsilon=0\.09090909090909091.*only epsilon=0\.0909090909090909.*split_epsilon"):
        accountant.spend(1 / 11)


@settings(max_examples=200, deadline=None)
@given(total=st.floats(min_value=0.01, max_value=10.0), plan=st.lists(epsilons, min_size=1, max_size=20))
def test_can_spend_all_agrees_with_spending_the_plan(total, plan):
    accountant = PrivacyAccountant(total)
    verdict = accountant.can_spend_all(plan)
    try:
        for part in plan:
            accountant.spend(part)
        fitted = True
    except BudgetExceededError:
        fitted = False
    assert verdict == fitted


def test_can_spend_all_counts_exactly_where_a_float_sum_rounds():
    accountant = PrivacyAccountant(1.0)
    accountant.spend(0.7)
    assert accountant.can_spend_all([0.1, 0.1, 0.1]) and not accountant.can_spend(math.fsum([0.1] * 3))
    assert not accountant.can_spend_all([0.1, 0.1, 0.1, 1e-15])
    with pytest.raises(ValueError, match="deltas has 1 entries but epsilons has 2"):
        accountant.can_spend_all([0.1, 0.1], deltas=[0.0])
    with pytest.raises(ValueError, match=r"epsilon must be > 0"):
        accountant.can_spend_all([0.1, 0.0])


@pytest.mark.parametrize("epsilon", [710.0, 1e12])
def test_advanced_composition_of_huge_epsilon_is_infinite_not_overflow(epsilon):
    assert advanced_composition_epsilon(epsilon, 1e-5, 3) == math.inf


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


@pytest.mark.parametrize("weights", [np.array(2.0), [[1.0, 2.0]], np.ones((2, 2))])
def test_split_epsilon_needs_a_flat_list_of_weights(weights):
    from mic_dp_helpers.accounting.ledger import split_epsilon

    with pytest.raises(TypeError, match="weights must be a list of positive numbers"):
        split_epsilon(1.0, weights)


@pytest.mark.parametrize("sensitivity, sigma, expected", [(1.0, 1e-300, math.inf), (1e300, 1e-10, math.inf),
                                                          (1.0, 1e300, 0.0), (2.0, 1.0, 2.0)])
def test_zcdp_rho_gaussian_never_overflows(sensitivity, sigma, expected):
    from mic_dp_helpers.accounting.ledger import zcdp_rho_gaussian

    assert zcdp_rho_gaussian(sensitivity, sigma) == expected


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


@pytest.mark.parametrize("epsilons", [pd.Series([0.1, 0.2]), np.array([0.1, 0.2]), (0.1, 0.2)])
def test_parallel_spends_take_a_series_or_array(epsilons):
    accountant = PrivacyAccountant(1.0)
    assert accountant.can_spend_all(epsilons)
    assert accountant.spend_parallel(epsilons).epsilon == 0.2


@pytest.mark.parametrize("epsilons", [np.array(0.1), [[0.1]], 0.1, "0.1"])
def test_parallel_spends_refuse_what_is_not_a_flat_list(epsilons):
    accountant = PrivacyAccountant(1.0)
    with pytest.raises(TypeError, match="epsilons must be a list of positive numbers"):
        accountant.spend_parallel(epsilons)
    with pytest.raises(TypeError, match="epsilons must be a list of positive numbers"):
        accountant.can_spend_all(epsilons)
    assert accountant.ledger == ()
