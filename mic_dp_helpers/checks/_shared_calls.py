"""One generator shared by several inputs called in turn (checks 02.1 and 02.4).

The other stages of those checks call one input per generator, so noise reused, negated or correlated
between *different* inputs on one generator (two queries sharing a draw: their difference is exact) is
seen only here. Power: ``LESSON02_06_POWER`` in :mod:`mic_dp_helpers.checks._stats`.
"""

from __future__ import annotations

import numpy as np

from mic_dp_helpers.checks import _stats, _sweeps
from mic_dp_helpers.checks._core import CheckFailed, expect_number

_default_rng = np.random.default_rng
_abs = abs
_len = len
_float = float


#: Calls per input in the shared-generator stage (inputs called in turn, one generator for all).
SHARED_ROUNDS = 25
#: Bit-exact releases allowed among the calls on inputs marked ``huge`` (02.1: 125 calls on values 1e9 to 2e13
#: scales from 0), where float rounding alone makes a correct release equal the value with probability about
#: 1e-7 to 4.4e-3 a call (at most 0.14 expected in all; 6 or more: about 1e-8). Exact there: 25 or more.
HUGE_EXACT_LIMIT = 5


def check_shared_generator(call, cases, seed: int, mixed=None) -> None:
    """Call the answer on every input of ``cases`` in turn, ``SHARED_ROUNDS`` times, all from one generator.

    ``call(*args, generator)`` runs the student's function; ``cases``: a function of no argument returning
    ``(args before rng, exact answer, Laplace scale, label, kind)`` per input (kind ``""``, ``"huge"`` or
    ``"inside"``: mean |noise| of its 25 releases at least :data:`INSIDE_SPREAD_FLOOR` scales), every ``scale``
    equal (so noise reused or negated across inputs shows in the standardised noise). Inputs marked ``huge`` (02.1: values 1e9 to 2e13 scales from 0) are standardised too:
    their mean |noise| must lie within 1 +- :data:`HUGE_SHARED_BAND` scales, and those within
    :data:`HUGE_REPEAT_SCALES` repeat or mirror no release within a float spacing (:func:`_check_huge_columns`).
    An answer that reuses, negates or correlates the noise of one input's call with
    another input's on the same generator (the other stages call one input per generator), or that releases
    exactly for a kind of value (integral floats, NumPy integers, values 1e9 scales or more from 0) fails:
    no exact release (4 float spacings; on ``huge`` inputs, more than :data:`HUGE_EXACT_LIMIT` bit-exact),
    Laplace noise, no repeated or mirrored draw, and no correlation at lags 1 to 20 or half the run
    (``_sweeps.check_independent_calls``, about 1e-6 false rejection). Power: ``LESSON02_06_POWER``.
    Limits: on huge inputs beyond 2e10 scales noise reused or mirrored between inputs passes (their float
    spacing, 2e-6 to 2e-3 scales, hides a reuse), and noise between 0.4 and 1.6 times the scale passes there;
    correlation only at lags above 20 (other than half the run) passes. Noise reused when a setting changes is
    tested by the ``mixed`` round (5 inputs: every setting varied alone and together, two values or datasets),
    not between the main inputs.

    Parameters
    ----------
    call : callable
        ``call(*args, generator)``: the student's function, under the check's guard.
    cases : callable
        Returns the inputs, recomputed after the student ran.
    seed : int
        Seed of the shared generator (``[seed, 26]``).
    mixed : callable, optional
        Returns inputs of different scales (same tuple form), called in turn for ``SHARED_ROUNDS`` rounds from
        a second generator: no release's noise, in its own scales, may repeat or mirror another's
        (:func:`_check_mixed_scales`; standardised noise reused when the scale changes fails).

    Raises
    ------
    CheckFailed
        With a hint naming the input and the property, when a test fails.
    """
    generator = _default_rng([seed, 26])
    arguments = [case[0] for case in cases()]
    count = _len(arguments)
    releases = _releases_in_turn(call, arguments, generator)
    table = cases()  # recomputed after the student ran
    releases = np.array(releases).reshape(SHARED_ROUNDS, count)
    z_columns, huge_columns, huge_exact = [], [], 0
    for index, (_, centre, scale, label, kind) in enumerate(table):
        column = releases[:, index]
        where = (f"With one generator shared by {count} inputs called in turn ({label}, exact answer {centre:g}, "
                 f"Laplace scale {scale:.6g}):")
        spread = _float(np.mean(np.abs(column - centre))) / scale
        if kind == "inside" and 0 < spread < INSIDE_SPREAD_FLOOR:
            raise CheckFailed(f"{where} your releases are {spread:.2f} Laplace scales from the sum on average, "
                              "where the noise gives 1 (property: data-independent scale). The sensitivity comes "
                              "from the declared bounds, max(|lower|, |upper|), never from the data's own values.")
        if kind == "huge":
            huge_exact += int(np.sum(column == centre))
            if huge_exact > HUGE_EXACT_LIMIT:
                raise CheckFailed(f"{where} {huge_exact} releases are the exact answer (property: noise for "
                                  "every value). Add the noise whatever the size of the value.")
            huge_columns.append(index)
        elif np.any(_abs(column - centre) <= 4 * np.spacing(_abs(centre))):
            raise CheckFailed(f"{where} a release is the exact answer (property: noise for every input and "
                              "every call). Add fresh noise whatever the type or the size of the input.")
        z_columns.append((column - centre) / scale)
    z_table = np.array(z_columns).T  # rounds x inputs, in call order when raveled
    z = z_table.ravel()
    where = f"With one generator shared by {count} inputs called in turn ({SHARED_ROUNDS} rounds):"
    if huge_columns:
        _check_huge_columns(z_table, table, huge_columns, where)
    normal = [i for i in range(count) if i not in huge_columns]
    z_normal = z_table[:, normal].ravel()
    _stats.check_fresh_noise(z_normal, 0.0, 1.0, "laplace", where + " (noise in Laplace scales)")
    _stats.check_no_mirrors(z_normal, 0.0, 1.0, where + " (noise in Laplace scales)")
    _sweeps.check_independent_calls([z], where, lags=tuple(range(1, 21)), unit="call")
    _stats.check_laplace_noise(z_normal, where)
    if mixed is not None:
        _check_mixed_scales(call, mixed, seed)


