"""Accounting for DP-SGD with Google's ``dp_accounting``, beside the course's own composition rules.

A DP-SGD run of ``T`` steps is ``T`` Poisson-subsampled Gaussian mechanisms, neighbours differing by
adding or removing one example (``dp_accounting``'s default ``NeighboringRelation.ADD_OR_REMOVE_ONE``).
:func:`dpsgd_epsilon` asks the RDP (Mironov 2017; Mironov, Talwar & Zhang 2019) or PLD (Koskela et
al. 2020; Doroshenko et al. 2022) accountant for its epsilon; :func:`compare_accounting` sets it beside
basic, advanced and zCDP composition and the exact composition of Gaussians without subsampling
(:mod:`mic_dp_helpers.accounting.ledger`), and basic composition with amplification by subsampling
(Balle, Barthe & Gaboardi 2018). The functions are re-exported by :mod:`mic_dp_helpers.ml.dpsgd`.
"""

from __future__ import annotations

import contextlib
import logging
import math
import numbers

import pandas as pd
from scipy.optimize import brentq

from mic_dp_helpers._validation import check_choice, check_positive_float, check_probability, check_size
from mic_dp_helpers.accounting.ledger import advanced_composition_epsilon, zcdp_rho_gaussian, zcdp_to_dp
from mic_dp_helpers.mechanisms.noise import gaussian_delta

__all__ = ["dpsgd_dp_event", "dpsgd_epsilon", "noise_multiplier_for_epsilon", "gaussian_epsilon", "compare_accounting",
           "amplified_basic_epsilon"]

_ACCOUNTANTS = ("rdp", "pld")
_MAX_NOISE_MULTIPLIER = 1e6  # beyond it every accountant gives epsilon 0 (and dp_accounting overflows)
_MIN_NOISE_MULTIPLIER = 1e-6  # below it one step alone costs epsilon ~1e12: no privacy, and dp_accounting fails
# The PLD accountant keeps a grid of privacy losses 0.001 apart: a run whose epsilon (by RDP, an upper
# bound) is above this would need tens of millions of grid points, so it is refused before allocating.
_MAX_PLD_EPSILON = 1000.0
_SIGMA_BRACKET = (0.05, 500.0)  # where noise_multiplier_for_epsilon searches


def _check_sample_rate(value) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"sample_rate must be a number in (0, 1], got {type(value).__name__} {value!r}.")
    value = float(value)
    if not 0 < value <= 1:
        raise ValueError(f"sample_rate must be in (0, 1] (the chance that an example joins a batch), got {value}.")
    return value



def dpsgd_dp_event(sample_rate: float, noise_multiplier: float, steps: int):
    """The ``dp_accounting`` event of a DP-SGD run: ``steps`` Poisson-subsampled Gaussian steps.

    Parameters
    ----------
    sample_rate : float
        Poisson sampling probability ``q`` of each example, in (0, 1].
    noise_multiplier : float
        Noise standard deviation over the clipping norm (> 0).
    steps : int
        Number of steps (>= 1).

    Returns
    -------
    dp_accounting.SelfComposedDpEvent
        The run, for any ``dp_accounting`` accountant.

    Examples
    --------
    >>> event = dpsgd_dp_event(0.01, 1.1, 100)
    >>> type(event).__name__, event.count
    ('SelfComposedDpEvent', 100)
    """
    import dp_accounting

    q = _check_sample_rate(sample_rate)
    sigma = _check_sigma(noise_multiplier)
    steps = check_size(steps, "steps", 1)
    step = dp_accounting.GaussianDpEvent(sigma)
    if q < 1:
        step = dp_accounting.PoissonSampledDpEvent(q, step)
    return dp_accounting.SelfComposedDpEvent(step, steps)


