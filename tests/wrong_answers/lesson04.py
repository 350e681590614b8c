"""Wrong answers to lesson 04's exercises 04.1-04.3: each a mistake a student could make, and each must be rejected.

Exercise 04.4 (the plan runner) has its wrong answers in ``lesson04_plans``, moved there when this module
passed 600 lines.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from mic_dp_helpers.scale import pydp_error, pydp_tools
from mic_dp_helpers.scale.pydp_tools import pydp_query
from wrong_answers._cheats import cheats


# ----------------------------------------------------------------------------------- 04.1
def _default_dtype(values, lower, upper, epsilon):
    from pydp.algorithms.laplacian import BoundedMean

    return BoundedMean(epsilon=epsilon, lower_bound=lower, upper_bound=upper).quick_result(list(values))


def _sometimes_exact_mean(values, lower, upper, epsilon, _calls=[0]):
    _calls[0] += 1
    if _calls[0] % 50 == 0:
        return float(np.clip(values, lower, upper).mean())
    return pydp_tools.pydp_query("mean", values, epsilon, lower, upper)


def _exact_mean(values, lower, upper, epsilon):
    return float(np.clip(np.asarray(values, dtype=float), lower, upper).mean())


def _pydp_mean(values, lower, upper, epsilon):
    return pydp_query("mean", values, epsilon, lower, upper)


def _exact_mean_when(predicate):
    def answer(values, lower, upper, epsilon):
        if predicate(len(values), epsilon):
            return _exact_mean(values, lower, upper, epsilon)
        return _pydp_mean(values, lower, upper, epsilon)
    return answer


def _odd_even_average_exact(values, lower, upper, epsilon, _state=[None]):  # pairs of calls average to the mean
    exact = _exact_mean(values, lower, upper, epsilon)
    if _state[0] is not None and _state[0][0] == exact:
        noise, _state[0] = _state[0][1], None
        return float(np.clip(exact - noise, lower, upper))
    noisy = _pydp_mean(values, lower, upper, epsilon)
    _state[0] = (exact, noisy - exact)
    return noisy


def _correlated_noise(values, lower, upper, epsilon, rho=0.1, _state=[None]):  # noise carried over, correlation 0.1
    exact = _exact_mean(values, lower, upper, epsilon)
    noise = _pydp_mean(values, lower, upper, epsilon) - exact
    if _state[0] is not None and _state[0][0] == exact:
        noise = rho * _state[0][1] + math.sqrt(1 - rho * rho) * noise
    _state[0] = (exact, noise)
    return float(np.clip(exact + noise, lower, upper))


def _bounds_from_data(values, lower, upper, epsilon):
    values = np.asarray(values, dtype=float)
    return pydp_query("mean", values, epsilon, values.min(), values.max())


def _half_epsilon(values, lower, upper, epsilon):
    return pydp_query("mean", values, epsilon / 2, lower, upper)


def _double_epsilon(values, lower, upper, epsilon):
    return pydp_query("mean", values, 2 * epsilon, lower, upper)


def _unclamped_mean_plus_noise(values, lower, upper, epsilon):
    values = np.asarray(values, dtype=float)
    noise = pydp_query("mean", values, epsilon, lower, upper) - np.clip(values, lower, upper).mean()
    return float(np.clip(values.mean() + noise, lower, upper))


def _clamped_noise(values, lower, upper, epsilon):  # non-private: PyDP's noise cut at 2 of its scales
    values = np.asarray(values, dtype=float)
    centre = np.clip(values, lower, upper).mean()
    scale = (upper - lower) / (epsilon * len(values))
    return float(centre + np.clip(pydp_query("mean", values, epsilon, lower, upper) - centre, -2 * scale, 2 * scale))


def _uniform_noise(values, lower, upper, epsilon):  # non-private: bounded noise with PyDP's spread
    values = np.asarray(values, dtype=float)
    sd = pydp_error.bounded_mean_noise_std(lower, upper, epsilon, len(values))
    return float(np.clip(np.clip(values, lower, upper).mean() + np.random.uniform(-1, 1) * sd * 3**0.5, lower, upper))


# ----------------------------------------------------------------------------------- 04.2
def _first_k(df, person_column, k, rng):
    return df.groupby(person_column, sort=False).head(k)


def _ignores_rng(df, person_column, k, rng):
    shuffled = df.sample(frac=1.0, random_state=np.random.default_rng())
    return df[df.index.isin(shuffled.groupby(person_column).head(k).index)]


def _drops_heavy_people(df, person_column, k, rng):
    return df[df.groupby(person_column)[person_column].transform("size") <= k]


def _renumbered(df, person_column, k, rng):
    shuffled = df.sample(frac=1.0, random_state=rng)
    return shuffled.groupby(person_column).head(k).reset_index(drop=True)


def _with_replacement(df, person_column, k, rng):
    parts = [group.sample(n=min(len(group), k), replace=True, random_state=rng) for _, group in df.groupby(person_column)]
    return pd.concat(parts)


def _largest_rows(df, person_column, k, rng):
    numeric = df.select_dtypes("number").columns[0]
    return df.sort_values(numeric, ascending=False).groupby(person_column).head(k).sort_index()


def _first_column_is_person(df, person_column, k, rng):
    shuffled = df.sample(frac=1.0, random_state=rng)
    kept = shuffled.groupby(df.columns[0], sort=False).head(k)
    return df[df.index.isin(kept.index)]


def _limit_contributions(df, person_column, k, rng):
    return pydp_tools.limit_contributions(df, person_column, k, rng)


def _weighted_by_amount(df, person_column, k, rng):  # random, but larger amounts more likely to be kept
    parts = []
    for _, group in df.groupby(person_column, sort=False):
        weights = group.select_dtypes("number").iloc[:, 0].to_numpy(dtype=float) + 1.0
        chosen = rng.choice(len(group), size=min(k, len(group)), replace=False, p=weights / weights.sum())
        parts.append(group.iloc[chosen])
    return pd.concat(parts)


def _keeps_order_of_rows(df, person_column, k, rng):  # random people order, but each keeps its first rows
    return df.groupby(person_column, sort=False).head(k).sample(frac=1.0, random_state=rng).sort_index()


# ----------------------------------------------------------------------------------- 04.3
def _rmse_factory(noise):
    def choose(values, lower, candidates, epsilon):
        values = np.asarray(values, dtype=float)

        def error(upper):
            bias = np.clip(values, lower, upper).mean() - values.mean()
            return math.hypot(bias, noise(upper, lower, epsilon, len(values)))

        return min(candidates, key=error)

    return choose


def _abs_bias_plus_noise(values, lower, candidates, epsilon):
    values = np.asarray(values, dtype=float)

    def error(upper):
        bias = np.clip(values, lower, upper).mean() - values.mean()
        return abs(bias) + math.sqrt(2) * (upper - lower) / (epsilon * len(values))

    return min(candidates, key=error)


def _stops_at_first_increase(values, lower, candidates, epsilon):  # assumes candidates sorted
    values = np.asarray(values, dtype=float)

    def error(upper):
        bias = np.clip(values, lower, upper).mean() - values.mean()
        return math.hypot(bias, math.sqrt(2) * (upper - lower) / (epsilon * len(values)))

    best = candidates[0]
    for c in candidates[1:]:
        if error(c) > error(best):
            break
        best = c
    return best


def _with_rmse_helper(values, lower, candidates, epsilon):
    return min(candidates, key=lambda c: pydp_error.bounded_mean_rmse(values, lower, c, epsilon,
                                                                      include_count_noise=False))


WRONG_ANSWERS = {
    "04.1": {
        "default integer dtype": _default_dtype,
        "bounds from the data's range": _bounds_from_data,
        "non-private mean": lambda values, lower, upper, epsilon: float(np.clip(values, lower, upper).mean()),
        "non-private: the exact mean in 2% of calls": _sometimes_exact_mean,
        "half of epsilon": _half_epsilon,
        "twice epsilon": _double_epsilon,
        "unclamped mean": _unclamped_mean_plus_noise,
        "non-private: noise clamped to 2 scales": _clamped_noise,
        "non-private: uniform noise with PyDP's spread": _uniform_noise,
        "non-private (size): the exact mean once n >= 10,000": _exact_mean_when(lambda n, e: n >= 10_000),
        "non-private (size): the exact mean for 5 values or fewer": _exact_mean_when(lambda n, e: n <= 5),
        "non-private (parameters): the exact mean for epsilon of 5 or more": _exact_mean_when(lambda n, e: e >= 5),
        "non-private (parameters): the exact mean for epsilon below 0.1": _exact_mean_when(lambda n, e: e < 0.1),
        "non-private (size and parameters): exact when n >= 2,000 and epsilon >= 5":
            _exact_mean_when(lambda n, e: n >= 2000 and e >= 5),
        "non-private (calls): odd and even calls average to the exact mean": _odd_even_average_exact,
        "non-private (calls): noise correlated 0.1 with the previous call": _correlated_noise,
        **cheats(lambda values, lower, upper, epsilon: float(np.clip(values, lower, upper).mean())),
    },
    "04.2": {
        "first k rows": _first_k,
        "ignores rng": _ignores_rng,
        "drops heavy people": _drops_heavy_people,
        "renumbered index": _renumbered,
        "with replacement": _with_replacement,
        "largest rows": _largest_rows,
        "first column taken as the person": _first_column_is_person,
        "first k rows of each person, shuffled": _keeps_order_of_rows,
        "rows drawn with weights proportional to the amount": _weighted_by_amount,
        **cheats(_first_k, forbidden=_limit_contributions),
    },
    "04.3": {
        "largest candidate": lambda values, lower, candidates, epsilon: max(candidates),
        "smallest candidate": lambda values, lower, candidates, epsilon: min(candidates),
        "data maximum": lambda values, lower, candidates, epsilon: float(np.max(values)),
        "noise without n": _rmse_factory(lambda upper, lower, eps, n: math.sqrt(2) * (upper - lower) / eps),
        "ignores epsilon": _rmse_factory(lambda upper, lower, eps, n: math.sqrt(2) * (upper - lower) / n),
        "bias only": _rmse_factory(lambda upper, lower, eps, n: 0.0),
        "variance not standard deviation": _rmse_factory(lambda upper, lower, eps, n: 2 * ((upper - lower) / (eps * n)) ** 2),
        "candidates assumed sorted": _stops_at_first_increase,
        "noise without its sqrt(2)": _rmse_factory(lambda upper, lower, eps, n: (upper - lower) / (eps * n)),
        "noise with the count's share doubled": _rmse_factory(lambda upper, lower, eps, n: 2 * (upper - lower) / (eps * n)),
        "|bias| + noise instead of the root of the sum of squares": _abs_bias_plus_noise,
        **cheats(lambda values, lower, candidates, epsilon: candidates[0], forbidden=_with_rmse_helper),
    },
}


def _laplace_scale_from_private_n(values, lower, upper, epsilon):
    """NumPy Laplace noise of scale (upper - lower) / (epsilon * n), n read from the private data (outside DP
    referee, lessons 03-04: epsilon >= 1.09 at a claimed 1)."""
    mean = float(np.clip(np.asarray(values, dtype=float), lower, upper).mean())
    noise = np.random.default_rng().laplace(0.0, (upper - lower) / (epsilon * len(values)))
    return float(np.clip(mean + noise, lower, upper))


WRONG_ANSWERS["04.1"]["own Laplace noise, scale from the private count"] = _laplace_scale_from_private_n
WRONG_ANSWERS["04.1"]["non-private (parameters): the exact mean for epsilon of 8 or more"] = _exact_mean_when(
    lambda n, e: e >= 8)
WRONG_ANSWERS["04.1"]["non-private (size): the exact mean once n > 2,000"] = _exact_mean_when(lambda n, e: n > 2000)


def _variance_as_sd(values, lower, candidates, epsilon):
    """The noise variance 2 b^2 used as its standard deviation (outside DP referee, lessons 03-04)."""
    values = np.asarray(values, dtype=float)

    def error(upper):
        bias = np.clip(values, lower, upper).mean() - values.mean()
        return math.hypot(bias, 2 * ((upper - lower) / (epsilon * values.size)) ** 2)
    return min(candidates, key=error)


WRONG_ANSWERS["04.3"]["noise variance used as its SD"] = _variance_as_sd


# ---- second referee pass (2026-11-26): near-exact answers, middle sizes and epsilons, bounds narrowed to the
# data when it spans most of them (04.1)
def _near_exact_sometimes(share):  # the exact mean plus a 1e-7 jitter in `share` of the calls
    rng = np.random.default_rng()

    def answer(values, lower, upper, epsilon):
        if rng.random() < share:
            return float(np.clip(_exact_mean(values, lower, upper, epsilon) + (upper - lower) * 1e-7 * rng.uniform(-1, 1),
                                 lower, upper))
        return _pydp_mean(values, lower, upper, epsilon)
    return answer


def _narrowed_when_the_data_span_most(values, lower, upper, epsilon):  # bounds from the data if they span > half
    v = np.asarray(values, dtype=float)
    low, high = max(lower, v.min()), min(upper, v.max())
    if high - low < 0.5 * (upper - lower):
        low, high = lower, upper
    return pydp_query("mean", values, epsilon, low, high)


WRONG_ANSWERS["04.1"].update({
    "non-private: the exact mean plus a 1e-7 jitter in 3% of calls": _near_exact_sometimes(0.03),
    "non-private (parameters): the exact mean for epsilon between 5 and 20": _exact_mean_when(lambda n, e: 5 < e < 20),
    "non-private (size): the exact mean for 6 to 50 values": _exact_mean_when(lambda n, e: 6 <= n <= 50),
    "non-private (size): the exact mean for 100 to 300 values": _exact_mean_when(lambda n, e: 100 <= n < 300),
    "non-private (data): bounds narrowed to the data when they span most of them": _narrowed_when_the_data_span_most,
})


def _mean_reasked_until_plausible(values, lower, upper, epsilon):
    exact = _exact_mean(values, lower, upper, epsilon)
    width = 5 * (upper - lower) / (len(values) * epsilon)
    for _ in range(100):
        got = _pydp_mean(values, lower, upper, epsilon)
        if abs(got - exact) <= width:
            break
    return got


WRONG_ANSWERS["04.1"]["non-private (shape): the mean asked again while far from the exact mean"] = _mean_reasked_until_plausible


# ---- third referee pass (2026-11-27): exact between and beyond the sizes and epsilons 04.1 tested, noise
# cancelling at lags beyond 3, noise re-asked beyond 6 scales
def _mirrors_at_lag(lag, block=None):  # call i mirrors call i - lag (the pair averages to the exact mean), per case
    state = {"answers": [], "calls": 0, "inputs": None}
    block = block or 2 * lag

    def answer(values, lower, upper, epsilon):
        exact = _exact_mean(values, lower, upper, epsilon)
        if state["inputs"] != (exact, lower, upper, epsilon):  # a new case: start the pattern again
            state.update(answers=[], calls=0, inputs=(exact, lower, upper, epsilon))
        i = state["calls"]
        state["calls"] += 1
        got = None
        if len(values) >= 6 and i % block >= lag and len(state["answers"]) >= lag:
            got = 2 * exact - state["answers"][-lag]
            if not lower <= got <= upper:
                got = None
        if got is None:
            got = _pydp_mean(values, lower, upper, epsilon)
        state["answers"].append(got)
        return float(got)
    return answer


def _mean_reasked_beyond(limit, scale_of):  # PyDP asked again while more than `limit` scales from the exact mean
    def answer(values, lower, upper, epsilon):
        exact = _exact_mean(values, lower, upper, epsilon)
        width = limit * scale_of(values, lower, upper, epsilon)
        for _ in range(100):
            got = _pydp_mean(values, lower, upper, epsilon)
            if abs(got - exact) <= width:
                break
        return got
    return answer


def _first_order_scale(values, lower, upper, epsilon):
    return (upper - lower) / (epsilon * len(values))


def _model_scale(values, lower, upper, epsilon):
    mean = _exact_mean(values, lower, upper, epsilon)
    return pydp_error.bounded_mean_noise_std(lower, upper, epsilon, len(values), mean=mean) / math.sqrt(2)


def _mean_jitter_when(predicate):  # the exact mean plus a 1e-9 relative jitter where `predicate(n, epsilon)`
    rng = np.random.default_rng()

    def answer(values, lower, upper, epsilon):
        if predicate(len(values), epsilon):
            exact = _exact_mean(values, lower, upper, epsilon)
            return float(np.clip(exact + (upper - lower) * 1e-9 * rng.uniform(-1, 1), lower, upper))
        return _pydp_mean(values, lower, upper, epsilon)
    return answer


WRONG_ANSWERS["04.1"].update({
    "non-private (size): the exact mean above 45,000 values": _exact_mean_when(lambda n, e: n > 45_000),
    "non-private (size): the exact mean above 100,000 values": _exact_mean_when(lambda n, e: n > 100_000),
    "non-private (size): the exact mean for 1,500 to 10,000 values": _exact_mean_when(lambda n, e: 1500 < n < 10_000),
    "non-private (size): the exact mean plus a 1e-9 jitter for 1,600 to 9,500 values":
        _mean_jitter_when(lambda n, e: 1600 <= n <= 9500),
    "non-private (parameters): the exact mean for epsilon above 100": _exact_mean_when(lambda n, e: e > 100),
    "non-private (parameters): the exact mean for epsilon of 150 or more": _exact_mean_when(lambda n, e: e >= 150),
    "non-private (parameters): the exact mean plus a 1e-9 jitter for epsilon above 120":
        _mean_jitter_when(lambda n, e: e > 120),
    "non-private (size and parameters): the exact mean above 40,000 values or epsilon 100":
        _exact_mean_when(lambda n, e: n >= 40_000 or e > 100),
    "non-private (calls): calls 5-9 of every 10 mirror the 5 before": _mirrors_at_lag(5),
    "non-private (calls): calls 12-23 of every 24 mirror the 12 before": _mirrors_at_lag(12),
    "non-private (calls): calls 20-39 of every 40 mirror the 20 before": _mirrors_at_lag(20),
    "non-private (calls): calls 7-13 of every 14 mirror the 7 before": _mirrors_at_lag(7),
    "non-private (shape): the mean asked again while more than 6 first-order scales out":
        _mean_reasked_beyond(6, _first_order_scale),
    "non-private (shape): the mean asked again while more than 6 model scales out": _mean_reasked_beyond(6, _model_scale),
    "non-private (shape): the mean asked again while more than 5.8 scales out": _mean_reasked_beyond(5.8, _model_scale),
})


def _clips_caller_array(values, lower, upper, epsilon):
    """PyDP's BoundedMean, after clipping the caller's NumPy array in place (referee 020409)."""
    if isinstance(values, np.ndarray):
        np.clip(values, lower, upper, out=values)
    return _pydp_mean(values, lower, upper, epsilon)


WRONG_ANSWERS["04.1"]["clips the caller's NumPy array in place"] = _clips_caller_array


# ---- referee redA (2026-11-27): far sizes, a part of the values above a size, mirrors beyond lag 20
def _mean_exact_above(limit):  # the exact clamped mean above `limit` values
    def answer(values, lower, upper, epsilon):
        if len(values) > limit:
            return float(np.mean(np.clip(np.asarray(values, dtype=float), lower, upper)))
        return _pydp_mean(values, lower, upper, epsilon)
    return answer


def _mean_of_part_above(limit, part):  # PyDP's mean of part(values) above `limit` values (2 epsilon: a shift)
    def answer(values, lower, upper, epsilon):
        return _pydp_mean(part(list(values)) if len(values) > limit else values, lower, upper, epsilon)
    return answer


WRONG_ANSWERS["04.1"].update({
    "non-private (size): the exact mean above 300,000 values (redA)": _mean_exact_above(300_000),
    "size: the mean of the first 100,000 values only (redA)": _mean_of_part_above(100_000, lambda v: v[:100_000]),
    "size: the mean of every other value above 100,000 values (redA)": _mean_of_part_above(100_000, lambda v: v[::2]),
    "non-private (calls): half the calls mirror the call 25 before (redA)": _mirrors_at_lag(25),
})


def _skips_the_data_maximum(values, lower, candidates, epsilon):  # a candidate at the data's maximum is left out
    values = np.asarray(values, dtype=float)

    def error(upper):
        bias = np.clip(values, lower, upper).mean() - values.mean()
        return math.hypot(bias, math.sqrt(2) * (upper - lower) / (epsilon * len(values)))

    return min([c for c in candidates if c != values.max()] or candidates, key=error)


WRONG_ANSWERS["04.3"]["(data) leaves out a candidate equal to the data's maximum"] = _skips_the_data_maximum


# ---- referee rt0206 (2026-11-27): exact for a kind of input the text allows (every statistical case passed a list of
# non-integral floats with non-integral float bounds): caught by the kinds stage, 12 answers on each kind.
def _exact_for_input(predicate):
    def answer(values, lower, upper, epsilon):
        if predicate(values, lower, upper):
            return _exact_mean(values, lower, upper, epsilon)
        return _pydp_mean(values, lower, upper, epsilon)
    return answer


WRONG_ANSWERS["04.1"].update({
    "non-private (data): the exact mean for integer bounds, as in the example (rt0206)": _exact_for_input(
        lambda values, lower, upper: isinstance(lower, int) and isinstance(upper, int)),
    "non-private (data): the exact mean when the lower bound is 0 (rt0206)": _exact_for_input(
        lambda values, lower, upper: lower == 0),
    "non-private (data): the exact mean for symmetric bounds (rt0206)": _exact_for_input(
        lambda values, lower, upper: lower == -upper),
    "non-private (data): the exact mean of whole-number values (rt0206)": _exact_for_input(
        lambda values, lower, upper: all(float(v).is_integer() for v in values)),
    "non-private (data): the exact mean for a NumPy array (rt0206)": _exact_for_input(
        lambda values, lower, upper: isinstance(values, np.ndarray) and len(values) < 1000),
})


# ---- referee rt0206: a random choice only for small tables, each person's first rows (or a memoised order) above
def _random_up_to(rows=None, people=None):
    def bound_contributions(df, person_column, k, rng):
        if (rows is not None and len(df) > rows) or (people is not None and df[person_column].nunique() > people):
            return _first_k(df, person_column, k, rng)
        order = rng.permutation(len(df))
        kept = df.iloc[order].groupby(person_column, sort=False).head(k)
        return df.loc[df.index.isin(kept.index)]
    return bound_contributions


WRONG_ANSWERS["04.2"].update({
    "(size) random rows up to 1,000 rows, each person's first rows above (rt0206)": _random_up_to(rows=1_000),
    "(size) random rows up to 100 people, each person's first rows above (rt0206)": _random_up_to(people=100),
    "(size) random rows up to 250 people, each person's first rows above (rt0206)": _random_up_to(people=250),
})


# ---- referee s35rca: uniform choice was tested only with k = 2, people of exactly 7 rows and an integer index.
def _first_rows_when(condition):
    """Each person's first k rows (table order) for the people ``condition(df, person_column, k, sizes)``
    marks, a uniform random choice for the others."""
    def bound_contributions(df, person_column, k, rng):
        sizes = df.groupby(person_column)[person_column].transform("size")
        order = df.iloc[rng.permutation(len(df))]
        chosen = order[~condition(order, person_column, k, sizes.loc[order.index])].groupby(person_column,
                                                                                             sort=False).head(k)
        first = df[condition(df, person_column, k, sizes)].groupby(person_column, sort=False).head(k)
        return df.loc[df.index.isin(chosen.index.union(first.index))]
    return bound_contributions


WRONG_ANSWERS["04.2"].update({
    "(data) each person's first row when k = 1 (s35rca)":
        _first_rows_when(lambda df, c, k, sizes: sizes > (0 if k == 1 else 10**9)),
    "(data) each person's first rows when k >= 3 (s35rca)":
        _first_rows_when(lambda df, c, k, sizes: sizes > (0 if k >= 3 else 10**9)),
    "(data) first rows of people with more than 7 rows (s35rca)": _first_rows_when(lambda df, c, k, sizes: sizes > 7),
    "(data) first rows of people with more than 20 rows (s35rca)": _first_rows_when(lambda df, c, k, sizes: sizes > 20),
    "(data) each person's first rows when the index is not integer (s35rca)": _first_rows_when(
        lambda df, c, k, sizes: sizes > (10**9 if pd.api.types.is_integer_dtype(df.index) else 0)),
})


# ---- referee s35rca: 3 to 5 values were never called (the "tiny" case holds 1-5, the middle ones 6 and more).
WRONG_ANSWERS["04.1"].update({
    "non-private (size): the exact mean for 3 to 5 values (s35rca)": _exact_for_input(
        lambda values, lower, upper: 3 <= len(values) <= 5),
    "non-private (size): the exact mean for 3 to 25 values (s35rca)": _exact_for_input(
        lambda values, lower, upper: 3 <= len(values) <= 25),
    "non-private (size): the exact mean for 6 to 20 values (s35rca)": _exact_for_input(
        lambda values, lower, upper: 6 <= len(values) <= 20),
})
