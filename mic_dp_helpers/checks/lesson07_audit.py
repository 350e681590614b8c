"""Check of lesson 07's audit exercise (07.5): which "private" selections do their outputs refute?

Moved from ``lesson07_selection`` (07.3, 07.4), which had reached 600 lines.
"""

from __future__ import annotations

import functools
import math

import numpy as np

from mic_dp_helpers.mechanisms import broken_selection as _broken
from mic_dp_helpers.checks._core import CheckFailed, exercise

# References bound at import: patching numpy or the course package later changes nothing here.
_asarray, _concatenate, _default_rng = np.asarray, np.concatenate, np.random.default_rng
_SAMPLERS = {name: getattr(_broken, name) for name in _broken.__all__ if callable(getattr(_broken, name))}


def _outputs(sampler_name: str, dataset, size: int, rng) -> np.ndarray:
    out = _asarray(_SAMPLERS[sampler_name](dataset, size, rng, epsilon=1.0), dtype=float)
    return out.reshape(size, -1)[:, 0] if out.ndim > 1 else out


def _candidate_pool():
    """(sampler, dataset_a, dataset_b, claimed epsilon, truly within the claim?) for each candidate kind.

    Besides the planted bugs and their fixes, randomized response (true epsilon exactly 1) is
    offered with claims 1.6 and 0.9 (its audit's 95% bound with 100,000 outputs is about 0.97), and, last,
    with a claim that ``_round`` replaces by an honest one, 1.03 to 1.06 (``_honest_entry``; referee s37rC: it
    was about 0.995, below the true epsilon 1, and a valid audit that refuted it was rejected).
    """
    pool = []
    for bug in _broken.planted_selection_bugs():
        pool.append((bug.mechanism.__name__, bug.dataset_a, bug.dataset_b, bug.claimed_epsilon, False))
        if bug.fixed.__name__ != "randomized_response_one":  # its audit is tight at 1; use it with a margin below
            pool.append((bug.fixed.__name__, bug.dataset_a, bug.dataset_b, bug.claimed_epsilon, True))
    pool.append(("randomized_response_one", np.array([True]), np.array([False]), 1.6, True))
    pool.append(("randomized_response_one", np.array([True]), np.array([False]), 0.9, False))
    pool.append(("randomized_response_one", np.array([True]), np.array([False]), 1.045, True))
    return pool


def _round_picks(seed: int, pool_size: int, fine: list[bool]) -> np.ndarray:
    """Which pool entries a round uses (at least one within its claim and one not, and the last, randomized response with an honest claim)."""
    generator = _default_rng(seed)
    picks = generator.choice(pool_size, size=int(generator.integers(4, 7)), replace=False)
    if len({fine[i] for i in picks}) == 1:
        other = next(i for i in range(pool_size) if fine[i] != fine[picks[0]])
        picks = _concatenate([picks[:3], [other]])
    if pool_size - 1 not in picks:  # randomized response, honest, near its true epsilon
        picks = _concatenate([picks, [pool_size - 1]])
    return picks


def _round_samples(seed: int, pool) -> dict:
    """The outputs handed to the student for one round: {name: (outputs_a, outputs_b, claimed_epsilon)}."""
    return _round(seed, pool)[0]


def _audit_bound(a: np.ndarray, b: np.ndarray, confidence: float = 0.95, size: int | None = None,
                 n_candidates: int = 10) -> float:
    """The course audit's lower bound on the first ``size`` outputs of each side (all of them by default)."""
    from mic_dp_helpers.attacks.audit import audit_epsilon

    size = min(len(a), len(b)) if size is None else size
    return float(audit_epsilon(lambda data, k, rng: data[:k], a[:size], b[:size], n_samples=size,
                               confidence=confidence, rng=0, n_candidates=n_candidates).epsilon_lower_bound)


