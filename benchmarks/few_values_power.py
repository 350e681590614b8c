"""Power of 04.1's few-values stage (:mod:`~mic_dp_helpers.checks._mean_few_values`) against too little noise.

Usage::

    PYTHONPATH=$PWD .venv/bin/python benchmarks/few_values_power.py                 # seeds 0-5, noise shrunk to 1/3
    PYTHONPATH=$PWD .venv/bin/python benchmarks/few_values_power.py --seeds 20 --shrink 0.5
    PYTHONPATH=$PWD .venv/bin/python benchmarks/few_values_power.py --shrink 1 --floor 0.0045  # epsilon floored
    PYTHONPATH=$PWD .venv/bin/python benchmarks/few_values_power.py --shrink 1                 # a correct answer
    PYTHONPATH=$PWD .venv/bin/python benchmarks/few_values_power.py --shrink 0.3333 --only "every value beyond one bound"

For each case of :func:`~mic_dp_helpers.checks._mean_few_values.few_value_cases` and of
:func:`~mic_dp_helpers.checks._mean_few_values.level_cases` at seeds 0, 1, ..., the alternative's answers are
PyDP's own BoundedMean at ``epsilon / shrink`` (noise ``shrink`` times PyDP's, the effect of bounds narrowed to a
``shrink`` share of their width), or at ``max(epsilon, floor)``, ``SPREAD_RUNS`` of them, for the kind ``--only``
or every kind (the others answer correctly); each case goes through the stage's own ``check_case`` (its rank tests
against ``REFERENCE_RUNS`` of PyDP's, over all answers and over those off the bounds, and the share on a bound),
and each seed's totals through ``check_spread``. It prints, per kind, the share of its cases rejected and the
share of seeds in which the stage rejected the alternative (a case of that kind or a pooled test).

Measured 2026-11-28 with the rank test of all answers alone (seeds 0-5, shrink 1/3, 120 and 240 a case,
threshold z = -4.75): every case of the four few-value kinds inside the bounds and of the level cases; every value
beyond one bound 0.00 of cases (median z -2.3: PyDP's answers pile up on the bound); epsilon below 0.015 0.50.
Stop 44's figures, with the tests off the bounds, are in ``_mean_few_values._off_the_bounds``.
"""

from __future__ import annotations

import argparse
from collections import defaultdict

import numpy as np

from mic_dp_helpers.checks import _mean_few_values
from mic_dp_helpers.checks._core import CheckFailed
from mic_dp_helpers.checks._pydp_reference import pydp_means


def stage_outcomes(seeds: int, shrink: float, floor: float, only: str | None) -> tuple[dict, dict]:
    """({kind: [case rejected?]}, {kind: [seed in which the stage rejected?]}) for the alternative."""
    cases_rejected, seeds_rejected = defaultdict(list), defaultdict(list)
    for seed in range(seeds):
        cases = [(case, str) for case in _mean_few_values.few_value_cases(seed)]
        cases += [(case, _mean_few_values.level_kind) for case in _mean_few_values.level_cases(seed)]
        pooled, hit = {}, set()
        for (values, lower, upper, epsilon, label), kind_of in cases:
            kind = kind_of(label)
            wrong = only is None or kind == only
            answer_epsilon = max(epsilon / shrink, floor) if wrong else epsilon
            answers = np.asarray(pydp_means(values, lower, upper, answer_epsilon, _mean_few_values.SPREAD_RUNS))
            try:
                for test, (shift, variance) in _mean_few_values.check_case(answers, values, lower, upper, epsilon,
                                                                            label).items():
                    totals = pooled.setdefault((kind, test), [0.0, 0.0])
                    totals[0], totals[1] = totals[0] + shift, totals[1] + variance
                rejected = False
            except CheckFailed:
                rejected = True
                hit.add(kind)
            if wrong:
                cases_rejected[kind].append(rejected)
        for key, totals in pooled.items():
            try:
                _mean_few_values.check_spread({key: totals})
            except CheckFailed:
                hit.add(key[0])
        for kind in cases_rejected:
            if len(seeds_rejected[kind]) < seed + 1:
                seeds_rejected[kind].append(kind in hit)
    return cases_rejected, seeds_rejected


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=6, help="seeds 0 .. SEEDS-1 (default 6)")
    parser.add_argument("--shrink", type=float, default=1 / 3,
                        help="the alternative's noise / PyDP's (default 1/3; 1 with --floor 0 is a correct answer)")
    parser.add_argument("--floor", type=float, default=0.0, help="the alternative's least epsilon (default 0)")
    parser.add_argument("--only", default=None, help="the one kind that answers wrongly (default: every kind)")
    arguments = parser.parse_args()
    cases, seeds = stage_outcomes(arguments.seeds, arguments.shrink, arguments.floor, arguments.only)
    for kind in cases:
        print(f"{kind:48s} {len(cases[kind]):3d} cases, rejected {np.mean(cases[kind]):.2f};"
              f" stage rejected in {np.mean(seeds[kind]):.2f} of {len(seeds[kind])} seeds")


if __name__ == "__main__":
    main()
