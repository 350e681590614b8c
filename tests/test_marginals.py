"""Tests of the marginal-based synthetic data (MST teaching implementation) and public binning.

Privacy is tested three ways: the accounting formulas against the course's zCDP helpers, the
noise and selection distributions against their laws, and the course's audit on tiny
neighbouring pairs: the correct steps keep their claims, and two broken variants (bins taken
from the data, a pair chosen without noise) are caught. Statistical tests use fixed seeds;
each tolerance is stated next to its assertion.
"""

import math

import numpy as np
import pytest
from scipy import stats

from mic_dp_helpers.synthetic import marginals as M
from mic_dp_helpers.synthetic import tree_model as T
from mic_dp_helpers.accounting.gdp import gdp_delta
from mic_dp_helpers.accounting.ledger import BudgetExceededError, PrivacyAccountant, zcdp_rho_gaussian, zcdp_to_dp
from mic_dp_helpers.accounting.zcdp import zcdp_epsilon
from mic_dp_helpers.attacks.audit import audit_epsilon
from mic_dp_helpers.mechanisms.selection import exponential_mechanism
from mic_dp_helpers.synthetic.binning import discretize, equal_width_bins, quantile_bins, undiscretize
from mic_dp_helpers.synthetic.evaluation import two_way_tv
from mic_dp_helpers.synthetic.comparison import METHODS, compare_once

# ---------------------------------------------------------------------------------- binning


def test_equal_width_bins_use_only_the_bounds_and_discretize_clips():
    edges = equal_width_bins([0.0], [1.0], 4)
    values = np.array([[-5.0], [0.0], [0.2499], [0.25], [0.99], [1.0], [7.0]])
    assert discretize(values, edges).ravel().tolist() == [0, 0, 0, 1, 3, 3, 3]
    # A record's bin does not depend on the other records (it does with data-derived bins).
    assert discretize(values[:1], edges)[0, 0] == discretize(values, edges)[0, 0]
    rng = np.random.default_rng(0)
    data = rng.uniform(0, 1, size=(50, 1))
    moved = data.copy()
    moved[0] = 100.0  # one record replaced by an outlier
    assert (discretize(data, edges)[1:] == discretize(moved, edges)[1:]).all()
    assert not (discretize(data, quantile_bins(data, 4))[1:] == discretize(moved, quantile_bins(moved, 4))[1:]).all()


def test_undiscretize_stays_inside_each_bin():
    edges = equal_width_bins([0.0, 10.0], [16.0, 20.0], 4)
    codes = np.random.default_rng(1).integers(0, 4, size=(500, 2))
    values = undiscretize(codes, edges, rng=2)
    assert (discretize(values, edges) == codes).all()


@pytest.mark.parametrize("call, match", [
    (lambda: equal_width_bins([1.0], [1.0], 3), "lower bound must be < its upper bound"),
    (lambda: discretize([[0.5]], [[0.0, 1.0], [0.0, 1.0]]), "one array of bin edges per column"),
    (lambda: discretize([[0.5]], [[1.0, 0.0]]), "must be increasing"),
    (lambda: M.mst([[0, 5]], [2, 2], 1.0, 1e-6), "column 1 has codes outside 0..1"),
    (lambda: M.mst([[0.5, 1.0]], [2, 2], 1.0, 1e-6), "integer bin indices"),
    (lambda: M.mst([[0, 1]], [2, 2], 1.0, 1e-6, neighbours="swap"), "neighbours must be one of"),
    (lambda: M.mst([[0, 1]], [2, 2], 1.0, 1e-6, split=(0.5, 0.5, 0.5)), "three positive shares"),
])
def test_bad_input_names_the_argument(call, match):
    with pytest.raises(ValueError, match=match):
        call()


# ------------------------------------------------------------------------------- accounting


@pytest.mark.parametrize("epsilon", [0.05, 0.5, 1.0, 3.0, 10.0, 50.0])
@pytest.mark.parametrize("delta", [1e-10, 1e-6, 1e-3])
def test_zcdp_rho_for_inverts_the_tightest_conversion(epsilon, delta):
    """Canonne, Kamath & Steinke's conversion, never less rho than Bun & Steinke's closed form."""
    rho = M.zcdp_rho_for(epsilon, delta)
    assert zcdp_epsilon(rho, delta) <= epsilon
    assert zcdp_epsilon(rho, delta) == pytest.approx(epsilon, rel=1e-9)
    assert zcdp_to_dp(rho, delta) > epsilon  # more rho than the classic conversion allows


