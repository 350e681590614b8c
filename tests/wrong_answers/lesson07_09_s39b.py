"""Wrong answers to 07.3, 07.4 and 09.1 that referee s39rB found accepted (or told a false hint), each with other
members of its class.

Noise memoised per setting (or per size) and reused when the data change (D0b), Laplace noise clipped at 8 scales
or so (D3) and at 4-7 scales (D4, whose hint must name clipping), and a per-customer stream seeded by the customer
id (D6, whose hint must say the choice repeats). Joined to the lessons' answers through ``MORE_WRONG_ANSWERS``;
the referee's honest answers through ``HONEST`` (read by ``lesson07``).
"""

import zlib

import numpy as np

from mic_dp_helpers.mechanisms.selection import dp_quantile


def _rnm_memo(key_of, reuse_chance=1.0):
    """Standard Gumbel noise memoised under ``key_of(scores, sensitivity, epsilon)``; fresh when the same scores
    come again, otherwise reused (with chance ``reuse_chance``)."""
    memo = {}

    def answer(scores, sensitivity, epsilon, rng):
        scores = np.asarray(scores, float)
        key = key_of(scores, sensitivity, epsilon)
        kept = memo.get(key)
        if kept is None or np.array_equal(kept[0], scores) or rng.random() >= reuse_chance:
            kept = (scores.copy(), rng.gumbel(0.0, 1.0, scores.size))
        else:
            kept = (scores.copy(), kept[1])
        memo[key] = kept
        return int(np.argmax(scores + 2 * sensitivity / epsilon * kept[1]))
    return answer


def _rnm_other_epsilon(scores, sensitivity, epsilon, rng, _memo={}):
    """Gumbel noise memoised per size and scores, reused when the same scores come at another epsilon."""
    scores = np.asarray(scores, float)
    kept = _memo.get(scores.size)
    if kept is None or not np.array_equal(kept[0], scores) or kept[1] == epsilon:
        kept = (scores.copy(), epsilon, rng.gumbel(0.0, 1.0, scores.size))
    _memo[scores.size] = (scores.copy(), epsilon, kept[2])
    return int(np.argmax(scores + 2 * sensitivity / epsilon * kept[2]))


def _mean_memo(key_of, reuse_chance=1.0):
    """07.4 with a standard Laplace draw memoised under ``key_of(values, epsilon, share)`` (the quantile fresh);
    fresh on the same values, otherwise reused (with chance ``reuse_chance``)."""
    memo = {}

    def answer(values, level, public_high, epsilon, bound_share, rng):
        values = np.asarray(values, float)
        upper = dp_quantile(values, level, 0.0, public_high, bound_share * epsilon, rng)
        mean = np.clip(values, 0, upper).mean()
        key = key_of(values, epsilon, bound_share)
        kept = memo.get(key)
        if kept is None or np.array_equal(kept[0], values) or rng.random() >= reuse_chance:
            kept = (values.copy(), rng.laplace())
        else:
            kept = (values.copy(), kept[1])
        memo[key] = kept
        return upper, float(mean + upper / (len(values) * (1 - bound_share) * epsilon) * kept[1])
    return answer


def _mean_other_epsilon(values, level, public_high, epsilon, bound_share, rng, _memo={}):
    """A standard Laplace draw memoised per n and values, reused when the same values come at another epsilon."""
    values = np.asarray(values, float)
    upper = dp_quantile(values, level, 0.0, public_high, bound_share * epsilon, rng)
    kept = _memo.get(values.size)
    if kept is None or not np.array_equal(kept[0], values) or kept[1] == epsilon:
        kept = (values, epsilon, rng.laplace())
    _memo[values.size] = (values.copy(), epsilon, kept[2])
    scale = upper / (len(values) * (1 - bound_share) * epsilon)
    return upper, float(np.clip(values, 0, upper).mean() + scale * kept[2])


def _clipped_laplace(low, high):
    """07.4 with the Laplace draw clipped to [low, high] scales."""
    def answer(values, level, public_high, epsilon, bound_share, rng):
        values = np.asarray(values, float)
        upper = dp_quantile(values, level, 0.0, public_high, bound_share * epsilon, rng)
        mean = np.clip(values, 0, upper).mean()
        scale = upper / (len(values) * (1 - bound_share) * epsilon)
        return upper, float(mean + np.clip(rng.laplace(0.0, scale), low * scale, high * scale))
    return answer


def _rows_of(rows, days, max_per_partition, stream):
    """The index of up to ``max_per_partition`` random rows of each of ``days`` (drawn from ``stream``)."""
    out, day_of_row = [], rows["day"]
    # NumPy dtypes are compared in NumPy: pandas' == per day took most of these answers' time in 09.1's check
    plain = day_of_row.dtype.kind in "biufmM"
    row_days, row_index = (day_of_row.to_numpy(), rows.index.to_numpy()) if plain else (None, None)
    for day in days:
        index = row_index[row_days == day] if plain else rows.index[day_of_row == day].to_numpy()
        if len(index) > max_per_partition:
            index = stream.choice(index, max_per_partition, replace=False)
        out.extend(index)
    return out


