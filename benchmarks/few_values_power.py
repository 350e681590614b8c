"""Power of 04.1's per-case spread test on data with few distinct values (stop 42).

Usage::

    PYTHONPATH=$PWD .venv/bin/python benchmarks/few_values_power.py               # seeds 0-5
    PYTHONPATH=$PWD .venv/bin/python benchmarks/few_values_power.py --seeds 20 --shrink 0.5

For each case of :func:`~mic_dp_helpers.checks._mean_few_values.few_value_cases` and of
:func:`~mic_dp_helpers.checks._mean_few_values.level_cases` at seeds 0, 1, ..., the
alternative's answers are PyDP's own BoundedMean at ``epsilon / shrink`` (noise ``shrink`` times PyDP's, the
effect of bounds narrowed to a ``shrink`` share of their width), ``SPREAD_RUNS`` of them, ranked among
``REFERENCE_RUNS`` of PyDP's at ``epsilon``. It prints, per kind of data, the share of cases whose z is below
the per-case threshold (``CASE_P``) and the median z. Measured 2026-11-28 (seeds 0-5, shrink 1/3), 120 answers
and 240 of PyDP's a case, threshold z = -4.75: every case of the four few-value kinds inside the bounds (18 each;
median z -7.7 to -8.2) and of the level cases (42 whole, 42 real; -8.0, -8.1); every value beyond one bound 0.00
(median z -2.3: PyDP's answers pile up on the bound); epsilon below 0.015 0.50 (-5.8). (With 80 and 160 and
z = -5.2: 0.86-1.00 inside the bounds, 0.00 beyond one bound, 0.44-0.50 below epsilon 0.015.)
"""

from __future__ import annotations

import argparse
import math
from collections import defaultdict

import numpy as np
import scipy.stats

from mic_dp_helpers.checks import _mean_few_values
from mic_dp_helpers.checks._mean_spread import rank_shift
from mic_dp_helpers.checks._pydp_reference import pydp_means


def case_z_scores(seeds: int, shrink: float) -> dict[str, list[float]]:
    """{kind: the per-case z of the shrunk-noise alternative, over ``seeds`` seeds}."""
    scores = defaultdict(list)
    for seed in range(seeds):
        cases = [(*case[:4], case[4]) for case in _mean_few_values.few_value_cases(seed)]
        cases += [(*case[:4], _mean_few_values.level_kind(case[4])) for case in _mean_few_values.level_cases(seed)]
        for values, lower, upper, epsilon, label in cases:
            centre = float(np.clip(values, lower, upper).mean())
            answers = pydp_means(values, lower, upper, epsilon / shrink, _mean_few_values.SPREAD_RUNS)
            reference = pydp_means(values, lower, upper, epsilon, _mean_few_values.REFERENCE_RUNS)
            shift, variance = rank_shift(answers, reference, centre)
            scores[label].append(shift / math.sqrt(variance) if variance > 0 else 0.0)
    return scores


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=6, help="seeds 0 .. SEEDS-1 (default 6)")
    parser.add_argument("--shrink", type=float, default=1 / 3, help="the alternative's noise / PyDP's (default 1/3)")
    arguments = parser.parse_args()
    threshold = float(scipy.stats.norm.ppf(_mean_few_values.CASE_P))
    for label, scores in case_z_scores(arguments.seeds, arguments.shrink).items():
        scores = np.asarray(scores)
        print(f"{label:38s} {len(scores):3d} cases  below z={threshold:.2f}: {np.mean(scores < threshold):.2f}"
              f"  median z {np.median(scores):.1f}")


if __name__ == "__main__":
    main()