def _check_sigma(noise_multiplier) -> float:
    sigma = check_positive_float(noise_multiplier, "noise_multiplier")
    if sigma < _MIN_NOISE_MULTIPLIER:
        raise ValueError(f"noise_multiplier={sigma:g} is too small: below {_MIN_NOISE_MULTIPLIER:g} one step alone "
                         "costs an epsilon of about 1 / (2 noise_multiplier**2) > 1e11 (no privacy) and "
                         "dp_accounting fails; use a noise multiplier near 1.")
    if sigma > _MAX_NOISE_MULTIPLIER:
        raise ValueError(f"noise_multiplier={sigma:g} is too large: above {_MAX_NOISE_MULTIPLIER:g} the epsilon is 0 "
                         "to floating-point precision and dp_accounting overflows; use a smaller noise multiplier.")
    return sigma


@contextlib.contextmanager
def _quiet_absl():
    """Silence dp_accounting's RDP warnings about orders it drops (harmless: other orders still bound epsilon)."""
    logger = logging.getLogger("absl")
    level = logger.level
    logger.setLevel(logging.ERROR)
    try:
        yield
    finally:
        logger.setLevel(level)


def _new_accountant(accountant: str):
    from dp_accounting import pld, rdp

    if check_choice(accountant, "accountant", _ACCOUNTANTS) == "rdp":
        return rdp.RdpAccountant()
    # A coarser grid than the default 1e-4 is about 10x faster and slightly pessimistic (safe).
    return pld.PLDAccountant(value_discretization_interval=1e-3)


def dpsgd_epsilon(sample_rate: float, noise_multiplier: float, steps: int, delta: float,
                  accountant: str = "pld") -> float:
    """Epsilon of ``steps`` DP-SGD steps at ``delta``, from Google's ``dp_accounting``.

    Parameters
    ----------
    sample_rate : float
        Poisson rate ``q`` in (0, 1].
    noise_multiplier : float
        ``sigma`` (> 0).
    steps : int
        Number of steps (>= 1).
    delta : float
        Target delta in (0, 1); take it well below ``1 / n``.
    accountant : {"pld", "rdp"}, default "pld"
        Privacy loss distributions (tight up to discretization, pessimistic) or Rényi DP (an
        upper bound, faster). How much looser RDP is depends on the run: 17% for the run below,
        57% for the same run cut to 10 steps (see the examples). A run whose epsilon is above
        1000 (by RDP) is too large for the PLD grid: ValueError, use "rdp".

    Returns
    -------
    float

    Examples
    --------
    >>> round(dpsgd_epsilon(0.0256, 1.0, 195, 1e-5, accountant="rdp"), 3)
    2.761
    >>> round(dpsgd_epsilon(0.0256, 1.0, 195, 1e-5), 3)  # PLD
    2.359
    >>> [round(dpsgd_epsilon(0.0256, 1.0, t, 1e-5, accountant="rdp") / dpsgd_epsilon(0.0256, 1.0, t, 1e-5) - 1, 2)
    ...  for t in (195, 10)]  # how much higher RDP is than PLD
    [0.17, 0.57]
    """
    delta = check_probability(delta, "delta")
    event = dpsgd_dp_event(sample_rate, noise_multiplier, steps)
    if check_choice(accountant, "accountant", _ACCOUNTANTS) == "pld":
        _check_pld_size(sample_rate, noise_multiplier, steps, delta)
    return _epsilon_of(event, delta, accountant)


def _epsilon_of(event, delta: float, accountant: str) -> float:
    acc = _new_accountant(accountant)
    with _quiet_absl():
        acc.compose(event)
        return float(acc.get_epsilon(delta))


def _check_pld_size(sample_rate, noise_multiplier, steps, delta: float) -> None:
    """Refuse, before any allocation, a run whose PLD grid would not fit in memory (its epsilon is huge).

    The run's epsilon is at most that of ``steps`` Gaussian steps without subsampling (zCDP, in
    closed form); only when that crude bound is above the limit is the tighter RDP bound computed.
    """
    inverse = 1.0 / float(noise_multiplier)
    rho = 0.5 * steps * inverse * inverse  # inf, not an error, for a vanishing noise multiplier
    if rho + 2.0 * math.sqrt(rho * math.log(1.0 / delta)) <= _MAX_PLD_EPSILON:
        return
    upper_bound = _epsilon_of(dpsgd_dp_event(sample_rate, noise_multiplier, steps), delta, "rdp")
    if upper_bound > _MAX_PLD_EPSILON:
        raise ValueError(f"this run's epsilon is about {upper_bound:.3g} (by RDP, an upper bound): far beyond any "
                         f"meaningful guarantee, and the PLD accountant would need a grid too large for memory above "
                         f"epsilon {_MAX_PLD_EPSILON:g}. Use accountant='rdp', or more noise or fewer steps.")


