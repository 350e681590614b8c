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


#: Calls per input in the shared-generator stage (inputs called in turn, one generator for all).
SHARED_ROUNDS = 25
#: Bit-exact releases allowed among the calls on inputs marked ``huge`` (02.1: 100 calls on values 1e9 to 1e13
#: scales from 0), where float rounding alone makes a correct release equal the value with probability about
#: 1e-7 to 1e-3 a call (about 0.03 expected in all; 6 or more: below 1e-11). Exact there: 25 or more.
HUGE_EXACT_LIMIT = 5


def check_shared_generator(call, cases, seed: int) -> None:
    """Call the answer on every input of ``cases`` in turn, ``SHARED_ROUNDS`` times, all from one generator.

    ``call(*args, generator)`` runs the student's function; ``cases``: a function of no argument returning ``(args before rng, exact answer, Laplace scale, label,
    huge)`` per input, every ``scale`` equal (so noise reused or negated across inputs shows in the
    standardised noise). An answer that reuses, negates or correlates the noise of one input's call with
    another input's on the same generator (the other stages call one input per generator), or that releases
    exactly for a kind of value (integral floats, NumPy integers, values 1e9 scales or more from 0) fails:
    no exact release (4 float spacings; on ``huge`` inputs, more than :data:`HUGE_EXACT_LIMIT` bit-exact),
    Laplace noise, no repeated or mirrored draw, and no correlation at lags 1 to 20 or half the run
    (``_sweeps.check_independent_calls``, about 1e-6 false rejection). Power: ``LESSON02_06_POWER``.

    Parameters
    ----------
    call : callable
        ``call(*args, generator)``: the student's function, under the check's guard.
    cases : callable
        Returns the inputs, recomputed after the student ran.
    seed : int
        Seed of the shared generator (``[seed, 26]``).

    Raises
    ------
    CheckFailed
        With a hint naming the input and the property, when a test fails.
    """
    generator = _default_rng([seed, 26])
    arguments = [case[0] for case in cases()]
    count = _len(arguments)
    releases = []
    for _ in range(SHARED_ROUNDS):
        for args in arguments:
            args = tuple(a.copy() if isinstance(a, np.ndarray) else a for a in args)
            releases.append(expect_number(call(*args, generator), "the noisy release"))
    table = cases()  # recomputed after the student ran
    releases = np.array(releases).reshape(SHARED_ROUNDS, count)
    z_normal, huge_exact = [], 0
    for index, (_, centre, scale, label, huge) in enumerate(table):
        column = releases[:, index]
        where = (f"With one generator shared by {count} inputs called in turn ({label}, exact answer {centre:g}, "
                 f"Laplace scale {scale:.6g}):")
        if huge:
            huge_exact += int(np.sum(column == centre))
            if huge_exact > HUGE_EXACT_LIMIT:
                raise CheckFailed(f"{where} {huge_exact} releases are the exact answer (property: noise for "
                                  "every value). Add the noise whatever the size of the value.")
            continue
        if np.any(_abs(column - centre) <= 4 * np.spacing(_abs(centre))):
            raise CheckFailed(f"{where} a release is the exact answer (property: noise for every input and "
                              "every call). Add fresh noise whatever the type or the size of the input.")
        z_normal.append((column - centre) / scale)
    z = np.array(z_normal).T.ravel()  # in call order
    where = f"With one generator shared by {count} inputs called in turn ({SHARED_ROUNDS} rounds):"
    _stats.check_fresh_noise(z, 0.0, 1.0, "laplace", where + " (noise in Laplace scales)")
    _stats.check_no_mirrors(z, 0.0, 1.0, where + " (noise in Laplace scales)")
    _sweeps.check_independent_calls([z], where, lags=tuple(range(1, 21)))
    _stats.check_laplace_noise(z, where)