def _check_mixed_scales(call, mixed, seed: int) -> None:
    """Inputs of different scales in turn on one generator: no standardised noise repeated or mirrored.

    A correct release's noise in its own scales meets another within the float tolerance (8 spacings of the
    release, in scales: 5e-10 or less here) with probability below 1e-4 over the round (125 releases, 7,750
    pairs); one such pair fails (a draw reused or negated once when epsilon, the sensitivity, the bounds or
    the data change: referee s36rA).
    """
    generator = _default_rng([seed, 29])
    arguments = [case[0] for case in mixed()]
    releases = _releases_in_turn(call, arguments, generator)
    table = mixed()  # recomputed after the student ran
    centres = np.tile([case[1] for case in table], SHARED_ROUNDS)
    scales = np.tile([case[2] for case in table], SHARED_ROUNDS)
    releases = np.array(releases)
    z = (releases - centres) / scales
    tolerance = 8 * np.spacing(np.maximum(np.abs(releases), np.abs(centres))) / scales
    pairs = 0
    for i in range(_len(z)):
        limit = tolerance[i] + tolerance[i + 1:]
        rest = z[i + 1:]
        pairs += int(((np.abs(rest - z[i]) <= limit) | (np.abs(rest + z[i]) <= limit)).sum())
    if pairs > 0:
        labels = ", ".join(case[3] for case in table)
        raise CheckFailed(f"With one generator shared by {_len(table)} inputs of different Laplace scales called in "
                          f"turn ({labels}; {SHARED_ROUNDS} rounds): {pairs} pair(s) of releases carry the same noise, "
                          "or its negative, rescaled to each one's scale (property: fresh noise for every call, "
                          "whatever the scale). Draw new noise in every call; never rescale an earlier draw.")