#: Random orders of the samples over which ``_far_below_claim`` averages the reference audit's bound.
PERMUTATIONS = 4
#: Upper bounds of the standard deviation of the audit's bound over orders of the samples, per kind of entry
#: (measured: 8 draws of each kind, 30 orders each, sd 0.0047-0.0058, 0.0071-0.0113 and 0.056-0.073; for the
#: reference audit of ``_far_below_claim``, 3 draws x 10 orders: 0.0031-0.0065, 0.0074-0.0095, 0.048-0.062).
ORDER_SPREAD = {"rr": 0.0065, "leak": 0.0125, "rare leak": 0.08}
#: Normal quantile of the order-proof claims: 1 - Phi(3.82) = 6.7e-5 per verdict, 15 verdicts in three rounds.
NEAR_BOUND_Z = 3.82
#: Share of side a's outputs that randomized response "with a leak" replaces by 2, an output side b never gives.
LEAK_RATES = {"rr": 0.0, "leak": 0.1, "rare leak": 0.003, "rare rr": 0.0, "rare values": 0.0}
#: Kind "rare rr": side b's share of the rare output 2 (side a's is e times as large, so epsilon stays 1.0001).
RARE_OUTPUT_SHARE = 4e-5
#: Kind "rare values": RARE_VALUES outputs 2, 3, ..., each with side b's share RARE_VALUE_SHARE (side a's e times it:
#: about 2.7 and 1 of 100,000 each), so some value shows on one side only in 99.3% of draws (epsilon 1.0002).
RARE_VALUES, RARE_VALUE_SHARE = 10, 1e-5
#: The reference audit of the "far below" claims: the most conservative valid audit the check accepts (a
#: Bonferroni correction over up to 12 mechanisms, 0.05 / 12, and up to 20 candidate events).
REFERENCE_AUDIT = {"confidence": 0.996, "n_candidates": 20}
#: Claims of the honest entries (true epsilon 1 to 1.0002): above every valid audit's bound (0.98 at most, sd 0.008).
HONEST_CLAIMS = (1.02, 1.05)
#: The entries ``_round`` adds to every round: (kind, role).
ADDED_ENTRIES = (("rr", "far below"), ("rare rr", "honest"), ("leak", "far below"), ("rare leak", "far below"),
                 ("rare values", "honest"))


def _kind_outputs(kind: str, rng_seed: int) -> tuple[np.ndarray, np.ndarray]:
    """100,000 outputs per side of randomized response (epsilon 1) on True and False, drawn from ``rng_seed``.

    Kinds "leak" and "rare leak" then replace a share ``LEAK_RATES[kind]`` of side a's outputs by 2: no
    epsilon covers them, and the audit's bound rests on the count of 2s on side a against none on side b.
    Kind "rare rr" replaces a share e x ``RARE_OUTPUT_SHARE`` of side a's and ``RARE_OUTPUT_SHARE`` of side b's
    outputs by 2 (about 11 and 4 of 100,000): still about 1-DP (1.0001), but the ratio of the rare output's counts, a
    point estimate, exceeds 1.05 in about half the draws (infinite when side b has none).
    Kind "rare values" does so for ten values 2 to 11, each about 2.7 and 1 times in 100,000 (``RARE_VALUES``;
    epsilon 1.0002): a rule that refutes a claim when an output shows on one side only (referee s38rC: passed)
    flags it in 99.3% of draws (and when one shows 3 or more times on one side only, in 88%).
    """
    rng = _default_rng(rng_seed)
    a = _outputs("randomized_response_one", np.array([True]), 100_000, rng)
    b = _outputs("randomized_response_one", np.array([False]), 100_000, rng)
    if LEAK_RATES[kind]:
        a = np.where(rng.random(a.size) < LEAK_RATES[kind], 2.0, a)
    if kind == "rare rr":
        a = np.where(rng.random(a.size) < math.e * RARE_OUTPUT_SHARE, 2.0, a)
        b = np.where(rng.random(b.size) < RARE_OUTPUT_SHARE, 2.0, b)
    if kind == "rare values":
        a, b = _with_rare_values(a, math.e * RARE_VALUE_SHARE, rng), _with_rare_values(b, RARE_VALUE_SHARE, rng)
    return a, b