@pytest.mark.parametrize("neighbours, l2", [("add/remove", 1.0), ("replace", math.sqrt(2))])
@pytest.mark.parametrize("epsilon", [0.5, 1.0, 10.0])
def test_independent_marginals_are_charged_their_exact_gaussian_dp(neighbours, l2, epsilon):
    """Gaussian noise only: the exact Gaussian-DP curve (Dong, Roth & Su 2022) at the release's noise."""
    d, delta = 4, 1e-6
    accountant = PrivacyAccountant(epsilon, delta)
    meta = M.independent_marginals(np.zeros((50, d), dtype=int), [3] * d, epsilon, delta, neighbours=neighbours,
                                   rng=0, accountant=accountant).metadata
    mu = math.sqrt(d) * l2 / meta["sigma_one_way"]  # d histograms, each moved by l2
    assert gdp_delta(epsilon, mu) <= delta and gdp_delta(epsilon, mu) == pytest.approx(delta, rel=1e-6)
    assert accountant.ledger[-1].epsilon == meta["epsilon"] <= epsilon
    assert meta["epsilon"] == pytest.approx(epsilon, rel=1e-9)
    # tighter than charging the same noise through zCDP: less noise than MST's conversion would need
    assert meta["rho"] > M.zcdp_rho_for(epsilon, delta)


@pytest.mark.parametrize("neighbours, l2", [("add/remove", 1.0), ("replace", math.sqrt(2))])
def test_marginal_sigma_spends_exactly_rho(neighbours, l2):
    for rho, k in [(0.01, 1), (0.5, 31), (2.0, 7)]:
        sigma = M.marginal_sigma(rho, k, neighbours)
        # k histograms, each moved by l2 in L2 norm: the joint sensitivity is sqrt(k) * l2.
        assert zcdp_rho_gaussian(math.sqrt(k) * l2, sigma) == pytest.approx(rho, rel=1e-12)


def test_mst_spends_its_budget_in_three_steps_and_charges_the_ledger_first():
    rng = np.random.default_rng(0)
    codes = rng.integers(0, 3, size=(300, 5))
    accountant = PrivacyAccountant(2.0, 1e-5)
    release = M.mst(codes, [3] * 5, 1.0, 1e-6, neighbours="replace", rng=1, accountant=accountant)
    meta = release.metadata
    d = 5
    spent = (zcdp_rho_gaussian(math.sqrt(2 * d), meta["sigma_one_way"])  # d one-way histograms
             + (d - 1) * meta["epsilon_round"] ** 2 / 8  # d - 1 exponential mechanisms (Cesar & Rogers 2021)
             + zcdp_rho_gaussian(math.sqrt(2 * (d - 1)), meta["sigma_two_way"]))  # d - 1 pair tables
    assert spent == pytest.approx(meta["rho"], rel=1e-9)
    assert meta["epsilon"] <= 1.0 and accountant.ledger[-1].epsilon == meta["epsilon"]
    assert len(release) == 300  # n is public under replace-one
    # A release that does not fit is refused before anything touches the data or the generator.
    generator = np.random.default_rng(5)
    state = generator.bit_generator.state
    with pytest.raises(BudgetExceededError):
        M.mst(codes, [3] * 5, 1.5, 1e-6, neighbours="replace", rng=generator, accountant=accountant)
    assert generator.bit_generator.state == state and len(accountant.ledger) == 1


# ----------------------------------------------------------------------- the noise and selection


def test_one_way_noise_is_gaussian_with_the_stated_sd_and_independent_across_cells():
    codes = np.array([[0], [1], [1], [2]])
    draws = np.array([np.concatenate(M.measure_one_way(codes, [3], 2.5, rng)) for rng in
                      [np.random.default_rng(s) for s in range(2000)]])
    noise = draws - np.array([1, 2, 1])
    for cell in range(3):  # KS test: p < 1e-3 would be a false failure with probability 1e-3 per cell
        assert stats.kstest(noise[:, cell] / 2.5, "norm").pvalue > 1e-3
    assert abs(np.corrcoef(noise.T)[0, 1]) < 0.1  # |r| of independent cells: sd 1/sqrt(2000) = 0.022


