"""Whether a local randomizer's coins can show a tiny flip probability (exercise 07.1, referee s39rB D1).

Above epsilon about 14.5 a correct answer flips too rarely (1 / (1 + e^epsilon), 5.6e-9 at epsilon 19) for any
feasible number of calls to tell it from an answer that never flips. Coins too coarse for that probability
never flip at all: float32 uniforms are multiples of 2^-24, so ``rng.random(n, dtype=np.float32) < p`` keeps
every answer once 1 - p < 2^-24 (epsilon above 16.6, or 17.3 when NumPy casts a Python float p to float32), and
a p computed in float32 (or rounded to 8 digits) is exactly 1.0 from epsilon 17.3 (18.4) on. Such an answer
releases the truth: infinite epsilon.

The test reads the coins instead of counting flips: the answer gets a NumPy Generator over an MT19937 whose
next 624 32-bit words the check chose (MT19937 outputs its state words through an invertible tempering, so
any 624 outputs can be set). Two streams, ``top`` and ``bottom``:

* ``top``: even words 2^32 - 32 + r (r in 0-31), odd words 2^32 - 2,048 + r (r in 0-7, bits 3-10 zero).
  ``random()`` (two words) is within 2^-48 of 1 (>= p, a flip for ``u < p``), 53-bit and 64-bit integers are
  as close to their top, ``binomial(1, q)`` inverts it to 1, and ``exponential()`` takes its tail
  (idx 0, then 7.7 - log(2^-48)), about 41: a flip for ``E < log(1 + e^epsilon)``.
* ``bottom``: even words 0, odd words 1-7 or 2,048-2,055. ``random()`` is 0 or about 4e-15 (< q, a flip for
  ``u < q`` or ``u >= q``), integers are 0, ``exponential()`` 0 or about 1e-15 (``geometric(q)`` 1).

After its 624 words MT19937 goes on as a true MT19937 stream, so no rejection loop of NumPy's (Lemire's bounded
integers, the ziggurats, binomial inversion) can run forever on these streams (an earlier attempt on a constant
PCG64 stream hung in the exponential ziggurat). Each call is judged only if the answer read at least one word
per person and no more than the 624 chosen ones (the MT19937 state tells: its position, and its key, which
changes when the chosen words run out); an answer that drew its coins from a child generator
(``np.random.default_rng(rng.integers(...))``, ``rng.spawn``), from normal deviates (the normal ziggurat's tail
runs past the chosen words) or from the grader's sandbox (which hands the student a fresh PCG64 seeded from
this generator: 8 words) is not judged. The answer fails when, judged on both streams at an epsilon, no report
differs from the truth: a float64 coin written with ``rng.random``, ``rng.uniform``, ``rng.binomial``,
``rng.choice(..., p=...)``, ``rng.exponential``, ``rng.integers`` over a range of 2^32 or more,
``scipy.stats`` (``bernoulli``, ``binom``, ``uniform``) with ``random_state=rng``, in a loop or with
``np.where``, flips on one of them (tests/wrong_answers/lesson07_s40a.py holds these forms; none is rejected).
The test is exact: no false rejection for those forms, at no alpha.

Limits: in the grader's sandbox the test does not run (the student's generator is a fresh PCG64 there, so
every call is not judged); coins drawn from a child generator, or through normal deviates, are not judged;
``rng.integers`` over a range below 2^32 (32-bit words) flips on ``top`` only where the range resolves the
flip probability (10^9 flips at epsilon 20 on some people, as the words' low bits vary).
"""

from __future__ import annotations

import math

import numpy as np

from mic_dp_helpers.checks._core import CheckFailed

# References bound at import: patching numpy later changes nothing here.
_MT19937, _Generator, _array, _array_equal = np.random.MT19937, np.random.Generator, np.array, np.array_equal
_count_nonzero, _uint32 = np.count_nonzero, np.uint32

__all__ = ["WORDS", "RESOLUTION_PEOPLE", "RESOLUTION_EPSILONS", "stream", "words_read", "check_coin_resolution"]

#: Words of MT19937's state: the outputs the check chooses before the stream goes on by itself.
WORDS = 624
#: People per call: the forms above read 1 to 4 words a person (400 for ``exponential`` on ``top`` and for two
#: ``random`` draws a person), under ``WORDS``.
RESOLUTION_PEOPLE = 100
#: Epsilons tested: float32 coins compared with a NumPy float64 p stop flipping above 16.64, compared with a
#: Python float (cast to float32) or with p computed in float32 above 17.33; p rounded to 8 digits above 18.4.
RESOLUTION_EPSILONS = (16.7, 17.5, 18.5, 20.0)
_MASK = 0xFFFFFFFF