#: Inputs marked ``inside`` (02.4: data inside a tenth of the larger bound, so a scale read from the data shrinks
#: 10 times or more): the mean |noise| / scale of their 25 releases (Gamma(25, 1/25) for Laplace) below this
#: fails; a correct answer falls below with probability about 1e-8 an input.
INSIDE_SPREAD_FLOOR = 0.25
#: Mean |noise| / scale over the releases on inputs marked ``huge`` (100 or more; 1 for Laplace, standard error
#: at most 0.1) must lie within 1 +- HUGE_SHARED_BAND (6 standard errors: a correct answer fails with probability
#: below 1e-8): a tenth or a fifth of the noise fails; half of it (0.5) passes (limit 1 of LESSON02_06).
HUGE_SHARED_BAND = 0.6
#: Huge inputs at most this many scales from 0 are also tested for repeats and mirrors, within
#: HUGE_TOLERANCE float spacings of their value (spacing at 2e11 scales: 3e-5 scales, so a correct release
#: meets another within the tolerance with probability about 0.15 over the stage; more than
#: HUGE_COINCIDENCE_LIMIT such pairs: below 1e-7). Beyond it (1e12 to 2e13 scales) the float spacing is 2e-4
#: to 9e-3 scales and only exactness, the mean |noise| band and the lags are tested (limit 2 of LESSON02_06).
HUGE_REPEAT_SCALES, HUGE_TOLERANCE, HUGE_COINCIDENCE_LIMIT = 2e10, 1, 5


def _check_huge_columns(z_table, table, huge_columns, where: str) -> None:
    """Spread (mean |z| band) of the huge inputs, and their repeats or mirrors with any release, to a few spacings."""
    z_huge = z_table[:, huge_columns].ravel()
    spread = _float(np.mean(np.abs(z_huge)))
    if _abs(spread - 1) > HUGE_SHARED_BAND:
        raise CheckFailed(f"{where} on values 1e9 scales or more from 0 the releases are {spread:.2f} Laplace scales "
                          "from the exact answer on average, where the noise gives 1 (property: scale, for every "
                          "value). Add noise of scale sensitivity / epsilon whatever the size of the value.")
    tolerance = np.array([HUGE_TOLERANCE * np.spacing(_abs(centre)) / scale for _, centre, scale, _, _ in table])
    beyond = np.array([_abs(centre) > HUGE_REPEAT_SCALES * scale for _, centre, scale, _, _ in table])
    tolerance[beyond] = -1.0  # partners beyond the limit are never close (their float spacing is too coarse)
    z_all, tol_all = z_table.ravel(), np.tile(tolerance, z_table.shape[0])
    pairs = 0
    for index in huge_columns:
        _, centre, scale, label, _ = table[index]
        if beyond[index]:
            continue
        for row in range(z_table.shape[0]):
            flat = row * z_table.shape[1] + index
            zi, limit = z_all[flat], tol_all[flat] + tol_all
            close = (np.abs(z_all - zi) <= limit) | (np.abs(z_all + zi) <= limit)
            close[flat] = False
            pairs += int(close.sum())
            if pairs > HUGE_COINCIDENCE_LIMIT:
                raise CheckFailed(f"{where} on {label} (and other inputs) {pairs} releases carry the same noise as "
                                  "another release, or its negative, in Laplace scales (property: fresh noise for "
                                  "every value and call). Draw new noise for every call, whatever the value.")


def _releases_in_turn(call, arguments, generator) -> list:
    """The answer called on every input in turn, :data:`SHARED_ROUNDS` times, all on one ``generator``."""
    releases = []
    for _ in range(SHARED_ROUNDS):
        for args in arguments:
            args = tuple(a.copy() if isinstance(a, np.ndarray) else a for a in args)
            releases.append(expect_number(call(*args, generator), "the noisy release"))
    return releases