def test_select_tree_returns_a_spanning_tree_and_finds_strong_pairs():
    rng = np.random.default_rng(3)
    x = rng.integers(0, 3, 2000)
    z = rng.integers(0, 2, 2000)
    codes = np.column_stack([x, rng.integers(0, 2, 2000), z, x, 1 - z])  # pairs (0, 3) and (2, 4) are copies
    one_way = M.measure_one_way(codes, [3, 2, 2, 3, 2], 1.0, rng)
    tree = M.select_tree(codes, [3, 2, 2, 3, 2], one_way, epsilon_round=5.0, rng=rng)
    assert len(tree) == 4 and len({c for edge in tree for c in edge}) == 5  # d - 1 edges touching every column
    assert {(0, 3), (2, 4)} <= set(tree)


def test_fitted_tree_agrees_with_its_one_way_marginals():
    rng = np.random.default_rng(4)
    codes = rng.integers(0, 4, size=(400, 4))
    codes[:, 1] = (codes[:, 0] + rng.integers(0, 2, 400)) % 4
    one_way = M.measure_one_way(codes, [4] * 4, 3.0, rng)
    tables = {(0, 1): np.histogram2d(codes[:, 0], codes[:, 1], bins=4, range=[[0, 4], [0, 4]])[0]
              + rng.normal(0, 3.0, (4, 4)),
              (1, 2): np.histogram2d(codes[:, 1], codes[:, 2], bins=4, range=[[0, 4], [0, 4]])[0]
              + rng.normal(0, 3.0, (4, 4))}
    model = T.fit_tree(one_way, [(0, 1), (1, 2)], tables, 3.0, 3.0)
    for child, parent in model.parent.items():
        cond = model.conditionals[child]
        assert (cond >= 0).all() and np.allclose(cond.sum(axis=1), 1.0)
        # The pair's joint has both one-way marginals of the model (IPF makes them consistent).
        joint = model.marginals[parent][:, None] * cond
        assert np.allclose(joint.sum(axis=0), model.marginals[child], atol=1e-6)


def test_mst_with_a_large_budget_reproduces_the_pairs_and_beats_independence():
    rng = np.random.default_rng(6)
    x = rng.integers(0, 3, 3000)
    codes = np.column_stack([x, (x + rng.integers(0, 2, 3000)) % 3, rng.integers(0, 2, 3000), x % 2])
    sizes = [3, 3, 2, 2]
    fresh = np.column_stack([x2 := rng.integers(0, 3, 3000), (x2 + rng.integers(0, 2, 3000)) % 3,
                             rng.integers(0, 2, 3000), x2 % 2])
    floor = two_way_tv(codes, fresh, sizes)  # two real samples differ this much
    tv_mst = two_way_tv(M.mst(codes, sizes, 20.0, 1e-6, rng=7).codes, codes, sizes)
    tv_ind = two_way_tv(M.independent_marginals(codes, sizes, 20.0, 1e-6, rng=7).codes, codes, sizes)
    assert tv_mst < 2 * floor + 0.01 < tv_ind


# ------------------------------------------------------------------------------------ audits
A_VALUES = np.array([[0.45]] * 20 + [[0.55]] * 20 + [[0.0]])
B_VALUES = np.array([[0.45]] * 20 + [[0.55]] * 20 + [[1.0]])  # replace one record
RHO_AUDIT, DELTA_AUDIT = 1.0, 1e-5
SIGMA_AUDIT = M.marginal_sigma(RHO_AUDIT, 1, "replace")
EPS_CLAIM = zcdp_epsilon(RHO_AUDIT, DELTA_AUDIT)  # 7.1: the claim, with the conversion MST is charged


@pytest.mark.slow
def test_audit_one_way_measurement_keeps_its_claim_and_catches_bins_from_the_data():
    public = M.one_way_audit_mechanism(SIGMA_AUDIT, 0.0, 1.0, 2)
    from_data = M.one_way_audit_mechanism(SIGMA_AUDIT, 0.0, 1.0, 2, bins_from_data=True)
    kept = audit_epsilon(public, A_VALUES, B_VALUES, n_samples=50_000, rng=0, delta=DELTA_AUDIT)
    broken = audit_epsilon(from_data, A_VALUES, B_VALUES, n_samples=50_000, rng=0, delta=DELTA_AUDIT)
    assert not kept.refutes(EPS_CLAIM)
    assert broken.refutes(EPS_CLAIM)  # its outputs on A and B never overlap: the bound is limited by samples only


