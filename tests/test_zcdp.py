"""zCDP to (epsilon, delta) with Canonne, Kamath & Steinke's conversion (accounting.zcdp).

Checked against known values (the rho that MST's authors' conversion allows), against
``dp_accounting``'s Rényi-DP conversion on a dense grid of orders (the same bound, minimised over
a grid, so never below ours), and against the exact curve of the Gaussian mechanism, which is
rho-zCDP: a conversion that claims more than the Gaussian's exact privacy would be invalid.
"""

import math

import numpy as np
import pytest
from dp_accounting.rdp.rdp_privacy_accountant import compute_delta, compute_epsilon

from mic_dp_helpers.accounting.gdp import gdp_delta
from mic_dp_helpers.accounting.ledger import zcdp_to_dp
from mic_dp_helpers.accounting.zcdp import zcdp_delta, zcdp_epsilon, zcdp_rho

ORDERS = 1 + np.geomspace(1e-4, 1e5, 20_000)
RHOS = [1e-4, 0.0244, 0.5, 3.0, 50.0]
DELTAS = [1e-10, 1e-6, 1e-3]


@pytest.mark.parametrize("epsilon, rho, classic_ratio", [(0.5, 0.00664, 1.49), (1.0, 0.0244, 1.39),
                                                          (10.0, 1.539, 1.14)])
def test_known_values_at_delta_1e_6(epsilon, rho, classic_ratio):
    """rho 0.0244 at (1, 1e-6) against Bun & Steinke's 0.0175 (x1.39; x1.49 at 0.5, x1.14 at 10)."""
    found = zcdp_rho(epsilon, 1e-6)
    assert found == pytest.approx(rho, rel=2e-3)
    classic = (math.sqrt(math.log(1e6) + epsilon) - math.sqrt(math.log(1e6))) ** 2
    assert found / classic == pytest.approx(classic_ratio, abs=0.01)


@pytest.mark.parametrize("rho", RHOS)
@pytest.mark.parametrize("delta", DELTAS)
def test_epsilon_matches_dp_accounting_and_never_exceeds_bun_steinke(rho, delta):
    ours = zcdp_epsilon(rho, delta)
    theirs = compute_epsilon(ORDERS, ORDERS * rho, delta)[0]  # the same bound, over a grid of orders
    assert theirs - 1e-5 * theirs <= ours <= theirs + 1e-12
    assert ours < zcdp_to_dp(rho, delta)


@pytest.mark.parametrize("rho", RHOS)
@pytest.mark.parametrize("delta", DELTAS)
def test_delta_and_rho_invert_epsilon(rho, delta):
    epsilon = zcdp_epsilon(rho, delta)
    assert zcdp_delta(rho, epsilon) == pytest.approx(delta, rel=1e-6)
    assert zcdp_delta(rho, epsilon) <= compute_delta(ORDERS, ORDERS * rho, epsilon)[0] * (1 + 1e-12)
    back = zcdp_rho(epsilon, delta)
    assert back == pytest.approx(rho, rel=1e-6) and zcdp_epsilon(back, delta) <= epsilon


@pytest.mark.parametrize("rho", RHOS)
@pytest.mark.parametrize("delta", DELTAS)
def test_the_gaussian_mechanism_keeps_the_converted_guarantee(rho, delta):
    """Gaussian noise with Delta/sigma = sqrt(2 rho) is rho-zCDP; its exact delta (Dong, Roth & Su) must fit."""
    epsilon = zcdp_epsilon(rho, delta)
    assert gdp_delta(epsilon, math.sqrt(2 * rho)) <= delta
    # and the conversion is not vacuous: it is within a factor 1.5 in epsilon of the Gaussian's exact curve
    assert gdp_delta(epsilon / 1.5, math.sqrt(2 * rho)) > delta


@pytest.mark.parametrize("call, error, match", [
    (lambda: zcdp_epsilon(0.0, 1e-6), ValueError, "rho must be > 0"),
    (lambda: zcdp_epsilon(0.1, 1.0), ValueError, r"delta must be in \(0, 1\)"),
    (lambda: zcdp_delta(0.1, -1.0), ValueError, "epsilon must be > 0"),
    (lambda: zcdp_rho("1", 1e-6), TypeError, "epsilon must be a positive number"),
])
def test_bad_input_names_the_argument(call, error, match):
    with pytest.raises(error, match=match):
        call()


def test_the_docstring_examples_hold():
    import doctest

    from mic_dp_helpers.accounting import zcdp

    assert doctest.testmod(zcdp).failed == 0
