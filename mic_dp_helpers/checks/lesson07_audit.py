"""Check of lesson 07's audit exercise (07.5): which "private" selections do their outputs refute?

Moved from ``lesson07_selection`` (07.3, 07.4), which had reached 600 lines.
"""

from __future__ import annotations

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
    offered with claims near 1: at 0.985 its outputs' frequency ratio (a point estimate, about
    1.00) exceeds the claim while the audit's 95% lower bound (about 0.97 with 100,000 outputs)
    does not, so an answer without a confidence bound flags it; at 0.9 both refute it.
    """
    pool = []
    for bug in _broken.planted_selection_bugs():
        pool.append((bug.mechanism.__name__, bug.dataset_a, bug.dataset_b, bug.claimed_epsilon, False))
        if bug.fixed.__name__ != "randomized_response_one":  # its audit is tight at 1; use it with a margin below
            pool.append((bug.fixed.__name__, bug.dataset_a, bug.dataset_b, bug.claimed_epsilon, True))
    pool.append(("randomized_response_one", np.array([True]), np.array([False]), 1.6, True))
    pool.append(("randomized_response_one", np.array([True]), np.array([False]), 0.9, False))
    pool.append(("randomized_response_one", np.array([True]), np.array([False]), 0.985, False))
    return pool


def _round_picks(seed: int, pool_size: int, fine: list[bool]) -> np.ndarray:
    """Which pool entries a round uses (at least one within its claim and one not, and the last, the claim of 0.985)."""
    generator = _default_rng(seed)
    picks = generator.choice(pool_size, size=int(generator.integers(4, 7)), replace=False)
    if len({fine[i] for i in picks}) == 1:
        other = next(i for i in range(pool_size) if fine[i] != fine[picks[0]])
        picks = _concatenate([picks[:3], [other]])
    if pool_size - 1 not in picks:  # the claim between the audit's lower bound and the point estimate
        picks = _concatenate([picks, [pool_size - 1]])
    return picks


def _round_samples(seed: int, pool) -> dict:
    """The outputs handed to the student for one round: {name: (outputs_a, outputs_b, claimed_epsilon)}."""
    return _round(seed, pool)[0]


def _audit_bound(a: np.ndarray, b: np.ndarray, confidence: float = 0.95, size: int | None = None) -> float:
    """The course audit's lower bound on the first ``size`` outputs of each side (all of them by default)."""
    from mic_dp_helpers.attacks.audit import audit_epsilon

    size = min(len(a), len(b)) if size is None else size
    return float(audit_epsilon(lambda data, k, rng: data[:k], a[:size], b[:size], n_samples=size,
                               confidence=confidence, rng=0).epsilon_lower_bound)