def noise_multiplier_for_epsilon(target_epsilon: float, sample_rate: float, steps: int, delta: float,
                                 accountant: str = "rdp", rel_tol: float = 1e-3) -> float:
    """A ``sigma`` whose run stays within ``(target_epsilon, delta)``, at most ``1 + rel_tol`` times the least.

    Uses ``dp_accounting.calibrate_dp_mechanism``, which searches ``sigma`` with Brent's method
    between 0.05 and 500 to an absolute tolerance on ``sigma``; it is given ``rel_tol`` times the
    lower end of the search interval, which is at most the smallest valid ``sigma``, so the
    answer is within a factor ``1 + rel_tol`` of it and always meets the target. A target that
    even ``sigma = 500`` misses is a ValueError, and when every ``sigma`` in that range meets the
    target, 0.05 is returned. With ``accountant="pld"`` the RDP answer (an upper bound) is
    refined with PLD.

    Parameters
    ----------
    target_epsilon : float
        The epsilon the run may spend (> 0).
    sample_rate : float
        Poisson rate ``q`` in (0, 1].
    steps : int
        Number of steps (>= 1).
    delta : float
        Target delta in (0, 1).
    accountant : {"rdp", "pld"}, default "rdp"
        Which accountant must certify the target.
    rel_tol : float, default 1e-3
        Relative tolerance on ``sigma`` (in (0, 1)).

    Returns
    -------
    float

    Examples
    --------
    >>> sigma = noise_multiplier_for_epsilon(1.0, 0.05, 200, 1e-5)
    >>> dpsgd_epsilon(0.05, sigma, 200, 1e-5, accountant="rdp") <= 1.0
    True
    >>> dpsgd_epsilon(0.05, sigma / 1.001, 200, 1e-5, accountant="rdp") >= 1.0  # within rel_tol of the smallest
    True
    """
    target_epsilon = check_positive_float(target_epsilon, "target_epsilon")
    delta = check_probability(delta, "delta")
    _check_sample_rate(sample_rate)
    check_size(steps, "steps", 1)
    accountant = check_choice(accountant, "accountant", _ACCOUNTANTS)
    rel_tol = check_probability(rel_tol, "rel_tol")
    low, high = _SIGMA_BRACKET  # the search needs the target between the epsilons of the two ends
    at_high = _epsilon_of(dpsgd_dp_event(sample_rate, high, steps), delta, accountant)
    if at_high > target_epsilon:
        raise ValueError(f"target_epsilon={target_epsilon:g} is too small: even noise_multiplier={high:g} gives "
                         f"epsilon {at_high:.3g} for these steps. Allow a larger epsilon, or take fewer steps.")
    if _epsilon_of(dpsgd_dp_event(sample_rate, low, steps), delta, "rdp") <= target_epsilon:
        return low  # every noise multiplier searched meets the target (RDP bounds PLD): the smallest one
    sigma = _calibrate(sample_rate, steps, target_epsilon, delta, "rdp", (low, high), rel_tol)
    if accountant == "pld":  # refine near RDP's answer: PLD is usually a little tighter, its grid pessimistic
        if _epsilon_of(dpsgd_dp_event(sample_rate, sigma, steps), delta, "pld") > target_epsilon:
            return _calibrate(sample_rate, steps, target_epsilon, delta, "pld", (sigma, high), rel_tol)
        lower = max(low, sigma / 2)
        _check_pld_size(sample_rate, lower, steps, delta)
        if _epsilon_of(dpsgd_dp_event(sample_rate, lower, steps), delta, "pld") <= target_epsilon:
            return lower
        sigma = _calibrate(sample_rate, steps, target_epsilon, delta, "pld", (lower, sigma), rel_tol)
    return sigma