def _with_rare_values(outputs: np.ndarray, share: float, rng) -> np.ndarray:
    """``outputs`` with each of the values 2, ..., RARE_VALUES + 1 put in place of a share ``share`` of them."""
    u = rng.random(outputs.size)
    return np.where(u < RARE_VALUES * share, 2.0 + np.floor(u / share), outputs)


@functools.lru_cache(maxsize=128)
def _far_below_claim(kind: str, rng_seed: int) -> float:
    """A claim for ``_kind_outputs(kind, rng_seed)`` that every valid audit of all the outputs refutes, in any order.

    The audit selects its events on the first half of the samples and evaluates them on the second, so its bound
    depends on the order of the samples (referee s36rC: sd 0.003-0.006 for randomized response); a correct audit
    may use any order, and any valid 95% audit (referee s37rC: n_candidates 1 or 20, a Bonferroni correction over
    the mechanisms) must pass. The claim is ``m - 3.82 s sqrt(1 + 1/4)``, m the mean bound of the most
    conservative of them (``REFERENCE_AUDIT``) over ``PERMUTATIONS`` random orders, s ``ORDER_SPREAD[kind]``:
    that audit's bound in a new order falls below it with probability below 6.7e-5, and the course audit's
    (0.008, 0.42 and 0.49 higher for randomized response, the leak and the rare leak) even less often.
    """
    a, b = _kind_outputs(kind, rng_seed)
    generator = _default_rng(rng_seed + 1)
    mean = float(np.mean([_audit_bound(generator.permutation(a), generator.permutation(b), **REFERENCE_AUDIT)
                          for _ in range(PERMUTATIONS)]))
    return mean - NEAR_BOUND_Z * ORDER_SPREAD[kind] * math.sqrt(1 + 1 / PERMUTATIONS)


def _added_entry(kind: str, role: str, rng_seed: int) -> tuple:
    """(outputs a, outputs b, claim, role) of an entry "far below" its bound or "honest" (claim above its true epsilon).

    An honest claim is drawn from ``HONEST_CLAIMS``: no valid 95% audit refutes it (the bound's mean is at most
    0.98 for n_candidates=1, 0.97 at the defaults), nor is the mechanism private at a lower claim than 1.0002.
    """
    if role == "honest":
        claim = float(_default_rng(rng_seed + 2).uniform(*HONEST_CLAIMS))
        return (*_kind_outputs(kind, rng_seed), claim, role)
    return (*_kind_outputs(kind, rng_seed), _far_below_claim(kind, rng_seed), role)


def _round(seed: int, pool):
    """One round: the samples (see ``_round_samples``) and each name's role.

    Roles: "far below" (claims below every valid audit's bound in any order of the samples, ``_far_below_claim``),
    "honest" (claims above the true epsilon: the pool's last entry, randomized response, and randomized response
    with a rare output; no valid audit refutes them) -- the ``ADDED_ENTRIES`` take random places among the
    names -- or "" (the others, judged by the audit on the samples as given).
    """
    picks = _round_picks(seed, len(pool), [entry[4] for entry in pool])
    generator = _default_rng(seed + 1)
    entries = []
    for i in picks:
        sampler, a, b, claim, _ = pool[i]
        rng_seed = int(generator.integers(2**31))
        if i == len(pool) - 1:
            entries.append(_added_entry("rr", "honest", rng_seed))
            continue
        rng = _default_rng(rng_seed)
        entries.append((_outputs(sampler, a, 100_000, rng), _outputs(sampler, b, 100_000, rng), float(claim), ""))
    for kind, role in ADDED_ENTRIES:
        entry = _added_entry(kind, role, int(generator.integers(2**31)))
        entries.insert(int(generator.integers(len(entries) + 1)), entry)
    samples = {f"mechanism_{chr(65 + j)}": entry[:3] for j, entry in enumerate(entries)}
    roles = {f"mechanism_{chr(65 + j)}": entry[3] for j, entry in enumerate(entries)}
    return samples, roles