def _per_customer(seed_of):
    """09.1 with each customer's choices drawn from ``np.random.default_rng(seed_of(customer, rng))``."""
    def answer(log, max_partitions, max_per_partition, rng):
        out = []
        for customer, rows in log.groupby("customer_id", sort=False):
            stream = np.random.default_rng(seed_of(customer, rng))
            days = rows["day"].unique()
            if len(days) > max_partitions:
                days = stream.choice(days, max_partitions, replace=False)
            out.extend(_rows_of(rows, days, max_per_partition, stream))
        return log.loc[out]
    return answer


def _memo_days(reuse_chance=1.0, key_of=lambda customer, days, l0, linf: (customer, days, l0)):
    """09.1 with a customer's kept days memoised under ``key_of(customer, their days, max_partitions,
    max_per_partition)`` (by default without max_per_partition): reused (with chance ``reuse_chance``) when the
    same customer comes again with other rows, fresh on the identical rows or when the memo's days are not all
    among theirs."""
    memo = {}

    def answer(log, max_partitions, max_per_partition, rng):
        out = []
        for customer, rows in log.groupby("customer_id", sort=False):
            days = np.sort(rows["day"].unique())
            if len(days) > max_partitions:
                key = key_of(customer, tuple(days.tolist()), max_partitions, max_per_partition)
                kept = memo.get(key)
                if (kept is None or kept[0].equals(rows) or not set(kept[1]) <= set(days)
                        or rng.random() >= reuse_chance):
                    kept = (rows.copy(), rng.choice(days, max_partitions, replace=False))
                memo[key] = (rows.copy(), kept[1])
                days = kept[1]
            out.extend(_rows_of(rows, days, max_per_partition, rng))
        return log.loc[out]
    return answer


def _customer_hash(customer):
    """A number fixed by the customer id, the same in every process (``hash`` of a str changes with the
    process's hash seed, which made these answers differ from run to run)."""
    return zlib.crc32(str(customer).encode())


def _rnm_inverse_cdf(scores, sensitivity, epsilon, rng):
    scores = np.asarray(scores, float)
    return int(np.argmax(scores - 2 * sensitivity / epsilon * np.log(-np.log(rng.random(scores.size)))))


def _mean_sum_then_divide(values, level, public_high, epsilon, bound_share, rng):
    values = np.asarray(values, float)
    upper = dp_quantile(values, level, 0.0, public_high, bound_share * epsilon, rng)
    total = np.minimum(np.maximum(values, 0), upper).sum()
    return upper, float((total + rng.laplace(0.0, upper / ((1 - bound_share) * epsilon))) / len(values))


_SETTING_RNM = lambda s, d, e: (s.size, e, d)  # noqa: E731
_SETTING_MEAN = lambda v, e, share: (v.size, e, share)  # noqa: E731

MORE_WRONG_ANSWERS = {
    "07.3": {
        "non-private (calls): Gumbel noise memoised per (size, epsilon, sensitivity), reused when the scores change "
        "(referee s39rB)": _rnm_memo(_SETTING_RNM),
        "non-private (calls): Gumbel noise memoised per size and scores, reused on the same scores at another "
        "epsilon": _rnm_other_epsilon,
        "non-private (calls): Gumbel noise memoised per setting, reused on other scores half the time":
            _rnm_memo(_SETTING_RNM, 0.5),
    },
    "07.4": {
        "non-private (calls): a standard Laplace draw memoised per (n, epsilon, bound_share), reused when the values "
        "change (referee s39rB)": _mean_memo(_SETTING_MEAN),
        "non-private (calls): a standard Laplace draw memoised per n and values, reused on the same values at "
        "another epsilon": _mean_other_epsilon,
        "non-private (calls): a Laplace draw memoised per setting, reused on other values half the time":
            _mean_memo(_SETTING_MEAN, 0.5),
        "non-private (noise): Laplace noise clipped at +-8 scales (referee s39rB)": _clipped_laplace(-8.0, 8.0),
        "non-private (noise): Laplace noise clipped at +-7.8 scales": _clipped_laplace(-7.8, 7.8),
        "non-private (noise): Laplace noise clipped at +-4 scales (referee s39rB: told a draw is reused)":
            _clipped_laplace(-4.0, 4.0),
        "non-private (noise): Laplace noise clipped at +-6 scales": _clipped_laplace(-6.0, 6.0),
    },
    "09.1": {
        "non-private (calls): each customer's stream seeded by their id, rng unused (referee s39rB)":
            _per_customer(lambda customer, rng: _customer_hash(customer)),
        "non-private (calls): each customer's stream seeded by their id plus a constant, rng unused":
            _per_customer(lambda customer, rng: _customer_hash(customer) + 12345),
        "non-private (calls): a customer's kept days memoised per (customer, days), reused when their rows change "
        "(referee s39rB)": _memo_days(),
        "non-private (calls): a customer's kept days memoised, reused a third of the time when their rows change":
            _memo_days(1 / 3),
    },
}

#: Words the hint of each answer above must hold (referee s39rB D4, D6: clipping was told "a stored draw is
#: reused", a seed taken from the customer id that days "lean to the first ones").
HINT_WORDS = {"memoised": "reused", "clipped": "clipped there", "seeded by their id": "does not come from `rng`"}

HONEST = {
    "07.3": {"Gumbel noise by the inverse CDF (referee s39rB)": _rnm_inverse_cdf},
    "07.4": {"a noisy clipped sum divided by the public n (referee s39rB)": _mean_sum_then_divide},
}