def _near_bound_claims(a: np.ndarray, b: np.ndarray) -> tuple[float, float]:
    """Two claims for randomized response's outputs ``a``, ``b``, set from the course audit's bounds on them.

    ``just_refuted`` lies just below the 95% bound on all the outputs (by 0.002, or by a quarter of the distance to
    the larger of the 95% bounds on the first half and on the first fifth, when that is smaller): the audit
    refutes it, an answer that wants a margin above the claim, or audits only part of the outputs, does not.
    ``just_standing`` lies halfway between the 95% and the 90% bounds: the audit does not refute it, an audit at
    90% confidence or less does. Both are computed before the student's call, from outputs regenerated the
    same way.
    """
    bound = _audit_bound(a, b)
    parts = max(_audit_bound(a, b, size=len(a) // 2), _audit_bound(a, b, size=len(a) // 5))
    margin = 0.002 if parts >= bound else min(0.002, (bound - parts) / 4)
    return bound - margin, (bound + _audit_bound(a, b, confidence=0.9)) / 2


def _round(seed: int, pool):
    """One round: the samples (see ``_round_samples``) and each name's role.

    Roles: "between" (the claim of 0.985, between the audit's bound and the point estimate), "just refuted" and
    "just standing" (claims next to the audit's own bound, ``_near_bound_claims``), or "" (the others). The two
    near-bound entries take random places among the names.
    """
    picks = _round_picks(seed, len(pool), [entry[4] for entry in pool])
    generator = _default_rng(seed + 1)
    entries = []
    for i in picks:
        sampler, a, b, claim, _ = pool[i]
        rng = _default_rng(int(generator.integers(2**31)))
        entries.append((_outputs(sampler, a, 100_000, rng), _outputs(sampler, b, 100_000, rng), float(claim),
                        "between" if i == len(pool) - 1 else ""))
    for role in ("just refuted", "just standing"):
        rng = _default_rng(int(generator.integers(2**31)))
        a = _outputs("randomized_response_one", np.array([True]), 100_000, rng)
        b = _outputs("randomized_response_one", np.array([False]), 100_000, rng)
        claims = _near_bound_claims(a, b)
        entries.insert(int(generator.integers(len(entries) + 1)),
                       (a, b, claims[0] if role == "just refuted" else claims[1], role))
    samples = {f"mechanism_{chr(65 + j)}": entry[:3] for j, entry in enumerate(entries)}
    roles = {f"mechanism_{chr(65 + j)}": entry[3] for j, entry in enumerate(entries)}
    return samples, roles


def _refuted_by_the_audit(samples: dict) -> set:
    """The names whose claim the course audit (95% lower bound, all the outputs) refutes."""
    return {name for name, (a, b, claim) in samples.items() if _audit_bound(a, b) > claim}


@exercise("07.5", title="Which 'private' selections are not? Audit them", answer_name="not_private")
def check_not_private(answer, seed: int = 7005) -> None:
    pool = _candidate_pool()
    for round_seed in (seed, seed + 100, seed + 200):
        samples = _round_samples(round_seed, pool)
        names = list(samples)
        raw = answer(samples)
        # Only now: what the audit says, on outputs regenerated from the seed (the student's copies may be changed).
        regenerated, roles = _round(round_seed, pool)
        truth = _refuted_by_the_audit(regenerated)
        between = {name for name, role in roles.items() if role == "between"}
        if isinstance(raw, (str, bytes)) or raw is None:
            raise CheckFailed("it should return a list (or set) of the names whose claim the audit refutes.")
        try:
            flagged = set(raw)
        except TypeError:
            raise CheckFailed(f"it should return a list of names, got {type(raw).__name__}.") from None
        unknown = flagged - set(names)
        if unknown:
            raise CheckFailed(f"it returned names that are not among the mechanisms given: {sorted(map(str, unknown))}.")
        if flagged == set(names) and len(truth) < len(names):
            raise CheckFailed("it flags every mechanism; flag only those whose audit bound exceeds their claimed "
                              "epsilon.")
        if truth - flagged and roles[sorted(truth - flagged)[0]] == "just refuted":
            raise CheckFailed("it misses a mechanism whose claim lies just below the audit's 95% lower bound: the "
                              "audit refutes it. Audit every mechanism with all the samples you are given, and flag "
                              "it as soon as the bound exceeds the claim, with no margin added.")
        if truth - flagged:
            raise CheckFailed("it misses a mechanism whose outputs refute its claim. Audit every mechanism with all "
                              "the samples you are given (the audit needs many to be sharp).")
        wrongly = flagged - truth
        if wrongly & between:
            raise CheckFailed("it flags a mechanism whose outputs' frequencies exceed its claim, but whose audit lower "
                              "bound does not: a ratio of observed frequencies is a point estimate, and it is above "
                              "the true epsilon about half the time. Refute a claim only with a confidence bound "
                              "(the audit's 95% lower bound), compared with that mechanism's claimed epsilon.")
        if any(roles[name] == "just standing" for name in wrongly):
            raise CheckFailed("it flags a mechanism whose claim lies between the audit's 95% and 90% lower bounds: "
                              "at 95% confidence (the audit's default) the claim stands. Use the 95% bound, not a "
                              "lower confidence.")
        if wrongly:
            raise CheckFailed("it flags a mechanism whose outputs do not refute its claim. Use the audit's 95% lower "
                              "bound, compared with that mechanism's claimed epsilon, not a guess from the outputs.")
