"""The orders in which check 03.3 hands out the same noisy answers (an estimate from all of them cannot tell)."""

from __future__ import annotations


#: The orders the same answers are handed out in (ORDER_CASE, LARGE_CASE): sorted both ways, sorted and started at
#: the 30% quantile (wrapping round), and shuffled. Referee s36rA: the mean of the first and the last 5,000
#: answers passed, the two sorted orders giving it the same value; the rotation puts both parts near the 30%
#: quantile (0.36 noise SD below the mean for Laplace, 0.52 for Gaussian), and a shuffle makes any fixed part a random subset.
ORDERS = ("ascending", "descending", "rotated", "shuffled")


def reordered(answers: list, order: str, rng) -> list:
    """The answers in an order of :data:`ORDERS`.

    Parameters
    ----------
    answers : list of float
        The noisy answers.
    order : str
        One of :data:`ORDERS`.
    rng : numpy.random.Generator
        Draws the shuffle.

    Returns
    -------
    list of float
        The same answers, reordered.
    """
    ranked = sorted(answers, reverse=order == "descending")
    if order == "rotated":
        start = int(0.3 * len(ranked))
        return ranked[start:] + ranked[:start]
    if order == "shuffled":
        return [ranked[i] for i in rng.permutation(len(ranked))]
    return ranked
