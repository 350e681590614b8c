"""Wrong answers to lesson 07's exercises: each a mistake a student could make, and each must be rejected.

Release exercises (07.1, 07.3, 07.4) include non-private answers (marked "non-private").
"""

import math

import numpy as np

from mic_dp_helpers.attacks.audit import audit_epsilon
from mic_dp_helpers.mechanisms.selection import dp_quantile
from wrong_answers._noise_misuse import sometimes_noiseless


# ------------------------------------------------------------------ 07.1 randomized response
def _rr(truth, epsilon, rng, *, keep=None, shared=False, only_yes=False, use_global=False):
    truth = np.asarray(truth, dtype=bool)
    p = 1 / (1 + math.exp(-epsilon)) if keep is None else keep(epsilon)
    if shared:
        coins = np.full(truth.size, rng.random())
    elif use_global:
        coins = np.random.random(truth.size)
    else:
        coins = rng.random(truth.size)
    kept = coins < p
    if only_yes:
        kept = kept | ~truth
    return np.where(kept, truth, ~truth)


# ------------------------------------------------------------------ 07.2 estimate
def _estimate(reports, epsilon, *, p_of=None, clip=False, plug_in=False, undivided_se=False):
    reports = np.asarray(reports, dtype=float)
    p = 1 / (1 + math.exp(-epsilon)) if p_of is None else p_of(epsilon)
    y = reports.mean()
    estimate = (y - (1 - p)) / (2 * p - 1)
    if clip:
        estimate = min(max(estimate, 0.0), 1.0)
    spread = y * (1 - y) if plug_in else p * (1 - p)
    se = math.sqrt(spread / reports.size) / (1 if undivided_se else (2 * p - 1))
    return estimate, se


# ------------------------------------------------------------------ 07.3 report-noisy-max
def _rnm(scores, sensitivity, epsilon, rng, *, noise="gumbel", scale_factor=2.0, ignore_sensitivity=False,
         release_score=False):
    scores = np.asarray(scores, dtype=float)
    scale = scale_factor * (1.0 if ignore_sensitivity else sensitivity) / epsilon
    if noise == "gumbel":
        noisy = scores + rng.gumbel(0, scale, scores.size)
    elif noise == "exponential":
        noisy = scores + rng.exponential(scale, scores.size)
    elif noise == "laplace":
        noisy = scores + rng.laplace(0, scale, scores.size)
    else:
        noisy = scores
    return float(noisy.max()) if release_score else int(np.argmax(noisy))


# ------------------------------------------------------------------ 07.4 bound and mean
def _bound_mean(values, level, high, epsilon, share, rng, *, exact_bound=False, data_high=False, full_mean=False,
                no_noise=False, scale_with_high=False, forget_n=False, swap_share=False, clip_to_high=False):
    values = np.asarray(values, dtype=float)
    bound_share = 1 - share if swap_share else share
    if exact_bound:
        upper = float(np.quantile(values, level))
    else:
        upper = dp_quantile(values, level, 0.0, float(values.max()) if data_high else high, bound_share * epsilon, rng)
    mean_epsilon = epsilon if full_mean else (1 - bound_share) * epsilon
    sensitivity = (high if scale_with_high else upper) / (1 if forget_n else len(values))
    clipped = np.clip(values, 0.0, high if clip_to_high else upper).mean()
    noise = 0.0 if no_noise else rng.laplace(0.0, sensitivity / mean_epsilon)
    return upper, float(clipped + noise)


# ------------------------------------------------------------------ 07.5 audits
def _audit_all(samples, *, n=None, threshold=None, invert=False):
    flagged = []
    for name, (a, b, claimed) in samples.items():
        size = len(a) if n is None else n
        bound = audit_epsilon(lambda data, k, rng: np.asarray(data)[:k], a, b, n_samples=size, rng=0).epsilon_lower_bound
        refuted = bound > (claimed if threshold is None else threshold(claimed))
        if refuted != invert:
            flagged.append(name)
    return flagged


def _by_mean_difference(samples):
    return [name for name, (a, b, claimed) in samples.items() if abs(np.mean(a) - np.mean(b)) > 0.1]


