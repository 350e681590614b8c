"""Wrappers that turn a correct random release into a subtly non-private one.

Each misuse is one a student could write while every moment of the output still looks right:
the noise skipped in a few calls, or drawn from a generator seeded from a small set of seeds
(so draws repeat). The last positional argument of the wrapped function is its ``rng``.
"""

from __future__ import annotations

import numpy as np


def sometimes_noiseless(noisy, noiseless, rate: float = 0.01):
    """``noisy(*args)``, except that a share ``rate`` of calls return ``noiseless(*args)``."""
    def answer(*args):
        if args[-1].random() < rate:
            return noiseless(*args)
        return noisy(*args)
    return answer


def few_seeds(noisy, n_seeds: int = 2**16):
    """``noisy`` run with a new generator seeded from ``n_seeds`` possible seeds (drawn from the rng)."""
    def answer(*args):
        return noisy(*args[:-1], np.random.default_rng(int(args[-1].integers(n_seeds))))
    return answer


def cycled_laplace(value, sensitivity, epsilon, rng, _buffers={}):
    """Laplace noise drawn 10,000 at a time per generator, then reused in a cycle."""
    key = id(rng)
    if key not in _buffers:
        _buffers.clear()
        _buffers[key] = [rng.laplace(0.0, 1.0, 10_000), 0]
    buffer = _buffers[key]
    draw = buffer[0][buffer[1] % 10_000]
    buffer[1] += 1
    return value + draw * sensitivity / epsilon
