"""Wrong answers to lesson 05's exercises: each a mistake a student could make, and each must be rejected."""

import math

import numpy as np
import pandas as pd
from sklearn.feature_selection import mutual_info_regression

from mic_dp_helpers.micdp import allocation
from mic_dp_helpers.micdp import published as micdp
from mic_dp_helpers.micdp import relevance
from mic_dp_helpers.accounting.ledger import split_epsilon
from mic_dp_helpers.attacks.audit import audit_epsilon
from wrong_answers._cheats import cheats


# ------------------------------------------------------------------------------------ 05.1
def _mic(X, y, est="mic_approx", alpha=0.6):
    import minepy  # built from source (scripts/build_minepy.sh); imported only when used

    mine = minepy.MINE(alpha=alpha, c=15, est=est)
    scores = {}
    for column in X.columns:
        mine.compute_score(X[column].to_numpy(dtype=float), np.asarray(y, dtype=float))
        scores[column] = mine.mic()
    return pd.Series(scores)


def _pearson_ranked(X, y):
    return X.corrwith(pd.Series(np.asarray(y, dtype=float), index=X.index)).abs().sort_values(ascending=False)


def _mutual_information_ranked(X, y):  # what the published package calls "MIC"
    values = mutual_info_regression(X.to_numpy(dtype=float), np.asarray(y, dtype=float), random_state=0)
    return pd.Series(values, index=X.columns).sort_values(ascending=False)


# ------------------------------------------------------------------------------------ 05.2
def _weights_split(relevance, total, weights):
    return total * weights / weights.sum()


def _no_floor(relevance, total, floor):
    scores = relevance.clip(lower=0)
    return _weights_split(relevance, total, scores / scores.max())


def _inverted(relevance, total, floor):  # the published mapping: the most relevant gets the least
    scores = relevance.clip(lower=0)
    top = scores.max() if scores.max() > 0 else 1.0
    return _weights_split(relevance, total, floor + (1 - floor) * (1 - scores / top))


def _not_normalized(relevance, total, floor):
    scores = relevance.clip(lower=0)
    top = scores.max() if scores.max() > 0 else 1.0
    return total * (floor + (1 - floor) * scores / top)


def _min_max(relevance, total, floor):
    span = relevance.max() - relevance.min()
    normalized = (relevance - relevance.min()) / span if span > 0 else relevance * 0 + 1.0
    return _weights_split(relevance, total, floor + (1 - floor) * normalized)


def _negative_kept(relevance, total, floor):  # forgets to treat negative scores as 0
    top = relevance.max() if relevance.max() > 0 else 1.0
    normalized = relevance / top if relevance.max() > 0 else relevance * 0 + 1.0
    return _weights_split(relevance, total, floor + (1 - floor) * normalized)


# ------------------------------------------------------------------------------------ 05.4
def _n_columns(release, dataset):
    return np.asarray(release(dataset, 1, np.random.default_rng(0))).shape[1]


def _column_bounds(release, dataset_a, dataset_b):
    bounds = []
    for j in range(_n_columns(release, dataset_a)):
        result = audit_epsilon(lambda data, size, rng, j=j: release(data, size, rng)[:, j], dataset_a, dataset_b,
                               n_samples=20_000, rng=j)
        bounds.append(result.epsilon_lower_bound)
    return bounds


def _joint_audit(release, dataset_a, dataset_b, claimed):
    result = audit_epsilon(release, dataset_a, dataset_b, n_samples=20_000, rng=0)
    return list(range(_n_columns(release, dataset_a))) if result.refutes(claimed) else []


def _any_positive_bound(release, dataset_a, dataset_b, claimed):
    return [j for j, bound in enumerate(_column_bounds(release, dataset_a, dataset_b)) if bound > 0]


def _worst_only(release, dataset_a, dataset_b, claimed):
    bounds = _column_bounds(release, dataset_a, dataset_b)
    worst = int(np.argmax(bounds))
    return [worst] if bounds[worst] > claimed else []


def _claim_per_column(release, dataset_a, dataset_b, claimed):  # compares with the claim split over columns
    bounds = _column_bounds(release, dataset_a, dataset_b)
    return [j for j, bound in enumerate(bounds) if bound > claimed / len(bounds)]


def _half_claim(release, dataset_a, dataset_b, claimed):  # flags bounds above half the claim
    return [j for j, bound in enumerate(_column_bounds(release, dataset_a, dataset_b)) if bound > claimed / 2]


def _noiseless_only(release, dataset_a, dataset_b, claimed):  # only columns that never vary
    out = np.asarray(release(dataset_a, 50, np.random.default_rng(0)))
    return [j for j in range(out.shape[1]) if np.ptp(out[:, j]) == 0]


