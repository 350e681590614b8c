"""Wrong answers to 07.3, 07.4 and 09.1 that referee s40rB accepted (D3-D5) or told a false hint (D6-D8), each with
other members of its class.

The plain argmax when the exponential mechanism's best chance is above a threshold (D3), the exact mean on large
data at a moderate epsilon (D4), kept days memoised per customer and bound and reused when the rows change (D5),
noise skipped when it looks negligible (D6: told a draw is reused), Gumbel noise subtracted (D7: told its scale is
too small) and a sub-generator seeded from one of 1,000 seeds (D8: told its randomness does not come from rng).
Joined to the lessons' answers through ``MORE_WRONG_ANSWERS``; ``HINT_WORDS`` holds words each hint must hold,
``HONEST`` the referee's honest answers (both tested in ``tests/test_checks_s39b.py``).
"""

import numpy as np

from mic_dp_helpers.mechanisms.selection import dp_quantile
from wrong_answers.lesson07_09_s39b import _memo_days, _rows_of


def _gumbel_max(scores, sensitivity, epsilon, rng):
    return int(np.argmax(scores + rng.gumbel(0.0, 2 * sensitivity / epsilon, scores.size)))


def _exact_if_sure(threshold, fewest=1, most=10**9):
    """The plain argmax when the exponential mechanism gives the best a chance above ``threshold`` (for
    ``fewest`` to ``most`` candidates), otherwise Gumbel-max."""
    def answer(scores, sensitivity, epsilon, rng):
        scores = np.asarray(scores, float)
        logits = scores * epsilon / (2 * sensitivity)
        weights = np.exp(logits - logits.max())
        if fewest <= scores.size <= most and weights.max() / weights.sum() > threshold:
            return int(np.argmax(scores))
        return _gumbel_max(scores, sensitivity, epsilon, rng)
    return answer


def _exact_beyond_gap(gap):
    """The plain argmax when the runner-up is more than ``gap`` Gumbel scales behind the best."""
    def answer(scores, sensitivity, epsilon, rng):
        scores = np.asarray(scores, float)
        top = np.sort(scores)[-2:] if scores.size > 1 else np.r_[-np.inf, scores]
        if top[1] - top[0] > gap * 2 * sensitivity / epsilon:
            return int(np.argmax(scores))
        return _gumbel_max(scores, sensitivity, epsilon, rng)
    return answer


def _subtracted_gumbel(scores, sensitivity, epsilon, rng):
    scores = np.asarray(scores, float)
    return int(np.argmax(scores - rng.gumbel(0.0, 2 * sensitivity / epsilon, scores.size)))


def _mean_unless(exact):
    """07.4 with the mean released without noise where ``exact(n, epsilon, share, scale, mean)``."""
    def answer(values, level, public_high, epsilon, bound_share, rng):
        values = np.asarray(values, float)
        upper = dp_quantile(values, level, 0.0, public_high, bound_share * epsilon, rng)
        mean = np.clip(values, 0, upper).mean()
        scale = upper / (len(values) * (1 - bound_share) * epsilon)
        if exact(len(values), epsilon, bound_share, scale, mean):
            return upper, float(mean)
        return upper, float(mean + rng.laplace(0, scale))
    return answer


def _stream_answer(stream_of):
    """09.1 with every choice of a call drawn from the one generator ``stream_of(rng)``."""
    def answer(log, max_partitions, max_per_partition, rng):
        stream = stream_of(rng)
        out = []
        for _, rows in log.groupby("customer_id", sort=False):
            days = rows["day"].unique()
            if len(days) > max_partitions:
                days = stream.choice(days, max_partitions, replace=False)
            out.extend(_rows_of(rows, days, max_per_partition, stream))
        return log.loc[sorted(out)]
    return answer


def _seeded_stream(seeds):
    """09.1 drawing from ``np.random.default_rng(rng.integers(seeds))``: from rng, but through one of ``seeds``."""
    return _stream_answer(lambda rng: np.random.default_rng(int(rng.integers(seeds))))


