"""Zero-concentrated DP (zCDP) to (epsilon, delta)-DP, with the tightest conversion the course uses (lesson 06).

A mechanism is rho-zCDP if its Rényi divergence of every order ``alpha > 1`` between neighbours
is at most ``alpha * rho`` (Bun & Steinke 2016). The classic conversion
:func:`mic_dp_helpers.accounting.ledger.zcdp_to_dp`, ``rho + 2 sqrt(rho ln(1/delta))`` (Bun &
Steinke 2016, Proposition 1.3), is simple and loose. This module has the conversion of Canonne,
Kamath & Steinke ("The Discrete Gaussian for Differential Privacy", NeurIPS 2020, Section 2.3),
which holds for every rho-zCDP mechanism and gives the same (epsilon, delta) for a rho that is
1.14 to 1.5 times larger at delta = 1e-6 (epsilon 10 to 0.5): rho-zCDP implies (epsilon, delta)-DP with

``delta = inf over alpha > 1 of exp((alpha - 1)(alpha rho - epsilon)) / (alpha - 1) * (1 - 1/alpha)**alpha``,

equivalently ``epsilon = inf over alpha > 1 of alpha rho + (ln(1/delta) + (alpha - 1) ln(1 - 1/alpha)
- ln(alpha)) / (alpha - 1)``. It is the conversion MST's authors use (McKenna, Miklau & Sheldon
2021). Every ``alpha`` gives a valid bound, so the numerical minimisation here can only be
loose, never unsafe: the functions return the bound at the ``alpha`` they found.

For a mechanism that is only Gaussian noise the exact curve is Gaussian DP
(:mod:`mic_dp_helpers.accounting.gdp`): ``mu = sqrt(2 rho)``, tighter still.
"""

from __future__ import annotations

import math

from scipy.optimize import brentq, minimize_scalar

from mic_dp_helpers._validation import check_positive_float, check_probability

__all__ = ["zcdp_epsilon", "zcdp_delta", "zcdp_rho"]

_SEARCH = 12.0  # the search for alpha covers alpha - 1 within exp(+-12) of a closed-form first guess


def _minimum(objective, centre: float) -> float:
    """Smallest value of ``objective(s)`` found for ``s = alpha - 1`` around ``centre`` (any value is a valid bound)."""

    def of_log(t: float) -> float:
        value = objective(math.exp(t))
        return value if math.isfinite(value) else math.inf

    start = math.log(centre)
    found = minimize_scalar(of_log, bounds=(start - _SEARCH, start + _SEARCH), method="bounded",
                            options={"xatol": 1e-12, "maxiter": 500})
    return min(float(found.fun), of_log(start))


def zcdp_epsilon(rho: float, delta: float) -> float:
    """Smallest epsilon such that every rho-zCDP mechanism is (epsilon, delta)-DP (Canonne, Kamath & Steinke 2020).

    Minimises ``alpha rho + (ln(1/delta) + (alpha - 1) ln(1 - 1/alpha) - ln(alpha)) / (alpha - 1)``
    over ``alpha > 1`` (Section 2.3 of their paper). Never larger than Bun & Steinke's
    ``rho + 2 sqrt(rho ln(1/delta))`` (:func:`~mic_dp_helpers.accounting.ledger.zcdp_to_dp`).

    Parameters
    ----------
    rho : float
        zCDP parameter (> 0).
    delta : float
        Target delta, in (0, 1).

    Returns
    -------
    float
        epsilon.

    Examples
    --------
    >>> round(zcdp_epsilon(0.0244, 1e-6), 3)
    1.001
    >>> from mic_dp_helpers.accounting.ledger import zcdp_to_dp
    >>> round(zcdp_to_dp(0.0244, 1e-6), 3)   # Bun & Steinke: looser
    1.186
    """
    rho = check_positive_float(rho, "rho")
    delta = check_probability(delta, "delta")
    log_term = math.log(1 / delta)
    classic = rho + 2 * math.sqrt(rho * log_term)

    def epsilon_at(s: float) -> float:  # s = alpha - 1
        return (1 + s) * rho + (log_term - math.log1p(s)) / s - math.log1p(1 / s)

    return min(classic, _minimum(epsilon_at, math.sqrt(log_term / rho)))


def zcdp_delta(rho: float, epsilon: float) -> float:
    """Smallest delta such that every rho-zCDP mechanism is (epsilon, delta)-DP (Canonne, Kamath & Steinke 2020).

    Minimises ``exp((alpha - 1)(alpha rho - epsilon)) / (alpha - 1) * (1 - 1/alpha)**alpha`` over
    ``alpha > 1`` (Section 2.3 of their paper), in log space; capped at 1.

    Parameters
    ----------
    rho : float
        zCDP parameter (> 0).
    epsilon : float
        Target epsilon (> 0).

    Returns
    -------
    float
        delta, in (0, 1].

    Examples
    --------
    >>> round(zcdp_delta(0.0244, 1.0) * 1e6, 2)   # about 1e-6: the inverse of zcdp_epsilon
    1.02
    """
    rho = check_positive_float(rho, "rho")
    epsilon = check_positive_float(epsilon, "epsilon")

    def log_delta_at(s: float) -> float:  # s = alpha - 1
        return s * ((1 + s) * rho - epsilon) - (1 + s) * math.log1p(1 / s) - math.log(s)

    return min(1.0, math.exp(min(0.0, _minimum(log_delta_at, max((epsilon - rho) / (2 * rho), 1e-6)))))


def zcdp_rho(epsilon: float, delta: float) -> float:
    """The largest rho whose :func:`zcdp_epsilon` is at most ``epsilon`` at ``delta``.

    Found by root-finding on ``log rho``, starting from Bun & Steinke's closed form (which is
    never larger), and nudged down if needed so that ``zcdp_epsilon(result, delta) <= epsilon``.

    Parameters
    ----------
    epsilon : float
        Target epsilon (> 0).
    delta : float
        Target delta, in (0, 1).

    Returns
    -------
    float
        rho > 0.

    Examples
    --------
    >>> rho = zcdp_rho(1.0, 1e-6)
    >>> round(rho, 4), zcdp_epsilon(rho, 1e-6) <= 1.0
    (0.0244, True)
    """
    epsilon = check_positive_float(epsilon, "epsilon")
    delta = check_probability(delta, "delta")
    log_term = math.log(1 / delta)
    root = epsilon / (math.sqrt(log_term + epsilon) + math.sqrt(log_term))  # Bun & Steinke's rho, square-rooted
    low = math.log(root * root)
    high = low + 1.0
    while zcdp_epsilon(math.exp(high), delta) <= epsilon:
        high += 1.0
    rho = math.exp(brentq(lambda t: zcdp_epsilon(math.exp(t), delta) - epsilon, low, high, xtol=1e-13,
                          maxiter=500))
    for _ in range(64):  # stay on the safe side of the root
        if zcdp_epsilon(rho, delta) <= epsilon:
            break
        rho *= 1 - 1e-12
    return rho