def _epsilon_from_spread(release, dataset_a, dataset_b, claimed):
    """Estimates each column's Laplace scale from its spread (sd = sqrt(2) b) and flags 1 / b above the claim:
    it finds missing or small noise, but not noise that is left out of a few releases."""
    outputs = np.asarray(release(dataset_a, 20_000, np.random.default_rng(0)), dtype=float)
    spread = outputs.std(axis=0)
    return [j for j in range(outputs.shape[1]) if spread[j] == 0 or np.sqrt(2) / spread[j] > claimed]


def _weights(relevance, floor):
    scores = relevance.clip(lower=0.0)
    top = scores.max()
    return floor + (1.0 - floor) * (scores / top if top > 0 else scores * 0.0 + 1.0)


def _float_split(relevance, total, floor):  # overspends by rounding on some inputs (lesson 04: exact addition)
    weights = _weights(relevance, floor)
    return total * weights / weights.sum()


def _float_shares_times_total(relevance, total, floor):  # the same, normalising first
    weights = _weights(relevance, floor)
    return (weights / weights.sum()) * total


def _tolerated_overspend(relevance, total, floor):  # a relative 1e-12 over the total, "within tolerance"
    weights = _weights(relevance, floor)
    return total * (1 + 1e-12) * weights / weights.sum()


def _last_part_takes_the_rest(relevance, total, floor):  # float remainder: the exact sum can exceed the total
    weights = _weights(relevance, floor)
    parts = (total * weights / weights.sum()).to_numpy().copy()
    parts[-1] = total - math.fsum(parts[:-1])
    return pd.Series(parts, index=relevance.index) if parts[-1] > 0 else _float_split(relevance, total, floor)


def _audit_columns(release, dataset_a, dataset_b, n_samples, flag):
    n_columns = np.asarray(release(dataset_a, 1, np.random.default_rng(0))).shape[1]
    flawed = []
    for j in range(n_columns):
        def column_j(data, size, rng, j=j):
            return release(data, size, rng)[:, j]

        if flag(audit_epsilon(column_j, dataset_a, dataset_b, n_samples=n_samples, rng=j)):
            flawed.append(j)
    return flawed


def _few_samples(n_samples):  # a real bound, but too few samples to refute a column at 1.45-1.5 times the claim
    return lambda release, a, b, claimed: _audit_columns(release, a, b, n_samples, lambda r: r.refutes(claimed))


def _point_estimate(release, dataset_a, dataset_b, claimed):  # the event's frequency ratio, no confidence bound
    def flag(result):
        ratio = max(result.count_a, 1) / max(result.count_b, 1)
        return abs(math.log(ratio)) > claimed
    return _audit_columns(release, dataset_a, dataset_b, 20_000, flag)


def _spread_rule(estimate, margin, repeats):
    """Flags a column when ``estimate`` (an epsilon read from its spread, assuming Laplace noise) exceeds
    ``margin`` times the claim, or, with ``repeats``, when its releases repeat a value ("repeats" counts any
    repeat, "true value" releases equal to the true value in more than 1 of 1,000): no audit at all."""
    def flawed_features(release, dataset_a, dataset_b, claimed):
        released = np.asarray(release(dataset_a, 20_000, np.random.default_rng(1)), dtype=float)
        other = np.asarray(release(dataset_b, 20_000, np.random.default_rng(2)), dtype=float)
        flagged = []
        for j in range(released.shape[1]):
            x = released[:, j]
            gap = abs(np.median(other[:, j]) - np.median(x)) or abs(dataset_a[0, j] - dataset_b[0, j])
            scale = estimate(x)
            atom = {"repeats": np.unique(x).size < x.size, "true value": np.mean(x == dataset_a[0, j]) > 0.001,
                    None: False}[repeats]
            if atom or scale == 0 or gap / scale > margin * claimed:
                flagged.append(j)
        return flagged
    return flawed_features


def _mad(x):  # Laplace: mean |x - median| = b
    return float(np.mean(np.abs(x - np.median(x))))


def _sd(x):  # Laplace: sd = sqrt(2) b
    return float(np.std(x)) / math.sqrt(2)


def _iqr(x):  # Laplace: IQR = 2 ln 2 b
    return float(np.subtract(*np.percentile(x, [75, 25]))) / (2 * math.log(2))