def _untemper(y: int) -> int:
    """The MT19937 state word whose tempered output is ``y`` (32 bits)."""
    y ^= y >> 18
    y ^= (y << 15) & 0xEFC60000
    x = y
    for _ in range(5):
        x = (y ^ ((x << 7) & 0x9D2C5680)) & _MASK
    y = x
    for _ in range(3):
        x = y ^ (x >> 11)
    return x & _MASK


def stream(words) -> np.random.Generator:
    """A Generator over an MT19937 whose next ``WORDS`` 32-bit outputs are ``words``.

    Parameters
    ----------
    words : sequence of int
        ``WORDS`` values in [0, 2^32).

    Returns
    -------
    numpy.random.Generator
        The generator (MT19937 at position 0 of a key that tempers to ``words``).

    Examples
    --------
    >>> stream([7] * WORDS).bit_generator.random_raw(2).tolist()
    [7, 7]
    """
    bit_generator = _MT19937(0)
    state = bit_generator.state
    state["state"]["key"] = _array([_untemper(int(w)) for w in words], dtype=_uint32)
    state["state"]["pos"] = 0
    bit_generator.state = state
    return _Generator(bit_generator)


def _words(generator, kind: str) -> list[int]:
    """The ``WORDS`` chosen outputs of stream ``kind`` ("top" or "bottom"), low bits drawn from ``generator``."""
    low = generator.integers(0, 32, WORDS).tolist()
    if kind == "top":
        return [(0xFFFFFFE0 | r) if i % 2 == 0 else (0xFFFFF800 | (r & 7)) for i, r in enumerate(low)]
    return [0 if i % 2 == 0 else (1 + r % 7 if r < 16 else 0x800 | (r & 7)) for i, r in enumerate(low)]


def words_read(rng: np.random.Generator, key) -> int:
    """How many of a :func:`stream`'s chosen words ``rng`` has given out (``WORDS`` once they ran out).

    Parameters
    ----------
    rng : numpy.random.Generator
        A generator made by :func:`stream`.
    key : numpy.ndarray
        Its MT19937 key when it was made.

    Returns
    -------
    int
        The words read, or ``WORDS`` if the key has changed (all read, and more).
    """
    state = rng.bit_generator.state["state"]
    return WORDS if not _array_equal(state["key"], key) else int(state["pos"])


def _flips_on(answer, truth, epsilon: float, rng, reports) -> tuple[int, bool]:
    """(reports differing from the truth, whether the call is judged) for one call on ``rng``."""
    n = truth.size
    key = rng.bit_generator.state["state"]["key"].copy()
    raw = answer(truth.copy(), epsilon, rng)
    read = words_read(rng, key)
    flipped = int(_count_nonzero(reports(raw, n, f"For {n} answers at epsilon={epsilon:.3g}:") != truth))
    return flipped, n <= read < WORDS


def check_coin_resolution(answer, generator, reports) -> None:
    """Fail an answer whose coins cannot flip at epsilon 16.7-20 (float32 coins, p in float32 or rounded).

    At each of ``RESOLUTION_EPSILONS``, one call on ``RESOLUTION_PEOPLE`` people (half true yes) on the
    ``top`` stream and one on the ``bottom`` stream (module docstring). Fails when both calls are judged and no
    report differs from the truth.

    Parameters
    ----------
    answer : callable
        The student's ``randomized_response``.
    generator : numpy.random.Generator
        The check's generator (the truth and the words' low bits).
    reports : callable
        ``reports(raw, n, where)``: the 0/1 reports of a raw return (raises CheckFailed on a bad shape).

    Raises
    ------
    CheckFailed
        If the coins never flip where a float64 coin does.
    """
    n = RESOLUTION_PEOPLE
    for epsilon in RESOLUTION_EPSILONS:
        truth = generator.permutation(n) < n // 2
        calls = [_flips_on(answer, truth, epsilon, stream(_words(generator, kind)), reports)
                 for kind in ("top", "bottom")]
        if all(judged and flipped == 0 for flipped, judged in calls):
            raise CheckFailed(
                f"For {n} answers at epsilon={epsilon:.3g}: no report differs from the truth, even when `rng` "
                "gave numbers within 4e-15 of 1 (and, in another call, of 0), where a coin of float64 precision "
                f"(flip with probability 1 / (1 + e^epsilon) = {1 / (1 + math.exp(epsilon)):.2g}) flips. Your "
                "coins are too coarse for that probability: float32 uniforms (rng.random(n, dtype=np.float32), "
                "steps of 6e-8) or a probability computed in float32 or rounded (1.0 from epsilon about 17.3) "
                "never flip, so the reports are the truth (infinite epsilon). Use float64: rng.random(n) < p with "
                "p = e^epsilon / (1 + e^epsilon) a Python float.")