WRONG_ANSWERS = {
    "07.1": {
        "first person never randomised (off by one)": lambda truth, epsilon, rng:
            np.concatenate([np.asarray(truth, dtype=bool)[:1], _rr(np.asarray(truth)[1:], epsilon, rng)]),
        "non-private: returns the truth": lambda truth, eps, rng: np.asarray(truth, dtype=bool).copy(),
        "non-private: flips every answer": lambda truth, eps, rng: ~np.asarray(truth, dtype=bool),
        "non-private: flips too rarely (e^-eps / 2)": lambda t, e, rng: _rr(t, e, rng, keep=lambda eps: 1 - math.exp(-eps) / 2),
        "non-private: one coin for everybody": lambda t, e, rng: _rr(t, e, rng, shared=True),
        "non-private: only yes answers are randomized": lambda t, e, rng: _rr(t, e, rng, only_yes=True),
        "keeps with 1 / (1 + e^eps)": lambda t, e, rng: _rr(t, e, rng, keep=lambda eps: 1 / (1 + math.exp(eps))),
        "epsilon halved": lambda t, e, rng: _rr(t, e, rng, keep=lambda eps: 1 / (1 + math.exp(-eps / 2))),
        "Warner's fixed 3/4, ignoring epsilon": lambda t, e, rng: _rr(t, e, rng, keep=lambda eps: 0.75),
        "global random state": lambda t, e, rng: _rr(t, e, rng, use_global=True),
    },
    "07.2": {
        "raw share": lambda r, e: (float(np.mean(r)), _estimate(r, e)[1]),
        "clipped into [0, 1]": lambda r, e: _estimate(r, e, clip=True),
        "plug-in standard error": lambda r, e: _estimate(r, e, plug_in=True),
        "standard error not divided by 2p - 1": lambda r, e: _estimate(r, e, undivided_se=True),
        "p with epsilon / 2": lambda r, e: _estimate(r, e, p_of=lambda eps: 1 / (1 + math.exp(-eps / 2))),
        "p = 1 / (1 + e^eps)": lambda r, e: _estimate(r, e, p_of=lambda eps: 1 / (1 + math.exp(eps))),
        "estimate only": lambda r, e: _estimate(r, e)[0],
        "constant": lambda r, e: (0.3, 0.01),
    },
    "07.3": {
        "non-private: the exact argmax in 1% of calls": sometimes_noiseless(
            _rnm, lambda scores, sensitivity, epsilon, rng: int(np.argmax(scores))),
        "non-private: exact argmax": lambda s, d, e, rng: _rnm(s, d, e, rng, noise="none"),
        "non-private: scale sensitivity / epsilon (monotonic only)": lambda s, d, e, rng: _rnm(s, d, e, rng, scale_factor=1.0),
        "non-private: ignores the sensitivity": lambda s, d, e, rng: _rnm(s, d, e, rng, ignore_sensitivity=True),
        "exponential noise (permute-and-flip, not what is asked)": lambda s, d, e, rng: _rnm(s, d, e, rng, noise="exponential"),
        "Laplace noise": lambda s, d, e, rng: _rnm(s, d, e, rng, noise="laplace"),
        "releases the noisy score": lambda s, d, e, rng: _rnm(s, d, e, rng, release_score=True),
        "argmin": lambda s, d, e, rng: int(np.argmin(np.asarray(s, float) + rng.gumbel(0, 2 * d / e, len(s)))),
        "scale too large (4 sensitivity / epsilon)": lambda s, d, e, rng: _rnm(s, d, e, rng, scale_factor=4.0),
    },
    "07.4": {
        "non-private: the mean without noise in 1% of calls": sometimes_noiseless(
            _bound_mean, lambda *args: _bound_mean(*args, no_noise=True)),
        "non-private: exact quantile as the bound": lambda v, q, h, e, s, rng: _bound_mean(v, q, h, e, s, rng, exact_bound=True),
        "non-private: quantile bounds from the data's max": lambda v, q, h, e, s, rng: _bound_mean(v, q, h, e, s, rng, data_high=True),
        "non-private: whole epsilon again for the mean": lambda v, q, h, e, s, rng: _bound_mean(v, q, h, e, s, rng, full_mean=True),
        "non-private: mean without noise": lambda v, q, h, e, s, rng: _bound_mean(v, q, h, e, s, rng, no_noise=True),
        "noise scaled to public_high": lambda v, q, h, e, s, rng: _bound_mean(v, q, h, e, s, rng, scale_with_high=True),
        "forgets / n": lambda v, q, h, e, s, rng: _bound_mean(v, q, h, e, s, rng, forget_n=True),
        "budget split swapped": lambda v, q, h, e, s, rng: _bound_mean(v, q, h, e, s, rng, swap_share=True),
        "clips to public_high, not the bound": lambda v, q, h, e, s, rng: _bound_mean(v, q, h, e, s, rng, clip_to_high=True),
        "returns (mean, bound)": lambda v, q, h, e, s, rng: _bound_mean(v, q, h, e, s, rng)[::-1],
    },
    "07.5": {
        "flags everything": lambda samples: list(samples),
        "flags nothing": lambda samples: [],
        "flags any positive bound": lambda samples: _audit_all(samples, threshold=lambda c: 0.0),
        "flags the ones the audit does not refute": lambda samples: _audit_all(samples, invert=True),
        "audits only 300 samples": lambda samples: _audit_all(samples, n=300),
        "compares with half the claim": lambda samples: _audit_all(samples, threshold=lambda c: c / 2),
        "decides by the difference of means": _by_mean_difference,
        "returns a string": lambda samples: ",".join(_audit_all(samples)),
    },
}