def _refuted_by_the_audit(samples: dict, roles: dict) -> set:
    """The names whose claim the course audit (95% lower bound, all the outputs) refutes, in any order of them.

    The added entries are refuted ("far below") or not ("honest") by their role; the others are judged on the
    samples as given (far from their claims: a correct audit of shuffled samples was rejected at 0 of 100 seeds).
    """
    return {name for name, (a, b, claim) in samples.items()
            if roles[name] == "far below" or (not roles[name] and _audit_bound(a, b) > claim)}


def _flagged(raw, names: list) -> set:
    """The answer's flagged names as a set, after checking that they are a collection of given names."""
    if isinstance(raw, (str, bytes)) or raw is None:
        raise CheckFailed("it should return a list (or set) of the names whose claim the audit refutes.")
    try:
        flagged = set(raw)
    except TypeError:
        raise CheckFailed(f"it should return a list of names, got {type(raw).__name__}.") from None
    unknown = flagged - set(names)
    if unknown:
        raise CheckFailed(f"it returned names that are not among the mechanisms given: {sorted(map(str, unknown))}.")
    return flagged


def _judge(flagged: set, truth: set, roles: dict) -> None:
    """Raise CheckFailed, with a hint on what the answer got wrong, unless ``flagged`` is ``truth``."""
    if flagged == set(roles) and len(truth) < len(roles):
        raise CheckFailed("it flags every mechanism; flag only those whose audit bound exceeds their claimed "
                          "epsilon.")
    if any(roles[name] == "far below" for name in truth - flagged):
        raise CheckFailed("it misses a mechanism whose claim lies below the 95% lower bound of the audit of all the "
                          "samples, in any order of them, even at 99.6% confidence or with 20 candidate events: the "
                          "audit refutes it. Audit every mechanism with all the samples you are given (delta 0, as "
                          "the claims are pure epsilon: a delta above 0 lowers the bound most where the evidence is "
                          "a rare output), and flag it as soon as the bound exceeds the claim, with no margin.")
    if truth - flagged:
        raise CheckFailed("it misses a mechanism whose outputs refute its claim: its audit's 95% lower bound, on all "
                          "the samples, exceeds the claim. Flag it as soon as the bound exceeds the claim.")
    wrongly = flagged - truth
    if any(roles[name] == "honest" for name in wrongly):
        raise CheckFailed("it flags a mechanism whose claim is true: randomized response whose true epsilon (1 to "
                          "1.0002) is below its claim, so no valid 95% lower bound exceeds the claim (the audit's stays "
                          "near 0.97). A ratio of observed frequencies is a point estimate (it exceeds the claim on "
                          "a rare output, infinite when that output never occurs on one side: an output seen on one "
                          "side only proves nothing when it is rare on both), and a bound at a lower confidence is no "
                          "95% bound: refute a claim only when a 95% lower bound exceeds the claim itself (not a part "
                          "of it).")
    if wrongly:
        raise CheckFailed("it flags a mechanism whose outputs do not refute its claim. Use the audit's 95% lower "
                          "bound, compared with that mechanism's claimed epsilon, not a guess from the outputs.")