def _neighbouring_pair_that_flips_the_best_pair():
    """Two codes tables differing in one record whose highest-scoring pair differs (found by a seeded search)."""
    one_way = [np.array([10.0, 10.0])] * 3  # already released: the same for both datasets
    rng = np.random.default_rng(0)
    for _ in range(10_000):
        a = rng.integers(0, 2, size=(20, 3))
        b = a.copy()
        b[rng.integers(20)] = rng.integers(0, 2, 3)
        sa, sb = M.pair_scores(a, [2] * 3, one_way)[1], M.pair_scores(b, [2] * 3, one_way)[1]
        if len(set(sa)) == 3 and len(set(sb)) == 3 and np.argmax(sa) != np.argmax(sb):
            return a, b, one_way
    raise AssertionError("no pair found")


@pytest.mark.slow
def test_audit_selection_keeps_its_claim_and_catches_a_pair_chosen_without_noise():
    a, b, one_way = _neighbouring_pair_that_flips_the_best_pair()
    eps_round = 1.0

    def noisy(codes, size, rng):
        scores = M.pair_scores(codes, [2] * 3, one_way)[1]
        return exponential_mechanism(scores, 2.0, eps_round, rng, size=size).astype(float)

    def argmax(codes, size, rng):
        return np.full(size, float(np.argmax(M.pair_scores(codes, [2] * 3, one_way)[1])))

    kept = audit_epsilon(noisy, a, b, n_samples=50_000, rng=1)
    broken = audit_epsilon(argmax, a, b, n_samples=50_000, rng=1)
    assert not kept.refutes(eps_round)
    assert broken.refutes(eps_round) and broken.epsilon_lower_bound > 5


# -------------------------------------------------------------------------------- comparison


def test_compare_once_scores_every_method_on_the_same_split():
    rows = compare_once("breast_cancer", 10.0, 1e-6, rng=0)
    assert [r["method"] for r in rows] == list(METHODS)
    tv = {r["method"]: r["tv"] for r in rows}
    assert tv["real data"] < tv["MST"] < tv["3A, random groups"]
    assert all(0 <= r["score"] <= 1 for r in rows)


def test_add_remove_release_estimates_n_from_the_noisy_marginals():
    codes = np.random.default_rng(8).integers(0, 2, size=(1000, 3))
    release = M.independent_marginals(codes, [2, 2, 2], 5.0, 1e-6, rng=0)  # add/remove: n is not public
    sigma = release.metadata["sigma_one_way"]
    # The size is the mean of 3 noisy totals, each with sd sigma * sqrt(2): 5 sd of that mean.
    assert abs(len(release) - 1000) < 5 * sigma * math.sqrt(2 / 3)
    assert release.metadata["neighbours"] == "add/remove" and "not assumed public" in release.metadata["assumptions"][1]


def test_compare_groupings_releases_every_grouping_or_says_none_fits():
    from mic_dp_helpers.synthetic.evaluation import load_task
    from mic_dp_helpers.synthetic.comparison import GROUPING_RELEASES, compare_groupings

    rows, releases = compare_groupings("breast_cancer", (10.0,), 1e-6, 0, task=load_task("breast_cancer"))
    assert {label for _, label in releases} == set(GROUPING_RELEASES)
    assert {r["release"] for r in rows} == {"real data", *GROUPING_RELEASES}
    assert releases[(10.0, "random groups")].metadata["differentially_private"]
    assert not releases[(10.0, "ClustMix (paper)")].metadata["differentially_private"]


def test_a_failure_that_depends_on_the_values_is_charged_and_one_that_does_not_is_free():
    accountant = PrivacyAccountant(10.0, 1e-4)
    with pytest.raises(ValueError, match="three positive shares"):  # a bad argument: nothing read, nothing spent
        M.mst([[0, 1]], [2, 2], 1.0, 1e-6, split=(1.0, 1.0, 1.0), accountant=accountant)
    assert len(accountant.ledger) == 0
    with pytest.raises(ValueError, match="codes outside"):  # whether a value is out of range depends on the data
        M.mst([[0, 7]], [2, 2], 1.0, 1e-6, accountant=accountant)
    assert len(accountant.ledger) == 1