# The answers that try to pass without solving (frame reading, patching, shadowed builtins), each
# wrapped around a wrong answer: every one must still be rejected.
from wrong_answers._cheats import cheats as _cheats  # noqa: E402

for _answers in WRONG_ANSWERS.values():
    _answers.update(_cheats(next(iter(_answers.values()))))

# Answers that hand the work to the course functions that already solve 07.1 to 07.3 (round 2 of the red team).
from mic_dp_helpers.mechanisms import local as _local_dp  # noqa: E402
from mic_dp_helpers.mechanisms import selection as _selection
from wrong_answers._cheats import calls_forbidden as _calls_forbidden  # noqa: E402

WRONG_ANSWERS["07.1"]["cheat: calls the course's randomized_response"] = _calls_forbidden(_local_dp.randomized_response)
WRONG_ANSWERS["07.1"]["cheat: generalized randomized response with k = 2"] = _calls_forbidden(
    _local_dp.generalized_randomized_response,
    adapt=lambda helper, truth, epsilon, rng: helper(np.asarray(truth, dtype=int), 2, epsilon, rng) == 1)
# Reports of integer and float dtypes (07.1's check accepts 0/1 arrays): each passed 07.2's check before them.
def _from_share(y, n, epsilon):
    p = 1 / (1 + math.exp(-epsilon))
    return (y - (1 - p)) / (2 * p - 1), math.sqrt(p * (1 - p) / n) / (2 * p - 1)


WRONG_ANSWERS["07.2"].update({
    "(data) the share of no as mean(~reports) (wrong on 0/1 integers)": lambda r, e: _from_share(
        1 - float(np.mean(~r)), len(r), e),
    "(data) yes reports as len(reports[reports]) (fancy indexing on 0/1 integers)": lambda r, e: _from_share(
        len(r[r]) / len(r), len(r), e),
    "(data) bool reports only (any other dtype read as half yes)": lambda r, e: _from_share(
        float(np.mean(r)) if r.dtype == bool else 0.5, len(r), e),
})
WRONG_ANSWERS["07.2"]["cheat: calls the course's rr_estimate"] = _calls_forbidden(
    _local_dp.rr_estimate, adapt=lambda helper, reports, epsilon: tuple(helper(reports, epsilon))[:2])
WRONG_ANSWERS["07.3"]["cheat: calls the course's report_noisy_max"] = _calls_forbidden(_selection.report_noisy_max)
WRONG_ANSWERS["07.3"]["cheat: samples the course's exponential mechanism"] = _calls_forbidden(
    _selection.exponential_mechanism, swallow=lambda scores, sensitivity, epsilon, rng: int(np.argmax(scores)))


def _clamped_dp_mean(values, level, public_high, epsilon, bound_share, rng):
    """Clamps the noisy mean into [0, upper]: post-processing, but not the Laplace release asked for."""
    values = np.asarray(values, dtype=float)
    upper = dp_quantile(values, level, 0.0, public_high, bound_share * epsilon, rng)
    noisy = np.clip(values, 0.0, upper).mean() + rng.laplace(0.0, upper / (len(values) * (1 - bound_share) * epsilon))
    return upper, float(np.clip(noisy, 0.0, upper))


WRONG_ANSWERS["07.4"]["DP mean clamped to [0, upper]"] = _clamped_dp_mean


# ------------------------------------------------------------------ by class (issue 26): size, epsilon, calls, shape, data
def _exact_when(condition, correct, exact):
    """``correct(*args)``, but the exact (non-private) answer whenever ``condition(*args)`` holds."""
    return lambda *args: exact(*args) if condition(*args) else correct(*args)


def _reused(correct, every: int = 1):
    """``correct``, but each computed answer is returned again for the next ``every`` calls with the same input."""
    memory = {}

    def answer(*args):
        key = (id(args[0]), len(args[0]) if hasattr(args[0], "__len__") else 0, repr(args[1:-1]))
        count, value = memory.get(key, (0, None))
        if count % (every + 1) == 0:
            value = correct(*args)
        memory.clear()
        memory[key] = (count + 1, value)
        return value
    return answer