@exercise("07.5", title="Which 'private' selections are not? Audit them", answer_name="not_private")
def check_not_private(answer, seed: int = 7005) -> None:
    """Three rounds of stored outputs; the answer must flag exactly the claims the course audit refutes.

    Each round holds mechanisms' outputs (100,000 per side): planted bugs and their fixes, judged by the course
    audit on the samples as given (far from their claims: see Notes); randomized response (true epsilon 1),
    alone or with a frequent (10%) or rare (0.3%) leak, with claims about 4.3 standard deviations of the bound's
    spread over orders of the samples below the mean bound of the most conservative valid audit the check
    accepts (confidence 0.996, 20 candidate events: ``_far_below_claim``); and three honest entries, randomized
    response alone, with a rare output of ratio e, and with ten rarer outputs of ratio e (true epsilon 1, 1.0001
    and 1.0002), claiming 1.02 to 1.05 (``_added_entry``), which no valid 95% audit refutes.

    Parameters
    ----------
    answer : callable
        ``not_private(samples)``: ``samples`` maps each name to (outputs on a, outputs on b, claimed epsilon);
        returns the names whose claim the outputs refute.
    seed : int, default 7005
        Seed of the three rounds (``seed``, ``seed + 100``, ``seed + 200``).

    Raises
    ------
    CheckFailed
        With a hint, when the answer flags a claim that stands or misses one that the audit refutes.

    Notes
    -----
    Referee s37rC: two entries that a valid audit must not flag were not private at their claims (randomized
    response with a 10% leak, and randomized response claiming about 0.993 < 1), and valid audits with
    n_candidates 1 or 20 or a Bonferroni correction over the mechanisms were rejected. Now every entry not to be
    flagged is honest, and every "far below" claim lies below the bound of a Bonferroni-corrected audit over up to
    12 mechanisms with 20 candidate events; those audits, and confidence 0.97, delta 1e-3 or the first 90,000
    samples (valid, weaker 95% audits), pass at seeds 7005, 1 and 2.

    False rejection: a correct audit, in any order of the samples, fails below 1e-3 (15 order-dependent
    verdicts, below 6.7e-5 each). Limits (stated): an audit at confidence c with n_candidates=10 evaluates each
    event at (1 - c) / 20, as a valid 95% audit with n_candidates = 1 / (20 (1 - c)) does (c = 0.5: one
    event, alpha 0.025): where one event decides, no honest entry tells them apart, so confidence 0.5, 0.6, 0.8,
    0.9 and 0.93 (and 0.9 on shuffled samples) pass (they failed before on the leak that was not private at its
    claim). A point estimate fails (the rare output's count ratio exceeds the honest claim, or is infinite), as
    do 50,000 or fewer samples, a margin of 0.05, half the claim. Audits retried over orders of the samples or
    event families, the largest bound kept, pass (referee s37rC: 5 and 20 orders, n_bins 5-500, 3 orders x 7
    n_bins): the retries move the bounds by at most 0.08 (referee's measure; 0.01 on randomized response, whose
    honest claims lie 0.04 or more above every valid bound), and the check, handing over stored samples, cannot
    see how often they were audited. Audits of doubled or bootstrapped samples, or of both side orders (either
    refuting), pass too (referee s38rC): their bounds are overconfident, but over 20 draws of randomized response
    (true epsilon 1) they averaged 0.983, 0.976 and 0.977 (a valid audit 0.977, sd 0.008), at most 0.998, below
    every honest claim (1.02 or more); an entry that told them from a valid audit would need a true claim within
    about 0.01 of its true epsilon, which a valid audit also refutes in up to 5% of runs (05.4, whose check
    records the release's calls, refuses audits in both orders; here the samples are stored). An audit of 90,000 of
    the 100,000 samples is valid (weaker) and passes, as does one at confidence 0.99 (referee s38rC): the "far
    below" claims sit under the bound of a 0.996 audit on purpose, so that a Bonferroni correction passes. A rule that takes an output seen on one side only for a
    refutation (referee s38rC) fails on the honest entry with ten rare outputs. Not tested (referee s39rC, each
    passed at the default seed): an audit with delta=1e-5 (at 100,000 samples it lowers a bound by at most
    about 1e-5 x 100,000 = 1 count of the best event, on which no entry's verdict turned at the seeds tried; the hint for a delta
    above 0 names it where it does), and one with n_candidates changed (1 at confidence 0.99; 200 with
    n_bins=200): the text fixes neither, and both are valid audits, weaker or stronger where one event
    decides. See ``_stats.LESSON07_POWER``.
    """
    pool = _candidate_pool()
    for round_seed in (seed, seed + 100, seed + 200):
        samples = _round_samples(round_seed, pool)
        raw = answer(samples)
        # Only now: what the audit says, on outputs regenerated from the seed (the student's copies may be changed).
        regenerated, roles = _round(round_seed, pool)
        _judge(_flagged(raw, list(samples)), _refuted_by_the_audit(regenerated, roles), roles)