def point_estimate_no_audit(release, dataset_a, dataset_b, claimed):
    """The referee's heuristic (/tmp/ref0506/w054.py): epsilon estimated as 1 / (mean absolute deviation),
    plus an exact-value test, flagged when the estimate exceeds the claim: no confidence bound. The near-claim
    case's mixture column (estimate 0.76-0.80 claims) makes it fail at every seed."""
    released = release(dataset_a, 20_000, np.random.default_rng(1))
    flagged = []
    for j in range(released.shape[1]):
        gap = abs(dataset_a[0, j] - dataset_b[0, j])
        spread = np.mean(np.abs(released[:, j] - np.median(released[:, j])))
        atom = np.mean(released[:, j] == dataset_a[0, j]) > 0.001
        if atom or spread == 0 or gap / spread > claimed:
            flagged.append(j)
    return flagged


def _bound_above(multiple):  # a real audit, but compared with a multiple of the claim
    return lambda release, a, b, claimed: _audit_columns(release, a, b, 20_000,
                                                         lambda r: r.epsilon_lower_bound > multiple * claimed)


def _audit_columns_with(n_samples=20_000, flag=lambda result, claimed: result.refutes(claimed), **arguments):
    """Audits every column once, as the exercise asks, but with ``audit_epsilon`` arguments or a flag rule of
    its own."""
    def flawed_features(release, dataset_a, dataset_b, claimed):
        flagged = []
        for j in range(_n_columns(release, dataset_a)):
            result = audit_epsilon(lambda data, size, rng, j=j: release(data, size, rng)[:, j], dataset_a, dataset_b,
                                   n_samples=n_samples, rng=j, **arguments)
            if flag(result, claimed):
                flagged.append(j)
        return flagged
    return flawed_features


def _point_estimate_scanned(release, dataset_a, dataset_b, claimed):
    """The largest |log ratio| of event counts over thresholds and repeated values, on one set of 20,000
    releases per side: no confidence bound, and the events chosen on the counts they are judged by."""
    flagged = []
    for j in range(_n_columns(release, dataset_a)):
        xa = release(dataset_a, 20_000, np.random.default_rng(2 * j))[:, j]
        xb = release(dataset_b, 20_000, np.random.default_rng(2 * j + 1))[:, j]
        both = np.concatenate([xa, xb])
        values, counts = np.unique(both, return_counts=True)
        events = [both <= t for t in np.quantile(both, np.linspace(0.01, 0.99, 99))] + [
            both == v for v in values[counts > 1][:20]]
        best = 0.0
        for event in events:
            for ca, cb in ((event[:xa.size].sum(), event[xa.size:].sum()),
                           ((~event[:xa.size]).sum(), (~event[xa.size:]).sum())):
                if ca > 0 and cb > 0:
                    best = max(best, abs(math.log(ca / cb)))
                elif ca + cb > 0:
                    best = math.inf
        if best > claimed:
            flagged.append(j)
    return flagged


def _same_noise(kind):
    """Audits each column, but both datasets get the same noise: ``"seed"`` seeds a new generator with the same
    number in every call, ``"reset"`` hands release a copy of the generator's starting state."""
    def flawed_features(release, dataset_a, dataset_b, claimed):
        flagged = []
        for j in range(_n_columns(release, dataset_a)):
            start = np.random.default_rng(j).bit_generator.state

            def column_j(data, size, rng, j=j):
                if kind == "seed":
                    return release(data, size, np.random.default_rng(j))[:, j]
                generator = np.random.default_rng()
                generator.bit_generator.state = start
                return release(data, size, generator)[:, j]

            if audit_epsilon(column_j, dataset_a, dataset_b, n_samples=20_000, rng=j).refutes(claimed):
                flagged.append(j)
        return flagged
    return flawed_features


def _b_from_a(release, dataset_a, dataset_b, claimed):
    """Draws dataset_a's releases once and makes dataset_b's by moving them by the difference of the rows."""
    shift = np.asarray(dataset_b, dtype=float)[0] - np.asarray(dataset_a, dataset_b.dtype)[0]
    flagged = []
    for j in range(_n_columns(release, dataset_a)):
        xa = release(dataset_a, 20_000, np.random.default_rng(j))[:, j]

        def column_j(data, size, rng, j=j, xa=xa):
            return xa[:size] if data is dataset_a else xa[:size] + shift[j]

        if audit_epsilon(column_j, dataset_a, dataset_b, n_samples=20_000, rng=j).refutes(claimed):
            flagged.append(j)
    return flagged


def _retried(tries):
    """Audits each column up to ``tries`` times (new seeds) and flags it as soon as one audit refutes."""
    def flawed_features(release, dataset_a, dataset_b, claimed):
        flagged = []
        for j in range(_n_columns(release, dataset_a)):
            column_j = lambda data, size, rng, j=j: release(data, size, rng)[:, j]  # noqa: E731
            if any(audit_epsilon(column_j, dataset_a, dataset_b, n_samples=20_000, rng=100 * t + j).refutes(claimed)
                   for t in range(tries)):
                flagged.append(j)
        return flagged
    return flawed_features


