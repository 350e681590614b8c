"""DP machine learning (lesson 08).

Modules
-------
- dpsgd: DP-SGD in NumPy (per-example clipping, Gaussian noise, Poisson sampling)
- accounting: DP-SGD's privacy with dp-accounting (RDP, PLD) and the classic composition rules
"""
