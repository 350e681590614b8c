"""Tests of mic_dp_helpers.accounting.ledger: the accountant and the composition helpers."""

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


def _decimal(x):
    """The decimal value a float is written as (how the accountant reads every epsilon)."""
    return Fraction(repr(float(x)))


def _state(accountant):
    return accountant.ledger, accountant.spent_epsilon, accountant.spent_delta, accountant.remaining


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