def _both_directions(only_if_needed):
    """Audits (A, B) and (B, A) and keeps the larger bound; with ``only_if_needed`` the second audit runs only
    when the first does not refute."""
    def flawed_features(release, dataset_a, dataset_b, claimed):
        flagged = []
        for j in range(_n_columns(release, dataset_a)):
            column_j = lambda data, size, rng, j=j: release(data, size, rng)[:, j]  # noqa: E731
            forward = audit_epsilon(column_j, dataset_a, dataset_b, n_samples=20_000, rng=j)
            if only_if_needed and forward.refutes(claimed):
                flagged.append(j)
                continue
            backward = audit_epsilon(column_j, dataset_b, dataset_a, n_samples=20_000, rng=1_000 + j)
            if max(forward.epsilon_lower_bound, backward.epsilon_lower_bound) > claimed:
                flagged.append(j)
        return flagged
    return flawed_features


def _some_columns(which):
    """A correct audit of only some columns: ``"half"`` the first half, an int the first that many."""
    def flawed_features(release, dataset_a, dataset_b, claimed):
        n = _n_columns(release, dataset_a)
        audited = range(n // 2) if which == "half" else range(min(n, which))
        return [j for j in _audit_columns_with()(_first_columns(release, max(audited, default=-1) + 1),
                                                   dataset_a, dataset_b, claimed) if j in audited]
    return flawed_features


def _first_columns(release, k):
    return lambda data, size, rng: release(data, size, rng)[:, :max(k, 1)]


WRONG_ANSWERS = {
    "05.1": {
        "absolute Pearson instead of MIC": _pearson_ranked,
        "ranked least relevant first": lambda X, y: _mic(X, y).sort_values(ascending=True),
        "MIC_e estimator": lambda X, y: _mic(X, y, est="mic_e").sort_values(ascending=False),
        "mutual information (the published 'MIC')": _mutual_information_ranked,
        "not ranked": lambda X, y: _mic(X, y).sort_index(),
        "a dict, not a Series": lambda X, y: _mic(X, y).sort_values(ascending=False).to_dict(),
        **cheats(_pearson_ranked, forbidden=lambda X, y: relevance.mic_relevance(X, y).sort_values(ascending=False)),
    },
    "05.2": {
        "no floor: irrelevant features get nothing": _no_floor,
        "published mapping (most relevant gets least)": _inverted,
        "weights not scaled to the total": _not_normalized,
        "min-max normalization": _min_max,
        "negative scores not set to 0": _negative_kept,
        "equal split": lambda relevance, total, floor: relevance * 0 + total / len(relevance),
        "float proportional split (overspends by rounding)": _float_split,
        "float shares times the total (overspends by rounding)": _float_shares_times_total,
        "overspends by a relative 1e-12": _tolerated_overspend,
        "last part takes the float remainder": _last_part_takes_the_rest,
        **cheats(_no_floor, forbidden=lambda scores, total, floor: allocation.plan_budget(scores, total, floor=floor)),
    },
    "05.3": {
        "inf for factors below 1e-3 (referee)": lambda factors, epsilon: factors.apply(
            lambda f: math.inf if f < 1e-3 else epsilon * (1 + f) / f),
        "ignores the doubled value (epsilon / f)": lambda factors, epsilon: factors.apply(
            lambda f: math.inf if f == 0 else epsilon / f),
        "epsilon times f": lambda factors, epsilon: factors * epsilon,
        "the claim for every feature": lambda factors, epsilon: factors * 0 + epsilon,
        "finite epsilon for an exact release": lambda factors, epsilon: factors.apply(
            lambda f: epsilon if f == 0 else epsilon * (1 + f) / f),
        "forgets epsilon": lambda factors, epsilon: factors.apply(lambda f: math.inf if f == 0 else (1 + f) / f),
        "inverted ratio": lambda factors, epsilon: factors.apply(lambda f: math.inf if f == 0 else epsilon * f / (1 + f)),
        **cheats(lambda factors, epsilon: factors * 0 + epsilon, forbidden=micdp.effective_epsilons),
    },
    "05.4": {
        "one joint audit flags every column": _joint_audit,
        "any positive bound counts as a flaw": _any_positive_bound,
        "only the worst column": _worst_only,
        "never finds anything": lambda release, dataset_a, dataset_b, claimed: [],
        "column names as strings": lambda release, dataset_a, dataset_b, claimed: ["0"],
        "compares with the claim divided by the number of columns": _claim_per_column,
        "flags bounds above half the claim": _half_claim,
        "only the columns without noise": _noiseless_only,
        "epsilon estimated from each column's spread, no audit": _epsilon_from_spread,
        "audit with 1,000 samples per column": _few_samples(1_000),
        "point estimate of the audit's event (no confidence bound)": _point_estimate,
        "epsilon from the mean absolute deviation, exact-value test (referee)": point_estimate_no_audit,
        "epsilon from the mean absolute deviation, margin 1.3, repeat test (referee)": _spread_rule(_mad, 1.3, "repeats"),
        "epsilon from the mean absolute deviation, margin 1.2, repeat test (referee)": _spread_rule(_mad, 1.2, "repeats"),
        "epsilon from the mean absolute deviation, margin 1.15, exact-value test (referee)": _spread_rule(
            _mad, 1.15, "true value"),
        "epsilon from the mean absolute deviation, margin 1.4, no repeat test": _spread_rule(_mad, 1.4, None),
        "epsilon from the mean absolute deviation, margin 2, repeat test": _spread_rule(_mad, 2.0, "repeats"),
        "epsilon from the SD, margin 1.2, repeat test (referee)": _spread_rule(_sd, 1.2, "repeats"),
        "epsilon from the SD, margin 1.1, exact-value test": _spread_rule(_sd, 1.1, "true value"),
        "epsilon from the IQR, margin 1.2, repeat test": _spread_rule(_iqr, 1.2, "repeats"),
        "epsilon from the IQR, margin 1.3, no repeat test": _spread_rule(_iqr, 1.3, None),
        "audit bound compared with twice the claim": _bound_above(2.0),
        "audit with 2,000 samples per column": _few_samples(2_000),
        "audit with 5,000 samples per column": _few_samples(5_000),
        "point estimate: largest ratio of event counts over scanned events (referee)": _point_estimate_scanned,
        "audit's point estimate above 1.3 times the claim": _audit_columns_with(
            flag=lambda r, c: abs(math.log(max(r.count_a, 1) / max(r.count_b, 1))) > 1.3 * c),
        "audit bound compared with 1.5 times the claim": _audit_columns_with(
            flag=lambda r, c: r.epsilon_lower_bound > 1.5 * c),
        "same noise for both datasets: a fixed seed in the column function (referee)": _same_noise("seed"),
        "same noise for both datasets: the generator reset in every call": _same_noise("reset"),
        "dataset_b's releases made from dataset_a's": _b_from_a,
        "audit with 10,000 samples per side (referee)": _audit_columns_with(n_samples=10_000),
        "audit with 15,000 samples per side (referee)": _audit_columns_with(n_samples=15_000),
        "audit with 19,000 samples per side": _audit_columns_with(n_samples=19_000),
        "audit retried until it refutes, 2 tries (referee)": _retried(2),
        "audit retried until it refutes, 3 tries": _retried(3),
        "audits both directions, larger bound kept (referee)": _both_directions(False),
        "audits the other direction when the first does not refute": _both_directions(True),
        "audit with delta 0.01 (referee)": _audit_columns_with(delta=0.01),
        "audit with delta 0.005": _audit_columns_with(delta=0.005),
        "audit with 5 bins (referee)": _audit_columns_with(n_bins=5),
        "audit with 3 bins": _audit_columns_with(n_bins=3),
        "audits only the first half of the columns (referee)": _some_columns("half"),
        "audits only the first 4 columns": _some_columns(4),
        **cheats(lambda release, dataset_a, dataset_b, claimed: []),
    },
}


# Edge cases (every score negative, integer factors): each passed the checks before they generated that edge.
def _divides_by_a_negative_top(relevance, total_epsilon, floor):  # negative / negative top: a positive weight
    top = relevance.max()
    normalized = (relevance / top).clip(lower=0.0) if top != 0 else relevance * 0.0 + 1.0
    weights = floor + (1 - floor) * normalized
    return pd.Series(split_epsilon(total_epsilon, weights.tolist()), index=relevance.index)


def _written_into_a_copy_of_the_factors(factors, epsilon):  # integer factors: inf does not fit an int Series
    out = factors.copy()
    for name in factors.index:
        f = factors[name]
        out[name] = math.inf if f == 0 else epsilon * (1 + f) / f
    return out


WRONG_ANSWERS["05.2"]["(data) scores divided by a negative largest score"] = _divides_by_a_negative_top
WRONG_ANSWERS["05.3"]["(data) epsilons written into a copy of integer factors"] = _written_into_a_copy_of_the_factors