def _calibrate(sample_rate, steps, target_epsilon, delta, accountant, bracket, rel_tol) -> float:
    import dp_accounting

    with _quiet_absl():
        return float(dp_accounting.calibrate_dp_mechanism(
            lambda: _new_accountant(accountant),
            lambda sigma: dpsgd_dp_event(sample_rate, sigma, steps),
            target_epsilon, delta,
            bracket_interval=dp_accounting.ExplicitBracketInterval(*bracket),
            discrete=False, tol=rel_tol * bracket[0],  # absolute on sigma; bracket[0] <= the answer
        ))


def gaussian_epsilon(noise_multiplier: float, delta: float) -> float:
    """Exact epsilon at ``delta`` of one Gaussian mechanism with noise ``sigma`` times its sensitivity.

    Inverts :func:`mic_dp_helpers.mechanisms.noise.gaussian_delta` (Balle & Wang 2018); ``inf`` when the
    epsilon (about ``1 / (2 sigma**2)``) is beyond floating point.

    Parameters
    ----------
    noise_multiplier : float
        The noise's standard deviation divided by the L2 sensitivity (> 0).
    delta : float
        The target delta, in (0, 1).

    Returns
    -------
    float
        The smallest epsilon with the mechanism (epsilon, delta)-DP: 0 when even epsilon = 0 meets
        ``delta``, ``inf`` when it is beyond floating point.

    Examples
    --------
    >>> round(gaussian_epsilon(1.0, 1e-5), 3)
    4.377
    """
    sigma = check_positive_float(noise_multiplier, "noise_multiplier")
    delta = check_probability(delta, "delta")
    if gaussian_delta(1.0, sigma, 1e-12) <= delta:
        return 0.0
    high = 1.0
    while gaussian_delta(1.0, sigma, high) > delta:
        high *= 2
        if math.isinf(high):  # about 1 / (2 sigma**2) is beyond floating point
            return math.inf
    return float(brentq(lambda e: gaussian_delta(1.0, sigma, e) - delta, 1e-12, high, xtol=1e-12, rtol=1e-12))


def compare_accounting(sample_rate: float, noise_multiplier: float, steps: int, delta: float) -> pd.DataFrame:
    """Epsilon of one DP-SGD run at ``delta`` by eight methods; every row is a valid upper bound.

    Without subsampling (every step treated as a full Gaussian step, which is what the course's
    ledger can express):

    * **basic**: each step at ``delta / steps``, epsilons added (sequential composition);
    * **advanced**: each step at ``delta / (2 steps)``, advanced composition with ``delta' = delta / 2``
      (Dwork, Rothblum & Vadhan 2010), or the basic figure when that is smaller (it is, when
      each step's epsilon is large);
    * **zCDP**: ``rho = steps / (2 sigma^2)`` converted to (epsilon, delta) (Bun & Steinke 2016);
    * **RDP, no subsampling**: ``dp_accounting``'s RDP accountant with ``q = 1``;
    * **exact, no subsampling**: ``steps`` Gaussian steps compose exactly into one Gaussian
      mechanism with noise ``sigma / sqrt(steps)`` (Dong, Roth & Su 2019), whose exact epsilon
      at ``delta`` is :func:`gaussian_epsilon` (Balle & Wang 2018): the best any accountant can do
      without counting the sampling.

    With amplification by Poisson subsampling:

    * **basic, amplified**: each step is ``(eps0, delta0)``-DP as a Gaussian step; Poisson
      sampling at rate ``q`` makes it ``(log(1 + q (e^eps0 - 1)), q delta0)``-DP under add/remove
      neighbours (Balle, Barthe & Gaboardi 2018), and the steps' epsilons are added,
      with ``delta0 = delta / (q steps)`` so that the deltas add up to ``delta``;
    * **RDP** (Mironov, Talwar & Zhang 2019) and **PLD** (tight, up to its discretization),
      from ``dp_accounting``.

    Parameters
    ----------
    sample_rate : float
        Poisson rate ``q`` in (0, 1].
    noise_multiplier : float
        ``sigma`` (> 0).
    steps : int
        Number of steps (>= 1).
    delta : float
        Target delta in (0, 1).

    Returns
    -------
    pandas.DataFrame
        Columns ``method``, ``subsampling`` (bool), ``epsilon``; the rows in the order above.

    Examples
    --------
    >>> table = compare_accounting(0.05, 1.0, 100, 1e-5)
    >>> table.loc[table["subsampling"], "epsilon"].is_monotonic_decreasing
    True
    >>> bool(table["epsilon"].iloc[-1] == table["epsilon"].min())  # PLD is the tightest
    True
    """
    q = _check_sample_rate(sample_rate)
    sigma = _check_sigma(noise_multiplier)
    steps = check_size(steps, "steps", 1)
    delta = check_probability(delta, "delta")
    basic = steps * gaussian_epsilon(sigma, delta / steps)
    per_step = gaussian_epsilon(sigma, delta / (2 * steps))
    advanced = advanced_composition_epsilon(per_step, delta / 2, steps) if per_step > 0 else 0.0
    advanced = min(advanced, basic)  # both are valid at the total delta: keep the better one
    zcdp = zcdp_to_dp(steps * zcdp_rho_gaussian(1.0, sigma), delta)
    exact = gaussian_epsilon(sigma / math.sqrt(steps), delta)
    rows = [
        ("basic composition", False, basic),
        ("advanced composition", False, advanced),
        ("zCDP", False, zcdp),
        ("RDP (dp_accounting)", False, dpsgd_epsilon(1.0, sigma, steps, delta, accountant="rdp")),
        ("exact Gaussian composition", False, exact),
        ("basic composition, amplified", True, amplified_basic_epsilon(q, sigma, steps, delta)),
        ("RDP (dp_accounting)", True, dpsgd_epsilon(q, sigma, steps, delta, accountant="rdp")),
        ("PLD (dp_accounting)", True, dpsgd_epsilon(q, sigma, steps, delta, accountant="pld")),
    ]
    return pd.DataFrame(rows, columns=["method", "subsampling", "epsilon"])


