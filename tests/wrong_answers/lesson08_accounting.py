"""Wrong answers to 08.3 from referee s37rB (items 3 and 12), each with other members of its class.

``lesson08`` holds 08.3's other answers; these join them through ``MORE_WRONG_ANSWERS`` (that module is shared
with 08.1 and 08.4).
"""

from __future__ import annotations

import math

from wrong_answers.lesson08 import _rdp, _stateful


def _zero_for_big_noise(min_sigma: float, max_q: float):
    """Epsilon 0 ("so much noise that it is private anyway") when sigma > ``min_sigma`` and q < ``max_q``."""
    return lambda q, s, t, d: 0.0 if s > min_sigma and q < max_q else _rdp(q, s, t, d)


def _one_step_for_big_noise(min_sigma: float, max_q: float):
    return lambda q, s, t, d: _rdp(q, s, 1 if s > min_sigma and q < max_q else t, d)


def _delta_floor(floor: float):
    """Delta raised to ``floor`` "for numerical stability"."""
    return lambda q, s, t, d: _rdp(q, s, t, max(d, floor))


def _rescaled_cache(power: float):
    """Epsilon cached per (q, sigma, steps) and rescaled by (log(1/delta) / log(1/delta0)) ** power."""
    def answer(state, q, s, t, d):
        key = (q, s, t)
        if key in state:
            d0, e0 = state[key]
            return e0 * (math.log(1 / d) / math.log(1 / d0)) ** power
        state[key] = (d, _rdp(q, s, t, d))
        return state[key][1]
    return _stateful(answer)


MORE_WRONG_ANSWERS = {"08.3": {
    "(parameters) epsilon 0 for sigma > 20 at q < 0.3 (referee s37rB)": _zero_for_big_noise(20.0, 0.3),
    "(parameters) epsilon 0 for sigma > 25 at q < 0.3": _zero_for_big_noise(25.0, 0.3),
    "(parameters) one step's epsilon for sigma > 20 at q < 0.1": _one_step_for_big_noise(20.0, 0.1),
    "(parameters) delta floored at 1e-9 (referee s37rB)": _delta_floor(1e-9),
    "(parameters) delta floored at 8e-10": _delta_floor(8e-10),
    "(state) stale epsilon rescaled by sqrt(log(1/delta) / log(1/delta0)) (referee s37rB)": _rescaled_cache(0.5),
    "(state) stale epsilon rescaled by (log(1/delta) / log(1/delta0)) ** 0.6": _rescaled_cache(0.6),
}}