@pytest.mark.parametrize("neighbours", ["add/remove", "replace"])
def test_opendp_charges_the_same_rho_for_the_one_way_measurement(neighbours):
    # The library way (OpenDP's Gaussian measurement on the vector of all counts) agrees with the teaching code.
    dp = pytest.importorskip("opendp.prelude")
    dp.enable_features("contrib")
    d, rho = 31, 0.0175 / 3
    sigma = M.marginal_sigma(rho, d, neighbours)
    l2, _ = M.NEIGHBOURS[neighbours]
    space = dp.vector_domain(dp.atom_domain(T=float, nan=False)), dp.l2_distance(T=float)
    measurement = space >> dp.m.then_gaussian(scale=sigma)
    assert measurement.map(math.sqrt(d) * l2) == pytest.approx(rho, rel=1e-9)


@pytest.mark.parametrize("release", [M.mst, M.independent_marginals])
@pytest.mark.parametrize("bad_rng", ["seed", 1.5, True, [1]])
def test_bad_rng_is_refused_before_the_ledger_is_charged(release, bad_rng):
    ledger = PrivacyAccountant(10.0, 1e-3)
    with pytest.raises(TypeError, match="rng must be None"):
        release([[0, 1], [1, 0]] * 20, [2, 2], epsilon=1.0, delta=1e-6, rng=bad_rng, accountant=ledger)
    assert ledger.spent_epsilon == 0.0 and ledger.ledger == ()


@pytest.mark.parametrize("release", [M.mst, M.independent_marginals])
def test_huge_n_synthetic_is_refused_before_the_ledger_is_charged(release):
    ledger = PrivacyAccountant(10.0, 1e-3)
    with pytest.raises(ValueError, match="n_synthetic=.* is too large"):
        release([[0, 1], [1, 0]] * 20, [2, 2], epsilon=1.0, delta=1e-6, n_synthetic=10**12, rng=0,
                accountant=ledger)
    assert ledger.spent_epsilon == 0.0


@pytest.mark.parametrize("bad_model", [None, "model", {"marginals": []}])
def test_sample_tree_rejects_a_non_model(bad_model):
    with pytest.raises(TypeError, match="model must be a TreeModel"):
        T.sample_tree(bad_model, 3, rng=0)


def test_sample_tree_rejects_huge_n():
    model = T.fit_tree([np.array([1.0, 0.0]), np.array([1.0, 1.0])], [], {})
    with pytest.raises(ValueError, match="n=.* is too large"):
        T.sample_tree(model, 10**12, rng=0)


@pytest.mark.parametrize("call, name", [
    (lambda huge: M.pair_counts([[0, 1]], [huge, 2]), r"sizes\[0\]"),
    (lambda huge: M.pair_counts([[0, 1]], [10**5, 2]), r"sum\(sizes\)"),  # the pair table is sum(sizes) squared
    (lambda huge: M.measure_one_way([[0, 1]], [huge, 2], 1.0, rng=0), r"sizes\[0\]"),
    (lambda huge: M.one_way_audit_mechanism(1.0, 0.0, 1.0, huge), "n_bins"),
    (lambda huge: M.one_way_audit_mechanism(1.0, 0.0, 1.0, 3)(np.array([[0.2]]), huge, np.random.default_rng(0)),
     "size"),
])
def test_huge_sizes_are_a_clear_error_not_a_memory_error(call, name):
    with pytest.raises(ValueError, match=f"{name}=.* is too large"):
        call(10**12)


@pytest.mark.parametrize("release", [M.mst, M.independent_marginals])
def test_huge_domain_sizes_are_refused_before_the_ledger_is_charged(release):
    ledger = PrivacyAccountant(10.0, 1e-3)
    with pytest.raises(ValueError, match=r"sizes\[0\]=.* is too large"):
        release([[0, 1]] * 5, [10**12, 2], 1.0, 1e-6, rng=0, accountant=ledger)
    assert ledger.ledger == ()


def test_pair_counts_counts_in_blocks_of_rows(monkeypatch):
    monkeypatch.setattr(M, "_ONE_HOT_CELLS", 50)  # blocks of 5 rows of 9 one-hot cells
    codes = np.random.default_rng(0).integers(0, 3, size=(503, 3))
    table, offsets = M.pair_counts(codes, [3, 3, 3])
    expected = np.zeros((3, 3))
    np.add.at(expected, (codes[:, 0], codes[:, 2]), 1.0)
    assert np.array_equal(table[offsets[0]:offsets[1], offsets[2]:offsets[3]], expected)