def amplified_basic_epsilon(sample_rate: float, noise_multiplier: float, steps: int, delta: float) -> float:
    """Epsilon of ``steps`` Poisson-subsampled Gaussian steps by amplification, then basic composition.

    Each step alone is ``(eps0, delta0)``-DP with ``eps0`` the exact Gaussian epsilon at
    ``delta0 = delta / (q steps)``; Poisson sampling at rate ``q`` makes it
    ``(log(1 + q (e^eps0 - 1)), q delta0)``-DP for add/remove neighbours (Balle, Barthe & Gaboardi
    2018); ``steps`` of them add up to ``(steps log(1 + q (e^eps0 - 1)), delta)``.
    Valid, but far looser than RDP or PLD, which compose the steps' privacy losses.

    Parameters
    ----------
    sample_rate : float
        Poisson rate ``q`` in (0, 1].
    noise_multiplier : float
        ``sigma`` (> 0).
    steps : int
        Number of steps (>= 1).
    delta : float
        Target delta in (0, 1).

    Returns
    -------
    float

    Examples
    --------
    >>> round(amplified_basic_epsilon(1.0, 1.0, 1, 1e-5), 3) == round(gaussian_epsilon(1.0, 1e-5), 3)
    True
    >>> amplified_basic_epsilon(0.01, 1.0, 100, 1e-5) < amplified_basic_epsilon(1.0, 1.0, 100, 1e-5)
    True
    """
    q = _check_sample_rate(sample_rate)
    sigma = _check_sigma(noise_multiplier)
    steps = check_size(steps, "steps", 1)
    delta = check_probability(delta, "delta")
    per_step = gaussian_epsilon(sigma, min(delta / (q * steps), 0.5))
    if not math.isfinite(per_step):
        return math.inf
    # log(1 + q (e^eps0 - 1)) = eps0 + log(q + (1 - q) e^-eps0): no overflow for a large eps0
    if per_step < 1.0:
        amplified = math.log1p(q * math.expm1(per_step))
    else:
        amplified = per_step + math.log(q + (1 - q) * math.exp(-per_step))
    return steps * amplified
