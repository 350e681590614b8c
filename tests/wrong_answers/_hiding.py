"""Wrong answers by class (issue 26): a correct release changed only where a check might not look.

Each factory takes the correct release ``noisy(*args)`` and its noiseless value ``exact(*args)``
(the last positional argument is the ``rng``) and returns an answer that is non-private in one way:

- **size / parameters** (:func:`exact_when`): the exact value whenever a predicate on the arguments
  holds (n >= 100, epsilon >= 5, ...);
- **shape** (:func:`clipped`, :func:`point_mass`, :func:`shrunk`): noise clipped at ``c`` scales, 1% of
  releases at a fixed point, 10% too little noise;
- **calls** (:func:`correlated`, :func:`antithetic`, :func:`first_call_exact`): noise correlated with
  the previous call's on the same generator, odd and even calls averaging to the exact value, or the
  exact value from every new generator's first call.

The 07-09 corpora can use them too: they only need ``noisy`` and ``exact``.
"""

from __future__ import annotations

import math


def exact_when(noisy, exact, predicate):
    """The exact value whenever ``predicate(*args)`` is true, else the correct release."""
    def answer(*args):
        return exact(*args) if predicate(*args) else noisy(*args)
    return answer


def _noise(noisy, exact, args):
    centre = exact(*args)
    return centre, noisy(*args) - centre


def clipped(noisy, exact, scale, c: float):
    """Noise clipped at ``c`` times ``scale(*args)``."""
    def answer(*args):
        centre, noise = _noise(noisy, exact, args)
        bound = c * scale(*args)
        return centre + min(bound, max(-bound, noise))
    return answer


def shrunk(noisy, exact, factor: float = 0.9):
    """Noise multiplied by ``factor`` (0.9: 10% too little noise)."""
    def answer(*args):
        centre, noise = _noise(noisy, exact, args)
        return centre + factor * noise
    return answer


def point_mass(noisy, exact, scale, rate: float = 0.01, at: float = 0.5):
    """A share ``rate`` of calls release ``exact + at * scale`` (a fixed point), the rest the correct release."""
    def answer(*args):
        rng = args[-1]
        if rng.random() < rate:
            return exact(*args) + at * scale(*args)
        return noisy(*args)
    return answer


def correlated(noisy, exact, rho: float = 0.1):
    """Noise with correlation ``rho`` to the previous call's noise on the same generator (same marginal scale)."""
    previous = [None, 0.0]  # the generator (kept alive, so a new one is never mistaken for it) and its last noise

    def answer(*args):
        centre, noise = _noise(noisy, exact, args)
        mixed = rho * previous[1] + math.sqrt(1 - rho * rho) * noise if previous[0] is args[-1] else noise
        previous[:] = [args[-1], mixed]
        return centre + mixed
    return answer


def antithetic(noisy, exact):
    """Every second call on a generator returns the previous noise negated: pairs average to the exact value."""
    stored = [None, None]  # the generator (kept alive) and the noise waiting to be negated

    def answer(*args):
        if stored[0] is args[-1] and stored[1] is not None:
            noise, stored[1] = stored[1], None
            return exact(*args) - noise
        centre, noise = _noise(noisy, exact, args)
        stored[:] = [args[-1], noise]
        return centre + noise
    return answer


def first_call_exact(noisy, exact):
    """The exact value on the first call with each generator, the correct release after."""
    seen = []

    def answer(*args):
        rng = args[-1]
        if not any(rng is known for known in seen):
            seen.append(rng)
            del seen[:-4]
            return exact(*args)
        return noisy(*args)
    return answer
