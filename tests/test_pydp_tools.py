"""Tests of mic_dp_helpers.scale.pydp_tools: PyDP behind the accountant, contribution bounding, error formulas.

PyDP's noise cannot be seeded, so statistical tests use many runs and tolerances of at least
four standard errors (stated at each test); their false-failure probability is below 1e-4.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

pytest.importorskip("pydp.algorithms.laplacian")

from mic_dp_helpers.scale import pydp_tools  # noqa: E402
from mic_dp_helpers.attacks.floating_point import numpy_laplace_reachable, power_of_two_granularity  # noqa: E402
from mic_dp_helpers.accounting.ledger import BudgetExceededError, PrivacyAccountant  # noqa: E402
from mic_dp_helpers.accounting.private_database import PrivateDatabase  # noqa: E402
from mic_dp_helpers.environment import CourseEnvironmentError  # noqa: E402
from mic_dp_helpers.mechanisms.noise import laplace_mechanism  # noqa: E402
from mic_dp_helpers.scale.pydp_error import (  # noqa: E402
    bounded_mean_noise_halfwidth,
    bounded_mean_noise_std,
    bounded_mean_rmse,
    clamping_bias,
    laplace_noise_halfwidth,
)
from mic_dp_helpers.scale.pydp_tools import (  # noqa: E402
    AccountedPyDP,
    limit_contributions,
    make_pydp_algorithm,
    pydp_query,
    pydp_repeat,
)

VALUES = np.random.default_rng(0).uniform(0.0, 10.0, 500)


# ------------------------------------------------------------------------ python-dp facts
def test_pydp_default_dtype_is_integer_and_rejects_floats():
    from pydp.algorithms.laplacian import BoundedMean

    with pytest.raises(TypeError):
        BoundedMean(epsilon=1.0, lower_bound=0, upper_bound=10).quick_result([1.5, 2.5])


def test_made_algorithms_accept_floats_and_respect_bounds():
    mean = make_pydp_algorithm("mean", 1.0, 0.0, 10.0)
    assert mean.dtype == "float"
    assert 0.0 <= mean.quick_result([2.5, 3.5] * 50) <= 10.0
    assert float(make_pydp_algorithm("count", 1.0).quick_result([0.5] * 10)).is_integer()
    assert isinstance(make_pydp_algorithm("sum", 1.0, 0.0, 5.0).quick_result([0.5] * 10), float)


@pytest.mark.parametrize(
    "kind, lower, upper, match",
    [
        ("mean", None, 10.0, "declared bounds"),
        ("sum", 0.0, None, "declared bounds"),
        ("count", 0.0, 1.0, "no bounds"),
        ("mean", 5.0, 5.0, "lower must be < upper"),
        ("median", 0.0, 1.0, "kind must be one of"),
    ],
)
def test_bad_query_arguments_are_explained(kind, lower, upper, match):
    with pytest.raises(ValueError, match=match):
        make_pydp_algorithm(kind, 1.0, lower, upper)


@pytest.mark.parametrize("bad", [{"epsilon": 0.0}, {"epsilon": math.nan}, {"linf_sensitivity": 2.5},
                                 {"l0_sensitivity": 0}])
def test_bad_epsilon_or_sensitivity_is_refused(bad):
    arguments = {"epsilon": 1.0, "l0_sensitivity": 1, "linf_sensitivity": 1} | bad
    epsilon = arguments.pop("epsilon")
    with pytest.raises((TypeError, ValueError)):
        make_pydp_algorithm("count", epsilon, **arguments)


@pytest.mark.parametrize("values, error", [([1.0, math.nan], ValueError), ([[1.0, 2.0]], ValueError),
                                           (["a", "b"], TypeError), ("abc", TypeError), ([1.0, math.inf], ValueError)])
def test_bad_values_are_refused(values, error):
    with pytest.raises(error):
        pydp_query("count", values, 1.0)


def test_empty_data_is_a_valid_dataset():
    assert math.isfinite(pydp_query("mean", [], 1.0, 0.0, 10.0))


def test_bounded_mean_noise_matches_the_formula():
    # 3000 runs: the sample std of Laplace-like noise has relative standard error about
    # sqrt(5 / (4 * 3000)) = 2%; the 12% tolerance is 6 standard errors.
    answers = pydp_repeat("mean", VALUES, 1.0, 3000, 0.0, 10.0)
    expected = bounded_mean_noise_std(0.0, 10.0, 1.0, VALUES.size, mean=float(VALUES.mean()))
    assert answers.std() == pytest.approx(expected, rel=0.12)
    assert abs(answers.mean() - VALUES.mean()) < 6 * expected / math.sqrt(3000)


def test_linf_sensitivity_scales_the_noise():
    # std of 3000 noisy counts: relative standard error 2%, tolerance 12%.
    plain = pydp_repeat("count", VALUES, 1.0, 3000).std()
    tripled = pydp_repeat("count", VALUES, 1.0, 3000, linf_sensitivity=3).std()
    assert plain == pytest.approx(math.sqrt(2), rel=0.12)
    assert tripled == pytest.approx(3 * math.sqrt(2), rel=0.12)


def test_repeat_validates_before_running():
    with pytest.raises(ValueError, match="declared bounds"):
        pydp_repeat("mean", VALUES, 1.0, 10)
    with pytest.raises(ValueError):
        pydp_repeat("count", VALUES, 1.0, 0)


def test_require_pydp_explains_the_placeholder_release(monkeypatch):
    import mic_dp_helpers.environment as environment

    pydp_tools.require_pydp.cache_clear()
    monkeypatch.setattr(environment, "installed_version", lambda name: "0.1.0" if name == "python-dp" else "1.0")
    try:
        with pytest.raises(CourseEnvironmentError, match="0.1.0"):
            pydp_tools.require_pydp()
    finally:
        monkeypatch.undo()
        pydp_tools.require_pydp.cache_clear()
    assert hasattr(pydp_tools.require_pydp(), "BoundedMean")


# --------------------------------------------------------------------------- AccountedPyDP
def test_each_query_is_charged_and_labelled():
    accountant = PrivacyAccountant(1.0)
    queries = AccountedPyDP(accountant)
    queries.count(VALUES, 0.2, label="purchases")
    queries.bounded_sum(VALUES, 0.0, 10.0, 0.3)
    mean = queries.bounded_mean(VALUES, 0.0, 10.0, 0.5)
    assert 0.0 <= mean <= 10.0
    assert [(e.label, e.epsilon) for e in accountant.ledger] == [
        ("purchases", 0.2), ("PyDP BoundedSum", 0.3), ("PyDP BoundedMean", 0.5)]
    assert accountant.remaining_epsilon == pytest.approx(0.0, abs=1e-12)
    assert queries.pydp_calls == 3


def test_refused_query_spends_nothing_and_never_calls_pydp(monkeypatch):
    accountant = PrivacyAccountant(1.0)
    queries = AccountedPyDP(accountant)
    queries.count(VALUES, 0.8)
    built = []
    original = pydp_tools.make_pydp_algorithm
    monkeypatch.setattr(pydp_tools, "make_pydp_algorithm", lambda *a, **k: built.append(a) or original(*a, **k))
    with pytest.raises(BudgetExceededError):
        queries.bounded_mean(VALUES, 0.0, 10.0, 0.5)
    assert built == [] and queries.pydp_calls == 1
    assert accountant.spent_epsilon == pytest.approx(0.8) and len(accountant.ledger) == 1
    queries.bounded_mean(VALUES, 0.0, 10.0, 0.2)  # what is left still works
    assert accountant.remaining_epsilon == pytest.approx(0.0, abs=1e-12) and len(built) == 1


@pytest.mark.parametrize("call", [
    lambda q: q.bounded_mean(VALUES, 10.0, 0.0, 0.5),
    lambda q: q.bounded_mean([1.0, math.nan], 0.0, 10.0, 0.5),
    lambda q: q.query("mean", VALUES, 0.5),
    lambda q: q.count(VALUES, -1.0),
    lambda q: q.count(VALUES, 0.5, linf_sensitivity=0),
    lambda q: q.count(VALUES, 0.5, label=3),
])
def test_invalid_queries_spend_nothing(call):
    accountant = PrivacyAccountant(1.0)
    queries = AccountedPyDP(accountant)
    with pytest.raises((TypeError, ValueError)):
        call(queries)
    assert accountant.ledger == () and queries.pydp_calls == 0


def test_a_failing_pydp_run_is_charged(monkeypatch):
    # PyDP may fail on the data (e.g. its automatic bounds on small data): the failure is an
    # output that depends on the data, so the query is paid for when it is attempted.
    class Broken:
        def quick_result(self, values):
            raise RuntimeError("INVALID_ARGUMENT: simulated failure")

    accountant = PrivacyAccountant(1.0)
    queries = AccountedPyDP(accountant)
    monkeypatch.setattr(pydp_tools, "make_pydp_algorithm", lambda *a, **k: Broken())
    with pytest.raises(RuntimeError, match="simulated"):
        queries.count(VALUES, 0.5, label="count that fails")
    assert [(e.label, e.epsilon) for e in accountant.ledger] == [("count that fails", 0.5)]


def test_one_budget_covers_numpy_and_pydp_queries():
    accountant = PrivacyAccountant(1.0)
    database = PrivateDatabase(pd.DataFrame({"x": VALUES}), accountant, rng=0)
    queries = AccountedPyDP(accountant)
    database.bounded_mean("x", 0.0, 10.0, epsilon=0.6)
    with pytest.raises(BudgetExceededError):
        queries.bounded_mean(VALUES, 0.0, 10.0, 0.5)
    queries.count(VALUES, 0.4)
    with pytest.raises(BudgetExceededError):
        database.count(None, epsilon=0.1)
    assert [e.epsilon for e in accountant.ledger] == [0.6, 0.4]


def test_accountant_type_is_checked():
    with pytest.raises(TypeError, match="PrivacyAccountant"):
        AccountedPyDP(1.0)
    assert "pydp_calls=0" in repr(AccountedPyDP(PrivacyAccountant(1.0)))


# --------------------------------------------------------------------- contribution bounding
LOG = pd.DataFrame({"person": list("aaaaabbbc") * 3, "amount": np.arange(27.0)}, index=np.arange(100, 127))


@pytest.mark.parametrize("k", [1, 2, 4, 20])
def test_limit_contributions_keeps_min_of_count_and_k_real_rows(k):
    kept = limit_contributions(LOG, "person", k, rng=1)
    counts = LOG["person"].value_counts()
    assert kept["person"].value_counts().to_dict() == {p: min(c, k) for p, c in counts.items()}
    pd.testing.assert_frame_equal(kept, LOG.loc[kept.index])
    assert kept.index.is_monotonic_increasing


def test_limit_contributions_is_reproducible_and_uniform():
    assert limit_contributions(LOG, "person", 2, rng=5).index.equals(limit_contributions(LOG, "person", 2, rng=5).index)
    # Person "a" has 15 rows and keeps 2: each row is kept with probability 2/15. Over 3000
    # seeds the frequency has standard error 0.0062; the tolerance 0.035 is over 5 of them.
    a_rows = LOG.index[LOG["person"] == "a"]
    generator = np.random.default_rng(0)
    kept = np.zeros(len(a_rows))
    for _ in range(3000):
        kept += a_rows.isin(limit_contributions(LOG, "person", 2, rng=generator).index)
    assert np.abs(kept / 3000 - 2 / 15).max() < 0.035


def test_limit_contributions_validates_arguments():
    with pytest.raises(KeyError, match="customer"):
        limit_contributions(LOG, "customer", 2)
    with pytest.raises(ValueError):
        limit_contributions(LOG, "person", 0)
    with pytest.raises(TypeError):
        limit_contributions(LOG["amount"], "person", 2)


# ------------------------------------------------------------------------------ error formulas
def test_clamping_bias_sign_and_size():
    assert clamping_bias([1.0, 2.0, 9.0], 0.0, 3.0) == pytest.approx(-2.0)
    assert clamping_bias([1.0, 2.0, 9.0], 2.0, 10.0) == pytest.approx(1 / 3)
    assert clamping_bias(VALUES, -1.0, 11.0) == 0.0
    with pytest.raises(ValueError):
        clamping_bias([], 0.0, 1.0)


def test_noise_std_formula():
    assert bounded_mean_noise_std(0.0, 10.0, 1.0, 1000) == pytest.approx(math.sqrt(2) * 10 / 1000)
    # The count's share vanishes at the midpoint and grows with the distance from it.
    assert bounded_mean_noise_std(0.0, 10.0, 1.0, 1000, mean=5.0) == pytest.approx(math.sqrt(2) * 10 / 1000)
    assert bounded_mean_noise_std(0.0, 10.0, 1.0, 1000, mean=0.0) == pytest.approx(math.sqrt(2) * math.sqrt(200) / 1000)
    assert bounded_mean_noise_std(0.0, 10.0, 0.5, 1000, linf_sensitivity=3) == pytest.approx(6 * math.sqrt(2) * 10 / 1000)


def test_rmse_trades_bias_against_noise():
    values = [1.0] * 900 + [50.0] * 100
    small, right, huge = (bounded_mean_rmse(values, 0.0, upper, 1.0) for upper in (5.0, 50.0, 5000.0))
    assert right < small and right < huge
    assert bounded_mean_rmse(values, 0.0, 50.0, 1.0, include_count_noise=False) == pytest.approx(
        bounded_mean_noise_std(0.0, 50.0, 1.0, 1000))


def test_noise_interval_is_pydps_laplace_interval():
    assert laplace_noise_halfwidth(0.5, 2.0, 0.9) == pytest.approx(4.0 * math.log(10.0))
    assert bounded_mean_noise_halfwidth(0.0, 10.0, 1.0, 1000, 0.95) == pytest.approx(10.0 * math.log(20.0) / 1000)


def test_noise_interval_covers_the_observed_error():
    # Data centred on the midpoint, so the count's noise hardly matters. Coverage of 3000 runs
    # has standard error 0.004; the tolerance 0.025 is 6 of them.
    values = np.random.default_rng(1).uniform(2.0, 8.0, 400)
    errors = pydp_repeat("mean", values, 1.0, 3000, 0.0, 10.0) - values.mean()
    halfwidth = bounded_mean_noise_halfwidth(0.0, 10.0, 1.0, values.size, 0.95)
    assert np.mean(np.abs(errors) <= halfwidth) == pytest.approx(0.95, abs=0.025)


# ------------------------------------------------------------------------- floating-point attack
def test_numpy_laplace_outputs_reveal_the_true_value():
    released = laplace_mechanism(np.zeros(1000), 1.0, 1.0, rng=3)
    assert numpy_laplace_reachable(released, 0.0, 1.0).all()
    # Measured: about 80% of outputs cannot come from the neighbouring count 1.
    assert numpy_laplace_reachable(released, 1.0, 1.0).mean() < 0.35
    released_one = laplace_mechanism(np.ones(1000), 1.0, 0.5, rng=4)
    assert numpy_laplace_reachable(released_one, 1.0, 2.0).all()
    assert numpy_laplace_reachable(released_one, 0.0, 2.0).mean() < 0.35


def test_reachability_refuses_a_hopeless_search():
    with pytest.raises(ValueError, match="too large"):
        numpy_laplace_reachable([1e12], 1e12, 1e-6)


def test_power_of_two_granularity():
    assert power_of_two_granularity([0.75, 1.5, -2.25]) == 0.25
    assert power_of_two_granularity([8.0, 24.0]) == 8.0
    assert power_of_two_granularity([0.0]) == math.inf
    assert power_of_two_granularity([0.1]) == 2.0**-55  # 0.1 is 0x3FB999999999999A


def test_pydp_noise_lies_on_a_grid_numpy_noise_does_not():
    from pydp.algorithms.numerical_mechanisms import LaplaceMechanism

    mechanism = LaplaceMechanism(epsilon=1.0, sensitivity=1.0)
    for true_value in (0.0, 1.0):
        assert power_of_two_granularity([mechanism.add_noise(true_value) for _ in range(500)]) >= 2.0**-45
    assert power_of_two_granularity(laplace_mechanism(np.ones(500), 1.0, 1.0, rng=0)) < 2.0**-50


@pytest.mark.parametrize("call, name", [
    (lambda: pydp_repeat("count", [1.0], 1.0, 10**12), "repetitions"),
    (lambda: numpy_laplace_reachable([0.5], 0.0, 1.0, max_window=10**12), "max_window"),
])
def test_huge_counts_are_a_clear_error_not_a_memory_error(call, name):
    with pytest.raises(ValueError, match=f"{name}=.* is too large"):
        call()


@pytest.mark.parametrize("bad", [["person"], pd.Series(["person"]), np.array(["person"]), {"person"}])
def test_limit_contributions_needs_one_person_column(bad):
    log = pd.DataFrame({"person": ["a", "a", "b"], "amount": [1.0, 2.0, 3.0]})
    with pytest.raises(TypeError, match="person_column must be one column name"):
        limit_contributions(log, bad, 1, rng=0)


@pytest.mark.parametrize("call", [
    lambda e: make_pydp_algorithm("mean", e, 0.0, 1.0),
    lambda e: laplace_noise_halfwidth(e / 8, 1.0),
    lambda e: bounded_mean_noise_halfwidth(0.0, 1.0, e / 2, 10),
])
def test_an_epsilon_too_small_for_pydp_is_a_clear_error(call):
    with pytest.raises(ValueError, match="is too small for PyDP, which needs at least"):
        call(2.0**-49)


def test_accounted_pydp_refuses_a_tiny_epsilon_before_charging():
    accountant = PrivacyAccountant(1.0)
    with pytest.raises(ValueError, match="too small for PyDP"):
        AccountedPyDP(accountant).bounded_mean([1.0, 2.0], 0.0, 10.0, 1e-300)
    assert accountant.ledger == ()


@pytest.mark.parametrize("name", ["l0_sensitivity", "linf_sensitivity"])
def test_contribution_bounds_must_fit_pydps_integers(name):
    with pytest.raises(ValueError, match=f"{name}=.* is too large: PyDP takes a 32-bit integer"):
        make_pydp_algorithm("count", 1.0, **{name: 2**31})


def test_bounded_mean_rmse_needs_a_boolean_switch():
    with pytest.raises(TypeError, match="include_count_noise must be True or False"):
        bounded_mean_rmse([1.0, 2.0], 0.0, 3.0, 1.0, include_count_noise="yes")


def test_bounded_mean_noise_std_does_not_overflow():
    assert bounded_mean_noise_std(0.0, 1e300, 1e-10, 10) == math.inf