@pytest.mark.parametrize("call", [
    lambda v: M.marginal_sigma(1.0, 2, v),
    lambda v: M.mst([[0, 1]] * 5, [2, 2], 1.0, 1e-6, neighbours=v, rng=0),
    lambda v: M.select_tree([[0, 1]] * 5, [2, 2], [np.ones(2), np.ones(2)], 1.0, v, rng=0),
])
def test_neighbours_that_are_not_a_string_are_a_clear_error(call):
    for bad in (np.array(["replace"]), ["replace"], None):
        with pytest.raises(TypeError, match="neighbours must be one of .* \\(a string\\)"):
            call(bad)


@pytest.mark.parametrize("sizes", [None, 5, "22", [[2, 2]], {"a": 2}])
def test_sizes_must_be_a_list_of_domain_sizes(sizes):
    with pytest.raises(TypeError, match="sizes must be a list with one domain size"):
        M.pair_counts([[0, 1]], sizes)


def test_zcdp_rho_for_huge_epsilon_does_not_overflow():
    assert M.zcdp_rho_for(1e300, 1e-6) == pytest.approx(1e300, rel=1e-6)


_CODES = np.array([[0, 1, 2], [1, 0, 1], [1, 1, 0]] * 6)


@pytest.mark.parametrize("one_way, error, match", [
    (None, TypeError, "one_way must be a non-empty list with one array of noisy counts per column"),
    ([], TypeError, "one_way must be a non-empty list"),
    ([np.ones(2)] * 2, ValueError, "one_way has 2 arrays but there are 3 columns"),
    ([np.ones(2), np.ones(2), np.ones(2)], ValueError, r"one_way\[2\] must be a 1-D array of 3 counts"),
    ([np.ones(2), np.ones(2), np.full(3, np.nan)], ValueError, r"one_way\[2\] contains NaN"),
    ([np.ones(2), np.ones(2), ["a", "b", "c"]], TypeError, r"one_way\[2\] must be numeric"),
])
def test_pair_scores_and_select_tree_check_the_one_way_counts(one_way, error, match):
    with pytest.raises(error, match=match):
        M.pair_scores(_CODES, [2, 2, 3], one_way)
    with pytest.raises(error, match=match):
        M.select_tree(_CODES, [2, 2, 3], one_way, 1.0, rng=0)


@pytest.mark.parametrize("edges, tables, error, match", [
    (None, {}, TypeError, r"edges must be a list of \(i, j\) pairs"),
    (np.array(2.0), {}, TypeError, r"edges must be a list of \(i, j\) pairs"),
    ([(0, 5)], {(0, 1): np.ones((2, 2))}, ValueError, "every edge must be a pair"),
    ([(0, 0)], {(0, 1): np.ones((2, 2))}, ValueError, "every edge must be a pair"),
    ([(0, 1)], {}, KeyError, r"pair_tables has no noisy table for the edge \(0, 1\)"),
    ([(0, 1)], None, TypeError, "pair_tables must be a dict"),
    ([(0, 1)], {(0, 1): np.ones((3, 3))}, ValueError, r"pair_tables\[\(0, 1\)\] must have shape \(2, 2\)"),
    ([(0, 1)], {(0, 1): "x"}, TypeError, r"pair_tables\[\(0, 1\)\] must be numeric"),
])
def test_fit_tree_checks_edges_and_pair_tables(edges, tables, error, match):
    with pytest.raises(error, match=match):
        T.fit_tree([np.ones(2), np.ones(2)], edges, tables)


@pytest.mark.parametrize("call, error, match", [
    (lambda mech: mech(["a", "b"], 3, np.random.default_rng(0)), TypeError, "values must be numeric"),
    (lambda mech: mech([[np.nan]], 3, np.random.default_rng(0)), ValueError, "values contains NaN"),
    (lambda mech: mech([[0.2]], 3, "seed"), TypeError, "rng must be None"),
])
def test_one_way_audit_mechanism_checks_its_calls(call, error, match):
    with pytest.raises(error, match=match):
        call(M.one_way_audit_mechanism(1.0, 0.0, 1.0, 3))


def test_one_way_audit_mechanism_needs_a_boolean_switch():
    with pytest.raises(TypeError, match="bins_from_data must be True or False"):
        M.one_way_audit_mechanism(1.0, 0.0, 1.0, 3, bins_from_data="yes")
