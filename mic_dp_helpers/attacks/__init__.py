"""Attacks and audits: what goes wrong without DP, and how to test a DP claim (lessons 01-04, 08).

Modules
-------
- anonymity: linkage, uniqueness and k-anonymity
- reconstruction: the averaging and reconstruction attacks
- membership: membership inference against a trained model
- audit: empirical lower bounds on epsilon from a mechanism's outputs
- floating_point: Mironov's attack on textbook floating-point Laplace noise
"""