MORE_WRONG_ANSWERS = {
    "07.3": {
        "non-private (sure): the plain argmax when the best's chance is above 0.999 (referee s40rB D3)":
            _exact_if_sure(0.999),
        "non-private (sure): the plain argmax when the best's chance is above 0.9999 (referee s40rB D3)":
            _exact_if_sure(0.9999),
        "non-private (sure): the plain argmax when the best's chance is above 0.995": _exact_if_sure(0.995),
        "non-private (sure): the plain argmax when the best's chance is above 0.9995": _exact_if_sure(0.9995),
        "non-private (sure): the plain argmax when the best's chance is above 0.999, from 3 candidates":
            _exact_if_sure(0.999, fewest=3),
        "non-private (sure): the plain argmax when the best's chance is above 0.998, above 10 candidates":
            _exact_if_sure(0.998, fewest=11),
        "non-private (sure): the plain argmax when the runner-up is 9 Gumbel scales behind": _exact_beyond_gap(9.0),
        "wrong noise: Gumbel noise subtracted (referee s40rB D7: told its scale is too small)": _subtracted_gumbel,
    },
    "07.4": {
        "non-private (noise skipped): the exact mean above 150,000 values at epsilon 0.5 or more (referee s40rB D4)":
            _mean_unless(lambda n, e, share, scale, mean: n > 150_000 and e >= 0.5),
        "non-private (noise skipped): the exact mean above 300,000 values at epsilon 2 or more":
            _mean_unless(lambda n, e, share, scale, mean: n > 300_000 and e >= 2),
        "non-private (noise skipped): the exact mean for 150,000 to 900,000 values at epsilon 0.5 or more":
            _mean_unless(lambda n, e, share, scale, mean: 150_000 < n < 900_000 and e >= 0.5),
        "non-private (noise skipped): the exact mean above 500,000 values at epsilon 20 or more":
            _mean_unless(lambda n, e, share, scale, mean: n > 500_000 and e >= 20),
        "non-private (noise skipped): no noise when its scale is below 1e-4 of the mean (referee s40rB D6)":
            _mean_unless(lambda n, e, share, scale, mean: scale < 1e-4 * abs(mean)),
        "non-private (noise skipped): no noise when its scale is below 1e-3 (referee s40rB D6)":
            _mean_unless(lambda n, e, share, scale, mean: scale < 1e-3),
        "non-private (noise skipped): no noise when n (1 - bound_share) epsilon is above 1e5 (referee s40rB D6)":
            _mean_unless(lambda n, e, share, scale, mean: n * (1 - share) * e > 1e5),
    },
    "09.1": {
        "non-private (calls): kept days memoised per customer, days and both bounds, reused when the rows change "
        "(referee s40rB D5)": _memo_days(key_of=lambda c, d, l0, linf: (c, d, l0, linf)),
        "non-private (calls): kept days memoised per customer and both bounds, reused when the rows change "
        "(referee s40rB D5)": _memo_days(key_of=lambda c, d, l0, linf: (c, l0, linf)),
        "non-private (calls): kept days memoised per customer, days and both bounds, reused a quarter of the time "
        "when the rows change": _memo_days(0.25, lambda c, d, l0, linf: (c, d, l0, linf)),
        "non-private (calls): a sub-generator seeded by rng.integers(1000) (referee s40rB D8: told its "
        "randomness does not come from rng)": _seeded_stream(1000),
        "non-private (calls): a sub-generator seeded by rng.integers(50)": _seeded_stream(50),
    },
}

#: Words the hint of each answer above must hold (by a part of its name), and words it must not hold.
HINT_WORDS = {"best's chance": "however sure the winner looks", "runner-up": "skipped",
              "subtracted": "subtracted", "exact mean": "released without noise",
              "no noise when": "released without noise on", "memoised": "when their rows or the bounds change",
              "sub-generator": "few possible values"}
UNTRUE_WORDS = {"no noise when": "stored draw", "subtracted": "its scale is too small:"}


def _exp_race(scores, sensitivity, epsilon, rng):
    s = np.asarray(scores, float) * epsilon / (2 * sensitivity)
    return int(np.argmin(np.log(rng.standard_exponential(s.size)) - (s - s.max())))


def _neglog_exp(scores, sensitivity, epsilon, rng):
    scores = np.asarray(scores, float)
    return int(np.argmax(scores - 2 * sensitivity / epsilon * np.log(rng.standard_exponential(scores.size))))


def _laplace_loc(values, level, public_high, epsilon, bound_share, rng):
    values = np.asarray(values, float)
    upper = dp_quantile(values, level, 0.0, public_high, bound_share * epsilon, rng)
    mean = np.clip(values, 0, upper).mean()
    return upper, float(rng.laplace(mean, upper / (len(values) * (1 - bound_share) * epsilon)))


def _exp_sign(values, level, public_high, epsilon, bound_share, rng):
    values = np.asarray(values, float)
    upper = dp_quantile(values, level, 0.0, public_high, bound_share * epsilon, rng)
    mean = np.clip(values, 0, upper).mean()
    sign = 1.0 if rng.random() < 0.5 else -1.0
    return upper, float(mean + sign * upper / (len(values) * (1 - bound_share) * epsilon) * rng.standard_exponential())


def _shuffle(log, max_partitions, max_per_partition, rng):
    import pandas as pd

    shuffled = log.sample(frac=1.0, random_state=rng)
    shuffled = shuffled[shuffled.groupby(["customer_id", "day"], sort=False).cumcount() < max_per_partition]
    cells = shuffled[["customer_id", "day"]].drop_duplicates().sample(frac=1.0, random_state=rng)
    cells = cells[cells.groupby("customer_id", sort=False).cumcount() < max_partitions]
    keep = pd.MultiIndex.from_frame(shuffled[["customer_id", "day"]]).isin(pd.MultiIndex.from_frame(cells))
    return log.loc[shuffled.index[keep]]


HONEST = {
    "07.3": {"an exponential race (referee s40rB)": _exp_race, "Gumbel as -log of Exp(1) (referee s40rB)": _neglog_exp},
    "07.4": {"Laplace drawn with loc = the clipped mean (referee s40rB)": _laplace_loc,
             "a random sign times an exponential (referee s40rB)": _exp_sign},
    "09.1": {"a child generator spawned from rng (referee s40rB)": _stream_answer(lambda rng: rng.spawn(1)[0]),
             "DataFrame.sample(random_state=rng), the first rows of each cell (referee s40rB)": _shuffle},
}