def _rr_paired(truth, epsilon, rng, *, antithetic=False, adjacent=False):
    truth = np.asarray(truth, dtype=bool)
    n = truth.size
    p = 1 / (1 + math.exp(-epsilon))
    if adjacent:  # person 2i and 2i + 1 share a coin
        coins = np.repeat(rng.random((n + 1) // 2), 2)[:n]
    else:  # person i and person i + n/2 share a coin
        half = rng.random((n + 1) // 2)
        coins = np.concatenate([half, 1 - half if antithetic else half])[:n]
    return np.where(coins < p, truth, ~truth)


_CORRECT_RR = lambda t, e, rng: _rr(t, e, rng)  # noqa: E731
_EXACT_RR = lambda t, e, rng: np.asarray(t, dtype=bool).copy()  # noqa: E731

WRONG_ANSWERS["07.1"].update({
    "non-private: coins shared between person i and i + n/2": lambda t, e, rng: _rr_paired(t, e, rng),
    "non-private: antithetic coins for person i and i + n/2": lambda t, e, rng: _rr_paired(t, e, rng, antithetic=True),
    "non-private: persons 2i and 2i + 1 share a coin": lambda t, e, rng: _rr_paired(t, e, rng, adjacent=True),
    "non-private: exact for more than 5,000 people": _exact_when(lambda t, e, rng: len(t) > 5000, _CORRECT_RR, _EXACT_RR),
    "non-private: exact for more than 50,000 people": _exact_when(lambda t, e, rng: len(t) > 50_000, _CORRECT_RR, _EXACT_RR),
    "non-private: exact at epsilon >= 8": _exact_when(lambda t, e, rng: e >= 8, _CORRECT_RR, _EXACT_RR),
    "non-private: exact at epsilon < 0.03": _exact_when(lambda t, e, rng: e < 0.03, _CORRECT_RR, _EXACT_RR),
    "non-private: the same coins for every call": _reused(_CORRECT_RR, every=10**9),
    "non-private: coins reused on every other call": _reused(_CORRECT_RR, every=1),
    "non-private (size): exact for more than 100,000 people":
        _exact_when(lambda t, e, rng: len(t) > 100_000, _CORRECT_RR, _EXACT_RR),
    "non-private (parameters): exact above epsilon 10.5": _exact_when(lambda t, e, rng: e > 10.5, _CORRECT_RR, _EXACT_RR),
    "non-private (size): person 0 never randomised for more than 5,000 people":
        lambda t, e, rng: (lambda r: np.concatenate([np.asarray(t[:1], dtype=bool), r[1:]]) if len(t) > 5000 else r)(
            _rr(t, e, rng)),
    "non-private: a new generator from 16 seeds": lambda t, e, rng: _rr(t, e, np.random.default_rng(int(rng.integers(16)))),
})


def _rnm_far(scores, sensitivity, epsilon, rng, *, prune=None, exact_gap=None, clip=None, unit=2.0):
    """Gumbel noisy max, but candidates ``prune`` units below the max dropped, the exact argmax when the gap
    to the runner-up exceeds ``exact_gap`` units, or the noise clipped at ``clip`` units (unit: ``unit * sensitivity
    / epsilon``)."""
    scores = np.asarray(scores, dtype=float)
    scale = 2.0 * sensitivity / epsilon
    unit_size = unit * sensitivity / epsilon
    if exact_gap is not None and scores.size > 1 and np.sort(scores)[-1] - np.sort(scores)[-2] > exact_gap * unit_size:
        return int(np.argmax(scores))
    noise = rng.gumbel(0.0, scale, scores.size)
    if clip is not None:
        noise = np.clip(noise, -clip * unit_size, clip * unit_size)
    noisy = scores + noise
    if prune is not None:
        noisy[scores < scores.max() - prune * unit_size] = -np.inf
    return int(np.argmax(noisy))


_CORRECT_RNM = lambda s, d, e, rng: _rnm(s, d, e, rng)  # noqa: E731
_EXACT_RNM = lambda s, d, e, rng: int(np.argmax(s))  # noqa: E731

WRONG_ANSWERS["07.3"].update({
    "non-private: prunes candidates 10 scales below the max": lambda s, d, e, rng: _rnm_far(s, d, e, rng, prune=10),
    "non-private: prunes candidates 25 sensitivity/epsilon below the max": lambda s, d, e, rng: _rnm_far(s, d, e, rng, prune=25, unit=1.0),
    "non-private: prunes candidates 6 scales below the max": lambda s, d, e, rng: _rnm_far(s, d, e, rng, prune=6),
    "non-private: exact argmax when the gap exceeds 8 scales": lambda s, d, e, rng: _rnm_far(s, d, e, rng, exact_gap=8),
    "non-private: exact argmax when the gap exceeds 20 sensitivity/epsilon": lambda s, d, e, rng: _rnm_far(s, d, e, rng, exact_gap=20, unit=1.0),
    "non-private: Gumbel noise clipped at 5 scales": lambda s, d, e, rng: _rnm_far(s, d, e, rng, clip=5),
    "non-private: Gumbel noise clipped at 9 scales": lambda s, d, e, rng: _rnm_far(s, d, e, rng, clip=9),
    "non-private: exact at epsilon >= 10": _exact_when(lambda s, d, e, rng: e >= 10, _CORRECT_RNM, _EXACT_RNM),
    "non-private: exact at epsilon <= 0.05": _exact_when(lambda s, d, e, rng: e <= 0.05, _CORRECT_RNM, _EXACT_RNM),
    "non-private: exact for more than 10,000 candidates": _exact_when(lambda s, d, e, rng: len(s) > 10_000, _CORRECT_RNM, _EXACT_RNM),
    "non-private: the same noise for every call": _reused(_CORRECT_RNM, every=10**9),
    "non-private: noise reused on every other call": _reused(_CORRECT_RNM, every=1),
})


def _bound_mean_variant(values, level, high, epsilon, share, rng, *, lower_min=False, exact_mean=False,
                        exact_bound=False, max_bound=False):
    values = np.asarray(values, dtype=float)
    if exact_bound:
        upper = float(np.quantile(values, level))
    elif max_bound:
        upper = float(values.max())
    else:
        upper = dp_quantile(values, level, float(values.min()) if lower_min else 0.0, high, share * epsilon, rng)
    clipped = float(np.clip(values, 0.0, upper).mean())
    if exact_mean:
        return upper, clipped
    return upper, clipped + float(rng.laplace(0.0, upper / (len(values) * (1 - share) * epsilon)))


_CORRECT_BM = lambda *args: _bound_mean_variant(*args)  # noqa: E731

WRONG_ANSWERS["07.4"].update({
    "non-private: lower end of the quantile's range is v.min()": lambda *a: _bound_mean_variant(*a, lower_min=True),
    "non-private: v.min() as lower end for fewer than 100 values":
        _exact_when(lambda v, *rest: len(v) < 100, _CORRECT_BM, lambda *a: _bound_mean_variant(*a, lower_min=True)),
    "non-private: exact mean for more than 10,000 values":
        _exact_when(lambda v, *rest: len(v) > 10_000, _CORRECT_BM, lambda *a: _bound_mean_variant(*a, exact_mean=True)),
    "non-private: exact bound for more than 10,000 values":
        _exact_when(lambda v, *rest: len(v) > 10_000, _CORRECT_BM, lambda *a: _bound_mean_variant(*a, exact_bound=True)),
    "non-private: exact mean at epsilon >= 10":
        _exact_when(lambda v, q, h, e, *rest: e >= 10, _CORRECT_BM, lambda *a: _bound_mean_variant(*a, exact_mean=True)),
    "non-private: the data's maximum as the bound at epsilon <= 0.05":
        _exact_when(lambda v, q, h, e, *rest: e <= 0.05, _CORRECT_BM, lambda *a: _bound_mean_variant(*a, max_bound=True)),
    "non-private: the same release for every call": _reused(_CORRECT_BM, every=10**9),
    "non-private: release reused on every other call": _reused(_CORRECT_BM, every=1),
})


def _bound_mean_noise(values, level, high, epsilon, share, rng, *, factor=lambda n, e: 1.0, clip=None, cap_from=None):
    """The right release, but the Laplace scale times ``factor(n, epsilon)``, the noise clipped at ``clip`` scales,
    or the bound capped at the data's maximum from ``cap_from`` values on."""
    values = np.asarray(values, dtype=float)
    upper = dp_quantile(values, level, 0.0, high, share * epsilon, rng)
    if cap_from is not None and len(values) >= cap_from:
        upper = min(upper, float(values.max()))
    scale = upper / (len(values) * (1 - share) * epsilon)
    noise = float(rng.laplace(0.0, scale))
    if clip is not None:
        noise = min(max(noise, -clip * scale), clip * scale)
    return upper, float(np.clip(values, 0.0, upper).mean()) + noise * factor(len(values), epsilon)


WRONG_ANSWERS["07.4"].update({
    "non-private (shape): Laplace noise clipped at 5 scales": lambda *a: _bound_mean_noise(*a, clip=5.0),
    "non-private (shape): Laplace noise clipped at 3 scales": lambda *a: _bound_mean_noise(*a, clip=3.0),
    "non-private (size): half the noise scale for more than 5,000 values":
        lambda *a: _bound_mean_noise(*a, factor=lambda n, e: 0.5 if n > 5000 else 1.0),
    "non-private (size): the whole epsilon on the mean for more than 10,000 values":
        lambda v, q, h, e, s, rng: _bound_mean_noise(v, q, h, e, s, rng,
                                                     factor=lambda n, eps: (1 - s) if n > 10_000 else 1.0),
    "non-private (size): exact mean for more than 20,000 values":
        _exact_when(lambda v, *rest: len(v) > 20_000, _CORRECT_BM, lambda *a: _bound_mean_variant(*a, exact_mean=True)),
    "non-private (parameters): exact mean above epsilon 20":
        _exact_when(lambda v, q, h, e, *rest: e > 20, _CORRECT_BM, lambda *a: _bound_mean_variant(*a, exact_mean=True)),
    "non-private (size): bound capped at the data's maximum from 1,000 values": lambda *a: _bound_mean_noise(*a, cap_from=1000),
    # referee (07.4 sizes): the smallest case had 30 values
    "non-private (size): exact mean for fewer than 5 values":
        _exact_when(lambda v, *rest: len(v) < 5, _CORRECT_BM, lambda *a: _bound_mean_variant(*a, exact_mean=True)),
    "non-private (size): exact mean for one value":
        _exact_when(lambda v, *rest: len(v) == 1, _CORRECT_BM, lambda *a: _bound_mean_variant(*a, exact_mean=True)),
})


def _frequency_ratio(samples, *, confidence=None):
    """Flags a claim when the largest log ratio of observed output frequencies exceeds it: a point estimate."""
    flagged = []
    for name, (a, b, claimed) in samples.items():
        a, b = np.asarray(a), np.asarray(b)
        best = 0.0
        for value in np.unique(np.concatenate([a, b]))[:50]:
            pa, pb = np.mean(a == value), np.mean(b == value)
            if pa > 0 and pb > 0:
                best = max(best, abs(math.log(pa / pb)))
        if best > claimed:
            flagged.append(name)
    return flagged


def _audit_at(samples, confidence):
    return [name for name, (a, b, claimed) in samples.items()
            if audit_epsilon(lambda data, k, rng: np.asarray(data)[:k], a, b, n_samples=len(a), confidence=confidence,
                             rng=0).refutes(claimed)]


WRONG_ANSWERS["07.5"].update({
    "a frequency ratio without a confidence bound": _frequency_ratio,
    "audits only 5,000 samples": lambda samples: _audit_all(samples, n=5000),
})


# Far above the largest size and candidates left out (referee, lesson 07 pass 4): an answer exact above
# 150,000 people, 200,000 values or a million, or one that samples among only part of the candidates.
def _rnm_among(scores, sensitivity, epsilon, rng, *, top=None, first=None, gap=None):
    """Gumbel noisy max among the best ``top`` candidates, the first ``first`` positions, or those within ``gap``
    Gumbel scales of the best (only when there are more than 10,000 candidates)."""
    scores = np.asarray(scores, dtype=float)
    if scores.size <= 10_000:
        return _rnm(scores, sensitivity, epsilon, rng)
    scale = 2.0 * sensitivity / epsilon
    if top is not None:
        keep = np.argsort(-scores, kind="stable")[:top]
    elif first is not None:
        keep = np.arange(min(first(scores.size), scores.size))
    else:
        keep = np.flatnonzero(scores >= scores.max() - gap * scale)
    return int(keep[np.argmax(scores[keep] + rng.gumbel(0.0, scale, keep.size))])


WRONG_ANSWERS["07.1"].update({
    "non-private (size): exact for more than 150,000 people":
        _exact_when(lambda t, e, rng: len(t) > 150_000, _CORRECT_RR, _EXACT_RR),
    "non-private (size): exact for more than 160,000 people":
        _exact_when(lambda t, e, rng: len(t) > 160_000, _CORRECT_RR, _EXACT_RR),
    "non-private (size): exact from 500,000 people": _exact_when(lambda t, e, rng: len(t) >= 500_000, _CORRECT_RR, _EXACT_RR),
    "non-private (size): exact from a million people":
        _exact_when(lambda t, e, rng: len(t) >= 1_000_000, _CORRECT_RR, _EXACT_RR),
    "non-private (size): only the first 200,000 people randomised": lambda t, e, rng: (
        np.concatenate([_rr(t[:200_000], e, rng), np.asarray(t[200_000:], dtype=bool)]) if len(t) > 200_000
        else _rr(t, e, rng)),
})
WRONG_ANSWERS["07.3"].update({
    "non-private (size): samples only among the best 1,000 candidates": lambda *a: _rnm_among(*a, top=1000),
    "non-private (size): samples only among the best 10,000 candidates": lambda *a: _rnm_among(*a, top=10_000),
    "non-private (size): samples only among the best 50,000 candidates": lambda *a: _rnm_among(*a, top=50_000),
    "non-private (size): samples only among the best 70% of candidates": lambda s, *a: _rnm_among(
        s, *a, top=int(0.7 * len(s))),
    "non-private (size): samples only among the first 50,000 positions": lambda *a: _rnm_among(
        *a, first=lambda n: 50_000),
    "non-private (size): samples only among the first 80% of positions": lambda *a: _rnm_among(
        *a, first=lambda n: int(0.8 * n)),
    "non-private (size): drops candidates more than 1 Gumbel scale behind": lambda *a: _rnm_among(*a, gap=1.0),
    "non-private (size): drops candidates more than 1.4 Gumbel scales behind": lambda *a: _rnm_among(*a, gap=1.4),
})
WRONG_ANSWERS["07.4"].update({
    "non-private (size): exact mean from 200,000 values":
        _exact_when(lambda v, *rest: len(v) >= 200_000, _CORRECT_BM, lambda *a: _bound_mean_variant(*a, exact_mean=True)),
    "non-private (size): exact mean from 500,000 values":
        _exact_when(lambda v, *rest: len(v) >= 500_000, _CORRECT_BM, lambda *a: _bound_mean_variant(*a, exact_mean=True)),
    "non-private (size): exact mean from a million values":
        _exact_when(lambda v, *rest: len(v) >= 1_000_000, _CORRECT_BM, lambda *a: _bound_mean_variant(*a, exact_mean=True)),
    "non-private (size): exact bound and mean above 150,000 values":
        _exact_when(lambda v, *rest: len(v) > 150_000, _CORRECT_BM,
                    lambda *a: _bound_mean_variant(*a, exact_mean=True, exact_bound=True)),
})


# ------------------------------------------------------------------ honest variants: each must pass
def _rr_via_integers(truth, epsilon, rng):
    truth = np.asarray(truth, dtype=bool)
    flip = rng.random(truth.size) < 1 / (1 + math.exp(epsilon))
    return truth ^ flip


def _rnm_inverse_cdf(scores, sensitivity, epsilon, rng):
    logits = epsilon * np.asarray(scores, dtype=float) / (2 * sensitivity)
    weights = np.exp(logits - logits.max())
    return int(rng.choice(len(weights), p=weights / weights.sum()))


def _rnm_gumbel_by_hand(scores, sensitivity, epsilon, rng):
    scores = np.asarray(scores, dtype=float)
    gumbel = -np.log(-np.log(rng.random(scores.size)))
    return int(np.argmax(scores + 2 * sensitivity / epsilon * gumbel))


def _bound_mean_two_exponentials(values, level, high, epsilon, share, rng):
    values = np.asarray(values, dtype=float)
    upper = dp_quantile(values, level, 0.0, high, share * epsilon, rng)
    scale = upper / (len(values) * (1 - share) * epsilon)
    return upper, float(np.clip(values, 0, upper).sum() / len(values) + scale * (rng.exponential() - rng.exponential()))


HONEST_ANSWERS = {
    "07.1": {"xor with a flip coin": _rr_via_integers},
    "07.3": {"exponential mechanism by rng.choice": _rnm_inverse_cdf, "Gumbel noise from uniforms": _rnm_gumbel_by_hand},
    "07.4": {"Laplace as a difference of exponentials": _bound_mean_two_exponentials},
    "07.5": {"the audit at 95% confidence, another rng": lambda samples: [
        name for name, (a, b, claimed) in samples.items()
        if audit_epsilon(lambda data, k, rng: np.asarray(data)[:k], a, b, n_samples=min(len(a), len(b)),
                         confidence=0.95, rng=123).refutes(claimed)]},
}


# ------------------------------------------------------------------ referee red0708: epsilon bands, far pairs, near-bound claims
def _rr_halves_share_above(truth, epsilon, rng, size=20_000):
    """Coins shared between person i and i + n/2, only for more than ``size`` people."""
    return _rr_paired(truth, epsilon, rng) if len(truth) > size else _rr(truth, epsilon, rng)


def _audit_near(samples, *, confidence=0.95, margin=0.0, n=None):
    return [name for name, (a, b, claimed) in samples.items()
            if audit_epsilon(lambda data, k, rng: np.asarray(data)[:k], np.asarray(a)[:n], np.asarray(b)[:n],
                             n_samples=len(a) if n is None else n, confidence=confidence, rng=0).refutes(claimed + margin)]


WRONG_ANSWERS["07.1"].update({
    "non-private (size): coins shared between person i and i + n/2 above 20,000 people": _rr_halves_share_above,
    "non-private (parameters): exact for 2 < epsilon < 3": _exact_when(lambda t, e, rng: 2 < e < 3, _CORRECT_RR, _EXACT_RR),
    "non-private (parameters): exact for 7 < epsilon < 9": _exact_when(lambda t, e, rng: 7 < e < 9, _CORRECT_RR, _EXACT_RR),
})
WRONG_ANSWERS["07.3"].update({
    "non-private (shape): Gumbel noise clipped above at 12 scales": lambda s, d, e, rng: int(np.argmax(
        np.asarray(s, float) + np.minimum(rng.gumbel(0.0, 2 * d / e, len(s)), 12 * 2 * d / e))),
    "non-private (parameters): exact argmax for 5 < epsilon < 15": _exact_when(lambda s, d, e, rng: 5 < e < 15, _CORRECT_RNM, _EXACT_RNM),
})
WRONG_ANSWERS["07.4"].update({
    "non-private (parameters): exact mean for 3 < epsilon < 15": _exact_when(
        lambda v, q, h, e, *rest: 3 < e < 15, _CORRECT_BM, lambda *a: _bound_mean_variant(*a, exact_mean=True)),
    "non-private (parameters): exact mean for 0.03 < epsilon < 0.09": _exact_when(
        lambda v, q, h, e, *rest: 0.03 < e < 0.09, _CORRECT_BM, lambda *a: _bound_mean_variant(*a, exact_mean=True)),
})
WRONG_ANSWERS["07.5"].update({
    "refutes only a claim 0.05 below the bound": lambda samples: _audit_near(samples, margin=0.05),
    "audits only the first 50,000 samples": lambda samples: _audit_near(samples, n=50_000),
    "audits only the first 20,000 samples": lambda samples: _audit_near(samples, n=20_000),
})
HONEST_ANSWERS["07.1"]["forced response: the truth w.p. 2p - 1, else a fair coin"] = lambda t, e, rng: (
    lambda t, p: np.where(rng.random(t.size) < 2 * p - 1, t, rng.random(t.size) < 0.5))(
    np.asarray(t, dtype=bool), 1 / (1 + math.exp(-e)))
HONEST_ANSWERS["07.3"]["the exponential mechanism as an exponential race"] = lambda s, d, e, rng: int(np.argmin(
    np.log(rng.exponential(size=len(s))) - e * np.asarray(s, float) / (2 * d)))
HONEST_ANSWERS["07.5"]["outputs a and b swapped"] = lambda samples: [
    name for name, (a, b, claimed) in samples.items()
    if audit_epsilon(lambda data, k, rng: np.asarray(data)[:k], b, a, n_samples=len(a), rng=0).refutes(claimed)]


# ------------------------------------------------------------------ referee redB: beyond the largest sizes, across calls
def _memoised_above(correct, size):
    """``correct``, but above ``size`` inputs the first call's answer for that size is returned on every later call."""
    memory = {}

    def answer(data, *rest):
        if len(data) <= size:
            return correct(data, *rest)
        if len(data) not in memory:
            memory[len(data)] = correct(data, *rest)
        return memory[len(data)]
    return answer


WRONG_ANSWERS["07.1"].update({
    "non-private (calls): coins memoised per size above 150,000 people": _memoised_above(_CORRECT_RR, 150_000),
    "non-private (parameters): coins shared between person i and i + n/2 above epsilon 5":
        lambda t, e, rng: _rr_paired(t, e, rng) if e > 5 else _rr(t, e, rng),
    "non-private (size): persons 2i and 2i + 1 share a coin when the number of people is odd":
        lambda t, e, rng: _rr_paired(t, e, rng, adjacent=True) if len(t) % 2 else _rr(t, e, rng),
})
WRONG_ANSWERS["07.3"].update({
    "non-private (size): exact argmax above 100,000 candidates":
        _exact_when(lambda s, d, e, rng: len(s) > 100_000, _CORRECT_RNM, _EXACT_RNM),
    "non-private (calls): the same noise on every call above 100,000 candidates":
        _memoised_above(_CORRECT_RNM, 100_000),
})


# Referee rt0709 (size bands in 07.1; bound shares, public bounds, levels, sizes and the noise's size in 07.4):
# in their own module, which reads this one's helpers.
from wrong_answers._lesson07_bands import HONEST as _bands_honest, WRONG as _bands_wrong  # noqa: E402
# Referee s36rC (07.3 size and sensitivity bands, 07.5 audits in any order of the samples): likewise.
from wrong_answers._lesson07_s36 import HONEST as _s36_honest, WRONG as _s36_wrong  # noqa: E402

# Referee s37rB (07.1 and 07.4): its wrong answers join through MORE_WRONG_ANSWERS, its honest ones here.
from wrong_answers.lesson07_s37b1 import HONEST as _s37b_honest  # noqa: E402
from wrong_answers.lesson07_s38b1 import HONEST as _s38b_honest  # noqa: E402  (referee s38rB, likewise)
from wrong_answers.lesson07_09_s39b import HONEST as _s39b_honest  # noqa: E402  (referee s39rB, likewise)
from wrong_answers.lesson07_s40a import HONEST as _s40a_honest  # noqa: E402  (referee s39rB D0, D1, likewise)

for _wrong, _honest in ((_bands_wrong, _bands_honest), (_s36_wrong, _s36_honest), ({}, _s37b_honest),
                        ({}, _s38b_honest), ({}, _s39b_honest), ({}, _s40a_honest)):
    for _exercise, _answers in _wrong.items():
        WRONG_ANSWERS[_exercise].update(_answers)
    for _exercise, _answers in _honest.items():
        HONEST_ANSWERS[_exercise].update(_answers)
