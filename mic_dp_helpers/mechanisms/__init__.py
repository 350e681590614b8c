"""Noise mechanisms and private selection (lessons 02, 03, 07).

Modules
-------
- noise: Laplace and Gaussian mechanisms and their calibration
- selection: the exponential mechanism, report-noisy-max and DP quantiles
- local: randomized response and local frequency oracles
- broken, broken_selection: mechanisms with planted bugs, for students to audit
"""
