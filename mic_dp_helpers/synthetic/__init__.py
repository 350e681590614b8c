"""Differentially private synthetic data (lesson 06): one import for the names the lesson uses.

The pieces live in one module per idea; this module re-exports them so that
``from mic_dp_helpers.synthetic import X`` and ``synthetic.X`` keep working:

* :mod:`mic_dp_helpers.accounting.gdp`: Gaussian DP accounting (``gdp_delta``, ``gdp_mu``, ``gdp_epsilon``,
  ``gdp_compose``, ``group_mean_mu``, ``group_mean_sigma``).
* :mod:`mic_dp_helpers.synthetic.groupings`: random, stable k-d and clustered groupings (``random_groups``,
  ``kd_groups``, ``cluster_groups``, ...).
* :mod:`mic_dp_helpers.synthetic.group_means`: public bounds and scaling, and the release of noisy group
  means, the 3A/ClustMix "anonymize" step (``release_group_means``, ``SyntheticRelease``).
* :mod:`mic_dp_helpers.synthetic.evaluation`: train on synthetic, test on real (``evaluate_tstr``), and the
  total variation distance of two-way marginals (``two_way_tv``).
* :mod:`mic_dp_helpers.synthetic.kip`: the optional "adapt" step (``kip_adapt``).
* :mod:`mic_dp_helpers.synthetic.audit`: the neighbouring pair and audit-ready releases of
  the lesson's audit (``four_corners_pair``, ``spread_mechanism``, ...).
* :mod:`mic_dp_helpers.synthetic.binning`: discretisation with bins fixed from public bounds.
* :mod:`mic_dp_helpers.synthetic.marginals`: marginal-based synthetic data, a teaching implementation
  of MST (McKenna, Miklau & Sheldon 2021), and the independent-marginals baseline.
* :mod:`mic_dp_helpers.synthetic.tree_model`: MST's tree model, fitted to the noisy marginals and sampled
  (post-processing).
* :mod:`mic_dp_helpers.synthetic.comparison`: lesson 06's comparison of the methods on the same
  data and the same (epsilon, delta).

Each module names its neighbour relation and what it assumes public. Noise is drawn with
NumPy's floating-point sampler: teaching only, not production-safe (Mironov 2012).
"""

from __future__ import annotations

from mic_dp_helpers.synthetic.evaluation import evaluate_tstr, load_task, split_real, two_way_tv
from mic_dp_helpers.accounting.gdp import gdp_compose, gdp_delta, gdp_epsilon, gdp_mu, group_mean_mu, group_mean_sigma
from mic_dp_helpers.synthetic.group_means import (
    SyntheticRelease,
    public_bounds,
    release_group_means,
    scale_to_unit,
    smallest_group_size,
    unscale_from_unit,
)
from mic_dp_helpers.synthetic.groupings import GROUPINGS, cluster_groups, groups_touched, kd_groups, kd_leaf_sizes, random_groups
from mic_dp_helpers.synthetic.kip import kip_adapt
from mic_dp_helpers.synthetic.audit import four_corners_pair, matched_centroid_shift, spread_mechanism

__all__ = [
    "gdp_delta",
    "gdp_mu",
    "gdp_epsilon",
    "gdp_compose",
    "group_mean_mu",
    "group_mean_sigma",
    "public_bounds",
    "scale_to_unit",
    "unscale_from_unit",
    "random_groups",
    "kd_leaf_sizes",
    "kd_groups",
    "cluster_groups",
    "groups_touched",
    "smallest_group_size",
    "SyntheticRelease",
    "release_group_means",
    "load_task",
    "split_real",
    "evaluate_tstr",
    "two_way_tv",
    "kip_adapt",
    "four_corners_pair",
    "matched_centroid_shift",
    "spread_mechanism",
    "GROUPINGS",
]
